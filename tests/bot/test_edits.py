"""The lean message writes of :mod:`bot.edits`: an answer in place counts as the
interaction's answer (a failure after it is then told in a follow-up, never a second
answer), a second answer in place is refused before anything is sent, and the token kept
from a click edits that message later."""

from __future__ import annotations

from typing import Any

import discord
import pytest

from bot import edits
from tests.bot.driver import PLAY, Game, World, live_ids


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
