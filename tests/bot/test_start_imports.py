"""A bot's start imports only what it needs before READY: modules that are costly to import
and needed only later — the dupe expert (its tables take 0.1 s to build), the whist solver
and its DDS library, OpenSkill (a game's end), Pillow and the pictures (drawn in the
drawing process) — are imported when first used. Each case runs in a fresh interpreter,
importing what ``python -m bot`` imports to READY and asking every game's command options
(which ask whether the game gives hints)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]

START = """
import json, sys
import bot.__main__, bot.config, bot.store, bot.store.sqlite, bot.app
from bot import commands, games, hints
offered = {ui.name: hints.offered(ui) for ui in games.GAMES}
for ui in games.GAMES:
    commands.shared_options(ui)
print(json.dumps({"modules": sorted(sys.modules), "offered": offered}))
"""

LATER = (
    "PIL",
    "engine.doppelkopf.players.expert",
    "engine.dukes_up.players.expert",
    "bot.pictures.layouts",
    "bot.games.dupe.pictures",
    "bot.games.doppelkopf.pictures",
    "engine.dupe.players.expert",
    "engine.whist.solver",
    "engine.whist.analysis",
    "endplay",
    "endplay._dds",
    "openskill",
    "asyncpg",
    "jsonschema",
    "hypothesis",
    "simcord",
    "discord.ext.commands",  # a client, not a command framework's bot: slash commands only
)


def test_a_start_leaves_what_it_does_not_need_unimported() -> None:
    done = subprocess.run(
        [sys.executable, "-c", START], cwd=REPO, capture_output=True, text=True, check=True
    )
    found = json.loads(done.stdout)
    loaded = set(found["modules"])
    early = sorted(m for m in loaded if m in LATER or m.split(".")[0] in LATER)
    assert early == [], f"imported before they are needed: {early}"
    # Every game that advises still offers hints, though no adviser was built.
    assert found["offered"] == {
        "dupe": True,
        "doppelkopf": True,
        "whist": True,
        "dukes_up": True,
        "whist_duplicate": False,
    }


TLS = """
import json, ssl
from bot.__main__ import import_http_client
import_http_client()
import aiohttp.connector as connector
print(json.dumps({
    "store": ssl.create_default_context().cert_store_stats()["x509_ca"],
    "verified": connector._SSL_CONTEXT_VERIFIED.cert_store_stats()["x509_ca"],
    "verifies": connector._SSL_CONTEXT_VERIFIED.verify_mode == ssl.CERT_REQUIRED,
    "unverified": connector._SSL_CONTEXT_UNVERIFIED.cert_store_stats()["x509_ca"],
    "checks_nothing": connector._SSL_CONTEXT_UNVERIFIED.verify_mode == ssl.CERT_NONE,
    "ssl_as_it_was": "set_default_verify_paths" not in vars(ssl.SSLContext),
}))
"""


def test_the_http_client_loads_the_ca_store_only_where_certificates_are_checked() -> None:
    """``python -m bot`` imports aiohttp with the TLS context for Discord verifying against
    the whole CA store, the one that checks nothing (``ssl=False``) without it, and the
    ``ssl`` module as it was."""
    done = subprocess.run(
        [sys.executable, "-c", TLS], cwd=REPO, capture_output=True, text=True, check=True
    )
    found = json.loads(done.stdout)
    assert found["verified"] == found["store"] and found["verifies"]
    assert found["unverified"] == 0 and found["checks_nothing"]
    assert found["ssl_as_it_was"]


DRAW = """
import asyncio, json, pickle, sys
from bot import pictures
from bot.games.dupe.ui import UI

view = UI.game.new_game(7).view(0)
_, thunk = UI.hand_picture(view, "en")
picture = thunk.func
again = pickle.loads(pickle.dumps(thunk))
pictures.draw_in_a_process()
drawn = asyncio.run(pictures.render_off_loop(thunk))
pictures.stop_drawing()
print(json.dumps({
    "pillow": "PIL" in sys.modules,
    "same": again.func == picture and again.args == thunk.args,
    "name": picture.__name__,
    "hand": [card.code for card in view.hand],
    "drawn": drawn.hex(),
}))
"""


def test_the_bot_process_hands_its_pictures_to_the_drawing_process_unimported() -> None:
    """A game's picture, named by its module and function (``pictures.drawings``), is drawn
    in the drawing process the same as the function itself draws it, and the bot process
    imports neither the game's pictures nor Pillow to have it drawn."""
    done = subprocess.run(
        [sys.executable, "-c", DRAW], cwd=REPO, capture_output=True, text=True, check=True
    )
    found = json.loads(done.stdout)
    assert found["pillow"] is False
    assert found["same"] and found["name"] == "hand_picture"
    from bot.games.dupe.pictures import hand_picture
    from engine.cards import parse_cards

    hand = parse_cards(" ".join(found["hand"]))
    assert bytes.fromhex(found["drawn"]) == hand_picture(tuple(hand))


def test_every_name_of_the_picture_kit_is_found_where_it_lives() -> None:
    """``bot.pictures`` imports its names at their first use: each name it exports is the
    one its module defines."""
    import importlib

    from bot import pictures

    homes = pictures._MODULE_OF
    assert set(homes) == set(pictures.__all__)
    for name, module in homes.items():
        home = importlib.import_module(f"bot.pictures.{module}")
        assert getattr(pictures, name) is getattr(home, name), name
