"""Whist's scoring as pure functions of numbers: a deal's points, a game's and a rubber's
value, Mort's game value (``docs/rules/whist.md`` §1, §4, §5, §6).

A *side* is 0 or 1 (N-S and E-W; in Humbug and two-hand N and S); every per-side pair is
(side 0, side 1).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

__all__ = [
    "BOOK",
    "GAME",
    "MORT_BONUS",
    "SLAM_POINTS",
    "DealPoints",
    "deal_points",
    "game_bonus",
    "humbug_honour_points",
    "mort_game_value",
    "odd_trick_points",
    "rubber_value",
    "short_honour_points",
    "trick_points",
]

BOOK = 6
"""The tricks a side takes before its tricks score."""
GAME = 5
"""The points that win a game."""
MORT_BONUS = 4
"""Mort's game bonus, always added to the winners' value."""
SLAM_POINTS = 20
"""Mort's slam points on the score sheet."""

Award = tuple[int, int] | None
"""(side, points) to score, or ``None``."""
_OTHER = (1, 0)


def trick_points(tricks: Sequence[int]) -> Award:
    """Return the tricks over six the side with seven or more scores (short whist, Humbug)."""
    for side in (0, 1):
        if tricks[side] > BOOK:
            return (side, tricks[side] - BOOK)
    return None


def odd_trick_points(tricks: Sequence[int]) -> Award:
    """Return two-hand's 1 point for the side that took the odd trick (seven or more)."""
    for side in (0, 1):
        if tricks[side] > BOOK:
            return (side, 1)
    return None


def short_honour_points(honours: Sequence[int]) -> Award:
    """Return §1's honours: a side holding all four scores 4, any three 2; two each nothing."""
    for side in (0, 1):
        if honours[side] == 4:
            return (side, 4)
        if honours[side] == 3:
            return (side, 2)
    return None


def humbug_honour_points(honours: Sequence[int]) -> Award:
    """Return Humbug's honours: a player whose opponent holds at most one scores 2 for two,
    3 for three, 4 for four (honours in dead hands count for nobody)."""
    for side in (0, 1):
        held, against = honours[side], honours[_OTHER[side]]
        if held >= 2 and against <= 1:
            return (side, held)
    return None


class DealPoints(NamedTuple):
    """What a deal adds to the game score: ``points`` per side and the ``score`` after it."""

    points: tuple[int, int]
    score: tuple[int, int]


def deal_points(
    score: tuple[int, int],
    tricks: Award,
    honours: Award,
    *,
    keep_excess: bool = False,
) -> DealPoints:
    """Return what a deal adds to ``score`` (the game score when it began).

    Tricks first, then honours; honours are void for a side that stood at four when the deal
    began; the instant a side reaches five nothing later in the deal is scored, and points
    beyond five are dropped unless ``keep_excess`` (Mort keeps them).
    """
    after = list(score)
    for is_honours, award in ((False, tricks), (True, honours)):
        if award is None:
            continue
        side, gained = award
        if is_honours and score[side] == GAME - 1:
            continue
        after[side] += gained
        if after[side] >= GAME:
            if not keep_excess:
                after[side] = GAME
            break
    return DealPoints((after[0] - score[0], after[1] - score[1]), (after[0], after[1]))


def game_bonus(losers: int) -> int:
    """Return a game's worth by the losers' score: treble (3) at 0, double (2) at 1 or 2,
    single (1) at 3 or 4."""
    if losers == 0:
        return 3
    if losers <= 2:
        return 2
    return 1


def rubber_value(winners: Sequence[int], losers: Sequence[int]) -> int:
    """Return the rubber's value: the winners' game values + 2 − the losers' game value."""
    return sum(winners) + 2 - sum(losers)


def mort_game_value(
    winners_markers: int, losers_markers: int, winners_slams: int, losers_slams: int
) -> int:
    """Return Mort's game value from the winners' side (§6); it may be negative.

    Winners' markers + game bonus (by the losers' markers) + 4 + winners' slam points −
    losers' markers − losers' slam points.
    """
    return (
        winners_markers
        + game_bonus(losers_markers)
        + MORT_BONUS
        + winners_slams
        - losers_markers
        - losers_slams
    )
