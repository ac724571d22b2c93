"""Dukes Up! as ``engine.game.Game``: what the bot and the shells know of it."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from engine.dukes_up.actions import Action, Kind, Move, parse_action
from engine.dukes_up.options import DukesUpOptions
from engine.dukes_up.rules import DukesUpState, DukesUpView, new_game, replay
from engine.errors import OptionsError
from engine.game import Adviser, Game, Player, Terminal

__all__ = ["GAME", "DukesUpGame"]


class DukesUpGame(Game[DukesUpState, DukesUpView, Action, DukesUpOptions]):
    """Dukes Up! for two players, Black (seat 0) and Red (seat 1)."""

    name = "dukes_up"
    title = "Dukes Up!"
    options_type = DukesUpOptions
    default_level = "baseline"
    # the expert's decisions take up to tens of milliseconds on a busy host (its p99 is over
    # 5 ms: bench/dukes_up_strength.py), so the bot keeps them off its event loop
    slow_levels = frozenset({"expert"})

    @property
    def levels(self) -> Mapping[str, Callable[[int], Player[DukesUpView, Action]]]:
        """Return the computer players by level, weakest first."""
        from engine.dukes_up.players import LEVELS

        return LEVELS

    def player_counts(self, options: DukesUpOptions | None) -> tuple[int, ...]:
        """Return the numbers of players: always two."""
        return (2,)

    def seated(self, options: DukesUpOptions | None, players: int) -> DukesUpOptions:
        """Return ``options`` for ``players`` players (only 2 are possible)."""
        options = options if options is not None else DukesUpOptions()
        if players != 2:
            raise OptionsError(
                f"Dukes Up! is played by 2 players, not {players}.",
                reason="players",
                players=players,
            )
        return options

    def new_game(self, seed: int, options: DukesUpOptions | None = None) -> DukesUpState:
        """Return a new match dealt from ``seed``."""
        return new_game(seed, options)

    def replay(
        self, seed: int, options: DukesUpOptions | None, moves: Iterable[Any]
    ) -> DukesUpState:
        """Return the state reached by ``moves`` (objects or ``"B:finish"`` strings)."""
        return replay(seed, options, moves)

    def parse_move(self, text: str) -> Move:
        """Return the move written ``text`` (``"B:draw:pile=draw;n=2"``)."""
        return Move.parse(text)

    def parse_action(self, text: str) -> Action:
        """Return the action written ``text`` (``"new:3S,4D,5S"``, ``"finish"`` …)."""
        return parse_action(text)

    def secrets(self, state: DukesUpState, seat: int) -> frozenset[str]:
        """Return the card codes only ``seat`` may see now (see
        :meth:`DukesUpState.secrets`)."""
        return state.secrets(seat)

    def tally(self, state: DukesUpState) -> dict[str, int]:
        """Return how a finished match's rounds ended (``capture``, ``exhaustion``,
        ``turn-limit``, ``agreement``; ``resign`` for a resignation), and its turns."""
        counts: Counter[str] = Counter(r.end for r in state.results)
        if any(m.action.kind is Kind.RESIGN for m in state.moves):
            counts["resign"] += 1
        counts["turns"] = sum(
            1 for m in state.moves if m.action.kind in (Kind.DISCARD, Kind.FINISH)
        )
        return dict(counts)

    def adviser(self, seed: int) -> Adviser[DukesUpView, Action]:
        """Return the expert, which advises with the score margin its plan reaches."""
        from engine.dukes_up.players.expert import ExpertPlayer

        return ExpertPlayer(seed)

    def advises(self) -> bool:
        """Return ``True`` without importing the expert."""
        return True

    def terminal(self) -> Terminal:
        """Return Dukes Up!'s text table (``python -m engine.play dukes_up``)."""
        from engine.dukes_up import terminal

        return terminal


GAME = DukesUpGame()
"""Dukes Up!, as the registry lists it."""
