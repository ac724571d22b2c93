"""Dupe as ``engine.game.Game``: what the bot and the shells know of it."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

from engine.dupe.rules import (
    Action,
    DupeOptions,
    DupeState,
    DupeView,
    Move,
    new_game,
    parse_action,
    replay,
)
from engine.errors import OptionsError
from engine.game import Adviser, Game, Player, Terminal

__all__ = ["GAME", "DupeGame"]


class DupeGame(Game[DupeState, DupeView, Action, DupeOptions]):
    """Dupe as ``engine.game.Game``: four players, the memory rule as its one option."""

    name = "dupe"
    title = "Dupe"
    options_type = DupeOptions
    default_level = "expert"

    @property
    def levels(self) -> Mapping[str, Callable[[int], Player[DupeView, Action]]]:
        """Return the computer players by level, weakest first."""
        from engine.dupe.players import LEVELS

        return LEVELS

    def player_counts(self, options: DupeOptions | None) -> tuple[int, ...]:
        """Return the allowed numbers of players: four."""
        return (4,)

    def seated(self, options: DupeOptions | None, players: int) -> DupeOptions:
        """Return ``options`` for ``players`` players; Dupe has exactly four."""
        if players != 4:
            raise OptionsError(
                "Dupe is played by exactly four players.", reason="players", players=players
            )
        return DupeOptions() if options is None else options

    def new_game(self, seed: int, options: DupeOptions | None = None) -> DupeState:
        """Return a new game dealt from ``seed``."""
        return new_game(seed, options)

    def replay(self, seed: int, options: DupeOptions | None, moves: Iterable[Any]) -> DupeState:
        """Return the state reached by ``moves`` (objects or ``"N:TS"`` strings)."""
        return replay(seed, options, moves)

    def parse_move(self, text: str) -> Move:
        """Return the move written ``text`` (``"N:TS"``)."""
        return Move.parse(text)

    def parse_action(self, text: str) -> Action:
        """Return the action written ``text`` (``"TS"`` or ``"TS,2H,3C,4D"``)."""
        return parse_action(text)

    def secrets(self, state: DupeState, seat: int) -> frozenset[str]:
        """Return the card codes only ``seat`` may see now: in deal 1 its hand and its
        face-down choice. From deal 2 on every hand is the won cards the last scoring showed
        to everyone, so which card a seat chose is secret but no card code is; identity
        cards are secret too, but no token one could look for names them (the bot's own
        leak scan checks both)."""
        if state.deal != 1 or state.is_over:
            return frozenset()
        choice = state.choice(seat)
        codes = {card.code for card in state.hand(seat)}
        if choice is not None:
            codes.add(choice.code)
        return frozenset(codes)

    def adviser(self, seed: int) -> Adviser[DupeView, Action]:
        """Return the expert, which advises with its own estimates of each action."""
        from engine.dupe.players.expert import ExpertPlayer

        return ExpertPlayer(seed)

    def advises(self) -> bool:
        """Return ``True`` without importing the expert (its tables take 0.1 s to build)."""
        return True

    def terminal(self) -> Terminal:
        """Return Dupe's text table (``python -m engine.play dupe``)."""
        from engine.dupe import terminal

        return terminal


GAME = DupeGame()
"""Dupe, as the registry lists it."""
