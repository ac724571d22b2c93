"""The pace of a busy machine: seconds as the machine lets the bot have them.

On a machine whose cores are busy with other work, a runnable process waits for a core:
the bot gets to a click seconds after it arrived, and the loopback server reads the bot's
answer seconds after it was sent, though neither did anything slowly. A deadline sized
for a quiet machine (Discord's 3 s, a test's 10 s for an answer) then fails a bot that did
nothing wrong. :class:`Pace` is the monotonic clock less the time the kernel kept this
test process and its descendants (the bots it started, their drawing processes) waiting
for a core, as ``/proc/<pid>/task/<tid>/schedstat`` says (``run_delay``, its second
field). The loopback Discord's deadlines and the tests' waits count on it: the bot has 3 s
of its own time on a quiet machine and on a busy one. Time it spends working, sleeping or
waiting for the server counts in full, so a hung bot still times out.

Where the kernel does not say (no ``schedstat``), the pace is the monotonic clock.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator

__all__ = ["Pace"]

# Readings closer than this return the last one: many waiters poll, and one reading opens
# three files per thread of the test and its bots (plain ``os`` calls: ``pathlib`` made the
# readings a tenth of a fuzz test's time).
_READ_EVERY = 0.02  # seconds


class Pace:
    """A clock (``pace()`` returns seconds) that stops while this process or one of its
    descendants waits for a core."""

    def __init__(self) -> None:
        self._seen: dict[int, tuple[float, float]] = {}  # tid → (ran, waited) so far
        # The kernel adds a wait to ``run_delay`` only once the thread gets its core: a
        # thread runnable but not running since the last reading is counted as waiting
        # already, and that much of its next report is not counted again.
        self._pending: dict[int, float] = {}
        self._debt = 0.0  # waits reported beyond the time they could still be taken from
        self._wall = time.monotonic()
        self._now = 0.0
        self.waited = 0.0  # seconds left out: how long the machine kept us waiting
        self.enabled = os.path.exists("/proc/self/schedstat")
        if self.enabled:
            self._since_last(0.0)  # what the threads ran and waited so far: counted from here

    def __call__(self) -> float:
        wall = time.monotonic()
        if wall - self._wall < _READ_EVERY:  # many waiters poll: one reading serves them
            return self._now
        elapsed, self._wall = wall - self._wall, wall
        if self.enabled:
            waited, worked = self._since_last(elapsed)
            # The busiest thread's work counts in full; the rest of the waits is owed.
            owed = self._debt + waited
            taken = min(owed, elapsed - min(worked, elapsed))
            self._debt = owed - taken
            paced = elapsed - taken
        else:
            paced = elapsed
        self.waited += elapsed - paced
        self._now += paced
        return self._now

    def _since_last(self, elapsed: float) -> tuple[float, float]:
        """Return, since the last reading, the longest wait for a core of one thread (not
        the sum: threads kept waiting at once lose the same time, not more) and the time
        the busiest thread ran on one. A thread first seen counts from now."""
        waited = worked = 0.0
        seen: dict[int, tuple[float, float]] = {}
        pending: dict[int, float] = {}
        for task in _tasks(os.getpid()):
            stat = _schedstat(task)
            if stat is None:
                continue
            tid = task[1]
            seen[tid] = stat
            ran, delay = self._seen.get(tid, stat)
            reported, before = stat[1] - delay, self._pending.get(tid, 0.0)
            waiting = elapsed if stat[0] == ran and _runnable(task) else 0.0
            pending[tid] = max(0.0, before - reported) + waiting
            waited = max(waited, max(0.0, reported - before) + waiting)
            worked = max(worked, stat[0] - ran)
        self._seen, self._pending = seen, pending
        return waited, worked


def _read(path: str) -> str | None:
    """Return a small ``/proc`` file's text, or None if it is gone."""
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return None
    try:
        return os.read(fd, 4096).decode()
    except OSError:
        return None
    finally:
        os.close(fd)


def _tasks(pid: int) -> Iterator[tuple[int, int]]:
    """Yield ``(pid, tid)`` of every thread of ``pid`` and of its descendants."""
    try:
        tids = [int(tid) for tid in os.listdir(f"/proc/{pid}/task")]
    except (OSError, ValueError):
        return
    for tid in tids:
        yield pid, tid
        children = _read(f"/proc/{pid}/task/{tid}/children")
        for child in (children or "").split():
            yield from _tasks(int(child))


def _schedstat(task: tuple[int, int]) -> tuple[float, float] | None:
    """Return the seconds ``task`` ran on a core and waited for one, or None if gone."""
    pid, tid = task
    fields = (_read(f"/proc/{pid}/task/{tid}/schedstat") or "").split()
    try:
        return int(fields[0]) / 1e9, int(fields[1]) / 1e9
    except (IndexError, ValueError):
        return None


def _runnable(task: tuple[int, int]) -> bool:
    """Return whether ``task`` is runnable (running, or waiting for a core)."""
    pid, tid = task
    stat = _read(f"/proc/{pid}/task/{tid}/stat")
    return stat is not None and stat.rpartition(")")[2].split()[:1] == ["R"]
