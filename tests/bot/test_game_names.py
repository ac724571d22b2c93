"""The right game, everywhere: what a game's table sends names that game and its own
commands, never another game; what concerns every game names none.

A game's messages can reach the keys of its own catalogue, the keys its bot package names
and the keys the generic modules name (those serve every game). Every text of those, in
English and German, is scanned for another game's name (its title and its command, both
languages)."""

from __future__ import annotations

import re
from collections.abc import Iterable

import pytest
import simcord
from simcord import interactions as simcord_interactions
from simcord.actors import _dispatch_actor_interaction
from simcord.enums import AppCommandType, InteractionType

from bot import games
from bot.game import GameUI
from bot.i18n import Lang, t
from tests.bot.driver import World, private_text
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


def _family(ui: GameUI) -> set[str]:
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


# --- members meet it: refusals and /help, through simcord ------------------------------

GAMES = ["whist", "doppelkopf", "dukes_up"]


def _command(lang: Lang, game: str, sub: str = "start") -> str:
    """Return ``/<game> <sub>`` as a member of ``lang`` reads it."""
    return f"/{t(lang, f'{game}.command_name')} {t(lang, f'{game}.command_{sub}_name')}"


async def _slash_in_dm(member: simcord.MemberActor, name: str) -> simcord.InteractionResult:
    """Send ``/<name>`` from the member's direct messages with the bot, as an outdated or
    modified client could (Discord offers the games' commands only in a server)."""
    env = member._env
    user = member.user
    channel = user.dm_channel
    parts = name.split()
    root = env.backend.find_command(parts[0], None)
    assert root is not None, parts[0]
    _, nesting = simcord_interactions.walk_to_subcommand(root, parts[1:])
    data = {
        "id": root["id"],
        "name": root["name"],
        "type": AppCommandType.CHAT_INPUT,
        "options": simcord_interactions.nest_options(root, nesting, []),
    }
    env._begin_operation("slash")
    try:
        return await _dispatch_actor_interaction(
            user, InteractionType.APPLICATION_COMMAND, channel, data
        )
    finally:
        env._end_operation()


@pytest.mark.parametrize("game", GAMES)
async def test_no_table_here_names_the_commands_game_and_its_start(
    world: World, locales: dict[int, str], game: str
) -> None:
    alice, anna = world.members("alice", "anna")
    locales[anna.id] = "de"
    english = (
        f"There is no {t('en', f'{game}.title')} table in this channel. "
        f"Start one with {_command('en', game)}."
    )
    german = (
        f"In diesem Kanal gibt es keinen Tisch für {t('de', f'{game}.title')}. "
        f"Eröffne einen mit {_command('de', game)}."
    )
    assert "Dupe" not in english + german
    command = t("en", f"{game}.command_name")
    for sub in ("hand", "status", "cancel", "leave"):
        assert private_text(await alice.slash(world.channel, f"{command} {sub}")) == english
        assert private_text(await anna.slash(world.channel, f"{command} {sub}")) == german


@pytest.mark.parametrize(
    ("there", "started"),
    [("whist", "doppelkopf"), ("doppelkopf", "dukes_up"), ("dukes_up", "whist"), ("whist", "dupe")],
)
async def test_a_channel_with_a_table_names_that_tables_game(
    world: World, locales: dict[int, str], there: str, started: str
) -> None:
    alice, anna = world.members("alice", "anna")
    locales[anna.id] = "de"
    opened = await alice.slash(world.channel, f"{t('en', f'{there}.command_name')} start")
    assert opened.response is not None and not opened.ephemeral
    table = world.bot.controller.tables.table_in(world.channel.id)
    assert table is not None
    url = world.bot.controller.jump_url(table)
    start = f"{t('en', f'{started}.command_name')} start"
    refused = private_text(await anna.slash(world.channel, start))
    assert refused.startswith(
        f"In diesem Kanal gibt es schon einen Tisch für {t('de', f'{there}.title')}: {url}"
    )
    refused = private_text(await alice.slash(world.channel, start))
    assert refused.startswith(f"This channel already has a {t('en', f'{there}.title')} table: ")
    assert url in refused
    # …and a command of the table's own game finds it.
    status = await alice.slash(world.channel, f"{t('en', f'{there}.command_name')} status")
    assert url in private_text(status)
    # Another game's commands leave it alone, naming the game it is.
    other = t("en", f"{started}.command_name")
    for sub in ("hand", "status", "cancel", "leave"):
        refused = private_text(await alice.slash(world.channel, f"{other} {sub}"))
        assert refused == (
            f"This channel's table is a {t('en', f'{there}.title')} table, not "
            f"{t('en', f'{started}.title')}: use /{t('en', f'{there}.command_name')} there, "
            f"or start {t('en', f'{started}.title')} in another channel."
        )
    assert world.query("SELECT status FROM games") == [("lobby",)]
    assert len(world.query("SELECT id FROM games")) == 1


@pytest.mark.parametrize("game", GAMES)
async def test_direct_messages_are_refused_naming_the_game(
    world: World, locales: dict[int, str], game: str
) -> None:
    alice, anna = world.members("alice", "anna")
    locales[anna.id] = "de"
    command = t("en", f"{game}.command_name")
    for sub in ("start", "hand", "status"):
        refused = private_text(await _slash_in_dm(alice, f"{command} {sub}"))
        assert refused == (
            f"{t('en', f'{game}.title')} is played in a server channel, not in direct messages."
        )
        refused = private_text(await _slash_in_dm(anna, f"{command} {sub}"))
        assert refused == (
            f"{t('de', f'{game}.title')} wird in einem Kanal auf einem Server gespielt, "
            "nicht in Direktnachrichten."
        )
    assert world.query("SELECT id FROM games") == []


async def test_help_is_titled_with_the_bots_own_name(world: World, locales: dict[int, str]) -> None:
    me = world.bot.user
    assert me is not None
    alice, anna = world.members("alice", "anna")
    locales[anna.id] = "de"
    for member, title in ((alice, f"{me.name} — commands"), (anna, f"{me.name} — Befehle")):
        shown = await member.slash(world.channel, "help")
        assert shown.response is not None and shown.response.ephemeral
        assert shown.response.embeds[0].title == title
    # In direct messages too (the one command Discord offers there).
    direct = await alice.user.slash("help")
    assert direct.response is not None
    assert direct.response.embeds[0].title == f"{me.name} — commands"
