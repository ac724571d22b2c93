"""Views → Discord messages: text, embeds and buttons. Pure: no network, no state.

Every public message is built from ``state.public_view()`` and every private one from
``state.view(seat)``, so what a message can show is limited to what the engine lets that
audience know. Custom ids carry everything a button means (``dupe:play:<game>:<seat>:
<turn>:<card>``), so buttons keep working after a restart; the DynamicItem classes in
``bot.dupe.buttons`` parse them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import discord

from bot.ratings import Rating
from bot.replay import DealStart, Final, Step
from bot.store import FinishedGame, LeaderboardRow, PlayerStats
from engine.cards import Card, Suit, by_suit
from engine.dupe import (
    SEAT_LETTERS,
    SEAT_NAMES,
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
MEMORY_TEXT = {
    "strict": "strict (won cards stay face down until the deal is scored)",
    "open": "open (each player may look at their own won cards)",
}


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


def _seat_heading(seat: int, seats: Mapping[int, SeatInfo]) -> str:
    info = seats.get(seat)
    who = info.label if info else "—"
    return f"{SEAT_SUITS[seat].symbol} {SEAT_NAMES[seat]} · {who}"


def _trick_line(trick: TrickRecord, seats: Mapping[int, SeatInfo]) -> str:
    played = " · ".join(f"{SEAT_LETTERS[s]} {trick.cards[s]}" for s in range(4))
    if trick.taker is None:
        return f"{played}\nNo single highest or lowest card: each player keeps their own card."
    gave = ", ".join(f"{SEAT_LETTERS[s]} {trick.received[s]}" for s in range(4))
    return f"{played}\n**{SEAT_NAMES[trick.taker]}** took it and gave: {gave}"


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


def _rules_line(info: TableInfo) -> str:
    fill = (
        f"computer players ({info.level}) fill empty seats"
        if info.level
        else "no computers fill empty seats"
    )
    minutes = info.turn_seconds / 60
    turn = f"{info.turn_seconds} s" if info.turn_seconds < 120 else f"{minutes:g} min"
    pictures = "pictures on" if info.pictures else "pictures off"
    seating = "random seats" if info.seating == "random" else "seats in join order"
    return f"Memory: {info.memory} · Turn time: {turn} · {fill} · {seating} · {pictures}"


def lobby_message(info: TableInfo) -> Rendered:
    """Return the public lobby: seats so far and the Join/Leave/Add computer/Start/Cancel row."""
    lines = [_seat_heading(seat, info.seats) for seat in range(4)]
    waiting = [(seat, name) for seat, _, name in info.invited if seat not in info.seats]
    for seat, name in waiting:
        lines[seat] = (
            f"{SEAT_SUITS[seat].symbol} {SEAT_NAMES[seat]} · ⏳ waiting for "
            f"{discord.utils.escape_markdown(name)} to press Rematch"
        )
    if info.rematch_of is not None:
        embed = discord.Embed(
            title=f"Dupe — rematch of game #{info.rematch_of}",
            description=(
                f"Host: <@{info.host_id}>\n" + "\n".join(lines) + "\n\n"
                "The same seats and rules with a new deal. It starts when every player of "
                "that game has pressed **Rematch** under its final standings."
            ),
            colour=COLOUR,
        )
        embed.set_footer(text=_rules_line(info))
        view = discord.ui.View(timeout=None)
        for label, what, style in (
            ("Start now", "start", discord.ButtonStyle.primary),
            ("Cancel", "cancel", discord.ButtonStyle.danger),
        ):
            view.add_item(
                discord.ui.Button(
                    label=label, style=style, custom_id=f"dupe:lobby:{what}:{info.game_id}"
                )
            )
        return Rendered(content=None, embeds=[embed], view=_finished(view))
    embed = discord.Embed(
        title="Dupe — a table is open",
        description=(
            f"Host: <@{info.host_id}>\n" + "\n".join(lines) + "\n\n"
            "Press **Join** to take a seat. The host starts the game"
            + (" (empty seats get computer players)." if info.level else " once four are seated.")
        ),
        colour=COLOUR,
    )
    embed.set_footer(text=_rules_line(info))
    view = discord.ui.View(timeout=None)
    gid = info.game_id
    full = len(info.seats) >= 4
    lobby_buttons = (
        ("Join", "join", discord.ButtonStyle.success, full),
        ("Leave", "leave", discord.ButtonStyle.secondary, False),
        ("Add computer", "addcpu", discord.ButtonStyle.secondary, full),
        ("Start", "start", discord.ButtonStyle.primary, False),
        ("Cancel", "cancel", discord.ButtonStyle.danger, False),
    )
    for label, what, style, disabled in lobby_buttons:
        view.add_item(
            discord.ui.Button(
                label=label, style=style, custom_id=f"dupe:lobby:{what}:{gid}", disabled=disabled
            )
        )
    return Rendered(content=None, embeds=[embed], view=_finished(view))


def table_message(info: TableInfo, view: DupeView) -> Rendered:
    """Return the public table: seats with ✓ for chosen (never what), the current or last
    trick and its distribution, totals, warnings and the rules in force."""
    assert view.seat is None, "the table message is built from the public view only"
    if view.phase is Phase.OVER:
        title = "Dupe — game over"
    else:
        title = f"Dupe — deal {view.deal} of 4 · trick {view.trick} of {TRICKS}"
    seat_lines = []
    for seat in range(4):
        mark = ""
        if view.phase is Phase.CHOOSE:
            mark = " ✓" if view.chosen[seat] else " …"
        elif view.phase is Phase.DISTRIBUTE and view.taker == seat:
            mark = " — distributing"
        total = view.totals[seat]
        seat_lines.append(f"{_seat_heading(seat, info.seats)}{mark} — {total} pts")
    parts = ["\n".join(seat_lines)]
    if view.phase is Phase.DISTRIBUTE and view.revealed is not None and view.taker is not None:
        played = " · ".join(f"{SEAT_LETTERS[s]} {view.revealed[s]}" for s in range(4))
        parts.append(
            f"**Revealed:** {played}\n**{SEAT_NAMES[view.taker]}** takes the trick and is "
            "giving one card to each player."
        )
    elif view.last_trick is not None and view.last_trick.deal == view.deal:
        parts.append(
            f"**Trick {view.last_trick.trick}:** {_trick_line(view.last_trick, info.seats)}"
        )
    elif view.last_trick is not None and view.phase is Phase.OVER:
        parts.append(f"**Last trick:** {_trick_line(view.last_trick, info.seats)}")
    if view.phase is Phase.CHOOSE:
        waiting = [SEAT_NAMES[s] for s in view.to_act]
        parts.append(
            "Everyone chooses a card face down. Waiting for: " + ", ".join(waiting)
            if waiting
            else ""
        )
    if info.warned and info.deadline is not None and view.phase is not Phase.OVER:
        names = ", ".join(SEAT_NAMES[s] for s in info.warned)
        parts.append(
            f"⏰ {names}: time is nearly up (<t:{int(info.deadline)}:R>); then a computer "
            "player decides for you this once."
        )
    if view.phase is Phase.OVER:
        winners = ", ".join(SEAT_NAMES[s] for s in view.winners)
        parts.append(f"🏆 Winner: {winners}")
    embed = discord.Embed(
        title=title, description="\n\n".join(p for p in parts if p), colour=COLOUR
    )
    embed.set_footer(text=_rules_line(info) + " · Press “My hand” to see your cards.")
    buttons = discord.ui.View(timeout=None)
    if view.phase is not Phase.OVER:
        buttons.add_item(
            discord.ui.Button(
                label="My hand",
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


def _identity_line(view: DupeView) -> str:
    assert view.identity is not None and view.seat is not None
    dupe = seat_of_suit(view.identity)
    who = "you are your own dupe" if dupe == view.seat else f"{SEAT_NAMES[dupe]} is your dupe"
    return (
        f"**Your identity card: {view.identity.symbol}** — {who}: you score "
        f"{'your own' if dupe == view.seat else SEAT_NAMES[dupe] + '’s'} won cards this deal."
    )


def hand_message(
    game_id: int,
    view: DupeView,
    seats: Mapping[int, SeatInfo],
    notice: str | None = None,
    assignment: str = "",
    pictures: bool = False,
) -> Rendered:
    """Return a seat's private message: identity card, hand as card buttons, trick state;
    for the taker, the distribution steps (``assignment`` holds the seat letters chosen so
    far for the revealed cards, in order); with ``pictures``, a button for a picture of
    the hand."""
    seat = view.seat
    assert seat is not None
    lines: list[str] = []
    if notice:
        lines.append(notice)
    lines.append(
        f"**{SEAT_SUITS[seat].symbol} {SEAT_NAMES[seat]}** · deal {view.deal} of 4 · "
        f"trick {view.trick} of {TRICKS}"
    )
    if view.phase is not Phase.OVER:
        lines.append(_identity_line(view))
    if view.last_trick is not None and view.last_trick.deal == view.deal:
        lines.append(f"Trick {view.last_trick.trick}: {_trick_line(view.last_trick, seats)}")
    if view.won is not None:
        won = " ".join(map(str, sorted(view.won, key=by_suit))) or "none yet"
        lines.append(f"Your won cards: {won}")
    buttons = discord.ui.View(timeout=None)
    turn = turn_index(view.deal, view.trick)
    hand = sorted(view.hand, key=by_suit)
    if view.phase is Phase.OVER:
        lines.append("The game is over.")
    elif view.phase is Phase.CHOOSE:
        if view.choice is None:
            lines.append("Choose a card for this trick (face down; a choice is final):")
        else:
            waiting = ", ".join(SEAT_NAMES[s] for s in view.to_act)
            lines.append(
                f"You chose **{view.choice}** for this trick. Waiting for: {waiting or 'nobody'}."
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
        played = " · ".join(f"{SEAT_LETTERS[s]} {view.revealed[s]}" for s in range(4))
        lines.append(f"Revealed: {played}")
        if view.taker != seat:
            lines.append(f"{SEAT_NAMES[view.taker]} takes the trick and is distributing it.")
        else:
            _distribution_controls(game_id, view, seat, turn, assignment, lines, buttons)
        if hand:
            lines.append("Your hand: " + " ".join(map(str, hand)))
    if pictures and hand and view.phase is not Phase.OVER:
        buttons.add_item(
            discord.ui.Button(
                label="🖼 Picture of my hand",
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
) -> None:
    assert view.revealed is not None
    cards = sorted(view.revealed, key=by_suit)
    given = dict(zip(cards, assignment, strict=False))
    base = f"dupe:give:{game_id}:{seat}:{turn}"
    lines.append("**You take the trick.** Give one card to each player, yourself included.")
    if given:
        lines.append(
            "So far: "
            + ", ".join(
                f"{card} → {SEAT_NAMES[SEAT_LETTERS.index(to)]}" for card, to in given.items()
            )
        )

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
        lines.append(f"Who gets **{card}**?")
        for target in range(4):
            suffix = " (your dupe)" if view.dupe == target else ""
            letter = SEAT_LETTERS[target]
            custom_id = f"{base}:{assignment}{letter}"
            label = f"{SEAT_NAMES[target]}{suffix}"
            add(label, discord.ButtonStyle.primary, custom_id, 0, disabled=letter in assignment)
    else:
        lines.append("Confirm this distribution? Everyone will see who got which card.")
        confirm = f"dupe:giveok:{game_id}:{seat}:{turn}:{assignment}"
        add("Confirm", discord.ButtonStyle.success, confirm, 0)
    if assignment:
        add("Start over", discord.ButtonStyle.secondary, f"{base}:", 1)


def deal_scoring(result: DealResult, seats: Mapping[int, SeatInfo]) -> Rendered:
    """Return the public scoring of a deal: identity cards, every won hand with its
    breakdown, whom it credits, and the running totals."""
    embed = discord.Embed(title=f"Dupe — deal {result.deal} scored", colour=COLOUR)
    for owner in range(4):
        holder = next(s for s in range(4) if seat_of_suit(result.identities[s]) == owner)
        hand = " ".join(map(str, sorted(result.won[owner], key=by_suit)))
        embed.add_field(
            name=f"{_seat_heading(owner, seats)}",
            value=(
                f"Identity card {result.identities[owner].symbol}\n"
                f"Won: {hand}\n`{result.scores[owner]}`\n"
                f"→ credited to **{SEAT_NAMES[holder]}**"
            ),
            inline=False,
        )
    totals = " · ".join(
        f"{SEAT_NAMES[s]} +{result.credited[s]} = {result.totals[s]}" for s in range(4)
    )
    embed.add_field(name="Totals", value=totals, inline=False)
    return Rendered(content=None, embeds=[embed], view=None)


def final_standings(
    totals: Sequence[int],
    winners: Sequence[int],
    seats: Mapping[int, SeatInfo],
    game_id: int | None = None,
) -> Rendered:
    """Return the end-of-game message: standings by total and the winner(s); with
    ``game_id``, the Rematch and Replay buttons."""
    order = sorted(range(4), key=lambda s: (-totals[s], s))
    lines = []
    for place, seat in enumerate(order, start=1):
        crown = " 🏆" if seat in winners else ""
        lines.append(f"{place}. {_seat_heading(seat, seats)} — **{totals[seat]}**{crown}")
    names = " and ".join(seats[s].label if s in seats else SEAT_NAMES[s] for s in winners)
    verb = "share the win" if len(winners) > 1 else "wins"
    embed = discord.Embed(
        title="Dupe — final standings",
        description="\n".join(lines) + f"\n\n{names} {verb}!",
        colour=COLOUR,
    )
    if game_id is None:
        return Rendered(content=None, embeds=[embed], view=None)
    embed.set_footer(text="Rematch: same seats and rules, a new deal — each player says yes.")
    view = discord.ui.View(timeout=None)
    view.add_item(
        discord.ui.Button(
            label="🔁 Rematch",
            style=discord.ButtonStyle.success,
            custom_id=f"dupe:rematch:{game_id}",
        )
    )
    view.add_item(
        discord.ui.Button(
            label="📜 Replay", style=discord.ButtonStyle.secondary, custom_id=f"rp:{game_id}:0:d1"
        )
    )
    return Rendered(content=None, embeds=[embed], view=_finished(view))


SORT_TEXT = {
    "rating": "by rating (the conservative estimate μ − 3σ)",
    "wins": "by wins (ties share a win)",
    "points": "by cumulative score over all games",
}
GAME_NAMES = {"dupe": "Dupe"}


def rating_text(rating: Rating | None) -> str:
    """Return a rating as shown: the conservative estimate, then ``μ ± 3σ``."""
    if rating is None:
        return "unrated"
    return f"rating {rating.conservative:.1f} ({rating.mu:.1f} ± {3 * rating.sigma:.1f})"


def leaderboard_page(
    rows: Sequence[LeaderboardRow],
    *,
    game: str,
    sort: str,
    page: int,
    pages: int,
    first_place: int,
    viewer_id: int,
) -> discord.Embed:
    """Return one page of a server's leaderboard; the viewer's own line is marked."""
    lines = []
    for place, row in enumerate(rows, start=first_place):
        who = f"🤖 {row.level} (computer)" if row.user_id is None else f"<@{row.user_id}>"
        me = " ← you" if row.user_id == viewer_id else ""
        lines.append(
            f"**{place}.** {who} — {row.points} pts · {row.games} games · {row.wins:g} wins"
            f" · {rating_text(row.rating)}{me}"
        )
    name = GAME_NAMES.get(game, game)
    embed = discord.Embed(
        title=f"{name} leaderboard",
        description="\n".join(lines) or "No finished games in this server yet.",
        colour=COLOUR,
    )
    embed.set_footer(text=f"Page {page + 1} of {pages} · sorted {SORT_TEXT[sort]}")
    return embed


def player_stats(name: str, stats: PlayerStats | None, game: str = "dupe") -> discord.Embed:
    """Return a member's record in this server's games."""
    title = f"{name} — {GAME_NAMES.get(game, game)} in this server"
    if stats is None:
        return discord.Embed(title=title, description="No finished games yet.", colour=COLOUR)
    embed = discord.Embed(title=title, colour=COLOUR)
    embed.add_field(name="Games", value=str(stats.games))
    embed.add_field(name="Wins", value=f"{stats.wins:g} ({stats.win_share:.0%})")
    embed.add_field(name="Mean score", value=f"{stats.mean_score:.1f}")
    embed.add_field(name="Best score", value=str(stats.best_score))
    embed.add_field(
        name="Best deal", value="—" if stats.best_deal is None else str(stats.best_deal)
    )
    embed.add_field(name="Favourite seat", value=SEAT_NAMES[stats.favourite_seat])
    rating = stats.rating
    if rating is not None:
        text = (
            f"{rating.conservative:.1f} — skill {rating.mu:.1f}, "
            f"uncertainty ± {3 * rating.sigma:.1f}"
        )
    else:
        text = "unrated"
    embed.add_field(name="Rating", value=text, inline=False)
    return embed


def history_page(games: Sequence[FinishedGame], guild_id: int) -> discord.Embed:
    """Return the server's recent games: when, where, who, and who won."""
    lines = []
    for game in games:
        record = game.record
        players = ", ".join(
            f"<@{seat.user_id}>" if seat.user_id is not None else f"🤖 {seat.level}"
            for _, seat in sorted(record.seats.items())
        )
        winners = " and ".join(
            f"<@{record.seats[s].user_id}>"
            if record.seats[s].user_id is not None
            else f"🤖 {record.seats[s].level}"
            for s in game.winners
            if s in record.seats
        )
        best = max((score for score, _ in game.results.values()), default=0)
        where = f"https://discord.com/channels/{guild_id}/{record.channel_id}"
        lines.append(
            f"**#{record.id}** <t:{int(game.ended_at)}:d> in {where}\n"
            f"{players}\n🏆 {winners or '—'} with {best} · `/replay {record.id}`"
        )
    return discord.Embed(
        title="Recent Dupe games in this server",
        description="\n\n".join(lines) or "No finished games in this server yet.",
        colour=COLOUR,
    )


def replay_step(
    game_id: int, steps: Sequence[Step], index: int, seats: Mapping[int, SeatInfo]
) -> Rendered:
    """Return one step of a finished game's replay, with Previous / Next / deal buttons."""
    step = steps[index]
    if isinstance(step, DealResult):
        embed = deal_scoring(step, seats).embeds[0]
    elif isinstance(step, Final):
        embed = final_standings(step.totals, step.winners, seats).embeds[0]
    elif isinstance(step, DealStart):
        embed = discord.Embed(title=f"Dupe — deal {step.deal} dealt", colour=COLOUR)
        for seat in range(4):
            dupe = SEAT_NAMES[seat_of_suit(step.identities[seat])]
            hand = " ".join(map(str, sorted(step.hands[seat], key=by_suit)))
            embed.add_field(
                name=_seat_heading(seat, seats),
                value=f"Identity card {step.identities[seat].symbol} ({dupe} is the dupe)\n{hand}",
                inline=False,
            )
    else:
        embed = discord.Embed(
            title=f"Dupe — deal {step.deal}, trick {step.trick}",
            description=_trick_line(step, seats),
            colour=COLOUR,
        )
    embed.set_footer(text=f"Replay of game #{game_id} · step {index + 1} of {len(steps)}")
    view = discord.ui.View(timeout=None)
    last = len(steps) - 1
    view.add_item(
        discord.ui.Button(
            label="◀ Previous",
            custom_id=f"rp:{game_id}:{max(index - 1, 0)}:p",
            disabled=index == 0,
            row=0,
        )
    )
    view.add_item(
        discord.ui.Button(
            label="Next ▶",
            custom_id=f"rp:{game_id}:{min(index + 1, last)}:n",
            disabled=index >= last,
            row=0,
        )
    )
    starts = [i for i, s in enumerate(steps) if isinstance(s, DealStart)]
    for deal, start in enumerate(starts, start=1):
        view.add_item(
            discord.ui.Button(
                label=f"Deal {deal}",
                custom_id=f"rp:{game_id}:{start}:d{deal}",
                style=discord.ButtonStyle.secondary,
                row=1,
            )
        )
    return Rendered(content=None, embeds=[embed], view=_finished(view))


def defaults_text(options: Mapping[str, Any], changed: bool) -> str:
    """Return a server's defaults for new tables, as ``/dupe defaults`` shows them."""
    level = options.get("level")
    turn = int(options.get("turn_seconds", 120))
    lines = [
        "**Defaults for new Dupe tables in this server**" + (" (saved)" if changed else ""),
        f"• Memory: {options.get('memory', 'strict')}",
        f"• Turn time: {turn} s",
        f"• Computers for empty seats: {level or 'none'}",
        f"• Seating: {'random' if options.get('seating') == 'random' else 'join order'}",
        f"• Pictures: {'on' if options.get('pictures', True) else 'off'}",
        "Anyone starting a table can still choose otherwise in /dupe start.",
    ]
    return "\n".join(lines)


def rules_text() -> str:
    """Return a private summary of the rules."""
    return (
        "**Dupe** (David Parlett) — four players, four deals.\n"
        "• Seats own suits: North ♠, East ♥, South ♣, West ♦.\n"
        "• Each deal you secretly get an identity card. Its suit names your **dupe**: at the "
        "end of the deal you score what your dupe’s won cards are worth (you may be your "
        "own dupe).\n"
        "• Thirteen tricks: everyone picks a card face down, then all four are revealed.\n"
        "• The single highest rank takes the trick; if the highest is shared, the single lowest "
        "takes it; if that is shared too, everyone keeps their own card. Suits don’t matter.\n"
        "• The taker gives one of the four cards to each player, themself included.\n"
        "• Won cards stay face down (strict memory) — remember who got what!\n"
        "• Scoring a won hand: cards in the longest suit × length of the longest run of "
        "consecutive ranks (any suits, ace high or low) + 6 per three of a rank and 8 per four, "
        "not counting the one card of each rank the run uses.\n"
        "• Your won cards are your next hand. Highest total after four deals wins."
    )
