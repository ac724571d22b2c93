"""Dukes Up!'s computer players (legal, deterministic, fast enough, the baseline's habits)
and its terminal table."""

from __future__ import annotations

import io
import time

import pytest

from engine.dukes_up import DukesUpOptions, Kind, Phase, new_game
from engine.dukes_up.players import LEVELS, make_player
from engine.dukes_up.players.baseline import room
from engine.play import main as play_main
from engine.simulate import simulate
from tests.engine.dukes_helpers import act, c, cs, placed


def play_match(
    levels: tuple[str, str], seed: int, options: DukesUpOptions | None = None
) -> list[float]:
    """Play a match between two levels; return each decision's seconds."""
    state = new_game(seed, options)
    players = [make_player(levels[0], seed), make_player(levels[1], seed + 1)]
    times = []
    while not state.is_over:
        seat = state.to_act[0]
        started = time.perf_counter()
        action = players[seat].act(state.view(seat))
        times.append(time.perf_counter() - started)
        state.apply(seat, action)  # refused actions would raise
    return times


@pytest.mark.parametrize(
    "levels", [("random", "random"), ("baseline", "random"), ("baseline", "baseline")]
)
def test_players_play_only_accepted_actions(levels: tuple[str, str]) -> None:
    for seed in range(4):
        # Every decision is applied (a refused one raises) until the match is over: two
        # rounds of at most 80 turns, each turn a draw and an end at least.
        decisions = play_match(levels, seed, DukesUpOptions(rounds=2, max_turns=80))
        assert 2 * 2 <= len(decisions) <= 2 * 80 * 200


def test_players_are_deterministic_for_a_seed() -> None:
    for level in LEVELS:
        runs = []
        for _ in range(2):
            state = new_game(9)
            players = [make_player(level, 1), make_player(level, 2)]
            while not state.is_over:
                seat = state.to_act[0]
                state.apply(seat, players[seat].act(state.view(seat)))
            runs.append([str(m) for m in state.moves])
        assert runs[0] == runs[1]


def test_unknown_level_is_refused() -> None:
    with pytest.raises(ValueError, match="baseline"):
        make_player("grandmaster", 1)


def test_the_baseline_hides_hard_cards_in_its_slots() -> None:
    state = new_game(4)
    view = state.view(0)
    action = make_player("baseline", 0).act(view)
    assert action.kind is Kind.SETUP
    castle, d1, d2, hand = action.cards
    assert room(hand) >= max(room(castle), room(d1), room(d2))
    assert room(castle) <= min(room(d1), room(d2))


def test_the_baseline_draws_as_many_as_it_may() -> None:
    s = placed(0, black_hand="2C", drawn=False)
    action = make_player("baseline", 0).act(s.view(0))
    assert str(action) == "draw:pile=draw;n=2"


def test_the_baseline_places_what_fits_and_captures_when_not_behind() -> None:
    s = placed(
        0,
        black_hand="3S 4S 5S 9C",
        red_dukes="",
        red_castle=("QH", True),
        table=["QC QD QS"],
        black_castle=("KC", False),
    )
    player = make_player("baseline", 0)
    action = player.act(s.view(0))
    assert action.kind is Kind.ACCEPT
    s.apply(0, action)
    placed_cards = {x for g in s.board(working=True).table for x in g}
    assert cs("3S 4S 5S")[0] in placed_cards and c("QH") in placed_cards
    assert str(player.act(s.view(0))) == "finish"
    s.apply(0, player.act(s.view(0)))
    assert s.results[-1].end == "capture"


def test_the_baseline_does_not_take_a_duke_when_behind() -> None:
    s = placed(
        0,
        black_hand="8C TC",
        black_dukes="",
        black_castle=("KC", True),
        red_dukes="9H",
        table=["5D 6D 7D 8D 9D TD"],
        turn=3,
    )
    assert s.score()[0] < s.score()[1]
    action = make_player("baseline", 0).act(s.view(0))
    assert action.kind is not Kind.ACCEPT or c("9H") not in {x for g in action.partition for x in g}


def test_decisions_are_fast() -> None:
    times = []
    for seed in range(3):
        times += play_match(("baseline", "baseline"), 50 + seed)
    times.sort()
    assert times[int(0.99 * (len(times) - 1))] < 1.0, "p99 far below a second (bench: ms)"


def test_the_simulator_runs_dukes_up() -> None:
    result = simulate(["baseline", "random"], 4, seed=3, game="dukes_up")
    assert result.games == 4 and sum(e.win_share for e in result.entries) == pytest.approx(1.0)
    assert result.tallies.get("turns", 0) > 0


class Typist(io.TextIOBase):
    """A person at the terminal: answers each prompt from the screen, with a script first."""

    def __init__(self, out: io.StringIO, script: list[str]) -> None:
        self.out = out
        self.script = list(script)
        self.answers = 0

    def readable(self) -> bool:
        return True

    def readline(self, size: int | None = -1) -> str:  # type: ignore[override]
        self.answers += 1
        if self.answers > 3000:
            return ""
        if self.script:
            return self.script.pop(0) + "\n"
        screen = self.out.getvalue().rsplit("> ", 1)[0].rsplit("\n> ", 1)[-1]
        if "Choose your castle" in screen:
            return "1 2 3\n"
        if "Draw: draw N" in screen:
            return "draw 0\n"
        return "d3\n"


def run(args: list[str], script: list[str]) -> tuple[int, str]:
    out = io.StringIO()
    code = play_main(["dukes_up", *args], Typist(out, script), out)
    return code, out.getvalue()


def test_the_terminal_plays_a_whole_match() -> None:
    code, text = run(["--seed", "5", "--option", "max_turns=12"], [])
    assert code == 0
    assert "Round 1 scored (turn-limit)" in text and "=== Match over — " in text


def test_the_terminal_lists_discard_options_with_reasons_and_proposes() -> None:
    script = ["1 2 3", "help"]  # the turn's commands; the setup's help is about the setup
    code, text = run(["--seed", "6", "--option", "max_turns=4", "--seat", "R"], script)
    assert code == 0 and "regroup 1-2 3S 4D 5S | 6D 6S 6C" in text
    out = io.StringIO()
    typist = Typist(out, [])
    from engine.dukes_up.terminal import DukesUpTable, discard_options

    s = placed(0, black_hand="3S 4S 5S 9C 2C", table=["6C 7C 8C"])
    lines = discard_options(s, 0)
    assert any(line.startswith("  D1") and line.endswith("available") for line in lines)
    assert any("D4" in line and "unavailable" in line for line in lines)
    assert any("finish: unavailable — You may finish only" in line for line in lines)
    act(s, 0, "new:3S,4S,5S")
    assert any(
        "D2 two hand cards: unavailable — D2 needs" in line for line in discard_options(s, 0)
    )
    table = DukesUpTable(s, 0, "baseline", 1, typist, out)
    table.do("propose", "propose 2C")
    assert "No valid layout with these cards." in out.getvalue()
    act(s, 0, "undo")
    typist.script = ["y"]
    table.do("propose", "propose 3S 4S 5S")
    assert "Proposal (step 1)" in out.getvalue()
    assert s.board(working=True).table[-1] == cs("3S 4S 5S")


def test_the_terminal_regroups_typed_groups() -> None:
    from engine.dukes_up.terminal import _parse_command

    s = placed(0, black_hand="6S 6C", table=["3S 4D 5S 6D"])
    command = _parse_command("regroup 1 3S 4D 5S | 6D", s, 0)
    assert str(command) == "regroup:1:3S,4D,5S|6D"
    s.apply(0, command)  # type: ignore[arg-type]
    assert str(_parse_command("add 2 6S 6C", s, 0)) == "add:2:6S,6C"
    assert s.phase is Phase.TURN


def test_bad_terminal_arguments_exit_with_code_two() -> None:
    assert play_main(["dukes_up", "--seat", "X"], io.StringIO(), io.StringIO()) == 2
    assert play_main(["dukes_up", "--level", "nobody"], io.StringIO(), io.StringIO()) == 2
    assert play_main(["dukes_up", "--option", "rounds=0"], io.StringIO(), io.StringIO()) == 2
