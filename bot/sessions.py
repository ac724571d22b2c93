"""Live tables: one lock per game; load → apply → save → report.

This module knows nothing of Discord. Every change to a table happens under that table's
``asyncio.Lock``: the engine checks the action on a copy of the state, computer players
act on the copy until a member must decide, the new moves (and, at the end, the scores)
are committed to SQLite in one transaction, and only then does the copy become the table's
state and the caller learn what happened (an :class:`Outcome`) to show it. A failed write
leaves the table exactly as it was.

Deadlines are absolute times in the database. The bot's :class:`~bot.scheduler.Scheduler`
holds one turn job per table: it warns once, then lets a computer player decide for each
member who has not acted, for that one decision.
"""

from __future__ import annotations

import asyncio
import dataclasses
import functools
import logging
import random
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from bot.i18n import Text
from bot.scheduler import Scheduler
from bot.store import GameRecord, LiveTableExistsError, SeatRecord, SeatResult, Store
from engine.cards import format_cards
from engine.dupe import (
    SEAT_NAMES,
    Action,
    DealResult,
    Distribute,
    DupeOptions,
    DupeState,
    Move,
    Phase,
    Play,
    new_game,
)
from engine.errors import (
    EngineError,
    GameOverError,
    IllegalActionError,
    InvalidActionError,
    NotYourTurnError,
    OptionsError,
    ParseError,
)
from engine.players import LEVELS, Player, make_player

__all__ = [
    "ENGINE_ERROR_KEYS",
    "Outcome",
    "Sessions",
    "Table",
    "TableOptions",
    "UserError",
    "engine_refusal",
]

log = logging.getLogger(__name__)

Clock = Callable[[], float]


class UserError(Exception):
    """A refused request: ``text`` is the private reply the member gets, in their own
    language (a catalogue key and its parameters, see :mod:`bot.i18n`); ``str()`` is the
    English sentence, for logs."""

    def __init__(self, key: str, /, **params: Any) -> None:
        self.text = Text(key, **params)
        super().__init__(key)

    def __str__(self) -> str:
        try:
            return str(self.text)
        except (KeyError, IndexError, ValueError):  # not in the catalogue: say what it is
            return f"{self.text.key} {self.text.params}" if self.text.params else self.text.key


@dataclass(slots=True, frozen=True)
class TableOptions:
    """A table's house rules, chosen at ``/dupe start``."""

    memory: str = "strict"
    turn_seconds: int = 120
    level: str | None = "expert"
    pictures: bool = True
    seating: str = "join"  # "join": seats in the order members joined; "random": shuffled
    rematch_of: int | None = None  # the finished game this table replays with a new deal
    invited: tuple[tuple[int, int, str], ...] = ()  # a rematch's members: (seat, id, name)

    def to_json(self) -> dict[str, Any]:
        """Return the options as stored."""
        return {
            "memory": self.memory,
            "turn_seconds": self.turn_seconds,
            "level": self.level,
            "pictures": self.pictures,
            "seating": self.seating,
            "rematch_of": self.rematch_of,
            "invited": [list(entry) for entry in self.invited],
        }

    @staticmethod
    def from_json(data: dict[str, Any]) -> TableOptions:
        """Return options read back from the database."""
        return TableOptions(
            memory=str(data.get("memory", "strict")),
            turn_seconds=int(data.get("turn_seconds", 120)),
            level=data.get("level"),
            pictures=bool(data.get("pictures", True)),
            seating="random" if data.get("seating") == "random" else "join",
            rematch_of=data.get("rematch_of"),
            invited=tuple(
                (int(seat), int(user), str(name)) for seat, user, name in data.get("invited") or ()
            ),
        )

    def engine_options(self) -> DupeOptions:
        """Return the engine's options for these house rules."""
        return DupeOptions(memory="open" if self.memory == "open" else "strict")


@dataclass(eq=False)
class Table:
    """One table in memory: its record, seats, engine state and computer players."""

    id: int
    guild_id: int
    channel_id: int
    host_id: int
    seed: int
    options: TableOptions
    status: str
    message_id: int | None = None
    deadline: float | None = None
    warned: bool = False
    seats: dict[int, SeatRecord] = field(default_factory=dict)
    players: dict[int, Player] = field(default_factory=dict)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    # Public posts owed to the channel (``deal<n>`` scorings, ``end`` standings, the
    # ``table`` message's last edit), and whether the table message shows fewer moves
    # than were made, as the database had them at load: what a restart still has to send.
    owed: list[str] = field(default_factory=list)
    message_stale: bool = False
    _state: DupeState | None = field(default=None, repr=False)
    # Set for a table loaded at start: rebuilds its state and players on first use, so a
    # restart with many live tables answers at once instead of replaying every game first.
    _restore: Callable[[Table], None] | None = field(default=None, repr=False)

    @property
    def state(self) -> DupeState | None:
        """Return the engine state (``None`` in the lobby), replaying the log if needed."""
        restore = self._restore
        if restore is not None:
            self._restore = None
            restore(self)
        return self._state

    @state.setter
    def state(self, value: DupeState | None) -> None:
        self._restore = None
        self._state = value

    def seat_of(self, user_id: int) -> int | None:
        """Return the seat the member holds at this table, if any."""
        for seat, record in self.seats.items():
            if record.user_id == user_id:
                return seat
        return None

    def human_seats(self) -> list[int]:
        """Return the seats members hold."""
        return sorted(s for s, r in self.seats.items() if r.user_id is not None)

    def humans_to_act(self) -> list[int]:
        """Return the seats whose member must decide now."""
        if self.state is None:
            return []
        return [s for s in self.state.to_act if self.seats[s].user_id is not None]

    @property
    def turn(self) -> int:
        """Return the current trick's number in the game, 0 to 51 (as buttons carry it)."""
        state = self.state
        if state is None:
            return -1
        return (state.deal - 1) * 13 + (state.trick - 1)


@dataclass(slots=True)
class Outcome:
    """What a change did, for the Discord side to show."""

    table: Table
    moves: list[Move] = field(default_factory=list)
    new_results: list[DealResult] = field(default_factory=list)
    trick_changed: bool = False
    finished: bool = False
    warned: bool = False
    timed_out: list[int] = field(default_factory=list)


def _decision_key(state: DupeState) -> tuple[int, int, str]:
    return (state.deal, state.trick, state.phase.value)


_RETRY_SECONDS = 10.0


def _warn_before(turn_seconds: int) -> float:
    return float(min(30, max(5, turn_seconds // 4)))


class Sessions:
    """All live tables of this bot process."""

    def __init__(
        self,
        store: Store,
        *,
        clock: Clock,
        default_level: str = "expert",
        seed_source: Callable[[], int] | None = None,
        scheduler: Scheduler | None = None,
        owns: Callable[[int], bool] | None = None,
    ) -> None:
        self.store = store
        self.clock = clock
        self.scheduler = Scheduler(clock) if scheduler is None else scheduler
        self._owns = owns or (lambda guild_id: True)
        self.default_level = default_level
        self._seed_source = seed_source or (lambda: random.SystemRandom().randrange(1 << 62))
        self.tables: dict[int, Table] = {}
        self._by_channel: dict[int, int] = {}
        self.notify: Callable[[Outcome], Awaitable[None]] | None = None
        # Finished games whose last public posts were not sent before the process ended.
        self.finished_owing: list[Table] = []
        self._closing = False

    # --- loading -------------------------------------------------------------------

    async def load(self) -> int:
        """Load every live table of this process's servers from the database and restart
        their timers; return how many tables were loaded. A table's move log is replayed
        when it is first used (a click, a command, its timer)."""
        for record in await self.store.live_games():
            if not self._owns(record.guild_id):
                continue  # another process runs that server's shard
            table = self._table_from(record)
            if record.status == "playing":
                table._restore = functools.partial(self._restore, moves=record.moves)
                self._allow_warning_time(table)
                self._schedule(table)
            self.tables[table.id] = table
            self._by_channel[table.channel_id] = table.id
        for record in await self.store.owed_finished():
            if self._owns(record.guild_id):
                table = self._table_from(record)
                table._restore = functools.partial(self._restore, moves=record.moves)
                self.finished_owing.append(table)
        return len(self.tables)

    def _allow_warning_time(self, table: Table) -> None:
        """Members could not act while the bot was down: a deadline that has passed, or is
        too close, moves to the warning's length from now, so that they are warned (if they
        were not yet) and have that time before a computer decides for them."""
        if table.deadline is None:
            return
        least = self.clock() + _warn_before(table.options.turn_seconds)
        if table.deadline < least:
            table.deadline = least

    def _table_from(self, record: GameRecord) -> Table:
        return Table(
            id=record.id,
            guild_id=record.guild_id,
            channel_id=record.channel_id,
            host_id=record.host_id,
            seed=record.seed,
            options=TableOptions.from_json(record.options),
            status=record.status,
            message_id=record.message_id,
            deadline=record.deadline,
            warned=record.warned,
            seats=dict(record.seats),
            owed=list(record.owed),
            message_stale=record.message_id is not None and len(record.moves) > record.shown_plies,
        )

    def _restore(self, table: Table, moves: list[str]) -> None:
        table.state = self._replay(table, moves)
        self._rebuild_players(table)

    def _replay(self, table: Table, moves: list[str]) -> DupeState:
        state = new_game(table.seed, table.options.engine_options())
        for text in moves:
            move = Move.parse(text)
            state.apply(move.seat, move.action)
        return state

    def _rebuild_players(self, table: Table) -> None:
        """Give every computer seat a player whose memory holds everything that seat saw."""
        assert table.state is not None
        table.players = {
            seat: make_player(record.level or self.default_level, table.seed * 4 + seat)
            for seat, record in table.seats.items()
            if record.user_id is None
        }
        if table.players:
            _prime(table.players, table.seed, table.options.engine_options(), table.state.moves)

    # --- finding -------------------------------------------------------------------

    def table(self, game_id: int) -> Table:
        """Return the live table, or raise :class:`UserError` if it is over or unknown."""
        table = self.tables.get(game_id)
        if table is None:
            raise UserError("errors.game_gone")
        return table

    def table_in(self, channel_id: int) -> Table | None:
        """Return the channel's live table, if any."""
        game_id = self._by_channel.get(channel_id)
        return self.tables.get(game_id) if game_id is not None else None

    # --- the lobby -----------------------------------------------------------------

    async def open_table(
        self,
        *,
        guild_id: int,
        channel_id: int,
        host_id: int,
        host_name: str,
        options: TableOptions,
        host_seat: int = 0,
    ) -> Table:
        """Open a table in the channel with the host seated (North unless ``host_seat``)."""
        if options.level is not None and options.level not in LEVELS:
            raise UserError("errors.no_level", level=options.level)
        if self.table_in(channel_id) is not None:
            raise UserError("errors.channel_has_table")
        seed = self._seed_source()
        host = SeatRecord(host_seat, host_id, host_name, None)
        try:
            game_id = await self.store.create_game(
                game="dupe",
                guild_id=guild_id,
                channel_id=channel_id,
                host_id=host_id,
                seed=seed,
                options=options.to_json(),
                now=self.clock(),
                host_seat=host,
            )
        except LiveTableExistsError:
            raise UserError("errors.channel_has_table") from None
        table = Table(
            id=game_id,
            guild_id=guild_id,
            channel_id=channel_id,
            host_id=host_id,
            seed=seed,
            options=options,
            status="lobby",
            seats={host_seat: host},
        )
        self.tables[game_id] = table
        self._by_channel[channel_id] = game_id
        return table

    async def set_message(self, table: Table, message_id: int) -> None:
        """Remember the table's public message."""
        await self.store.set_message(table.id, message_id)
        table.message_id = message_id

    def _lobby(self, game_id: int) -> Table:
        table = self.table(game_id)
        if table.status != "lobby":
            raise UserError("errors.already_started")
        return table

    async def join(self, game_id: int, user_id: int, name: str) -> Table:
        """Seat the member in the lowest free seat."""
        table = self._lobby(game_id)
        async with table.lock:
            self._lobby(game_id)
            _refuse_in_rematch(table)
            if table.seat_of(user_id) is not None:
                raise UserError("errors.already_seated")
            free = [s for s in range(4) if s not in table.seats]
            if not free:
                raise UserError("errors.table_full")
            seats = dict(table.seats)
            seats[free[0]] = SeatRecord(free[0], user_id, name, None)
            await self.store.set_seats(table.id, seats.values())
            table.seats = seats
        return table

    async def leave(self, game_id: int, user_id: int) -> Table:
        """Free the member's seat (the host cancels instead)."""
        table = self._lobby(game_id)
        async with table.lock:
            self._lobby(game_id)
            seat = table.seat_of(user_id)
            if seat is None:
                raise UserError("errors.not_seated")
            if user_id == table.host_id:
                raise UserError("errors.host_cannot_leave")
            seats = {s: r for s, r in table.seats.items() if s != seat}
            await self.store.set_seats(table.id, seats.values())
            table.seats = seats
        return table

    async def add_computer(self, game_id: int, user_id: int) -> Table:
        """Seat a computer player (at the table's level) in the lowest free seat."""
        table = self._lobby(game_id)
        async with table.lock:
            self._lobby(game_id)
            _refuse_in_rematch(table)
            if user_id != table.host_id and table.seat_of(user_id) is None:
                raise UserError("errors.only_seated_add_computer")
            free = [s for s in range(4) if s not in table.seats]
            if not free:
                raise UserError("errors.table_full")
            level = table.options.level or self.default_level
            seats = dict(table.seats)
            seats[free[0]] = SeatRecord(free[0], None, f"Computer ({level})", level)
            await self.store.set_seats(table.id, seats.values())
            table.seats = seats
        return table

    async def start(self, game_id: int, user_id: int) -> Outcome:
        """Start the game (host only): fill empty seats with computers, deal, let the
        computers choose their first cards."""
        table = self._lobby(game_id)
        async with table.lock:
            self._lobby(game_id)
            if user_id != table.host_id:
                raise UserError("errors.only_host_starts")
            seats = dict(table.seats)
            missing = [s for s in range(4) if s not in seats]
            if missing and table.options.level is None:
                raise UserError("errors.seats_empty", n=len(missing))
            level = table.options.level or self.default_level
            for seat in missing:
                seats[seat] = SeatRecord(seat, None, f"Computer ({level})", level)
            if table.options.seating == "random":
                order = list(seats.values())
                random.Random(table.seed).shuffle(order)
                seats = {
                    seat: dataclasses.replace(record, seat=seat)
                    for seat, record in enumerate(order)
                }
            state = new_game(table.seed, table.options.engine_options())
            players = {
                s: make_player(r.level or level, table.seed * 4 + s)
                for s, r in seats.items()
                if r.user_id is None
            }
            moves = _run_computers(state, seats, players)
            now = self.clock()
            deadline = self._deadline_for(state, seats, now, table.options)
            await self.store.start_game(
                table.id, seats.values(), now, deadline, [(m.seat, str(m), True) for m in moves]
            )
            table.seats = seats
            table.state = state
            table.players = players
            table.status = "playing"
            table.deadline = deadline
            table.warned = False
            self._schedule(table)
            return Outcome(table, moves=moves, trick_changed=True)

    async def rematch(
        self, previous: GameRecord, user_id: int, name: str
    ) -> tuple[Table, Outcome | None, bool]:
        """A member of the finished game ``previous`` says yes to a rematch.

        The first one opens a table in the channel with the same seats and options and a
        new deal (the computers sit down at once); each other member of the old game sits
        down in their old seat by saying yes too; when all have, the game starts. Return the
        table, the start's outcome if it started, and whether this call opened it."""
        seat = next((s for s, r in previous.seats.items() if r.user_id == user_id), None)
        if seat is None:
            raise UserError("errors.only_players_rematch")
        table = self.table_in(previous.channel_id)
        created = table is None
        if table is None:
            options = dataclasses.replace(
                TableOptions.from_json(previous.options),
                seating="join",  # the seats are the old game's
                rematch_of=previous.id,
                invited=tuple(
                    (s, r.user_id, r.name)
                    for s, r in sorted(previous.seats.items())
                    if r.user_id is not None
                ),
            )
            table = await self.open_table(
                guild_id=previous.guild_id,
                channel_id=previous.channel_id,
                host_id=user_id,
                host_name=name,
                options=options,
                host_seat=seat,
            )
            async with table.lock:
                seats = dict(table.seats)
                for s, record in previous.seats.items():
                    if record.user_id is None:
                        seats[s] = SeatRecord(s, None, record.name, record.level)
                await self.store.set_seats(table.id, seats.values())
                table.seats = seats
        elif table.options.rematch_of != previous.id or table.status != "lobby":
            raise UserError("errors.channel_has_other_table")
        else:
            async with table.lock:
                self._lobby(table.id)
                if table.seat_of(user_id) is not None:
                    raise UserError("errors.already_said_yes")
                seats = dict(table.seats)
                seats[seat] = SeatRecord(seat, user_id, name, None)
                await self.store.set_seats(table.id, seats.values())
                table.seats = seats
        outcome = None
        if all(s in table.seats for s, _, _ in table.options.invited):
            outcome = await self.start(table.id, table.host_id)
        return table, outcome, created

    async def cancel(self, game_id: int, user_id: int, *, can_manage: bool) -> Table:
        """Close the table without scores (the host, or a member who can manage the server)."""
        table = self.table(game_id)
        async with table.lock:
            if table.id not in self.tables:
                raise UserError("errors.already_over")
            if user_id != table.host_id and not can_manage:
                raise UserError("errors.only_host_or_manager_cancels")
            await self.store.cancel_game(table.id, self.clock())
            table.status = "cancelled"
            self._forget(table)
        return table

    # --- playing -------------------------------------------------------------------

    def _playing(self, game_id: int) -> Table:
        table = self.table(game_id)
        if table.status == "lobby":
            raise UserError("errors.not_started")
        if table.status != "playing" or table.state is None:
            raise UserError("errors.game_over_buttons")
        return table

    def check_turn(self, table: Table, user_id: int, seat: int, turn: int) -> None:
        """Raise :class:`UserError` unless the member holds ``seat`` and ``turn`` is now."""
        holder = table.seats.get(seat)
        if holder is None or holder.user_id != user_id:
            if table.seat_of(user_id) is None:
                raise UserError("errors.not_playing")
            raise UserError("errors.not_your_hand")
        if turn < table.turn:
            raise UserError("errors.earlier_trick")
        if turn != table.turn:
            raise UserError("errors.not_current_trick")

    async def act(
        self, game_id: int, user_id: int, seat: int, turn: int, action: Action
    ) -> Outcome:
        """Let the member in ``seat`` take ``action`` for trick ``turn``; then computers act;
        all of it committed before returning."""
        table = self._playing(game_id)
        async with table.lock:
            table = self._playing(game_id)
            self.check_turn(table, user_id, seat, turn)
            return await self._advance(table, [(seat, action, False)])

    async def _advance(self, table: Table, actions: list[tuple[int, Action, bool]]) -> Outcome:
        assert table.state is not None
        before = table.state
        stage = before.clone()
        moves: list[tuple[int, str, bool]] = []
        applied: list[Move] = []
        for seat, action, by_computer in actions:
            try:
                stage.apply(seat, action)
            except EngineError as error:
                refusal = engine_refusal(error, stage, action)
                raise UserError(refusal.key, **refusal.params) from None
            move = Move(seat, action)
            moves.append((seat, str(move), by_computer))
            applied.append(move)
        for move in _run_computers(stage, table.seats, table.players):
            moves.append((move.seat, str(move), True))
            applied.append(move)
        now = self.clock()
        same_decision = _decision_key(stage) == _decision_key(before)
        deadline: float | None
        if same_decision and table.deadline is not None:
            deadline, warned = table.deadline, table.warned
        else:
            deadline, warned = self._deadline_for(stage, table.seats, now, table.options), False
        results = None
        if stage.is_over:
            deadline = None
            winners = stage.winners
            results = [
                SeatResult(
                    seat,
                    table.seats[seat].user_id,
                    table.seats[seat].level,
                    stage.totals[seat],
                    (1 / len(winners)) if seat in winners else 0.0,
                    tuple(deal.credited[seat] for deal in stage.results),
                )
                for seat in range(4)
            ]
        try:
            await self.store.append_moves(
                table.id,
                before.move_count,
                moves,
                now,
                deadline,
                warned,
                results=results,
                guild_id=table.guild_id,
                owed=owed_posts(before, stage),
            )
        except Exception:
            log.exception(
                "game %s: could not save %d move(s); nothing changed", table.id, len(moves)
            )
            self._rebuild_players(table)
            raise UserError("errors.save_failed") from None
        table.state = stage
        table.deadline = deadline
        table.warned = warned
        outcome = Outcome(
            table,
            moves=applied,
            new_results=list(stage.results[len(before.results) :]),
            trick_changed=(stage.deal, stage.trick) != (before.deal, before.trick)
            or stage.phase is not before.phase,
        )
        if stage.is_over:
            table.status = "finished"
            outcome.finished = True
            self._forget(table)
        elif not same_decision:
            self._schedule(table)
        return outcome

    def _deadline_for(
        self, state: DupeState, seats: dict[int, SeatRecord], now: float, options: TableOptions
    ) -> float | None:
        if state.is_over:
            return None
        if not any(seats[s].user_id is not None for s in state.to_act):
            return None
        return now + options.turn_seconds

    # --- timers --------------------------------------------------------------------

    def _schedule(self, table: Table) -> None:
        """Set the table's turn job for its current deadline (or drop it)."""
        key = ("turn", table.id)
        if self._closing or table.deadline is None or table.status != "playing":
            self.scheduler.cancel(key)
            return
        deadline = table.deadline
        if table.warned:
            self.scheduler.at(key, deadline, lambda: self._on_deadline(table, deadline))
        else:
            warn_at = deadline - _warn_before(table.options.turn_seconds)
            self.scheduler.at(key, warn_at, lambda: self._on_warning(table, deadline))

    async def _on_warning(self, table: Table, deadline: float) -> None:
        outcome = await self._warn(table, deadline)
        if outcome is not None:
            await self._notify(outcome)

    async def _on_deadline(self, table: Table, deadline: float) -> None:
        outcome = await self._expire(table, deadline)
        if outcome is not None:
            await self._notify(outcome)

    async def _notify(self, outcome: Outcome) -> None:
        if self.notify is not None:
            await self.notify(outcome)

    async def _warn(self, table: Table, deadline: float) -> Outcome | None:
        async with table.lock:
            if table.deadline != deadline or table.warned or table.status != "playing":
                return None
            await self.store.set_warned(table.id)
            table.warned = True
            self._schedule(table)
            return Outcome(table, warned=True)

    async def _expire(self, table: Table, deadline: float) -> Outcome | None:
        async with table.lock:
            if table.deadline != deadline or table.status != "playing" or table.state is None:
                return None
            late = table.humans_to_act()
            if not late:
                return None
            level = table.options.level or self.default_level
            stand_ins = {
                seat: make_player(level, table.seed * 4 + seat + 17 * table.turn) for seat in late
            }
            _prime(stand_ins, table.seed, table.options.engine_options(), table.state.moves)
            actions = [(seat, stand_ins[seat].act(table.state.view(seat)), True) for seat in late]
            log.info(
                "game %s: time ran out for %s; a computer decided",
                table.id,
                ", ".join(SEAT_NAMES[s] for s in late),
            )
            try:
                outcome = await self._advance(table, actions)
            except UserError:
                # The moves could not be saved and nothing changed: try again shortly.
                self.scheduler.at(
                    ("turn", table.id),
                    self.clock() + _RETRY_SECONDS,
                    lambda: self._on_deadline(table, deadline),
                )
                return None
            outcome.timed_out = late
            return outcome

    def _forget(self, table: Table) -> None:
        self.scheduler.cancel(("turn", table.id))
        self.tables.pop(table.id, None)
        if self._by_channel.get(table.channel_id) == table.id:
            del self._by_channel[table.channel_id]

    async def close(self) -> None:
        """Stop every timer (the database keeps the deadlines)."""
        self._closing = True
        for table_id in self.tables:
            self.scheduler.cancel(("turn", table_id))


def owed_posts(before: DupeState, after: DupeState) -> list[str]:
    """Return the public posts that the change from ``before`` to ``after`` makes due: a
    deal's scoring (``deal<n>``), and at the end the final standings (``end``) and the
    table message's last edit (``table``)."""
    owed = [f"deal{result.deal}" for result in after.results[len(before.results) :]]
    if after.is_over:
        owed += ["end", "table"]
    return owed


def _refuse_in_rematch(table: Table) -> None:
    if table.options.rematch_of is not None:
        raise UserError("errors.rematch_table", game=table.options.rematch_of)


# The sentence for each engine error class, the first class the error is an instance of
# (the engine's own messages are English only; engine/errors.py has the classes).
ENGINE_ERROR_KEYS: tuple[tuple[type[EngineError], str], ...] = (
    (ParseError, "errors.engine_parse"),
    (OptionsError, "errors.engine_options"),
    (InvalidActionError, "errors.engine_invalid"),
    (GameOverError, "errors.engine_game_over"),
    (NotYourTurnError, "errors.engine_not_your_turn"),
    (IllegalActionError, "errors.engine_illegal"),
    (EngineError, "errors.engine_refused"),
)


def engine_refusal(
    error: EngineError,
    state: DupeState | None = None,
    action: object = None,
) -> Text:
    """Return the sentence, in the reader's language, for an engine error.

    Given the state the engine refused ``action`` in (a refusal leaves it unchanged), the
    sentence says why, as the engine's own message does; otherwise it is the
    one for the error's class (:data:`ENGINE_ERROR_KEYS`)."""
    if state is not None:
        specific = _refusal_in(error, state, action)
        if specific is not None:
            return specific
    if isinstance(error, ParseError):
        return Text("errors.engine_parse", token=error.token)
    return Text(next(key for kind, key in ENGINE_ERROR_KEYS if isinstance(error, kind)))


def _seat_text(seat: int | None) -> Text:
    return Text(f"common.seat_{seat or 0}")


def _refusal_in(error: EngineError, state: DupeState, action: object) -> Text | None:
    """Return why the engine refused ``action`` in ``state``, as engine/dupe.py's checks
    tell it (``None`` when the error's class says all there is)."""
    if isinstance(error, GameOverError) or not isinstance(error, IllegalActionError):
        return None
    if type(action) is Play:
        if isinstance(error, NotYourTurnError):
            if state.phase is not Phase.CHOOSE:
                return Text("errors.engine_distributing", taker=_seat_text(state.taker))
            return Text("errors.engine_already_chosen")
        return Text("errors.engine_not_in_hand", card=str(action.card))
    if type(action) is Distribute:
        if isinstance(error, NotYourTurnError):
            if state.phase is not Phase.DISTRIBUTE:
                return Text("errors.engine_nothing_to_distribute")
            return Text("errors.engine_only_taker", taker=_seat_text(state.taker))
        revealed = state.public_view().revealed or ()
        return Text("errors.engine_give_revealed", cards=format_cards(revealed))
    return None


def _run_computers(
    state: DupeState, seats: dict[int, SeatRecord], players: dict[int, Player]
) -> list[Move]:
    """Let computer seats act until a member must decide or the game ends."""
    moves: list[Move] = []
    while not state.is_over:
        seat = next((s for s in state.to_act if seats[s].user_id is None), None)
        if seat is None:
            break
        action = players[seat].act(state.view(seat))
        state.apply(seat, action)
        moves.append(Move(seat, action))
    return moves


def _prime(
    players: dict[int, Player], seed: int, options: DupeOptions, moves: tuple[Move, ...]
) -> None:
    """Show each player every view its seat had at the start of each trick so far."""
    state = new_game(seed, options)
    last_key: tuple[int, int] | None = None
    for move in moves:
        key = (state.deal, state.trick)
        if key != last_key and state.phase is Phase.CHOOSE:
            for seat, player in players.items():
                player.observe(state.view(seat))
            last_key = key
        state.apply(move.seat, move.action)
    for seat, player in players.items():
        player.observe(state.view(seat))
