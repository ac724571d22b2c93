"""The ``basic`` player: sound rules of thumb, from the seat's view alone.

- **Reservations.** A solo when one type gives at least 9 trumps with three of the top four
  (or, for queens and jacks solos, six of the eight); a marriage (tournament: announced when the
  rest of the hand is weak, played silently when strong); house: poverty with 3 trumps or
  fewer, a misdeal when allowed; a poverty is accepted with 8 trumps or more.
- **Announcements.** Re or Contra at the first chance with a strong hand (7 trumps or more,
  two of them ♥10 or ♣Q), No 90 on top with 9 trumps or more.
- **Play.** Lead a side ace in a suit nobody has played yet, else a low trump. When the trick
  is the partner's (a known partner: a played ♣Q, an announcement, a declared game), add
  points ("feed" it) with the cheapest card that does not take it over; when it is the
  opponents', take it with the lowest card that wins if it is worth it (10 points or more, or
  the seat plays last), else throw the card worth least.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from engine.cards import Card, Rank, parse_card
from engine.doppelkopf.orders import ORDERS, POINTS, TRUMP, Order, order_for
from engine.doppelkopf.rules import Action, DoppelkopfView, parse_action

__all__ = ["BasicPlayer"]

NORMAL = ORDERS["normal"]
TOP = {parse_card("TH"), parse_card("QC")}


def _trumps(hand: Sequence[Card], order: Order) -> int:
    return sum(1 for c in hand if order.is_trump(c))


def solo_strength(hand: Sequence[Card], preset: str, kind: str) -> float:
    """Return how strong ``hand`` is for a solo of ``kind`` (higher is stronger)."""
    order = order_for(preset, f"solo:{kind}")
    trumps = [c for c in hand if order.is_trump(c)]
    if kind in ("queens", "jacks"):
        return len(trumps) / 6
    if kind in ("fleshless", "no-trump"):
        aces = sum(1 for c in hand if c.rank == Rank.ACE)
        tens = sum(1 for c in hand if c.rank == Rank.TEN)
        return (aces + 0.5 * tens) / 7
    if kind == "international":
        return len(trumps) / 10
    top = sorted(order.trumps[:4])
    tops = sum(1 for c in trumps if c in top)
    return min(len(trumps) / 9, tops / 3)


class BasicPlayer:
    """Rules of thumb (see the module)."""

    name = "basic"

    def __init__(self, seed: int) -> None:
        self._rng = random.Random(seed)

    def observe(self, view: DoppelkopfView) -> None:
        """Take in a view without acting: this player keeps no memory beyond the view."""

    def act(self, view: DoppelkopfView) -> Action:
        """Return this seat's decision."""
        legal = view.legal
        texts = {str(a): a for a in legal}
        data = view.data
        phase = data["phase"]
        hand = list(view.hand)
        preset = data["preset"]
        if phase in ("reservations", "forced"):
            return self._reserve(texts, hand, preset, forced=phase == "forced")
        if phase == "declarations":
            wanted = self._house_bid(hand, legal_words=None)
            return texts["reservation" if wanted else "no-reservation"]
        if phase == "bidding":
            wanted = self._house_bid(hand, legal_words=set(texts))
            return texts[wanted] if wanted in texts else texts["withdraw"]
        if phase == "solo-type":
            kinds = [t[5:] for t in texts]
            best = max(kinds, key=lambda k: solo_strength(hand, preset, k))
            return texts[f"solo:{best}"]
        if phase == "poverty-offer":
            return min(legal, key=lambda a: (sum(POINTS[c] for c in a.cards), str(a)))
        if phase == "poverty-answers":
            return texts["accept" if _trumps(hand, NORMAL) >= 8 else "decline"]
        if phase == "poverty-return":
            return min(
                legal,
                key=lambda a: (
                    sum(1 for c in a.cards if NORMAL.is_trump(c)),
                    sum(POINTS[c] for c in a.cards),
                    str(a),
                ),
            )
        return self._play(view, texts, hand)

    # --- before play ---------------------------------------------------------------------

    def _reserve(
        self, texts: dict[str, Action], hand: list[Card], preset: str, *, forced: bool
    ) -> Action:
        solos = [t[5:] for t in texts if t.startswith("solo:")]
        best = max(solos, key=lambda k: solo_strength(hand, preset, k))
        if forced or solo_strength(hand, preset, best) >= 1:
            return texts[f"solo:{best}"]
        if "marriage" in texts and _trumps(hand, NORMAL) < 8:
            return texts["marriage"]
        return texts["healthy"]

    def _house_bid(
        self, hand: list[Card], legal_words: set[str] | None, *, solo: bool = True
    ) -> str | None:
        """Return the bid this hand wants (``None``: none), among ``legal_words`` if given;
        ``solo``: whether a solo is among the wishes at all."""
        trumps = _trumps(hand, NORMAL)
        nines = sum(1 for c in hand if c.rank == Rank.NINE)
        wishes: list[str] = []
        kinds = ("trump", "clubs", "spades", "hearts", "diamonds", "queens", "jacks")
        if solo and max(solo_strength(hand, "house", k) for k in kinds) >= 1:
            wishes.append("solo")
        if trumps == 0 or nines >= 5:
            wishes.append("misdeal")
        if trumps <= 3:
            wishes.append("poverty")
        if hand.count(parse_card("QC")) == 2 and trumps < 8:
            wishes.append("marriage:trick")
        for wish in wishes:
            if legal_words is None or wish in legal_words:
                return wish
        return None

    # --- card play -------------------------------------------------------------------------

    def _play(self, view: DoppelkopfView, texts: dict[str, Action], hand: list[Card]) -> Action:
        data = view.data
        seat = view.seat
        order = order_for(data["preset"], data["game"])
        announce = [a for a in texts.values() if a.kind in ("re", "contra", "no90")]
        cards = [a for a in texts.values() if a.card is not None]
        if announce and self._strong(hand, order, announce[0].kind):
            return announce[0]
        if not cards:
            return announce[0] if announce else next(iter(texts.values()))
        known = view.parties()
        party = known.get(seat) if seat is not None else None
        partners = {s for s, p in known.items() if p == party and s != seat} if party else set()
        trick = [(s, parse_card(code)) for s, code in data["trick"]]
        legal_cards = [a.card for a in cards if a.card is not None]
        if not trick:
            return _card(texts, self._lead(legal_cards, order, data))
        winner_seat, winner_card = _winning(trick, order)
        last = len(trick) == 3
        worth = sum(POINTS[c] for _, c in trick)
        beating = [c for c in legal_cards if _beats(c, winner_card, trick[0][1], order)]
        if winner_seat in partners:
            safe = [c for c in legal_cards if c not in beating or not order.is_trump(c)]
            pool = safe or legal_cards
            return _card(
                texts, max(pool, key=lambda c: (POINTS[c] - 5 * order.is_trump(c), -order.power[c]))
            )
        if beating and (worth >= 10 or last):
            return _card(texts, min(beating, key=lambda c: (order.power[c], POINTS[c])))
        return _card(
            texts, min(legal_cards, key=lambda c: (POINTS[c], order.is_trump(c), order.power[c]))
        )

    def _strong(self, hand: list[Card], order: Order, kind: str) -> bool:
        trumps = [c for c in hand if order.is_trump(c)]
        tops = sum(1 for c in trumps if c in TOP)
        if kind in ("re", "contra"):
            return len(trumps) >= 7 and tops >= 2
        return len(trumps) >= 9 and tops >= 3

    def _lead(self, cards: list[Card], order: Order, data: dict[str, object]) -> Card:
        side_aces = [c for c in cards if c.rank == Rank.ACE and not order.is_trump(c)]
        if side_aces:
            return self._rng.choice(sorted(side_aces))
        trumps = [c for c in cards if order.is_trump(c)]
        if trumps:
            return min(trumps, key=lambda c: (order.power[c], POINTS[c]))
        return min(cards, key=lambda c: (POINTS[c], order.power[c]))


def _card(texts: dict[str, Action], card: Card) -> Action:
    return texts.get(card.code) or parse_action(card.code)


def _winning(trick: list[tuple[int, Card]], order: Order) -> tuple[int, Card]:
    index = order.winner([c for _, c in trick])
    return trick[index]


def _beats(card: Card, best: Card, led: Card, order: Order) -> bool:
    """Whether ``card``, played now, would take the trick from ``best`` (ties: the card
    already played wins)."""
    if order.group[card] == TRUMP:
        return order.group[best] != TRUMP or order.power[card] > order.power[best]
    if order.group[best] == TRUMP:
        return False
    return order.group[card] == order.group[led] and order.power[card] > order.power[best]
