"""Crash recovery of the real bot process: SIGKILL at random moments, 429s, gateway drops,
and a click while the bot is down (see :mod:`tests.loopback.crash`; the long run with 100
kills is ``bench/crash.py``).

Request bodies are not checked against the OpenAPI description here (``validate=False``:
it triples the time a game takes, and ``test_loopback`` checks the same bodies); everything
else a clean run needs is checked: no unknown route, no unanswered click but those lost with
a killed process, no error in any process's log.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot import games, ids
from tests.loopback.crash import (
    MODES,
    CrashConfig,
    CrashReport,
    Told,
    TurnExpect,
    run_crash,
    verify_database,
)
from tests.loopback.driver import LoopbackDiscord
from tests.loopback.fake_discord import UPDATE_MESSAGE
from tests.support.highcard.ui import UI as HIGHCARD_UI


@pytest.fixture
async def discord() -> AsyncIterator[LoopbackDiscord]:
    async with LoopbackDiscord.start(action_timeout=10.0, validate=False) as running:
        yield running


def assert_recovered(report: CrashReport, *, games: int) -> None:
    """Every told move logged once for its decision, nothing duplicated, every game finished
    with the replay's scores, the file intact, the leaderboard counting each game once."""
    db = report.db
    assert report.problems == [], report.tally()
    assert db.games_finished == games, report.tally()
    assert report.told > 0 and db.told_found_once == report.told, report.tally()
    assert db.duplicates == 0 and db.unpressed == 0, report.tally()
    assert db.replay_mismatches == 0, report.tally()
    assert db.integrity == "ok", report.tally()
    assert db.leaderboard_ok, report.tally()
    assert report.unexpected_unanswered == [], report.tally()
    # Every member's hand message was kept current (no member had to re-open a stale hand).
    assert report.stale_hands == 0, report.tally()


async def test_ten_kills_over_two_games_lose_and_duplicate_no_move(
    discord: LoopbackDiscord, tmp_path: Path
) -> None:
    config = CrashConfig(
        games=2,
        kills=10,
        seed=11,
        cover_modes=True,  # each kind of kill twice
        stagger=6,  # the second game starts six tricks later: its deals end at other times
        start_options={"pictures": "off", "seating": "random"},  # pictures: half the time
    )
    report = await run_crash(discord, tmp_path, config)
    assert_recovered(report, games=2)
    assert len(report.kills) == 10
    assert {k.trigger for k in report.kills} == set(MODES), report.tally()
    assert len(report.restart_seconds) == 10


async def test_429s_and_gateway_drops_lose_no_click_and_no_move(
    discord: LoopbackDiscord, tmp_path: Path
) -> None:
    # With the default options: pictures go out as multipart bodies, under 429s too.
    config = CrashConfig(games=1, kills=0, seed=5, share_429=0.25, gateway_drops=3)
    report = await run_crash(discord, tmp_path, config)
    assert_recovered(report, games=1)
    assert report.lost_clicks == [] and report.clicks_while_down == []
    assert discord.server.unanswered() == []
    assert report.injected_429 > 100, report.tally()
    assert report.gateway_drops == 3 and report.resumes >= 3, report.tally()


async def test_a_click_while_the_bot_is_down_is_lost_and_every_later_click_is_answered(
    discord: LoopbackDiscord, tmp_path: Path
) -> None:
    config = CrashConfig(
        games=1,
        kills=1,
        seed=3,
        modes={"requests": 1.0},
        clicks_while_down=1,
        start_options={"pictures": "off"},
    )
    report = await run_crash(discord, tmp_path, config)
    assert_recovered(report, games=1)
    assert len(report.kills) == 1 and len(report.clicks_while_down) == 1, report.tally()
    [kill] = report.kills
    [down] = report.clicks_while_down
    server = discord.server
    # That click reached no process (the dead one's session ends when the next identifies),
    # so it was never answered — as on Discord, “This interaction failed” for that one.
    assert not server.interactions[down].responded
    unanswered = {i.id for i in server.unanswered()}
    assert unanswered == {down, *report.lost_clicks}, report.tally()
    later = [i for i in server.interactions.values() if (i.sent_at or 0) > kill.ready_at]
    assert len(later) > 20 and all(i.responded for i in later), report.tally()
    # The member pressed the same old button again after the restart, and it worked.
    again = [i for i in later if i.data == server.interactions[down].data]
    assert again and again[0].responded, report.tally()


async def test_kills_during_a_second_game_lose_and_duplicate_no_move(
    discord: LoopbackDiscord, tmp_path: Path
) -> None:
    """High card (the tests' second game) in its own process, killed with SIGKILL at random
    moments — with a click on its way, between the members' clicks, right after a table
    starts; after each restart
    the members carry on from the messages they have. The database check is the harness's
    own, for any game: every move a member was told of logged once for its decision, none
    duplicated, none unpressed, every game finished with the replay's scores, the file
    intact, the leaderboard and ratings counting each game once."""
    rng = random.Random(7)
    guild = discord.create_guild("High Card Club")
    alice, bob = guild.add_member("alice"), guild.add_member("bob")
    launcher = "tests.support.highcard.run_bot"
    told: list[Told] = []
    attempted: dict[tuple[Any, ...], set[str]] = {}
    finished: list[tuple[int, int, list[int]]] = []
    kills = lost = 0
    process = discord.bot_process(tmp_path, module=launcher)
    await process.__aenter__()

    async def kill_and_restart() -> None:
        nonlocal process, kills
        process.kill()
        assert await process.wait() == -9
        kills += 1
        process = discord.bot_process(tmp_path, module=launcher)
        await process.__aenter__()

    try:
        for _ in range(3):
            lobby = await alice.slash(guild.channel, "highcard start", computers="none")
            assert lobby.message is not None
            await bob.click(lobby, label="Join")
            started = await alice.click(lobby, label="Start")
            assert started.callback_type == UPDATE_MESSAGE
            game_id = int(lobby.message.custom_ids(kind="join")[0].split(":")[1])
            if rng.random() < 0.5:
                await kill_and_restart()  # right after the start was committed
            for _trick in range(3):
                for seat, member in enumerate((alice, bob)):
                    hand = await member.click(
                        guild.channel.message(lobby.message.id), label="My hand"
                    )
                    assert hand.message is not None
                    card = hand.message.custom_ids(kind="play")[0]
                    control = ids.parse(card)
                    assert isinstance(control, ids.Control) and control.seat == seat
                    expect = TurnExpect(seat, f"{seat}:{control.payload[1:]}", control.turn)
                    attempted.setdefault((game_id, *expect.key), set()).add(expect.move)
                    if rng.random() < 0.2:
                        # Killed with the click on its way: it may be lost or committed
                        # unanswered; the member presses the same old button again.
                        pressing = asyncio.ensure_future(
                            member.click(hand.message, custom_id=card, timeout=2.0)
                        )
                        await asyncio.sleep(0)  # a yield, no wall time: the click is sent
                        await kill_and_restart()
                        with contextlib.suppress(TimeoutError):
                            await pressing
                        lost += 1
                        again = await member.click(hand.message, custom_id=card)
                        assert again.callback_type == UPDATE_MESSAGE, "answered on her hand"
                        continue
                    reply = await member.click(hand.message, custom_id=card)
                    assert reply.callback_type == UPDATE_MESSAGE and reply.message is not None
                    told.append(Told(game_id, expect, reply.interaction.id))  # type: ignore[arg-type]
                    if rng.random() < 0.3:
                        await kill_and_restart()  # the move answered, its effects on their way
            finished.append((game_id, guild.id, [alice.id, bob.id]))
        await discord.settle()
    finally:
        await process.__aexit__(None, None, None)
    assert kills >= 3, "the seed kills the bot several times"
    with games.registered(HIGHCARD_UI):  # this process reads the file with the game's rules
        db = await verify_database(process.database, finished, told, attempted)  # type: ignore[arg-type]
    assert db.problems == [], db.problems
    assert lost >= 1, "the seed kills the bot with a click on its way"
    assert db.games_finished == 3 and db.told_found_once == len(told) == 18 - lost
    assert db.member_moves_logged == 18, "each decision once, lost clicks' included"
    assert db.duplicates == 0 and db.unpressed == 0 and db.replay_mismatches == 0
    assert db.integrity == "ok" and db.leaderboard_ok
