"""The commands of a duplicate whist match (``docs/rules/whist.md`` §7): ``/whist
duplicate create|table|join|leave|start|results|status|cancel`` (``WhistUI.subcommands``).
Each checks the member's request against the match's document, changes it through the
core's ``bot.matches.Matches`` and answers; the match's rules
(:mod:`bot.games.whist.duplicate_rules`) say what follows."""

from __future__ import annotations

import copy
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from bot import suits
from bot.commands import command_text
from bot.games.whist.duplicate_plan import (
    DEFAULT_TRAYS,
    FORMATS,
    GAME,
    MAX_TRAYS,
    SEAT_LETTERS,
    TABLES,
    plan,
)
from bot.games.whist.duplicate_rules import RULES
from bot.games.whist.duplicate_texts import parts_of, results_blocks, status_text
from bot.i18n import Text, lang_of, seat_name, t
from bot.matches import Effect, Matches
from bot.tables import UserError
from engine.whist import mnemonic_trump
from engine.whist.duplicate_table import DUPLICATE_GAME

if TYPE_CHECKING:
    from bot.host import Host

__all__ = ["duplicate_group"]


def _matches(bot: Host) -> Matches:
    found: Matches | None = getattr(bot, "matches", None)
    if found is None:
        raise UserError("errors.game_gone")
    return found


async def _match_here(bot: Host, guild_id: int | None, channel_id: int | None) -> Any:
    """Return the live match one of whose tables is this channel, if any."""
    for record in await _matches(bot).live(GAME):
        if record.guild_id == guild_id and channel_id in record.data["channels"]:
            return record
    return None


async def do_create(
    bot: Host,
    interaction: discord.Interaction,
    fmt: str,
    tables: int | None,
    trays: int | None,
    trump: str | None,
    hours: int | None,
    level: str | None,
) -> None:
    """``/whist duplicate create``: a match whose table 1 is this channel."""
    guild_id, channel_id = interaction.guild_id, interaction.channel_id
    if guild_id is None or channel_id is None:
        raise UserError("table.no_dms", game=Text(f"{GAME}.title"))
    count, per, total = _sizes(fmt, tables, trays, trump)
    hours = 24 if hours is None else hours
    if hours < 1:
        raise UserError("whist.dup_deadline_past")
    levels = DUPLICATE_GAME.levels
    chosen = level if level in levels else bot.settings.level_for(DUPLICATE_GAME.name)
    if chosen not in levels:
        chosen = DUPLICATE_GAME.default_level
    controller = bot.controller
    if controller.tables.table_in(channel_id) is not None:
        raise UserError("whist.dup_channel_busy")
    if await _match_here(bot, guild_id, channel_id) is not None:
        raise UserError("whist.dup_channel_in_match")
    # A member hosts as many matches at once as lobbies (the server's lobby limit).
    most = controller.tables.limits.per_member
    live = await _matches(bot).live(GAME)
    mine = [r for r in live if r.guild_id == guild_id and r.data["creator"] == interaction.user.id]
    if most and len(mine) >= most:
        raise UserError("whist.dup_too_many", n=most)
    seed = controller.tables.new_seed()
    declared = None if trump in (None, "turned") else trump
    if fmt == "mnemonic" and declared is None:
        declared = mnemonic_trump(seed).letter
    data = _document(bot, fmt, seed, count, per, declared, hours, chosen)
    data["creator"] = interaction.user.id
    data["channels"] = [channel_id] + [None] * (count - 1)
    matches = _matches(bot)
    match_id = await matches.create(GAME, guild_id, data)

    def numbered(record: Any) -> list[Effect]:
        record.data["id"] = record.id
        return []

    await matches.update(match_id, numbered)
    lang = lang_of(interaction.guild_locale)
    text = t(
        lang,
        "whist.dup_created",
        match=match_id,
        format=t(lang, f"whist.dup_format_{fmt}"),
        tables=count,
        trays=total,
        deadline=int(data["deadline"]),
    )
    await interaction.response.send_message(text)


def _sizes(
    fmt: str, tables: int | None, trays: int | None, trump: str | None
) -> tuple[int, int, int]:
    """Return the match's tables, its trays per table (set, session) and in all, or refuse
    a format, trump or size the format does not allow."""
    if fmt not in FORMATS or trump not in (None, "turned", "C", "D", "H", "S"):
        raise UserError("whist.dup_no_format")
    least, most = TABLES[fmt]
    count = least if tables is None else tables
    if not least <= count <= most:
        raise UserError(f"whist.dup_tables_{fmt}", n=count)
    per = DEFAULT_TRAYS[fmt] if trays is None else trays
    total = per * count if fmt == "mitchell" else per
    if per < 1 or total > MAX_TRAYS:
        raise UserError("whist.dup_trays_range", n=MAX_TRAYS)
    return count, per, total


def _document(
    bot: Host,
    fmt: str,
    seed: int,
    count: int,
    per: int,
    declared: str | None,
    hours: int,
    level: str | None,
) -> dict[str, Any]:
    """Return a new match's document, open, nobody seated (its creator and channels are
    the caller's to fill in)."""
    return {
        "id": None,
        "format": fmt,
        "seed": seed,
        "tables": count,
        "trays": per,
        "trump": declared,
        "deadline": bot.controller.tables.clock() + hours * 3600,
        "level": level,
        "turn_seconds": int(bot.settings.turn_seconds),
        "pictures": bool(bot.settings.pictures),
        "creator": None,
        "channels": [],
        "seating": [[None] * 4 for _ in range(count)],
        "round": 0,
        "plays": plan(fmt, count, per),
        "marks": {},
        "posted": [],
        "gone": [],
    }


async def do_add_table(bot: Host, interaction: discord.Interaction, match_id: int) -> None:
    """``/whist duplicate table``: this channel becomes the match's next table."""
    channel_id = interaction.channel_id
    if interaction.guild_id is None or channel_id is None:
        raise UserError("table.no_dms", game=Text(f"{GAME}.title"))
    record = await _matches(bot).get(match_id)
    if record is None or record.game != GAME or record.guild_id != interaction.guild_id:
        raise UserError("whist.dup_no_match", match=match_id)
    if bot.controller.tables.table_in(channel_id) is not None:
        raise UserError("whist.dup_channel_busy")
    if await _match_here(bot, record.guild_id, channel_id) is not None:
        raise UserError("whist.dup_channel_in_match")
    added = 0

    def add(record: Any) -> list[Effect]:
        nonlocal added
        data = record.data
        if record.status != "open":
            raise UserError("whist.dup_started")
        if interaction.user.id != data["creator"]:
            raise UserError("whist.dup_creator_only")
        if channel_id in data["channels"]:
            raise UserError("whist.dup_channel_in_match")
        if None not in data["channels"]:
            raise UserError("whist.dup_tables_full", n=data["tables"])
        added = data["channels"].index(None) + 1
        data["channels"][added - 1] = channel_id
        return []

    await _matches(bot).update(match_id, add)
    lang = lang_of(interaction.guild_locale)
    await interaction.response.send_message(
        t(lang, "whist.dup_table_added", match=match_id, table=added)
    )


async def _here(bot: Host, interaction: discord.Interaction) -> Any:
    record = await _match_here(bot, interaction.guild_id, interaction.channel_id)
    if record is None:
        raise UserError("whist.dup_not_a_table")
    return record


async def do_join(bot: Host, interaction: discord.Interaction, seat: str) -> None:
    """``/whist duplicate join seat:``: take a seat at this channel's table."""
    record = await _here(bot, interaction)
    user = interaction.user
    table = record.data["channels"].index(interaction.channel_id)
    if seat not in SEAT_LETTERS:
        raise UserError("whist.dup_no_seat")
    index = SEAT_LETTERS.index(seat)

    def sit(record: Any) -> list[Effect]:
        data = record.data
        if record.status != "open":
            raise UserError("whist.dup_started")
        if any(who is not None and who[0] == user.id for row in data["seating"] for who in row):
            raise UserError("whist.dup_already_seated")
        if data["seating"][table][index] is not None:
            raise UserError("whist.dup_seat_taken")
        data["seating"][table][index] = [user.id, user.display_name]
        return []

    await _matches(bot).update(record.id, sit)
    lang = lang_of(interaction.locale)
    await interaction.response.send_message(
        t(lang, "whist.dup_joined", table=table + 1, seat=seat_name(lang, index)), ephemeral=True
    )


async def do_leave(bot: Host, interaction: discord.Interaction) -> None:
    """``/whist duplicate leave``: give up one's seat before the start."""
    record = await _here(bot, interaction)

    def stand(record: Any) -> list[Effect]:
        if record.status != "open":
            raise UserError("whist.dup_started")
        found = False
        for row in record.data["seating"]:
            for i, who in enumerate(row):
                if who is not None and who[0] == interaction.user.id:
                    row[i] = None
                    found = True
        if not found:
            raise UserError("whist.dup_not_seated")
        return []

    await _matches(bot).update(record.id, stand)
    await interaction.response.send_message(
        t(lang_of(interaction.locale), "whist.dup_left"), ephemeral=True
    )


async def do_start(bot: Host, interaction: discord.Interaction) -> None:
    """``/whist duplicate start``: computers take the empty seats; round 1 starts."""
    record = await _here(bot, interaction)
    tables = bot.controller.tables

    def begin(record: Any) -> list[Effect]:
        data = record.data
        if record.status != "open":
            raise UserError("whist.dup_started")
        if interaction.user.id != data["creator"]:
            raise UserError("whist.dup_creator_only")
        if None in data["channels"]:
            raise UserError("whist.dup_tables_missing", n=data["channels"].count(None))
        if any(tables.table_in(c) is not None for c in data["channels"]):
            raise UserError("whist.dup_channel_busy")
        return RULES.start(data)

    begin(copy.deepcopy(record))  # refused now, before the answer, if it is refused
    # The answer comes first: the tables' messages follow it in their channels.
    await interaction.response.send_message(
        t(lang_of(interaction.guild_locale), "whist.dup_starting", match=record.id)
    )
    await _matches(bot).update(record.id, begin)


async def do_cancel(bot: Host, interaction: discord.Interaction, match_id: int | None) -> None:
    """``/whist duplicate cancel``: the match's creator or a server manager cancels an open
    or running match (this channel's, or ``match``)."""
    record = await _which(bot, interaction, match_id)
    permissions = interaction.permissions
    manager = bool(permissions and permissions.manage_guild)

    def cancel(record: Any) -> list[Effect]:
        if record.status not in ("open", "playing"):
            raise UserError("whist.dup_cancel_over", match=record.id)
        if interaction.user.id != record.data["creator"] and not manager:
            raise UserError("whist.dup_cancel_refused", match=record.id)
        return RULES.cancel(record.data)

    cancel(copy.deepcopy(record))  # refused now, before the answer, if it is refused
    # The answer comes first: closing the tables and the posts may take longer than
    # Discord waits for it.
    await interaction.response.send_message(
        t(lang_of(interaction.locale), "whist.dup_cancelled_reply", match=record.id),
        ephemeral=True,
    )
    await _matches(bot).update(record.id, cancel)


async def _which(bot: Host, interaction: discord.Interaction, match_id: int | None) -> Any:
    """Return match ``match_id`` of this server, or (``None``) this channel's live match."""
    if match_id is None:
        return await _here(bot, interaction)
    record = await _matches(bot).get(match_id)
    if record is None or record.game != GAME or record.guild_id != interaction.guild_id:
        raise UserError("whist.dup_no_match", match=match_id)
    return record


async def do_status(bot: Host, interaction: discord.Interaction, match_id: int | None) -> None:
    """``/whist duplicate status``: the match's public state, privately."""
    record = await _which(bot, interaction, match_id)
    lang = lang_of(interaction.locale)
    lines = status_text(record.id, record.status, record.data, lang).split("\n")
    await send_parts(interaction, [[line] for line in lines])


async def send_parts(interaction: discord.Interaction, blocks: Sequence[Sequence[str]]) -> None:
    """Answer privately with every block: the first message as the response, the rest as
    private follow-ups, in order (:func:`parts_of`)."""
    first, *rest = parts_of(blocks)
    await interaction.response.send_message(suits.rich(first), ephemeral=True)
    for part in rest:
        await interaction.followup.send(suits.rich(part), ephemeral=True)


async def do_results(bot: Host, interaction: discord.Interaction) -> None:
    """``/whist duplicate results``: the member's view of their latest match."""
    lang = lang_of(interaction.locale)
    user_id = interaction.user.id
    found = None
    for record in await _matches(bot).in_guild(interaction.guild_id or 0, GAME):
        seating = record.data["seating"]
        if any(who is not None and who[0] == user_id for row in seating for who in row):
            found = record
            break
    if found is None:
        raise UserError("whist.dup_no_own_match")
    moves: dict[int, list[str]] = {}
    for play in found.data["plays"]:
        game_id = play["game"]
        if play["done"] and game_id not in moves:
            stored = await bot.store.game(game_id)
            moves[game_id] = [] if stored is None else list(stored.moves)
    blocks = results_blocks(found.id, found.status, found.data, user_id, moves, lang)
    await send_parts(interaction, blocks)


def _choices(*pairs: tuple[str, str]) -> list[app_commands.Choice[str]]:
    return [app_commands.Choice(name=command_text(key), value=value) for key, value in pairs]


def duplicate_group(bot: Host) -> app_commands.Group:
    """Return ``/whist duplicate``: create, table, join, leave, start, results, status,
    cancel."""
    group = app_commands.Group(
        name=command_text("whist.dup_command_name"),
        description=command_text("whist.dup_command_description"),
        guild_only=True,
    )
    commands = [
        _create_command(bot),
        _table_command(bot),
        _join_command(bot),
        *_seat_commands(bot),
        *_match_commands(bot),
    ]
    for command in commands:
        group.add_command(command)
    return group


Command = app_commands.Command[Any, ..., None]


def _create_command(bot: Host) -> Command:
    """Return ``/whist duplicate create``."""
    controller = bot.controller

    @app_commands.command(
        name=command_text("whist.dup_create_name"),
        description=command_text("whist.dup_create_description"),
    )
    @app_commands.rename(
        format=command_text("whist.dup_option_format_name"),
        tables=command_text("whist.dup_option_tables_name"),
        trays=command_text("whist.dup_option_trays_name"),
        trump=command_text("whist.dup_option_trump_name"),
        deadline_hours=command_text("whist.dup_option_deadline_name"),
        level=command_text("whist.dup_option_level_name"),
    )
    @app_commands.describe(
        format=command_text("whist.dup_option_format_description"),
        tables=command_text("whist.dup_option_tables_description"),
        trays=command_text("whist.dup_option_trays_description"),
        trump=command_text("whist.dup_option_trump_description"),
        deadline_hours=command_text("whist.dup_option_deadline_description"),
        level=command_text("whist.dup_option_level_description"),
    )
    @app_commands.choices(
        format=_choices(
            ("whist.dup_format_team", "team"),
            ("whist.dup_format_mitchell", "mitchell"),
            ("whist.dup_format_mnemonic", "mnemonic"),
        ),
        trump=_choices(
            ("whist.dup_trump_turned", "turned"),
            ("whist.suit_C", "C"),
            ("whist.suit_D", "D"),
            ("whist.suit_H", "H"),
            ("whist.suit_S", "S"),
        ),
        level=_choices(
            ("whist.computers_random", "random"),
            ("whist.computers_basic", "basic"),
            ("whist.computers_expert", "expert"),
        ),
    )
    async def create(
        interaction: discord.Interaction,
        format: str,
        tables: app_commands.Range[int, 1, 16] | None = None,
        trays: app_commands.Range[int, 1, 32] | None = None,
        trump: str | None = None,
        deadline_hours: app_commands.Range[int, -1000, 720] | None = None,
        level: str | None = None,
    ) -> None:
        await controller.safely(
            interaction,
            do_create(bot, interaction, format, tables, trays, trump, deadline_hours, level),
        )

    return create


def _table_command(bot: Host) -> Command:
    """Return ``/whist duplicate table``."""
    controller = bot.controller

    @app_commands.command(
        name=command_text("whist.dup_table_name"),
        description=command_text("whist.dup_table_description"),
    )
    @app_commands.rename(match=command_text("whist.dup_option_match_name"))
    @app_commands.describe(match=command_text("whist.dup_option_match_description"))
    async def table(interaction: discord.Interaction, match: int) -> None:
        await controller.safely(interaction, do_add_table(bot, interaction, match))

    return table


def _join_command(bot: Host) -> Command:
    """Return ``/whist duplicate join``."""
    controller = bot.controller

    @app_commands.command(
        name=command_text("whist.dup_join_name"),
        description=command_text("whist.dup_join_description"),
    )
    @app_commands.rename(seat=command_text("whist.dup_option_seat_name"))
    @app_commands.describe(seat=command_text("whist.dup_option_seat_description"))
    @app_commands.choices(
        seat=_choices(
            ("common.seat_0", "N"),
            ("common.seat_1", "E"),
            ("common.seat_2", "S"),
            ("common.seat_3", "W"),
        )
    )
    async def join(interaction: discord.Interaction, seat: str) -> None:
        await controller.safely(interaction, do_join(bot, interaction, seat))

    return join


def _seat_commands(bot: Host) -> list[Command]:
    """Return ``/whist duplicate leave``, ``start`` and ``results``."""
    controller = bot.controller

    @app_commands.command(
        name=command_text("whist.dup_leave_name"),
        description=command_text("whist.dup_leave_description"),
    )
    async def leave(interaction: discord.Interaction) -> None:
        await controller.safely(interaction, do_leave(bot, interaction))

    @app_commands.command(
        name=command_text("whist.dup_start_name"),
        description=command_text("whist.dup_start_description"),
    )
    async def start(interaction: discord.Interaction) -> None:
        await controller.safely(interaction, do_start(bot, interaction))

    @app_commands.command(
        name=command_text("whist.dup_results_name"),
        description=command_text("whist.dup_results_description"),
    )
    async def results(interaction: discord.Interaction) -> None:
        await controller.safely(interaction, do_results(bot, interaction))

    return [leave, start, results]


def _match_commands(bot: Host) -> list[Command]:
    """Return ``/whist duplicate status`` and ``cancel``."""
    controller = bot.controller

    @app_commands.command(
        name=command_text("whist.dup_cancel_name"),
        description=command_text("whist.dup_cancel_description"),
    )
    @app_commands.rename(match=command_text("whist.dup_option_match_name"))
    @app_commands.describe(match=command_text("whist.dup_option_which_match_description"))
    async def cancel(interaction: discord.Interaction, match: int | None = None) -> None:
        await controller.safely(interaction, do_cancel(bot, interaction, match))

    @app_commands.command(
        name=command_text("whist.dup_status_name"),
        description=command_text("whist.dup_status_description"),
    )
    @app_commands.rename(match=command_text("whist.dup_option_match_name"))
    @app_commands.describe(match=command_text("whist.dup_option_which_match_description"))
    async def status(interaction: discord.Interaction, match: int | None = None) -> None:
        await controller.safely(interaction, do_status(bot, interaction, match))

    return [status, cancel]
