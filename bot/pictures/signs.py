"""The suit signs the bot shows in Discord's text and buttons: each suit's pip on a small
white card, registered as the application's own emojis (:mod:`bot.suits`).

Discord draws ♠ and ♣ as near-black emoji, about 1.1 : 1 against its dark theme's grey, and
♥ ♦ as a dark red, about 2 : 1. A pip on its own card reads the same on every background a
sign lands on: the dark and the light theme, a red, blue, green or grey button, and a
disabled button drawn at half opacity; red suits stay red. ``tests/bot/test_suits.py``
measures the contrast on each.
"""

from __future__ import annotations

import io

from PIL import Image

from bot.pictures.shapes import rounded_mask, suit_mask
from bot.pictures.style import EDGE, INK, PAPER, RED, Colour
from engine.cards import Suit

__all__ = ["SIGN_SIZE", "sign_pip_box", "suit_sign", "suit_sign_png"]

SIGN_SIZE = 128
"""An emoji's side in pixels: Discord takes up to 128 × 128 and scales it down."""

_CARD_BOX = (12, 0, 116, 128)  # the little card: portrait, the emoji's full height
_EDGE_WIDTH = 5  # grey: the card's outline on the light theme, where white meets white
_PIP = 84


def sign_pip_box() -> tuple[int, int, int, int]:
    """Return the box the pip fills in a sign (left, top, right, bottom)."""
    left = (SIGN_SIZE - _PIP) // 2
    top = (SIGN_SIZE - _PIP) // 2 + 2
    return left, top, left + _PIP, top + _PIP


def _ink(suit: Suit) -> Colour:
    return RED if suit in (Suit.HEARTS, Suit.DIAMONDS) else INK


def suit_sign(suit: Suit) -> Image.Image:
    """Return ``suit``'s sign: its pip, red or black, on a small white card with a grey
    edge, on a transparent square (RGBA, :data:`SIGN_SIZE` a side)."""
    sign = Image.new("RGBA", (SIGN_SIZE, SIGN_SIZE), (0, 0, 0, 0))
    x0, y0, x1, y1 = _CARD_BOX
    width, height = x1 - x0, y1 - y0
    sign.paste((*EDGE, 255), (x0, y0, x1, y1), rounded_mask(width, height, 22))
    sign.paste((*PAPER, 255), (x0, y0, x1, y1), rounded_mask(width, height, 22, _EDGE_WIDTH))
    left, top, right, bottom = sign_pip_box()
    sign.paste((*_ink(suit), 255), (left, top, right, bottom), suit_mask(suit, _PIP, _PIP))
    return sign


def suit_sign_png(suit: Suit) -> bytes:
    """Return ``suit``'s sign as PNG bytes, as an emoji is uploaded."""
    out = io.BytesIO()
    suit_sign(suit).save(out, format="PNG", optimize=True)
    return out.getvalue()
