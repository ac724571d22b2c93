"""High card, the engine: two players, three tricks, the higher card takes each trick.

Each player is dealt three cards from a seeded shuffle of the 52-card pack. For each
trick both choose a card face down at the same time; then both are shown, and the higher
rank takes the trick (equal ranks: nobody). Most tricks wins; equal counts share the win.
Moves are written ``<seat>:<card>``, e.g. ``0:QS``.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any, NamedTuple

from engine.cards import DECK, Card, parse_card, shuffled_deck
from engine.errors import (
    EngineError,
    GameOverError,
    IllegalActionError,
    InvalidActionError,
    NotYourTurnError,
    OptionsError,
    ParseError,
)
from engine.game import Advice, Adviser, Game, GameResult, Player, State

__all__ = ["HIGHCARD", "HighCardGame", "HighCardOptions", "HighCardState", "Move", "Play"]

TRICKS = 3
SEATS = (0, 1)


@dataclass(frozen=True, slots=True)
class HighCardOptions:
    """No house rules but the number of tricks a game is dealt for."""

    tricks: int = TRICKS

    def __post_init__(self) -> None:
        if self.tricks not in (1, 2, 3):
            raise OptionsError("A game of high card has one to three tricks.", reason="tricks")


class Play(NamedTuple):
    """Choose ``card``, face down, for the trick."""

    card: Card

    def __str__(self) -> str:
        return self.card.code


class Move(NamedTuple):
    """``seat`` did ``action``; written ``0:QS``."""

    seat: int
    action: Play

    def __str__(self) -> str:
        return f"{self.seat}:{self.action}"

    @staticmethod
    def parse(text: str) -> Move:
        """Return the move written ``text``."""
        seat, sep, card = text.partition(":")
        if not sep or seat not in ("0", "1"):
            raise ParseError(f"“{text}” is not a move: write SEAT:CARD, like 0:QS.", text)
        return Move(int(seat), Play(parse_card(card)))


class Trick(NamedTuple):
    """A trick once shown: both cards and who took it (``None``: equal ranks)."""

    cards: tuple[Card, Card]
    taker: int | None


class HighCardView(NamedTuple):
    """What ``seat`` may know (``None``: everyone): its hand and its own choice."""

    seat: int | None
    hand: tuple[Card, ...]
    choice: Card | None
    chosen: tuple[bool, bool]
    to_act: tuple[int, ...]
    tricks: tuple[Trick, ...]
    won: tuple[int, int]
    over: bool

    def to_dict(self) -> dict[str, Any]:
        """Return the view as JSON-ready data."""
        return {
            "seat": self.seat,
            "hand": [c.code for c in self.hand],
            "choice": None if self.choice is None else self.choice.code,
            "chosen": list(self.chosen),
            "to_act": list(self.to_act),
            "tricks": [[[c.code for c in t.cards], t.taker] for t in self.tricks],
            "won": list(self.won),
            "over": self.over,
        }


class HighCardState(State[HighCardView, Play, HighCardOptions]):
    """One game in progress; it changes only through :meth:`apply`."""

    def __init__(self, seed: int, options: HighCardOptions) -> None:
        self.seed = seed
        self.options = options
        deck = shuffled_deck(random.Random(seed))
        n = options.tricks
        self._hands = [tuple(sorted(deck[:n])), tuple(sorted(deck[n : 2 * n]))]
        self._choices: list[Card | None] = [None, None]
        self._tricks: list[Trick] = []
        self._moves: list[Move] = []

    # --- reading -----------------------------------------------------------------

    @property
    def is_over(self) -> bool:
        """Return whether every trick has been shown."""
        return len(self._tricks) == self.options.tricks

    @property
    def to_act(self) -> tuple[int, ...]:
        """Return the seats that have not chosen yet."""
        if self.is_over:
            return ()
        return tuple(s for s in SEATS if self._choices[s] is None)

    @property
    def turn(self) -> int:
        """Return the trick's number, from 0 (one decision point a trick)."""
        return len(self._tricks)

    @property
    def moves(self) -> tuple[Move, ...]:
        """Return the move log."""
        return tuple(self._moves)

    @property
    def move_count(self) -> int:
        """Return how many moves were made."""
        return len(self._moves)

    @property
    def players(self) -> int:
        """Return two."""
        return 2

    def _won(self) -> tuple[int, int]:
        return (
            sum(1 for t in self._tricks if t.taker == 0),
            sum(1 for t in self._tricks if t.taker == 1),
        )

    def hand(self, seat: int) -> tuple[Card, ...]:
        """Return the seat's hand (full state)."""
        return self._hands[seat]

    def legal_actions(self, seat: int) -> tuple[Play, ...]:
        """Return the seat's cards while it has not chosen, sorted."""
        if self.is_over or self._choices[seat] is not None:
            return ()
        return tuple(Play(c) for c in self._hands[seat])

    def view(self, seat: int) -> HighCardView:
        """Return what ``seat`` may know."""
        if seat not in SEATS:
            raise InvalidActionError(f"There is no seat {seat!r}.", reason="invalid-seat")
        return self._view(seat)

    def public_view(self) -> HighCardView:
        """Return what everyone may know."""
        return self._view(None)

    def _view(self, seat: int | None) -> HighCardView:
        return HighCardView(
            seat,
            () if seat is None else self._hands[seat],
            None if seat is None else self._choices[seat],
            (self._choices[0] is not None, self._choices[1] is not None),
            self.to_act,
            tuple(self._tricks),
            self._won(),
            self.is_over,
        )

    def result(self) -> GameResult:
        """Return tricks won per player, and the winners once over."""
        won = self._won()
        winners = tuple(s for s in SEATS if won[s] == max(won)) if self.is_over else ()
        return GameResult(won, winners, tuple((w,) for w in won))

    def controller(self, seat: int) -> int | None:
        """Return the seat itself."""
        return seat

    def player_at(self, seat: int) -> int | None:
        """Return the seat itself."""
        return seat

    def clone(self) -> HighCardState:
        """Return an independent copy."""
        other = copy.copy(self)
        other._hands = list(self._hands)
        other._choices = list(self._choices)
        other._tricks = list(self._tricks)
        other._moves = list(self._moves)
        return other

    # --- changing ----------------------------------------------------------------

    def apply(self, seat: int, action: Play) -> None:
        """Choose a card; raise an ``EngineError`` and change nothing if it may not."""
        if type(seat) is not int or seat not in SEATS:
            raise InvalidActionError(f"There is no seat {seat!r}.", reason="invalid-seat")
        if type(action) is not Play or type(action.card) is not Card:
            raise InvalidActionError(f"{action!r} is not a card to play.", reason="invalid")
        if self.is_over:
            raise GameOverError("The game is over.")
        if self._choices[seat] is not None:
            raise NotYourTurnError("You have chosen for this trick.", reason="already-chosen")
        if action.card not in self._hands[seat]:
            raise IllegalActionError(
                f"{action.card} is not in your hand.", reason="not-in-hand", card=action.card.code
            )
        self._moves.append(Move(seat, action))
        hand = self._hands[seat]
        self._hands[seat] = tuple(c for c in hand if c != action.card)
        self._choices[seat] = action.card
        if None in self._choices:
            return
        first, second = self._choices
        assert first is not None and second is not None
        taker = None if first.rank == second.rank else (0 if first.rank > second.rank else 1)
        self._tricks.append(Trick((first, second), taker))
        self._choices = [None, None]


class RandomPlayer:
    """Plays a card drawn from its seed."""

    name = "random"

    def __init__(self, seed: int) -> None:
        self._rng = random.Random(seed)

    def observe(self, view: HighCardView) -> None:
        """Remember nothing."""

    def act(self, view: HighCardView) -> Play:
        """Return a random card of the hand."""
        return Play(self._rng.choice(view.hand))


class HighPlayer(RandomPlayer):
    """Plays its highest card."""

    name = "high"

    def act(self, view: HighCardView) -> Play:
        """Return the highest card of the hand."""
        return Play(max(view.hand))


class HighAdviser(RandomPlayer):
    """The test game's expert: for each card of its hand, the tricks it takes on average
    against cards drawn from those it has not seen (never the other hand itself)."""

    name = "expert"
    SAMPLES = 24

    def act(self, view: HighCardView) -> Play:
        """Return the advised card."""
        return self.advise(view).action

    def advise(self, view: HighCardView, compare: Play | None = None) -> Advice[Play]:
        """Return each card's estimated tricks and the best of them (the lowest of equals)."""
        seen = set(view.hand) | {card for trick in view.tricks for card in trick.cards}
        unseen = [card for card in DECK if card not in seen]
        drawn = [self._rng.choice(unseen) for _ in range(self.SAMPLES)]
        values: dict[Play, float] = {}
        for card in view.hand:
            won = sum(
                1.0 if card.rank > d.rank else 0.5 if card.rank == d.rank else 0.0 for d in drawn
            )
            values[Play(card)] = won / self.SAMPLES
        best = max(sorted(values), key=lambda play: values[play])
        return Advice(best, values, "tricks", "sampled", {"deals": self.SAMPLES})


class HighCardGame(Game[HighCardState, HighCardView, Play, HighCardOptions]):
    """High card as ``engine.game.Game``."""

    name = "highcard"
    title = "High card"
    options_type = HighCardOptions
    default_level = "high"
    levels: Mapping[str, Callable[[int], Player[HighCardView, Play]]] = {
        "random": RandomPlayer,
        "high": HighPlayer,
    }

    def player_counts(self, options: Any) -> tuple[int, ...]:
        """Return two."""
        return (2,)

    def seated(self, options: Any, players: int) -> Any:
        """Return ``options`` for two players."""
        if players != 2:
            raise OptionsError("High card is played by two.", reason="players")
        return options

    def new_game(self, seed: int, options: Any = None) -> HighCardState:
        """Return a new game."""
        return HighCardState(seed, options if options is not None else HighCardOptions())

    def replay(self, seed: int, options: Any, moves: Iterable[Any]) -> HighCardState:
        """Return the game after ``moves``."""
        state = self.new_game(seed, options)
        for move in moves:
            if isinstance(move, str):
                move = Move.parse(move)
            state.apply(move.seat, move.action)
        return state

    def parse_move(self, text: str) -> Move:
        """Return the move ``text``."""
        return Move.parse(text)

    def parse_action(self, text: str) -> Play:
        """Return the action ``text``."""
        return Play(parse_card(text))

    def terminal(self) -> Any:
        """Return the text table: this module (its :func:`main`)."""
        import tests.support.highcard.engine as table

        return table

    def adviser(self, seed: int) -> Adviser[HighCardView, Play]:
        """Return the test game's expert."""
        return HighAdviser(seed)

    def secrets(self, state: HighCardState, seat: int) -> frozenset[str]:
        """Return the seat's hand and its face-down choice."""
        choice = state.view(seat).choice
        return frozenset(c.code for c in state.hand(seat)) | (
            frozenset({choice.code}) if choice is not None else frozenset()
        )


HIGHCARD = HighCardGame()


def main(argv: Any = None, stdin: Any = None, stdout: Any = None) -> int:
    """Play one game against the ``high`` player: type a card of your hand each trick."""
    import sys

    read = (stdin or sys.stdin).readline
    out = stdout or sys.stdout
    seed = int(argv[0]) if argv else 0
    state = HIGHCARD.new_game(seed)
    computer = HighPlayer(seed)
    while not state.is_over:
        state.apply(1, computer.act(state.view(1)))
        print(f"Your hand: {' '.join(map(str, state.hand(0)))}", file=out)
        text = read().strip()
        if not text:
            return 0
        try:
            state.apply(0, HIGHCARD.parse_action(text))
        except EngineError as error:
            print(error, file=out)
            state.apply(0, Play(state.hand(0)[0]))
    print(f"Tricks: {state.result().scores[0]} to {state.result().scores[1]}", file=out)
    return 0
