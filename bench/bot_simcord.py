"""The bot under load in simcord: N concurrent tables of four simulated members.

    .venv/bin/python bench/bot_simcord.py --games 100 [--tricks 52]
    .venv/bin/python bench/bot_simcord.py --games 1000 --tricks 13
    .venv/bin/python bench/bot_simcord.py --game doppelkopf --games 100 [--tricks 48]
    .venv/bin/python bench/bot_simcord.py --game doppelkopf --games 20 --computers expert
    .venv/bin/python bench/bot_simcord.py --game whist --games 100 --tricks 26
    .venv/bin/python bench/bot_simcord.py --game whist --games 20 --tricks 26 --members 3 \
        --computers expert
    .venv/bin/python bench/bot_simcord.py --game dukes_up --games 50 --tricks 40

Dupe's members choose at once (all four each round); Doppelkopf's in turn, so in a round
each member plays when it is their turn as the round reaches them (two to four cards of a
trick a round), the reservations too (``--game doppelkopf``: members say Healthy). Whist
(``--game whist``, short whist unless ``--variant``): members play their first legal card
in turn, as Doppelkopf's; with ``--members`` fewer than the seats and ``--computers``, the
computer players fill the rest (``expert`` searches, off the event loop); Doppelkopf with
``--computers`` seats two members and two computers unless ``--members`` says otherwise
(its ``expert`` samples deals, off the event loop: ``Game.slow_levels``). Dukes Up!
(``--game dukes_up``, two members): in a round the member to move plays a whole turn, step
by step on the private panel — draws the most cards, asks for a proposed arrangement of all
their source cards (the search; Accept when one exists, else Back), places what the legal
listing offers (a new group, an accepted proposal, an addition, up to three), then ends the
turn (Finish, else a discard) — and ``--tricks`` counts turns.

Every table is opened with /dupe start, filled by four members pressing Join, started, and
then played round by round: in each round every member of every table makes one decision
(a card, or as taker the distribution steps), the tables interleaved, and then 5 seconds
of simcord's virtual time pass (members "think"), in which the table-message edits combined
during the round go out (table_edit_seconds is the default 1.5; turn time the default
2 minutes). It prints:

- bot CPU time per interaction (median, p99): the CPU time of the event-loop thread spent
  in the steps of the bot's handler for the click (not while it waits), minus the time spent
  inside simcord's fake REST calls
  (which stand in for Discord's servers), so it is the bot's own work: parsing, engine,
  rendering, discord.py. SQLite commits run in aiosqlite's thread and are not counted.
- channel REST calls per trick that are not interaction responses (table message edits and
  scoring posts), and the same by kind;
- memory per live table: the deep size of what the bot keeps per table (engine state, seats,
  computer players, lock, timer task, the interactions kept to update members' hands),
  without what all tables share; with ``--trace``, for reference, all traced allocations
  per table by the code that made them, which include the fake Discord's own copies of
  every message (tracing slows the run several times).

Figures, not assertions. Targets: p99 ≤ 10 ms, ≤ 3 channel calls per trick (Doppelkopf and
whist ≤ 2), ≤ 20 KB/table.
"""

from __future__ import annotations

import argparse
import asyncio
import contextvars
import gc
import resource
import statistics
import sys
import tempfile
import time
import tracemalloc
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import discord
import simcord

from bot import controller as controller_module
from tests.bot.helpers import DukesSeat, act_once, make_bot

_http_cpu: contextvars.ContextVar[list[float] | None] = contextvars.ContextVar(
    "_http_cpu", default=None
)
CPU: list[float] = []
# Members "think" this long (simcord's virtual clock) after each round of decisions; the
# table-message edits combined during the round go out then. The bot's timed jobs all wait
# in one scheduler task that simcord sees as the client waiting for an event, so they run
# on the virtual clock only. The settle timeout bounds how long (in real time) one
# advance of the clock may take to run every table's jobs.
SETTLE_SECONDS = 120.0
EDIT_SECONDS = 1.5  # the default table_edit_seconds
THINK_SECONDS = 5.0
TOP = 0
DEBUG_TYPES: Counter[str] | None = None
IDLE = 0.001


class _Stepper:
    """Runs a coroutine, adding up the thread CPU time of its own steps only: while it is
    suspended (waiting for SQLite's thread, say) other tasks' work is not counted."""

    def __init__(self, coro: Any) -> None:
        self.coro = coro
        self.cpu = 0.0

    def __await__(self) -> Any:
        value: Any = None
        error: BaseException | None = None
        while True:
            start = time.thread_time()
            try:
                yielded = self.coro.throw(error) if error is not None else self.coro.send(value)
            except StopIteration as stop:
                self.cpu += time.thread_time() - start
                return stop.value
            self.cpu += time.thread_time() - start
            try:
                value, error = (yield yielded), None
            except BaseException as raised:
                value, error = None, raised


def instrument(record: Callable[[discord.Interaction, float], None] | None = None) -> None:
    """Time the bot's handlers, and the fake Discord's REST and webhook calls made inside
    them, in CPU time of the event-loop thread; each handled interaction's own CPU (less
    those calls) goes to ``record`` (default: :data:`CPU`)."""
    from simcord.http import client as fake

    def timed(original: Any) -> Any:
        async def request(*args: Any, **kwargs: Any) -> Any:
            bucket = _http_cpu.get()
            start = time.thread_time()
            try:
                return await original(*args, **kwargs)
            finally:
                if bucket is not None:
                    bucket[0] += time.thread_time() - start

        return request

    fake.FakeWebhookAdapter.request = timed(fake.FakeWebhookAdapter.request)  # type: ignore[method-assign]
    fake.FakeHTTPClient.request = timed(fake.FakeHTTPClient.request)  # type: ignore[method-assign]
    original_safely = controller_module.Controller.safely

    async def timed_safely(self: Any, interaction: discord.Interaction, coro: Any) -> None:
        bucket = [0.0]
        token = _http_cpu.set(bucket)
        stepper = _Stepper(original_safely(self, interaction, coro))
        try:
            await stepper
        finally:
            cpu = stepper.cpu - bucket[0]
            if record is None:
                CPU.append(cpu)
            else:
                record(interaction, cpu)
            _http_cpu.reset(token)

    controller_module.Controller.safely = timed_safely  # type: ignore[method-assign]


GC_PAUSES: list[float] = []
_gc_started = [0.0]


def _on_gc(phase: str, info: dict[str, int]) -> None:
    if info.get("generation") != 2:
        return
    if phase == "start":
        _gc_started[0] = time.thread_time()
    else:
        GC_PAUSES.append(time.thread_time() - _gc_started[0])


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, int(q * len(ordered) + 0.999999) - 1))]


def own_bytes(bot: Any) -> float:
    """Return the mean size of what the bot keeps for each live table: the table (state,
    seats, computer players, lock, timer task) and the interactions it keeps to update
    members' hands — not objects shared by all tables (cards, the discord.py cache of
    servers and members, the store, the event loop)."""
    import types

    from bot.app import Bot
    from bot.controller import Controller
    from bot.games.doppelkopf.ui import DoppelkopfUI
    from bot.games.dukes_up.ui import DukesUpUI
    from bot.games.dupe.ui import DupeUI
    from bot.games.whist.ui import WhistUI
    from bot.store import SQLiteStore
    from bot.tables import Tables
    from engine.cards import Card
    from engine.doppelkopf import GAME as DOPPELKOPF
    from engine.doppelkopf import Action
    from engine.doppelkopf.orders import Order
    from engine.dukes_up import GAME as DUKES_UP
    from engine.dupe import GAME, Distribute, Play
    from engine.whist import GAME as WHIST
    from engine.whist.actions import Action as WhistAction

    shared_types = (
        type,
        types.ModuleType,
        types.FunctionType,
        types.BuiltinFunctionType,
        types.CodeType,
        Bot,
        Controller,
        Tables,
        DupeUI,  # every table's ui (and through it the engine's game): one for all
        DoppelkopfUI,
        WhistUI,
        DukesUpUI,
        type(GAME),
        type(DOPPELKOPF),
        type(WHIST),
        type(DUKES_UP),
        Action,  # the engine's card actions are made once, shared by every table
        WhistAction,
        Order,
        SQLiteStore,
        Card,
        Play,
        Distribute,
        asyncio.AbstractEventLoop,
        discord.Guild,
        discord.Member,
        discord.User,
        discord.Role,
        discord.abc.GuildChannel,
        discord.ClientUser,
    )
    shared_ids = {id(bot._connection), id(bot.http), id(bot.store), id(bot.controller.tables)}
    seen: set[int] = set(shared_ids)
    total = 0
    for table in bot.controller.tables.tables.values():
        roots: list[Any] = [table]
        roots += [h for (gid, _), h in bot.controller._hands.items() if gid == table.id]
        stack = roots
        while stack:
            obj = stack.pop()
            if id(obj) in seen or isinstance(obj, shared_types):
                continue
            if (
                isinstance(obj, (int, float, bool, type(None)))
                or getattr(obj, "__module__", "") == "enum"
            ):
                continue
            seen.add(id(obj))
            total += sys.getsizeof(obj)
            module = type(obj).__module__
            if isinstance(obj, asyncio.Task):
                coro = obj.get_coro()
                total += sys.getsizeof(coro) + sys.getsizeof(getattr(coro, "cr_frame", None))
                continue
            if not (
                module == "builtins"
                or module.startswith(("bot.", "engine.", "collections"))
                or isinstance(obj, discord.Interaction)
            ):
                continue
            if DEBUG_TYPES is not None:
                DEBUG_TYPES[type(obj).__module__ + "." + type(obj).__qualname__] += sys.getsizeof(
                    obj
                )
            stack.extend(gc.get_referents(obj))
    return total / max(1, len(bot.controller.tables.tables))


def traced_by_group() -> dict[str, int]:
    snapshot = tracemalloc.take_snapshot()
    groups: Counter[str] = Counter()
    for stat in snapshot.statistics("filename"):
        name = stat.traceback[0].filename
        if "/simcord/" in name:
            groups["simcord"] += stat.size
        elif "/discord/" in name:
            groups["discord.py"] += stat.size
        elif "/bot/" in name or "/engine/" in name:
            groups["bot+engine"] += stat.size
        else:
            groups["other"] += stat.size
    return dict(groups)


def tricks_done(state: Any) -> int:
    """Return how many tricks the table has played (Dukes Up!: turns)."""
    if hasattr(state, "first_player"):  # Dukes Up!: turns ended
        return max(0, int(state.turn) - 1)
    if hasattr(state, "honour_holders"):  # whist: 13 tricks a deal
        return 13 * len(state.results) + int(state.completed)
    if hasattr(state, "played_games"):  # Doppelkopf: the 12th trick plays itself
        cards = sum(1 for move in state.moves if move.action.card is not None)
        return (cards + 4 * len(state.game_results)) // 4
    return int(len(state.moves) and (state.deal - 1) * 13 + state.trick - 1)


async def run(
    games: int,
    tricks: int,
    trace: bool,
    game: str = "dupe",
    members_per_table: int | None = None,
    computers: str = "none",
    variant: str | None = None,
) -> None:
    # simcord settles each action by polling every `idle` seconds of real time while a bot
    # task is parked; a short poll only makes the run faster.
    simcord.Env._settle_internal.__kwdefaults__["idle"] = IDLE
    folder = Path(tempfile.mkdtemp(prefix="dupe-bench-"))
    turn = 180 if game == "dukes_up" else 120  # the game's own default turn time
    bot = make_bot(folder / "bench.sqlite3", table_edit_seconds=EDIT_SECONDS, turn_seconds=turn)
    # Doppelkopf with --computers: two members and two computers a table unless --members
    # says otherwise (with four members no computer would ever decide).
    computer_seats = game == "doppelkopf" and computers != "none"
    seated = members_per_table or (2 if game == "dukes_up" or computer_seats else 4)
    command = "dukesup" if game == "dukes_up" else game
    start_options: dict[str, Any] = {"computers": computers}
    if variant is not None:
        start_options["variant"] = variant
    instrument()
    if trace:
        tracemalloc.start(1)
    async with simcord.run(bot, settle_timeout=SETTLE_SECONDS) as env:
        worlds = []
        for g in range(games):
            guild = env.create_guild(name=f"g{g}")
            channel = guild.create_text_channel(game)
            members = [guild.add_member(env.create_user(f"p{g}-{i}")) for i in range(seated)]
            worlds.append((channel, members))
        # The servers, channels and members exist before any table does: what a table costs
        # is what appears from here on.
        gc.collect()
        if trace:
            before = traced_by_group()
            before_snapshot = tracemalloc.take_snapshot()
        setup_started = time.perf_counter()
        tables = []
        dukes: list[list[DukesSeat]] = []
        for channel, members in worlds:
            await members[0].slash(channel, f"{command} start", **start_options)
            table = channel.last_message
            for member in members[1:]:
                await member.click(table, label="Join")
            await members[0].click(table, label="Start")
            hands = []
            for member in members:
                result = await member.click(table, label="My hand")
                hands.append(result.response)
            tables.append((channel, members, hands))
            if game == "dukes_up":
                live = bot.controller.tables.table_in(channel.id)
                assert live is not None
                pairs = enumerate(zip(members, hands, strict=True))
                dukes.append([DukesSeat(m, h, live, i) for i, (m, h) in pairs])
        followed = list(bot.controller.tables.tables.values())  # kept once finished too
        print(
            f"{games} tables opened and started in {time.perf_counter() - setup_started:.1f} s",
            file=sys.stderr,
        )
        start_requests = len(env.http_requests)
        CPU.clear()
        gc.callbacks.append(_on_gc)
        started = time.perf_counter()
        played_rounds = 0
        own = 0.0
        during: dict[str, int] = {}
        for _ in range(tricks * 2):
            for t, (_channel, members, hands) in enumerate(tables):
                if game == "dukes_up":
                    for seat in dukes[t]:
                        await seat.act()
                    continue
                for i, member in enumerate(members):
                    result = await act_once(member, hands[i])
                    if result is not None and result.response is not None:
                        hands[i] = result.response
            played_rounds += 1
            print(
                f"round {played_rounds}: {len(CPU)} interactions, "
                f"{time.perf_counter() - started:.1f} s",
                file=sys.stderr,
            )
            await env.advance_time(THINK_SECONDS)
            if played_rounds == 1:
                gc.collect()
                own = own_bytes(bot)
                if trace:
                    during = traced_by_group()
                if DEBUG_TYPES:
                    print(DEBUG_TYPES.most_common(15), file=sys.stderr)
                if trace and TOP:
                    diff = tracemalloc.take_snapshot().compare_to(before_snapshot, "lineno")
                    for stat in diff[:TOP]:
                        print(f"    {stat}", file=sys.stderr)
            live = bot.controller.tables.tables
            if not live or min(tricks_done(t.state) for t in live.values()) >= tricks:
                break
        elapsed = time.perf_counter() - started
        requests = env.http_requests[start_requests:]
        if game in ("dupe", "doppelkopf"):
            live_tables = bot.controller.tables.tables.values()
            tricks_played = sum(tricks_done(t.state) for t in live_tables)
            finished = games - len(bot.controller.tables.tables)
            tricks_played += finished * (52 if game == "dupe" else 48)
        else:  # a finished table's last state tells its tricks (turns)
            tricks_played = sum(tricks_done(t.state) for t in followed)
        unit = "turn" if game == "dukes_up" else "trick"
        kinds: Counter[str] = Counter()
        for r in requests:
            if r.path.startswith("/channels/"):
                route = "/".join("{id}" if p.isdigit() else p for p in r.path.split("/"))
                kinds[f"{r.method} {route}"] += 1
        channel_calls = sum(kinds.values())
        print(
            f"tables: {games}; {unit}s played: {tricks_played}; interactions: {len(CPU)}; "
            f"wall time {elapsed:.1f} s; peak RSS of the whole run (simcord included) "
            f"{resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MB"
        )
        ms = [c * 1000 for c in CPU]
        print(
            f"bot CPU per interaction: median {statistics.median(ms):.2f} ms, "
            f"p99 {percentile(ms, 0.99):.2f} ms, max {max(ms):.2f} ms (target p99 ≤ 10 ms); "
            f"{sum(1 for m in ms if m > 10)} of {len(ms)} above 10 ms"
        )
        if GC_PAUSES:
            print(
                f"    full garbage collections during play: {len(GC_PAUSES)}, longest "
                f"{max(GC_PAUSES) * 1000:.0f} ms (they scan the whole heap, most of it simcord's "
                "record of every request and message; one that falls inside an interaction "
                "counts in its time)"
            )
        target = {"dupe": " (target ≤ 3)", "dukes_up": ""}.get(game, " (target ≤ 2)")
        print(
            f"channel REST calls per {unit} (not interaction responses): "
            f"{channel_calls / max(1, tricks_played):.2f}{target}"
        )
        for kind, count in kinds.most_common():
            print(f"    {kind}: {count / max(1, tricks_played):.2f} per {unit} ({count})")
        print(
            f"memory per live table: {own / 1024:.1f} KB kept by the bot (deep size of the "
            "table's state, players, timer and kept interactions; target ≤ 20 KB)"
        )
        if trace:
            per_table = {k: (during.get(k, 0) - before.get(k, 0)) / games for k in during}
            print(
                "all traced allocations per table, by the code that made them (they include "
                "what simcord's fake Discord keeps of the bot's messages): bot+engine "
                f"{per_table.get('bot+engine', 0) / 1024:.1f} KB, discord.py "
                f"{per_table.get('discord.py', 0) / 1024:.1f} KB, simcord "
                f"{per_table.get('simcord', 0) / 1024:.1f} KB"
            )
    await bot.store.close()  # simcord detaches the bot without closing it
    if trace:
        tracemalloc.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description="The bot under load in simcord")
    parser.add_argument(
        "--game", choices=("dupe", "doppelkopf", "whist", "dukes_up"), default="dupe"
    )
    parser.add_argument("--variant", default=None, help="whist: the variant (short)")
    parser.add_argument(
        "--members", type=int, default=None, help="members per table (default: every seat)"
    )
    parser.add_argument(
        "--computers", default="none", help="the level of computers filling empty seats"
    )
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--tricks", type=int, default=52, help="tricks to play per table")
    parser.add_argument("--trace", action="store_true", help="also trace every allocation (slow)")
    parser.add_argument(
        "--top", type=int, default=0, help="with --trace, list the N largest allocation sites"
    )
    args = parser.parse_args()
    global TOP
    TOP = args.top
    asyncio.run(
        run(
            args.games,
            args.tricks,
            args.trace,
            args.game,
            members_per_table=args.members,
            computers=args.computers,
            variant=args.variant,
        )
    )


if __name__ == "__main__":
    main()
