"""Whist's rules as ``docs/rules/whist.md`` states them: the binding API, seating, dealing,
play, every worked vector and table of the rules file, and what each view shows."""

from __future__ import annotations

import itertools
import json
import random
from collections import Counter

import pytest

from engine.cards import DECK, Card, Rank, Suit, parse_card
from engine.errors import (
    EngineError,
    GameOverError,
    IllegalActionError,
    InvalidActionError,
    NotYourTurnError,
    OptionsError,
    ParseError,
)
from engine.whist import (
    ACCEPT,
    EAST,
    EXCHANGE,
    KEEP,
    NORTH,
    REJECT,
    SOUTH,
    TRICKS,
    WEST,
    Action,
    Kind,
    Move,
    Phase,
    WhistOptions,
    WhistState,
    claim,
    declare,
    new_game,
    parse_action,
    play,
    replay,
    scoring,
)
from tests.engine.whist_helpers import finish_deal, play_randomly

SHORT = WhistOptions()
DUMMY = WhistOptions(variant="english_dummy")
DOUBLE = WhistOptions(variant="double_dummy")
HUMBUG = WhistOptions(variant="humbug")
TWO = WhistOptions(variant="two_hand")
MORT3 = WhistOptions(variant="mort", players=3)
MORT4 = WhistOptions(variant="mort")


def card(code: str) -> Card:
    return parse_card(code)


def play_card(state: WhistState) -> None:
    """Play the first legal card of the hand due (a card, never a claim)."""
    seat = state.to_play
    assert seat is not None
    state.apply(seat, next(a for a in state.legal_actions(seat) if a.kind == Kind.PLAY))


# --------------------------------------------------------------------------------------
# Notation


def test_actions_are_written_and_read_as_the_rules_say() -> None:
    queen = play(card("QH"))
    assert str(queen) == "QH" and str(play(card("10S"))) == "TS"
    for text in ("TS", "10S", "10♠", "ts", "10s", " TS "):
        assert parse_action(text) == play(card("TS"))
    assert str(declare(Suit.CLUBS)) == "trump:C" and parse_action("trump:S") == declare(Suit.SPADES)
    assert parse_action("trump:♥") == declare(Suit.HEARTS)
    assert [str(a) for a in (KEEP, EXCHANGE, ACCEPT, REJECT)] == [
        "keep",
        "exchange",
        "accept",
        "reject",
    ]
    assert str(claim(5)) == "claim:5" and parse_action("claim:13") == claim(13)
    for bad in ("claim:0", "claim:14", "claim:x", "trump:X", "1X", "", "hold", "foo:bar"):
        with pytest.raises(ParseError):
            parse_action(bad)
    move = Move(NORTH, queen)
    assert str(move) == "N:QH" and Move.parse("N:QH") == move
    assert Move.parse("S:claim:5") == Move(SOUTH, claim(5))
    assert Move.parse("w:accept") == Move(WEST, ACCEPT)
    with pytest.raises(ParseError):
        Move.parse("X:QH")
    with pytest.raises(ParseError):
        Move.parse("QH")


def test_every_action_sorts_in_the_binding_order() -> None:
    cards = [play(c) for c in sorted(DECK)]
    every = [
        *cards,
        *(declare(s) for s in (Suit.CLUBS, Suit.DIAMONDS, Suit.HEARTS, Suit.SPADES)),
        KEEP,
        EXCHANGE,
        *(claim(k) for k in range(1, 14)),
        ACCEPT,
        REJECT,
    ]
    shuffled = list(every)
    random.Random(1).shuffle(shuffled)
    assert sorted(shuffled) == every
    assert str(cards[0]) == "2C" and str(cards[1]) == "2D" and str(cards[-1]) == "AS"
    assert all(parse_action(str(a)) is a for a in every), "actions are interned"


# --------------------------------------------------------------------------------------
# Options


@pytest.mark.parametrize(
    "kwargs",
    [
        {"variant": "long"},
        {"players": 3},
        {"variant": "mort", "players": 2},
        {"variant": "english_dummy", "players": 4},
        {"random_seating": True, "variant": "mort"},
        {"fixed_dummy": True},
        {"open_all": True, "variant": "humbug"},
        {"humbug_declared": True},
        {"dummy_shown": "after_opening_lead"},
        {"dummy_shown": "never", "variant": "mort"},
        {"variant": "english_dummy", "rubbers": 2},
        {"variant": "english_dummy", "fixed_dummy": True, "rubbers": 0},
        {"variant": "english_dummy", "fixed_dummy": True, "dummy_player": 3},
        {"variant": "english_dummy", "dummy_player": 1},
    ],
)
def test_options_of_another_variant_or_out_of_range_are_refused(kwargs: dict[str, object]) -> None:
    with pytest.raises(OptionsError) as caught:
        WhistOptions(**kwargs)  # type: ignore[arg-type]
    assert caught.value.reason


def test_player_counts() -> None:
    counts = {v: new_game(1, WhistOptions(variant=v)).players for v in ("short", "english_dummy")}
    assert counts == {"short": 4, "english_dummy": 3}
    assert new_game(1, DOUBLE).players == new_game(1, HUMBUG).players == 2
    assert new_game(1, TWO).players == 2
    assert new_game(1, MORT4).players == 4 and new_game(1, MORT3).players == 3
    with pytest.raises(OptionsError):
        new_game("1", SHORT)  # type: ignore[arg-type]


# --------------------------------------------------------------------------------------
# Seats, players, dealers and the deal


def test_short_whist_seats_in_join_order_unless_random_and_draws_the_first_dealer() -> None:
    dealers = Counter()
    for seed in range(200):
        state = new_game(seed)
        assert state.order == (0, 1, 2, 3)
        assert [state.player_at(s) for s in range(4)] == [0, 1, 2, 3]
        assert [state.controller(s) for s in range(4)] == [0, 1, 2, 3]
        assert [state.side_of(s) for s in range(4)] == [0, 1, 0, 1]
        assert state.sitting_out is None and state.rubber == 1 and state.game == 1
        dealers[state.dealer] += 1
    assert set(dealers) == {0, 1, 2, 3} and min(dealers.values()) > 30
    orders = {new_game(seed, WhistOptions(random_seating=True)).order for seed in range(60)}
    assert len(orders) > 10 and all(sorted(o) == [0, 1, 2, 3] for o in orders)
    state = new_game(5, WhistOptions(random_seating=True))
    assert [state.player_at(s) for s in range(4)] == list(state.order)
    assert [state.seat_of(p) for p in state.order] == [0, 1, 2, 3]


@pytest.mark.parametrize(
    "options", [SHORT, DUMMY, DOUBLE, MORT3, MORT4], ids=lambda o: o.variant + str(o.players)
)
def test_four_hands_are_dealt_from_the_dealers_left_and_his_last_card_is_turned(
    options: WhistOptions,
) -> None:
    for seed in range(20):
        state = new_game(seed, options)
        dealer = state.dealer
        rng = random.Random(f"whist:{seed}:deal:1")
        deck = list(DECK)
        rng.shuffle(deck)
        for i in range(4):
            seat = (dealer + 1 + i) % 4
            assert state.hand(seat) == tuple(sorted(deck[i::4]))
        assert state.turnup == deck[51] and state.turnup in state.hand(dealer)
        assert state.trump is deck[51].suit
        assert state.to_play == (dealer + 1) % 4, "eldest hand leads"
        assert state.phase is Phase.PLAY
        assert sorted(c for s in range(4) for c in state.hand(s)) == sorted(DECK)


def test_the_deal_passes_left_across_games_and_rubbers() -> None:
    state = new_game(3)
    first = state.dealer
    dealers = []
    while not state.is_over:
        dealers.append(state.dealer)
        finish_deal(state, (8, 5))  # N-S: 2 by cards a deal
    assert dealers == [(first + i) % 4 for i in range(len(dealers))]
    assert state.dealer == dealers[-1], "once over the last deal's dealer stays"
    assert [r.dealer for r in state.results] == dealers


def test_eldest_leads_and_each_trick_winner_leads_the_next() -> None:
    state = new_game(11)
    rng = random.Random(2)
    while state.deal == 1:
        if not state.trick and state.last_trick is not None:
            assert state.to_play == state.last_trick.winner
        play_randomly(state, rng, 1)
    first = state.results[0]
    assert sum(first.tricks) == TRICKS


def test_a_card_must_follow_suit_and_the_highest_trump_or_card_of_the_suit_led_wins() -> None:
    for seed in range(30):
        state = new_game(seed)
        rng = random.Random(seed)
        while state.deal == 1:
            seat = state.to_play
            assert seat is not None
            hand = state.hand(seat)
            legal = state.legal_actions(seat)
            if state.trick:
                led = state.trick[0][1].suit
                if any(c.suit is led for c in hand):
                    assert {a.card for a in legal} == {c for c in hand if c.suit is led}
                else:
                    assert {a.card for a in legal} == set(hand)
            else:
                assert {a.card for a in legal} == set(hand)
            before = state.trick
            action = rng.choice(legal)
            state.apply(seat, action)
            if len(before) == 3:
                cards = [c for _, c in before] + [action.card]
                seats = [s for s, _ in before] + [seat]
                trumps = [c for c in cards if c.suit is state.trump]
                pool = trumps or [c for c in cards if c.suit is cards[0].suit]
                best = max(pool, key=lambda c: c.rank)
                if state.deal == 1:
                    assert state.last_trick is not None
                    assert state.last_trick.winner == seats[cards.index(best)]


# --------------------------------------------------------------------------------------
# Short whist: the worked vectors a–i


def test_vector_a_rubber_of_three_games() -> None:
    state = new_game(1)
    finish_deal(state, (7, 6), score=(4, 4))  # A-B (N-S) win 5–4: single
    assert state.results[-1].game_value == 1 and state.results[-1].score == (5, 4)
    assert state.score == (0, 0) and state.game == 2
    finish_deal(state, (6, 7), score=(1, 4))  # Y-Z win 5–1: double
    assert state.results[-1].game_winner == 1 and state.results[-1].game_value == 2
    finish_deal(state, (11, 2))  # A-B 5–0: treble
    last = state.results[-1]
    assert (last.game_winner, last.game_value) == (0, 3)
    assert (last.rubber_winner, last.rubber_value) == (0, 4)  # 1 + 3 + 2 − 2
    assert state.is_over and state.totals == (4, -4, 4, -4) and state.winners == (0, 2)


def test_vector_b_tricks_before_honours() -> None:
    state = new_game(1)
    finish_deal(state, (4, 9), honours=(3, 1), score=(3, 0))
    last = state.results[-1]
    assert last.points == (2, 3) and last.score == (5, 3)
    assert (last.game_winner, last.game_value) == (0, 1), "A-B go out on honours: single"


@pytest.mark.parametrize("start", [3, 4])
def test_vector_c_going_out_first_voids_the_others_honours(start: int) -> None:
    state = new_game(1)
    finish_deal(state, (8, 5), honours=(0, 4), score=(start, 0))
    last = state.results[-1]
    assert last.score == (5, 0) and last.points == (5 - start, 0)
    assert (last.game_winner, last.game_value) == (0, 3), "treble"
    assert last.honours == (0, 4)


def test_vector_d_the_largest_rubber_and_e_the_smallest() -> None:
    state = new_game(1)
    finish_deal(state, (12, 1))
    finish_deal(state, (12, 1))
    last = state.results[-1]
    assert (last.rubber_winner, last.rubber_value) == (0, 8) and state.games == (2, 0)
    assert state.totals == (8, -8, 8, -8)

    state = new_game(1)
    finish_deal(state, (7, 6), score=(4, 4))  # single
    finish_deal(state, (1, 12))  # lose a treble
    finish_deal(state, (7, 6), score=(4, 3))  # single
    last = state.results[-1]
    assert (last.rubber_winner, last.rubber_value) == (0, 1)  # 1 + 1 + 2 − 3
    assert state.totals == (1, -1, 1, -1)


def test_vector_f_honours_void_at_four() -> None:
    state = new_game(1)
    finish_deal(state, (6, 7), honours=(4, 0), score=(4, 2))
    last = state.results[-1]
    assert last.points == (0, 1) and last.score == (4, 3) and last.game_winner is None
    assert state.score == (4, 3)


def test_vector_g_four_all() -> None:
    state = new_game(1)
    finish_deal(state, (5, 8), honours=(1, 3), score=(4, 0))
    assert state.results[-1].points == (0, 4) and state.score == (4, 4)


def test_vector_h_excess_dropped() -> None:
    state = new_game(1)
    finish_deal(state, (7, 6), honours=(4, 0), score=(2, 4))
    last = state.results[-1]
    assert last.points == (3, 0) and last.score == (5, 4)
    assert (last.game_winner, last.game_value) == (0, 1)


def test_vector_i_thirteen_tricks_at_love_all() -> None:
    state = new_game(1)
    finish_deal(state, (13, 0))
    last = state.results[-1]
    assert last.points == (5, 0) and (last.game_winner, last.game_value) == (0, 3)
    assert last.slam == (0, 0), "short whist has no slam"


def test_honours_are_counted_from_the_hands_as_dealt() -> None:
    for seed in range(40):
        state = new_game(seed)
        trump = state.trump
        holders = {
            rank: next(s for s in range(4) if Card.of(rank, trump) in state.hand(s))  # type: ignore[arg-type]
            for rank in (Rank.ACE, Rank.KING, Rank.QUEEN, Rank.JACK)
        }
        expected = (
            sum(1 for s in holders.values() if s % 2 == 0),
            sum(1 for s in holders.values() if s % 2 == 1),
        )
        play_randomly(state, random.Random(seed), 52)
        result = state.results[0]
        assert result.honours == expected
        assert state.honour_holders[0] == tuple(holders[r] for r in holders)
        tricks = scoring.trick_points(result.tricks)
        honours = scoring.short_honour_points(expected)
        assert result.points == scoring.deal_points((0, 0), tricks, honours).points


# --------------------------------------------------------------------------------------
# English Dummy


def test_english_dummy_tournee_each_player_partners_dummy_once_and_dummy_deals_first() -> None:
    orders = set()
    for seed in range(30):
        state = new_game(seed, DUMMY)
        assert sorted(state.order) == [0, 1, 2] and state.dealer == NORTH
        orders.add(state.order)
        seen = []
        while not state.is_over:
            partner = state.order[state.rubber - 1]  # type: ignore[operator]
            others = sorted(p for p in range(3) if p != partner)
            assert [state.player_at(s) for s in range(4)] == [None, others[0], partner, others[1]]
            assert [state.controller(s) for s in range(4)] == [SOUTH, EAST, SOUTH, WEST]
            if not seen or seen[-1] != state.rubber:
                seen.append(state.rubber)
                assert state.dealer == NORTH and state.game == 1
            finish_deal(state, (12, 1) if state.rubber == 2 else (1, 12))
        assert seen == [1, 2, 3]
        # rubber 1 and 3 lost by dummy's side (8 each), rubber 2 won (8)
        partner_gain = {p: 0 for p in range(3)}
        for r, partner in enumerate(state.order, start=1):
            sign = 1 if r == 2 else -1
            for p in range(3):
                partner_gain[p] += sign * (16 if p == partner else -8)
        assert state.totals == tuple(partner_gain[p] for p in range(3))
        assert sum(state.totals) == 0
    assert len(orders) == 6


@pytest.mark.parametrize(
    ("deals", "value", "normal", "fixed"),
    [
        ([(7, 6, (4, 4)), (7, 6, (4, 4))], 4, (8, -4), (6, -3)),  # dummy's side wins 4
        ([(7, 6, (4, 4)), (1, 12, None), (7, 6, (4, 3))], 1, (2, -1), (0, 0)),
        ([(1, 12, None), (1, 12, None)], 8, (-16, 8), (-18, 9)),  # adversaries win 8
    ],
)
def test_english_dummy_rubber_values_normal_and_with_a_fixed_dummy(
    deals: list[tuple[int, int, tuple[int, int] | None]],
    value: int,
    normal: tuple[int, int],
    fixed: tuple[int, int],
) -> None:
    for options, (partner_delta, adversary_delta) in (
        (DUMMY, normal),
        (WhistOptions(variant="english_dummy", fixed_dummy=True, dummy_player=1, rubbers=1), fixed),
    ):
        state = new_game(4, options)
        partner = state.order[0]
        for ns, ew, score in deals:
            finish_deal(state, (ns, ew), score=score)
        last = state.results[-1]
        assert last.rubber_value == value, "the rubber's value before fixed_dummy's point"
        expected = tuple(partner_delta if p == partner else adversary_delta for p in range(3))
        assert last.totals == expected
        if options.fixed_dummy:
            assert partner == 1 and state.is_over


def test_fixed_dummy_plays_the_named_number_of_rubbers_with_the_same_partner() -> None:
    options = WhistOptions(variant="english_dummy", fixed_dummy=True, dummy_player=2, rubbers=4)
    state = new_game(9, options)
    assert state.order == (2, 2, 2, 2)
    rubbers = set()
    while not state.is_over:
        assert state.player_at(SOUTH) == 2
        rubbers.add(state.rubber)
        finish_deal(state, (12, 1))
    assert rubbers == {1, 2, 3, 4} and state.totals == (-7 * 4, -7 * 4, 14 * 4)


# --------------------------------------------------------------------------------------
# Double Dummy


def test_double_dummy_seats_and_deals() -> None:
    firsts = set()
    for seed in range(20):
        state = new_game(seed, DOUBLE)
        firsts.add(state.order[0])
        assert sorted(state.order) == [0, 1] and state.dealer == NORTH
        assert [state.player_at(s) for s in range(4)] == [None, None, *state.order]
        assert [state.controller(s) for s in range(4)] == [SOUTH, WEST, SOUTH, WEST]
        assert state.to_play == EAST
    assert firsts == {0, 1}


def test_double_dummy_claims_accept_reject_and_block() -> None:
    state = new_game(2, DOUBLE)
    assert state.to_play == EAST
    assert [str(a) for a in state.legal_actions(WEST)] == [f"claim:{k}" for k in range(1, 14)]
    assert state.legal_actions(SOUTH) == () and state.legal_actions(NORTH) == ()
    play_card(state)  # E leads
    assert state.to_play == SOUTH
    legal = state.legal_actions(SOUTH)
    assert legal[-1] == claim(13) and legal[0].kind == Kind.PLAY
    state.apply(SOUTH, claim(9))
    assert state.phase is Phase.CLAIM and state.to_act == (WEST,) and state.to_play == SOUTH
    assert state.legal_actions(WEST) == (ACCEPT, REJECT) and state.legal_actions(SOUTH) == ()
    with pytest.raises(NotYourTurnError):
        state.apply(SOUTH, play(state.hand(SOUTH)[0]))
    state.apply(WEST, REJECT)
    assert state.phase is Phase.PLAY and state.to_play == SOUTH
    assert all(a.kind == Kind.PLAY for a in state.legal_actions(SOUTH)), "no claim until a card"
    with pytest.raises(IllegalActionError) as caught:
        state.apply(SOUTH, claim(3))
    assert caught.value.reason == "claim-blocked"
    play_card(state)  # S plays: the claim is offered again (now to W, who controls W)
    assert state.to_play == WEST and state.legal_actions(WEST)[-1] == claim(13)
    play_card(state)
    play_card(state)  # N: the first trick is complete
    assert state.completed == 1 and state.to_play is not None
    decider = state.controller(state.to_play)
    assert decider is not None
    assert state.legal_actions(decider)[-1] == claim(12)
    with pytest.raises(IllegalActionError) as caught:
        state.apply(decider, claim(13))
    assert caught.value.reason == "claim-too-many"
    side = state.side_of(decider)
    assert side is not None
    before = state.tricks
    state.apply(decider, claim(8))
    opponent = WEST if decider == SOUTH else SOUTH
    state.apply(opponent, ACCEPT)
    result = state.results[0]
    expected = [0, 0]
    expected[side] = before[side] + 8
    expected[1 if side == 0 else 0] = before[1 if side == 0 else 0] + 4
    assert result.tricks == tuple(expected) and state.deal == 2


def test_an_accepted_claim_drops_the_trick_in_progress_and_the_cards_held() -> None:
    state = new_game(3, DOUBLE)
    finish_deal(state, (12, 1))
    assert state.dealer == EAST and state.to_play == SOUTH
    play_card(state)  # S leads; W concedes all but one trick
    state.apply(WEST, claim(1))
    assert state.to_act == (SOUTH,)
    state.apply(SOUTH, ACCEPT)
    last = state.results[-1]
    assert last.tricks == (12, 1) and last.rubber_winner == 0 and state.is_over
    assert state.trick == () and all(state.hand(s) == () for s in range(4))
    assert state.to_play is None and state.claim is None


def test_double_dummy_settles_between_the_two_players() -> None:
    state = new_game(3, DOUBLE)
    finish_deal(state, (1, 12))
    finish_deal(state, (1, 12))
    assert state.is_over
    assert state.totals[state.order[1]] == 8 and state.totals[state.order[0]] == -8
    assert state.winners == (state.order[1],)


def test_claims_exist_only_in_double_dummy() -> None:
    state = new_game(2)
    seat = state.to_play
    assert seat is not None
    with pytest.raises(IllegalActionError) as caught:
        state.apply(seat, claim(1))
    assert caught.value.reason == "no-claims"


# --------------------------------------------------------------------------------------
# Humbug


def test_humbug_exchange_both_choose_then_hands_swap_with_the_right_hand() -> None:
    for seed in range(12):
        state = new_game(seed, HUMBUG)
        assert state.dealer in (NORTH, SOUTH) and state.phase is Phase.EXCHANGE
        assert state.to_act == (NORTH, SOUTH) and state.to_play is None
        assert state.legal_actions(NORTH) == (KEEP, EXCHANGE) == state.legal_actions(SOUTH)
        assert state.legal_actions(EAST) == () and state.legal_actions(WEST) == ()
        assert state.turnup in state.hand(state.dealer)
        hands = [state.hand(s) for s in range(4)]
        n_choice, s_choice = [
            (KEEP, KEEP),
            (KEEP, EXCHANGE),
            (EXCHANGE, KEEP),
            (EXCHANGE, EXCHANGE),
        ][seed % 4]
        turn = state.turn
        state.apply(SOUTH, s_choice)
        assert state.turn == turn, "the same decision: North still chooses"
        assert state.to_act == (NORTH,) and state.legal_actions(SOUTH) == ()
        assert [state.hand(s) for s in range(4)] == hands, "nothing changes until both chose"
        with pytest.raises(NotYourTurnError) as caught:
            state.apply(SOUTH, KEEP)
        assert caught.value.reason == "already-chosen"
        state.apply(NORTH, n_choice)
        assert state.phase is Phase.PLAY and state.turn == turn + 1
        expect_n = hands[WEST] if n_choice is EXCHANGE else hands[NORTH]
        expect_s = hands[EAST] if s_choice is EXCHANGE else hands[SOUTH]
        assert state.hand(NORTH) == expect_n and state.hand(SOUTH) == expect_s
        assert state.hand(WEST) == (hands[NORTH] if n_choice is EXCHANGE else hands[WEST])
        assert state.hand(EAST) == (hands[SOUTH] if s_choice is EXCHANGE else hands[EAST])
        assert state.discarded(NORTH) == (hands[NORTH] if n_choice is EXCHANGE else None)
        non_dealer = SOUTH if state.dealer == NORTH else NORTH
        assert state.to_play == non_dealer, "the dealer's adversary leads"
        assert state.turnup is not None and state.trump is state.turnup.suit


def test_humbug_tricks_are_two_cards_and_honours_count_in_the_played_hands_only() -> None:
    state = new_game(5, HUMBUG)
    state.apply(NORTH, EXCHANGE)
    state.apply(SOUTH, KEEP)
    trump = state.trump
    assert trump is not None
    n = sum(1 for c in state.hand(NORTH) if c.suit is trump and c.rank >= Rank.JACK)
    s = sum(1 for c in state.hand(SOUTH) if c.suit is trump and c.rank >= Rank.JACK)
    leader = state.to_play
    play_card(state)
    assert state.to_play == (SOUTH if leader == NORTH else NORTH)
    play_card(state)
    assert len(state.last_trick.cards) == 2  # type: ignore[union-attr]
    play_randomly(state, random.Random(1), 24)
    result = state.results[0]
    assert result.honours == (n, s) and sum(result.tricks) == 13
    holders = state.honour_holders[0]
    assert all(h in (NORTH, SOUTH, None) for h in holders)


@pytest.mark.parametrize(
    ("held", "points"),
    [
        ((4, 0), 4),
        ((3, 1), 3),
        ((3, 0), 3),
        ((2, 2), 0),
        ((2, 1), 2),
        ((2, 0), 2),
        ((1, 1), 0),
        ((1, 0), 0),
        ((0, 0), 0),
    ],
)
def test_humbug_honours_table(held: tuple[int, int], points: int) -> None:
    award = scoring.humbug_honour_points(held)
    assert (award[1] if award else 0) == points
    flipped = scoring.humbug_honour_points((held[1], held[0]))
    assert (flipped == (1, points)) if points else flipped is None
    # through a deal: S takes the odd trick first, then N's honours
    state = new_game(1, HUMBUG)
    state.apply(NORTH, KEEP)
    state.apply(SOUTH, KEEP)
    finish_deal(state, (6, 7), honours=held, score=(0, 0))
    assert state.results[-1].points == (points, 1)
    state = new_game(1, HUMBUG)
    state.apply(NORTH, KEEP)
    state.apply(SOUTH, KEEP)
    finish_deal(state, (6, 7), honours=held, score=(4, 0))
    assert state.results[-1].points == (0, 1), "at four: no honours"


def test_humbug_declared_the_dealer_names_trumps_and_only_his_adversary_exchanges() -> None:
    options = WhistOptions(variant="humbug", humbug_declared=True)
    for seed in range(6):
        state = new_game(seed, options)
        dealer = state.dealer
        other = SOUTH if dealer == NORTH else NORTH
        assert state.phase is Phase.DECLARE and state.turnup is None and state.trump is None
        assert state.to_act == (dealer,) and state.legal_actions(other) == ()
        assert [str(a) for a in state.legal_actions(dealer)] == [
            "trump:C",
            "trump:D",
            "trump:H",
            "trump:S",
        ]
        hand = state.hand(dealer)
        state.apply(dealer, declare(Suit.DIAMONDS))
        assert state.trump is Suit.DIAMONDS and state.phase is Phase.EXCHANGE
        assert state.to_act == (other,) and state.legal_actions(dealer) == ()
        state.apply(other, EXCHANGE)
        assert state.phase is Phase.PLAY and state.hand(dealer) == hand
        assert state.to_play == other


def test_humbug_dealers_alternate() -> None:
    state = new_game(8, HUMBUG)
    dealers = []
    while not state.is_over:
        dealers.append(state.dealer)
        state.apply(NORTH, KEEP)
        state.apply(SOUTH, KEEP)
        finish_deal(state, (9, 4))
    assert all(a != b and {a, b} == {NORTH, SOUTH} for a, b in itertools.pairwise(dealers))
    assert state.totals == (8, -8)


# --------------------------------------------------------------------------------------
# Two-hand


def test_two_hand_deal_turnup_is_nobodys_and_only_the_odd_trick_scores() -> None:
    for seed in range(10):
        state = new_game(seed, TWO)
        dealer = state.dealer
        other = SOUTH if dealer == NORTH else NORTH
        rng = random.Random(f"whist:{seed}:deal:1")
        deck = list(DECK)
        rng.shuffle(deck)
        assert state.hand(other) == tuple(sorted(deck[0:26:2]))
        assert state.hand(dealer) == tuple(sorted(deck[1:26:2]))
        assert state.turnup == deck[26] and state.trump is deck[26].suit
        assert state.hand(EAST) == state.hand(WEST) == ()
        assert state.unused() == tuple(sorted(deck[27:]))
        assert state.to_play == other
        assert [state.controller(s) for s in range(4)] == [NORTH, None, SOUTH, None]
        assert [state.side_of(s) for s in range(4)] == [0, None, 1, None]
        play_randomly(state, random.Random(seed), 26)
        result = state.results[0]
        assert sum(result.tricks) == 13 and result.honours == (0, 0)
        winner = 0 if result.tricks[0] >= 7 else 1
        expected = [0, 0]
        expected[winner] = 1
        assert result.points == tuple(expected)


# --------------------------------------------------------------------------------------
# Mort


def test_mort_four_players_schedule() -> None:
    table = {1: (1, 4, {2, 3}), 2: (2, 1, {3, 4}), 3: (3, 2, {1, 4}), 4: (4, 3, {1, 2})}
    for seed in range(10):
        state = new_game(seed, MORT4)
        number = {p: i + 1 for i, p in enumerate(state.order)}  # player → 1..4
        games = 0
        while not state.is_over:
            vivant, out, adversaries = table[state.game]
            assert number[state.player_at(SOUTH)] == vivant  # type: ignore[index]
            assert state.sitting_out is not None and number[state.sitting_out] == out
            assert state.seat_of(state.sitting_out) is None
            assert {number[state.player_at(s)] for s in (EAST, WEST)} == adversaries  # type: ignore[index]
            assert state.player_at(NORTH) is None
            assert state.controller(NORTH) == SOUTH
            assert state.dealer == SOUTH
            games += 1
            finish_deal(state, (12, 1))
        assert games == 4 and state.sitting_out is None
        assert sum(state.totals) == 0


def test_mort_three_players_each_vivant_once_adversaries_drawn() -> None:
    lefts = set()
    for seed in range(20):
        state = new_game(seed, MORT3)
        assert sorted(state.order) == [0, 1, 2]
        vivants = []
        while not state.is_over:
            vivants.append(state.player_at(SOUTH))
            lefts.add(
                (
                    state.game,
                    state.player_at(EAST)
                    == min(
                        state.player_at(EAST),
                        state.player_at(WEST),  # type: ignore[type-var]
                    ),
                )
            )
            assert state.sitting_out is None
            finish_deal(state, (12, 1))
        assert vivants == list(state.order)
    assert len(lefts) == 6, "L and R are drawn: each way round occurs"


def test_mort_deal_passes_v_r_m_l_and_vivant_deals_first_each_game() -> None:
    state = new_game(2, MORT3)
    seen = [state.dealer]
    finish_deal(state, (7, 6))
    seen.append(state.dealer)
    finish_deal(state, (7, 6))
    seen.append(state.dealer)
    finish_deal(state, (7, 6))
    seen.append(state.dealer)
    assert seen == [SOUTH, WEST, NORTH, EAST], "V → R → M → L"
    assert state.to_play == SOUTH, "on L's deal Vivant is eldest"
    finish_deal(state, (12, 1))  # 4 + 6 → game
    assert state.game == 2 and state.dealer == SOUTH and state.to_play == WEST


def mort_game(
    state: WhistState,
    tricks: tuple[int, int],
    *,
    score: tuple[int, int] | None = None,
    honours: tuple[int, int] = (0, 0),
) -> tuple[int, int, int]:
    """Finish a Mort deal; return what it settled as (Vivant, L, R) (the seats read before the
    next game reseats them)."""
    players = [state.player_at(s) for s in (SOUTH, EAST, WEST)]
    finish_deal(state, tricks, score=score, honours=honours)
    rounds = state.result().rounds
    return tuple(rounds[p][-1] if rounds[p] else 0 for p in players)  # type: ignore[return-value,index]


def test_mort_vector_v_m_win_8_to_2() -> None:
    state = new_game(6, MORT3)
    settled = mort_game(state, (10, 3), score=(4, 2))
    last = state.results[-1]
    assert last.score == (8, 2) and last.points == (4, 0)
    assert (last.game_winner, last.game_value) == (0, 12)  # 8 + 2 + 4 − 2
    assert settled == (24, -12, -12)
    assert last.rubber is None and last.rubber_winner is None and last.rubber_value is None


def test_mort_vector_l_r_win_5_to_4_after_a_v_m_slam() -> None:
    state = new_game(6, MORT3)
    finish_deal(state, (13, 0), score=(4, 4), honours=(4, 0))
    slam = state.results[-1]
    assert slam.slam == (20, 0) and slam.points == (0, 0) and slam.score == (4, 4)
    assert slam.game_winner is None and state.score == (4, 4)
    settled = mort_game(state, (6, 7))
    last = state.results[-1]
    assert last.score == (4, 5) and (last.game_winner, last.game_value) == (1, -14)
    assert last.slam == (0, 0)
    assert settled == (28, -14, -14)


def test_mort_bounds_greatest_17_and_least_6() -> None:
    state = new_game(6, MORT3)
    settled = mort_game(state, (12, 1), score=(4, 0), honours=(0, 4))
    last = state.results[-1]
    assert last.score == (10, 0) and last.game_value == 17
    assert settled == (34, -17, -17)
    state = new_game(6, MORT3)
    settled = mort_game(state, (1, 12), score=(0, 4))
    assert state.results[-1].game_value == 17 and settled == (-34, 17, 17)
    state = new_game(6, MORT3)
    settled = mort_game(state, (7, 6), score=(4, 4))
    assert state.results[-1].game_value == 6 and settled == (12, -6, -6)


def test_mort_keeps_points_beyond_five_but_stops_at_five() -> None:
    state = new_game(6, MORT3)
    finish_deal(state, (9, 4), honours=(4, 0), score=(3, 0))  # 3 + 3 = 6: honours not scored
    assert state.results[-1].score == (6, 0)
    state = new_game(6, MORT3)
    finish_deal(state, (7, 6), honours=(4, 0), score=(2, 0))  # 2 + 1 + 4 = 7, kept
    assert state.results[-1].score == (7, 0) and state.results[-1].game_value == 7 + 3 + 4


def test_a_slam_counts_only_in_its_own_game() -> None:
    state = new_game(6, MORT3)
    finish_deal(state, (13, 0))
    finish_deal(state, (12, 1))  # V-M: 6 → game: 6 + 3 + 4 + 20 = 33
    assert state.results[-1].game_value == 33
    finish_deal(state, (12, 1))
    assert state.results[-1].game_value == 13, "the earlier slam is gone"


# --------------------------------------------------------------------------------------
# Views


def test_the_turnup_is_on_view_until_the_dealer_plays_to_trick_one() -> None:
    for seed in range(8):
        state = new_game(seed)
        turnup = state.turnup
        assert turnup is not None
        while state.to_play != state.dealer:
            assert state.public_view().turnup == turnup
            play_card(state)
        assert state.public_view().turnup == turnup
        play_card(state)
        for view in (state.public_view(), *(state.view(s) for s in range(4))):
            assert view.turnup is None and view.trump is turnup.suit
            if turnup in state.hand(state.dealer) and view.seat != state.dealer:
                assert f'"{turnup.code}"' not in json.dumps(view.to_dict())


def test_only_the_last_completed_trick_is_shown_until_the_next_lead() -> None:
    state = new_game(4)
    for _ in range(4):
        play_card(state)
    view = state.public_view()
    assert view.trick == () and view.last_trick is not None and view.last_trick.number == 1
    assert len(view.last_trick.cards) == 4
    assert view.tricks == state.tricks and sum(view.tricks) == 1
    play_card(state)
    view = state.public_view()
    assert view.last_trick is None and len(view.trick) == 1
    data = view.to_dict()
    assert data["last_trick"] is None and len(data["trick"]) == 1


def test_short_whist_views_show_only_ones_own_hand() -> None:
    state = new_game(4)
    for seat in range(4):
        view = state.view(seat)
        assert view.seat == seat and view.player == seat
        assert view.hands[seat] == state.hand(seat)
        assert all(view.hands[s] is None for s in range(4) if s != seat)
        assert view.counts == (13, 13, 13, 13)
    assert all(h is None for h in state.public_view().hands)


@pytest.mark.parametrize("variant", ["english_dummy", "mort"])
def test_dummy_is_public_from_the_deal_and_its_partner_plays_it(variant: str) -> None:
    options = WhistOptions(variant=variant, players=3 if variant == "mort" else None)
    state = new_game(3, options)
    dummy = state.hand(NORTH)
    assert state.public_view().hands[NORTH] == dummy
    assert state.view(EAST).hands[NORTH] == dummy
    partner = state.view(NORTH)
    assert partner.player == state.player_at(SOUTH) and partner.seat == NORTH
    assert partner.hands[SOUTH] == state.hand(SOUTH) and partner.hands[NORTH] == dummy
    assert partner.hands[EAST] is None and partner.hands[WEST] is None
    assert state.view(SOUTH).hands[NORTH] == dummy
    assert state.view(EAST).hands[SOUTH] is None


@pytest.mark.parametrize("variant", ["english_dummy", "mort"])
def test_dummy_shown_after_the_opening_lead(variant: str) -> None:
    options = WhistOptions(
        variant=variant, players=3 if variant == "mort" else None, dummy_shown="after_opening_lead"
    )
    state = new_game(3, options)
    assert state.public_view().hands[NORTH] is None
    assert state.view(EAST).hands[NORTH] is None and state.view(WEST).hands[NORTH] is None
    assert state.view(SOUTH).hands[NORTH] == state.hand(NORTH), "its partner plays it"
    codes = {c.code for c in state.hand(NORTH)} - {state.turnup.code}  # type: ignore[union-attr]
    assert codes <= state.secrets(NORTH)
    play_card(state)
    assert state.public_view().hands[NORTH] == state.hand(NORTH)
    assert not state.secrets(NORTH)


def test_double_dummy_each_player_sees_his_hand_and_both_dummies() -> None:
    state = new_game(7, DOUBLE)
    for seat, own, dummy in ((SOUTH, SOUTH, NORTH), (NORTH, SOUTH, NORTH), (WEST, WEST, EAST)):
        view = state.view(seat)
        assert view.player == state.player_at(own)
        shown = {s for s in range(4) if view.hands[s] is not None}
        assert shown == {own, NORTH, EAST}
        assert sum(len(view.hands[s] or ()) for s in shown) == 39
        assert view.hands[dummy] == state.hand(dummy)
    public = state.public_view()
    assert {s for s in range(4) if public.hands[s] is not None} == {NORTH, EAST}
    opened = new_game(7, WhistOptions(variant="double_dummy", open_all=True))
    assert all(h is not None for h in opened.public_view().hands)
    assert all(not opened.secrets(s) for s in range(4))


def test_humbug_views_dead_hands_to_nobody_discard_to_its_former_holder_only() -> None:
    state = new_game(3, HUMBUG)
    turnup = state.turnup
    for seat in (NORTH, SOUTH):
        view = state.view(seat)
        assert view.hands[seat] == state.hand(seat)
        assert {s for s in range(4) if view.hands[s] is not None} == {seat}
        assert view.turnup == turnup
    state.apply(NORTH, EXCHANGE)
    assert state.view(NORTH).exchanged[NORTH] is True
    assert state.view(SOUTH).exchanged[NORTH] is None and state.view(SOUTH).chosen[NORTH]
    state.apply(SOUTH, KEEP)
    given = state.hand(WEST)
    north = state.view(NORTH)
    assert north.discarded == given and north.hands[WEST] is None
    south = state.view(SOUTH)
    assert south.discarded is None and south.exchanged == (True, None, False, None)
    for view in (south, state.public_view(), state.view(EAST), state.view(WEST)):
        text = json.dumps(view.to_dict())
        for dead in (EAST, WEST):
            for c in state.hand(dead):
                if c != turnup:
                    assert f'"{c.code}"' not in text
    assert {c.code for c in given} - {turnup.code} <= state.secrets(NORTH)  # type: ignore[union-attr]


def test_two_hand_turnup_stays_on_view_and_the_unused_cards_are_shown_to_nobody() -> None:
    state = new_game(5, TWO)
    turnup = state.turnup
    play_randomly(state, random.Random(1), 6)
    unused = {c.code for c in state.unused()}
    assert unused <= state.secrets(EAST)
    for view in (state.public_view(), *(state.view(s) for s in range(4))):
        assert view.turnup == turnup
        assert not unused & set(json.dumps(view.to_dict()).replace('"', " ").split())


# --------------------------------------------------------------------------------------
# Refusals, the decision point, the end


def test_refusals_name_their_reason() -> None:
    state = new_game(4)
    seat = state.to_play
    assert seat is not None
    other = (seat + 1) % 4
    cases: list[tuple[int, object, type[EngineError], str]] = [
        (7, play(state.hand(seat)[0]), InvalidActionError, "invalid-seat"),
        (seat, "QH", InvalidActionError, "invalid-action"),
        (seat, Action(Kind.PLAY, None), InvalidActionError, "invalid-action"),
        (seat, Action(Kind.TRUMP, None, 9), InvalidActionError, "invalid-action"),
        (other, play(state.hand(other)[0]), NotYourTurnError, "not-your-turn"),
        (seat, play(state.hand(other)[0]), IllegalActionError, "not-in-hand"),
        (seat, KEEP, NotYourTurnError, "wrong-phase"),
    ]
    for who, action, error, reason in cases:
        with pytest.raises(error) as caught:
            state.apply(who, action)  # type: ignore[arg-type]
        assert caught.value.reason == reason and str(caught.value)
    play_card(state)
    follower = state.to_play
    assert follower is not None
    led = state.trick[0][1].suit
    hand = state.hand(follower)
    off = [c for c in hand if c.suit is not led]
    if off and any(c.suit is led for c in hand):
        with pytest.raises(IllegalActionError) as caught:
            state.apply(follower, play(off[0]))
        assert caught.value.reason == "must-follow"


def test_the_end_refuses_everything_and_keeps_the_last_deal() -> None:
    state = new_game(1)
    play_randomly(state, random.Random(1))
    assert state.is_over and state.phase is Phase.OVER
    assert state.to_act == () and state.to_play is None and state.score == (0, 0)
    assert state.deal == state.results[-1].deal and state.dealer == state.results[-1].dealer
    assert state.trump is state.results[-1].trump and state.tricks == state.results[-1].tricks
    with pytest.raises(GameOverError):
        state.apply(0, play(DECK[0]))
    assert state.result().winners == state.winners and len(state.winners) == 2


def test_replay_rebuilds_from_moves_and_text() -> None:
    state = new_game(12, HUMBUG)
    play_randomly(state, random.Random(12))
    again = replay(12, HUMBUG, [str(m) for m in state.moves])
    assert again.moves == state.moves and again.results == state.results
    assert again.totals == state.totals
