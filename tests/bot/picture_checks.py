"""Checks on pictures shared by the kit's tests and each game's: a valid PNG within the
limits, its colours counted, its edges bare."""

from __future__ import annotations

import io

from PIL import Image, ImageChops

from bot.pictures import CARD_SIZE

LIMIT = 150_000  # bytes; Discord allows far more, phones on slow links do not
DISCORD_LIMIT = 10 * 1024 * 1024
FELT = (24, 92, 52)


def open_png(data: bytes) -> Image.Image:
    assert data.startswith(b"\x89PNG\r\n\x1a\n")
    image = Image.open(io.BytesIO(data))
    assert image.format == "PNG"
    image.load()
    return image.convert("RGB")


def check(data: bytes, max_width: int = 1600, max_height: int = 1600) -> Image.Image:
    """Return the picture, once it is shown to be a PNG Discord and phones take."""
    image = open_png(data)
    assert CARD_SIZE[0] < image.width <= max_width
    assert CARD_SIZE[1] < image.height <= max_height
    assert len(data) < LIMIT < DISCORD_LIMIT
    return image


def count(
    image: Image.Image, colour: tuple[int, int, int], box: tuple[int, int, int, int] | None = None
) -> int:
    """Return how many pixels (in ``box``) are within 12 of ``colour`` in every channel."""
    region = image.crop(box) if box else image
    masks = [
        band.point(lambda v, c=c: 255 if abs(v - c) <= 12 else 0)
        for band, c in zip(region.split(), colour, strict=True)
    ]
    both = ImageChops.multiply(ImageChops.multiply(masks[0], masks[1]), masks[2])
    return both.histogram()[255]


def ink(image: Image.Image) -> Image.Image:
    """Return where a picture is darker than near-white, in black and white: its shapes."""
    return image.convert("L").point(lambda v: 255 if v < 200 else 0)


def edges_are_felt(image: Image.Image, edge: int = 8) -> bool:
    """Return whether a strip ``edge`` px wide along each side is bare felt: nothing runs
    off the picture."""
    w, h = image.size
    strips = [(0, 0, edge, h), (w - edge, 0, w, h), (0, 0, w, edge), (0, h - edge, w, h)]
    return all(count(image, FELT, box) == (box[2] - box[0]) * (box[3] - box[1]) for box in strips)
