"""Scripted members against the loopback Discord, and the bot as a real subprocess.

::

    async with LoopbackDiscord.start() as discord:
        guild = discord.create_guild("Dupe Club")
        alice = guild.add_member("alice")
        async with discord.bot_process(tmp_path) as bot:  # python -m bot, ready
            lobby = await alice.slash(guild.channel, "dupe start", computers="random")
            started = await alice.click(lobby.message, label="Start")
            hand = await alice.click(started.message, label="My hand")
        assert discord.server.violations == []

Every action dispatches one interaction and returns a :class:`Reply` once the bot has
answered it (its callback arrived), or raises ``TimeoutError`` after ``action_timeout``
seconds. Messages are read back as :class:`MessageView` snapshots of the server's state.

Every wait here counts seconds of the server's pace (:mod:`tests.loopback.pace`): time the
machine kept the bot or the server waiting for a core, busy with other work, does not
count, so a test waits for the bot's progress, not for a quiet machine's wall-clock time.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import sys
import tempfile
import time
from collections.abc import AsyncIterator, Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot import ids
from tests.loopback.fake_discord import (
    EPHEMERAL,
    INTERACTION_DEADLINE,
    WALL_CAP,
    Channel,
    FakeDiscord,
    Guild,
    Interaction,
    Member,
    Message,
)
from tests.loopback.pace import Pace
from tests.support.buttons import id_kind

__all__ = [
    "BotProcess",
    "ChannelHandle",
    "GuildHandle",
    "LoopbackDiscord",
    "MemberActor",
    "MessageView",
    "Reply",
    "id_kind",
]

REPO = Path(__file__).resolve().parents[2]
GIVEN_UP = INTERACTION_DEADLINE + 1.0  # Discord's deadline, and a moment for a late answer


# --- what members see -----------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class MessageView:
    """A message as its viewer sees it at one moment (a snapshot)."""

    id: int
    channel_id: int
    content: str
    embeds: tuple[dict[str, Any], ...]
    components: tuple[dict[str, Any], ...]
    flags: int
    edits: int
    ephemeral_to: int | None

    @classmethod
    def of(cls, message: Message) -> MessageView:
        return cls(
            id=message.id,
            channel_id=message.channel_id,
            content=message.content,
            embeds=tuple(message.embeds),
            components=tuple(message.components),
            flags=message.flags,
            edits=message.edits,
            ephemeral_to=message.ephemeral_to,
        )

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & EPHEMERAL)

    @property
    def title(self) -> str:
        """The first embed's title ("" without one)."""
        return str(self.embeds[0].get("title") or "") if self.embeds else ""

    @property
    def description(self) -> str:
        """The first embed's description ("" without one)."""
        return str(self.embeds[0].get("description") or "") if self.embeds else ""

    @property
    def text(self) -> str:
        """Everything readable: content, embed titles, descriptions, fields, footers."""
        parts = [self.content]
        for embed in self.embeds:
            parts += [embed.get("title") or "", embed.get("description") or ""]
            parts += [f"{f.get('name')}\n{f.get('value')}" for f in embed.get("fields") or []]
            parts.append((embed.get("footer") or {}).get("text") or "")
        return "\n".join(p for p in parts if p)

    def buttons(self) -> list[dict[str, Any]]:
        """Return the message's buttons, row by row."""
        return [
            c
            for row in self.components
            for c in (row.get("components") or [row])
            if c.get("type") == 2
        ]

    def labels(self) -> list[str]:
        return [str(b.get("label") or "") for b in self.buttons()]

    def custom_ids(
        self, prefix: str = "", *, kind: str | None = None, enabled: bool = True
    ) -> list[str]:
        """Return the custom ids starting with ``prefix`` and, with ``kind``, of that kind
        (see :func:`id_kind`), of enabled buttons only unless ``enabled=False``."""
        return [
            b["custom_id"]
            for b in self.buttons()
            if str(b.get("custom_id", "")).startswith(prefix)
            and "custom_id" in b
            and (kind is None or id_kind(b["custom_id"]) == kind)
            and not (enabled and b.get("disabled"))
        ]

    def controls(self, kind: str | None = None, *, enabled: bool = True) -> list[ids.Control]:
        """Return the private controls (``bot.ids.control``) of the message, of ``kind``
        if given, parsed."""
        found = []
        for custom_id in self.custom_ids(kind=kind, enabled=enabled):
            parsed = ids.parse(custom_id)
            if isinstance(parsed, ids.Control):
                found.append(parsed)
        return found


@dataclass(slots=True)
class Reply:
    """How the bot answered one interaction: the callback, and the message it made or
    updated (None for a deferral without a message)."""

    interaction: Interaction
    callback_type: int
    message: MessageView | None
    latency: float

    @property
    def ephemeral(self) -> bool:
        return self.message is not None and self.message.ephemeral

    @property
    def text(self) -> str:
        return self.message.text if self.message is not None else ""


# --- handles ----------------------------------------------------------------------------


class LoopbackDiscord:
    """The loopback Discord for a test: the server plus guilds, members and bot processes.

    ``late_interaction_seconds`` is the setting of the bots it starts (None: the bot's
    own)."""

    def __init__(
        self,
        server: FakeDiscord,
        *,
        action_timeout: float = 10.0,
        late_interaction_seconds: float | None = None,
    ) -> None:
        self.server = server
        self.action_timeout = action_timeout
        self.late_interaction_seconds = late_interaction_seconds
        self.processes: list[BotProcess] = []

    @classmethod
    @contextlib.asynccontextmanager
    async def start(
        cls,
        *,
        action_timeout: float = 10.0,
        late_interaction_seconds: float | None = 0.0,
        **server_options: Any,
    ) -> AsyncIterator[LoopbackDiscord]:
        """Run a server (``server_options`` go to :class:`FakeDiscord`) for the block; bot
        processes started through it are stopped at the end.

        For a test that must pass on a machine busy with other work, the server counts on
        the :class:`~tests.loopback.pace.Pace` (unless ``pace`` is given), and the bots
        answer every click however late (``late_interaction_seconds`` 0): a bot measures a
        click's age on the wall clock, and would rightly leave clicks alone that the
        server, on the pace, still waits for. A test of that shedding gives the setting."""
        server = FakeDiscord(**{"pace": Pace(), **server_options})
        await server.start()
        discord = cls(
            server,
            action_timeout=action_timeout,
            late_interaction_seconds=late_interaction_seconds,
        )
        try:
            yield discord
        finally:
            for process in discord.processes:
                await process.stop()
            await server.close()

    @property
    def token(self) -> str:
        return self.server.token

    def create_guild(
        self, name: str, *, shard: int | None = None, shard_count: int | None = None
    ) -> GuildHandle:
        """Create a guild with one text channel “dupe”; with ``shard`` and ``shard_count``
        its id puts it on that shard."""
        if (shard is None) != (shard_count is None):
            raise ValueError("give both shard and shard_count, or neither")
        where = None if shard is None or shard_count is None else (shard, shard_count)
        return GuildHandle(self, self.server.create_guild(name, shard=where))

    async def wait_ready(
        self,
        shards: Iterable[int] | None = None,
        *,
        shard_count: int | None = None,
        since: float = 0.0,
        timeout: float = 30.0,
    ) -> None:
        """Wait until the bot has synced its commands and identified: one unsharded session,
        or a session for each of ``shards`` (of ``shard_count``), all after ``since``
        (``time.monotonic()``) and connected now."""
        server = self.server
        wanted = None if shards is None else sorted(shards)

        def ready() -> bool:
            if not any(at >= since for at, _guild in server.command_syncs):
                return False
            live = [s for s in server.live_sessions() if s.identified_at >= since]
            if wanted is None:
                return any(s.shard is None for s in live)
            have = {s.shard for s in live}
            return all((shard, shard_count) in have for shard in wanted)

        what = "the bot's sessions " + ("(unsharded)" if wanted is None else f"for {wanted}")
        await server.wait_for(ready, timeout=timeout, what=what)

    async def wait_until(
        self, predicate: Callable[[], bool], *, what: str, timeout: float | None = None
    ) -> None:
        """Wait until ``predicate()`` holds (checked after every request the bot makes and
        every 50 ms); raise ``TimeoutError`` naming ``what`` after ``timeout`` seconds
        (default: ``action_timeout``)."""
        limit = self.action_timeout if timeout is None else timeout
        try:
            await self.server.wait_for(predicate, timeout=limit, what=what)
        except TimeoutError as error:
            logs = "".join(f"\n--- {p.name} log tail ---\n{p.log_tail()}" for p in self.processes)
            raise TimeoutError(f"{error}{logs}") from None

    async def settle(self, quiet: float = 0.15, *, timeout: float | None = None) -> None:
        """Wait until the bot has made no request for ``quiet`` seconds from now on (what it
        does after answering an interaction — fetching its response, editing the table —
        is done). A bot kept off the CPU is not quiet: only the pace counts."""
        limit = self.action_timeout if timeout is None else timeout
        server = self.server
        started = last = server.pace()
        wall_limit = time.monotonic() + limit * WALL_CAP
        seen = len(server.requests)
        while True:
            now = server.pace()
            if len(server.requests) != seen:
                seen, last = len(server.requests), now
            if now - last >= quiet:
                return
            if now - started >= limit or time.monotonic() >= wall_limit:
                raise TimeoutError(f"the bot was still busy after {limit} s")
            await asyncio.sleep(min(quiet / 4, 0.05))

    def bot_process(
        self,
        workdir: Path | None = None,
        **settings: Any,
    ) -> BotProcess:
        """Return a :class:`BotProcess` against this server (not started), run in
        ``workdir`` (a new temporary directory by default); ``settings`` as for it."""
        settings.setdefault("late_interaction_seconds", self.late_interaction_seconds)
        process = BotProcess(self, workdir=workdir, **settings)
        self.processes.append(process)
        return process


@dataclass(slots=True)
class GuildHandle:
    discord: LoopbackDiscord
    guild: Guild

    @property
    def id(self) -> int:
        return self.guild.id

    @property
    def channel(self) -> ChannelHandle:
        """The guild's first text channel."""
        return ChannelHandle(self.discord, next(iter(self.guild.channels.values())))

    def create_channel(self, name: str) -> ChannelHandle:
        return ChannelHandle(self.discord, self.discord.server.create_channel(self.guild, name))

    def add_member(self, name: str, *, manage_guild: bool = False) -> MemberActor:
        member = self.discord.server.add_member(self.guild, name, manage_guild=manage_guild)
        return MemberActor(self.discord, member)


@dataclass(slots=True)
class ChannelHandle:
    discord: LoopbackDiscord
    channel: Channel

    @property
    def id(self) -> int:
        return self.channel.id

    def messages(self) -> list[MessageView]:
        """The channel's public messages as they are now, oldest first."""
        return [MessageView.of(m) for m in self.discord.server.channel_messages(self.id)]

    def message(self, message_id: int) -> MessageView:
        """One public message as it is now."""
        return next(m for m in self.messages() if m.id == message_id)


Clickable = MessageView | Reply | int


@dataclass(slots=True)
class MemberActor:
    """A scripted member: types slash commands and presses buttons."""

    discord: LoopbackDiscord
    member: Member
    replies: list[Reply] = field(default_factory=list)

    @property
    def id(self) -> int:
        return self.member.user.id

    @property
    def name(self) -> str:
        return self.member.user.name

    async def slash(
        self, channel: ChannelHandle, command: str, *, timeout: float | None = None, **options: Any
    ) -> Reply:
        """Run ``/command`` (e.g. ``"dupe start"``) with ``options`` in ``channel``."""
        server = self.discord.server

        def build() -> Interaction:
            return server.command_interaction(channel.id, self.id, command, options)

        return await self._send(build(), timeout, again=build)

    async def click(
        self,
        message: Clickable,
        *,
        label: str | None = None,
        custom_id: str | None = None,
        timeout: float | None = None,
    ) -> Reply:
        """Press a button, found by ``label`` or ``custom_id``, on a message this member sees
        (a public one, or one of their private ones) as the message is now."""
        server = self.discord.server
        message_id = _message_id(message)
        stored = server.messages.get(message_id)
        if stored is None or not stored.visible_to(self.id):
            raise LookupError(f"{self.name} sees no message {message_id}")
        view = MessageView.of(stored)
        if custom_id is None:
            if label is None:
                raise ValueError("give label or custom_id")
            matching = [b for b in view.buttons() if b.get("label") == label]
            if not matching:
                raise LookupError(f"no button {label!r} on message {message_id}: {view.labels()}")
            custom_id = str(matching[0].get("custom_id"))
        interaction = server.component_interaction(
            stored.channel_id, self.id, message_id, custom_id
        )
        return await self._send(interaction, timeout)

    def latest_private(self) -> MessageView | None:
        """This member's latest private (ephemeral) message, as currently edited."""
        private = self.discord.server.private_messages(self.id)
        return MessageView.of(private[-1]) if private else None

    def privates(self) -> list[MessageView]:
        """All of this member's private messages, oldest first."""
        return [MessageView.of(m) for m in self.discord.server.private_messages(self.id)]

    async def _send(
        self,
        interaction: Interaction,
        timeout: float | None,
        again: Callable[[], Interaction] | None = None,
    ) -> Reply:
        """Dispatch ``interaction`` and return its answer. With ``again`` (a slash command),
        a command Discord gave up on unanswered is typed again, as a member would after
        “This interaction failed”, up to twice: a bot on a busy machine rightly leaves a
        command it got to too late alone (``late_interaction_seconds``), and the test waits
        for the bot's progress rather than for one try within a quiet machine's time."""
        limit = self.discord.action_timeout if timeout is None else timeout
        server = self.discord.server
        tries = 3 if again is not None else 1
        for attempt in range(1, tries + 1):
            await self._dispatch(interaction, limit)
            if again is None or attempt == tries:
                break
            with contextlib.suppress(TimeoutError):
                await server.wait_for(
                    lambda sent=interaction: sent.responded or server.age(sent) > GIVEN_UP,
                    timeout=GIVEN_UP + 1.0,
                    what=f"the answer to {interaction.describe()}",
                )
            if interaction.responded:
                break
            interaction.typed_again = True
            interaction = again()
        return await self._answer(interaction, limit)

    async def _dispatch(self, interaction: Interaction, limit: float) -> None:
        server = self.discord.server
        assert interaction.answered is not None
        # Between an invalidated session and the next IDENTIFY no session carries the guild:
        # wait for one rather than fail (a real member would just click again).
        await self.discord.wait_until(
            lambda: bool(server.sessions_for(interaction.guild_id)),
            what=f"a gateway session for guild {interaction.guild_id}",
            timeout=limit,
        )
        server.dispatch(interaction)

    async def _answer(self, interaction: Interaction, limit: float) -> Reply:
        server = self.discord.server
        try:
            await server.wait_for(
                lambda: interaction.responded,
                timeout=limit,
                what=f"the answer to {interaction.describe()}",
            )
        except TimeoutError:
            logs = "".join(
                f"\n--- {p.name} log tail ---\n{p.log_tail()}" for p in self.discord.processes
            )
            raise TimeoutError(
                f"the bot did not answer {interaction.describe()} by {self.name} within "
                f"{limit} s (Discord would show “This interaction failed”){logs}"
            ) from None
        assert interaction.callback_type is not None and interaction.latency is not None
        message = server.messages.get(interaction.original_message_id or 0)
        reply = Reply(
            interaction=interaction,
            callback_type=interaction.callback_type,
            message=MessageView.of(message) if message is not None else None,
            latency=interaction.latency,
        )
        self.replies.append(reply)
        return reply


def _message_id(message: Clickable) -> int:
    if isinstance(message, Reply):
        if message.message is None:
            raise LookupError("that reply has no message")
        return message.message.id
    if isinstance(message, MessageView):
        return message.id
    return message


# --- the bot as a subprocess ---------------------------------------------------------------


class BotProcess:
    """``python -m bot`` against a loopback Discord, configured by environment variables
    only, in a working directory without a config.toml; stdout and stderr go to
    ``log_path``. ``async with`` starts it and waits until it is ready, then stops it.
    ``late_interaction_seconds`` None leaves the bot's own setting."""

    _count = 0

    def __init__(
        self,
        discord: LoopbackDiscord,
        *,
        workdir: Path | None = None,
        database: Path | str | None = None,
        shard_count: int | None = None,
        shard_ids: Sequence[int] | None = None,
        turn_seconds: int = 60,
        table_edit_seconds: float = 0.05,
        late_interaction_seconds: float | None = None,
        dev_guild_id: int | None = None,
        log_level: str = "INFO",
        drawing_process: bool = True,
        env: Mapping[str, str] | None = None,
        module: str = "bot",
    ) -> None:
        BotProcess._count += 1
        self.module = module  # what ``python -m`` runs: the bot, or a launcher of the tests
        self.name = f"bot-{BotProcess._count}"
        self.discord = discord
        self.workdir = workdir or Path(tempfile.mkdtemp(prefix="dupe-loopback-"))
        self.database = database or self.workdir / "dupe.sqlite3"
        self.log_path = self.workdir / f"{self.name}.log"
        self.shard_count = shard_count
        self.shard_ids = (
            list(shard_ids)
            if shard_ids is not None
            else (list(range(shard_count)) if shard_count is not None else None)
        )
        settings: dict[str, str] = {
            "DISCORD_TOKEN": discord.token,
            "PARLOUR_API_BASE_URL": discord.server.api_base_url,
            "PARLOUR_GATEWAY_URL": discord.server.gateway_url,
            "PARLOUR_DATABASE": str(self.database),
            "PARLOUR_TURN_SECONDS": str(turn_seconds),
            "PARLOUR_TABLE_EDIT_SECONDS": str(table_edit_seconds),
            "PARLOUR_LOG_LEVEL": log_level,
            "PARLOUR_DRAWING_PROCESS": "true" if drawing_process else "false",
            "PARLOUR_SUIT_EMOJIS": "false",  # the harnesses read cards as written (10♠)
        }
        if dev_guild_id is not None:
            settings["PARLOUR_DEV_GUILD_ID"] = str(dev_guild_id)
        if late_interaction_seconds is not None:
            settings["PARLOUR_LATE_INTERACTION_SECONDS"] = str(late_interaction_seconds)
        if shard_count is not None:
            settings["PARLOUR_SHARD_COUNT"] = str(shard_count)
            settings["PARLOUR_SHARD_IDS"] = str(self.shard_ids)
        self.env = {
            **{
                k: v
                for k, v in os.environ.items()
                if not k.upper().startswith(("PARLOUR_", "DUPE_")) and k.upper() != "DISCORD_TOKEN"
            },
            "PYTHONPATH": os.pathsep.join([str(REPO), os.environ.get("PYTHONPATH", "")]).rstrip(
                os.pathsep
            ),
            "PYTHONUNBUFFERED": "1",
            **settings,
            **(env or {}),
        }
        self.process: asyncio.subprocess.Process | None = None
        self.started_at = 0.0

    async def start(self) -> None:
        """Start the process (returns at once; see :meth:`wait_ready`)."""
        if (self.workdir / "config.toml").exists():
            raise RuntimeError(f"{self.workdir} has a config.toml: the bot would read it")
        self.workdir.mkdir(parents=True, exist_ok=True)
        self.started_at = time.monotonic()
        with self.log_path.open("ab") as log:
            self.process = await asyncio.create_subprocess_exec(
                sys.executable,
                "-m",
                self.module,
                cwd=self.workdir,
                env=self.env,
                stdin=asyncio.subprocess.DEVNULL,
                stdout=log,
                stderr=asyncio.subprocess.STDOUT,
            )

    async def wait_ready(self, timeout: float = 30.0) -> None:
        """Wait until this process synced its commands and its shards identified (since it
        started); fail at once, with its log, if it exits."""
        process = self.process
        if process is None:
            raise RuntimeError("start() the bot first")
        ready = asyncio.ensure_future(
            self.discord.wait_ready(
                self.shard_ids,
                shard_count=self.shard_count,
                since=self.started_at,
                timeout=timeout,
            )
        )
        exited = asyncio.ensure_future(process.wait())
        try:
            done, _ = await asyncio.wait({ready, exited}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            exited.cancel()
        if ready in done:
            try:
                ready.result()
            except TimeoutError as error:
                raise TimeoutError(f"{error}\n--- {self.name} log ---\n{self.log_tail()}") from None
            return
        ready.cancel()
        raise RuntimeError(
            f"{self.name} exited with {process.returncode} before it was ready:\n{self.log_tail()}"
        )

    def kill(self) -> None:
        """SIGKILL: the process dies at once, as in a crash."""
        if self.process is not None and self.process.returncode is None:
            self.process.send_signal(signal.SIGKILL)

    def terminate(self) -> None:
        """SIGTERM."""
        if self.process is not None and self.process.returncode is None:
            self.process.terminate()

    async def wait(self, timeout: float = 10.0) -> int:
        """Wait for the process to exit (``timeout``: seconds of the server's pace); return
        its exit code."""
        assert self.process is not None
        exited = asyncio.ensure_future(self.process.wait())
        try:
            await self.discord.server.wait_for(
                exited.done, timeout=timeout, what=f"the exit of {self.name}"
            )
        finally:
            exited.cancel()
        return exited.result()

    async def stop(self, timeout: float = 5.0) -> None:
        """Terminate the process, and kill it if it does not exit within ``timeout``."""
        if self.process is None or self.process.returncode is not None:
            return
        self.terminate()
        try:
            await self.wait(timeout)
        except TimeoutError:
            self.kill()
            await self.wait(timeout)

    @property
    def returncode(self) -> int | None:
        return None if self.process is None else self.process.returncode

    def log(self) -> str:
        """Everything the process wrote so far."""
        if not self.log_path.exists():
            return ""
        return self.log_path.read_text(encoding="utf-8", errors="replace")

    def log_tail(self, lines: int = 40) -> str:
        return "\n".join(self.log().splitlines()[-lines:])

    def errors(self) -> list[str]:
        """Lines of the log at ERROR or CRITICAL, and tracebacks."""
        return [
            line
            for line in self.log().splitlines()
            if " ERROR " in line or " CRITICAL " in line or line.startswith("Traceback")
        ]

    async def __aenter__(self) -> BotProcess:
        await self.start()
        try:
            await self.wait_ready()
        except BaseException:
            await self.stop()
            raise
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()
