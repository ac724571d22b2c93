"""The whist ``expert`` watches every card (``Game.watching_levels``): shown its view after
each move, it knows every card played, also those played after its own turn when it does
not lead the next trick; what it is shown holds nothing another seat hides; and its choices
for a seed depend on the position only, never on a clock."""

from __future__ import annotations

import itertools
import random
import time
from collections.abc import Iterator
from typing import Any

import pytest

from engine.cards import DECK, Card
from engine.game import deciding_player, show_move, watchers
from engine.simulate import simulate
from engine.whist import GAME, WhistOptions, WhistState, WhistView, new_game
from engine.whist.actions import Action
from engine.whist.players import expert as expert_module
from engine.whist.players import make_player
from engine.whist.players.expert import ExpertPlayer
from tests.engine.whist_helpers import play_randomly

pytest.importorskip("endplay")

SOUTH = 2


def quick(seed: int) -> ExpertPlayer:
    """Return an expert that solves few samples (these tests check knowledge, not
    strength)."""
    return ExpertPlayer(seed, samples=2)


def gone(state: WhistState) -> set[Card]:
    """Return the cards of the deal in progress that no hand holds any more: those played."""
    held = {card for seat in range(4) for card in state.hand(seat)}
    return set(DECK) - held


def south_decisions(seed: int, *, watching: bool) -> Iterator[tuple[WhistState, ExpertPlayer]]:
    """Yield each position of short whist's first deal where S's expert is to play, before
    it plays (basic players elsewhere); with ``watching`` the expert was shown every move."""
    state = new_game(seed, WhistOptions())
    expert = quick(seed)
    others = {p: make_player("basic", seed * 4 + p) for p in range(4) if p != SOUTH}
    shown = watchers(GAME, {SOUTH: expert}) if watching else {}
    while state.deal == 1 and not state.is_over:
        hand = state.to_play
        assert hand is not None
        if hand == SOUTH:
            yield state, expert
            action = expert.act(state.view(hand))
        else:
            action = others[hand].act(state.view(hand))
        state.apply(hand, action)
        show_move(state, shown)


def test_the_expert_is_a_watching_level() -> None:
    assert GAME.watching_levels == {"expert"}
    assert set(watchers(GAME, {0: quick(1), 1: make_player("basic", 1)})) == {0}


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_watching_expert_knows_every_card_played(seed: int) -> None:
    """Shown every move, the expert's played cards are exactly the cards gone from the
    hands at each of its decisions (and its sampler deals no card as played unseen); shown
    views only at its own turns, it misses some."""
    missed = 0
    for state, expert in south_decisions(seed, watching=True):
        view = state.view(SOUTH)
        expert.observe(view)
        assert set(expert._memory.played) == gone(state)
        knowledge = expert_module._knowledge(view, expert._memory)
        assert knowledge is not None
        assert all(kind != "gone" for kind, _ in knowledge.buckets)
    for state, expert in south_decisions(seed, watching=False):
        expert.observe(state.view(SOUTH))
        assert set(expert._memory.played) <= gone(state)
        missed += len(gone(state) - set(expert._memory.played))
    assert missed, "without watching, cards played after its turn go unseen"


def test_every_sampled_deal_holds_only_unplayed_cards() -> None:
    for state, expert in south_decisions(4, watching=True):
        if state.completed < 3:
            continue
        view = state.view(SOUTH)
        for world in expert.worlds(view, 4):
            dealt = {card for hand in world for card in hand}
            assert not dealt & gone(state)
            assert all(len(world[s]) == view.counts[s] for s in range(4))


def leaves(data: Any) -> set[str]:
    """Return every string in plain JSON-ready data."""
    if isinstance(data, str):
        return {data}
    if isinstance(data, dict):
        return set().union(*(leaves(v) for v in data.values())) if data else set()
    if isinstance(data, list | tuple):
        return set().union(*(leaves(v) for v in data)) if data else set()
    return set()


class Spy:
    """An expert that records each view it is shown between its decisions."""

    name = "expert"

    def __init__(self, seed: int) -> None:
        self.player = quick(seed)
        self.shown: list[WhistView] = []

    def observe(self, view: WhistView) -> None:
        self.shown.append(view)
        self.player.observe(view)

    def act(self, view: WhistView) -> Action:
        return self.player.act(view)


LEAK_VARIANTS = [
    WhistOptions(variant="short"),
    WhistOptions(variant="humbug"),
    WhistOptions(variant="mort", players=3),
    WhistOptions(variant="english_dummy", dummy_shown="after_opening_lead"),
    WhistOptions(variant="two_hand"),
]


@pytest.mark.parametrize("options", LEAK_VARIANTS, ids=lambda o: o.variant)
def test_what_a_watching_player_is_shown_holds_no_other_seats_hidden_card(
    options: WhistOptions,
) -> None:
    """After every move (random play), each watching player is shown one view, of its own
    seat, naming no card that only another player may see then."""
    rng = random.Random(7)
    state = new_game(7, options)
    spies = {p: Spy(p) for p in range(state.players)}
    shown = watchers(GAME, spies)
    assert shown == spies
    checked = 0
    while state.deal <= 2 and not state.is_over:
        play_randomly(state, rng, 1)
        before = {p: len(spy.shown) for p, spy in spies.items()}
        show_move(state, shown)
        for p, spy in spies.items():
            assert len(spy.shown) == before[p] + 1
            view = spy.shown[-1]
            assert view.player in (p, None)
            seen = leaves(view.to_dict())
            for seat in range(state.seats):
                if deciding_player(state, seat) == p:
                    continue
                leaked = state.secrets(seat) & seen
                assert not leaked, (options.variant, p, seat, leaked)
                checked += bool(state.secrets(seat))
    assert checked


def test_the_simulator_shows_a_watching_player_every_move(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from engine.whist import players

    made: list[Spy] = []

    def spy(seed: int) -> Spy:
        made.append(Spy(seed))
        return made[-1]

    monkeypatch.setitem(players.LEVELS, "expert", spy)
    simulate(["expert", "basic", "basic", "basic"], 1, seed=3, game="whist", timing=False)
    (watcher,) = made
    assert len(watcher.shown) >= 52, "one view after every card of the first deal at least"
    assert all(view.seat == 0 for view in watcher.shown), "its own seat's views only"


def jumping_clocks(monkeypatch: pytest.MonkeyPatch) -> None:
    """Make every clock the time module offers jump an hour at each reading."""
    ticks = itertools.count()
    for name in ("perf_counter", "monotonic", "time", "process_time"):
        monkeypatch.setattr(time, name, lambda: 3600.0 * next(ticks))
    for name in ("perf_counter_ns", "monotonic_ns", "time_ns", "process_time_ns"):
        monkeypatch.setattr(time, name, lambda: 3_600_000_000_000 * next(ticks))


def expert_choices(seed: int) -> list[Action]:
    """Return the default expert's actions at S over short whist's first deal (watching)."""
    state = new_game(seed, WhistOptions())
    expert = ExpertPlayer(seed)
    others = {p: make_player("basic", seed * 4 + p) for p in range(4) if p != SOUTH}
    chosen = []
    while state.deal == 1:
        hand = state.to_play
        assert hand is not None
        if hand == SOUTH:
            action = expert.act(state.view(hand))
            chosen.append(action)
        else:
            action = others[hand].act(state.view(hand))
        state.apply(hand, action)
        show_move(state, {SOUTH: expert})
    return chosen


def test_a_seed_gives_the_same_play_whatever_the_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    """The expert samples a number of deals fixed by the position (its ``effort``), never
    by a clock: with every clock jumping an hour a reading, it plays the same cards, and
    solves as many deals, as with the real clocks."""
    calls: list[int] = []
    real = expert_module.solve_position

    def counting(*args: Any, **kwargs: Any) -> dict[Card, int]:
        calls.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(expert_module, "solve_position", counting)
    steady = expert_choices(5)
    steady_solves = len(calls)
    calls.clear()
    jumping_clocks(monkeypatch)
    assert expert_choices(5) == steady
    assert len(calls) == steady_solves > 0


def test_the_sample_count_depends_on_the_position_only() -> None:
    expert = ExpertPlayer(1)
    view = new_game(1).view(0)
    assert expert.sample_count(view) == 1, "13 cards a hand: one solve is all it affords"
    small = view._replace(counts=(4, 4, 4, 4))
    assert expert.sample_count(small) == expert.samples
    assert ExpertPlayer(1, effort=10.0).sample_count(view._replace(counts=(10,) * 4)) == 2


class BasicSpy(Spy):
    """A ``basic`` player in the expert's place (cheap), recording what it is shown."""

    def __init__(self, seed: int) -> None:
        self.player = make_player("basic", seed)  # type: ignore[assignment]
        self.shown = []


def test_the_text_table_shows_a_watching_player_every_move(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from engine.whist import players
    from tests.engine.terminal_helpers import play

    made: list[BasicSpy] = []

    def spy(seed: int) -> BasicSpy:
        made.append(BasicSpy(seed))
        return made[-1]

    monkeypatch.setitem(players.LEVELS, "expert", spy)
    code, text = play(
        ["whist", "--seed", "5", "--seat", "N", "--level", "expert"],
        [],
        lambda screen: "2" if "Accept the claim" in screen else "1",
        20000,
    )
    assert code == 0, text[-2000:]
    assert len(made) == 3
    for watcher in made:
        assert len(watcher.shown) >= 52, "a view after every card"
        assert len({view.player for view in watcher.shown}) == 1, "its own views only"
