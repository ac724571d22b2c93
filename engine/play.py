"""Play a game at a text table: ``python -m engine.play <game> [the game's own flags]``.

A generic shell over the registry (``engine.games``): it names the games there are and
hands the rest of the command line to the chosen game's text table (``Game.terminal()``),
e.g. ``python -m engine.play dupe --seat E --level greedy``; ``<game> --help`` lists that
game's flags.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import TextIO

from engine import games

__all__ = ["main"]

USAGE = "usage: python -m engine.play GAME [--help | the game's own flags]"


def main(
    argv: Sequence[str] | None = None,
    stdin: TextIO | None = None,
    stdout: TextIO | None = None,
) -> int:
    """Run the named game's text table; return its exit code (2 for an unknown game)."""
    args = list(sys.argv[1:] if argv is None else argv)
    out = sys.stdout if stdout is None else stdout
    names = ", ".join(games.names())
    if not args or args[0] in ("-h", "--help"):
        print(f"{USAGE}\ngames: {names}", file=out)
        return 0 if args else 2
    try:
        game = games.get(args[0])
    except KeyError:
        print(f"error: there is no game “{args[0]}”: choose one of {names}.", file=sys.stderr)
        return 2
    return game.terminal().main(args[1:], stdin, stdout)


if __name__ == "__main__":
    raise SystemExit(main())
