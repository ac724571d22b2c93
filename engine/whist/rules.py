"""The whist family, exactly as ``docs/rules/whist.md`` decides it.

One :class:`WhistState` plays one unit of play — a rubber, a tournée of rubbers (English
Dummy) or of games (Mort) — deal after deal; each variant is a subclass overriding a few
hooks (python-chess's ``variant.py`` shape): who sits where, who deals, how the cards are
dealt, how a deal and a game are scored. :data:`VARIANTS` lists them by name.

Seats are N=0, E=1, S=2, W=3; every seat holds a *hand* (dummies and dead hands too; in
two-hand E and W stay empty). Players are ``0 … P-1`` in join order; ``player_at(seat)``
says who sits where (``None`` for a dummy, Mort, a dead or an unused hand) and
``controller(seat)`` whose seat decides for a hand (a dummy's partner; ``None`` for a hand
nobody plays). A *side* is 0 or 1: N-S and E-W, or in Humbug and two-hand N and S.

All chance comes from the seed: the draws at the start (seating, the first dealer), each
deal's shuffle (drawn from the seed and the deal's number) and Mort's L/R draw of each game,
so ``replay(seed, options, moves)`` rebuilds any state. What a seat may know is
:meth:`WhistState.view`; computer players and renderers only ever receive views.

Every refusal is an ``EngineError`` whose ``reason`` says why: ``invalid-seat``,
``invalid-action`` (not a whist action), ``game-over``, ``not-your-turn`` (the seat has
nothing to decide now), ``wrong-phase`` (phase: the action belongs to another phase),
``not-in-hand`` (card), ``must-follow`` (suit), ``already-chosen``, ``no-claims`` (this
variant has none), ``claim-blocked`` (after a rejection, until the next card),
``claim-too-many`` (tricks, remaining); options refuse with ``variant``, ``players``,
``other-variant`` … and text that is no action or move is a ``parse`` error.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Iterable
from enum import StrEnum
from typing import Any, ClassVar, NamedTuple

from engine.cards import DECK, Card, Rank, Suit, shuffled_deck
from engine.errors import (
    GameOverError,
    IllegalActionError,
    InvalidActionError,
    NotYourTurnError,
    OptionsError,
)
from engine.game import GameResult, State
from engine.tricks import deal_round, eldest, legal_cards, trick_winner, turns_down_turnup
from engine.whist import scoring
from engine.whist.actions import (
    ACCEPT,
    EXCHANGE,
    KEEP,
    REJECT,
    SEAT_LETTERS,
    SEAT_NAMES,
    Action,
    Kind,
    Move,
    claim,
    declare,
    play,
)
from engine.whist.options import WhistOptions

__all__ = [
    "EAST",
    "HONOUR_RANKS",
    "NORTH",
    "SEATS",
    "SOUTH",
    "TRICKS",
    "VARIANTS",
    "WEST",
    "DealResult",
    "DoubleDummy",
    "EnglishDummy",
    "Humbug",
    "Mort",
    "Phase",
    "ShortWhist",
    "TrickRecord",
    "TwoHand",
    "WhistState",
    "WhistView",
    "new_game",
    "replay",
]

SEATS: tuple[int, ...] = (0, 1, 2, 3)
NORTH, EAST, SOUTH, WEST = SEATS
TRICKS = 13
HONOUR_RANKS: tuple[Rank, ...] = (Rank.ACE, Rank.KING, Rank.QUEEN, Rank.JACK)
"""The honours, in the order results list their holders."""
_OTHER_SIDE = (1, 0)
_PLAYS: dict[Card, Action] = {card: play(card) for card in DECK}
_TRUMP_ACTIONS: tuple[Action, ...] = tuple(declare(suit) for suit in Suit)
_CHOICES: tuple[Action, ...] = (KEEP, EXCHANGE)
_ANSWERS: tuple[Action, ...] = (ACCEPT, REJECT)
_CLAIMS: tuple[tuple[Action, ...], ...] = tuple(
    tuple(claim(k) for k in range(1, r + 1)) for r in range(TRICKS + 1)
)


class Phase(StrEnum):
    """What the deal is waiting for."""

    DECLARE = "declare"
    """Humbug with ``humbug_declared``: the dealer names trumps."""
    EXCHANGE = "exchange"
    """Humbug: keep or exchange (both players at once; declared: the non-dealer only)."""
    PLAY = "play"
    """A card is due from :attr:`WhistState.to_play`."""
    CLAIM = "claim"
    """Double Dummy: the claimer's opponent accepts or rejects the claim."""
    OVER = "over"
    """The unit of play is over."""


class DealResult(NamedTuple):
    """How one deal was scored (its deal, game, rubber, dealer and trump are that deal's).

    ``tricks`` per side (an accepted claim included); ``honours`` per side (A K Q J of trumps
    held as dealt; Humbug: the two played hands after the exchange; two-hand (0, 0));
    ``points`` added to the game score; ``slam`` Mort's 20 slam points; ``score`` after the
    deal (a won game: its final score); the game's winner and value and the rubber's winner
    and value when the deal ended them; ``totals`` per player after the deal.
    """

    deal: int
    game: int
    rubber: int | None
    dealer: int
    trump: Suit
    tricks: tuple[int, int]
    honours: tuple[int, int]
    points: tuple[int, int]
    slam: tuple[int, int]
    score: tuple[int, int]
    game_winner: int | None
    game_value: int | None
    rubber_winner: int | None
    rubber_value: int | None
    totals: tuple[int, ...]


class TrickRecord(NamedTuple):
    """A completed trick: its number in the deal, its leader, the ``(seat, card)`` pairs in
    play order and the seat that won it."""

    number: int
    leader: int
    cards: tuple[tuple[int, Card], ...]
    winner: int


def _codes(cards: Iterable[Card] | None) -> list[str] | None:
    return None if cards is None else [card.code for card in cards]


def _letter(seat: int | None) -> str | None:
    return None if seat is None else SEAT_LETTERS[seat]


class WhistView(NamedTuple):
    """What one hand's decider (or, with ``seat`` ``None``, everyone) may know now.

    ``seat`` is the hand the view is for and ``player`` the player who decides for it
    (``None``: nobody; the view then holds only what is public). ``hands[s]`` is hand ``s``
    as this view shows it (``None``: not shown): one's own hand, a dummy one plays, dummies
    on the table, Double Dummy's exposed hands. ``counts`` are the cards each hand holds.
    ``turnup`` is the turned card while it still lies face up. ``discarded`` is the Humbug
    hand this player gave up, shown to him alone. ``chosen`` says which seats have made their
    Humbug choice and ``exchanged`` what each chose once revealed (one's own at once).
    ``trick`` is the trick in progress and ``last_trick`` the last completed trick until the
    next card is led. ``legal`` lists ``seat``'s legal actions now. ``honour_holders[i]`` are
    the seats that held A K Q J of trumps in ``results[i]``'s deal (``None``: nobody's).
    """

    seat: int | None
    player: int | None
    variant: str
    phase: Phase
    deal: int
    game: int
    rubber: int | None
    dealer: int
    trump: Suit | None
    turnup: Card | None
    to_play: int | None
    to_act: tuple[int, ...]
    legal: tuple[Action, ...]
    hands: tuple[tuple[Card, ...] | None, ...]
    counts: tuple[int, ...]
    discarded: tuple[Card, ...] | None
    chosen: tuple[bool, ...]
    exchanged: tuple[bool | None, ...]
    trick: tuple[tuple[int, Card], ...]
    last_trick: TrickRecord | None
    tricks: tuple[int, int]
    score: tuple[int, int]
    games: tuple[int, int]
    claim: tuple[int, int] | None
    seating: tuple[int | None, ...]
    controllers: tuple[int | None, ...]
    sitting_out: int | None
    results: tuple[DealResult, ...]
    honour_holders: tuple[tuple[int | None, ...], ...]
    totals: tuple[int, ...]
    winners: tuple[int, ...]

    def legal_actions(self) -> tuple[Action, ...]:
        """Return the seat's legal actions now, sorted (the state's own list)."""
        return self.legal

    @property
    def hand(self) -> tuple[Card, ...]:
        """Return the cards of ``seat``'s hand as this view shows them (empty if hidden)."""
        if self.seat is None:
            return ()
        return self.hands[self.seat] or ()

    @property
    def led(self) -> Suit | None:
        """Return the suit led to the trick in progress, if a card has been led."""
        return self.trick[0][1].suit if self.trick else None

    def to_dict(self) -> dict[str, Any]:
        """Return the view as plain JSON-ready data (cards as codes like ``"TS"``, seats as
        letters)."""
        last = self.last_trick
        return {
            "seat": _letter(self.seat),
            "player": self.player,
            "variant": self.variant,
            "phase": self.phase.value,
            "deal": self.deal,
            "game": self.game,
            "rubber": self.rubber,
            "dealer": _letter(self.dealer),
            "trump": None if self.trump is None else self.trump.letter,
            "turnup": None if self.turnup is None else self.turnup.code,
            "to_play": _letter(self.to_play),
            "to_act": [SEAT_LETTERS[s] for s in self.to_act],
            "legal": [str(action) for action in self.legal],
            "hands": [_codes(hand) for hand in self.hands],
            "counts": list(self.counts),
            "discarded": _codes(self.discarded),
            "chosen": list(self.chosen),
            "exchanged": list(self.exchanged),
            "trick": [[SEAT_LETTERS[s], card.code] for s, card in self.trick],
            "last_trick": None
            if last is None
            else {
                "number": last.number,
                "leader": SEAT_LETTERS[last.leader],
                "cards": [[SEAT_LETTERS[s], card.code] for s, card in last.cards],
                "winner": SEAT_LETTERS[last.winner],
            },
            "tricks": list(self.tricks),
            "score": list(self.score),
            "games": list(self.games),
            "claim": None if self.claim is None else [SEAT_LETTERS[self.claim[0]], self.claim[1]],
            "seating": list(self.seating),
            "controllers": [_letter(s) for s in self.controllers],
            "sitting_out": self.sitting_out,
            "results": [
                {
                    "deal": r.deal,
                    "game": r.game,
                    "rubber": r.rubber,
                    "dealer": SEAT_LETTERS[r.dealer],
                    "trump": r.trump.letter,
                    "tricks": list(r.tricks),
                    "honours": list(r.honours),
                    "honour_holders": [_letter(s) for s in holders],
                    "points": list(r.points),
                    "slam": list(r.slam),
                    "score": list(r.score),
                    "game_winner": r.game_winner,
                    "game_value": r.game_value,
                    "rubber_winner": r.rubber_winner,
                    "rubber_value": r.rubber_value,
                    "totals": list(r.totals),
                }
                for r, holders in zip(self.results, self.honour_holders, strict=True)
            ],
            "totals": list(self.totals),
            "winners": list(self.winners),
        }


# --------------------------------------------------------------------------------------
# The state


class WhistState(State[WhistView, Action, WhistOptions]):
    """One unit of whist play in progress (a rubber, a tournée …). Change it only with
    :meth:`apply`; the variants are subclasses (:data:`VARIANTS`)."""

    variant: ClassVar[str] = "short"
    title: ClassVar[str] = "Short whist"
    _NEXT: ClassVar[tuple[int, ...]] = (1, 2, 3, 0)
    """The hand after each in a trick."""
    _TRICK_SIZE: ClassVar[int] = 4
    _SIDE: ClassVar[tuple[int | None, ...]] = (0, 1, 0, 1)
    _CONTROLLER: ClassVar[tuple[int | None, ...]] = (0, 1, 2, 3)
    _TURNUP_ALWAYS_SHOWN: ClassVar[bool] = False
    _CLAIMS: ClassVar[bool] = False
    _PARTNER_WEIGHT: ClassVar[int] = 1
    """How many times the player at S counts his side's figure (a dummy's partner: 2)."""

    seed: int
    options: WhistOptions
    _order: tuple[int, ...]
    _player_at: tuple[int | None, ...]
    _sitting_out: int | None
    _deal: int
    _game: int
    _rubber: int
    _dealer: int
    _hands: list[tuple[Card, ...]]
    _unused: tuple[Card, ...]
    _turnup: Card | None
    _turnup_shown: bool
    _trump: Suit | None
    _phase: Phase
    _to_play: int | None
    _leader: int
    _trick_seats: list[int]
    _trick_cards: list[Card]
    _last: TrickRecord | None
    _completed: int
    _tricks: list[int]
    _honours: tuple[int, int]
    _holders: tuple[int | None, ...]
    _score: tuple[int, int]
    _games: list[int]
    _game_values: list[list[int]]
    _slams: list[int]
    _choices: list[Kind | None]
    _revealed: bool
    _discarded: list[tuple[Card, ...] | None]
    _claim: tuple[int, int] | None
    _claim_blocked: bool
    _totals: tuple[int, ...]
    _rounds: list[tuple[int, ...]]
    _results: tuple[DealResult, ...]
    _all_holders: tuple[tuple[int | None, ...], ...]
    _winners: tuple[int, ...]
    _units_done: int
    _moves: list[tuple[int, Action]]
    _logged: tuple[Move, ...]
    _turn: int
    _legal: tuple[Action, ...] | None

    # --- setting up (hooks) --------------------------------------------------------

    @classmethod
    def start(cls, seed: int, options: WhistOptions) -> WhistState:
        """Return the unit of play dealt from ``seed``: seats drawn, the first deal made."""
        state = cls.__new__(cls)
        state.seed = seed
        state.options = options
        rng = random.Random(f"whist:{seed}:table")
        state._order = state._draw_order(rng)
        first_dealer = state._draw_first_dealer(rng)
        state._deal = 1
        state._game = 1
        state._rubber = 1
        state._units_done = 0
        state._score = (0, 0)
        state._games = [0, 0]
        state._game_values = [[], []]
        state._slams = [0, 0]
        state._totals = (0,) * options.player_count
        state._rounds = []
        state._results = ()
        state._all_holders = ()
        state._winners = ()
        state._moves = []
        state._logged = ()
        state._turn = 0
        state._seat_players()
        state._dealer = first_dealer
        state._start_deal()
        return state

    def _draw_order(self, rng: random.Random) -> tuple[int, ...]:
        """Return ``order``: the players at N E S W, seeded only with ``random_seating``."""
        if self.options.random_seating:
            return tuple(rng.sample(range(4), 4))
        return (0, 1, 2, 3)

    def _draw_first_dealer(self, rng: random.Random) -> int:
        """Return the first dealer: any seat, from the seed."""
        return rng.randrange(4)

    def _seat_players(self) -> None:
        """Seat the players for the current rubber or game (``_player_at``)."""
        self._player_at = self._order
        self._sitting_out = None

    def _next_dealer(self) -> int:
        """Return the next dealer within a rubber or game: the seat on the dealer's left."""
        return self._NEXT[self._dealer]

    def _unit_dealer(self) -> int | None:
        """Return who deals the first deal of every rubber or game, if the rules fix it."""
        return None

    def _deal_cards(self, deck: list[Card]) -> tuple[list[list[Card]], Card | None]:
        """Return the four hands dealt from ``deck`` and the turn-up: one card at a time from
        the dealer's left; the dealer's 13th card is turned."""
        dealer = self._dealer
        order = [(dealer + i) % 4 for i in (1, 2, 3, 4)]
        dealt = deal_round(deck, order, TRICKS)
        return [dealt[seat] for seat in SEATS], deck[4 * TRICKS - 1]

    def _first_leader(self) -> int:
        """Return who leads to trick 1: eldest hand, on the dealer's left."""
        return eldest(self._dealer)

    def _honour_seats(self) -> tuple[int, ...]:
        """Return the hands whose honours count."""
        return SEATS

    def _trick_award(self, tricks: tuple[int, int]) -> tuple[int, int] | None:
        return scoring.trick_points(tricks)

    def _honour_award(self, honours: tuple[int, int]) -> tuple[int, int] | None:
        return scoring.short_honour_points(honours)

    def _rubbers(self) -> int:
        """Return how many rubbers the unit of play has."""
        return 1

    # --- reading -------------------------------------------------------------------

    @property
    def phase(self) -> Phase:
        """Return what the deal is waiting for."""
        return self._phase

    @property
    def order(self) -> tuple[int, ...]:
        """Return the players in the order the rules seat them (see the rules file)."""
        return self._order

    @property
    def players(self) -> int:
        """Return the number of players."""
        return len(self._totals)

    @property
    def seats(self) -> int:
        """Return the number of hands (four, whoever plays them)."""
        return 4

    @property
    def deal(self) -> int:
        """Return the deal's number, counting every deal of the unit of play from 1."""
        return self._deal

    @property
    def game(self) -> int:
        """Return the game within the current rubber (Mort: within the tournée)."""
        return self._game

    @property
    def rubber(self) -> int | None:
        """Return the current rubber (Mort: ``None``)."""
        return self._rubber

    @property
    def dealer(self) -> int:
        """Return the dealer's seat."""
        return self._dealer

    @property
    def turnup(self) -> Card | None:
        """Return the card turned for trumps this deal, wherever it now lies (full state)."""
        return self._turnup

    @property
    def trump(self) -> Suit | None:
        """Return the trump suit (``None`` only before a Humbug dealer names it)."""
        return self._trump

    @property
    def to_play(self) -> int | None:
        """Return the hand whose card is due (in play and during a claim), else ``None``."""
        return self._to_play

    @property
    def tricks(self) -> tuple[int, int]:
        """Return the tricks each side has taken this deal."""
        return (self._tricks[0], self._tricks[1])

    @property
    def score(self) -> tuple[int, int]:
        """Return the game in progress per side (Mort: markers); ``(0, 0)`` when a game starts
        and once the unit is over."""
        return self._score

    @property
    def games(self) -> tuple[int, int]:
        """Return the games each side has won in the current rubber."""
        return (self._games[0], self._games[1])

    @property
    def is_over(self) -> bool:
        """Return whether the unit of play is over."""
        return self._phase is Phase.OVER

    @property
    def totals(self) -> tuple[int, ...]:
        """Return each player's total over the unit of play so far."""
        return self._totals

    @property
    def winners(self) -> tuple[int, ...]:
        """Return the players with the highest total once over (ties share); ``()`` before."""
        return self._winners

    @property
    def results(self) -> tuple[DealResult, ...]:
        """Return one :class:`DealResult` per scored deal."""
        return self._results

    @property
    def honour_holders(self) -> tuple[tuple[int | None, ...], ...]:
        """Return, per scored deal, the seats that held A K Q J of trumps as counted
        (``None``: nobody's, or a dead hand's)."""
        return self._all_holders

    @property
    def sitting_out(self) -> int | None:
        """Return the player sitting out this game (4-player Mort), else ``None``."""
        return None if self._phase is Phase.OVER else self._sitting_out

    @property
    def claim(self) -> tuple[int, int] | None:
        """Return the claim waiting for an answer: (claimer's seat, tricks), else ``None``."""
        return self._claim

    @property
    def trick(self) -> tuple[tuple[int, Card], ...]:
        """Return the trick in progress as ``(seat, card)`` pairs in play order."""
        return tuple(zip(self._trick_seats, self._trick_cards, strict=True))

    @property
    def last_trick(self) -> TrickRecord | None:
        """Return the last completed trick of this deal until the next card is led."""
        return self._last

    @property
    def completed(self) -> int:
        """Return how many tricks of this deal are complete."""
        return self._completed

    @property
    def turn(self) -> int:
        """Return the decision point: it rises with every action that leaves the game waiting
        for a new decision (a Humbug choice while the other player still chooses does not)."""
        return self._turn

    @property
    def moves(self) -> tuple[Move, ...]:
        """Return the move log since the start of the unit of play."""
        logged = self._logged
        if len(logged) < len(self._moves):
            logged += tuple(Move(seat, action) for seat, action in self._moves[len(logged) :])
            self._logged = logged
        return logged

    @property
    def move_count(self) -> int:
        """Return ``len(moves)``, cheaply."""
        return len(self._moves)

    @property
    def to_act(self) -> tuple[int, ...]:
        """Return the hands the game waits for, in seat order."""
        phase = self._phase
        if phase is Phase.PLAY:
            assert self._to_play is not None
            return (self._to_play,)
        if phase is Phase.CLAIM:
            assert self._claim is not None
            return (_PARTNER_OPPONENT[self._claim[0]],)
        if phase is Phase.EXCHANGE:
            return tuple(s for s in (NORTH, SOUTH) if self._can_choose(s))
        if phase is Phase.DECLARE:
            return (self._dealer,)
        return ()

    def hand(self, seat: int) -> tuple[Card, ...]:
        """Return the hand at ``seat``, sorted (full state: not for other eyes)."""
        return self._hands[seat]

    def unused(self) -> tuple[Card, ...]:
        """Return two-hand's 25 cards out of play this deal, sorted (full state)."""
        return self._unused

    def discarded(self, seat: int) -> tuple[Card, ...] | None:
        """Return the Humbug hand ``seat``'s player gave up this deal, if he exchanged."""
        return self._discarded[seat]

    def player_at(self, seat: int) -> int | None:
        """Return the player sitting at ``seat`` (``None``: a hand nobody sits at)."""
        return self._player_at[seat]

    def seat_of(self, player: int) -> int | None:
        """Return the seat of ``player`` (``None``: sitting out)."""
        for seat in SEATS:
            if self._player_at[seat] == player:
                return seat
        return None

    def controller(self, seat: int) -> int | None:
        """Return the seat whose player chooses the cards of the hand at ``seat``."""
        return self._CONTROLLER[seat]

    def side_of(self, seat: int) -> int | None:
        """Return the side of ``seat``: 0 (N-S; Humbug and two-hand N) or 1 (E-W; S)."""
        return self._SIDE[seat]

    def decider(self, seat: int) -> int | None:
        """Return the player who decides for the hand at ``seat`` (``None``: nobody)."""
        owner = self._CONTROLLER[seat]
        return None if owner is None else self._player_at[owner]

    def result(self) -> GameResult:
        """Return each player's total, the winners once over, and what each player gained in
        every settlement (a rubber; Mort: a game)."""
        rounds = tuple(tuple(r[p] for r in self._rounds) for p in range(self.players))
        return GameResult(self._totals, self._winners, rounds)

    def legal_actions(self, seat: int) -> tuple[Action, ...]:
        """Return the seat's legal actions now, sorted; ``()`` when it has nothing to do."""
        phase = self._phase
        if phase is Phase.PLAY:
            actions: tuple[Action, ...] = ()
            if seat == self._to_play:
                actions = self._legal if self._legal is not None else self._legal_cards()
            if (
                self._CLAIMS
                and not self._claim_blocked
                and self._to_play is not None
                and seat == self._CONTROLLER[self._to_play]
            ):
                actions += _CLAIMS[TRICKS - self._completed]
            return actions
        if phase is Phase.CLAIM:
            assert self._claim is not None
            return _ANSWERS if seat == _PARTNER_OPPONENT[self._claim[0]] else ()
        if phase is Phase.EXCHANGE:
            return _CHOICES if self._can_choose(seat) else ()
        if phase is Phase.DECLARE:
            return _TRUMP_ACTIONS if seat == self._dealer else ()
        return ()

    def _legal_cards(self) -> tuple[Action, ...]:
        seat = self._to_play
        assert seat is not None
        led = self._trick_cards[0].suit if self._trick_cards else None
        legal = tuple([_PLAYS[card] for card in legal_cards(self._hands[seat], led)])
        self._legal = legal
        return legal

    def _can_choose(self, seat: int) -> bool:
        return seat in (NORTH, SOUTH) and self._choices[seat] is None

    def is_legal(self, seat: int, action: Action) -> bool:
        """Return whether ``seat`` may take ``action`` now."""
        return type(seat) is int and 0 <= seat <= 3 and action in self.legal_actions(seat)

    # --- views ---------------------------------------------------------------------

    def _dummy_on_view(self) -> bool:
        return False

    def _public_hands(self) -> tuple[int, ...]:
        """Return the hands on view to everyone now."""
        return ()

    def _turnup_on_view(self) -> Card | None:
        return self._turnup if self._turnup_shown else None

    def view(self, seat: int) -> WhistView:
        """Return everything the player deciding for the hand at ``seat`` may know now (for a
        hand nobody plays: what everyone may know)."""
        if type(seat) is not int or not 0 <= seat <= 3:
            raise InvalidActionError(
                f"There is no seat {seat!r} at a whist table.", reason="invalid-seat", seat=seat
            )
        owner = self._CONTROLLER[seat]
        return self._view(seat, owner, self.legal_actions(seat))

    def public_view(self) -> WhistView:
        """Return what the table shows everyone, spectators included."""
        return self._view(None, None, ())

    def _view(self, seat: int | None, owner: int | None, legal: tuple[Action, ...]) -> WhistView:
        hands = self._hands
        shown: list[tuple[Card, ...] | None] = [None, None, None, None]
        for s in self._public_hands():
            shown[s] = hands[s]
        discarded = None
        exchanged: list[bool | None] = [None, None, None, None]
        if self._revealed:
            exchanged = [None if c is None else c is Kind.EXCHANGE for c in self._choices]
        player = None
        if owner is not None:
            player = self._player_at[owner]
            for s in SEATS:
                if self._CONTROLLER[s] == owner:
                    shown[s] = hands[s]
            discarded = self._discarded[owner]
            choice = self._choices[owner]
            if choice is not None:
                exchanged[owner] = choice is Kind.EXCHANGE
        claim_ = self._claim
        return tuple.__new__(
            WhistView,
            (
                seat,
                player,
                self.variant,
                self._phase,
                self._deal,
                self._game,
                self.rubber,
                self._dealer,
                self._trump,
                self._turnup if self._turnup_shown else None,
                self._to_play,
                self.to_act,
                legal,
                tuple(shown),
                (len(hands[0]), len(hands[1]), len(hands[2]), len(hands[3])),
                discarded,
                tuple(c is not None for c in self._choices),
                tuple(exchanged),
                tuple(zip(self._trick_seats, self._trick_cards, strict=True)),
                self._last,
                (self._tricks[0], self._tricks[1]),
                self._score,
                (self._games[0], self._games[1]),
                claim_,
                self._player_at,
                self._CONTROLLER,
                self.sitting_out,
                self._results,
                self._all_holders,
                self._totals,
                self._winners,
            ),
        )

    def secrets(self, seat: int) -> frozenset[str]:
        """Return the card codes only the player deciding for ``seat`` may see now, as the
        leak check looks for them: the hand's cards not on public view, a Humbug player's
        discarded hand; for a dead hand, its cards no player has seen; two-hand's unused
        cards for E and W (nobody's)."""
        if self._phase is Phase.OVER:
            return frozenset()
        public: set[Card] = set()
        for s in self._public_hands():
            public.update(self._hands[s])
        turnup = self._turnup_on_view()
        if turnup is not None:
            public.add(turnup)
        cards = set(self._hands[seat]) - public
        owner = self._CONTROLLER[seat]
        if owner is None:
            for held in self._discarded:
                if held is not None:
                    cards.difference_update(held)
            cards.update(self._unused)
        elif owner == seat and self._discarded[seat] is not None:
            cards.update(self._discarded[seat] or ())
            cards -= public
        return frozenset(card.code for card in cards)

    def clone(self) -> WhistState:
        """Return an independent copy."""
        other = copy.copy(self)
        other._hands = list(self._hands)
        other._trick_seats = list(self._trick_seats)
        other._trick_cards = list(self._trick_cards)
        other._tricks = list(self._tricks)
        other._games = list(self._games)
        other._game_values = [list(v) for v in self._game_values]
        other._slams = list(self._slams)
        other._choices = list(self._choices)
        other._discarded = list(self._discarded)
        other._rounds = list(self._rounds)
        other._moves = list(self._moves)
        return other

    def __repr__(self) -> str:
        return (
            f"<{type(self).__name__} seed={self.seed} deal={self._deal} "
            f"phase={self._phase.value} moves={len(self._moves)}>"
        )

    # --- changing ------------------------------------------------------------------

    def apply(self, seat: int, action: Action) -> None:
        """Let the hand at ``seat`` take ``action`` (a card is played from that hand, whoever
        chooses it); raise an ``EngineError`` and change nothing if it may not."""
        if (
            seat == self._to_play
            and self._phase is Phase.PLAY
            and type(action) is Action
            and type(seat) is int
        ):
            legal = self._legal if self._legal is not None else self._legal_cards()
            if action in legal:
                card = action.card
                assert card is not None
                self._moves.append((seat, action))
                self._play(seat, card)
                return
        self._check(seat, action)
        self._moves.append((seat, action))
        kind = action.kind
        if kind == Kind.PLAY:
            assert action.card is not None
            self._play(seat, action.card)
        elif kind == Kind.CLAIM:
            self._turn += 1
            self._legal = None
            self._phase = Phase.CLAIM
            self._claim = (seat, action.number)
        elif kind == Kind.ACCEPT:
            assert self._claim is not None
            claimer, k = self._claim
            side = self._SIDE[claimer]
            assert side is not None
            remaining = TRICKS - self._completed
            self._tricks[side] += k
            self._tricks[_OTHER_SIDE[side]] += remaining - k
            self._turn += 1
            self._claim = None
            # The trick in progress and the cards still held are dropped.
            self._trick_cards = []
            self._trick_seats = []
            self._hands = [(), (), (), ()]
            self._end_deal()
        elif kind == Kind.REJECT:
            self._turn += 1
            self._claim = None
            self._claim_blocked = True
            self._phase = Phase.PLAY
        elif kind == Kind.TRUMP:
            self._turn += 1
            self._trump = Suit(action.number)
            self._choices[self._dealer] = Kind.KEEP
            self._phase = Phase.EXCHANGE
        else:
            self._choose(seat, Kind(kind))

    def _check(self, seat: object, action: object) -> None:
        """Raise the error that says why ``seat`` may not take ``action`` now (nothing if it
        may); changes nothing."""
        if type(seat) is not int or not 0 <= seat <= 3:
            raise InvalidActionError(
                f"There is no seat {seat!r} at a whist table: use 0-3 (N, E, S, W).",
                reason="invalid-seat",
                seat=seat,
            )
        if (
            type(action) is not Action
            or not isinstance(action.kind, int)
            or not 0 <= action.kind <= max(Kind)
        ):
            raise InvalidActionError(f"{action!r} is not a whist action.", reason="invalid-action")
        kind = Kind(action.kind)
        if kind == Kind.PLAY and type(action.card) is not Card:
            raise InvalidActionError(f"{action.card!r} is not a card.", reason="invalid-action")
        if kind == Kind.TRUMP and action.number not in (0, 1, 2, 3):
            raise InvalidActionError(f"{action.number!r} is not a suit.", reason="invalid-action")
        if kind == Kind.CLAIM and type(action.number) is not int:
            raise InvalidActionError(
                f"{action.number!r} is not a number of tricks.", reason="invalid-action"
            )
        if action in self.legal_actions(seat):
            return
        if self._phase is Phase.OVER:
            raise GameOverError("The game is over: nothing more can be played.")
        name = SEAT_NAMES[seat]
        phase = self._phase
        wanted = {
            Kind.PLAY: Phase.PLAY,
            Kind.TRUMP: Phase.DECLARE,
            Kind.KEEP: Phase.EXCHANGE,
            Kind.EXCHANGE: Phase.EXCHANGE,
            Kind.CLAIM: Phase.PLAY,
            Kind.ACCEPT: Phase.CLAIM,
            Kind.REJECT: Phase.CLAIM,
        }[kind]
        if kind == Kind.CLAIM and not self._CLAIMS:
            raise IllegalActionError(
                f"There are no claims in {self.title}.", reason="no-claims", variant=self.variant
            )
        if phase is not wanted:
            raise NotYourTurnError(
                f"“{action}” cannot be done now: the deal is in its {phase.value} phase.",
                reason="wrong-phase",
                phase=phase.value,
            )
        if kind == Kind.PLAY:
            card = action.card
            assert card is not None
            if seat != self._to_play:
                who = "" if self._to_play is None else f" {SEAT_NAMES[self._to_play]} plays next."
                raise NotYourTurnError(
                    f"It is not {name}'s turn to play.{who}",
                    reason="not-your-turn",
                    seat=seat,
                    to_play=self._to_play,
                )
            if card not in self._hands[seat]:
                raise IllegalActionError(
                    f"{card} is not in {name}'s hand.", reason="not-in-hand", card=card.code
                )
            led = self._trick_cards[0].suit
            raise IllegalActionError(
                f"{name} must follow suit: {led.plural} were led and {name} holds some.",
                reason="must-follow",
                suit=led.letter,
            )
        if (
            kind in (Kind.KEEP, Kind.EXCHANGE)
            and seat in (NORTH, SOUTH)
            and self._choices[seat] is not None
        ):
            raise NotYourTurnError(
                f"{name} has already chosen: the choice is final.", reason="already-chosen"
            )
        if (
            kind == Kind.CLAIM
            and self._to_play is not None
            and seat == self._CONTROLLER[self._to_play]
        ):
            if self._claim_blocked:
                raise IllegalActionError(
                    "Your claim was rejected: claim again after the next card is played.",
                    reason="claim-blocked",
                )
            remaining = TRICKS - self._completed
            raise IllegalActionError(
                f"You can claim 1 to {remaining} of the remaining tricks.",
                reason="claim-too-many",
                tricks=action.number,
                remaining=remaining,
            )
        raise NotYourTurnError(
            f"{name} has nothing to decide now.", reason="not-your-turn", seat=seat
        )

    def _play(self, seat: int, card: Card) -> None:
        hand = self._hands[seat]
        i = hand.index(card)
        self._hands[seat] = hand[:i] + hand[i + 1 :]
        self._turn += 1
        self._legal = None
        self._claim_blocked = False
        cards = self._trick_cards
        if not cards:
            self._last = None
            self._leader = seat
        if turns_down_turnup(self._dealer, seat, self._completed):
            self._turnup_shown = self._TURNUP_ALWAYS_SHOWN
        cards.append(card)
        self._trick_seats.append(seat)
        if len(cards) < self._TRICK_SIZE:
            self._to_play = self._NEXT[seat]
            return
        winner = self._trick_seats[trick_winner(cards, self._trump)]
        side = self._SIDE[winner]
        assert side is not None
        self._tricks[side] += 1
        self._completed += 1
        self._last = TrickRecord(
            self._completed,
            self._leader,
            tuple(zip(self._trick_seats, cards, strict=True)),
            winner,
        )
        self._trick_cards = []
        self._trick_seats = []
        if self._completed == TRICKS:
            self._end_deal()
        else:
            self._to_play = winner

    def _choose(self, seat: int, kind: Kind) -> None:
        """Record a Humbug keep/exchange; once every chooser has chosen, reveal and play."""
        self._choices[seat] = kind
        if any(self._can_choose(s) for s in (NORTH, SOUTH)):
            return  # the same decision point: the other player still chooses
        self._turn += 1
        self._revealed = True
        for s in (NORTH, SOUTH):
            if self._choices[s] is Kind.EXCHANGE:
                dead = _RIGHT[s]
                given = self._hands[s]
                self._discarded[s] = given
                self._hands[s] = self._hands[dead]
                self._hands[dead] = given
        self._begin_play()

    # --- deals ---------------------------------------------------------------------

    def _start_deal(self) -> None:
        rng = random.Random(f"whist:{self.seed}:deal:{self._deal}")
        deck = shuffled_deck(rng)
        hands, turnup = self._deal_cards(deck)
        self._deal_out(
            [tuple(sorted(hand)) for hand in hands],
            turnup,
            None if turnup is None else turnup.suit,
        )

    def _deal_out(
        self, hands: list[tuple[Card, ...]], turnup: Card | None, trump: Suit | None
    ) -> None:
        """Start a deal of ``hands`` (the turn-up shown while there is one): no trick
        played, no choice made, eldest hand to lead."""
        self._hands = hands
        self._unused = ()
        self._turnup = turnup
        self._turnup_shown = turnup is not None
        self._trump = trump
        self._trick_seats = []
        self._trick_cards = []
        self._last = None
        self._completed = 0
        self._tricks = [0, 0]
        self._choices = [None, None, None, None]
        self._revealed = False
        self._discarded = [None, None, None, None]
        self._claim = None
        self._claim_blocked = False
        self._legal = None
        self._to_play = None
        self._leader = self._first_leader()
        self._begin_deal()

    def _begin_deal(self) -> None:
        """Start the deal's first phase once the cards are dealt (play, for most)."""
        self._begin_play()

    def _begin_play(self) -> None:
        trump = self._trump
        assert trump is not None
        holders: list[int | None] = [None, None, None, None]
        counts = [0, 0]
        for seat in self._honour_seats():
            side = self._SIDE[seat]
            assert side is not None
            for card in self._hands[seat]:
                if card.suit is trump and card.rank >= Rank.JACK:
                    holders[HONOUR_RANKS.index(card.rank)] = seat
                    counts[side] += 1
        self._honours = (counts[0], counts[1])
        self._holders = tuple(holders)
        self._phase = Phase.PLAY
        self._leader = self._first_leader()
        self._to_play = self._leader
        self._legal = None

    def _deal_score(
        self, tricks: tuple[int, int]
    ) -> tuple[tuple[int, int], tuple[int, int], tuple[int, int]]:
        """Return the deal's points, the game score after it, and slam points per side."""
        result = scoring.deal_points(
            self._score, self._trick_award(tricks), self._honour_award(self._honours)
        )
        return result.points, result.score, (0, 0)

    def _end_deal(self) -> None:
        """Score the deal, settle a game or rubber it ends, and deal the next one."""
        tricks = (self._tricks[0], self._tricks[1])
        trump = self._trump
        assert trump is not None
        points, score, slam = self._deal_score(tricks)
        self._score = score
        game_winner = game_value = rubber_winner = rubber_value = None
        unit_over = False
        if score[0] >= scoring.GAME or score[1] >= scoring.GAME:
            game_winner = 0 if score[0] >= scoring.GAME else 1
            game_value, rubber_winner, rubber_value, unit_over = self._game_won(game_winner)
        result = DealResult(
            self._deal,
            self._game,
            self.rubber,
            self._dealer,
            trump,
            tricks,
            self._honours,
            points,
            slam,
            score,
            game_winner,
            game_value,
            rubber_winner,
            rubber_value,
            self._totals,
        )
        self._results = (*self._results, result)
        self._all_holders = (*self._all_holders, self._holders)
        self._legal = None
        if unit_over:
            self._phase = Phase.OVER
            self._to_play = None
            self._score = (0, 0)
            top = max(self._totals)
            self._winners = tuple(p for p, t in enumerate(self._totals) if t == top)
            return
        first = None
        if game_winner is not None:
            self._score = (0, 0)
            self._slams = [0, 0]
            if rubber_winner is not None or self.rubber is None:
                first = self._new_unit()
            else:
                self._game += 1
        self._dealer = first if first is not None else self._next_dealer()
        self._deal += 1
        self._start_deal()

    def _new_unit(self) -> int | None:
        """Start the next rubber: reseat, and return who deals first if the rules fix it."""
        self._rubber += 1
        self._game = 1
        self._games = [0, 0]
        self._game_values = [[], []]
        self._seat_players()
        return self._unit_dealer()

    def _game_won(self, side: int) -> tuple[int, int | None, int | None, bool]:
        """Settle a game ``side`` has won: return its value, the rubber's winner and value if
        it ends the rubber, and whether the unit of play is over."""
        loser = _OTHER_SIDE[side]
        value = scoring.game_bonus(self._score[loser])
        self._game_values[side].append(value)
        self._games[side] += 1
        if self._games[side] < 2:
            return value, None, None, False
        rubber = scoring.rubber_value(self._game_values[side], self._game_values[loser])
        self._settle(side, self._rubber_figure(side, rubber))
        self._units_done += 1
        return value, side, rubber, self._units_done >= self._rubbers()

    def _rubber_figure(self, side: int, value: int) -> int:
        """Return what one adversary of side 0 gains or loses (English Dummy's fixed dummy
        moves it one point towards the adversaries)."""
        return value

    def _settle(self, side: int, figure: int) -> None:
        """Credit ``figure`` to every player of ``side`` and debit it to every other seated
        player; the player at S counts his side's figure ``_PARTNER_WEIGHT`` times."""
        deltas = [0] * len(self._totals)
        for seat in SEATS:
            player = self._player_at[seat]
            seat_side = self._SIDE[seat]
            if player is None or seat_side is None:
                continue
            weight = self._PARTNER_WEIGHT if seat == SOUTH else 1
            deltas[player] += weight * (figure if seat_side == side else -figure)
        self._totals = tuple(t + d for t, d in zip(self._totals, deltas, strict=True))
        self._rounds.append(tuple(deltas))


_PARTNER_OPPONENT = (WEST, SOUTH, WEST, SOUTH)
"""Whose answer a claim awaits, by the claimer's seat (Double Dummy: S ↔ W)."""
_RIGHT = (WEST, NORTH, EAST, SOUTH)
"""The seat on each seat's right."""


# --------------------------------------------------------------------------------------
# The variants


class ShortWhist(WhistState):
    """§1: four players, N-S against E-W, one rubber."""


class EnglishDummy(WhistState):
    """§2: three players; dummy's partner plays S and the exposed dummy N; a tournée of three
    rubbers, each player partnering dummy once (``fixed_dummy``: one named player in every
    one of ``rubbers`` rubbers, conceding a rubber point each time)."""

    variant = "english_dummy"
    title = "English Dummy"
    _CONTROLLER = (SOUTH, EAST, SOUTH, WEST)
    _PARTNER_WEIGHT = 2

    def _draw_order(self, rng: random.Random) -> tuple[int, ...]:
        if self.options.fixed_dummy:
            return (self.options.dummy_player,) * self.options.rubbers
        return tuple(rng.sample(range(3), 3))

    def _draw_first_dealer(self, rng: random.Random) -> int:
        return NORTH

    def _unit_dealer(self) -> int | None:
        return NORTH

    def _seat_players(self) -> None:
        partner = self._order[self._rubber - 1]
        east, west = (p for p in range(3) if p != partner)
        self._player_at = (None, east, partner, west)
        self._sitting_out = None

    def _rubbers(self) -> int:
        return self.options.rubbers if self.options.fixed_dummy else 3

    def _rubber_figure(self, side: int, value: int) -> int:
        if not self.options.fixed_dummy:
            return value
        return value - 1 if side == 0 else value + 1

    def _dummy_on_view(self) -> bool:
        if self.options.dummy_shown == "on_deal":
            return True
        return self._completed > 0 or bool(self._trick_cards)

    def _public_hands(self) -> tuple[int, ...]:
        return (NORTH,) if self._dummy_on_view() else ()


class DoubleDummy(WhistState):
    """§3: two players, each with a dummy opposite (S with N, W with E); one rubber; claims."""

    variant = "double_dummy"
    title = "Double Dummy"
    _CONTROLLER = (SOUTH, WEST, SOUTH, WEST)
    _CLAIMS = True

    def _draw_order(self, rng: random.Random) -> tuple[int, ...]:
        first = rng.randrange(2)
        return (first, 1 if first == 0 else 0)

    def _draw_first_dealer(self, rng: random.Random) -> int:
        return NORTH

    def _seat_players(self) -> None:
        self._player_at = (None, None, self._order[0], self._order[1])
        self._sitting_out = None

    def _public_hands(self) -> tuple[int, ...]:
        return SEATS if self.options.open_all else (NORTH, EAST)


class _TwoPlayers(WhistState):
    """Humbug and two-hand: players 0 at N and 1 at S, each a side; dealers alternate."""

    _NEXT = (SOUTH, SOUTH, NORTH, NORTH)
    _TRICK_SIZE = 2
    _SIDE = (0, None, 1, None)
    _CONTROLLER = (NORTH, None, SOUTH, None)

    def _draw_order(self, rng: random.Random) -> tuple[int, ...]:
        return (0, 1)

    def _draw_first_dealer(self, rng: random.Random) -> int:
        return rng.choice((NORTH, SOUTH))

    def _seat_players(self) -> None:
        self._player_at = (0, None, 1, None)
        self._sitting_out = None

    def _honour_seats(self) -> tuple[int, ...]:
        return (NORTH, SOUTH)

    def _first_leader(self) -> int:
        """Return who leads to trick 1: the dealer's adversary."""
        return self._NEXT[self._dealer]


class Humbug(_TwoPlayers):
    """§4: two players at N and S and two dead hands; each may exchange his hand for the
    unseen one on his right; Humbug honours."""

    variant = "humbug"
    title = "Humbug"

    def _deal_cards(self, deck: list[Card]) -> tuple[list[list[Card]], Card | None]:
        hands, turnup = super()._deal_cards(deck)
        return hands, None if self.options.humbug_declared else turnup

    def _begin_deal(self) -> None:
        self._phase = Phase.DECLARE if self.options.humbug_declared else Phase.EXCHANGE

    def _honour_award(self, honours: tuple[int, int]) -> tuple[int, int] | None:
        return scoring.humbug_honour_points(honours)


class TwoHand(_TwoPlayers):
    """§5: two players, thirteen cards each; the 27th card turned for trumps is nobody's;
    only the odd trick scores."""

    variant = "two_hand"
    title = "Two-hand whist"
    _TURNUP_ALWAYS_SHOWN = True

    def _deal_cards(self, deck: list[Card]) -> tuple[list[list[Card]], Card | None]:
        dealer = self._dealer
        dealt = deal_round(deck, (self._NEXT[dealer], dealer), TRICKS)
        hands: list[list[Card]] = [[], [], [], []]
        for seat, cards in dealt.items():
            hands[seat] = cards
        return hands, deck[2 * TRICKS]

    def _start_deal(self) -> None:
        super()._start_deal()
        out = {*self._hands[NORTH], *self._hands[SOUTH], self._turnup}
        self._unused = tuple(sorted(card for card in DECK if card not in out))

    def _honour_seats(self) -> tuple[int, ...]:
        return ()

    def _trick_award(self, tricks: tuple[int, int]) -> tuple[int, int] | None:
        return scoring.odd_trick_points(tricks)

    def _honour_award(self, honours: tuple[int, int]) -> tuple[int, int] | None:
        return None


class Mort(WhistState):
    """§6: three or four players; Vivant plays S and the exposed Mort N against L (E) and R
    (W); a tournée of one game per player; points beyond five kept; slams 20."""

    variant = "mort"
    title = "Mort"
    _CONTROLLER = (SOUTH, EAST, SOUTH, WEST)
    _PARTNER_WEIGHT = 2

    @property
    def rubber(self) -> int | None:
        """Return ``None``: Mort has games, not rubbers."""
        return None

    def _draw_order(self, rng: random.Random) -> tuple[int, ...]:
        return tuple(rng.sample(range(self.options.player_count), self.options.player_count))

    def _draw_first_dealer(self, rng: random.Random) -> int:
        return SOUTH

    def _unit_dealer(self) -> int | None:
        return SOUTH

    def _seat_players(self) -> None:
        order = self._order
        k = self._game
        vivant = order[k - 1]
        sitter = order[(k - 2) % 4] if len(order) == 4 else None
        adversaries = [p for p in order if p not in (vivant, sitter)]
        random.Random(f"whist:{self.seed}:game:{k}").shuffle(adversaries)
        self._player_at = (None, adversaries[0], vivant, adversaries[1])
        self._sitting_out = sitter

    def _dummy_on_view(self) -> bool:
        if self.options.dummy_shown == "on_deal":
            return True
        return self._completed > 0 or bool(self._trick_cards)

    def _public_hands(self) -> tuple[int, ...]:
        return (NORTH,) if self._dummy_on_view() else ()

    def _deal_score(
        self, tricks: tuple[int, int]
    ) -> tuple[tuple[int, int], tuple[int, int], tuple[int, int]]:
        for side in (0, 1):
            if tricks[side] == TRICKS:
                self._slams[side] += scoring.SLAM_POINTS
                slam = (scoring.SLAM_POINTS, 0) if side == 0 else (0, scoring.SLAM_POINTS)
                return (0, 0), self._score, slam
        result = scoring.deal_points(
            self._score,
            self._trick_award(tricks),
            self._honour_award(self._honours),
            keep_excess=True,
        )
        return result.points, result.score, (0, 0)

    def _game_won(self, side: int) -> tuple[int, int | None, int | None, bool]:
        loser = _OTHER_SIDE[side]
        value = scoring.mort_game_value(
            self._score[side], self._score[loser], self._slams[side], self._slams[loser]
        )
        self._settle(side, value)
        self._units_done += 1
        return value, None, None, self._units_done >= len(self._order)

    def _new_unit(self) -> int | None:
        self._game += 1
        self._seat_players()
        return self._unit_dealer()


VARIANTS: dict[str, type[WhistState]] = {
    cls.variant: cls for cls in (ShortWhist, EnglishDummy, DoubleDummy, Humbug, TwoHand, Mort)
}
"""The variants by name, in the rules file's order."""


def new_game(seed: int, options: WhistOptions | None = None) -> WhistState:
    """Return a new unit of play (a rubber, a tournée …) dealt from ``seed``."""
    if type(seed) is not int:
        raise OptionsError(f"A game's seed must be a whole number, not {seed!r}.", reason="seed")
    if options is None:
        options = WhistOptions()
    elif not isinstance(options, WhistOptions):
        raise OptionsError(f"{options!r} are not whist options.", reason="options")
    return VARIANTS[options.variant].start(seed, options)


def replay(seed: int, options: WhistOptions | None, moves: Iterable[Move | str]) -> WhistState:
    """Return the state reached by ``moves`` (objects or their text, ``N:QH``) from
    ``new_game(seed, options)``; an illegal move raises as :meth:`WhistState.apply` does."""
    state = new_game(seed, options)
    for move in moves:
        if isinstance(move, str):
            move = Move.parse(move)
        state.apply(move.seat, move.action)
    return state
