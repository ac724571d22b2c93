"""Messages every game shares: the lobby, a cancelled table, the final standings, and the
community pages (leaderboard, stats, history, a server's defaults). Pure: no network, no
state; a game's own messages come from its bot package (``bot.game.GameUI``).

Every function that writes text takes ``lang`` and writes all of it in that language from
the catalogue; custom ids (``bot.ids``) never depend on it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import discord

from bot import hints, ids
from bot.controls import Button, Controls
from bot.game import GameUI, Rendered, SeatInfo, TableInfo, computer_name
from bot.i18n import Lang, decimal, percent, t
from bot.ratings import Rating
from bot.store import FinishedGame, LeaderboardRow, PlayerStats

__all__ = [
    "COLOUR",
    "and_list",
    "cancelled_message",
    "defaults_text",
    "final_standings",
    "game_title",
    "hand_over_prompt",
    "handed_over",
    "history_page",
    "leaderboard_page",
    "lobby_message",
    "player_stats",
    "rating_text",
    "replay_buttons",
    "rules_line",
    "seat_heading",
]

COLOUR = discord.Colour(0x2E7D32)
SORTS = ("rating", "wins", "points")


def game_title(lang: Lang, game: str) -> str:
    """Return a game's name as players write it (``<game>.title`` in its catalogue)."""
    try:
        return t(lang, f"{game}.title")
    except KeyError:
        return game


def and_list(lang: Lang, names: Sequence[str]) -> str:
    """Return names joined by the language's "and"."""
    return f" {t(lang, 'render.and')} ".join(names)


def _who(ui: GameUI, seat: int, players: int, seats: Mapping[int, SeatInfo], lang: Lang) -> str:
    info = seats.get(seat)
    return info.shown(lang, seat) if info else ui.seat_name(lang, seat, players)


def seat_heading(
    ui: GameUI, seat: int, players: int, seats: Mapping[int, SeatInfo], lang: Lang = "en"
) -> str:
    """Return a seat as a table shows it: its mark, its name and who sits there."""
    info = seats.get(seat)
    who = info.shown(lang, seat) if info else "—"
    mark = ui.seat_mark(seat, players)
    name = ui.seat_name(lang, seat, players)
    return f"{mark} {name} · {who}" if mark else f"{name} · {who}"


def rules_line(ui: GameUI, info: TableInfo, lang: Lang = "en") -> str:
    """Return a table's rules in force: the game's options, then the shared ones."""
    if info.level:
        fill = t(lang, "render.rules_computers", level=info.level)
    else:
        fill = t(lang, "render.rules_no_computers")
    minutes = info.turn_seconds / 60
    if info.turn_seconds < 120:
        turn = f"{info.turn_seconds} s"
    else:
        turn = f"{decimal(lang, minutes, None)} min"
    if info.seating == "random" or ui.seats_drawn(info.game_options):
        seating = t(lang, "render.rules_seats_random")
    elif info.rematch_of is not None:  # the old game's seats, whoever joined first
        seating = t(lang, "render.rules_seats_rematch", game=info.rematch_of)
    else:
        seating = t(lang, "render.rules_seats_join")
    shared = t(lang, "render.rules_line", turn=turn, fill=fill, seating=seating)
    if ui.draws_pictures:
        pictures = "render.rules_pictures_on" if info.pictures else "render.rules_pictures_off"
        shared += f" · {t(lang, pictures)}"
    if info.hints:
        shared += f" · {t(lang, 'render.rules_hints_on')}"
    own = ui.options_text(info.game_options, lang)
    return f"{own} · {shared}" if own else shared


def lobby_message(ui: GameUI, info: TableInfo, seats: int, *, lang: Lang = "en") -> Rendered:
    """Return the public lobby of a table with ``seats`` seats: who sits where and the
    Join/Leave/Add computer/Start/Cancel row."""
    lines = [seat_heading(ui, seat, seats, info.seats, lang) for seat in range(seats)]
    waiting = [(seat, name) for seat, _, name in info.invited if seat not in info.seats]
    for seat, name in waiting:
        wait = t(lang, "render.lobby_rematch_waiting", name=discord.utils.escape_markdown(name))
        mark = ui.seat_mark(seat, seats)
        lines[seat] = f"{mark} {ui.seat_name(lang, seat, seats)} · {wait}".strip()
    host = t(lang, "render.lobby_host", host=info.host_id)
    title = game_title(lang, ui.name)
    view = Controls()
    if info.rematch_of is not None:
        embed = discord.Embed(
            title=t(lang, "render.lobby_rematch_title", title=title, game=info.rematch_of),
            description=(
                f"{host}\n" + "\n".join(lines) + "\n\n" + t(lang, "render.lobby_rematch_text")
            ),
            colour=ui.colour,
        )
        embed.set_footer(text=rules_line(ui, info, lang))
        for label, what, style in (
            (t(lang, "render.button_start_now"), "start", discord.ButtonStyle.primary),
            (t(lang, "render.button_cancel"), "cancel", discord.ButtonStyle.danger),
        ):
            view.add_item(
                Button(label=label, style=style, custom_id=ids.table_button(info.game_id, what))
            )
        return Rendered(content=None, embeds=[embed], view=view)
    if info.level:
        join = t(lang, "render.lobby_join_computers")
    else:
        join = t(lang, "render.lobby_join_all", n=seats)
    embed = discord.Embed(
        title=t(lang, "render.lobby_title", title=title),
        description=f"{host}\n" + "\n".join(lines) + "\n\n" + join,
        colour=ui.colour,
    )
    embed.set_footer(text=rules_line(ui, info, lang))
    full = len(info.seats) >= seats
    lobby_buttons = (
        ("render.button_join", "join", discord.ButtonStyle.success, full),
        ("render.button_leave", "leave", discord.ButtonStyle.secondary, False),
        ("render.button_add_computer", "addcpu", discord.ButtonStyle.secondary, full),
        ("render.button_start", "start", discord.ButtonStyle.primary, False),
        ("render.button_cancel", "cancel", discord.ButtonStyle.danger, False),
    )
    for key, what, style, disabled in lobby_buttons:
        view.add_item(
            Button(
                label=t(lang, key),
                style=style,
                custom_id=ids.table_button(info.game_id, what),
                disabled=disabled,
            )
        )
    return Rendered(content=None, embeds=[embed], view=view)


def cancelled_message(ui: GameUI, *, lang: Lang = "en", reason: str = "cancelled") -> Rendered:
    """Return the table message of a table closed without a result: ``cancelled`` (by its
    host or a manager), ``expired`` (an idle lobby) or ``abandoned``."""
    title = t(lang, f"table.{reason}_title", title=game_title(lang, ui.name))
    return Rendered(content=None, embeds=[discord.Embed(title=title, colour=ui.colour)], view=None)


def handed_over(
    ui: GameUI, seat: int, players: int, seats: Mapping[int, SeatInfo], *, lang: Lang = "en"
) -> Rendered:
    """Return the public notice that a member left a game in play and a computer player
    plays their seat for the rest of it."""
    embed = discord.Embed(
        title=t(lang, "table.handed_over_title"),
        description=t(lang, "table.handed_over", seat=seat_heading(ui, seat, players, seats, lang)),
        colour=ui.colour,
    )
    return Rendered(content=None, embeds=[embed], view=None)


def hand_over_prompt(game_id: int, *, lang: Lang = "en") -> Rendered:
    """Return the private question ``/<game> leave`` asks a member in play, with the
    button that confirms it."""
    view = Controls()
    view.add_item(
        Button(
            label=t(lang, "table.button_hand_over"),
            style=discord.ButtonStyle.danger,
            custom_id=ids.table_button(game_id, "handover"),
        )
    )
    return Rendered(content=t(lang, "table.hand_over_confirm"), view=view)


def final_standings(
    ui: GameUI,
    scores: Sequence[int],
    winners: Sequence[int],
    seats: Mapping[int, SeatInfo],
    game_id: int | None = None,
    *,
    lang: Lang = "en",
) -> Rendered:
    """Return the end-of-game message: standings by score and the winner(s), by name;
    with ``game_id``, the Rematch and Replay buttons."""
    players = len(scores)
    order = sorted(range(players), key=lambda s: (-scores[s], s))
    lines = []
    for place, seat in enumerate(order, start=1):
        crown = " 🏆" if seat in winners else ""
        heading = seat_heading(ui, seat, players, seats, lang)
        lines.append(f"{place}. {heading} — **{scores[seat]}**{crown}")
    names = and_list(lang, [_who(ui, s, players, seats, lang) for s in winners])
    won = t(lang, "render.final_winners", n=len(winners), names=names)
    embed = discord.Embed(
        title=t(lang, "render.final_title", title=game_title(lang, ui.name)),
        description="\n".join(lines) + f"\n\n{won}",
        colour=ui.colour,
    )
    if game_id is None:
        return Rendered(content=None, embeds=[embed], view=None)
    embed.set_footer(text=t(lang, "render.final_footer"))
    view = Controls()
    view.add_item(
        Button(
            label=t(lang, "render.button_rematch"),
            style=discord.ButtonStyle.success,
            custom_id=ids.table_button(game_id, "rematch"),
        )
    )
    view.add_item(
        Button(
            label=t(lang, "render.button_replay"),
            style=discord.ButtonStyle.secondary,
            custom_id=ids.replay(game_id, 0, "r"),
        )
    )
    return Rendered(content=None, embeds=[embed], view=view)


def rating_text(rating: Rating | None, *, lang: Lang = "en") -> str:
    """Return a rating as shown: the conservative estimate, then ``μ ± 3σ``."""
    if rating is None:
        return t(lang, "render.unrated")
    return t(
        lang,
        "render.rating",
        conservative=decimal(lang, rating.conservative),
        mu=decimal(lang, rating.mu),
        spread=decimal(lang, 3 * rating.sigma),
    )


def leaderboard_page(
    rows: Sequence[LeaderboardRow],
    *,
    game: str,
    sort: str,
    page: int,
    pages: int,
    first_place: int,
    viewer_id: int,
    lang: Lang = "en",
) -> discord.Embed:
    """Return one page of a server's leaderboard; the viewer's own line is marked."""
    lines = []
    for place, row in enumerate(rows, start=first_place):
        who = computer_name(lang, row.level) if row.user_id is None else f"<@{row.user_id}>"
        me = t(lang, "render.leaderboard_you") if row.user_id == viewer_id else ""
        lines.append(
            t(
                lang,
                "render.leaderboard_line",
                place=place,
                who=who,
                points=t(lang, "render.points", points=row.points),
                games=t(lang, "render.leaderboard_games", n=row.games, games=row.games),
                wins=t(
                    lang, "render.leaderboard_wins", n=row.wins, wins=decimal(lang, row.wins, None)
                ),
                rating=rating_text(row.rating, lang=lang),
                me=me,
            )
        )
    embed = discord.Embed(
        title=t(lang, "render.leaderboard_title", game=game_title(lang, game)),
        description="\n".join(lines) or t(lang, "render.no_games_server"),
        colour=COLOUR,
    )
    sort_text = t(lang, f"render.sort_{sort}") if sort in SORTS else sort
    embed.set_footer(
        text=t(lang, "render.leaderboard_footer", page=page + 1, pages=pages, sort=sort_text)
    )
    return embed


def player_stats(
    ui: GameUI, name: str, stats: PlayerStats | None, *, lang: Lang = "en"
) -> discord.Embed:
    """Return a member's record in this server's games of ``ui``'s game."""
    title = t(lang, "render.stats_title", name=name, game=game_title(lang, ui.name))
    if stats is None:
        return discord.Embed(
            title=title, description=t(lang, "render.stats_no_games"), colour=COLOUR
        )
    embed = discord.Embed(title=title, colour=COLOUR)
    wins = f"{decimal(lang, stats.wins, None)} ({percent(lang, stats.win_share)})"
    best_round = "—" if stats.best_round is None else str(stats.best_round)
    embed.add_field(name=t(lang, "render.stats_games"), value=str(stats.games))
    embed.add_field(name=t(lang, "render.stats_wins"), value=wins)
    embed.add_field(name=t(lang, "render.stats_mean_score"), value=decimal(lang, stats.mean_score))
    embed.add_field(name=t(lang, "render.stats_best_score"), value=str(stats.best_score))
    embed.add_field(name=t(lang, "render.stats_best_round"), value=best_round)
    embed.add_field(
        name=t(lang, "render.stats_favourite_seat"),
        value=ui.seat_name(lang, stats.favourite_seat, 0),
    )
    rating = stats.rating
    if rating is not None:
        text = t(
            lang,
            "render.stats_rating_value",
            conservative=decimal(lang, rating.conservative),
            mu=decimal(lang, rating.mu),
            spread=decimal(lang, 3 * rating.sigma),
        )
    else:
        text = t(lang, "render.unrated")
    embed.add_field(name=t(lang, "render.stats_rating"), value=text, inline=False)
    return embed


def _history_who(lang: Lang, seat: int, record: Any) -> str:
    """Return who sat in ``seat`` of a finished game: a mention, or the computer's name."""
    if record.user_id is not None:
        return f"<@{record.user_id}>"
    return SeatInfo.of(record).shown(lang, seat)


def history_page(
    games: Sequence[FinishedGame],
    guild_id: int,
    *,
    lang: Lang = "en",
    events: Sequence[str] = (),
) -> discord.Embed:
    """Return the server's recent games: when, where, who, and who won; then the finished
    events over several tables (``events``: a duplicate match's line each, as its game's
    match rules write it)."""
    lines = []
    for game in games:
        record = game.record
        players = ", ".join(_history_who(lang, s, seat) for s, seat in sorted(record.seats.items()))
        seats = record.seats
        named = [_history_who(lang, s, seats[s]) for s in game.winners if s in seats]
        winners = and_list(lang, named)
        best = max((score for score, _ in game.results.values()), default=0)
        where = f"https://discord.com/channels/{guild_id}/{record.channel_id}"
        if game.abandoned:
            lines.append(
                t(
                    lang,
                    "render.history_abandoned",
                    title=game_title(lang, record.game),
                    game=record.id,
                    ended=int(game.ended_at),
                    channel=where,
                    players=players,
                )
            )
            continue
        lines.append(
            t(
                lang,
                "render.history_game",
                title=game_title(lang, record.game),
                game=record.id,
                ended=int(game.ended_at),
                channel=where,
                players=players,
                winners=winners or "—",
                best=best,
            )
        )
    lines += events
    description = "\n\n".join(lines) or t(lang, "render.no_games_server")
    if len(description) > 4096:  # Discord's limit for an embed's description
        description = description[:4094] + " …"
    return discord.Embed(
        title=t(lang, "render.history_title"), description=description, colour=COLOUR
    )


def defaults_text(
    ui: GameUI, options: Mapping[str, Any], game_options: Any, changed: bool, *, lang: Lang = "en"
) -> str:
    """Return a server's defaults for new tables of ``ui``'s game, as ``/<game> defaults``
    shows them (``options``: the shared ones as stored; ``game_options``: the engine's)."""
    level = options.get("level")
    turn = int(options.get("turn_seconds", 120))
    random = options.get("seating") == "random" or ui.seats_drawn(game_options)
    pictures = "render.on" if options.get("pictures", True) else "render.off"
    title = game_title(lang, ui.name)
    lines = [
        t(lang, "render.defaults_title_saved" if changed else "render.defaults_title", title=title)
    ]
    own = ui.options_text(game_options, lang)
    if own:
        lines += [f"• {part}" for part in own.split(" · ")]
    lines += [
        t(lang, "render.defaults_turn", seconds=turn),
        t(lang, "render.defaults_computers", level=level or t(lang, "render.none")),
        t(
            lang,
            "render.defaults_seating",
            seating=t(lang, "render.seating_random" if random else "render.seating_join"),
        ),
    ]
    if ui.draws_pictures:
        lines.append(t(lang, "render.defaults_pictures", pictures=t(lang, pictures)))
    if hints.offered(ui):
        shown = "render.on" if options.get("hints") else "render.off"
        lines.append(t(lang, "render.defaults_hints", hints=t(lang, shown)))
    lines.append(t(lang, "render.defaults_otherwise", command=t(lang, f"{ui.name}.command_name")))
    return "\n".join(lines)


def replay_buttons(game_id: int, index: int, steps: int, lang: Lang = "en") -> Controls:
    """Return a replay page's Previous and Next buttons (row 0) for step ``index`` of
    ``steps``; a game adds its chapter buttons (Dupe's deals) to the view."""
    view = Controls()
    last = steps - 1
    view.add_item(
        Button(
            label=t(lang, "render.button_previous"),
            custom_id=ids.replay(game_id, max(index - 1, 0), "p"),
            disabled=index == 0,
            row=0,
        )
    )
    view.add_item(
        Button(
            label=t(lang, "render.button_next"),
            custom_id=ids.replay(game_id, min(index + 1, last), "n"),
            disabled=index >= last,
            row=0,
        )
    )
    return view
