"""Driving the bot through simcord as members would: slash commands and clicks only."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import discord
import simcord

from bot import create_bot
from bot.app import Bot
from bot.config import Settings
from tests.support.buttons import id_kind

TOKEN = "MTIzNDU2Nzg5MDEyMzQ1Njc4.GaBcDe.abcdefghijklmnopqrstuvwxyz012345"


def make_bot(db: Path, **overrides: Any) -> Bot:
    """Return a bot on the database ``db`` (table edits immediate and new tables without
    pictures unless overridden: drawing them only slows tests that are not about them)."""
    overrides.setdefault("table_edit_seconds", 0)
    overrides.setdefault("pictures", False)
    # simcord's ids carry its virtual clock, not the wall clock the bot compares them with
    overrides.setdefault("late_interaction_seconds", 0)
    return create_bot(Settings(token=TOKEN, database=db, **overrides))


def of_kind(message: discord.Message | simcord.ResponseMessage, kind: str) -> list[discord.Button]:
    """Return a message's enabled buttons of one kind (see :func:`id_kind`)."""
    return [b for b in enabled(message) if id_kind(b.custom_id) == kind]


def buttons(message: discord.Message | simcord.ResponseMessage) -> list[discord.Button]:
    """Return every button of a message, row by row."""
    rows = (
        message.components if isinstance(message, discord.Message) else message.message.components
    )
    out: list[discord.Button] = []
    for row in rows:
        for child in getattr(row, "children", []):
            if isinstance(child, discord.Button):
                out.append(child)
    return out


def enabled(message: discord.Message | simcord.ResponseMessage) -> list[discord.Button]:
    """Return the buttons a member could press."""
    return [b for b in buttons(message) if not b.disabled]


async def act_once(
    actor: simcord.MemberActor, hand: simcord.ResponseMessage
) -> simcord.InteractionResult | None:
    """Make the member's next decision from their hand message: the first card, or, as
    taker, each revealed card to the first free seat and Confirm. Returns the last result,
    or None when the hand has nothing to press."""
    cards = of_kind(hand, "play")
    if cards:
        return await actor.click(hand.message, custom_id=cards[0].custom_id)
    result = None
    for _ in range(5):
        confirm = of_kind(hand, "giveok")
        if confirm:
            return await actor.click(hand.message, custom_id=confirm[0].custom_id)
        steps = of_kind(hand, "give")
        if not steps:
            return result
        result = await actor.click(hand.message, custom_id=steps[0].custom_id)
    return result
