"""The seam into discord.py's private names (:mod:`bot.discord_internals`).

First, each private name the seam uses, checked against the installed discord.py: a test
that fails names the version and the name, so that lifting the pin (``pyproject.toml``) is a
deliberate step. Then the seam's behaviour: an answer in place counts as the interaction's
answer (a failure after it is then told in a follow-up, never a second answer), a second
answer in place is refused before anything is sent, and the token kept from a click edits
that message later; and the HTTP session they go through keeps a bounded number of
connections."""

from __future__ import annotations

import inspect
import io
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import aiohttp
import discord
import pytest
import yarl
from discord.gateway import DiscordWebSocket
from discord.http import HTTPClient, Route, handle_message_parameters
from discord.webhook.async_ import (
    AsyncWebhookAdapter,
    async_context,
    interaction_message_response_params,
)

from bot import app, discord_internals
from tests.bot.driver import PLAY, Game, World, live_ids
from tests.bot.helpers import TOKEN, make_bot


def changed(name: str, what: str) -> str:
    return (
        f"discord.py {discord.__version__} changed {name}: {what}. bot/discord_internals.py"
        " relies on it: mend the seam there before lifting the discord.py pin in pyproject.toml."
    )


def expect_parameters(name: str, function: Callable[..., Any], parameters: Iterable[str]) -> None:
    taken = inspect.signature(function).parameters
    missing = [p for p in parameters if p not in taken]
    assert not missing, changed(name, f"it no longer takes {', '.join(missing)}")


def test_an_interaction_keeps_its_state_session_and_response_type() -> None:
    for owner, name in (
        (discord.Interaction, "_state"),
        (discord.Interaction, "_session"),
        (discord.Interaction, "_cs_response"),
        (discord.InteractionResponse, "_response_type"),
    ):
        assert name in owner.__slots__, changed(f"{owner.__name__}.{name}", "no such slot")
    cached = getattr(vars(discord.Interaction).get("response"), "name", None)
    assert cached == "_cs_response", changed(
        "Interaction.response", f"it is no longer cached in _cs_response ({cached})"
    )


async def test_the_client_keeps_its_state_parsers_and_http_client() -> None:
    client = discord.Client(intents=discord.Intents.none())
    state = getattr(client, "_connection", None)
    assert isinstance(state, discord.state.ConnectionState), changed(
        "Client._connection", f"it is {type(state).__name__}, not a ConnectionState"
    )
    parsers = getattr(state, "parsers", None)
    assert isinstance(parsers, dict) and callable(parsers.get("INTERACTION_CREATE")), changed(
        "ConnectionState.parsers", "no INTERACTION_CREATE parser in a dict of them"
    )
    assert isinstance(state.allowed_mentions, discord.AllowedMentions | None), changed(
        "ConnectionState.allowed_mentions", "not the client's allowed mentions"
    )
    http = state.http
    assert http is client.http and isinstance(http, HTTPClient), changed(
        "ConnectionState.http", "not the client's HTTPClient"
    )
    for name in ("proxy", "proxy_auth"):
        assert hasattr(http, name), changed(f"HTTPClient.{name}", "no such attribute")
    assert http.connector is discord.utils.MISSING, changed(
        "HTTPClient.connector", "not MISSING before login (the bot sets its own there)"
    )
    expect_parameters("HTTPClient.edit_message", http.edit_message, ("channel_id", "message_id"))
    assert "params" in inspect.signature(http.edit_message).parameters, changed(
        "HTTPClient.edit_message", "it no longer takes params"
    )


def test_a_route_builds_the_interaction_callback_url() -> None:
    route = Route(
        "POST",
        "/interactions/{webhook_id}/{webhook_token}/callback",
        webhook_id=123,
        webhook_token="token",
    )
    assert route.url == f"{Route.BASE}/interactions/123/token/callback", changed(
        "discord.http.Route", f"it built {route.url}"
    )
    assert isinstance(DiscordWebSocket.DEFAULT_GATEWAY, yarl.URL), changed(
        "DiscordWebSocket.DEFAULT_GATEWAY", "not a URL"
    )
    for name in ("warn_nacl", "warn_dave"):
        assert isinstance(vars(discord.VoiceClient).get(name), bool), changed(
            f"VoiceClient.{name}", "no such class attribute"
        )


def test_an_acknowledgement_is_the_deferred_update_callback() -> None:
    kind = discord.InteractionResponseType.deferred_message_update
    assert kind.value == 6, changed("InteractionResponseType.deferred_message_update", "not 6")


def test_the_request_helpers_take_what_the_seam_passes() -> None:
    expect_parameters(
        "discord.http.handle_message_parameters",
        handle_message_parameters,
        ("content", "embeds", "view", "attachments", "previous_allowed_mentions"),
    )
    expect_parameters(
        "discord.webhook.async_.interaction_message_response_params",
        interaction_message_response_params,
        ("type", "content", "embeds", "view", "previous_allowed_mentions"),
    )
    params = interaction_message_response_params(
        type=discord.InteractionResponseType.message_update.value, content="x"
    )
    payload = params.payload
    assert payload["type"] == 7 and payload["data"]["content"] == "x", changed(
        "interaction_message_response_params", f"its payload is {payload}"
    )
    adapter = async_context.get()
    assert isinstance(adapter, AsyncWebhookAdapter), changed(
        "discord.webhook.async_.async_context", f"it holds {type(adapter).__name__}"
    )
    expect_parameters(
        "AsyncWebhookAdapter.request",
        adapter.request,
        ("route", "session", "payload", "proxy", "proxy_auth"),
    )
    expect_parameters(
        "AsyncWebhookAdapter.edit_original_interaction_response",
        adapter.edit_original_interaction_response,
        ("application_id", "token", "session", "proxy", "proxy_auth", "payload", "multipart"),
    )


async def test_an_answer_in_place_is_the_interactions_one_answer(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    alice = world.member("alice")
    game, _ = await Game.open(world, alice, computers="expert")
    await game.press(alice, "Start")
    hand = await game.open_hand(alice)
    answer = discord_internals.update_in_place
    tokens: list[discord_internals.ResponseToken] = []

    async def answer_twice(interaction: discord.Interaction, **shown: Any) -> None:
        await answer(interaction, **shown)
        assert interaction.response.is_done()
        assert interaction.response.type is discord.InteractionResponseType.message_update
        with pytest.raises(discord.InteractionResponded):
            await answer(interaction, **shown)
        tokens.append(discord_internals.ResponseToken.of(interaction))

    monkeypatch.setattr(discord_internals, "update_in_place", answer_twice)
    result = await game.click(alice, live_ids(hand, PLAY)[0])
    assert result.response is not None and result.response.id == hand.id
    (token,) = tokens
    # The token edits that message later (as a hand's refresh does).
    await discord_internals.edit_original(
        token, content="edited later", embeds=[], view=discord.ui.View()
    )
    (shown,) = [m for m in world.messages(alice) if m.id == hand.id]
    assert shown.content == "edited later"


def test_interactions_are_given_the_http_clients_session() -> None:
    client = discord.Client(intents=discord.Intents.none())
    assert getattr(client.http, "_HTTPClient__session", None) is discord.utils.MISSING, changed(
        "HTTPClient.__session", "no such attribute, MISSING before login"
    )
    made = inspect.getsource(discord.Interaction.__init__)
    assert "state.http._HTTPClient__session" in made, changed(
        "Interaction._session", "it is no longer the HTTP client's session"
    )


async def test_a_kept_token_edits_the_table_message_with_its_picture(world: World) -> None:
    alice = world.member("alice")
    game, _ = await Game.open(world, alice, computers="expert")
    await game.press(alice, "Start")
    token = world.bot.controller.tables.tables[game.id].message_token
    assert token is not None
    picture = discord.File(io.BytesIO(b"\x89PNG a trick"), filename="trick.png")
    await discord_internals.edit_original_of(
        world.bot, token, content="edited", embeds=[], view=discord.ui.View(), attachments=[picture]
    )
    assert game.message.content == "edited"
    assert [a.filename for a in game.message.attachments] == ["trick.png"]


async def test_the_http_session_keeps_at_most_a_hundred_connections(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """discord.py's own session would open a connection per request under way (no limit):
    the bot's session is made, at login, on a connector of at most ``HTTP_CONNECTIONS``."""
    seen: list[aiohttp.BaseConnector] = []

    class LoggedIn(Exception):
        pass

    async def static_login(http: Any, token: str) -> None:
        seen.append(http.connector)
        raise LoggedIn  # as far as the session: nothing is sent

    monkeypatch.setattr(discord.http.HTTPClient, "static_login", static_login)
    monkeypatch.setattr(discord.Client, "_async_setup_hook", _nothing)
    for shards in ({}, {"shard_count": 2, "shard_ids": [0]}):
        bot = make_bot(tmp_path / "bot.sqlite3", **shards)
        with pytest.raises(LoggedIn):
            await bot.login(TOKEN)
        (connector,) = seen
        assert isinstance(connector, aiohttp.TCPConnector)
        assert connector.limit == app.HTTP_CONNECTIONS == 100
        await connector.close()
        seen.clear()


async def _nothing(*args: Any) -> None:
    return None


async def test_a_released_interaction_no_longer_holds_its_response() -> None:
    """The interaction and its response point at each other; released, the interaction
    drops its side, so reference counting frees both once the bot lets go."""
    client = discord.Client(intents=discord.Intents.none())
    interaction = discord.Interaction(
        data={
            "id": "1",
            "application_id": "2",
            "type": 3,
            "token": "token",
            "version": 1,
            "channel_id": "3",
            "attachment_size_limit": 8_000_000,
            "data": {"custom_id": "x", "component_type": 2},
        },
        state=client._connection,
    )
    response = interaction.response
    assert interaction.response is response and response._parent is interaction
    discord_internals.release(interaction)
    assert interaction.response is not response, changed(
        "Interaction._cs_response", "releasing it no longer drops the cached response"
    )
