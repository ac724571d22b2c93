"""A second game, registered from the tests, plays end to end on the generic bot core.

High card (``tests/support/highcard``) is an engine package, a bot package and a catalogue
— nothing in ``bot/`` knows it. Registered before the bot starts, it gets its own
``/highcard`` command group, the shared lobby, computer players, the turn timer, the store,
a restart with old buttons, the leak scan (its engine's own secrets), Discord's OpenAPI
check of every body, the leaderboard, history and replays.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from typing import Any

import pytest
import simcord

from bot import games, ids
from bot.app import Bot
from engine import games as engine_games
from tests.bot.driver import World, description, forge_click, live_ids, private_text
from tests.bot.secrets_scan import scan_secrets
from tests.bot.whole_game import Recorder, open_table, play
from tests.discord_api_rules import check_request, validators
from tests.support.highcard.engine import HIGHCARD
from tests.support.highcard.ui import UI


@pytest.fixture(autouse=True)
def highcard() -> Iterator[None]:
    """High card joins both registries before the bot starts, and leaves after."""
    with engine_games.registered(HIGHCARD), games.registered(UI):
        yield


def controls(hand: Any) -> list[str]:
    """Return the card buttons of a high card hand."""
    return [i for i in live_ids(hand) if isinstance(ids.parse(i), ids.Control)]


def moves(world: World, game_id: int) -> list[tuple[int, str, int]]:
    return world.query(
        "SELECT seat, move, by_computer FROM moves WHERE game_id = ? ORDER BY ply", (game_id,)
    )


async def test_high_card_plays_end_to_end_on_the_generic_core(
    world: World, recorder: Recorder
) -> None:
    alice, bob = world.members("alice", "bob")
    opened = await alice.slash(world.channel, "highcard start", turn_time=60)
    assert opened.response is not None and not opened.ephemeral
    lobby = opened.response
    assert lobby.embeds[0].title == "High card — a table is open"
    assert "First · alice" in description(lobby) and "Second · —" in description(lobby)
    table = world.bot.controller.tables.table_in(world.channel.id)
    assert table is not None and table.game == "highcard" and table.max_seats == 2
    game_id = table.id

    # The lobby: bob sits down and stands up, a computer takes the free seat, a third
    # member finds the table full; the host starts.
    async def press(who: simcord.MemberActor, what: str) -> simcord.InteractionResult:
        return await who.click(lobby.message, custom_id=ids.table_button(game_id, what))

    await press(bob, "join")
    await press(bob, "leave")
    await press(alice, "addcpu")
    full = await forge_click(bob, lobby, ids.table_button(game_id, "join"))
    assert private_text(full) == "The table is full."
    await press(alice, "start")
    assert world.query("SELECT status FROM games WHERE id = ?", (game_id,)) == [("playing",)]
    seats = world.query("SELECT seat, user_id, level FROM seats WHERE game_id = ?", (game_id,))
    assert sorted(seats) == [(0, alice.id, None), (1, None, "high")]

    # Alice's hand: three cards; the computer has chosen already (simultaneous choice).
    table_message = world.messages()[-1]
    (hand_button,) = [i for i in live_ids(table_message) if i.endswith(":hand")]
    shown = await alice.click(table_message, custom_id=hand_button)
    hand = shown.response
    assert hand is not None and hand.ephemeral
    assert len(controls(hand)) == 3
    assert [r[0] for r in moves(world, game_id)] == [1], "the computer chose first"

    # Trick 1 from the hand; then a restart; trick 2 pressed on the old message.
    await alice.click(hand.message, custom_id=controls(hand)[0])
    assert len(moves(world, game_id)) == 3 and len(controls(hand)) == 2
    old = controls(hand)
    recorder.bot = await world.restart()
    again = await alice.click(hand.message, custom_id=old[-1])
    assert again.response is not None and again.response.id == hand.id
    assert len(moves(world, game_id)) == 5

    # Trick 3: alice lets the time run out; a computer plays her last card and says so.
    await world.env.advance_time(61)
    rows = moves(world, game_id)
    assert rows[-1][0] == 0 and rows[-1][2] == 1, "a computer chose for alice"
    assert "Time ran out: a computer chose" in hand.content
    status = world.query("SELECT status FROM games WHERE id = ?", (game_id,))
    assert status == [("finished",)]
    standings = world.titled("High card — final standings")
    assert len(standings) == 1
    assert world.query("SELECT COUNT(*) FROM results WHERE game_id = ?", (game_id,)) == [(2,)]

    # The community commands know the game: leaderboard, history, replay.
    board = await alice.slash(world.channel, "leaderboard", game="highcard")
    assert board.response is not None and board.ephemeral
    assert board.response.embeds[0].title == "High card leaderboard"
    assert f"<@{alice.id}>" in description(board.response)
    history = await alice.slash(world.channel, "history")
    assert history.response is not None and f"High card #{game_id}" in description(history.response)
    replay = await bob.slash(world.channel, "replay", game=game_id)
    assert replay.response is not None and replay.ephemeral
    steps = 0
    while True:
        steps += 1
        following = [i for i in live_ids(replay.response) if i.endswith(":n")]
        if not following:
            break
        replay = await bob.click(replay.response.message, custom_id=following[0])
        assert replay.response is not None
    assert steps == 4, "three tricks and the standings"

    # Nothing hidden reached anyone else; every body is one Discord accepts.
    problems, read = scan_secrets(world.env, recorder)
    # (20 bodies: table edits that would change nothing are not sent)
    assert read >= 20 and problems == [], problems[:5]
    schemas = validators()
    wrong = [
        problem
        for entry in world.env.http_requests
        for problem in check_request(entry.method, entry.path, entry.json, schemas)
    ]
    assert wrong == []


async def test_the_help_and_commands_name_every_registered_game(world: World) -> None:
    alice = world.member("alice")
    shown = await alice.slash(world.channel, "help")
    assert shown.response is not None
    text = description(shown.response)
    assert "/dupe start" in text and "/highcard start" in text
    assert "**/highcard rules**" in text
    rules = await alice.slash(world.channel, "highcard rules")
    assert rules.response is not None and "High card" in rules.response.content


@pytest.mark.parametrize("humans", [1, 2])
async def test_the_whole_game_driver_plays_high_card_with_a_late_member(
    env: simcord.Env, dupe_bot: Bot, recorder: Recorder, humans: int
) -> None:
    """The drivers every game's tests use take the game as a parameter: the lobby with its
    buttons, hands, decisions by clicks, a member whose time runs out."""
    game = await open_table(env, dupe_bot, humans=humans, seed=99, game="highcard", turn_seconds=30)
    await play(game, idle=humans - 1)
    rows = world_moves(dupe_bot, game.game_id)
    assert len(rows) == 6 and any(
        by_computer for seat, _, by_computer in rows if seat == humans - 1
    )
    problems, _ = scan_secrets(env, recorder)
    assert problems == []
    record = await dupe_bot.store.game(game.game_id)
    assert record is not None and record.status == "finished" and record.game == "highcard"


def world_moves(bot: Bot, game_id: int) -> list[tuple[int, str, int]]:
    """Return the game's move log, read from the database file as an operator would."""
    with sqlite3.connect(f"file:{bot.settings.database}?mode=ro", uri=True) as db:
        query = "SELECT seat, move, by_computer FROM moves WHERE game_id = ? ORDER BY ply"
        return list(db.execute(query, (game_id,)))


async def test_high_cards_table_is_abandoned_with_its_channel_and_its_lobby_expires(
    world: World,
) -> None:
    """The faults of issue 12 are handled by the core, for every game: a deleted channel
    abandons a high card table (no stand-in plays it out), an idle lobby expires."""
    await world.restart(lobby_idle_minutes=30)
    alice = world.member("alice")
    side = world.guild.create_text_channel("side")
    opened = await alice.slash(side, "highcard start", turn_time=60)
    assert opened.response is not None
    table = world.bot.controller.tables.table_in(side.id)
    assert table is not None
    await alice.click(opened.response.message, custom_id=ids.table_button(table.id, "start"))
    played = moves(world, table.id)
    world.env.backend.delete_channel(side.id)
    await world.env.settle()
    await world.env.advance_time(600)
    assert moves(world, table.id) == played
    assert world.query("SELECT status, end_reason FROM games WHERE id = ?", (table.id,)) == [
        ("cancelled", "abandoned")
    ]
    assert world.query("SELECT COUNT(*) FROM results") == [(0,)]

    lobby = await alice.slash(world.channel, "highcard start")
    assert lobby.response is not None
    await world.env.advance_time(30 * 60 + 1)
    (row,) = world.query("SELECT status, end_reason FROM games ORDER BY id DESC LIMIT 1")
    assert row == ("cancelled", "expired")
    shown = [m for m in world.messages() if m.id == lobby.response.id]
    assert shown and "table closed" in (shown[0].embeds[0].title or "")
