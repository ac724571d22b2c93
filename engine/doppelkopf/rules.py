"""Doppelkopf as this project plays it (``docs/rules/doppelkopf.md``): both presets,
4 or 5 players, every game type, announcements, claims, scoring and the table's length.

The binding API (rules file, "Engine API and move notation"): :func:`new_game`,
:class:`DoppelkopfOptions`, :func:`parse_action`, :class:`Move`, :class:`GameResult`,
:func:`replay`; the state's ``legal_actions``, ``apply``, ``hand``, ``deal``, ``dealer``,
``is_over``, ``totals`` and ``game_results``. Seats are ``0..n-1``; seat 0 deals first.

All chance is the deal: each deal's shuffle is drawn from the table's seed and the deal
counter, so :func:`replay` rebuilds any table from its move log.

Refusal reasons (``EngineError.reason``): ``invalid-seat``, ``invalid-action``,
``game-over``, ``not-your-turn``, ``illegal`` (well-formed but not legal now), ``parse``,
``options``.
"""

from __future__ import annotations

import copy
import itertools
import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from engine.cards import Card, Rank, Suit, parse_card
from engine.doppelkopf import claims
from engine.doppelkopf.orders import POINTS, Order, double_pack, order_for
from engine.doppelkopf.scoring import LEVELS, Facts, Item, extras, score
from engine.errors import (
    GameOverError,
    IllegalActionError,
    InvalidActionError,
    NotYourTurnError,
    OptionsError,
    ParseError,
)
from engine.game import GameResult as TableResult
from engine.game import State

__all__ = [
    "Action",
    "DoppelkopfOptions",
    "DoppelkopfState",
    "GameResult",
    "Move",
    "new_game",
    "parse_action",
    "replay",
]

CLUB_QUEEN = Card.of(Rank.QUEEN, Suit.CLUBS)
CLUB_JACK = Card.of(Rank.JACK, Suit.CLUBS)
DIAMOND_ACE = Card.of(Rank.ACE, Suit.DIAMONDS)
NORMAL = order_for("tournament", "normal")

TOURNAMENT_SOLOS = ("diamonds", "hearts", "spades", "clubs", "queens", "jacks", "fleshless")
HOUSE_SOLOS = (
    "trump",
    "clubs",
    "spades",
    "hearts",
    "diamonds",
    "queens",
    "jacks",
    "international",
    "no-trump",
)
MARRIAGE_MODES = ("trick", "trump", "side")
_BID_RANK = {"marriage": 1, "poverty": 2, "misdeal": 3, "solo": 4}
_FIRST = {"re": "re", "contra": "contra"}
_THRESHOLD = {"re": 11, "contra": 11, "no90": 10, "no60": 9, "no30": 8, "black": 7}
_HOUSE_LEVEL_BEFORE = {"no90": 5, "no60": 6, "no30": 7, "black": 8}
ANNOUNCEMENTS = frozenset(("re", "contra", *LEVELS))
"""The announcements' words: optional, in or out of turn while legal."""
OPTIONAL = ANNOUNCEMENTS | {"claim", "concede"}
"""What a seat may do but never owes: announcements, claims and concessions."""

# --------------------------------------------------------------------------------------
# Options


@dataclass(frozen=True)
class DoppelkopfOptions:
    """A table's rules: the ``preset`` (``"tournament"`` or ``"house"``), ``players`` (4; 5
    in the house preset, the dealer sitting out), the length — ``games`` counted games in
    the tournament (a multiple of 4; ``None``: 4, or 24 with ``required_solos``) or
    ``rounds`` of dealer turns in the house preset — and ``required_solos`` (tournament)."""

    preset: str = "tournament"
    players: int = 4
    games: int | None = None
    rounds: int = 1
    required_solos: bool = False

    def __post_init__(self) -> None:
        def refuse(message: str, reason: str) -> OptionsError:
            return OptionsError(message, reason=reason)

        if self.preset not in ("tournament", "house"):
            raise refuse(f"The preset must be tournament or house, not {self.preset!r}.", "preset")
        if self.players not in (4, 5) or isinstance(self.players, bool):
            raise refuse("Doppelkopf is played by 4 players (5 in the house preset).", "players")
        if not isinstance(self.rounds, int) or isinstance(self.rounds, bool) or self.rounds < 1:
            raise refuse("The number of rounds must be a whole number of at least 1.", "rounds")
        if not isinstance(self.required_solos, bool):
            raise refuse("required_solos must be true or false.", "required-solos")
        if self.preset == "tournament":
            if self.players != 4:
                raise refuse("The tournament preset is played by exactly 4 players.", "players")
            if self.rounds != 1:
                raise refuse("Rounds belong to the house preset; use games.", "rounds")
            if self.games is not None:
                if (
                    not isinstance(self.games, int)
                    or isinstance(self.games, bool)
                    or self.games < 4
                    or self.games % 4
                ):
                    raise refuse("The number of games must be a multiple of 4.", "games")
                if self.required_solos and self.games < 8:
                    raise refuse("With required solos a table has at least 8 games.", "games")
        else:
            if self.games is not None:
                raise refuse("Counted games belong to the tournament preset.", "games")
            if self.required_solos:
                raise refuse("Required solos belong to the tournament preset.", "required-solos")

    @property
    def length(self) -> int:
        """Return the table's length: counted games (tournament) or dealer turns (house)."""
        if self.preset == "house":
            return self.rounds * self.players
        if self.games is not None:
            return self.games
        return 24 if self.required_solos else 4


# --------------------------------------------------------------------------------------
# Actions and moves


@dataclass(frozen=True, order=True)
class Action:
    """One action; ``str(action)`` is its canonical notation (``"QC"``, ``"re"``,
    ``"solo:queens"``, ``"poverty:9C,AD,TH"``, …)."""

    text: str
    card: Card | None = field(default=None, compare=False)
    cards: tuple[Card, ...] = field(default=(), compare=False)

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"parse_action({self.text!r})"

    @property
    def kind(self) -> str:
        """Return the action's word: ``card`` for a card, else the text before any ``:``."""
        if self.card is not None:
            return "card"
        return self.text.partition(":")[0]

    @property
    def arg(self) -> str:
        """Return what follows the ``:`` (a solo type, a marriage mode, card codes)."""
        return self.text.partition(":")[2]


def _cards_text(cards: Iterable[Card]) -> str:
    return ",".join(c.code for c in sorted(cards))


def _card_action(card: Card) -> Action:
    return _CARD_ACTIONS[card]


_CARD_ACTIONS: dict[Card, Action] = {}
for _card in double_pack()[::2]:
    _CARD_ACTIONS[_card] = Action(_card.code, card=_card)
_NOTATION_ORDER: dict[Card, int] = {
    card: i for i, card in enumerate(sorted(_CARD_ACTIONS, key=lambda c: c.code))
}
"""Each card's place when actions are sorted by their notation."""


def _cards_action(word: str, cards: Iterable[Card]) -> Action:
    ordered = tuple(sorted(cards))
    return Action(f"{word}:{_cards_text(ordered)}", cards=ordered)


_WORDS = {
    "healthy",
    "marriage",
    "reservation",
    "no-reservation",
    "withdraw",
    "solo",
    "misdeal",
    "poverty",
    "accept",
    "decline",
    "re",
    "contra",
    *LEVELS,
    "claim",
    "concede",
}
_WITH_ARG = {
    "solo": set(TOURNAMENT_SOLOS) | set(HOUSE_SOLOS),
    "marriage": set(MARRIAGE_MODES),
}


def parse_action(text: str) -> Action:
    """Return the action written ``text``, in any case, any card form ``parse_card`` reads
    and with spaces after commas; raise :class:`ParseError` if it is none."""
    if not isinstance(text, str):
        raise ParseError(f"{text!r} is not an action.", str(text))
    cleaned = text.strip()
    word, sep, rest = cleaned.partition(":")
    word = word.strip().lower()
    if sep:
        if word in ("poverty", "return"):
            tokens = [t.strip() for t in rest.split(",")]
            try:
                cards = [parse_card(t) for t in tokens if t]
            except ParseError:
                raise ParseError(f"“{text}” lists a card that does not exist.", text) from None
            if len(cards) != 3 or len(tokens) != 3:
                raise ParseError(f"“{text}” must list exactly three cards.", text)
            if any(c.rank < Rank.NINE for c in cards):
                raise ParseError(f"“{text}” lists a card Doppelkopf does not use.", text)
            return _cards_action(word, cards)
        arg = rest.strip().lower()
        if word in _WITH_ARG and arg in _WITH_ARG[word]:
            return Action(f"{word}:{arg}")
        raise ParseError(f"“{text}” is not a Doppelkopf action.", text)
    if word in _WORDS:
        return Action(word)
    try:
        card = parse_card(cleaned)
    except ParseError:
        raise ParseError(f"“{text}” is not a Doppelkopf action.", text) from None
    if card.rank < Rank.NINE:
        raise ParseError(f"“{text}” is not a card of the Doppelkopf pack.", text)
    return _card_action(card)


class Move(NamedTuple):
    """One entry of the move log: ``seat`` did ``action``; ``str(move)`` is ``"1:QC"`` (seat
    digits 1..n)."""

    seat: int
    action: Action

    def __str__(self) -> str:
        return f"{self.seat + 1}:{self.action}"

    @staticmethod
    def parse(text: str) -> Move:
        """Return the move written as ``str(move)``."""
        seat_text, sep, action_text = text.partition(":")
        if not sep or not seat_text.strip().isdigit():
            raise ParseError(f"“{text}” is not a move: write SEAT:ACTION, like 1:QC.", text)
        seat = int(seat_text) - 1
        if not 0 <= seat <= 4:
            raise ParseError(f"“{text}” names no seat (1 to 5).", text)
        return Move(seat, parse_action(action_text))


class GameResult(NamedTuple):
    """One scored game (binding): its deal and dealer, game type, parties, card points,
    winner (``"re"``, ``"contra"`` or ``None``), score items and each seat's score."""

    deal: int
    dealer: int
    game: str
    re: tuple[int, ...]
    contra: tuple[int, ...]
    points: tuple[int, int]
    winner: str | None
    items: tuple[Item, ...]
    scores: tuple[int, ...]


class PlayedGame(NamedTuple):
    """How a scored game was played (not part of the binding API; the bot's end-of-game
    post shows it): each seat's hand when card play began (after a poverty exchange) and
    each trick's plays and winner, in order (a claim's or concession's cards unplayed)."""

    hands: tuple[tuple[Card, ...], ...]
    tricks: tuple[tuple[tuple[tuple[int, Card], ...], int], ...]


# --------------------------------------------------------------------------------------
# The state


@dataclass
class _Trick:
    leader: int
    plays: list[tuple[int, Card]] = field(default_factory=list)
    winner: int | None = None


@dataclass
class _Announcement:
    party: str
    kind: str
    index: int  # how many cards of the game had been played when it was made
    late: bool = False  # a Re/Contra made after the first-announcement limit (tournament)


class DoppelkopfState(State["DoppelkopfView", Action, DoppelkopfOptions]):
    """One moment of a Doppelkopf table (see the module)."""

    options: DoppelkopfOptions
    is_over: bool

    def __init__(self, seed: int, options: DoppelkopfOptions) -> None:
        self.seed = seed
        self.options = options
        self.preset = options.preset
        self.n = options.players
        self.deal = 0
        self.dealer = 0
        self.totals: tuple[int, ...] = (0,) * self.n
        self.game_results: tuple[GameResult, ...] = ()
        self.played_games: tuple[PlayedGame, ...] = ()  # one per game result, see PlayedGame
        self.is_over = False
        self._moves: list[Move] = []
        self._turn = 0
        self._counted = 0  # tournament: counted games; house: dealer turns done
        self._owes = [options.required_solos] * self.n
        self._start_deal(self.dealer)

    # --- a deal ------------------------------------------------------------------------

    def _start_deal(self, dealer: int) -> None:
        self.deal += 1
        self.dealer = dealer
        n = self.n
        order = [(dealer + i) % n for i in range(1, n + 1)]
        self.in_play: tuple[int, ...] = tuple(s for s in order if n == 4 or s != dealer)
        self.sitting_out: int | None = dealer if n == 5 else None
        cards = double_pack()
        random.Random(f"doppelkopf:{self.seed}:{self.deal}").shuffle(cards)
        self._hands: list[list[Card]] = [[] for _ in range(n)]
        for i, seat in enumerate(self.in_play):
            self._hands[seat] = cards[12 * i : 12 * i + 12]
        self.game = "normal"  # the game type (GameResult.game) as it stands
        self.order: Order = NORMAL
        self._public_game = "normal"  # what the table knows of it
        self.soloist: int | None = None  # the lone Re player (solos, marriage turned solo)
        self.holder: int | None = None  # the marriage holder
        self._mode = "trick"  # how the marriage partner is found
        self._deciding: int | None = None  # the marriage's deciding trick, once decided
        self._required = False
        self._forced = False
        self._re: set[int] = set()
        self._choices: dict[int, Action] = {}  # reservations (tournament) and declarations
        self._bids: list[tuple[int, Action]] = []  # house bidding, in order
        self._bidders: list[int] = []
        self._poverty: int | None = None
        self._offered: tuple[Card, ...] = ()
        self._acceptor: int | None = None
        self._answers: dict[int, str] = {}
        self._tricks: list[_Trick] = []
        self._trick: _Trick | None = None
        self._announcements: list[_Announcement] = []
        self._announcing_seats: list[int] = []
        self._played = 0
        self._conceded = False
        self._claim: tuple[int, bool] | None = None  # (claimer, upheld)
        self._revealed_silent = False
        forced = self._forced_player() if self.preset == "tournament" else None
        self._speaker: int = self.in_play[0] if forced is None else forced
        if forced is not None:
            self.phase = "forced"
        elif self.preset == "tournament":
            self.phase = "reservations"
        else:
            self.phase = "declarations"

    def _forced_player(self) -> int | None:
        """§3.1: when counted games left = players still owing a required solo, the owing
        player nearest the dealer's left (dealer last) must play one now."""
        if not self.options.required_solos:
            return None
        owing = [s for s in self.in_play if self._owes[s]]
        if owing and self.options.length - self._counted == len(owing):
            return owing[0]
        return None

    # --- reading -----------------------------------------------------------------------

    @property
    def players(self) -> int:
        """Return the number of players at the table."""
        return self.n

    @property
    def moves(self) -> tuple[Move, ...]:
        """Return the move log."""
        return tuple(self._moves)

    @property
    def move_count(self) -> int:
        """Return how many moves were made."""
        return len(self._moves)

    @property
    def turn(self) -> int:
        """Return the decision point: it rises with every move."""
        return self._turn

    def hand(self, seat: int) -> tuple[Card, ...]:
        """Return the seat's current hand (empty for the seat sitting out)."""
        return tuple(self._hands[seat])

    @property
    def to_act(self) -> tuple[int, ...]:
        """Return the seats that must decide now (announcements, claims and concessions
        are optional and never make a seat one of these)."""
        if self.is_over:
            return ()
        return (self._speaker,)

    @property
    def trick_number(self) -> int:
        """Return the number of the trick being played (1..12), during card play."""
        return len(self._tricks) + 1

    def view(self, seat: int) -> DoppelkopfView:
        """Return what ``seat`` may know now: its hand, its own party once the game type is
        fixed, its own reservation, the public table, and its legal actions."""
        return view_of(self, seat)

    def public_view(self) -> DoppelkopfView:
        """Return what everyone may know now (spectators, the seat sitting out)."""
        return view_of(self, None)

    def party(self, seat: int) -> str | None:
        """Return the seat's party in the game being played (``None``: sitting out, or not
        known yet: before the game type is fixed)."""
        if seat == self.sitting_out or self.phase != "play":
            return None
        return "re" if seat in self._re else "contra"

    # --- legality ---------------------------------------------------------------------

    def legal_actions(self, seat: int) -> tuple[Action, ...]:
        """Return what ``seat`` may do now, sorted by notation (empty when nothing)."""
        if self.is_over or not isinstance(seat, int) or not 0 <= seat < self.n:
            return ()
        actions: list[Action] = []
        phase = self.phase
        if phase == "play":
            if seat == self._speaker:
                # the hot path of every playout: the legal cards put in notation order
                # directly, without a set and sort of Action objects
                trick = self._trick
                led = trick.plays[0][1] if trick and trick.plays else None
                cards = self.order.legal(self._hands[seat], led)
                actions = [_CARD_ACTIONS[c] for c in sorted(cards, key=_NOTATION_ORDER.__getitem__)]
            announcement = self._next_announcement(seat)
            extra = [Action(announcement)] if announcement is not None else []
            if self._may_claim(seat):
                extra += [Action("claim"), Action("concede")]
            if not extra:
                return tuple(actions)
            actions += extra
        elif seat == self._speaker:
            actions = self._bidding_actions(seat)
        return tuple(sorted(set(actions), key=str))

    def _bidding_actions(self, seat: int) -> list[Action]:
        hand = self._hands[seat]
        phase = self.phase
        if phase == "forced":
            return [Action(f"solo:{t}") for t in TOURNAMENT_SOLOS]
        if phase == "reservations":
            actions = [Action("healthy")] + [Action(f"solo:{t}") for t in TOURNAMENT_SOLOS]
            if hand.count(CLUB_QUEEN) == 2:
                actions.append(Action("marriage"))
            return actions
        if phase == "declarations":
            return [Action("reservation"), Action("no-reservation")]
        if phase == "bidding":
            best = max((_BID_RANK[a.kind] for _, a in self._bids), default=0)
            actions = [Action("withdraw")]
            trumps = sum(1 for c in hand if NORMAL.is_trump(c))
            nines = sum(1 for c in hand if c.rank == Rank.NINE)
            if best < 4:
                actions.append(Action("solo"))
            if best < 3 and (trumps == 0 or nines >= 5):
                actions.append(Action("misdeal"))
            if best < 2 and trumps <= 3:
                actions.append(Action("poverty"))
            if best < 1 and hand.count(CLUB_QUEEN) == 2:
                actions += [Action(f"marriage:{m}") for m in MARRIAGE_MODES]
            return actions
        if phase == "solo-type":
            return [Action(f"solo:{t}") for t in HOUSE_SOLOS]
        if phase == "poverty-offer":
            own = [c for c in hand if NORMAL.is_trump(c)]
            side = [c for c in hand if not NORMAL.is_trump(c)]
            offers = {
                tuple(sorted(own + list(extra)))
                for extra in itertools.combinations(sorted(side), 3 - len(own))
            }
            return [_cards_action("poverty", cards) for cards in offers]
        if phase == "poverty-answers":
            return [Action("accept"), Action("decline")]
        if phase == "poverty-return":
            returns = set(itertools.combinations(sorted(hand), 3))
            return [_cards_action("return", cards) for cards in returns]
        return []

    def _may_claim(self, seat: int) -> bool:
        """Further decision 1: the soloist of a declared solo, the lone player of a silent
        marriage and of a marriage turned ♦ solo may claim or concede (tournament)."""
        if self.preset != "tournament" or self._conceded or seat != self.soloist:
            return False
        return self.game.startswith("solo:") or self.game in ("silent-marriage", "marriage-solo")

    # --- announcements ------------------------------------------------------------------

    def _said(self, party: str) -> list[_Announcement]:
        return [a for a in self._announcements if a.party == party]

    def _next_announcement(self, seat: int) -> str | None:
        """Return the announcement ``seat`` may make now, if any (one at a time: the next
        of its party's sequence)."""
        party = self.party(seat)
        if party is None or self._conceded or self._trick is None:
            return None
        if self.holder is not None and self._deciding is None:
            return None  # a marriage: nobody announces before the deciding trick
        said = self._said(party)
        if not said:
            kind = _FIRST[party]
        elif said[-1].kind == "black":
            return None
        elif said[-1].kind in LEVELS:
            kind = LEVELS[LEVELS.index(said[-1].kind) + 1]
        else:
            kind = LEVELS[0]
        if self.preset == "tournament":
            return kind if self._tournament_open(seat, party, kind, said) else None
        return kind if self._house_open(party, kind, said) else None

    def _shift(self) -> int:
        """The marriage shift: the deciding trick k moves every limit by k − 1."""
        return 0 if self._deciding is None else self._deciding - 1

    def _tournament_open(self, seat: int, party: str, kind: str, said: list[_Announcement]) -> bool:
        cards = len(self._hands[seat])
        shift = self._shift()
        if kind in ("re", "contra"):
            if cards >= _THRESHOLD[kind] - shift:
                return True
            theirs = self._said("contra" if party == "re" else "re")
            if not theirs:
                return False
            return cards >= _THRESHOLD[theirs[-1].kind] - 1 - shift
        if said and said[0].late:
            return False  # a late reply bars every level (D.4)
        return cards >= _THRESHOLD[kind] - shift

    def _house_open(self, party: str, kind: str, said: list[_Announcement]) -> bool:
        index = self._played
        shift = 4 * self._shift()

        def before(trick: int) -> bool:  # no card of that trick played yet
            return index <= 4 * (trick - 1) + shift

        if kind in ("re", "contra"):
            if before(4 if kind == "re" else 3):
                return True
            theirs = self._said("contra" if party == "re" else "re")
            if not theirs:
                return False
            made = theirs[-1].index
            pointed = made // 4 + (1 if made % 4 == 0 else 2)
            return before(5) or index <= 4 * pointed - 1
        return before(_HOUSE_LEVEL_BEFORE[kind])

    # --- applying ----------------------------------------------------------------------

    def apply(self, seat: int, action: Action | str) -> None:
        """Make ``seat`` do ``action``; raise (changing nothing) if it may not."""
        if isinstance(action, str):
            try:
                action = parse_action(action)
            except ParseError:
                raise InvalidActionError(
                    f"{action!r} is not a Doppelkopf action.", reason="invalid-action"
                ) from None
        if not isinstance(action, Action):
            raise InvalidActionError(
                f"{action!r} is not a Doppelkopf action.", reason="invalid-action"
            )
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.n:
            raise InvalidActionError(f"There is no seat {seat!r}.", reason="invalid-seat")
        if self.is_over:
            raise GameOverError("The table is over.")
        if not self._is_legal(seat, action):
            if seat != self._speaker and action.kind not in (
                "re",
                "contra",
                *LEVELS,
                "claim",
                "concede",
            ):
                raise NotYourTurnError(f"It is not seat {seat + 1}'s turn.", action=str(action))
            raise IllegalActionError(
                f"Seat {seat + 1} may not play {action} now.", action=str(action)
            )
        self._moves.append(Move(seat, action))
        self._turn += 1
        kind = action.kind
        if kind == "card":
            assert action.card is not None
            self._play(seat, action.card)
        elif kind in ("re", "contra", *LEVELS):
            self._announce(seat, kind)
        elif kind in ("claim", "concede"):
            self._end_by(seat, kind)
        else:
            self._decide(seat, action)

    def _is_legal(self, seat: int, action: Action) -> bool:
        """Return whether ``action`` is in ``legal_actions(seat)``, the common cases (a card,
        an announcement) without building the whole list."""
        if self.phase == "play":
            card = action.card
            if card is not None:
                if seat != self._speaker or card not in self._hands[seat]:
                    return False
                trick = self._trick
                if trick is None or not trick.plays:
                    return True
                group = self.order.group
                want = group[trick.plays[0][1]]
                return group[card] == want or all(group[c] != want for c in self._hands[seat])
            if action.text in ANNOUNCEMENTS:
                return self._next_announcement(seat) == action.text
        return action in self.legal_actions(seat)

    # --- reservations and bidding --------------------------------------------------------

    def _next_speaker(self, seats: Sequence[int]) -> int | None:
        i = seats.index(self._speaker)
        return seats[i + 1] if i + 1 < len(seats) else None

    def _decide(self, seat: int, action: Action) -> None:
        phase, kind = self.phase, action.kind
        if phase == "forced":
            self._begin_solo(seat, action.arg, required=True, forced=True)
        elif phase == "reservations":
            self._choices[seat] = action
            nxt = self._next_speaker(self.in_play)
            if nxt is not None:
                self._speaker = nxt
            else:
                self._resolve_reservations()
        elif phase == "declarations":
            self._choices[seat] = action
            nxt = self._next_speaker(self.in_play)
            if nxt is not None:
                self._speaker = nxt
                return
            self._bidders = [s for s in self.in_play if self._choices[s].text == "reservation"]
            if not self._bidders:
                self._begin_normal()
            else:
                self.phase = "bidding"
                self._speaker = self._bidders[0]
        elif phase == "bidding":
            if kind != "withdraw":
                self._bids.append((seat, action))
            nxt = self._next_speaker(self._bidders)
            if kind == "solo" or nxt is None:
                self._resolve_bidding()
            else:
                self._speaker = nxt
        elif phase == "solo-type":
            self._begin_solo(seat, action.arg, required=False, forced=False)
        elif phase == "poverty-offer":
            for card in action.cards:
                self._hands[seat].remove(card)
            self._offered = action.cards
            self.phase = "poverty-answers"
            self._speaker = self._after(seat)
        elif phase == "poverty-answers":
            self._answers[seat] = kind
            if kind == "accept":
                self._acceptor = seat
                self._hands[seat] += list(self._offered)
                self.phase = "poverty-return"
            else:
                nxt = self._after(seat)
                if nxt == self._poverty:
                    self._redeal()  # all declined: the same dealer deals again
                else:
                    self._speaker = nxt
        elif phase == "poverty-return":
            for card in action.cards:
                self._hands[seat].remove(card)
            assert self._poverty is not None
            self._hands[self._poverty] += list(action.cards)
            self.game = self._public_game = "poverty"
            self._re = {self._poverty, seat}
            self._begin_play(self._poverty)

    def _after(self, seat: int) -> int:
        """Return the next seat in play clockwise from ``seat``."""
        i = self.in_play.index(seat)
        return self.in_play[(i + 1) % len(self.in_play)]

    def _resolve_reservations(self) -> None:
        """§3.2: required solo > voluntary solo > marriage; among equals the player nearest
        the dealer's left."""
        best: tuple[int, int, Action] | None = None
        for seat in self.in_play:
            action = self._choices[seat]
            if action.kind == "solo":
                rank = 3 if self._owes[seat] else 2
            elif action.kind == "marriage":
                rank = 1
            else:
                continue
            if best is None or rank > best[0]:
                best = (rank, seat, action)
        if best is None:
            self._begin_normal()
        elif best[2].kind == "solo":
            self._begin_solo(best[1], best[2].arg, required=best[0] == 3, forced=False)
        else:
            self._begin_marriage(best[1], "trick")

    def _resolve_bidding(self) -> None:
        if not self._bids:
            self._begin_normal()
            return
        seat, action = max(self._bids, key=lambda b: _BID_RANK[b[1].kind])  # first of a rank
        kind = action.kind
        if kind == "solo":
            self.phase = "solo-type"
            self._speaker = seat
        elif kind == "misdeal":
            self._redeal()
        elif kind == "poverty":
            self._poverty = seat
            self.phase = "poverty-offer"
            self._speaker = seat
        else:
            self._begin_marriage(seat, action.arg)

    def _redeal(self) -> None:
        """A misdeal or a refused poverty: no score; the same dealer deals a fresh shuffle."""
        self._start_deal(self.dealer)

    def _begin_normal(self) -> None:
        holders = [s for s in self.in_play if self._hands[s].count(CLUB_QUEEN) == 2]
        if holders:  # a silent marriage: the holder plays alone, scored as a solo
            self.game = "silent-marriage"
            self.soloist = holders[0]
            self._re = {holders[0]}
        else:
            self._re = {s for s in self.in_play if CLUB_QUEEN in self._hands[s]}
        self._begin_play(self.in_play[0])

    def _begin_solo(self, seat: int, kind: str, *, required: bool, forced: bool) -> None:
        self.game = self._public_game = f"solo:{kind}"
        self.order = order_for(self.preset, self.game)
        self.soloist = seat
        self._re = {seat}
        self._required, self._forced = required, forced
        if required:
            self._owes[seat] = False
        leads = seat if self.preset == "house" or required else self.in_play[0]
        self._begin_play(leads)

    def _begin_marriage(self, seat: int, mode: str) -> None:
        self.game = self._public_game = "marriage"
        self.holder = seat
        self._mode = mode
        self._re = {seat}
        self._begin_play(seat if self.preset == "house" else self.in_play[0])

    def _begin_play(self, leader: int) -> None:
        self._start_hands = tuple(tuple(sorted(h)) for h in self._hands)
        self.phase = "play"
        self._trick = _Trick(leader)
        self._speaker = leader

    # --- card play -----------------------------------------------------------------------

    def _play(self, seat: int, card: Card) -> None:
        self._hands[seat].remove(card)
        trick = self._trick
        assert trick is not None
        trick.plays.append((seat, card))
        self._played += 1
        if len(trick.plays) < 4:
            self._speaker = self._after(seat)
            return
        self._finish_trick(trick)
        if len(self._tricks) == 11:
            last = _Trick(trick.winner or 0)
            player = last.leader
            for _ in range(4):
                last.plays.append((player, self._hands[player].pop()))
                player = self._after(player)
            self._played += 4
            self._finish_trick(last)
            self._end_game()

    def _finish_trick(self, trick: _Trick) -> None:
        winner = trick.plays[self.order.winner([c for _, c in trick.plays])][0]
        trick.winner = winner
        self._tricks.append(trick)
        number = len(self._tricks)
        if self.holder is not None and self._deciding is None and number <= 3:
            first = trick.plays[0][1]
            qualifies = (
                self._mode == "trick"
                or (self._mode == "trump" and self.order.is_trump(first))
                or (self._mode == "side" and not self.order.is_trump(first))
            )
            if qualifies and winner != self.holder:
                self._deciding = number
                self._re = {self.holder, winner}
            elif number == 3:
                self._deciding = 3
                self.game = self._public_game = "marriage-solo"
                self.soloist = self.holder
        self._trick = _Trick(winner)
        self._speaker = winner

    def _announce(self, seat: int, kind: str) -> None:
        party = self.party(seat)
        assert party is not None
        late = False
        if kind in ("re", "contra") and self.preset == "tournament":
            late = len(self._hands[seat]) < _THRESHOLD[kind] - self._shift()
        self._announcements.append(_Announcement(party, kind, self._played, late))
        self._announcing_seats.append(seat)

    def _end_by(self, seat: int, kind: str) -> None:
        """A claim or a concession (§3.8): the remaining tricks, the current one included,
        go to the soloist if the claim holds, else to Contra."""
        upheld = False
        if kind == "claim":
            trick = self._trick
            assert trick is not None
            upheld = claims.wins_every_trick(
                self.order,
                [tuple(h) for h in self._hands],
                tuple(trick.plays),
                trick.leader,
                seat,
                self.in_play,
            )
        else:
            self._conceded = True
        self._claim = (seat, upheld)
        if self.game == "silent-marriage":
            self._public_game = self.game
            self._revealed_silent = True
        self._end_game()

    # --- scoring -----------------------------------------------------------------------

    def _end_game(self) -> None:
        parties = {s: ("re" if s in self._re else "contra") for s in self.in_play}
        points = {"re": 0, "contra": 0}
        tricks = {"re": 0, "contra": 0}
        for trick in self._tricks:
            assert trick.winner is not None
            party = parties[trick.winner]
            points[party] += sum(POINTS[c] for _, c in trick.plays)
            tricks[party] += 1
        if self._claim is not None:
            _, upheld = self._claim
            party = "re" if upheld else "contra"
            rest = [c for s in self.in_play for c in self._hands[s]]
            if self._trick is not None:
                rest += [c for _, c in self._trick.plays]
            points[party] += sum(POINTS[c] for c in rest)
            tricks[party] += 12 - len(self._tricks)
            for s in self.in_play:
                self._hands[s] = []
            self._trick = None
        announced = {
            p: tuple(a.kind for a in self._announcements if a.party == p) for p in ("re", "contra")
        }
        normal = self.game in ("normal", "marriage", "poverty")
        fox, charlie = self._extras_cards()
        played = [([(s, c) for s, c in t.plays], t.winner or 0) for t in self._tricks]
        items_extra = (
            extras(played, parties, fox=fox, charlie=charlie, points=POINTS)
            if self._claim is None and (normal or self.preset == "house")
            else []
        )
        facts = Facts(points, tricks, announced, tuple(items_extra))
        winner, items, value = score(self.preset, facts, normal=normal)
        solo = self.soloist is not None and self.game not in ("normal", "marriage", "poverty")
        scores = [0] * self.n
        for s in self.in_play:
            if solo:
                scores[s] = 3 * value if s == self.soloist else -value
            else:
                scores[s] = value if parties[s] == "re" else -value
        result = GameResult(
            deal=self.deal,
            dealer=self.dealer,
            game=self.game,
            re=tuple(sorted(s for s in self.in_play if parties[s] == "re")),
            contra=tuple(sorted(s for s in self.in_play if parties[s] == "contra")),
            points=(points["re"], points["contra"]),
            winner=winner,
            items=tuple(items),
            scores=tuple(scores),
        )
        self.game_results += (result,)
        record = tuple((tuple(t.plays), t.winner or 0) for t in self._tricks)
        self.played_games += (PlayedGame(self._start_hands, record),)
        self.totals = tuple(t + s for t, s in zip(self.totals, scores, strict=True))
        self.phase = "scored"
        self._next_deal()

    def _extras_cards(self) -> tuple[Card | None, Card | None]:
        """Return the fox and Charlie cards of this game (``None``: none)."""
        if self.preset == "tournament":
            return DIAMOND_ACE, CLUB_JACK
        game = self.game
        if game.startswith("solo:"):
            kind = game[5:]
            if kind in ("queens", "jacks", "international", "no-trump"):
                return None, CLUB_JACK
            if kind != "trump":
                suit = {"clubs": Suit.CLUBS, "spades": Suit.SPADES, "hearts": Suit.HEARTS}
                return Card.of(Rank.ACE, suit.get(kind, Suit.DIAMONDS)), CLUB_JACK
        return DIAMOND_ACE, CLUB_JACK

    def _next_deal(self) -> None:
        if self.preset == "tournament":
            repeat = self._required and not self._forced
            if not repeat:
                self._counted += 1
        else:
            repeat = self.game.startswith("solo:")
            if not repeat:
                self._counted += 1
        if self._counted >= self.options.length:
            self.is_over = True
            self.phase = "over"
            self._trick = None
            return
        self._start_deal(self.dealer if repeat else (self.dealer + 1) % self.n)

    # --- results, copies ---------------------------------------------------------------

    def result(self) -> TableResult:
        """Return the table's result (``engine.game.GameResult``): totals, winners (the
        highest total; ties share), and each seat's score per game. Before the end nobody
        has won."""
        rounds = tuple(tuple(r.scores[s] for r in self.game_results) for s in range(self.n))
        if not self.is_over:
            return TableResult(self.totals, (), rounds)
        best = max(self.totals)
        winners = tuple(s for s in range(self.n) if self.totals[s] == best)
        return TableResult(self.totals, winners, rounds)

    def clone(self) -> DoppelkopfState:
        """Return an independent copy: the mutable containers are copied, everything
        immutable is shared (the moves, cards, results and finished tricks never change
        once made; a deep copy of a long table's history took milliseconds)."""
        other = copy.copy(self)
        other._moves = list(self._moves)
        other._owes = list(self._owes)
        other._hands = [list(h) for h in self._hands]
        other._re = set(self._re)
        other._choices = dict(self._choices)
        other._bids = list(self._bids)
        other._bidders = list(self._bidders)
        other._answers = dict(self._answers)
        other._tricks = [_Trick(t.leader, list(t.plays), t.winner) for t in self._tricks]
        trick = self._trick
        other._trick = (
            None if trick is None else _Trick(trick.leader, list(trick.plays), trick.winner)
        )
        other._announcements = [
            _Announcement(a.party, a.kind, a.index, a.late) for a in self._announcements
        ]
        other._announcing_seats = list(self._announcing_seats)
        return other

    def controller(self, seat: int) -> int | None:
        """Return who decides for ``seat``'s hand: the seat itself."""
        return seat

    def player_at(self, seat: int) -> int:
        """Return the player sitting at ``seat``: the seat itself."""
        return seat

    def __repr__(self) -> str:
        return (
            f"<DoppelkopfState {self.preset} deal {self.deal} dealer {self.dealer + 1} "
            f"{self.phase} {self.game} moves={len(self._moves)}>"
        )


# --------------------------------------------------------------------------------------
# Starting and replaying


def new_game(seed: int, options: DoppelkopfOptions | None = None) -> DoppelkopfState:
    """Return a new table dealt from ``seed``."""
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise OptionsError("The seed must be a whole number.", reason="seed")
    return DoppelkopfState(seed, options or DoppelkopfOptions())


def replay(
    seed: int, options: DoppelkopfOptions | None, moves: Iterable[Move | str]
) -> DoppelkopfState:
    """Return the table reached by ``moves`` (objects or ``"1:QC"`` strings) from ``seed``."""
    state = new_game(seed, options)
    for move in moves:
        parsed = Move.parse(move) if isinstance(move, str) else move
        state.apply(parsed.seat, parsed.action)
    return state


# --------------------------------------------------------------------------------------
# Views


@dataclass(frozen=True)
class DoppelkopfView:
    """What one seat (``seat``), or everyone (``seat`` ``None``), may know now; ``data`` is
    JSON-ready (see :meth:`DoppelkopfState.view`)."""

    seat: int | None
    data: dict[str, Any]
    legal: tuple[Action, ...] = ()
    hand: tuple[Card, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        """Return the view as plain JSON-ready data."""
        return self.data

    def parties(self) -> dict[int, str]:
        """Return the parties this view may know, by seat (``{2: "re"}``): its tokens
        ``"2:re"`` read."""
        known: dict[int, str] = {}
        for token in self.data["parties"]:
            seat, _, party = str(token).partition(":")
            known[int(seat)] = party
        return known


def public_parties(state: DoppelkopfState) -> set[str]:
    """Return the party tokens (``"2:re"``, seats 0-based) the whole table knows: the
    soloist, the marriage holder and its partner once found, the poverty pair, and in a
    normal game each seat that played a ♣Q or announced."""
    if state.phase != "play" and state.phase not in ("scored", "over"):
        return set()
    known: set[str] = set()
    public = state._public_game
    every = [f"{s}:{'re' if s in state._re else 'contra'}" for s in state.in_play]
    if public.startswith("solo:") or public in ("poverty", "marriage-solo", "silent-marriage"):
        return set(every)
    if public == "marriage":
        if state._deciding is None:
            assert state.holder is not None
            return {f"{state.holder}:re"}
        return set(every)
    for trick in [*state._tricks, *([state._trick] if state._trick else [])]:
        for seat, card in trick.plays:
            if card == CLUB_QUEEN:
                known.add(f"{seat}:re")
    for announcement, seat in zip(state._announcements, state._announcing_seats, strict=True):
        known.add(f"{seat}:{announcement.party}")
    return known


def view_of(state: DoppelkopfState, seat: int | None) -> DoppelkopfView:
    """Return what seat ``seat`` sees of the game (``None``: what everyone sees)."""
    order = state.order
    known = public_parties(state)
    parties = set(known)
    game = state._public_game
    data_secret: str | None = None  # the holder of a silent marriage knows it
    if seat is not None and seat in state.in_play and state.phase == "play":
        party = state.party(seat)
        pending = state.holder is not None and state._deciding is None and seat != state.holder
        if party is not None and not pending:
            parties.add(f"{seat}:{party}")
        if seat == state.soloist and state.game == "silent-marriage":
            game = "silent-marriage"
            data_secret = f"{seat}:silent-marriage"
    trick = state._trick
    last = state._tricks[-1] if state._tricks else None
    data: dict[str, Any] = {
        "own_game": data_secret,
        "seat": seat,
        "preset": state.preset,
        "players": state.n,
        "deal": state.deal,
        "counted": state._counted,
        "length": state.options.length,
        "dealer": state.dealer,
        "sitting_out": state.sitting_out,
        "phase": state.phase,
        "to_act": list(state.to_act),
        "game": game,
        "soloist": state.soloist if game != "normal" else None,
        "holder": state.holder,
        "mode": state._mode if state.holder is not None and game == "marriage" else None,
        "parties": sorted(parties),
        "trick_number": len(state._tricks) + 1 if state.phase == "play" else None,
        "trick": [[s, c.code] for s, c in trick.plays] if trick else [],
        "leader": trick.leader if trick else None,
        "last_trick": (
            {"plays": [[s, c.code] for s, c in last.plays], "winner": last.winner}
            if last and state.phase == "play"
            else None
        ),
        "cards_left": [len(state._hands[s]) for s in range(state.n)],
        "announcements": [
            {"party": a.party, "kind": a.kind, "seat": s}
            for a, s in zip(state._announcements, state._announcing_seats, strict=True)
        ],
        "declarations": _declarations(state),
        "totals": list(state.totals),
        "results": [
            r._asdict() | {"items": [list(i) for i in r.items]} for r in state.game_results
        ],
    }
    if state._poverty is not None:
        data["poverty"] = {
            "player": state._poverty,
            "answers": {str(s): a for s, a in state._answers.items()},
            "acceptor": state._acceptor,
        }
        if seat in (state._poverty, state._acceptor) and seat is not None and state._offered:
            data["poverty"]["offered"] = f"poverty:{_cards_text(state._offered)}"
    if state.preset == "house":
        data["markers"] = _markers(state)
    hand: tuple[Card, ...] = ()
    legal: tuple[Action, ...] = ()
    if seat is not None:
        hand = tuple(sorted(state._hands[seat], key=order.sort_key))
        data["hand"] = [c.code for c in hand]
        legal = state.legal_actions(seat)
        data["legal"] = [str(a) for a in legal]
        choice = state._choices.get(seat)
        if choice is not None and state.preset == "tournament":
            data["own_reservation"] = f"{seat}:{choice}"
    return DoppelkopfView(seat, data, legal, hand)


def _declarations(state: DoppelkopfState) -> dict[str, Any]:
    """What the table heard in the reservations: tournament "healthy" or "reservation" per
    seat (never which one); house each declaration and each bid."""
    if state.preset == "tournament":
        return {
            str(s): ("healthy" if a.text == "healthy" else "reservation")
            for s, a in state._choices.items()
        }
    return {
        "said": {str(s): a.text for s, a in state._choices.items()},
        "bids": [[s, a.text] for s, a in state._bids],
    }


def _markers(state: DoppelkopfState) -> list[list[Any]]:
    """House tables: each captured fox and one card of each Doppelkopf trick, face up in
    front of the trick's winner."""
    fox, _ = state._extras_cards()
    shown: list[list[Any]] = []
    for trick in state._tricks:
        for s, card in trick.plays:
            if card == fox and trick.winner is not None:
                winner_party = "re" if trick.winner in state._re else "contra"
                own_party = "re" if s in state._re else "contra"
                if winner_party != own_party:
                    shown.append([trick.winner, "fox", card.code])
        if sum(POINTS[c] for _, c in trick.plays) >= 40:
            shown.append([trick.winner, "doppelkopf", trick.plays[0][1].code])
    return shown
