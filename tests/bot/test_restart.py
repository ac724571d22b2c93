"""A restart loses nothing: the table comes back from the database and old buttons work."""

from __future__ import annotations

import random

from engine.cards import by_suit
from engine.dupe import SEAT_LETTERS, DupeState, Phase
from tests.bot.driver import (
    GIVE,
    GIVEOK,
    PLAY,
    Game,
    World,
    description,
    forge_click,
    live_ids,
    standings_totals,
)


async def test_restarts_in_the_lobby_mid_trick_and_mid_distribution(world: World) -> None:
    alice, bob, carol = members = world.members("alice", "bob", "carol")
    rng = random.Random(11)

    # In the lobby: a restart keeps the seats, and the old lobby message still works.
    game, _ = await Game.open(world, alice, computers="expert")
    await game.press(bob, "Join")
    await world.restart()
    await game.press(carol, "Join")
    assert game.seats() == {0: (alice.id, None), 1: (bob.id, None), 2: (carol.id, None)}
    await game.press(alice, "Start")
    assert game.seats()[3] == (None, "expert")
    for member in members:
        await game.open_hand(member)

    # Mid-trick: North has chosen, East and South have not.
    await game.play(members, rng, until=lambda s: s.deal == 1 and s.trick == 3, strict=True)
    state = game.state()
    assert state.phase is Phase.CHOOSE and state.to_act == (0, 1, 2)
    await game.decide(alice, rng, strict=True)
    logged = game.moves()
    deadline = game.row()["deadline"]

    await world.restart()
    assert game.moves() == logged and game.row()["deadline"] == deadline
    shown = description(game.message)
    status = await carol.slash(world.channel, "dupe status")
    assert status.response is not None and status.response.ephemeral
    assert "Waiting for: East, South" in (status.response.embeds[0].description or "")
    assert "Waiting for: East, South" in shown

    # East and South press cards on the hand messages the old bot sent.
    for member in (bob, carol):
        old_hand = game.hands[member.id]
        card = rng.choice(live_ids(old_hand, PLAY))
        ply = len(game.moves())
        result = await member.click(old_hand.message, custom_id=card)
        assert result.acknowledged
        assert result.response is not None and result.response.id == old_hand.id
        assert not old_hand.content.startswith("⚠️"), old_hand.content
        row = game.moves()[ply]
        assert (row.seat, row.move, row.by_computer) == (
            game.seat_of(member),
            f"{SEAT_LETTERS[game.seat_of(member)]}:{card.rsplit(':p', 1)[1]}",
            False,
        )
    assert game.state().trick > 3 or game.state().phase is Phase.DISTRIBUTE

    # Mid-distribution: a member takes a trick and has given two cards when the bot restarts.
    def member_distributes(s: DupeState) -> bool:
        return s.phase is Phase.DISTRIBUTE and s.taker in (0, 1, 2)

    state = await game.play(members, rng, until=member_distributes)
    taker = members[state.taker or 0]
    hand = game.hands.get(taker.id)
    if hand is None or not live_ids(hand, GIVE):
        await game.open_hand(taker)  # a hand the new bot could not refresh
    await game.give_steps(taker, rng, 2)
    before = game.moves()
    old_hand = game.hands[taker.id]
    assert "So far:" in old_hand.content

    await world.restart()
    assert game.moves() == before
    await game.give_steps(taker, rng, 2)  # on the old message
    (confirm,) = live_ids(old_hand, GIVEOK)
    assignment = confirm.rsplit(":k", 1)[1]
    result = await taker.click(old_hand.message, custom_id=confirm)
    assert result.acknowledged and result.response is not None
    assert result.response.id == old_hand.id
    rows = game.moves()
    distribution, *computers = rows[len(before) :]
    assert all(row.seat == 3 and row.by_computer for row in computers)
    assert distribution.seat == state.taker and not distribution.by_computer
    revealed = sorted(state.public_view().revealed or (), key=by_suit)
    given = dict(zip(assignment, revealed, strict=True))
    expected = ",".join(given[letter].code for letter in SEAT_LETTERS)
    assert distribution.move == f"{SEAT_LETTERS[state.taker or 0]}:{expected}"

    # And on to the end, with old buttons where they still apply.
    await game.play(members, rng)
    final = game.assert_log_replays()
    assert not any(row.by_computer for row in game.moves() if row.seat != 3)
    (standings,) = world.titled("Dupe — final standings")
    assert standings_totals(standings) == dict(enumerate(final.totals))
    assert {s: score for s, (_u, score, _w) in game.results().items()} == dict(
        enumerate(final.totals)
    )
    assert game.row()["status"] == "finished"
    assert world.query("SELECT COUNT(*) FROM results WHERE game_id = ?", (game.id,)) == [(4,)]


async def test_refresh_brings_a_private_hand_the_restart_left_behind_up_to_date(
    world: World,
) -> None:
    """A new process cannot edit hand messages the old one sent (it has no token for them);
    every private message keeps a live “↻ Refresh” that shows the hand as it is now."""
    alice, bob = world.members("alice", "bob")
    game, _ = await Game.open(world, alice, computers="random")
    await game.press(bob, "Join")
    await game.press(alice, "Start")
    hand = await game.open_hand(alice)
    await game.open_hand(bob)
    rng = random.Random(3)
    await game.decide(alice, rng, strict=True)
    assert live_ids(hand, PLAY) == [], "alice has chosen: her cards are greyed out"

    await world.restart()
    turn = game.state().turn
    await game.decide(bob, rng, strict=True)  # on his old message, answered in place
    assert game.state().turn > turn, "the trick is complete"
    stale = hand.content
    assert "You chose" in stale, "the new process could not update alice's message"

    (refresh,) = live_ids(hand, "refresh")
    result = await alice.click(hand.message, custom_id=refresh)
    assert result.acknowledged and result.response is not None
    assert result.response.id == hand.id, "brought up to date in place"
    now = await alice.slash(world.channel, "dupe hand")
    assert now.response is not None
    assert hand.content == now.response.content != stale
    assert live_ids(hand) == live_ids(now.response), "the same controls as a fresh hand"

    # A spectator's refresh, forged on the table, is refused privately and changes nothing.
    carol = world.member("carol")
    refused = await forge_click(carol, game.message, refresh)
    assert refused.response is not None and refused.response.ephemeral
    assert refused.response.id != hand.id and hand.content == now.response.content
