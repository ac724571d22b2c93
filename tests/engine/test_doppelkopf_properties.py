"""Properties of random Doppelkopf tables in every preset and size (the conformance suite
plays the default tournament table): 48 cards in play at every moment, 240 card points and a
zero sum in every game, replays, notation that round-trips, refusals that change nothing,
and views that leak nothing — parties, reservations, silent marriages and poverty cards
included."""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Iterator
from typing import Any

import pytest

from engine.doppelkopf import DoppelkopfOptions, DoppelkopfState, Move, new_game, replay
from engine.doppelkopf.game import GAME
from engine.doppelkopf.orders import POINTS, double_pack
from engine.errors import EngineError
from tests.engine.test_conformance import leaves, snapshot

OPTIONS = {
    "tournament": DoppelkopfOptions(),
    "tournament-required": DoppelkopfOptions(required_solos=True, games=8),
    "house": DoppelkopfOptions(preset="house"),
    "house-5": DoppelkopfOptions(preset="house", players=5),
}


def played(options: DoppelkopfOptions, seed: int) -> Iterator[tuple[DoppelkopfState, int, Any]]:
    """A seeded random table, announcements and claims by any seat included; yields
    ``(state, seat, action)`` before each move and ``(state, -1, None)`` at the end."""
    rng = random.Random(seed)
    state = new_game(seed, options)
    while not state.is_over:
        seat = state.to_act[0]
        if rng.random() < 0.1:
            other = rng.randrange(state.players)
            optional = [a for a in state.legal_actions(other) if a.card is None]
            if optional and state.phase == "play":
                seat = other
        actions = state.legal_actions(seat)
        action = rng.choice(actions)
        yield state, seat, action
        state.apply(seat, action)
    yield state, -1, None


@pytest.fixture(params=sorted(OPTIONS))
def options(request: pytest.FixtureRequest) -> DoppelkopfOptions:
    return OPTIONS[request.param]


def test_cards_points_and_sums(options: DoppelkopfOptions) -> None:
    games = 0
    for seed in range(8):
        for state, _, _ in played(options, seed):
            if state.phase == "play" and not state.is_over:
                in_hands = sum(len(state.hand(s)) for s in range(state.players))
                trick = state._trick
                on_table = len(trick.plays) if trick else 0
                won = 4 * len(state._tricks)
                assert in_hands + on_table + won == 48
                if state.sitting_out is not None:
                    assert state.hand(state.sitting_out) == ()
        final = state
        for result in final.game_results:
            assert sum(result.points) == 240
            assert sum(result.scores) == 0
            assert set(result.re) | set(result.contra) == set(
                range(4 if options.players == 4 else 5)
            ) - ({result.dealer} if options.players == 5 else set())
            games += 1
        assert len(final.played_games) == len(final.game_results)
        for played_game, result in zip(final.played_games, final.game_results, strict=True):
            dealt = sorted(c for hand in played_game.hands for c in hand)
            assert dealt == sorted(double_pack())
            for plays, winner in played_game.tricks:
                assert len(plays) == 4 and winner in {s for s, _ in plays}
                for seat, card in plays:
                    assert card in played_game.hands[seat]
            taken = {"re": 0, "contra": 0}
            for plays, winner in played_game.tricks:
                party = "re" if winner in result.re else "contra"
                taken[party] += sum(POINTS[c] for _, c in plays)
            if len(played_game.tricks) == 12:  # not ended by a claim or concession
                assert (taken["re"], taken["contra"]) == result.points
        assert sum(final.totals) == 0
        assert final.totals == tuple(
            sum(r.scores[s] for r in final.game_results) for s in range(final.players)
        )
    assert games >= 8


def test_replay_and_notation(options: DoppelkopfOptions) -> None:
    for seed in range(4):
        final = [s for s, _, _ in played(options, seed)][-1]
        for move in final.moves:
            assert Move.parse(str(move)) == move
        again = replay(seed, options, [str(m) for m in final.moves])
        assert again.totals == final.totals and again.game_results == final.game_results
        assert again.deal == final.deal and again.dealer == final.dealer


def test_refusals_change_nothing(options: DoppelkopfOptions) -> None:
    rng = random.Random(7)
    for state, _, _ in played(options, 3):
        if state.is_over or rng.random() > 0.2:
            continue
        before = json.dumps([state.view(s).to_dict() for s in range(state.players)], sort_keys=True)
        moves = state.moves
        for seat in range(state.players):
            legal = {str(a) for a in state.legal_actions(seat)}
            for text in ("QC", "re", "healthy", "withdraw", "accept", "solo:queens", "claim"):
                if text in legal:
                    continue
                with pytest.raises(EngineError):
                    state.apply(seat, GAME.parse_action(text))
        after = json.dumps([state.view(s).to_dict() for s in range(state.players)], sort_keys=True)
        assert after == before and state.moves == moves


def test_views_leak_nothing(options: DoppelkopfOptions) -> None:
    kinds: set[str] = set()
    for seed in range(4):
        for state, _, _ in played(options, seed):
            public = leaves(state.public_view().to_dict())
            shown = [leaves(state.view(other).to_dict()) for other in range(state.players)]
            for seat in range(state.players):
                secrets = GAME.secrets(state, seat)
                for token in secrets:
                    kinds.add(token.split(":")[-1] if ":" in token else "card")
                assert not secrets & public, (seat, secrets & public)
                for other in range(state.players):
                    if other != seat:
                        leaked = secrets & shown[other]
                        assert not leaked, (seat, other, leaked)
    assert "card" in kinds, kinds


def test_parties_stay_secret_until_a_club_queen_or_an_announcement_shows_them() -> None:
    seen = 0
    for seed in range(40):
        state = new_game(seed)
        for seat in state.in_play:
            state.apply(seat, GAME.parse_action("healthy"))
        if state.game != "normal":
            continue
        seen += 1
        for seat in state.in_play:
            token = f"{seat}:{state.party(seat)}"
            assert token in GAME.secrets(state, seat)
            assert token in state.view(seat).to_dict()["parties"]
            for other in state.in_play:
                if other != seat:
                    assert token not in state.view(other).to_dict()["parties"]
        # The first ♣Q played shows its player's party to everyone.
        while True:
            seat = state.to_act[0]
            legal = [a for a in state.legal_actions(seat) if a.card is not None]
            queen = [a for a in legal if str(a) == "QC"]
            state.apply(seat, (queen or legal)[0])
            if queen:
                break
        assert f"{seat}:re" in state.public_view().to_dict()["parties"]
        assert f"{seat}:re" not in GAME.secrets(state, seat)
    assert seen >= 10


def test_a_clone_plays_on_like_a_deep_copy_and_leaves_the_original(
    options: DoppelkopfOptions,
) -> None:
    """``clone`` copies the mutable parts and shares what never changes: a clone taken at
    any moment and played to the end of the table ends exactly as a deep copy does, and the
    original stays as it was."""
    moves = [(seat, action) for _state, seat, action in played(options, 17) if action is not None]
    state = new_game(17, options)
    taken = 0
    for i, (seat, action) in enumerate(moves):
        if i % 7 == 0:
            before = snapshot(state)
            clone, deep = state.clone(), copy.deepcopy(state)
            for later_seat, later in moves[i:]:
                clone.apply(later_seat, later)
                deep.apply(later_seat, later)
            assert snapshot(clone) == snapshot(deep)
            assert clone.is_over and clone.result() == deep.result()
            assert clone.played_games == deep.played_games
            assert clone.game_results == deep.game_results
            assert snapshot(state) == before
            taken += 1
        state.apply(seat, action)
    assert taken > 3
