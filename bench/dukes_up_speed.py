"""Dukes Up! engine figures, on one core: the layout search, random matches per second, the
computer players' decision times and their strength through the simulator.

    .venv/bin/python bench/dukes_up_speed.py [--tables 2000] [--matches 200] [--games 400]

1. ``can_layout`` (and ``find_layout``) on full 52-card tables, each handed over in a fresh
   random order, and on random tables of 40–51 cards (target: ≤ 30 ms for a full table).
2. Random matches per second: the engine alone (a uniformly random listed legal action,
   as ``python -m engine.simulate`` would with the ``random`` level but without views) and
   ``random`` players acting on views.
3. The players' decision times, p50 and p99, over whole matches.
4. Strength via ``engine.simulate``: baseline vs random and baseline vs baseline (seats
   rotating), win share with its 95 % interval, mean score, and how rounds ended.

Figures, not assertions: the test suite never times anything.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.cards import DECK
from engine.dukes_up import can_layout, find_layout, new_game
from engine.dukes_up.players import make_player
from engine.simulate import simulate


def _quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, int(q * len(ordered) + 0.999999) - 1))]


def layout_times(tables: int, seed: int) -> None:
    """Print the search's median and p99 on full and on large random tables."""
    rng = random.Random(seed)
    for label, make in (
        ("full 52-card tables", lambda: rng.sample(DECK, 52)),
        ("random 40–51-card tables", lambda: rng.sample(DECK, rng.randint(40, 51))),
    ):
        can, find = [], []
        layable = 0
        for _ in range(tables):
            cards = make()
            t0 = time.perf_counter()
            ok = can_layout(cards)
            t1 = time.perf_counter()
            find_layout(cards)
            t2 = time.perf_counter()
            can.append((t1 - t0) * 1e3)
            find.append((t2 - t1) * 1e3)
            layable += ok
        print(
            f"{label}: can_layout median {statistics.median(can):.2f} ms, "
            f"p99 {_quantile(can, 0.99):.2f} ms, max {max(can):.2f} ms; find_layout median "
            f"{statistics.median(find):.2f} ms, p99 {_quantile(find, 0.99):.2f} ms "
            f"({layable}/{tables} layable; target ≤ 30 ms)"
        )


def engine_matches(matches: int, seed: int) -> tuple[float, float]:
    """Return (matches/s, actions/s) of random listed legal actions through the engine."""
    rng = random.Random(seed)
    actions = 0
    started = time.perf_counter()
    for m in range(matches):
        state = new_game(seed + m)
        while not state.is_over:
            seat = state.to_act[int(rng.random() * len(state.to_act))]
            legal = state.legal_actions(seat)
            state.apply(seat, legal[int(rng.random() * len(legal))])
            actions += 1
    seconds = time.perf_counter() - started
    return matches / seconds, actions / seconds


def player_matches(level: str, matches: int, seed: int) -> tuple[float, list[float]]:
    """Return (matches/s, decision times in ms) of ``level`` against itself on views."""
    times: list[float] = []
    started = time.perf_counter()
    for m in range(matches):
        state = new_game(seed + m)
        players = [make_player(level, 2 * (seed + m)), make_player(level, 2 * (seed + m) + 1)]
        while not state.is_over:
            seat = state.to_act[0]
            view = state.view(seat)
            t0 = time.perf_counter()
            action = players[seat].act(view)
            times.append((time.perf_counter() - t0) * 1e3)
            state.apply(seat, action)
    return matches / (time.perf_counter() - started), times


def strength(players: list[str], games: int, seed: int) -> None:
    """Print a simulator run's win shares, mean scores and round endings."""
    result = simulate(players, games, seed=seed, game="dukes_up")
    print(f"{' vs '.join(players)}: {games} matches in {result.seconds:.1f} s")
    for entry in result.entries:
        low, high = entry.win_share_ci()
        print(
            f"  {entry.name:<9} win share {entry.win_share:.3f} [95 % CI {low:.3f}, {high:.3f}], "
            f"mean score {entry.mean_score:.2f}, decisions p50 {entry.decision_ms(0.5):.2f} ms, "
            f"p99 {entry.decision_ms(0.99):.2f} ms"
        )
    ends = {k: v for k, v in result.tallies.items() if k != "turns"}
    shown = ", ".join(f"{k} {v} ({v / games:.0%})" for k, v in sorted(ends.items()))
    print(f"  round endings: {shown}; mean turns {result.tallies.get('turns', 0) / games:.1f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=2000)
    parser.add_argument("--matches", type=int, default=200)
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    layout_times(args.tables, args.seed)
    per_s, actions = engine_matches(args.matches, args.seed)
    print(f"engine, random legal actions: {per_s:.1f} matches/s ({actions:,.0f} actions/s)")
    for level in ("random", "baseline"):
        per_s, times = player_matches(level, args.matches // 2, args.seed)
        print(
            f"{level} vs {level} on views: {per_s:.1f} matches/s; decisions p50 "
            f"{statistics.median(times):.3f} ms, p99 {_quantile(times, 0.99):.3f} ms, "
            f"max {max(times):.1f} ms over {len(times):,} (target p99 ≤ 200 ms)"
        )
    strength(["baseline", "random"], args.games, args.seed)
    strength(["baseline", "baseline"], args.games, args.seed)


if __name__ == "__main__":
    main()
