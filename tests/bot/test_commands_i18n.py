"""Slash commands in German: what the bot syncs carries a German name and description for
every command, group, subcommand and option and a German name for every choice, within
Discord's rules; ``/help`` answers a German member in German."""

from __future__ import annotations

import unicodedata
from collections.abc import Iterator
from typing import Any

import simcord

from bot import games
from bot.i18n import t
from tests.bot.driver import World

DE = "de"
# Names Discord allows: lowercase, 1–32 characters, each a letter, a digit, "-" or "_"
# (^[-_\p{L}\p{N}\p{sc=Deva}\p{sc=Thai}]{1,32}$; Devanagari and Thai marks play no part
# in German).
NAME_LIMIT = 32
TEXT_LIMIT = 100
# German that is rightly the English word: the games' names and two loanwords.
SAME_IN_GERMAN = {
    "dupe",
    "hand",
    "status",
    "Dupe",
    "doppelkopf",
    "Doppelkopf",
    "4",
    "whist",
    "Whist",
    "West",  # a seat: the same word in German
}
SUBCOMMAND, GROUP = 1, 2


def _synced(env: simcord.Env) -> list[dict[str, Any]]:
    """Return every command the bot synced, global and per server."""
    return [command for scope in env.backend.commands.values() for command in scope.values()]


def _walk(command: dict[str, Any]) -> Iterator[tuple[str, dict[str, Any]]]:
    """Yield ``(path, item)`` for a command and each of its subcommands and options."""
    yield f"/{command['name']}", command
    for option in command.get("options") or []:
        yield from _walk_option(f"/{command['name']}", option)


def _walk_option(path: str, option: dict[str, Any]) -> Iterator[tuple[str, dict[str, Any]]]:
    here = f"{path} {option['name']}"
    yield here, option
    if option.get("type") in (SUBCOMMAND, GROUP):
        for inner in option.get("options") or []:
            yield from _walk_option(here, inner)


def _choices(command: dict[str, Any]) -> Iterator[tuple[str, dict[str, Any]]]:
    for path, item in _walk(command):
        for choice in item.get("choices") or []:
            yield f"{path}={choice['value']}", choice


def _is_discord_name(name: str) -> bool:
    return (
        1 <= len(name) <= NAME_LIMIT
        and name == name.lower()
        and all(c in "-_" or unicodedata.category(c)[0] in "LN" for c in name)
    )


def _problems(commands: list[dict[str, Any]]) -> list[str]:
    problems = []
    for command in commands:
        for path, item in _walk(command):
            name = (item.get("name_localizations") or {}).get(DE)
            text = (item.get("description_localizations") or {}).get(DE)
            if name is None:
                problems.append(f"{path}: no German name")
            elif not _is_discord_name(name):
                problems.append(f"{path}: German name {name!r} breaks Discord's rules")
            elif name == item["name"] and name not in SAME_IN_GERMAN:
                problems.append(f"{path}: German name is the English {name!r}")
            if text is None:
                problems.append(f"{path}: no German description")
            elif not 1 <= len(text) <= TEXT_LIMIT:
                problems.append(f"{path}: German description has {len(text)} characters")
            elif text == item["description"]:
                problems.append(f"{path}: German description is the English {text!r}")
        for path, choice in _choices(command):
            name = (choice.get("name_localizations") or {}).get(DE)
            if name is None:
                problems.append(f"{path}: no German choice name")
            elif not 1 <= len(name) <= TEXT_LIMIT:
                problems.append(f"{path}: German choice name has {len(name)} characters")
            elif name == choice["name"] and name not in SAME_IN_GERMAN:
                problems.append(f"{path}: German choice name is the English {name!r}")
    return problems


COG_COMMANDS = {"dupe", "leaderboard", "stats", "help"}  # bot/dupe/cog.py


async def test_the_cogs_commands_are_synced_with_german(world: World) -> None:
    commands = [c for c in _synced(world.env) if c["name"] in COG_COMMANDS]
    assert {c["name"] for c in commands} == COG_COMMANDS
    assert _problems(commands) == []
    (start,) = (
        o for c in commands if c["name"] == "dupe" for o in c["options"] if o["name"] == "start"
    )
    assert start["name_localizations"][DE] == "starten"
    memory = next(o for o in start["options"] if o["name"] == "memory")
    assert memory["name_localizations"][DE] == "gedächtnis"
    assert [c["name_localizations"][DE] for c in memory["choices"]] == [
        t("de", "dupe.commands_memory_strict"),
        t("de", "dupe.commands_memory_open"),
    ]


async def test_every_synced_command_has_german(world: World) -> None:
    commands = _synced(world.env)
    assert len(commands) > len(COG_COMMANDS)
    assert _problems(commands) == []


def test_the_name_rule_refuses_what_discord_refuses() -> None:
    assert _is_discord_name("gedächtnis")
    assert _is_discord_name("turn_time")
    for bad in ("Regeln", "zug zeit", "zugzeit!", "", "x" * 33):
        assert not _is_discord_name(bad), bad


async def test_help_answers_in_the_members_language(world: World, locales: dict[int, str]) -> None:
    anna, bob = world.members("anna", "bob")
    locales[anna.id] = "de"
    german = await anna.slash(world.channel, "help")
    english = await bob.slash(world.channel, "help")
    assert german.response is not None and german.response.ephemeral
    assert english.response is not None
    (de_embed,) = german.response.embeds
    (en_embed,) = english.response.embeds
    me = world.bot.user
    assert me is not None
    assert de_embed.title == t("de", "cog.help_title", name=me.name)
    assert en_embed.title == t("en", "cog.help_title", name=me.name)
    text = de_embed.description or ""
    for line in (
        f"**/dupe starten** — {t('de', 'dupe.command_start_description')}",
        f"**/dupe regeln** — {t('de', 'dupe.command_rules_description')}",
        f"**/rangliste** — {t('de', 'commands.leaderboard_description')}",
        f"**/hilfe** — {t('de', 'commands.help_description')}",
    ):
        assert line in text, line
    starts = ", ".join(
        f"/{t('de', f'{ui.name}.command_name')} {t('de', f'{ui.name}.command_start_name')}"
        for ui in games.GAMES
    )
    assert t("de", "cog.help_start", start=starts) in text
    assert "**/dupe start** — Open a Dupe table in this channel" in (en_embed.description or "")


async def test_a_refusal_answers_in_the_members_language(
    world: World, locales: dict[int, str]
) -> None:
    anna, bob = world.members("anna", "bob")
    locales[anna.id] = "de"
    refused = await anna.slash(world.channel, "dupe defaults", memory="open")
    assert refused.response is not None and refused.response.ephemeral
    assert t("de", "cog.defaults_managers_only") in refused.response.content
    refused = await bob.slash(world.channel, "dupe defaults", memory="open")
    assert refused.response is not None
    assert t("en", "cog.defaults_managers_only") in refused.response.content
