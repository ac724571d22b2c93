"""A throw-away PostgreSQL cluster for the tests: one per session, a fresh database per test.

``initdb`` makes the cluster in a temporary folder (fsync off: nothing in it must survive a
power cut), ``pg_ctl`` starts it on a free port of 127.0.0.1, and the session's end stops it
and deletes the folder. Connections over TCP need a password (SCRAM), so a test can also
offer a wrong one; the admin's connections for creating databases use the same URL.

PostgreSQL refuses to run as root, so when the tests run as root the cluster runs as the
``postgres`` user if there is one, else as ``nobody`` (``runuser``), in a folder it owns.
Missing binaries fail the tests that need them with how to install them: never a skip.
"""

from __future__ import annotations

import asyncio
import itertools
import os
import pwd
import re
import shutil
import socket
import subprocess
import tempfile
import threading
from collections.abc import Coroutine, Iterable
from pathlib import Path
from typing import Any, TypeVar

import asyncpg

__all__ = ["Cluster", "PostgresMissing", "fetch", "find_binaries", "run_sync"]

_T = TypeVar("_T")
PASSWORD = "dupe-test-secret-3f9c"
USER = "postgres"
DEBIAN_BINARIES = Path("/usr/lib/postgresql/15/bin")
MISSING = (
    "PostgreSQL 15 is needed for the PostgreSQL tests, and {what} was not found on PATH or in "
    f"{DEBIAN_BINARIES}: install it (Debian and Ubuntu: apt install postgresql-15) and run "
    "the tests again."
)


_loop: asyncio.AbstractEventLoop | None = None
_readers: dict[str, Any] = {}  # URL -> an open connection on ``_loop``


def run_sync(coroutine: Coroutine[Any, Any, _T]) -> _T:
    """Run ``coroutine`` to its end on the helpers' own event loop, in a thread of its own:
    callable from synchronous code and from inside a test's running loop alike."""
    global _loop
    if _loop is None:
        _loop = asyncio.new_event_loop()
        threading.Thread(target=_loop.run_forever, name="pg-helpers", daemon=True).start()
    return asyncio.run_coroutine_threadsafe(coroutine, _loop).result(timeout=120)


def fetch(url: str, sql: str, params: Iterable[Any] = ()) -> list[tuple[Any, ...]]:
    """Run a read on the database at ``url`` with a connection of its own, as an operator
    would; ``?`` placeholders, as for ``sqlite3``."""
    numbers = itertools.count(1)
    numbered = re.sub(r"\?", lambda _: f"${next(numbers)}", sql)

    async def read() -> list[tuple[Any, ...]]:
        for attempt in range(2):
            conn = _readers.get(url)
            if conn is None or conn.is_closed():
                conn = _readers[url] = await asyncpg.connect(url)
            try:
                return [tuple(row) for row in await conn.fetch(numbered, *params)]
            except (asyncpg.ConnectionDoesNotExistError, asyncpg.InterfaceError):
                if attempt:  # the server restarted under a connection kept from before
                    raise
                _readers.pop(url, None)
        raise AssertionError("unreachable")

    return run_sync(read())


def _forget(database: str) -> None:
    """Close the readers of a database about to be dropped."""

    async def close() -> None:
        for url in [u for u in _readers if u.endswith(f"/{database}")]:
            await _readers.pop(url).close()

    run_sync(close())


class PostgresMissing(RuntimeError):
    """The PostgreSQL binaries are not installed; ``str()`` says how to install them."""


def find_binaries() -> dict[str, Path]:
    """Return the paths of ``initdb`` and ``pg_ctl`` (PATH first, then Debian's folder)."""
    found = {}
    for name in ("initdb", "pg_ctl"):
        on_path = shutil.which(name)
        path = Path(on_path) if on_path else DEBIAN_BINARIES / name
        if not path.exists():
            raise PostgresMissing(MISSING.format(what=name))
        found[name] = path
    return found


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _run_as() -> str | None:
    """The user the cluster runs as: ``None`` (this one) unless this is root."""
    if os.geteuid() != 0:
        return None
    for name in ("postgres", "nobody"):
        try:
            pwd.getpwnam(name)
        except KeyError:
            continue
        return name
    raise PostgresMissing(
        "The tests run as root, which PostgreSQL refuses, and there is no postgres or nobody "
        "user to run it as: create one (useradd postgres) and run the tests again."
    )


class Cluster:
    """One running PostgreSQL cluster: URLs for its databases, fresh databases, stop and
    start (for the tests of a server that goes away)."""

    def __init__(self) -> None:
        self.binaries = find_binaries()
        self.user = _run_as()
        self.root = Path(tempfile.mkdtemp(prefix="dupe-pg-"))
        self.data = self.root / "data"
        self.port = _free_port()
        self._names = itertools.count()
        self.template: str | None = None
        try:
            self._create()
        except BaseException:
            shutil.rmtree(self.root, ignore_errors=True)
            raise

    def _create(self) -> None:
        password_file = self.root / "password"
        password_file.write_text(PASSWORD + "\n")
        if self.user is not None:
            entry = pwd.getpwnam(self.user)
            os.chown(self.root, entry.pw_uid, entry.pw_gid)
            os.chown(password_file, entry.pw_uid, entry.pw_gid)
        self._command(
            "initdb",
            "-D",
            str(self.data),
            "-U",
            USER,
            "--auth-local=trust",
            "--auth-host=scram-sha-256",
            f"--pwfile={password_file}",
            "-E",
            "UTF8",
            "--locale=C",
            "--no-sync",
        )
        self.start()

    def _command(self, tool: str, *args: str) -> None:
        command = [str(self.binaries[tool]), *args]
        if self.user is not None:
            command = ["runuser", "-u", self.user, "--", *command]
        done = subprocess.run(command, capture_output=True, text=True, timeout=120, check=False)
        if done.returncode != 0:
            log = self.root / "server.log"
            tail = log.read_text(errors="replace")[-2000:] if log.exists() else ""
            raise RuntimeError(f"{tool} {args[-1]} failed: {done.stderr.strip()}\n{tail}")

    def start(self) -> None:
        """Start the server and wait until it takes connections."""
        options = (
            f"-k {self.root} -p {self.port} -c listen_addresses=127.0.0.1 -c fsync=off "
            "-c synchronous_commit=off -c full_page_writes=off -c max_connections=200"
        )
        self._command(
            "pg_ctl", "-D", str(self.data), "-l", str(self.root / "server.log"), "-o", options,
            "-w", "-t", "60", "start",
        )  # fmt: skip

    def stop(self) -> None:
        """Stop the server at once (``-m fast``: its clients are disconnected) and wait
        until it is gone."""
        self._command("pg_ctl", "-D", str(self.data), "-m", "fast", "-w", "-t", "60", "stop")

    def is_running(self) -> bool:
        return (self.data / "postmaster.pid").exists()

    def close(self) -> None:
        """Stop the server and delete the cluster."""
        try:
            if self.is_running():
                self.stop()
        finally:
            shutil.rmtree(self.root, ignore_errors=True)

    def url(self, database: str, *, password: str = PASSWORD) -> str:
        """Return the URL of ``database`` on this cluster."""
        return f"postgresql://{USER}:{password}@127.0.0.1:{self.port}/{database}"

    def admin(self, sql: str) -> None:
        """Run ``sql`` on the ``postgres`` database, outside the tests' event loops."""

        async def run() -> None:
            conn = await asyncpg.connect(self.url("postgres"))
            try:
                await conn.execute(sql)
            finally:
                await conn.close()

        run_sync(run())

    def database(self, *, migrated: bool = True) -> str:
        """Create a new database and return its name: a copy of a migrated one (the store's
        tables, empty), or with ``migrated=False`` one without any table."""
        name = f"t_{next(self._names)}"
        if not migrated:
            self.admin(f"CREATE DATABASE {name} TEMPLATE template0")
            return name
        if self.template is None:
            self.template = self._migrated_template()
        self.admin(f"CREATE DATABASE {name} TEMPLATE {self.template}")
        return name

    def drop(self, name: str) -> None:
        """Drop the database, closing whatever is still connected to it."""
        _forget(name)
        self.admin(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")

    def _migrated_template(self) -> str:
        from bot.store import PostgresStore

        self.admin("CREATE DATABASE t_template TEMPLATE template0")

        async def migrate() -> None:
            store = await PostgresStore.open(self.url("t_template"))
            await store.close()

        run_sync(migrate())
        return "t_template"
