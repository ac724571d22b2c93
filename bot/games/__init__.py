"""The games the bot hosts: an explicit list of each game's ``GameUI`` (see ``bot/game.py``).

Adding a game is its engine package, its bot package here, one line in ``engine.games``
and one line below.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from bot import i18n
from bot.game import GameUI
from bot.games.doppelkopf.ui import UI as DOPPELKOPF
from bot.games.dupe.ui import UI as DUPE

__all__ = ["GAMES", "get", "registered"]

GAMES: list[GameUI] = [DUPE, DOPPELKOPF]


def get(name: str) -> GameUI:
    """Return the game called ``name``; ``KeyError`` names the games there are."""
    for ui in GAMES:
        if ui.name == name:
            return ui
    raise KeyError(f"no game {name!r}: the bot hosts {', '.join(g.name for g in GAMES)}")


@contextmanager
def registered(ui: GameUI) -> Iterator[GameUI]:
    """Add ``ui`` (and its catalogue) to the games for a ``with`` block (for tests)."""
    GAMES.append(ui)
    i18n.add_catalogue(ui.name, ui.catalogue)
    try:
        yield ui
    finally:
        GAMES.remove(ui)
        i18n.add_catalogue(ui.name, None)
