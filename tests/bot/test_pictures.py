"""The drawing kit (``bot/pictures/``): its font draws names and German as written, its
cards, rows, tricks for any number of seats and hands are valid, bounded, deterministic PNGs
that show what they should; it knows no game."""

from __future__ import annotations

import ast
import threading
import tomllib
from pathlib import Path

import pytest
from PIL import Image, ImageFont

from bot import pictures
from bot.pictures import (
    CARD_SIZE,
    COLUMN,
    MARGIN,
    Caption,
    SeatLabel,
    by_suit_groups,
    card_face,
    displayable,
    draw_text,
    fit_text,
    font,
    font_file,
    hand_picture,
    has_glyph,
    new_canvas,
    picture_filename,
    render_off_loop,
    row_width,
    seat_label,
    shrink_to_fit,
    text_width,
    trick_picture,
    wrap_text,
)
from bot.pictures import cards as kit_cards
from bot.pictures import layouts as kit_layouts
from bot.pictures import text as kit_text
from engine.cards import DECK, Card, Rank, Suit, parse_cards
from tests.bot.picture_checks import check, count, edges_are_felt, ink, open_png

ROOT = Path(__file__).resolve().parents[2]
KIT = ROOT / "bot" / "pictures"
RED = (200, 24, 40)
GOLD = (255, 196, 40)
RED_ON_FELT = (255, 176, 166)
WHITE = (255, 255, 255)
GERMAN = "äöüÄÖÜß„“"
ACCENTED = "éñłøőçÉÑŁØŐ"
DOPPELKOPF = tuple(card for card in DECK if card.rank >= Rank.NINE) * 2


def written(text: str, size: int = 28, *, bold: bool = False) -> Image.Image:
    """Return ``text`` drawn in white on the felt, as black and white."""
    canvas = new_canvas(40 + text_width(text, size, bold=bold) + 40, 2 * size + 20)
    draw_text(canvas, (40, size + 10), text, size, WHITE, bold=bold)
    return canvas.convert("L").point(lambda v: 255 if v > 128 else 0)


# --------------------------------------------------------------------------------------
# The font


def test_the_bundled_font_is_the_one_loaded_and_ships_with_the_package() -> None:
    regular, bold = font_file(), font_file(bold=True)
    assert (regular.name, bold.name) == ("DejaVuSansCondensed.ttf", "DejaVuSansCondensed-Bold.ttf")
    assert regular.parent == bold.parent == KIT / "fonts"  # the editable install's own files
    assert (KIT / "fonts" / "LICENSE").read_text().count("Bitstream Vera") >= 1
    for size in (20, 28, 38):
        assert font(size).path == str(regular)
        assert font(size, bold=True).path == str(bold)
        assert font(size).font.family == "DejaVu Sans"
    # pip (wheel or editable) installs the fonts with the code.
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text())
    shipped = pyproject["tool"]["setuptools"]["package-data"]["bot.pictures"]
    assert {"fonts/*.ttf", "fonts/LICENSE"} <= set(shipped)


def test_the_font_has_german_and_accented_letters() -> None:
    for char in GERMAN + ACCENTED + "×–→…":
        assert has_glyph(char), char
    for size, bold in ((28, False), (34, True)):
        face = font(size, bold=bold)
        missing = bytes(face.getmask("\U0001f3b2"))  # a character the font lacks: its box
        for char in GERMAN + ACCENTED:
            assert bytes(face.getmask(char)) != missing, char
    # Not Pillow's built-in font: that one has none of these letters.
    builtin = ImageFont.load_default(size=28)
    assert isinstance(builtin, ImageFont.FreeTypeFont)
    assert builtin.getlength("Größe") != font(28).getlength("Größe")


def test_umlauts_and_accents_are_drawn_as_letters_of_their_own() -> None:
    for plain, marked in (("Sud", "Süd"), ("Gross", "Groß"), ("Lukasz", "Łukasz"), ("e", "é")):
        assert written(plain).tobytes() != written(marked).tobytes()
    # The dots of ü sit above the u, no higher than the d beside it.
    plain, umlaut = written("Sud").getbbox(), written("Süd").getbbox()
    assert plain is not None and umlaut is not None
    assert umlaut[1] >= plain[1] - 1 and umlaut[3] == plain[3]
    u, u_dots = written("u").getbbox(), written("ü").getbbox()
    assert u is not None and u_dots is not None and u_dots[1] < u[1]
    # „ sits on the baseline and reaches below it, “ above it.
    low, high = written("„").getbbox(), written("“").getbbox()
    assert low is not None and high is not None and low[3] > high[3] + 10
    # ß is one letter, not "ss".
    assert text_width("Größe", 28) < text_width("Grösse", 28)


def test_names_keep_their_letters_and_lose_what_the_font_lacks() -> None:
    for name in ("Zoë-Françoise", "Jürgen Groß", "Łukasz Őrs", "Ñandú", "Bjørn", "Ελένη", "Борис"):
        assert displayable(name) == name
    assert displayable("Ju\u0308rgen") == "Jürgen"  # combining dots become the letter
    assert displayable("Bøb Ørsted 🎲") == "Bøb Ørsted"
    assert displayable("🤖 greedy") == "greedy"
    assert displayable("👩\u200d💻 Eve") == "Eve"  # an emoji sequence, joiner and all
    assert displayable("李小龙") == ""
    assert displayable("דָּוִד Dov") == "Dov"  # right to left: not drawn, accents and all
    assert displayable("  a \t b  ") == "a b"
    for char in "🎲李\u200d":
        assert not has_glyph(char)


def test_characters_the_font_lacks_are_left_out_of_drawn_text() -> None:
    assert written("a🎲b李c").tobytes() == written("abc").tobytes()
    assert text_width("a🎲b李c", 28) == text_width("abc", 28)
    assert written("🎲").getbbox() is None  # no box for a missing glyph


def test_suits_in_text_are_pips_in_their_colours() -> None:
    for suit in Suit:
        canvas = new_canvas(80, 60)
        draw_text(canvas, (10, 45), suit.symbol, 40, GOLD)  # pips keep their suit's colour
        assert (count(canvas, RED_ON_FELT) > 50) == (suit in (Suit.HEARTS, Suit.DIAMONDS))
        assert count(canvas, GOLD) == 0
        assert text_width(suit.symbol, 40) == text_width("♠", 40)
    shapes = {suit: written(suit.symbol, 40).tobytes() for suit in Suit}
    assert len(set(shapes.values())) == 4


def test_text_is_fitted_shrunk_and_wrapped() -> None:
    name = "Zoë-Françoise, who has a very long name indeed"
    short = fit_text(name, 26, 188)
    assert short.endswith("…") and text_width(short, 26) <= 188
    assert fit_text("Alice", 26, 188) == "Alice"
    assert text_width(name, 28, bold=True) > text_width(name, 28)
    size = shrink_to_fit(name, 34, 600)
    assert size < 34 and text_width(name, size) <= 600
    assert shrink_to_fit(name, 34, 10) == 20  # never smaller than the smallest size
    lines = wrap_text("Keine eindeutig höchste oder niedrigste Karte: Alle behalten", 28, 300)
    assert len(lines) > 1 and all(text_width(line, 28) <= 300 for line in lines)
    assert " ".join(lines) == "Keine eindeutig höchste oder niedrigste Karte: Alle behalten"


def test_seat_labels_from_plain_names() -> None:
    assert seat_label("South", "Jürgen", mark=Suit.CLUBS) == SeatLabel("♣ South", "Jürgen")
    assert seat_label("Süd", "South", repeats=("South",)) == SeatLabel("Süd", "")
    assert seat_label("Alice") == SeatLabel("Alice", "")
    assert seat_label("East", "🤖 greedy") == SeatLabel("East", "greedy")


# --------------------------------------------------------------------------------------
# Cards


def test_every_card_renders_and_all_52_are_distinct() -> None:
    image = check(hand_picture(DECK))
    assert image.width == 1600
    faces = {card: open_png(hand_picture([card])) for card in DECK}
    assert len({face.tobytes() for face in faces.values()}) == 52


def test_suits_differ_in_shape_not_only_in_colour() -> None:
    shapes = {suit: ink(open_png(hand_picture([Card.of(Rank.ACE, suit)]))) for suit in Suit}
    assert len({shape.tobytes() for shape in shapes.values()}) == 4


def test_ranks_are_drawn_and_ten_fits_its_corner() -> None:
    def corner(rank: Rank) -> Image.Image:  # the top left index's rank, in black and white
        face = Image.new("RGBA", CARD_SIZE, WHITE)
        face.alpha_composite(card_face(Card.of(rank, Suit.SPADES)))
        return face.convert("L").crop((0, 0, 48, 44)).point(lambda v: 255 if v < 100 else 0)

    drawn = {rank: corner(rank) for rank in Rank}
    assert len({image.tobytes() for image in drawn.values()}) == 13
    ten = drawn[Rank.TEN].getbbox()
    assert ten is not None and ten[0] >= 4 and ten[2] <= 44  # clear of the card's edge
    for rank in Rank:  # no rank runs into the pip under it
        mask, below = kit_cards._rank_mask(rank.symbol)
        assert 10 - below + mask.height <= kit_cards._INDEX_PIP_TOP


def test_red_only_for_red_suits() -> None:
    suits = {s: open_png(hand_picture([c for c in DECK if c.suit is s])) for s in Suit}
    assert count(suits[Suit.SPADES], RED) == 0
    assert count(suits[Suit.CLUBS], RED) == 0
    assert count(suits[Suit.HEARTS], RED) > 1000
    assert count(suits[Suit.DIAMONDS], RED) > 1000


# --------------------------------------------------------------------------------------
# Hands


def test_a_hand_of_ten_in_the_order_given() -> None:
    cards = parse_cards("AS KS 10S 9H QH JH 10C 9C AD KD")
    image = check(hand_picture(cards))
    assert image.width == 2 * MARGIN + row_width(cards, 58) == 2 * MARGIN + 120 + 9 * 58 + 3 * 14
    assert image.height == CARD_SIZE[1] + 2 * MARGIN
    assert hand_picture(cards) != hand_picture(list(reversed(cards)))  # drawn as given
    # A game groups the row its own way: one group, no gaps.
    one = check(hand_picture(cards, group=lambda card: 0))
    assert one.width == image.width - 3 * 14
    assert by_suit_groups(cards[0]) != by_suit_groups(cards[3])


def test_a_doppelkopf_hand_with_twins_and_a_title() -> None:
    hand = sorted(DOPPELKOPF[:12] + DOPPELKOPF[24:36:3])
    assert len(set(hand)) < len(hand)  # both of a pair
    untitled = check(hand_picture(hand))
    titled = check(hand_picture(hand, title="Deine Karten, Jürgen"))
    assert titled.height > untitled.height and titled.width == untitled.width
    assert edges_are_felt(titled)


def test_an_empty_hand_says_so_in_its_language() -> None:
    english, german = hand_picture([]), hand_picture([], lang="de")
    assert english != german
    assert check(english).size == check(german).size
    # A picture without words is the same in both languages.
    assert hand_picture(DECK[:13], lang="de") == hand_picture(DECK[:13])


# --------------------------------------------------------------------------------------
# Tricks


@pytest.mark.parametrize("seats", [2, 3, 4, 5])
def test_a_trick_for_any_number_of_seats(seats: int) -> None:
    cards = [DECK[13 * (seat % 4) + 7 + seat] for seat in range(seats)]
    names = [SeatLabel(f"Seat {seat}", "Jürgen Groß") for seat in range(seats)]
    for highlight in range(seats):
        image = check(
            trick_picture(
                cards,
                names,
                highlight=highlight,
                badge="TAKES",
                captions=[Caption("gets", card) for card in reversed(cards)],
            )
        )
        assert image.width == seats * COLUMN + 2 * MARGIN - 16
        assert edges_are_felt(image)
        gold = [
            count(image, GOLD, (MARGIN + s * COLUMN, 0, MARGIN + (s + 1) * COLUMN - 16, 400))
            for s in range(seats)
        ]
        assert gold[highlight] > 500
        assert all(g < 50 for s, g in enumerate(gold) if s != highlight)
    long = "a caption far too long for its column"
    captioned = check(trick_picture(cards, names, captions=[Caption(long, cards[0])] * seats))
    assert edges_are_felt(captioned)
    plain = check(trick_picture(cards, [f"P{seat}" for seat in range(seats)]))
    assert count(plain, GOLD) < 50 and plain.height < image.height


def test_a_trick_in_progress_and_its_note() -> None:
    note = "Waiting for Bo, Cy and Dee to play their cards; the trick is not over yet."
    without = check(trick_picture([DECK[5], None], ["Ann", "Bo"]))
    image = check(trick_picture([DECK[5], None], ["Ann", "Bo"], note=note))
    lines = wrap_text(note, 28, image.width - 2 * MARGIN)
    assert len(lines) >= 2
    assert image.height > without.height + 36 * (len(lines) - 1)
    assert edges_are_felt(image)


def test_a_trick_needs_a_name_and_caption_for_each_seat() -> None:
    cards = parse_cards("9S 9H 4D")
    with pytest.raises(ValueError, match="names"):
        trick_picture(cards, ["a", "b"])
    with pytest.raises(ValueError, match="captions"):
        trick_picture(cards, ["a", "b", "c"], captions=["x"])
    with pytest.raises(ValueError, match="highlight"):
        trick_picture(cards, ["a", "b", "c"], highlight=3)
    with pytest.raises(ValueError, match="seats"):
        trick_picture(DECK[:9], ["x"] * 9)


# --------------------------------------------------------------------------------------
# Output


def test_pictures_are_deterministic() -> None:
    def draw() -> tuple[bytes, ...]:
        return (
            trick_picture(DECK[3:52:13], ["Zoë", "Bøb 🎲", "Ł", "Groß"], highlight=2, badge="X"),
            hand_picture(DOPPELKOPF[::4], title="Größe"),
            hand_picture([]),
        )

    first = draw()
    for cached in (
        kit_cards.card_face,
        kit_cards._card_sprite,
        kit_cards._rank_mask,
        kit_layouts.shared_palette,
        kit_text._run_mask,
        kit_text._run_width,
        kit_text._tokens,
    ):
        cached.cache_clear()
    assert draw() == first
    elsewhere: list[tuple[bytes, ...]] = []
    thread = threading.Thread(target=lambda: elsewhere.append(draw()))  # its own fonts
    thread.start()
    thread.join()
    assert elsewhere == [first]


def test_filenames_reveal_nothing() -> None:
    assert picture_filename("trick") == "trick.png"
    assert picture_filename("hand") == "hand.png"
    assert picture_filename("scoring", 2) == "scoring-deal-2.png"
    assert picture_filename("rules") == "rules-example.png"
    with pytest.raises(ValueError):
        picture_filename("scoring")
    # The name depends on the kind of picture and the deal only, never on the cards shown.
    names = [picture_filename("trick"), picture_filename("hand")]
    names += [picture_filename("scoring", deal) for deal in range(1, 5)]
    for name in names:
        assert set(name) <= set("abcdefghijklmnopqrstuvwxyz0123456789-.")


async def test_render_off_loop_gives_the_same_bytes() -> None:
    cards = parse_cards("AS KH 10D 2C")
    assert await render_off_loop(hand_picture, cards) == hand_picture(cards)
    drawn = await render_off_loop(trick_picture, cards, ["a", "b", "c", "d"], highlight=1)
    assert drawn == trick_picture(cards, ["a", "b", "c", "d"], highlight=1)


def test_the_kit_imports_no_game() -> None:
    games = ("engine.dupe", "engine.doppelkopf", "engine.whist", "bot.games", "bot.dupe")
    for path in sorted(KIT.glob("*.py")):
        tree = ast.parse(path.read_text(), str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module:
                modules = [node.module]
            elif isinstance(node, ast.Import):
                modules = [alias.name for alias in node.names]
            else:
                continue
            for module in modules:
                assert not module.startswith(games), f"{path.name} imports {module}"
    assert set(pictures.__all__) <= set(dir(pictures))
