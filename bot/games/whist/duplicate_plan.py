"""The document of a duplicate whist match (``docs/rules/whist.md`` §7), as the store's
``matches`` table keeps it: its format, seed, tables, who sits where, and every play of a
tray at a table (N-S's tricks, or nothing yet, and whether a computer stood in for a
member); what is finished, and the scores. Plain functions of the document: no Discord."""

from __future__ import annotations

from collections.abc import Iterable
from fractions import Fraction
from typing import Any

from engine.whist import mitchell_schedule, score_mitchell, score_mnemonic, score_team_of_four

__all__ = [
    "DEFAULT_TRAYS",
    "DIRECTIONS",
    "FORMATS",
    "GAME",
    "MAX_TRAYS",
    "SEAT_LETTERS",
    "SIDES",
    "TABLES",
    "TEAMS",
    "finished_trays",
    "members_of",
    "plan",
    "rounds_of",
    "scores",
    "seated",
    "settled_trays",
    "table_plays",
]

GAME = "whist_duplicate"
FORMATS = ("team", "mitchell", "mnemonic")
TABLES = {"team": (2, 2), "mitchell": (3, 8), "mnemonic": (1, 1)}
"""The numbers of tables each format allows (fewest, most)."""
DEFAULT_TRAYS = {"team": 8, "mitchell": 3, "mnemonic": 8}
"""Trays per table (team of four), per set (Mitchell) or per session (Mnemonic)."""
MAX_TRAYS = 32
SEAT_LETTERS = ("N", "E", "S", "W")


def rounds_of(data: dict[str, Any]) -> int:
    """Return how many rounds the match has."""
    return int({"team": 1, "mitchell": data["tables"], "mnemonic": 2}[data["format"]])


def plan(fmt: str, tables: int, trays: int) -> list[dict[str, Any]]:
    """Return every play of the match, not played yet: per round, table and tray, the pairs
    at N-S and E-W (numbered by their first table) and the tray's place in that table's
    game of the round."""
    plays = []
    if fmt == "mitchell":
        for row in mitchell_schedule(tables, trays):
            for spot in row:
                for index, tray in enumerate(spot.trays):
                    plays.append(
                        _play(spot.round, spot.table, tray, index, spot.ns_pair, spot.ew_pair)
                    )
    else:
        for rnd in range(1, rounds_of({"format": fmt, "tables": tables}) + 1):
            for table in range(1, tables + 1):
                for index in range(trays):
                    plays.append(_play(rnd, table, index + 1, index, table, table))
    return plays


def _play(rnd: int, table: int, tray: int, index: int, ns: int, ew: int) -> dict[str, Any]:
    return {
        "round": rnd,
        "table": table,
        "tray": tray,
        "index": index,
        "ns_pair": ns,
        "ew_pair": ew,
        "ns": None,
        "done": False,
        "dead": False,
        "marked": False,
        "game": None,
    }


def seated(data: dict[str, Any], play: dict[str, Any]) -> list[Any]:
    """Return who sits at N E S W for ``play`` (``[user_id, name]`` or ``None``: a
    computer): N-S pair ``ns_pair``'s and E-W pair ``ew_pair``'s members."""
    ns = data["seating"][play["ns_pair"] - 1]
    ew = data["seating"][play["ew_pair"] - 1]
    return [ns[0], ew[1], ns[2], ew[3]]


def members_of(data: dict[str, Any], play: dict[str, Any]) -> set[int]:
    """Return the members who play ``play``."""
    return {who[0] for who in seated(data, play) if who is not None}


def finished_trays(data: dict[str, Any], user_id: int) -> set[int]:
    """Return the trays the member has finished: every play of the tray they sit in is
    done (a Mnemonic tray: both its plays)."""
    mine: dict[int, bool] = {}
    for play in data["plays"]:
        if user_id in members_of(data, play):
            mine[play["tray"]] = mine.get(play["tray"], True) and play["done"]
    return {tray for tray, done in mine.items() if done}


def settled_trays(data: dict[str, Any]) -> list[int]:
    """Return the trays every table has finished (or that score the average there)."""
    state: dict[int, bool] = {}
    for play in data["plays"]:
        state[play["tray"]] = state.get(play["tray"], True) and (play["done"] or play["dead"])
    return sorted(tray for tray, done in state.items() if done)


def _result(play: dict[str, Any]) -> int | None:
    return play["ns"] if play["done"] else None


def scores(data: dict[str, Any], trays: Iterable[int] | None = None) -> dict[str, Any]:
    """Return the match's scores over ``trays`` (all: the match), by format: per side
    (team X and Y; Mnemonic N-S and E-W) or per pair and direction (Mitchell), and the
    winners."""
    chosen = set(trays) if trays is not None else None
    plays = [p for p in data["plays"] if chosen is None or p["tray"] in chosen]
    fmt = data["format"]
    if fmt == "team":
        by = {(p["table"], p["tray"]): _result(p) for p in plays}
        numbers = sorted({p["tray"] for p in plays})
        team = score_team_of_four(
            [by.get((1, n)) for n in numbers], [by.get((2, n)) for n in numbers]
        )
        winners = ["x"] if team.x > 0 else ["y"] if team.x < 0 else ["x", "y"]
        return {"x": team.x, "y": team.y, "winners": winners}
    if fmt == "mnemonic":
        by = {(p["round"], p["tray"]): _result(p) for p in plays}
        numbers = sorted({p["tray"] for p in plays})
        session = score_mnemonic(
            [by.get((1, n)) for n in numbers], [by.get((2, n)) for n in numbers]
        )
        winners = ["ns"] if session.ns > 0 else ["ew"] if session.ns < 0 else ["ns", "ew"]
        return {"ns": session.ns, "ew": session.ew, "winners": winners}
    mitchell = score_mitchell((p["tray"], p["ns_pair"], p["ew_pair"], _result(p)) for p in plays)
    return {
        "ns": {str(k): _hundredths(v) for k, v in mitchell.ns.items()},
        "ew": {str(k): _hundredths(v) for k, v in mitchell.ew.items()},
        "ns_winners": list(mitchell.ns_winners),
        "ew_winners": list(mitchell.ew_winners),
    }


def _hundredths(value: Fraction) -> int:
    """Return a score in hundredths, rounded (scores are shown to 2 decimals)."""
    return round(value * 100)


def table_plays(data: dict[str, Any], rnd: int, table: int) -> list[dict[str, Any]]:
    """Return the plays of round ``rnd`` at ``table``, in the order that table plays them."""
    return sorted(
        (p for p in data["plays"] if p["round"] == rnd and p["table"] == table),
        key=lambda p: p["index"],
    )


# Who plays for whom, as (table, hand) pairs: a Mitchell direction's hands, the team-of-four
# teams (a team sits N-S at one table and E-W at the other), and Mnemonic's sides.
DIRECTIONS: tuple[tuple[str, tuple[int, int]], ...] = (("ns", (0, 2)), ("ew", (1, 3)))
TEAMS: dict[str, tuple[tuple[int, int], ...]] = {
    "x": ((1, 0), (1, 2), (2, 1), (2, 3)),
    "y": ((1, 1), (1, 3), (2, 0), (2, 2)),
}
SIDES: dict[str, tuple[tuple[int, int], ...]] = {"ns": ((1, 0), (1, 2)), "ew": ((1, 1), (1, 3))}
