"""The leak scan over review payloads, for every game with an adviser: each line of a
member's review (their choice, the expert's, where, the cost) names nothing another seat
held secret at that decision (``Game.secrets``), in either language. The expert is primed
with the member's own views only, so its choice can only name what they could see."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from bot import games
from bot.game import GameUI
from bot.i18n import LANGS
from bot.review import Review, finding_line, review_game
from engine.cards import parse_card
from engine.errors import ParseError
from engine.game import deciding_player

PLAYERS = {"dupe": 4, "doppelkopf": 4, "whist": 4, "dukes_up": 2}
MOVES = {"whist": 52, "doppelkopf": 60}
"""Moves reviewed where a whole game's review takes seconds (about its first deal)."""
REVIEWED = {"whist": 2, "doppelkopf": 2}
"""Members reviewed there (whist: one of each side)."""


class Sampled:
    """A game's UI with no exact costs: whist's cards go to its expert (its double-dummy
    costs name only the member's cards: ``test_review_whist.py``)."""

    def __init__(self, ui: GameUI) -> None:
        self._ui = ui

    def __getattr__(self, name: str) -> Any:
        return getattr(self._ui, name)

    def exact_review(self, seed: int, options: Any, moves: Any) -> None:
        return None


def played(ui: GameUI, seed: int) -> tuple[Any, list[str]]:
    """Return the options and moves of a game played at random from ``seed``."""
    game = ui.game
    options = game.seated(None, PLAYERS[ui.name])
    state = game.new_game(seed, options)
    rng = random.Random(seed)
    for _ in range(20_000):
        if state.is_over:
            break
        hand = state.to_act[0]
        state.apply(hand, rng.choice(state.legal_actions(hand)))
    return options, [str(move) for move in state.moves]


def forms(secret: str) -> set[str]:
    try:
        card = parse_card(secret)
    except ParseError:
        return {secret}
    shown = str(card)
    return {card.code, shown, shown[-1] + shown[:-1]}


def hidden_at(
    ui: GameUI, seed: int, options: Any, moves: list[str], player: int
) -> dict[int, set[str]]:
    """Return, by ply, the texts other seats held secret from ``player`` then."""
    game = ui.game
    state = game.new_game(seed, options)
    hidden: dict[int, set[str]] = {}
    for ply, text in enumerate(moves):
        others = [s for s in range(state.seats) if deciding_player(state, s) != player]
        hidden[ply] = {
            f for s in others for secret in game.secrets(state, s) for f in forms(secret)
        }
        move = game.parse_move(text)
        state.apply(move.seat, move.action)
    return hidden


@pytest.mark.parametrize("name", sorted(PLAYERS))
def test_a_review_names_nothing_another_seat_held_secret(name: str) -> None:
    ui = Sampled(games.get(name))
    if ui.game.adviser(0) is None:
        pytest.fail(f"{name} has no adviser")
    seed = 11
    options, moves = played(ui, seed)  # type: ignore[arg-type]
    lines = 0
    moves = moves[: MOVES.get(name)]
    for player in range(REVIEWED.get(name, PLAYERS[name])):
        review: Review = review_game(ui, seed, options, moves, player)  # type: ignore[arg-type]
        assert review.compared and review.decisions > 0
        hidden = hidden_at(ui, seed, options, moves, player)  # type: ignore[arg-type]
        for finding in review.findings:
            for lang in LANGS:
                line = finding_line(ui, finding, lang)  # type: ignore[arg-type]
                lines += 1
                leaked = [
                    s
                    for s in hidden[finding.ply]
                    if re.search(rf"(?<!\w){re.escape(s)}(?!\w)", line)
                ]
                assert not leaked, (player, finding.ply, line, leaked)
    assert lines > 0
