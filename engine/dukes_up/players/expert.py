"""The ``expert`` player: it treats its dukes as two more hand cards, keeps the cards that are
near a group, ends the round by a capture when that wins it, and guards its castle.

Each call plans the rest of its turn afresh from its seat's view alone (the view shows the
working copy and the actions in effect) and returns the plan's next step, so it keeps
nothing between calls but a memo of pure results:

- **Setup:** the castle and the dukes are the cards hardest to fit (as ``baseline``), the
  card with the most room stays in the hand.
- **Draw** as many cards as it may, from the draw pile.
- **Its cards** are the hand and, except on the first player's first turn, its own dukes
  (a duke can be picked up and another card set in its place). It places a largest set of
  them that fits the table, but always keeps enough to fill the duke slots it may end the
  turn with, so every placed duke is swapped for a hand card that would otherwise score
  nothing. The slots get the kept cards the opponent is least able to fit (guarding the
  castle); the hand keeps the rest.
- **The capture:** when the opponent's castle is face up it places the castle and every
  duke left in front of it, revealing and using its own castle (THE MOVE) if that is what
  makes the layout work, whenever its score then beats the opponent's (capturing ends the
  round). When it leads by :data:`TAKE_LEAD`, it takes the opponent's dukes to open the
  castle for the next turn's capture.
- **Discard:** the hand cards with the fewest ways to join a group with one or two more of
  its own cards (counted with the exact search against the table) go first: D2 on a turn
  without actions, else D1; a hand of good cards discards blind (D3). It never discards
  from the table.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from itertools import combinations

from engine.cards import DECK, Card
from engine.dukes_up.actions import FINISH, RESET, REVEAL, Action, Kind, accept, discard, setup
from engine.dukes_up.actions import pickup as pickup_action
from engine.dukes_up.actions import set_duke as set_action
from engine.dukes_up.layout import Fits, colour, propose_layout, related, value
from engine.dukes_up.players.baseline import room
from engine.dukes_up.rules import DukesUpView, Phase

__all__ = ["ExpertPlayer"]

TAKE_LEAD = 2
"""It takes the opponent's dukes (to capture next turn) when it then leads by this much."""
KEEP = 1.0
"""A hand card worth less than this (see :meth:`ExpertPlayer._worth`) is discarded."""
_MEMO = 4096
"""Memoised plans and worths kept per player (pure results, so a cache is safe)."""


class _Plan:
    """What the rest of a turn should do: ``place`` (source cards to put on the table, the
    opponent's included), ``dukes`` (the cards its duke slots end with), ``reveal`` (THE
    MOVE needs the castle face up) and ``capture`` (the turn ends the round)."""

    __slots__ = ("capture", "dukes", "place", "reveal")

    def __init__(
        self, place: frozenset[Card], dukes: frozenset[Card], reveal: bool, capture: bool
    ) -> None:
        self.place = place
        self.dukes = dukes
        self.reveal = reveal
        self.capture = capture


class ExpertPlayer:
    """Dukes as spare hand cards, placements kept back for full slots, safe dukes, captures
    that win, discards of the cards furthest from a group."""

    name = "expert"

    def __init__(self, seed: int) -> None:
        self._rng = random.Random(seed)
        self._memo: dict[object, object] = {}
        self._fits: dict[frozenset[Card], Fits] = {}

    def observe(self, view: DukesUpView) -> None:
        """Take in a view without acting: the expert plans from each view afresh."""

    def act(self, view: DukesUpView) -> Action:
        """Return the expert's action for the seat whose view this is."""
        legal = view.legal
        me = view.seat
        if view.phase is Phase.CHOOSE and view.setup:
            return self._setup(view.setup)
        if me is None or view.phase is not Phase.TURN or view.mover != me:
            return legal[0]
        if not view.drawn:
            draws = [a for a in legal if a.kind is Kind.DRAW]
            return max(draws, key=lambda a: (a.n, a.word == "draw")) if draws else legal[0]
        return self._step(view, me)

    # --- setup ------------------------------------------------------------------------

    def _setup(self, cards: Sequence[Card]) -> Action:
        order = sorted(cards, key=lambda c: (room(c), c))
        d1, d2 = sorted(order[1:3])
        return setup(order[0], (d1, d2), order[3])

    # --- the turn ---------------------------------------------------------------------

    def _table_fits(self, cards: Iterable[Card]) -> Fits:
        key = frozenset(cards)
        found = self._fits.get(key)
        if found is None:
            if len(self._fits) > 64:
                self._fits.clear()
            found = self._fits[key] = Fits(key)
        return found

    def _step(self, view: DukesUpView, me: int) -> Action:
        legal = view.legal
        other = (me + 1) % 2
        hand = tuple(view.hand or ())
        mine = tuple(view.dukes[me] or ())
        theirs = tuple(view.dukes[other] or ())
        table = view.table
        their_castle = view.castles[other]
        if any(c == their_castle for g in table for c in g) or not isinstance(their_castle, Card):
            their_castle = None
        if FINISH in legal and self._captured(view, other):
            return FINISH
        plan = self._plan(view, me, hand, mine, theirs, their_castle)
        if plan.reveal and not view.castle_up[me] and REVEAL in legal:
            return REVEAL
        swaps = view.turn != 1
        if swaps and not any(a.kind is Kind.SET for a in view.actions):
            for card in sorted(mine):
                if card not in plan.dukes:
                    return pickup_action(card)
        sources = set(hand) | set(theirs) | {c for c in self._castles(view, me, other)}
        to_place = sorted(c for c in plan.place if c in sources)
        if to_place:
            found = propose_layout(table, to_place)
            if found is not None:
                _, replaced, groups = found
                return accept(replaced, tuple(groups))
        if swaps:
            limit = view.d0 if view.d0 else 1
            room_left = min(limit, 2) - len(mine)
            for card in sorted(plan.dukes):
                if card in hand and room_left > 0:
                    action = set_action(card)
                    if action in legal:
                        return action
        if FINISH in legal and (plan.capture or view.exhausted):
            return FINISH
        return self._end(view, me, legal, hand)

    def _castles(self, view: DukesUpView, me: int, other: int) -> list[Card]:
        """Return the face-up castles in their slots (sources for a capture)."""
        out = []
        for seat in (other, me):
            castle = view.castles[seat]
            if isinstance(castle, Card) and view.castle_up[seat]:
                out.append(castle)
        return out

    def _captured(self, view: DukesUpView, other: int) -> bool:
        return view.castles[other] is None and view.castle_up[other]

    def _scores(self, view: DukesUpView, me: int, placed: Iterable[Card]) -> tuple[int, int]:
        """Return (own, opponent's) score with ``placed`` added to the table and the slots
        left as they are (the caller adds its duke slots)."""
        weight = view.slot_weight
        counts = [0, 0]
        for g in view.table:
            for c in g:
                counts[colour(c)] += 1
        for c in placed:
            counts[colour(c)] += 1
        return counts[me], counts[(me + 1) % 2]

    def _plan(
        self,
        view: DukesUpView,
        me: int,
        hand: tuple[Card, ...],
        mine: tuple[Card, ...],
        theirs: tuple[Card, ...],
        their_castle: Card | None,
    ) -> _Plan:
        swaps = view.turn != 1
        own_castle = view.castles[me] if isinstance(view.castles[me], Card) else None
        key = (
            "plan",
            me,
            view.table,
            frozenset(hand) | frozenset(mine) if swaps else (frozenset(hand), frozenset(mine)),
            frozenset(theirs),
            their_castle,
            own_castle,
            view.castle_up,
            view.d0,
            swaps,
            view.turn >= view.max_turns - 1,
            view.slot_weight,
        )
        found = self._memo.get(key)
        if isinstance(found, _Plan):
            return found
        plan = self._make_plan(view, me, hand, mine, theirs, their_castle, own_castle)
        if len(self._memo) > _MEMO:
            self._memo.clear()
        self._memo[key] = plan
        return plan

    def _make_plan(
        self,
        view: DukesUpView,
        me: int,
        hand: tuple[Card, ...],
        mine: tuple[Card, ...],
        theirs: tuple[Card, ...],
        their_castle: Card | None,
        own_castle: Card | None,
    ) -> _Plan:
        swaps = view.turn != 1
        weight = view.slot_weight
        other = (me + 1) % 2
        table_cards = [c for g in view.table for c in g]
        fits = self._table_fits(table_cards)
        pool = sorted(set(hand) | set(mine)) if swaps else sorted(hand)
        slots = (min(view.d0 if view.d0 else 1, 2)) if swaps else len(mine)
        castle_slot = weight * (own_castle is not None)
        # a capture that wins ends the round now
        if their_castle is not None:
            capture = self._capture(
                view, me, fits, pool, mine, theirs, their_castle, own_castle, slots, swaps
            )
            if capture is not None:
                return capture
        cap = max(0, len(pool) - slots)
        place = self._largest(fits, pool, cap)
        kept = [c for c in pool if c not in place]
        after = self._table_fits([*table_cards, *place])
        dukes = self._choose_dukes(after, kept, slots, other) if swaps else frozenset(mine)
        own, opp = self._scores(view, me, place)
        own += castle_slot + weight * len(dukes)
        opp += weight * len(theirs) + weight * self._their_slot_castle(view, other)
        if theirs and own - opp >= TAKE_LEAD + (weight - 1) * len(theirs):
            for size in range(len(theirs), 0, -1):
                for taken in combinations(sorted(theirs), size):
                    if fits.fits([*place, *taken]):
                        return _Plan(frozenset([*place, *taken]), dukes, False, False)
        return _Plan(frozenset(place), dukes, False, False)

    def _their_slot_castle(self, view: DukesUpView, other: int) -> int:
        castle = view.castles[other]
        return int(castle is not None)

    def _capture(
        self,
        view: DukesUpView,
        me: int,
        fits: Fits,
        pool: list[Card],
        mine: tuple[Card, ...],
        theirs: tuple[Card, ...],
        their_castle: Card,
        own_castle: Card | None,
        slots: int,
        swaps: bool,
    ) -> _Plan | None:
        """Return the winning capture's plan, or ``None`` if none wins now."""
        weight = view.slot_weight
        other = (me + 1) % 2
        required = [*theirs, their_castle]
        extras: list[list[Card]] = [[]]
        if own_castle is not None:
            extras.append([own_castle])
        for extra in extras:
            place = self._largest(fits, pool, len(pool), required=[*required, *extra])
            if place is None:
                continue
            kept = [c for c in pool if c not in place]
            dukes = [c for c in mine if c in kept] if swaps else list(mine)
            if swaps:
                spare = sorted(c for c in kept if c not in dukes)
                dukes += spare[: max(0, slots - len(dukes))]
            own, opp = self._scores(view, me, [*place, *required, *extra])
            own += weight * len(dukes) + weight * (own_castle is not None and not extra)
            if own > opp:
                return _Plan(
                    frozenset([*place, *required, *extra]),
                    frozenset(dukes),
                    bool(extra) and not view.castle_up[me],
                    True,
                )
        del other
        return None

    def _largest(
        self, fits: Fits, pool: Sequence[Card], cap: int, required: Sequence[Card] = ()
    ) -> list[Card]:
        """Return a largest set of at most ``cap`` pool cards that fits with the table (and
        ``required``); among equals, the one leaving the best cards behind. With
        ``required`` that cannot be laid out at all, ``None``."""
        pool = list(pool)
        for size in range(min(cap, len(pool)), -1, -1):
            best: tuple[float, ...] | None = None
            chosen: list[Card] | None = None
            for combo in combinations(pool, size):
                if fits.fits([*required, *combo]):
                    left = tuple(sorted((room(c) for c in pool if c not in combo), reverse=True))
                    score = (*left,)
                    if best is None or score < best:
                        best, chosen = score, list(combo)
            if chosen is not None:
                return chosen
        return None  # type: ignore[return-value]

    def _choose_dukes(
        self, after: Fits, kept: Sequence[Card], slots: int, other: int
    ) -> frozenset[Card]:
        """Return the ``slots`` kept cards the opponent is least able to fit."""
        if slots <= 0 or not kept:
            return frozenset()
        danger = {c: self._danger(after, c, other) for c in kept}
        order = sorted(kept, key=lambda c: (danger[c], room(c), c))
        return frozenset(order[:slots])

    def _danger(self, after: Fits, card: Card, other: int) -> int:
        """Return how easily the opponent could place ``card``: 100 if it fits the table
        alone, else how many of the opponent's cards would each make it fit."""
        if after.fits([card]):
            return 100
        count = 0
        for y in DECK:
            if colour(y) == other and related(card, y) and y != card and after.fits([card, y]):
                count += 1
        return count

    def _end(
        self, view: DukesUpView, me: int, legal: tuple[Action, ...], hand: Sequence[Card]
    ) -> Action:
        if view.exhausted:
            return FINISH if FINISH in legal else (RESET if RESET in legal else legal[0])
        table_cards = [c for g in view.table for c in g]
        fits = self._table_fits(table_cards)
        unseen = self._unseen(view, me)
        worth = {c: self._worth(fits, c, hand, unseen) for c in hand}
        order = sorted(hand, key=lambda c: (worth[c], room(c), c))
        junk = [c for c in order if worth[c] < KEEP]
        wanted: list[Action] = []
        if len(order) >= 2 and (len(junk) >= 2 or len(hand) >= 4):
            a, b = sorted(order[:2])
            wanted.append(discard("d2", (a, b)))
        if order and (junk or len(hand) >= 3):
            wanted.append(discard("d1", (order[0],)))
        wanted.append(discard("d3"))
        if order:
            wanted.append(discard("d1", (order[0],)))
        for action in wanted:
            if action in legal:
                return action
        ends = [a for a in legal if a.kind is Kind.DISCARD and a.word != "d4"]
        ends = ends or [a for a in legal if a.kind in (Kind.DISCARD, Kind.FINISH)]
        if ends:
            return ends[0]
        return RESET if RESET in legal else legal[0]

    def _unseen(self, view: DukesUpView, me: int) -> frozenset[Card]:
        """Return its own cards it may still draw: all of its colour not in sight."""
        seen = set(view.hand or ())
        seen.update(view.dukes[me] or ())
        seen.update(c for g in view.table for c in g)
        castle = view.castles[me]
        if isinstance(castle, Card):
            seen.add(castle)
        return frozenset(c for c in DECK if colour(c) == me and c not in seen)

    def _worth(
        self, fits: Fits, card: Card, hand: Sequence[Card], unseen: frozenset[Card]
    ) -> float:
        """Return how near ``card`` is to a group: each card of its own that would make it
        fit counts 1 (2 if held), each pair 0.25 (more if held)."""
        near = [
            y for y in sorted(set(unseen) | set(hand)) if y != card and related(card, y)
        ]
        held = set(hand)
        total = 0.0
        for y in near:
            if fits.fits([card, y]):
                total += 2.0 if y in held else 1.0
        for y, z in combinations(near, 2):
            if fits.fits([card, y, z]):
                total += 0.25 * (1 + (y in held) + (z in held))
        return total
