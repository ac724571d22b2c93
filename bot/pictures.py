"""Card pictures as PNG bytes: a revealed trick, a deal's scoring, a member's own hand, and
the rules' worked scoring example.

Pure: no I/O; each function returns the bytes of one PNG. Its words come from the message
catalogue (``bot/locales/pictures.toml``, seat names from ``common.toml``) in the language
asked for, ``lang="en"`` or ``"de"``. Everything is drawn here: cards are rounded
rectangles, and the suit pips (♠ ♥ ♦ ♣) and the symbols of the scoring notation (×, –, →)
are vector shapes drawn four times over and scaled down, so they are smooth at any size and
need no font that has them. Each suit has its own shape, so colour (red ♥ ♦, black ♠ ♣) is
never the only signal. Letters and digits use Pillow's built-in scalable font (Aileron, via
``ImageFont.load_default(size=...)``, FreeType is part of Pillow's wheels): nothing is
downloaded or read from disk. That font covers ASCII (and “ ” … ·) only: the German letters
it lacks are composed, ä ö ü Ä Ö Ü as the plain letter with two drawn dots, „ as the
closing quote lowered to the baseline, and ß is written ss. A member's name keeps those,
has other accents stripped and other characters left out; the text message beside the
picture keeps the full name.

Pictures are drawn large (a card is 120 × 168 px; a trick is 816 px wide, a scoring 900,
a hand of 13 about 910, none wider than 1600) and Discord scales them down, to about
400 px wide on a phone, so they stay sharp on high-density screens. Each is a PNG in one
shared 256-colour palette (the rules example has its own), a few KB to about 80 KB. The
same input always gives the same bytes. Rendering takes from a few to a few tens of
milliseconds (``bench/pictures.py``), more than a bot's event loop should be blocked for,
so callers await :func:`render_off_loop`, which runs the renderer in a worker thread
(Pillow releases the GIL while it pastes, maps colours and compresses).
"""

from __future__ import annotations

import asyncio
import functools
import io
import threading
import unicodedata
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from enum import Enum
from functools import lru_cache
from typing import Literal, ParamSpec

from PIL import Image, ImageDraw, ImageFilter, ImageFont

from bot.i18n import Lang, score_text, seat_name, sequence_text, t
from engine.cards import DECK, Card, Rank, Suit, by_suit, parse_cards
from engine.dupe import SEAT_NAMES, SEAT_SUITS, DealResult, score_hand

__all__ = [
    "CARD_SIZE",
    "RULES_EXAMPLE",
    "PictureKind",
    "hand_picture",
    "picture_filename",
    "render_off_loop",
    "rules_example_caption",
    "rules_example_picture",
    "scoring_picture",
    "trick_picture",
]

CARD_W, CARD_H = 120, 168
CARD_SIZE = (CARD_W, CARD_H)
"""Width and height of one card in pixels."""

_SS = 4  # shapes are drawn this many times larger, then scaled down (anti-aliasing)
_RADIUS = 12
_MARGIN = 24
_MAX_WIDTH = 1600
# zlib level 3: a trick in 1.1 ms and 16.6 KB, a scoring in 5 ms and 79 KB; level 6 takes
# twice the time or more for 10–17 % fewer bytes, and the bot renders a picture every trick.
_COMPRESS_LEVEL = 3

Colour = tuple[int, int, int]
_FELT: Colour = (24, 92, 52)
_FELT_DARK: Colour = (17, 70, 39)
_PAPER: Colour = (255, 255, 255)
_EDGE: Colour = (150, 150, 150)
_INK: Colour = (25, 25, 28)
_RED: Colour = (200, 24, 40)
_TEXT: Colour = (244, 244, 240)
_MUTED: Colour = (186, 214, 194)
_GOLD: Colour = (255, 196, 40)
_GOLD_INK: Colour = (60, 42, 0)
_RED_ON_FELT: Colour = (255, 150, 140)  # red pips in text on the felt, readable on green

_RED_SUITS = (Suit.HEARTS, Suit.DIAMONDS)


class _Mark(Enum):
    """Notation symbols the built-in font lacks, drawn as shapes."""

    TIMES = "×"
    DASH = "–"
    ARROW = "→"


Symbol = Suit | _Mark
_TEXT_SYMBOLS: dict[str, Symbol] = {
    "♠": Suit.SPADES,
    "♥": Suit.HEARTS,
    "♦": Suit.DIAMONDS,
    "♣": Suit.CLUBS,
    "×": _Mark.TIMES,
    "–": _Mark.DASH,
    "—": _Mark.DASH,
    "→": _Mark.ARROW,
}
# Letters that do not decompose into an ASCII letter and an accent.
_LATIN = str.maketrans(
    {
        "ø": "o",
        "Ø": "O",
        "ß": "ss",
        "æ": "ae",
        "Æ": "AE",
        "œ": "oe",
        "Œ": "OE",
        "ł": "l",
        "Ł": "L",
        "đ": "d",
        "Đ": "D",
        "ð": "d",
        "Ð": "D",
        "þ": "th",
        "Þ": "Th",
        "ı": "i",
    }
)

# German letters the built-in font lacks, drawn as the letter it has (or, for „, the
# closing quote lowered to the baseline) plus what is missing: the umlaut's two dots, drawn
# as small discs. A ß is written "ss", as German does where a font has no ß.
_COMPOSED: dict[str, str] = {
    "ä": "a",
    "ö": "o",
    "ü": "u",
    "Ä": "A",
    "Ö": "O",
    "Ü": "U",
    "„": "\u201d",
}
_STAND_IN = str.maketrans(_COMPOSED)

PictureKind = Literal["trick", "scoring", "hand", "rules"]


def picture_filename(kind: PictureKind, deal: int | None = None) -> str:
    """Return the attachment's file name: ``trick.png``, ``hand.png``, ``scoring-deal-2.png``,
    ``rules-example.png``.

    Names never carry cards: Discord shows a file's name to everyone who sees the message.
    """
    if kind == "scoring":
        if deal is None or not 1 <= deal <= 99:
            raise ValueError(f"a scoring picture needs its deal number, not {deal!r}")
        return f"scoring-deal-{deal}.png"
    if kind in ("trick", "hand"):
        return f"{kind}.png"
    if kind == "rules":
        return "rules-example.png"
    raise ValueError(f"unknown picture kind {kind!r}")


_P = ParamSpec("_P")


# One thread draws every picture, in turn. More would not draw faster (the drawing holds
# the GIL part of the time, and a bot gets a core or two), but each thread that allocates
# image buffers gets its own malloc arena, and with a thread pool's worth of them the
# bot's resident memory tripled under load (bench/load.py: 290 MB against 85 MB without
# pictures at 100 tables).
_RENDERER = ThreadPoolExecutor(max_workers=1, thread_name_prefix="pictures")


async def render_off_loop(fn: Callable[_P, bytes], *args: _P.args, **kwargs: _P.kwargs) -> bytes:
    """Return ``fn(*args, **kwargs)`` computed in the picture thread, leaving the event loop
    free."""
    loop = asyncio.get_running_loop()
    return await loop.run_in_executor(_RENDERER, functools.partial(fn, *args, **kwargs))


# --------------------------------------------------------------------------------------
# Fonts and text


_per_thread = threading.local()


def _font(size: int) -> ImageFont.FreeTypeFont:
    """Return the built-in font at ``size``, one object per thread: a FreeType face must not
    be used by two threads at once (Pillow issue #9497, free-threaded Python)."""
    fonts: dict[int, ImageFont.FreeTypeFont] = _per_thread.__dict__.setdefault("fonts", {})
    font = fonts.get(size)
    if font is None:
        loaded = ImageFont.load_default(size=size)
        if not isinstance(loaded, ImageFont.FreeTypeFont):
            raise RuntimeError("Pillow was built without FreeType; card pictures need it")
        font = fonts[size] = loaded
    return font


@lru_cache(maxsize=1)
def _missing_glyph() -> bytes:
    return bytes(_font(32).getmask("\ue000"))


@lru_cache(maxsize=4096)
def _has_glyph(char: str) -> bool:
    if char.isascii():
        return char.isprintable()
    return bytes(_font(32).getmask(char)) != _missing_glyph()


def _displayable(name: str) -> str:
    """Return ``name`` in characters that can be drawn: German umlauts kept, other accents
    stripped, characters the built-in font lacks dropped."""
    kept = []
    for composed in unicodedata.normalize("NFC", name.translate(_LATIN)):
        if composed in _COMPOSED:
            kept.append(composed)
            continue
        kept.extend(
            char
            for char in unicodedata.normalize("NFKD", composed)
            if char.isspace() or _has_glyph(char)
        )
    return " ".join("".join(kept).split())


def _tokens(text: str) -> list[str | Symbol]:
    """Split text into runs of plain text and the symbols drawn as shapes."""
    tokens: list[str | Symbol] = []
    run = ""
    for char in text.replace("ß", "ss"):
        symbol = _TEXT_SYMBOLS.get(char)
        if symbol is None:
            run += char
            continue
        if run:
            tokens.append(run)
            run = ""
        tokens.append(symbol)
    if run:
        tokens.append(run)
    return tokens


def _symbol_width(symbol: Symbol, size: int) -> int:
    """Return the advance of a symbol in text of this size (its shape plus side bearings)."""
    if symbol is _Mark.ARROW:
        return round(size * 0.9)
    if symbol is _Mark.DASH:
        return round(size * 0.5)
    if symbol is _Mark.TIMES:
        return round(size * 0.7)
    return round(size * 0.66) + 2 * round(size * 0.05)


def _run_width(run: str, size: int) -> float:
    """Return the advance of a run of plain text (a composed letter advances as its base)."""
    return _font(size).getlength(run.translate(_STAND_IN))


def _text_width(text: str, size: int) -> int:
    """Return the width of ``text`` as :func:`_draw_text` draws it."""
    width = 0.0
    for token in _tokens(text):
        if isinstance(token, str):
            width += _run_width(token, size)
        else:
            width += _symbol_width(token, size)
    return round(width)


def _fit(text: str, size: int, width: int) -> str:
    """Return ``text``, shortened with ``...`` if it is wider than ``width``."""
    if _text_width(text, size) <= width:
        return text
    while text and _text_width(text + "...", size) > width:
        text = text[:-1]
    return text.rstrip() + "..."


def _draw_text(
    canvas: Image.Image,
    xy: tuple[int, int],
    text: str,
    size: int,
    fill: Colour,
    *,
    anchor: Literal["left", "centre", "right"] = "left",
    bold: bool = False,
    on_felt: bool = True,
) -> int:
    """Draw ``text`` with its baseline at ``xy[1]``; return the x where it ends.

    Suit symbols are drawn as pips in their suit's colour (lighter on the felt), the other
    notation symbols as shapes in ``fill``.
    """
    x, baseline = xy
    if anchor != "left":
        width = _text_width(text, size)
        x -= width if anchor == "right" else width // 2
    pen = float(x)
    stroke = max(1, size // 28) if bold else 0
    for token in _tokens(text):
        if isinstance(token, str):
            mask, left, top = _run_mask(token, size, stroke)
            x0, y0 = round(pen) + left, baseline + top
            canvas.paste(fill, (x0, y0, x0 + mask.width, y0 + mask.height), mask)
            pen += _run_width(token, size)
            continue
        width = _symbol_width(token, size)
        cap = round(size * 0.72)
        if isinstance(token, Suit):
            colour = _suit_colour(token, on_felt)
            pip = round(size * 0.66)
            left = round(pen) + round(size * 0.05)
            _paste_symbol(canvas, token, pip, (left, baseline - pip), colour)
        elif token is _Mark.TIMES:
            side = round(size * 0.44)
            left = round(pen + (width - side) / 2)
            _paste_symbol(canvas, token, side, (left, baseline - (cap + side) // 2), fill)
        else:
            _paste_symbol(canvas, token, width, (round(pen), baseline - cap), fill, height=cap)
        pen += width
    return round(pen)


@lru_cache(maxsize=4096)
def _run_mask(text: str, size: int, stroke: int) -> tuple[Image.Image, int, int]:
    """Return a run of plain text as a coverage mask, with the offset of its top left
    corner from the pen position on the baseline. Seat names, labels and card chips recur
    from picture to picture, so each is rasterised once."""
    if any(char in _COMPOSED for char in text):
        return _composed_mask(text, size, stroke)
    font = _font(size)
    left, top, right, bottom = (
        int(v) for v in font.getbbox(text, anchor="ls", stroke_width=stroke)
    )
    mask = Image.new("L", (max(1, right - left), max(1, bottom - top)), 0)
    ImageDraw.Draw(mask).text(
        (-left, -top),
        text,
        font=font,
        fill=255,
        anchor="ls",
        stroke_width=stroke,
        stroke_fill=255,
    )
    return mask, left, top


def _composed_mask(text: str, size: int, stroke: int) -> tuple[Image.Image, int, int]:
    """Return :func:`_run_mask` for text with letters the font lacks: the text is drawn
    with each such letter's stand-in, then the umlauts get their dots and „ is lowered."""
    font = _font(size)
    plain = text.translate(_STAND_IN)
    left, top, right, bottom = (
        int(v) for v in font.getbbox(plain, anchor="ls", stroke_width=stroke)
    )
    pad = size // 2
    ox, oy = pad - left, pad - top  # where the pen and the baseline are in the mask
    mask = Image.new("L", (right - left + 2 * pad, bottom - top + 2 * pad), 0)
    draw = ImageDraw.Draw(mask)
    dot, dot_gap = _umlaut_dot(size, stroke)
    lowered = _quote_drop(size, stroke)

    def write(start: int, end: int, dy: int = 0) -> None:
        if start < end:
            draw.text(
                (ox + font.getlength(plain[:start]), oy + dy),
                plain[start:end],
                font=font,
                fill=255,
                anchor="ls",
                stroke_width=stroke,
                stroke_fill=255,
            )

    start = 0
    for i, char in enumerate(text):
        if char == "„":
            write(start, i)
            write(i, i + 1, lowered)
            start = i + 1
        elif char in _COMPOSED:
            base = plain[i]
            gl, gt, gr, _ = font.getbbox(base, anchor="ls", stroke_width=stroke)
            centre = ox + font.getlength(plain[:i]) + (gl + gr) / 2
            y = round(oy + gt - dot_gap - dot.height)
            spread = size * 0.14 + stroke
            for cx in (centre - spread, centre + spread):
                x = round(cx - dot.width / 2)
                mask.paste(255, (x, y, x + dot.width, y + dot.height), dot)
    write(start, len(text))
    box = mask.getbbox() or (0, 0, 1, 1)
    return mask.crop(box), box[0] - ox, box[1] - oy


@lru_cache(maxsize=64)
def _umlaut_dot(size: int, stroke: int) -> tuple[Image.Image, int]:
    """Return one dot of an umlaut (a mask, about as wide as the font's stems) and its gap
    above the letter."""
    side = max(3, round(size * 0.12)) + 2 * stroke
    big = Image.new("L", (side * _SS, side * _SS), 0)
    ImageDraw.Draw(big).ellipse((0, 0, side * _SS - 1, side * _SS - 1), fill=255)
    return big.resize((side, side), Image.Resampling.LANCZOS), max(2, round(size * 0.07))


@lru_cache(maxsize=64)
def _quote_drop(size: int, stroke: int) -> int:
    """Return how far the closing quote moves down to become „ (its foot on the comma's)."""
    feet = []
    for char in (",", "\u201d"):
        ink = Image.new("L", (2 * size, 2 * size), 0)
        ImageDraw.Draw(ink).text(
            (size // 2, size), char, font=_font(size), fill=255, anchor="ls", stroke_width=stroke
        )
        feet.append((ink.getbbox() or (0, 0, 0, 0))[3])
    return feet[0] - feet[1]


def _suit_colour(suit: Suit, on_felt: bool) -> Colour:
    if suit in _RED_SUITS:
        return _RED_ON_FELT if on_felt else _RED
    return _TEXT if on_felt else _INK


# --------------------------------------------------------------------------------------
# Shapes


def _draw_shape(draw: ImageDraw.ImageDraw, symbol: Symbol, w: float, h: float) -> None:
    """Draw ``symbol`` filling a ``w`` × ``h`` box, in a mask (fill 255)."""

    def circle(cx: float, cy: float, r: float) -> None:
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=255)

    def poly(*points: tuple[float, float]) -> None:
        draw.polygon([(px * w / 100, py * h / 100) for px, py in points], fill=255)

    def dot(cx: float, cy: float, r: float) -> None:  # r in % of width
        circle(cx * w / 100, cy * h / 100, r * w / 100)

    if symbol is Suit.DIAMONDS:
        poly((50, 0), (90, 50), (50, 100), (10, 50))
    elif symbol is Suit.HEARTS:
        dot(27, 30, 26)
        dot(73, 30, 26)
        poly((2.5, 38), (50, 26), (97.5, 38), (50, 100))
    elif symbol is Suit.SPADES:
        dot(27, 60, 24.5)
        dot(73, 60, 24.5)
        poly((3, 54), (50, 0), (97, 54), (50, 72))
        poly((50, 62), (64, 100), (36, 100))
    elif symbol is Suit.CLUBS:
        dot(50, 26, 24)
        dot(25, 60, 24)
        dot(75, 60, 24)
        poly((50, 40), (63, 60), (50, 66), (37, 60))
        poly((50, 55), (66, 100), (34, 100))
    elif symbol is _Mark.TIMES:
        t = 14.0  # stroke, % of the box
        poly(
            (t, 0),
            (50, 50 - t),
            (100 - t, 0),
            (100, t),
            (50 + t, 50),
            (100, 100 - t),
            (100 - t, 100),
            (50, 50 + t),
            (t, 100),
            (0, 100 - t),
            (50 - t, 50),
            (0, t),
        )
    elif symbol is _Mark.DASH:
        poly((6, 58), (94, 58), (94, 66), (6, 66))
    elif symbol is _Mark.ARROW:
        poly((4, 58), (70, 58), (70, 44), (98, 62), (70, 80), (70, 66), (4, 66))


@lru_cache(maxsize=256)
def _symbol_mask(symbol: Symbol, width: int, height: int) -> Image.Image:
    """Return an anti-aliased mask of ``symbol`` in a ``width`` × ``height`` box."""
    big = Image.new("L", (width * _SS, height * _SS), 0)
    _draw_shape(ImageDraw.Draw(big), symbol, width * _SS, height * _SS)
    return big.resize((width, height), Image.Resampling.LANCZOS)


def _paste_symbol(
    canvas: Image.Image,
    symbol: Symbol,
    width: int,
    xy: tuple[int, int],
    colour: Colour,
    *,
    height: int | None = None,
) -> None:
    """Paint ``symbol`` in ``colour`` into the box of ``width`` (× ``height``, default
    square) whose top left corner is ``xy``."""
    if height is None:
        height = width
    mask = _symbol_mask(symbol, width, height)
    canvas.paste(colour, (*xy, xy[0] + width, xy[1] + height), mask)


@lru_cache(maxsize=512)
def _rounded_mask(width: int, height: int, radius: int, inset: int = 0) -> Image.Image:
    big = Image.new("L", (width * _SS, height * _SS), 0)
    ImageDraw.Draw(big).rounded_rectangle(
        (inset * _SS, inset * _SS, (width - inset) * _SS - 1, (height - inset) * _SS - 1),
        radius=(radius - inset) * _SS,
        fill=255,
    )
    return big.resize((width, height), Image.Resampling.LANCZOS)


# --------------------------------------------------------------------------------------
# Cards


@lru_cache(maxsize=1)
def _blank_card() -> Image.Image:
    card = Image.new("RGBA", CARD_SIZE, (*_EDGE, 0))
    card.paste((*_EDGE, 255), (0, 0, *CARD_SIZE), _rounded_mask(CARD_W, CARD_H, _RADIUS))
    card.paste((*_PAPER, 255), (0, 0, *CARD_SIZE), _rounded_mask(CARD_W, CARD_H, _RADIUS, 2))
    return card


@lru_cache(maxsize=1)
def _card_shadow() -> Image.Image:
    pad = 8
    shadow = Image.new("RGBA", (CARD_W + 2 * pad, CARD_H + 2 * pad), (0, 0, 0, 0))
    mask = Image.new("L", shadow.size, 0)
    mask.paste(_rounded_mask(CARD_W, CARD_H, _RADIUS), (pad, pad))
    mask = mask.filter(ImageFilter.GaussianBlur(3)).point(lambda v: v * 90 // 255)
    shadow.putalpha(mask)
    return shadow


_INDEX_X = 24  # centre of the corner index (rank over pip)
_RANK_SIZE = 38
_INDEX_PIP = 26


def _draw_rank(canvas: Image.Image, centre_x: int, top: int, rank: str, colour: Colour) -> None:
    """Draw a rank centred on ``centre_x`` with its cap height starting at ``top``."""
    draw = ImageDraw.Draw(canvas)
    font = _font(_RANK_SIZE)
    tracking = -3 if len(rank) > 1 else 0  # keeps "10" as narrow as the index column
    widths = [font.getlength(char) for char in rank]
    total = sum(widths) + tracking * (len(rank) - 1)
    x = centre_x - total / 2
    ascent = font.getbbox("A", anchor="ls")[1]
    for char, width in zip(rank, widths, strict=True):
        draw.text(
            (x, top - ascent),
            char,
            font=font,
            fill=colour,
            anchor="ls",
            stroke_width=1,
            stroke_fill=colour,
        )
        x += width + tracking


@lru_cache(maxsize=64)
def _card_face(card: Card) -> Image.Image:
    """Return the card's face: corner indices (rank over pip) and a large centre pip."""
    face = _blank_card().copy()
    colour = _RED if card.suit in _RED_SUITS else _INK
    index = Image.new("RGBA", (48, 72), (0, 0, 0, 0))
    _draw_rank(index, 24, 10, card.rank.symbol, colour)
    _paste_symbol(index, card.suit, _INDEX_PIP, (24 - _INDEX_PIP // 2, 42), colour)
    face.alpha_composite(index, (_INDEX_X - 24, 0))
    face.alpha_composite(index.rotate(180), (CARD_W - _INDEX_X - 24, CARD_H - 72))
    pip = 54
    _paste_symbol(face, card.suit, pip, ((CARD_W - pip) // 2 + 6, (CARD_H - pip) // 2), colour)
    return face


@lru_cache(maxsize=64)
def _card_sprite(card: Card) -> Image.Image:
    """Return the card's face on its shadow; its top left corner goes 6 px left of the
    card's and 4 px above it."""
    sprite = _card_shadow().copy()
    sprite.alpha_composite(_card_face(card), (6, 4))
    return sprite


def _place_card(canvas: Image.Image, card: Card, x: int, y: int) -> None:
    sprite = _card_sprite(card)
    canvas.paste(sprite, (x - 6, y - 4), sprite)


def _chip(canvas: Image.Image, card: Card, x: int, baseline: int, size: int) -> int:
    """Draw a small white label with the card's rank and pip; return the x where it ends."""
    label = f"{card.rank.symbol}{card.suit.symbol}"
    width = _text_width(label, size) + size // 2
    height = round(size * 1.1)
    top = baseline - round(size * 0.9)
    canvas.paste(_PAPER, (x, top, x + width, top + height), _rounded_mask(width, height, 6))
    colour = _RED if card.suit in _RED_SUITS else _INK
    _draw_text(canvas, (x + size // 4, baseline), label, size, colour, bold=True, on_felt=False)
    return x + width


def _hand_row(
    canvas: Image.Image, cards: Sequence[Card], x: int, y: int, width: int, step: int
) -> None:
    """Draw ``cards`` (already in order) overlapping left to right, a gap between suits."""
    for card, left in zip(cards, _row_positions(cards, x, width, step), strict=True):
        _place_card(canvas, card, left, y)


def _row_positions(cards: Sequence[Card], x: int, width: int, step: int) -> list[int]:
    """Return the left edge of each card of a row drawn by :func:`_hand_row`."""
    gap = 14
    groups = sum(1 for i in range(1, len(cards)) if cards[i].suit != cards[i - 1].suit)
    if len(cards) > 1:
        room = (width - CARD_W - groups * gap) // (len(cards) - 1)
        step = max(12, min(step, room))
    positions = []
    for i, card in enumerate(cards):
        if i and card.suit != cards[i - 1].suit:
            x += gap
        positions.append(x)
        x += step
    return positions


def _hand_width(cards: Sequence[Card], step: int) -> int:
    if not cards:
        return CARD_W
    groups = sum(1 for i in range(1, len(cards)) if cards[i].suit != cards[i - 1].suit)
    return CARD_W + (len(cards) - 1) * step + groups * 14


def _png(canvas: Image.Image, palette: Image.Image | None = None) -> bytes:
    """Return the picture as a PNG in the shared 256-colour palette (or in ``palette``)."""
    flat = canvas.quantize(palette=palette or _palette(), dither=Image.Dither.NONE)
    out = io.BytesIO()
    flat.save(out, format="PNG", compress_level=_COMPRESS_LEVEL)
    return out.getvalue()


@lru_cache(maxsize=1)
def _palette() -> Image.Image:
    """Return the palette every picture is mapped to, chosen once from sample pictures.

    Every picture is drawn from the same few colours and their anti-aliased blends, so one
    palette serves them all; mapping to it costs a few milliseconds where choosing a
    palette per picture costs a hundred.
    """
    hands = tuple(tuple(DECK[seat::4]) for seat in range(4))
    sample = DealResult(
        deal=1,
        identities=(Suit.HEARTS, Suit.SPADES, Suit.DIAMONDS, Suit.CLUBS),
        won=hands,
        scores=tuple(score_hand(hand) for hand in hands),
        credited=(10, 20, 30, 40),
        totals=(10, 20, 30, 40),
    )
    names = ("Alice", "Bob", "Carol", "Dave")
    parts = [
        _trick_canvas(DECK[3:52:13], names, 1, DECK[10:52:13]),
        _trick_canvas(DECK[3:52:13], names, None, None),
        _scoring_canvas(sample, names),
        _hand_canvas(DECK[::4]),
    ]
    sheet = Image.new("RGB", (max(p.width for p in parts), sum(p.height for p in parts)))
    y = 0
    for part in parts:
        sheet.paste(part, (0, y))
        y += part.height
    return sheet.quantize(colors=256, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)


def _canvas(width: int, height: int) -> Image.Image:
    return Image.new("RGB", (width, height), _FELT)


# --------------------------------------------------------------------------------------
# Pictures


def _seat_label(lang: Lang, seat: int, seat_names: Sequence[str]) -> tuple[str, str]:
    """Return the two lines naming a seat: its suit and seat name, then the member's name."""
    name = _displayable(seat_names[seat]) if seat < len(seat_names) else ""
    own = seat_name(lang, seat)
    if name in (SEAT_NAMES[seat], own):
        name = ""
    return f"{SEAT_SUITS[seat].symbol} {own}", name


def _shrink(text: str, size: int, width: int, smallest: int = 20) -> int:
    """Return the largest text size, at most ``size``, at which ``text`` fits ``width``."""
    while size > smallest and _text_width(text, size) > width:
        size -= 1
    return size


def _wrap(text: str, size: int, width: int) -> list[str]:
    """Return ``text`` broken at spaces into lines no wider than ``width`` (a word wider than
    that has a line of its own)."""
    lines: list[str] = []
    line = ""
    for word in text.split():
        candidate = f"{line} {word}" if line else word
        if line and _text_width(candidate, size) > width:
            lines.append(line)
            line = word
        else:
            line = candidate
    if line:
        lines.append(line)
    return lines


def trick_picture(
    cards: Sequence[Card],
    seat_names: Sequence[str] = SEAT_NAMES,
    taker: int | None = None,
    received: Sequence[Card] | None = None,
    *,
    lang: Lang = "en",
) -> bytes:
    """Return a PNG of a revealed trick: the four cards in seat order, each seat's name
    under its card, the taker's card outlined and labelled "TAKES" (or a line saying nobody
    takes it), and (when given) the card each seat received; its words in ``lang``.

    ``seat_names[seat]`` is the member (or computer player) in that seat; it is shown under
    the seat's own name, North, East, South or West.
    """
    return _png(_trick_canvas(cards, seat_names, taker, received, lang))


def _trick_canvas(
    cards: Sequence[Card],
    seat_names: Sequence[str],
    taker: int | None,
    received: Sequence[Card] | None,
    lang: Lang = "en",
) -> Image.Image:
    if len(cards) != 4:
        raise ValueError(f"a trick has four cards, not {len(cards)}")
    if received is not None and len(received) != 4:
        raise ValueError(f"a trick gives four cards, not {len(received)}")
    col = 196
    badge_h = 40
    width = 4 * col + 2 * _MARGIN - 16
    top = _MARGIN + (badge_h if taker is not None else 0)
    label_y = top + CARD_H + 44  # baselines: seat, member, received card, no-taker note
    member_y = label_y + 36
    gets_y = member_y + 48
    bottom = (gets_y if received is not None else member_y) + 12
    note_y = bottom + 40
    note: list[str] = []
    if taker is None:
        # One line in English; German may need two.
        note = _wrap(t(lang, "pictures.nobody_takes"), 28, width - 2 * _MARGIN)
        bottom = note_y + 10 + 36 * (len(note) - 1)
    height = bottom + _MARGIN
    canvas = _canvas(width, height)
    draw = ImageDraw.Draw(canvas)
    takes = t(lang, "pictures.takes")
    gets_word = t(lang, "pictures.gets") + " "
    for seat, card in enumerate(cards):
        centre = _MARGIN + seat * col + (col - 16) // 2
        x = centre - CARD_W // 2
        if seat == taker:
            glow = 6
            ring = _rounded_mask(CARD_W + 2 * glow, CARD_H + 2 * glow, _RADIUS + glow)
            canvas.paste(
                _GOLD, (x - glow, top - glow, x + CARD_W + glow, top + CARD_H + glow), ring
            )
            bw = _text_width(takes, 24) + 28
            draw.rounded_rectangle(
                (centre - bw // 2, top - badge_h - 4, centre + bw // 2, top - 10),
                radius=12,
                fill=_GOLD,
            )
            _draw_text(canvas, (centre, top - 18), takes, 24, _GOLD_INK, anchor="centre", bold=True)
        _place_card(canvas, card, x, top)
        seat_line, member = _seat_label(lang, seat, seat_names)
        colour = _GOLD if seat == taker else _TEXT
        _draw_text(
            canvas,
            (centre, label_y),
            _fit(seat_line, 32, col - 8),
            32,
            colour,
            anchor="centre",
            bold=True,
        )
        if member:
            _draw_text(
                canvas,
                (centre, member_y),
                _fit(member, 26, col - 8),
                26,
                _MUTED,
                anchor="centre",
            )
        if received is not None:
            gets = _text_width(gets_word, 26)
            chip_w = _text_width(str(received[seat]), 28) + 14
            left = centre - (gets + chip_w) // 2
            end = _draw_text(canvas, (left, gets_y), gets_word, 26, _MUTED)
            _chip(canvas, received[seat], end, gets_y, 28)
    for i, line in enumerate(note):
        _draw_text(canvas, (width // 2, note_y + 36 * i), line, 28, _TEXT, anchor="centre")
    return canvas


def scoring_picture(
    result: DealResult, seat_names: Sequence[str] = SEAT_NAMES, *, lang: Lang = "en"
) -> bytes:
    """Return a PNG of a deal's scoring: for each seat its won hand grouped by suit (♠ ♥ ♣
    ♦, the order ties for the longest suit are broken in), the breakdown in the rules'
    notation (:func:`bot.i18n.score_text`) and whom the hand is credited to; then the totals.
    Its words are in ``lang``."""
    return _png(_scoring_canvas(result, seat_names, lang))


def _scoring_canvas(
    result: DealResult, seat_names: Sequence[str], lang: Lang = "en"
) -> Image.Image:
    width = 900
    inner = width - 2 * _MARGIN
    head_h, row_h, foot_h, sep = 52, CARD_H + 14, 50, 18
    section = head_h + row_h + foot_h + sep
    title_h = 56
    height = _MARGIN + title_h + 4 * section + 100 + _MARGIN
    canvas = _canvas(width, height)
    draw = ImageDraw.Draw(canvas)
    title = t(lang, "pictures.deal_scored", deal=result.deal)
    _draw_text(canvas, (_MARGIN, _MARGIN + 36), title, 38, _TEXT, bold=True)
    credited_to = t(lang, "pictures.credited_to")
    y = _MARGIN + title_h
    for owner in range(4):
        holder = next(s for s in range(4) if result.dupe(s) == owner)
        holder_name = seat_name(lang, holder)
        draw.rounded_rectangle(
            (_MARGIN - 10, y, width - _MARGIN + 10, y + section - sep), radius=14, fill=_FELT_DARK
        )
        seat_line, member = _seat_label(lang, owner, seat_names)
        head = y + 40
        end = _draw_text(canvas, (_MARGIN + 6, head), seat_line, 34, _TEXT, bold=True)
        _draw_text(
            canvas,
            (width - _MARGIN - 6, head),
            holder_name,
            34,
            _GOLD,
            anchor="right",
            bold=True,
        )
        credit_x = width - _MARGIN - 6 - _text_width(holder_name, 34) - 10
        _draw_text(canvas, (credit_x, head), credited_to, 28, _MUTED, anchor="right")
        if member:
            room = credit_x - _text_width(credited_to, 28) - end - 40
            _draw_text(canvas, (end + 14, head), _fit(member, 28, room), 28, _MUTED)
        won = sorted(result.won[owner], key=by_suit)
        if won:
            _hand_row(canvas, won, _MARGIN + 6, y + head_h + 4, inner - 12, 55)
        else:
            _draw_text(
                canvas,
                (_MARGIN + 6, y + head_h + row_h // 2),
                t(lang, "pictures.no_cards_won"),
                28,
                _MUTED,
            )
        base = y + head_h + row_h + 36
        breakdown = score_text(result.scores[owner], lang)
        size = _shrink(breakdown, 34, inner - 12)
        _draw_text(canvas, (_MARGIN + 6, base), breakdown, size, _TEXT, bold=size >= 30)
        y += section
    col = inner // 4
    for seat in range(4):
        x = _MARGIN + seat * col
        label = f"{SEAT_SUITS[seat].symbol} {seat_name(lang, seat)}"
        _draw_text(canvas, (x, y + 30), label, 28, _MUTED)
        end = _draw_text(canvas, (x, y + 76), str(result.totals[seat]), 40, _TEXT, bold=True)
        _draw_text(canvas, (end + 10, y + 76), f"(+{result.credited[seat]})", 28, _MUTED)
    return canvas


def hand_picture(cards: Sequence[Card], *, lang: Lang = "en") -> bytes:
    """Return a PNG of a hand, sorted as the hand message sorts it (♠ ♥ ♣ ♦, high first),
    the cards overlapping left to right with a gap between suits (an empty hand says so,
    in ``lang``)."""
    return _png(_hand_canvas(cards, lang))


def _hand_canvas(cards: Sequence[Card], lang: Lang = "en") -> Image.Image:
    hand = sorted(cards, key=by_suit)
    step = 58
    width = min(max(_hand_width(hand, step), 240) + 2 * _MARGIN, _MAX_WIDTH)
    height = CARD_H + 2 * _MARGIN
    canvas = _canvas(width, height)
    if hand:
        _hand_row(canvas, hand, _MARGIN, _MARGIN, width - 2 * _MARGIN, step)
    else:
        text = t(lang, "pictures.no_cards")
        size = _shrink(text, 30, width - 2 * _MARGIN)
        _draw_text(canvas, (width // 2, height // 2 + 10), text, size, _TEXT, anchor="centre")
    return canvas


# --------------------------------------------------------------------------------------
# The rules' worked example

RULES_EXAMPLE: tuple[Card, ...] = tuple(parse_cards("JS 10S 4S QH 10H 5H AC 4C AD KD 10D 8D 4D"))
"""The won hand of the third worked example in the rules ("Scoring a won hand"):
♠J 10 4 ♥Q 10 5 ♣A 4 ♦A K 10 8 4, which scores 5♦ × 5 (10–A) + 6 (4s) = 31."""

_SKY: Colour = (120, 200, 255)  # the set's mark, beside the sequence's gold


class _Example:
    """What the rules example shows, worked out by the engine's scoring."""

    def __init__(self, cards: Sequence[Card]) -> None:
        self.cards = sorted(cards, key=by_suit)
        self.score = score = score_hand(self.cards)
        # The sequence uses one card of each of its ranks; the one drawn as used is in the
        # longest suit when there is one there (the score does not depend on which).
        self.in_sequence: list[Card] = []
        for rank in score.sequence:
            holding = [card for card in self.cards if card.rank == rank]
            preferred = [card for card in holding if card.suit == score.longest_suit]
            self.in_sequence.append((preferred or holding)[0])
        scoring_ranks = {rank for rank, _ in score.sets}
        self.in_sets = [
            card
            for card in self.cards
            if card.rank in scoring_ranks and card not in self.in_sequence
        ]
        self.idle: list[Rank] = sorted(
            {
                card.rank
                for card in self.cards
                if card.rank not in scoring_ranks
                and sum(other.rank == card.rank for other in self.cards) >= 3
            },
            reverse=True,
        )

    def hand_text(self) -> str:
        """Return the hand as the rules write it: ``♠J 10 4 ♥Q 10 5 …``."""
        groups: list[str] = []
        for suit in dict.fromkeys(card.suit for card in self.cards):
            ranks = " ".join(card.rank.symbol for card in self.cards if card.suit == suit)
            groups.append(f"{suit.symbol}{ranks}")
        return " ".join(groups)

    def parts(self, lang: Lang) -> list[tuple[str, Colour, list[str]]]:
        """Return L, S and B: each its heading (``L = 5``), colour and sentences."""
        score = self.score
        sequence = sequence_text(score, lang)
        if score.sets:
            sets = ", ".join(
                t(lang, f"pictures.rules_set_{count}", rank=rank.symbol)
                for rank, count in score.sets
            )
        else:
            sets = t(lang, "pictures.rules_no_sets")
        bonus = [t(lang, "pictures.rules_b", sets=sets)]
        bonus += [t(lang, "pictures.rules_idle", rank=rank.symbol) for rank in self.idle]
        return [
            (
                f"L = {score.suit_length}",
                _TEXT,
                [t(lang, "pictures.rules_l", suit=score.longest_suit.symbol)],
            ),
            (
                f"S = {score.sequence_length}",
                _GOLD,
                [t(lang, "pictures.rules_s", sequence=sequence)],
            ),
            (f"B = {score.bonus}", _SKY, bonus),
        ]


def rules_example_caption(lang: Lang = "en") -> str:
    """Return the rules example as text, for beside (or instead of) its picture: the hand,
    what L, S and B are in it, and its score in the rules' notation."""
    example = _Example(RULES_EXAMPLE)
    lines = [t(lang, "pictures.rules_caption", hand=example.hand_text())]
    for head, _, sentences in example.parts(lang):
        lines.append(f"{head}: {' '.join(sentences)}")
    lines.append(t(lang, "pictures.rules_score", breakdown=score_text(example.score, lang)))
    return "\n".join(lines)


def rules_example_picture(lang: Lang = "en") -> bytes:
    """Return a PNG of the rules' third worked example: the won hand grouped by suit as a
    scoring picture draws it, the longest suit (L) bracketed, the cards of the sequence (S)
    outlined in gold and those of the set that earns the bonus (B) in blue, each also
    tagged with its letter; then what L, S and B are, in ``lang``, and the breakdown.

    The picture never changes, so each language's is drawn once."""
    return _rules_png(lang)


@lru_cache(maxsize=2)
def _rules_png(lang: Lang) -> bytes:
    return _png(_rules_canvas(lang), _rules_palette())


@lru_cache(maxsize=1)
def _rules_palette() -> Image.Image:
    """Return the rules example's own palette (it has a colour the others lack; adding it
    to the shared palette would change every other picture's pixels)."""
    en, de = _rules_canvas("en"), _rules_canvas("de")
    sheet = Image.new("RGB", (max(en.width, de.width), en.height + de.height))
    sheet.paste(en, (0, 0))
    sheet.paste(de, (0, en.height))
    return sheet.quantize(colors=256, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)


def _rules_canvas(lang: Lang) -> Image.Image:
    example = _Example(RULES_EXAMPLE)
    score = example.score
    width = 900
    inner = width - 2 * _MARGIN
    head_w, body_size, line_h = 120, 28, 36
    parts = [
        (head, colour, [_wrap(text, body_size, inner - head_w) for text in sentences])
        for head, colour, sentences in example.parts(lang)
    ]
    title_y = _MARGIN + 36
    formula_y = title_y + 46
    bracket_y = formula_y + 58  # the L label's baseline; the bracket is under it
    cards_y = bracket_y + 26
    tags_y = cards_y + CARD_H + 44
    text_y = tags_y + 58
    captions_h = sum(
        sum(len(lines) for lines in paragraphs) * line_h + 14 for _, _, paragraphs in parts
    )
    box_y = text_y + captions_h
    height = box_y + 64 + _MARGIN
    canvas = _canvas(width, height)
    draw = ImageDraw.Draw(canvas)

    title = t(lang, "pictures.rules_title")
    _draw_text(canvas, (_MARGIN, title_y), title, _shrink(title, 38, inner), _TEXT, bold=True)
    _draw_text(canvas, (_MARGIN, formula_y), t(lang, "pictures.rules_formula"), 30, _MUTED)

    lefts = _row_positions(example.cards, _MARGIN + 6, inner - 12, 58)
    longest = [i for i, card in enumerate(example.cards) if card.suit == score.longest_suit]
    if longest:
        x0, x1 = lefts[longest[0]], lefts[longest[-1]] + CARD_W
        line_y = bracket_y + 10
        draw.rectangle((x0, line_y, x1, line_y + 2), fill=_TEXT)
        draw.rectangle((x0, line_y, x0 + 2, line_y + 12), fill=_TEXT)
        draw.rectangle((x1 - 2, line_y, x1, line_y + 12), fill=_TEXT)
        label = f"L = {score.suit_length}{score.longest_suit.symbol}"
        _draw_text(
            canvas, ((x0 + x1) // 2, bracket_y), label, 28, _TEXT, anchor="centre", bold=True
        )

    glow = 6
    ring = _rounded_mask(CARD_W + 2 * glow, CARD_H + 2 * glow, _RADIUS + glow)
    marks: dict[Card, tuple[str, Colour]] = {card: ("B", _SKY) for card in example.in_sets}
    marks.update({card: ("S", _GOLD) for card in example.in_sequence})
    for card, x in zip(example.cards, lefts, strict=True):
        mark = marks.get(card)
        if mark is not None:
            box = (x - glow, cards_y - glow, x + CARD_W + glow, cards_y + CARD_H + glow)
            canvas.paste(mark[1], box, ring)
        _place_card(canvas, card, x, cards_y)
    for card, x in zip(example.cards, lefts, strict=True):
        mark = marks.get(card)
        if mark is not None:
            letter, colour = mark
            centre = x + _INDEX_X
            draw.rounded_rectangle(
                (centre - 17, tags_y - 30, centre + 17, tags_y + 6), radius=8, fill=colour
            )
            _draw_text(canvas, (centre, tags_y), letter, 26, _GOLD_INK, anchor="centre", bold=True)

    y = text_y
    for head, colour, paragraphs in parts:
        _draw_text(canvas, (_MARGIN + 6, y), head, 30, colour, bold=True)
        for n, lines in enumerate(paragraphs):
            for line in lines:
                shade = _TEXT if n == 0 else _MUTED
                _draw_text(canvas, (_MARGIN + head_w, y), line, body_size, shade)
                y += line_h
        y += 14

    draw.rounded_rectangle(
        (_MARGIN - 10, box_y - 8, width - _MARGIN + 10, box_y + 56), radius=14, fill=_FELT_DARK
    )
    breakdown = score_text(score, lang)
    size = _shrink(breakdown, 34, inner - 12)
    _draw_text(canvas, (_MARGIN + 6, box_y + 36), breakdown, size, _TEXT, bold=True)
    return canvas
