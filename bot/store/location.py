"""Where the data lives, as the ``database`` setting says it: a file path or ``sqlite:///PATH``
for SQLite, ``postgresql://…`` (or ``postgres://…``) for a PostgreSQL server.

A URL may carry a password, and settings end up in error sentences and logs: whatever
shows a URL shows it through :func:`masked`.
"""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

__all__ = ["POSTGRES_SCHEMES", "describe", "masked", "parse_database"]

POSTGRES_SCHEMES = ("postgresql", "postgres")
_SCHEME = re.compile(r"^([A-Za-z][A-Za-z0-9+.\-]*)://")
_URL_SHAPE = "postgresql://USER:PASSWORD@HOST:PORT/DATABASE"


def masked(url: str) -> str:
    """Return ``url`` with its password, if it has one (``user:password@`` or
    ``?password=``), replaced by ``***``; the rest as written."""
    scheme, separator, rest = url.partition("://")
    if not separator:
        return url
    ends = [i for i in (rest.find("/"), rest.find("?"), rest.find("#")) if i >= 0]
    netloc, tail = rest[: min(ends, default=len(rest))], rest[min(ends, default=len(rest)) :]
    if "@" in netloc:
        user, _, host = netloc.rpartition("@")
        if ":" in user:
            netloc = f"{user.split(':', 1)[0]}:***@{host}"
    tail = re.sub(r"([?&]password=)[^&#]*", r"\1***", tail)
    return f"{scheme}{separator}{netloc}{tail}"


def describe(database: Path | str) -> str:
    """Return the database as messages and logs may show it (a URL without its password)."""
    return masked(database) if isinstance(database, str) else str(database)


def parse_database(value: Path | str) -> Path | str:
    """Return the SQLite file a setting names (a :class:`Path`), or the PostgreSQL URL it
    names (a ``str``, as given).

    Raises ``ValueError`` with what is wrong (no trailing full stop; the URL masked) for an
    empty value, an unknown scheme, or a PostgreSQL URL without a host or database name."""
    if isinstance(value, Path):
        return value
    text = value.strip()
    if not text:
        raise ValueError("the database path is empty")
    scheme = _SCHEME.match(text)
    if scheme is None:
        return Path(text)
    name = scheme.group(1).lower()
    if name == "sqlite":
        return _sqlite_path(text)
    if name not in POSTGRES_SCHEMES:
        raise ValueError(
            f"“{name}://” is not a database this bot can use: give a file path (SQLite), "
            f"sqlite:///PATH or {_URL_SHAPE}"
        )
    _check_postgres(text)
    return text


def _sqlite_path(url: str) -> Path:
    """``sqlite:///dupe.sqlite3`` is the relative path ``dupe.sqlite3``, ``sqlite:////data/x``
    the absolute ``/data/x`` (SQLAlchemy's reading)."""
    parts = urlsplit(url)
    path = parts.path[1:] if parts.path.startswith("/") else parts.path
    if parts.netloc or not path or parts.query:
        raise ValueError(f"“{url}” is not an SQLite URL: write sqlite:///PATH or just the path")
    return Path(path)


def _check_postgres(url: str) -> None:
    parts = urlsplit(url)
    shown = masked(url)
    query = parse_qs(parts.query)
    try:
        parts.port  # noqa: B018 (reading it checks it)
    except ValueError:
        raise ValueError(f"the port of {shown} is not a number from 1 to 65535") from None
    if not parts.hostname and "host" not in query:
        raise ValueError(f"{shown} names no server: write {_URL_SHAPE}")
    database = parts.path.lstrip("/")
    if not database and "dbname" not in query:
        raise ValueError(f"{shown} names no database: write {_URL_SHAPE}")
    if "/" in database:
        raise ValueError(f"“{database}” in {shown} is not a database name")
