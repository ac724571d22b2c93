"""Crash recovery of the real bot process: SIGKILL at random moments, 429s, gateway drops,
and a click while the bot is down (see :mod:`tests.loopback.crash`; the long run with 100
kills is ``bench/crash.py``).

Request bodies are not checked against the OpenAPI description here (``validate=False``:
it triples the time a game takes, and ``test_loopback`` checks the same bodies); everything
else a clean run needs is checked: no unknown route, no unanswered click but those lost with
a killed process, no error in any process's log.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from tests.loopback.crash import (
    DOPPELKOPF_MODES,
    DUKES_UP_MODES,
    HIGH_CARD_MODES,
    MODES,
    WHIST_MODES,
    CrashConfig,
    CrashReport,
    run_crash,
)
from tests.loopback.driver import LoopbackDiscord


@pytest.fixture
async def discord() -> AsyncIterator[LoopbackDiscord]:
    async with LoopbackDiscord.start(action_timeout=10.0, validate=False) as running:
        yield running


def assert_recovered(report: CrashReport, *, games: int, all_kills: bool = True) -> None:
    """Every told move logged once for its decision, nothing duplicated, every game finished
    with the replay's scores, the file intact, the leaderboard counting each game once.
    (``all_kills=False``: a kill planned after the last click is not a problem.)"""
    db = report.db
    problems = report.problems
    if not all_kills:
        problems = [p for p in problems if not p.startswith(f"only {len(report.kills)} of ")]
    assert problems == [], report.tally()
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
    config = CrashConfig(
        games=1, kills=0, seed=5, share_429=0.25, gateway_drops=3, drawing_process=False
    )
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
        drawing_process=False,  # drawn as deployed in the ten-kill run
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


async def test_kills_in_games_of_high_card_lose_and_duplicate_no_move(
    discord: LoopbackDiscord, tmp_path: Path
) -> None:
    """The same harness and checks for the tests' second game, in its own launcher: its
    kinds of kill (no distribution; the end-of-game kill during the write of the last card
    or after the final standings), its hands and moves read through its adapter."""
    config = CrashConfig(
        drawing_process=False,  # drawn as deployed in the ten-kill run
        game="highcard",
        games=3,
        kills=5,
        seed=9,
        cover_modes=True,
        start_options={"pictures": "off"},
    )
    report = await run_crash(discord, tmp_path, config)
    # A game of high card is six cards: how many clicks six kills leave before the games end
    # depends on timing, so the last kill or two may find no click left to come on.
    assert_recovered(report, games=3, all_kills=False)
    assert len(report.kills) >= 3, report.tally()
    assert {k.trigger for k in report.kills} <= set(HIGH_CARD_MODES), report.tally()
    # Each kill is followed by a restart, but one that lands as the last game ends.
    assert len(report.kills) - 1 <= len(report.restart_seconds) <= len(report.kills)


async def test_kills_in_doppelkopf_tables_lose_and_duplicate_no_move(
    discord: LoopbackDiscord, tmp_path: Path
) -> None:
    """The same harness over Doppelkopf (``python -m bot``): two tournament tables of four
    members and four games, kills of every kind the game has — during the write of a move,
    with a click in flight, after a run of requests, and at the end of a game (during the
    write of the card that ends it, or after its breakdown post)."""
    config = CrashConfig(
        drawing_process=False,  # drawn as deployed in the ten-kill run
        game="doppelkopf",
        games=2,
        kills=8,
        seed=14,
        cover_modes=True,  # each kind of kill twice
        stagger=20,  # the second table starts twenty moves later: its games end at other times
        start_options={"pictures": "off"},
    )
    report = await run_crash(discord, tmp_path, config)
    assert_recovered(report, games=2)
    assert len(report.kills) == 8
    assert {k.trigger for k in report.kills} == set(DOPPELKOPF_MODES), report.tally()
    assert len(report.restart_seconds) == 8
    # Each table's four breakdowns and its final standings were posted once each.
    posts = report.scoring_posts
    assert posts["duplicated"] == 0 and posts["tables_over"] == 2, report.tally()


async def test_kills_in_a_whist_rubber_lose_and_duplicate_no_move(
    discord: LoopbackDiscord, tmp_path: Path
) -> None:
    """The same harness over a whist table (a Humbug rubber of two members: keep or
    exchange, then 26 cards a deal, as many deals as the rubber takes): kills during the
    write of a move, with a click in flight, after a run of requests, and at the end of a
    deal (during the write of a trick-13 card, or after its summary). Each deal's summary
    and the final standings are posted once."""
    config = CrashConfig(
        drawing_process=False,  # drawn as deployed in the ten-kill run
        game="whist",
        games=1,
        kills=4,
        seed=3,
        cover_modes=True,  # each kind of kill once
        start_options={"pictures": "off"},
    )
    report = await run_crash(discord, tmp_path, config)
    # A rubber's length varies (two deals or more, each dealt from a seed the bot draws):
    # the last kills may find no click left.
    assert_recovered(report, games=1, all_kills=False)
    assert len(report.kills) >= 2, report.tally()
    assert {k.trigger for k in report.kills} <= set(WHIST_MODES), report.tally()
    posts = report.scoring_posts
    assert posts["expected"] >= 3 and posts["posted"] == posts["expected"], report.tally()
    assert posts["duplicated"] == 0 and posts["tables_over"] == 1, report.tally()


async def test_kills_in_dukes_up_matches_lose_and_duplicate_no_move_and_keep_the_working_copy(
    discord: LoopbackDiscord, tmp_path: Path
) -> None:
    """The same harness over Dukes Up! (two matches of two rounds of at most 50 turns, by
    two members each: setup selects, draws, new groups, additions, proposals, undo and
    reset, a revealed castle, every discard option, Finish): a kill of every kind — during
    the write of an action, with a click in flight, after a run of requests, in the middle
    of a choice of steps, and at a round's end (the write of Finish or of the turn limit's
    discard, or after the round's scoring). After each restart the first panel a mover is
    answered with shows the table (the working copy, mid-turn) and the hand of the replay
    of the logged moves."""
    config = CrashConfig(
        drawing_process=False,  # drawn as deployed in the ten-kill run
        game="dukes_up",
        games=2,
        kills=5,
        seed=8,
        cover_modes=True,  # each kind of kill once
        stagger=30,  # the second match starts thirty actions later (no pictures: it draws none)
    )
    report = await run_crash(discord, tmp_path, config)
    # A match's length varies (a capture or an exhaustion may end a round early): the last
    # kill may find no click left.
    assert_recovered(report, games=2, all_kills=False)
    assert len(report.kills) >= 4, report.tally()
    assert {k.trigger for k in report.kills} <= set(DUKES_UP_MODES), report.tally()
    checked = report.checks.get("movers' first panels after a restart", 0)
    assert checked >= 1, report.tally()
    assert report.checks.get("… showing the table and hand of the log's replay") == checked
    posts = report.scoring_posts
    assert posts["expected"] == 6 and posts["posted"] == 6, report.tally()
    assert posts["duplicated"] == 0 and posts["tables_over"] == 2, report.tally()


async def test_kills_on_postgresql_lose_and_duplicate_no_move(
    discord: LoopbackDiscord, tmp_path: Path, pg_url: str
) -> None:
    """The same kills with the bot on PostgreSQL: a ``db-write`` kill comes while the move's
    write is under way and uncommitted (seen in ``pg_stat_activity`` or ``pg_locks``), and
    the database is checked the same way (every told move once, the replay's scores, the
    leaderboard and ratings once per game, no constraint or index left invalid)."""
    config = CrashConfig(
        drawing_process=False,  # drawn as deployed in the ten-kill run
        games=1,
        kills=6,
        seed=21,
        cover_modes=True,  # every kind of kill, one of them twice
        database=pg_url,
        start_options={"pictures": "off"},
    )
    report = await run_crash(discord, tmp_path, config)
    assert_recovered(report, games=1)
    assert len(report.kills) == 6 and {k.trigger for k in report.kills} == set(MODES)
    writes = [k for k in report.kills if k.trigger == "db-write"]
    assert any(k.lock_held for k in writes), report.tally()
