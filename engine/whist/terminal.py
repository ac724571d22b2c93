"""Whist at a text table: one person plays a whole unit — a rubber, a tournée, a Mort
tournée — against computer players, playing a dummy's cards too where the rules give it to
him.

``python -m engine.play whist [--variant V] [--seats N] [--seat N|E|S|W] [--level L]
[--seed S] [--option NAME=VALUE …]`` (the generic shell, ``engine/play.py``, hands the flags
after the game's name to :func:`main`); e.g. ``--variant mort --seats 3``.

Players keep their names while seats change (English Dummy and Mort move them): the person
is "you", the computer players Ada, Ben, Cleo and Dev. Everything printed comes from the
person's own views (the hand he decides for, or the public view while he waits or sits out)
and from moves everyone sees as they are made; a Humbug choice is told only once both are
revealed.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Sequence
from typing import Any, TextIO

from engine.cards import Card, Suit, parse_card
from engine.errors import EngineError, ParseError
from engine.game import deciding_player, show_move
from engine.terminal import (
    COMMANDS,
    BadFlag,
    Choice,
    Flags,
    TextTable,
    and_list,
    cards_in_suits,
    is_interactive,
    options_from_flags,
    or_list,
    start,
)
from engine.tricks import trick_winner
from engine.whist.actions import (
    ACCEPT,
    EXCHANGE,
    KEEP,
    REJECT,
    SEAT_NAMES,
    Action,
    Kind,
    claim,
    declare,
    parse_seat,
    play,
)
from engine.whist.options import VARIANT_NAMES, WhistOptions
from engine.whist.players import LEVELS, WATCHING, Player, make_player
from engine.whist.rules import DealResult, Phase, WhistState, WhistView, new_game

__all__ = ["NAMES", "PROMPT", "WhistTable", "main", "render_hand", "render_result"]

PROMPT = "> "
NAMES = ("Ada", "Ben", "Cleo", "Dev")
"""The computer players' names, in player order (the person is "you")."""
_HONOURS = ("A", "K", "Q", "J")
_SUIT_ORDER = (Suit.SPADES, Suit.HEARTS, Suit.CLUBS, Suit.DIAMONDS)


def _side_name(view: WhistView, side: int) -> str:
    if view.variant in ("humbug", "two_hand"):
        return SEAT_NAMES[0] if side == 0 else SEAT_NAMES[2]
    return "N-S" if side == 0 else "E-W"


def _win(view: WhistView, side: int) -> str:
    name = _side_name(view, side)
    return f"{name} {'wins' if '-' not in name else 'win'}"


def render_hand(cards: Sequence[Card]) -> str:
    """Return cards grouped by suit, high first: ``♠ A 10 4  ♥ Q 5``."""
    groups: list[str] = []
    ordered = cards_in_suits(cards)
    for suit in _SUIT_ORDER:
        held = [c for c in ordered if c.suit is suit]
        if held:
            groups.append(f"{suit} " + " ".join(c.rank.symbol for c in held))
    return "  ".join(groups) if groups else "(no cards)"


def render_result(
    result: DealResult, holders: Sequence[int | None], view: WhistView, names: Sequence[str]
) -> list[str]:
    """Return the end-of-deal summary: tricks, honours and who held them, points, games, and
    each player's total by name when a game ends."""
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
        lines.append(f"{_win(view, result.game_winner)} the game, worth {result.game_value}.")
    if result.rubber_winner is not None:
        lines.append(f"{_win(view, result.rubber_winner)} the rubber, worth {result.rubber_value}.")
    if result.game_winner is not None or result.rubber_winner is not None:
        lines.append(
            "Totals: " + ", ".join(f"{n} {t}" for n, t in zip(names, result.totals, strict=True))
        )
    return lines


class WhistTable(TextTable):
    """A text table: the person is player ``me``; computer ``players`` play the others."""

    prompt = PROMPT

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
        super().__init__(stdin, stdout, interactive=interactive)
        self.state = state
        self.me = me
        self.players = players
        # the levels shown every card as it is played (``WhistGame.watching_levels``)
        self._watching = {p: c for p, c in players.items() if c.name in WATCHING}
        others = iter(NAMES)
        self.names = ["you" if p == me else next(others) for p in range(state.players)]
        self._told_results = len(state.results)
        self._shown_deal = 0
        self._fresh = False
        self._question: list[str] = []

    # --- names and views ---------------------------------------------------------------

    def _my_view(self) -> WhistView:
        seat = self.state.seat_of(self.me)
        return self.state.public_view() if seat is None else self.state.view(seat)

    def _who(self, view: WhistView, seat: int) -> str:
        """Return a hand's seat with who plays it: ``East (Ben)``, ``North (dummy)``."""
        player = view.seating[seat]
        name = SEAT_NAMES[seat]
        if player is None:
            if view.controllers[seat] is None:
                return f"{name} (dead hand)" if view.variant == "humbug" else name
            return f"{name} (dummy)"
        return f"{name} ({self.names[player]})"

    def _player(self, player: int) -> str:
        """Return a player's name with his seat this deal: ``Ben (East)``, ``you (South)``."""
        seat = self.state.seat_of(player)
        where = "sitting out" if seat is None else SEAT_NAMES[seat]
        return f"{self.names[player]} ({where})"

    # --- what the commands show ------------------------------------------------------

    def help_lines(self) -> list[str]:
        """Return the help for the decision being asked."""
        return [
            *self._question,
            "Type the number of your choice; a card may also be typed (QH, 10S, 10♠, any case).",
            "You must follow suit if you can; the highest trump, else the highest card of the "
            "suit led, wins the trick.",
            COMMANDS,
        ]

    def hand_lines(self) -> list[str]:
        """Return the hand the person decides for now (or his own)."""
        seat = self.state.seat_of(self.me)
        if seat is None:
            return ["You sit out this game: you hold no cards."]
        hand = self.state.to_act[0] if self.state.to_act else seat
        if deciding_player(self.state, hand) != self.me:
            hand = seat
        view = self.state.view(hand)
        whose = "Your hand" if hand == seat else f"{SEAT_NAMES[hand]}'s hand (yours to play)"
        return [f"{whose}: {render_hand(view.hands[hand] or ())}"]

    def score_lines(self) -> list[str]:
        """Return the game score and every player's total."""
        view = self._my_view()
        totals = ", ".join(f"{self._player(p)} {t}" for p, t in enumerate(view.totals))
        return [self._score_line(view), f"Totals: {totals}."]

    def table_lines(self) -> list[str]:
        """Return the whole table as the person sees it."""
        view = self._my_view()
        return [*self._header(view), *self._on_view(view), *self.hand_lines()]

    def _score_line(self, view: WhistView) -> str:
        games = (
            f"; games {view.games[0]}–{view.games[1]}"
            if view.variant != "mort" and any(view.games)
            else ""
        )
        return (
            f"Score: {_side_name(view, 0)} {view.score[0]}, {_side_name(view, 1)} "
            f"{view.score[1]}{games}. Tricks this deal: {view.tricks[0]}–{view.tricks[1]}."
        )

    def _header(self, view: WhistView) -> list[str]:
        unit = f"rubber {view.rubber}, " if view.rubber is not None else ""
        trump = "to be named" if view.trump is None else f"{view.trump} ({view.trump.plural})"
        lines = [
            f"Deal {view.deal} ({unit}game {view.game}); dealer {self._who(view, view.dealer)}; "
            f"trumps {trump}."
        ]
        seats = [self._who(view, s) for s in range(4) if view.seating[s] is not None]
        lines.append(f"At the table: {', '.join(seats)}.")
        if view.turnup is not None:
            lines.append(f"Turned up: {view.turnup}.")
        lines.append(self._score_line(view))
        if view.discarded:
            lines.append(f"The hand you gave up: {render_hand(view.discarded)}")
        return lines

    def _on_view(self, view: WhistView) -> list[str]:
        """Return the other hands on view, the last trick and the current trick."""
        lines = []
        for seat in range(4):
            cards = view.hands[seat]
            if cards is not None and seat != view.seat:
                lines.append(f"  {self._who(view, seat)}: {render_hand(cards)}")
        if view.last_trick is not None:
            last = view.last_trick
            shown = ", ".join(f"{SEAT_NAMES[s]} {c}" for s, c in last.cards)
            lines.append(f"Last trick: {shown} — won by {SEAT_NAMES[last.winner]}.")
        if view.trick:
            lines.append("This trick: " + ", ".join(f"{SEAT_NAMES[s]} {c}" for s, c in view.trick))
        return lines

    # --- the game ----------------------------------------------------------------------

    def play(self) -> None:
        """Play the unit of play to its end."""
        state = self.state
        while not state.is_over:
            if state.deal != self._shown_deal:
                self._shown_deal = state.deal
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
            before = state.public_view()
            state.apply(hand, action)
            show_move(state, self._watching)
            self._tell(hand, action, before)
        self._finish()

    def _announce(self) -> None:
        view = self._my_view()
        self.say("")
        if self.state.seat_of(self.me) is None:
            self.say(f"You sit out this game (deal {view.deal}); you see what everyone sees.")
        self.say(*self._header(view))
        if self.state.seat_of(self.me) is not None:
            self.say(*self.hand_lines())
        self._fresh = True

    def _tell(self, hand: int, action: Action, before: WhistView) -> None:
        """Say what everyone saw happen: a card, the trick it completed, a named trump, the
        Humbug choices once both are made, a claim and its answer, a scored deal."""
        state = self.state
        name = SEAT_NAMES[hand]
        if action.kind == Kind.PLAY:
            self.say(f"{name} plays {action.card}.")
            trick = (*before.trick, (hand, action.card))
            if not state.public_view().trick and state.deal == before.deal:
                last = state.public_view().last_trick
                if last is not None:
                    self.say(f"  Trick {last.number} to {self._who(before, last.winner)}.")
            elif state.deal != before.deal:
                # the deal's last trick: the next deal's view no longer holds it
                cards = [c for _, c in trick if c is not None]
                winner = trick[trick_winner(cards, before.trump)][0]
                self.say(f"  Trick {sum(before.tricks) + 1} to {self._who(before, winner)}.")
        elif action.kind == Kind.TRUMP:
            self.say(f"{name} names {Suit(action.number).plural} trumps.")
        elif action.kind in (Kind.KEEP, Kind.EXCHANGE):
            if deciding_player(state, hand) != self.me:
                self.say(f"{self._who(before, hand)} has made a choice.")
            if state.phase is not Phase.EXCHANGE:
                revealed = self._my_view().exchanged
                for seat in (0, 2):
                    if revealed[seat] is not None:
                        word = "exchanges" if revealed[seat] else "keeps"
                        self.say(f"{self._who(before, seat)} {word} the hand.")
        elif action.kind == Kind.CLAIM:
            self.say(f"{name} claims {action.number} of the remaining tricks.")
        elif action.kind == Kind.ACCEPT:
            self.say(f"{name} accepts the claim.")
        elif action.kind == Kind.REJECT:
            self.say(f"{name} rejects the claim: play goes on.")
        if len(state.results) > self._told_results:
            self._told_results = len(state.results)
            names = [self._player(p) for p in range(state.players)]
            self.say(*render_result(state.results[-1], state.honour_holders[-1], before, names))

    def _unit(self) -> str:
        variant = self.state.public_view().variant
        rubbers = self.state.options.rubbers if variant == "english_dummy" else 1
        return "Tournée" if variant == "mort" or rubbers > 1 else "Rubber"

    def _finish(self) -> None:
        """Say who won the unit of play, by side where a side won, and every total."""
        state = self.state
        view = state.public_view()
        winners = list(state.winners)
        sides = {view.seating.index(p) % 2 for p in winners if p in view.seating}
        if view.variant == "short" and len(winners) == 2 and len(sides) == 1:
            verdict = f"{_side_name(view, sides.pop())} win"
        else:
            who = and_list([self.names[p] for p in winners])
            if len(winners) > 1:
                verdict = f"{who} share the win"
            else:
                verdict = f"{who} {'win' if winners == [self.me] else 'wins'}"
        self.say("", f"=== {self._unit()} over — {verdict} ===")
        for p, total in sorted(enumerate(state.totals), key=lambda pt: (-pt[1], pt[0])):
            self.say(f"  {self._player(p):<20} {total:>4}")
        if self.me in winners:
            self.say("Well played!" if len(winners) == 1 else "You share the win.")

    # --- the person's decisions ----------------------------------------------------------

    def _person(self, hand: int) -> Action:
        """Return the person's legal action for ``hand``, asking until one is given."""
        view = self.state.view(hand)
        if not self._fresh:
            self.say(*self._play_lines(view))
        self._fresh = False
        choices, question = self._choices(view)
        self._question = [question]
        self.say(question, *self.numbered(choices))
        return self.choose(choices, read=lambda text: self._read(hand, view, text))

    def _play_lines(self, view: WhistView) -> list[str]:
        """Return the short table shown at each decision: tricks, the turn-up while it lies
        face up, the other hands on view, the last and the current trick, the hand."""
        lines = [
            f"Tricks this deal: {_side_name(view, 0)} {view.tricks[0]}, "
            f"{_side_name(view, 1)} {view.tricks[1]}."
        ]
        if view.turnup is not None:
            lines.append(f"Turned up: {view.turnup}.")
        lines += self._on_view(view)
        seat = view.seat
        assert seat is not None
        whose = "Your hand" if view.seating[seat] == self.me else f"{SEAT_NAMES[seat]}'s hand"
        lines.append(f"{whose}: {render_hand(view.hands[seat] or ())}")
        return lines

    def _choices(self, view: WhistView) -> tuple[list[Choice[Action]], str]:
        seat = view.seat
        assert seat is not None
        kinds = {a.kind for a in view.legal}
        if Kind.KEEP in kinds:
            return [
                Choice("Keep this hand", KEEP),
                Choice("Exchange it for the unseen hand on your right", EXCHANGE),
            ], "Keep your hand or exchange it?"
        if Kind.TRUMP in kinds:
            return [
                Choice(f"{suit} {suit.plural}", declare(suit)) for suit in _SUIT_ORDER
            ], "Name the trump suit:"
        if Kind.ACCEPT in kinds:
            assert view.claim is not None
            claimer, k = view.claim
            return [
                Choice("Accept the claim", ACCEPT),
                Choice("Reject it: play on", REJECT),
            ], f"{SEAT_NAMES[claimer]} claims {k} of the remaining tricks."
        cards = cards_in_suits(a.card for a in view.legal if a.kind == Kind.PLAY and a.card)
        who = "Your card" if view.seating[seat] == self.me else f"{SEAT_NAMES[seat]}'s card"
        question = f"{who}:"
        if Kind.CLAIM in kinds:
            top = max(a.number for a in view.legal if a.kind == Kind.CLAIM)
            question += f" (or claim K of the remaining tricks, K from 1 to {top})"
        return [Choice(str(c), play(c)) for c in cards], question

    def _read(self, hand: int, view: WhistView, text: str) -> Action | None:
        """Return the action ``text`` names for this decision, or say why it names none."""
        word = text.strip().lower()
        kinds = {a.kind for a in view.legal}
        action: Action | None = None
        if Kind.KEEP in kinds:
            action = {"k": KEEP, "keep": KEEP, "e": EXCHANGE, "exchange": EXCHANGE}.get(word)
            if action is None:
                self.say(f"“{text}” is no answer here: type 1 (keep) or 2 (exchange).")
                return None
        elif Kind.ACCEPT in kinds:
            yes = {"y", "yes", "accept", "a"}
            no = {"n", "no", "reject", "r"}
            action = ACCEPT if word in yes else REJECT if word in no else None
            if action is None:
                self.say(f"“{text}” is no answer here: type 1 (accept) or 2 (reject).")
                return None
        elif Kind.TRUMP in kinds:
            suits = {s.letter.lower(): s for s in Suit} | {s.plural: s for s in Suit}
            suits |= {s.symbol: s for s in Suit}
            suit = suits.get(word.removeprefix("trump:").replace("\ufe0f", ""))
            if suit is None:
                self.say(f"“{text}” is not a suit: type 1 to 4, or S, H, C or D.")
                return None
            action = declare(suit)
        elif word.startswith("claim"):
            number = word[5:].strip(" :")
            if not number.isdigit():
                self.say("Write claim K, like claim 3.")
                return None
            action = claim(int(number))
        else:
            try:
                card = parse_card(text)
            except ParseError:
                n = sum(1 for a in view.legal if a.kind == Kind.PLAY)
                self.say(
                    f"“{text}” is neither a card nor a choice: type 1 to {n}, or a card "
                    "like 10S or Q♥."
                )
                return None
            action = play(card)
        try:
            self.state.clone().apply(hand, action)
        except EngineError as error:
            self.say(str(error))
            return None
        return action


# --------------------------------------------------------------------------------------
# Command line


def _flags() -> Flags:
    flags = Flags(
        "whist", "Whist", "Play a whole unit of whist in the terminal against computer players."
    )
    flags.seed()
    flags.variant(VARIANT_NAMES, "short")
    flags.add("--seats", type=int, default=None, help="how many players (Mort: 3 or 4)")
    flags.seat(_seat, -1, "N, E, S or W, your seat in the first deal (default: player 1's)")
    flags.level(tuple(LEVELS), "basic")
    flags.option("fixed_dummy=true")
    return flags


def _seat(text: str) -> int:
    try:
        return parse_seat(text)
    except EngineError:
        raise BadFlag(f"“{text}” is not a seat: choose N, E, S or W") from None


def main(
    argv: Sequence[str] | None = None,
    stdin: TextIO | None = None,
    stdout: TextIO | None = None,
) -> int:
    """Run a text table from the command line; return the exit code (2: bad flags)."""
    real = stdin is None and stdout is None
    stdin = sys.stdin if stdin is None else stdin
    stdout = sys.stdout if stdout is None else stdout
    flags = _flags()
    try:
        args = flags.parse(argv, stdout)
    except SystemExit as exit_:
        return exit_.code if isinstance(exit_.code, int) else 2
    fixed: dict[str, Any] = {"variant": args.variant}
    if args.seats is not None:
        fixed["players"] = args.seats
    try:
        options = options_from_flags(WhistOptions, args.option, fixed)
    except BadFlag as error:
        return flags.fail(str(error))
    seed: int = args.seed if args.seed is not None else random.SystemRandom().randrange(10**6)
    state = new_game(seed, options)
    if args.seat < 0:
        me = 0
    else:
        player = state.player_at(args.seat)
        if player is None:
            free = [SEAT_NAMES[s][0] for s in range(4) if state.player_at(s) is not None]
            return flags.fail(
                f"nobody sits {SEAT_NAMES[args.seat]} in the first deal of "
                f"{type(state).title} with seed {seed}: choose {or_list(free)}"
            )
        me = player
    players = {p: make_player(args.level, seed * 8 + p) for p in range(state.players) if p != me}
    table = WhistTable(
        state, me, players, stdin, stdout, interactive=is_interactive(real, stdin, stdout)
    )
    seat = state.seat_of(me)
    where = "sit out the first game" if seat is None else f"sit {SEAT_NAMES[seat]}"
    others = and_list([table.names[p] for p in range(state.players) if p != me])
    intro = (
        f"{type(state).title}, seed {seed} (replay with --seed {seed}).",
        f"You {where}; {others} {'is a' if len(players) == 1 else 'are'} {args.level} "
        f"computer player{'s' * (len(players) > 1)}.",
        "Type help at any question for the commands, quit to leave.",
    )
    return start(table, intro, real, stdout)
