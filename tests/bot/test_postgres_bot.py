"""The bot on PostgreSQL: whole games, restarts and the outbox behave as on SQLite (the same
tests, run here with every bot on a fresh database of the session's cluster), and the
server going away under a running table costs the members nothing but a “try again”."""

from __future__ import annotations

import asyncio
import logging

import pytest

from tests.bot import test_outbox, test_restart
from tests.bot.driver import World, private_text
from tests.bot.test_unwritable import UNWRITABLE, mid_game
from tests.support.postgres import Cluster

# The SQLite tests of restarts and of the outbox, again on PostgreSQL (the ``db`` below).
test_restarts_in_the_lobby_mid_trick_and_mid_distribution = (
    test_restart.test_restarts_in_the_lobby_mid_trick_and_mid_distribution
)
test_posts_lost_with_the_process_are_sent_after_the_restart = (
    test_outbox.test_posts_lost_with_the_process_are_sent_after_the_restart
)


@pytest.fixture
def db(pg_url: str) -> str:
    """Every bot of this module runs on a fresh PostgreSQL database."""
    return pg_url


async def test_a_server_restart_mid_game_answers_each_presser_and_loses_nothing(
    world: World, postgres: Cluster, caplog: pytest.LogCaptureFixture
) -> None:
    alice, game, hand, moves, card = await mid_game(world)
    caplog.clear()

    await asyncio.to_thread(postgres.stop)
    try:
        for _ in range(3):
            result = await alice.click(hand.message, custom_id=card)
            assert private_text(result).startswith(UNWRITABLE)
        # The turn timer runs out meanwhile: the stand-in's move cannot be saved either,
        # and is tried again every 10 s without a traceback.
        await world.env.advance_time(60)
        status = await alice.slash(world.channel, "dupe status")
        assert private_text(status)  # answered from memory
    finally:
        await asyncio.to_thread(postgres.start)
    assert game.moves() == moves  # nothing of the refused moves was kept

    lines = [r for r in caplog.records if r.name.startswith("bot")]
    down = [r for r in lines if "cannot be reached" in r.getMessage()]
    assert len(down) == 1 and down[0].levelno == logging.ERROR
    assert not [r for r in lines if r.exc_info], [r.getMessage() for r in lines if r.exc_info]
    assert not [r for r in lines if r.levelno >= logging.ERROR and r not in down]
    assert not [r for r in caplog.records if "dupe-test-secret" in r.getMessage()]

    await world.env.advance_time(10)  # the pool connects again; the stand-in's move is saved
    assert len(game.moves()) > len(moves)
    assert any("accepts writes again" in r.getMessage() for r in caplog.records)
    caplog.clear()  # the episode's one error line is what this test wanted
