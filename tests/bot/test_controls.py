"""`bot.controls` makes the payload discord.py's own view and buttons would make."""

from __future__ import annotations

import random
from typing import Any

import discord
import pytest

from bot.controls import Button, Controls

STYLES = list(discord.ButtonStyle)


def build(controls: Any, button: Any, items: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Add ``items`` (buttons made by ``button``, select menus) to ``controls``; return
    the payload."""
    for item in items:
        if item["kind"] == "select":
            options = [discord.SelectOption(label="a"), discord.SelectOption(label="b")]
            controls.add_item(
                discord.ui.Select(custom_id=item["custom_id"], options=options, row=item["row"])
            )
        else:
            controls.add_item(button(**{k: v for k, v in item.items() if k != "kind"}))
    payload: list[dict[str, Any]] = controls.to_components()
    return payload


def discord_py(items: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The payload of a ``discord.ui.View`` of the same items."""
    view = discord.ui.View(timeout=None)
    view.stop()
    return build(view, discord.ui.Button, items)


def ours(items: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return build(Controls(), Button, items)


def test_a_button_is_the_payload_discord_py_makes() -> None:
    cases: list[dict[str, Any]] = [
        {"kind": "button", "label": "7♠", "custom_id": "g:1:2:3:p7S"},
        {
            "kind": "button",
            "label": "My hand",
            "emoji": "🂠",
            "style": discord.ButtonStyle.primary,
            "custom_id": "t:1:hand",
        },
        {"kind": "button", "label": "Q♥", "custom_id": "x", "disabled": True, "row": 2},
        {"kind": "button", "custom_id": "only-emoji", "emoji": "🔁"},
        {"kind": "button", "label": "", "custom_id": "blank-label"},
        {
            "kind": "button",
            "label": "Rules",
            "url": "https://example.org/rules",
            "style": discord.ButtonStyle.link,
        },
    ]
    for case in cases:
        assert ours([case]) == discord_py([case]), case


def test_rows_are_laid_out_as_a_view_lays_them_out() -> None:
    """Random mixes of buttons (with and without a row) and select menus: the same rows
    in the same order, and the same refusals when an item does not fit."""
    rng = random.Random(5)
    compared = refused = 0
    for _ in range(400):
        items: list[dict[str, Any]] = []
        for n in range(rng.randint(1, 27)):
            row = rng.choice([None, None, None, *range(5)])
            if rng.random() < 0.08:
                items.append({"kind": "select", "custom_id": f"s{n}", "row": row})
            else:
                items.append(
                    {
                        "kind": "button",
                        "label": f"b{n}",
                        "custom_id": f"c{n}",
                        "style": rng.choice(STYLES[:4]),
                        "disabled": rng.random() < 0.3,
                        "row": row,
                    }
                )
        try:
            expected = discord_py(items)
        except ValueError as error:
            with pytest.raises(ValueError) as ours_error:
                ours(items)
            assert str(ours_error.value) == str(error)
            refused += 1
            continue
        assert ours(items) == expected
        compared += 1
    assert compared > 100 and refused > 50


def test_children_keep_the_order_they_were_added_in_and_clear_empties_them() -> None:
    controls = Controls()
    first = Button(label="a", custom_id="a", row=3)
    second = Button(label="b", custom_id="b")
    controls.add_item(first).add_item(second)
    assert controls.children == [first, second]
    assert [row["components"][0]["label"] for row in controls.to_components()] == ["b", "a"]
    controls.clear_items()
    assert controls.children == [] and controls.to_components() == []
    for n in range(25):
        controls.add_item(Button(label=str(n), custom_id=str(n)))
    assert len(controls.to_components()) == 5


def test_a_row_out_of_range_is_refused() -> None:
    with pytest.raises(ValueError, match="row cannot be negative"):
        Button(label="x", custom_id="x", row=5)
