"""Buttons that survive restarts: every custom id is parsed by a DynamicItem template.

The custom id carries everything (``dupe:play:<game>:<seat>:<turn>:<card>``), so a button
pressed after a restart, or on a message sent days ago, is understood exactly; whether it
is still valid is decided by the controller, which answers every refusal privately.
Anything that matches none of the templates is answered by :func:`answer_unknown`.
"""

from __future__ import annotations

import re
from typing import Any

import discord

from bot.errors import reply_private, too_late
from bot.i18n import lang_of, t

__all__ = ["DupeButton", "LeaderboardButton", "answer_unknown", "is_ours"]

# game ids and turns are small numbers; cards are two characters; assignments ≤ 4 letters
_DUPE = re.compile(
    r"dupe:(?:"
    r"lobby:(?P<lobby>join|leave|addcpu|start|cancel):(?P<lgame>\d{1,18})"
    r"|hand:(?P<hgame>\d{1,18})"
    r"|pic:(?P<igame>\d{1,18})"
    r"|rematch:(?P<rgame>\d{1,18})"
    r"|play:(?P<pgame>\d{1,18}):(?P<pseat>[0-3]):(?P<pturn>\d{1,2}):(?P<card>[2-9TJQKA][SHDC])"
    r"|give:(?P<ggame>\d{1,18}):(?P<gseat>[0-3]):(?P<gturn>\d{1,2}):(?P<gassign>[NESW]{0,4})"
    r"|giveok:(?P<cgame>\d{1,18}):(?P<cseat>[0-3]):(?P<cturn>\d{1,2}):(?P<cassign>[NESW]{4})"
    r")"
)
_LEADERBOARD = re.compile(
    r"lb:(?P<guild>\d{1,20})(?::(?P<game>dupe):(?P<sort>rating|wins|points))?:(?P<page>\d{1,6})"
)


class RoutedButton:
    """A button known by its custom_id alone: the template's groups say what it does."""

    def __init__(self, custom_id: str, match: dict[str, Any]) -> None:
        super().__init__(discord.ui.Button(custom_id=custom_id, label="·"))  # type: ignore[call-arg]
        self.match = match

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction,
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> Any:
        return cls(match.group(0), match.groupdict())

    async def interaction_check(self, interaction: discord.Interaction, /) -> bool:
        return not too_late(interaction)


class DupeButton(RoutedButton, discord.ui.DynamicItem[discord.ui.Button[Any]], template=_DUPE):
    """Every Dupe button: lobby, My hand, cards, distribution steps."""

    async def callback(self, interaction: discord.Interaction) -> None:
        controller = interaction.client.dupe  # type: ignore[attr-defined]
        m = self.match
        # Every real Dupe button is on a message in its table's channel: a button naming a
        # table of another server is forged (or it would let that server's managers cancel
        # the table, and its members take seats there).
        game_id = int(
            next(
                m[g]
                for g in ("lgame", "hgame", "igame", "rgame", "pgame", "ggame", "cgame")
                if m[g]
            )
        )
        table = controller.sessions.tables.get(game_id)
        if table is not None and table.guild_id != interaction.guild_id:
            lang = lang_of(interaction.locale)
            await reply_private(interaction, t(lang, "errors.other_server"))
            return
        if m["lobby"]:
            coro = controller.lobby(interaction, m["lobby"], int(m["lgame"]))
        elif m["hgame"]:
            coro = controller.show_hand(interaction, int(m["hgame"]))
        elif m["igame"]:
            coro = controller.show_hand_picture(interaction, int(m["igame"]))
        elif m["rgame"]:
            coro = controller.rematch(interaction, int(m["rgame"]))
        elif m["pgame"]:
            coro = controller.play_card(
                interaction, int(m["pgame"]), int(m["pseat"]), int(m["pturn"]), m["card"]
            )
        elif m["ggame"]:
            coro = controller.give_step(
                interaction, int(m["ggame"]), int(m["gseat"]), int(m["gturn"]), m["gassign"]
            )
        else:
            coro = controller.give_confirm(
                interaction, int(m["cgame"]), int(m["cseat"]), int(m["cturn"]), m["cassign"]
            )
        await controller.safely(interaction, coro)


class LeaderboardButton(
    RoutedButton, discord.ui.DynamicItem[discord.ui.Button[Any]], template=_LEADERBOARD
):
    """Previous/next page of ``/leaderboard``."""

    async def callback(self, interaction: discord.Interaction) -> None:
        cog = interaction.client.get_cog("Leaderboard")  # type: ignore[attr-defined]
        controller = interaction.client.dupe  # type: ignore[attr-defined]
        await controller.safely(
            interaction,
            cog.show_page(
                interaction,
                int(self.match["guild"]),
                int(self.match["page"]),
                edit=True,
                game=self.match["game"] or "dupe",
                sort=self.match["sort"] or "points",
            ),
        )


def is_ours(custom_id: str) -> bool:
    """Return whether a DynamicItem template handles ``custom_id``."""
    return bool(_DUPE.fullmatch(custom_id) or _LEADERBOARD.fullmatch(custom_id))


async def answer_unknown(interaction: discord.Interaction) -> None:
    """Answer a component whose custom id none of our templates knows."""
    await reply_private(interaction, t(lang_of(interaction.locale), "errors.unknown_button"))
