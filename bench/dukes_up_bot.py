"""Dukes Up! on Discord: the bot's CPU per interaction, the layout search included.

    .venv/bin/python bench/dukes_up_bot.py [--matches 6] [--max-turns 50]

Two members play whole matches in simcord by clicks, selects and forms, as the tests'
whole-match driver does (``tests/bot/test_dukes_up_table.py``: every draw kind, new groups,
additions, proposals and their acceptance, D1–D4, the setup by selects). The CPU time of the
event-loop thread spent in the bot's handler of each interaction is counted, less the fake
Discord's REST calls inside it (as ``bench/bot_simcord.py`` counts it), and reported overall
and by control kind: ``pr`` (Propose: the A4 search), ``ac`` (Accept: the search again and
the move), ``dc`` (a discard's card: the D4 offer's search), the draw, the panel itself.

Figures, not assertions. Target: p99 ≤ 10 ms per interaction with the search.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import discord
import simcord

from bench.bot_simcord import instrument, percentile
from bot import ids
from tests.bot.driver import World
from tests.bot.helpers import make_bot
from tests.bot.test_dukes_up_table import open_match, play_turn, setup_both

CPU: dict[str, list[float]] = defaultdict(list)


def _kind(interaction: discord.Interaction) -> str:
    data: Any = interaction.data or {}
    if "custom_id" not in data:
        return "command"
    parsed = ids.parse(str(data["custom_id"]))
    if isinstance(parsed, ids.Control):
        return parsed.payload[:2] or "x"
    return "table button"


def _record(interaction: discord.Interaction, cpu: float) -> None:
    CPU[_kind(interaction)].append(cpu)


def _line(name: str, seconds: list[float]) -> str:
    ms = [s * 1000 for s in seconds]
    return (
        f"{name}: {len(ms)} interactions, median {statistics.median(ms):.2f} ms, "
        f"p99 {percentile(ms, 0.99):.2f} ms, max {max(ms):.2f} ms"
    )


async def run(matches: int, max_turns: int) -> None:
    instrument(_record)
    simcord.Env._settle_internal.__kwdefaults__["idle"] = 0.001
    started = time.perf_counter()
    turns = 0
    with tempfile.TemporaryDirectory(prefix="dukes-up-bench-") as scratch:
        db = Path(scratch) / "dukes_up.sqlite3"
        bot = make_bot(db)
        env = simcord.Env(bot)
        await env.start()
        try:
            guild = env.create_guild("Dukes Up! Club")
            channel = guild.create_text_channel("dukes-up")
            world = World(env=env, db=db, bot=bot, guild=guild, channel=channel)
            for number in range(matches):
                world.pin_seed(number + 1)
                match = await open_match(world, max_turns=max_turns)
                await setup_both(match)
                played = 0
                while match.state.phase == "turn":
                    await play_turn(match, match.state.to_act[0], played)
                    played += 1
                turns += played
                print(f"match {number + 1}: {played} turns", file=sys.stderr)
        finally:
            await env.shutdown()
            await bot.store.close()
    every = [c for values in CPU.values() for c in values]
    print(
        f"matches: {matches} (max_turns {max_turns}); turns: {turns}; "
        f"wall time {time.perf_counter() - started:.1f} s"
    )
    print(_line("bot CPU per interaction", every) + " (target p99 ≤ 10 ms)")
    for kind, values in sorted(CPU.items(), key=lambda kv: -len(kv[1])):
        print("    " + _line(kind, values))


def main() -> None:
    parser = argparse.ArgumentParser(description="Dukes Up!: the bot's CPU per interaction")
    parser.add_argument("--matches", type=int, default=6)
    parser.add_argument("--max-turns", type=int, default=50, choices=(50, 100, 200, 400))
    args = parser.parse_args()
    asyncio.run(run(args.matches, args.max_turns))


if __name__ == "__main__":
    main()
