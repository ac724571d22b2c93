"""Shared test configuration: the hypothesis profiles, the PostgreSQL cluster, and the end
of the session.

``ci`` (the default) keeps the whole suite fast and deterministic; set
``HYPOTHESIS_PROFILE=thorough`` to run many more examples locally.
"""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest
from hypothesis import settings

from tests.support.postgres import Cluster, PostgresMissing

settings.register_profile("ci", max_examples=40, deadline=None, derandomize=True)
settings.register_profile("thorough", max_examples=500, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


@pytest.fixture(scope="session")
def postgres() -> Iterator[Cluster]:
    """Return the session's PostgreSQL cluster (started by the first test that needs it,
    stopped and deleted at the end). Missing binaries fail the test with how to install
    them."""
    try:
        cluster = Cluster()
    except PostgresMissing as missing:
        pytest.fail(str(missing), pytrace=False)
    try:
        yield cluster
    finally:
        cluster.close()


@pytest.fixture
def pg_url(postgres: Cluster) -> Iterator[str]:
    """Return the URL of a fresh database with the store's tables (empty), dropped after the
    test."""
    name = postgres.database()
    try:
        yield postgres.url(name)
    finally:
        if postgres.is_running():
            postgres.drop(name)


@pytest.hookimpl(tryfirst=True)  # before xdist reads the groups
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Keep a module's tests on one worker (``pytest-xdist``'s ``loadgroup``) when they share
    module-scoped fixtures (a bot, a world of forged clicks): built once, in test order."""
    for item in items:
        module = item.module
        if module is not None and _shares_module_state(module):
            item.add_marker(pytest.mark.xdist_group(module.__name__))


def _shares_module_state(module: object) -> bool:
    for value in vars(module).values():
        marker = getattr(value, "_fixture_function_marker", None) or getattr(
            value, "_pytestfixturefunction", None
        )
        if marker is not None and getattr(marker, "scope", None) == "module":
            return True
    return False


def pytest_sessionfinish() -> None:
    """The bots the tests start are not closed (simcord's shutdown leaves them): stop their
    watch of garbage collections, or pytest's own collections at the end are reported."""
    from bot.app import _unwatch_collections

    _unwatch_collections()
