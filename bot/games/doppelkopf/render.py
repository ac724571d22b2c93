"""Doppelkopf's messages, built from views only: the public table from the public view, a
seat's private hand (with one button per choice it may make now) from that seat's view, and
the end-of-game breakdown from a finished game's result, which is public once it is scored.

Controls (the payload of ``bot.ids.control``):

- ``=<action>`` takes the action written ``<action>`` in the engine's notation with ``.``
  for ``:`` (``=QC`` plays ♣Q, ``=re`` announces Re, ``=solo.queens`` declares a queens solo,
  ``=poverty.9C,AD,TH`` offers those cards);
- ``s<codes>`` is a step of a choice of three cards (a poverty's offer and return): the
  cards chosen after the press, comma-joined (``s``: none).
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
from engine.doppelkopf import GameResult, PlayedGame, parse_action
from engine.doppelkopf.orders import ORDERS, order_for
from engine.doppelkopf.rules import ANNOUNCEMENTS, DoppelkopfView

__all__ = [
    "COLOUR",
    "action_text",
    "end_details",
    "end_message",
    "end_picture_parts",
    "game_name",
    "hand_message",
    "seat_label",
    "table_message",
]

COLOUR = discord.Colour(0x2E7D32)
_MULTI = {"poverty-offer": "poverty", "poverty-return": "return"}


# --- words -----------------------------------------------------------------------------------


def seat_label(
    seat: int, seats: Mapping[int, SeatInfo], lang: Lang, *, picture: bool = False
) -> str:
    """Return who sits at ``seat``: the member's name, a computer (for a ``picture``, its
    name without the emoji), or the seat's name."""
    record = seats.get(seat)
    if record is None:
        return t(lang, "doppelkopf.seat", n=seat + 1)
    return record.shown(lang, seat, picture=picture)


def _card(code: str | Card) -> str:
    return str(code if isinstance(code, Card) else parse_card(code))


def _cards(cards: Sequence[str | Card]) -> str:
    return " ".join(_card(c) for c in cards)


def game_name(lang: Lang, game: str) -> str:
    """Return a game type's name (``solo:queens`` → "Queens solo")."""
    if game.startswith("solo:"):
        return t(lang, f"doppelkopf.solo_{game[5:]}")
    return t(lang, f"doppelkopf.game_{game}")


def action_text(lang: Lang, text: str) -> str:
    """Return an action in words (``re`` → "Re", ``QC`` → "Q♣", ``solo:jacks`` → "Jacks
    solo")."""
    action = parse_action(text)
    if action.card is not None:
        return str(action.card)
    kind, arg = action.kind, action.arg
    if kind in ANNOUNCEMENTS:
        return t(lang, f"doppelkopf.say_{kind}")
    if kind == "solo" and arg:
        return t(lang, f"doppelkopf.solo_{arg}")
    if kind == "marriage" and arg:
        return t(lang, "doppelkopf.choice_marriage_mode", mode=t(lang, f"doppelkopf.mode_{arg}"))
    if kind in ("poverty", "return") and action.cards:
        return f"{t(lang, 'doppelkopf.choice_poverty')}: {_cards(action.cards)}"
    return t(lang, f"doppelkopf.choice_{kind}")


def _party(lang: Lang, party: str) -> str:
    return t(lang, f"doppelkopf.party_{party}")


# --- the public table --------------------------------------------------------------------


def _title(data: Mapping[str, Any], lang: Lang) -> str:
    if data["phase"] == "over":
        return t(lang, "doppelkopf.table_over_title")
    length = int(data["length"])
    return t(
        lang, "doppelkopf.table_title", game=min(int(data["counted"]) + 1, length), games=length
    )


def _game_line(view: DoppelkopfView, seats: Mapping[int, SeatInfo], lang: Lang) -> str:
    """Return the game type as the table knows it (nothing before it is fixed)."""
    data = view.data
    phase, game = data["phase"], data["game"]
    if phase == "reservations" or phase == "forced":
        said = data["declarations"]
        parts = [
            f"{seat_label(s, seats, lang)} {t(lang, f'doppelkopf.said_{said[str(s)]}')}"
            for s in range(data["players"])
            if str(s) in said
        ]
        return t(lang, "doppelkopf.table_reservations", said=", ".join(parts)) if parts else ""
    if phase in ("declarations", "bidding", "solo-type"):
        said = data["declarations"]["said"]
        bids = data["declarations"]["bids"]
        parts = [
            f"{seat_label(int(s), seats, lang)} {t(lang, f'doppelkopf.said_{text}')}"
            for s, text in said.items()
        ]
        line = t(lang, "doppelkopf.table_reservations", said=", ".join(parts)) if parts else ""
        if bids:
            shown = ", ".join(
                f"{seat_label(s, seats, lang)} {action_text(lang, text)}" for s, text in bids
            )
            line += "\n" + t(lang, "doppelkopf.table_bids", bids=shown)
        return line
    if "poverty" in data and phase.startswith("poverty"):
        poverty = data["poverty"]
        answers = ", ".join(
            f"{seat_label(int(s), seats, lang)} {t(lang, f'doppelkopf.choice_{a}')}"
            for s, a in poverty["answers"].items()
        )
        player = seat_label(poverty["player"], seats, lang)
        return t(lang, "doppelkopf.table_poverty", player=player, answers=answers or "…")
    if phase not in ("play", "scored"):
        return ""
    if game == "marriage":
        holder = data["holder"]
        partner = next((s for s, p in view.parties().items() if p == "re" and s != holder), None)
        if partner is None:
            return t(
                lang,
                "doppelkopf.table_marriage_looking",
                holder=seat_label(holder, seats, lang),
                mode=t(lang, f"doppelkopf.mode_{data.get('mode') or 'trick'}"),
            )
        return t(
            lang,
            "doppelkopf.table_marriage_found",
            holder=seat_label(holder, seats, lang),
            partner=seat_label(partner, seats, lang),
        )
    if game == "poverty" and "poverty" in data:
        return t(
            lang,
            "doppelkopf.table_poverty_pair",
            player=seat_label(data["poverty"]["player"], seats, lang),
            acceptor=seat_label(data["poverty"]["acceptor"], seats, lang),
        )
    if data["soloist"] is not None and game != "normal":
        who = seat_label(data["soloist"], seats, lang)
        return t(lang, "doppelkopf.table_game_by", game=game_name(lang, game), who=who)
    return t(lang, "doppelkopf.table_game", game=game_name(lang, game))


def _announcements(data: Mapping[str, Any], seats: Mapping[int, SeatInfo], lang: Lang) -> str:
    said = data["announcements"]
    if not said:
        return ""
    parts = []
    for a in said:
        kind = t(lang, f"doppelkopf.say_{a['kind']}")
        who = seat_label(a["seat"], seats, lang)
        parts.append(f"{kind} ({who}, {_party(lang, a['party'])})")
    return t(lang, "doppelkopf.table_announcements", said=" · ".join(parts))


def _markers(data: Mapping[str, Any], seats: Mapping[int, SeatInfo], lang: Lang) -> str:
    markers = data.get("markers") or []
    if not markers:
        return ""
    shown = [
        t(lang, f"doppelkopf.marker_{kind}", who=seat_label(s, seats, lang), card=_card(code))
        for s, kind, code in markers
    ]
    return t(lang, "doppelkopf.table_markers", markers="; ".join(shown))


def _trick_line(data: Mapping[str, Any], seats: Mapping[int, SeatInfo], lang: Lang) -> str:
    number = data.get("trick_number")
    if number is None or data["phase"] != "play":
        return ""
    plays = data["trick"]
    if not plays:
        who = seat_label(data["leader"], seats, lang) if data["leader"] is not None else "—"
        return t(lang, "doppelkopf.table_trick_empty", n=number, who=who)
    shown = " · ".join(f"{seat_label(s, seats, lang)} {_card(c)}" for s, c in plays)
    return t(lang, "doppelkopf.table_trick", n=number, plays=shown)


def table_message(info: TableInfo, view: DoppelkopfView, rules: str, *, lang: Lang) -> Rendered:
    """Return the public table: seats with dealer, party as far as the table knows it and
    totals; reservations or bids; the game; announcements; house markers; the current
    trick; who is awaited; the rules in force."""
    assert view.seat is None, "the table message is built from the public view only"
    data = view.data
    known = view.parties()
    lines = []
    for s in range(data["players"]):
        marks = []
        if s == data["sitting_out"]:
            marks.append(t(lang, "doppelkopf.table_sits_out"))
        elif s == data["dealer"] and data["phase"] != "over":
            marks.append(t(lang, "doppelkopf.table_dealer"))
        if s in known and data["phase"] == "play":
            marks.append(_party(lang, known[s]))
        mark = f" ({', '.join(marks)})" if marks else ""
        total = t(lang, "render.points", points=data["totals"][s])
        lines.append(f"**{seat_label(s, info.seats, lang)}**{mark} — {total}")
    parts = ["\n".join(lines)]
    parts += [
        _game_line(view, info.seats, lang),
        _announcements(data, info.seats, lang),
        _markers(data, info.seats, lang),
        _trick_line(data, info.seats, lang),
    ]
    if data["phase"] == "over":
        totals = data["totals"]
        best = max(totals)
        winners = [seat_label(s, info.seats, lang) for s, v in enumerate(totals) if v == best]
        parts.append(t(lang, "doppelkopf.table_winners", n=len(winners), names=", ".join(winners)))
    elif data["to_act"]:
        who = ", ".join(seat_label(s, info.seats, lang) for s in data["to_act"])
        parts.append(t(lang, "doppelkopf.table_to_act", who=who))
    if info.warned and info.deadline is not None and data["phase"] != "over":
        parts.append(
            t(
                lang,
                "render.table_warning",
                n=len(info.warned),
                names=", ".join(seat_label(s, info.seats, lang) for s in info.warned),
                deadline=int(info.deadline),
            )
        )
    if not data["results"] and data["deal"] == 1 and data["phase"] != "over":
        parts.append(f"*{t(lang, 'doppelkopf.table_talk')}*")
    embed = discord.Embed(
        title=_title(data, lang), description="\n\n".join(p for p in parts if p), colour=COLOUR
    )
    embed.set_footer(text=rules)
    buttons = Controls()
    if data["phase"] != "over":
        buttons.add_item(
            Button(
                label=t(lang, "render.button_my_hand"),
                style=discord.ButtonStyle.primary,
                custom_id=ids.table_button(info.game_id, "hand"),
            )
        )
    return Rendered(content=None, embeds=[embed], view=buttons)


# --- a private hand ------------------------------------------------------------------------


def _payload(text: str) -> str:
    return "=" + text.replace(":", ".")


def _chosen(pending: str) -> list[Card]:
    return [parse_card(c) for c in pending.split(",") if c]


def _prompt(view: DoppelkopfView, pending: str, seats: Mapping[int, SeatInfo], lang: Lang) -> str:
    data = view.data
    phase = data["phase"]
    legal = view.legal
    if phase == "reservations" and legal:
        return t(lang, "doppelkopf.hand_reserve")
    if phase == "forced" and legal:
        return t(lang, "doppelkopf.hand_forced")
    if phase == "declarations" and legal:
        return t(lang, "doppelkopf.hand_declare")
    if phase == "bidding" and legal:
        return t(lang, "doppelkopf.hand_bid")
    if phase == "solo-type" and legal:
        return t(lang, "doppelkopf.hand_solo_type")
    chosen = _cards(_chosen(pending)) or t(lang, "doppelkopf.hand_none_chosen")
    if phase == "poverty-offer" and legal:
        return t(lang, "doppelkopf.hand_poverty_offer", n=choice_size(view), chosen=chosen)
    if phase == "poverty-answers" and legal:
        player = seat_label(data["poverty"]["player"], seats, lang)
        return t(lang, "doppelkopf.hand_poverty_answer", player=player)
    if phase == "poverty-return" and legal:
        offered = parse_action(data["poverty"]["offered"]).cards
        return t(lang, "doppelkopf.hand_poverty_return", cards=_cards(offered), chosen=chosen)
    if phase == "play" and any(a.card is not None for a in legal):
        return t(lang, "doppelkopf.hand_play")
    if data["to_act"] and phase != "over":
        who = ", ".join(seat_label(s, seats, lang) for s in data["to_act"])
        return t(lang, "doppelkopf.hand_wait", who=who)
    return ""


def _status(view: DoppelkopfView, lang: Lang) -> list[str]:
    """Return what the seat knows of its own game and party."""
    data = view.data
    seat = view.seat
    lines = []
    if seat == data["sitting_out"]:
        return [t(lang, "doppelkopf.hand_sitting_out")]
    own = data.get("own_reservation")
    if own and data["phase"] in ("reservations", "forced"):
        lines.append(
            t(
                lang,
                "doppelkopf.hand_your_reservation",
                choice=action_text(lang, own.partition(":")[2]),
            )
        )
    if data["phase"] != "play":
        return lines
    if data.get("own_game") is not None:
        lines.append(t(lang, "doppelkopf.hand_silent_marriage"))
        return lines
    lines.append(f"{t(lang, 'doppelkopf.table_game', game=game_name(lang, data['game']))}")
    party = view.parties().get(seat if seat is not None else -1)
    if party is None:
        lines.append(t(lang, "doppelkopf.hand_party_unknown"))
    else:
        lines.append(t(lang, "doppelkopf.hand_you_are", party=_party(lang, party)))
    return lines


def _button(
    label: str, custom_id: str, *, row: int, style: discord.ButtonStyle, disabled: bool = False
) -> Button:
    return Button(label=label, custom_id=custom_id, row=row, style=style, disabled=disabled)


def hand_message(
    info: TableInfo,
    view: DoppelkopfView,
    turn: int,
    *,
    lang: Lang,
    pending: str = "",
    notice: str | None = None,
) -> Rendered:
    """Return the seat's private message: its hand in the current game's order, its party
    as far as it knows it, and one button per choice it may make now."""
    assert view.seat is not None
    seat = view.seat
    game_id = info.game_id
    lines = [notice] if notice else []
    lines += _hand_lines(info, view, pending, lang)
    buttons = Controls()
    legal = view.legal
    phase = view.data["phase"]
    if phase in _MULTI and legal:
        _three_card_buttons(buttons, view, turn, game_id, pending, lang)
    elif phase == "play":
        _play_buttons(buttons, lines, view, turn, game_id, lang)
    else:
        for i, action in enumerate(legal):
            buttons.add_item(
                _button(
                    action_text(lang, str(action)),
                    ids.control(game_id, seat, turn, _payload(str(action))),
                    row=min(i // 5, 3),
                    style=discord.ButtonStyle.primary,
                )
            )
    if phase != "over":
        buttons.add_item(
            _button(
                t(lang, "render.button_refresh"),
                ids.table_button(game_id, "refresh"),
                row=4,
                style=discord.ButtonStyle.secondary,
            )
        )
    return Rendered(content="\n".join(lines), embeds=[], view=buttons)


def _hand_lines(info: TableInfo, view: DoppelkopfView, pending: str, lang: Lang) -> list[str]:
    """Return the hand's lines: the title with the game's number, the party as far as the
    seat knows it, its cards, the prompt and the last trick."""
    assert view.seat is not None
    data = view.data
    who = seat_label(view.seat, info.seats, lang)
    lines = []
    if data["phase"] == "over":
        lines.append(f"**{t(lang, 'doppelkopf.hand_title', seat=who)}**")
        lines.append(t(lang, "doppelkopf.hand_over"))
    else:
        length = int(data["length"])
        game = min(int(data["counted"]) + 1, length)
        title = t(lang, "doppelkopf.hand_title_game", seat=who, game=game, games=length)
        lines.append(f"**{title}**")
    lines += _status(view, lang)
    if view.hand:
        lines.append(_cards(view.hand))
    prompt = _prompt(view, pending, info.seats, lang)
    if prompt:
        lines.append(prompt)
    last = data.get("last_trick")
    if last and data["phase"] == "play":
        plays = " · ".join(
            f"{seat_label(s, info.seats, lang)} {_card(c)}" for s, c in last["plays"]
        )
        who = seat_label(last["winner"], info.seats, lang)
        lines.append(t(lang, "doppelkopf.hand_last_trick", plays=plays, who=who))
    return lines


def _play_buttons(
    buttons: Controls,
    lines: list[str],
    view: DoppelkopfView,
    turn: int,
    game_id: int,
    lang: Lang,
) -> None:
    """Add to ``buttons`` one button per card of the hand (pressable if it may be played)
    and the announcements and claim it may make, and to ``lines`` what those mean."""
    assert view.seat is not None
    seat = view.seat
    legal = view.legal
    grey, blue, green = (
        discord.ButtonStyle.secondary,
        discord.ButtonStyle.primary,
        discord.ButtonStyle.success,
    )
    playable = {a.card for a in legal if a.card is not None}
    counts: dict[Card, int] = {}
    for card in view.hand:
        counts[card] = counts.get(card, 0) + 1
    for i, card in enumerate(counts):
        label = str(card) + (" ×2" if counts[card] > 1 else "")
        buttons.add_item(
            _button(
                label,
                ids.control(game_id, seat, turn, _payload(card.code)),
                row=i // 5,
                style=blue if card in playable else grey,
                disabled=card not in playable,
            )
        )
    extra = [a for a in legal if a.card is None]
    if any(a.kind in ANNOUNCEMENTS for a in extra):
        lines.append(t(lang, "doppelkopf.hand_announce"))
    if any(a.kind == "claim" for a in extra):
        lines.append(t(lang, "doppelkopf.hand_claim"))
    for action in extra:
        buttons.add_item(
            _button(
                action_text(lang, str(action)),
                ids.control(game_id, seat, turn, _payload(str(action))),
                row=3,
                style=green if action.kind in ANNOUNCEMENTS else grey,
            )
        )


def choice_size(view: DoppelkopfView) -> int:
    """Return how many cards the seat picks in a choice of three: for a poverty's offer the
    side cards that top up its trumps, for the return all three."""
    if view.data["phase"] == "poverty-offer":
        return 3 - sum(1 for c in view.hand if ORDERS["normal"].is_trump(c))
    return 3


def _three_card_buttons(
    buttons: Controls,
    view: DoppelkopfView,
    turn: int,
    game_id: int,
    pending: str,
    lang: Lang,
) -> None:
    """The buttons of a choice of three cards: each distinct card adds one more of its
    copies, or takes them all back once all are chosen; the confirm button appears when
    the choice is one of the legal ones."""
    assert view.seat is not None
    seat = view.seat
    word = _MULTI[view.data["phase"]]
    chosen = _chosen(pending)
    order = ORDERS["normal"]
    fixed = [c for c in view.hand if order.is_trump(c)] if word == "poverty" else []
    pickable = [c for c in view.hand if c not in fixed] if word == "poverty" else list(view.hand)
    need = choice_size(view)
    counts: dict[Card, int] = {}
    for card in pickable:
        counts[card] = counts.get(card, 0) + 1
    for i, card in enumerate(counts):
        have = chosen.count(card)
        full = len(chosen) >= need
        if have < counts[card] and not full:
            after = [*chosen, card]  # one more of this card
        elif have:
            after = [c for c in chosen if c != card]  # take this card's copies back
        else:
            after = [*chosen, card]  # the choice is full: shown, not pressable
        label = str(card) + (f" ✓{'×2' if have > 1 else ''}" if have else "")
        buttons.add_item(
            _button(
                label,
                ids.control(game_id, seat, turn, "s" + ",".join(c.code for c in sorted(after))),
                row=min(i // 5, 2),
                style=discord.ButtonStyle.success if have else discord.ButtonStyle.secondary,
                disabled=full and not have,
            )
        )
    texts = {str(a) for a in view.legal}
    candidate = None
    if len(chosen) == need:
        candidate = str(parse_action(f"{word}:{','.join(c.code for c in [*fixed, *chosen])}"))
    buttons.add_item(
        _button(
            t(lang, "doppelkopf.button_give" if word == "poverty" else "doppelkopf.button_return"),
            ids.control(game_id, seat, turn, _payload(candidate or f"{word}:")),
            row=3,
            style=discord.ButtonStyle.primary,
            disabled=candidate not in texts,
        )
    )
    if len(chosen) > 1:  # with one card chosen, its own button takes it back
        buttons.add_item(
            _button(
                t(lang, "doppelkopf.button_clear"),
                ids.control(game_id, seat, turn, "s"),
                row=3,
                style=discord.ButtonStyle.secondary,
            )
        )


# --- the end of a game ---------------------------------------------------------------------


def _solo_scored(game: str) -> bool:
    """Whether the game is scored as a solo: Re is one player, who scores three times."""
    return game.startswith("solo:") or game in ("silent-marriage", "marriage-solo")


def _counted(items: list[tuple[str, int]], lang: Lang) -> str:
    """Return score items as words and points, repeated one-point items counted once:
    ``won 1, fox × 2``."""
    counts: dict[tuple[str, int], int] = {}
    for item in items:
        counts[item] = counts.get(item, 0) + 1
    words = []
    for (key, value), n in counts.items():
        word = t(lang, f"doppelkopf.item_{key}")
        if n > 1 and value == 1:
            words.append(f"{word} × {n}")
        else:
            words += [f"{word} {value}"] * n  # worth more than one each: never repeated
    return ", ".join(words)


def _breakdown(result: GameResult, preset: str, lang: Lang) -> list[str]:
    """Return one line per party with score items, each adding up to the score of that
    party's players, a step at a time: its items, (house) each doubling, what the other
    party's items take off, and (a solo's Re) the soloist's three times."""
    house = preset == "house"
    own: dict[str, list[tuple[str, int]]] = {"re": [], "contra": []}
    doubles: dict[str, list[str]] = {"re": [], "contra": []}
    for party, key, value in result.items:
        if house and key in ("re", "contra"):  # house: an announced Re or Contra doubles
            doubles[party].append(key)
        else:
            own[party].append((key, value))
    worth = {p: sum(v for _, v in own[p]) * 2 ** len(doubles[p]) for p in own}
    lines = []
    for party in ("re", "contra"):
        if not own[party]:
            continue
        other = "contra" if party == "re" else "re"
        total = sum(v for _, v in own[party])
        steps: list[tuple[str, dict[str, Any], int]] = [
            ("doppelkopf.end_sum", {"items": _counted(own[party], lang)}, total)
        ]
        for key in doubles[party]:
            total *= 2
            steps.append(
                ("doppelkopf.end_doubled", {"word": t(lang, f"doppelkopf.item_{key}")}, total)
            )
        if worth[other]:
            total -= worth[other]
            steps.append(
                (
                    "doppelkopf.end_minus",
                    {"party": _party(lang, other), "value": worth[other]},
                    total,
                )
            )
        if party == "re" and _solo_scored(result.game):
            total *= 3
            steps.append(("doppelkopf.end_soloist", {}, total))
        said = [
            t(lang, key, total=f"{n:+d}" if i == len(steps) - 1 else n, **params)
            for i, (key, params, n) in enumerate(steps)
        ]
        lines.append(
            t(lang, "doppelkopf.end_items", party=_party(lang, party), steps="; ".join(said))
        )
    return lines


def _hands_in_order(
    result: GameResult, played: PlayedGame, preset: str
) -> list[tuple[int, list[Card]]]:
    """Return each playing seat's hand at the start of play, in the game's order."""
    order = order_for(preset, result.game)
    return [(s, sorted(hand, key=order.sort_key)) for s, hand in enumerate(played.hands) if hand]


def _score_lines(result: GameResult, preset: str, lang: Lang) -> list[str]:
    """Return the card points and each party's score items."""
    lines = [t(lang, "doppelkopf.end_points", re=result.points[0], contra=result.points[1])]
    return lines + _breakdown(result, preset, lang)


def end_picture_parts(
    result: GameResult,
    played: PlayedGame,
    seats: Mapping[int, SeatInfo],
    preset: str,
    *,
    lang: Lang,
) -> list[tuple[str, str, list[Card]]]:
    """Return what the end-of-game picture shows: each player's name, party and score, and
    hand (trumps first)."""
    hands = []
    for s, cards in _hands_in_order(result, played, preset):
        party = _party(lang, "re" if s in result.re else "contra")
        who = seat_label(s, seats, lang, picture=True)
        hands.append((who, f"{party} {result.scores[s]:+d}", cards))
    return hands


def _end_title(number: int, result: GameResult, seats: Mapping[int, SeatInfo], lang: Lang) -> str:
    """Return a game's breakdown's title: its number and type, and who played a solo."""
    kind = game_name(lang, result.game)
    if _solo_scored(result.game) and result.re:
        kind = f"{kind} — {seat_label(result.re[0], seats, lang)}"
    return t(lang, "doppelkopf.end_title", game=number, type=kind)


def end_message(
    number: int,
    result: GameResult,
    played: PlayedGame,
    totals: Sequence[int],
    seats: Mapping[int, SeatInfo],
    preset: str,
    *,
    lang: Lang,
) -> Rendered:
    """Return the public breakdown of game ``number``: type, parties, card points, one line
    per party adding its score items up to its players' score, every player's score and the
    running totals (every hand and trick are :func:`end_details`, one press away)."""

    def who(seat: int) -> str:
        return seat_label(seat, seats, lang)

    parties = t(
        lang,
        "doppelkopf.end_parties",
        re=", ".join(who(s) for s in result.re),
        contra=", ".join(who(s) for s in result.contra),
    )
    winner = (
        t(lang, "doppelkopf.end_winner", party=_party(lang, result.winner))
        if result.winner
        else t(lang, "doppelkopf.end_nobody")
    )
    points, *items = _score_lines(result, preset, lang)
    lines = [parties, points, winner, *items]
    scores = ", ".join(
        f"{who(s)}: {result.scores[s]:+d}"
        for s in range(len(result.scores))
        if s in (*result.re, *result.contra)
    )
    lines.append(t(lang, "doppelkopf.end_scores", scores=scores))
    lines.append(
        t(
            lang,
            "doppelkopf.end_totals",
            totals=", ".join(f"{who(s)}: {v}" for s, v in enumerate(totals)),
        )
    )
    embed = discord.Embed(
        title=_end_title(number, result, seats, lang),
        description="\n".join(lines),
        colour=COLOUR,
    )
    return Rendered(content=None, embeds=[embed])


def end_details(
    number: int,
    result: GameResult,
    played: PlayedGame,
    seats: Mapping[int, SeatInfo],
    preset: str,
    *,
    lang: Lang,
) -> Rendered:
    """Return the full detail of game ``number`` (its Details): every hand as card play
    began, in the game's order, and every trick with who took it — all of it public once
    the game is over (every card was played, or shown by a claim)."""

    def who(seat: int) -> str:
        return seat_label(seat, seats, lang)

    hands = [f"{who(s)}: {_cards(cards)}" for s, cards in _hands_in_order(result, played, preset)]
    tricks = [
        f"{n}. {' · '.join(f'{who(s)} {c}' for s, c in plays)} → {who(winner)}"
        for n, (plays, winner) in enumerate(played.tricks, start=1)
    ]
    if len(played.tricks) < 12:
        tricks.append(t(lang, "doppelkopf.end_claimed"))
    embed = discord.Embed(title=_end_title(number, result, seats, lang), colour=COLOUR)
    embed.add_field(
        name=t(lang, "doppelkopf.end_hands"), value="\n".join(hands)[:1024], inline=False
    )
    text = "\n".join(tricks)
    if len(text) > 1024:  # two fields: a trick line is at most ~80 characters
        half = len(tricks) // 2
        embed.add_field(
            name=t(lang, "doppelkopf.end_tricks"), value="\n".join(tricks[:half]), inline=False
        )
        embed.add_field(name="\u200b", value="\n".join(tricks[half:]), inline=False)
    else:
        embed.add_field(name=t(lang, "doppelkopf.end_tricks"), value=text, inline=False)
    return Rendered(content=None, embeds=[embed])
