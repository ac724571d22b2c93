"""Fixtures for driving the bot through simcord: a running world on a fresh database."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import pytest
import simcord
from simcord import interactions as simcord_interactions

from bot.app import Bot
from bot.store import Store, open_store
from tests.bot.driver import World
from tests.bot.helpers import make_bot
from tests.bot.whole_game import LOGGERS, Recorder

SEED = 20240611


@pytest.fixture(params=["sqlite", "postgresql", "postgresql-callers-loop"])
async def store(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Store]:
    """Return an open store on a fresh database of each backend: an SQLite file, and a
    database of the session's PostgreSQL cluster, its pool in a thread of its own (as a bot
    embedded in another program has it) and on the test's loop (as ``python -m bot`` has
    it); closed afterwards."""
    if request.param == "sqlite":
        opened = await open_store(tmp_path / "dupe.sqlite3")
    else:
        own_thread = request.param == "postgresql"
        opened = await open_store(request.getfixturevalue("pg_url"), own_thread=own_thread)
    try:
        yield opened
    finally:
        await opened.close()


@pytest.fixture
def db(tmp_path: Path) -> Path:
    """Return the path of a fresh database file."""
    return tmp_path / "dupe.sqlite3"


@pytest.fixture
def dupe_bot(db: Path) -> Bot:
    """Return a bot (not started) on the fresh database."""
    return make_bot(db)


@pytest.fixture
def locales(monkeypatch: pytest.MonkeyPatch) -> dict[int, str]:
    """Return the members' Discord locales by user id (``en-US`` unless set).

    simcord writes ``en-US`` as every interaction's ``locale`` and ``guild_locale``; this
    gives each interaction its member's locale and its server's ``preferred_locale``, as
    Discord does."""
    chosen: dict[int, str] = {}
    build = simcord_interactions.base_payload

    def base_payload(backend: Any, **fields: Any) -> tuple[Any, dict[str, Any]]:
        record, payload = build(backend, **fields)
        payload["locale"] = chosen.get(fields["user_id"], "en-US")
        if fields.get("guild_id") is not None:
            guild = backend.get_guild(fields["guild_id"])
            payload["guild_locale"] = guild.preferred_locale
        return record, payload

    monkeypatch.setattr(simcord_interactions, "base_payload", base_payload)
    return chosen


@pytest.fixture
async def env(
    dupe_bot: Bot, monkeypatch: pytest.MonkeyPatch, locales: dict[int, str]
) -> AsyncIterator[simcord.Env]:
    """Return a running simcord environment around the bot; on teardown, fail on any error
    the bot raised and close every bot's database."""
    # simcord settles each action by polling every `idle` seconds (real time) while a
    # callback is queued; a table's turn timer is a parked task that never completes, so
    # each such poll costs the whole interval. A short interval only makes tests faster.
    monkeypatch.setitem(simcord.Env._settle_internal.__kwdefaults__, "idle", 0.001)
    # simcord gives up on a bot that has not settled after `settle_timeout` seconds of wall
    # time (5 by default): sized for a quiet machine, it fails a whist table whose expert
    # solves in the worker thread while other work keeps the cores busy. A minute still
    # turns a bot that never settles into a failure.
    environment = simcord.Env(dupe_bot, settle_timeout=60.0)
    await environment.start()
    try:
        yield environment
    finally:
        await environment.shutdown()
        bots = {id(environment.bot): environment.bot, id(dupe_bot): dupe_bot}
        for each in bots.values():
            if hasattr(each, "store"):
                await each.store.close()
        environment.raise_errors()


@pytest.fixture
async def world(
    env: simcord.Env, dupe_bot: Bot, db: Path, caplog: pytest.LogCaptureFixture
) -> AsyncIterator[World]:
    """Return a world: one server with a “dupe” channel and the bot, game seeds pinned.

    Fails the test if the bot logged an error (the error funnel answers unexpected
    exceptions politely, so they would otherwise go unnoticed)."""
    caplog.set_level(logging.WARNING, logger="bot")
    guild = env.create_guild("Dupe Club")
    channel = guild.create_text_channel("dupe")
    here = World(env=env, db=db, bot=dupe_bot, guild=guild, channel=channel)
    here.pin_seed(SEED)
    yield here
    for old in here.old_bots:
        if old is not dupe_bot:
            await old.store.close()
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR and r.name.startswith("bot")]
    assert not errors, [r.getMessage() for r in errors]
    # Every interaction of the test was answered: nobody saw “This interaction failed”.
    unanswered = [
        i
        for i in env.backend.interactions.values()
        if not i.responded and int(i.id) not in here.left_unanswered
    ]
    assert not unanswered, unanswered


@pytest.fixture
def recorder(
    env: simcord.Env, dupe_bot: Bot, caplog: pytest.LogCaptureFixture
) -> Iterator[Recorder]:
    """Record every request and every DEBUG log line of the bot, engine and discord.py."""
    for name in LOGGERS:
        caplog.set_level(logging.DEBUG, logger=name)
    with Recorder(env, dupe_bot) as recording:
        yield recording
