"""What a button is, read from its custom id (``bot.ids``): shared by the simcord and the
loopback drivers."""

from __future__ import annotations

from bot import ids

__all__ = ["id_kind"]


def id_kind(custom_id: str | None) -> str:
    """Return what a button is: for Dupe's (and high card's) controls ``play``, ``give`` (a
    step of a distribution; ``restart`` for "Start over"), ``giveok``, another game's
    ``control``; a table button's ``what`` (``join`` … ``hand``, ``refresh``, ``pic``,
    ``rematch``); ``leaderboard``, ``replay``, ``review``, ``details``, ``hint``; or ``""``
    (none of ours)."""
    parsed = ids.parse(custom_id or "")
    if isinstance(parsed, ids.Control):
        if parsed.payload == "g":
            return "restart"
        return {"p": "play", "g": "give", "k": "giveok"}.get(parsed.payload[:1], "control")
    if isinstance(parsed, ids.TableButton):
        return parsed.what
    if isinstance(parsed, ids.LeaderboardPage):
        return "leaderboard"
    if isinstance(parsed, ids.ReplayPage):
        return "replay"
    if isinstance(parsed, ids.ReviewPage):
        return "review"
    if isinstance(parsed, ids.Details):
        return "details"
    if isinstance(parsed, ids.Hint):
        return "hint"
    return ""
