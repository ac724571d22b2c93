"""The README's screenshots: ``scripts/screenshots.py`` writes one preview page per message
(the photographs need chromium and are not taken here)."""

from __future__ import annotations

import base64
import io
import json
import re
from pathlib import Path

import pytest

from tests.support.scripts import load_script

for runtime in ("aiohttp", "markdown_it", "linkify_it", "regex"):  # simcord[preview]
    pytest.importorskip(runtime, reason="simcord's preview runtime (simcord[preview]) is missing")


def _frozen(page: Path) -> dict:
    match = re.search(
        r'<script type="application/json" id="frozen-preview">(.*?)</script>',
        page.read_text(encoding="utf-8"),
    )
    assert match is not None, page
    return json.loads(match.group(1))


async def test_each_screenshot_page_shows_its_message(tmp_path: Path) -> None:
    screenshots = load_script("screenshots", "dupe_screenshots")
    written = await screenshots.write_pages(tmp_path)
    pages = {shot.name: page for shot, page in written}
    assert list(pages) == [
        "lobby",
        "hand",
        "reveal",
        "scoring",
        "scoring-details",
        "rules",
        "doppelkopf-lobby",
        "doppelkopf-hand",
        "doppelkopf-trick",
        "doppelkopf-end",
        "doppelkopf-details",
        "doppelkopf-hand-de",
        "doppelkopf-end-de",
        "whist-table",
        "whist-dummy",
        "whist-deal",
        "dukes-up-proposal",
        "dukes-up-board",
    ]
    assert (tmp_path / screenshots.FONT_SHEET).stat().st_size > 0
    expected = {
        "lobby": ["Dupe — a table is open", "Join", "Start", "@Alice"],
        "hand": ["Your identity card", "Choose a card", "Picture of my hand"],
        "reveal": ["Revealed:", "takes the trick", "My hand"],
        # The scoring's text gives the totals beside its picture; its Details give all
        # of it in text.
        "scoring": ["Dupe — deal 1 scored", "Totals", "Details"],
        "scoring-details": ["Dupe — deal 1 scored", "Won:", "credited to", "Totals"],
        "rules": ["Seats own suits", "Worked example from the rules", "(4s) = 31"],
        "doppelkopf-lobby": ["Doppelkopf — a table is open", "Join", "Tournament rules"],
        "doppelkopf-hand": ["Your hand", "You are", "You may announce", "Refresh"],
        "doppelkopf-trick": ["Trick ", "Game: Normal game", "Waiting for", "My hand"],
        "doppelkopf-end": ["Game 1:", "Card points", "Totals", "Details"],
        "doppelkopf-details": ["Game 1:", "Hands", "Tricks", "12. "],
        "doppelkopf-hand-de": ["Deine Hand", "Du bist", "Du darfst jetzt ansagen"],
        "doppelkopf-end-de": ["Spiel 1:", "Augen", "Stand", "Einzelheiten"],
        "whist-table": ["North (dummy", "Trick", "My hand"],
        "whist-dummy": ["Dummy's turn", "Dummy you play", "Refresh"],
        "whist-deal": ["Deal 1 scored", "Trumps", "Totals"],
        "dukes-up-proposal": ["Proposal for", "✳", "Accept", "Cancel"],
        "dukes-up-board": ["Dukes Up!", "(run)", "(set)", "G6", "My hand"],
    }
    pictures = {
        "reveal": "trick.png",
        "scoring": "scoring-deal-1.png",
        "rules": "rules-example.png",
        "doppelkopf-trick": "trick.png",
        "doppelkopf-end": "scoring-game-1.png",
        "doppelkopf-end-de": "scoring-game-1.png",
        "whist-table": "trick.png",
    }
    for name, page in pages.items():
        assert page.exists() and page.parent == tmp_path
        text = screenshots.page_text(page.read_text(encoding="utf-8"))
        for words in expected[name]:
            assert words in text, (name, words)
        frozen = _frozen(page)
        snapshot = frozen["snapshot"]
        assert len(snapshot["timeline"]) == 1  # the one message, nothing else
        (message,) = snapshot["messages"].values()
        private = name in (
            "hand",
            "scoring-details",
            "rules",
            "doppelkopf-hand",
            "doppelkopf-details",
            "doppelkopf-hand-de",
            "whist-dummy",
            "dukes-up-proposal",
        )
        assert bool(message.get("ephemeral") or message.get("flags", 0) & 64) == private, name
        if not private:  # seen by a member who is not playing: nothing hidden in it
            assert "Your hand" not in text and "Your identity card" not in text
            assert "Deine Hand" not in text and "Your working table" not in text
        if name in pictures:
            shown = [
                snapshot["assets"][asset]["filename"]
                for asset in frozen["assets"]
                if asset in snapshot["assets"]
            ]
            assert pictures[name] in shown, name
    # The suits are the bot's own emojis, their images in the page (simcord keeps none).
    from PIL import Image

    from bot.pictures.signs import suit_sign
    from engine.cards import Suit

    hand = _frozen(pages["hand"])
    embedded = {
        Image.open(io.BytesIO(base64.b64decode(asset["body"]))).convert("RGBA").tobytes()
        for asset in hand["assets"].values()
    }
    assert {suit_sign(suit).tobytes() for suit in Suit} <= embedded
