"""The lobby: joining, leaving, computer players, who may start and cancel, private answers."""

from __future__ import annotations

import random

import discord

from tests.bot.driver import (
    PLAY,
    Game,
    World,
    description,
    forge_click,
    live_ids,
    private_text,
    standings_totals,
)
from tests.bot.helpers import buttons


def lobby_ids(game: Game) -> dict[str, bool]:
    """Return ``what -> enabled`` for the lobby buttons of the table message."""
    return {(b.custom_id or "").split(":")[2]: not b.disabled for b in buttons(game.message)}


async def test_one_member_fills_the_table_with_computers_and_plays_to_the_end(
    world: World,
) -> None:
    alice = world.member("alice")
    game, _ = await Game.open(world, alice, computers="greedy")
    for count in range(1, 4):
        added = await game.press(alice, "Add computer")
        assert added.response is not None and added.response.id == game.message_id
        assert f"🤖 Computer {count + 1} (greedy)" in description(game.message)
    assert lobby_ids(game) == {
        "join": False,
        "leave": True,
        "addcpu": False,
        "start": True,
        "cancel": True,
    }
    refused = await forge_click(alice, game.message, f"dupe:lobby:addcpu:{game.id}")
    assert private_text(refused) == "The table is full."

    await game.press(alice, "Start")
    assert game.seats() == {0: (alice.id, None), **{s: (None, "greedy") for s in (1, 2, 3)}}
    first = game.moves()
    assert [(row.seat, row.by_computer) for row in first] == [(1, True), (2, True), (3, True)]
    assert "Waiting for: North" in description(game.message)

    await game.open_hand(alice)
    await game.play([alice], random.Random(3), strict=True)

    final = game.assert_log_replays()
    assert all(row.by_computer == (row.seat != 0) for row in game.moves())
    (standings,) = world.titled("Dupe — final standings")
    assert standings_totals(standings) == dict(enumerate(final.totals))
    results = game.results()
    assert {seat: score for seat, (_user, score, _win) in results.items()} == dict(
        enumerate(final.totals)
    )
    assert results[0][0] == alice.id and all(results[s][0] is None for s in (1, 2, 3))

    board = await alice.slash(world.channel, "leaderboard")
    text = description(board.response) if board.response else ""
    assert text.count("<@") == 1, "computer players are not on the leaderboard"
    assert f"<@{alice.id}> — {final.totals[0]} pts · 1 game" in text


async def test_lobby_rules_are_enforced_with_private_answers(world: World) -> None:
    alice, bob, carol = world.members("alice", "bob", "carol")
    game, _ = await Game.open(world, alice, computers="none")

    assert private_text(await game.press(alice, "Join")) == "You are already seated at this table."
    await game.press(bob, "Join")
    assert "♥ East · bob" in description(game.message)
    assert private_text(await game.press(bob, "Join")) == "You are already seated at this table."
    assert game.seats() == {0: (alice.id, None), 1: (bob.id, None)}

    await game.press(bob, "Leave")
    assert "♥ East · —" in description(game.message)
    assert game.seats() == {0: (alice.id, None)}
    assert private_text(await game.press(bob, "Leave")) == "You are not seated at this table."
    assert private_text(await game.press(alice, "Leave")).startswith("You are the host")
    assert private_text(await game.press(carol, "Add computer")) == (
        "Only players seated at this table can add computer players."
    )
    await game.press(bob, "Join")

    assert private_text(await game.press(bob, "Start")) == "Only the host can start the game."
    not_enough = private_text(await game.press(alice, "Start"))
    assert not_enough.startswith("Four players are needed: 2 seat(s) are empty")
    assert game.row()["status"] == "lobby"

    # A second table in the same channel is refused, with a link to the first.
    second = await carol.slash(world.channel, "dupe start")
    link = f"https://discord.com/channels/{world.guild.id}/{world.channel.id}/{game.message_id}"
    assert link in private_text(second)
    assert len(world.query("SELECT id FROM games")) == 1

    status = await carol.slash(world.channel, "dupe status")
    assert status.response is not None and status.response.ephemeral
    assert link in status.response.content
    assert status.response.embeds[0].title == "Dupe — a table is open"
    rules = await carol.slash(world.channel, "dupe rules")
    assert rules.response is not None and rules.response.ephemeral
    assert "identity card" in rules.response.content
    hand = await bob.slash(world.channel, "dupe hand")
    assert private_text(hand).startswith("The game has not started yet")
    hand = await carol.slash(world.channel, "dupe hand")
    assert private_text(hand).startswith("You are not playing at this table")

    # Only the host (or a server manager) cancels.
    refused = private_text(await game.press(bob, "Cancel"))
    assert refused == "Only the host or a server manager can cancel this table."
    refused = private_text(await carol.slash(world.channel, "dupe cancel"))
    assert refused == "Only the host or a server manager can cancel this table."
    assert game.row()["status"] == "lobby"
    cancelled = await game.press(alice, "Cancel")
    assert cancelled.response is not None and cancelled.response.id == game.message_id
    assert game.message.embeds[0].title == "Dupe — table cancelled"
    assert buttons(game.message) == []
    assert game.row()["status"] == "cancelled"
    gone = await forge_click(bob, game.message, f"dupe:lobby:join:{game.id}")
    assert private_text(gone) == "That game is over or was cancelled; its buttons no longer work."
    assert private_text(await carol.slash(world.channel, "dupe status")).startswith(
        "There is no Dupe table in this channel."
    )

    # A new table may open in the channel; a member with Manage Server cancels it.
    manager_role = world.guild.create_role(
        "mods", permissions=discord.Permissions(manage_guild=True)
    )
    dora = world.member("dora", roles=[manager_role])
    again, _ = await Game.open(world, alice)
    assert again.id != game.id
    await again.press(bob, "Join")
    await again.press(alice, "Start")
    await again.open_hand(bob)
    done = await dora.slash(world.channel, "dupe cancel")
    assert private_text(done) == "The table is cancelled."
    assert again.message.embeds[0].title == "Dupe — table cancelled"
    assert again.row()["status"] == "cancelled"
    before = len(again.moves())
    card = live_ids(again.hands[bob.id], PLAY)[0]
    late = await bob.click(again.hands[bob.id].message, custom_id=card)
    assert private_text(late) == "That game is over or was cancelled; its buttons no longer work."
    assert len(again.moves()) == before


async def test_a_table_is_not_opened_where_the_bot_cannot_post(world: World) -> None:
    """``/<game> start`` checks the bot's own permissions in the channel (every interaction
    carries them) and refuses privately, naming what is missing; nothing is opened."""
    alice = world.member("alice")
    me = world.bot.user
    assert me is not None
    locked = world.guild.create_text_channel(
        "locked",
        overwrites={me: discord.PermissionOverwrite(embed_links=False, attach_files=False)},
    )
    refused = await alice.slash(locked, "dupe start", pictures="on")
    assert refused.response is not None and refused.response.ephemeral
    text = refused.response.content
    assert text.startswith("I cannot host a table in this channel"), text
    assert "Embed Links, Attach Files" in text and "Send Messages" not in text
    assert world.bot.controller.tables.table_in(locked.id) is None
    assert world.query("SELECT COUNT(*) FROM games") == [(0,)]

    # Without pictures the table needs no Attach Files, but still Embed Links.
    again = await alice.slash(locked, "dupe start", pictures="off")
    assert again.response is not None and "Embed Links" in again.response.content
    assert "Attach Files" not in again.response.content

    # Where the bot has what it needs, the table opens as usual.
    opened = await alice.slash(world.channel, "dupe start")
    assert opened.response is not None and not opened.response.ephemeral
