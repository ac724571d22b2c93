"""Dukes Up!'s private panel says what the rules say, through simcord: a discard option
marked 🚫 (D4 when no card of the mover's can leave the table) is refused the moment it is
chosen, with its reason and no further step; an End round request shows at once in the
other member's open panel; Undo and Reset are off when they would change nothing (after a
reveal); a typed regrouping that cannot be one names the cards at fault; the draw buttons
name their pile."""

from __future__ import annotations

from typing import Any

import pytest

from bot import ids
from bot.games.dukes_up.render import sym
from tests.bot.driver import World
from tests.bot.dukes_up_positions import placing_log, quiet_log
from tests.bot.test_dukes_up_ends import reach, select_notes
from tests.bot.test_dukes_up_table import Match, open_match

# Found by playing the scripted log (tests.bot.dukes_up_positions.placing_log) of seeds 1–14:
# at the start of turn 7 of seed 1, Black's only cards on the table are the run ♠9 ♠10 ♠J,
# and no one of them can leave it (the other two make no group).
STUCK_SEED, STUCK_TURN = 1, 7


def labels(match: Match, seat: int) -> dict[str, str]:
    """Return every control of the member's panel by payload, enabled or not: its label."""
    found = {}
    for row in match.hands[seat].message.components:
        for child in getattr(row, "children", []):
            parsed = ids.parse(getattr(child, "custom_id", None) or "")
            if isinstance(parsed, ids.Control):
                found[parsed.payload] = getattr(child, "label", None) or ""
    return found


async def stuck_turn(world: World) -> tuple[Match, int]:
    """Return a match at STUCK_TURN, its mover having drawn nothing."""
    world.pin_seed(STUCK_SEED)
    match = await open_match(world)
    moves, _ = placing_log(STUCK_SEED, stop_turn=STUCK_TURN)
    await reach(match, moves)
    (seat,) = match.state.to_act
    await match.press(seat, "dd0")
    return match, seat


async def quiet_turn(world: World) -> tuple[Match, int]:
    """Return a match at the second player's first turn, before the draw (the table empty)."""
    world.pin_seed(4)
    match = await open_match(world)
    await reach(match, quiet_log(4, 1))
    (mover,) = match.state.to_act
    return match, mover


async def submit(match: Match, seat: int, typed: str) -> str:
    """Type ``typed`` into Regroup…'s form; return the panel the answer shows."""
    opened = await match.press(seat, "rg")
    assert opened.modal is not None
    submitted = await match.member(seat).submit_modal(opened, {"f0": typed})
    match.follow(seat, submitted)
    content: str = match.hands[seat].content
    return content


async def test_d4_is_marked_and_refused_at_once_when_no_card_of_yours_can_leave_the_table(
    world: World,
) -> None:
    match, seat = await stuck_turn(world)
    view = match.state.view(seat)
    own = [c for g in view.table for c in g if (c.suit.letter in "CS") == (seat == 0)]
    assert own, "the mover has cards on the table"
    note = select_notes(match.hands[seat], "dk")["d4"]
    assert note.startswith("🚫"), note
    assert "None of your cards can leave the table" in note
    before = len(match.state.moves)
    await match.choose(seat, "dk", ["d4"])
    content = match.hands[seat].content
    assert "Refused: None of your cards can leave the table" in content
    assert "dc4" not in match.panel(seat), "no “which card?” step after a refusal"
    assert len(match.state.moves) == before
    # The other options stay open: D1 discards the hand card.
    assert not select_notes(match.hands[seat], "dk")["d1"].startswith("🚫")


async def test_a_marked_option_is_refused_when_chosen_without_a_walk_through_its_steps(
    world: World,
) -> None:
    match, mover = await quiet_turn(world)
    await match.press(mover, "dd2")
    await match.press(mover, "rv")
    await match.press(mover, "rvy")  # A7 is an action in effect: D2 is barred
    note = select_notes(match.hands[mover], "dk")["d2"]
    assert note.startswith("🚫") and "Only in a turn with no other action" in note
    before = len(match.state.moves)
    await match.choose(mover, "dk", ["d2"])
    content = match.hands[mover].content
    assert "Refused: Only in a turn with no other action." in content
    assert "Which two cards" not in content and "ends on top" not in content
    assert "dc2" not in match.panel(mover)
    assert not any(p.startswith("tp") for p in match.panel(mover))
    assert len(match.state.moves) == before


@pytest.mark.parametrize("asker", ["mover", "waiting"])
async def test_an_end_round_request_shows_at_once_in_the_other_members_open_panel(
    world: World, asker: str
) -> None:
    match, mover = await quiet_turn(world)
    seat = mover if asker == "mover" else 1 - mover
    other = 1 - seat
    assert "Asked to end the round" not in match.hands[other].content
    await match.press(seat, "er")
    shown = match.hands[other].content
    assert "Asked to end the round" in shown and "Press **End round** too" in shown, shown
    assert "er" in match.panel(other)
    assert "Press **End round** too" not in match.hands[seat].content


async def test_undo_and_reset_are_off_when_only_a_reveal_is_in_effect(world: World) -> None:
    match, mover = await quiet_turn(world)
    await match.press(mover, "dd2")
    await match.press(mover, "rv")
    await match.press(mover, "rvy")
    shown = match.panel(mover)
    assert "un" not in shown and "rs" not in shown, "nothing can be undone after a reveal"
    card = match.state.view(mover).hand[0]
    await match.place(mover, [card.code], "nw")
    assert {"un", "rs"} <= set(match.panel(mover))
    await match.press(mover, "un")
    assert "un" not in match.panel(mover) and "rs" not in match.panel(mover)


async def test_a_typed_regrouping_is_refused_naming_the_cards_at_fault(world: World) -> None:
    match, seat = await stuck_turn(world)
    table = match.state.view(seat).table
    (group,) = table
    a, b, c = (sym(x) for x in group)
    hand = sym(match.state.view(seat).hand[0])
    before = len(match.state.moves)
    cases: list[tuple[str, str]] = [
        (f"{a} {b} {c} {hand}", f"{hand} is not on the table"),
        (f"{a} {b} {c} | ♥2 ♦3", "♥2 ♦3 are not on the table"),
        (f"{a} {a} {b} {c}", f"{a} appears twice"),
        (f"{a} {a} {b} {b} {c}", f"{a} {b} appear twice"),
        (f"{a} {b}", f"{c} is missing"),
        (f"{a}", f"{b} {c} are missing"),
    ]
    for typed, said in cases:
        content = await submit(match, seat, typed)
        assert said in content, (typed, content)
        assert "group number" not in content
        assert len(match.state.moves) == before, typed
    # A typing that is one regroups.
    await submit(match, seat, f"{a} {b} {c}")
    assert len(match.state.moves) == before + 1


async def test_the_draw_buttons_name_their_pile(world: World) -> None:
    match, mover = await quiet_turn(world)
    shown: dict[str, Any] = labels(match, mover)
    assert [shown[f"dd{n}"] for n in (0, 1, 2)] == [f"Draw pile: {n}" for n in (0, 1, 2)]
    assert [shown[f"dx{n}"] for n in (1, 2)] == ["Discard pile: 1", "Discard pile: 2"]
