"""Doppelkopf on Discord, end to end through simcord: whole tables by one to five members
in both presets, checked against an engine replay of the stored moves; announcements in
and out of turn; the public table never names a party the table does not know; every body
is one Discord accepts and nothing secret reaches anyone else."""

from __future__ import annotations

import sqlite3

import pytest
import simcord

from bot.app import Bot
from engine.doppelkopf import DoppelkopfOptions, replay
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
