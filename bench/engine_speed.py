"""Engine speed: full games per second with ``random`` players (Dupe: four deals).

    .venv/bin/python bench/engine_speed.py [--game dupe] [--games 2000] [--rounds 5] [--chunk 100]

Runs in this one process (one core), with decision timing off, and prints the games per
second of each round, then the median and best. For Dupe each round also times the lean loop
(``bench/lean_dupe.py``: the same random games as a plain loop over ints, no engine), the two
taking turns every ``--chunk`` games (the one to go first alternating too), so that both see
the same machine: a round's share is the lean loop's time over the engine's for the same
games. Before timing, the lean loop must reach the same totals as the engine for the first
games. Targets for Dupe: a median of at least 1,200 games/s, and at least 0.8 of the lean
loop. Figures, not assertions: the test suite never times anything. On a busy machine the
rounds swing both ways; ``bench/engine_instructions.py`` counts the same workload in
instructions, which load cannot move.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import lean_dupe

from engine import games
from engine.game import Game
from engine.simulate import simulate


def engine_round(rules: Game, count: int, seed: int) -> float:
    """Return the seconds ``count`` random games take through ``engine.simulate``."""
    players = ["random"] * rules.player_counts(rules.options_type())[0]
    return simulate(players, count, seed=seed, timing=False, game=rules).seconds


def check_same_games(rules: Game, count: int) -> None:
    """Raise ``AssertionError`` unless the lean loop and the engine reach the same totals in
    the first ``count`` games (simulate rotates its entries: entry ``e`` of game ``g`` plays
    seat ``(e + g) % 4``)."""
    lean_dupe.check()
    result = simulate(["random"] * 4, count, seed=0, timing=False, game=rules)
    for g in range(count):
        totals, _ = lean_dupe.game(g)
        engine = [result.entries[(seat - g) % 4].scores[g] for seat in range(4)]
        assert engine == totals, f"game {g}: engine {engine}, lean loop {totals}"


def timed_round(
    rules: Game, games: int, seed: int, chunk: int, repeat: int, lean: bool
) -> tuple[float, float]:
    """Return the seconds the engine and the lean loop take for games ``seed`` to
    ``seed + games - 1`` (the lean loop's 0 without it): the two take turns every ``chunk``
    games, each chunk ``repeat`` times, and each side's fastest time of a chunk counts (other
    work on the machine only ever adds time, to either side)."""
    engine_seconds = lean_seconds = 0.0
    for start in range(seed, seed + games, chunk):
        count = min(chunk, seed + games - start)
        engine_times: list[float] = []
        lean_times: list[float] = []
        for n in range(repeat):
            lean_first = lean and n % 2 == 1
            if lean_first:
                lean_times.append(lean_dupe.run(count, start))
            engine_times.append(engine_round(rules, count, start))
            if lean and not lean_first:
                lean_times.append(lean_dupe.run(count, start))
        engine_seconds += min(engine_times)
        lean_seconds += min(lean_times, default=0.0)
    return engine_seconds, lean_seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="dupe", choices=games.names())
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--chunk", type=int, default=100, help="games between turns")
    parser.add_argument("--repeat", type=int, default=3, help="times each chunk is played")
    args = parser.parse_args()
    rules = games.get(args.game)
    lean = args.game == "dupe"
    if lean:
        check_same_games(rules, 200)
    rates: list[float] = []
    shares: list[float] = []
    for round_no in range(args.rounds):
        seed = round_no * args.games
        seconds, lean_seconds = timed_round(rules, args.games, seed, args.chunk, args.repeat, lean)
        rates.append(args.games / seconds)
        print(
            f"round {round_no + 1}: {args.games} games in {seconds:.3f} s = {rates[-1]:.0f} games/s"
        )
        if lean:
            shares.append(lean_seconds / seconds)
            print(
                f"  lean loop: {args.games} games in {lean_seconds:.3f} s "
                f"= {args.games / lean_seconds:.0f} games/s; engine/lean {shares[-1]:.2f}"
            )
    print(
        f"median {statistics.median(rates):.0f} games/s, best {max(rates):.0f} games/s "
        f"(target for dupe ≥ 1200)"
    )
    if lean:
        print(
            f"engine/lean median {statistics.median(shares):.2f} (per round "
            f"{', '.join(f'{s:.2f}' for s in shares)}; target ≥ 0.8)"
        )


if __name__ == "__main__":
    main()
