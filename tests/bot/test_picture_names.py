"""Names in pictures: never cut where there is room; a long one is shortened with an
ellipsis at a word boundary (within a word only when whole words would keep too little)."""

from __future__ import annotations

import pytest

from bot.game import SeatInfo, computer_name
from bot.games import get
from bot.games.doppelkopf.pictures import LABEL_W
from bot.games.whist.render import Seating
from bot.pictures import COLUMN, fit_text, shrink_to_fit, text_width
from engine.whist import EAST, NORTH, SOUTH, WEST


def _room(text: str, size: int = 32, bold: bool = True) -> int:
    """Return the width that ``text`` exactly takes."""
    return text_width(text, size, bold=bold)


def test_a_name_that_fits_is_kept_whole() -> None:
    for name in ("Alice", "Anna Maria", "North (dummy, Alice)"):
        assert fit_text(name, 32, _room(name), bold=True) == name


@pytest.mark.parametrize(
    ("name", "room_for", "shown"),
    [
        # whole words before the ellipsis, never a word's first letters
        ("Anna Maria Magdalena", "Anna Maria Mag", "Anna Maria…"),
        ("Alexandra Montgomery-Smith", "Alexandra Montgo", "Alexandra…"),
        # no separator or opening left dangling before the ellipsis
        ("North (dummy, Alice)", "North (dummy, Al", "North (dummy…"),
        ("Bob & Carol & Dave", "Bob & Carol & D", "Bob & Carol…"),
        # a single long word, or a short first word before a long one: cut within it
        ("Supercalifragilistic", "Supercalifra", "Supercalifra…"),
        ("Jo Bartholomew-Fitzgerald", "Jo Bartholomew-F", "Jo Bartholomew-F…"),
    ],
)
def test_a_long_name_is_shortened_at_a_word_boundary(name: str, room_for: str, shown: str) -> None:
    room = _room(room_for + "…")
    short = fit_text(name, 32, room, bold=True)
    assert short == shown
    assert text_width(short, 32, bold=True) <= room


def test_a_shortened_name_always_fits() -> None:
    names = ("Dmitri Ivanovich Petrov", "A B C D E F G H", "x" * 60, "Ümit Ça Ğ", "a, b, c")
    for name in names:
        for room in range(40, 400, 7):
            short = fit_text(name, 26, room)
            assert text_width(short, 26) <= room or short == "…", (name, room, short)
            assert short == name or short.endswith("…")


@pytest.mark.parametrize("lang", ["en", "de"])
def test_the_whist_trick_picture_names_each_hand_and_its_holder_whole(lang: str) -> None:
    seats = {0: SeatInfo("Alice", 1), 1: SeatInfo("Bob", 2), 2: SeatInfo("Carol", 3)}
    # Alice plays South and North, the dummy; Bob East, Carol West.
    seating = Seating((None, 1, 0, 2), (SOUTH, EAST, SOUTH, WEST), seats, "english_dummy", lang)
    room = COLUMN - 8
    for hand in (NORTH, EAST, SOUTH, WEST):
        label = seating.picture_label(hand)
        size = shrink_to_fit(label.name, 32, room, smallest=28, bold=True)
        assert fit_text(label.name, size, room, bold=True) == label.name
        size = shrink_to_fit(label.member, 26, room, smallest=22)
        assert fit_text(label.member, size, room) == label.member, label
    assert seating.picture_label(NORTH).member == (
        "dummy, Alice" if lang == "en" else "Strohmann, Alice"
    )


@pytest.mark.parametrize("lang", ["en", "de"])
def test_the_doppelkopf_breakdown_picture_names_every_computer_whole(lang: str) -> None:
    room = LABEL_W - 20
    for level in get("doppelkopf").game.levels:
        for seat in range(5):
            name = computer_name(lang, level, seat, picture=True)
            size = shrink_to_fit(name, 34, room, smallest=28, bold=True)
            assert fit_text(name, size, room, bold=True) == name


def test_a_qualifier_in_brackets_goes_before_the_name_is_cut() -> None:
    name = "Computer 4 (random)"
    assert fit_text(name, 32, _room("Computer 4…"), bold=True) == "Computer 4…"
    room = _room("Computer 4")  # too narrow for "Computer 4…"
    assert fit_text(name, 32, room, bold=True) == "Computer 4"  # not "Computer…"
    # where the name itself does not fit, it is cut as any other
    assert fit_text(name, 32, _room("Compu…"), bold=True).endswith("…")
