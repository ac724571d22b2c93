"""The simulator: reproducible runs, win shares, seat rotation and the command line.

Only the ``random`` and ``greedy`` levels are used here.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

import engine.dupe.players as dupe_players
from engine.dupe import GAME, DupeOptions, DupeState, DupeView, new_game
from engine.dupe.players import Player, make_player
from engine.dupe.players.random import RandomPlayer
from engine.simulate import EntryStats, SimulationResult, main, simulate, wilson

ROOT = Path(__file__).resolve().parents[2]
PLAYERS = ["random", "greedy", "random", "greedy"]


def outcomes(result: SimulationResult) -> list[tuple[str, list[float], list[int]]]:
    return [(e.name, e.wins, e.scores) for e in result.entries]


def test_a_run_is_reproducible() -> None:
    first = simulate(PLAYERS, 8, seed=3)
    second = simulate(PLAYERS, 8, seed=3, timing=False)
    assert first.games == second.games == 8
    assert outcomes(first) == outcomes(second)
    assert outcomes(simulate(PLAYERS, 8, seed=4)) != outcomes(first)
    assert [e.name for e in first.entries] == PLAYERS
    assert all(len(e.scores) == len(e.wins) == 8 for e in first.entries)


def test_win_shares_sum_to_one() -> None:
    result = simulate(PLAYERS, 12, seed=0, timing=False)
    assert sum(e.win_share for e in result.entries) == pytest.approx(1.0)
    for game in range(12):
        assert sum(e.wins[game] for e in result.entries) == pytest.approx(1.0)
        top = max(e.scores[game] for e in result.entries)
        for e in result.entries:
            if e.scores[game] < top:
                assert e.wins[game] == 0.0
            else:
                assert e.wins[game] > 0.0
    for e in result.entries:
        assert e.mean_score == pytest.approx(sum(e.scores) / 12)
        low, high = e.win_share_ci()
        assert low <= e.win_share <= high


def test_seats_rotate_through_the_entries(monkeypatch: pytest.MonkeyPatch) -> None:
    seated: list[tuple[str, int]] = []  # (entry name, seat) per player made
    acted: set[tuple[str, int, int | None]] = set()  # (entry name, player seed, seat seen)

    class Recording:
        def __init__(self, name: str, seed: int) -> None:
            self.name = name
            self._seed = seed
            self._inner = RandomPlayer(seed)

        def act(self, view: DupeView) -> object:
            acted.add((self.name, self._seed, view.seat))
            return self._inner.act(view)

    def factory(level: str) -> Callable[[int], Player]:
        def make(seed: int) -> Player:
            seated.append((level, seed % 4))
            return Recording(level, seed)  # type: ignore[return-value]

        return make

    levels = {name: factory(name) for name in ("a", "b", "c", "d")}
    monkeypatch.setattr(dupe_players, "LEVELS", levels)
    seed = 10
    simulate(["a", "b", "c", "d"], 8, seed=seed, timing=False)
    assert len(seated) == 8 * 4
    for game in range(8):
        for seat in range(4):
            name, made_for = seated[game * 4 + seat]
            assert made_for == seat
            assert name == "abcd"[(seat - game) % 4]  # entry i sits in seat (i + g) % 4
    for name in "abcd":
        assert sorted(seat for n, seat in seated if n == name) == [0, 0, 1, 1, 2, 2, 3, 3]
    # each player acted for the seat it was made for
    assert {(name, seed % 4) for name, seed, _ in acted} == set(seated)
    assert all(seen == seed % 4 for _, seed, seen in acted)


def test_results_belong_to_the_rotated_seats() -> None:
    seed = 5
    result = simulate(PLAYERS, 4, seed=seed, timing=False)
    for game in range(4):
        game_seed = seed + game
        state = new_game(game_seed)
        seat_entry = [(seat - game) % 4 for seat in range(4)]
        players = [
            make_player(PLAYERS[seat_entry[seat]], game_seed * 4 + seat) for seat in range(4)
        ]
        while not state.is_over:
            for seat in state.to_act:
                state.apply(seat, players[seat].act(state.view(seat)))
        for seat in range(4):
            entry = result.entries[seat_entry[seat]]
            assert entry.scores[game] == state.totals[seat]
            won = 1 / len(state.winners) if seat in state.winners else 0.0
            assert entry.wins[game] == won


def test_options_reach_the_games(monkeypatch: pytest.MonkeyPatch) -> None:
    made: list[DupeOptions | None] = []

    def recording_new_game(seed: int, options: DupeOptions | None = None) -> DupeState:
        made.append(options)
        return new_game(seed, options)

    monkeypatch.setattr(GAME, "new_game", recording_new_game)
    opened = simulate(PLAYERS, 4, seed=2, options=DupeOptions(memory="open"), timing=False)
    assert made == [DupeOptions(memory="open")] * 4
    assert [e.name for e in opened.entries] == PLAYERS
    strict = simulate(PLAYERS, 4, seed=2, options=DupeOptions(memory="strict"), timing=False)
    assert outcomes(strict) == outcomes(simulate(PLAYERS, 4, seed=2, timing=False))


def test_timing_records_every_decision() -> None:
    result = simulate(["random"] * 4, 4, seed=0, timing=True)
    for e in result.entries:
        assert len(e.decision_ns) >= 4 * 4 * 13  # at least one choice per trick
        assert all(ns >= 0 for ns in e.decision_ns)
        assert 0.0 <= e.decision_ms(0.5) <= e.decision_ms(0.99)
    untimed = simulate(["random"] * 4, 4, seed=0, timing=False)
    assert all(e.decision_ns == [] and e.decision_ms(0.5) == 0.0 for e in untimed.entries)
    assert result.games_per_second > 0


def test_entry_stats_of_known_values() -> None:
    stats = EntryStats("x", wins=[1.0, 0.0, 0.5, 0.5], scores=[100, 120, 110, 110])
    assert stats.win_share == 0.5
    assert stats.mean_score == 110
    low, high = stats.mean_score_ci()
    assert low < 110 < high
    assert high - 110 == pytest.approx(110 - low)
    empty = EntryStats("y")
    assert (empty.win_share, empty.mean_score, empty.win_share_ci()) == (0.0, 0.0, (0.0, 0.0))


@pytest.mark.parametrize(
    ("players", "games", "words"),
    [
        (["random", "random", "random"], 1, ["4 players", "not 3"]),
        (["random"] * 5, 1, ["4 players", "not 5"]),
        (["random", "random", "random", "wizard"], 1, ["wizard"]),
        (["random"] * 4, 0, ["at least one"]),
    ],
)
def test_bad_arguments_raise_value_error(players: list[str], games: int, words: list[str]) -> None:
    with pytest.raises(ValueError) as caught:
        simulate(players, games)
    for word in words:
        assert word in str(caught.value)


def test_main_prints_one_json_object_last(capsys: pytest.CaptureFixture[str]) -> None:
    players = "greedy,random,random,greedy"
    argv = ["dupe", "--games", "8", "--seed", "1", "--players", players, "--json", "--no-timing"]
    assert main(argv) == 0
    out, err = capsys.readouterr()
    assert err == ""
    lines = out.strip().splitlines()
    assert len(lines) > 1
    data = json.loads(lines[-1])
    assert isinstance(data, dict)
    assert {"games", "seconds", "games_per_second", "players"} <= data.keys()
    assert data["games"] == 8
    assert data["seconds"] >= 0 and data["games_per_second"] > 0
    assert [p["name"] for p in data["players"]] == players.split(",")
    for p in data["players"]:
        assert {"name", "win_share", "mean_score"} <= p.keys()
    assert sum(p["win_share"] for p in data["players"]) == pytest.approx(1.0, abs=1e-3)
    expected = simulate(players.split(","), 8, seed=1, timing=False)
    assert [p["mean_score"] for p in data["players"]] == [
        round(e.mean_score, 3) for e in expected.entries
    ]
    assert [p["win_share"] for p in data["players"]] == [
        round(e.win_share, 4) for e in expected.entries
    ]


def test_main_without_json_prints_a_table(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["dupe", "--games", "4", "--players", "random, greedy ,random,greedy", "--memory=open"]
    assert main(argv) == 0
    out, _ = capsys.readouterr()
    assert out.startswith("4 games in ")
    assert "{" not in out
    assert sum(line.startswith(("random", "greedy")) for line in out.splitlines()) == 4


@pytest.mark.parametrize(
    ("players", "words"),
    [
        ("random,random,wizard,random", ["wizard", "random", "greedy"]),
        ("random,random,random", ["4 players", "3"]),
        ("random,random,random,random,random", ["4 players", "5"]),
        ("", ["4 players", "0"]),
    ],
)
def test_main_refuses_bad_players(
    capsys: pytest.CaptureFixture[str], players: str, words: list[str]
) -> None:
    assert main(["dupe", "--games", "2", "--players", players, "--json"]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.startswith("error: ")
    assert "Traceback" not in err
    assert len(err.strip().splitlines()) == 1
    for word in words:
        assert word in err


def test_main_refuses_zero_games(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["dupe", "--games", "0"]) == 2
    _, err = capsys.readouterr()
    assert err.startswith("error: ") and "Traceback" not in err


def test_command_line_module() -> None:
    ok = subprocess.run(
        [sys.executable, "-m", "engine.simulate", "dupe", "--games", "4", "--json"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert ok.returncode == 0, ok.stderr
    assert json.loads(ok.stdout.strip().splitlines()[-1])["games"] == 4
    bad = subprocess.run(
        [sys.executable, "-m", "engine.simulate", "dupe", "--players", "random,nobody"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert bad.returncode == 2
    assert bad.stdout == ""
    assert "Traceback" not in bad.stderr
    assert bad.stderr.startswith("error: ")


def test_a_win_share_interval_stays_between_nothing_and_everything() -> None:
    """Wilson's interval: never below 0 or above 1, even with no win or every win (the
    normal approximation gave [-0.001, 0.014] for rare wins)."""
    assert wilson(0, 100) == (0.0, pytest.approx(0.037, abs=0.001))
    low, high = wilson(100, 100)
    assert high == pytest.approx(1.0) and high <= 1.0 and 0.96 < low < 1.0
    low, high = wilson(1, 1000)
    assert 0.0 <= low < 0.001 < high < 0.006
    assert wilson(0, 0) == (0.0, 0.0)
    share = EntryStats("x", wins=[0.0] * 399 + [1.0])
    assert 0.0 <= share.win_share_ci()[0] <= share.win_share <= share.win_share_ci()[1] <= 1.0


def test_a_player_that_fails_is_a_bug_not_a_bad_option(monkeypatch: pytest.MonkeyPatch) -> None:
    """A player raising ValueError mid-game is reported as the failure it is, never as the
    "error: …" answer (exit 2) that a bad option gets."""

    class Broken:
        name = "broken"

        def observe(self, view: DupeView) -> None:
            return None

        def act(self, view: DupeView) -> object:
            raise ValueError("no idea")

    monkeypatch.setitem(GAME.levels, "broken", lambda seed: Broken())  # type: ignore[index]
    with pytest.raises(RuntimeError, match=r"game 0 \(seed 5\) failed: ValueError\('no idea'\)"):
        simulate(["broken", "random", "random", "random"], 1, 5)
    with pytest.raises(ValueError, match="no computer player"):
        simulate(["nobody", "random", "random", "random"], 1, 5)
