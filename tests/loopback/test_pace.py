"""The pace the loopback Discord counts its deadlines and the tests' waits on: the time a
busy machine kept us waiting for a core is left out, the time we worked is not."""

from __future__ import annotations

import os
import subprocess
import sys
import time

import aiohttp
import pytest

from tests.loopback.driver import LoopbackDiscord
from tests.loopback.fake_discord import (
    DEFERRED_UPDATE,
    INTERACTION_DEADLINE,
    Interaction,
    ManualClock,
)
from tests.loopback.pace import Pace
from tests.loopback.test_loopback import BUTTON, Rest


def _work() -> None:
    """A fixed amount of work: about a tenth of a second of one core."""
    total = 0
    for n in range(3_000_000):
        total += n
    assert total


def test_the_pace_leaves_out_the_waits_for_a_core_and_counts_the_work() -> None:
    """This process and a busy child share one core: the child's turns are our waits. The
    pace counts our work (and at most the wall clock), not the waits."""
    pace = Pace()
    assert pace.enabled, "no /proc/<pid>/task/<tid>/schedstat: the pace cannot see the load"
    cpus = os.sched_getaffinity(0)
    os.sched_setaffinity(0, {min(cpus)})
    busy = subprocess.Popen([sys.executable, "-c", "while True: pass"])  # on our one core
    try:
        start, waited = pace(), pace.waited
        wall, cpu = time.monotonic(), time.process_time()
        for _ in range(5):
            _work()
        paced, waited = pace() - start, pace.waited - waited
        wall, cpu = time.monotonic() - wall, time.process_time() - cpu
    finally:
        busy.kill()
        busy.wait()
        os.sched_setaffinity(0, cpus)
    assert waited > wall / 4, (waited, wall)  # the child had its turns
    assert paced == pytest.approx(wall - waited, abs=0.05)
    assert paced >= cpu * 0.9, (paced, cpu)  # our own work counts in full


async def test_the_deadline_to_answer_counts_on_the_pace() -> None:
    """Three seconds of the pace, whatever the wall clock says: a callback after 2.9 s of
    it is taken, one after 3.01 s is refused as Discord refuses it."""
    pace = ManualClock(0.0)
    async with LoopbackDiscord.start(pace=pace) as discord, aiohttp.ClientSession() as http:
        rest = Rest(discord.server, http)
        server = discord.server
        guild = discord.create_guild("Busy")
        alice = guild.add_member("alice")
        body = {"content": "hi", "components": [{"type": 1, "components": [BUTTON]}]}
        status, posted, _ = await rest("POST", f"/channels/{guild.channel.id}/messages", body)
        assert status == 200

        def click() -> tuple[str, Interaction]:
            made = server.component_interaction(
                guild.channel.id, alice.id, int(posted["id"]), "press"
            )
            return f"/interactions/{made.id}/{made.token}/callback", made

        late, interaction = click()
        pace.advance(INTERACTION_DEADLINE + 0.01)
        assert server.gave_up_on(interaction)
        status, error, _ = await rest("POST", late, {"type": DEFERRED_UPDATE}, auth=False)
        assert (status, error["code"]) == (404, 10062)

        on_time, interaction = click()
        pace.advance(INTERACTION_DEADLINE - 0.1)
        assert not server.gave_up_on(interaction)
        status, _, _ = await rest("POST", on_time, {"type": DEFERRED_UPDATE}, auth=False)
        assert status == 204 and interaction.responded
