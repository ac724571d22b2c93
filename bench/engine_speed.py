"""Engine speed: full games per second with ``random`` players (Dupe: four deals).

    .venv/bin/python bench/engine_speed.py [--game dupe] [--games 2000] [--rounds 5]

Runs in this one process (one core), with decision timing off, and prints the games per
second of each round, then the median and best. Target for Dupe: a median of at least
1,200 games/s. Figures, not assertions: the test suite never times anything.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine import games
from engine.simulate import simulate


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="dupe", choices=games.names())
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    rates = []
    for round_no in range(args.rounds):
        rules = games.get(args.game)
        players = ["random"] * rules.player_counts(rules.options_type())[0]
        seed = round_no * args.games
        result = simulate(players, args.games, seed=seed, timing=False, game=rules)
        rates.append(result.games_per_second)
        print(
            f"round {round_no + 1}: {args.games} games in {result.seconds:.3f} s "
            f"= {result.games_per_second:.0f} games/s"
        )
    print(
        f"median {statistics.median(rates):.0f} games/s, best {max(rates):.0f} games/s "
        f"(target for dupe ≥ 1200)"
    )


if __name__ == "__main__":
    main()
