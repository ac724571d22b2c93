"""Dukes Up!: every worked example of ``docs/rules/dukes_up.md``, the binding API, the
notation and every refusal condition (refused, and nothing changed)."""

from __future__ import annotations

import json

import pytest

from engine import dukes_up
from engine.dukes_up import (
    DukesUpOptions,
    Kind,
    Move,
    Phase,
    Proposal,
    Refusal,
    can_layout,
    new_game,
    parse_action,
    parse_card,
    replay,
)
from engine.dukes_up.layout import colour
from engine.errors import IllegalActionError, InvalidActionError, OptionsError, ParseError
from tests.engine.dukes_helpers import DECK, act, c, cs, groups, placed, snapshot


def refused(state: dukes_up.DukesUpState, seat: int, text: str, condition: str) -> None:
    """Assert ``text`` is refused naming ``condition`` and that nothing changed."""
    before = snapshot(state)
    with pytest.raises(IllegalActionError) as caught:
        state.apply(seat, parse_action(text))
    assert isinstance(caught.value, Refusal)
    assert caught.value.condition == condition, (text, caught.value.condition, str(caught.value))
    assert caught.value.reason and str(caught.value)
    assert snapshot(state) == before, text


# --------------------------------------------------------------------------------------
# The worked examples


def test_example_1_the_seeds_regrouping() -> None:
    s = placed(0, black_hand="6S 6C 9C", table=["3S 4D 5S 6D"])
    proposal = s.propose(0, cs("6S 6C"))
    assert isinstance(proposal, Proposal)
    assert proposal.step == 2 and proposal.replaced == (1,), "only G1 was touched"
    assert groups(proposal.layout) == groups([cs("3S 4D 5S"), cs("6D 6S 6C")])
    assert groups(proposal.groups) == groups(proposal.layout)
    assert str(proposal.action).startswith("accept:1:")
    s.apply(0, proposal.action)
    act(s, 0, "discard:d1:9C")
    table = [x for g in s.board().table for x in g]
    assert sorted(x for x in table if colour(x) == 0) == sorted(cs("3S 5S 6S 6C"))
    assert sorted(x for x in table if colour(x) == 1) == sorted(cs("4D 6D"))
    assert s.view(1).mover == 1 and s.turn == 3


def test_example_2_cards_that_need_help() -> None:
    s = placed(0, black_hand="6S 6C 9S 2C", table=["3S 4D 5S 6D 7S 8D"])
    assert s.propose(0, cs("6S 6C")) is None, "no valid layout exists"
    assert not can_layout([*cs("3S 4D 5S 6D 7S 8D"), *cs("6S 6C")])
    proposal = s.propose(0, cs("6S 6C 9S"))
    assert proposal is not None and proposal.step == 2 and proposal.replaced == (1,)
    assert groups(proposal.layout) == groups([cs("3S 4D 5S"), cs("6D 6S 6C"), cs("7S 8D 9S")])
    s.apply(0, proposal.action)
    act(s, 0, "discard:d1:2C")
    assert groups(s.board().table) == groups(proposal.layout)


def test_example_3_an_invalid_manual_regroup_refuses_the_discard() -> None:
    s = placed(0, black_hand="4S 4C KC", table=["3D 4D 5D"])
    act(s, 0, "regroup:1:3D|4D|5D", "add:2:4S,4C")
    working = s.view(0).table
    assert groups(working) == groups([cs("3D"), cs("4D 4S 4C"), cs("5D")])
    assert s.view(1).table == (cs("3D 4D 5D"),), "the working copy stays private"
    refused(s, 0, "discard:d1:KC", "E1")
    assert not can_layout(cs("3D 4D 5D 4S 4C")), "the search finds no layout"
    act(s, 0, "reset", "discard:d1:KC")
    assert s.board().table == (cs("3D 4D 5D"),)


def test_example_4_taking_a_duke_and_a_slot_that_cannot_be_filled_again() -> None:
    s = placed(
        0, black_hand="8C TC 2S", red_hand="5D 3H", red_dukes="9H KD", red_castle=("5H", False)
    )
    act(s, 0, "new:8C,9H,TC", "discard:d1:2S")
    assert s.board().dukes[1] == (c("KD"),), "R has 1 duke"
    assert s.score() == (3 + 2, 3), "♥9 on the table still scores for R"
    view = s.view(1)
    assert view.d0 == 1 and view.castles[1] == c("5H") and not view.castle_up[1]
    assert s.public_view().castles[1] == "down", "the castle stays face-down"
    act(s, 1, "draw:pile=draw;n=0", "set:5D")
    refused(s, 1, "discard:d1:3H", "E2")
    act(s, 1, "pickup:KD", "discard:d1:3H")
    assert s.board().dukes[1] == (c("5D"),)
    assert c("KD") in s.board().hands[1], "♦K is now in R's hand"


def test_example_5_castle_flips_a_duke_is_set_again_and_a_guarded_capture() -> None:
    s = placed(
        0,
        black_hand="JS QS AS 3S 4C 6C",
        red_hand="2D 7H",
        red_dukes="KD",
        red_castle=("5H", False),
        black_castle=("9S", False),
    )
    refused(s, 0, "new:4C,5H,6C", "SOURCE")  # the castle is face-down: not a source card
    act(s, 0, "new:JS,QS,KD")
    refused(s, 0, "add:1:5H", "SOURCE")  # still face-down: it cannot be taken this turn
    assert s.public_view().castles[1] == "down"
    act(s, 0, "discard:d3")
    assert s.castle(1) == (c("5H"), True), "R's T0 turns the castle face-up"
    assert s.view(0).castles[1] == c("5H") and s.view(1).d0 == 0
    act(s, 1, "draw:pile=draw;n=0", "set:2D", "discard:d1:7H")
    assert s.board().dukes[1] == (c("2D"),), "♦2 now guards the castle"
    act(s, 0, "draw:pile=draw;n=0")
    assert sorted(s.board().hands[0]) == sorted(cs("AS 3S 4C 6C"))
    act(s, 0, "new:4C,5H,6C")
    refused(s, 0, "finish", "E4")
    act(s, 0, "new:AS,2D,3S", "finish")
    assert s.phase is Phase.OVER and s.results[-1].end == "capture"
    assert s.results[-1].round == 1 and s.to_act == (), "R gets no further turn"


def test_example_6_the_move() -> None:
    s = placed(
        0,
        black_hand="QC 9C",
        black_castle=("QS", False),
        red_dukes="",
        red_castle=("QH", True),
    )
    act(s, 0, "reveal")
    assert s.view(1).castles[0] == c("QS") and s.view(1).castle_up[0], "R sees it at once"
    act(s, 0, "new:QH,QS,QC", "finish")
    result = s.results[-1]
    assert result.end == "capture"
    table = [x for g in s.board().table for x in g]
    assert sorted(x for x in table if colour(x) == 0) == sorted(cs("QS QC"))
    assert [x for x in table if colour(x) == 1] == [c("QH")]
    assert result.scores == (2 + 2, 1), "♠Q ♣Q score for B (and its two dukes), ♥Q for R"


def test_example_6_variant_the_move_cannot_end_the_round() -> None:
    s = placed(
        0,
        black_hand="QC 9C",
        black_castle=("QS", False),
        red_dukes="7D",
        red_castle=("QH", True),
    )
    act(s, 0, "reveal", "new:QH,QS,QC")
    refused(s, 0, "finish", "E4")
    refused(s, 0, "discard:d1:9C", "E3")
    act(s, 0, "reset", "discard:d1:9C")
    assert s.public_view().castles == (c("QS"), c("QH"))
    assert s.castle(0) == (c("QS"), True), "♠Q goes back to B's slot face-up"
    assert s.castle(1) == (c("QH"), True)
    assert s.board().table == ()


def test_example_7_d2_needs_a_turn_without_actions() -> None:
    s = placed(0, black_hand="8C TC 2C JS", red_dukes="9H KD")
    act(s, 0, "new:8C,9H,TC")
    refused(s, 0, "discard:d2:2C,JS", "D2")


def test_example_7_d4_that_strands_cards_is_refused() -> None:
    s = placed(0, black_hand="2C", table=["3S 4D 5S"])
    refused(s, 0, "discard:d4:5S", "D4")
    assert s.offer_d4(0, c("5S")) is None, "♠3 ♦4 cannot be laid out"


def test_example_7_d4_leaving_a_run_is_accepted() -> None:
    s = placed(0, black_hand="2C", table=["3S 4D 5S 6D"])
    refused(s, 0, "discard:d4:4D", "D4")  # not Black's colour
    act(s, 0, "discard:d4:3S")
    assert s.board().table == (cs("4D 5S 6D"),)
    assert s.pile(0, "discard")[-1] == c("3S")
    assert s.view(1).last_turn is not None and s.view(1).last_turn.card == c("3S")


def test_example_7_d4_with_the_offered_regrouping() -> None:
    s = placed(0, black_hand="2C", table=["4S 5D 6S", "7D 7C 7H 7S"])
    refused(s, 0, "discard:d4:4S", "D4")  # it would break G1: the move must carry the regrouping
    offer = s.offer_d4(0, c("4S"))
    assert offer is not None and offer.cards == (c("4S"),) and offer.groups == (1, 2)
    assert sorted(x for g in offer.partition for x in g) == sorted(cs("5D 6S 7D 7C 7H 7S"))
    mine = s.clone()
    mine.apply(0, offer)  # layouts are not unique (decision 2): any valid offer is accepted
    assert dukes_up.is_valid_layout(mine.board().table)
    act(s, 0, "discard:d4:4S:1,2:5D,6S,7D|7C,7H,7S")  # the rules file's offer, as written
    assert groups(s.board().table) == groups([cs("5D 6S 7D"), cs("7C 7H 7S")])


def test_example_7_own_castle_on_the_table_without_a_capture() -> None:
    s = placed(0, black_hand="JS KS 2C", black_dukes="AC 5C", black_castle=("QS", True))
    act(s, 0, "new:JS,QS,KS")
    refused(s, 0, "discard:d1:2C", "E3")


def test_example_7_first_player_first_turn() -> None:
    s = placed(0, black_hand="2C", turn=1)
    assert s.first_player == 0
    refused(s, 0, "pickup:KS", "FIRST_TURN")
    refused(s, 0, "set:2C", "FIRST_TURN")


EXAMPLE_8_TABLE = ["2S 3S 4S 5S 6S 7S 8S 9S TS JS", "2C 3C 4C 5C 6C 7C 8C 9C TC"]


def test_example_8_exhaustion_ends_the_round() -> None:
    s = placed(
        0,
        black_hand="AS AC",
        black_dukes="KS QC",
        black_castle=("KC", False),
        table=EXAMPLE_8_TABLE,
        draw_piles=(cs("QS"), None),
        discard_piles=(cs("JC"), ()),
    )
    assert (len(s.pile(0, "draw")), len(s.pile(0, "discard")), len(s.board().hands[0])) == (1, 1, 2)
    act(s, 0, "discard:d3")
    assert len(s.pile(0, "draw")) == 2 and s.pile(0, "discard") == (), "refill at once"
    assert sorted(s.pile(0, "draw")) == sorted(cs("QS JC"))
    act(s, 1, "draw:pile=draw;n=0", "discard:d3")
    act(s, 0, "draw:pile=draw;n=2")
    assert len(s.board().hands[0]) == 4 and s.exhausted, "both piles are empty: the last turn"
    refused(s, 0, "discard:d1:AS", "EXHAUSTED")
    act(s, 0, "add:1:AS", "add:1:QS", "add:2:JC", "finish")
    assert s.phase is Phase.OVER and s.results[-1].end == "exhaustion"


def test_example_9_scoring() -> None:
    table = [
        "6C 6D 6H 6S",
        "7C 7D 7H 7S",
        "8C 8D 8H 8S",
        "JD QS KD",
        "2D 3S 4D 5S",
        "3H 4C 5H",
        "9H TC JH QC",
        "AS AC AH",
    ]
    on_table = [x for g in table for x in cs(g)]
    assert sum(colour(x) == 0 for x in on_table) == 14
    assert sum(colour(x) == 1 for x in on_table) == 15
    assert can_layout(on_table)
    for weight, expected in ((1, (16, 15)), (2, (18, 15))):
        s = placed(
            0,
            black_dukes="KS",
            black_castle=("3C", False),
            red_dukes="",
            red_castle=("5H", True),
            table=table,
            options=DukesUpOptions(slot_weight=weight),
        )
        assert s.score() == expected


# --------------------------------------------------------------------------------------
# Flow, reading and replay


def step(state: dukes_up.DukesUpState) -> None:
    """Take the first legal end step, setup or draw there is (a short, sure way through)."""
    seat = state.to_act[0]
    legal = state.legal_actions(seat)
    ends = [a for a in legal if a.kind in (Kind.DISCARD, Kind.FINISH, Kind.SETUP, Kind.DRAW)]
    state.apply(seat, (ends or [a for a in legal if a.kind is not Kind.END_ROUND])[0])


def test_a_new_match_deals_and_chooses() -> None:
    s = new_game(11)
    assert s.phase == "choose" and s.turn == 0 and s.round == 1 and s.to_act == (0, 1)
    for seat in (0, 1):
        setup = s.pile(seat, "setup")
        assert len(setup) == 4 and len(s.pile(seat, "draw")) == 22
        assert all(colour(x) == seat for x in setup + s.pile(seat, "draw"))
        assert set(s.view(seat).setup) == set(setup)
    a, b, d, e = s.pile(0, "setup")
    act(s, 0, f"setup:castle={a.code};dukes={b.code},{d.code};hand={e.code}")
    assert s.to_act == (1,) and s.view(0).setup == ()
    assert s.view(1).dukes[0] is None, "dukes are hidden until both have confirmed"
    assert s.view(1).castles[0] == "down"
    assert s.score() == (3, 0), "confirmed slots count during choose"
    a, b, d, e = s.pile(1, "setup")
    act(s, 1, f"setup:castle={a.code};dukes={b.code},{d.code};hand={e.code}")
    assert s.phase == "turn" and s.turn == 1 and s.to_act == (s.first_player,)
    assert s.view(0).dukes[1] == (b, d), "Dukes Up!"


def test_the_first_player_alternates_and_results_add_up() -> None:
    s = new_game(5, DukesUpOptions(rounds=3))
    firsts = []
    while not s.is_over:
        if s.phase is Phase.CHOOSE and s.round > len(firsts):
            firsts.append(s.first_player)
        step(s)
    assert firsts == [firsts[0], 1 - firsts[0], firsts[0]]
    assert len(s.results) == 3
    assert s.totals == tuple(sum(r.scores[p] for r in s.results) for p in (0, 1))
    best = max(s.totals)
    assert s.winners == tuple(p for p in (0, 1) if s.totals[p] == best)


def test_wins_scoring_counts_rounds_won() -> None:
    s = new_game(5, DukesUpOptions(rounds=2, match_scoring="wins", max_turns=4))
    while not s.is_over:
        step(s)
    assert s.totals == tuple(sum(r.winner == p for r in s.results) for p in (0, 1))


def test_agreement_scores_the_committed_state_and_keeps_the_draw() -> None:
    s = placed(0, black_hand="3S 4S 5S", drawn=False, table=[])
    act(s, 1, "end-round")
    refused(s, 1, "end-round", "AGREE")
    act(s, 0, "draw:pile=draw;n=1", "new:3S,4S,5S", "end-round")
    result = s.results[-1]
    assert result.end == "agreement"
    assert s.board().table == (), "the working copy is dropped"
    assert len(result.hands[0]) == 4, "the draw stays"


def test_agreements_clear_when_a_turn_ends() -> None:
    s = placed(0, black_hand="2C", table=[])
    act(s, 1, "end-round")
    act(s, 0, "discard:d1:2C")
    assert s.view(0).agreed == (False, False)
    act(s, 0, "end-round")
    assert s.phase is Phase.TURN, "one seat's request does not end the round"


def test_the_turn_limit_scores_after_that_discard_and_its_refill() -> None:
    s = placed(0, black_hand="2C", options=DukesUpOptions(max_turns=2))
    act(s, 0, "discard:d3")
    assert s.phase is Phase.OVER and s.results[-1].end == "turn-limit"


def test_resign_ends_the_match_for_the_opponent() -> None:
    s = placed(0, black_hand="2C")
    act(s, 1, "resign")
    assert s.is_over and s.winners == (0,) and s.results == ()
    refused(s, 0, "resign", "OVER")


def test_undo_reset_and_reveal() -> None:
    s = placed(0, black_hand="3S 4S 5S 9C", table=[])
    hand = s.board(working=True).hands[0]
    act(s, 0, "new:3S,4S,5S", "reveal")
    refused(s, 0, "undo", "UNDO")  # the last action in effect is reveal
    act(s, 0, "reset")
    assert s.board(working=True).hands[0] == hand and s.board(working=True).table == ()
    assert s.castle(0)[1], "reset keeps A7"
    assert [str(a) for a in s.view(0).actions] == ["reveal"]
    refused(s, 0, "undo", "UNDO")
    refused(s, 0, "reveal", "CASTLE")
    refused(s, 0, "discard:d2:3S,4S", "D2")  # A7 cannot be undone, so D2 is gone
    act(s, 0, "new:3S,4S,5S", "undo")
    assert s.board(working=True).table == ()


def test_return_takes_the_castle_back_and_drops_an_empty_group() -> None:
    s = placed(
        0, black_hand="QC 9C", black_castle=("QS", True), red_castle=("QH", True), red_dukes=""
    )
    act(s, 0, "new:QS,QC,QH", "return")
    assert s.board(working=True).table == (cs("QC QH"),)
    act(s, 0, "regroup:1:QC|QH")
    assert s.board(working=True).table == (cs("QC"), cs("QH"))


def test_d3_is_seen_by_nobody_and_open_memory_shows_a_question_mark() -> None:
    s = placed(0, black_hand="2C 9C", options=DukesUpOptions(discard_memory="open"))
    top = s.pile(0, "draw")[-1]
    act(s, 0, "discard:d3")
    assert s.pile(0, "discard")[0] == top, "the card goes to the bottom"
    for seat in (0, 1, None):
        data = (s.public_view() if seat is None else s.view(seat)).to_dict()
        assert top.code not in json.dumps(data)
    assert s.view(0).to_dict()["discard"] == ["?"]
    assert s.view(1).to_dict()["discard"] == [], "the viewer's own pile only"
    act(s, 1, "draw:pile=draw;n=0", "discard:d3")
    act(s, 0, "draw:pile=draw;n=0", "discard:d2:2C,9C")
    assert s.view(0).to_dict()["discard"] == ["9C", "2C", "?"]
    assert new_game(1).view(0).to_dict()["discard"] is None, "strict: sizes only"


def test_the_view_has_the_binding_keys() -> None:
    keys = set(
        [
            "phase",
            "round",
            "turn",
            "to_act",
            "first_player",
            "table",
            "dukes",
            "castles",
            "castle_up",
            "hand",
            "hand_sizes",
            "draw_sizes",
            "discard_sizes",
            "discard",
            "setup",
            "drawn",
            "exhausted",
            "agreed",
            "results",
            "totals",
            "winners",
        ]
    )
    s = new_game(2)
    for view in (s.view(0), s.view(1), s.public_view()):
        assert keys <= set(view.to_dict())
    assert s.public_view().to_dict()["hand"] is None


def test_the_draw_and_reveal_show_at_once_other_changes_at_the_turns_end() -> None:
    s = placed(0, black_hand="3S 4S 5S", drawn=False, table=[])
    act(s, 0, "draw:pile=draw;n=1")
    assert s.view(1).hand_sizes[0] == 4 and s.view(1).draw_sizes[0] == len(s.pile(0, "draw"))
    act(s, 0, "new:3S,4S,5S")
    assert s.view(1).table == () and s.view(1).hand_sizes[0] == 4
    assert s.view(0).table == (cs("3S 4S 5S"),) and s.view(0).hand_sizes[0] == 1
    act(s, 0, "reveal")
    assert s.view(1).castle_up[0] and s.public_view().castles[0] == c("QS")


def test_replay_of_a_move_log_rebuilds_the_match() -> None:
    s = new_game(8)
    import random

    rng = random.Random(8)
    while not s.is_over and s.move_count < 400:
        seat = rng.choice(s.to_act)
        s.apply(seat, rng.choice(s.legal_actions(seat)))
    log = [str(m) for m in s.moves]
    again = replay(8, s.options, log)
    assert snapshot(again) == snapshot(s)
    assert snapshot(replay(8, s.options, s.moves)) == snapshot(s)


# --------------------------------------------------------------------------------------
# Notation

CANONICAL = [
    "setup:castle=QS;dukes=KS,AC;hand=3C",
    "draw:pile=draw;n=2",
    "draw:pile=discard;n=0",
    "new:3S,4D,5S",
    "add:2:6S",
    "add:2:6S,7S",
    "regroup:1,2:3S,4D,5S|6D,6S,6C",
    "accept:1:3S,4D,5S|6D,6S,6C",
    "accept:-:6S,6C,6D",
    "pickup:KS",
    "set:5D",
    "reveal",
    "return",
    "undo",
    "reset",
    "discard:d1:9C",
    "discard:d2:2C,JS",
    "discard:d3",
    "discard:d4:5S",
    "discard:d4:4S:1,2:5D,6S,7D|7C,7H,7S",
    "finish",
    "end-round",
    "resign",
]


@pytest.mark.parametrize("text", CANONICAL)
def test_canonical_notation_round_trips(text: str) -> None:
    action = parse_action(text)
    assert str(action) == text and parse_action(str(action)) == action
    for seat, letter in ((0, "B"), (1, "R")):
        move = Move.parse(f"{letter}:{text}")
        assert move == Move(seat, action) and str(move) == f"{letter}:{text}"


@pytest.mark.parametrize(
    ("written", "canonical"),
    [
        ("regroup:1-2:3S,4D,5S|6D,6S,6C", "regroup:1,2:3S,4D,5S|6D,6S,6C"),
        ("accept:1-3,5:10S,J♠,QS", "accept:1,2,3,5:TS,JS,QS"),
        ("NEW: 3s, 4♦ ,5S", "new:3S,4D,5S"),
        ("Draw:Pile=Discard;N=1", "draw:pile=discard;n=1"),
        ("setup:hand=3C;castle=QS;dukes=KS,AC", "setup:castle=QS;dukes=KS,AC;hand=3C"),
        ("discard:D4:4S:1-2:5D,6S,7D|7C,7H,7S", "discard:d4:4S:1,2:5D,6S,7D|7C,7H,7S"),
        ("draw:pile=draw;n=7", "draw:pile=draw;n=7"),
    ],
)
def test_other_spellings_read_as_the_canonical_form(written: str, canonical: str) -> None:
    assert str(parse_action(written)) == canonical


@pytest.mark.parametrize(
    "text",
    [
        "",
        "dance",
        "new:",
        "new:3S,,4S",
        "new:XX",
        "add:x:3S",
        "add:2",
        "regroup:-:3S,4S,5S",
        "regroup:2-1:3S,4S,5S",
        "regroup:1:3S||4S",
        "accept:1",
        "setup:castle=QS;dukes=KS;hand=3C",
        "setup:castle=QS;dukes=KS,AC",
        "draw:pile=hand;n=1",
        "draw:pile=draw;n=-1",
        "draw:pile=draw",
        "pickup:KS,AC",
        "discard:d5:3S",
        "discard:d1",
        "discard:d2:3S",
        "discard:d3:3S",
        "discard:d4:4S:1,2",
        "discard:d4:4S:-:5D,6S,7D",
    ],
)
def test_malformed_text_is_a_parse_error(text: str) -> None:
    with pytest.raises(ParseError):
        parse_action(text)


def test_malformed_moves_are_parse_errors() -> None:
    for text in ("finish", "X:finish", "B-finish"):
        with pytest.raises(ParseError):
            Move.parse(text)


def test_the_module_exports_the_binding_names() -> None:
    for name in (
        "DukesUpOptions",
        "new_game",
        "parse_action",
        "Move",
        "replay",
        "can_layout",
        "Proposal",
        "parse_card",
    ):
        assert hasattr(dukes_up, name)
    assert parse_card is dukes_up.parse_card
    from engine.cards import parse_card as cards_parse

    assert parse_card is cards_parse


@pytest.mark.parametrize(
    "options",
    [
        {"rounds": 0},
        {"rounds": "2"},
        {"match_scoring": "best"},
        {"slot_weight": 3},
        {"slot_weight": True},
        {"discard_memory": "full"},
        {"arrangement_help": "solve"},
        {"max_turns": 0},
        {"turn_time": -5},
    ],
)
def test_options_outside_the_table_are_refused(options: dict[str, object]) -> None:
    with pytest.raises(OptionsError):
        DukesUpOptions(**options)  # type: ignore[arg-type]


# --------------------------------------------------------------------------------------
# Refusals: each condition, in the binding order, and nothing changes


def test_over_refuses_every_action() -> None:
    s = placed(0, black_hand="2C")
    act(s, 0, "resign")
    for text in (
        "finish",
        "draw:pile=draw;n=1",
        "end-round",
        "setup:castle=QS;dukes=KS,AC;hand=3C",
    ):
        refused(s, 1, text, "OVER")


def test_phase_refusals() -> None:
    s = new_game(3)
    refused(s, 0, "draw:pile=draw;n=1", "PHASE")
    refused(s, 0, "end-round", "PHASE")
    refused(s, 0, "undo", "PHASE")
    t = placed(0, black_hand="2C")
    refused(t, 0, "setup:castle=QS;dukes=KS,AC;hand=3C", "PHASE")


def test_turn_refusals() -> None:
    s = new_game(3)
    a, b, d, e = s.pile(0, "setup")
    text = f"setup:castle={a.code};dukes={b.code},{d.code};hand={e.code}"
    act(s, 0, text)
    refused(s, 0, text, "TURN")
    t = placed(0, black_hand="2C", drawn=False)
    refused(t, 1, "draw:pile=draw;n=1", "TURN")
    refused(t, 1, "undo", "TURN")  # TURN comes before DRAW


def test_draw_refusals() -> None:
    s = placed(0, black_hand="2C 3C", drawn=False, discard_piles=(cs("4C"), ()))
    for text in ("new:2C,3C,4C", "undo", "reset", "discard:d3", "finish"):
        refused(s, 0, text, "DRAW")
    refused(s, 0, "draw:pile=draw;n=3", "DRAW")
    refused(s, 0, "draw:pile=discard;n=2", "DRAW")  # more than the pile holds
    full = placed(0, black_hand="2C 3C 4C 5C", drawn=False)
    refused(full, 0, "draw:pile=draw;n=1", "DRAW")  # a hand of 4 draws 0
    act(full, 0, "draw:pile=draw;n=0")
    refused(full, 0, "draw:pile=draw;n=0", "DRAW")  # a second draw
    three = placed(0, black_hand="2C 3C 4C", drawn=False)
    refused(three, 0, "draw:pile=draw;n=2", "DRAW")


def test_setup_refusal() -> None:
    s = new_game(3)
    a, b, d, e = s.pile(0, "setup")
    other = next(x for x in s.pile(0, "draw"))
    refused(s, 0, f"setup:castle={a.code};dukes={b.code},{d.code};hand={other.code}", "SETUP")
    refused(s, 0, f"setup:castle={a.code};dukes={a.code},{d.code};hand={e.code}", "SETUP")


def test_source_and_group_refusals() -> None:
    s = placed(0, black_hand="3S 4S 5S 9C", table=["7C 8C 9H"], red_dukes="KD AH")
    refused(s, 0, "new:3S,3S,4S", "SOURCE")
    refused(s, 0, "new:3S,4S,6S", "SOURCE")  # ♠6 is not a source card
    refused(s, 0, "new:3S,4S,QH", "SOURCE")  # R's castle is face-down
    refused(s, 0, "add:2:5S", "GROUP")
    refused(s, 0, "add:0:5S", "GROUP")
    refused(s, 0, "add:2:6S", "GROUP")  # GROUP before SOURCE
    refused(s, 0, "add:1:6S", "SOURCE")
    refused(s, 0, "regroup:1,1:7C,8C,9H", "GROUP")
    refused(s, 0, "regroup:2:7C,8C,9H", "GROUP")
    refused(s, 0, "regroup:1:7C,8C", "GROUP")
    refused(s, 0, "regroup:1:7C,8C,9H,3S", "GROUP")


def test_accept_refusals_in_order() -> None:
    s = placed(0, black_hand="3S 4S 5S 9C TC", table=["7C 8C 9H"])
    refused(s, 0, "accept:1,1:7C,8C,9H,TC", "GROUP")
    refused(s, 0, "accept:3:7C,8C,9H,TC", "GROUP")
    refused(s, 0, "accept:-:3S,3S,4S", "GROUP")  # a card twice
    refused(s, 0, "accept:1:7C,8C,TC", "GROUP")  # a named group's card missing
    refused(s, 0, "accept:1:7C,8C,9H", "SOURCE")  # no card from outside
    refused(s, 0, "accept:-:7S,8S,9S", "SOURCE")  # not source cards
    refused(s, 0, "accept:-:3S,4S,9C", "LAYOUT")
    refused(s, 0, "accept:-:7C,8C,9H,TC", "SOURCE")  # 7C… lie in G1, which is not named
    help_off = placed(
        0, black_hand="3S 4S 5S", options=DukesUpOptions(arrangement_help="check-only")
    )
    refused(help_off, 0, "accept:-:3S,4S,5S", "HELP")
    with pytest.raises(Refusal) as caught:
        help_off.propose(0, cs("3S 4S 5S"))
    assert caught.value.condition == "HELP"
    act(s, 0, "accept:1:7C,8C,9H,TC")
    assert s.board(working=True).table == (cs("7C 8C 9H TC"),)


def test_propose_refuses_as_accept_would_and_changes_nothing() -> None:
    s = placed(0, black_hand="3S 4S 5S", drawn=False)
    before = snapshot(s)
    with pytest.raises(Refusal) as caught:
        s.propose(0, cs("3S 4S 5S"))
    assert caught.value.condition == "DRAW"
    with pytest.raises(Refusal) as caught:
        s.propose(1, cs("3S 4S 5S"))
    assert caught.value.condition == "TURN"
    act(s, 0, "draw:pile=draw;n=0")
    for cards, condition in ((cs("3S 3S"), "GROUP"), ((), "SOURCE"), (cs("6S"), "SOURCE")):
        with pytest.raises(Refusal) as caught:
            s.propose(0, cards)
        assert caught.value.condition == condition
    middle = snapshot(s)
    proposal = s.propose(0, cs("3S 4S 5S"))
    assert proposal is not None and proposal.step == 1 and proposal.replaced == ()
    assert str(proposal.action) == "accept:-:3S,4S,5S"
    assert snapshot(s) == middle
    del before


def test_duke_refusals() -> None:
    s = placed(0, black_hand="2C 3C", black_dukes="KS AC")
    refused(s, 0, "pickup:2C", "DUKE")
    refused(s, 0, "pickup:KD", "DUKE")
    refused(s, 0, "set:2C", "DUKE")  # both slots full
    refused(s, 0, "set:KS", "DUKE")  # not in the hand
    act(s, 0, "pickup:KS")
    refused(s, 0, "set:9C", "DUKE")
    act(s, 0, "set:2C")


def test_castle_refusals() -> None:
    s = placed(0, black_hand="2C", black_castle=("QS", True))
    refused(s, 0, "reveal", "CASTLE")
    refused(s, 0, "return", "CASTLE")


def test_undo_refusal_with_nothing_in_effect() -> None:
    s = placed(0, black_hand="2C")
    refused(s, 0, "undo", "UNDO")
    act(s, 0, "reset")  # never refused after the draw


def test_finish_and_exhausted_refusals() -> None:
    s = placed(0, black_hand="2C")
    refused(s, 0, "finish", "FINISH")
    t = placed(
        0,
        black_hand="AS AC QS JC",
        black_dukes="KS QC",
        black_castle=("KC", False),
        table=EXAMPLE_8_TABLE,
        draw_piles=((), None),
        discard_piles=((), ()),
        drawn=True,
    )
    refused(t, 0, "discard:d3", "EXHAUSTED")
    refused(t, 0, "discard:d1:AS", "EXHAUSTED")
    act(t, 0, "finish")
    assert t.results[-1].end == "exhaustion"


def test_e_checks_come_in_order_and_before_the_option() -> None:
    s = placed(
        0,
        black_hand="QC 9C 2C",
        black_castle=("QS", True),
        red_dukes="7D",
        red_castle=("QH", True),
    )
    act(s, 0, "new:QS,QC,QH", "add:1:9C")  # invalid group, own castle, guarded castle
    refused(s, 0, "discard:d1:JC", "E1")  # E1 before the option (JC is not in hand: D1)
    act(s, 0, "undo")
    refused(s, 0, "discard:d1:JC", "E3")
    refused(s, 0, "finish", "E4")


def test_discard_option_refusals() -> None:
    s = placed(0, black_hand="2C 3C", table=["4S 5S 6S 7S"])
    refused(s, 0, "discard:d1:9C", "D1")
    refused(s, 0, "discard:d2:2C,2C", "D2")
    refused(s, 0, "discard:d2:2C,9C", "D2")
    refused(s, 0, "discard:d4:9S", "D4")  # not on the table
    refused(s, 0, "discard:d4:5S", "D4")  # the group breaks; no regrouping given
    refused(s, 0, "discard:d4:5S:1:4S,6S,7S", "D4")  # not a valid layout
    refused(s, 0, "discard:d4:5S:1:4S,6S", "D4")  # not the named groups' other cards
    refused(s, 0, "discard:d4:5S:2:4S", "D4")  # no G2
    rest = [x for x in DECK if colour(x) == 0 and x not in cs("2C KS AC QS")]
    empty = placed(0, black_hand="2C", draw_piles=((), None), discard_piles=(tuple(rest), ()))
    refused(empty, 0, "discard:d3", "D3")
    act(s, 0, "discard:d4:4S")


def test_non_actions_and_bad_seats_are_invalid_not_refusals() -> None:
    s = placed(0, black_hand="2C")
    before = snapshot(s)
    for seat, action in ((2, parse_action("finish")), (0, "finish"), (0, object())):
        with pytest.raises(InvalidActionError):
            s.apply(seat, action)  # type: ignore[arg-type]
    assert snapshot(s) == before
