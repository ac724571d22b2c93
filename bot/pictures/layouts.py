"""Whole pictures every card game shows: a trick (one card per seat, up to eight seats) and a
hand; and the palette they share.

Each has a ``*_canvas`` function that returns the drawn image (for games that add to it or
choose a palette from it) and a ``*_picture`` function that returns the PNG bytes.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw

from bot.i18n import Lang, t
from bot.pictures.cards import (
    Grouping,
    by_suit_groups,
    card_chip,
    chip_width,
    draw_row,
    outline_card,
    place_card,
    place_slot,
    row_width,
)
from bot.pictures.labels import SeatLabel
from bot.pictures.output import make_palette, png
from bot.pictures.style import (
    CARD_H,
    CARD_W,
    FELT_DARK,
    GOLD,
    GOLD_INK,
    MARGIN,
    MAX_WIDTH,
    MUTED,
    TEXT,
    new_canvas,
)
from bot.pictures.text import (
    displayable,
    draw_text,
    fit_text,
    shrink_to_fit,
    text_width,
    wrap_text,
)
from engine.cards import DECK, Card, Suit

__all__ = [
    "COLUMN",
    "Caption",
    "SeatLabel",
    "hand_canvas",
    "hand_picture",
    "seat_label",
    "shared_palette",
    "trick_canvas",
    "trick_picture",
]

COLUMN = 196
"""The width of one seat's column in a trick picture."""
_MAX_SEATS = (MAX_WIDTH - 2 * MARGIN + 16) // COLUMN
_HAND_STEP = 58


def seat_label(
    name: str, member: str = "", *, mark: Suit | None = None, repeats: Collection[str] = ()
) -> SeatLabel:
    """Return the label of a seat called ``name`` (after the pip of ``mark`` when given)
    with ``member`` as the font can draw it below, left out when it is empty or only
    repeats the seat's name (``name`` or one of ``repeats``)."""
    shown = displayable(member)
    if shown in (name, *repeats):
        shown = ""
    return SeatLabel(f"{mark.symbol} {name}" if mark is not None else name, shown)


@dataclass(frozen=True, slots=True)
class Caption:
    """A line under a seat's label in a trick picture: muted words and (or) a card, drawn
    as a chip after them (``gets [10♠]``)."""

    text: str = ""
    card: Card | None = None


def trick_picture(
    cards_by_seat: Sequence[Card | None],
    names: Sequence[SeatLabel | str],
    *,
    highlight: int | None = None,
    badge: str = "",
    captions: Sequence[Caption | str | None] | None = None,
    note: str = "",
) -> bytes:
    """Return a PNG of a trick: each seat's card (``None``: an empty place) in a column of
    its own, in seat order, with the seat's label under it.

    ``highlight`` is the seat whose card is outlined in gold, its name in gold and (when
    ``badge`` is given) the badge's word over it (``TAKES``); ``captions`` give each seat a
    line under its label; ``note`` is wrapped under everything. The caller words all of it,
    in its reader's language.
    """
    return png(
        trick_canvas(
            cards_by_seat, names, highlight=highlight, badge=badge, captions=captions, note=note
        ),
        shared_palette(),
    )


def trick_canvas(
    cards_by_seat: Sequence[Card | None],
    names: Sequence[SeatLabel | str],
    *,
    highlight: int | None = None,
    badge: str = "",
    captions: Sequence[Caption | str | None] | None = None,
    note: str = "",
) -> Image.Image:
    """Return :func:`trick_picture`'s image."""
    seats = len(cards_by_seat)
    if not 1 <= seats <= _MAX_SEATS:
        raise ValueError(f"a trick picture shows 1 to {_MAX_SEATS} seats, not {seats}")
    if len(names) != seats:
        raise ValueError(f"{seats} seats need {seats} names, not {len(names)}")
    if captions is not None and len(captions) != seats:
        raise ValueError(f"{seats} seats need {seats} captions, not {len(captions)}")
    if highlight is not None and not 0 <= highlight < seats:
        raise ValueError(f"no seat {highlight} to highlight among {seats}")
    labels = [SeatLabel(name) if isinstance(name, str) else name for name in names]
    badge_h = 40
    width = seats * COLUMN + 2 * MARGIN - 16
    top = MARGIN + (badge_h if highlight is not None and badge else 0)
    label_y = top + CARD_H + 44  # baselines: seat, member, caption, note
    member_y = label_y + 36
    caption_y = member_y + 48
    bottom = (caption_y if captions is not None else member_y) + 12
    note_y = bottom + 40
    lines = wrap_text(note, 28, width - 2 * MARGIN) if note else []
    if lines:
        bottom = note_y + 10 + 36 * (len(lines) - 1)
    canvas = new_canvas(width, bottom + MARGIN)
    draw = ImageDraw.Draw(canvas)
    for seat, card in enumerate(cards_by_seat):
        centre = MARGIN + seat * COLUMN + (COLUMN - 16) // 2
        x = centre - CARD_W // 2
        if seat == highlight:
            outline_card(canvas, x, top, GOLD)
            if badge:
                half = (text_width(badge, 24, bold=True) + 28) // 2
                box = (centre - half, top - badge_h - 4, centre + half, top - 10)
                draw.rounded_rectangle(box, radius=12, fill=GOLD)
                draw_text(
                    canvas, (centre, top - 18), badge, 24, GOLD_INK, anchor="centre", bold=True
                )
        if card is None:
            place_slot(canvas, x, top)
        else:
            place_card(canvas, card, x, top)
        label = labels[seat]
        # A little smaller before any shorter: a name is cut only where there is no room.
        size = shrink_to_fit(label.name, 32, COLUMN - 8, smallest=28, bold=True)
        name = fit_text(label.name, size, COLUMN - 8, bold=True)
        colour = GOLD if seat == highlight else TEXT
        draw_text(canvas, (centre, label_y), name, size, colour, anchor="centre", bold=True)
        if label.member:
            size = shrink_to_fit(label.member, 26, COLUMN - 8, smallest=22)
            member = fit_text(label.member, size, COLUMN - 8)
            draw_text(canvas, (centre, member_y), member, size, MUTED, anchor="centre")
        caption = captions[seat] if captions is not None else None
        if caption is not None:
            _draw_caption(
                canvas, Caption(caption) if isinstance(caption, str) else caption, centre, caption_y
            )
    for i, line in enumerate(lines):
        draw_text(canvas, (width // 2, note_y + 36 * i), line, 28, TEXT, anchor="centre")
    return canvas


def _draw_caption(canvas: Image.Image, caption: Caption, centre: int, baseline: int) -> None:
    chip = chip_width(caption.card, 28) if caption.card is not None else 0
    words = fit_text(caption.text, 26, COLUMN - 8 - chip - 8) if caption.text else ""
    if caption.card is not None and words:
        words += " "
    left = centre - (text_width(words, 26) + chip) // 2
    end = draw_text(canvas, (left, baseline), words, 26, MUTED)
    if caption.card is not None:
        card_chip(canvas, caption.card, end, baseline, 28)


def hand_picture(
    cards: Sequence[Card],
    *,
    title: str = "",
    lang: Lang = "en",
    group: Grouping = by_suit_groups,
) -> bytes:
    """Return a PNG of a hand: the cards in the order given, overlapping left to right with
    a gap between groups (suits, unless ``group`` says otherwise), under ``title`` when
    there is one. An empty hand says so, in ``lang``."""
    return png(hand_canvas(cards, title=title, lang=lang, group=group), shared_palette())


def hand_canvas(
    cards: Sequence[Card],
    *,
    title: str = "",
    lang: Lang = "en",
    group: Grouping = by_suit_groups,
) -> Image.Image:
    """Return :func:`hand_picture`'s image."""
    title_h = 54 if title else 0
    inner = max(row_width(cards, _HAND_STEP, group=group), 240)
    if title:
        inner = max(inner, text_width(title, 30, bold=True))
    width = min(inner + 2 * MARGIN, MAX_WIDTH)
    height = title_h + CARD_H + 2 * MARGIN
    canvas = new_canvas(width, height)
    if title:
        shown = fit_text(title, 30, width - 2 * MARGIN, bold=True)
        draw_text(canvas, (MARGIN, MARGIN + 30), shown, 30, TEXT, bold=True)
    top = MARGIN + title_h
    if cards:
        draw_row(canvas, cards, MARGIN, top, width - 2 * MARGIN, _HAND_STEP, group=group)
    else:
        text = t(lang, "pictures.no_cards")
        size = shrink_to_fit(text, 30, width - 2 * MARGIN)
        centre = (width // 2, top + CARD_H // 2 + 10)
        draw_text(canvas, centre, text, size, TEXT, anchor="centre")
    return canvas


@lru_cache(maxsize=1)
def shared_palette() -> Image.Image:
    """Return the palette the kit's pictures are mapped to, chosen once from samples of
    them: tricks with and without a highlight, a hand, and a dark panel with words in every
    colour of text, as a scoring picture has."""
    one_of_each = [DECK[3 + 13 * s] for s in range(4)]  # the 5s
    taken = [DECK[10 + 13 * s] for s in range(4)]  # the queens
    names = [
        SeatLabel(f"{suit.symbol} Seat", member)
        for suit, member in zip(
            (Suit.SPADES, Suit.HEARTS, Suit.CLUBS, Suit.DIAMONDS),
            ("Alice", "Bob", "Carol", "Dave"),
            strict=True,
        )
    ]
    with_highlight = trick_canvas(
        one_of_each,
        names,
        highlight=1,
        badge="TAKES",
        captions=[Caption("gets", card) for card in taken],
    )
    without = trick_canvas(one_of_each, names, note="Nobody takes: everyone keeps their own.")
    panel = new_canvas(900, CARD_H + 2 * MARGIN + 140)
    ImageDraw.Draw(panel).rounded_rectangle(
        (MARGIN - 10, MARGIN - 10, panel.width - MARGIN + 10, panel.height - MARGIN + 10),
        radius=14,
        fill=FELT_DARK,
    )
    draw_text(panel, (MARGIN, MARGIN + 30), "♠ North Alice", 34, TEXT, bold=True)
    draw_text(panel, (500, MARGIN + 30), "credited to", 28, MUTED)
    draw_text(panel, (700, MARGIN + 30), "West", 34, GOLD, bold=True)
    draw_row(panel, DECK[::4], MARGIN, MARGIN + 52, panel.width - 2 * MARGIN, 55)
    breakdown = "5♦ × 5 (10–A) + 6 (4s) = 31 ♥ ♣ ♠"
    draw_text(panel, (MARGIN, panel.height - MARGIN - 20), breakdown, 34, TEXT, bold=True)
    return make_palette(with_highlight, without, panel, hand_canvas(DECK[::4]))
