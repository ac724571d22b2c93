"""A hand answer that fails does not swallow a change made while it was on its way.

A member presses ↻ Refresh on their private hand, or My hand on the table; while that answer is
in flight, another member's move changes what the hand must show, so the refresh of that
hand waits for the answer to land. If the answer then fails (Discord gave up on the
interaction: the bot was slow), the waiting refresh must still be made, through the hand
message's token kept from before: otherwise the member's hand shows the old trick for
good and their turn is lost to the turn timer.
"""

from __future__ import annotations

import asyncio
import random
from types import SimpleNamespace
from typing import Any

import discord
import pytest
import simcord
from simcord.actors import _component_click

from bot import controller as controller_module
from bot import discord_internals, ids
from bot.tables import Outcome
from tests.bot.driver import PLAY, Game, World, _together, live_ids

UNKNOWN_INTERACTION = 10062


def _expired() -> discord.NotFound:
    response = SimpleNamespace(status=404, reason="Not Found")
    return discord.NotFound(response, {"code": UNKNOWN_INTERACTION, "message": "Unknown"})  # type: ignore[arg-type]


@pytest.mark.parametrize("pressed", ["refresh", "hand"])
async def test_a_failed_answer_still_shows_the_move_made_meanwhile(
    world: World, monkeypatch: pytest.MonkeyPatch, pressed: str
) -> None:
    alice, bob = world.members("alice", "bob")
    game, _ = await Game.open(world, alice, computers="random")
    await game.press(bob, "Join")
    await game.press(alice, "Start")
    await game.open_hand(alice)
    hand = await game.open_hand(bob)
    rng = random.Random(3)
    await game.click(bob, rng.choice(live_ids(hand, PLAY)))  # bob has chosen; alice has not
    assert "Waiting for: North" in hand.content, hand.content
    before = hand.content

    controller = world.bot.controller
    entered = asyncio.Event()  # bob's answer is on its way
    shown = asyncio.Event()  # alice's move has been shown to everyone
    answers = {
        "refresh": discord_internals.update_in_place,
        "hand": controller_module._send_response,
    }
    show = controller.on_outcome

    async def failing_answer(interaction: discord.Interaction, *args: Any, **fields: Any) -> Any:
        if interaction.user.id != bob.id:
            return await answers[pressed](interaction, *args, **fields)
        world.left_unanswered.add(interaction.id)
        entered.set()
        await shown.wait()
        raise _expired()

    async def on_outcome(outcome: Outcome, answered: tuple[int, ...] = ()) -> None:
        await show(outcome, answered)
        shown.set()

    async def alice_plays() -> simcord.InteractionResult:
        await entered.wait()
        own = game.hands[alice.id]
        return await _component_click(
            alice, own.message, label=None, custom_id=rng.choice(live_ids(own, PLAY))
        )

    if pressed == "refresh":
        monkeypatch.setattr(discord_internals, "update_in_place", failing_answer)
        bob_presses = _component_click(
            bob, hand.message, label=None, custom_id=ids.table_button(game.id, "refresh")
        )
    else:
        monkeypatch.setattr(controller_module, "_send_response", failing_answer)
        bob_presses = _component_click(bob, game.message, label="My hand", custom_id=None)
    monkeypatch.setattr(controller, "on_outcome", on_outcome)
    refreshed, played = await _together(world.env, [bob_presses, alice_plays()])
    assert played.acknowledged and not refreshed.acknowledged
    await world.env.advance_time(1)

    # The trick is complete: bob's hand shows what came of it, not his choice still.
    assert hand.content != before
    assert "You chose" not in hand.content, hand.content
    state = game.state()
    if game.seat_of(bob) in state.to_act and state.phase.name == "CHOOSE":
        assert live_ids(hand, PLAY), hand.content
