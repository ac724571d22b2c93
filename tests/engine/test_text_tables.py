"""The shell every text table shares (engine/terminal.py), and the flags engine.play and
engine.simulate share: the same names in every game, and one sentence naming the game and
what it accepts for every bad one."""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

import pytest

from engine import games
from engine.play import main as play_main
from engine.simulate import main as simulate_main
from engine.terminal import Choice, EndOfInput, TextTable
from tests.engine.terminal_helpers import Typist

ROOT = Path(__file__).resolve().parents[2]
TABLES = ["dupe", "doppelkopf", "whist", "dukes_up"]


class Table(TextTable):
    """A table that asks one numbered question and records the answer."""

    answer: object = None

    def play(self) -> None:
        choices = [Choice("9♠", "nine"), Choice("K♠", "king")]
        self.say("Your card:", *self.numbered(choices))
        self.answer = self.choose(choices, read=self.read)

    def read(self, text: str) -> str | None:
        if text.upper() == "KS":
            return "king"
        self.say(f"“{text}” is not one of your cards.")
        return None

    def hand_lines(self) -> list[str]:
        return ["Your hand: 9♠ K♠"]


def run_table(*lines: str) -> tuple[Table, int, str]:
    out = io.StringIO()
    table = Table(io.StringIO("".join(f"{line}\n" for line in lines)), out)
    code = table.run(["Welcome."])
    return table, code, out.getvalue()


def test_the_shell_numbers_choices_answers_commands_and_reads_text() -> None:
    table, code, text = run_table("", "help", "hand", "score", "7", "zz", "ks")
    assert code == 0 and table.answer == "king"
    assert "Your card:\n  [1] 9♠  [2] K♠\n> \n" in text
    assert "> \nType the number of your choice (help lists the commands)." in text
    assert "> help\nCommands: hand, table, score, help, quit." in text
    assert "> hand\nYour hand: 9♠ K♠" in text
    assert "> score\nThere is no score yet." in text
    assert "> 7\nThere is no choice 7: choose 1 to 2." in text
    assert "> zz\n“zz” is not one of your cards." in text
    table, _, _ = run_table("2")
    assert table.answer == "king"


def test_the_shell_ends_on_quit_end_of_input_and_ctrl_c() -> None:
    _, code, text = run_table("quit")
    assert code == 0 and text.rstrip().endswith("You leave the table. Goodbye.")
    _, code, text = run_table()
    assert code == 0 and text.rstrip().endswith("End of input: goodbye.")

    class Interrupted(io.StringIO):
        def readline(self, size: int | None = -1) -> str:  # type: ignore[override]
            raise KeyboardInterrupt

    out = io.StringIO()
    assert Table(Interrupted(), out).run() == 130
    assert out.getvalue().rstrip().endswith("Interrupted: goodbye.")


def test_confirm_asks_until_yes_or_no() -> None:
    out = io.StringIO()
    table = Table(io.StringIO("perhaps\ny\n"), out)
    assert table.confirm("Resign?") is True
    assert "(y/n)> perhaps\nAnswer y (yes) or n (no).\n(y/n)> y" in out.getvalue()
    with pytest.raises(EndOfInput):
        Table(io.StringIO(""), io.StringIO()).confirm("Resign?")


def test_engine_play_names_its_games_and_the_shared_flags(
    capsys: pytest.CaptureFixture[str],
) -> None:
    out = io.StringIO()
    assert play_main(["--help"], io.StringIO(), out) == 0
    shown = out.getvalue()
    for game in games.GAMES:
        assert f"{game.name} ({game.title})" in shown
    assert "shared flags: --seed S, --seat SEAT, --level LEVEL, --variant V" in shown
    assert play_main([], io.StringIO(), io.StringIO()) == 2
    assert play_main(["chess"], io.StringIO(), io.StringIO()) == 2
    err = capsys.readouterr().err
    assert err.strip().splitlines()[-1] == (
        "error: there is no game “chess”: choose dupe, doppelkopf, whist, dukes_up or "
        "whist_duplicate."
    )


@pytest.mark.parametrize("game", TABLES)
def test_every_table_takes_the_shared_flags_under_the_same_names(game: str) -> None:
    out = io.StringIO()
    assert play_main([game, "--help"], io.StringIO(), out) == 0
    shown = out.getvalue()
    for flag in ("--seed", "--seat", "--level", "--option"):
        assert flag in shown, (game, flag)
    if game in ("whist", "doppelkopf"):
        assert "--variant" in shown and "--seats" in shown


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["dupe", "--seat", "X"], "error: Dupe: “X” is not a seat: choose N, E, S or W."),
        (["dupe", "--level", "genius"], "error: Dupe: “genius” is not a computer level: choose"),
        (["dupe", "--variant", "x"], "error: Dupe: there is no flag --variant: the flags are"),
        (["dupe", "--memory", "half"], "error: Dupe: invalid choice: 'half'"),
        (["dupe", "--seed", "x"], "error: Dupe: --seed takes a whole number, not 'x'."),
        (["whist", "--variant", "long"], "error: Whist: “long” is not a variant: choose short"),
        (["doppelkopf", "--variant", "x"], "“x” is not a preset: choose tournament or house."),
        (["dukes_up", "--seat", "G"], "error: Dukes Up!: “G” is not a seat: choose B (Black)"),
    ],
)
def test_a_bad_table_flag_is_one_sentence_naming_the_game(
    capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    out = io.StringIO()
    assert play_main(args, io.StringIO(), out) == 2
    err = capsys.readouterr().err
    assert out.getvalue() == "" and len(err.strip().splitlines()) == 1
    assert message in err


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["whist", "--variant", "long"], "error: Whist: “long” is not a whist variant: choose one"),
        (["dupe", "--variant", "x"], "error: Dupe: there are no variants or presets"),
        (["whist", "--memory", "open"], "error: Whist: --memory is Dupe's flag"),
        (["doppelkopf", "--level", "genius"], "error: Doppelkopf: “genius” is not a computer"),
        (["dukes_up", "--option", "x=1"], "error: Dukes Up!: there is no option “x”: the options"),
        (["dupe", "--frob"], "error: Dupe: there is no flag --frob: the flags are --games"),
        (["chess"], "error: engine.simulate: there is no game “chess”: choose dupe, doppelkopf"),
    ],
)
def test_a_bad_simulate_flag_is_one_sentence_naming_the_game(
    capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    assert simulate_main([*args, "--games", "1"]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and len(captured.err.strip().splitlines()) == 1
    assert message in captured.err


def test_simulate_takes_the_tables_flag_names(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["doppelkopf", "--variant", "house", "--seats", "5", "--level", "random"]
    assert simulate_main([*args, "--games", "1", "--no-timing", "--json"]) == 0
    report = capsys.readouterr().out
    assert report.count("\nrandom ") == 5
    assert simulate_main(["whist", "--preset", "mort", "--games", "1", "--no-timing"]) == 0


@pytest.mark.parametrize(
    ("args", "lines", "end"),
    [
        (["whist", "--seed", "2", "--level", "random"], ["1"] * 3000, "=== Rubber over — "),
        (
            ["dukes_up", "--seed", "3", "--level", "random", "--option", "max_turns=6"],
            ["1 2 3"] + ["draw 0", "d3"] * 10,
            "=== Match over — ",
        ),
    ],
)
def test_a_whole_game_through_a_real_standard_input(
    args: list[str], lines: list[str], end: str
) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "engine.play", *args],
        input="".join(f"{line}\n" for line in lines),
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    assert end in done.stdout and "Traceback" not in done.stdout


def test_the_typist_helper_answers_from_the_screen() -> None:
    out = io.StringIO()
    out.write("Question?\n> ")
    typist = Typist(out, ["scripted"], default=lambda screen: "A" if "Question" in screen else "B")
    assert typist.readline() == "scripted\n"
    out.write("Other\n> ")
    assert typist.readline() == "B\n"
