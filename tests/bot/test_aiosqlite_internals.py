"""The SQLite store's seam into aiosqlite's private names
(:mod:`bot.store.aiosqlite_internals`): both names exist in the installed aiosqlite, and a
function handed over runs in the connection's thread on the plain ``sqlite3`` connection,
after the calls queued before it, its result and its exceptions coming back. A failure
names aiosqlite's version and the name that changed, so that lifting the pin
(``pyproject.toml``) is a deliberate step."""

from __future__ import annotations

import asyncio
import inspect
import sqlite3
import threading
from importlib.metadata import version

import aiosqlite
import pytest

from bot.store.aiosqlite_internals import run_in_thread


def changed(name: str, what: str) -> str:
    return (
        f"aiosqlite {version('aiosqlite')} changed Connection.{name}: {what}. "
        "bot/store/aiosqlite_internals.py relies on it: mend the seam there before lifting "
        "the aiosqlite pin in pyproject.toml."
    )


def test_the_connection_has_the_private_names_the_seam_uses() -> None:
    execute = getattr(aiosqlite.Connection, "_execute", None)
    assert inspect.iscoroutinefunction(execute), changed("_execute", "not a coroutine function")
    parameters = list(inspect.signature(execute).parameters.values())
    assert [p.name for p in parameters[:2]] == ["self", "fn"] and any(
        p.kind is inspect.Parameter.VAR_POSITIONAL for p in parameters
    ), changed("_execute", f"its signature is {inspect.signature(execute)}")
    assert isinstance(getattr(aiosqlite.Connection, "_conn", None), property), changed(
        "_conn", "not a property"
    )


async def test_a_function_runs_in_the_connections_thread_after_what_was_queued() -> None:
    async with aiosqlite.connect(":memory:", isolation_level=None) as db:
        await db.execute("CREATE TABLE t (x INTEGER)")
        queued = asyncio.ensure_future(db.execute("INSERT INTO t VALUES (1), (2)"))
        await asyncio.sleep(0)  # the insert is handed to the thread first

        def count(conn: sqlite3.Connection, plus: int) -> tuple[int, int, bool]:
            (rows,) = conn.execute("SELECT COUNT(*) FROM t").fetchone()
            return rows + plus, threading.get_ident(), isinstance(conn, sqlite3.Connection)

        counted, thread, plain = await run_in_thread(db, count, 10)
        await queued
        assert plain, changed("_conn", "not the plain sqlite3 connection")
        assert thread != threading.get_ident(), changed("_execute", "ran on the event loop")
        assert counted == 12, changed("_execute", "did not run after the calls queued before")

        def refuse(conn: sqlite3.Connection) -> None:
            conn.execute("INSERT INTO nowhere VALUES (1)")

        with pytest.raises(sqlite3.OperationalError, match="no such table"):
            await run_in_thread(db, refuse)
