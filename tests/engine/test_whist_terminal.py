"""Whist's terminal table: whole units of every variant played through its input stream, and
that it shows the person only what his views hold."""

from __future__ import annotations

import io
import re

import pytest

from engine.play import main as play_main
from engine.whist import WhistOptions, new_game
from engine.whist.terminal import PROMPT, main

CARD = re.compile(r"(?<![0-9])(10|[2-9JQKA])([♠♥♦♣])")


class Responder(io.TextIOBase):
    """An input stream that reads the screen and answers what it asks, like a person who
    plays the first playable card, keeps his Humbug hand, names spades and rejects claims;
    ``script`` lines come first. After ``limit`` answers it ends (EOF)."""

    def __init__(self, out: io.StringIO, script: list[str] | None = None, limit: int = 5000):
        self.out = out
        self.script = list(script or [])
        self.limit = limit
        self.answers = 0

    def readable(self) -> bool:
        return True

    def readline(self, size: int | None = -1) -> str:  # type: ignore[override]
        self.answers += 1
        if self.answers > self.limit:
            return ""
        if self.script:
            return self.script.pop(0) + "\n"
        parts = self.out.getvalue().rsplit(PROMPT, 2)
        screen = parts[-2] if len(parts) > 1 else parts[0]  # what this prompt showed
        if "(k / e)" in screen:
            return "k\n"
        if "(y / n)" in screen:
            return "n\n"
        if "Name the trump suit" in screen:
            return "S\n"
        return "1\n"


def run(args: list[str], script: list[str] | None = None, limit: int = 5000) -> tuple[int, str]:
    out = io.StringIO()
    code = play_main(["whist", *args], Responder(out, script, limit), out)
    return code, out.getvalue()


@pytest.mark.parametrize(
    ("options", "player"),
    [
        ([], 0),
        (["variant=english_dummy"], 1),
        (["variant=english_dummy", "fixed_dummy=true", "dummy_player=0", "rubbers=1"], 0),
        (["variant=double_dummy"], 0),
        (["variant=humbug"], 1),
        (["variant=humbug", "humbug_declared=true"], 0),
        (["variant=two_hand"], 0),
        (["variant=mort", "players=3"], 2),
        (["variant=mort"], 3),
    ],
)
def test_a_whole_unit_is_played_at_the_terminal(options: list[str], player: int) -> None:
    args = ["--seed", "5", "--player", str(player), "--level", "basic"]
    for option in options:
        args += ["--option", option]
    code, text = run(args)
    assert code == 0, text[-2000:]
    assert "=== The unit of play is over ===" in text and "Winner" in text
    assert "is not a card" not in text and "Traceback" not in text


def test_the_person_controls_dummy_and_sees_what_his_views_show() -> None:
    code, text = run(
        ["--seed", "2", "--player", "0", "--option", "variant=english_dummy"], limit=60
    )
    assert code == 0 and "End of input" in text
    state = new_game(2, WhistOptions(variant="english_dummy"))
    partner = state.order[0]
    if partner == 0:
        assert "North to act — North, whose cards you choose" in text or "North (dummy)" in text
    # the hands the person may not see never appear before they are played
    hidden = [s for s in range(4) if state.player_at(s) not in (0, None)]
    first_screen = text.split(PROMPT)[0]
    shown = {m.group(0) for m in CARD.finditer(first_screen)}
    seat = state.seat_of(0)
    assert seat is not None
    mine = {str(c) for c in state.hand(seat)} | {str(c) for c in state.hand(0)}
    for s in hidden:
        if s == seat:
            continue
        for c in state.hand(s):
            if str(c) in shown and str(c) not in mine and c != state.turnup:
                played = f"plays {c}." in first_screen
                assert played, (s, c)


def test_sitting_out_in_mort_the_person_watches() -> None:
    state = new_game(5, WhistOptions(variant="mort"))
    out_first = state.sitting_out
    assert out_first is not None
    code, text = run(
        ["--seed", "5", "--player", str(out_first), "--option", "variant=mort"], limit=3
    )
    assert code == 0 and "You sit out this game" in text


def test_bad_arguments_and_commands() -> None:
    out = io.StringIO()
    assert main(["--option", "variant=long"], io.StringIO(""), out) == 2
    assert main(["--option", "nonsense"], io.StringIO(""), out) == 2
    assert main(["--player", "9"], io.StringIO(""), out) == 2
    code, text = run(["--seed", "1"], script=["help", "xx", "99", "score", "table", "quit"])
    assert code == 0
    assert "Commands:" in text and "is not a card" in text and "There is no playable card" in text
    assert "Totals:" in text and "You leave the table" in text


def test_the_shell_lists_whist() -> None:
    out = io.StringIO()
    assert play_main(["--help"], io.StringIO(""), out) == 0
    assert "whist" in out.getvalue()
