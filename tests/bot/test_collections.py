"""The bot process keeps full garbage collections short (``bot.app._Collections``): what is
alive once the tables are loaded and at READY, and what survives each full collection,
leaves the collector's reach, and every two minutes it is handed back so that garbage in
reference cycles is freed too."""

from __future__ import annotations

import gc

import pytest

from bot import app


def test_survivors_are_frozen_and_handed_back_every_two_minutes(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    clock = [1_000.0]
    monkeypatch.setattr(app.time, "monotonic", lambda: clock[0])
    assert gc.get_freeze_count() == 0  # no bot in the tests owns its process
    policy = app._Collections()
    thresholds = gc.get_threshold()
    try:
        policy.after_full_collection()  # not started (a bot embedded in tests): nothing
        assert gc.get_freeze_count() == 0

        policy.start()  # the tables loaded: everything alive now is frozen
        loaded = gc.get_freeze_count()
        assert loaded > 1_000
        assert gc.get_threshold()[0] == app._YOUNG_THRESHOLD  # the young die young
        gateway_cache = [[n] for n in range(2_000)]
        policy.start()  # at READY: what was made since joins them, without a collection
        at_start = gc.get_freeze_count()
        assert at_start >= loaded + len(gateway_cache)

        made_since = [[n] for n in range(5_000)]
        clock[0] += 60
        policy.after_full_collection()  # the survivors of a full collection join them
        assert gc.get_freeze_count() >= at_start + len(made_since)

        clock[0] += app._FULL_SCAN_SECONDS
        policy.after_full_collection()  # two minutes on: handed back for one full walk
        assert gc.get_freeze_count() == 0
        clock[0] += 1
        policy.after_full_collection()  # and frozen again after it
        assert gc.get_freeze_count() >= len(made_since)
    finally:
        gc.unfreeze()
        gc.set_threshold(*thresholds)
