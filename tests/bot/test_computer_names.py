"""A computer seat is named one way everywhere, in text and in pictures, in every game:
``🤖 Computer 2 (random)`` in the table message and the scoring text, and the same words
without the robot in every label handed to the drawing code (pictures draw no emoji)."""

from __future__ import annotations

import functools
from collections.abc import Iterator
from types import SimpleNamespace
from typing import Any

import pytest

from bot import games
from bot.game import Rendered, SeatInfo, TableInfo, computer_name, computers_name
from bot.i18n import Lang
from bot.pictures.layouts import SeatLabel
from bot.store import SeatRecord
from bot.table_message import picture_names

LEVEL = "random"
MEMBER = "alice"


def _text(rendered: Rendered) -> str:
    parts = [rendered.content or ""]
    for embed in rendered.embeds:
        parts += [embed.title or "", embed.description or "", embed.footer.text or ""]
        parts += [f"{field.name}\n{field.value}" for field in embed.fields]
    return "\n".join(parts)


def _labels(value: Any) -> Iterator[str]:
    """Yield every string handed to a drawing function (labels, names, titles)."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, SeatLabel):
        yield value.name
        yield value.member
    elif isinstance(value, functools.partial):
        for item in (*value.args, *value.keywords.values()):
            yield from _labels(item)
    elif isinstance(value, list | tuple):
        for item in value:
            yield from _labels(item)


def _records(players: int) -> dict[int, SeatRecord]:
    """A member in seat 0 and computers (as the store names them) in the others."""
    seats = {0: SeatRecord(0, 100, MEMBER, None)}
    seats.update({s: SeatRecord(s, None, f"Computer ({LEVEL})", LEVEL) for s in range(1, players)})
    return seats


def _picture_names(records: dict[int, SeatRecord], lang: Lang) -> list[str]:
    """Return the names a table's pictures get, as ``bot.table_message.picture_names`` makes
    them (tested below)."""
    return [SeatInfo.of(r, markdown=False).shown(lang, s, picture=True) for s, r in records.items()]


def _play_to_first_post(name: str, lang: Lang) -> tuple[Any, str, list[Any]]:
    """Play a game with random computers in every seat until its first public post is
    owed and a table picture was drawn (if the game draws any); return the state the post
    was owed at, its key and the table pictures met on the way."""
    ui = games.get(name)
    state = ui.game.new_game(7, None)
    players = {s: ui.game.levels[LEVEL](s) for s in range(state.players)}
    records = _records(state.players)
    info = TableInfo(1, 100, {s: SeatInfo.of(r) for s, r in records.items()}, state.options)
    names = _picture_names(records, lang)
    pictures: list[Any] = []
    first: tuple[Any, str] | None = None
    while state.to_act:
        seat = min(state.to_act)
        before = state.clone()
        state.apply(seat, players[seat].act(state.view(seat)))
        shown = ui.table_picture(info, state.public_view(), names, lang)
        if shown is not None:
            pictures.append(shown[1])
        owed = ui.owed(before, state)
        if owed and first is None:
            first = (state.clone(), owed[0])
        if first is not None and (pictures or not ui.draws_pictures):
            return first[0], first[1], pictures
    raise AssertionError(f"{name}: no post owed, or no table picture")


@pytest.mark.parametrize("name", ["dupe", "doppelkopf", "whist", "dukes_up"])
@pytest.mark.parametrize("lang", ["en", "de"])
def test_a_computer_is_named_alike_in_the_table_the_scoring_and_the_pictures(
    name: str, lang: Lang
) -> None:
    ui = games.get(name)
    state, key, seen = _play_to_first_post(name, lang)
    records = _records(state.players)
    seats = {s: SeatInfo.of(r) for s, r in records.items()}
    info = TableInfo(1, 100, seats, state.options, level=LEVEL, pictures=True)
    computers = range(1, state.players)
    text_names = [computer_name(lang, LEVEL, s) for s in computers]
    picture_names_ = [computer_name(lang, LEVEL, s, picture=True) for s in computers]
    assert text_names[0] == ("🤖 Computer 2 (random)")
    assert picture_names_[0] == "Computer 2 (random)"

    table = _text(ui.table_message(info, state.public_view(), lang))
    names = _picture_names(records, lang)
    post = ui.post(info, state, key, names, lang)
    scoring = _text(post.message)
    # A scoring beside its picture leaves the names to the picture (its labels, below).
    named = (table, scoring) if post.picture is None else (table,)
    for shown in (table, scoring):
        assert "CPU" not in shown
    for shown in named:
        for computer in text_names:
            assert computer in shown, (computer, shown)

    # every label a picture draws: the same words, no robot, nothing else for a computer
    drawn = [post.picture] if post.picture is not None else []
    drawn += seen
    shown_picture = ui.table_picture(info, state.public_view(), names, lang)
    if shown_picture is not None:
        drawn.append(shown_picture[1])
    labels = [label for picture in drawn for label in _labels(picture)]
    if name != "dukes_up":  # Dukes Up! draws no pictures
        assert drawn, f"{name} drew no picture"
        assert any(p in label for label in labels for p in picture_names_), labels
    for label in labels:
        assert "🤖" not in label and "CPU" not in label, label
    if post.picture is not None:  # it names every computer the text left out
        post_labels = _labels(post.picture)
        for computer in picture_names_:
            assert any(computer in label for label in post_labels), (computer, post_labels)


def test_a_team_of_computers_reads_as_one_name() -> None:
    assert computers_name("en", "expert", 4) == "🤖 4 computers (expert)"
    assert computers_name("de", "expert", 4) == "🤖 4 Computer (expert)"
    assert computers_name("en", "expert", 1) == "🤖 Computer (expert)"
    assert computer_name("en", "expert") == "🤖 Computer (expert)"


def test_a_computer_playing_for_a_member_who_left_says_so() -> None:
    record = SeatRecord(2, None, "Computer (basic) for ann_b", "basic")
    assert SeatInfo.of(record).shown("en", 2) == "🤖 Computer 3 (basic) for ann\\_b"
    assert SeatInfo.of(record).shown("de", 2) == "🤖 Computer 3 (basic) für ann\\_b"
    picture = SeatInfo.of(record, markdown=False).shown("en", 2, picture=True)
    assert picture == "Computer 3 (basic) for ann_b"


def test_the_controller_hands_pictures_the_computers_names() -> None:
    """``bot.table_message.picture_names``: what every game's pictures get."""
    ui = games.get("doppelkopf")
    table = SimpleNamespace(ui=ui, seats=_records(4), state=object(), max_seats=4)
    assert picture_names(table, "en") == [  # type: ignore[arg-type]
        MEMBER,
        "Computer 2 (random)",
        "Computer 3 (random)",
        "Computer 4 (random)",
    ]
