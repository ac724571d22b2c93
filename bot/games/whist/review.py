"""Whist's part of ``/review`` (``GameUI.exact_review``): the double-dummy cost of every
card played in a deal of four hands of 13 (the tricks its side lost against the best card
it held then, all four hands known, as BBO shows bridge players), and each such deal's
double-dummy result. Both are computed after the game, with every hand known; the review
says so, and names no card but the member's own.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from bot.game import ExactReview
from bot.i18n import Text
from engine.cards import Card
from engine.game import AnyGame
from engine.whist import WhistOptions
from engine.whist.actions import SEAT_LETTERS, Kind
from engine.whist.analysis import double_dummy_costs, double_dummy_result

__all__ = ["exact_review"]

HAND = 13
"""Cards a hand holds in a deal the double-dummy solver takes."""


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
    costs: dict[int, int] = {}
    notes: list[Text] = []
    for deal in deals:
        hands = deal.hands
        if len(hands) != len(SEAT_LETTERS) or any(len(h) != HAND for h in hands.values()):
            continue
        for ply, cost in zip(
            deal.plies,
            double_dummy_costs(hands, deal.trump, deal.leader, deal.cards),
            strict=True,
        ):
            costs[ply] = cost
        ns, ew = double_dummy_result(hands, deal.trump, deal.leader)
        taken = results.get(deal.number, (0, 0))
        notes.append(
            Text(
                "whist.review_result",
                deal=deal.number,
                ns=ns,
                ew=ew,
                ns_took=taken[0],
                ew_took=taken[1],
            )
        )
    if not notes:
        return None
    return ExactReview(costs, "tricks", (Text("whist.review_exact"), *notes))
