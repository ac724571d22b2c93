"""Whist's text table: whole units of every variant played through standard input, what the
transcript shows (choices in suit order, every trick's winner, results by name and seat, the
verdict), that it shows the person only what his views hold, and a specific answer to each
bad input."""

from __future__ import annotations

import io
import re

import pytest

from engine.cards import by_suit, parse_card
from engine.play import main as play_main
from engine.whist import WhistOptions, new_game
from tests.engine.terminal_helpers import after, play

CARD = re.compile(r"(?<![0-9])(10|[2-9JQKA])([♠♥♦♣])")


def person(screen: str) -> str:
    """Answer like a person who takes the first choice but rejects every claim."""
    return "2" if "Accept the claim" in screen else "1"


def run(args: list[str], script: list[str] | None = None, limit: int = 20000) -> tuple[int, str]:
    return play(["whist", *args], script or [], person, limit)


UNITS = [
    (["--variant", "short"], "N", "=== Rubber over — "),
    (["--variant", "english_dummy"], "E", "=== Tournée over — "),
    (
        ["--variant", "english_dummy", "--option", "fixed_dummy=true", "--option", "rubbers=1"],
        "S",
        "=== Rubber over — ",
    ),
    (["--variant", "double_dummy"], "W", "=== Rubber over — "),
    (["--variant", "humbug"], "N", "=== Rubber over — "),
    (["--variant", "humbug", "--option", "humbug_declared=true"], "S", "=== Rubber over — "),
    (["--variant", "two_hand"], "N", "=== Rubber over — "),
    (["--variant", "mort", "--seats", "3"], "S", "=== Tournée over — "),
    (["--variant", "mort"], "E", "=== Tournée over — "),
]


@pytest.mark.parametrize(("args", "seat", "verdict"), UNITS)
def test_a_whole_unit_is_played_through_standard_input(
    args: list[str], seat: str, verdict: str
) -> None:
    code, text = run(["--seed", "5", "--seat", seat, "--level", "basic", *args])
    assert code == 0, text[-2000:]
    assert "Traceback" not in text and "player 0" not in text
    assert "neither a card" not in text and "no answer here" not in text
    # every card question lists the cards in the hand's order: by suit, high first
    lists = re.findall(r"card:.*\n((?:  \[\d+\] .*\n)+)> ", text)
    assert lists
    for block in lists:
        cards = [parse_card(r + s) for r, s in CARD.findall(block)]
        assert cards == sorted(cards, key=by_suit), block
    # each deal: its header once, and one winner per trick played
    for deal in re.split(r"\n(?=Deal \d+ \()", text)[1:]:
        assert deal.count("Deal ") >= 1
        scored = re.search(r"=== Deal \d+ scored: tricks \S+ (\d+), \S+ (\d+)", deal)
        assert scored is not None
        played = len(re.findall(r"^  Trick \d+ to \w+ \(\w+\)\.$", deal, re.MULTILINE))
        assert played == int(scored.group(1)) + int(scored.group(2)), deal[-600:]
    assert len(re.findall(r"^Deal \d+ \(", text, re.MULTILINE)) == len(
        re.findall(r"^=== Deal \d+ scored", text, re.MULTILINE)
    )
    # results by name and seat, and the verdict
    assert re.search(
        r"Totals: (you|Ada|Ben|Cleo|Dev) \((North|East|South|West|sitting out)\)", text
    )
    end = after(text, verdict)
    assert re.match(
        r"=== (Rubber|Tournée) over — (N-S win|E-W win|.+ wins?|.+ share the win) ===", end
    )
    assert re.search(r"^  you \((North|East|South|West|sitting out)\) +-?\d+$", end, re.MULTILINE)


def test_short_whist_ends_with_the_winning_side() -> None:
    _, text = run(["--seed", "3"])
    end = after(text, "=== Rubber over")
    assert end.startswith("=== Rubber over — N-S win ===")
    assert "  you (North)" in end and "  Ben (South)" in end
    assert end.rstrip().endswith("You share the win.")


def test_humbug_asks_keep_or_exchange_as_numbered_choices() -> None:
    code, text = run(["--seed", "3", "--variant", "humbug"], ["maybe", "3", "k"], limit=6)
    assert code == 0
    assert "Keep your hand or exchange it?\n  [1] Keep this hand  [2] Exchange it" in text
    assert "> maybe\n“maybe” is no answer here: type 1 (keep) or 2 (exchange)." in text
    assert "> 3\nThere is no choice 3: choose 1 to 2." in text
    assert "North (you) keeps the hand." in text


def test_the_header_is_printed_once_at_a_new_deal() -> None:
    _, text = run(["--seed", "3", "--variant", "humbug"], limit=3)
    assert text.count("Deal 1 (rubber 1, game 1)") == 1
    assert text.count("Turned up: A♥.") == 2  # the header, then the table at the first card


def test_the_person_controls_dummy_and_sees_what_his_views_show() -> None:
    code, text = run(["--seed", "2", "--seat", "E", "--variant", "english_dummy"], limit=60)
    assert code == 0 and "End of input" in text
    state = new_game(2, WhistOptions(variant="english_dummy"))
    me = state.player_at(1)
    assert me is not None
    first_screen = text.split("\n> ")[0]
    mine = {str(c) for c in state.hand(1)}
    shown = {m.group(0) for m in CARD.finditer(first_screen)}
    for seat in range(4):
        if seat == 1 or state.player_at(seat) is None:
            continue  # his own hand; dummy is spread
        for card in state.hand(seat):
            if str(card) in shown and str(card) not in mine and card != state.turnup:
                assert f"plays {card}." in first_screen, card


def test_the_person_plays_dummys_cards_where_the_rules_give_them_to_him() -> None:
    _, text = run(["--seed", "5", "--seat", "S", "--variant", "mort", "--seats", "3"])
    assert re.search(r"(North|East|South|West)'s card:", text)


def test_sitting_out_in_mort_the_person_watches() -> None:
    _, text = run(["--seed", "1", "--seat", "S", "--variant", "mort"])
    assert "You sit out this game" in text
    assert "Cleo (sitting out)" in text or "you (sitting out)" in text


def test_commands_and_bad_input_get_specific_answers() -> None:
    script = ["help", "xx", "99", "AS", "score", "table", "hand", "quit"]
    code, text = run(["--seed", "1"], script)
    assert code == 0
    assert "You must follow suit if you can" in text and "Commands: hand, table" in text
    assert re.search(r"> xx\n“xx” is neither a card nor a choice: type 1 to \d+, or a card", text)
    assert re.search(r"> 99\nThere is no choice 99: choose 1 to \d+\.", text)
    assert "> AS\nA♠ is not in North's hand." in text
    assert "> score\nScore: N-S 0, E-W 0. Tricks this deal: 0–0.\nTotals: you (North) 0" in text
    assert "> table\nDeal 1 (rubber 1, game 1); dealer" in text
    assert "> hand\nYour hand: ♠" in text
    assert text.rstrip().endswith("You leave the table. Goodbye.")


def test_a_card_that_does_not_follow_is_refused_with_the_rule() -> None:
    cards = [f"{r}{s}" for s in "SHCD" for r in "23456789TJQKA"]
    _, text = run(["--seed", "1", "--seat", "E"], cards, limit=60)
    assert re.search(r"East must follow suit: \w+ were led and East holds some\.", text)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--variant", "long"], "“long” is not a variant: choose short, english_dummy"),
        (["--seat", "X"], "error: Whist: “X” is not a seat: choose N, E, S or W."),
        (["--variant", "mort", "--seats", "5"], "mort is played by 3 or 4 players, not 5."),
        (["--variant", "mort", "--seat", "N", "--seed", "5"], "nobody sits North in the first"),
        (["--option", "nonsense"], "“nonsense” is not an option: write NAME=VALUE"),
        (["--option", "dummy=1"], "there is no option “dummy”: the options are variant"),
        (["--level", "genius"], "“genius” is not a computer level: choose"),
        (["--player", "1"], "there is no flag --player: the flags are"),
    ],
)
def test_bad_flags_are_one_sentence_naming_the_game(
    capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    out = io.StringIO()
    assert play_main(["whist", *args], io.StringIO(""), out) == 2
    err = capsys.readouterr().err
    assert out.getvalue() == "" and len(err.strip().splitlines()) == 1
    assert err.startswith("error: Whist: ") and message in err


def test_the_shell_lists_whist() -> None:
    out = io.StringIO()
    assert play_main(["--help"], io.StringIO(""), out) == 0
    assert "whist (Whist)" in out.getvalue()
