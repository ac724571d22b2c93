"""Whist's review: card costs are double-dummy (``engine.whist.analysis``, given each deal as
dealt, its trumps, its leader and its cards in play order), labelled as computed after the
game with all hands known; the review names no card but the member's own.

The solver itself is checked in tests/engine (and takes seconds to a minute a deal in pure
Python): here it is stood in for by a stub that records what it was asked."""

from __future__ import annotations

import dataclasses
import random
import re
from collections.abc import Sequence
from typing import Any

import pytest

from bot.games.whist import review as whist_review
from bot.games.whist.ui import UI
from bot.review import review_game, review_page
from engine.cards import DECK, Card, parse_card
from engine.whist import GAME, WhistOptions, analysis
from engine.whist.actions import SEAT_LETTERS, Kind

SEED = 31


def played_game(seed: int) -> tuple[WhistOptions, list[str]]:
    """Return the options and moves of a rubber of short whist played at random."""
    options = GAME.seated(None, 4)
    state = GAME.new_game(seed, options)
    rng = random.Random(seed)
    while not state.is_over:
        (seat,) = state.to_act[:1]
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    return options, [str(move) for move in state.moves]


class Solver:
    """Stands in for the double-dummy solver: every third card of a deal costs a trick."""

    def __init__(self) -> None:
        self.asked: list[tuple[dict[str, tuple[Card, ...]], str | None, str, list[Card]]] = []
        self.solved = 0

    def costs(
        self,
        hands: dict[str, Sequence[str]],
        trump: str | None,
        leader: str,
        played: Sequence[str],
    ) -> tuple[int, ...]:
        dealt = {seat: tuple(map(parse_card, hand)) for seat, hand in hands.items()}
        self.asked.append((dealt, trump, leader, [parse_card(card) for card in played]))
        return tuple(1 if i % 3 == 2 else 0 for i in range(len(played)))

    def result(self, hands: Any, trump: str | None, leader: str) -> tuple[int, int]:
        self.solved += 1
        return 7, 6

    def review(
        self,
        hands: dict[str, Sequence[str]],
        trump: str | None,
        leader: str,
        played: Sequence[str],
    ) -> tuple[tuple[int, ...], int]:
        return self.costs(hands, trump, leader, played), self.result(hands, trump, leader)[0]


@pytest.fixture
def solver(monkeypatch: pytest.MonkeyPatch) -> Solver:
    stub = Solver()
    monkeypatch.setattr(whist_review, "apart", False)  # the stub answers in this process
    monkeypatch.setattr(analysis, "double_dummy_review", stub.review)
    return stub


def hands_by_deal(
    options: WhistOptions, moves: list[str]
) -> tuple[dict[int, dict[int, set[Card]]], int]:
    """Return each deal's hands as dealt, by seat, and how many of North's cards were
    chosen among several, read from the engine."""
    state = GAME.new_game(SEED, options)
    hands: dict[int, dict[int, set[Card]]] = {}
    choices = 0
    for text in moves:
        move = GAME.parse_move(text)
        if move.action.kind is Kind.PLAY and state.deal not in hands:
            hands[state.deal] = {s: set(state.hand(s)) for s in range(4)}
        if move.seat == 0 and len(state.legal_actions(0)) > 1:
            choices += 1
        state.apply(move.seat, move.action)
    return hands, choices


def test_the_solver_gets_each_deal_as_dealt_and_the_member_their_own_cards(
    solver: Solver,
) -> None:
    options, moves = played_game(SEED)
    dealt, choices = hands_by_deal(options, moves)
    review = review_game(UI, SEED, options, moves, 0)
    assert len(solver.asked) == solver.solved == len(dealt) >= 2
    for (hands, _trump, leader, played), deal in zip(solver.asked, sorted(dealt), strict=True):
        assert {SEAT_LETTERS.index(s): set(h) for s, h in hands.items()} == dealt[deal]
        assert played[0] in hands[leader] and len(played) == 52
    # A card the member had to play (the last, the only one of the suit led) is none.
    assert review.decisions == choices
    assert review.findings and all(f.exact and f.advised is None for f in review.findings)
    assert review.decisions == review.matched + len(review.findings)
    assert not review.sampled
    own = set().union(*(deal[0] for deal in dealt.values()))
    assert {f.chosen.card for f in review.findings} <= own

    for lang in ("en", "de"):
        pages = [
            review_page(UI, 5, review, page, lang) for page in range(-(-len(review.findings) // 8))
        ]
        text = "\n".join(p.embeds[0].description or "" for p in pages)
        if lang == "en":
            assert "computed after the game with all four hands known" in text
            assert "Deal 1: with all hands known, best play makes North–South 7 and" in text
            assert re.search(r"\*\*Deal \d, trick \d+\*\* — you: \S+ · costs 1 trick", text)
        else:
            assert "nach dem Spiel mit allen vier Händen offen berechnet" in text
            assert re.search(r"\*\*Runde \d, Stich \d+\*\* — du: \S+ · kostet 1 Stich", text)
        named = {card for card in DECK if re.search(rf"(?<!\w){re.escape(str(card))}", text)}
        assert named <= own, sorted(map(str, named - own))


def test_the_same_game_gives_the_same_review(solver: Solver) -> None:
    options, moves = played_game(SEED)
    assert review_game(UI, SEED, options, moves, 2) == review_game(UI, SEED, options, moves, 2)


def test_a_long_tournee_keeps_the_first_page_within_an_embed(solver: Solver) -> None:
    options, moves = played_game(SEED)
    review = review_game(UI, SEED, options, moves, 0)
    many = dataclasses.replace(review, notes=review.notes[:1] + review.notes[1:2] * 60)
    text = review_page(UI, 5, many, 0, "de").embeds[0].description or ""
    assert len(text) <= 4096 and "…" in text and "Runde 1, Stich" in text


def test_the_solver_runs_apart_in_a_child_process() -> None:
    """The bot's solver works in a child process of its own (the answer comes back through
    a pipe); what goes wrong there comes back as an error the review reports."""
    assert whist_review.apart
    assert whist_review._apart([]) == []
    bad: whist_review.Job = ({"N": ["AS"]}, None, "N", [])
    with pytest.raises(RuntimeError, match=r"the double-dummy solver failed: .*Error"):
        whist_review._apart([bad])
