"""Building the bot: ``create_bot(settings)`` returns it built, not started."""

from __future__ import annotations

import contextlib
import gc
import logging
import time
from typing import Any

import discord
import yarl
from discord.ext import commands

from bot.config import Settings
from bot.dupe.buttons import DupeButton, LeaderboardButton, answer_unknown, is_ours
from bot.dupe.cog import DupeCog, HelpCog, LeaderboardCog
from bot.dupe.controller import DupeController
from bot.dupe.history import HistoryCog, ReplayButton, is_replay
from bot.errors import answer_error, too_late
from bot.i18n import Translator
from bot.scheduler import Scheduler
from bot.sessions import Sessions
from bot.store import Store

__all__ = ["DupeBot", "ShardedDupeBot", "create_bot", "shard_of"]

log = logging.getLogger(__name__)


def _utc_clock() -> float:
    return discord.utils.utcnow().timestamp()


_WAKE_EVENT = "dupe_scheduler_wake"
_GC_PAUSE_WARNING = 0.1  # seconds


def _watch_collections() -> None:
    """Log every full garbage collection that stops the bot for longer than 0.1 s: each
    one delays every click waiting at that moment."""
    if any(getattr(c, "_dupe", False) for c in gc.callbacks):
        return
    started: list[float] = []

    def callback(phase: str, info: dict[str, int]) -> None:
        if info.get("generation") != 2:
            return
        if phase == "start":
            started[:] = [time.perf_counter()]
        elif started:
            pause = time.perf_counter() - started[0]
            if pause > _GC_PAUSE_WARNING:
                log.warning(
                    "a full garbage collection stopped the bot for %.0f ms (%d objects freed)",
                    pause * 1000,
                    info.get("collected", 0),
                )

    callback._dupe = True  # type: ignore[attr-defined]
    gc.callbacks.append(callback)


class _Tree(discord.app_commands.CommandTree):
    async def interaction_check(self, interaction: discord.Interaction, /) -> bool:
        return not too_late(interaction)


class DupeBot(commands.Bot):
    """The bot: its store, live sessions and the Dupe controller exist after ``setup_hook``."""

    store: Store
    scheduler: Scheduler
    sessions: Sessions
    dupe: DupeController

    def __init__(self, settings: Settings, **options: Any) -> None:
        intents = discord.Intents.none()
        intents.guilds = True  # the only intent needed: no member list, no message content
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents,
            help_command=None,
            allowed_mentions=discord.AllowedMentions.none(),
            max_messages=None,  # the bot never reads old messages: keep no message cache
            tree_cls=_Tree,
            **options,
        )
        self.settings = settings

    def owns_guild(self, guild_id: int) -> bool:
        """Return whether this process runs the shard of that server (see ``shard_of``)."""
        settings = self.settings
        if settings.shard_count is None or settings.shard_ids is None:
            return True
        return shard_of(guild_id, settings.shard_count) in settings.shard_ids

    async def setup_hook(self) -> None:
        _watch_collections()
        settings = self.settings
        self.store = await Store.open(settings.database)
        self.scheduler = Scheduler(_utc_clock, wait=self._scheduler_wait, wake=self._scheduler_wake)
        self.sessions = Sessions(
            self.store,
            clock=_utc_clock,
            default_level=settings.computer_level,
            scheduler=self.scheduler,
            owns=self.owns_guild,
        )
        self.dupe = DupeController(self, self.sessions, edit_interval=settings.table_edit_seconds)
        loaded = await self.sessions.load()
        log.info("loaded %d live table(s) from %s", loaded, settings.database)
        self.dupe.start_delivering_owed()
        self.add_dynamic_items(DupeButton, LeaderboardButton, ReplayButton)
        await self.add_cog(DupeCog(self))
        await self.add_cog(LeaderboardCog(self))
        await self.add_cog(HistoryCog(self))
        await self.add_cog(HelpCog(self))
        self.tree.error(self._on_tree_error)
        await self.tree.set_translator(Translator())  # German command texts, before the sync
        if settings.dev_guild_id is not None:
            guild = discord.Object(id=settings.dev_guild_id)
            self.tree.copy_global_to(guild=guild)
            await self.tree.sync(guild=guild)
        else:
            await self.tree.sync()

    # The scheduler's runner waits as the client waits for an event (and is woken by
    # dispatching it), so whatever drives this client sees one recognisable wait.
    async def _scheduler_wait(self, timeout: float | None) -> None:
        with contextlib.suppress(TimeoutError):
            await self.wait_for(_WAKE_EVENT, timeout=timeout)

    def _scheduler_wake(self) -> None:
        self.dispatch(_WAKE_EVENT)

    async def _on_tree_error(
        self, interaction: discord.Interaction, error: discord.app_commands.AppCommandError
    ) -> None:
        await answer_error(interaction, error)

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        if interaction.type is not discord.InteractionType.component:
            return
        data: dict[str, object] = dict(interaction.data or {})
        custom_id = str(data.get("custom_id", ""))
        if not (is_ours(custom_id) or is_replay(custom_id)):
            await answer_unknown(interaction)

    async def close(self) -> None:
        if hasattr(self, "sessions"):
            await self.sessions.close()
        if hasattr(self, "scheduler"):
            await self.scheduler.close()
        if hasattr(self, "dupe"):
            await self.dupe.close()
        if hasattr(self, "store"):
            await self.store.close()
        await super().close()


class ShardedDupeBot(DupeBot, commands.AutoShardedBot):
    """The bot running several shards, or one slice of them (``shard_count``, ``shard_ids``):
    it loads and serves only the tables of its shards' servers."""


def shard_of(guild_id: int, shard_count: int) -> int:
    """Return the shard a server belongs to (Discord's rule: ``(guild_id >> 22) % count``)."""
    return (guild_id >> 22) % shard_count


def use_endpoints(settings: Settings) -> None:
    """Point discord.py at the configured HTTP API and gateway (Discord's by default).

    discord.py keeps both as class attributes, so they hold for the whole process."""
    discord.http.Route.BASE = settings.api_base_url
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(settings.gateway_url)


def create_bot(settings: Settings) -> DupeBot:
    """Return the bot built from ``settings`` (not started; ``setup_hook`` opens the store)."""
    use_endpoints(settings)
    if settings.shard_count is not None:
        return ShardedDupeBot(
            settings, shard_count=settings.shard_count, shard_ids=settings.shard_ids
        )
    return DupeBot(settings)
