"""The ``expert`` player: perfect-information Monte Carlo over double-dummy solutions.

At each card it deals the cards it cannot see in every way consistent with what it knows —
the cards seen played (the trick in progress and the last trick of each view it is shown,
and what vanished from a hand it sees), the suits each hand has shown out of, the hands on
view (its own, dummies, Double Dummy's exposed hands), the turned card in the dealer's hand,
a Humbug player's discarded hand, two-hand's turned card out of play, and the number of
cards each hand holds — solves each sample double-dummy and plays the card with the most
tricks on average. Ties go to the card ``basic`` would play, else the lowest. It maximises
the expected tricks of its side: game and rubber values are not weighed (tricks are what a
deal scores, and the odd trick and honours follow them).

Its views show only the trick in progress and the last trick, so at its own turns alone it
would see a card played after its turn only when that card leads the next trick. It is a
watching level (``WhistGame.watching_levels``): the simulator, the text table and the bot
show it its view after every move (:meth:`ExpertPlayer.observe`), so it knows every card
played, and a rebuilt one is shown the same views again from the move log. Driven only by
its own decisions, it still plays: a card it did not see is known only to be gone, and the
sampler deals it too, as the hand's "played unseen" cards; who won such a trick still tells
something: a hand that beat the best card still out of the suit led trumped, so it was void.

Double-dummy solving uses ``endplay``'s DDS (through :mod:`engine.whist.players.dds`,
imported lazily, when a player is made;
without ``endplay`` :func:`~engine.whist.players.make_player` gives ``basic`` and logs one
warning). Four hands map straight onto DDS's N E S W. A DDS solve of a deal whose hands
hold 12 or 13 cards takes 0.1–1 s, so while any hand holds more than ``solve_from`` (11)
cards the expert plays ``basic``'s card — in the bench that was both stronger and faster
than solving one or two samples there. Double Dummy is the exception: every card is known
(unless one was played after the expert's turn and it did not see it), so it solves the one
deal from the first card and plays a double-dummy best card; it claims what the solver
proves when all the rest is its own or five or fewer tricks remain, and accepts a claim
only when every deal it samples gives it no more than the claim leaves it.

Humbug and two-hand whist play two hands: the position goes to DDS with the leader at N and
the other hand at E, the ranks of each suit squeezed to the top, and S and W filled with
the lowest plain cards, which never win a trick (they hold no trump), so N's tricks are the
leader's. With 13 cards a hand that needs 26 low plain cards, which exist only once hands
hold ten cards or fewer, and at ten a solve still takes 0.2–2.5 s: while a hand holds more
than nine cards the two-hand expert plays ``basic``'s card. Humbug's
keep/exchange and a declared trump are chosen by the expected points (tricks over six and
Humbug honours) over sampled deals, each judged double-dummy with every hand cut to nine
cards (the four lowest plain cards taken out, their four tricks shared 2–2), the opponent
choosing as ``basic`` would.

Effort: how many deals it samples for a card depends on the position only, never on a
clock, so a seed plays the same cards on any machine, busy or idle: ``samples`` (40), fewer
where a solve is dearer — as many as ``effort`` (120) typical solve milliseconds buy, at the
mean solve cost measured once per hand size (``_SOLVE_MS``), at least one. Humbug's choices
sample ``humbug_samples`` (12) deals. One legal action returns at once.

Strength (``bench/whist_strength.py``, short whist, duplicate: each deal played twice with
the partnerships swapped; 95 % confidence intervals):

    .venv/bin/python bench/whist_strength.py --pairs 1000 --jobs 4 --cpu --progress 50

expert vs basic +0.85 tricks a deal, 95 % CI [+0.75, +0.95] over the first 450 deal pairs
of a 1,000-pair run (seeds 1–450), watching every card; decision CPU time p50 20.2 ms, p99
327.6 ms over 23,400 decisions (targets: +0.6 with the interval above +0.4, p99 500 ms).
basic vs random +3.50, 95 % CI [+3.40, +3.60].
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Sequence

from engine.cards import DECK, Card, Rank, Suit
from engine.game import Advice
from engine.whist.actions import ACCEPT, EXCHANGE, KEEP, REJECT, Action, Kind, claim, declare, play
from engine.whist.players.basic import BasicPlayer, keeps
from engine.whist.players.dds import load_solver, solve_position
from engine.whist.rules import Phase, WhistView
from engine.whist.scoring import humbug_honour_points

__all__ = ["ExpertPlayer", "solve_position", "solve_two_hands"]

_NORTH, _EAST, _SOUTH, _WEST = 0, 1, 2, 3
_TWO_HANDED = ("humbug", "two_hand")
_RIGHT = {_NORTH: _WEST, _SOUTH: _EAST}  # Humbug: the hand an exchanger takes
_TRICKS = 13
_TWO_HAND_SOLVABLE = 9  # cards a hand at most: the squeezed layout takes 0.2–2.5 s at ten
_CUT_TO = 9  # Humbug's hands are judged double-dummy with nine cards each
_CLAIM_BELOW = 5  # claim a proven share when at most this many tricks remain
# The mean CPU milliseconds of one DDS solve by the most cards a hand holds (300 random
# deals a size, measured once on the bench machine): the expert spends its ``effort`` in
# these units, so how many deals it samples depends on the position only, never on a clock.
_SOLVE_MS = {13: 113.0, 12: 17.6, 11: 7.3, 10: 3.5, 9: 1.8, 8: 0.9, 7: 0.6}
_SOLVE_MS_SMALL = 0.4
_TWO_HAND_MS = {9: 58.0, 8: 0.7}  # the squeezed two-hand layout (see the module's docstring)


# --------------------------------------------------------------------------------------
# Double-dummy solving (DDS through endplay: :mod:`engine.whist.players.dds`)


def solve_two_hands(
    leader: Sequence[Card],
    follower: Sequence[Card],
    lead: Card | None,
    trump: Suit,
) -> dict[Card, int] | None:
    """Return, for each card of the hand to play (the follower once ``lead`` is on the
    table, else the leader), the tricks that hand takes from here in a two-hand game with
    best play by both; ``None`` when the position is too big for the squeezed layout (see
    the module's docstring)."""
    in_play: dict[Suit, list[Card]] = {suit: [] for suit in Suit}
    for card in (*leader, *follower, *(() if lead is None else (lead,))):
        in_play[card.suit].append(card)
    squeezed: dict[Card, Card] = {}
    fill: list[Card] = []
    for suit, cards in in_play.items():
        cards.sort(key=lambda c: c.rank, reverse=True)
        for i, card in enumerate(cards):
            squeezed[card] = Card.of(Rank(Rank.ACE - i), suit)
        if suit is not trump:
            fill.extend(Card.of(Rank(r), suit) for r in range(Rank.TWO, Rank.ACE + 1 - len(cards)))
    size = len(follower)
    if len(fill) < 2 * size:
        return None
    hands = (
        [squeezed[c] for c in leader],
        [squeezed[c] for c in follower],
        fill[0 : 2 * size : 2],
        fill[1 : 2 * size : 2],
    )
    trick = () if lead is None else ((_NORTH, squeezed[lead]),)
    solved = solve_position(hands, trick, _EAST if lead is not None else _NORTH, trump)
    back = {v: k for k, v in squeezed.items()}
    return {back[card]: tricks for card, tricks in solved.items() if card in back}


# --------------------------------------------------------------------------------------
# What the player knows of a deal


class _Memory:
    """What the player has seen of one deal."""

    def __init__(self, deal: int) -> None:
        self.deal = deal
        self.played: dict[Card, int] = {}  # card -> the hand seen to play it
        self.void: set[tuple[int, Suit]] = set()
        self.held: dict[Card, int] = {}  # card -> a hand it was seen in (in play)
        self.turnup: Card | None = None
        # the trick as this player left it after playing to it: (tricks done before, cards)
        self.left: tuple[int, tuple[tuple[int, Card], ...]] | None = None

    def played_to(self, view: WhistView, card: Card) -> None:
        """Remember the trick as it stands after this player's ``card``."""
        assert view.seat is not None
        self.left = (sum(view.tricks), (*view.trick, (view.seat, card)))

    def see_winner(self, view: WhistView) -> None:
        """Learn from who won a trick whose last cards this player did not see: a hand that
        beat the best card of the suit led still out was void and trumped."""
        if self.left is None or sum(view.tricks) != self.left[0] + 1 or not view.trick:
            return
        cards = self.left[1]
        self.left = None
        winner = view.trick[0][0]
        trump = view.trump
        if any(seat == winner for seat, _ in cards) or trump is None or view.hands[winner]:
            return
        led = cards[0][1].suit
        if led is trump:
            return
        best = max(
            (c for _, c in cards if c.suit is led or c.suit is trump),
            key=lambda c: (c.suit is trump, c.rank),
        )
        if best.suit is led:
            known = set(self.played)
            for hand in view.hands:
                known.update(hand or ())
            higher = (Card.of(Rank(r), led) for r in range(best.rank + 1, Rank.ACE + 1))
            if any(c not in known for c in higher):
                return  # he may have won with a higher card of the suit
        self.void.add((winner, led))

    def see_trick(self, cards: Sequence[tuple[int, Card]]) -> None:
        if not cards:
            return
        led = cards[0][1].suit
        for seat, card in cards:
            self.played[card] = seat
            if card.suit is not led:
                self.void.add((seat, led))

    def update(self, view: WhistView) -> None:
        if view.turnup is not None:
            self.turnup = view.turnup
        if view.last_trick is not None:
            self.see_trick(view.last_trick.cards)
        self.see_trick(view.trick)
        if view.last_trick is None:
            self.see_winner(view)
        else:
            self.left = None
        if view.phase not in (Phase.PLAY, Phase.CLAIM):
            return
        for seat, hand in enumerate(view.hands):
            if hand is None:
                continue
            now = set(hand)
            for card, holder in list(self.held.items()):
                if holder == seat and card not in now and card not in self.played:
                    self.played[card] = seat  # gone from a hand on view: played unseen
            for card in hand:
                self.held[card] = seat


class _Knowledge:
    """The hands on view and the cards to deal: which buckets (hidden hands, cards each
    hand played unseen, cards out of play) each unseen card may lie in, and their sizes."""

    def __init__(
        self,
        hands: list[tuple[Card, ...] | None],
        buckets: list[tuple[str, int]],
        capacity: list[int],
        groups: dict[int, list[Card]],
    ) -> None:
        self.hands = hands
        self.buckets = buckets
        self.capacity = capacity
        self.groups = groups

    @property
    def certain(self) -> bool:
        """Return whether only one deal fits: every unseen card has one place."""
        return all(
            sum(1 for b in range(len(self.capacity)) if mask >> b & 1 and self.capacity[b]) <= 1
            for mask in self.groups
        )

    def sample(self, rng: random.Random) -> list[tuple[Card, ...]] | None:
        """Return the four hands of one deal consistent with the knowledge (``None`` if the
        sampler finds none)."""
        order = sorted(self.groups, key=lambda m: (bin(m).count("1"), m))
        for _ in range(40):
            left = list(self.capacity)
            placed: list[list[Card]] = [[] for _ in left]
            ok = True
            for mask in order:
                cards = list(self.groups[mask])
                rng.shuffle(cards)
                for card in cards:
                    room = [b for b in range(len(left)) if mask >> b & 1 and left[b]]
                    if not room:
                        ok = False
                        break
                    pick = rng.random() * sum(left[b] for b in room)
                    for b in room:
                        pick -= left[b]
                        if pick < 0:
                            break
                    left[b] -= 1
                    placed[b].append(card)
                if not ok:
                    break
            if ok:
                hands = list(self.hands)
                for b, (kind, seat) in enumerate(self.buckets):
                    if kind == "hand":
                        hands[seat] = tuple(placed[b])
                return [h or () for h in hands]
        return None


def _knowledge(view: WhistView, memory: _Memory) -> _Knowledge | None:
    """Return what ``view`` and ``memory`` tell of the unseen cards (``None`` if they do not
    add up, which a player that joined mid-deal may meet)."""
    two = view.variant in _TWO_HANDED
    active = (_NORTH, _SOUTH) if two else (_NORTH, _EAST, _SOUTH, _WEST)
    hands = list(view.hands)
    known: set[Card] = set(memory.played)
    for hand in hands:
        known.update(hand or ())
    if view.discarded:
        known.update(view.discarded)
    if view.variant == "two_hand" and memory.turnup is not None:
        known.add(memory.turnup)
    unseen = [c for c in DECK if c not in known]
    completed = sum(view.tricks)
    in_trick = {seat for seat, _ in view.trick}
    seen_by = {seat: 0 for seat in active}
    for seat in memory.played.values():
        if seat in seen_by:
            seen_by[seat] += 1
    buckets: list[tuple[str, int]] = []
    capacity: list[int] = []
    hand_bucket: dict[int, int] = {}
    gone_bucket: dict[int, int] = {}
    for seat in active:
        if hands[seat] is None:
            hand_bucket[seat] = len(buckets)
            buckets.append(("hand", seat))
            capacity.append(view.counts[seat])
    for seat in active:
        gone = completed + (seat in in_trick) - seen_by[seat]
        if gone < 0:
            return None
        if gone:
            gone_bucket[seat] = len(buckets)
            buckets.append(("gone", seat))
            capacity.append(gone)
    out = len(unseen) - sum(capacity)
    if out < 0 or (out and not two):
        return None
    out_bit = 0
    if out:
        out_bit = 1 << len(buckets)
        buckets.append(("out", -1))
        capacity.append(out)
    anywhere_gone = sum(1 << b for b in gone_bucket.values())
    turnup_holder = _turnup_holder(view, memory)
    groups: dict[int, list[Card]] = {}
    for card in unseen:
        if card == memory.turnup and turnup_holder is not None:
            seat = turnup_holder
            mask = 0
            if seat in hand_bucket:
                mask |= 1 << hand_bucket[seat]
            if view.turnup is None and seat in gone_bucket:
                mask |= 1 << gone_bucket[seat]
            if seat < 0:
                mask = out_bit
        elif card in memory.held and memory.held[card] in hand_bucket:
            seat = memory.held[card]
            mask = 1 << hand_bucket[seat]
            if seat in gone_bucket:
                mask |= 1 << gone_bucket[seat]
        else:
            mask = anywhere_gone | out_bit
            for seat, b in hand_bucket.items():
                if (seat, card.suit) not in memory.void:
                    mask |= 1 << b
        if not mask:
            return None
        for seat, b in hand_bucket.items():
            if mask == 1 << b:
                memory.held[card] = seat  # known by elimination
        groups.setdefault(mask, []).append(card)
    return _Knowledge(hands, buckets, capacity, groups)


def _turnup_holder(view: WhistView, memory: _Memory) -> int | None:
    """Return the hand holding the turned card if it is unseen and unplayed (−1: out of
    play), else ``None``."""
    card = memory.turnup
    if card is None or card in memory.played:
        return None
    if view.variant == "two_hand":
        return -1
    dealer = view.dealer
    if view.variant == "humbug" and view.exchanged[dealer]:
        return -1
    return dealer


# --------------------------------------------------------------------------------------
# The player


class ExpertPlayer:
    """Plays by sampling the unseen cards and solving each sample double-dummy (see the
    module's docstring)."""

    name = "expert"

    def __init__(
        self,
        seed: int,
        *,
        samples: int = 40,
        effort: float = 120.0,
        solve_from: int = 11,
        humbug_samples: int = 12,
    ) -> None:
        load_solver()  # loading DDS takes seconds: at the table's start, not in a decision
        self._rng = random.Random(seed)
        self._basic = BasicPlayer(seed)
        self._memory = _Memory(0)
        self.samples = samples
        self.effort = effort
        self.solve_from = solve_from
        self.humbug_samples = humbug_samples

    def sample_count(self, view: WhistView) -> int:
        """Return how many deals this player samples for a card in ``view``'s position:
        ``samples``, fewer where each solve is dearer (``effort`` in typical solve
        milliseconds), at least one."""
        most = max(view.counts)
        costs = _TWO_HAND_MS if view.variant in _TWO_HANDED else _SOLVE_MS
        cost = costs.get(most, _SOLVE_MS_SMALL)
        return max(1, min(self.samples, int(self.effort / cost)))

    def observe(self, view: WhistView) -> None:
        """Take in what ``view`` shows (cards played, hands on view) without acting."""
        if view.deal != self._memory.deal:
            self._memory = _Memory(view.deal)
        self._memory.update(view)
        self._basic.observe(view)

    def worlds(self, view: WhistView, n: int) -> list[list[tuple[Card, ...]]]:
        """Return ``n`` deals (the four hands as held now) consistent with what this player
        has seen up to ``view`` (for tests and tools)."""
        self.observe(view)
        knowledge = _knowledge(view, self._memory)
        if knowledge is None:
            return []
        return [w for w in (knowledge.sample(self._rng) for _ in range(n)) if w is not None]

    def act(self, view: WhistView) -> Action:
        """Return this player's action for the hand ``view.seat``."""
        self.observe(view)
        action = self._weigh(view).action
        if action.card is not None:
            self._memory.played_to(view, action.card)
        return action

    def advise(self, view: WhistView, compare: Action | None = None) -> Advice[Action]:
        """Return the action :meth:`act` would choose for ``view``, with what it weighed:
        the mean tricks of the hand's side over the deals it sampled for each card, the
        mean Humbug points of each choice, or, for a claim it answers, the tricks each
        answer leaves it (its choice unchanged; it samples every deal even after one
        already decides). ``compare``, when it was not weighed, gets the choice's value
        (where the expert follows the maxims: nothing was weighed) or a claim's number."""
        self.observe(view)
        advice = self._weigh(view, thorough=True)
        if compare is None or compare in advice.values:
            return advice
        value = advice.values[advice.action]
        if compare.kind == Kind.CLAIM:
            value = float(compare.number)
        return dataclasses.replace(advice, values={**advice.values, compare: value})

    def _weigh(self, view: WhistView, *, thorough: bool = False) -> Advice[Action]:
        """Return the choice for ``view`` and what led to it (:meth:`act`'s one path;
        ``thorough``: answering a claim, sample every deal instead of stopping at the first
        that decides)."""
        legal = view.legal
        if len(legal) == 1:
            return Advice(legal[0], {legal[0]: 0.0}, "tricks", "only")
        kinds = {action.kind for action in legal}
        if Kind.ACCEPT in kinds:
            return self._answer_claim(view, thorough)
        if Kind.TRUMP in kinds:
            return self._declare(view)
        if Kind.KEEP in kinds:
            return self._keep_or_exchange(view)
        return self._card(view)

    # --- cards -------------------------------------------------------------------------

    def _solve(self, view: WhistView, hands: Sequence[Sequence[Card]]) -> dict[Card, int] | None:
        """Return the tricks of the side to play, per card, in one sampled deal."""
        trump = view.trump
        seat = view.to_play
        assert trump is not None and seat is not None
        if view.variant not in _TWO_HANDED:
            return solve_position(hands, view.trick, seat, trump)
        if view.trick:
            leader_seat, lead = view.trick[0]
            return solve_two_hands(hands[leader_seat], hands[seat], lead, trump)
        other = _SOUTH if seat == _NORTH else _NORTH
        return solve_two_hands(hands[seat], hands[other], None, trump)

    def _estimate(self, view: WhistView) -> tuple[dict[Card, float], int, bool] | None:
        """Return the mean tricks per card of the side to play over sampled deals, the
        number of deals solved and whether the deal was certain."""
        knowledge = _knowledge(view, self._memory)
        if knowledge is None:
            return None
        certain = knowledge.certain
        totals: dict[Card, float] = {}
        solved = 0
        for _ in range(1 if certain else self.sample_count(view)):
            world = knowledge.sample(self._rng)
            if world is None:
                break
            result = self._solve(view, world)
            if result is None:
                break
            for card, tricks in result.items():
                totals[card] = totals.get(card, 0.0) + tricks
            solved += 1
        if not solved:
            return None
        return {c: t / solved for c, t in totals.items()}, solved, certain

    def _maxims(self, view: WhistView) -> Advice[Action]:
        """Return ``basic``'s card, where the expert does not sample (see the module)."""
        action = self._basic.act(view)
        return Advice(action, {action: 0.0}, "tricks", "maxims")

    def _card(self, view: WhistView) -> Advice[Action]:
        legal = view.legal
        cards = [a.card for a in legal if a.kind == Kind.PLAY and a.card is not None]
        claims = [a.number for a in legal if a.kind == Kind.CLAIM]
        if len(cards) == 1 and not claims:
            return Advice(play(cards[0]), {play(cards[0]): 0.0}, "tricks", "only")
        if view.variant in _TWO_HANDED:
            if max(view.counts[_NORTH], view.counts[_SOUTH]) > _TWO_HAND_SOLVABLE:
                return self._maxims(view)
        elif view.variant != "double_dummy" and max(view.counts) > self.solve_from:
            return self._maxims(view)
        estimate = self._estimate(view)
        if estimate is None:
            return self._maxims(view)
        means, solved, certain = estimate
        scores = {c: means.get(c, -1.0) for c in cards}
        values: dict[Action, float] = {play(c): v for c, v in scores.items()}
        reason, detail = ("exact", {}) if certain else ("sampled", {"deals": solved})
        best = max(scores.values())
        remaining = _TRICKS - sum(view.tricks)
        if claims and certain and best >= 1:
            tricks = round(best)
            if (
                tricks in claims
                and remaining > 1
                and (tricks == remaining or remaining <= _CLAIM_BELOW)
            ):
                values[claim(tricks)] = float(tricks)
                return Advice(
                    claim(tricks), values, "tricks", "claim", {"tricks": tricks}, exact=True
                )
        top = [c for c in cards if scores[c] >= best - 1e-9]
        choice = play(min(top, key=lambda c: (c.rank, c.suit)))
        if len(cards) > 1:
            preferred = self._basic.act(view)
            if preferred.card in top:
                choice = preferred
        return Advice(choice, values, "tricks", reason, detail, exact=certain)

    def _answer_claim(self, view: WhistView, thorough: bool = False) -> Advice[Action]:
        assert view.claim is not None and view.seat is not None and view.to_play is not None
        tricks = view.claim[1]
        remaining = _TRICKS - sum(view.tricks)
        left = float(remaining - tricks)  # what accepting leaves this side
        knowledge = _knowledge(view, self._memory)
        if knowledge is None:
            return Advice(REJECT, {REJECT: left, ACCEPT: left}, "tricks", "claim_unsure")
        trump = view.trump
        assert trump is not None
        mine_to_play = view.to_play % 2 == view.seat % 2
        total = 0.0
        solved = 0
        beaten = False
        for _ in range(1 if knowledge.certain else self.sample_count(view)):
            world = knowledge.sample(self._rng)
            if world is None:
                beaten = True
                break
            result = solve_position(world, view.trick, view.to_play, trump)
            best = max(result.values())
            mine = best if mine_to_play else remaining - best
            total += mine
            solved += 1
            if mine > remaining - tricks:
                beaten = True
                if not thorough:
                    break
        values = {ACCEPT: left, REJECT: total / solved if solved else left}
        detail: dict[str, int | str] = {"deals": solved, "tricks": tricks}
        if beaten:
            return Advice(REJECT, values, "tricks", "claim_rejected", detail, knowledge.certain)
        return Advice(ACCEPT, values, "tricks", "claim_accepted", detail, knowledge.certain)

    # --- Humbug ------------------------------------------------------------------------

    def _deals(self, view: WhistView, n: int) -> list[dict[int, tuple[Card, ...]]]:
        """Return ``n`` Humbug deals before the exchange: the four hands, this player's as
        he sees it, the turned card with its dealer."""
        seat = view.seat
        assert seat is not None
        mine = view.hand
        turnup = view.turnup
        rest = [c for c in DECK if c not in mine and c != turnup]
        deals = []
        for _ in range(n):
            self._rng.shuffle(rest)
            hands: dict[int, tuple[Card, ...]] = {seat: mine}
            others = [s for s in (_NORTH, _EAST, _SOUTH, _WEST) if s != seat]
            at = 0
            for s in others:
                size = 13
                extra: tuple[Card, ...] = ()
                if turnup is not None and s == view.dealer:
                    size, extra = 12, (turnup,)
                hands[s] = (*rest[at : at + size], *extra)
                at += size
            deals.append(hands)
        return deals

    def _humbug_value(
        self, trump: Suit, leads: bool, mine: Sequence[Card], theirs: Sequence[Card]
    ) -> int:
        """Return the points this player expects over the opponent with these played hands
        (double-dummy on nine-card cuts; see the module's docstring)."""
        cut_mine, cut_theirs = _cut(mine, trump), _cut(theirs, trump)
        first, second = (cut_mine, cut_theirs) if leads else (cut_theirs, cut_mine)
        solved = solve_two_hands(first, second, None, trump)
        assert solved is not None
        best = max(solved.values())
        tricks = (best if leads else _CUT_TO - best) + (_TRICKS - _CUT_TO) // 2
        points = max(0, tricks - 6) - max(0, _TRICKS - tricks - 6)
        honours = humbug_honour_points((_honours(mine, trump), _honours(theirs, trump)))
        if honours is not None:
            points += honours[1] if honours[0] == 0 else -honours[1]
        return points

    def _keep_or_exchange(self, view: WhistView) -> Advice[Action]:
        seat = view.seat
        trump = view.trump
        assert seat is not None and trump is not None
        opponent = _SOUTH if seat == _NORTH else _NORTH
        # humbug_declared: the dealer is bound to his hand; otherwise both choose at once
        opponent_chooses = opponent in view.to_act or view.chosen[opponent]
        leads = seat != view.dealer
        keep = exchange = 0
        for hands in self._deals(view, self.humbug_samples):
            theirs = hands[opponent]
            if opponent_chooses and not keeps(theirs, trump):
                theirs = hands[_RIGHT[opponent]]
            keep += self._humbug_value(trump, leads, hands[seat], theirs)
            exchange += self._humbug_value(trump, leads, hands[_RIGHT[seat]], theirs)
        n = self.humbug_samples
        values = {KEEP: keep / n, EXCHANGE: exchange / n}
        choice = KEEP if keep >= exchange else EXCHANGE
        return Advice(choice, values, "points", "humbug", {"deals": n})

    def _declare(self, view: WhistView) -> Advice[Action]:
        seat = view.seat
        assert seat is not None
        opponent = _SOUTH if seat == _NORTH else _NORTH
        values = dict.fromkeys(Suit, 0)
        for hands in self._deals(view, self.humbug_samples):
            for suit in Suit:
                theirs = hands[opponent]
                if not keeps(theirs, suit):
                    theirs = hands[_RIGHT[opponent]]
                values[suit] += self._humbug_value(suit, False, hands[seat], theirs)
        n = self.humbug_samples
        choice = declare(max(Suit, key=lambda s: (values[s], s)))
        weighed = {declare(suit): values[suit] / n for suit in Suit}
        return Advice(choice, weighed, "points", "humbug", {"deals": n})


def _cut(hand: Sequence[Card], trump: Suit) -> list[Card]:
    """Return ``hand`` without its lowest cards down to nine, plain cards first."""
    ordered = sorted(hand, key=lambda c: (c.suit is trump, c.rank))
    return ordered[len(ordered) - _CUT_TO :]


def _honours(hand: Sequence[Card], trump: Suit) -> int:
    return sum(1 for c in hand if c.suit is trump and c.rank >= Rank.JACK)
