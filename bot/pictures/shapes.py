"""Shapes drawn large and scaled down, so they are smooth at any size: the suit pips and
the rounded rectangles of cards, badges and chips.

Each suit has its own shape, so colour (red ♥ ♦, black ♠ ♣) is never the only signal; the
same shapes mark cards and stand for ♠ ♥ ♦ ♣ in text.
"""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw

from bot.pictures.style import SUPERSAMPLE, Colour
from engine.cards import Suit

__all__ = ["paste_suit", "rounded_mask", "suit_mask"]


def _draw_suit(draw: ImageDraw.ImageDraw, suit: Suit, w: float, h: float) -> None:
    """Draw ``suit``'s pip filling a ``w`` × ``h`` box, in a mask (fill 255)."""

    def poly(*points: tuple[float, float]) -> None:
        draw.polygon([(px * w / 100, py * h / 100) for px, py in points], fill=255)

    def dot(cx: float, cy: float, r: float) -> None:  # r in % of width
        x, y, radius = cx * w / 100, cy * h / 100, r * w / 100
        draw.ellipse((x - radius, y - radius, x + radius, y + radius), fill=255)

    if suit is Suit.DIAMONDS:
        poly((50, 0), (90, 50), (50, 100), (10, 50))
    elif suit is Suit.HEARTS:
        dot(27, 30, 26)
        dot(73, 30, 26)
        poly((2.5, 38), (50, 26), (97.5, 38), (50, 100))
    elif suit is Suit.SPADES:
        dot(27, 60, 24.5)
        dot(73, 60, 24.5)
        poly((3, 54), (50, 0), (97, 54), (50, 72))
        poly((50, 62), (64, 100), (36, 100))
    else:
        dot(50, 26, 24)
        dot(25, 60, 24)
        dot(75, 60, 24)
        poly((50, 40), (63, 60), (50, 66), (37, 60))
        poly((50, 55), (66, 100), (34, 100))


@lru_cache(maxsize=256)
def suit_mask(suit: Suit, width: int, height: int) -> Image.Image:
    """Return an anti-aliased mask of ``suit``'s pip in a ``width`` × ``height`` box."""
    big = Image.new("L", (width * SUPERSAMPLE, height * SUPERSAMPLE), 0)
    _draw_suit(ImageDraw.Draw(big), suit, width * SUPERSAMPLE, height * SUPERSAMPLE)
    return big.resize((width, height), Image.Resampling.LANCZOS)


def paste_suit(
    canvas: Image.Image, suit: Suit, size: int, xy: tuple[int, int], colour: Colour
) -> None:
    """Paint ``suit``'s pip in ``colour`` into the ``size`` × ``size`` box whose top left
    corner is ``xy``."""
    canvas.paste(colour, (*xy, xy[0] + size, xy[1] + size), suit_mask(suit, size, size))


@lru_cache(maxsize=512)
def rounded_mask(width: int, height: int, radius: int, inset: int = 0) -> Image.Image:
    """Return an anti-aliased mask of a rounded rectangle filling ``width`` × ``height``
    (shrunk by ``inset`` on every side)."""
    ss = SUPERSAMPLE
    big = Image.new("L", (width * ss, height * ss), 0)
    ImageDraw.Draw(big).rounded_rectangle(
        (inset * ss, inset * ss, (width - inset) * ss - 1, (height - inset) * ss - 1),
        radius=(radius - inset) * ss,
        fill=255,
    )
    return big.resize((width, height), Image.Resampling.LANCZOS)
