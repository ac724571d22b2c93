"""A restart rebuilds each table's state and computers in one pass over its log
(``bot.computers.restored``): the state is the log's replay, and each computer, caught up
on its backlog only when it must act (``Rebuilt``), decides exactly as one caught up at
once (``prime``) would have, move for move, in every game and at every level. The Dupe
expert caught up so knows everything the live one observed."""

from __future__ import annotations

import copy
import random
from types import SimpleNamespace
from typing import Any

import pytest

from bot.computers import Rebuilt, prime, restored
from engine import games
from engine.dupe import GAME as DUPE
from engine.dupe import SEATS, new_game
from engine.dupe.players import make_player
from engine.dupe.players.expert import ExpertPlayer
from engine.game import AnyGame, AnyState, deciding_player, player_view, show_move, watchers

LEVELS = [(g, level) for g in games.GAMES for level in g.levels]
SEAT = 1


def _log(game: AnyGame, seed: int, plies: int) -> list[str]:
    """Return the text of a game's first ``plies`` moves (fewer if it ends), random."""
    rng = random.Random(seed)
    state = game.new_game(seed)
    while not state.is_over and state.move_count < plies:
        hand = state.to_act[0]
        state.apply(hand, rng.choice(state.legal_actions(hand)))
    return [str(move) for move in state.moves]


def _same_state(a: AnyState, b: AnyState) -> bool:
    return [str(m) for m in a.moves] == [str(m) for m in b.moves] and all(
        a.view(hand) == b.view(hand) for hand in range(a.seats)
    )


@pytest.mark.parametrize(
    ("game", "level"), LEVELS, ids=[f"{g.name}-{level}" for g, level in LEVELS]
)
def test_a_restored_computer_decides_as_one_caught_up_at_once(game: AnyGame, level: str) -> None:
    seed = 5
    log = _log(game, seed, 40)
    options = game.new_game(seed).options
    decided = 0
    for cut in (0, len(log) // 3, 2 * len(log) // 3):
        state, players = restored(game, seed, options, log[:cut], {SEAT: game.levels[level](9)})
        assert _same_state(state, game.replay(seed, options, log[:cut]))
        rebuilt = players[SEAT]
        assert isinstance(rebuilt, Rebuilt) and rebuilt.name == level
        at_once = game.levels[level](9)
        table = SimpleNamespace(state=state, seed=seed, ui=SimpleNamespace(game=game))
        prime(table, {SEAT: at_once})  # type: ignore[arg-type]
        # Play on: the computer's seat decides by both; the others at random.
        rng = random.Random(cut)
        watching = watchers(game, {SEAT: at_once})
        while not state.is_over and state.move_count < cut + 14:
            hand = state.to_act[0]
            if deciding_player(state, hand) == SEAT:
                action = at_once.act(state.view(hand))
                assert rebuilt.act(state.view(hand)) == action, (cut, state.move_count)
                decided += 1
            else:
                action = rng.choice(state.legal_actions(hand))
            state.apply(hand, action)
            if watching:
                show_move(state, watching)
                show_move(state, {SEAT: rebuilt})
    assert decided > 0


def _knowledge(expert: ExpertPlayer) -> tuple[Any, ...]:
    """Return what the expert learnt of the game: piles, tricks, hands, dupes, styles."""
    m = expert._memory
    return (
        m.deal,
        m.won,
        m.played,
        m.tricks,
        m.start_hands,
        m.hands_known,
        m.complete,
        m.dupe,
        [pile.score for pile in m.piles],
        m.hypotheses,
        m.log_weights,
        m.styles,
    )


@pytest.mark.parametrize("seed", [4, 21])
def test_a_restored_dupe_expert_knows_what_the_live_one_observed(seed: int) -> None:
    state = new_game(seed)
    live = ExpertPlayer(3)
    others = {s: make_player("greedy", s) for s in SEATS if s != SEAT}
    checked = decisions = 0
    while state.deal < 3:
        for hand in state.to_act:
            view = state.view(hand)
            if hand != SEAT:
                state.apply(hand, others[hand].act(view))
                continue
            decisions += 1
            if decisions % 3 == 0:
                moves = [str(m) for m in state.moves]
                _, players = restored(DUPE, seed, state.options, moves, {SEAT: ExpertPlayer(3)})
                rebuilt = players[SEAT]
                assert isinstance(rebuilt, Rebuilt)
                rebuilt.act(player_view(state, SEAT))
                assert isinstance(rebuilt.player, ExpertPlayer)
                live._memory.update(view)
                assert _knowledge(rebuilt.player) == _knowledge(live)
                checked += 1
            state.apply(hand, live.act(view))
    assert checked > 10


@pytest.mark.parametrize("game", games.GAMES, ids=lambda g: g.name)
def test_a_view_is_a_value_later_moves_do_not_change(game: AnyGame) -> None:
    """A rebuilt computer is shown its views only when it must act (``Rebuilt``): each must
    still show what it showed when it was built."""
    rng = random.Random(2)
    state = game.new_game(2)
    kept = []
    while not state.is_over and state.move_count < 120:
        for player in range(state.players):
            view = player_view(state, player)
            kept.append((view, copy.deepcopy(view)))
        hand = state.to_act[0]
        state.apply(hand, rng.choice(state.legal_actions(hand)))
    assert len(kept) > 50
    assert [view for view, _ in kept] == [snapshot for _, snapshot in kept]
