"""A picture's way out: PNG bytes in a palette, its file name, and where they are drawn
(the bot process's one drawing process, or one thread)."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import importlib
import io
import logging
import multiprocessing
import os
import pickle
import threading
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal, ParamSpec

if TYPE_CHECKING:
    from PIL import Image

__all__ = [
    "Drawing",
    "PictureKind",
    "draw_in_a_process",
    "drawings",
    "make_palette",
    "picture_filename",
    "png",
    "render_off_loop",
    "stop_drawing",
]

log = logging.getLogger(__name__)

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
    from PIL import Image

    sheet = Image.new("RGB", (max(s.width for s in samples), sum(s.height for s in samples)))
    y = 0
    for sample in samples:
        sheet.paste(sample.convert("RGB"), (0, y))
        y += sample.height
    return sheet.quantize(colors=256, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)


def png(canvas: Image.Image, palette: Image.Image) -> bytes:
    """Return the picture as a PNG mapped to ``palette`` (see :func:`make_palette`)."""
    from PIL import Image

    flat = canvas.quantize(palette=palette, dither=Image.Dither.NONE)
    out = io.BytesIO()
    flat.save(out, format="PNG", compress_level=_COMPRESS_LEVEL)
    return out.getvalue()


_P = ParamSpec("_P")


@dataclass(frozen=True, slots=True)
class Drawing:
    """A drawing function known by its module's and its own name, called as the function:
    it pickles as those two names, so the bot process hands it to its drawing process
    without importing it, nor Pillow with it (0.05 s of every start); the module is
    imported where it is first called (see :func:`drawings`)."""

    module: str
    name: str

    @property
    def __name__(self) -> str:  # what a function would answer (the tests' recorder asks)
        return self.name

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return getattr(importlib.import_module(self.module), self.name)(*args, **kwargs)


class _Drawings:
    def __init__(self, module: str) -> None:
        self._module = module

    def __getattr__(self, name: str) -> Drawing:
        if name.startswith("_"):
            raise AttributeError(name)
        return Drawing(self._module, name)


def drawings(module: str) -> Any:
    """Return the functions of the module named ``module`` as :class:`Drawing` values, by
    attribute (``drawings("bot.games.<game>.pictures").hand_picture``), without importing it.

    A game's bot module that only hands its pictures to :func:`render_off_loop` takes them
    so, and the module itself for the type checker::

        if TYPE_CHECKING:
            from bot.games.<game> import pictures as drawn
        else:
            drawn = pictures.drawings("bot.games.<game>.pictures")
    """
    return _Drawings(module)


# One thread draws every picture, in turn, when no drawing process was asked for (tests,
# a bot embedded in another program). More would not draw faster, and each thread that
# allocates image buffers gets its own malloc arena: with a thread pool's worth of them the
# bot's resident memory tripled under load (bench/load.py: 290 MB against 85 MB without
# pictures at 100 tables).
_RENDERER = ThreadPoolExecutor(max_workers=1, thread_name_prefix="pictures")

# The bot process draws in a child process instead (:func:`draw_in_a_process`). Drawing in
# a thread holds the GIL for milliseconds at a time (Pillow keeps it while it draws text,
# maps colours and compresses), and every click waiting meanwhile waits for it: at 1,000
# tables the click median went from 4 ms without pictures to 24 ms with them, the p99
# from 42 to 250 ms (bench/load.py).
_process: ProcessPoolExecutor | None = None
_PARENT_CHECK_SECONDS = 1.0


def draw_in_a_process() -> None:
    """From now on, draw every picture in one child process (started at the first picture,
    started again if it dies). Pictures whose drawing cannot be sent to it (a thunk that
    does not pickle) are drawn in the thread as before."""
    global _process
    if _process is None:
        _process = _new_process()


def stop_drawing() -> None:
    """Stop the drawing process, if any (the bot is closing); drawing goes back to the
    thread. Pictures not begun are dropped; it waits for the one being drawn, if any, and
    for the executor's own thread: ``shutdown(wait=False)`` leaves that thread to close its
    wake-up pipe while the interpreter's exit writes to it (CPython's
    ``concurrent.futures.process._python_exit``: "Bad file descriptor" on stderr at
    exit)."""
    global _process
    process, _process = _process, None
    if process is not None:
        process.shutdown(wait=True, cancel_futures=True)


def _new_process() -> ProcessPoolExecutor:
    return ProcessPoolExecutor(
        max_workers=1,
        mp_context=multiprocessing.get_context("spawn"),  # no fork of a threaded process
        initializer=_begin_drawing,
        initargs=(os.getpid(),),
    )


# How much lower the drawing process's CPU priority is than the bot's (``nice``). A click
# waits for the bot's loop; a picture only for the table message's next edit, which waits
# a second and a half anyway. When both want the CPU, the click goes first.
_DRAWING_NICENESS = 10


def _begin_drawing(parent: int) -> None:
    """In the drawing process, before its first picture: give way to the bot (a lower
    priority, where the system allows) and watch for the bot's end."""
    with contextlib.suppress(OSError):
        os.nice(_DRAWING_NICENESS)
    _watch_parent(parent)


def _watch_parent(parent: int) -> None:
    """In the drawing process: exit when the bot process is gone (killed with SIGKILL,
    it cannot stop its child, and the child would wait for work forever)."""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(_PARENT_CHECK_SECONDS)
        os._exit(0)

    threading.Thread(target=watch, name="parent-watch", daemon=True).start()


async def render_off_loop(fn: Callable[_P, bytes], *args: _P.args, **kwargs: _P.kwargs) -> bytes:
    """Return ``fn(*args, **kwargs)`` computed off the event loop: in the drawing process
    when there is one, else in the picture thread."""
    global _process
    loop = asyncio.get_running_loop()
    work = functools.partial(fn, *args, **kwargs)
    process = _process
    if process is not None:
        try:
            return await loop.run_in_executor(process, work)
        except BrokenProcessPool:
            log.warning("the drawing process stopped; a new one is started")
            if _process is process:
                _process = _new_process()
        except (pickle.PicklingError, AttributeError, TypeError) as error:
            # Most likely the thunk could not be sent; a drawing that failed in the process
            # with one of these fails again in the thread, and that is what is raised.
            log.debug("picture drawn in the thread: %s", error)
    return await loop.run_in_executor(_RENDERER, work)
