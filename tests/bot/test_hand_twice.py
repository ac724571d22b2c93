"""My hand opened twice: only the newest hand message is kept current; the older one says
a newer one replaced it and offers no buttons (a press there could only be stale)."""

from __future__ import annotations

import random

from tests.bot.driver import PLAY, Game, World, live_ids


async def test_the_older_of_two_hand_messages_says_it_was_replaced(world: World) -> None:
    alice, bob = world.members("alice", "bob")
    game, _ = await Game.open(world, alice, computers="expert")
    await game.press(bob, "Join")
    await game.press(alice, "Start")
    await game.open_hand(bob)
    first = await game.open_hand(alice)
    second = await game.open_hand(alice)
    await world.env.advance_time(1)
    assert first.content.startswith("You opened a newer hand message"), first.content
    assert live_ids(first) == []
    assert live_ids(second, PLAY)
    # The newer one is the hand: a card pressed there counts, and it stays current.
    moves = len(game.moves())
    await game.click(alice, live_ids(second, PLAY)[0])
    await game.decide(bob, random.Random(2))
    await world.env.advance_time(1)
    assert len(game.moves()) > moves + 1
    assert "Revealed:" in second.content, second.content  # bob's choice shows on it
    assert first.content.startswith("You opened a newer hand message")
