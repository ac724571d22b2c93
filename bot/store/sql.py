"""What the SQLite and PostgreSQL backends run alike: every method whose statements read the
same in both dialects, written once here with ``?`` placeholders (:func:`numbered` turns them
into PostgreSQL's ``$1``, ``$2``, …), and the bookkeeping of refused writes.

A backend extends :class:`SQLStore` and provides four primitives — one idempotent write
statement, one write transaction of statement batches, reads in one snapshot, and the games
of a condition with their seats, moves and owed posts — and keeps the methods whose SQL
differs (ids given out on insert, upserts, a move's write, ratings under a lock)."""

from __future__ import annotations

import abc
import functools
import json
import logging
from collections.abc import Iterable, Sequence
from typing import Any

from bot.store.base import ShardSlice
from bot.store.common import LEADERBOARD_ORDER, leaderboard_row, player_stats
from bot.store.records import (
    GameRecord,
    LeaderboardRow,
    MatchPost,
    MatchRecord,
    PlayerStats,
    SeatRecord,
)

__all__ = ["INSERT_MOVE", "INSERT_SEAT", "Batch", "Query", "SQLStore", "numbered", "seat_rows"]

Query = tuple[str, Sequence[Any]]
"""One statement (``?`` placeholders) and its arguments."""
Batch = tuple[str, Sequence[Sequence[Any]]]
"""One statement (``?`` placeholders) and the rows of arguments it runs for, in order."""

INSERT_SEAT = "INSERT INTO seats (game_id, seat, user_id, name, level) VALUES (?, ?, ?, ?, ?)"
INSERT_MOVE = (
    "INSERT INTO moves (game_id, ply, seat, move, by_computer, created_at)"
    " VALUES (?, ?, ?, ?, ?, ?)"
)


@functools.lru_cache(maxsize=512)
def numbered(sql: str) -> str:
    """Return ``sql`` with its ``?`` placeholders numbered for PostgreSQL (``$1``, ``$2``, …
    in order); the store's SQL has no other question mark."""
    first, *rest = sql.split("?")
    return first + "".join(f"${i}{part}" for i, part in enumerate(rest, 1))


def seat_rows(game_id: int, seats: Iterable[SeatRecord]) -> list[tuple[Any, ...]]:
    """Return the ``seats`` rows of a seating, in :data:`INSERT_SEAT`'s order."""
    return [(game_id, s.seat, s.user_id, s.name, s.level) for s in seats]


class SQLStore(abc.ABC):
    """The store's methods that both backends run alike, over the primitives each provides."""

    _refusing = False  # writes fail (one log line per episode)

    @property
    @abc.abstractmethod
    def location(self) -> str:
        """Where the database is, for messages (no password)."""
        ...

    # --- what a backend provides ---------------------------------------------------

    @abc.abstractmethod
    async def _execute(self, sql: str, *args: Any) -> None:
        """Run one write statement that may safely run twice (every caller's is
        idempotent: an update to a value, a delete, an upsert)."""
        ...

    @abc.abstractmethod
    async def _transaction(self, batches: Sequence[Batch]) -> None:
        """Run the batches, each statement once per row, in one write transaction."""
        ...

    @abc.abstractmethod
    async def _fetch(self, *queries: Query) -> list[list[Any]]:
        """Return the rows of each query, read in one snapshot."""
        ...

    @abc.abstractmethod
    async def _games(self, where: str, *args: Any) -> list[GameRecord]:
        """Return the games ``WHERE where`` with their seats, move logs and owed posts, read
        in one snapshot."""
        ...

    @abc.abstractmethod
    def _on_shards(self, shards: ShardSlice | None) -> tuple[str, tuple[Any, ...]]:
        """Return the condition (`` AND …``) and arguments that keep the games of servers
        on ``shards``; nothing for every server."""
        ...

    # --- refused writes ------------------------------------------------------------

    def _refused(self, why: str, text: str) -> None:
        """Log the first refused write of an episode (``why``: "refuses writes", "cannot be
        reached"), not the ones after it."""
        if self._refusing:
            return
        self._refusing = True
        logging.getLogger(type(self).__module__).error(
            "the database %s %s (%s): moves and new tables are refused, and the players are "
            "told, until it accepts them again",
            self.location,
            why,
            text,
        )

    def _accepted(self) -> None:
        """A write succeeded: end an episode of refused writes, if one is on."""
        if self._refusing:
            self._refusing = False
            logging.getLogger(type(self).__module__).warning(
                "the database %s accepts writes again", self.location
            )

    # --- tables --------------------------------------------------------------------

    async def set_message(
        self,
        game_id: int,
        message_id: int,
        token: str | None = None,
        token_until: float | None = None,
    ) -> None:
        """Remember the id of the table's public message, and the token of the interaction
        whose original response it is with until when to use it (none: a message posted in
        the channel)."""
        await self._execute(
            "UPDATE games SET message_id = ?, message_token = ?, token_until = ? WHERE id = ?",
            message_id,
            token,
            token_until,
            game_id,
        )

    async def set_message_token(
        self, game_id: int, token: str | None, token_until: float | None
    ) -> None:
        """Remember the token the table message is edited through now, and until when
        (none: its channel edits)."""
        await self._execute(
            "UPDATE games SET message_token = ?, token_until = ? WHERE id = ?",
            token,
            token_until,
            game_id,
        )

    async def set_seats(
        self, game_id: int, seats: Iterable[SeatRecord], now: float | None = None
    ) -> None:
        """Replace the table's seating with ``seats`` (a lobby change at ``now``)."""
        touched: list[Batch] = []
        if now is not None:
            touched.append(("UPDATE games SET active_at = ? WHERE id = ?", [(now, game_id)]))
        await self._transaction(
            [
                *touched,
                ("DELETE FROM seats WHERE game_id = ?", [(game_id,)]),
                (INSERT_SEAT, seat_rows(game_id, seats)),
            ]
        )

    async def start_game(
        self,
        game_id: int,
        seats: Iterable[SeatRecord],
        now: float,
        deadline: float | None,
        moves: Sequence[tuple[int, str, bool]] = (),
    ) -> None:
        """Seat everyone, mark the table as playing and log the computers' first moves, in
        one transaction."""
        await self._transaction(
            [
                ("DELETE FROM seats WHERE game_id = ?", [(game_id,)]),
                (INSERT_SEAT, seat_rows(game_id, seats)),
                (
                    "UPDATE games SET status = 'playing', started_at = ?, deadline = ?,"
                    " warned = FALSE WHERE id = ? AND status = 'lobby'",
                    [(now, deadline, game_id)],
                ),
                (
                    INSERT_MOVE,
                    [
                        (game_id, ply, seat, move, bool(by_computer), now)
                        for ply, (seat, move, by_computer) in enumerate(moves)
                    ],
                ),
            ]
        )

    async def posted(self, game_id: int, post: str) -> None:
        """Record that the owed public post ``post`` of the game has been sent."""
        await self._execute("DELETE FROM outbox WHERE game_id = ? AND post = ?", game_id, post)

    async def set_warned(self, game_id: int) -> None:
        """Record that the current decision's warning has been shown."""
        await self._execute("UPDATE games SET warned = TRUE WHERE id = ?", game_id)

    async def cancel_game(self, game_id: int, now: float, reason: str = "cancelled") -> None:
        """Close the table without scores: ``cancelled`` by its host or a manager,
        ``expired`` (an idle lobby) or ``abandoned`` (its channel or server is gone; the
        posts it still owed are struck off with it: there is nowhere to send them)."""
        batches: list[Batch] = [
            (
                "UPDATE games SET status = 'cancelled', end_reason = ?, ended_at = ?,"
                " deadline = NULL WHERE id = ? AND status IN ('lobby', 'playing')",
                [(reason, now, game_id)],
            )
        ]
        if reason == "abandoned":
            batches.append(("DELETE FROM outbox WHERE game_id = ?", [(game_id,)]))
        await self._transaction(batches)

    async def drop_owed(self, game_id: int) -> None:
        """Strike off every post the game still owes (its channel is gone for good)."""
        await self._execute("DELETE FROM outbox WHERE game_id = ?", game_id)

    # --- events over several tables ------------------------------------------------

    async def match_nonces(self, match_id: int) -> set[str]:
        """Return the nonces of every post the event has owed, sent or not."""
        (rows,) = await self._fetch(
            ("SELECT nonce FROM match_posts WHERE match_id = ?", (match_id,))
        )
        return {str(row[0]) for row in rows}

    async def owed_match_posts(self) -> list[MatchPost]:
        """Return every post events still owe, each event's in order."""
        (rows,) = await self._fetch(
            (
                "SELECT p.match_id, m.guild_id, p.channel_id, p.nonce, p.seq, p.text"
                " FROM match_posts p JOIN matches m ON m.id = p.match_id"
                " WHERE NOT p.sent ORDER BY p.match_id, p.seq",
                (),
            )
        )
        return [MatchPost(*row) for row in rows]

    async def match_posted(self, match_id: int, nonce: str) -> None:
        """Record that the event's post ``nonce`` was sent (or has nowhere to go)."""
        await self._execute(
            "UPDATE match_posts SET sent = TRUE WHERE match_id = ? AND nonce = ?", match_id, nonce
        )

    async def match(self, match_id: int) -> MatchRecord | None:
        """Return the event, or ``None``."""
        found = await self._matches("id = ?", match_id)
        return found[0] if found else None

    async def live_matches(self, game: str) -> list[MatchRecord]:
        """Return every event of ``game`` still open or playing, oldest first."""
        return await self._matches("game = ? AND status IN ('open', 'playing') ORDER BY id", game)

    async def matches_in(self, guild_id: int, game: str) -> list[MatchRecord]:
        """Return the server's events of ``game``, newest first (at most 20)."""
        return await self._matches(
            "guild_id = ? AND game = ? ORDER BY id DESC LIMIT 20", guild_id, game
        )

    async def _matches(self, where: str, *args: Any) -> list[MatchRecord]:
        (rows,) = await self._fetch(
            (f"SELECT id, game, guild_id, status, data FROM matches WHERE {where}", args)
        )
        return [MatchRecord(r[0], r[1], r[2], r[3], json.loads(r[4])) for r in rows]

    # --- reading -------------------------------------------------------------------

    async def game(self, game_id: int) -> GameRecord | None:
        """Return the table with its seats and moves, or ``None``."""
        found = await self._games("id = ?", game_id)
        return found[0] if found else None

    async def live_game_in(self, channel_id: int) -> GameRecord | None:
        """Return the channel's open or running table, if any."""
        found = await self._games("channel_id = ? AND status IN ('lobby', 'playing')", channel_id)
        return found[0] if found else None

    async def live_games(self, shards: ShardSlice | None = None) -> list[GameRecord]:
        """Return every open or running table with its seats, moves and owed posts (of
        the servers on ``shards`` only, if given)."""
        where, args = self._on_shards(shards)
        return await self._games(f"status IN ('lobby', 'playing'){where} ORDER BY id", *args)

    async def owed_finished(self, shards: ShardSlice | None = None) -> list[GameRecord]:
        """Return every finished game that still owes public posts, with its seats, moves
        and owed posts (of the servers on ``shards`` only, if given)."""
        where, args = self._on_shards(shards)
        return await self._games(
            f"status = 'finished' AND id IN (SELECT game_id FROM outbox){where} ORDER BY id",
            *args,
        )

    _BYTE_ORDER = ""
    """What makes a text column sort in byte order (SQLite's own; PostgreSQL's needs
    ``COLLATE "C"``, whatever the database's collation)."""

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
        """Return one page of the server's players of ``game`` and how many there are.

        ``sort`` is ``"points"`` (cumulative score, then wins), ``"wins"`` (then points) or
        ``"rating"`` (the conservative estimate, then points); with ``computers`` the
        computer levels are listed too (each seat a level filled counts as a game)."""
        if sort not in LEADERBOARD_ORDER:
            raise ValueError(f"unknown sort {sort!r}")
        who = "" if computers else " AND r.user_id IS NOT NULL"
        seats = (
            "SELECT COALESCE(CAST(r.user_id AS TEXT), 'cpu:' || r.level) AS player,"
            " r.user_id, r.level, r.score, r.win"
            " FROM results r JOIN games g ON g.id = r.game_id"
            f" WHERE r.guild_id = ? AND g.game = ?{who}"
        )
        counted, rows = await self._fetch(
            (f"SELECT COUNT(DISTINCT player) FROM ({seats}) AS seats", (guild_id, game)),
            (
                f"WITH seats AS ({seats})"
                " SELECT s.player, MAX(s.user_id), MAX(s.level), COUNT(*), SUM(s.win),"
                " SUM(s.score), rt.mu, rt.sigma"
                " FROM seats s LEFT JOIN ratings rt"
                " ON rt.guild_id = ? AND rt.game = ? AND rt.player = s.player"
                f" GROUP BY s.player, rt.mu, rt.sigma ORDER BY {LEADERBOARD_ORDER[sort]},"
                f" MAX(s.user_id) IS NULL, MAX(s.user_id), s.player{self._BYTE_ORDER}"
                " LIMIT ? OFFSET ?",
                (guild_id, game, guild_id, game, limit, offset),
            ),
        )
        total = int(counted[0][0] or 0) if counted else 0
        return [leaderboard_row(r) for r in rows], total

    async def player_stats(self, guild_id: int, user_id: int, game: str) -> PlayerStats | None:
        """Return a member's record in the server's games of ``game`` (``None`` if they
        have finished none)."""
        rows, ratings = await self._fetch(
            (
                "SELECT r.seat, r.score, r.win, r.rounds FROM results r"
                " JOIN games g ON g.id = r.game_id"
                " WHERE r.guild_id = ? AND r.user_id = ? AND g.game = ?",
                (guild_id, user_id, game),
            ),
            (
                "SELECT mu, sigma FROM ratings WHERE guild_id = ? AND game = ? AND player = ?",
                (guild_id, game, str(user_id)),
            ),
        )
        return player_stats(rows, ratings[0] if ratings else None)

    async def defaults(self, guild_id: int, game: str) -> dict[str, Any]:
        """Return the server's defaults for new tables of ``game`` (empty if none)."""
        (rows,) = await self._fetch(
            (
                "SELECT options FROM guild_defaults WHERE guild_id = ? AND game = ?",
                (guild_id, game),
            )
        )
        return dict(json.loads(rows[0][0])) if rows else {}
