"""A message's controls, built straight into the payload Discord takes.

The bot never dispatches a ``discord.ui.View``: it reads every pressed id itself
(:mod:`bot.buttons`), so a view would only be built to be turned into its payload. Building
one costs a click more than the payload (``View.__init__`` makes a future and a weights
table, each ``discord.ui.Button`` a component object), and a hand message is rebuilt on
every click: :class:`Controls` and :class:`Button` keep the part of that API the renderers
use (``add_item``, ``children``, rows of five) and make the same payload discord.py would
(``tests/bot/test_controls.py`` holds them to it). Any other ``discord.ui.Item`` (a select
menu) can be added too. The suits in labels are shown as :mod:`bot.suits` says (a card
button's suit as its emoji).
"""

from __future__ import annotations

from typing import Any, Protocol

import discord

from bot import suits

__all__ = ["ROWS", "ROW_WIDTH", "Button", "Control", "Controls"]

ROWS = 5  # action rows per message
ROW_WIDTH = 5  # a button takes 1 of a row's 5, a select menu all 5
MAX_CONTROLS = 25


class Control(Protocol):
    """What :class:`Controls` needs of an item (a :class:`Button`, a ``discord.ui.Item``)."""

    @property
    def row(self) -> int | None: ...

    @property
    def width(self) -> int: ...

    def to_component_dict(self) -> Any: ...


class Button:
    """A button (``custom_id``) as its payload, with the fields a renderer or test reads."""

    __slots__ = ("custom_id", "disabled", "emoji", "label", "row", "style", "url")

    width = 1

    def __init__(
        self,
        *,
        label: str | None = None,
        custom_id: str | None = None,
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        emoji: str | None = None,
        disabled: bool = False,
        row: int | None = None,
        url: str | None = None,
    ) -> None:
        if row is not None and not 0 <= row < ROWS:
            raise ValueError(f"row cannot be negative or greater than or equal to {ROWS}")
        self.label = label
        self.custom_id = custom_id
        self.style = style
        self.emoji = emoji
        self.disabled = disabled
        self.row = row
        self.url = url

    def to_component_dict(self) -> dict[str, Any]:
        payload: dict[str, Any] = {
            "type": 2,
            "style": self.style.value,
            "disabled": self.disabled,
        }
        label: str | None
        if self.emoji:
            label, emoji = suits.plain(self.label or ""), None
        else:
            label, emoji = suits.button_face(self.label)
        if label:
            payload["label"] = label
        if self.custom_id:
            payload["custom_id"] = self.custom_id
        if self.url:
            payload["url"] = self.url
        if self.emoji:
            payload["emoji"] = discord.PartialEmoji.from_str(self.emoji).to_dict()
        elif emoji is not None:
            payload["emoji"] = emoji
        return payload

    def __repr__(self) -> str:
        return f"<Button label={self.label!r} custom_id={self.custom_id!r}>"


class Controls:
    """A message's controls in rows, laid out as ``discord.ui.View`` lays them out: an
    item with a ``row`` goes there, any other into the first row with room; at most five
    rows of width five and 25 items (``ValueError`` otherwise)."""

    __slots__ = ("_rows", "_widths", "children")

    def __init__(self) -> None:
        self.children: list[Control] = []
        self._rows: list[list[Control]] = [[] for _ in range(ROWS)]
        self._widths = [0] * ROWS

    def add_item(self, item: Control) -> Controls:
        """Add ``item``; return the controls (for chaining, as a view does)."""
        if len(self.children) >= MAX_CONTROLS:
            raise ValueError("maximum number of children exceeded")
        width = item.width
        row = item.row
        if row is not None:
            if self._widths[row] + width > ROW_WIDTH:
                total = self._widths[row] + width
                raise ValueError(f"item would not fit at row {row} ({total} > 5 width)")
        else:
            row = next(
                (r for r in range(ROWS) if self._widths[r] + width <= ROW_WIDTH),
                None,
            )
            if row is None:
                raise ValueError("could not find open space for item")
        self._widths[row] += width
        self._rows[row].append(item)
        self.children.append(item)
        return self

    def clear_items(self) -> Controls:
        """Remove every item."""
        self.children.clear()
        for items in self._rows:
            items.clear()
        self._widths = [0] * ROWS
        return self

    def to_components(self) -> list[dict[str, Any]]:
        """Return the action rows' payload (empty rows left out)."""
        rows = []
        for items in self._rows:
            if items:
                components = [item.to_component_dict() for item in items]
                for component in components:
                    if "options" in component:  # a select menu: its texts show no emoji
                        suits.select_options(component)
                rows.append({"type": 1, "components": components})
        return rows
