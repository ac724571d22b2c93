"""A restart loses nothing: the table comes back from the database and old buttons work."""

from __future__ import annotations

import random

import pytest
import simcord

from bot import ids
from engine.cards import by_suit
from engine.dupe import SEAT_LETTERS, DupeState, Phase
from engine.whist import EAST, NORTH, Move, WhistState
from engine.whist import Phase as WhistPhase
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
from tests.bot.test_whist_table import check_against_replay, stored_moves
from tests.bot.whole_game import Game as WholeGame
from tests.bot.whole_game import Player, open_table, play


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
    refreshed, controls = hand.content, live_ids(hand)
    now = await alice.slash(world.channel, "dupe hand")
    assert now.response is not None
    assert refreshed == now.response.content != stale
    assert controls == live_ids(now.response), "the same controls as a fresh hand"
    await world.env.advance_time(1)
    assert hand.content.startswith("You opened a newer hand message")  # (issue 29)

    # A spectator's refresh, forged on the table, is refused privately and changes nothing.
    carol = world.member("carol")
    shown = now.response.content
    refused = await forge_click(carol, game.message, refresh)
    assert refused.response is not None and refused.response.ephemeral
    assert refused.response.id not in (hand.id, now.response.id)
    assert now.response.content == shown


# --- whist: a dummy's control and a hand across restarts ------------------------------------

WHIST_RESTARTS = [
    # Two members and a computer adversary; the member at player 0 partners dummy.
    pytest.param(
        {"variant": "english_dummy", "fixed_dummy": "on", "rubbers": 1},
        2,
        7,
        {NORTH},
        id="english-dummy-rubber",
    ),
    pytest.param({"variant": "double_dummy"}, 2, 15, {NORTH, EAST}, id="double-dummy-rubber"),
]


def _card_payloads(hand: simcord.ResponseMessage) -> dict[str, str]:
    """Return the hand message's enabled card controls: payload (``=QS``) → custom id."""
    found = {}
    for custom_id in live_ids(hand, "control"):
        parsed = ids.parse(custom_id)
        if isinstance(parsed, ids.Control) and len(parsed.payload) == 3:
            found[parsed.payload] = custom_id
    return found


def _player(game: WholeGame, state: WhistState, hand: int) -> Player:
    """Return the member who decides for ``hand`` now."""
    table = game.table
    assert table is not None
    user = table.seats[int(state.player_at(state.controller(hand)))].user_id
    return next(p for p in game.players if p.actor.id == user)


async def _press_old(game: WholeGame, player: Player, expected_seat: int) -> None:
    """Press a card on the member's hand message the old process sent: the move is made
    for the hand due, as that member's (not a computer's), answered in place."""
    old = game.hand(player)
    assert old is not None
    cards = _card_payloads(old)
    assert cards, old.content
    payload, custom_id = min(cards.items())
    code = payload[1:]
    before = len(stored_moves(game.bot, game.game_id))
    result = await player.actor.click(old.message, custom_id=custom_id)
    assert result.acknowledged and result.response is not None
    assert result.response.id == old.id and "⚠️" not in result.response.content
    _seat, move, by_computer = stored_moves(game.bot, game.game_id)[before]
    assert (move, by_computer) == (f"{'NESW'[expected_seat]}:{code}", 0)


@pytest.mark.parametrize(("options", "humans", "seed", "dummies"), WHIST_RESTARTS)
async def test_whist_restarts_mid_trick_and_between_deals_and_ends_as_its_replay(
    world: World, options: dict[str, object], humans: int, seed: int, dummies: set[int]
) -> None:
    """A restart on a dummy's turn mid-trick (its partner's old control plays dummy's card),
    another between two deals of the rubber (an old hand's card starts the next deal), then
    play to the end: the finished table is its engine replay, each deal scored once."""
    game = await open_table(
        world.env,
        world.bot,
        humans=humans,
        seed=seed,
        game="whist",
        turn_seconds=60,
        computers="basic",
        **options,
    )
    table = game.table
    assert table is not None and table.state is not None
    engine_options = table.state.options

    async def restart() -> None:
        game.bot = await world.restart()
        world.pin_seed(seed)

    def dummy_mid_trick(state: WhistState) -> bool:
        return state.completed >= 1 and bool(state.trick) and state.to_play in dummies

    # Mid-trick, dummy to play: only dummy's legal cards are on its partner's old message.
    await play(game, until=dummy_mid_trick, limit=3000)
    state = game.table.state  # type: ignore[union-attr]
    hand = int(state.to_play)
    partner = _player(game, state, hand)
    old = game.hand(partner)
    assert old is not None
    legal = {"=" + a.card.code for a in state.legal_actions(hand)}
    assert set(_card_payloads(old)) == legal, old.content
    await restart()
    await _press_old(game, partner, hand)
    for player in game.players:  # the new process cannot edit the old hand messages
        await game.open_hand(player)

    # Between deals: the first card of deal 2 from a hand message sent before the restart.
    def next_deal(state: WhistState) -> bool:
        return len(state.results) >= 1 and state.completed == 0 and state.phase is WhistPhase.PLAY

    await play(game, until=next_deal, limit=3000)
    state = game.table.state  # type: ignore[union-attr]
    deal = len(state.results)
    hand = int(state.to_play)
    await restart()
    await _press_old(game, _player(game, state, hand), hand)
    for player in game.players:
        await game.open_hand(player)

    await play(game, limit=3000)
    assert game.table is None, "the rubber finished"
    final = await check_against_replay(game, engine_options, None)
    assert len(final.results) > deal
    titles = [m.embeds[0].title for m in game.channel.history() if m.embeds]
    for n in range(1, len(final.results) + 1):
        assert titles.count(f"Deal {n} scored") == 1, (n, titles)
    rows = stored_moves(game.bot, game.game_id)
    # Members made every move of the hands they decide for: no stand-in across restarts.
    assert all(not computer for seat, move, computer in rows if Move.parse(move).seat in dummies)


async def test_a_restart_replays_its_live_tables_while_it_waits_for_discord(world: World) -> None:
    """A table loaded at start is replayed at its first use; meanwhile the start replays
    every live table while it waits for Discord, one a turn of the event loop, so that the
    first clicks after a restart, which come all at once, find them replayed."""
    alice, bob = world.members("alice", "bob")
    rng = random.Random(5)
    games = []
    for channel in (world.channel, world.guild.create_text_channel("second")):
        game, _ = await Game.open(world, alice, channel, computers="expert")
        await game.press(bob, "Join")
        await game.press(alice, "Start")
        for member in (alice, bob):
            await game.open_hand(member)
        await game.play([alice, bob], rng, until=lambda s: s.trick == 2)
        games.append(game)

    bot = await world.restart()
    await bot._replaying
    for game in games:
        table = bot.controller.tables.tables[game.id]
        assert table._restore is None  # replayed before anyone used it
        assert table.state.move_count == len(game.moves())
        assert set(table.players) == {2, 3}


def test_a_table_whose_log_cannot_be_replayed_meets_the_error_at_its_first_use() -> None:
    """``Table.replay`` ahead of the table's first use leaves the table as it was when its
    log cannot be replayed: its first use replays it again, and meets the same error."""
    from bot.games import get
    from bot.table import Table
    from bot.table_options import TableOptions

    tries: list[int] = []

    def broken(table: Table) -> None:
        tries.append(table.id)
        raise ValueError("a move the engine refuses")

    table = Table(
        id=7,
        ui=get("dupe"),
        guild_id=1,
        channel_id=2,
        host_id=3,
        seed=4,
        options=TableOptions(),
        status="playing",
        _restore=broken,
    )
    with pytest.raises(ValueError, match="refuses"):
        table.replay()
    with pytest.raises(ValueError, match="refuses"):
        table.state  # noqa: B018
    assert tries == [7, 7]
    table.replay()  # used once: nothing left to replay
    assert tries == [7, 7] and table.state is None
