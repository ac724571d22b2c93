"""After a restart the bot cannot edit the hand messages it sent before: a member whose
turn comes learns it from the table message, which names them and tells them to press
**My hand**; once they have a fresh hand message, the table stops asking."""

from __future__ import annotations

from tests.bot.driver import World
from tests.bot.test_presses import first_card, normal_game


async def test_the_table_names_whose_turn_it_is_when_their_hand_is_older_than_a_restart(
    world: World,
) -> None:
    table = await normal_game(world)
    await world.env.advance_time(5)
    assert "My hand" not in (table.public().content or "")
    await world.restart()
    leader = table.state().to_act[0]
    await table.press(leader, first_card(table, leader))  # an old button still works
    await world.env.advance_time(5)
    nxt = table.state().to_act[0]
    name = table.members[nxt].name
    # Their hand message still says "Waiting for …": the bot cannot edit it any more.
    assert "Your turn" not in table.hands[nxt].content
    note = table.public().content or ""
    assert note.startswith(f"⏰ **{name}**: it is your turn"), note
    assert "press **My hand**" in note

    fresh = await table.members[nxt].click(table.public(), label="My hand")
    assert fresh.response is not None and "Your turn" in fresh.response.content
    table.hands[nxt] = fresh.response
    await table.press(nxt, first_card(table, nxt))
    await world.env.advance_time(5)
    after = table.state().to_act[0]
    note = table.public().content or ""
    assert f"**{name}**" not in note
    assert note.startswith(f"⏰ **{table.members[after].name}**: it is your turn"), note
