"""Live tables of every game: one lock each; load → apply → commit → report.

This module knows no game and no Discord. A table's game is an engine ``Game`` (see
``engine/game.py``) found through its bot package (``bot.games``). Every change to a table
happens under that table's ``asyncio.Lock``: the engine checks the action on a copy of the
state, computer players act on the copy until a member must decide, the new moves (and, at
the end, the scores) are committed in one transaction, and only then does the copy become
the table's state and the caller learn what happened (an :class:`Outcome`) to show it. A
failed write leaves the table exactly as it was.

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
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from bot.computers import SEARCH, computers_act, prime, restored, staged, stand_ins
from bot.ratings import rates_table
from bot.scheduler import Scheduler
from bot.store import (
    GameRecord,
    LiveTableExistsError,
    SeatRecord,
    ShardSlice,
    Store,
    StoreUnreachableError,
    StoreWriteError,
)
from bot.table import (
    Outcome,
    StaleError,
    Table,
    TooLateError,
    UserError,
    deadline_for,
    decision_seconds,
    engine_options,
    final_posts,
    game_fields,
    next_deadline,
    own_hand,
    player_view,
    seat_results,
)
from bot.table_options import TableOptions
from engine.errors import OptionsError

if TYPE_CHECKING:
    from bot.game import GameUI
    from engine.game import AnyPlayer

# A table's pieces live in ``bot.table`` (and ``bot.table_options``); they are named here
# too, where the rest of the bot has always imported them from.
__all__ = [
    "LobbyLimits",
    "Outcome",
    "StaleError",
    "Table",
    "TableOptions",
    "Tables",
    "TooLateError",
    "UserError",
    "engine_options",
    "game_fields",
    "own_hand",
    "player_view",
]

log = logging.getLogger(__name__)

Clock = Callable[[], float]
GameLookup = Callable[[str], "GameUI"]

_RETRY_SECONDS = 10.0


@dataclass(frozen=True, slots=True)
class LobbyLimits:
    """How long a lobby may sit idle before it closes (0: forever), and how many open
    lobbies a member may host, and a server have, at once (0: no limit)."""

    idle_seconds: float = 30 * 60
    per_member: int = 3
    per_server: int = 25


def _warn_before(turn_seconds: int) -> float:
    return float(min(30, max(5, turn_seconds // 4)))


class Tables:
    """All live tables of this bot process, of every game."""

    def __init__(
        self,
        store: Store,
        games: GameLookup,
        *,
        clock: Clock,
        notify: Callable[[Outcome], Awaitable[None]] | None = None,
        default_level: Callable[[str], str | None] | None = None,
        seed_source: Callable[[], int] | None = None,
        scheduler: Scheduler | None = None,
        owns: Callable[[int], bool] | None = None,
        limits: LobbyLimits | None = None,
    ) -> None:
        self.store = store
        self.limits = limits or LobbyLimits()
        self.games = games
        self.clock = clock
        self.notify = notify
        self.scheduler = Scheduler(clock) if scheduler is None else scheduler
        self._owns = owns or (lambda guild_id: True)
        # The configured level of a game's computers, by game (``Settings.level_for``).
        self.default_level = default_level or (lambda game: None)
        # Where a new game's seed comes from (tests fix it; a duplicate match draws its own).
        self.new_seed: Callable[[], int] = seed_source or (
            lambda: random.SystemRandom().randrange(1 << 62)
        )
        self.tables: dict[int, Table] = {}
        self._by_channel: dict[int, int] = {}
        # Finished games whose last public posts were not sent before the process ended.
        self.finished_owing: list[Table] = []
        self._closing = False
        # Servers the bot has been removed from (for now): their tables' timers wait.
        self._away: set[int] = set()

    # --- loading -------------------------------------------------------------------

    async def load(self, shards: ShardSlice | None = None) -> int:
        """Load every live table of this process's servers (those on ``shards``, when it
        runs a slice of them: the others are not even read) from the database and restart
        their timers; return how many tables were loaded. A table's move log is replayed
        when it is first used (a click, a command, its timer), or before, while the start
        waits for Discord (``bot.app.Bot``)."""
        for record in await self.store.live_games(shards):
            if not self._owns(record.guild_id):
                continue  # another process runs that server's shard
            table = self._table_from(record)
            if record.status == "playing":
                table._restore = functools.partial(self._restore, moves=record.moves)
                self._allow_warning_time(table)
                self._schedule(table)
            else:
                self._schedule_expiry(table)
            self.tables[table.id] = table
            self._by_channel[table.channel_id] = table.id
        for record in await self.store.owed_finished(shards):
            if self._owns(record.guild_id):
                table = self._table_from(record)
                table._restore = functools.partial(self._restore, moves=record.moves)
                self.finished_owing.append(table)
        return len(self.tables)

    async def _settle(self, table: Table) -> None:
        """Bring an ``unsure`` table (a move's write whose answer was lost) up to its log:
        if the write was committed after all, the state takes those moves, as a restart
        would (their public posts stay owed in the database, sent by the next start);
        otherwise nothing changes. Refused (“try again”) while the database is away."""
        try:
            record = await self.store.game(table.id)
        except StoreWriteError:
            raise UserError("errors.store_unwritable") from None
        table.unsure = False
        state = table.state
        if record is None or state is None or len(record.moves) <= state.move_count:
            return
        log.warning(
            "game %s: a write whose answer was lost had been committed; the table takes "
            "its %d move(s) from the database",
            table.id,
            len(record.moves) - state.move_count,
        )
        table.seats = dict(record.seats)
        self._restore(table, record.moves)
        table.deadline, table.warned = record.deadline, record.warned
        if record.status != "playing":
            table.status = record.status
            self._forget(table)
            raise UserError("errors.already_over")
        self._schedule(table)

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
        ui = self.games(record.game)
        return Table(
            id=record.id,
            ui=ui,
            guild_id=record.guild_id,
            channel_id=record.channel_id,
            host_id=record.host_id,
            seed=record.seed,
            options=TableOptions.from_json(record.options, game_fields(ui)),
            status=record.status,
            message_id=record.message_id,
            message_token=record.message_token,
            token_until=record.token_until,
            deadline=record.deadline,
            warned=record.warned,
            seats=dict(record.seats),
            owed=list(record.owed),
            message_stale=record.message_id is not None and len(record.moves) > record.shown_plies,
            active_at=record.created_at if record.active_at is None else record.active_at,
        )

    def _restore(self, table: Table, moves: list[str]) -> None:
        options = engine_options(table.ui, table.options, len(table.seats))
        players = self._computers(table, table.seats)
        table.state, table.players = restored(table.ui.game, table.seed, options, moves, players)

    def _player_seed(self, table: Table, seat: int) -> int:
        return table.seed * table.max_seats + seat

    def _level(self, table: Table) -> str:
        """Return the level of the table's computer players (stand-ins included)."""
        levels = table.ui.game.levels
        for level in (table.options.level, self.default_level(table.game)):
            if level is not None and level in levels:
                return level
        return str(table.ui.game.default_level)

    def _rebuild_players(self, table: Table) -> None:
        """Give every computer seat a player whose memory holds everything that seat saw."""
        assert table.state is not None
        table.players = self._computers(table, table.seats)
        if table.players:
            prime(table, table.players)

    def _computers(self, table: Table, seats: Mapping[int, SeatRecord]) -> dict[int, AnyPlayer]:
        """Return a new player for every computer seat of ``seats``, caught up on nothing."""
        levels = table.ui.game.levels
        return {
            seat: levels[record.level or self._level(table)](self._player_seed(table, seat))
            for seat, record in seats.items()
            if record.is_computer
        }

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
        game: str,
        guild_id: int,
        channel_id: int,
        host_id: int,
        host_name: str,
        options: TableOptions,
        host_seat: int = 0,
    ) -> Table:
        """Open a table of ``game`` in the channel with the host seated (seat 0 unless
        ``host_seat``)."""
        ui = self.games(game)
        if options.level is not None and options.level not in ui.game.levels:
            raise UserError("errors.no_level", level=options.level)
        try:
            engine_options(ui, options)
        except OptionsError as error:  # the game says which option and why
            raise UserError.of(ui.refusal(error)) from error
        except TypeError as error:
            raise UserError("errors.engine_options") from error
        if self.table_in(channel_id) is not None:
            raise UserError("errors.channel_has_table")
        self._check_lobby_limits(guild_id, host_id)
        host = SeatRecord(host_seat, host_id, host_name, None)
        table = await self._create(
            ui, guild_id, channel_id, host_id, self.new_seed(), options, host
        )
        self._schedule_expiry(table)
        return table

    async def _create(
        self,
        ui: GameUI,
        guild_id: int,
        channel_id: int,
        host_id: int,
        seed: int,
        options: TableOptions,
        first: SeatRecord,
    ) -> Table:
        """Store a new table in the lobby with ``first`` seated, and keep it live."""
        try:
            game_id = await self.store.create_game(
                game=ui.name,
                guild_id=guild_id,
                channel_id=channel_id,
                host_id=host_id,
                seed=seed,
                options=options.to_json(),
                now=self.clock(),
                host_seat=first,
            )
        except LiveTableExistsError:
            raise UserError("errors.channel_has_table") from None
        table = Table(
            id=game_id,
            ui=ui,
            guild_id=guild_id,
            channel_id=channel_id,
            host_id=host_id,
            seed=seed,
            options=options,
            status="lobby",
            seats={first.seat: first},
            active_at=self.clock(),
        )
        self.tables[game_id] = table
        self._by_channel[channel_id] = game_id
        return table

    async def open_started(
        self,
        *,
        game: str,
        guild_id: int,
        channel_id: int,
        host_id: int,
        options: TableOptions,
        seats: Mapping[int, SeatRecord],
        seed: int | None = None,
    ) -> Outcome:
        """Open a table of ``game`` in the channel with every seat taken (``seats``, members
        and computers) and start it at once: no lobby. For a game whose tables another
        part of the game arranges (a duplicate match's tables and rounds); ``host_id`` is
        who may cancel it."""
        ui = self.games(game)
        try:
            engine_options(ui, options)
        except OptionsError as error:
            raise UserError.of(ui.refusal(error)) from error
        if self.table_in(channel_id) is not None:
            raise UserError("errors.channel_has_table")
        seed = self.new_seed() if seed is None else seed
        table = await self._create(
            ui, guild_id, channel_id, host_id, seed, options, seats[min(seats)]
        )
        async with table.lock:
            await self.store.set_seats(table.id, seats.values(), self.clock())
            table.seats = dict(seats)
        return await self.start(table.id, host_id)

    def _check_lobby_limits(self, guild_id: int, host_id: int) -> None:
        """Refuse a new lobby past the server's limits: open lobbies per member (hosted by
        them) and per server."""
        lobbies = [
            t for t in self.tables.values() if t.guild_id == guild_id and t.status == "lobby"
        ]
        per_member = self.limits.per_member
        if per_member and sum(t.host_id == host_id for t in lobbies) >= per_member:
            raise UserError("errors.lobbies_per_member", n=per_member)
        per_server = self.limits.per_server
        if per_server and len(lobbies) >= per_server:
            raise UserError("errors.lobbies_per_server", n=per_server)

    # --- idle lobbies --------------------------------------------------------------

    def _schedule_expiry(self, table: Table) -> None:
        """Close the lobby when it has been idle for the configured time."""
        idle = self.limits.idle_seconds
        if not idle or self._closing or table.status != "lobby":
            return
        active_at = table.active_at
        self.scheduler.at(
            ("lobby", table.id),
            active_at + idle,
            lambda: self._on_idle(table, active_at),
        )

    async def _on_idle(self, table: Table, active_at: float) -> None:
        async with table.lock:
            if table.status != "lobby" or table.active_at != active_at:
                return
            try:
                await self.store.cancel_game(table.id, self.clock(), reason="expired")
            except StoreWriteError:  # the store logs the episode; try again in a while
                self.scheduler.at(
                    ("lobby", table.id),
                    self.clock() + _RETRY_SECONDS,
                    lambda: self._on_idle(table, active_at),
                )
                return
            table.status = "expired"
            self._forget(table)
        log.info("game %s: the lobby expired unstarted", table.id)
        await self._notify(Outcome(table, closed=True))

    # --- channels and servers that go away -------------------------------------------

    async def abandon(self, table: Table) -> bool:
        """Close a live table whose channel is gone (or whose server removed the bot for
        longer than the grace period): no more moves, no stand-ins, no scores, no ratings;
        ``/history`` lists a started one as abandoned. Return whether it was live."""
        async with table.lock:
            if self.tables.get(table.id) is not table:
                return False
            await self.store.cancel_game(table.id, self.clock(), reason="abandoned")
            table.status = "abandoned"
            table.owed = []
            self._forget(table)
        log.info("game %s: abandoned (its channel or server is gone)", table.id)
        return True

    def in_guild(self, guild_id: int) -> list[Table]:
        """Return the live tables of a server."""
        return [t for t in self.tables.values() if t.guild_id == guild_id]

    def is_away(self, guild_id: int) -> bool:
        """Return whether the bot is removed from the server (for now)."""
        return guild_id in self._away

    def away(self, guild_id: int) -> None:
        """The bot was removed from the server: its tables' timers wait (members cannot
        act there), until :meth:`back` or their abandonment."""
        self._away.add(guild_id)

    def back(self, guild_id: int) -> None:
        """The bot is in the server again: its tables' members get their warning time back
        and the timers run again."""
        if guild_id not in self._away:
            return
        self._away.discard(guild_id)
        for table in self.in_guild(guild_id):
            if table.status == "playing":
                self._allow_warning_time(table)
                self._schedule(table)

    async def set_message(
        self,
        table: Table,
        message_id: int,
        token: str | None = None,
        token_until: float | None = None,
    ) -> None:
        """Remember the table's public message, and the token of the interaction whose
        original response it is with until when to edit it through that (none: posted in
        the channel)."""
        await self.store.set_message(table.id, message_id, token, token_until)
        table.message_id = message_id
        table.message_token, table.token_until = token, token_until

    async def set_message_token(
        self, table: Table, token: str | None, token_until: float | None
    ) -> None:
        """Edit the table message through ``token`` until ``token_until`` from now on (none:
        through its channel); in memory at once, then in the store (a failed write only
        costs a restarted bot the token)."""
        table.message_token, table.token_until = token, token_until
        await self.store.set_message_token(table.id, token, token_until)

    def _lobby(self, game_id: int) -> Table:
        table = self.table(game_id)
        if table.status != "lobby":
            raise UserError("errors.already_started")
        return table

    async def _seat(self, table: Table, seats: dict[int, SeatRecord]) -> None:
        now = self.clock()
        await self.store.set_seats(table.id, seats.values(), now)
        table.seats = seats
        table.active_at = now
        self._schedule_expiry(table)

    def _free_seat(self, table: Table) -> int:
        free = [s for s in range(table.max_seats) if s not in table.seats]
        if not free:
            raise UserError("errors.table_full")
        return free[0]

    async def join(self, game_id: int, user_id: int, name: str) -> Table:
        """Seat the member in the lowest free seat."""
        table = self._lobby(game_id)
        async with table.lock:
            self._lobby(game_id)
            _refuse_in_rematch(table)
            if table.seat_of(user_id) is not None:
                raise UserError("errors.already_seated")
            seat = self._free_seat(table)
            await self._seat(table, {**table.seats, seat: SeatRecord(seat, user_id, name, None)})
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
            await self._seat(table, {s: r for s, r in table.seats.items() if s != seat})
        return table

    def _computer(self, table: Table, seat: int, level: str | None = None) -> SeatRecord:
        level = level or self._level(table)
        return SeatRecord(seat, None, f"Computer ({level})", level)

    async def add_computer(self, game_id: int, user_id: int) -> Table:
        """Seat a computer player (at the table's level) in the lowest free seat."""
        table = self._lobby(game_id)
        async with table.lock:
            self._lobby(game_id)
            _refuse_in_rematch(table)
            if user_id != table.host_id and table.seat_of(user_id) is None:
                raise UserError("errors.only_seated_add_computer")
            seat = self._free_seat(table)
            await self._seat(table, {**table.seats, seat: self._computer(table, seat)})
        return table

    def _players_for(self, table: Table) -> int:
        """Return how many play: the fewest the game allows for everyone seated, or, with
        computers off, exactly those seated."""
        counts: tuple[int, ...] = table.ui.game.player_counts(
            engine_options(table.ui, table.options)
        )
        seated = len(table.seats)
        if table.options.level is None:
            if seated not in counts:
                missing = min((c for c in counts if c > seated), default=counts[-1]) - seated
                raise UserError("errors.seats_empty", n=max(missing, 1))
            return seated
        return min(c for c in counts if c >= seated)

    async def start(self, game_id: int, user_id: int) -> Outcome:
        """Start the game (host only): fill empty seats with computers, deal, let the
        computers make their first decisions."""
        table = self._lobby(game_id)
        async with table.lock:
            self._lobby(game_id)
            if user_id != table.host_id:
                raise UserError("errors.only_host_starts")
            n = self._players_for(table)
            taken = sorted(table.seats.items())
            if n < table.max_seats:
                # Fewer players than the lobby had seats: close up the gaps, in seat order.
                taken = [(i, dataclasses.replace(r, seat=i)) for i, (_, r) in enumerate(taken)]
            seats = dict(taken)
            for seat in range(n):
                if seat not in seats:
                    seats[seat] = self._computer(table, seat)
            if table.options.seating == "random":
                order = list(seats.values())
                random.Random(table.seed).shuffle(order)
                seats = {
                    seat: dataclasses.replace(record, seat=seat)
                    for seat, record in enumerate(order)
                }
            state = table.ui.game.new_game(table.seed, engine_options(table.ui, table.options, n))
            players = self._computers(table, seats)
            await computers_act(table.ui.game, seats, state, players)
            moves = list(state.moves)
            now = self.clock()
            deadline = deadline_for(seats, state, now, decision_seconds(table, state))
            logged = [(m.seat, str(m), True) for m in moves]
            if state.is_over:
                # Computers in every seat played the whole game (a duplicate match's table
                # of computers): it starts and finishes at once.
                await self.store.start_game(table.id, seats.values(), now, None)
                posts = table.ui.owed(table.ui.game.new_game(table.seed, state.options), state)
                posts += final_posts(table)
                await self.store.append_moves(
                    table.id,
                    0,
                    logged,
                    now,
                    None,
                    results=seat_results(table, seats, state),
                    guild_id=table.guild_id,
                    owed=posts,
                    rated=rates_table(table.ui.rated, table.options),
                )
                table.seats, table.state, table.players = seats, state, players
                table.status = "finished"
                self._forget(table)
                return Outcome(table, moves=moves, posts=posts, turn_changed=True, finished=True)
            await self.store.start_game(table.id, seats.values(), now, deadline, logged)
            table.seats = seats
            table.state = state
            table.players = players
            table.status = "playing"
            table.deadline = deadline
            table.warned = False
            self._schedule(table)
            return Outcome(table, moves=moves, turn_changed=True)

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
            ui = self.games(previous.game)
            options = dataclasses.replace(
                TableOptions.from_json(previous.options, game_fields(ui)),
                seating="join",  # the seats are the old game's
                rematch_of=previous.id,
                invited=tuple(
                    (s, r.user_id, r.name)
                    for s, r in sorted(previous.seats.items())
                    if r.user_id is not None
                ),
            )
            table = await self.open_table(
                game=previous.game,
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
                await self._seat(table, seats)
        elif table.options.rematch_of != previous.id or table.status != "lobby":
            raise UserError("errors.channel_has_other_table")
        else:
            async with table.lock:
                self._lobby(table.id)
                if table.seat_of(user_id) is not None:
                    raise UserError("errors.already_said_yes")
                await self._seat(
                    table, {**table.seats, seat: SeatRecord(seat, user_id, name, None)}
                )
        outcome = None
        if all(s in table.seats for s, _, _ in table.options.invited):
            outcome = await self.start(table.id, table.host_id)
        return table, outcome, created

    async def cancel(self, game_id: int, user_id: int, *, can_manage: bool) -> Table:
        """Close the table without scores (the host, or a member who can manage the server;
        a host who has left the game in play to a computer no longer hosts it)."""
        table = self.table(game_id)
        async with table.lock:
            if table.id not in self.tables:
                raise UserError("errors.already_over")
            hosting = user_id == table.host_id and (
                table.status == "lobby" or table.seat_of(user_id) is not None
            )
            if not hosting and not can_manage:
                raise UserError("errors.only_host_or_manager_cancels")
            await self.store.cancel_game(table.id, self.clock(), reason="cancelled")
            table.status = "cancelled"
            self._forget(table)
        return table

    async def hand_over(self, game_id: int, user_id: int) -> Outcome:
        """A member leaves a game in play: a computer player of the table's level takes
        their seat for the rest of it (and decides at once if the seat is due), named as
        the member's stand-in; the channel is told (the post ``left<seat>``, owed with the
        change). Results and ratings count the seat as the computer's. The last member
        left at the table cancels it instead, unless the game's tables are played out
        (``GameUI.played_out``: a duplicate match's table, whose results the match needs)."""
        table = self.playing(game_id)
        async with table.lock:
            table = self.playing(game_id)
            seat = table.seat_of(user_id)
            if seat is None:
                raise UserError("table.not_playing")
            if table.human_seats() == [seat] and not table.ui.played_out:
                raise UserError("errors.last_member_cancels")
            level = self._level(table)
            name = f"Computer ({level}) for {table.seats[seat].name}"
            seats = {**table.seats, seat: SeatRecord(seat, None, name, level)}
            player = table.ui.game.levels[level](self._player_seed(table, seat))
            prime(table, {seat: player})
            # (A failed write rebuilds the players from the seating as it was.)
            table.players = {**table.players, seat: player}
            outcome = await self._advance(table, [], seats=seats, owed=[f"left{seat}"])
            outcome.handed_over = seat
            log.info("game %s: seat %s handed to a computer (%s)", table.id, seat, level)
            outcome.turn_changed = True  # every hand shows the new seating
            return outcome

    # --- playing -------------------------------------------------------------------

    def playing(self, game_id: int) -> Table:
        """Return the table if its game is being played; else raise :class:`StaleError`."""
        table = self.table(game_id)
        if table.status == "lobby":
            raise StaleError("errors.not_started")
        if table.status != "playing" or table.state is None:
            raise StaleError("errors.game_over_buttons")
        return table

    def check_seat(self, table: Table, user_id: int, seat: int) -> None:
        """Raise :class:`StaleError` unless the member holds ``seat``."""
        holder = table.seats.get(seat)
        if holder is None or holder.user_id != user_id:
            if table.seat_of(user_id) is None:
                raise StaleError("errors.not_playing")
            raise StaleError("errors.not_your_hand")

    def check_turn(
        self, table: Table, user_id: int, seat: int, turn: int, action: Any = None
    ) -> None:
        """Raise :class:`StaleError` unless the member holds ``seat`` and a press made at
        decision point ``turn`` counts now: it is now, or ``action`` still means what they
        chose at that earlier point (``GameUI.keeps_meaning``: an announcement whose window
        is still open, whatever cards were played meanwhile)."""
        self.check_seat(table, user_id, seat)
        now = table.turn
        if turn > now:
            raise StaleError("errors.not_current_trick")
        if turn < now and (
            action is None or not table.ui.keeps_meaning(table.state, turn, seat, action)
        ):
            raise self.moved_on(table, turn, seat)

    def moved_on(self, table: Table, turn: int, seat: int) -> StaleError:
        """Return the refusal of ``seat``'s press made at the earlier decision point
        ``turn``: what got there first, as the game tells it."""
        names = {s: r.name for s, r in table.seats.items() if not r.is_computer}
        return StaleError.of(table.ui.moved_on(table.state, turn, seat, names))

    def hand_for(self, table: Table, seat: int, action: Any) -> int:
        """Return the engine hand ``seat``'s member acts for with ``action``: the seat's
        own, or one it controls (a dummy) that may take it."""
        state = table.state
        own = own_hand(state, seat)
        if own is not None and own in state.to_act and state.controller(own) == own:
            return own  # the common case: one's own decision (the engine checks it)
        hand: int
        for hand in state.to_act:
            if hand != own and table.decider(hand) == seat and action in state.legal_actions(hand):
                return hand
        # An action out of turn (an announcement, a claim): the player's own hand's. A
        # player without a hand (sitting out) names none the engine would take it from.
        return own if own is not None else -1

    async def act(
        self,
        game_id: int,
        user_id: int,
        seat: int,
        turn: int,
        action: Any,
        on_time: Callable[[], Awaitable[bool]] | None = None,
    ) -> Outcome:
        """Let the member in ``seat`` take ``action``, pressed at decision point ``turn``;
        then computers act; all of it committed before returning. Presses are taken in
        the order they get the table's lock. ``on_time`` says whether the press is (or can
        still be) answered in time: asked once the lock is held and again just before the
        commit, and when it says no, nothing is applied (:class:`TooLateError`)."""
        table = self.playing(game_id)
        async with table.lock:
            table = self.playing(game_id)
            if on_time is not None and not await on_time():
                raise TooLateError
            if table.unsure:
                await self._settle(table)  # the hand is checked against the log's turn
            self.check_turn(table, user_id, seat, turn, action)
            stale = turn < table.turn
            from bot.game import Actions  # bot.game imports discord; tables need not

            several = action.actions if isinstance(action, Actions) else (action,)
            try:
                return await self._advance(
                    table,
                    [(self.hand_for(table, seat, one), one, False) for one in several],
                    on_time=on_time,
                )
            except StaleError:
                if stale:  # kept its meaning, but the moves since made it illegal
                    raise self.moved_on(table, turn, seat) from None
                raise

    async def _advance(
        self,
        table: Table,
        actions: list[tuple[int, Any, bool]],
        seats: dict[int, SeatRecord] | None = None,
        owed: Sequence[str] = (),
        on_time: Callable[[], Awaitable[bool]] | None = None,
    ) -> Outcome:
        """Apply the actions on a copy, let computers act, commit it all (with the new
        seating ``seats`` and the posts ``owed``, if given), then swap the state in; unless
        ``on_time`` says, just before the commit, that it is too late to answer."""
        if table.unsure:
            await self._settle(table)
        seating = table.seats if seats is None else seats
        before = table.state
        assert before is not None
        stage = await staged(table, before, actions, seating, self._rebuild_players)
        applied = list(stage.moves[before.move_count :])
        by_computer = [computer for _, _, computer in actions]
        by_computer += [True] * (len(applied) - len(actions))
        moves = [
            (move.seat, str(move), computer)
            for move, computer in zip(applied, by_computer, strict=True)
        ]
        now = self.clock()
        same_decision = stage.turn == before.turn
        deadline, warned = next_deadline(table, seating, stage, now, same_decision)
        results = None
        if stage.is_over:
            deadline = None
            results = seat_results(table, seating, stage)
        posts = [*owed, *table.ui.owed(before, stage)]
        if stage.is_over:
            posts += final_posts(table)
        if on_time is not None and not await on_time():
            # Computers may have taken a while: the presser would never hear of it.
            self._rebuild_players(table)
            raise TooLateError
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
                owed=posts,
                rated=rates_table(table.ui.rated, table.options),
                seats=None if seats is None else seating.values(),
            )
        except StoreWriteError as error:  # the store logs the episode once
            self._rebuild_players(table)
            table.unsure = isinstance(error, StoreUnreachableError)
            raise UserError("errors.store_unwritable") from None
        except Exception:
            log.exception(
                "game %s: could not save %d move(s); nothing changed", table.id, len(moves)
            )
            self._rebuild_players(table)
            raise UserError("errors.save_failed") from None
        table.seats = seating
        table.state = stage
        table.deadline = deadline
        table.warned = warned
        outcome = Outcome(table, moves=applied, posts=posts, turn_changed=not same_decision)
        outcome.others_changed = table.ui.shown_at_once(applied)
        if stage.is_over:
            table.status = "finished"
            outcome.finished = True
            self._forget(table)
        elif not same_decision:
            self._schedule(table)
        return outcome

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
            if table.guild_id in self._away:
                return None  # nobody can act there now; ``back`` restarts the timer
            # The deadline's job comes first: a failed write of the warned flag (a full disk,
            # a locked moment) must not leave the table without its timer.
            table.warned = True
            self._schedule(table)
            try:
                await self.store.set_warned(table.id)
            except StoreWriteError:  # shown all the same; the store logs the episode once
                pass
            except Exception as error:  # the warning is shown all the same
                log.warning("game %s: the warning could not be recorded: %s", table.id, error)
            return Outcome(table, warned=True)

    async def _expire(self, table: Table, deadline: float) -> Outcome | None:
        async with table.lock:
            if table.deadline != deadline or table.status != "playing" or table.state is None:
                return None
            if table.guild_id in self._away:
                return None  # nobody can act there now; ``back`` restarts the timer
            late = table.humans_to_act()
            if not late:
                return None
            level = self._level(table)
            decide = functools.partial(self._stand_ins, table, late, level)
            if level in table.ui.game.slow_levels:
                # A searching level decides in the search thread (see ``_computers_act``):
                # the table's state is only read there, under its lock.
                loop = asyncio.get_running_loop()
                actions, done = await loop.run_in_executor(SEARCH, decide)
            else:
                actions, done = decide()
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
            log.info(
                "game %s: time ran out for seat(s) %s; a computer decided",
                table.id,
                ", ".join(map(str, late)),
            )
            outcome.timed_out = done
            return outcome

    def _stand_ins(
        self, table: Table, late: list[int], level: str
    ) -> tuple[list[tuple[int, Any, bool]], dict[int, list[Any]]]:
        """Return what computers of ``level`` decide for the ``late`` seats now (see
        :func:`bot.computers.stand_ins`), each seeded by its seat and the decision point."""
        return stand_ins(table, late, level, lambda seat: self._player_seed(table, seat))

    def _forget(self, table: Table) -> None:
        self.scheduler.cancel(("turn", table.id))
        self.scheduler.cancel(("lobby", table.id))
        self.tables.pop(table.id, None)
        if self._by_channel.get(table.channel_id) == table.id:
            del self._by_channel[table.channel_id]

    async def close(self) -> None:
        """Stop every timer (the database keeps the deadlines)."""
        self._closing = True
        for table_id in self.tables:
            self.scheduler.cancel(("turn", table_id))
            self.scheduler.cancel(("lobby", table_id))


def _refuse_in_rematch(table: Table) -> None:
    if table.options.rematch_of is not None:
        raise UserError("errors.rematch_table", game=table.options.rematch_of)
