"""Settings: a TOML file plus the environment, every failure one sentence."""

from __future__ import annotations

import logging
import os
from pathlib import Path

import pytest
from pydantic import ValidationError

from bot.config import ConfigError, Settings, load_settings

TOKEN = "MTIzNDU2Nzg5MDEyMzQ1Njc4.GaBcDe.abcdefghijklmnopqrstuvwxyz012345"
OTHER = "OTk5OTk5OTk5OTk5OTk5OTk5.XyZabc.zyxwvutsrqponmlkjihgfedcba987654"
EXAMPLE = Path(__file__).parents[2] / "config.example.toml"
DEFAULT_LEVELS = {
    "dupe": "expert",
    "doppelkopf": "expert",
    "whist": "expert",
    "dukes_up": "expert",
    "whist_duplicate": "expert",
}
ALL_RANDOM = dict.fromkeys(DEFAULT_LEVELS, "random")
KEYS = (  # every key but the token
    "database",
    "dev_guild_id",
    "turn_seconds",
    "computer_level",
    "table_edit_seconds",
    "global_requests_per_second",
    "late_interaction_seconds",
    "table_token_seconds",
    "lobby_idle_minutes",
    "lobbies_per_member",
    "lobbies_per_server",
    "removed_grace_minutes",
    "pictures",
    "suit_emojis",
    "drawing_process",
    "api_base_url",
    "gateway_url",
    "shard_count",
    "shard_ids",
    "log_level",
)


@pytest.fixture(autouse=True)
def clean_environment(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """No DISCORD_TOKEN, PARLOUR_* or DUPE_* from the machine running the tests; cwd a tmp dir."""
    for name in list(os.environ):
        if name.upper().startswith(("PARLOUR_", "DUPE_")) or name.upper() in (
            "DISCORD_TOKEN",
            "TOKEN",
        ):
            monkeypatch.delenv(name)
    monkeypatch.chdir(tmp_path)


def values(settings: Settings) -> dict[str, object]:
    """Return the value of every key in ``KEYS`` (all but the secret token), by key."""
    return {key: getattr(settings, key) for key in KEYS}


def toml(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "config.toml"
    path.write_text(text, encoding="utf-8")
    return path


def refusal(config: Path | None = None, **overrides: object) -> str:
    """Return the one sentence load_settings refuses with."""
    with pytest.raises(ConfigError) as caught:
        load_settings(config, **overrides)
    text = str(caught.value)
    assert "\n" not in text and text.endswith("."), text
    assert "pydantic" not in text and "validation error" not in text, text
    return text


# --- where values come from ----------------------------------------------------------


def test_defaults_with_only_a_token(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", TOKEN)
    settings = load_settings(None)
    assert settings.token.get_secret_value() == TOKEN
    assert values(settings) == {
        "database": Path("parlour.sqlite3"),
        "dev_guild_id": None,
        "turn_seconds": 120,
        "computer_level": DEFAULT_LEVELS,
        "table_edit_seconds": 1.5,
        "global_requests_per_second": 45,
        "late_interaction_seconds": 2.5,
        "table_token_seconds": 840,
        "lobby_idle_minutes": 30,
        "lobbies_per_member": 3,
        "lobbies_per_server": 25,
        "removed_grace_minutes": 60,
        "pictures": True,
        "suit_emojis": True,
        "drawing_process": True,
        "api_base_url": "https://discord.com/api/v10",
        "gateway_url": "wss://gateway.discord.gg/",
        "shard_count": None,
        "shard_ids": None,
        "log_level": "INFO",
    }


@pytest.mark.parametrize(
    ("text", "environment", "expected"),
    [
        pytest.param(
            f'token = "{TOKEN}"\n'
            'database = "/data/games.sqlite3"\n'
            "dev_guild_id = 123456789012345678\n"
            "turn_seconds = 45\n"
            'computer_level = "greedy"\n'
            "table_edit_seconds = 0\n"
            "global_requests_per_second = 200\n"
            "late_interaction_seconds = 0\n"
            "table_token_seconds = 60\n"
            "lobby_idle_minutes = 0\n"
            "lobbies_per_member = 1\n"
            "lobbies_per_server = 0\n"
            "removed_grace_minutes = 1440\n"
            "pictures = false\n"
            "suit_emojis = false\n"
            "drawing_process = false\n"
            'api_base_url = "http://127.0.0.1:8080/api/v10/"\n'
            'gateway_url = "ws://127.0.0.1:8080/gateway"\n'
            "shard_count = 4\n"
            "shard_ids = [1, 3]\n"
            'log_level = "DEBUG"\n',
            {},
            {
                "database": Path("/data/games.sqlite3"),
                "dev_guild_id": 123456789012345678,
                "turn_seconds": 45,
                "computer_level": {**DEFAULT_LEVELS, "dupe": "greedy"},
                "table_edit_seconds": 0,
                "global_requests_per_second": 200,
                "late_interaction_seconds": 0,
                "table_token_seconds": 60,
                "lobby_idle_minutes": 0,
                "lobbies_per_member": 1,
                "lobbies_per_server": 0,
                "removed_grace_minutes": 1440,
                "pictures": False,
                "suit_emojis": False,
                "drawing_process": False,
                "api_base_url": "http://127.0.0.1:8080/api/v10",
                "gateway_url": "ws://127.0.0.1:8080/gateway",
                "shard_count": 4,
                "shard_ids": [1, 3],
                "log_level": "DEBUG",
            },
            id="toml file",
        ),
        pytest.param(
            None,
            {
                "DISCORD_TOKEN": TOKEN,
                "PARLOUR_DATABASE": "/data/env.sqlite3",
                "PARLOUR_DEV_GUILD_ID": "42",
                "PARLOUR_TURN_SECONDS": "300",
                "PARLOUR_COMPUTER_LEVEL": "random",
                "PARLOUR_TABLE_EDIT_SECONDS": "2.5",
                "PARLOUR_GLOBAL_REQUESTS_PER_SECOND": "22.5",
                "PARLOUR_LATE_INTERACTION_SECONDS": "2",
                "PARLOUR_TABLE_TOKEN_SECONDS": "300",
                "PARLOUR_LOBBY_IDLE_MINUTES": "90",
                "PARLOUR_LOBBIES_PER_MEMBER": "5",
                "PARLOUR_LOBBIES_PER_SERVER": "100",
                "PARLOUR_REMOVED_GRACE_MINUTES": "5",
                "PARLOUR_PICTURES": "false",
                "PARLOUR_SUIT_EMOJIS": "false",
                "PARLOUR_DRAWING_PROCESS": "false",
                "PARLOUR_API_BASE_URL": "https://proxy.example/api/v10",
                "PARLOUR_GATEWAY_URL": "wss://gateway.example/",
                "PARLOUR_SHARD_COUNT": "2",
                "PARLOUR_SHARD_IDS": "[0]",
                "PARLOUR_LOG_LEVEL": "WARNING",
            },
            {
                "database": Path("/data/env.sqlite3"),
                "dev_guild_id": 42,
                "turn_seconds": 300,
                "computer_level": ALL_RANDOM,
                "table_edit_seconds": 2.5,
                "global_requests_per_second": 22.5,
                "late_interaction_seconds": 2,
                "table_token_seconds": 300,
                "lobby_idle_minutes": 90,
                "lobbies_per_member": 5,
                "lobbies_per_server": 100,
                "removed_grace_minutes": 5,
                "pictures": False,
                "suit_emojis": False,
                "drawing_process": False,
                "api_base_url": "https://proxy.example/api/v10",
                "gateway_url": "wss://gateway.example/",
                "shard_count": 2,
                "shard_ids": [0],
                "log_level": "WARNING",
            },
            id="environment",
        ),
    ],
)
def test_every_key_from_a_toml_file_or_the_environment(
    text: str | None,
    environment: dict[str, str],
    expected: dict[str, object],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    for name, value in environment.items():
        monkeypatch.setenv(name, value)
    settings = load_settings(None if text is None else toml(tmp_path, text))
    assert settings.token.get_secret_value() == TOKEN
    assert values(settings) == expected


def test_parlour_token_is_the_second_name_for_the_token(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PARLOUR_TOKEN", TOKEN)
    assert load_settings(None).token.get_secret_value() == TOKEN
    monkeypatch.setenv("DISCORD_TOKEN", OTHER)
    assert load_settings(None).token.get_secret_value() == OTHER


def test_precedence_keywords_then_environment_then_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    config = toml(tmp_path, f'token = "{TOKEN}"\nturn_seconds = 30\ncomputer_level = "random"\n')
    assert load_settings(config).turn_seconds == 30
    monkeypatch.setenv("PARLOUR_TURN_SECONDS", "60")
    monkeypatch.setenv("DISCORD_TOKEN", OTHER)
    settings = load_settings(config)
    assert settings.turn_seconds == 60
    assert settings.token.get_secret_value() == OTHER
    assert settings.computer_level == ALL_RANDOM  # not in the environment: the file's
    settings = load_settings(config, turn_seconds=90, token=TOKEN)
    assert settings.turn_seconds == 90
    assert settings.token.get_secret_value() == TOKEN


def test_an_unrelated_token_variable_is_never_used(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TOKEN", TOKEN)
    assert refusal().startswith("No Discord token")


def test_the_token_is_cleaned_and_kept_secret() -> None:
    settings = Settings(token=f"  Bot {TOKEN}\n")
    assert settings.token.get_secret_value() == TOKEN
    assert TOKEN not in repr(settings) and TOKEN not in str(settings)
    assert TOKEN not in settings.model_dump_json()


def test_settings_take_every_key_as_keyword(tmp_path: Path) -> None:
    settings = Settings(
        token=TOKEN,
        database=tmp_path / "x.sqlite3",
        dev_guild_id=7,
        turn_seconds=15,
        computer_level="random",
        table_edit_seconds=60,
        pictures=True,
        api_base_url="http://127.0.0.1:1/api/v10",
        gateway_url="ws://127.0.0.1:1/",
        shard_count=2,
        shard_ids=[0, 1],
        log_level="ERROR",
    )
    assert settings.database == tmp_path / "x.sqlite3"
    assert (settings.dev_guild_id, settings.turn_seconds) == (7, 15)
    assert set(Settings.model_fields) == {"token", *KEYS}


@pytest.mark.parametrize(
    ("key", "value"),
    [
        ("turn_seconds", 14),
        ("turn_seconds", 86_401),
        ("turn_seconds", "fast"),
        ("table_edit_seconds", -1),
        ("table_edit_seconds", 61),
        ("global_requests_per_second", 0),
        ("global_requests_per_second", "fast"),
        ("late_interaction_seconds", 4),
        ("dev_guild_id", 0),
        ("computer_level", "genius"),
        ("log_level", "LOUD"),
        ("api_base_url", "ftp://discord.com/api"),
        ("api_base_url", "discord.com/api/v10"),
        ("gateway_url", "https://gateway.discord.gg/"),
        ("shard_count", 0),
        ("database", ""),
        ("token", "not-a-token"),
        ("colour", "green"),
    ],
)
def test_keywords_are_validated_like_the_file(tmp_path: Path, key: str, value: object) -> None:
    keywords: dict[str, object] = {"token": TOKEN, key: value}
    with pytest.raises(ValidationError):
        Settings(**keywords)  # type: ignore[arg-type]
    text = f"{key} = {value!r}\n".replace("'", '"')
    if key != "token":
        text += f'token = "{TOKEN}"\n'
    refusal(toml(tmp_path, text))


# --- refusals, each one sentence ------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "sentence"),
    [
        ("shard_ids = [0]\n", "shard_ids needs shard_count."),
        ("shard_count = 2\nshard_ids = [2]\n", "shard_ids must lie between 0 and 1."),
        ("shard_count = 2\nshard_ids = [1, 1]\n", "shard_ids must be distinct shard numbers."),
        ("shard_count = 2\nshard_ids = []\n", "shard_ids must be distinct shard numbers."),
    ],
)
def test_shard_slices_are_checked_together(tmp_path: Path, text: str, sentence: str) -> None:
    path = toml(tmp_path, f'token = "{TOKEN}"\n' + text)
    assert refusal(path) == f"{path}: {sentence}"


def test_a_bad_url_names_its_key(tmp_path: Path) -> None:
    path = toml(tmp_path, f'token = "{TOKEN}"\ngateway_url = "http://x/"\n')
    assert refusal(path) == (
        f"{path}: bad value for “gateway_url”: it must be a ws or wss URL with a host."
    )


def test_no_token_says_how_to_give_one() -> None:
    text = refusal()
    assert text.startswith("No Discord token")
    assert "DISCORD_TOKEN" in text


def test_a_malformed_token_is_refused(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    assert "malformed" in refusal(token="abc.def")
    monkeypatch.setenv("DISCORD_TOKEN", "   ")
    assert "DISCORD_TOKEN" in refusal()
    monkeypatch.delenv("DISCORD_TOKEN")
    text = refusal(toml(tmp_path, 'token = "only-one-part"\n'))
    assert text.startswith(str(tmp_path / "config.toml")) and "“token”" in text
    assert "only-one-part" not in text  # a secret is never echoed


def test_an_unknown_key_is_named(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", TOKEN)
    text = refusal(toml(tmp_path, "turn_secs = 30\n"))
    assert "unknown key “turn_secs”" in text
    text = refusal(toml(tmp_path, "[dupe]\nturn_seconds = 30\n"))
    assert "unknown key “dupe”" in text


def test_a_bad_value_names_the_key_and_where_it_came_from(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", TOKEN)
    config = toml(tmp_path, "turn_seconds = 5\n")
    text = refusal(config)
    assert text.startswith(f"{config}: bad value for “turn_seconds”")
    assert "15" in text
    monkeypatch.setenv("PARLOUR_TURN_SECONDS", "fast")
    text = refusal(config)
    assert text.startswith("the environment variable PARLOUR_TURN_SECONDS: bad value for")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("turn_seconds = \n", "is not valid TOML"),
        ("turn_seconds = 30\nturn_seconds = 40\n", "is not valid TOML"),
        ('token = "unterminated\n', "is not valid TOML"),
    ],
)
def test_invalid_toml_is_refused(tmp_path: Path, text: str, expected: str) -> None:
    assert expected in refusal(toml(tmp_path, text))


def test_a_config_file_that_cannot_be_read(tmp_path: Path) -> None:
    assert "does not exist" in refusal(tmp_path / "absent.toml")
    assert "is a directory" in refusal(tmp_path)
    (tmp_path / "file").write_text("", encoding="utf-8")
    assert "cannot be read" in refusal(tmp_path / "file" / "config.toml")
    binary = tmp_path / "binary.toml"
    binary.write_bytes(b"\xff\xfe\x00token")
    assert "not valid TOML" in refusal(binary)


# --- config.example.toml ---------------------------------------------------------------


def test_the_example_loads_with_only_the_token_added(tmp_path: Path) -> None:
    text = EXAMPLE.read_text(encoding="utf-8")
    settings = load_settings(toml(tmp_path, text + f'\ntoken = "{TOKEN}"\n'))
    assert settings.token.get_secret_value() == TOKEN
    defaults = Settings(token=TOKEN)
    assert settings.model_dump(exclude={"token"}) == defaults.model_dump(exclude={"token"})


def test_the_example_documents_every_key() -> None:
    text = EXAMPLE.read_text(encoding="utf-8")
    for name in Settings.model_fields:
        assert f"{name} =" in text, f"config.example.toml does not mention {name}"


# --- the database: a path or a URL -------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "database"),
    [
        ("games.sqlite3", Path("games.sqlite3")),
        ("sqlite:///games.sqlite3", Path("games.sqlite3")),
        ("sqlite:////data/games.sqlite3", Path("/data/games.sqlite3")),
        ("postgresql://bot:pw@db.example:5432/dupe", "postgresql://bot:pw@db.example:5432/dupe"),
        ("postgres://db.example/dupe", "postgres://db.example/dupe"),
        ("postgresql:///dupe?host=/run/postgresql", "postgresql:///dupe?host=/run/postgresql"),
    ],
)
def test_the_database_is_a_path_or_a_url(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, value: str, database: Path | str
) -> None:
    assert load_settings(toml(tmp_path, f'token = "{TOKEN}"\ndatabase = "{value}"\n')).database == (
        database
    )
    monkeypatch.setenv("PARLOUR_DATABASE", value)
    assert load_settings(None, token=TOKEN).database == database


@pytest.mark.parametrize(
    ("value", "says"),
    [
        ("mysql://bot:hunter2@db.example/dupe", "“mysql://” is not a database this bot can use"),
        ("postgresql://bot:hunter2@/dupe", "postgresql://bot:***@/dupe names no server"),
        ("postgresql://bot:hunter2@db.example/", "names no database"),
        ("postgresql://bot:hunter2@db.example/a/b", "“a/b” in postgresql://bot:***@"),
        ("postgresql://bot:hunter2@db.example:99999/dupe", "is not a number from 1 to 65535"),
        ("postgresql:///dupe?password=hunter2", "postgresql:///dupe?password=*** names no server"),
        ("sqlite://host/games.sqlite3", "is not an SQLite URL"),
    ],
)
def test_a_database_url_that_cannot_work_is_one_sentence_without_its_password(
    monkeypatch: pytest.MonkeyPatch, value: str, says: str
) -> None:
    monkeypatch.setenv("PARLOUR_DATABASE", value)
    text = refusal(None, token=TOKEN)
    assert text.startswith("the environment variable PARLOUR_DATABASE: bad value for “database”")
    assert says in text and "hunter2" not in text


# --- the project's first name, typos, one level per game ---------------------------------


def _warnings(config: Path | None = None, **overrides: object) -> tuple[Settings, list[str]]:
    said: list[str] = []
    return load_settings(config, warn=said.append, **overrides), said


def test_the_first_names_of_the_settings_still_work_with_one_warning_each(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("DUPE_TOKEN", TOKEN)
    monkeypatch.setenv("DUPE_TURN_SECONDS", "45")
    monkeypatch.setenv("DUPE_SHARD_COUNT", "2")
    monkeypatch.setenv("DUPE_SHARD_IDS", "[1]")
    settings, said = _warnings()
    assert settings.token.get_secret_value() == TOKEN
    assert (settings.turn_seconds, settings.shard_ids) == (45, [1])
    assert sorted(said) == [
        "DUPE_SHARD_COUNT is read as PARLOUR_SHARD_COUNT: please rename it.",
        "DUPE_SHARD_IDS is read as PARLOUR_SHARD_IDS: please rename it.",
        "DUPE_TOKEN is read as PARLOUR_TOKEN: please rename it.",
        "DUPE_TURN_SECONDS is read as PARLOUR_TURN_SECONDS: please rename it.",
    ]


def test_a_new_name_wins_over_the_first_one(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", TOKEN)
    monkeypatch.setenv("DUPE_TURN_SECONDS", "45")
    monkeypatch.setenv("PARLOUR_TURN_SECONDS", "90")
    settings, said = _warnings()
    assert settings.turn_seconds == 90
    assert said == ["DUPE_TURN_SECONDS is ignored: PARLOUR_TURN_SECONDS is set."]


def test_settings_with_the_new_names_say_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", TOKEN)
    monkeypatch.setenv("PARLOUR_TURN_SECONDS", "90")
    assert _warnings()[1] == []


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("DUPE_TURN_SECOND", "DUPE_TURN_SECOND is not a setting (did you mean DUPE_TURN_SECONDS?)"),
        ("PARLOUR_DATABSE", "PARLOUR_DATABSE is not a setting (did you mean PARLOUR_DATABASE?)"),
        ("parlour_colour", "parlour_colour is not a setting;"),
        ("PARLOUR_TURN_SECONDS__DUPE", "PARLOUR_TURN_SECONDS__DUPE is not a setting"),
    ],
)
def test_an_unknown_environment_variable_stops_with_one_sentence(
    monkeypatch: pytest.MonkeyPatch, name: str, expected: str
) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", TOKEN)
    monkeypatch.setenv(name, "3")
    text = refusal()
    assert text.startswith(f"The environment variable {expected}"), text


def test_a_list_from_the_environment_shows_its_form(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", TOKEN)
    monkeypatch.setenv("PARLOUR_SHARD_COUNT", "2")
    for value in ("0", "0,1", "[0"):
        monkeypatch.setenv("PARLOUR_SHARD_IDS", value)
        assert refusal().endswith("(write it as JSON: PARLOUR_SHARD_IDS='[0]').")


def test_levels_are_set_per_game_and_checked_against_each_games_levels(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = toml(
        tmp_path, f'token = "{TOKEN}"\n[computer_level]\nwhist = "basic"\ndukes_up = "random"\n'
    )
    settings, said = _warnings(path)
    assert settings.computer_level == {
        **DEFAULT_LEVELS,
        "whist": "basic",
        "whist_duplicate": "basic",  # a duplicate match is whist
        "dukes_up": "random",
    }
    assert settings.level_for("whist") == "basic" and settings.level_for("chess") is None
    assert said == []
    path = toml(tmp_path, f'token = "{TOKEN}"\ncomputer_level = {{ dukes_up = "greedy" }}\n')
    assert refusal(path) == (
        f"{path}: bad value for “computer_level”: “greedy” is not a level of dukes_up "
        "(random, baseline, expert)."
    )
    path = toml(tmp_path, f'token = "{TOKEN}"\ncomputer_level = {{ chess = "expert" }}\n')
    assert "there is no game “chess” (games: dupe, doppelkopf, whist, dukes_up" in refusal(path)
    monkeypatch.setenv("PARLOUR_COMPUTER_LEVEL__DOPPELKOPF", "basic")
    settings, said = _warnings(None, token=TOKEN)
    assert settings.level_for("doppelkopf") == "basic" and said == []
    monkeypatch.setenv("PARLOUR_COMPUTER_LEVEL__DOPPELKOPF", "greedy")
    assert refusal(token=TOKEN) == (
        "the environment variable PARLOUR_COMPUTER_LEVEL__DOPPELKOPF: bad value for "
        "“computer_level”: “greedy” is not a level of doppelkopf (random, basic, expert)."
    )


def test_one_level_for_every_game_says_which_games_lack_it() -> None:
    settings, said = _warnings(None, token=TOKEN, computer_level="greedy")
    assert settings.computer_level == {**DEFAULT_LEVELS, "dupe": "greedy"}
    assert (
        "computer_level “greedy” is not a level of whist (random, basic, expert): "
        "its tables keep expert."
    ) in said
    assert (
        "computer_level “greedy” is not a level of dukes_up (random, baseline, expert): "
        "its tables keep expert."
    ) in said
    text = refusal(token=TOKEN, computer_level="genius")
    assert "“genius” is no game's level (dupe: random, greedy, expert; doppelkopf:" in text


@pytest.mark.parametrize(
    ("token", "problem"),
    [
        ("x.y.z", "its first part is 1 character long; a bot token's has at least 18"),
        ("abc.def", "it has 2 parts separated by dots, not three"),
        ("MTIzNDU2Nzg5MDEyMzQ1Njc4", "it has 1 part separated by dots, not three"),
        (TOKEN.replace(".GaBcDe.", ".Ga!De."), "its second part has “!”, which a token never has"),
        (TOKEN.replace(".GaBcDe.", ".Ga De."), "its second part has a space, which a token never"),
        (TOKEN.rsplit(".", 1)[0] + ".short", "its third part is 5 characters long"),
    ],
)
def test_a_malformed_token_is_told_what_is_wrong_with_it(token: str, problem: str) -> None:
    text = refusal(token=token)
    assert f"the Discord token is malformed: {problem}" in text, text
    assert token not in text


def test_a_bot_upgraded_in_place_keeps_its_first_database_file(tmp_path: Path) -> None:
    settings, said = _warnings(token=TOKEN)
    assert settings.database == Path("parlour.sqlite3") and said == []
    Path("dupe.sqlite3").write_bytes(b"")  # cwd is tmp_path
    settings, said = _warnings(token=TOKEN)
    assert settings.database == Path("dupe.sqlite3")
    assert said == [
        "parlour.sqlite3 does not exist: the bot uses dupe.sqlite3, its file before it was "
        "renamed (set database to keep it, or rename the file)."
    ]
    Path("parlour.sqlite3").write_bytes(b"")
    assert _warnings(token=TOKEN) == (load_settings(None, token=TOKEN), [])


def test_creating_the_bot_warns_of_no_voice_library(caplog: pytest.LogCaptureFixture) -> None:
    import discord

    from bot.app import create_bot

    discord.VoiceClient.warn_nacl = discord.VoiceClient.warn_dave = True
    with caplog.at_level(logging.WARNING):
        create_bot(Settings(token=TOKEN))
    assert not [r for r in caplog.records if "voice" in r.getMessage()]
