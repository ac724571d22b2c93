"""Buttons that survive restarts: every custom id is read on its own.

The custom id carries everything (``bot.ids``), so a button pressed after a restart, or on a
message sent days ago, is understood exactly; whether it is still valid is decided when it
is pressed, and every refusal is answered privately. Ids from before ``bot.ids`` are read by
their game (``GameUI.legacy_id``). Anything else is answered by :func:`answer_unknown`.

The bot reads a pressed component's id itself (:func:`read`, from ``Bot.on_interaction``)
instead of registering discord.py ``DynamicItem`` templates: for a dynamic item discord.py
rebuilds the pressed message's whole view, every button of a hand, on every click, only to
hand the item its view, which no handler here uses.
"""

from __future__ import annotations

from collections.abc import Sequence

import discord

from bot import ids
from bot.errors import reply_private
from bot.game import GameUI
from bot.i18n import lang_of, t

__all__ = ["answer_unknown", "read"]


def read(custom_id: str, games: Sequence[GameUI]) -> ids.Parsed | None:
    """Return what a custom id means: one of ``bot.ids``, or a game's legacy id
    (``GameUI.legacy_id``); None for an id none of them knows."""
    parsed = ids.parse(custom_id)
    if parsed is not None:
        return parsed
    for ui in games:
        legacy: ids.Parsed | None = ui.legacy_id(custom_id)
        if legacy is not None:
            return legacy
    return None


async def answer_unknown(interaction: discord.Interaction) -> None:
    """Answer a component whose custom id none of our templates knows."""
    await reply_private(interaction, t(lang_of(interaction.locale), "errors.unknown_button"))
