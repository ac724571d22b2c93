"""How old an interaction is when the bot gets to it, measured without trusting the host clock.

Discord stops waiting for an answer 3 s after a member clicked; an interaction the bot gets to
later than that must have no effect (see the setting ``late_interaction_seconds``). Its id says
when Discord created it, by Discord's clock; comparing that with the host's clock mistakes a
clock a few seconds fast for overload and leaves every click unanswered.

So the age is measured in two parts, both on this process's monotonic clock:

- *transit*: how much longer than the quickest recent interaction this one took to arrive.
  Each arrival gives ``offset = arrived - created`` (host monotonic time minus Discord's time),
  which is the clocks' difference plus the trip; the smallest offset seen in the last
  half hour is the clocks' difference plus the quickest trip. Any host clock error, however
  large (an hour, a year), cancels out, and a clock stepped by NTP does not matter: the
  monotonic clock never steps.
- *waiting*: how long it then waited inside this process (the event loop busy with other work).

``age = (offset - smallest offset) + (now - arrived)``.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

__all__ = ["Lateness", "sent_at"]

log = logging.getLogger(__name__)

_DISCORD_EPOCH_MS = 1_420_070_400_000
_BUCKET = 300.0  # seconds of arrivals per kept minimum
_BUCKETS = 6  # the smallest offset is taken over the last half hour
_STAMPS = 4096  # arrivals remembered until their interaction is handled (or older ones)
_LOG_EVERY = 10.0  # seconds between two overload warnings


def sent_at(snowflake: int) -> float:
    """Return when Discord created the object with this id, in seconds since 1970 by
    Discord's clock."""
    return ((snowflake >> 22) + _DISCORD_EPOCH_MS) / 1000


class Lateness:
    """Measures interactions' ages (see the module) and says which are too late."""

    def __init__(self, limit: float, monotonic: Callable[[], float] = time.monotonic) -> None:
        self.limit = limit
        self.monotonic = monotonic
        self._arrived: dict[int, float] = {}
        self._minima: dict[int, float] = {}  # bucket -> smallest offset seen in it
        self._shed = 0
        self._logged = -_LOG_EVERY

    def received(self, interaction_id: int) -> None:
        """Note that the interaction ``interaction_id`` has just arrived from the gateway."""
        now = self.monotonic()
        self._arrived[interaction_id] = now
        if len(self._arrived) > _STAMPS:
            del self._arrived[next(iter(self._arrived))]
        self._note_offset(now - sent_at(interaction_id), now)

    def _note_offset(self, offset: float, now: float) -> None:
        bucket = int(now // _BUCKET)
        known = self._minima.get(bucket)
        if known is None or offset < known:
            self._minima[bucket] = offset
        for old in [b for b in self._minima if b <= bucket - _BUCKETS]:
            del self._minima[old]

    def age(self, interaction_id: int) -> float:
        """Return how old the interaction is now, in seconds (see the module): asked again
        later (once its table's lock is held, just before its move is committed), it counts
        every wait since it arrived — for the lock, a connection, the event loop."""
        now = self.monotonic()
        arrived = self._arrived.get(interaction_id)
        if arrived is None:  # not seen arriving (not from the gateway): it arrives now
            arrived = self._arrived[interaction_id] = now
            self._note_offset(now - sent_at(interaction_id), now)
        offset = arrived - sent_at(interaction_id)
        quickest = min(self._minima.values(), default=offset)
        return max(0.0, offset - quickest) + (now - arrived)

    def forget(self, interaction_id: int) -> None:
        """Drop what is kept of a handled interaction."""
        self._arrived.pop(interaction_id, None)

    @property
    def in_flight(self) -> int:
        """Return how many interactions arrived and are not handled yet."""
        return len(self._arrived)

    def too_late(self, interaction_id: int, margin: float = 0.0) -> bool:
        """Return whether the interaction is older than ``limit`` less ``margin`` (the time
        its answer still needs; ``limit`` ``0``: never too late); overload is logged at
        most every 10 s."""
        if not self.limit:
            return False
        age = self.age(interaction_id)
        if age <= self.limit - margin:
            return False
        self._shed += 1
        now = self.monotonic()
        if now - self._logged >= _LOG_EVERY:
            log.warning(
                "overloaded: %d interaction(s) were %.1f s or more old when their turn came and "
                "were left unanswered, without effect (the latest %.1f s old)",
                self._shed,
                self.limit - margin,
                age,
            )
            self._shed, self._logged = 0, now
        return True
