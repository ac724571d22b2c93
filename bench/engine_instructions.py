"""Dupe's engine against the lean loop in instructions, which a busy machine cannot move.

    nice -n 19 .venv/bin/python bench/engine_instructions.py [--games 100] [--warm 20]

Runs the workload of ``bench/engine_speed.py`` (random full games through ``engine.simulate``,
and the same games through ``bench/lean_dupe.py``) under valgrind's callgrind, each in a
process of its own with ``PYTHONHASHSEED=0``, once for ``--warm`` games and once for
``--warm`` + ``--games``: the difference over ``--games`` is the instructions a game, without
the start-up and the first games' one-time work. Prints both and the engine's share of the
lean loop's speed (lean / engine; the target is ≥ 0.8, as in games per second). Needs
valgrind; takes a few minutes. Figures, not assertions.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
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


def instructions(which: str, games: int) -> int:
    """Return the instructions a process playing ``games`` games of ``which`` executes."""
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "callgrind.out"
        subprocess.run(
            [
                "valgrind",
                "--tool=callgrind",
                f"--callgrind-out-file={out}",
                sys.executable,
                __file__,
                "--child",
                which,
                str(games),
            ],
            check=True,
            capture_output=True,
            env={**os.environ, "PYTHONHASHSEED": "0"},
        )
        for line in out.read_text().splitlines():
            if line.startswith(("summary:", "totals:")):
                return int(line.split()[1])
    raise RuntimeError(f"callgrind wrote no total for {which} ({games} games)")


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
    per_game = {}
    for which in ("engine", "lean"):
        total = instructions(which, args.warm + args.games) - instructions(which, args.warm)
        per_game[which] = total / args.games
        print(f"{which}: {per_game[which] / 1e6:.3f} M instructions a game")
    print(f"engine/lean {per_game['lean'] / per_game['engine']:.3f} (target ≥ 0.8)")


if __name__ == "__main__":
    main()
