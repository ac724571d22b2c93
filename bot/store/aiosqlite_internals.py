"""The SQLite store's one seam into aiosqlite's private names: everything else uses its
public API.

aiosqlite runs every call in its connection's thread, but its public API hands over one
statement at a time (``execute``, ``execute_fetchall``, …). The store instead runs each of
its methods whole in that thread, in one hop from the event loop, through aiosqlite's
private ``Connection._execute(fn, *args)`` with the plain ``sqlite3`` connection
(``Connection._conn``): a transaction is one hop instead of one per statement (BEGIN, each
write, COMMIT), and no lock on the loop is needed to keep transactions apart.

Measured (``bench/store_calls.py`` and ``bench/bot_simcord.py --games 20 --tricks 13``,
run alternately three times each on the same machine against a version of the store that
used only the public API, statement by statement under an ``asyncio.Lock``): a move's
``append_moves`` cost 35–59 µs of the process's CPU here against 158–263 µs with the public
API, and the bot's event-loop CPU per interaction (median) 0.36–0.42 ms against
0.39–0.53 ms — about half as much again of the bot's CPU per move.

aiosqlite is pinned below its next minor version (``pyproject.toml``);
``tests/bot/test_aiosqlite_internals.py`` checks both names against the installed aiosqlite
and fails naming its version and the name that changed.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from typing import Any, TypeVar

import aiosqlite

__all__ = ["run_in_thread"]

_T = TypeVar("_T")


async def run_in_thread(db: aiosqlite.Connection, fn: Callable[..., _T], *args: Any) -> _T:
    """Return ``fn(connection, *args)``, run in ``db``'s thread on its plain ``sqlite3``
    connection after every call queued before it (its exceptions are raised here)."""
    conn: sqlite3.Connection = db._conn
    result: _T = await db._execute(fn, conn, *args)  # type: ignore[no-untyped-call]
    return result
