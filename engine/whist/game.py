"""Whist as ``engine.game.Game``: what the bot and the shells know of it."""

from __future__ import annotations

import dataclasses
import importlib.util
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from engine.errors import OptionsError
from engine.game import Adviser, Game, Player, Terminal
from engine.whist.actions import Action, Move, parse_action
from engine.whist.options import PLAYERS, WhistOptions
from engine.whist.players import WATCHING
from engine.whist.rules import WhistState, WhistView, new_game, replay

__all__ = ["GAME", "WhistGame"]


class WhistGame(Game[WhistState, WhistView, Action, WhistOptions]):
    """The whist family as one ``engine.game.Game``; ``WhistOptions.variant`` picks the
    variant (short whist by default)."""

    name = "whist"
    title = "Whist"
    options_type = WhistOptions
    default_level = "basic"
    slow_levels = frozenset({"expert"})  # double-dummy solves: the bot keeps them off its loop
    watching_levels = WATCHING

    @property
    def levels(self) -> Mapping[str, Callable[[int], Player[WhistView, Action]]]:
        """Return the computer players by level, weakest first."""
        from engine.whist.players import LEVELS

        return LEVELS

    def player_counts(self, options: WhistOptions | None) -> tuple[int, ...]:
        """Return the numbers of players the variant seats (Mort: 3 or 4 unless fixed)."""
        options = options if options is not None else WhistOptions()
        if options.players is not None:
            return (options.players,)
        return PLAYERS[options.variant]

    def seated(self, options: WhistOptions | None, players: int) -> WhistOptions:
        """Return ``options`` for ``players`` players (Mort records the count)."""
        options = options if options is not None else WhistOptions()
        if players not in self.player_counts(options):
            counts = " or ".join(map(str, self.player_counts(options)))
            raise OptionsError(
                f"{options.variant} whist is played by {counts} players, not {players}.",
                reason="players",
                players=players,
            )
        if options.variant == "mort":
            return dataclasses.replace(options, players=players)
        return options

    def new_game(self, seed: int, options: WhistOptions | None = None) -> WhistState:
        """Return a new unit of play dealt from ``seed``."""
        return new_game(seed, options)

    def replay(self, seed: int, options: WhistOptions | None, moves: Iterable[Any]) -> WhistState:
        """Return the state reached by ``moves`` (objects or ``"N:QH"`` strings)."""
        return replay(seed, options, moves)

    def parse_move(self, text: str) -> Move:
        """Return the move written ``text`` (``"N:QH"``, ``"S:claim:5"``)."""
        return Move.parse(text)

    def parse_action(self, text: str) -> Action:
        """Return the action written ``text`` (``"QH"``, ``"keep"``, ``"claim:5"`` …)."""
        return parse_action(text)

    def secrets(self, state: WhistState, seat: int) -> frozenset[str]:
        """Return the card codes only the player deciding for ``seat`` may see now (see
        :meth:`WhistState.secrets`)."""
        return state.secrets(seat)

    def adviser(self, seed: int) -> Adviser[WhistView, Action] | None:
        """Return the expert, which advises from its double-dummy samples (``None``
        without ``endplay``, its solver)."""
        from engine.whist.players.dds import load_solver

        try:
            load_solver()
        except (ImportError, OSError):
            return None
        from engine.whist.players.expert import ExpertPlayer

        return ExpertPlayer(seed)

    def advises(self) -> bool:
        """Return whether ``endplay``, the expert's solver, is installed, without loading
        its library (that is left to the first advice)."""
        return importlib.util.find_spec("endplay") is not None

    def terminal(self) -> Terminal:
        """Return whist's text table (``python -m engine.play whist``)."""
        from engine.whist import terminal

        return terminal


GAME = WhistGame()
"""Whist, as the registry lists it."""
