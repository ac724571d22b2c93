"""Every request body the bot sends is one Discord would accept.

Each body is validated against Discord's own OpenAPI description of API v10
(``tests/support/discord/openapi.json``), with the schema chosen by route, and against the
limits the spec does not encode (see ``tests/support/discord/README.md``). The bodies come from
whole games, the lobby, the leaderboard and refusals, all driven through simcord.
"""

from __future__ import annotations

import hashlib
import json
import re
import time
from typing import Any

import pytest
import simcord
from jsonschema import Draft202012Validator
from simcord.types import HttpLogEntry

from bot.app import Bot
from bot.store import SeatRecord
from tests.bot.test_whist_table import stored_moves
from tests.bot.whole_game import open_table, play
from tests.discord_api_rules import (
    SCHEMA_NAMES,
    SPEC,
    check_request,
    message_rules,
    schemas_for_request,
    validators,
)


@pytest.fixture(scope="module")
def schemas() -> dict[str, Draft202012Validator]:
    return validators()


def test_the_spec_is_the_one_its_readme_names() -> None:
    """The copy in the repository is Discord's file unchanged (the sha256 its README gives)."""
    readme = (SPEC.parent / "README.md").read_text(encoding="utf-8")
    named = re.search(r"sha256: `([0-9a-f]{64})`", readme)
    assert named is not None
    data = SPEC.read_bytes()
    assert hashlib.sha256(data).hexdigest() == named[1]
    assert set(SCHEMA_NAMES) <= set(json.loads(data)["components"]["schemas"])


def schema_for(entry: HttpLogEntry) -> list[tuple[str, Any, dict[str, Any] | None]]:
    """Return ``(schema name, body, message)`` for each part of the request to validate."""
    return schemas_for_request(entry.method, entry.path, entry.json)


def check(entry: HttpLogEntry, schemas: dict[str, Draft202012Validator]) -> list[str]:
    """Return what is wrong with one request body."""
    return check_request(entry.method, entry.path, entry.json, schemas)


# --- what the bot is made to send -----------------------------------------------------


async def _finished_games(bot: Bot, guild_id: int, players: int) -> None:
    """Record finished games for ``players`` members straight in the store, so the
    leaderboard has more than one page."""
    now = time.time()
    for first in range(0, players, 4):
        users = [10_000 + first + seat for seat in range(4)]
        seats = [SeatRecord(seat, user, f"member {user}", None) for seat, user in enumerate(users)]
        game_id = await bot.store.create_game(
            game="dupe",
            guild_id=guild_id,
            channel_id=1,
            host_id=users[0],
            seed=first,
            options={},
            now=now,
            host_seat=seats[0],
        )
        await bot.store.start_game(game_id, seats, now, None)
        results = [(s, users[s], None, 100 + first + s, 1.0 if s == 3 else 0.0) for s in range(4)]
        await bot.store.append_moves(game_id, 0, [], now, None, results=results, guild_id=guild_id)


async def _everything_else(env: simcord.Env, bot: Bot) -> None:
    """The lobby's other paths, the leaderboard and refusals, in a second server."""
    guild = env.create_guild("Other")
    here, there = guild.create_text_channel("here"), guild.create_text_channel("there")
    host, guest = (guild.add_member(env.create_user(n)) for n in ("hana", "gil"))
    empty = await host.slash(here, "leaderboard")
    assert empty.ephemeral
    await _finished_games(bot, guild.id, 12)
    board = await host.slash(here, "leaderboard")
    assert board.response is not None and board.ephemeral
    paged = await host.click(board.response.message, label="Next ▶")
    assert paged.response is not None
    await host.click(paged.response.message, label="◀ Previous")
    assert (await host.slash(here, "dupe rules")).ephemeral
    assert (await host.slash(here, "dupe hand")).ephemeral  # no table here
    opened = await host.slash(here, "dupe start", memory="open", turn_time=30, computers="none")
    lobby = opened.response
    assert lobby is not None
    assert (await guest.slash(here, "dupe start")).ephemeral  # one table per channel
    await guest.click(lobby.message, label="Join")
    assert (await guest.click(lobby.message, label="Join")).acknowledged  # already seated
    assert (await host.click(lobby.message, label="Start")).acknowledged  # two missing
    assert (await guest.click(lobby.message, label="Cancel")).acknowledged  # not the host
    await host.slash(here, "dupe status")
    # An unexpected failure (Discord refuses the first answer) gets the apology instead.
    env.inject_error("POST", "/interactions/*/callback", times=1)
    sorry = await host.slash(here, "dupe status")
    assert sorry.response is not None and "Something went wrong" in sorry.response.content
    await host.click(lobby.message, label="Cancel")
    other = await guest.slash(there, "dupe start")
    assert other.response is not None
    await guest.slash(there, "dupe cancel")


async def test_every_request_body_is_valid(
    env: simcord.Env, dupe_bot: Bot, schemas: dict[str, Draft202012Validator]
) -> None:
    game = await open_table(env, dupe_bot, humans=2, memory="strict", seed=77, turn_seconds=60)
    await play(game, idle=1)
    assert game.table is None
    await _everything_else(env, dupe_bot)
    entries = list(env.http_requests)
    problems = [p for entry in entries for p in check(entry, schemas)]
    assert not problems, "\n".join(problems[:20])
    # Every kind of request the bot makes was seen and checked.
    checked = {name for entry in entries for name, _b, _m in schema_for(entry)}
    assert checked >= {
        "ApplicationCommandUpdateRequest",
        "CreateMessageInteractionCallbackRequest",
        "UpdateMessageInteractionCallbackRequest",
        "IncomingWebhookUpdateRequestPartial",
        "MessageCreateRequest",
        "MessageEditRequestPartial",
    }


def test_the_checks_refuse_what_discord_refuses(
    schemas: dict[str, Draft202012Validator],
) -> None:
    def entry(method: str, path: str, body: Any) -> HttpLogEntry:
        return HttpLogEntry(method, path, {}, body, None)

    button = {"type": 2, "style": 2, "label": "ok", "custom_id": "a"}
    good = {"content": "hi", "components": [{"type": 1, "components": [button]}]}
    assert check(entry("POST", "/channels/1/messages", good), schemas) == []
    bad_style = {"components": [{"type": 1, "components": [{**button, "style": 9}]}]}
    assert check(entry("POST", "/channels/1/messages", bad_style), schemas)
    six = {"type": 1, "components": [{**button, "custom_id": str(i)} for i in range(6)]}
    assert check(entry("PATCH", "/channels/1/messages/2", {"components": [six]}), schemas)
    # The checks remember what passed and try only the branches a component's type allows:
    # a body refused once is refused again, a type no branch allows too, and a component
    # with another kind's fields.
    assert check(entry("POST", "/channels/1/messages", bad_style), schemas)
    for kind in (99, 3):  # none; a string select, which has options, not a style
        odd = {"components": [{"type": 1, "components": [{**button, "type": kind}]}]}
        assert check(entry("POST", "/channels/1/messages", odd), schemas), kind
    twice = {"type": 1, "components": [button, button]}
    assert message_rules({"components": [twice]})
    rows = [{"type": 1, "components": [{**button, "custom_id": str(i)}]} for i in range(6)]
    assert message_rules({"components": rows})
    assert message_rules({"content": "x" * 2001})
    assert message_rules(
        {"components": [{"type": 1, "components": [{**button, "label": "x" * 81}]}]}
    )
    assert message_rules(
        {"components": [{"type": 1, "components": [{**button, "custom_id": "x" * 101}]}]}
    )
    fields = [{"name": "n", "value": "v" * 1000} for _ in range(7)]
    assert message_rules({"embeds": [{"title": "t", "fields": fields}]})
    assert message_rules({"embeds": [{"fields": [{"name": "n", "value": "v"}] * 26}]})
    callback = {"type": 4, "data": {"content": "x" * 2001, "flags": 64}}
    assert check(entry("POST", "/interactions/1/tok/callback", callback), schemas)
    update = {"type": 7, "data": good}
    assert check(entry("POST", "/interactions/1/tok/callback", update), schemas) == []
    command = {"name": "n" * 33, "description": "d", "type": 1}
    assert check(entry("PUT", "/applications/1/commands", [command]), schemas)
    with pytest.raises(AssertionError, match="no schema"):
        check(entry("POST", "/guilds/1/roles", {"name": "x"}), schemas)


async def test_every_whist_body_is_valid(
    env: simcord.Env, dupe_bot: Bot, schemas: dict[str, Draft202012Validator]
) -> None:
    """Whist's bodies besides whole units (``test_whist_table`` checks every variant's):
    Humbug's first tricks with a member whose time runs out (stand-ins), ``/whist status``, the
    rules of every variant, and ``/whist leave``'s question, answer and public notice."""
    game = await open_table(
        env,
        dupe_bot,
        humans=2,
        seed=78,
        game="whist",
        turn_seconds=60,
        variant="humbug",
        pictures="off",  # pictures: test_whist_table's pictures unit
    )
    await play(game, idle=1, until=lambda state: state.completed >= 3)
    alice, bob = (player.actor for player in game.players)
    assert (await alice.slash(game.channel, "whist status")).ephemeral
    for variant in ("short", "english_dummy", "double_dummy", "humbug", "two_hand", "mort"):
        assert (await alice.slash(game.channel, "whist rules", variant=variant)).ephemeral
    asked = await bob.slash(game.channel, "whist leave")
    assert asked.response is not None and asked.ephemeral
    left = await bob.click(asked.response.message, label="Leave the game")
    assert left.response is not None and left.response.ephemeral
    table = game.table
    assert table is not None and table.seats[1].user_id is None
    problems = [p for entry in env.http_requests for p in check(entry, schemas)]
    assert not problems, "\n".join(problems[:20])
    assert len(env.http_requests) > 40
    assert any(computer for _s, _m, computer in stored_moves(dupe_bot, game.game_id)), "stand-ins"
