"""``python -m bot.tools migrate-sqlite-to-postgresql``: a bot's SQLite file (the schema-4
file of ``tests/data``, with finished, live, cancelled games, ratings, defaults and owed
posts) moves into an empty PostgreSQL database whole, and reads there as it did in SQLite."""

from __future__ import annotations

import shutil
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bot.store import PostgresStore, SeatRecord, SQLiteStore, Store
from bot.tools import main
from tests.bot.test_store_migration import ALICE, GUILD, OTHER_GUILD, V4
from tests.support.postgres import PASSWORD, Cluster, run_sync

MIGRATE = "migrate-sqlite-to-postgresql"


@pytest.fixture
def source(tmp_path: Path) -> Path:
    """Return a copy of the schema-4 database."""
    path = tmp_path / "bot.sqlite3"
    shutil.copyfile(V4, path)
    return path


@pytest.fixture
def blank(postgres: Cluster) -> Iterator[str]:
    """Return the URL of a new database without any table (dropped afterwards)."""
    name = postgres.database(migrated=False)
    yield postgres.url(name)
    postgres.drop(name)


async def everything(store: Store) -> dict[str, Any]:
    """Return what the bot reads from a store, through the store's own methods."""
    found: dict[str, Any] = {
        "live": await store.live_games(),
        "owed": await store.owed_finished(),
        "games": [await store.game(game_id) for game_id in range(1, 8)],
        "stats": await store.player_stats(GUILD, ALICE, "dupe"),
        "defaults": [await store.defaults(g, "dupe") for g in (GUILD, OTHER_GUILD)],
    }
    for guild in (GUILD, OTHER_GUILD):
        found[f"history {guild}"] = await store.recent_games(guild, None)
        for sort in ("points", "wins", "rating"):
            found[f"board {guild} {sort}"] = await store.leaderboard(
                guild, "dupe", sort=sort, computers=True
            )
    return found


def test_the_whole_file_moves_and_reads_as_it_did(
    source: Path, blank: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    before = source.read_bytes()
    assert main([MIGRATE, str(source), blank]) == 0
    out, err = capsys.readouterr()
    assert err == ""
    assert out.splitlines() == [
        "copied 6 games (19 seats), 853 moves, 12 results, 7 ratings, 2 server defaults, "
        "2 owed posts",
        "replayed 3 finished games: 3 match their stored scores, 0 do not",
    ]
    assert source.read_bytes() == before  # the source is never written

    # The file, migrated as the bot would, and the target read alike, row for row.
    migrated = tmp_path / "migrated.sqlite3"
    shutil.copyfile(V4, migrated)

    async def compare() -> None:
        lite = await SQLiteStore.open(migrated)
        pg = await PostgresStore.open(blank)
        try:
            expected = await everything(lite)
            assert await everything(pg) == expected
            assert len(expected["live"]) == 2 and expected["live"][0].moves  # not vacuous
            # The games go on there: the live one takes its next move, a new table its id.
            await pg.append_moves(3, 78, [(0, "N:2S", False)], 0.0, None)
            new = await pg.create_game(
                game="dupe",
                guild_id=GUILD,
                channel_id=99,
                host_id=ALICE,
                seed=1,
                options={},
                now=0.0,
                host_seat=SeatRecord(0, ALICE, "alice", None),
            )
            assert new == 7
        finally:
            await lite.close()
            await pg.close()

    run_sync(compare())


def test_a_finished_game_that_does_not_replay_to_its_scores_is_listed(
    source: Path, blank: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with sqlite3.connect(source) as db:
        db.execute("UPDATE results SET score = score + 5 WHERE game_id = 2 AND seat = 1")
    db.close()
    assert main([MIGRATE, str(source), blank]) == 1
    out, _ = capsys.readouterr()
    lines = out.splitlines()
    assert lines[1] == "replayed 3 finished games: 2 match their stored scores, 1 do not"
    assert lines[2].startswith("game 2 (dupe): stored scores (") and len(lines) == 3
    assert "but the replay gives" in lines[2]


def test_a_target_that_is_not_empty_or_a_source_that_is_missing_is_refused(
    source: Path, pg_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    async def one_game() -> dict[str, int]:
        store = await PostgresStore.open(pg_url)
        try:
            await store.set_defaults(GUILD, {"memory": "open"}, ALICE, 0.0, "dupe")
            return await store.counts()
        finally:
            await store.close()

    held = run_sync(one_game())
    cases = [
        ([str(source), pg_url], "is not empty (1 guild_defaults)"),
        ([str(tmp_path / "absent.sqlite3"), pg_url], "does not exist"),
        ([str(source), str(tmp_path / "other.sqlite3")], "is not a PostgreSQL URL"),
        ([str(source), "postgresql://bot:pw@/x"], "names no server"),
    ]
    for args, expected in cases:
        assert main([MIGRATE, *args]) == 2
        out, err = capsys.readouterr()
        assert out == "" and len(err.splitlines()) == 1, err
        assert err.startswith("error: ") and err.rstrip().endswith("."), err
        assert expected in err and PASSWORD not in err, err

    async def counts() -> dict[str, int]:
        store = await PostgresStore.open(pg_url)
        try:
            return await store.counts()
        finally:
            await store.close()

    assert run_sync(counts()) == held  # nothing was copied


def test_a_new_match_after_the_copy_takes_the_next_id(
    source: Path, blank: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """Duplicate matches move with their ids, and the target gives a new match the next one
    (its id sequence moved past them, as the games')."""

    async def two_matches() -> None:
        lite = await SQLiteStore.open(source)
        try:
            for n in (1, 2):
                assert await lite.create_match("whist_duplicate", GUILD, {"n": n}, 0.0) == n
        finally:
            await lite.close()

    run_sync(two_matches())
    assert main([MIGRATE, str(source), blank]) == 0
    capsys.readouterr()

    async def third() -> None:
        pg = await PostgresStore.open(blank)
        try:
            copied = await pg.match(2)
            assert copied is not None and copied.data == {"n": 2}
            assert await pg.create_match("whist_duplicate", GUILD, {"n": 3}, 0.0) == 3
        finally:
            await pg.close()

    run_sync(third())
