"""Whist at a terminal table: one person plays a whole unit — a rubber, a tournée, a Mort
tournée — against computer players, playing a dummy's cards too where the rules give it to
him.

``python -m engine.play whist [--option NAME=VALUE …] [--seed S] [--player P] [--level L]``
(the generic shell, ``engine/play.py``, hands the flags after the game's name to
:func:`main`); e.g. ``--option variant=mort --option players=3``.

Everything printed comes from the person's own views (the hand he decides for, or the public
view while he waits or sits out) and from moves everyone sees as they are made; a Humbug
choice is told only once both are revealed. Input and output are injectable streams.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import random
import sys
from collections.abc import Sequence
from typing import TextIO

from engine.cards import Card, Suit, by_suit
from engine.errors import EngineError, OptionsError, ParseError
from engine.game import deciding_player, options_from_json
from engine.whist.actions import SEAT_NAMES, Action, Kind, parse_action, play
from engine.whist.options import WhistOptions
from engine.whist.players import LEVELS, Player, make_player
from engine.whist.rules import DealResult, Phase, WhistState, WhistView, new_game

__all__ = ["PROMPT", "WhistTable", "main", "render_hand", "render_result", "render_table"]

PROMPT = "> "
_QUIT = frozenset({"quit", "exit", "q"})
_HONOURS = ("A", "K", "Q", "J")
_HELP = """\
Type a card (QH, 10S, 10♠, any case) or its number in the list of playable cards.
Humbug: keep or exchange (k / e); naming trumps: a suit (S H D C). Double Dummy: claim K to
claim K of the remaining tricks; answer a claim with accept or reject (y / n).
Commands: table (show the table again), score, help, quit."""


class _EndOfInput(Exception):
    """The input stream ended."""


class _Quit(Exception):
    """The person left the table."""


def _side_name(state_or_view: WhistView, side: int) -> str:
    if state_or_view.variant in ("humbug", "two_hand"):
        return SEAT_NAMES[0] if side == 0 else SEAT_NAMES[2]
    return "N-S" if side == 0 else "E-W"


def _who(view: WhistView, seat: int, me: int) -> str:
    """Return a hand's name with who plays it, seen by player ``me``."""
    player = view.seating[seat]
    name = SEAT_NAMES[seat]
    if player is None:
        owner = view.controllers[seat]
        if owner is None:
            return f"{name} (dead hand)" if view.variant == "humbug" else name
        return f"{name} (dummy)"
    return f"{name} (you)" if player == me else f"{name} (player {player})"


def render_hand(cards: Sequence[Card]) -> str:
    """Return cards grouped by suit, high first: ``♠ A 10 4  ♥ Q 5``."""
    groups: list[str] = []
    for suit in (Suit.SPADES, Suit.HEARTS, Suit.CLUBS, Suit.DIAMONDS):
        held = [c for c in sorted(cards, key=by_suit) if c.suit is suit]
        if held:
            groups.append(f"{suit} " + " ".join(c.rank.symbol for c in held))
    return "  ".join(groups) if groups else "(no cards)"


def render_table(view: WhistView, me: int) -> list[str]:
    """Return the lines of the table as ``view`` shows it."""
    lines = []
    unit = f"rubber {view.rubber}, " if view.rubber is not None else ""
    trump = "to be named" if view.trump is None else f"{view.trump} ({view.trump.plural})"
    lines.append(
        f"Deal {view.deal} ({unit}game {view.game}); dealer {SEAT_NAMES[view.dealer]}; "
        f"trumps {trump}."
    )
    if view.turnup is not None:
        lines.append(f"Turned up: {view.turnup}.")
    lines.append(
        f"Score: {_side_name(view, 0)} {view.score[0]}, {_side_name(view, 1)} {view.score[1]}"
        + (
            f"; games {view.games[0]}–{view.games[1]}"
            if view.variant != "mort" and any(view.games)
            else ""
        )
        + f". Tricks this deal: {view.tricks[0]}–{view.tricks[1]}."
    )
    lines += _render_on_view(view, me)
    if view.discarded:
        lines.append(f"The hand you gave up: {render_hand(view.discarded)}")
    return lines


def _render_on_view(view: WhistView, me: int) -> list[str]:
    """Return the other hands on view, the last trick and the current trick."""
    lines = []
    for seat in range(4):
        cards = view.hands[seat]
        if cards is not None and seat != view.seat:
            lines.append(f"  {_who(view, seat, me)}: {render_hand(cards)}")
    if view.last_trick is not None:
        last = view.last_trick
        shown = ", ".join(f"{SEAT_NAMES[s]} {c}" for s, c in last.cards)
        lines.append(f"Last trick: {shown} — won by {SEAT_NAMES[last.winner]}.")
    if view.trick:
        lines.append("This trick: " + ", ".join(f"{SEAT_NAMES[s]} {c}" for s, c in view.trick))
    return lines


def _render_play(view: WhistView, me: int) -> list[str]:
    """Return the short table shown at each card to play: tricks, the turn-up while it lies
    face up, the other hands on view, the last and the current trick."""
    lines = [
        f"Tricks this deal: {_side_name(view, 0)} {view.tricks[0]}, "
        f"{_side_name(view, 1)} {view.tricks[1]}."
    ]
    if view.turnup is not None:
        lines.append(f"Turned up: {view.turnup}.")
    lines += _render_on_view(view, me)
    return lines


def render_result(result: DealResult, holders: Sequence[int | None], view: WhistView) -> list[str]:
    """Return the end-of-deal summary: tricks, honours and who held them, points, games."""
    a, b = _side_name(view, 0), _side_name(view, 1)
    lines = [
        f"=== Deal {result.deal} scored: tricks {a} {result.tricks[0]}, {b} {result.tricks[1]}"
    ]
    held = [
        f"{rank} {SEAT_NAMES[s]}"
        for rank, s in zip(_HONOURS, holders, strict=True)
        if s is not None
    ]
    if view.variant != "two_hand":
        lines.append(
            f"Honours of {result.trump.plural}: {a} {result.honours[0]}, {b} {result.honours[1]}"
            + (f" ({', '.join(held)})" if held else "")
        )
    if any(result.slam):
        side = 0 if result.slam[0] else 1
        lines.append(f"Slam! {_side_name(view, side)} score 20 slam points.")
    lines.append(
        f"Points: {a} +{result.points[0]}, {b} +{result.points[1]}; "
        f"score {result.score[0]}–{result.score[1]}."
    )
    if result.game_winner is not None:
        lines.append(
            f"{_side_name(view, result.game_winner)} win the game, worth {result.game_value}."
        )
    if result.rubber_winner is not None:
        lines.append(
            f"{_side_name(view, result.rubber_winner)} win the rubber, worth {result.rubber_value}."
        )
    if result.game_winner is not None or result.rubber_winner is not None:
        lines.append("Totals: " + ", ".join(f"player {p} {t}" for p, t in enumerate(result.totals)))
    return lines


class WhistTable:
    """A terminal table: the person is player ``me``; computer ``players`` play the others."""

    def __init__(
        self,
        state: WhistState,
        me: int,
        players: dict[int, Player],
        stdin: TextIO,
        stdout: TextIO,
        *,
        interactive: bool = False,
    ) -> None:
        self.state = state
        self.me = me
        self.players = players
        self._stdin = stdin
        self._stdout = stdout
        self._interactive = interactive
        self._told_results = len(state.results)
        self._pending_reveal = False

    def say(self, *lines: str) -> None:
        """Print the lines."""
        for line in lines:
            print(line, file=self._stdout)

    def ask(self) -> str:
        """Return the person's next line; raise on end of input or quit."""
        if self._interactive:
            try:
                line = input(PROMPT)
            except EOFError:
                raise _EndOfInput from None
        else:
            self._stdout.write(PROMPT)
            raw = self._stdin.readline()
            if not raw:
                self._stdout.write("\n")
                raise _EndOfInput
            line = raw.rstrip("\r\n")
            self._stdout.write(line + "\n")
        text = line.strip()
        if text.lower() in _QUIT:
            raise _Quit
        return text

    def _my_view(self) -> WhistView:
        seat = self.state.seat_of(self.me)
        return self.state.public_view() if seat is None else self.state.view(seat)

    def run(self, intro: Sequence[str] = ()) -> int:
        """Play the unit to its end or until the person leaves; return the exit code."""
        try:
            self.say(*intro)
            self._play()
        except _EndOfInput:
            self.say("End of input: goodbye.")
        except _Quit:
            self.say("You leave the table. Goodbye.")
        except KeyboardInterrupt:
            self.say("", "Interrupted: goodbye.")
            return 130
        return 0

    def _play(self) -> None:
        state = self.state
        announced = 0
        while not state.is_over:
            if state.deal != announced:
                announced = state.deal
                self._announce()
            hand = state.to_act[0]
            if state.phase is Phase.EXCHANGE:
                # both Humbug players choose at once: the person first if he chooses
                mine = [h for h in state.to_act if deciding_player(state, h) == self.me]
                hand = mine[0] if mine else hand
            decider = deciding_player(state, hand)
            assert decider is not None
            if decider == self.me:
                action = self._person(hand)
            else:
                action = self.players[decider].act(state.view(hand))
            phase = state.phase
            state.apply(hand, action)
            self._tell(hand, action, phase)
        self._finish()

    def _announce(self) -> None:
        state = self.state
        view = self._my_view()
        seat = state.seat_of(self.me)
        self.say("")
        if seat is None:
            self.say(f"You sit out this game (deal {state.deal}); you see what everyone sees.")
        self.say(*render_table(view, self.me))
        if seat is not None:
            self.say(f"Your hand ({SEAT_NAMES[seat]}): {render_hand(state.view(seat).hand)}")

    def _tell(self, hand: int, action: Action, phase: Phase) -> None:
        state = self.state
        view = self._my_view()
        name = SEAT_NAMES[hand]
        if action.kind == Kind.PLAY:
            self.say(f"{name} plays {action.card}.")
            if state.deal == view.deal and not view.trick and view.last_trick is not None:
                last = view.last_trick
                self.say(f"  Trick {last.number} to {SEAT_NAMES[last.winner]}.")
        elif action.kind == Kind.TRUMP:
            self.say(f"{name} names {Suit(action.number).plural} trumps.")
        elif action.kind in (Kind.KEEP, Kind.EXCHANGE):
            if deciding_player(state, hand) != self.me:
                self.say(f"{name} has made a choice.")
            if state.phase is not Phase.EXCHANGE:
                revealed = self._my_view().exchanged
                for seat in (0, 2):
                    if revealed[seat] is not None:
                        word = "exchanges" if revealed[seat] else "keeps"
                        self.say(f"{SEAT_NAMES[seat]} {word} his hand.")
        elif action.kind == Kind.CLAIM:
            self.say(f"{name} claims {action.number} of the remaining tricks.")
        elif action.kind == Kind.ACCEPT:
            self.say(f"{name} accepts the claim.")
        elif action.kind == Kind.REJECT:
            self.say(f"{name} rejects the claim: play goes on.")
        if len(state.results) > self._told_results:
            self._told_results = len(state.results)
            self.say(*render_result(state.results[-1], state.honour_holders[-1], view))

    def _finish(self) -> None:
        state = self.state
        self.say("", "=== The unit of play is over ===")
        for p, total in sorted(enumerate(state.totals), key=lambda pt: (-pt[1], pt[0])):
            you = " (you)" if p == self.me else ""
            self.say(f"  player {p}{you}: {total}")
        names = ", ".join(f"player {p}" for p in state.winners)
        self.say(f"Winner{'s' if len(state.winners) > 1 else ''}: {names}.")

    def _person(self, hand: int) -> Action:
        """Return the person's legal action for ``hand``, asking until one is given."""
        state = self.state
        view = state.view(hand)
        self._show_decision(view)
        while True:
            text = self.ask()
            word = text.lower()
            if word == "help":
                self.say(_HELP)
                continue
            if word == "table":
                self._show_decision(state.view(hand), full=True)
                continue
            if word in ("score", "scores"):
                self.say(
                    "Totals: " + ", ".join(f"player {p} {t}" for p, t in enumerate(state.totals))
                )
                continue
            action = self._read(view, text)
            if action is None:
                continue
            try:
                state.clone().apply(hand, action)
            except EngineError as error:
                self.say(str(error))
                continue
            return action

    def _show_decision(self, view: WhistView, full: bool = False) -> None:
        seat = view.seat
        assert seat is not None
        if full or view.phase is not Phase.PLAY:
            self.say(*render_table(view, self.me))
        else:
            self.say(*_render_play(view, self.me))
        kinds = {a.kind for a in view.legal}
        mine = view.hands[seat] or ()
        who = (
            "your hand"
            if view.seating[seat] == self.me
            else f"{SEAT_NAMES[seat]}, whose cards you choose"
        )
        self.say(f"{SEAT_NAMES[seat]} to act — {who}: {render_hand(mine)}")
        cards = [a.card for a in view.legal if a.kind == Kind.PLAY and a.card is not None]
        if cards:
            self.say("Playable: " + "  ".join(f"{i}={c}" for i, c in enumerate(cards, 1)))
        if Kind.CLAIM in kinds:
            top = max(a.number for a in view.legal if a.kind == Kind.CLAIM)
            self.say(f"(You may claim 1 to {top} of the remaining tricks: claim K.)")
        if Kind.KEEP in kinds:
            self.say("Keep this hand or exchange it for the unseen hand on your right? (k / e)")
        if Kind.TRUMP in kinds:
            self.say("Name the trump suit: S, H, D or C.")
        if Kind.ACCEPT in kinds:
            assert view.claim is not None
            claimer, k = view.claim
            self.say(f"{SEAT_NAMES[claimer]} claims {k} of the remaining tricks: accept? (y / n)")

    def _read(self, view: WhistView, text: str) -> Action | None:
        """Return the action ``text`` names for this decision, or say why it names none."""
        word = text.strip().lower()
        cards = [a.card for a in view.legal if a.kind == Kind.PLAY and a.card is not None]
        kinds = {a.kind for a in view.legal}
        if not word:
            self.say("Type a card or its number (help lists the commands).")
            return None
        if word.isdigit() and cards:
            number = int(word)
            if 1 <= number <= len(cards):
                return play(cards[number - 1])
            self.say(f"There is no playable card number {number}: choose 1 to {len(cards)}.")
            return None
        shortcuts = {"k": "keep", "e": "exchange", "y": "accept", "n": "reject"}
        if Kind.KEEP in kinds or Kind.ACCEPT in kinds:
            word = shortcuts.get(word, word)
        if Kind.TRUMP in kinds and len(word) == 1:
            word = f"trump:{word}"
        if word.startswith("claim ") or word.startswith("claim:"):
            word = "claim:" + word[6:].strip()
        try:
            return parse_action(word)
        except ParseError as error:
            self.say(str(error))
            return None


def _option_value(text: str) -> object:
    if text.lstrip("-").isdigit():
        return int(text)
    if text.lower() in ("true", "false", "on", "off"):
        return text.lower() in ("true", "on")
    return text


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m engine.play whist",
        description="Play a whole unit of whist in the terminal against computer players.",
    )
    parser.add_argument("--seed", type=int, default=None, help="the seed (default: random)")
    parser.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a table option, e.g. variant=mort, players=3, fixed_dummy=true (repeatable)",
    )
    parser.add_argument("--player", type=int, default=0, help="which player you are (default 0)")
    parser.add_argument(
        "--level", choices=tuple(LEVELS), default="basic", help="the computer players' level"
    )
    return parser


def main(
    argv: Sequence[str] | None = None,
    stdin: TextIO | None = None,
    stdout: TextIO | None = None,
) -> int:
    """Run a terminal table from the command line; return the exit code (2: bad arguments)."""
    real = stdin is None and stdout is None
    stdin = sys.stdin if stdin is None else stdin
    stdout = sys.stdout if stdout is None else stdout
    try:
        with contextlib.redirect_stdout(stdout):
            args = _parser().parse_args(argv)
    except SystemExit as exit_:
        return exit_.code if isinstance(exit_.code, int) else 2
    values: dict[str, object] = {}
    for pair in args.option:
        name, sep, value = pair.partition("=")
        if not sep:
            print(f"error: “{pair}” is not an option: write NAME=VALUE.", file=sys.stderr)
            return 2
        values[name.strip()] = _option_value(value.strip())
    try:
        options = options_from_json(WhistOptions, values)
    except (OptionsError, TypeError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    seed: int = args.seed if args.seed is not None else random.SystemRandom().randrange(10**6)
    state = new_game(seed, options)
    me: int = args.player
    if not 0 <= me < state.players:
        print(f"error: choose a player from 0 to {state.players - 1}.", file=sys.stderr)
        return 2
    players = {p: make_player(args.level, seed * 8 + p) for p in range(state.players) if p != me}
    interactive = real and stdin.isatty() and stdout.isatty()
    if interactive:
        with contextlib.suppress(ImportError):
            import readline  # noqa: F401  (line editing for input())
    table = WhistTable(state, me, players, stdin, stdout, interactive=interactive)
    intro = (
        f"{type(state).title}, seed {seed} (replay with --seed {seed}); you are player {me}; "
        f"{args.level} computer players play the others.",
        "Type help at any prompt for the commands, quit to leave.",
    )
    try:
        return table.run(intro)
    except BrokenPipeError:
        # The reader went away (e.g. piped into head): stop quietly.
        if real:
            os.dup2(os.open(os.devnull, os.O_WRONLY), stdout.fileno())
        return 1


if __name__ == "__main__":
    raise SystemExit(main())
