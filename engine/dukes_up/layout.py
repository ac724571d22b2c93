"""Dukes Up!'s cards on the table: ranks (ace low), suit groups, colours, runs and sets, the
exact layout search and the A4 proposal search (``docs/rules/dukes_up.md``, "Runs, sets and
a valid table" and "Engine: state, checks and the arrangement search").

Everything here is a pure function of cards, so the state and the computer players (which
see only views) use the same search.

**The search.** Whether a multiset of cards can be laid out is an exact dynamic programme over
the ranks A→K. At each rank it picks the set for that rank (none, any 3 of the rank's cards,
or all 4); every other card of a suit group extends one of that group's runs still open from
the rank below or starts a new run, and an open run that is not extended closes, which it
may only do with at least 3 cards. A suit group holds at most 2 cards of a rank, so at most 2
of its runs are open at once, each of length 1, 2 or "3 or more": 10 states per group, 100
per rank. The transitions between them are precomputed once, so a full 52-card table takes a
few hundred dictionary look-ups.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import combinations

from engine.cards import DECK, Card, Rank, Suit

__all__ = [
    "BLACK",
    "FLOWERS",
    "RED",
    "THORNS",
    "Fits",
    "Group",
    "can_layout",
    "colour",
    "find_layout",
    "group_kind",
    "is_valid_group",
    "is_valid_layout",
    "offer_d4",
    "propose_layout",
    "related",
    "replace_groups",
    "sort_group",
    "suit_group",
    "value",
]

Group = tuple[Card, ...]

BLACK, RED = 0, 1
"""The seats: Black owns ♣ ♠, Red owns ♥ ♦."""
THORNS, FLOWERS = 0, 1
"""The suit groups: THORNS = ♠ + ♦, FLOWERS = ♣ + ♥."""

_VALUE: dict[Card, int] = {c: (1 if c.rank is Rank.ACE else int(c.rank)) for c in DECK}
_GROUP: dict[Suit, int] = {
    Suit.SPADES: THORNS,
    Suit.DIAMONDS: THORNS,
    Suit.CLUBS: FLOWERS,
    Suit.HEARTS: FLOWERS,
}
_COLOUR: dict[Suit, int] = {
    Suit.CLUBS: BLACK,
    Suit.SPADES: BLACK,
    Suit.HEARTS: RED,
    Suit.DIAMONDS: RED,
}


def value(card: Card) -> int:
    """Return the card's value in this game: A = 1, 2–10, J = 11, Q = 12, K = 13."""
    return _VALUE[card]


def suit_group(card: Card) -> int:
    """Return the card's suit group: :data:`THORNS` (♠ ♦) or :data:`FLOWERS` (♣ ♥)."""
    return _GROUP[card.suit]


def colour(card: Card) -> int:
    """Return the seat owning the card: :data:`BLACK` (♣ ♠) or :data:`RED` (♥ ♦)."""
    return _COLOUR[card.suit]


def _sort_key(card: Card) -> tuple[int, int]:
    return (_VALUE[card], int(card.suit))


def sort_group(cards: Iterable[Card]) -> Group:
    """Return the cards in table order: by value (ace low), then suit."""
    return tuple(sorted(cards, key=_sort_key))


def group_kind(cards: Sequence[Card]) -> str | None:
    """Return ``"set"`` or ``"run"`` for a valid group, ``None`` for anything else."""
    n = len(cards)
    if n < 3 or len(set(cards)) != n:
        return None
    values = [_VALUE[c] for c in cards]
    low = min(values)
    if low == max(values):
        return "set"  # n ≤ 4 follows: only four cards of a rank exist
    g = _GROUP[cards[0].suit]
    if any(_GROUP[c.suit] != g for c in cards):
        return None
    if len(set(values)) != n or max(values) - low != n - 1:
        return None
    return "run"


def is_valid_group(cards: Sequence[Card]) -> bool:
    """Return whether the cards are a run or a set."""
    return group_kind(cards) is not None


def is_valid_layout(table: Iterable[Sequence[Card]]) -> bool:
    """Return whether every group is a run or a set (an empty table is valid)."""
    return all(group_kind(g) is not None for g in table)


def related(a: Card, b: Card) -> bool:
    """Return whether ``b`` is of the same rank as ``a``, or of its suit group within 2 ranks
    (A4 step 2's test)."""
    va, vb = _VALUE[a], _VALUE[b]
    return va == vb or (_GROUP[a.suit] == _GROUP[b.suit] and abs(va - vb) <= 2)


def replace_groups(
    table: Sequence[Group], named: Iterable[int], partition: Sequence[Group]
) -> tuple[Group, ...]:
    """Return the table with the groups numbered ``named`` (1-based) replaced by
    ``partition``, in the order written, where the lowest-numbered of them was; with none
    named the partition is appended."""
    drop = set(named)
    if not drop:
        return (*table, *partition)
    low = min(drop)
    kept_before = tuple(table[: low - 1])
    kept_after = tuple(g for i, g in enumerate(table[low - 1 :], low) if i not in drop)
    return (*kept_before, *partition, *kept_after)


# --------------------------------------------------------------------------------------
# The exact search

_RUNS: tuple[tuple[int, ...], ...] = (
    (),
    (1,),
    (2,),
    (3,),
    (1, 1),
    (1, 2),
    (1, 3),
    (2, 2),
    (2, 3),
    (3, 3),
)
"""A suit group's open runs, by capped length (3 = three or more), sorted."""
_RUN_ID = {runs: i for i, runs in enumerate(_RUNS)}
_CLOSED = frozenset(_RUN_ID[r] for r in ((), (3,), (3, 3)))
"""Group states whose open runs may all close."""


def _group_moves(state: int, c: int) -> tuple[tuple[int, tuple[int, ...]], ...]:
    """Return ``(new state, extended runs)`` for ``c`` cards of one suit group at the next
    rank: each card extends a distinct open run or starts one; a run not extended closes and
    must then hold 3 or more."""
    runs = _RUNS[state]
    seen: dict[int, tuple[int, ...]] = {}
    for k in range(min(c, len(runs)) + 1):
        for extended in combinations(range(len(runs)), k):
            if any(runs[i] < 3 for i in range(len(runs)) if i not in extended):
                continue
            new = tuple(sorted([min(runs[i] + 1, 3) for i in extended] + [1] * (c - k)))
            seen.setdefault(_RUN_ID[new], extended)
    return tuple(seen.items())


_GROUP_MOVES = [[_group_moves(s, c) for c in range(3)] for s in range(len(_RUNS))]

_Move = tuple[int, tuple[int, ...], tuple[int, ...]]
_PAIR_MOVES: dict[tuple[int, int, int], tuple[_Move, ...]] = {}


def _pair_moves(state: int, ct: int, cf: int) -> tuple[_Move, ...]:
    """Return the moves of both suit groups' runs together (state = thorns * 10 + flowers)."""
    key = (state, ct, cf)
    moves = _PAIR_MOVES.get(key)
    if moves is None:
        t, f = divmod(state, 10)
        moves = tuple(
            (nt * 10 + nf, et, ef)
            for nt, et in _GROUP_MOVES[t][ct]
            for nf, ef in _GROUP_MOVES[f][cf]
        )
        _PAIR_MOVES[key] = moves
    return moves


_SUIT_BIT = {Suit.CLUBS: 1, Suit.DIAMONDS: 2, Suit.HEARTS: 4, Suit.SPADES: 8}
_THORN_BITS = 2 | 8
_FLOWER_BITS = 1 | 4


def _set_choices(mask: int) -> tuple[tuple[int, int, int], ...]:
    """Return ``(set's suits, thorns left, flowers left)`` for a rank whose present suits are
    ``mask``: no set, each set of 3, the set of 4 (one of each leftover count pair)."""
    options = [0] + [m for m in range(1, 16) if m & mask == m and bin(m).count("1") >= 3]
    seen: dict[tuple[int, int], int] = {}
    for m in options:
        rest = mask & ~m
        seen.setdefault(
            (bin(rest & _THORN_BITS).count("1"), bin(rest & _FLOWER_BITS).count("1")), m
        )
    return tuple((m, t, f) for (t, f), m in seen.items())


_SET_CHOICES = [_set_choices(mask) for mask in range(16)]


def _masks(cards: Iterable[Card]) -> list[int] | None:
    """Return the suits present at each value 1..13 as bit masks, ``None`` on a repeat."""
    masks = [0] * 14
    for card in cards:
        v = _VALUE[card]
        bit = _SUIT_BIT[card.suit]
        if masks[v] & bit:
            return None
        masks[v] |= bit
    return masks


def can_layout(cards: Iterable[Card]) -> bool:
    """Return whether the cards (distinct) can be laid out as runs and sets, exactly."""
    masks = _masks(cards)
    if masks is None:
        return False
    states = {0}
    for v in range(1, 14):
        choices = _SET_CHOICES[masks[v]]
        new: set[int] = set()
        for s in states:
            for _, ct, cf in choices:
                for move in _pair_moves(s, ct, cf):
                    new.add(move[0])
        if not new:
            return False
        states = new
    return any(divmod(s, 10)[0] in _CLOSED and s % 10 in _CLOSED for s in states)


def _step(states: Iterable[int], mask: int) -> set[int]:
    """Return the run states after one rank whose present suits are ``mask``."""
    choices = _SET_CHOICES[mask]
    new: set[int] = set()
    for s in states:
        for _, ct, cf in choices:
            for move in _pair_moves(s, ct, cf):
                new.add(move[0])
    return new


class Fits:
    """Answers whether extra cards can be laid out together with a fixed set of cards (the
    table), faster than :func:`can_layout` on the union: the search's states up to each rank
    are kept, so only the ranks the extra cards touch are searched again, and whether a
    state can still be completed is remembered. A computer player asks it many times per
    turn about one table."""

    __slots__ = ("_done", "_forward", "_masks")

    def __init__(self, cards: Iterable[Card]) -> None:
        masks = _masks(cards)
        if masks is None:
            raise ValueError("A card is named twice.")
        self._masks = masks
        forward: list[set[int]] = [{0}]
        for v in range(1, 14):
            forward.append(_step(forward[-1], masks[v]))
        self._forward = forward
        self._done: dict[int, bool] = {}

    def _completes(self, v: int, state: int) -> bool:
        """Return whether ranks ``v + 1`` … K of the fixed cards can follow ``state``."""
        if v == 13:
            return divmod(state, 10)[0] in _CLOSED and state % 10 in _CLOSED
        key = v * 100 + state
        done = self._done.get(key)
        if done is None:
            done = any(self._completes(v + 1, s) for s in _step((state,), self._masks[v + 1]))
            self._done[key] = done
        return done

    def fits(self, extra: Iterable[Card] = ()) -> bool:
        """Return whether the fixed cards and ``extra`` (none of them fixed, distinct) can be
        laid out as runs and sets."""
        added: dict[int, int] = {}
        for card in extra:
            v = _VALUE[card]
            bit = _SUIT_BIT[card.suit]
            if (self._masks[v] | added.get(v, 0)) & bit:
                return False
            added[v] = added.get(v, 0) | bit
        if not added:
            return any(self._completes(13, s) for s in self._forward[13])
        low, high = min(added), max(added)
        states = self._forward[low - 1]
        for v in range(low, high + 1):
            states = _step(states, self._masks[v] | added.get(v, 0))
            if not states:
                return False
        return any(self._completes(high, s) for s in states)


def find_layout(cards: Iterable[Card]) -> list[Group] | None:
    """Return a valid layout of the cards (distinct), or ``None`` if none exists.

    Groups are in table order (by their lowest card, ace low), each group's cards too.
    """
    cards = list(cards)
    masks = _masks(cards)
    if masks is None:
        return None
    by_value: list[dict[int, Card]] = [{} for _ in range(14)]
    for card in cards:
        by_value[_VALUE[card]][_SUIT_BIT[card.suit]] = card
    layers: list[dict[int, tuple[int, int, tuple[int, ...], tuple[int, ...]]]] = []
    states: dict[int, tuple[int, int, tuple[int, ...], tuple[int, ...]]] = {0: (0, 0, (), ())}
    for v in range(1, 14):
        choices = _SET_CHOICES[masks[v]]
        new: dict[int, tuple[int, int, tuple[int, ...], tuple[int, ...]]] = {}
        for s in states:
            for set_mask, ct, cf in choices:
                for ns, et, ef in _pair_moves(s, ct, cf):
                    if ns not in new:
                        new[ns] = (s, set_mask, et, ef)
        if not new:
            return None
        layers.append(new)
        states = new
    final = next((s for s in states if divmod(s, 10)[0] in _CLOSED and s % 10 in _CLOSED), None)
    if final is None:
        return None
    steps: list[tuple[int, tuple[int, ...], tuple[int, ...]]] = []
    s = final
    for layer in reversed(layers):
        prev, set_mask, et, ef = layer[s]
        steps.append((set_mask, et, ef))
        s = prev
    steps.reverse()
    groups: list[Group] = []
    open_runs: list[list[list[Card]]] = [[], []]
    for v, (set_mask, et, ef) in enumerate(steps, 1):
        present = by_value[v]
        if set_mask:
            groups.append(tuple(present[b] for b in (1, 2, 4, 8) if set_mask & b))
        for g, bits, extended in ((0, _THORN_BITS, et), (1, _FLOWER_BITS, ef)):
            left = [present[b] for b in (1, 2, 4, 8) if b & bits & ~set_mask and b in present]
            runs = open_runs[g]
            kept = [runs[i] for i in extended]
            for i, run in enumerate(runs):
                if i not in extended:
                    groups.append(tuple(run))
            for run, card in zip(kept, left, strict=False):
                run.append(card)
            kept += [[card] for card in left[len(extended) :]]
            kept.sort(key=lambda run: min(len(run), 3))
            open_runs[g] = kept
    for runs in open_runs:
        groups.extend(tuple(run) for run in runs)
    return sorted((sort_group(g) for g in groups), key=_group_key)


def _group_key(group: Group) -> tuple[int, int, tuple[tuple[int, int], ...]]:
    return (_VALUE[group[0]], len(group), tuple(_sort_key(c) for c in group))


# --------------------------------------------------------------------------------------
# A4's three steps and the D4 offer


def propose_layout(
    table: Sequence[Group], chosen: Sequence[Card], max_step: int = 3
) -> tuple[int, tuple[int, ...], list[Group]] | None:
    """Return ``(step, replaced group numbers, new groups)`` for placing ``chosen`` on
    ``table``, trying A4's steps in order, or ``None`` if no valid layout exists.

    1. the chosen cards as new groups, the table untouched; 2. the chosen cards with every
    group holding a card related to one of them (:func:`related`); 3. the whole table.
    Steps 1 and 2 also need the groups they leave untouched to be valid. ``max_step`` stops
    the search early (the legal-action listing uses 2).
    """
    valid = [group_kind(g) is not None for g in table]
    if all(valid):
        groups = find_layout(chosen)
        if groups is not None:
            return (1, (), groups)
    touched = [i for i, g in enumerate(table) if any(related(c, x) for c in chosen for x in g)]
    if touched and all(valid[i] for i in range(len(table)) if i not in touched):
        cards = list(chosen)
        for i in touched:
            cards.extend(table[i])
        groups = find_layout(cards)
        if groups is not None:
            return (2, tuple(i + 1 for i in touched), groups)
    if max_step < 3 or (touched and len(touched) == len(table)):
        return None  # step 3 would search the same cards again
    everything = list(chosen)
    for g in table:
        everything.extend(g)
    groups = find_layout(everything)
    if groups is None:
        return None
    return (3, tuple(range(1, len(table) + 1)), groups)


def offer_d4(table: Sequence[Group], card: Card) -> tuple[tuple[int, ...], list[Group]] | None:
    """Return the regrouping a D4 of ``card`` needs: ``((), [])`` if its group stays valid
    without it, else ``(named groups, partition)`` — the card's group with the groups related
    to its other cards, or failing that the whole table — or ``None`` if the rest cannot be
    laid out. The table must hold ``card``."""
    home = next(i for i, g in enumerate(table) if card in g)
    rest = [c for c in table[home] if c != card]
    if not rest or group_kind(rest) is not None:
        return ((), [])
    near = [
        i for i, g in enumerate(table) if i != home and any(related(c, x) for c in rest for x in g)
    ]
    named = sorted([home, *near])
    cards = list(rest)
    for i in near:
        cards.extend(table[i])
    groups = find_layout(cards)
    if groups is None and len(named) < len(table):
        named = list(range(len(table)))
        cards = [c for g in table for c in g if c != card]
        groups = find_layout(cards)
    if groups is None:
        return None
    return (tuple(i + 1 for i in named), groups)
