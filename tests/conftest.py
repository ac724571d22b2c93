"""Shared test configuration: the hypothesis profiles, and the end of the session.

``ci`` (the default) keeps the whole suite fast and deterministic; set
``HYPOTHESIS_PROFILE=thorough`` to run many more examples locally.
"""

from __future__ import annotations

import os

from hypothesis import settings

settings.register_profile("ci", max_examples=40, deadline=None, derandomize=True)
settings.register_profile("thorough", max_examples=500, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


def pytest_sessionfinish() -> None:
    """The bots the tests start are not closed (simcord's shutdown leaves them): stop their
    watch of garbage collections, or pytest's own collections at the end are reported."""
    from bot.app import _unwatch_collections

    _unwatch_collections()
