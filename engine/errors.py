"""The engine's errors. ``str(error)`` is always a sentence a player may read.

Errors are split by cause, as python-chess splits ``InvalidMoveError`` from
``IllegalMoveError``: input that cannot be understood at all, versus a well-formed
action that the rules forbid at this moment.
"""

from __future__ import annotations


class EngineError(Exception):
    """Base class of every error the engine raises on bad input."""


class ParseError(EngineError, ValueError):
    """Text that is not a card, an action or a move; names the offending text."""

    def __init__(self, message: str, token: str) -> None:
        super().__init__(message)
        self.token = token


class IllegalActionError(EngineError):
    """A well-formed action that the rules do not allow now; the state is unchanged."""


class NotYourTurnError(IllegalActionError):
    """The seat has nothing to decide at this moment."""


class GameOverError(IllegalActionError):
    """The game has ended; no further action is possible."""


class InvalidActionError(EngineError, ValueError):
    """Something that is not an action of this game at all (wrong type, shape or seat)."""


class OptionsError(EngineError, ValueError):
    """A game option with a value the game does not offer."""
