"""What a hint costs: CPU time of one Hint press's work (``bot.hints.advise``: a fresh
adviser shown the member's views, rebuilt from the move log, then its advice), at every
decision of one seat over whole games, per game that gives advice.

    .venv/bin/python bench/hints.py --games 3

The moves are made by each game's default computer level (whist's: ``basic``); the member
is seat 0. CPU time (``time.process_time``) counts the work, not a busy host's waiting.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Sequence

from bot.hints import advise
from engine import games
from engine.game import AnyGame, deciding_player


def measure(game: AnyGame, seeds: Sequence[int]) -> list[float]:
    """Return the CPU milliseconds of each hint for seat 0 over games of ``seeds``."""
    timings: list[float] = []
    for seed in seeds:
        state = game.new_game(seed)
        players = {p: game.levels[game.default_level](seed * 10 + p) for p in range(state.players)}
        moves = 0
        while not state.is_over and moves < 2000:
            hand = state.to_act[0]
            player = deciding_player(state, hand)
            assert player is not None
            if player == 0:
                started = time.process_time()
                advise(game, seed, state.options, list(state.moves), 0, hand, seed + moves)
                timings.append((time.process_time() - started) * 1000)
            state.apply(hand, players[player].act(state.view(hand)))
            moves += 1
    return timings


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=3, help="games per game kind")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    seeds = range(args.seed, args.seed + args.games)
    for game in games.GAMES:
        if game.adviser(0) is None:
            continue
        timings = sorted(measure(game, seeds))
        if not timings:
            continue
        p99 = timings[min(len(timings) - 1, int(0.99 * len(timings)))]
        print(
            f"{game.name:10} hints {len(timings):5}  CPU ms per hint: "
            f"p50 {statistics.median(timings):7.1f}  p99 {p99:7.1f}  max {timings[-1]:7.1f}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
