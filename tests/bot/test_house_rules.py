"""House rules: seating, server-wide defaults set by managers, the rules shown in force."""

from __future__ import annotations

import discord

from tests.bot.driver import Game, World, private_text


async def test_random_seating_shuffles_the_seats_at_the_start(world: World) -> None:
    members = world.members("alice", "bob", "carol", "dave")
    orders = set()
    for seed in range(1, 6):
        world.pin_seed(seed)
        channel = world.guild.create_text_channel(f"dupe-{seed}")
        game, _ = await Game.open(world, members[0], channel, seating="random", computers="none")
        for member in members[1:]:
            await game.press(member, "Join")
        assert "seats in join order" not in (game.message.embeds[0].footer.text or "")
        await game.press(members[0], "Start")
        seats = game.seats()
        assert sorted(user for user, _ in seats.values()) == sorted(m.id for m in members)
        orders.add(tuple(seats[s][0] for s in range(4)))
        assert "random seats" in (game.message.embeds[0].footer.text or "")
    assert len(orders) > 1  # the seats really move, and differently per game


async def test_join_order_is_the_default(world: World) -> None:
    alice, bob = world.members("alice", "bob")
    game, _ = await Game.open(world, alice, computers="random")
    await game.press(bob, "Join")
    await game.press(alice, "Start")
    assert game.seats()[0][0] == alice.id and game.seats()[1][0] == bob.id
    footer = game.message.embeds[0].footer.text or ""
    # The bot's own setting decides pictures here (the tests' bot has them off).
    assert "seats in join order" in footer and "pictures off" in footer


async def test_managers_set_server_defaults_that_new_tables_use(world: World) -> None:
    alice, bob = world.members("alice", "bob")
    mods = world.guild.create_role("mods", permissions=discord.Permissions(manage_guild=True))
    dora = world.member("dora", roles=[mods])

    shown = await bob.slash(world.channel, "dupe defaults")
    assert "Defaults for new Dupe tables" in private_text(shown)
    refused = await bob.slash(world.channel, "dupe defaults", memory="open")
    assert private_text(refused) == (
        "Only a member who can manage this server can change its defaults."
    )

    saved = await dora.slash(
        world.channel, "dupe defaults", memory="open", pictures="off", turn_time=300
    )
    text = private_text(saved)
    assert "(saved)" in text and "Memory: open" in text and "Pictures: off" in text

    game, _ = await Game.open(world, alice, computers="random")
    footer = game.message.embeds[0].footer.text or ""
    assert "Memory: open" in footer and "5 min" in footer and "pictures off" in footer
    # Whoever starts a table may still choose otherwise.
    other = world.guild.create_text_channel("dupe-2")
    chosen, _ = await Game.open(world, bob, other, memory="strict", pictures="on")
    footer = chosen.message.embeds[0].footer.text or ""
    assert "Memory: strict" in footer and "pictures on" in footer and "5 min" in footer


async def test_help_lists_every_command_privately(world: World) -> None:
    (alice,) = world.members("alice")
    shown = await alice.slash(world.channel, "help")
    assert shown.response is not None and shown.response.ephemeral
    text = shown.response.embeds[0].description or ""
    for command in (
        "/dupe start",
        "/dupe hand",
        "/dupe status",
        "/dupe rules",
        "/dupe cancel",
        "/dupe defaults",
        "/leaderboard",
        "/stats",
        "/history",
        "/replay",
        "/help",
    ):
        assert f"**{command}** — " in text, command
