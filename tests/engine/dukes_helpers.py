"""Helpers shared by the Dukes Up! engine tests: card shorthands, positions, snapshots, and
an independent account of the cards each seat may know."""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from typing import Any

from engine.cards import DECK, Card, parse_card
from engine.dukes_up import DukesUpOptions, DukesUpState, Phase, parse_action
from engine.dukes_up.layout import colour
from engine.dukes_up.rules import position

CODE = re.compile(r"(?<![0-9A-Z])([2-9TJQKA][SHDC])(?![0-9A-Z])")


def c(text: str) -> Card:
    """Return one card: ``c("QS")``."""
    return parse_card(text)


def cs(text: str) -> tuple[Card, ...]:
    """Return cards written with spaces: ``cs("3S 4D 5S")``."""
    return tuple(parse_card(t) for t in text.split())


def act(state: DukesUpState, seat: int, *texts: str) -> None:
    """Apply actions written in notation."""
    for text in texts:
        state.apply(seat, parse_action(text))


def groups(table: Iterable[Iterable[Card]]) -> list[frozenset[Card]]:
    """Return the table's groups as sets (card order inside a group is not significant)."""
    return [frozenset(g) for g in table]


def snapshot(state: DukesUpState) -> tuple[Any, ...]:
    """Everything about a state, hidden information included."""
    views = tuple(json.dumps(state.view(s).to_dict(), sort_keys=True) for s in (0, 1))
    return (
        views,
        json.dumps(state.public_view().to_dict(), sort_keys=True),
        tuple(map(str, state.moves)),
        state.decision,
        state.phase,
        state.turn,
        state.round,
        tuple(state.pile(s, w) for s in (0, 1) for w in ("draw", "discard", "setup")),
        state.board(),
        state.board(working=True),
        tuple(state.castle(s) for s in (0, 1)),
        state.score(),
        tuple(state.legal_actions(s) for s in (0, 1)),
        state.totals,
        state.winners,
        state.results,
        state.drawn,
        state.exhausted,
    )


def placed(
    mover: int,
    *,
    black_hand: str = "",
    red_hand: str = "",
    black_dukes: str = "KS AC",
    red_dukes: str = "KD AH",
    black_castle: tuple[str, bool] = ("QS", False),
    red_castle: tuple[str, bool] = ("QH", False),
    table: Iterable[str] = (),
    turn: int = 2,
    drawn: bool = True,
    options: DukesUpOptions | None = None,
    **more: Any,
) -> DukesUpState:
    """Return a position written in shorthand (see :func:`engine.dukes_up.rules.position`)."""
    return position(
        mover=mover,
        hands=(cs(black_hand), cs(red_hand)),
        dukes=(cs(black_dukes), cs(red_dukes)),
        castles=((c(black_castle[0]), black_castle[1]), (c(red_castle[0]), red_castle[1])),
        table=[cs(g) for g in table],
        turn=turn,
        drawn=drawn,
        options=options,
        **more,
    )


def all_cards(state: DukesUpState, working: bool = False) -> list[Card]:
    """Return every card of the round where the state keeps it (52 when conserved)."""
    board = state.board(working)
    cards = [x for g in board.table for x in g]
    on_table = set(cards)
    for s in (0, 1):
        cards += board.hands[s] + board.dukes[s]
        cards += state.pile(s, "draw") + state.pile(s, "discard")
        castle = state.castle(s)[0]
        if castle is not None and castle not in on_table:
            cards.append(castle)
        if state.phase is Phase.CHOOSE and castle is None:
            cards += state.pile(s, "setup")
    return cards


def allowed_codes(state: DukesUpState, seat: int | None) -> set[str]:
    """Return the card codes ``seat`` (``None``: everyone) may be shown now, worked out from
    the state independently of the engine's views."""
    allowed: set[Card] = set()
    committed = state.board()
    allowed.update(x for g in committed.table for x in g)
    choosing = state.phase is Phase.CHOOSE
    for s in (0, 1):
        if not choosing or s == seat:
            allowed.update(committed.dukes[s])
        castle, up = state.castle(s)
        if castle is not None and (up or s == seat):
            allowed.add(castle)
    if seat is not None:
        allowed.update(committed.hands[seat])
        if choosing:
            allowed.update(state.pile(seat, "setup"))
        if state.phase is Phase.TURN and state.view(seat).mover == seat:
            working = state.board(working=True)
            allowed.update(x for g in working.table for x in g)
            allowed.update(working.hands[seat])
            allowed.update(working.dukes[0] + working.dukes[1])
        if state.options.discard_memory == "open":
            shown = state.view(seat).discard or ()
            allowed.update(x for x in shown if x is not None)
    last = state.view(0).last_turn
    if last is not None:
        allowed.update(last.placed + last.taken + last.picked_up + last.set)
        allowed.update(x for x in (last.captured, last.card) if x is not None)
    for r in state.results:
        allowed.update(x for x in r.castles if x is not None)
        allowed.update(x for h in r.hands for x in h)
    return {x.code for x in allowed}


def shown_codes(data: Any) -> set[str]:
    """Return every card code written anywhere in a view's JSON."""
    return set(CODE.findall(json.dumps(data)))


def colour_count(cards: Iterable[Card], seat: int) -> int:
    """Return how many of the cards are of ``seat``'s colour."""
    return sum(1 for x in cards if colour(x) == seat)


__all__ = [
    "CODE",
    "DECK",
    "act",
    "all_cards",
    "allowed_codes",
    "c",
    "colour_count",
    "cs",
    "groups",
    "placed",
    "shown_codes",
    "snapshot",
]
