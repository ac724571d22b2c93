"""Whist's actions and moves, and their notation (``docs/rules/whist.md``,
"Notation").

An action is one :class:`Action` value whatever it does, so that a seat's legal actions sort
in the binding order with plain comparison: cards in ``Card`` order (rank, then suit), then
``trump:C D H S``, ``keep``, ``exchange``, ``claim:1`` … ``claim:13``, ``accept``, ``reject``.
Every action is interned: :func:`play`, :func:`declare`, :func:`claim` and
:func:`parse_action` return the one shared object.
"""

from __future__ import annotations

from enum import IntEnum
from typing import NamedTuple

from engine.cards import DECK, Card, Suit, parse_card
from engine.errors import ParseError

__all__ = [
    "ACCEPT",
    "EXCHANGE",
    "KEEP",
    "REJECT",
    "SEAT_LETTERS",
    "SEAT_NAMES",
    "Action",
    "Kind",
    "Move",
    "claim",
    "declare",
    "parse_action",
    "parse_seat",
    "play",
]

SEAT_LETTERS: tuple[str, ...] = ("N", "E", "S", "W")
SEAT_NAMES: tuple[str, ...] = ("North", "East", "South", "West")
MAX_CLAIM = 13


class Kind(IntEnum):
    """What an action does; the order is the binding sort order of the kinds."""

    PLAY = 0
    TRUMP = 1
    KEEP = 2
    EXCHANGE = 3
    CLAIM = 4
    ACCEPT = 5
    REJECT = 6


class Action(NamedTuple):
    """One action: play ``card``; name trump suit ``number``; keep or exchange a Humbug hand;
    claim ``number`` tricks; accept or reject a claim. ``str(action)`` is its notation."""

    kind: Kind
    card: Card | None = None
    number: int = 0

    def __str__(self) -> str:
        return _TEXT[self]

    def __repr__(self) -> str:
        return f"parse_action({_TEXT[self]!r})"


_PLAYS: dict[Card, Action] = {card: Action(Kind.PLAY, card) for card in DECK}
_TRUMPS: tuple[Action, ...] = tuple(Action(Kind.TRUMP, None, suit) for suit in Suit)
_CLAIMS: tuple[Action, ...] = tuple(Action(Kind.CLAIM, None, k) for k in range(MAX_CLAIM + 1))
KEEP = Action(Kind.KEEP)
EXCHANGE = Action(Kind.EXCHANGE)
ACCEPT = Action(Kind.ACCEPT)
REJECT = Action(Kind.REJECT)

_TEXT: dict[Action, str] = {action: card.code for card, action in _PLAYS.items()}
_TEXT.update({action: f"trump:{Suit(action.number).letter}" for action in _TRUMPS})
_TEXT.update({action: f"claim:{action.number}" for action in _CLAIMS})
_TEXT.update({KEEP: "keep", EXCHANGE: "exchange", ACCEPT: "accept", REJECT: "reject"})
_WORDS: dict[str, Action] = {"keep": KEEP, "exchange": EXCHANGE, "accept": ACCEPT, "reject": REJECT}
_SUITS: dict[str, Suit] = {}
for _suit in Suit:
    _SUITS[_suit.letter] = _suit
    _SUITS[_suit.symbol] = _suit


def play(card: Card) -> Action:
    """Return the action that plays ``card``."""
    return _PLAYS[card]


def declare(suit: Suit) -> Action:
    """Return the action naming ``suit`` as trumps (Humbug with ``humbug_declared``)."""
    return _TRUMPS[suit]


def claim(tricks: int) -> Action:
    """Return the action claiming ``tricks`` of the remaining tricks (Double Dummy), 1–13."""
    if not 1 <= tricks <= MAX_CLAIM:
        raise ValueError(f"A claim is of 1 to {MAX_CLAIM} tricks, not {tricks}.")
    return _CLAIMS[tricks]


def parse_action(text: str) -> Action:
    """Return the action written ``text``: a card (``QH``, ``TS``, ``10S``, ``10♠``, any case),
    ``keep``, ``exchange``, ``trump:S``, ``claim:5``, ``accept`` or ``reject``; raise
    :class:`ParseError` naming the text otherwise."""
    word = text.strip().lower()
    action = _WORDS.get(word)
    if action is not None:
        return action
    head, sep, tail = word.partition(":")
    if sep:
        tail = tail.strip()
        if head.strip() == "trump":
            suit = _SUITS.get(tail.upper().replace("\ufe0f", ""))
            if suit is None:
                raise ParseError(
                    f"“{text}” names no suit: write trump:C, trump:D, trump:H or trump:S.",
                    text,
                    reason="parse-suit",
                )
            return _TRUMPS[suit]
        if head.strip() == "claim":
            if not tail.isdigit() or not 1 <= int(tail) <= MAX_CLAIM:
                raise ParseError(
                    f"“{text}” is not a claim: write claim:K with K from 1 to {MAX_CLAIM}.",
                    text,
                    reason="parse-claim",
                )
            return _CLAIMS[int(tail)]
        raise ParseError(
            f"“{text}” is not a whist action: a card (like QH or 10S), keep, exchange, "
            "trump:S, claim:5, accept or reject.",
            text,
        )
    return _PLAYS[parse_card(text)]


def parse_seat(text: str) -> int:
    """Return the seat written ``text`` (``N E S W`` or their names, any case)."""
    key = text.strip().upper()
    for seat, letter in enumerate(SEAT_LETTERS):
        if key in (letter, SEAT_NAMES[seat].upper()):
            return seat
    raise ParseError(f"“{text}” is not a seat: use N, E, S or W.", text, reason="parse-seat")


class Move(NamedTuple):
    """One entry of the move log: ``seat`` did ``action``; ``str(move)`` is ``N:QH``.

    A card move names the hand the card comes from (``N:QH`` is dummy's queen, chosen by
    the player controlling North); any other action names the actor's own seat.
    """

    seat: int
    action: Action

    def __str__(self) -> str:
        return f"{SEAT_LETTERS[self.seat]}:{_TEXT[self.action]}"

    @staticmethod
    def parse(text: str) -> Move:
        """Return the move written as ``str(move)``: ``N:QH``, ``S:claim:5``, ``W:accept``."""
        seat_text, sep, action_text = text.partition(":")
        if not sep:
            raise ParseError(f"“{text}” is not a move: write SEAT:ACTION, like N:QH.", text)
        return Move(parse_seat(seat_text), parse_action(action_text))
