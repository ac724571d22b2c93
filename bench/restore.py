"""What a restart's first click of a table costs to rebuild it, per game: its state and the
computer at one of its seats, from the move log's text.

    .venv/bin/python bench/restore.py [--tables 300] [--plies 24] [--level LEVEL] [--runs 3]

For each game, ``--tables`` tables are played ``--plies`` moves from their deal at random,
a computer of ``--level`` (default: the game's strongest) at seat 1. Then, per table (CPU
time, the least of ``--runs`` runs, in ms):

- ``replay``: the log's replay alone (``Game.replay`` of its text), a table without computers;
- ``before``: the replay, then the computer built and caught up (``prime``: the log walked a
  second time, a view at each decision point shown to it), as a restart did before;
- ``click``: what the click pays now (``bot.computers.restored``: one pass; the views of a
  level deciding on the event loop kept, a slow level's left to where it decides);
- ``first act``: what the computer's catching up adds when it must act (``Rebuilt``: the
  views kept, or a slow level's walk of the log), paid then and not at the click.

Figures, not assertions.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path
from types import SimpleNamespace
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.computers import Rebuilt, prime, restored
from engine.game import AnyGame
from engine.games import GAMES

SEAT = 1


def _logs(game: AnyGame, tables: int, plies: int) -> list[tuple[int, Any, list[str]]]:
    """Return ``(seed, options, log)`` of tables played at random."""
    out = []
    for seed in range(tables):
        rng = random.Random(seed)
        state = game.new_game(seed)
        while not state.is_over and state.move_count < plies:
            hand = state.to_act[0]
            state.apply(hand, rng.choice(state.legal_actions(hand)))
        out.append((seed, state.options, [str(m) for m in state.moves]))
    return out


def _timed(run: Any, logs: list[tuple[int, Any, list[str]]], runs: int) -> float:
    """Return the least CPU time of ``run`` over ``logs``, per table, in ms."""
    best = float("inf")
    for _ in range(runs):
        start = time.process_time()
        for seed, options, log in logs:
            run(seed, options, log)
        best = min(best, time.process_time() - start)
    return 1000 * best / len(logs)


def measure(game: AnyGame, level: str, tables: int, plies: int, runs: int) -> dict[str, float]:
    """Return the four figures of the module docstring for ``game``, in ms per table."""
    build = game.levels[level]
    build(0)  # its import and tables, once per process
    logs = _logs(game, tables, plies)

    def replay(seed: int, options: Any, log: list[str]) -> None:
        game.replay(seed, options, log)

    def before(seed: int, options: Any, log: list[str]) -> None:
        state = game.replay(seed, options, log)
        table = SimpleNamespace(state=state, seed=seed, ui=SimpleNamespace(game=game))
        prime(table, {SEAT: build(seed)})  # type: ignore[arg-type]

    def click(seed: int, options: Any, log: list[str]) -> None:
        restored(game, seed, options, log, {SEAT: build(seed)})

    rebuilt: list[Rebuilt] = []

    def keep(seed: int, options: Any, log: list[str]) -> None:
        _, players = restored(game, seed, options, log, {SEAT: build(seed)})
        player = players[SEAT]
        assert isinstance(player, Rebuilt)
        rebuilt.append(player)

    def catch_up(seed: int, options: Any, log: list[str]) -> None:
        rebuilt.pop().caught_up()

    figures = {
        name: _timed(f, logs, runs)
        for name, f in (("replay", replay), ("before", before), ("click", click))
    }
    total = float("inf")
    for _ in range(runs):
        for seed, options, log in logs:
            keep(seed, options, log)
        total = min(total, _timed(catch_up, logs, 1))
    figures["first act"] = total
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=300)
    parser.add_argument("--plies", type=int, default=24)
    parser.add_argument("--level", help="the computer's level (default: each game's strongest)")
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    runs = f"CPU ms a table, the least of {args.runs} runs"
    print(f"{args.tables} tables a game, {args.plies} moves each; {runs}")
    print(f"{'game':<16} {'level':<9} {'replay':>7} {'before':>7} {'click':>7} {'first act':>9}")
    for game in GAMES:
        level = args.level if args.level in game.levels else list(game.levels)[-1]
        f = measure(game, level, args.tables, args.plies, args.runs)
        print(
            f"{game.name:<16} {level:<9} {f['replay']:7.3f} {f['before']:7.3f} {f['click']:7.3f}"
            f" {f['first act']:9.3f}"
        )


if __name__ == "__main__":
    main()
