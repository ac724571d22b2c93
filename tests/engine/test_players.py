"""Computer players: legal, deterministic, view-only; greedy's rule; the expert mid-game."""

from __future__ import annotations

import gc
import random
from collections.abc import Iterator
from typing import Literal

import pytest

from engine.cards import DECK, Card, Rank
from engine.dupe import (
    DEALS,
    SEATS,
    TRICKS,
    Action,
    Distribute,
    DupeState,
    DupeView,
    Phase,
    Play,
    score_hand,
)
from engine.dupe.players import LEVELS, Player, make_player
from engine.dupe.players.expert import ExpertPlayer, _Pile
from engine.dupe.players.greedy import GreedyPlayer
from tests.engine.helpers import new_game

Memory = Literal["strict", "open"]


def _play_game(
    levels: list[str], seed: int, memory: Memory = "strict"
) -> tuple[DupeState, list[Player]]:
    """Play one full game, checking that every action is one of the view's legal actions."""
    state = new_game(seed, memory)
    players = [make_player(levels[seat], seed * 4 + seat) for seat in SEATS]
    while not state.is_over:
        for seat in state.to_act:
            view = state.view(seat)
            action = players[seat].act(view)
            assert action in view.legal_actions(), (levels[seat], view.phase, action)
            state.apply(seat, action)
    return state, players


def _advance(state: DupeState, players: list[Player], moves: int) -> None:
    """Let the players make ``moves`` more moves (or fewer, if the game ends)."""
    for _ in range(moves):
        if state.is_over:
            return
        seat = state.to_act[0]
        state.apply(seat, players[seat].act(state.view(seat)))


# --------------------------------------------------------------------------------------
# Every level


@pytest.mark.parametrize("level", list(LEVELS))
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_every_level_plays_only_legal_actions(level: str, seed: int) -> None:
    state, _ = _play_game([level] * 4, seed)
    assert state.is_over
    assert len(state.results) == DEALS


@pytest.mark.parametrize("level", list(LEVELS))
def test_every_level_is_legal_against_the_others_and_in_open_memory(level: str) -> None:
    others = [name for name in LEVELS if name != level]
    for seed in (3, 4):
        levels = [level, *random.Random(seed).choices(others, k=3)]
        state, _ = _play_game(levels, seed, memory="open")
        assert state.is_over


@pytest.mark.parametrize("level", list(LEVELS))
def test_players_are_deterministic_for_a_seed(level: str) -> None:
    first, _ = _play_game([level, "random", level, "greedy"], 11)
    second, _ = _play_game([level, "random", level, "greedy"], 11)
    assert first.moves == second.moves
    assert first.totals == second.totals


def test_different_seeds_give_different_random_games() -> None:
    first, _ = _play_game(["random"] * 4, 5)
    state = new_game(5)
    players = [make_player("random", 1000 + seat) for seat in SEATS]
    while not state.is_over:
        for seat in state.to_act:
            state.apply(seat, players[seat].act(state.view(seat)))
    assert first.moves != state.moves


def test_unknown_level_is_refused_with_the_choices() -> None:
    with pytest.raises(ValueError, match="expert"):
        make_player("grandmaster", 1)


# --------------------------------------------------------------------------------------
# Players see views, never the state


class _Spy:
    """Wraps a player; checks that each argument is a plain view of its own seat."""

    def __init__(self, inner: Player, seat: int, state: DupeState) -> None:
        self.name = inner.name
        self.inner = inner
        self.seat = seat
        self.state = state

    def act(self, view: DupeView) -> Action:
        assert type(view) is DupeView
        assert not any(isinstance(field, DupeState) for field in view)
        assert view.seat == self.seat
        assert view.hand == self.state.hand(self.seat)
        if view.memory == "strict":
            assert view.won is None
        return self.inner.act(view)


def _reaches_state(root: object) -> bool:
    """Return whether a DupeState can be reached from ``root`` through object references
    (skipping classes, modules and functions, which every object reaches)."""
    skip = (type, type(gc), type(_reaches_state), type(len))
    seen = {id(root)}
    todo = [root]
    while todo:
        obj = todo.pop()
        if isinstance(obj, DupeState):
            return True
        for ref in gc.get_referents(obj):
            if id(ref) not in seen and not isinstance(ref, skip):
                seen.add(id(ref))
                todo.append(ref)
    return False


@pytest.mark.parametrize("memory", ["strict", "open"])
def test_players_are_only_given_their_seats_view_and_keep_no_state(memory: Memory) -> None:
    state = new_game(21, memory)
    levels = list(LEVELS)
    inner = [make_player(levels[seat % len(levels)], seat) for seat in SEATS]
    spies = [_Spy(player, seat, state) for seat, player in enumerate(inner)]
    while not state.is_over:
        for seat in state.to_act:
            state.apply(seat, spies[seat].act(state.view(seat)))
    assert _reaches_state([{"table": state}])  # the check can find a state
    for player in inner:
        assert not _reaches_state(player)


# --------------------------------------------------------------------------------------
# Greedy


def _greedy_distributions(seed: int) -> Iterator[tuple[tuple[Card, ...], Card, Distribute]]:
    """Yield (the dupe's won cards before, the revealed cards, the distribution) for every
    trick a greedy player distributes in a game of four greedy players."""
    state = new_game(seed)
    players = [GreedyPlayer(seed * 4 + seat) for seat in SEATS]
    while not state.is_over:
        for seat in state.to_act:
            action = players[seat].act(state.view(seat))
            if isinstance(action, Distribute):
                dupe = state.dupe(seat)
                yield state.won_cards(dupe), action.cards[dupe], action
            state.apply(seat, action)


def test_greedy_gives_its_dupe_the_card_that_most_raises_its_score() -> None:
    checked = 0
    decisive = 0
    for seed in (1, 2):
        for won, given, action in _greedy_distributions(seed):
            gains = {card: score_hand([*won, card]).total for card in action.cards}
            assert gains[given] == max(gains.values())
            checked += 1
            decisive += len(set(gains.values())) > 1
    assert checked > 50
    assert decisive > 25  # most choices were real choices, not ties


def test_greedy_plays_every_card_of_its_hand_eventually() -> None:
    state = new_game(8)
    players = [GreedyPlayer(seat) for seat in SEATS]
    plays: list[Card] = []
    hand = state.hand(0)
    while state.deal == 1 and not state.is_over:
        for seat in state.to_act:
            action = players[seat].act(state.view(seat))
            if seat == 0 and not isinstance(action, Distribute):
                plays.append(action.card)
            state.apply(seat, action)
    assert sorted(plays) == sorted(hand)


# --------------------------------------------------------------------------------------
# Expert


@pytest.mark.parametrize("memory", ["strict", "open"])
def test_expert_created_fresh_mid_game_acts_legally(memory: Memory) -> None:
    state = new_game(31, memory)
    players: list[Player] = [make_player("greedy", seat) for seat in SEATS]
    checked = set()
    rng = random.Random(31)
    while not state.is_over:
        _advance(state, players, rng.randrange(1, 12))
        if state.is_over:
            break
        seat = state.to_act[0]
        view = state.view(seat)
        # a bot lets a fresh expert make one decision for a human who timed out
        action = ExpertPlayer(rng.randrange(1000)).act(view)
        assert action in view.legal_actions()
        state.apply(seat, action)
        checked.add((state.deal, view.phase))
    assert {phase for _, phase in checked} == {Phase.CHOOSE, Phase.DISTRIBUTE}
    assert {deal for deal, _ in checked} == set(range(1, DEALS + 1))


def test_expert_taking_over_a_seat_for_the_rest_of_the_game_acts_legally() -> None:
    state = new_game(41)
    players: list[Player] = [make_player("greedy", seat) for seat in SEATS]
    _advance(state, players, 3 * 4 * TRICKS // 2)  # part way through deal 2
    assert state.deal >= 2
    players[2] = ExpertPlayer(7)
    while not state.is_over:
        for seat in state.to_act:
            view = state.view(seat)
            action = players[seat].act(view)
            assert action in view.legal_actions()
            state.apply(seat, action)


def test_expert_beats_greedy_players() -> None:
    margin = 0.0
    wins = 0.0
    games = 8
    for game in range(games):
        seat = game % 4
        levels = ["expert" if s == seat else "greedy" for s in SEATS]
        state, _ = _play_game(levels, 100 + game)
        margin += state.totals[seat] - sum(state.totals) / 4
        wins += 1 / len(state.winners) if seat in state.winners else 0.0
    assert margin / games > 20
    assert wins >= games / 2


def test_expert_holds_its_high_cards_back_early_in_the_deal() -> None:
    early_plays = 0
    for seed in range(4):
        state = new_game(70 + seed)
        players: list[Player] = [make_player("greedy", seat) for seat in SEATS]
        players[seed] = ExpertPlayer(seed)
        while state.deal == 1 and state.trick <= 6:
            for seat in state.to_act:
                view = state.view(seat)
                action = players[seat].act(view)
                if seat == seed and isinstance(action, Play):
                    early_plays += 1
                    if min(view.hand).rank <= Rank.EIGHT:
                        assert action.card.rank < Rank.JACK, (view.hand, action)
                state.apply(seat, action)
    assert early_plays == 4 * 6


def test_expert_learns_the_dupes_of_greedy_takers() -> None:
    state = new_game(51)
    players: list[Player] = [make_player("greedy", seat) for seat in SEATS]
    expert = ExpertPlayer(5)
    players[0] = expert
    while state.deal == 1 and state.trick < TRICKS:
        for seat in state.to_act:
            state.apply(seat, players[seat].act(state.view(seat)))
    probabilities = expert._memory.dupe_probabilities()
    right = sum(probabilities[seat][state.dupe(seat)] for seat in (1, 2, 3))
    assert right / 3 > 0.9  # against a prior of 1/3


def test_expert_scores_piles_exactly_as_the_rules_do() -> None:
    rng = random.Random(9)
    for _ in range(2000):
        cards = rng.sample(DECK, rng.randrange(0, 14))
        pile = _Pile()
        for card in cards[:-1]:
            pile.add(card)
        if cards:
            expected = score_hand(cards).total - score_hand(cards[:-1]).total
            assert pile.gain(cards[-1]) == expected
            pile.add(cards[-1])
        assert pile.score == score_hand(cards).total


def test_the_expert_knows_every_hand_from_the_second_deal() -> None:
    state = new_game(61)
    players: list[Player] = [ExpertPlayer(seat) for seat in SEATS]
    expert = players[3]
    assert isinstance(expert, ExpertPlayer)
    while state.deal == 1:
        for seat in state.to_act:
            state.apply(seat, players[seat].act(state.view(seat)))
    state.apply(3, expert.act(state.view(3)))
    # the deal-2 hands are deal 1's won piles, so the expert knows every hand now
    memory = expert._memory
    assert len(memory.tricks) == 0
    assert memory.hands_known and memory.complete
    for seat in SEATS:
        known = memory.hand_of(seat)
        assert known is not None
        if seat != 3:
            assert sorted(known) == sorted(state.hand(seat))


def test_observe_catches_a_fresh_player_up_on_the_whole_deal() -> None:
    """A player fed every view with observe() remembers every won pile of the deal."""
    from engine.dupe import Phase, new_game
    from engine.dupe.players import make_player

    state = new_game(11)
    movers = [make_player("random", 100 + s) for s in range(4)]
    watcher = make_player("greedy", 7)
    seen: set[tuple[int, int]] = set()
    while not (state.deal == 2 and state.trick == 6):
        if state.phase is Phase.CHOOSE and (state.deal, state.trick) not in seen:
            seen.add((state.deal, state.trick))
            watcher.observe(state.view(2))
        seat = state.to_act[0]
        state.apply(seat, movers[seat].act(state.view(seat)))
    watcher.observe(state.view(2))
    memory = watcher._memory  # type: ignore[attr-defined]
    for seat in range(4):
        assert sorted(memory.won[seat]) == list(state.won_cards(seat))
    assert memory.hands_known
    assert sorted(memory.hand_of(0)) == sorted(state.hand(0))
