"""Dukes Up!'s controls read forged or malformed payloads as a refusal with a sentence
(``UserError``), never as an exception the member would see as "something went wrong"."""

from __future__ import annotations

import pytest

from bot import ids
from bot.games.dukes_up.ui import UI, parse_groups
from bot.tables import UserError
from engine.cards import parse_card
from engine.dukes_up import new_game
from engine.dukes_up.actions import pickup, set_duke, setup


def _turn_view():  # type: ignore[no-untyped-def]
    """The view of the seat to move after both setups (before its draw)."""
    state = new_game(7)
    for seat in (0, 1):
        castle, d1, d2, hand = state.view(seat).setup
        state.apply(seat, setup(castle, (d1, d2), hand))
    (seat,) = state.to_act
    return state.view(seat)


FORGED = [
    "pu",  # pick up: no card
    "puZZ",  # not a card
    "pu3S,4S",  # two cards
    "st",  # set: no card
    "oa",  # the D4 offer: no card
    "su",  # setup: nothing chosen
    "suQS",  # setup: a castle, no dukes
    ids.with_values("sd", ["KS"]),  # one duke
    ids.with_values("sc", ["QS", "KS"]),  # two castles
    ids.with_values("ad", ["x"]),  # add to a group that is not a number
    ids.with_values("ad", []),  # add to no group
    ids.with_values("rt", []),  # a form without its text
    ids.with_values("dk", ["d9"]),  # no such discard option
    "zz",  # no such control
    "",
]


@pytest.mark.parametrize("payload", FORGED, ids=repr)
def test_a_forged_payload_is_refused_with_a_sentence(payload: str) -> None:
    with pytest.raises(UserError) as refused:
        UI.control(_turn_view(), payload)
    assert refused.value.args or str(refused.value) is not None


def test_a_value_smuggling_the_separator_is_one_value_too_many() -> None:
    smuggled = ids.with_values("sc", ["QS" + ids.VALUES + "KS"])
    assert ids.split_values(smuggled) == ("sc", ["QS", "KS"])
    with pytest.raises(UserError):
        UI.control(_turn_view(), smuggled)


def test_the_duke_controls_still_mean_their_card() -> None:
    view = _turn_view()
    assert UI.control(view, "pu" + "KS") == pickup(parse_card("KS"))
    assert UI.control(view, "st" + "5D") == set_duke(parse_card("5D"))


def test_typed_groups_read_both_ways_round() -> None:
    assert parse_groups("3S 4D 5S | ♠6 6D 6C") == (
        (parse_card("3S"), parse_card("4D"), parse_card("5S")),
        (parse_card("6S"), parse_card("6D"), parse_card("6C")),
    )
