"""Dukes Up!, exactly as ``docs/rules/dukes_up.md`` decides it.

One :class:`DukesUpState` plays one match: each round deals both seats' 26 cards, both choose
castle, dukes and hand at once (phase ``choose``), then the seats take turns (``turn``) until
a capture, an exhaustion, the turn limit or an agreement scores the round; after the last
round (or a resignation) the phase is ``over``.

**A turn** is T0 (automatic, at the turn's start), one draw, any number of T2 actions on a
private *working copy* (:class:`Board`), and an end step (a discard or ``finish``) that
commits the working copy. The draw and A7 (``reveal``) are committed at once, so the opponent
sees them at once; every other change is seen only when the turn ends. Undo pops the last
action in effect; reset returns to just after the draw, keeping A7.

**Refusals** raise :class:`Refusal` (an ``IllegalActionError``) whose ``condition`` names the
first failed check in the binding order: ``OVER PHASE TURN DRAW``, then the action's own
(``SETUP SOURCE GROUP HELP LAYOUT FIRST_TURN DUKE CASTLE UNDO FINISH EXHAUSTED E1 E2 E3 E4
D1 D2 D3 D4 AGREE``); its ``reason`` is the same word in lower case (``first-turn``). Nothing
changes on a refusal: every check runs before the first change. Something that is not an
action of this game at all, or a seat other than 0 and 1, raises ``InvalidActionError``.

**Chance** comes only from the seed: the first player, each deal's shuffles (one per seat
and round) and each refill (counted per seat and round) each draw from their own
``random.Random`` seeded with a string naming the event, so the seed and the move log
replay a match exactly.

**``turn`` and the decision point.** The binding API makes ``state.turn`` the turn number
within the round (0 during ``choose``), so with ``rounds > 1`` it falls back to 0 at each
new deal; ``state.decision`` rises with every accepted action and never falls — it is what
a front end should stamp on its buttons.

**Legal actions.** Arbitrary regroupings make the full set of T2 actions unbounded in
practice, and the binding section defines no enumeration, so :meth:`DukesUpState.legal_actions`
lists a finite, sensible subset for computer players and the simulator; :meth:`apply`
accepts every legal action, listed or not. Listed: every setup choice (12); every legal
draw (n = 0 from either pile included); after the draw: ``new`` for every 3 source cards
that make a run or a set, ``add`` for every source card that extends a group into a valid
one, ``accept`` for each single source card the A4 search places in steps 1–2 (with
``arrangement_help = propose``), every ``pickup``, ``set`` only while E2 would still hold,
``reveal``, ``return``, ``undo`` and ``reset`` when they change something, and the end steps
that would be accepted now: ``finish``, ``d1`` for every hand card, ``d2`` for every pair of
hand cards in card order (the higher card ends on top), ``d3``, and a plain ``d4`` for every
card of the mover's colour whose group stays valid; ``end-round`` for a seat that has not
asked this turn. ``resign`` is never listed (it ends the match for whoever presses it, so it
is no move for a computer player).
"""

from __future__ import annotations

import copy
import random
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from itertools import combinations
from typing import Any, NamedTuple, TypeVar

from engine.cards import DECK, Card, Suit
from engine.dukes_up.actions import (
    END_ROUND,
    FINISH,
    RESET,
    RETURN,
    REVEAL,
    SEAT_LETTERS,
    SEAT_NAMES,
    UNDO,
    Action,
    Kind,
    Move,
    accept,
    add,
    discard,
    draw,
    new,
    pickup,
    set_duke,
    setup,
)
from engine.dukes_up.layout import (
    Group,
    colour,
    group_kind,
    is_valid_layout,
    offer_d4,
    propose_layout,
    replace_groups,
    sort_group,
)
from engine.dukes_up.options import DukesUpOptions
from engine.errors import (
    GameOverError,
    IllegalActionError,
    InvalidActionError,
    NotYourTurnError,
    OptionsError,
)
from engine.game import GameResult, State

__all__ = [
    "SEATS",
    "Board",
    "DukesUpState",
    "DukesUpView",
    "Phase",
    "Proposal",
    "Refusal",
    "RoundResult",
    "TurnSummary",
    "new_game",
    "position",
    "replay",
]

SEATS: tuple[int, int] = (0, 1)
_OTHER = (1, 0)
_OWN_CARDS: tuple[tuple[Card, ...], tuple[Card, ...]] = (
    tuple(c for c in DECK if c.suit in (Suit.CLUBS, Suit.SPADES)),
    tuple(c for c in DECK if c.suit in (Suit.HEARTS, Suit.DIAMONDS)),
)


class Phase(StrEnum):
    """Where the round stands."""

    CHOOSE = "choose"
    TURN = "turn"
    OVER = "over"


class Refusal(IllegalActionError):
    """A well-formed action the rules refuse now; ``condition`` names the failed check."""

    def __init__(self, condition: str, message: str, **params: Any) -> None:
        super().__init__(
            message, reason=condition.lower().replace("_", "-"), condition=condition, **params
        )
        self.condition = condition


class _OverRefusal(Refusal, GameOverError):
    """``OVER``: the match is over."""


class _TurnRefusal(Refusal, NotYourTurnError):
    """``TURN``: the seat has nothing of this kind to decide now."""


def _refuse(condition: str, message: str, **params: Any) -> Refusal:
    if condition == "OVER":
        return _OverRefusal(condition, message, **params)
    if condition == "TURN":
        return _TurnRefusal(condition, message, **params)
    return Refusal(condition, message, **params)


class Board(NamedTuple):
    """What T2 actions change: the table (groups in order) and each seat's hand and dukes.

    Castles are not here: a castle is in its slot unless its card is on the table, and
    whether it is face-up is committed at once (T0, A7)."""

    table: tuple[Group, ...]
    hands: tuple[tuple[Card, ...], tuple[Card, ...]]
    dukes: tuple[tuple[Card, ...], tuple[Card, ...]]

    def on_table(self, card: Card | None) -> bool:
        """Return whether ``card`` lies in one of the table's groups."""
        return card is not None and any(card in g for g in self.table)


class RoundResult(NamedTuple):
    """How a round was scored: ``end`` is ``capture``, ``exhaustion``, ``turn-limit`` or
    ``agreement``; ``winner`` ``None`` on a draw; both castles and hands revealed."""

    round: int
    end: str
    scores: tuple[int, int]
    winner: int | None
    castles: tuple[Card | None, Card | None]
    hands: tuple[tuple[Card, ...], tuple[Card, ...]]


class TurnSummary(NamedTuple):
    """The public summary of a completed turn ("What each player sees", turn summary).

    ``pile``/``n``: the draw; ``placed``: cards from the hand now on the table; ``taken``:
    the opponent's dukes placed; ``captured``: the opponent's castle, if placed;
    ``picked_up``/``set``: own dukes picked up and set; ``flipped``: the castle turned up
    at T0; ``revealed``: A7; ``discard``: the option (``d1``…``d4``, ``finish``), ``card``
    the D4 card only (it was face-up on the table)."""

    seat: int
    turn: int
    pile: str
    n: int
    placed: tuple[Card, ...]
    taken: tuple[Card, ...]
    captured: Card | None
    picked_up: tuple[Card, ...]
    set: tuple[Card, ...]
    flipped: bool
    revealed: bool
    discard: str
    card: Card | None


class Proposal(NamedTuple):
    """A4's offer: found at ``step`` (1–3); ``replaced`` the group numbers it replaces
    (``()`` at step 1, all at step 3); ``groups`` the new groups; ``layout`` the whole
    resulting table; ``action`` the ``accept:`` action applying it."""

    step: int
    replaced: tuple[int, ...]
    groups: tuple[Group, ...]
    layout: tuple[Group, ...]
    action: Action


def _codes(cards: Iterable[Card]) -> list[str]:
    return [c.code for c in cards]


@dataclass(frozen=True, slots=True)
class DukesUpView:
    """What one seat (or, with ``seat`` ``None``, everyone) may know now.

    ``table``/``dukes``/``hands``: the mover's working copy for the mover during its turn,
    else the committed board; ``castles[s]``: the card if in its slot and face-up or the
    viewer's own, ``"down"`` if face-down, ``None`` if on the table or not (yet) visible;
    ``hand``: the viewer's cards (``None`` for spectators); ``discard``: the viewer's own pile
    from the top under ``open`` memory (D3 cards ``None``), else ``None``; ``setup``: the
    viewer's four cards until confirmed; ``actions``: the mover's actions in effect (its own
    view only); ``d0``: the mover's dukes at T0; ``legal``: ``seat``'s listed legal actions.
    """

    seat: int | None
    phase: Phase
    round: int
    turn: int
    to_act: tuple[int, ...]
    mover: int | None
    first_player: int
    table: tuple[Group, ...]
    dukes: tuple[tuple[Card, ...] | None, tuple[Card, ...] | None]
    castles: tuple[Card | str | None, Card | str | None]
    castle_up: tuple[bool, bool]
    hand: tuple[Card, ...] | None
    hand_sizes: tuple[int, int]
    draw_sizes: tuple[int, int]
    discard_sizes: tuple[int, int]
    discard: tuple[Card | None, ...] | None
    setup: tuple[Card, ...]
    drawn: bool
    exhausted: bool
    d0: int
    actions: tuple[Action, ...]
    agreed: tuple[bool, bool]
    scores: tuple[int, int]
    last_turn: TurnSummary | None
    results: tuple[RoundResult, ...]
    totals: tuple[int, int]
    winners: tuple[int, ...]
    max_turns: int
    slot_weight: int
    arrangement_help: str
    legal: tuple[Action, ...]

    def legal_actions(self) -> tuple[Action, ...]:
        """Return the seat's listed legal actions now, sorted."""
        return self.legal

    def to_dict(self) -> dict[str, Any]:
        """Return the view as plain JSON-ready data (cards as codes like ``"TS"``)."""

        def castle(c: Card | str | None) -> str | None:
            return c.code if isinstance(c, Card) else c

        last = self.last_turn
        return {
            "seat": None if self.seat is None else SEAT_LETTERS[self.seat],
            "phase": self.phase.value,
            "round": self.round,
            "turn": self.turn,
            "to_act": list(self.to_act),
            "first_player": self.first_player,
            "table": [_codes(g) for g in self.table],
            "dukes": [None if d is None else _codes(d) for d in self.dukes],
            "castles": [castle(c) for c in self.castles],
            "castle_up": list(self.castle_up),
            "hand": None if self.hand is None else _codes(self.hand),
            "hand_sizes": list(self.hand_sizes),
            "draw_sizes": list(self.draw_sizes),
            "discard_sizes": list(self.discard_sizes),
            "discard": None
            if self.discard is None
            else ["?" if c is None else c.code for c in self.discard],
            "setup": _codes(self.setup),
            "drawn": self.drawn,
            "exhausted": self.exhausted,
            "d0": self.d0,
            "actions": [str(a) for a in self.actions],
            "agreed": list(self.agreed),
            "scores": list(self.scores),
            "last_turn": None
            if last is None
            else {
                "seat": last.seat,
                "turn": last.turn,
                "pile": last.pile,
                "n": last.n,
                "placed": _codes(last.placed),
                "taken": _codes(last.taken),
                "captured": None if last.captured is None else last.captured.code,
                "picked_up": _codes(last.picked_up),
                "set": _codes(last.set),
                "flipped": last.flipped,
                "revealed": last.revealed,
                "discard": last.discard,
                "card": None if last.card is None else last.card.code,
            },
            "results": [
                {
                    "round": r.round,
                    "end": r.end,
                    "scores": list(r.scores),
                    "winner": r.winner,
                    "castles": [None if c is None else c.code for c in r.castles],
                    "hands": [_codes(h) for h in r.hands],
                }
                for r in self.results
            ],
            "totals": list(self.totals),
            "winners": list(self.winners),
            "max_turns": self.max_turns,
            "legal": [str(a) for a in self.legal],
        }


def _without(cards: tuple[Card, ...], gone: Iterable[Card]) -> tuple[Card, ...]:
    drop = set(gone)
    return tuple(c for c in cards if c not in drop)


_T = TypeVar("_T")


def _pair(a: _T, b: _T) -> tuple[_T, _T]:
    return (a, b)


class DukesUpState(State[DukesUpView, Action, DukesUpOptions]):
    """One match of Dukes Up! in progress. Change it only with :meth:`apply`."""

    players = 2

    def __init__(self, seed: int, options: DukesUpOptions) -> None:
        self.seed = seed
        self._options = options
        self._moves: list[Move] = []
        self._decision = 0
        self._results: list[RoundResult] = []
        self._totals = [0, 0]
        self._winners: tuple[int, ...] = ()
        self._phase = Phase.CHOOSE
        self._round = 0
        self._first = random.Random(f"dukes_up:{seed}:first").randrange(2)
        self._summary: TurnSummary | None = None
        self._legal: dict[int, tuple[Action, ...]] = {}
        self._deal(1, self._first)

    # --- dealing and turns ------------------------------------------------------------

    def _deal(self, round_no: int, first: int) -> None:
        """Deal round ``round_no``: each seat's own 26 cards, shuffled; the top 4 are its
        setup cards (piles keep their top last)."""
        self._round = round_no
        self._first = first
        self._phase = Phase.CHOOSE
        self._turn = 0
        self._mover = first
        setups: list[tuple[Card, ...]] = []
        draws: list[tuple[Card, ...]] = []
        for seat in SEATS:
            cards = list(_OWN_CARDS[seat])
            random.Random(f"dukes_up:{self.seed}:deal:{round_no}:{seat}").shuffle(cards)
            setups.append(tuple(cards[-4:]))
            draws.append(tuple(cards[:-4]))
        self._setup = setups
        self._draw = draws
        self._discard: list[tuple[tuple[Card, bool], ...]] = [(), ()]
        self._refills = [0, 0]
        self._confirmed = [False, False]
        self._castle: list[Card | None] = [None, None]
        self._castle_up = [False, False]
        self._board = Board((), ((), ()), ((), ()))
        self._work = self._board
        self._post_draw = self._board
        self._stack: list[tuple[Action, Board]] = []
        self._d0 = 0
        self._drawn = False
        self._exhausted = False
        self._agreed = [False, False]
        self._flipped = False
        self._revealed = False
        self._pile = ""
        self._n = 0
        self._summary = None

    def _start_turn(self, mover: int) -> None:
        """Start ``mover``'s turn: T0 turns a castle with no dukes in front of it face-up."""
        self._mover = mover
        self._flipped = False
        if not self._board.dukes[mover] and not self._castle_up[mover]:
            self._castle_up[mover] = True
            self._flipped = True
        self._d0 = len(self._board.dukes[mover])
        self._drawn = False
        self._exhausted = False
        self._stack = []
        self._agreed = [False, False]
        self._revealed = False
        self._pile = ""
        self._n = 0
        self._work = self._board
        self._post_draw = self._board

    def _refill(self, seat: int) -> None:
        """Shuffle ``seat``'s discard pile into a new draw pile if the draw pile is empty."""
        if self._draw[seat] or not self._discard[seat]:
            return
        cards = [c for c, _ in self._discard[seat]]
        self._refills[seat] += 1
        random.Random(
            f"dukes_up:{self.seed}:refill:{self._round}:{seat}:{self._refills[seat]}"
        ).shuffle(cards)
        self._draw[seat] = tuple(cards)
        self._discard[seat] = ()

    def _score_round(self, end: str) -> None:
        scores = self.score()
        winner = None if scores[0] == scores[1] else (0 if scores[0] > scores[1] else 1)
        board = self._board
        self._results.append(
            RoundResult(
                self._round,
                end,
                scores,
                winner,
                (self._castle[0], self._castle[1]),
                (board.hands[0], board.hands[1]),
            )
        )
        if self._options.match_scoring == "cumulative":
            self._totals[0] += scores[0]
            self._totals[1] += scores[1]
        elif winner is not None:
            self._totals[winner] += 1
        if self._round < self._options.rounds:
            self._deal(self._round + 1, _OTHER[self._first])
        else:
            self._phase = Phase.OVER
            best = max(self._totals)
            self._winners = tuple(s for s in SEATS if self._totals[s] == best)

    # --- reading ----------------------------------------------------------------------

    @property
    def options(self) -> DukesUpOptions:
        """Return the match's options."""
        return self._options

    @property
    def phase(self) -> Phase:
        """Return ``choose``, ``turn`` or ``over``."""
        return self._phase

    @property
    def round(self) -> int:
        """Return the round being played (the last one once over), from 1."""
        return self._round

    @property
    def turn(self) -> int:
        """Return the turn number within the round (0 during ``choose``)."""
        return self._turn

    @property
    def decision(self) -> int:
        """Return the decision point: it rises with every accepted action, never falls."""
        return self._decision

    @property
    def first_player(self) -> int:
        """Return the round's first player."""
        return self._first

    @property
    def mover(self) -> int | None:
        """Return the seat whose turn it is (``None`` outside turns)."""
        return self._mover if self._phase is Phase.TURN else None

    @property
    def to_act(self) -> tuple[int, ...]:
        """Return the seats the game waits for: the choosers, or the mover."""
        if self._phase is Phase.CHOOSE:
            return tuple(s for s in SEATS if not self._confirmed[s])
        if self._phase is Phase.TURN:
            return (self._mover,)
        return ()

    @property
    def is_over(self) -> bool:
        """Return whether the match is over."""
        return self._phase is Phase.OVER

    @property
    def totals(self) -> tuple[int, int]:
        """Return the match totals (round scores added up, or rounds won)."""
        return (self._totals[0], self._totals[1])

    @property
    def winners(self) -> tuple[int, ...]:
        """Return the seats sharing the match win (``()`` before the end)."""
        return self._winners

    @property
    def results(self) -> tuple[RoundResult, ...]:
        """Return the scored rounds."""
        return tuple(self._results)

    @property
    def moves(self) -> tuple[Move, ...]:
        """Return the move log since the start of the match."""
        return tuple(self._moves)

    @property
    def move_count(self) -> int:
        """Return ``len(moves)``, cheaply."""
        return len(self._moves)

    @property
    def drawn(self) -> bool:
        """Return whether the mover has drawn this turn."""
        return self._drawn

    @property
    def exhausted(self) -> bool:
        """Return whether this turn is exhausted (it must end with ``finish``)."""
        return self._exhausted

    def score(self) -> tuple[int, int]:
        """Return ``(black, red)`` for the current round from the committed state: cards of
        one's colour on the table plus ``slot_weight`` per card in one's own slots."""
        board = self._board
        on_table = [c for g in board.table for c in g]
        weight = self._options.slot_weight
        counts = [0, 0]
        for card in on_table:
            counts[colour(card)] += 1
        placed = set(on_table)
        for seat in SEATS:
            castle = self._castle[seat]
            slots = len(board.dukes[seat]) + (castle is not None and castle not in placed)
            counts[seat] += weight * slots
        return (counts[0], counts[1])

    def can_layout(self, cards: Iterable[Card]) -> bool:
        """Return whether the cards can be laid out as runs and sets (the exact search)."""
        from engine.dukes_up.layout import can_layout

        return can_layout(cards)

    def pile(self, seat: int, which: str) -> tuple[Card, ...]:
        """Return a seat's ``draw``, ``discard`` or ``setup`` pile, top last. **Testing
        only**: this is the full hidden order, never for players or bots."""
        if which == "draw":
            return self._draw[seat]
        if which == "discard":
            return tuple(c for c, _ in self._discard[seat])
        if which == "setup":
            return self._setup[seat]
        raise ValueError(f"There is no pile {which!r}: draw, discard or setup.")

    def castle(self, seat: int) -> tuple[Card | None, bool]:
        """Return a seat's castle card and whether it is face-up (full state)."""
        return (self._castle[seat], self._castle_up[seat])

    def board(self, working: bool = False) -> Board:
        """Return the committed board, or with ``working`` the mover's working copy (full
        state: not for other eyes)."""
        return self._work if working else self._board

    def result(self) -> GameResult:
        """Return the match totals, the winners once over, and each seat's round scores (or
        rounds won, under ``wins``)."""
        if self._options.match_scoring == "cumulative":
            rounds = tuple(tuple(r.scores[s] for r in self._results) for s in SEATS)
        else:
            rounds = tuple(tuple(int(r.winner == s) for r in self._results) for s in SEATS)
        return GameResult(self.totals, self._winners, rounds)

    def controller(self, seat: int) -> int | None:
        """Return the seat deciding for ``seat``: itself."""
        return seat

    def player_at(self, seat: int) -> int | None:
        """Return the player at ``seat``: seat ``s`` is player ``s``."""
        return seat

    def clone(self) -> DukesUpState:
        """Return an independent copy."""
        other = copy.copy(self)
        for name in (
            "_moves",
            "_results",
            "_totals",
            "_setup",
            "_draw",
            "_discard",
            "_refills",
            "_confirmed",
            "_castle",
            "_castle_up",
            "_stack",
            "_agreed",
        ):
            setattr(other, name, list(getattr(self, name)))
        other._legal = {}
        return other

    def __repr__(self) -> str:
        return (
            f"<DukesUpState seed={self.seed} round={self._round} phase={self._phase.value} "
            f"turn={self._turn} moves={len(self._moves)}>"
        )

    # --- sources and checks -----------------------------------------------------------

    def _sources(self) -> list[Card]:
        """Return the mover's source cards in the working copy: hand, the opponent's dukes,
        a face-up castle in its slot (the opponent's, or one's own: THE MOVE)."""
        p = self._mover
        o = _OTHER[p]
        work = self._work
        cards = list(work.hands[p]) + list(work.dukes[o])
        for seat in (o, p):
            castle = self._castle[seat]
            if castle is not None and self._castle_up[seat] and not work.on_table(castle):
                cards.append(castle)
        return cards

    def _take_sources(self, work: Board, cards: Iterable[Card]) -> Board:
        p = self._mover
        o = _OTHER[p]
        cards = list(cards)
        hands = list(work.hands)
        dukes = list(work.dukes)
        hands[p] = _without(hands[p], cards)
        dukes[o] = _without(dukes[o], cards)
        return Board(work.table, _pair(*hands), _pair(*dukes))

    def _check_sources(self, cards: Sequence[Card], what: str) -> None:
        if len(set(cards)) != len(cards):
            raise _refuse("SOURCE", f"{what}: a card is named twice.")
        sources = set(self._sources())
        for card in cards:
            if card not in sources:
                raise _refuse(
                    "SOURCE",
                    f"{what}: {card} is not a source card (your hand, the opponent's dukes, "
                    "a face-up castle in its slot).",
                    card=card.code,
                )

    def _check_numbers(self, groups: Sequence[int], *, allow_none: bool) -> None:
        table = self._work.table
        if not groups and not allow_none:
            raise _refuse("GROUP", "Name at least one group.")
        if len(set(groups)) != len(groups):
            raise _refuse("GROUP", "A group is named twice.")
        for k in groups:
            if not 1 <= k <= len(table):
                raise _refuse("GROUP", f"There is no group G{k}.", group=k)

    def _end_failure(self, finishing: bool) -> tuple[str, str] | None:
        """Return the first of E1–E4 that fails for this end step, with why."""
        p = self._mover
        o = _OTHER[p]
        work = self._work
        for i, g in enumerate(work.table, 1):
            if group_kind(g) is None:
                return ("E1", f"G{i} is neither a run nor a set.")
        limit = self._d0 if self._d0 else 1
        if len(work.dukes[p]) > limit:
            return ("E2", f"You may end this turn with at most {limit} duke(s).")
        if work.on_table(self._castle[p]) and not finishing:
            return ("E3", "Your castle is on the table: the turn must end the round (finish).")
        if work.on_table(self._castle[o]):
            if work.dukes[o]:
                return ("E4", "The opponent's castle is still guarded by a duke.")
            if not finishing:
                return ("E4", "The opponent's castle is on the table: finish the round.")
        return None

    def _check(self, seat: object, action: object) -> None:
        """Raise ``InvalidActionError`` for something that is no action of this game."""
        if type(seat) is not int or seat not in SEATS:
            raise InvalidActionError(
                f"There is no seat {seat!r} at a Dukes Up! table: use 0 (B) or 1 (R).",
                reason="invalid-seat",
                seat=seat,
            )
        if type(action) is not Action or not isinstance(action.kind, Kind):
            raise InvalidActionError(
                f"{action!r} is not a Dukes Up! action.", reason="invalid-action"
            )
        shape_ok = all(type(c) is Card for c in action.cards) and all(
            type(c) is Card for g in action.partition for c in g
        )
        kind = action.kind
        if kind is Kind.SETUP:
            shape_ok &= len(action.cards) == 4
        elif kind is Kind.DRAW:
            shape_ok &= action.word in ("draw", "discard") and type(action.n) is int
        elif kind is Kind.NEW:
            shape_ok &= bool(action.cards)
        elif kind in (Kind.PICKUP, Kind.SET):
            shape_ok &= len(action.cards) == 1
        elif kind is Kind.ADD:
            shape_ok &= bool(action.cards) and len(action.groups) == 1
        elif kind in (Kind.REGROUP, Kind.ACCEPT):
            shape_ok &= bool(action.partition) and all(action.partition)
        elif kind is Kind.DISCARD:
            size = {"d1": 1, "d2": 2, "d3": 0, "d4": 1}.get(action.word)
            shape_ok &= size is not None and len(action.cards) == size
            shape_ok &= action.word == "d4" or not (action.groups or action.partition)
        if not shape_ok:
            raise InvalidActionError(f"{action!r} is not a well-formed Dukes Up! action.")

    def _common(self, seat: int, action: Action) -> None:
        """Run the checks every action shares: OVER, PHASE, TURN, DRAW."""
        name = SEAT_NAMES[seat]
        if self._phase is Phase.OVER:
            raise _refuse("OVER", "The match is over: nothing more can be played.")
        kind = action.kind
        if kind is Kind.RESIGN:
            return
        if kind is Kind.SETUP:
            if self._phase is not Phase.CHOOSE:
                raise _refuse("PHASE", "Setup is chosen only at the start of a round.")
            if self._confirmed[seat]:
                raise _refuse("TURN", f"{name} has already confirmed: the choice is final.")
            return
        if self._phase is not Phase.TURN:
            raise _refuse("PHASE", f"“{action}” is for the turns; the round is still choosing.")
        if kind is Kind.END_ROUND:
            return
        if seat != self._mover:
            raise _refuse("TURN", f"It is {SEAT_NAMES[self._mover]}'s turn, not {name}'s.")
        if kind is Kind.DRAW:
            if self._drawn:
                raise _refuse("DRAW", "You have already drawn this turn.")
            pile = self._draw[seat] if action.word == "draw" else self._discard[seat]
            if action.n > 2:
                raise _refuse("DRAW", "You draw 0, 1 or 2 cards.", n=action.n)
            if action.n > len(pile):
                raise _refuse(
                    "DRAW", f"Your {action.word} pile holds only {len(pile)} card(s).", n=action.n
                )
            hand = len(self._board.hands[seat])
            if action.n > 0 and hand + action.n > 4:
                raise _refuse(
                    "DRAW",
                    f"A draw may take your hand to 4 cards at most (it holds {hand}).",
                    n=action.n,
                )
        elif not self._drawn:
            raise _refuse("DRAW", "Draw first (0, 1 or 2 cards).")

    # --- applying ---------------------------------------------------------------------

    def apply(self, seat: int, action: Action) -> None:
        """Let ``seat`` take ``action``; raise :class:`Refusal` (naming the first failed
        check) or ``InvalidActionError`` and change nothing if it may not."""
        self._check(seat, action)
        self._common(seat, action)
        commit = self._prepare(seat, action)
        commit()
        self._moves.append(Move(seat, action))
        self._decision += 1
        self._legal = {}

    def is_legal(self, seat: int, action: Action) -> bool:
        """Return whether ``apply(seat, action)`` would be accepted now (changes nothing)."""
        try:
            self._check(seat, action)
            self._common(seat, action)
            self._prepare(seat, action)
        except (Refusal, InvalidActionError):
            return False
        return True

    def _prepare(self, seat: int, action: Action) -> Any:
        """Run the action's own checks; return the change to make (a closure)."""
        kind = action.kind
        if kind is Kind.SETUP:
            return self._prepare_setup(seat, action)
        if kind is Kind.DRAW:
            return lambda: self._do_draw(seat, action)
        if kind is Kind.END_ROUND:
            if self._agreed[seat]:
                raise _refuse("AGREE", "You have already asked to end the round this turn.")
            return lambda: self._do_agree(seat)
        if kind is Kind.RESIGN:
            return lambda: self._do_resign(seat)
        if kind in (Kind.FINISH, Kind.DISCARD):
            return self._prepare_end(seat, action)
        return self._prepare_t2(seat, action)

    def _prepare_setup(self, seat: int, action: Action) -> Any:
        castle, d1, d2, hand = action.cards
        if Counter(action.cards) != Counter(self._setup[seat]):
            raise _refuse(
                "SETUP",
                "Choose a castle, two dukes and a hand card from your four setup cards, each once.",
            )

        def commit() -> None:
            self._confirmed[seat] = True
            self._castle[seat] = castle
            hands = list(self._board.hands)
            dukes = list(self._board.dukes)
            hands[seat] = (hand,)
            dukes[seat] = (d1, d2)
            self._board = Board((), _pair(*hands), _pair(*dukes))
            self._work = self._board
            if all(self._confirmed):
                self._phase = Phase.TURN
                self._turn = 1
                self._start_turn(self._first)

        return commit

    def _do_draw(self, seat: int, action: Action) -> None:
        n = action.n
        board = self._board
        if action.word == "draw":
            pile = self._draw[seat]
            taken = pile[len(pile) - n :] if n else ()
            self._draw[seat] = pile[: len(pile) - n]
        else:
            entries = self._discard[seat]
            taken = tuple(c for c, _ in entries[len(entries) - n :]) if n else ()
            self._discard[seat] = entries[: len(entries) - n]
        hands = list(board.hands)
        hands[seat] = hands[seat] + taken
        self._board = Board(board.table, _pair(*hands), board.dukes)
        self._refill(seat)
        self._exhausted = not self._draw[seat] and not self._discard[seat]
        self._drawn = True
        self._pile = action.word
        self._n = n
        self._work = self._board
        self._post_draw = self._board

    def _do_agree(self, seat: int) -> None:
        self._agreed[seat] = True
        if all(self._agreed):
            self._work = self._board
            self._score_round("agreement")

    def _do_resign(self, seat: int) -> None:
        self._phase = Phase.OVER
        self._winners = (_OTHER[seat],)

    def _prepare_t2(self, seat: int, action: Action) -> Any:
        """Check a T2 action (A1–A8, undo, reset); return the change."""
        kind = action.kind
        work = self._work
        p = seat
        table = work.table
        new_work: Board | None = None
        if kind is Kind.NEW:
            self._check_sources(action.cards, "A new group")
            taken = self._take_sources(work, action.cards)
            new_work = taken._replace(table=(*table, tuple(action.cards)))
        elif kind is Kind.ADD:
            k = action.groups[0]
            if not 1 <= k <= len(table):
                raise _refuse("GROUP", f"There is no group G{k}.", group=k)
            self._check_sources(action.cards, f"Adding to G{k}")
            taken = self._take_sources(work, action.cards)
            grown = list(table)
            grown[k - 1] = grown[k - 1] + tuple(action.cards)
            new_work = taken._replace(table=tuple(grown))
        elif kind is Kind.REGROUP:
            self._check_numbers(action.groups, allow_none=False)
            named = Counter(c for k in action.groups for c in table[k - 1])
            if Counter(c for g in action.partition for c in g) != named:
                raise _refuse("GROUP", "A regrouping must hold exactly the named groups' cards.")
            new_work = work._replace(table=replace_groups(table, action.groups, action.partition))
        elif kind is Kind.ACCEPT:
            new_work = self._check_accept(action)
        elif kind in (Kind.PICKUP, Kind.SET):
            card = action.cards[0]
            if self._turn == 1:
                raise _refuse(
                    "FIRST_TURN",
                    "Dukes cannot be picked up or set on the first player's first turn.",
                )
            hands = list(work.hands)
            dukes = list(work.dukes)
            if kind is Kind.PICKUP:
                if card not in dukes[p]:
                    raise _refuse("DUKE", f"{card} is not one of your dukes.", card=card.code)
                dukes[p] = _without(dukes[p], (card,))
                hands[p] = (*hands[p], card)
            else:
                if card not in hands[p]:
                    raise _refuse("DUKE", f"{card} is not in your hand.", card=card.code)
                if len(dukes[p]) >= 2:
                    raise _refuse("DUKE", "Both your duke slots are full.")
                hands[p] = _without(hands[p], (card,))
                dukes[p] = (*dukes[p], card)
            new_work = Board(table, _pair(*hands), _pair(*dukes))
        elif kind is Kind.REVEAL:
            if self._castle_up[p]:
                raise _refuse("CASTLE", "Your castle is already face-up.")

            def reveal() -> None:
                self._castle_up[p] = True
                self._revealed = True
                self._stack.append((action, work))

            return reveal
        elif kind is Kind.RETURN:
            castle = self._castle[p]
            if not work.on_table(castle):
                raise _refuse("CASTLE", "Your castle is not on the table.")
            kept = tuple(g for g in (tuple(c for c in g if c != castle) for g in table) if g)
            new_work = work._replace(table=kept)
        elif kind is Kind.UNDO:
            if not self._stack or self._stack[-1][0].kind is Kind.REVEAL:
                raise _refuse(
                    "UNDO",
                    "Nothing to undo."
                    if not self._stack
                    else "Revealing your castle cannot be undone.",
                )

            def undo() -> None:
                _, before = self._stack.pop()
                self._work = before

            return undo
        elif kind is Kind.RESET:

            def reset() -> None:
                self._work = self._post_draw
                self._stack = [
                    (a, self._post_draw) for a, _ in self._stack if a.kind is Kind.REVEAL
                ]

            return reset
        assert new_work is not None

        def commit() -> None:
            self._stack.append((action, work))
            self._work = new_work

        return commit

    def _check_accept(self, action: Action) -> Board:
        if self._options.arrangement_help == "check-only":
            raise _refuse("HELP", "Arrangement help is off at this table (check-only).")
        work = self._work
        table = work.table
        self._check_numbers(action.groups, allow_none=True)
        cards = [c for g in action.partition for c in g]
        if len(set(cards)) != len(cards):
            raise _refuse("GROUP", "A card is named twice in the layout.")
        named = {c for k in action.groups for c in table[k - 1]}
        if not named <= set(cards):
            raise _refuse("GROUP", "The layout leaves out a card of a replaced group.")
        added = [c for c in cards if c not in named]
        if not added:
            raise _refuse("SOURCE", "The layout places no new card.")
        self._check_sources(added, "The layout")
        new_table = replace_groups(table, action.groups, action.partition)
        if not is_valid_layout(new_table):
            raise _refuse("LAYOUT", "The resulting table is not a valid layout.")
        return self._take_sources(work, added)._replace(table=new_table)

    def _prepare_end(self, seat: int, action: Action) -> Any:
        """Check an end step (finish or a discard); return the change."""
        p = seat
        o = _OTHER[p]
        work = self._work
        finishing = action.kind is Kind.FINISH
        if finishing:
            if not (work.on_table(self._castle[o]) or self._exhausted):
                raise _refuse(
                    "FINISH",
                    "You may finish only with the opponent's castle on the table or on an "
                    "exhausted turn.",
                )
        elif self._exhausted:
            raise _refuse("EXHAUSTED", "Both your piles are empty: this turn ends with finish.")
        failure = self._end_failure(finishing)
        if failure is not None:
            raise _refuse(failure[0], failure[1])
        if finishing:
            return lambda: self._commit_end(action, work, ())
        option = action.word
        hand = work.hands[p]
        if option == "d1":
            card = action.cards[0]
            if card not in hand:
                raise _refuse("D1", f"{card} is not in your hand.", card=card.code)
            after = work._replace(hands=self._hand_set(work, p, _without(hand, (card,))))
            return lambda: self._commit_end(action, after, ((card, True),))
        if option == "d2":
            a, b = action.cards
            if self._stack:
                raise _refuse("D2", "D2 needs a turn with no actions in effect.")
            if a == b or a not in hand or b not in hand:
                raise _refuse("D2", "D2 discards two different cards of your hand.")
            after = work._replace(hands=self._hand_set(work, p, _without(hand, (a, b))))
            return lambda: self._commit_end(action, after, ((a, True), (b, True)))
        if option == "d3":
            if not self._draw[p]:
                raise _refuse("D3", "Your draw pile is empty.")
            return lambda: self._commit_end(action, work, ())
        after = self._check_d4(p, action)
        return lambda: self._commit_end(action, after, ((action.cards[0], True),))

    def _hand_set(
        self, work: Board, seat: int, hand: tuple[Card, ...]
    ) -> tuple[tuple[Card, ...], tuple[Card, ...]]:
        hands = list(work.hands)
        hands[seat] = hand
        return _pair(*hands)

    def _check_d4(self, p: int, action: Action) -> Board:
        card = action.cards[0]
        work = self._work
        table = work.table
        if colour(card) != p:
            raise _refuse("D4", f"{card} is not of your colour.", card=card.code)
        if not work.on_table(card):
            raise _refuse("D4", f"{card} is not on the table.", card=card.code)
        if not action.partition:
            new_table = tuple(g for g in (tuple(c for c in g if c != card) for g in table) if g)
            if not is_valid_layout(new_table):
                raise _refuse(
                    "D4",
                    f"Without {card} its group is not valid: discard it with a regrouping.",
                    card=card.code,
                )
            return work._replace(table=new_table)
        groups = action.groups
        if not groups or len(set(groups)) != len(groups):
            raise _refuse("D4", "A D4 regrouping names each of its groups once.")
        if any(not 1 <= k <= len(table) for k in groups):
            raise _refuse("D4", "A D4 regrouping names a group that does not exist.")
        named = Counter(c for k in groups for c in table[k - 1])
        if named[card] != 1:
            raise _refuse("D4", f"The named groups do not hold {card}.", card=card.code)
        named[card] -= 1
        if Counter(c for g in action.partition for c in g) != +named:
            raise _refuse("D4", "The regrouping must hold exactly the named groups' other cards.")
        new_table = replace_groups(table, groups, action.partition)
        if not is_valid_layout(new_table):
            raise _refuse("D4", "The regrouping is not a valid layout.")
        return work._replace(table=new_table)

    def _commit_end(
        self, action: Action, work: Board, onto_discard: tuple[tuple[Card, bool], ...]
    ) -> None:
        """Commit the working copy and the end step; start the next turn or score."""
        p = self._mover
        o = _OTHER[p]
        before = self._board
        table_before = {c for g in before.table for c in g}
        table_after = {c for g in work.table for c in g}
        new_on_table = table_after - table_before
        option = "finish" if action.kind is Kind.FINISH else action.word
        if option == "d3":
            top = self._draw[p][-1]
            self._draw[p] = self._draw[p][:-1]
            self._discard[p] = ((top, False), *self._discard[p])
        elif onto_discard:
            self._discard[p] = (*self._discard[p], *onto_discard)
        castle_o = self._castle[o]
        self._summary = TurnSummary(
            seat=p,
            turn=self._turn,
            pile=self._pile,
            n=self._n,
            placed=tuple(c for c in before.hands[p] if c in new_on_table),
            taken=tuple(c for c in before.dukes[o] if c in new_on_table),
            captured=castle_o if castle_o in new_on_table else None,
            picked_up=tuple(c for c in before.dukes[p] if c not in work.dukes[p]),
            set=tuple(c for c in work.dukes[p] if c not in before.dukes[p]),
            flipped=self._flipped,
            revealed=self._revealed,
            discard=option,
            card=action.cards[0] if option == "d4" else None,
        )
        self._board = work
        self._work = work
        self._refill(p)
        if option == "finish":
            self._score_round("capture" if work.on_table(castle_o) else "exhaustion")
        elif self._turn >= self._options.max_turns:
            self._score_round("turn-limit")
        else:
            self._turn += 1
            self._start_turn(o)

    # --- A4 and the D4 offer ----------------------------------------------------------

    def propose(self, seat: int, cards: Iterable[Card]) -> Proposal | None:
        """Return A4's proposal for placing ``cards`` (source cards) on the working table,
        or ``None`` if no valid layout exists; changes nothing. Refuses as ``accept`` would,
        up to ``SOURCE``."""
        chosen = list(cards)
        self._check(seat, Action(Kind.NEW, tuple(chosen) or (DECK[0],)))
        self._common(seat, Action(Kind.ACCEPT))
        if self._options.arrangement_help == "check-only":
            raise _refuse("HELP", "Arrangement help is off at this table (check-only).")
        if len(set(chosen)) != len(chosen):
            raise _refuse("GROUP", "A card is named twice.")
        if not chosen:
            raise _refuse("SOURCE", "Choose at least one card to place.")
        self._check_sources(chosen, "The proposal")
        return _proposal(self._work.table, chosen)

    def offer_d4(self, seat: int, card: Card) -> Action | None:
        """Return the D4 the bot offers for ``card`` (plain if its group stays valid, else
        with a regrouping), or ``None`` if the rest of the table cannot be laid out or the
        card is not the mover's on the table; changes nothing."""
        work = self._work
        if (
            self._phase is not Phase.TURN
            or seat != self._mover
            or colour(card) != seat
            or not work.on_table(card)
            or not is_valid_layout(work.table)
        ):
            return None
        offer = offer_d4(work.table, card)
        if offer is None:
            return None
        groups, partition = offer
        return discard("d4", (card,), groups, tuple(partition))

    # --- legal actions ----------------------------------------------------------------

    def legal_actions(self, seat: int) -> tuple[Action, ...]:
        """Return the seat's listed legal actions now, sorted (see the module docstring for
        what is listed); ``()`` when it has nothing to do."""
        cached = self._legal.get(seat)
        if cached is None:
            cached = tuple(sorted(set(self._list_legal(seat))))
            self._legal[seat] = cached
        return cached

    def _list_legal(self, seat: int) -> list[Action]:
        if type(seat) is not int or seat not in SEATS or self._phase is Phase.OVER:
            return []
        if self._phase is Phase.CHOOSE:
            if self._confirmed[seat]:
                return []
            cards = self._setup[seat]
            out = []
            for castle in cards:
                rest = [c for c in cards if c != castle]
                for hand in rest:
                    d1, d2 = sorted(c for c in rest if c != hand)
                    out.append(setup(castle, (d1, d2), hand))
            return out
        acts: list[Action] = [] if self._agreed[seat] else [END_ROUND]
        if seat != self._mover:
            return acts
        if not self._drawn:
            held = len(self._board.hands[seat])
            for pile_name, size in (
                ("draw", len(self._draw[seat])),
                ("discard", len(self._discard[seat])),
            ):
                for n in range(3):
                    if n <= size and (n == 0 or held + n <= 4):
                        acts.append(draw(pile_name, n))
            return acts
        acts += self._list_t2(seat)
        acts += self._list_end(seat)
        return acts

    def _list_t2(self, p: int) -> list[Action]:
        work = self._work
        table = work.table
        sources = sorted(self._sources())
        acts: list[Action] = []
        for trio in combinations(sources, 3):
            if group_kind(trio) is not None:
                acts.append(new(sort_group(trio)))
        for k, g in enumerate(table, 1):
            for c in sources:
                if group_kind((*g, c)) is not None:
                    acts.append(add(k, (c,)))
        if self._options.arrangement_help == "propose":
            for c in sources:
                found = propose_layout(table, [c], max_step=2)
                if found is not None:
                    _, replaced, groups = found
                    acts.append(accept(replaced, tuple(groups)))
        if self._turn != 1:
            acts += [pickup(c) for c in work.dukes[p]]
            limit = self._d0 if self._d0 else 1
            if len(work.dukes[p]) < min(limit, 2):
                acts += [set_duke(c) for c in work.hands[p]]
        if not self._castle_up[p]:
            acts.append(REVEAL)
        if work.on_table(self._castle[p]):
            acts.append(RETURN)
        if self._stack and self._stack[-1][0].kind is not Kind.REVEAL:
            acts.append(UNDO)
        if any(a.kind is not Kind.REVEAL for a, _ in self._stack):
            acts.append(RESET)
        return acts

    def _list_end(self, p: int) -> list[Action]:
        work = self._work
        o = _OTHER[p]
        acts: list[Action] = []
        if (work.on_table(self._castle[o]) or self._exhausted) and self._end_failure(True) is None:
            acts.append(FINISH)
        if self._exhausted or self._end_failure(False) is not None:
            return acts
        hand = sorted(work.hands[p])
        acts += [discard("d1", (c,)) for c in hand]
        if not self._stack:
            acts += [discard("d2", pair) for pair in combinations(hand, 2)]
        if self._draw[p]:
            acts.append(discard("d3"))
        for g in work.table:
            for c in g:
                if colour(c) == p:
                    rest = tuple(x for x in g if x != c)
                    if not rest or group_kind(rest) is not None:
                        acts.append(discard("d4", (c,)))
        return acts

    # --- views ------------------------------------------------------------------------

    def view(self, seat: int) -> DukesUpView:
        """Return everything ``seat`` may know now."""
        if type(seat) is not int or seat not in SEATS:
            raise InvalidActionError(
                f"There is no seat {seat!r} at a Dukes Up! table.", reason="invalid-seat"
            )
        return self._view(seat)

    def public_view(self) -> DukesUpView:
        """Return what everyone may know now, spectators included."""
        return self._view(None)

    def _view(self, seat: int | None) -> DukesUpView:
        turn_phase = self._phase is Phase.TURN
        mine = turn_phase and seat == self._mover
        board = self._work if mine else self._board
        choosing = self._phase is Phase.CHOOSE
        dukes: list[tuple[Card, ...] | None] = [board.dukes[0], board.dukes[1]]
        castles: list[Card | str | None] = [None, None]
        for s in SEATS:
            card = self._castle[s]
            if choosing and s != seat:
                dukes[s] = None
            if card is None or board.on_table(card):
                continue
            castles[s] = card if self._castle_up[s] or s == seat else "down"
        discard_shown: tuple[Card | None, ...] | None = None
        if seat is not None and self._options.discard_memory == "open":
            discard_shown = tuple(c if seen else None for c, seen in reversed(self._discard[seat]))
        return DukesUpView(
            seat=seat,
            phase=self._phase,
            round=self._round,
            turn=self._turn,
            to_act=self.to_act,
            mover=self.mover,
            first_player=self._first,
            table=board.table,
            dukes=_pair(*dukes),
            castles=_pair(*castles),
            castle_up=_pair(*self._castle_up),
            hand=None if seat is None else board.hands[seat],
            hand_sizes=(len(board.hands[0]), len(board.hands[1])),
            draw_sizes=(len(self._draw[0]), len(self._draw[1])),
            discard_sizes=(len(self._discard[0]), len(self._discard[1])),
            discard=discard_shown,
            setup=self._setup[seat]
            if seat is not None and choosing and not self._confirmed[seat]
            else (),
            drawn=self._drawn and turn_phase,
            exhausted=self._exhausted and turn_phase,
            d0=self._d0 if turn_phase else 0,
            actions=tuple(a for a, _ in self._stack) if mine else (),
            agreed=_pair(*self._agreed) if turn_phase else (False, False),
            scores=self.score(),
            last_turn=self._summary,
            results=tuple(self._results),
            totals=self.totals,
            winners=self._winners,
            max_turns=self._options.max_turns,
            slot_weight=self._options.slot_weight,
            arrangement_help=self._options.arrangement_help,
            legal=() if seat is None else self.legal_actions(seat),
        )

    def secrets(self, seat: int) -> frozenset[str]:
        """Return the card codes only ``seat`` may see now: its setup cards while choosing;
        its hand (less a duke it picked up, which the turn summary names) and its castle
        while face-down."""
        if self._phase is Phase.OVER:
            return frozenset()
        if self._phase is Phase.CHOOSE:
            return frozenset(c.code for c in self._setup[seat])
        known: set[Card] = set()
        if self._summary is not None and self._summary.seat == seat:
            known.update(self._summary.picked_up)
        cards = set(self._board.hands[seat]) - known
        castle = self._castle[seat]
        if castle is not None and not self._castle_up[seat]:
            cards.add(castle)
        return frozenset(c.code for c in cards)


def _proposal(table: tuple[Group, ...], chosen: Sequence[Card]) -> Proposal | None:
    found = propose_layout(table, chosen)
    if found is None:
        return None
    step, replaced, groups = found
    partition = tuple(groups)
    layout = replace_groups(table, replaced, partition)
    return Proposal(step, replaced, partition, layout, accept(replaced, partition))


# --------------------------------------------------------------------------------------


def new_game(seed: int, options: DukesUpOptions | None = None) -> DukesUpState:
    """Return a new match dealt from ``seed`` (``None``: the default options)."""
    if type(seed) is not int:
        raise OptionsError(f"A game's seed must be a whole number, not {seed!r}.", reason="seed")
    if options is None:
        options = DukesUpOptions()
    elif not isinstance(options, DukesUpOptions):
        raise OptionsError(f"{options!r} are not Dukes Up! options.", reason="options")
    return DukesUpState(seed, options)


def replay(seed: int, options: DukesUpOptions | None, moves: Iterable[Move | str]) -> DukesUpState:
    """Return the state reached by ``moves`` (objects or their text, ``B:finish``) from
    ``new_game(seed, options)``; a refused move raises as :meth:`DukesUpState.apply` does."""
    state = new_game(seed, options)
    for move in moves:
        if isinstance(move, str):
            move = Move.parse(move)
        state.apply(move.seat, move.action)
    return state


def position(
    *,
    mover: int,
    hands: tuple[Iterable[Card], Iterable[Card]],
    dukes: tuple[Iterable[Card], Iterable[Card]],
    castles: tuple[tuple[Card, bool], tuple[Card, bool]],
    table: Iterable[Iterable[Card]] = (),
    draw_piles: tuple[Iterable[Card] | None, Iterable[Card] | None] = (None, None),
    discard_piles: tuple[Iterable[Card], Iterable[Card]] = ((), ()),
    turn: int = 2,
    drawn: bool = True,
    options: DukesUpOptions | None = None,
    seed: int = 0,
) -> DukesUpState:
    """Return a match set up at the start of ``mover``'s turn ``turn`` (T0 run; with
    ``drawn`` the draw is done). **Testing only** (worked examples): every card not named goes
    to its owner's draw pile (in card order, top last) unless ``draw_piles`` names it."""
    state = new_game(seed, options)
    hands_t = (tuple(hands[0]), tuple(hands[1]))
    dukes_t = (tuple(dukes[0]), tuple(dukes[1]))
    table_t = tuple(tuple(g) for g in table)
    discards = (tuple(discard_piles[0]), tuple(discard_piles[1]))
    named = [c for h in hands_t for c in h] + [c for d in dukes_t for c in d]
    on_table = [c for g in table_t for c in g]
    named += on_table + [castles[s][0] for s in SEATS if castles[s][0] not in on_table]
    named += [c for d in discards for c in d]
    for given in draw_piles:
        if given is not None:
            named += list(given)
    if len(set(named)) != len(named):
        raise ValueError("A card is named twice in the position.")
    seen = set(named)
    draws = [
        tuple(c for c in _OWN_CARDS[s] if c not in seen)
        if draw_piles[s] is None
        else tuple(draw_piles[s] or ())
        for s in SEATS
    ]
    for s in SEATS:
        if any(colour(c) != s for c in (*hands_t[s], *dukes_t[s], *draws[s], *discards[s])):
            raise ValueError("A seat holds a card of the other colour.")
    if len(seen) + sum(len(draws[s]) for s in SEATS if draw_piles[s] is None) != len(DECK):
        raise ValueError("The position does not hold the 52 cards once each.")
    state._phase = Phase.TURN
    state._confirmed = [True, True]
    state._turn = turn
    state._first = mover if turn % 2 == 1 else _OTHER[mover]
    state._castle = [castles[0][0], castles[1][0]]
    state._castle_up = [castles[0][1], castles[1][1]]
    state._draw = list(draws)
    state._discard = [tuple((c, True) for c in d) for d in discards]
    state._setup = [(), ()]
    state._board = Board(table_t, hands_t, dukes_t)
    state._start_turn(mover)
    if drawn:
        state._drawn = True
        state._exhausted = not state._draw[mover] and not state._discard[mover]
        state._pile, state._n = "draw", 0
    return state
