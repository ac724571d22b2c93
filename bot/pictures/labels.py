"""What a picture names a seat by: a value the bot process builds (without Pillow) and the
drawing process draws (:mod:`bot.pictures.layouts`)."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["SeatLabel"]


@dataclass(frozen=True, slots=True)
class SeatLabel:
    """How a seat is named under its card: ``name`` in bold (the seat, or whoever sits in
    it), and ``member`` on a lighter line below it when there is one."""

    name: str
    member: str = ""
