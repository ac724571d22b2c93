"""Hands a player decides for that are not their own seat — whist's dummy, played by its
partner (``State.controller``) — through the generic tables: the member acts for the dummy,
its turn timer waits for that member, and a stand-in plays the dummy's card when time runs out.

The game here is the smallest one with a dummy: three hands (seat 0, seat 1 and a dummy
held by seat 0's player), two players, each hand plays one card in turn, twice.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar, NamedTuple

import pytest

from bot.game import GameUI
from bot.i18n import Text
from bot.scheduler import Scheduler
from bot.store import SeatRecord, SQLiteStore
from bot.tables import StaleError, TableOptions, Tables, own_hand, player_view
from engine.errors import IllegalActionError, NotYourTurnError
from engine.game import Game, GameResult, State

DUMMY = 2
NOW = 1_800_000_000.0


@dataclass(frozen=True)
class Options:
    pass


class Move(NamedTuple):
    seat: int
    action: int

    def __str__(self) -> str:
        return f"{self.seat}:{self.action}"


class View(NamedTuple):
    seat: int | None
    hand: tuple[int, ...]

    def to_dict(self) -> dict[str, Any]:
        return {"seat": self.seat, "hand": list(self.hand)}


class DummyState(State[View, int, Options]):
    """Hands 0, 1, 2 play one number each in turn, twice; seat 0's player plays hand 2."""

    def __init__(self, seed: int) -> None:
        self.seed = seed
        self.options = Options()
        self._hands = [[1, 2], [3, 4], [5, 6]]
        self._moves: list[Move] = []

    @property
    def players(self) -> int:
        return 2

    @property
    def to_act(self) -> tuple[int, ...]:
        return () if self.is_over else (len(self._moves) % 3,)

    @property
    def turn(self) -> int:
        return len(self._moves)

    @property
    def moves(self) -> tuple[Move, ...]:
        return tuple(self._moves)

    @property
    def move_count(self) -> int:
        return len(self._moves)

    @property
    def is_over(self) -> bool:
        return len(self._moves) == 6

    def legal_actions(self, seat: int) -> tuple[int, ...]:
        return tuple(self._hands[seat]) if seat in self.to_act else ()

    def apply(self, seat: int, action: int) -> None:
        if seat not in self.to_act:
            raise NotYourTurnError("Not now.")
        if action not in self._hands[seat]:
            raise IllegalActionError("Not held.", reason="not-in-hand")
        self._hands[seat].remove(action)
        self._moves.append(Move(seat, action))

    def view(self, seat: int) -> View:
        return View(seat, tuple(self._hands[seat]))

    def public_view(self) -> View:
        return View(None, ())

    def result(self) -> GameResult:
        sums = [sum(m.action for m in self._moves if m.seat in (0, DUMMY)), 0]
        sums[1] = sum(m.action for m in self._moves if m.seat == 1)
        winners = (0,) if sums[0] >= sums[1] else (1,)
        return GameResult(tuple(sums), winners if self.is_over else ())

    def controller(self, seat: int) -> int | None:
        return 0 if seat == DUMMY else seat

    def player_at(self, seat: int) -> int | None:
        return None if seat == DUMMY else seat

    def clone(self) -> DummyState:
        other = copy.copy(self)
        other._hands = [list(hand) for hand in self._hands]
        other._moves = list(self._moves)
        return other


class Lowest:
    name = "lowest"

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def observe(self, view: View) -> None:
        pass

    def act(self, view: View) -> int:
        return min(view.hand)


class DummyGame(Game[DummyState, View, int, Options]):
    name = "dummygame"
    title = "Dummy"
    options_type = Options
    default_level = "lowest"
    levels: ClassVar[dict[str, type[Lowest]]] = {"lowest": Lowest}

    def player_counts(self, options: Any) -> tuple[int, ...]:
        return (2,)

    def seated(self, options: Any, players: int) -> Any:
        return options

    def new_game(self, seed: int, options: Any = None) -> DummyState:
        return DummyState(seed)

    def replay(self, seed: int, options: Any, moves: Iterable[Any]) -> DummyState:
        state = DummyState(seed)
        for move in moves:
            seat, action = str(move).split(":")
            state.apply(int(seat), int(action))
        return state


class DummyUI(GameUI[DummyState, View, int, Options]):
    name = "dummygame"
    game = DummyGame()

    def refusal(self, error: Exception) -> Text:
        return Text("errors.engine_refused")

    def owed(self, before: Any, after: Any) -> list[str]:
        return []


async def test_a_member_plays_the_dummy_and_a_stand_in_plays_it_when_time_runs_out(
    tmp_path: Path,
) -> None:
    store = await SQLiteStore.open(tmp_path / "bot.sqlite3")
    clock = [NOW]
    scheduler = Scheduler(lambda: clock[0])
    tables = Tables(store, lambda name: DummyUI(), clock=lambda: clock[0], scheduler=scheduler)  # type: ignore[arg-type, return-value]
    try:
        options = TableOptions(turn_seconds=30, level="lowest")
        table = await tables.open_table(
            game="dummygame",
            guild_id=1,
            channel_id=2,
            host_id=100,
            host_name="ann",
            options=options,
        )
        await tables.join(table.id, 101, "ben")
        await tables.start(table.id, 100)
        assert table.seats == {
            0: SeatRecord(0, 100, "ann", None),
            1: SeatRecord(1, 101, "ben", None),
        }
        assert table.state.to_act == (0,) and table.humans_to_act() == [0]

        await tables.act(table.id, 100, 0, table.turn, 1)  # ann: her own hand
        await tables.act(table.id, 101, 1, table.turn, 3)  # ben
        # The dummy's turn: it is ann's decision, her timer runs, and she plays for it.
        assert table.state.to_act == (DUMMY,)
        assert table.humans_to_act() == [0] and table.deadline == NOW + 30
        outcome = await tables.act(table.id, 100, 0, table.turn, 5)
        assert [str(m) for m in outcome.moves] == ["2:5"], "the dummy's card, from its hand"
        # Ben cannot play the dummy's card.
        await tables.act(table.id, 100, 0, table.turn, 2)
        await tables.act(table.id, 101, 1, table.turn, 4)
        assert table.state.to_act == (DUMMY,)
        with pytest.raises(StaleError):
            await tables.act(table.id, 101, 1, table.turn, 6)
        assert table.state.move_count == 5

        # Ann lets her time run out: a stand-in plays the dummy's last card for her (the
        # turn job the scheduler holds for this deadline, run as it would be).
        deadline = table.deadline
        assert deadline is not None
        clock[0] = deadline + 1
        expired = await tables._expire(table, deadline)
        assert expired is not None and expired.timed_out == {0: [6]}
        assert table.status == "finished"
        record = await store.game(table.id)
        assert record is not None and record.moves[-1] == "2:6"
    finally:
        await tables.close()
        await scheduler.close()
        await store.close()


class SwappedState(DummyState):
    """The same game with the players at each other's hands: player 0 sits at hand 1 and
    plays the dummy, player 1 sits at hand 0 (whist's seating: players are numbered in join
    order, hands by position)."""

    def controller(self, seat: int) -> int | None:
        return 1 if seat == DUMMY else seat

    def player_at(self, seat: int) -> int | None:
        return {0: 1, 1: 0}.get(seat)


class SwappedGame(DummyGame):
    def new_game(self, seed: int, options: Any = None) -> DummyState:
        return SwappedState(seed)

    def replay(self, seed: int, options: Any, moves: Iterable[Any]) -> DummyState:
        state = SwappedState(seed)
        for move in moves:
            seat, action = str(move).split(":")
            state.apply(int(seat), int(action))
        return state


class SwappedUI(DummyUI):
    game = SwappedGame()


def test_a_players_view_is_the_view_of_the_hand_they_sit_at() -> None:
    state = SwappedState(1)
    assert own_hand(state, 0) == 1 and own_hand(state, 1) == 0
    assert player_view(state, 0) == View(1, (3, 4))
    assert own_hand(DummyState(1), 1) == 1, "where players sit at their own hands"


async def test_a_member_acts_for_the_hand_they_sit_at_and_the_dummy_they_play(
    tmp_path: Path,
) -> None:
    store = await SQLiteStore.open(tmp_path / "bot.sqlite3")
    clock = [NOW]
    scheduler = Scheduler(lambda: clock[0])
    tables = Tables(store, lambda name: SwappedUI(), clock=lambda: clock[0], scheduler=scheduler)  # type: ignore[arg-type, return-value]
    try:
        table = await tables.open_table(
            game="dummygame",
            guild_id=1,
            channel_id=2,
            host_id=100,
            host_name="ann",
            options=TableOptions(turn_seconds=30, level="lowest"),
        )
        await tables.join(table.id, 101, "ben")
        await tables.start(table.id, 100)
        # Hand 0 is ben's (player 1): ann (player 0) cannot play it.
        assert table.humans_to_act() == [1]
        with pytest.raises(StaleError):
            await tables.act(table.id, 100, 0, table.turn, 1)
        outcome = await tables.act(table.id, 101, 1, table.turn, 1)
        assert [str(m) for m in outcome.moves] == ["0:1"]
        outcome = await tables.act(table.id, 100, 0, table.turn, 3)  # ann, at hand 1
        assert [str(m) for m in outcome.moves] == ["1:3"]
        outcome = await tables.act(table.id, 100, 0, table.turn, 5)  # ann, for the dummy
        assert [str(m) for m in outcome.moves] == ["2:5"]
    finally:
        await tables.close()
        await scheduler.close()
        await store.close()
