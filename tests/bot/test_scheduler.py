"""The scheduler that runs every timed job of the bot, on an injected clock."""

from __future__ import annotations

import asyncio
import logging

import pytest

from bot.scheduler import Scheduler


class Clock:
    """A manual clock; the scheduler's runner waits on it, recording how long it asked for."""

    def __init__(self) -> None:
        self.now = 1000.0
        self.waits: list[float | None] = []
        self._tick = asyncio.Event()

    def __call__(self) -> float:
        return self.now

    async def wait(self, timeout: float | None) -> None:
        self.waits.append(timeout)
        self._tick.clear()
        await self._tick.wait()

    def wake(self) -> None:
        self._tick.set()

    async def advance(self, seconds: float) -> None:
        self.now += seconds
        self._tick.set()
        for _ in range(10):
            await asyncio.sleep(0)


async def settle() -> None:
    for _ in range(10):
        await asyncio.sleep(0)


@pytest.fixture
async def setup() -> tuple[Scheduler, Clock, list[str]]:
    clock = Clock()
    return Scheduler(clock, wait=clock.wait, wake=clock.wake), clock, []


def job(ran: list[str], name: str):  # type: ignore[no-untyped-def]
    async def run() -> None:
        ran.append(name)

    return run


async def test_jobs_run_in_time_order_when_due(setup: tuple[Scheduler, Clock, list[str]]) -> None:
    scheduler, clock, ran = setup
    scheduler.at("b", clock.now + 20, job(ran, "b"))
    scheduler.at("a", clock.now + 10, job(ran, "a"))
    scheduler.at("c", clock.now + 30, job(ran, "c"))
    await settle()
    assert ran == []
    assert clock.waits[-1] == 10  # the runner sleeps until the earliest job only
    await clock.advance(10)
    assert ran == ["a"]
    assert clock.waits[-1] == 10
    await clock.advance(25)
    assert ran == ["a", "b", "c"]
    assert clock.waits[-1] is None  # nothing left: it waits to be woken
    assert len(scheduler) == 0
    await scheduler.close()


async def test_a_key_has_one_job_and_the_latest_replaces_it(
    setup: tuple[Scheduler, Clock, list[str]],
) -> None:
    scheduler, clock, ran = setup
    scheduler.at(("turn", 1), clock.now + 10, job(ran, "old"))
    scheduler.at(("turn", 1), clock.now + 40, job(ran, "new"))
    assert scheduler.pending(("turn", 1))
    assert scheduler.due(("turn", 1)) == clock.now + 40
    await clock.advance(20)
    assert ran == []
    await clock.advance(20)
    assert ran == ["new"]
    assert not scheduler.pending(("turn", 1))
    await scheduler.close()


async def test_an_earlier_job_wakes_the_runner(setup: tuple[Scheduler, Clock, list[str]]) -> None:
    scheduler, clock, ran = setup
    scheduler.at("late", clock.now + 100, job(ran, "late"))
    await settle()
    assert clock.waits == [100]
    scheduler.at("soon", clock.now + 5, job(ran, "soon"))
    await settle()
    assert clock.waits[-1] == 5  # woken, it now sleeps until the new earliest job
    scheduler.at("later", clock.now + 50, job(ran, "later"))
    await settle()
    assert clock.waits[-1] == 5  # a later job does not wake it
    await clock.advance(5)
    assert ran == ["soon"]
    await scheduler.close()


async def test_a_cancelled_job_never_runs(setup: tuple[Scheduler, Clock, list[str]]) -> None:
    scheduler, clock, ran = setup
    scheduler.at("x", clock.now + 1, job(ran, "x"))
    scheduler.at("y", clock.now + 2, job(ran, "y"))
    scheduler.cancel("x")
    scheduler.cancel("never-scheduled")
    await clock.advance(5)
    assert ran == ["y"]
    await scheduler.close()


async def test_a_due_job_runs_at_once(setup: tuple[Scheduler, Clock, list[str]]) -> None:
    scheduler, clock, ran = setup
    scheduler.at("now", clock.now, job(ran, "now"))
    scheduler.at("past", clock.now - 3, job(ran, "past"))
    await settle()
    assert sorted(ran) == ["now", "past"]
    await scheduler.close()


async def test_a_failing_job_is_logged_and_others_still_run(
    setup: tuple[Scheduler, Clock, list[str]], caplog: pytest.LogCaptureFixture
) -> None:
    scheduler, clock, ran = setup

    async def boom() -> None:
        raise RuntimeError("boom")

    scheduler.at("bad", clock.now + 1, boom)
    scheduler.at("good", clock.now + 2, job(ran, "good"))
    with caplog.at_level(logging.ERROR, logger="bot.scheduler"):
        await clock.advance(1)
        await clock.advance(1)
    assert ran == ["good"]
    assert any("timed job bad failed" in r.getMessage() for r in caplog.records)
    await scheduler.close()


async def test_a_job_may_schedule_its_own_key_again(
    setup: tuple[Scheduler, Clock, list[str]],
) -> None:
    scheduler, clock, ran = setup

    async def warn() -> None:
        ran.append("warn")
        scheduler.at("turn", clock.now + 30, job(ran, "expire"))

    scheduler.at("turn", clock.now + 90, warn)
    await clock.advance(90)
    assert ran == ["warn"]
    assert scheduler.due("turn") == clock.now + 30
    await clock.advance(30)
    assert ran == ["warn", "expire"]
    await scheduler.close()


async def test_close_stops_running_jobs_and_forgets_the_rest(
    setup: tuple[Scheduler, Clock, list[str]],
) -> None:
    scheduler, clock, ran = setup
    started = asyncio.Event()

    async def slow() -> None:
        started.set()
        await asyncio.Event().wait()  # never finishes by itself
        ran.append("slow finished")

    scheduler.at("slow", clock.now, slow)
    scheduler.at("later", clock.now + 10, job(ran, "later"))
    await started.wait()
    await scheduler.close()
    assert len(scheduler) == 0
    scheduler.at("after-close", clock.now, job(ran, "after-close"))
    await clock.advance(20)
    assert ran == []


async def test_many_replacements_keep_the_heap_small(
    setup: tuple[Scheduler, Clock, list[str]],
) -> None:
    scheduler, clock, ran = setup
    for table in range(100):
        for step in range(50):
            scheduler.at(("edit", table), clock.now + 1000 + step, job(ran, f"t{table}"))
    assert len(scheduler) == 100
    assert len(scheduler._heap) <= 2 * 100 + 1
    await clock.advance(2000)
    assert sorted(ran) == sorted(f"t{table}" for table in range(100))
    await scheduler.close()


async def test_the_default_waiting_uses_an_event() -> None:
    """Without injected waiting, a job due now runs, and an earlier job wakes the runner."""
    clock = Clock()
    scheduler = Scheduler(clock)
    ran: list[str] = []
    scheduler.at("later", clock.now + 3600, job(ran, "later"))
    await settle()
    scheduler.at("now", clock.now, job(ran, "now"))
    await settle()
    assert ran == ["now"]
    assert scheduler.pending("later")
    await scheduler.close()
