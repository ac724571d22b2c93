"""Dukes Up! at a terminal table: one person plays a match against a computer player.

``python -m engine.play dukes_up [--seat B|R] [--level L] [--seed S] [--option NAME=VALUE …]``

Commands (cards as ``3S``, ``10♠`` …; groups as numbers or ranges ``1-2``)::

    draw 2 | draw discard 1        T1: the draw (``draw 0`` draws nothing)
    new 3S 4D 5S                   A1: a new group
    add 2 6S                       A2: add cards to G2
    regroup 1-2 3S 4D 5S | 6D 6S 6C    A3: regroup the named groups
    propose 6S 6C                  A4: the search places the cards; accept or cancel
    pickup KS | set 5D             A5 / A6
    reveal | return                A7 (asks first: it cannot be undone) / A8
    undo | reset
    discard                        list D1–D4, with why an option is not available
    d1 9C | d2 2C JS | d3 | d4 5S  end the turn with a discard (d4 offers a regrouping)
    finish | end | resign          FINISH, ask to end the round, resign the match
    table | help | quit

Any move in the engine's notation (``new:3S,4D,5S``) works as well. Everything printed
comes from the person's own view; the computer player acts on its own view.
"""

from __future__ import annotations

import argparse
import contextlib
import random
import sys
from collections.abc import Sequence
from typing import TextIO

from engine.cards import Card, parse_card
from engine.dukes_up.actions import (
    END_ROUND,
    FINISH,
    REVEAL,
    SEAT_NAMES,
    Action,
    add,
    discard,
    draw,
    new,
    parse_action,
    parse_seat,
    pickup,
    regroup,
    set_duke,
    setup,
)
from engine.dukes_up.layout import group_kind, sort_group
from engine.dukes_up.options import DukesUpOptions
from engine.dukes_up.players import LEVELS, make_player
from engine.dukes_up.rules import DukesUpState, DukesUpView, Phase, new_game
from engine.errors import EngineError, OptionsError, ParseError
from engine.game import options_from_json

__all__ = ["PROMPT", "discard_options", "main", "render_view"]

PROMPT = "> "
_QUIT = frozenset({"quit", "exit", "q"})


class _EndOfInput(Exception):
    """The input stream ended."""


def _cards(cards: Sequence[Card]) -> str:
    return " ".join(str(c) for c in cards) if cards else "(none)"


def render_view(view: DukesUpView) -> list[str]:
    """Return the table as ``view`` shows it."""
    lines = [
        f"Round {view.round}, turn {view.turn}/{view.max_turns}"
        + ("" if view.mover is None else f" — {SEAT_NAMES[view.mover]} to move")
        + f". Scores: Black {view.scores[0]}, Red {view.scores[1]}.",
    ]
    if view.table:
        for i, group in enumerate(view.table, 1):
            kind = group_kind(group)
            mark = f"({kind})" if kind else "⚠ neither a run nor a set"
            lines.append(f"  G{i} {_cards(group)} {mark}")
    else:
        lines.append("  (the table is empty)")
    for seat in (0, 1):
        dukes = view.dukes[seat]
        castle = view.castles[seat]
        shown = "🂠" if castle == "down" else ("on the table" if castle is None else str(castle))
        if isinstance(castle, Card) and not view.castle_up[seat]:
            shown += " (face-down)"
        you = " (you)" if seat == view.seat else ""
        lines.append(
            f"{SEAT_NAMES[seat]}{you}: dukes {'?' if dukes is None else _cards(dukes)}, "
            f"castle {shown}, hand {view.hand_sizes[seat]}, draw pile {view.draw_sizes[seat]}, "
            f"discard pile {view.discard_sizes[seat]}"
        )
    if view.hand is not None:
        lines.append(f"Your hand: {_cards(view.hand)}")
    if view.discard is not None:
        lines.append(
            "Your discard pile from the top: "
            + (" ".join("?" if c is None else str(c) for c in view.discard) or "(empty)")
        )
    if view.actions:
        lines.append("In effect this turn: " + ", ".join(str(a) for a in view.actions))
    return lines


def _summary(view: DukesUpView) -> str | None:
    last = view.last_turn
    if last is None:
        return None
    parts = [f"{SEAT_NAMES[last.seat]} drew {last.n} from the {last.pile or 'draw'} pile"]
    if last.flipped:
        parts.append("the castle turned face-up")
    if last.revealed:
        parts.append("revealed the castle")
    if last.placed:
        parts.append(f"placed {_cards(last.placed)}")
    if last.taken:
        parts.append(f"took duke(s) {_cards(last.taken)}")
    if last.captured is not None:
        parts.append(f"captured the castle {last.captured}")
    if last.picked_up:
        parts.append(f"picked up {_cards(last.picked_up)}")
    if last.set:
        parts.append(f"set {_cards(last.set)} as duke(s)")
    end = last.discard if last.card is None else f"{last.discard} {last.card}"
    parts.append(f"ended with {end}")
    return "; ".join(parts) + "."


def discard_options(state: DukesUpState, seat: int) -> list[str]:
    """Return one line per end step (D1–D4, finish): available, or why not (the refusal of
    a representative try on a copy of the state)."""
    view = state.view(seat)
    hand = sorted(view.hand or ())
    mine = [c for g in view.table for c in g if (c.suit.name in ("CLUBS", "SPADES")) == (seat == 0)]
    tries: list[tuple[str, Action | None, str]] = [
        ("D1 one hand card", discard("d1", (hand[0],)) if hand else None, "your hand is empty"),
        (
            "D2 two hand cards",
            discard("d2", (hand[0], hand[1])) if len(hand) > 1 else None,
            "you hold fewer than two cards",
        ),
        ("D3 blind discard", discard("d3"), ""),
        (
            "D4 a card of yours from the table",
            None,
            "none of your cards is on the table",
        ),
        ("finish", FINISH, ""),
    ]
    lines = []
    for label, action, missing in tries:
        if label.startswith("D4"):
            offers = [state.offer_d4(seat, c) for c in mine]
            usable = [a for a in offers if a is not None and state.is_legal(seat, a)]
            if usable:
                lines.append(f"  {label}: available ({', '.join(str(a.cards[0]) for a in usable)})")
                continue
            action = discard("d4", (mine[0],)) if mine else None
        if action is None:
            lines.append(f"  {label}: unavailable — {missing}")
            continue
        try:
            state.clone().apply(seat, action)
        except EngineError as error:
            lines.append(f"  {label}: unavailable — {error}")
        else:
            lines.append(f"  {label}: available")
    return lines


def _groups(text: str) -> tuple[int, ...]:
    numbers: list[int] = []
    for part in text.split(","):
        low, sep, high = part.partition("-")
        numbers.extend(range(int(low), int(high) + 1) if sep else [int(part)])
    return tuple(numbers)


def _parse_command(line: str, state: DukesUpState, seat: int) -> Action | str:
    """Return the action a command names, or a word the loop handles itself."""
    words = line.replace(",", " ").split()
    head = words[0].lower()
    rest = words[1:]
    view = state.view(seat)
    if ":" in line or head in ("reveal", "return", "undo", "reset", "finish", "resign"):
        return "reveal" if head == "reveal" else parse_action(line.strip())
    if head == "end":
        return END_ROUND
    if head == "draw":
        pile = "draw"
        if rest and rest[0].lower() in ("draw", "discard"):
            pile = rest.pop(0).lower()
        if len(rest) != 1 or not rest[0].isdigit():
            raise ParseError("Write draw N or draw discard N, like draw 2.", line)
        return draw(pile, int(rest[0]))
    if view.phase is Phase.CHOOSE and head not in ("table", "help"):
        cards = [parse_card(w) for w in words]
        if len(cards) != 3:
            raise ParseError("Name your castle, then your two dukes: e.g. QS KS AC.", line)
        hand = [c for c in view.setup if c not in cards]
        if len(hand) != 1:
            raise ParseError("Choose three different cards of your four.", line)
        return setup(cards[0], (cards[1], cards[2]), hand[0])
    if head == "new":
        return new(tuple(parse_card(w) for w in rest))
    if head == "add" and len(rest) >= 2 and rest[0].isdigit():
        return add(int(rest[0]), tuple(parse_card(w) for w in rest[1:]))
    if head == "regroup" and rest:
        groups = _groups(rest[0])
        text = " ".join(rest[1:])
        partition = tuple(tuple(parse_card(w) for w in part.split()) for part in text.split("|"))
        return regroup(groups, partition)
    if head == "propose":
        return "propose"
    if head in ("pickup", "set") and len(rest) == 1:
        card = parse_card(rest[0])
        return pickup(card) if head == "pickup" else set_duke(card)
    if head == "d1" and len(rest) == 1:
        return discard("d1", (parse_card(rest[0]),))
    if head == "d2" and len(rest) == 2:
        return discard("d2", (parse_card(rest[0]), parse_card(rest[1])))
    if head == "d3" and not rest:
        return discard("d3")
    if head == "d4" and len(rest) == 1:
        return "d4"
    if head in ("discard", "table", "help"):
        return head
    raise ParseError(f"“{line}” is not a command: type help.", line)


class _Table:
    def __init__(
        self, state: DukesUpState, seat: int, level: str, seed: int, stdin: TextIO, out: TextIO
    ) -> None:
        self.state = state
        self.seat = seat
        self.computer = make_player(level, seed)
        self.stdin = stdin
        self.out = out
        self.last_summary: object = None
        self.reported = 0

    def say(self, *lines: str) -> None:
        for line in lines:
            print(line, file=self.out)

    def ask(self, question: str) -> str:
        self.say(question)
        print(PROMPT, end="", file=self.out)
        line = self.stdin.readline()
        if not line:
            raise _EndOfInput
        return line.strip()

    def yes(self, question: str) -> bool:
        return self.ask(f"{question} (y / n)").lower() in ("y", "yes")

    def play(self) -> None:
        state = self.state
        shown_round = 0
        while not state.is_over:
            view = state.view(self.seat)
            if view.last_turn is not None and view.last_turn != self.last_summary:
                self.last_summary = view.last_turn
                self.say(_summary(view) or "")
            if view.round != shown_round:
                shown_round = view.round
                self.say(f"=== Round {view.round}: you are {SEAT_NAMES[self.seat]}.")
            if self.seat in state.to_act:
                self.human_step()
                self.report_round()
                continue
            other = 1 - self.seat
            state.apply(other, self.computer.act(state.view(other)))
            self.report_round()
        self.report_round()
        totals = state.totals
        self.say(f"The match is over: Black {totals[0]}, Red {totals[1]}.")
        names = " and ".join(SEAT_NAMES[s] for s in state.winners)
        self.say(f"Winner: {names}." if len(state.winners) == 1 else f"Shared: {names}.")

    def report_round(self) -> None:
        results = self.state.results
        fresh, self.reported = results[self.reported :], len(results)
        for result in fresh:
            self.say(
                f"=== Round {result.round} scored ({result.end}): Black {result.scores[0]}, "
                f"Red {result.scores[1]}. Castles: "
                + ", ".join("-" if c is None else str(c) for c in result.castles)
                + ". Hands: "
                + "; ".join(_cards(h) for h in result.hands)
            )

    def human_step(self) -> None:
        state = self.state
        view = state.view(self.seat)
        if view.phase is Phase.CHOOSE:
            self.say(f"Your setup cards: {_cards(view.setup)}")
            question = "Name your castle, then your two dukes (e.g. QS KS AC):"
        elif not view.drawn:
            self.say(*render_view(view))
            question = "Draw: draw N (from the draw pile) or draw discard N."
        else:
            self.say(*render_view(view))
            question = "Your move (help lists the commands):"
        line = self.ask(question)
        if line.lower() in _QUIT:
            raise _EndOfInput
        if not line:
            return
        try:
            command = _parse_command(line, state, self.seat)
            self.run(command, line)
        except EngineError as error:
            self.say(f"Not accepted: {error}")
        except (ValueError, IndexError):
            self.say(f"“{line}” is not a command: type help.")

    def run(self, command: Action | str, line: str) -> None:
        state = self.state
        seat = self.seat
        if isinstance(command, Action):
            state.apply(seat, command)
            return
        if command == "help":
            self.say(__doc__ or "")
        elif command == "table":
            self.say(*render_view(state.view(seat)))
        elif command == "discard":
            self.say("End steps:", *discard_options(state, seat))
        elif command == "reveal":
            if self.yes("Revealing shows your castle to the opponent and cannot be undone. Go?"):
                state.apply(seat, REVEAL)
        elif command == "propose":
            cards = [parse_card(w) for w in line.replace(",", " ").split()[1:]]
            proposal = state.propose(seat, cards)
            if proposal is None:
                self.say("No valid layout with these cards.")
                return
            marked = set(range(1, len(proposal.layout) + 1))
            self.say(f"Proposal (step {proposal.step}):")
            for i, group in enumerate(proposal.layout, 1):
                star = " *" if i in marked and group in proposal.groups else ""
                self.say(f"  G{i} {_cards(group)}{star}")
            if self.yes("Accept?"):
                state.apply(seat, proposal.action)
        elif command == "d4":
            card = parse_card(line.split()[1])
            offer = state.offer_d4(seat, card)
            if offer is None:
                state.apply(seat, discard("d4", (card,)))  # refused with the reason
            elif offer.partition:
                shown = " | ".join(_cards(sort_group(g)) for g in offer.partition)
                if self.yes(f"Without {card} the groups become {shown}. Accept?"):
                    state.apply(seat, offer)
            else:
                state.apply(seat, offer)


def _options(pairs: Sequence[str]) -> DukesUpOptions:
    values: dict[str, object] = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep:
            raise OptionsError(f"“{pair}” is not an option: write NAME=VALUE.", reason="option")
        values[name.strip()] = int(value) if value.strip().isdigit() else value.strip()
    return options_from_json(DukesUpOptions, values)


def main(
    argv: Sequence[str] | None = None,
    stdin: TextIO | None = None,
    stdout: TextIO | None = None,
) -> int:
    """Play one match at the terminal; return the exit code (2 for bad arguments)."""
    parser = argparse.ArgumentParser(prog="python -m engine.play dukes_up")
    parser.add_argument("--seat", default="B", help="your seat: B (Black) or R (Red)")
    parser.add_argument("--level", default="baseline", help=f"the computer: {', '.join(LEVELS)}")
    parser.add_argument("--seed", type=int, default=None, help="the match's seed")
    parser.add_argument("--option", action="append", default=[], metavar="NAME=VALUE")
    out = sys.stdout if stdout is None else stdout
    try:
        args = parser.parse_args(list(argv) if argv is not None else None)
    except SystemExit as exit_:
        return int(exit_.code or 0)
    try:
        seat = parse_seat(args.seat)
        options = _options(args.option)
        if args.level not in LEVELS:
            raise OptionsError(f"There is no computer player “{args.level}”.", reason="level")
    except EngineError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**31)
    print(f"Dukes Up! — seed {seed}. Type help for the commands.", file=out)
    table = _Table(new_game(seed, options), seat, args.level, seed + 1, stdin or sys.stdin, out)
    try:
        table.play()
    except _EndOfInput:
        print("Goodbye.", file=out)
    except KeyboardInterrupt:
        with contextlib.suppress(Exception):
            print("\nInterrupted.", file=out)
        return 130
    return 0
