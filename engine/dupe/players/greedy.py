"""The ``greedy`` player: random cards; as taker, the best card for its dupe."""

from __future__ import annotations

import random

from engine.dupe.players.memory import TableMemory
from engine.dupe.rules import Action, Distribute, DupeView, Phase, Play, score_hand


class GreedyPlayer:
    """Plays a random card. As taker it gives its dupe the card that most raises the score
    of the dupe's won cards so far (ties at random) and the other three at random."""

    name = "greedy"

    def __init__(self, seed: int) -> None:
        self._rng = random.Random(seed)
        self._memory = TableMemory()

    def observe(self, view: DupeView) -> None:
        """Take in what ``view`` shows without acting (to catch up on a game in progress)."""
        self._memory.update(view)

    def act(self, view: DupeView) -> Action:
        """Return this player's action for ``view``."""
        self._memory.update(view)
        rng = self._rng
        if view.phase is not Phase.DISTRIBUTE:
            return Play(rng.choice(view.hand))
        assert view.revealed is not None and view.seat is not None
        dupe = view.dupe
        assert dupe is not None
        pile = self._memory.won[dupe]
        base = score_hand(pile).total
        gains = [score_hand([*pile, card]).total - base for card in view.revealed]
        top = max(gains)
        best = rng.choice([c for c, g in zip(view.revealed, gains, strict=True) if g == top])
        rest = [c for c in view.revealed if c is not best]
        rng.shuffle(rest)
        cards = [best if seat == dupe else rest.pop() for seat in range(4)]
        return Distribute(tuple(cards))
