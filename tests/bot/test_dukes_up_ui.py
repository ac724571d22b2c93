"""Dukes Up!'s controls read forged or malformed payloads as a refusal with a sentence
(``UserError``), never as an exception the member would see as "something went wrong"."""

from __future__ import annotations

import discord
import pytest

from bot import ids
from bot.controls import Button
from bot.game import Actions, Rendered, SeatInfo, Step, TableInfo
from bot.games.dukes_up.render import GROUPS_PER_PAGE, hand_message, sym
from bot.games.dukes_up.ui import UI, parse_groups
from bot.tables import StaleError, UserError
from engine.cards import DECK, parse_card
from engine.dukes_up import new_game
from engine.dukes_up.actions import add, discard, draw, pickup, set_duke, setup
from engine.dukes_up.rules import position
from engine.errors import ParseError


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
    "sw",  # swap: no card
    "syKS",  # the swap: a duke, no card
    "sy.5D",  # the swap: a card, no duke
    "tp3S",  # D2's order: one card
    "tp3S,ZZ",  # D2's order: not a card
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


def test_typed_groups_take_lines_semicolons_commas_tens_and_symbols() -> None:
    cards = parse_card
    assert parse_groups("10S JD QS\n♣9, 9C 9H; ♥10 ♦10 10C") == (
        (cards("TS"), cards("JD"), cards("QS")),
        (cards("9C"), cards("9C"), cards("9H")),
        (cards("TH"), cards("TD"), cards("TC")),
    )
    assert parse_groups(" | \n ; ") == ()
    assert parse_groups("as 2s 3s") == ((cards("AS"), cards("2S"), cards("3S")),)


def test_a_typed_word_that_is_no_card_is_refused_with_its_token() -> None:
    with pytest.raises(ParseError) as bad:
        parse_groups("3S 4D | 5X")
    assert bad.value.token == "5X"
    with pytest.raises(UserError):
        UI.control(_drawn_view(), ids.with_values("rt", ["3S 4D | 5X"]))


def _drawn_view(groups: int = 0):  # type: ignore[no-untyped-def]
    """The mover's view after its draw, with ``groups`` one-card groups on the table
    (invalid groups stand in a working copy mid-turn)."""
    black = [c for c in DECK if c.suit.letter in "CS"]
    red = [c for c in DECK if c.suit.letter in "HD"]
    table = [(c,) for c in (*black[6:], *red[:-3])[:groups]]
    state = position(
        mover=0,
        hands=(black[:3], ()),
        dukes=(black[3:5], red[-3:-1]),
        castles=((black[5], False), (red[-1], False)),
        table=table,
    )
    return state.view(0)


def _info() -> TableInfo:
    seats = {0: SeatInfo("alice", 1), 1: SeatInfo("bob", 2)}
    return TableInfo(game_id=5, host_id=1, seats=seats, game_options=None)


def _selects(shown: Rendered) -> dict[str, list[str]]:
    found = {}
    for item in shown.view.children if shown.view else ():
        if isinstance(item, discord.ui.Select):
            parsed = ids.parse(item.custom_id)
            assert isinstance(parsed, ids.Control)
            found[parsed.payload] = [o.value for o in item.options]
    return found


def _payloads(shown: Rendered) -> dict[str, bool]:
    """Return the panel's buttons by payload: whether each is enabled."""
    found = {}
    for item in shown.view.children if shown.view else ():
        if isinstance(item, Button) and item.custom_id:
            parsed = ids.parse(item.custom_id)
            if isinstance(parsed, ids.Control):
                found[parsed.payload] = not item.disabled
    return found


@pytest.mark.parametrize("groups", [25, 26, 43])
def test_add_to_pages_the_groups_25_at_a_time(groups: int) -> None:
    view = _drawn_view(groups)
    card = view.hand[0].code
    pages = -(-groups // GROUPS_PER_PAGE)
    seen: list[str] = []
    for page in range(pages):
        shown = hand_message(_info(), view, 9, lang="en", pending=f"a{page}.{card}")
        values = _selects(shown)[f"ad{card}"]
        assert len(values) <= GROUPS_PER_PAGE
        seen += values
        buttons = _payloads(shown)
        if pages == 1:
            assert f"ap1.{card}" not in buttons
        else:
            assert buttons[f"ap{max(0, page - 1)}.{card}"] == (page > 0)
            assert buttons[f"ap{page + 1}.{card}"] == (page < pages - 1)
    assert seen == [str(n) for n in range(1, groups + 1)]
    # a page beyond the last shows the last; the control reads a page and a group
    shown = hand_message(_info(), view, 9, lang="en", pending=f"a{pages + 3}.{card}")
    assert _selects(shown)[f"ad{card}"][-1] == str(groups)
    assert UI.control(view, f"ap2.{card}") == Step(f"a2.{card}")
    assert UI.control(view, ids.with_values(f"ad{card}", [str(groups)])) == add(
        groups, (parse_card(card),)
    )


def test_swap_asks_which_duke_then_picks_up_and_sets_in_one_click() -> None:
    view = _drawn_view()
    card, duke = view.hand[0], view.dukes[0][0]
    picked = hand_message(_info(), view, 9, lang="en", pending=f"c{card.code}")
    assert _payloads(picked)[f"sw{card.code}"]
    assert UI.control(view, f"sw{card.code}") == Step(f"w{card.code}")
    asked = hand_message(_info(), view, 9, lang="en", pending=f"w{card.code}")
    assert f"sy{duke.code}.{card.code}" in _payloads(asked)
    assert UI.control(view, f"sy{duke.code}.{card.code}") == Actions((pickup(duke), set_duke(card)))


def test_the_duke_actions_are_hidden_on_the_first_players_first_turn() -> None:
    state = new_game(7)
    for seat in (0, 1):
        castle, d1, d2, hand = state.view(seat).setup
        state.apply(seat, setup(castle, (d1, d2), hand))
    (seat,) = state.to_act
    state.apply(seat, draw("draw", 2))
    view = state.view(seat)
    assert view.turn == 1 and view.first_player == seat
    card = view.hand[0].code
    shown = hand_message(_info(), view, 9, lang="en", pending=f"c{card}")
    assert not any(p.startswith(("sw", "st", "pu")) for p in _payloads(shown))


def test_d2_lets_the_member_choose_which_card_ends_on_top() -> None:
    view = _drawn_view()
    a, b = view.hand[0], view.hand[1]
    assert UI.control(view, ids.with_values("dc2", [a.code, b.code])) == Step(f"t{a.code},{b.code}")
    shown = hand_message(_info(), view, 9, lang="en", pending=f"t{a.code},{b.code}")
    buttons = _payloads(shown)
    assert buttons[f"tp{a.code},{b.code}"] and buttons[f"tp{b.code},{a.code}"]
    labels = [getattr(i, "label", "") for i in (shown.view.children if shown.view else ())]
    assert f"{sym(b)} on top" in labels
    assert UI.control(view, f"tp{b.code},{a.code}") == discard("d2", (b, a))


def test_a_table_card_that_cannot_leave_is_marked_and_refused_when_chosen() -> None:
    """D4 is open (♠5 can leave its set), but ♠9 cannot: without it ♠10 ♠J make no group
    and the rest of the table cannot be laid out. The card select marks it 🚫, and choosing
    it is refused at once: no offer, no further step."""
    card = parse_card
    run = (card("9S"), card("TS"), card("JS"))
    set_ = (card("5S"), card("5C"), card("5H"), card("5D"))
    state = position(
        mover=0,
        hands=((card("2C"),), ()),
        dukes=((card("KS"),), (card("KH"),)),
        castles=((card("QS"), False), (card("QH"), False)),
        table=[run, set_],
    )
    view = state.view(0)
    shown = hand_message(_info(), view, 9, lang="en", pending="d4")
    notes = {
        o.value: o.description or ""
        for item in shown.view.children
        if isinstance(item, discord.ui.Select)
        for o in item.options
    }
    assert notes["9S"].startswith("🚫") and "could not be laid out" in notes["9S"]
    assert notes["5S"] == ""
    with pytest.raises(StaleError) as refused:
        UI.control(view, ids.with_values("dc4", ["9S"]))
    assert "could not be laid out" in str(refused.value.text)
    assert UI.control(view, ids.with_values("dc4", ["5S"])) == discard("d4", (card("5S"),))


def test_finish_is_pressable_exactly_when_the_rules_let_the_turn_end_so() -> None:
    """Over random matches, every mover's panel: Finish, where it shows, is enabled just
    when the engine offers it (never offered, then refused)."""
    from engine.dukes_up.players import LEVELS
    from engine.dukes_up.rules import Kind

    shown = disabled = 0
    for seed in range(12):
        state = new_game(seed)
        players = [LEVELS["random"](seed * 2 + s) for s in (0, 1)]
        turns = 0
        while state.to_act and turns < 400:
            seat = min(state.to_act)
            view = state.view(seat)
            if len(state.to_act) == 1:  # a turn (the setup is both players' at once)
                buttons = _payloads(hand_message(_info(), view, state.turn, lang="en"))
                legal = any(a.kind is Kind.FINISH for a in view.legal)
                if "fi" in buttons:
                    shown += 1
                    disabled += not buttons["fi"]
                    assert buttons["fi"] == legal, (seed, turns)
                else:
                    assert not legal, (seed, turns)
            state.apply(seat, players[seat].act(view))
            turns += 1
    assert shown and disabled, (shown, disabled)  # both cases were met
