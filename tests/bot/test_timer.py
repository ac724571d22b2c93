"""The turn timer on simcord's virtual clock: one warning, then a computer decides once."""

from __future__ import annotations

import random
import sqlite3

import simcord

from engine.cards import parse_card
from engine.dupe import DupeState, Phase
from tests.bot.driver import GIVE, Game, World, description, live_ids
from tests.bot.helpers import table_message_edits

TURN = 30  # seconds; the warning comes 7 s before the deadline (a quarter, at least 5)
WARN_AT = TURN - 7


def warning_edits(world: World, game: Game) -> int:
    """Return how many edits of the table message carried a time warning."""
    count = 0
    for request in table_message_edits(world.env, world.channel.id, game.message_id):
        if not request.json:
            continue
        embeds = request.json.get("embeds") or []
        if any("⏰" in (embed.get("description") or "") for embed in embeds):
            count += 1
    return count


async def alone_with_computers(world: World) -> tuple[simcord.MemberActor, Game]:
    """Alice opens a table with a ``TURN`` s timer and starts it against three computers."""
    alice = world.member("alice")
    game, _ = await Game.open(world, alice, turn_time=TURN)
    await game.press(alice, "Start")
    return alice, game


async def test_a_late_member_is_warned_once_then_a_computer_decides_for_that_seat(
    world: World,
) -> None:
    alice, bob = members = world.members("alice", "bob")
    game, _ = await Game.open(world, alice, turn_time=TURN, computers="random")
    await game.press(bob, "Join")
    await game.press(alice, "Start")
    started = world.env.now().timestamp()
    assert game.row()["deadline"] == started + TURN
    for member in members:
        await game.open_hand(member)
    rng = random.Random(5)
    await game.decide(alice, rng, strict=True)
    ply = len(game.moves())

    await world.env.advance_time(WARN_AT - 1)
    assert "⏰" not in description(game.message)
    assert game.row()["warned"] == 0

    await world.env.advance_time(2)
    shown = description(game.message)
    assert "⏰ East: time is nearly up" in shown, shown
    assert f"<t:{int(started + TURN)}:R>" in shown
    assert game.row()["warned"] == 1
    assert len(game.moves()) == ply, "a warning is not a move"

    await world.env.advance_time(TURN - WARN_AT - 2)  # one second before the deadline
    assert len(game.moves()) == ply
    assert warning_edits(world, game) == 1, "warned once"

    await world.env.advance_time(2)
    rows = game.moves()
    assert rows[ply].seat == 1 and rows[ply].by_computer, "a computer chose for East"
    assert game.seats()[1] == (bob.id, None), "bob keeps his seat"
    # Bob's hand says what was chosen for him, and why; alice's says nothing of it.
    chosen = str(parse_card(rows[ply].move.split(":")[1]))
    bobs = game.hands[bob.id].content
    assert f"⏰ Time ran out: a computer chose {chosen} for you." in bobs, bobs
    assert "Time ran out" not in game.hands[alice.id].content
    assert "⏰" not in description(game.message)
    assert warning_edits(world, game) == 1
    state = game.state()
    assert (state.trick, state.phase) != (1, Phase.CHOOSE), "the game went on"

    # Next decisions: both members act from their (refreshed) hands, as members.
    await game.play(members, rng, until=lambda s: s.trick == 3, strict=True)
    assert not any(row.by_computer for row in game.moves()[ply + 1 :] if row.seat in (0, 1))

    # A taker who does not distribute in time: a computer distributes for them, once.
    def alice_distributes(s: DupeState) -> bool:
        return s.phase is Phase.DISTRIBUTE and s.taker == 0

    await game.play(members, rng, until=alice_distributes, strict=True)
    assert live_ids(game.hands[alice.id], GIVE)
    await game.give_steps(alice, rng, 1)  # she starts, then hesitates
    ply = len(game.moves())
    await world.env.advance_time(TURN + 1)
    distribution = game.moves()[ply]
    assert distribution.seat == 0 and distribution.by_computer and "," in distribution.move
    state = game.state()
    assert not (state.phase is Phase.DISTRIBUTE and state.taker == 0)
    assert game.seats()[0] == (alice.id, None)
    assert not live_ids(game.hands[alice.id], GIVE), "her hand no longer offers the old steps"


async def test_the_deadline_survives_restarts_and_the_warning_is_not_repeated(
    world: World,
) -> None:
    alice, game = await alone_with_computers(world)
    deadline = game.row()["deadline"]
    assert deadline == world.env.now().timestamp() + TURN
    ply = len(game.moves())
    assert ply == 3, "the three computers chose at once"

    await world.env.advance_time(10)
    await world.restart()
    assert game.row()["deadline"] == deadline
    await world.env.advance_time(WARN_AT - 10 - 1)
    assert "⏰" not in description(game.message)
    await world.env.advance_time(2)
    assert "⏰ North: time is nearly up" in description(game.message), "the new bot warns"
    assert game.row()["warned"] == 1

    await world.restart()  # 6 s before the deadline: it moves to 7 s (the warning's length)
    await world.env.advance_time(TURN - WARN_AT - 2)
    assert len(game.moves()) == ply
    await world.env.advance_time(3)
    rows = game.moves()
    assert rows[ply].seat == 0 and rows[ply].by_computer
    assert warning_edits(world, game) == 1, "the restarted bot did not warn again"
    assert game.seats()[0] == (alice.id, None)

    # Alice goes on normally with a fresh hand.
    await game.open_hand(alice)
    ply = len(game.moves())
    await game.decide(alice, random.Random(2), strict=True)
    assert game.moves()[ply].seat == 0 and not game.moves()[ply].by_computer
    assert game.row()["deadline"] is not None


async def test_a_deadline_that_passed_while_the_bot_was_down_leaves_time_to_act(
    world: World,
) -> None:
    alice, game = await alone_with_computers(world)
    ply = len(game.moves())

    await world.bot.controller.tables.close()  # the process stops: no timer runs any more
    await world.env.advance_time(TURN * 3)
    assert len(game.moves()) == ply
    await world.restart()

    assert len(game.moves()) == ply, "nobody could act while the bot was down"
    assert "⏰ North: time is nearly up" in description(game.message)
    await world.env.advance_time(TURN - WARN_AT - 1)
    assert len(game.moves()) == ply, "the warning's time is hers"
    await game.open_hand(alice)
    await game.decide(alice, random.Random(3), strict=True)
    assert game.moves()[ply].seat == 0 and not game.moves()[ply].by_computer


async def test_table_edits_combine_the_changes_of_the_edit_interval(world: World) -> None:
    alice, bob = members = world.members("alice", "bob")
    game, _ = await Game.open(world, alice, computers="random")
    await game.press(bob, "Join")
    await game.press(alice, "Start")
    await world.restart(table_edit_seconds=1.5)  # the default interval
    for member in members:
        await game.open_hand(member)

    def table_edits() -> int:
        return len(table_message_edits(world.env, world.channel.id, game.message_id))

    edits = table_edits()
    shown = description(game.message)
    rng = random.Random(1)
    await game.decide(alice, rng, strict=True)
    assert table_edits() == edits, "a change waits for the interval"
    await world.env.advance_time(1.0)
    await game.decide(bob, rng, strict=True)
    assert table_edits() == edits
    assert description(game.message) == shown
    await world.env.advance_time(0.4)
    assert table_edits() == edits
    await world.env.advance_time(0.2)
    assert table_edits() == edits + 1, "both changes show in one edit"
    shown = description(game.message)
    assert "Waiting for: East" not in shown
    assert ("Trick 1:" in shown) or ("takes the trick" in shown), shown
    await world.env.advance_time(60)
    assert table_edits() == edits + 1, "nothing changed since"


async def test_a_failed_write_of_the_warning_does_not_stop_the_timer(world: World) -> None:
    """A full disk or a locked moment when the warning is recorded: the member is warned
    all the same, and a computer still decides at the deadline (the timer survives)."""
    alice, game = await alone_with_computers(world)
    await game.open_hand(alice)
    store = world.bot.store
    failures: list[int] = []
    write = store.set_warned

    async def failing(game_id: int) -> None:
        if not failures:
            failures.append(game_id)
            raise sqlite3.OperationalError("database or disk is full")
        await write(game_id)

    store.set_warned = failing  # type: ignore[method-assign]
    ply = len(game.moves())
    await world.env.advance_time(WARN_AT + 1)
    assert failures == [game.id], "the warning's write failed"
    assert "⏰" in description(game.message), "the member was warned all the same"
    await world.env.advance_time(TURN - WARN_AT)
    rows = game.moves()
    assert len(rows) > ply and rows[ply].seat == 0 and rows[ply].by_computer, (
        "the timer survived the failed write: a computer decided at the deadline"
    )
