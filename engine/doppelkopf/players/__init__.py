"""Doppelkopf's computer players. Each sees only a seat's view (``DoppelkopfState.view``).

- ``random``: a uniformly random legal action (announcements, claims and concessions
  included).
- ``basic``: rules of thumb (see :mod:`engine.doppelkopf.players.basic`).
- ``expert``: card play, announcements and solos by sampling the unseen hands and playing
  each choice out (see :mod:`engine.doppelkopf.players.expert`).
"""

from __future__ import annotations

from collections.abc import Callable

from engine import game
from engine.doppelkopf.rules import Action, DoppelkopfView

__all__ = ["LEVELS", "Player"]

Player = game.Player[DoppelkopfView, Action]
"""A computer player of this game (see :class:`engine.game.Player`)."""


def _random(seed: int) -> Player:
    from engine.doppelkopf.players.random import RandomPlayer

    return RandomPlayer(seed)


def _basic(seed: int) -> Player:
    from engine.doppelkopf.players.basic import BasicPlayer

    return BasicPlayer(seed)


def _expert(seed: int) -> Player:
    from engine.doppelkopf.players.expert import ExpertPlayer

    return ExpertPlayer(seed)


LEVELS: dict[str, Callable[[int], Player]] = {
    "random": _random,
    "basic": _basic,
    "expert": _expert,
}
"""The computer players by level, weakest first."""
