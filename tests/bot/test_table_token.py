"""The table message edited through the token of the interaction whose original response it
is (``/dupe start``'s answer, or the lobby message a button's answer updated): uncounted by
Discord's global limit, so it waits for no budget, for 14 minutes; then through its channel
and the budget; a click on the message renews it; a restart goes on with it; a token Discord
refuses, or a message posted again, falls back to the channel. On simcord's virtual clock
(its tokens, like Discord's, end 15 minutes after their interaction)."""

from __future__ import annotations

import logging
import random

import discord
import pytest
import simcord

from bot.table_message import render_table
from tests.bot.driver import Game, World, description
from tests.bot.helpers import table_message_edits

WINDOW = 14 * 60  # seconds the bot edits through a token (Discord's 15 minutes less one)


def routes(world: World, game: Game, since: int = 0) -> list[str]:
    """Return the route of each edit of the table message after the first ``since``:
    ``token`` (the interaction webhook) or ``channel``."""
    edits = table_message_edits(world.env, world.channel.id, game.message_id)[since:]
    return ["token" if e.path.startswith("/webhooks/") else "channel" for e in edits]


def edits_so_far(world: World, game: Game) -> int:
    return len(table_message_edits(world.env, world.channel.id, game.message_id))


def token_user(world: World, game: Game) -> int:
    """Return the member whose interaction's token made the table message's last edit."""
    last = table_message_edits(world.env, world.channel.id, game.message_id)[-1]
    assert last.path.startswith("/webhooks/"), last.path
    backend = world.env.backend
    made_by = backend.interactions[backend.interaction_tokens[last.path.split("/")[3]]]
    return made_by.user_id


def shows_the_table(world: World, game: Game) -> bool:
    table = world.bot.controller.tables.tables[game.id]
    return description(game.message) == render_table(table).embeds[0].description


async def started(world: World) -> tuple[simcord.MemberActor, Game]:
    """Alice opens a table against three computers with a 15-minute turn time, starts it
    and opens her hand."""
    alice = world.member("alice")
    game, _ = await Game.open(world, alice, computers="random", turn_time=900)
    await game.press(alice, "Start")
    await game.open_hand(alice)
    return alice, game


async def test_the_table_message_goes_through_its_token_for_14_minutes_then_the_channel(
    world: World,
) -> None:
    alice, game = await started(world)
    budget = world.bot.controller.courier.budget
    granted, before = budget.granted, edits_so_far(world, game)
    rng = random.Random(2)
    for _ in range(3):
        await game.decide(alice, rng, strict=True)
        await world.env.advance_time(1)
    assert routes(world, game, before) and set(routes(world, game, before)) == {"token"}
    assert token_user(world, game) == alice.id, "the Start click's token"
    assert budget.granted == granted, "no edit counted against the global limit"
    assert shows_the_table(world, game)

    await world.env.advance_time(WINDOW - 3 - 60)  # 13 minutes after the Start click
    before = edits_so_far(world, game)
    await game.decide(alice, rng, strict=True)
    await world.env.advance_time(1)
    assert routes(world, game, before) == ["token"]

    await world.env.advance_time(61)  # the token's 14 minutes are over
    before = edits_so_far(world, game)
    await game.decide(alice, rng, strict=True)
    await world.env.advance_time(1)
    assert routes(world, game, before) == ["channel"]
    assert budget.granted > granted, "the channel's edit waited for the budget"
    assert shows_the_table(world, game)
    assert world.query("SELECT COUNT(*) FROM outbox") == [(0,)]


async def test_a_click_on_the_table_message_renews_its_token(world: World) -> None:
    alice, bob = world.members("alice", "bob")
    game, _ = await Game.open(world, alice, computers="random", turn_time=900)
    await world.env.advance_time(10 * 60)
    await game.press(bob, "Join")  # answered by updating the message: its token edits it now
    await world.env.advance_time(10 * 60)  # the /dupe start token is 20 minutes old
    before = edits_so_far(world, game)
    left = await bob.slash(world.channel, "dupe leave")  # not a click on the table message
    assert left.response is not None and left.response.ephemeral
    await world.env.advance_time(1)
    assert routes(world, game, before) == ["token"]
    assert token_user(world, game) == bob.id, "the Join click's token"
    assert game.seats().get(1) is None and shows_the_table(world, game)
    row = world.query("SELECT token_until FROM games WHERE id = ?", (game.id,))
    assert row[0][0] == pytest.approx(world.env.now().timestamp() - 10 * 60 - 1 + WINDOW, abs=1)


async def test_a_restarted_bot_goes_on_editing_through_the_stored_token(
    world: World, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG, logger="bot")
    alice, game = await started(world)
    table = world.bot.controller.tables.tables[game.id]
    token = table.message_token
    assert token is not None
    stored = world.query("SELECT message_token, token_until FROM games WHERE id = ?", (game.id,))
    assert stored == [(token, table.token_until)]
    assert token not in repr(table) and token not in repr(await world.bot.store.game(game.id))
    await world.restart()
    await world.env.advance_time(5)
    await game.open_hand(alice)
    before = edits_so_far(world, game)
    await game.decide(alice, random.Random(4), strict=True)
    await world.env.advance_time(1)
    assert routes(world, game, before) == ["token"]
    assert world.bot.controller.courier.budget.granted == 0, "nothing counted"
    assert shows_the_table(world, game)
    assert token not in caplog.text, "a token is a credential: never logged"


async def test_a_token_discord_refuses_falls_back_to_the_channel_at_once(world: World) -> None:
    alice, game = await started(world)
    path = f"/webhooks/*/{world.bot.controller.tables.tables[game.id].message_token}/*"
    world.env.inject_error("PATCH", path, status=401, code=50027, message="Invalid Webhook Token")
    before = edits_so_far(world, game)
    await game.decide(alice, random.Random(6), strict=True)
    await world.env.advance_time(1)
    assert routes(world, game, before) == ["token", "channel"]
    assert shows_the_table(world, game)
    assert world.query("SELECT message_token FROM games WHERE id = ?", (game.id,)) == [(None,)]
    before = edits_so_far(world, game)
    await game.decide(alice, random.Random(7), strict=True)
    await world.env.advance_time(1)
    assert routes(world, game, before) == ["channel"], "the refused token is not tried again"


async def test_a_table_message_posted_again_has_no_token(world: World) -> None:
    mods = world.guild.create_role("mods", permissions=discord.Permissions(manage_messages=True))
    mod = world.member("mod", roles=[mods])
    alice, game = await started(world)
    await mod.delete(game.message)
    await game.decide(alice, random.Random(8), strict=True)
    await world.env.advance_time(1)
    game.message_id = game.row()["message_id"]
    assert world.query("SELECT message_token FROM games WHERE id = ?", (game.id,)) == [(None,)]
    before = edits_so_far(world, game)
    await game.decide(alice, random.Random(9), strict=True)
    await world.env.advance_time(1)
    assert routes(world, game, before) == ["channel"]
    assert shows_the_table(world, game)


async def test_the_token_is_never_used_past_its_window_in_play(world: World) -> None:
    """Computers and the turn timer keep the table changing across the 14 minutes: every
    edit through a token goes within them (simcord refuses a token 15 minutes on), none
    is refused, and the table always shows where the game is."""
    alice, game = await started(world)
    start = world.env.now().timestamp()
    rng = random.Random(11)
    used: list[float] = []
    seen = 0
    for _ in range(20):
        await world.env.advance_time(59)
        await game.decide(alice, rng)
        await world.env.advance_time(1)
        edits = routes(world, game)
        used += [world.env.now().timestamp() - start] * edits[seen:].count("token")
        seen = len(edits)
        assert shows_the_table(world, game)
    assert used and max(used) <= WINDOW
    assert routes(world, game)[-1] == "channel"


async def test_a_rematch_table_is_edited_through_the_rematch_clicks_token(world: World) -> None:
    alice, bob = world.members("alice", "bob")
    game, _ = await Game.open(world, alice, computers="random")
    await game.press(bob, "Join")
    await game.press(alice, "Start")
    await game.open_hand(alice)
    await game.open_hand(bob)
    await game.play([alice, bob], random.Random(8), strict=True)
    (standings,) = world.titled("Dupe — final standings")
    opened = await bob.click(standings, label="🔁 Rematch")  # posts the new table message
    assert opened.response is not None and not opened.response.ephemeral
    again = Game.from_lobby(world, opened.response, world.channel)
    await alice.click(standings, label="🔁 Rematch")  # starts it (not a click on it)
    await world.env.advance_time(1)
    assert again.row()["status"] == "playing"
    assert routes(world, again) and set(routes(world, again)) == {"token"}
    assert token_user(world, again) == bob.id
    assert shows_the_table(world, again)
