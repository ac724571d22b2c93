"""Dukes Up! positions for the Discord tests, reached by legal play from a seed.

A round that ends by exhaustion takes a few dozen turns; clicking all of them would only
slow the tests down. :func:`placing_log` plays both seats by a fixed script (the setup of the
baseline computer; draw as many as allowed; place the largest set of hand cards the exact
search fits, never the opponent's dukes; D1 the hardest card once the hand holds three or
more, else D3) and returns the move log up to just before the draw of the first turn that
would exhaust its mover. :func:`push` commits such moves into a live table through the
core's own write path (``Tables.act``: checked, stored, swapped in), so the tests' final
actions are real clicks on the position the log reached.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache
from itertools import combinations

from engine.cards import Card
from engine.dukes_up import DukesUpOptions, DukesUpState, Kind, Move, new_game
from engine.dukes_up.actions import accept, discard, draw, setup
from engine.dukes_up.layout import can_layout, propose_layout
from engine.dukes_up.players.baseline import room

__all__ = ["D4_SEED", "D4_TURN", "EXHAUSTION_SEED", "placing_log", "push", "quiet_log"]

# Found by ``python -m tests.bot.dukes_up_positions <first> <last>`` (a search of seeds): the
# scripted play exhausts a mover, with more than 25 cards on the table and the mover's castle
# fitting it; and a turn whose mover has a card on the table whose D4 breaks its group.
EXHAUSTION_SEED = 10
D4_SEED = 10
D4_TURN = 12


def _hardest_first(cards: Iterable[Card]) -> list[Card]:
    return sorted(cards, key=lambda c: (room(c), c))


def _largest_fit(on_table: list[Card], hand: list[Card]) -> list[Card]:
    for size in range(len(hand), 0, -1):
        for chosen in combinations(hand, size):
            if can_layout([*on_table, *chosen]):
                return list(chosen)
    return []


def _setup(state: DukesUpState) -> None:
    for seat in (0, 1):
        order = _hardest_first(state.view(seat).setup)
        d1, d2 = sorted(order[1:3])
        state.apply(seat, setup(order[0], (d1, d2), order[3]))


@cache
def placing_log(
    seed: int, max_turns: int = 200, stop_turn: int | None = None
) -> tuple[tuple[str, ...], int]:
    """Return ``(moves, turn)``: the scripted play's log up to just before the draw of the
    turn that exhausts its mover (or, with ``stop_turn``, of that turn), and that turn's
    number; ``turn`` is 0 if the round ended otherwise."""
    state = new_game(seed, DukesUpOptions(max_turns=max_turns))
    _setup(state)
    while state.phase == "turn":
        (seat,) = state.to_act
        if stop_turn is not None and state.turn == stop_turn:
            return tuple(str(m) for m in state.moves), state.turn
        view = state.view(seat)
        hand = list(view.hand or ())
        size = view.draw_sizes[seat]
        n = min(2, 4 - len(hand), size) if len(hand) < 4 else 0
        trial = state.clone()
        trial.apply(seat, draw("draw", n))
        if trial.exhausted:
            return tuple(str(m) for m in state.moves), state.turn
        state.apply(seat, draw("draw", n))
        view = state.view(seat)
        hand = sorted(view.hand or (), key=lambda c: (-room(c), c))
        placed = _largest_fit([c for g in view.table for c in g], hand)
        if placed:
            found = propose_layout(view.table, placed)
            assert found is not None
            _, replaced, groups = found
            state.apply(seat, accept(tuple(replaced), tuple(groups)))
        hand = list(state.view(seat).hand or ())
        if len(hand) >= 3:
            state.apply(seat, discard("d1", (_hardest_first(hand)[0],)))
        else:
            state.apply(seat, discard("d3"))
    return tuple(str(m) for m in state.moves), 0


def quiet_log(seed: int, turns: int, max_turns: int = 200) -> tuple[str, ...]:
    """Return the setups and ``turns`` turns of drawing nothing and discarding blind (D3)."""
    state = new_game(seed, DukesUpOptions(max_turns=max_turns))
    _setup(state)
    for _ in range(turns):
        (seat,) = state.to_act
        state.apply(seat, draw("draw", 0))
        state.apply(seat, discard("d3"))
    return tuple(str(m) for m in state.moves)


async def push(tables: object, game_id: int, users: dict[int, int], moves: Iterable[str]) -> None:
    """Commit ``moves`` into the live table ``game_id`` as its members' (``users``: seat ->
    user id) through ``Tables.act``, each at the table's decision point then."""
    from bot.tables import Tables

    assert isinstance(tables, Tables)
    for text in moves:
        move = Move.parse(text)
        table = tables.table(game_id)
        await tables.act(game_id, users[move.seat], move.seat, table.turn, move.action)


def _breaking(state: DukesUpState, seat: int) -> list[Card]:
    """Return the mover's table cards whose D4 breaks their group, with an offer."""
    from engine.dukes_up.layout import group_kind, offer_d4

    table = state.view(seat).table
    return [
        c
        for g in table
        for c in g
        if (c.suit.letter in "CS") == (seat == 0)
        and group_kind([x for x in g if x != c]) is None
        and offer_d4(table, c) is not None
    ]


def _search(first: int, last: int) -> None:
    from engine.dukes_up import replay

    for seed in range(first, last):
        moves, turn = placing_log(seed)
        if not turn:
            print(seed, "no exhaustion", flush=True)
            continue
        state = replay(seed, DukesUpOptions(), moves)
        (seat,) = state.to_act
        on_table = sum(len(g) for g in state.view(seat).table)
        view = state.view(seat)
        n = min(2, 4 - len(view.hand or ()), view.draw_sizes[seat])
        state.apply(seat, draw("draw", n))
        castle = state.view(seat).castles[seat]
        fits = isinstance(castle, Card) and can_layout(
            [*(c for g in state.view(seat).table for c in g), castle]
        )
        d4 = None
        walk = new_game(seed, DukesUpOptions())
        for text in moves:
            move = Move.parse(text)
            if move.action.kind is Kind.DRAW and walk.turn >= 3 and _breaking(walk, move.seat):
                d4 = walk.turn
                break
            walk.apply(move.seat, move.action)
        print(seed, turn, len(moves), on_table, fits, d4, flush=True)


if __name__ == "__main__":
    import sys

    _search(int(sys.argv[1]), int(sys.argv[2]))
