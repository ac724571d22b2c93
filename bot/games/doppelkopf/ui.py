"""Doppelkopf on Discord: the ``GameUI`` the bot core plays Doppelkopf through (see
``bot/game.py``). Messages come from :mod:`bot.games.doppelkopf.render`, built from views
only, so a message shows what the engine lets its audience know."""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import discord

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
from bot.games.doppelkopf import render
from bot.i18n import Lang, Text, catalogue, t
from bot.render import final_standings, replay_buttons, rules_line
from bot.tables import StaleError, UserError
from engine.cards import parse_card
from engine.doppelkopf import GAME, Action, DoppelkopfOptions, DoppelkopfState, replay
from engine.doppelkopf.orders import ORDERS, order_for
from engine.doppelkopf.rules import ANNOUNCEMENTS, OPTIONAL, DoppelkopfView, parse_action
from engine.errors import OptionsError, ParseError
from engine.game import Advice

if TYPE_CHECKING:
    from bot.games.doppelkopf import pictures as drawn
    from bot.pictures import layouts as kit
else:  # drawn in the drawing process: the bot process does not import Pillow
    drawn = pictures.drawings("bot.games.doppelkopf.pictures")
    kit = pictures.drawings("bot.pictures.layouts")

__all__ = ["UI", "DoppelkopfUI"]

_OPTION_REASONS = frozenset({"preset", "players", "games", "rounds", "required-solos"})


def _choices(prefix: str, values: Sequence[str | int]) -> tuple[Choice, ...]:
    return tuple(Choice(f"doppelkopf.{prefix}_{v}", v) for v in values)


def _number(key: str, prefix: str, done: int) -> int | None:
    """Return the round a post's key names (``game3``: 3) if it is one of the ``done``."""
    digits = key.removeprefix(prefix)
    if digits == key or not digits.isdigit():
        return None
    number = int(digits)
    return number if 1 <= number <= done else None


class DoppelkopfUI(GameUI[DoppelkopfState, DoppelkopfView, Action, DoppelkopfOptions]):
    """Doppelkopf's messages, controls, posts, pictures and replays."""

    name = "doppelkopf"
    game = GAME
    colour = render.COLOUR
    catalogue: Path | None = None  # bot/locales/doppelkopf.toml
    options: tuple[OptionSpec, ...] = (
        OptionSpec(
            "preset",
            "doppelkopf.preset_name",
            "doppelkopf.preset_description",
            _choices("preset", ("tournament", "house")),
        ),
        OptionSpec(
            "players",
            "doppelkopf.players_name",
            "doppelkopf.players_description",
            _choices("players", (4, 5)),
        ),
        OptionSpec(
            "games",
            "doppelkopf.games_name",
            "doppelkopf.games_description",
            tuple(Choice(f"doppelkopf.games_{n}", n) for n in (4, 8, 12, 16, 24)),
        ),
        OptionSpec(
            "rounds",
            "doppelkopf.rounds_name",
            "doppelkopf.rounds_description",
            tuple(Choice(f"doppelkopf.rounds_{n}", n) for n in (1, 2, 3, 4)),
        ),
        OptionSpec(
            "required_solos",
            "doppelkopf.required_solos_name",
            "doppelkopf.required_solos_description",
            (Choice("doppelkopf.option_on", "on"), Choice("doppelkopf.option_off", "off")),
        ),
    )

    def seat_name(self, lang: Lang, seat: int, players: int) -> str:
        """Return the seat's name: Seat 1 … Seat 5."""
        return t(lang, "doppelkopf.seat", n=seat + 1)

    def seat_mark(self, seat: int, players: int) -> str:
        """Doppelkopf's seats have no mark."""
        return ""

    def options_text(self, options: DoppelkopfOptions, lang: Lang) -> str:
        """Return the preset, the number of players and the table's length."""
        preset = t(lang, f"doppelkopf.preset_short_{options.preset}")
        if options.preset == "house":
            length = t(lang, "doppelkopf.rounds_n", n=options.rounds)
        else:
            length = t(lang, "doppelkopf.games_n", n=options.length)
        key = (
            "doppelkopf.rules_options_required"
            if options.required_solos
            else "doppelkopf.rules_options"
        )
        return t(lang, key, preset=preset, players=options.players, length=length)

    def table_message(self, info: TableInfo, view: DoppelkopfView, lang: Lang) -> Rendered:
        """Return the public table."""
        return render.table_message(info, view, rules_line(self, info, lang), lang=lang)

    def hand_message(
        self,
        info: TableInfo,
        view: DoppelkopfView,
        turn: int,
        lang: Lang,
        *,
        pending: str = "",
        notice: str | None = None,
    ) -> Rendered:
        """Return the seat's hand with its choices."""
        return render.hand_message(info, view, turn, lang=lang, pending=pending, notice=notice)

    def control(self, view: DoppelkopfView, payload: str) -> Action | Step:
        """Return what a control of the seat's hand means (see ``render``'s docstring)."""
        kind, rest = payload[:1], payload[1:]
        if kind == "s":
            if view.data["phase"] not in ("poverty-offer", "poverty-return") or not view.legal:
                raise StaleError("doppelkopf.not_now")
            try:
                chosen = [parse_card(c) for c in rest.split(",") if c]
            except ParseError:
                raise UserError("table.not_a_card") from None
            hand = list(view.hand)
            for card in chosen:
                if card not in hand:
                    raise StaleError("doppelkopf.not_now")
                hand.remove(card)
            if len(chosen) > render.choice_size(view):
                raise UserError("doppelkopf.three_cards")
            return Step(",".join(c.code for c in chosen))
        if kind != "=":
            raise UserError("errors.unknown_button")
        text = rest.replace(".", ":")
        if text in ("poverty:", "return:"):
            raise UserError("doppelkopf.three_cards")
        try:
            action = parse_action(text)
        except ParseError:
            raise UserError("errors.unknown_button") from None
        if action not in view.legal:
            raise StaleError("doppelkopf.not_now")
        return action

    def refusal(self, error: Exception) -> Text:
        """Return why the engine refused: options that do not fit together by the option
        (``rounds`` at a tournament table…); otherwise by its class (the hand shows only
        legal choices, so a refused move means the moment passed)."""
        if isinstance(error, OptionsError) and error.reason in _OPTION_REASONS:
            return Text(f"doppelkopf.options_{error.reason.replace('-', '_')}")
        return class_refusal(error)

    def keeps_meaning(self, state: DoppelkopfState, turn: int, seat: int, action: Any) -> bool:
        """Return whether an announcement, claim or concession (what a seat may do out of
        turn) pressed at decision point ``turn`` still means it: only cards and such
        presses were made since, so it is the same deal's play (a new deal begins with
        reservations). Whether its window is still open is the engine's to say. A card or
        a reservation keeps no meaning: it was chosen for that moment."""
        if not isinstance(action, Action) or action.kind not in OPTIONAL:
            return False
        since = state.moves[turn:]
        return all(m.action.card is not None or m.action.kind in OPTIONAL for m in since)

    def moved_on(
        self, state: DoppelkopfState, turn: int, seat: int, names: Mapping[int, str]
    ) -> Text:
        """Return what got there before ``seat``'s press made at decision point ``turn``:
        the presser's own latest move since, told as "you" (a second press of a card, a
        card that closed their own window), else the last move since, as the table saw it
        (a reservation only as "decided")."""
        since = state.moves[turn:]
        if not since:
            return Text("errors.earlier_trick")
        own = [m for m in since if m.seat == seat]
        mover, action = own[-1] if own else since[-1]
        you = mover == seat
        who: str | Text = names.get(mover) or Text("doppelkopf.seat", n=mover + 1)
        if action.card is not None:
            key = "doppelkopf.moved_you_played" if you else "doppelkopf.moved_played"
            last = Text(key, who=who, card=str(action.card))
        elif action.kind in ANNOUNCEMENTS:
            what = Text(f"doppelkopf.say_{action.kind}")
            key = "doppelkopf.moved_you_announced" if you else "doppelkopf.moved_announced"
            last = Text(key, who=who, what=what)
        else:
            key = "doppelkopf.moved_you_decided" if you else "doppelkopf.moved_decided"
            last = Text(key, who=who)
        return Text("doppelkopf.moved_on", last=last)

    def advice_text(self, view: DoppelkopfView, advice: Advice[Action], lang: Lang) -> str:
        """Return the expert's advice in words: the card or choice, and a line of why
        where the catalogue has one for the adviser's reason."""
        words = t(lang, "doppelkopf.advise", action=render.action_text(lang, str(advice.action)))
        if advice.reason == "only":
            why = t(lang, "hints.only")
        elif f"doppelkopf.advice_{advice.reason}" in catalogue():
            why = t(lang, f"doppelkopf.advice_{advice.reason}", **advice.detail)
        else:
            return words
        return t(lang, "hints.because", action=words, why=why)

    def stand_in(self, action: Any, lang: Lang) -> str:
        """Return what a computer chose for an absent member."""
        return t(lang, "doppelkopf.stand_in", action=render.action_text(lang, str(action)))

    def action_text(self, action: Action, lang: Lang) -> str:
        """Return an action in words (a card, an announcement)."""
        return render.action_text(lang, str(action))

    def review_place(self, state: DoppelkopfState) -> Text:
        """Return the game and trick of the decision due (before play: the game only)."""
        game = len(state.game_results) + 1
        if state.phase != "play":
            return Text("doppelkopf.review_place_before", game=game)
        return Text("doppelkopf.review_place", game=game, trick=state.trick_number)

    def owed(self, before: DoppelkopfState, after: DoppelkopfState) -> list[str]:
        """Return a breakdown post for each game the change scored (``game<n>``)."""
        done = len(before.game_results)
        return [f"game{n}" for n in range(done + 1, len(after.game_results) + 1)]

    def post(
        self, info: TableInfo, state: DoppelkopfState, key: str, names: Sequence[str], lang: Lang
    ) -> Post:
        """Return a game's breakdown, with its hands as a picture; every hand and trick in
        text are its Details (:meth:`details`)."""
        number = int(key.removeprefix("game"))
        result = state.game_results[number - 1]
        totals = [
            sum(r.scores[s] for r in state.game_results[:number]) for s in range(state.players)
        ]
        played = state.played_games[number - 1]
        shown = render.end_message(
            number, result, played, totals, info.seats, state.preset, lang=lang
        )
        if not info.pictures:
            return Post(shown, details=True)
        hands = render.end_picture_parts(result, played, info.seats, state.preset, lang=lang)
        order = order_for(state.preset, result.game)
        picture = functools.partial(drawn.end_picture, hands, order.group.__getitem__)
        return Post(shown, picture, pictures.picture_filename("game", number), details=True)

    def details(
        self, state: DoppelkopfState, key: str, seats: Mapping[int, SeatInfo], lang: Lang
    ) -> Rendered | None:
        """Return every hand and trick of a scored game (``game<n>``): all of it public
        once the game is over."""
        number = _number(key, "game", len(state.game_results))
        if number is None:
            return None
        result = state.game_results[number - 1]
        played = state.played_games[number - 1]
        return render.end_details(number, result, played, seats, state.preset, lang=lang)

    def table_picture(
        self, info: TableInfo, view: DoppelkopfView, names: Sequence[str], lang: Lang
    ) -> tuple[Any, Picture] | None:
        """Return the current trick, or the last complete one, as a picture."""
        data = view.data
        if data["phase"] != "play":
            return None
        plays = data["trick"]
        winner = None
        if not plays and data.get("last_trick"):
            plays, winner = data["last_trick"]["plays"], data["last_trick"]["winner"]
        if not plays:
            return None
        seats = [s for s in range(data["players"]) if s != data["sitting_out"]]
        cards = {s: parse_card(c) for s, c in plays}
        labels = [render.seat_label(s, info.seats, lang, picture=True) for s in seats]
        key = (data["deal"], data["trick_number"], len(plays), winner, lang)
        highlight = seats.index(winner) if winner is not None else None
        return key, functools.partial(
            kit.trick_picture,
            [cards.get(s) for s in seats],
            labels,
            highlight=highlight,
        )

    def hand_picture(self, view: DoppelkopfView, lang: Lang) -> tuple[str, Picture] | None:
        """Return the seat's hand as a picture, trumps first, in the game's order."""
        if not view.hand:
            return None
        order = order_for(view.data["preset"], view.data["game"])
        cards = list(view.hand)  # the view's hand is in the game's order already
        caption = t(lang, "table.hand_caption", n=len(cards), cards=" ".join(map(str, cards)))
        return caption, functools.partial(
            kit.hand_picture, cards, lang=lang, group=order.group.__getitem__
        )

    def rules(self, lang: Lang, with_picture: bool) -> tuple[str, Picture | None]:
        """Return the rules of both presets and the normal game's trumps."""
        trumps = ORDERS["normal"].trumps
        text = t(lang, "doppelkopf.rules_text", trumps=" ".join(map(str, trumps)))
        if not with_picture:
            return text, None
        return text, functools.partial(
            kit.hand_picture,
            list(trumps),
            title=t(lang, "doppelkopf.rules_picture_caption"),
            lang=lang,
            group=lambda card: 0,
        )

    def replay_steps(self, seed: int, options: Any, moves: Sequence[str]) -> list[Any]:
        """Return one step per move, ``(seat, action)``, then the table's result: a
        finished table's moves are public, reservations included."""
        state = replay(seed, options, moves)
        steps: list[Any] = []
        for text in moves:
            seat, _, action = text.partition(":")
            steps.append((int(seat) - 1, action))
        steps.append(state.result())
        return steps

    def replay_page(
        self,
        game_id: int,
        steps: Sequence[Any],
        index: int,
        seats: Mapping[int, SeatInfo],
        lang: Lang,
    ) -> Rendered:
        """Return step ``index`` of a finished table's replay: a finished table's moves
        are public, reservations included."""
        step = steps[index]
        if index == len(steps) - 1:
            shown = final_standings(self, step.scores, step.winners, seats, lang=lang)
            embed = shown.embeds[0]
        else:
            seat, action = step
            who = render.seat_label(seat, seats, lang)
            line = t(
                lang, "doppelkopf.replay_move", who=who, action=render.action_text(lang, action)
            )
            embed = discord.Embed(description=line, colour=render.COLOUR)
        embed.set_footer(
            text=t(lang, "doppelkopf.replay_title", game=game_id, step=index + 1, steps=len(steps))
        )
        buttons = replay_buttons(game_id, index, len(steps), lang)
        return Rendered(content=None, embeds=[embed], view=buttons)

    def legacy_id(self, custom_id: str) -> ids.Parsed | None:
        """Doppelkopf has no ids from before ``bot.ids``."""
        return None

    def legacy_turn(self, state: DoppelkopfState) -> int:
        """Doppelkopf has no legacy ids: the decision point is the engine's."""
        return int(state.turn)


UI = DoppelkopfUI()
