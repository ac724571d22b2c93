"""``python -m engine.play doppelkopf``: a person plays a whole Doppelkopf table in the
terminal against computer players, seeing only what their seat may know.

At each prompt the person types an action by its notation (``QC``, ``10H``, ``re``,
``healthy``, ``solo:queens``, ``poverty:9C,AD,TH`` …) or its number in the list shown; an
announcement can be made whenever it is listed, also while a computer is to play (type
``wait`` to let the table go on). ``help`` lists the commands, ``quit`` or end of input
leaves; Ctrl-C leaves with exit code 130.
"""

from __future__ import annotations

import argparse
import contextlib
import random
import sys
from collections.abc import Mapping, Sequence
from typing import Any, TextIO

from engine.cards import parse_card
from engine.doppelkopf.players import LEVELS
from engine.doppelkopf.rules import (
    OPTIONAL,
    Action,
    DoppelkopfOptions,
    DoppelkopfState,
    DoppelkopfView,
    GameResult,
    new_game,
    parse_action,
)
from engine.errors import EngineError, OptionsError

__all__ = ["main"]


def _seat_name(seat: int, me: int) -> str:
    return "you" if seat == me else f"seat {seat + 1}"


def render_hand(view: DoppelkopfView) -> str:
    """Return the seat's hand, sorted in the game's order."""
    return "  ".join(str(c) for c in view.hand) or "(no cards)"


def render_trick(view: DoppelkopfView, me: int) -> list[str]:
    """Return the current trick and the last complete one."""
    data = view.data
    lines = []
    last = data.get("last_trick")
    if last:
        plays = ", ".join(f"{_seat_name(s, me)} {parse_card(c)}" for s, c in last["plays"])
        lines.append(f"Last trick: {plays} — won by {_seat_name(last['winner'], me)}.")
    if data["trick"]:
        plays = ", ".join(f"{_seat_name(s, me)} {parse_card(c)}" for s, c in data["trick"])
        lines.append(f"Trick {data['trick_number']}: {plays}")
    elif data.get("trick_number"):
        lines.append(f"Trick {data['trick_number']}: (nothing played yet)")
    return lines


def render_result(result: GameResult, me: int) -> list[str]:
    """Return one scored game, item by item."""
    re = ", ".join(_seat_name(s, me) for s in result.re)
    lines = [
        f"Game {result.deal}: {result.game}; Re {re} {result.points[0]} : "
        f"{result.points[1]} Contra; winner: {result.winner or 'nobody'}.",
    ]
    items = ", ".join(f"{party} {key} {value}" for party, key, value in result.items)
    lines.append(f"  Items: {items or 'none'}.")
    scores = ", ".join(f"{_seat_name(s, me)} {v:+d}" for s, v in enumerate(result.scores))
    lines.append(f"  Scores: {scores}.")
    return lines


class _Table:
    def __init__(
        self,
        state: DoppelkopfState,
        me: int,
        players: Mapping[int, Any],
        stdin: TextIO,
        stdout: TextIO,
    ) -> None:
        self.state = state
        self.me = me
        self.players = players
        self.stdin = stdin
        self.stdout = stdout
        self.shown_results = 0
        self.shown_announcements = 0
        self.shown_deal = 0

    def say(self, text: str = "") -> None:
        print(text, file=self.stdout)

    def ask(self, prompt: str) -> str | None:
        self.stdout.write(prompt)
        self.stdout.flush()
        line = self.stdin.readline()
        if not line:
            return None
        return line.strip()

    def news(self) -> None:
        state, me = self.state, self.me
        view = state.view(me)
        data = view.data
        for result in state.game_results[self.shown_results :]:
            for line in render_result(result, me):
                self.say(line)
        self.shown_results = len(state.game_results)
        if state.is_over:
            return
        if data["deal"] != self.shown_deal:
            self.shown_deal = data["deal"]
            self.shown_announcements = 0
            out = "" if data["sitting_out"] != me else " You sit out this deal."
            self.say(f"\nDeal {data['deal']}, dealt by {_seat_name(data['dealer'], me)}.{out}")
        for ann in data["announcements"][self.shown_announcements :]:
            self.say(f"{_seat_name(ann['seat'], me)} announce(s) {ann['kind']} ({ann['party']}).")
        self.shown_announcements = len(data["announcements"])

    def run(self) -> int:
        state, me = self.state, self.me
        while not state.is_over:
            self.news()
            mine = state.legal_actions(me)
            if state.to_act and state.to_act[0] != me:
                optional = [a for a in mine if str(a) in OPTIONAL]
                if optional:
                    chosen = self.choose(optional, waiting=True)
                    if chosen == "quit":
                        return 0
                    if chosen is not None:
                        continue
                seat = state.to_act[0]
                player = self.players[seat]
                action = player.act(state.view(seat))
                state.apply(seat, action)
                continue
            chosen = self.choose(list(mine), waiting=False)
            if chosen == "quit":
                return 0
        self.news()
        totals = ", ".join(f"{_seat_name(s, me)} {t:+d}" for s, t in enumerate(state.totals))
        self.say(f"The table is over. Totals: {totals}.")
        return 0

    def choose(self, actions: list[Action], *, waiting: bool) -> str | None:
        """Prompt until a legal action is applied; return ``"quit"``, ``None`` (waited) or
        the action's text."""
        state, me = self.state, self.me
        view = state.view(me)
        data = view.data
        self.say(f"Game: {data['game']}. Your hand: {render_hand(view)}")
        for line in render_trick(view, me):
            self.say(line)
        listed = "  ".join(f"[{i}] {a}" for i, a in enumerate(actions, start=1))
        self.say(f"You may: {listed}" + ("  (or wait)" if waiting else ""))
        while True:
            text = self.ask("> ")
            if text is None or text.lower() == "quit":
                self.say("Goodbye.")
                return "quit"
            if waiting and text.lower() in ("", "wait", "w"):
                return None
            if text.lower() == "help":
                self.say(
                    "Type an action as listed (QC, 10H, re, solo:queens …) or its number; "
                    "wait lets the computers go on; quit leaves."
                )
                continue
            try:
                action = actions[int(text) - 1] if text.isdigit() else parse_action(text)
                if text.isdigit() and not 1 <= int(text) <= len(actions):
                    raise IndexError
            except (EngineError, IndexError):
                self.say(f"“{text}” is not one of the listed actions; try again.")
                continue
            try:
                state.apply(me, action)
            except EngineError as error:
                self.say(f"Not now: {error} Try again.")
                continue
            return str(action)


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m engine.play doppelkopf",
        description="Play a Doppelkopf table in the terminal against computer players.",
    )
    parser.add_argument("--seed", type=int, default=None, help="the table's seed")
    parser.add_argument("--preset", choices=("tournament", "house"), default="tournament")
    parser.add_argument("--seats", type=int, choices=(4, 5), default=4, help="house: 4 or 5")
    parser.add_argument("--games", type=int, default=None, help="tournament: counted games")
    parser.add_argument("--rounds", type=int, default=1, help="house: rounds of dealer turns")
    parser.add_argument("--seat", type=int, default=1, help="your seat, 1 to 4 (or 5)")
    parser.add_argument("--level", choices=tuple(LEVELS), default="basic")
    return parser


def main(
    argv: Sequence[str] | None = None,
    stdin: TextIO | None = None,
    stdout: TextIO | None = None,
) -> int:
    """Run a terminal table; return the exit code (0 done or left, 130 Ctrl-C, 2 bad
    arguments)."""
    stdin = sys.stdin if stdin is None else stdin
    stdout = sys.stdout if stdout is None else stdout
    try:
        with contextlib.redirect_stdout(stdout):
            args = _parser().parse_args(argv)
    except SystemExit as exit_:
        return exit_.code if isinstance(exit_.code, int) else 2
    try:
        options = DoppelkopfOptions(
            preset=args.preset, players=args.seats, games=args.games, rounds=args.rounds
        )
    except OptionsError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    if not 1 <= args.seat <= options.players:
        print(
            f"error: there is no seat {args.seat} at a table of {options.players}.", file=sys.stderr
        )
        return 2
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(10**6)
    me = args.seat - 1
    players = {s: LEVELS[args.level](seed * 8 + s) for s in range(options.players) if s != me}
    state = new_game(seed, options)
    print(
        f"Doppelkopf ({options.preset}), seed {seed} (replay with --seed {seed}). You sit "
        f"at seat {me + 1}; {args.level} computer players sit at the others. Type help for "
        "the commands.",
        file=stdout,
    )
    try:
        return _Table(state, me, players, stdin, stdout).run()
    except KeyboardInterrupt:
        print("\nInterrupted.", file=stdout)
        return 130
