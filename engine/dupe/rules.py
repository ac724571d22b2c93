"""Dupe (David Parlett), exactly as ``docs/rules/dupe.md`` decides it.

Four players; North = ♠, East = ♥, South = ♣, West = ♦. One seeded deal of 13 cards each,
then four deals: every deal, fresh secret identity cards name each player's *dupe*; thirteen
tricks are played face down and revealed together; the trick's *taker* gives one of its cards
to each player; after the thirteenth trick every won hand is scored and credited to whoever
holds the identity card of its owner's suit, and the won cards become the next hand.

The game is a :class:`DupeState` that changes only through :meth:`DupeState.apply`. Chance
is drawn once, from the seed, when the game is created (the shuffle and all four deals'
identity cards), so ``replay(seed, options, moves)`` rebuilds any game from its move log.
What a seat may know is :meth:`DupeState.view`; computer players and renderers only ever
receive views.

Every refusal is an ``EngineError`` whose ``reason`` says why (with its ``params``):
``invalid-seat`` (seat), ``invalid-action`` (not a Dupe action at all), ``game-over``,
``distributing`` (taker: no card can be chosen while a trick is distributed),
``already-chosen``, ``not-in-hand`` (card), ``nothing-to-distribute``, ``only-taker``
(taker), ``give-revealed`` (cards: the revealed ones), and for options ``memory`` (memory)
and ``seed``; text that is not a card, an action or a move is a ``parse`` error (token).
"""

from __future__ import annotations

import copy
import functools
import operator
import random
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from enum import StrEnum
from itertools import permutations, product
from typing import TYPE_CHECKING, Any, Literal, NamedTuple, cast

from engine.cards import (
    DECK,
    Card,
    Rank,
    Suit,
    format_cards,
    parse_card,
    shuffle,
    shuffled_deck,
)
from engine.errors import (
    GameOverError,
    IllegalActionError,
    InvalidActionError,
    NotYourTurnError,
    OptionsError,
    ParseError,
)
from engine.game import GameResult, State

__all__ = [
    "DEALS",
    "NORTH",
    "SEATS",
    "SEAT_LETTERS",
    "SEAT_NAMES",
    "SEAT_SUITS",
    "TRICKS",
    "Action",
    "DealResult",
    "Distribute",
    "DupeOptions",
    "DupeState",
    "DupeView",
    "HandScore",
    "Move",
    "Phase",
    "Play",
    "TrickRecord",
    "new_game",
    "parse_action",
    "play",
    "replay",
    "score_hand",
    "seat_of_suit",
    "trick_taker",
]

SEATS: tuple[int, ...] = (0, 1, 2, 3)
"""Seats, clockwise from North."""
NORTH, EAST, SOUTH, WEST = SEATS
SEAT_NAMES: tuple[str, ...] = ("North", "East", "South", "West")
SEAT_LETTERS: tuple[str, ...] = ("N", "E", "S", "W")
SEAT_SUITS: tuple[Suit, ...] = (Suit.SPADES, Suit.HEARTS, Suit.CLUBS, Suit.DIAMONDS)
"""The suit of each seat, for the whole game."""
_SEAT_SET = frozenset(SEATS)
_SUIT_SEAT: dict[Suit, int] = {suit: seat for seat, suit in enumerate(SEAT_SUITS)}
DEALS = 4
TRICKS = 13


def seat_of_suit(suit: Suit) -> int:
    """Return the seat whose suit ``suit`` is (♠ North, ♥ East, ♣ South, ♦ West)."""
    return _SUIT_SEAT[suit]


def _seat_index(text: str) -> int:
    key = text.strip().upper()
    for seat in SEATS:
        if key in (SEAT_LETTERS[seat], SEAT_NAMES[seat].upper()):
            return seat
    raise ParseError(f"“{text}” is not a seat: use N, E, S or W.", text)


# --------------------------------------------------------------------------------------
# Options, phases and actions


@dataclass(frozen=True, slots=True)
class DupeOptions:
    """A table's house rules. ``memory``: ``"strict"`` (default) or ``"open"``."""

    memory: Literal["strict", "open"] = "strict"

    def __post_init__(self) -> None:
        if self.memory not in ("strict", "open"):
            raise OptionsError(
                f"The memory rule must be “strict” or “open”, not “{self.memory}”.",
                reason="memory",
                memory=self.memory,
            )


_DEFAULT_OPTIONS = DupeOptions()  # immutable: every game without options shares it


class Phase(StrEnum):
    """What the game is waiting for."""

    CHOOSE = "choose"
    """Every player who has not yet chosen picks a card face down, in any order."""
    DISTRIBUTE = "distribute"
    """The taker gives one of the four revealed cards to each player."""
    OVER = "over"
    """The fourth deal has been scored."""


# The hot path reads phases from module globals: ``Phase.CHOOSE`` goes through the enum's
# class machinery and costs about ten times as much, on every decision.
_CHOOSE, _DISTRIBUTE, _OVER = Phase.CHOOSE, Phase.DISTRIBUTE, Phase.OVER


class Play(NamedTuple):
    """Choose ``card`` from your hand, face down, for the current trick."""

    card: Card

    def __str__(self) -> str:
        return self.card.code


class Distribute(NamedTuple):
    """As taker, give ``cards[seat]`` to each seat (a bijection from the trick's cards)."""

    cards: tuple[Card, ...]

    def __str__(self) -> str:
        return ",".join(card.code for card in self.cards)

    def receiver(self, card: Card) -> int:
        """Return the seat that receives ``card``."""
        return self.cards.index(card)


Action = Play | Distribute


def parse_action(text: str) -> Action:
    """Return the action written as ``str(action)``: ``"TS"`` plays, ``"TS,2H,3C,4D"`` distributes.

    A distribution lists the card given to North, East, South and West, in that order.
    """
    tokens = [t for t in text.replace(",", " ").split() if t]
    if len(tokens) == 1:
        return _PLAY[parse_card(tokens[0])]
    if len(tokens) == 4:
        return Distribute(tuple(parse_card(t) for t in tokens))
    raise ParseError(
        f"“{text}” is not an action: give one card to play or four cards to distribute.", text
    )


_PLAY: dict[Card, Play] = {}


def play(card: Card) -> Play:
    """Return the (shared, immutable) action that plays ``card``."""
    return _PLAY[card]


class Move(NamedTuple):
    """One entry of the move log: ``seat`` did ``action``. ``str(move)`` is ``"N:TS"``."""

    seat: int
    action: Action

    def __str__(self) -> str:
        return f"{SEAT_LETTERS[self.seat]}:{self.action}"

    @staticmethod
    def parse(text: str) -> Move:
        """Return the move written as ``str(move)``, e.g. ``"N:TS"`` or ``"E:TS,2H,3C,4D"``."""
        seat_text, sep, action_text = text.partition(":")
        if not sep:
            raise ParseError(f"“{text}” is not a move: write SEAT:ACTION, like N:TS.", text)
        return Move(_seat_index(seat_text), parse_action(action_text))


# --------------------------------------------------------------------------------------
# Who takes a trick, and scoring


def trick_taker(cards: Sequence[Card]) -> int | None:
    """Return the index of the card that takes the trick, or ``None`` if each keeps their own.

    The single highest rank takes; if the highest rank is shared, the single lowest rank
    takes; if that is shared too, nobody takes. Suits play no part.
    """
    if len(cards) != 4:
        return _taker_of_ranks([card.rank for card in cards])
    a, b, c, d = cards
    if not _TAKERS:
        _fill_takers()
    return _TAKERS[a.rank][b.rank][c.rank][d.rank]


def _taker_of_ranks(ranks: Sequence[int]) -> int | None:
    """Return :func:`trick_taker`'s answer for cards of these ranks, by the rule itself."""
    high = max(ranks)
    if ranks.count(high) == 1:
        return ranks.index(high)
    low = min(ranks)
    if ranks.count(low) == 1:
        return ranks.index(low)
    return None


_Takers = tuple[tuple[tuple[int | None, ...], ...], ...]
_TAKERS: list[_Takers] = []
"""Who takes a trick, by its cards' ranks: ``_TAKERS[a][b][c][d]`` for rank values (2 to 14)
``a, b, c, d`` in seat order. The rule's ``max``, ``count`` and ``index`` on four ranks cost
about twice the four look-ups, on every trick; the table is filled on the first trick a
process reveals (13⁴ patterns, some tens of ms, a few hundred kB)."""


def _fill_takers() -> None:
    """Fill :data:`_TAKERS`: index 0 and 1 of each level are unused (no rank has value 0 or 1)."""
    flat = list(map(_taker_of_ranks, product(range(13), repeat=4)))
    pad: tuple[Any, ...] = (None, None)
    level: list[Any] = [pad + tuple(flat[i : i + 13]) for i in range(0, len(flat), 13)]
    while len(level) > 1:
        level = [pad + tuple(level[i : i + 13]) for i in range(0, len(level), 13)]
    _TAKERS.extend(level[0])


_new_tuple = tuple.__new__
"""Builds a named tuple from a tuple of its fields, unchecked: the hot path builds views,
tricks and scores this way, and ``tuple.__new__`` looked up each time costs as much again."""
_SET_BONUS = (0, 0, 0, 6, 8)
_LONGEST_SUIT_ORDER = SEAT_SUITS  # ties for the longest suit are shown in seat order


def _rank_word(rank: Rank) -> str:
    return f"{rank.symbol}s"


class HandScore(NamedTuple):
    """How a won hand scores: ``suit_length × sequence_length + bonus``.

    ``sequence`` holds the ranks of the chosen sequence from low to high (an ace-low
    sequence starts with the ace); it is empty when no two ranks are consecutive
    (``sequence_length`` is then 1). ``sets`` lists ``(rank, cards counted)`` for each
    rank that scores a set after the sequence has taken its one card of that rank.
    """

    longest_suit: Suit
    suit_length: int
    sequence: tuple[Rank, ...]
    sequence_length: int
    sets: tuple[tuple[Rank, int], ...]
    bonus: int
    total: int

    def __str__(self) -> str:
        if self.sequence:
            seq = f"{self.sequence[0].symbol}–{self.sequence[-1].symbol}"
        else:
            seq = "no sequence"
        text = (
            f"{self.suit_length}{self.longest_suit.symbol} × {self.sequence_length} ({seq})"
            f" + {self.bonus}"
        )
        if self.sets:
            parts = [
                _rank_word(rank) if count == 3 else f"four {_rank_word(rank)}"
                for rank, count in self.sets
            ]
            text += f" ({', '.join(parts)})"
        return f"{text} = {self.total}"


def score_hand(cards: Iterable[Card]) -> HandScore:
    """Return the score of a won hand with its breakdown (rules: “Scoring a won hand”).

    L is the length of the longest suit; S the longest run of consecutive ranks in any
    suits, the ace high or low but not both; B is 6 per rank held three times and 8 per
    rank held four times, counting only cards the sequence does not use (it uses one card
    of each of its ranks). Among the sequences of length S the one giving the largest B is
    chosen, ties going to the highest sequence. When no two ranks are consecutive S = 1 and
    there is no sequence to take a card from any set. The cards are distinct (one pack).
    """
    return _score_tally(sum(map(_VALUE, cards)))


def _score_tally(tally: int) -> HandScore:
    """Return the score of the hand whose cards' :data:`_VALUE` add up to ``tally``."""
    # The tally counts every suit and every rank at once; each part of the score is then a
    # few operations on one machine-sized int and a look-up in a small cache keyed by the
    # pattern that part needs (each operation costs as much as a cache look-up).
    suits = tally & 0xFFFF
    longest_suit = _LONGEST_SUIT.get(suits)
    if longest_suit is None:
        longest_suit = _LONGEST_SUIT[suits] = _longest_suit(suits)
    longest, suit_length = longest_suit
    # Each rank's count plus 3 has its top bit set when the rank is held (4 to 7) and its
    # two top bits when it is held three or four times (6 or 7).
    counts = tally + _RANKS_PLUS_3
    top = counts >> 18
    present = top & _RANK_ONES
    candidates = _CANDIDATES.get(present)
    if candidates is None:
        if not _CANDIDATES:
            _fill_candidates()  # once: every hand's ranks are then one look-up away
        candidates = _CANDIDATES.get(present)
        if candidates is None:
            candidates = _CANDIDATES[present] = _longest_sequences(present)
    held3 = top & counts >> 17 & _RANK_ONES
    if held3:
        marks = counts >> 16 & held3 * 7  # the counts (plus 3) of those ranks alone
        found = _SETS_AT.get(marks)
        if found is None:
            found = _SETS_AT[marks] = _sets_at(marks)
        sets_at, full_bonus, all_sets = found
    else:
        sets_at, full_bonus, all_sets = _NO_SETS
    if not candidates:
        return _new_tuple(
            HandScore,
            (longest, suit_length, (), 1, all_sets, full_bonus, suit_length + full_bonus),
        )
    sequence, used = candidates[0]  # ties keep the highest sequence
    best_bonus = full_bonus
    sets: tuple[tuple[Rank, int], ...] = ()
    if sets_at:
        best_bonus = -1
        for candidate in candidates:
            bonus = full_bonus
            for v, count in sets_at:
                if v in candidate[1]:
                    bonus += _SET_BONUS[count - 1] - _SET_BONUS[count]
            if bonus > best_bonus:
                best_bonus = bonus
                sequence, used = candidate
        sets = tuple(
            (_RANKS[v], count - (v in used))
            for v, count in reversed(sets_at)
            if count - (v in used) >= 3
        )
    length = len(sequence)
    return _new_tuple(
        HandScore,
        (
            longest,
            suit_length,
            sequence,
            length,
            sets,
            best_bonus,
            suit_length * length + best_bonus,
        ),
    )


def _longest_suit(suits: int) -> tuple[Suit, int]:
    """Return the longest suit (ties: the first in seat order) and its length, from the
    count of each suit (4 bits each in ``suits``)."""
    lengths = {suit: suits >> 4 * suit & 15 for suit in Suit}
    suit_length = max(lengths.values())
    longest = next(suit for suit in _LONGEST_SUIT_ORDER if lengths[suit] == suit_length)
    return longest, suit_length


def _sets_at(marks: int) -> tuple[tuple[tuple[int, int], ...], int, tuple[tuple[Rank, int], ...]]:
    """Return ``(rank value, count)`` of each rank held three or four times, lowest first
    (``marks`` keeps those ranks' counts plus 3, 3 bits each from the twos, 0 elsewhere), their
    bonus before any sequence takes a card, and the sets they score without a sequence,
    highest first."""
    values = tuple(
        (v, (marks >> 3 * (v - 2) & 7) - 3) for v in range(2, 15) if marks >> 3 * (v - 2) & 7
    )
    bonus = sum(_SET_BONUS[count] for _, count in values)
    return values, bonus, tuple((_RANKS[v], count) for v, count in reversed(values))


def _longest_sequences(present: int) -> tuple[tuple[tuple[Rank, ...], frozenset[int]], ...]:
    """Return the longest sequences of the ranks ``present`` marks (bit ``3 × (value - 2)``
    for each rank held), highest first, with the rank values each uses; none when no two
    ranks are consecutive. A run of that many present ranks can only be a whole maximal run;
    with all 13 ranks, ace low to ace high holds two sequences of 13."""
    # "1" at index v for each rank value v held (the ace at 1 and at 14), "0" at index 0;
    # bit 3i of ``present`` is the i-th character from the end of its binary digits
    bits = bin(present | 1 << 39)[::-3]
    by_value = "0" + bits[12] + bits[:13]
    best = len(max(by_value.split("0")))  # of runs of "1" the longest is the greatest
    if best < 2:
        return ()
    if best > 13:
        best = 13  # every rank: the ace ends a sequence high or low, not both
    run = "1" * best
    found = []
    start = by_value.rfind(run)
    while start >= 0:
        found.append(_SEQUENCES[start, best])
        start = by_value.rfind(run, 0, start)
    return tuple(found)


def _fill_candidates() -> None:
    """Fill :data:`_CANDIDATES` for all 2¹³ sets of ranks (some tens of ms, once a process):
    filled one miss at a time, the first few hundred games pay a miss in most hands."""
    for held in product("01", repeat=13):
        ace_first = "".join(held)
        _CANDIDATES[int("00".join(ace_first), 2)] = _longest_sequences(int("00".join(ace_first), 2))


_VALUE: Callable[[Card], int] = {
    card: 1 << 16 + 3 * (card.rank - 2) | 1 << 4 * card.suit for card in DECK
}.__getitem__
"""A card's value: one in the 4-bit count of its suit (from bit 0) and in the 3-bit count of
its rank (from bit 16, twos lowest). The values of distinct cards of one pack add up without
a carry to a tally that fits a machine word (``sum`` adds such ints without making an int
object per card), and they order cards as ``sorted`` does (by rank, then suit)."""
_ORDER: Callable[[Card], int] = {card: i for i, card in enumerate(sorted(DECK))}.__getitem__
"""A card's place in the sorted pack: sorting by it orders cards as ``sorted`` does, without
comparing two enum members per step (and small ints compare faster than card values)."""
_RANK_ONES = sum(1 << 3 * i for i in range(13))
"""The lowest bit of each rank's count, the twos' at bit 0."""
_RANKS_PLUS_3 = 3 * _RANK_ONES << 16
"""Adds 3 to each rank's count in a tally (no count passes 4, so none carries)."""
_RANKS: tuple[Rank, ...] = (Rank.ACE, Rank.ACE, *Rank)  # by value; 1 is the low ace
_CANDIDATES: dict[int, tuple[tuple[tuple[Rank, ...], frozenset[int]], ...]] = {}
""":func:`_longest_sequences` by the ranks present: at most 2¹³ patterns."""
_LONGEST_SUIT: dict[int, tuple[Suit, int]] = {}
""":func:`_longest_suit` by the suits' counts: at most 560 ways to split 13 cards in four."""
_SETS_AT: dict[int, tuple[tuple[tuple[int, int], ...], int, tuple[tuple[Rank, int], ...]]] = {}
""":func:`_sets_at` by the counts of the ranks held three or four times: a few thousand
patterns at most (four sets at most)."""
_NO_SETS: tuple[tuple[tuple[int, int], ...], int, tuple[tuple[Rank, int], ...]] = ((), 0, ())
_SEQUENCES: dict[tuple[int, int], tuple[tuple[Rank, ...], frozenset[int]]] = {
    (start, length): (
        tuple(_RANKS[v] for v in range(start, start + length)),
        frozenset(14 if v == 1 else v for v in range(start, start + length)),
    )
    for start in range(1, 14)
    for length in range(2, 16 - start)
    if length <= 13
}
"""The sequence of ``length`` ranks from value ``start`` up (1 is the low ace), and the rank
values it uses."""


# --------------------------------------------------------------------------------------
# Records that become public


class TrickRecord(NamedTuple):
    """A revealed trick: ``cards[seat]`` played, ``received[seat]`` got, ``taker`` or None."""

    deal: int
    trick: int
    cards: tuple[Card, ...]
    taker: int | None
    received: tuple[Card, ...]


class DealResult(NamedTuple):
    """A scored deal; all of it is public once the deal is scored.

    ``identities[seat]`` is the suit of that seat's identity card, ``won[seat]`` its won
    hand and ``scores[seat]`` how that hand scores; ``credited[seat]`` is what the seat
    earned (the score of its dupe's hand) and ``totals`` the cumulative totals after it.
    """

    deal: int
    identities: tuple[Suit, ...]
    won: tuple[tuple[Card, ...], ...]
    scores: tuple[HandScore, ...]
    credited: tuple[int, ...]
    totals: tuple[int, ...]

    def dupe(self, seat: int) -> int:
        """Return the seat whose won hand scored for ``seat`` in this deal."""
        return _SUIT_SEAT[self.identities[seat]]


# --------------------------------------------------------------------------------------
# Views


def _codes(cards: Iterable[Card] | None) -> list[str] | None:
    return None if cards is None else [card.code for card in cards]


class DupeView(NamedTuple):
    """Everything one seat may know at this moment, and nothing else.

    ``seat`` is ``None`` for the public view (the table and spectators): it has no hand, no
    identity card and no choice. ``chosen[s]`` says whether seat ``s`` has chosen its card
    for this trick (never which). ``revealed``/``taker`` describe the trick waiting for its
    distribution; ``last_trick`` is the most recently completed trick with who received
    what. ``won`` is this seat's own won cards under the ``"open"`` memory rule and
    ``None`` under ``"strict"``. ``results`` are the scored deals, public in full.
    """

    seat: int | None
    memory: str
    phase: Phase
    deal: int
    trick: int
    hand: tuple[Card, ...]
    identity: Suit | None
    choice: Card | None
    chosen: tuple[bool, ...]
    to_act: tuple[int, ...]
    revealed: tuple[Card, ...] | None
    taker: int | None
    last_trick: TrickRecord | None
    won: tuple[Card, ...] | None
    results: tuple[DealResult, ...]
    totals: tuple[int, ...]
    winners: tuple[int, ...]

    @property
    def dupe(self) -> int | None:
        """Return the seat whose won cards this seat scores this deal, if it has a seat."""
        return None if self.identity is None else _SUIT_SEAT[self.identity]

    def legal_actions(self) -> tuple[Action, ...]:
        """Return this seat's legal actions, sorted (the same as the state's)."""
        if self.seat is None:
            return ()
        if self.phase is _CHOOSE and self.choice is None:
            return tuple(_PLAY[card] for card in self.hand)
        if self.phase is _DISTRIBUTE and self.taker == self.seat and self.revealed:
            return _distributions(self.revealed)
        return ()

    def to_dict(self) -> dict[str, Any]:
        """Return the view as plain JSON-ready data (cards as codes like ``"TS"``)."""
        last = self.last_trick
        return {
            "seat": self.seat,
            "memory": self.memory,
            "phase": self.phase.value,
            "deal": self.deal,
            "trick": self.trick,
            "hand": _codes(self.hand),
            "identity": None if self.identity is None else self.identity.letter,
            "choice": None if self.choice is None else self.choice.code,
            "chosen": list(self.chosen),
            "to_act": list(self.to_act),
            "revealed": _codes(self.revealed),
            "taker": self.taker,
            "last_trick": None
            if last is None
            else {
                "deal": last.deal,
                "trick": last.trick,
                "cards": _codes(last.cards),
                "taker": last.taker,
                "received": _codes(last.received),
            },
            "won": _codes(self.won),
            "results": [
                {
                    "deal": r.deal,
                    "identities": [suit.letter for suit in r.identities],
                    "won": [_codes(hand) for hand in r.won],
                    "scores": [str(score) for score in r.scores],
                    "credited": list(r.credited),
                    "totals": list(r.totals),
                }
                for r in self.results
            ],
            "totals": list(self.totals),
            "winners": list(self.winners),
        }


_CHOSEN: tuple[tuple[bool, ...], ...] = tuple(
    tuple(bool(mask >> seat & 1) for seat in range(4)) for mask in range(16)
)
_NONE_CHOSEN = _CHOSEN[0]

# Who has chosen (``_CHOSEN``) and who still has to (``_TO_ACT``), by the bit mask of the
# seats that have chosen.
_TO_ACT: tuple[tuple[int, ...], ...] = tuple(
    tuple(seat for seat in SEATS if not mask >> seat & 1) for mask in range(16)
)


_CREDITED: Callable[[DealResult], tuple[int, ...]] = operator.attrgetter("credited")

_PILES: Callable[[list[Any]], tuple[list[Any], ...]] = operator.itemgetter(
    *(slice(seat, None, 4) for seat in SEATS)
)
"""The four won piles of a deal's received cards (``DupeState._won``), in seat order."""


_SORTED_PILE: Callable[[list[Card]], list[Card]] = functools.partial(sorted, key=_ORDER)
_CARD_VALUES: Callable[[Iterable[Card]], Iterator[int]] = functools.partial(map, _VALUE)
_TOTAL: Callable[[HandScore], int] = operator.itemgetter(6)  # HandScore.total
_SUIT_SEAT_OF: Callable[[Suit], int] = _SUIT_SEAT.__getitem__


_Row = tuple[tuple[Any, tuple[int, ...], tuple[bool, ...]] | None, ...]


def _choice_rows() -> _Row:
    """Return the row of a trick nobody has chosen in yet: ``row[seat]`` is the row once
    ``seat`` has chosen too, with ``_TO_ACT`` and ``_CHOSEN`` then (``to_act`` empty: all
    four have chosen), or ``None`` if ``seat`` has chosen already. Read from tables: the
    bit arithmetic on every choice costs more."""
    rows: dict[int, _Row] = {}
    for mask in range(14, -1, -1):  # a row's successors first: they have more bits set
        after = [mask | 1 << seat for seat in SEATS]
        rows[mask] = tuple(
            None if mask >> seat & 1 else (rows.get(now, ()), _TO_ACT[now], _CHOSEN[now])
            for seat, now in zip(SEATS, after, strict=True)
        )
    return rows[0]


_FIRST_ROW = _choice_rows()
"""Who has chosen and who still has to, as choices come in (``DupeState._row``)."""
_NOT_CHOOSING: _Row = (None, None, None, None)
"""``DupeState._row`` while nobody chooses (a trick to distribute, the game over)."""


def _distributions(cards: Sequence[Card]) -> tuple[Action, ...]:
    ordered = sorted(cards)
    return tuple(Distribute(p) for p in permutations(ordered))


# --------------------------------------------------------------------------------------
# The state


class DupeState(State[DupeView, Action, DupeOptions]):
    """One game of Dupe in progress. Change it only with :meth:`apply`.

    Seats that must act are :attr:`to_act`: during :attr:`Phase.CHOOSE` every seat that
    has not chosen yet, in any order; during :attr:`Phase.DISTRIBUTE` only the taker.
    """

    __slots__ = (
        "_choices",
        "_chosen",
        "_deal",
        "_hands",
        "_held",
        "_identities",
        "_identity",
        "_last",
        "_logged",
        "_memory",
        "_moves",
        "_open",
        "_over",
        "_phase",
        "_results",
        "_revealed",
        "_row",
        "_taker",
        "_to_act",
        "_totals",
        "_trick",
        "_turn",
        "_winners",
        "_won",
        "options",
        "seed",
    )

    options: DupeOptions
    seed: int
    _hands: list[tuple[Card, ...]]
    _held: list[list[Card]]  # the same hands as lists, to take a card out in place
    _won: list[Card]  # this deal's received cards, trick by trick in seat order
    _choices: list[Card | None]
    _row: _Row  # who has chosen: see _FIRST_ROW
    _chosen: tuple[bool, ...]
    _to_act: tuple[int, ...]
    _winners: tuple[int, ...]
    _identities: tuple[tuple[Suit, ...], ...]
    _identity: tuple[Suit, ...]  # this deal's: _identities[_deal - 1]
    _deal: int
    _trick: int
    _turn: int
    _phase: Phase
    _over: bool
    _taker: int | None
    _revealed: tuple[Card, ...] | None
    _last: TrickRecord | None
    _results: tuple[DealResult, ...]
    _totals: tuple[int, ...]
    _moves: list[tuple[int, Action]]
    _memory: str  # options.memory, and whether it is "open": read by every view
    _open: bool
    _logged: tuple[Move, ...]

    # --- reading -------------------------------------------------------------------

    @property
    def phase(self) -> Phase:
        """Return what the game is waiting for."""
        return self._phase

    @property
    def deal(self) -> int:
        """Return the current deal, 1 to 4 (4 once the game is over)."""
        return self._deal

    @property
    def trick(self) -> int:
        """Return the current trick of the deal, 1 to 13."""
        return self._trick

    @property
    def turn(self) -> int:
        """Return the decision point: it rises by one when a trick's choosing round is
        complete and when a distribution is made (and so once more at the end)."""
        return self._turn

    @property
    def players(self) -> int:
        """Return the number of players: four."""
        return 4

    def result(self) -> GameResult:
        """Return the totals, the winners once the game is over, and each deal's credits."""
        # one C zip over the deals' credits, not a generator per seat
        rounds = tuple(zip(*map(_CREDITED, self._results), strict=True)) or ((), (), (), ())
        return GameResult(self._totals, self._winners, rounds)

    if TYPE_CHECKING:

        def controller(self, seat: int) -> int | None:
            """Return the seat that decides for ``seat``: itself."""

        def player_at(self, seat: int) -> int | None:
            """Return the player at ``seat``: the seat itself."""

    else:
        # Every seat decides for itself and is its own player: both answers are the seat,
        # given by the builtin ``operator.index``, which costs no Python call where a game
        # loop asks them on every decision (engine.simulate).
        controller = player_at = staticmethod(operator.index)

    if TYPE_CHECKING:

        @property
        def to_act(self) -> tuple[int, ...]:
            """Return the seats that must act now, in seat order."""

        @property
        def is_over(self) -> bool:
            """Return whether the fourth deal has been scored."""

    else:
        # A game loop reads both on every step: a property whose getter is the builtin
        # ``attrgetter`` reads the slot without a Python call.
        to_act = property(
            operator.attrgetter("_to_act"), doc="Return the seats that must act now, in seat order."
        )
        is_over = property(
            operator.attrgetter("_over"), doc="Return whether the fourth deal has been scored."
        )

    @property
    def taker(self) -> int | None:
        """Return the seat that must distribute the revealed trick, during distribution."""
        return self._taker

    @property
    def moves(self) -> tuple[Move, ...]:
        """Return the move log since the start of the game."""
        logged = self._logged
        if len(logged) < len(self._moves):
            # Only the moves made since the log was last read become Move objects: reading
            # it after every decision (as the bot does) stays cheap late in the game.
            new = self._moves[len(logged) :]
            logged += tuple(Move(seat, action) for seat, action in new)
            self._logged = logged
        return logged

    @property
    def move_count(self) -> int:
        """Return how many moves have been made since the start of the game."""
        return len(self._moves)

    @property
    def totals(self) -> tuple[int, ...]:
        """Return each seat's cumulative score over the deals scored so far."""
        return self._totals

    @property
    def results(self) -> tuple[DealResult, ...]:
        """Return the scored deals."""
        return self._results

    @property
    def winners(self) -> tuple[int, ...]:
        """Return the seats with the highest total once the game is over (ties share)."""
        return self._winners

    def hand(self, seat: int) -> tuple[Card, ...]:
        """Return the seat's hand, sorted (full state: not for other seats' eyes)."""
        return self._hands[seat]

    def won_cards(self, seat: int) -> tuple[Card, ...]:
        """Return the seat's won cards this deal, sorted (full state)."""
        return tuple(sorted(self._won[seat::4]))

    def identity(self, seat: int) -> Suit:
        """Return the suit of the seat's identity card this deal (full state)."""
        return self._identities[self._deal - 1][seat]

    def dupe(self, seat: int) -> int:
        """Return the seat whose won cards score for ``seat`` this deal (full state)."""
        return _SUIT_SEAT[self._identities[self._deal - 1][seat]]

    def choice(self, seat: int) -> Card | None:
        """Return the card the seat has chosen face down this trick, if any (full state)."""
        return self._choices[seat]

    def legal_actions(self, seat: int) -> tuple[Action, ...]:
        """Return the seat's legal actions now, sorted; empty when it has nothing to do."""
        if self._phase is _CHOOSE:
            if self._choices[seat] is None:
                return tuple(_PLAY[card] for card in self._hands[seat])
            return ()
        if self._phase is _DISTRIBUTE and seat == self._taker:
            assert self._revealed is not None
            return _distributions(self._revealed)
        return ()

    def is_legal(self, seat: int, action: Action) -> bool:
        """Return whether ``seat`` may take ``action`` now."""
        try:
            self._check(seat, action)
        except IllegalActionError:
            return False
        except InvalidActionError:
            return False
        return True

    def view(self, seat: int) -> DupeView:
        """Return everything ``seat`` may know now, and nothing else."""
        # As ``seat in SEATS`` but by one hash look-up: the tuple compares every seat
        # before this one, on every decision.
        try:
            known = seat in _SEAT_SET
        except TypeError:  # unhashable: no seat
            known = False
        if not known:
            raise InvalidActionError(
                f"There is no seat {seat!r} at a Dupe table.", reason="invalid-seat", seat=seat
            )
        # Built straight as the tuple it is, the public part inline: a view is made for
        # every decision (``_view`` builds the same for the public view).
        return _new_tuple(
            DupeView,
            (
                seat,
                self._memory,
                self._phase,
                self._deal,
                self._trick,
                self._hands[seat],
                self._identity[seat],
                self._choices[seat],
                self._chosen,
                self._to_act,
                self._revealed,
                self._taker,
                self._last,
                tuple(sorted(self._won[seat::4], key=_ORDER)) if self._open else None,
                self._results,
                self._totals,
                self._winners,
            ),
        )

    def public_view(self) -> DupeView:
        """Return what the table shows everyone, spectators included."""
        return self._view(None, (), None, None, None)

    def _view(
        self,
        seat: int | None,
        hand: tuple[Card, ...],
        identity: Suit | None,
        choice: Card | None,
        won: tuple[Card, ...] | None,
    ) -> DupeView:
        """Return a view: the public part of the state and one seat's own part."""
        return _new_tuple(
            DupeView,
            (
                seat,
                self.options.memory,
                self._phase,
                self._deal,
                self._trick,
                hand,
                identity,
                choice,
                self._chosen,
                self._to_act,
                self._revealed,
                self._taker,
                self._last,
                won,
                self._results,
                self._totals,
                self._winners,
            ),
        )

    def clone(self) -> DupeState:
        """Return an independent copy of this state."""
        other = copy.copy(self)  # shares the immutable parts
        other._hands = list(self._hands)
        other._held = [list(hand) for hand in self._held]
        other._won = list(self._won)
        other._choices = list(self._choices)
        other._moves = list(self._moves)
        return other

    def __repr__(self) -> str:
        return (
            f"<DupeState seed={self.seed} deal={self._deal} trick={self._trick} "
            f"phase={self._phase.value} moves={len(self._moves)}>"
        )

    # --- changing ------------------------------------------------------------------

    def _check(self, seat: int, action: object) -> None:
        """Raise unless ``seat`` may take ``action`` now; changes nothing."""
        if type(seat) is not int or not 0 <= seat <= 3:
            raise InvalidActionError(
                f"There is no seat {seat!r} at a Dupe table.", reason="invalid-seat", seat=seat
            )
        phase = self._phase
        if phase is _OVER:
            raise GameOverError("The game is over: no more cards can be played.")
        if type(action) is Play:
            card = action.card
            if type(card) is not Card:
                raise InvalidActionError(f"{card!r} is not a card.", reason="invalid-action")
            if phase is not _CHOOSE:
                raise NotYourTurnError(
                    f"{SEAT_NAMES[self._taker or 0]} is distributing the trick: "
                    "no card can be chosen until that is done.",
                    reason="distributing",
                    taker=self._taker,
                )
            if self._choices[seat] is not None:
                raise NotYourTurnError(
                    "You have already chosen your card for this trick; a choice is final.",
                    reason="already-chosen",
                )
            if card not in self._hands[seat]:
                raise IllegalActionError(
                    f"{card} is not in your hand.", reason="not-in-hand", card=card.code
                )
        elif type(action) is Distribute:
            cards = action.cards
            if (
                type(cards) is not tuple
                or len(cards) != 4
                or any(type(c) is not Card for c in cards)
            ):
                raise InvalidActionError(
                    "A distribution gives exactly one card to each seat.", reason="invalid-action"
                )
            if phase is not _DISTRIBUTE:
                raise NotYourTurnError(
                    "There is no trick to distribute now.", reason="nothing-to-distribute"
                )
            if seat != self._taker:
                raise NotYourTurnError(
                    f"Only the taker, {SEAT_NAMES[self._taker or 0]}, distributes this trick.",
                    reason="only-taker",
                    taker=self._taker,
                )
            assert self._revealed is not None
            if sorted(cards) != sorted(self._revealed):
                raise IllegalActionError(
                    "Give each of the four revealed cards ("
                    f"{format_cards(self._revealed)}) to exactly one player.",
                    reason="give-revealed",
                    cards=tuple(card.code for card in self._revealed),
                )
        else:
            raise InvalidActionError(f"{action!r} is not a Dupe action.", reason="invalid-action")

    def apply(self, seat: int, action: Action) -> None:
        """Let ``seat`` take ``action``; raise an :class:`EngineError` and change nothing if
        it may not."""
        # The hot paths take only what is certainly legal: the seat's own (interned) card
        # object while it may choose; a bijection of the revealed card objects by the taker.
        # Anything else, legal or not, goes through _check(), which raises and explains, or
        # finds it legal after all (say an equal card that is another object). The reveal,
        # the distribution and the trick's end are written inline: a call costs as much as
        # the work, and this runs on every decision.
        if type(action) is Play:
            card = action[0]
            try:
                # The seat's entry in the row of who has chosen: None once it has chosen and
                # while nobody chooses (IndexError, TypeError: no seat); and the seat is its
                # own int object (a small int is one object: not ``True``, not ``-1``).
                entry = self._row[seat]
                if entry is None or SEATS[seat] is not seat:
                    raise ValueError
                held = self._held[seat]
                i = held.index(card)  # ValueError: not in the hand
                if held[i] is not card:
                    raise ValueError
            except (ValueError, IndexError, TypeError):
                entry = None  # not the fast path (and no error as the context of _check's)
            if entry is None:
                self._check(seat, action)
                entry = self._row[seat]
                assert entry is not None  # _check() let only a seat that may choose pass
                held = self._held[seat]
                i = held.index(card)
                card = held[i]  # the hand's own (interned) card
            self._moves.append((seat, action))
            self._choices[seat] = card
            # Out of the list in place, then one copy as the tuple views share: cheaper
            # than two slices and their concatenation.
            del held[i]
            self._hands[seat] = tuple(held)
            row, to_act, chosen = entry
            if to_act:
                self._row = row
                self._to_act = to_act
                self._chosen = chosen
                return
            # All four have chosen: reveal the trick.
            cards: tuple[Card, ...] = tuple(self._choices)  # type: ignore[arg-type]
            self._turn += 1
            self._choices = [None, None, None, None]
            self._chosen = _NONE_CHOSEN
            # trick_taker(), inline
            a, b, c, d = cards
            if not _TAKERS:
                _fill_takers()
            taker: int | None = _TAKERS[a[0]][b[0]][c[0]][d[0]]
            if taker is not None:
                self._phase = _DISTRIBUTE
                self._row = _NOT_CHOOSING
                self._taker = taker
                self._to_act = (taker,)
                self._revealed = cards
                return
            self._row = _FIRST_ROW
            self._to_act = SEATS
            received = cards  # each keeps their own
        else:
            # the taker's bijection of the revealed card objects, certainly legal
            cards = self._revealed  # type: ignore[assignment]
            if (
                type(action) is Distribute
                and cards is not None
                # the taker's own int object (a small int is one object: ``True`` is not)
                and seat is self._taker
                and type(received := action[0]) is tuple
                and len(received) == 4
            ):
                a, b, c, d = received
                w, x, y, z = cards
                # A permutation of the four revealed objects, told by identity alone: each of
                # the four (distinct) revealed cards is one of the four received, so no two
                # received are the same.
                if not (
                    (w is a or w is b or w is c or w is d)
                    and (x is a or x is b or x is c or x is d)
                    and (y is a or y is b or y is c or y is d)
                    and (z is a or z is b or z is c or z is d)
                ):
                    self._check(seat, action)
            else:
                self._check(seat, action)
                received = cast(Distribute, action).cards  # _check() let only these pass
            self._moves.append((seat, action))
            taker = self._taker
            self._turn += 1
            self._phase = _CHOOSE
            self._row = _FIRST_ROW
            self._taker = None
            self._revealed = None
            self._to_act = SEATS
        # The trick is over: everyone's received card goes onto their won cards.
        self._won += received  # seat s's pile is every fourth card from card s
        self._last = _new_tuple(TrickRecord, (self._deal, self._trick, cards, taker, received))
        if self._trick < TRICKS:
            self._trick += 1
            return
        self._score_deal()

    def _score_deal(self) -> None:
        # Maps over builtins, not generators: a generator costs a frame and a resumption per
        # item, more than the work of most of these steps.
        identities = self._identity
        won = tuple(map(tuple, map(_SORTED_PILE, _PILES(self._won))))
        scores = tuple(map(_score_tally, map(sum, map(_CARD_VALUES, won))))
        credited = tuple(map(_TOTAL, map(scores.__getitem__, map(_SUIT_SEAT_OF, identities))))
        self._totals = tuple(map(operator.add, self._totals, credited))
        self._results = (
            *self._results,
            _new_tuple(DealResult, (self._deal, identities, won, scores, credited, self._totals)),
        )
        if self._deal == DEALS:
            self._phase = _OVER
            self._row = _NOT_CHOOSING
            self._over = True
            self._to_act = ()
            top = max(self._totals)
            self._winners = tuple(s for s in SEATS if self._totals[s] == top)
            return
        self._deal += 1
        self._identity = self._identities[self._deal - 1]
        self._trick = 1
        self._hands = list(won)
        self._held = [list(hand) for hand in won]
        self._won = []


def new_game(seed: int, options: DupeOptions | None = None) -> DupeState:
    """Return a new game: the seeded deal of 13 cards each and every deal's identity cards.

    Cards are dealt one at a time starting with East (North deals); each deal's identity
    cards are a fresh uniformly random permutation of the four suits.
    """
    if type(seed) is not int:
        raise OptionsError(f"A game's seed must be a whole number, not {seed!r}.", reason="seed")
    rng = random.Random(seed)
    deck = shuffled_deck(rng)
    # Card i goes to seat (i + 1) % 4: every fourth card from the first, East's from card 0.
    hands = (deck[3::4], deck[0::4], deck[1::4], deck[2::4])
    identities = []
    for _ in range(DEALS):
        suits = list(SEAT_SUITS)
        shuffle(rng, suits)
        identities.append(tuple(suits))
    state = DupeState.__new__(DupeState)
    state.options = options if options is not None else _DEFAULT_OPTIONS
    state._memory = state.options.memory
    state._open = state._memory == "open"
    state.seed = seed
    state._hands = [tuple(sorted(hand, key=_ORDER)) for hand in hands]
    state._held = [list(hand) for hand in state._hands]
    state._won = []
    state._choices = [None, None, None, None]
    state._row = _FIRST_ROW
    state._chosen = _NONE_CHOSEN
    state._to_act = SEATS
    state._winners = ()
    state._identities = tuple(identities)
    state._identity = state._identities[0]
    state._deal = 1
    state._trick = 1
    state._turn = 0
    state._phase = _CHOOSE
    state._over = False
    state._taker = None
    state._revealed = None
    state._last = None
    state._results = ()
    state._totals = (0, 0, 0, 0)
    state._moves = []
    state._logged = ()
    return state


def replay(seed: int, options: DupeOptions | None, moves: Iterable[Move | str]) -> DupeState:
    """Return the state reached by playing ``moves`` (objects or ``"N:TS"`` strings) from
    ``new_game(seed, options)``; an illegal move raises as :meth:`DupeState.apply` does."""
    state = new_game(seed, options)
    for move in moves:
        if isinstance(move, str):
            move = Move.parse(move)
        state.apply(move.seat, move.action)
    return state


def _init_plays() -> None:
    for card in DECK:
        _PLAY[card] = Play(card)


_init_plays()
