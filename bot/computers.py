"""The tables' computer players at work: they act until a member must decide, each
caught up first with what its seat saw (:func:`prime`), and a searching level decides in
one worker thread, off the event loop (:data:`SEARCH`). A level the game lists in
``Game.watching_levels`` is shown its view after every move (:func:`engine.game.show_move`),
a member's and a computer's alike, and a rebuilt one is shown the same views again. After a
restart, a table's state and computers come back in one pass over its log
(:func:`restored`), each computer catching up only when it must act (:class:`Rebuilt`).

It knows no game: a game's levels and which of them search come from its engine ``Game``.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import functools
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from bot.store import SeatRecord
from bot.table import StaleError, Table, decider, player_view
from engine.errors import EngineError
from engine.game import AnyGame, AnyPlayer, AnyState, show_move, watchers

__all__ = [
    "SEARCH",
    "Rebuilt",
    "computer_due",
    "computers_act",
    "prime",
    "restored",
    "run_computers",
    "staged",
    "stand_ins",
]


# Computer players whose decisions search (whist's expert: double-dummy solves of tens of
# milliseconds each) decide in this one worker thread, off the event loop. One thread, not
# asyncio's pool: the tables wait their turn, and a solver library that keeps state per
# thread (DDS) is never entered twice at once.
SEARCH = concurrent.futures.ThreadPoolExecutor(max_workers=1, thread_name_prefix="computers")


async def staged(
    table: Table,
    before: Any,
    actions: list[tuple[int, Any, bool]],
    seating: Mapping[int, SeatRecord],
    rebuild: Callable[[Table], None],
) -> Any:
    """Return a copy of ``before`` with the members' actions applied and the computers'
    moves after them (``StaleError`` if the engine refuses an action; ``rebuild`` then
    gives the table fresh players if watching ones were shown moves that never happen)."""
    stage = before.clone()
    slow = table.ui.game.slow_action
    watching = watchers(table.ui.game, table.players)
    for seat, action, _ in actions:
        try:
            if slow(action):
                # A search the engine runs (Doppelkopf's claim check) goes to a worker
                # thread: the stage is this table's private copy, under its lock.
                await asyncio.to_thread(stage.apply, seat, action)
            else:
                stage.apply(seat, action)
        except EngineError as error:
            if watching and stage.move_count > before.move_count:
                rebuild(table)
            raise StaleError.of(table.ui.refusal(error)) from None
        show_move(stage, watching)
    await computers_act(table.ui.game, seating, stage, table.players)
    return stage


async def computers_act(
    game: AnyGame,
    seats: Mapping[int, SeatRecord],
    state: AnyState,
    players: Mapping[int, AnyPlayer],
) -> None:
    """Let computer seats act (see :func:`run_computers`): in the search thread when one
    of them plays a level the game marks slow (``Game.slow_levels``), else here.
    ``state`` and ``players`` are the table's own, under its lock, so nothing else touches
    them meanwhile."""
    slow = game.slow_levels
    if (
        slow
        and any(r.is_computer and r.level in slow for r in seats.values())
        and computer_due(seats, state, players)
    ):
        loop = asyncio.get_running_loop()
        await loop.run_in_executor(SEARCH, run_computers, seats, state, players, game)
    else:
        run_computers(seats, state, players, game)


def computer_due(
    seats: Mapping[int, SeatRecord], state: AnyState, players: Mapping[int, AnyPlayer]
) -> bool:
    """Return whether a computer seat decides now."""
    if state.is_over:
        return False
    for hand in state.to_act:
        seat = decider(state, hand)
        if seat is not None and seat in players and seats[seat].is_computer:
            return True
    return False


def run_computers(
    seats: Mapping[int, SeatRecord],
    state: AnyState,
    players: Mapping[int, AnyPlayer],
    game: AnyGame,
) -> None:
    """Let computer seats act until a member must decide or the game ends; show each
    watching player (``Game.watching_levels``) every move."""
    watching = watchers(game, players)
    while not state.is_over:
        for hand in state.to_act:
            seat = decider(state, hand)
            if seat is not None and seat in players and seats[seat].is_computer:
                break
        else:
            break
        state.apply(hand, players[seat].act(state.view(hand)))
        if watching:
            show_move(state, watching)


def prime(table: Table, players: Mapping[int, AnyPlayer]) -> None:
    """Show each player every view its seat had at each decision point so far, and a
    watching one (``Game.watching_levels``) its view after every move, as it would have
    been shown them had it been there all along."""
    state = table.state
    game = table.ui.game
    _catch_up(game, game.new_game(table.seed, state.options), state.moves, players)


def restored(
    game: AnyGame,
    seed: int,
    options: Any,
    moves: Iterable[str],
    players: Mapping[int, AnyPlayer],
) -> tuple[AnyState, dict[int, AnyPlayer]]:
    """Return the state ``moves`` (the log's text) reach from the deal of ``seed``, and
    ``players`` each wrapped in a :class:`Rebuilt`, to be caught up as :func:`prime`
    would when it must act: a restart answers a table's first click without its
    computers' catching up, which that click seldom needs."""
    parse = _parser(game)
    parsed = [parse(text) for text in moves]
    # The views of a level that decides on the event loop are kept from this one pass
    # over the log; a slow level (``Game.slow_levels``) walks the log again where it
    # decides, in the search thread, rather than have each of its views built here.
    slow = game.slow_levels
    kept = {s: _Backlog(p.name) for s, p in players.items() if p.name not in slow}
    if kept:
        state = game.new_game(seed, options)
        _catch_up(game, state, parsed, kept)
    else:
        state = game.replay(seed, options, parsed)
    again = functools.partial(_walk, game, seed, options, parsed)
    return state, {
        s: Rebuilt(p, kept[s].views) if s in kept else Rebuilt(p, [], functools.partial(again, s))
        for s, p in players.items()
    }


def _walk(
    game: AnyGame, seed: int, options: Any, moves: list[Any], seat: int, player: AnyPlayer
) -> None:
    """Show ``player`` what :func:`prime` shows the one at ``seat`` along ``moves``."""
    _catch_up(game, game.new_game(seed, options), moves, {seat: player})


def _parser(game: AnyGame) -> Callable[[str], Any]:
    """Return ``game.parse_move``, remembering the moves it parsed: a restart reads the
    same few hundred card plays at every table, and parsing them was a third of its
    replays."""
    parse = _PARSERS.get(game)
    if parse is None:
        parse = _PARSERS[game] = functools.lru_cache(maxsize=4096)(game.parse_move)
    return parse


_PARSERS: dict[AnyGame, Callable[[str], Any]] = {}


class _Backlog:
    """A seat's place in :func:`restored`'s pass over the log: it keeps the views shown."""

    __slots__ = ("name", "views")

    def __init__(self, name: str) -> None:
        self.name = name
        self.views: list[Any] = []

    def observe(self, view: Any) -> None:
        self.views.append(view)

    def act(self, view: Any) -> Any:
        raise AssertionError("a backlog is only shown views")


class Rebuilt:
    """A computer player rebuilt at a restart, caught up only when it must act: on the
    log (``walk``, for a slow level), then on the views kept for it (``backlog``: its
    seat's along the log, for the others, and those shown since), in order. Shown the
    same views in the same order as :func:`prime` shows, it decides as it would have
    caught up at once."""

    __slots__ = ("backlog", "name", "player", "walk")

    def __init__(
        self,
        player: AnyPlayer,
        backlog: list[Any],
        walk: Callable[[AnyPlayer], None] | None = None,
    ) -> None:
        self.player = player
        self.name = player.name
        self.backlog: list[Any] | None = backlog
        self.walk = walk

    def observe(self, view: Any) -> None:
        """Keep ``view`` behind those not yet shown, or show it once caught up."""
        if self.backlog is None:
            self.player.observe(view)
        else:
            self.backlog.append(view)

    def act(self, view: Any) -> Any:
        """Return the player's action for ``view``, once it has caught up."""
        return self.caught_up().act(view)

    def caught_up(self) -> AnyPlayer:
        """Return the player, shown first what it has not yet been shown."""
        if self.backlog is not None:
            if self.walk is not None:
                self.walk(self.player)
                self.walk = None
            backlog, self.backlog = self.backlog, None
            for seen in backlog:
                self.player.observe(seen)
        return self.player


def _catch_up(
    game: AnyGame,
    state: AnyState,
    moves: Iterable[Any],
    players: Mapping[int, AnyPlayer],
) -> None:
    """Apply ``moves`` to ``state``, from the deal, showing ``players`` their seats'
    views as :func:`prime` says."""
    watching = watchers(game, players)
    last = None
    for move in moves:
        if state.turn != last:
            for seat, player in players.items():
                player.observe(player_view(state, seat))
            last = state.turn
        state.apply(move.seat, move.action)
        if watching:
            show_move(state, watching)
    for seat, player in players.items():
        player.observe(player_view(state, seat))


def stand_ins(
    table: Table, late: list[int], level: str, seed_of: Callable[[int], int]
) -> tuple[list[tuple[int, Any, bool]], dict[int, list[Any]]]:
    """Return what computers of ``level`` decide for the ``late`` seats now: the actions
    (hand, action, by a computer) and each seat's actions. Each seat's stand-in is new,
    seeded from ``seed_of(seat)`` and the decision point, and caught up first."""
    state = table.state
    levels = table.ui.game.levels
    actions: list[tuple[int, Any, bool]] = []
    done: dict[int, list[Any]] = {}
    for seat in late:
        stand_in = levels[level](seed_of(seat) + 17 * table.turn)
        prime(table, {seat: stand_in})
        # Each hand the member must decide for now, the seat's own first: the decision
        # owed (``GameUI.stand_in_actions``: a whole turn where a turn takes several
        # actions; never an optional announcement, ``Game.stand_in_view``).
        for hand in state.to_act:
            if table.decider(hand) == seat:
                chosen = list(table.ui.stand_in_actions(state, hand, stand_in))
                actions += [(hand, action, True) for action in chosen]
                done.setdefault(seat, []).extend(chosen)
    return actions, done
