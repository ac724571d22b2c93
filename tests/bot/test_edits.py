"""The lean message writes of :mod:`bot.edits`: an answer in place counts as the
interaction's answer (a failure after it is then told in a follow-up, never a second
answer), a second answer in place is refused before anything is sent, and the token kept
from a click edits that message later; and the HTTP session they go through keeps a bounded
number of connections."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import aiohttp
import discord
import pytest

from bot import app, edits
from tests.bot.driver import PLAY, Game, World, live_ids
from tests.bot.helpers import TOKEN, make_bot


async def test_an_answer_in_place_is_the_interactions_one_answer(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    alice = world.member("alice")
    game, _ = await Game.open(world, alice, computers="expert")
    await game.press(alice, "Start")
    hand = await game.open_hand(alice)
    answer = edits.update_in_place
    tokens: list[edits.ResponseToken] = []

    async def answer_twice(interaction: discord.Interaction, **shown: Any) -> None:
        await answer(interaction, **shown)
        assert interaction.response.is_done()
        assert interaction.response.type is discord.InteractionResponseType.message_update
        with pytest.raises(discord.InteractionResponded):
            await answer(interaction, **shown)
        tokens.append(edits.ResponseToken.of(interaction))

    monkeypatch.setattr(edits, "update_in_place", answer_twice)
    result = await game.click(alice, live_ids(hand, PLAY)[0])
    assert result.response is not None and result.response.id == hand.id
    (token,) = tokens
    # The token edits that message later (as a hand's refresh does).
    await edits.edit_original(token, content="edited later", embeds=[], view=discord.ui.View())
    (shown,) = [m for m in world.messages(alice) if m.id == hand.id]
    assert shown.content == "edited later"


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
