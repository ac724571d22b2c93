"""The games the bot hosts: an explicit list of each game's ``GameUI`` (see ``bot/game.py``).

Adding a game is its engine package, its bot package here, one line in ``engine.games``
and one line in :func:`_hosted` below.

The list is built at its first use, not when this package is imported: the drawing process
imports a game's ``pictures`` module (and with it this package) to draw, and should not
import every game's Discord side with it (0.6 s of one core at every start).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

from bot import i18n

if TYPE_CHECKING:
    from bot.game import GameUI

__all__ = ["GAMES", "get", "registered"]

GAMES: list[GameUI]  # built by __getattr__ at the first use


def _hosted() -> list[GameUI]:
    from bot.games.doppelkopf.ui import UI as DOPPELKOPF
    from bot.games.dukes_up.ui import UI as DUKES_UP
    from bot.games.dupe.ui import UI as DUPE
    from bot.games.whist.duplicate import UI as WHIST_DUPLICATE
    from bot.games.whist.ui import UI as WHIST

    return [DUPE, DOPPELKOPF, WHIST, DUKES_UP, WHIST_DUPLICATE]


def _games() -> list[GameUI]:
    global GAMES
    if "GAMES" not in globals():
        GAMES = _hosted()
    return GAMES


def __getattr__(name: str) -> list[GameUI]:
    if name == "GAMES":
        return _games()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def get(name: str) -> GameUI:
    """Return the game called ``name``; ``KeyError`` names the games there are."""
    hosted = _games()
    for ui in hosted:
        if ui.name == name:
            return ui
    raise KeyError(f"no game {name!r}: the bot hosts {', '.join(g.name for g in hosted)}")


@contextmanager
def registered(ui: GameUI) -> Iterator[GameUI]:
    """Add ``ui`` (and its catalogue) to the games for a ``with`` block (for tests)."""
    hosted = _games()
    hosted.append(ui)
    i18n.add_catalogue(ui.name, ui.catalogue)
    try:
        yield ui
    finally:
        hosted.remove(ui)
        i18n.add_catalogue(ui.name, None)
