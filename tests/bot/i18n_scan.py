"""Finding English in what should be German: the catalogue's English pieces that no German
text contains."""

from __future__ import annotations

import re
import string
from collections.abc import Iterable
from functools import cache

from bot.i18n import catalogue

_WORD = re.compile(r"[A-Za-z]{4,}")


def _texts(entry: object) -> list[str]:
    if isinstance(entry, str):
        return [entry]
    assert isinstance(entry, dict)
    return [str(v) for v in entry.values()]


@cache
def english_pieces(shortest: int = 10) -> frozenset[str]:
    """Return the literal pieces (between format fields) of English catalogue texts that
    are at least ``shortest`` characters long, hold a word, and appear in no German text."""
    german = "\n".join(text for texts in catalogue().values() for text in _texts(texts["de"]))
    pieces = set()
    for texts in catalogue().values():
        for text in _texts(texts["en"]):
            for literal, _, _, _ in string.Formatter().parse(text):
                for line in literal.splitlines():
                    piece = line.strip()
                    if len(piece) >= shortest and _WORD.search(piece) and piece not in german:
                        pieces.add(piece)
    return frozenset(pieces)


def english_in(texts: Iterable[str]) -> list[tuple[str, str]]:
    """Return ``(piece, text)`` for every English piece found in ``texts``."""
    pieces = english_pieces()
    return [(piece, text) for text in texts for piece in pieces if piece in text]
