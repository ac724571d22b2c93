"""Doppelkopf's cards: the 48-card double pack, card points, and the card order of every game
type (rules §2): which cards are trumps, how cards rank, what a player must follow.

An :class:`Order` answers, for one game type, the three questions play asks of a card: its
*group* for following (all trumps are one group, each side suit another), its *power* (the
higher wins; of two identical cards the one played first wins, so ties go to the earlier card)
and whether it is a trump.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from engine.cards import Card, Rank, Suit

__all__ = [
    "ORDERS",
    "PACK",
    "POINTS",
    "TRUMP",
    "Order",
    "card_points",
    "double_pack",
    "order_for",
]

C, D, H, S = Suit.CLUBS, Suit.DIAMONDS, Suit.HEARTS, Suit.SPADES
NINE, TEN, JACK, QUEEN, KING, ACE = (
    Rank.NINE,
    Rank.TEN,
    Rank.JACK,
    Rank.QUEEN,
    Rank.KING,
    Rank.ACE,
)
RANKS = (NINE, TEN, JACK, QUEEN, KING, ACE)

PACK: tuple[Card, ...] = tuple(sorted(Card.of(r, s) for s in Suit for r in RANKS))
"""The 24 distinct cards of the pack, in ``Card`` order; each exists twice."""

POINTS: dict[Card, int] = {
    card: {NINE: 0, TEN: 10, JACK: 2, QUEEN: 3, KING: 4, ACE: 11}[card.rank] for card in PACK
}
"""Card points (A.5): A 11, 10 10, K 4, Q 3, J 2, 9 0; 240 in the whole pack."""

TRUMP = 4
"""The following group of every trump (the side suits' groups are their ``Suit`` values)."""

_SIDE_POWER = {ACE: 6, TEN: 5, KING: 4, QUEEN: 3, JACK: 2, NINE: 1}


def double_pack() -> list[Card]:
    """Return the 48 cards, each of the 24 twice, in ``Card`` order."""
    return [card for card in PACK for _ in range(2)]


def card_points(cards: Iterable[Card]) -> int:
    """Return the card points of ``cards``."""
    return sum(POINTS[c] for c in cards)


@dataclass(frozen=True)
class Order:
    """The card order of one game type: its trumps high to low, the rest side suits ranked
    A 10 K Q J 9 (those of them that are not trumps)."""

    name: str
    trumps: tuple[Card, ...]

    def __post_init__(self) -> None:
        power = {card: _SIDE_POWER[card.rank] for card in PACK}
        group = {card: int(card.suit) for card in PACK}
        for i, card in enumerate(self.trumps):
            power[card] = 100 + len(self.trumps) - i
            group[card] = TRUMP
        object.__setattr__(self, "power", power)
        object.__setattr__(self, "group", group)

    power: dict[Card, int] = field(init=False, repr=False, compare=False)
    group: dict[Card, int] = field(init=False, repr=False, compare=False)

    def is_trump(self, card: Card) -> bool:
        """Return whether ``card`` is a trump in this game type."""
        return self.group[card] == TRUMP

    def legal(self, hand: Sequence[Card], led: Card | None) -> list[Card]:
        """Return the cards of ``hand`` that may be played to a trick led by ``led``
        (``None``: this card leads), each distinct card once, in ``Card`` order."""
        distinct = sorted(set(hand))
        if led is None:
            return distinct
        want = self.group[led]
        following = [c for c in distinct if self.group[c] == want]
        return following or distinct

    def winner(self, cards: Sequence[Card]) -> int:
        """Return the index of the card that takes the trick ``cards`` (in play order)."""
        power, group = self.power, self.group
        best = 0
        led_group = group[cards[0]]
        best_power = power[cards[0]]
        best_trump = led_group == TRUMP
        for i in range(1, len(cards)):
            card = cards[i]
            g = group[card]
            if g == TRUMP:
                p = power[card]
                if not best_trump or p > best_power:
                    best, best_power, best_trump = i, p, True
            elif g == led_group and not best_trump and power[card] > best_power:
                best, best_power = i, power[card]
        return best

    def sort_key(self, card: Card) -> tuple[int, int, int]:
        """Return a key that sorts a hand for display: trumps high to low, then ♣ ♠ ♥ ♦
        high to low."""
        if self.group[card] == TRUMP:
            return (0, -self.power[card], 0)
        return (1, _DISPLAY_SUIT[card.suit], -self.power[card])


_DISPLAY_SUIT = {C: 0, S: 1, H: 2, D: 3}

_QUEENS = tuple(Card.of(QUEEN, s) for s in (C, S, H, D))
_JACKS = tuple(Card.of(JACK, s) for s in (C, S, H, D))
_HEART_TEN = Card.of(TEN, H)


def _suit(suit: Suit) -> tuple[Card, ...]:
    return tuple(Card.of(r, suit) for r in (ACE, TEN, KING, NINE))


ORDERS: dict[str, Order] = {
    # normal game, marriage, poverty, tournament ♦ solo, house trump solo (§2)
    "normal": Order("normal", (_HEART_TEN, *_QUEENS, *_JACKS, *_suit(D))),
    "queens": Order("queens", _QUEENS),
    "jacks": Order("jacks", _JACKS),
    "international": Order("international", (*_QUEENS, *_JACKS)),
    "none": Order("none", ()),
}
for _s, _name in ((C, "clubs"), (S, "spades"), (H, "hearts")):
    # tournament suit solos: the ♥10 stays the highest trump
    _own = tuple(c for c in _suit(_s) if c != _HEART_TEN)
    ORDERS[f"t-{_name}"] = Order(f"t-{_name}", (_HEART_TEN, *_QUEENS, *_JACKS, *_own))
for _s, _name in ((C, "clubs"), (S, "spades"), (H, "hearts"), (D, "diamonds")):
    # house suit solos: ♣Q is the highest trump, the ♥10 an ordinary ten of hearts
    ORDERS[f"h-{_name}"] = Order(f"h-{_name}", (*_QUEENS, *_JACKS, *_suit(_s)))


def order_for(preset: str, game: str) -> Order:
    """Return the card order of ``game`` (a ``GameResult.game`` name) in ``preset``."""
    if not game.startswith("solo:"):
        return ORDERS["normal"]
    kind = game[5:]
    if kind in ("queens", "jacks", "international"):
        return ORDERS[kind]
    if kind in ("fleshless", "no-trump"):
        return ORDERS["none"]
    if kind in ("diamonds", "trump") and (preset == "tournament" or kind == "trump"):
        return ORDERS["normal"]
    return ORDERS[("t-" if preset == "tournament" else "h-") + kind]
