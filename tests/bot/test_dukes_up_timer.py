"""Dukes Up!'s turn timer through simcord's virtual clock: the setup has half the turn
time; a late member is warned once; then a computer makes the setup choice, or resets the
turn to just after the draw and completes it, and the member keeps the seat."""

from __future__ import annotations

from engine.dukes_up import Kind
from tests.bot.driver import World
from tests.bot.test_dukes_up_table import open_match

TURN = 60


async def test_a_late_member_gets_a_stand_in_for_the_setup_and_for_a_whole_turn(
    world: World,
) -> None:
    world.pin_seed(11)
    match = await open_match(world, turn=TURN)
    table = world.bot.controller.tables.table(match.game_id)
    started = world.env.now().timestamp()
    assert table.deadline == started + TURN // 2, "the setup has half the turn time"

    # Nobody chooses: at the deadline a computer makes both setup choices.
    await world.env.advance_time(TURN // 2 + 1)
    state = match.state
    assert state.phase == "turn"
    setups = [m for m in state.moves if m.action.kind is Kind.SETUP]
    assert len(setups) == 2
    assert table.seat_of(match.members[0].id) == 0, "the member keeps the seat"

    # The mover draws and starts a group, then runs out of time: the working copy is
    # reset to just after the draw, and a computer completes the turn.
    mover = state.to_act[0]
    await match.open(mover)
    await match.press(mover, "dd2")
    card = match.state.view(mover).hand[0].code
    await match.place(mover, [card], "nw")
    turn = match.state.turn
    ply = len(match.state.moves)
    await world.env.advance_time(TURN - 10)
    assert len(match.state.moves) == ply, "a warning is not a move"
    assert table.warned
    await world.env.advance_time(11)
    state = match.state
    assert state.turn == turn + 1 and state.to_act == (1 - mover,)
    done = [m.action.kind for m in state.moves[ply:]]
    assert done[0] is Kind.RESET and done[-1] in (Kind.DISCARD, Kind.FINISH)
    assert state.view(mover).table == state.public_view().table, "nothing is left pending"
    assert table.seat_of(match.members[mover].id) == mover
