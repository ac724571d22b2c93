"""Dupe on Discord: the ``GameUI`` the bot core plays Dupe through (see ``bot/game.py``)."""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from bot import ids, pictures
from bot.errors import class_refusal
from bot.game import (
    Choice,
    GameUI,
    OptionSpec,
    Picture,
    Post,
    Rendered,
    SeatInfo,
    Step,
    TableInfo,
)
from bot.games.dupe import render
from bot.games.dupe.replay import replay_steps
from bot.i18n import Lang, Text, seat_name, t
from bot.render import final_standings, rules_line
from bot.tables import StaleError, UserError
from engine import dupe
from engine.cards import Card, by_suit, format_cards, parse_card
from engine.dupe import SEAT_LETTERS, SEAT_SUITS, Distribute, DupeState, DupeView, Phase, Play
from engine.dupe.rules import Action, DupeOptions
from engine.errors import EngineError, ParseError
from engine.game import Advice

if TYPE_CHECKING:
    from bot.games.dupe import pictures as drawn
else:  # drawn in the drawing process: the bot process does not import Pillow
    drawn = pictures.drawings("bot.games.dupe.pictures")

__all__ = ["UI", "DupeUI"]

_LEGACY = re.compile(
    r"dupe:(?:"
    r"lobby:(?P<lobby>join|leave|addcpu|start|cancel):(?P<lgame>\d{1,18})"
    r"|(?P<what>hand|pic|rematch):(?P<game>\d{1,18})"
    r"|(?P<kind>(?P<play>play)|giveok|give):(?P<cgame>\d{1,18}):(?P<seat>[0-3]):(?P<turn>\d{1,2}):"
    r"(?P<rest>(?(play)[2-9TJQKA][SHDC]|[NESW]{0,4}))"  # a card to play, else seat letters
    r")"
)
_LEGACY_PAYLOAD = {"play": "p", "give": "g", "giveok": "k"}

# Why the engine refused, by its reason (engine/dupe: every EngineError names one).
_REFUSALS = {
    "not-in-hand": "dupe.engine_not_in_hand",
    "already-chosen": "dupe.engine_already_chosen",
    "distributing": "dupe.engine_distributing",
    "nothing-to-distribute": "dupe.engine_nothing_to_distribute",
    "only-taker": "dupe.engine_only_taker",
    "give-revealed": "dupe.engine_give_revealed",
}


def _card_text(value: Any) -> str:
    if isinstance(value, Card):
        return str(value)
    try:
        return str(parse_card(str(value)))
    except ParseError:
        return str(value)


def _picture_names(info: TableInfo, lang: Lang) -> list[str]:
    names = []
    for seat in range(4):
        record = info.seats.get(seat)
        if record is None:
            names.append(seat_name(lang, seat))
        else:
            names.append(record.shown(lang, seat, picture=True))
    return names


class DupeUI(GameUI[DupeState, DupeView, Action, DupeOptions]):
    """Dupe's messages, controls, posts, pictures and replays."""

    name = "dupe"
    game = dupe.GAME
    colour = render.COLOUR
    catalogue: Path | None = None  # bot/locales/dupe.toml
    options: tuple[OptionSpec, ...] = (
        OptionSpec(
            "memory",
            "dupe.memory_name",
            "dupe.memory_description",
            (
                Choice("dupe.commands_memory_strict", "strict"),
                Choice("dupe.commands_memory_open", "open"),
            ),
        ),
    )

    def seat_name(self, lang: Lang, seat: int, players: int) -> str:
        """Return the seat's name: North, East, South, West."""
        return seat_name(lang, seat)

    def seat_mark(self, seat: int, players: int) -> str:
        """Return the seat's suit."""
        return SEAT_SUITS[seat].symbol

    def options_text(self, options: Any, lang: Lang) -> str:
        """Return the memory rule in force."""
        return t(lang, "dupe.rules_memory", memory=render.memory_text(lang, options.memory))

    def table_message(self, info: TableInfo, view: DupeView, lang: Lang) -> Rendered:
        """Return the public table."""
        return render.table_message(info, view, rules_line(self, info, lang), lang=lang)

    def hand_message(
        self,
        info: TableInfo,
        view: DupeView,
        turn: int,
        lang: Lang,
        *,
        pending: str = "",
        notice: str | None = None,
    ) -> Rendered:
        """Return the seat's hand and identity card, its cards as buttons; for the taker,
        the distribution with the seats chosen so far (``pending``)."""
        return render.hand_message(
            info.game_id,
            view,
            info.seats,
            notice=notice,
            assignment=pending,
            pictures=info.pictures,
            turn=turn,
            lang=lang,
        )

    def control(self, view: DupeView, payload: str) -> Play | Distribute | Step:
        """Return what a control of the seat's hand means (see ``render``'s docstring)."""
        kind, rest = payload[:1], payload[1:]
        if kind == "p":
            try:
                return dupe.play(parse_card(rest))
            except (ParseError, KeyError):
                raise UserError("table.not_a_card") from None
        if kind not in ("g", "k"):
            raise UserError("errors.unknown_button")
        if view.phase is not Phase.DISTRIBUTE or view.taker != view.seat:
            raise StaleError("dupe.only_taker" if kind == "g" else "dupe.already_distributed")
        if kind == "k" and sorted(rest) != sorted(SEAT_LETTERS):
            raise UserError("dupe.give_all_four")
        if len(set(rest)) != len(rest) or any(c not in SEAT_LETTERS for c in rest):
            raise UserError("dupe.one_card_each")
        if kind == "g":
            return Step(rest)
        assert view.revealed is not None
        cards = sorted(view.revealed, key=by_suit)
        given = {SEAT_LETTERS.index(letter): card for card, letter in zip(cards, rest, strict=True)}
        return Distribute(tuple(given[s] for s in range(4)))

    def refusal(self, error: Exception) -> Text:
        """Return why the engine refused, from its reason and parameters."""
        if isinstance(error, EngineError):
            key = _REFUSALS.get(error.reason)
            params = error.params
            if key == "dupe.engine_not_in_hand":
                return Text(key, card=_card_text(params.get("card", "")))
            if key in ("dupe.engine_distributing", "dupe.engine_only_taker"):
                return Text(key, taker=Text(f"common.seat_{params.get('taker') or 0}"))
            if key == "dupe.engine_give_revealed":
                cards = [parse_card(c) if isinstance(c, str) else c for c in params["cards"]]
                return Text(key, cards=format_cards(cards))
            if key is not None:
                return Text(key)
        return class_refusal(error)

    def advice_text(self, view: DupeView, advice: Advice[Action], lang: Lang) -> str:
        """Return the expert's advice in words: the card to choose or the cards to give,
        and why."""
        action = advice.action
        if isinstance(action, Play):
            words = t(lang, "dupe.advise_play", card=str(action.card))
        else:
            given = ", ".join(
                f"{card} → {seat_name(lang, seat)}" for seat, card in enumerate(action.cards)
            )
            words = t(lang, "dupe.advise_give", given=given)
        if advice.reason == "only":
            why = t(lang, "hints.only")
        elif advice.reason:
            why = t(lang, f"dupe.advice_{advice.reason}", **advice.detail)
        else:
            return words
        return t(lang, "hints.because", action=words, why=why)

    def stand_in(self, action: Any, lang: Lang) -> str:
        """Return what a computer did for an absent member."""
        if isinstance(action, Play):
            return t(lang, "dupe.stand_in_play", card=str(action.card))
        letters = ", ".join(
            f"{card} → {seat_name(lang, seat)}" for seat, card in enumerate(action.cards)
        )
        return t(lang, "dupe.stand_in_give", given=letters)

    def action_text(self, action: Action, lang: Lang) -> str:
        """Return a card played, or the cards given with their takers."""
        if isinstance(action, Play):
            return str(action.card)
        return ", ".join(
            f"{card} → {seat_name(lang, seat)}" for seat, card in enumerate(action.cards)
        )

    def review_place(self, state: DupeState) -> Text:
        """Return the deal and trick of the decision due."""
        return Text("dupe.review_place", deal=state.deal, trick=state.trick)

    def owed(self, before: DupeState, after: DupeState) -> list[str]:
        """Return a scoring post for each deal the change scored (``deal<n>``)."""
        return [f"deal{result.deal}" for result in after.results[len(before.results) :]]

    def post(
        self, info: TableInfo, state: DupeState, key: str, names: Sequence[str], lang: Lang
    ) -> Post:
        """Return a deal's scoring: with pictures, the totals beside a picture of every won
        hand, and Details that give it all in text; without, all of it in text."""
        result = state.results[int(key.removeprefix("deal")) - 1]
        if not info.pictures:
            return Post(render.deal_scoring(result, info.seats, lang=lang))
        picture = functools.partial(
            drawn.scoring_picture, result, _picture_names(info, lang), lang=lang
        )
        filename = pictures.picture_filename("scoring", result.deal)
        return Post(render.deal_summary(result, lang=lang), picture, filename, details=True)

    def details(
        self, state: DupeState, key: str, seats: Mapping[int, SeatInfo], lang: Lang
    ) -> Rendered | None:
        """Return a scored deal's identity cards, won hands, breakdowns and credits (``deal<n>``):
        all of it public once the deal is scored."""
        digits = key.removeprefix("deal")
        if digits == key or not digits.isdigit() or not 1 <= int(digits) <= len(state.results):
            return None
        return render.deal_scoring(state.results[int(digits) - 1], seats, lang=lang)

    def table_picture(
        self, info: TableInfo, view: DupeView, names: Sequence[str], lang: Lang
    ) -> tuple[Any, Picture] | None:
        """Return the trick the table shows: the revealed one awaiting its distribution,
        or the last one completed, with who received which card."""
        names = _picture_names(info, lang)
        if view.revealed is not None:
            key = (view.deal, view.trick, "revealed", lang)
            return key, functools.partial(
                drawn.trick_picture, view.revealed, names, view.taker, None, lang=lang
            )
        last = view.last_trick
        if last is None:
            return None
        received = last.received if last.taker is not None else None
        return (last.deal, last.trick, "given", lang), functools.partial(
            drawn.trick_picture, last.cards, names, last.taker, received, lang=lang
        )

    def hand_picture(self, view: DupeView, lang: Lang) -> tuple[str, Picture] | None:
        """Return the seat's hand as a picture, with the hand as text."""
        if not view.hand:
            return None
        cards = " ".join(map(str, sorted(view.hand, key=by_suit)))
        caption = t(lang, "table.hand_caption", n=len(view.hand), cards=cards)
        return caption, functools.partial(drawn.hand_picture, view.hand)

    def rules(self, lang: Lang, with_picture: bool) -> tuple[str, Picture | None]:
        """Return the rules and the third worked scoring example, as text and picture."""
        text = render.rules_text(lang=lang) + "\n\n" + drawn.rules_example_caption(lang)
        if not with_picture:
            return text, None
        return text, functools.partial(drawn.rules_example_picture, lang)

    def replay_steps(self, seed: int, options: Any, moves: Sequence[str]) -> list[Any]:
        """Return each deal's start, every trick, every scoring and the final standings."""
        return list(replay_steps(seed, options, moves))

    def replay_page(
        self,
        game_id: int,
        steps: Sequence[Any],
        index: int,
        seats: Mapping[int, SeatInfo],
        lang: Lang,
    ) -> Rendered:
        """Return step ``index`` of a replay."""
        final = steps[-1]
        standings = final_standings(self, final.totals, final.winners, seats, lang=lang)
        return render.replay_step(game_id, steps, index, seats, standings, lang=lang)

    def legacy_id(self, custom_id: str) -> ids.Parsed | None:
        """Return what a ``dupe:…`` id (from before ``bot.ids``) means."""
        m = _LEGACY.fullmatch(custom_id)
        if m is None:
            return None
        if m["lobby"]:
            return ids.TableButton(int(m["lgame"]), m["lobby"])
        if m["what"]:
            return ids.TableButton(int(m["game"]), m["what"])
        kind, rest = m["kind"], m["rest"]
        if (kind == "play") != (len(rest) == 2 and rest[0] in "23456789TJQKA"):
            return None
        payload = _LEGACY_PAYLOAD[kind] + rest
        return ids.Control(int(m["cgame"]), int(m["seat"]), int(m["turn"]), payload, legacy=True)

    def legacy_turn(self, state: DupeState) -> int:
        """Return the trick's number within the game (0–51), as ``dupe:`` ids carried it."""
        return render.turn_index(state.deal, state.trick)


UI = DupeUI()
