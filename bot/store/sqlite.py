"""The SQLite backend: tables of every game, seats, the append-only move log, deadlines,
final scores, ratings, server defaults and the outbox.

One database file in WAL mode, numbered migrations applied at start (``PRAGMA
user_version`` records how far). A game is its seed plus its move log: the engine's
``replay`` rebuilds the state, so nothing derived is stored twice. Every write is one
transaction that is committed before the method returns; callers answer players only
after that.

``synchronous = NORMAL`` in WAL mode survives a killed process without losing a committed
transaction; only a power cut or OS crash can lose the last few commits.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import sqlite3
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any, TypeVar

import aiosqlite

from bot.ratings import Rating
from bot.store.aiosqlite_internals import run_in_thread
from bot.store.base import ShardSlice
from bot.store.common import (
    GAME_COLUMNS,
    finished_games,
    game_record,
    rated_players,
    rating_rows,
    result_rows,
)
from bot.store.migrations import MIGRATIONS, split_statements
from bot.store.records import (
    CLOSED,
    ConstraintError,
    FinishedGame,
    GameRecord,
    LiveTableExistsError,
    MatchPost,
    SeatRecord,
    SeatResult,
    StoreError,
    StoreWriteError,
)
from bot.store.sql import INSERT_MOVE, INSERT_SEAT, Batch, Query, SQLStore, seat_rows

__all__ = ["SQLiteStore", "rating_statements"]


_T = TypeVar("_T")
_WAL_ATTEMPTS = 100
_WAL_RETRY_SECONDS = 0.05
Statements = list[tuple[str, Sequence[Any]]]


class _SQLiteConstraintError(ConstraintError, sqlite3.IntegrityError):
    """The store's :class:`ConstraintError`, still the ``sqlite3.IntegrityError`` that the
    SQLite store raised before there was a second backend (callers may catch either)."""


def _refused_write(error: sqlite3.OperationalError) -> bool:
    """Whether SQLite refused to write for a reason of the file or the disk, not of the SQL."""
    text = str(error).lower()
    return any(
        cause in text
        for cause in (
            "readonly",
            "read-only",
            "disk is full",
            "locked",
            "disk i/o",
            "unable to open",
        )
    )


def _unusable(path: Path, error: sqlite3.Error) -> StoreError:
    """Return the one sentence for a database file that cannot be used."""
    text = str(error)
    lowered = text.lower()
    if "not a database" in lowered or "malformed" in lowered or "corrupt" in lowered:
        return StoreError(
            f"The database {path} is damaged or not a database ({text}); restore it "
            "from a backup or move it away to start a new one."
        )
    if "readonly" in lowered or "read-only" in lowered:
        return StoreError(
            f"The database {path} is read-only: the bot must be able to write it, and its "
            "folder (for its -wal and -shm files)."
        )
    if "unable to open" in lowered:
        return StoreError(
            f"The database {path} cannot be opened ({text}): the bot must be able to write "
            f"the file and its folder {path.parent}."
        )
    return StoreError(f"The database {path} cannot be used: {text}.")


def _probe(path: Path) -> None:
    """Open the database file with the standard library and try a write that is rolled
    back: a file that cannot be opened, is damaged or is read-only (itself, its folder or
    its file system) is refused at start in one sentence, before the bot takes a click."""
    try:
        conn = sqlite3.connect(path, timeout=5, isolation_level=None)
    except sqlite3.Error as error:
        raise _unusable(path, error) from None
    try:
        conn.execute("BEGIN IMMEDIATE")
        conn.execute("CREATE TABLE IF NOT EXISTS main.write_probe (x INTEGER)")
        conn.execute("ROLLBACK")
    except sqlite3.Error as error:
        raise _unusable(path, error) from None
    finally:
        conn.close()


def _owner_only(path: Path) -> None:
    """Create the database file readable and writable by its owner only (0600), or narrow
    an existing one to that: a game's seed and move log reveal every hand. SQLite gives the
    -wal and -shm files the database file's permissions."""
    try:
        fd = os.open(path, os.O_CREAT | os.O_RDWR, 0o600)
    except OSError:
        return  # a read-only file or folder: opening it says so in its own words
    try:
        if os.fstat(fd).st_mode & 0o077:
            os.fchmod(fd, 0o600)
    except OSError:
        pass  # not ours to change: the operator chose its permissions
    finally:
        os.close(fd)


class SQLiteStore(SQLStore):
    """The bot's database in one SQLite file (a :class:`bot.store.Store`). Open with
    :meth:`open`, close with :meth:`close`.

    Nothing in it knows a game's rules: every table names its game, and every read that
    is per game (leaderboard, stats, history, defaults) takes the game's name."""

    def __init__(self, db: aiosqlite.Connection, path: Path) -> None:
        self._db = db
        self.path = path
        self._refusing = False  # the database refuses writes (one log line per episode)
        self._closed = False

    @property
    def location(self) -> str:
        """The database file's path."""
        return str(self.path)

    @classmethod
    async def open(cls, path: Path | str) -> SQLiteStore:
        """Open (creating if needed) and migrate the database at ``path``.

        Raises :class:`StoreError` with one sentence if the file cannot be used: its folder
        is missing or read-only, it is not an SQLite database, or it is damaged.
        """
        path = Path(path)
        if path.is_dir():
            raise StoreError(f"The database path {path} is a directory, not a file.")
        if not path.parent.exists():
            raise StoreError(f"The database folder {path.parent} does not exist.")
        _owner_only(path)
        # Tried first without aiosqlite: a file it fails to open leaves its thread to report
        # to an event loop that is closing ("Event loop is closed" tracebacks at exit).
        await asyncio.to_thread(_probe, path)
        try:
            db = await aiosqlite.connect(path, isolation_level=None)
        except sqlite3.Error as error:
            raise StoreError(f"The database {path} cannot be opened: {error}.") from None
        store = cls(db, path)
        try:
            await store._prepare()
        except sqlite3.DatabaseError as error:
            await db.close()
            raise _unusable(path, error) from None
        return store

    async def _prepare(self) -> None:
        db = self._db
        for pragma in (
            "PRAGMA busy_timeout = 5000",
            "PRAGMA synchronous = NORMAL",
            "PRAGMA foreign_keys = ON",
        ):
            async with db.execute(pragma) as cursor:
                await cursor.fetchall()
        await self._use_wal()
        async with db.execute("PRAGMA quick_check") as cursor:
            row = await cursor.fetchone()
        if row is None or row[0] != "ok":
            raise sqlite3.DatabaseError(f"database disk image is malformed: {row and row[0]}")
        version = await self._user_version()
        self._check_version(version)
        if version == len(MIGRATIONS):
            return
        await db.execute("BEGIN IMMEDIATE")
        try:
            # Read again under the write lock: another process (a shard slice starting at
            # the same moment) may have migrated the file meanwhile.
            version = await self._user_version()
            self._check_version(version)
            for number in range(version, len(MIGRATIONS)):
                for statement in split_statements(MIGRATIONS[number]):
                    await db.execute(statement)
                await db.execute(f"PRAGMA user_version = {number + 1}")
            # A migration that rebuilds a table must leave every reference whole.
            async with db.execute("PRAGMA foreign_key_check") as cursor:
                broken = list(await cursor.fetchall())
            if broken:
                raise sqlite3.DatabaseError(f"migration broke foreign keys: {broken[:3]}")
            await db.execute("COMMIT")
        except BaseException:
            await db.execute("ROLLBACK")
            raise

    async def _use_wal(self) -> None:
        """Switch the file to WAL mode. On a new file that another process (a shard slice
        starting at the same moment) is switching too, SQLite may answer "database is
        locked" at once instead of waiting its busy timeout: try again for up to 5 s."""
        for attempt in range(_WAL_ATTEMPTS):
            try:
                async with self._db.execute("PRAGMA journal_mode = WAL") as cursor:
                    await cursor.fetchall()
                return
            except sqlite3.OperationalError as error:
                if "locked" not in str(error) or attempt == _WAL_ATTEMPTS - 1:
                    raise
                await asyncio.sleep(_WAL_RETRY_SECONDS)

    async def _user_version(self) -> int:
        async with self._db.execute("PRAGMA user_version") as cursor:
            row = await cursor.fetchone()
        return int(row[0]) if row else 0

    @staticmethod
    def _check_version(version: int) -> None:
        if version > len(MIGRATIONS):
            raise sqlite3.DatabaseError(
                f"the database was written by a newer version (schema {version})"
            )

    async def close(self) -> None:
        """Close the database; later calls raise :class:`StoreWriteError` (``CLOSED``)."""
        if self._closed:
            return
        self._closed = True
        await self._db.close()

    async def _run(self, fn: Callable[..., _T], *args: Any) -> _T:
        """Run ``fn(connection, *args)`` in the database thread and return its result.

        Each method of the store is one such call: a transaction (or a read of several
        statements) runs from start to end in the thread, in one hop from the event loop
        (:mod:`bot.store.aiosqlite_internals` says why, with the measured figures).
        The thread runs one call at a time, in order, so transactions never interleave and
        need no lock on the loop; a transaction made of one await per statement would hold
        the write lock across as many turns of a busy loop, and every other write would
        queue behind it.
        """
        if self._closed:
            raise StoreWriteError(CLOSED)
        try:
            result: _T = await run_in_thread(self._db, fn, *args)
        except sqlite3.IntegrityError as error:
            raise _SQLiteConstraintError(
                f"The database refused a write that breaks its rules: {error}."
            ) from error
        except sqlite3.OperationalError as error:
            if not _refused_write(error):
                raise
            self._refused("refuses writes", str(error))
            raise StoreWriteError(f"The database {self.path} refused a write: {error}.") from None
        if fn in _WRITERS:
            self._accepted()
        return result

    async def _write(
        self,
        statements: Iterable[tuple[str, Sequence[Any]]],
        then: Callable[[sqlite3.Connection], Statements] | None = None,
    ) -> None:
        """Run ``statements`` in one transaction; ``then`` may read inside it and return
        more statements for the same transaction."""
        await self._run(_transaction, list(statements), then)

    async def _execute(self, sql: str, *args: Any) -> None:
        await self._write([(sql, args)])

    async def _transaction(self, batches: Sequence[Batch]) -> None:
        await self._write([(sql, row) for sql, rows in batches for row in rows])

    async def _fetch(self, *queries: Query) -> list[list[Any]]:
        return await self._run(_read_all, list(queries))

    async def _games(self, where: str, *args: Any) -> list[GameRecord]:
        return await self._run(_read_games, where, args)

    def _on_shards(self, shards: ShardSlice | None) -> tuple[str, tuple[Any, ...]]:
        if shards is None:
            return "", ()
        marks = ", ".join("?" for _ in shards.ids)
        return f" AND ((guild_id >> 22) % ?) IN ({marks})", (shards.count, *shards.ids)

    # --- tables --------------------------------------------------------------------

    async def create_game(
        self,
        *,
        game: str,
        guild_id: int,
        channel_id: int,
        host_id: int,
        seed: int,
        options: dict[str, Any],
        now: float,
        host_seat: SeatRecord,
    ) -> int:
        """Open a table in the channel with the host seated; return its id.

        Raises :class:`LiveTableExistsError` if the channel has an open or running table.
        """
        row = (game, guild_id, channel_id, host_id, seed, json.dumps(options), now)
        seat = (host_seat.seat, host_seat.user_id, host_seat.name, host_seat.level)
        try:
            return await self._run(_create_game, row, seat)
        except ConstraintError:
            raise LiveTableExistsError("This channel already has a table.") from None

    async def append_moves(
        self,
        game_id: int,
        first_ply: int,
        moves: Sequence[tuple[int, str, bool]],
        now: float,
        deadline: float | None,
        warned: bool = False,
        results: Sequence[SeatResult | tuple[Any, ...]] | None = None,
        guild_id: int = 0,
        owed: Sequence[str] = (),
        rated: bool = True,
        seats: Iterable[SeatRecord] | None = None,
    ) -> None:
        """Append ``(seat, move, by_computer)`` entries from ply ``first_ply`` and set the
        current decision's deadline, in one transaction. A ply that exists already raises,
        so a move can never be written twice. With ``results`` — a :class:`SeatResult` (or
        its fields as a tuple) per seat — the same transaction also closes the game and
        updates the players' ratings. ``owed`` names the public posts these moves make due
        (see :meth:`posted`); they are recorded in the same transaction, as is the new
        seating ``seats``, if given."""
        statements: list[tuple[str, Sequence[Any]]] = []
        if seats is not None:
            statements.append(("DELETE FROM seats WHERE game_id = ?", (game_id,)))
            statements += [(INSERT_SEAT, row) for row in seat_rows(game_id, seats)]
        statements += [
            (INSERT_MOVE, (game_id, first_ply + i, seat, move, int(by_computer), now))
            for i, (seat, move, by_computer) in enumerate(moves)
        ]
        statements.append(
            (
                "UPDATE games SET deadline = ?, warned = ? WHERE id = ? AND status = 'playing'",
                (deadline, int(warned), game_id),
            )
        )
        statements += [
            ("INSERT OR IGNORE INTO outbox (game_id, post) VALUES (?, ?)", (game_id, post))
            for post in owed
        ]
        if results is None:
            await self._write(statements)
            return
        rows = [SeatResult(*row) for row in results]
        statements.extend(_finish_statements(game_id, guild_id, rows, now))
        if not rated:
            await self._write(statements)
            return
        await self._write(
            statements,
            then=lambda conn: rating_statements(
                conn, _game_name(conn, game_id), guild_id, rows, now
            ),
        )

    async def rate(
        self, guild_id: int, game: str, results: Sequence[SeatResult], now: float
    ) -> None:
        """Move the ratings in ``game`` of an event's players, ranked by their scores."""
        rows = [SeatResult(*row) for row in results]
        await self._write([], then=lambda conn: rating_statements(conn, game, guild_id, rows, now))

    async def create_match(self, game: str, guild_id: int, data: dict[str, Any], now: float) -> int:
        """Store a new event over several tables (status ``open``); return its id."""
        return await self._run(_create_match, (game, guild_id, json.dumps(data), now, now))

    async def save_match(
        self,
        match_id: int,
        status: str,
        data: dict[str, Any],
        now: float,
        posts: Sequence[MatchPost] = (),
    ) -> None:
        """Replace the event's status and document, and owe ``posts`` in the same
        transaction (a post whose nonce the event has owed before is left as it is)."""
        statements: list[tuple[str, Sequence[Any]]] = [
            (
                "UPDATE matches SET status = ?, data = ?, updated_at = ? WHERE id = ?",
                (status, json.dumps(data), now, match_id),
            )
        ]
        statements += [
            (
                "INSERT OR IGNORE INTO match_posts (match_id, nonce, seq, channel_id, text)"
                " VALUES (?, ?, ?, ?, ?)",
                (match_id, p.nonce, p.seq, p.channel_id, p.text),
            )
            for p in posts
        ]
        await self._write(statements)

    async def shown(self, game_id: int, plies: int) -> None:
        """Record that the table message shows the game up to ``plies`` moves."""
        await self._write(
            [
                (
                    "UPDATE games SET shown_plies = MAX(shown_plies, ?) WHERE id = ?",
                    (plies, game_id),
                )
            ]
        )

    # --- reading -------------------------------------------------------------------

    async def recent_games(
        self, guild_id: int, game: str | None, *, limit: int = 10
    ) -> list[FinishedGame]:
        """Return the server's most recently finished games of ``game`` (of every game if
        ``None``; each says which), newest first."""
        return await self._run(_recent_games, guild_id, game, limit)

    async def set_defaults(
        self, guild_id: int, options: dict[str, Any], user_id: int, now: float, game: str
    ) -> None:
        """Store the server's defaults for new tables of ``game``."""
        await self._write(
            [
                (
                    "INSERT OR REPLACE INTO guild_defaults"
                    " (guild_id, game, options, updated_by, updated_at) VALUES (?, ?, ?, ?, ?)",
                    (guild_id, game, json.dumps(options, sort_keys=True), user_id, now),
                )
            ]
        )


def _finish_statements(
    game_id: int, guild_id: int, results: Iterable[SeatResult], now: float
) -> list[tuple[str, Sequence[Any]]]:
    statements: list[tuple[str, Sequence[Any]]] = [
        (
            "INSERT INTO results (game_id, seat, guild_id, user_id, level, score, win, rounds)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            row,
        )
        for row in result_rows(game_id, guild_id, results)
    ]
    statements.append(
        (
            "UPDATE games SET status = 'finished', ended_at = ?, deadline = NULL WHERE id = ?",
            (now, game_id),
        )
    )
    return statements


# --- in the database thread -------------------------------------------------------------
# Each function below runs whole in aiosqlite's thread (see ``Store._run``), on the plain
# ``sqlite3`` connection; the loop only waits for its result.


@contextlib.contextmanager
def _writing(conn: sqlite3.Connection) -> Iterator[None]:
    """Run the block as one write transaction: committed at its end, rolled back if it
    raises."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        yield
        conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise


@contextlib.contextmanager
def _snapshot(conn: sqlite3.Connection) -> Iterator[None]:
    """Run the block's reads in one read transaction, so that they see one state."""
    conn.execute("BEGIN")
    try:
        yield
    finally:
        conn.execute("COMMIT")


def _transaction(
    conn: sqlite3.Connection,
    statements: Sequence[tuple[str, Sequence[Any]]],
    then: Callable[[sqlite3.Connection], Statements] | None = None,
) -> None:
    with _writing(conn):
        for sql, params in statements:
            conn.execute(sql, params)
        if then is not None:
            for sql, params in then(conn):
                conn.execute(sql, params)


def _create_game(conn: sqlite3.Connection, row: tuple[Any, ...], seat: tuple[Any, ...]) -> int:
    with _writing(conn):
        cursor = conn.execute(
            "INSERT INTO games (game, guild_id, channel_id, host_id, seed, options, status,"
            " created_at) VALUES (?, ?, ?, ?, ?, ?, 'lobby', ?)",
            row,
        )
        game_id = cursor.lastrowid
        assert game_id is not None
        conn.execute(
            INSERT_SEAT,
            (game_id, *seat),
        )
    return game_id


def _create_match(conn: sqlite3.Connection, row: tuple[Any, ...]) -> int:
    with _writing(conn):
        cursor = conn.execute(
            "INSERT INTO matches (game, guild_id, status, data, created_at, updated_at)"
            " VALUES (?, ?, 'open', ?, ?, ?)",
            row,
        )
        match_id = cursor.lastrowid
        assert match_id is not None
    return match_id


def _read_all(
    conn: sqlite3.Connection, reads: Sequence[tuple[str, Sequence[Any]]]
) -> list[list[Any]]:
    """Run the queries in one snapshot; return each one's rows."""
    with _snapshot(conn):
        return [conn.execute(sql, params).fetchall() for sql, params in reads]


def _read_games(
    conn: sqlite3.Connection, where: str, args: Sequence[Any], *, moves: bool = True
) -> list[GameRecord]:
    """Return the games ``WHERE where`` with their seats and (with ``moves``) their move
    logs and owed posts, read in one snapshot."""
    with _snapshot(conn):
        rows = conn.execute(f"SELECT {GAME_COLUMNS} FROM games WHERE {where}", args).fetchall()
        records = [game_record(row) for row in rows]
        _fill(conn, records, moves=moves)
        return records


def _fill(conn: sqlite3.Connection, records: list[GameRecord], *, moves: bool = True) -> None:
    if not records:
        return
    by_id = {r.id: r for r in records}
    marks = ",".join("?" * len(by_id))
    ids = tuple(by_id)
    for game_id, seat, user_id, name, level in conn.execute(
        f"SELECT game_id, seat, user_id, name, level FROM seats WHERE game_id IN ({marks})", ids
    ):
        by_id[game_id].seats[seat] = SeatRecord(seat, user_id, name, level)
    if not moves:
        return
    for game_id, move in conn.execute(
        f"SELECT game_id, move FROM moves WHERE game_id IN ({marks}) ORDER BY game_id, ply", ids
    ):
        by_id[game_id].moves.append(move)
    for game_id, post in conn.execute(
        f"SELECT game_id, post FROM outbox WHERE game_id IN ({marks}) ORDER BY game_id, post", ids
    ):
        by_id[game_id].owed.append(post)


def _recent_games(
    conn: sqlite3.Connection, guild_id: int, game: str | None, limit: int
) -> list[FinishedGame]:
    which = "" if game is None else " AND game = ?"
    args = (guild_id, limit) if game is None else (guild_id, game, limit)
    with _snapshot(conn):
        rows = conn.execute(
            f"SELECT {GAME_COLUMNS}, ended_at FROM games WHERE guild_id = ?"
            " AND (status = 'finished' OR (end_reason = 'abandoned' AND started_at IS NOT NULL))"
            f"{which}"
            " ORDER BY ended_at DESC, id DESC LIMIT ?",
            args,
        ).fetchall()
        records = [game_record(row) for row in rows]
        _fill(conn, records, moves=False)
        results: list[Any] = []
        ids = tuple(r.id for r in records)
        if ids:
            marks = ",".join("?" * len(ids))
            results = conn.execute(
                f"SELECT game_id, seat, score, win FROM results WHERE game_id IN ({marks})",
                ids,
            ).fetchall()
    return finished_games(rows, records, results)


def _game_name(conn: sqlite3.Connection, game_id: int) -> str:
    """Return the name of the game played at table ``game_id``."""
    found = conn.execute("SELECT game FROM games WHERE id = ?", (game_id,)).fetchone()
    if found is None:
        raise StoreError(f"There is no table {game_id}.")
    return str(found[0])


def rating_statements(
    conn: sqlite3.Connection,
    game: str,
    guild_id: int,
    rows: Sequence[SeatResult],
    now: float,
) -> Statements:
    """Inside the finishing transaction: read the players' ratings in ``game`` and return
    the statements that store their updates (computed by :func:`rating_rows`)."""
    keys = rated_players(rows)
    if not keys:
        return []
    marks = ",".join("?" * len(keys))
    current = {
        row[0]: (Rating(row[1], row[2]), row[3])
        for row in conn.execute(
            f"SELECT player, mu, sigma, games FROM ratings WHERE guild_id = ? AND game = ?"
            f" AND player IN ({marks})",
            (guild_id, game, *keys),
        )
    }
    return [
        (
            "INSERT OR REPLACE INTO ratings"
            " (guild_id, game, player, mu, sigma, games, updated_at)"
            " VALUES (?, ?, ?, ?, ?, ?, ?)",
            row,
        )
        for row in rating_rows(game, guild_id, rows, current, now)
    ]


# The calls that write: one succeeding ends an episode of refused writes.
_WRITERS: frozenset[Callable[..., Any]] = frozenset({_transaction, _create_game, _create_match})
