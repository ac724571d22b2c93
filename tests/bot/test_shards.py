"""Shard slices: each process serves only the servers of its own shards."""

from __future__ import annotations

from pathlib import Path

from bot import games
from bot.app import Bot, ShardedBot, create_bot, shard_of
from bot.config import Settings
from bot.store import SQLiteStore
from bot.tables import Tables
from tests.bot.test_store import NOW, create, seats

TOKEN = "MTIzNDU2Nzg5MDEyMzQ1Njc4.GabcDE.abcdefghijklmnopqrstuvwxyz012345"


def guild_on_shard(shard: int, count: int, n: int = 1) -> int:
    """Return a server id that Discord puts on ``shard`` of ``count``."""
    guild = ((n * count + shard) << 22) | 12345
    assert shard_of(guild, count) == shard
    return guild


def test_create_bot_builds_a_sharded_bot_only_for_shard_settings(tmp_path: Path) -> None:
    plain = create_bot(Settings(token=TOKEN, database=tmp_path / "a.sqlite3"))
    assert type(plain) is Bot
    assert plain.owns_guild(guild_on_shard(0, 2)) and plain.owns_guild(guild_on_shard(1, 2))
    sliced = create_bot(
        Settings(token=TOKEN, database=tmp_path / "a.sqlite3", shard_count=2, shard_ids=[1])
    )
    assert isinstance(sliced, ShardedBot)
    assert (sliced.shard_count, sliced.shard_ids) == (2, [1])
    assert sliced.owns_guild(guild_on_shard(1, 2))
    assert not sliced.owns_guild(guild_on_shard(0, 2))
    every = create_bot(Settings(token=TOKEN, database=tmp_path / "a.sqlite3", shard_count=2))
    assert isinstance(every, ShardedBot)
    assert every.owns_guild(guild_on_shard(0, 2)) and every.owns_guild(guild_on_shard(1, 2))


def test_the_default_endpoints_are_discords(tmp_path: Path) -> None:
    import discord

    create_bot(
        Settings(
            token=TOKEN,
            database=tmp_path / "a.sqlite3",
            api_base_url="http://127.0.0.1:9/api/v10",
            gateway_url="ws://127.0.0.1:9/gateway",
        )
    )
    assert discord.http.Route.BASE == "http://127.0.0.1:9/api/v10"
    assert str(discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY) == "ws://127.0.0.1:9/gateway"
    create_bot(Settings(token=TOKEN, database=tmp_path / "a.sqlite3"))
    assert discord.http.Route.BASE == "https://discord.com/api/v10"
    assert str(discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY) == "wss://gateway.discord.gg/"


async def test_each_slice_loads_only_its_own_tables(tmp_path: Path) -> None:
    store = await SQLiteStore.open(tmp_path / "shared.sqlite3")
    try:
        mine = guild_on_shard(0, 2)
        theirs = guild_on_shard(1, 2)
        for n, guild in enumerate((mine, theirs, mine, theirs)):
            channel = 100 + n
            seated = seats([1, None, None, None])
            game_id = await create(store, channel, 1, seed=n, guild=guild, host_seat=seated[0])
            if n >= 2:  # two lobbies and two games in play
                await store.start_game(game_id, seated, NOW, NOW + 120)
        loaded = {}
        for shard in (0, 1):
            sessions = Tables(
                store,
                games.get,
                clock=lambda: NOW,
                owns=lambda guild_id, shard=shard: shard_of(guild_id, 2) == shard,
            )
            assert await sessions.load() == 2
            loaded[shard] = {t.channel_id for t in sessions.tables.values()}
            assert {t.guild_id for t in sessions.tables.values()} == {(mine, theirs)[shard]}
            playing = [t for t in sessions.tables.values() if t.status == "playing"]
            assert len(playing) == 1
            # Loaded lazily: the log is replayed (and the computers rebuilt) on first use.
            assert playing[0]._state is None and not playing[0].players
            assert playing[0].state is not None and playing[0].state.deal == 1
            assert sorted(playing[0].players) == [1, 2, 3]
            await sessions.close()
            await sessions.scheduler.close()
        assert loaded[0] == {100, 102}
        assert loaded[1] == {101, 103}
    finally:
        await store.close()
