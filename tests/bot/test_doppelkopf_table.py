"""Doppelkopf on Discord, end to end through simcord: whole tables by one to five members
in both presets, checked against an engine replay of the stored moves; announcements in
and out of turn; the public table never names a party the table does not know; every body
is one Discord accepts and nothing secret reaches anyone else."""

from __future__ import annotations

import sqlite3
from typing import Any

import discord
import pytest
import simcord

from bot import ids
from bot.app import Bot
from engine.doppelkopf import DoppelkopfOptions, replay
from tests.bot.driver import World, description, live_ids
from tests.bot.secrets_scan import scan_secrets
from tests.bot.whole_game import Game, Recorder, open_table, play
from tests.discord_api_rules import check_request, validators


def stored_moves(bot: Bot, game_id: int) -> list[tuple[int, str, int]]:
    """Return the game's move log, read from the database file as an operator would."""
    with sqlite3.connect(f"file:{bot.settings.database}?mode=ro", uri=True) as db:
        query = "SELECT seat, move, by_computer FROM moves WHERE game_id = ? ORDER BY ply"
        return list(db.execute(query, (game_id,)))


async def check_against_replay(game: Game, preset: str, players: int) -> None:
    """The stored moves replay to the table the bot finished, and the results agree."""
    rows = stored_moves(game.bot, game.game_id)
    record = await game.bot.store.game(game.game_id)
    assert record is not None and record.status == "finished" and record.game == "doppelkopf"
    assert len(record.seats) == players
    options = DoppelkopfOptions(preset=preset, players=players)
    state = replay(record.seed, options, [move for _, move, _ in rows])
    assert state.is_over
    with sqlite3.connect(f"file:{game.bot.settings.database}?mode=ro", uri=True) as db:
        scores = dict(
            db.execute("SELECT seat, score FROM results WHERE game_id = ?", (game.game_id,))
        )
    assert scores == dict(enumerate(state.totals))


def bodies_are_valid(env: simcord.Env) -> None:
    schemas = validators()
    wrong = [
        problem
        for entry in env.http_requests
        for problem in check_request(entry.method, entry.path, entry.json, schemas)
    ]
    assert wrong == []


@pytest.mark.parametrize(
    ("humans", "options", "seats", "players"),
    [
        (1, {}, 4, 4),
        # a house table offers five seats: four members and the computer the lobby adds
        (4, {"preset": "house"}, 5, 5),
        # five asked for: only five seats, computers fill three
        (2, {"preset": "house", "players": 5}, 5, 5),
    ],
    ids=["tournament-1", "house-4", "house-5"],
)
async def test_whole_doppelkopf_tables(
    env: simcord.Env,
    dupe_bot: Bot,
    recorder: Recorder,
    humans: int,
    options: dict[str, object],
    seats: int,
    players: int,
) -> None:
    game = await open_table(
        env, dupe_bot, humans=humans, seed=11, game="doppelkopf", turn_seconds=60, **options
    )
    assert game.table is not None and game.table.max_seats == seats
    await play(game, idle=0 if humans > 1 else None)
    await check_against_replay(game, str(options.get("preset", "tournament")), players)
    rows = stored_moves(dupe_bot, game.game_id)
    assert any(not computer for _, _, computer in rows), "members made moves"
    posts = [
        m
        for m in game.channel.history()
        if m.embeds and (m.embeds[0].title or "").startswith("Game 1:")
    ]
    assert posts, "the first game's breakdown was posted"
    problems, read = scan_secrets(env, recorder)
    assert read > 10 and problems == [], problems[:5]
    bodies_are_valid(env)


def payloads(hand: simcord.ResponseMessage) -> dict[str, str]:
    """Return the hand's enabled controls: payload → custom id."""
    found = {}
    for custom_id in live_ids(hand):
        parsed = ids.parse(custom_id)
        if isinstance(parsed, ids.Control):
            found[parsed.payload] = custom_id
    return found


def seat_lines(message: discord.Message) -> dict[int, str]:
    """Return each seat's line of the public table message (seats 1…n, in order)."""
    lines = [line for line in description(message).split("\n") if line.startswith("**")]
    return dict(enumerate(lines))


async def test_announcements_in_and_out_of_turn_parties_kept_secret_and_a_restart(
    world: World,
) -> None:
    """Four members: the reservations are private (the table hears only "healthy"); at the
    start of play the table names nobody's party; a member announces out of turn and the
    table names that announcement and party; a restart keeps old buttons working."""
    world.pin_seed(5)
    members = world.members("alice", "bob", "carol", "dave")
    opened = await members[0].slash(world.channel, "doppelkopf start", turn_time=900)
    assert opened.response is not None
    table = world.bot.controller.tables.table_in(world.channel.id)
    assert table is not None
    game_id = table.id
    for member in members[1:]:
        await member.click(opened.response.message, custom_id=ids.table_button(game_id, "join"))
    await members[0].click(opened.response.message, custom_id=ids.table_button(game_id, "start"))
    public = world.messages()[-1]
    hands: dict[int, simcord.ResponseMessage] = {}
    by_seat = {}
    for member in members:
        shown = await member.click(public, custom_id=ids.table_button(game_id, "hand"))
        assert shown.response is not None and shown.response.ephemeral
        seat = world.bot.controller.tables.table(game_id).seat_of(member.id)
        assert seat is not None
        hands[seat], by_seat[seat] = shown.response, member

    def state() -> Any:
        return world.bot.controller.tables.table(game_id).state

    # Reservations: each in turn says healthy, privately.
    while state().phase == "reservations":
        seat = state().to_act[0]
        choices = payloads(hands[seat])
        assert {"=healthy", "=solo.queens"} <= set(choices)
        await by_seat[seat].click(hands[seat].message, custom_id=choices["=healthy"])
    assert state().phase == "play"
    await world.env.advance_time(5)
    lines = seat_lines(_table_message(world, game_id))
    known = set(state().public_view().data["parties"])
    for seat, line in lines.items():
        for party, word in (("re", "Re"), ("contra", "Contra")):
            shown = f", {word})" in line or f"({word})" in line
            assert shown == (f"{seat}:{party}" in known), (seat, line, known)

    # Out of turn: a member who is not to play announces; the table names it.
    speaker = state().to_act[0]
    other = next(
        s for s in range(4) if s != speaker and ({"=re", "=contra"} & set(payloads(hands[s])))
    )
    word = "=re" if "=re" in payloads(hands[other]) else "=contra"
    await by_seat[other].click(hands[other].message, custom_id=payloads(hands[other])[word])
    (last,) = world.query(
        "SELECT move FROM moves WHERE game_id = ? ORDER BY ply DESC LIMIT 1", (game_id,)
    )
    assert last == (f"{other + 1}:{word[1:]}",)
    assert f"{other}:{word[1:]}" in state().public_view().data["parties"]
    await world.env.advance_time(5)
    said = "Re" if word == "=re" else "Contra"
    assert f"Announced: {said}" in description(_table_message(world, game_id))
    assert word not in payloads(hands[other]), "the announcement is made; its button is gone"

    # A restart; the speaker plays a card from the hand message sent before it.
    cards = [p for p in payloads(hands[speaker]) if len(p) == 3 and p[0] == "="]
    assert cards
    moves_before = len(world.query("SELECT ply FROM moves WHERE game_id = ?", (game_id,)))
    await world.restart()
    result = await by_seat[speaker].click(
        hands[speaker].message, custom_id=payloads(hands[speaker])[cards[0]]
    )
    assert result.acknowledged
    moves_after = len(world.query("SELECT ply FROM moves WHERE game_id = ?", (game_id,)))
    assert moves_after == moves_before + 1


def _table_message(world: World, game_id: int) -> discord.Message:
    (message_id,) = world.query("SELECT message_id FROM games WHERE id = ?", (game_id,))[0]
    return next(m for m in world.messages() if m.id == message_id)
