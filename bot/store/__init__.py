"""The bot's storage, one interface for every game and every backend: :class:`Store`, the
values it takes and returns, and :func:`open_store`.

``base`` holds the interface, ``records`` the values (the same for every backend),
``sqlite`` the SQLite backend (the default: one embedded file), ``postgres`` the PostgreSQL
backend (a server that several processes and hosts share), ``common`` what both compute
alike, and ``migrations`` the numbered schema changes in each dialect. Nothing here knows a
game's rules: a table names its game, and every read that is per game (leaderboard, stats,
history, defaults, ratings) takes the game's name.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from bot.store.base import ShardSlice, Store
from bot.store.location import describe, masked, parse_database
from bot.store.migrations import MIGRATIONS, PG_MIGRATIONS
from bot.store.records import (
    ConstraintError,
    FinishedGame,
    GameRecord,
    LeaderboardRow,
    LiveTableExistsError,
    MatchPost,
    MatchRecord,
    PlayerStats,
    SeatRecord,
    SeatResult,
    StoreError,
    StoreUnreachableError,
    StoreWriteError,
)
from bot.store.sqlite import SQLiteStore

if TYPE_CHECKING:
    from bot.store.postgres import PostgresStore

__all__ = [
    "MIGRATIONS",
    "PG_MIGRATIONS",
    "ConstraintError",
    "FinishedGame",
    "GameRecord",
    "LeaderboardRow",
    "LiveTableExistsError",
    "MatchPost",
    "MatchRecord",
    "PlayerStats",
    "PostgresStore",
    "SQLiteStore",
    "SeatRecord",
    "SeatResult",
    "ShardSlice",
    "Store",
    "StoreError",
    "StoreUnreachableError",
    "StoreWriteError",
    "describe",
    "masked",
    "open_store",
    "parse_database",
]


async def open_store(database: Path | str, *, own_thread: bool = True) -> Store:
    """Open (creating or migrating as needed) the database the ``database`` setting names:
    ``postgresql://…`` or ``postgres://…`` a PostgreSQL server, a path or ``sqlite:///PATH``
    an SQLite file. A PostgreSQL store without ``own_thread`` uses its connections on the
    caller's event loop (see :meth:`PostgresStore.open`).

    Raises :class:`StoreError` with one sentence (a URL's password never in it) if it
    cannot be used."""
    try:
        where = parse_database(database)
    except ValueError as error:
        raise StoreError(f"The database setting is not usable: {error}.") from None
    if isinstance(where, Path):
        return await SQLiteStore.open(where)
    from bot.store.postgres import PostgresStore

    return await PostgresStore.open(where, own_thread=own_thread)


def __getattr__(name: str) -> Any:
    """``PostgresStore`` is imported when first asked for: a bot on SQLite starts without
    the PostgreSQL driver (a twentieth of a second of every start)."""
    if name == "PostgresStore":
        from bot.store.postgres import PostgresStore

        return PostgresStore
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
