"""A finished game as a sequence of steps to show one at a time (``/replay``).

Pure: it replays the move log with the engine. The steps of each deal are its start (every
hand and identity card, all public once the game is over), each trick as it was revealed
and distributed, and the deal's scoring; the last step is the final standings.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from engine.cards import Card, Suit
from engine.dupe import DealResult, DupeOptions, Move, TrickRecord, new_game

__all__ = ["DealStart", "Final", "Step", "replay_steps"]


class DealStart(NamedTuple):
    """A deal as dealt: each seat's hand and identity card."""

    deal: int
    hands: tuple[tuple[Card, ...], ...]
    identities: tuple[Suit, ...]


class Final(NamedTuple):
    """The end of the game."""

    totals: tuple[int, ...]
    winners: tuple[int, ...]


Step = DealStart | TrickRecord | DealResult | Final


def replay_steps(seed: int, options: DupeOptions, moves: Sequence[str]) -> list[Step]:
    """Return the steps of a game from its seed, options and move log."""
    state = new_game(seed, options)
    steps: list[Step] = []
    started = 0
    seen_trick: tuple[int, int] | None = None
    scored = 0
    for text in moves:
        if state.deal > started and not state.is_over:
            started = state.deal
            steps.append(
                DealStart(
                    state.deal,
                    tuple(state.hand(seat) for seat in range(4)),
                    tuple(state.identity(seat) for seat in range(4)),
                )
            )
        move = Move.parse(text)
        state.apply(move.seat, move.action)
        last = state.public_view().last_trick
        if last is not None and (last.deal, last.trick) != seen_trick:
            seen_trick = (last.deal, last.trick)
            steps.append(last)
        if len(state.results) > scored:
            steps.extend(state.results[scored:])
            scored = len(state.results)
    if state.is_over:
        steps.append(Final(state.totals, state.winners))
    return steps


def deal_starts(steps: Sequence[Step]) -> dict[int, int]:
    """Return the index of each deal's first step, by deal number."""
    return {step.deal: i for i, step in enumerate(steps) if isinstance(step, DealStart)}
