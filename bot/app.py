"""Building the bot: ``create_bot(settings)`` returns it built, not started."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import signal
import time
from typing import Any

import aiohttp
import discord

from bot import budget, buttons, details, discord_internals, games, ids, pictures, suits
from bot.commands import Translator, game_group
from bot.community import Community
from bot.config import Settings
from bot.controller import Controller
from bot.errors import ANSWER_FIRST_BUSY, answer_error, too_late
from bot.lateness import Lateness
from bot.matches import Matches
from bot.scheduler import Scheduler
from bot.store import ShardSlice, Store, open_store
from bot.tables import LobbyLimits

__all__ = ["Bot", "ShardedBot", "create_bot", "shard_of"]

log = logging.getLogger(__name__)


def _utc_clock() -> float:
    return discord.utils.utcnow().timestamp()


_WAKE_EVENT = "scheduler_wake"
_GC_PAUSE_WARNING = 0.1  # seconds
_FULL_SCAN_SECONDS = 120.0
_YOUNG_THRESHOLD = 50_000  # allocations between collections of the youngest generation
_FLOOD_PAUSE_SECONDS = 5.0  # the longest a flood of clicks holds collections back


class _Collections:
    """How the bot process keeps full garbage collections short.

    A full collection walks every object the collector tracks; at 1,000 live tables that is
    hundreds of thousands (engine states, the gateway's cache, kept interactions), and each
    walk stopped the bot for about half a second, dozens of times in five minutes, delaying
    every click waiting meanwhile. So once the bot process has loaded its tables, again at
    READY (:meth:`start`), and after every full collection, what is alive is moved out of
    the collector's reach (``gc.freeze``): the next full collection walks only what was made
    since. Reference counting still frees what dies later; only garbage in reference cycles
    among frozen objects stays (a click makes none: :func:`bot.discord_internals.release`,
    :class:`bot.game.SentComponents`; a slash command's interaction still is one), so every
    ``_FULL_SCAN_SECONDS`` the frozen objects are handed back (``gc.unfreeze``) and the next
    full collection walks everything once. And the youngest generation is collected every
    ``_YOUNG_THRESHOLD`` allocations instead of 700: what a click makes mostly dies young,
    before a collection promotes it towards the old generation. While the bot is flooded
    with clicks (:meth:`flood`), it does not collect at all."""

    def __init__(self) -> None:
        self.freezing = False
        self.last_full_scan = 0.0
        self.paused_at: float | None = None  # when a flood held collections back
        self.spent = False  # this flood held them back as long as it may

    def start(self) -> None:
        """Begin: freeze what the start-up made (the live tables, once loaded) without
        walking it — freezing is a constant-time move, and the start's few garbage cycles
        wait for the first full walk; called again (at READY), freeze what was made since
        (the gateway's cache, the tables replayed meanwhile)."""
        if self.freezing:
            gc.freeze()
            return
        self.freezing = True
        gc.enable()  # ``python -m bot`` starts without it (bot.__main__)
        _, middle, old = gc.get_threshold()
        gc.set_threshold(_YOUNG_THRESHOLD, middle, old)
        gc.freeze()
        self.last_full_scan = time.monotonic()
        log.info(
            "%d objects of the start-up moved out of the collector's reach", gc.get_freeze_count()
        )

    def flood(self, in_flight: int) -> None:
        """Hold collections back while the bot is flooded with clicks (as many in flight
        as ``bot.errors.ANSWER_FIRST_BUSY``: after a restart every member presses at once),
        for at most ``_FLOOD_PAUSE_SECONDS`` a flood. What a click makes dies by reference
        counting; what a collection walks meanwhile is the clicks under way and the tables
        replayed for them (7 collections, 50–70 ms of a restart's flood of 1,000 clicks),
        better walked once, after it."""
        if not self.freezing:
            return
        if in_flight < ANSWER_FIRST_BUSY:
            if self.paused_at is not None:
                gc.enable()
            self.paused_at, self.spent = None, False
        elif self.paused_at is None:
            if not self.spent:
                gc.disable()
                self.paused_at = time.monotonic()
        elif time.monotonic() - self.paused_at >= _FLOOD_PAUSE_SECONDS:
            gc.enable()  # a flood that lasts: the bot is overloaded, its garbage must go
            self.paused_at, self.spent = None, True

    def after_full_collection(self) -> None:
        if not self.freezing:
            return
        if time.monotonic() - self.last_full_scan >= _FULL_SCAN_SECONDS:
            self.last_full_scan = time.monotonic()
            gc.unfreeze()  # the next full collection walks everything once
        else:
            gc.freeze()


_collections = _Collections()


def _watch_collections() -> None:
    """Log every full garbage collection that stops the bot for longer than 0.1 s: each
    one delays every click waiting at that moment; and after each one, freeze what
    survived (once the process has started :class:`_Collections`)."""
    if any(getattr(c, "_watching_collections", False) for c in gc.callbacks):
        return
    started: list[float] = []

    def callback(phase: str, info: dict[str, int]) -> None:
        if info.get("generation") != 2:
            return
        if phase == "start":
            started[:] = [time.perf_counter()]
            return
        if started:
            pause = time.perf_counter() - started[0]
            if pause > _GC_PAUSE_WARNING:
                log.warning(
                    "a full garbage collection stopped the bot for %.0f ms (%d objects freed)",
                    pause * 1000,
                    info.get("collected", 0),
                )
        _collections.after_full_collection()

    callback._watching_collections = True  # type: ignore[attr-defined]
    gc.callbacks.append(callback)


def _unwatch_collections() -> None:
    """Stop watching collections (the bot is closed: they stop no bot)."""
    gc.callbacks[:] = [c for c in gc.callbacks if not getattr(c, "_watching_collections", False)]


class _Tree(discord.app_commands.CommandTree):
    async def interaction_check(self, interaction: discord.Interaction, /) -> bool:
        late = too_late(interaction)
        lateness: Lateness | None = getattr(interaction.client, "lateness", None)
        if lateness is not None:
            lateness.forget(interaction.id)  # a command's age is checked once, here
        return not late


_PRESSED_MESSAGE_KEYS = (
    "id",
    "channel_id",
    "guild_id",
    "type",
    "content",
    "flags",
    "author",
    "webhook_id",
    "application_id",
)
"""What discord.py is handed of the message a pressed button is on (see
``Bot._stamp_interactions``)."""

HTTP_CONNECTIONS = 100
"""Connections to Discord's HTTP API at most (discord.py's own default has no limit)."""


def http_connector() -> aiohttp.TCPConnector:
    """Return the connector of the bot's HTTP session: at most :data:`HTTP_CONNECTIONS`
    open at once, the rest kept alive and reused. Without a limit, a burst of clicks (every
    table answering after a restart) opens a connection per request under way: 500 tables,
    500 new connections, each a TLS handshake with Discord, where 100 carry the same burst."""
    return aiohttp.TCPConnector(limit=HTTP_CONNECTIONS)


class Bot(discord.Client):
    """The bot: its store, tables (``controller.tables``) and shared commands exist after
    ``setup_hook``; it hosts every game of ``bot.games``."""

    store: Store
    matches: Matches
    scheduler: Scheduler
    controller: Controller
    community: Community
    tree: _Tree
    handle_signals = False
    """Whether SIGTERM and SIGINT stop the bot cleanly (``python -m bot`` sets it; a bot
    embedded in another program, or in tests, leaves the signals to it)."""
    owns_process = False
    """Whether the bot is the process (``python -m bot`` sets it): then it also keeps full
    garbage collections short from its first READY on (:class:`_Collections`) and uses a
    PostgreSQL store's connections on its own loop; a bot embedded in another program
    leaves that program's memory alone and keeps them in a thread."""

    def __init__(self, settings: Settings, **options: Any) -> None:
        intents = discord.Intents.none()
        intents.guilds = True  # the only intent needed: no member list, no message content
        # A client, not discord.ext.commands' bot: every command is a slash command (the
        # bot reads no messages), and that framework's import is 20 ms of each start.
        super().__init__(
            intents=intents,
            allowed_mentions=discord.AllowedMentions.none(),
            max_messages=None,  # the bot never reads old messages: keep no message cache
            **options,
        )
        self.tree = _Tree(self)
        self.settings = settings
        self.lateness = Lateness(settings.late_interaction_seconds)
        self._stamp_interactions()

    async def login(self, token: str) -> None:
        # Before discord.py makes its HTTP session (in ``login``), on the running loop.
        discord_internals.use_connector(self, http_connector)
        await super().login(token)

    def _stamp_interactions(self) -> None:
        """Note each interaction's arrival as the gateway hands it over, before it waits
        for its turn in this process (see :mod:`bot.lateness`); and hand discord.py the
        pressed message cut down to what it needs.

        A click arrives with the whole message its button is on (a hand: a dozen buttons
        and more, its author, its mentions, the interaction that sent it), which discord.py
        would rebuild into objects for every click; the bot reads only that message's id
        and flags (and answers from what it keeps itself): discord.py gets those, with the
        fields it requires (:data:`_PRESSED_MESSAGE_KEYS`)."""

        def stamped(data: dict[str, Any]) -> None:
            with contextlib.suppress(KeyError, TypeError, ValueError):
                self.lateness.received(int(data["id"]))
            if self.owns_process:
                _collections.flood(self.lateness.in_flight)
            message = data.get("message")
            if isinstance(message, dict):
                slim = {k: message[k] for k in _PRESSED_MESSAGE_KEYS if k in message}
                slim["components"], slim["mentions"], slim["mention_roles"] = [], [], []
                data["message"] = slim

        discord_internals.intercept_interactions(self, stamped)

    @property
    def shard_slice(self) -> ShardSlice | None:
        """Return the slice of the shards this process runs (None: every server)."""
        settings = self.settings
        if settings.shard_count is None or settings.shard_ids is None:
            return None
        return ShardSlice(settings.shard_count, tuple(settings.shard_ids))

    def owns_guild(self, guild_id: int) -> bool:
        """Return whether this process runs the shard of that server (see ``shard_of``)."""
        shards = self.shard_slice
        return shards is None or shards.owns(guild_id)

    async def setup_hook(self) -> None:
        _watch_collections()
        if self.handle_signals:
            self._stop_on_signals()
        settings = self.settings
        # The bot that is the process runs on the machine's clock: a PostgreSQL store's
        # connections can use its loop, without a thread's hand-over at every call.
        self.store = await open_store(settings.database, own_thread=not self.owns_process)
        self.scheduler = Scheduler(_utc_clock, wait=self._scheduler_wait, wake=self._scheduler_wake)
        self.controller = Controller(
            self,
            self.store,
            games.get,
            clock=_utc_clock,
            edit_interval=settings.table_edit_seconds,
            table_token_seconds=settings.table_token_seconds,
            default_level=settings.level_for,
            scheduler=self.scheduler,
            owns=self.owns_guild,
            limits=LobbyLimits(
                idle_seconds=settings.lobby_idle_minutes * 60,
                per_member=settings.lobbies_per_member,
                per_server=settings.lobbies_per_server,
            ),
            removed_grace=settings.removed_grace_minutes * 60,
            requests_per_second=budget.share(
                settings.global_requests_per_second, settings.shard_count, settings.shard_ids
            ),
        )
        loaded = await self.controller.tables.load(self.shard_slice)
        log.info("loaded %d live table(s) from %s", loaded, self.store.location)
        self._replaying = asyncio.get_running_loop().create_task(self._replay_meanwhile())
        if self.owns_process:
            # Before the first clicks after a restart come in, each replaying a table: a
            # full collection meanwhile would walk every table loaded (0.15 s each time).
            _collections.start()
            if settings.drawing_process:
                pictures.draw_in_a_process()
        self.controller.start_delivering_owed()
        self._show_suits()
        self.community = Community(self, lambda: games.GAMES)
        # Events over several tables (a duplicate whist match): the games whose GameUI
        # has ``match_rules``; the live ones catch up with what their tables did.
        rules = {ui.name: ui.match_rules for ui in games.GAMES if ui.match_rules is not None}
        self.matches = Matches(self.controller, self.store, rules, self.controller.public_lang_of)
        self.controller.matches = self.matches
        await self.matches.load()
        for ui in games.GAMES:
            # A game whose tables another game's commands open (the tables of a duplicate
            # whist match) has no command group of its own (``command_group`` false).
            if ui.command_group:
                self.tree.add_command(game_group(self, ui))
        for command in self.community.commands():
            self.tree.add_command(command)
        self.tree.error(self._on_tree_error)
        await self.tree.set_translator(Translator())  # German command texts, before the sync
        if settings.dev_guild_id is not None:
            guild = discord.Object(id=settings.dev_guild_id)
            self.tree.copy_global_to(guild=guild)
            await self.tree.sync(guild=guild)
        else:
            await self.tree.sync()

    async def _replay_meanwhile(self) -> None:
        """Replay the live tables' move logs while the start waits for Discord (the command
        sync, the gateway's handshake and its servers), one table a turn of the event loop.

        A table loaded at start is replayed at its first use (``Tables.load``), and after a
        restart the first clicks of every table come at once, as soon as the gateway is
        ready: whatever is replayed before then is not replayed in that flood. A click
        waits for at most one replay of another table's meanwhile."""
        for table in list(self.controller.tables.tables.values()):
            await asyncio.sleep(0)
            try:
                table.replay()
            except Exception:  # its first use meets it again, and says so
                log.exception("game %s: its move log could not be replayed", table.id)

    def _show_suits(self) -> None:
        """Show the suits as text now and as the application's emojis once they are found
        or registered, in the background: start-up never waits for Discord's answer."""
        if not self.settings.suit_emojis:
            suits.as_written()
            return
        suits.show(emojis=None)
        shards = self.shard_slice
        # One process creates them (shard 0's), so that slices starting together cannot
        # each make a set; the others find them by name.
        create = shards is None or 0 in shards.ids
        self._suit_task: asyncio.Task[bool] | None = asyncio.get_running_loop().create_task(
            suits.register(self, create=create)
        )

    def _stop_on_signals(self) -> None:
        """Stop cleanly on SIGTERM (``docker stop``; as PID 1 the process would otherwise
        ignore it and be killed 10 s later) and SIGINT: stop taking interactions, let the
        writes under way finish, close the gateway and the database; ``run`` then returns."""
        loop = asyncio.get_running_loop()
        for signum in (signal.SIGTERM, signal.SIGINT):
            with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
                loop.add_signal_handler(signum, self._on_stop_signal, signum)

    def _on_stop_signal(self, signum: int) -> None:
        log.info("%s received: stopping", signal.Signals(signum).name)
        task = asyncio.get_running_loop().create_task(self.close())
        self._stop_task = task  # kept alive until it is done

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

    async def _press(self, interaction: discord.Interaction, pressed: ids.Parsed) -> None:
        """A button was pressed: a page of the leaderboard or a replay, a post's Details, or a
        table's."""
        if isinstance(pressed, ids.LeaderboardPage):
            work = self.community.show_page(interaction, pressed, edit=True)
        elif isinstance(pressed, ids.ReplayPage):
            work = self.community.show_replay(interaction, pressed.table, pressed.step, edit=True)
        elif isinstance(pressed, ids.ReviewPage):
            edit = pressed.tag != "o"  # from the replay: a reply of its own
            work = self.community.show_review(interaction, pressed.table, pressed.page, edit=edit)
        elif isinstance(pressed, ids.Details):
            work = details.show(
                interaction,
                pressed,
                tables=self.controller.tables,
                store=self.store,
                hidden=self.matches.hidden,
            )
        else:
            work = self.controller.button(interaction, pressed)
        await self.controller.safely(interaction, work)

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """A component was pressed (or a form submitted): read its id (``bot.buttons``)
        and handle it, unless it came too late to have any effect."""
        if interaction.type not in (
            discord.InteractionType.component,
            discord.InteractionType.modal_submit,  # a form a game's control opened
        ):
            return
        data: dict[str, object] = dict(interaction.data or {})
        pressed = buttons.read(str(data.get("custom_id", "")), games.GAMES)
        try:
            if pressed is None:
                await buttons.answer_unknown(interaction)
            elif not too_late(interaction):
                await self._press(interaction, pressed)
        finally:
            self.lateness.forget(interaction.id)
            discord_internals.release(interaction)
            if self.owns_process:
                _collections.flood(self.lateness.in_flight)

    # Channels, threads and servers that go away, and servers that come back.
    async def on_guild_channel_delete(self, channel: discord.abc.GuildChannel) -> None:
        if hasattr(self, "controller"):
            await self.controller.channel_gone(channel.id)

    async def on_raw_thread_delete(self, payload: discord.RawThreadDeleteEvent) -> None:
        if hasattr(self, "controller"):
            await self.controller.channel_gone(payload.thread_id)

    async def on_guild_remove(self, guild: discord.Guild) -> None:
        if hasattr(self, "controller"):
            self.controller.guild_left(guild.id)

    async def on_guild_join(self, guild: discord.Guild) -> None:
        if hasattr(self, "controller"):
            self.controller.guild_back(guild.id)

    async def on_guild_available(self, guild: discord.Guild) -> None:
        if hasattr(self, "controller"):
            self.controller.guild_back(guild.id)

    async def on_ready(self) -> None:
        # Servers that removed the bot while it was down send no GUILD_DELETE: their
        # tables are the ones of servers the bot is not in.
        if not hasattr(self, "controller"):
            return
        if self.owns_process:
            _collections.start()
        present = {guild.id for guild in self.guilds}
        for table in list(self.controller.tables.tables.values()):
            if table.guild_id not in present:
                self.controller.guild_left(table.guild_id)
        matches = self.controller.matches
        for guild_id in matches.owing_guilds() - present if matches is not None else ():
            self.controller.guild_left(guild_id)  # a duplicate match's posts owed there

    async def close(self) -> None:
        if hasattr(self, "community"):
            await self.community.close()  # members waiting for a review are told
        task = getattr(self, "_suit_task", None)
        if task is not None:
            task.cancel()
            suits.as_written()
        replaying = getattr(self, "_replaying", None)
        if replaying is not None:
            replaying.cancel()
        if hasattr(self, "controller"):
            await self.controller.tables.close()
        if hasattr(self, "scheduler"):
            await self.scheduler.close()
        if hasattr(self, "controller"):
            await self.controller.close()
        if hasattr(self, "store"):
            await self.store.close()
        _unwatch_collections()
        if self.owns_process:
            await asyncio.to_thread(pictures.stop_drawing)  # waits for a picture being drawn
        await super().close()


class ShardedBot(Bot, discord.AutoShardedClient):
    """The bot running several shards, or one slice of them (``shard_count``, ``shard_ids``):
    it loads and serves only the tables of its shards' servers."""


def shard_of(guild_id: int, shard_count: int) -> int:
    """Return the shard a server belongs to (Discord's rule: ``(guild_id >> 22) % count``)."""
    return ShardSlice(shard_count, ()).shard(guild_id)


def use_endpoints(settings: Settings) -> None:
    """Point discord.py at the configured HTTP API and gateway (Discord's by default).

    discord.py keeps both as class attributes, so they hold for the whole process."""
    discord_internals.point_at(settings.api_base_url, settings.gateway_url)


def create_bot(settings: Settings) -> Bot:
    """Return the bot built from ``settings`` (not started; ``setup_hook`` opens the store)."""
    use_endpoints(settings)
    discord_internals.quiet_voice_warnings()
    if settings.shard_count is not None:
        return ShardedBot(settings, shard_count=settings.shard_count, shard_ids=settings.shard_ids)
    return Bot(settings)
