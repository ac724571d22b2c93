"""A loopback Discord: the HTTP API and the gateway on 127.0.0.1, for the real bot process.

:class:`FakeDiscord` is an aiohttp server that an unmodified ``python -m bot`` connects to
as it would to Discord (``PARLOUR_API_BASE_URL`` = :attr:`FakeDiscord.api_base_url`,
``PARLOUR_GATEWAY_URL`` = :attr:`FakeDiscord.gateway_url`, ``DISCORD_TOKEN`` =
:attr:`FakeDiscord.token`). It keeps a small world (guilds, channels, members, messages,
interactions, application commands) and enforces what Discord enforces and an in-process
fake would miss:

* every request body is validated against Discord's OpenAPI description, chosen by route,
  plus the limits the spec omits (``tests/discord_api_rules.py``); an invalid body gets
  ``400 {"code": 50035, ...}`` and is recorded in :attr:`FakeDiscord.violations`;
* an interaction must be answered within 3 s of its dispatch (later: ``404``, code 10062), only
  once (again: ``400``, code 40060), and its token works on the webhook routes for 15 minutes
  (``token_lifetime``; later: ``401``, code 50027 "Invalid Webhook Token", an invalid request):
  ``PATCH /webhooks/{app}/{token}/messages/@original`` edits its original response (the
  message its answer posted, or for a component answered by updating its message, that
  message), attachments too; an ephemeral message is seen only by the interaction's user;
* routes it does not know are logged loudly, recorded in :attr:`FakeDiscord.unknown_routes`
  and answered ``404`` with Discord's error shape;
* :meth:`FakeDiscord.inject_429` makes a share of REST requests answer 429 with the headers
  discord.py needs to retry;
* Discord's global limit, 50 requests a second per bot token over every connection (every
  slice of a bot together), interaction-token requests exempt: past it a ``429`` with
  ``"global": true``; invalid requests (401, 403, 429) are counted per 10 minutes
  (:attr:`FakeDiscord.limits`, :mod:`tests.loopback.limits`);
* the gateway speaks HELLO, IDENTIFY (with shards), READY, GUILD_CREATE, heartbeats,
  sequence numbers, RESUME with replay, INVALID_SESSION; :meth:`FakeDiscord.drop_gateway`
  cuts connections abruptly.

The clock (``clock``, seconds since the epoch) decides snowflakes, timestamps and the
token lifetime, so a test can age a token with :class:`ManualClock` instead of sleeping.
The 3 s to answer an interaction (unless ``clock`` is given: then that clock), and every
wait of :meth:`FakeDiscord.wait_for`, count on ``pace``: the monotonic clock unless given;
the tests give :class:`~tests.loopback.pace.Pace` (the monotonic clock less the time the
machine kept the bot or this server waiting for a core), so that other work on a busy
machine does not fail a bot that answered in 3 s of its own time. Rate-limit windows (the
routes' and the global one) count on ``limit_clock`` (the monotonic clock unless given: a
test moves a :class:`ManualClock` instead of sleeping); latencies on the monotonic clock.

Scripted members live in :mod:`tests.loopback.driver`; this module is the server.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import itertools
import json
import logging
import math
import random
import re
import secrets
import socket
import time
from collections import deque
from collections.abc import Awaitable, Callable, Iterable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

import orjson
from aiohttp import BodyPartReader, WSMsgType, web

from tests.discord_api_rules import check_request
from tests.loopback.limits import GLOBAL_PER_SECOND, GlobalLimits

__all__ = [
    "DEFAULT_TOKEN",
    "Channel",
    "DiscordError",
    "FakeDiscord",
    "GatewaySession",
    "Guild",
    "Interaction",
    "ManualClock",
    "Member",
    "Message",
    "RequestRecord",
    "User",
]

log = logging.getLogger("tests.loopback")

DISCORD_EPOCH_MS = 1_420_070_400_000
API_PREFIX = "/api/v10"
# A token of the right shape (three dot-separated parts of >= 18, 4 and 20 characters).
DEFAULT_TOKEN = "MTQwMDAwMDAwMDAwMDAwMDAw.GLoop1.loopback-discord-token-0123456789"

INTERACTION_DEADLINE = 3.0  # seconds to answer an interaction
TOKEN_LIFETIME = 15 * 60.0  # seconds an interaction token works on the webhook routes
NONCE_WINDOW = 2 * 60.0  # "the past few minutes" of enforce_nonce, taken at its shortest
# A wait of n seconds of pace gives up after n * WALL_CAP seconds of the wall clock anyway:
# on a machine too busy to give the bot a twentieth of a core, a hung bot still fails.
WALL_CAP = 20

# message flags
SUPPRESS_EMBEDS = 1 << 2
EPHEMERAL = 1 << 6
LOADING = 1 << 7
SUPPRESS_NOTIFICATIONS = 1 << 12
COMPONENTS_V2 = 1 << 15
_SETTABLE_FLAGS = SUPPRESS_EMBEDS | SUPPRESS_NOTIFICATIONS | COMPONENTS_V2

# permissions
MANAGE_GUILD = 1 << 5
EVERYONE_PERMISSIONS = (
    (1 << 0)  # create instant invite
    | (1 << 6)  # add reactions
    | (1 << 10)  # view channel
    | (1 << 11)  # send messages
    | (1 << 14)  # embed links
    | (1 << 15)  # attach files
    | (1 << 16)  # read message history
    | (1 << 18)  # use external emojis
    | (1 << 26)  # change nickname
    | (1 << 31)  # use application commands
)
BOT_PERMISSIONS = 117_760  # docs/operating.md's permissions but threads (the fake has none)

# interaction types and callback types
PING, APPLICATION_COMMAND, MESSAGE_COMPONENT, MODAL_SUBMIT = 1, 2, 3, 5
PONG, CHANNEL_MESSAGE, DEFERRED_CHANNEL_MESSAGE, DEFERRED_UPDATE, UPDATE_MESSAGE = 1, 4, 5, 6, 7
AUTOCOMPLETE_RESULT, MODAL = 8, 9

# gateway opcodes
DISPATCH, HEARTBEAT, IDENTIFY, PRESENCE, VOICE, RESUME, RECONNECT = 0, 1, 2, 3, 4, 6, 7
REQUEST_MEMBERS, INVALID_SESSION, HELLO, HEARTBEAT_ACK = 8, 9, 10, 11

Clock = Callable[[], float]
Json = dict[str, Any]


def _dumps(payload: Any) -> bytes:
    """Return ``payload`` as JSON (orjson, the server's hot path; the standard library for
    what orjson refuses, such as a fuzzer's integers beyond 64 bits)."""
    try:
        return orjson.dumps(payload)
    except TypeError:
        return json.dumps(payload).encode()


class ManualClock:
    """A clock that moves only when told: ``clock.advance(3.5)`` ages every interaction."""

    def __init__(self, start: float | None = None) -> None:
        self.now = time.time() if start is None else start

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        """Move the clock forward by ``seconds``."""
        self.now += seconds


class DiscordError(Exception):
    """An error answer in Discord's shape: ``{"code": ..., "message": ...}``."""

    def __init__(self, status: int, code: int, message: str, errors: Json | None = None) -> None:
        super().__init__(f"{status} {code} {message}")
        self.status = status
        self.code = code
        self.message = message
        self.errors = errors

    def payload(self) -> Json:
        body: Json = {"message": self.message, "code": self.code}
        if self.errors is not None:
            body["errors"] = self.errors
        return body


def unknown_interaction() -> DiscordError:
    return DiscordError(404, 10062, "Unknown interaction")


def unknown_message() -> DiscordError:
    return DiscordError(404, 10008, "Unknown Message")


def unknown_channel() -> DiscordError:
    return DiscordError(404, 10003, "Unknown Channel")


def unknown_webhook() -> DiscordError:
    return DiscordError(404, 10015, "Unknown Webhook")


def invalid_webhook_token() -> DiscordError:
    return DiscordError(401, 50027, "Invalid Webhook Token")


def invalid_form_body(problems: list[str]) -> DiscordError:
    errors = {"_errors": [{"code": "INVALID_FORM_BODY", "message": p} for p in problems]}
    return DiscordError(400, 50035, "Invalid Form Body", errors)


# --- the world ------------------------------------------------------------------------


@dataclass(slots=True)
class User:
    id: int
    name: str
    bot: bool = False

    def payload(self) -> Json:
        return {
            "id": str(self.id),
            "username": self.name,
            "discriminator": "0",
            "global_name": None if self.bot else self.name,
            "avatar": None,
            "bot": self.bot,
            "system": False,
            "public_flags": 0,
            "flags": 0,
            "banner": None,
            "accent_color": None,
            "avatar_decoration_data": None,
        }


@dataclass(slots=True)
class Member:
    user: User
    guild_id: int
    joined_at: str
    roles: list[int] = field(default_factory=list)
    permissions: int = EVERYONE_PERMISSIONS
    nick: str | None = None

    def payload(self, *, with_permissions: bool = False) -> Json:
        body: Json = {
            "user": self.user.payload(),
            "roles": [str(r) for r in self.roles],
            "nick": self.nick,
            "avatar": None,
            "banner": None,
            "joined_at": self.joined_at,
            "premium_since": None,
            "deaf": False,
            "mute": False,
            "pending": False,
            "flags": 0,
            "communication_disabled_until": None,
        }
        if with_permissions:
            body["permissions"] = str(self.permissions)
        return body


@dataclass(slots=True)
class Channel:
    id: int
    guild_id: int
    name: str
    position: int = 0
    type: int = 0  # GUILD_TEXT

    def payload(self) -> Json:
        return {
            "id": str(self.id),
            "type": self.type,
            "guild_id": str(self.guild_id),
            "name": self.name,
            "position": self.position,
            "permission_overwrites": [],
            "parent_id": None,
            "topic": None,
            "nsfw": False,
            "rate_limit_per_user": 0,
            "last_message_id": None,
            "flags": 0,
        }


@dataclass(slots=True)
class Guild:
    id: int
    name: str
    owner_id: int
    bot_role_id: int
    joined_at: str
    channels: dict[int, Channel] = field(default_factory=dict)
    members: dict[int, Member] = field(default_factory=dict)

    def roles_payload(self) -> list[Json]:
        def role(role_id: int, name: str, permissions: int, position: int, managed: bool) -> Json:
            return {
                "id": str(role_id),
                "name": name,
                "permissions": str(permissions),
                "position": position,
                "color": 0,
                "colors": {"primary_color": 0, "secondary_color": None, "tertiary_color": None},
                "hoist": False,
                "managed": managed,
                "mentionable": False,
                "icon": None,
                "unicode_emoji": None,
                "flags": 0,
            }

        return [
            role(self.id, "@everyone", EVERYONE_PERMISSIONS, 0, False),
            role(self.bot_role_id, "Dupe", BOT_PERMISSIONS, 1, True),
        ]

    def create_payload(self, bot_member: Member, *, available: bool | None) -> Json:
        """Return the GUILD_CREATE payload (``available``: True when it follows READY)."""
        body: Json = {
            "id": str(self.id),
            "name": self.name,
            "owner_id": str(self.owner_id),
            "icon": None,
            "splash": None,
            "discovery_splash": None,
            "banner": None,
            "description": None,
            "afk_channel_id": None,
            "afk_timeout": 300,
            "verification_level": 0,
            "default_message_notifications": 1,
            "explicit_content_filter": 0,
            "mfa_level": 0,
            "nsfw_level": 0,
            "premium_tier": 0,
            "premium_subscription_count": 0,
            "preferred_locale": "en-US",
            "system_channel_id": None,
            "system_channel_flags": 0,
            "rules_channel_id": None,
            "public_updates_channel_id": None,
            "safety_alerts_channel_id": None,
            "vanity_url_code": None,
            "application_id": None,
            "max_members": 500_000,
            "max_presences": None,
            "features": [],
            "emojis": [],
            "stickers": [],
            "roles": self.roles_payload(),
            "member_count": len(self.members) + 1,
            "large": False,
            "joined_at": self.joined_at,
            # Without the members intent Discord sends only the bot's own member.
            "members": [bot_member.payload()],
            "channels": [c.payload() for c in self.channels.values()],
            "threads": [],
            "presences": [],
            "voice_states": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "soundboard_sounds": [],
            "premium_progress_bar_enabled": False,
        }
        if available is not None:
            body["unavailable"] = not available
        return body


@dataclass(slots=True)
class Message:
    id: int
    channel_id: int
    guild_id: int
    author: User
    timestamp: str
    content: str = ""
    embeds: list[Json] = field(default_factory=list)
    components: list[Json] = field(default_factory=list)
    attachments: list[Json] = field(default_factory=list)
    flags: int = 0
    type: int = 0
    edited_timestamp: str | None = None
    edits: int = 0
    ephemeral_to: int | None = None  # the only user who sees an ephemeral message
    webhook_id: int | None = None
    interaction_metadata: Json | None = None
    deleted: bool = False
    nonce: str | None = None

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & EPHEMERAL)

    def visible_to(self, user_id: int | None) -> bool:
        """Return whether ``user_id`` (None: the public, the bot's channel routes) sees it."""
        if self.deleted:
            return False
        return self.ephemeral_to is None or self.ephemeral_to == user_id

    def payload(self) -> Json:
        body: Json = {
            "id": str(self.id),
            "channel_id": str(self.channel_id),
            "guild_id": str(self.guild_id),
            "author": self.author.payload(),
            "content": self.content,
            "timestamp": self.timestamp,
            "edited_timestamp": self.edited_timestamp,
            "tts": False,
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "attachments": [dict(a) for a in self.attachments],
            "embeds": orjson.loads(_dumps(self.embeds)),
            "components": orjson.loads(_dumps(self.components)),
            "pinned": False,
            "type": self.type,
            "flags": self.flags,
            "nonce": self.nonce,
        }
        if self.webhook_id is not None:
            body["webhook_id"] = str(self.webhook_id)
            body["application_id"] = str(self.webhook_id)
        if self.interaction_metadata is not None:
            body["interaction_metadata"] = dict(self.interaction_metadata)
        return body


@dataclass(slots=True, eq=False)
class Interaction:
    """One interaction: what was dispatched, and how (and whether) the bot answered."""

    id: int
    token: str
    type: int
    guild_id: int
    channel_id: int
    user_id: int
    data: Json
    dispatched_at: float  # server clock: the token's lifetime counts from here
    paced_at: float  # server pace: the 3 s to answer count from here
    source_message_id: int | None = None  # the message a clicked button is on
    payload: Json = field(default_factory=dict)
    sent_at: float | None = None  # monotonic, when the INTERACTION_CREATE was sent
    callback_type: int | None = None
    callback_at: float | None = None  # monotonic
    latency: float | None = None
    original_message_id: int | None = None
    followup_ids: list[int] = field(default_factory=list)
    answered: asyncio.Future[Interaction] | None = None
    # The member typed the command again after Discord gave up on this one unanswered
    # (a bot on a busy machine leaves a command it got to too late alone): not a fault.
    typed_again: bool = False

    @property
    def responded(self) -> bool:
        return self.callback_type is not None

    def describe(self) -> str:
        if self.type == MESSAGE_COMPONENT:
            what = f"click on {self.data.get('custom_id')!r}"
        elif self.type == MODAL_SUBMIT:
            what = f"form {self.data.get('custom_id')!r} submitted"
        else:
            what = f"/{self.data.get('name')}"
            options = self.data.get("options") or []
            while options and options[0].get("type") in (1, 2):
                what += f" {options[0]['name']}"
                options = options[0].get("options") or []
        return f"interaction {self.id} ({what})"


@dataclass(slots=True)
class RequestRecord:
    method: str
    path: str  # relative to the API base
    body: Any
    status: int = 0
    at: float = 0.0  # monotonic
    injected_429: bool = False


# --- the gateway ----------------------------------------------------------------------


class _Connection:
    """One WebSocket: frames go out in order through a writer task."""

    def __init__(self, ws: web.WebSocketResponse, transport: asyncio.Transport | None) -> None:
        self.ws = ws
        self.transport = transport
        self.queue: asyncio.Queue[str | int] = asyncio.Queue()
        self.writer = asyncio.get_running_loop().create_task(self._write(), name="loopback-ws")
        self.closed = False

    def send(self, payload: Json) -> None:
        if not self.closed:
            self.queue.put_nowait(_dumps(payload).decode())

    def send_frame(self, frame: str) -> None:
        if not self.closed:
            self.queue.put_nowait(frame)

    def close(self, code: int) -> None:
        """Close with ``code`` after the frames already queued."""
        if not self.closed:
            self.queue.put_nowait(code)

    def abort(self) -> None:
        """Cut the TCP connection: no close frame, queued frames are lost."""
        self.closed = True
        if self.transport is not None:
            self.transport.abort()
        self.writer.cancel()

    async def _write(self) -> None:
        try:
            while True:
                item = await self.queue.get()
                if isinstance(item, int):
                    self.closed = True
                    await self.ws.close(code=item)
                    return
                await self.ws.send_str(item)
        except (ConnectionError, RuntimeError) as error:
            log.debug("gateway writer stopped: %s", error)
            self.closed = True


@dataclass(slots=True, eq=False)
class GatewaySession:
    """A gateway session (IDENTIFY to READY and after): survives its connection for RESUME."""

    id: str
    shard: tuple[int, int] | None
    intents: int
    identified_at: float  # monotonic
    seq: int = 0
    buffer: deque[tuple[int, str]] = field(default_factory=lambda: deque(maxlen=10_000))
    connection: _Connection | None = None
    resumes: int = 0
    invalid: bool = False

    def receives(self, guild_id: int) -> bool:
        """Return whether this session's shard carries ``guild_id``'s events."""
        if self.shard is None:
            return True
        shard_id, count = self.shard
        return (guild_id >> 22) % count == shard_id

    def can_resume_from(self, seq: int) -> bool:
        if self.invalid or seq > self.seq:
            return False
        if seq == self.seq:
            return True
        return bool(self.buffer) and self.buffer[0][0] <= seq + 1

    def dispatch(self, event: str, data: Any) -> int:
        self.seq += 1
        frame = _dumps({"op": DISPATCH, "t": event, "s": self.seq, "d": data}).decode()
        self.buffer.append((self.seq, frame))
        if self.connection is not None:
            self.connection.send_frame(frame)
        return self.seq


# --- the server -----------------------------------------------------------------------


Handler = Callable[["_Request"], Awaitable[tuple[int, Any]]]


@dataclass(slots=True)
class _Request:
    method: str
    path: str
    args: dict[str, str]
    body: Any
    files: list[Json]
    query: dict[str, str]


@dataclass(slots=True)
class _Route:
    method: str
    pattern: re.Pattern[str]
    template: str
    handler: Handler
    auth: bool
    major: str | None  # the major parameter of its rate-limit bucket


class FakeDiscord:
    """The loopback Discord server. ``await server.start()``, then point the bot at
    :attr:`api_base_url` and :attr:`gateway_url` with :attr:`token`; ``await server.close()``.
    """

    def __init__(
        self,
        *,
        token: str = DEFAULT_TOKEN,
        clock: Clock = time.time,
        pace: Clock | None = None,
        heartbeat_interval: int = 41_250,
        bot_name: str = "Dupe",
        recommended_shards: int = 1,
        rate_limit: tuple[int, float] = (50, 1.0),
        global_limit: int = GLOBAL_PER_SECOND,
        limit_clock: Clock = time.monotonic,
        validate: bool = True,
        token_lifetime: float = TOKEN_LIFETIME,
    ) -> None:
        """``token_lifetime``: seconds an interaction's token works on the webhook routes,
        counted on ``clock`` from its dispatch (Discord's 15 minutes unless given: a bench
        shortens it to show tokens running out mid-game)."""
        self.token = token
        self.token_lifetime = token_lifetime
        self.clock = clock
        self.pace: Clock = pace or time.monotonic
        # A test that moves the clock by hand ages interactions with it.
        self._answer_clock = self.pace if clock is time.time else clock
        self.heartbeat_interval = heartbeat_interval
        self.recommended_shards = recommended_shards
        self.rate_limit = rate_limit
        self.limit_clock = limit_clock
        # Discord's global limit and the invalid requests, over every connection
        self.limits = GlobalLimits(limit_clock, global_limit)
        self.validate = validate
        self._counter = itertools.count()
        self.application_id = self.snowflake()
        self.bot_user = User(self.application_id, bot_name, bot=True)
        self.developer = User(self.snowflake(), f"{bot_name} developer")
        self.users: dict[int, User] = {u.id: u for u in (self.bot_user, self.developer)}
        self.guilds: dict[int, Guild] = {}
        self.channels: dict[int, Channel] = {}
        self.messages: dict[int, Message] = {}
        # (author, nonce) → (message id, when): what ``enforce_nonce`` checks against
        self.nonces: dict[tuple[int, str], tuple[int, float]] = {}
        self.nonce_repeats = 0  # posts answered with the earlier message of their nonce
        self.interactions: dict[int, Interaction] = {}
        self._by_token: dict[str, Interaction] = {}
        self.global_commands: list[Json] = []
        self.guild_commands: dict[int, list[Json]] = {}
        self.command_syncs: list[tuple[float, int | None]] = []  # (monotonic, guild or None)
        self.sessions: list[GatewaySession] = []
        self.requests: list[RequestRecord] = []
        self.violations: list[str] = []
        self.unknown_routes: list[str] = []
        self.internal_errors: list[str] = []
        self.gateway_errors: list[str] = []
        self.latencies: list[float] = []
        self.injected_429 = 0
        self.rate_limited = 0  # real 429s: a bucket was exceeded
        self.identifies = 0
        self.resumes = 0
        self._inject_share = 0.0
        self._inject_rng = random.Random(0)
        self._inject_cap = 2
        self._inject_streaks: dict[str, int] = {}
        self._windows: dict[str, tuple[float, int]] = {}
        self._connections: set[_Connection] = set()
        self._changed = asyncio.Event()
        self._routes = self._build_routes()
        self._runner: web.AppRunner | None = None
        self.host = "127.0.0.1"
        self.port = 0

    # --- lifecycle ------------------------------------------------------------------

    async def start(self, host: str = "127.0.0.1", port: int = 0) -> None:
        """Listen on ``host:port`` (0: any free port, then :attr:`port`)."""
        app = web.Application(client_max_size=16 * 1024 * 1024)
        app.router.add_get("/gateway", self._gateway)
        app.router.add_route("*", API_PREFIX + "/{tail:.*}", self._rest)
        runner = web.AppRunner(app, access_log=None, shutdown_timeout=0.5)
        await runner.setup()
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
        self.port = sock.getsockname()[1]
        self.host = host
        await web.SockSite(runner, sock).start()
        self._runner = runner
        log.info("loopback Discord on %s", self.api_base_url)

    async def close(self) -> None:
        """Cut every gateway connection and stop listening."""
        for connection in list(self._connections):
            connection.abort()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    @property
    def api_base_url(self) -> str:
        return f"http://{self.host}:{self.port}{API_PREFIX}"

    @property
    def gateway_url(self) -> str:
        return f"ws://{self.host}:{self.port}/gateway"

    # --- ids and time ------------------------------------------------------------------

    def snowflake(self, *, shard: tuple[int, int] | None = None) -> int:
        """Return a new time-based snowflake (``ms << 22 | counter``); with
        ``shard=(id, count)`` one whose ``(value >> 22) % count == id``."""
        ms = int(self.clock() * 1000) - DISCORD_EPOCH_MS
        if shard is not None:
            shard_id, count = shard
            ms -= (ms - shard_id) % count
        return (ms << 22) | (next(self._counter) & 0x3F_FFFF)

    def iso_now(self) -> str:
        return datetime.fromtimestamp(self.clock(), UTC).isoformat()

    def _notify(self) -> None:
        self._changed.set()
        self._changed = asyncio.Event()

    async def wait_for(self, predicate: Callable[[], bool], *, timeout: float, what: str) -> None:
        """Wait until ``predicate()`` holds (re-checked whenever the gateway or the
        commands change, and every 50 ms); raise ``TimeoutError`` naming ``what`` after
        ``timeout`` seconds of :attr:`pace` (or :data:`WALL_CAP` times that on the wall
        clock, however busy the machine)."""
        deadline = self.pace() + timeout
        wall_deadline = time.monotonic() + timeout * WALL_CAP
        while not predicate():
            left = deadline - self.pace()
            if left <= 0 or time.monotonic() >= wall_deadline:
                raise TimeoutError(f"loopback Discord: {what} did not happen within {timeout} s")
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._changed.wait(), timeout=min(left, 0.05))

    def age(self, interaction: Interaction) -> float:
        """Return the seconds of :attr:`pace` since ``interaction`` was dispatched."""
        return self._answer_clock() - interaction.paced_at

    def gave_up_on(self, interaction: Interaction) -> bool:
        """Return whether Discord has given up on ``interaction`` unanswered (its 3 s are
        over): the member sees “This interaction failed”."""
        return not interaction.responded and self.age(interaction) > INTERACTION_DEADLINE

    # --- the world, for the driver -------------------------------------------------------

    def create_user(self, name: str) -> User:
        user = User(self.snowflake(), name)
        self.users[user.id] = user
        return user

    def create_guild(
        self,
        name: str,
        *,
        shard: tuple[int, int] | None = None,
        channels: Iterable[str] = ("dupe",),
    ) -> Guild:
        """Create a guild with text ``channels``; the bot is a member. ``shard=(id, count)``
        picks an id on that shard. Connected sessions get its GUILD_CREATE."""
        owner = self.create_user(f"{name} owner")
        guild = Guild(
            id=self.snowflake(shard=shard),
            name=name,
            owner_id=owner.id,
            bot_role_id=self.snowflake(),
            joined_at=self.iso_now(),
        )
        for position, channel_name in enumerate(channels):
            channel = Channel(self.snowflake(), guild.id, channel_name, position)
            guild.channels[channel.id] = channel
            self.channels[channel.id] = channel
        self.guilds[guild.id] = guild
        created = guild.create_payload(self._bot_member(guild), available=None)
        for session in self.sessions_for(guild.id):
            session.dispatch("GUILD_CREATE", created)
        return guild

    def create_channel(self, guild: Guild, name: str) -> Channel:
        """Add a text channel to a guild; connected sessions get its CHANNEL_CREATE."""
        channel = Channel(self.snowflake(), guild.id, name, len(guild.channels))
        guild.channels[channel.id] = channel
        self.channels[channel.id] = channel
        for session in self.sessions_for(guild.id):
            session.dispatch("CHANNEL_CREATE", channel.payload())
        return channel

    def add_member(self, guild: Guild, name: str, *, manage_guild: bool = False) -> Member:
        """Add a member (no event: the bot has no members intent)."""
        user = self.create_user(name)
        permissions = EVERYONE_PERMISSIONS | (MANAGE_GUILD if manage_guild else 0)
        member = Member(user, guild.id, self.iso_now(), permissions=permissions)
        guild.members[user.id] = member
        return member

    def _bot_member(self, guild: Guild) -> Member:
        return Member(self.bot_user, guild.id, guild.joined_at, roles=[guild.bot_role_id])

    def channel_messages(self, channel_id: int, *, viewer: int | None = None) -> list[Message]:
        """Return a channel's messages that ``viewer`` sees (None: public ones), oldest first."""
        return [
            m
            for m in sorted(self.messages.values(), key=lambda m: m.id)
            if m.channel_id == channel_id and m.visible_to(viewer)
        ]

    def private_messages(self, user_id: int) -> list[Message]:
        """Return the ephemeral messages only ``user_id`` sees, oldest first."""
        return [
            m
            for m in sorted(self.messages.values(), key=lambda m: m.id)
            if m.ephemeral_to == user_id and not m.deleted
        ]

    def commands_for(self, guild_id: int) -> list[Json]:
        """Return the commands a member of the guild sees (guild ones first)."""
        return [*self.guild_commands.get(guild_id, []), *self.global_commands]

    # --- interactions --------------------------------------------------------------------

    def _base_interaction(
        self,
        kind: int,
        channel_id: int,
        user_id: int,
        data: Json,
        *,
        message: Message | None = None,
    ) -> Interaction:
        channel = self.channels.get(channel_id)
        if channel is None:
            raise LookupError(f"no channel {channel_id}")
        guild = self.guilds[channel.guild_id]
        member = guild.members.get(user_id)
        if member is None:
            raise LookupError(f"user {user_id} is not a member of {guild.name!r}")
        interaction = Interaction(
            id=self.snowflake(),
            token="aW50ZXJhY3Rpb246" + secrets.token_urlsafe(48),
            type=kind,
            guild_id=guild.id,
            channel_id=channel_id,
            user_id=user_id,
            data=data,
            dispatched_at=self.clock(),
            paced_at=self._answer_clock(),
            source_message_id=message.id if message is not None else None,
            answered=asyncio.get_running_loop().create_future(),
        )
        bot_permissions = EVERYONE_PERMISSIONS | BOT_PERMISSIONS
        payload: Json = {
            "id": str(interaction.id),
            "application_id": str(self.application_id),
            "type": kind,
            "data": data,
            "guild": {"id": str(guild.id), "locale": "en-US", "features": []},
            "guild_id": str(guild.id),
            "channel_id": str(channel_id),
            "channel": {**channel.payload(), "permissions": str(member.permissions)},
            "member": member.payload(with_permissions=True),
            "token": interaction.token,
            "version": 1,
            "app_permissions": str(bot_permissions),
            "locale": "en-US",
            "guild_locale": "en-US",
            "entitlements": [],
            "entitlement_sku_ids": [],
            "authorizing_integration_owners": {"0": str(guild.id)},
            "context": 0,
            "attachment_size_limit": 10 * 1024 * 1024,
        }
        if message is not None:
            payload["message"] = message.payload()
        interaction.payload = payload
        self.interactions[interaction.id] = interaction
        self._by_token[interaction.token] = interaction
        return interaction

    def command_interaction(
        self, channel_id: int, user_id: int, command: str, options: dict[str, Any]
    ) -> Interaction:
        """Build (not dispatch) a slash command: ``command`` is ``"dupe start"`` (a command,
        then its group and subcommand names); ``options`` are checked against the synced
        command's options (type, choices, required)."""
        channel = self.channels[channel_id]
        names = command.split()
        found = [c for c in self.commands_for(channel.guild_id) if c["name"] == names[0]]
        if not found or found[0].get("type", 1) != 1:
            synced = sorted(c["name"] for c in self.commands_for(channel.guild_id))
            raise LookupError(f"no slash command /{names[0]} here (synced: {synced})")
        root = found[0]
        node = root
        for name in names[1:]:
            children = [o for o in node.get("options") or [] if o.get("type") in (1, 2)]
            child = next((o for o in children if o["name"] == name), None)
            if child is None:
                raise LookupError(
                    f"/{command}: no subcommand {name!r} (has {[o['name'] for o in children]})"
                )
            node = child
        if any(o.get("type") in (1, 2) for o in node.get("options") or []):
            raise LookupError(f"/{command} needs a subcommand")
        leaf_options = _command_options(command, node, options)
        data: Json = {"id": str(root["id"]), "name": root["name"], "type": 1}
        if root.get("guild_id") is not None:
            data["guild_id"] = str(root["guild_id"])
        tree: list[Json] = leaf_options
        for depth in range(len(names) - 1, 0, -1):
            kind = 1 if depth == len(names) - 1 else 2
            tree = [{"name": names[depth], "type": kind, "options": tree}]
        if tree:
            data["options"] = tree
        return self._base_interaction(APPLICATION_COMMAND, channel_id, user_id, data)

    def component_interaction(
        self, channel_id: int, user_id: int, message_id: int, custom_id: str
    ) -> Interaction:
        """Build (not dispatch) a click on the enabled button ``custom_id`` of a message the
        user sees; the payload carries the whole message as it is now."""
        message = self.messages.get(message_id)
        if message is None or message.channel_id != channel_id or not message.visible_to(user_id):
            raise LookupError(
                f"user {user_id} sees no message {message_id} in channel {channel_id}"
            )
        button = next(
            (c for c in _walk(message.components) if c.get("custom_id") == custom_id), None
        )
        if button is None:
            raise LookupError(f"message {message_id} has no component {custom_id!r}")
        if button.get("disabled"):
            raise LookupError(f"the button {custom_id!r} is disabled")
        data = {"custom_id": custom_id, "component_type": button.get("type", 2)}
        if "id" in button:
            data["id"] = button["id"]
        return self._base_interaction(MESSAGE_COMPONENT, channel_id, user_id, data, message=message)

    def dispatch(self, interaction: Interaction) -> None:
        """Send INTERACTION_CREATE to the session(s) of the guild's shard (buffered for
        RESUME while a session is disconnected); the 3 s deadline starts now."""
        sessions = self.sessions_for(interaction.guild_id)
        if not sessions:
            raise LookupError(
                f"no gateway session carries guild {interaction.guild_id} "
                f"({len(self.sessions)} session(s) in all): is the bot connected?"
            )
        interaction.dispatched_at = self.clock()
        interaction.paced_at = self._answer_clock()
        interaction.sent_at = time.monotonic()
        for session in sessions:
            session.dispatch("INTERACTION_CREATE", interaction.payload)

    def unanswered(self) -> list[Interaction]:
        """Return the dispatched interactions that got no callback ("This interaction failed")."""
        return [
            i
            for i in self.interactions.values()
            if i.sent_at is not None and not i.responded and not i.typed_again
        ]

    def problems(self) -> list[str]:
        """Return everything a clean run must not have: invalid bodies, unknown routes,
        errors of this server, gateway protocol errors, unanswered interactions."""
        return [
            *self.violations,
            *(f"unknown route {r}" for r in self.unknown_routes),
            *(f"loopback server error: {e}" for e in self.internal_errors),
            *(f"gateway: {e}" for e in self.gateway_errors),
            *(f"unanswered {i.describe()}" for i in self.unanswered()),
        ]

    # --- failures on demand ---------------------------------------------------------------

    def inject_429(self, share: float, seed: int = 0, *, max_in_a_row: int = 2) -> None:
        """Answer that share of REST requests (from now on, any route) with a 429, drawn
        from ``random.Random(seed)``. One request (method and path) is refused at most
        ``max_in_a_row`` times in a row: after its retry wait a bucket has room again, and
        discord.py gives up on a request after 5 tries."""
        if not 0 <= share <= 1:
            raise ValueError("share must lie between 0 and 1")
        self._inject_share = share
        self._inject_rng = random.Random(seed)
        self._inject_cap = max_in_a_row
        self._inject_streaks = {}

    def _inject_now(self, method: str, path: str) -> bool:
        if not self._inject_share:
            return False
        key = f"{method} {path}"
        streak = self._inject_streaks.get(key, 0)
        inject = self._inject_rng.random() < self._inject_share and streak < self._inject_cap
        self._inject_streaks[key] = streak + 1 if inject else 0
        return inject

    def drop_gateway(self, shard: int | None = None, *, resumable: bool = True) -> int:
        """Cut the connection(s) of every session (or of shard ``shard``) without a close
        frame; with ``resumable=False`` a RESUME then gets INVALID_SESSION. Return how many
        connections were cut."""
        dropped = 0
        for session in self.sessions:
            if shard is not None and (session.shard is None or session.shard[0] != shard):
                continue
            if not resumable:
                session.invalid = True
            if session.connection is not None:
                session.connection.abort()
                session.connection = None
                dropped += 1
        self._notify()
        return dropped

    # --- the gateway ---------------------------------------------------------------------

    def sessions_for(self, guild_id: int) -> list[GatewaySession]:
        """Return the sessions that receive the guild's events (connected or resumable)."""
        return [s for s in self.sessions if not s.invalid and s.receives(guild_id)]

    def live_sessions(self) -> list[GatewaySession]:
        return [s for s in self.sessions if not s.invalid and s.connection is not None]

    async def _gateway(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(max_msg_size=0, autoping=True)
        await ws.prepare(request)
        connection = _Connection(ws, request.transport)
        self._connections.add(connection)
        connection.send({"op": HELLO, "d": {"heartbeat_interval": self.heartbeat_interval}})
        session: GatewaySession | None = None
        try:
            async for message in ws:
                if message.type is not WSMsgType.TEXT:
                    if message.type is WSMsgType.BINARY:
                        self._gateway_error(connection, 4002, "a binary frame (expected JSON text)")
                    continue
                try:
                    payload = json.loads(message.data)
                    op = payload["op"]
                    data = payload.get("d")
                except (ValueError, KeyError, TypeError):
                    self._gateway_error(connection, 4002, f"undecodable payload {message.data!r}")
                    continue
                if op == HEARTBEAT:
                    connection.send({"op": HEARTBEAT_ACK})
                elif op == IDENTIFY:
                    if session is not None:
                        self._gateway_error(connection, 4005, "IDENTIFY twice on one connection")
                        continue
                    session = self._identify(connection, data)
                elif op == RESUME:
                    if session is not None:
                        self._gateway_error(connection, 4005, "RESUME on an identified connection")
                        continue
                    session = self._resume(connection, data)
                elif op in (PRESENCE, VOICE, REQUEST_MEMBERS):
                    if session is None:
                        self._gateway_error(connection, 4003, f"op {op} before IDENTIFY")
                    else:
                        log.debug("gateway op %s ignored: %s", op, data)
                else:
                    self._gateway_error(connection, 4001, f"unknown opcode {op}")
        finally:
            connection.closed = True
            connection.writer.cancel()
            self._connections.discard(connection)
            if session is not None and session.connection is connection:
                session.connection = None
            self._notify()
        return ws

    def _gateway_error(self, connection: _Connection, code: int, problem: str) -> None:
        log.error("LOOPBACK GATEWAY: %s: closing with %s", problem, code)
        self.gateway_errors.append(f"{problem} (closed with {code})")
        connection.close(code)

    def _identify(self, connection: _Connection, data: Any) -> GatewaySession | None:
        if not isinstance(data, dict) or data.get("token") != self.token:
            self._gateway_error(connection, 4004, "IDENTIFY with a wrong token")
            return None
        intents = data.get("intents")
        if not isinstance(intents, int):
            self._gateway_error(connection, 4013, "IDENTIFY without intents")
            return None
        shard: tuple[int, int] | None = None
        raw_shard = data.get("shard")
        if raw_shard is not None:
            if (
                not isinstance(raw_shard, list)
                or len(raw_shard) != 2
                or not all(isinstance(x, int) for x in raw_shard)
                or not 0 <= raw_shard[0] < raw_shard[1]
            ):
                self._gateway_error(connection, 4010, f"invalid shard {raw_shard!r}")
                return None
            shard = (raw_shard[0], raw_shard[1])
        # A new IDENTIFY on a shard abandons that shard's disconnected sessions.
        for old in self.sessions:
            if old.shard == shard and old.connection is None:
                old.invalid = True
        session = GatewaySession(
            id=secrets.token_hex(16), shard=shard, intents=intents, identified_at=time.monotonic()
        )
        session.connection = connection
        self.sessions.append(session)
        self.identifies += 1
        guilds = [g for g in self.guilds.values() if session.receives(g.id)]
        ready: Json = {
            "v": 10,
            "user": {**self.bot_user.payload(), "verified": True, "mfa_enabled": False},
            "guilds": [{"id": str(g.id), "unavailable": True} for g in guilds],
            "session_id": session.id,
            "session_type": "normal",
            "resume_gateway_url": self.gateway_url,
            "application": {"id": str(self.application_id), "flags": 0},
            "private_channels": [],
            "relationships": [],
            "presences": [],
            "guild_join_requests": [],
            "geo_ordered_rtc_regions": [],
            "user_settings": {},
            "_trace": ["loopback-discord"],
        }
        if shard is not None:
            ready["shard"] = list(shard)
        session.dispatch("READY", ready)
        for guild in guilds:
            session.dispatch(
                "GUILD_CREATE", guild.create_payload(self._bot_member(guild), available=True)
            )
        log.info("gateway: session %s identified (shard %s)", session.id[:8], shard)
        self._notify()
        return session

    def _resume(self, connection: _Connection, data: Any) -> GatewaySession | None:
        if not isinstance(data, dict) or data.get("token") != self.token:
            self._gateway_error(connection, 4004, "RESUME with a wrong token")
            return None
        session = next((s for s in self.sessions if s.id == data.get("session_id")), None)
        seq = data.get("seq")
        if session is None or not isinstance(seq, int) or not session.can_resume_from(seq):
            log.info("gateway: RESUME of %s at %s refused", data.get("session_id"), seq)
            connection.send({"op": INVALID_SESSION, "d": False})
            return None
        if session.connection is not None and session.connection is not connection:
            session.connection.abort()
        session.connection = connection
        session.resumes += 1
        self.resumes += 1
        for sent_seq, frame in session.buffer:
            if sent_seq > seq:
                connection.send_frame(frame)
        session.dispatch("RESUMED", {"_trace": ["loopback-discord"]})
        log.info("gateway: session %s resumed from %s to %s", session.id[:8], seq, session.seq)
        self._notify()
        return session

    # --- REST: plumbing ----------------------------------------------------------------

    def _build_routes(self) -> list[_Route]:
        webhook_message = "/webhooks/{app}/{token}/messages/{message}"
        channel_message = "/channels/{channel}/messages/{message}"
        table: list[tuple[str, str, Handler]] = [
            ("GET", "/users/@me", self._get_me),
            ("GET", "/oauth2/applications/@me", self._get_application),
            ("GET", "/gateway/bot", self._get_gateway_bot),
            ("GET", "/gateway", self._get_gateway),
            ("PUT", "/applications/{app}/commands", self._put_commands),
            ("GET", "/applications/{app}/commands", self._get_commands),
            ("PUT", "/applications/{app}/guilds/{guild}/commands", self._put_commands),
            ("GET", "/applications/{app}/guilds/{guild}/commands", self._get_commands),
            ("POST", "/interactions/{interaction}/{token}/callback", self._callback),
            ("GET", webhook_message, self._webhook_message),
            ("PATCH", webhook_message, self._webhook_message),
            ("DELETE", webhook_message, self._webhook_message),
            ("POST", "/webhooks/{app}/{token}", self._followup),
            ("POST", "/channels/{channel}/messages", self._create_message),
            ("GET", channel_message, self._channel_message),
            ("PATCH", channel_message, self._channel_message),
            ("DELETE", channel_message, self._channel_message),
            ("GET", "/channels/{channel}", self._get_channel),
        ]
        routes = []
        for method, template, handler in table:
            regex = re.sub(r"\{(\w+)\}", r"(?P<\1>[^/]+)", template)
            # Interaction tokens authenticate themselves; everything else needs the bot token.
            auth = not template.startswith(("/interactions/", "/webhooks/", "/gateway"))
            params = re.findall(r"\{(\w+)\}", template)
            major = next(
                (p for p in ("channel", "guild", "token", "interaction") if p in params), None
            )
            routes.append(_Route(method, re.compile(f"^{regex}$"), template, handler, auth, major))
        return routes

    async def _read_body(self, request: web.Request) -> tuple[Any, list[Json]]:
        """Return the JSON body (or a multipart's ``payload_json``) and the uploaded files."""
        if request.content_type.startswith("multipart/"):
            body: Any = None
            files: list[Json] = []
            reader = await request.multipart()
            while True:
                part = await reader.next()
                if part is None:
                    break
                if not isinstance(part, BodyPartReader):
                    continue
                data = await part.read()
                name = part.name or ""
                if name == "payload_json":
                    body = orjson.loads(data)
                else:
                    files.append(
                        {"field": name, "filename": part.filename or name, "size": len(data)}
                    )
            return body, files
        raw = await request.read()
        if not raw:
            return None, []
        return orjson.loads(raw), []

    def _rate_headers(self, bucket: str, *, count: bool = True) -> tuple[dict[str, str], bool]:
        """Count a request in its bucket's window; return its headers and whether the
        bucket is exceeded."""
        limit, window = self.rate_limit
        now = self.limit_clock()
        start, used = self._windows.get(bucket, (now, 0))
        if now - start >= window:
            start, used = now, 0
        if count:
            used += 1
        self._windows[bucket] = (start, used)
        reset_after = max(start + window - now, 0.001)
        headers = {
            "X-RateLimit-Limit": str(limit),
            "X-RateLimit-Remaining": str(max(limit - used, 0)),
            "X-RateLimit-Reset": f"{time.time() + reset_after:.3f}",
            "X-RateLimit-Reset-After": f"{reset_after:.3f}",
            "X-RateLimit-Bucket": hashlib.sha1(bucket.split("|")[0].encode()).hexdigest()[:16],
        }
        return headers, used > limit

    @staticmethod
    def _json(status: int, payload: Any, headers: dict[str, str] | None = None) -> web.Response:
        all_headers = dict(headers or {})
        if status == 204 or payload is None:
            return web.Response(status=204, headers=all_headers)
        all_headers["Content-Type"] = "application/json"
        return web.Response(status=status, body=_dumps(payload), headers=all_headers)

    def _too_many(self, bucket_headers: dict[str, str], retry_after: float) -> web.Response:
        headers = {
            **bucket_headers,
            "Retry-After": f"{retry_after:g}",
            "X-RateLimit-Remaining": "0",
            "X-RateLimit-Reset": f"{time.time() + retry_after:.3f}",
            "X-RateLimit-Reset-After": f"{retry_after:g}",
            "X-RateLimit-Scope": "user",
            "Via": "1.1 google",  # discord.py retries a 429 only when it came through the proxy
        }
        body = {
            "message": "You are being rate limited.",
            "retry_after": retry_after,
            "global": False,
        }
        return self._json(429, body, headers)

    def _too_many_global(self, retry_after: float) -> web.Response:
        """Discord's answer past the global limit: no bucket headers, the global ones."""
        headers = {
            "Retry-After": str(math.ceil(retry_after)),
            "X-RateLimit-Global": "true",
            "X-RateLimit-Scope": "global",
            "Via": "1.1 google",  # discord.py retries a 429 only when it came through the proxy
        }
        body = {
            "message": "You are being rate limited.",
            "retry_after": round(retry_after, 3),
            "global": True,
            "code": 0,
        }
        return self._json(429, body, headers)

    async def _rest(self, request: web.Request) -> web.Response:
        try:
            response = await self._answer(request)
            self.limits.answered(response.status)
            return response
        finally:
            self._notify()  # wake whoever waits for what the bot does

    async def _answer(self, request: web.Request) -> web.Response:
        method = request.method
        path = request.path[len(API_PREFIX) :] or "/"
        record = RequestRecord(method, path, None, at=time.monotonic())
        self.requests.append(record)
        try:
            body, files = await self._read_body(request)
        except (ValueError, UnicodeDecodeError) as error:
            problem = f"{method} {path}: the body is not JSON: {error}"
            self.violations.append(problem)
            record.status = 400
            return self._json(
                400, {"message": "The request body contains invalid JSON.", "code": 50109}
            )
        record.body = body
        route, args = self._match(method, path)
        if route is None:
            known = any(r.pattern.match(path) for r in self._routes)
            what = f"{method} {path}"
            log.error("LOOPBACK DISCORD: UNKNOWN ROUTE %s (body %s)", what, json.dumps(body)[:300])
            self.unknown_routes.append(what)
            record.status = 405 if known else 404
            if known:
                return self._json(405, {"message": "405: Method Not Allowed", "code": 0})
            return self._json(404, {"message": "404: Not Found", "code": 0})
        major = args.get(route.major, "") if route.major else ""
        bucket = f"{route.method} {route.template}|{major}"
        if self._inject_now(method, path):
            self.injected_429 += 1
            record.status = 429
            record.injected_429 = True
            headers, _ = self._rate_headers(bucket, count=False)
            return self._too_many(headers, 0.05)
        if route.auth and request.headers.get("Authorization") != f"Bot {self.token}":
            record.status = 401
            return self._json(401, {"message": "401: Unauthorized", "code": 0})
        # Requests made with an interaction's token are not counted (the callback, its
        # webhook routes); every other one is, per the token it was made with.
        if not route.template.startswith(("/interactions/", "/webhooks/")):
            retry_after = self.limits.admit(request.headers.get("Authorization", ""))
            if retry_after is not None:
                record.status = 429
                return self._too_many_global(retry_after)
        headers, exceeded = self._rate_headers(bucket)
        if exceeded:
            self.rate_limited += 1
            record.status = 429
            return self._too_many(headers, float(headers["X-RateLimit-Reset-After"]))
        if method in ("GET", "DELETE") and body is not None:
            self.violations.append(f"{method} {path} with a body")
        call = _Request(method, path, args, body, files, dict(request.query))
        try:
            status, payload = await route.handler(call)
        except DiscordError as error:
            record.status = error.status
            log.info("%s %s -> %s %s", method, path, error.status, error.message)
            return self._json(error.status, error.payload(), headers)
        except Exception as error:  # a bug of this fake: answer 500 and say so
            log.exception("LOOPBACK DISCORD: error answering %s %s", method, path)
            self.internal_errors.append(f"{method} {path}: {error!r}")
            record.status = 500
            return self._json(500, {"message": "500: Internal Server Error", "code": 0}, headers)
        record.status = status
        return self._json(status, payload, headers)

    def _match(self, method: str, path: str) -> tuple[_Route | None, dict[str, str]]:
        for route in self._routes:
            if route.method != method:
                continue
            match = route.pattern.match(path)
            if match is not None:
                return route, match.groupdict()
        return None, {}

    def _require_valid(self, request: _Request) -> None:
        """Validate the body against the spec and the extra rules: 400 (50035) if not."""
        if not self.validate:
            return
        try:
            problems = check_request(request.method, request.path, request.body)
        except AssertionError as error:
            problems = [f"{request.method} {request.path}: {error}"]
        if problems:
            for problem in problems:
                log.error("LOOPBACK DISCORD: INVALID BODY: %s", problem)
            self.violations.extend(problems)
            raise invalid_form_body(problems)

    def _check_app(self, request: _Request) -> None:
        if request.args.get("app") != str(self.application_id):
            raise DiscordError(404, 10002, "Unknown Application")

    # --- REST: identity and commands -------------------------------------------------------

    async def _get_me(self, request: _Request) -> tuple[int, Any]:
        return 200, {**self.bot_user.payload(), "verified": True, "mfa_enabled": False}

    async def _get_application(self, request: _Request) -> tuple[int, Any]:
        bot = self.bot_user.payload()
        owner = self.developer.payload()
        return 200, {
            "id": str(self.application_id),
            "name": self.bot_user.name,
            "icon": None,
            "description": "",
            "summary": "",
            "type": None,
            "bot": bot,
            "bot_public": True,
            "bot_require_code_grant": False,
            "verify_key": "0" * 64,
            "owner": owner,
            "team": None,
            "flags": 0,
            "interactions_endpoint_url": None,
            "approximate_guild_count": len(self.guilds),
            "redirect_uris": [],
            "tags": [],
        }

    async def _get_gateway(self, request: _Request) -> tuple[int, Any]:
        return 200, {"url": self.gateway_url}

    async def _get_gateway_bot(self, request: _Request) -> tuple[int, Any]:
        return 200, {
            "url": self.gateway_url,
            "shards": self.recommended_shards,
            "session_start_limit": {
                "total": 1000,
                "remaining": 1000 - self.identifies,
                "reset_after": 86_400_000,
                "max_concurrency": 1,
            },
        }

    async def _put_commands(self, request: _Request) -> tuple[int, Any]:
        self._check_app(request)
        guild_id: int | None = None
        if "guild" in request.args:
            guild_id = int(request.args["guild"])
            if guild_id not in self.guilds:
                raise DiscordError(404, 10004, "Unknown Guild")
        self._require_valid(request)
        old = self.global_commands if guild_id is None else self.guild_commands.get(guild_id, [])
        ids = {(c["name"], c.get("type", 1)): c["id"] for c in old}
        stored = []
        for command in request.body:
            kind = command.get("type", 1)
            entry: Json = {
                "description": "",
                "options": [],
                "default_member_permissions": None,
                "nsfw": False,
                **command,
                "id": ids.get((command["name"], kind)) or str(self.snowflake()),
                "application_id": str(self.application_id),
                "type": kind,
                "version": str(self.snowflake()),
            }
            if guild_id is not None:
                entry["guild_id"] = str(guild_id)
            stored.append(entry)
        if guild_id is None:
            self.global_commands = stored
        else:
            self.guild_commands[guild_id] = stored
        self.command_syncs.append((time.monotonic(), guild_id))
        self._notify()
        return 200, stored

    async def _get_commands(self, request: _Request) -> tuple[int, Any]:
        self._check_app(request)
        if "guild" in request.args:
            return 200, self.guild_commands.get(int(request.args["guild"]), [])
        return 200, self.global_commands

    # --- REST: interactions -------------------------------------------------------------

    async def _callback(self, request: _Request) -> tuple[int, Any]:
        interaction = self.interactions.get(_int(request.args["interaction"]))
        if interaction is None or interaction.token != request.args["token"]:
            raise unknown_interaction()
        if interaction.responded:
            raise DiscordError(400, 40060, "Interaction has already been acknowledged.")
        if self.age(interaction) > INTERACTION_DEADLINE:
            log.warning("LOOPBACK DISCORD: late callback for %s", interaction.describe())
            raise unknown_interaction()
        self._require_valid(request)
        body = request.body
        kind = body.get("type")
        data = body.get("data") or {}
        message: Message | None = None
        if kind == CHANNEL_MESSAGE:
            message = self._interaction_message(interaction, data, request.files)
            interaction.original_message_id = message.id
        elif kind == DEFERRED_CHANNEL_MESSAGE:
            flags = LOADING | (int(data.get("flags") or 0) & EPHEMERAL)
            message = self._interaction_message(interaction, {"flags": flags}, [])
            interaction.original_message_id = message.id
        elif kind in (DEFERRED_UPDATE, UPDATE_MESSAGE):
            # (a form opened from a message's component may update that message too)
            components = (MESSAGE_COMPONENT, MODAL_SUBMIT)
            if interaction.type not in components or interaction.source_message_id is None:
                raise invalid_form_body(
                    [f"callback type {kind} is only for component interactions"]
                )
            source = self.messages.get(interaction.source_message_id)
            if source is None or source.deleted:
                raise unknown_message()
            interaction.original_message_id = source.id
            if kind == UPDATE_MESSAGE:
                self._edit(source, data, request.files)
                message = source
        elif kind in (AUTOCOMPLETE_RESULT, MODAL, PONG):
            pass
        else:
            raise invalid_form_body([f"unknown interaction callback type {kind!r}"])
        interaction.callback_type = kind
        interaction.callback_at = time.monotonic()
        if interaction.sent_at is not None:
            interaction.latency = interaction.callback_at - interaction.sent_at
            self.latencies.append(interaction.latency)
        if interaction.answered is not None and not interaction.answered.done():
            interaction.answered.set_result(interaction)
        if request.query.get("with_response", "").lower() not in ("1", "true"):
            return 204, None
        original = self.messages.get(interaction.original_message_id or 0)
        response: Json = {
            "interaction": {
                "id": str(interaction.id),
                "type": interaction.type,
                "activity_instance_id": None,
                "response_message_id": str(original.id) if original else None,
                "response_message_loading": bool(original and original.flags & LOADING),
                "response_message_ephemeral": bool(original and original.ephemeral),
            }
        }
        if message is not None and kind in (CHANNEL_MESSAGE, UPDATE_MESSAGE):
            response["resource"] = {"type": kind, "message": message.payload()}
        return 200, response

    def _interaction_message(
        self, interaction: Interaction, data: Json, files: list[Json]
    ) -> Message:
        user = self.users[interaction.user_id]
        flags = int(data.get("flags") or 0)
        metadata: Json = {
            "id": str(interaction.id),
            "type": interaction.type,
            "user": user.payload(),
            "authorizing_integration_owners": {"0": str(interaction.guild_id)},
        }
        if interaction.source_message_id is not None:
            metadata["interacted_message_id"] = str(interaction.source_message_id)
        message = Message(
            id=self.snowflake(),
            channel_id=interaction.channel_id,
            guild_id=interaction.guild_id,
            author=self.bot_user,
            timestamp=self.iso_now(),
            flags=flags & (EPHEMERAL | LOADING | _SETTABLE_FLAGS),
            type=20 if interaction.type == APPLICATION_COMMAND else 0,
            ephemeral_to=interaction.user_id if flags & EPHEMERAL else None,
            webhook_id=self.application_id,
            interaction_metadata=metadata,
        )
        self._fill(message, data, files)
        self.messages[message.id] = message
        return message

    def _fill(self, message: Message, data: Json, files: list[Json]) -> None:
        if "content" in data:
            message.content = data["content"] or ""
        if "embeds" in data:
            message.embeds = list(data["embeds"] or [])
        elif "embed" in data:
            message.embeds = [data["embed"]] if data["embed"] else []
        if "components" in data:
            message.components = list(data["components"] or [])
        if "attachments" in data:
            keep = {str(a.get("id")) for a in data["attachments"] or []}
            message.attachments = [a for a in message.attachments if a["id"] in keep]
        for upload in files:
            attachment_id = str(self.snowflake())
            url = f"http://{self.host}:{self.port}/attachments/{attachment_id}/{upload['filename']}"
            message.attachments.append(
                {
                    "id": attachment_id,
                    "filename": upload["filename"],
                    "size": upload["size"],
                    "url": url,
                    "proxy_url": url,
                }
            )

    def _edit(self, message: Message, data: Json, files: list[Json]) -> None:
        self._fill(message, data, files)
        if data.get("flags") is not None:
            kept = message.flags & EPHEMERAL
            message.flags = kept | (int(data["flags"]) & _SETTABLE_FLAGS)
        message.flags &= ~LOADING
        message.edited_timestamp = self.iso_now()
        message.edits += 1

    def _token_interaction(self, request: _Request) -> Interaction:
        self._check_webhook_app(request)
        interaction = self._by_token.get(request.args["token"])
        if interaction is None:
            raise invalid_webhook_token()
        if self.clock() - interaction.dispatched_at > self.lifetime(interaction):
            log.info("LOOPBACK DISCORD: expired token of %s used", interaction.describe())
            raise invalid_webhook_token()
        return interaction

    def lifetime(self, interaction: Interaction) -> float:
        """Return how long ``interaction``'s token works: :attr:`token_lifetime`."""
        return self.token_lifetime

    def _check_webhook_app(self, request: _Request) -> None:
        if request.args.get("app") != str(self.application_id):
            raise unknown_webhook()

    async def _webhook_message(self, request: _Request) -> tuple[int, Any]:
        interaction = self._token_interaction(request)
        wanted = request.args["message"]
        if wanted == "@original":
            if interaction.original_message_id is None:
                raise unknown_message()
            message_id = interaction.original_message_id
        else:
            message_id = _int(wanted)
            if (
                message_id != interaction.original_message_id
                and message_id not in interaction.followup_ids
            ):
                raise unknown_message()
        message = self.messages.get(message_id)
        if message is None or message.deleted:
            raise unknown_message()
        if request.method == "GET":
            return 200, message.payload()
        if request.method == "DELETE":
            message.deleted = True
            return 204, None
        self._require_valid(request)
        self._edit(message, request.body, request.files)
        return 200, message.payload()

    async def _followup(self, request: _Request) -> tuple[int, Any]:
        interaction = self._token_interaction(request)
        if not interaction.responded:
            raise unknown_webhook()
        self._require_valid(request)
        body = request.body
        original = self.messages.get(interaction.original_message_id or 0)
        if original is not None and original.flags & LOADING and not original.deleted:
            self._edit(original, body, request.files)  # the first followup completes "thinking"
            message = original
        else:
            message = self._interaction_message(interaction, body, request.files)
            message.flags &= ~LOADING
            interaction.followup_ids.append(message.id)
        if request.query.get("wait", "").lower() in ("1", "true"):
            return 200, message.payload()
        return 204, None

    # --- REST: channels -------------------------------------------------------------------

    def _channel(self, request: _Request) -> Channel:
        channel = self.channels.get(_int(request.args["channel"]))
        if channel is None:
            raise unknown_channel()
        return channel

    async def _get_channel(self, request: _Request) -> tuple[int, Any]:
        return 200, self._channel(request).payload()

    async def _create_message(self, request: _Request) -> tuple[int, Any]:
        channel = self._channel(request)
        self._require_valid(request)
        body = request.body
        nonce = None if body.get("nonce") is None else str(body["nonce"])
        if nonce is not None and body.get("enforce_nonce"):
            # Discord: "If true and nonce is present, it will be checked for uniqueness in
            # the past few minutes. If another message was created by the same author with
            # the same nonce, that message will be returned and no new message will be
            # created." (Create Message, enforce_nonce)
            earlier = self.nonces.get((self.bot_user.id, nonce))
            if earlier is not None and time.monotonic() - earlier[1] < NONCE_WINDOW:
                found = self.messages.get(earlier[0])
                if found is not None and not found.deleted:
                    self.nonce_repeats += 1
                    return 200, found.payload()
        message = Message(
            id=self.snowflake(),
            channel_id=channel.id,
            guild_id=channel.guild_id,
            author=self.bot_user,
            timestamp=self.iso_now(),
            flags=int(body.get("flags") or 0) & _SETTABLE_FLAGS,
        )
        self._fill(message, body, request.files)
        if not (message.content or message.embeds or message.components or message.attachments):
            raise DiscordError(400, 50006, "Cannot send an empty message")
        self.messages[message.id] = message
        if nonce is not None:
            message.nonce = nonce
            if body.get("enforce_nonce"):
                self.nonces[self.bot_user.id, nonce] = (message.id, time.monotonic())
        return 200, message.payload()

    async def _channel_message(self, request: _Request) -> tuple[int, Any]:
        channel = self._channel(request)
        message = self.messages.get(_int(request.args["message"]))
        # Ephemeral messages exist only for their user: the channel routes never see them.
        if message is None or message.channel_id != channel.id or not message.visible_to(None):
            raise unknown_message()
        if request.method == "GET":
            return 200, message.payload()
        if message.author.id != self.bot_user.id:
            raise DiscordError(403, 50005, "Cannot edit a message authored by another user")
        if request.method == "DELETE":
            message.deleted = True
            return 204, None
        self._require_valid(request)
        self._edit(message, request.body, request.files)
        return 200, message.payload()


# --- helpers ----------------------------------------------------------------------------


def _int(value: str) -> int:
    try:
        return int(value)
    except ValueError:
        raise DiscordError(404, 0, "404: Not Found") from None


def _walk(components: list[Json]) -> Iterator[Json]:
    for component in components:
        yield component
        yield from _walk(component.get("components") or [])


_OPTION_TYPES: dict[int, tuple[type, ...]] = {
    3: (str,),  # STRING
    4: (int,),  # INTEGER
    5: (bool,),  # BOOLEAN
    10: (int, float),  # NUMBER
}


def _command_options(command: str, node: Json, given: dict[str, Any]) -> list[Json]:
    """Return the option payloads for ``given``, checked as Discord's client would."""
    specs = {o["name"]: o for o in node.get("options") or []}
    unknown = sorted(set(given) - set(specs))
    if unknown:
        raise LookupError(f"/{command} has no option(s) {unknown} (has {sorted(specs)})")
    missing = [n for n, o in specs.items() if o.get("required") and n not in given]
    if missing:
        raise LookupError(f"/{command} needs the option(s) {missing}")
    options = []
    for name, value in given.items():
        spec = specs[name]
        kind = spec["type"]
        types = _OPTION_TYPES.get(kind)
        if types is None:
            raise LookupError(f"/{command} {name}: option type {kind} is not supported here")
        if (isinstance(value, bool) and kind != 5) or not isinstance(value, types):
            raise TypeError(f"/{command} {name}: expects option type {kind}, got {value!r}")
        choices = spec.get("choices")
        if choices and value not in [c["value"] for c in choices]:
            allowed = [c["value"] for c in choices]
            raise ValueError(f"/{command} {name}: {value!r} is not one of the choices {allowed}")
        options.append({"name": name, "type": kind, "value": value})
    return options
