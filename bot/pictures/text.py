"""Text in the pictures: the bundled font, and drawing, measuring, fitting and wrapping text.

Letters, digits and punctuation are drawn in DejaVu Sans Condensed (regular and bold),
bundled in ``bot/pictures/fonts/`` and read through :mod:`importlib.resources`: nothing
is downloaded or looked up on the host. It covers Latin with every accent (German ä ö ü ß
„ “, é ñ ø ł ő …), Greek and Cyrillic, so names are drawn as written. It is about as wide
as the font the pictures were first laid out with, so the layouts fit the same words.
Characters it lacks (emoji, CJK) are left out, and so are right-to-left scripts: the
layout is Pillow's basic one, the same on every host, which does not reorder or join
letters. The text message beside a picture always has the full name.

The suit symbols ♠ ♥ ♦ ♣ in text are drawn as the suits' pip shapes, in the suit's colour,
the same as on the cards.
"""

from __future__ import annotations

import contextlib
import struct
import threading
import unicodedata
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Literal

from PIL import Image, ImageDraw, ImageFont

from bot.pictures.shapes import paste_suit
from bot.pictures.style import INK, RED, RED_ON_FELT, TEXT, Colour
from engine.cards import Suit

__all__ = [
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
]

Anchor = Literal["left", "centre", "right"]

_FONT_FILES = {False: "DejaVuSansCondensed.ttf", True: "DejaVuSansCondensed-Bold.ttf"}
_SUITS: dict[str, Suit] = {suit.symbol: suit for suit in Suit}
_RED_SUITS = (Suit.HEARTS, Suit.DIAMONDS)
_ELLIPSIS = "…"

# Kept open for the process: a package installed as a zip gives its fonts as temporary
# files that last as long as this stack does.
_files = contextlib.ExitStack()
_per_thread = threading.local()


@lru_cache(maxsize=2)
def font_file(*, bold: bool = False) -> Path:
    """Return the path of the bundled font file (regular or bold)."""
    ref = resources.files("bot.pictures").joinpath("fonts", _FONT_FILES[bold])
    return _files.enter_context(resources.as_file(ref))


def font(size: int, *, bold: bool = False) -> ImageFont.FreeTypeFont:
    """Return the bundled font at ``size``, one object per thread: a FreeType face must not
    be used by two threads at once (Pillow issue #9497, free-threaded Python)."""
    fonts: dict[tuple[int, bool], ImageFont.FreeTypeFont] = _per_thread.__dict__.setdefault(
        "fonts", {}
    )
    face = fonts.get((size, bold))
    if face is None:
        face = fonts[size, bold] = ImageFont.truetype(
            str(font_file(bold=bold)), size, layout_engine=ImageFont.Layout.BASIC
        )
    return face


def _codepoints(data: bytes) -> frozenset[int]:
    """Return the characters a TrueType font maps to glyphs, from its Unicode ``cmap``
    subtable (format 12, which the bundled fonts have)."""
    (tables,) = struct.unpack_from(">H", data, 4)
    for i in range(tables):
        tag, _, cmap, _ = struct.unpack_from(">4sIII", data, 12 + 16 * i)
        if tag == b"cmap":
            break
    else:
        raise ValueError("the font has no cmap table")
    (count,) = struct.unpack_from(">H", data, cmap + 2)
    subtables: dict[tuple[int, int], int] = {}
    for i in range(count):
        platform, encoding, offset = struct.unpack_from(">HHI", data, cmap + 4 + 8 * i)
        subtables[platform, encoding] = cmap + offset
    chars: set[int] = set()
    at = subtables.get((3, 10))
    if at is None or struct.unpack_from(">H", data, at)[0] != 12:
        raise ValueError("the font has no Unicode cmap of format 12")
    (groups,) = struct.unpack_from(">I", data, at + 12)
    for g in range(groups):
        first, last, glyph = struct.unpack_from(">III", data, at + 16 + 12 * g)
        chars.update(range(first + (glyph == 0), last + 1))
    return frozenset(chars)


@lru_cache(maxsize=1)
def _font_chars() -> frozenset[int]:
    """Return the characters both bundled fonts have."""
    regular, bold = (_codepoints(font_file(bold=b).read_bytes()) for b in (False, True))
    return regular & bold


@lru_cache(maxsize=8192)
def has_glyph(char: str) -> bool:
    """Return whether ``char`` can be drawn: the bundled fonts have it (regular and bold),
    and it needs no right-to-left layout (Hebrew, Arabic, …)."""
    if unicodedata.category(char) in ("Cc", "Cf", "Cs", "Co", "Cn"):
        return False
    if unicodedata.bidirectional(char) in ("R", "AL", "AN"):
        return False
    return ord(char) in _font_chars()


def _drawable(text: str) -> str:
    """Return ``text`` (NFC) with the characters that cannot be drawn left out, and the
    accents that were on them."""
    kept: list[str] = []
    dropped = False
    for char in unicodedata.normalize("NFC", text):
        if char in _SUITS or char.isspace():
            kept.append(char)
            dropped = False
        elif unicodedata.category(char).startswith("M") and dropped:
            continue  # an accent on a character left out
        elif has_glyph(char):
            kept.append(char)
            dropped = False
        else:
            dropped = True
    return "".join(kept)


def displayable(text: str) -> str:
    """Return ``text`` as it will be drawn: the characters the font lacks left out, runs of
    spaces made one, no space at either end. For members' names."""
    return " ".join(_drawable(text).split())


@lru_cache(maxsize=4096)
def _tokens(text: str) -> tuple[str | Suit, ...]:
    """Split text into runs of drawable text and the suit symbols drawn as pips."""
    tokens: list[str | Suit] = []
    run = ""
    for char in _drawable(text):
        suit = _SUITS.get(char)
        if suit is None:
            run += " " if char.isspace() else char
            continue
        if run:
            tokens.append(run)
            run = ""
        tokens.append(suit)
    if run:
        tokens.append(run)
    return tuple(tokens)


def _pip_width(size: int) -> tuple[int, int]:
    """Return the size of a suit pip in text of this size, and its advance."""
    pip = round(size * 0.66)
    return pip, pip + 2 * round(size * 0.05)


@lru_cache(maxsize=4096)
def _run_width(run: str, size: int, bold: bool) -> float:
    return font(size, bold=bold).getlength(run)


def text_width(text: str, size: int, *, bold: bool = False) -> int:
    """Return the width of ``text`` as :func:`draw_text` draws it."""
    width = 0.0
    for token in _tokens(text):
        width += _run_width(token, size, bold) if isinstance(token, str) else _pip_width(size)[1]
    return round(width)


def suit_colour(suit: Suit, *, on_felt: bool = True) -> Colour:
    """Return the colour a suit's symbol is drawn in, on the felt or on a card."""
    if suit in _RED_SUITS:
        return RED_ON_FELT if on_felt else RED
    return TEXT if on_felt else INK


def draw_text(
    canvas: Image.Image,
    xy: tuple[int, int],
    text: str,
    size: int,
    fill: Colour,
    *,
    anchor: Anchor = "left",
    bold: bool = False,
    on_felt: bool = True,
) -> int:
    """Draw ``text`` with its baseline at ``xy[1]``, starting, centred or ending at
    ``xy[0]``; return the x where it ends.

    Suit symbols are drawn as pips in their suit's colour (lighter on the felt, darker on a
    card); characters the font lacks are left out.
    """
    x, baseline = xy
    if anchor != "left":
        width = text_width(text, size, bold=bold)
        x -= width if anchor == "right" else width // 2
    pen = float(x)
    for token in _tokens(text):
        if isinstance(token, str):
            mask, left, top = _run_mask(token, size, bold)
            x0, y0 = round(pen) + left, baseline + top
            canvas.paste(fill, (x0, y0, x0 + mask.width, y0 + mask.height), mask)
            pen += _run_width(token, size, bold)
            continue
        pip, advance = _pip_width(size)
        left = round(pen) + (advance - pip) // 2
        paste_suit(canvas, token, pip, (left, baseline - pip), suit_colour(token, on_felt=on_felt))
        pen += advance
    return round(pen)


@lru_cache(maxsize=4096)
def _run_mask(text: str, size: int, bold: bool) -> tuple[Image.Image, int, int]:
    """Return a run of plain text as a coverage mask, with the offset of its top left
    corner from the pen position on the baseline. Seat names, labels and card chips recur
    from picture to picture, so each is rasterised once."""
    face = font(size, bold=bold)
    left, top, right, bottom = (int(v) for v in face.getbbox(text, anchor="ls"))
    mask = Image.new("L", (max(1, right - left), max(1, bottom - top)), 0)
    ImageDraw.Draw(mask).text((-left, -top), text, font=face, fill=255, anchor="ls")
    return mask, left, top


_TRAILING = " ,;:·—–-(&"
"""What a shortened text does not end on before its ``…``: a separator, an opening."""


def fit_text(text: str, size: int, width: int, *, bold: bool = False) -> str:
    """Return ``text`` whole if it fits ``width``, else shortened with ``…`` after its last
    whole word that fits (``Anna Maria…``), or within a word when whole words would keep
    less than half of what fits (a single long word, a short first word). Where that would
    cut into a name before a closing qualifier in brackets, the qualifier goes instead,
    whole: ``Computer 4 (expert)`` → ``Computer 4``, not ``Computer…``, keeps what tells
    two names apart."""
    if text_width(text, size, bold=bold) <= width:
        return text
    short = _cut(text, size, width, bold)
    if text.endswith(")") and " (" in text:
        plain = text[: text.rindex(" (")].rstrip()
        kept = short.removesuffix(_ELLIPSIS)
        if len(kept) < len(plain) and text_width(plain, size, bold=bold) <= width:
            return plain
    return short


def _cut(text: str, size: int, width: int, bold: bool) -> str:
    cut = text
    while cut and text_width(cut.rstrip(_TRAILING) + _ELLIPSIS, size, bold=bold) > width:
        cut = cut[:-1]
    cut = cut.rstrip(_TRAILING)
    if text[len(cut) : len(cut) + 1] not in ("", " "):  # the cut falls within a word
        words = cut.rpartition(" ")[0].rstrip(_TRAILING)
        if len(words) * 2 >= len(cut):
            cut = words
    return cut + _ELLIPSIS


def shrink_to_fit(
    text: str, size: int, width: int, *, smallest: int = 20, bold: bool = False
) -> int:
    """Return the largest text size, at most ``size`` and at least ``smallest``, at which
    ``text`` fits ``width``."""
    while size > smallest and text_width(text, size, bold=bold) > width:
        size -= 1
    return size


def wrap_text(text: str, size: int, width: int, *, bold: bool = False) -> list[str]:
    """Return ``text`` broken at spaces into lines no wider than ``width`` (a word wider than
    that has a line of its own)."""
    lines: list[str] = []
    line = ""
    for word in text.split():
        candidate = f"{line} {word}" if line else word
        if line and text_width(candidate, size, bold=bold) > width:
            lines.append(line)
            line = word
        else:
            line = candidate
    if line:
        lines.append(line)
    return lines
