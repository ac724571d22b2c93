"""Driving the bot through simcord as members would: slash commands and clicks only."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import discord
import simcord

from bot import create_bot
from bot.app import DupeBot
from bot.config import Settings

TOKEN = "MTIzNDU2Nzg5MDEyMzQ1Njc4.GaBcDe.abcdefghijklmnopqrstuvwxyz012345"


def make_bot(db: Path, **overrides: Any) -> DupeBot:
    """Return a bot on the database ``db`` (table edits immediate and new tables without
    pictures unless overridden: drawing them only slows tests that are not about them)."""
    overrides.setdefault("table_edit_seconds", 0)
    overrides.setdefault("pictures", False)
    # simcord's ids carry its virtual clock, not the wall clock the bot compares them with
    overrides.setdefault("late_interaction_seconds", 0)
    return create_bot(Settings(token=TOKEN, database=db, **overrides))


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
    live = enabled(hand)
    cards = [b for b in live if (b.custom_id or "").startswith("dupe:play:")]
    if cards:
        return await actor.click(hand.message, custom_id=cards[0].custom_id)
    result = None
    for _ in range(5):
        live = enabled(hand)
        confirm = [b for b in live if (b.custom_id or "").startswith("dupe:giveok:")]
        if confirm:
            return await actor.click(hand.message, custom_id=confirm[0].custom_id)
        steps = [
            b
            for b in live
            if (b.custom_id or "").startswith("dupe:give:")
            and not (b.custom_id or "").endswith(":")
        ]
        if not steps:
            return result
        result = await actor.click(hand.message, custom_id=steps[0].custom_id)
    return result
