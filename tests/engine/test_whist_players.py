"""Whist's computer players: legal play in every variant from views only, reproducible from
their seeds, the ``basic`` maxims in set positions, and ``basic`` beating ``random``."""

from __future__ import annotations

import pytest

from engine.cards import Card, parse_cards
from engine.game import deciding_player
from engine.simulate import simulate
from engine.whist import (
    EAST,
    GAME,
    NORTH,
    SOUTH,
    WEST,
    Kind,
    WhistOptions,
    WhistState,
    WhistView,
    new_game,
    play,
)
from engine.whist.players import LEVELS, make_player
from engine.whist.players.basic import BasicPlayer
from tests.engine.whist_helpers import ALL_OPTIONS, option_id


def test_levels_weakest_first() -> None:
    assert list(LEVELS) == ["random", "basic", "expert"] and GAME.default_level == "basic"
    assert list(GAME.levels) == list(LEVELS)
    with pytest.raises(ValueError):
        make_player("master", 1)


def play_out(state: WhistState, levels: list[str], seed: int) -> WhistState:
    """Play to the end with one player object per player, each seeing only views."""
    players = [make_player(levels[p % len(levels)], seed * 10 + p) for p in range(state.players)]
    while not state.is_over:
        for hand in state.to_act:
            p = deciding_player(state, hand)
            assert p is not None
            view = state.view(hand)
            assert isinstance(view, WhistView) and view.seat == hand
            action = players[p].act(view)
            assert action in state.legal_actions(hand)
            state.apply(hand, action)
    return state


@pytest.mark.parametrize("options", ALL_OPTIONS, ids=option_id)
@pytest.mark.parametrize("level", ["random", "basic"])
def test_every_level_plays_every_variant_legally_and_reproducibly(
    options: WhistOptions, level: str
) -> None:
    for seed in range(3):
        first = play_out(new_game(seed, options), [level, "random"], seed)
        again = play_out(new_game(seed, options), [level, "random"], seed)
        assert first.moves == again.moves and first.totals == again.totals


def test_random_never_claims() -> None:
    state = play_out(new_game(4, WhistOptions(variant="double_dummy")), ["random"], 4)
    assert not any(m.action.kind == Kind.CLAIM for m in state.moves)


@pytest.mark.parametrize(
    ("variant", "players"),
    [
        ("short", ["basic", "random", "basic", "random"]),
        ("english_dummy", ["basic", "random", "random"]),
        ("double_dummy", ["basic", "random"]),
        ("humbug", ["basic", "random"]),
        ("two_hand", ["basic", "random"]),
        ("mort", ["basic", "random", "random"]),
    ],
)
def test_basic_beats_random(variant: str, players: list[str]) -> None:
    result = simulate(players, 40, seed=1, options=WhistOptions(variant=variant), game=GAME)  # type: ignore[arg-type]
    share = {
        name: sum(e.win_share for e in result.entries if e.name == name) / players.count(name)
        for name in ("basic", "random")
    }
    assert share["basic"] > 2 * share["random"], (variant, share)


# --------------------------------------------------------------------------------------
# The maxims in set positions


def rigged(hands: dict[int, str], dealer: int = WEST, trump_card: str = "2S") -> WhistState:
    """Return a short whist deal with these hands (13 cards each), dealt by ``dealer``."""
    state = new_game(1)
    state._dealer = dealer
    cards = {seat: tuple(sorted(parse_cards(text))) for seat, text in hands.items()}
    assert sorted(c for h in cards.values() for c in h) == sorted(
        c for s in range(4) for c in state.hand(s)
    )
    state._hands = [cards[s] for s in range(4)]
    state._turnup = parse_cards(trump_card)[0]
    state._trump = state._turnup.suit
    state._turnup_shown = True
    state._begin_play()
    return state


HANDS = {
    NORTH: "AS KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S",
    EAST: "AH KH QH JH TH 9H 8H 7H 6H 5H 4H 3H 2H",
    SOUTH: "AD KD QD JD TD 9D 8D 7D 6D 5D 4D 3D 2D",
    WEST: "AC KC QC JC TC 9C 8C 7C 6C 5C 4C 3C 2C",
}


def mixed() -> WhistState:
    """A deal where N leads (W deals), trumps spades."""
    return rigged(
        {
            NORTH: "AH 4H 3H 9D 8D 2D KC 5C 4C 3C 9S 8S 2S",
            EAST: "KH QH 2H TD 7D 6D AC QC 7C 6C AS 7S 6S",
            SOUTH: "JH TH 9H 5H KD QD 5D JC TC 9C 8C KS QS",
            WEST: "8H 7H 6H AD JD 4D 3D 2C JS TS 5S 4S 3S",
        },
        dealer=WEST,
        trump_card="3S",
    )


def act(state: WhistState, seat: int) -> Card:
    action = BasicPlayer(1).act(state.view(seat))
    assert action.card is not None
    return action.card


def test_second_hand_low_and_cover_an_honour() -> None:
    state = mixed()
    state.apply(NORTH, play(parse_cards("4H")[0]))
    assert act(state, EAST) == parse_cards("2H")[0], "second hand low"
    state = mixed()
    state.apply(NORTH, play(parse_cards("KC")[0]))
    assert act(state, EAST) == parse_cards("AC")[0], "cover an honour"


def test_third_hand_high_lowest_of_equals_and_low_over_a_winning_partner() -> None:
    state = mixed()
    state.apply(NORTH, play(parse_cards("9D")[0]))
    state.apply(EAST, play(parse_cards("6D")[0]))
    assert act(state, SOUTH) == parse_cards("QD")[0], "third hand high, the lower of K Q"
    state = mixed()
    state.apply(NORTH, play(parse_cards("AH")[0]))
    state.apply(EAST, play(parse_cards("2H")[0]))
    assert act(state, SOUTH) == parse_cards("5H")[0], "partner's ace is the best left"


def test_last_hand_wins_cheaply_or_plays_low_under_partner() -> None:
    state = mixed()
    for seat, code in ((NORTH, "3H"), (EAST, "QH"), (SOUTH, "5H")):
        state.apply(seat, play(parse_cards(code)[0]))
    assert act(state, WEST) == parse_cards("6H")[0], "cannot win: lowest"
    state = mixed()
    for seat, code in ((NORTH, "8D"), (EAST, "7D"), (SOUTH, "5D")):
        state.apply(seat, play(parse_cards(code)[0]))
    assert act(state, WEST) == parse_cards("JD")[0], "the cheapest winner"
    state = mixed()
    for seat, code in ((NORTH, "2D"), (EAST, "TD"), (SOUTH, "5D")):
        state.apply(seat, play(parse_cards(code)[0]))
    assert act(state, WEST) == parse_cards("3D")[0], "partner has it: low"


def void_in_clubs() -> WhistState:
    """As :func:`mixed`, but West holds no club (N has West's 2C, West N's 2D)."""
    return rigged(
        {
            NORTH: "AH 4H 3H 9D 8D 2C KC 5C 4C 3C 9S 8S 2S",
            EAST: "KH QH 2H TD 7D 6D AC QC 7C 6C AS 7S 6S",
            SOUTH: "JH TH 9H 5H KD QD 5D JC TC 9C 8C KS QS",
            WEST: "8H 7H 6H AD JD 4D 3D 2D JS TS 5S 4S 3S",
        },
        dealer=WEST,
        trump_card="3S",
    )


def test_trump_when_void_and_useful_discard_otherwise() -> None:
    state = void_in_clubs()
    for seat, code in ((NORTH, "3C"), (EAST, "6C"), (SOUTH, "JC")):
        state.apply(seat, play(parse_cards(code)[0]))
    assert act(state, WEST) == parse_cards("3S")[0], "the lowest trump that wins"
    state = void_in_clubs()
    for seat, code in ((NORTH, "3C"), (EAST, "AC"), (SOUTH, "8C")):
        state.apply(seat, play(parse_cards(code)[0]))
    assert act(state, WEST) == parse_cards("2D")[0], "partner has it: discard low"


def test_the_dummys_partner_plays_both_hands_from_his_views() -> None:
    state = new_game(2, WhistOptions(variant="english_dummy"))
    player = BasicPlayer(3)
    while state.deal == 1:
        hand = state.to_play
        assert hand is not None
        if state.controller(hand) == SOUTH:
            view = state.view(hand)
            assert view.hands[NORTH] is not None and view.hands[SOUTH] is not None
            state.apply(hand, player.act(view))
        else:
            state.apply(hand, state.legal_actions(hand)[0])
    assert len(state.results) == 1


def test_the_simulator_command_line_runs_whist(capsys: pytest.CaptureFixture[str]) -> None:
    from engine.simulate import main

    args = ["whist", "--option", "variant=mort", "--players", "basic,random,random"]
    assert main([*args, "--games", "6"]) == 0
    assert "6 games" in capsys.readouterr().out
    fixed = ["--option", "variant=english_dummy", "--option", "fixed_dummy=true"]
    assert main(["whist", *fixed, "--option", "rubbers=1", "--games", "3", "--json"]) == 0
    assert (
        main(["whist", "--option", "variant=two_hand", "--players", "basic", "--games", "1"]) == 2
    )
