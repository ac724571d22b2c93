"""What both backends share (:mod:`bot.store.sql`): one statement text serves both dialects,
and the methods written once are the ones both backends run."""

from __future__ import annotations

from bot.store import PostgresStore, SQLiteStore
from bot.store.sql import SQLStore, numbered


def test_placeholders_are_numbered_in_order_for_postgresql() -> None:
    assert numbered("UPDATE games SET warned = TRUE WHERE id = ?") == (
        "UPDATE games SET warned = TRUE WHERE id = $1"
    )
    assert numbered("SELECT 1 FROM t WHERE a = ? AND b IN (?, ?) LIMIT ?") == (
        "SELECT 1 FROM t WHERE a = $1 AND b IN ($2, $3) LIMIT $4"
    )
    assert numbered("SELECT COUNT(*) FROM games") == "SELECT COUNT(*) FROM games"


def test_each_shared_method_is_the_one_both_backends_run() -> None:
    shared = [
        name
        for name, value in vars(SQLStore).items()
        if callable(value) and not name.startswith("_")
    ]
    assert "leaderboard" in shared and "set_seats" in shared
    for backend in (SQLiteStore, PostgresStore):
        copied = [name for name in shared if name in vars(backend)]
        assert not copied, f"{backend.__name__} repeats {copied}"
