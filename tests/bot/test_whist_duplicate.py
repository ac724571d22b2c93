"""Duplicate whist matches across channels, end to end through simcord (``docs/rules/
whist.md`` §7): a team of four at two channels, a three-table Mitchell with its movement,
a Mnemonic session; what each member and each channel may see, and when; the deadline,
a deleted channel, a member who vanishes and a restart mid-round. Computers (the fast
``random`` level) fill most seats and the matches are small (2 trays a table, 1 a set)."""

from __future__ import annotations

import dataclasses
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import discord
import pytest
import simcord
from simcord.backend import serializers
from simcord.backend.models.channel import Overwrite
from simcord.enums import OverwriteType

from bot.app import Bot
from engine.cards import Suit
from engine.whist import score_mitchell, score_mnemonic, score_team_of_four, turn_tray
from engine.whist.duplicate_table import DuplicateOptions, replay_table
from tests.bot.helpers import buttons, make_bot
from tests.bot.secrets_scan import scan_duplicate_results, scan_secrets
from tests.bot.test_whist_table import bodies_are_valid
from tests.bot.whole_game import Game, Player, Recorder, play

SEED = 77


def channel_texts(env: simcord.Env, channel: simcord.ChannelHandle) -> list[str]:
    """Return every public message's text in the channel (content and embeds), oldest
    first."""
    texts = []
    for message in env.backend.messages.get(channel.id, {}).values():
        if message.is_ephemeral:
            continue
        parts = [message.content or ""]
        for embed in message.embeds or []:
            parts += [str(embed.get("title") or ""), str(embed.get("description") or "")]
        texts.append("\n".join(parts))
    return texts


def posts_about(env: simcord.Env, channel: simcord.ChannelHandle, tray: int) -> list[str]:
    return [text for text in channel_texts(env, channel) if f"Tray {tray}: every table" in text]


async def reply(
    actor: simcord.MemberActor, channel: simcord.ChannelHandle, command: str, **options: Any
) -> str:
    """Run a slash command; return the reply's text."""
    result = await actor.slash(channel, command, **options)
    assert result.response is not None
    return str(result.response.content)


async def seat_table(
    env: simcord.Env,
    bot: Bot,
    channel: simcord.ChannelHandle,
    actors: list[simcord.MemberActor],
    spectator: simcord.MemberActor,
) -> Game:
    """Return the live table of the channel, its members' hands open."""
    table = bot.controller.tables.table_in(channel.id)
    assert table is not None and table.message_id is not None
    message = simcord.ResponseMessage(env, env.backend.get_message(channel.id, table.message_id))
    game = Game(env, bot, channel, [Player(a) for a in actors], spectator, message, table.id)
    for player in game.players:
        await game.open_hand(player)
    return game


def trays_done(n: int) -> Any:
    return lambda state: len(state.tray_results) >= n


async def stored_results(bot: Bot, game_id: int) -> tuple[int, ...]:
    """Return a table's N-S tricks per tray, replayed by the engine from the stored moves."""
    record = await bot.store.game(game_id)
    assert record is not None
    options = DuplicateOptions(**record.options["game"])
    return replay_table(record.seed, options, record.moves).tray_results


def ratings(bot: Bot) -> dict[str, int]:
    with sqlite3.connect(f"file:{bot.settings.database}?mode=ro", uri=True) as db:
        return dict(db.execute("SELECT player, games FROM ratings WHERE game = 'whist_duplicate'"))


async def start_team_of_two(
    bot: Bot,
    one: simcord.ChannelHandle,
    two: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    bob: simcord.MemberActor,
) -> Any:
    """Create and start a team-of-four match of two trays over channels ``one`` and ``two``:
    alice North at table 1, bob North at table 2, computers elsewhere; return its record."""
    await reply(alice, one, "whist duplicate create", format="team", trays=2, computers="random")
    (match,) = await bot.store.live_matches("whist_duplicate")
    await reply(alice, two, "whist duplicate table", match=match.id)
    await reply(alice, one, "whist duplicate join", seat="N")
    await reply(bob, two, "whist duplicate join", seat="N")
    await reply(alice, one, "whist duplicate start")
    return match


@pytest.fixture
def club(
    env: simcord.Env, dupe_bot: Bot, recorder: Recorder, caplog: pytest.LogCaptureFixture
) -> Iterator[Any]:
    """Return a server and its members; the recorder knows every table the bot starts,
    one of computers that finishes as it starts too."""
    tables = dupe_bot.controller.tables
    start = tables.start

    async def recorded_start(game_id: int, user_id: int) -> Any:
        recorder.know(tables.tables[game_id])
        return await start(game_id, user_id)

    tables.start = recorded_start  # type: ignore[method-assign]
    dupe_bot.controller.tables.new_seed = lambda: SEED
    guild = env.create_guild("Whist Club")
    members = {
        n: guild.add_member(env.create_user(n)) for n in ("alice", "bob", "carol", "dave", "eve")
    }
    return guild, members


async def test_team_of_four_across_two_channels(
    env: simcord.Env, dupe_bot: Bot, club: Any, recorder: Recorder
) -> None:
    guild, m = club
    one, two = guild.create_text_channel("table-1"), guild.create_text_channel("table-2")
    alice, bob, eve = m["alice"], m["bob"], m["eve"]
    # Bad input: a specific private answer, and nothing created.
    assert "exactly 2 tables" in await reply(
        alice, one, "whist duplicate create", format="team", tables=3
    )
    assert "future" in await reply(
        alice, one, "whist duplicate create", format="team", deadline_hours=0
    )
    assert await dupe_bot.store.live_matches("whist_duplicate") == []
    created = await reply(
        alice, one, "whist duplicate create", format="team", trays=2, computers="random"
    )
    (match,) = await dupe_bot.store.live_matches("whist_duplicate")
    assert f"Duplicate match {match.id}" in created
    assert "no table of an open match" in await reply(bob, two, "whist duplicate join", seat="N")
    assert "Only the member who created" in await reply(
        bob, two, "whist duplicate table", match=match.id
    )
    assert "already a table" in await reply(alice, one, "whist duplicate table", match=match.id)
    await reply(alice, two, "whist duplicate table", match=match.id)
    # X1 (alice) sits N-S at table 1; Y2 (bob) sits N-S at table 2.
    assert "table 1, North" in await reply(alice, one, "whist duplicate join", seat="N")
    assert "already have a seat" in await reply(alice, two, "whist duplicate join", seat="S")
    assert "table 2, North" in await reply(bob, two, "whist duplicate join", seat="N")
    assert "taken" in await reply(eve, two, "whist duplicate join", seat="N")
    waiting = await reply(eve, two, "whist duplicate status")
    assert f"**Duplicate match {match.id}** — Team of four · waiting for its start" in waiting
    assert f"**Table 1** — <#{one.id}>: North: alice, East: free" in waiting
    assert f"**Table 2** — <#{two.id}>: North: bob" in waiting and "closes <t:" in waiting
    assert "Only the member who created" in await reply(bob, two, "whist duplicate start")
    await reply(alice, one, "whist duplicate start")
    first = await seat_table(env, dupe_bot, one, [alice], eve)
    second = await seat_table(env, dupe_bot, two, [bob], eve)
    # A computer is named alike in the round's announcement and at the table.
    (announced,) = [t for t in channel_texts(env, one) if "North: alice, East: " in t]
    assert "North: alice, East: 🤖 Computer 2 (random), South: 🤖 Computer 3 (random)" in announced
    table_text = str(first.message(first.table_message.id).message.embeds[0].description)
    assert "East (🤖 Computer 2 (random))" in table_text and "CPU" not in table_text
    # A member of the other table cannot open a hand here.
    refused = await bob.click(
        first.message(first.table_message.id).message, custom_id=_hand_id(first)
    )
    assert refused.ephemeral and "not playing" in str(refused.response.content).lower()

    await play(first, until=trays_done(1))
    # Alice has finished tray 1: she sees her table's result and record, no other table's.
    mine = await reply(alice, one, "whist duplicate results")
    assert "**Tray 1**" in mine and "Table 1: N-S" in mine and "Table 2" not in mine
    assert "Provisional" in mine
    assert "not finished a tray yet" in await reply(bob, two, "whist duplicate results")
    assert posts_about(env, one, 1) == posts_about(env, two, 1) == []
    # Anybody may see how far each table is, as counts; nobody learns a result from it.
    for who in (alice, bob, eve):
        progress = await reply(who, one, "whist duplicate status", match=match.id)
        assert "being played" in progress and "Round 1 of 1." in progress
        assert "North: alice, East: 🤖 Computer 2 (random)" in progress
        assert "· 1 of 2 trays finished" in progress and "· 0 of 2 trays finished" in progress
        assert "N-S " not in progress and "tricks" not in progress

    await play(second, until=trays_done(1))
    for channel in (one, two):
        (post,) = posts_about(env, channel, 1)
        assert "Table 1: N-S" in post and "Table 2: N-S" in post
    assert "Table 2: N-S" in await reply(alice, one, "whist duplicate results")
    await play(first)
    assert posts_about(env, one, 2) == []
    # Table 1 is over, table 2 is not: its game is not to be replayed or listed yet.
    early = await reply(bob, two, "replay", game=first.game_id)
    assert "match still being played" in early
    listed = await bob.slash(two, "history")
    assert f"#{first.game_id}**" not in str(listed.response.message.embeds[0].description)
    await play(second)
    replayed = await alice.slash(one, "replay", game=first.game_id)
    assert replayed.response is not None and replayed.response.message.embeds

    table1 = await stored_results(dupe_bot, first.game_id)
    table2 = await stored_results(dupe_bot, second.game_id)
    expected = score_team_of_four(table1, table2)
    finished = await dupe_bot.store.match(match.id)
    assert finished is not None and finished.status == "finished"
    assert finished.data["standings"]["x"] == expected.x
    for channel in (one, two):
        (final,) = [t for t in channel_texts(env, channel) if "final standings" in t]
        assert "Team X (alice & 🤖 3 computers (random))" in final  # not one by one
        assert f"**{expected.x:+d}**" in final
        assert len(posts_about(env, channel, 2)) == 1
    assert {str(alice.id), str(bob.id), "cpu:random"} <= set(ratings(dupe_bot))
    assert "over already" in await reply(alice, one, "whist duplicate cancel", match=match.id)
    over = await reply(eve, one, "whist duplicate status", match=match.id)
    assert "finished: the final standings" in over and over.count("2 of 2 trays finished") == 2
    history = await alice.slash(one, "history")
    assert history.response is not None
    listed = str(history.response.message.embeds[0].description)
    assert f"**Duplicate match {match.id}** — Team of four" in listed and "🏆" in listed
    board = await alice.slash(one, "leaderboard", game="whist_duplicate")
    assert board.response is not None
    assert f"<@{alice.id}>" in str(board.response.message.embeds[0].description)
    problems, read = scan_duplicate_results(env, recorder, plays_per_tray=2)
    assert problems == [] and read >= 6
    channels = {first.game_id: one.id, second.game_id: two.id}
    leaks, _ = scan_secrets(env, recorder, channels)
    assert leaks == []
    bodies_are_valid(env)


def _hand_id(game: Game) -> str:
    from tests.bot.whole_game import hand_button

    return hand_button(game.message(game.table_message.id))


async def test_mitchell_moves_pairs_and_sets_and_names_two_winners(
    env: simcord.Env, dupe_bot: Bot, club: Any, recorder: Recorder
) -> None:
    guild, m = club
    channels = [guild.create_text_channel(f"table-{n}") for n in (1, 2, 3)]
    one, two, three = channels
    alice, bob, eve = m["alice"], m["bob"], m["eve"]
    assert "3 to 8 tables" in await reply(
        alice, one, "whist duplicate create", format="mitchell", tables=2
    )
    await reply(
        alice, one, "whist duplicate create", format="mitchell", trays=1, computers="random"
    )
    (match,) = await dupe_bot.store.live_matches("whist_duplicate")
    await reply(alice, two, "whist duplicate table", match=match.id)
    assert "has no channel yet" in await reply(alice, one, "whist duplicate start")
    await reply(alice, three, "whist duplicate table", match=match.id)
    await reply(alice, one, "whist duplicate join", seat="N")  # N-S pair 1
    await reply(bob, two, "whist duplicate join", seat="E")  # E-W pair 2
    await reply(alice, one, "whist duplicate start")

    # Round 1: set t at table t; table 3 (computers only) has finished already.
    first = await seat_table(env, dupe_bot, one, [alice], eve)
    second = await seat_table(env, dupe_bot, two, [bob], eve)
    assert first.table is not None and first.table.state.options.trays == (1,)
    assert second.table is not None and second.table.state.options.trays == (2,)
    await play(first)
    mine = await reply(alice, one, "whist duplicate results")
    assert "**Tray 1**" in mine and "Table 1 (N-S 1, E-W 1)" in mine and "**Tray 2**" not in mine
    assert not any(": every table" in t for c in channels for t in channel_texts(env, c))
    await play(second)

    # Round 2: E-W pairs one table up, sets one table down; N-S pairs stay.
    assert any(
        "Round 2 of 3, table 3** — N-S pair 3, E-W pair 2" in t for t in channel_texts(env, three)
    )
    progress = await reply(eve, three, "whist duplicate status")
    assert "Round 2 of 3." in progress and "**Table 3 (N-S 3, E-W 2)** — " in progress
    first = await seat_table(env, dupe_bot, one, [alice], eve)
    third = await seat_table(env, dupe_bot, three, [bob], eve)
    assert first.table is not None and first.table.state.options.trays == (2,)
    assert third.table is not None and third.table.state.options.trays == (1,)
    assert third.table.seats[1].user_id == bob.id
    await play(third)
    # Tray 1 has now been played at tables 1 and 3, not yet at table 2: no channel hears of it.
    assert not any("Tray 1: every table" in t for c in channels for t in channel_texts(env, c))
    assert "Table 3 (N-S 3, E-W 2)" in await reply(bob, three, "whist duplicate results")
    await play(first)

    # Round 3: bob's pair moves on to table 1.
    first = await seat_table(env, dupe_bot, one, [alice, bob], eve)
    assert first.table is not None and first.table.seats[1].user_id == bob.id
    await play(first)

    finished = await dupe_bot.store.match(match.id)
    assert finished is not None and finished.status == "finished"
    plays = [
        (
            p["tray"],
            p["ns_pair"],
            p["ew_pair"],
            (await stored_results(dupe_bot, p["game"]))[p["index"]],
        )
        for p in finished.data["plays"]
    ]
    # The movement of §7 with three tables, one tray a set: (tray, N-S pair, E-W pair).
    rounds = [
        [(1, 1, 1), (2, 2, 2), (3, 3, 3)],
        [(2, 1, 3), (3, 2, 1), (1, 3, 2)],
        [(3, 1, 2), (1, 2, 3), (2, 3, 1)],
    ]
    assert sorted(p[:3] for p in plays) == sorted(p for r in rounds for p in r)
    expected = score_mitchell(plays)
    standings = finished.data["standings"]
    assert standings["ns_winners"] == list(expected.ns_winners)
    assert standings["ew_winners"] == list(expected.ew_winners)
    for channel in channels:
        texts = channel_texts(env, channel)
        (final,) = [t for t in texts if "final standings" in t]
        assert "North-South" in final and "East-West" in final and final.count("🏆") >= 2
        assert all(len([t for t in texts if f"Tray {n}: every table" in t]) == 1 for n in (1, 2, 3))
    history = await alice.slash(one, "history")
    assert history.response is not None
    listed = str(history.response.message.embeds[0].description)
    assert f"**Duplicate match {match.id}** — Mitchell pairs\n🏆 Pair" in listed
    # Ratings moved once, for the pairs of each direction.
    assert ratings(dupe_bot)[str(alice.id)] == ratings(dupe_bot)[str(bob.id)] == 1
    problems, read = scan_duplicate_results(env, recorder, plays_per_tray=3)
    assert problems == [] and read >= 9
    bodies_are_valid(env)


async def test_mnemonic_replays_the_trays_turned_and_shows_nothing_before(
    env: simcord.Env, dupe_bot: Bot, club: Any, recorder: Recorder
) -> None:
    guild, m = club
    here = guild.create_text_channel("mnemonic")
    alice, eve = m["alice"], m["eve"]
    assert "one table" in await reply(
        alice, here, "whist duplicate create", format="mnemonic", tables=2
    )
    await reply(
        alice,
        here,
        "whist duplicate create",
        format="mnemonic",
        trays=2,
        trump="H",
        computers="random",
    )
    (match,) = await dupe_bot.store.live_matches("whist_duplicate")
    await reply(alice, here, "whist duplicate join", seat="N")
    await reply(alice, here, "whist duplicate start")
    original = await seat_table(env, dupe_bot, here, [alice], eve)
    state = original.table.state  # type: ignore[union-attr]
    assert state.trump is Suit.HEARTS and state.public_view().turnup is None
    trays = state.trays
    await play(original)
    # The original play is over, the replay not: nobody has finished a tray yet.
    assert "not finished a tray yet" in await reply(alice, here, "whist duplicate results")
    assert posts_about(env, here, 1) == []
    replay = await seat_table(env, dupe_bot, here, [alice], eve)
    turned = replay.table.state  # type: ignore[union-attr]
    assert turned.trays == tuple(turn_tray(t) for t in trays)
    assert turned.options.turned and turned.trump is Suit.HEARTS
    # Players keep their seats: alice (N) now holds the hand first held at W.
    assert replay.table.seats[0].user_id == alice.id  # type: ignore[union-attr]
    assert turned.hand(0) == trays[0].hands[3]
    await play(replay)

    first = await stored_results(dupe_bot, original.game_id)
    second = await stored_results(dupe_bot, replay.game_id)
    expected = score_mnemonic(first, second)
    done = await dupe_bot.store.match(match.id)
    assert done is not None and done.status == "finished"
    assert done.data["standings"]["ns"] == expected.ns
    mine = await reply(alice, here, "whist duplicate results")
    assert "Original play: N-S" in mine and "Replay: N-S" in mine and "Final:" in mine
    (final,) = [t for t in channel_texts(env, here) if "final standings" in t]
    assert "N-S (alice & " in final and f"**{expected.ns:+d}**" in final
    problems, read = scan_duplicate_results(env, recorder, plays_per_tray=2)
    assert problems == [] and read >= 4
    bodies_are_valid(env)


async def test_a_vanished_member_a_restart_and_a_deleted_channel(
    env: simcord.Env, dupe_bot: Bot, club: Any, db: Path
) -> None:
    """Alice stops answering: computers play for her and her table's result is marked. The
    bot restarts mid-round and goes on. Table 2's channel is deleted mid-tray: its
    unfinished tray scores the average, and the match still ends."""
    guild, m = club
    one, two = guild.create_text_channel("table-1"), guild.create_text_channel("table-2")
    alice, bob, eve = m["alice"], m["bob"], m["eve"]
    match = await start_team_of_two(dupe_bot, one, two, alice, bob)
    first = await seat_table(env, dupe_bot, one, [alice], eve)
    await play(first, idle=0, until=trays_done(1))
    stored = await dupe_bot.store.match(match.id)
    assert stored is not None and stored.data["plays"][0]["marked"]
    assert "(a computer stood in)" in await reply(alice, one, "whist duplicate results")

    # A restart mid-round: the new bot picks the match up where it was.
    bot = make_bot(db)
    await env.restart_bot(bot)
    await env.settle()
    second = await seat_table(env, bot, two, [bob], eve)
    await play(second, until=trays_done(1))
    for channel in (one, two):
        (post,) = posts_about(env, channel, 1)
        assert "Table 1: N-S" in post and "(a computer stood in)" in post and "Table 2: N-S" in post
    # Table 2's channel goes mid-tray: its table is abandoned; tray 2 scores the average there.
    env.backend.delete_channel(two.id)
    await env.settle()
    first = await seat_table(env, bot, one, [alice], eve)
    await play(first)
    done = await bot.store.match(match.id)
    assert done is not None and done.status == "finished" and 2 in done.data["gone"]
    (post,) = posts_about(env, one, 2)
    assert "Table 2: not finished — the average (0)" in post
    table1 = await stored_results(bot, first.game_id)
    second_results = await stored_results(bot, second.game_id)
    expected = score_team_of_four(table1, [second_results[0], None])
    assert done.data["standings"]["x"] == expected.x
    assert any("final standings" in t for t in channel_texts(env, one))


async def test_a_member_who_leaves_a_match_table_marks_its_trays_from_then_on(
    env: simcord.Env, dupe_bot: Bot, club: Any
) -> None:
    """Bob leaves his table in play (``/whist leave``, confirmed): a computer plays his seat
    for the rest, and every tray of his table from then on is marked; the other table's
    are not."""
    guild, m = club
    one, two = guild.create_text_channel("table-1"), guild.create_text_channel("table-2")
    alice, bob, eve = m["alice"], m["bob"], m["eve"]
    match = await start_team_of_two(dupe_bot, one, two, alice, bob)
    asked = await bob.slash(two, "whist leave")
    assert asked.response is not None and asked.ephemeral
    (button,) = buttons(asked.response)
    await bob.click(asked.response.message, custom_id=button.custom_id)
    await env.settle()
    first = await seat_table(env, dupe_bot, one, [alice], eve)
    await play(first)
    done = await dupe_bot.store.match(match.id)
    assert done is not None and done.status == "finished"
    marked = {(p["table"], p["tray"]): p["marked"] for p in done.data["plays"]}
    assert marked == {(1, 1): False, (1, 2): False, (2, 1): True, (2, 2): True}
    (post,) = posts_about(env, one, 1)
    assert post.count("(a computer stood in)") == 1


async def test_the_deadline_closes_the_match_and_unfinished_trays_score_the_average(
    env: simcord.Env, dupe_bot: Bot, club: Any
) -> None:
    guild, m = club
    one, two = guild.create_text_channel("table-1"), guild.create_text_channel("table-2")
    alice, bob, eve = m["alice"], m["bob"], m["eve"]
    await reply(
        alice,
        one,
        "whist duplicate create",
        format="team",
        trays=2,
        deadline_hours=1,
        computers="random",
    )
    (match,) = await dupe_bot.store.live_matches("whist_duplicate")
    # A member runs as many matches at once as they may host lobbies (3).
    extra = [guild.create_text_channel(f"extra-{n}") for n in (1, 2, 3)]
    for channel in extra[:2]:
        await reply(alice, channel, "whist duplicate create", format="mnemonic")
    assert "already run 3 matches" in await reply(
        alice, extra[2], "whist duplicate create", format="mnemonic"
    )
    await reply(alice, two, "whist duplicate table", match=match.id)
    await reply(alice, one, "whist duplicate join", seat="N")
    await reply(bob, two, "whist duplicate join", seat="N")
    tables = dupe_bot.controller.tables
    await reply(alice, one, "whist duplicate start")
    # Long turns: nobody's time runs out before the deadline.
    for channel in (one, two):
        table = tables.table_in(channel.id)
        assert table is not None
        table.options = dataclasses.replace(table.options, turn_seconds=86400)
        table.deadline = tables.clock() + 86400
        tables._schedule(table)
    first = await seat_table(env, dupe_bot, one, [alice], eve)
    await play(first, until=trays_done(1))
    second = tables.table_in(two.id)
    assert second is not None
    await env.advance_time(3601)
    done = await dupe_bot.store.match(match.id)
    assert done is not None and done.status == "finished"
    assert tables.table_in(one.id) is None and tables.table_in(two.id) is None
    assert done.data["standings"] == {"x": 0, "y": 0, "winners": ["x", "y"]}
    for channel in (one, two):
        (post,) = posts_about(env, channel, 1)
        assert "Table 1: N-S" in post and "Table 2: not finished — the average (0)" in post
        (final,) = [t for t in channel_texts(env, channel) if "final standings" in t]
        assert "A tie." in final
    record = await dupe_bot.store.game(second.id)
    assert record is not None and record.status == "cancelled"
    # The matches that never started closed at their own deadline, 24 hours on.
    await env.advance_time(24 * 3600)
    assert await dupe_bot.store.live_matches("whist_duplicate") == []
    assert any("before it started" in t for t in channel_texts(env, extra[0]))


async def test_a_mitchell_table_whose_channel_is_gone_scores_the_average_every_round(
    env: simcord.Env, dupe_bot: Bot, club: Any
) -> None:
    guild, m = club
    one, two, three = (guild.create_text_channel(f"table-{n}") for n in (1, 2, 3))
    alice, eve = m["alice"], m["eve"]
    await reply(
        alice, one, "whist duplicate create", format="mitchell", trays=1, computers="random"
    )
    (match,) = await dupe_bot.store.live_matches("whist_duplicate")
    for channel in (two, three):
        await reply(alice, channel, "whist duplicate table", match=match.id)
    await reply(alice, one, "whist duplicate join", seat="N")
    env.backend.delete_channel(three.id)
    await env.settle()
    await reply(alice, one, "whist duplicate start")
    for _ in range(3):  # alice's N-S pair stays at table 1 for the three rounds
        await play(await seat_table(env, dupe_bot, one, [alice], eve))
    done = await dupe_bot.store.match(match.id)
    assert done is not None and done.status == "finished"
    at_three = [p for p in done.data["plays"] if p["table"] == 3]
    assert len(at_three) == 3 and all(p["dead"] and p["game"] is None for p in at_three)
    assert all(p["done"] for p in done.data["plays"] if p["table"] != 3)
    (final,) = [t for t in channel_texts(env, one) if "final standings" in t]
    assert "North-South" in final


SEND_MESSAGES = 1 << 11


async def deny_posts(env: simcord.Env, channel: simcord.ChannelHandle) -> None:
    """A moderator takes Send Messages away from the bot in the channel."""
    bot_id = env.backend.bot_user.id
    overwrite = Overwrite(bot_id, OverwriteType.MEMBER, deny=SEND_MESSAGES)
    env.backend.set_overwrite(channel.id, overwrite)
    await env.settle()


async def allow_posts(env: simcord.Env, channel: simcord.ChannelHandle) -> None:
    env.backend.delete_overwrite(channel.id, env.backend.bot_user.id)
    await env.settle()


def owed_posts(bot: Bot) -> list[str]:
    """Return the nonces of the match posts still owed, in order."""
    with sqlite3.connect(f"file:{bot.settings.database}?mode=ro", uri=True) as db:
        rows = db.execute("SELECT nonce FROM match_posts WHERE sent = 0 ORDER BY match_id, seq")
        return [nonce for (nonce,) in rows]


async def test_match_posts_refused_are_delivered_once_and_a_deleted_channels_struck_off(
    env: simcord.Env, dupe_bot: Bot, club: Any, db: Path
) -> None:
    """Table 2's channel refuses the bot's posts when tray 1 is settled: the results post
    stays owed (a restart too) and arrives once when the permission is back. Then both
    channels refuse: table 2's channel is deleted (its posts are struck off) and table 1's
    posts go out at once after a restart, once access is back."""
    guild, m = club
    one, two = guild.create_text_channel("table-1"), guild.create_text_channel("table-2")
    alice, bob, eve = m["alice"], m["bob"], m["eve"]
    match = await start_team_of_two(dupe_bot, one, two, alice, bob)
    first = await seat_table(env, dupe_bot, one, [alice], eve)
    second = await seat_table(env, dupe_bot, two, [bob], eve)
    await deny_posts(env, two)
    await play(first, until=trays_done(1))
    await play(second, until=trays_done(1))
    await env.advance_time(60)  # refused (403), again after 5, 10, 20 s…
    assert len(posts_about(env, one, 1)) == 1 and posts_about(env, two, 1) == []
    assert owed_posts(dupe_bot) == [f"m{match.id}:t2:tray1"], "kept owed, not marked sent"

    bot = make_bot(db)
    await env.restart_bot(bot)
    await env.advance_time(60)
    assert posts_about(env, two, 1) == [] and owed_posts(bot) == [f"m{match.id}:t2:tray1"]
    await allow_posts(env, two)
    await env.advance_time(300)  # the next try, at most 5 minutes later
    (post,) = posts_about(env, two, 1)
    assert "Table 1: N-S" in post and "Table 2: N-S" in post
    assert owed_posts(bot) == []
    await env.advance_time(900)
    assert len(posts_about(env, two, 1)) == len(posts_about(env, one, 1)) == 1, "delivered once"

    first = await seat_table(env, bot, one, [alice], eve)
    second = await seat_table(env, bot, two, [bob], eve)
    await deny_posts(env, one)
    await deny_posts(env, two)
    await play(second)
    await play(first)
    await env.advance_time(30)
    done = await bot.store.match(match.id)
    assert done is not None and done.status == "finished"
    assert owed_posts(bot) == [
        f"m{match.id}:t1:tray2",
        f"m{match.id}:t2:tray2",
        f"m{match.id}:t1:final",
        f"m{match.id}:t2:final",
    ]
    env.backend.delete_channel(two.id)
    await env.settle()
    assert owed_posts(bot) == [f"m{match.id}:t1:tray2", f"m{match.id}:t1:final"]
    await allow_posts(env, one)
    again = make_bot(db)
    await env.restart_bot(again)
    await env.advance_time(1)  # at once after the restart
    texts = channel_texts(env, one)
    assert len(posts_about(env, one, 2)) == 1
    assert [t for t in texts if "final standings" in t] == [texts[-1]]
    assert owed_posts(again) == []


async def test_the_creator_or_a_manager_cancels_a_match_and_nobody_else(
    env: simcord.Env, dupe_bot: Bot, club: Any
) -> None:
    guild, m = club
    one, two, three = (guild.create_text_channel(f"table-{n}") for n in (1, 2, 3))
    alice, bob, eve = m["alice"], m["bob"], m["eve"]
    role = guild.create_role("admins", permissions=discord.Permissions(manage_guild=True))
    manager = guild.add_member(env.create_user("manager"), roles=[role])
    match = await start_team_of_two(dupe_bot, one, two, alice, bob)
    first = await seat_table(env, dupe_bot, one, [alice], eve)
    await play(first, until=trays_done(1))
    tables = dupe_bot.controller.tables
    live = [tables.table_in(c.id) for c in (one, two)]
    assert all(live)

    # Anybody else: a specific refusal, and nothing changes.
    refused = await reply(bob, two, "whist duplicate cancel")
    assert f"Only the member who created match {match.id} or a server manager" in refused
    assert "no match 999" in await reply(bob, two, "whist duplicate cancel", match=999)
    assert "no table of an open match" in await reply(bob, three, "whist duplicate cancel")
    kept = await dupe_bot.store.match(match.id)
    assert kept is not None and kept.status == "playing" and "cancelled" not in kept.data
    assert all(tables.table_in(c.id) is not None for c in (one, two))

    # A server manager may, from any channel.
    answer = await reply(manager, three, "whist duplicate cancel", match=match.id)
    assert f"You cancelled duplicate match {match.id}" in answer
    closed = await dupe_bot.store.match(match.id)
    assert closed is not None and closed.status == "closed"
    for channel, table in zip((one, two), live, strict=True):
        assert tables.table_in(channel.id) is None
        stored = await dupe_bot.store.game(table.id)  # type: ignore[union-attr]
        assert stored is not None and stored.status == "cancelled"
        said = [t for t in channel_texts(env, channel) if "was cancelled" in t]
        assert len(said) == 1 and f"match {match.id}" in said[0]
        assert posts_about(env, channel, 1) == []  # no results: tray 1 never settled
    assert ratings(dupe_bot) == {}
    assert "· cancelled" in await reply(eve, three, "whist duplicate status", match=match.id)
    await env.advance_time(48 * 3600)  # its deadline passes: nothing more is said
    assert sum("was cancelled" in t for t in channel_texts(env, one)) == 1
    assert not any("final standings" in t for t in channel_texts(env, one))
    assert "over already" in await reply(alice, one, "whist duplicate cancel", match=match.id)

    # The creator cancels their open match from its table's channel.
    await reply(alice, three, "whist duplicate create", format="mnemonic")
    assert "You cancelled" in await reply(alice, three, "whist duplicate cancel")
    assert await dupe_bot.store.live_matches("whist_duplicate") == []
    assert sum("was cancelled" in t for t in channel_texts(env, three)) == 1


async def test_a_long_results_reply_comes_whole_in_parts_each_under_its_tray(
    env: simcord.Env, dupe_bot: Bot, club: Any, recorder: Recorder
) -> None:
    """Eight trays at two tables: alice's results (every tray's records at both tables)
    exceed a message; she gets all of them, in private parts of at most 2,000 characters
    split between lines, each result under its tray's heading."""
    guild, m = club
    one, two = guild.create_text_channel("table-1"), guild.create_text_channel("table-2")
    alice, eve = m["alice"], m["eve"]
    await reply(alice, one, "whist duplicate create", format="team", trays=8, computers="random")
    (match,) = await dupe_bot.store.live_matches("whist_duplicate")
    await reply(alice, two, "whist duplicate table", match=match.id)
    await reply(alice, one, "whist duplicate join", seat="N")
    await reply(alice, one, "whist duplicate start")  # table 2, all computers, is over at once
    await play(await seat_table(env, dupe_bot, one, [alice], eve))
    done = await dupe_bot.store.match(match.id)
    assert done is not None and done.status == "finished"

    result = await alice.slash(one, "whist duplicate results")
    assert result.response is not None and result.response.ephemeral
    parts = [str(result.response.content)] + [str(f.content) for f in result.followups]
    assert len(parts) >= 2 and all(0 < len(part) <= 2000 for part in parts)
    assert all(f.ephemeral for f in result.followups)
    whole = "\n".join(parts)
    for tray in range(1, 9):
        assert whole.count(f"**Tray {tray}**") == 1
    assert whole.count("Table 1: N-S") == whole.count("Table 2: N-S") == 8
    assert whole.count("> ") == 16 and "Final:" in parts[-1]
    problems, read = scan_duplicate_results(env, recorder, plays_per_tray=2)
    assert problems == [] and read >= 8


async def test_a_table_of_computers_over_before_its_match_recorded_it_is_not_played_again(
    env: simcord.Env, dupe_bot: Bot, club: Any, db: Path
) -> None:
    """Table 2, all computers, plays out as it opens; the bot stops before the match
    records it. After the restart the match finds its finished game in its channel and
    records its results: no second table opens there, and the match ends on them."""
    guild, m = club
    one, two = guild.create_text_channel("table-1"), guild.create_text_channel("table-2")
    alice, eve = m["alice"], m["eve"]
    await reply(alice, one, "whist duplicate create", format="team", trays=2, computers="random")
    (match,) = await dupe_bot.store.live_matches("whist_duplicate")
    await reply(alice, two, "whist duplicate table", match=match.id)
    await reply(alice, one, "whist duplicate join", seat="N")
    await reply(alice, one, "whist duplicate start")
    record = await dupe_bot.store.match(match.id)
    assert record is not None
    (computers,) = {p["game"] for p in record.data["plays"] if p["table"] == 2}
    results = await stored_results(dupe_bot, computers)
    assert len(results) == 2, "over as it opened"
    for entry in record.data["plays"]:  # as the document was before the table opened
        if entry["table"] == 2:
            entry.update(game=None, done=False, ns=None)
    await dupe_bot.store.save_match(match.id, "playing", record.data, 0.0)

    bot = make_bot(db)
    await env.restart_bot(bot)
    await env.settle()
    found = await bot.store.match(match.id)
    assert found is not None
    at_two = [p for p in found.data["plays"] if p["table"] == 2]
    assert [(p["game"], p["done"], p["ns"]) for p in at_two] == [
        (computers, True, ns) for ns in results
    ]
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as conn:
        opened = conn.execute("SELECT COUNT(*) FROM games WHERE channel_id = ?", (two.id,))
        assert opened.fetchone() == (1,), "not played again"
    first = await seat_table(env, bot, one, [alice], eve)
    await play(first)
    done = await bot.store.match(match.id)
    assert done is not None and done.status == "finished"
    expected = score_team_of_four(await stored_results(bot, first.game_id), results)
    assert done.data["standings"]["x"] == expected.x
    for channel in (one, two):
        assert len(posts_about(env, channel, 1)) == len(posts_about(env, channel, 2)) == 1


async def test_a_matchs_owed_posts_go_out_as_soon_as_the_bot_is_added_back(
    env: simcord.Env, dupe_bot: Bot, club: Any
) -> None:
    guild, m = club
    here = guild.create_text_channel("table-1")
    await reply(m["alice"], here, "whist duplicate create", format="mnemonic", deadline_hours=1)
    (match,) = await dupe_bot.store.live_matches("whist_duplicate")
    await deny_posts(env, here)
    await env.advance_time(3600 + 200)  # closed unstarted; refused again and again since
    assert owed_posts(dupe_bot) == [f"m{match.id}:t1:closed"]
    assert not any("before it started" in t for t in channel_texts(env, here))
    env.backend.emit("GUILD_DELETE", {"id": str(guild.id)})  # the server removes the bot
    await env.settle()
    await allow_posts(env, here)
    backend = env.backend
    payload = serializers.guild_create_payload(backend, backend.get_guild(guild.id))
    backend.emit("GUILD_CREATE", payload)  # … and adds it back: what it is owed goes now
    await env.advance_time(1)
    assert sum("before it started" in t for t in channel_texts(env, here)) == 1
    assert owed_posts(dupe_bot) == []
