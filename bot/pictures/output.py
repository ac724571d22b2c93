"""A picture's way out: PNG bytes in a palette, its file name, and the one thread that
draws them all."""

from __future__ import annotations

import asyncio
import functools
import io
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Literal, ParamSpec

from PIL import Image

__all__ = ["PictureKind", "make_palette", "picture_filename", "png", "render_off_loop"]

# zlib level 3: compressing takes a small share of a picture's time (bench/pictures.py gives
# times and sizes); level 6 takes twice as long or more for 10–17 % fewer bytes, and the bot
# renders a picture every trick.
_COMPRESS_LEVEL = 3

PictureKind = Literal["trick", "scoring", "game", "hand", "rules"]


def picture_filename(kind: PictureKind, deal: int | None = None) -> str:
    """Return the attachment's file name: ``trick.png``, ``hand.png``, ``scoring-deal-2.png``,
    ``scoring-game-2.png`` (a game of several deals' table, Doppelkopf's), ``rules-example.png``.

    Names never carry cards: Discord shows a file's name to everyone who sees the message.
    """
    if kind == "scoring":
        if deal is None or not 1 <= deal <= 99:
            raise ValueError(f"a scoring picture needs its deal number, not {deal!r}")
        return f"scoring-deal-{deal}.png"
    if kind == "game":
        if deal is None or not 1 <= deal <= 999:
            raise ValueError(f"a game's picture needs its number, not {deal!r}")
        return f"scoring-game-{deal}.png"
    if kind in ("trick", "hand"):
        return f"{kind}.png"
    if kind == "rules":
        return "rules-example.png"
    raise ValueError(f"unknown picture kind {kind!r}")


def make_palette(*samples: Image.Image) -> Image.Image:
    """Return a 256-colour palette chosen from sample pictures (stacked into one sheet).

    Pictures drawn from the same few colours and their anti-aliased blends share one
    palette, chosen once: mapping a picture to it costs a few milliseconds where choosing a
    palette per picture costs a hundred.
    """
    sheet = Image.new("RGB", (max(s.width for s in samples), sum(s.height for s in samples)))
    y = 0
    for sample in samples:
        sheet.paste(sample.convert("RGB"), (0, y))
        y += sample.height
    return sheet.quantize(colors=256, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)


def png(canvas: Image.Image, palette: Image.Image) -> bytes:
    """Return the picture as a PNG mapped to ``palette`` (see :func:`make_palette`)."""
    flat = canvas.quantize(palette=palette, dither=Image.Dither.NONE)
    out = io.BytesIO()
    flat.save(out, format="PNG", compress_level=_COMPRESS_LEVEL)
    return out.getvalue()


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
