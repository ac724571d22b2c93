"""The ``random`` player: uniformly random among the listed legal actions (never asking to
end the round, never resigning)."""

from __future__ import annotations

import random

from engine.dukes_up.actions import Action, Kind
from engine.dukes_up.rules import DukesUpView


class RandomPlayer:
    """Plays uniformly at random among the view's legal actions, ``end-round`` left out."""

    name = "random"

    def __init__(self, seed: int) -> None:
        self._rng = random.Random(seed)

    def observe(self, view: DukesUpView) -> None:
        """Take in a view without acting: a random player remembers nothing."""

    def act(self, view: DukesUpView) -> Action:
        """Return a uniformly random listed legal action, never ``end-round``."""
        legal = tuple(a for a in view.legal if a.kind is not Kind.END_ROUND) or view.legal
        return legal[int(self._rng.random() * len(legal))]
