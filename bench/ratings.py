"""Rating update time per finished game.

    .venv/bin/python bench/ratings.py [--games 2000] [--players 1000] [--seed 1]

Two figures, median and p99 per game:

1. ``rate_game`` alone: OpenSkill's Plackett–Luce update of a four-seat free-for-all
   (scores drawn like Dupe's, with ties now and then; some games seat a computer level
   twice).
2. The whole rating step of the finishing transaction, as the store runs it in its
   thread: read the four players' ratings from a server that already has ``--players``
   rated players, rate, and write the four rows (``INSERT OR REPLACE``), then COMMIT in
   WAL mode with ``synchronous = NORMAL`` like the bot's database. The commit is timed
   apart, since the bot shares it with the game's last move.

Figures, not assertions: the test suite never times anything.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sqlite3
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.ratings import player_key, rate_game
from bot.store import SeatResult, SQLiteStore
from bot.store.sqlite import rating_statements

GUILD = 1


def _game(rng: random.Random, players: int) -> list[SeatResult]:
    seats = []
    for seat in range(4):
        if rng.random() < 0.2:
            user, level = None, rng.choice(("expert", "greedy"))
        else:
            user, level = rng.randrange(1, players + 1), None
        score = rng.randrange(40, 200) if rng.random() > 0.1 else 100  # ties now and then
        seats.append(SeatResult(seat, user, level, score, 0.0))
    return seats


def _figures(name: str, samples: list[float]) -> None:
    ordered = sorted(samples)
    p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
    print(
        f"{name:<44} median {statistics.median(ordered) * 1e3:7.3f} ms"
        f"   p99 {p99 * 1e3:7.3f} ms   ({len(ordered)} games)"
    )


def bench_rate(games: int, players: int, rng: random.Random) -> None:
    samples = []
    for _ in range(games):
        rows = _game(rng, players)
        seats = [(player_key(r.user_id, r.level), r.score) for r in rows]
        start = time.perf_counter()
        rate_game(seats, {})
        samples.append(time.perf_counter() - start)
    _figures("rate_game (OpenSkill update, 4 seats)", samples)


async def _prepare(path: Path) -> None:
    store = await SQLiteStore.open(path)
    await store.close()


def bench_store(games: int, players: int, rng: random.Random) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "ratings.sqlite3"
        asyncio.run(_prepare(path))
        conn = sqlite3.connect(path, isolation_level=None)
        conn.execute("PRAGMA journal_mode = WAL")
        conn.execute("PRAGMA synchronous = NORMAL")
        conn.executemany(
            "INSERT INTO ratings (guild_id, game, player, mu, sigma, games, updated_at)"
            " VALUES (?, 'dupe', ?, ?, ?, ?, 0)",
            [
                (GUILD, str(user), rng.gauss(25, 4), rng.uniform(2, 8), rng.randrange(1, 50))
                for user in range(1, players + 1)
            ],
        )
        work, commits = [], []
        for _ in range(games):
            rows = _game(rng, players)
            start = time.perf_counter()
            conn.execute("BEGIN IMMEDIATE")
            for sql, params in rating_statements(conn, "dupe", GUILD, rows, time.time()):
                conn.execute(sql, params)
            middle = time.perf_counter()
            conn.execute("COMMIT")
            end = time.perf_counter()
            work.append(middle - start)
            commits.append(end - middle)
        conn.close()
    _figures(f"read + rate + write ({players} rated players)", work)
    _figures("its COMMIT (WAL, synchronous=NORMAL)", commits)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    bench_rate(args.games, args.players, rng)
    bench_store(args.games, args.players, rng)


if __name__ == "__main__":
    main()
