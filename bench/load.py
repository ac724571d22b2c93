"""The real bot process under load: N concurrent Dupe games over the loopback Discord.

    .venv/bin/python bench/load.py --games 100
    .venv/bin/python bench/load.py --games 1000 --tricks 13 --restart
    .venv/bin/python bench/load.py --games 1000 --tricks 4 --think 5 --stagger 60 \\
        --slices 2 --postgresql --no-pin --restart

The loopback Discord (``tests/loopback``) runs in this process; the bot runs as a
subprocess (``python -m bot`` through :class:`BotProcess`) on a fresh database, with its
default table-edit interval (1.5 s) and turn time (2 minutes). N guilds each get a table
of four scripted members: ``/dupe start computers:none``, Join ×3, Start, and each member
opens My hand. Then every member plays in its own task, acting as soon as the bot has
answered its previous action and its private hand offers something to press (a card; as
taker, the distribution steps and Confirm), for ``--tricks`` tricks of each game (52: whole
games). ``--think S`` makes members pause a random time (mean S seconds) before each
decision instead, and ``--stagger S`` lets the games begin at moments spread over S seconds
(tables on a real bot are not in step; started together, think times keep them bunched
for several tricks). It prints:

- interaction latency, event sent → callback received (the server's ``sent_at`` to the
  callback request's arrival): median, p99, max, overall and by kind of action;
- REST calls per trick by kind (method and route template): interaction callbacks,
  webhook calls (the private hands, edited through members' interaction tokens) and
  channel calls (the table message, scoring posts), from the play phase;
- Discord's limits as the loopback Discord counted them over the whole run: the most
  requests counted against the global limit within any one second (all but
  interaction-token ones, every slice together), the global 429s and the invalid requests
  (401, 403, 429), as the line ``discord limits: peak P req/s, global 429s G, invalid
  requests I``;
- table freshness: for each move a member made during play, the time from its answer (the
  move is committed before it) to the first edit of its table message that reaches Discord
  after it (by any route: through the token of the interaction whose original response the
  message is, or through its channel), p50 and p99 over every move of every table, as the
  line ``table freshness: p50 A s, p99 B s``, and how many table edits took each route;
  ``--token-lifetime S`` shortens the loopback Discord's tokens of the interactions whose
  answer is a table message from 15 minutes to S seconds (and the bot's use of them,
  ``table_token_seconds``, to 14/15 of that), so that they run out mid-game and the budget
  takes over (the members' hands keep Discord's 15 minutes: a hand lost at the start of play
  would measure something else);
- bot CPU seconds per game (utime + stime of the process over the play phase, from
  ``/proc/<pid>/stat``; its main thread and the other threads, SQLite's, separately);
- the bot's peak RSS (``VmHWM``);
- lost turns, as the line ``lost turns: hands stale 60 s S, turns decided by a computer
  after the turn time C``: a member whose hand has not changed for 60 s presses My hand; the
  hand was *stale* when the fresh one shows otherwise and the game's last move is more than
  10 s older than the wait (waiting for a taker's five decisions is not a lost turn, and is
  counted apart); turns decided by a computer are those of the bot's log in games still
  played (a game whose members stopped at ``--tricks`` runs out of time by design);
- with ``--restart``: the bot is SIGKILLed with every game live (after the play phase, all
  games mid-game), a new process starts on the same database, and one member of every
  game presses a card of their old hand as soon as the gateway is READY; it prints spawn →
  READY, spawn → every game answered (its click's callback) and spawn → every pressed hand
  showing its answer (a click acknowledged first shows it when its hand is edited), the
  requests made meanwhile, the CPU the new process used to READY and after
  (a busy machine stretches the wall-clock figures, not these), and when its log says it
  reached each step of its start. ``--restarts N`` does it N times in a row (a card per
  game each time) and prints the median; ``--restart-bot-path DIR`` runs every second
  restart from another copy of the project, on the same tables, and prints each copy's
  figures apart: a change and its baseline in turns, while the machine's speed drifts (it
  moves a restart's figures by a half within the hour); the first three restarts each
  press a card in all 1,000 games of ``--tricks 4``, later ones in fewer (a game whose
  members stopped playing has hands waiting on nothing to press), so compare those.
  ``--profile-restart FILE`` restarts once more
  under cProfile (``bench/profiled_bot.py``) and writes the profile to FILE. ``--paced``
  times on a machine busy with other work as on a quiet one: Discord's 3 s and the restart's
  figures count on the pace (:class:`tests.loopback.pace.Pace`: the wall clock less the time
  the bench's processes waited for a core; the wall-clock figures are printed beside), and
  the bots leave a click unanswered as too late only after :data:`PACED_LATE` s, so that
  runs do the same work (few clicks pressed again because the machine was busy).

The driver (this process: the server and 4N members) must not be what is measured: the
server's OpenAPI body check is slow, so only every ``--validate-every``-th body is checked
(0: none), the server forgets answered interactions and counted requests as it goes, the
driver is pinned to CPU 0 and the bot to CPU 1 (``--no-pin``: not), and the driver's own
CPU time and the rest of the machine's are printed next to the bot's.

Figures, not assertions. Targets at 1,000 games: p99 ≤ 100 ms, RSS ≤ 300 MB, restart ≤ 2 s;
peak ≤ 50 requests a second, no global 429s, no invalid requests, table freshness p99 ≤ 10 s.
"""

from __future__ import annotations

import argparse
import asyncio
import compileall
import contextlib
import gc
import logging
import os
import random
import re
import signal
import statistics
import sys
import tempfile
import time
from collections import Counter, defaultdict, deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot import ids
from tests.loopback.driver import (
    BotProcess,
    GuildHandle,
    LoopbackDiscord,
    MemberActor,
    MessageView,
    Reply,
    id_kind,
)
from tests.loopback.fake_discord import (
    TOKEN_LIFETIME,
    UPDATE_MESSAGE,
    FakeDiscord,
    Interaction,
    Message,
    RequestRecord,
)
from tests.loopback.pace import Pace

CLOCK_TICKS = os.sysconf("SC_CLK_TCK")
ACTION_TIMEOUT = 4.0  # Discord refuses a callback after 3 s: later, the click has failed
PACED_LATE = 3.0  # with --paced: the bots' late_interaction_seconds, the most they allow
STALL_SECONDS = 60.0  # a hand unchanged this long: the member asks for a fresh one
MOVE_GRACE = 10.0  # a hand not showing a move this much older than its stall was lost
KEEP_SECONDS = 30.0  # interactions older than this are forgotten, but each member's
KEEP_PER_MEMBER = 4  # latest few answered ones, whose tokens the bot may still use
TURN = re.compile(r"deal (\d) of 4 · trick (\d+) of 13")
PLAY_KINDS = ("card", "give", "confirm")
MOVE_KINDS = ("card", "confirm")  # the clicks that commit a move (a give step is private)


def turn_of(content: str) -> int:
    """Return the trick a hand shows (0–51, 52 when the game is over, -1: none)."""
    if "The game is over." in content:
        return 52
    found = TURN.search(content)
    return (int(found.group(1)) - 1) * 13 + int(found.group(2)) - 1 if found else -1


# --- the server, lean --------------------------------------------------------------------


class BenchDiscord(FakeDiscord):
    """The loopback Discord with a sampled body check and a waiter per message edit."""

    def __init__(
        self, *, validate_every: int, table_token_lifetime: float = TOKEN_LIFETIME, **options: Any
    ) -> None:
        super().__init__(validate=validate_every > 0, **options)
        self.table_token_lifetime = table_token_lifetime
        self.validate_every = validate_every
        self.bodies = 0
        self.validated = 0
        self._edit_waiters: dict[int, list[asyncio.Future[None]]] = {}
        self.history: dict[int, list[str]] | None = None  # message → its edits (--debug)
        self.on_edit: Callable[[int], None] = lambda message_id: None
        self.table_messages: set[int] = set()
        # table message edits by route: the callback (an answer on it), the webhook (the
        # token of the interaction whose original response it is), the channel
        self.table_edits: Counter[str] = Counter()

    def _require_valid(self, request: Any) -> None:
        self.bodies += 1
        if self.validate_every and self.bodies % self.validate_every == 0:
            self.validated += 1
            super()._require_valid(request)

    def lifetime(self, interaction: Interaction) -> float:
        """The token of an interaction whose answer is a table message lives
        ``--token-lifetime``; the others, Discord's 15 minutes."""
        if interaction.original_message_id in self.table_messages:
            return self.table_token_lifetime
        return super().lifetime(interaction)

    def _edit(self, message: Message, data: Any, files: list[Any]) -> None:
        super()._edit(message, data, files)
        if message.id in self.table_messages:
            self.table_edits[sys._getframe(1).f_code.co_name] += 1
        if self.history is not None:
            lines = message.content.splitlines()
            caller = sys._getframe(1).f_code.co_name  # the route: _callback, _webhook_message
            self.history.setdefault(message.id, []).append(
                f"{time.monotonic():.3f} edit {message.edits} by {caller}: "
                + " | ".join(lines[:1] + lines[-1:])
            )
        self.on_edit(message.id)
        for waiter in self._edit_waiters.pop(message.id, ()):
            if not waiter.done():
                waiter.set_result(None)

    async def wait_edit(self, message_id: int, edits: int, timeout: float) -> bool:
        """Wait until the message has been edited past ``edits``; False after ``timeout``."""
        if self.messages[message_id].edits != edits:
            return True
        waiter = asyncio.get_running_loop().create_future()
        self._edit_waiters.setdefault(message_id, []).append(waiter)
        try:
            await asyncio.wait_for(waiter, timeout)
        except TimeoutError:
            return False
        return True


# --- processes ---------------------------------------------------------------------------


def _stat_ticks(path: str) -> int:
    with open(path) as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12])  # utime + stime


def descendants_cpu(roots: list[int], *, include_roots: bool = False) -> float:
    """Return the CPU seconds of the running processes descended from ``roots`` (the
    bots' drawing processes; the database server's backends), from ``/proc``."""
    parent: dict[int, int] = {}
    ticks: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        parent[int(entry)] = int(fields[1])
        ticks[int(entry)] = int(fields[11]) + int(fields[12])
    wanted = set(roots)
    total = sum(ticks.get(pid, 0) for pid in wanted) if include_roots else 0
    for pid in ticks:
        up, seen = parent.get(pid, 0), 0
        while up > 1 and seen < 64:
            if up in wanted:
                total += ticks[pid]
                break
            up, seen = parent.get(up, 0), seen + 1
    return total / CLOCK_TICKS


@dataclass(frozen=True, slots=True)
class Cpu:
    """CPU seconds of the bot (main thread, other threads), the driver, and the machine."""

    bot_main: float
    bot_other: float
    driver: float
    machine: float
    at: float

    @classmethod
    def now(cls, pid: int) -> Cpu:
        main = other = 0
        for tid in os.listdir(f"/proc/{pid}/task"):
            try:
                ticks = _stat_ticks(f"/proc/{pid}/task/{tid}/stat")
            except (FileNotFoundError, ProcessLookupError):
                continue
            if int(tid) == pid:
                main += ticks
            else:
                other += ticks
        with open("/proc/stat") as f:
            cpu = [int(x) for x in f.readline().split()[1:]]
        busy = sum(cpu) - cpu[3] - cpu[4]  # all but idle and iowait
        return cls(
            main / CLOCK_TICKS,
            other / CLOCK_TICKS,
            time.process_time(),
            busy / CLOCK_TICKS,
            time.monotonic(),
        )

    def __sub__(self, other: Cpu) -> Cpu:
        return Cpu(
            self.bot_main - other.bot_main,
            self.bot_other - other.bot_other,
            self.driver - other.driver,
            self.machine - other.machine,
            self.at - other.at,
        )

    @property
    def bot(self) -> float:
        return self.bot_main + self.bot_other

    def describe(self) -> str:
        wall = max(self.at, 1e-9)
        others = max(0.0, self.machine - self.bot - self.driver)
        return (
            f"bot {self.bot:.1f} s ({self.bot / wall:.0%} of a core: main thread "
            f"{self.bot_main / wall:.0%}, other threads {self.bot_other / wall:.0%}); "
            f"driver {self.driver:.1f} s ({self.driver / wall:.0%}); other processes "
            f"{others:.1f} s ({others / wall:.0%}) over {wall:.1f} s"
        )


PAGE_KB = os.sysconf("SC_PAGE_SIZE") // 1024


def rss_kb(pid: int) -> int:
    """Return the process's resident memory in kB (``/proc/<pid>/statm``: cheaper to read
    twenty times a second than ``status``)."""
    with open(f"/proc/{pid}/statm") as f:
        return int(f.read().split()[1]) * PAGE_KB


def proc_status(pid: int) -> dict[str, int]:
    """Return the numeric fields of ``/proc/<pid>/status`` (sizes in kB)."""
    fields: dict[str, int] = {}
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            name, _, value = line.partition(":")
            parts = value.split()
            if parts and parts[0].isdigit():
                fields[name] = int(parts[0])
    return fields


def peak_rss_mb(pid: int) -> float:
    return proc_status(pid).get("VmHWM", 0) / 1024


def pin(pid: int, cpu: int) -> None:
    """Pin every thread of ``pid`` (and those it starts later) to ``cpu``."""
    for tid in os.listdir(f"/proc/{pid}/task"):
        with contextlib.suppress(ProcessLookupError, FileNotFoundError):
            os.sched_setaffinity(int(tid), {cpu})


def lower_priority(pid: int, nice: int) -> None:
    """Give every thread of ``pid`` (and those it starts later, its drawing process too)
    the scheduling priority ``nice``."""
    if not nice:
        return
    for tid in os.listdir(f"/proc/{pid}/task"):
        with contextlib.suppress(ProcessLookupError, FileNotFoundError):
            os.setpriority(os.PRIO_PROCESS, int(tid), nice)


def lower_cluster_priority(data: Path, nice: int) -> None:
    """Give the PostgreSQL server (its postmaster, its running processes and, inherited,
    every backend it starts later) the bots' priority ``nice``: the database runs on the
    bot's side, not the driver's."""
    if not nice:
        return
    postmaster = int((data / "postmaster.pid").read_text().split()[0])
    os.setpriority(os.PRIO_PROCESS, postmaster, nice)
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue
        if int(stat.rsplit(")", 1)[1].split()[1]) == postmaster:
            with contextlib.suppress(ProcessLookupError):
                os.setpriority(os.PRIO_PROCESS, int(entry), nice)


def load_line() -> str:
    one, five, fifteen = os.getloadavg()
    return f"load average {one:.2f} {five:.2f} {fifteen:.2f} on {os.cpu_count()} cores"


# --- figures -----------------------------------------------------------------------------


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, int(q * len(ordered) + 0.999999) - 1))]


def latency_line(name: str, seconds: list[float]) -> str:
    if not seconds:
        return f"  {name:<10} none"
    ms = [s * 1000 for s in seconds]
    return (
        f"  {name:<10} {len(ms):>8}  median {statistics.median(ms):7.1f} ms  "
        f"p99 {percentile(ms, 0.99):7.1f} ms  max {max(ms):7.1f} ms"
    )


def route_kind(template: str) -> str:
    if template.startswith("/interactions/"):
        return "interaction callbacks"
    if template.startswith("/webhooks/"):
        return "webhook (interaction token)"
    if template.startswith("/channels/"):
        return "channel"
    return "other"


# --- the games ---------------------------------------------------------------------------


@dataclass(slots=True)
class Seat:
    actor: MemberActor
    channel_id: int
    slice: int = 0  # the bot process (shard slice) that runs its server
    hand_id: int = 0
    recent: deque[int] = field(default_factory=lambda: deque(maxlen=KEEP_PER_MEMBER))


@dataclass(slots=True)
class Game:
    guild: GuildHandle
    seats: list[Seat]
    table_id: int = 0
    hand_button: str = ""  # the custom id of the table's My hand
    db_id: int = 0  # the table's id in the bot (its log's "game <id>")
    finished: int = 0  # members done with their --tricks
    done_at: float | None = None  # wall clock: when its last member stopped playing


class Load:
    """The games, the members' play and what is counted."""

    def __init__(self, loopback: LoopbackDiscord, args: argparse.Namespace) -> None:
        self.loopback = loopback
        self.server: BenchDiscord = loopback.server  # type: ignore[assignment]
        self.args = args
        self.rng = random.Random(args.seed)
        self.games: list[Game] = []
        self.latency: dict[str, list[float]] = defaultdict(list)
        self.by_slice: dict[int, list[float]] = defaultdict(list)  # play clicks' latency
        self.failed: Counter[str] = Counter()
        # Hands left unchanged STALL_SECONDS, by what the member's fresh hand (My hand)
        # then showed: the same ("current": waiting for another member's decisions, a
        # taker's distribution say), something else ("stale": an update the bot lost, a
        # turn it offered that the member never saw), or nothing (My hand not answered).
        self.stalls: Counter[str] = Counter()
        self.last_move: dict[int, float] = {}  # channel → when its latest move was answered
        self.timed_out = 0  # turns decided by a computer after the turn time, during play
        self.restarts = 0  # restarts measured so far
        self.restart_requests: list[tuple[float, str]] = []  # (when, route) in a restart
        self._mean_trick_at = 0.0
        self._mean_trick = 0.0
        self.timeline: list[tuple[float, float]] = []  # play clicks: (sent at, latency)
        self.requests: dict[str, Counter[str]] = defaultdict(Counter)
        self.statuses: dict[str, Counter[str]] = defaultdict(Counter)
        self.phase = "setup"
        self.stop = False
        self.table_of: dict[int, int] = {}  # channel → its table message
        # table message → when the moves it does not show yet were answered (play only)
        self.unshown: dict[int, list[float]] = defaultdict(list)
        self.freshness: list[float] = []  # per move: its answer → its table message's edit
        self.server.on_edit = self.edited

    # --- bookkeeping -----------------------------------------------------------------

    def harvest(self) -> None:
        """Count the finished requests by phase and route, and forget them; forget answered
        interactions no member needs any more."""
        server = self.server
        pending: list[RequestRecord] = []
        counts = self.requests[self.phase]
        statuses = self.statuses[self.phase]
        for record in server.requests:
            if record.status == 0:
                pending.append(record)
                continue
            route, _ = server._match(record.method, record.path)
            kind = f"{record.method} {route.template if route else record.path}"
            counts[kind] += 1
            if self.phase == "restart":
                self.restart_requests.append((record.at, kind))
            if record.status >= 300:
                statuses[f"{kind} → {record.status}"] += 1
        server.requests = pending
        keep = {i for game in self.games for seat in game.seats for i in seat.recent}
        cutoff = time.monotonic() - KEEP_SECONDS
        # and the ones whose original response is a table message: the bot edits it through
        # their tokens (Discord keeps a token for 15 minutes whoever else forgets it)
        tables = server.table_messages
        stale = [
            interaction
            for interaction_id, interaction in server.interactions.items()
            if interaction_id not in keep
            and (interaction.sent_at is None or interaction.sent_at < cutoff)
            and interaction.original_message_id not in tables
        ]
        for interaction in stale:
            del server.interactions[interaction.id]
            server._by_token.pop(interaction.token, None)

    async def harvest_forever(self) -> None:
        while True:
            await asyncio.sleep(2.0)
            self.harvest()

    def edited(self, message_id: int) -> None:
        """A message was edited: if it is a table message, it shows every move answered
        before now."""
        moves = self.unshown.pop(message_id, None)
        if moves:
            now = time.monotonic()
            self.freshness.extend(now - answered for answered in moves)

    def answered(self, seat: Seat, kind: str, interaction: Interaction) -> None:
        if self.phase == "play" and kind in MOVE_KINDS and interaction.callback_at is not None:
            self.unshown[self.table_of[seat.channel_id]].append(interaction.callback_at)
            self.last_move[seat.channel_id] = interaction.callback_at
        seat.recent.append(interaction.id)
        interaction.payload = {}  # sent: the gateway buffer keeps the frame
        assert interaction.latency is not None
        self.latency[kind].append(interaction.latency)
        if kind in PLAY_KINDS:
            self.by_slice[seat.slice].append(interaction.latency)
            assert interaction.sent_at is not None
            self.timeline.append((interaction.sent_at, interaction.latency))

    async def press(
        self, seat: Seat, message_id: int, custom_id: str, kind: str
    ) -> Interaction | None:
        """Click a button; return the interaction if the bot answered it in time."""
        server = self.server
        interaction = server.component_interaction(
            seat.channel_id, seat.actor.id, message_id, custom_id
        )
        server.dispatch(interaction)
        assert interaction.answered is not None
        history = None if server.history is None else server.history.setdefault(message_id, [])
        if history is not None:
            history.append(f"{time.monotonic():.3f} press {custom_id} ({interaction.id})")
        try:
            await self.wait_answered(interaction)
        except TimeoutError:
            self.failed[kind] += 1
            # The bot may still answer it (Discord's 3 s count the bot's time, the driver's
            # wall clock counts the machine's too): its token is then the one the bot
            # edits the member's hand through, and a hand it sends is the one to watch.
            interaction.answered.add_done_callback(lambda _: self.late(seat, kind, interaction))
            if history is not None:
                history.append(f"{time.monotonic():.3f} press {interaction.id} FAILED")
            return None
        self.answered(seat, kind, interaction)
        return interaction

    async def wait_answered(self, interaction: Interaction) -> None:
        """Return once the bot has answered ``interaction``; raise ``TimeoutError`` when
        Discord gives up on it (with ``--paced``, after 3 s of the server's pace)."""
        assert interaction.answered is not None
        try:
            await asyncio.wait_for(asyncio.shield(interaction.answered), ACTION_TIMEOUT)
            return
        except TimeoutError:
            if not self.args.paced:
                raise
        while not interaction.answered.done():  # the few a busy machine held up
            if self.server.gave_up_on(interaction):
                raise TimeoutError
            await asyncio.wait({interaction.answered}, timeout=0.25)

    def late(self, seat: Seat, kind: str, interaction: Interaction) -> None:
        """The bot answered a click after the driver had given up on it."""
        seat.recent.append(interaction.id)
        if kind == "hand" and interaction.original_message_id is not None:
            seat.hand_id = interaction.original_message_id

    def reply(self, seat: Seat, kind: str, reply: Reply) -> Reply:
        seat.actor.replies.clear()
        self.answered(seat, kind, reply.interaction)
        return reply

    # --- setup -----------------------------------------------------------------------

    def create_world(self) -> None:
        """One server per game; with ``--slices N``, server g on shard g mod N, which
        slice g mod N runs."""
        slices = self.args.slices
        for g in range(self.args.games):
            shard = g % slices
            if slices > 1:
                guild = self.loopback.create_guild(f"Load {g}", shard=shard, shard_count=slices)
            else:
                guild = self.loopback.create_guild(f"Load {g}")
            channel = guild.channel.id
            members = 3 if self.args.computer_seat else 4  # a computer fills the fourth
            seats = [Seat(guild.add_member(f"m{g}-{i}"), channel, shard) for i in range(members)]
            self.games.append(Game(guild, seats))

    async def open_game(self, game: Game, gate: asyncio.Semaphore) -> None:
        async with gate:
            host = game.seats[0]
            lobby = self.reply(
                host,
                "slash",
                await host.actor.slash(
                    game.guild.channel,
                    "dupe start",
                    computers=self.args.computer_seat or "none",
                    pictures=self.args.pictures,
                ),
            )
            assert lobby.message is not None, "no lobby message"
            game.table_id = lobby.message.id
            self.table_of[game.guild.channel.id] = game.table_id
            self.server.table_messages.add(game.table_id)
            for seat in game.seats[1:]:
                self.reply(seat, "join", await seat.actor.click(game.table_id, label="Join"))
            started = self.reply(
                host, "start", await host.actor.click(game.table_id, label="Start")
            )
            assert started.callback_type == UPDATE_MESSAGE, started.text
            for seat in game.seats:
                hand = self.reply(seat, "hand", await self.open_hand(seat, game.table_id))
                assert hand.message is not None and hand.ephemeral, hand.text
                seat.hand_id = hand.message.id
            table = MessageView.of(self.server.messages[game.table_id])
            game.hand_button = next(
                b["custom_id"] for b in table.buttons() if b.get("label") == "My hand"
            )
            pressed = ids.parse(game.hand_button)
            assert isinstance(pressed, ids.TableButton), game.hand_button
            game.db_id = pressed.table

    async def open_hand(self, seat: Seat, table_id: int, tries: int = 3) -> Reply:
        """Press My hand; press it again if the bot let it expire (a machine so busy that
        the bot got to it after Discord's 3 s: a member would press again)."""
        for attempt in range(tries):
            try:
                return await seat.actor.click(table_id, label="My hand")
            except TimeoutError:
                if attempt == tries - 1:
                    raise
                self.failed["hand"] += 1
        raise AssertionError("unreachable")

    def mean_trick(self) -> float:
        """Return how many tricks the games have played on average, counted at most once a
        second (counting reads every hand; each slice's memory watcher asks)."""
        now = time.monotonic()
        if now - self._mean_trick_at >= 1.0:
            self._mean_trick_at = now
            self._mean_trick = sum(map(self.tricks_played, self.games)) / len(self.games)
        return self._mean_trick

    def tricks_played(self, game: Game) -> int:
        """Return how many tricks the game has played (its hands' furthest trick)."""
        return min(
            self.args.tricks,
            max(turn_of(self.server.messages[s.hand_id].content) for s in game.seats),
        )

    # --- play --------------------------------------------------------------------------

    def next_press(self, message: Message) -> tuple[int, str | None, str]:
        """Return the hand's trick (0–51, 52 when over), and what to press with its kind."""
        turn = turn_of(message.content)
        if turn == 52:
            return 52, None, "over"
        cards: list[str] = []
        steps: list[str] = []
        for row in message.components:
            for button in row.get("components") or ():
                custom_id = button.get("custom_id") or ""
                if button.get("disabled"):
                    continue
                kind = id_kind(custom_id)
                if kind == "giveok":
                    return turn, custom_id, "confirm"
                if kind == "play":
                    cards.append(custom_id)
                elif kind == "give":  # a step ("Start over" is "restart")
                    steps.append(custom_id)
        if steps:
            return turn, self.rng.choice(steps), "give"
        if cards:
            return turn, self.rng.choice(cards), "card"
        return turn, None, "wait"

    async def play_seat(self, game: Game, seat: Seat, start: float = 0.0) -> None:
        """Play until the game reaches ``--tricks`` (or ends), from ``start`` seconds on."""
        if start:
            await asyncio.sleep(start)
        server = self.server
        think = self.args.think
        thought = False
        while not self.stop:
            message = server.messages[seat.hand_id]
            edits = message.edits
            turn, custom_id, kind = self.next_press(message)
            if turn >= self.args.tricks or kind == "over":
                game.finished += 1
                if game.finished == len(game.seats):
                    # From now on nobody plays it: its turn timers run out, as they should.
                    game.done_at = time.time()
                return
            if custom_id is None:
                if not await server.wait_edit(seat.hand_id, edits, STALL_SECONDS):
                    await self.stalled(game, seat)
                continue
            if think and not thought:
                await asyncio.sleep(self.rng.expovariate(1 / think))
                thought = True
                continue  # the hand may have changed meanwhile
            thought = False
            await self.press(seat, seat.hand_id, custom_id, kind)

    async def stalled(self, game: Game, seat: Seat) -> None:
        """The member's hand was not updated for STALL_SECONDS: ask for it afresh (My
        hand), as a member would, and count whether it was stale."""
        watched = shown(self.server.messages[seat.hand_id])
        before = [self.server.messages[s.hand_id].content for s in game.seats]
        stalled_at = time.monotonic()
        answered = await self.press(seat, game.table_id, game.hand_button, "hand")
        if answered is None or answered.original_message_id is None:
            self.stalls["unanswered"] += 1
            return
        seat.hand_id = answered.original_message_id
        if shown(self.server.messages[seat.hand_id]) == watched:
            self.stalls["current"] += 1
            return
        if self.last_move.get(seat.channel_id, 0.0) > stalled_at - MOVE_GRACE:
            # A move made just before the stall, or while My hand was on its way: its
            # update of the watched hand may simply not have landed yet.
            self.stalls["raced"] += 1
            return
        self.stalls["stale"] += 1
        if self.stalls["stale"] <= 3:
            self.describe_stall(game, seat, before)

    def describe_stall(self, game: Game, seat: Seat, before: list[str]) -> None:
        lines = [
            f"stale hand: {seat.actor.name} waited {STALL_SECONDS:.0f} s on a hand that My "
            f"hand then showed otherwise, the game's last move "
            f"{time.monotonic() - self.last_move.get(seat.channel_id, 0.0):.1f} s ago; the "
            "hands before it was pressed, and the new one:"
        ]
        for other, content in [*zip(game.seats, before, strict=True), (seat, None)]:
            message = self.server.messages[other.hand_id]
            text = message.content if content is None else content
            head = " | ".join(text.splitlines()[:1] + text.splitlines()[-2:])
            lines.append(f"    {other.actor.name} (edits {message.edits}): {head[:300]}")
            if self.server.history is not None:
                lines += [f"        {h[:250]}" for h in self.server.history.get(other.hand_id, [])]
        print("\n".join(lines), file=sys.stderr, flush=True)

    async def restart_click(self, game: Game) -> tuple[float, float, float, float] | None:
        """Press a card in the first hand that has one; return when it was answered (its
        callback: on the monotonic clock and on the server's pace) and when the hand then
        showed the answer (acknowledged first, the hand is edited afterwards; else the
        callback is that edit), or ``None`` when no hand of the game offers one (a hand
        left behind by clicks that failed on a busy machine)."""
        server = self.server
        for seat in game.seats:
            _turn, custom_id, _kind = self.next_press(server.messages[seat.hand_id])
            if custom_id is not None:
                edits = server.messages[seat.hand_id].edits
                for _ in range(5):  # a failed click is pressed again
                    if await self.press(seat, seat.hand_id, custom_id, "restart") is not None:
                        break
                answered = time.monotonic(), server.pace()
                await server.wait_edit(seat.hand_id, edits, ACTION_TIMEOUT)
                return (*answered, time.monotonic(), server.pace())
        return None


# --- the run -----------------------------------------------------------------------------


def print_latencies(load: Load, kinds: Iterable[str], title: str) -> None:
    kinds = list(kinds)
    every = [s for k in kinds for s in load.latency.get(k, [])]
    print(f"{title} (event sent → callback received):")
    print(latency_line("all", every))
    for kind in kinds:
        if kind in load.latency:
            print(latency_line(kind, load.latency[kind]))
    failed = {k: load.failed[k] for k in kinds if load.failed[k]}
    if failed:
        print(f"  not answered within 3 s (“This interaction failed”): {failed}")


def print_timeline(load: Load, since: float, window: float = 30.0) -> None:
    """Print the play clicks' p99 per window of time: a ramp, a pause or a steady state."""
    windows: dict[int, list[float]] = defaultdict(list)
    for sent, latency in load.timeline:
        windows[int((sent - since) // window)].append(latency)
    parts = [
        f"{n * window:.0f}s {percentile(v, 0.99) * 1000:.0f} ({len(v)})"
        for n, v in sorted(windows.items())
        if len(v) >= 100
    ]
    print(f"  play p99 in ms by {window:.0f} s window (clicks): " + ", ".join(parts))


def print_requests(load: Load, phase: str, tricks: int) -> None:
    counts = load.requests.get(phase, Counter())
    by_group: dict[str, list[tuple[str, int]]] = defaultdict(list)
    for kind, count in counts.most_common():
        by_group[route_kind(kind.split(" ", 1)[1])].append((kind, count))
    total = sum(counts.values())
    print(f"REST calls per trick ({tricks} tricks): {total / max(1, tricks):.2f} in all")
    for group in ("interaction callbacks", "webhook (interaction token)", "channel", "other"):
        rows = by_group.get(group)
        if not rows:
            continue
        subtotal = sum(c for _, c in rows)
        print(f"  {group}: {subtotal / max(1, tricks):.2f}")
        for kind, count in rows:
            print(f"    {kind}: {count / max(1, tricks):.3f} ({count})")
    refused = load.statuses.get(phase)
    if refused:
        print(f"  answered with an error: {dict(refused)}")


def print_freshness(load: Load) -> None:
    """Print how long the table messages took to show the moves made during play."""
    seconds = load.freshness
    waiting = sum(len(moves) for moves in load.unshown.values())
    if not seconds:
        print("table freshness: none measured")
        return
    print(
        f"table freshness: p50 {percentile(seconds, 0.5):.1f} s, "
        f"p99 {percentile(seconds, 0.99):.1f} s"
    )
    print(
        f"  over {len(seconds)} moves (answer → the table message's next edit); max "
        f"{max(seconds):.1f} s; {waiting} move(s) not shown by the end of play"
    )
    routes = load.server.table_edits
    print(
        f"  table message edits over the whole run: {routes['_webhook_message']} through "
        f"an interaction's token (not counted against the global limit), "
        f"{routes['_channel_message']} through the channel, {routes['_callback']} by "
        f"answers on it"
    )


def shown(message: Message) -> tuple[list[str], list[str]]:
    """Return what a hand offers a member: its lines but notices (a refusal, what a
    computer did when time ran out: a fresh hand has none), and its enabled controls."""
    lines = [line for line in message.content.splitlines() if not line.startswith(("⚠️", "⏰"))]
    controls = [
        button.get("custom_id") or ""
        for row in message.components
        for button in row.get("components") or ()
        if not button.get("disabled")
    ]
    return lines, controls


def print_stalls(load: Load) -> None:
    """Print the hands left unchanged STALL_SECONDS, by what a fresh one showed."""
    stalls = load.stalls
    if not stalls:
        return
    print(
        f"  hands unchanged {STALL_SECONDS:.0f} s (a fresh hand then asked for): "
        f"{sum(stalls.values())}: {stalls['stale']} stale (the fresh hand showed otherwise: "
        f"an update lost), {stalls['current']} current (waiting for another member, a taker "
        f"distributing say), {stalls['raced']} changed by a move made within "
        f"{MOVE_GRACE:.0f} s of it, {stalls['unanswered']} whose My hand was not answered"
    )


def print_lost_turns(load: Load) -> None:
    """Print the line a script reads: turns a member may have missed."""
    print(
        f"lost turns: hands stale {STALL_SECONDS:.0f} s {load.stalls['stale']}, turns decided "
        f"by a computer after the turn time {load.timed_out}"
    )


def print_limits(server: BenchDiscord) -> None:
    """Print Discord's limits as the loopback Discord counted them over the whole run."""
    limits = server.limits
    print(limits.describe())
    print(
        f"  {limits.counted} requests counted against the global limit (all but "
        f"interaction-token ones), the most invalid ones in any 10 minutes "
        f"{limits.invalid_peak} (Discord bans a bot at 10,000)"
    )


class GcPauses:
    """The driver's own collections that took over 20 ms: each delays every answer that
    arrives meanwhile, which the latency figures then count against the bot."""

    def __init__(self) -> None:
        self.pauses: list[tuple[float, float]] = []  # (start, seconds), monotonic
        self._start = 0.0
        gc.callbacks.append(self._callback)

    def _callback(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self._start = time.monotonic()
        elif (took := time.monotonic() - self._start) > 0.02:
            self.pauses.append((self._start, took))

    def report(self, since: float, during: str = "play") -> str:
        mine = [took for start, took in self.pauses if start >= since]
        if not mine:
            return f"driver garbage collections over 20 ms during {during}: none"
        return (
            f"driver garbage collections over 20 ms during {during}: {len(mine)}, "
            f"{sum(mine):.1f} s in all, longest {max(mine) * 1000:.0f} ms (answers arriving "
            "meanwhile are timed late by the driver, not the bot)"
        )


def compile_sources(root: Path) -> None:
    """Write the bot's and the engine's bytecode, as installing a package does: where
    ``PYTHONDONTWRITEBYTECODE`` is set (this machine, the Docker image) a bot run from its
    sources compiles them at every start, 0.2 s of a restart that a deployment does not pay."""
    for package in ("bot", "engine"):
        compileall.compile_dir(root / package, quiet=1)


async def run(args: argparse.Namespace) -> None:
    logging.basicConfig(level=logging.ERROR, format="%(levelname)s %(name)s: %(message)s")
    compile_sources(Path(args.bot_path or Path(__file__).resolve().parent.parent))
    if args.restart_bot_path:
        compile_sources(Path(args.restart_bot_path))
    if args.pin:
        os.sched_setaffinity(0, {0})
    driver_gc = GcPauses()
    server = BenchDiscord(
        validate_every=args.validate_every,
        table_token_lifetime=args.token_lifetime,
        **({"pace": Pace()} if args.paced else {}),
    )
    if args.debug:
        server.history = {}
    await server.start()
    loopback = LoopbackDiscord(server, action_timeout=60.0)
    workdir = Path(tempfile.mkdtemp(prefix="dupe-load-"))
    slices = args.slices
    settings: dict[str, Any] = {
        "turn_seconds": args.turn_seconds,
        "table_edit_seconds": args.edit_seconds,
        "log_level": os.environ.get("LOAD_BOT_LOG_LEVEL", "INFO"),
        "database": args.database or workdir / "dupe.sqlite3",
    }
    if args.paced:
        settings["late_interaction_seconds"] = PACED_LATE
    load = Load(loopback, args)
    backend = "PostgreSQL" if str(settings["database"]).startswith("postgres") else "SQLite"
    seated = f"3 members and a computer ({args.computer_seat})" if args.computer_seat else ""
    print(
        f"load: {args.games} games of {seated or '4 members'}, {args.tricks} tricks each, think "
        f"{args.think:g} s, stagger {args.stagger:g} s, pictures {args.pictures}, seed {args.seed}"
        + f", table messages' tokens live {args.token_lifetime:g} s"
        + f"; {slices} slice(s) on {backend}"
        + (f", bot from {args.bot_path}" if args.bot_path else "")
        + "; bodies validated: "
        + (f"1 in {args.validate_every}" if args.validate_every else "none")
        + f"; CPUs pinned: {'driver 0, bot 1' if args.pin else 'no'}; bots at nice "
        + f"{args.bot_nice}; {load_line()}",
        flush=True,
    )
    harvester = asyncio.get_running_loop().create_task(load.harvest_forever())
    env: dict[str, str] = {}
    if args.bot_path:
        env["PYTHONPATH"] = str(Path(args.bot_path).resolve())
    if args.token_lifetime != TOKEN_LIFETIME:  # the bot keeps Discord's margin (14 of 15)
        env["PARLOUR_TABLE_TOKEN_SECONDS"] = f"{args.token_lifetime * 14 / 15:g}"
    if env:
        settings["env"] = env
    bots = [
        loopback.bot_process(workdir / f"slice{n}", **_slice_settings(settings, n, slices))
        for n in range(slices)
    ]
    try:
        load.create_world()
        await asyncio.gather(*(start_bot(bot, args) for bot in bots))
        pids = [bot.process.pid for bot in bots]  # type: ignore[union-attr]
        print(f"bot ready (pids {', '.join(map(str, pids))})", file=sys.stderr, flush=True)

        # --- setup ---
        started = time.monotonic()
        gate = asyncio.Semaphore(args.setup_concurrency)
        await asyncio.gather(*(load.open_game(game, gate) for game in load.games))
        load.harvest()
        print(
            f"{args.games} tables opened, started and hands shown in "
            f"{time.monotonic() - started:.1f} s",
            file=sys.stderr,
            flush=True,
        )
        await asyncio.sleep(args.edit_seconds + 0.5)  # the lobby's table edits go out
        gc.collect()
        gc.freeze()
        # The driver's own collections delay the answers it times (see GcPauses): collect
        # its young objects less often, and its whole heap far less often.
        gc.set_threshold(100_000, 20, 100)

        # --- play ---
        load.harvest()
        load.phase = "play"
        play_started = time.monotonic()
        before = [Cpu.now(pid) for pid in pids]
        helpers_before = helpers_cpu(pids, args)
        rss_before = [peak_rss_mb(pid) for pid in pids]
        starts = random.Random(args.seed).sample(range(len(load.games)), len(load.games))
        tasks = [
            asyncio.ensure_future(
                load.play_seat(game, seat, args.stagger * starts[g] / max(1, len(load.games)))
            )
            for g, game in enumerate(load.games)
            for seat in game.seats
        ]
        progress = asyncio.get_running_loop().create_task(report_progress(load, before[0].at, pids))
        watches = [RssWatch(load, pid) for pid in pids]
        lag = LoopLag()
        spy = await start_py_spy(args.py_spy, pids[0], args.py_spy_rate)
        _done, unfinished = await asyncio.wait(tasks, timeout=args.max_seconds)
        if unfinished:
            load.stop = True
            for task in unfinished:
                task.cancel()
            await asyncio.gather(*unfinished, return_exceptions=True)
        progress.cancel()
        lag.task.cancel()
        for watch in watches:
            watch.task.cancel()
        await stop_py_spy(spy, args.py_spy)
        died = [t.exception() for t in _done if not t.cancelled() and t.exception() is not None]
        if died:
            print(f"!!! {len(died)} member task(s) died; the first: {died[0]!r}", file=sys.stderr)
        load.harvest()
        played = [Cpu.now(pid) - b for pid, b in zip(pids, before, strict=True)]
        helpers = [
            after - b for after, b in zip(helpers_cpu(pids, args), helpers_before, strict=True)
        ]
        load.phase = "after"
        rss = [peak_rss_mb(pid) for pid in pids]
        tricks = sum(load.tricks_played(game) for game in load.games)
        interactions = sum(len(load.latency[k]) for k in PLAY_KINDS)
        wall = played[0].at

        print()
        if unfinished:
            print(
                f"!!! play stopped after --max-seconds {args.max_seconds:g}: "
                f"{len(unfinished)} of {len(tasks)} members had not finished"
            )
        print(
            f"=== {args.games} games × {min(args.tricks, 52)} tricks: {tricks} tricks played, "
            f"{interactions} interactions in {wall:.1f} s "
            f"({interactions / wall:.0f} interactions/s, {tricks / wall:.0f} tricks/s)"
        )
        print_latencies(load, PLAY_KINDS, "play latency")
        print_timeline(load, play_started)
        print_latencies(load, ("slash", "join", "start", "hand"), "setup latency")
        print_stalls(load)
        print_requests(load, "play", tricks)
        print_freshness(load)
        bot_cpu = sum(p.bot for p in played)
        print(
            f"bot CPU (all slices): {bot_cpu / args.games:.3f} s per game "
            f"({bot_cpu / max(1, tricks) * 1000:.2f} ms per trick, "
            f"{bot_cpu / max(1, interactions) * 1000:.2f} ms per interaction)"
        )
        print(
            f"  their drawing processes: {helpers[0]:.1f} s "
            f"({helpers[0] / max(1, interactions) * 1000:.2f} ms per interaction)"
            + (
                f"; the PostgreSQL server: {helpers[1]:.1f} s "
                f"({helpers[1] / max(1, interactions) * 1000:.2f} ms per interaction)"
                if args.database_server
                else ""
            )
        )
        for n, (cpu, peak, after_setup) in enumerate(zip(played, rss, rss_before, strict=True)):
            mine = load.by_slice.get(n, [])
            clicks = max(1, len(mine))
            print(
                f"slice {n}: {len(mine)} play clicks ({len(mine) / wall:.0f}/s), "
                + (
                    f"median {statistics.median(mine) * 1000:.1f} ms, "
                    f"p99 {percentile(mine, 0.99) * 1000:.1f} ms, "
                    if mine
                    else ""
                )
                + f"CPU {cpu.bot / clicks * 1000:.2f} ms per click; peak RSS {peak:.0f} MB "
                f"(after setup {after_setup:.0f} MB)"
            )
            print(f"  CPU during play: {cpu.describe()}")
            print(f"  {watches[n].describe()}")
        print(driver_gc.report(play_started))
        print(lag.describe())
        print("  target ≤ 300 MB per process at 1,000 games")
        print(
            f"bodies validated against the OpenAPI description: {server.validated} of "
            f"{server.bodies}; violations {len(server.violations)}; unknown routes "
            f"{len(server.unknown_routes)}; server errors {len(server.internal_errors)}"
        )

        if args.restart:
            await measure_restart(load, loopback, bots, settings, args, driver_gc)
        else:
            for bot in bots:
                load.timed_out += report_log(bot, load.games)
        print_limits(server)
        print_lost_turns(load)
    finally:
        harvester.cancel()
        for process in loopback.processes:
            await process.stop()
        await server.close()
    print(load_line())


def _slice_settings(settings: dict[str, Any], n: int, slices: int) -> dict[str, Any]:
    """A slice's settings: the shared ones, and with several slices its shard."""
    if slices == 1:
        return dict(settings)
    return {**settings, "shard_count": slices, "shard_ids": [n]}


async def start_bot(bot: BotProcess, args: argparse.Namespace) -> None:
    await bot.start()
    pid = bot.process.pid  # type: ignore[union-attr]
    lower_priority(pid, args.bot_nice)
    if args.pin:
        pin(pid, 1)
    await bot.wait_ready(timeout=120)
    lower_priority(pid, args.bot_nice)
    if args.pin:
        pin(pid, 1)


async def start_py_spy(
    out: str | None, pid: int, rate: int = 200
) -> asyncio.subprocess.Process | None:
    """With ``--py-spy FILE``: sample the bot (py-spy, from PyPI) until :func:`stop_py_spy`."""
    if not out:
        return None
    spy = Path(sys.executable).with_name("py-spy")
    process = await asyncio.create_subprocess_exec(
        str(spy),
        "record",
        "--pid",
        str(pid),
        "--output",
        out,
        "--format",
        args_format(out),
        "--rate",
        str(rate),
        "--nonblocking",
        stdout=asyncio.subprocess.DEVNULL,
        stderr=asyncio.subprocess.DEVNULL,
    )
    if os.cpu_count() and os.cpu_count() > 1:  # the sampler runs beside the driver
        pin(process.pid, 0)
    return process


def args_format(out: str) -> str:
    return (
        "speedscope" if out.endswith(".json") else ("raw" if out.endswith(".txt") else "flamegraph")
    )


async def stop_py_spy(process: asyncio.subprocess.Process | None, out: str | None) -> None:
    if process is None:
        return
    process.send_signal(2)  # SIGINT: py-spy writes its output and exits
    await process.wait()
    print(f"py-spy profile of the bot: {out}", file=sys.stderr)


async def report_progress(load: Load, since: float, pids: list[int]) -> None:
    while True:
        await asyncio.sleep(10)
        done = sum(len(load.latency[k]) for k in PLAY_KINDS)
        recent = load.latency["card"][-2000:]
        median = statistics.median(recent) * 1000 if recent else 0.0
        rss = []
        for pid in pids:
            with contextlib.suppress(FileNotFoundError, ProcessLookupError):
                rss.append(f"{proc_status(pid).get('VmRSS', 0) / 1024:.0f}")
        print(
            f"  {time.monotonic() - since:5.0f} s: {done} interactions, recent card median "
            f"{median:.0f} ms, failed {sum(load.failed.values())}; bot RSS "
            f"{' + '.join(rss)} MB",
            file=sys.stderr,
            flush=True,
        )


class LoopLag:
    """How late this process's event loop wakes a 10 ms timer: the driver's own delay,
    which every latency it times includes."""

    def __init__(self) -> None:
        self.lags: list[float] = []
        self.task = asyncio.get_running_loop().create_task(self._run())

    async def _run(self) -> None:
        while True:
            due = time.monotonic() + 0.01
            await asyncio.sleep(0.01)
            self.lags.append(max(0.0, time.monotonic() - due))

    def describe(self) -> str:
        lags = self.lags or [0.0]
        return (
            f"driver event loop lag (a 10 ms timer, {len(lags)} samples): median "
            f"{statistics.median(lags) * 1000:.1f} ms, p99 {percentile(lags, 0.99) * 1000:.1f} ms, "
            f"max {max(lags) * 1000:.0f} ms"
        )


class RssWatch:
    """Samples the bot's resident memory every 50 ms; remembers when it peaked and how far
    the games were then."""

    def __init__(self, load: Load, pid: int) -> None:
        self.load = load
        self.pid = pid
        self.peak = 0
        self.peak_at = 0.0
        self.peak_tricks = 0.0
        self.started = time.monotonic()
        self.task = asyncio.get_running_loop().create_task(self._run())

    async def _run(self) -> None:
        with contextlib.suppress(FileNotFoundError, ProcessLookupError):
            while True:
                rss = rss_kb(self.pid)
                if rss > self.peak:
                    self.peak = rss
                    now = time.monotonic()
                    self.peak_at = now - self.started
                    self.peak_tricks = self.load.mean_trick()
                await asyncio.sleep(0.05)

    def describe(self) -> str:
        return (
            f"resident memory peaked at {self.peak / 1024:.0f} MB, {self.peak_at:.1f} s into "
            f"play, with the games at trick {self.peak_tricks:.1f} on average"
        )


def helpers_cpu(pids: list[int], args: argparse.Namespace) -> tuple[float, float]:
    """Return the CPU seconds so far of the bots' child processes (drawing) and of the
    database server (with ``--postgresql``)."""
    server = args.database_server
    return descendants_cpu(pids), descendants_cpu([server], include_roots=True) if server else 0.0


TIMED_OUT = re.compile(
    r"^(\S+ \S+) INFO bot\.tables: game (\d+): time ran out .* a computer decided"
)


def report_log(bot: BotProcess, games: list[Game]) -> int:
    """Print the bot's errors, warnings and turns decided by a computer: those of games
    still played, and those after the members stopped (at --tricks, by design); return
    the first."""
    text = bot.log()
    done_at = {game.db_id: game.done_at for game in games}
    timed_out = after_play = 0
    for line in text.splitlines():
        found = TIMED_OUT.match(line)
        if found is None:
            continue
        at = time.mktime(time.strptime(found.group(1).split(",")[0], "%Y-%m-%d %H:%M:%S"))
        done = done_at.get(int(found.group(2)))
        if done is not None and at >= int(done):
            after_play += 1
        else:
            timed_out += 1
    errors = bot.errors()
    warnings = sum(1 for line in text.splitlines() if " WARNING " in line)
    print(
        f"{bot.name} log: {len(errors)} error line(s), {warnings} warning(s), "
        f"{timed_out} turn(s) decided by a computer after the turn time "
        f"(and {after_play} in games whose members had stopped at --tricks)"
    )
    for line in errors[:5]:
        print(f"    {line[:200]}")
    return timed_out


async def measure_restart(
    load: Load,
    loopback: LoopbackDiscord,
    bots: list[BotProcess],
    settings: dict[str, Any],
    args: argparse.Namespace,
    driver_gc: GcPauses,
) -> None:
    """SIGKILL slice 0 (the only one, or one of several while the others go on), start it
    again, and press a card in every game of its servers as soon as it is ready; with
    ``--restarts N``, N times (each new process killed in turn), for figures a busy machine
    does not decide alone."""
    first = bots[0]
    first.kill()
    await first.wait()
    for bot in bots:
        load.timed_out += report_log(bot, load.games)
    load.phase = "restart"
    totals: list[float] = []
    shown: list[float] = []
    runs = args.restarts + (1 if args.profile_restart else 0)
    turns: dict[str, list[tuple[float, ...]]] = defaultdict(list)  # with --restart-bot-path
    for n in range(runs):
        profile = bool(args.profile_restart) and n == runs - 1
        other = args.restart_bot_path if n % 2 and args.restart_bot_path else None
        # What the driver made during play is out of its collector's reach: a collection
        # in the flood walks only what the restart makes (the driver's pauses are timed
        # as the bot's answers).
        gc.collect()
        gc.freeze()
        begun = time.monotonic()
        second = await restart_once(
            load, loopback, first, settings, args, profile=profile, bot_path=other
        )
        print(f"  {driver_gc.report(begun, 'this restart')}")
        if not profile:  # cProfile slows the process down several times
            totals.append(second[1])
            shown.append(second[2])
            turns[other or args.bot_path or "this copy"].append(second[1:])
        if n < runs - 1:
            second[0].kill()
            await second[0].wait()
    if len(totals) > 1:
        print(
            f"restarts: spawn → every game answered{' (on the pace)' if args.paced else ''}, "
            f"{len(totals)} runs: "
            + ", ".join(f"{t:.2f}" for t in totals)
            + f" s (median {statistics.median(totals):.2f} s); every pressed hand showing "
            + "its answer: "
            + ", ".join(f"{t:.2f}" for t in shown)
            + f" s (median {statistics.median(shown):.2f} s)"
        )
    if args.restart_bot_path:
        for path, times in turns.items():
            answered, shown_, cpu = zip(*times, strict=True)
            print(
                f"restarts of the bot from {path}: "
                + "; ".join(
                    f"{what} "
                    + ", ".join(f"{v:.2f}" for v in values)
                    + f" s (median {statistics.median(values):.2f} s)"
                    for what, values in (
                        ("every game answered", answered),
                        ("every pressed hand shown", shown_),
                        ("CPU by then", cpu),
                    )
                )
            )


async def restart_once(
    load: Load,
    loopback: LoopbackDiscord,
    first: BotProcess,
    settings: dict[str, Any],
    args: argparse.Namespace,
    *,
    profile: bool,
    bot_path: str | None = None,
) -> tuple[BotProcess, float, float, float]:
    """Start slice 0 again on its database (the bot from ``bot_path``, if given); press a
    card in every game of its servers at READY; print the figures; return the process,
    spawn → last answer, spawn → every pressed hand showing its answer and the CPU the
    process used by then."""
    slices = len({game.seats[0].slice for game in load.games})
    extra: dict[str, Any] = {}
    if bot_path is not None:
        env = dict(settings.get("env") or {})
        env["PYTHONPATH"] = str(Path(bot_path).resolve())
        extra["env"] = env
    if profile:
        extra["module"] = "bench.profiled_bot"
        env = dict(extra.get("env") or settings.get("env") or {})
        env["LOAD_PROFILE"] = str(Path(args.profile_restart).resolve())
        extra["env"] = env
    second = loopback.bot_process(
        first.workdir, **{**_slice_settings(settings, 0, slices), **extra}
    )
    await second.start()
    spawned = second.started_at
    paced_spawn = load.server.pace()
    pid = second.process.pid  # type: ignore[union-attr]
    lower_priority(pid, args.bot_nice)
    if args.pin:
        pin(pid, 1)
    spy_out = None
    if args.py_spy:
        stem, dot, ext = args.py_spy.rpartition(".")
        load.restarts += 1  # one profile a restart: -restart, -restart2, …
        tag = f"-restart{load.restarts if load.restarts > 1 else ''}"
        spy_out = f"{stem}{tag}{dot}{ext}" if dot else f"{args.py_spy}{tag}"
        await asyncio.sleep(0.2)  # py-spy needs the interpreter up
    spy = await start_py_spy(spy_out, pid, args.py_spy_rate)
    await second.wait_ready(timeout=120)
    ready = time.monotonic()
    paced_ready = load.server.pace()
    at_ready = Cpu.now(pid)
    lower_priority(pid, args.bot_nice)
    if args.pin:
        pin(pid, 1)
    mine = [game for game in load.games if game.seats[0].slice == 0]
    load.latency["restart"] = []
    load.harvest()
    load.restart_requests.clear()
    pressed = await asyncio.gather(*(load.restart_click(game) for game in mine))
    answered = [at for at in pressed if at is not None]
    last = max(at[0] for at in answered)
    paced_last = max(at[1] for at in answered)
    shown = max(at[2] for at in answered)
    paced_shown = max(at[3] for at in answered)
    cpu = Cpu.now(pid)
    if profile:
        os.kill(pid, signal.SIGUSR1)  # bench/profiled_bot.py writes its profile
    await stop_py_spy(spy, spy_out)
    loaded = re.search(r"loaded (\d+) live table", second.log())
    print()
    print(
        f"=== restart of slice 0 of {slices} with {loaded.group(1) if loaded else '?'} live "
        f"tables: SIGKILL, new process; one card pressed in every game of its servers at READY"
        + (f" (the bot from {bot_path})" if bot_path else "")
    )
    if args.paced:
        print(
            f"  on the pace (the wall clock less the time the machine kept the bench waiting "
            f"for a core): spawn → READY {paced_ready - paced_spawn:.2f} s, spawn → all "
            f"{len(answered)} games answered {paced_last - paced_spawn:.2f} s (READY → last "
            f"answer {paced_last - paced_ready:.2f} s; target ≤ 2 s), every pressed hand "
            f"showing its answer {paced_shown - paced_spawn:.2f} s; on the wall clock:"
        )
    print(f"  spawn → READY (commands synced, gateway identified): {ready - spawned:.2f} s")
    print(
        f"  spawn → all {len(answered)} games answered: {last - spawned:.2f} s "
        f"(READY → last answer {last - ready:.2f} s; target ≤ 2 s)"
    )
    print(
        f"  spawn → every pressed hand showing its answer: {shown - spawned:.2f} s (a click "
        f"acknowledged first, in a flood, shows its move when its hand is edited)"
    )
    load.harvest()
    made = Counter(kind for at, kind in load.restart_requests if at <= shown)
    print(
        "  requests to Discord from READY to the last hand shown: "
        + ", ".join(f"{kind} {n}" for kind, n in made.most_common())
    )
    print(
        f"  the new process used {cpu.bot:.2f} CPU s by the last hand shown (main thread "
        f"{cpu.bot_main:.2f}, other threads {cpu.bot_other:.2f}): {at_ready.bot:.2f} s to "
        f"READY, {cpu.bot - at_ready.bot:.2f} s from READY to the last hand shown; the driver "
        f"(Discord and the members) {cpu.driver - at_ready.driver:.2f} s meanwhile"
    )
    print(f"  {startup_timeline(second.log(), spawned)}")
    print_latencies(load, ("restart",), "  restart clicks")
    if len(answered) < len(pressed):
        print(f"  {len(pressed) - len(answered)} game(s) had no hand offering a card to press")
    print(f"  new process peak RSS: {peak_rss_mb(second.process.pid):.0f} MB")  # type: ignore[union-attr]
    if profile:
        await asyncio.sleep(1.0)
        print(f"  cProfile of the new process to its last answer: {args.profile_restart}")
    await asyncio.sleep(0.5)
    report_log(second, load.games)
    if args.paced:
        return second, paced_last - paced_spawn, paced_shown - paced_spawn, cpu.bot
    return second, last - spawned, shown - spawned, cpu.bot


STARTUP_MARKS = (
    ("logging in", "settings read, bot built"),
    ("loaded ", "tables loaded"),
    ("objects of the start-up", "start-up frozen"),
    ("has connected to Gateway", "gateway connected"),
)


def startup_timeline(log_text: str, spawned: float) -> str:
    """Return when the new process reached each step of its start, from its log's
    timestamps (wall clock, to the millisecond) against the bench's spawn."""
    offset = time.time() - time.monotonic()
    marks: list[str] = []
    for line in log_text.splitlines():
        for needle, name in STARTUP_MARKS:
            if needle in line:
                stamp, _, _rest = line.partition(" INFO ")
                try:
                    at = time.mktime(time.strptime(stamp[:19], "%Y-%m-%d %H:%M:%S"))
                    at += int(stamp[20:23]) / 1000
                except ValueError:
                    continue
                marks.append(f"{name} {at - offset - spawned:.2f} s")
    return "start-up (from spawn, by its log): " + ", ".join(marks)


def main() -> None:
    parser = argparse.ArgumentParser(description="Dupe bot process under load (loopback Discord)")
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--tricks", type=int, default=52, help="tricks to play per game (52: all)")
    parser.add_argument("--seed", type=int, default=1, help="seeds the members' choices")
    parser.add_argument("--restart", action="store_true", help="also measure a restart")
    parser.add_argument(
        "--restarts",
        type=int,
        default=1,
        help="with --restart: restart this many times in a row (each a card per game)",
    )
    parser.add_argument(
        "--profile-restart",
        metavar="FILE",
        help="with --restart: restart once more, under cProfile to the last answer (written to "
        "FILE; read it with python -m pstats); that run's times are not the bot's own",
    )
    parser.add_argument(
        "--paced",
        action="store_true",
        help="time on the pace of a machine busy with other work (the wall clock less the "
        "time the bench's processes waited for a core): Discord's 3 s and the restart "
        "figures count on it, and the bots answer every click up to 3 s late",
    )
    parser.add_argument(
        "--think", type=float, default=0.0, help="mean pause before each decision (s)"
    )
    parser.add_argument(
        "--stagger",
        type=float,
        default=0.0,
        help="games begin to play at evenly spread moments over this many seconds (in a "
        "random order), as tables on a real bot do, instead of all at once",
    )
    parser.add_argument(
        "--max-seconds", type=float, default=900, help="stop the play phase after this long"
    )
    parser.add_argument("--validate-every", type=int, default=100)
    parser.add_argument("--setup-concurrency", type=int, default=20)
    parser.add_argument("--turn-seconds", type=int, default=120)
    parser.add_argument("--edit-seconds", type=float, default=1.5)
    parser.add_argument(
        "--token-lifetime",
        type=float,
        default=TOKEN_LIFETIME,
        help="seconds the loopback Discord keeps the token of an interaction whose answer is a "
        "table message (Discord's: 900); the bot uses one for 14/15 of it. Shorter (60) shows "
        "them running out mid-game and the budget taking over",
    )
    parser.add_argument(
        "--pictures", choices=("on", "off"), default="on", help="the tables' pictures option"
    )
    parser.add_argument(
        "--computer-seat",
        metavar="LEVEL",
        help="one seat of every table played by a computer of this level (expert, basic, "
        "random), the other three by members",
    )
    parser.add_argument(
        "--bot-path",
        metavar="DIR",
        help="run the bot from this copy of the project (PYTHONPATH), to compare a change",
    )
    parser.add_argument(
        "--restart-bot-path",
        metavar="DIR",
        help="with --restart: every second restart runs the bot from this copy of the "
        "project (PYTHONPATH), the others from the first: a change and its baseline timed "
        "in turns, on the same tables, as the machine's speed drifts",
    )
    parser.add_argument(
        "--slices",
        type=int,
        default=1,
        help="bot processes, each one shard slice (shard_count N, shard_ids [n]) sharing the "
        "database; server g is on shard g mod N",
    )
    parser.add_argument(
        "--database",
        help="the database the slices share (a SQLite path or a postgresql:// URL; default: "
        "a new SQLite file)",
    )
    parser.add_argument(
        "--postgresql",
        action="store_true",
        help="share a new database of a throw-away PostgreSQL cluster (initdb, pg_ctl)",
    )
    parser.add_argument("--no-pin", dest="pin", action="store_false")
    parser.add_argument(
        "--bot-nice",
        type=int,
        default=10,
        help="the bot processes' nice value (0: the driver's), and with --postgresql the "
        "database server's: the driver stands in for Discord and the members, which use none "
        "of the bot host's CPU, so when both want a core the driver goes first and its own "
        "delays are not timed as the bot's",
    )
    parser.add_argument("--debug", action="store_true", help="print a stalled hand's history")
    parser.add_argument(
        "--py-spy",
        metavar="FILE",
        help="profile the bot during play with py-spy (.svg flame graph, .txt collapsed "
        "stacks, .json speedscope), and each restart (FILE-restart, FILE-restart2, …)",
    )
    parser.add_argument("--py-spy-rate", type=int, default=200, help="py-spy's samples per second")
    args = parser.parse_args()
    args.database_server = None
    if not args.postgresql:
        asyncio.run(run(args))
        return
    from tests.support.postgres import Cluster

    cluster = Cluster()
    try:
        lower_cluster_priority(cluster.data, args.bot_nice)
        args.database_server = int((cluster.data / "postmaster.pid").read_text().split()[0])
        args.database = cluster.url(cluster.database())
        asyncio.run(run(args))
    finally:
        cluster.close()


if __name__ == "__main__":
    main()
