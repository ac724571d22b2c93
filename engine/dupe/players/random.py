"""The ``random`` player: every choice uniformly random among the legal actions."""

from __future__ import annotations

import random
from itertools import permutations

from engine.cards import DECK, Card
from engine.dupe.rules import Action, Distribute, DupeView, Play, play

_ORDERS = tuple(permutations(range(4)))
_PLAYS: dict[Card, Play] = {card: play(card) for card in DECK}


class RandomPlayer:
    """Plays a uniformly random card; as taker, a uniformly random distribution."""

    name = "random"

    def __init__(self, seed: int) -> None:
        self._rng = random.Random(seed)
        self._random = self._rng.random

    def observe(self, view: DupeView) -> None:
        """Take in a view without acting: a random player remembers nothing."""

    def act(self, view: DupeView) -> Action:
        """Return a uniformly random legal action.

        Sampling a card from the hand, or shuffling the four revealed cards, draws from
        exactly the set ``view.legal_actions()`` lists, without building all 24
        distributions every time.
        """
        cards = view.revealed
        if cards is not None:  # revealed only while they wait for this seat, the taker
            a, b, c, d = _ORDERS[int(self._random() * 24)]
            return Distribute((cards[a], cards[b], cards[c], cards[d]))
        hand = view.hand
        return _PLAYS[hand[int(self._random() * len(hand))]]
