"""The message catalogue is complete in English and German, and code only asks for keys
it has (``bot/i18n.py`` explains the catalogue)."""

from __future__ import annotations

import ast
import string
from pathlib import Path

import discord
import pytest
from discord import app_commands

from bot import games, i18n
from bot.commands import Translator, command_text
from bot.game import CATALOGUE_KEYS
from bot.i18n import LANGS, Text, catalogue, lang_of, t

BOT = Path(__file__).resolve().parents[2] / "bot"


def _fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def _forms(entry: i18n.Entry) -> dict[str, str]:
    return {"": entry} if isinstance(entry, str) else dict(entry)


def test_every_key_has_english_and_german_with_the_same_fields() -> None:
    problems = []
    for key, texts in catalogue().items():
        missing = [lang for lang in LANGS if not texts.get(lang)]
        if missing:
            problems.append(f"{key}: no text in {', '.join(missing)}")
            continue
        extra = set(texts) - set(LANGS)
        if extra:
            problems.append(f"{key}: unknown language(s) {sorted(extra)}")
        english = _forms(texts["en"])
        if set(english) not in ({""}, {"one", "other"}):
            problems.append(f"{key}: forms must be a text or one/other, not {sorted(english)}")
        for lang in LANGS:
            forms = _forms(texts[lang])
            if set(forms) != set(english):
                problems.append(f"{key}: {lang} has forms {sorted(forms)}, en {sorted(english)}")
                continue
            for form, text in forms.items():
                if not text.strip():
                    problems.append(f"{key}: empty {lang} text")
                if _fields(text) != _fields(english[form]):
                    problems.append(
                        f"{key}: {lang} fields {sorted(_fields(text))} differ from "
                        f"en {sorted(_fields(english[form]))}"
                    )
    assert problems == []


def _keys_in_code() -> tuple[set[str], set[str], list[str]]:
    """Return the string constants in bot/ that look like catalogue keys, the prefixes of
    f-string keys, and where each unknown-looking key appears."""
    areas = {key.split(".")[0] for key in catalogue()}
    constants: set[str] = set()
    prefixes: set[str] = set()
    for path in BOT.rglob("*.py"):
        tree = ast.parse(path.read_text("utf-8"))
        parts = {
            id(part)
            for node in ast.walk(tree)
            if isinstance(node, ast.JoinedStr)
            for part in node.values
        }
        for node in ast.walk(tree):
            if id(node) in parts:
                continue
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                value = node.value
                if "." in value and value.split(".")[0] in areas and " " not in value:
                    constants.add(value)
            elif isinstance(node, ast.JoinedStr) and node.values:
                head = node.values[0]
                if isinstance(head, ast.Constant) and isinstance(head.value, str):
                    value = head.value
                    if "." in value and value.split(".")[0] in areas and " " not in value:
                        prefixes.add(value)
    return constants, prefixes, sorted(areas)


def test_code_asks_only_for_keys_the_catalogue_has() -> None:
    constants, _, _ = _keys_in_code()
    known = set(catalogue())
    unknown = sorted(
        key
        for key in constants
        if key not in known and not key.endswith((".toml", ".py", ".sqlite3"))
    )
    assert unknown == []


def test_every_key_is_used() -> None:
    constants, prefixes, _ = _keys_in_code()
    per_game = {f"{ui.name}.{key}" for ui in games.GAMES for key in CATALOGUE_KEYS}
    per_game |= {f"{ui.name}.computers_{level}" for ui in games.GAMES for level in ui.game.levels}
    unused = sorted(
        key
        for key in catalogue()
        if key not in constants | per_game and not any(key.startswith(p) for p in prefixes)
    )
    assert unused == []


def test_every_game_names_itself_and_its_commands() -> None:
    known = catalogue()
    for ui in games.GAMES:
        missing = [key for key in CATALOGUE_KEYS if f"{ui.name}.{key}" not in known]
        missing += [f"computers_{level}" for level in ui.game.levels]
        missing = [key for key in missing if f"{ui.name}.{key}" not in known]
        assert missing == [], ui.name


def test_text_is_written_in_its_readers_language() -> None:
    text = Text("common.seat_1")
    assert text("en") == "East"
    assert text("de") == "Ost"
    assert str(text) == "East"
    assert lang_of(discord.Locale.german) == "de"
    assert lang_of("de") == "de"
    assert lang_of(discord.Locale.british_english) == "en"
    assert lang_of(discord.Locale.french) == "en"
    assert lang_of(None) == "en"
    with pytest.raises(KeyError):
        t("en", "common.no_such_key")


async def test_translator_gives_german_only_for_keyed_texts() -> None:
    translator = Translator()
    keyed = command_text("common.seat_1")
    context = app_commands.TranslationContext(
        location=app_commands.TranslationContextLocation.other, data=None
    )
    assert keyed.message == "East"
    assert await translator.translate(keyed, discord.Locale.german, context) == "Ost"
    assert await translator.translate(keyed, discord.Locale.french, context) is None
    plain = app_commands.locale_str("East")
    assert await translator.translate(plain, discord.Locale.german, context) is None


def test_the_parsed_catalogue_is_kept_and_read_back_while_its_texts_stay_the_same(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A start reads the catalogue as an earlier one parsed it while the texts are the
    same; a changed text, a damaged or unwritable file: it parses, and says the same."""
    files = [("area", '[hello]\nen = "Hello"\nde = "Hallo"\n')]
    kept = tmp_path / "__pycache__" / "catalogue.marshal"
    first = i18n.parsed(files, kept)
    assert first == {"area.hello": {"en": "Hello", "de": "Hallo"}}
    assert kept.exists() and list(kept.parent.iterdir()) == [kept]  # nothing half-written

    def refuse(text: str) -> object:
        raise AssertionError("parsed again")

    with monkeypatch.context() as patched:
        patched.setattr(i18n.tomllib, "loads", refuse)
        assert i18n.parsed(files, kept) == first  # read back, not parsed

    changed = [("area", '[hello]\nen = "Hi"\nde = "Hallo"\n')]
    assert i18n.parsed(changed, kept) == {"area.hello": {"en": "Hi", "de": "Hallo"}}
    kept.write_bytes(b"\x00damaged")
    assert i18n.parsed(files, kept) == first
    blocked = tmp_path / "file"
    blocked.write_text("not a folder")
    assert i18n.parsed(files, blocked / "catalogue.marshal") == first
    assert i18n.parsed(files) == first  # nowhere to keep it


def test_the_bot_catalogue_read_back_is_the_one_parsed() -> None:
    """The bot's catalogue, kept by one start and read back by the next, is its files'."""
    folder = Path(i18n.__file__).parent / "locales"
    files = [(path.stem, path.read_text("utf-8")) for path in sorted(folder.glob("*.toml"))]
    fresh = i18n.parsed(files)
    i18n.catalogue.__wrapped__()  # keeps it, where it can
    read_back = i18n.catalogue.__wrapped__()
    assert {key: read_back[key] for key in fresh} == fresh
