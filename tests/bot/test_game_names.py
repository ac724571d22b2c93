"""The right game, everywhere: what a game's table sends names that game and its own
commands, never another game; what concerns every game names none.

A game's messages can reach the keys of its own catalogue, the keys its bot package names
and the keys the generic modules name (those serve every game). Every text of those, in
English and German, is scanned for another game's name (its title and its command, both
languages)."""

from __future__ import annotations

import re
from collections.abc import Iterable

from bot import games
from bot.i18n import t
from tests.bot.i18n_scan import generic_sources, keys_reached, package_of, texts_of

# A game's text may name another game only here, each with its reason: (key, game named).
CROSS_REFERENCES: dict[tuple[str, str], str] = {}


def _names(game: str) -> set[str]:
    """Return how members meet a game's name: its title and its command, in every language
    (a title with a gloss, ``Dukes Up! (Herzöge hoch)``, also by each part)."""
    names = set()
    for key in (f"{game}.title", f"{game}.command_name"):
        for _, text in texts_of(key):
            names.add(text)
            names.update(part.strip(" ()") for part in text.split(" (") if part.strip(" ()"))
    return names


def _pattern(names: Iterable[str]) -> re.Pattern[str]:
    alternatives = "|".join(re.escape(n) for n in sorted(names, key=len, reverse=True))
    return re.compile(rf"(?<![\w-])(?:{alternatives})(?![\w-])", re.IGNORECASE)


def _family(ui: games.GameUI) -> set[str]:
    """Return the games of ``ui``'s bot package (whist and its duplicate tables: one family,
    free to name each other)."""
    return {other.name for other in games.GAMES if package_of(other) == package_of(ui)}


def _named_elsewhere(keys: Iterable[str], others: Iterable[str]) -> list[str]:
    found = []
    for other in sorted(others):
        pattern = _pattern(_names(other))
        for key in sorted(keys):
            for lang, text in texts_of(key):
                hit = pattern.search(text)
                if hit and (key, other) not in CROSS_REFERENCES:
                    found.append(f"{key} ({lang}) names {other}: {hit.group()!r} in {text!r}")
    return found


def test_the_generic_texts_name_no_game() -> None:
    """What the core sends for every game (refusals, the lobby, /help, /history…)."""
    reached = keys_reached(generic_sources())
    assert len(reached) > 100  # the scan sees the core's keys
    assert _named_elsewhere(reached, [ui.name for ui in games.GAMES]) == []


def test_no_game_sends_another_games_name() -> None:
    for ui in games.GAMES:
        package = sorted(package_of(ui).rglob("*.py"))
        reached = keys_reached([*package, *generic_sources()], own_area=ui.name)
        assert f"{ui.name}.title" in reached
        others = {g.name for g in games.GAMES} - _family(ui)
        assert _named_elsewhere(reached, others) == [], ui.name


def test_the_scan_finds_a_name_where_it_is() -> None:
    """The scan is not blind: the texts that must name their game are found naming it."""
    for ui in games.GAMES:
        assert _pattern(_names(ui.name)).search(t("en", f"{ui.name}.title")), ui.name
    assert _pattern(_names("dupe")).search("Use /dupe hand or the table's My hand button.")
    assert _pattern(_names("dukes_up")).search("Ein Tisch für Herzöge hoch")
    assert not _pattern(_names("dupe")).search("a duplicate match")
