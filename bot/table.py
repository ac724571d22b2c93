"""One live table, as :mod:`bot.tables` keeps it: its record, seats, engine state and
computer players (:class:`Table`); what a change did (:class:`Outcome`); the refusals a
request gets (:class:`UserError` and its kin); where a player sits among the engine's hands
(:func:`own_hand`, :func:`player_view`, :func:`decider`); and what the game's hooks make of
a decision's time and a game's end (:func:`deadline_for`, :func:`decision_seconds`,
:func:`seat_results`, :func:`final_posts`).

A module of its own so that the tables and the computer players (:mod:`bot.computers`),
which both need these, import them without importing each other. It knows no game and
no Discord.
"""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Self

from bot.i18n import Text
from bot.store import SeatRecord, SeatResult
from bot.table_options import TableOptions
from engine.game import AnyPlayer, AnyState, options_from_json, own_hand, player_view

if TYPE_CHECKING:
    from bot.game import GameUI

__all__ = [
    "Outcome",
    "StaleError",
    "Table",
    "TooLateError",
    "UserError",
    "deadline_for",
    "decider",
    "decision_seconds",
    "engine_options",
    "final_posts",
    "game_fields",
    "next_deadline",
    "own_hand",
    "player_view",
    "seat_results",
]


class UserError(Exception):
    """A refused request: ``text`` is the private reply the member gets, in their own
    language (a catalogue key and its parameters, see :mod:`bot.i18n`); ``str()`` is the
    English sentence, for logs."""

    def __init__(self, key: str, /, **params: Any) -> None:
        self.text = Text(key, **params)
        super().__init__(key)

    @classmethod
    def of(cls, text: Text) -> Self:
        """Return the error that answers with ``text``."""
        return cls(text.key, **text.params)

    def __str__(self) -> str:
        try:
            return str(self.text)
        except (KeyError, IndexError, ValueError):  # not in the catalogue: say what it is
            return f"{self.text.key} {self.text.params}" if self.text.params else self.text.key


class TooLateError(Exception):
    """A press that can no longer be answered before Discord gives up on it (see
    :mod:`bot.lateness`): nothing was applied, and it is left unanswered."""


class StaleError(UserError):
    """A refused control whose hand has moved on: the presser sees the hand as it is now,
    with the reason on top."""


def engine_options(ui: GameUI, options: TableOptions, players: int | None = None) -> Any:
    """Return the engine's options for a table (fitted to ``players`` when given)."""
    engine = options_from_json(ui.game.options_type, options.game)
    return engine if players is None else ui.game.seated(engine, players)


def game_fields(ui: GameUI) -> tuple[str, ...]:
    """Return the names of the game's engine options."""
    return tuple(f.name for f in dataclasses.fields(ui.game.options_type))


@dataclass(eq=False)
class Table:
    """One table in memory: its record, seats, engine state and computer players."""

    id: int
    ui: GameUI
    guild_id: int
    channel_id: int
    host_id: int
    seed: int
    options: TableOptions
    status: str
    message_id: int | None = None
    # The token of the interaction whose original response the table message is, and until
    # when the bot edits the message through it (not counted against Discord's global
    # limit): a credential, never in a repr or a log.
    message_token: str | None = field(default=None, repr=False)
    token_until: float | None = None
    deadline: float | None = None
    warned: bool = False
    seats: dict[int, SeatRecord] = field(default_factory=dict)
    players: dict[int, AnyPlayer] = field(default_factory=dict)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    # Public posts owed to the channel (a game's own, e.g. ``deal<n>`` scorings; ``end``
    # standings; the ``table`` message's last edit), and whether the table message shows
    # fewer moves than were made, as the database had them at load: what a restart still
    # has to send.
    owed: list[str] = field(default_factory=list)
    message_stale: bool = False
    # When the lobby last changed (opened, a seat taken or freed): it expires when idle.
    active_at: float = 0.0
    # A move's write lost its connection after it went out: it may have been committed.
    # The table reads its log again before its next move (:meth:`Tables._settle`).
    unsure: bool = False
    _state: Any = field(default=None, repr=False)
    # Set for a table loaded at start: rebuilds its state and players on first use, so a
    # restart with many live tables answers at once instead of replaying every game first.
    _restore: Callable[[Table], None] | None = field(default=None, repr=False)

    @property
    def game(self) -> str:
        """Return the game's registry name."""
        return self.ui.name

    @property
    def state(self) -> Any:
        """Return the engine state (``None`` in the lobby), replaying the log if needed."""
        restore = self._restore
        if restore is not None:
            self._restore = None
            restore(self)
        return self._state

    @state.setter
    def state(self, value: Any) -> None:
        self._restore = None
        self._state = value

    def replay(self) -> None:
        """Rebuild the state and players now if the table was loaded and is not yet used
        (see ``state``); when that fails, its first use meets the same error."""
        restore = self._restore
        if restore is None:
            return
        try:
            self.state  # noqa: B018 (reading it replays the log)
        except Exception:
            self._restore = restore
            raise

    @property
    def max_seats(self) -> int:
        """Return how many seats the lobby offers: the most the game's options allow."""
        counts: tuple[int, ...] = self.ui.game.player_counts(engine_options(self.ui, self.options))
        return max(counts)

    def seat_of(self, user_id: int) -> int | None:
        """Return the seat the member holds at this table, if any."""
        for seat, record in self.seats.items():
            if record.user_id == user_id:
                return seat
        return None

    def human_seats(self) -> list[int]:
        """Return the seats members hold."""
        return sorted(s for s, r in self.seats.items() if r.user_id is not None)

    def decider(self, hand: int) -> int | None:
        """Return the seat (player) that decides for the engine's ``hand`` now."""
        return decider(self.state, hand)

    def humans_to_act(self) -> list[int]:
        """Return the seats whose member must decide now (each once)."""
        if self.state is None:
            return []
        seats = {self.decider(hand) for hand in self.state.to_act}
        return sorted(
            s for s in seats if s is not None and s in self.seats and not self.seats[s].is_computer
        )

    @property
    def turn(self) -> int:
        """Return the game's decision point (``State.turn``), -1 in the lobby. A game whose
        turn takes several actions says what its controls carry (``GameUI.decision_point``),
        while its ``State.turn`` still sets the turn timer (see ``_advance``)."""
        state = self.state
        if state is None:
            return -1
        return self.ui.decision_point(state)


@dataclass(slots=True)
class Outcome:
    """What a change did, for the Discord side to show."""

    table: Table
    moves: list[Any] = field(default_factory=list)
    posts: list[str] = field(default_factory=list)
    turn_changed: bool = False
    # The decision stays, but the other seats' hands show the change at once (a game's
    # ``GameUI.shown_at_once``: Dukes Up!'s draw or revealed castle).
    others_changed: bool = False
    finished: bool = False
    warned: bool = False
    # Seats whose member ran out of time, with what a computer did for them.
    timed_out: dict[int, list[Any]] = field(default_factory=dict)
    # The table closed without a result: an idle lobby expired (``status`` ``expired``).
    closed: bool = False
    # A member left the game in play (``/<game> leave``): a computer plays this seat now.
    handed_over: int | None = None


def decider(state: AnyState, hand: int) -> int | None:
    """Return the seat (player) that decides for the engine's ``hand`` now."""
    owner = state.controller(hand)
    return None if owner is None else state.player_at(owner)


def decision_seconds(table: Table, state: AnyState) -> int:
    """Return the time for the decision now due: the table's turn time, or what the game
    makes of it (``GameUI.decision_seconds``: a shorter setup, say)."""
    return table.ui.decision_seconds(state, table.options.turn_seconds)


def next_deadline(
    table: Table, seats: Mapping[int, SeatRecord], state: AnyState, now: float, same: bool
) -> tuple[float | None, bool]:
    """Return the deadline and whether its warning went out, once the table's state is
    ``state``: a decision still due (``same``) keeps its own, a new one gets its full time."""
    if same and table.deadline is not None:
        return table.deadline, table.warned
    return deadline_for(seats, state, now, decision_seconds(table, state)), False


def seat_results(
    table: Table, seats: Mapping[int, SeatRecord], state: AnyState
) -> list[SeatResult]:
    """Return each seat's result of a finished game. A game whose tables' results are an
    event's to tell (a duplicate match's, ``GameUI.scores_public`` false: they compare with
    tables still playing the same trays) stores none: no score, no win, no rounds."""
    if not table.ui.scores_public:
        return [SeatResult(seat, r.user_id, r.level, 0, 0.0) for seat, r in sorted(seats.items())]
    result = state.result()
    return [
        SeatResult(
            seat,
            record.user_id,
            record.level,
            result.scores[seat],
            result.share(seat),
            tuple(result.rounds[seat]) if result.rounds else (),
        )
        for seat, record in sorted(seats.items())
    ]


def final_posts(table: Table) -> list[str]:
    """Return the posts a game's end makes due: the standings and the last table edit. A
    game whose tables are part of an event over several tables (a duplicate match,
    ``GameUI.standings_post`` false) posts no standings of its own."""
    return ["end", "table"] if table.ui.standings_post else ["table"]


def deadline_for(
    seats: Mapping[int, SeatRecord], state: AnyState, now: float, turn_seconds: int
) -> float | None:
    """Return when the decision now due times out: only a member's decision does."""
    if state.is_over:
        return None
    for hand in state.to_act:
        seat = decider(state, hand)
        if seat is not None and seat in seats and not seats[seat].is_computer:
            return now + turn_seconds
    return None
