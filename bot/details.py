"""The Details button under a table's public post: the post's full detail, privately.

A public post fits one screen (a game's breakdown, a deal's scoring); what does not fit —
every hand, every trick — is one press away. A game says which of its posts have details
(``Post.details``) and writes them (``GameUI.details``) from what the post made public;
this module knows no game: it puts the button under the post, finds the table (live, or
finished and replayed from its log) and answers whoever presses, player or not, privately
in their own language. The button's id carries the table and the post (``bot.ids``), so it
keeps working after a restart and for as long as the game is stored.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from dataclasses import replace
from typing import Any

import discord

from bot import ids
from bot.controls import Button, Controls
from bot.game import GameUI, Rendered, SeatInfo
from bot.i18n import Lang, lang_of, t
from bot.store import SeatRecord, Store
from bot.tables import TableOptions, Tables, UserError, engine_options, game_fields

__all__ = ["button", "show", "with_button"]


def button(table: int, post: str, lang: Lang) -> Button:
    """Return the Details button of a table's public post ``post``."""
    return Button(
        label=t(lang, "render.button_details"),
        style=discord.ButtonStyle.secondary,
        custom_id=ids.details(table, post),
    )


def with_button(shown: Rendered, table: int, post: str, lang: Lang) -> Rendered:
    """Return the post ``shown`` with its Details button under whatever buttons it has."""
    view = Controls()
    for item in shown.view.children if shown.view is not None else ():
        view.add_item(item)
    view.add_item(button(table, post, lang))
    return replace(shown, view=view)


def _seats(records: Mapping[int, SeatRecord]) -> dict[int, SeatInfo]:
    return {
        seat: SeatInfo(discord.utils.escape_markdown(r.name), r.user_id, r.level)
        for seat, r in records.items()
    }


async def _table(
    tables: Tables, store: Store, guild_id: int | None, game_id: int
) -> tuple[GameUI, Any, dict[int, SeatInfo]]:
    """Return the game, the state and the seats of table ``game_id`` of this server: a
    live table's state as it is (a committed one: changes are made on a copy and swapped
    in), a finished one's replayed from its log."""
    live = tables.tables.get(game_id)
    if live is not None and live.guild_id == guild_id and live.state is not None:
        return live.ui, live.state, _seats(live.seats)
    record = None
    if 0 < game_id < 2**63:  # a forged id may carry any number; SQLite stops at 2**63
        record = await store.game(game_id)
    if record is None or record.guild_id != guild_id:
        raise UserError("errors.no_such_game", game=game_id)
    if record.status != "finished":  # cancelled, or a lobby: it made no post
        raise UserError("errors.no_details")
    ui = tables.games(record.game)
    options = engine_options(
        ui, TableOptions.from_json(record.options, game_fields(ui)), len(record.seats)
    )
    return ui, ui.game.replay(record.seed, options, record.moves), _seats(record.seats)


async def show(
    interaction: discord.Interaction,
    pressed: ids.Details,
    *,
    tables: Tables,
    store: Store,
    hidden: Callable[[int], Awaitable[bool]],
) -> None:
    """Answer a Details button: the post's full detail, privately (``hidden``: whether the
    table is an event's that keeps its tables to itself until it ends)."""
    if await hidden(pressed.table):
        # The same trays may still be played at another table of its match.
        raise UserError("errors.replay_in_match", game=pressed.table)
    ui, state, seats = await _table(tables, store, interaction.guild_id, pressed.table)
    lang = lang_of(interaction.locale)
    shown = ui.details(state, pressed.post, seats, lang)
    if shown is None:
        raise UserError("errors.no_details")
    await interaction.response.send_message(
        content=shown.content,
        embeds=shown.embeds,
        ephemeral=True,
        allowed_mentions=discord.AllowedMentions.none(),
    )
