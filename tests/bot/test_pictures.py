"""Card pictures: valid, bounded, deterministic PNGs that show what they should, and only it."""

from __future__ import annotations

import io

import pytest
from PIL import Image, ImageChops

from bot import pictures
from bot.pictures import (
    CARD_SIZE,
    hand_picture,
    picture_filename,
    render_off_loop,
    scoring_picture,
    trick_picture,
)
from engine.cards import DECK, Card, Rank, Suit, parse_cards
from engine.dupe import SEAT_NAMES, DealResult, DupeState, TrickRecord, new_game, score_hand
from engine.players import make_player

LIMIT = 150_000  # bytes; Discord allows far more, phones on slow links do not
NAMES = ("Alice", "Bøb Ørsted 🎲", "🤖 greedy", "Zoë-Françoise, who has a very long name indeed")
RED = (200, 24, 40)
GOLD = (255, 196, 40)


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
