"""The drawing kit every card game's pictures are made with: PNG bytes of cards on felt.

It knows cards (:class:`engine.cards.Card`) and no game: each game's own pictures live in
its bot package (``bot/games/<game>/pictures.py``) and are built from these pieces.

- text (:mod:`bot.pictures.text`): the bundled font (DejaVu Sans Condensed, full Latin:
  names and German are drawn as written), drawing, measuring, fitting and wrapping text,
  suit symbols in text drawn as pips;
- shapes and cards (:mod:`bot.pictures.shapes`, :mod:`bot.pictures.cards`): the suits'
  pips, card faces for any rank, cards with their shadow, outlined, as chips in text, and
  in overlapping rows;
- layouts (:mod:`bot.pictures.layouts`): a trick for any number of seats up to eight, a
  hand, seat labels;
- output (:mod:`bot.pictures.output`): PNG in a 256-colour palette, file names, and
  :func:`render_off_loop`, which draws off the event loop: in one child process in the
  bot process (:func:`draw_in_a_process`), otherwise in one thread.

Pictures are drawn large (a card is 120 × 168 px; a four-seat trick is 816 px wide, a hand
of 13 about 910, none wider than 1600) and Discord scales them down, to about 400 px wide
on a phone, so they stay sharp on high-density screens. Each is a PNG mapped to a palette
chosen once (:func:`shared_palette`, or a game's own from :func:`make_palette`), a few KB
to about 80 KB. The same input always gives the same bytes. Drawing takes from a few to a
few tens of milliseconds (``bench/pictures.py``), more than a bot's event loop should be
blocked for, so callers await :func:`render_off_loop`, which runs the drawing in the
drawing process (a thread would hold the GIL while Pillow draws text, maps colours and
compresses, and every click waiting meanwhile would wait for it).

Its names are imported from their modules when first used (:func:`__getattr__`): the bot
process only hands drawings to its drawing process (:func:`render_off_loop`, with
:func:`drawings`) and so never imports Pillow, which takes 0.05 s of each start.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from bot.pictures.cards import (
        GLOW,
        INDEX_X,
        Grouping,
        by_suit_groups,
        card_chip,
        card_face,
        chip_width,
        draw_row,
        outline_card,
        place_card,
        place_slot,
        row_positions,
        row_width,
    )
    from bot.pictures.labels import SeatLabel
    from bot.pictures.layouts import (
        COLUMN,
        Caption,
        hand_canvas,
        hand_picture,
        seat_label,
        shared_palette,
        trick_canvas,
        trick_picture,
    )
    from bot.pictures.output import (
        Drawing,
        PictureKind,
        draw_in_a_process,
        drawings,
        make_palette,
        picture_filename,
        png,
        render_off_loop,
        stop_drawing,
    )
    from bot.pictures.shapes import paste_suit, rounded_mask, suit_mask
    from bot.pictures.style import (
        CARD_H,
        CARD_SIZE,
        CARD_W,
        EDGE,
        FELT,
        FELT_DARK,
        GOLD,
        GOLD_INK,
        INK,
        MARGIN,
        MAX_WIDTH,
        MUTED,
        PAPER,
        RADIUS,
        RED,
        RED_ON_FELT,
        TEXT,
        Colour,
        new_canvas,
    )
    from bot.pictures.text import (
        Anchor,
        displayable,
        draw_text,
        fit_text,
        font,
        font_file,
        has_glyph,
        shrink_to_fit,
        suit_colour,
        text_width,
        wrap_text,
    )

__all__ = [
    "CARD_H",
    "CARD_SIZE",
    "CARD_W",
    "COLUMN",
    "EDGE",
    "FELT",
    "FELT_DARK",
    "GLOW",
    "GOLD",
    "GOLD_INK",
    "INDEX_X",
    "INK",
    "MARGIN",
    "MAX_WIDTH",
    "MUTED",
    "PAPER",
    "RADIUS",
    "RED",
    "RED_ON_FELT",
    "TEXT",
    "Anchor",
    "Caption",
    "Colour",
    "Drawing",
    "Grouping",
    "PictureKind",
    "SeatLabel",
    "by_suit_groups",
    "card_chip",
    "card_face",
    "chip_width",
    "displayable",
    "draw_in_a_process",
    "draw_row",
    "draw_text",
    "drawings",
    "fit_text",
    "font",
    "font_file",
    "hand_canvas",
    "hand_picture",
    "has_glyph",
    "make_palette",
    "new_canvas",
    "outline_card",
    "paste_suit",
    "picture_filename",
    "place_card",
    "place_slot",
    "png",
    "render_off_loop",
    "rounded_mask",
    "row_positions",
    "row_width",
    "seat_label",
    "shared_palette",
    "shrink_to_fit",
    "stop_drawing",
    "suit_colour",
    "suit_mask",
    "text_width",
    "trick_canvas",
    "trick_picture",
    "wrap_text",
]

# Where each name lives: imported from there at its first use.
_HOME = {
    "cards": (
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
    ),
    "layouts": (
        "COLUMN",
        "Caption",
        "hand_canvas",
        "hand_picture",
        "seat_label",
        "shared_palette",
        "trick_canvas",
        "trick_picture",
    ),
    "labels": ("SeatLabel",),
    "output": (
        "Drawing",
        "PictureKind",
        "draw_in_a_process",
        "drawings",
        "make_palette",
        "picture_filename",
        "png",
        "render_off_loop",
        "stop_drawing",
    ),
    "shapes": ("paste_suit", "rounded_mask", "suit_mask"),
    "style": (
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
    ),
    "text": (
        "Anchor",
        "displayable",
        "draw_text",
        "fit_text",
        "font",
        "font_file",
        "has_glyph",
        "shrink_to_fit",
        "suit_colour",
        "text_width",
        "wrap_text",
    ),
}
_MODULE_OF = {name: module for module, names in _HOME.items() for name in names}


def __getattr__(name: str) -> Any:
    module = _MODULE_OF.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{module}"), name)
    globals()[name] = value  # the next use is a plain global
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
