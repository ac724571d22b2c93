"""The whist expert's adapter to endplay's private DDS binding
(:mod:`engine.whist.players.dds`): every name it uses exists in the installed endplay with
the shape it needs, and small positions solve as a card player would count them. A failure
names endplay's version and the name that changed, so that lifting the pin
(``pyproject.toml``) is a deliberate step."""

from __future__ import annotations

import subprocess
import sys
from importlib.metadata import version
from pathlib import Path

from engine.cards import Suit, parse_cards
from engine.whist.players.dds import load_solver, solve_position


def changed(name: str, what: str) -> str:
    return (
        f"endplay {version('endplay')} changed endplay._dds.{name}: {what}. "
        "engine/whist/players/dds.py relies on it: mend the adapter there before lifting "
        "the endplay pin in pyproject.toml."
    )


def test_the_binding_has_the_structures_and_the_solver_the_adapter_uses() -> None:
    dds = load_solver()
    for name in ("deal", "futureTricks", "SolveBoard"):
        assert callable(getattr(dds, name, None)), changed(name, "missing")
    fields = {name for name, *_ in dds.deal._fields_}
    wanted = {"trump", "first", "currentTrickSuit", "currentTrickRank", "remainCards"}
    assert wanted <= fields, changed("deal", f"its fields are {sorted(fields)}")
    deal = dds.deal()
    assert len(deal.currentTrickSuit) == len(deal.currentTrickRank) == 3, changed(
        "deal.currentTrick*", "not three cards"
    )
    shape = [len(row) for row in deal.remainCards]
    assert shape == [4, 4, 4, 4], changed("deal.remainCards", f"its shape is {shape}")
    fields = {name for name, *_ in dds.futureTricks._fields_}
    wanted = {"cards", "score", "suit", "rank", "equals"}
    assert wanted <= fields, changed("futureTricks", f"its fields are {sorted(fields)}")


def test_a_position_solves_with_equal_cards_each_scored() -> None:
    # North leads: the two top spades (equal cards: DDS reports one, the other as its
    # equal) take two tricks; the two of clubs gives East the lead and all three tricks.
    hands = [
        parse_cards("AS KS 2C"),
        parse_cards("AC KC QC"),
        parse_cards("3D 4D 5D"),
        parse_cards("6D 7D 8D"),
    ]
    solved = solve_position(hands, (), 0, Suit.HEARTS)
    expected = dict.fromkeys(parse_cards("AS KS"), 2) | {parse_cards("2C")[0]: 0}
    assert solved == expected, changed("SolveBoard", f"the position solved to {solved}")


def test_a_trick_in_progress_counts_for_the_side_that_wins_it() -> None:
    # West led the ace of hearts; North, to play, has only small cards: no trick for N-S.
    hands = [parse_cards("2C"), parse_cards("3C"), parse_cards("4C"), []]
    solved = solve_position(hands, ((3, parse_cards("AH")[0]),), 0, Suit.SPADES)
    assert solved == {parse_cards("2C")[0]: 0}, changed(
        "deal.currentTrick*", f"the position solved to {solved}"
    )


def test_the_binding_loads_without_endplays_package_and_is_the_one_it_uses() -> None:
    # endplay's package imports its dealer and matplotlib (0.6 s of CPU at every bot start,
    # which asks whether whist advises): the binding must come without them.
    script = (
        "import sys\n"
        "from engine.whist.players.dds import load_solver\n"
        "dds = load_solver()\n"
        "assert callable(dds.SolveBoard)\n"
        "heavy = [m for m in ('endplay', 'matplotlib') if m in sys.modules]\n"
        "assert not heavy, heavy\n"
        "assert load_solver() is dds\n"
        "import endplay\n"
        "assert endplay._dds is dds, 'the package took another copy of the binding'\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script],
        cwd=Path(__file__).resolve().parents[2],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
