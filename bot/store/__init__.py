"""The bot's storage, one interface for every game: :class:`Store` and the values it takes
and returns.

``records`` holds the values (the same for every backend), ``sqlite`` the SQLite backend
(the default: one embedded file) and ``migrations`` its numbered schema changes. Nothing
here knows a game's rules: a table names its game, and every read that is per game
(leaderboard, stats, history, defaults, ratings) takes the game's name.
"""

from bot.store.migrations import MIGRATIONS
from bot.store.records import (
    FinishedGame,
    GameRecord,
    LeaderboardRow,
    LiveTableExistsError,
    PlayerStats,
    SeatRecord,
    SeatResult,
    StoreError,
    StoreWriteError,
)
from bot.store.sqlite import Store

__all__ = [
    "MIGRATIONS",
    "FinishedGame",
    "GameRecord",
    "LeaderboardRow",
    "LiveTableExistsError",
    "PlayerStats",
    "SeatRecord",
    "SeatResult",
    "Store",
    "StoreError",
    "StoreWriteError",
]
