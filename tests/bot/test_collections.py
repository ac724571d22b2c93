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


def test_a_flood_of_clicks_holds_collections_back_for_a_while(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """As many clicks in flight as make a flood (``ANSWER_FIRST_BUSY``) hold collections
    back until it ebbs, for at most ``_FLOOD_PAUSE_SECONDS``; a flood that lasts has its
    collections back until it ebbs, and the next flood holds them back again."""
    clock = [1_000.0]
    monkeypatch.setattr(app.time, "monotonic", lambda: clock[0])
    flood = app.ANSWER_FIRST_BUSY
    policy = app._Collections()
    thresholds = gc.get_threshold()
    try:
        policy.flood(flood)  # not started (a bot embedded in tests): nothing
        assert gc.isenabled()
        policy.start()
        policy.flood(flood - 1)
        assert gc.isenabled()
        policy.flood(flood)  # a restart's first clicks, all at once
        assert not gc.isenabled()
        clock[0] += 1
        policy.flood(flood + 400)
        assert not gc.isenabled()
        policy.flood(flood - 1)  # handled: collections as before
        assert gc.isenabled()

        policy.flood(flood)  # an overload that lasts
        assert not gc.isenabled()
        clock[0] += app._FLOOD_PAUSE_SECONDS
        policy.flood(flood)
        assert gc.isenabled()  # its garbage must go
        clock[0] += 1
        policy.flood(flood)
        assert gc.isenabled()  # not held back again while it lasts
        policy.flood(0)
        policy.flood(flood)  # a new flood
        assert not gc.isenabled()
    finally:
        gc.enable()
        gc.unfreeze()
        gc.set_threshold(*thresholds)
