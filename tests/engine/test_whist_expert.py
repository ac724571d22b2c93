"""The whist ``expert``: legal in every variant from views only, double-dummy best in Double
Dummy (claims proven by the solver), sampled deals that agree with everything its views
showed, a sample count fixed by the position, and ``basic`` in its place without endplay."""

from __future__ import annotations

import logging
import sys
from collections.abc import Iterator

import pytest

from engine.cards import DECK, Card, Suit
from engine.game import deciding_player
from engine.whist import (
    EAST,
    NORTH,
    SOUTH,
    WEST,
    Kind,
    Phase,
    WhistOptions,
    WhistState,
    claim,
    new_game,
)
from engine.whist.players import expert as expert_module
from engine.whist.players import make_player
from engine.whist.players.expert import ExpertPlayer, solve_position, solve_two_hands
from tests.engine.whist_helpers import ALL_OPTIONS, option_id, play_randomly

pytest.importorskip("endplay")


def quick(seed: int) -> ExpertPlayer:
    """Return an expert that solves few samples (the tests check choices, not strength)."""
    return ExpertPlayer(seed, samples=2)


def hands(state: WhistState) -> list[tuple[Card, ...]]:
    return [state.hand(s) for s in range(4)]


# every variant (English Dummy as its shorter fixed-dummy session)
EVERY_VARIANT = [ALL_OPTIONS[i] for i in (0, 4, 5, 7, 8, 9, 10, 11, 12)]


@pytest.mark.parametrize("options", EVERY_VARIANT, ids=option_id)
def test_the_expert_plays_whole_games_of_every_variant_legally(options: WhistOptions) -> None:
    state = new_game(3, options)
    players = [quick(p) if p == 0 else make_player("basic", p) for p in range(state.players)]
    while not state.is_over:
        for hand in state.to_act:
            p = deciding_player(state, hand)
            assert p is not None
            action = players[p].act(state.view(hand))
            assert action in state.legal_actions(hand)
            state.apply(hand, action)
    assert state.winners


def double_dummy_positions(seeds: int = 3) -> Iterator[tuple[WhistState, ExpertPlayer]]:
    """Yield the positions of Double Dummy's first deals (an expert at S and W, random
    players for the other side), S's expert having been shown every view along the way,
    so it knows every card, as the rules' perfect information has it."""
    for seed in range(seeds):
        state = new_game(seed, WhistOptions(variant="double_dummy"))
        player = quick(seed)
        other = make_player("random", seed)
        while state.deal == 1 and state.phase is Phase.PLAY:
            hand = state.to_play
            assert hand is not None
            player.observe(state.view(SOUTH))
            yield state, player
            if state.controller(hand) == SOUTH:
                state.apply(hand, player.act(state.view(hand)))
            else:
                state.apply(hand, other.act(state.view(hand)))


def test_in_double_dummy_the_expert_plays_a_double_dummy_best_card() -> None:
    checked = 0
    for state, player in double_dummy_positions():
        hand = state.to_play
        assert hand is not None and state.trump is not None
        if state.controller(hand) != SOUTH or len(state.legal_actions(hand)) < 2:
            continue
        solved = solve_position(hands(state), state.trick, hand, state.trump)
        action = player.act(state.view(hand))
        if action.kind == Kind.CLAIM:
            remaining = 13 - state.completed
            assert action.number == max(solved.values())
            assert action.number == remaining or remaining <= 5
            continue
        assert action.card is not None
        assert solved[action.card] == max(solved.values()), (state.moves[-4:], solved)
        checked += 1
    assert checked >= 20


def test_the_expert_accepts_only_a_proven_claim() -> None:
    answered = set()
    for state, player in double_dummy_positions(8):
        hand = state.to_play
        assert hand is not None and state.trump is not None
        if state.controller(hand) != WEST or state.completed < 6 or state.trick:
            continue
        west = max(solve_position(hands(state), (), hand, state.trump).values())
        remaining = 13 - state.completed
        tries = ((west - 1, Kind.ACCEPT), (west, Kind.ACCEPT), (west + 1, Kind.REJECT))
        for tricks, answer in tries:
            if 1 <= tricks <= remaining:
                claimed = state.clone()
                claimed.apply(WEST, claim(tricks))
                assert player.act(claimed.view(SOUTH)).kind == answer, (tricks, west)
                answered.add(answer)
    assert answered == {Kind.ACCEPT, Kind.REJECT}


@pytest.mark.parametrize(
    "options",
    [WhistOptions(), WhistOptions(variant="mort", players=3), WhistOptions(variant="two_hand")],
    ids=option_id,
)
def test_sampled_deals_agree_with_every_card_and_void_the_views_showed(
    options: WhistOptions,
) -> None:
    import random

    state = new_game(5, options)
    rng = random.Random(5)
    seat = SOUTH
    player = quick(5)
    seen: set[Card] = set()
    void: set[tuple[int, object]] = set()
    checks = 0
    while state.deal == 1 and state.phase is Phase.PLAY:
        hand = state.to_play
        assert hand is not None
        if state.controller(hand) == seat:
            view = state.view(hand)
            for trick in (view.last_trick.cards if view.last_trick else (), view.trick):
                for s, card in trick:
                    seen.add(card)
                    if card.suit is not trick[0][1].suit:
                        void.add((s, trick[0][1].suit))
            player.observe(view)
            if state.completed >= 3:
                for world in player.worlds(view, 6):
                    checks += 1
                    for s in range(4):
                        assert len(world[s]) == view.counts[s]
                        shown = view.hands[s]
                        if shown is not None:
                            assert sorted(world[s]) == sorted(shown)
                        assert not seen & set(world[s])
                        assert not any((s, c.suit) in void for c in world[s])
                    if options.variant == "two_hand":
                        assert view.turnup not in world[NORTH] + world[SOUTH]
        play_randomly(state, rng, 1)
    assert checks


def test_the_turned_card_stays_with_the_dealer_in_every_sample() -> None:
    state = new_game(2)  # short whist
    hand = state.to_play
    assert hand is not None and state.turnup is not None
    dealer = state.dealer
    if hand == dealer:
        pytest.skip("the dealer leads")
    for world in quick(1).worlds(state.view(hand), 10):
        assert state.turnup in world[dealer]


def test_the_expert_sees_only_views() -> None:
    """Two deals that differ only in cards the expert cannot see get the same card."""
    state = new_game(8)
    hand = state.to_play
    assert hand is not None
    other = new_game(8)
    hidden = [s for s in (NORTH, EAST, SOUTH, WEST) if s != hand and s != state.dealer]
    a, b = hidden
    swap_a, swap_b = state.hand(a)[0], state.hand(b)[0]
    other._hands[a] = tuple(sorted((*state.hand(a)[1:], swap_b)))
    other._hands[b] = tuple(sorted((*state.hand(b)[1:], swap_a)))
    assert other.view(hand) == state.view(hand)
    first = ExpertPlayer(4, samples=3, effort=1e6, solve_from=13).act(state.view(hand))
    second = ExpertPlayer(4, samples=3, effort=1e6, solve_from=13).act(other.view(hand))
    assert first == second


def test_sampling_solves_the_sample_count(monkeypatch: pytest.MonkeyPatch) -> None:
    calls = []
    real = expert_module.solve_position

    def counting(*args: object, **kwargs: object) -> dict[Card, int]:
        calls.append(1)
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(expert_module, "solve_position", counting)
    state = new_game(3)
    hand = state.to_play
    assert hand is not None
    dear = ExpertPlayer(1, samples=30, effort=226.0, solve_from=13)
    dear.act(state.view(hand))
    assert len(calls) == 2, "two solves of a full deal's typical cost fit the effort"
    calls.clear()
    ExpertPlayer(1, samples=3, effort=1e6, solve_from=13).act(state.view(hand))
    assert len(calls) == 3


def test_a_single_legal_card_is_played_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(expert_module, "solve_position", None)
    state = new_game(1)
    rng = __import__("random").Random(1)
    while True:
        hand = state.to_play
        assert hand is not None
        legal = state.legal_actions(hand)
        if len(legal) == 1:
            assert quick(1).act(state.view(hand)) == legal[0]
            return
        play_randomly(state, rng, 1)


def test_humbug_choices_are_legal_and_reproducible() -> None:
    for options in (
        WhistOptions(variant="humbug"),
        WhistOptions(variant="humbug", humbug_declared=True),
    ):
        for seed in range(3):
            state = new_game(seed, options)
            for hand in state.to_act:
                view = state.view(hand)
                action = quick(seed).act(view)
                assert action in view.legal
                assert quick(seed).act(view) == action


def test_without_endplay_the_expert_is_basic_and_says_so_once(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    from engine.whist import players

    monkeypatch.setitem(sys.modules, "endplay", None)
    monkeypatch.setitem(sys.modules, "endplay._dds", None)
    monkeypatch.setattr(players, "_warned", False)
    with caplog.at_level(logging.WARNING, logger=players.__name__):
        first = make_player("expert", 1)
        second = make_player("expert", 2)
    assert first.name == second.name == "basic"
    assert len(caplog.records) == 1 and "endplay" in caplog.records[0].getMessage()
    state = new_game(1)
    hand = state.to_play
    assert hand is not None and first.act(state.view(hand)) in state.legal_actions(hand)


def test_the_simulator_seats_the_expert(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from engine.simulate import main
    from engine.whist import players

    monkeypatch.setitem(players.LEVELS, "expert", lambda seed: ExpertPlayer(seed, samples=1))
    args = ["whist", "--variant", "mort", "--players", "expert,basic,basic", "--games", "1"]
    assert main(args) == 0
    assert "expert" in capsys.readouterr().out


def two_hand_tricks(leader: frozenset[Card], other: frozenset[Card], trump: Suit) -> int:
    """Return the leader's tricks with best play by both (a plain search, small hands)."""
    if not leader:
        return 0
    return max(answer_tricks(leader - {lead}, other, lead, trump) for lead in leader)


def answer_tricks(leader: frozenset[Card], other: frozenset[Card], lead: Card, trump: Suit) -> int:
    """Return the leader's tricks once ``lead`` is on the table and ``other`` answers."""
    follow = [c for c in other if c.suit is lead.suit] or list(other)
    results = []
    for card in follow:
        rest = other - {card}
        wins = card.suit is lead.suit and card.rank > lead.rank
        wins = wins or (card.suit is trump and lead.suit is not trump)
        if wins:
            results.append(len(leader) - two_hand_tricks(rest, leader, trump))
        else:
            results.append(1 + two_hand_tricks(leader, rest, trump))
    return min(results)


def test_two_hand_positions_solve_as_a_plain_search_does() -> None:
    import random

    rng = random.Random(9)
    for n in (1, 2, 3, 4, 4, 4, 5):
        for _ in range(4):
            deck = list(DECK)
            rng.shuffle(deck)
            trump = rng.choice(list(Suit))
            a, b = frozenset(deck[:n]), frozenset(deck[n : 2 * n])
            solved = solve_two_hands(sorted(a), sorted(b), None, trump)
            assert solved == {c: answer_tricks(a - {c}, b, c, trump) for c in a}
            lead = min(a)
            solved = solve_two_hands(sorted(a - {lead}), sorted(b), lead, trump)
            follow = [c for c in b if c.suit is lead.suit] or list(b)
            expected = {}
            for card in follow:
                rest = b - {card}
                wins = card.suit is lead.suit and card.rank > lead.rank
                wins = wins or (card.suit is trump and lead.suit is not trump)
                if wins:
                    expected[card] = 1 + two_hand_tricks(rest, a - {lead}, trump)
                else:
                    expected[card] = n - 1 - two_hand_tricks(a - {lead}, rest, trump)
            assert solved == expected, (sorted(a), sorted(b), lead, trump)
