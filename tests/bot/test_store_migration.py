"""Migrations 5 and 6 on a database the bot wrote at schema 4 (``tests/data/store-v4.sqlite``,
made by ``tests/data/make_store_v4.py``, which lists what it holds): every row survives, and
the migrated file works as the bot uses it."""

from __future__ import annotations

import contextlib
import shutil
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import bot.store.sqlite as sqlite_store
from bot.store import MIGRATIONS, SeatRecord, SQLiteStore, StoreError
from engine.dupe import DupeOptions, Move, replay

V4 = Path(__file__).parents[1] / "data" / "store-v4.sqlite"
GUILD, OTHER_GUILD = 500, 600
ALICE, BOB, CAROL, DAVE, ERIN = 101, 102, 103, 104, 105
NOW = 1_760_000_000.0
TABLES = ("games", "seats", "moves", "results", "ratings", "guild_defaults", "outbox")


@contextlib.contextmanager
def connect(path: Path) -> Iterator[sqlite3.Connection]:
    """Open the file with a separate connection, as an operator would, and close it."""
    db = sqlite3.connect(path)
    try:
        yield db
    finally:
        db.close()


V4_GAME_COLUMNS = 15  # migration 6 adds end_reason and active_at after them


def rows(path: Path) -> dict[str, list[tuple[Any, ...]]]:
    """Return every row of every table, in a fixed order (columns in schema order; of
    ``games``, the columns schema 4 had)."""
    with connect(path) as db:
        found = {table: sorted(db.execute(f"SELECT * FROM {table}")) for table in TABLES}
    found["games"] = [row[:V4_GAME_COLUMNS] for row in found["games"]]
    return found


def schema(path: Path, name: str) -> str:
    with connect(path) as db:
        found = db.execute("SELECT sql FROM sqlite_master WHERE name = ?", (name,)).fetchone()
    return str(found[0]) if found else ""


def user_version(path: Path) -> int:
    with connect(path) as db:
        return int(db.execute("PRAGMA user_version").fetchone()[0])


@pytest.fixture
def v4(tmp_path: Path) -> Path:
    """Return a copy of the schema-4 database (the committed file is never opened)."""
    path = tmp_path / "bot.sqlite3"
    shutil.copyfile(V4, path)
    assert user_version(path) == 4
    return path


async def test_every_row_survives_and_the_version_is_7(v4: Path) -> None:
    before = rows(v4)
    assert {t: len(r) for t, r in before.items()} == {
        "games": 6,
        "seats": 19,
        "moves": 853,
        "results": 12,
        "ratings": 7,
        "guild_defaults": 2,
        "outbox": 2,
    }
    store = await SQLiteStore.open(v4)
    await store.close()
    assert user_version(v4) == len(MIGRATIONS) == 9
    assert rows(v4) == before  # results.deals is results.rounds now, in the same place
    with connect(v4) as db:
        reasons = dict(db.execute("SELECT status, end_reason FROM games WHERE status != 'lobby'"))
        assert db.execute("SELECT COUNT(active_at) FROM games").fetchone() == (0,)
        # Migration 7: duplicate matches' table, empty.
        assert db.execute("SELECT COUNT(*) FROM matches").fetchone() == (0,)
    # A table cancelled before migration 6 was cancelled by its host or a manager.
    assert reasons.get("cancelled", "cancelled") == "cancelled"
    assert reasons.get("finished") is None and reasons.get("playing") is None
    with connect(v4) as db:
        columns = [row[1] for row in db.execute("PRAGMA table_info(results)")]
        assert columns[-1] == "rounds" and "deals" not in columns
        assert db.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
        assert db.execute("PRAGMA foreign_key_check").fetchall() == []
        assert db.execute("PRAGMA journal_mode").fetchone() == ("wal",)
        assert not db.execute("SELECT name FROM sqlite_master WHERE name = 'seats_new'").fetchall()
    # The rebuilt table keeps every constraint but the seat range, and its index.
    assert "BETWEEN 0 AND 15" in schema(v4, "seats")
    assert "REFERENCES games (id)" in schema(v4, "seats")
    assert "PRIMARY KEY (game_id, seat)" in schema(v4, "seats")
    assert "CHECK ((user_id IS NULL) <> (level IS NULL))" in schema(v4, "seats")
    assert "WHERE user_id IS NOT NULL" in schema(v4, "seats_one_seat_per_member")
    again = await SQLiteStore.open(v4)  # opening again migrates nothing
    await again.close()
    assert rows(v4) == before


async def test_the_rebuilt_seats_table_refuses_what_it_refused(v4: Path) -> None:
    store = await SQLiteStore.open(v4)
    try:
        refused = [
            (4, 16, 200, "x", None),  # seats beyond 15
            (4, -1, 200, "x", None),
            (4, 1, 200, "x", None),  # seat 1 of table 4 is taken (primary key)
            (4, 2, ERIN, "erin again", None),  # one seat per member
            (4, 3, None, "nobody", None),  # neither member nor computer
            (4, 3, 200, "both", "expert"),  # both
            (99, 0, 200, "x", None),  # no table 99 (foreign key)
        ]
        for row in refused:
            with pytest.raises(sqlite3.IntegrityError):
                await store._write(
                    [
                        (
                            "INSERT INTO seats (game_id, seat, user_id, name, level)"
                            " VALUES (?, ?, ?, ?, ?)",
                            row,
                        )
                    ]
                )
        lobby = await store.game(4)
        assert lobby is not None and sorted(lobby.seats) == [0, 1]
    finally:
        await store.close()


async def test_the_live_games_load_with_their_moves_and_go_on(v4: Path) -> None:
    store = await SQLiteStore.open(v4)
    try:
        playing, lobby = await store.live_games()
        assert (playing.id, playing.status, lobby.id, lobby.status) == (3, "playing", 4, "lobby")
        assert (playing.game, playing.guild_id, playing.channel_id) == ("dupe", GUILD, 12)
        assert (playing.seed, playing.message_id, playing.shown_plies) == (3333, 9012, 20)
        assert playing.owed == ["deal1"] and playing.deadline is not None
        assert [(s.user_id, s.level) for s in playing.seats.values()] == [
            (DAVE, None),
            (ALICE, None),
            (None, "random"),
            (None, "random"),
        ]
        assert len(playing.moves) == 78
        state = replay(playing.seed, DupeOptions(playing.options["memory"]), playing.moves)
        assert state.deal == 2 and len(state.results) == 1 and not state.is_over
        assert [(s.user_id, s.name) for s in lobby.seats.values()] == [
            (ERIN, "erin"),
            (None, "Computer (expert)"),
        ]
        assert await store.live_game_in(12) == playing

        # The game goes on: the next move is appended after the 78 already there.
        seat = state.to_act[0]
        move = Move(seat, state.legal_actions(seat)[0])
        await store.append_moves(3, 78, [(seat, str(move), False)], NOW, NOW + 300)
        await store.posted(3, "deal1")
        record = await store.game(3)
        assert record is not None
        assert record.moves == [*playing.moves, str(move)] and record.owed == []
        state.apply(move.seat, move.action)
        assert replay(record.seed, DupeOptions(), record.moves).moves == state.moves

        # The lobby starts with four seats.
        seats = [*lobby.seats.values(), SeatRecord(2, BOB, "bob", None)]
        seats.append(SeatRecord(3, None, "Computer (expert)", "expert"))
        await store.start_game(4, seats, NOW, NOW + 120)
        started = await store.game(4)
        assert started is not None and started.status == "playing" and len(started.seats) == 4
    finally:
        await store.close()


async def test_the_outbox_leaderboard_stats_history_and_defaults_read_as_before(
    v4: Path,
) -> None:
    before = rows(v4)
    store = await SQLiteStore.open(v4)
    try:
        (owing,) = await store.owed_finished()
        assert (owing.id, owing.owed, len(owing.moves)) == (1, ["table"], 258)
        await store.posted(1, "table")
        assert await store.owed_finished() == []

        members, total = await store.leaderboard(GUILD, "dupe")
        assert total == 3
        assert [(r.user_id, r.games, r.wins, r.points) for r in members] == [
            (ALICE, 2, 0.0, 62 + 98),
            (CAROL, 1, 0.0, 106),
            (BOB, 1, 0.0, 80),
        ]
        everyone, total = await store.leaderboard(GUILD, "dupe", computers=True, sort="rating")
        assert total == 5
        stored = {row[2]: (row[3], row[4]) for row in before["ratings"] if row[0] == GUILD}
        for row in everyone:
            key = str(row.user_id) if row.user_id is not None else f"cpu:{row.level}"
            assert row.rating is not None and (row.rating.mu, row.rating.sigma) == stored[key]
        assert [r.level for r in everyone if r.user_id is None] == ["expert", "greedy"]
        assert await store.leaderboard(GUILD, "whist") == ([], 0)

        stats = await store.player_stats(GUILD, ALICE, "dupe")
        assert stats is not None
        assert (stats.games, stats.wins, stats.best_score) == (2, 0.0, 98)
        assert stats.mean_score == 80.0
        assert stats.best_round == 25  # her rounds were 12 18 16 16 and 24 24 25 25
        assert stats.favourite_seat == 0  # once each in seats 0 and 1: the lower
        assert stats.rating is not None and stats.rating.mu == stored[str(ALICE)][0]
        assert await store.player_stats(GUILD, DAVE, "dupe") is None  # still playing
        assert await store.player_stats(GUILD, ALICE, "whist") is None

        history = await store.recent_games(GUILD, "dupe")
        assert [(g.record.id, g.game) for g in history] == [(2, "dupe"), (1, "dupe")]
        assert [g.record.id for g in await store.recent_games(GUILD, None)] == [2, 1]
        assert await store.recent_games(GUILD, "whist") == []
        assert history[1].results[3] == (129, 1.0) and history[1].winners == [3]
        (other,) = await store.recent_games(OTHER_GUILD, None, limit=5)
        assert (other.record.id, other.winners) == (6, [1])

        assert await store.defaults(GUILD, "dupe") == {"memory": "open", "turn_seconds": 60}
        assert await store.defaults(OTHER_GUILD, "dupe") == {"pictures": False}
        assert await store.defaults(GUILD, "whist") == {}
        await store.set_defaults(GUILD, {"memory": "strict"}, BOB, NOW, "dupe")
        assert await store.defaults(GUILD, "dupe") == {"memory": "strict"}
    finally:
        await store.close()


async def test_a_game_finished_after_the_migration_updates_the_old_ratings(v4: Path) -> None:
    before = {row[2]: row for row in rows(v4)["ratings"] if row[0] == GUILD}
    store = await SQLiteStore.open(v4)
    try:
        results = [
            (0, DAVE, None, 50, 1.0, (20, 30)),
            (1, ALICE, None, 40, 0.0, (25, 15)),
            (2, None, "random", 10, 0.0, (5, 5)),
            (3, None, "random", 5, 0.0, (0, 5)),
        ]
        await store.append_moves(3, 78, [], NOW, None, results=results, guild_id=GUILD)
        stats = await store.player_stats(GUILD, ALICE, "dupe")
        assert stats is not None and stats.games == 3 and stats.best_round == 25
    finally:
        await store.close()
    after = {row[2]: row for row in rows(v4)["ratings"] if row[0] == GUILD}
    assert after[str(ALICE)][5] == before[str(ALICE)][5] + 1 == 3
    assert after[str(ALICE)][3] > before[str(ALICE)][3]  # her mu: she beat two computers
    assert after[str(ALICE)][4] < before[str(ALICE)][4]  # her sigma: better known now
    assert after[str(DAVE)][5] == after["cpu:random"][5] == 1
    assert after[str(BOB)] == before[str(BOB)]


async def test_a_failed_migration_leaves_the_file_at_version_4(
    v4: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    before = rows(v4)
    seats_before = schema(v4, "seats")
    broken = (*MIGRATIONS[:4], MIGRATIONS[4] + ";\nSELECT no_such_column FROM seats")
    monkeypatch.setattr(sqlite_store, "MIGRATIONS", broken)
    with pytest.raises(StoreError, match="cannot be used"):
        await SQLiteStore.open(v4)
    assert user_version(v4) == 4
    assert schema(v4, "seats") == seats_before and "BETWEEN 0 AND 3" in seats_before
    assert rows(v4) == before
    monkeypatch.undo()
    store = await SQLiteStore.open(v4)  # and the real migration still applies afterwards
    await store.close()
    assert user_version(v4) == len(MIGRATIONS) and rows(v4) == before


async def test_a_reader_open_during_the_migration_keeps_its_snapshot(v4: Path) -> None:
    """Another process (a shard slice still on the old file) reading while the first one
    migrates: WAL lets it finish its read, and it sees the new schema afterwards."""
    reader = sqlite3.connect(v4, isolation_level=None)
    try:
        reader.execute("BEGIN")
        assert reader.execute("SELECT COUNT(*) FROM seats").fetchone() == (19,)
        store = await SQLiteStore.open(v4)
        await store.close()
        assert reader.execute("SELECT COUNT(*) FROM seats").fetchone() == (19,)
        reader.execute("COMMIT")
        assert reader.execute("PRAGMA user_version").fetchone() == (len(MIGRATIONS),)
        assert reader.execute("SELECT COUNT(rounds) FROM results").fetchone() == (12,)
    finally:
        reader.close()
