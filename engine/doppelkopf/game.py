"""Doppelkopf as ``engine.game.Game``: what the bot and the shells know of it."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from engine.doppelkopf.rules import (
    OPTIONAL,
    Action,
    DoppelkopfOptions,
    DoppelkopfState,
    DoppelkopfView,
    Move,
    new_game,
    parse_action,
    public_parties,
    replay,
    view_of,
)
from engine.errors import OptionsError
from engine.game import Adviser, Game, Player, Terminal

__all__ = ["GAME", "DoppelkopfGame"]


class DoppelkopfGame(Game[DoppelkopfState, DoppelkopfView, Action, DoppelkopfOptions]):
    """Doppelkopf as ``engine.game.Game``: 4 players (5 in the house preset)."""

    name = "doppelkopf"
    title = "Doppelkopf"
    options_type = DoppelkopfOptions
    default_level = "basic"
    # The expert samples and plays out deals: p50 ~8 ms, p99 ~60 ms a decision
    # (bench/doppelkopf_speed.py --decisions); basic and random stay well under 1 ms.
    slow_levels = frozenset({"expert"})

    @property
    def levels(self) -> Mapping[str, Callable[[int], Player[DoppelkopfView, Action]]]:
        """Return the computer players by level, weakest first."""
        from engine.doppelkopf.players import LEVELS

        return LEVELS

    def player_counts(self, options: DoppelkopfOptions | None) -> tuple[int, ...]:
        """Return the allowed numbers of players: 4; in the house preset 4 or 5, or only 5
        when the options ask for 5 (a table of five with computers filling seats)."""
        options = options or DoppelkopfOptions()
        if options.preset != "house":
            return (4,)
        return (5,) if options.players == 5 else (4, 5)

    def seated(self, options: DoppelkopfOptions | None, players: int) -> DoppelkopfOptions:
        """Return ``options`` for ``players`` players."""
        options = options or DoppelkopfOptions()
        if players not in self.player_counts(options):
            raise OptionsError(
                "Doppelkopf is played by 4 players (5 in the house preset).",
                reason="players",
                players=players,
            )
        return dataclasses.replace(options, players=players)

    def new_game(self, seed: int, options: DoppelkopfOptions | None = None) -> DoppelkopfState:
        """Return a new table dealt from ``seed``."""
        return new_game(seed, options)

    def replay(
        self, seed: int, options: DoppelkopfOptions | None, moves: Iterable[Any]
    ) -> DoppelkopfState:
        """Return the table reached by ``moves`` (objects or ``"1:QC"`` strings)."""
        return replay(seed, options, moves)

    def parse_move(self, text: str) -> Move:
        """Return the move written ``text`` (``"1:QC"``)."""
        return Move.parse(text)

    def parse_action(self, text: str) -> Action:
        """Return the action written ``text``."""
        return parse_action(text)

    def secrets(self, state: DoppelkopfState, seat: int) -> frozenset[str]:
        """Return what only ``seat`` may see now, as tokens its view carries: its party
        (``"2:re"``) until the rules reveal it, its reservation (``"2:solo:queens"``) unless
        it won and was revealed, a silent marriage, the poverty cards before anyone accepted
        them, and the cards of its hand whose twin no other hand holds and the table has not
        seen."""
        if state.is_over or seat == state.sitting_out:
            return frozenset()
        tokens: set[str] = set()
        public = public_parties(state)
        own = set(view_of(state, seat).data["parties"])
        tokens |= {t for t in own if t.startswith(f"{seat}:") and t not in public}
        choice = state._choices.get(seat)
        if state.preset == "tournament" and choice is not None and choice.text != "healthy":
            declared = state.phase in ("play", "scored") and (
                (choice.kind == "solo" and state.soloist == seat and state.game == str(choice))
                or (choice.kind == "marriage" and state.holder == seat)
            )
            if not declared:  # a reservation that won is the game everyone sees
                tokens.add(f"{seat}:{choice}")
        silent = state.game == "silent-marriage" and not state._revealed_silent
        if silent and seat == state.soloist:
            tokens.add(f"{seat}:silent-marriage")
        if seat == state._poverty and state._offered and state._acceptor is None:
            tokens.add(f"poverty:{','.join(c.code for c in sorted(state._offered))}")
        seen = {c for other in state.in_play if other != seat for c in state.hand(other)}
        on_table = set(_strings(state.public_view().data))
        tokens |= {c.code for c in state.hand(seat) if c not in seen and c.code not in on_table}
        return frozenset(tokens)

    def adviser(self, seed: int) -> Adviser[DoppelkopfView, Action]:
        """Return the expert, which advises by sampling deals consistent with a seat's view."""
        from engine.doppelkopf.players.expert import ExpertPlayer

        return ExpertPlayer(seed)

    def advises(self) -> bool:
        """Return ``True`` without importing the expert."""
        return True

    def slow_action(self, action: Action | str) -> bool:
        """Return whether applying ``action`` runs a search (a claim: the exact check of
        §3.8), which a server should run off its event loop."""
        return str(action) == "claim"

    def stand_in_view(self, view: DoppelkopfView) -> DoppelkopfView:
        """Return ``view`` with only the decision its seat owes: a computer standing in for
        an absent member never announces, claims or concedes (rules §5)."""
        legal = tuple(a for a in view.legal if a.kind not in OPTIONAL)
        data = {**view.data, "legal": [str(a) for a in legal]}
        return dataclasses.replace(view, data=data, legal=legal)

    def tally(self, state: DoppelkopfState) -> dict[str, int]:
        """Return what a finished table counts for the simulator: each game type,
        announcement, claim and extra point that occurred."""
        found: dict[str, int] = {}

        def add(key: str) -> None:
            found[key] = found.get(key, 0) + 1

        for result in state.game_results:
            add(f"game:{result.game}")
            for _, key, _ in result.items:
                if key in ("fox", "doppelkopf", "charlie"):
                    add(f"extra:{key}")
        for move in state.moves:
            kind = move.action.kind
            if kind in OPTIONAL:
                add(f"say:{kind}")
        return found

    def terminal(self) -> Terminal:
        """Return Doppelkopf's text table (``python -m engine.play doppelkopf``)."""
        from engine.doppelkopf import terminal

        return terminal


def _strings(value: Any) -> Iterable[str]:
    """Yield every string of a JSON value (what the table can read)."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from _strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item)


GAME = DoppelkopfGame()
"""Doppelkopf, as the registry lists it."""
