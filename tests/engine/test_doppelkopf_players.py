"""Doppelkopf's computer players see only a seat's view and always answer legally, in every
preset and game phase; the expert remembers the tricks it saw and keeps to known voids."""

from __future__ import annotations

import pytest

from engine.doppelkopf import DoppelkopfOptions, new_game
from engine.doppelkopf.players import LEVELS


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
