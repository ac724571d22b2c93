"""What a table's public messages show, as values: how each seat is shown, the table
message (its text and its picture), and a digest of it to tell an edit that would change
nothing. Both the controller (answers) and :mod:`bot.delivery` (edits and posts) use it.
"""

from __future__ import annotations

import hashlib
import json

from bot import render
from bot.game import Picture, Rendered, SeatInfo, TableInfo
from bot.i18n import Lang
from bot.tables import Table, engine_options

__all__ = [
    "fingerprint",
    "forget",
    "moves_made",
    "picture_names",
    "render_table",
    "seat_infos",
    "table_info",
    "table_picture",
]

_SEAT_INFOS: dict[int, tuple[object, dict[int, SeatInfo]]] = {}


def seat_infos(table: Table) -> dict[int, SeatInfo]:
    """Return how each seat is shown (kept while the table's seating is the same object:
    every change of seats replaces it, and every message of the table needs it)."""
    cached = _SEAT_INFOS.get(table.id)
    if cached is not None and cached[0] is table.seats:
        return cached[1]
    infos = {seat: SeatInfo.of(record) for seat, record in table.seats.items()}
    _SEAT_INFOS[table.id] = (table.seats, infos)
    return infos


def forget(table: Table) -> None:
    """Drop what is kept for a table that has ended."""
    _SEAT_INFOS.pop(table.id, None)


def picture_names(table: Table, lang: Lang) -> list[str]:
    """Return who sits in each seat, as pictures write it."""
    names = []
    players = len(table.seats) if table.state is not None else table.max_seats
    for seat in range(players):
        record = table.seats.get(seat)
        if record is None:
            names.append(table.ui.seat_name(lang, seat, players))
        else:
            names.append(SeatInfo.of(record, markdown=False).shown(lang, seat, picture=True))
    return names


def table_info(table: Table) -> TableInfo:
    """Return what a table's messages need besides the view."""
    warned: list[int] = []
    if table.warned:
        warned = table.humans_to_act()
    state = table.state
    options = state.options if state is not None else engine_options(table.ui, table.options)
    return TableInfo(
        game_id=table.id,
        host_id=table.host_id,
        seats=seat_infos(table),
        game_options=options,
        turn_seconds=table.options.turn_seconds,
        level=table.options.level,
        warned=warned,
        deadline=table.deadline,
        status=table.status,
        pictures=table.options.pictures,
        seating=table.options.seating,
        rematch_of=table.options.rematch_of,
        invited=table.options.invited,
        hints=table.options.hints,
    )


def render_table(table: Table, lang: Lang = "en") -> Rendered:
    """Return the public table message as it should look now, in ``lang``."""
    if table.status == "lobby":
        return render.lobby_message(table.ui, table_info(table), table.max_seats, lang=lang)
    if table.status == "cancelled":
        return render.cancelled_message(table.ui, lang=lang)
    if table.status in ("expired", "abandoned"):
        return render.cancelled_message(table.ui, lang=lang, reason=table.status)
    assert table.state is not None
    return table.ui.table_message(table_info(table), table.state.public_view(), lang)


def table_picture(table: Table, lang: Lang) -> tuple[object, Picture] | None:
    """Return the picture the table message carries now: its key and its thunk."""
    state = table.state
    if not table.options.pictures or state is None or table.status != "playing":
        return None
    return table.ui.table_picture(
        table_info(table), state.public_view(), picture_names(table, lang), lang
    )


def moves_made(table: Table) -> int:
    """Return how far the game has got (its move count): what a table edit shows."""
    return -1 if table.state is None else int(table.state.move_count)


def fingerprint(shown: Rendered) -> bytes:
    """Return a digest of everything a message edit of ``shown`` sends (content, embeds,
    components), to tell an edit that would change nothing."""
    body = json.dumps(
        [shown.content, [e.to_dict() for e in shown.embeds], shown.buttons().to_components()],
        sort_keys=True,
        separators=(",", ":"),
        default=str,
    )
    return hashlib.blake2b(body.encode(), digest_size=16).digest()
