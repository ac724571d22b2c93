"""``python -m bot`` refuses unusable settings with one line on stderr and exit code 2.

Each case runs the real command in a subprocess, in an empty working directory, with no
DISCORD_TOKEN, PARLOUR_* or DUPE_* variables from the machine running the tests. None of them gets
as far as connecting to Discord.
"""

from __future__ import annotations

import logging
import os
import sqlite3
import subprocess
import sys
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from bot.__main__ import PAYLOAD_LOGGERS, configure_logging

TOKEN = "MTIzNDU2Nzg5MDEyMzQ1Njc4.GaBcDe.abcdefghijklmnopqrstuvwxyz012345"


def _environment(**extra: str) -> dict[str, str]:
    env = {
        name: value
        for name, value in os.environ.items()
        if not name.upper().startswith(("PARLOUR_", "DUPE_"))
        and name.upper() not in ("DISCORD_TOKEN", "TOKEN")
    }
    env.update(extra)
    return env


# Each case: prepare(tmp dir) -> (arguments, environment), and what stderr must say.
Case = Callable[[Path], tuple[list[str], dict[str, str]]]


def _config(text: str, **env: str) -> Case:
    def prepare(tmp: Path) -> tuple[list[str], dict[str, str]]:
        (tmp / "dupe.toml").write_text(text, encoding="utf-8")
        return ["--config", "dupe.toml"], _environment(**env)

    return prepare


def _raw_config(data: bytes, **env: str) -> Case:
    def prepare(tmp: Path) -> tuple[list[str], dict[str, str]]:
        (tmp / "dupe.toml").write_bytes(data)
        return ["--config", "dupe.toml"], _environment(**env)

    return prepare


def _database(make: Callable[[Path], None]) -> Case:
    def prepare(tmp: Path) -> tuple[list[str], dict[str, str]]:
        make(tmp)
        return [], _environment(
            DISCORD_TOKEN=TOKEN, PARLOUR_DATABASE=str(tmp / "db" / "dupe.sqlite3")
        )

    return prepare


def _corrupt(tmp: Path) -> None:
    (tmp / "db").mkdir()
    (tmp / "db" / "dupe.sqlite3").write_bytes(b"this is not an SQLite database\n" * 200)


def _newer(tmp: Path) -> None:
    (tmp / "db").mkdir()
    with sqlite3.connect(tmp / "db" / "dupe.sqlite3") as db:
        db.execute("PRAGMA user_version = 999")


def _in_cwd(text: str) -> Case:
    def prepare(tmp: Path) -> tuple[list[str], dict[str, str]]:
        (tmp / "config.toml").write_text(text, encoding="utf-8")
        return [], _environment(DISCORD_TOKEN=TOKEN)

    return prepare


CASES: dict[str, tuple[Case, str]] = {
    "no token": (lambda tmp: ([], _environment()), "No Discord token"),
    "malformed token": (lambda tmp: ([], _environment(DISCORD_TOKEN="abc")), "malformed"),
    "empty token": (lambda tmp: ([], _environment(DISCORD_TOKEN=" ")), "token"),
    "missing config": (
        lambda tmp: (["--config", "absent.toml"], _environment(DISCORD_TOKEN=TOKEN)),
        "does not exist",
    ),
    "config is a directory": (
        lambda tmp: (["--config", str(tmp)], _environment(DISCORD_TOKEN=TOKEN)),
        "is a directory",
    ),
    "unreadable config": (
        lambda tmp: (
            ["--config", str(Path(sys.executable) / "config.toml")],
            _environment(DISCORD_TOKEN=TOKEN),
        ),
        "cannot be read",
    ),
    "invalid TOML": (_config("turn_seconds = = 3\n", DISCORD_TOKEN=TOKEN), "not valid TOML"),
    "not UTF-8": (_raw_config(b"turn_seconds = 30 # \xff\n", DISCORD_TOKEN=TOKEN), "UTF-8"),
    "unknown key": (_config("colour = 'green'\n", DISCORD_TOKEN=TOKEN), "unknown key “colour”"),
    "bad value in the file": (
        _config("turn_seconds = 5\n", DISCORD_TOKEN=TOKEN),
        "bad value for “turn_seconds”",
    ),
    "bad value in the environment": (
        lambda tmp: ([], _environment(DISCORD_TOKEN=TOKEN, PARLOUR_COMPUTER_LEVEL="genius")),
        "PARLOUR_COMPUTER_LEVEL",
    ),
    "malformed token in the file": (_config("token = 'x.y.z'\n"), "malformed"),
    "config.toml in the working directory": (_in_cwd("turn_secs = 1\n"), "config.toml"),
    "database folder missing": (_database(lambda tmp: None), "does not exist"),
    "database is a directory": (
        _database(lambda tmp: (tmp / "db" / "dupe.sqlite3").mkdir(parents=True)),
        "is a directory",
    ),
    "database corrupt": (_database(_corrupt), "damaged or not a database"),
    "database from a newer version": (_database(_newer), "newer version"),
}


Run = tuple[Path, subprocess.CompletedProcess[str]]


def _run(name: str, root: Path) -> tuple[str, Run]:
    tmp = root / name.replace(" ", "-")
    tmp.mkdir()
    args, env = CASES[name][0](tmp)
    done = subprocess.run(
        [sys.executable, "-m", "bot", *args],
        cwd=tmp,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    return name, (tmp, done)


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Run]:
    """Run every case once, side by side (each is a fresh interpreter)."""
    root = tmp_path_factory.mktemp("main")
    with ThreadPoolExecutor(max_workers=8) as pool:
        return dict(pool.map(lambda name: _run(name, root), CASES))


@pytest.mark.parametrize("name", list(CASES))
def test_unusable_settings_stop_with_one_line(runs: dict[str, Run], name: str) -> None:
    _tmp, done = runs[name]
    lines = done.stderr.splitlines()
    assert done.returncode == 2, done.stderr
    assert len(lines) == 1, done.stderr
    assert lines[0].startswith("error: ")
    assert lines[0].endswith("."), lines[0]
    assert CASES[name][1] in lines[0], lines[0]
    assert "Traceback" not in done.stderr and done.stdout == ""
    assert TOKEN not in done.stderr


def test_settings_are_checked_before_the_database_is_created(runs: dict[str, Run]) -> None:
    for name in ("no token", "malformed token", "bad value in the environment"):
        tmp, done = runs[name]
        assert done.returncode == 2
        assert not (tmp / "dupe.sqlite3").exists(), name


def test_a_refused_database_is_left_as_it_was(runs: dict[str, Run]) -> None:
    tmp, _done = runs["database corrupt"]
    assert (tmp / "db" / "dupe.sqlite3").read_bytes() == b"this is not an SQLite database\n" * 200
    tmp, _done = runs["database folder missing"]
    assert not (tmp / "db").exists()


def test_debug_logging_keeps_payload_loggers_at_info() -> None:
    saved = {name: logging.getLogger(name).level for name in (*PAYLOAD_LOGGERS, "")}
    handlers = list(logging.getLogger().handlers)
    try:
        configure_logging("DEBUG")
        for name in PAYLOAD_LOGGERS:
            assert not logging.getLogger(name).isEnabledFor(logging.DEBUG), name
            assert logging.getLogger(name).isEnabledFor(logging.INFO), name
        assert logging.getLogger("discord.gateway").getEffectiveLevel() == logging.INFO
        configure_logging("WARNING")
        assert not logging.getLogger("aiosqlite").isEnabledFor(logging.INFO)
    finally:
        for name, level in saved.items():
            logging.getLogger(name).setLevel(level)
        logging.getLogger().handlers[:] = handlers


def test_discord_py_parses_with_orjson() -> None:
    """orjson is installed with the bot, and discord.py then parses every gateway event
    and HTTP answer with it instead of the standard json module."""
    import discord.utils

    assert discord.utils.HAS_ORJSON
    assert discord.utils._from_json('{"a": [1]}') == {"a": [1]}
