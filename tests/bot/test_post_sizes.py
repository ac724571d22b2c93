"""Every public post fits one screen, and its text does not repeat its picture.

The README's screenshots (``scripts/screenshots.py``: simcord's dark preview at Discord's
width, photographed by chromium) measured the posts after this bound was set: a Doppelkopf
breakdown 658 px, a Dupe scoring 877 px, the whist table 664 px, a whist deal's score 251
px — against 1,486, 1,381 and 683 px before. Chromium is not at hand in the
tests, so this bounds what decides that height: the lines of text, wrapped as the preview
wraps them, and each picture's height at the width a message's picture is shown at.
Posts are made by each game's ``GameUI.post`` for games played by computers, with long
member names, in both languages.
"""

from __future__ import annotations

import io
import math
import random
from typing import Any

import pytest
from PIL import Image

from bot.game import GameUI, Post, Rendered, SeatInfo, TableInfo
from bot.games import get
from engine.cards import DECK
from engine.game import deciding_player

SCREEN = 900
"""A screen's height: a post, its picture and its buttons fit in it."""
PICTURE_WIDTH = 550
"""The width a message's picture is shown at (the screenshots: 550 px)."""
CHARS_PER_LINE = 56
"""Characters of an embed's line before the preview wraps it (measured on the screenshots)."""
LINE = 20
"""An embed line's height in px; a title takes 26, the author line 40, the buttons 52, the
embed's padding 30."""
NAMES = ("Alexandra Montgomery-Smith", "Bo", "Carolina Fitzwilliam", "Dmitri Ivanovich Petrov")


def _lines(text: str) -> int:
    return sum(max(1, math.ceil(len(line) / CHARS_PER_LINE)) for line in text.splitlines())


def text_height(shown: Rendered) -> int:
    """Return the height of a message's text (its content and embeds), in px."""
    height = 40 + (_lines(shown.content) * LINE if shown.content else 0)
    for embed in shown.embeds:
        height += 30 + (26 if embed.title else 0)
        height += _lines(embed.description or "") * LINE if embed.description else 0
        for field in embed.fields:
            height += (_lines(str(field.name)) + _lines(str(field.value))) * LINE
        if embed.footer.text:
            height += _lines(embed.footer.text) * 16
    return height


def picture_height(data: bytes) -> int:
    """Return a picture's height as a message shows it (scaled to its width), in px."""
    image = Image.open(io.BytesIO(data))
    return math.ceil(image.height * min(1.0, PICTURE_WIDTH / image.width))


def screen_height(shown: Rendered, picture: bytes | None, buttons: bool) -> int:
    """Return the height a message takes on screen: text, picture, buttons."""
    height = text_height(shown) + (picture_height(picture) + 8 if picture else 0)
    return height + (52 if buttons else 0)


def _info(state: Any, pictures: bool = True) -> TableInfo:
    seats = {s: SeatInfo(NAMES[s % 4], user_id=100 + s) for s in range(state.players)}
    return TableInfo(1, 100, seats, state.options, pictures=pictures)


def _posts(name: str, options: dict[str, Any], seed: int) -> list[tuple[Any, str]]:
    """Return a game's states when it owed a post, with the post's key, up to the third."""
    ui = get(name)
    state = ui.game.new_game(seed, ui.game.options_type(**options))
    players = [ui.game.levels["random"](seed * 10 + p) for p in range(state.players)]
    owed: list[tuple[Any, str]] = []
    while not state.is_over and len(owed) < 3:
        hand = state.to_act[0]
        before = state.clone()
        state.apply(hand, players[deciding_player(state, hand)].act(state.view(hand)))
        owed += [(state.clone(), key) for key in ui.owed(before, state)]
    return owed


GAMES = [
    pytest.param("dupe", {}, id="dupe"),
    pytest.param("doppelkopf", {}, id="doppelkopf"),
    pytest.param("doppelkopf", {"preset": "house", "players": 5}, id="doppelkopf-house-5"),
    pytest.param("whist", {"variant": "english_dummy"}, id="whist-english-dummy"),
]


@pytest.mark.parametrize(("name", "options"), GAMES)
@pytest.mark.parametrize("lang", ["en", "de"])
def test_every_post_fits_a_screen_and_its_text_does_not_repeat_its_picture(
    name: str, options: dict[str, Any], lang: str
) -> None:
    ui: GameUI = get(name)
    owed = _posts(name, options, seed=random.Random(name).randrange(10**6))
    assert owed, "the game owed posts"
    for state, key in owed:
        post: Post = ui.post(_info(state), state, key, NAMES, lang)  # type: ignore[arg-type]
        picture = post.picture() if post.picture is not None else None
        height = screen_height(post.message, picture, post.details)
        assert height <= SCREEN, (key, height)
        if picture is not None:
            # The hands are in the picture; the text does not list them again.
            assert not _cards_named(post.message), (key, _cards_named(post.message))
        # Without pictures, the text alone fits too.
        text_only = ui.post(_info(state, pictures=False), state, key, NAMES, lang)  # type: ignore[arg-type]
        assert screen_height(text_only.message, None, text_only.details) <= SCREEN, key


def _cards_named(shown: Rendered) -> list[str]:
    texts = [e.to_dict() for e in shown.embeds]
    return [str(card) for card in DECK if any(str(card) in str(t) for t in texts)]


def test_the_whist_table_fits_a_screen_with_its_picture() -> None:
    ui = get("whist")
    state = ui.game.new_game(21, ui.game.options_type(variant="english_dummy"))
    players = [ui.game.levels["random"](p) for p in range(state.players)]
    for _ in range(3):  # into the first trick: dummy on view, a trick on the table
        hand = state.to_act[0]
        state.apply(hand, players[deciding_player(state, hand)].act(state.view(hand)))
    info = _info(state)
    for lang in ("en", "de"):
        shown = ui.table_message(info, state.public_view(), lang)
        drawn = ui.table_picture(info, state.public_view(), NAMES, lang)
        assert drawn is not None
        assert screen_height(shown, drawn[1](), True) <= SCREEN
        # A standing line per side, not a line per figure (tricks, score, games).
        description = shown.embeds[0].description or ""
        sides = [line for line in description.splitlines() if " & " in line and "**" in line]
        assert len(sides) == 2, description
