"""An interaction the bot gets to after Discord has given up on it has no effect."""

from __future__ import annotations

import datetime
import random
from types import SimpleNamespace
from typing import Any

import pytest

import bot.errors
from bot.errors import too_late
from tests.bot.driver import PLAY, Game, World, live_ids

SENT = datetime.datetime(2026, 11, 22, 12, 0, 0, tzinfo=datetime.UTC)


def interaction(limit: float) -> Any:
    settings = SimpleNamespace(late_interaction_seconds=limit)
    return SimpleNamespace(client=SimpleNamespace(settings=settings), created_at=SENT)


def test_an_interaction_is_too_late_past_the_limit_only() -> None:
    later = datetime.timedelta
    assert not too_late(interaction(2.5), SENT + later(seconds=2.5))
    assert too_late(interaction(2.5), SENT + later(seconds=2.6))
    assert not too_late(interaction(0), SENT + later(hours=1))  # 0: never


async def test_a_late_click_or_command_is_left_alone(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    await world.restart(late_interaction_seconds=2.5)
    alice, bob = world.members("alice", "bob")
    game, _ = await Game.open(world, alice, computers="expert")
    await game.press(alice, "Start")
    hand = await game.open_hand(alice)
    moves = game.moves()
    card = random.Random(3).choice(live_ids(hand, PLAY))

    # The bot's clock says each interaction arrived 3 s after it was sent.
    monkeypatch.setattr(
        bot.errors,
        "_utcnow",
        lambda: datetime.datetime.now(datetime.UTC) + datetime.timedelta(days=3650),
    )
    result = await alice.click(hand.message, custom_id=card)
    assert not result.acknowledged and result.response is None
    assert game.moves() == moves
    status = await bob.slash(world.channel, "dupe status")
    assert not status.acknowledged and status.response is None
    world.left_unanswered |= {int(result._interaction.id), int(status._interaction.id)}

    # On time again, the same click counts.
    monkeypatch.setattr(
        bot.errors, "_utcnow", lambda: datetime.datetime.min.replace(tzinfo=datetime.UTC)
    )
    result = await alice.click(hand.message, custom_id=card)
    assert result.acknowledged
    assert len(game.moves()) > len(moves)
