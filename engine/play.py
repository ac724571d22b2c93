"""Play a game at a text table: ``python -m engine.play <game> [flags]``.

A generic shell over the registry (``engine.games``): it names the games there are and
hands the rest of the command line to the chosen game's text table (``Game.terminal()``).
Every table takes the same shared flags where they apply — ``--seed S``, ``--seat SEAT``,
``--level L``, ``--variant V`` (games with variants or presets), ``--seats N`` (games with a
choice of table size), ``--option NAME=VALUE`` — plus a few of its own; ``<game> --help``
lists them. A bad flag is one sentence on stderr naming the game and what it accepts (exit
code 2).
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import TextIO

from engine import games
from engine.terminal import or_list

__all__ = ["main"]

USAGE = "usage: python -m engine.play GAME [--help | flags]"
SHARED = (
    "shared flags: --seed S, --seat SEAT, --level LEVEL, --variant V (whist, doppelkopf), "
    "--seats N (whist Mort, doppelkopf house), --option NAME=VALUE; GAME --help lists a "
    "game's own."
)


def main(
    argv: Sequence[str] | None = None,
    stdin: TextIO | None = None,
    stdout: TextIO | None = None,
) -> int:
    """Run the named game's text table; return its exit code (2 for an unknown game)."""
    args = list(sys.argv[1:] if argv is None else argv)
    out = sys.stdout if stdout is None else stdout
    listed = ", ".join(f"{game.name} ({game.title})" for game in games.GAMES)
    if not args or args[0] in ("-h", "--help"):
        print(f"{USAGE}\ngames: {listed}\n{SHARED}", file=out if args else sys.stderr)
        return 0 if args else 2
    try:
        game = games.get(args[0])
    except KeyError:
        print(
            f"error: there is no game “{args[0]}”: choose {or_list(games.names())}.",
            file=sys.stderr,
        )
        return 2
    return game.terminal().main(args[1:], stdin, stdout)


if __name__ == "__main__":
    raise SystemExit(main())
