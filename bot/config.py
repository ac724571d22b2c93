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

from pydantic import AliasChoices, Field, SecretStr, ValidationError, field_validator
from pydantic_settings import (
    BaseSettings,
    PydanticBaseSettingsSource,
    SettingsConfigDict,
    TomlConfigSettingsSource,
)

__all__ = ["ConfigError", "Settings", "load_settings"]

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
    database: Path = Field(
        default=Path("dupe.sqlite3"), description="Path of the SQLite database file."
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
        description="Default time a player has for each decision before a computer acts.",
    )
    computer_level: Literal["random", "greedy", "expert"] = Field(
        default="expert", description="Default level of computer players filling empty seats."
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

    @field_validator("database", mode="before")
    @classmethod
    def _database_path(cls, value: Any) -> Any:
        if isinstance(value, str) and value.strip() == "":  # Path("") would be "."
            raise ValueError("the database path is empty")
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
