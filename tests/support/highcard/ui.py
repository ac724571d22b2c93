"""High card on Discord: the test game's ``GameUI``, built only on the bot's public pieces."""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import discord

from bot import ids, pictures
from bot.controls import Button, Controls
from bot.errors import class_refusal
from bot.game import GameUI, OptionSpec, Picture, Post, Rendered, SeatInfo, TableInfo
from bot.i18n import Lang, Text, t
from bot.render import final_standings, replay_buttons, rules_line
from bot.tables import StaleError, UserError
from engine.cards import parse_card
from engine.errors import ParseError
from tests.support.highcard.engine import HIGHCARD, HighCardState, HighCardView, Play

__all__ = ["UI"]

COLOUR = discord.Colour(0x1565C0)


class HighCardUI(GameUI):
    """High card's messages and controls (``p<card>`` plays a card)."""

    name = "highcard"
    game = HIGHCARD
    colour = COLOUR
    options: tuple[OptionSpec, ...] = ()
    catalogue: Path | None = Path(__file__).with_name("highcard.toml")

    def seat_name(self, lang: Lang, seat: int, players: int) -> str:
        return t(lang, f"highcard.seat_{seat}")

    def seat_mark(self, seat: int, players: int) -> str:
        return ""

    def options_text(self, options: Any, lang: Lang) -> str:
        return t(lang, "highcard.tricks", tricks=options.tricks)

    def _who(self, seat: int | None, seats: Mapping[int, SeatInfo], lang: Lang) -> str:
        if seat is None:
            return t(lang, "highcard.nobody")
        info = seats.get(seat)
        who = info.shown(lang, seat) if info else self.seat_name(lang, seat, 2)
        return t(lang, "highcard.takes", seat=who)

    def _tricks(self, view: HighCardView, seats: Mapping[int, SeatInfo], lang: Lang) -> list[str]:
        return [
            t(
                lang,
                "highcard.trick_line",
                trick=n,
                cards=" · ".join(map(str, trick.cards)),
                taker=self._who(trick.taker, seats, lang),
            )
            for n, trick in enumerate(view.tricks, start=1)
        ]

    def table_message(self, info: TableInfo, view: HighCardView, lang: Lang) -> Rendered:
        tricks = info.game_options.tricks
        if view.over:
            title = t(lang, "highcard.over_title")
        else:
            title = t(lang, "highcard.table_title", trick=len(view.tricks) + 1, tricks=tricks)
        lines = []
        for seat in (0, 1):
            mark = "" if view.over else (" ✓" if view.chosen[seat] else " …")
            who = info.seats[seat].shown(lang, seat) if seat in info.seats else "—"
            name = self.seat_name(lang, seat, 2)
            lines.append(f"{name} · {who}{mark} — {view.won[seat]}")
        lines += self._tricks(view, info.seats, lang)
        embed = discord.Embed(title=title, description="\n".join(lines), colour=COLOUR)
        embed.set_footer(text=rules_line(self, info, lang))
        buttons = Controls()
        if not view.over:
            buttons.add_item(
                Button(
                    label=t(lang, "render.button_my_hand"),
                    custom_id=ids.table_button(info.game_id, "hand"),
                )
            )
        return Rendered(content=None, embeds=[embed], view=buttons)

    def hand_message(
        self,
        info: TableInfo,
        view: HighCardView,
        turn: int,
        lang: Lang,
        *,
        pending: str = "",
        notice: str | None = None,
    ) -> Rendered:
        assert view.seat is not None
        lines = [notice] if notice else []
        lines.append(f"**{self.seat_name(lang, view.seat, 2)}**")
        lines += self._tricks(view, info.seats, lang)
        buttons = Controls()
        if view.over:
            lines.append(t(lang, "highcard.over"))
        else:
            if view.choice is None:
                lines.append(t(lang, "highcard.choose"))
            else:
                lines.append(t(lang, "highcard.chosen", card=view.choice))
            for card in view.hand:
                buttons.add_item(
                    Button(
                        label=str(card),
                        custom_id=ids.control(info.game_id, view.seat, turn, f"p{card.code}"),
                        disabled=view.choice is not None,
                    )
                )
            buttons.add_item(
                Button(
                    label=t(lang, "render.button_refresh"),
                    custom_id=ids.table_button(info.game_id, "refresh"),
                    row=4,
                )
            )
        return Rendered(content="\n".join(lines), embeds=[], view=buttons)

    def control(self, view: HighCardView, payload: str) -> Play:
        if payload[:1] != "p":
            raise UserError("errors.unknown_button")
        try:
            return Play(parse_card(payload[1:]))
        except ParseError:
            raise UserError("table.not_a_card") from None

    def refusal(self, error: Exception) -> Text:
        return class_refusal(error)

    def stand_in(self, action: Any, lang: Lang) -> str:
        return t(lang, "highcard.played", card=str(action.card))

    def action_text(self, action: Play, lang: Lang) -> str:
        return str(action.card)

    def review_place(self, state: HighCardState) -> Text:
        return Text("highcard.review_place", trick=len(state.public_view().tricks) + 1)

    def owed(self, before: HighCardState, after: HighCardState) -> list[str]:
        return []

    def post(
        self, info: TableInfo, state: HighCardState, key: str, names: Sequence[str], lang: Lang
    ) -> Post:
        raise StaleError("errors.unknown_button")

    def table_picture(
        self, info: TableInfo, view: HighCardView, names: Sequence[str], lang: Lang
    ) -> tuple[Any, Picture] | None:
        if not view.tricks:
            return None
        last = view.tricks[-1]
        return (len(view.tricks), lang), functools.partial(
            pictures.trick_picture, last.cards, list(names), highlight=last.taker
        )

    def hand_picture(self, view: HighCardView, lang: Lang) -> tuple[str, Picture] | None:
        if not view.hand:
            return None
        caption = " ".join(map(str, view.hand))
        return caption, functools.partial(pictures.hand_picture, view.hand, lang=lang)

    def rules(self, lang: Lang, with_picture: bool) -> tuple[str, Picture | None]:
        return t(lang, "highcard.rules"), None

    def replay_steps(self, seed: int, options: Any, moves: Sequence[str]) -> list[Any]:
        state = HIGHCARD.replay(seed, options, moves)
        return [*state.public_view().tricks, state.result()]

    def replay_page(
        self,
        game_id: int,
        steps: Sequence[Any],
        index: int,
        seats: Mapping[int, SeatInfo],
        lang: Lang,
    ) -> Rendered:
        step = steps[index]
        if index == len(steps) - 1:
            shown = final_standings(self, step.scores, step.winners, seats, lang=lang)
            embed = shown.embeds[0]
        else:
            line = " · ".join(map(str, step.cards)) + " — " + self._who(step.taker, seats, lang)
            embed = discord.Embed(description=line, colour=COLOUR)
        embed.set_footer(
            text=t(lang, "highcard.replay_title", game=game_id, step=index + 1, steps=len(steps))
        )
        view = replay_buttons(game_id, index, len(steps), lang)
        return Rendered(content=None, embeds=[embed], view=view)

    def legacy_id(self, custom_id: str) -> ids.Parsed | None:
        return None

    def legacy_turn(self, state: HighCardState) -> int:
        return int(state.turn)


UI = HighCardUI()
