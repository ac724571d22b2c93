"""High card: a tiny two-player game that exists only to prove the bot core is generic.

Its engine (``engine.py``) and its bot package (``ui.py``) are all it takes; the tests
register it (``engine.games.registered``, ``bot.games.registered``) and play it through
simcord with the same lobby, timers, store, restarts, leak scan and community commands as
every game.
"""
