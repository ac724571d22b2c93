"""The whist expert's one adapter to endplay's double-dummy solver (DDS).

endplay is optional: the engine itself imports nothing outside the standard library, and
this module imports endplay only when :func:`load_solver` is called (a player is made).

It uses endplay's private binding ``endplay._dds`` (DDS's own ``deal`` and
``futureTricks`` structures and ``SolveBoard``), not its public ``endplay.dds.solve_board``:
the position goes in as DDS's rows of held ranks with the trick in progress, and the answer
comes back as DDS's scores per card (equal cards as a bit mask), with no ``Deal`` or
``Card`` objects of endplay's between. Measured with six cards a hand (300 positions, CPU
per solve, alternately in one process): 475–520 µs through the binding, 680–800 µs through
``solve_board`` from a PBN deal — the expert solves up to 40 deals a decision. endplay is
pinned below its next minor version (``pyproject.toml``); ``tests/engine/test_whist_dds.py``
checks every name used here and fails naming endplay's version and the name that changed.

The binding is loaded on its own, without endplay's package: ``endplay/__init__.py`` imports
its dealer, and with it matplotlib — 0.6 s of CPU (measured: 0.61–0.65 s for
``import endplay._dds``, 0.03 s for the binding alone), which every bot start paid to learn
that whist gives hints, and every first whist expert. The binding (``endplay/_dds``) is
ctypes over DDS's library and imports nothing of endplay's; it is registered under its own
name, so an ``import endplay`` later uses the same module.
"""

from __future__ import annotations

import importlib.util
import os
import sys
import threading
from collections.abc import Sequence
from typing import Any

from engine.cards import Card, Rank, Suit

__all__ = ["load_solver", "solve_position"]

_LOCK = threading.Lock()  # DDS's thread slot 0 serves one search at a time
_LOADING = threading.Lock()  # the binding is loaded once, whichever thread asks first
_BINDING = "endplay._dds"


def load_solver() -> Any:
    """Return endplay's DDS binding, loading the library (seconds, the first time).

    Raises ``ImportError`` (or ``OSError`` for a library that cannot be loaded) without
    endplay."""
    with _LOADING:
        if _BINDING in sys.modules:
            loaded = sys.modules[_BINDING]
            if loaded is None:  # blocked, as an import would be
                raise ImportError(f"import of {_BINDING} halted; None in sys.modules")
            return loaded
        return _load_binding()


def _load_binding() -> Any:
    """Load endplay's ``_dds`` package alone (see the module) and register it."""
    package = importlib.util.find_spec("endplay")
    if package is None or not package.submodule_search_locations:
        raise ImportError("endplay is not installed", name="endplay")
    folder = os.path.join(next(iter(package.submodule_search_locations)), "_dds")
    spec = importlib.util.spec_from_file_location(
        _BINDING, os.path.join(folder, "__init__.py"), submodule_search_locations=[folder]
    )
    if spec is None or spec.loader is None:
        raise ImportError(f"endplay has no {_BINDING}", name=_BINDING)
    module = importlib.util.module_from_spec(spec)
    sys.modules[_BINDING] = module
    try:
        spec.loader.exec_module(module)
    except BaseException:
        del sys.modules[_BINDING]
        raise
    return module


def _denom(suit: Suit) -> int:
    """Return DDS's number for ``suit`` (spades 0, hearts 1, diamonds 2, clubs 3)."""
    return 3 - int(suit)


def solve_position(
    hands: Sequence[Sequence[Card]],
    trick: Sequence[tuple[int, Card]],
    to_play: int,
    trump: Suit,
) -> dict[Card, int]:
    """Return, for each card the hand ``to_play`` may play, the tricks its side takes from
    here (the trick in progress included) with best play by all four hands: ``hands`` are
    N E S W as held now, ``trick`` the ``(seat, card)`` pairs played to the trick in
    progress."""
    dds = load_solver()
    deal = dds.deal()
    deal.trump = _denom(trump)
    deal.first = trick[0][0] if trick else to_play
    for i, (_, card) in enumerate(trick):
        deal.currentTrickSuit[i] = _denom(card.suit)
        deal.currentTrickRank[i] = int(card.rank)
    for seat, hand in enumerate(hands):
        row = deal.remainCards[seat]
        for card in hand:
            row[_denom(card.suit)] |= 1 << int(card.rank)
    future = dds.futureTricks()
    with _LOCK:
        dds.SolveBoard(deal, 0, 3, 1, future, 0)
    result: dict[Card, int] = {}
    for i in range(future.cards):
        score = future.score[i]
        if score < 0:
            continue
        suit = Suit(3 - future.suit[i])
        held = (1 << future.rank[i]) | future.equals[i]
        for rank in Rank:
            if held & (1 << int(rank)):
                result[Card.of(rank, suit)] = score
    return result
