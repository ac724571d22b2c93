"""Whist engine speed: random short-whist deals per second, on one core.

    .venv/bin/python bench/whist_speed.py [--deals 5000] [--rounds 5]

Two figures per round: the engine alone (a uniformly random legal card chosen from
``legal_actions`` and applied, deal after deal, as a random playout would) and the same
through the generic players (the ``random`` player acting on each hand's view, as
``python -m engine.simulate`` runs it). A deal is 52 cards played and scored; units of play
(rubbers) are restarted as they end. Target: a median of at least 2,000 deals/s for the
engine. Figures, not assertions: the test suite never times anything.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.whist import WhistOptions, new_game
from engine.whist.players import make_player


def engine_deals(deals: int, seed: int) -> float:
    """Return the seconds ``deals`` random short-whist deals take through the engine."""
    rng = random.Random(seed)
    options = WhistOptions()
    played = 0
    game = seed
    started = time.perf_counter()
    while played < deals:
        state = new_game(game, options)
        game += 1
        legal_actions, apply = state.legal_actions, state.apply
        while not state.is_over and played < deals:
            deal = state.deal
            while state.deal == deal and not state.is_over:
                seat = state.to_play
                legal = legal_actions(seat)  # type: ignore[arg-type]
                apply(seat, legal[int(rng.random() * len(legal))])  # type: ignore[arg-type]
            played += 1
    return time.perf_counter() - started


def player_deals(deals: int, seed: int) -> float:
    """Return the seconds ``deals`` deals take with ``random`` players acting on views."""
    options = WhistOptions()
    played = 0
    game = seed
    started = time.perf_counter()
    while played < deals:
        state = new_game(game, options)
        players = [make_player("random", game * 4 + p) for p in range(4)]
        game += 1
        while not state.is_over and played < deals:
            deal = state.deal
            while state.deal == deal and not state.is_over:
                seat = state.to_play
                assert seat is not None
                state.apply(seat, players[seat].act(state.view(seat)))
            played += 1
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=5000)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    engine_rates, player_rates = [], []
    for round_no in range(args.rounds):
        seed = round_no * 1_000_003
        engine = args.deals / engine_deals(args.deals, seed)
        players = args.deals / player_deals(args.deals, seed)
        engine_rates.append(engine)
        player_rates.append(players)
        print(
            f"round {round_no + 1}: {args.deals} deals: engine {engine:,.0f} deals/s, "
            f"random players on views {players:,.0f} deals/s"
        )
    print(
        f"engine: median {statistics.median(engine_rates):,.0f} deals/s, "
        f"best {max(engine_rates):,.0f} (target ≥ 2,000); random players on views: median "
        f"{statistics.median(player_rates):,.0f} deals/s"
    )


if __name__ == "__main__":
    main()
