"""``engine.whist.analysis``: the double-dummy cost of every card, checked against a plain
minimax (no pruning, no table) on small end positions and against DDS (endplay) on larger
ones and whole deals; the API's contract; bad input refused with a clear error."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import pytest

from engine.cards import DECK, Card, Suit
from engine.errors import IllegalActionError, InvalidActionError, ParseError
from engine.tricks import legal_cards, trick_winner
from engine.whist.analysis import (
    double_dummy_costs,
    double_dummy_result,
    double_dummy_review,
    end_position_costs,
)

SEATS = "NESW"
TRUMPS: tuple[str | None, ...] = (None, "C", "D", "H", "S")
SUIT_OF = {"C": Suit.CLUBS, "D": Suit.DIAMONDS, "H": Suit.HEARTS, "S": Suit.SPADES}


def deal_of(rng: random.Random, size: int) -> list[list[Card]]:
    deck = list(DECK)
    rng.shuffle(deck)
    return [deck[i * size : (i + 1) * size] for i in range(4)]


def as_codes(hands: Sequence[Sequence[Card]]) -> dict[str, tuple[str, ...]]:
    return {
        seat: tuple(card.code for card in hand) for seat, hand in zip(SEATS, hands, strict=True)
    }


def random_play(
    rng: random.Random, hands: Sequence[Sequence[Card]], trump: Suit | None, leader: int, n: int
) -> list[Card]:
    """Return ``n`` cards played at random by the rules (follow suit, winner leads)."""
    held = [list(hand) for hand in hands]
    trick: list[Card] = []
    played: list[Card] = []
    for _ in range(n):
        seat = (leader + len(trick)) % 4
        card = rng.choice(legal_cards(held[seat], trick[0].suit if trick else None))
        held[seat].remove(card)
        trick.append(card)
        played.append(card)
        if len(trick) == 4:
            leader = (leader + trick_winner(trick, trump)) % 4
            trick = []
    return played


def minimax(held: list[list[Card]], trump: Suit | None, leader: int, trick: list[Card]) -> int:
    """Return N-S's tricks from here (the trick in progress included), every line tried."""
    seat = (leader + len(trick)) % 4
    if len(trick) == 4:
        winner = (leader + trick_winner(trick, trump)) % 4
        won = 1 - winner % 2
        return won + (minimax(held, trump, winner, []) if held[winner] else 0)
    values = []
    for card in legal_cards(held[seat], trick[0].suit if trick else None):
        held[seat].remove(card)
        values.append(minimax(held, trump, leader, [*trick, card]))
        held[seat].append(card)
    return max(values) if seat % 2 == 0 else min(values)


def brute_costs(
    hands: Sequence[Sequence[Card]], trump: Suit | None, leader: int, played: Sequence[Card]
) -> list[int]:
    """Return each played card's cost by its definition: the best legal card's tricks for
    its side minus the played card's, each found by minimax."""
    held = [list(hand) for hand in hands]
    trick: list[Card] = []
    ns_done = 0
    costs = []
    for card in played:
        seat = (leader + len(trick)) % 4
        totals = {}
        for option in legal_cards(held[seat], trick[0].suit if trick else None):
            held[seat].remove(option)
            after = [*trick, option]
            if len(after) == 4:
                winner = (leader + trick_winner(after, trump)) % 4
                won = 1 - winner % 2
                rest = minimax(held, trump, winner, []) if held[winner] else 0
                ns = ns_done + won + rest
            else:
                ns = ns_done + minimax(held, trump, leader, after)
            held[seat].append(option)
            totals[option] = ns if seat % 2 == 0 else -ns
        costs.append(max(totals.values()) - totals[card])
        held[seat].remove(card)
        trick.append(card)
        if len(trick) == 4:
            leader = (leader + trick_winner(trick, trump)) % 4
            ns_done += 1 - leader % 2
            trick = []
    return costs


@pytest.mark.parametrize("trump", TRUMPS)
def test_costs_match_minimax_on_small_end_positions(trump: str | None) -> None:
    rng = random.Random(f"analysis-{trump}")
    suit = None if trump is None else SUIT_OF[trump]
    # Four cards a hand make the minimax slow (up to 24**4 lines): a few of those.
    for size in (2,) * 15 + (3,) * 15 + (4,) * 2:
        hands = deal_of(rng, size)
        leader = rng.randrange(4)
        played = random_play(rng, hands, suit, leader, rng.randint(0, 4 * size))
        got = end_position_costs(as_codes(hands), trump, SEATS[leader], [c.code for c in played])
        assert list(got) == brute_costs(hands, suit, leader, played), (hands, leader, played)


def dds_deal(hands: Sequence[Sequence[Card]], trump: str | None, leader: int) -> Any:
    """Return endplay's ``Deal`` of ``hands`` (N E S W), ``leader`` to lead."""
    from endplay.types import Deal, Denom, Player

    def pbn(hand: Sequence[Card]) -> str:
        return ".".join(
            "".join(c.rank.letter for c in sorted(hand, reverse=True) if c.suit is suit)
            for suit in (Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS)
        )

    deal = Deal("N:" + " ".join(pbn(hand) for hand in hands))
    deal.trump = Denom.nt if trump is None else Denom("SHDC".index(trump))
    deal.first = Player(leader)
    return deal


def code(card: Any) -> str:
    """Return our code of one of endplay's cards."""
    return str(card.rank.name[1] + card.suit.name[0].upper())


def dds_costs(
    hands: Sequence[Sequence[Card]], trump: str | None, leader: int, played: Sequence[Card]
) -> list[int]:
    """Return each played card's cost as DDS scores the cards of the hand to play."""
    from endplay.dds import solve_board

    deal = dds_deal(hands, trump, leader)
    costs = []
    for card in played:
        scores = {code(c): tricks for c, tricks in solve_board(deal)}
        costs.append(max(scores.values()) - scores[card.code])
        deal.play(next(c for c in deal.legal_moves() if code(c) == card.code))
    return costs


def test_costs_match_dds_on_larger_end_positions() -> None:
    rng = random.Random("analysis-dds")
    for i in range(8):
        size = rng.randint(5, 8)
        hands = deal_of(rng, size)
        trump = TRUMPS[i % 5]
        suit = None if trump is None else SUIT_OF[trump]
        leader = rng.randrange(4)
        played = random_play(rng, hands, suit, leader, 4 * size)
        got = end_position_costs(as_codes(hands), trump, SEATS[leader], [c.code for c in played])
        assert list(got) == dds_costs(hands, trump, leader, played), (hands, trump, leader)


ROUND_ROBIN = [list(DECK[seat::4]) for seat in range(4)]
"""A deal with every suit in every hand: N holds 2C 6C TC AC 5D 9D KD 4H 8H QH 3S 7S JS."""


def test_a_nine_card_end_position_matches_dds_result_and_costs() -> None:
    # A whole deal takes the pure-Python solver seconds (``bench/dd_costs.py``): nine
    # cards a hand check the same identity within the test suite's time.
    from endplay.dds import solve_board

    rng = random.Random("analysis-deal-9")
    hands = deal_of(rng, 9)
    trump = "S"
    suit = SUIT_OF[trump]
    leader = rng.randrange(4)
    best = max(tricks for _, tricks in solve_board(dds_deal(hands, trump, leader)))
    ns = best if leader % 2 == 0 else 9 - best
    played = random_play(rng, hands, suit, leader, 36)
    costs = end_position_costs(as_codes(hands), trump, SEATS[leader], [c.code for c in played])
    assert list(costs) == dds_costs(hands, trump, leader, played)
    assert len(costs) == 36 and min(costs) >= 0
    # What N-S took is the double-dummy result less N-S's costs, plus E-W's.
    seats = played_seats(played, suit, leader)
    ns_costs = sum(cost for cost, seat in zip(costs, seats, strict=True) if seat % 2 == 0)
    ew_costs = sum(costs) - ns_costs
    assert tricks_taken(played, suit, leader) == ns - ns_costs + ew_costs


SUIT_HANDS = {
    seat: tuple(f"{rank}{suit}" for rank in "23456789TJQKA")
    for seat, suit in zip(SEATS, "SHDC", strict=True)
}
"""A deal with one whole suit in each hand: North spades, East hearts, South diamonds."""


@pytest.mark.parametrize(
    ("trump", "leader", "result"),
    [(None, "E", (0, 13)), (None, "S", (13, 0)), ("S", "E", (13, 0)), ("C", "N", (0, 13))],
)
def test_the_double_dummy_result_of_a_whole_deal(
    trump: str | None, leader: str, result: tuple[int, int]
) -> None:
    # Whoever leads cashes a whole suit; North's spades as trumps ruff East's lead.
    assert double_dummy_result(SUIT_HANDS, trump, leader) == result


def played_seats(played: Sequence[Card], trump: Suit | None, leader: int) -> list[int]:
    """Return the seat of each card of a legal play."""
    seats = []
    for start in range(0, len(played), 4):
        trick = played[start : start + 4]
        seats.extend((leader + i) % 4 for i in range(len(trick)))
        if len(trick) == 4:
            leader = (leader + trick_winner(trick, trump)) % 4
    return seats


def tricks_taken(played: Sequence[Card], trump: Suit | None, leader: int) -> int:
    """Return N-S's tricks in a whole legal play."""
    won = 0
    for start in range(0, len(played), 4):
        leader = (leader + trick_winner(played[start : start + 4], trump)) % 4
        won += 1 - leader % 2
    return won


def test_end_position_prefixes_give_the_prefix_of_the_costs() -> None:
    rng = random.Random("analysis-prefix")
    for i in range(10):
        size = rng.randint(4, 7)
        hands = deal_of(rng, size)
        trump = TRUMPS[i % 5]
        leader = SEATS[rng.randrange(4)]
        suit = None if trump is None else SUIT_OF[trump]
        played = [c.code for c in random_play(rng, hands, suit, SEATS.index(leader), 4 * size)]
        costs = end_position_costs(as_codes(hands), trump, leader, played)
        assert len(costs) == len(played) and min(costs) >= 0
        cut = rng.randrange(len(played) + 1)
        assert end_position_costs(as_codes(hands), trump, leader, played[:cut]) == costs[:cut]


def test_no_cards_played_gives_no_costs() -> None:
    assert double_dummy_costs(as_codes(ROUND_ROBIN), "H", "N", []) == ()


def test_cards_may_be_given_as_cards_or_in_other_spellings() -> None:
    hands = {"N": ["AS", "2S"], "E": ["KS", "3H"], "S": ["4D", "5D"], "W": ["6D", "7D"]}
    # North's two of spades gives East the lead, and East's heart both tricks.
    assert end_position_costs(hands, None, "N", ["2s", "ks", "4D", "6D"]) == (2, 0, 0, 0)
    assert end_position_costs(hands, None, "N", [DECK[3 * 13 + 12]]) == (0,)


WHOLE_PLAY = [c.code for c in random_play(random.Random(0), ROUND_ROBIN, Suit.HEARTS, 0, 52)]


def with_hand(seat: str, cards: Sequence[str]) -> dict[str, tuple[str, ...]]:
    hands = as_codes(ROUND_ROBIN)
    hands[seat] = tuple(cards)
    return hands


@pytest.mark.parametrize(
    ("hands", "trump", "leader", "played", "error", "reason"),
    [
        (
            with_hand("E", ["ZZ", *as_codes(ROUND_ROBIN)["E"][1:]]),
            "H",
            "N",
            [],
            ParseError,
            "parse",
        ),
        (as_codes(ROUND_ROBIN), "H", "N", ["2C", "1C"], ParseError, "parse"),
        (
            with_hand("E", as_codes(ROUND_ROBIN)["E"][1:]),
            "H",
            "N",
            [],
            InvalidActionError,
            "hand-size",
        ),
        (
            with_hand("E", ["2C", *as_codes(ROUND_ROBIN)["E"][1:]]),
            None,
            "N",
            [],
            InvalidActionError,
            "duplicate-card",
        ),
        ({"N": as_codes(ROUND_ROBIN)["N"]}, "H", "N", [], InvalidActionError, "invalid-hands"),
        (as_codes(ROUND_ROBIN), "NT", "N", [], InvalidActionError, "invalid-trump"),
        (as_codes(ROUND_ROBIN), "H", "X", [], InvalidActionError, "invalid-seat"),
        (as_codes(ROUND_ROBIN), "H", "N", ["3C"], IllegalActionError, "not-in-hand"),
        (
            as_codes(ROUND_ROBIN),
            "H",
            "N",
            ["2C", "3C", "4C", "5C", "2C"],
            IllegalActionError,
            "not-in-hand",
        ),
        (as_codes(ROUND_ROBIN), "H", "N", ["2C", "2D"], IllegalActionError, "must-follow"),
        (
            as_codes(ROUND_ROBIN),
            "H",
            "N",
            [*WHOLE_PLAY, WHOLE_PLAY[0]],
            IllegalActionError,
            "not-in-hand",
        ),
    ],
    ids=[
        "unknown-card-in-hand",
        "unknown-card-played",
        "twelve-cards",
        "card-dealt-twice",
        "seats-missing",
        "unknown-trump",
        "unknown-seat",
        "card-of-another-hand",
        "card-played-twice",
        "not-following-suit",
        "too-many-cards",
    ],
)
def test_bad_input_is_refused_with_a_reason(
    hands: dict[str, Sequence[str]],
    trump: str | None,
    leader: str,
    played: list[str],
    error: type[Exception],
    reason: str,
) -> None:
    with pytest.raises(error) as raised:
        double_dummy_costs(hands, trump, leader, played)
    assert getattr(raised.value, "reason", None) == reason
    assert str(raised.value)


@pytest.mark.parametrize("module", ["engine/whist/analysis.py", "engine/whist/solver.py"])
def test_the_solver_imports_only_the_standard_library_and_the_engine(module: str) -> None:
    import ast
    import sys
    from pathlib import Path

    tree = ast.parse((Path(__file__).resolve().parents[2] / module).read_text())
    imported = {
        name.split(".")[0]
        for node in ast.walk(tree)
        if isinstance(node, ast.Import | ast.ImportFrom)
        for name in (
            [alias.name for alias in node.names]
            if isinstance(node, ast.Import)
            else [node.module or ""]
        )
    }
    assert imported <= set(sys.stdlib_module_names) | {"engine"}, imported


def shuffled_solver(monkeypatch: pytest.MonkeyPatch, seed: int) -> None:
    """Make ``engine.whist.analysis`` search moves in a random order (seeded)."""
    import engine.whist.analysis as analysis
    from engine.whist.solver import Solver

    order = random.Random(seed)
    monkeypatch.setattr(analysis, "Solver", lambda trump: Solver(trump, shuffle=order.shuffle))


RUN_POSITION = (
    {
        "N": ("QS", "QC", "TC", "KS", "7C", "4C", "4S", "9C"),
        "E": ("JD", "AH", "TS", "3D", "7D", "7H", "2C", "KC"),
        "S": ("2S", "AD", "AC", "5S", "9H", "9D", "6C", "8C"),
        "W": ("9S", "6S", "5H", "4H", "QD", "JH", "KD", "8H"),
    },
    "C",
    "N",
    [
        card
        for trick in (
            "7C 2C AC 8H",
            "9D KD KS JD",
            "JH 4C AH 9H",
            "TC KC 8C 4H",
            "7H 2S 5H 4S",
            "TS 5S 9S QS",
            "9C 3D 6C QD",
            "QC 7D AD 6S",
        )
        for card in trick.split()
    ],
)
"""An end position whose costs came out wrong when the table served a position that shared
the top card of a run searched for all of it, but not the run's lower cards."""


@pytest.mark.parametrize("seed", [1, 2])
def test_a_run_searched_by_its_top_card_is_relevant_down_to_its_bottom(
    monkeypatch: pytest.MonkeyPatch, seed: int
) -> None:
    hands, trump, leader, played = RUN_POSITION
    shuffled_solver(monkeypatch, seed)
    costs = end_position_costs(hands, trump, leader, played)
    # DDS's costs (endplay's solve_board), card by card.
    assert [i for i, cost in enumerate(costs) if cost] == [2, 6, 12, 16, 19]
    assert sum(costs) == 5


def test_costs_are_the_same_whatever_order_the_solver_tries_moves_in(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    rng = random.Random("analysis-order")
    cases = []
    for i in range(12):
        size = rng.randint(5, 7)
        hands = deal_of(rng, size)
        trump = TRUMPS[i % 5]
        suit = None if trump is None else SUIT_OF[trump]
        leader = rng.randrange(4)
        played = [c.code for c in random_play(rng, hands, suit, leader, 4 * size)]
        cases.append((as_codes(hands), trump, SEATS[leader], played))
    plain = [end_position_costs(*case) for case in cases]
    for seed in (1, 2):
        shuffled_solver(monkeypatch, seed)
        assert [end_position_costs(*case) for case in cases] == plain


PINNED_DEALS = [
    (
        {
            "N": "TD 8C 8H 5S 8S 9C 3C 7D TS QD 7S 3S KD",
            "E": "9H QS 5H JD KH AH 7C QH AC 2C 6H 2H 3D",
            "S": "7H AS 6D 4S AD 4H 6C 5D 4D 5C QC JS 3H",
            "W": "8D KC KS JH 6S 2S 9D 4C 9S TH JC 2D TC",
        },
        "C",
        "N",
        (
            "5S QS AS 6S",
            "5C JC 3C 2C",
            "9S TS KH JS",
            "4D 2D KD JD",
            "QD 3D 5D 9D",
            "8S 9H 4S 2S",
            "8C 7C QC 4C",
            "3H TH 8H AH",
            "6H 7H JH 3S",
            "TC 9C AC 6C",
            "QH 4H KS 7S",
            "5H AD KC 7D",
            "8D TD 2H 6D",
        ),
        "0000200000300000000000010001000110020000000000100000",
    ),
    (
        {
            "N": "8C 9S 4S 5C 5D 4H QC AS JD 6H TS 3D JH",
            "E": "TH 9C AH QH 6D 2D 8H KC 8S 8D 4C 5H 7C",
            "S": "TC 3S JS 7S 9D JC 2H 3C 7D 4D 7H 6C KS",
            "W": "TD AD 3H KH KD 6S 2C QS QD AC 9H 5S 2S",
        },
        None,
        "W",
        (
            "TD 5D 8D 4D",
            "KH JH TH 7H",
            "2S AS 8S JS",
            "TS 6D 3S QS",
            "2C 8C 9C 3C",
            "7C 6C AC 5C",
            "KD 3D 2D 9D",
            "QD JD QH 7D",
            "6S 4S 8H KS",
            "7S 5S 9S 4C",
            "QC KC JC AD",
            "AH 2H 9H 4H",
            "5H TC 3H 6H",
        ),
        "3300000022000010003300000000000020000000000000100000",
    ),
    (
        {
            "N": "5D KD 4D 5S QC 8C 9C 8S 2D 4H 8D JC 2S",
            "E": "6C KS JS TS 7S AH 9D 3S 9S 9H TC QS AD",
            "S": "4C AS 7C 7D 6D KC 3D 3C 5H TD KH TH 2C",
            "W": "4S 6S JD 7H 2H 8H AC JH QH QD 6H 5C 3H",
        },
        "D",
        "W",
        (
            "5C 9C TC 3C",
            "KS AS 6S 8S",
            "3D QD KD AD",
            "JS KC 4S 2S",
            "6C 4C AC 8C",
            "2H 4H AH KH",
            "9H TH 6H JC",
            "7D JD 4D 9D",
            "QH 8D 3S 5H",
            "5D 9S 6D 8H",
            "7C JH QC TS",
            "2D QS TD 3H",
            "2C 7H 5S 7S",
        ),
        "0001000000000100000000000000000000000000000000000000",
    ),
]
"""Whole deals (``bench/dd_costs.py --seed 1``: deals 5, 7 and 2) played at random, with
each card's cost as DDS (endplay's ``solve_board``) scores it, one digit a card: the solver
before its speed-up gave exactly these, and so must every faster one."""


@pytest.mark.parametrize("deal", PINNED_DEALS, ids=["clubs", "no-trumps", "diamonds"])
def test_the_costs_of_whole_deals_are_pinned(
    deal: tuple[dict[str, str], str | None, str, tuple[str, ...], str],
) -> None:
    hands, trump, leader, tricks, costs = deal
    played = [card for trick in tricks for card in trick.split()]
    got = double_dummy_costs(
        {seat: hand.split() for seat, hand in hands.items()}, trump, leader, played
    )
    assert "".join(str(cost) for cost in got) == costs


def test_the_review_gives_the_costs_and_the_result_of_one_search() -> None:
    hands, trump, leader, tricks, _ = PINNED_DEALS[0]
    dealt = {seat: hand.split() for seat, hand in hands.items()}
    played = [card for trick in tricks for card in trick.split()]
    ns = double_dummy_result(dealt, trump, leader)[0]
    for cut in (52, 17, 0):
        got = double_dummy_review(dealt, trump, leader, played[:cut])
        assert got == (double_dummy_costs(dealt, trump, leader, played[:cut]), ns)


def line_positions(
    rng: random.Random, hands: list[list[Card]], suit: Suit | None, leader: int
) -> list[tuple[list[list[Card]], int, list[Card], int]]:
    """Return every position of one random line of play: the hands then, the leader of
    the trick in progress, its cards and N-S's tricks so far."""
    held = [list(hand) for hand in hands]
    trick: list[Card] = []
    ns_tricks = 0
    out = [([list(h) for h in held], leader, [], 0)]
    for card in random_play(rng, hands, suit, leader, 4 * len(hands[0])):
        held[(leader + len(trick)) % 4].remove(card)
        trick.append(card)
        if len(trick) == 4:
            leader = (leader + trick_winner(trick, suit)) % 4
            ns_tricks += 1 - leader % 2
            trick = []
        out.append(([list(h) for h in held], leader, list(trick), ns_tricks))
    return out


@pytest.mark.parametrize("trump", TRUMPS)
def test_one_solver_answers_positions_of_many_lines_as_minimax_does(trump: str | None) -> None:
    # The table keeps bounds across every position a solver is asked about (as the costs
    # of a deal share one): positions of several lines of one deal, asked in a random
    # order at random targets, must each get minimax's answer.
    from engine.whist.solver import Solver, position_of

    rng = random.Random(f"shared-solver-{trump}")
    suit = None if trump is None else SUIT_OF[trump]
    for size in (3, 3, 4):
        hands = deal_of(rng, size)
        leader = rng.randrange(4)
        positions = [p for _ in range(4) for p in line_positions(rng, hands, suit, leader)]
        rng.shuffle(positions)
        solver = Solver(suit)
        for held, first, trick, done in positions:
            if not any(held) and not trick:
                continue
            exact = minimax([list(h) for h in held], suit, first, list(trick))
            position = position_of(held, suit, first, trick, done)
            target = rng.randint(0, position.remaining)
            assert solver.reaches(position, target) == (exact >= target), (held, trick)
            assert solver.tricks(position, guess=rng.randint(0, size)) == exact, (held, trick)
