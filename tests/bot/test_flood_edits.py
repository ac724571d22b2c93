"""While the bot is flooded with clicks (every member pressing at once after a restart), the
table messages' edits wait for the flood to ebb, so that the clicks' answers and hands go
first; a flood that lasts holds them back for 5 s at most, and no change is lost."""

from __future__ import annotations

from bot.errors import ANSWER_FIRST_BUSY
from tests.bot.driver import PLAY, Game, World, live_ids
from tests.bot.helpers import table_message_edits

# Interactions counted in flight, never handled: sent in 2017, they never look like the
# quickest arrival (``bot.lateness``).
_FLOOD = [((1_500_000_000_000 - 1_420_070_400_000) << 22) | n for n in range(ANSWER_FIRST_BUSY)]


async def _played_in_a_flood(world: World) -> tuple[int, int]:
    """Open a game, flood the bot and play a card; return its table message and how many
    edits that message had before the card."""
    alice = world.member("alice")
    game, _ = await Game.open(world, alice, computers="expert")
    await game.press(alice, "Start")
    hand = await game.open_hand(alice)
    table = world.bot.controller.tables.table(game.id)
    assert table.message_id is not None
    await world.env.advance_time(5)  # the start shown on the table message
    before = len(table_message_edits(world.env, world.channel.id, table.message_id))
    for interaction in _FLOOD:
        world.bot.lateness.received(interaction)
    moves = len(game.moves())
    result = await alice.click(hand.message, custom_id=live_ids(hand, PLAY)[0])
    assert result.acknowledged and len(game.moves()) > moves  # the click is answered at once
    return table.message_id, before


async def test_a_flood_holds_table_edits_back_until_it_ebbs(world: World) -> None:
    message_id, before = await _played_in_a_flood(world)
    await world.env.advance_time(3)  # twice the edit interval
    assert len(table_message_edits(world.env, world.channel.id, message_id)) == before
    for interaction in _FLOOD:
        world.bot.lateness.forget(interaction)  # the flood ebbs
    await world.env.advance_time(1)
    edits = table_message_edits(world.env, world.channel.id, message_id)
    assert len(edits) == before + 1  # the card shown now, in one edit


async def test_a_flood_that_lasts_holds_them_back_no_longer_than_5_s(world: World) -> None:
    message_id, before = await _played_in_a_flood(world)
    await world.env.advance_time(4)
    assert len(table_message_edits(world.env, world.channel.id, message_id)) == before
    await world.env.advance_time(4)  # the edit interval and 5 s of holding back, passed
    assert len(table_message_edits(world.env, world.channel.id, message_id)) == before + 1
    for interaction in _FLOOD:
        world.bot.lateness.forget(interaction)
