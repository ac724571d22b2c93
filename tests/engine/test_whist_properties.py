"""Whist's properties over many random units of play of every variant: the generic
conformance checks for each variant and option, cards conserved, 13 tricks a deal, rubbers
2–0 or 2–1, zero-sum settlements, scores that follow the scoring rules, refusals that change
nothing, and views that show nothing hidden."""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

import pytest

from engine.cards import DECK, Card, Suit
from engine.errors import EngineError
from engine.whist import (
    ACCEPT,
    EXCHANGE,
    GAME,
    KEEP,
    REJECT,
    TRICKS,
    Action,
    Kind,
    Phase,
    WhistOptions,
    WhistState,
    claim,
    declare,
    new_game,
    play,
    replay,
    scoring,
)
from tests.engine import test_conformance as conformance
from tests.engine.whist_helpers import ALL_OPTIONS, option_id, play_randomly, random_game

EVERY_ACTION: list[Action] = [
    *(play(c) for c in DECK),
    *(declare(s) for s in Suit),
    KEEP,
    EXCHANGE,
    *(claim(k) for k in range(1, 14)),
    ACCEPT,
    REJECT,
]


class Variant:
    """Whist with fixed options, as a ``Game`` for the conformance checks."""

    def __init__(self, options: WhistOptions) -> None:
        self.options = options
        self.name = option_id(options)

    def __getattr__(self, name: str) -> Any:
        return getattr(GAME, name)

    def new_game(self, seed: int, options: Any = None) -> WhistState:
        return GAME.new_game(seed, options if options is not None else self.options)


@pytest.fixture(params=ALL_OPTIONS, ids=option_id)
def variant(request: pytest.FixtureRequest) -> Variant:
    return Variant(request.param)


def test_conformance_random_games_keep_the_protocol(variant: Variant) -> None:
    conformance.test_random_games_keep_the_protocol(variant)  # type: ignore[arg-type]


# A variant's unit of play is a rubber or a tournée of several (every state of one seeded
# unit is refused three ways): fewer seeded games than a one-deal game gets, the
# whist-specific properties below cover each variant besides.
def test_conformance_refusals_change_nothing(variant: Variant) -> None:
    conformance.test_refusals_name_a_reason_and_change_nothing(variant, range(1))  # type: ignore[arg-type]


def test_conformance_replays(variant: Variant) -> None:
    conformance.test_replays_rebuild_the_state_from_moves_and_from_their_text(variant)  # type: ignore[arg-type]


def test_conformance_no_view_leaks(variant: Variant) -> None:
    if variant.options.open_all:
        state = variant.new_game(1)
        assert all(not GAME.secrets(state, s) for s in range(4)), "all four hands are open"
        return
    conformance.test_no_view_shows_another_seats_secrets(variant, range(4))  # type: ignore[arg-type]


def test_conformance_results_and_clones(variant: Variant) -> None:
    conformance.test_results_are_well_formed(variant)  # type: ignore[arg-type]
    conformance.test_a_clone_is_independent(variant)  # type: ignore[arg-type]


# --------------------------------------------------------------------------------------
# Cards, tricks, rubbers and settlements


@pytest.mark.parametrize("options", ALL_OPTIONS, ids=option_id)
def test_every_card_is_somewhere_once(options: WhistOptions) -> None:
    for seed in range(3):
        state = new_game(seed, options)
        rng = random.Random(seed)
        played: list[Card] = []
        deal = state.deal
        while not state.is_over:
            held = [c for s in range(4) for c in state.hand(s)]
            elsewhere = list(state.unused())
            if options.variant == "two_hand":
                assert state.turnup is not None
                elsewhere.append(state.turnup)
            cards = held + played + elsewhere
            assert Counter(cards) == Counter(DECK), "52 cards, each once"
            assert [c for _, c in state.trick] == played[len(played) - len(state.trick) :]
            counts = {len(state.hand(s)) for s in range(4) if state.controller(s) is not None}
            if options.variant in ("humbug", "two_hand"):
                assert len(state.hand(1)) + len(state.hand(3)) == (
                    26 if options.variant == "humbug" else 0
                )
            assert max(counts) - min(counts) <= 1
            seat = rng.choice(state.to_act)
            action = rng.choice(state.legal_actions(seat))
            if action.kind == Kind.CLAIM:
                continue  # claims are tested elsewhere: keep every deal to its 13 tricks
            state.apply(seat, action)
            if state.deal != deal:
                played, deal = [], state.deal
            elif action.kind == Kind.PLAY:
                assert action.card is not None
                played.append(action.card)


@pytest.mark.parametrize("options", ALL_OPTIONS, ids=option_id)
def test_deals_rubbers_and_settlements(options: WhistOptions) -> None:
    mort = options.variant == "mort"
    for seed in range(15):
        state = random_game(options, seed)
        results = state.results
        assert [r.deal for r in results] == list(range(1, len(results) + 1))
        score = (0, 0)
        slams = [0, 0]
        games_in_rubber: list[int] = []
        values: list[list[int]] = [[], []]
        totals = (0,) * state.players
        rubbers = 0
        for r in results:
            assert sum(r.tricks) == TRICKS, "13 tricks a deal (a claim included)"
            assert r.score == (score[0] + r.points[0], score[1] + r.points[1])
            if r.slam != (0, 0):
                assert mort and max(r.tricks) == TRICKS and r.points == (0, 0)
                slams = [slams[0] + r.slam[0], slams[1] + r.slam[1]]
            else:
                tricks = (
                    scoring.odd_trick_points(r.tricks)
                    if options.variant == "two_hand"
                    else scoring.trick_points(r.tricks)
                )
                honours = {
                    "humbug": scoring.humbug_honour_points,
                    "two_hand": lambda h: None,
                }.get(options.variant, scoring.short_honour_points)(r.honours)
                expect = scoring.deal_points(score, tricks, honours, keep_excess=mort)
                assert (r.points, r.score) == (expect.points, expect.score)
            won = max(r.score) >= scoring.GAME
            assert (r.game_winner is not None) == won
            if not won:
                assert r.totals == totals and r.rubber_value is None
                score = r.score
                continue
            winner = r.game_winner
            assert winner is not None and r.game_value is not None
            loser = 1 if winner == 0 else 0
            if mort:
                assert r.game_value == scoring.mort_game_value(
                    r.score[winner], r.score[loser], slams[winner], slams[loser]
                )
                assert r.rubber is None and r.rubber_winner is None
                slams = [0, 0]
            else:
                assert not mort and max(r.score) == scoring.GAME, "excess dropped"
                assert r.game_value == scoring.game_bonus(r.score[loser])
                games_in_rubber.append(winner)
                values[winner].append(r.game_value)
                if games_in_rubber.count(winner) == 2:
                    assert len(games_in_rubber) in (2, 3), "a rubber ends 2–0 or 2–1"
                    assert r.rubber_winner == winner
                    assert r.rubber_value == scoring.rubber_value(values[winner], values[loser])
                    assert 1 <= r.rubber_value <= 8
                    rubbers += 1
                    games_in_rubber, values = [], [[], []]
                else:
                    assert r.rubber_winner is None and r.totals == totals
            delta = [t - u for t, u in zip(r.totals, totals, strict=True)]
            if r.rubber_winner is not None or mort:
                assert sum(delta) == 0, "a settlement is zero-sum"
            totals = r.totals
            score = (0, 0)
        assert state.totals == totals and sum(state.totals) == 0
        rounds = state.result().rounds
        assert all(sum(r[i] for r in rounds) == 0 for i in range(len(rounds[0])))
        assert tuple(sum(r) for r in rounds) == state.totals
        if mort:
            assert len(rounds[0]) == state.players
        else:
            expected = 1
            if options.variant == "english_dummy":
                expected = options.rubbers if options.fixed_dummy else 3
            assert rubbers == expected == len(rounds[0])
        top = max(state.totals)
        assert state.winners == tuple(p for p in range(state.players) if state.totals[p] == top)


def test_the_decision_point_rises_at_every_new_decision() -> None:
    for options in ALL_OPTIONS:
        state = new_game(5, options)
        rng = random.Random(5)
        while not state.is_over:
            before = state.turn
            seat = rng.choice(state.to_act)
            waiting = state.to_act
            state.apply(seat, rng.choice(state.legal_actions(seat)))
            if state.phase is Phase.EXCHANGE and len(waiting) == 2:
                assert state.turn == before, "the other Humbug player still chooses"
            else:
                assert state.turn == before + 1


@pytest.mark.parametrize("options", ALL_OPTIONS, ids=option_id)
def test_illegal_actions_change_nothing(options: WhistOptions) -> None:
    state = new_game(2, options)
    rng = random.Random(2)
    for step in range(400):
        if state.is_over:
            break
        if step % 7 == 0:
            before = conformance.snapshot(state)
            full = (
                tuple(state.hand(s) for s in range(4)),
                state.results,
                state.score,
                state.tricks,
                state.phase,
            )
            for seat in range(4):
                legal = set(state.legal_actions(seat))
                for action in EVERY_ACTION:
                    if action in legal:
                        continue
                    with pytest.raises(EngineError) as caught:
                        state.apply(seat, action)
                    assert caught.value.reason
            assert conformance.snapshot(state) == before
            assert full == (
                tuple(state.hand(s) for s in range(4)),
                state.results,
                state.score,
                state.tricks,
                state.phase,
            )
        play_randomly(state, rng, 1)


@pytest.mark.parametrize("options", ALL_OPTIONS, ids=option_id)
def test_replay_and_notation_round_trip(options: WhistOptions) -> None:
    state = random_game(options, 21)
    texts = [str(m) for m in state.moves]
    assert [GAME.parse_move(t) for t in texts] == list(state.moves)
    again = replay(21, options, texts)
    assert again.results == state.results and again.totals == state.totals
    assert again.moves == state.moves and again.turn == state.turn
    for seat in range(4):
        for action in again.legal_actions(seat):
            assert GAME.parse_action(str(action)) is action


@pytest.mark.parametrize("options", ALL_OPTIONS, ids=option_id)
def test_views_hold_only_what_their_player_may_see(options: WhistOptions) -> None:
    for seed in range(3):
        state = new_game(seed, options)
        rng = random.Random(seed)
        while not state.is_over:
            public = state.public_view()
            _check_hidden(state, None, public.to_dict())
            for seat in range(4):
                view = state.view(seat)
                assert view.legal == state.legal_actions(seat)
                owner = state.controller(seat)
                _check_hidden(state, owner, view.to_dict())
            play_randomly(state, rng, 1)


def _check_hidden(state: WhistState, owner: int | None, data: dict[str, Any]) -> None:
    """Assert the view's data shows no card its viewer (the player at ``owner``) may not see."""
    options = state.options
    may: set[Card] = set()
    if owner is not None:
        may.update(c for s in range(4) if state.controller(s) == owner for c in state.hand(s))
        may.update(state.discarded(owner) or ())
    if options.variant in ("english_dummy", "mort") and (
        options.dummy_shown == "on_deal" or state.completed or state.trick
    ):
        may.update(state.hand(0))
    if options.variant == "double_dummy":
        may.update(state.hand(0))
        may.update(state.hand(1))
        if options.open_all:
            may.update(c for s in range(4) for c in state.hand(s))
    if data["turnup"] is not None:
        assert state.turnup is not None and data["turnup"] == state.turnup.code
        may.add(state.turnup)
        assert options.variant == "two_hand" or (
            state.completed == 0 and state.dealer not in [s for s, _ in state.trick]
        )
    text = json.dumps(data)
    for s in range(4):
        for c in state.hand(s):
            if c not in may:
                assert f'"{c.code}"' not in text, (owner, s, c)
    for c in state.unused():
        assert f'"{c.code}"' not in text
