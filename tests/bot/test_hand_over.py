"""A member who leaves a game in play (``/<game> leave``, confirmed) is replaced by a computer
player of the table's level for the rest of it: the channel is told, the member's private
controls go, the computer decides at once where the seat is due and in every later rubber
or game of a tournée, and the result counts the seat as the computer's. Whist tables: an
English Dummy tournée and a Mort tournée; the lobby and the last member, for any table."""

from __future__ import annotations

import sqlite3
from typing import Any

import simcord

from bot import ids
from bot.app import Bot
from bot.i18n import t
from bot.store import StoreWriteError
from engine.whist import GAME, Move, WhistState
from tests.bot.driver import World, forge_click, private_text
from tests.bot.helpers import buttons
from tests.bot.test_whist_table import check_against_replay, stored_moves
from tests.bot.whole_game import Game, Player, open_table, play
from tests.discord_api_rules import check_request, validators

NOTICE = t("en", "table.handed_over_title")


async def _leave(game: Game, player: Player) -> simcord.InteractionResult:
    """``/whist leave``, then its “Leave the game” button; return the button's answer."""
    asked = await player.actor.slash(game.channel, "whist leave")
    assert asked.response is not None and asked.ephemeral
    assert asked.response.content == t("en", "table.hand_over_confirm")
    (button,) = buttons(asked.response)
    assert button.custom_id == ids.table_button(game.game_id, "handover")
    return await player.actor.click(asked.response.message, custom_id=button.custom_id)


def _seat_record(game: Game, seat: int) -> tuple[int | None, str, str | None]:
    table = game.table
    assert table is not None
    record = table.seats[seat]
    return record.user_id, record.name, record.level


async def test_a_member_leaving_an_english_dummy_tournee_is_replaced_to_its_end(
    env: simcord.Env, dupe_bot: Bot
) -> None:
    game = await open_table(
        env,
        dupe_bot,
        humans=2,  # and a computer: bob plays on alone
        seed=31,
        game="whist",
        turn_seconds=60,
        computers="basic",
        variant="english_dummy",
    )
    table = game.table
    assert table is not None and table.state is not None
    options = table.state.options
    await play(game, until=lambda s: s.completed >= 2)
    # Alice, the host, leaves (whether or not the table waits for her); bob plays on.
    alice = game.players[0]
    seat = table.seat_of(alice.actor.id)
    assert seat is not None
    old_hand = game.hand(alice)
    assert old_hand is not None
    old_controls = [b.custom_id or "" for b in buttons(old_hand)]
    before = len(stored_moves(dupe_bot, game.game_id))

    # A spectator cannot leave a seat they do not hold, even with the button forged.
    eve = await game.spectator.slash(game.channel, "whist leave")
    assert eve.response is not None and eve.ephemeral
    assert eve.response.content == t("en", "table.not_playing")
    forged = await forge_click(game.spectator, old_hand, ids.table_button(game.game_id, "handover"))
    assert private_text(forged) == t("en", "table.not_playing")
    assert _seat_record(game, seat)[0] == alice.actor.id

    first = len(env.http_requests)
    left = await _leave(game, alice)
    # The question, its answer, the notice and the edited hand are bodies Discord takes.
    schemas = validators()
    sent = env.http_requests[first:]
    assert len(sent) >= 4
    assert [p for e in sent for p in check_request(e.method, e.path, e.json, schemas)] == []
    assert left.response is not None and left.response.ephemeral
    assert left.response.content == t("en", "table.handed_over_reply")
    assert not buttons(left.response), "the question's button is gone"
    assert _seat_record(game, seat) == (None, "Computer (basic) for alice", "basic")
    # The channel is told; her hand message has no controls left.
    notices = [
        m
        for m in game.channel.history()
        if m.embeds and m.embeds[0].title == t("en", "table.handed_over_title")
    ]
    assert len(notices) == 1
    assert "🤖 Computer 1 (basic) for alice" in (notices[0].embeds[0].description or "")
    gone = game.message(old_hand.id)
    assert gone.content == t("en", "table.handed_over_hand") and not buttons(gone)
    # Her old controls and “My hand” no longer work for her, and change nothing.
    moves = len(stored_moves(dupe_bot, game.game_id))
    for custom_id in [c for c in old_controls if isinstance(ids.parse(c), ids.Control)][:2]:
        refused = await forge_click(alice.actor, gone, custom_id)
        assert private_text(refused) == t("en", "errors.not_playing")
    mine = await alice.actor.click(
        game.message(game.table_message.id).message,
        custom_id=ids.table_button(game.game_id, "hand"),
    )
    assert private_text(mine) == t("en", "table.not_playing")
    # Nor does she host it any more: she cannot cancel the game she left.
    cancel = await alice.actor.slash(game.channel, "whist cancel")
    assert private_text(cancel) == t("en", "errors.only_host_or_manager_cancels")
    assert len(stored_moves(dupe_bot, game.game_id)) == moves and game.table is not None
    game.players.remove(alice)

    # Bob plays on to the end of the tournée; every later move of the hands her old seat
    # decides for is the computer's.
    await play(game, limit=5000)
    assert game.table is None, "the tournée finished"
    final = await check_against_replay(game, options, None)
    assert len({r.rubber for r in final.results}) == 3
    assert_computer_decided(game, options, seat, since=before)
    results = game_results(dupe_bot, game.game_id)
    assert results[seat] == (None, "basic")
    bob = game.players[0].actor
    stays = table.seat_of(bob.id)
    assert stays is not None and results[stays] == (bob.id, None)


def assert_computer_decided(game: Game, options: Any, seat: int, *, since: int) -> None:
    """Every move from ply ``since`` of a hand ``seat`` decided for is the computer's, and
    there are some."""
    record = stored_moves(game.bot, game.game_id)
    state: WhistState = GAME.new_game(game_seed(game), options)
    decided = 0
    for ply, (_hand, text, computer) in enumerate(record):
        move = Move.parse(text)
        if ply >= since and state.player_at(state.controller(move.seat)) == seat:
            assert computer, (ply, text)
            decided += 1
        state.apply(move.seat, move.action)
    assert decided > 0


def game_seed(game: Game) -> int:
    with sqlite3.connect(f"file:{game.bot.settings.database}?mode=ro", uri=True) as db:
        ((seed,),) = db.execute("SELECT seed FROM games WHERE id = ?", (game.game_id,))
    return int(seed)


def game_results(bot: Bot, game_id: int) -> dict[int, tuple[int | None, str | None]]:
    """Return each seat's stored result: the member (None: a computer) and the level."""
    with sqlite3.connect(f"file:{bot.settings.database}?mode=ro", uri=True) as db:
        query = "SELECT seat, user_id, level FROM results WHERE game_id = ?"
        return {seat: (user, level) for seat, user, level in db.execute(query, (game_id,))}


async def test_a_member_leaving_a_mort_tournee_when_not_due_is_replaced_in_later_games(
    world: World,
) -> None:
    dupe_bot = world.bot
    game = await open_table(
        world.env,
        dupe_bot,
        humans=3,
        seed=32,
        game="whist",
        turn_seconds=60,
        computers="basic",
        variant="mort",
        players=3,
    )
    table = game.table
    assert table is not None and table.state is not None
    options = table.state.options
    await play(game, until=lambda s: s.completed >= 1)
    state = table.state
    due = {table.decider(hand) for hand in state.to_act}
    leaver = next(p for p in game.players if table.seat_of(p.actor.id) not in due)
    seat = table.seat_of(leaver.actor.id)
    assert seat is not None
    before = len(stored_moves(dupe_bot, game.game_id))
    deadline = table.deadline

    # A write the database refuses changes nothing: the member still holds the seat.
    real = dupe_bot.store.append_moves

    async def refused(*args: Any, **kwargs: Any) -> None:
        raise StoreWriteError("read-only")

    dupe_bot.store.append_moves = refused  # type: ignore[method-assign]
    try:
        failed = await _leave(game, leaver)
    finally:
        dupe_bot.store.append_moves = real  # type: ignore[method-assign]
    assert private_text(failed) == t("en", "errors.store_unwritable")
    assert table.seats[seat].user_id == leaver.actor.id and seat not in table.players
    assert not [m for m in game.channel.history() if m.embeds and m.embeds[0].title == NOTICE]

    left = await _leave(game, leaver)
    assert left.response is not None
    assert left.response.content == t("en", "table.handed_over_reply")
    # Not the seat's turn: nothing is played for it now, and the turn's time runs on.
    assert len(stored_moves(dupe_bot, game.game_id)) == before
    assert game.table is not None and game.table.deadline == deadline
    game.players.remove(leaver)

    # A restart: the seat stays the computer's, which plays on; the notice is not repeated.
    game.bot = await world.restart()
    for player in game.players:
        await game.open_hand(player)
    await play(game, limit=5000)
    assert game.table is None, "the tournée finished"
    final = await check_against_replay(game, options, None)
    assert len(final.results) >= 3
    notices = [m for m in game.channel.history() if m.embeds and m.embeds[0].title == NOTICE]
    assert len(notices) == 1
    # Every later decision of the seat, Vivant's game included, is the computer's.
    assert_computer_decided(game, options, seat, since=before)
    assert game_results(dupe_bot, game.game_id)[seat] == (None, "basic")


async def test_leave_in_the_lobby_and_the_last_member_in_play(
    env: simcord.Env, dupe_bot: Bot
) -> None:
    guild = env.create_guild()
    channel = guild.create_text_channel("whist")
    alice, bob = (guild.add_member(env.create_user(name)) for name in ("alice", "bob"))
    opened = await alice.slash(channel, "whist start", variant="humbug", computers="basic")
    assert opened.response is not None
    table = dupe_bot.controller.tables.table_in(channel.id)
    assert table is not None
    lobby = opened.response.message
    await bob.click(lobby, custom_id=ids.table_button(table.id, "join"))
    # In the lobby, /whist leave frees the seat at once (the host cancels instead).
    gone = await bob.slash(channel, "whist leave")
    assert private_text(gone) == t("en", "table.left_lobby")
    assert table.seat_of(bob.id) is None
    host = await alice.slash(channel, "whist leave")
    assert private_text(host) == t("en", "errors.host_cannot_leave")
    await alice.click(lobby, custom_id=ids.table_button(table.id, "start"))
    assert table.status == "playing"
    # The only member in play cannot hand the table to computers alone: she cancels it.
    asked = await alice.slash(channel, "whist leave")
    assert asked.response is not None
    (button,) = buttons(asked.response)
    refused = await alice.click(asked.response.message, custom_id=button.custom_id)
    assert private_text(refused) == t("en", "errors.last_member_cancels")
    assert table.seats[table.seat_of(alice.id) or 0].user_id == alice.id
