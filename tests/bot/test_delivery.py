"""The courier (``bot.delivery``) on its own: what becomes of a refused post, retries that
wait longer each time, a deleted channel's posts struck off, each post sent and marked sent
once, a channel's posts in the order they were owed, and posts owed to a server sent as
soon as it is back. The tables' posts and edits go through the same courier (their tests:
test_outbox.py, test_channel_faults.py)."""

from __future__ import annotations

from types import SimpleNamespace

import discord
import pytest
import simcord
from simcord.backend import serializers

from bot.delivery import CHANNEL_GONE, MESSAGE_GONE, NO_FILES, RETRY, SENT, Courier, fate
from bot.store import MatchPost
from tests.bot.driver import World

UNKNOWN_CHANNEL = 10003
UNKNOWN_MESSAGE = 10008
MISSING_ACCESS = 50001
MISSING_PERMISSIONS = 50013


def refusal(status: int, code: int = 0) -> discord.HTTPException:
    response = SimpleNamespace(status=status, reason="refused")
    return discord.HTTPException(response, {"code": code, "message": "refused"})  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("status", "code", "with_file", "expected"),
    [
        (503, 0, False, RETRY),  # Discord failing
        (500, 0, True, RETRY),
        (429, 0, False, RETRY),  # Discord busy (after discord.py's own retries)
        (403, MISSING_ACCESS, False, RETRY),  # no access for now: it may be given back
        (403, MISSING_PERMISSIONS, False, RETRY),
        (403, MISSING_PERMISSIONS, True, NO_FILES),  # the picture's fault: text only
        (404, UNKNOWN_CHANNEL, False, CHANNEL_GONE),
        (404, UNKNOWN_MESSAGE, False, MESSAGE_GONE),
    ],
)
def test_what_becomes_of_a_refused_post(
    status: int, code: int, with_file: bool, expected: str
) -> None:
    assert fate(refusal(status, code), with_file=with_file) == expected


def test_a_post_refused_for_good_is_not_tried_again(caplog: pytest.LogCaptureFixture) -> None:
    assert fate(refusal(400, 50035), with_file=False) == SENT  # a bad body: logged
    assert "refused a post or edit for good" in caplog.text


# --- an event's posts, through the courier's public API ------------------------------


async def owe(world: World, channel_id: int, *texts: str) -> list[MatchPost]:
    """Store an event owing ``texts`` to the channel, as a match's change does, and hand
    them to the courier; return them."""
    store = world.bot.store
    guild_id = world.guild.id
    match_id = await store.create_match("whist", guild_id, {}, 0.0)
    known = await store.match_nonces(match_id)
    posts = [
        MatchPost(match_id, guild_id, channel_id, f"m{match_id}-{i}", len(known) + i, text)
        for i, text in enumerate(texts)
    ]
    await store.save_match(match_id, "playing", {}, 0.0, posts)
    for post in posts:
        courier(world).owe_match_post(post)
    return posts


def courier(world: World) -> Courier:
    return world.bot.controller.courier


async def deliver(world: World, times: int = 1) -> None:
    """Have the bot deliver what it owes the server's channels, as it does when the server
    is there for it again (Discord's GUILD_CREATE; ``times`` of them at once), and let it
    settle."""
    backend = world.env.backend
    guild = backend.get_guild(world.guild.id)
    for _ in range(times):
        backend.emit("GUILD_CREATE", serializers.guild_create_payload(backend, guild))
    await world.env.settle()


async def still_owed(world: World) -> list[str]:
    return [post.text for post in await world.bot.store.owed_match_posts()]


def said(channel: simcord.ChannelHandle) -> list[str]:
    """Return the texts the bot posted in the channel, oldest first."""
    return [m.content for m in channel.history() if m.author.bot and m.content]


def posts_path(channel_id: int) -> str:
    return f"/channels/{channel_id}/messages"


async def test_a_post_is_sent_and_marked_sent(world: World) -> None:
    await owe(world, world.channel.id, "Round 1 is over.")
    await deliver(world)
    assert said(world.channel) == ["Round 1 is over."]
    assert await still_owed(world) == []


async def test_a_refused_post_is_tried_again_waiting_longer_each_time(world: World) -> None:
    """Refused by a failing Discord (a 503, which discord.py does not retry), a post is
    tried again 5 s later, then 10 s after that, then 20 s…, and marked sent once taken."""
    world.env.inject_error("POST", posts_path(world.channel.id), status=503, times=3)
    await owe(world, world.channel.id, "Round 1 is over.")
    await deliver(world)
    assert said(world.channel) == []
    await world.env.advance_time(4.9)
    assert said(world.channel) == [], "not before 5 s"
    await world.env.advance_time(0.2)  # the first retry (5 s): refused again
    await world.env.advance_time(9.8)
    assert said(world.channel) == [], "the second retry waits 10 s"
    await world.env.advance_time(0.2)  # refused a third time
    await world.env.advance_time(19.8)
    assert said(world.channel) == [] and await still_owed(world) == ["Round 1 is over."]
    await world.env.advance_time(0.2)  # 20 s later: taken
    assert said(world.channel) == ["Round 1 is over."]
    assert await still_owed(world) == []
    await world.env.advance_time(600)
    assert said(world.channel) == ["Round 1 is over."], "sent once"


async def test_a_channels_posts_go_in_order_behind_a_refused_one(world: World) -> None:
    """While a channel's first post is refused, the later ones wait behind it (they go
    together, in order, at the next try); another channel's posts do not wait."""
    side = world.guild.create_text_channel("side")
    world.env.inject_error("POST", posts_path(world.channel.id), status=503, times=1)
    await owe(world, world.channel.id, "first", "second")
    await owe(world, side.id, "elsewhere")
    await owe(world, world.channel.id, "third")
    await deliver(world)
    assert said(world.channel) == []
    assert said(side) == ["elsewhere"]
    assert await still_owed(world) == ["first", "second", "third"]
    await world.env.advance_time(5)
    assert said(world.channel) == ["first", "second", "third"]
    assert await still_owed(world) == []


async def test_posts_delivered_side_by_side_are_each_sent_once_in_order(world: World) -> None:
    """Two deliveries of one channel at once (the server back twice in a row, say): the
    second waits for the first, and every post goes once, in order."""
    await owe(world, world.channel.id, "one", "two", "three")
    await deliver(world, times=2)
    assert said(world.channel) == ["one", "two", "three"]
    assert await still_owed(world) == []


async def test_a_deleted_channels_posts_are_struck_off_and_not_tried_again(
    world: World,
) -> None:
    """Discord says the channel is gone (404, Unknown Channel): the delivery stops there,
    every post owed to it is struck off, and nothing is tried again later."""
    side = world.guild.create_text_channel("side")
    world.env.inject_error("POST", posts_path(side.id), status=404, code=UNKNOWN_CHANNEL)
    await owe(world, side.id, "one", "two")
    await deliver(world)
    assert await still_owed(world) == []
    assert courier(world).match_post_guilds() == set(), "the server is owed nothing"
    await world.env.advance_time(600)
    assert said(side) == [], "the second post was not tried after the first's refusal"


async def test_posts_owed_to_a_server_that_was_away_go_as_soon_as_it_is_back(
    world: World,
) -> None:
    """Refused while the bot lacked access (403), a post waits for its next try; the
    server back (the bot added again, an outage over), it goes at once."""
    world.env.inject_error(
        "POST", posts_path(world.channel.id), status=403, code=MISSING_ACCESS, times=2
    )
    await owe(world, world.channel.id, "owed")
    await deliver(world)
    await world.env.advance_time(5)  # refused again: the next try is 10 s away
    assert said(world.channel) == []
    await deliver(world)  # the server is back
    assert said(world.channel) == ["owed"]
    assert await still_owed(world) == []


async def test_posts_owed_after_a_restart_are_sent_once(world: World) -> None:
    """The store is the outbox: what a stopped process owed, the next one sends."""
    world.env.inject_error("POST", posts_path(world.channel.id), status=503, times=None)
    await owe(world, world.channel.id, "one", "two")
    await deliver(world)
    assert said(world.channel) == []
    world.env.backend.faults.clear()
    await world.restart()
    await world.env.settle()
    assert said(world.channel) == ["one", "two"]
    assert await still_owed(world) == []
