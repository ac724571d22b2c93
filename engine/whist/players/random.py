"""The ``random`` player: a uniformly random legal card; it never claims, and answers a
claim, keeps or exchanges, and names trumps at random."""

from __future__ import annotations

import random

from engine.whist.actions import Action, Kind
from engine.whist.rules import WhistView


class RandomPlayer:
    """Plays uniformly at random among the legal actions (claims left out)."""

    name = "random"

    def __init__(self, seed: int) -> None:
        self._rng = random.Random(seed)

    def observe(self, view: WhistView) -> None:
        """Take in a view without acting: a random player remembers nothing."""

    def act(self, view: WhistView) -> Action:
        """Return a uniformly random legal action, never a claim."""
        legal = view.legal
        if legal[-1].kind == Kind.CLAIM:
            legal = tuple(a for a in legal if a.kind != Kind.CLAIM) or legal
        return legal[int(self._rng.random() * len(legal))]
