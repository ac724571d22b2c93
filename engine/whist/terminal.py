"""Whist at a terminal table (placeholder)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TextIO


def main(
    argv: Sequence[str] | None = None,
    stdin: TextIO | None = None,
    stdout: TextIO | None = None,
) -> int:
    """Placeholder."""
    return 2
