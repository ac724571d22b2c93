"""Discord's limits over every connection of a bot: the global request limit and the count
of invalid requests, as the loopback Discord enforces and counts them.

Discord's developer docs (topics/rate-limits): a bot may make 50 requests per second with
its token, whatever the route and however many processes share the token; requests made
with an interaction's token (the callback, and the webhook routes of that token) are not
counted. Past the limit Discord answers ``429`` with ``{"message": ..., "retry_after": s,
"global": true}`` and the headers ``X-RateLimit-Global: true``, ``X-RateLimit-Scope:
global`` and ``Retry-After``. A bot that makes 10,000 invalid requests (answered 401, 403
or 429) within 10 minutes is banned for a while.

The limit is kept over a sliding second (the strictest reading of "per second"): the 51st
request within any second is refused until the oldest of the 50 is a second old.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable

__all__ = ["GLOBAL_PER_SECOND", "INVALID_STATUSES", "INVALID_WINDOW", "GlobalLimits"]

GLOBAL_PER_SECOND = 50
INVALID_WINDOW = 600.0  # seconds: Discord counts invalid requests over 10 minutes
INVALID_BAN = 10_000  # invalid requests within the window that get a bot banned
INVALID_STATUSES = frozenset({401, 403, 429})


class GlobalLimits:
    """The global limit per bot token, and what the bench and tests read: global 429s,
    invalid requests (in all, and the most in any 10 minutes) and the most requests counted
    against the limit within any one second (all tokens, refused ones included)."""

    def __init__(self, clock: Callable[[], float], per_second: int = GLOBAL_PER_SECOND) -> None:
        """``clock``: monotonic seconds (a test's hand-moved clock); ``per_second``: the
        limit (0: not enforced, still counted)."""
        self.clock = clock
        self.per_second = per_second
        self._admitted: dict[str, deque[float]] = {}  # token → its requests of the last second
        self._recent: deque[float] = deque()  # every counted request of the last second
        self._invalid: deque[float] = deque()  # invalid requests of the last 10 minutes
        self.counted = 0  # requests counted against the limit (not interaction-token ones)
        self.global_429s = 0
        self.invalid_requests = 0
        self.invalid_peak = 0  # the most invalid requests within any 10 minutes
        self.peak_per_second = 0

    def admit(self, token: str) -> float | None:
        """Count a request made with ``token``; return None if it may go, else the seconds
        until it could (it is answered with the global 429)."""
        now = self.clock()
        self.counted += 1
        recent = self._recent
        recent.append(now)
        while recent[0] <= now - 1.0:
            recent.popleft()
        self.peak_per_second = max(self.peak_per_second, len(recent))
        admitted = self._admitted.setdefault(token, deque())
        while admitted and admitted[0] <= now - 1.0:
            admitted.popleft()
        if self.per_second and len(admitted) >= self.per_second:
            self.global_429s += 1
            return max(admitted[0] + 1.0 - now, 0.001)
        admitted.append(now)
        return None

    def answered(self, status: int) -> None:
        """Count an answer: an invalid one (401, 403, 429) in its 10-minute window."""
        if status not in INVALID_STATUSES:
            return
        now = self.clock()
        self.invalid_requests += 1
        invalid = self._invalid
        invalid.append(now)
        while invalid[0] <= now - INVALID_WINDOW:
            invalid.popleft()
        self.invalid_peak = max(self.invalid_peak, len(invalid))

    def invalid_now(self) -> int:
        """Return the invalid requests of the last 10 minutes."""
        now = self.clock()
        return sum(1 for at in self._invalid if at > now - INVALID_WINDOW)

    @property
    def banned(self) -> bool:
        """Whether Discord would have banned the bot for its invalid requests."""
        return self.invalid_peak >= INVALID_BAN

    def describe(self) -> str:
        """Return the line the load bench prints (a script reads it)."""
        return (
            f"discord limits: peak {self.peak_per_second} req/s, global 429s "
            f"{self.global_429s}, invalid requests {self.invalid_requests}"
        )
