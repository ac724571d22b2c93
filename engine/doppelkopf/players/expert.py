"""The ``expert`` player: card play, announcements and solos by sampling the unseen hands.

It remembers every trick it sees in its views (a person at the table remembers the cards
played; the view shows only the current and the last trick) and, from them, which seats
cannot follow which suit. Three ideas, each measured alone by ``bench/doppelkopf_ideas.py``
(400 tournament tables of 4 games against three ``basic`` players, seats rotated):

1. **Card play by sampling** (+4.53 per table, 95 % CI [3.53, 5.53]). For a card decision it
   deals the cards it has not seen to the other seats :data:`SAMPLES` times, consistently
   with those voids and with each seat's number of cards, plays each legal card out to the
   end of the game in every sample with quick rules of thumb for all four seats, and plays
   the card whose samples give its party the most card points over the other party. Parties
   in a sample are the known ones (a declared game, a played ♣Q, an announcement, its own)
   and, in a normal game, the seats holding a ♣Q in that sample.
2. **Announcements by expected value** (with 1: +6.50 [5.49, 7.51]). When it may announce,
   it plays :data:`ANNOUNCE_SAMPLES` sampled deals out, scores each with the preset's own
   scoring (``engine.doppelkopf.scoring``) with and without the announcement, and announces
   when that gains at least the preset's :data:`ANNOUNCE_MARGIN` points on average and its
   party wins in at least the preset's :data:`ANNOUNCE_WINS` of the deals. A soloist or an
   announcer of the other party chose so for its hand, so each deal is the one of
   :data:`STRONG_TRIES` that gives it the most trumps: with random hands for them the house
   expert announced Contra against nearly every solo and lost by it (each Re or Contra
   doubles the house score). Measured against the same expert never announcing
   (``--variants expert,silent --pair expert,silent``), 60 house tables: +11.17 per table
   [7.93, 14.41], +1.55 per game.
3. **Solos by expected value** (with 1: +6.38 [5.59, 7.18]). Before play it deals the other
   hands :data:`GAME_SAMPLES` times and plays out the normal game (a silent marriage when it
   holds both ♣Q) and the three solo types its hand suits best; a solo when one beats the
   normal game by :data:`SOLO_MARGIN`. The same estimate answers the house declaration and
   bid, the house solo type and a forced solo (the best type, whatever it is worth); the
   marriage, poverty and misdeal choices are ``basic``'s.

All three: +8.03 per table [7.07, 8.99] over the same 400 tables; over 4,000 tables
+8.07 [7.76, 8.37], that is +2.02 points per game (before the announcements leaned to shown
strength and the claims). The bench switches the ideas off one at a time through the
constructor's ``announcements`` and ``solos`` flags (off: ``basic``'s choices), and
announcing altogether through ``silent``.

As the soloist it **claims** (all remaining tricks) or **concedes** when the engine's exact
claim check would hold for every deal its view allows (:mod:`.endings`), so a claim of its
is never refused; before a claim it makes every announcement left, each a sure point.
It also **advises** (:meth:`ExpertPlayer.advise`, hints and reviews): the same sampling, from
one seat's view, with the expected score of each action weighed.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from engine.cards import Card, parse_card
from engine.doppelkopf.orders import ORDERS, POINTS, TRUMP, Order, double_pack, order_for
from engine.doppelkopf.players.basic import BasicPlayer, solo_strength
from engine.doppelkopf.players.endings import Ending, claim_holds, concession_due
from engine.doppelkopf.rules import ANNOUNCEMENTS, HOUSE_SOLOS, Action, DoppelkopfView
from engine.doppelkopf.scoring import Facts, score
from engine.game import Advice

__all__ = ["ExpertPlayer"]

CLUB_QUEEN = parse_card("QC")
SAMPLES = 20
"""Sampled deals per card decision."""
GAME_SAMPLES = 24
"""Sampled deals per candidate game (normal, and each solo worth a look) before play."""
ADVICE_SAMPLES = 40
"""Sampled deals per card decision when advising (a hint or a review)."""
ANNOUNCE_SAMPLES = 32
"""Sampled deals per announcement decision."""
SOLO_MARGIN = 1.0
"""A solo is declared when its expected score beats the normal game's by this much."""
ANNOUNCE_MARGIN = {"tournament": 0.3, "house": 1.0}
"""By preset: an announcement is made when it gains at least this much expected score…"""
ANNOUNCE_WINS = {"tournament": 0.0, "house": 0.8}
"""…and its party wins in at least this share of the sampled deals (house: each Re or
Contra doubles the whole score, so a close call loses more when it fails than it gains)."""
STRONG_TRIES = 6
"""When weighing an announcement, each sampled deal is the one of this many that gives the
seats that showed strength (a soloist, an announcer of the other party) the most trumps."""
SOLO_LOOK = 0.6
"""Solos are looked at only when the rule-of-thumb strength of the best one reaches this."""

NORMAL = ORDERS["normal"]
_CHOOSING = frozenset({"reservations", "forced", "declarations", "bidding", "solo-type"})
_NORMAL_GAMES = ("normal", "marriage", "poverty")


@dataclass
class _Position:
    """What the seat knows of the card play at one moment."""

    seat: int
    preset: str
    game: str
    soloist: int | None
    order: Order
    seats: list[int]
    known: dict[int, str]
    history: list[list[tuple[int, Card]]]
    current: list[tuple[int, Card]]
    voids: dict[int, set[int]]
    hand: list[Card]
    unseen: list[Card]
    left: Sequence[int]

    @property
    def others(self) -> list[int]:
        return [s for s in self.seats if s != self.seat]


class ExpertPlayer:
    """See the module."""

    name = "expert"

    def __init__(
        self,
        seed: int,
        *,
        announcements: bool = True,
        solos: bool = True,
        silent: bool = False,
        solo_margin: float = SOLO_MARGIN,
        announce_margin: float | None = None,
        announce_wins: float | None = None,
    ) -> None:
        # announcements, solos: the expected-value decisions (off: the basic player's rules
        # of thumb), switched off one at a time by bench/doppelkopf_ideas.py; silent: never
        # announces (what announcing is worth is measured against it);
        # the announcement thresholds default to the preset's (ANNOUNCE_MARGIN, ANNOUNCE_WINS)
        self._announcements, self._solos, self._silent = announcements, solos, silent
        self._solo_margin = solo_margin
        self._announce_margin, self._announce_wins = announce_margin, announce_wins
        self._seed = seed
        self._rng = random.Random(seed)
        self._basic = BasicPlayer(seed)
        self._deal = -1
        self._tricks: dict[int, list[tuple[int, Card]]] = {}
        self._plan: tuple[str | None, float] | None = None

    def observe(self, view: DoppelkopfView) -> None:
        """Remember the tricks the view shows."""
        self._remember(view)

    def _remember(self, view: DoppelkopfView) -> None:
        data = view.data
        if data["deal"] != self._deal:
            self._deal = data["deal"]
            self._tricks = {}
            self._plan = None
        number = data.get("trick_number")
        if number is None:
            return
        last = data.get("last_trick")
        if last:
            self._tricks[number - 1] = [(s, parse_card(c)) for s, c in last["plays"]]
        self._tricks[number] = [(s, parse_card(c)) for s, c in data["trick"]]

    def act(self, view: DoppelkopfView) -> Action:
        """Return this seat's decision."""
        self._remember(view)
        phase = view.data["phase"]
        if phase in _CHOOSING and self._solos:
            return self._choose_game(view)
        if phase != "play":
            return self._basic.act(view)
        cards = [a for a in view.legal if a.card is not None]
        announcement = next((a for a in view.legal if a.kind in ANNOUNCEMENTS), None)
        ending = self._ending_call(view)
        if ending is not None:
            # every trick is sure: each announcement first is a free point
            if ending.kind == "claim" and announcement is not None and not self._silent:
                return announcement
            return ending
        if announcement is not None and self._announces(view, announcement):
            return announcement
        if len(cards) <= 1:
            return cards[0] if cards else view.legal[0]
        return self._choose_card(view, cards)

    def _announces(self, view: DoppelkopfView, announcement: Action) -> bool:
        """Whether to make ``announcement`` now: never when silent, by expected value
        (:meth:`_worth_announcing`), or with the expected-value idea off by ``basic``'s
        rules of thumb."""
        if self._silent:
            return False
        if self._announcements:
            return self._worth_announcing(view, announcement)
        return self._basic.act(view) == announcement

    def _ending_call(self, view: DoppelkopfView) -> Action | None:
        """A claim or a concession when this seat is the soloist and its exact check says
        so for every deal it may be facing (:mod:`engine.doppelkopf.players.endings`)."""
        texts = {a.kind: a for a in view.legal if a.kind in ("claim", "concede")}
        if "claim" not in texts:
            return None
        pos = self._position(view)
        leader = view.data["leader"]
        ending = Ending(
            pos.order,
            pos.seat,
            pos.hand,
            pos.unseen,
            pos.left,
            pos.voids,
            pos.current,
            pos.seat if leader is None else leader,
            pos.seats,
        )
        if claim_holds(ending):
            return texts["claim"]
        if concession_due(ending):
            return texts["concede"]
        return None

    # --- advice ---------------------------------------------------------------------------

    def advise(self, view: DoppelkopfView, compare: Action | None = None) -> Advice[Action]:
        """Return the expert's choice for the decision in ``view`` and each weighed action's
        expected score for this seat, over deals sampled from the view and the tricks it
        remembers (never the state), ``compare`` among them. The same view and memory give
        the same advice: its samples are drawn from the seed and the decision point."""
        self._remember(view)
        rng = _decision_rng(self._seed, view, "advice")
        phase = view.data["phase"]
        if phase == "play" and any(a.card is not None for a in view.legal):
            return self._advise_play(view, compare, rng)
        if phase in _CHOOSING:
            return self._advise_game(view, compare, rng)
        choice = self._basic.act(view)
        return Advice(choice, {choice: 0.0, **({compare: 0.0} if compare else {})}, "points")

    def _advise_play(
        self, view: DoppelkopfView, compare: Action | None, rng: random.Random
    ) -> Advice[Action]:
        """Card play: every legal card played out on :data:`ADVICE_SAMPLES` sampled deals
        and scored by the preset's scoring; an announcement is worth the best card and its
        sampled gain; a claim or concession the score of all remaining tricks going so."""
        pos = self._position(view)
        data = view.data
        cards = [a for a in view.legal if a.card is not None]
        said: dict[str, tuple[str, ...]] = {"re": (), "contra": ()}
        for a in data["announcements"]:
            said[a["party"]] += (a["kind"],)
        normal = pos.game in _NORMAL_GAMES
        nxt = _next_seat(pos.seats)
        values = dict.fromkeys(cards, 0.0)
        margins = dict.fromkeys(cards, 0.0)  # card points over the other party: ties
        ends = {a: 0.0 for a in view.legal if a.kind in ("claim", "concede")}
        announcement = next((a for a in view.legal if a.kind in ANNOUNCEMENTS), None)
        more = dict(said)
        party = pos.known.get(pos.seat)
        if announcement is not None and party is not None:
            more[party] = (*said[party], announcement.kind)
        claim_more = 0.0  # announcing, then claiming
        left = sum(POINTS[c] for c in pos.unseen) + sum(POINTS[c] for c in pos.hand)
        left += sum(POINTS[c] for _, c in pos.current)
        tricks_left = len(pos.hand) + (1 if pos.current else 0)
        for _ in range(ADVICE_SAMPLES):
            hands, parties = self._sample(pos, rng)
            mine = parties[pos.seat]
            other = "contra" if mine == "re" else "re"
            taken, won = _taken(pos.order, pos.history, parties)
            for action in cards:
                assert action.card is not None
                held = dict(hands)
                held[pos.seat] = list(hands[pos.seat])
                held[pos.seat].remove(action.card)
                points, tricks = dict(taken), dict(won)
                trick = [*pos.current, (pos.seat, action.card)]
                _finish(pos.order, held, trick, nxt[pos.seat], pos.seats, parties, points, tricks)
                _, _, value = score(pos.preset, Facts(points, tricks, said), normal=normal)
                values[action] += _share(value, pos.seat, parties, pos.soloist, normal)
                margins[action] += points[mine] - points[other]
            for action in ends:
                side = mine if action.kind == "claim" else other
                points, tricks = dict(taken), dict(won)
                points[side] += left
                tricks[side] += tricks_left
                _, _, value = score(pos.preset, Facts(points, tricks, said), normal=normal)
                ends[action] += _share(value, pos.seat, parties, pos.soloist, normal)
                if action.kind == "claim":
                    _, _, value = score(pos.preset, Facts(points, tricks, more), normal=normal)
                    claim_more += _share(value, pos.seat, parties, pos.soloist, normal)
        means = {a: v / ADVICE_SAMPLES for a, v in {**values, **ends}.items()}
        best = max(cards, key=lambda a: (values[a], margins[a], -POINTS[a.card] if a.card else 0))
        ending = self._ending_call(view)
        choice = ending or best
        if ending is not None and ending.kind == "claim" and announcement is not None:
            if not self._silent:
                choice = announcement
            means[announcement] = claim_more / ADVICE_SAMPLES
        elif announcement is not None and not self._silent:
            weighed = self._announcement_gain(view, announcement, rng)
            if weighed is not None:
                means[announcement] = means[best] + weighed[0]
                if choice == best and self._announces_by(view, weighed):
                    choice = announcement
        if compare is not None and compare not in means:
            means[compare] = means[best]  # an action not weighed (none is left): as the best
        return Advice(choice, means, "points", "sampled", {"deals": ADVICE_SAMPLES})

    def _announces_by(self, view: DoppelkopfView, weighed: tuple[float, float]) -> bool:
        """Whether an announcement weighed so (its gain, its party's share of wins) is made."""
        preset = view.data["preset"]
        margin = self._announce_margin
        share = self._announce_wins
        return weighed[0] >= (ANNOUNCE_MARGIN[preset] if margin is None else margin) and (
            weighed[1] >= (ANNOUNCE_WINS[preset] if share is None else share)
        )

    def _advise_game(
        self, view: DoppelkopfView, compare: Action | None, rng: random.Random
    ) -> Advice[Action]:
        """Reservations, declarations, bids, the solo type: the normal game and each solo
        type offered played out on :data:`GAME_SAMPLES` sampled deals; a word that keeps the
        normal game (healthy, a marriage, no reservation, a withdrawal…) is worth the normal
        game, one that asks for a solo its best type."""
        own_rng, plan = self._rng, self._plan
        self._rng, self._plan = rng, None
        try:
            choice = self._choose_game(view) if self._solos else self._basic.act(view)
        finally:
            self._rng, self._plan = own_rng, plan
        data = view.data
        seat = view.seat
        assert seat is not None
        preset = data["preset"]
        hand = list(view.hand)
        kinds = [str(a)[5:] for a in view.legal if str(a).startswith("solo:")] or list(HOUSE_SOLOS)
        seats = [s for s in range(data["players"]) if s != data["sitting_out"]]
        n, dealer = data["players"], data["dealer"]
        first = next(s for s in ((dealer + i) % n for i in range(1, n + 1)) if s in seats)
        solo_lead = seat if preset == "house" or data["phase"] == "forced" else first
        totals = _game_totals(rng, preset, hand, seats, seat, first, solo_lead, kinds)
        mean = {k: v / GAME_SAMPLES for k, v in totals.items()}
        best_solo = max(kinds, key=lambda k: (mean[k], k))
        values: dict[Action, float] = {}
        for action in view.legal:
            text = str(action)
            if text.startswith("solo:"):
                values[action] = mean[text[5:]]
            elif text == "solo":
                values[action] = mean[best_solo]
            elif text == "reservation":  # a solo or another bid: whichever is worth more
                values[action] = max(mean[best_solo], mean[""])
            else:
                values[action] = mean[""]
        return Advice(choice, values, "points", "sampled", {"deals": GAME_SAMPLES})

    # --- card play -------------------------------------------------------------------------

    def _position(self, view: DoppelkopfView) -> _Position:
        data = view.data
        seat = view.seat
        assert seat is not None
        order = order_for(data["preset"], data["game"])
        number = data["trick_number"]
        current = list(self._tricks.get(number, []))
        history = [self._tricks[n] for n in sorted(self._tricks) if n < number]
        hand = list(view.hand)
        unseen = double_pack()
        for card in hand + [c for trick in [*history, current] for _, c in trick]:
            if card in unseen:
                unseen.remove(card)
        return _Position(
            seat=seat,
            preset=data["preset"],
            game=data["game"],
            soloist=data["soloist"],
            order=order,
            seats=[s for s in range(data["players"]) if s != data["sitting_out"]],
            known=view.parties(),
            history=history,
            current=current,
            voids=_voids([*history, current], order),
            hand=hand,
            unseen=unseen,
            left=data["cards_left"],
        )

    def _sample(
        self, pos: _Position, rng: random.Random | None = None
    ) -> tuple[dict[int, list[Card]], dict[int, str]]:
        """Deal the unseen cards to the other seats consistently with what is known (with
        ``rng``, default the card play's); return the hands and the parties of that deal."""
        rng = rng or self._rng
        others = pos.others
        pool = list(pos.unseen)
        rng.shuffle(pool)
        pool = pool[: sum(pos.left[s] for s in others)]
        hands = _deal(pool, others, pos.left, pos.voids, rng, pos.order.group)
        hands[pos.seat] = list(pos.hand)
        parties = _parties(pos.known, hands, pos.seats, pos.game, pos.history, pos.current)
        return hands, parties

    def _choose_card(self, view: DoppelkopfView, cards: list[Action]) -> Action:
        pos = self._position(view)
        scores = {a: 0.0 for a in cards}
        for _ in range(SAMPLES):
            hands, parties = self._sample(pos)
            mine = parties[pos.seat]
            for action in cards:
                assert action.card is not None
                points = _play_out(
                    pos.order, hands, pos.current, pos.seat, action.card, pos.seats, parties
                )
                scores[action] += points[mine] - points["contra" if mine == "re" else "re"]
        return max(cards, key=lambda a: (scores[a], -POINTS[a.card] if a.card else 0, str(a)))

    # --- announcements ---------------------------------------------------------------------

    def _worth_announcing(self, view: DoppelkopfView, action: Action) -> bool:
        """Whether announcing ``action`` now, over :data:`ANNOUNCE_SAMPLES` sampled deals
        played out, gains at least the preset's :data:`ANNOUNCE_MARGIN` in expected score
        with its party winning in at least the preset's :data:`ANNOUNCE_WINS` of them."""
        weighed = self._announcement_gain(view, action, _decision_rng(self._seed, view, "say"))
        return weighed is not None and self._announces_by(view, weighed)

    def _announcement_gain(
        self, view: DoppelkopfView, action: Action, rng: random.Random
    ) -> tuple[float, float] | None:
        """Return what announcing ``action`` now gains in expected score over the sampled
        deals, and the share of them its party wins (``None``: its party is unknown)."""
        pos = self._position(view)
        party = pos.known.get(pos.seat)
        if party is None:
            return None
        said: dict[str, tuple[str, ...]] = {"re": (), "contra": ()}
        for a in view.data["announcements"]:
            said[a["party"]] += (a["kind"],)
        more = dict(said)
        more[party] = (*said[party], action.kind)
        normal = pos.game in _NORMAL_GAMES
        gain = 0.0
        wins = 0
        # A soloist or an announcer chose so for its hand: deals that give it a random hand
        # make its opponents far too hopeful (the house expert announced Contra against
        # nearly every solo), so the deals lean to ones that show its strength.
        strong = {a["seat"] for a in view.data["announcements"] if a["party"] != party}
        if pos.soloist is not None and pos.soloist != pos.seat:
            strong.add(pos.soloist)
        trump = pos.order.is_trump
        for _ in range(ANNOUNCE_SAMPLES):
            hands, parties = self._sample(pos, rng)
            for _ in range(STRONG_TRIES - 1 if strong else 0):
                other, other_parties = self._sample(pos, rng)
                if sum(trump(c) for s in strong for c in other[s]) > sum(
                    trump(c) for s in strong for c in hands[s]
                ):
                    hands, parties = other, other_parties
            points, tricks = _taken(pos.order, pos.history, parties)
            nxt = _next_seat(pos.seats)
            player = nxt[pos.current[-1][0]] if pos.current else pos.seat
            _finish(pos.order, hands, list(pos.current), player, pos.seats, parties, points, tricks)
            _, _, value = score(pos.preset, Facts(points, tricks, more), normal=normal)
            after = _share(value, pos.seat, parties, pos.soloist, normal)
            _, _, value = score(pos.preset, Facts(points, tricks, said), normal=normal)
            gain += after - _share(value, pos.seat, parties, pos.soloist, normal)
            wins += after > 0
        return gain / ANNOUNCE_SAMPLES, wins / ANNOUNCE_SAMPLES

    # --- reservations and bids -------------------------------------------------------------

    def _choose_game(self, view: DoppelkopfView) -> Action:
        """Reservations, house declarations and bids, the solo type: a solo when its sampled
        expected score beats the normal game's by :data:`SOLO_MARGIN`, otherwise the
        ``basic`` player's choice without its solo."""
        data = view.data
        phase = data["phase"]
        texts = {str(a): a for a in view.legal}
        hand = list(view.hand)
        if phase in ("forced", "solo-type"):
            kind, _ = self._solo_plan(view, forced=True)
            assert kind is not None
            return texts[f"solo:{kind}"]
        kind, gain = self._solo_plan(view, forced=False)
        wants_solo = kind is not None and gain >= self._solo_margin
        if phase == "reservations":
            if wants_solo:
                return texts[f"solo:{kind}"]
            if "marriage" in texts and sum(1 for c in hand if NORMAL.is_trump(c)) < 8:
                return texts["marriage"]
            return texts["healthy"]
        wish = self._basic._house_bid(
            hand, None if phase == "declarations" else set(texts), solo=False
        )
        if phase == "declarations":
            return texts["reservation" if wants_solo or wish else "no-reservation"]
        if wants_solo and "solo" in texts:
            return texts["solo"]
        return texts[wish] if wish in texts else texts["withdraw"]

    def _solo_plan(self, view: DoppelkopfView, *, forced: bool) -> tuple[str | None, float]:
        """Return the best solo type for this hand and how much its expected score beats the
        normal game's (``forced``: the best type whatever it is worth). Remembered for the
        deal: a house player's declaration, bid and solo type ask the same question."""
        if self._plan is not None and (not forced or self._plan[0] is not None):
            return self._plan
        data = view.data
        seat = view.seat
        assert seat is not None
        preset = data["preset"]
        hand = list(view.hand)
        kinds = [str(a)[5:] for a in view.legal if str(a).startswith("solo:")]
        if not kinds:
            kinds = list(HOUSE_SOLOS)
        strength = {k: solo_strength(hand, preset, k) for k in kinds}
        ranked = sorted(kinds, key=lambda k: (-strength[k], k))
        if not forced and strength[ranked[0]] < SOLO_LOOK:
            self._plan = (None, 0.0)
            return self._plan
        look = ranked[:4] if forced else [k for k in ranked[:3] if strength[k] >= SOLO_LOOK / 2]
        seats = [s for s in range(data["players"]) if s != data["sitting_out"]]
        n, dealer = data["players"], data["dealer"]
        first = next(s for s in ((dealer + i) % n for i in range(1, n + 1)) if s in seats)
        solo_lead = seat if preset == "house" or data["phase"] == "forced" else first
        totals = _game_totals(self._rng, preset, hand, seats, seat, first, solo_lead, look)
        best = max(look, key=lambda k: (totals[k], k))
        self._plan = (best, (totals[best] - totals[""]) / GAME_SAMPLES)
        return self._plan


def _decision_rng(seed: int, view: DoppelkopfView, purpose: str) -> random.Random:
    """Return a generator drawn from ``seed`` and the decision point of ``view``: announcements
    and advice sample with it, so card play stays the same whether or not they are weighed
    (announcing is measured against not announcing on equal deals), the same view gets the
    same advice, and no generator is kept between decisions."""
    data = view.data
    point = f"{data['deal']}:{data['phase']}:{data['trick_number']}:{data['trick']}"
    return random.Random(f"{seed}:{purpose}:{point}:{sorted(view.hand)}")


def _next_seat(seats: list[int]) -> dict[int, int]:
    return {s: seats[(i + 1) % len(seats)] for i, s in enumerate(seats)}


def _share(
    value: int, seat: int, parties: dict[int, str], soloist: int | None, normal: bool
) -> float:
    """Return ``seat``'s score when Re's value is ``value``."""
    if soloist is not None and not normal:
        return 3 * value if seat == soloist else -value
    return value if parties[seat] == "re" else -value


def _taken(
    order: Order, history: Sequence[Sequence[tuple[int, Card]]], parties: dict[int, str]
) -> tuple[dict[str, int], dict[str, int]]:
    """Return the card points and tricks each party took in the completed ``history``."""
    points = {"re": 0, "contra": 0}
    tricks = {"re": 0, "contra": 0}
    for plays in history:
        if len(plays) < 4:
            continue
        win = plays[order.winner([c for _, c in plays])][0]
        points[parties[win]] += sum(POINTS[c] for _, c in plays)
        tricks[parties[win]] += 1
    return points, tricks


def _normal_value(
    preset: str, hands: dict[int, list[Card]], seats: list[int], seat: int, first: int
) -> float:
    """``seat``'s score of a normal game (a silent marriage when it holds both ♣Q) on the
    sampled ``hands`` played out by the quick rules."""
    holders = [s for s in seats if CLUB_QUEEN in hands[s]]
    alone = len(holders) == 1
    parties = {s: "re" if s in holders else "contra" for s in seats}
    points = {"re": 0, "contra": 0}
    tricks = {"re": 0, "contra": 0}
    _finish(NORMAL, hands, [], first, seats, parties, points, tricks)
    announced: dict[str, tuple[str, ...]] = {"re": (), "contra": ()}
    _, _, value = score(preset, Facts(points, tricks, announced), normal=not alone)
    return _share(value, seat, parties, holders[0] if alone else None, not alone)


def _game_totals(
    rng: random.Random,
    preset: str,
    hand: list[Card],
    seats: list[int],
    seat: int,
    first: int,
    solo_lead: int,
    kinds: Sequence[str],
) -> dict[str, float]:
    """Return what ``seat`` holding ``hand`` scores in all, over :data:`GAME_SAMPLES` deals
    of the unseen cards, in the normal game (``""``) and in each solo of ``kinds``."""
    unseen = double_pack()
    for card in hand:
        unseen.remove(card)
    others = [s for s in seats if s != seat]
    totals = dict.fromkeys(["", *kinds], 0.0)
    for _ in range(GAME_SAMPLES):
        pool = list(unseen)
        rng.shuffle(pool)
        hands = {s: pool[12 * i : 12 * i + 12] for i, s in enumerate(others)}
        hands[seat] = list(hand)
        totals[""] += _normal_value(preset, hands, seats, seat, first)
        for kind in kinds:
            order = order_for(preset, f"solo:{kind}")
            totals[kind] += _solo_value(preset, order, hands, seats, seat, solo_lead)
    return totals


def _solo_value(
    preset: str, order: Order, hands: dict[int, list[Card]], seats: list[int], seat: int, lead: int
) -> float:
    """``seat``'s score of a solo of ``order`` on the sampled ``hands``."""
    parties = {s: "re" if s == seat else "contra" for s in seats}
    points = {"re": 0, "contra": 0}
    tricks = {"re": 0, "contra": 0}
    _finish(order, hands, [], lead, seats, parties, points, tricks)
    announced: dict[str, tuple[str, ...]] = {"re": (), "contra": ()}
    _, _, value = score(preset, Facts(points, tricks, announced), normal=False)
    return 3.0 * value


def _voids(tricks: Sequence[Sequence[tuple[int, Card]]], order: Order) -> dict[int, set[int]]:
    voids: dict[int, set[int]] = {}
    for plays in tricks:
        if not plays:
            continue
        led = order.group[plays[0][1]]
        for s, card in plays[1:]:
            if order.group[card] != led:
                voids.setdefault(s, set()).add(led)
    return voids


def _deal(
    pool: list[Card],
    others: list[int],
    left: Sequence[int],
    voids: dict[int, set[int]],
    rng: random.Random,
    group: dict[Card, int],
) -> dict[int, list[Card]]:
    """Deal ``pool`` to ``others`` (``left[s]`` cards each), honouring known voids where it
    can (most constrained seat first)."""
    for _ in range(20):
        rest = list(pool)
        rng.shuffle(rest)
        hands: dict[int, list[Card]] = {}
        ok = True
        for s in sorted(others, key=lambda s: -len(voids.get(s, ()))):
            banned = voids.get(s, set())
            allowed = [c for c in rest if group[c] not in banned]
            if len(allowed) < left[s]:
                ok = False
                break
            take = allowed[: left[s]]
            for c in take:
                rest.remove(c)
            hands[s] = take
        if ok:
            return hands
    rest = list(pool)
    hands = {}
    for s in others:
        hands[s], rest = rest[: left[s]], rest[left[s] :]
    return hands


def _parties(
    known: dict[int, str],
    hands: dict[int, list[Card]],
    seats: list[int],
    game: str,
    history: Sequence[Sequence[tuple[int, Card]]],
    current: Sequence[tuple[int, Card]],
) -> dict[int, str]:
    if game != "normal":
        return {s: known.get(s, "contra") for s in seats}
    played_queen = {s for plays in [*history, current] for s, c in plays if c == CLUB_QUEEN}
    parties = {}
    for s in seats:
        if s in known:
            parties[s] = known[s]
        elif CLUB_QUEEN in hands.get(s, ()) or s in played_queen:
            parties[s] = "re"
        else:
            parties[s] = "contra"
    return parties


def _play_out(
    order: Order,
    hands: dict[int, list[Card]],
    current: Sequence[tuple[int, Card]],
    seat: int,
    card: Card,
    seats: list[int],
    parties: dict[int, str],
) -> dict[str, int]:
    """Play the rest of the game from the current trick with ``seat`` playing ``card``, every
    seat by quick rules of thumb; return the card points each party takes from now on."""
    held = dict(hands)
    held[seat] = list(hands[seat])
    held[seat].remove(card)
    points = {"re": 0, "contra": 0}
    tricks = {"re": 0, "contra": 0}
    trick = [*current, (seat, card)]
    _finish(order, held, trick, _next_seat(seats)[seat], seats, parties, points, tricks)
    return points


def _finish(
    order: Order,
    hands: dict[int, list[Card]],
    trick: list[tuple[int, Card]],
    player: int,
    seats: list[int],
    parties: dict[int, str],
    points: dict[str, int],
    tricks: dict[str, int],
) -> None:
    """Play the game out from ``trick`` (``player`` to play next), every seat by quick rules
    of thumb, adding each party's card points and tricks to ``points`` and ``tricks``
    (``hands`` are not changed).

    Leading: a side ace, else the lowest trump, else the cheapest card. Following: when the
    trick is the own party's, the richest card that does not spend a trump; otherwise the
    cheapest card that takes the trick if it is worth 10 points or the seat plays last, else
    the cheapest card. One pass per card, the trick's best card kept as it goes (this is the
    inner loop of every decision)."""
    group, power = order.group, order.power
    rich, take, cheap = _keys(order)
    held = {s: list(h) for s, h in hands.items()}
    nxt = _next_seat(seats)
    party = parties
    if trick:
        led = group[trick[0][1]]
        best_seat, best = trick[0]
        for s, c in trick[1:]:
            if _beats(group, power, c, best, led):
                best_seat, best = s, c
        worth = sum(POINTS[c] for _, c in trick)
        count = len(trick)
    else:
        count = 0
    while True:
        if count == 4:
            points[party[best_seat]] += worth
            tricks[party[best_seat]] += 1
            if not held[best_seat]:
                return
            player = best_seat
            count = 0
        hand = held[player]
        if count == 0:
            choice = next((c for c in hand if c.rank == 14 and group[c] != TRUMP), None)
            if choice is None:
                trumps = [c for c in hand if group[c] == TRUMP]
                choice = min(trumps or hand, key=power.__getitem__ if trumps else cheap.__getitem__)
            led = group[choice]
            best_seat, best, worth = player, choice, POINTS[choice]
        else:
            legal = [c for c in hand if group[c] == led] or hand
            if party[best_seat] == party[player]:
                safe = [c for c in legal if group[c] != TRUMP] or legal
                choice = max(safe, key=rich.__getitem__)
            else:
                winning = [c for c in legal if _beats(group, power, c, best, led)]
                if winning and (worth >= 10 or count == 3):
                    choice = min(winning, key=take.__getitem__)
                else:
                    choice = min(legal, key=cheap.__getitem__)
            if _beats(group, power, choice, best, led):
                best_seat, best = player, choice
            worth += POINTS[choice]
        hand.remove(choice)
        count += 1
        player = nxt[player]


def _beats(
    group: dict[Card, int], power: dict[Card, int], card: Card, best: Card, led: int
) -> bool:
    """Whether ``card`` played now takes the trick from ``best`` (led group ``led``)."""
    if group[card] == TRUMP:
        return group[best] != TRUMP or power[card] > power[best]
    return group[best] != TRUMP and group[card] == led and power[card] > power[best]


_KEYS: dict[str, tuple[dict[Card, tuple[int, ...]], ...]] = {}


def _keys(order: Order) -> tuple[dict[Card, tuple[int, ...]], ...]:
    """Return the quick rules' sort keys of ``order``'s cards: the richest card, the cheapest
    card that takes a trick, the cheapest card (computed once per order)."""
    keys = _KEYS.get(order.name)
    if keys is None:
        group, power = order.group, order.power
        keys = _KEYS[order.name] = (
            {c: (POINTS[c], -power[c]) for c in power},
            {c: (power[c], POINTS[c]) for c in power},
            {c: (POINTS[c], int(group[c] == TRUMP), power[c]) for c in power},
        )
    return keys
