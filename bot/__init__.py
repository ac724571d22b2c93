"""The Discord bot. ``create_bot(settings)`` builds it; ``python -m bot`` runs it."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from bot.app import Bot
    from bot.config import Settings

__all__ = ["create_bot"]


def create_bot(settings: Settings) -> Bot:
    """Return the bot built from ``settings``, not started."""
    from bot.app import create_bot as _create

    return _create(settings)


def __getattr__(name: str) -> Any:
    if name == "config":
        import bot.config

        return bot.config
    raise AttributeError(name)
