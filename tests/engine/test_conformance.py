"""One conformance run over every registered game (OpenSpiel's ``random_sim_test``).

Each game of ``engine.games.GAMES``, and the tests' own second game, is played to the end
from seeded random decisions, and at every step the protocol of ``engine/game.py`` must
hold: legal actions sorted and applicable, refusals that name a reason and change nothing,
replays (from move objects and from their text) that rebuild the state, notation that
round-trips, views that show no other seat's secrets, a decision point that never falls,
and a well-formed result.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator, Sequence
from typing import Any

import pytest

from engine import games
from engine.errors import EngineError
from engine.game import Game, GameResult, deciding_player, seat_count
from tests.support.highcard.engine import HIGHCARD

EVERY_GAME: list[Game] = [*games.GAMES, HIGHCARD]
SEEDS = range(12)


class NotAnAction:
    """An object no game accepts as an action."""

    def __str__(self) -> str:
        return "nothing"


def snapshot(state: Any) -> tuple[Any, ...]:
    """Everything observable about a state: moves, every view and the public view."""
    views = tuple(_observed(state.view(s)) for s in _seats(state))
    return tuple(state.moves), views, _observed(state.public_view()), state.turn, state.to_act


def _observed(view: Any) -> Any:
    """Return a view as a snapshot compares it: the view itself when it is immutable all
    through (hashable: nothing the state changes later can change it), else its JSON.
    Comparing the values is as strict as comparing their JSON (which is made from them),
    and the whist and Dupe views of a long unit of play, JSON'd at every step of every
    check, were most of the conformance tests' time."""
    try:
        hash(view)
    except TypeError:
        return json.dumps(view.to_dict(), sort_keys=True)
    return view


def _seats(state: Any) -> range:
    return range(seat_count(state))


def _same_decider(state: Any, seat: int, other: int) -> bool:
    """Whether one player decides for both hands (a dummy and its partner's own hand)."""
    decider = deciding_player(state, seat)
    return decider is not None and decider == deciding_player(state, other)


def leaves(value: Any) -> set[str]:
    """Return every string in a JSON value (whole strings, and the items of lists)."""
    found: set[str] = set()
    pending = [value]
    while pending:  # a walk, not a recursion: the leak scans read every view of every step
        item = pending.pop()
        if isinstance(item, str):
            found.add(item)
        elif isinstance(item, dict):
            pending.extend(item.values())
        elif isinstance(item, list):
            pending.extend(item)
    return found


def played(game: Game, seed: int) -> Iterator[tuple[Any, int, Any]]:
    """Play a seeded random game; yield ``(state, seat, action)`` before each move."""
    rng = random.Random(seed)
    state = game.new_game(seed)
    while not state.is_over:
        seat = rng.choice(state.to_act)
        action = rng.choice(state.legal_actions(seat))
        yield state, seat, action
        state.apply(seat, action)
    yield state, -1, None


@pytest.fixture(params=EVERY_GAME, ids=lambda game: game.name)
def game(request: pytest.FixtureRequest) -> Game:
    return request.param  # type: ignore[no-any-return]


def test_every_game_is_listed_once_and_describes_itself(game: Game) -> None:
    names = [g.name for g in EVERY_GAME]
    assert names.count(game.name) == 1 and game.name == game.name.lower()
    options = game.options_type()
    counts = game.player_counts(options)
    assert counts and list(counts) == sorted(counts)
    assert game.seated(options, counts[0]) is not None
    assert game.default_level in game.levels and len(game.levels) >= 2
    for level, make in game.levels.items():
        assert make(7).name == level


def test_random_games_keep_the_protocol(game: Game) -> None:
    for seed in SEEDS:
        last_turn = -1
        for state, seat, action in played(game, seed):
            assert state.turn >= last_turn, "the decision point never falls"
            last_turn = state.turn
            assert state.move_count == len(state.moves)
            if state.is_over:
                assert state.to_act == ()
                assert all(state.legal_actions(s) == () for s in _seats(state))
                break
            for each in _seats(state):
                legal = state.legal_actions(each)
                texts = [str(a) for a in legal]
                assert len(set(texts)) == len(texts), "no action twice"
                assert list(legal) == sorted(legal, key=_order(game)), "legal actions sorted"
                if each in state.to_act:
                    assert legal, "a seat the game waits for has something to do"
                for one in legal:
                    assert game.parse_action(str(one)) == one, "actions round-trip"
            decider = state.controller(seat)
            assert decider is None or state.player_at(decider) is not None
            assert action in state.legal_actions(seat)


def _order(game: Game) -> Any:
    """Return the sort key the game's legal actions follow: their own order."""
    return lambda action: action


def test_refusals_name_a_reason_and_change_nothing(
    game: Game, seeds: Sequence[int] = SEEDS[:4]
) -> None:
    for seed in seeds:
        for state, seat, _ in played(game, seed):
            if state.is_over:
                refused = [(0, NotAnAction())]
            else:
                idle = [s for s in _seats(state) if not state.legal_actions(s)]
                refused = [(seat, NotAnAction()), (99, state.legal_actions(seat)[0])]
                if idle:
                    other = next(s for s in state.to_act)
                    refused.append((idle[0], state.legal_actions(other)[0]))
            before = snapshot(state)
            for who, action in refused:
                with pytest.raises(EngineError) as caught:
                    state.apply(who, action)
                assert caught.value.reason, f"{type(caught.value).__name__} names no reason"
                assert str(caught.value), "a sentence a player can read"
                assert snapshot(state) == before, (who, action)


def test_replays_rebuild_the_state_from_moves_and_from_their_text(game: Game) -> None:
    for seed in SEEDS[:6]:
        states = [state for state, _, _ in played(game, seed)]
        final = states[-1]
        moves = final.moves
        for move in moves:
            assert game.parse_move(str(move)) == move, "moves round-trip"
        options = final.options
        assert snapshot(game.replay(seed, options, moves)) == snapshot(final)
        assert snapshot(game.replay(seed, options, [str(m) for m in moves])) == snapshot(final)
        again = [state for state, _, _ in played(game, seed)][-1]
        assert snapshot(again) == snapshot(final), "the same seed plays the same game"


def test_no_view_shows_another_seats_secrets(game: Game, seeds: Sequence[int] = SEEDS) -> None:
    seen_secret = False
    for seed in seeds:
        for state, _, _ in played(game, seed):
            public = leaves(state.public_view().to_dict())
            shown = {other: leaves(state.view(other).to_dict()) for other in _seats(state)}
            for seat in _seats(state):
                secrets = game.secrets(state, seat)
                seen_secret |= bool(secrets)
                assert not secrets & public, (seat, secrets & public)
                for other in _seats(state):
                    if (
                        other != seat
                        and state.controller(seat) != other
                        and not _same_decider(state, seat, other)
                    ):
                        leaked = secrets & shown[other]
                        assert not leaked, (seat, other, leaked)
    assert seen_secret, "the game declares what is secret"


def test_results_are_well_formed(game: Game) -> None:
    for seed in SEEDS:
        state = [s for s, _, _ in played(game, seed)][-1]
        result = state.result()
        assert isinstance(result, GameResult)
        assert len(result.scores) == state.players
        assert result.winners and set(result.winners) <= set(range(state.players))
        best = max(result.scores)
        assert {p for p in range(state.players) if result.scores[p] == best} >= set(result.winners)
        assert sum(result.share(p) for p in range(state.players)) == pytest.approx(1.0)
        fresh = game.new_game(seed).result()
        assert fresh.winners == (), "nobody has won before the end"


def test_a_clone_is_independent(game: Game) -> None:
    for state, seat, action in played(game, 3):
        if state.is_over:
            break
        copy = state.clone()
        before = snapshot(state)
        copy.apply(seat, action)
        assert snapshot(state) == before
        assert snapshot(copy) != before
