"""The protocols every game implements, and the pieces they share.

A :class:`Game` is the static description of one game (OpenSpiel's ``Game``, boardgame.io's
``Game``): its name, how many players it seats, its options, how to start, replay and read
moves, and its computer players. A :class:`State` is one position of one game in progress
(OpenSpiel's ``State``): who must decide (:attr:`State.to_act`), what each seat may do
(:meth:`State.legal_actions`), what each seat may know (:meth:`State.view`), and how it ends
(:meth:`State.result`). The bot and the shells (``python -m engine.simulate|play <game>``)
speak only these protocols, so a game joins them by being added to :mod:`engine.games`.

Seats are ints ``0..n-1``. A *hand* seat is where cards are held; a *player* is who decides.
In most games they are the same; where they are not (whist's dummies, a dead hand),
:meth:`State.controller` names the seat whose player decides for a hand, and
:meth:`State.player_at` the player sitting at a seat. Such a game's state also says how
many hand seats it has (:attr:`State.seats`, a hook whose default is ``players``), and
:func:`deciding_player` puts the two together.

All chance comes from the seed given to :meth:`Game.new_game` (drawn at once, or later from
the seed and a deal counter), so :meth:`Game.replay` rebuilds any game from its move log.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import (
    TYPE_CHECKING,
    Any,
    Generic,
    NamedTuple,
    Protocol,
    TextIO,
    TypeVar,
    runtime_checkable,
)

from engine.errors import OptionsError

__all__ = [
    "Action",
    "Advice",
    "Adviser",
    "AnyGame",
    "AnyPlayer",
    "AnyState",
    "Game",
    "GameResult",
    "Move",
    "Player",
    "State",
    "Terminal",
    "View",
    "deciding_player",
    "options_from_json",
    "options_to_json",
    "own_hand",
    "player_view",
    "seat_count",
    "show_move",
    "watchers",
]

ActionT = TypeVar("ActionT")
ActionT_co = TypeVar("ActionT_co", covariant=True)
ViewT = TypeVar("ViewT")
ViewT_co = TypeVar("ViewT_co", covariant=True)
ViewT_contra = TypeVar("ViewT_contra", contravariant=True)
OptionsT = TypeVar("OptionsT")
OptionsT_co = TypeVar("OptionsT_co", covariant=True)
StateT = TypeVar("StateT", bound="State[Any, Any, Any]")


@runtime_checkable
class Action(Protocol):
    """An action of some game: an immutable, hashable value whose ``str`` is its notation."""

    def __hash__(self) -> int: ...

    def __str__(self) -> str: ...


class Move(Protocol[ActionT_co]):
    """One entry of a move log: ``seat`` did ``action``; ``str(move)`` is its notation."""

    @property
    def seat(self) -> int: ...

    @property
    def action(self) -> ActionT_co: ...

    def __str__(self) -> str: ...


class View(Protocol):
    """What one seat (or, with ``seat`` ``None``, everyone) may know, and nothing else."""

    @property
    def seat(self) -> int | None: ...

    def to_dict(self) -> dict[str, Any]:
        """Return the view as plain JSON-ready data."""
        ...


class GameResult(NamedTuple):
    """How a finished game ended, per player (``players`` of them).

    ``scores[p]`` is player ``p``'s final score in the game's own unit; ``winners`` the players
    sharing the win (ties share it). ``rounds[p]`` is what the player earned in each scored
    round (a deal, a game of a rubber…), for the history; it may be empty.
    """

    scores: tuple[int, ...]
    winners: tuple[int, ...]
    rounds: tuple[tuple[int, ...], ...] = ()

    def share(self, player: int) -> float:
        """Return the player's share of the win: ``1/len(winners)`` for a winner, else 0."""
        return 1 / len(self.winners) if player in self.winners else 0.0


@runtime_checkable
class State(Protocol[ViewT_co, ActionT, OptionsT_co]):
    """One game in progress, of views ``ViewT``, actions ``ActionT`` and options
    ``OptionsT``. It changes only through :meth:`apply`.

    A game's state class extends it (``class DupeState(State[DupeView, Action,
    DupeOptions])``): the members without a body are what it must have, and the one with a
    body (:attr:`seats`) is an optional hook, whose default the state inherits.
    """

    __slots__ = ()

    seed: int

    if TYPE_CHECKING:
        # Read-only to generic code, but a state may keep any of these as a plain attribute:
        # a property inherited at run time would refuse its assignment.

        @property
        def options(self) -> OptionsT_co: ...

        @property
        def to_act(self) -> tuple[int, ...]:
            """Return the seats the game waits for, in seat order (several for a simultaneous
            decision). Other seats may still have legal actions out of turn (an announcement):
            :meth:`legal_actions` is the authority."""
            ...

        @property
        def turn(self) -> int:
            """Return the decision point: it rises each time the game starts waiting for a new
            decision (buttons carry it, turn timers restart on it) and never falls."""
            ...

        @property
        def moves(self) -> Sequence[Move[ActionT]]:
            """Return the move log since the start of the game."""
            ...

        @property
        def move_count(self) -> int:
            """Return ``len(moves)``, cheaply."""
            ...

        @property
        def is_over(self) -> bool:
            """Return whether the game has ended."""
            ...

        @property
        def players(self) -> int:
            """Return the number of players."""
            ...

    @property
    def seats(self) -> int:
        """Return the number of hand seats. Hook; default: :attr:`players` (override where
        hands and players differ: whist's dummies and dead hands)."""
        return self.players

    def legal_actions(self, seat: int) -> tuple[ActionT, ...]:
        """Return the seat's legal actions now, sorted; ``()`` when it has nothing to do."""
        ...

    def apply(self, seat: int, action: ActionT) -> None:
        """Let ``seat`` take ``action``; raise an ``EngineError`` and change nothing if it
        may not."""
        ...

    def view(self, seat: int) -> ViewT_co:
        """Return everything ``seat`` (and the player deciding for it) may know now."""
        ...

    def public_view(self) -> ViewT_co:
        """Return what everyone may know now, spectators included."""
        ...

    def result(self) -> GameResult:
        """Return how the game ended (before the end: the standings so far, no winners)."""
        ...

    def controller(self, seat: int) -> int | None:
        """Return the seat whose player decides for the hand at ``seat`` (``None``: nobody)."""
        ...

    def player_at(self, seat: int) -> int | None:
        """Return the player sitting at ``seat`` (``None``: a hand nobody sits at)."""
        ...

    def clone(self) -> State[ViewT_co, ActionT, OptionsT_co]:
        """Return an independent copy."""
        ...


AnyState = State[Any, Any, Any]
"""A state of some game (the bot's tables hold every game's)."""


class Player(Protocol[ViewT_contra, ActionT_co]):
    """A computer player for one seat (or the hands one player decides for) of one game,
    deciding from views ``ViewT`` with actions ``ActionT``. It sees only views, never the
    state, so hidden information cannot reach it."""

    name: str

    def observe(self, view: ViewT_contra) -> None:
        """Take in what ``view`` shows without acting: to catch up on a game in progress,
        and, for a level the game lists in ``Game.watching_levels``, after every move (the
        simulator, the text table and the bot call it: :func:`show_move`)."""
        ...

    def act(self, view: ViewT_contra) -> ActionT_co:
        """Return a legal action for the seat whose view this is."""
        ...


AnyPlayer = Player[Any, Any]
"""A computer player of some game."""


@dataclasses.dataclass(frozen=True)
class Advice(Generic[ActionT]):
    """The expert's advice for one decision, reached from one seat's view only (what a
    member sees in a hint, and what a review compares each of their decisions with)."""

    action: ActionT
    """The expert's choice."""
    values: Mapping[ActionT, float]
    """The estimated outcome of each action weighed, for the deciding seat's side, in
    ``unit`` (higher is better); the expert's choice is among them, and so is the action
    ``Adviser.advise`` was asked to ``compare``."""
    unit: str
    """What ``values`` count: ``"tricks"``, ``"points"`` (the game's score) or ``"share"``
    (of a win, 0–1)."""
    reason: str = ""
    """The last part of a catalogue key naming one line of why (``"sampled"``, ``"only"``),
    or ``""`` when there is nothing to say."""
    detail: Mapping[str, int | str] = dataclasses.field(default_factory=dict)
    """The values the line of why names (``{"deals": 40}``)."""
    exact: bool = False
    """Whether ``values`` are exact rather than sampled estimates."""

    def cost(self, action: ActionT) -> float | None:
        """Return what ``action`` loses against the expert's choice (``>= 0``), or ``None``
        when it was not weighed."""
        value = self.values.get(action)
        if value is None:
            return None
        return max(0.0, self.values[self.action] - value)


class Adviser(Player[ViewT_contra, ActionT], Protocol[ViewT_contra, ActionT]):
    """A computer player that can say what it would do and why without acting: primed with
    one seat's views like any player (:meth:`Player.observe`), it advises from that seat's
    view only."""

    def advise(self, view: ViewT_contra, compare: ActionT | None = None) -> Advice[ActionT]:
        """Return the advice for the decision in ``view``; its values include ``compare``
        (a legal action, e.g. the one a member chose) when given."""
        ...


class Terminal(Protocol):
    """A game's text table for ``python -m engine.play <game>``."""

    def main(
        self,
        argv: Sequence[str] | None = None,
        stdin: TextIO | None = None,
        stdout: TextIO | None = None,
    ) -> int:
        """Play one game at a text table with the game's own flags; return the exit code
        (2 for bad arguments)."""
        ...


class Game(Protocol[StateT, ViewT, ActionT, OptionsT]):
    """The static description of one game, of states ``StateT``, views ``ViewT``, actions
    ``ActionT`` and options ``OptionsT``.

    A game's class extends it (``class DupeGame(Game[DupeState, DupeView, Action,
    DupeOptions])``): the members without a body are what it must have; the ones with a
    body are optional hooks, whose defaults it inherits (the list, with their meanings:
    ``docs/adding-a-game.md``).
    """

    name: str
    """The registry name, lower case: ``dupe``, ``doppelkopf`` …"""
    title: str
    """The game's name as players write it."""
    default_level: str
    """The computer level a table gets when nobody chooses one."""
    slow_levels: frozenset[str] = frozenset()
    """Hook: computer levels whose decisions run a search the bot keeps off its event loop
    (whist's expert). Default: none."""
    watching_levels: frozenset[str] = frozenset()
    """Hook: computer levels whose players :meth:`~Player.observe` every move as it happens
    (whist's expert). Default: none."""

    @property
    def options_type(self) -> type[OptionsT]:
        """Return the options' type: a frozen dataclass whose constructor raises
        ``OptionsError`` on a value the game does not offer."""
        ...

    @property
    def levels(self) -> Mapping[str, Callable[[int], Player[ViewT, ActionT]]]:
        """Return the computer players by level name, weakest first (each built from a
        seed)."""
        ...

    def player_counts(self, options: OptionsT | None) -> tuple[int, ...]:
        """Return the numbers of players these options allow, smallest first."""
        ...

    def seated(self, options: OptionsT | None, players: int) -> OptionsT:
        """Return ``options`` fitted to ``players`` players, or raise ``OptionsError``."""
        ...

    def new_game(self, seed: int, options: OptionsT | None = None) -> StateT:
        """Return a new game dealt from ``seed`` (``None``: the default options)."""
        ...

    def replay(
        self, seed: int, options: OptionsT | None, moves: Iterable[Move[ActionT] | str]
    ) -> StateT:
        """Return the state reached by ``moves`` (objects or their text) from the start."""
        ...

    def parse_move(self, text: str) -> Move[ActionT]:
        """Return the move written as ``str(move)``; raise ``ParseError`` otherwise."""
        ...

    def parse_action(self, text: str) -> ActionT:
        """Return the action written as ``str(action)``; raise ``ParseError`` otherwise."""
        ...

    def secrets(self, state: StateT, seat: int) -> frozenset[str]:
        """Return texts only ``seat`` may see now (card codes in a hidden hand, a secret
        choice); no other seat's view, nor the public view, may contain any of them."""
        ...

    def terminal(self) -> Terminal:
        """Return the game's text table."""
        ...

    def slow_action(self, action: ActionT) -> bool:
        """Hook: return whether applying ``action`` runs a search the bot keeps off its event
        loop (Doppelkopf's claim check). Default: no action is slow."""
        return False

    def stand_in_view(self, view: ViewT) -> ViewT:
        """Hook: return the view a computer standing in for an absent member decides from:
        only the decision owed, never an optional one such as an announcement. Default: the
        view itself."""
        return view

    def tally(self, state: StateT) -> dict[str, int]:
        """Hook: return what happened in a finished game, counted by the simulator (game
        types, announcements…). Default: nothing."""
        return {}

    def adviser(self, seed: int) -> Adviser[ViewT, ActionT] | None:
        """Hook: return a new adviser (the game's strongest player) for hints and reviews,
        built from ``seed``. Default: ``None``, the game gives no advice."""
        return None

    def advises(self) -> bool:
        """Hook: return whether :meth:`adviser` gives an adviser. A server asks at its
        start, to offer hints, where building the expert may load a solver or compute its
        tables: a game whose adviser is costly to build answers without building one.
        Default: whether ``adviser(0)`` gives one."""
        return self.adviser(0) is not None


AnyGame = Game[Any, Any, Any, Any]
"""Some game (the registry lists every game's)."""


def seat_count(state: AnyState) -> int:
    """Return how many hand seats ``state`` has (:attr:`State.seats`)."""
    return state.seats


def deciding_player(state: AnyState, seat: int) -> int | None:
    """Return the player who decides for the hand at ``seat`` now (``None``: nobody), from
    :meth:`State.controller` and :meth:`State.player_at`."""
    owner = state.controller(seat)
    return None if owner is None else state.player_at(owner)


def own_hand(state: AnyState, player: int) -> int | None:
    """Return the hand ``player`` sits at (``None``: none, such as a player sitting out a
    game). Where hands and players differ (whist's dummies, a rotation of roles), the
    player's hand is found with :meth:`State.player_at`; elsewhere it is the seat."""
    hands = state.seats
    if 0 <= player < hands and state.player_at(player) == player:
        return player
    for hand in range(hands):
        if state.player_at(hand) == player:
            return hand
    return None


def player_view(state: AnyState, player: int) -> Any:
    """Return what ``player`` may know now: the view of the hand they sit at (which shows
    the hands they decide for), or the public view when they sit at none."""
    hand = own_hand(state, player)
    return state.public_view() if hand is None else state.view(hand)


def watchers(game: AnyGame, players: Mapping[int, AnyPlayer]) -> dict[int, AnyPlayer]:
    """Return those of ``players`` whose level ``game`` lists in
    :attr:`Game.watching_levels` (by their ``name``), to be shown every move."""
    watching = game.watching_levels
    return {p: player for p, player in players.items() if player.name in watching}


def show_move(state: AnyState, players: Mapping[int, AnyPlayer]) -> None:
    """Show each of ``players`` (by player number; see :func:`watchers`) its view now,
    after a move: only what its own seat may know, so no hidden card of another seat
    reaches it."""
    for player, computer in players.items():
        computer.observe(player_view(state, player))


def options_to_json(options: Any) -> dict[str, Any]:
    """Return a dataclass of options as plain JSON-ready data."""
    return {f.name: getattr(options, f.name) for f in dataclasses.fields(options)}


def options_from_json(options_type: type[OptionsT], data: Mapping[str, Any]) -> OptionsT:
    """Return options of ``options_type`` from stored data; unknown keys raise ``OptionsError``,
    missing keys take their defaults."""
    names = {f.name for f in dataclasses.fields(options_type)}  # type: ignore[arg-type]
    unknown = sorted(set(data) - names)
    if unknown:
        raise OptionsError(f"Unknown option(s): {', '.join(unknown)}.", reason="unknown-option")
    return options_type(**dict(data))
