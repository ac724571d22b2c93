"""A whole game by four members, through slash commands and clicks only."""

from __future__ import annotations

import random
import re

from bot import ids
from engine.dupe import Phase
from tests.bot.driver import (
    GIVE,
    PLAY,
    Game,
    World,
    description,
    forge_click,
    ids_of,
    live_ids,
    private_text,
    standings_totals,
)

NAMES = ("alice", "bob", "carol", "dave")


async def test_four_members_play_four_deals_to_the_final_standings(world: World) -> None:
    members = world.members(*NAMES)
    alice = members[0]
    game, _ = await Game.open(world, alice, computers="none", memory="strict")
    for member in members[1:]:
        joined = await game.press(member, "Join")
        assert joined.response is not None and joined.response.id == game.message_id
    lobby = game.message
    for seat, member in enumerate(members):
        assert f"{('North', 'East', 'South', 'West')[seat]} · {member.name}" in description(lobby)
    assert f"dupe:lobby:join:{game.id}" not in live_ids(lobby), "a full table cannot be joined"

    started = await game.press(alice, "Start")
    assert started.response is not None and started.response.id == game.message_id
    assert game.seats() == {s: (m.id, None) for s, m in enumerate(members)}
    assert game.moves() == [], "nobody has chosen yet: there are no computer players"
    assert "Waiting for: North, East, South, West" in description(game.message)

    for member in members:
        hand = await game.open_hand(member)
        assert len(live_ids(hand, PLAY)) == 13
        assert "Your identity card" in hand.content

    rng = random.Random(7)
    # The first taker gives two cards, thinks again and presses Start over.
    state = await game.play(members, rng, until=lambda s: s.phase is Phase.DISTRIBUTE, strict=True)
    taker = members[state.taker or 0]
    hand = game.hands[taker.id]
    await game.give_steps(taker, rng, 2)
    assert "So far:" in hand.content
    (start_over,) = live_ids(hand, "restart")
    await game.click(taker, start_over)
    assert "So far:" not in hand.content
    assert len(live_ids(hand, GIVE)) == 4, "every player can receive the first card again"
    assert game.state().phase is Phase.DISTRIBUTE, "nothing was distributed yet"

    # Deal 1's last trick stays on the table until deal 2's first is complete: everybody
    # sees who got which card before the won cards become the new hands.
    state = await game.play(members, rng, until=lambda s: s.deal == 2, strict=True)
    last = state.public_view().last_trick
    assert last is not None and (last.deal, last.trick) == (1, 13)
    shown = description(game.message)
    assert "**Deal 1, trick 13:**" in shown, shown
    assert all(str(card) in shown for card in last.cards)

    await game.play(members, rng, strict=True)

    final = game.assert_log_replays()
    rows = game.moves()
    assert not any(row.by_computer for row in rows), "no timer ran out"
    assert game.reopened == 0 and game.stale_notices == 0, "every hand was kept current"
    assert sum(1 for row in rows if "," in row.move) > 0, "members distributed tricks"

    # The public record: four deal scorings, then the final standings.
    scorings = world.titled("Dupe — deal ")
    assert [m.embeds[0].title for m in scorings] == [f"Dupe — deal {d} scored" for d in range(1, 5)]
    for message, result in zip(scorings, final.results, strict=True):
        totals_field = next(f for f in message.embeds[0].fields if f.name == "Totals")
        for seat, name in enumerate(("North", "East", "South", "West")):
            assert f"{name} +{result.credited[seat]} = {result.totals[seat]}" in (
                totals_field.value or ""
            )
    (standings,) = world.titled("Dupe — final standings")
    assert standings_totals(standings) == dict(enumerate(final.totals))
    assert world.messages()[-1].id == standings.id
    winners = " and ".join(members[s].name for s in final.winners)
    assert winners in description(standings)

    # The database: results rows equal to the replayed totals, the table closed.
    win = 1 / len(final.winners)
    assert game.results() == {
        seat: (members[seat].id, final.totals[seat], win if seat in final.winners else 0.0)
        for seat in range(4)
    }
    row = game.row()
    assert row["status"] == "finished" and row["deadline"] is None
    table = game.message
    assert table.embeds[0].title == "Dupe — game over"
    assert ids_of(table) == [], "a finished table has no buttons"
    assert "My hand" not in (table.embeds[0].footer.text or ""), "no button to press"
    named = ", ".join(members[s].name for s in final.winners)
    assert f"🏆 Winner: {named}" in description(table), "the winners by their names"

    # Every member's hand says the game is over; a card button clicked late (here one of
    # the last trick, forged) answers so privately.
    for member in members:
        assert "The game is over." in game.hands[member.id].content, member.name
        assert live_ids(game.hands[member.id]) == []
    last = members[rows[-1].seat]
    other = next(m for m in members if m is not last)
    seat = game.seat_of(other)
    # today's ids, and those from before them (still understood)
    for late in (ids.control(game.id, seat, 180, "pAS"), f"dupe:play:{game.id}:{seat}:51:AS"):
        answer = await forge_click(other, game.hands[other.id], late)
        assert private_text(answer) == (
            "That game is over or was cancelled; its buttons no longer work."
        )
    assert len(game.moves()) == len(rows)

    # The leaderboard lists each member once, with the points of this game.
    board = await alice.slash(world.channel, "leaderboard")
    assert board.response is not None and board.response.ephemeral
    text = description(board.response)
    for seat, member in enumerate(members):
        lines = [line for line in text.splitlines() if f"<@{member.id}>" in line]
        assert len(lines) == 1, text
        assert f"— {final.totals[seat]} pts · 1 game" in lines[0]
    places = [int(m) for m in re.findall(r"\*\*(\d+)\.\*\*", text)]
    assert places == [1, 2, 3, 4]
