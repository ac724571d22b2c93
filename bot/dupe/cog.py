"""Slash commands: ``/dupe start|hand|status|rules|cancel``, ``/leaderboard`` and ``/stats``."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot import render
from bot.sessions import TableOptions, UserError

if TYPE_CHECKING:
    from bot.app import DupeBot

__all__ = ["DupeCog", "HelpCog", "LeaderboardCog"]

PAGE_SIZE = 10

MEMORY_CHOICES = [
    app_commands.Choice(name="strict — won cards stay face down until scoring", value="strict"),
    app_commands.Choice(name="open — you may look at your own won cards", value="open"),
]
TURN_CHOICES = [
    app_commands.Choice(name="30 seconds", value=30),
    app_commands.Choice(name="1 minute", value=60),
    app_commands.Choice(name="2 minutes", value=120),
    app_commands.Choice(name="5 minutes", value=300),
    app_commands.Choice(name="15 minutes", value=900),
    app_commands.Choice(name="1 hour", value=3600),
    app_commands.Choice(name="1 day", value=86400),
]
PICTURE_CHOICES = [
    app_commands.Choice(name="on — pictures as well as text", value="on"),
    app_commands.Choice(name="off — text only", value="off"),
]
SEATING_CHOICES = [
    app_commands.Choice(
        name="join order — the host sits North, then as members join", value="join"
    ),
    app_commands.Choice(name="random — seats are shuffled when the game starts", value="random"),
]
OPTION_TEXT = {
    "memory": "Whether players may look at their own won cards during a deal",
    "turn_time": "Time for each decision before a computer player decides for you",
    "computers": "Computer players that fill empty seats when the host starts",
    "seating": "Seats in the order members joined, or shuffled at the start",
    "pictures": "Whether tricks, scorings and hands are also shown as pictures",
}
GAME_CHOICES = [app_commands.Choice(name="Dupe", value="dupe")]
SORT_CHOICES = [
    app_commands.Choice(name="rating — the skill the system is sure of (μ − 3σ)", value="rating"),
    app_commands.Choice(name="wins — games won, ties shared", value="wins"),
    app_commands.Choice(name="points — cumulative score", value="points"),
]
COMPUTER_CHOICES = [
    app_commands.Choice(name="expert — the strongest", value="expert"),
    app_commands.Choice(name="greedy — feeds its dupe, plays at random", value="greedy"),
    app_commands.Choice(name="random — plays at random", value="random"),
    app_commands.Choice(name="none — wait for four members", value="none"),
]


@app_commands.guild_only()
class DupeCog(
    commands.GroupCog,
    group_name="dupe",
    group_description="Play Dupe, a card game by David Parlett",
):
    """The ``/dupe`` command group."""

    def __init__(self, bot: DupeBot) -> None:
        self.bot = bot
        super().__init__()

    @app_commands.command(name="start", description="Open a Dupe table in this channel")
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

    async def _start(self, interaction: discord.Interaction, chosen: dict[str, Any]) -> None:
        settings = self.bot.settings
        options: dict[str, Any] = {
            "memory": "strict",
            "turn_seconds": settings.turn_seconds,
            "level": settings.computer_level,
            "seating": "join",
            "pictures": settings.pictures,
        }
        if interaction.guild_id is not None:
            options.update(await self.bot.store.defaults(interaction.guild_id))
        options.update(chosen)
        await self.bot.dupe.start_table(interaction, TableOptions.from_json(options))

    @app_commands.command(
        name="defaults", description="This server's defaults for new tables (managers set them)"
    )
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
            raise UserError("Defaults belong to a server.")
        store = self.bot.store
        current = await store.defaults(guild_id)
        if chosen:
            permissions = interaction.permissions
            if not (permissions and permissions.manage_guild):
                raise UserError("Only a member who can manage this server can change its defaults.")
            current.update(chosen)
            await store.set_defaults(
                guild_id, current, interaction.user.id, discord.utils.utcnow().timestamp()
            )
        settings = self.bot.settings
        shown = {
            "turn_seconds": settings.turn_seconds,
            "level": settings.computer_level,
            "pictures": settings.pictures,
            **current,
        }
        await interaction.response.send_message(
            render.defaults_text(shown, changed=bool(chosen)), ephemeral=True
        )

    @app_commands.command(name="hand", description="See your hand and identity card (privately)")
    async def hand(self, interaction: discord.Interaction) -> None:
        await self.bot.dupe.safely(interaction, self.bot.dupe.show_hand_command(interaction))

    @app_commands.command(name="status", description="Show this channel's Dupe table (privately)")
    async def status(self, interaction: discord.Interaction) -> None:
        await self.bot.dupe.safely(interaction, self.bot.dupe.status(interaction))

    @app_commands.command(name="rules", description="A short summary of the rules of Dupe")
    async def rules(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(render.rules_text(), ephemeral=True)

    @app_commands.command(
        name="cancel", description="Cancel this channel's table (host or server manager)"
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
        name="leaderboard", description="This server's players by rating, wins or points"
    )
    @app_commands.describe(
        game="Which game's leaderboard", sort="What to rank by (rating by default)"
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
            raise UserError("The leaderboard belongs to a server.")
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

    @app_commands.command(name="stats", description="A member's record and rating here")
    @app_commands.describe(member="Whose record (yours if you leave it out)")
    @app_commands.guild_only()
    async def stats(
        self, interaction: discord.Interaction, member: discord.Member | None = None
    ) -> None:
        await self.bot.dupe.safely(interaction, self._stats(interaction, member))

    async def _stats(self, interaction: discord.Interaction, member: discord.Member | None) -> None:
        if interaction.guild_id is None:
            raise UserError("Records belong to a server.")
        who = member or interaction.user
        stats = await self.bot.store.player_stats(interaction.guild_id, who.id)
        name = discord.utils.escape_markdown(who.display_name)
        await interaction.response.send_message(
            embed=render.player_stats(name, stats),
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
            raise UserError("That leaderboard belongs to another server.")
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
            raise UserError("That page of the leaderboard no longer exists.")
        embed = render.leaderboard_page(
            rows,
            game=game,
            sort=sort,
            page=page,
            pages=pages,
            first_place=page * PAGE_SIZE + 1,
            viewer_id=interaction.user.id,
        )
        view = discord.ui.View(timeout=None)
        if pages > 1:
            view.add_item(
                discord.ui.Button(
                    label="◀ Previous",
                    custom_id=f"lb:{guild_id}:{game}:{sort}:{max(page - 1, 0)}",
                    disabled=page == 0,
                )
            )
            view.add_item(
                discord.ui.Button(
                    label="Next ▶",
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
    """``/help``: every command, privately."""

    def __init__(self, bot: DupeBot) -> None:
        self.bot = bot

    @app_commands.command(name="help", description="What this bot's commands do")
    async def help(self, interaction: discord.Interaction) -> None:
        lines = []
        for command in sorted(self.bot.tree.get_commands(), key=lambda c: c.name):
            if isinstance(command, app_commands.Group):
                for sub in command.commands:
                    lines.append(f"**/{command.name} {sub.name}** — {sub.description}")
            elif isinstance(command, app_commands.Command):
                lines.append(f"**/{command.name}** — {command.description}")
        embed = discord.Embed(
            title="Dupe bot — commands",
            description="\n".join(lines)
            + "\n\nStart with **/dupe start** in a channel; everyone joins with the button. "
            "Your cards always come privately: press **My hand** on the table.",
            colour=render.COLOUR,
        )
        await interaction.response.send_message(embed=embed, ephemeral=True)
