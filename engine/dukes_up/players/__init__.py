"""Computer players. Each receives only its seat's :class:`~engine.dukes_up.DukesUpView`,
never the state."""

from __future__ import annotations

from collections.abc import Callable

from engine import game
from engine.dukes_up.actions import Action
from engine.dukes_up.rules import DukesUpView

__all__ = ["LEVELS", "Player", "make_player"]


Player = game.Player[DukesUpView, Action]
"""A computer player of this game (see :class:`engine.game.Player`)."""


def _random(seed: int) -> Player:
    from engine.dukes_up.players.random import RandomPlayer

    return RandomPlayer(seed)


def _baseline(seed: int) -> Player:
    from engine.dukes_up.players.baseline import BaselinePlayer

    return BaselinePlayer(seed)


def _expert(seed: int) -> Player:
    from engine.dukes_up.players.expert import ExpertPlayer

    return ExpertPlayer(seed)


LEVELS: dict[str, Callable[[int], Player]] = {
    "random": _random,
    "baseline": _baseline,
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
