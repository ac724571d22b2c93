"""Dupe's engine against the lean loop in instructions, which a busy machine cannot move.

    nice -n 19 .venv/bin/python bench/engine_instructions.py [--games 100] [--warm 20]

Runs the workload of ``bench/engine_speed.py`` (random full games through ``engine.simulate``,
and the same games through ``bench/lean_dupe.py``) under valgrind's cachegrind, with its cache
and branch simulation, each in a process of its own with ``PYTHONHASHSEED=0``, once for
``--warm`` games and once for ``--warm`` + ``--games``: the difference over ``--games`` is the
work a game, without the start-up and the first games' one-time work. Prints, a game for
both, the instructions, the first-level cache misses (instruction and data) and the
mispredicted branches, and the engine's share of the lean loop's speed (lean / engine; the
target is ≥ 0.8, as in games per second) by instructions alone and by a simple model of
time: an instruction a cycle, 10 cycles a first-level miss, 17 a mispredicted branch. A
Python interpreter mispredicts where it goes next after many of its steps, so the model
tracks the timed share more closely than instructions do. Needs valgrind; takes a few
minutes. Figures, not assertions.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def workload(which: str, games: int) -> None:
    """Play ``games`` random games through the engine or the lean loop (seeds from 0)."""
    sys.path.insert(0, str(ROOT))
    sys.path.insert(0, str(ROOT / "bench"))
    import lean_dupe

    from engine import games as registry
    from engine.simulate import simulate

    if games == 0:
        return
    if which == "engine":
        simulate(["random"] * 4, games, seed=0, timing=False, game=registry.get("dupe"))
    else:
        lean_dupe.run(games, 0)


COUNTS = {
    "I   refs": "instructions",
    "I1  misses": "I1 misses",
    "D1  misses": "D1 misses",
    "Mispredicts": "mispredicted branches",
}
CYCLES = {"instructions": 1, "I1 misses": 10, "D1 misses": 10, "mispredicted branches": 17}
"""The model's cycles for each event: rough costs on a current x86 core."""


def counts(which: str, games: int) -> dict[str, int]:
    """Return what cachegrind counts for a process playing ``games`` games of ``which``."""
    result = subprocess.run(
        [
            "valgrind",
            "--tool=cachegrind",
            "--cache-sim=yes",
            "--branch-sim=yes",
            "--cachegrind-out-file=/dev/null",
            sys.executable,
            __file__,
            "--child",
            which,
            str(games),
        ],
        check=True,
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONHASHSEED": "0"},
    )
    found: dict[str, int] = {}
    for line in result.stderr.splitlines():
        text = line.split("== ", 1)[-1]
        for label, name in COUNTS.items():
            if text.startswith(label + ":"):
                found[name] = int(text.split(":")[1].split()[0].replace(",", ""))
    if len(found) != len(COUNTS):
        raise RuntimeError(f"cachegrind wrote no totals for {which} ({games} games)")
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--warm", type=int, default=20)
    parser.add_argument("--child", nargs=2, metavar=("WHICH", "GAMES"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        workload(args.child[0], int(args.child[1]))
        return
    if shutil.which("valgrind") is None:
        sys.exit("valgrind is not installed (apt-get install valgrind).")
    per_game: dict[str, dict[str, float]] = {}
    for which in ("engine", "lean"):
        warm, total = counts(which, args.warm), counts(which, args.warm + args.games)
        per_game[which] = {name: (total[name] - warm[name]) / args.games for name in total}
        cycles = sum(CYCLES[name] * n for name, n in per_game[which].items())
        per_game[which]["model cycles"] = cycles
        print(
            f"{which}: "
            + ", ".join(f"{n / 1e3:,.1f} k {name}" for name, n in per_game[which].items())
            + " a game"
        )
    engine, lean = per_game["engine"], per_game["lean"]
    print(
        f"engine/lean {lean['instructions'] / engine['instructions']:.3f} by instructions, "
        f"{lean['model cycles'] / engine['model cycles']:.3f} by the model (target ≥ 0.8)"
    )


if __name__ == "__main__":
    main()
