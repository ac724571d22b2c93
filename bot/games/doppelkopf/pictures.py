"""Doppelkopf's own pictures, made with the drawing kit (``bot.pictures``): the end of a game
— every hand as it was when card play began, each under its player's name, party and score
— and the card order of a game type."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from PIL import Image

from bot.pictures import (
    MARGIN,
    MUTED,
    TEXT,
    draw_text,
    fit_text,
    hand_canvas,
    new_canvas,
    png,
    shared_palette,
)
from engine.cards import Card

__all__ = ["end_picture"]


def end_picture(
    title: str,
    hands: Sequence[tuple[str, Sequence[Card]]],
    lines: Sequence[str],
    group: Callable[[Card], object],
) -> bytes:
    """Return a PNG of a finished game: ``title`` on top, each ``(label, cards)`` hand in a
    row of its own (the cards in the order given, trumps first), and ``lines`` (the score
    items and scores) below. Words come from the caller, in its reader's language."""
    return png(_end_canvas(title, hands, lines, group), shared_palette())


def _end_canvas(
    title: str,
    hands: Sequence[tuple[str, Sequence[Card]]],
    lines: Sequence[str],
    group: Callable[[Card], object],
) -> Image.Image:
    rows = [hand_canvas(cards, title=label, group=group) for label, cards in hands]
    width = max(max((row.width for row in rows), default=0), 900)
    line_h = 38
    height = MARGIN + 50 + sum(row.height for row in rows) + len(lines) * line_h + MARGIN
    canvas = new_canvas(width, height)
    draw_text(
        canvas,
        (MARGIN, MARGIN + 34),
        fit_text(title, 34, width - 2 * MARGIN, bold=True),
        34,
        TEXT,
        bold=True,
    )
    top = MARGIN + 50
    for row in rows:
        canvas.paste(row, (0, top))
        top += row.height
    for line in lines:
        draw_text(canvas, (MARGIN, top + 28), fit_text(line, 26, width - 2 * MARGIN), 26, MUTED)
        top += line_h
    return canvas
