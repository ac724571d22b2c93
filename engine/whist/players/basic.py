"""The ``basic`` player: the classic whist maxims, from what its views show.

Leading: cash winners once the adversaries can hold no trumps, return partner's lead, draw
trumps from length, otherwise lead from the longest plain suit (the top of a sequence, else
a low card). Second hand low, but cover an honour with an honour; third hand high (the lowest
of equal cards), low when partner's card is already the best left; last hand wins as cheaply
as it can unless partner has the trick; trump when void and it is useful; discard low from a
weak plain suit. Trumps are counted: a card is "the best left" when no higher card of its
suit is against. A dummy's partner decides for both hands from the same views.

It remembers what it saw this deal (the trick in progress and the last trick in each view it
is shown), so one player object serves one player for a whole game. Humbug: it keeps a hand
with enough honours and trumps, exchanges a weak one; declaring, it names its longest suit.
Double Dummy: it never claims, and accepts a claim that leaves it at least its own winners.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence

from engine.cards import DECK, Card, Rank, Suit
from engine.whist.actions import (
    ACCEPT,
    EXCHANGE,
    KEEP,
    REJECT,
    Action,
    Kind,
    declare,
    play,
)
from engine.whist.rules import TrickRecord, WhistView

__all__ = ["BasicPlayer", "keeps"]

_HONOUR = Rank.JACK
_POINTS = {Rank.ACE: 4, Rank.KING: 3, Rank.QUEEN: 2, Rank.JACK: 1}


class _Deal:
    """What the player has seen of one deal."""

    def __init__(self, deal: int) -> None:
        self.deal = deal
        self.played: set[Card] = set()
        self.void: set[tuple[int, Suit]] = set()
        self.first_lead: dict[int, Suit] = {}
        self.tricks_seen: set[int] = set()

    def see_trick(self, cards: Sequence[tuple[int, Card]], number: int | None) -> None:
        """Remember a trick's cards, who led what first, and who showed out of the suit led."""
        if not cards:
            return
        leader, first = cards[0]
        led = first.suit
        self.first_lead.setdefault(leader, led)
        for seat, card in cards:
            self.played.add(card)
            if card.suit is not led:
                self.void.add((seat, led))
        if number is not None:
            self.tricks_seen.add(number)


class BasicPlayer:
    """Plays by the classic maxims from its views (see the module's docstring)."""

    name = "basic"

    def __init__(self, seed: int) -> None:
        self._rng = random.Random(seed)
        self._memory = _Deal(0)

    # --- memory ----------------------------------------------------------------------

    def observe(self, view: WhistView) -> None:
        """Take in what ``view`` shows (the trick in progress, the last trick)."""
        if view.deal != self._memory.deal:
            self._memory = _Deal(view.deal)
        memory = self._memory
        last: TrickRecord | None = view.last_trick
        if last is not None:
            memory.see_trick(last.cards, last.number)
        memory.see_trick(view.trick, None)

    # --- deciding --------------------------------------------------------------------

    def act(self, view: WhistView) -> Action:
        """Return this player's action for the hand ``view.seat``."""
        self.observe(view)
        legal = view.legal
        kinds = {action.kind for action in legal}
        if Kind.ACCEPT in kinds:
            return self._answer_claim(view)
        if Kind.TRUMP in kinds:
            return self._declare(view)
        if Kind.KEEP in kinds:
            return self._keep_or_exchange(view)
        cards = [a.card for a in legal if a.kind == Kind.PLAY and a.card is not None]
        if not cards:
            return legal[0]
        if len(cards) == 1:
            return play(cards[0])
        return play(self._card(view, cards))

    def _keep_or_exchange(self, view: WhistView) -> Action:
        return KEEP if keeps(view.hand, view.trump) else EXCHANGE

    def _declare(self, view: WhistView) -> Action:
        hand = view.hand

        def weight(suit: Suit) -> tuple[int, int]:
            """Return the suit's length, then its honour points, in this hand."""
            held = [c for c in hand if c.suit is suit]
            return (len(held), sum(_POINTS.get(c.rank, 0) for c in held))

        return declare(max(Suit, key=weight))

    def _answer_claim(self, view: WhistView) -> Action:
        assert view.claim is not None and view.seat is not None
        claimer, tricks = view.claim
        remaining = 13 - sum(view.tricks)
        mine = self._my_cards(view)
        theirs = self._against(view) | {
            c for s, hand in enumerate(view.hands) if hand and s % 2 == claimer % 2 for c in hand
        }
        theirs -= mine
        trump = view.trump
        sure = 0
        their_trumps = any(c.suit is trump for c in theirs)
        for card in mine:
            if their_trumps and card.suit is not trump:
                continue
            if not any(c.suit is card.suit and c.rank > card.rank for c in theirs):
                sure += 1
        return ACCEPT if remaining - tricks >= min(sure, remaining) else REJECT

    # --- cards -------------------------------------------------------------------------

    def _my_cards(self, view: WhistView) -> set[Card]:
        """Return the cards of every hand this player decides for."""
        owner = None if view.seat is None else view.controllers[view.seat]
        return {
            c
            for s, hand in enumerate(view.hands)
            if hand and view.controllers[s] == owner
            for c in hand
        }

    def _against(self, view: WhistView) -> set[Card]:
        """Return the cards still in play that may lie against this player's hands: not in
        a hand he decides for or his partner's hand on view, not seen played, not known to
        be out of play (his Humbug discard, two-hand's turned card)."""
        known = self._my_cards(view)
        seat = view.seat
        if seat is not None and view.variant not in ("humbug", "two_hand"):
            known.update(view.hands[(seat + 2) % 4] or ())
        if view.discarded:
            known.update(view.discarded)
        if view.variant == "two_hand" and view.turnup is not None:
            known.add(view.turnup)
        return set(DECK) - known - self._memory.played - {c for _, c in view.trick}

    def _card(self, view: WhistView, cards: list[Card]) -> Card:
        seat = view.seat
        assert seat is not None
        trick = view.trick
        trump = view.trump
        against = self._against(view)
        four = view.variant not in ("humbug", "two_hand")
        partner = (seat + 2) % 4 if four else None
        size = 4 if four else 2
        if not trick:
            return self._lead(view, seat, partner, cards, against)
        led = trick[0][1].suit
        winner_seat, winning = _current_winner(trick, trump)
        position = len(trick) + 1
        following = cards[0].suit is led
        partner_winning = winner_seat == partner
        if not following:
            return self._void(view, cards, trick, winning, partner_winning, position, size, against)
        above = [c for c in cards if _beats(c, winning, led, trump)]
        if position == size:  # last hand: win cheaply unless partner has it
            if partner_winning or not above:
                return _lowest(cards)
            return _lowest(above)
        if position == 2:  # second hand low, but cover an honour with an honour
            lead_card = trick[0][1]
            if lead_card.rank >= _HONOUR and above and lead_card.suit is led:
                return _lowest(above)
            return _lowest(cards)
        # third hand high (partner led)
        if partner_winning and _is_master(winning, against, trump):
            return _lowest(cards)
        if not above:
            return _lowest(cards)
        return _lowest_equal(_highest(above), cards, self._memory.played)

    def _void(
        self,
        view: WhistView,
        cards: list[Card],
        trick: Sequence[tuple[int, Card]],
        winning: Card,
        partner_winning: bool,
        position: int,
        size: int,
        against: set[Card],
    ) -> Card:
        """Return the card to play when void in the suit led: trump when useful, else
        discard."""
        trump = view.trump
        led = trick[0][1].suit
        trumps = [c for c in cards if c.suit is trump]
        winning_trumps = [c for c in trumps if _beats(c, winning, led, trump)]
        if partner_winning:
            # over partner's card only if it may still be beaten after this hand
            useful = position < size and not _is_master(winning, against, trump)
        else:
            # second hand of four lets a low lead go to partner
            useful = not (
                position == 2
                and size == 4
                and winning.rank < Rank.TEN
                and not _is_master(winning, against, trump)
            )
        if winning_trumps and useful:
            return _lowest(winning_trumps)
        return _discard(cards, trump, against)

    def _lead(
        self,
        view: WhistView,
        seat: int,
        partner: int | None,
        cards: list[Card],
        against: set[Card],
    ) -> Card:
        trump = view.trump
        memory = self._memory
        plain = [c for c in cards if c.suit is not trump]
        trumps = [c for c in cards if c.suit is trump]
        trumps_out = [c for c in against if c.suit is trump]
        # Count trumps: with none left against us, cash the best cards left.
        if not trumps_out or not plain:
            masters = [c for c in cards if _is_master(c, against, trump)]
            if masters:
                return max(masters, key=lambda c: (c.suit is not trump, c.rank))
        # Return partner's lead.
        if partner is not None and partner in memory.first_lead:
            suit = memory.first_lead[partner]
            held = [c for c in plain if c.suit is suit]
            if held:
                top = _highest(held)
                return top if _is_master(top, against, trump) or len(held) <= 2 else _lowest(held)
        # Draw trumps from length.
        if trumps and trumps_out and (len(trumps) >= 5 or (len(trumps) >= 4 and len(plain) < 6)):
            top = _highest(trumps)
            if _is_master(top, against, trump):
                return top
            return _lowest(trumps)
        if not plain:
            return _lowest(trumps)
        # Lead from the longest plain suit: top of a sequence or a winner, else low.
        by_suit: dict[Suit, list[Card]] = {}
        for c in plain:
            by_suit.setdefault(c.suit, []).append(c)
        suit = max(
            by_suit,
            key=lambda s: (len(by_suit[s]), sum(_POINTS.get(c.rank, 0) for c in by_suit[s])),
        )
        held = sorted(by_suit[suit], key=lambda c: c.rank, reverse=True)
        top = held[0]
        if _is_master(top, against, trump) or (
            len(held) >= 2 and top.rank >= Rank.QUEEN and _touching(held[0], held[1], memory.played)
        ):
            return top
        return held[-1]


# --------------------------------------------------------------------------------------
# Card helpers


def keeps(hand: Iterable[Card], trump: Suit | None) -> bool:
    """Return whether ``basic`` keeps this Humbug hand: enough honours and trumps (the
    ``expert`` also takes it as its model of an opponent's choice)."""
    cards = list(hand)
    strength = sum(_POINTS.get(c.rank, 0) for c in cards)
    if trump is not None:
        trumps = [c for c in cards if c.suit is trump]
        strength += 2 * (len(trumps) - 3) + sum(2 for c in trumps if c.rank >= _HONOUR)
    return strength >= 10


def _beats(card: Card, best: Card, led: Suit, trump: Suit | None) -> bool:
    """Return whether ``card`` would take the trick from ``best``."""
    if card.suit is best.suit:
        return card.rank > best.rank
    return card.suit is trump


def _current_winner(trick: Sequence[tuple[int, Card]], trump: Suit | None) -> tuple[int, Card]:
    seat, best = trick[0]
    led = best.suit
    for s, card in trick[1:]:
        if _beats(card, best, led, trump):
            seat, best = s, card
    return seat, best


def _is_master(card: Card, against: Iterable[Card], trump: Suit | None) -> bool:
    """Return whether no card that may lie against it ranks higher in ``card``'s suit."""
    return not any(c.suit is card.suit and c.rank > card.rank for c in against)


def _lowest(cards: Iterable[Card]) -> Card:
    return min(cards, key=lambda c: (c.rank, c.suit))


def _highest(cards: Iterable[Card]) -> Card:
    return max(cards, key=lambda c: (c.rank, c.suit))


def _touching(high: Card, low: Card, played: set[Card]) -> bool:
    """Return whether no unplayed card lies between ``low`` and ``high`` of one suit."""
    return all(Card.of(Rank(r), high.suit) in played for r in range(low.rank + 1, high.rank))


def _lowest_equal(card: Card, cards: Sequence[Card], played: set[Card]) -> Card:
    """Return the lowest of ``cards`` equal to ``card`` (touching it in its suit)."""
    same = sorted((c for c in cards if c.suit is card.suit), key=lambda c: c.rank, reverse=True)
    chosen = card
    for c in same:
        if c.rank < chosen.rank and _touching(chosen, c, played):
            chosen = c
    return chosen


def _discard(cards: Sequence[Card], trump: Suit | None, against: set[Card]) -> Card:
    """Return a low card from a weak plain suit (keep trumps and winners)."""
    plain = [c for c in cards if c.suit is not trump]
    if not plain:
        return _lowest(cards)
    weak = [c for c in plain if not _is_master(c, against, trump) and c.rank < _HONOUR]
    return _lowest(weak or plain)
