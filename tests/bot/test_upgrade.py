"""A bot upgraded in place: the database a Dupe-only bot wrote (schema 4,
``tests/data/store-v4.sqlite``) is migrated when the new bot opens it, and its live tables go
on through the game-agnostic core — options stored the old way included."""

from __future__ import annotations

import shutil
from pathlib import Path

from bot import games
from bot.commands import compose_defaults
from bot.scheduler import Scheduler
from bot.store import SQLiteStore
from bot.tables import TableOptions, Tables, engine_options, game_fields
from engine.dupe import DupeOptions, DupeState
from tests.bot.helpers import make_bot

V4 = Path(__file__).parents[1] / "data" / "store-v4.sqlite"
NOW = 1_760_000_000.0
ALICE, DAVE = 101, 104


async def test_the_live_game_of_a_schema_4_database_plays_on(tmp_path: Path) -> None:
    path = tmp_path / "bot.sqlite3"
    shutil.copyfile(V4, path)
    store = await SQLiteStore.open(path)
    scheduler = Scheduler(lambda: NOW)
    try:
        tables = Tables(store, games.get, clock=lambda: NOW, scheduler=scheduler)
        assert await tables.load() == 2  # game 3 playing, game 4 in its lobby
        table = tables.table(3)
        assert table.game == "dupe" and table.status == "playing"
        assert table.options.game == {"memory": "strict"}, "the old top-level option"
        state = table.state
        assert isinstance(state, DupeState) and state.deal == 2
        assert sorted(table.players) == [2, 3], "the computers rebuilt"
        assert table.owed == ["deal1"], "the post the old process owed"

        seat = table.humans_to_act()[0]
        member = table.seats[seat].user_id
        assert member in (ALICE, DAVE)
        before = state.move_count
        action = state.legal_actions(seat)[0]
        outcome = await tables.act(3, member, seat, table.turn, action)
        assert outcome.moves[0].seat == seat and table.state.move_count > before
        record = await store.game(3)
        assert record is not None and len(record.moves) == table.state.move_count

        # Another table's options, written the old way, read as that game's options.
        finished = await store.game(2)
        assert finished is not None
        ui = games.get(finished.game)
        options = TableOptions.from_json(finished.options, game_fields(ui))
        assert engine_options(ui, options) == DupeOptions(memory="open")
    finally:
        await tables.close()
        await scheduler.close()
        await store.close()


async def test_a_servers_old_defaults_still_apply(tmp_path: Path) -> None:
    path = tmp_path / "bot.sqlite3"
    shutil.copyfile(V4, path)
    store = await SQLiteStore.open(path)
    try:
        server = await store.defaults(500, "dupe")
        composed = compose_defaults(make_bot(path), games.get("dupe"), server)
        assert composed["game"] == {"memory": "open"} and composed["turn_seconds"] == 60
    finally:
        await store.close()
