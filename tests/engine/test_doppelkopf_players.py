"""Doppelkopf's computer players see only a seat's view and always answer legally, in every
preset and game phase; the expert remembers the tricks it saw and keeps to known voids, and
declares solos and announces by expected value."""

from __future__ import annotations

import pytest

from engine.doppelkopf import GAME, DoppelkopfOptions, new_game, parse_action
from engine.doppelkopf.players import LEVELS
from engine.doppelkopf.players.basic import BasicPlayer
from engine.doppelkopf.players.expert import ExpertPlayer
from engine.doppelkopf.rules import DoppelkopfState
from tests.engine.test_doppelkopf import deal


@pytest.mark.parametrize("level", sorted(LEVELS))
@pytest.mark.parametrize(
    "options",
    [DoppelkopfOptions(), DoppelkopfOptions(preset="house", players=5)],
    ids=["tournament", "house-5"],
)
def test_every_level_plays_whole_tables_legally(level: str, options: DoppelkopfOptions) -> None:
    for seed in range(1 if level == "expert" else 6):
        state = new_game(seed, options)
        # one expert (it is slow: it plays every card out many times); the others basic
        players = {
            s: LEVELS[level if level != "expert" or s == 1 else "basic"](seed * 8 + s)
            for s in range(options.players)
        }
        decisions = 0
        while not state.is_over:
            seat = state.to_act[0]
            view = state.view(seat)
            action = players[seat].act(view)
            assert action in state.legal_actions(seat), (level, seat, action)
            state.apply(seat, action)
            decisions += 1
        assert sum(state.totals) == 0 and decisions >= len(state.game_results) >= 4


def test_the_expert_deals_the_unseen_cards_around_known_voids() -> None:
    import random

    from engine.cards import parse_card, parse_cards
    from engine.doppelkopf.orders import ORDERS, TRUMP
    from engine.doppelkopf.players.expert import _deal, _voids

    order = ORDERS["normal"]
    # Seat 2 did not follow a trump lead, seat 3 did not follow clubs.
    tricks = [
        [
            (0, parse_card("QC")),
            (1, parse_card("JD")),
            (2, parse_card("AS")),
            (3, parse_card("9D")),
        ],
        [
            (0, parse_card("AC")),
            (1, parse_card("KC")),
            (2, parse_card("9C")),
            (3, parse_card("QD")),
        ],
    ]
    voids = _voids(tricks, order)
    assert voids == {2: {TRUMP}, 3: {int(parse_card("AC").suit)}}
    pool = parse_cards("TH QS JC 9D KD AH AH KS 9S TC KC 9C")
    for seed in range(20):
        hands = _deal(pool, [1, 2, 3], [0, 4, 4, 4], voids, random.Random(seed), order.group)
        assert sorted(c for h in hands.values() for c in h) == sorted(pool)
        assert not [c for c in hands[2] if order.is_trump(c)]
        assert not [c for c in hands[3] if order.group[c] == int(parse_card("AC").suit)]


# --- the expert's expected-value decisions ---------------------------------------------------

# Seat 1 speaks first at this table (seat 0 deals the first deal).
STRONG_SOLO = "TH TH QC QS QS QH QH QD QD JC AH AH"  # a hearts solo: twelve trumps
STRONG_TRUMPS = "QC TH TH QS QS QH QD JC JC JS AD AD"  # ten trumps, one ♣Q: Re
WEAK = "9S 9S KS KS 9H 9H KH KC 9C 9C TC TS"  # no trump at all


def _expert(seed: int = 3) -> ExpertPlayer:
    return ExpertPlayer(seed)


def test_the_expert_declares_a_solo_only_when_it_is_worth_more_than_the_normal_game() -> None:
    strong = deal(DoppelkopfOptions(), {1: STRONG_SOLO})
    assert str(_expert().act(strong.view(1))) == "solo:hearts"
    weak = deal(DoppelkopfOptions(), {1: WEAK})
    assert str(_expert().act(weak.view(1))) == "healthy"


def test_the_expert_plays_the_solo_it_is_forced_to_by_expected_value() -> None:
    expert = _expert()
    state = deal(DoppelkopfOptions(), {1: STRONG_SOLO})
    state.phase = "forced"  # a test hook: the last counted games of a required-solo round
    assert str(expert.act(state.view(1))) == "solo:hearts"


def test_the_expert_bids_and_names_its_solo_in_the_house_preset() -> None:
    state = deal(DoppelkopfOptions(preset="house"), {1: STRONG_SOLO})
    expert = _expert()
    assert str(expert.act(state.view(1))) == "reservation"
    state.apply(1, "reservation")
    for seat in (2, 3, 0):
        state.apply(seat, "no-reservation")
    assert state.to_act == (1,) and str(expert.act(state.view(1))) == "solo"
    state.apply(1, "solo")
    while state.phase == "bidding":
        state.apply(state.to_act[0], "withdraw")
    assert state.phase == "solo-type" and str(expert.act(state.view(1))).startswith("solo:")


def _normal_game(hand: str) -> DoppelkopfState:
    state = deal(DoppelkopfOptions(), {1: hand})
    for seat in (1, 2, 3, 0):
        state.apply(seat, "healthy")
    assert state.phase == "play" and state.to_act == (1,)
    return state


def test_the_expert_announces_when_its_party_is_likely_to_win_and_not_otherwise() -> None:
    strong = _normal_game(STRONG_TRUMPS)
    assert "re" in {str(a) for a in strong.legal_actions(1)}
    assert str(_expert().act(strong.view(1))) == "re"
    weak = _normal_game(WEAK)
    assert "contra" in {str(a) for a in weak.legal_actions(1)}
    assert _expert().act(weak.view(1)).card is not None


def test_the_experts_ideas_switch_off_to_the_basic_players_choices() -> None:
    state = _normal_game(STRONG_TRUMPS)
    view = state.view(1)
    plain = ExpertPlayer(3, announcements=False, solos=False)
    assert plain.act(view) == BasicPlayer(3).act(view) == parse_action("re")
    weak = deal(DoppelkopfOptions(), {1: WEAK})
    assert ExpertPlayer(3, solos=False).act(weak.view(1)) == BasicPlayer(3).act(weak.view(1))


def test_the_expert_is_reproducible_from_its_seed() -> None:
    state = _normal_game(STRONG_TRUMPS)
    state.apply(1, "re")
    view = state.view(1)
    assert _expert(9).act(view) == _expert(9).act(view)


def test_a_stand_in_sees_only_the_decision_owed_and_never_announces() -> None:
    state = _normal_game(STRONG_TRUMPS)
    view = state.view(1)
    narrowed = GAME.stand_in_view(view)
    assert {str(a) for a in view.legal} - {str(a) for a in narrowed.legal} == {"re"}
    assert narrowed.data["legal"] == [str(a) for a in narrowed.legal]
    for level in sorted(LEVELS):
        assert LEVELS[level](5).act(narrowed).card is not None, level


def test_the_expert_is_the_level_the_bot_lets_decide_off_its_event_loop() -> None:
    # bench/doppelkopf_speed.py --decisions: the expert's p99 is tens of milliseconds;
    # basic's and random's stay under a millisecond.
    assert GAME.slow_levels == frozenset({"expert"})


def test_against_a_house_solo_the_expert_weighs_contra_with_the_soloists_strength(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A hearts solo of twelve trumps has begun; seat 2 holds three trumps and side aces.
    # Dealt random hands in the sampled deals, the soloist looks beatable and Contra (which
    # doubles the house score) looks a good call; leaning the deals to the strength a
    # declared solo shows, the expert plays on without it.
    import engine.doppelkopf.players.expert as expert_module

    state = deal(
        DoppelkopfOptions(preset="house"),
        {1: STRONG_SOLO, 2: "JS JH JD TD KD KS 9S 9S AC TC KC 9C"},
    )
    state.apply(1, "reservation")
    for seat in (2, 3, 0):
        state.apply(seat, "no-reservation")
    state.apply(1, "solo")
    while state.phase == "bidding":
        state.apply(state.to_act[0], "withdraw")
    state.apply(1, "solo:hearts")
    state.apply(1, next(a for a in state.legal_actions(1) if a.card is not None))
    view = state.view(2)
    assert "contra" in {str(a) for a in view.legal}
    assert _expert().act(view).card is not None
    monkeypatch.setattr(expert_module, "STRONG_TRIES", 1)
    assert str(_expert().act(view)) == "contra"
