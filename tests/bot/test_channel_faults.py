"""What server admins do to a running table: take permissions away (and give them back),
delete the table message, the channel or the thread, remove the bot from the server, leave
lobbies standing. The table goes on where it can, waits where it must, and is abandoned only
when its channel or server is gone for good; no post it owes is lost while it can still be
delivered."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from typing import Any

import discord
import pytest
import simcord
from simcord.backend import serializers
from simcord.backend.models.channel import Overwrite
from simcord.enums import OverwriteType
from simcord.http import router

from bot import ids
from tests.bot.driver import Game, World, description, private_text

ATTACH_FILES = 1 << 15
SEND_MESSAGES = 1 << 11
_MESSAGES = re.compile(r"^/channels/(\d+)/messages(/\d+)?$")


@pytest.fixture
def attach_files_enforced(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Discord refuses a message carrying files without Attach Files (403, 50013); simcord
    does not check that, so this does, for the bot's posts and edits."""
    dispatch = router.dispatch

    def checked(backend: Any, method: str, path: str, **kwargs: Any) -> Any:
        found = _MESSAGES.match(path)
        if found and method in ("POST", "PATCH") and kwargs.get("files"):
            channel_id = int(found.group(1))
            guild_id = backend.get_channel(channel_id).guild_id
            backend.require_permissions(guild_id, backend.bot_user.id, channel_id, "attach_files")
        return dispatch(backend, method, path, **kwargs)

    monkeypatch.setattr(router, "dispatch", checked)
    yield


async def deny(world: World, channel: simcord.ChannelHandle, bits: int) -> None:
    """A moderator takes permissions away from the bot in the channel."""
    bot_id = world.env.backend.bot_user.id
    world.env.backend.set_overwrite(channel.id, Overwrite(bot_id, OverwriteType.MEMBER, deny=bits))
    await world.env.settle()


async def allow_again(world: World, channel: simcord.ChannelHandle) -> None:
    world.env.backend.delete_overwrite(channel.id, world.env.backend.bot_user.id)
    await world.env.settle()


def moderator(world: World) -> simcord.MemberActor:
    """Return a member who may delete others' messages."""
    role = world.guild.create_role("mods", permissions=discord.Permissions(manage_messages=True))
    return world.member("mod", roles=[role])


def owed(world: World, game: Game) -> list[str]:
    rows = world.query("SELECT post FROM outbox WHERE game_id = ? ORDER BY post", (game.id,))
    return [post for (post,) in rows]


def titled(channel: simcord.ChannelHandle, prefix: str) -> list[discord.Message]:
    return [
        m for m in channel.history() if m.embeds and (m.embeds[0].title or "").startswith(prefix)
    ]


async def started(
    world: World, channel: simcord.ChannelHandle | None = None, **options: Any
) -> tuple[simcord.MemberActor, Game]:
    alice = world.member("alice")
    game, _ = await Game.open(world, alice, channel, computers="random", **options)
    await game.press(alice, "Start")
    await game.open_hand(alice)
    return alice, game


# --- 2. no Attach Files ------------------------------------------------------------------


async def test_without_attach_files_the_table_goes_on_in_text(
    world: World, attach_files_enforced: None, caplog: pytest.LogCaptureFixture
) -> None:
    alice, game = await started(world, pictures="on", turn_time=86400)
    rng = random.Random(4)
    await game.decide(alice, rng)
    await world.env.advance_time(1)
    assert game.message.attachments, "pictures are on: the table carries the trick"
    await deny(world, world.channel, ATTACH_FILES)

    # The rest of deal 1: every table edit and the deal's scoring post go out without
    # their picture, at once, and the table message loses its old picture.
    await game.play([alice], rng, until=lambda s: s.deal == 2)
    await world.env.advance_time(1)
    (scored,) = world.titled("Dupe — deal 1 scored")
    assert not scored.attachments
    assert owed(world, game) == []
    assert not game.message.attachments
    shown = description(game.message)
    await game.decide(alice, rng)
    await world.env.advance_time(1)
    assert description(game.message) != shown, "later edits go through too"
    refusals = [r for r in caplog.records if "refuses pictures" in r.getMessage()]
    assert len(refusals) == 1

    # Given Attach Files back, the channel gets pictures again after a while.
    await allow_again(world, world.channel)
    await world.env.advance_time(3600)
    await game.play([alice], rng, until=lambda s: s.deal == 3)
    await world.env.advance_time(1)
    (scored,) = world.titled("Dupe — deal 2 scored")
    assert scored.attachments


# --- 3. refused posts stay owed ------------------------------------------------------------


async def test_posts_refused_for_lack_of_access_are_delivered_once_it_is_back(
    world: World,
) -> None:
    alice, game = await started(world)
    rng = random.Random(6)
    await deny(world, world.channel, SEND_MESSAGES)
    await game.play([alice], rng, until=lambda s: s.deal == 2)
    await world.env.advance_time(60)  # refused (403), again after 5, 10, 20 s…
    assert world.titled("Dupe — deal 1 scored") == []
    assert owed(world, game) == ["deal1"], "kept owed, not struck off"

    # A restart does not lose it either.
    await world.restart()
    await world.env.advance_time(60)
    assert owed(world, game) == ["deal1"]

    await allow_again(world, world.channel)
    await world.env.advance_time(300)  # the next try, at most 5 minutes later
    assert len(world.titled("Dupe — deal 1 scored")) == 1
    assert owed(world, game) == []
    await world.env.advance_time(900)
    assert len(world.titled("Dupe — deal 1 scored")) == 1, "delivered once"


# --- 5. deleted channels, threads and servers ---------------------------------------------


def abandoned(world: World, game: Game) -> None:
    row = game.row()
    assert (row["status"], row["end_reason"]) == ("cancelled", "abandoned")
    assert world.query("SELECT COUNT(*) FROM results WHERE game_id = ?", (game.id,)) == [(0,)]
    assert world.query("SELECT COUNT(*) FROM outbox WHERE game_id = ?", (game.id,)) == [(0,)]
    assert world.bot.controller.tables.tables.get(game.id) is None


async def test_a_deleted_channels_table_is_abandoned_not_played_out(world: World) -> None:
    side = world.guild.create_text_channel("side")
    _, game = await started(world, side, turn_time=30)
    bob = world.member("bob")
    moves = len(game.moves())
    world.env.backend.delete_channel(side.id)
    await world.env.settle()
    abandoned(world, game)
    await world.env.advance_time(3600)  # no stand-in plays for anybody
    assert len(game.moves()) == moves
    assert world.query("SELECT COUNT(*) FROM ratings") == [(0,)]
    history = await bob.slash(world.channel, "history")
    assert history.response is not None and history.response.ephemeral
    text = description(history.response)
    assert f"**Dupe #{game.id}**" in text and "abandoned unfinished" in text
    # The channel's lobby, had it been one, is gone the same way; other channels go on.
    other, _ = await Game.open(world, bob, computers="random")
    assert other.row()["status"] == "lobby"


async def test_a_deleted_threads_table_is_abandoned(world: World) -> None:
    backend = world.env.backend
    thread = backend.create_thread(world.channel.id, "dupe night", backend.bot_user.id)
    handle = simcord.ChannelHandle(world.env, world.guild, thread)
    await world.env.settle()
    _, game = await started(world, handle, turn_time=30)
    backend.delete_channel(thread.id)
    await world.env.settle()
    abandoned(world, game)


async def test_a_finished_games_posts_to_a_deleted_channel_are_struck_off(world: World) -> None:
    side = world.guild.create_text_channel("side")
    alice, game = await started(world, side)
    await deny(world, side, SEND_MESSAGES)
    await game.play([alice], random.Random(2), until=lambda s: s.deal == 2)
    await world.env.advance_time(30)
    assert owed(world, game) == ["deal1"]
    world.env.backend.delete_channel(side.id)
    await world.env.settle()
    assert owed(world, game) == []


def remove_bot(world: World) -> None:
    """The server removes the bot (Discord sends GUILD_DELETE, without ``unavailable``)."""
    world.env.backend.emit("GUILD_DELETE", {"id": str(world.guild.id)})


def add_bot_back(world: World) -> None:
    backend = world.env.backend
    guild = backend.get_guild(world.guild.id)
    backend.emit("GUILD_CREATE", serializers.guild_create_payload(backend, guild))


async def test_a_server_that_removed_the_bot_keeps_its_table_for_the_grace_period(
    world: World,
) -> None:
    await world.restart(removed_grace_minutes=60)
    _, game = await started(world, turn_time=30)
    moves = len(game.moves())
    remove_bot(world)
    await world.env.settle()
    await world.env.advance_time(50 * 60)  # timers stopped: nobody can play there now
    assert len(game.moves()) == moves
    assert game.row()["status"] == "playing"

    add_bot_back(world)
    await world.env.settle()
    await world.env.advance_time(4)  # members get the warning's time back, not less
    assert len(game.moves()) == moves
    await world.env.advance_time(60)  # then the timer decides for alice as usual
    assert len(game.moves()) > moves
    await world.env.advance_time(3600)
    assert game.row()["status"] in ("playing", "finished")


async def test_a_server_that_removed_the_bot_for_good_has_its_table_abandoned(
    world: World,
) -> None:
    await world.restart(removed_grace_minutes=60)
    _, game = await started(world, turn_time=30)
    moves = len(game.moves())
    remove_bot(world)
    await world.env.settle()
    await world.env.advance_time(61 * 60)
    assert len(game.moves()) == moves
    abandoned(world, game)


# --- 6. deleted messages, idle lobbies, lobby limits --------------------------------------


async def test_a_deleted_lobby_message_is_posted_again(world: World) -> None:
    alice, bob = world.members("alice", "bob")
    mod = moderator(world)
    game, _ = await Game.open(world, alice)
    await mod.delete(game.message)
    again = await alice.slash(world.channel, "dupe start")
    reply = private_text(again)
    lobby = [m for m in world.messages() if m.components]
    assert len(lobby) == 1
    assert str(lobby[0].id) in reply, "the refusal links the new lobby message"
    assert game.row()["message_id"] == lobby[0].id
    game.message_id = lobby[0].id
    await game.press(bob, "Join")
    assert game.seats()[1] == (bob.id, None)


async def test_a_deleted_table_message_is_posted_again_on_the_next_change(
    world: World,
) -> None:
    mod = moderator(world)
    alice, game = await started(world)
    old = game.message_id
    await mod.delete(game.message)
    await game.decide(alice, random.Random(8))
    await world.env.advance_time(1)
    new = game.row()["message_id"]
    assert new != old
    game.message_id = new
    assert game.row()["message_id"] == new
    shown = description(game.message)
    await game.decide(alice, random.Random(9))
    await world.env.advance_time(1)
    assert description(game.message) != shown, "later changes edit the new message"
    buttons = [b.custom_id for row in game.message.components for b in getattr(row, "children", [])]
    assert any(isinstance(ids.parse(c or ""), ids.TableButton) for c in buttons)


async def test_an_idle_lobby_expires_and_says_so(world: World) -> None:
    await world.restart(lobby_idle_minutes=30)
    alice, bob = world.members("alice", "bob")
    game, _ = await Game.open(world, alice)
    await world.env.advance_time(29 * 60)
    await game.press(bob, "Join")  # a change: the lobby is idle from now on
    await world.env.advance_time(29 * 60)
    assert game.row()["status"] == "lobby"
    await world.restart(lobby_idle_minutes=30)  # the idle time survives a restart
    await world.env.advance_time(61)
    row = game.row()
    assert (row["status"], row["end_reason"]) == ("cancelled", "expired")
    assert "table closed" in (game.message.embeds[0].title or "")
    assert not game.message.components
    again, _ = await Game.open(world, bob)  # the channel is free again
    assert again.row()["status"] == "lobby"


async def test_open_lobbies_are_limited_per_member_and_per_server(world: World) -> None:
    await world.restart(lobbies_per_member=1, lobbies_per_server=2)
    alice, bob, carol = world.members("alice", "bob", "carol")
    rooms = [world.guild.create_text_channel(f"room{n}") for n in range(3)]
    await Game.open(world, alice, rooms[0])
    refused = await alice.slash(rooms[1], "dupe start")
    assert private_text(refused) == (
        "You already host as many open tables as one member may in this server (1); "
        "start or cancel one of them first."
    )
    await Game.open(world, bob, rooms[1])
    refused = await carol.slash(rooms[2], "dupe start")
    assert private_text(refused).startswith(
        "This server already has as many open tables waiting for players as it allows (2)"
    )
    assert world.query("SELECT COUNT(*) FROM games") == [(2,)]


async def test_owed_posts_go_out_as_soon_as_the_bot_is_added_back(world: World) -> None:
    alice, game = await started(world, turn_time=86400)
    await deny(world, world.channel, SEND_MESSAGES)
    await game.play([alice], random.Random(6), until=lambda s: s.deal == 2)
    await world.env.advance_time(200)  # refused again and again: the next try is minutes away
    assert owed(world, game) == ["deal1"]
    remove_bot(world)
    await world.env.settle()
    await allow_again(world, world.channel)
    add_bot_back(world)  # GUILD_CREATE: what the server is owed goes out now
    await world.env.advance_time(1)
    assert len(world.titled("Dupe — deal 1 scored")) == 1
    assert owed(world, game) == []
