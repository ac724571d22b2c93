"""Dukes Up!'s messages, built from views only: the public board from the public view, a
seat's private panel (setup, draw, the turn's actions, the end step) from that seat's view,
and a round's scoring from the match's results, which are public once scored.

Cards are written suit first (``♠3``), as the rules file's board writes them. The working
copy of a turn is in the mover's own view only, so the board cannot show it before the turn
ends; the draw and a revealed castle are committed at once and show at once.

Controls (the payload of ``bot.ids.control``; ``<cards>`` are codes joined by ``,``):

- setup: ``sc`` (castle select), ``sd<castle>`` (dukes select), ``su<castle>.<duke>.<duke>``;
- draw: ``dd<n>`` from the draw pile, ``dx<n>`` from the discard pile;
- place: ``cs`` (the source card select), ``pr<cards>`` propose, ``ac<cards>`` accept the
  proposal, ``nw<cards>`` new group, ``ag<cards>`` Add to… (``ap<page>.<cards>`` its pages,
  ``ad<cards>`` its group select), ``rg`` Regroup… (a form; ``rt`` its submission);
- dukes and castle: ``pu<card>``, ``st<card>``, ``sw<card>`` Swap (asks which duke),
  ``sy<duke>.<card>`` the swap (pick up and set, one click), ``rv`` (asks), ``rvy``, ``rtn``;
- ``un`` undo, ``rs`` reset, ``dk`` the discard select, ``dc1`` ``dc2`` ``dc4`` its card
  selects, ``tp<card>,<card>`` a D2 (the second card ends on top), ``oa<card>`` a D4 with
  the offered regrouping, ``fi`` finish, ``er`` end round,
  ``rz`` resign (asks), ``rzy``; ``x`` and ``xc<cards>`` go back.

``pending`` (a :class:`bot.game.Step`): ``C<castle>[.<dukes>]`` during setup; ``c<cards>``
chosen source cards; ``p<cards>`` a proposal shown; ``a<page>.<cards>`` the group select;
``R`` the castle's confirmation; ``d1 d2 d4`` a discard's card select; ``t<cards>`` D2's
order; ``w<card>`` the duke to swap a hand card with; ``o<card>`` a D4's offered regrouping;
``Z`` the resignation's confirmation.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import discord

from bot import ids
from bot.controls import Button, Controls
from bot.game import Rendered, SeatInfo, TableInfo
from bot.i18n import Lang, t
from engine.cards import Card, parse_card
from engine.dukes_up import DukesUpView, Phase, RoundResult
from engine.dukes_up.actions import Kind, draw
from engine.dukes_up.layout import group_kind, offer_d4, propose_layout, replace_groups

__all__ = [
    "COLOUR",
    "GROUPS_PER_PAGE",
    "board_lines",
    "cards_text",
    "chosen",
    "discard_reasons",
    "end_problem",
    "group_problem",
    "hand_message",
    "proposal",
    "round_message",
    "sources",
    "sym",
    "table_message",
    "takeable",
]

COLOUR = discord.Colour(0x8E2430)
GROUPS_PER_PAGE = 25  # Discord: a select menu has at most 25 options
_OTHER = (1, 0)
_RANKS = {"A": 1, "J": 11, "Q": 12, "K": 13}


def sym(card: Card | str) -> str:
    """Return a card suit first, as the board writes it (``♠10``)."""
    if isinstance(card, str):
        card = parse_card(card)
    text = str(card)
    return text[-1] + text[:-1]


def cards_text(cards: Sequence[Card | str]) -> str:
    """Return cards suit first, space-separated."""
    return " ".join(sym(c) for c in cards)


def chosen(text: str) -> list[Card]:
    """Return the cards of a payload's ``<cards>``."""
    return [parse_card(c) for c in text.split(",") if c]


def _codes(cards: Sequence[Card]) -> str:
    return ",".join(c.code for c in cards)


def _value(card: Card) -> int:
    rank = str(card)[:-1]
    return _RANKS.get(rank, 0) or int(rank)


def group_problem(group: Sequence[Card]) -> str | None:
    """Return why a group is not a run or a set (a catalogue key's last part), or None."""
    if group_kind(group) is not None:
        return None
    if len(group) < 3:
        return "short"
    values = [_value(c) for c in group]
    if len(set(values)) == 1:
        return "set"
    thorns = {c.suit.letter in "SD" for c in group}
    if len(thorns) > 1:
        return "mixed"
    if len(set(values)) != len(values):
        return "twice"
    return "gap"


def _group_line(lang: Lang, number: int, group: Sequence[Card], mark: str = "") -> str:
    kind = group_kind(group)
    line = f"{mark}G{number} {cards_text(group)}"
    if kind is not None:
        return f"{line} ({t(lang, f'dukes_up.kind_{kind}')})"
    problem = group_problem(group) or "short"
    return f"{line} ⚠ {t(lang, f'dukes_up.problem_{problem}')}"


def seat_label(seat: int, seats: Mapping[int, SeatInfo], lang: Lang) -> str:
    """Return the seat's colour and who sits there."""
    colour = t(lang, f"dukes_up.seat_{seat}")
    record = seats.get(seat)
    if record is None:
        return colour
    return f"{colour} ({record.shown(lang, seat)})"


def _castle(lang: Lang, view: DukesUpView, seat: int) -> str:
    castle = view.castles[seat]
    if castle == "down":
        return "🂠"
    if isinstance(castle, Card):
        up = view.castle_up[seat]
        return sym(castle) if up else f"{sym(castle)} ({t(lang, 'dukes_up.face_down')})"
    if view.phase is Phase.CHOOSE:
        return "—"
    return t(lang, "dukes_up.castle_on_table")


def _on_table(view: DukesUpView, seat: int) -> int:
    return sum(1 for g in view.table for c in g if (c.suit.letter in "CS") == (seat == 0))


def board_lines(
    view: DukesUpView, seats: Mapping[int, SeatInfo], lang: Lang, *, table_heading: str = ""
) -> list[str]:
    """Return both seats' slots, counts and piles, then the table's groups."""
    lines = []
    for seat in (0, 1):
        dukes = view.dukes[seat]
        shown = "?" if dukes is None else cards_text(dukes) or "—"
        lines.append(
            t(
                lang,
                "dukes_up.board_seat",
                who=seat_label(seat, seats, lang),
                dukes=shown,
                castle=_castle(lang, view, seat),
                hand=view.hand_sizes[seat],
                draw=view.draw_sizes[seat],
                discard=view.discard_sizes[seat],
                table=_on_table(view, seat),
            )
        )
    lines.append("")
    lines.append(table_heading or t(lang, "dukes_up.board_table"))
    if view.table:
        lines += [_group_line(lang, i, g) for i, g in enumerate(view.table, 1)]
    else:
        lines.append(t(lang, "dukes_up.board_empty"))
    return lines


def _summary(view: DukesUpView, seats: Mapping[int, SeatInfo], lang: Lang) -> str:
    last = view.last_turn
    if last is None:
        return ""
    parts = [t(lang, f"dukes_up.summary_draw_{last.pile or 'none'}", n=last.n)]
    if last.flipped:
        parts.append(t(lang, "dukes_up.summary_flipped"))
    if last.revealed:
        parts.append(t(lang, "dukes_up.summary_revealed"))
    if last.placed:
        parts.append(t(lang, "dukes_up.summary_placed", cards=cards_text(last.placed)))
    if last.taken:
        parts.append(t(lang, "dukes_up.summary_taken", cards=cards_text(last.taken)))
    if last.captured is not None:
        parts.append(t(lang, "dukes_up.summary_captured", card=sym(last.captured)))
    if last.picked_up:
        parts.append(t(lang, "dukes_up.summary_picked_up", cards=cards_text(last.picked_up)))
    if last.set:
        parts.append(t(lang, "dukes_up.summary_set", cards=cards_text(last.set)))
    if last.discard == "d4" and last.card is not None:
        parts.append(t(lang, "dukes_up.summary_d4", card=sym(last.card)))
    elif last.discard:
        parts.append(t(lang, f"dukes_up.summary_{last.discard}"))
    who = seat_label(last.seat, seats, lang)
    return t(lang, "dukes_up.summary", who=who, turn=last.turn, what="; ".join(parts))


def _status_line(view: DukesUpView, seats: Mapping[int, SeatInfo], lang: Lang) -> str:
    if view.phase is Phase.OVER:
        if not view.winners:
            return ""
        names = ", ".join(seat_label(s, seats, lang) for s in view.winners)
        return t(lang, "dukes_up.board_winners", n=len(view.winners), names=names)
    if view.phase is Phase.CHOOSE:
        who = ", ".join(seat_label(s, seats, lang) for s in view.to_act)
        return t(lang, "dukes_up.board_choosing", who=who)
    mover = view.mover if view.mover is not None else view.to_act[0]
    return t(
        lang,
        "dukes_up.board_turn",
        turn=view.turn,
        max=view.max_turns,
        who=seat_label(mover, seats, lang),
    )


def table_message(info: TableInfo, view: DukesUpView, rules: str, *, lang: Lang) -> Rendered:
    """Return the public board: both seats, the table, the turn and the last summary."""
    assert view.seat is None, "the board is built from the public view only"
    seats = info.seats
    lines = board_lines(view, seats, lang)
    lines.append("")
    lines.append(_status_line(view, seats, lang))
    if view.agreed[0] or view.agreed[1]:
        who = ", ".join(seat_label(s, seats, lang) for s in (0, 1) if view.agreed[s])
        lines.append(t(lang, "dukes_up.board_agreed", who=who))
    summary = _summary(view, seats, lang)
    if summary:
        lines.append(summary)
    if view.results:
        lines.append(t(lang, "dukes_up.board_totals", black=view.totals[0], red=view.totals[1]))
    if info.warned and info.deadline is not None and view.phase is not Phase.OVER:
        names = ", ".join(seat_label(s, seats, lang) for s in info.warned)
        lines.append(
            t(
                lang,
                "render.table_warning",
                n=len(info.warned),
                names=names,
                deadline=int(info.deadline),
            )
        )
    title = t(lang, "dukes_up.board_title", round=view.round)
    embed = discord.Embed(title=title, description="\n".join(lines)[:4000], colour=COLOUR)
    embed.set_footer(text=rules)
    buttons = Controls()
    if view.phase is not Phase.OVER:
        buttons.add_item(
            Button(
                label=t(lang, "render.button_my_hand"),
                style=discord.ButtonStyle.primary,
                custom_id=ids.table_button(info.game_id, "hand"),
            )
        )
    return Rendered(content=None, embeds=[embed], view=buttons)


def round_message(
    result: RoundResult, totals: Sequence[int], seats: Mapping[int, SeatInfo], lang: Lang
) -> Rendered:
    """Return a scored round: how it ended, both scores, both castles and hands."""
    lines = [t(lang, f"dukes_up.end_{result.end.replace('-', '_')}")]
    for seat in (0, 1):
        castle = result.castles[seat]
        lines.append(
            t(
                lang,
                "dukes_up.round_seat",
                who=seat_label(seat, seats, lang),
                score=result.scores[seat],
                castle="—" if castle is None else sym(castle),
                hand=cards_text(result.hands[seat]) or "—",
            )
        )
    if result.winner is None:
        lines.append(t(lang, "dukes_up.round_draw"))
    else:
        lines.append(t(lang, "dukes_up.round_winner", who=seat_label(result.winner, seats, lang)))
    lines.append(t(lang, "dukes_up.board_totals", black=totals[0], red=totals[1]))
    embed = discord.Embed(
        title=t(lang, "dukes_up.round_title", round=result.round),
        description="\n".join(lines),
        colour=COLOUR,
    )
    return Rendered(content=None, embeds=[embed])


# --- the private panel ---------------------------------------------------------------------


def sources(view: DukesUpView) -> list[Card]:
    """Return the mover's source cards: hand, the opponent's dukes and face-up castle,
    its own face-up castle (THE MOVE)."""
    seat = view.seat
    assert seat is not None
    other = _OTHER[seat]
    found = list(view.hand or ())
    found += list(view.dukes[other] or ())
    theirs = view.castles[other]
    if isinstance(theirs, Card) and view.castle_up[other]:
        found.append(theirs)
    own = view.castles[seat]
    if isinstance(own, Card) and view.castle_up[seat]:
        found.append(own)
    return found


def proposal(view: DukesUpView, cards: Sequence[Card]) -> tuple[Any, ...] | None:
    """Return A4's offer for ``cards`` on the working table: ``(step, replaced, groups,
    layout)``, or None when no valid layout exists."""
    found = propose_layout(view.table, cards)
    if found is None:
        return None
    step, replaced, groups = found
    partition = tuple(groups)
    return step, tuple(replaced), partition, replace_groups(view.table, replaced, partition)


def _button(
    label: str,
    custom_id: str,
    *,
    row: int,
    style: discord.ButtonStyle = discord.ButtonStyle.secondary,
    disabled: bool = False,
) -> Button:
    return Button(label=label[:80], custom_id=custom_id, row=row, style=style, disabled=disabled)


def _select(
    custom_id: str,
    placeholder: str,
    options: list[discord.SelectOption],
    *,
    row: int,
    least: int = 1,
    most: int = 1,
) -> discord.ui.Select[Any]:
    return discord.ui.Select(
        custom_id=custom_id,
        placeholder=placeholder[:150],
        options=options[:GROUPS_PER_PAGE],
        min_values=least,
        max_values=max(1, min(most, len(options), GROUPS_PER_PAGE)),
        row=row,
    )


def _card_option(card: Card, default: bool = False, note: str = "") -> discord.SelectOption:
    return discord.SelectOption(
        label=sym(card), value=card.code, default=default, description=note[:100] or None
    )


class _Panel:
    """One private message being built: its lines, its components and its ids."""

    def __init__(self, info: TableInfo, view: DukesUpView, turn: int, lang: Lang) -> None:
        assert view.seat is not None
        self.info = info
        self.view = view
        self.seat: int = view.seat
        self.turn = turn
        self.lang = lang
        self.lines: list[str] = []
        self.items = Controls()

    def id(self, payload: str) -> str:
        return ids.control(self.info.game_id, self.seat, self.turn, payload)

    def t(self, key: str, **params: Any) -> str:
        return t(self.lang, f"dukes_up.{key}", **params)

    def button(self, key: str, payload: str, row: int, **kwargs: Any) -> None:
        self.items.add_item(_button(self.t(key), self.id(payload), row=row, **kwargs))

    def refresh(self, row: int) -> None:
        self.items.add_item(
            _button(
                t(self.lang, "render.button_refresh"),
                ids.table_button(self.info.game_id, "refresh"),
                row=row,
            )
        )


def _mine(view: DukesUpView, seat: int, lang: Lang) -> list[str]:
    own = view.dukes[seat] or ()
    castle = _castle(lang, view, seat)
    lines = [t(lang, "dukes_up.hand_yours", cards=cards_text(view.hand or ()) or "—")]
    lines.append(t(lang, "dukes_up.hand_slots", dukes=cards_text(own) or "—", castle=castle))
    if view.discard is not None:
        shown = " ".join("?" if c is None else sym(c) for c in view.discard)
        lines.append(t(lang, "dukes_up.hand_discard_open", cards=shown or "—"))
    return lines


def hand_message(
    info: TableInfo,
    view: DukesUpView,
    turn: int,
    *,
    lang: Lang,
    pending: str = "",
    notice: str | None = None,
) -> Rendered:
    """Return the seat's private panel for the moment and the step ``pending``."""
    panel = _Panel(info, view, turn, lang)
    if notice:
        panel.lines.append(notice)
    seat = panel.seat
    who = seat_label(seat, info.seats, lang)
    panel.lines.append(f"**{panel.t('hand_title', who=who, round=view.round)}**")
    if view.phase is Phase.OVER:
        panel.lines.append(panel.t("hand_over"))
    elif view.phase is Phase.CHOOSE:
        _setup_panel(panel, pending)
    elif view.mover != seat:
        panel.lines += board_lines(view, info.seats, lang)
        panel.lines += _mine(view, seat, lang)
        mover = view.mover if view.mover is not None else _OTHER[seat]
        panel.lines.append(panel.t("hand_wait", who=seat_label(mover, info.seats, lang)))
        _agreement(panel)
        _always(panel, pending, row=0)
    elif not view.drawn:
        _draw_panel(panel, pending)
    else:
        _turn_panel(panel, pending)
    if view.phase is not Phase.OVER:
        panel.refresh(4)
    content = "\n".join(panel.lines)
    if len(content) > 2000:  # Discord's limit for a message's content
        content = content[:1990] + "\n…"
    return Rendered(content=content, embeds=[], view=panel.items)


def _agreement(panel: _Panel) -> None:
    """Who asked to end the round, shown at once (the request is committed at once), and
    how to agree when the member has not asked yet."""
    view = panel.view
    if view.phase is not Phase.TURN or not any(view.agreed):
        return
    who = ", ".join(seat_label(s, panel.info.seats, panel.lang) for s in (0, 1) if view.agreed[s])
    panel.lines.append(t(panel.lang, "dukes_up.board_agreed", who=who))
    if not view.agreed[panel.seat]:
        panel.lines.append(panel.t("agree_hint"))


def _always(panel: _Panel, pending: str, row: int) -> None:
    """End round and Resign: any seat, at any time during turns."""
    if pending == "Z":
        panel.lines.append(panel.t("resign_confirm"))
        panel.button("button_resign_yes", "rzy", row, style=discord.ButtonStyle.danger)
        panel.button("button_back", "x", row)
        return
    view = panel.view
    if view.phase is Phase.TURN:
        panel.button("button_end_round", "er", row, disabled=view.agreed[panel.seat])
    panel.button("button_resign", "rz", row, style=discord.ButtonStyle.danger)


def _setup_panel(panel: _Panel, pending: str) -> None:
    view = panel.view
    if not view.setup:
        panel.lines.append(panel.t("setup_waiting"))
        return
    castle_code, _, dukes_text = pending.removeprefix("C").partition(".")
    castle = parse_card(castle_code) if pending.startswith("C") and castle_code else None
    dukes = chosen(dukes_text)
    panel.lines.append(panel.t("setup_cards", cards=cards_text(view.setup)))
    panel.lines.append(panel.t("setup_prompt"))
    options = [_card_option(c, c == castle) for c in view.setup]
    panel.items.add_item(_select(panel.id("sc"), panel.t("setup_castle"), options, row=0))
    complete = castle is not None and len(dukes) == 2
    if castle is not None:
        rest = [c for c in view.setup if c != castle]
        options = [_card_option(c, c in dukes) for c in rest]
        panel.items.add_item(
            _select(
                panel.id(f"sd{castle.code}"),
                panel.t("setup_dukes"),
                options,
                row=1,
                least=2,
                most=2,
            )
        )
        if complete:
            hand = [c for c in rest if c not in dukes]
            panel.lines.append(
                panel.t(
                    "setup_chosen",
                    castle=sym(castle),
                    dukes=cards_text(dukes),
                    hand=cards_text(hand),
                )
            )
    payload = "su"
    if castle is not None and len(dukes) == 2:
        payload += f"{castle.code}.{dukes[0].code}.{dukes[1].code}"
    panel.button(
        "button_confirm", payload, 2, style=discord.ButtonStyle.success, disabled=not complete
    )


def _draw_panel(panel: _Panel, pending: str) -> None:
    view = panel.view
    panel.lines += board_lines(view, panel.info.seats, panel.lang)
    panel.lines += _mine(view, panel.seat, panel.lang)
    _agreement(panel)
    panel.lines.append(panel.t("draw_prompt"))
    legal = set(view.legal)
    for pile, letter, counts in (("draw", "d", (0, 1, 2)), ("discard", "x", (1, 2))):
        for n in counts:
            panel.button(
                f"button_{pile}_{n}",
                f"d{letter}{n}",
                0,
                style=discord.ButtonStyle.primary,
                disabled=draw(pile, n) not in legal,
            )
    _always(panel, pending, row=1)


def end_problem(view: DukesUpView) -> str | None:
    """Return the first of E1–E4 the working copy fails (by its condition), or None."""
    seat = view.seat
    assert seat is not None
    other = _OTHER[seat]
    if any(group_kind(g) is None for g in view.table):
        return "E1"
    dukes = len(view.dukes[seat] or ())
    if dukes > (view.d0 if view.d0 else 1):
        return "E2"
    if view.castles[seat] is None:
        return "E3"
    if view.castles[other] is None and view.dukes[other]:
        return "E4"
    return None


def takeable(view: DukesUpView, card: Card) -> bool:
    """Return whether D4 could take ``card`` off the working table: its group stays valid
    without it, or the rest of the table can still be laid out (the bot's offer)."""
    return offer_d4(view.table, card) is not None


def _own_on_table(view: DukesUpView) -> list[Card]:
    black = view.seat == 0
    return [c for g in view.table for c in g if (c.suit.letter in "CS") == black]


def discard_reasons(view: DukesUpView) -> dict[str, str | None]:
    """Return, for each discard option ``d1``…``d4``, why it cannot end the turn now (the
    last part of a ``why_`` key), or None: one judgement for the 🚫 marks of the select and
    for the refusal when a marked option is chosen anyway."""
    seat = view.seat
    assert seat is not None
    problem = "EXHAUSTED" if view.exhausted else end_problem(view)
    hand = view.hand or ()
    own_on_table = _own_on_table(view)
    own = {
        "d1": None if hand else "D1",
        "d2": "D2" if view.actions else (None if len(hand) >= 2 else "D2_CARDS"),
        "d3": None if view.draw_sizes[seat] else "D3",
        "d4": "D4_NONE" if not own_on_table else None,
    }
    if problem is None and own_on_table and not any(takeable(view, c) for c in own_on_table):
        own["d4"] = "D4_STUCK"
    return {option: problem or reason for option, reason in own.items()}


def _discard_options(view: DukesUpView, lang: Lang) -> list[discord.SelectOption]:
    options = []
    for option, reason in discard_reasons(view).items():
        label = t(lang, f"dukes_up.discard_{option}")
        note = ""
        if reason is not None:
            label = f"🚫 {label}"
            note = t(lang, f"dukes_up.why_{reason.lower()}")
        options.append(
            discord.SelectOption(label=label[:100], value=option, description=note[:100] or None)
        )
    return options


def _turn_panel(panel: _Panel, pending: str) -> None:
    """Add to ``panel`` the mover's turn at the step ``pending``: the board and their own
    cards, then that step's controls (the main ones when no step is under way)."""
    view = panel.view
    lang = panel.lang
    seat = panel.seat
    picked = chosen(pending[1:]) if pending[:1] == "c" else []
    if pending[:1] == "p":
        _proposal_panel(panel, chosen(pending[1:]))
        return
    if pending[:1] == "o":
        _offer_panel(panel, parse_card(pending[1:]))
        return
    panel.lines += board_lines(view, panel.info.seats, lang, table_heading=panel.t("working"))
    panel.lines += _mine(view, seat, lang)
    if view.exhausted:
        panel.lines.append(panel.t("exhausted"))
    if view.actions:
        panel.lines.append(panel.t("actions", n=len(view.actions)))
    problem = end_problem(view)
    if problem is not None:
        panel.lines.append(f"⚠ {panel.t('why_' + problem.lower())}")
    _agreement(panel)
    if pending[:1] == "a":
        _add_panel(panel, pending)
        return
    if pending == "R":
        panel.lines.append(panel.t("reveal_confirm"))
        panel.button("button_reveal_yes", "rvy", 0, style=discord.ButtonStyle.danger)
        panel.button("button_back", "x", 0)
        return
    if pending in ("d1", "d2", "d4"):
        _discard_cards(panel, pending)
        return
    if pending == "Z":
        _always(panel, pending, row=0)
        return
    if pending[:1] == "t":
        _d2_order(panel, chosen(pending[1:]))
        return
    if pending[:1] == "w":
        _swap_panel(panel, parse_card(pending[1:]))
        return
    _placing_panel(panel, picked)


def _placing_panel(panel: _Panel, picked: list[Card]) -> None:
    """Add to ``panel`` the turn's main controls: the cards to place (``picked`` chosen so
    far), the groups, the dukes, the castle, Undo and Reset, the discard and the turn's end."""
    view = panel.view
    lang = panel.lang
    seat = panel.seat
    other = _OTHER[seat]
    cards = sources(view)
    panel.lines.append(panel.t("place_prompt"))
    if picked:
        panel.lines.append(panel.t("chosen", cards=cards_text(picked)))
    if cards:
        options = [_card_option(c, c in picked, _source_note(view, c, lang)) for c in cards]
        panel.items.add_item(
            _select(panel.id("cs"), panel.t("sources"), options, row=0, least=0, most=len(cards))
        )
    codes = _codes(picked)
    none = not picked
    panel.button(
        "button_propose",
        f"pr{codes}",
        1,
        style=discord.ButtonStyle.primary,
        disabled=none or view.arrangement_help != "propose",
    )
    panel.button("button_new", f"nw{codes}", 1, disabled=none)
    panel.button("button_add", f"ag{codes}", 1, disabled=none or not view.table)
    panel.button("button_regroup", "rg", 1, disabled=not view.table)
    hand = view.hand or ()
    first = view.turn == 1 and view.first_player == seat
    # The duke actions (Set, Pick up, Swap) are hidden on the first player's first turn
    # (the rules file's "Digital table conventions").
    if not first:
        can_set = len(picked) == 1 and picked[0] in hand and len(view.dukes[seat] or ()) < 2
        panel.button("button_set", f"st{codes if can_set else ''}", 1, disabled=not can_set)
        for duke in view.dukes[seat] or ():
            panel.items.add_item(
                _button(
                    panel.t("button_pickup", card=sym(duke)),
                    panel.id(f"pu{duke.code}"),
                    row=2,
                )
            )
    own = view.castles[seat]
    if own is None:
        panel.button("button_return", "rtn", 2)
    elif not view.castle_up[seat]:
        panel.button("button_reveal", "rv", 2, style=discord.ButtonStyle.danger)
    # A revealed castle cannot be taken back (decision 7): Undo after it, or Reset with
    # nothing else in effect, would change nothing.
    undoable = bool(view.actions) and view.actions[-1].kind is not Kind.REVEAL
    resettable = any(a.kind is not Kind.REVEAL for a in view.actions)
    panel.button("button_undo", "un", 2, disabled=not undoable)
    panel.button("button_reset", "rs", 2, disabled=not resettable)
    panel.items.add_item(
        _select(panel.id("dk"), panel.t("discard_placeholder"), _discard_options(view, lang), row=3)
    )
    finishing = any(a.kind is Kind.FINISH for a in view.legal)
    theirs_on_table = view.castles[other] is None
    if finishing or theirs_on_table or view.exhausted:
        # Shown once the castle is on the table, but pressable only when the rules let the
        # turn end so (a duke still to place, an invalid group): never offered, then refused.
        panel.button(
            "button_finish", "fi", 4, style=discord.ButtonStyle.success, disabled=not finishing
        )
    if not first:
        can_swap = len(picked) == 1 and picked[0] in hand and bool(view.dukes[seat])
        panel.button("button_swap", f"sw{codes if can_swap else ''}", 4, disabled=not can_swap)
    panel.button("button_end_round", "er", 4, disabled=view.agreed[seat])
    panel.button("button_resign", "rz", 4, style=discord.ButtonStyle.danger)


def _source_note(view: DukesUpView, card: Card, lang: Lang) -> str:
    seat = view.seat
    assert seat is not None
    if card in (view.hand or ()):
        return t(lang, "dukes_up.source_hand")
    if card in (view.dukes[_OTHER[seat]] or ()):
        return t(lang, "dukes_up.source_duke")
    if card == view.castles[seat]:
        return t(lang, "dukes_up.source_own_castle")
    return t(lang, "dukes_up.source_castle")


def _add_panel(panel: _Panel, pending: str) -> None:
    page_text, _, codes = pending[1:].partition(".")
    page = int(page_text or 0)
    view = panel.view
    groups = list(enumerate(view.table, 1))
    pages = max(1, -(-len(groups) // GROUPS_PER_PAGE))
    page = min(page, pages - 1)
    shown = groups[page * GROUPS_PER_PAGE : (page + 1) * GROUPS_PER_PAGE]
    panel.lines.append(panel.t("add_prompt", cards=cards_text(chosen(codes))))
    options = [
        discord.SelectOption(label=f"G{n} {cards_text(g)}"[:100], value=str(n)) for n, g in shown
    ]
    panel.items.add_item(
        _select(panel.id(f"ad{codes}"), panel.t("add_placeholder"), options, row=0)
    )
    if pages > 1:
        panel.button("button_prev", f"ap{max(0, page - 1)}.{codes}", 1, disabled=page == 0)
        panel.button("button_next", f"ap{page + 1}.{codes}", 1, disabled=page >= pages - 1)
    panel.button("button_back", f"xc{codes}", 1)


def _proposal_panel(panel: _Panel, cards: list[Card]) -> None:
    view = panel.view
    found = proposal(view, cards)
    codes = _codes(cards)
    if found is None:
        panel.lines.append(f"⚠️ {panel.t('no_layout')}")
        panel.lines += board_lines(
            view, panel.info.seats, panel.lang, table_heading=panel.t("working")
        )
        panel.button("button_back", f"xc{codes}", 0)
        return
    step, replaced, groups, layout = found
    panel.lines.append(panel.t("proposal", cards=cards_text(cards), step=step))
    first = min(replaced) if replaced else len(view.table) - len(replaced) + 1
    new = range(first, first + len(groups))
    for i, group in enumerate(layout, 1):
        panel.lines.append(_group_line(panel.lang, i, group, "✳ " if i in new else ""))
    panel.lines.append(panel.t("proposal_marked"))
    panel.button("button_accept", f"ac{codes}", 0, style=discord.ButtonStyle.success)
    panel.button("button_cancel", f"xc{codes}", 0)


def _offer_panel(panel: _Panel, card: Card) -> None:
    view = panel.view
    offer = offer_d4(view.table, card)
    if offer is None:
        panel.lines.append(f"⚠️ {panel.t('why_d4')}")
        panel.button("button_back", "x", 0)
        return
    replaced, groups = offer
    layout = replace_groups(view.table, replaced, tuple(groups))
    panel.lines.append(panel.t("offer", card=sym(card)))
    for i, group in enumerate(layout, 1):
        if group:
            panel.lines.append(_group_line(panel.lang, i, group))
    panel.button("button_accept", f"oa{card.code}", 0, style=discord.ButtonStyle.success)
    panel.button("button_cancel", "x", 0)


def _discard_cards(panel: _Panel, option: str) -> None:
    view = panel.view
    if option == "d4":
        why = panel.t("why_d4")
        options = [
            _card_option(c) if takeable(view, c) else _card_option(c, note=f"🚫 {why}")
            for c in _own_on_table(view)
        ]
    else:
        options = [_card_option(c) for c in view.hand or ()]
    panel.lines.append(panel.t(f"discard_prompt_{option}"))
    most = 2 if option == "d2" else 1
    panel.items.add_item(
        _select(
            panel.id(f"dc{option[1]}"),
            panel.t(f"discard_{option}"),
            options,
            row=0,
            least=most,
            most=most,
        )
    )
    panel.button("button_back", "x", 1)


def _swap_panel(panel: _Panel, card: Card) -> None:
    """Swap: which of the member's dukes goes to the hand for ``card`` (A5 + A6)."""
    view = panel.view
    panel.lines.append(panel.t("swap_prompt", card=sym(card)))
    for duke in (view.dukes[panel.seat] or ())[:4]:
        panel.items.add_item(
            _button(
                panel.t("button_swap_with", duke=sym(duke), card=sym(card)),
                panel.id(f"sy{duke.code}.{card.code}"),
                row=0,
                style=discord.ButtonStyle.primary,
            )
        )
    panel.button("button_back", f"xc{card.code}", 1)


def _d2_order(panel: _Panel, cards: list[Card]) -> None:
    """D2: which of the two cards ends on top of the discard pile."""
    if len(cards) != 2:
        panel.button("button_back", "x", 0)
        return
    panel.lines.append(panel.t("d2_order", cards=cards_text(cards)))
    for under, top in ((cards[0], cards[1]), (cards[1], cards[0])):
        panel.items.add_item(
            _button(
                panel.t("button_on_top", card=sym(top)),
                panel.id(f"tp{under.code},{top.code}"),
                row=0,
                style=discord.ButtonStyle.primary,
            )
        )
    panel.button("button_back", "x", 1)
