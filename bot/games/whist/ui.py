"""Whist on Discord: the ``GameUI`` the bot core plays the whist family through (see
``bot/game.py``): short whist, English Dummy, Double Dummy, Humbug, two-hand whist and
Mort, each with its options. Messages come from :mod:`bot.games.whist.render`, built from
views only, so a message shows what the engine lets its audience know."""

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
    ExactReview,
    GameUI,
    OptionSpec,
    Picture,
    Post,
    Rendered,
    SeatInfo,
    Step,
    TableInfo,
)
from bot.games.whist import render, review
from bot.games.whist.duplicate_commands import duplicate_group
from bot.i18n import Lang, Text, t
from bot.render import final_standings, replay_buttons, rules_line
from bot.tables import StaleError, UserError
from engine.cards import Suit
from engine.errors import OptionsError, ParseError
from engine.game import Advice
from engine.whist import (
    GAME,
    SEATS,
    Action,
    Kind,
    Move,
    Phase,
    WhistOptions,
    WhistState,
    WhistView,
    new_game,
    parse_action,
)
from engine.whist.options import VARIANT_NAMES

if TYPE_CHECKING:
    from bot.pictures import layouts as kit
else:  # drawn in the drawing process: the bot process does not import Pillow
    kit = pictures.drawings("bot.pictures.layouts")

__all__ = ["UI", "WhistUI"]

_OPTION_REASONS = frozenset(
    {
        "variant",
        "players",
        "other-variant",
        "fixed-dummy",
        "dummy-player",
        "rubbers",
        "dummy-shown",
        "option",
    }
)
_ON_OFF = (Choice("whist.option_on", "on"), Choice("whist.option_off", "off"))


def _spec(name: str, choices: tuple[Choice, ...]) -> OptionSpec:
    return OptionSpec(name, f"whist.{name}_name", f"whist.{name}_description", choices)


_VARIANTS = tuple(Choice(f"whist.variant_{v}", v) for v in VARIANT_NAMES)


class WhistUI(GameUI[WhistState, WhistView, Action, WhistOptions]):
    """Whist's messages, controls, posts, pictures and replays."""

    name = "whist"
    game = GAME
    colour = render.COLOUR
    catalogue: Path | None = None  # bot/locales/whist.toml
    options: tuple[OptionSpec, ...] = (
        _spec("variant", _VARIANTS),
        _spec("players", (Choice("whist.players_3", 3), Choice("whist.players_4", 4))),
        _spec("random_seating", _ON_OFF),
        _spec("fixed_dummy", _ON_OFF),
        _spec("dummy_player", tuple(Choice(f"whist.dummy_player_{n}", n) for n in (0, 1, 2))),
        _spec("rubbers", tuple(Choice(f"whist.rubbers_{n}", n) for n in (1, 2, 3, 4, 5, 6))),
        _spec(
            "dummy_shown",
            (
                Choice("whist.dummy_shown_on_deal", "on_deal"),
                Choice("whist.dummy_shown_after_opening_lead", "after_opening_lead"),
            ),
        ),
        _spec("open_all", _ON_OFF),
        _spec("humbug_declared", _ON_OFF),
    )
    rules_options: tuple[OptionSpec, ...] = (_spec("variant", _VARIANTS),)
    """``/whist rules variant:`` — which variant's rules and scoring table."""

    def seat_name(self, lang: Lang, seat: int, players: int) -> str:
        """Return a player's seat at the table: Player 1 … Player 4 (the hands they hold,
        N E S W, change with the variant and the rubber)."""
        return t(lang, "whist.player", n=seat + 1)

    def seat_mark(self, seat: int, players: int) -> str:
        """Whist's seats have no mark."""
        return ""

    def options_text(self, options: WhistOptions, lang: Lang) -> str:
        """Return the variant and its options in force."""
        parts = [t(lang, f"whist.variant_{options.variant}")]
        if options.variant == "mort":
            parts.append(t(lang, "whist.players_n", n=options.player_count))
        if options.fixed_dummy:
            parts.append(
                t(
                    lang,
                    "whist.rules_fixed_dummy",
                    player=options.dummy_player + 1,
                    n=options.rubbers,
                )
            )
        if options.variant in ("english_dummy", "mort"):
            parts.append(t(lang, f"whist.dummy_shown_{options.dummy_shown}"))
        if options.open_all:
            parts.append(t(lang, "whist.open_all_name"))
        if options.humbug_declared:
            parts.append(t(lang, "whist.humbug_declared_name"))
        return " · ".join(parts)

    def seats_drawn(self, options: WhistOptions) -> bool:
        """Return whether the partners are drawn at random (short whist's option): the
        rules line's "random seats" says it."""
        return options.random_seating

    def table_message(self, info: TableInfo, view: WhistView, lang: Lang) -> Rendered:
        """Return the public table."""
        return render.table_message(info, view, rules_line(self, info, lang), lang=lang)

    def hand_message(
        self,
        info: TableInfo,
        view: WhistView,
        turn: int,
        lang: Lang,
        *,
        pending: str = "",
        notice: str | None = None,
    ) -> Rendered:
        """Return the player's hand (and any dummy they play) with their choices."""
        return render.hand_message(info, view, turn, lang=lang, pending=pending, notice=notice)

    def control(self, view: WhistView, payload: str) -> Action | Step:
        """Return what a control of the player's message means (see ``render``)."""
        if view.seat is None or view.phase is Phase.OVER:
            raise StaleError("whist.not_now")
        if payload in ("c", "b"):
            if not any(a.kind is Kind.CLAIM for a in view.legal):
                raise StaleError("whist.not_now")
            return Step("claim" if payload == "c" else "")
        if payload[:1] != "=":
            raise UserError("errors.unknown_button")
        try:
            action = parse_action(payload[1:].replace(".", ":"))
        except ParseError:
            raise UserError("errors.unknown_button") from None
        if action.kind is Kind.PLAY:
            if action.card not in render.playable(view):
                raise StaleError("whist.not_now")
            return action
        if action not in view.legal:
            raise StaleError("whist.not_now")
        return action

    def refusal(self, error: Exception) -> Text:
        """Return why the engine refused: options that do not fit the variant by the
        option; otherwise by its class (the hand shows only legal choices, so a refused
        move means the moment passed)."""
        if isinstance(error, OptionsError) and error.reason in _OPTION_REASONS:
            return Text(f"whist.options_{error.reason.replace('-', '_')}")
        return class_refusal(error)

    def advice_text(self, view: WhistView, advice: Advice[Action], lang: Lang) -> str:
        """Return the expert's advice in words: the card or choice, and why (how many
        deals it sampled, or that every card is known)."""
        action = advice.action
        kind = action.kind
        if kind is Kind.PLAY:
            words = t(lang, "whist.advise_play", card=str(action.card))
        elif kind is Kind.CLAIM:
            words = t(lang, "whist.advise_claim", n=action.number)
        elif kind is Kind.TRUMP:
            words = t(lang, "whist.advise_trump", suit=render.suit_name(lang, Suit(action.number)))
        else:
            words = t(lang, f"whist.advise_{kind.name.lower()}")
        if advice.reason == "only":
            why = t(lang, "hints.only")
        elif advice.reason:
            detail = dict(advice.detail)
            why = t(lang, f"whist.advice_{advice.reason}", n=detail.get("deals", 0), **detail)
        else:
            return words
        return t(lang, "hints.because", action=words, why=why)

    def stand_in(self, action: Any, lang: Lang) -> str:
        """Return what a computer chose for an absent member."""
        return t(lang, "whist.stand_in", action=render.action_text(lang, action))

    def action_text(self, action: Action, lang: Lang) -> str:
        """Return an action in words (``Q♥``, "keeps the hand")."""
        return render.action_text(lang, action)

    def review_place(self, state: WhistState) -> Text:
        """Return the deal and trick of the decision due."""
        return Text("whist.review_place", deal=state.deal, trick=state.completed + 1)

    def exact_review(
        self, seed: int, options: WhistOptions, moves: Sequence[str]
    ) -> ExactReview | None:
        """Return the double-dummy costs of the cards played (``bot.games.whist.review``)."""
        return review.exact_review(self.game, seed, options, moves)

    def owed(self, before: WhistState, after: WhistState) -> list[str]:
        """Return a summary post for each deal the change scored (``deal<n>``)."""
        done = len(before.results)
        return [f"deal{n}" for n in range(done + 1, len(after.results) + 1)]

    def post(
        self, info: TableInfo, state: WhistState, key: str, names: Sequence[str], lang: Lang
    ) -> Post:
        """Return a deal's summary, with who held which hand in that deal."""
        number = int(key.removeprefix("deal"))
        result = state.results[number - 1]
        seating = render.Seating(
            _seating_at(state, number),
            tuple(state.controller(h) for h in SEATS),
            info.seats,
            state.variant,
            lang,
        )
        holders = state.honour_holders[number - 1]
        return Post(render.deal_message(number, result, holders, seating, lang=lang))

    def table_picture(
        self, info: TableInfo, view: WhistView, names: Sequence[str], lang: Lang
    ) -> tuple[Any, Picture] | None:
        """Return the current trick, or the last complete one, as a picture."""
        if view.phase not in (Phase.PLAY, Phase.CLAIM):
            return None
        plays = view.trick
        winner = None
        if not plays and view.last_trick is not None:
            plays, winner = view.last_trick.cards, view.last_trick.winner
        if not plays:
            return None
        hands = render.trick_hands(view)
        cards = dict(plays)
        seating = render.view_seating(view, info.seats, lang, picture=True)
        labels = [seating.picture_label(h) for h in hands]
        key = (view.deal, view.tricks, len(plays), winner, lang)
        highlight = hands.index(winner) if winner is not None else None
        return key, functools.partial(
            kit.trick_picture, [cards.get(h) for h in hands], labels, highlight=highlight
        )

    def hand_picture(self, view: WhistView, lang: Lang) -> tuple[str, Picture] | None:
        """Return the player's own hand as a picture, by suit."""
        cards = render.sorted_hand(view.hand)
        if not cards:
            return None
        caption = t(lang, "table.hand_caption", n=len(cards), cards=" ".join(map(str, cards)))
        return caption, functools.partial(kit.hand_picture, cards, lang=lang)

    def rules(
        self, lang: Lang, with_picture: bool, variant: str = "short"
    ) -> tuple[str, Picture | None]:
        """Return the rules and scoring table of ``variant``, and the variants there are."""
        if variant not in VARIANT_NAMES:
            variant = "short"
        others = ", ".join(f"`{v}`" for v in VARIANT_NAMES if v != variant)
        text = (
            t(lang, f"whist.rules_{variant}") + "\n\n" + t(lang, "whist.rules_more", others=others)
        )
        return text, None

    def replay_steps(self, seed: int, options: Any, moves: Sequence[str]) -> list[Any]:
        """Return one step per move, ``(hand, player, action)``, then the unit's result: a
        finished table's moves are public, dead hands included."""
        state = new_game(seed, options)
        steps: list[Any] = []
        for text in moves:
            move = Move.parse(text)
            owner = state.controller(move.seat)
            player = state.player_at(owner) if owner is not None else None
            steps.append((move.seat, player, str(move.action)))
            state.apply(move.seat, move.action)
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
        """Return step ``index`` of a finished table's replay."""
        step = steps[index]
        if index == len(steps) - 1:
            shown = final_standings(self, step.scores, step.winners, seats, lang=lang)
            embed = shown.embeds[0]
        else:
            hand, player, action = step
            who = render.hand_name(lang, hand)
            if player is not None:
                who = f"{who} ({render.player_name(player, seats, lang)})"
            line = t(lang, "whist.replay_move", who=who, action=render.action_text(lang, action))
            embed = discord.Embed(description=line, colour=render.COLOUR)
        embed.set_footer(
            text=t(lang, "whist.replay_title", game=game_id, step=index + 1, steps=len(steps))
        )
        buttons = replay_buttons(game_id, index, len(steps), lang)
        return Rendered(content=None, embeds=[embed], view=buttons)

    def subcommands(self, bot: Any) -> list[Any]:
        """Return whist's own commands besides the shared ones: ``/whist duplicate``."""
        if self.name != "whist":
            return []
        return [duplicate_group(bot)]

    def legacy_id(self, custom_id: str) -> ids.Parsed | None:
        """Whist has no ids from before ``bot.ids``."""
        return None

    def legacy_turn(self, state: WhistState) -> int:
        """Whist has no legacy ids: the decision point is the engine's."""
        return int(state.turn)


def _seating_at(state: WhistState, number: int) -> tuple[int | None, ...]:
    """Return who sat at each hand in deal ``number``: the seating now, unless a rubber
    or game ended since and the roles rotated (English Dummy, Mort), when the moves are
    replayed up to that deal's last card."""
    now = tuple(state.player_at(h) for h in SEATS)
    if state.variant not in ("english_dummy", "mort"):
        return now
    result = state.results[number - 1]
    if number == len(state.results) and result.game_winner is None:
        return now
    replayed = new_game(state.seed, state.options)
    seating = now
    for move in state.moves:
        seating = tuple(replayed.player_at(h) for h in SEATS)
        replayed.apply(move.seat, move.action)
        if len(replayed.results) >= number:
            break
    return seating


UI = WhistUI()
