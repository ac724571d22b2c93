"""Dukes Up!'s text table: a whole match played through standard input, what the transcript
shows (the setup explained, turn summaries, the rounds and the verdict), plain help and rules,
a resignation that asks first, and a specific answer to each bad input."""

from __future__ import annotations

import io
import re

import pytest

from engine.dukes_up import new_game
from engine.play import main as play_main
from tests.engine.terminal_helpers import after, play


def person(screen: str) -> str:
    """Set up with the first three cards, draw nothing, end each turn blind (D3)."""
    if "Choose your castle" in screen:
        return "1 2 3"
    if "Draw: draw N" in screen:
        return "draw 0"
    return "d3"


def test_a_whole_match_is_played_through_standard_input() -> None:
    args = ["dukes_up", "--seed", "5", "--option", "max_turns=12", "--option", "rounds=2"]
    code, text = play(args, default=person)
    assert code == 0 and "Traceback" not in text
    assert text.startswith("Dukes Up!, seed 5 (replay with --seed 5).\nYou play Black (♣♠)")
    # the setup says what castle and dukes are, with the four cards numbered
    assert re.search(r"Your four cards: \[1\] \S+  \[2\] \S+  \[3\] \S+  \[4\] \S+", text)
    assert "Choose your castle (face down; captured once your dukes are gone)" in text
    assert "then your two dukes (face up, guarding it)" in text
    # typed input is echoed, and turns are summarised
    assert "> 1 2 3\n" in text and "> draw 0\n" in text
    assert re.search(r"Red drew \d from the (draw|discard) pile; .*ended with d\d", text)
    for number in (1, 2):
        assert re.search(rf"=== Round {number} scored \(turn-limit\): Black \d+, Red \d+ — ", text)
    assert re.search(r"Castles: Black \S+, Red \S+\. Hands: Black .*; Red ", text)
    end = after(text, "=== Match over — ")
    assert re.match(r"=== Match over — (Black \(you\) wins|Red wins|a shared win): ", end)


def test_help_is_plain_text_and_rules_explain_castle_and_dukes() -> None:
    code, text = play(["dukes_up", "--seed", "5"], ["help", "rules", "1 2 3", "help"], limit=4)
    assert code == 0
    assert "``" not in text and "::" not in text and "A1:" not in text
    assert "Choose your castle, then your two dukes, from your four cards" in text
    assert "Commands: rules (castle and dukes explained), help, quit." in text
    assert "Your castle: one card, face down in its slot." in text
    assert "Your dukes: two cards, face up in their slots, guarding the castle." in text
    turn_help = text[text.rindex("> help") :]
    assert "draw 2 | draw discard 1 | draw 0" in turn_help
    assert "finish | end | resign" in turn_help
    assert "Commands: rules, table, hand, score, help, quit." in turn_help


def test_resigning_asks_first() -> None:
    script = ["1 2 3", "resign", "maybe", "n", "resign", "y"]
    code, text = play(["dukes_up", "--seed", "5"], script, limit=len(script))
    assert code == 0
    assert text.count("Resign the match? Red wins it. Sure?") == 2
    assert "(y/n)> maybe\nAnswer y (yes) or n (no)." in text
    assert "(y/n)> n\nYou play on." in text
    assert "(y/n)> y\nYou resign." in text
    assert "=== Match over — Red wins" in text


def test_bad_setups_get_specific_answers_and_change_nothing() -> None:
    state = new_game(5)
    four = state.view(0).setup
    outsider = next(c for c in state.view(1).setup if c not in four)
    script = [f"{outsider.code} {four[0].code} {four[1].code}", "1 1 2", "9 1 2", "1 2", "xyz"]
    code, text = play(["dukes_up", "--seed", "5"], script, limit=len(script))
    assert code == 0
    shown = " ".join(str(c) for c in four)
    assert f"Not accepted: {outsider} is not one of your four cards ({shown})." in text
    assert f"Not accepted: {four[0]} is named twice: name three different cards." in text
    assert "Not accepted: There is no card 9: choose 1 to 4." in text
    assert "Not accepted: Name three of your four cards: your castle, then your two dukes" in text
    assert "Choose three different cards of your four" not in text
    assert text.count("Your four cards:") == 1  # refused: asked again, not shown again
    assert text.rstrip().endswith("End of input: goodbye.")


def test_bad_turn_commands_get_specific_answers() -> None:
    script = ["1 2 3", "draw 9", "draw 1", "xyz", "score", "hand", "table", "new 9C", "d3", "quit"]
    code, text = play(["dukes_up", "--seed", "5"], script)
    assert code == 0
    assert "> xyz\nNot accepted: “xyz” is not a command: type help for the commands." in text
    assert re.search(r"> draw 9\nNot accepted: .+", text)
    assert "> score\nThis round: Black 3, Red 3." in text
    assert "> hand\nYour hand: " in text
    assert "> table\nRound 1, turn 1/200" in text
    assert "> d3\nNot accepted: G1 is neither a run nor a set." in text
    assert text.rstrip().endswith("You leave the table. Goodbye.")


def test_help_lists_every_flag() -> None:
    out = io.StringIO()
    assert play_main(["dukes_up", "--help"], io.StringIO(""), out) == 0
    shown = out.getvalue()
    for flag in ("--seed", "--seat", "--level", "--option"):
        assert flag in shown
    assert "B (Black, ♣♠, default) or R (Red, ♥♦)" in shown
    assert "random, baseline" in shown


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--seat", "X"], "error: Dukes Up!: “X” is not a seat: choose B (Black) or R (Red)."),
        (
            ["--level", "nobody"],
            "“nobody” is not a computer level: choose random, baseline or expert.",
        ),
        (["--option", "rounds=0"], "error: Dukes Up!: "),
        (["--option", "colour=red"], "there is no option “colour”: the options are rounds"),
        (["--variant", "x"], "there is no flag --variant: the flags are"),
    ],
)
def test_bad_flags_are_one_sentence_naming_the_game(
    capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    out = io.StringIO()
    assert play_main(["dukes_up", *args], io.StringIO(""), out) == 2
    err = capsys.readouterr().err
    assert out.getvalue() == "" and len(err.strip().splitlines()) == 1
    assert err.startswith("error: Dukes Up!: ") and message in err
