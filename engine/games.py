"""The registry: every game the engine has, as an explicit list (no discovery)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from engine import doppelkopf, dukes_up, dupe, whist
from engine.game import AnyGame
from engine.whist.duplicate_table import DUPLICATE_GAME

__all__ = ["GAMES", "get", "names", "registered"]

GAMES: list[AnyGame] = [dupe.GAME, doppelkopf.GAME, whist.GAME, dukes_up.GAME, DUPLICATE_GAME]


def get(name: str) -> AnyGame:
    """Return the game called ``name``; ``KeyError`` names the games there are."""
    for game in GAMES:
        if game.name == name:
            return game
    raise KeyError(f"There is no game “{name}”: choose one of {', '.join(names())}.")


def names() -> list[str]:
    """Return the registered games' names."""
    return [game.name for game in GAMES]


@contextmanager
def registered(game: AnyGame) -> Iterator[AnyGame]:
    """Add ``game`` to the registry for the duration of a ``with`` block (tests only)."""
    GAMES.append(game)
    try:
        yield game
    finally:
        GAMES.remove(game)
