"""A member plays a whole Dukes Up! match against the ``expert`` computer, through simcord:
the level is offered by ``/dukesup start``, the computer fills the empty seat and plays its
turns (off the event loop: it is one of the game's slow levels) until the match is over."""

from __future__ import annotations

from bot import ids
from engine.dukes_up import GAME
from tests.bot.driver import World
from tests.bot.test_dukes_up_table import Match, play_turn


async def test_a_member_plays_a_whole_match_against_the_expert(world: World) -> None:
    assert "expert" in GAME.levels and "expert" in GAME.slow_levels
    world.pin_seed(7)
    (alice,) = world.members("alice")
    opened = await alice.slash(
        world.channel, "dukesup start", turn_time=900, computers="expert", max_turns=50
    )
    assert opened.response is not None and not opened.ephemeral
    table = world.bot.controller.tables.table_in(world.channel.id)
    assert table is not None
    await alice.click(opened.response.message, custom_id=ids.table_button(table.id, "start"))
    match = Match(world, [alice], table.id)
    seat = match.seat(alice)
    computer = (seat + 1) % 2
    live = world.bot.controller.tables.table(table.id)
    assert live.seats[computer].is_computer and live.seats[computer].level == "expert"
    await match.open(seat)

    cards = [c.code for c in match.state.view(seat).setup]
    await match.choose(seat, "sc", [cards[0]])
    await match.choose(seat, f"sd{cards[0]}", cards[1:3])
    await match.press(seat, f"su{cards[0]}.{cards[1]}.{cards[2]}")
    number = 0
    while match.state.phase == "turn":
        assert match.state.to_act == (seat,), "the computer has played its turn"
        await play_turn(match, seat, number)
        number += 1
    state = match.state
    assert state.is_over and state.results
    assert any(m.seat == computer for m in state.moves[2:]), "the expert took turns"
    rows = world.query("SELECT seat, win FROM results WHERE game_id = ?", (table.id,))
    assert {s for s, _ in rows} == {0, 1}
