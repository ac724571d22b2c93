"""Slash commands: ``/dupe start|hand|status|rules|cancel``, ``/leaderboard`` and ``/stats``."""

from __future__ import annotations

import io
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot import pictures, render
from bot.i18n import Lang, Translator, command_text, lang_of, t
from bot.sessions import TableOptions, UserError

if TYPE_CHECKING:
    from bot.app import DupeBot

__all__ = ["DupeCog", "HelpCog", "LeaderboardCog"]

PAGE_SIZE = 10

MEMORY_CHOICES = [
    app_commands.Choice(name=command_text("commands.memory_strict"), value="strict"),
    app_commands.Choice(name=command_text("commands.memory_open"), value="open"),
]
TURN_CHOICES = [
    app_commands.Choice(name=command_text("commands.turn_30"), value=30),
    app_commands.Choice(name=command_text("commands.turn_60"), value=60),
    app_commands.Choice(name=command_text("commands.turn_120"), value=120),
    app_commands.Choice(name=command_text("commands.turn_300"), value=300),
    app_commands.Choice(name=command_text("commands.turn_900"), value=900),
    app_commands.Choice(name=command_text("commands.turn_3600"), value=3600),
    app_commands.Choice(name=command_text("commands.turn_86400"), value=86400),
]
PICTURE_CHOICES = [
    app_commands.Choice(name=command_text("commands.pictures_on"), value="on"),
    app_commands.Choice(name=command_text("commands.pictures_off"), value="off"),
]
SEATING_CHOICES = [
    app_commands.Choice(name=command_text("commands.seating_join"), value="join"),
    app_commands.Choice(name=command_text("commands.seating_random"), value="random"),
]
OPTION_NAMES = {
    "memory": command_text("commands.memory_name"),
    "turn_time": command_text("commands.turn_time_name"),
    "computers": command_text("commands.computers_name"),
    "seating": command_text("commands.seating_name"),
    "pictures": command_text("commands.pictures_name"),
}
OPTION_TEXT = {
    "memory": command_text("commands.memory_description"),
    "turn_time": command_text("commands.turn_time_description"),
    "computers": command_text("commands.computers_description"),
    "seating": command_text("commands.seating_description"),
    "pictures": command_text("commands.pictures_description"),
}
GAME_CHOICES = [app_commands.Choice(name=command_text("common.game_dupe"), value="dupe")]
SORT_CHOICES = [
    app_commands.Choice(name=command_text("commands.sort_rating"), value="rating"),
    app_commands.Choice(name=command_text("commands.sort_wins"), value="wins"),
    app_commands.Choice(name=command_text("commands.sort_points"), value="points"),
]
COMPUTER_CHOICES = [
    app_commands.Choice(name=command_text("commands.computers_expert"), value="expert"),
    app_commands.Choice(name=command_text("commands.computers_greedy"), value="greedy"),
    app_commands.Choice(name=command_text("commands.computers_random"), value="random"),
    app_commands.Choice(name=command_text("commands.computers_none"), value="none"),
]


@app_commands.guild_only()
class DupeCog(
    commands.GroupCog,
    group_name=command_text("commands.dupe_name"),
    group_description=command_text("commands.dupe_description"),
):
    """The ``/dupe`` command group."""

    def __init__(self, bot: DupeBot) -> None:
        self.bot = bot
        super().__init__()

    @app_commands.command(
        name=command_text("commands.dupe_start_name"),
        description=command_text("commands.dupe_start_description"),
    )
    @app_commands.rename(**OPTION_NAMES)
    @app_commands.describe(**OPTION_TEXT)
    @app_commands.choices(
        memory=MEMORY_CHOICES,
        computers=COMPUTER_CHOICES,
        pictures=PICTURE_CHOICES,
        seating=SEATING_CHOICES,
    )
    @app_commands.choices(turn_time=TURN_CHOICES)
    async def start(
        self,
        interaction: discord.Interaction,
        memory: app_commands.Choice[str] | None = None,
        turn_time: app_commands.Choice[int] | None = None,
        computers: app_commands.Choice[str] | None = None,
        seating: app_commands.Choice[str] | None = None,
        pictures: app_commands.Choice[str] | None = None,
    ) -> None:
        chosen = _chosen(memory, turn_time, computers, seating, pictures)
        await self.bot.dupe.safely(interaction, self._start(interaction, chosen))

    async def _table_defaults(
        self, guild_id: int | None, server: dict[str, Any] | None = None
    ) -> dict[str, Any]:
        """Return the options a new table gets when /dupe start chooses none: this bot's
        settings, overridden by the server's defaults (``server``, read if not given)."""
        settings = self.bot.settings
        if server is None:
            server = (
                await self.bot.store.defaults(guild_id, game="dupe") if guild_id is not None else {}
            )
        return {
            "memory": "strict",
            "turn_seconds": settings.turn_seconds,
            "level": settings.computer_level,
            "seating": "join",
            "pictures": settings.pictures,
            **server,
        }

    async def _start(self, interaction: discord.Interaction, chosen: dict[str, Any]) -> None:
        options = await self._table_defaults(interaction.guild_id)
        options.update(chosen)
        await self.bot.dupe.start_table(interaction, TableOptions.from_json(options))

    @app_commands.command(
        name=command_text("commands.dupe_defaults_name"),
        description=command_text("commands.dupe_defaults_description"),
    )
    @app_commands.rename(**OPTION_NAMES)
    @app_commands.describe(**OPTION_TEXT)
    @app_commands.choices(
        memory=MEMORY_CHOICES,
        computers=COMPUTER_CHOICES,
        pictures=PICTURE_CHOICES,
        seating=SEATING_CHOICES,
    )
    @app_commands.choices(turn_time=TURN_CHOICES)
    async def defaults(
        self,
        interaction: discord.Interaction,
        memory: app_commands.Choice[str] | None = None,
        turn_time: app_commands.Choice[int] | None = None,
        computers: app_commands.Choice[str] | None = None,
        seating: app_commands.Choice[str] | None = None,
        pictures: app_commands.Choice[str] | None = None,
    ) -> None:
        chosen = _chosen(memory, turn_time, computers, seating, pictures)
        await self.bot.dupe.safely(interaction, self._defaults(interaction, chosen))

    async def _defaults(self, interaction: discord.Interaction, chosen: dict[str, Any]) -> None:
        guild_id = interaction.guild_id
        if guild_id is None:
            raise UserError("cog.defaults_need_server")
        store = self.bot.store
        current = await store.defaults(guild_id, game="dupe")
        if chosen:
            permissions = interaction.permissions
            if not (permissions and permissions.manage_guild):
                raise UserError("cog.defaults_managers_only")
            current.update(chosen)
            await store.set_defaults(
                guild_id,
                current,
                interaction.user.id,
                discord.utils.utcnow().timestamp(),
                game="dupe",
            )
        shown = await self._table_defaults(guild_id, current)
        lang = lang_of(interaction.locale)
        await interaction.response.send_message(
            render.defaults_text(shown, changed=bool(chosen), lang=lang), ephemeral=True
        )

    @app_commands.command(
        name=command_text("commands.dupe_hand_name"),
        description=command_text("commands.dupe_hand_description"),
    )
    async def hand(self, interaction: discord.Interaction) -> None:
        await self.bot.dupe.safely(interaction, self.bot.dupe.show_hand_command(interaction))

    @app_commands.command(
        name=command_text("commands.dupe_status_name"),
        description=command_text("commands.dupe_status_description"),
    )
    async def status(self, interaction: discord.Interaction) -> None:
        await self.bot.dupe.safely(interaction, self.bot.dupe.status(interaction))

    @app_commands.command(
        name=command_text("commands.dupe_rules_name"),
        description=command_text("commands.dupe_rules_description"),
    )
    async def rules(self, interaction: discord.Interaction) -> None:
        await self.bot.dupe.safely(interaction, self._rules(interaction))

    async def _rules(self, interaction: discord.Interaction) -> None:
        """The rules, privately, with the rules' third worked scoring example as text and
        (unless the server's defaults or this bot turn pictures off) as a picture."""
        lang = lang_of(interaction.locale)
        text = render.rules_text(lang=lang) + "\n\n" + pictures.rules_example_caption(lang)
        if not (await self._table_defaults(interaction.guild_id))["pictures"]:
            await interaction.response.send_message(text, ephemeral=True)
            return
        data = await pictures.render_off_loop(pictures.rules_example_picture, lang)
        name = pictures.picture_filename("rules")
        await interaction.response.send_message(
            text, file=discord.File(io.BytesIO(data), filename=name), ephemeral=True
        )

    @app_commands.command(
        name=command_text("commands.dupe_cancel_name"),
        description=command_text("commands.dupe_cancel_description"),
    )
    async def cancel(self, interaction: discord.Interaction) -> None:
        await self.bot.dupe.safely(interaction, self.bot.dupe.cancel_command(interaction))


def _chosen(
    memory: app_commands.Choice[str] | None,
    turn_time: app_commands.Choice[int] | None,
    computers: app_commands.Choice[str] | None,
    seating: app_commands.Choice[str] | None,
    pictures: app_commands.Choice[str] | None,
) -> dict[str, Any]:
    """Return the table options a command was given, by stored key."""
    chosen: dict[str, Any] = {}
    if memory is not None:
        chosen["memory"] = memory.value
    if turn_time is not None:
        chosen["turn_seconds"] = turn_time.value
    if computers is not None:
        chosen["level"] = None if computers.value == "none" else computers.value
    if seating is not None:
        chosen["seating"] = seating.value
    if pictures is not None:
        chosen["pictures"] = pictures.value == "on"
    return chosen


class LeaderboardCog(commands.Cog, name="Leaderboard"):
    """``/leaderboard``: this server's cumulative Dupe scores."""

    def __init__(self, bot: DupeBot) -> None:
        self.bot = bot

    @app_commands.command(
        name=command_text("commands.leaderboard_name"),
        description=command_text("commands.leaderboard_description"),
    )
    @app_commands.rename(
        game=command_text("commands.leaderboard_game_name"),
        sort=command_text("commands.leaderboard_sort_name"),
    )
    @app_commands.describe(
        game=command_text("commands.leaderboard_game_description"),
        sort=command_text("commands.leaderboard_sort_description"),
    )
    @app_commands.choices(game=GAME_CHOICES, sort=SORT_CHOICES)
    @app_commands.guild_only()
    async def leaderboard(
        self,
        interaction: discord.Interaction,
        game: app_commands.Choice[str] | None = None,
        sort: app_commands.Choice[str] | None = None,
    ) -> None:
        if interaction.guild_id is None:
            raise UserError("cog.leaderboard_need_server")
        await self.bot.dupe.safely(
            interaction,
            self.show_page(
                interaction,
                interaction.guild_id,
                0,
                edit=False,
                game=game.value if game else "dupe",
                sort=sort.value if sort else "rating",
            ),
        )

    @app_commands.command(
        name=command_text("commands.stats_name"),
        description=command_text("commands.stats_description"),
    )
    @app_commands.rename(member=command_text("commands.stats_member_name"))
    @app_commands.describe(member=command_text("commands.stats_member_description"))
    @app_commands.guild_only()
    async def stats(
        self, interaction: discord.Interaction, member: discord.Member | None = None
    ) -> None:
        await self.bot.dupe.safely(interaction, self._stats(interaction, member))

    async def _stats(self, interaction: discord.Interaction, member: discord.Member | None) -> None:
        if interaction.guild_id is None:
            raise UserError("cog.stats_need_server")
        who = member or interaction.user
        stats = await self.bot.store.player_stats(interaction.guild_id, who.id, game="dupe")
        name = discord.utils.escape_markdown(who.display_name)
        await interaction.response.send_message(
            embed=render.player_stats(name, stats, lang=lang_of(interaction.locale)),
            ephemeral=True,
            allowed_mentions=discord.AllowedMentions.none(),
        )

    async def show_page(
        self,
        interaction: discord.Interaction,
        guild_id: int,
        page: int,
        *,
        edit: bool,
        game: str = "dupe",
        sort: str = "rating",
    ) -> None:
        """Show one page of the leaderboard (a new private reply, or an edit when paging)."""
        if interaction.guild_id != guild_id:
            raise UserError("cog.leaderboard_other_server")
        rows, total = await self.bot.store.leaderboard(
            guild_id,
            game=game,
            sort=sort,
            computers=True,
            offset=page * PAGE_SIZE,
            limit=PAGE_SIZE,
        )
        pages = max(1, -(-total // PAGE_SIZE))
        if page >= pages:
            raise UserError("cog.leaderboard_page_gone")
        lang = lang_of(interaction.locale)
        embed = render.leaderboard_page(
            rows,
            game=game,
            sort=sort,
            page=page,
            pages=pages,
            first_place=page * PAGE_SIZE + 1,
            viewer_id=interaction.user.id,
            lang=lang,
        )
        view = discord.ui.View(timeout=None)
        if pages > 1:
            view.add_item(
                discord.ui.Button(
                    label=t(lang, "render.button_previous"),
                    custom_id=f"lb:{guild_id}:{game}:{sort}:{max(page - 1, 0)}",
                    disabled=page == 0,
                )
            )
            view.add_item(
                discord.ui.Button(
                    label=t(lang, "render.button_next"),
                    custom_id=f"lb:{guild_id}:{game}:{sort}:{min(page + 1, pages - 1)}",
                    disabled=page >= pages - 1,
                )
            )
        view.stop()
        # Page in place only on a private leaderboard: a forged lb: button on a public
        # message (the table) gets a new private page instead of replacing that message.
        message = interaction.message
        if edit and message is not None and message.flags.ephemeral:
            await interaction.response.edit_message(embed=embed, view=view)
        else:
            await interaction.response.send_message(
                embed=embed,
                view=view,
                ephemeral=True,
                allowed_mentions=discord.AllowedMentions.none(),
            )


class HelpCog(commands.Cog, name="Help"):
    """``/help``: every command, privately, in the member's language."""

    def __init__(self, bot: DupeBot) -> None:
        self.bot = bot

    @app_commands.command(
        name=command_text("commands.help_name"),
        description=command_text("commands.help_description"),
    )
    async def help(self, interaction: discord.Interaction) -> None:
        lang = lang_of(interaction.locale)
        lines = await command_lines(self.bot.tree, lang)
        group, start = t(lang, "commands.dupe_name"), t(lang, "commands.dupe_start_name")
        embed = discord.Embed(
            title=t(lang, "cog.help_title"),
            description="\n".join(lines)
            + "\n\n"
            + t(lang, "cog.help_start", start=f"/{group} {start}"),
            colour=render.COLOUR,
        )
        await interaction.response.send_message(embed=embed, ephemeral=True)


async def command_lines(tree: app_commands.CommandTree[Any], lang: Lang) -> list[str]:
    """Return a line per slash command, ``**/name** — description``, as Discord shows it to
    a member reading ``lang`` (a text without a German translation reads English), by name
    and a group's subcommands in their own order."""
    translator = Translator()
    shown: list[tuple[str, list[str]]] = []
    for command in tree.get_commands():
        if not isinstance(command, app_commands.Command | app_commands.Group):
            continue
        payload = await command.get_translated_payload(tree, translator)
        name = _shown(payload, "name", lang)
        if isinstance(command, app_commands.Group):
            subcommands = [o for o in payload.get("options", []) if o.get("type") == 1]
            lines = [
                f"**/{name} {_shown(sub, 'name', lang)}** — {_shown(sub, 'description', lang)}"
                for sub in subcommands
            ]
        else:
            lines = [f"**/{name}** — {_shown(payload, 'description', lang)}"]
        shown.append((name, lines))
    return [line for _, lines in sorted(shown, key=lambda item: item[0]) for line in lines]


def _shown(payload: dict[str, Any], field: str, lang: Lang) -> str:
    """Return a command payload's ``name`` or ``description`` in ``lang``."""
    if lang == "de":
        localized = payload.get(f"{field}_localizations") or {}
        german = localized.get(discord.Locale.german.value)
        if german:
            return str(german)
    return str(payload[field])
