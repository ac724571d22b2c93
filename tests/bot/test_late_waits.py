"""The age of a click counts every wait in the bot, not only its age on arrival: a click
that waited for its table's lock until it could no longer be answered in time is not
applied (and left unanswered, as Discord has given up on it); one that waited long, but
not too long, is answered first (acknowledged) and then applied (see ``bot.errors.on_time``)."""

from __future__ import annotations

import asyncio

import pytest
import simcord

from bot.lateness import Lateness
from tests.bot.driver import PLAY, Game, World, live_ids
from tests.bot.test_late import SENT, Clock, snowflake


def test_the_age_counts_every_wait_until_the_interaction_is_handled() -> None:
    clock = Clock(7_000.0)
    lateness = Lateness(2.5, monotonic=clock)
    click = snowflake(SENT, 1)
    lateness.received(click)
    assert lateness.in_flight == 1
    assert lateness.age(click) == pytest.approx(0.0)
    clock.now += 1.0  # waited for its table's lock
    assert not lateness.too_late(click, margin=0.5)
    assert lateness.age(click) == pytest.approx(1.0)  # asking again forgets nothing
    clock.now += 1.2  # and for a connection: 2.2 s, too late to answer after a commit
    assert lateness.too_late(click, margin=0.5)
    assert not lateness.too_late(click)  # (on arrival, 2.5 s would still have been fine)
    lateness.forget(click)
    assert lateness.in_flight == 0


async def _press_while_the_lock_is_held(
    world: World, wait: float
) -> tuple[simcord.InteractionResult, Game, int, simcord.ResponseMessage]:
    """Alice presses a card while her table's lock is held for ``wait`` seconds (on the
    clock the bot measures ages with); return the click's result, the table, how many
    moves it had before, and her hand."""
    bot = await world.restart(late_interaction_seconds=2.5)
    stall = Clock(0.0)
    bot.lateness.monotonic = lambda: world.env._virtual_time + stall.now
    alice = world.member("alice")
    game, _ = await Game.open(world, alice, computers="expert")
    await game.press(alice, "Start")
    hand = await game.open_hand(alice)
    before = len(game.moves())
    table = world.bot.controller.tables.table(game.id)
    await table.lock.acquire()
    try:
        clicking = asyncio.ensure_future(
            alice.click(hand.message, custom_id=live_ids(hand, PLAY)[0])
        )
        for _ in range(100):  # until the click waits for the lock
            await asyncio.sleep(0)
        stall.now += wait
    finally:
        table.lock.release()
    return await clicking, game, before, hand


async def test_a_click_too_old_once_it_holds_its_table_is_not_applied(world: World) -> None:
    result, game, before, _ = await _press_while_the_lock_is_held(world, 2.2)
    assert not result.acknowledged  # Discord would have said it failed: nothing happened
    assert len(game.moves()) == before
    world.left_unanswered.add(int(result._interaction.id))


async def test_a_click_that_waited_long_is_answered_first_then_applied(world: World) -> None:
    result, game, before, hand = await _press_while_the_lock_is_held(world, 1.5)
    assert result.acknowledged and result.deferred  # a deferred update, then the hand
    assert len(game.moves()) > before
    assert hand.content.startswith("**") and "⚠️" not in hand.content  # edited after
