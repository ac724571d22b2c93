"""Shard slices: two bot processes, one shard each, sharing one SQLite database (WAL).

Games run to the end in both processes at once; each process touches only the games of
its own shard's servers (its log names no other game), both write their results to the
same database file, and ``/leaderboard`` in each server shows exactly what the database
holds for it, whichever process runs it, also after the two processes swap nothing but a
restart.
"""

from __future__ import annotations

import asyncio
import re
import sqlite3
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from tests.loopback.driver import BotProcess, GuildHandle, LoopbackDiscord, MemberActor, MessageView
from tests.loopback.test_loopback import assert_clean, make_a_move, open_started_table
from tests.support.postgres import fetch

GAME_LINE = re.compile(r"game (\d+):")


@pytest.fixture
async def discord() -> AsyncIterator[LoopbackDiscord]:
    async with LoopbackDiscord.start(action_timeout=10.0) as running:
        yield running


async def play_to_the_end(discord: LoopbackDiscord, guild: GuildHandle, member: MemberActor) -> int:
    """Open a table with three computers and play every decision of ``member``; return
    how many clicks it took."""
    table = await open_started_table(discord, guild, member)
    reply = await member.click(table, label="My hand")
    assert reply.message is not None
    hand = reply.message
    clicks = 0
    while "The game is over." not in hand.text:
        reply = await make_a_move(member, hand)
        assert reply.message is not None
        hand = reply.message
        clicks += 1
        assert clicks < 400, hand.text
    return clicks


def results_by_guild(database: Path) -> dict[int, list[tuple[int, int]]]:
    """Return ``(user_id, score)`` of the members' results, by server, from the file."""
    with sqlite3.connect(database) as db:
        rows = db.execute(
            "SELECT guild_id, user_id, score FROM results WHERE user_id IS NOT NULL"
        ).fetchall()
        assert db.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    found: dict[int, list[tuple[int, int]]] = {}
    for guild_id, user_id, score in rows:
        found.setdefault(guild_id, []).append((user_id, score))
    return found


def games_named(log: str) -> set[int]:
    return {int(n) for n in GAME_LINE.findall(log)}


async def test_two_shard_slices_share_one_database(
    discord: LoopbackDiscord, tmp_path: Path
) -> None:
    database = tmp_path / "shared.sqlite3"
    guilds = [discord.create_guild(f"Shard {n}", shard=n, shard_count=2) for n in range(2)]
    members = [guild.add_member(f"member {n}") for n, guild in enumerate(guilds)]
    slices = [
        discord.bot_process(tmp_path / f"p{n}", database=database, shard_count=2, shard_ids=[n])
        for n in range(2)
    ]
    async with slices[0], slices[1]:
        clicks = await asyncio.gather(
            *(play_to_the_end(discord, g, m) for g, m in zip(guilds, members, strict=True))
        )
        assert all(c >= 13 * 4 for c in clicks)  # every trick of four deals
        await discord.settle()

        # Each process ran one game and named no other.
        games = [games_named(p.log()) for p in slices]
        assert all(len(g) == 1 for g in games), games
        assert not games[0] & games[1]

        # Both results are in the one file, each under its own server.
        stored = results_by_guild(database)
        assert sorted(stored) == sorted(g.id for g in guilds)
        for guild, member in zip(guilds, members, strict=True):
            assert [user for user, _ in stored[guild.id]] == [member.id]

        # /leaderboard in each server shows what the database holds for it.
        for guild, member in zip(guilds, members, strict=True):
            shown = await member.slash(guild.channel, "leaderboard")
            assert shown.ephemeral
            (score,) = [s for _, s in stored[guild.id]]
            assert f"<@{member.id}> — {score} pts · 1 game" in shown.text, shown.text
            other = members[1 - guilds.index(guild)]
            assert f"<@{other.id}>" not in shown.text
    assert_clean(discord, *slices)

    # The slices swapped: each process now loads the other shard, from the same file, and
    # its leaderboard agrees with what the other process showed.
    swapped = [
        discord.bot_process(tmp_path / f"q{n}", database=database, shard_count=2, shard_ids=[1 - n])
        for n in range(2)
    ]
    async with swapped[0], swapped[1]:
        for guild, member in zip(guilds, members, strict=True):
            shown = await member.slash(guild.channel, "leaderboard")
            (score,) = [s for _, s in results_by_guild(database)[guild.id]]
            assert f"<@{member.id}> — {score} pts · 1 game" in shown.text, shown.text
        await discord.settle()
    assert_clean(discord, *swapped)


async def test_slices_sharing_only_a_postgresql_url_survive_a_kill_of_one(
    discord: LoopbackDiscord, tmp_path: Path, pg_url: str
) -> None:
    """Two slices that share nothing but the database URL (separate working directories, as
    separate hosts would have): whole games in both at once; one slice is killed with
    SIGKILL mid-game while the other plays its game to the end; the killed slice, started
    again from a new directory, loads its table from PostgreSQL and finishes it from the
    old hand's buttons. Every result is stored once, under its own server."""
    guilds = [discord.create_guild(f"Shard {n}", shard=n, shard_count=2) for n in range(2)]
    members = [guild.add_member(f"member {n}") for n, guild in enumerate(guilds)]

    def slice_of(n: int, where: str) -> BotProcess:
        return discord.bot_process(tmp_path / where, database=pg_url, shard_count=2, shard_ids=[n])

    first, other = slice_of(0, "host-a"), slice_of(1, "host-b")
    async with first, other:
        pairs = list(zip(guilds, members, strict=True))
        tables = [await open_started_table(discord, g, m) for g, m in pairs]
        hands = []
        for table, member in zip(tables, members, strict=True):
            reply = await member.click(table, label="My hand")
            assert reply.message is not None
            hands.append(reply.message)
        for _ in range(3):  # a few moves at both tables
            hands = [
                (await make_a_move(m, h)).message or h for m, h in zip(members, hands, strict=True)
            ]
        await discord.settle()
        first.kill()
        assert await first.wait() == -9
        # The other slice plays on, to the end of its game, while the first is down.
        assert await play_on(members[1], hands[1]) >= 13 * 4 - 3
        restarted = slice_of(0, "host-c")  # a fresh directory: only the URL is shared
        async with restarted:
            assert "loaded 1 live table(s)" in restarted.log()
            # The old hand's buttons work in the new process.
            again = await make_a_move(members[0], hands[0])
            assert again.message is not None and "⚠️" not in again.message.text, again.text
            await play_on(members[0], again.message)
            # The last move is answered before the bot shows and logs the game's end: let
            # it get there before this slice is stopped (a loaded machine could stop it in
            # between, and its log would not name the game).
            await discord.wait_until(
                lambda: ": finished" in restarted.log(), what="the end of the restarted game"
            )
            await discord.settle()
            # Each slice's /leaderboard shows what the shared database holds for its server.
            for slice_, guild, member in ((restarted, *pairs[0]), (other, *pairs[1])):
                ((score,),) = fetch(
                    pg_url,
                    "SELECT score FROM results WHERE guild_id = ? AND user_id = ?",
                    (guild.id, member.id),
                )
                shown = await member.slash(guild.channel, "leaderboard")
                assert f"<@{member.id}> — {score} pts · 1 game" in shown.text, shown.text
                assert slice_.errors() == []
        games = [games_named(p.log()) for p in (first, other, restarted)]
        assert games[0] == games[2] and len(games[1]) == 1 and not games[0] & games[1]
    assert_clean(discord, first, other, restarted)

    # Both games are finished in the one database, each result once, under its server.
    rows = fetch(pg_url, "SELECT guild_id, user_id, score FROM results WHERE user_id IS NOT NULL")
    assert sorted((g, u) for g, u, _ in rows) == sorted(
        (g.id, m.id) for g, m in zip(guilds, members, strict=True)
    )
    statuses = fetch(pg_url, "SELECT status FROM games ORDER BY id")
    assert statuses == [("finished",), ("finished",)]


async def play_on(member: MemberActor, hand: MessageView) -> int:
    """Play every decision of ``member`` from ``hand`` to the end; return the clicks."""
    clicks = 0
    while "The game is over." not in hand.text:
        reply = await make_a_move(member, hand)
        assert reply.message is not None
        hand = reply.message
        clicks += 1
        assert clicks < 400, hand.text
    return clicks
