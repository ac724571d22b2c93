"""``python -m tests.support.highcard.run_bot``: the real bot process (``python -m bot``) with
high card registered beside the bot's own games — how the loopback tests run a second game
in a process of its own."""

from __future__ import annotations

from bot import games
from bot.__main__ import main
from engine import games as engine_games
from tests.support.highcard.engine import HIGHCARD
from tests.support.highcard.ui import UI

if __name__ == "__main__":
    with engine_games.registered(HIGHCARD), games.registered(UI):
        raise SystemExit(main())
