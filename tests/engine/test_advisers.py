"""The advisers (``Game.adviser``): for every game that gives advice, the expert's advice at
a member's decisions is legal, weighs the action it is asked to compare, is the same for
the same seed and the same views, and depends on the seat's views only — two states that
differ only in what the seat cannot see get the same advice. Its choice is the one the
expert's ``act`` makes from the same views (so a hint names what the expert would play)."""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable
from typing import Any

import pytest

from engine import games
from engine.game import Advice, AnyGame, AnyState, player_view, show_move, watchers

ADVISING = [g for g in games.GAMES if g.adviser(1) is not None]
NO_ADVICE = [g for g in games.GAMES if g.adviser(1) is None]


def _advised(game: AnyGame, seed: int, player: int, states: list[AnyState]) -> Any:
    """Return an adviser of ``seed`` shown ``player``'s views along ``states`` (the deal,
    then the state after each move), as the bot's ``prime`` shows a computer player: its
    view at each decision point and, for a watching level, after every move."""
    adviser = game.adviser(seed)
    assert adviser is not None
    watching = watchers(game, {player: adviser})
    last = None
    for before, after in itertools.pairwise(states):
        if before.turn != last:
            adviser.observe(player_view(before, player))
            last = before.turn
        if watching:
            show_move(after, watching)
    adviser.observe(player_view(states[-1], player))
    return adviser


def _history(game: AnyGame, seed: int, plies: int) -> list[AnyState]:
    """Return the states of a game of random legal moves, from the deal, ``plies`` long at
    most (the last is the one advised in)."""
    rng = random.Random(seed)
    state = game.new_game(seed)
    states = [state.clone()]
    for _ in range(plies):
        if state.is_over:
            break
        seat = state.to_act[0]
        state.apply(seat, rng.choice(state.legal_actions(seat)))
        states.append(state.clone())
    return states


def _decisions(game: AnyGame, seeds: range, plies: int) -> list[tuple[int, list[AnyState], int]]:
    """Return ``(seed, states, hand)`` for games cut at a member's decision."""
    found = []
    for seed in seeds:
        states = _history(game, seed, plies)
        while states and (states[-1].is_over or not states[-1].to_act):
            states.pop()
        if states:
            found.append((seed, states, states[-1].to_act[0]))
    return found


def _advice(
    game: AnyGame, seed: int, states: list[AnyState], hand: int, compare: Any = None
) -> Advice[Any]:
    state = states[-1]
    player = state.controller(hand)
    adviser = _advised(game, seed * 7 + 1, player, states)
    return adviser.advise(state.view(hand), compare)


PLIES = {"dupe": 30, "whist": 36, "dukes_up": 40, "doppelkopf": 30}


@pytest.mark.parametrize("game", ADVISING, ids=lambda g: g.name)
def test_advice_is_legal_weighs_the_compared_action_and_is_deterministic(
    game: AnyGame,
) -> None:
    for seed, states, hand in _decisions(game, range(1, 7), PLIES.get(game.name, 30)):
        state = states[-1]
        legal = state.legal_actions(hand)
        compare = random.Random(seed).choice(legal)
        advice = _advice(game, seed, states, hand, compare)
        # Legal as the engine checks it: Dukes Up!'s legal actions list one way to place
        # cards, and an arrangement the layout search proposes is legal too.
        for action in advice.values:
            state.clone().apply(hand, action)
        assert advice.action in advice.values and compare in advice.values
        assert advice.unit in ("tricks", "points", "share")
        assert advice.cost(advice.action) == 0.0
        cost = advice.cost(compare)
        assert cost is not None and cost >= 0
        again = _advice(game, seed, states, hand, compare)
        assert again == advice, "the same seed and views give the same advice"


# The games whose expert advises through its ``act``'s own path (Doppelkopf's adviser is a
# separate sampled estimate, tested with its player).
SAME_PATH = [g for g in ADVISING if g.name in ("dupe", "whist", "dukes_up")]


@pytest.mark.parametrize("game", SAME_PATH, ids=lambda g: g.name)
def test_the_advice_is_the_experts_choice(game: AnyGame) -> None:
    for seed, states, hand in _decisions(game, range(11, 15), PLIES.get(game.name, 30)):
        state = states[-1]
        player = state.controller(hand)
        actor = _advised(game, seed * 7 + 1, player, states)
        assert _advice(game, seed, states, hand).action == actor.act(state.view(hand))


def test_one_legal_action_is_advised_as_the_only_one() -> None:
    (dupe,) = [g for g in ADVISING if g.name == "dupe"]
    state = dupe.new_game(3)
    rng = random.Random(3)
    # play to a seat's last card of deal 1: its only legal action
    while len(state.legal_actions(state.to_act[0])) != 1:
        seat = state.to_act[0]
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    hand = state.to_act[0]
    advice = _advice(dupe, 3, [state], hand)
    assert advice.reason == "only" and advice.action == state.legal_actions(hand)[0]


# --- the same view, another state ----------------------------------------------------


def _swap_whist(state: Any, seat: int) -> bool:
    """Swap the hands of two other seats of equal size (unseen by ``seat``)."""
    others = [s for s in range(4) if s != seat and state.view(seat).hands[s] is None]
    for a in others:
        for b in others:
            if a < b and len(state._hands[a]) == len(state._hands[b]):
                state._hands[a], state._hands[b] = state._hands[b], state._hands[a]
                return True
    return False


def _swap_dupe(state: Any, seat: int) -> bool:
    """Swap two opponents' hands in deal 1 before anyone has chosen (unseen by ``seat``)."""
    if state.deal != 1 or any(state.view(s).choice for s in range(4)):
        return False
    a, b = [s for s in range(4) if s != seat][:2]
    state._hands[a], state._hands[b] = state._hands[b], state._hands[a]
    state._held[a], state._held[b] = state._held[b], state._held[a]
    return True


def _swap_dukes_up(state: Any, seat: int) -> bool:
    """Turn each face-down draw pile over (unseen by anyone)."""
    if not any(len(pile) > 1 for pile in state._draw):
        return False
    state._draw = [tuple(reversed(pile)) for pile in state._draw]
    return True


SWAPS: dict[str, Callable[[Any, int], bool]] = {
    "whist": _swap_whist,
    "dupe": _swap_dupe,
    "dukes_up": _swap_dukes_up,
}


@pytest.mark.parametrize("game", [g for g in ADVISING if g.name in SWAPS], ids=lambda g: g.name)
def test_two_states_with_the_same_view_get_the_same_advice(game: AnyGame) -> None:
    swap = SWAPS[game.name]
    checked = 0
    for seed in range(1, 40):
        plies = 0 if game.name == "dupe" else PLIES[game.name]
        (seed_, states, hand) = _decisions(game, range(seed, seed + 1), plies)[0]
        state = states[-1]
        other = state.clone()
        if not swap(other, hand):
            continue
        assert other.view(hand) == state.view(hand)
        one = _advice(game, seed_, states, hand)
        two = _advice(game, seed_, [*states[:-1], other], hand)
        assert one == two
        checked += 1
        if checked == 3:
            break
    assert checked == 3


@pytest.mark.parametrize("game", NO_ADVICE, ids=lambda g: g.name)
def test_a_game_without_an_adviser_says_so(game: AnyGame) -> None:
    assert game.adviser(5) is None


@pytest.mark.parametrize("game", games.GAMES, ids=lambda g: g.name)
def test_a_game_says_whether_it_advises_as_its_adviser_does(game: AnyGame) -> None:
    """``advises`` (asked at a server's start, without building an adviser) agrees with
    ``adviser``."""
    assert game.advises() == (game.adviser(1) is not None)
