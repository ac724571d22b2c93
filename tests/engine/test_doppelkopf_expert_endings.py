"""The Doppelkopf expert claims or concedes as the soloist only when the engine's exact
check would accept it for every deal consistent with its view, the real one included: it
never forfeits the remaining tricks by a claim, and plays on when it cannot know."""

from __future__ import annotations

import random

from engine.cards import Card, Rank, Suit, parse_cards
from engine.doppelkopf import DoppelkopfOptions
from engine.doppelkopf.claims import wins_every_trick
from engine.doppelkopf.orders import ORDERS, double_pack
from engine.doppelkopf.players.basic import BasicPlayer
from engine.doppelkopf.players.endings import Ending, _takes_a_trick, claim_holds, concession_due
from engine.doppelkopf.players.expert import ExpertPlayer
from engine.doppelkopf.rules import DoppelkopfState
from tests.engine.test_doppelkopf import deal

# Seat 1 speaks and leads first at this table (seat 0 deals).
EVERY_QUEEN = "QC QC QS QS QH QH QD QD AC AS AH AD"  # a queens solo no deal can beat
A_TEN = "QC QC QS QS QH QH QD QD AC AS AH TH"  # a ♥10 that the other ♥A may beat


def _solo(hand: str, kind: str = "queens", seed: int = 1) -> DoppelkopfState:
    state = deal(DoppelkopfOptions(), {1: hand}) if hand else _dealt(seed)
    state.apply(1, f"solo:{kind}")
    for seat in (2, 3, 0):
        state.apply(seat, "healthy")
    assert state.phase == "play"
    return state


def _dealt(seed: int) -> DoppelkopfState:
    from engine.doppelkopf import new_game

    return new_game(seed)


def _real_check(state: DoppelkopfState) -> bool:
    trick = state._trick
    assert trick is not None
    hands = [tuple(state.hand(s)) for s in range(4)]
    return wins_every_trick(state.order, hands, tuple(trick.plays), trick.leader, 1, (0, 1, 2, 3))


def test_the_soloist_announces_all_then_claims_when_no_deal_can_take_a_trick_from_it() -> None:
    state = _solo(EVERY_QUEEN)
    assert state.to_act == (1,)
    expert = ExpertPlayer(3)
    said = []
    while state.phase == "play":
        action = expert.act(state.view(1))
        said.append(str(action))
        state.apply(1, action)
    assert said == ["re", "no90", "no60", "no30", "black", "claim"]
    result = state.game_results[-1]
    assert result.winner == "re" and result.points == (240, 0)


def test_the_soloist_plays_on_when_some_deal_it_may_face_beats_its_claim() -> None:
    # The real hands let the claim hold (the other ♥A is seat 2's only heart: it falls on
    # the soloist's ♥A), but another deal the soloist may be facing does not.
    rest = sorted(double_pack())
    for card in parse_cards(A_TEN):
        rest.remove(card)
    hearts = [c for c in rest if c.suit == Suit.HEARTS and c.rank != Rank.QUEEN]
    ace = parse_cards("AH")[0]
    others = [c for c in rest if c not in hearts]
    seat2 = [ace, *others[:11]]
    tail = sorted([c for c in hearts if c != ace] + others[11:])
    hands = {1: A_TEN, 2: _text(seat2), 3: _text(tail[:12]), 0: _text(tail[12:])}
    state = deal(DoppelkopfOptions(), hands)
    state.apply(1, "solo:queens")
    for seat in (2, 3, 0):
        state.apply(seat, "healthy")
    assert _real_check(state)
    action = ExpertPlayer(3).act(state.view(1))
    assert str(action) not in ("claim", "concede")


def _text(cards: list[Card]) -> str:
    return " ".join(c.code for c in cards)


def test_the_soloist_claims_and_concedes_only_what_the_real_hands_uphold() -> None:
    # Random solos played by basic players to their last tricks: whenever the expert (seeing
    # only its view) claims, the engine's check on the real hands upholds it; whenever it
    # concedes, the real hands leave it no trick.
    claimed = declined_though_real_held = conceded = 0
    for seed in range(1, 120):
        rng = random.Random(seed)
        kind = rng.choice(("queens", "jacks", "clubs", "hearts"))
        state = _solo("", kind, seed=seed + 1000)
        expert = ExpertPlayer(seed)
        basic = {s: BasicPlayer(seed * 4 + s) for s in range(4)}
        while state.phase == "play" and len(state.hand(1)) > 3:
            seat = state.to_act[0]
            view = state.view(seat)
            if seat == 1:
                expert.observe(view)
            action = basic[seat].act(view)
            if action.card is None:
                action = next(a for a in state.legal_actions(seat) if a.card is not None)
            state.apply(seat, action)
        while state.phase == "play" and state.to_act != (1,):
            seat = state.to_act[0]
            state.apply(seat, next(a for a in state.legal_actions(seat) if a.card is not None))
        if state.phase != "play":
            continue
        view = state.view(1)
        real = _real_check(state)
        action = expert.act(view)
        if str(action) == "claim":
            assert real, seed
            claimed += 1
        elif str(action) == "concede":
            trick = state._trick
            assert trick is not None
            hands = [list(state.hand(s)) for s in range(4)]
            ending = Ending(state.order, 1, (), (), [0] * 4, {}, (), 1, (0, 1, 2, 3))
            nxt = (trick.plays[-1][0] + 1) % 4 if trick.plays else trick.leader
            assert not _takes_a_trick(ending, hands, list(trick.plays), nxt), seed
            conceded += 1
        elif real:
            declined_though_real_held += 1
    assert claimed >= 3, claimed
    assert declined_though_real_held >= 1, "some claims are right only by the hidden cards"
    assert conceded >= 1, conceded


def _ending(hand: str, unseen: str, leader: int) -> Ending:
    cards = parse_cards(unseen)
    return Ending(
        ORDERS["jacks"],
        soloist=1,
        hand=parse_cards(hand),
        unseen=cards,
        left=[len(cards) // 3, len(parse_cards(hand)), len(cards) // 3, len(cards) // 3],
        voids={},
        plays=(),
        leader=leader,
        in_play=(0, 1, 2, 3),
    )


def test_the_soloist_concedes_only_when_no_deal_leaves_it_a_trick() -> None:
    # Jacks solo, two tricks left: its two lowest spades against six higher ones take
    # nothing however they lie; against six hearts, its lead takes a trick.
    assert concession_due(_ending("9S 9S", "AS AS TS TS KS KS", leader=1))
    assert not concession_due(_ending("9S 9S", "AH AH TH TH KH KH", leader=1))
    # One heart among the spades: some deal leaves a seat able to take nothing but… still
    # every seat that can follow holds a higher spade, so no trick: conceded.
    assert concession_due(_ending("9S 9S", "AS AS TS TS KS AH", leader=1))
    # Unseen cards the opponents cannot all hold (a trick the soloist did not see): the
    # deals do not stand for the real hands, so neither a claim nor a concession.
    unknown = _ending("9S 9S", "AS AS TS TS KS KS AH", leader=1)
    assert not concession_due(unknown) and not claim_holds(unknown)
