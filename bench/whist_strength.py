"""Whist players' strength by duplicate: each deal played twice, the partnerships swapped.

    .venv/bin/python bench/whist_strength.py [--pairs 1000] [--seed 1] [--jobs 1] [--cpu]

Short whist. Deal pair ``i`` is the first deal of ``new_game(seed + i)``, played once with
the stronger level at N-S and the weaker at E-W and once the other way round; the figure
for the pair is the stronger level's tricks over both plays minus 13, so the cards cancel
out and only the play counts. Printed for ``basic`` against ``random`` and ``expert``
against ``basic``: the mean trick difference per deal with its 95 % confidence interval
(normal approximation), and the expert's decision times (every call to ``act``: mean, median
and 99th percentile; wall-clock, or with ``--cpu`` the process's CPU time). After each card
every player of a level the game lists in ``watching_levels`` is shown its view, as the
simulator and the bot do. Targets: basic ≥ +1.5 tricks per deal against random; expert
≥ +0.6 against basic with the interval's lower bound ≥ +0.4; expert mean ≤ 100 ms, p99 ≤ 500 ms.
Figures, not assertions. With ``--jobs`` > 1 the pairs are shared out among processes
(timings then include any contention for the cores).
"""

from __future__ import annotations

import argparse
import contextlib
import math
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.whist import WhistOptions, new_game
from engine.whist.game import GAME
from engine.whist.players import Player, make_player

TRICKS = 13
WATCHING = GAME.watching_levels
Tuning = tuple[tuple[str, float], ...]  # the expert's settings (ExpertPlayer's keywords)


def new_player(level: str, seed: int, tuning: Tuning) -> Player:
    """Return a player of ``level``; an expert with ``tuning``'s settings."""
    if level != "expert" or not tuning:
        return make_player(level, seed)
    from engine.whist.players.expert import ExpertPlayer

    return ExpertPlayer(seed, **dict(tuning))  # type: ignore[arg-type]


def play_deal(
    seed: int, ns: str, ew: str, tuning: Tuning, cpu: bool = False
) -> tuple[int, list[float]]:
    """Return N-S's tricks in the first deal of ``new_game(seed)`` with level ``ns`` at N and
    S and ``ew`` at E and W, and the seconds each expert decision took (wall clock, or with
    ``cpu`` this process's CPU time, which a busy host does not stretch)."""
    state = new_game(seed, WhistOptions())
    levels = (ns, ew, ns, ew)
    players = [
        new_player(levels[p], seed * 8 + p + (4 if ns > ew else 0), tuning) for p in range(4)
    ]
    times: list[float] = []
    while not state.results:
        seat = state.to_play
        assert seat is not None
        player = players[seat]
        view = state.view(seat)
        started = time.process_time() if cpu else time.perf_counter()
        action = player.act(view)
        if player.name == "expert":
            times.append((time.process_time() if cpu else time.perf_counter()) - started)
        state.apply(seat, action)
        # every player takes in each card as it is played (``Game.watching_levels``)
        for p in range(4):
            if players[p].name in WATCHING:
                players[p].observe(state.view(p))
    return state.results[0].tricks[0], times


def play_pair(task: tuple[int, str, str, Tuning, bool]) -> tuple[int, list[float]]:
    """Return ``strong``'s tricks over both plays of one deal minus 13, and the expert's
    decision times."""
    seed, strong, weak, tuning, cpu = task
    first, times1 = play_deal(seed, strong, weak, tuning, cpu)
    second, times2 = play_deal(seed, weak, strong, tuning, cpu)
    return first + (TRICKS - second) - TRICKS, times1 + times2


def match(
    strong: str,
    weak: str,
    pairs: int,
    seed: int,
    jobs: int,
    tuning: Tuning = (),
    cpu: bool = False,
    progress: int = 0,
) -> tuple[list[int], list[float]]:
    """Return the per-pair trick differences and the expert decision times of a match."""
    tasks = [(seed + i, strong, weak, tuning, cpu) for i in range(pairs)]
    diffs: list[int] = []
    times: list[float] = []
    with ProcessPoolExecutor(jobs) if jobs > 1 else contextlib.nullcontext() as pool:
        results = pool.map(play_pair, tasks, chunksize=4) if pool else map(play_pair, tasks)
        for diff, taken in results:
            diffs.append(diff)
            times.extend(taken)
            if progress and len(diffs) % progress == 0 and len(diffs) < pairs:
                # a long run cut short still leaves its figures so far
                print("  so far: " + summary(strong, weak, diffs, times), flush=True)
    return diffs, times


def summary(strong: str, weak: str, diffs: list[int], times: list[float]) -> str:
    """Return one line: the mean difference with its interval, and decision times."""
    mean, low, high = ci95(diffs)
    line = (
        f"{strong} vs {weak}: {mean:+.2f} tricks/deal, 95 % CI [{low:+.2f}, {high:+.2f}] "
        f"over {len(diffs)} deal pairs"
    )
    if times:
        line += (
            f"; expert decisions {len(times)}, p50 {1000 * percentile(times, 0.5):.1f} ms, "
            f"p99 {1000 * percentile(times, 0.99):.1f} ms"
        )
    return line


def ci95(values: list[int]) -> tuple[float, float, float]:
    """Return the mean and its 95 % confidence interval (normal approximation)."""
    mean = statistics.fmean(values)
    half = 1.96 * statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else 0.0
    return mean, mean - half, mean + half


def percentile(values: list[float], q: float) -> float:
    """Return the ``q`` quantile of ``values`` (nearest rank)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, math.ceil(q * len(ordered)) - 1))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=1000, help="deal pairs per match")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1, help="processes")
    parser.add_argument("--samples", type=int, help="the expert's samples per decision")
    parser.add_argument(
        "--effort", type=float, help="the expert's solver effort per decision (typical solve ms)"
    )
    parser.add_argument(
        "--cpu", action="store_true", help="time decisions in CPU time, not wall-clock time"
    )
    parser.add_argument("--solve-from", type=int, help="the expert solves from this hand size")
    parser.add_argument("--only-expert", action="store_true", help="skip basic vs random")
    parser.add_argument(
        "--progress", type=int, default=0, help="print the figures so far every N pairs"
    )
    args = parser.parse_args()
    settings = {"samples": args.samples, "effort": args.effort, "solve_from": args.solve_from}
    tuning = tuple((k, v) for k, v in settings.items() if v is not None)
    for strong, weak, target in (("basic", "random", 1.5), ("expert", "basic", 0.6)):
        if args.only_expert and strong != "expert":
            continue
        started = time.perf_counter()
        diffs, times = match(
            strong, weak, args.pairs, args.seed, args.jobs, tuning, args.cpu, args.progress
        )
        mean, low, high = ci95(diffs)
        print(
            f"{strong} vs {weak}: {mean:+.2f} tricks/deal, 95 % CI [{low:+.2f}, {high:+.2f}] "
            f"over {len(diffs)} deal pairs (target ≥ {target:+.1f}); "
            f"{time.perf_counter() - started:.0f} s",
            flush=True,
        )
        if times:
            clock = "CPU" if args.cpu else "wall-clock"
            print(
                f"  expert decisions ({clock}): {len(times)}, "
                f"mean {1000 * statistics.fmean(times):.1f} ms, "
                f"p50 {1000 * percentile(times, 0.5):.1f} ms, "
                f"p99 {1000 * percentile(times, 0.99):.1f} ms, "
                f"max {1000 * max(times):.1f} ms (targets: mean ≤ 100 ms, p99 ≤ 500 ms)",
                flush=True,
            )


if __name__ == "__main__":
    main()
