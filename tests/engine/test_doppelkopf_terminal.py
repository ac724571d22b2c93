"""Doppelkopf's text table: whole tables of both presets played through standard input, what
the transcript shows (choices in hand order with suit symbols, parties, the soloist, named
score items, the end), and a specific answer to each bad input."""

from __future__ import annotations

import re

import pytest

from tests.engine.terminal_helpers import after, play

ASCII_CARD = re.compile(r"\[\d+\] (?:10|[9JQKAT])[CSHD]\b")
CARD = re.compile(r"(?:10|[9JQKA])[♣♠♥♦]")


def person(screen: str) -> str:
    """Answer like a person: a typed poverty from the hand shown, Enter while watching, and
    ``hand`` before each card so the test can compare the two orders."""
    last = screen.rstrip("\n").rsplit("\n", 1)[-1]
    if "Name three cards" in screen:
        hand = re.findall(r"Your hand \(\d+\): (.*)", screen)[-1].split()
        return " ".join(hand[:3])
    if "(Enter" in last:
        return ""
    return "hand" if "Your card:\n" in screen else "1"


def card_questions(text: str) -> list[tuple[list[str], list[str]]]:
    """Return, per card question answered after ``hand``, the hand and the listed cards."""
    found = []
    for block in text.split("Your card:\n")[1:]:
        listed = block.split("\n> ", 1)[0]
        shown = re.search(r"> hand\nYour hand \(\d+\): (.*)", block)
        if shown:
            found.append((shown.group(1).split(), CARD.findall(listed)))
    return found


@pytest.mark.parametrize(
    "args",
    [
        ["--seed", "3"],
        ["--seed", "8", "--variant", "house", "--seat", "1"],
        ["--seed", "4", "--preset", "house", "--seats", "5", "--seat", "2"],
    ],
)
def test_a_whole_table_is_played_through_standard_input(args: list[str]) -> None:
    code, text = play(["doppelkopf", *args], default=person)
    assert code == 0
    assert "Traceback" not in text
    # choices: cards with suit symbols, in the order of the hand
    assert not ASCII_CARD.search(text)
    questions = card_questions(text)
    assert len(questions) > 20
    for hand, listed in questions:
        assert listed == sorted(listed, key=hand.index), (hand, listed)
    # nobody waits: the person is asked only at his turn or at a last chance
    assert "wait" not in text
    # the game is told once it is fixed, never before the reservations
    for deal in text.split("\nDeal ")[1:]:
        if "You sit out" in deal.split("\n", 1)[0]:
            continue
        if "Game: " not in deal:  # thrown in
            assert "misdeal (throw the cards in)" in deal
            continue
        assert deal.index("Game: ") > deal.index("> "), deal[:400]
        game = re.search(r"Game: (.*)", deal)
        assert game is not None
        line = game.group(1)
        assert re.search(r"You play (Re|Contra)", line) or "not known yet" in line, line
        if "solo" in line:
            assert re.search(r"solo, played by (seat \d|you)", line), line
    # score items by their names, results by seat
    assert not re.search(r"\b(vs-no\d+|below\d+|club-queens|no-trick)\b", text)
    assert re.search(r"This game: (seat 1|you) [+-]\d+, (seat 2|you) [+-]\d+", text)
    end = after(text, "=== The table is over ===")
    assert re.search(r"(You|Seat \d)\s+[+-]\d+", end)
    assert re.search(r"wins? with [+-]\d+\.", end)


def test_a_solo_names_its_soloist_and_the_persons_party() -> None:
    _, text = play(["doppelkopf", "--seed", "3"], default=person)
    assert "Game: Clubs solo, played by seat 2. You play Contra." in text
    assert "Game: a normal game. You play Re." in text
    assert "  Contra: won 1, against the club queens 1 = 2" in text


def test_a_sitting_out_dealer_watches_trick_by_trick_and_may_skip() -> None:
    args = ["doppelkopf", "--seed", "4", "--variant", "house", "--seats", "5", "--seat", "1"]
    _, text = play(args, script=["", "", "s"], default=person)
    first = after(text, "Deal 1, dealt by you. You sit out this deal and watch.")
    first = first[: first.index("=== Game 1 scored")]
    assert first.count("(Enter: next trick, s: skip to the scoring)> ") == 3
    assert first.count("\nTrick ") == 12  # the rest is still shown, without pauses


def test_the_person_may_announce_when_a_computer_card_would_close_it() -> None:
    _, text = play(
        ["doppelkopf", "--seed", "5", "--variant", "house", "--seat", "2"], default=person
    )
    chance = after(text, "Last chance: ")
    assert re.match(r"Last chance: (Re|Contra|No \d+|Black) can no longer be announced", chance)
    assert re.search(r"\[1\] Announce \S+.*\[2\] Go on", chance)
    assert re.search(r"> 1\nYou announce ", chance)


def test_commands_and_bad_input_get_specific_answers() -> None:
    script = ["1", "xx", "99", "0", "AS", "QC", "hand", "score", "table", "help", "quit"]
    code, text = play(["doppelkopf", "--seed", "3"], script=script)
    assert code == 0
    assert "> xx\n“xx” is not a Doppelkopf action. Type a number from the list, or help." in text
    assert "> 99\nThere is no choice 99: choose 1 to 2." in text
    assert "> 0\nThere is no choice 0: choose 1 to 2." in text
    assert "> AS\nYou hold no A♠." in text
    assert "> QC\nQ♣ does not follow the card led: play 9♥." in text
    assert "> hand\nYour hand (12): Q♣ Q♠ Q♥ 10♦ K♦ K♣ K♠ K♠ 9♠ 9♠ 9♥ 9♥" in text
    assert "> score\nNo game has been scored yet. Totals: you +0, seat 2 +0" in text
    assert "> table\nDeal 1, dealt by you.\nGame: a normal game. You play Re." in text
    assert "Announcements are offered at your turn" in text
    assert text.rstrip().endswith("You leave the table. Goodbye.")


def test_end_of_input_says_goodbye() -> None:
    code, text = play(["doppelkopf", "--seed", "3"], limit=2)
    assert code == 0 and text.rstrip().endswith("End of input: goodbye.")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--seat", "7"], "error: Doppelkopf: “7” is not a seat: choose 1 to 4"),
        (["--level", "genius"], "“genius” is not a computer level: choose random, basic or"),
        (["--variant", "long"], "“long” is not a preset: choose tournament or house."),
        (["--seats", "5"], "error: Doppelkopf: the tournament preset is played by exactly 4"),
        (["--variant", "house", "--seat", "5"], "there is no seat 5 at a table of 4"),
        (["--option", "foo=1"], "there is no option “foo”: the options are preset, players"),
        (["--frob"], "error: Doppelkopf: there is no flag --frob: the flags are --games"),
    ],
)
def test_bad_flags_are_one_sentence_naming_the_game(
    capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    code, text = play(["doppelkopf", *args])
    err = capsys.readouterr().err
    assert code == 2 and text == ""
    assert len(err.strip().splitlines()) == 1 and err.startswith("error: Doppelkopf: ")
    assert message in err
