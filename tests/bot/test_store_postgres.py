"""What only the PostgreSQL store has: its migrations (once, under a lock, both dialects
alike), a database it must refuse, and a server that goes away under a running store."""

from __future__ import annotations

import asyncio
import logging
import sqlite3
from collections.abc import AsyncIterator, Iterator
from typing import Any

import asyncpg
import pytest

import bot.store.postgres as postgres_store
from bot.store import (
    MIGRATIONS,
    PG_MIGRATIONS,
    PostgresStore,
    SeatRecord,
    StoreError,
    StoreUnreachableError,
    StoreWriteError,
)
from bot.store.migrations import split_statements
from tests.bot.test_store import GUILD, NOW, finish, open_game
from tests.support.postgres import Cluster

# The pool in a thread of its own (a bot embedded in another program, the tests' bots) and
# on the caller's loop (``python -m bot``).
OWN_THREAD = pytest.mark.parametrize(
    "own_thread", [True, False], ids=["own-thread", "callers-loop"]
)

TABLES = {
    "games",
    "seats",
    "moves",
    "results",
    "ratings",
    "guild_defaults",
    "outbox",
    "matches",
    "match_posts",
}


async def fetch(url: str, sql: str, *args: Any) -> list[tuple[Any, ...]]:
    """Run a read with a connection of its own, as an operator would."""
    conn = await asyncpg.connect(url)
    try:
        return [tuple(row) for row in await conn.fetch(sql, *args)]
    finally:
        await conn.close()


async def tables_and_columns(url: str) -> dict[str, list[str]]:
    rows = await fetch(
        url,
        "SELECT table_name, column_name FROM information_schema.columns"
        " WHERE table_schema = 'public' AND table_name != 'schema_version'"
        " ORDER BY table_name, ordinal_position",
    )
    found: dict[str, list[str]] = {}
    for table, column in rows:
        found.setdefault(table, []).append(column)
    return found


@pytest.fixture
def blank(postgres: Cluster) -> Iterator[str]:
    """Return the URL of a database without any table (dropped afterwards)."""
    name = postgres.database(migrated=False)
    yield postgres.url(name)
    postgres.drop(name)


@pytest.fixture
async def store_pg(pg_url: str) -> AsyncIterator[PostgresStore]:
    """Return a PostgreSQL store on a fresh database (closed afterwards)."""
    store = await PostgresStore.open(pg_url)
    yield store
    await store.close()


# --- migrations ----------------------------------------------------------------------------


async def test_a_new_database_is_migrated_once_and_keeps_its_version(blank: str) -> None:
    first = await PostgresStore.open(blank)
    game_id = await open_game(first, 1, [10, 11, None, None])
    await first.close()
    assert await fetch(blank, "SELECT version FROM schema_version") == [(len(PG_MIGRATIONS),)]
    again = await PostgresStore.open(blank)  # a second migration would fail on CREATE TABLE
    try:
        record = await again.game(game_id)
        assert record is not None and record.status == "playing"
        assert set(await tables_and_columns(blank)) == TABLES
        assert await fetch(blank, "SELECT COUNT(*) FROM schema_version") == [(1,)]
    finally:
        await again.close()


async def test_processes_starting_together_migrate_once(blank: str) -> None:
    """Shard slices (or hosts) may start together on a new database: each takes the
    advisory lock in turn, the first migrates, the others find it done."""
    stores = await asyncio.gather(*(PostgresStore.open(blank) for _ in range(4)))
    try:
        assert await fetch(blank, "SELECT version FROM schema_version") == [(len(PG_MIGRATIONS),)]
        game_id = await open_game(stores[0], 1, [10, None, None, None])
        assert (await stores[3].game(game_id)) is not None
    finally:
        for store in stores:
            await store.close()


async def test_a_failed_migration_leaves_the_database_as_it_was(
    blank: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    broken = (*PG_MIGRATIONS[:5], PG_MIGRATIONS[5] + ";\nSELECT no_such_column FROM seats")
    monkeypatch.setattr(postgres_store, "PG_MIGRATIONS", broken)
    with pytest.raises(StoreError, match="cannot be used") as caught:
        await PostgresStore.open(blank)
    assert "\n" not in str(caught.value)
    assert await tables_and_columns(blank) == {}  # not even schema_version: one transaction
    monkeypatch.undo()
    store = await PostgresStore.open(blank)  # and the real migrations still apply afterwards
    await store.close()
    assert set(await tables_and_columns(blank)) == TABLES


async def test_a_database_of_a_newer_version_is_refused_in_one_sentence(pg_url: str) -> None:
    conn = await asyncpg.connect(pg_url)
    await conn.execute("UPDATE schema_version SET version = 999")
    await conn.close()
    with pytest.raises(StoreError) as caught:
        await PostgresStore.open(pg_url)
    text = str(caught.value)
    assert "newer version (schema 999" in text and "\n" not in text
    assert "dupe-test-secret" not in text and ":***@" in text


async def test_both_dialects_take_the_same_steps_to_the_same_tables_and_columns(
    blank: str,
) -> None:
    """Entry n of each list is the same change: after every step, SQLite and PostgreSQL
    have the same tables, columns (in the same order) and named indexes."""
    assert len(MIGRATIONS) == len(PG_MIGRATIONS) == 9
    lite = sqlite3.connect(":memory:")
    conn = await asyncpg.connect(blank)
    try:
        for number, (sqlite_step, pg_step) in enumerate(
            zip(MIGRATIONS, PG_MIGRATIONS, strict=True), start=1
        ):
            for statement in split_statements(sqlite_step):
                lite.execute(statement)
            await conn.execute(pg_step)
            sqlite_tables = {
                name: [row[1] for row in lite.execute(f"PRAGMA table_info({name})")]
                for (name,) in lite.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
            }
            sqlite_indexes = {
                name
                for (name,) in lite.execute(
                    "SELECT name FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL"
                )
            }
            pg_indexes = {
                name
                for (name,) in await conn.fetch(
                    "SELECT indexname FROM pg_indexes WHERE schemaname = 'public'"
                    " AND indexname NOT LIKE '%\\_pkey'"
                )
            }
            assert await tables_and_columns(blank) == sqlite_tables, f"after migration {number}"
            assert pg_indexes == sqlite_indexes, f"after migration {number}"
    finally:
        lite.close()
        await conn.close()
    assert set(sqlite_tables) == TABLES


async def test_discord_ids_beyond_32_bits_are_kept(store_pg: PostgresStore) -> None:
    big = 1_234_567_890_123_456_789  # a snowflake of 2024: 61 bits
    game_id = await store_pg.create_game(
        game="dupe",
        guild_id=big,
        channel_id=big + 1,
        host_id=big + 2,
        seed=(1 << 62) - 1,
        options={},
        now=NOW,
        host_seat=SeatRecord(0, big + 2, "member", None),
    )
    await store_pg.set_message(game_id, big + 3)
    record = await store_pg.live_game_in(big + 1)
    assert record is not None
    assert (record.guild_id, record.host_id, record.message_id) == (big, big + 2, big + 3)
    assert record.seed == (1 << 62) - 1 and record.seats[0].user_id == big + 2


async def test_a_connection_goes_back_to_the_pool_without_a_reset(pg_url: str) -> None:
    """The store's pool skips asyncpg's session reset (one more round trip of four
    statements per call): a connection comes back as it was left, and nothing is sent
    when it is released."""
    pool = await postgres_store._create_pool(pg_url)
    sent: list[str] = []
    try:
        async with pool.acquire() as conn:
            conn.add_query_logger(lambda logged: sent.append(logged.query))
            await conn.execute("SET application_name = 'kept'")
        async with pool.acquire() as conn:
            assert await conn.fetchval("SHOW application_name") == "kept"
            async with conn.transaction():
                await conn.execute("SELECT 1")
        assert sent == [
            "SET application_name = 'kept'",
            "SHOW application_name",
            "BEGIN;",
            "SELECT 1",
            "COMMIT;",
        ]
        async with pool.acquire() as conn:
            await conn.execute("BEGIN")  # a transaction left open is still rolled back
        async with pool.acquire() as conn:
            assert not conn.is_in_transaction()
    finally:
        await pool.close()


@OWN_THREAD
async def test_a_move_is_one_statement_sent_once(
    pg_url: str, own_thread: bool, postgres: Cluster
) -> None:
    """A move's write is one statement, a transaction of its own (no BEGIN and COMMIT).
    If its connection breaks after it was sent, it is not sent again (it may have been
    committed): the member is told the database cannot be reached."""
    store = await PostgresStore.open(pg_url, own_thread=own_thread)
    sent: list[str] = []

    async def log_queries() -> None:
        async with store._pool.acquire() as conn:
            conn.add_query_logger(lambda logged: sent.append(logged.query))

    try:
        game_id = await open_game(store, 1, [10, None, None, None])
        await store._thread.run(log_queries())  # the pool's one connection, reused
        await store.append_moves(game_id, 0, [(0, "N:2S", False)], NOW, NOW + 60)
        assert sent.count(postgres_store._APPEND) == 1  # (after asyncpg's type lookups)
        assert "BEGIN;" not in sent and "COMMIT;" not in sent

        # The next move waits on the table's row (locked by an operator), and its
        # connection is cut meanwhile.
        locker = await asyncpg.connect(pg_url)
        try:
            tx = locker.transaction()
            await tx.start()
            await locker.execute("SELECT 1 FROM games WHERE id = $1 FOR UPDATE", game_id)
            write = asyncio.ensure_future(
                store.append_moves(game_id, 1, [(1, "E:3H", True)], NOW, NOW + 60)
            )
            waiting: list[int] = []
            while not waiting:
                await asyncio.sleep(0.01)
                await locker.execute("SELECT pg_stat_clear_snapshot()")
                waiting = [
                    pid
                    for (pid,) in await locker.fetch(
                        "SELECT pid FROM pg_stat_activity"
                        " WHERE query LIKE '%INSERT INTO moves%' AND wait_event_type = 'Lock'"
                    )
                ]
            await locker.execute("SELECT pg_terminate_backend($1)", waiting[0])
            # Sent again, it would wait for the lock still held here: it is not.
            with pytest.raises(StoreUnreachableError):
                await asyncio.wait_for(write, 10)
            await tx.rollback()
        finally:
            await locker.close()
        moves = await fetch(pg_url, "SELECT ply, move FROM moves WHERE game_id = $1", game_id)
        assert moves == [(0, "N:2S")]  # cut before it committed: not written, not re-sent
        await store.append_moves(game_id, 1, [(1, "E:3H", True)], NOW, NOW + 60)  # again
        moves = await fetch(
            pg_url, "SELECT ply, move FROM moves WHERE game_id = $1 ORDER BY ply", game_id
        )
        assert moves == [(0, "N:2S"), (1, "E:3H")]
    finally:
        await store.close()


# --- a server that refuses or goes away ----------------------------------------------------


async def test_a_read_only_server_refuses_writes_like_a_read_only_file(
    pg_url: str, postgres: Cluster, caplog: pytest.LogCaptureFixture
) -> None:
    name = pg_url.rsplit("/", 1)[1]
    postgres.admin(f"ALTER DATABASE {name} SET default_transaction_read_only = on")
    store = await PostgresStore.open(pg_url)  # migrated already: opening only reads
    try:
        caplog.set_level(logging.WARNING, logger="bot")
        for _ in range(2):
            with pytest.raises(StoreWriteError, match="refused a write") as caught:
                await open_game(store, 1, [10, None, None, None])
            assert not isinstance(caught.value, StoreUnreachableError)
        assert await store.live_games() == []  # reads still work
        postgres.admin(f"ALTER DATABASE {name} SET default_transaction_read_only = off")
        await store.close()
        store = await PostgresStore.open(pg_url)
        await open_game(store, 1, [10, None, None, None])
    finally:
        await store.close()
    refused = [r for r in caplog.records if "refuses writes" in r.getMessage()]
    assert len(refused) == 1 and refused[0].levelno == logging.ERROR


@OWN_THREAD
async def test_a_server_restart_under_a_running_store_loses_nothing(
    pg_url: str, own_thread: bool, postgres: Cluster, caplog: pytest.LogCaptureFixture
) -> None:
    """The server stops: every call says the database cannot be reached (a
    StoreWriteError, which the bot answers with “nothing changed, try again”) and keeps
    nothing. It starts again: the pool reconnects by itself, the next write succeeds, and
    everything from before is there."""
    caplog.set_level(logging.WARNING, logger="bot")
    store = await PostgresStore.open(pg_url, own_thread=own_thread)
    try:
        users = [10, 11, None, None]
        done = await open_game(store, 1, users)
        await finish(store, done, users, [50, 40, 30, 20])
        live = await open_game(store, 2, [12, None, None, None])
        await store.append_moves(live, 0, [(0, "N:2S", False)], NOW, NOW + 60, owed=["deal1"])
        before = await store.game(live)

        await asyncio.to_thread(postgres.stop)
        try:
            for _ in range(2):
                with pytest.raises(StoreUnreachableError) as caught:
                    await store.append_moves(live, 1, [(1, "E:3H", True)], NOW, NOW + 90)
                assert isinstance(caught.value, StoreWriteError)
                assert "cannot be reached" in str(caught.value)
                assert "dupe-test-secret" not in str(caught.value)
            with pytest.raises(StoreUnreachableError):
                await store.leaderboard(GUILD, "dupe")
        finally:
            await asyncio.to_thread(postgres.start)

        assert await store.game(live) == before  # the refused write kept nothing
        await store.append_moves(live, 1, [(1, "E:3H", True)], NOW, NOW + 90)
        record = await store.game(live)
        assert record is not None and record.moves == ["N:2S", "E:3H"]
        assert record.owed == ["deal1"] and record.deadline == NOW + 90
        rows, total = await store.leaderboard(GUILD, "dupe")
        assert total == 2 and [(r.user_id, r.points) for r in rows] == [(10, 50), (11, 40)]
    finally:
        await store.close()
    lines = [r for r in caplog.records if r.name.startswith("bot")]
    down = [r for r in lines if "cannot be reached" in r.getMessage()]
    assert len(down) == 1 and down[0].levelno == logging.ERROR  # one line per episode
    assert len([r for r in lines if "accepts writes again" in r.getMessage()]) == 1
    assert not [r for r in lines if "dupe-test-secret" in r.getMessage()]
