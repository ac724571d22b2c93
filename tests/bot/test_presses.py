"""Presses judged by the rules, not by timing: a press made before the latest move is
applied, in arrival order, when its action is still legal and still means what the member
chose (a Doppelkopf announcement while its window is open, whatever cards were played
meanwhile); otherwise it is refused, saying what changed — to the presser as "you" when the
move was their own — with the hand as it is now. A card pressed for an earlier trick is
never played into a later one."""

from __future__ import annotations

from typing import Any

from simcord.actors import _component_click

from engine.cards import parse_card
from engine.doppelkopf import DoppelkopfOptions
from tests.bot.driver import World, _together, click_together, forge_click
from tests.bot.test_doppelkopf_table import Table, find_seed


def _normal_deal(state: Any) -> bool:
    """A deal nobody can make a marriage of: four healthy seats play a normal game."""
    queen = parse_card("QC")
    return all(state.hand(seat).count(queen) < 2 for seat in range(4))


async def normal_game(world: World) -> Table:
    """Open a tournament table of four members, all healthy: a normal game, in play."""
    table = await Table.open(world, find_seed(DoppelkopfOptions(), _normal_deal))
    while table.state().phase == "reservations":
        await table.press(table.state().to_act[0], "=healthy")
    assert table.state().phase == "play" and table.state().game == "normal"
    return table


def first_card(table: Table, seat: int) -> str:
    """Return the payload of the seat's first card button."""
    return next(p for p in table.controls(seat) if len(p) == 3 and p[0] == "=")


def of_party(table: Table, party: str, but: int | None = None) -> int:
    """Return a seat of ``party`` (other than ``but``)."""
    state = table.state()
    return next(s for s in range(4) if state.party(s) == party and s != but)


async def test_contra_at_the_moment_the_first_card_is_played_is_applied(world: World) -> None:
    table = await normal_game(world)
    leader = table.state().to_act[0]
    contra = of_party(table, "contra", but=leader)
    card = first_card(table, leader)
    await click_together(
        (table.members[leader], table.hands[leader].message, table.controls(leader)[card]),
        (table.members[contra], table.hands[contra].message, table.controls(contra)["=contra"]),
    )
    assert table.stored()[-2:] == [f"{leader + 1}:{card[1:]}", f"{contra + 1}:contra"]
    hand = table.hands[contra]
    assert "=contra" not in table.controls(contra), "Contra was said: its button is gone"
    assert not hand.content.startswith("⚠️"), hand.content


async def test_an_announcement_on_an_older_hand_after_a_card_is_applied(world: World) -> None:
    table = await normal_game(world)
    leader = table.state().to_act[0]
    re_seat = of_party(table, "re", but=leader)
    older = table.controls(re_seat)["=re"]  # the hand as it was before the card
    await table.press(leader, first_card(table, leader))
    pressed = await forge_click(table.members[re_seat], table.hands[re_seat], older)
    assert pressed.acknowledged
    assert table.stored()[-1] == f"{re_seat + 1}:re"
    assert not table.hands[re_seat].content.startswith("⚠️"), table.hands[re_seat].content


async def test_re_and_contra_pressed_together_are_both_applied(world: World) -> None:
    table = await normal_game(world)
    re_seat, contra = of_party(table, "re"), of_party(table, "contra")
    results = await click_together(
        (table.members[re_seat], table.hands[re_seat].message, table.controls(re_seat)["=re"]),
        (table.members[contra], table.hands[contra].message, table.controls(contra)["=contra"]),
    )
    assert all(r.acknowledged for r in results)
    assert sorted(table.stored()[-2:]) == sorted([f"{re_seat + 1}:re", f"{contra + 1}:contra"])
    for seat in (re_seat, contra):
        assert "Too late" not in table.hands[seat].content, table.hands[seat].content
    data = table.state().public_view().data
    assert {a["kind"] for a in data["announcements"]} == {"re", "contra"}


async def test_a_card_pressed_for_an_earlier_trick_is_refused(world: World) -> None:
    table = await normal_game(world)
    # Trick 1 is played by all four; the leader's cards as trick 1 offered them.
    leader = table.state().to_act[0]
    older = table.controls(leader)
    played = first_card(table, leader)
    await table.play_cards(until=lambda state: state.trick_number == 2)
    stored = table.stored()
    hand = {c.code for c in table.state().hand(leader)}
    # A card still in the hand, pressed on the message of trick 1's lead.
    card = next(p for p in older if len(p) == 3 and p[0] == "=" and p != played and p[1:] in hand)
    pressed = await forge_click(table.members[leader], table.hands[leader], older[card])
    assert pressed.acknowledged
    assert table.stored() == stored, "a card pressed for trick 1 is not played into trick 2"
    content = table.hands[leader].content
    # What overtook that press was the leader's own card of trick 1.
    assert content.startswith(f"⚠️ Too late: you played {parse_card(played[1:])} first"), content


async def test_a_refusal_says_you_when_the_move_was_the_presser_s_own(world: World) -> None:
    table = await normal_game(world)
    leader = table.state().to_act[0]
    older = table.controls(leader)
    first, second = [p for p in older if len(p) == 3 and p[0] == "="][:2]
    # Both pressed at once (a second hand message, a double press): the first card counts.
    await click_together(
        (table.members[leader], table.hands[leader].message, older[first]),
        (table.members[leader], table.hands[leader].message, older[second]),
    )
    assert table.stored()[-1] == f"{leader + 1}:{first[1:]}"
    assert table.stored().count(f"{leader + 1}:{second[1:]}") == 0
    content = table.hands[leader].content
    assert content.startswith(f"⚠️ Too late: you played {parse_card(first[1:])} first"), content


async def test_an_announcement_after_its_window_closed_is_refused(world: World) -> None:
    """Re is open to a Re member until their second card: pressed on an older hand after
    it, it is refused, naming their own card."""
    table = await normal_game(world)
    re_seat = of_party(table, "re")
    older = table.controls(re_seat)["=re"]
    await table.play_cards(until=lambda state: len(state.hand(re_seat)) == 10)
    stored = table.stored()
    assert "=re" not in table.controls(re_seat)
    pressed = await forge_click(table.members[re_seat], table.hands[re_seat], older)
    assert pressed.acknowledged
    assert table.stored() == stored
    mine = parse_card(stored[-1].split(":")[1])
    content = table.hands[re_seat].content
    assert content.startswith(f"⚠️ Too late: you played {mine} first"), content


async def test_a_refusal_is_not_wiped_out_by_the_move_that_overtook_it(world: World) -> None:
    """Why a press was once dropped without a word: the hand refresh owed to the move
    that overtook it went out after the refusal's answer and redrew the hand without it."""
    table = await normal_game(world)
    re_seat = of_party(table, "re")
    older = table.controls(re_seat)["=re"]
    await table.play_cards(until=lambda state: len(state.hand(re_seat)) == 10)
    stored = table.stored()
    nxt = table.state().to_act[0]
    card = first_card(table, nxt)
    member = table.members[re_seat]
    await _together(
        world.env,
        [
            _component_click(
                table.members[nxt],
                table.hands[nxt].message,
                label=None,
                custom_id=table.controls(nxt)[card],
            ),
            forge_click(member, table.hands[re_seat], older, operation=False),
        ],
    )
    assert table.stored() == [*stored, f"{nxt + 1}:{card[1:]}"]
    content = table.hands[re_seat].content
    assert content.startswith("⚠️ Too late:"), content


async def test_dukes_up_end_round_pressed_on_an_older_panel_is_applied(world: World) -> None:
    """Either seat may press End round at any time of a turn (the rules): pressed on the
    panel as it was before the mover's draw, it still counts; a draw pressed twice does
    not, and the second press says the presser acted since."""
    from engine.dukes_up import Kind
    from tests.bot.test_dukes_up_table import open_match, setup_both

    match = await open_match(world)
    await setup_both(match)
    mover = match.state.mover
    assert mover is not None
    other = 1 - mover if mover in (0, 1) else 0
    older_end = match.panel(other)["er"].custom_id
    older_draw = match.panel(mover)["dd0"].custom_id
    await match.press(mover, "dd0")
    pressed = await forge_click(match.member(other), match.hands[other], older_end)
    assert pressed.acknowledged
    last = match.state.moves[-1]
    assert (last.seat, last.action.kind) == (other, Kind.END_ROUND)
    moves = match.moves()
    again = await forge_click(match.member(mover), match.hands[mover], older_draw)
    assert again.acknowledged and match.moves() == moves
    assert match.hands[mover].content.startswith("⚠️ You have acted since"), match.hands[
        mover
    ].content
