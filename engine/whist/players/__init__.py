"""Computer players. Each receives only a hand's :class:`~engine.whist.WhistView` (the view
of the player deciding for it: a dummy's partner sees both his hands), never the state."""

from __future__ import annotations

import logging
from collections.abc import Callable

from engine import game
from engine.whist.actions import Action
from engine.whist.rules import WhistView

__all__ = ["LEVELS", "WATCHING", "Player", "make_player"]


Player = game.Player[WhistView, Action]
"""A computer player of this game (see :class:`engine.game.Player`)."""


def _random(seed: int) -> Player:
    from engine.whist.players.random import RandomPlayer

    return RandomPlayer(seed)


def _basic(seed: int) -> Player:
    from engine.whist.players.basic import BasicPlayer

    return BasicPlayer(seed)


_warned = False  # without endplay the expert says so once per process, not per player


def _expert(seed: int) -> Player:
    """Return an ``expert``; without endplay (its double-dummy solver) a ``basic`` player."""
    from engine.whist.players.dds import load_solver

    try:
        load_solver()
    except (ImportError, OSError) as error:
        global _warned
        if not _warned:
            _warned = True
            logging.getLogger(__name__).warning(
                "The whist expert needs endplay (pip install endplay): %s; "
                "playing the basic player instead.",
                error,
            )
        return _basic(seed)
    from engine.whist.players.expert import ExpertPlayer

    return ExpertPlayer(seed)


WATCHING = frozenset({"expert"})
"""The levels shown every move (``Game.watching_levels``): the expert's sampler deals only
cards it has not seen played, and its views at its own turns show only the trick in
progress and the last trick."""

LEVELS: dict[str, Callable[[int], Player]] = {
    "random": _random,
    "basic": _basic,
    "expert": _expert,
}
"""Player levels by name, weakest first."""


def make_player(level: str, seed: int) -> Player:
    """Return a new player of the named level whose choices are drawn from ``seed``."""
    try:
        factory = LEVELS[level]
    except KeyError:
        names = ", ".join(LEVELS)
        raise ValueError(f"There is no computer player “{level}”: choose one of {names}.") from None
    return factory(seed)
