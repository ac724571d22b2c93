"""Doppelkopf: both presets of ``docs/rules/doppelkopf.md`` (tournament and house), 4 or
5 players, computer players, a terminal table. The names of the rules file's binding API are
exported here."""

from engine.doppelkopf.game import GAME
from engine.doppelkopf.rules import (
    Action,
    DoppelkopfOptions,
    DoppelkopfState,
    GameResult,
    Move,
    PlayedGame,
    new_game,
    parse_action,
    replay,
)

__all__ = [
    "GAME",
    "Action",
    "DoppelkopfOptions",
    "DoppelkopfState",
    "GameResult",
    "Move",
    "PlayedGame",
    "new_game",
    "parse_action",
    "replay",
]
