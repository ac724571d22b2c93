"""Doppelkopf's adviser (the expert): legal advice for every kind of decision, values for
the action it is asked to compare, the same advice from the same seed, and advice from the
seat's view alone — two tables that differ only in cards the seat cannot see advise alike."""

from __future__ import annotations

from engine.doppelkopf import GAME, DoppelkopfOptions, new_game
from engine.doppelkopf.players.basic import BasicPlayer
from engine.doppelkopf.rules import DoppelkopfState
from engine.game import Advice
from tests.engine.test_doppelkopf import deal

STRONG_TRUMPS = "QC TH TH QS QS QH QD JC JC JS AD AD"


def _advice(seed: int, state: DoppelkopfState, seat: int, compare: object = None) -> Advice:
    adviser = GAME.adviser(seed)
    assert adviser is not None
    return adviser.advise(state.view(seat), compare)


def test_advice_is_legal_weighs_the_compared_action_and_follows_the_seed() -> None:
    for options in (DoppelkopfOptions(), DoppelkopfOptions(preset="house")):
        state = new_game(4, options)
        adviser, again = GAME.adviser(11), GAME.adviser(11)
        assert adviser is not None and again is not None
        players = {s: BasicPlayer(s) for s in range(options.players)}
        advised = 0
        while not state.is_over and state.deal == 1 and advised < 14:
            seat = state.to_act[0]
            view = state.view(seat)
            if seat == 1:
                adviser.observe(view)
                again.observe(view)
                legal = state.legal_actions(seat)
                compare = legal[-1]
                advice = adviser.advise(view, compare)
                assert advice.action in legal and compare in advice.values
                assert advice.action in advice.values and advice.unit == "points"
                assert all(a in legal for a in advice.values)
                cost = advice.cost(compare)
                assert cost is not None and cost >= 0
                assert again.advise(view, compare) == advice
                if view.data["phase"] == "play":
                    assert advice.reason == "sampled" and advice.detail == {"deals": 40}
                advised += 1
            state.apply(seat, players[seat].act(view))
        assert advised >= 8


def test_advice_comes_from_the_view_alone() -> None:
    # Seats 2 and 3 swap hands: seat 1 cannot tell the tables apart, nor can its adviser.
    first = deal(DoppelkopfOptions(), {1: STRONG_TRUMPS})
    hands = {s: " ".join(c.code for c in first.hand(s)) for s in range(4)}
    second = deal(DoppelkopfOptions(), {**hands, 2: hands[3], 3: hands[2]})
    assert first.hand(2) != second.hand(2)
    for state in (first, second):
        for seat in (1, 2, 3, 0):
            state.apply(seat, "healthy")
    assert first.view(1).to_dict() == second.view(1).to_dict()
    compare = next(a for a in first.legal_actions(1) if a.card is not None)
    assert _advice(5, first, 1, compare) == _advice(5, second, 1, compare)
    reservation = deal(DoppelkopfOptions(), {1: STRONG_TRUMPS})
    swapped = deal(DoppelkopfOptions(), {**hands, 2: hands[3], 3: hands[2]})
    assert _advice(5, reservation, 1) == _advice(5, swapped, 1)


def test_the_adviser_announces_then_claims_as_the_expert_does() -> None:
    state = deal(DoppelkopfOptions(), {1: "QC QC QS QS QH QH QD QD AC AS AH AD"})
    state.apply(1, "solo:queens")
    for seat in (2, 3, 0):
        state.apply(seat, "healthy")
    compare = next(a for a in state.legal_actions(1) if a.card is not None)
    advice = _advice(2, state, 1, compare)
    # every trick is sure: Re first (a free point), then the claim
    assert str(advice.action) == "re" and advice.cost(compare) > 0
    assert advice.values[advice.action] == max(advice.values.values())
    state.apply(1, "re")
    advice = _advice(2, state, 1, compare)
    assert str(advice.action) == "no90"
    for level in ("no90", "no60", "no30", "black"):
        state.apply(1, level)
    advice = _advice(2, state, 1, compare)
    assert str(advice.action) == "claim" and advice.cost(compare) == 0
