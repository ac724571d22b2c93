"""Views → Discord messages: text, embeds and buttons. Pure: no network, no state.

Every public message is built from ``state.public_view()`` and every private one from
``state.view(seat)``, so what a message can show is limited to what the engine lets that
audience know. Custom ids carry everything a button means (``dupe:play:<game>:<seat>:
<turn>:<card>``), so buttons keep working after a restart; the DynamicItem classes in
``bot.dupe.buttons`` parse them.

Every function that writes text takes ``lang`` and writes all of it in that language from
the catalogue (``bot/locales/render.toml``); custom ids never depend on it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import discord

from bot.i18n import Lang, decimal, percent, score_text, seat_letter, seat_name, t
from bot.ratings import Rating
from bot.replay import DealStart, Final, Step
from bot.store import FinishedGame, LeaderboardRow, PlayerStats
from engine.cards import Card, Suit, by_suit
from engine.dupe import (
    SEAT_LETTERS,
    SEAT_SUITS,
    TRICKS,
    DealResult,
    DupeView,
    Phase,
    TrickRecord,
    seat_of_suit,
)

__all__ = [
    "Rendered",
    "SeatInfo",
    "card_label",
    "deal_scoring",
    "final_standings",
    "hand_message",
    "history_page",
    "leaderboard_page",
    "lobby_message",
    "player_stats",
    "replay_step",
    "rules_text",
    "table_message",
    "turn_index",
]

COLOUR = discord.Colour(0x2E7D32)
MEMORY_RULES = ("strict", "open")
SORTS = ("rating", "wins", "points")
GAMES = ("dupe",)  # each named by common.game_<game>


def _memory(lang: Lang, memory: str) -> str:
    return t(lang, f"render.memory_{memory}") if memory in MEMORY_RULES else memory


def _game(lang: Lang, game: str) -> str:
    return t(lang, f"common.game_{game}") if game in GAMES else game


def _and(lang: Lang, names: Sequence[str]) -> str:
    return f" {t(lang, 'render.and')} ".join(names)


def _letters(lang: Lang, cards: Sequence[Card]) -> str:
    """Return the four cards of a trick by seat: ``N 5♠ · E 9♥ · S 2♣ · W K♦``."""
    return " · ".join(f"{seat_letter(lang, s)} {cards[s]}" for s in range(4))


@dataclass(slots=True)
class SeatInfo:
    """How a seat is shown: the member's name or the computer player's level."""

    name: str
    user_id: int | None = None
    level: str | None = None

    @property
    def label(self) -> str:
        """Return the name as shown at the table."""
        return f"🤖 {self.name}" if self.user_id is None else self.name


@dataclass(slots=True)
class Rendered:
    """A message to send or edit: content, embeds and a finished (never stored) view."""

    content: str | None = None
    embeds: list[discord.Embed] = field(default_factory=list)
    view: discord.ui.View | None = None

    def buttons(self) -> discord.ui.View:
        """Return the view to send (an empty one clears a message's buttons)."""
        return self.view if self.view is not None else _finished(discord.ui.View())


def _finished(view: discord.ui.View) -> discord.ui.View:
    # Our buttons are dispatched by DynamicItem templates registered once on the bot, so
    # the view itself must not be stored per message (it would be kept forever).
    view.stop()
    return view


def turn_index(deal: int, trick: int) -> int:
    """Return the trick's number within the game, 0 to 51, as buttons carry it."""
    return (deal - 1) * TRICKS + (trick - 1)


def card_label(card: Card) -> str:
    """Return a card as a button shows it, e.g. ``10♠``."""
    return str(card)


def _seat_heading(seat: int, seats: Mapping[int, SeatInfo], lang: Lang = "en") -> str:
    info = seats.get(seat)
    who = info.label if info else "—"
    return f"{SEAT_SUITS[seat].symbol} {seat_name(lang, seat)} · {who}"


def _trick_line(trick: TrickRecord, seats: Mapping[int, SeatInfo], lang: Lang = "en") -> str:
    played = _letters(lang, trick.cards)
    if trick.taker is None:
        return f"{played}\n{t(lang, 'render.trick_kept')}"
    gave = ", ".join(f"{seat_letter(lang, s)} {trick.received[s]}" for s in range(4))
    taken = t(lang, "render.trick_taken", taker=seat_name(lang, trick.taker), gave=gave)
    return f"{played}\n{taken}"


@dataclass(slots=True)
class TableInfo:
    """What a table message needs besides the view."""

    game_id: int
    host_id: int
    memory: str
    turn_seconds: int
    level: str | None
    seats: dict[int, SeatInfo]
    warned: Sequence[int] = ()
    deadline: float | None = None
    status: str = "playing"
    pictures: bool = True
    seating: str = "join"
    rematch_of: int | None = None
    invited: Sequence[tuple[int, int, str]] = ()


def _rules_line(info: TableInfo, lang: Lang = "en") -> str:
    if info.level:
        fill = t(lang, "render.rules_computers", level=info.level)
    else:
        fill = t(lang, "render.rules_no_computers")
    minutes = info.turn_seconds / 60
    if info.turn_seconds < 120:
        turn = f"{info.turn_seconds} s"
    else:
        turn = f"{decimal(lang, minutes, None)} min"
    pictures = t(lang, "render.rules_pictures_on" if info.pictures else "render.rules_pictures_off")
    random = info.seating == "random"
    seating = t(lang, "render.rules_seats_random" if random else "render.rules_seats_join")
    return t(
        lang,
        "render.rules_line",
        memory=_memory(lang, info.memory),
        turn=turn,
        fill=fill,
        seating=seating,
        pictures=pictures,
    )


def lobby_message(info: TableInfo, *, lang: Lang = "en") -> Rendered:
    """Return the public lobby: seats so far and the Join/Leave/Add computer/Start/Cancel row."""
    lines = [_seat_heading(seat, info.seats, lang) for seat in range(4)]
    waiting = [(seat, name) for seat, _, name in info.invited if seat not in info.seats]
    for seat, name in waiting:
        wait = t(lang, "render.lobby_rematch_waiting", name=discord.utils.escape_markdown(name))
        lines[seat] = f"{SEAT_SUITS[seat].symbol} {seat_name(lang, seat)} · {wait}"
    host = t(lang, "render.lobby_host", host=info.host_id)
    if info.rematch_of is not None:
        embed = discord.Embed(
            title=t(lang, "render.lobby_rematch_title", game=info.rematch_of),
            description=(
                f"{host}\n" + "\n".join(lines) + "\n\n" + t(lang, "render.lobby_rematch_text")
            ),
            colour=COLOUR,
        )
        embed.set_footer(text=_rules_line(info, lang))
        view = discord.ui.View(timeout=None)
        for label, what, style in (
            (t(lang, "render.button_start_now"), "start", discord.ButtonStyle.primary),
            (t(lang, "render.button_cancel"), "cancel", discord.ButtonStyle.danger),
        ):
            view.add_item(
                discord.ui.Button(
                    label=label, style=style, custom_id=f"dupe:lobby:{what}:{info.game_id}"
                )
            )
        return Rendered(content=None, embeds=[embed], view=_finished(view))
    join = "render.lobby_join_computers" if info.level else "render.lobby_join_four"
    embed = discord.Embed(
        title=t(lang, "render.lobby_title"),
        description=f"{host}\n" + "\n".join(lines) + "\n\n" + t(lang, join),
        colour=COLOUR,
    )
    embed.set_footer(text=_rules_line(info, lang))
    view = discord.ui.View(timeout=None)
    gid = info.game_id
    full = len(info.seats) >= 4
    lobby_buttons = (
        ("render.button_join", "join", discord.ButtonStyle.success, full),
        ("render.button_leave", "leave", discord.ButtonStyle.secondary, False),
        ("render.button_add_computer", "addcpu", discord.ButtonStyle.secondary, full),
        ("render.button_start", "start", discord.ButtonStyle.primary, False),
        ("render.button_cancel", "cancel", discord.ButtonStyle.danger, False),
    )
    for key, what, style, disabled in lobby_buttons:
        view.add_item(
            discord.ui.Button(
                label=t(lang, key),
                style=style,
                custom_id=f"dupe:lobby:{what}:{gid}",
                disabled=disabled,
            )
        )
    return Rendered(content=None, embeds=[embed], view=_finished(view))


def _progress(lang: Lang, view: DupeView) -> str:
    return t(lang, "render.deal_trick", deal=view.deal, trick=view.trick, tricks=TRICKS)


def table_message(info: TableInfo, view: DupeView, *, lang: Lang = "en") -> Rendered:
    """Return the public table: seats with ✓ for chosen (never what), the current or last
    trick and its distribution, totals, warnings and the rules in force."""
    assert view.seat is None, "the table message is built from the public view only"
    if view.phase is Phase.OVER:
        title = t(lang, "render.table_over_title")
    else:
        title = f"Dupe — {_progress(lang, view)}"
    seat_lines = []
    for seat in range(4):
        mark = ""
        if view.phase is Phase.CHOOSE:
            mark = " ✓" if view.chosen[seat] else " …"
        elif view.phase is Phase.DISTRIBUTE and view.taker == seat:
            mark = f" — {t(lang, 'render.table_distributing')}"
        total = t(lang, "render.points", points=view.totals[seat])
        seat_lines.append(f"{_seat_heading(seat, info.seats, lang)}{mark} — {total}")
    parts = ["\n".join(seat_lines)]
    if view.phase is Phase.DISTRIBUTE and view.revealed is not None and view.taker is not None:
        parts.append(
            t(
                lang,
                "render.table_revealed",
                played=_letters(lang, view.revealed),
                taker=seat_name(lang, view.taker),
            )
        )
    elif view.last_trick is not None and view.last_trick.deal == view.deal:
        line = _trick_line(view.last_trick, info.seats, lang)
        parts.append(t(lang, "render.table_trick", trick=view.last_trick.trick, line=line))
    elif view.last_trick is not None and view.phase is Phase.OVER:
        line = _trick_line(view.last_trick, info.seats, lang)
        parts.append(t(lang, "render.table_last_trick", line=line))
    if view.phase is Phase.CHOOSE:
        waiting = [seat_name(lang, s) for s in view.to_act]
        parts.append(t(lang, "render.table_waiting", names=", ".join(waiting)) if waiting else "")
    if info.warned and info.deadline is not None and view.phase is not Phase.OVER:
        parts.append(
            t(
                lang,
                "render.table_warning",
                n=len(info.warned),
                names=", ".join(seat_name(lang, s) for s in info.warned),
                deadline=int(info.deadline),
            )
        )
    if view.phase is Phase.OVER:
        winners = ", ".join(seat_name(lang, s) for s in view.winners)
        parts.append(t(lang, "render.table_winner", winners=winners))
    embed = discord.Embed(
        title=title, description="\n\n".join(p for p in parts if p), colour=COLOUR
    )
    embed.set_footer(text=t(lang, "render.table_footer", rules=_rules_line(info, lang)))
    buttons = discord.ui.View(timeout=None)
    if view.phase is not Phase.OVER:
        buttons.add_item(
            discord.ui.Button(
                label=t(lang, "render.button_my_hand"),
                emoji="🂠",
                style=discord.ButtonStyle.primary,
                custom_id=f"dupe:hand:{info.game_id}",
            )
        )
    return Rendered(content=None, embeds=[embed], view=_finished(buttons))


def _card_style(card: Card) -> discord.ButtonStyle:
    if card.suit in (Suit.HEARTS, Suit.DIAMONDS):
        return discord.ButtonStyle.danger
    return discord.ButtonStyle.secondary


def _identity_line(view: DupeView, lang: Lang = "en") -> str:
    assert view.identity is not None and view.seat is not None
    dupe = seat_of_suit(view.identity)
    suit = view.identity.symbol
    if dupe == view.seat:
        return t(lang, "render.identity_own", suit=suit)
    return t(lang, "render.identity_other", suit=suit, dupe=seat_name(lang, dupe))


def hand_message(
    game_id: int,
    view: DupeView,
    seats: Mapping[int, SeatInfo],
    notice: str | None = None,
    assignment: str = "",
    pictures: bool = False,
    *,
    lang: Lang = "en",
) -> Rendered:
    """Return a seat's private message: identity card, hand as card buttons, trick state;
    for the taker, the distribution steps (``assignment`` holds the seat letters chosen so
    far for the revealed cards, in order); with ``pictures``, a button for a picture of
    the hand. ``notice`` is already written in ``lang``."""
    seat = view.seat
    assert seat is not None
    lines: list[str] = []
    if notice:
        lines.append(notice)
    lines.append(f"**{SEAT_SUITS[seat].symbol} {seat_name(lang, seat)}** · {_progress(lang, view)}")
    if view.phase is not Phase.OVER:
        lines.append(_identity_line(view, lang))
    if view.last_trick is not None and view.last_trick.deal == view.deal:
        line = _trick_line(view.last_trick, seats, lang)
        lines.append(t(lang, "render.hand_trick", trick=view.last_trick.trick, line=line))
    if view.won is not None:
        won = " ".join(map(str, sorted(view.won, key=by_suit))) or t(lang, "render.hand_won_none")
        lines.append(t(lang, "render.hand_won", cards=won))
    buttons = discord.ui.View(timeout=None)
    turn = turn_index(view.deal, view.trick)
    hand = sorted(view.hand, key=by_suit)
    if view.phase is Phase.OVER:
        lines.append(t(lang, "render.hand_over"))
    elif view.phase is Phase.CHOOSE:
        if view.choice is None:
            lines.append(t(lang, "render.hand_choose"))
        else:
            waiting = ", ".join(seat_name(lang, s) for s in view.to_act)
            lines.append(
                t(
                    lang,
                    "render.hand_chosen",
                    card=view.choice,
                    waiting=waiting or t(lang, "render.hand_nobody"),
                )
            )
        for i, card in enumerate(hand):
            buttons.add_item(
                discord.ui.Button(
                    label=card_label(card),
                    style=_card_style(card),
                    custom_id=f"dupe:play:{game_id}:{seat}:{turn}:{card.code}",
                    disabled=view.choice is not None,
                    row=i // 5,
                )
            )
    else:
        assert view.revealed is not None and view.taker is not None
        lines.append(t(lang, "render.hand_revealed", played=_letters(lang, view.revealed)))
        if view.taker != seat:
            taker = seat_name(lang, view.taker)
            lines.append(t(lang, "render.hand_taker_distributing", taker=taker))
        else:
            _distribution_controls(game_id, view, seat, turn, assignment, lines, buttons, lang)
        if hand:
            lines.append(t(lang, "render.hand_cards", cards=" ".join(map(str, hand))))
    if pictures and hand and view.phase is not Phase.OVER:
        buttons.add_item(
            discord.ui.Button(
                label=t(lang, "render.button_picture"),
                style=discord.ButtonStyle.secondary,
                custom_id=f"dupe:pic:{game_id}",
                row=4,
            )
        )
    return Rendered(content="\n".join(lines), embeds=[], view=_finished(buttons))


def _distribution_controls(
    game_id: int,
    view: DupeView,
    seat: int,
    turn: int,
    assignment: str,
    lines: list[str],
    buttons: discord.ui.View,
    lang: Lang = "en",
) -> None:
    assert view.revealed is not None
    cards = sorted(view.revealed, key=by_suit)
    given = dict(zip(cards, assignment, strict=False))
    base = f"dupe:give:{game_id}:{seat}:{turn}"
    lines.append(t(lang, "render.give_intro"))
    if given:
        so_far = ", ".join(
            f"{card} → {seat_name(lang, SEAT_LETTERS.index(to))}" for card, to in given.items()
        )
        lines.append(t(lang, "render.give_so_far", given=so_far))

    def add(
        label: str, style: discord.ButtonStyle, custom_id: str, row: int, disabled: bool = False
    ) -> None:
        buttons.add_item(
            discord.ui.Button(
                label=label, style=style, custom_id=custom_id, disabled=disabled, row=row
            )
        )

    if len(assignment) < 4:
        card = cards[len(assignment)]
        lines.append(t(lang, "render.give_who", card=card))
        for target in range(4):
            letter = SEAT_LETTERS[target]
            custom_id = f"{base}:{assignment}{letter}"
            label = seat_name(lang, target)
            if view.dupe == target:
                label = t(lang, "render.give_your_dupe", seat=label)
            add(label, discord.ButtonStyle.primary, custom_id, 0, disabled=letter in assignment)
    else:
        lines.append(t(lang, "render.give_confirm"))
        confirm = f"dupe:giveok:{game_id}:{seat}:{turn}:{assignment}"
        add(t(lang, "render.button_confirm"), discord.ButtonStyle.success, confirm, 0)
    if assignment:
        add(t(lang, "render.button_start_over"), discord.ButtonStyle.secondary, f"{base}:", 1)


def deal_scoring(
    result: DealResult, seats: Mapping[int, SeatInfo], *, lang: Lang = "en"
) -> Rendered:
    """Return the public scoring of a deal: identity cards, every won hand with its
    breakdown, whom it credits, and the running totals."""
    embed = discord.Embed(title=t(lang, "render.scoring_title", deal=result.deal), colour=COLOUR)
    for owner in range(4):
        holder = next(s for s in range(4) if seat_of_suit(result.identities[s]) == owner)
        hand = " ".join(map(str, sorted(result.won[owner], key=by_suit)))
        identity = t(lang, "render.identity_card", suit=result.identities[owner].symbol)
        won = t(
            lang,
            "render.scoring_hand",
            cards=hand,
            score=score_text(result.scores[owner], lang),
            holder=seat_name(lang, holder),
        )
        embed.add_field(
            name=_seat_heading(owner, seats, lang), value=f"{identity}\n{won}", inline=False
        )
    totals = " · ".join(
        f"{seat_name(lang, s)} +{result.credited[s]} = {result.totals[s]}" for s in range(4)
    )
    embed.add_field(name=t(lang, "render.scoring_totals"), value=totals, inline=False)
    return Rendered(content=None, embeds=[embed], view=None)


def final_standings(
    totals: Sequence[int],
    winners: Sequence[int],
    seats: Mapping[int, SeatInfo],
    game_id: int | None = None,
    *,
    lang: Lang = "en",
) -> Rendered:
    """Return the end-of-game message: standings by total and the winner(s); with
    ``game_id``, the Rematch and Replay buttons."""
    order = sorted(range(4), key=lambda s: (-totals[s], s))
    lines = []
    for place, seat in enumerate(order, start=1):
        crown = " 🏆" if seat in winners else ""
        lines.append(f"{place}. {_seat_heading(seat, seats, lang)} — **{totals[seat]}**{crown}")
    names = _and(lang, [seats[s].label if s in seats else seat_name(lang, s) for s in winners])
    won = t(lang, "render.final_winners", n=len(winners), names=names)
    embed = discord.Embed(
        title=t(lang, "render.final_title"),
        description="\n".join(lines) + f"\n\n{won}",
        colour=COLOUR,
    )
    if game_id is None:
        return Rendered(content=None, embeds=[embed], view=None)
    embed.set_footer(text=t(lang, "render.final_footer"))
    view = discord.ui.View(timeout=None)
    view.add_item(
        discord.ui.Button(
            label=t(lang, "render.button_rematch"),
            style=discord.ButtonStyle.success,
            custom_id=f"dupe:rematch:{game_id}",
        )
    )
    view.add_item(
        discord.ui.Button(
            label=t(lang, "render.button_replay"),
            style=discord.ButtonStyle.secondary,
            custom_id=f"rp:{game_id}:0:d1",
        )
    )
    return Rendered(content=None, embeds=[embed], view=_finished(view))


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
        if row.user_id is None:
            who = t(lang, "render.leaderboard_computer", level=row.level)
        else:
            who = f"<@{row.user_id}>"
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
        title=t(lang, "render.leaderboard_title", game=_game(lang, game)),
        description="\n".join(lines) or t(lang, "render.no_games_server"),
        colour=COLOUR,
    )
    sort_text = t(lang, f"render.sort_{sort}") if sort in SORTS else sort
    embed.set_footer(
        text=t(lang, "render.leaderboard_footer", page=page + 1, pages=pages, sort=sort_text)
    )
    return embed


def player_stats(
    name: str, stats: PlayerStats | None, game: str = "dupe", *, lang: Lang = "en"
) -> discord.Embed:
    """Return a member's record in this server's games."""
    title = t(lang, "render.stats_title", name=name, game=_game(lang, game))
    if stats is None:
        return discord.Embed(
            title=title, description=t(lang, "render.stats_no_games"), colour=COLOUR
        )
    embed = discord.Embed(title=title, colour=COLOUR)
    wins = f"{decimal(lang, stats.wins, None)} ({percent(lang, stats.win_share)})"
    best_deal = "—" if stats.best_deal is None else str(stats.best_deal)
    embed.add_field(name=t(lang, "render.stats_games"), value=str(stats.games))
    embed.add_field(name=t(lang, "render.stats_wins"), value=wins)
    embed.add_field(name=t(lang, "render.stats_mean_score"), value=decimal(lang, stats.mean_score))
    embed.add_field(name=t(lang, "render.stats_best_score"), value=str(stats.best_score))
    embed.add_field(name=t(lang, "render.stats_best_deal"), value=best_deal)
    embed.add_field(
        name=t(lang, "render.stats_favourite_seat"), value=seat_name(lang, stats.favourite_seat)
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


def history_page(
    games: Sequence[FinishedGame], guild_id: int, *, lang: Lang = "en"
) -> discord.Embed:
    """Return the server's recent games: when, where, who, and who won."""
    lines = []
    for game in games:
        record = game.record
        players = ", ".join(
            f"<@{seat.user_id}>" if seat.user_id is not None else f"🤖 {seat.level}"
            for _, seat in sorted(record.seats.items())
        )
        winners = _and(
            lang,
            [
                f"<@{record.seats[s].user_id}>"
                if record.seats[s].user_id is not None
                else f"🤖 {record.seats[s].level}"
                for s in game.winners
                if s in record.seats
            ],
        )
        best = max((score for score, _ in game.results.values()), default=0)
        where = f"https://discord.com/channels/{guild_id}/{record.channel_id}"
        lines.append(
            t(
                lang,
                "render.history_game",
                game=record.id,
                ended=int(game.ended_at),
                channel=where,
                players=players,
                winners=winners or "—",
                best=best,
            )
        )
    return discord.Embed(
        title=t(lang, "render.history_title"),
        description="\n\n".join(lines) or t(lang, "render.no_games_server"),
        colour=COLOUR,
    )


def replay_step(
    game_id: int,
    steps: Sequence[Step],
    index: int,
    seats: Mapping[int, SeatInfo],
    *,
    lang: Lang = "en",
) -> Rendered:
    """Return one step of a finished game's replay, with Previous / Next / deal buttons."""
    step = steps[index]
    if isinstance(step, DealResult):
        embed = deal_scoring(step, seats, lang=lang).embeds[0]
    elif isinstance(step, Final):
        embed = final_standings(step.totals, step.winners, seats, lang=lang).embeds[0]
    elif isinstance(step, DealStart):
        embed = discord.Embed(
            title=t(lang, "render.replay_dealt_title", deal=step.deal), colour=COLOUR
        )
        for seat in range(4):
            dupe = seat_name(lang, seat_of_suit(step.identities[seat]))
            hand = " ".join(map(str, sorted(step.hands[seat], key=by_suit)))
            suit = step.identities[seat].symbol
            embed.add_field(
                name=_seat_heading(seat, seats, lang),
                value=t(lang, "render.replay_dealt_seat", suit=suit, dupe=dupe, cards=hand),
                inline=False,
            )
    else:
        embed = discord.Embed(
            title=t(lang, "render.replay_trick_title", deal=step.deal, trick=step.trick),
            description=_trick_line(step, seats, lang),
            colour=COLOUR,
        )
    embed.set_footer(
        text=t(lang, "render.replay_footer", game=game_id, step=index + 1, steps=len(steps))
    )
    view = discord.ui.View(timeout=None)
    last = len(steps) - 1
    view.add_item(
        discord.ui.Button(
            label=t(lang, "render.button_previous"),
            custom_id=f"rp:{game_id}:{max(index - 1, 0)}:p",
            disabled=index == 0,
            row=0,
        )
    )
    view.add_item(
        discord.ui.Button(
            label=t(lang, "render.button_next"),
            custom_id=f"rp:{game_id}:{min(index + 1, last)}:n",
            disabled=index >= last,
            row=0,
        )
    )
    starts = [i for i, s in enumerate(steps) if isinstance(s, DealStart)]
    for deal, start in enumerate(starts, start=1):
        view.add_item(
            discord.ui.Button(
                label=t(lang, "render.button_deal", deal=deal),
                custom_id=f"rp:{game_id}:{start}:d{deal}",
                style=discord.ButtonStyle.secondary,
                row=1,
            )
        )
    return Rendered(content=None, embeds=[embed], view=_finished(view))


def defaults_text(options: Mapping[str, Any], changed: bool, *, lang: Lang = "en") -> str:
    """Return a server's defaults for new tables, as ``/dupe defaults`` shows them."""
    level = options.get("level")
    turn = int(options.get("turn_seconds", 120))
    random = options.get("seating") == "random"
    pictures = "render.on" if options.get("pictures", True) else "render.off"
    lines = [
        t(lang, "render.defaults_title_saved" if changed else "render.defaults_title"),
        t(lang, "render.defaults_memory", memory=_memory(lang, options.get("memory", "strict"))),
        t(lang, "render.defaults_turn", seconds=turn),
        t(lang, "render.defaults_computers", level=level or t(lang, "render.none")),
        t(
            lang,
            "render.defaults_seating",
            seating=t(lang, "render.seating_random" if random else "render.seating_join"),
        ),
        t(lang, "render.defaults_pictures", pictures=t(lang, pictures)),
        t(lang, "render.defaults_otherwise"),
    ]
    return "\n".join(lines)


def rules_text(*, lang: Lang = "en") -> str:
    """Return a private summary of the rules."""
    return t(lang, "render.rules")
