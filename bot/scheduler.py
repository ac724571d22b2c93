"""One task for every timed job of the bot: turn timers and combined table-message edits.

A thousand live tables need a thousand deadlines, not a thousand sleeping tasks. The
:class:`Scheduler` keeps the jobs in a heap keyed by what they are for (``("turn", game)``,
``("edit", game)``); scheduling a key again replaces its job, so a table never has two
timers. One runner task sleeps until the earliest job is due, and is woken early when an
earlier one arrives. Each due job runs in its own short task, so a slow Discord request for
one table never delays another table's timer.

The runner waits through a ``wait(timeout)`` coroutine and is woken by ``wake()``. By
default these use an :class:`asyncio.Event`; the bot passes ``Client.wait_for`` on a private
event and ``Client.dispatch`` of it instead, so that anything driving discord.py's client
(a test harness with a virtual clock) sees the runner as the client waiting for an event.
"""

from __future__ import annotations

import asyncio
import contextlib
import heapq
import itertools
import logging
from collections.abc import Awaitable, Callable, Hashable

__all__ = ["Job", "Scheduler"]

log = logging.getLogger(__name__)

Job = Callable[[], Awaitable[None]]


class Scheduler:
    """Jobs at absolute times of ``clock`` (seconds), one pending job per key."""

    def __init__(
        self,
        clock: Callable[[], float],
        *,
        wait: Callable[[float | None], Awaitable[object]] | None = None,
        wake: Callable[[], None] | None = None,
    ) -> None:
        self.clock = clock
        self._event = asyncio.Event()
        self._wait = self._wait_event if wait is None else wait
        self._wake = self._event.set if wake is None else wake
        self._heap: list[tuple[float, int, Hashable]] = []
        self._jobs: dict[Hashable, tuple[float, int, Job]] = {}
        self._counter = itertools.count()
        self._runner: asyncio.Task[None] | None = None
        self._running: set[asyncio.Task[None]] = set()
        self._waiting_until: float | None = None
        self._waiting = False
        self._closed = False

    # --- the jobs --------------------------------------------------------------------

    def at(self, key: Hashable, when: float, job: Job) -> None:
        """Run ``job`` at ``when``, replacing the job ``key`` had."""
        if self._closed:
            return
        seq = next(self._counter)
        self._jobs[key] = (when, seq, job)
        heapq.heappush(self._heap, (when, seq, key))
        if len(self._heap) > 64 and len(self._heap) > 2 * len(self._jobs):
            self._compact()
        self._ensure_runner()
        if self._waiting and (self._waiting_until is None or when < self._waiting_until):
            self._waiting = False
            self._wake()

    def cancel(self, key: Hashable) -> None:
        """Forget the job of ``key`` if it has not started (its heap entry goes stale)."""
        self._jobs.pop(key, None)

    def pending(self, key: Hashable) -> bool:
        """Return whether ``key`` has a job that has not started."""
        return key in self._jobs

    def due(self, key: Hashable) -> float | None:
        """Return when the job of ``key`` runs, if it has one."""
        entry = self._jobs.get(key)
        return None if entry is None else entry[0]

    def __len__(self) -> int:
        return len(self._jobs)

    def _compact(self) -> None:
        self._heap = [(when, seq, key) for key, (when, seq, _) in self._jobs.items()]
        heapq.heapify(self._heap)

    # --- the runner ------------------------------------------------------------------

    def _ensure_runner(self) -> None:
        if self._runner is None or self._runner.done():
            self._runner = asyncio.get_running_loop().create_task(self._run(), name="scheduler")

    async def _wait_event(self, timeout: float | None) -> None:
        self._event.clear()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._event.wait(), timeout)

    def _pop_due(self, now: float) -> list[tuple[Hashable, Job]]:
        due: list[tuple[Hashable, Job]] = []
        heap = self._heap
        while heap and heap[0][0] <= now:
            _, seq, key = heapq.heappop(heap)
            entry = self._jobs.get(key)
            if entry is not None and entry[1] == seq:
                del self._jobs[key]
                due.append((key, entry[2]))
        return due

    def _next_when(self) -> float | None:
        heap = self._heap
        while heap:
            _, seq, key = heap[0]
            entry = self._jobs.get(key)
            if entry is not None and entry[1] == seq:
                return heap[0][0]
            heapq.heappop(heap)
        return None

    async def _run(self) -> None:
        loop = asyncio.get_running_loop()
        while not self._closed:
            for key, job in self._pop_due(self.clock()):
                task = loop.create_task(self._guard(key, job), name=f"job-{key}")
                self._running.add(task)
                task.add_done_callback(self._running.discard)
            when = self._next_when()
            timeout = None if when is None else when - self.clock()
            if timeout is not None and timeout <= 0:
                continue
            self._waiting_until = when
            self._waiting = True
            try:
                await self._wait(timeout)
            except TimeoutError:
                pass
            finally:
                self._waiting = False

    @staticmethod
    async def _guard(key: Hashable, job: Job) -> None:
        try:
            await job()
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("timed job %s failed", key)

    async def close(self) -> None:
        """Stop the runner and every job in progress; forget the rest."""
        self._closed = True
        self._jobs.clear()
        self._heap.clear()
        tasks = [t for t in (self._runner, *self._running) if t is not None]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
