"""Playing cards shared by every game: suits, ranks, cards, parsing, decks, seeded shuffles.

A :class:`Card` is an immutable ``(rank, suit)`` pair ordered by rank, then suit. Every
one of the 52 distinct cards exists once as an interned object (``Card.of`` and the parsers
return it), so games may compare by identity on hot paths; equality is by value as usual.
Games with two packs (Doppelkopf) hold the same card twice; nothing here assumes a card is
unique in a hand.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Iterable, Sequence
from enum import IntEnum
from typing import NamedTuple, TypeVar

from engine.errors import ParseError

T = TypeVar("T")

__all__ = [
    "DECK",
    "Card",
    "Rank",
    "Suit",
    "by_suit",
    "format_cards",
    "full_deck",
    "parse_card",
    "parse_cards",
    "shuffle",
    "shuffled_deck",
]


class Suit(IntEnum):
    """A suit, in bridge order (clubs lowest). Games map suits to seats themselves."""

    CLUBS = 0
    DIAMONDS = 1
    HEARTS = 2
    SPADES = 3

    @property
    def symbol(self) -> str:
        """Return the suit's symbol, e.g. ``♠``."""
        return _SUIT_SYMBOLS[self]

    @property
    def letter(self) -> str:
        """Return the suit's ASCII letter, e.g. ``S``."""
        return _SUIT_LETTERS[self]

    @property
    def plural(self) -> str:
        """Return the suit's English name in the plural, e.g. ``spades``."""
        return self.name.lower()

    def __str__(self) -> str:
        return _SUIT_SYMBOLS[self]


class Rank(IntEnum):
    """A rank, valued 2 to 14 (ace high). Games with other orders rank cards themselves."""

    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13
    ACE = 14

    @property
    def symbol(self) -> str:
        """Return the rank as it is printed: ``2``..``10``, ``J``, ``Q``, ``K``, ``A``."""
        return _RANK_SYMBOLS[self]

    @property
    def letter(self) -> str:
        """Return the rank as one ASCII character (``T`` for ten)."""
        return _RANK_LETTERS[self]

    def __str__(self) -> str:
        return _RANK_SYMBOLS[self]


_SUIT_SYMBOLS = {Suit.CLUBS: "♣", Suit.DIAMONDS: "♦", Suit.HEARTS: "♥", Suit.SPADES: "♠"}
_SUIT_LETTERS = {Suit.CLUBS: "C", Suit.DIAMONDS: "D", Suit.HEARTS: "H", Suit.SPADES: "S"}
_RANK_SYMBOLS = {r: (str(r.value) if r <= 10 else "JQKA"[r - 11]) for r in Rank}
_RANK_LETTERS = {r: (str(r.value) if r <= 9 else "TJQKA"[r - 10]) for r in Rank}


class Card(NamedTuple):
    """A playing card; ``str(card) == "10♠"``, ``card.code == "TS"``, ordered by rank then suit."""

    rank: Rank
    suit: Suit

    @staticmethod
    def of(rank: Rank, suit: Suit) -> Card:
        """Return the interned card of this rank and suit."""
        return _INTERNED[rank, suit]

    @property
    def code(self) -> str:
        """Return the two-character ASCII code, e.g. ``TS``; :func:`parse_card` reads it back."""
        return _RANK_LETTERS[self.rank] + _SUIT_LETTERS[self.suit]

    def __str__(self) -> str:
        return _RANK_SYMBOLS[self.rank] + _SUIT_SYMBOLS[self.suit]

    def __repr__(self) -> str:
        return f"parse_card({self.code!r})"


_INTERNED: dict[tuple[Rank, Suit], Card] = {(r, s): Card(r, s) for r in Rank for s in Suit}

DECK: tuple[Card, ...] = tuple(_INTERNED[r, s] for s in Suit for r in Rank)
"""The 52 distinct cards, clubs first, each suit from 2 to ace."""

_RANK_TOKENS: dict[str, Rank] = {}
for _r in Rank:
    _RANK_TOKENS[_RANK_SYMBOLS[_r]] = _r
    _RANK_TOKENS[_RANK_LETTERS[_r]] = _r

_SUIT_TOKENS: dict[str, Suit] = {}
for _s in Suit:
    _SUIT_TOKENS[_SUIT_LETTERS[_s]] = _s
    _SUIT_TOKENS[_SUIT_SYMBOLS[_s]] = _s
# The outlined symbols and the emoji variants people paste from phones.
_SUIT_TOKENS.update({"♤": Suit.SPADES, "♡": Suit.HEARTS, "♧": Suit.CLUBS, "♢": Suit.DIAMONDS})

_PARSED: dict[str, Card] = {}


def parse_card(text: str) -> Card:
    """Return the card named by ``text``: ``"10S"``, ``"TS"``, ``"10♠"``, ``"ts"`` all name 10♠.

    The rank comes first (``2``-``10``, ``T``, ``J``, ``Q``, ``K``, ``A``), then the suit
    (``S H D C`` or ``♠ ♥ ♦ ♣``), in either case. Raises :class:`ParseError` naming the text.
    """
    card = _PARSED.get(text)
    if card is not None:
        return card
    token = text.strip().replace("\ufe0f", "").upper()
    if len(token) < 2:
        raise ParseError(f"“{text}” is not a card: write a rank and a suit, like 10S or Q♥.", text)
    rank = _RANK_TOKENS.get(token[:-1])
    suit = _SUIT_TOKENS.get(token[-1])
    if suit is None and rank is None:
        raise ParseError(
            f"“{text}” is not a card: write a rank (2-10, J, Q, K, A) and then a suit "
            "(S H D C or ♠ ♥ ♦ ♣), like 10S or Q♥.",
            text,
        )
    if suit is None:
        raise ParseError(
            f"“{text}” is not a card: the suit must be one of S H D C (or ♠ ♥ ♦ ♣).", text
        )
    if rank is None:
        raise ParseError(f"“{text}” is not a card: the rank must be one of 2-10, J, Q, K, A.", text)
    card = _INTERNED[rank, suit]
    if len(_PARSED) < 4096:
        _PARSED[text] = card
    return card


def parse_cards(text: str) -> list[Card]:
    """Return the cards named in ``text``, separated by spaces or commas (``"AS KH 10D"``)."""
    return [parse_card(token) for token in text.replace(",", " ").split()]


def format_cards(cards: Iterable[Card], sep: str = " ") -> str:
    """Return the cards as text in the given order, e.g. ``"A♠ K♥ 10♦"``."""
    return sep.join(map(str, cards))


def by_suit(card: Card) -> tuple[int, int]:
    """Sort key grouping a hand by suit (spades, hearts, clubs, diamonds), high ranks first."""
    return (_SUIT_DISPLAY_ORDER[card.suit], -card.rank)


_SUIT_DISPLAY_ORDER = {Suit.SPADES: 0, Suit.HEARTS: 1, Suit.CLUBS: 2, Suit.DIAMONDS: 3}


def full_deck() -> list[Card]:
    """Return a new list of the 52 distinct cards in :data:`DECK` order."""
    return list(DECK)


def shuffled_deck(rng: random.Random, cards: Sequence[Card] = DECK) -> list[Card]:
    """Return a new list of ``cards`` shuffled by ``rng`` (the only source of randomness)."""
    deck = list(cards)
    shuffle(rng, deck)
    return deck


def shuffle(rng: random.Random, items: list[T]) -> None:
    """Shuffle ``items`` in place exactly as ``rng.shuffle(items)`` does, faster.

    The same Fisher–Yates steps as :meth:`random.Random.shuffle`, each index drawn as
    ``Random._randbelow`` draws it (``getrandbits`` of the bound's bit length, again while
    not below it), written out: the same order for the same generator, without two Python
    calls per item (a game's deal is drawn on every replay of its log).
    """
    getrandbits = rng.getrandbits
    for i, n, k in _steps(len(items)):
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        items[i], items[j] = items[j], items[i]


@functools.cache
def _steps(length: int) -> tuple[tuple[int, int, int], ...]:
    """Return a shuffle's steps for ``length`` items: the index swapped, its bound and the
    bound's bit length, from the last item down (worked out once per length)."""
    return tuple((i, i + 1, (i + 1).bit_length()) for i in range(length - 1, 0, -1))
