"""One table's play of a duplicate match (``whist_duplicate``): the trays it deals, the
turn-up, Mnemonic's turned replay and fixed trump, each tray's result, and its options."""

from __future__ import annotations

import io
import json
import random

import pytest

from engine import games
from engine.cards import Suit
from engine.errors import NotYourTurnError, OptionsError
from engine.game import options_from_json, options_to_json
from engine.whist import make_trays, turn_tray
from engine.whist.duplicate_table import DuplicateOptions, DuplicateTable, new_table


def _play_out(state: DuplicateTable, seed: int = 0) -> None:
    rng = random.Random(seed)
    while not state.is_over:
        seat = state.to_act[0]
        state.apply(seat, rng.choice(state.legal_actions(seat)))


def test_the_table_is_registered_and_deals_the_match_trays_in_its_order() -> None:
    assert games.get("whist_duplicate").title == "Duplicate whist"
    options = DuplicateOptions(match_seed=41, trays=(3, 1))
    trays = make_trays(41, 3)
    # Two tables with different seeds of their own deal the same trays.
    for table_seed in (1, 2):
        state = new_table(table_seed, options)
        assert state.trays == (trays[2], trays[0])
        assert state.tray_number == 3 and state.dealer == trays[2].dealer
        assert [state.hand(s) for s in range(4)] == list(trays[2].hands)
        assert state.to_act == ((trays[2].dealer + 1) % 4,), "eldest leads"


def test_the_turnup_shows_until_the_dealer_plays_to_trick_one() -> None:
    state = new_table(5, DuplicateOptions(match_seed=7, trays=(1,)))
    tray = state.trays[0]
    assert state.public_view().turnup == tray.trump_card
    while state.to_play != tray.dealer:
        seat = state.to_act[0]
        state.apply(seat, state.legal_actions(seat)[0])
        assert state.public_view().turnup == tray.trump_card
    state.apply(tray.dealer, state.legal_actions(tray.dealer)[0])
    assert state.public_view().turnup is None
    assert state.trump is tray.trump


def test_each_tray_scores_north_south_tricks_and_the_next_tray_follows() -> None:
    state = new_table(3, DuplicateOptions(match_seed=3, trays=(1, 2)))
    with pytest.raises(NotYourTurnError):
        state.apply(state.dealer, state.legal_actions(state.to_act[0])[0])
    _play_out(state)
    assert len(state.tray_results) == 2 and len(state.moves) == 104
    ns = sum(state.tray_results)
    result = state.result()
    assert result.scores == (ns, 26 - ns, ns, 26 - ns)
    assert result.rounds[0] == tuple(state.tray_results)
    assert set(result.winners) == ({0, 2} if ns > 13 else {1, 3} if ns < 13 else {0, 1, 2, 3})


def test_mnemonic_replay_turns_the_trays_under_a_fixed_trump() -> None:
    options = DuplicateOptions(match_seed=8, trays=(1, 2), turned=True, declared_trump="H")
    state = new_table(1, options)
    plain = make_trays(8, 2, Suit.HEARTS)
    assert state.trays == tuple(turn_tray(t) for t in plain)
    assert state.turnup is None and state.trump is Suit.HEARTS
    assert state.public_view().turnup is None
    # The same hand still leads: eldest of the turned dealer.
    assert state.to_act == ((plain[0].dealer + 2) % 4,)


def test_options_round_trip_through_json_and_refuse_what_no_match_has() -> None:
    options = DuplicateOptions(match_seed=2, trays=(4, 5, 6), declared_trump="S")
    data = options_to_json(options)
    assert options_from_json(DuplicateOptions, json.loads(json.dumps(data))) == options
    for bad in (
        {"trays": ()},
        {"trays": (1, 1)},
        {"trays": (0,)},
        {"declared_trump": "X"},
        {"turned": "yes"},
        {"match_seed": "x"},
    ):
        with pytest.raises(OptionsError):
            DuplicateOptions(**bad)  # type: ignore[arg-type]
    with pytest.raises(OptionsError):
        games.get("whist_duplicate").seated(options, 3)


def test_the_text_table_plays_the_trays_with_computers() -> None:
    out = io.StringIO()
    terminal = games.get("whist_duplicate").terminal()
    assert terminal.main(["--trays", "2", "--seed", "4"], stdout=out) == 0
    lines = out.getvalue().splitlines()
    assert [line.split(" (")[0] for line in lines] == ["Tray 1", "Tray 2"]
    assert terminal.main(["--level", "nobody"], stdout=io.StringIO()) == 2


@pytest.mark.parametrize(
    ("argv", "sentence"),
    [
        (["--bogus"], "error: Duplicate whist: there is no flag --bogus: the flags are"),
        (["--level", "nobody"], "error: Duplicate whist: “nobody” is not a computer level"),
        (["--trays", "0"], "error: Duplicate whist: --trays takes 1 to 64, not 0."),
        (["--trays", "x"], "error: Duplicate whist: --trays takes a whole number, not 'x'."),
    ],
)
def test_a_bad_flag_of_the_text_table_is_one_sentence_naming_the_game(
    argv: list[str], sentence: str, capsys: pytest.CaptureFixture[str]
) -> None:
    terminal = games.get("whist_duplicate").terminal()
    assert terminal.main(argv, stdout=io.StringIO()) == 2
    err = capsys.readouterr().err
    assert err.startswith(sentence) and err.count("\n") == 1, err
