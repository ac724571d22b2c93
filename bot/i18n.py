"""English and German: one message catalogue, and the translator for slash commands.

Every sentence a member can read has a key in the catalogue, ``bot/locales/<area>.toml``,
with its English and German text side by side::

    [open_title]                    # key "table.open_title" in bot/locales/table.toml
    en = "Dupe — a table is open"
    de = "Dupe — ein Tisch ist offen"

A text with a count has a singular and a plural form (``en = {one = "…", other = "…"}``),
chosen by the parameter ``n``. Placeholders are ``str.format`` fields and must be the same
in both languages; ``tests/bot/test_i18n.py`` fails when a key, a language or a field is
missing, or when code asks for a key the catalogue does not have.

Private replies are written in the member's language (``interaction.locale``) and public
messages in the server's (``guild.preferred_locale``); any locale other than German reads
English. Slash commands, their options, choices and descriptions are translated by
``bot.commands.Translator`` when the command tree is synced, so Discord shows them in the
member's own language. This module knows nothing of Discord.
"""

from __future__ import annotations

import contextlib
import hashlib
import marshal
import os
import tomllib
from collections.abc import Mapping, Sequence
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any, Literal, TypeAlias

__all__ = [
    "LANGS",
    "Lang",
    "Text",
    "TextList",
    "add_catalogue",
    "and_list",
    "catalogue",
    "decimal",
    "lang_of",
    "parsed",
    "percent",
    "seat_letter",
    "seat_name",
    "t",
]

Lang: TypeAlias = Literal["en", "de"]
LANGS: tuple[Lang, ...] = ("en", "de")
_FORMS = ("one", "other")
Entry: TypeAlias = str | Mapping[str, str]


def lang_of(locale: object) -> Lang:
    """Return the catalogue language for a Discord locale (a ``discord.Locale`` or its
    value): German for ``de``, else English."""
    value = str(getattr(locale, "value", locale) or "")
    return "de" if value.split("-")[0].lower() == "de" else "en"


_MORE: dict[str, Path] = {}


def add_catalogue(area: str, path: Path | None) -> None:
    """Read the keys ``<area>.*`` from ``path`` too (``None``: stop reading them): a game
    whose catalogue lives outside ``bot/locales`` (a game the tests register)."""
    if path is None:
        _MORE.pop(area, None)
    else:
        _MORE[area] = path
    catalogue.cache_clear()
    _plain.cache_clear()


@cache
def catalogue() -> dict[str, dict[str, Entry]]:
    """Return every key of every ``bot/locales/*.toml`` file (and of those added by
    :func:`add_catalogue`), as ``{key: {lang: text}}``.

    A key is the file's name, a dot and the table's name (``table.open_title``). The
    bot's own files are parsed once for as long as they stay the same (:func:`parsed`)."""
    folder = resources.files("bot") / "locales"
    files: list[tuple[str, str]] = [
        (item.name.removesuffix(".toml"), item.read_text("utf-8"))
        for item in sorted(folder.iterdir(), key=lambda entry: entry.name)
        if item.name.endswith(".toml")
    ]
    kept = Path(str(folder), "__pycache__", "catalogue.marshal")
    entries = parsed(files, kept if isinstance(folder, Path) else None)
    entries.update(
        parsed([(area, path.read_text("utf-8")) for area, path in sorted(_MORE.items())])
    )
    return entries


def parsed(
    files: Sequence[tuple[str, str]], kept: Path | None = None
) -> dict[str, dict[str, Entry]]:
    """Return the keys of catalogue ``files`` (their areas and TOML texts).

    Parsing the bot's catalogue is 30 ms of every start, so what it parses into is
    kept in the file ``kept`` (``bot/locales/__pycache__``, as Python keeps compiled
    modules) with a digest of the texts, and read from there while the texts are the
    same. Where that file cannot be written, each start parses them."""
    digest = hashlib.blake2b(
        "".join(f"{area}\0{text}\0" for area, text in files).encode()
    ).hexdigest()
    if kept is not None:
        with contextlib.suppress(OSError, ValueError, EOFError, TypeError):
            kept_digest, entries = marshal.loads(kept.read_bytes())
            if kept_digest == digest and isinstance(entries, dict):
                return entries
    entries = {}
    for area, text in files:
        for name, texts in tomllib.loads(text).items():
            entries[f"{area}.{name}"] = texts
    if kept is not None:
        written = kept.with_name(f"{kept.name}.{os.getpid()}")
        try:
            kept.parent.mkdir(exist_ok=True)
            written.write_bytes(marshal.dumps((digest, entries)))
            os.replace(written, kept)  # whole, or not at all, to a start reading it
        except OSError:  # a read-only installation
            with contextlib.suppress(OSError):
                written.unlink(missing_ok=True)
    return entries


def _pick(entry: Entry, n: Any) -> str:
    if isinstance(entry, str):
        return entry
    return entry["one" if n == 1 else "other"]


def t(lang: Lang, key: str, /, **params: Any) -> str:
    """Return the catalogue's text for ``key`` in ``lang`` with ``params`` filled in.

    A parameter that is itself a :class:`Text` is written in the same language. An unknown
    key raises ``KeyError`` (the catalogue test finds those before they ship); a text
    missing in German falls back to English."""
    if not params:
        return _plain(lang, key)  # labels and headings: most texts, written once each
    texts = catalogue()[key]
    entry = texts.get(lang) or texts["en"]
    values = {k: v(lang) if isinstance(v, Text) else v for k, v in params.items()}
    return _pick(entry, params.get("n")).format(**values)


@cache
def _plain(lang: Lang, key: str) -> str:
    texts = catalogue()[key]
    return _pick(texts.get(lang) or texts["en"], None).format()


class Text:
    """A sentence to be written later in its reader's language: a key and its parameters.

    ``str(text)`` is the English sentence (for logs and exceptions); ``text(lang)`` is the
    sentence in ``lang``."""

    __slots__ = ("key", "params")

    def __init__(self, key: str, /, **params: Any) -> None:
        self.key = key
        self.params = params

    def __call__(self, lang: Lang) -> str:
        return t(lang, self.key, **self.params)

    def __str__(self) -> str:
        return self("en")

    def __repr__(self) -> str:
        return f"Text({self.key!r}, **{self.params!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Text) and self.key == other.key and self.params == other.params

    def __hash__(self) -> int:
        return hash(self.key)


class TextList(Text):
    """Several texts written as one, joined by commas, in the reader's language."""

    __slots__ = ("items",)

    def __init__(self, items: list[Text]) -> None:
        super().__init__("common.list")
        self.items = items

    def __call__(self, lang: Lang) -> str:
        return ", ".join(item(lang) for item in self.items)

    def __repr__(self) -> str:
        return f"TextList({self.items!r})"


def and_list(lang: Lang, items: Sequence[str]) -> str:
    """Return ``items`` as a sentence lists them: ``A``, ``A and B``, ``A, B and C``
    (German ``A, B und C``); nothing for no items."""
    if len(items) < 2:
        return "".join(items)
    return t(lang, "common.and_list", items=", ".join(items[:-1]), last=items[-1])


def seat_name(lang: Lang, seat: int) -> str:
    """Return a seat's name (``North`` … ``West``) in ``lang``."""
    return t(lang, f"common.seat_{seat}")


def seat_letter(lang: Lang, seat: int) -> str:
    """Return a seat's letter as text shows it (``N E S W``; German ``N O S W``)."""
    return t(lang, f"common.letter_{seat}")


def decimal(lang: Lang, value: float, digits: int | None = 1) -> str:
    """Return ``value`` with ``digits`` decimals (``None``: only those it needs, as ``:g``
    writes it), with a decimal comma in German: ``12.3`` / ``12,3``."""
    text = format(value, "g" if digits is None else f".{digits}f")
    return text.replace(".", ",") if lang == "de" else text


def percent(lang: Lang, share: float) -> str:
    """Return a share as a whole percentage: ``42%``; German ``42 %`` (no-break space)."""
    text = format(share, ".0%")
    return text[:-1] + "\u00a0%" if lang == "de" else text
