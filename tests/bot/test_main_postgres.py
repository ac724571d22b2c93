"""``python -m bot`` on a PostgreSQL database it cannot use: one sentence on stderr, exit code
2, and never the password. Each case runs ``bot.__main__.main`` in this process with only
``DISCORD_TOKEN`` and ``PARLOUR_DATABASE`` set, in an empty working directory."""

from __future__ import annotations

import os
import socket
from collections.abc import Callable, Iterator
from pathlib import Path

import asyncpg
import pytest

import bot.store.postgres as postgres_store
from bot.__main__ import main
from tests.support.postgres import PASSWORD, Cluster, run_sync

TOKEN = "MTIzNDU2Nzg5MDEyMzQ1Njc4.GaBcDe.abcdefghijklmnopqrstuvwxyz012345"
SECRET = "s3cret-not-to-print"


@pytest.fixture
def silent_port() -> Iterator[int]:
    """Return a port that takes TCP connections and never answers (a server that hangs, or
    a firewall that swallows packets)."""
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen(8)
        yield int(listener.getsockname()[1])


def _closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])  # nothing listens once it is closed


def _newer(cluster: Cluster, _port: int) -> str:
    name = cluster.database()

    async def bump() -> None:
        conn = await asyncpg.connect(cluster.url(name))
        await conn.execute("UPDATE schema_version SET version = 999")
        await conn.close()

    run_sync(bump())
    return cluster.url(name)


# Each case: the database URL (given the cluster and a silent port), and what stderr says.
CASES: dict[str, tuple[Callable[[Cluster, int], str], str]] = {
    "no host in the URL": (
        lambda c, _: f"postgresql://bot:{SECRET}@/dupe",
        "names no server",
    ),
    "no database in the URL": (
        lambda c, _: f"postgresql://bot:{SECRET}@db.example:5432/",
        "names no database",
    ),
    "an unknown scheme": (
        lambda c, _: f"mysql://bot:{SECRET}@db.example/dupe",
        "is not a database this bot can use",
    ),
    "a port that is not a number": (
        lambda c, _: f"postgresql://bot:{SECRET}@db.example:54x/dupe",
        "port",
    ),
    "a wrong password": (
        lambda c, _: c.url("postgres", password=SECRET),
        "refused the password of user “postgres”",
    ),
    "nobody listening": (
        lambda c, _: f"postgresql://postgres:{SECRET}@127.0.0.1:{_closed_port()}/dupe",
        "cannot be reached",
    ),
    "a server that never answers": (
        lambda c, port: f"postgresql://postgres:{SECRET}@127.0.0.1:{port}/dupe",
        "did not answer within 0.5 s",
    ),
    "a database that does not exist": (
        lambda c, _: c.url("no_such_database"),
        "The database “no_such_database” does not exist",
    ),
    "a database of a newer version": (_newer, "newer version (schema 999"),
}


@pytest.mark.parametrize("name", list(CASES))
def test_an_unusable_postgresql_database_stops_the_bot_with_one_line(
    name: str,
    postgres: Cluster,
    silent_port: int,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    make_url, expected = CASES[name]
    url = make_url(postgres, silent_port)
    monkeypatch.chdir(tmp_path)
    for variable in list(os.environ):
        if (
            variable.upper().startswith(("PARLOUR_", "DUPE_"))
            or variable.upper() == "DISCORD_TOKEN"
        ):
            monkeypatch.delenv(variable)
    monkeypatch.setenv("DISCORD_TOKEN", TOKEN)
    monkeypatch.setenv("PARLOUR_DATABASE", url)
    monkeypatch.setattr(postgres_store, "CONNECT_TIMEOUT", 0.5)

    assert main([]) == 2
    out, err = capsys.readouterr()
    lines = err.splitlines()
    assert out == "" and len(lines) == 1, err
    assert lines[0].startswith("error: ") and lines[0].endswith("."), lines[0]
    assert expected in lines[0], lines[0]
    assert SECRET not in err and PASSWORD not in err
    assert "Traceback" not in err
