"""Whist's part of ``/review`` (``GameUI.exact_review``): the double-dummy cost of every
card played in a deal of four hands of 13 (the tricks its side lost against the best card
it held then, all four hands known, as BBO shows bridge players), and each such deal's
double-dummy result. Both are computed after the game, with every hand known; the review
says so, and names no card but the member's own.

The solver is pure Python and takes seconds to a minute of CPU a deal: it runs in a child
process of its own (:data:`apart`), at a lower priority, so that a rubber's review does not
contend with the bot's event loop for the interpreter for minutes.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from typing import Any

from bot.game import ExactReview
from bot.i18n import Text
from engine.cards import Card
from engine.game import AnyGame
from engine.whist import WhistOptions
from engine.whist.actions import SEAT_LETTERS, Kind

__all__ = ["exact_review", "solve"]

HAND = 13
"""Cards a hand holds in a deal the double-dummy solver takes."""
apart = True
"""Whether the solver runs in a child process (the bot); tests that stand in for the solver
run it here."""
_NICENESS = 10
"""How much lower the solver's process's CPU priority is than the bot's: a click first."""

Job = tuple[dict[str, list[str]], str | None, str, list[str]]
"""One deal for the solver: hands as dealt, trumps, the leader and the cards played."""


@dataclass
class _Deal:
    """One deal's play as the solver takes it: the hands when the first card was led."""

    number: int
    hands: dict[str, tuple[Card, ...]]
    trump: str | None
    leader: str
    plies: list[int] = field(default_factory=list)
    cards: list[Card] = field(default_factory=list)


def exact_review(
    game: AnyGame, seed: int, options: WhistOptions, moves: Sequence[str]
) -> ExactReview | None:
    """Return the double-dummy costs of the cards of ``moves`` of whist ``game`` (a table's,
    or a duplicate match table's) by ply, with a line per deal giving its double-dummy
    result; ``None`` when no deal is one of four hands of 13."""
    state = game.new_game(seed, options)
    deals: list[_Deal] = []
    for ply, text in enumerate(moves):
        move = game.parse_move(text)
        action = move.action
        if action.kind is Kind.PLAY and action.card is not None:
            if not deals or deals[-1].number != state.deal:
                trump = state.trump
                deals.append(
                    _Deal(
                        state.deal,
                        {SEAT_LETTERS[s]: state.hand(s) for s in range(state.seats)},
                        None if trump is None else trump.letter,
                        SEAT_LETTERS[state.to_play or 0],
                    )
                )
            deals[-1].plies.append(ply)
            deals[-1].cards.append(action.card)
        state.apply(move.seat, action)
    results = {result.deal: result.tricks for result in state.results}
    deals = [
        deal
        for deal in deals
        if len(deal.hands) == len(SEAT_LETTERS) and all(len(h) == HAND for h in deal.hands.values())
    ]
    jobs: list[Job] = [
        (
            {seat: [card.code for card in hand] for seat, hand in deal.hands.items()},
            deal.trump,
            deal.leader,
            [card.code for card in deal.cards],
        )
        for deal in deals
    ]
    solved = (_apart if apart else solve)(jobs) if jobs else []
    costs: dict[int, int] = {}
    notes: list[Text] = []
    for deal, (played, ns) in zip(deals, solved, strict=True):
        costs.update(zip(deal.plies, played, strict=True))
        taken = results.get(deal.number, (0, 0))
        notes.append(
            Text(
                "whist.review_result",
                deal=deal.number,
                ns=ns,
                ew=HAND - ns,
                ns_took=taken[0],
                ew_took=taken[1],
            )
        )
    if not notes:
        return None
    return ExactReview(costs, "tricks", (Text("whist.review_exact"), *notes))


def solve(jobs: Sequence[Job]) -> list[tuple[tuple[int, ...], int]]:
    """Return, for each deal of ``jobs``, the double-dummy costs of its cards and
    North–South's double-dummy tricks from its start."""
    # Imported here, in the solver's process: the solver builds its tables as it is
    # imported (0.05 s), which the bot's start need not wait for.
    from engine.whist import analysis

    solved: list[tuple[tuple[int, ...], int]] = []
    for hands, trump, leader, cards in jobs:
        costs, ns = analysis.double_dummy_review(hands, trump, leader, cards)
        solved.append((tuple(costs), ns))
    return solved


def _apart(jobs: Sequence[Job]) -> list[tuple[tuple[int, ...], int]]:
    """Return :func:`solve`'s answer, worked out in a new child process (spawned: no fork of
    the bot's threads; a daemon, so a stopping bot ends it)."""
    context = multiprocessing.get_context("spawn")
    receive, send = context.Pipe(duplex=False)
    child = context.Process(
        target=_solve_apart, args=(list(jobs), send), name="review-solver", daemon=True
    )
    child.start()
    send.close()
    try:
        ok, answer = receive.recv()
    except EOFError:
        raise RuntimeError("the double-dummy solver's process ended without an answer") from None
    finally:
        receive.close()
        child.join(5)
    if not ok:
        raise RuntimeError(f"the double-dummy solver failed: {answer}")
    return list(answer)


def _solve_apart(jobs: list[Job], send: Connection) -> None:
    """In the child process: solve ``jobs`` at a lower priority and send the answer (or
    what went wrong)."""
    with contextlib.suppress(OSError, AttributeError):
        os.nice(_NICENESS)
    answer: tuple[bool, Any]
    try:
        answer = (True, solve(jobs))
    except Exception as error:  # sent to the review, which tells the member
        answer = (False, repr(error))
    send.send(answer)
    send.close()
