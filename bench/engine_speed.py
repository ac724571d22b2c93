"""Engine speed: full games per second with ``random`` players (Dupe: four deals).

    .venv/bin/python bench/engine_speed.py [--game dupe] [--games 2000] [--rounds 5]

Runs in this one process (one core), with decision timing off, and prints the games per
second of each round, then the median and best. For Dupe each round also times the lean loop
(``bench/lean_dupe.py``: the same random games as a plain loop over ints, no engine), the two
alternating in this process, engine first in odd rounds and lean first in even ones, and
prints the engine's speed as a share of it. Before timing, the lean loop must reach the same
totals as the engine for the first rounds' games. Targets for Dupe: a median of at least
1,200 games/s, and at least 0.8 of the lean loop. Figures, not assertions: the test suite
never times anything. On a busy machine the rounds swing both ways; ``bench/engine_instructions.py``
counts the same workload in instructions, which load cannot move.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import lean_dupe

from engine import games
from engine.game import Game
from engine.simulate import simulate


def engine_round(rules: Game, count: int, seed: int) -> float:
    """Return the seconds ``count`` random games take through ``engine.simulate``."""
    players = ["random"] * rules.player_counts(rules.options_type())[0]
    return simulate(players, count, seed=seed, timing=False, game=rules).seconds


def check_same_games(rules: Game, count: int) -> None:
    """Raise ``AssertionError`` unless the lean loop and the engine reach the same totals in
    the first ``count`` games (simulate rotates its entries: entry ``e`` of game ``g`` plays
    seat ``(e + g) % 4``)."""
    lean_dupe.check()
    result = simulate(["random"] * 4, count, seed=0, timing=False, game=rules)
    for g in range(count):
        totals, _ = lean_dupe.game(g)
        engine = [result.entries[(seat - g) % 4].scores[g] for seat in range(4)]
        assert engine == totals, f"game {g}: engine {engine}, lean loop {totals}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="dupe", choices=games.names())
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    rules = games.get(args.game)
    lean = args.game == "dupe"
    if lean:
        check_same_games(rules, 200)
    rates: list[float] = []
    lean_rates: list[float] = []
    for round_no in range(args.rounds):
        seed = round_no * args.games
        lean_first = lean and round_no % 2 == 1
        if lean_first:
            lean_seconds = lean_dupe.run(args.games, seed)
        seconds = engine_round(rules, args.games, seed)
        if lean and not lean_first:
            lean_seconds = lean_dupe.run(args.games, seed)
        rates.append(args.games / seconds)
        print(
            f"round {round_no + 1}: {args.games} games in {seconds:.3f} s = {rates[-1]:.0f} games/s"
        )
        if lean:
            lean_rates.append(args.games / lean_seconds)
            print(
                f"  lean loop: {args.games} games in {lean_seconds:.3f} s "
                f"= {lean_rates[-1]:.0f} games/s; engine/lean {rates[-1] / lean_rates[-1]:.2f}"
            )
    print(
        f"median {statistics.median(rates):.0f} games/s, best {max(rates):.0f} games/s "
        f"(target for dupe ≥ 1200)"
    )
    if lean:
        shares = [e / b for e, b in zip(rates, lean_rates, strict=True)]
        print(
            f"lean loop: median {statistics.median(lean_rates):.0f} games/s; engine/lean "
            f"median {statistics.median(shares):.2f} (per round "
            f"{', '.join(f'{s:.2f}' for s in shares)}; target ≥ 0.8)"
        )


if __name__ == "__main__":
    main()
