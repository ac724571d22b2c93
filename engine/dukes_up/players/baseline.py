"""The ``baseline`` player: the rules file's non-binding computer opponent.

- **Setup:** the castle and the dukes are the cards hardest to fit (A and K fit the fewest
  runs: a card's room is how many ranks lie beyond it on its nearer side), the easiest card
  stays in the hand.
- **Draw** as many cards as possible (the draw pile on a tie).
- **Place** a largest set of hand cards the exact search can fit (easiest cards first on
  ties), with one ``accept`` of
  the A4 search's layout. Then, only when its score would then be at least the opponent's,
  the opponent's dukes, and the opponent's castle once no duke guards it (a capture, which
  ends the round with ``finish``).
- With no duke left at the turn's start (its castle face-up), it sets its hardest remaining
  hand card as a duke again.
- **Discard:** D2 of its two hardest cards on a turn without actions, else D1 of its hardest
  card, else D3. It never picks up dukes, uses its own castle or discards from the table.

It decides from its seat's view alone and keeps nothing between calls: each call reads
which of its steps the view's ``actions`` show done.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from itertools import combinations

from engine.cards import Card
from engine.dukes_up.actions import FINISH, RESET, Action, Kind, accept, discard, setup
from engine.dukes_up.actions import set_duke as set_action
from engine.dukes_up.layout import can_layout, propose_layout, value
from engine.dukes_up.rules import DukesUpView, Phase


def room(card: Card) -> int:
    """Return how many ranks lie beyond the card on its nearer side (A and K: 0)."""
    v = value(card)
    return min(v - 1, 13 - v)


def _hardest_first(cards: Sequence[Card]) -> list[Card]:
    return sorted(cards, key=lambda c: (room(c), c))


def _largest_fit(on_table: list[Card], hand: list[Card]) -> list[Card]:
    """Return a largest set of hand cards that can be laid out with the table (at most
    2^6 exact searches; among equally large sets, the first in ``hand``'s order)."""
    for size in range(len(hand), 0, -1):
        for chosen in combinations(hand, size):
            if can_layout([*on_table, *chosen]):
                return list(chosen)
    return []


class BaselinePlayer:
    """Hard-to-fit dukes and castle; draw all it may; place all that fits; take dukes and
    capture only when it would then score at least as much as the opponent."""

    name = "baseline"

    def __init__(self, seed: int) -> None:
        self._rng = random.Random(seed)

    def observe(self, view: DukesUpView) -> None:
        """Take in a view without acting: the baseline decides from each view afresh."""

    def act(self, view: DukesUpView) -> Action:
        """Return the baseline's action for the seat whose view this is."""
        legal = view.legal
        me = view.seat
        if view.phase is Phase.CHOOSE and view.setup:
            order = _hardest_first(view.setup)
            d1, d2 = sorted(order[1:3])
            return setup(order[0], (d1, d2), order[3])
        if me is None or view.phase is not Phase.TURN or view.mover != me or not view.drawn:
            return self._draw(view, legal)
        done = {a.kind for a in view.actions}
        if Kind.ACCEPT not in done and view.arrangement_help == "propose":
            placing = self._placement(view, me)
            if placing is not None:
                return placing
        hand = view.hand or ()
        if (
            view.d0 == 0
            and view.turn != 1
            and Kind.SET not in done
            and not (view.dukes[me] or ())
            and hand
        ):
            return set_action(_hardest_first(hand)[0])
        return self._end(view, legal, hand)

    def _draw(self, view: DukesUpView, legal: tuple[Action, ...]) -> Action:
        draws = [a for a in legal if a.kind is Kind.DRAW]
        if not draws:
            return legal[0]
        return max(draws, key=lambda a: (a.n, a.word == "draw"))

    def _placement(self, view: DukesUpView, me: int) -> Action | None:
        """Return the ``accept`` placing all it may, or ``None`` if nothing fits."""
        other = 1 - me if me in (0, 1) else 0
        table = view.table
        on_table = [c for g in table for c in g]
        placed = _largest_fit(on_table, sorted(view.hand or (), key=lambda c: (-room(c), c)))
        mine = view.scores[me] + len(placed)
        theirs = view.scores[other]
        weight = view.slot_weight
        if mine >= theirs:
            their_dukes = list(view.dukes[other] or ())
            taken = [d for d in their_dukes if can_layout([*on_table, *placed, d])]
            if taken and can_layout([*on_table, *placed, *taken]):
                placed += taken
                theirs -= (weight - 1) * len(taken)
            castle = view.castles[other]
            if (
                isinstance(castle, Card)
                and len(taken) == len(their_dukes)
                and mine >= theirs - (weight - 1)
                and can_layout([*on_table, *placed, castle])
            ):
                placed.append(castle)
        if not placed:
            return None
        found = propose_layout(table, placed)
        if found is None:
            return None
        _, replaced, groups = found
        return accept(replaced, tuple(groups))

    def _end(self, view: DukesUpView, legal: tuple[Action, ...], hand: Sequence[Card]) -> Action:
        if FINISH in legal:
            return FINISH
        if view.exhausted:
            return RESET if RESET in legal else legal[0]
        hardest = _hardest_first(hand)
        wanted: list[Action] = []
        if len(hardest) >= 2:
            a, b = sorted(hardest[:2])
            wanted.append(discard("d2", (a, b)))
        if hardest:
            wanted.append(discard("d1", (hardest[0],)))
        wanted.append(discard("d3"))
        for action in wanted:
            if action in legal:
                return action
        ends = [a for a in legal if a.kind in (Kind.DISCARD, Kind.FINISH)]
        if ends:
            return ends[0]
        return RESET if RESET in legal else legal[0]


__all__ = ["BaselinePlayer", "room"]
