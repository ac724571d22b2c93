"""What every game shares beyond its tables: ``/leaderboard``, ``/stats``, ``/history``,
``/replay``, ``/review`` and ``/help``, for every registered game.

A replay shows a finished game step by step (its game's ``GameUI.replay_steps``), privately;
its last step offers the presser's review (``bot.review``), which only a member who played
the game gets. Their buttons and the leaderboard's carry what they show (``bot.ids``), so
they keep working after a restart; a game still being played, a cancelled one or another
server's cannot be replayed nor reviewed.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from bot import ids, render
from bot.commands import Translator, command_text
from bot.controls import Button, Controls
from bot.errors import show_page
from bot.game import GameUI, SeatInfo, SentComponents
from bot.i18n import Lang, lang_of, t
from bot.review import Review, Reviews, review_game
from bot.store import GameRecord
from bot.tables import TableOptions, UserError, engine_options, game_fields

if TYPE_CHECKING:
    from bot.host import Host

__all__ = ["PAGE_SIZE", "Community", "command_lines"]

PAGE_SIZE = 10
HISTORY_SIZE = 10
_SORT_KEYS = ("rating", "wins", "points")


def _seats(record: GameRecord) -> dict[int, SeatInfo]:
    return {seat: SeatInfo.of(r) for seat, r in record.seats.items()}


class Community:
    """The shared commands and the pages their buttons turn."""

    def __init__(self, bot: Host, games: Callable[[], Sequence[GameUI]]) -> None:
        self.bot = bot
        self._games = games
        self.reviews = Reviews()

    def game(self, name: str | None) -> GameUI:
        """Return the game called ``name`` (the first registered game for ``None``)."""
        games = self._games()
        if name is None:
            return games[0]
        for ui in games:
            if ui.name == name:
                return ui
        raise UserError("cog.no_such_game")

    # --- commands ------------------------------------------------------------------

    def commands(self) -> list[app_commands.Command[Any, ..., None]]:
        """Return the shared slash commands, their game choices the registered games."""
        return [*self._rating_commands(), *self._history_commands()]

    def _rating_commands(self) -> list[app_commands.Command[Any, ..., None]]:
        """Return ``/leaderboard`` and ``/stats``."""
        safely = self.bot.controller.safely
        game_choices = [
            app_commands.Choice(name=command_text(f"{ui.name}.title"), value=ui.name)
            for ui in self._games()
        ]
        sort_choices = [
            app_commands.Choice(name=command_text(f"commands.sort_{key}"), value=key)
            for key in _SORT_KEYS
        ]

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
        @app_commands.choices(game=game_choices, sort=sort_choices)
        @app_commands.guild_only()
        async def leaderboard(
            interaction: discord.Interaction,
            game: app_commands.Choice[str] | None = None,
            sort: app_commands.Choice[str] | None = None,
        ) -> None:
            async def run() -> None:
                if interaction.guild_id is None:
                    raise UserError("cog.leaderboard_need_server")
                page = ids.LeaderboardPage(
                    interaction.guild_id,
                    self.game(game.value if game else None).name,
                    sort.value if sort else "rating",
                    0,
                )
                await self.show_page(interaction, page, edit=False)

            await safely(interaction, run())

        @app_commands.command(
            name=command_text("commands.stats_name"),
            description=command_text("commands.stats_description"),
        )
        @app_commands.rename(
            member=command_text("commands.stats_member_name"),
            game=command_text("commands.leaderboard_game_name"),
        )
        @app_commands.describe(
            member=command_text("commands.stats_member_description"),
            game=command_text("commands.leaderboard_game_description"),
        )
        @app_commands.choices(game=game_choices)
        @app_commands.guild_only()
        async def stats(
            interaction: discord.Interaction,
            member: discord.Member | None = None,
            game: app_commands.Choice[str] | None = None,
        ) -> None:
            chosen = game.value if game else None
            await safely(interaction, self._stats(interaction, member, chosen))

        return [leaderboard, stats]

    def _history_commands(self) -> list[app_commands.Command[Any, ..., None]]:
        """Return ``/history``, ``/replay``, ``/review`` and ``/help``."""
        safely = self.bot.controller.safely

        @app_commands.command(
            name=command_text("history.history_name"),
            description=command_text("history.history_description"),
        )
        @app_commands.guild_only()
        async def history(interaction: discord.Interaction) -> None:
            await safely(interaction, self._history(interaction))

        @app_commands.command(
            name=command_text("history.replay_name"),
            description=command_text("history.replay_description"),
        )
        @app_commands.rename(game=command_text("history.replay_game_name"))
        @app_commands.describe(game=command_text("history.replay_game_description"))
        @app_commands.guild_only()
        async def replay(
            interaction: discord.Interaction, game: app_commands.Range[int, 1, 2**53 - 1]
        ) -> None:
            await safely(interaction, self.show_replay(interaction, game, 0, edit=False))

        @app_commands.command(
            name=command_text("history.review_name"),
            description=command_text("history.review_description"),
        )
        @app_commands.rename(game=command_text("history.replay_game_name"))
        @app_commands.describe(game=command_text("history.replay_game_description"))
        @app_commands.guild_only()
        async def review(
            interaction: discord.Interaction, game: app_commands.Range[int, 1, 2**53 - 1]
        ) -> None:
            await safely(interaction, self.show_review(interaction, game, 0, edit=False))

        @app_commands.command(
            name=command_text("commands.help_name"),
            description=command_text("commands.help_description"),
        )
        async def help(interaction: discord.Interaction) -> None:
            await safely(interaction, self._help(interaction))

        return [history, replay, review, help]

    # --- leaderboard and stats -----------------------------------------------------

    async def _stats(
        self, interaction: discord.Interaction, member: discord.Member | None, game: str | None
    ) -> None:
        if interaction.guild_id is None:
            raise UserError("cog.stats_need_server")
        ui = self.game(game)
        who = member or interaction.user
        stats = await self.bot.store.player_stats(interaction.guild_id, who.id, ui.name)
        name = discord.utils.escape_markdown(who.display_name)
        await interaction.response.send_message(
            embed=render.player_stats(ui, name, stats, lang=lang_of(interaction.locale)),
            ephemeral=True,
            allowed_mentions=discord.AllowedMentions.none(),
        )

    async def show_page(
        self, interaction: discord.Interaction, page: ids.LeaderboardPage, *, edit: bool
    ) -> None:
        """Show one page of the leaderboard (a new private reply, or an edit when paging)."""
        if interaction.guild_id != page.guild:
            raise UserError("cog.leaderboard_other_server")
        ui = self.game(page.game)
        rows, total = await self.bot.store.leaderboard(
            page.guild,
            game=ui.name,
            sort=page.sort,
            computers=True,
            offset=page.page * PAGE_SIZE,
            limit=PAGE_SIZE,
        )
        pages = max(1, -(-total // PAGE_SIZE))
        if page.page >= pages:
            raise UserError("cog.leaderboard_page_gone")
        lang = lang_of(interaction.locale)
        embed = render.leaderboard_page(
            rows,
            game=ui.name,
            sort=page.sort,
            page=page.page,
            pages=pages,
            first_place=page.page * PAGE_SIZE + 1,
            viewer_id=interaction.user.id,
            lang=lang,
        )
        view = Controls()
        if pages > 1:
            view.add_item(
                Button(
                    label=t(lang, "render.button_previous"),
                    custom_id=ids.leaderboard(
                        page.guild, ui.name, page.sort, max(page.page - 1, 0)
                    ),
                    disabled=page.page == 0,
                )
            )
            view.add_item(
                Button(
                    label=t(lang, "render.button_next"),
                    custom_id=ids.leaderboard(
                        page.guild, ui.name, page.sort, min(page.page + 1, pages - 1)
                    ),
                    disabled=page.page >= pages - 1,
                )
            )
        sent = SentComponents(view.to_components())
        await show_page(interaction, [embed], sent, edit=edit)

    # --- history and replays -------------------------------------------------------

    async def _history(self, interaction: discord.Interaction) -> None:
        if interaction.guild_id is None:
            raise UserError("errors.history_server_only")
        games = await self.bot.store.recent_games(interaction.guild_id, None, limit=HISTORY_SIZE)
        lang = lang_of(interaction.locale)
        events: list[str] = []
        matches = getattr(self.bot, "matches", None)
        if matches is not None:  # events over several tables: a duplicate match's standings
            events = await matches.finished_lines(interaction.guild_id, lang)
            # A table of a match still being played keeps its result to itself.
            games = [g for g in games if not await matches.hidden(g.record.id)]
        await interaction.response.send_message(
            embed=render.history_page(games, interaction.guild_id, lang=lang, events=events),
            ephemeral=True,
            allowed_mentions=discord.AllowedMentions.none(),
        )

    async def show_replay(
        self,
        interaction: discord.Interaction,
        game_id: int,
        step: int,
        *,
        edit: bool,
        tag: str = "",
    ) -> None:
        """Show one step of a finished game's replay (a new private reply, or an edit of
        the member's own private replay when a button was pressed); the last step offers
        the presser's review when they played the game."""
        record = await self.finished(interaction, game_id)
        ui = self.game(record.game)
        table_options = TableOptions.from_json(record.options, game_fields(ui))
        options = engine_options(ui, table_options, len(record.seats))
        steps = ui.replay_steps(record.seed, options, record.moves)
        if not 0 <= step < len(steps):
            raise UserError("errors.no_replay_step")
        lang: Lang = lang_of(interaction.locale)
        shown = ui.replay_page(game_id, steps, step, _seats(record), lang)
        played = any(seat.user_id == interaction.user.id for seat in record.seats.values())
        if step == len(steps) - 1 and played:
            if shown.view is None:
                shown.view = Controls()
            shown.view.add_item(
                Button(
                    label=t(lang, "review.button"),
                    custom_id=ids.review(game_id, 0, "o"),
                )
            )
        await show_page(interaction, shown.embeds, shown.buttons(), edit=edit)

    async def finished(
        self, interaction: discord.Interaction, game_id: int, *, review: bool = False
    ) -> GameRecord:
        """Return the record of finished game ``game_id`` of the interaction's server, or
        refuse, in the words of a replay or a ``review``: no such game here, still being
        played, cancelled, or a table of a match whose trays are still played elsewhere."""
        words = "review_" if review else ""
        record = None
        # Discord keeps /replay's game within its range; a forged payload may carry any
        # value, and SQLite cannot even look up an integer of 2**63 or more.
        if isinstance(game_id, int) and 0 < game_id < 2**63:
            record = await self.bot.store.game(game_id)
        if record is None or record.guild_id != interaction.guild_id:
            raise UserError("errors.no_such_game", game=game_id)
        if record.status in ("lobby", "playing"):
            raise UserError(f"errors.{words}still_playing", game=game_id)
        if record.status != "finished":
            raise UserError(f"errors.{words}game_cancelled", game=game_id)
        matches = getattr(self.bot, "matches", None)
        if matches is not None and await matches.hidden(game_id):
            # The same trays may still be played at another table of its match.
            raise UserError(f"errors.{words or 'replay_'}in_match", game=game_id)
        return record

    async def show_review(
        self, interaction: discord.Interaction, game_id: int, page: int, *, edit: bool
    ) -> None:
        """Show page ``page`` of the presser's review of finished game ``game_id`` (a new
        private reply, or an edit of their own review when a page button was pressed);
        only a member who played the game has one."""
        record = await self.finished(interaction, game_id, review=True)
        players = [p for p, seat in record.seats.items() if seat.user_id == interaction.user.id]
        if not players:
            raise UserError("errors.review_not_played", game=game_id)
        player = players[0]
        ui = self.game(record.game)
        table_options = TableOptions.from_json(record.options, game_fields(ui))
        options = engine_options(ui, table_options, len(record.seats))
        seed, moves = record.seed, list(record.moves)

        def work() -> Review:
            return review_game(ui, seed, options, moves, player)

        await self.reviews.show(interaction, ui, game_id, player, page, work, edit=edit)

    async def close(self) -> None:
        """Tell members still waiting for a review that the bot stopped first."""
        await self.reviews.close()

    # --- help ----------------------------------------------------------------------

    async def _help(self, interaction: discord.Interaction) -> None:
        lang = lang_of(interaction.locale)
        lines = await command_lines(self.bot.tree, lang)
        starts = [
            f"/{t(lang, f'{ui.name}.command_name')} {t(lang, f'{ui.name}.command_start_name')}"
            for ui in self._games()
        ]
        # The bot's own name on Discord (its application's user): a bot of many games is
        # no one game's bot.
        me = interaction.client.user
        assert me is not None  # only a bot that is logged in gets interactions
        embed = discord.Embed(
            title=t(lang, "cog.help_title", name=me.name),
            description="\n".join(lines)
            + "\n\n"
            + t(lang, "cog.help_start", start=", ".join(starts)),
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
