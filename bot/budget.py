"""The bot's share of Discord's global request limit, spent on what members wait for first.

Discord allows a bot token 50 requests a second in all, whatever the route, over every
process that uses the token; past it, it answers 429 to everything for a while, and counts
each refusal towards the 10,000 invalid requests in 10 minutes that get a bot banned.
Requests made with an interaction's token (the answers to clicks and commands, the
members' private hands) are not counted; the courier's are: the public posts and the table
messages' edits (``bot.delivery``).

A :class:`Budget` is a token bucket on the scheduler's clock: ``rate`` requests a second,
at most ``burst`` at once (a tenth of a second's worth, so that no second ever holds more
than ``1.1 × rate``). A request that finds no token waits in a queue ordered by priority,
then by arrival: :data:`URGENT` (the posts owed, in the order they were owed), then
:data:`TURN` (a table message whose turn changed: a member waits to see it is theirs),
then :data:`OTHER` (every other edit). A waiter is known by its key (a table's edit has
one), so a table never queues twice and a waiting edit can be moved up when its turn
changes (:meth:`Budget.hasten`). discord.py's own handling of a 429 stays underneath as a
safety net.
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
import math
from collections.abc import Awaitable, Callable, Hashable
from typing import cast

from bot.scheduler import Scheduler

__all__ = ["OTHER", "REQUESTS_PER_SECOND", "TURN", "URGENT", "Budget", "share"]

URGENT = 0  # owed posts: a deal's scoring, the standings, the last state of a table
TURN = 1  # the table message of a table whose turn changed
OTHER = 2  # every other edit of a table message

# The bot's default requests a second, every process together: Discord's 50 less room for
# what goes around the budget (the commands synced at a start, a /status check).
REQUESTS_PER_SECOND = 45.0
_BURST_SECONDS = 0.1  # the tokens a bucket holds: a tenth of a second's worth
_GRANT_KEY = ("budget",)  # the scheduler job that hands out the next tokens
_ROUNDING = 1e-3  # of a token: what the clock's rounding may leave short of a whole one


def share(
    requests_per_second: float, shard_count: int | None, shard_ids: list[int] | None
) -> float:
    """Return one process's share of the bot's requests a second: all of them, or, for a
    slice of the shards, the part its shards are of all (servers spread evenly over
    shards, so the slices' shares add up to the bot's budget and never exceed it)."""
    if shard_count is None or shard_ids is None:
        return requests_per_second
    return requests_per_second * len(shard_ids) / shard_count


class Budget:
    """Requests a second for the courier, handed out by priority (see the module).

    A waiting request parks on ``wait(ticket)`` until ``wake(ticket)``; by default on a
    future of its own. The bot passes ``Client.wait_for`` on a private event and
    ``Client.dispatch`` of it instead, as it does for its scheduler, so that whatever drives
    discord.py's client (a test harness with a virtual clock) sees a client waiting for an
    event."""

    def __init__(
        self,
        scheduler: Scheduler,
        rate: float,
        *,
        wait: Callable[[Hashable], Awaitable[object]] | None = None,
        wake: Callable[[Hashable], None] | None = None,
    ) -> None:
        """``rate``: this process's requests a second (its share of the bot's)."""
        if rate <= 0:
            raise ValueError("a request budget needs a positive rate")
        self.scheduler = scheduler
        self.rate = rate
        self.burst = max(1.0, rate * _BURST_SECONDS)
        self._tokens = self.burst
        self._at = scheduler.clock()
        self.wait = self._wait_future if wait is None else wait
        self.wake = self._wake_future if wake is None else wake
        self._futures: dict[Hashable, asyncio.Future[None]] = {}
        self._queue: list[tuple[int, int, Hashable]] = []  # (priority, arrival, key)
        self._waiting: dict[Hashable, tuple[int, int]] = {}  # key → (priority, arrival)
        self._arrivals = itertools.count()
        self.granted = 0  # requests let through, at once or after waiting
        self.waited = 0  # of which had to wait

    def _refill(self) -> None:
        now = self.scheduler.clock()
        # A clock set back (the host's) gives nothing and takes nothing.
        self._tokens = min(self.burst, self._tokens + max(0.0, now - self._at) * self.rate)
        self._at = now

    def try_take(self) -> bool:
        """Take a token if one is free and nobody waits; return whether it was taken."""
        self._refill()
        if self._waiting or self._tokens < 1.0:
            return False
        self._tokens -= 1.0
        self.granted += 1
        return True

    async def take(self, key: Hashable, priority: int) -> bool:
        """Return once a request may be made: at once if a token is free and nobody waits,
        else in its turn; return whether it waited. ``key`` names the request (one waiter
        per key: a second one waits for the first's turn, then queues itself)."""
        while True:
            if self.try_take():
                return False
            entry = self._waiting.get(key)
            if entry is None:
                break
            await self.wait((key, entry[1]))  # the same key queued already: after it
        arrival = next(self._arrivals)
        self._waiting[key] = (priority, arrival)
        heapq.heappush(self._queue, (priority, arrival, key))
        self._plan()
        try:
            await self.wait((key, arrival))
        finally:
            entry = self._waiting.get(key)
            if entry is not None and entry[1] == arrival:  # cancelled while it waited
                del self._waiting[key]
        return True

    def waiting(self, key: Hashable) -> bool:
        """Return whether a request of ``key`` waits for a token."""
        return key in self._waiting

    def hasten(self, key: Hashable, priority: int) -> None:
        """Move a waiting request up to ``priority`` (keeping its arrival), if that is
        higher than its own."""
        entry = self._waiting.get(key)
        if entry is None or entry[0] <= priority:
            return
        self._waiting[key] = (priority, entry[1])
        heapq.heappush(self._queue, (priority, entry[1], key))

    def backlog(self) -> float:
        """Return how many seconds the requests waiting now take to go."""
        return len(self._waiting) / self.rate

    def _plan(self) -> None:
        """Have the scheduler hand out tokens when the next one is free."""
        if not self._waiting or self.scheduler.due(_GRANT_KEY) is not None:
            return
        when = self._at + max(0.0, 1.0 - self._tokens) / self.rate
        # A clock that counts whole microseconds (the bot's) never reads a time between
        # two of them: the job would wait for it for ever.
        self.scheduler.at(_GRANT_KEY, math.ceil(when * 1e6) / 1e6, self._grant)

    async def _grant(self) -> None:
        self._refill()
        queue = self._queue
        # A hair below one: the clock's rounding must not leave a due token for later.
        while queue and self._tokens >= 1.0 - _ROUNDING:
            priority, arrival, key = heapq.heappop(queue)
            if self._waiting.get(key) != (priority, arrival):
                continue  # moved up since (its newer entry counts), or given up
            del self._waiting[key]
            self._tokens -= 1.0
            self.granted += 1
            self.waited += 1
            self.wake((key, arrival))
        self._plan()

    async def _wait_future(self, ticket: Hashable) -> None:
        future = self._futures.get(ticket)
        if future is None:
            future = self._futures[ticket] = asyncio.get_running_loop().create_future()
        try:
            await asyncio.shield(future)
        finally:
            key, arrival = cast(tuple[Hashable, int], ticket)
            if self._waiting.get(key, (0, -1))[1] != arrival:  # granted, or given up
                self._futures.pop(ticket, None)

    def _wake_future(self, ticket: Hashable) -> None:
        future = self._futures.pop(ticket, None)
        if future is not None and not future.done():
            future.set_result(None)
