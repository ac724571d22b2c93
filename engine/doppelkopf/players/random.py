"""The ``random`` player: every decision uniformly random among the seat's legal actions."""

from __future__ import annotations

import random

from engine.doppelkopf.rules import Action, DoppelkopfView


class RandomPlayer:
    """Chooses uniformly among ``view.legal``."""

    name = "random"

    def __init__(self, seed: int) -> None:
        self._rng = random.Random(seed)

    def observe(self, view: DoppelkopfView) -> None:
        """Take in a view without acting: a random player remembers nothing."""

    def act(self, view: DoppelkopfView) -> Action:
        """Return a uniformly random legal action."""
        return view.legal[int(self._rng.random() * len(view.legal))]
