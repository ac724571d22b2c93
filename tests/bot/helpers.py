"""Driving the bot through simcord as members would: slash commands and clicks only."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import discord
import simcord

from bot import create_bot, ids
from bot.app import Bot
from bot.config import Settings
from engine.doppelkopf.rules import OPTIONAL
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
    if of_kind(hand, "control"):
        return await _act_by_payload(actor, hand)
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


_OPTIONAL = OPTIONAL  # Doppelkopf's announcements, claims and concessions


def optional(custom_id: str | None) -> bool:
    """Return whether a control is an optional one (a Doppelkopf announcement, claim or
    concession): a hand offering only those awaits no decision."""
    parsed = ids.parse(custom_id or "")
    return (
        isinstance(parsed, ids.Control)
        and parsed.payload[1:] in _OPTIONAL
        and parsed.payload[:1] == "="
    )


async def _act_by_payload(
    actor: simcord.MemberActor, hand: simcord.ResponseMessage
) -> simcord.InteractionResult | None:
    """A game whose controls carry the action itself (``=<action>``, Doppelkopf): press
    the first required choice (a card, a reservation, a bid — never an optional
    announcement, claim or concession); for a choice of cards (``s<codes>`` steps), add
    cards until the confirming choice is enabled."""
    result = None
    for _ in range(6):
        chosen = [b for b in of_kind(hand, "control") if not b.disabled]
        payloads = [(b, ids.parse(b.custom_id or "")) for b in chosen]
        actions = [
            b
            for b, parsed in payloads
            if isinstance(parsed, ids.Control)
            and parsed.payload.startswith("=")
            and parsed.payload[1:] not in _OPTIONAL
        ]
        if actions:
            return await actor.click(hand.message, custom_id=actions[0].custom_id)
        steps = [
            b
            for b, parsed in payloads
            if isinstance(parsed, ids.Control)
            and parsed.payload.startswith("s")
            and "✓" not in (b.label or "")
        ]
        if not steps:
            return result
        result = await actor.click(hand.message, custom_id=steps[0].custom_id)
    return result
