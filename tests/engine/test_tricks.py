"""engine/tricks.py: the trick mechanics shared by trick games."""

from __future__ import annotations

from engine.cards import DECK, Suit, parse_cards
from engine.tricks import (
    deal_round,
    eldest,
    follows,
    legal_cards,
    next_seat,
    trick_winner,
    turns_down_turnup,
)


def test_the_highest_trump_wins_else_the_highest_card_of_the_suit_led() -> None:
    assert trick_winner(parse_cards("5H KH 2H AH"), Suit.SPADES) == 3
    assert trick_winner(parse_cards("5H AS KH 2S"), Suit.SPADES) == 1
    assert trick_winner(parse_cards("5H AC KD 2C"), Suit.SPADES) == 0, "off-suit cards lose"
    assert trick_winner(parse_cards("5H 3S AH 4S"), Suit.SPADES) == 3, "overtrumped"
    assert trick_winner(parse_cards("5H AC 6H"), None) == 2, "no trumps"
    assert trick_winner(parse_cards("2S AH"), Suit.SPADES) == 0, "a trump lead holds"
    assert trick_winner(parse_cards("QD"), Suit.CLUBS) == 0


def test_following_suit() -> None:
    hand = tuple(sorted(parse_cards("2H 9H AS 3C")))
    assert legal_cards(hand, None) == hand
    assert legal_cards(hand, Suit.HEARTS) == tuple(sorted(parse_cards("2H 9H")))
    assert legal_cards(hand, Suit.DIAMONDS) == hand, "void: any card"
    assert follows(hand, parse_cards("AS")[0], Suit.DIAMONDS)
    assert not follows(hand, parse_cards("AS")[0], Suit.HEARTS)
    assert follows(hand, parse_cards("9H")[0], Suit.HEARTS)
    assert follows(hand, parse_cards("AS")[0], None)


def test_dealing_round_the_table_and_who_leads() -> None:
    hands = deal_round(DECK, [1, 2, 3, 0], 13)
    assert hands[1] == list(DECK[0::4]) and hands[0] == list(DECK[3::4])
    assert hands[0][-1] == DECK[51], "the dealer receives the 52nd card last"
    two = deal_round(DECK, [2, 0], 13)
    assert two[2] == list(DECK[0:26:2]) and two[0][-1] == DECK[25]
    assert eldest(3) == 0 and eldest(0) == 1 and next_seat(3) == 0 and next_seat(1, 3) == 2
    assert turns_down_turnup(2, 2, 0)
    assert not turns_down_turnup(2, 1, 0) and not turns_down_turnup(2, 2, 1)
