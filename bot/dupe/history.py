"""``/history`` and ``/replay``: this server's finished games, and a private step-through.

A replay shows each deal as dealt (every hand and identity card: the game is over, so
nothing is hidden any more), each trick as it was revealed and distributed, each deal's
scoring and the final standings. Its buttons carry the game and the step, so they keep
working after a restart; a game still being played, a cancelled one or another server's
cannot be replayed.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot import render
from bot.dupe.buttons import RoutedButton
from bot.i18n import command_text, lang_of
from bot.render import SeatInfo
from bot.replay import replay_steps
from bot.sessions import TableOptions, UserError
from bot.store import GameRecord

if TYPE_CHECKING:
    from bot.app import DupeBot

__all__ = ["HistoryCog", "ReplayButton", "is_replay"]

_REPLAY = re.compile(r"rp:(?P<game>\d{1,18}):(?P<step>\d{1,3}):(?P<tag>p|n|d[1-4])")
HISTORY_SIZE = 10


def is_replay(custom_id: str) -> bool:
    """Return whether ``custom_id`` is a replay button's."""
    return _REPLAY.fullmatch(custom_id) is not None


def _seats(record: GameRecord) -> dict[int, SeatInfo]:
    return {
        seat: SeatInfo(name=discord.utils.escape_markdown(r.name), user_id=r.user_id, level=r.level)
        for seat, r in record.seats.items()
    }


class HistoryCog(commands.Cog, name="History"):
    """``/history`` and ``/replay``."""

    def __init__(self, bot: DupeBot) -> None:
        self.bot = bot

    @app_commands.command(
        name=command_text("history.history_name"),
        description=command_text("history.history_description"),
    )
    @app_commands.guild_only()
    async def history(self, interaction: discord.Interaction) -> None:
        await self.bot.dupe.safely(interaction, self._history(interaction))

    async def _history(self, interaction: discord.Interaction) -> None:
        if interaction.guild_id is None:
            raise UserError("errors.history_server_only")
        games = await self.bot.store.recent_games(
            interaction.guild_id, game="dupe", limit=HISTORY_SIZE
        )
        await interaction.response.send_message(
            embed=render.history_page(
                games, interaction.guild_id, lang=lang_of(interaction.locale)
            ),
            ephemeral=True,
            allowed_mentions=discord.AllowedMentions.none(),
        )

    @app_commands.command(
        name=command_text("history.replay_name"),
        description=command_text("history.replay_description"),
    )
    @app_commands.rename(game=command_text("history.replay_game_name"))
    @app_commands.describe(game=command_text("history.replay_game_description"))
    @app_commands.guild_only()
    async def replay(
        self, interaction: discord.Interaction, game: app_commands.Range[int, 1, 2**53 - 1]
    ) -> None:
        await self.bot.dupe.safely(interaction, self.show(interaction, game, 0, edit=False))

    async def show(
        self, interaction: discord.Interaction, game_id: int, step: int, *, edit: bool
    ) -> None:
        """Show one step of a finished game's replay (a new private reply, or an edit of
        the member's own private replay when a button was pressed)."""
        record = None
        # Discord keeps /replay's game within its range; a forged payload may carry any
        # value, and SQLite cannot even look up an integer of 2**63 or more.
        if isinstance(game_id, int) and 0 < game_id < 2**63:
            record = await self.bot.store.game(game_id)
        if record is None or record.guild_id != interaction.guild_id:
            raise UserError("errors.no_such_game", game=game_id)
        if record.status in ("lobby", "playing"):
            raise UserError("errors.still_playing", game=game_id)
        if record.status != "finished":
            raise UserError("errors.game_cancelled", game=game_id)
        options = TableOptions.from_json(record.options).engine_options()
        steps = replay_steps(record.seed, options, record.moves)
        if not 0 <= step < len(steps):
            raise UserError("errors.no_replay_step")
        shown = render.replay_step(
            game_id, steps, step, _seats(record), lang=lang_of(interaction.locale)
        )
        message = interaction.message
        if edit and message is not None and message.flags.ephemeral:
            await interaction.response.edit_message(embeds=shown.embeds, view=shown.buttons())
        else:
            await interaction.response.send_message(
                embeds=shown.embeds,
                view=shown.buttons(),
                ephemeral=True,
                allowed_mentions=discord.AllowedMentions.none(),
            )


class ReplayButton(RoutedButton, discord.ui.DynamicItem[discord.ui.Button[Any]], template=_REPLAY):
    """Previous / Next / Deal N of a replay."""

    @property
    def game(self) -> int:
        return int(self.match["game"])

    @property
    def step(self) -> int:
        return int(self.match["step"])

    async def callback(self, interaction: discord.Interaction) -> None:
        bot = interaction.client
        cog = bot.get_cog("History")  # type: ignore[attr-defined]
        await bot.dupe.safely(  # type: ignore[attr-defined]
            interaction, cog.show(interaction, self.game, self.step, edit=True)
        )
