"""Who wins a Doppelkopf game and what it is worth, in both presets (rules §3.6–3.7 and
§4.8–4.9).

:func:`score` takes a played game as plain facts — the parties, each party's card points and
tricks, the announcements, the extra points — and returns the winner, the score items and R
(Re's value: Σ Re items − Σ Contra items in the tournament, ±S in the house preset).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

__all__ = ["LEVELS", "Facts", "Item", "score"]

LEVELS = ("no90", "no60", "no30", "black")
_BELOW = {"no90": 90, "no60": 60, "no30": 30}  # the opponents must stay below this
_REACHED = {"no90": 120, "no60": 90, "no30": 60, "black": 30}  # "reached against"

Item = tuple[str, str, int]
"""A score item: (party receiving it, key, value)."""


@dataclass(frozen=True)
class Facts:
    """What scoring needs to know of a finished game (party ``"re"`` or ``"contra"``)."""

    points: dict[str, int]  # card points per party (sum 240)
    tricks: dict[str, int]  # tricks won per party (claimed or conceded ones included)
    announced: dict[str, tuple[str, ...]]  # per party, in order: "re"/"contra", then levels
    extras: tuple[Item, ...] = ()  # fox, doppelkopf, charlie (club-queens is added here)


def _other(party: str) -> str:
    return "contra" if party == "re" else "re"


def _levels(facts: Facts, party: str) -> list[str]:
    return [a for a in facts.announced[party] if a in LEVELS]


def _below(facts: Facts, party: str, level: str) -> bool:
    """Whether ``party`` stayed below what ``level`` (announced against it) demands."""
    if level == "black":
        return facts.tricks[party] == 0
    return facts.points[party] < _BELOW[level]


def _tournament_target(facts: Facts, party: str) -> bool:
    """§3.6: whether ``party`` met its target (the first rule that applies)."""
    other = _other(party)
    own, theirs = _levels(facts, party), _levels(facts, other)
    if own:
        return _below(facts, other, own[-1])
    if theirs:
        level = theirs[-1]
        if level == "black":
            return facts.tricks[party] > 0
        return facts.points[party] >= {"no90": 90, "no60": 60, "no30": 30}[level]
    contra_only = bool(facts.announced["contra"]) and not facts.announced["re"]
    if party == "re":
        return facts.points["re"] >= (120 if contra_only else 121)
    return facts.points["contra"] >= (121 if contra_only else 120)


def _achieved(facts: Facts) -> list[Item]:
    """Items a party earns by what it took, winner or not: opponents below 90/60/30, no
    trick, and each level of the opponents' it reached against (§3.7)."""
    items: list[Item] = []
    for party in ("re", "contra"):
        other = _other(party)
        for key, limit in (("below90", 90), ("below60", 60), ("below30", 30)):
            if facts.points[other] < limit:
                items.append((party, key, 1))
        if facts.tricks[other] == 0:
            items.append((party, "no-trick", 1))
        for level in _levels(facts, other):
            if facts.points[party] >= _REACHED[level]:
                items.append((party, f"vs-{level}", 1))
    return items


def _tournament(facts: Facts, normal: bool) -> tuple[str | None, list[Item], int]:
    re_met, contra_met = _tournament_target(facts, "re"), _tournament_target(facts, "contra")
    winner = "re" if re_met and not contra_met else "contra" if contra_met and not re_met else None
    items = [i for i in _achieved(facts) if winner is None or i[0] == winner]
    if winner is not None:
        items.insert(0, (winner, "won", 1))
        if facts.announced["re"]:
            items.append((winner, "re", 2))
        if facts.announced["contra"]:
            items.append((winner, "contra", 2))
        for party in ("re", "contra"):
            items += [(winner, level, 1) for level in _levels(facts, party)]
    if normal:
        if winner == "contra":
            items.append(("contra", "club-queens", 1))
        items += list(facts.extras)
    value = sum(v for p, _, v in items if p == "re") - sum(v for p, _, v in items if p == "contra")
    return winner, items, value


def _failed(facts: Facts, party: str) -> bool:
    """§4.8: a party that announced levels fails unless the opponents end below its
    highest one."""
    levels = _levels(facts, party)
    return bool(levels) and not _below(facts, _other(party), levels[-1])


def _house(facts: Facts) -> tuple[str | None, list[Item], int]:
    re_failed, contra_failed = _failed(facts, "re"), _failed(facts, "contra")
    if re_failed and contra_failed:
        items = list(facts.extras)
        value = sum(v for p, _, v in items if p == "re") - sum(
            v for p, _, v in items if p == "contra"
        )
        return None, items, value
    if re_failed != contra_failed:
        winner = "contra" if re_failed else "re"
    else:
        winner = "re" if facts.points["re"] >= 121 else "contra"
    loser = _other(winner)
    won: list[Item] = [(winner, "won", 1)]
    if winner == "contra":
        won.append((winner, "club-queens", 1))
    for key, limit in (("below90", 90), ("below60", 60), ("below30", 30)):
        if facts.points[loser] < limit:
            won.append((winner, key, 1))
    if facts.tricks[loser] == 0:
        won.append((winner, "no-trick", 1))
    won += [(winner, level, 1) for level in _levels(facts, winner)]
    if _failed(facts, loser):
        won += [(winner, f"failed-{level}", 2) for level in _levels(facts, loser)]
    won += [i for i in facts.extras if i[0] == winner]
    factor = 1
    doubles: list[Item] = []
    for party in ("re", "contra"):
        if facts.announced[party]:
            doubles.append((winner, party, 2))
            factor *= 2
    lost = [i for i in facts.extras if i[0] == loser]
    value = sum(v for _, _, v in won) * factor - sum(v for _, _, v in lost)
    return winner, won + doubles + lost, value if winner == "re" else -value


def score(preset: str, facts: Facts, *, normal: bool) -> tuple[str | None, list[Item], int]:
    """Return ``(winner, items, R)`` of a finished game: the winning party (``None``: nobody
    won), its score items and Re's value R (each Re player scores R, each Contra player −R;
    a soloist 3R). ``normal``: a normal game (extra points count in the tournament)."""
    if preset == "tournament":
        return _tournament(facts, normal)
    return _house(facts)


def extras(
    tricks: Sequence[tuple[Sequence[tuple[int, object]], int]],
    party_of: dict[int, str],
    *,
    fox: Any,
    charlie: Any,
    points: Mapping[Any, int],
) -> list[Item]:
    """Return the extra points of the played tricks: a Doppelkopf (a trick of 40 card points
    or more) to its winner's party, each fox (``fox`` played by one party, won by the other)
    to the winner's party, and Charlie (``charlie`` taking the 12th trick) to its party.
    ``tricks``: each trick's ``(seat, card)`` plays and its winner."""
    items: list[Item] = []
    for number, (plays, winner) in enumerate(tricks, start=1):
        party = party_of[winner]
        if sum(points[card] for _, card in plays) >= 40:
            items.append((party, "doppelkopf", 1))
        if fox is not None:
            for seat, card in plays:
                if card == fox and party_of[seat] != party:
                    items.append((party, "fox", 1))
        if charlie is not None and number == 12:
            winning = next(card for seat, card in plays if seat == winner)
            if winning == charlie:
                items.append((party, "charlie", 1))
    return items
