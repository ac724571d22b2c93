"""``/review``'s speed: the time to review one member's decisions in a finished game.

    nice -n 19 .venv/bin/python bench/review.py [--game dupe] [--games 3] [--level random]
        [--exact | --no-exact] [--moves N]

Plays ``--games`` games of each game (or of ``--game``) with computer players of ``--level``
(default: each game's second level, ``greedy``, ``basic``, ``baseline``: games as members
play them, which ``random`` players are not; the review itself depends only on the moves),
then reviews seat 0's
decisions with ``bot.review.review_game``, as ``/review`` does in its worker thread: a
fresh adviser per decision, primed with the seat's views. Prints, per game, the decisions
compared, the seconds per review and the decisions reviewed per second. Whist's card costs
are double-dummy (``GameUI.exact_review``, tens of seconds a deal in pure Python): they are
timed only with ``--exact``; without, whist's cards are compared with its expert's advice.
``--moves N`` reviews only the first ``N`` moves of each game (whist: 52 is its first deal).
One process, one core. Figures, not assertions.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot import games as bot_games
from bot.games.whist import review as whist_review
from bot.review import review_game
from engine.game import GameResult


def played(ui: Any, seed: int, level: str) -> tuple[Any, list[str]]:
    """Return the options and the moves of a game of ``ui``'s played by ``level``."""
    game = ui.game
    players = game.player_counts(None)[0] if game.name != "whist" else 4
    options = game.seated(None, players)
    state = game.new_game(seed, options)
    computers = {p: game.levels[level](seed * 7 + p) for p in range(state.players)}
    rng = random.Random(seed)
    for _ in range(100_000):
        if state.is_over:
            break
        hand = state.to_act[0]
        owner = state.controller(hand)
        player = state.player_at(owner) if owner is not None else None
        computer = computers.get(player) if player is not None else None
        if computer is None:
            action = rng.choice(state.legal_actions(hand))
        else:
            action = computer.act(state.view(hand))
        state.apply(hand, action)
    assert isinstance(state.result(), GameResult)
    return options, [str(move) for move in state.moves]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=[ui.name for ui in bot_games.GAMES])
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--level", default=None)
    parser.add_argument("--exact", action=argparse.BooleanOptionalAction, default=False)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--moves", type=int, default=None)
    args = parser.parse_args(argv)
    whist_review.apart = False  # the solver's CPU time counted here, in this process
    for ui in bot_games.GAMES:
        if (args.game and ui.name != args.game) or not ui.command_group:
            continue
        if not args.exact:
            ui = _without_exact(ui)
        seconds: list[float] = []
        decisions = 0
        for n in range(args.games):
            seed = args.seed + n
            level = args.level or list(ui.game.levels)[1]
            options, moves = played(ui, seed, level)
            moves = moves[: args.moves]
            start = time.process_time()
            review = review_game(ui, seed, options, moves, 0)
            seconds.append(time.process_time() - start)
            decisions += review.decisions
            print(
                f"{ui.name:9} game {n + 1}: {len(moves):4} moves, {review.decisions:3} decisions "
                f"({review.matched} matched, {len(review.findings)} shown), "
                f"{seconds[-1]:7.2f} s CPU",
                flush=True,
            )
        total = sum(seconds)
        print(
            f"{ui.name:9} median {statistics.median(seconds):7.2f} s a review, "
            f"{decisions / total if total else 0:7.1f} decisions/s "
            f"({'with' if args.exact else 'without'} exact costs)",
            flush=True,
        )
    return 0


def _without_exact(ui: Any) -> Any:
    """Return ``ui`` with no exact review (whist's cards then go to its adviser)."""

    class Sampled(type(ui)):  # type: ignore[misc]
        def exact_review(self, seed: int, options: Any, moves: Any) -> None:
            return None

    sampled = Sampled.__new__(Sampled)
    sampled.__dict__.update(getattr(ui, "__dict__", {}))
    return sampled


if __name__ == "__main__":
    raise SystemExit(main())
