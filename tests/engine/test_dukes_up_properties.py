"""Dukes Up! under seeded random play: every match ends; the 52 cards are conserved; tables
are valid whenever a turn ends; scores are what the rules compute; no view shows a card its
seat may not know; replays rebuild matches."""

from __future__ import annotations

import dataclasses
import random

from engine.dukes_up import DukesUpOptions, DukesUpState, Kind, Phase, new_game, replay
from engine.dukes_up.layout import colour, is_valid_layout
from engine.dukes_up.players import make_player
from tests.engine.dukes_helpers import all_cards, allowed_codes, shown_codes, snapshot

OPTIONS = [
    DukesUpOptions(),
    DukesUpOptions(rounds=2, slot_weight=2, discard_memory="open", max_turns=60),
    DukesUpOptions(match_scoring="wins", rounds=2, arrangement_help="check-only", max_turns=40),
]


def expected_score(state: DukesUpState) -> tuple[int, int]:
    """The rules' score, worked out here: own-colour cards on the table plus slot_weight per
    card left in one's own slots."""
    board = state.board()
    table = [x for g in board.table for x in g]
    score = [sum(colour(x) == s for x in table) for s in (0, 1)]
    for s in (0, 1):
        castle = state.castle(s)[0]
        slots = len(board.dukes[s]) + (castle is not None and castle not in table)
        score[s] += state.options.slot_weight * slots
    return (score[0], score[1])


def play(seed: int, options: DukesUpOptions, check_views: bool = False) -> DukesUpState:
    rng = random.Random(seed)
    state = new_game(seed, options)
    steps = 0
    while not state.is_over:
        steps += 1
        assert steps < 20_000, "every match ends"
        seat = rng.choice(state.to_act)
        action = rng.choice(state.legal_actions(seat))
        if rng.random() < 0.002:
            other = 1 - seat
            if state.phase is Phase.TURN and not state.view(other).agreed[other]:
                seat, action = (
                    other,
                    next(a for a in state.legal_actions(other) if a.kind is Kind.END_ROUND),
                )
        ending = action.kind in (Kind.DISCARD, Kind.FINISH, Kind.END_ROUND)
        rounds = len(state.results)
        expected = expected_score(state)
        last_round = None
        if ending:
            # the same step where this round is the last, so its board stays to be scored here
            last_round = state.clone()
            last_round._options = dataclasses.replace(state.options, rounds=state.round)
        state.apply(seat, action)
        if len(state.results) > rounds:
            result = state.results[-1]
            if result.end == "agreement":
                assert result.scores == expected, "agreement scores the committed state"
            else:
                assert last_round is not None
                last_round.apply(seat, action)
                assert result.scores == expected_score(last_round), "the rules' score"
        if state.phase is Phase.TURN and not state.drawn and ending:
            assert is_valid_layout(state.board().table), "the table is valid at a turn's end"
        if state.phase is not Phase.OVER or not state.results:
            cards = all_cards(state)
            assert sorted(cards) == sorted(set(cards)) and len(cards) == 52, "52 cards"
        if state.phase is Phase.TURN:
            working = all_cards(state, working=True)
            assert len(working) == 52 and len(set(working)) == 52
            board = state.board(working=True)
            assert all(len(h) <= 6 for h in board.hands)
        if check_views:
            for viewer in (0, 1, None):
                view = state.public_view() if viewer is None else state.view(viewer)
                extra = shown_codes(view.to_dict()) - allowed_codes(state, viewer)
                assert not extra, (viewer, extra, str(action))
                if viewer is not None and state.phase is Phase.TURN and view.mover != viewer:
                    assert view.table == state.board().table, "no working copy"
    return state


def test_hundreds_of_random_matches_end_and_keep_the_invariants() -> None:
    ends: dict[str, int] = {}
    for seed in range(150):
        state = play(seed, OPTIONS[seed % len(OPTIONS)])
        assert state.is_over and state.to_act == ()
        for r in state.results:
            ends[r.end] = ends.get(r.end, 0) + 1
        totals = state.totals
        if state.options.match_scoring == "cumulative":
            assert totals == tuple(sum(r.scores[s] for r in state.results) for s in (0, 1))
        else:
            assert totals == tuple(sum(r.winner == s for r in state.results) for s in (0, 1))
        best = max(totals)
        assert state.winners == tuple(s for s in (0, 1) if totals[s] == best)
    assert {"capture", "turn-limit"} <= set(ends), ends


def test_final_scores_are_the_rules_scores() -> None:
    for seed in range(30):
        state = play(1000 + seed, OPTIONS[0])
        assert state.results[-1].scores == expected_score(state)
        assert state.result().scores == state.totals


def test_no_view_shows_a_card_its_seat_may_not_know() -> None:
    for seed in range(12):
        play(2000 + seed, OPTIONS[seed % len(OPTIONS)], check_views=True)


def test_no_view_leaks_in_matches_between_computer_players() -> None:
    for seed in range(4):
        state = new_game(seed, OPTIONS[1])
        players = [make_player("baseline", seed), make_player("random", seed + 1)]
        while not state.is_over:
            seat = state.to_act[0]
            state.apply(seat, players[seat].act(state.view(seat)))
            for viewer in (0, 1, None):
                view = state.public_view() if viewer is None else state.view(viewer)
                assert not shown_codes(view.to_dict()) - allowed_codes(state, viewer)


def test_replays_rebuild_random_matches() -> None:
    for seed in range(6):
        state = play(3000 + seed, OPTIONS[seed % len(OPTIONS)])
        moves = [str(m) for m in state.moves]
        assert snapshot(replay(state.seed, state.options, moves)) == snapshot(state)
