"""Dukes Up!'s ``expert`` against ``baseline``: win share, how matches end, decision times.

    .venv/bin/python bench/dukes_up_strength.py [--matches 1000] [--seed 1] [--level baseline]

Matches come in pairs on one seed: the expert sits at Black in the first and at Red in the
second, so both see the same deal and the expert plays first in exactly half of the matches.
Default options (one round, 200 turns). Printed: the expert's win share (a drawn match counts
one half) with Wilson's 95 % interval, wins / draws / losses, how the matches ended (capture,
exhaustion, the turn limit), mean scores, how often the expert used its dukes and castle,
and each level's decision times (every call to ``act``, p50 and p99). Targets: win share
≥ 0.65 with the interval's lower end above 0.5; the expert's decision p99 ≤ 200 ms. Figures,
not assertions.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.dukes_up import Kind, new_game
from engine.dukes_up.players import make_player
from engine.simulate import wilson


def percentile(values: list[float], q: float) -> float:
    """Return the ``q`` quantile of ``values`` (nearest rank)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, math.ceil(q * len(ordered)) - 1))]


def play(
    seed: int, expert_seat: int, level: str
) -> tuple[float, dict[str, int], list[float], list[float]]:
    """Play one match; return the expert's share of the win, what happened (the round's
    end, scores, the expert's dukes and castle actions) and both levels' decision seconds."""
    state = new_game(seed)
    other_seat = (expert_seat + 1) % 2
    players = {
        expert_seat: make_player("expert", 2 * seed + expert_seat),
        other_seat: make_player(level, 2 * seed + other_seat),
    }
    times: dict[int, list[float]] = {expert_seat: [], other_seat: []}
    used: Counter[str] = Counter()
    while not state.is_over:
        seat = state.to_act[0]
        view = state.view(seat)
        started = time.perf_counter()
        action = players[seat].act(view)
        times[seat].append(time.perf_counter() - started)
        if seat == expert_seat and action.kind in (Kind.PICKUP, Kind.SET, Kind.REVEAL):
            used[action.kind.name.lower()] += 1
        state.apply(seat, action)
    result = state.results[-1]
    facts: dict[str, int] = dict(used)
    facts["end:" + result.end] = 1
    facts["own"] = result.scores[expert_seat]
    facts["theirs"] = result.scores[other_seat]
    facts["first"] = int(state.first_player == expert_seat)
    # a capture ends the round on the capturing seat's finish, the last move
    facts["captured"] = int(result.end == "capture" and state.moves[-1].seat == expert_seat)
    share = 1.0 if state.winners == (expert_seat,) else 0.5 if len(state.winners) == 2 else 0.0
    return share, facts, times[expert_seat], times[other_seat]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=1000, help="matches (pairs of seats)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--level", default="baseline", help="the expert's opponent")
    args = parser.parse_args()
    started = time.perf_counter()
    shares: list[float] = []
    totals: Counter[str] = Counter()
    first_shares: list[float] = []
    expert_ms: list[float] = []
    other_ms: list[float] = []
    for m in range(args.matches):
        share, facts, mine, theirs = play(args.seed + m // 2, m % 2, args.level)
        shares.append(share)
        if facts.get("first"):
            first_shares.append(share)
        totals.update(facts)
        expert_ms += [t * 1e3 for t in mine]
        other_ms += [t * 1e3 for t in theirs]
    n = len(shares)
    won = sum(shares)
    low, high = wilson(won, n)
    wins = sum(1 for s in shares if s == 1.0)
    draws = sum(1 for s in shares if s == 0.5)
    print(
        f"expert vs {args.level}: {n} matches (seeds {args.seed}–{args.seed + (n - 1) // 2}, "
        f"each with both seatings) in {time.perf_counter() - started:.0f} s"
    )
    print(
        f"  win share {won / n:.3f} [95 % CI {low:.3f}, {high:.3f}] (Wilson); "
        f"{wins} won, {draws} drawn, {n - wins - draws} lost (target ≥ 0.65, lower end > 0.5)"
    )
    first, firsts = sum(first_shares), len(first_shares)
    print(
        f"  playing first {first / max(1, firsts):.3f} of {firsts}; "
        f"second {(won - first) / max(1, n - firsts):.3f} of {n - firsts}"
    )
    ends = ", ".join(
        f"{k[4:]} {v} ({v / n:.0%})" for k, v in sorted(totals.items()) if k.startswith("end:")
    )
    print(f"  matches ended by: {ends}; the expert captured in {totals['captured']}")
    print(f"  mean score: expert {totals['own'] / n:.2f}, {args.level} {totals['theirs'] / n:.2f}")
    print(
        f"  the expert's dukes and castle per match: {totals['pickup'] / n:.1f} pick-ups, "
        f"{totals['set'] / n:.1f} sets, {totals['reveal'] / n:.2f} reveals (THE MOVE)"
    )
    for name, values, note in (
        ("expert", expert_ms, " (target p99 ≤ 200 ms)"),
        (args.level, other_ms, ""),
    ):
        print(
            f"  {name} decisions: p50 {percentile(values, 0.5):.2f} ms, "
            f"p99 {percentile(values, 0.99):.2f} ms, max {max(values):.1f} ms over "
            f"{len(values):,}{note}"
        )


if __name__ == "__main__":
    main()
