"""Properties of Dupe over seeded random games (hypothesis): conservation, legality, replay,
and that a seat's view never shows what the rules hide from it."""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Iterable

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.cards import DECK, Card, Rank, Suit, parse_cards
from engine.dupe import (
    DEALS,
    SEATS,
    TRICKS,
    Action,
    Distribute,
    DupeOptions,
    DupeState,
    DupeView,
    Phase,
    Play,
    play,
    replay,
    score_hand,
    trick_taker,
)
from engine.errors import (
    EngineError,
    GameOverError,
    IllegalActionError,
    NotYourTurnError,
)
from tests.engine.helpers import new_game, snapshot

seeds = st.integers(min_value=0, max_value=2**32 - 1)
memories = st.sampled_from(["strict", "open"])
# The sequence of choices (cards, seat order, distributions, illegal attempts) is drawn
# from a seeded random.Random: a whole game is hundreds of choices, too many to draw one
# by one, and the seed is enough to reproduce any failure.
choosers = st.integers(min_value=0, max_value=2**32 - 1).map(random.Random)


def revealed(state: DupeState) -> tuple[Card, ...]:
    return state.public_view().revealed or ()


# --------------------------------------------------------------------------------------
# Checks made at every step of a game


def check_conservation(state: DupeState) -> None:
    """Hands + won piles + face-down choices + the revealed trick = the 52 distinct cards."""
    cards: list[Card] = []
    for seat in SEATS:
        cards += state.hand(seat)
        cards += state.won_cards(seat)
        choice = state.choice(seat)
        if choice is not None:
            cards.append(choice)
    cards += revealed(state)
    assert len(cards) == 52
    assert sorted(cards) == sorted(DECK)
    if state.phase is Phase.DISTRIBUTE:
        assert len(revealed(state)) == 4
        assert all(state.choice(seat) is None for seat in SEATS)
    else:
        assert revealed(state) == ()
    if not state.is_over:
        # every seat has played the same number of cards this deal
        revealing = state.phase is Phase.DISTRIBUTE
        for seat in SEATS:
            held = len(state.hand(seat)) + (state.choice(seat) is not None)
            assert held == TRICKS - (state.trick - 1) - revealing
            assert len(state.won_cards(seat)) == state.trick - 1


def quoted(cards: Iterable[Card]) -> list[str]:
    return [f'"{card.code}"' for card in cards]


def check_secrecy(state: DupeState, view: DupeView) -> None:
    """The view shows nothing of other seats' hands, identity cards, choices or won piles."""
    seat = view.seat
    data = view.to_dict()
    full = json.dumps(data)
    scored = len(state.results)
    # results only ever hold deals already scored
    assert [r["deal"] for r in data["results"]] == list(range(1, scored + 1))
    assert scored == (DEALS if state.is_over else state.deal - 1)
    trimmed = {key: value for key, value in data.items() if key != "results"}
    last = data["last_trick"]
    if last is not None and last["deal"] != state.deal:
        # the last trick of the deal before: public then, and now in its receivers' hands
        assert (last["deal"], last["trick"]) == (state.deal - 1, TRICKS)
        assert state.trick == 1
        del trimmed["last_trick"]
    text = json.dumps(trimmed)
    others = [s for s in SEATS if s != seat]
    for other in others:
        secret = [*state.hand(other)]
        choice = state.choice(other)
        if choice is not None:
            secret.append(choice)
        for code in quoted(secret):
            assert code not in text
            if state.deal == 1:
                assert code not in full
        if not state.is_over:
            letter = state.identity(other).letter
            if seat is None or letter != state.identity(seat).letter:
                assert f'"{letter}"' not in text
    # won piles: never shown under strict memory; under open only the seat's own
    unshown = {k: v for k, v in trimmed.items() if k not in ("last_trick", "won")}
    pile_text = json.dumps(unshown)
    for other in SEATS:
        for code in quoted(state.won_cards(other)):
            assert code not in pile_text
    if view.memory == "strict" or seat is None:
        assert view.won is None
    else:
        assert view.won == state.won_cards(seat)
    if seat is None:
        assert view.hand == () and view.identity is None and view.choice is None
    else:
        assert view.hand == state.hand(seat)
        assert view.choice == state.choice(seat)
        assert view.legal_actions() == state.legal_actions(seat)
    if last is not None and last["deal"] == state.deal:
        # the last trick of this deal, and only that one
        assert last["trick"] == (TRICKS if state.is_over else state.trick - 1)


def illegal_actions(state: DupeState, rng: random.Random) -> list[tuple[int, Action, type]]:
    """A few actions that the rules forbid now, each with the error it must raise."""
    found: list[tuple[int, Action, type]] = []
    if state.is_over:
        seat = rng.choice(SEATS)
        card = rng.choice(DECK)
        return [(seat, play(card), GameOverError), (seat, Distribute(DECK[:4]), GameOverError)]
    if state.phase is Phase.CHOOSE:
        for seat in SEATS:
            if seat in state.to_act:
                # another seat's card, face-down choice, or any won card
                strangers = [c for s in SEATS if s != seat for c in state.hand(s)]
                strangers += [c for s in SEATS if (c := state.choice(s)) is not None]
                strangers += [c for s in SEATS for c in state.won_cards(s)]
                if strangers:
                    found.append((seat, play(rng.choice(strangers)), IllegalActionError))
            else:
                # a second choice is refused, even of a card still in hand
                chosen = state.choice(seat)
                assert chosen is not None
                again = rng.choice([*state.hand(seat), chosen])
                found.append((seat, play(again), NotYourTurnError))
            found.append((seat, Distribute(tuple(rng.sample(DECK, 4))), NotYourTurnError))
    else:
        taker = state.taker
        assert taker is not None
        cards = list(revealed(state))
        rng.shuffle(cards)
        duplicate = (cards[0], cards[0], cards[1], cards[2])
        stranger = rng.choice([c for c in DECK if c not in cards])
        found.append((taker, Distribute(duplicate), IllegalActionError))
        found.append((taker, Distribute((stranger, *cards[1:])), IllegalActionError))
        for seat in SEATS:
            if seat != taker:
                found.append((seat, Distribute(tuple(cards)), NotYourTurnError))
            found.append((seat, play(rng.choice([*state.hand(seat), *cards])), NotYourTurnError))
    return found


def check_step(state: DupeState, rng: random.Random) -> None:
    check_conservation(state)
    for seat in SEATS:
        check_secrecy(state, state.view(seat))
    check_secrecy(state, state.public_view())
    before = snapshot(state)
    for seat, action, error in illegal_actions(state, rng):
        assert not state.is_legal(seat, action)
        try:
            state.apply(seat, action)
        except EngineError as caught:
            assert type(caught) is error, (seat, action, caught)
        else:
            raise AssertionError(f"{seat} {action} was accepted")
    assert snapshot(state) == before
    # every legal action applies
    for seat in state.to_act:
        for action in state.legal_actions(seat):
            assert state.is_legal(seat, action)
            state.clone().apply(seat, action)


def check_deal_end(state: DupeState) -> None:
    result = state.results[-1]
    assert all(len(hand) == 13 for hand in result.won)
    assert sorted(card for hand in result.won for card in hand) == sorted(DECK)
    for seat in SEATS:
        assert result.scores[seat] == score_hand(result.won[seat])
        assert result.credited[seat] == result.scores[result.dupe(seat)].total
        if not state.is_over:
            assert state.hand(seat) == result.won[seat]
    assert sorted(result.identities) == sorted(Suit)


def check_trick(
    state: DupeState,
    played: tuple[Card, ...],
    won_before: list[tuple[Card, ...]],
    scored_now: bool,
) -> None:
    """The trick just completed: its cards, its taker and where its cards went."""
    last = state.public_view().last_trick
    assert last is not None
    assert last.cards == played
    assert last.taker == trick_taker(played)
    assert sorted(last.received) == sorted(played)
    if last.taker is None:
        assert last.received == played
    for seat in SEATS:
        pile = tuple(sorted((*won_before[seat], last.received[seat])))
        if scored_now:  # the deal's thirteenth trick: the pile went into the results
            assert state.results[-1].won[seat] == pile
        else:
            assert state.won_cards(seat) == pile


def drive(state: DupeState, rng: random.Random, *, checks: bool, limit: int = 10**6) -> None:
    """Play random legal actions (in random seat order) until the game ends or ``limit``."""
    scored = len(state.results)
    played: list[Card | None] = [state.choice(seat) for seat in SEATS]
    if state.phase is Phase.DISTRIBUTE:
        played = list(revealed(state))
    for _ in range(limit):
        if state.is_over:
            break
        if checks:
            check_step(state, rng)
        seats = list(state.to_act)
        rng.shuffle(seats)
        seat = seats[0]
        actions = state.legal_actions(seat)
        action = actions[rng.randrange(len(actions))]
        last_before = state.public_view().last_trick
        won_before = [state.won_cards(s) for s in SEATS]
        state.apply(seat, action)
        if isinstance(action, Play):
            played[seat] = action.card
        if state.phase is Phase.DISTRIBUTE and isinstance(action, Play):
            assert revealed(state) == tuple(played)
        if state.public_view().last_trick is not last_before:
            cards = tuple(c for c in played if c is not None)
            assert len(cards) == 4
            check_trick(state, cards, won_before, len(state.results) > scored)
            played = [None, None, None, None]
        if len(state.results) > scored:
            scored = len(state.results)
            check_deal_end(state)
    if checks:
        check_step(state, rng)


# --------------------------------------------------------------------------------------
# Properties


@given(seed=seeds, chooser=choosers, memory=memories)
def test_random_games_keep_every_invariant(seed: int, chooser: random.Random, memory: str) -> None:
    state = new_game(seed, memory)
    drive(state, chooser, checks=True)
    assert state.is_over
    assert len(state.results) == DEALS
    top = max(state.totals)
    assert state.winners == tuple(s for s in SEATS if state.totals[s] == top)
    assert state.totals == tuple(sum(r.credited[s] for r in state.results) for s in SEATS)
    again = replay(seed, state.options, [str(move) for move in state.moves])
    assert snapshot(again) == snapshot(state)


@settings(max_examples=settings().max_examples * 5)
@given(seed=seeds, chooser=choosers, memory=memories, steps=st.integers(0, 700))
def test_replay_reproduces_any_position(
    seed: int, chooser: random.Random, memory: str, steps: int
) -> None:
    state = new_game(seed, memory)
    drive(state, chooser, checks=False, limit=steps)
    texts = [str(move) for move in state.moves]
    again = replay(seed, DupeOptions(memory=memory), texts)  # type: ignore[arg-type]
    assert snapshot(again) == snapshot(state)
    assert again.totals == state.totals and again.results == state.results
    # and it carries on identically
    follow = random.Random(steps)
    drive(state, follow, checks=False, limit=30)
    drive(again, random.Random(steps), checks=False, limit=30)
    assert snapshot(again) == snapshot(state)


# --------------------------------------------------------------------------------------
# Scoring against a brute-force reading of the rules

_BONUS = {3: 6, 4: 8}


def reference_score(cards: list[Card]) -> tuple[int, int, int]:
    """L, S, B straight from the rules, trying every sequence."""
    counts = Counter(card.rank for card in cards)
    suits = Counter(card.suit for card in cards)
    length = max(suits.values(), default=0)
    runs: list[list[int]] = []
    for low in range(1, 15):  # 1 is the ace counted low
        for high in range(low + 1, 15):
            if low == 1 and high == 14:
                continue  # the ace cannot be both
            values = [14 if v == 1 else v for v in range(low, high + 1)]
            if all(counts[Rank(v)] for v in values):
                runs.append(values)
    if not runs:
        return length, 1, sum(_BONUS.get(n, 0) for n in counts.values())
    s = max(len(run) for run in runs)
    b = max(
        sum(_BONUS.get(n - (rank in run), 0) for rank, n in counts.items())
        for run in runs
        if len(run) == s
    )
    return length, s, b


def test_the_reference_agrees_with_the_worked_examples() -> None:
    examples = {
        "8S 3S 2S KH JH 9H 8H 7H 9C 2C 6D 5D 3D": (5, 5, 0),
        "AS 7S AH 3H KC 10C 8C 7C 6C 3C JD 7D 2D": (6, 3, 6),
        "JS 10S 4S QH 10H 5H AC 4C AD KD 10D 8D 4D": (5, 5, 6),
        "KS QS 9S 6S 5S 6H 4H 2H QC JC 5C QD 9D": (5, 3, 6),
    }
    for hand, expected in examples.items():
        assert reference_score(parse_cards(hand)) == expected


@settings(max_examples=settings().max_examples * 10)
@given(st.lists(st.sampled_from(DECK), unique=True, max_size=26))
def test_score_hand_matches_a_brute_force_reading(cards: list[Card]) -> None:
    score = score_hand(cards)
    length, s, b = reference_score(cards)
    assert (score.suit_length, score.sequence_length, score.bonus) == (length, s, b)
    assert score.total == length * s + b
    assert 1 <= score.sequence_length <= 13
    if cards:
        assert Counter(c.suit for c in cards)[score.longest_suit] == length
    held = Counter(card.rank for card in cards)
    if score.sequence:
        assert len(score.sequence) == s
        values = [int(rank) for rank in score.sequence]
        if score.sequence[0] is Rank.ACE:
            values[0] = 1  # an ace that starts a sequence counts low
        assert values == list(range(values[0], values[0] + s))
        assert all(held[rank] for rank in score.sequence)
    else:
        assert s == 1
    counted = {rank: held[rank] - (rank in score.sequence) for rank in held}
    assert score.sets == tuple(
        (rank, n) for rank, n in sorted(counted.items(), reverse=True) if n >= 3
    )
    assert score.bonus == sum(_BONUS[n] for _, n in score.sets)
    assert score_hand(reversed(cards)) == score


@settings(max_examples=settings().max_examples * 10)
@given(st.lists(st.sampled_from(list(Rank)), min_size=13, max_size=13))
def test_score_hand_of_many_repeated_ranks(ranks: list[Rank]) -> None:
    # Hands heavy in sets: up to four of a rank, suits assigned in turn.
    used: Counter[Rank] = Counter()
    cards = []
    for rank in ranks:
        if used[rank] < 4:
            cards.append(Card.of(rank, list(Suit)[used[rank]]))
            used[rank] += 1
    score = score_hand(cards)
    assert (score.suit_length, score.sequence_length, score.bonus) == reference_score(cards)
