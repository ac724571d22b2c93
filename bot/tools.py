"""``python -m bot.tools COMMAND``: the operator's tools beside the bot.

``migrate-sqlite-to-postgresql SOURCE.sqlite3 postgresql://…`` moves a bot from its SQLite
file to a PostgreSQL database: every game with its seats and move log, the results, the
ratings, the servers' defaults and the outbox, ids kept, into an empty database, in one
transaction. The source is never written: a copy of it is brought to the current schema
and read. Then every finished game on the target is replayed by its engine and its stored
scores compared with the replay's. Stop the bot first (a move made during the copy would
be left behind), and point ``database`` at the URL afterwards.

Exit codes: 0 copied and verified; 1 copied, but a replay disagrees with the stored scores
(each such game is listed); 2 nothing copied (a source or target that cannot be used, or a
target that is not empty), with one sentence on stderr.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import dataclasses
import sqlite3
import sys
import tempfile
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot.store import (
    GameRecord,
    PostgresStore,
    SQLiteStore,
    StoreError,
    masked,
    parse_database,
)
from bot.tables import TableOptions
from engine import games as engine_games
from engine.game import options_from_json

__all__ = ["Migration", "main", "migrate_sqlite_to_postgresql"]


@dataclass(slots=True)
class Migration:
    """What a migration copied and what its replays found."""

    copied: dict[str, int]
    finished: int = 0
    verified: int = 0
    mismatches: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        """Whether every finished game replays to its stored scores."""
        return not self.mismatches

    def lines(self) -> list[str]:
        """Return the summary, a few lines for the operator."""
        c = self.copied
        return [
            f"copied {c['games']} games ({c['seats']} seats), {c['moves']} moves, "
            f"{c['results']} results, {c['ratings']} ratings, {c['guild_defaults']} server "
            f"defaults, {c['outbox']} owed posts",
            f"replayed {self.finished} finished games: {self.verified} match their stored "
            f"scores, {len(self.mismatches)} do not",
            *self.mismatches,
        ]


async def migrate_sqlite_to_postgresql(source: Path, target: str) -> Migration:
    """Copy the SQLite database ``source`` into the empty PostgreSQL database ``target``
    and replay its finished games there.

    Raises :class:`StoreError` with one sentence, having copied nothing, if the source or
    the target cannot be used or the target holds data already."""
    try:
        url = parse_database(target)
    except ValueError as error:
        raise StoreError(f"The target database is not usable: {error}.") from None
    if not isinstance(url, str):
        raise StoreError(
            f"The target {target} is not a PostgreSQL URL: write "
            "postgresql://USER:PASSWORD@HOST:PORT/DATABASE."
        )
    if not source.is_file():
        raise StoreError(f"The SQLite database {source} does not exist or is not a file.")
    with tempfile.TemporaryDirectory(prefix="dupe-migrate-") as folder:
        copy = Path(folder) / "source.sqlite3"
        await asyncio.to_thread(_backup, source, copy)
        await (await SQLiteStore.open(copy)).close()  # the copy at the current schema
        store = await PostgresStore.open(url)
        try:
            held = {table: n for table, n in (await store.counts()).items() if n}
            if held:
                rows = ", ".join(f"{n} {table}" for table, n in held.items())
                raise StoreError(
                    f"The database {masked(url)} is not empty ({rows}): the migration copies "
                    "into an empty database only."
                )
            try:
                # Read by the store's database thread, one call at a time.
                with contextlib.closing(sqlite3.connect(copy, check_same_thread=False)) as db:
                    await store.copy_in(lambda table, columns: _rows(db, table, columns))
            except sqlite3.Error as error:  # the transaction was rolled back: nothing copied
                raise StoreError(f"The SQLite database {source} cannot be read: {error}.") from None
            migration = Migration(copied=await store.counts())
            await _verify(store, migration)
        finally:
            await store.close()
    return migration


def _backup(source: Path, copy: Path) -> None:
    """Copy the database file, its WAL included, without writing to it."""
    try:
        with (
            contextlib.closing(sqlite3.connect(f"file:{source}?mode=ro", uri=True)) as db,
            contextlib.closing(sqlite3.connect(copy)) as out,
        ):
            db.backup(out)
    except sqlite3.Error as error:
        raise StoreError(f"The SQLite database {source} cannot be read: {error}.") from None


def _rows(db: sqlite3.Connection, table: str, columns: Sequence[str]) -> Iterator[Any]:
    return iter(db.execute(f"SELECT {', '.join(columns)} FROM {table}"))


async def _verify(store: PostgresStore, migration: Migration) -> None:
    """Replay every finished game on the target by its engine; compare the scores."""
    scores = await store.final_scores()
    migration.finished = len(scores)
    for game_id, stored in scores.items():
        record = await store.game(game_id)
        assert record is not None
        problem = _replay_problem(record, stored)
        if problem is None:
            migration.verified += 1
        else:
            migration.mismatches.append(f"game {game_id} ({record.game}): {problem}")


def _replay_problem(record: GameRecord, stored: dict[int, int]) -> str | None:
    """Return what is wrong with the stored scores of a finished game, or ``None``."""
    try:
        engine = engine_games.get(record.game)
    except KeyError:
        return "no engine plays this game"
    fields = tuple(f.name for f in dataclasses.fields(engine.options_type))
    table = TableOptions.from_json(record.options, fields)
    try:
        options = engine.seated(
            options_from_json(engine.options_type, table.game), len(record.seats)
        )
        state = engine.replay(record.seed, options, record.moves)
    except Exception as error:  # an engine refusing the log: that is the finding
        return f"the move log does not replay ({error})"
    if not state.is_over:
        return f"the move log ({len(record.moves)} moves) does not finish the game"
    scores = tuple(state.result().scores)
    kept = tuple(stored.get(seat) for seat in range(len(scores)))
    if kept != scores or len(stored) != len(scores):
        return f"stored scores {kept} but the replay gives {scores}"
    return None


def main(argv: Sequence[str] | None = None) -> int:
    """Run one tool; return the exit code."""
    parser = argparse.ArgumentParser(prog="python -m bot.tools", description=__doc__.split("\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    move = commands.add_parser(
        "migrate-sqlite-to-postgresql",
        help="copy an SQLite database into an empty PostgreSQL database and verify it",
    )
    move.add_argument("source", type=Path, help="the bot's SQLite file (not written)")
    move.add_argument("target", help="postgresql://USER:PASSWORD@HOST:PORT/DATABASE (empty)")
    args = parser.parse_args(argv)
    try:
        migration = asyncio.run(migrate_sqlite_to_postgresql(args.source, args.target))
    except StoreError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    for line in migration.lines():
        print(line)
    return 0 if migration.ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
