"""Computer players. Each receives only a seat's :class:`~engine.dupe.DupeView`, never the state.

A player is an object with ``act(view) -> action``. Players may remember what they saw
(every trick's distribution is public the moment it happens), so one player object should
serve one seat for a whole game; :func:`make_player` builds one by level name.
"""

from __future__ import annotations

from collections.abc import Callable

from engine import game
from engine.dupe.players.random import RandomPlayer
from engine.dupe.rules import Action, DupeView

__all__ = ["LEVELS", "Player", "make_player"]


Player = game.Player[DupeView, Action]
"""A computer player of this game (see :class:`engine.game.Player`)."""


def _greedy(seed: int) -> Player:
    from engine.dupe.players.greedy import GreedyPlayer

    return GreedyPlayer(seed)


def _expert(seed: int) -> Player:
    from engine.dupe.players.expert import ExpertPlayer

    return ExpertPlayer(seed)


LEVELS: dict[str, Callable[[int], Player]] = {
    # The random player's class itself: it is light to import, and a game loop builds one
    # per seat and game (engine.simulate), where an import statement each time costs more.
    "random": RandomPlayer,
    "greedy": _greedy,
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
