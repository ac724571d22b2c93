"""The ``expert`` player: it remembers the table, reads the others, and plans its cards.

Against three greedy players (fair share 0.25; greedy itself wins about 0.67 against three
random players), measured with::

    python -m engine.simulate dupe --games 4000 --seed 1 --players expert,greedy,greedy,greedy

- seed 1: win share 0.956 [0.949, 0.962], mean score 185.7 against 101.9 for each greedy;
  decision time p50 0.12 ms, p99 0.83–0.89 ms; the run took 68–71 s.
- seed 2: win share 0.952 [0.945, 0.958], mean score 184.6 against 101.7; p50 0.12 ms,
  p99 0.87 ms; 71 s.
- ``--memory open``, seed 3, 1000 games: 0.957 (it never needs to look at its own pile).

What it does, in the order the ideas were added, with the win share each step reached
(2000 games from seed 1 against three greedy players; "margin" is its mean final score
minus the greedy players' mean):

1. **Memory** (0.551, margin +23 together with 2 and random play). Every seat acts in
   every trick, so it sees each completed trick (``view.last_trick``) and keeps all four
   won piles, as counts that score in a microsecond. From deal 2 on every hand is known
   (the won hands shown at the end of a deal are the new hands), and so is every
   opponent's remaining hand. Created fresh mid-game it knows less and plays on with it.
2. **Distribution.** As taker it tries all 24 bijections and keeps the one of largest
   worth. One point in my dupe's pile is worth +1; one point in another pile is worth
   minus the chance that the pile scores for each opponent times that opponent's weight.
   Those chances come from a Bayesian posterior over the six possible dupe assignments
   of the other three: a taker who is greedy gives its dupe a card that most raises the
   dupe's score, so each distribution seen weighs the hypotheses (with a 20 % share
   assumed random, so other kinds of players do not break it); against greedy takers it
   puts ≥ 0.98 on the truth by the end of deal 1. The weights share out one point among
   the opponents by how likely each is to be the one to beat (a softmax of the projected
   totals, softer the more deals remain). Feeding the dupe is what greedy does too;
   starving the others as well is what lifts a random player's 0.25 to 0.55. Weighing
   by the leader made no measurable difference (the games are rarely close); it is kept
   for the close ones.
3. **Next hand** (0.704, +36). My won pile is my next hand, and tricks are taken by high
   cards (an ace takes 79 % of the time against three random cards, a six 7 %). In deals
   1 to 3 a card I keep for myself is also worth ``HAND_WEIGHT`` × its chance of taking
   a trick (12 points per expected trick; 9 to 15 were all alike).
4. **Weakest first** (0.918, +68). Taking is worth more the later the trick: measured
   against greedy players, the advantage of being the taker grows from about 4 points
   at trick 1 to 13 at trick 13 (deal 4, with no next hand to build: 1.5 to 10), as the
   piles take shape and give the taker real choices. And a card's chance of taking does
   not depend on when it is played when the others play at random: every card of their
   hands is played once, so on average over the rest of the deal they play evenly from
   what they now hold. So it holds its strongest cards for the last tricks and plays
   the one least likely to take first. The chances are exact, from each opponent's rank
   distribution (its known hand; in deal 1 the unseen cards).
5. **Final scores** (0.961, +85). A card's worth to a pile is how much it raises that
   pile's expected score at the end of the deal, not now: each pile is completed 32 times
   with random draws from the cards still unplayed. Greedy's measure (the score now)
   cannot tell the early cards apart and does not know which suits and ranks are gone.
6. **Play styles** (0.954 against greedy: unchanged). It learns how each opponent picks
   its card: a posterior over styles "card drawn ∝ exp(θ · its rank position in the
   hand)", θ from -8 (always the lowest) to 8 (always the highest), learned separately
   for each sixth of the deal from every play whose hand is known (deal 1's plays once
   deal 1 is over). This trick's chance of taking then uses the styles and the later
   ones stay even (step 4), so against players who keep their high cards for the end it
   takes early tricks cheaply and does not waste its high cards against theirs.

Against other kinds of players (win share of one player against three experts, 400 games
from seed 1; fair share 0.25): greedy 0.015, random 0.000, highest-card-first 0.018,
lowest-card-first 0.031, this expert without step 6 0.315, with one style for the whole
deal instead of six 0.344. The expert against three of each: 0.968, 0.995, 1.000,
1.000, 0.958 and 0.367. Without step 6, three experts let a greedy player win 0.139 and a
highest-card-first one 0.207 (everyone holds high cards to the end, so they collide);
with one style per deal a lone expert without styles won 0.57 against three of them
(each chased the early tricks the others gave up); six styles per deal is the best of
the variants tried. Those remain the weak spot: a player that plays weakest first and
distributes as well as this one wins about a third of the games against three experts.

Tried and dropped: valuing the card played by where it goes when another player takes
(margin -3 to -6), choosing among same-rank cards by the piles' gains (no change),
maximising the exact win chance on the game's last trick (3 decisions changed in 200
games), 48 or 64 completions (+1 to +2 points, 1.5 to 2 times the time), weighing the
starving 0.5 to 1.5 or the threat softness 0 to 20 (all within noise), a style model
used only to hold cards back or blended with the even model (each more exploitable by
one of the other variants than this one is).

Cost: distributing dominates (32 completions × 4 piles × 4 cards); playing a card is
exact arithmetic over rank distributions. Pure stdlib, deterministic for its seed (the
completions are drawn from its own ``random.Random``), no I/O.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterable
from itertools import permutations
from operator import add

from engine.cards import DECK, Card
from engine.dupe.players.memory import TableMemory
from engine.dupe.rules import (
    DEALS,
    SEATS,
    TRICKS,
    Action,
    Distribute,
    DupeView,
    Phase,
    TrickRecord,
    play,
)
from engine.game import Advice

__all__ = ["ExpertPlayer"]

# --------------------------------------------------------------------------------------
# Tuning (each figure was chosen with the simulator; see the module docstring)

SAMPLES = 32
"""Random completions drawn to estimate how a won pile will score at the end of the deal."""
HAND_WEIGHT = 12.0
"""Worth of one expected trick taken next deal, in points of this deal (deals 1 to 3)."""
STARVE = 1.0
"""Worth of one point scored by the opponents, against one point of mine."""
SIGMA = 10.0
"""Softness, in points, of which opponent counts as the one to beat (per deal left)."""
EPSILON = 0.2
"""Share of an opponent's distributions assumed not to follow the greedy rule."""
THETAS = (-8.0, -4.0, -2.0, -1.0, 0.0, 1.0, 2.0, 4.0, 8.0)
"""Play styles an opponent may have: its card is drawn ∝ exp(θ · position in its hand)."""
_STYLE_PRIOR = tuple(math.log(0.4 if theta == 0 else 0.075) for theta in THETAS)
STYLE_PHASES = 6
"""An opponent's style is learned apart for each sixth of a deal: many play low early and
high late, or the reverse."""


def _phase(cards: int) -> int:
    """Return the part of the deal in which a player holding ``cards`` cards plays."""
    return (TRICKS - cards) * STYLE_PHASES // TRICKS


def _take_advantage(first: float, slope: float) -> tuple[float, ...]:
    return tuple(first + slope * t for t in range(TRICKS + 1))


# How much more a trick is worth to me when I take it than when another player does, by
# trick (index 0 = trick 1), measured against greedy players. It grows through the deal
# because won piles take shape; deals 1-3 add the next hand's strength.
_ADVANTAGE = _take_advantage(4.0, 0.7)
_ADVANTAGE_LAST_DEAL = _take_advantage(1.5, 0.67)

# --------------------------------------------------------------------------------------
# Fast scoring: a won pile as counts; the longest sequence of every set of ranks is tabled

_SET_BONUS = (0, 0, 0, 6, 8)
_SET_STEP = (0, 0, 0, 6, 2)  # bonus added by the n-th card of a rank
_SEQ_COST = _SET_STEP  # bonus lost when a sequence takes one card of a set of n


def _build_runs() -> tuple[tuple[int, tuple[int, ...]], ...]:
    """Return, for each 13-bit set of ranks (bit i = rank i + 2), the longest sequence
    length and the low ends (1 = ace low) of every sequence of that length."""
    # On bits (bit v - 1 = value v, the ace both 1 and 14): the table is built when the
    # expert is first needed, at a restart's first click of a table it plays at.
    runs: list[tuple[int, tuple[int, ...]]] = []
    for mask in range(1 << 13):
        present = mask << 1 | mask >> 12
        best = 0
        rest = present
        while rest:
            rest &= rest >> 1
            best += 1
        length = min(best, 13)
        if length < 2:
            runs.append((1, ()))
            continue
        ends = present  # bit j: values j + 1 .. j + length all present
        for _ in range(length - 1):
            ends &= ends >> 1
        runs.append((length, tuple(j + 1 for j in range(14 - length, -1, -1) if ends >> j & 1)))
    return tuple(runs)


_RUNS = _build_runs()


def _score(ranks: list[int], mask: int, longest: int, bonus: int) -> int:
    """Return L × S + B for rank counts (index = rank), their mask, L and the bonus of all
    sets before the sequence takes its card from them."""
    length, starts = _RUNS[mask]
    if not bonus or length == 1:
        return longest * length + bonus
    cost = 99
    for start in starts:
        c = 0
        for value in range(start, start + length):
            c += _SEQ_COST[ranks[14 if value == 1 else value]]
        if c < cost:
            cost = c
    return longest * length + bonus - cost


class _Pile:
    """A won pile as suit and rank counts, with its score."""

    __slots__ = ("bonus", "mask", "ranks", "score", "suits")

    def __init__(self) -> None:
        self.suits = [0, 0, 0, 0]
        self.ranks = [0] * 15
        self.mask = 0
        self.bonus = 0
        self.score = 0

    def add(self, card: Card) -> None:
        rank = card[0]
        self.suits[card[1]] += 1
        n = self.ranks[rank] = self.ranks[rank] + 1
        self.mask |= 1 << (rank - 2)
        self.bonus += _SET_BONUS[n] - _SET_BONUS[n - 1]
        self.score = _score(self.ranks, self.mask, max(self.suits), self.bonus)

    def gain(self, card: Card) -> int:
        """Return how much adding ``card`` raises the score now (the greedy measure)."""
        rank = card[0]
        suits = self.suits
        longest = max(max(suits), suits[card[1]] + 1)
        ranks = self.ranks
        n = ranks[rank] + 1
        ranks[rank] = n
        score = _score(
            ranks,
            self.mask | 1 << (rank - 2),
            longest,
            self.bonus + _SET_BONUS[n] - _SET_BONUS[n - 1],
        )
        ranks[rank] = n - 1
        return score - self.score


# --------------------------------------------------------------------------------------
# Memory


class _Memory(TableMemory):
    """Table memory plus the won piles as counts, a posterior over the others' dupes and
    a posterior over each opponent's play style."""

    __slots__ = ("complete", "dupe", "hypotheses", "log_weights", "me", "piles", "styles")

    def __init__(self) -> None:
        super().__init__()
        self.me = 0
        self.dupe = 0
        self.complete = False
        self.piles = [_Pile(), _Pile(), _Pile(), _Pile()]
        self.hypotheses: list[dict[int, int]] = []
        self.log_weights: list[float] = []
        # log-likelihood of each play style, per seat and per part of the deal
        self.styles = [[list(_STYLE_PRIOR) for _ in range(STYLE_PHASES)] for _ in SEATS]

    def update(self, view: DupeView) -> None:
        """Take in what ``view`` shows that has not been seen yet."""
        assert view.seat is not None
        self.me = view.seat
        super().update(view)
        if view.won is not None and len(view.won) != len(self.won[self.me]):
            # Open memory and a gap in what this player saw: its own pile is on view.
            self.won[self.me] = list(view.won)
            self.piles[self.me] = pile = _Pile()
            for card in view.won:
                pile.add(card)

    def _new_deal(self, view: DupeView) -> None:
        if self.deal and self.complete and not self.hands_known and len(self.tricks) == TRICKS:
            # Every card of a hand is played, so the deal just ended shows the hands that
            # were unknown while it was played: learn each opponent's style from them.
            for seat in SEATS:
                if seat != self.me:
                    hand = sorted(self.played[seat])
                    for card in self.played[seat]:
                        self._learn_style(seat, hand, card)
                        hand.remove(card)
        super()._new_deal(view)
        assert view.dupe is not None
        self.dupe = view.dupe
        self.complete = True
        self.piles = [_Pile(), _Pile(), _Pile(), _Pile()]
        others = [s for s in SEATS if s != self.me]
        targets = [s for s in SEATS if s != self.dupe]
        self.hypotheses = [dict(zip(others, p, strict=True)) for p in permutations(targets)]
        self.log_weights = [0.0] * len(self.hypotheses)

    def _record(self, trick: TrickRecord) -> None:
        expected = self.tricks[-1].trick + 1 if self.tricks else 1
        if trick.trick != expected:
            self.complete = False
        taker = trick.taker
        if taker is not None and taker != self.me and self.hypotheses:
            self._learn_dupe(trick, taker)
        if self.complete and self.hands_known:
            for seat in SEATS:
                hand = self.hand_of(seat)
                if seat != self.me and hand and trick.cards[seat] in hand:
                    self._learn_style(seat, sorted(hand), trick.cards[seat])
        super()._record(trick)
        for seat in SEATS:
            self.piles[seat].add(trick.received[seat])

    def _learn_dupe(self, trick: TrickRecord, taker: int) -> None:
        """Weigh each hypothesis by how likely the taker's distribution is under it: a
        greedy taker gives its dupe a card that most raises that dupe's score."""
        likelihood: dict[int, float] = {}
        for seat in SEATS:
            if seat == self.dupe:
                continue
            pile = self.piles[seat]
            gains = [pile.gain(card) for card in trick.cards]
            top = max(gains)
            hit = gains[trick.cards.index(trick.received[seat])] == top
            p = (1 - EPSILON) * hit / gains.count(top) + EPSILON / 4
            likelihood[seat] = math.log(p)
        for i, hypothesis in enumerate(self.hypotheses):
            self.log_weights[i] += likelihood[hypothesis[taker]]

    def _learn_style(self, seat: int, hand: list[Card], card: Card) -> None:
        """Weigh each play style by how likely it made ``seat`` play ``card`` from ``hand``."""
        if len(hand) < 2:
            return
        table = _style_table(hand)
        chosen = hand.index(card)
        log_likelihoods = self.styles[seat][_phase(len(hand))]
        for k, weights in enumerate(table):
            log_likelihoods[k] += math.log(weights[chosen] / sum(weights))

    def dupe_probabilities(self) -> dict[int, list[float]]:
        """Return, for each opponent, the probability that each seat is its dupe."""
        top = max(self.log_weights)
        weights = [math.exp(w - top) for w in self.log_weights]
        total = sum(weights)
        out = {seat: [0.0, 0.0, 0.0, 0.0] for seat in self.hypotheses[0]}
        for weight, hypothesis in zip(weights, self.hypotheses, strict=True):
            for seat, dupe in hypothesis.items():
                out[seat][dupe] += weight / total
        return out

    def style_weights(self, seat: int, cards: int) -> list[float]:
        """Return the posterior probability of each play style for ``seat`` holding ``cards``."""
        log_likelihoods = self.styles[seat][_phase(cards)]
        top = max(log_likelihoods)
        weights = [math.exp(x - top) for x in log_likelihoods]
        total = sum(weights)
        return [w / total for w in weights]


# _STYLE_EXP[n][s][k] = exp(THETAS[k] · z) for a card of a hand of n whose rank occupies
# sorted positions low..high with low + high = s, z = s / (n - 1) - 1 running from -1 to 1
_STYLE_EXP = [
    [[math.exp(theta * (s / (n - 1) - 1)) for theta in THETAS] for s in range(2 * n - 1)]
    if n >= 2
    else []
    for n in range(TRICKS + 1)
]


def _style_table(hand: list[Card]) -> list[list[float]]:
    """Return, per play style, the unnormalised weight of each card of the rank-sorted
    ``hand``: exp(θ · z), z from -1 (lowest rank) to 1 (highest), equal ranks sharing."""
    n = len(hand)
    ranks = [card[0] for card in hand]
    exps = _STYLE_EXP[n]
    rows = []
    for rank in ranks:
        low = ranks.index(rank)
        rows.append(exps[2 * low + ranks.count(rank) - 1])
    return [list(column) for column in zip(*rows, strict=True)]


# --------------------------------------------------------------------------------------
# Taking


def _take_probabilities(qs: list[list[float]], ranks: Iterable[int]) -> dict[int, float]:
    """Return, for each of ``ranks``, the probability that a card of that rank takes the
    trick when the three opponents' ranks are independent with distributions ``qs``."""
    q0, q1, q2 = qs
    below = []  # below[j][r] = P(opponent j's rank < r)
    for q in qs:
        acc = 0.0
        b = [0.0] * 16
        for r in range(15):
            b[r] = acc
            acc += q[r]
        b[15] = acc
        below.append(b)
    b0, b1, b2 = below
    out: dict[int, float] = {}
    for r in ranks:
        # the single highest rank
        p = b0[r] * b1[r] * b2[r]
        # or the single lowest when the highest is shared: all three above r, minus the
        # cases where one of them is alone on top
        a0 = b0[15] - b0[r + 1]
        a1 = b1[15] - b1[r + 1]
        a2 = b2[15] - b2[r + 1]
        p += a0 * a1 * a2
        c0 = b0[r + 1]
        c1 = b1[r + 1]
        c2 = b2[r + 1]
        for m in range(r + 1, 15):
            g0 = b0[m] - c0
            g1 = b1[m] - c1
            g2 = b2[m] - c2
            p -= q0[m] * g1 * g2 + q1[m] * g0 * g2 + q2[m] * g0 * g1
        out[r] = p
    return out


def _uniform_ranks() -> list[float]:
    q = [0.0] * 15
    for r in range(2, 15):
        q[r] = 1 / 13
    return q


_HAND_TAKE = _take_probabilities([_uniform_ranks()] * 3, set(range(2, 15)))
"""How often a card of each rank takes against three random cards: its worth in a hand."""


# --------------------------------------------------------------------------------------
# The player

_ORDERS = tuple(permutations(range(4)))


class ExpertPlayer:
    """The strongest computer player: see the module docstring for what it does and why."""

    name = "expert"

    def __init__(self, seed: int) -> None:
        self._rng = random.Random(seed)
        self._memory = _Memory()

    def observe(self, view: DupeView) -> None:
        """Take in what ``view`` shows without acting (to catch up on a game in progress)."""
        self._memory.update(view)

    def act(self, view: DupeView) -> Action:
        """Return this player's action for ``view``."""
        return self.advise(view).action

    def advise(self, view: DupeView, compare: Action | None = None) -> Advice[Action]:
        """Return the action :meth:`act` chooses for ``view`` with what it weighed (the
        one path of both): as taker, each distribution's worth to this player in points
        of the deal (its dupe's pile and next hand up, the threatening piles down; 32
        random completions of the deal); choosing a card, each card's worth in points of
        taking tricks, this one now and the kept cards at their best later tricks.
        ``compare`` is always among them: every legal action is weighed."""
        self._memory.update(view)
        if view.phase is Phase.DISTRIBUTE:
            return self._distribute(view)
        return self._choose(view)

    # --- distributing ----------------------------------------------------------------

    def _distribute(self, view: DupeView) -> Advice[Action]:
        """Give the four cards so that my dupe's pile, the other piles and the next hands
        end up best for me (the bijection of largest total worth)."""
        cards = view.revealed
        assert cards is not None
        worth = self._worth(view, cards)
        best = -math.inf
        best_order = _ORDERS[0]
        values: dict[Action, float] = {}
        for order in _ORDERS:  # order[seat] = index of the card that seat receives
            total = (
                worth[order[0]][0] + worth[order[1]][1] + worth[order[2]][2] + worth[order[3]][3]
            )
            values[Distribute(tuple(cards[i] for i in order))] = total
            if total > best:
                best = total
                best_order = order
        choice = Distribute(tuple(cards[i] for i in best_order))
        return Advice(choice, values, "points", "distribute", {"completions": SAMPLES})

    def _worth(self, view: DupeView, cards: tuple[Card, ...]) -> list[list[float]]:
        """Return worth[i][seat]: what giving ``cards[i]`` to ``seat`` is worth to me."""
        mem = self._memory
        weights = self._seat_weights(view)
        finals = self._final_scores(view, cards)
        hand = [0.0, 0.0, 0.0, 0.0]
        if view.deal < DEALS:
            for seat in SEATS:
                hand[seat] = HAND_WEIGHT if seat == mem.me else 0.0
        return [
            [weights[s] * finals[s][i] + hand[s] * _HAND_TAKE[card[0]] for s in SEATS]
            for i, card in enumerate(cards)
        ]

    def _seat_weights(self, view: DupeView) -> list[float]:
        """Return what one point of each seat's won pile is worth to me this deal: +1 for
        my dupe; for the others, minus the chance that the pile scores for each opponent
        times how much that opponent threatens me."""
        mem = self._memory
        weights = [0.0, 0.0, 0.0, 0.0]
        weights[mem.dupe] = 1.0
        probabilities = mem.dupe_probabilities()
        piles = mem.piles
        totals = view.totals
        mine = totals[mem.me] + piles[mem.dupe].score
        ahead = {
            seat: totals[seat] + sum(p * piles[s].score for s, p in enumerate(ps)) - mine
            for seat, ps in probabilities.items()
        }
        sigma = SIGMA * (1 + DEALS - view.deal)
        top = max(ahead.values())
        threat = {seat: math.exp((x - top) / sigma) for seat, x in ahead.items()}
        total = sum(threat.values())
        for seat, ps in probabilities.items():
            w = STARVE * threat[seat] / total
            for s in SEATS:
                weights[s] -= w * ps[s]
        return weights

    def _final_scores(self, view: DupeView, cards: tuple[Card, ...]) -> list[list[float]]:
        """Return finals[seat][i]: the expected score at the end of the deal of the seat's
        pile once it holds ``cards[i]``, over random completions from the unplayed cards."""
        mem = self._memory
        piles = mem.piles
        left = TRICKS - view.trick
        if left <= 0:
            return [[float(piles[s].gain(card)) for card in cards] for s in SEATS]
        gone = set(cards)
        for won in mem.won:
            gone.update(won)
        pool = [card for card in DECK if card not in gone]
        sample = self._rng.sample
        completions = []
        for _ in range(SAMPLES):
            suits = [0, 0, 0, 0]
            ranks = [0] * 15
            mask = 0
            for card in sample(pool, left):
                suits[card[1]] += 1
                ranks[card[0]] += 1
                mask |= 1 << (card[0] - 2)
            completions.append((suits, ranks, mask))
        keys = [(i, card[0], card[1], 1 << (card[0] - 2)) for i, card in enumerate(cards)]
        runs = _RUNS
        step = _SET_STEP
        out = []
        for pile in piles:
            acc = [0.0] * len(cards)
            for c_suits, c_ranks, c_mask in completions:
                suits = list(map(add, pile.suits, c_suits))
                ranks = list(map(add, pile.ranks, c_ranks))
                mask = pile.mask | c_mask
                longest = max(suits)
                bonus = sum(map(_SET_BONUS.__getitem__, ranks))
                for i, rank, suit, bit in keys:
                    n = ranks[rank] + 1
                    b = bonus + step[n]
                    length = suits[suit] + 1
                    if length < longest:
                        length = longest
                    if b:
                        ranks[rank] = n
                        acc[i] += _score(ranks, mask | bit, length, b)
                        ranks[rank] = n - 1
                    else:
                        acc[i] += length * runs[mask | bit][0]
            out.append([a / SAMPLES for a in acc])
        return out

    # --- choosing --------------------------------------------------------------------

    def _choose(self, view: DupeView) -> Advice[Action]:
        """Play the card that leaves the best plan for the rest of the deal.

        A card takes this trick with probability p_now (opponents modelled with their
        play styles) and, held back, would take a later one with p_later (their cards
        drawn evenly from their hands, as every card in a hand is played once). Taking is
        worth more the later the trick, so the held cards are planned weakest first; the
        card played now is the one maximising p_now · A(now) + Σ sorted p_later · A(later).
        """
        hand = view.hand
        if len(hand) == 1:
            return Advice(play(hand[0]), {play(hand[0]): 0.0}, "points", "only")
        now, later = self._opponent_ranks(view)
        ranks = {card[0] for card in hand}
        p_now = _take_probabilities(now, ranks)
        p_later = p_now if later is now else _take_probabilities(later, ranks)
        advantage = _ADVANTAGE_LAST_DEAL if view.deal == DEALS else _ADVANTAGE
        t = view.trick
        planned = sorted(p_later[card[0]] for card in hand)
        best = -math.inf
        choice = hand[0]
        by_rank: dict[int, float] = {}
        for rank in sorted(ranks):
            rest = list(planned)
            rest.remove(p_later[rank])
            value = p_now[rank] * advantage[t - 1]
            for k, p in enumerate(rest):
                value += p * advantage[t + k]
            by_rank[rank] = value
            if value > best + 1e-9:
                best = value
                choice = next(card for card in hand if card[0] == rank)
        values: dict[Action, float] = {play(card): by_rank[card[0]] for card in hand}
        chance = round(100 * p_now[choice[0]])
        later_best = max(by_rank) > choice[0]
        return Advice(
            play(choice),
            values,
            "points",
            "keep_strong" if later_best else "take_now",
            {"chance": chance},
        )

    def _opponent_ranks(self, view: DupeView) -> tuple[list[list[float]], list[list[float]]]:
        """Return each opponent's rank distribution for this trick (by its play style) and
        for an average later trick (evenly over its hand). Unknown hands (deal 1) are
        drawn from the cards not yet seen."""
        mem = self._memory
        now: list[list[float]] = []
        later: list[list[float]] = []
        pool: list[Card] | None = None
        styled = False
        for seat in SEATS:
            if seat == mem.me:
                continue
            hand = mem.hand_of(seat)
            if not hand:
                if pool is None:
                    seen = set(view.hand)
                    for cards in mem.played:
                        seen.update(cards)
                    pool = [card for card in DECK if card not in seen]
                hand = pool
            even = [0.0] * 15
            share = 1 / len(hand)
            for card in hand:
                even[card[0]] += share
            later.append(even)
            if hand is pool or len(hand) < 2:
                now.append(even)
                continue
            hand = sorted(hand)
            styles = mem.style_weights(seat, len(hand))
            tilted = [0.0] * 15
            for weight, row in zip(styles, _style_table(hand), strict=True):
                if weight < 1e-3:
                    continue
                scale = weight / sum(row)
                for card, w in zip(hand, row, strict=True):
                    tilted[card[0]] += w * scale
            total = sum(tilted)
            now.append([x / total for x in tilted])
            styled = True
        return (now if styled else later), later
