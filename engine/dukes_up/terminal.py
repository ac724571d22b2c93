"""Dukes Up! at a text table: one person plays a match against a computer player.

``python -m engine.play dukes_up [--seat B|R] [--level L] [--seed S] [--option NAME=VALUE …]``

The person types commands (``draw 2``, ``new 3S 4D 5S``, ``d3`` …; ``help`` lists them and
``rules`` explains the game); any move in the engine's notation (``new:3S,4D,5S``) works as
well. Everything printed comes from the person's own view; the computer player acts on its
own view.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Sequence
from typing import TextIO

from engine.cards import Card, parse_card
from engine.dukes_up.actions import (
    END_ROUND,
    FINISH,
    RESIGN,
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
from engine.errors import EngineError, ParseError
from engine.terminal import (
    BadFlag,
    Flags,
    TextTable,
    is_interactive,
    options_from_flags,
    start,
)

__all__ = ["PROMPT", "RULES", "DukesUpTable", "discard_options", "main", "render_view"]

PROMPT = "> "

RULES = """\
Dukes Up! — Black owns the ♣ and ♠ cards, Red the ♥ and ♦ cards; each card scores for its
owner wherever it lies.
  Your castle: one card, face down in its slot. While your dukes guard it, it is safe; once
  you have no dukes it turns face up at the start of your turn, and the opponent captures it
  by laying it into a run or set, which ends the round.
  Your dukes: two cards, face up in their slots, guarding the castle. The opponent takes them
  by laying them into runs or sets on the table; you may swap them with hand cards (pickup,
  set), but never end a turn with more dukes than you began it with.
  Runs: 3+ consecutive ranks of one suit group (♠+♦ or ♣+♥), ace low. Sets: 3-4 of a rank.
  The table is shared: regroup anything, but every card on it must stay in a valid group.
  A turn: draw 0-2 (hand at most 4), build, then end with a discard (D1-D4) or finish.
  Score: each of your cards on the table, plus the cards still in your duke and castle slots."""

HELP = """\
Your turn: draw, then build, then end with a discard. Cards as 3S, 10♠, TD; groups as G numbers.
  draw 2 | draw discard 1 | draw 0     draw from your draw pile or your discard pile
  new 3S 4D 5S                         lay a new group (a run or a set)
  add 2 6S                             add cards to group G2
  regroup 1-2 3S 4D 5S | 6D 6S 6C      regroup groups G1 to G2 as the parts between |
  propose 6S 6C                        let the table find a layout with these cards
  pickup KS | set 5D                   take a duke into your hand | set a hand card as duke
  reveal | return                      turn your castle face up (final) | take it back
  undo | reset                         undo the last action | back to just after the draw
  discard                              list the ways to end the turn, and why one is barred
  d1 9C | d2 2C JS | d3 | d4 5S        end the turn with a discard
  finish | end | resign                end the round (capture) | offer to end it | give up
Commands: rules, table, hand, score, help, quit."""

SETUP_HELP = """\
Choose your castle, then your two dukes, from your four cards; the last card goes to your
hand. Type three cards or their numbers, castle first: e.g. 4 1 2.
Commands: rules (castle and dukes explained), help, quit."""


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
    if head in ("reveal", "resign"):
        return head
    if ":" in line or head in ("return", "undo", "reset", "finish"):
        return parse_action(line.strip())
    if head == "end":
        return END_ROUND
    if head == "draw":
        pile = "draw"
        if rest and rest[0].lower() in ("draw", "discard"):
            pile = rest.pop(0).lower()
        if len(rest) != 1 or not rest[0].isdigit():
            raise ParseError("Write draw N or draw discard N, like draw 2.", line)
        return draw(pile, int(rest[0]))
    if view.phase is Phase.CHOOSE:
        return _setup(line, words, view.setup)
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
    if head == "discard":
        return head
    raise ParseError(f"“{line}” is not a command: type help for the commands.", line)


def _setup(line: str, words: Sequence[str], four: Sequence[Card]) -> Action:
    """Return the setup ``words`` name (cards or their numbers 1-4: castle, duke, duke)."""
    if len(words) != 3:
        raise ParseError(
            "Name three of your four cards: your castle, then your two dukes (like 4 1 2).", line
        )
    cards: list[Card] = []
    for word in words:
        if word.isdigit():
            if not 1 <= int(word) <= len(four):
                raise ParseError(f"There is no card {word}: choose 1 to {len(four)}.", line)
            card = four[int(word) - 1]
        else:
            card = parse_card(word)
            if card not in four:
                raise ParseError(f"{card} is not one of your four cards ({_cards(four)}).", line)
        if card in cards:
            raise ParseError(f"{card} is named twice: name three different cards.", line)
        cards.append(card)
    hand = next(c for c in four if c not in cards)
    return setup(cards[0], (cards[1], cards[2]), hand)


class DukesUpTable(TextTable):
    """The person at ``seat``; a computer player of ``level`` at the other."""

    prompt = PROMPT

    def __init__(
        self,
        state: DukesUpState,
        seat: int,
        level: str,
        seed: int,
        stdin: TextIO,
        stdout: TextIO,
        *,
        interactive: bool = False,
    ) -> None:
        super().__init__(stdin, stdout, interactive=interactive)
        self.state = state
        self.seat = seat
        self.computer = make_player(level, seed)
        self.last_summary: object = None
        self.reported = 0

    # --- what the commands show ------------------------------------------------------

    def view(self) -> DukesUpView:
        """Return the person's view: the only source of what is shown."""
        return self.state.view(self.seat)

    def help_lines(self) -> list[str]:
        """Return the commands of the current phase."""
        return [SETUP_HELP if self.view().phase is Phase.CHOOSE else HELP]

    def command(self, text: str) -> bool:
        """Answer the shared commands and ``rules``."""
        if text.strip().lower() == "rules":
            self.say(RULES)
            return True
        return super().command(text)

    def table_lines(self) -> list[str]:
        """Return the table as the person sees it."""
        return render_view(self.view())

    def hand_lines(self) -> list[str]:
        """Return the person's hand, or his four setup cards."""
        view = self.view()
        if view.phase is Phase.CHOOSE and view.setup:
            four = "  ".join(f"[{i}] {c}" for i, c in enumerate(view.setup, 1))
            return [f"Your four cards: {four}"]
        return [f"Your hand: {_cards(view.hand or ())}"]

    def score_lines(self) -> list[str]:
        """Return this round's scores and the match totals."""
        view = self.view()
        lines = [f"This round: Black {view.scores[0]}, Red {view.scores[1]}."]
        if view.results:
            lines.append(f"Match totals: Black {view.totals[0]}, Red {view.totals[1]}.")
        return lines

    def _name(self, seat: int) -> str:
        return f"{SEAT_NAMES[seat]} (you)" if seat == self.seat else SEAT_NAMES[seat]

    # --- the game ----------------------------------------------------------------------

    def play(self) -> None:
        """Play the match to its end."""
        state = self.state
        shown_round = 0
        while not state.is_over:
            view = state.view(self.seat)
            if view.last_turn is not None and view.last_turn != self.last_summary:
                self.last_summary = view.last_turn
                self.say(_summary(view) or "")
            if view.round != shown_round:
                shown_round = view.round
                self.say("", f"=== Round {view.round}: you are {SEAT_NAMES[self.seat]} ===")
            if self.seat in state.to_act:
                self.human_step()
                self.report_round()
                continue
            other = 1 - self.seat
            state.apply(other, self.computer.act(state.view(other)))
            self.report_round()
        self.report_round()
        totals = state.totals
        winners = state.winners
        verdict = f"{self._name(winners[0])} wins" if len(winners) == 1 else "a shared win"
        self.say(
            "",
            f"=== Match over — {verdict}: Black {totals[0]}, Red {totals[1]} ===",
        )
        if self.seat in winners:
            self.say("Well played!" if len(winners) == 1 else "You share the win.")

    def report_round(self) -> None:
        """Say each round scored since the last report, castles and hands revealed."""
        results = self.state.results
        fresh, self.reported = results[self.reported :], len(results)
        for result in fresh:
            winner = "a draw" if result.winner is None else f"{self._name(result.winner)} wins"
            self.say(
                f"=== Round {result.round} scored ({result.end}): Black {result.scores[0]}, "
                f"Red {result.scores[1]} — {winner} ===",
                "Castles: "
                + ", ".join(
                    f"{SEAT_NAMES[s]} {'-' if c is None else c}"
                    for s, c in enumerate(result.castles)
                )
                + ". Hands: "
                + "; ".join(f"{SEAT_NAMES[s]} {_cards(h)}" for s, h in enumerate(result.hands)),
            )

    def human_step(self) -> None:
        """Ask for one command and carry it out (or say why not)."""
        state = self.state
        view = state.view(self.seat)
        if view.phase is Phase.CHOOSE:
            self.say(
                *self.hand_lines(),
                "Choose your castle (face down; captured once your dukes are gone), then your "
                "two dukes (face up, guarding it); the last card goes to your hand.",
                "Type three cards or numbers, castle first, e.g. 4 1 2 (rules explains more).",
            )
        elif not view.drawn:
            self.say(*render_view(view), "Draw: draw N (from your draw pile) or draw discard N.")
        else:
            self.say(*render_view(view), "Your move (help lists the commands):")
        moves = state.move_count
        while state.move_count == moves and not state.is_over:
            line = self.ask()
            if not line:
                self.say("Type a command (help lists them).")
                continue
            if self.command(line):
                continue
            try:
                command = _parse_command(line, state, self.seat)
                self.do(command, line)
            except EngineError as error:
                self.say(f"Not accepted: {error}")
            except (ValueError, IndexError):
                self.say(f"“{line}” is not a command: type help for the commands.")

    def do(self, command: Action | str, line: str) -> None:
        """Carry out a parsed command (an action, or a word the table answers itself)."""
        state = self.state
        seat = self.seat
        if isinstance(command, Action):
            state.apply(seat, command)
            return
        if command == "discard":
            self.say("End steps:", *discard_options(state, seat))
        elif command == "reveal":
            if self.confirm(
                "Revealing shows your castle to the opponent and cannot be undone. Go?"
            ):
                state.apply(seat, REVEAL)
        elif command == "resign":
            other = SEAT_NAMES[1 - seat]
            if self.confirm(f"Resign the match? {other} wins it. Sure?"):
                state.apply(seat, RESIGN)
                self.say("You resign.")
            else:
                self.say("You play on.")
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
            if self.confirm("Accept?"):
                state.apply(seat, proposal.action)
        elif command == "d4":
            card = parse_card(line.split()[1])
            offer = state.offer_d4(seat, card)
            if offer is None:
                state.apply(seat, discard("d4", (card,)))  # refused with the reason
            elif offer.partition:
                shown = " | ".join(_cards(sort_group(g)) for g in offer.partition)
                if self.confirm(f"Without {card} the groups become {shown}. Accept?"):
                    state.apply(seat, offer)
            else:
                state.apply(seat, offer)


# --------------------------------------------------------------------------------------
# Command line


def _seat(text: str) -> int:
    try:
        return parse_seat(text)
    except EngineError:
        raise BadFlag(f"“{text}” is not a seat: choose B (Black) or R (Red)") from None


def _flags() -> Flags:
    flags = Flags(
        "dukes_up", "Dukes Up!", "Play a match of Dukes Up! in the terminal against the computer."
    )
    flags.seed()
    flags.seat(_seat, 0, "B (Black, ♣♠, default) or R (Red, ♥♦)")
    flags.level(tuple(LEVELS), "baseline")
    flags.option("rounds=3 (also max_turns, slot_weight, discard_memory, match_scoring)")
    return flags


def main(
    argv: Sequence[str] | None = None,
    stdin: TextIO | None = None,
    stdout: TextIO | None = None,
) -> int:
    """Play one match at the terminal; return the exit code (2 for bad flags)."""
    real = stdin is None and stdout is None
    stdin = sys.stdin if stdin is None else stdin
    stdout = sys.stdout if stdout is None else stdout
    flags = _flags()
    try:
        args = flags.parse(argv, stdout)
    except SystemExit as exit_:
        return exit_.code if isinstance(exit_.code, int) else 2
    try:
        options = options_from_flags(DukesUpOptions, args.option)
    except BadFlag as error:
        return flags.fail(str(error))
    seat: int = args.seat
    seed: int = args.seed if args.seed is not None else random.SystemRandom().randrange(2**31)
    table = DukesUpTable(
        new_game(seed, options),
        seat,
        args.level,
        seed + 1,
        stdin,
        stdout,
        interactive=is_interactive(real, stdin, stdout),
    )
    intro = (
        f"Dukes Up!, seed {seed} (replay with --seed {seed}).",
        f"You play {SEAT_NAMES[seat]} ({'♣♠' if seat == 0 else '♥♦'}) against the "
        f"{args.level} computer player.",
        "Type help at any question for the commands, rules for the game, quit to leave.",
    )
    return start(table, intro, real, stdout)
