"""A table's house rules, as ``/<game> start`` chose them and the store keeps them.

A module of its own (it imports nothing of the bot) because the game contract
(``bot.game``, through ``bot.match_rules``), the tables and the commands all need it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

__all__ = ["TableOptions"]


@dataclass(slots=True, frozen=True)
class TableOptions:
    """A table's house rules, chosen at ``/<game> start``: the shared ones, and the game's
    own (``game``: the engine's options, as stored)."""

    game: Mapping[str, Any] = field(default_factory=dict)
    turn_seconds: int = 120
    level: str | None = "expert"
    pictures: bool = True
    seating: str = "join"  # "join": seats in the order members joined; "random": shuffled
    rematch_of: int | None = None  # the finished game this table replays with a new deal
    invited: tuple[tuple[int, int, str], ...] = ()  # a rematch's members: (seat, id, name)
    hints: bool = False  # each member may ask the expert (the Hint button); the table is unrated

    def to_json(self) -> dict[str, Any]:
        """Return the options as stored."""
        return {
            "game": dict(self.game),
            "turn_seconds": self.turn_seconds,
            "level": self.level,
            "pictures": self.pictures,
            "seating": self.seating,
            "rematch_of": self.rematch_of,
            "invited": [list(entry) for entry in self.invited],
            "hints": self.hints,
        }

    @staticmethod
    def from_json(data: Mapping[str, Any], game_fields: tuple[str, ...] = ()) -> TableOptions:
        """Return options read back from the database. Rows written before tables had
        several games keep the game's options at the top level: ``game_fields`` names them."""
        game = data.get("game")
        if not isinstance(game, Mapping):
            game = {k: data[k] for k in game_fields if k in data}
        return TableOptions(
            game=dict(game),
            turn_seconds=int(data.get("turn_seconds", 120)),
            level=data.get("level"),
            pictures=bool(data.get("pictures", True)),
            seating="random" if data.get("seating") == "random" else "join",
            rematch_of=data.get("rematch_of"),
            invited=tuple(
                (int(seat), int(user), str(name)) for seat, user, name in data.get("invited") or ()
            ),
            hints=bool(data.get("hints", False)),
        )
