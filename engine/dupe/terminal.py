"""Dupe at a terminal table against three computer players.

``python -m engine.play dupe [--seed S] [--seat N|E|S|W] [--level LEVEL] [--memory strict|open]``
(the generic shell, ``engine/play.py``, hands the flags after the game's name to :func:`main`).

The table (:class:`DupeTable`) owns the game state and the computer players; everything it
prints is rendered from the person's own :meth:`~engine.dupe.DupeState.view` (and the
public records inside it), so nothing the person may not know can reach the screen.
Input and output are injectable streams, so a whole game can be driven by a test.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Iterable, Sequence
from typing import TextIO

from engine.cards import Card, Suit, by_suit, parse_card
from engine.dupe.players import LEVELS, Player, make_player
from engine.dupe.rules import (
    SEAT_LETTERS,
    SEAT_NAMES,
    SEAT_SUITS,
    SEATS,
    TRICKS,
    DealResult,
    Distribute,
    DupeOptions,
    DupeState,
    DupeView,
    Phase,
    TrickRecord,
    new_game,
    play,
)
from engine.errors import EngineError, ParseError
from engine.terminal import (
    BadFlag,
    Flags,
    TextTable,
    and_list,
    is_interactive,
    options_from_flags,
    start,
)

__all__ = [
    "CARD_PROMPT",
    "CONFIRM_PROMPT",
    "DISTRIBUTE_PROMPT",
    "DupeTable",
    "main",
    "numbered_hand",
    "render_choose",
    "render_distribution",
    "render_hand",
    "render_result",
    "render_reveal",
    "render_standings",
    "render_won_cards",
]

CARD_PROMPT = "Your card> "
DISTRIBUTE_PROMPT = "Distribute> "
CONFIRM_PROMPT = "Confirm? (y/n)> "

_YES = frozenset({"y", "yes"})
_NO = frozenset({"n", "no"})

_CARD_HELP = """\
Choose the card you play to this trick; it stays face down until all four have chosen.
  Type its number in your hand (e.g. 3) or the card itself: 10S, TS, 10♠, Q♥ (any case).
  Who takes: the single highest rank; if that rank is shared, the single lowest rank;
  if that is shared too, nobody takes and each keeps their own card.
Commands: hand (show your hand again), table, score (totals so far), help, quit."""

_DISTRIBUTE_HELP = """\
You took the trick: give exactly one of its four cards to each player, yourself included.
  Either name a card for every seat:  N=K♠ E=2♥ S=3♣ W=4♦  (N, E, S, W or full names)
  or list four cards in seat order North, East, South, West:  KS 2H 3C 4D
  A card may also be given by its number in the list of the trick's cards (1-4).
You are asked to confirm before the cards are handed out.
Commands: hand (show the trick again), table, score (totals so far), help, quit."""


# --------------------------------------------------------------------------------------
# Rendering: pure functions of what one seat may know


def _suit_groups(cards: Iterable[Card]) -> list[tuple[Suit, list[Card]]]:
    ordered = sorted(cards, key=by_suit)
    groups: list[tuple[Suit, list[Card]]] = []
    for card in ordered:
        if groups and groups[-1][0] is card.suit:
            groups[-1][1].append(card)
        else:
            groups.append((card.suit, [card]))
    return groups


def numbered_hand(view: DupeView) -> list[Card]:
    """Return the seat's hand in the order it is displayed and numbered (by suit)."""
    return sorted(view.hand, key=by_suit)


def render_hand(view: DupeView) -> list[str]:
    """Return the lines showing the seat's hand, grouped by suit, each card numbered."""
    n = len(view.hand)
    lines = [f"Your hand ({n} card{'' if n == 1 else 's'}):"]
    number = 0
    for suit, cards in _suit_groups(view.hand):
        items = []
        for card in cards:
            number += 1
            items.append(f"{number:>2} {card}")
        lines.append(f"  {suit}  " + "   ".join(items))
    return lines


def render_won_cards(cards: Sequence[Card]) -> str:
    """Return won cards grouped by suit in the rules' notation, e.g. ``♠J 10 4  ♥Q 5``."""
    if not cards:
        return "none yet"
    return "  ".join(
        f"{suit}" + " ".join(card.rank.symbol for card in group)
        for suit, group in _suit_groups(cards)
    )


def _name(seat: int, me: int | None) -> str:
    """Return the seat's name; the person's own seat is marked."""
    if seat == me:
        return f"{SEAT_NAMES[seat]} (you)"
    return SEAT_NAMES[seat]


_and = and_list


def render_identity(view: DupeView) -> str:
    """Return the sentence naming the seat's identity card and its dupe."""
    suit, dupe = view.identity, view.dupe
    assert suit is not None and dupe is not None
    if dupe == view.seat:
        return (
            f"Your identity card is {suit}: you are your own dupe "
            "(your own won cards score for you)."
        )
    return (
        f"Your identity card is {suit}: {SEAT_NAMES[dupe]} is your dupe "
        f"({SEAT_NAMES[dupe]}'s won cards score for you)."
    )


def render_chosen(view: DupeView) -> str:
    """Return who has already chosen a card this trick (never which card)."""
    marks = []
    for seat in SEATS:
        name = "you" if seat == view.seat else SEAT_NAMES[seat]
        marks.append(f"{name} {'✓' if view.chosen[seat] else '…'}")
    return "Chosen: " + "  ".join(marks)


def render_choose(view: DupeView) -> list[str]:
    """Return what the seat sees when it must choose a card."""
    lines = [render_identity(view), render_chosen(view)]
    if view.won is not None:
        lines.append(f"Your won cards ({len(view.won)}): {render_won_cards(view.won)}")
    lines.extend(render_hand(view))
    return lines


def _plural(rank_symbol: str) -> str:
    return f"{rank_symbol}s"


def render_reveal(cards: Sequence[Card], taker: int | None, me: int | None) -> list[str]:
    """Return the lines revealing a trick's four cards and who takes it, and why."""
    shown = "   ".join(f"{_name(seat, me)} {cards[seat]}" for seat in SEATS)
    lines = [f"Revealed: {shown}"]
    ranks = [card.rank for card in cards]
    high, low = max(ranks), min(ranks)
    if taker is None:
        if high == low:
            lines.append(f"All four are {_plural(high.symbol)}: each keeps their own card.")
        else:
            lines.append(
                f"{_plural(high.symbol)} and {_plural(low.symbol)} are both shared: "
                "nobody takes, each keeps their own card."
            )
        return lines
    who = "You take" if taker == me else f"{SEAT_NAMES[taker]} takes"
    if ranks.count(high) == 1:
        lines.append(f"{who} the trick with {cards[taker]}, the single highest rank.")
    else:
        lines.append(
            f"{_plural(high.symbol)} are shared, so the single lowest rank takes: "
            f"{'you take' if taker == me else who} the trick with {cards[taker]}."
        )
    return lines


def render_distribution(trick: TrickRecord, me: int | None) -> str:
    """Return who received which card of a distributed trick."""
    taker = trick.taker
    assert taker is not None
    parts = []
    for seat in SEATS:
        if seat == taker:
            whom = "yourself" if seat == me else "themself"
        else:
            whom = "you" if seat == me else SEAT_NAMES[seat]
        parts.append(f"{trick.received[seat]} to {whom}")
    who = "You give" if taker == me else f"{SEAT_NAMES[taker]} gives"
    return f"{who} {_and(parts)}."


def _offer(action: Distribute, me: int) -> str:
    parts = [
        f"{card} to {'yourself' if seat == me else SEAT_NAMES[seat]}"
        for seat, card in enumerate(action.cards)
    ]
    return f"Give {_and(parts)}?"


def render_totals(totals: Sequence[int], me: int | None) -> str:
    """Return the running totals of all four seats."""
    return "   ".join(f"{_name(seat, me)} {totals[seat]}" for seat in SEATS)


def render_result(result: DealResult, me: int | None) -> list[str]:
    """Return the scoring of a deal: identity cards, every won hand, credits and totals."""
    lines = [f"=== Deal {result.deal} scored ===", "Identity cards:"]
    for seat in SEATS:
        dupe = result.dupe(seat)
        lines.append(f"  {_name(seat, me):<12} {result.identities[seat]}  dupe: {_name(dupe, me)}")
    lines.append("Won hands:")
    for owner in SEATS:
        credited_to = next(s for s in SEATS if result.dupe(s) == owner)
        lines.append(f"  {_name(owner, me):<12} {render_won_cards(result.won[owner])}")
        lines.append(f"  {'':<12} {result.scores[owner]}  → scores for {_name(credited_to, me)}")
    credited = "   ".join(f"{_name(seat, me)} +{result.credited[seat]}" for seat in SEATS)
    lines.append(f"This deal: {credited}")
    lines.append(f"Totals after deal {result.deal}: {render_totals(result.totals, me)}")
    return lines


def render_standings(view: DupeView) -> list[str]:
    """Return the final standings and the winner or winners (equal highest share)."""
    totals = view.totals
    lines = ["=== Final standings ==="]
    for seat in sorted(SEATS, key=lambda s: (-totals[s], s)):
        place = 1 + sum(1 for other in SEATS if totals[other] > totals[seat])
        lines.append(f"  {place}. {_name(seat, view.seat):<12} {totals[seat]:>4}")
    winners = view.winners
    names = _and([_name(seat, view.seat) for seat in winners])
    top = totals[winners[0]]
    if len(winners) == 1:
        lines.append(f"{names} wins with {top}.")
    else:
        lines.append(f"{names} share the win with {top} each.")
    if view.seat in winners:
        lines.append("Well played!" if len(winners) == 1 else "You share the win!")
    return lines


# --------------------------------------------------------------------------------------
# The table


def _seat_of_text(text: str) -> int | None:
    key = text.strip().upper()
    for seat in SEATS:
        if key in (SEAT_LETTERS[seat], SEAT_NAMES[seat].upper()):
            return seat
    return None


class DupeTable(TextTable):
    """A terminal table: one person at ``seat``, computer ``players`` at the other seats.

    The table applies every action to ``state``; what it prints comes only from the
    person's view. ``order_seed`` decides, trick by trick, which computer players have
    chosen before the person is asked (it changes nothing but what the table shows).
    """

    def __init__(
        self,
        state: DupeState,
        seat: int,
        players: dict[int, Player],
        stdin: TextIO,
        stdout: TextIO,
        *,
        order_seed: int = 0,
        interactive: bool = False,
    ) -> None:
        super().__init__(stdin, stdout, interactive=interactive)
        self.state = state
        self.seat = seat
        self.players = players
        self._order = random.Random(order_seed)
        self._announced_deal = 0
        self._scored = len(state.results)
        self._distributing = False

    def view(self) -> DupeView:
        """Return the person's view: the only source of what is shown."""
        return self.state.view(self.seat)

    # --- what the commands show ------------------------------------------------------

    def help_lines(self) -> list[str]:
        """Return the help of the question being asked."""
        return [_DISTRIBUTE_HELP if self._distributing else _CARD_HELP]

    def hand_lines(self) -> list[str]:
        """Return the hand (with the trick's cards while distributing)."""
        view = self.view()
        if self._distributing:
            return [*self._distribute_lines(view), *render_hand(view)]
        if view.phase is Phase.CHOOSE and self.seat in self.state.to_act:
            return render_choose(view)
        return render_hand(view)

    def table_lines(self) -> list[str]:
        """Return the deal, the trick, the identity card, the hand and the totals."""
        view = self.view()
        return [
            f"Deal {view.deal} of 4, trick {view.trick} of {TRICKS}.",
            *render_choose(view),
            *self.score_lines(),
        ]

    def score_lines(self) -> list[str]:
        """Return the totals after the deals scored so far."""
        view = self.view()
        if not view.results:
            return ["No deal has been scored yet: everybody has 0."]
        totals = render_totals(view.totals, self.seat)
        return [f"Totals after deal {view.results[-1].deal}: {totals}"]

    # --- the game ----------------------------------------------------------------------

    def play(self) -> None:
        """Play the four deals."""
        self._play()

    def _play(self) -> None:
        while not self.state.is_over:
            view = self.view()
            if view.deal != self._announced_deal:
                self._announce_deal(view)
            if view.phase is Phase.CHOOSE:
                self._choose_round()
            else:
                self._finish_trick()
        self.say("", *render_standings(self.view()))

    def _announce_deal(self, view: DupeView) -> None:
        self._announced_deal = view.deal
        self.say("", f"=== Deal {view.deal} of 4 ===")
        if view.deal > 1:
            self.say("You pick up your won cards from the last deal as your new hand.")

    def _computer_acts(self, seat: int) -> None:
        action = self.players[seat].act(self.state.view(seat))
        self.state.apply(seat, action)

    def _choose_round(self) -> None:
        view = self.view()
        self.say("", f"--- Deal {view.deal}, trick {view.trick} of {TRICKS} ---")
        waiting = [s for s in self.state.to_act if s != self.seat]
        early = [s for s in waiting if self._order.random() < 0.5]
        for seat in early:
            self._computer_acts(seat)
        late = [s for s in self.state.to_act if s != self.seat]
        if self.seat in self.state.to_act:
            self._human_chooses()
        for seat in late:
            self._computer_acts(seat)
        self._finish_trick()

    def _human_chooses(self) -> None:
        view = self.view()
        self.say(*render_choose(view))
        if len(view.hand) == 1:
            last = view.hand[0]
            self.state.apply(self.seat, play(last))
            self.say(f"You play your last card, {last}.")
            return
        while True:
            text = self.ask(CARD_PROMPT)
            if self.command(text):
                continue
            card = self._card_from_text(text, numbered_hand(self.view()))
            if card is None:
                continue
            try:
                self.state.apply(self.seat, play(card))
            except EngineError as error:
                self.say(str(error))
                continue
            self.say(f"You choose {card}, face down.")
            return

    def _card_from_text(self, text: str, numbered: Sequence[Card]) -> Card | None:
        """Return the card named by ``text`` (a card or its number), or say why not."""
        tokens = text.split()
        if not tokens:
            self.say("Type a card (like 10S or Q♥) or its number; help lists the commands.")
            return None
        if len(tokens) == 2 and not tokens[1][:1].isdigit():
            tokens = ["".join(tokens)]  # "10 S", "q h": a rank and a suit
        if len(tokens) > 1:
            self.say(f"“{text}” is more than one card: choose just one, like 10S or 3.")
            return None
        token = tokens[0]
        if token.isdigit():
            number = int(token)
            if 1 <= number <= len(numbered):
                return numbered[number - 1]
            self.say(f"There is no card number {number}: choose 1 to {len(numbered)}.")
            return None
        try:
            return parse_card(token)
        except ParseError as error:
            self.say(str(error))
            return None

    def _finish_trick(self) -> None:
        """Reveal the trick just completed, have it distributed, and score a finished deal."""
        view = self.view()
        if view.phase is Phase.DISTRIBUTE:
            assert view.revealed is not None and view.taker is not None
            self.say(*render_reveal(view.revealed, view.taker, self.seat))
            if view.taker == self.seat:
                self._human_distributes()
            else:
                self._computer_acts(view.taker)
            view = self.view()
            assert view.last_trick is not None
            self.say(render_distribution(view.last_trick, self.seat))
        else:
            last = view.last_trick
            assert last is not None and last.taker is None
            self.say(*render_reveal(last.cards, None, self.seat))
        if len(view.results) > self._scored:
            self._scored = len(view.results)
            self.say("", *render_result(view.results[-1], self.seat))

    def _distribute_lines(self, view: DupeView) -> list[str]:
        assert view.revealed is not None
        owners = ["yours" if seat == self.seat else SEAT_NAMES[seat] for seat in SEATS]
        cards = "   ".join(f"{seat + 1} {view.revealed[seat]} ({owners[seat]})" for seat in SEATS)
        lines = [
            "Give one card of the trick to each player, yourself included.",
            f"The trick's cards: {cards}",
        ]
        dupe = view.dupe
        if dupe == self.seat:
            lines.append("You are your own dupe: the card you give yourself scores for you.")
        elif dupe is not None:
            lines.append(
                f"Your dupe is {SEAT_NAMES[dupe]}: what {SEAT_NAMES[dupe]} gets scores for you."
            )
        if view.won is not None:
            lines.append(f"Your won cards ({len(view.won)}): {render_won_cards(view.won)}")
        example = " ".join(f"{SEAT_LETTERS[s]}={view.revealed[s].code}" for s in SEATS)
        lines.append(f"Type e.g. {example}   or four cards in seat order N E S W.")
        return lines

    def _human_distributes(self) -> None:
        self.say(*self._distribute_lines(self.view()))
        self._distributing = True
        try:
            self._distribution_asked()
        finally:
            self._distributing = False

    def _distribution_asked(self) -> None:
        while True:
            text = self.ask(DISTRIBUTE_PROMPT)
            if self.command(text):
                continue
            action = self._distribution_from_text(text)
            if action is None:
                continue
            self.say(_offer(action, self.seat))
            if not self._confirm():
                self.say("Not given. Distribute again.")
                continue
            try:
                self.state.apply(self.seat, action)
            except EngineError as error:
                self.say(str(error))
                continue
            return

    def _confirm(self) -> bool:
        while True:
            answer = self.ask(CONFIRM_PROMPT).lower()
            if answer in _YES:
                return True
            if answer in _NO:
                return False
            self.say("Answer y (give the cards like this) or n (choose again).")

    def _distribution_from_text(self, text: str) -> Distribute | None:
        """Return the distribution ``text`` describes, or say why it is not one."""
        view = self.view()
        revealed = view.revealed
        assert revealed is not None
        tokens = text.replace(",", " ").split()
        if not tokens:
            self.say("Give one card to each seat, like N=KS E=2H S=3C W=4D (help for more).")
            return None
        given: list[Card | None] = [None, None, None, None]
        assigned = [("=" in t or ":" in t) for t in tokens]
        if all(assigned):
            for token in tokens:
                seat_text, _, card_text = token.replace(":", "=").partition("=")
                seat = _seat_of_text(seat_text)
                if seat is None:
                    self.say(f"“{seat_text}” is not a seat: use N, E, S or W.")
                    return None
                if given[seat] is not None:
                    self.say(f"{SEAT_NAMES[seat]} is given more than one card.")
                    return None
                card = self._trick_card(card_text, revealed)
                if card is None:
                    return None
                given[seat] = card
            missing = [SEAT_NAMES[s] for s in SEATS if given[s] is None]
            if missing:
                self.say(f"Give a card to every seat: {_and(missing)} got none.")
                return None
        elif any(assigned):
            self.say(
                "Use either SEAT=CARD for all four seats or four cards in seat order, not both."
            )
            return None
        elif len(tokens) == 4:
            for seat, token in enumerate(tokens):
                card = self._trick_card(token, revealed)
                if card is None:
                    return None
                given[seat] = card
        else:
            self.say(
                "Give exactly four cards, one per seat in the order N E S W "
                f"(you gave {len(tokens)})."
            )
            return None
        cards = tuple(card for card in given if card is not None)
        for card in cards:
            if cards.count(card) > 1:
                self.say(f"{card} is given twice: each of the trick's cards goes to one player.")
                return None
        return Distribute(cards)

    def _trick_card(self, text: str, revealed: Sequence[Card]) -> Card | None:
        """Return the trick's card named by ``text`` (a card or its number 1-4), or say why not."""
        text = text.strip()
        if text.isdigit():
            number = int(text)
            if 1 <= number <= len(revealed):
                return revealed[number - 1]
            self.say(f"There is no trick card number {number}: choose 1 to {len(revealed)}.")
            return None
        try:
            card = parse_card(text)
        except ParseError as error:
            self.say(str(error))
            return None
        if card not in revealed:
            shown = " ".join(map(str, revealed))
            self.say(f"{card} is not one of the trick's cards ({shown}).")
            return None
        return card


# --------------------------------------------------------------------------------------
# Command line


def _seat_arg(text: str) -> int:
    seat = _seat_of_text(text)
    if seat is None:
        raise BadFlag(f"“{text}” is not a seat: choose N, E, S or W")
    return seat


def _flags() -> Flags:
    flags = Flags("dupe", "Dupe", "Play Dupe in the terminal against three computer players.")
    flags.seed()
    flags.seat(_seat_arg, 0, "N, E, S or W (default N)")
    flags.level(tuple(LEVELS), "expert")
    flags.add(
        "--memory",
        choices=("strict", "open"),
        default=None,
        help="strict: won cards stay face down until scored (default); open: see your own",
    )
    flags.option("memory=open")
    return flags


def main(
    argv: Sequence[str] | None = None,
    stdin: TextIO | None = None,
    stdout: TextIO | None = None,
) -> int:
    """Run a terminal game from the command line; return the exit code.

    0 when the game ends or the person leaves (``quit`` or end of input), 130 on Ctrl-C,
    2 for bad arguments.
    """
    real = stdin is None and stdout is None
    stdin = sys.stdin if stdin is None else stdin
    stdout = sys.stdout if stdout is None else stdout
    flags = _flags()
    try:
        args = flags.parse(argv, stdout)
    except SystemExit as exit_:
        return exit_.code if isinstance(exit_.code, int) else 2
    try:
        fixed = {"memory": args.memory} if args.memory else {}
        options = options_from_flags(DupeOptions, args.option, fixed)
    except BadFlag as error:
        return flags.fail(str(error))
    seed: int = args.seed if args.seed is not None else random.SystemRandom().randrange(10**6)
    seat: int = args.seat
    try:
        players = {s: make_player(args.level, seed * 4 + s) for s in SEATS if s != seat}
    except ImportError as error:
        return flags.fail(
            f"the {args.level} computer player is not available ({error}); "
            "try --level greedy or --level random"
        )
    state = new_game(seed, options)
    table = DupeTable(
        state,
        seat,
        players,
        stdin,
        stdout,
        order_seed=seed,
        interactive=is_interactive(real, stdin, stdout),
    )
    others = _and([SEAT_NAMES[s] for s in SEATS if s != seat])
    memory = (
        "strict: won cards stay face down until each deal is scored"
        if options.memory == "strict"
        else "open: you may look at your own won cards"
    )
    intro = (
        f"Dupe, seed {seed} (replay with --seed {seed}).",
        f"You sit {SEAT_NAMES[seat]} ({SEAT_SUITS[seat]}); "
        f"{args.level} computer players sit {others}.",
        f"Memory rule {memory}.",
        "Type help at any prompt for the commands, quit to leave.",
    )
    return start(table, intro, real, stdout)


if __name__ == "__main__":
    raise SystemExit(main())
