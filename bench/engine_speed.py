"""Engine speed: full Dupe games (4 deals) per second with four ``random`` players.

    .venv/bin/python bench/engine_speed.py [--games 2000] [--rounds 5]

Runs in this one process (one core), with decision timing off, and prints the games per
second of each round, then the median and best. Target: at least 800 games/s. Figures,
not assertions: the test suite never times anything.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.simulate import simulate


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    rates = []
    for round_no in range(args.rounds):
        result = simulate(["random"] * 4, args.games, seed=round_no * args.games, timing=False)
        rates.append(result.games_per_second)
        print(
            f"round {round_no + 1}: {args.games} games in {result.seconds:.3f} s "
            f"= {result.games_per_second:.0f} games/s"
        )
    print(
        f"median {statistics.median(rates):.0f} games/s, best {max(rates):.0f} games/s "
        f"(target ≥ 800)"
    )


if __name__ == "__main__":
    main()
