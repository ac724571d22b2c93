"""Duplicate whist (rules §7): trays, a tray played at a table, and the three formats' scores
— team of four, the Mitchell movement and its scores, Mnemonic duplicate."""

from __future__ import annotations

import random
from collections import Counter
from fractions import Fraction

import pytest

from engine.cards import DECK, Suit
from engine.errors import (
    GameOverError,
    IllegalActionError,
    InvalidActionError,
    NotYourTurnError,
    OptionsError,
)
from engine.whist import (
    Kind,
    MitchellTable,
    Move,
    Tray,
    make_trays,
    mitchell_schedule,
    new_tray_game,
    parse_action,
    play,
    score_mitchell,
    score_mnemonic,
    score_team_of_four,
    turn_tray,
)
from engine.whist.duplicate import mnemonic_trump

# --------------------------------------------------------------------------------------
# Trays


def test_trays_deal_from_the_dealers_left_and_turn_his_last_card() -> None:
    trays = make_trays(7, 8)
    assert [t.number for t in trays] == list(range(1, 9))
    assert [t.dealer for t in trays] == [0, 1, 2, 3, 0, 1, 2, 3]
    for tray in trays:
        rng = random.Random(f"whist:7:tray:{tray.number}")
        deck = list(DECK)
        rng.shuffle(deck)
        for i in range(4):
            seat = (tray.dealer + 1 + i) % 4
            assert tray.hands[seat] == tuple(sorted(deck[i::4]))
        assert tray.trump_card == deck[51] and tray.trump_card in tray.hands[tray.dealer]
        assert tray.trump is deck[51].suit
        assert sorted(c for hand in tray.hands for c in hand) == sorted(DECK)
    assert make_trays(7, 8) == trays, "the same seed gives the same trays"
    assert make_trays(8, 8) != trays
    assert make_trays(7, 3) == trays[:3]


def test_declared_trump_turns_no_card() -> None:
    trays = make_trays(7, 4, Suit.HEARTS)
    assert all(t.trump_card is None and t.trump is Suit.HEARTS for t in trays)
    assert [t.hands for t in trays] == [t.hands for t in make_trays(7, 4)]
    assert mnemonic_trump(3) == mnemonic_trump(3)
    assert {mnemonic_trump(s) for s in range(40)} == set(Suit)


def test_turning_a_tray_moves_every_hand_one_seat_clockwise() -> None:
    tray = make_trays(2, 3)[2]
    turned = turn_tray(tray)
    assert turned.hands == (tray.hands[3], tray.hands[0], tray.hands[1], tray.hands[2])
    assert turned.dealer == (tray.dealer + 1) % 4
    assert (turned.number, turned.trump_card, turned.trump) == (
        tray.number,
        tray.trump_card,
        tray.trump,
    )
    # the same hand still leads: eldest is the left of the dealer's hand
    assert new_tray_game(turned).to_play == (new_tray_game(tray).to_play + 1) % 4  # type: ignore[operator]
    assert turn_tray(turn_tray(turn_tray(turn_tray(tray)))) == tray


# --------------------------------------------------------------------------------------
# A tray at a table


def test_a_tray_plays_like_a_short_whist_deal() -> None:
    for seed in range(10):
        tray = make_trays(seed, 4)[seed % 4]
        game = new_tray_game(tray)
        assert game.to_play == (tray.dealer + 1) % 4 and game.turnup == tray.trump_card
        rng = random.Random(seed)
        dealer_played = False
        while not game.is_over:
            seat = game.to_play
            assert seat is not None
            legal = game.legal_actions(seat)
            assert list(legal) == sorted(legal) and all(a.kind == Kind.PLAY for a in legal)
            assert all(game.legal_actions(s) == () for s in range(4) if s != seat)
            if game.trick:
                led = game.trick[0][1].suit
                if any(c.suit is led for c in game.hand(seat)):
                    assert all(a.card.suit is led for a in legal)  # type: ignore[union-attr]
            assert game.result is None
            game.apply(seat, rng.choice(legal))
            dealer_played |= seat == tray.dealer
            if dealer_played:
                assert game.turnup is None
        assert game.to_play is None and sum(game.tricks) == 13
        assert game.result == game.tricks[0]
        assert len(game.moves) == 52 and all(isinstance(m, Move) for m in game.moves)
        assert sorted(m.action.card for m in game.moves) == sorted(DECK)  # type: ignore[type-var]


def test_a_tray_refuses_like_a_deal_and_changes_nothing() -> None:
    tray = make_trays(1, 1)[0]
    game = new_tray_game(tray)
    seat = game.to_play
    assert seat is not None
    other = (seat + 1) % 4
    for who, action, error in [
        (9, play(tray.hands[seat][0]), InvalidActionError),
        (seat, "AS", InvalidActionError),
        (seat, parse_action("keep"), InvalidActionError),
        (other, play(tray.hands[other][0]), NotYourTurnError),
        (seat, play(tray.hands[other][0]), IllegalActionError),
    ]:
        with pytest.raises(error):
            game.apply(who, action)  # type: ignore[arg-type]
        assert game.moves == () and game.to_play == seat
    game.apply(seat, play(tray.hands[seat][-1]))
    follower = game.to_play
    assert follower is not None
    led = tray.hands[seat][-1].suit
    hand = game.hand(follower)
    off = [c for c in hand if c.suit is not led]
    if off and len(off) < len(hand):
        with pytest.raises(IllegalActionError) as caught:
            game.apply(follower, play(off[0]))
        assert caught.value.reason == "must-follow"
    rng = random.Random(1)
    while not game.is_over:
        s = game.to_play
        assert s is not None
        game.apply(s, rng.choice(game.legal_actions(s)))
    with pytest.raises(GameOverError):
        game.apply(0, play(DECK[0]))


# --------------------------------------------------------------------------------------
# Format A: team of four


def test_team_of_four_table_of_the_rules() -> None:
    score = score_team_of_four([8, 5, 9, 6], [6, 7, 8, 6])
    assert score.trays == (2, -2, 1, 0)
    assert (score.x, score.y) == (1, -1)


def test_team_of_four_unfinished_trays_score_zero() -> None:
    score = score_team_of_four([8, None, 9], [6, 7, None])
    assert score.trays == (2, 0, 0) and (score.x, score.y) == (2, -2)
    assert score_team_of_four([], []) == (tuple(), 0, 0)
    with pytest.raises(ValueError):
        score_team_of_four([1], [])


# --------------------------------------------------------------------------------------
# Format B: the Mitchell


def test_mitchell_three_tables_literally() -> None:
    schedule = mitchell_schedule(3, 2)
    assert schedule[0] == (
        MitchellTable(1, 1, 1, 1, 1, (1, 2)),
        MitchellTable(1, 2, 2, 2, 2, (3, 4)),
        MitchellTable(1, 3, 3, 3, 3, (5, 6)),
    )
    assert schedule[1] == (
        MitchellTable(2, 1, 1, 3, 2, (3, 4)),
        MitchellTable(2, 2, 2, 1, 3, (5, 6)),
        MitchellTable(2, 3, 3, 2, 1, (1, 2)),
    )
    assert schedule[2] == (
        MitchellTable(3, 1, 1, 2, 3, (5, 6)),
        MitchellTable(3, 2, 2, 3, 1, (1, 2)),
        MitchellTable(3, 3, 3, 1, 2, (3, 4)),
    )


@pytest.mark.parametrize("tables", [3, 4, 5, 6, 7, 8, 9, 10])
@pytest.mark.parametrize("per_set", [1, 3])
def test_mitchell_every_pair_plays_every_tray_once(tables: int, per_set: int) -> None:
    schedule = mitchell_schedule(tables, per_set)
    assert len(schedule) == tables and all(len(row) == tables for row in schedule)
    trays = set(range(1, tables * per_set + 1))
    ns_trays: dict[int, Counter[int]] = {p: Counter() for p in range(1, tables + 1)}
    ew_trays: dict[int, Counter[int]] = {p: Counter() for p in range(1, tables + 1)}
    meetings: Counter[tuple[int, int]] = Counter()
    for r, row in enumerate(schedule, start=1):
        assert sorted(t.ew_pair for t in row) == list(range(1, tables + 1))
        assert sorted(t.set for t in row) == list(range(1, tables + 1))
        for t, table in enumerate(row, start=1):
            assert (table.round, table.table, table.ns_pair) == (r, t, t), "N-S never move"
            s = table.set
            assert table.trays == tuple(range((s - 1) * per_set + 1, s * per_set + 1))
            ns_trays[table.ns_pair].update(table.trays)
            ew_trays[table.ew_pair].update(table.trays)
            meetings[table.ns_pair, table.ew_pair] += 1
            if r > 1:
                before = schedule[r - 2]
                assert before[t % tables].set == s, "sets move to the next lower table"
                moved = next(b.table for b in before if b.ew_pair == table.ew_pair)
                skip = tables % 2 == 0 and r == tables // 2 + 1
                assert t == (moved - 1 + (2 if skip else 1)) % tables + 1
    for pair in range(1, tables + 1):
        assert set(ns_trays[pair]) == trays and set(ns_trays[pair].values()) == {1}
        assert set(ew_trays[pair]) == trays and set(ew_trays[pair].values()) == {1}
    counts = Counter(meetings.values())
    if tables % 2:
        assert set(meetings.values()) == {1} and len(meetings) == tables * tables
    else:
        # each E-W pair meets one N-S pair twice and another never
        assert counts[2] == tables and len(meetings) == tables * (tables - 1)


def test_mitchell_needs_three_tables() -> None:
    for bad in (0, 1, 2):
        with pytest.raises(OptionsError):
            mitchell_schedule(bad)
    with pytest.raises(OptionsError):
        mitchell_schedule(4, 0)


def test_mitchell_scores_the_rules_tray_5() -> None:
    score = score_mitchell([(5, 1, 1, 8), (5, 2, 2, 6), (5, 3, 3, 7)])
    assert score.tray_scores == {
        (5, 1, 1): (Fraction(1), Fraction(-1)),
        (5, 2, 2): (Fraction(-1), Fraction(1)),
        (5, 3, 3): (Fraction(0), Fraction(0)),
    }
    assert score.ns == {1: 1, 2: -1, 3: 0} and score.ew == {1: -1, 2: 1, 3: 0}
    assert score.ns_winners == (1,) and score.ew_winners == (2,)


def test_mitchell_scores_exact_fractions_unfinished_and_ties() -> None:
    plays = [
        (1, 1, 2, 8),
        (1, 2, 3, 7),
        (1, 3, 1, None),  # unfinished: 0 for both, and not in the average
        (2, 1, 3, 6),
        (2, 2, 1, 6),
        (2, 3, 2, 9),
    ]
    score = score_mitchell(plays)
    assert score.tray_scores[1, 1, 2] == (Fraction(1, 2), Fraction(-1, 2))
    assert score.tray_scores[1, 2, 3] == (Fraction(-1, 2), Fraction(1, 2))
    assert score.tray_scores[1, 3, 1] == (0, 0)
    assert score.tray_scores[2, 3, 2] == (Fraction(2), Fraction(-2))
    assert score.tray_scores[2, 1, 3] == (Fraction(-1), Fraction(1))
    assert score.ns == {1: Fraction(-1, 2), 2: Fraction(-3, 2), 3: Fraction(2)}
    assert score.ew == {2: Fraction(-5, 2), 3: Fraction(3, 2), 1: Fraction(1)}
    assert all(isinstance(v, Fraction) for v in (*score.ns.values(), *score.ew.values()))
    assert score.ns_winners == (3,) and score.ew_winners == (3,)
    tied = score_mitchell([(1, 1, 1, 7), (1, 2, 2, 7)])
    assert tied.ns_winners == (1, 2) and tied.ew_winners == (1, 2)
    assert score_mitchell([]).ns_winners == ()


def test_a_whole_mitchell_scores_to_zero_per_direction() -> None:
    rng = random.Random(4)
    schedule = mitchell_schedule(5, 2)
    plays = [
        (tray, t.ns_pair, t.ew_pair, rng.choice([None, *range(14)]))
        for row in schedule
        for t in row
        for tray in t.trays
    ]
    score = score_mitchell(plays)
    assert sum(score.ns.values()) == 0 and sum(score.ew.values()) == 0
    assert set(score.ns) == set(score.ew) == {1, 2, 3, 4, 5}


# --------------------------------------------------------------------------------------
# Format C: Mnemonic


def test_mnemonic_scores_both_plays_minus_13() -> None:
    score = score_mnemonic([8, 5, None, 7], [7, 6, 9, None])
    assert score.trays == (2, -2, 0, 0) and (score.ns, score.ew) == (0, 0)
    score = score_mnemonic([9, 10], [6, 5])
    assert score.trays == (2, 2) and (score.ns, score.ew) == (4, -4)
    with pytest.raises(ValueError):
        score_mnemonic([1], [1, 2])


def test_a_mnemonic_session_played_out() -> None:
    trump = mnemonic_trump(11)
    trays = make_trays(11, 8, trump)
    rng = random.Random(11)
    results: list[list[int | None]] = [[], []]
    for play_no, source in enumerate((trays, [turn_tray(t) for t in trays])):
        for tray in source:
            assert isinstance(tray, Tray) and tray.trump_card is None
            game = new_tray_game(tray)
            while not game.is_over:
                seat = game.to_play
                assert seat is not None
                game.apply(seat, rng.choice(game.legal_actions(seat)))
            results[play_no].append(game.result)
    score = score_mnemonic(results[0], results[1])
    assert score.ns == sum(
        a + b - 13  # type: ignore[operator]
        for a, b in zip(results[0], results[1], strict=True)
    )
