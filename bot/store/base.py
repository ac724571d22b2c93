"""The one interface of the store, whatever holds the data: :class:`Store`.

``bot.store.sqlite.SQLiteStore`` (one embedded file) and ``bot.store.postgres.PostgresStore``
(a server several processes and hosts share) both satisfy it, with the same values, the
same guarantees and the same errors:

- every write is one transaction, committed before the method returns (the caller answers
  a player only after that); a write that raises kept nothing;
- a channel has at most one open or running table (:class:`LiveTableExistsError`);
- a write the schema forbids (a ply written twice, a seat outside ``0..15``) raises
  :class:`ConstraintError`;
- a database that refuses writes or cannot be reached raises :class:`StoreWriteError`, and
  the store logs one line when such an episode begins and one when writes work again.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from bot.store.records import (
    FinishedGame,
    GameRecord,
    LeaderboardRow,
    MatchPost,
    MatchRecord,
    PlayerStats,
    SeatRecord,
    SeatResult,
)

__all__ = ["ShardSlice", "Store"]


@dataclass(frozen=True, slots=True)
class ShardSlice:
    """The shards one process runs: Discord puts server ``g`` on shard
    ``(g >> 22) % count``, and the process runs ``ids`` of them."""

    count: int
    ids: tuple[int, ...]

    def shard(self, guild_id: int) -> int:
        """Return the shard the server is on."""
        return (guild_id >> 22) % self.count

    def owns(self, guild_id: int) -> bool:
        """Return whether the server is on one of these shards."""
        return self.shard(guild_id) in self.ids


class Store(Protocol):
    """The bot's database: tables of every game, seats, the move log, final scores,
    ratings, server defaults and the outbox. Opened by :func:`bot.store.open_store`."""

    @property
    def location(self) -> str:
        """Where the data is, for messages and logs: a file path, or a URL without its
        password."""
        ...

    async def close(self) -> None:
        """Close the database."""
        ...

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
        """Open a table in the channel with the host seated; return its id (raises
        :class:`LiveTableExistsError` if the channel has an open or running table)."""
        ...

    async def set_message(
        self,
        game_id: int,
        message_id: int,
        token: str | None = None,
        token_until: float | None = None,
    ) -> None:
        """Remember the id of the table's public message, and the token of the interaction
        whose original response it is with until when to use it (none: a message posted in
        the channel: its token, if it had one, is forgotten)."""
        ...

    async def set_message_token(
        self, game_id: int, token: str | None, token_until: float | None
    ) -> None:
        """Remember the token the table message is edited through now, and until when
        (none: its channel edits)."""
        ...

    async def set_seats(
        self, game_id: int, seats: Iterable[SeatRecord], now: float | None = None
    ) -> None:
        """Replace the table's seating with ``seats`` (a lobby change at ``now``)."""
        ...

    async def start_game(
        self,
        game_id: int,
        seats: Iterable[SeatRecord],
        now: float,
        deadline: float | None,
        moves: Sequence[tuple[int, str, bool]] = (),
    ) -> None:
        """Seat everyone, mark the table as playing and log the computers' first moves."""
        ...

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
        """Append moves from ply ``first_ply`` and set the deadline; with ``results`` also
        close the game and update the ratings (unless not ``rated``: a game whose ratings
        an event over several tables moves, see :meth:`rate`); record the ``owed`` posts;
        with ``seats``, replace the seating first (a member handing their seat to a
        computer): one transaction."""
        ...

    async def posted(self, game_id: int, post: str) -> None:
        """Record that the owed public post ``post`` of the game has been sent."""
        ...

    async def shown(self, game_id: int, plies: int) -> None:
        """Record that the table message shows the game up to ``plies`` moves."""
        ...

    async def owed_finished(self, shards: ShardSlice | None = None) -> list[GameRecord]:
        """Return every finished game that still owes public posts (of the servers on
        ``shards`` only, if given)."""
        ...

    async def set_warned(self, game_id: int) -> None:
        """Record that the current decision's warning has been shown."""
        ...

    async def cancel_game(self, game_id: int, now: float, reason: str = "cancelled") -> None:
        """Close the table without scores (``cancelled``, ``expired`` or ``abandoned``)."""
        ...

    async def drop_owed(self, game_id: int) -> None:
        """Strike off every post the game still owes."""
        ...

    async def game(self, game_id: int) -> GameRecord | None:
        """Return the table with its seats and moves, or ``None``."""
        ...

    async def live_game_in(self, channel_id: int) -> GameRecord | None:
        """Return the channel's open or running table, if any."""
        ...

    async def live_games(self, shards: ShardSlice | None = None) -> list[GameRecord]:
        """Return every open or running table with its seats, moves and owed posts (of
        the servers on ``shards`` only, if given: a slice reads only its own tables)."""
        ...

    async def leaderboard(
        self,
        guild_id: int,
        game: str,
        *,
        sort: str = "points",
        computers: bool = False,
        offset: int = 0,
        limit: int = 10,
    ) -> tuple[list[LeaderboardRow], int]:
        """Return one page of the server's players of ``game`` and how many there are."""
        ...

    async def player_stats(self, guild_id: int, user_id: int, game: str) -> PlayerStats | None:
        """Return a member's record in the server's games of ``game``."""
        ...

    async def recent_games(
        self, guild_id: int, game: str | None, *, limit: int = 10
    ) -> list[FinishedGame]:
        """Return the server's most recently finished games, newest first."""
        ...

    async def defaults(self, guild_id: int, game: str) -> dict[str, Any]:
        """Return the server's defaults for new tables of ``game``."""
        ...

    async def set_defaults(
        self, guild_id: int, options: dict[str, Any], user_id: int, now: float, game: str
    ) -> None:
        """Store the server's defaults for new tables of ``game``."""
        ...

    async def rate(
        self, guild_id: int, game: str, results: Sequence[SeatResult], now: float
    ) -> None:
        """Move the ratings in ``game`` of the players of an event decided elsewhere (a
        duplicate match: its pairs or teams), ranked by ``results``' scores."""
        ...

    async def create_match(self, game: str, guild_id: int, data: dict[str, Any], now: float) -> int:
        """Store a new event over several tables (status ``open``); return its id."""
        ...

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
        ...

    async def match_nonces(self, match_id: int) -> set[str]:
        """Return the nonces of every post the event has owed, sent or not."""
        ...

    async def owed_match_posts(self) -> list[MatchPost]:
        """Return every post events still owe, each event's in order."""
        ...

    async def match_posted(self, match_id: int, nonce: str) -> None:
        """Record that the event's post ``nonce`` was sent (or has nowhere to go)."""
        ...

    async def match(self, match_id: int) -> MatchRecord | None:
        """Return the event, or ``None``."""
        ...

    async def live_matches(self, game: str) -> list[MatchRecord]:
        """Return every event of ``game`` still open or playing, oldest first."""
        ...

    async def matches_in(self, guild_id: int, game: str) -> list[MatchRecord]:
        """Return the server's events of ``game``, newest first (at most 20)."""
        ...
