"""The PostgreSQL backend: the same tables, guarantees and errors as the SQLite one, on a
server that several processes and hosts share.

A pool of connections (asyncpg). Every write is one transaction committed before the method
returns; every read of several statements is one snapshot (``REPEATABLE READ``). Writes of
different tables may run side by side, so what SQLite got from running one call at a time is
said here: a finished game's ratings are read and written under a lock of the server and
game (two tables of one server finishing at once must not both start from the same rating).

A move's write is one statement, one round trip (a transaction of several round trips
would wait its turn behind every click being handled at each of them). ``python -m bot``
uses the pool on its own event loop; a bot embedded in another program (and the tests, whose
loop runs on a virtual clock) has it in a thread of its own with its own loop, as SQLite's
connection lives in aiosqlite's thread, and its loop only hands each call over and takes
its result. That hand-over costs more than the call itself (``bench/store_calls.py``, eight
calls at once: a move's write takes 312 µs of the bot's CPU through the thread, 145 µs on
the bot's loop).

When the server goes away (stopped, restarting, the network down) a call raises
:class:`StoreUnreachableError`, a :class:`StoreWriteError`: the bot tells the member that
nothing changed and to try again, as for a full disk. The pool connects again by itself on
a later call once the server answers.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import threading
import time
from collections.abc import Awaitable, Callable, Coroutine, Iterable, Sequence
from typing import Any, TypeVar
from urllib.parse import urlsplit

import asyncpg

from bot.ratings import Rating
from bot.store.base import ShardSlice
from bot.store.common import (
    GAME_COLUMNS,
    TABLES,
    finished_games,
    game_record,
    rated_players,
    rating_rows,
    result_rows,
)
from bot.store.location import masked, parse_database
from bot.store.migrations import PG_MIGRATIONS
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
    StoreUnreachableError,
    StoreWriteError,
)
from bot.store.sql import INSERT_MOVE, INSERT_SEAT, Batch, Query, SQLStore, numbered

__all__ = ["PostgresStore"]


_T = TypeVar("_T")
Connection = Any  # asyncpg.Connection (asyncpg ships no type hints)
Work = Callable[[Connection], Awaitable[_T]]

CONNECT_TIMEOUT = 5.0  # seconds to connect (and log in) before the server counts as unreachable
COMMAND_TIMEOUT = 10.0  # seconds one statement may take before the server counts as unreachable
POOL_SIZE = 10

# Advisory locks (https://www.postgresql.org/docs/15/explicit-locking.html#ADVISORY-LOCKS):
# one key for migrating, and a two-key space for the ratings of one server's game.
_MIGRATION_LOCK = 0x6475_7065_6D69_6772  # "dupemigr"
_RATINGS_LOCK = 0x6475_7065  # "dupe", with hashtext(guild:game) as the second key


class _ConnectionLost(Exception):
    """A connection of the pool failed twice over at ``BEGIN`` or at a statement that may be
    sent again (the server went away)."""


# The server cannot be reached, or the connection to it broke.
_UNREACHABLE: tuple[type[BaseException], ...] = (
    _ConnectionLost,
    OSError,
    asyncio.TimeoutError,
    asyncpg.PostgresConnectionError,
    asyncpg.CannotConnectNowError,
    asyncpg.AdminShutdownError,
    asyncpg.CrashShutdownError,
    asyncpg.ConnectionDoesNotExistError,
)
# The server answers but refuses to write: read-only (a standby, or
# default_transaction_read_only), a full disk, too many connections, a lock or
# serialization conflict, a statement timeout, an I/O error, no privilege.
_REFUSED: tuple[type[BaseException], ...] = (
    asyncpg.ReadOnlySQLTransactionError,
    asyncpg.InsufficientResourcesError,
    asyncpg.TransactionRollbackError,
    asyncpg.LockNotAvailableError,
    asyncpg.QueryCanceledError,
    asyncpg.PostgresSystemError,
    asyncpg.InsufficientPrivilegeError,
)

_INSERT_SEAT = numbered(INSERT_SEAT)
_INSERT_MOVE = numbered(INSERT_MOVE)
# A move's whole write as one statement (data-modifying CTEs all run, in one snapshot):
# the moves from ply $2 on, the posts they make owed, the next deadline.
_APPEND = """
WITH logged AS (
    INSERT INTO moves (game_id, ply, seat, move, by_computer, created_at)
    SELECT $1, $2 + t.i - 1, t.seat, t.move, t.by_computer, $3
    FROM unnest($4::integer[], $5::text[], $6::boolean[]) WITH ORDINALITY
        AS t(seat, move, by_computer, i)
), owed AS (
    INSERT INTO outbox (game_id, post)
    SELECT $1, p FROM unnest($7::text[]) AS p
    ON CONFLICT DO NOTHING
)
UPDATE games SET deadline = $8, warned = $9 WHERE id = $1 AND status = 'playing'
"""


def _sentence(text: str) -> str:
    """The server's message as the end of one sentence: one line, no full stop of its own."""
    return " ".join(text.split()).rstrip(".")


def _server(url: str) -> str:
    """Return ``host:port`` of the URL, for messages (5432 if it names no port)."""
    parts = urlsplit(url)
    host = parts.hostname or "localhost"
    try:
        port = parts.port or 5432
    except ValueError:
        port = 5432
    return f"{host}:{port}"


def _unusable(url: str, error: BaseException) -> StoreError:
    """Return the one sentence for a database that cannot be opened."""
    shown = masked(url)
    parts = urlsplit(url)
    user = parts.username or "the default user"
    database = parts.path.lstrip("/") or "the default database"
    if isinstance(error, asyncpg.InvalidPasswordError):
        return StoreError(
            f"The database server at {_server(url)} refused the password of user “{user}” "
            f"({shown}): check the password (in the database URL, or PGPASSWORD when the "
            "URL has none)."
        )
    if isinstance(error, asyncpg.InvalidAuthorizationSpecificationError):
        return StoreError(
            f"The database server at {_server(url)} refused user “{user}” ({shown}): "
            f"{_sentence(str(error))}."
        )
    if isinstance(error, asyncpg.InvalidCatalogNameError):
        return StoreError(
            f"The database “{database}” does not exist on the server at {_server(url)}: "
            f"create it (createdb {database}) or fix the URL {shown}."
        )
    if isinstance(error, TimeoutError):
        return StoreError(
            f"The database server at {_server(url)} did not answer within "
            f"{CONNECT_TIMEOUT:g} s ({shown}): check that it is running and that the URL is "
            "right."
        )
    if isinstance(error, _UNREACHABLE):
        return StoreError(
            f"The database server at {_server(url)} cannot be reached "
            f"({_sentence(str(error)) or type(error).__name__}; {shown}): check that it is "
            "running and that the URL is right."
        )
    return StoreError(f"The database {shown} cannot be used: {_sentence(str(error))}.")


async def _keep_session(conn: Connection) -> None:
    """Return a connection to the pool as it is. asyncpg's default resets the session
    (``pg_advisory_unlock_all(); CLOSE ALL; UNLISTEN *; RESET ALL``), one more round trip
    and four statements per call; the store leaves nothing to reset: no ``SET``, no
    ``LISTEN``, no cursors, only transaction-level advisory locks. An open transaction is
    still rolled back by the pool before this is called."""


async def _create_pool(url: str) -> Any:
    """Return a new pool; called on the loop its connections are to use (the database
    thread's, or the caller's)."""
    return await asyncpg.create_pool(
        url,
        min_size=0,
        max_size=POOL_SIZE,
        timeout=CONNECT_TIMEOUT,
        command_timeout=COMMAND_TIMEOUT,
        reset=_keep_session,
    )


class _NetworkLoop(asyncio.SelectorEventLoop):
    """An event loop whose clock is the machine's own: its timeouts (connecting, a
    statement) are about a real server, even where a test runs the bot's loop on a virtual
    clock (which replaces ``time.monotonic``, the clock loops read)."""

    def time(self) -> float:
        return time.perf_counter()


class _DatabaseThread:
    """A daemon thread running an event loop of its own, where the pool's connections are
    used; :meth:`run` runs a coroutine there and awaits its result from the caller's loop
    (cancelling the caller cancels it there too)."""

    def __init__(self) -> None:
        self.loop = _NetworkLoop()
        self._thread = threading.Thread(
            target=self.loop.run_forever, name="postgresql", daemon=True
        )
        self._thread.start()

    async def run(self, work: Coroutine[Any, Any, _T]) -> _T:
        """Run ``work`` (a coroutine, whose body runs on this thread's loop) there."""
        return await asyncio.wrap_future(asyncio.run_coroutine_threadsafe(work, self.loop))

    def stop(self) -> None:
        """Stop the loop and the thread (what was still running there is abandoned)."""
        if self.loop.is_closed():
            return
        self.loop.call_soon_threadsafe(self.loop.stop)
        self._thread.join(timeout=5)
        if not self._thread.is_alive():
            self.loop.close()


class _CallersLoop:
    """The pool on the caller's own event loop: :meth:`run` awaits the work there."""

    async def run(self, work: Coroutine[Any, Any, _T]) -> _T:
        return await work

    def stop(self) -> None:
        """Nothing to stop."""


class PostgresStore(SQLStore):
    """The bot's database on a PostgreSQL server (a :class:`bot.store.Store`). Open with
    :meth:`open`, close with :meth:`close`.

    Nothing in it knows a game's rules: every table names its game, and every read that
    is per game (leaderboard, stats, history, defaults) takes the game's name."""

    def __init__(self, pool: Any, url: str, thread: _DatabaseThread | _CallersLoop) -> None:
        self._pool = pool
        self._url = url
        self._thread = thread  # where the pool's connections are used
        self._refusing = False  # writes fail (one log line per episode)
        self._closed = False

    @property
    def location(self) -> str:
        """The database URL, without its password."""
        return masked(self._url)

    @classmethod
    async def open(cls, url: str, *, own_thread: bool = True) -> PostgresStore:
        """Connect to the database at ``url`` and migrate it. With ``own_thread`` (the
        default) the pool lives in a thread of its own, with its own event loop; without,
        on the caller's loop (which must run on the machine's clock).

        Raises :class:`StoreError` with one sentence (the password never in it) if the URL
        is malformed, the server cannot be reached within :data:`CONNECT_TIMEOUT`, it
        refuses the user or password, the database does not exist, or a newer version of
        the bot wrote it.
        """
        try:
            if not isinstance(parse_database(url), str):
                raise ValueError(f"{url} is not a PostgreSQL URL")
        except ValueError as error:
            raise StoreError(f"The database URL is not usable: {error}.") from None
        thread = _DatabaseThread() if own_thread else _CallersLoop()
        try:
            # No floor of idle connections: asyncpg would restore one while the server is
            # down, logging a traceback a second; a call connects when it needs to.
            pool = await thread.run(_create_pool(url))
        except (asyncpg.PostgresError, asyncpg.InterfaceError, OSError, ValueError) as error:
            thread.stop()
            raise _unusable(url, error) from None  # OSError: refused, unknown host, timeout
        except BaseException:
            thread.stop()
            raise
        store = cls(pool, url, thread)
        try:
            await thread.run(store._migrate())
        except StoreError:
            await store.close()
            raise
        except (asyncpg.PostgresError, asyncpg.InterfaceError, OSError) as error:
            await store.close()
            raise _unusable(url, error) from None
        return store

    async def _migrate(self) -> None:
        """Bring the schema to :data:`PG_MIGRATIONS`' end, in one transaction under an
        advisory lock: processes starting together wait for each other, and the second
        finds the work done."""
        async with self._pool.acquire() as conn:
            if await self._version(conn) == len(PG_MIGRATIONS):
                return  # nothing to do (and a role that may not create tables may run it)
            async with conn.transaction():
                await conn.execute("SELECT pg_advisory_xact_lock($1)", _MIGRATION_LOCK)
                await conn.execute(
                    "CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)"
                )
                version = await self._version(conn)
                if version is None:
                    await conn.execute("INSERT INTO schema_version (version) VALUES (0)")
                    version = 0
                for number in range(version, len(PG_MIGRATIONS)):
                    await conn.execute(PG_MIGRATIONS[number])
                await conn.execute("UPDATE schema_version SET version = $1", len(PG_MIGRATIONS))

    async def _version(self, conn: Connection) -> int | None:
        """Return the schema version (``None`` for a database without the store's tables);
        raise :class:`StoreError` for a version newer than this code knows."""
        if await conn.fetchval("SELECT to_regclass('schema_version')") is None:
            return None
        version = await conn.fetchval("SELECT version FROM schema_version")
        if version is not None and version > len(PG_MIGRATIONS):
            raise StoreError(
                f"The database {self.location} cannot be used: the database was written by a "
                f"newer version (schema {version}; this version knows {len(PG_MIGRATIONS)})."
            )
        return None if version is None else int(version)

    async def close(self) -> None:
        """Close every connection of the pool, and stop its thread; later calls raise
        :class:`StoreWriteError` (``CLOSED``)."""
        if self._closed:
            return
        self._closed = True
        try:
            await self._thread.run(self._pool.close())
        finally:
            self._thread.stop()

    # --- running calls -------------------------------------------------------------

    async def _run(
        self, work: Work[_T], *, write: bool, single: bool = False, once: bool = False
    ) -> _T:
        """Run ``work(connection)`` in one transaction (a write) or one read-only snapshot,
        and return its result; failures of the server become the store's errors.

        A connection that died while idle in the pool (the server restarted) fails at
        ``BEGIN``, before anything was sent: that call is tried once more on a new one.
        ``single`` work is one statement, a transaction of its own (no ``BEGIN`` and
        ``COMMIT``): tried again after a broken connection if it may run twice, and with
        ``once`` only if the connection was closed before it was sent."""
        if self._closed:
            raise StoreWriteError(CLOSED)
        try:
            result = await self._thread.run(
                self._attempt(work, write=write, single=single, once=once)
            )
        except asyncpg.IntegrityConstraintViolationError as error:
            raise ConstraintError(
                f"The database refused a write that breaks its rules: {_sentence(str(error))}."
            ) from error
        except (*_UNREACHABLE, *_REFUSED) as error:
            unreachable = isinstance(error, _UNREACHABLE)
            text = _sentence(str(error)) or type(error).__name__
            self._refused("cannot be reached" if unreachable else "refuses writes", text)
            if unreachable:
                raise StoreUnreachableError(
                    f"The database server at {_server(self._url)} cannot be reached: {text}."
                ) from None
            raise StoreWriteError(
                f"The database {self.location} refused a write: {text}."
            ) from None
        if write:
            self._accepted()
        return result

    async def _attempt(
        self, work: Work[_T], *, write: bool, single: bool = False, once: bool = False
    ) -> _T:
        for attempt in range(2):
            async with self._pool.acquire() as conn:
                if single:
                    # One statement: atomic on its own, no BEGIN and COMMIT around it (one
                    # round trip instead of three).
                    try:
                        return await work(conn)
                    except (
                        OSError,
                        asyncpg.ConnectionDoesNotExistError,
                        asyncpg.InterfaceError,
                    ) as error:
                        # The pool's connection had died: send it again if it may run
                        # twice, or (``once``) if asyncpg refused before sending it.
                        unsent = isinstance(error, asyncpg.InterfaceError) and conn.is_closed()
                        if attempt == 0 and (not once or unsent):
                            continue
                        raise _ConnectionLost(str(error) or type(error).__name__) from error
                transaction = (
                    conn.transaction()
                    if write
                    else conn.transaction(isolation="repeatable_read", readonly=True)
                )
                try:
                    await transaction.start()
                except (*_UNREACHABLE, asyncpg.InterfaceError) as error:
                    if attempt == 0:
                        continue  # nothing was sent yet: safe to try again
                    raise _ConnectionLost(str(error) or type(error).__name__) from error
                try:
                    result = await work(conn)
                except BaseException:
                    # A rollback that fails (the connection is gone) leaves the connection
                    # to the pool to close; the first error is the one to report.
                    with contextlib.suppress(
                        asyncpg.PostgresError, asyncpg.InterfaceError, OSError
                    ):
                        await transaction.rollback()
                    raise
                await transaction.commit()
                return result
        raise AssertionError("unreachable")

    async def _write(self, work: Work[Any]) -> None:
        await self._run(work, write=True)

    async def _read(self, work: Work[_T]) -> _T:
        return await self._run(work, write=False)

    async def _execute(self, sql: str, *args: Any) -> None:
        async def work(conn: Connection) -> None:
            await conn.execute(numbered(sql), *args)

        await self._run(work, write=True, single=True)

    async def _transaction(self, batches: Sequence[Batch]) -> None:
        async def work(conn: Connection) -> None:
            for sql, rows in batches:
                if len(rows) == 1:
                    await conn.execute(numbered(sql), *rows[0])
                elif rows:
                    await conn.executemany(numbered(sql), rows)

        await self._write(work)

    async def _fetch(self, *queries: Query) -> list[list[Any]]:
        async def work(conn: Connection) -> list[list[Any]]:
            return [list(await conn.fetch(numbered(sql), *args)) for sql, args in queries]

        return await self._read(work)

    async def _games(self, where: str, *args: Any) -> list[GameRecord]:
        async def work(conn: Connection) -> list[GameRecord]:
            sql = numbered(f"SELECT {GAME_COLUMNS} FROM games WHERE {where}")
            records = [game_record(row) for row in await conn.fetch(sql, *args)]
            await _fill(conn, records, moves=True)
            return records

        return await self._read(work)

    def _on_shards(self, shards: ShardSlice | None) -> tuple[str, tuple[Any, ...]]:
        if shards is None:
            return "", ()
        return " AND ((guild_id >> 22) % ?) = ANY(?::int[])", (shards.count, list(shards.ids))

    _BYTE_ORDER = ' COLLATE "C"'

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

        async def work(conn: Connection) -> int:
            game_id = await conn.fetchval(
                "INSERT INTO games (game, guild_id, channel_id, host_id, seed, options, status,"
                " created_at) VALUES ($1, $2, $3, $4, $5, $6, 'lobby', $7) RETURNING id",
                game,
                guild_id,
                channel_id,
                host_id,
                seed,
                json.dumps(options),
                now,
            )
            await conn.execute(
                _INSERT_SEAT,
                game_id,
                host_seat.seat,
                host_seat.user_id,
                host_seat.name,
                host_seat.level,
            )
            return int(game_id)

        try:
            return await self._run(work, write=True)
        except ConstraintError as error:
            cause = error.__cause__
            if getattr(cause, "constraint_name", None) == "games_one_live_table_per_channel":
                raise LiveTableExistsError("This channel already has a table.") from None
            raise

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
        seating = (
            None
            if seats is None
            else [(game_id, s.seat, s.user_id, s.name, s.level) for s in seats]
        )
        logged = [
            (game_id, first_ply + i, seat, move, bool(by_computer), now)
            for i, (seat, move, by_computer) in enumerate(moves)
        ]
        rows = None if results is None else [SeatResult(*row) for row in results]

        if rows is None and seating is None:
            # The common case, a move: one statement (the moves, the owed posts and the
            # deadline), a transaction of its own: one round trip, not three (BEGIN and
            # COMMIT around it) or five or six. Sent once: a ply that exists raises.
            seats, texts, computers = zip(*moves, strict=True) if moves else ((), (), ())

            async def one(conn: Connection) -> None:
                await conn.execute(
                    _APPEND,
                    game_id,
                    first_ply,
                    now,
                    list(seats),
                    list(texts),
                    [bool(c) for c in computers],
                    list(owed),
                    deadline,
                    bool(warned),
                )

            await self._run(one, write=True, single=True, once=True)
            return

        async def work(conn: Connection) -> None:
            if seating is not None:
                await conn.execute("DELETE FROM seats WHERE game_id = $1", game_id)
                await conn.executemany(_INSERT_SEAT, seating)
            if logged:
                await conn.executemany(_INSERT_MOVE, logged)
            await conn.execute(
                "UPDATE games SET deadline = $1, warned = $2 WHERE id = $3 AND status = 'playing'",
                deadline,
                bool(warned),
                game_id,
            )
            if owed:
                await conn.executemany(
                    "INSERT INTO outbox (game_id, post) VALUES ($1, $2) ON CONFLICT DO NOTHING",
                    [(game_id, post) for post in owed],
                )
            if rows is not None:
                await _finish(conn, game_id, guild_id, rows, now, rated=rated)

        await self._write(work)

    async def rate(
        self, guild_id: int, game: str, results: Sequence[SeatResult], now: float
    ) -> None:
        """Move the ratings in ``game`` of an event's players, ranked by their scores."""
        rows = [SeatResult(*row) for row in results]

        async def work(conn: Connection) -> None:
            await _rate(conn, guild_id, game, rows, now)

        await self._write(work)

    async def create_match(self, game: str, guild_id: int, data: dict[str, Any], now: float) -> int:
        """Store a new event over several tables (status ``open``); return its id."""

        async def work(conn: Connection) -> int:
            return int(
                await conn.fetchval(
                    "INSERT INTO matches (game, guild_id, status, data, created_at, updated_at)"
                    " VALUES ($1, $2, 'open', $3, $4, $4) RETURNING id",
                    game,
                    guild_id,
                    json.dumps(data),
                    now,
                )
            )

        return await self._run(work, write=True)

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

        async def work(conn: Connection) -> None:
            await conn.execute(
                "UPDATE matches SET status = $1, data = $2, updated_at = $3 WHERE id = $4",
                status,
                json.dumps(data),
                now,
                match_id,
            )
            if posts:
                await conn.executemany(
                    "INSERT INTO match_posts (match_id, nonce, seq, channel_id, text)"
                    " VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING",
                    [(match_id, p.nonce, p.seq, p.channel_id, p.text) for p in posts],
                )

        await self._write(work)

    async def shown(self, game_id: int, plies: int) -> None:
        """Record that the table message shows the game up to ``plies`` moves."""
        await self._execute(
            "UPDATE games SET shown_plies = GREATEST(shown_plies, ?) WHERE id = ?",
            plies,
            game_id,
        )

    # --- reading -------------------------------------------------------------------

    async def recent_games(
        self, guild_id: int, game: str | None, *, limit: int = 10
    ) -> list[FinishedGame]:
        """Return the server's most recently finished games of ``game`` (of every game if
        ``None``; each says which), newest first."""
        which = "" if game is None else " AND game = $3"
        args = (guild_id, limit) if game is None else (guild_id, limit, game)

        async def work(conn: Connection) -> list[FinishedGame]:
            rows = await conn.fetch(
                f"SELECT {GAME_COLUMNS}, ended_at FROM games WHERE guild_id = $1"
                " AND (status = 'finished'"
                " OR (end_reason = 'abandoned' AND started_at IS NOT NULL))"
                f"{which}"
                " ORDER BY ended_at DESC NULLS LAST, id DESC LIMIT $2",
                *args,
            )
            records = [game_record(row) for row in rows]
            await _fill(conn, records, moves=False)
            results = await conn.fetch(
                "SELECT game_id, seat, score, win FROM results WHERE game_id = ANY($1::bigint[])",
                [r.id for r in records],
            )
            return finished_games(rows, records, results)

        return await self._read(work)

    async def set_defaults(
        self, guild_id: int, options: dict[str, Any], user_id: int, now: float, game: str
    ) -> None:
        """Store the server's defaults for new tables of ``game``."""
        await self._execute(
            "INSERT INTO guild_defaults (guild_id, game, options, updated_by, updated_at)"
            " VALUES (?, ?, ?, ?, ?) ON CONFLICT (guild_id, game) DO UPDATE SET"
            " options = EXCLUDED.options, updated_by = EXCLUDED.updated_by,"
            " updated_at = EXCLUDED.updated_at",
            guild_id,
            game,
            json.dumps(options, sort_keys=True),
            user_id,
            now,
        )

    # --- copying a whole database in (python -m bot.tools) -----------------------------

    async def counts(self) -> dict[str, int]:
        """Return how many rows each of the store's tables holds."""

        async def work(conn: Connection) -> dict[str, int]:
            return {t: int(await conn.fetchval(f"SELECT COUNT(*) FROM {t}")) for t in TABLES}

        return await self._read(work)

    async def copy_in(self, rows: Callable[[str, Sequence[str]], Iterable[Sequence[Any]]]) -> None:
        """Fill every table with ``rows(table, columns)`` (values in the order of
        ``columns``; ids kept), in one transaction, and move the id sequences (games',
        matches') past the highest id. Meant for an empty database: a row that exists already raises
        :class:`ConstraintError` and nothing is kept."""

        async def work(conn: Connection) -> None:
            for table in TABLES:
                described = await conn.fetch(
                    "SELECT column_name, data_type FROM information_schema.columns"
                    " WHERE table_schema = current_schema() AND table_name = $1"
                    " ORDER BY ordinal_position",
                    table,
                )
                columns = [str(row[0]) for row in described]
                kinds = [_PYTHON_TYPES.get(str(row[1]), str) for row in described]
                records = (
                    tuple(None if v is None else kind(v) for kind, v in zip(kinds, r, strict=True))
                    for r in rows(table, columns)
                )
                await conn.copy_records_to_table(table, records=records, columns=columns)
            for table in _IDENTITIES:  # the next new row's id comes after the copied ones
                await conn.execute(
                    f"SELECT setval(pg_get_serial_sequence('{table}', 'id'),"
                    f" COALESCE(MAX(id), 1), MAX(id) IS NOT NULL) FROM {table}"
                )

        await self._write(work)

    async def final_scores(self) -> dict[int, dict[int, int]]:
        """Return the stored score of each seat of every finished game, by game id."""

        async def work(conn: Connection) -> dict[int, dict[int, int]]:
            scores: dict[int, dict[int, int]] = {}
            for game_id in await conn.fetch(
                "SELECT id FROM games WHERE status = 'finished' ORDER BY id"
            ):
                scores[int(game_id[0])] = {}
            for game_id, seat, score in await conn.fetch(
                "SELECT r.game_id, r.seat, r.score FROM results r"
                " JOIN games g ON g.id = r.game_id WHERE g.status = 'finished'"
            ):
                scores[int(game_id)][int(seat)] = int(score)
            return scores

        return await self._read(work)


_PYTHON_TYPES: dict[str, Callable[[Any], Any]] = {
    "bigint": int,
    "integer": int,
    "boolean": bool,
    "double precision": float,
    "text": str,
}

_IDENTITIES = ("games", "matches")
"""The tables whose ids the database gives out (``GENERATED BY DEFAULT AS IDENTITY``)."""


# --- inside a transaction ----------------------------------------------------------------


async def _fill(conn: Connection, records: list[GameRecord], *, moves: bool) -> None:
    """Read the records' seats and (with ``moves``) their move logs and owed posts."""
    if not records:
        return
    by_id = {r.id: r for r in records}
    ids = list(by_id)
    for game_id, seat, user_id, name, level in await conn.fetch(
        "SELECT game_id, seat, user_id, name, level FROM seats WHERE game_id = ANY($1::bigint[])",
        ids,
    ):
        by_id[game_id].seats[seat] = SeatRecord(seat, user_id, name, level)
    if not moves:
        return
    for game_id, move in await conn.fetch(
        "SELECT game_id, move FROM moves WHERE game_id = ANY($1::bigint[]) ORDER BY game_id, ply",
        ids,
    ):
        by_id[game_id].moves.append(move)
    for game_id, post in await conn.fetch(
        "SELECT game_id, post FROM outbox WHERE game_id = ANY($1::bigint[])"
        ' ORDER BY game_id, post COLLATE "C"',
        ids,
    ):
        by_id[game_id].owed.append(post)


async def _finish(
    conn: Connection,
    game_id: int,
    guild_id: int,
    results: Sequence[SeatResult],
    now: float,
    *,
    rated: bool = True,
) -> None:
    """Write the game's results, close it, and move its players' ratings."""
    await conn.executemany(
        "INSERT INTO results (game_id, seat, guild_id, user_id, level, score, win, rounds)"
        " VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
        result_rows(game_id, guild_id, results),
    )
    await conn.execute(
        "UPDATE games SET status = 'finished', ended_at = $1, deadline = NULL WHERE id = $2",
        now,
        game_id,
    )
    game = await conn.fetchval("SELECT game FROM games WHERE id = $1", game_id)
    if game is None:
        raise StoreError(f"There is no table {game_id}.")
    if rated:
        await _rate(conn, guild_id, game, results, now)


async def _rate(
    conn: Connection, guild_id: int, game: str, results: Sequence[SeatResult], now: float
) -> None:
    """Move the ratings in ``game`` of the players of ``results``."""
    keys = rated_players(results)
    if not keys:
        return
    # Another table of this server and game may be finishing on another connection: its
    # players' ratings are read and written by one transaction at a time.
    await conn.execute(
        "SELECT pg_advisory_xact_lock($1, hashtext($2))", _RATINGS_LOCK, f"{guild_id}:{game}"
    )
    current = {
        row[0]: (Rating(row[1], row[2]), row[3])
        for row in await conn.fetch(
            "SELECT player, mu, sigma, games FROM ratings WHERE guild_id = $1 AND game = $2"
            " AND player = ANY($3::text[])",
            guild_id,
            game,
            keys,
        )
    }
    await conn.executemany(
        "INSERT INTO ratings (guild_id, game, player, mu, sigma, games, updated_at)"
        " VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (guild_id, game, player) DO UPDATE SET"
        " mu = EXCLUDED.mu, sigma = EXCLUDED.sigma, games = EXCLUDED.games,"
        " updated_at = EXCLUDED.updated_at",
        rating_rows(game, guild_id, results, current, now),
    )
