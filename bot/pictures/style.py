"""The pictures' sizes and colours, shared by every game so that all of them look alike."""

from __future__ import annotations

from PIL import Image

__all__ = [
    "CARD_H",
    "CARD_SIZE",
    "CARD_W",
    "EDGE",
    "FELT",
    "FELT_DARK",
    "GOLD",
    "GOLD_INK",
    "INK",
    "MARGIN",
    "MAX_WIDTH",
    "MUTED",
    "PAPER",
    "RADIUS",
    "RED",
    "RED_ON_FELT",
    "TEXT",
    "Colour",
    "new_canvas",
]

CARD_W, CARD_H = 120, 168
CARD_SIZE = (CARD_W, CARD_H)
"""Width and height of one card in pixels."""
RADIUS = 12
"""The radius of a card's corners."""
MARGIN = 24
"""The bare felt around a picture's contents."""
MAX_WIDTH = 1600
"""No picture is wider: Discord shows it scaled down to a message's width anyway."""

SUPERSAMPLE = 4  # shapes are drawn this many times larger, then scaled down (anti-aliasing)

Colour = tuple[int, int, int]
FELT: Colour = (24, 92, 52)
FELT_DARK: Colour = (17, 70, 39)
PAPER: Colour = (255, 255, 255)
EDGE: Colour = (150, 150, 150)
INK: Colour = (25, 25, 28)
RED: Colour = (200, 24, 40)
TEXT: Colour = (244, 244, 240)
MUTED: Colour = (186, 214, 194)
GOLD: Colour = (255, 196, 40)
GOLD_INK: Colour = (60, 42, 0)
RED_ON_FELT: Colour = (255, 176, 166)
"""Red pips in text on the felt: 4.6 : 1 on the felt (WCAG), and still red."""


def new_canvas(width: int, height: int, colour: Colour = FELT) -> Image.Image:
    """Return a blank picture of that size: bare felt."""
    return Image.new("RGB", (width, height), colour)
