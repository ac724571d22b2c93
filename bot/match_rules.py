"""What a game's events over several tables (a duplicate whist match) are made of: its
:class:`MatchRules`, pure functions over the event's document, and the :data:`Effect`
values they return for ``bot.matches`` to carry out (see that module).

A module of its own, importing no core module that knows the game contract, so that
``bot.game`` can declare the ``match_rules`` hook with its type and ``bot.matches`` can
run it, without an import circle.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from bot.i18n import Lang
from bot.store import SeatRecord, SeatResult
from bot.table_options import TableOptions

__all__ = ["Close", "Effect", "MatchRules", "Open", "Rate", "Say", "Status"]


@dataclass(frozen=True, slots=True)
class Say:
    """A public post in a table's channel, written in the server's language. ``nonce``
    (at most 25 characters, unique among the event's posts, so distinct per channel) makes
    it one post however often the rules ask for it or the core sends it: the core owes it
    from the moment the change that asked for it is stored until Discord took it."""

    channel_id: int | None
    text: Callable[[Lang], str]
    nonce: str


@dataclass(frozen=True, slots=True)
class Open:
    """A table to open in ``channel_id`` with every seat taken, and start (``host_id``: who
    may close it besides the server's managers); the rules hear of it through
    :meth:`MatchRules.opened` with ``key``."""

    key: str
    channel_id: int
    host_id: int
    seats: Mapping[int, SeatRecord]
    options: TableOptions
    seed: int


@dataclass(frozen=True, slots=True)
class Close:
    """A live table of the event to close without a result (the event's deadline)."""

    game_id: int


@dataclass(frozen=True, slots=True)
class Rate:
    """Ratings to move in the table game, ranked by ``results``' scores."""

    results: tuple[SeatResult, ...]


@dataclass(frozen=True, slots=True)
class Status:
    """The event's new status: ``playing``, ``finished`` or ``closed``."""

    status: str


Effect = Say | Open | Close | Rate | Status


class MatchRules(Protocol):
    """A game's events over several tables, as pure functions of their document."""

    game: str
    """The game the event's tables play (its registry name; the store's ``matches.game``)."""

    def games(self, data: dict[str, Any]) -> set[int]:
        """Return the tables (game ids) the event has opened."""
        ...

    def deadline(self, data: dict[str, Any]) -> float | None:
        """Return when the event closes, if it does."""
        ...

    def opened(
        self, data: dict[str, Any], key: str, game_id: int | None, state: Any
    ) -> list[Effect]:
        """The table of :class:`Open` ``key`` is open (``game_id`` ``None``: it could not
        be); ``state`` is its state (a table of computers may be over already)."""
        ...

    def changed(
        self,
        data: dict[str, Any],
        game_id: int,
        state: Any,
        *,
        ended: bool,
        stood_in: int | None,
        left: int | None = None,
    ) -> list[Effect]:
        """A table changed: ``state`` is its state now (``None``: abandoned or closed, and
        ``ended``); ``stood_in`` the ply of the first move a computer made for an absent
        member; ``left`` the ply from which a computer plays the seat of a member who left
        the game (``/<game> leave``) for the rest of it."""
        ...

    def resume(
        self,
        data: dict[str, Any],
        states: Mapping[int, Any],
        live: Mapping[int, tuple[int, Mapping[str, Any], Any]],
    ) -> list[Effect]:
        """After a restart: ``states`` of the event's tables (``None``: closed without a
        result); ``live`` the latest table of this game in each channel of the server —
        the live one, else the last finished one not among the event's tables — as (game
        id, engine options, state), so a table opened but not recorded is found again,
        even one that has finished already (a table of computers plays out as it opens)."""
        ...

    def expired(self, data: dict[str, Any], states: Mapping[int, Any]) -> list[Effect]:
        """The deadline: ``states`` of the tables still live (they are closed next)."""
        ...

    def summary(self, match_id: int, data: dict[str, Any], lang: Lang) -> str:
        """Return a finished event's line in ``/history``: what it was and who won."""
        ...
