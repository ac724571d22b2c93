"""The Dupe engine: scoring, who takes a trick, and the state's API (docs/rules/dupe.md)."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from itertools import permutations, product
from typing import Any

import pytest

from engine import errors
from engine.cards import DECK, Card, Rank, Suit, parse_card, parse_cards
from engine.dupe import (
    DEALS,
    SEAT_SUITS,
    SEATS,
    TRICKS,
    Distribute,
    DupeOptions,
    DupeState,
    HandScore,
    Move,
    Phase,
    Play,
    parse_action,
    play,
    replay,
    score_hand,
    seat_of_suit,
    trick_taker,
)
from engine.dupe import new_game as _new_game
from tests.engine.helpers import new_game, snapshot

# --------------------------------------------------------------------------------------
# Helpers


def assert_rejected(
    state: DupeState, seat: Any, action: Any, error: type[errors.EngineError], *words: str
) -> errors.EngineError:
    """Assert that ``apply`` raises exactly ``error`` and leaves the state as it was."""
    before = snapshot(state)
    with pytest.raises(error) as caught:
        state.apply(seat, action)
    assert type(caught.value) is error
    for word in words:
        assert word in str(caught.value)
    assert snapshot(state) == before
    assert not state.is_legal(seat, action)
    return caught.value


def step(state: DupeState, rng: random.Random) -> None:
    """Let every seat that must act take a random legal action."""
    for seat in state.to_act:
        actions = state.legal_actions(seat)
        state.apply(seat, actions[rng.randrange(len(actions))])


def play_until(
    state: DupeState, done: Callable[[DupeState], bool], rng: random.Random | None = None
) -> DupeState:
    rng = rng or random.Random(state.seed)
    while not done(state):
        step(state, rng)
    return state


def play_game(seed: int, memory: str = "strict") -> DupeState:
    return play_until(new_game(seed, memory), lambda s: s.is_over)


def to_distribution(state: DupeState, seed: int = 0) -> DupeState:
    """Play random choices until some trick is waiting for its distribution."""
    rng = random.Random(seed)
    while state.phase is not Phase.DISTRIBUTE:
        step(state, rng)
    return state


def common_rank_game() -> tuple[DupeState, list[Card]]:
    """Return a new game in which all four seats hold a card of one rank, and those cards."""
    for seed in range(100):
        state = new_game(seed)
        for rank in Rank:
            cards = [next((c for c in state.hand(s) if c.rank == rank), None) for s in SEATS]
            if all(cards):
                return state, [c for c in cards if c is not None]
    raise AssertionError("no seed below 100 deals one rank to all four seats")


# --------------------------------------------------------------------------------------
# Scoring


WORKED_EXAMPLES = [
    # hand, longest suit, L, sequence, S, sets, B, total, text
    (
        "8S 3S 2S KH JH 9H 8H 7H 9C 2C 6D 5D 3D",
        Suit.HEARTS,
        5,
        "5 6 7 8 9",
        (),
        0,
        25,
        "5♥ × 5 (5–9) + 0 = 25",
    ),
    (
        "AS 7S AH 3H KC 10C 8C 7C 6C 3C JD 7D 2D",
        Suit.CLUBS,
        6,
        "A 2 3",
        ((Rank.SEVEN, 3),),
        6,
        24,
        "6♣ × 3 (A–3) + 6 (7s) = 24",
    ),
    (
        "JS 10S 4S QH 10H 5H AC 4C AD KD 10D 8D 4D",
        Suit.DIAMONDS,
        5,
        "10 J Q K A",
        ((Rank.FOUR, 3),),
        6,
        31,
        "5♦ × 5 (10–A) + 6 (4s) = 31",
    ),
    (
        "KS QS 9S 6S 5S 6H 4H 2H QC JC 5C QD 9D",
        Suit.SPADES,
        5,
        "4 5 6",
        ((Rank.QUEEN, 3),),
        6,
        21,
        "5♠ × 3 (4–6) + 6 (Qs) = 21",
    ),
]


def ranks(text: str) -> tuple[Rank, ...]:
    return tuple(parse_card(token + "S").rank for token in text.split())


@pytest.mark.parametrize(
    ("hand", "suit", "length", "sequence", "sets", "bonus", "total", "text"), WORKED_EXAMPLES
)
def test_worked_examples_of_the_rules(
    hand: str,
    suit: Suit,
    length: int,
    sequence: str,
    sets: tuple[tuple[Rank, int], ...],
    bonus: int,
    total: int,
    text: str,
) -> None:
    cards = parse_cards(hand)
    assert len(set(cards)) == 13
    score = score_hand(cards)
    assert score.longest_suit is suit
    assert score.suit_length == length
    assert score.sequence == ranks(sequence)
    assert score.sequence_length == len(ranks(sequence))
    assert score.sets == sets
    assert score.bonus == bonus
    assert score.total == total == length * score.sequence_length + bonus
    assert str(score) == text
    # the order in which the cards are won does not matter
    assert score_hand(reversed(cards)) == score
    assert score_hand(iter(sorted(cards))) == score


def test_example_two_keeps_the_sevens_with_ace_low() -> None:
    score = score_hand(parse_cards("AS 7S AH 3H KC 10C 8C 7C 6C 3C JD 7D 2D"))
    assert score.sequence == (Rank.ACE, Rank.TWO, Rank.THREE)  # not 6-7-8
    assert score.sets == ((Rank.SEVEN, 3),)


def test_example_four_keeps_the_queens() -> None:
    score = score_hand(parse_cards("KS QS 9S 6S 5S 6H 4H 2H QC JC 5C QD 9D"))
    assert score.sequence == (Rank.FOUR, Rank.FIVE, Rank.SIX)  # not J-Q-K
    assert score.sets == ((Rank.QUEEN, 3),)


def hand_score(text: str) -> HandScore:
    return score_hand(parse_cards(text))


def test_ace_counts_low() -> None:
    score = hand_score("AS 2H 3C 9D")
    assert score.sequence == (Rank.ACE, Rank.TWO, Rank.THREE)
    assert score.sequence_length == 3
    assert str(score) == "1♠ × 3 (A–3) + 0 = 3"


def test_ace_counts_high() -> None:
    score = hand_score("QS KH AC 5D")
    assert score.sequence == (Rank.QUEEN, Rank.KING, Rank.ACE)
    assert score.total == 3
    assert str(score) == "1♠ × 3 (Q–A) + 0 = 3"


def test_no_sequence_wraps_from_king_through_ace_to_two() -> None:
    score = hand_score("KS AH 2C 3D QS")
    assert score.sequence_length == 3
    assert score.sequence == (Rank.QUEEN, Rank.KING, Rank.ACE)
    score = hand_score("KS AH 2C 3D 4S")
    assert score.sequence == (Rank.ACE, Rank.TWO, Rank.THREE, Rank.FOUR)
    score = hand_score("KS AH 2C")
    assert score.sequence_length == 2  # K-A or A-2, never K-A-2


def test_all_thirteen_ranks_is_a_sequence_of_thirteen() -> None:
    spades = [Card(rank, Suit.SPADES) for rank in Rank]
    score = score_hand(spades)
    assert score.sequence_length == 13
    assert len(score.sequence) == 13
    assert score.sequence == tuple(Rank)  # 2-A, the ace high
    assert score.total == 13 * 13
    assert str(score) == "13♠ × 13 (2–A) + 0 = 169"
    mixed = [Card(rank, SEAT_SUITS[rank % 4]) for rank in Rank]
    assert score_hand(mixed).sequence_length == 13


def test_all_thirteen_ranks_with_a_set_keeps_the_rest_of_the_set() -> None:
    cards = [Card(rank, Suit.HEARTS) for rank in Rank] + parse_cards("5S 5C")
    score = score_hand(cards)
    assert score.sequence_length == 13
    assert score.sets == ()  # one 5 sits in the sequence, two are left
    assert score.total == 13 * 13
    cards += parse_cards("5D")
    score = score_hand(cards)
    assert score.sets == ((Rank.FIVE, 3),)
    assert score.total == 13 * 13 + 6


def test_four_of_a_kind_with_one_card_in_the_sequence_counts_as_three() -> None:
    score = hand_score("7S 7H 7C 7D 8S 9S 2H 4C")
    assert score.sequence == (Rank.SEVEN, Rank.EIGHT, Rank.NINE)
    assert score.sets == ((Rank.SEVEN, 3),)
    assert score.bonus == 6
    assert str(score) == "3♠ × 3 (7–9) + 6 (7s) = 15"


def test_four_of_a_kind_outside_the_sequence_scores_eight() -> None:
    score = hand_score("2S 2H 2C 2D 5S 6S 9H")
    assert score.sequence == (Rank.FIVE, Rank.SIX)
    assert score.sets == ((Rank.TWO, 4),)
    assert str(score) == "3♠ × 2 (5–6) + 8 (four 2s) = 14"


def test_three_of_a_kind_inside_the_sequence_scores_nothing() -> None:
    score = hand_score("9S 9H 9C 10S JS 2D")
    assert score.sequence == (Rank.NINE, Rank.TEN, Rank.JACK)
    assert score.sets == ()
    assert score.total == 3 * 3


def test_no_two_consecutive_ranks_means_s_is_one_and_every_set_counts() -> None:
    # The project's decision (score_hand's docstring): no sequence takes a card from a set.
    assert score_hand.__doc__ is not None
    assert "no sequence to take a card from any set" in " ".join(score_hand.__doc__.split())
    score = hand_score("2S 2H 2C 4S 4H 4D 6C 6D 6S 8C 8H 8D 10S")
    assert score.sequence == ()
    assert score.sequence_length == 1
    assert score.sets == ((Rank.EIGHT, 3), (Rank.SIX, 3), (Rank.FOUR, 3), (Rank.TWO, 3))
    assert score.bonus == 24
    assert score.longest_suit is Suit.SPADES
    assert score.total == 4 * 1 + 24
    assert str(score) == "4♠ × 1 (no sequence) + 24 (8s, 6s, 4s, 2s) = 28"
    four = hand_score("3S 3H 3C 3D 9S")
    assert four.sets == ((Rank.THREE, 4),)
    assert four.total == 2 * 1 + 8


def test_single_card_and_empty_hand() -> None:
    assert str(hand_score("7D")) == "1♦ × 1 (no sequence) + 0 = 1"
    empty = score_hand([])
    assert empty.total == 0
    assert empty.sequence_length == 1


def test_equal_sequences_prefer_the_largest_bonus() -> None:
    # A-2 would take a 2 out of the three 2s; K-A keeps them.
    score = hand_score("AS 2H 2C 2D KC 7H")
    assert score.sequence == (Rank.KING, Rank.ACE)
    assert score.bonus == 6
    # K-A would break the three kings; A-2 keeps them.
    score = hand_score("AS 2H KC KD KS 7H")
    assert score.sequence == (Rank.ACE, Rank.TWO)
    assert score.sets == ((Rank.KING, 3),)
    assert str(score) == "2♠ × 2 (A–2) + 6 (Ks) = 10"
    # 3-4-5 breaks the 4s, 8-9-10 breaks the 10s, Q-K-A breaks nothing.
    score = hand_score("3S 4S 4H 4C 5S 8H 9H 10H 10C 10D QC KD AD")
    assert score.sequence == (Rank.QUEEN, Rank.KING, Rank.ACE)
    assert score.sets == ((Rank.TEN, 3), (Rank.FOUR, 3))
    assert score.bonus == 12
    # Both sequences break a set: the bonus is equal, so the higher sequence is shown.
    score = hand_score("3S 4S 4H 4C 5S 9H 10H 10C 10D JD")
    assert score.sequence == (Rank.NINE, Rank.TEN, Rank.JACK)
    assert score.sets == ((Rank.FOUR, 3),)
    assert score.bonus == 6


def test_a_four_is_better_broken_than_a_three() -> None:
    # 2-3 takes one of four 2s (8 -> 6); 9-10 takes one of three 10s (6 -> 0).
    score = hand_score("2S 2H 2C 2D 3S 9H 10H 10C 10D")
    assert score.sequence == (Rank.TWO, Rank.THREE)
    assert score.sets == ((Rank.TEN, 3), (Rank.TWO, 3))
    assert score.bonus == 12


def test_equal_sequences_and_bonus_prefer_the_highest() -> None:
    assert hand_score("2S 3S 9H 10H").sequence == (Rank.NINE, Rank.TEN)
    assert hand_score("AS 2H KC 7D").sequence == (Rank.KING, Rank.ACE)


def test_longest_suit_ties_are_shown_in_seat_order() -> None:
    assert hand_score("2D 5C 9H").longest_suit is Suit.HEARTS
    assert hand_score("2D 5C 9H JS").longest_suit is Suit.SPADES
    assert hand_score("2D 5C").longest_suit is Suit.CLUBS


# --------------------------------------------------------------------------------------
# Who takes the trick


def trick(text: str) -> list[Card]:
    """Cards of the given ranks, in distinct suits where ranks repeat."""
    tokens = text.split()
    seen: dict[str, int] = {}
    cards = []
    for token in tokens:
        n = seen.get(token, 0)
        seen[token] = n + 1
        cards.append(parse_card(token + "SHCD"[n]))
    return cards


TAKER_CASES = [
    # from the rules
    ("K 9 9 5", 0),
    ("K K 9 5", 3),
    ("K K K 5", 3),
    ("K K 5 5", None),
    ("7 7 7 7", None),
    # more
    ("A 2 3 4", 0),
    ("2 3 4 5", 3),
    ("A A 2 3", 2),
    ("A A 2 2", None),
    ("A A K K", None),
    ("A A A 2", 3),
    ("A A A A", None),
    ("Q Q J 10", 3),
    ("Q Q 10 10", None),
    ("9 9 9 2", 3),
    ("3 9 9 3", None),
    ("5 9 K 9", 2),
    ("J 4 J 4", None),
    ("J 4 J 5", 1),
    ("2 2 2 3", 3),
    ("3 2 2 2", 0),
    ("10 10 10 10", None),
]


@pytest.mark.parametrize(("text", "taker"), TAKER_CASES)
def test_trick_taker(text: str, taker: int | None) -> None:
    cards = trick(text)
    assert trick_taker(cards) == taker


@pytest.mark.parametrize(("text", "taker"), TAKER_CASES)
def test_trick_taker_follows_the_card_whatever_the_order_and_suits(
    text: str, taker: int | None
) -> None:
    cards = trick(text)
    for order in permutations(range(4)):
        shuffled = [cards[i] for i in order]
        expected = None if taker is None else order.index(taker)
        assert trick_taker(shuffled) == expected
    for suits in permutations(Suit):
        # reassign suits (keeping cards distinct where ranks repeat)
        resuited = [Card(card.rank, suits["SHCD".index(card.suit.letter)]) for card in cards]
        assert trick_taker(resuited) == taker


def test_single_highest_takes_from_any_seat() -> None:
    for seat in SEATS:
        ranks_ = [Rank.FIVE, Rank.FIVE, Rank.FIVE, Rank.FIVE]
        ranks_[seat] = Rank.SIX
        cards = [Card(r, s) for r, s in zip(ranks_, Suit, strict=True)]
        assert trick_taker(cards) == seat
        ranks_[seat] = Rank.FOUR
        cards = [Card(r, s) for r, s in zip(ranks_, Suit, strict=True)]
        assert trick_taker(cards) == seat  # highest shared by three, single lowest takes


def test_trick_taker_agrees_with_the_rule_for_all_rank_patterns_in_every_seat_order() -> None:
    # every one of the 13⁴ patterns the engine's taker table holds
    for trick_ranks in product(Rank, repeat=4):
        ranks = list(trick_ranks)
        high, low = max(ranks), min(ranks)
        if ranks.count(high) == 1:
            expected: int | None = ranks.index(high)
        elif ranks.count(low) == 1:
            expected = ranks.index(low)
        else:
            expected = None
        cards = [Card.of(r, s) for r, s in zip(ranks, Suit, strict=True)]
        assert trick_taker(cards) == expected, ranks


def test_trick_taker_agrees_with_the_rule_for_every_rank_pattern() -> None:
    values = list(Rank)
    rng = random.Random(5)
    for _ in range(2000):
        trick_ranks = [rng.choice(values) for _ in range(4)]
        cards = [Card(r, s) for r, s in zip(trick_ranks, Suit, strict=True)]
        high, low = max(trick_ranks), min(trick_ranks)
        if trick_ranks.count(high) == 1:
            expected: int | None = trick_ranks.index(high)
        elif trick_ranks.count(low) == 1:
            expected = trick_ranks.index(low)
        else:
            expected = None
        assert trick_taker(cards) == expected


# --------------------------------------------------------------------------------------
# A new game


def test_new_game_deals_thirteen_distinct_cards_to_each_seat() -> None:
    for seed in range(5):
        state = new_game(seed)
        hands = [state.hand(seat) for seat in SEATS]
        assert all(len(hand) == 13 for hand in hands)
        assert all(list(hand) == sorted(hand) for hand in hands)
        assert sorted(card for hand in hands for card in hand) == sorted(DECK)
        assert state.phase is Phase.CHOOSE
        assert (state.deal, state.trick) == (1, 1)
        assert state.to_act == SEATS
        assert state.taker is None
        assert state.moves == () and state.move_count == 0
        assert state.totals == (0, 0, 0, 0)
        assert state.results == ()
        assert state.winners == ()
        assert not state.is_over
        assert state.seed == seed
        assert all(state.won_cards(seat) == () for seat in SEATS)
        assert all(state.choice(seat) is None for seat in SEATS)


def test_same_seed_same_game() -> None:
    a, b = play_game(11), play_game(11)
    assert snapshot(a) == snapshot(b)
    first, second = new_game(11), new_game(11)
    assert snapshot(first) == snapshot(second)
    assert [first.identity(s) for s in SEATS] == [second.identity(s) for s in SEATS]
    assert any(new_game(seed).hand(0) != first.hand(0) for seed in range(12, 15))


def test_identity_cards_are_a_permutation_of_the_suits_every_deal() -> None:
    state = new_game(3)
    rng = random.Random(3)
    seen: list[tuple[int, tuple[Suit, ...]]] = []
    while not state.is_over:
        identities = tuple(state.identity(seat) for seat in SEATS)
        if not seen or seen[-1] != (state.deal, identities):
            seen.append((state.deal, identities))
        assert sorted(identities) == sorted(Suit)
        for seat in SEATS:
            assert state.dupe(seat) == seat_of_suit(identities[seat])
            assert state.view(seat).identity is identities[seat]
            assert state.view(seat).dupe == state.dupe(seat)
        step(state, rng)
    assert [deal for deal, _ in seen] == [1, 2, 3, 4]
    assert [r.identities for r in state.results] == [ids for _, ids in seen]


def test_identity_cards_differ_between_deals_for_some_seed() -> None:
    def identities(seed: int) -> list[tuple[Suit, ...]]:
        return [result.identities for result in play_game(seed).results]

    assert any(len(set(identities(seed))) > 1 for seed in range(5))
    assert len({tuple(identities(seed)) for seed in range(5)}) > 1


def test_seats_own_their_suits() -> None:
    assert SEAT_SUITS == (Suit.SPADES, Suit.HEARTS, Suit.CLUBS, Suit.DIAMONDS)
    assert [seat_of_suit(suit) for suit in SEAT_SUITS] == list(SEATS)


# --------------------------------------------------------------------------------------
# Choosing cards


def test_legal_actions_are_sorted_and_deterministic() -> None:
    state = new_game(4)
    for seat in SEATS:
        actions = state.legal_actions(seat)
        assert actions == tuple(play(card) for card in state.hand(seat))
        assert list(actions) == sorted(actions)
        assert actions == state.legal_actions(seat) == new_game(4).legal_actions(seat)
        assert all(type(action) is Play for action in actions)
        assert all(state.is_legal(seat, action) for action in actions)
    to_distribution(state)
    taker = state.taker
    assert taker is not None
    actions = state.legal_actions(taker)
    revealed = state.view(taker).revealed
    assert revealed is not None
    assert len(actions) == len(set(actions)) == 24
    assert list(actions) == sorted(actions)
    assert all(isinstance(a, Distribute) and sorted(a.cards) == sorted(revealed) for a in actions)
    assert all(state.legal_actions(seat) == () for seat in SEATS if seat != taker)


def test_choices_are_simultaneous_in_any_order() -> None:
    base = new_game(6)
    cards = [base.hand(seat)[seat * 3] for seat in SEATS]
    outcomes = set()
    for order in permutations(SEATS):
        state = new_game(6)
        for n, seat in enumerate(order):
            assert state.phase is Phase.CHOOSE
            assert seat in state.to_act
            state.apply(seat, play(cards[seat]))
            if n < 3:
                assert state.choice(seat) == cards[seat]
                assert state.to_act == tuple(s for s in SEATS if s not in order[: n + 1])
                assert state.view(seat).chosen == tuple(s in order[: n + 1] for s in SEATS)
        outcomes.add(snapshot(state)[:2] + snapshot(state)[3:])  # all but the move log order
    assert len(outcomes) == 1


def test_a_choice_is_final() -> None:
    state = new_game(1)
    first, second = state.hand(0)[:2]
    state.apply(0, play(first))
    assert state.legal_actions(0) == ()
    assert state.view(0).legal_actions() == ()
    assert state.view(0).choice == first
    assert first not in state.hand(0)
    assert_rejected(state, 0, play(second), errors.NotYourTurnError, "final")
    assert_rejected(state, 0, play(first), errors.NotYourTurnError)
    assert state.choice(0) == first


def test_playing_a_card_not_in_hand_names_the_card() -> None:
    state = new_game(2)
    card = state.hand(1)[0]
    assert_rejected(state, 0, play(card), errors.IllegalActionError, str(card))
    state.apply(0, play(state.hand(0)[0]))
    assert_rejected(state, 2, play(card), errors.IllegalActionError, str(card))


def test_playing_while_the_taker_distributes_is_not_your_turn() -> None:
    state = to_distribution(new_game(2))
    for seat in SEATS:
        card = state.hand(seat)[0]
        assert_rejected(state, seat, play(card), errors.NotYourTurnError)


def test_only_the_taker_distributes() -> None:
    state = to_distribution(new_game(8))
    taker = state.taker
    assert taker is not None
    assert state.to_act == (taker,)
    distribution = state.legal_actions(taker)[5]
    for seat in SEATS:
        if seat != taker:
            assert_rejected(state, seat, distribution, errors.NotYourTurnError)
    fresh = new_game(8)
    assert_rejected(fresh, 0, distribution, errors.NotYourTurnError)


def test_a_distribution_must_be_a_bijection_of_the_revealed_cards() -> None:
    state = to_distribution(new_game(9))
    taker = state.taker
    assert taker is not None
    revealed = state.view(taker).revealed
    assert revealed is not None
    a, b, c, d = revealed
    other = next(card for card in DECK if card not in revealed)
    for cards in [(a, a, b, c), (a, b, c, other), (a, a, a, a), (other, b, c, d)]:
        assert_rejected(state, taker, Distribute(cards), errors.IllegalActionError)
    # every permutation is accepted
    for order in permutations(revealed):
        assert state.is_legal(taker, Distribute(order))


def test_a_bool_is_not_the_takers_seat() -> None:
    # True == 1: the taker's fast path must not take True for seat 1 (East).
    state = to_distribution(new_game(0))
    assert state.taker == 1
    revealed = state.view(1).revealed
    assert revealed is not None
    error = assert_rejected(state, True, Distribute(revealed), errors.InvalidActionError)
    assert error.reason == "invalid-seat"


@pytest.mark.parametrize("seat", [True, False, -1, -4, 4, 1.0, "1", None])
def test_a_choice_needs_a_seat_that_is_an_int_from_0_to_3(seat: Any) -> None:
    # The choosing fast path indexes by the seat: -1 or True must not pass for seat 3 or 1.
    state = new_game(3)
    card = state.hand(1)[0]
    error = assert_rejected(state, seat, play(card), errors.InvalidActionError)
    assert error.reason == "invalid-seat"


def test_a_seat_that_has_chosen_or_a_taker_cannot_choose() -> None:
    state = new_game(4)
    state.apply(2, play(state.hand(2)[0]))
    assert_rejected(state, 2, play(state.hand(2)[0]), errors.NotYourTurnError)
    state = to_distribution(new_game(0))
    taker = state.taker
    assert taker is not None
    assert_rejected(state, taker, play(state.hand(taker)[0]), errors.NotYourTurnError)


def test_a_distribution_gives_each_seat_its_card() -> None:
    state = to_distribution(new_game(10))
    taker = state.taker
    view = state.view(0)
    assert view.revealed is not None and view.taker == taker
    revealed = view.revealed
    assert trick_taker(revealed) == taker
    given = (revealed[3], revealed[1], revealed[0], revealed[2])
    before = [state.won_cards(seat) for seat in SEATS]
    trick_number = state.trick
    assert taker is not None
    state.apply(taker, Distribute(given))
    assert Distribute(given).receiver(revealed[0]) == 2
    for seat in SEATS:
        assert state.won_cards(seat) == tuple(sorted((*before[seat], given[seat])))
    last = state.view(1).last_trick
    assert last is not None
    assert (last.deal, last.trick, last.cards, last.taker, last.received) == (
        1,
        trick_number,
        revealed,
        taker,
        given,
    )
    assert state.phase is Phase.CHOOSE
    assert state.taker is None
    assert state.view(0).revealed is None
    assert state.trick == trick_number + 1
    assert state.to_act == SEATS


MALFORMED: list[tuple[Any, Any]] = [
    (0, "TS"),
    (0, None),
    (0, 7),
    (0, (parse_card("TS"),)),
    (0, Play("TS")),  # type: ignore[arg-type]
    (0, Play(None)),  # type: ignore[arg-type]
    (0, Play((Rank.TEN, Suit.SPADES))),  # type: ignore[arg-type]
    (0, Distribute(tuple(parse_cards("2S 3S 4S")))),
    (0, Distribute(tuple(parse_cards("2S 3S 4S 5S 6S")))),
    (0, Distribute(("2S", "3S", "4S", "5S"))),  # type: ignore[arg-type]
    (0, Distribute(parse_cards("2S 3S 4S 5S"))),  # type: ignore[arg-type]
]


def test_malformed_actions_are_invalid() -> None:
    state = new_game(12)
    card = state.hand(0)[0]
    seat_cases: list[tuple[Any, Any]] = [
        (4, play(card)),
        (-1, play(card)),
        ("0", play(card)),
        (None, play(card)),
        (0.0, play(card)),
        (True, play(card)),
    ]
    cases = [*MALFORMED, (0, Play((card.rank, card.suit))), *seat_cases]  # type: ignore[arg-type]
    for seat, action in cases:
        assert_rejected(state, seat, action, errors.InvalidActionError)
    to_distribution(state)
    for seat, action in MALFORMED:
        assert_rejected(state, state.taker, action, errors.InvalidActionError)
        assert_rejected(state, seat, action, errors.InvalidActionError)


def test_invalid_seat_view_is_refused() -> None:
    state = new_game(0)
    for seat in (4, -1, None, "N", 1.5, [0]):
        with pytest.raises(errors.InvalidActionError):
            state.view(seat)  # type: ignore[arg-type]


def test_errors_are_sentences_and_engine_errors() -> None:
    state = new_game(0)
    error = assert_rejected(state, 0, play(state.hand(1)[0]), errors.IllegalActionError)
    assert isinstance(error, errors.EngineError)
    text = str(error)
    assert not text[0].islower() and text.endswith(".")
    assert issubclass(errors.NotYourTurnError, errors.IllegalActionError)
    assert issubclass(errors.GameOverError, errors.IllegalActionError)
    assert issubclass(errors.InvalidActionError, ValueError)


# --------------------------------------------------------------------------------------
# Tricks nobody takes, the end of a deal, the end of the game


def test_a_tie_puts_each_card_on_its_own_won_pile() -> None:
    state, cards = common_rank_game()
    assert trick_taker(cards) is None
    for seat in (2, 0, 3, 1):
        state.apply(seat, play(cards[seat]))
    assert state.phase is Phase.CHOOSE
    assert state.taker is None
    assert state.trick == 2
    assert state.to_act == SEATS
    for seat in SEATS:
        assert state.won_cards(seat) == (cards[seat],)
        assert state.legal_actions(seat) == tuple(play(c) for c in state.hand(seat))
        assert state.view(seat).revealed is None
    last = state.public_view().last_trick
    assert last is not None
    assert last.taker is None
    assert last.cards == last.received == tuple(cards)
    assert len(state.moves) == state.move_count == 4


def test_a_deal_is_scored_after_the_thirteenth_trick() -> None:
    state = new_game(13, "open")
    rng = random.Random(0)
    identities = tuple(state.identity(seat) for seat in SEATS)
    while state.deal == 1:
        assert state.trick <= TRICKS
        assert state.results == ()
        won_before = [state.won_cards(seat) for seat in SEATS]
        step(state, rng)
    last = state.public_view().last_trick
    assert last is not None and (last.deal, last.trick) == (1, TRICKS)
    (result,) = state.results
    assert result.deal == 1
    assert result.identities == identities
    for seat in SEATS:
        assert result.won[seat] == tuple(sorted((*won_before[seat], last.received[seat])))
        assert len(result.won[seat]) == 13
        assert result.scores[seat] == score_hand(result.won[seat])
        assert result.dupe(seat) == seat_of_suit(identities[seat])
        assert result.credited[seat] == result.scores[result.dupe(seat)].total
        # the won cards become the next hand
        assert state.hand(seat) == result.won[seat]
        assert state.won_cards(seat) == ()
        assert state.view(seat).won == ()
    assert sorted(c for hand in result.won for c in hand) == sorted(DECK)
    assert result.totals == result.credited == state.totals
    assert sum(result.credited) == sum(score.total for score in result.scores)
    assert (state.deal, state.trick, state.phase) == (2, 1, Phase.CHOOSE)
    assert state.to_act == SEATS


def test_the_game_ends_after_the_fourth_deal() -> None:
    state = play_game(14)
    assert state.is_over
    assert state.phase is Phase.OVER
    assert state.deal == DEALS
    assert len(state.results) == DEALS
    assert [r.deal for r in state.results] == [1, 2, 3, 4]
    assert len(state.moves) >= DEALS * TRICKS * 4
    running: tuple[int, ...] = (0, 0, 0, 0)
    for result in state.results:
        running = tuple(t + c for t, c in zip(running, result.credited, strict=True))
        assert result.totals == running
    assert state.totals == running
    top = max(state.totals)
    assert state.winners == tuple(seat for seat in SEATS if state.totals[seat] == top)
    assert state.to_act == ()
    for seat in SEATS:
        assert state.legal_actions(seat) == ()
        assert state.view(seat).legal_actions() == ()
        assert state.view(seat).winners == state.winners
    card = state.results[-1].won[0][0]
    for seat in SEATS:
        assert_rejected(state, seat, play(card), errors.GameOverError, "over")
        assert_rejected(state, seat, Distribute(tuple(DECK[:4])), errors.GameOverError)


def test_equal_highest_totals_share_the_win() -> None:
    for seed in range(100):
        state = play_game(seed)
        if len(state.winners) > 1:
            top = max(state.totals)
            assert all(state.totals[seat] == top for seat in state.winners)
            assert all(state.totals[seat] < top for seat in SEATS if seat not in state.winners)
            return
    raise AssertionError("no shared win in 100 games")


def test_bad_options_and_seeds_are_refused() -> None:
    with pytest.raises(errors.OptionsError, match="bogus"):
        DupeOptions(memory="bogus")  # type: ignore[arg-type]
    assert DupeOptions().memory == "strict"
    with pytest.raises(errors.OptionsError):
        _new_game("1")  # type: ignore[arg-type]
    with pytest.raises(errors.OptionsError):
        _new_game(1.0)  # type: ignore[arg-type]
    assert _new_game(5).options == DupeOptions()


# --------------------------------------------------------------------------------------
# Notation and replay


def test_move_notation() -> None:
    ten = parse_card("TS")
    assert str(play(ten)) == "TS"
    assert str(Move(0, play(ten))) == "N:TS"
    distribution = Distribute(tuple(parse_cards("TS 2H 3C 4D")))
    assert str(Move(1, distribution)) == "E:TS,2H,3C,4D"
    assert Move.parse("E:TS,2H,3C,4D") == Move(1, distribution)
    assert Move.parse("south:10♠") == Move(2, play(ten))
    assert Move.parse(" w : ts ") == Move(3, play(ten))
    assert parse_action("TS") == play(ten) == Play(ten)
    assert parse_action("10♠") is play(ten)
    assert parse_action("ts, 2h 3c,4d") == distribution


@pytest.mark.parametrize("text", ["NTS", "X:TS", "N:", "N:TS 2H", "N:1S", "", ":TS", "N:TS,2H,3C"])
def test_bad_move_notation_raises_parse_error(text: str) -> None:
    with pytest.raises(errors.ParseError) as caught:
        Move.parse(text)
    assert isinstance(caught.value, errors.EngineError)
    assert caught.value.token in text
    assert f"“{caught.value.token}”" in str(caught.value)


def test_every_move_round_trips_and_replays() -> None:
    for memory in ("strict", "open"):
        state = play_game(21, memory)
        options = DupeOptions(memory=memory)
        texts = [str(move) for move in state.moves]
        assert any(isinstance(move.action, Distribute) for move in state.moves)
        for move, text in zip(state.moves, texts, strict=True):
            assert Move.parse(text) == move
            assert parse_action(str(move.action)) == move.action
        again = replay(21, options, texts)
        assert snapshot(again) == snapshot(state)
        assert again.totals == state.totals
        assert again.results == state.results
        assert again.winners == state.winners
        assert snapshot(replay(21, options, state.moves)) == snapshot(state)


def test_replay_of_a_game_in_progress() -> None:
    state = new_game(22)
    rng = random.Random(1)
    for _ in range(70):
        step(state, rng)
    moves = [str(move) for move in state.moves]
    assert snapshot(replay(22, None, moves)) == snapshot(state)
    assert snapshot(replay(22, None, moves[:-1])) != snapshot(state)


def test_replay_raises_on_an_illegal_move() -> None:
    state = new_game(23)
    stranger = state.hand(1)[0]
    with pytest.raises(errors.IllegalActionError):
        replay(23, None, [f"N:{stranger.code}"])
    with pytest.raises(errors.ParseError):
        replay(23, None, ["N-TS"])


def test_clone_is_independent() -> None:
    state = new_game(24)
    copy = state.clone()
    assert snapshot(copy) == snapshot(state)
    step(copy, random.Random(0))
    assert snapshot(state) == snapshot(new_game(24))
    assert snapshot(copy) != snapshot(state)


# --------------------------------------------------------------------------------------
# Views


def test_strict_memory_hides_every_won_pile() -> None:
    state = new_game(30, "strict")
    rng = random.Random(0)
    while not state.is_over:
        for seat in SEATS:
            view = state.view(seat)
            assert view.won is None
            assert view.memory == "strict"
            assert view.to_dict()["won"] is None
        step(state, rng)


def test_open_memory_shows_a_seat_its_own_won_cards() -> None:
    state = new_game(30, "open")
    rng = random.Random(0)
    seen_nonempty = False
    while not state.is_over:
        for seat in SEATS:
            view = state.view(seat)
            assert view.won == state.won_cards(seat)
            assert view.memory == "open"
            seen_nonempty = seen_nonempty or bool(view.won)
        assert state.public_view().won is None
        step(state, rng)
    assert seen_nonempty


def test_public_view_has_no_hand_identity_or_choice() -> None:
    state = new_game(31, "open")
    state.apply(0, play(state.hand(0)[0]))
    public = state.public_view()
    assert public.seat is None
    assert public.hand == ()
    assert public.identity is None
    assert public.dupe is None
    assert public.choice is None
    assert public.won is None
    assert public.legal_actions() == ()
    assert public.chosen == (True, False, False, False)
    data = public.to_dict()
    assert data["hand"] == [] and data["identity"] is None and data["choice"] is None
    text = json.dumps(data)
    for seat in SEATS:
        for card in state.hand(seat):
            assert f'"{card.code}"' not in text
    assert f'"{state.choice(0).code}"' not in text  # type: ignore[union-attr]


def test_view_legal_actions_match_the_state() -> None:
    state = new_game(32)
    rng = random.Random(3)
    while not state.is_over:
        for seat in SEATS:
            view = state.view(seat)
            assert view.legal_actions() == state.legal_actions(seat)
            assert view.seat == seat
            assert view.hand == state.hand(seat)
            assert view.choice == state.choice(seat)
            assert view.to_act == state.to_act
            assert view.phase is state.phase
            assert (view.deal, view.trick) == (state.deal, state.trick)
        step(state, rng)


def test_view_to_dict_is_json_ready() -> None:
    state = play_until(new_game(33), lambda s: len(s.results) == 1)
    to_distribution(state)
    view = state.view(state.taker)  # type: ignore[arg-type]
    data = json.loads(json.dumps(view.to_dict()))
    assert data["seat"] == state.taker
    assert data["phase"] == "distribute"
    assert data["hand"] == [card.code for card in view.hand]
    assert data["identity"] == view.identity.letter  # type: ignore[union-attr]
    assert data["revealed"] == [card.code for card in view.revealed]  # type: ignore[union-attr]
    (result,) = data["results"]
    assert result["scores"] == [str(score) for score in state.results[0].scores]
    assert result["identities"] == [suit.letter for suit in state.results[0].identities]
    assert data["totals"] == list(state.totals)


def test_a_seat_never_sees_another_seats_choice() -> None:
    state = new_game(34)
    rng = random.Random(2)
    while state.deal == 1:
        if state.phase is Phase.CHOOSE and len(state.to_act) > 1:
            seat = state.to_act[-1]
            state.apply(seat, state.legal_actions(seat)[rng.randrange(len(state.hand(seat)))])
            card = state.choice(seat)
            for other in SEATS:
                view = state.view(other)
                assert view.chosen[seat]
                assert view.choice == (card if other == seat else state.choice(other))
                if other != seat:
                    assert f'"{card.code}"' not in json.dumps(view.to_dict())  # type: ignore[union-attr]
        else:
            step(state, rng)


def test_a_view_is_a_value_that_does_not_change_with_the_game() -> None:
    state = new_game(35, "open")
    rng = random.Random(0)
    for _ in range(20):
        step(state, rng)
    views = [state.view(seat) for seat in SEATS]
    frozen = [json.dumps(view.to_dict()) for view in views]
    play_until(state, lambda s: len(s.results) == 1, rng)
    assert [json.dumps(view.to_dict()) for view in views] == frozen
    assert views != [state.view(seat) for seat in SEATS]


def test_the_decision_point_counts_choosing_rounds_and_distributions() -> None:
    """``turn`` (what buttons carry and timers restart on) rises by one when a trick's four
    cards are chosen and when its taker distributes: the trick's number in the game, plus
    the distributions made, plus one while one is awaited (and once at the end)."""
    for seed in range(60):
        state = new_game(seed)
        rng = random.Random(seed)
        while True:
            done = (state.deal - 1) * TRICKS + state.trick - 1
            given = sum(1 for move in state.moves if type(move.action) is Distribute)
            waiting = state.phase is Phase.DISTRIBUTE
            assert state.turn == done + given + waiting + state.is_over, seed
            if state.is_over:
                break
            seat = state.to_act[0]
            before = state.turn
            state.apply(seat, rng.choice(state.legal_actions(seat)))
            assert state.turn in (before, before + 1)
        assert state.turn == 4 * TRICKS + given
