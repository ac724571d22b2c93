"""What a member sees for ♠ ♥ ♦ ♣: the one place that maps the suit symbols the games write
to what Discord shows.

On Discord's dark theme ♠ and ♣ are near-black emoji on dark grey (about 1.1 : 1), ♥ ♦ a
dark red (about 2 : 1), and on a disabled button they vanish. So the bot registers its own
signs (:mod:`bot.pictures.signs`: each pip on a small white card, 4.5 : 1 and more on every
background) as the application's emojis once at start-up, and shows them:

* in message content, embed descriptions and field values, where Discord draws custom
  emoji, as ``<:spades:id>`` (a screen reader reads the name), except in code;
* on a button whose label holds one suit, as the button's emoji, the rest as its label (a
  card button: the suit, then ``10``);
* where Discord shows ``<:name:id>`` as that raw text (embed titles, field names, footers,
  authors, button labels, select menus, code), and whenever the emojis are not registered (not
  yet, refused, a limit), as the outline suits ♤ ♡ ♢ ♧: plain characters Discord does not
  turn into emoji, drawn in the text's own colour (:data:`OUTLINE`).

Games and renderers keep writing ``10♠``: :class:`bot.game.Rendered`, the controls' payload
(:mod:`bot.controls`), private replies and the rules map their text here, as they are
built. The setting ``suit_emojis = false`` shows the symbols as written.
"""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import discord

from engine.cards import Suit

__all__ = [
    "NAMES",
    "OUTLINE",
    "Signs",
    "as_written",
    "button_face",
    "current",
    "embed",
    "plain",
    "read",
    "register",
    "rich",
    "select_options",
    "show",
]

log = logging.getLogger(__name__)

NAMES: Mapping[Suit, str] = {
    Suit.SPADES: "spades",
    Suit.HEARTS: "hearts",
    Suit.DIAMONDS: "diamonds",
    Suit.CLUBS: "clubs",
}
"""Each suit's emoji name: how the bot finds its emojis again, and what a screen reader says."""

OUTLINE: Mapping[Suit, str] = {
    Suit.SPADES: "♤",
    Suit.HEARTS: "♡",
    Suit.DIAMONDS: "♢",
    Suit.CLUBS: "♧",
}
"""The suits as plain text that reads on both themes: Discord draws ♠ ♥ ♦ ♣ as emoji of
their own colours, but these four as letters in the text's colour."""

# Discord's limits on the texts a sign can grow (an emoji's markup is ~30 characters):
CONTENT_LIMIT = 2000
DESCRIPTION_LIMIT = 4096
FIELD_VALUE_LIMIT = 1024
EMBED_LIMIT = 6000

_SYMBOLS = {suit.symbol: suit for suit in Suit}
_FACES_KEPT = 4096  # button labels worked out (the cards, as each game labels them)
_OUTLINES = {suit.symbol: OUTLINE[suit] for suit in Suit}
_MARKUP = re.compile(r"<:(spades|hearts|diamonds|clubs):\d+>")
_READ_TABLE = str.maketrans({OUTLINE[suit]: suit.symbol for suit in Suit})
_BY_NAME = {name: suit for suit, name in NAMES.items()}
_CODE = re.compile(r"(```.*?```|``.*?``|`[^`]*`)", re.DOTALL)


@dataclass(frozen=True, slots=True)
class Signs:
    """How the suits are shown now: as written (``mapped`` false), as the outline suits
    (``emojis`` None), or as the application's emojis (``emojis``: suit → emoji id)."""

    mapped: bool = False
    emojis: Mapping[Suit, int] | None = None
    _rich: dict[str, str] = field(default_factory=dict, repr=False, compare=False)
    _faces: dict[str, tuple[str | None, dict[str, Any] | None]] = field(
        default_factory=dict, repr=False, compare=False
    )

    def markup(self, suit: Suit) -> str:
        """Return the suit as message text: its emoji's markup, or its outline."""
        if self.emojis is None:
            return OUTLINE[suit]
        return f"<:{NAMES[suit]}:{self.emojis[suit]}>"


_current = Signs()


def current() -> Signs:
    """Return how the suits are shown now."""
    return _current


def show(*, emojis: Mapping[Suit, int] | None) -> None:
    """Show the suits as the application's emojis (``emojis``: suit → id), or, with None,
    as the outline suits."""
    global _current
    signs = Signs(mapped=True, emojis=dict(emojis) if emojis is not None else None)
    signs._rich.update({suit.symbol: signs.markup(suit) for suit in Suit})
    _current = signs


def as_written() -> None:
    """Show the suits as the games write them (``suit_emojis = false``; the default of a
    process that runs no bot)."""
    global _current
    _current = Signs()


def _has_suit(text: str) -> bool:
    return any(symbol in text for symbol in _SYMBOLS)


def _replaced(text: str, signs: Mapping[str, str]) -> str:
    # str.replace per suit: several times quicker than str.translate on a hand's text
    for symbol, shown in signs.items():
        if symbol in text:
            text = text.replace(symbol, shown)
    return text


def plain(text: str) -> str:
    """Return ``text`` for a place where Discord shows custom emoji as raw text (titles,
    field names, footers, labels): its suits as outlines."""
    if not _current.mapped or not text:
        return text
    return _replaced(text, _OUTLINES)


def rich(text: str, limit: int = CONTENT_LIMIT) -> str:
    """Return ``text`` for a place where Discord draws custom emoji (message content, an
    embed's description or field value): its suits as the emojis, or as outlines when
    they are not registered or the text would outgrow ``limit`` characters."""
    signs = _current
    if not signs.mapped or not text:
        return text
    if signs.emojis is not None:
        if "`" in text:  # in code Discord shows an emoji's markup as it is
            parts = _CODE.split(text)
            shown = "".join(
                _replaced(part, _OUTLINES if i % 2 else signs._rich) for i, part in enumerate(parts)
            )
        else:
            shown = _replaced(text, signs._rich)
        if len(shown) <= limit:
            return shown
    return _replaced(text, _OUTLINES)


def embed(item: discord.Embed) -> None:
    """Map the suits of an embed in place: emojis in its description and field values,
    outlines in its title, field names, footer and author (which Discord shows as raw
    text), and outlines everywhere when the emojis would take it over Discord's 6,000
    characters."""
    if not _current.mapped:
        return
    texts = [item.title or "", item.description or ""]
    texts += [f"{f.name}{f.value}" for f in item.fields]
    texts += [item.footer.text or "", item.author.name or ""]
    if not any(_has_suit(text) for text in texts):
        return
    if item.title:
        item.title = plain(item.title)
    footer, author = item.footer, item.author
    if footer.text and _has_suit(footer.text):
        item.set_footer(text=plain(footer.text), icon_url=footer.icon_url)
    if author.name and _has_suit(author.name):
        item.set_author(name=plain(author.name), url=author.url, icon_url=author.icon_url)
    originals = (item.description, [f.value for f in item.fields])
    _rich_parts(item, rich)
    if len(item) > EMBED_LIMIT:
        item.description = originals[0]
        for i, value in enumerate(originals[1]):
            f = item.fields[i]
            item.set_field_at(i, name=f.name, value=value, inline=f.inline)
        _rich_parts(item, lambda text, _limit: plain(text))


def _rich_parts(item: discord.Embed, shown: Any) -> None:
    if item.description:
        item.description = shown(item.description, DESCRIPTION_LIMIT)
    for i, f in enumerate(item.fields):
        name, value = plain(f.name or ""), shown(f.value or "", FIELD_VALUE_LIMIT)
        if name != f.name or value != f.value:
            item.set_field_at(i, name=name, value=value, inline=f.inline)


def button_face(label: str | None) -> tuple[str | None, dict[str, Any] | None]:
    """Return a button's label and emoji (a payload's ``emoji``) for a label written with
    suits: one suit becomes the emoji (``10♠`` → ♠'s emoji and ``10``); otherwise the
    suits are outlines. The emoji is None when the label keeps its suits."""
    signs = _current
    if not signs.mapped or not label:
        return label, None
    face = signs._faces.get(label)
    if face is None:  # a label recurs on every hand: worked out once
        if len(signs._faces) >= _FACES_KEPT:
            signs._faces.clear()
        face = signs._faces[label] = _face(signs, label)
    return face


def _face(signs: Signs, label: str) -> tuple[str | None, dict[str, Any] | None]:
    suits = [char for char in label if char in _SYMBOLS]
    if signs.emojis is None or len(suits) != 1:
        return plain(label), None
    suit = _SYMBOLS[suits[0]]
    rest = " ".join(label.replace(suits[0], " ").split())
    return rest or None, {"name": NAMES[suit], "id": str(signs.emojis[suit])}


def select_options(component: dict[str, Any]) -> None:
    """Map the suits of a select menu's payload in place: an option labelled with one suit
    (a card) gets it as its emoji, as a button does; the other labels, descriptions and the
    placeholder, where Discord shows no custom emoji, get outlines."""
    if not _current.mapped:
        return
    if isinstance(component.get("placeholder"), str):
        component["placeholder"] = plain(component["placeholder"])
    for option in component.get("options") or ():
        label = option.get("label")
        if isinstance(label, str) and not option.get("emoji"):
            shown, emoji = button_face(label)
            if emoji is not None and shown:
                option["label"], option["emoji"] = shown, emoji
            else:
                option["label"] = plain(label)
        elif isinstance(label, str):
            option["label"] = plain(label)
        if isinstance(option.get("description"), str):
            option["description"] = plain(option["description"])


def read(text: str) -> str:
    """Return shown text with its suits as the games write them (emoji markup and outlines
    back to ♠ ♥ ♦ ♣): for tests and scans that read cards in what members see."""
    text = _MARKUP.sub(lambda m: _BY_NAME[m.group(1)].symbol, text)
    return text.translate(_READ_TABLE)


# --- registering the emojis -----------------------------------------------------------

RETRY_SECONDS = (30.0, 60.0, 120.0, 300.0, 600.0)
"""When a process that may not create the emojis looks for them again (see :func:`register`)."""


async def _find_or_create(client: discord.Client, *, create: bool) -> dict[Suit, int] | None:
    """Return the application's emoji id for each suit, creating the missing ones when
    ``create``; None when one is missing and may not be created."""
    existing = await client.fetch_application_emojis()
    by_name: dict[str, int] = {}
    for emoji in sorted(existing, key=lambda e: e.id):  # the oldest of a name, always
        by_name.setdefault(emoji.name, emoji.id)
    found: dict[Suit, int] = {}
    for suit, name in NAMES.items():
        emoji_id = by_name.get(name)
        if emoji_id is None:
            if not create:
                return None
            from bot.pictures.signs import suit_sign_png  # Pillow, only to register them

            image = await asyncio.to_thread(suit_sign_png, suit)
            emoji_id = (await client.create_application_emoji(name=name, image=image)).id
            log.info("registered the application emoji :%s: (%d)", name, emoji_id)
        found[suit] = emoji_id
    return found


async def register(
    client: discord.Client,
    *,
    create: bool,
    retry: bool = True,
    sleep: Callable[[float], Awaitable[object]] = asyncio.sleep,
) -> bool:
    """Find the application's suit emojis by name, create the missing ones when ``create``,
    and show them (:func:`show`); return whether they are shown.

    One process creates (the one running shard 0, or the only one): two processes starting
    together would each create a set. Another slice looks again at :data:`RETRY_SECONDS`
    until the creator has made them, and any process after an error of Discord's own (a
    5xx). Meanwhile, and when Discord refuses (no permission, the application's 2,000
    emojis), the suits stay outlines."""
    delays = list(RETRY_SECONDS) if retry else []
    while True:
        try:
            emojis = await _find_or_create(client, create=create)
        except discord.DiscordServerError as error:
            if not delays:
                log.warning("the suits stay text: Discord failed (%s)", error)
                return False
            await sleep(delays.pop(0))
            continue
        except (discord.HTTPException, discord.MissingApplicationID) as error:
            log.warning("the suits stay text: the application's emojis are unavailable (%s)", error)
            return False
        if emojis is not None:
            show(emojis=emojis)
            return True
        if not delays:
            log.warning("the suits stay text: the application has no suit emojis yet")
            return False
        await sleep(delays.pop(0))
