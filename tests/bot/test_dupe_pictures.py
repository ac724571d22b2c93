"""Dupe's pictures (``bot/games/dupe/pictures.py``): a revealed trick, a deal's scoring, a
hand and the rules' worked example show what they should, and only it, in English and
German."""

from __future__ import annotations

import os
import random
import select
import signal
import subprocess
import sys
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import pytest
from PIL import Image

from bot.games.dupe import pictures
from bot.games.dupe.pictures import (
    RULES_EXAMPLE,
    hand_picture,
    rules_example_caption,
    rules_example_picture,
    scoring_picture,
    seat_label_of,
    trick_picture,
)
from bot.games.dupe.words import score_text
from bot.i18n import t
from bot.pictures import (
    COLUMN,
    SeatLabel,
    displayable,
    draw_in_a_process,
    render_off_loop,
    stop_drawing,
    text_width,
    wrap_text,
)
from bot.pictures import cards as kit_cards
from bot.pictures import layouts as kit_layouts
from bot.pictures import output as kit_output
from engine.cards import DECK, Card, Rank, Suit, by_suit, parse_cards
from engine.dupe import SEAT_NAMES, DealResult, DupeState, TrickRecord, new_game, score_hand
from engine.dupe.players import make_player
from tests.bot.picture_checks import DISCORD_LIMIT, check, count, edges_are_felt

NAMES = ("Alice", "Bøb Ørsted 🎲", "🤖 greedy", "Zoë-Françoise, who has a very long name indeed")
GOLD = (255, 196, 40)
SKY = (120, 200, 255)


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
    for lang in ("en", "de"):
        assert edges_are_felt(check(scoring_picture(result, ("x" * 200,) * 4, lang=lang)))


def test_hand_picture_shows_a_hand_sorted_like_the_hand_message() -> None:
    cards = parse_cards("2D AS 10H KC 3S")
    assert hand_picture(cards) == hand_picture(list(reversed(cards)))
    image = check(hand_picture(cards))
    assert image.height < 300


def test_pictures_are_deterministic(game: tuple[list[TrickRecord], DupeState]) -> None:
    tricks, state = game
    trick = tricks[7]

    def draw() -> tuple[bytes, ...]:
        return (
            trick_picture(trick.cards, NAMES, trick.taker, trick.received),
            scoring_picture(state.results[0], NAMES, lang="de"),
            hand_picture(DECK[:13]),
        )

    first = draw()
    kit_layouts.shared_palette.cache_clear()
    kit_cards.card_face.cache_clear()
    kit_cards._card_sprite.cache_clear()
    assert draw() == first


def test_every_card_in_a_trick() -> None:
    for i in range(0, 52, 4):
        check(trick_picture(DECK[i : i + 4], SEAT_NAMES, 0, DECK[i : i + 4]))


def test_names_are_drawn_as_written() -> None:
    labels = [seat_label_of("en", seat, NAMES) for seat in range(4)]
    assert [label.member for label in labels] == [
        "Alice",
        "Bøb Ørsted",
        "greedy",
        "Zoë-Françoise, who has a very long name indeed",
    ]
    assert displayable("Jürgen Groß") == "Jürgen Groß"
    check(trick_picture(parse_cards("9S 9H 4D 4C"), ("李小龙", "", "   ", "😀😀"), 2))


async def test_render_off_loop_gives_the_same_bytes() -> None:
    cards = parse_cards("AS KH 10D 2C")
    assert await render_off_loop(hand_picture, cards) == hand_picture(cards)
    assert await render_off_loop(trick_picture, cards, SEAT_NAMES, 0) == trick_picture(
        cards, SEAT_NAMES, 0
    )


# --------------------------------------------------------------------------------------
# Languages


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
    assert seat_label_of("de", 2, SEAT_NAMES) == SeatLabel("♣ Süd", "")
    assert seat_label_of("de", 2, ("", "", "Süd", "")) == SeatLabel("♣ Süd", "")
    assert seat_label_of("de", 1, ("", "Jürgen", "", "")) == SeatLabel("♥ Ost", "Jürgen")
    assert seat_label_of("en", 1, ("", "East", "", "")) == SeatLabel("♥ East", "")


def test_every_picture_text_fits_its_place() -> None:
    """The words drawn in a fixed place fit it in both languages (at most a little
    smaller, never cut)."""
    for lang in ("en", "de"):
        assert text_width(t(lang, "dupe.takes"), 24, bold=True) < COLUMN - 40
        gets = text_width(t(lang, "dupe.gets") + " ", 26)
        assert gets + text_width("10♠", 28, bold=True) + 14 < COLUMN - 20
        for seat in range(4):
            label = seat_label_of(lang, seat, SEAT_NAMES).name
            assert text_width(label, 32, bold=True) < COLUMN - 8
        credit = text_width(t(lang, "dupe.credited_to"), 28)
        assert credit + text_width("Nord", 34, bold=True) < 900 / 2
        note = t(lang, "dupe.nobody_takes")
        assert len(wrap_text(note, 28, 816 - 48)) == (1 if lang == "en" else 2)
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
    place = pictures.place_card

    def spy(canvas: Image.Image, card: Card, x: int, y: int) -> None:
        placed.append(card)
        place(canvas, card, x, y)

    monkeypatch.setattr(pictures, "place_card", spy)
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


FOUR = parse_cards("AS KH QD JC")


@pytest.fixture
def drawer() -> Iterator[ProcessPoolExecutor]:
    """Draw in a child process, as the bot process does; back to the thread afterwards."""
    draw_in_a_process()
    try:
        assert kit_output._process is not None
        yield kit_output._process
    finally:
        stop_drawing()


async def test_the_bot_process_draws_in_a_child_process_the_same_bytes(
    drawer: ProcessPoolExecutor,
) -> None:
    drawn = await render_off_loop(trick_picture, FOUR, SEAT_NAMES, 0, lang="de")
    assert drawn == trick_picture(FOUR, SEAT_NAMES, 0, lang="de")
    assert drawer._processes  # drawn there: it is running
    (child,) = drawer._processes.values()
    assert child.pid != os.getpid() and child.is_alive()
    # It gives way to the bot's loop: a click goes before a picture.
    ours = os.getpriority(os.PRIO_PROCESS, 0)
    assert os.getpriority(os.PRIO_PROCESS, child.pid) == min(19, ours + 10)

    # A drawing that cannot be sent to the process (a closure) is drawn in the thread.
    def local() -> bytes:
        return hand_picture(FOUR)

    assert await render_off_loop(local) == hand_picture(FOUR)
    stop_drawing()
    assert kit_output._process is None
    assert await render_off_loop(hand_picture, FOUR) == hand_picture(FOUR)  # the thread


async def test_a_drawing_process_that_died_is_replaced(drawer: ProcessPoolExecutor) -> None:
    assert await render_off_loop(hand_picture, FOUR) == hand_picture(FOUR)
    (child,) = drawer._processes.values()
    child.kill()
    child.join()
    # The picture asked for meanwhile is still drawn (in the thread), and a new process
    # takes over.
    assert await render_off_loop(hand_picture, FOUR) == hand_picture(FOUR)
    second = kit_output._process
    assert second is not None and second is not drawer
    assert await render_off_loop(hand_picture, FOUR) == hand_picture(FOUR)
    assert second._processes


_DRAWING_BOT = """
import asyncio, sys
from bot.pictures import draw_in_a_process, output, render_off_loop
from bot.games.dupe.pictures import hand_picture
from engine.cards import parse_cards
draw_in_a_process()
asyncio.run(render_off_loop(hand_picture, parse_cards("AS KH")))
(child,) = output._process._processes.values()
print(child.pid, flush=True)
sys.stdin.read()  # until it is killed
"""


def test_the_drawing_process_goes_when_its_bot_process_is_killed() -> None:
    repo = Path(__file__).resolve().parents[2]
    bot = subprocess.Popen(
        [sys.executable, "-c", _DRAWING_BOT],
        cwd=repo,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert bot.stdout is not None
        drawer = int(bot.stdout.readline())
        watch = os.pidfd_open(drawer)  # readable once that process has exited
        try:
            assert select.select([watch], [], [], 0)[0] == []  # drawing, alive
            bot.send_signal(signal.SIGKILL)  # it cannot stop its child
            bot.wait()
            assert select.select([watch], [], [], 30)[0] == [watch]  # the child went too
        finally:
            os.close(watch)
    finally:
        bot.kill()
        bot.wait()


def test_a_games_pictures_import_without_the_discord_side() -> None:
    """What the drawing process imports to draw (a game's ``pictures`` module) brings no
    game's Discord side, no Discord library and no store with it: the bot's game list is
    built at its first use, not when ``bot.games`` is imported."""
    repo = Path(__file__).resolve().parents[2]
    probe = (
        "import sys, bot.games.dupe.pictures, bot.games.doppelkopf.pictures\n"
        "print(sorted(m for m in ('discord', 'aiosqlite', 'pydantic', 'bot.games.dupe.ui',"
        " 'bot.games.doppelkopf.ui', 'bot.controller') if m in sys.modules))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], cwd=repo, capture_output=True, text=True, check=True
    )
    assert done.stdout.strip() == "[]"


def test_the_game_list_is_built_at_its_first_use() -> None:
    from bot import games

    assert [ui.name for ui in games.GAMES][:2] == ["dupe", "doppelkopf"]
    assert games.get("dupe") is games.GAMES[0]
    with pytest.raises(KeyError, match="the bot hosts dupe, doppelkopf"):
        games.get("no-such-game")
    with pytest.raises(AttributeError):
        games.NOT_A_NAME  # noqa: B018
