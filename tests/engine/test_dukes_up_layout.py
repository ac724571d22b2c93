"""Dukes Up!'s layout search: groups, and ``can_layout``/``find_layout`` against a brute-force
search on thousands of seeded random small tables; A4's three steps."""

from __future__ import annotations

import random
from itertools import combinations

import pytest

from engine.cards import DECK, Card
from engine.dukes_up import can_layout, find_layout, is_valid_layout
from engine.dukes_up.layout import group_kind, propose_layout, related, value
from tests.engine.dukes_helpers import cs, groups


def brute_force(cards: list[Card]) -> bool:
    """Return whether the cards split into runs and sets, by trying every group holding the
    lowest card (independent of the engine's search)."""
    if not cards:
        return True
    first, rest = cards[0], cards[1:]
    for k in range(2, min(13, len(rest)) + 1):
        for others in combinations(rest, k):
            if _group(first, others) and brute_force([x for x in rest if x not in others]):
                return True
    return False


def _group(first: Card, others: tuple[Card, ...]) -> bool:
    cards = (first, *others)
    values = sorted(value(x) for x in cards)
    if len(set(values)) == 1:
        return len(cards) <= 4
    thorns = {x.suit.name in ("SPADES", "DIAMONDS") for x in cards}
    return len(thorns) == 1 and values == list(range(values[0], values[0] + len(cards)))


def _small_table(rng: random.Random) -> list[Card]:
    """A random table of 0–10 cards over a few neighbouring ranks (often layable)."""
    low = rng.randint(1, 10)
    span = rng.randint(2, 4)
    pool = [x for x in DECK if low <= value(x) < low + span]
    return rng.sample(pool, rng.randint(0, min(10, len(pool))))


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("3S 4D 5S", "run"),
        ("AS 2D 3S", "run"),
        ("QS KD AS", None),
        ("KD AS 2S", None),
        ("3S 4D 5C", None),
        ("3S 3D 4S", None),
        ("7C 7H 7S", "set"),
        ("7C 7H 7S 7D", "set"),
        ("7C 7H", None),
        ("AC 2H 3C 4H 5C 6H 7C 8H 9C TH JC QH KC", "run"),
    ],
)
def test_runs_and_sets(text: str, kind: str | None) -> None:
    assert group_kind(cs(text)) == kind


def test_can_layout_matches_brute_force_on_3000_random_small_tables() -> None:
    rng = random.Random(20240601)
    yes = 0
    for _ in range(3000):
        cards = _small_table(rng)
        expected = brute_force(sorted(cards, key=value))
        assert can_layout(cards) == expected, cards
        layout = find_layout(cards)
        assert (layout is not None) == expected, cards
        if layout is not None:
            yes += 1
            assert is_valid_layout(layout)
            assert sorted(x for g in layout for x in g) == sorted(cards)
    assert 300 < yes < 2700, "the tables mix layable and unlayable ones"


def test_full_and_edge_tables() -> None:
    assert can_layout(DECK) and can_layout([])
    layout = find_layout(DECK)
    assert layout is not None and sorted(x for g in layout for x in g) == sorted(DECK)
    assert not can_layout(cs("AS"))
    assert not can_layout(cs("QS KD AS"))
    assert not can_layout(cs("3S 3S 4S 5S")), "a card twice is no table"
    rng = random.Random(5)
    for _ in range(200):
        cards = rng.sample(DECK, rng.randint(30, 52))
        assert can_layout(cards) == (find_layout(cards) is not None)


def test_related_cards_for_step_2() -> None:
    assert related(cs("6S")[0], cs("6H")[0])
    assert related(cs("6S")[0], cs("8D")[0]) and not related(cs("6S")[0], cs("9D")[0])
    assert not related(cs("6S")[0], cs("7H")[0])


def test_propose_steps() -> None:
    table = (cs("3S 4D 5S"), cs("9C 9H 9D"))
    step, replaced, new = propose_layout(table, cs("JS QS KS")) or (0, (), [])
    assert (step, replaced) == (1, ()) and groups(new) == groups([cs("JS QS KS")])
    step, replaced, new = propose_layout(table, cs("6D")) or (0, (), [])
    assert (step, replaced) == (2, (1,))
    invalid = (cs("3S 4D"), cs("5S 6D 7S"), cs("9C 9H 9D"))
    step, replaced, new = propose_layout(invalid, cs("8D")) or (0, (), [])
    assert (step, replaced) == (3, (1, 2, 3)), "G1 is invalid, so steps 1 and 2 cannot leave it"
    assert propose_layout(table, cs("KC")) is None
