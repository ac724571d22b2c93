"""A database the bot cannot write: refused at start in one sentence (exit 2, nothing else on
stderr); refusing writes mid-game: a clear private answer to each presser, nothing changed,
one log line when the episode begins and one when it ends, never a traceback per click.

The tests run as any user (root included, whom file modes do not stop), so the read-only
file is made the way SQLite itself sees one: opened with ``mode=ro``, or ``query_only``."""

from __future__ import annotations

import logging
import os
import random
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any, NamedTuple

import pytest
import simcord

from bot.store import SQLiteStore, StoreError, StoreUnreachableError
from tests.bot.driver import PLAY, Game, Hand, MoveRow, World, live_ids, private_text

TOKEN = "MTIzNDU2Nzg5MDEyMzQ1Njc4.GaBcDe.abcdefghijklmnopqrstuvwxyz012345"
UNWRITABLE = "The bot's database is not accepting changes right now"

# Runs ``python -m bot`` with SQLite opening files the given way, and aiosqlite's start
# reported: a file that cannot be used must be refused before aiosqlite's thread starts
# (a failure inside it is reported to an event loop that is closing: tracebacks at exit).
LAUNCHER = """
import sqlite3, sys
import aiosqlite
connect = sqlite3.connect
def read_only(database, *args, **kwargs):
    kwargs.pop("uri", None)
    return connect(f"file:{database}?mode=ro", *args, uri=True, **kwargs)
def unopenable(database, *args, **kwargs):
    raise sqlite3.OperationalError("unable to open database file")
sqlite3.connect = {"read-only": read_only, "unopenable": unopenable}[sys.argv[1]]
start = aiosqlite.connect
def started(*args, **kwargs):
    print("aiosqlite started", file=sys.stderr)
    return start(*args, **kwargs)
aiosqlite.connect = started
from bot.__main__ import main
raise SystemExit(main([]))
"""


def run_bot(tmp_path: Path, how: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.upper().startswith(("PARLOUR_", "DUPE_"))}
    env.update(DISCORD_TOKEN=TOKEN, PARLOUR_DATABASE=str(tmp_path / "dupe.sqlite3"))
    return subprocess.run(
        [sys.executable, "-c", LAUNCHER, how],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


async def test_a_read_only_database_is_refused_at_start(tmp_path: Path) -> None:
    store = await SQLiteStore.open(tmp_path / "dupe.sqlite3")  # a good database, then read-only
    await store.close()
    before = (tmp_path / "dupe.sqlite3").read_bytes()
    done = run_bot(tmp_path, "read-only")
    assert done.returncode == 2
    assert done.stderr.splitlines() == [
        f"error: The database {tmp_path / 'dupe.sqlite3'} is read-only: the bot must be able "
        "to write it, and its folder (for its -wal and -shm files)."
    ]
    assert (tmp_path / "dupe.sqlite3").read_bytes() == before


async def test_a_database_that_cannot_be_opened_gives_one_line_and_exit_2(
    tmp_path: Path,
) -> None:
    # As an unwritable folder does (the Docker bind-mount mistake).
    done = run_bot(tmp_path, "unopenable")
    assert done.returncode == 2
    assert done.stderr.splitlines() == [
        f"error: The database {tmp_path / 'dupe.sqlite3'} cannot be opened (unable to open "
        f"database file): the bot must be able to write the file and its folder {tmp_path}."
    ]


async def test_store_open_refuses_a_read_only_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "dupe.sqlite3"
    await (await SQLiteStore.open(path)).close()
    connect = sqlite3.connect

    def read_only(database: str, *args: object, **kwargs: object) -> sqlite3.Connection:
        kwargs.pop("uri", None)
        return connect(f"file:{database}?mode=ro", *args, uri=True, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(sqlite3, "connect", read_only)
    with pytest.raises(StoreError, match="is read-only"):
        await SQLiteStore.open(path)


class MidGame(NamedTuple):
    member: simcord.MemberActor
    game: Game
    hand: Hand
    moves: list[MoveRow]
    card: str


async def mid_game(world: World) -> MidGame:
    """Return alice's started table against three random computers (30 s turns), her hand,
    the move log so far and a card she may play."""
    alice = world.member("alice")
    game, _ = await Game.open(world, alice, turn_time=30, computers="random")
    await game.press(alice, "Start")
    hand = await game.open_hand(alice)
    moves = game.moves()
    return MidGame(alice, game, hand, moves, random.Random(3).choice(live_ids(hand, PLAY)))


async def test_refused_writes_mid_game_answer_each_presser_and_log_once(
    world: World, caplog: pytest.LogCaptureFixture
) -> None:
    alice, game, hand, moves, card = await mid_game(world)
    db = world.bot.store._db
    await db.execute("PRAGMA query_only = ON")  # SQLite refuses every write from now on
    caplog.clear()

    for _ in range(3):
        result = await alice.click(hand.message, custom_id=card)
        assert private_text(result).startswith(UNWRITABLE)
        assert game.moves() == moves
    # The turn timer runs out meanwhile: the stand-in's move cannot be saved either, and
    # is tried again every 10 s without a traceback.
    await world.env.advance_time(60)
    assert game.moves() == moves
    opened = await alice.slash(world.channel, "dupe start")
    assert private_text(opened)  # answered (the channel's table is still live)

    lines = [r for r in caplog.records if r.name.startswith("bot")]
    refused = [r for r in lines if "refuses writes" in r.getMessage()]
    assert len(refused) == 1 and refused[0].levelno == logging.ERROR
    assert not [r for r in lines if r.exc_info], [r.getMessage() for r in lines if r.exc_info]
    assert not [r for r in lines if r.levelno >= logging.ERROR and r not in refused]

    await db.execute("PRAGMA query_only = OFF")
    await world.env.advance_time(10)  # the stand-in's move is saved at its next try
    assert len(game.moves()) > len(moves)
    assert any("accepts writes again" in r.getMessage() for r in caplog.records)
    caplog.clear()  # the episode's one error line is what this test wanted


async def test_a_move_committed_whose_answer_was_lost_is_taken_from_the_log(
    world: World, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """A move's write went out and its connection broke before the answer came back: the
    member is told to try again, but the move was committed. Before the table's next move
    it reads its log again and takes that move: the same card pressed again is refused
    (already played), nothing is written twice, and the game goes on."""
    alice, game, hand, moves, card = await mid_game(world)
    store = world.bot.store
    append = store.append_moves
    lost: list[int] = []

    async def committed_then_lost(*args: Any, **kwargs: Any) -> None:
        await append(*args, **kwargs)
        if not lost:
            lost.append(1)
            raise StoreUnreachableError("The database server cannot be reached: lost.")

    monkeypatch.setattr(store, "append_moves", committed_then_lost)
    result = await alice.click(hand.message, custom_id=card)
    assert private_text(result).startswith(UNWRITABLE)
    committed = game.moves()
    assert len(committed) > len(moves) and committed[len(moves)].seat == 0

    again = await alice.click(hand.message, custom_id=card)  # the hand from before
    assert not private_text(again).startswith(UNWRITABLE)
    assert game.moves() == committed  # refused: nothing written twice
    assert any("had been committed" in r.getMessage() for r in caplog.records)

    await world.env.advance_time(60)  # the game goes on from the log: a stand-in plays
    after = game.moves()
    assert len(after) > len(committed)
    assert len({m.ply for m in after}) == len(after)
    assert [m.ply for m in after] == list(range(len(after)))
