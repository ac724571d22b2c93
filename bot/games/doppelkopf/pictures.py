"""Doppelkopf's own pictures, made with the drawing kit (``bot.pictures``): the end of a game
— every hand as it was when card play began, each after its player's name, party and score
— and the card order of a game type."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from PIL import Image

from bot.pictures import (
    CARD_H,
    MARGIN,
    MUTED,
    TEXT,
    displayable,
    draw_row,
    draw_text,
    fit_text,
    new_canvas,
    png,
    row_width,
    shared_palette,
    shrink_to_fit,
)
from engine.cards import Card

__all__ = ["end_picture"]

LABEL_W = 340
"""The width of the names' column, left of the hands."""
_STEP = 58
_ROW_GAP = 20


def end_picture(
    hands: Sequence[tuple[str, str, Sequence[Card]]],
    group: Callable[[Card], object],
) -> bytes:
    """Return a PNG of a finished game's hands: a row per ``(name, line, cards)``, the
    player's name and (below it, lighter) ``line`` — party and score — left of the cards,
    in the order given (trumps first). The title and the score items are the post's
    text, not repeated here; words come from the caller, in its reader's language."""
    return png(_end_canvas(hands, group), shared_palette())


def _end_canvas(
    hands: Sequence[tuple[str, str, Sequence[Card]]],
    group: Callable[[Card], object],
) -> Image.Image:
    cards_w = max((row_width(cards, _STEP, group=group) for _, _, cards in hands), default=0)
    width = 2 * MARGIN + LABEL_W + cards_w
    height = 2 * MARGIN + len(hands) * CARD_H + max(len(hands) - 1, 0) * _ROW_GAP
    canvas = new_canvas(width, height)
    for i, (name, line, cards) in enumerate(hands):
        top = MARGIN + i * (CARD_H + _ROW_GAP)
        middle = top + CARD_H // 2
        # A little smaller before any shorter: a name is cut only where there is no room.
        name = displayable(name)
        size = shrink_to_fit(name, 34, LABEL_W - 20, smallest=28, bold=True)
        shown = fit_text(name, size, LABEL_W - 20, bold=True)
        draw_text(canvas, (MARGIN, middle - 6), shown, size, TEXT, bold=True)
        draw_text(canvas, (MARGIN, middle + 36), fit_text(line, 28, LABEL_W - 20), 28, MUTED)
        draw_row(canvas, cards, MARGIN + LABEL_W, top, cards_w, _STEP, group=group)
    return canvas
