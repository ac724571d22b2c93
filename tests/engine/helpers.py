"""Helpers shared by the engine tests."""

from __future__ import annotations

from typing import Any

from engine.dupe import SEATS, DupeOptions, DupeState
from engine.dupe import new_game as _new_game


def new_game(seed: int, memory: str = "strict") -> DupeState:
    """Return a new game dealt from ``seed`` under the ``memory`` rule."""
    return _new_game(seed, DupeOptions(memory=memory))  # type: ignore[arg-type]


def snapshot(state: DupeState) -> tuple[Any, ...]:
    """Everything observable about a state, full information included."""
    return (
        tuple(state.view(seat) for seat in SEATS),
        state.public_view(),
        state.moves,
        state.phase,
        state.deal,
        state.trick,
        state.to_act,
        state.taker,
        state.totals,
        state.results,
        state.winners,
        tuple(state.hand(seat) for seat in SEATS),
        tuple(state.won_cards(seat) for seat in SEATS),
        tuple(state.choice(seat) for seat in SEATS),
        tuple(state.legal_actions(seat) for seat in SEATS),
    )
