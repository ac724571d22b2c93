"""Card pictures: valid, bounded, deterministic PNGs that show what they should, and only it."""

from __future__ import annotations

import io
import random

import pytest
from PIL import Image, ImageChops

from bot import pictures
from bot.i18n import score_text, t
from bot.pictures import (
    CARD_SIZE,
    RULES_EXAMPLE,
    hand_picture,
    picture_filename,
    render_off_loop,
    rules_example_caption,
    rules_example_picture,
    scoring_picture,
    trick_picture,
)
from engine.cards import DECK, Card, Rank, Suit, by_suit, parse_cards
from engine.dupe import SEAT_NAMES, DealResult, DupeState, TrickRecord, new_game, score_hand
from engine.players import make_player

LIMIT = 150_000  # bytes; Discord allows far more, phones on slow links do not
NAMES = ("Alice", "Bøb Ørsted 🎲", "🤖 greedy", "Zoë-Françoise, who has a very long name indeed")
RED = (200, 24, 40)
GOLD = (255, 196, 40)
SKY = (120, 200, 255)
FELT = (24, 92, 52)
DISCORD_LIMIT = 10 * 1024 * 1024


def open_png(data: bytes) -> Image.Image:
    assert data.startswith(b"\x89PNG\r\n\x1a\n")
    image = Image.open(io.BytesIO(data))
    assert image.format == "PNG"
    image.load()
    return image.convert("RGB")


def check(data: bytes, max_width: int = 1600, max_height: int = 1600) -> Image.Image:
    image = open_png(data)
    assert CARD_SIZE[0] < image.width <= max_width
    assert CARD_SIZE[1] < image.height <= max_height
    assert len(data) < LIMIT
    return image


def count(
    image: Image.Image, colour: tuple[int, int, int], box: tuple[int, int, int, int] | None = None
) -> int:
    """Return how many pixels (in ``box``) are within 12 of ``colour`` in every channel."""
    region = image.crop(box) if box else image
    masks = [
        band.point(lambda v, c=c: 255 if abs(v - c) <= 12 else 0)
        for band, c in zip(region.split(), colour, strict=True)
    ]
    both = ImageChops.multiply(ImageChops.multiply(masks[0], masks[1]), masks[2])
    return both.histogram()[255]


def ink(image: Image.Image) -> Image.Image:
    """Return where a picture is darker than near-white, in black and white: its shapes."""
    return image.convert("L").point(lambda v: 255 if v < 200 else 0)


def played_game(seed: int = 3) -> tuple[list[TrickRecord], DupeState]:
    state = new_game(seed)
    players = [make_player("random", seed * 4 + seat) for seat in range(4)]
    tricks: list[TrickRecord] = []
    while not state.is_over:
        for seat in state.to_act:
            state.apply(seat, players[seat].act(state.view(seat)))
        last = state.public_view().last_trick
        if last is not None and (not tricks or tricks[-1] is not last):
            tricks.append(last)
    return tricks, state


@pytest.fixture(scope="module")
def game() -> tuple[list[TrickRecord], DupeState]:
    return played_game()


def test_trick_picture_is_a_bounded_png_with_the_taker_marked(
    game: tuple[list[TrickRecord], DupeState],
) -> None:
    tricks, _ = game
    trick = next(t for t in tricks if t.taker is not None)
    taker = trick.taker
    assert taker is not None
    image = check(trick_picture(trick.cards, NAMES, taker, trick.received))
    assert image.width <= 900
    column = image.width // 4
    gold = [count(image, GOLD, (s * column, 0, (s + 1) * column, image.height)) for s in range(4)]
    assert gold[taker] > 500
    assert all(g < 50 for s, g in enumerate(gold) if s != taker)


def test_trick_without_taker_marks_nobody() -> None:
    cards = parse_cards("9S 9H 4D 4C")
    image = check(trick_picture(cards, SEAT_NAMES, None))
    assert count(image, GOLD) < 50


def test_trick_picture_rejects_a_trick_that_is_not_four_cards() -> None:
    with pytest.raises(ValueError, match="four cards"):
        trick_picture(parse_cards("9S 9H 4D"), SEAT_NAMES, 0)
    with pytest.raises(ValueError, match="four cards"):
        trick_picture(parse_cards("9S 9H 4D 4C"), SEAT_NAMES, 0, parse_cards("9S"))


def test_scoring_picture_for_every_deal_of_a_game(
    game: tuple[list[TrickRecord], DupeState],
) -> None:
    _, state = game
    assert len(state.results) == 4
    for result in state.results:
        image = check(scoring_picture(result, NAMES))
        assert image.width <= 1000


def test_scoring_picture_fits_the_longest_breakdown() -> None:
    worst = tuple(parse_cards("2S 2H 2D 2C 5S 5H 5D 5C 8S 8H 8D 8C JS"))
    won = (worst, *(tuple(DECK[s::4][:13]) for s in range(1, 4)))
    result = DealResult(
        2,
        (Suit.SPADES, Suit.HEARTS, Suit.CLUBS, Suit.DIAMONDS),
        won,
        tuple(score_hand(hand) for hand in won),
        (28, 1, 2, 3),
        (28, 1, 2, 3),
    )
    assert "no sequence" in str(result.scores[0])
    check(scoring_picture(result, ("x" * 200,) * 4))


def test_hand_picture_shows_a_hand_sorted_like_the_hand_message() -> None:
    cards = parse_cards("2D AS 10H KC 3S")
    assert hand_picture(cards) == hand_picture(list(reversed(cards)))
    image = check(hand_picture(cards))
    assert image.height < 300


def test_pictures_are_deterministic(game: tuple[list[TrickRecord], DupeState]) -> None:
    tricks, state = game
    trick = tricks[7]
    first = (
        trick_picture(trick.cards, NAMES, trick.taker, trick.received),
        scoring_picture(state.results[0], NAMES),
        hand_picture(DECK[:13]),
    )
    pictures._palette.cache_clear()
    pictures._card_face.cache_clear()
    pictures._card_sprite.cache_clear()
    again = (
        trick_picture(trick.cards, NAMES, trick.taker, trick.received),
        scoring_picture(state.results[0], NAMES),
        hand_picture(DECK[:13]),
    )
    assert first == again


def test_every_card_renders_and_all_52_are_distinct() -> None:
    image = check(hand_picture(DECK))
    assert image.width == 1600
    faces = {card: open_png(hand_picture([card])) for card in DECK}
    assert len({face.tobytes() for face in faces.values()}) == 52
    for i in range(0, 52, 4):
        check(trick_picture(DECK[i : i + 4], SEAT_NAMES, 0, DECK[i : i + 4]))


def test_suits_differ_in_shape_not_only_in_colour() -> None:
    shapes = {}
    for suit in Suit:
        face = open_png(hand_picture([Card.of(Rank.ACE, suit)]))
        shapes[suit] = ink(face).tobytes()
    assert len(set(shapes.values())) == 4


def test_ranks_are_drawn() -> None:
    ace, king = (open_png(hand_picture(parse_cards(code))) for code in ("AS", "KS"))
    corner = (24, 24, 24 + 48, 24 + 40)  # the rank in the top left corner
    assert ace.crop(corner).tobytes() != king.crop(corner).tobytes()


def test_red_only_for_red_suits() -> None:
    spades = open_png(hand_picture([c for c in DECK if c.suit is Suit.SPADES]))
    clubs = open_png(hand_picture([c for c in DECK if c.suit is Suit.CLUBS]))
    hearts = open_png(hand_picture([c for c in DECK if c.suit is Suit.HEARTS]))
    diamonds = open_png(hand_picture([c for c in DECK if c.suit is Suit.DIAMONDS]))
    assert count(spades, RED) == 0
    assert count(clubs, RED) == 0
    assert count(hearts, RED) > 1000
    assert count(diamonds, RED) > 1000


def test_names_are_shown_in_characters_the_font_has() -> None:
    assert pictures._displayable("Zoë-Françoise") == "Zoe-Francoise"
    assert pictures._displayable("Bøb Ørsted 🎲") == "Bob Orsted"
    assert pictures._displayable("🤖 greedy") == "greedy"
    assert pictures._displayable("李小龙") == ""
    check(trick_picture(parse_cards("9S 9H 4D 4C"), ("李小龙", "", "   ", "😀😀"), 2))


def test_empty_hand_still_renders() -> None:
    image = open_png(hand_picture([]))
    assert image.width >= 200


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
    assert await render_off_loop(trick_picture, cards, SEAT_NAMES, 0) == trick_picture(
        cards, SEAT_NAMES, 0
    )


# --------------------------------------------------------------------------------------
# Languages


def edges_are_felt(image: Image.Image, edge: int = 8) -> bool:
    """Return whether a strip ``edge`` px wide along each side is bare felt: no caption
    runs off the picture."""
    w, h = image.size
    strips = [(0, 0, edge, h), (w - edge, 0, w, h), (0, 0, w, edge), (0, h - edge, w, h)]
    return all(count(image, FELT, box) == (box[2] - box[0]) * (box[3] - box[1]) for box in strips)


def test_german_pictures_have_german_words_that_fit(
    game: tuple[list[TrickRecord], DupeState],
) -> None:
    tricks, state = game
    trick = next(t for t in tricks if t.taker is not None)
    nobody = parse_cards("9S 9H 4D 4C")
    pairs = [  # English, German, how much taller the German is
        (
            trick_picture(trick.cards, NAMES, trick.taker, trick.received),
            trick_picture(trick.cards, NAMES, trick.taker, trick.received, lang="de"),
            0,
        ),
        (
            trick_picture(nobody, received=nobody),
            trick_picture(nobody, received=nobody, lang="de"),
            36,  # the note saying nobody takes has a second line
        ),
        (
            scoring_picture(state.results[0], NAMES),
            scoring_picture(state.results[0], NAMES, lang="de"),
            0,
        ),
        (hand_picture([]), hand_picture([], lang="de"), 0),
    ]
    for english, german, taller in pairs:
        assert english != german
        en, de = check(english), check(german)
        assert (de.width, de.height) == (en.width, en.height + taller)
        assert len(german) < DISCORD_LIMIT
        assert edges_are_felt(en) and edges_are_felt(de)  # no word runs off the picture
    # A picture without words is the same in both languages.
    assert hand_picture(DECK[:13], lang="de") == hand_picture(DECK[:13])
    # The default is English.
    assert trick_picture(nobody, lang="en") == trick_picture(nobody)


def test_german_seat_names_replace_the_english_ones_not_the_members() -> None:
    assert pictures._seat_label("de", 2, SEAT_NAMES) == ("♣ Süd", "")
    assert pictures._seat_label("de", 2, ("", "", "Süd", "")) == ("♣ Süd", "")
    assert pictures._seat_label("de", 1, ("", "Jürgen", "", "")) == ("♥ Ost", "Jürgen")
    assert pictures._seat_label("en", 1, ("", "East", "", "")) == ("♥ East", "")


def test_german_letters_the_font_lacks_are_drawn() -> None:
    assert not pictures._has_glyph("ü")  # the built-in font has none of these ...
    # ... so they are drawn: the letter with its dots above, „ as a lowered quote, ß as ss.
    drawn = []
    for text in ("Sud", "Süd"):
        canvas = pictures._canvas(200, 60)
        pictures._draw_text(canvas, (10, 45), text, 28, (255, 255, 255))
        drawn.append(canvas.convert("L").point(lambda v: 255 if v > 128 else 0))
    plain, umlaut = drawn
    assert umlaut.tobytes() != plain.tobytes()
    (left, top, right, bottom), box = plain.getbbox(), umlaut.getbbox()
    assert box is not None and (box[0], box[2], box[3]) == (left, right, bottom)
    assert box[1] >= top - 1  # the dots rise no higher than the d
    low, _, top_low = pictures._run_mask("„a", 28, 0)
    high, _, top_high = pictures._run_mask("\u201da", 28, 0)
    assert top_low + low.height > top_high + high.height  # „ reaches below the baseline
    assert pictures._text_width("Größe", 28) == pictures._text_width("Grosse", 28)
    for char in "äöüÄÖÜ":
        assert pictures._run_mask(char, 30, 1)[0].getbbox() is not None
    assert pictures._displayable("Jürgen Groß") == "Jürgen Gross"
    assert pictures._displayable("Ju\u0308rgen") == "Jürgen"  # combining dots too


def test_every_picture_text_fits_its_place() -> None:
    """The words drawn in a fixed place fit it in both languages (at most a little
    smaller, never cut)."""
    for lang in ("en", "de"):
        assert pictures._text_width(t(lang, "pictures.takes"), 24) < 196 - 40
        gets = pictures._text_width(t(lang, "pictures.gets") + " 10♠", 26)
        assert gets < 196 - 20
        for seat in range(4):
            label = pictures._seat_label(lang, seat, SEAT_NAMES)[0]
            assert pictures._text_width(label, 32) < 196 - 8
        credit = pictures._text_width(t(lang, "pictures.credited_to"), 28)
        assert credit + pictures._text_width("Nord", 34) < 900 / 2
        note = t(lang, "pictures.nobody_takes")
        assert len(pictures._wrap(note, 28, 816 - 48)) == (1 if lang == "en" else 2)
    # The German note takes a second line; the picture grows by it.
    english = check(trick_picture(parse_cards("9S 9H 4D 4C")))
    german = check(trick_picture(parse_cards("9S 9H 4D 4C"), lang="de"))
    assert german.height == english.height + 36
    assert edges_are_felt(english) and edges_are_felt(german)


def test_breakdown_is_the_engines_in_english_and_translated_in_german(
    game: tuple[list[TrickRecord], DupeState],
) -> None:
    _, state = game
    rng = random.Random(7)
    hands = [tuple(hand) for result in state.results for hand in result.won]
    hands += [tuple(rng.sample(DECK, rng.randrange(1, 27))) for _ in range(500)]
    hands += [tuple(parse_cards("2S 2H 2D 2C 5S 5H 5D 5C 8S 8H 8D 8C JS")), tuple(DECK)]
    for hand in hands:
        score = score_hand(hand)
        assert score_text(score) == str(score)
        german = score_text(score, "de")
        assert german.endswith(f"= {score.total}")
        assert "four" not in german and "no sequence" not in german
    worst = score_hand(parse_cards("2S 2H 2D 2C 5S 5H 5D 5C 8S 8H 8D 8C JS"))
    assert score_text(worst, "de") == "4♠ × 1 (keine Folge) + 24 (vier 8, vier 5, vier 2) = 28"


# --------------------------------------------------------------------------------------
# The rules' worked example


def test_rules_example_scores_31_by_the_engine_as_the_rules_say() -> None:
    assert sorted(RULES_EXAMPLE, key=by_suit) == sorted(
        parse_cards("JS 10S 4S QH 10H 5H AC 4C AD KD 10D 8D 4D"), key=by_suit
    )
    score = score_hand(RULES_EXAMPLE)
    assert score.total == 31
    assert (score.suit_length, score.longest_suit) == (5, Suit.DIAMONDS)
    assert score.sequence_length == 5 and score.sequence[0] == Rank.TEN
    assert score.bonus == 6 and score.sets == ((Rank.FOUR, 3),)
    # The rules' own display of this hand.
    assert score_text(score) == "5♦ × 5 (10–A) + 6 (4s) = 31"
    assert score_text(score, "de") == "5♦ × 5 (10–A) + 6 (drei 4) = 31"


def test_rules_example_picture_in_both_languages() -> None:
    english, german = rules_example_picture(), rules_example_picture("de")
    assert english != german
    assert rules_example_picture("en") is english  # drawn once
    for data in (english, german):
        image = check(data, max_width=1000, max_height=1000)
        assert len(data) < 100_000 < DISCORD_LIMIT
        assert edges_are_felt(image)
        # Five cards outlined in gold (the sequence), three in blue (the set of 4s), each
        # with its tag.
        assert count(image, GOLD) > 5 * 500
        assert count(image, SKY) > 3 * 500


def test_rules_example_picture_shows_the_example_and_marks_its_parts(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    placed: list[Card] = []
    place = pictures._place_card

    def spy(canvas: Image.Image, card: Card, x: int, y: int) -> None:
        placed.append(card)
        place(canvas, card, x, y)

    monkeypatch.setattr(pictures, "_place_card", spy)
    pictures._rules_canvas("de")
    assert placed == sorted(RULES_EXAMPLE, key=by_suit)  # the won hand grouped by suit
    example = pictures._Example(RULES_EXAMPLE)
    assert {str(card) for card in example.in_sequence} == {"10♦", "J♠", "Q♥", "K♦", "A♦"}
    assert {str(card) for card in example.in_sets} == {"4♠", "4♣", "4♦"}
    assert example.idle == [Rank.TEN]


def test_rules_example_caption_is_the_example_in_words() -> None:
    english, german = rules_example_caption(), rules_example_caption("de")
    hand = "♠J 10 4 ♥Q 10 5 ♣A 4 ♦A K 10 8 4"
    assert hand in english and hand in german
    assert english.splitlines()[-1] == "Score: 5♦ × 5 (10–A) + 6 (4s) = 31"
    assert german.splitlines()[-1] == "Punktzahl: 5♦ × 5 (10–A) + 6 (drei 4) = 31"
    assert [line[:5] for line in english.splitlines()[1:4]] == ["L = 5", "S = 5", "B = 6"]
    assert "längsten Farbe" in german


async def test_render_off_loop_passes_the_language() -> None:
    cards = parse_cards("AS KH 10D 2C")
    drawn = await render_off_loop(trick_picture, cards, SEAT_NAMES, 0, lang="de")
    assert drawn == trick_picture(cards, SEAT_NAMES, 0, lang="de")
    assert await render_off_loop(rules_example_picture, "de") == rules_example_picture("de")
