"""The request budget (``bot.budget``): the courier's requests stay under the bot's share
of Discord's global limit, owed posts first, then turn changes, then other edits; a table
message waiting for the budget is edited once with the table as it is then, so every table
converges to its last state, and every owed post goes once, in order. On simcord's virtual
clock."""

from __future__ import annotations

import asyncio
import itertools
import random
from pathlib import Path
from typing import Any

import pytest

from bot.app import Bot
from bot.budget import OTHER, TURN, URGENT, Budget, share
from bot.table_message import render_table
from tests.bot.driver import Game, World, description
from tests.bot.helpers import end_table_tokens, make_bot

TIGHT = 5.0  # requests a second: a tenth of Discord's limit, for a thousand-table load


@pytest.fixture
def dupe_bot(db: Path) -> Bot:
    """The bot with a tight budget (the world fixture plays it)."""
    return make_bot(db, global_requests_per_second=TIGHT)


def channel_requests(world: World) -> int:
    """Return how many requests the bot has made that Discord counts against its limit (all
    but those made with an interaction's token)."""
    return sum(
        1
        for r in world.env.http_requests
        if not r.path.startswith(("/interactions/", "/webhooks/"))
    )


async def bot_budget(world: World, rate: float) -> Budget:
    """Return a budget on the bot's scheduler whose waits the bot's client makes, as the
    courier's (a lobby opened first has the bot run its scheduler)."""
    await Game.open(world, world.member("host"), computers="random")
    courier = world.bot.controller.courier
    return Budget(world.bot.scheduler, rate, wait=courier.budget.wait, wake=courier.budget.wake)


async def drain(world: World, seconds: int) -> list[int]:
    """Let ``seconds`` pass, one at a time; return the counted requests made in each."""
    made = []
    for _ in range(seconds):
        before = channel_requests(world)
        await world.env.advance_time(1.0)
        made.append(channel_requests(world) - before)
    return made


async def open_tables(world: World, count: int) -> list[tuple[Game, Any]]:
    """Open ``count`` started tables with pictures, each in a channel of its own (the first
    in the world's), its host's hand open; return each game with its host."""
    opened = []
    for n in range(count):
        channel = world.guild.create_text_channel(f"table-{n}") if n else world.channel
        host = world.member(f"host{n}")
        game, _ = await Game.open(world, host, channel, computers="random", pictures="on")
        await game.press(host, "Start")
        await game.open_hand(host)
        opened.append((game, host))
    return opened


async def test_under_a_tight_budget_tables_converge_and_owed_posts_go_once_in_order(
    world: World,
) -> None:
    courier = world.bot.controller.courier
    assert courier.budget.rate == TIGHT
    games: list[Game] = []
    hosts = []
    for n in range(4):
        channel = world.guild.create_text_channel(f"table-{n}") if n else world.channel
        host = world.member(f"host{n}")
        game, _ = await Game.open(world, host, channel, computers="random")
        await game.press(host, "Start")
        await game.open_hand(host)
        games.append(game)
        hosts.append(host)
    end_table_tokens(world.bot)  # their messages are edited through the channel, counted
    # Two deals at every table with the clock stopped: dozens of changes per table, two
    # scoring posts each, far more than 5 requests a second could show one by one.
    for n, (game, host) in enumerate(zip(games, hosts, strict=True)):
        await game.play([host], random.Random(n), until=lambda s: s.deal == 3)
    assert courier.budget.backlog() > 0, "the budget held requests back"

    per_second = await drain(world, 30)
    assert max(per_second) <= TIGHT + 1, per_second  # a second's tokens and the one in hand
    assert per_second[-5:] == [0] * 5, "everything owed has gone"
    for game in games:
        table = world.bot.controller.tables.tables[game.id]
        assert description(game.message) == render_table(table).embeds[0].description
        scored = [
            m.embeds[0].title
            for m in game.channel.history()
            if m.embeds and (m.embeds[0].title or "").endswith("scored")
        ]
        assert scored == ["Dupe — deal 1 scored", "Dupe — deal 2 scored"], scored
    assert world.query("SELECT COUNT(*) FROM outbox") == [(0,)]


async def test_owed_posts_go_first_then_turn_changes_then_other_edits(world: World) -> None:
    budget = await bot_budget(world, 1.0)
    assert budget.try_take()  # its one token: the next request waits
    order: list[str] = []

    async def request(name: str, priority: int) -> None:
        await budget.take(name, priority)
        order.append(name)

    names = [("cosmetic", OTHER), ("turn", TURN), ("cosmetic 2", OTHER), ("post", URGENT)]
    waiting = [asyncio.create_task(request(name, p)) for name, p in names]
    await world.env.settle()
    assert order == [] and budget.waiting("post")
    budget.hasten("cosmetic 2", TURN)  # its table's turn changed meanwhile
    budget.hasten("post", OTHER)  # never moved down
    await world.env.advance_time(0.9)
    assert order == []
    await world.env.advance_time(0.1)
    assert order == ["post"]
    await world.env.advance_time(3)
    assert order == ["post", "turn", "cosmetic 2", "cosmetic"]
    await asyncio.gather(*waiting)


async def test_a_table_edit_waiting_for_the_budget_is_one_edit_moved_up_by_a_turn(
    world: World,
) -> None:
    courier = world.bot.controller.courier
    alice = world.member("alice")
    game, _ = await Game.open(world, alice, computers="random")
    await game.press(alice, "Start")
    await game.open_hand(alice)
    table = world.bot.controller.tables.tables[game.id]
    end_table_tokens(world.bot)  # its message is edited through the channel, counted
    await drain(world, 2)
    before = channel_requests(world)
    rng = random.Random(3)
    for _ in range(6):
        await game.decide(alice, rng)
    await drain(world, 5)
    edits = channel_requests(world) - before
    assert 1 <= edits <= 6, "each change waited for the edit already queued"
    assert description(game.message) == render_table(table).embeds[0].description
    assert courier.edit_priority(table) == OTHER, "the message shows whose turn it is"


def test_each_slice_takes_the_share_of_its_shards() -> None:
    assert share(45, None, None) == 45
    assert share(45, 2, None) == 45  # one process runs every shard
    assert share(10, 2, [0]) == 5
    assert share(12, 4, [1, 3]) == 6
    slices = [share(45, 3, [n]) for n in range(3)]
    assert sum(slices) == pytest.approx(45), "the slices together never exceed the bot's"


async def test_a_slice_spends_only_its_share(world: World) -> None:
    """One slice of two, on a budget of 10 a second for the bot: 5 a second for it."""
    budget = await bot_budget(world, share(10, 2, [1]))
    granted: list[float] = []

    async def request(n: int) -> None:
        await budget.take(n, OTHER)
        granted.append(world.bot.scheduler.clock())

    waiting = [asyncio.create_task(request(n)) for n in range(21)]
    await world.env.settle()
    start = world.bot.scheduler.clock()
    for _ in range(5):
        await world.env.advance_time(1.0)
    await asyncio.gather(*waiting)
    assert granted[0] == start, "the one token in hand goes at once"
    gaps = [later - earlier for earlier, later in itertools.pairwise(granted)]
    assert min(gaps) == pytest.approx(0.2, abs=1e-5), "then one every fifth of a second"
    assert granted[-1] - start == pytest.approx(4.0, abs=1e-4)


async def test_edits_held_up_by_their_pictures_still_keep_to_the_budget(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The drawing of the pictures stalls while a dozen tables' edits are due, then catches
    # up at once: an edit must not hold a token while it waits for its picture, or every
    # held one goes out in the same second.
    from bot import pictures

    draw = pictures.render_off_loop
    released = False

    async def stalled(fn: Any, *args: Any, **kwargs: Any) -> bytes:
        if not released:
            await world.bot.wait_for("pictures_released")
        return await draw(fn, *args, **kwargs)

    opened = await open_tables(world, 12)
    games = [game for game, _ in opened]
    hosts = [host for _, host in opened]
    end_table_tokens(world.bot)  # their messages are edited through the channel, counted
    await drain(world, 10)  # the tables' first edits have gone
    for n, (game, host) in enumerate(zip(games, hosts, strict=True)):
        await game.play([host], random.Random(n), until=lambda s: s.trick >= 3)
    # The clock stood still while they played: every table's edit is still to come.
    monkeypatch.setattr(pictures, "render_off_loop", stalled)
    await drain(world, 10)  # every table's edit is due, and waits for its picture
    released = True
    world.bot.dispatch("pictures_released")
    per_second = await drain(world, 15)
    assert max(per_second) <= TIGHT + 1, per_second
    assert sum(per_second) >= len(games), per_second  # each table's held edit went
    for game in games:
        table = world.bot.controller.tables.tables[game.id]
        assert description(game.message) == render_table(table).embeds[0].description


async def test_table_messages_posted_again_while_pictures_stall_keep_to_the_budget(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A table message posted anew (deleted, or a match's table) draws its picture before it
    # takes the budget's token: posts that held tokens while the drawing stalled would go
    # out in the same second once it caught up.
    from bot import pictures

    released = False

    async def stalled(fn: Any, *args: Any, **kwargs: Any) -> bytes:
        if not released:
            await world.bot.wait_for("pictures_released")
        return b"\x89PNG a trick"  # drawn at once when the drawing catches up

    tables = []
    for n, (game, host) in enumerate(await open_tables(world, 12)):
        await game.play([host], random.Random(n), until=lambda s: s.trick >= 3)  # a picture
        tables.append(world.bot.controller.tables.tables[game.id])
    await drain(world, 10)  # the tables' edits have gone
    monkeypatch.setattr(pictures, "render_off_loop", stalled)
    courier = world.bot.controller.courier
    posting = [asyncio.ensure_future(courier.post_table_message(table)) for table in tables]
    await drain(world, 10)  # every post waits for its picture
    assert not any(task.done() for task in posting)
    released = True
    world.bot.dispatch("pictures_released")
    per_second = await drain(world, 10)
    assert max(per_second) <= TIGHT + 1, per_second
    assert sum(per_second) == len(tables), per_second  # each table's post, once
    assert await asyncio.gather(*posting) == ["sent"] * len(tables)  # and recorded
