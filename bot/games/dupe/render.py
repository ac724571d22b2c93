"""Dupe's messages: the table, a seat's private hand with its controls, a deal's scoring,
replay steps and the rules. Pure: no network, no state.

Every public message is built from ``state.public_view()`` and every private one from
``state.view(seat)``, so what a message can show is limited to what the engine lets that
audience know. Controls carry their meaning in their custom ids (``bot.ids.control``), with
these payloads: ``p<card>`` plays a card (``p5H``); ``g<letters>`` is a step of the taker's
distribution (the seat letters chosen so far for the revealed cards, in order: ``gNE``);
``k<letters>`` confirms a whole distribution (``kNESW``).

Every function that writes text takes ``lang`` and writes all of it in that language from
the catalogue (``bot/locales/render.toml``); custom ids never depend on it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import discord

from bot import ids
from bot.controls import Button, Controls
from bot.game import Rendered, SeatInfo, TableInfo
from bot.games.dupe.replay import DealStart, Final, Step
from bot.games.dupe.words import score_text
from bot.i18n import Lang, seat_letter, seat_name, t
from bot.render import replay_buttons
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
    "COLOUR",
    "card_label",
    "deal_scoring",
    "deal_summary",
    "hand_message",
    "replay_step",
    "rules_text",
    "table_message",
    "turn_index",
]

COLOUR = discord.Colour(0x2E7D32)
MEMORY_RULES = ("strict", "open")


def memory_text(lang: Lang, memory: str) -> str:
    """Return the memory rule's name in ``lang``."""
    return t(lang, f"dupe.render_memory_{memory}") if memory in MEMORY_RULES else memory


def _letters(lang: Lang, cards: Sequence[Card]) -> str:
    """Return the four cards of a trick by seat: ``N 5♠ · E 9♥ · S 2♣ · W K♦``."""
    return " · ".join(f"{seat_letter(lang, s)} {cards[s]}" for s in range(4))


def turn_index(deal: int, trick: int) -> int:
    """Return the trick's number within the game, 0 to 51, as buttons carry it."""
    return (deal - 1) * TRICKS + (trick - 1)


def card_label(card: Card) -> str:
    """Return a card as a button shows it, e.g. ``10♠``."""
    return str(card)


def _seat_heading(seat: int, seats: Mapping[int, SeatInfo], lang: Lang = "en") -> str:
    info = seats.get(seat)
    who = info.shown(lang, seat) if info else "—"
    return f"{SEAT_SUITS[seat].symbol} {seat_name(lang, seat)} · {who}"


def _trick_line(trick: TrickRecord, seats: Mapping[int, SeatInfo], lang: Lang = "en") -> str:
    played = _letters(lang, trick.cards)
    if trick.taker is None:
        return f"{played}\n{t(lang, 'dupe.trick_kept')}"
    gave = ", ".join(f"{seat_letter(lang, s)} {trick.received[s]}" for s in range(4))
    taken = t(lang, "dupe.trick_taken", taker=seat_name(lang, trick.taker), gave=gave)
    return f"{played}\n{taken}"


def _progress(lang: Lang, view: DupeView) -> str:
    return t(lang, "dupe.deal_trick", deal=view.deal, trick=view.trick, tricks=TRICKS)


def _who(seat: int, seats: Mapping[int, SeatInfo], lang: Lang) -> str:
    info = seats.get(seat)
    return info.shown(lang, seat) if info is not None else seat_name(lang, seat)


def table_message(info: TableInfo, view: DupeView, rules: str, *, lang: Lang = "en") -> Rendered:
    """Return the public table: seats with ✓ for chosen (never what), the current or last
    trick and its distribution, totals, warnings and the rules in force (``rules``)."""
    assert view.seat is None, "the table message is built from the public view only"
    if view.phase is Phase.OVER:
        title = t(lang, "dupe.table_over_title")
    else:
        title = f"Dupe — {_progress(lang, view)}"
    seat_lines = []
    for seat in range(4):
        mark = ""
        if view.phase is Phase.CHOOSE:
            mark = " ✓" if view.chosen[seat] else " …"
        elif view.phase is Phase.DISTRIBUTE and view.taker == seat:
            mark = f" — {t(lang, 'dupe.table_distributing')}"
        total = t(lang, "render.points", points=view.totals[seat])
        seat_lines.append(f"{_seat_heading(seat, info.seats, lang)}{mark} — {total}")
    parts = ["\n".join(seat_lines)]
    if view.phase is Phase.DISTRIBUTE and view.revealed is not None and view.taker is not None:
        parts.append(
            t(
                lang,
                "dupe.table_revealed",
                played=_letters(lang, view.revealed),
                taker=seat_name(lang, view.taker),
            )
        )
    elif view.last_trick is not None and view.last_trick.deal == view.deal:
        line = _trick_line(view.last_trick, info.seats, lang)
        parts.append(t(lang, "dupe.table_trick", trick=view.last_trick.trick, line=line))
    elif view.last_trick is not None:
        # The previous deal's last trick, until this deal's first is complete (or, at the
        # end, the game's): everybody sees who got which card, as at a real table.
        line = _trick_line(view.last_trick, info.seats, lang)
        if view.phase is Phase.OVER:
            parts.append(t(lang, "dupe.table_last_trick", line=line))
        else:
            last = view.last_trick
            parts.append(
                t(lang, "dupe.table_deal_trick", deal=last.deal, trick=last.trick, line=line)
            )
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
        winners = ", ".join(_who(s, info.seats, lang) for s in view.winners)
        parts.append(t(lang, "dupe.table_winner", winners=winners))
    embed = discord.Embed(
        title=title, description="\n\n".join(p for p in parts if p), colour=COLOUR
    )
    if view.phase is Phase.OVER:
        embed.set_footer(text=rules)
    else:
        embed.set_footer(text=t(lang, "render.table_footer", rules=rules))
    buttons = Controls()
    if view.phase is not Phase.OVER:
        buttons.add_item(
            Button(
                label=t(lang, "render.button_my_hand"),
                emoji="🂠",
                style=discord.ButtonStyle.primary,
                custom_id=ids.table_button(info.game_id, "hand"),
            )
        )
    return Rendered(content=None, embeds=[embed], view=buttons)


def _card_style(card: Card) -> discord.ButtonStyle:
    if card.suit in (Suit.HEARTS, Suit.DIAMONDS):
        return discord.ButtonStyle.danger
    return discord.ButtonStyle.secondary


def _identity_line(view: DupeView, lang: Lang = "en") -> str:
    assert view.identity is not None and view.seat is not None
    dupe = seat_of_suit(view.identity)
    suit = view.identity.symbol
    if dupe == view.seat:
        return t(lang, "dupe.identity_own", suit=suit)
    return t(lang, "dupe.identity_other", suit=suit, dupe=seat_name(lang, dupe))


def hand_message(
    game_id: int,
    view: DupeView,
    seats: Mapping[int, SeatInfo],
    notice: str | None = None,
    assignment: str = "",
    pictures: bool = False,
    *,
    turn: int,
    lang: Lang = "en",
) -> Rendered:
    """Return a seat's private message: identity card, hand as card buttons, trick state;
    for the taker, the distribution steps (``assignment`` holds the seat letters chosen so
    far for the revealed cards, in order); with ``pictures``, a button for a picture of
    the hand. ``notice`` is already written in ``lang``."""
    seat = view.seat
    assert seat is not None
    lines = _hand_heading(view, seats, notice, lang)
    buttons = Controls()
    hand = sorted(view.hand, key=by_suit)
    if view.phase is Phase.OVER:
        lines.append(t(lang, "render.hand_over"))
    elif view.phase is Phase.CHOOSE:
        _choice_controls(game_id, view, seat, turn, hand, lines, buttons, lang)
    else:
        assert view.revealed is not None and view.taker is not None
        lines.append(t(lang, "dupe.hand_revealed", played=_letters(lang, view.revealed)))
        if view.taker != seat:
            taker = seat_name(lang, view.taker)
            lines.append(t(lang, "dupe.hand_taker_distributing", taker=taker))
        else:
            _distribution_controls(game_id, view, seat, turn, assignment, lines, buttons, lang)
        if hand:
            lines.append(t(lang, "dupe.hand_cards", cards=" ".join(map(str, hand))))
    if view.phase is not Phase.OVER:
        buttons.add_item(
            Button(
                label=t(lang, "render.button_refresh"),
                style=discord.ButtonStyle.secondary,
                custom_id=ids.table_button(game_id, "refresh"),
                row=4,
            )
        )
    if pictures and hand and view.phase is not Phase.OVER:
        buttons.add_item(
            Button(
                label=t(lang, "render.button_picture"),
                style=discord.ButtonStyle.secondary,
                custom_id=ids.table_button(game_id, "pic"),
                row=4,
            )
        )
    return Rendered(content="\n".join(lines), embeds=[], view=buttons)


def _hand_heading(
    view: DupeView, seats: Mapping[int, SeatInfo], notice: str | None, lang: Lang
) -> list[str]:
    """Return the lines atop a seat's hand: the notice, the seat and progress, the identity
    card, the last trick and the cards won."""
    seat = view.seat
    assert seat is not None
    lines: list[str] = []
    if notice:
        lines.append(notice)
    lines.append(f"**{SEAT_SUITS[seat].symbol} {seat_name(lang, seat)}** · {_progress(lang, view)}")
    if view.phase is not Phase.OVER:
        lines.append(_identity_line(view, lang))
    last = view.last_trick
    if last is not None and last.deal == view.deal:
        line = _trick_line(last, seats, lang)
        lines.append(t(lang, "dupe.hand_trick", trick=last.trick, line=line))
    elif last is not None and view.phase is not Phase.OVER:
        line = _trick_line(last, seats, lang)
        lines.append(t(lang, "dupe.table_deal_trick", deal=last.deal, trick=last.trick, line=line))
    if view.won is not None:
        won = " ".join(map(str, sorted(view.won, key=by_suit))) or t(lang, "dupe.hand_won_none")
        lines.append(t(lang, "dupe.hand_won", cards=won))
    return lines


def _choice_controls(
    game_id: int,
    view: DupeView,
    seat: int,
    turn: int,
    hand: Sequence[Card],
    lines: list[str],
    buttons: Controls,
    lang: Lang,
) -> None:
    """Add the face-down choice to ``lines``, and the hand's cards to ``buttons`` (one
    button each, pressable until a card is chosen)."""
    if view.choice is None:
        lines.append(t(lang, "dupe.hand_choose"))
    else:
        waiting = ", ".join(seat_name(lang, s) for s in view.to_act)
        lines.append(
            t(
                lang,
                "dupe.hand_chosen",
                card=view.choice,
                waiting=waiting or t(lang, "dupe.hand_nobody"),
            )
        )
    for i, card in enumerate(hand):
        buttons.add_item(
            Button(
                label=card_label(card),
                style=_card_style(card),
                custom_id=ids.control(game_id, seat, turn, f"p{card.code}"),
                disabled=view.choice is not None,
                row=i // 5,
            )
        )


def _distribution_controls(
    game_id: int,
    view: DupeView,
    seat: int,
    turn: int,
    assignment: str,
    lines: list[str],
    buttons: Controls,
    lang: Lang = "en",
) -> None:
    assert view.revealed is not None
    cards = sorted(view.revealed, key=by_suit)
    given = dict(zip(cards, assignment, strict=False))

    lines.append(t(lang, "dupe.give_intro"))
    if given:
        so_far = ", ".join(
            f"{card} → {seat_name(lang, SEAT_LETTERS.index(to))}" for card, to in given.items()
        )
        lines.append(t(lang, "dupe.give_so_far", given=so_far))

    def add(
        label: str, style: discord.ButtonStyle, custom_id: str, row: int, disabled: bool = False
    ) -> None:
        buttons.add_item(
            Button(label=label, style=style, custom_id=custom_id, disabled=disabled, row=row)
        )

    if len(assignment) < 4:
        card = cards[len(assignment)]
        lines.append(t(lang, "dupe.give_who", card=card))
        for target in range(4):
            letter = SEAT_LETTERS[target]
            custom_id = ids.control(game_id, seat, turn, f"g{assignment}{letter}")
            label = seat_name(lang, target)
            if view.dupe == target:
                label = t(lang, "dupe.give_your_dupe", seat=label)
            add(label, discord.ButtonStyle.primary, custom_id, 0, disabled=letter in assignment)
    else:
        lines.append(t(lang, "dupe.give_confirm"))
        confirm = ids.control(game_id, seat, turn, f"k{assignment}")
        add(t(lang, "render.button_confirm"), discord.ButtonStyle.success, confirm, 0)
    if assignment:
        start_over = ids.control(game_id, seat, turn, "g")
        add(t(lang, "render.button_start_over"), discord.ButtonStyle.secondary, start_over, 1)


def deal_scoring(
    result: DealResult, seats: Mapping[int, SeatInfo], *, lang: Lang = "en"
) -> Rendered:
    """Return the public scoring of a deal: identity cards, every won hand with its
    breakdown, whom it credits, and the running totals."""
    embed = discord.Embed(title=t(lang, "dupe.scoring_title", deal=result.deal), colour=COLOUR)
    for owner in range(4):
        holder = next(s for s in range(4) if seat_of_suit(result.identities[s]) == owner)
        hand = " ".join(map(str, sorted(result.won[owner], key=by_suit)))
        identity = t(lang, "dupe.identity_card", suit=result.identities[owner].symbol)
        won = t(
            lang,
            "dupe.scoring_hand",
            cards=hand,
            score=score_text(result.scores[owner], lang),
            holder=seat_name(lang, holder),
        )
        embed.add_field(
            name=_seat_heading(owner, seats, lang), value=f"{identity}\n{won}", inline=False
        )
    embed.add_field(name=t(lang, "dupe.scoring_totals"), value=_totals(result, lang), inline=False)
    return Rendered(content=None, embeds=[embed], view=None)


def _totals(result: DealResult, lang: Lang) -> str:
    return " · ".join(
        f"{seat_name(lang, s)} +{result.credited[s]} = {result.totals[s]}" for s in range(4)
    )


def deal_summary(result: DealResult, *, lang: Lang = "en") -> Rendered:
    """Return the public scoring of a deal beside its picture (which shows every won hand,
    its breakdown and whom it credits): the title and the running totals."""
    embed = discord.Embed(title=t(lang, "dupe.scoring_title", deal=result.deal), colour=COLOUR)
    embed.add_field(name=t(lang, "dupe.scoring_totals"), value=_totals(result, lang), inline=False)
    return Rendered(content=None, embeds=[embed], view=None)


def replay_step(
    game_id: int,
    steps: Sequence[Step],
    index: int,
    seats: Mapping[int, SeatInfo],
    final: Rendered,
    *,
    lang: Lang = "en",
) -> Rendered:
    """Return one step of a finished game's replay, with Previous / Next / deal buttons
    (``final``: the final standings, for the last step)."""
    step = steps[index]
    if isinstance(step, DealResult):
        embed = deal_scoring(step, seats, lang=lang).embeds[0]
    elif isinstance(step, Final):
        embed = final.embeds[0]
    elif isinstance(step, DealStart):
        embed = discord.Embed(
            title=t(lang, "dupe.replay_dealt_title", deal=step.deal), colour=COLOUR
        )
        for seat in range(4):
            dupe = seat_name(lang, seat_of_suit(step.identities[seat]))
            hand = " ".join(map(str, sorted(step.hands[seat], key=by_suit)))
            suit = step.identities[seat].symbol
            embed.add_field(
                name=_seat_heading(seat, seats, lang),
                value=t(lang, "dupe.replay_dealt_seat", suit=suit, dupe=dupe, cards=hand),
                inline=False,
            )
    else:
        embed = discord.Embed(
            title=t(lang, "dupe.replay_trick_title", deal=step.deal, trick=step.trick),
            description=_trick_line(step, seats, lang),
            colour=COLOUR,
        )
    embed.set_footer(
        text=t(lang, "render.replay_footer", game=game_id, step=index + 1, steps=len(steps))
    )
    view = replay_buttons(game_id, index, len(steps), lang)
    starts = [i for i, s in enumerate(steps) if isinstance(s, DealStart)]
    for deal, start in enumerate(starts, start=1):
        view.add_item(
            Button(
                label=t(lang, "dupe.button_deal", deal=deal),
                custom_id=ids.replay(game_id, start, f"d{deal}"),
                style=discord.ButtonStyle.secondary,
                row=1,
            )
        )
    return Rendered(content=None, embeds=[embed], view=view)


def rules_text(*, lang: Lang = "en") -> str:
    """Return a private summary of the rules."""
    return t(lang, "dupe.render_rules")
