"""Double clicks, simultaneous clicks, other people's buttons, stale and forged custom ids.

Every interaction must be answered (never “This interaction failed”), privately when it is
refused, and a refused one changes neither the move log nor what anyone else sees.
"""

from __future__ import annotations

import random
from collections.abc import Callable

import simcord

from bot import ids
from engine.cards import DECK
from engine.dupe import DupeState, Phase
from tests.bot.driver import (
    GIVE,
    GIVEOK,
    PLAY,
    Game,
    World,
    click_together,
    description,
    forge_click,
    live_ids,
    private_text,
    slash_together,
)

OVER = "That game is over or was cancelled; its buttons no longer work."
UNKNOWN = "That button is not one this bot understands"
NOT_YOURS = "Those buttons belong to another player's hand."


async def two_members(world: World) -> tuple[Game, simcord.MemberActor, simcord.MemberActor]:
    """Return a started table — alice North, bob East, computers South and West — where
    both members have opened their hands."""
    alice, bob = world.members("alice", "bob")
    game, _ = await Game.open(world, alice, computers="random")
    await game.press(bob, "Join")
    await game.press(alice, "Start")
    await game.open_hand(alice)
    hand = await bob.slash(world.channel, "dupe hand")  # the command shows the same hand
    assert hand.response is not None and hand.response.ephemeral
    assert len(live_ids(hand.response, PLAY)) == 13
    game.hands[bob.id] = hand.response
    return game, alice, bob


def code(custom_id: str) -> str:
    """Return what a control carries (a card code or an assignment), or an id's last field."""
    parsed = ids.parse(custom_id)
    if isinstance(parsed, ids.Control):
        return parsed.payload[1:]
    return custom_id.rsplit(":", 1)[1]


def turn_of(custom_id: str) -> int:
    """Return the decision point a control was made for."""
    parsed = ids.parse(custom_id)
    assert isinstance(parsed, ids.Control), custom_id
    return parsed.turn


def trick_starts(trick: int) -> Callable[[DupeState], bool]:
    """Return a stop condition: trick ``trick`` of the first deal waits for its cards."""
    return lambda s: (s.deal, s.trick, s.phase) == (1, trick, Phase.CHOOSE)


async def test_double_clicks_log_one_choice(world: World) -> None:
    game, alice, bob = await two_members(world)
    hand = game.hands[alice.id]
    card = live_ids(hand, PLAY)[0]
    ply = len(game.moves())

    first, second = await click_together((alice, hand.message, card), (alice, hand.message, card))
    assert first.acknowledged and second.acknowledged
    assert [(r.seat, r.move) for r in game.moves()[ply:]] == [(0, f"N:{code(card)}")]
    assert "You chose" in hand.content and live_ids(hand, PLAY) == []

    # The same click arriving late (a laggy client) is refused in place.
    again = await forge_click(alice, hand, card)
    assert again.acknowledged and again.response is not None and again.response.id == hand.id
    assert hand.content.startswith(
        "⚠️ You have already chosen your card for this trick; a choice is final."
    )
    assert len(game.moves()) == ply + 1

    # Two different cards at the same moment: one is chosen, the other refused.
    rng = random.Random(4)
    await game.play([alice, bob], rng, until=trick_starts(2), strict=True)
    two = live_ids(hand, PLAY)[:2]
    ply = len(game.moves())
    await click_together((alice, hand.message, two[0]), (alice, hand.message, two[1]))
    chosen = [r for r in game.moves()[ply:] if r.seat == 0]
    assert len(chosen) == 1 and code(chosen[0].move) in map(code, two)
    assert live_ids(hand, PLAY) == []

    # A double click on Confirm distributes once.
    def a_member_distributes(s: DupeState) -> bool:
        return s.phase is Phase.DISTRIBUTE and s.taker in (0, 1)

    state = await game.play([alice, bob], rng, until=a_member_distributes, strict=True)
    taker = (alice, bob)[state.taker or 0]
    await game.give_steps(taker, rng, 4)
    (confirm,) = live_ids(game.hands[taker.id], GIVEOK)
    ply = len(game.moves())
    message = game.hands[taker.id].message
    results = await click_together((taker, message, confirm), (taker, message, confirm))
    assert all(r.acknowledged for r in results)
    distributions = [r for r in game.moves()[ply:] if "," in r.move]
    assert len(distributions) == 1 and distributions[0].seat == state.taker
    game.state()  # the log still replays


async def test_two_tables_started_at_the_same_moment_make_one(world: World) -> None:
    alice, bob = world.members("alice", "bob")
    first, second = await slash_together(
        (alice, world.channel, "dupe start", {}), (bob, world.channel, "dupe start", {})
    )
    public = [r for r in (first, second) if r.response and not r.response.ephemeral]
    refused = [r for r in (first, second) if r.response and r.response.ephemeral]
    assert len(public) == 1 and len(refused) == 1
    assert "already has" in private_text(refused[0])
    assert world.query("SELECT COUNT(*) FROM games WHERE status = 'lobby'") == [(1,)]
    assert [m.id for m in world.messages()] == [public[0].response.id]  # type: ignore[union-attr]


async def test_tables_in_two_channels_are_played_at_the_same_moments(world: World) -> None:
    """One database connection serves every table: writes for different tables arriving
    together must not interleave their transactions."""
    alice, bob = world.members("alice", "bob")
    other = world.guild.create_text_channel("dupe-2")
    first, second = await slash_together(
        (alice, world.channel, "dupe start", {}), (bob, other, "dupe start", {})
    )
    assert first.response is not None and second.response is not None
    games = (
        Game.from_lobby(world, first.response, world.channel),
        Game.from_lobby(world, second.response, other),
    )
    players = (alice, bob)
    starts = (ids.table_button(g.id, "start") for g in games)
    await click_together(
        *((m, g.message, start) for m, g, start in zip(players, games, starts, strict=True))
    )
    for member, game in zip(players, games, strict=True):
        assert game.row()["status"] == "playing"
        await game.open_hand(member)

    rng = random.Random(12)
    for _ in range(12):
        clicks = []
        for member, game in zip(players, games, strict=True):
            state = game.state()
            if state.phase is Phase.CHOOSE:
                hand = game.hands[member.id]
                clicks.append((member, hand.message, rng.choice(live_ids(hand, PLAY))))
            else:
                await game.decide(member, rng, strict=True)
        if clicks:
            before = [len(g.moves()) for g in games]
            results = await click_together(*clicks)
            for result in results:
                assert result.acknowledged and result.response is not None
                assert "could not be saved" not in result.response.content
            assert [len(g.moves()) for g in games] > before
    for game in games:
        state = game.state()  # each log replays
        assert (state.deal, state.trick) > (1, 5)


async def test_members_joining_at_the_same_moment_fill_the_free_seats_once(
    world: World,
) -> None:
    alice, *others = world.members("alice", "bob", "carol", "dave", "erin")
    game, _ = await Game.open(world, alice, computers="none")
    lobby = game.message
    join = ids.table_button(game.id, "join")
    results = await click_together(*((m, lobby, join) for m in others))
    assert all(r.acknowledged for r in results)
    seated = game.seats()
    assert sorted(seated) == [0, 1, 2, 3]
    assert len({user for user, _level in seated.values()}) == 4
    refused = [
        m for m, r in zip(others, results, strict=True) if r.response and r.response.ephemeral
    ]
    assert len(refused) == 1 and refused[0].id not in {u for u, _ in seated.values()}
    assert private_text(results[others.index(refused[0])]) == "The table is full."
    shown = description(game.message)
    for seat, name in enumerate(("North", "East", "South", "West")):
        member = next(m for m in (alice, *others) if m.id == seated[seat][0])
        assert f"{name} · {member.name}" in shown

    # Start and Leave at the same moment: either order leaves a consistent table.
    leaver = next(m for m in others if m.id == seated[1][0])
    start, leave = await click_together(
        (alice, game.message, ids.table_button(game.id, "start")),
        (leaver, game.message, ids.table_button(game.id, "leave")),
    )
    assert start.acknowledged and leave.acknowledged
    row = game.row()
    if row["status"] == "playing":
        assert private_text(leave) == "The game has already started."
        assert game.seats()[1] == (leaver.id, None)
    else:
        assert private_text(start).startswith("Four players are needed")
        assert 1 not in game.seats()


async def test_members_clicking_at_the_same_moment_for_a_whole_deal(world: World) -> None:
    game, alice, bob = await two_members(world)
    rng = random.Random(8)
    while (state := game.state()).deal == 1:
        if state.phase is Phase.CHOOSE:
            assert state.to_act == (0, 1)
            a, b = (rng.choice(live_ids(game.hands[m.id], PLAY)) for m in (alice, bob))
            results = await click_together(
                (alice, game.hands[alice.id].message, a), (bob, game.hands[bob.id].message, b)
            )
            assert all(r.acknowledged for r in results)
            for result, member in zip(results, (alice, bob), strict=True):
                assert result.response is not None
                assert result.response.id == game.hands[member.id].id
        else:
            taker = (alice, bob)[state.taker or 0]
            await game.decide(taker, rng, strict=True)
    rows = game.moves()
    assert [r.ply for r in rows] == list(range(len(rows)))
    plays = [r for r in rows if "," not in r.move]
    assert [sum(1 for r in plays if r.seat == s) for s in range(4)] == [13, 13, 14, 14], (
        "computers already chose for deal 2"
    )
    assert game.state().deal == 2
    # Every hand shows the new deal's thirteen cards: no stale message was left behind.
    for member in (alice, bob):
        assert "deal 2 of 4 · trick 1" in game.hands[member.id].content
        assert len(live_ids(game.hands[member.id], PLAY)) == 13


async def test_buttons_of_another_members_hand_are_refused(world: World) -> None:
    game, alice, bob = await two_members(world)
    carol = world.member("carol")  # watches, not seated
    hand = game.hands[alice.id]
    before, table, rows = hand.content, description(game.message), game.moves()
    card = live_ids(hand, PLAY)[0]

    for who, expected in ((bob, NOT_YOURS), (carol, "You are not playing at this table.")):
        result = await forge_click(who, hand, card)
        assert private_text(result) == expected
        assert result.response is not None and result.response.id != hand.id
    assert hand.content == before and description(game.message) == table
    assert game.moves() == rows

    # Bob also cannot distribute for alice.
    def alice_distributes(s: DupeState) -> bool:
        return s.phase is Phase.DISTRIBUTE and s.taker == 0

    await game.play([alice, bob], random.Random(6), until=alice_distributes, strict=True)
    turn = turn_of(live_ids(hand, GIVE)[0])
    before, rows = hand.content, game.moves()
    for forged in (ids.control(game.id, 0, turn, "gE"), ids.control(game.id, 0, turn, "kNESW")):
        result = await forge_click(bob, hand, forged)
        assert private_text(result) == NOT_YOURS
    assert hand.content == before and game.moves() == rows


async def test_a_button_from_an_earlier_trick_shows_the_hand_as_it_is_now(world: World) -> None:
    game, alice, bob = await two_members(world)
    first = game.hands[alice.id]
    old_card = live_ids(first, PLAY)[-1]
    second = await game.open_hand(alice)  # the bot now keeps this one current
    await game.play([alice, bob], random.Random(9), until=trick_starts(3), strict=True)
    assert first.id != second.id and live_ids(first) == [], "replaced: no buttons"
    assert first.content.startswith("You opened a newer hand message")
    rows = game.moves()

    # (pressed as the older message had it before it was replaced)
    result = await forge_click(alice, first, old_card)
    assert result.acknowledged and result.response is not None
    assert result.response.id == first.id
    assert first.content.startswith(
        "⚠️ Those buttons are from an earlier trick; here is your hand as it is now."
    )
    assert game.moves() == rows
    assert live_ids(first, PLAY) == live_ids(second, PLAY), "both hands are current now"
    assert {turn_of(i) for i in live_ids(first, PLAY)} == {game.state().turn}


async def test_forged_custom_ids_get_private_answers_and_change_nothing(world: World) -> None:
    game, alice, bob = await two_members(world)
    carol = world.member("carol")
    other_guild = world.env.create_guild("Elsewhere")
    hand = game.hands[alice.id]
    state = game.state()
    turn = 0
    missing = next(c.code for c in DECK if c not in state.hand(0))
    g = game.id

    table_before = description(game.message)
    rows = game.moves()
    cases: list[tuple[simcord.MemberActor, object, str, str]] = [
        (alice, game.message, f"dupe:play:999:0:{turn}:AS", OVER),
        (alice, hand, f"dupe:play:999999999999999999:0:{turn}:AS", OVER),
        (alice, hand, "dupe:play:1:9:0:ZZ", UNKNOWN),
        (alice, game.message, "hello", UNKNOWN),
        (alice, hand, f"dupe:play:{g}:0:{turn}:{missing}" + "X", UNKNOWN),
        (alice, hand, f"dupe:lobby:start:{g}", "The game has already started."),
        (carol, game.message, f"dupe:lobby:join:{g}", "The game has already started."),
        (carol, game.message, f"dupe:hand:{g}", "You are not playing at this table"),
        (bob, game.message, f"dupe:lobby:cancel:{g}", "Only the host or a server manager"),
        (carol, game.message, f"lb:{other_guild.id}:0", "That leaderboard belongs to another"),
        (bob, game.message, f"dupe:play:{g}:0:{turn}:{missing}", NOT_YOURS),
        # the same in today's ids (those above are from before them, and still understood)
        (alice, game.message, ids.control(999, 0, turn, "pAS"), OVER),
        (alice, hand, "g:1:9:0:pZZ", NOT_YOURS),
        (alice, hand, f"g:{g}:0:{turn}:p{missing}X", "That button does not name a card."),
        (alice, hand, f"g:{g}:0:{turn}:x", UNKNOWN),
        (alice, hand, ids.table_button(g, "start"), "The game has already started."),
        (carol, game.message, ids.table_button(g, "join"), "The game has already started."),
        (carol, game.message, ids.table_button(g, "hand"), "You are not playing at this table"),
        (carol, game.message, ids.table_button(g, "refresh"), "You are not playing at this"),
        (bob, game.message, ids.table_button(g, "cancel"), "Only the host or a server manager"),
        (carol, game.message, ids.leaderboard(other_guild.id, "dupe", "wins", 0), "That leader"),
        (bob, game.message, ids.control(g, 0, turn, f"p{missing}"), NOT_YOURS),
        (alice, game.message, "g:1:0:0:" + "p" * 90, UNKNOWN),
    ]
    for actor, source, custom_id, expected in cases:
        result = await forge_click(actor, source, custom_id)  # type: ignore[arg-type]
        assert private_text(result).startswith(expected), (custom_id, private_text(result))
    assert game.moves() == rows
    assert description(game.message) == table_before

    # The presser's own seat with a card they do not hold: refused on their hand.
    result = await forge_click(alice, hand, f"dupe:play:{g}:0:{turn}:{missing}")
    assert result.acknowledged and result.response is not None and result.response.id == hand.id
    assert hand.content.startswith("⚠️") and "is not in your hand" in hand.content
    # A distribution when nobody is distributing.
    result = await forge_click(alice, hand, f"dupe:giveok:{g}:0:{turn}:NNNN")
    assert hand.content.startswith("⚠️ That distribution is not needed any more")
    assert game.moves() == rows

    # Forged on the public table message, a hand is never shown there.
    for custom_id in (
        f"dupe:play:{g}:0:{turn}:{missing}",
        f"dupe:play:{g}:0:{turn + 5}:{missing}",
        f"dupe:give:{g}:0:{turn}:N",
    ):
        result = await forge_click(alice, game.message, custom_id)
        assert result.acknowledged
        assert description(game.message) == table_before, custom_id
        assert result.response is not None and result.response.ephemeral, custom_id
    assert game.moves() == rows

    # During alice's own distribution: malformed assignments.
    def alice_distributes(s: DupeState) -> bool:
        return s.phase is Phase.DISTRIBUTE and s.taker == 0

    await game.play([alice, bob], random.Random(6), until=alice_distributes, strict=True)
    turn = turn_of(live_ids(hand, GIVE)[0])
    rows = game.moves()
    for custom_id, expected in (
        (ids.control(g, 0, turn, "kNNNN"), "Give exactly one card to each of the four players."),
        (ids.control(g, 0, turn, "gNN"), "That distribution gives a player more than one card."),
    ):
        assert private_text(await forge_click(alice, hand, custom_id)) == expected
    assert game.moves() == rows
    assert live_ids(hand, GIVE), "her distribution buttons are still there"


async def test_buttons_of_finished_and_cancelled_games_say_the_game_is_over(
    world: World,
) -> None:
    game, alice, bob = await two_members(world)
    hand = game.hands[bob.id]
    card = live_ids(hand, PLAY)[0]
    await alice.slash(world.channel, "dupe cancel")
    assert game.row()["status"] == "cancelled"
    rows = game.moves()
    assert private_text(await bob.click(hand.message, custom_id=card)) == OVER
    assert private_text(await forge_click(bob, game.message, f"dupe:hand:{game.id}")) == OVER
    assert game.moves() == rows

    # A finished game: one member against three computers, played to the end.
    game, _ = await Game.open(world, alice, computers="random")
    await game.press(alice, "Start")
    hand = await game.open_hand(alice)
    early = live_ids(hand, PLAY)[0]
    await game.play([alice], random.Random(2))
    assert game.row()["status"] == "finished"
    for custom_id in (early, f"dupe:hand:{game.id}", f"dupe:giveok:{game.id}:0:51:NESW"):
        assert private_text(await forge_click(alice, hand, custom_id)) == OVER
