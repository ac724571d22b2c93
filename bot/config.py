"""The bot's settings: a TOML file plus the environment, validated by pydantic-settings.

Precedence, highest first: keyword arguments (tests, embedding), environment variables
(``DISCORD_TOKEN``, and ``DUPE_<KEY>`` for any other key, e.g. ``DUPE_DATABASE``), then the
TOML file. Every key is documented in ``config.example.toml``.
"""

from __future__ import annotations

import os
import re
import tomllib
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
_TOKEN_PATTERN = re.compile(r"^[A-Za-z0-9_\-]{18,}\.[A-Za-z0-9_\-]{4,}\.[A-Za-z0-9_\-]{20,}$")
_TOKEN_VARIABLES = ("DISCORD_TOKEN", "DUPE_TOKEN")
_toml_file: ContextVar[Path | None] = ContextVar("_toml_file", default=None)


class ConfigError(Exception):
    """Settings that cannot be used; ``str()`` is one sentence for stderr."""


class Settings(BaseSettings):
    """Everything the bot can be configured with."""

    model_config = SettingsConfigDict(
        env_prefix="DUPE_",
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
        default=Path("dupe.sqlite3"),
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
    computer_level: Literal["random", "greedy", "expert"] = Field(
        default="expert", description="Default level of computer players filling empty seats."
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
        if not _TOKEN_PATTERN.match(secret):
            raise ValueError(
                "the Discord token is malformed (a bot token has three parts separated by dots)"
            )
        return SecretStr(secret)

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

    @classmethod
    def settings_customise_sources(
        cls,
        settings_cls: type[BaseSettings],
        init_settings: PydanticBaseSettingsSource,
        env_settings: PydanticBaseSettingsSource,
        dotenv_settings: PydanticBaseSettingsSource,
        file_secret_settings: PydanticBaseSettingsSource,
    ) -> tuple[PydanticBaseSettingsSource, ...]:
        sources: list[PydanticBaseSettingsSource] = [init_settings, env_settings]
        toml_path = _toml_file.get()
        if toml_path is not None:
            sources.append(TomlConfigSettingsSource(settings_cls, toml_file=toml_path))
        return tuple(sources)


def _origin(key: str, config: Path | None, overrides: dict[str, Any]) -> str:
    """Return where the value of ``key`` came from, as the start of an error sentence."""
    if key in overrides:
        return "settings"
    names = _TOKEN_VARIABLES if key == "token" else (f"DUPE_{key.upper()}",)
    for name in names:
        if any(variable.upper() == name for variable in os.environ):
            return f"the environment variable {name}"
    return str(config) if config is not None else "settings"


def _describe(error: ValidationError, config: Path | None, overrides: dict[str, Any]) -> str:
    errors = error.errors()
    first = next((e for e in errors if e["type"] == "extra_forbidden"), errors[0])
    loc = ".".join(str(part) for part in first["loc"]) or "settings"
    if loc in _TOKEN_VARIABLES:
        loc = "token"
    kind = first["type"]
    if kind == "extra_forbidden":
        origin = str(config) if config is not None else "settings"
        return f"{origin}: unknown key “{loc}” (see config.example.toml for the keys)."
    if kind == "missing" and loc == "token":
        return (
            "No Discord token: set the DISCORD_TOKEN environment variable or `token` in "
            f"{config or 'config.toml'} (see README: “Create the application and token”)."
        )
    message = str(first["msg"])
    message = message.removeprefix("Value error, ")
    if not first["loc"]:  # a rule across keys
        return f"{config if config is not None else 'settings'}: {message}."
    return f"{_origin(loc, config, overrides)}: bad value for “{loc}”: {message}."


def load_settings(config: Path | None, **overrides: Any) -> Settings:
    """Return the settings from ``config`` (a TOML file; ``None`` for none) and the
    environment; raise :class:`ConfigError` with one sentence if they cannot be used."""
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
    try:
        return Settings(**overrides)
    except ValidationError as error:
        raise ConfigError(_describe(error, config, overrides)) from None
    finally:
        _toml_file.reset(token)
