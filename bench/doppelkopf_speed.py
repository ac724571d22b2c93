"""Doppelkopf engine speed: random full deals per second, and the claim check's worst case.

    .venv/bin/python bench/doppelkopf_speed.py [--deals 2000] [--claims 3000] [--preset house]
        [--decisions 40] [--only-decisions]

1. Deals: random players (uniform among the legal actions, claims and concessions left out so
   that every deal is played to its 12th trick) at tables of four; prints deals per second
   over several rounds. Target: at least 1,000 per second on one core.
2. Claims: the double-dummy check of §3.8 (``engine.doppelkopf.claims``) on full hands at
   trick 1, for every tournament solo type: soloists dealt from the strongest cards of the
   type (a pool of the best 12 to 33 cards, so that claims hold, fail narrowly, or fail at
   once), and random hands; also claims at random moments of random solo games. Prints the
   mean and worst time and how many claims held. Target: worst ≤ 0.5 s.

3. Decisions: each computer level's decision time, in CPU time of the deciding thread (which
   a busy host does not stretch), at ``--decisions`` tables of one player of that level and
   three ``basic`` (seats rotated); prints p50, p99 and the worst per level. A level whose
   p99 exceeds 5 ms belongs in ``DoppelkopfGame.slow_levels``: the bot then lets it decide
   off its event loop.

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

from engine.doppelkopf import DoppelkopfOptions, new_game, parse_action
from engine.doppelkopf.claims import wins_every_trick
from engine.doppelkopf.orders import double_pack
from engine.doppelkopf.players import LEVELS

SOLOS = ("diamonds", "hearts", "spades", "clubs", "queens", "jacks", "fleshless")


def deals_per_second(count: int, preset: str, seed: int) -> float:
    """Play random tables until ``count`` deals were dealt; return deals per second."""
    options = DoppelkopfOptions(preset=preset)
    dealt = 0
    table = 0
    started = time.perf_counter()
    while dealt < count:
        state = new_game(seed + table, options)
        rng = random.Random(seed + table)
        while not state.is_over:
            seat = state.to_act[0]
            actions = [a for a in state.legal_actions(seat) if a.kind not in ("claim", "concede")]
            state.apply(seat, actions[int(rng.random() * len(actions))])
        dealt += state.deal
        table += 1
    return dealt / (time.perf_counter() - started)


def claim_times(count: int) -> tuple[list[float], int]:
    """Time the claim check on ``count`` positions (see the module); return the times and
    how many claims held."""
    times: list[float] = []
    held = 0
    for seed in range(count):
        rng = random.Random(seed)
        state = new_game(seed)
        state.apply(1, parse_action(f"solo:{SOLOS[seed % 7]}"))
        for seat in (2, 3, 0):
            state.apply(seat, parse_action("healthy"))
        order = state.order
        cards = double_pack()
        if seed % 3:  # a soloist dealt from the type's strongest cards
            cards.sort(key=lambda c: -(order.power[c] + 1000 * order.is_trump(c)))
            pool = cards[: 12 + rng.randrange(0, 22)]
            rng.shuffle(pool)
            mine = pool[:12]
            rest = list(cards)
            for card in mine:
                rest.remove(card)
            rng.shuffle(rest)
            state._hands[1] = mine
            for i, seat in enumerate((2, 3, 0)):
                state._hands[seat] = rest[12 * i : 12 * i + 12]
        if seed % 4 == 0:  # the claim comes at a random moment of the game
            for _ in range(rng.randrange(0, 30)):
                seat = state.to_act[0]
                cards_now = [a for a in state.legal_actions(seat) if a.card is not None]
                state.apply(seat, rng.choice(cards_now))
                if state.deal > 1:
                    break
            if state.deal > 1:
                continue
        trick = state._trick
        assert trick is not None
        hands = [tuple(h) for h in state._hands]
        started = time.perf_counter()
        held += wins_every_trick(order, hands, tuple(trick.plays), trick.leader, 1, state.in_play)
        times.append(time.perf_counter() - started)
    return times, held


def decision_times(tables: int, preset: str) -> dict[str, list[float]]:
    """Return each level's decision times in ms over ``tables`` tables (see the module)."""
    options = DoppelkopfOptions(preset=preset)
    times: dict[str, list[float]] = {}
    for level in LEVELS:
        spent = times.setdefault(level, [])
        for table in range(tables):
            state = new_game(table, options)
            mine = table % options.players
            players = {
                s: LEVELS[level if s == mine else "basic"](table * 8 + s)
                for s in range(options.players)
            }
            while not state.is_over:
                seat = state.to_act[0]
                view = state.view(seat)
                started = time.thread_time_ns()
                action = players[seat].act(view)
                if seat == mine:
                    spent.append((time.thread_time_ns() - started) / 1e6)
                state.apply(seat, action)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--claims", type=int, default=3000)
    parser.add_argument("--preset", choices=("tournament", "house"), default="tournament")
    parser.add_argument("--decisions", type=int, default=40)
    parser.add_argument("--only-decisions", action="store_true")
    args = parser.parse_args()
    if not args.only_decisions:
        engine_figures(args)
    for level, ms in decision_times(args.decisions, args.preset).items():
        ordered = sorted(ms)
        p50 = ordered[len(ordered) // 2]
        p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
        slow = "slow: decides off the bot's event loop" if p99 > 5 else "fast"
        print(
            f"decisions, {level}: {len(ms)} over {args.decisions} {args.preset} tables, CPU "
            f"time p50 {p50:.2f} ms, p99 {p99:.2f} ms, worst {ordered[-1]:.1f} ms ({slow})"
        )


def engine_figures(args: argparse.Namespace) -> None:
    """Print the deals per second and the claim check's times."""
    rates = []
    for round_no in range(args.rounds):
        rate = deals_per_second(args.deals, args.preset, seed=round_no * 100_000)
        rates.append(rate)
        print(f"round {round_no + 1}: {rate:.0f} random full deals/s ({args.preset})")
    print(f"median {statistics.median(rates):.0f} deals/s (target ≥ 1000)")
    times, held = claim_times(args.claims)
    print(
        f"claims: {len(times)} checks, {held} held; mean {statistics.mean(times) * 1000:.2f} ms, "
        f"p99 {sorted(times)[int(len(times) * 0.99)] * 1000:.2f} ms, "
        f"worst {max(times) * 1000:.1f} ms (target ≤ 500 ms)"
    )


if __name__ == "__main__":
    main()
