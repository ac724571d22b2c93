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
    seats: list[int] = field(default_factory=list)


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
            deals[-1].seats.append(move.seat)
        state.apply(move.seat, action)
    results = {result.deal: result.tricks for result in state.results}
    costs: dict[int, int] = {}
    notes: list[Text] = []
    for deal in deals:
        hands = deal.hands
        if len(hands) != len(SEAT_LETTERS) or any(len(h) != HAND for h in hands.values()):
            continue
        played = double_dummy_costs(hands, deal.trump, deal.leader, deal.cards)
        costs.update(zip(deal.plies, played, strict=True))
        taken = results.get(deal.number, (0, 0))
        if len(deal.cards) == len(SEAT_LETTERS) * HAND:
            ns = _best_from_the_start(taken[0], deal.seats, played)
        else:  # a claim ended the deal: its costs stop short of the end
            ns, _ = double_dummy_result(hands, deal.trump, deal.leader)
        ew = HAND - ns
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


def _best_from_the_start(ns_took: int, seats: Sequence[int], costs: Sequence[int]) -> int:
    """Return North–South's double-dummy tricks from the start of a deal played out: what
    they took, plus the tricks each of their cards gave away, less those East–West's gave
    them (a card's cost is how far it moved the double-dummy value against its side), so no
    second solve of the whole deal is needed."""
    north_south = {SEAT_LETTERS.index("N"), SEAT_LETTERS.index("S")}
    given = sum(
        cost if seat in north_south else -cost for seat, cost in zip(seats, costs, strict=True)
    )
    return ns_took + given
