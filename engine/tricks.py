"""Trick mechanics that trick-taking games truly share: dealing round the table, following
suit, who wins a trick, who leads first, and how long a turned trump card stays on view.

Only the plain, common case lives here (one pack, ace high, a trump suit or none, a duty
to follow suit and no other duty); a game whose rules differ (Doppelkopf's trump order,
Dupe's face-down tricks) keeps its own. Seats are ints going round the table in the order
play passes (clockwise); ``seats`` is how many hands are dealt.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.cards import Card, Suit

__all__ = [
    "deal_round",
    "eldest",
    "follows",
    "legal_cards",
    "next_seat",
    "trick_winner",
    "turns_down_turnup",
]


def next_seat(seat: int, seats: int = 4) -> int:
    """Return the seat on ``seat``'s left: the next one in the order play passes."""
    return (seat + 1) % seats


def eldest(dealer: int, seats: int = 4) -> int:
    """Return the *eldest hand*, the one on the dealer's left, who leads to the first trick."""
    return (dealer + 1) % seats


def deal_round(cards: Sequence[Card], order: Sequence[int], each: int) -> dict[int, list[Card]]:
    """Return the hands dealt from ``cards`` one at a time to the seats in ``order`` (repeated)
    until every seat has ``each`` cards: ``{seat: cards in the order received}``.

    The last card a seat receives is its ``each``-th; a dealer who deals to himself last
    (``order`` starting on his left) receives ``cards[len(order) * each - 1]``, the card
    games turn up for trumps.
    """
    hands: dict[int, list[Card]] = {seat: [] for seat in order}
    n = len(order)
    for i in range(n * each):
        hands[order[i % n]].append(cards[i])
    return hands


def legal_cards(hand: Sequence[Card], led: Suit | None) -> tuple[Card, ...]:
    """Return the cards of ``hand`` that may be played, in the hand's order: any card to lead
    (``led`` is ``None``) or when void in the suit led, otherwise only that suit's cards."""
    if led is None:
        return tuple(hand)
    suited = tuple(card for card in hand if card.suit is led)
    return suited if suited else tuple(hand)


def follows(hand: Sequence[Card], card: Card, led: Suit | None) -> bool:
    """Return whether playing ``card`` from ``hand`` keeps the duty to follow suit (the card is
    assumed to be in the hand)."""
    if led is None or card.suit is led:
        return True
    return all(other.suit is not led for other in hand)


def trick_winner(cards: Sequence[Card], trump: Suit | None) -> int:
    """Return the index, in play order, of the card that wins the trick: the highest trump if
    any was played, otherwise the highest card of the suit led (``cards[0]``'s)."""
    best = 0
    top = cards[0]
    for i in range(1, len(cards)):
        card = cards[i]
        if card.suit is top.suit:
            if card.rank > top.rank:
                best, top = i, card
        elif card.suit is trump:
            best, top = i, card
    return best


def turns_down_turnup(dealer: int, seat: int, completed: int) -> bool:
    """Return whether ``seat``'s card takes a turned-up trump card off the table: the card
    the dealer plays to the first trick (``completed`` tricks are complete so far). Until
    then the turned card lies face up for everyone; afterwards only its suit is known."""
    return seat == dealer and completed == 0
