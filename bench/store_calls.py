"""The bot's CPU per store call: SQLite (aiosqlite's thread), and PostgreSQL with its pool in
a thread of its own (a bot embedded in another program, the tests) or on the caller's loop
(``python -m bot``).

    .venv/bin/python bench/store_calls.py [--calls 4000]

Each backend writes a move (``append_moves``, one statement) and records a table message's
edit (``shown``) ``--calls`` times, one at a time and eight at once, and prints this
process's CPU time (all its threads; not the server's) and the wall time per call. It starts
a throw-away PostgreSQL cluster (``initdb``, ``pg_ctl``; see ``tests/support/postgres.py``).
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.store import PostgresStore, SQLiteStore, Store
from tests.bot.test_store import NOW, open_game
from tests.support.postgres import Cluster


async def measure(name: str, store: Store, calls: int, channels: int) -> None:
    for at_once in (1, 8):
        games = [
            await open_game(store, channels + at_once * 10 + k, [10 + k]) for k in range(at_once)
        ]
        per_game = calls // at_once

        async def moves(game_id: int, per_game: int = per_game) -> None:
            for ply in range(per_game):
                await store.append_moves(game_id, ply, [(0, f"m{ply}", False)], NOW, NOW + 60)

        async def shown(game_id: int, per_game: int = per_game) -> None:
            for ply in range(per_game):
                await store.shown(game_id, ply)

        for what, work in (("append_moves", moves), ("shown", shown)):
            cpu, wall = time.process_time(), time.perf_counter()
            await asyncio.gather(*(work(game_id) for game_id in games))
            cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
            done = per_game * at_once
            print(
                f"{name:<34} {what:<13} {at_once} at once: {cpu / done * 1e6:5.0f} µs CPU, "
                f"{wall / done * 1e6:5.0f} µs wall per call"
            )


async def run(args: argparse.Namespace, url: str) -> None:
    with tempfile.TemporaryDirectory() as folder:
        sqlite = await SQLiteStore.open(Path(folder) / "bench.sqlite3")
        try:
            await measure("SQLite", sqlite, args.calls, 1000)
        finally:
            await sqlite.close()
    for channels, own_thread, name in (
        (2000, True, "PostgreSQL, pool in its own thread"),
        (3000, False, "PostgreSQL, pool on the bot's loop"),
    ):
        store = await PostgresStore.open(url, own_thread=own_thread)
        try:
            await measure(name, store, args.calls, channels)
        finally:
            await store.close()


def main() -> None:
    parser = argparse.ArgumentParser(description="The bot's CPU per store call, by backend")
    parser.add_argument("--calls", type=int, default=4000)
    args = parser.parse_args()
    cluster = Cluster()
    try:
        asyncio.run(run(args, cluster.url(cluster.database())))
    finally:
        cluster.close()


if __name__ == "__main__":
    main()
