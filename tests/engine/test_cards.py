"""Cards: parsing, formatting, ordering, decks and seeded shuffles."""

from __future__ import annotations

import random

import pytest

from engine.cards import (
    DECK,
    Card,
    Rank,
    Suit,
    by_suit,
    format_cards,
    full_deck,
    parse_card,
    parse_cards,
    shuffle,
    shuffled_deck,
)
from engine.errors import EngineError, ParseError


def test_ten_of_spades_has_three_spellings() -> None:
    ten = Card(Rank.TEN, Suit.SPADES)
    assert parse_card("10S") == parse_card("TS") == parse_card("10♠") == ten
    assert str(ten) == "10♠"
    assert ten.code == "TS"


@pytest.mark.parametrize("text", ["ts", "10s", "tS", "10♠", " TS ", "T♤", "10♠\ufe0f"])
def test_lower_case_symbols_and_padding_are_accepted(text: str) -> None:
    assert parse_card(text) == Card(Rank.TEN, Suit.SPADES)


@pytest.mark.parametrize(
    ("text", "rank", "suit"),
    [
        ("AS", Rank.ACE, Suit.SPADES),
        ("kh", Rank.KING, Suit.HEARTS),
        ("Q♣", Rank.QUEEN, Suit.CLUBS),
        ("j♦", Rank.JACK, Suit.DIAMONDS),
        ("2C", Rank.TWO, Suit.CLUBS),
        ("9♥", Rank.NINE, Suit.HEARTS),
        ("5♢", Rank.FIVE, Suit.DIAMONDS),
        ("7♡", Rank.SEVEN, Suit.HEARTS),
        ("3♧", Rank.THREE, Suit.CLUBS),
    ],
)
def test_parse_card_reads_rank_then_suit(text: str, rank: Rank, suit: Suit) -> None:
    assert parse_card(text) == Card(rank, suit)


def test_every_card_round_trips_through_code_and_text() -> None:
    assert len(DECK) == 52
    for card in DECK:
        assert parse_card(card.code) == card
        assert parse_card(str(card)) == card
        assert parse_card(card.code.lower()) == card
        assert parse_card(str(card).lower()) == card
        assert len(card.code) == 2
        assert eval(repr(card), {"parse_card": parse_card}) == card


def test_parsed_cards_are_the_interned_objects() -> None:
    for card in DECK:
        assert parse_card(card.code) is card
        assert Card.of(card.rank, card.suit) is card


def test_parse_cards_reads_a_list() -> None:
    assert parse_cards("AS KH 10D") == [
        Card(Rank.ACE, Suit.SPADES),
        Card(Rank.KING, Suit.HEARTS),
        Card(Rank.TEN, Suit.DIAMONDS),
    ]
    assert parse_cards("as,kh, 10♦") == parse_cards("AS KH 10D")
    assert parse_cards("") == []


@pytest.mark.parametrize("token", ["1S", "11H", "XS", "AX", "A", "", "S", "10", "AS?", "ZZ"])
def test_bad_card_raises_parse_error_naming_the_token(token: str) -> None:
    with pytest.raises(ParseError) as caught:
        parse_card(token)
    error = caught.value
    assert isinstance(error, EngineError)
    assert isinstance(error, ValueError)
    assert error.token == token
    assert f"“{token}”" in str(error)


def test_bad_token_in_a_list_is_named() -> None:
    with pytest.raises(ParseError) as caught:
        parse_cards("AS KH 1D QC")
    assert caught.value.token == "1D"
    assert "1D" in str(caught.value)


def test_format_cards() -> None:
    assert format_cards(parse_cards("AS KH 10D")) == "A♠ K♥ 10♦"
    assert format_cards(parse_cards("AS KH"), sep=",") == "A♠,K♥"
    assert format_cards([]) == ""


def test_rank_and_suit_text() -> None:
    assert [r.symbol for r in Rank] == [*map(str, range(2, 11)), "J", "Q", "K", "A"]
    assert [r.letter for r in Rank] == [*map(str, range(2, 10)), "T", "J", "Q", "K", "A"]
    assert [str(s) for s in Suit] == ["♣", "♦", "♥", "♠"]
    assert [s.letter for s in Suit] == ["C", "D", "H", "S"]
    assert Suit.SPADES.plural == "spades"
    assert str(Rank.TEN) == "10"


def test_cards_order_by_rank_then_suit() -> None:
    assert parse_card("2S") < parse_card("3C")
    assert parse_card("KS") < parse_card("AC")
    assert parse_card("10C") < parse_card("10D") < parse_card("10H") < parse_card("10S")
    ordered = sorted(DECK)
    assert ordered[0] == parse_card("2C")
    assert ordered[-1] == parse_card("AS")
    assert ordered == sorted(DECK, key=lambda c: (c.rank, c.suit))
    assert [c.rank for c in ordered] == sorted(c.rank for c in DECK)


def test_by_suit_groups_spades_hearts_clubs_diamonds_high_first() -> None:
    hand = parse_cards("2D AC 3S KS 4H 10D")
    assert format_cards(sorted(hand, key=by_suit)) == "K♠ 3♠ 4♥ A♣ 10♦ 2♦"


def test_deck_has_52_distinct_cards() -> None:
    assert len(set(DECK)) == 52
    assert set(DECK) == {Card(r, s) for r in Rank for s in Suit}
    deck = full_deck()
    assert deck == list(DECK)
    deck.pop()
    assert len(full_deck()) == 52


def test_shuffled_deck_is_a_seeded_permutation() -> None:
    first = shuffled_deck(random.Random(7))
    assert first == shuffled_deck(random.Random(7))
    assert sorted(first) == sorted(DECK)
    assert first != list(DECK)
    assert shuffled_deck(random.Random(8)) != first
    assert list(DECK) == sorted(DECK, key=lambda c: (c.suit, c.rank))


def test_shuffled_deck_of_given_cards() -> None:
    cards = parse_cards("AS KH 10D 2C")
    shuffled = shuffled_deck(random.Random(1), cards)
    assert sorted(shuffled) == sorted(cards)
    assert cards == parse_cards("AS KH 10D 2C")


@pytest.mark.parametrize("length", [0, 1, 2, 4, 13, 52, 53, 80])
def test_shuffle_orders_as_the_generators_own_shuffle(length: int) -> None:
    # Every seeded deal, pinned games and replays included, depends on this: the same
    # order as random.Random.shuffle, and the generator left in the same state.
    for seed in range(200):
        ours, theirs = random.Random(seed), random.Random(seed)
        items, expected = list(range(length)), list(range(length))
        shuffle(ours, items)
        theirs.shuffle(expected)
        assert items == expected
        assert ours.getstate() == theirs.getstate()


def test_a_text_wrong_in_rank_and_suit_is_not_blamed_on_the_suit_alone() -> None:
    with pytest.raises(ParseError) as caught:
        parse_card("ZZ")
    assert "write a rank (2-10, J, Q, K, A) and then a suit" in str(caught.value)
    assert caught.value.reason == "parse" and caught.value.params == {"token": "ZZ"}
    with pytest.raises(ParseError, match="the suit must be one of"):
        parse_card("QX")
    with pytest.raises(ParseError, match="the rank must be one of"):
        parse_card("ZS")
