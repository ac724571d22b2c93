"""The store on both backends (the ``store`` fixture is an SQLite file and a PostgreSQL
database): the invariants the schema enforces, the leaderboard, the outbox, any game; and
what only the SQLite file has: migrations, WAL, its damage, its permissions."""

from __future__ import annotations

import asyncio
import os
import sqlite3
import stat
from collections.abc import Sequence
from pathlib import Path

import asyncpg
import pytest

from bot.store import (
    MIGRATIONS,
    ConstraintError,
    LiveTableExistsError,
    MatchPost,
    SeatRecord,
    SeatResult,
    ShardSlice,
    SQLiteStore,
    Store,
    StoreError,
    StoreWriteError,
)

GUILD = 500
NOW = 1_700_000_000.0


def query(path: Path, sql: str) -> list[tuple[object, ...]]:
    """Run a read on the database file with a separate connection, as an operator would."""
    db = sqlite3.connect(path)
    try:
        return list(db.execute(sql))
    finally:
        db.close()


async def read(store: Store, sql: str) -> list[tuple[object, ...]]:
    """Run a read on the store's database with a separate connection, as an operator would
    (``sqlite3`` on the file, or a connection of its own to the PostgreSQL server)."""
    if isinstance(store, SQLiteStore):
        return query(store.path, sql)
    conn = await asyncpg.connect(store._url)
    try:
        return [tuple(row) for row in await conn.fetch(sql)]
    finally:
        await conn.close()


def seats(users: Sequence[int | None]) -> list[SeatRecord]:
    return [
        SeatRecord(seat, user, f"member {user}" if user else "Computer", None if user else "random")
        for seat, user in enumerate(users)
    ]


async def create(
    store: Store,
    channel: int,
    host: int,
    *,
    seed: int,
    guild: int = GUILD,
    options: dict[str, object] | None = None,
    host_seat: SeatRecord | None = None,
) -> int:
    """Open a table (not started) in ``channel`` of ``guild``, hosted by ``host``."""
    return await store.create_game(
        game="dupe",
        guild_id=guild,
        channel_id=channel,
        host_id=host,
        seed=seed,
        options={} if options is None else options,
        now=NOW,
        host_seat=host_seat or seats([host])[0],
    )


async def open_game(store: Store, channel: int, users: Sequence[int | None]) -> int:
    """Open a table in ``channel`` and start it with ``users`` seated (None: computer)."""
    seated = seats(users)
    game_id = await create(
        store,
        channel,
        users[0] or 1,
        seed=channel,
        options={"memory": "strict"},
        host_seat=seated[0],
    )
    await store.start_game(game_id, seated, NOW, NOW + 120)
    return game_id


async def finish(
    store: Store, game_id: int, users: Sequence[int | None], scores: Sequence[int]
) -> None:
    """Close the game with final scores (the highest wins; ties share)."""
    best = max(scores)
    winners = scores.count(best)
    results = [
        (
            seat,
            users[seat],
            None if users[seat] else "random",
            scores[seat],
            1 / winners if scores[seat] == best else 0.0,
        )
        for seat in range(len(users))
    ]
    await store.append_moves(game_id, 0, [], NOW, None, results=results, guild_id=GUILD)


# --- opening ---------------------------------------------------------------------------


async def test_migrations_are_applied_once(tmp_path: Path) -> None:
    path = tmp_path / "dupe.sqlite3"
    first = await SQLiteStore.open(path)
    game_id = await open_game(first, 1, [10, 11, None, None])
    await first.close()
    assert query(path, "PRAGMA user_version") == [(len(MIGRATIONS),)]
    again = await SQLiteStore.open(path)  # a second migration would fail on CREATE TABLE
    try:
        assert query(path, "PRAGMA user_version") == [(len(MIGRATIONS),)]
        record = await again.game(game_id)
        assert record is not None and record.status == "playing"
        tables = {row[0] for row in query(path, "SELECT name FROM sqlite_master")}
        assert {"games", "seats", "moves", "results"} <= tables
    finally:
        await again.close()


async def test_the_database_is_in_wal_mode(tmp_path: Path) -> None:
    store = await SQLiteStore.open(tmp_path / "dupe.sqlite3")
    try:
        assert query(store.path, "PRAGMA journal_mode") == [("wal",)]
        assert store.path.with_name("dupe.sqlite3-wal").exists()
    finally:
        await store.close()


async def test_a_corrupt_file_is_refused_in_one_sentence(tmp_path: Path) -> None:
    path = tmp_path / "dupe.sqlite3"
    path.write_bytes(b"SQLite format 2? no." * 500)
    with pytest.raises(StoreError) as caught:
        await SQLiteStore.open(path)
    text = str(caught.value)
    assert "damaged or not a database" in text and "\n" not in text
    assert path.read_bytes() == b"SQLite format 2? no." * 500


async def test_a_damaged_database_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "dupe.sqlite3"
    store = await SQLiteStore.open(path)
    for channel in range(1, 40):
        await open_game(store, channel, [channel, None, None, None])
    await store.close()
    data = bytearray(path.read_bytes())
    page = 4096
    assert len(data) > 3 * page
    data[2 * page : 3 * page] = b"\xa5" * page  # one page of the tables overwritten
    path.write_bytes(bytes(data))
    with pytest.raises(StoreError, match="damaged"):
        await SQLiteStore.open(path)


async def test_unusable_paths_are_refused(tmp_path: Path) -> None:
    with pytest.raises(StoreError, match="does not exist"):
        await SQLiteStore.open(tmp_path / "missing" / "dupe.sqlite3")
    with pytest.raises(StoreError, match="is a directory"):
        await SQLiteStore.open(tmp_path)


# --- invariants ------------------------------------------------------------------------


async def test_a_channel_has_at_most_one_live_table(store: Store) -> None:
    first = await create(store, 7, 10, seed=1)
    with pytest.raises(LiveTableExistsError):
        await open_game(store, 7, [11, None, None, None])
    await store.start_game(first, seats([10, None, None, None]), NOW, None)
    with pytest.raises(LiveTableExistsError):
        await open_game(store, 7, [11, None, None, None])
    live = await store.live_game_in(7)
    assert live is not None and live.id == first
    await store.cancel_game(first, NOW)
    second = await open_game(store, 7, [11, None, None, None])  # the channel is free again
    await finish(store, second, [11, None, None, None], [1, 2, 3, 4])
    third = await open_game(store, 7, [12, None, None, None])
    assert [g.id for g in await store.live_games()] == [third]


async def test_a_ply_is_written_once(store: Store) -> None:
    game_id = await open_game(store, 1, [10, None, None, None])
    await store.append_moves(game_id, 0, [(0, "N:2S", False), (1, "E:3H", True)], NOW, NOW + 60)
    with pytest.raises(ConstraintError):
        await store.append_moves(game_id, 1, [(2, "S:4C", True)], NOW, NOW + 999, warned=True)
    record = await store.game(game_id)
    assert record is not None
    assert record.moves == ["N:2S", "E:3H"]
    # The refused write changed nothing at all: not even the deadline.
    assert (record.deadline, record.warned) == (NOW + 60, False)
    await store.append_moves(game_id, 2, [(2, "S:4C", True)], NOW, NOW + 90)
    record = await store.game(game_id)
    assert record is not None and record.moves == ["N:2S", "E:3H", "S:4C"]


async def test_a_finished_game_counts_once(store: Store) -> None:
    users = [10, 11, None, None]
    game_id = await open_game(store, 1, users)
    await finish(store, game_id, users, [50, 40, 30, 20])
    with pytest.raises(ConstraintError):
        await finish(store, game_id, users, [50, 40, 30, 20])
    rows, total = await store.leaderboard(GUILD, "dupe")
    assert total == 2  # computers are not on the leaderboard
    assert [(r.user_id, r.games, r.wins, r.points) for r in rows] == [
        (10, 1, 1.0, 50),
        (11, 1, 0.0, 40),
    ]
    record = await store.game(game_id)
    assert record is not None and record.status == "finished"
    assert await store.live_games() == []


async def test_cancelled_and_unfinished_games_do_not_count(store: Store) -> None:
    cancelled = await open_game(store, 1, [10, 11, 12, 13])
    await store.cancel_game(cancelled, NOW)
    await open_game(store, 2, [10, 11, 12, 13])
    assert await store.leaderboard(GUILD, "dupe") == ([], 0)
    assert await store.leaderboard(GUILD + 1, "dupe") == ([], 0)


# --- the leaderboard ---------------------------------------------------------------------


async def test_the_leaderboard_sorts_by_points_then_wins_then_member(store: Store) -> None:
    # Game 1: 100 wins alone. Game 2: 101 and 102 tie for the win (half a win each).
    await finish(
        store,
        await open_game(store, 1, [100, 101, 102, 103]),
        [100, 101, 102, 103],
        [60, 30, 30, 10],
    )
    await finish(
        store,
        await open_game(store, 2, [101, 102, 103, None]),
        [101, 102, 103, None],
        [45, 45, 20, 5],
    )
    # Game 3 in another server does not count here.
    other = await create(store, 3, 103, seed=3, guild=GUILD + 1)
    await store.start_game(other, seats([103, None, None, None]), NOW, None)
    await store.append_moves(
        other, 0, [], NOW, None, results=[(0, 103, None, 999, 1.0)], guild_id=GUILD + 1
    )
    rows, total = await store.leaderboard(GUILD, "dupe")
    assert total == 4
    assert [(r.user_id, r.games, r.wins, r.points) for r in rows] == [
        (101, 2, 0.5, 75),
        (102, 2, 0.5, 75),
        (100, 1, 1.0, 60),
        (103, 2, 0.0, 30),
    ]
    # Equal points: more wins first.
    await finish(
        store,
        await open_game(store, 4, [104, 105, None, None]),
        [104, 105, None, None],
        [75, 0, 0, 0],
    )
    rows, _ = await store.leaderboard(GUILD, "dupe", limit=3)
    assert [r.user_id for r in rows] == [104, 101, 102]


async def test_the_leaderboard_pages(store: Store) -> None:
    members = list(range(1000, 1023))  # 23 members, each in one game
    for index in range(0, len(members), 4):
        group = [*members[index : index + 4], None, None, None][:4]
        scores = [(m or 0) - 990 if m else 0 for m in group]
        await finish(store, await open_game(store, index + 1, group), group, scores)
    pages = []
    for page in range(4):
        rows, total = await store.leaderboard(GUILD, "dupe", offset=page * 10, limit=10)
        assert total == 23
        pages.append([r.user_id for r in rows])
    assert [len(p) for p in pages] == [10, 10, 3, 0]
    everyone = [user for page in pages for user in page]
    assert everyone == sorted(members, reverse=True)


async def test_processes_opening_a_new_file_at_once_migrate_it_once(tmp_path: Path) -> None:
    """Shard slices may start together on a fresh database: both open it, one migrates."""
    path = tmp_path / "fresh.sqlite3"
    stores = await asyncio.gather(*(SQLiteStore.open(path) for _ in range(4)))
    try:
        with sqlite3.connect(path) as db:
            assert db.execute("PRAGMA user_version").fetchone() == (len(MIGRATIONS),)
            tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master")}
        assert {"games", "seats", "moves", "results"} <= tables
        game_id = await create(stores[0], 1, 1, seed=1)
        assert (await stores[3].game(game_id)) is not None
    finally:
        for store in stores:
            await store.close()


async def test_owed_posts_are_written_with_the_moves_and_struck_off_once_sent(
    store: Store,
) -> None:
    live = await open_game(store, 1, [10, None, None, None])
    await store.append_moves(live, 0, [(0, "N:2S", False)], NOW, None, owed=["deal1"])
    (record,) = await store.live_games()
    assert record.owed == ["deal1"] and record.shown_plies == 0
    await store.shown(live, 1)
    await store.shown(live, 0)  # an older edit landing late does not go back
    await store.posted(live, "deal1")
    (record,) = await store.live_games()
    assert record.owed == [] and record.shown_plies == 1

    # A finished game keeps owing its standings and last table edit until they are sent.
    done = await open_game(store, 2, [11, None, None, None])
    results = [
        (seat, 11 if seat == 0 else None, None if seat == 0 else "random", seat, 0.0)
        for seat in range(4)
    ]
    await store.append_moves(
        done,
        0,
        [(0, "N:3S", False)],
        NOW,
        None,
        results=results,
        guild_id=GUILD,
        owed=["deal4", "end", "table"],
    )
    assert [g.id for g in await store.live_games()] == [live]
    (owing,) = await store.owed_finished()
    assert (owing.id, owing.owed, owing.moves) == (done, ["deal4", "end", "table"], ["N:3S"])
    for post in ("deal4", "end", "table"):
        await store.posted(done, post)
    assert await store.owed_finished() == []


async def test_a_closed_store_refuses_calls_as_a_refused_write(store: Store) -> None:
    """The bot stopping closes the store while a post may still be on its way: striking it
    from the outbox then fails as a refused write (the post stays owed, sent again after the
    restart), not with an error of the closed connection."""
    live = await open_game(store, 1, [10, None, None, None])
    await store.append_moves(live, 0, [(0, "N:2S", False)], NOW, None, owed=["deal1"])
    await store.close()
    with pytest.raises(StoreWriteError, match="closed: the bot is stopping"):
        await store.posted(live, "deal1")
    with pytest.raises(StoreWriteError, match="closed"):
        await store.live_games()
    await store.close()  # closing again is harmless


async def test_a_seat_handed_to_a_computer_is_written_with_its_moves(store: Store) -> None:
    """A member leaving a game in play: the new seating, the computer's moves and the owed
    notice in one transaction; a failed one changes none of them."""
    live = await open_game(store, 1, [10, 11, None, None])
    handed = [*seats([10])[:1], SeatRecord(1, None, "Computer (random) for member 11", "random")]
    handed += seats([10, 11, None, None])[2:]
    await store.append_moves(live, 0, [(1, "E:2S", True)], NOW, None, owed=["left1"], seats=handed)
    (record,) = await store.live_games()
    assert record.seats[1] == handed[1] and record.seats[0].user_id == 10
    assert record.moves == ["E:2S"] and record.owed == ["left1"]
    with pytest.raises(StoreError):  # ply 0 exists: nothing of this change is written
        await store.append_moves(live, 0, [(1, "E:3S", True)], NOW, None, seats=seats([10, 11]))
    (record,) = await store.live_games()
    assert len(record.seats) == 4 and record.moves == ["E:2S"]


async def test_a_shard_slice_reads_only_its_own_servers_tables(store: Store) -> None:
    """A process running a slice of the shards reads the live and owing tables of its
    servers only, by Discord's rule ``(guild_id >> 22) % shard_count``; Discord ids are
    beyond 32 bits, so the shift is of a 64-bit id."""
    guilds = [((262_144_007 * 4 + n) << 22) for n in range(4)]  # servers on shards 0..3 of 4
    assert [(g >> 22) % 4 for g in guilds] == [0, 1, 2, 3] and min(guilds) > 2**40
    live = [await create(store, 100 + n, 10, seed=n, guild=g) for n, g in enumerate(guilds)]
    done = await open_game(store, 200, [11, None, None, None])
    results = [(s, 11 if s == 0 else None, None if s == 0 else "random", 0, 0.0) for s in range(4)]
    await store.append_moves(
        done, 0, [(0, "N:3S", False)], NOW, None, results=results, guild_id=GUILD, owed=["end"]
    )
    mine = ShardSlice(4, (1, 3))
    assert [g.id for g in await store.live_games(mine)] == [live[1], live[3]]
    assert {g.id for g in await store.live_games()} == set(live)
    own = (GUILD >> 22) % 4
    assert [g.id for g in await store.owed_finished(ShardSlice(4, (own,)))] == [done]
    assert await store.owed_finished(ShardSlice(4, ((own + 1) % 4,))) == []
    assert all(mine.owns(g.guild_id) for g in await store.live_games(mine))


async def test_a_failed_transaction_leaves_no_owed_post(store: Store) -> None:
    game_id = await open_game(store, 1, [10, None, None, None])
    await store.append_moves(game_id, 0, [(0, "N:2S", False)], NOW, None)
    with pytest.raises(ConstraintError):  # ply 0 exists: the whole write is refused
        await store.append_moves(game_id, 0, [(0, "N:2S", False)], NOW, None, owed=["deal1"])
    (record,) = await store.live_games()
    assert record.owed == [] and record.moves == ["N:2S"]


async def test_two_tables_finishing_at_once_both_count_in_the_ratings(store: Store) -> None:
    """Two tables of one server finish at the same moment with the same players: each
    player's rating takes both games, the second starting from what the first made it."""
    users = [10, 11, None, None]
    first = await open_game(store, 1, users)
    second = await open_game(store, 2, users)
    await asyncio.gather(
        finish(store, first, users, [50, 40, 30, 20]),
        finish(store, second, users, [10, 60, 30, 20]),
    )
    rated = await read(store, "SELECT player, games FROM ratings ORDER BY player")
    assert rated == [("10", 2), ("11", 2), ("cpu:random", 2)]


# --- any game ----------------------------------------------------------------------------


async def test_a_fifth_seat_is_stored_and_read_back(store: Store) -> None:
    users = [10, 11, None, 13, 14]  # Doppelkopf's fifth player sits out a game in turn
    game_id = await store.create_game(
        game="doppelkopf",
        guild_id=GUILD,
        channel_id=1,
        host_id=10,
        seed=5,
        options={},
        now=NOW,
        host_seat=seats(users)[0],
    )
    await store.set_seats(game_id, seats(users))
    lobby = await store.game(game_id)
    assert lobby is not None and sorted(lobby.seats) == [0, 1, 2, 3, 4]
    await store.start_game(game_id, seats(users), NOW, None, [(4, "a move", False)])
    record = await store.game(game_id)
    assert record is not None and record.seats == lobby.seats
    assert record.seats[4] == SeatRecord(4, 14, "member 14", None)
    assert record.moves == ["a move"]
    results = [
        (seat, user, None if user else "random", 10 * seat, 1.0 if seat == 4 else 0.0, (seat, 9))
        for seat, user in enumerate(users)
    ]
    await store.append_moves(game_id, 1, [], NOW, None, results=results, guild_id=GUILD)
    rows, total = await store.leaderboard(GUILD, "doppelkopf")
    assert total == 4 and (rows[0].user_id, rows[0].points, rows[0].wins) == (14, 40, 1.0)
    stats = await store.player_stats(GUILD, 14, "doppelkopf")
    assert stats is not None and (stats.favourite_seat, stats.best_round) == (4, 9)
    (finished,) = await store.recent_games(GUILD, "doppelkopf")
    assert finished.game == "doppelkopf" and finished.winners == [4]
    assert finished.results[4] == (40, 1.0)


async def test_seats_run_from_0_to_15(store: Store) -> None:
    game_id = await create(store, 1, 10, seed=1)
    await store.set_seats(game_id, [SeatRecord(15, 10, "member 10", None)])
    record = await store.game(game_id)
    assert record is not None and list(record.seats) == [15]
    for seat in (16, -1):
        with pytest.raises(ConstraintError):
            await store.set_seats(game_id, [SeatRecord(seat, 10, "member 10", None)])
    record = await store.game(game_id)
    assert record is not None and list(record.seats) == [15]  # the refused write changed nothing


async def test_each_game_keeps_its_own_leaderboard_ratings_history_and_defaults(
    store: Store,
) -> None:
    users = [10, 11, None, None]
    dupe = await open_game(store, 1, users)
    await finish(store, dupe, users, [50, 40, 30, 20])
    whist = await store.create_game(
        game="whist",
        guild_id=GUILD,
        channel_id=2,
        host_id=11,
        seed=2,
        options={},
        now=NOW + 1,
        host_seat=SeatRecord(0, 11, "member 11", None),
    )
    await store.start_game(whist, seats([11, 10]), NOW + 1, None)
    await store.append_moves(
        whist,
        0,
        [],
        NOW + 2,
        None,
        results=[(0, 11, None, 7, 1.0, (4, 3)), (1, 10, None, 2, 0.0, (1, 1))],
        guild_id=GUILD,
    )

    dupe_rows, _ = await store.leaderboard(GUILD, "dupe")
    whist_rows, _ = await store.leaderboard(GUILD, "whist")
    assert [(r.user_id, r.points) for r in dupe_rows] == [(10, 50), (11, 40)]
    assert [(r.user_id, r.points) for r in whist_rows] == [(11, 7), (10, 2)]
    assert dupe_rows[0].rating is not None and whist_rows[1].rating is not None
    assert dupe_rows[0].rating != whist_rows[1].rating  # member 10 is rated per game
    ratings = await read(store, "SELECT game, player, games FROM ratings ORDER BY game, player")
    assert ratings == [
        ("dupe", "10", 1),
        ("dupe", "11", 1),
        ("dupe", "cpu:random", 1),
        ("whist", "10", 1),
        ("whist", "11", 1),
    ]
    stats = await store.player_stats(GUILD, 11, "whist")
    assert stats is not None and (stats.games, stats.best_round) == (1, 4)

    every = await store.recent_games(GUILD, None)
    assert [(g.record.id, g.game) for g in every] == [(whist, "whist"), (dupe, "dupe")]
    assert [g.record.id for g in await store.recent_games(GUILD, "dupe")] == [dupe]
    assert [g.record.id for g in await store.recent_games(GUILD, None, limit=1)] == [whist]

    await store.set_defaults(GUILD, {"memory": "open"}, 10, NOW, "dupe")
    await store.set_defaults(GUILD, {"trumps": "none"}, 10, NOW, "whist")
    assert await store.defaults(GUILD, "dupe") == {"memory": "open"}
    assert await store.defaults(GUILD, "whist") == {"trumps": "none"}
    assert await store.defaults(GUILD, "doppelkopf") == {}


async def test_the_database_and_its_journal_are_readable_by_their_owner_only(
    tmp_path: Path,
) -> None:
    """A seed and a move log reveal every hand: the file is created 0600 (whatever the
    umask), its -wal and -shm files follow it, and an existing file is narrowed to 0600."""
    path = tmp_path / "private.sqlite3"
    old = os.umask(0o022)
    try:
        store = await SQLiteStore.open(path)
        try:
            await store.set_defaults(1, {"pictures": False}, 2, 0.0, "dupe")
            for name in (path, Path(f"{path}-wal"), Path(f"{path}-shm")):
                assert name.exists() and stat.S_IMODE(name.stat().st_mode) == 0o600, name
        finally:
            await store.close()
        loose = tmp_path / "loose.sqlite3"
        loose.touch(mode=0o644)
        os.chmod(loose, 0o644)
        await (await SQLiteStore.open(loose)).close()
        assert stat.S_IMODE(loose.stat().st_mode) == 0o600
    finally:
        os.umask(old)


async def test_matches_are_kept_as_documents_and_rate_their_players(store: Store) -> None:
    """An event over several tables (a duplicate match): created open, saved, read back,
    listed while live; its players' ratings move once, ranked by score."""
    data = {"format": "team", "plays": [{"tray": 1, "ns": None}], "seating": [[None] * 4]}
    first = await store.create_match("whist_duplicate", 5, data, 100.0)
    other = await store.create_match("whist_duplicate", 6, {"format": "mitchell"}, 101.0)
    record = await store.match(first)
    assert record is not None and record.status == "open" and record.data == data
    data["plays"][0]["ns"] = 8
    await store.save_match(first, "playing", data, 102.0)
    assert [m.id for m in await store.live_matches("whist_duplicate")] == [first, other]
    assert (await store.match(first)).data["plays"][0]["ns"] == 8  # type: ignore[union-attr]
    await store.save_match(other, "finished", {"format": "mitchell"}, 103.0)
    assert [m.id for m in await store.live_matches("whist_duplicate")] == [first]
    assert [m.id for m in await store.matches_in(6, "whist_duplicate")] == [other]
    assert await store.match(999) is None
    await store.rate(
        5,
        "whist_duplicate",
        [SeatResult(0, 1, None, 3, 0.0), SeatResult(1, 2, None, -3, 0.0)],
        104.0,
    )
    stats = await store.player_stats(5, 1, "whist_duplicate")
    assert stats is None  # no table results: only the rating moved
    board, _ = await store.leaderboard(5, "whist_duplicate", sort="rating")
    assert board == []  # the leaderboard lists players of finished tables


async def test_a_matchs_posts_are_owed_with_its_document_until_sent(store: Store) -> None:
    """A match's outbox: posts written with a document change, read back in order (with
    their server) until marked sent; a nonce owed before is not owed again."""
    first = await store.create_match("whist_duplicate", 5, {"format": "team"}, 100.0)
    other = await store.create_match("whist_duplicate", 6, {"format": "team"}, 100.0)
    posts = [MatchPost(first, 5, 70 + n, f"m{first}:t{n}:tray1", n, f"tray {n}") for n in (1, 2)]
    await store.save_match(first, "playing", {"format": "team", "round": 1}, 101.0, posts)
    later = MatchPost(other, 6, 80, f"m{other}:t1:final", 0, "final")
    await store.save_match(other, "finished", {"format": "team"}, 102.0, [later])
    assert await store.owed_match_posts() == [*posts, later]
    assert (await store.match(first)).data["round"] == 1  # type: ignore[union-attr]
    await store.match_posted(first, posts[0].nonce)
    again = posts[0]._replace(seq=5, text="again")  # asked for again: owed once only
    await store.save_match(first, "playing", {"format": "team"}, 103.0, [again])
    assert await store.owed_match_posts() == [posts[1], later]
    assert await store.match_nonces(first) == {p.nonce for p in posts}
    await store.match_posted(first, posts[1].nonce)
    await store.match_posted(other, later.nonce)
    assert await store.owed_match_posts() == []
