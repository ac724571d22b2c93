"""The bot as its commands see it: what ``bot.commands``, ``bot.community`` and a game's
own commands (``GameUI.subcommands``) use of it. ``bot.app.Bot`` is one; the commands
import this instead of the bot, which imports them."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from discord import app_commands

    from bot.config import Settings
    from bot.controller import Controller
    from bot.matches import Matches
    from bot.store import Store

__all__ = ["Host"]


class Host(Protocol):
    """What the commands need from the bot: its settings, store, tables and matches, and
    its command tree (``/help`` lists it)."""

    settings: Settings
    store: Store
    controller: Controller
    matches: Matches

    @property
    def tree(self) -> app_commands.CommandTree[Any]:
        """Return the bot's slash commands."""
        ...
