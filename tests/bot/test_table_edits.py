"""The core's table-message edits, turn times and computer players, over every game: an
edit that would show what the message already shows is not sent (a step of a Dukes Up!
turn's working copy), one that changes it is; a game may bring its own default turn time
(Dukes Up!'s 180 s, the setup half of it), which the shared ``turn_time`` choices offer too;
computer levels a game marks slow (whist's expert) decide off the event loop."""

from __future__ import annotations

import threading
from types import SimpleNamespace
from typing import Any

import pytest
import simcord

from bot import computers, ids, tables
from bot.commands import compose_defaults, shared_options
from bot.config import Settings
from bot.games.dukes_up.ui import UI as DUKES_UP
from bot.games.dupe.ui import UI as DUPE
from bot.i18n import t
from engine.dukes_up import Kind
from tests.bot.driver import World
from tests.bot.helpers import TOKEN, DukesSeat, panel_controls, table_message_edits


def board_edits(world: World, message_id: int) -> int:
    """Return how many times the bot has edited the public message ``message_id``."""
    return len(table_message_edits(world.env, world.channel.id, message_id))


async def open_table(
    world: World, command: str, members: list[simcord.MemberActor], **options: Any
) -> tuple[Any, list[simcord.ResponseMessage]]:
    """Open a table, seat ``members`` (the first hosts), start it and open every hand."""
    opened = await members[0].slash(world.channel, f"{command} start", **options)
    assert opened.response is not None
    table = world.bot.controller.tables.table_in(world.channel.id)
    assert table is not None
    for member in members[1:]:
        await member.click(opened.response.message, custom_id=ids.table_button(table.id, "join"))
    await members[0].click(opened.response.message, custom_id=ids.table_button(table.id, "start"))
    public = next(m for m in world.messages() if m.id == table.message_id)
    hands = []
    for member in members:
        shown = await member.click(public, custom_id=ids.table_button(table.id, "hand"))
        assert shown.response is not None and shown.response.ephemeral
        hands.append(shown.response)
    return table, hands


async def test_a_dukes_up_working_copy_edits_no_board_and_its_end_does(world: World) -> None:
    world.pin_seed(7)
    members = world.members("alice", "bob")
    table, hands = await open_table(world, "dukesup", members, turn_time=900, computers="none")
    seats = [DukesSeat(m, h, table, i) for i, (m, h) in enumerate(zip(members, hands, strict=True))]
    for seat in seats:
        await seat.act()  # the setup
    mover = seats[table.state.to_act[0]]
    draws = [a for a in mover.view().legal if a.kind is Kind.DRAW]
    draw = max(draws, key=lambda a: (a.word == "draw", a.n))
    assert await mover.press(f"d{'d' if draw.word == 'draw' else 'x'}{draw.n}")
    await world.env.advance_time(2)  # the draw shows on the board at once
    edits = board_edits(world, table.message_id)

    # New group, Undo, New group, Reset: four moves of the working copy, none public.
    card = mover.view().hand[0].code
    for step in ("un", "rs"):
        assert await mover.choose("cs", [card])
        assert await mover.press(f"nw{card}")
        assert mover.view().actions != ()
        assert await mover.press(step)
    await world.env.advance_time(2)
    assert mover.view().actions == ()
    assert board_edits(world, table.message_id) == edits  # nothing public changed

    moves = len(table.state.moves)
    await mover.end_turn()
    assert len(table.state.moves) > moves and mover.seat not in table.state.to_act
    await world.env.advance_time(2)
    assert board_edits(world, table.message_id) > edits


async def test_a_whist_card_edits_the_table(world: World) -> None:
    (alice,) = world.members("alice")
    table, (hand,) = await open_table(world, "whist", [alice], computers="random")
    await world.env.advance_time(2)
    edits = board_edits(world, table.message_id)
    card = next(p for p in panel_controls(hand) if p[:1] == "=")
    played = await alice.click(hand.message, custom_id=panel_controls(hand)[card].custom_id)
    assert played.acknowledged
    await world.env.advance_time(2)
    assert board_edits(world, table.message_id) > edits


async def test_dukes_up_tables_get_the_rules_turn_time(world: World) -> None:
    members = world.members("alice", "bob")
    table, hands = await open_table(world, "dukesup", members, computers="none")
    assert table.options.turn_seconds == 180
    clock = world.bot.controller.tables.clock
    assert table.deadline is not None and round(table.deadline - clock()) == 90  # the setup
    public = next(m for m in world.messages() if m.id == table.message_id)
    assert "3 min" in (public.embeds[0].footer.text or "")
    for i, (member, hand) in enumerate(zip(members, hands, strict=True)):
        await DukesSeat(member, hand, table, i).act()  # the setup
    assert table.state.phase == "turn"
    assert table.deadline is not None and round(table.deadline - clock()) == 180


async def test_other_games_keep_the_configured_default(world: World) -> None:
    (alice,) = world.members("alice")
    opened = await alice.slash(world.channel, "dupe start", computers="random")
    assert opened.response is not None
    table = world.bot.controller.tables.table_in(world.channel.id)
    assert table is not None and table.options.turn_seconds == 120


def test_a_configured_turn_time_is_every_games_default() -> None:
    unset = SimpleNamespace(settings=Settings(token=TOKEN))
    chosen = SimpleNamespace(settings=Settings(token=TOKEN, turn_seconds=60))
    assert compose_defaults(unset, DUKES_UP, {})["turn_seconds"] == 180  # type: ignore[arg-type]
    assert compose_defaults(unset, DUPE, {})["turn_seconds"] == 120  # type: ignore[arg-type]
    assert compose_defaults(chosen, DUKES_UP, {})["turn_seconds"] == 60  # type: ignore[arg-type]
    server = {"turn_seconds": 300}  # a server's own defaults come first
    assert compose_defaults(unset, DUKES_UP, server)["turn_seconds"] == 300  # type: ignore[arg-type]


def test_three_minutes_is_a_turn_time_choice_in_both_languages() -> None:
    (turn_time,) = [spec for spec in shared_options(DUKES_UP) if spec.name == "turn_time"]
    values = [choice.value for choice in turn_time.choices]
    assert values == sorted(values) and 180 in values
    assert t("en", "commands.turn_180") == "3 minutes"
    assert t("de", "commands.turn_180") == "3 Minuten"


@pytest.mark.parametrize(("level", "thread"), [("expert", "computers"), ("basic", "MainThread")])
async def test_slow_computer_levels_decide_off_the_event_loop(
    world: World, monkeypatch: pytest.MonkeyPatch, level: str, thread: str
) -> None:
    seen: list[str] = []
    run = computers.run_computers

    def recorded(*args: Any) -> None:
        seen.append(threading.current_thread().name)
        run(*args)

    stand_ins = tables.Tables._stand_ins

    def stood_in(self: tables.Tables, *args: Any) -> Any:
        seen.append(threading.current_thread().name)
        return stand_ins(self, *args)

    monkeypatch.setattr(computers, "run_computers", recorded)
    monkeypatch.setattr(tables.Tables, "_stand_ins", stood_in)
    (alice,) = world.members("alice")
    table, (hand,) = await open_table(world, "whist", [alice], computers=level)
    card = next(p for p in panel_controls(hand) if p[:1] == "=")
    await alice.click(hand.message, custom_id=panel_controls(hand)[card].custom_id)
    assert len(table.state.moves) > 4  # the computers played around the member's card
    moves = len(table.state.moves)
    await world.env.advance_time(table.options.turn_seconds + 1)  # a stand-in plays for her
    assert len(table.state.moves) > moves
    assert len(seen) >= 3 and all(name.startswith(thread) for name in seen), seen
