"""A whist expert the bot rebuilds (a restart, a stand-in, a failed write) is caught up from
the move log (``bot.computers.prime``) to exactly what it had observed live, card by card:
whist's views hold only the trick in progress and the last trick, so it is shown every
view again, after every move."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

from bot.computers import prime
from engine.game import show_move
from engine.whist import GAME, WhistOptions, new_game
from engine.whist.players import make_player
from engine.whist.players.expert import ExpertPlayer

pytest.importorskip("endplay")

SOUTH = 2


def knowledge(player: ExpertPlayer) -> tuple[Any, ...]:
    """Return what the player observed of the deal: the cards played (by whom), the voids
    shown and the turned card (what it infers from them at a decision, it infers again)."""
    memory = player._memory
    return memory.deal, dict(memory.played), set(memory.void), memory.turnup


@pytest.mark.parametrize("seed", [3, 8])
def test_a_rebuilt_expert_knows_what_the_live_one_observed(seed: int) -> None:
    state = new_game(seed, WhistOptions())
    live = ExpertPlayer(seed, samples=2)
    others = {p: make_player("basic", p) for p in range(4) if p != SOUTH}
    checked = 0
    while state.deal == 1:
        hand = state.to_play
        assert hand is not None
        player = live if hand == SOUTH else others[hand]
        state.apply(hand, player.act(state.view(hand)))
        show_move(state, {SOUTH: live})
        if state.move_count % 7 == 0:
            rebuilt = ExpertPlayer(seed, samples=2)
            table = SimpleNamespace(state=state, ui=SimpleNamespace(game=GAME), seed=seed)
            prime(table, {SOUTH: rebuilt})  # type: ignore[arg-type]
            assert knowledge(rebuilt) == knowledge(live)
            checked += 1
    assert checked > 3
