"""Dukes Up! on Discord: the ``GameUI`` the bot core plays Dukes Up! through (see
``bot/game.py``). Messages come from :mod:`bot.games.dukes_up.render`, built from views
only, so the opponent and the board never see a hand, a face-down castle or the working
copy of a turn before it ends.

**A restart in the middle of a turn keeps the working copy.** Every T2 action is a move of
the log (the engine keeps the working copy in its state), so a restart replays it exactly;
the mover's panel shows it as it was, and Undo and Reset work as before.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import discord

from bot import ids
from bot.errors import class_refusal
from bot.game import (
    Actions,
    Choice,
    Form,
    FormField,
    GameUI,
    OptionSpec,
    Picture,
    Post,
    Rendered,
    SeatInfo,
    Step,
    TableInfo,
)
from bot.games.dukes_up import render
from bot.i18n import Lang, Text, t
from bot.render import final_standings, replay_buttons, rules_line
from bot.tables import StaleError, UserError
from engine.cards import Card, parse_card
from engine.dukes_up import GAME, Action, DukesUpOptions, DukesUpState, DukesUpView, replay
from engine.dukes_up.actions import (
    END_ROUND,
    FINISH,
    RESET,
    RESIGN,
    RETURN,
    REVEAL,
    UNDO,
    Kind,
    accept,
    add,
    discard,
    draw,
    new,
    pickup,
    regroup,
    set_duke,
    setup,
)
from engine.dukes_up.layout import group_kind, offer_d4
from engine.dukes_up.rules import Refusal
from engine.errors import ParseError
from engine.game import Advice

__all__ = ["UI", "DukesUpUI", "parse_groups"]

_OTHER = (1, 0)
_END_CONDITIONS = ("EXHAUSTED", "E1", "E2", "E3", "E4")  # they bar every discard option
_SUIT_FIRST = re.compile(r"^([♠♥♦♣SHDCshdc])(10|[2-9AJQKTajqkt])$")


def _choices(name: str, values: Sequence[str | int]) -> tuple[Choice, ...]:
    return tuple(Choice(f"dukes_up.{name}_{v}".replace("-", "_"), v) for v in values)


def _card(text: str) -> Card:
    """Return a typed card: rank first (``3S``, ``10♠``) or suit first (``♠3``)."""
    text = text.strip()
    m = _SUIT_FIRST.match(text)
    if m:
        text = m[2] + m[1]
    return parse_card(text)


def parse_groups(text: str) -> tuple[tuple[Card, ...], ...]:
    """Return typed groups (``3S 4D 5S | 6D 6S 6C``; one per line also works)."""
    groups = []
    for part in re.split(r"[|\n;]", text):
        words = part.replace(",", " ").split()
        if words:
            groups.append(tuple(_card(w) for w in words))
    return tuple(groups)


def _cards(text: str) -> tuple[Card, ...]:
    try:
        return tuple(render.chosen(text))
    except ParseError:
        raise UserError("table.not_a_card") from None


def _one_card(text: str) -> Card:
    """Return the one card ``text`` names (a forged id naming none or several means
    nothing)."""
    cards = _cards(text)
    if len(cards) != 1:
        raise UserError("errors.unknown_button")
    return cards[0]


class DukesUpUI(GameUI[DukesUpState, DukesUpView, Action, DukesUpOptions]):
    """Dukes Up!'s messages, controls, posts and replays."""

    name = "dukes_up"
    game = GAME
    colour = render.COLOUR
    catalogue: Path | None = None  # bot/locales/dukes_up.toml
    draws_pictures = False  # the board and panels are text; no picture is drawn
    default_turn_seconds = 180  # the rules' turn; the setup gets half (decision_seconds)
    options: tuple[OptionSpec, ...] = (
        OptionSpec(
            "rounds",
            "dukes_up.rounds_name",
            "dukes_up.rounds_description",
            _choices("rounds", (1, 2, 3, 5)),
        ),
        OptionSpec(
            "match_scoring",
            "dukes_up.match_scoring_name",
            "dukes_up.match_scoring_description",
            _choices("match_scoring", ("cumulative", "wins")),
        ),
        OptionSpec(
            "slot_weight",
            "dukes_up.slot_weight_name",
            "dukes_up.slot_weight_description",
            _choices("slot_weight", (1, 2)),
        ),
        OptionSpec(
            "discard_memory",
            "dukes_up.discard_memory_name",
            "dukes_up.discard_memory_description",
            _choices("discard_memory", ("strict", "open")),
        ),
        OptionSpec(
            "arrangement_help",
            "dukes_up.arrangement_help_name",
            "dukes_up.arrangement_help_description",
            _choices("arrangement_help", ("propose", "check-only")),
        ),
        OptionSpec(
            "max_turns",
            "dukes_up.max_turns_name",
            "dukes_up.max_turns_description",
            _choices("max_turns", (50, 100, 200, 400)),
        ),
    )

    def seat_name(self, lang: Lang, seat: int, players: int) -> str:
        """Return the seat's colour: Black or Red."""
        return t(lang, f"dukes_up.seat_{seat}")

    def seat_mark(self, seat: int, players: int) -> str:
        """Return the seat's suits."""
        return ("♣♠", "♥♦")[seat]

    def options_text(self, options: DukesUpOptions, lang: Lang) -> str:
        """Return the options in force."""
        return t(
            lang,
            "dukes_up.rules_options",
            n=options.rounds,
            scoring=t(lang, f"dukes_up.match_scoring_{options.match_scoring}"),
            weight=options.slot_weight,
            memory=t(lang, f"dukes_up.discard_memory_{options.discard_memory}"),
            help=t(lang, f"dukes_up.arrangement_help_{options.arrangement_help.replace('-', '_')}"),
            turns=options.max_turns,
        )

    def table_message(self, info: TableInfo, view: DukesUpView, lang: Lang) -> Rendered:
        """Return the public board."""
        return render.table_message(info, view, rules_line(self, info, lang), lang=lang)

    def hand_message(
        self,
        info: TableInfo,
        view: DukesUpView,
        turn: int,
        lang: Lang,
        *,
        pending: str = "",
        notice: str | None = None,
    ) -> Rendered:
        """Return the seat's private panel."""
        return render.hand_message(info, view, turn, lang=lang, pending=pending, notice=notice)

    def control(self, view: DukesUpView, payload: str) -> Action | Actions | Step | Form:
        """Return what a control of the panel means (see ``render``'s docstring)."""
        code, values = ids.split_values(payload)
        for meaning in (self._setup_control, self._group_control, self._turn_control):
            found = meaning(view, code, values)
            if found is not None:
                return found
        raise UserError("errors.unknown_button")

    def _setup_control(
        self, view: DukesUpView, code: str, values: list[str]
    ) -> Action | Actions | Step | Form | None:
        """Return what a control of the setup or the draw means (``None``: none of theirs)."""
        kind, rest = code[:2], code[2:]
        if code == "x":
            return Step("")
        if kind == "xc":
            return Step("c" + rest)
        if kind == "sc":
            return Step("C" + _one(values))
        if kind == "sd":
            if len(values) != 2:
                raise UserError("dukes_up.two_dukes")
            return Step(f"C{rest}.{values[0]},{values[1]}")
        if kind == "su":
            castle, *dukes = _cards(rest.replace(".", ",")) or (None,)
            if castle is None or len(dukes) != 2:
                raise UserError("dukes_up.two_dukes")
            hand = [c for c in view.setup if c != castle and c not in dukes]
            if len(hand) != 1:
                raise StaleError("dukes_up.not_now")
            return setup(castle, (dukes[0], dukes[1]), hand[0])
        if kind in ("dd", "dx") and rest in ("0", "1", "2"):
            return draw("draw" if kind == "dd" else "discard", int(rest))
        return None

    def _group_control(
        self, view: DukesUpView, code: str, values: list[str]
    ) -> Action | Actions | Step | Form | None:
        """Return what a control placing cards in groups means (``None``: none of theirs)."""
        kind, rest = code[:2], code[2:]
        if kind == "cs":
            return Step("c" + ",".join(values))
        if kind == "pr":
            if not rest:
                raise UserError("dukes_up.choose_cards")
            return Step("p" + rest)
        if kind == "ac":
            found = render.proposal(view, _cards(rest))
            if found is None:
                raise StaleError("dukes_up.no_layout")
            return accept(found[1], found[2])
        if kind == "nw":
            return new(_cards(rest))
        if kind == "ag":
            return Step("a0." + rest)
        if kind == "ap":
            page, _, codes = rest.partition(".")
            return Step(f"a{int(page or 0)}.{codes}")
        if kind == "ad":
            number = _one(values)
            if not number.isdigit():
                raise UserError("errors.unknown_button")
            return add(int(number), _cards(rest))
        if code == "rg":
            text = " | ".join(" ".join(c.code for c in g) for g in view.table)
            field = FormField(Text("dukes_up.regroup_label"), "3S 4D 5S | 6D 6S 6C", text)
            return Form("rt", Text("dukes_up.regroup_title"), (field,))
        if code == "rt":
            return self._regroup(view, _one(values))
        return None

    def _turn_control(
        self, view: DukesUpView, code: str, values: list[str]
    ) -> Action | Actions | Step | Form | None:
        """Return what a control of the dukes, the castle, a discard or the turn's end
        means (``None``: none of theirs)."""
        kind, rest = code[:2], code[2:]
        if kind == "pu":
            return pickup(_one_card(rest))
        if kind == "st":
            return set_duke(_one_card(rest))
        if kind == "sw":
            return Step("w" + _one_card(rest).code)
        if kind == "sy":
            duke_code, _, card_code = rest.partition(".")
            return Actions((pickup(_one_card(duke_code)), set_duke(_one_card(card_code))))
        if kind == "tp":
            cards = _cards(rest)
            if len(cards) != 2:
                raise UserError("errors.unknown_button")
            return discard("d2", cards)
        if code == "rv":
            return Step("R")
        simple = {"rvy": REVEAL, "rtn": RETURN, "un": UNDO, "rs": RESET, "fi": FINISH}
        simple |= {"er": END_ROUND, "rzy": RESIGN}
        if code in simple:
            return simple[code]
        if code == "rz":
            return Step("Z")
        if code == "dk":
            return self._discard_kind(view, _one(values))
        if kind == "dc":
            return self._discard(view, rest, values)
        if kind == "oa":
            card = _one_card(rest)
            offer = offer_d4(view.table, card)
            if offer is None:
                raise StaleError("dukes_up.refused_d4")
            return discard("d4", (card,), offer[0], tuple(offer[1]))
        return None

    def _regroup(self, view: DukesUpView, text: str) -> Action:
        """Return the typed regrouping: the groups holding a typed card, replaced by the
        typed groups. A typing that could not be one is refused naming the cards at fault
        (the form shows cards only, no group numbers)."""
        try:
            groups = parse_groups(text)
        except ParseError as error:
            raise StaleError("dukes_up.typed_bad_card", token=error.token) from None
        if not groups:
            raise StaleError("dukes_up.typed_nothing")
        typed = [c for g in groups for c in g]
        on_table = {c for g in view.table for c in g}
        _refuse_cards("typed_not_on_table", [c for c in typed if c not in on_table])
        counts = Counter(typed)
        _refuse_cards("typed_twice", [c for c in typed if counts[c] > 1])
        named = tuple(i for i, g in enumerate(view.table, 1) if any(c in counts for c in g))
        missing = [c for i in named for c in view.table[i - 1] if c not in counts]
        _refuse_cards("typed_missing", missing)
        return regroup(named, groups)

    def _discard_kind(self, view: DukesUpView, option: str) -> Action | Step:
        if option not in ("d1", "d2", "d3", "d4"):
            raise UserError("errors.unknown_button")
        reason = render.discard_reasons(view)[option]
        if reason in _END_CONDITIONS:
            raise StaleError(f"dukes_up.refused_{reason.lower()}")
        if reason is not None:  # marked 🚫 in the select: refused before any further step
            raise StaleError("dukes_up.refused_option", why=Text(f"dukes_up.why_{reason.lower()}"))
        if option == "d3":
            return discard("d3")
        return Step(option)

    def _discard(self, view: DukesUpView, which: str, values: list[str]) -> Action | Step:
        cards = _cards(",".join(values))
        if which == "1" and len(cards) == 1:
            return discard("d1", cards)
        if which == "2" and len(cards) == 2:
            return Step("t" + ",".join(c.code for c in cards))  # which ends on top?
        if which == "4" and len(cards) == 1:
            card = cards[0]
            home = next((g for g in view.table if card in g), None)
            if home is not None and not render.takeable(view, card):
                raise StaleError("dukes_up.refused_option", why=Text("dukes_up.why_d4"))
            rest = [c for c in home or () if c != card]
            if home is not None and rest and group_kind(rest) is None:
                return Step("o" + card.code)  # its group breaks: show the bot's offer
            return discard("d4", cards)
        raise UserError("errors.unknown_button")

    def refusal(self, error: Exception) -> Text:
        """Return the engine's refusal as a sentence, by its first failed condition."""
        if isinstance(error, Refusal):
            return Text(f"dukes_up.refused_{error.condition.lower()}")
        return class_refusal(error)

    def shown_at_once(self, moves: Sequence[Any]) -> bool:
        """Return whether ``moves`` show at once to the other seat though the turn goes on:
        a draw (pile and hand sizes), a revealed castle, an End round request."""
        at_once = (Kind.DRAW, Kind.REVEAL, Kind.END_ROUND)
        return any(m.action.kind in at_once for m in moves)

    def decision_point(self, state: DukesUpState) -> int:
        """Return what the panel's controls carry: ``state.decision``, which rises with
        every action of a turn (so an older panel cannot act on a changed table), but one
        value for a whole setup, where both seats choose at once (one's confirmation must
        not outdate the other's panel)."""
        if state.phase == "choose":
            return int(state.decision) - (2 - len(state.to_act))
        return int(state.decision)

    def decision_seconds(self, state: DukesUpState, turn_seconds: int) -> int:
        """Return the time for the decision now due: half the turn time for the setup
        (the rules file's 90 s to a turn's 180 s)."""
        return max(5, turn_seconds // 2) if state.phase == "choose" else turn_seconds

    def stand_in_actions(self, state: DukesUpState, seat: int, player: Any) -> list[Action]:
        """Return what a computer does for a member whose time ran out: the setup choice;
        or the turn reset to just after the draw (drawing first if no draw was made) and
        completed. The player sees only the seat's views, each after the last action."""
        stage = state.clone()
        done: list[Action] = []
        if stage.phase == "turn" and stage.drawn and stage.view(seat).actions:
            stage.apply(seat, RESET)
            done.append(RESET)
        start = (stage.round, stage.turn, stage.phase)
        while (
            not stage.is_over
            and seat in stage.to_act
            and (stage.round, stage.turn, stage.phase) == start
            and len(done) < 100
        ):
            action = player.act(stage.view(seat))
            stage.apply(seat, action)
            done.append(action)
        return done

    def keeps_meaning(self, state: DukesUpState, turn: int, seat: int, action: Any) -> bool:
        """Return whether a press of either seat's own (End round, Resign) made at
        decision point ``turn`` still means it: Resign always; End round within the same
        turn (the rules: a pending agreement clears when the turn ends). Every action of a
        turn was chosen on that moment's table."""
        if not isinstance(action, Action):
            return False
        if action.kind is Kind.RESIGN:
            return True
        if action.kind is not Kind.END_ROUND:
            return False
        ends = (Kind.FINISH, Kind.DISCARD, Kind.SETUP)
        return all(m.action.kind not in ends for m in state.moves[turn:])

    def moved_on(self, state: DukesUpState, turn: int, seat: int, names: Mapping[int, str]) -> Text:
        """Return why a control of an older panel no longer counts (the presser's own
        action since, or the table's)."""
        if any(m.seat == seat for m in state.moves[turn:]):
            return Text("dukes_up.moved_on_you")
        return Text("dukes_up.moved_on")

    def advice_text(self, view: DukesUpView, advice: Advice[Action], lang: Lang) -> str:
        """Return the expert's advice in words: the step to take, with its cards, and
        why."""
        action = advice.action
        kind = Kind(action.kind)
        cards = render.cards_text(action.cards)
        if kind is Kind.SETUP:
            castle, d1, d2, hand = (render.sym(c) for c in action.cards)
            words = t(lang, "dukes_up.advise_setup", castle=castle, d1=d1, d2=d2, hand=hand)
        elif kind is Kind.DRAW:
            words = t(lang, f"dukes_up.advise_draw_{action.word}", n=action.n)
        elif kind is Kind.ACCEPT:
            on_table = {c for group in view.table for c in group}
            placed = [c for group in action.partition for c in group if c not in on_table]
            words = t(lang, "dukes_up.advise_accept", cards=render.cards_text(placed))
        elif kind is Kind.DISCARD:
            option = action.word.upper()
            if cards:
                words = t(lang, "dukes_up.advise_discard", option=option, cards=cards)
            else:
                words = t(lang, "dukes_up.advise_discard_blind", option=option)
        elif kind in (Kind.NEW, Kind.ADD, Kind.PICKUP, Kind.SET):
            words = t(lang, f"dukes_up.advise_{kind.name.lower()}", cards=cards)
        elif kind in (Kind.REVEAL, Kind.RETURN, Kind.RESET, Kind.FINISH, Kind.REGROUP):
            words = t(lang, f"dukes_up.advise_{kind.name.lower()}")
        else:
            words = str(action)
        if advice.reason == "only":
            why = t(lang, "hints.only")
        elif advice.reason:
            # the count a line's grammar follows: the slots kept, or the cards discarded
            params = {"n": len(action.cards), **advice.detail}
            params["n"] = params.get("slots", params["n"])
            why = t(lang, f"dukes_up.advice_{advice.reason}", **params)
        else:
            return words
        return t(lang, "hints.because", action=words, why=why)

    def stand_in(self, action: Any, lang: Lang) -> str:
        """Return what a computer did for an absent member (no card: a stand-in's note
        goes to the member only, but the words need not name one)."""
        return t(
            lang,
            "dukes_up.stand_in",
            what=t(lang, f"dukes_up.did_{Kind(action.kind).name.lower()}"),
        )

    def action_text(self, action: Action, lang: Lang) -> str:
        """Return what an action does, with its cards (suit first, as the board shows)."""
        what = t(lang, f"dukes_up.did_{Kind(action.kind).name.lower()}")
        return f"{what} {render.cards_text(action.cards)}" if action.cards else what

    def review_place(self, state: DukesUpState) -> Text:
        """Return the round and move of the decision due."""
        return Text("dukes_up.review_place", round=state.round, move=state.move_count + 1)

    def owed(self, before: DukesUpState, after: DukesUpState) -> list[str]:
        """Return a scoring post for each round the change scored (``round<n>``)."""
        done = len(before.results)
        return [f"round{n}" for n in range(done + 1, len(after.results) + 1)]

    def post(
        self, info: TableInfo, state: DukesUpState, key: str, names: Sequence[str], lang: Lang
    ) -> Post:
        """Return a round's scoring (its hands and castles are public once scored)."""
        number = int(key.removeprefix("round"))
        result = state.results[number - 1]
        totals = [0, 0]
        for r in state.results[:number]:
            if state.options.match_scoring == "cumulative":
                totals[0] += r.scores[0]
                totals[1] += r.scores[1]
            elif r.winner is not None:
                totals[r.winner] += 1
        return Post(render.round_message(result, totals, info.seats, lang))

    def table_picture(
        self, info: TableInfo, view: DukesUpView, names: Sequence[str], lang: Lang
    ) -> tuple[Any, Picture] | None:
        """Dukes Up! has no table picture."""
        return None

    def hand_picture(self, view: DukesUpView, lang: Lang) -> tuple[str, Picture] | None:
        """Dukes Up! has no hand picture."""
        return None

    def rules(self, lang: Lang, with_picture: bool) -> tuple[str, Picture | None]:
        """Return the rules summary."""
        return t(lang, "dukes_up.rules_text"), None

    def replay_steps(self, seed: int, options: Any, moves: Sequence[str]) -> list[Any]:
        """Return one step per completed turn, as the board showed it (the public view:
        no working copy, no discarded card, no pile order), then the match's result."""
        state = replay(seed, options, [])
        steps: list[Any] = []
        last = (state.round, state.turn)
        for text in moves:
            _apply(state, text)
            now = (state.round, state.turn)
            if now != last or state.is_over:
                steps.append(state.public_view())
                last = now
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
        """Return step ``index`` of a finished match's replay: the board after a turn."""
        step = steps[index]
        if index == len(steps) - 1:
            shown = final_standings(self, step.scores, step.winners, seats, lang=lang)
            embed = shown.embeds[0]
        else:
            lines = render.board_lines(step, seats, lang)
            embed = discord.Embed(description="\n".join(lines)[:4000], colour=render.COLOUR)
        embed.set_footer(
            text=t(lang, "dukes_up.replay_title", game=game_id, step=index + 1, steps=len(steps))
        )
        buttons = replay_buttons(game_id, index, len(steps), lang)
        return Rendered(content=None, embeds=[embed], view=buttons)

    def legacy_id(self, custom_id: str) -> ids.Parsed | None:
        """Dukes Up! has no ids from before ``bot.ids``."""
        return None

    def legacy_turn(self, state: DukesUpState) -> int:
        """Dukes Up! has no legacy ids: the decision point is the engine's."""
        return int(state.decision)


def _apply(state: DukesUpState, text: str) -> None:
    move = GAME.parse_move(text)
    state.apply(move.seat, move.action)


def _refuse_cards(key: str, cards: list[Card]) -> None:
    """Refuse a typed regrouping with ``key``, naming each card at fault once."""
    if cards:
        distinct = list(dict.fromkeys(cards))
        raise StaleError(f"dukes_up.{key}", n=len(distinct), cards=render.cards_text(distinct))


def _one(values: list[str]) -> str:
    if len(values) != 1:
        raise UserError("errors.unknown_button")
    return values[0]


UI = DukesUpUI()
