"""Dukes Up! — a two-player game of runs, sets, dukes and castles — exactly as
``docs/rules/dukes_up.md`` decides it.

``layout`` holds the cards' game values, runs and sets and the exact layout search, ``actions``
the notation, ``options`` :class:`DukesUpOptions`, ``rules`` the match (:class:`DukesUpState`,
views, refusals), ``players`` the computer players, ``terminal`` the text table and ``game``
the ``engine.game.Game`` the bot and the shells use (:data:`GAME`). Every name the rules
file's binding API section lists is importable from here.
"""

from __future__ import annotations

from engine.cards import parse_card
from engine.dukes_up.actions import SEAT_LETTERS, SEAT_NAMES, Action, Kind, Move, parse_action
from engine.dukes_up.game import GAME, DukesUpGame
from engine.dukes_up.layout import can_layout, find_layout, is_valid_layout
from engine.dukes_up.options import DukesUpOptions
from engine.dukes_up.rules import (
    Board,
    DukesUpState,
    DukesUpView,
    Phase,
    Proposal,
    Refusal,
    RoundResult,
    TurnSummary,
    new_game,
    replay,
)

__all__ = [
    "GAME",
    "SEAT_LETTERS",
    "SEAT_NAMES",
    "Action",
    "Board",
    "DukesUpGame",
    "DukesUpOptions",
    "DukesUpState",
    "DukesUpView",
    "Kind",
    "Move",
    "Phase",
    "Proposal",
    "Refusal",
    "RoundResult",
    "TurnSummary",
    "can_layout",
    "find_layout",
    "is_valid_layout",
    "new_game",
    "parse_action",
    "parse_card",
    "replay",
]
