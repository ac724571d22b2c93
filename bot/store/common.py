"""What every backend computes alike from the rows it reads and for the rows it writes: the
records, the ratings a finished game moves, a member's stats. Each backend keeps only its
SQL; what the rows mean is said once, here."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any

from bot.ratings import Rating, player_key, rate_game
from bot.store.records import (
    FinishedGame,
    GameRecord,
    LeaderboardRow,
    PlayerStats,
    SeatResult,
)

__all__ = [
    "GAME_COLUMNS",
    "LEADERBOARD_ORDER",
    "TABLES",
    "finished_games",
    "game_record",
    "leaderboard_row",
    "player_stats",
    "rated_players",
    "rating_rows",
    "result_rows",
]

# The store's tables, each after the tables it refers to.
TABLES = (
    "games",
    "seats",
    "moves",
    "results",
    "outbox",
    "ratings",
    "guild_defaults",
    "matches",
    "match_posts",
)

GAME_COLUMNS = (
    "id, game, guild_id, channel_id, host_id, seed, options, status, message_id, deadline, "
    "warned, created_at, shown_plies, active_at, message_token, token_until"
)

# ORDER BY of each leaderboard sort, over the grouped seats ``s`` and ratings ``rt``: plain
# SQL that both dialects read alike (an unrated player sorts last either way).
LEADERBOARD_ORDER = {
    "points": "SUM(s.score) DESC, SUM(s.win) DESC",
    "wins": "SUM(s.win) DESC, SUM(s.score) DESC",
    "rating": "rt.mu IS NULL, rt.mu - 3 * rt.sigma DESC, SUM(s.score) DESC",
}


def game_record(row: Sequence[Any]) -> GameRecord:
    """Return the record of a ``games`` row read as :data:`GAME_COLUMNS`."""
    return GameRecord(
        id=row[0],
        game=row[1],
        guild_id=row[2],
        channel_id=row[3],
        host_id=row[4],
        seed=row[5],
        options=json.loads(row[6]),
        status=row[7],
        message_id=row[8],
        deadline=row[9],
        warned=bool(row[10]),
        created_at=row[11],
        shown_plies=row[12],
        active_at=row[13],
        message_token=row[14],
        token_until=row[15],
    )


def result_rows(
    game_id: int, guild_id: int, results: Iterable[SeatResult]
) -> list[tuple[Any, ...]]:
    """Return the ``results`` rows of a finished game: ``(game_id, seat, guild_id, user_id,
    level, score, win, rounds)``, the rounds as a JSON list (``None`` if there are none)."""
    return [
        (
            game_id,
            r.seat,
            guild_id,
            r.user_id,
            r.level,
            r.score,
            r.win,
            json.dumps(list(r.rounds)) if r.rounds else None,
        )
        for r in results
    ]


def rated_players(results: Sequence[SeatResult]) -> list[str]:
    """Return the players whose ratings a finished game moves, sorted (none if it had fewer
    than two seats: a game needs an opponent to be rated)."""
    if len(results) < 2:
        return []
    return sorted({player_key(r.user_id, r.level) for r in results})


def rating_rows(
    game: str,
    guild_id: int,
    results: Sequence[SeatResult],
    current: dict[str, tuple[Rating, int]],
    now: float,
) -> list[tuple[Any, ...]]:
    """Return the ``ratings`` rows a finished game writes, ``(guild_id, game, player, mu,
    sigma, games, updated_at)``, from the players' ``current`` ratings and game counts
    (read in the finishing transaction; a player without a row starts at the default)."""
    if len(results) < 2:
        return []
    seats = [(player_key(r.user_id, r.level), r.score) for r in results]
    updated = rate_game(seats, {key: rating for key, (rating, _) in current.items()})
    return [
        (guild_id, game, key, rating.mu, rating.sigma, current.get(key, (None, 0))[1] + 1, now)
        for key, rating in updated.items()
    ]


def leaderboard_row(row: Sequence[Any]) -> LeaderboardRow:
    """Return a leaderboard line from ``(player, user_id, level, games, wins, points, mu,
    sigma)``."""
    return LeaderboardRow(
        row[1],
        int(row[3]),
        float(row[4]),
        int(row[5]),
        level=row[2] if row[1] is None else None,
        rating=None if row[6] is None else Rating(row[6], row[7]),
    )


def player_stats(rows: Sequence[Sequence[Any]], rated: Sequence[Any] | None) -> PlayerStats | None:
    """Return a member's stats from their ``(seat, score, win, rounds)`` results and their
    ``(mu, sigma)`` rating, if any (``None`` if they have finished no game)."""
    if not rows:
        return None
    seats = Counter(int(r[0]) for r in rows)
    scores = [int(r[1]) for r in rows]
    rounds = [int(x) for r in rows if r[3] for x in json.loads(r[3])]
    return PlayerStats(
        games=len(scores),
        wins=sum(float(r[2]) for r in rows),
        mean_score=sum(scores) / len(scores),
        best_score=max(scores),
        best_round=max(rounds) if rounds else None,
        favourite_seat=min(seats, key=lambda seat: (-seats[seat], seat)),
        rating=None if rated is None else Rating(rated[0], rated[1]),
    )


def finished_games(
    rows: Sequence[Sequence[Any]],
    records: Sequence[GameRecord],
    results: Iterable[Sequence[Any]],
) -> list[FinishedGame]:
    """Return the history entries of ``records`` (read from ``rows``, whose last column is
    ``ended_at``) with their ``(game_id, seat, score, win)`` results."""
    by_game: dict[int, dict[int, tuple[int, float]]] = {}
    for game_id, seat, score, win in results:
        by_game.setdefault(game_id, {})[seat] = (int(score), float(win))
    return [
        FinishedGame(
            record,
            float(row[-1] or 0.0),
            by_game.get(record.id, {}),
            abandoned=record.status == "cancelled",
        )
        for record, row in zip(records, rows, strict=True)
    ]
