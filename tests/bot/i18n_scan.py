"""Scanning the catalogue: the English pieces that no German text contains (English in
what should be German), and which keys a game's messages can reach (the keys its bot
package and the generic modules name)."""

from __future__ import annotations

import ast
import inspect
import re
import string
from collections.abc import Iterable
from functools import cache
from pathlib import Path
from typing import Any

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
    openings = _pieces_by_opening()
    found = []
    for text in texts:  # each place in a text looked up once, not every piece searched for
        hits = {
            piece
            for at in range(len(text) - _OPENING + 1)
            for piece in openings.get(text[at : at + _OPENING], ())
            if text.startswith(piece, at)
        }
        found += [(piece, text) for piece in sorted(hits)]
    return found


_OPENING = 10  # characters: the shortest English piece (``english_pieces``)


@cache
def _pieces_by_opening() -> dict[str, tuple[str, ...]]:
    by_opening: dict[str, list[str]] = {}
    for piece in english_pieces(_OPENING):
        by_opening.setdefault(piece[:_OPENING], []).append(piece)
    return {opening: tuple(pieces) for opening, pieces in by_opening.items()}


# --- which catalogue keys a game's messages can reach -----------------------------------

BOT = Path(__file__).resolve().parents[2] / "bot"


def _looks_like_key(value: str, areas: set[str]) -> bool:
    return "." in value and value.split(".")[0] in areas and " " not in value


@cache
def keys_named_in(path: Path) -> tuple[frozenset[str], frozenset[str]]:
    """Return the catalogue keys a source file names: its string constants that are keys,
    and the constant heads of its f-strings that are (``f"errors.permission_{name}"``:
    every key they begin)."""
    areas = {key.split(".")[0] for key in catalogue()}
    tree = ast.parse(path.read_text("utf-8"))
    joined = [node for node in ast.walk(tree) if isinstance(node, ast.JoinedStr)]
    parts = {id(part) for node in joined for part in node.values}
    constants: set[str] = set()
    prefixes: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in parts:
            if _looks_like_key(node.value, areas):
                constants.add(node.value)
        elif isinstance(node, ast.JoinedStr) and node.values:
            head = node.values[0]
            text = head.value if isinstance(head, ast.Constant) else None
            if isinstance(text, str) and _looks_like_key(text, areas):
                prefixes.add(text)
    return frozenset(constants), frozenset(prefixes)


def package_of(ui: Any) -> Path:
    """Return the folder of a game's bot package (``bot/games/whist`` for whist and for
    its duplicate tables: one family)."""
    return Path(inspect.getfile(type(ui))).resolve().parent


def generic_sources() -> list[Path]:
    """Return the bot's modules that serve every game (all but ``bot/games/<game>/``)."""
    games = BOT / "games"
    return sorted(p for p in BOT.rglob("*.py") if games not in p.parents or p.parent == games)


def keys_reached(sources: Iterable[Path], own_area: str | None = None) -> set[str]:
    """Return the catalogue keys ``sources`` name (and every key of ``own_area``)."""
    known = catalogue()
    reached = {key for key in known if own_area is not None and key.startswith(f"{own_area}.")}
    for path in sources:
        constants, prefixes = keys_named_in(path)
        reached |= {key for key in constants if key in known}
        reached |= {key for key in known if key.startswith(tuple(prefixes))} if prefixes else set()
    return reached


def texts_of(key: str) -> list[tuple[str, str]]:
    """Return ``(lang, text)`` for every language and form of a catalogue key."""
    return [(lang, text) for lang, entry in catalogue()[key].items() for text in _texts(entry)]
