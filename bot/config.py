"""The bot's settings: a TOML file plus the environment, validated by pydantic-settings.

Precedence, highest first: keyword arguments (tests, embedding), environment variables
(``DISCORD_TOKEN``, and ``PARLOUR_<KEY>`` for any other key, e.g. ``PARLOUR_DATABASE``), then
the TOML file. Every key is documented in ``config.example.toml``.

The project was first called after its first game, Dupe: ``DUPE_<KEY>`` variables are still
read, each with one warning line naming its new name. An environment variable with either
prefix that names no setting stops the bot, as an unknown key in the file does: a typo such
as ``PARLOUR_TURN_SECOND`` must not go unnoticed.
"""

from __future__ import annotations

import difflib
import json
import os
import re
import sys
import tomllib
from collections.abc import Callable, Mapping
from contextvars import ContextVar
from pathlib import Path
from typing import Any, Literal
from urllib.parse import urlsplit

from pydantic import (
    AliasChoices,
    Field,
    SecretStr,
    ValidationError,
    ValidationInfo,
    field_validator,
    model_validator,
)
from pydantic.fields import FieldInfo
from pydantic_settings import (
    BaseSettings,
    PydanticBaseSettingsSource,
    SettingsConfigDict,
    TomlConfigSettingsSource,
)

from bot.store.location import parse_database

__all__ = ["ConfigError", "Settings", "load_settings"]

DISCORD_API = "https://discord.com/api/v10"
DISCORD_GATEWAY = "wss://gateway.discord.gg/"
ENV_PREFIX = "PARLOUR_"
LEGACY_PREFIX = "DUPE_"  # the project's first name; still read, with a warning
_TOKEN_PARTS = (("first", 18), ("second", 4), ("third", 20))  # a part's name, least length
_TOKEN_CHARACTER = re.compile(r"[A-Za-z0-9_\-]")
_TOKEN_VARIABLES = ("DISCORD_TOKEN", "PARLOUR_TOKEN", "DUPE_TOKEN")  # the first set wins
# Values the environment gives as JSON, with the form an error message shows.
_JSON_FORMS = {"shard_ids": "[0]", "computer_level": '{"whist": "basic"}'}
_toml_file: ContextVar[Path | None] = ContextVar("_toml_file", default=None)
_notes: ContextVar[list[str] | None] = ContextVar("_notes", default=None)


class ConfigError(Exception):
    """Settings that cannot be used; ``str()`` is one sentence for stderr."""


def _note(text: str) -> None:
    """Keep a warning for :func:`load_settings` to show (nothing when none is loading)."""
    notes = _notes.get()
    if notes is not None and text not in notes:
        notes.append(text)


class Settings(BaseSettings):
    """Everything the bot can be configured with."""

    model_config = SettingsConfigDict(
        env_prefix=ENV_PREFIX,
        extra="forbid",
        populate_by_name=True,
        validate_default=True,
    )

    # `token` itself is accepted by name (TOML, keywords), not as an environment variable:
    # an unrelated TOKEN variable must never be sent to Discord.
    token: SecretStr = Field(
        validation_alias=AliasChoices(*_TOKEN_VARIABLES),
        description="The bot token from the Discord developer portal.",
    )
    database: Path | str = Field(
        default=Path("parlour.sqlite3"),
        description=(
            "Where the data lives: the path of an SQLite file (or sqlite:///PATH), or a "
            "PostgreSQL URL, postgresql://USER:PASSWORD@HOST:PORT/DATABASE."
        ),
    )
    dev_guild_id: int | None = Field(
        default=None,
        gt=0,
        description="Sync slash commands to this one server instantly (for development).",
    )
    turn_seconds: int = Field(
        default=120,
        ge=15,
        le=86_400,
        description=(
            "Default time a player has for each decision before a computer acts. Unset, a "
            "game whose rules fix a turn time uses its own (Dukes Up!: 180 s), the others 120 s."
        ),
    )
    computer_level: dict[str, str] = Field(
        default_factory=dict,
        description=(
            "Default level of the computer players filling empty seats, per game (a table "
            "of game = level; one level for every game that has it). A game not named plays "
            "expert if it has that level, else its own default."
        ),
    )
    late_interaction_seconds: float = Field(
        default=2.5,
        ge=0,
        le=3,
        description=(
            "A click or command older than this when the bot gets to it (measured by the "
            "bot: how much slower than the quickest recent one it arrived, plus how long it "
            "waited in the bot; the host clock does not matter) is left alone, unanswered "
            "and without effect: Discord stops waiting for an answer at 3 s and tells the "
            "member it failed. An overloaded bot then catches up instead of spending its "
            "time on clicks nobody can see answered. 0: never."
        ),
    )
    table_edit_seconds: float = Field(
        default=1.5,
        ge=0,
        le=60,
        description=(
            "How long a table message waits after a change before it is edited; the changes "
            "made meanwhile show in the same edit (Discord allows about 5 edits per 5 s in a "
            "channel)."
        ),
    )
    global_requests_per_second: float = Field(
        default=45,
        gt=0,
        le=100_000,
        description=(
            "Requests a second the whole bot makes to Discord besides answering clicks and "
            "commands (posts, table message edits), every process together: Discord allows "
            "a bot 50 (more if it grants a higher limit). Processes each running a slice of "
            "the shards take the share of their shards. Past it, table messages are edited "
            "less often: owed posts and turn changes go first."
        ),
    )
    table_token_seconds: float = Field(
        default=840,
        ge=0,
        le=840,
        description=(
            "How long after /<game> start, Rematch or a click on a lobby button the bot "
            "edits the table message through that interaction's token, which Discord does "
            "not count against its global limit; then through the channel, counted. "
            "Discord's tokens work 15 minutes; the default, 14 minutes, keeps a minute's "
            "margin. Lower it only to test (0: never)."
        ),
    )
    lobby_idle_minutes: float = Field(
        default=30,
        ge=0,
        le=7 * 24 * 60,
        description=(
            "A lobby nobody has joined, left or started for this long closes and says so "
            "(0: lobbies never expire)."
        ),
    )
    lobbies_per_member: int = Field(
        default=3,
        ge=0,
        le=1000,
        description="How many open lobbies one member may host at once in a server (0: any).",
    )
    lobbies_per_server: int = Field(
        default=25,
        ge=0,
        le=100_000,
        description="How many open lobbies a server may have at once (0: any).",
    )
    removed_grace_minutes: float = Field(
        default=60,
        ge=0,
        le=30 * 24 * 60,
        description=(
            "When the bot is removed from a server, its tables there wait this long for it "
            "to be added back (their timers stopped), then are abandoned without scores."
        ),
    )
    pictures: bool = Field(
        default=True,
        description="Whether new tables show pictures as well as text (unless a server's "
        "defaults or /dupe start say otherwise).",
    )
    suit_emojis: bool = Field(
        default=True,
        description=(
            "Show ♠ ♥ ♦ ♣ as the application's own emojis (a pip on a small white card, "
            "registered once at start-up), which read on Discord's dark and light themes; "
            "until they are registered, or if Discord refuses them, as the outline suits "
            "♤ ♡ ♢ ♧. false: as written, Discord's own suit emoji (♠ and ♣ near-black on "
            "the dark theme)."
        ),
    )
    drawing_process: bool = Field(
        default=True,
        description=(
            "Draw pictures in one child process of the bot (the default): drawing in a "
            "thread holds the interpreter's lock for milliseconds at a time, and clicks "
            "wait meanwhile. false draws in a thread of the bot process (one process less, "
            "for a host with one core or little memory)."
        ),
    )
    api_base_url: str = Field(
        default=DISCORD_API,
        description=(
            "Base URL of Discord's HTTP API (change it only for an HTTP proxy, such as a "
            "shared rate-limit proxy, or a test Discord)."
        ),
    )
    gateway_url: str = Field(
        default=DISCORD_GATEWAY,
        description="URL of Discord's gateway WebSocket (change it only for a test Discord).",
    )
    shard_count: int | None = Field(
        default=None,
        ge=1,
        le=4096,
        description="Total number of shards across all processes (unset: one process, no shards).",
    )
    shard_ids: list[int] | None = Field(
        default=None,
        description="The shards this process runs (needs shard_count; unset: all of them).",
    )
    log_level: Literal["DEBUG", "INFO", "WARNING", "ERROR"] = Field(
        default="INFO", description="How much the bot writes to its log."
    )

    @field_validator("token")
    @classmethod
    def _token_shape(cls, value: SecretStr) -> SecretStr:
        secret = value.get_secret_value().strip()
        if not secret:
            raise ValueError("the Discord token is empty")
        if secret.lower().startswith("bot "):
            secret = secret[4:].strip()
        problem = token_problem(secret)
        if problem is not None:
            raise ValueError(
                f"the Discord token is malformed: {problem} (copy it again from the developer "
                "portal: Applications → your app → Bot → Reset Token)"
            )
        return SecretStr(secret)

    @field_validator("computer_level", mode="before")
    @classmethod
    def _levels(cls, value: Any) -> Any:
        from engine import games

        if isinstance(value, str):
            having = [game for game in games.GAMES if value in game.levels]
            if not having:
                raise ValueError(f"“{value}” is no game's level ({_levels_of(games.GAMES)})")
            for game in games.GAMES:
                if value not in game.levels:
                    _note(
                        f"computer_level “{value}” is not a level of {game.name} "
                        f"({', '.join(game.levels)}): its tables keep {_default_level(game)}."
                    )
            return {game.name: value for game in having}
        if isinstance(value, Mapping):
            for name, level in value.items():
                try:
                    game = games.get(str(name))
                except KeyError:
                    raise ValueError(
                        f"there is no game “{name}” (games: {', '.join(games.names())})"
                    ) from None
                if level not in game.levels:
                    raise ValueError(
                        f"“{level}” is not a level of {name} ({', '.join(game.levels)})"
                    )
        return value

    @field_validator("computer_level", mode="after")
    @classmethod
    def _every_level(cls, value: dict[str, str]) -> dict[str, str]:
        from engine import games

        levels: dict[str, str] = {}
        for game in games.GAMES:
            # A game of a family (whist_duplicate) plays as its family (whist) is set.
            family = value.get(game.name.partition("_")[0])
            if game.name in value:
                levels[game.name] = value[game.name]
            elif family in game.levels:
                levels[game.name] = str(family)
            else:
                levels[game.name] = _default_level(game)
        return levels

    def level_for(self, game: str) -> str | None:
        """Return the configured level of ``game``'s computer players (``None``: a game
        the bot did not know when it read its settings, which then plays its own default)."""
        return self.computer_level.get(game)

    @field_validator("api_base_url", "gateway_url")
    @classmethod
    def _url(cls, value: str, info: ValidationInfo) -> str:
        schemes = ("http", "https") if info.field_name == "api_base_url" else ("ws", "wss")
        parsed = urlsplit(value.strip())
        if parsed.scheme not in schemes or not parsed.hostname:
            raise ValueError(f"it must be a {' or '.join(schemes)} URL with a host")
        return value.strip().rstrip("/") if info.field_name == "api_base_url" else value.strip()

    @model_validator(mode="after")
    def _shards(self) -> Settings:
        if self.shard_ids is not None:
            if self.shard_count is None:
                raise ValueError("shard_ids needs shard_count")
            if not self.shard_ids or len(set(self.shard_ids)) != len(self.shard_ids):
                raise ValueError("shard_ids must be distinct shard numbers")
            if any(not 0 <= shard < self.shard_count for shard in self.shard_ids):
                raise ValueError(f"shard_ids must lie between 0 and {self.shard_count - 1}")
        return self

    @field_validator("database", mode="before")
    @classmethod
    def _database(cls, value: Any) -> Any:
        # A path stays a Path (Path("") would be "."), a PostgreSQL URL a str; the message
        # of a bad URL shows it without its password.
        if isinstance(value, str | Path):
            return parse_database(value)
        return value

    @field_validator("database", mode="after")
    @classmethod
    def _first_name(cls, value: Path | str) -> Path | str:
        # The bot's file was dupe.sqlite3 before the project was renamed: a bot upgraded
        # in place keeps its games rather than starting an empty parlour.sqlite3 beside it.
        if isinstance(value, Path) and value.name == "parlour.sqlite3" and not value.exists():
            legacy = value.with_name("dupe.sqlite3")
            if legacy.exists():
                _note(
                    f"{value} does not exist: the bot uses {legacy}, its file before it was "
                    f"renamed (set database to keep it, or rename the file)."
                )
                return legacy
        return value

    @classmethod
    def settings_customise_sources(
        cls,
        settings_cls: type[BaseSettings],
        init_settings: PydanticBaseSettingsSource,
        env_settings: PydanticBaseSettingsSource,
        dotenv_settings: PydanticBaseSettingsSource,
        file_secret_settings: PydanticBaseSettingsSource,
    ) -> tuple[PydanticBaseSettingsSource, ...]:
        sources: list[PydanticBaseSettingsSource] = [init_settings, _Environment(settings_cls)]
        toml_path = _toml_file.get()
        if toml_path is not None:
            sources.append(TomlConfigSettingsSource(settings_cls, toml_file=toml_path))
        return tuple(sources)


def token_problem(secret: str) -> str | None:
    """Return what keeps ``secret`` from being a bot token's shape, without repeating any
    of it (``None``: it has the shape)."""
    parts = secret.split(".")
    if len(parts) != 3:
        return f"it has {len(parts)} part{'s' * (len(parts) != 1)} separated by dots, not three"
    for part, (ordinal, least) in zip(parts, _TOKEN_PARTS, strict=True):
        odd = sorted({c for c in part if not _TOKEN_CHARACTER.fullmatch(c)})
        if odd:
            shown = " ".join("a space" if c.isspace() else f"“{c}”" for c in odd[:3])
            return f"its {ordinal} part has {shown}, which a token never has"
        if len(part) < least:
            return (
                f"its {ordinal} part is {len(part)} character{'s' * (len(part) != 1)} long; "
                f"a bot token's has at least {least}"
            )
    return None


def _default_level(game: Any) -> str:
    """Return the level a game's computers play when the settings name none for it."""
    return "expert" if "expert" in game.levels else str(game.default_level)


def _levels_of(games: list[Any]) -> str:
    return "; ".join(f"{game.name}: {', '.join(game.levels)}" for game in games)


def _variables(environ: Mapping[str, str]) -> dict[str, tuple[str, str]]:
    """Return the settings' variables set in ``environ`` by what they set (a key, or
    ``computer_level__<game>``): the variable's name and value. Raise :class:`ConfigError`
    for a variable of the bot's prefixes that names no setting."""
    found: dict[str, tuple[str, str]] = {}
    fields = [name for name in Settings.model_fields if name != "token"]
    for name in sorted(environ, key=lambda n: n.upper().startswith(LEGACY_PREFIX)):
        upper = name.upper()
        if upper == "DISCORD_TOKEN":
            continue  # the token's own name, read with its aliases
        prefix = next((p for p in (ENV_PREFIX, LEGACY_PREFIX) if upper.startswith(p)), None)
        if prefix is None:
            continue
        rest = upper[len(prefix) :].lower()
        key, _, game = rest.partition("__")
        if rest == "token":
            continue
        if key not in fields or (game and key != "computer_level"):
            close = difflib.get_close_matches(rest, [*fields, "token"], n=1)
            hint = f" (did you mean {prefix}{close[0].upper()}?)" if close else ""
            raise ConfigError(
                f"The environment variable {name} is not a setting{hint}; "
                "see config.example.toml for the settings."
            )
        if rest in found:  # the new name is set as well: it wins
            _note(f"{name} is ignored: {found[rest][0]} is set.")
            continue
        if prefix == LEGACY_PREFIX:
            _note(f"{name} is read as {ENV_PREFIX}{upper[len(prefix) :]}: please rename it.")
        found[rest] = (name, environ[name])
    return found


class _Environment(PydanticBaseSettingsSource):
    """The settings in the environment: ``PARLOUR_<KEY>`` (or, as before the project's
    rename, ``DUPE_<KEY>``), ``DISCORD_TOKEN``; ``PARLOUR_COMPUTER_LEVEL__<GAME>`` sets one
    game's level. A list or table is written as JSON (``PARLOUR_SHARD_IDS='[0]'``)."""

    def get_field_value(self, field: FieldInfo, field_name: str) -> tuple[Any, str, bool]:
        return None, field_name, False  # all of it is read in __call__

    def __call__(self) -> dict[str, Any]:
        values: dict[str, Any] = {}
        for token_name in _TOKEN_VARIABLES:
            for name, value in os.environ.items():
                if name.upper() == token_name and _TOKEN_VARIABLES[0] not in values:
                    # Under the field's alias, as pydantic-settings' own source gives it:
                    # the token of a lower source (the file) is given by name.
                    values[_TOKEN_VARIABLES[0]] = value
                    if token_name.startswith(LEGACY_PREFIX):
                        _note(f"{name} is read as {ENV_PREFIX}TOKEN: please rename it.")
        levels: dict[str, str] = {}
        for key, (_name, value) in _variables(os.environ).items():
            if key.startswith("computer_level__"):
                levels[key.partition("__")[2]] = value
            elif key in _JSON_FORMS and value.lstrip()[:1] in ("[", "{"):
                try:
                    values[key] = json.loads(value)
                except json.JSONDecodeError:
                    values[key] = value  # refused by the field, with its form
            else:
                values[key] = value
        if levels:
            if "computer_level" in values:
                raise ConfigError(
                    f"Set either {ENV_PREFIX}COMPUTER_LEVEL or {ENV_PREFIX}COMPUTER_LEVEL__<GAME> "
                    "in the environment, not both."
                )
            values["computer_level"] = levels
        return values


def _variable(key: str) -> str | None:
    """Return the environment variable that set ``key``, if one did."""
    if key == "token":
        names = [n for t in _TOKEN_VARIABLES for n in os.environ if n.upper() == t]
        return names[0] if names else None
    try:
        found = _variables(os.environ)
    except ConfigError:
        return None
    if key in found:
        return found[key][0]
    return next((name for k, (name, _) in found.items() if k.startswith(f"{key}__")), None)


def _origin(key: str, config: Path | None, overrides: dict[str, Any]) -> str:
    """Return where the value of ``key`` came from, as the start of an error sentence."""
    if key in overrides:
        return "settings"
    variable = _variable(key.partition(".")[0])
    if variable is not None:
        return f"the environment variable {variable}"
    return str(config) if config is not None else "settings"


def _form(key: str, config: Path | None, overrides: dict[str, Any]) -> str:
    """Return how a list or table value is written where ``key`` came from."""
    form = _JSON_FORMS.get(key)
    if form is None or key in overrides:
        return ""
    variable = _variable(key)
    if variable is not None and "__" not in variable:
        return f" (write it as JSON: {variable}='{form}')"
    if key == "shard_ids" and variable is None:
        return " (write it as a list: shard_ids = [0])"
    return ""


def _describe(error: ValidationError, config: Path | None, overrides: dict[str, Any]) -> str:
    errors = error.errors()
    first = next((e for e in errors if e["type"] == "extra_forbidden"), errors[0])
    loc = ".".join(str(part) for part in first["loc"]) or "settings"
    if loc.upper() in _TOKEN_VARIABLES:
        loc = "token"
    kind = first["type"]
    if kind == "extra_forbidden":
        origin = str(config) if config is not None else "settings"
        return f"{origin}: unknown key “{loc}” (see config.example.toml for the keys)."
    if kind == "missing" and loc == "token":
        return (
            "No Discord token: set the DISCORD_TOKEN environment variable or `token` in "
            f"{config or 'config.toml'} (see docs/operating.md: “Create the application and "
            "token”)."
        )
    message = str(first["msg"])
    message = message.removeprefix("Value error, ")
    if not first["loc"]:  # a rule across keys
        return f"{config if config is not None else 'settings'}: {message}."
    key = "token" if loc == "token" else str(first["loc"][0])
    if kind in ("list_type", "dict_type"):
        message += _form(key, config, overrides)
    return f"{_origin(key, config, overrides)}: bad value for “{loc}”: {message}."


def _stderr(text: str) -> None:
    print(f"warning: {text}", file=sys.stderr)


def load_settings(
    config: Path | None, *, warn: Callable[[str], None] = _stderr, **overrides: Any
) -> Settings:
    """Return the settings from ``config`` (a TOML file; ``None`` for none) and the
    environment; raise :class:`ConfigError` with one sentence if they cannot be used.
    Each thing that works but should be changed (an old variable name, a level a game
    lacks) is passed to ``warn`` as one sentence (default: a line on stderr)."""
    if config is not None:
        try:
            with config.open("rb") as handle:
                tomllib.load(handle)
        except FileNotFoundError:
            raise ConfigError(f"The config file {config} does not exist.") from None
        except IsADirectoryError:
            raise ConfigError(f"The config file {config} is a directory.") from None
        except PermissionError:
            raise ConfigError(
                f"The config file {config} cannot be read (permission denied)."
            ) from None
        except tomllib.TOMLDecodeError as error:
            raise ConfigError(f"The config file {config} is not valid TOML: {error}.") from None
        except UnicodeDecodeError:
            raise ConfigError(
                f"The config file {config} is not valid TOML: it is not UTF-8 text."
            ) from None
        except OSError as error:
            raise ConfigError(
                f"The config file {config} cannot be read: {error.strerror}."
            ) from None
    token = _toml_file.set(config)
    notes: list[str] = []
    noting = _notes.set(notes)
    try:
        settings = Settings(**overrides)
    except ValidationError as error:
        raise ConfigError(_describe(error, config, overrides)) from None
    finally:
        _toml_file.reset(token)
        _notes.reset(noting)
    for note in notes:
        warn(note)
    return settings
