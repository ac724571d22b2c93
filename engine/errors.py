"""The engine's errors. ``str(error)`` is always a sentence a player may read.

Errors are split by cause, as python-chess splits ``InvalidMoveError`` from
``IllegalMoveError``: input that cannot be understood at all, versus a well-formed
action that the rules forbid at this moment.

Every error also carries a machine-readable ``reason`` (a short kebab-case word the game
documents, e.g. ``not-in-hand``) and the ``params`` that sentence was written from, so a
front end can say the same thing in its own words and languages without working out again
why the engine refused.
"""

from __future__ import annotations

from typing import Any


class EngineError(Exception):
    """Base class of every error the engine raises on bad input."""

    default_reason = "refused"

    def __init__(self, message: str = "", *, reason: str | None = None, **params: Any) -> None:
        super().__init__(message)
        self.reason: str = reason or self.default_reason
        self.params: dict[str, Any] = params


class ParseError(EngineError, ValueError):
    """Text that is not a card, an action or a move; names the offending text."""

    default_reason = "parse"

    def __init__(
        self, message: str, token: str, *, reason: str | None = None, **params: Any
    ) -> None:
        super().__init__(message, reason=reason, token=token, **params)
        self.token = token


class IllegalActionError(EngineError):
    """A well-formed action that the rules do not allow now; the state is unchanged."""

    default_reason = "illegal"


class NotYourTurnError(IllegalActionError):
    """The seat has nothing to decide at this moment."""

    default_reason = "not-your-turn"


class GameOverError(IllegalActionError):
    """The game has ended; no further action is possible."""

    default_reason = "game-over"


class InvalidActionError(EngineError, ValueError):
    """Something that is not an action of this game at all (wrong type, shape or seat)."""

    default_reason = "invalid"


class OptionsError(EngineError, ValueError):
    """A game option with a value the game does not offer."""

    default_reason = "options"
