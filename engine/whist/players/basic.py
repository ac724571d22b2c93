"""The ``basic`` player (placeholder until written): plays like ``random``."""

from __future__ import annotations

from engine.whist.players.random import RandomPlayer


class BasicPlayer(RandomPlayer):
    """Placeholder."""

    name = "basic"
