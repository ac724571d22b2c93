"""Dukes Up!'s ``expert``: only accepted actions, the same choice for the same view whatever
the hidden cards, and the plays it should find (a winning capture, THE MOVE, a duke swap,
a safe duke, a discard)."""

from __future__ import annotations

import random

import pytest

from engine.cards import DECK
from engine.dukes_up import DukesUpOptions, DukesUpState, Kind, Phase, can_layout, new_game
from engine.dukes_up.actions import Action
from engine.dukes_up.layout import Fits, colour
from engine.dukes_up.players import Player, make_player
from engine.dukes_up.rules import position
from tests.engine.dukes_helpers import c, cs, placed


def test_fits_answers_as_the_exact_search_on_the_union() -> None:
    rng = random.Random(11)
    checked = 0
    while checked < 1500:
        cards = rng.sample(DECK, 52)
        n = rng.randint(0, 40)
        table = cards[:n]
        if not can_layout(table):
            continue
        fits = Fits(table)
        assert fits.fits()
        for _ in range(5):
            extra = rng.sample(cards[n:], rng.randint(1, 4))
            assert fits.fits(extra) == can_layout(table + extra), (table, extra)
            checked += 1
    assert not Fits(cs("3S 4S")).fits(), "the fixed cards alone must be laid out too"
    assert not Fits(cs("3S 4S 5S")).fits(cs("4S")), "a card already fixed cannot come again"


def play_turn(state: DukesUpState, seat: int, player: Player) -> list[Action]:
    """Apply the player's actions until its turn is over; return them."""
    done: list[Action] = []
    turn, round_no = state.turn, state.round
    while (
        not state.is_over
        and seat in state.to_act
        and (state.turn, state.round) == (turn, round_no)
        and len(done) < 100
    ):
        action = player.act(state.view(seat))
        state.apply(seat, action)  # a refused action raises
        done.append(action)
    return done


def on_table(state: DukesUpState) -> set[object]:
    return {x for g in state.board().table for x in g}


@pytest.mark.parametrize(
    ("opponent", "options"),
    [
        ("baseline", DukesUpOptions()),
        ("random", DukesUpOptions(max_turns=60)),
        ("expert", DukesUpOptions(max_turns=80)),
        ("baseline", DukesUpOptions(arrangement_help="check-only", max_turns=80)),
        ("baseline", DukesUpOptions(slot_weight=2, rounds=2, match_scoring="wins", max_turns=60)),
        ("random", DukesUpOptions(discard_memory="open", rounds=2, max_turns=40)),
    ],
)
def test_the_expert_plays_only_accepted_actions(opponent: str, options: DukesUpOptions) -> None:
    for seed in range(2):
        state = new_game(seed, options)
        expert_seat = seed % 2
        players = {
            expert_seat: make_player("expert", seed),
            (expert_seat + 1) % 2: make_player(opponent, seed + 1),
        }
        decisions = 0
        while not state.is_over:
            seat = state.to_act[0]
            state.apply(seat, players[seat].act(state.view(seat)))  # a refusal raises
            decisions += 1
        assert decisions < 40 * options.rounds * options.max_turns


def test_the_expert_takes_over_any_position_mid_turn() -> None:
    # random actions first (new groups, pick-ups, a castle on the table …), then the expert
    # finishes the turn from whatever working copy it finds, and plays on
    rng = random.Random(5)
    for seed in range(6):
        state = new_game(100 + seed, DukesUpOptions(max_turns=60))
        chaos = make_player("random", seed)
        expert = make_player("expert", seed)
        taken_over = 0
        while not state.is_over:
            seat = state.to_act[0]
            chosen = chaos if rng.random() < 0.4 else expert
            taken_over += chosen is expert and state.move_count > 0
            state.apply(seat, chosen.act(state.view(seat)))  # a refusal raises
        assert taken_over > 0


# Determinism for a seed: tests/engine/test_dukes_up_players.py, over every level.


def test_the_same_view_gives_the_same_choice_whatever_the_hidden_cards() -> None:
    """At the expert's turns of real matches, the opponent's hidden cards (hand, castle
    face down, draw and discard piles) are dealt again among themselves: its view is the
    same, and so is every action of its turn."""
    rng = random.Random(7)
    checked = 0
    for seed in range(3):
        state = new_game(40 + seed)
        me, other = seed % 2, (seed + 1) % 2
        players = {me: make_player("expert", seed), other: make_player("baseline", seed)}
        while not state.is_over:
            seat = state.to_act[0]
            view = state.view(seat)
            if seat == me and view.drawn and not view.actions and state.turn % 3 == 0:
                real, dealt = twins(state, me, other, rng)
                assert real.view(me) == dealt.view(me)
                moves = [play_turn(s, me, make_player("expert", 9)) for s in (real, dealt)]
                assert moves[0] == moves[1]
                checked += 1
            state.apply(seat, players[seat].act(view))
    assert checked >= 10


def twins(
    state: DukesUpState, me: int, other: int, rng: random.Random
) -> tuple[DukesUpState, DukesUpState]:
    """Return the state's position (after ``me``'s draw) twice: as it is, and with the
    opponent's hidden cards dealt again among their places."""
    board = state.board()
    castles = (state.castle(0), state.castle(1))
    hidden_castle = not castles[other][1] and castles[other][0] not in on_table(state)
    draw, discard = state.pile(other, "draw"), state.pile(other, "discard")
    cards = [*board.hands[other], *draw, *discard]
    if hidden_castle:
        cards.append(castles[other][0])
    rng.shuffle(cards)
    hand_n, draw_n = len(board.hands[other]), len(draw)
    dealt_hand = cards[:hand_n]
    dealt_draw = cards[hand_n : hand_n + draw_n]
    dealt_discard = cards[hand_n + draw_n : hand_n + draw_n + len(discard)]
    dealt_castles = list(castles)
    if hidden_castle:
        dealt_castles[other] = (cards[-1], False)
    made = []
    for hands_other, draw_other, discard_other, castle_pair in (
        (board.hands[other], draw, discard, castles),
        (tuple(dealt_hand), tuple(dealt_draw), tuple(dealt_discard), tuple(dealt_castles)),
    ):
        hands = [board.hands[0], board.hands[1]]
        hands[other] = hands_other
        piles: list[tuple[object, ...] | None] = [None, None]
        piles[me] = state.pile(me, "draw")
        piles[other] = draw_other
        discards = [state.pile(0, "discard"), state.pile(1, "discard")]
        discards[other] = discard_other
        made.append(
            position(
                mover=me,
                hands=(hands[0], hands[1]),
                dukes=board.dukes,
                castles=(castle_pair[0], castle_pair[1]),  # type: ignore[arg-type]
                table=board.table,
                draw_piles=(piles[0], piles[1]),  # type: ignore[arg-type]
                discard_piles=(discards[0], discards[1]),
                turn=state.turn,
                seed=state.seed,
            )
        )
    return made[0], made[1]


def test_the_expert_captures_when_the_capture_wins() -> None:
    s = placed(
        0,
        black_hand="3S 4S 5S 9C",
        red_dukes="",
        red_castle=("QH", True),
        table=["QC QD QS"],
        black_castle=("KC", False),
    )
    play_turn(s, 0, make_player("expert", 0))
    result = s.results[-1]
    assert result.end == "capture" and result.winner == 0
    assert set(cs("3S 4S 5S")) <= on_table(s), "its cards that fit go down before it finishes"


def test_the_expert_does_not_capture_a_castle_when_that_loses() -> None:
    s = placed(
        0,
        black_hand="9C",
        red_dukes="",
        red_castle=("QH", True),
        table=["QC QD QS", "2D 3D 4D 5D 6D 7D 8D"],
        black_castle=("KC", False),
    )
    play_turn(s, 0, make_player("expert", 0))
    assert not s.results and c("QH") not in on_table(s)


def test_the_expert_uses_its_own_castle_when_only_that_captures() -> None:
    # the rules' example 6: ♥Q lies open and unguarded, ♠Q is Black's face-down castle
    s = placed(
        0,
        black_hand="QC 9C",
        red_dukes="",
        red_castle=("QH", True),
        black_castle=("QS", False),
        table=["3S 4S 5S"],
    )
    actions = play_turn(s, 0, make_player("expert", 0))
    assert actions[0].kind is Kind.REVEAL
    assert s.results[-1].end == "capture" and s.results[-1].winner == 0
    assert set(cs("QS QH QC")) <= on_table(s)


def test_the_expert_swaps_a_duke_that_fits_for_a_card_that_does_not() -> None:
    s = placed(
        0, black_hand="7C", black_dukes="KS AC", table=["TD JD QD"], black_castle=("2C", False)
    )
    before = s.score()[0]
    kinds = [a.kind for a in play_turn(s, 0, make_player("expert", 0))]
    assert kinds[:3] == [Kind.PICKUP, Kind.ACCEPT, Kind.SET]
    assert c("KS") in on_table(s)
    assert set(s.board().dukes[0]) == set(cs("AC 7C"))
    assert s.score()[0] == before + 1, "♣7 scores in its slot, ♠K on the table"


def test_the_expert_guards_its_castle_with_a_duke_the_opponent_cannot_take() -> None:
    # ♠9 joins ♦J ♦Q ♦K with one red card (♦10); nothing red makes ♣6 fit
    s = placed(
        0,
        black_hand="6C",
        black_dukes="9S",
        red_dukes="2H 3H",
        table=["JD QD KD"],
        black_castle=("AC", False),
        turn=4,
    )
    play_turn(s, 0, make_player("expert", 0))
    assert s.board().dukes[0] == (c("6C"),)


def test_the_expert_leaves_its_dukes_alone_when_a_swap_gains_nothing() -> None:
    s = placed(0, black_hand="5S 6S 9C", black_dukes="AC KS", black_castle=("2C", False))
    actions = play_turn(s, 0, make_player("expert", 0))
    assert [a.kind for a in actions] == [Kind.DISCARD]
    assert set(s.board().dukes[0]) == set(cs("AC KS"))


def test_the_expert_discards_the_card_furthest_from_a_group() -> None:
    s = placed(0, black_hand="5S 6S 9C", black_dukes="AC KS", black_castle=("2C", False))
    action = make_player("expert", 0).act(s.view(0))
    assert str(action) == "discard:d1:9C", "♠5 ♠6 wait for ♠4 or ♠7"


def test_the_expert_draws_as_many_as_it_may() -> None:
    s = placed(0, black_hand="2C", drawn=False)
    assert str(make_player("expert", 0).act(s.view(0))) == "draw:pile=draw;n=2"


def test_the_expert_draws_a_fresh_card_rather_than_its_own_discards_back() -> None:
    named = set(cs("2C KS AC QS 9C"))
    rest = tuple(x for x in DECK if colour(x) == 0 and x not in named)  # Black's others
    s = placed(
        0,
        black_hand="2C",
        drawn=False,
        draw_piles=(cs("9C"), None),
        discard_piles=(rest, ()),
    )
    assert s.view(0).draw_sizes[0] == 1 and s.view(0).discard_sizes[0] > 2
    assert str(make_player("expert", 0).act(s.view(0))) == "draw:pile=draw;n=1"


def test_the_expert_sets_up_with_hard_cards_in_its_slots() -> None:
    state = new_game(4)
    action = make_player("expert", 0).act(state.view(0))
    assert action.kind is Kind.SETUP and state.phase is Phase.CHOOSE
    state.apply(0, action)  # accepted
