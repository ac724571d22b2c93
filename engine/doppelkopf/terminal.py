"""Doppelkopf at a text table: a person plays a whole table against computer players.

``python -m engine.play doppelkopf [--variant tournament|house] [--seats 4|5] [--seat 1-5]
[--level L] [--seed S] [--games N] [--rounds N] [--option NAME=VALUE …]``

The person is asked only when it is his turn: his choices are numbered in the order of his
hand (the game's card order), with any announcement, claim or concession he may make listed
after the cards. Between his turns the computers play on; the table stops early only when a
computer's card would close an announcement he could still make (house rules count tricks,
not cards in hand). Everything printed comes from the person's own view and from what the
whole table sees; a sitting-out dealer watches trick by trick.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Mapping, Sequence
from typing import Any, TextIO

from engine.cards import Card, parse_card
from engine.doppelkopf.orders import POINTS
from engine.doppelkopf.players import LEVELS, Player
from engine.doppelkopf.rules import (
    ANNOUNCEMENTS,
    Action,
    DoppelkopfOptions,
    DoppelkopfState,
    DoppelkopfView,
    GameResult,
    new_game,
    parse_action,
)
from engine.errors import EngineError, ParseError
from engine.terminal import (
    COMMANDS,
    BadFlag,
    Choice,
    Flags,
    TextTable,
    and_list,
    is_interactive,
    options_from_flags,
    start,
)

__all__ = ["DoppelkopfTable", "action_label", "game_name", "item_name", "main"]

PRESETS = ("tournament", "house")

_GAMES = {
    "normal": "a normal game",
    "marriage": "a marriage",
    "marriage-solo": "a marriage without a partner (played as a solo)",
    "silent-marriage": "a silent marriage",
    "poverty": "a poverty",
}
_SOLOS = {
    "diamonds": "Diamonds solo",
    "hearts": "Hearts solo",
    "spades": "Spades solo",
    "clubs": "Clubs solo",
    "queens": "Queens solo",
    "jacks": "Jacks solo",
    "fleshless": "Fleshless solo",
    "trump": "Trump solo",
    "international": "International solo",
    "no-trump": "No-trump solo",
}
_ITEMS = {
    "won": "won",
    "below90": "below 90",
    "below60": "below 60",
    "below30": "below 30",
    "no-trick": "no trick",
    "re": "Re",
    "contra": "Contra",
    "no90": "No 90",
    "no60": "No 60",
    "no30": "No 30",
    "black": "Black",
    "vs-no90": "120 against No 90",
    "vs-no60": "90 against No 60",
    "vs-no30": "60 against No 30",
    "vs-black": "30 against Black",
    "club-queens": "against the club queens",
    "doppelkopf": "Doppelkopf",
    "fox": "fox",
    "charlie": "Charlie",
    "failed-no90": "failed No 90",
    "failed-no60": "failed No 60",
    "failed-no30": "failed No 30",
    "failed-black": "failed Black",
}
_WORDS = {
    "healthy": "Healthy (no reservation)",
    "marriage": "Marriage",
    "reservation": "Reservation",
    "no-reservation": "No reservation",
    "withdraw": "Pass",
    "solo": "Bid a solo",
    "misdeal": "Misdeal (throw the cards in)",
    "poverty": "Poverty",
    "accept": "Accept the poverty",
    "decline": "Decline the poverty",
    "claim": "Claim the remaining tricks",
    "concede": "Concede the remaining tricks",
}
_MARRIAGES = {
    "trick": "Marriage: the first trick another player wins",
    "trump": "Marriage: the first trump trick",
    "side": "Marriage: the first side-suit trick",
}
_PARTY = {"re": "Re", "contra": "Contra"}
_MANY = 12
"""More card-set choices than this (a poverty's three cards) are typed, not numbered."""


def item_name(key: str) -> str:
    """Return a score item's name as players say it (``vs-no90`` → ``120 against No 90``)."""
    return _ITEMS.get(key, key)


def game_name(game: str) -> str:
    """Return the game type's name (``solo:queens`` → ``Queens solo``)."""
    kind, _, arg = game.partition(":")
    if kind == "solo":
        return _SOLOS.get(arg, f"{arg} solo")
    return _GAMES.get(game, game)


def _cards(cards: Sequence[Card]) -> str:
    return " ".join(str(c) for c in cards)


def action_label(action: Action) -> str:
    """Return how a choice reads in the numbered list (a card as ``Q♣``)."""
    if action.card is not None:
        return str(action.card)
    kind, arg = action.kind, action.arg
    if kind in ANNOUNCEMENTS:
        return f"Announce {item_name(kind)}"
    if kind == "solo" and arg:
        return _SOLOS.get(arg, arg)
    if kind == "marriage" and arg:
        return _MARRIAGES.get(arg, arg)
    if kind in ("poverty", "return") and action.cards:
        return f"{'Pass' if kind == 'poverty' else 'Return'} {_cards(action.cards)}"
    return _WORDS.get(kind, str(action))


_ORDER = [
    *_WORDS,
    *(f"marriage:{m}" for m in _MARRIAGES),
    *(f"solo:{t}" for t in _SOLOS),
    "re",
    "contra",
    "no90",
    "no60",
    "no30",
    "black",
]


def _rank(action: Action) -> tuple[int, str]:
    """Sort key of the choices that are not cards: as players list them, not by notation."""
    text = str(action)
    key = text if text in _ORDER else action.kind
    return (_ORDER.index(key) if key in _ORDER else len(_ORDER), text)


def _name(seat: int, me: int) -> str:
    return "you" if seat == me else f"seat {seat + 1}"


def _names(seats: Sequence[int], me: int) -> str:
    return and_list([_name(s, me) for s in seats])


def render_result(result: GameResult, me: int, house: bool) -> list[str]:
    """Return one scored game: the parties, card points, winner, each party's items and the
    scores by seat."""
    winner = f"{_PARTY[result.winner]} wins" if result.winner else "Nobody wins"
    lines = [
        f"=== Game {result.deal} scored: {game_name(result.game)} ===",
        f"Re ({_names(result.re, me)}) {result.points[0]} card points, "
        f"Contra ({_names(result.contra, me)}) {result.points[1]}: {winner}.",
    ]
    for party in ("re", "contra"):
        words, doubles, total = [], [], 0
        for p, key, value in result.items:
            if p != party:
                continue
            if house and key in ("re", "contra"):
                doubles.append(f"× 2 ({item_name(key)})")
                continue
            words.append(f"{item_name(key)} {value}")
            total += value
        if words or doubles:
            total *= 2 ** len(doubles)
            lines.append(f"  {_PARTY[party]}: {', '.join(words + doubles)} = {total}")
    scores = ", ".join(f"{_name(s, me)} {v:+d}" for s, v in enumerate(result.scores))
    lines.append(f"This game: {scores}.")
    return lines


class DoppelkopfTable(TextTable):
    """The person at seat ``me``; computer ``players`` at the other seats."""

    def __init__(
        self,
        state: DoppelkopfState,
        me: int,
        players: Mapping[int, Player],
        stdin: TextIO,
        stdout: TextIO,
        *,
        interactive: bool = False,
    ) -> None:
        super().__init__(stdin, stdout, interactive=interactive)
        self.state = state
        self.me = me
        self.players = players
        self._results = len(state.game_results)
        self._deal = 0
        self._game_told = False
        self._announced = 0
        self._tricks_told = 0
        self._declared: dict[str, Any] = {}
        self._watching = True
        self._help = "Type the number of your choice, or the card (QC, 10H, Q♣) or word (re)."

    # --- what the commands show ------------------------------------------------------

    def view(self) -> DoppelkopfView:
        """Return the person's view: the only source of what is shown."""
        return self.state.view(self.me)

    def help_lines(self) -> list[str]:
        """Return the help for the question being asked."""
        return [
            self._help,
            "Re (the ♣Q holders in a normal game) plays Contra; 121 card points win.",
            "Announcements are offered at your turn, or before a computer's card would close "
            "one you may still make.",
            COMMANDS,
        ]

    def hand_lines(self) -> list[str]:
        """Return the person's hand in the game's order."""
        view = self.view()
        if not view.hand:
            return ["You hold no cards."]
        return [f"Your hand ({len(view.hand)}): {_cards(view.hand)}"]

    def score_lines(self) -> list[str]:
        """Return the totals after the games scored so far."""
        data = self.view().data
        counted = len(data["results"])
        totals = ", ".join(f"{_name(s, self.me)} {t:+d}" for s, t in enumerate(data["totals"]))
        if not counted:
            return [f"No game has been scored yet. Totals: {totals}."]
        return [f"Totals after {counted} game{'s' * (counted != 1)}: {totals}."]

    def table_lines(self) -> list[str]:
        """Return the deal, the game and parties known, announcements and the trick."""
        view = self.view()
        data = view.data
        lines = [self._deal_line(data)]
        if data["phase"] == "play":
            lines.append(self._game_line(view))
            known = view.parties()
            for party in ("re", "contra"):
                seats = [s for s, p in sorted(known.items()) if p == party]
                if seats:
                    lines.append(f"  {_PARTY[party]} known: {_names(seats, self.me)}.")
            said = [
                f"{_name(a['seat'], self.me)} {item_name(a['kind'])}" for a in data["announcements"]
            ]
            if said:
                lines.append(f"  Announced: {', '.join(said)}.")
            lines += self._trick_lines(data)
        lines += self.hand_lines()
        return lines

    def _deal_line(self, data: dict[str, Any]) -> str:
        out = (
            f" Seat {data['sitting_out'] + 1} sits out." if data["sitting_out"] is not None else ""
        )
        if data["sitting_out"] == self.me:
            out = " You sit out this deal and watch."
        return f"Deal {data['deal']}, dealt by {_name(data['dealer'], self.me)}.{out}"

    def _game_line(self, view: DoppelkopfView) -> str:
        data = view.data
        game = data["game"]
        soloist = data["soloist"]
        if soloist is None:
            line = f"Game: {game_name(game)}."
        elif game.startswith("solo:") or game in ("marriage-solo", "silent-marriage"):
            line = f"Game: {game_name(game)}, played by {_name(soloist, self.me)}."
        else:
            line = f"Game: {game_name(game)} of {_name(soloist, self.me)}."
        if data["sitting_out"] == self.me:
            return line
        party = view.parties().get(self.me)
        if party is None:
            return line + " Your party is not known yet: the marriage's deciding trick tells."
        if data["soloist"] == self.me and game != "normal":
            return line + f" You play {_PARTY[party]} alone."
        return line + f" You play {_PARTY[party]}."

    def _trick_lines(self, data: dict[str, Any]) -> list[str]:
        if not data["trick"]:
            return [f"Trick {data['trick_number']}: you lead."] if self._my_turn() else []
        plays = ", ".join(f"{_name(s, self.me)} {parse_card(c)}" for s, c in data["trick"])
        return [f"Trick {data['trick_number']}: {plays}"]

    def _my_turn(self) -> bool:
        return bool(self.state.to_act) and self.state.to_act[0] == self.me

    # --- the game ----------------------------------------------------------------------

    def play(self) -> None:
        """Play the table to its end."""
        state = self.state
        while not state.is_over:
            self._news()
            if state.is_over:
                break
            seat = state.to_act[0]
            if seat == self.me:
                self._turn()
                continue
            action = self.players[seat].act(state.view(seat))
            if self._last_chance(seat, action):
                continue
            state.apply(seat, action)
            self._told(seat, action)
        self._news()
        self._finish()

    def _news(self) -> None:
        """Print what the whole table has seen since the last time: a new deal, the game
        once fixed, announcements, completed tricks and scored games."""
        state = self.state
        for result in state.game_results[self._results :]:
            # the deal's last tricks are gone from the view once it is scored
            played = state.played_games[self._results]
            for number, (plays, winner) in enumerate(played.tricks, 1):
                if number > self._tricks_told:
                    self._say_trick(number, plays, winner)
            self.say("", *render_result(result, self.me, state.preset == "house"))
            self._results += 1
        if state.is_over:
            return
        view = self.view()
        data = view.data
        if data["deal"] != self._deal:
            self._deal = data["deal"]
            self._game_told = False
            self._announced = 0
            self._tricks_told = 0
            self._declared = {}
            self._watching = data["sitting_out"] == self.me
            self.say("", self._deal_line(data))
            if data["sitting_out"] != self.me:
                self.say(*self.hand_lines())
        self._declarations(data)
        if data["phase"] == "play" and not self._game_told:
            self._game_told = True
            self.say(self._game_line(view))
        for ann in data["announcements"][self._announced :]:
            who = _name(ann["seat"], self.me)
            verb = "announce" if ann["seat"] == self.me else "announces"
            self.say(f"{who[0].upper()}{who[1:]} {verb} {item_name(ann['kind'])}.")
        self._announced = len(data["announcements"])
        last = data.get("last_trick")
        if last and data["trick_number"] - 1 > self._tricks_told:
            cards = [(s, parse_card(c)) for s, c in last["plays"]]
            self._say_trick(data["trick_number"] - 1, cards, last["winner"])

    def _say_trick(self, number: int, plays: Sequence[tuple[int, Card]], winner: int) -> None:
        self._tricks_told = number
        shown = ", ".join(f"{_name(s, self.me)} {c}" for s, c in plays)
        points = sum(POINTS[c] for _, c in plays)
        who = "you win" if winner == self.me else f"seat {winner + 1} wins"
        self.say(f"Trick {number}: {shown} — {who} ({points} points).")
        if self._watching and not self.state.is_over:
            self._help = "Press Enter for the next trick, or type s to skip to the scoring."
            answer = self.ask("(Enter: next trick, s: skip to the scoring)> ").lower()
            while self.command(answer):
                answer = self.ask("(Enter: next trick, s: skip to the scoring)> ").lower()
            if answer in ("s", "skip"):
                self._watching = False

    def _declarations(self, data: dict[str, Any]) -> None:
        """Say each reservation or bid the table heard (never a tournament reservation's
        kind: only that there is one)."""
        heard = data["declarations"]
        if data["preset"] == "tournament":
            for seat, word in sorted(heard.items()):
                if seat not in self._declared:
                    self._declared[seat] = word
                    if int(seat) != self.me:
                        said = "healthy" if word == "healthy" else "has a reservation"
                        self.say(f"Seat {int(seat) + 1}: {said}.")
            return
        for seat, word in sorted(heard["said"].items()):
            if seat not in self._declared and int(seat) != self.me:
                self.say(f"Seat {int(seat) + 1}: {_WORDS.get(word, word).lower()}.")
            self._declared[seat] = word
        bids = heard["bids"]
        for seat, bid in bids[self._declared.get("bids", 0) :]:
            if seat != self.me:
                label = action_label(parse_action(bid))
                self.say(f"Seat {seat + 1}: {label[0].lower()}{label[1:]}.")
        self._declared["bids"] = len(bids)

    def _told(self, seat: int, action: Action) -> None:
        """Say a computer's public act that no view records: a poverty's answer, a claim."""
        if action.kind in ("accept", "decline"):
            self.say(f"Seat {seat + 1} {'accepts' if action.kind == 'accept' else 'declines'}.")
        elif action.kind in ("claim", "concede"):
            self.say(f"Seat {seat + 1} {action.kind}s the remaining tricks.")
        elif action.kind in ("poverty", "return") and action.cards:
            self.say(f"Seat {seat + 1} passes three cards.")

    def _last_chance(self, seat: int, action: Action) -> bool:
        """Offer the person an announcement the computer's ``action`` would close; return
        whether he made it (the computer then decides again)."""
        open_now = [a for a in self.state.legal_actions(self.me) if a.kind in ANNOUNCEMENTS]
        if not open_now:
            return False
        after = self.state.clone()
        after.apply(seat, action)
        closing = [a for a in open_now if a not in after.legal_actions(self.me)]
        if not closing or action.kind in ANNOUNCEMENTS:
            return False
        announcement = closing[0]
        self._help = "Type 1 to announce now, 2 (or Enter) to let the computer play."
        self.say(
            f"Last chance: {item_name(announcement.kind)} can no longer be announced once "
            f"seat {seat + 1} plays."
        )
        self.say(*self.numbered([Choice(action_label(announcement), True), Choice("Go on", False)]))
        while True:
            text = self.ask()
            if not text or text == "2" or text.lower() in ("go on", "go", "n", "no"):
                return False
            if text == "1" or text.lower() == announcement.kind:
                self.state.apply(self.me, announcement)
                return True
            if not self.command(text):
                self.say(f"“{text}” is not a choice: type 1 or 2.")

    def _turn(self) -> None:
        """Ask the person for his action and apply it."""
        view = self.view()
        data = view.data
        legal = list(view.legal)
        phase = data["phase"]
        if phase == "play":
            self.say(*self._trick_lines(data))
        cards = [a for a in legal if a.card is not None]
        order = {card: i for i, card in enumerate(view.hand)}
        cards.sort(key=lambda a: order[a.card] if a.card is not None else 0)
        others = sorted((a for a in legal if a.card is None), key=_rank)
        typed = [a for a in others if a.cards]
        offered = data.get("poverty", {}).get("offered")
        if phase == "poverty-return" and offered:
            giver = _name(data["poverty"]["player"], self.me)
            received = [parse_card(c) for c in offered.partition(":")[2].split(",")]
            self.say(f"{giver[0].upper()}{giver[1:]} passed you {_cards(received)}.")
        if len(typed) > _MANY:
            word = typed[0].kind
            self._help = (
                f"Name three cards to {'pass' if word == 'poverty' else 'return'}, like 9C AD 10H."
            )
            self.say(*self.hand_lines(), self._help)
            action = self.choose([], read=lambda text: self._read(text, word))
        else:
            choices = [Choice(action_label(a), a) for a in cards + others]
            self._help = (
                "Type the number of your choice, or the card (QC, 10H, Q♣) or word (re, healthy)."
            )
            self.say(self._question(phase, bool(cards)), *self.numbered(choices))
            action = self.choose(choices, read=lambda text: self._read(text, None))
        try:
            self.state.apply(self.me, action)
        except EngineError as error:  # a listed claim the rules still refuse, say
            self.say(str(error))
            return
        if action.card is None and action.kind not in ANNOUNCEMENTS:
            self.say(f"You chose: {action_label(action)}.")

    def _question(self, phase: str, cards: bool) -> str:
        if cards:
            return "Your card:"
        return {
            "reservations": "Your reservation (the others hear only healthy or not):",
            "forced": "Your required solo:",
            "declarations": "Do you have a reservation?",
            "bidding": "Your bid:",
            "solo-type": "Your solo:",
            "poverty-answers": "Take the poverty?",
        }.get(phase, "Your choice:")

    def _read(self, text: str, word: str | None) -> Action | None:
        """Return the legal action ``text`` names, or say why it names none."""
        words = text.replace(",", " ").split()
        if word is not None:
            if words and words[0].lower() == word:
                words = words[1:]
            text = f"{word}:{','.join(words)}"
        elif len(words) > 1 and words[0].lower() in ("announce", "solo", "marriage"):
            text = words[1] if words[0].lower() == "announce" else ":".join(words[:2])
        try:
            action = parse_action(text)
        except ParseError as error:
            self.say(f"{error} Type a number from the list, or help.")
            return None
        view = self.view()
        if action.card is not None and action.card not in view.hand:
            self.say(f"You hold no {action.card}.")
            return None
        cards = [str(a.card) for a in view.legal if a.card is not None]
        if action.card is not None and action not in view.legal and cards:
            self.say(f"{action.card} does not follow the card led: play {' or '.join(cards)}.")
            return None
        trial = self.state.clone()
        try:
            trial.apply(self.me, action)
        except EngineError as error:
            self.say(str(error))
            return None
        return action

    def _finish(self) -> None:
        totals = self.state.totals
        self.say("", "=== The table is over ===")
        for seat in sorted(range(len(totals)), key=lambda s: (-totals[s], s)):
            self.say(f"  {_name(seat, self.me).capitalize():<8} {totals[seat]:+d}")
        top = max(totals)
        winners = [s for s in range(len(totals)) if totals[s] == top]
        who = _names(winners, self.me)
        verb = "win" if winners == [self.me] or len(winners) > 1 else "wins"
        self.say(f"{who[0].upper()}{who[1:]} {verb} with {top:+d}.")


# --------------------------------------------------------------------------------------
# Command line


def _flags() -> Flags:
    flags = Flags(
        "doppelkopf",
        "Doppelkopf",
        "Play a Doppelkopf table in the terminal against computer players.",
    )
    flags.seed()
    flags.variant(PRESETS, "tournament", word="preset")
    flags.add("--seats", type=int, default=None, help="how many players: 4, or 5 (house)")
    flags.seat(_seat, 0, "1 to 4 (5 at a house table of five; default 1)")
    flags.level(tuple(LEVELS), "basic")
    flags.add("--games", type=int, default=None, help="tournament: counted games (default 4)")
    flags.add("--rounds", type=int, default=None, help="house: rounds of dealer turns (default 1)")
    flags.option("required_solos=true")
    return flags


def _seat(text: str) -> int:
    if not text.isdigit() or not 1 <= int(text) <= 5:
        raise BadFlag(f"“{text}” is not a seat: choose 1 to 4 (5 at a house table of five)")
    return int(text) - 1


def main(
    argv: Sequence[str] | None = None,
    stdin: TextIO | None = None,
    stdout: TextIO | None = None,
) -> int:
    """Run a text table; return the exit code (0 done or left, 130 Ctrl-C, 2 bad flags)."""
    real = stdin is None and stdout is None
    stdin = sys.stdin if stdin is None else stdin
    stdout = sys.stdout if stdout is None else stdout
    flags = _flags()
    try:
        args = flags.parse(argv, stdout)
    except SystemExit as exit_:
        return exit_.code if isinstance(exit_.code, int) else 2
    fixed: dict[str, Any] = {"preset": args.variant}
    for name, value in (("players", args.seats), ("games", args.games), ("rounds", args.rounds)):
        if value is not None:
            fixed[name] = value
    try:
        options = options_from_flags(DoppelkopfOptions, args.option, fixed)
    except BadFlag as error:
        return flags.fail(str(error))
    me: int = args.seat
    if me >= options.players:
        return flags.fail(
            f"there is no seat {me + 1} at a table of {options.players}: "
            f"choose 1 to {options.players}"
        )
    seed: int = args.seed if args.seed is not None else random.SystemRandom().randrange(10**6)
    players = {s: LEVELS[args.level](seed * 8 + s) for s in range(options.players) if s != me}
    state = new_game(seed, options)
    length = (
        f"{options.length} counted games"
        if options.preset == "tournament"
        else f"{options.rounds} round{'s' * (options.rounds != 1)} of dealer turns"
    )
    intro = (
        f"Doppelkopf ({options.preset} rules, {length}), seed {seed} (replay with --seed {seed}).",
        f"You sit at seat {me + 1}; {args.level} computer players sit at the other "
        f"{options.players - 1} seats.",
        "Type help at any question for the commands, quit to leave.",
    )
    table = DoppelkopfTable(
        state, me, players, stdin, stdout, interactive=is_interactive(real, stdin, stdout)
    )
    return start(table, intro, real, stdout)
