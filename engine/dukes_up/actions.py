"""Dukes Up!'s actions and moves and their notation (``docs/rules/dukes_up.md``,
"Notation").

An action is one :class:`Action` value whatever it does, so that a seat's legal actions sort
with plain comparison: by :class:`Kind` first, in the order of the binding table. ``str`` and
:func:`parse_action` round-trip to the canonical form: lower-case keywords, card codes, group
lists expanded (``1-2`` → ``1,2``); cards and group numbers keep the order written, so
refusals such as "a number twice" stay the engine's to make. A move is ``B:<action>`` or
``R:<action>``.
"""

from __future__ import annotations

from enum import IntEnum
from typing import NamedTuple

from engine.cards import Card, parse_card
from engine.dukes_up.layout import Group
from engine.errors import ParseError

__all__ = [
    "END_ROUND",
    "FINISH",
    "RESET",
    "RESIGN",
    "RETURN",
    "REVEAL",
    "SEAT_LETTERS",
    "SEAT_NAMES",
    "UNDO",
    "Action",
    "Kind",
    "Move",
    "accept",
    "add",
    "discard",
    "draw",
    "new",
    "parse_action",
    "parse_seat",
    "pickup",
    "regroup",
    "set_duke",
    "setup",
]

SEAT_LETTERS: tuple[str, str] = ("B", "R")
SEAT_NAMES: tuple[str, str] = ("Black", "Red")


class Kind(IntEnum):
    """What an action does; the order is the sort order of legal actions."""

    SETUP = 0
    DRAW = 1
    NEW = 2
    ADD = 3
    REGROUP = 4
    ACCEPT = 5
    PICKUP = 6
    SET = 7
    REVEAL = 8
    RETURN = 9
    UNDO = 10
    RESET = 11
    DISCARD = 12
    FINISH = 13
    END_ROUND = 14
    RESIGN = 15


TURN_KINDS = frozenset(Kind) - {Kind.SETUP, Kind.END_ROUND, Kind.RESIGN}
"""Kinds that belong to the mover's turn (``TURN`` and ``DRAW`` are checked for them)."""
IN_EFFECT_KINDS = frozenset(
    {Kind.NEW, Kind.ADD, Kind.REGROUP, Kind.ACCEPT, Kind.PICKUP, Kind.SET, Kind.REVEAL, Kind.RETURN}
)
"""A1–A8: the actions that stay in effect until undone (D2 needs none)."""


class Action(NamedTuple):
    """One action; ``str(action)`` is its notation.

    ``cards``: setup's castle, duke, duke, hand; the cards of ``new``/``add``; the card of
    ``pickup``/``set``; a discard's card(s). ``groups``: ``add``'s group, the named groups of
    ``regroup``/``accept``/a D4 regrouping (``()`` is ``-``). ``partition``: the new groups.
    ``word``: the pile of a draw (``draw``/``discard``) or the discard option (``d1``…``d4``).
    ``n``: how many cards a draw takes.
    """

    kind: Kind
    cards: tuple[Card, ...] = ()
    groups: tuple[int, ...] = ()
    partition: tuple[Group, ...] = ()
    word: str = ""
    n: int = 0

    def __str__(self) -> str:
        return _format(self)

    def __repr__(self) -> str:
        return f"parse_action({_format(self)!r})"


def _codes(cards: tuple[Card, ...]) -> str:
    return ",".join(c.code for c in cards)


def _groups(groups: tuple[int, ...]) -> str:
    return ",".join(map(str, groups)) if groups else "-"


def _partition(partition: tuple[Group, ...]) -> str:
    return "|".join(_codes(g) for g in partition)


def _format(a: Action) -> str:
    kind = a.kind
    if kind is Kind.SETUP:
        castle, d1, d2, hand = a.cards
        return f"setup:castle={castle.code};dukes={d1.code},{d2.code};hand={hand.code}"
    if kind is Kind.DRAW:
        return f"draw:pile={a.word};n={a.n}"
    if kind is Kind.NEW:
        return f"new:{_codes(a.cards)}"
    if kind is Kind.ADD:
        return f"add:{a.groups[0]}:{_codes(a.cards)}"
    if kind is Kind.REGROUP:
        return f"regroup:{_groups(a.groups)}:{_partition(a.partition)}"
    if kind is Kind.ACCEPT:
        return f"accept:{_groups(a.groups)}:{_partition(a.partition)}"
    if kind is Kind.PICKUP:
        return f"pickup:{a.cards[0].code}"
    if kind is Kind.SET:
        return f"set:{a.cards[0].code}"
    if kind is Kind.DISCARD:
        text = f"discard:{a.word}"
        if a.cards:
            text += f":{_codes(a.cards)}"
        if a.partition:
            text += f":{_groups(a.groups)}:{_partition(a.partition)}"
        return text
    return _WORD_TEXT[kind]


_WORD_TEXT = {
    Kind.REVEAL: "reveal",
    Kind.RETURN: "return",
    Kind.UNDO: "undo",
    Kind.RESET: "reset",
    Kind.FINISH: "finish",
    Kind.END_ROUND: "end-round",
    Kind.RESIGN: "resign",
}
_WORDS = {text: Action(kind) for kind, text in _WORD_TEXT.items()}
REVEAL = _WORDS["reveal"]
RETURN = _WORDS["return"]
UNDO = _WORDS["undo"]
RESET = _WORDS["reset"]
FINISH = _WORDS["finish"]
END_ROUND = _WORDS["end-round"]
RESIGN = _WORDS["resign"]


# --- builders ---------------------------------------------------------------------------


def setup(castle: Card, dukes: tuple[Card, Card], hand: Card) -> Action:
    """Return the setup choice: ``castle``, the two ``dukes`` and the ``hand`` card."""
    return Action(Kind.SETUP, (castle, dukes[0], dukes[1], hand))


def draw(pile: str, n: int) -> Action:
    """Return the draw of ``n`` cards from ``pile`` (``"draw"`` or ``"discard"``)."""
    if pile not in ("draw", "discard"):
        raise ValueError(f"A draw is from the draw or the discard pile, not {pile!r}.")
    return Action(Kind.DRAW, word=pile, n=n)


def new(cards: tuple[Card, ...]) -> Action:
    """Return A1: a new group of ``cards``, appended last."""
    return Action(Kind.NEW, tuple(cards))


def add(group: int, cards: tuple[Card, ...]) -> Action:
    """Return A2: ``cards`` added to group ``group`` (1-based)."""
    return Action(Kind.ADD, tuple(cards), (group,))


def regroup(groups: tuple[int, ...], partition: tuple[Group, ...]) -> Action:
    """Return A3: the named groups replaced by ``partition``."""
    return Action(Kind.REGROUP, (), tuple(groups), tuple(tuple(g) for g in partition))


def accept(groups: tuple[int, ...], partition: tuple[Group, ...]) -> Action:
    """Return A4's accept: the named groups (``()``: none) replaced by ``partition``."""
    return Action(Kind.ACCEPT, (), tuple(groups), tuple(tuple(g) for g in partition))


def pickup(card: Card) -> Action:
    """Return A5: pick up the duke ``card``."""
    return Action(Kind.PICKUP, (card,))


def set_duke(card: Card) -> Action:
    """Return A6: set the hand card ``card`` as a duke."""
    return Action(Kind.SET, (card,))


def discard(
    option: str,
    cards: tuple[Card, ...] = (),
    groups: tuple[int, ...] = (),
    partition: tuple[Group, ...] = (),
) -> Action:
    """Return a discard: ``d1`` (one card), ``d2`` (two, the second ends on top), ``d3``,
    ``d4`` (a card of the table, with its regrouping if any)."""
    return Action(
        Kind.DISCARD, tuple(cards), tuple(groups), tuple(tuple(g) for g in partition), option
    )


# --- parsing ----------------------------------------------------------------------------


def _error(text: str, why: str) -> ParseError:
    return ParseError(f"“{text}” is not a Dukes Up! action: {why}", text)


def _cards(text: str, field: str) -> tuple[Card, ...]:
    parts = [p.strip() for p in field.split(",")]
    if not field.strip() or any(not p for p in parts):
        raise _error(text, "write cards as codes separated by commas, like 3S,4D,5S.")
    return tuple(parse_card(p) for p in parts)


def _group_numbers(text: str, field: str, *, dash: bool) -> tuple[int, ...]:
    field = field.strip()
    if field == "-":
        if not dash:
            raise _error(text, "name at least one group.")
        return ()
    numbers: list[int] = []
    for part in field.split(","):
        part = part.strip()
        low, sep, high = part.partition("-")
        if sep:
            low, high = low.strip(), high.strip()
            if not (low.isdigit() and high.isdigit()) or int(low) > int(high):
                raise _error(text, f"“{part}” is not a range of groups like 1-2.")
            numbers.extend(range(int(low), int(high) + 1))
        elif part.isdigit():
            numbers.append(int(part))
        else:
            raise _error(text, "groups are numbers or ranges separated by commas, like 1,3-4.")
    return tuple(numbers)


def _partition_of(text: str, field: str) -> tuple[Group, ...]:
    return tuple(_cards(text, part) for part in field.split("|"))


def parse_action(text: str) -> Action:
    """Return the action written ``text`` (see the module docstring); raise
    :class:`ParseError` naming the text if it is malformed."""
    raw = text.strip()
    head, sep, rest = raw.partition(":")
    head = head.strip().lower()
    if not sep:
        action = _WORDS.get(head)
        if action is None:
            raise _error(
                text,
                "write setup:…, draw:…, new:…, add:…, regroup:…, accept:…, pickup:…, set:…, "
                "reveal, return, undo, reset, discard:…, finish, end-round or resign.",
            )
        return action
    if head == "setup":
        fields: dict[str, str] = {}
        for item in rest.split(";"):
            key, eq, val = item.partition("=")
            key = key.strip().lower()
            if not eq or key not in ("castle", "dukes", "hand") or key in fields:
                raise _error(text, "write setup:castle=QS;dukes=KS,AC;hand=3C.")
            fields[key] = val
        if len(fields) != 3:
            raise _error(text, "setup names the castle, the dukes and the hand card.")
        castle = _cards(text, fields["castle"])
        dukes = _cards(text, fields["dukes"])
        hand = _cards(text, fields["hand"])
        if len(castle) != 1 or len(dukes) != 2 or len(hand) != 1:
            raise _error(text, "setup names one castle, two dukes and one hand card.")
        return Action(Kind.SETUP, (castle[0], dukes[0], dukes[1], hand[0]))
    if head == "draw":
        fields = {}
        for item in rest.split(";"):
            key, eq, val = item.partition("=")
            key = key.strip().lower()
            if not eq or key not in ("pile", "n") or key in fields:
                raise _error(text, "write draw:pile=draw;n=2 or draw:pile=discard;n=1.")
            fields[key] = val.strip().lower()
        pile, n = fields.get("pile"), fields.get("n")
        if pile not in ("draw", "discard") or n is None or not n.isdigit():
            raise _error(text, "write draw:pile=draw;n=2 or draw:pile=discard;n=1.")
        return Action(Kind.DRAW, word=pile, n=int(n))
    if head == "new":
        return Action(Kind.NEW, _cards(text, rest))
    if head == "add":
        number, sep2, cards = rest.partition(":")
        if not sep2 or not number.strip().isdigit():
            raise _error(text, "write add:2:6S (the group's number, then cards).")
        return Action(Kind.ADD, _cards(text, cards), (int(number.strip()),))
    if head in ("regroup", "accept"):
        groups, sep2, partition = rest.partition(":")
        if not sep2:
            raise _error(text, f"write {head}:1-2:3S,4D,5S|6D,6S,6C.")
        kind = Kind.REGROUP if head == "regroup" else Kind.ACCEPT
        return Action(
            kind,
            (),
            _group_numbers(text, groups, dash=kind is Kind.ACCEPT),
            _partition_of(text, partition),
        )
    if head in ("pickup", "set"):
        card = _cards(text, rest)
        if len(card) != 1:
            raise _error(text, f"{head} names one card, like {head}:KS.")
        return Action(Kind.PICKUP if head == "pickup" else Kind.SET, card)
    if head == "discard":
        parts = rest.split(":")
        option = parts[0].strip().lower()
        if option == "d3" and len(parts) == 1:
            return Action(Kind.DISCARD, word="d3")
        if option in ("d1", "d2") and len(parts) == 2:
            chosen = _cards(text, parts[1])
            if len(chosen) != (1 if option == "d1" else 2):
                raise _error(text, f"{option} discards {1 if option == 'd1' else 2} card(s).")
            return Action(Kind.DISCARD, chosen, word=option)
        if option == "d4" and len(parts) in (2, 4):
            card = _cards(text, parts[1])
            if len(card) != 1:
                raise _error(text, "d4 discards one card of the table.")
            if len(parts) == 2:
                return Action(Kind.DISCARD, card, word="d4")
            return Action(
                Kind.DISCARD,
                card,
                _group_numbers(text, parts[2], dash=False),
                _partition_of(text, parts[3]),
                "d4",
            )
        raise _error(
            text, "write discard:d1:9C, discard:d2:2C,JS, discard:d3 or discard:d4:5S[:1,2:…]."
        )
    raise _error(text, f"“{head}” is not an action's name.")


def parse_seat(text: str) -> int:
    """Return the seat written ``text``: ``B``/``Black`` is 0, ``R``/``Red`` is 1."""
    key = text.strip().upper()
    for seat, letter in enumerate(SEAT_LETTERS):
        if key in (letter, SEAT_NAMES[seat].upper()):
            return seat
    raise ParseError(f"“{text}” is not a seat: use B or R.", text, reason="parse-seat")


class Move(NamedTuple):
    """One entry of the move log: ``seat`` did ``action``; ``str(move)`` is ``B:finish``."""

    seat: int
    action: Action

    def __str__(self) -> str:
        return f"{SEAT_LETTERS[self.seat]}:{self.action}"

    @staticmethod
    def parse(text: str) -> Move:
        """Return the move written as ``str(move)``: ``B:draw:pile=draw;n=2``, ``R:finish``."""
        seat, sep, action = text.partition(":")
        if not sep:
            raise ParseError(f"“{text}” is not a move: write B:ACTION or R:ACTION.", text)
        return Move(parse_seat(seat), parse_action(action))
