"""Dupe (David Parlett), exactly as ``docs/rules/dupe.md`` decides it.

``rules`` holds the game (:class:`DupeState`, its actions, views and scoring), ``players``
the computer players, ``terminal`` the text table and ``game`` the ``engine.game.Game``
the bot and the shells use (:data:`GAME`). Every public name is importable from here.
"""

from __future__ import annotations

from engine.dupe.game import GAME, DupeGame
from engine.dupe.rules import (
    DEALS,
    NORTH,
    SEAT_LETTERS,
    SEAT_NAMES,
    SEAT_SUITS,
    SEATS,
    TRICKS,
    Action,
    DealResult,
    Distribute,
    DupeOptions,
    DupeState,
    DupeView,
    HandScore,
    Move,
    Phase,
    Play,
    TrickRecord,
    new_game,
    parse_action,
    play,
    replay,
    score_hand,
    seat_of_suit,
    trick_taker,
)

__all__ = [
    "DEALS",
    "GAME",
    "NORTH",
    "SEATS",
    "SEAT_LETTERS",
    "SEAT_NAMES",
    "SEAT_SUITS",
    "TRICKS",
    "Action",
    "DealResult",
    "Distribute",
    "DupeGame",
    "DupeOptions",
    "DupeState",
    "DupeView",
    "HandScore",
    "Move",
    "Phase",
    "Play",
    "TrickRecord",
    "new_game",
    "parse_action",
    "play",
    "replay",
    "score_hand",
    "seat_of_suit",
    "trick_taker",
]
