"""Every request body the bot sends is one Discord would accept.

Each body is validated against Discord's own OpenAPI description of API v10
(``../shared/discord/openapi.json``), with the schema chosen by route, and against the
limits the spec does not encode (see ``shared/discord/README.md``). The bodies come from
whole games, the lobby, the leaderboard and refusals, all driven through simcord.
"""

from __future__ import annotations

import functools
import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import simcord
from jsonschema import Draft202012Validator
from jsonschema.exceptions import best_match
from simcord.types import HttpLogEntry

from bot.app import DupeBot
from bot.store import SeatRecord
from tests.bot.whole_game import open_table, play

SPEC = Path(__file__).parents[2].parent / "shared/discord/openapi.json"

COMPONENTS_V2 = 1 << 15
ACTION_ROW, BUTTON = 1, 2


@functools.cache
def validators() -> dict[str, Draft202012Validator]:
    """Return a validator per schema name, built once (the spec is 1 MB)."""
    spec = json.loads(SPEC.read_text(encoding="utf-8"))
    names = (
        "CreateMessageInteractionCallbackRequest",
        "UpdateMessageInteractionCallbackRequest",
        "IncomingWebhookRequestPartial",
        "IncomingWebhookUpdateRequestPartial",
        "MessageCreateRequest",
        "MessageEditRequestPartial",
        "ApplicationCommandUpdateRequest",
    )
    return {
        name: Draft202012Validator(
            {"$ref": f"#/components/schemas/{name}", "components": spec["components"]}
        )
        for name in names
    }


@pytest.fixture(scope="module")
def schemas() -> dict[str, Draft202012Validator]:
    if not SPEC.is_file():
        pytest.skip(f"Discord's OpenAPI description is not at {SPEC}")
    return validators()


# --- choosing the schema and the extra rules ----------------------------------------


def schema_for(entry: HttpLogEntry) -> list[tuple[str, Any, dict[str, Any] | None]]:
    """Return ``(schema name, body, message)`` for each part of the request to validate;
    ``message`` is the message payload the extra rules apply to. No body: nothing."""
    parts = entry.path.strip("/").split("/")
    body = entry.json
    if entry.method in ("GET", "DELETE"):
        assert body is None, f"{entry.method} {entry.path} with a body"
        return []
    route = f"{entry.method} {entry.path}"
    if entry.method == "PUT" and parts[0] == "applications" and parts[-1] == "commands":
        assert isinstance(body, list), route
        return [("ApplicationCommandUpdateRequest", command, None) for command in body]
    assert isinstance(body, dict), route
    if entry.method == "POST" and parts[0] == "interactions" and parts[-1] == "callback":
        kind = body.get("type")
        data = body.get("data")
        if kind in (4, 5):
            return [("CreateMessageInteractionCallbackRequest", body, data)]
        if kind in (6, 7):
            return [("UpdateMessageInteractionCallbackRequest", body, data)]
        raise AssertionError(f"{route}: interaction callback type {kind} not expected")
    if parts[0] == "webhooks" and entry.method == "POST" and len(parts) == 3:
        return [("IncomingWebhookRequestPartial", body, body)]
    if parts[0] == "webhooks" and entry.method == "PATCH" and parts[3] == "messages":
        return [("IncomingWebhookUpdateRequestPartial", body, body)]
    if parts[0] == "channels" and parts[2:3] == ["messages"]:
        if entry.method == "POST" and len(parts) == 3:
            return [("MessageCreateRequest", body, body)]
        if entry.method == "PATCH" and len(parts) == 4:
            return [("MessageEditRequestPartial", body, body)]
    raise AssertionError(f"no schema chosen for {route}")


def _walk(components: list[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    for component in components:
        yield component
        yield from _walk(component.get("components") or [])


def message_rules(message: dict[str, Any]) -> list[str]:
    """Return the limits the spec does not encode that ``message`` breaks."""
    problems: list[str] = []
    components = message.get("components") or []
    flags = int(message.get("flags") or 0)
    content = message.get("content") or ""
    embeds = message.get("embeds") or []
    if flags & COMPONENTS_V2:
        if content or embeds:
            problems.append("content or embeds on a Components V2 message")
    elif len(components) > 5:
        problems.append(f"{len(components)} action rows (at most 5)")
    for row in components:
        if row.get("type") == ACTION_ROW and len(row.get("components") or []) > 5:
            problems.append(f"{len(row['components'])} buttons in a row (at most 5)")
    custom_ids = [c["custom_id"] for c in _walk(components) if c.get("custom_id") is not None]
    if len(custom_ids) != len(set(custom_ids)):
        problems.append(f"custom ids repeated within the message: {custom_ids}")
    for custom_id in custom_ids:
        if not 1 <= len(custom_id) <= 100:
            problems.append(f"custom id of {len(custom_id)} characters: {custom_id!r}")
    for button in _walk(components):
        if button.get("type") == BUTTON and len(button.get("label") or "") > 80:
            problems.append(f"button label over 80 characters: {button['label']!r}")
    if len(content) > 2000:
        problems.append(f"content of {len(content)} characters (at most 2000)")
    if len(embeds) > 10:
        problems.append(f"{len(embeds)} embeds (at most 10)")
    total = 0
    for embed in embeds:
        fields = embed.get("fields") or []
        if len(fields) > 25:
            problems.append(f"{len(fields)} embed fields (at most 25)")
        total += len(embed.get("title") or "") + len(embed.get("description") or "")
        total += sum(len(f.get("name") or "") + len(f.get("value") or "") for f in fields)
        total += len((embed.get("footer") or {}).get("text") or "")
        total += len((embed.get("author") or {}).get("name") or "")
    if total > 6000:
        problems.append(f"embeds of {total} characters in all (at most 6000)")
    return problems


def check(entry: HttpLogEntry, schemas: dict[str, Draft202012Validator]) -> list[str]:
    """Return what is wrong with one request body."""
    problems = []
    for name, body, message in schema_for(entry):
        error = best_match(schemas[name].iter_errors(body))
        if error is not None:
            where = "/".join(map(str, error.absolute_path))
            problems.append(f"{entry.method} {entry.path}: {name} at {where}: {error.message}")
        if message is not None:
            problems += [f"{entry.method} {entry.path}: {p}" for p in message_rules(message)]
    return problems


# --- what the bot is made to send -----------------------------------------------------


async def _finished_games(bot: DupeBot, guild_id: int, players: int) -> None:
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


async def _everything_else(env: simcord.Env, bot: DupeBot) -> None:
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
    env: simcord.Env, dupe_bot: DupeBot, schemas: dict[str, Draft202012Validator]
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
