"""A bot process's start with no table: spawn → READY, and what its imports cost.

    .venv/bin/python bench/start.py [--runs 5] [--importtime] [--profile FILE] [--bot-path DIR]
        [--no-compile]

Starts ``python -m bot`` (as the loopback tests do, :class:`tests.loopback.driver.BotProcess`)
against the loopback Discord on a new, empty database ``--runs`` times, one after another,
and prints per run spawn → READY (commands synced, gateway identified) and the CPU the
process used by then (``/proc``: a busy machine stretches the wall clock, not this); then
the median of each. ``--importtime`` runs each with ``-X importtime`` and prints the
median of its imports' total, the modules that took longest (cumulative, in the last run)
and which of the heavy optional ones it imported before READY (the bot imports them when
first needed). ``--profile FILE`` starts once more under cProfile (``bench/profiled_bot.py``)
and writes its profile, spawn to READY, to FILE (read it with ``python -m pstats``). The
bot's and the engine's bytecode is written first, as installing does (``--no-compile``: not;
where ``PYTHONDONTWRITEBYTECODE`` is set and the sources have no ``__pycache__``, every
start then compiles them).

Figures, not assertions.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import re
import signal
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.load import Cpu, compile_sources, load_line
from tests.loopback.driver import LoopbackDiscord

IMPORT_LINE = re.compile(r"^import time:\s+(\d+) \|\s+(\d+) \|( *)(\S+)$")
HEAVY = ("PIL", "openskill", "endplay", "asyncpg", "jsonschema", "hypothesis", "simcord")


def imports(log: str) -> dict[str, tuple[int, int]]:
    """Return each module's own and cumulative import time (µs), from ``-X importtime``."""
    found: dict[str, tuple[int, int]] = {}
    for line in log.splitlines():
        match = IMPORT_LINE.match(line)
        if match:
            found[match.group(4)] = (int(match.group(1)), int(match.group(2)))
    return found


async def run(args: argparse.Namespace) -> None:
    root = Path(args.bot_path or Path(__file__).resolve().parent.parent)
    if args.compile:
        compile_sources(root)
    env: dict[str, str] = {}
    if args.bot_path:
        env["PYTHONPATH"] = str(root.resolve())
    if args.importtime:
        env["PYTHONPROFILEIMPORTTIME"] = "1"
    walls: list[float] = []
    cpus: list[float] = []
    totals: list[float] = []
    last: dict[str, tuple[int, int]] = {}
    print(f"start: {args.runs} run(s), bot from {root}; {load_line()}", flush=True)
    async with LoopbackDiscord.start(action_timeout=60.0) as loopback:
        for n in range(args.runs):
            workdir = Path(tempfile.mkdtemp(prefix="parlour-start-"))
            bot = loopback.bot_process(workdir, env=env)
            await bot.start()
            pid = bot.process.pid  # type: ignore[union-attr]
            await bot.wait_ready(timeout=120)
            wall = time.monotonic() - bot.started_at
            cpu = Cpu.now(pid).bot
            await bot.stop()
            walls.append(wall)
            cpus.append(cpu)
            line = f"  run {n + 1}: spawn → READY {wall:.2f} s, CPU {cpu:.2f} s"
            if args.importtime:
                last = imports(bot.log())
                total = sum(own for own, _ in last.values()) / 1e6
                totals.append(total)
                line += f", imports {len(last)} modules {total:.2f} s"
            print(line, flush=True)
        if args.profile:
            await profile_once(loopback, env, Path(args.profile).resolve())
    print(
        f"start to READY, {args.runs} run(s): median {statistics.median(walls):.2f} s "
        f"(min {min(walls):.2f}), CPU median {statistics.median(cpus):.2f} s "
        f"(min {min(cpus):.2f})"
    )
    if args.importtime and last:
        print(
            f"imports (-X importtime, which slows them a little): median "
            f"{statistics.median(totals):.2f} s, min {min(totals):.2f} s"
        )
        slowest = sorted(last.items(), key=lambda item: -item[1][1])[: args.top]
        for name, (own, cumulative) in slowest:
            print(f"  {cumulative / 1000:7.1f} ms cumulative {own / 1000:7.1f} ms own  {name}")
        heavy = sorted({name.split(".")[0] for name in last} & set(HEAVY))
        print(f"heavy optional modules imported before READY: {', '.join(heavy) or 'none'}")


async def profile_once(loopback: LoopbackDiscord, env: dict[str, str], out: Path) -> None:
    """Start once more under cProfile; write its profile from spawn to READY to ``out``."""
    workdir = Path(tempfile.mkdtemp(prefix="parlour-start-"))
    env = {**env, "LOAD_PROFILE": str(out)}
    env.pop("PYTHONPROFILEIMPORTTIME", None)
    bot = loopback.bot_process(workdir, env=env, module="bench.profiled_bot")
    await bot.start()
    await bot.wait_ready(timeout=120)
    os.kill(bot.process.pid, signal.SIGUSR1)  # type: ignore[union-attr]
    await asyncio.sleep(1.0)  # it writes the profile
    await bot.stop()
    print(f"cProfile of a start, spawn to READY: {out}")


def main() -> None:
    parser = argparse.ArgumentParser(description="A bot process's start to READY, no table")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--importtime", action="store_true", help="run with -X importtime")
    parser.add_argument(
        "--no-compile", dest="compile", action="store_false", help="write no bytecode first"
    )
    parser.add_argument("--profile", type=str, default=None, help="cProfile a start to FILE")
    parser.add_argument("--top", type=int, default=25, help="slowest imports to print")
    parser.add_argument(
        "--bot-path", type=str, default=None, help="run the bot from this copy of the project"
    )
    asyncio.run(run(parser.parse_args()))


if __name__ == "__main__":
    main()
