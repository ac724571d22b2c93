"""A Dukes Up! table's options (``DukesUpOptions``), checked when they are made."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from engine.errors import OptionsError

__all__ = ["DukesUpOptions"]


@dataclass(frozen=True, slots=True)
class DukesUpOptions:
    """The options table of ``docs/rules/dukes_up.md``.

    ``rounds`` (1 or more) per match, added up (``cumulative``) or counted as rounds won
    (``wins``); ``slot_weight`` (1 or 2) per card left in one's own duke and castle slots;
    ``discard_memory``: ``strict`` shows a discard pile's size only, ``open`` its owner its
    order (D3 cards as ``?``); ``arrangement_help``: ``propose`` (A4 and the offers) or
    ``check-only``; ``max_turns`` per round (both players' turns together); ``turn_time``
    in seconds (the bot's timer; the engine keeps no clock).
    """

    rounds: int = 1
    match_scoring: Literal["cumulative", "wins"] = "cumulative"
    slot_weight: int = 1
    discard_memory: Literal["strict", "open"] = "strict"
    arrangement_help: Literal["propose", "check-only"] = "propose"
    max_turns: int = 200
    turn_time: int = 180

    def __post_init__(self) -> None:
        for name in ("rounds", "max_turns", "turn_time"):
            got = getattr(self, name)
            if type(got) is not int or got < 1:
                raise OptionsError(
                    f"The option {name} is a whole number of at least 1, not {got!r}.",
                    reason="option",
                    name=name,
                    value=got,
                )
        choices: dict[str, tuple[object, ...]] = {
            "match_scoring": ("cumulative", "wins"),
            "slot_weight": (1, 2),
            "discard_memory": ("strict", "open"),
            "arrangement_help": ("propose", "check-only"),
        }
        for name, allowed in choices.items():
            got = getattr(self, name)
            if type(got) is bool or got not in allowed:
                raise OptionsError(
                    f"The option {name} is one of {', '.join(map(str, allowed))}, not {got!r}.",
                    reason="option",
                    name=name,
                    value=got,
                )
