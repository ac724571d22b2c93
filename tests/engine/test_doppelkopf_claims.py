"""The claim check (rules §3.8) is exact: the search with its shortcuts (card classes, the
defence keeping its higher cards, sure wins) answers as a plain search of every line does,
on thousands of random end positions of every game type, mid-trick ones included."""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest

from engine.cards import Card
from engine.doppelkopf.claims import wins_every_trick
from engine.doppelkopf.orders import ORDERS, Order, double_pack

SEATS = (0, 1, 2, 3)


def plain(
    order: Order,
    hands: list[list[Card]],
    plays: list[tuple[int, Card]],
    leader: int,
    soloist: int,
) -> bool:
    """Every line, no shortcut: the soloist picks, the opponents try everything (a seat
    stops at the first card that decides: a line for the soloist, a refutation against)."""
    if len(plays) == 4:
        winner = plays[order.winner([c for _, c in plays])][0]
        if winner != soloist:
            return False
        if not hands[soloist]:
            return True
        return plain(order, hands, [], soloist, soloist)
    seat = (plays[-1][0] + 1) % 4 if plays else leader
    led = plays[0][1] if plays else None
    deciding = seat == soloist  # True settles it for the soloist, False for an opponent
    for card in order.legal(hands[seat], led):
        hands[seat].remove(card)
        plays.append((seat, card))
        result = plain(order, hands, plays, leader, soloist)
        plays.pop()
        hands[seat].append(card)
        if result == deciding:
            return deciding
    return not deciding


def position(
    rng: random.Random, order: Order, size: int
) -> tuple[list[list[Card]], list[tuple[int, Card]], int]:
    """Deal ``size`` cards to each seat (stronger cards to the soloist, seat 0, half of the
    time), and maybe start the trick."""
    pack = double_pack()
    rng.shuffle(pack)
    if rng.random() < 0.5:
        pack.sort(key=lambda c: -(order.power[c] + 1000 * order.is_trump(c)) + rng.random() * 60)
    hands = [pack[i * size : (i + 1) * size] for i in range(4)]
    leader = rng.choice(SEATS)
    plays: list[tuple[int, Card]] = []
    for _ in range(rng.randrange(0, 3)):
        seat = (plays[-1][0] + 1) % 4 if plays else leader
        if seat == 0 and rng.random() < 0.5:
            break
        led = plays[0][1] if plays else None
        card = rng.choice(order.legal(hands[seat], led))
        hands[seat].remove(card)
        plays.append((seat, card))
    return hands, plays, leader


@pytest.mark.parametrize("name", sorted(ORDERS))
def test_the_claim_check_answers_as_every_line_does(name: str) -> None:
    order = ORDERS[name]
    rng = random.Random(name)
    upheld = 0
    for _ in range(150):
        size = rng.choice((2, 3, 4))
        hands, plays, leader = position(rng, order, size)
        expected = plain(order, [list(h) for h in hands], list(plays), leader, 0)
        found = wins_every_trick(order, [tuple(h) for h in hands], tuple(plays), leader, 0, SEATS)
        assert found == expected, (name, hands, plays, leader)
        upheld += expected
    assert 0 < upheld < 150, "both answers occur"


def test_a_claim_with_every_top_card_holds_and_one_with_a_hole_does_not() -> None:
    order = ORDERS["queens"]
    pack = sorted(double_pack(), key=lambda c: -(order.power[c] + 1000 * order.is_trump(c)))
    hands: list[Sequence[Card]] = [pack[0:12], pack[12:24], pack[24:36], pack[36:48]]
    assert wins_every_trick(order, [tuple(h) for h in hands], (), 0, 0, SEATS)
    weak = [pack[2:14], [*pack[0:2], *pack[14:24]], pack[24:36], pack[36:48]]  # both ♣Q out
    assert not wins_every_trick(order, [tuple(h) for h in weak], (), 0, 0, SEATS)
