"""Buttons that survive restarts: every custom id is read by a ``DynamicItem`` template.

The custom id carries everything (``bot.ids``), so a button pressed after a restart, or on a
message sent days ago, is understood exactly; whether it is still valid is decided when it
is pressed, and every refusal is answered privately. Ids from before ``bot.ids`` are read by
their game (``GameUI.legacy_id``). Anything that matches no template is answered by
:func:`answer_unknown`.
"""

from __future__ import annotations

import re
import types
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

import discord

from bot import ids
from bot.errors import reply_private, too_late
from bot.game import GameUI
from bot.i18n import lang_of, t

__all__ = ["answer_unknown", "button_items"]

Press = Callable[[discord.Interaction, ids.Parsed], Awaitable[None]]


class _Routed:
    """A button known by its custom id alone; ``parsed`` is what it means."""

    press: Press

    def __init__(self, custom_id: str, parsed: ids.Parsed) -> None:
        super().__init__(discord.ui.Button(custom_id=custom_id, label="·"))  # type: ignore[call-arg]
        self.parsed = parsed

    async def interaction_check(self, interaction: discord.Interaction, /) -> bool:
        return not too_late(interaction)

    async def callback(self, interaction: discord.Interaction) -> None:
        await type(self).press(interaction, self.parsed)


def button_items(press: Press, games: Sequence[GameUI]) -> list[type[Any]]:
    """Return the ``DynamicItem`` classes for every id of ``bot.ids`` and each game's
    legacy ids (``GameUI.legacy_pattern``); a press goes to ``press``."""

    def reading(pattern: re.Pattern[str], read: Callable[[str], Any]) -> type[Any]:
        async def from_custom_id(
            cls: type[_Routed],
            interaction: discord.Interaction,
            item: discord.ui.Item[Any],
            match: re.Match[str],
            /,
        ) -> _Routed:
            return cls(match.group(0), read(match.group(0)))

        def body(namespace: dict[str, Any]) -> None:
            namespace["press"] = staticmethod(press)
            namespace["from_custom_id"] = classmethod(from_custom_id)

        return types.new_class(
            "RoutedButton",
            (_Routed, discord.ui.DynamicItem[discord.ui.Button[Any]]),
            {"template": pattern},
            body,
        )

    made = [
        reading(pattern, ids.parse)
        for pattern in (ids.TABLE_RE, ids.CONTROL_RE, ids.LEADERBOARD_RE, ids.REPLAY_RE)
    ]
    made += [
        reading(ui.legacy_pattern, ui.legacy_id) for ui in games if ui.legacy_pattern is not None
    ]
    return made


def is_ours(custom_id: str, games: Sequence[GameUI]) -> bool:
    """Return whether a template handles ``custom_id``."""
    return ids.parse(custom_id) is not None or any(
        ui.legacy_id(custom_id) is not None for ui in games
    )


async def answer_unknown(interaction: discord.Interaction) -> None:
    """Answer a component whose custom id none of our templates knows."""
    await reply_private(interaction, t(lang_of(interaction.locale), "errors.unknown_button"))
