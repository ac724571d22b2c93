"""The ``expert`` player: it uses its dukes as two more hand cards, keeps the cards that are
near a group, ends the round by a capture whenever that wins it, and guards its castle.

Each call plans the rest of the turn afresh from its seat's view alone (the view shows the
working copy and the actions in effect) and returns the plan's next step; the plan is a
pure function of the view, so a player that joins mid-turn (a stand-in, a restart) carries
on the same way. Only pure results are memoised.

- **Setup:** the castle and the dukes are the cards hardest to fit (as ``baseline``), the
  card with the most room stays in the hand.
- **Draw** as many cards as it may from the draw pile (from the discard pile only when the
  draw pile has none to give).
- **Placing** is one ``accept`` of the A4 search's layout; at a ``check-only`` table, a new
  group of the cards followed by a regrouping of the whole table.
- **Its cards** are the hand and, except on the first player's first turn, its dukes (it
  picks a duke up and sets another card in its place). It places a largest set of them that
  fits the table, but keeps back enough to fill every duke slot it may end the turn with:
  so each placed duke is swapped for a hand card that would otherwise score nothing. The
  slots get the kept cards the opponent is least able to fit (its castle's guard); the hand
  keeps the rest. A card placed when no card is left to fill its slot would score the same
  and only weaken the guard.
- **The capture:** when the opponent's castle is face up in its slot it places the castle
  and every duke still guarding it, with its own castle too (THE MOVE, revealed first) when
  only that makes the layout work, whenever its score then beats the opponent's: capturing
  ends the round. When it would lead by :data:`TAKE_LEAD` it takes the opponent's dukes, so
  the castle turns up for a capture next turn.
- **Discard:** the hand cards with the fewest ways to join a group with one or two more of
  its own cards (the exact search, against the table) go first: D2 on a turn without
  actions, else D1; a hand of good cards short of 4 discards blind (D3), keeping the hand.
  It never discards from the table.

Measured by ``bench/dukes_up_strength.py --matches 1000`` (pairs of matches on one seed,
seats swapped): it wins 0.999 of its matches against ``baseline``, 95 % CI [0.994, 1.000],
82 % of them by a capture; decisions p50 0.2 ms, p99 5–13 ms on a busy 2-core host. The
fresh draw alone was worth much: drawing its own two discards back (as ``baseline`` does)
it won 0.953 [0.937, 0.964], losing in that loop at the turn limit.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import combinations
from typing import NamedTuple

from engine.cards import DECK, Card
from engine.dukes_up.actions import (
    FINISH,
    RESET,
    RETURN,
    REVEAL,
    Action,
    Kind,
    accept,
    discard,
    regroup,
    setup,
)
from engine.dukes_up.actions import new as new_action
from engine.dukes_up.actions import pickup as pickup_action
from engine.dukes_up.actions import set_duke as set_action
from engine.dukes_up.layout import (
    Fits,
    colour,
    find_layout,
    is_valid_layout,
    propose_layout,
    related,
)
from engine.dukes_up.players.baseline import room
from engine.dukes_up.rules import DukesUpView, Phase
from engine.game import Advice

__all__ = ["TAKE_LEAD", "ExpertPlayer"]

TAKE_LEAD = 2
"""It takes the opponent's dukes (to capture next turn) when it would then lead by this."""
KEEP = 1.0
"""A hand card worth less than this (see :meth:`ExpertPlayer._worth`) is discarded first."""
_PLANS = 1024
"""Memoised plans kept per player before that memo starts afresh."""
_TABLES = 32
"""Tables whose search (:class:`Fits`, with its own memo) a player keeps: a turn asks about
two or three, and a match has a few hundred."""


class _Plan(NamedTuple):
    """What the rest of a turn should do: ``place`` (source cards to put on the table, the
    opponent's included), ``dukes`` (the cards its duke slots end with), ``reveal`` (THE
    MOVE needs the castle face up first) and ``capture`` (the turn ends the round)."""

    place: frozenset[Card]
    dukes: frozenset[Card]
    reveal: bool = False
    capture: bool = False


class _Seen(NamedTuple):
    """What a plan depends on, read from the mover's view (and the memo's key)."""

    me: int
    table: tuple[tuple[Card, ...], ...]
    pool: frozenset[Card]
    """Its cards to play with: the hand, and its dukes when it may swap them."""
    swaps: bool
    """Whether it may pick up and set dukes (not on the first player's first turn)."""
    fixed: frozenset[Card]
    """Its dukes when it may not swap them."""
    slots: int
    """The dukes it may end the turn with."""
    start: frozenset[Card]
    """Its dukes as the turn began (the slots now, less sets, plus pick-ups)."""
    theirs: frozenset[Card]
    their_castle: Card | None
    """The opponent's castle, face up in its slot."""
    their_slot: bool
    """Whether the opponent's castle is in its slot (face up or down: it scores there)."""
    own_castle: Card | None
    """Its own castle in its slot (face up or down)."""
    own_up: bool
    weight: int


class ExpertPlayer:
    """Dukes as spare hand cards, placements kept back for full slots, safe dukes, captures
    that win, discards of the cards furthest from a group."""

    name = "expert"

    def __init__(self, seed: int) -> None:
        # Nothing is left to chance: the seed is taken for the Player protocol's sake.
        self.seed = seed
        self._plans: dict[_Seen, _Plan] = {}
        self._fits: dict[frozenset[Card], Fits] = {}

    def observe(self, view: DukesUpView) -> None:
        """Take in a view without acting: the expert plans from each view afresh."""

    def act(self, view: DukesUpView) -> Action:
        """Return the expert's action for the seat whose view this is."""
        return self._choose(view)

    def advise(self, view: DukesUpView, compare: Action | None = None) -> Advice[Action]:
        """Return the action :meth:`act` chooses for ``view`` (the same path), valued in
        points: the score margin (its own less the opponent's) its plan reaches at the end
        of the turn; ``compare``, when another action, by the margin of the table as it
        stands with that action's cards placed and the slots as they are."""
        choice = self._choose(view)
        me = view.seat
        values: dict[Action, float] = {choice: 0.0}
        reason = _REASONS.get(choice.kind, "")
        detail: dict[str, int | str] = {}
        if len(view.legal) == 1:
            reason = "only"
        elif (
            me is not None
            and view.phase is Phase.TURN
            and view.mover == me
            and view.drawn
            and is_valid_layout(view.table)
        ):
            seen = _seen(view, me)
            plan = self._plan(seen)
            table = [c for g in view.table for c in g]
            own, opp = _final(seen, table, plan.place, plan.dukes)
            values[choice] = float(own - opp)
            if plan.capture and choice.kind is not Kind.DISCARD:
                reason = "capture"
            elif reason == "place":
                detail = {"cards": len(plan.place), "slots": seen.slots}
            if compare is not None and compare != choice:
                placed = _placed_by(compare, table)
                own, opp = _final(seen, table, placed, frozenset(view.dukes[me] or ()))
                values[compare] = float(own - opp)
        if compare is not None and compare not in values:
            values[compare] = values[choice]
        return Advice(choice, values, "points", reason, detail)

    def _choose(self, view: DukesUpView) -> Action:
        legal = view.legal
        me = view.seat
        if view.phase is Phase.CHOOSE and view.setup:
            order = sorted(view.setup, key=lambda c: (room(c), c))
            d1, d2 = sorted(order[1:3])
            return setup(order[0], (d1, d2), order[3])
        if me is None or view.phase is not Phase.TURN or view.mover != me:
            return legal[0]
        if not view.drawn:
            draws = [a for a in legal if a.kind is Kind.DRAW]
            # The top of the discard pile is what it threw away itself, so it draws fresh
            # cards, even one alone: taking two from its discards can repeat for ever.
            return max(draws, key=lambda a: (a.n > 0, a.word == "draw", a.n)) if draws else legal[0]
        return self._step(view, me)

    # --- the turn's steps -------------------------------------------------------------

    def _step(self, view: DukesUpView, me: int) -> Action:
        """Return the next step of the turn's plan: reveal, pick up, place, set, end."""
        legal = view.legal
        other = (me + 1) % 2
        if FINISH in legal and view.castles[other] is None and view.castle_up[other]:
            return FINISH  # the opponent's castle is on the table: the capture is made
        if not is_valid_layout(view.table):
            # cards placed as one new group at a check-only table: now the layout for them
            everything = [c for g in view.table for c in g]
            layout = find_layout(everything)
            if layout is not None:
                return regroup(tuple(range(1, len(view.table) + 1)), tuple(layout))
            return RESET if RESET in legal else legal[0]
        if view.castles[me] is None and FINISH not in legal:
            # its castle on the table in a turn that cannot end the round (E3)
            return RETURN if RETURN in legal else (RESET if RESET in legal else legal[0])
        seen = _seen(view, me)
        plan = self._plan(seen)
        if plan.reveal and REVEAL in legal:
            return REVEAL
        hand = view.hand or ()
        mine = view.dukes[me] or ()
        swaps = view.turn != 1
        # once a duke is set the slots are final, so a changed plan cannot swap back and forth
        if swaps and not any(a.kind is Kind.SET for a in view.actions):
            for card in sorted(mine):
                if card not in plan.dukes:
                    return pickup_action(card)
        sources = {*hand, *seen.theirs}
        if seen.their_castle is not None:
            sources.add(seen.their_castle)
        if seen.own_castle is not None and seen.own_up:
            sources.add(seen.own_castle)
        to_place = sorted(c for c in plan.place if c in sources)
        if to_place:
            found = propose_layout(view.table, to_place)
            if found is not None:
                _, replaced, groups = found
                if view.arrangement_help == "propose":
                    return accept(replaced, tuple(groups))
                return new_action(tuple(to_place))
        if swaps and len(mine) < seen.slots:
            for card in sorted(plan.dukes):
                if card in hand and set_action(card) in legal:
                    return set_action(card)
        if view.exhausted or (plan.capture and FINISH in legal):
            return FINISH if FINISH in legal else (RESET if RESET in legal else legal[0])
        return self._end(view, me, legal, hand)

    def _end(
        self, view: DukesUpView, me: int, legal: tuple[Action, ...], hand: Sequence[Card]
    ) -> Action:
        """Return the discard: the hand's least useful cards, or a blind one."""
        fits = self._table_fits(c for g in view.table for c in g)
        unseen = _unseen(view, me)
        worth = {c: self._worth(fits, c, hand, unseen) for c in hand}
        order = sorted(hand, key=lambda c: (worth[c], room(c), c))
        junk = [c for c in order if worth[c] < KEEP]
        wanted: list[Action] = []
        if len(order) >= 2 and (len(junk) >= 2 or len(hand) >= 4):
            wanted.append(discard("d2", tuple(sorted(order[:2]))))
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

    # --- planning ---------------------------------------------------------------------

    def _table_fits(self, cards: Iterable[Card]) -> Fits:
        key = frozenset(cards)
        found = self._fits.get(key)
        if found is None:
            if len(self._fits) >= _TABLES:
                self._fits.clear()
            found = self._fits[key] = Fits(key)
        return found

    def _plan(self, seen: _Seen) -> _Plan:
        found = self._plans.get(seen)
        if found is None:
            if len(self._plans) >= _PLANS:
                self._plans.clear()
            found = self._plans[seen] = self._make_plan(seen)
        return found

    def _make_plan(self, seen: _Seen) -> _Plan:
        table = [c for g in seen.table for c in g]
        fits = self._table_fits(table)
        pool = sorted(seen.pool)
        if seen.their_castle is not None:
            capture = self._capture(seen, fits, pool)
            if capture is not None:
                return capture
        place = _largest(fits, pool, max(0, len(pool) - seen.slots))
        assert place is not None  # the table alone is a valid layout
        kept = [c for c in pool if c not in place]
        dukes = (
            self._guards(self._table_fits([*table, *place]), kept, seen)
            if seen.swaps
            else seen.fixed
        )
        own, opp = _final(seen, table, place, dukes)
        if seen.theirs and own - opp >= TAKE_LEAD + (seen.weight - 1) * len(seen.theirs):
            for size in range(len(seen.theirs), 0, -1):
                for taken in combinations(sorted(seen.theirs), size):
                    if fits.fits([*place, *taken]):
                        return _Plan(frozenset([*place, *taken]), dukes)
        return _Plan(frozenset(place), dukes)

    def _capture(self, seen: _Seen, fits: Fits, pool: list[Card]) -> _Plan | None:
        """Return a capture's plan if one wins the round now (its own castle used only
        when the capture needs it), else ``None``."""
        assert seen.their_castle is not None
        required = [*sorted(seen.theirs), seen.their_castle]
        ways = [required]
        if seen.own_castle is not None:
            ways.append([*required, seen.own_castle])
        table = [c for g in seen.table for c in g]
        for needed in ways:
            place = _largest(fits, pool, len(pool), needed)
            if place is None:
                continue
            kept = [c for c in pool if c not in place]
            dukes = self._guards(fits, kept, seen) if seen.swaps else seen.fixed
            own, opp = _final(seen, table, [*place, *needed], dukes)
            if own > opp:
                the_move = seen.own_castle in needed
                return _Plan(
                    frozenset([*place, *needed]),
                    dukes,
                    reveal=the_move and not seen.own_up,
                    capture=True,
                )
        return None

    def _guards(self, after: Fits, kept: Sequence[Card], seen: _Seen) -> frozenset[Card]:
        """Return the kept cards for the duke slots: those the opponent is least able to
        fit on the table as it will be."""
        other = (seen.me + 1) % 2
        danger = {c: _danger(after, c, other) for c in kept}
        # on a tie a duke stays in its slot: a swap is an action, and actions bar D2
        order = sorted(kept, key=lambda c: (danger[c], c not in seen.start, room(c), c))
        return frozenset(order[: max(0, seen.slots)])

    def _worth(
        self, fits: Fits, card: Card, hand: Sequence[Card], unseen: frozenset[Card]
    ) -> float:
        """Return how near ``card`` is to a group: each own card that would make it fit
        counts 1 (2 if in the hand), each pair of them 0.25 (more for held ones)."""
        held = set(hand)
        near = [y for y in sorted(unseen | held) if y != card and related(card, y)]
        total = 0.0
        for y in near:
            if fits.fits([card, y]):
                total += 2.0 if y in held else 1.0
        for y, z in combinations(near, 2):
            if fits.fits([card, y, z]):
                total += 0.25 * (1 + (y in held) + (z in held))
        return total


_REASONS = {
    Kind.SETUP: "setup",
    Kind.DRAW: "draw",
    Kind.NEW: "place",
    Kind.ADD: "place",
    Kind.ACCEPT: "place",
    Kind.REGROUP: "place",
    Kind.PICKUP: "dukes",
    Kind.SET: "dukes",
    Kind.REVEAL: "capture",
    Kind.DISCARD: "discard",
    Kind.FINISH: "finish",
}
"""The line of why of each kind of step (``advice_<reason>`` in the game's catalogue)."""


def _placed_by(action: Action, table: Sequence[Card]) -> list[Card]:
    """Return the cards ``action`` puts on the table (none for a step that places none)."""
    if action.kind in (Kind.NEW, Kind.ADD):
        return list(action.cards)
    if action.kind is Kind.ACCEPT:
        on = set(table)
        return [c for g in action.partition for c in g if c not in on]
    return []


def _seen(view: DukesUpView, me: int) -> _Seen:
    """Return what the mover's plan depends on."""
    other = (me + 1) % 2
    hand = frozenset(view.hand or ())
    mine = frozenset(view.dukes[me] or ())
    swaps = view.turn != 1
    their_castle = view.castles[other]
    own_castle = view.castles[me]
    return _Seen(
        me=me,
        table=view.table,
        pool=hand | mine if swaps else hand,
        swaps=swaps,
        fixed=frozenset() if swaps else mine,
        slots=min(view.d0 or 1, 2) if swaps else len(mine),
        start=(mine - {a.cards[0] for a in view.actions if a.kind is Kind.SET})
        | {a.cards[0] for a in view.actions if a.kind is Kind.PICKUP},
        theirs=frozenset(view.dukes[other] or ()),
        their_castle=their_castle
        if isinstance(their_castle, Card) and view.castle_up[other]
        else None,
        their_slot=their_castle is not None,
        own_castle=own_castle if isinstance(own_castle, Card) else None,
        own_up=view.castle_up[me],
        weight=view.slot_weight,
    )


def _final(
    seen: _Seen, table: Sequence[Card], placed: Iterable[Card], dukes: frozenset[Card]
) -> tuple[int, int]:
    """Return (own, opponent's) score once ``placed`` is on the table and its slots hold
    ``dukes`` (and its castle, unless placed)."""
    counts = [0, 0]
    placed = list(placed)
    for card in (*table, *placed):
        counts[colour(card)] += 1
    me, other = seen.me, (seen.me + 1) % 2
    own_slots = len(dukes) + (seen.own_castle is not None and seen.own_castle not in placed)
    their_slots = len(seen.theirs - set(placed)) + (
        seen.their_slot and (seen.their_castle is None or seen.their_castle not in placed)
    )
    return (
        counts[me] + seen.weight * own_slots,
        counts[other] + seen.weight * their_slots,
    )


def _largest(
    fits: Fits, pool: Sequence[Card], cap: int, required: Sequence[Card] = ()
) -> list[Card] | None:
    """Return a largest set of at most ``cap`` pool cards that fits with the table and
    ``required``, leaving the hardest cards to fit behind among equals (they make the
    safest dukes); ``None`` if even ``required`` alone does not fit."""
    for size in range(min(cap, len(pool)), -1, -1):
        best: tuple[int, ...] | None = None
        chosen: list[Card] | None = None
        for combo in combinations(pool, size):
            if fits.fits([*required, *combo]):
                rooms = sorted(room(c) for c in pool if c not in combo)
                left = (sum(rooms), *rooms)
                if best is None or left < best:
                    best, chosen = left, list(combo)
        if chosen is not None:
            return chosen
    return None


def _danger(after: Fits, card: Card, other: int) -> int:
    """Return how easily the opponent could place ``card``: 100 if it fits the table alone,
    else how many of the opponent's cards would each make it fit."""
    if after.fits([card]):
        return 100
    return sum(1 for y in DECK if colour(y) == other and related(card, y) and after.fits([card, y]))


def _unseen(view: DukesUpView, me: int) -> frozenset[Card]:
    """Return its own cards it may still draw: those of its colour not in sight."""
    seen = set(view.hand or ())
    seen.update(view.dukes[me] or ())
    seen.update(c for g in view.table for c in g)
    castle = view.castles[me]
    if isinstance(castle, Card):
        seen.add(castle)
    return frozenset(c for c in DECK if colour(c) == me and c not in seen)
