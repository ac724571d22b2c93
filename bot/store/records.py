"""What the store hands out and takes in, the same for every backend: plain values that
name their game and know nothing of any game's rules."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, NamedTuple

from bot.ratings import Rating

__all__ = [
    "ConstraintError",
    "FinishedGame",
    "GameRecord",
    "LeaderboardRow",
    "LiveTableExistsError",
    "MatchPost",
    "MatchRecord",
    "PlayerStats",
    "SeatRecord",
    "SeatResult",
    "StoreError",
    "StoreUnreachableError",
    "StoreWriteError",
]


class StoreError(Exception):
    """The database cannot be used, or refused what was asked of it; ``str()`` is one
    sentence."""


class StoreWriteError(StoreError):
    """The database refused a write (read-only, full, locked for too long, an I/O error):
    nothing of that write was kept. The store logs one line when such an episode begins and
    one when writes work again."""


CLOSED = "The database is closed: the bot is stopping."
"""What a call on a closed store raises (:class:`StoreWriteError`): a post sent while the bot
stops stays owed and is sent again after the restart."""


class StoreUnreachableError(StoreWriteError):
    """The database server cannot be reached (stopped, restarting, or the network between
    is down): nothing of that call was kept, unless the connection broke after a write had
    gone out (a move's write is sent once: it may have been committed, and the table reads
    its log again before its next move). The store reconnects by itself once the server
    answers again."""


class LiveTableExistsError(StoreError):
    """The channel already has a table that is open or playing."""


class ConstraintError(StoreError):
    """A write broke a rule of the schema (a ply written twice, a seat outside ``0..15``,
    a game finished twice): a bug of the caller, not of the database; nothing of that
    write was kept."""


@dataclass(slots=True)
class SeatRecord:
    """Who sits in a seat (``0..15``): a member (``user_id``) or a computer player
    (``level``)."""

    seat: int
    user_id: int | None
    name: str
    level: str | None

    @property
    def is_computer(self) -> bool:
        """Return whether a computer player holds this seat."""
        return self.user_id is None


@dataclass(slots=True)
class GameRecord:
    """One table of ``game`` as stored, with its seats and move log (oldest first)."""

    id: int
    game: str
    guild_id: int
    channel_id: int
    host_id: int
    seed: int
    options: dict[str, Any]
    status: str
    message_id: int | None
    deadline: float | None
    warned: bool
    created_at: float
    shown_plies: int = 0
    active_at: float | None = None  # when the lobby last changed (None: at ``created_at``)
    # The token of the interaction whose original response the table message is, and until
    # when the bot edits it through that token (a credential: never in a repr or a log).
    message_token: str | None = field(default=None, repr=False)
    token_until: float | None = None
    seats: dict[int, SeatRecord] = field(default_factory=dict)
    moves: list[str] = field(default_factory=list)
    owed: list[str] = field(default_factory=list)


class MatchRecord(NamedTuple):
    """An event played over several tables (a duplicate whist match) as stored: the game
    that runs it, its server, its status and the game's own document (``data``)."""

    id: int
    game: str
    guild_id: int
    status: str
    data: dict[str, Any]


class MatchPost(NamedTuple):
    """A public post an event over several tables owes a channel: its text as it was
    written (in the server's language), ``nonce`` (one post however often it is sent) and
    ``seq``, its place among the event's posts."""

    match_id: int
    guild_id: int
    channel_id: int
    nonce: str
    seq: int
    text: str


class SeatResult(NamedTuple):
    """A seat's final result: who (member or computer level), score, win share (ties
    split), and what it earned in each scored round, oldest first (the engine's
    ``GameResult.rounds``: a Dupe deal, a Doppelkopf game, a whist hand)."""

    seat: int
    user_id: int | None
    level: str | None
    score: int
    win: float
    rounds: tuple[int, ...] = ()


@dataclass(slots=True, frozen=True)
class LeaderboardRow:
    """One player's cumulative record in a server's games of one game: a member
    (``user_id``) or a computer level (``level``), with the rating if the player has one."""

    user_id: int | None
    games: int
    wins: float
    points: int
    level: str | None = None
    rating: Rating | None = None


@dataclass(slots=True, frozen=True)
class FinishedGame:
    """A finished (or abandoned) game for ``/history``: its record (seats, no moves), when
    it ended, and each seat's ``(score, win share)``."""

    record: GameRecord
    ended_at: float
    results: dict[int, tuple[int, float]]
    abandoned: bool = False  # its channel was deleted (or the bot removed): no results

    @property
    def game(self) -> str:
        """Return the name of the game that was played."""
        return self.record.game

    @property
    def winners(self) -> list[int]:
        """Return the seats that won (ties share)."""
        return sorted(seat for seat, (_, win) in self.results.items() if win > 0)


@dataclass(slots=True, frozen=True)
class PlayerStats:
    """A member's record in a server's games of one game."""

    games: int
    wins: float
    mean_score: float
    best_score: int
    best_round: int | None
    favourite_seat: int
    rating: Rating | None

    @property
    def win_share(self) -> float:
        """Return the share of games won (ties split)."""
        return self.wins / self.games
