"""Cards: faces for every :class:`engine.cards.Card` (any rank, ``10`` included, so the
52-card pack and Doppelkopf's 9–A alike), cards placed with their shadow, outlined, shown
as small chips in text, and laid out in overlapping rows.

A face is a white rounded rectangle with the rank over the suit's pip in two corners and a
large pip in the middle; each of the 52 is drawn once and kept.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from functools import lru_cache

from PIL import Image, ImageDraw, ImageFilter

from bot.pictures.shapes import paste_suit, rounded_mask
from bot.pictures.style import (
    CARD_H,
    CARD_SIZE,
    CARD_W,
    EDGE,
    FELT_DARK,
    PAPER,
    RADIUS,
    Colour,
)
from bot.pictures.text import draw_text, font, suit_colour, text_width
from engine.cards import Card

__all__ = [
    "GLOW",
    "INDEX_X",
    "Grouping",
    "by_suit_groups",
    "card_chip",
    "card_face",
    "chip_width",
    "draw_row",
    "outline_card",
    "place_card",
    "place_slot",
    "row_positions",
    "row_width",
]

INDEX_X = 24
"""The x of the centre of a card's corner index (rank over pip), from its left edge."""
_RANK_SIZE = 36
_RANK_WIDTH = 40  # the widest a rank is drawn: two digits are squeezed to fit the corner
_INDEX_PIP = 26
_INDEX_PIP_TOP = 46  # below the descenders of J and Q
_INDEX_H = _INDEX_PIP_TOP + _INDEX_PIP + 1
_SHADOW = 8  # the shadow's margin around the card
_ROW_GAP = 14  # between two groups of a row (suits, or trumps and the rest)
GLOW = 6
"""How far an outline reaches beyond the card."""

Grouping = Callable[[Card], Hashable]
"""Which group of a row a card belongs to; a gap separates neighbours of different groups."""


def by_suit_groups(card: Card) -> Hashable:
    """Group a row by suit (the default: a gap between suits)."""
    return card.suit


@lru_cache(maxsize=1)
def _blank_card() -> Image.Image:
    card = Image.new("RGBA", CARD_SIZE, (*EDGE, 0))
    card.paste((*EDGE, 255), (0, 0, *CARD_SIZE), rounded_mask(CARD_W, CARD_H, RADIUS))
    card.paste((*PAPER, 255), (0, 0, *CARD_SIZE), rounded_mask(CARD_W, CARD_H, RADIUS, 2))
    return card


@lru_cache(maxsize=1)
def _card_shadow() -> Image.Image:
    pad = _SHADOW
    shadow = Image.new("RGBA", (CARD_W + 2 * pad, CARD_H + 2 * pad), (0, 0, 0, 0))
    mask = Image.new("L", shadow.size, 0)
    mask.paste(rounded_mask(CARD_W, CARD_H, RADIUS), (pad, pad))
    mask = mask.filter(ImageFilter.GaussianBlur(3)).point(lambda v: v * 90 // 255)
    shadow.putalpha(mask)
    return shadow


@lru_cache(maxsize=16)
def _rank_mask(rank: str) -> tuple[Image.Image, int]:
    """Return a rank as a coverage mask, squeezed to the index column's width when it is
    wider (``10``), and how far its cap height starts below the mask's top."""
    face = font(_RANK_SIZE, bold=True)
    left, top, right, bottom = (int(v) for v in face.getbbox(rank, anchor="ls"))
    mask = Image.new("L", (right - left, bottom - top), 0)
    ImageDraw.Draw(mask).text((-left, -top), rank, font=face, fill=255, anchor="ls")
    if mask.width > _RANK_WIDTH:
        mask = mask.resize((_RANK_WIDTH, mask.height), Image.Resampling.LANCZOS)
    cap = int(face.getbbox("A", anchor="ls")[1])
    return mask, cap - top


def _draw_rank(canvas: Image.Image, centre_x: int, top: int, rank: str, colour: Colour) -> None:
    """Draw a rank centred on ``centre_x`` with its cap height starting at ``top``."""
    mask, below = _rank_mask(rank)
    x, y = centre_x - mask.width // 2, top - below
    canvas.paste(colour, (x, y, x + mask.width, y + mask.height), mask)


@lru_cache(maxsize=64)
def card_face(card: Card) -> Image.Image:
    """Return the card's face (RGBA, :data:`CARD_SIZE`): corner indices (rank over pip) and
    a large centre pip, red for ♥ ♦ and black for ♠ ♣."""
    face = _blank_card().copy()
    colour = suit_colour(card.suit, on_felt=False)
    index = Image.new("RGBA", (48, _INDEX_H), (0, 0, 0, 0))
    _draw_rank(index, 24, 10, card.rank.symbol, colour)
    paste_suit(index, card.suit, _INDEX_PIP, (24 - _INDEX_PIP // 2, _INDEX_PIP_TOP), colour)
    face.alpha_composite(index, (INDEX_X - 24, 0))
    face.alpha_composite(index.rotate(180), (CARD_W - INDEX_X - 24, CARD_H - _INDEX_H))
    pip = 54
    paste_suit(face, card.suit, pip, ((CARD_W - pip) // 2 + 6, (CARD_H - pip) // 2), colour)
    return face


@lru_cache(maxsize=64)
def _card_sprite(card: Card) -> Image.Image:
    """Return the card's face on its shadow; its top left corner goes 6 px left of the
    card's and 4 px above it."""
    sprite = _card_shadow().copy()
    sprite.alpha_composite(card_face(card), (_SHADOW - 2, _SHADOW - 4))
    return sprite


def place_card(canvas: Image.Image, card: Card, x: int, y: int) -> None:
    """Draw ``card`` face up with its shadow, its top left corner at ``(x, y)``."""
    sprite = _card_sprite(card)
    canvas.paste(sprite, (x - _SHADOW + 2, y - _SHADOW + 4), sprite)


def place_slot(canvas: Image.Image, x: int, y: int) -> None:
    """Draw the empty place of a card not played (yet): a darker patch of felt."""
    canvas.paste(FELT_DARK, (x, y, x + CARD_W, y + CARD_H), rounded_mask(CARD_W, CARD_H, RADIUS))


def outline_card(canvas: Image.Image, x: int, y: int, colour: Colour) -> None:
    """Draw a band of ``colour`` around the card whose top left corner is ``(x, y)``; draw
    the card afterwards, on top of it."""
    ring = rounded_mask(CARD_W + 2 * GLOW, CARD_H + 2 * GLOW, RADIUS + GLOW)
    canvas.paste(colour, (x - GLOW, y - GLOW, x + CARD_W + GLOW, y + CARD_H + GLOW), ring)


def card_chip(canvas: Image.Image, card: Card, x: int, baseline: int, size: int) -> int:
    """Draw a small white label with the card's rank and pip, starting at ``x`` on the
    text line at ``baseline``; return the x where it ends."""
    label = str(card)
    width = chip_width(card, size)
    height = round(size * 1.1)
    top = baseline - round(size * 0.9)
    canvas.paste(PAPER, (x, top, x + width, top + height), rounded_mask(width, height, 6))
    colour = suit_colour(card.suit, on_felt=False)
    draw_text(canvas, (x + size // 4, baseline), label, size, colour, bold=True, on_felt=False)
    return x + width


def chip_width(card: Card, size: int) -> int:
    """Return the width of :func:`card_chip`'s label."""
    return text_width(str(card), size, bold=True) + size // 2


def _gaps(cards: Sequence[Card], group: Grouping) -> list[bool]:
    """Return, for each card, whether a gap comes before it."""
    keys = [group(card) for card in cards]
    return [i > 0 and keys[i] != keys[i - 1] for i in range(len(keys))]


def row_positions(
    cards: Sequence[Card], x: int, width: int, step: int, *, group: Grouping = by_suit_groups
) -> list[int]:
    """Return the left edge of each card of a row drawn by :func:`draw_row`: each card
    ``step`` px right of the one before, a gap between groups, the step narrowed (to 12 px
    at least) so the row fits ``width``."""
    gaps = _gaps(cards, group)
    if len(cards) > 1:
        room = (width - CARD_W - sum(gaps) * _ROW_GAP) // (len(cards) - 1)
        step = max(12, min(step, room))
    positions = []
    for gap in gaps:
        if gap:
            x += _ROW_GAP
        positions.append(x)
        x += step
    return positions


def row_width(cards: Sequence[Card], step: int, *, group: Grouping = by_suit_groups) -> int:
    """Return the width of a row of ``cards`` at ``step`` px per card."""
    if not cards:
        return CARD_W
    return CARD_W + (len(cards) - 1) * step + sum(_gaps(cards, group)) * _ROW_GAP


def draw_row(
    canvas: Image.Image,
    cards: Sequence[Card],
    x: int,
    y: int,
    width: int,
    step: int,
    *,
    group: Grouping = by_suit_groups,
) -> list[int]:
    """Draw ``cards`` (in the order given) overlapping left to right from ``(x, y)``,
    within ``width``, as :func:`row_positions` places them; return their left edges."""
    positions = row_positions(cards, x, width, step, group=group)
    for card, left in zip(cards, positions, strict=True):
        place_card(canvas, card, left, y)
    return positions
