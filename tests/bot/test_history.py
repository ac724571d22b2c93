"""/history, /replay, /stats and the sorted leaderboard, through simcord."""

from __future__ import annotations

import random

import simcord

from bot import ids
from bot.games.dupe.replay import DealStart, Final, replay_steps
from engine.dupe import DealResult, TrickRecord
from tests.bot.driver import Game, World, description, forge_click, ids_of, private_text


async def finished_game(world: World, host: simcord.MemberActor) -> tuple[Game, list[object]]:
    """Play a whole game by ``host`` and three random computers; return it and its steps."""
    game, _ = await Game.open(world, host, computers="random")
    await game.press(host, "Start")
    await game.open_hand(host)
    state = await game.play([host], random.Random(5), strict=True)
    assert state.is_over
    steps = replay_steps(world.seed, game.options(), [row.move for row in game.moves()])
    return game, list(steps)


def footer(message: simcord.ResponseMessage) -> str:
    return message.embeds[0].footer.text or ""


async def test_history_lists_the_game_and_replay_steps_through_it(world: World) -> None:
    alice, bob = world.members("alice", "bob")
    game, steps = await finished_game(world, alice)
    assert [type(s) for s in steps].count(TrickRecord) == 52
    assert [type(s) for s in steps].count(DealResult) == 4
    assert isinstance(steps[0], DealStart) and isinstance(steps[-1], Final)

    history = await bob.slash(world.channel, "history")
    assert history.response is not None and history.response.ephemeral
    text = description(history.response)
    assert f"**Dupe #{game.id}**" in text and f"<@{alice.id}>" in text
    assert "🤖 Computer 2 (random)" in text
    assert f"/replay {game.id}" in text

    shown = await bob.slash(world.channel, "replay", game=game.id)
    page = shown.response
    assert page is not None and page.ephemeral
    assert page.embeds[0].title == "Dupe — deal 1 dealt"
    first = steps[0]
    assert isinstance(first, DealStart)
    # The game is over: every hand and identity card is shown.
    fields = "\n".join(f.value or "" for f in page.embeds[0].fields)
    for seat in range(4):
        assert str(first.hands[seat][0]) in fields
    assert footer(page) == f"Replay of game #{game.id} · step 1 of {len(steps)}"
    assert f"rp:{game.id}:0:p" in ids_of(page)  # Previous, disabled on the first step

    moved = await bob.click(page, label="Next ▶")
    assert moved.response is not None and moved.response.id == page.id  # edited in place
    assert moved.response.embeds[0].title == "Dupe — deal 1, trick 1"
    jumped = await bob.click(moved.response, label="Deal 3")
    assert jumped.response is not None
    assert jumped.response.embeds[0].title == "Dupe — deal 3 dealt"
    back = await bob.click(jumped.response, label="◀ Previous")
    assert back.response is not None
    assert back.response.embeds[0].title == "Dupe — deal 2 scored"


async def test_a_game_in_play_or_elsewhere_cannot_be_replayed(world: World) -> None:
    alice, bob = world.members("alice", "bob")
    game, _ = await Game.open(world, alice, computers="random")
    await game.press(alice, "Start")
    running = await bob.slash(world.channel, "replay", game=game.id)
    assert private_text(running) == (
        f"Game #{game.id} is still being played; it can be replayed when it is over."
    )
    missing = await bob.slash(world.channel, "replay", game=game.id + 100)
    assert private_text(missing) == (
        f"There is no game #{game.id + 100} in this server. See /history."
    )
    other = world.env.create_guild("Elsewhere")
    stranger = other.add_member(world.env.create_user("mallory"))
    channel = other.create_text_channel("general")
    elsewhere = await stranger.slash(channel, "replay", game=game.id)
    assert "There is no game" in private_text(elsewhere)


async def test_stats_and_the_leaderboard_by_rating(world: World) -> None:
    (alice,) = world.members("alice")
    game, steps = await finished_game(world, alice)
    final = steps[-1]
    assert isinstance(final, Final)
    mine = await alice.slash(world.channel, "stats")
    assert mine.response is not None and mine.response.ephemeral
    fields = {f.name: f.value for f in mine.response.embeds[0].fields}
    seat = game.seat_of(alice)
    assert fields["Games"] == "1"
    assert fields["Best score"] == str(final.totals[seat])
    assert fields["Favourite seat"] == ("North", "East", "South", "West")[seat]
    assert fields["Rating"] != "unrated"

    board = await alice.slash(world.channel, "leaderboard", sort="rating")
    assert board.response is not None
    text = description(board.response)
    assert "🤖 Computer (random)" in text  # computers are rated as their level
    assert f"<@{alice.id}>" in text and "← you" in text
    assert "sorted by rating" in (board.response.embeds[0].footer.text or "")


async def test_rematch_reuses_seats_and_rules_once_each_player_says_yes(world: World) -> None:
    alice, bob, eve = world.members("alice", "bob", "eve")
    game, _ = await Game.open(world, alice, computers="random", memory="open")
    await game.press(bob, "Join")
    await game.press(alice, "Start")
    seats = game.seats()
    await game.open_hand(alice)
    await game.open_hand(bob)
    await game.play([alice, bob], random.Random(8), strict=True)
    (standings,) = world.titled("Dupe — final standings")
    assert ids.table_button(game.id, "rematch") in ids_of(standings)
    assert ids.replay(game.id, 0, "r") in ids_of(standings)

    stranger = await eve.click(standings, label="🔁 Rematch")
    assert private_text(stranger) == "Only the players of that game can ask for a rematch."

    world.pin_seed(world.seed + 1)
    opened = await bob.click(standings, label="🔁 Rematch")
    lobby = opened.response
    assert lobby is not None and not lobby.ephemeral
    assert lobby.embeds[0].title == f"Dupe — rematch of game #{game.id}"
    text = description(lobby)
    assert "waiting for alice to press Rematch" in text
    again = Game.from_lobby(world, lobby, world.channel)
    assert again.id != game.id
    # Nobody else may take alice's seat meanwhile.
    joined = await forge_click(eve, lobby, f"dupe:lobby:join:{again.id}")
    assert "is a rematch of game" in private_text(joined)

    yes = await alice.click(standings, label="🔁 Rematch")
    assert private_text(yes) == "You are in the rematch. It starts now."
    assert again.row()["status"] == "playing"
    assert again.seats() == seats  # the same seats: members and computer levels
    assert again.options().memory == "open"  # and the same rules
    assert again.row()["seed"] != game.row()["seed"]  # with a new deal
    twice = await alice.click(standings, label="🔁 Rematch")
    assert "already has another table" in private_text(twice)

    replay = await eve.click(standings, label="📜 Replay")
    assert replay.response is not None and replay.response.ephemeral
    assert replay.response.embeds[0].title == "Dupe — deal 1 dealt"
