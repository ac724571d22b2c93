"""Speed of the whist review's double-dummy costs (``engine.whist.analysis``), pure Python.

    .venv/bin/python bench/dd_costs.py [--deals 20] [--seed 1]

For each seeded random deal (trumps and leader drawn too) and a random legal play of all
52 cards: the CPU seconds of ``double_dummy_costs`` over the whole deal, and of one
``double_dummy_result`` (the deal's double-dummy tricks from the start, a fresh solver).
Prints each deal and the p50, p90 and p99 (nearest rank) of both. Target (issue 32): a
whole deal's costs within p50 2 s and p99 10 s of CPU. Figures, not assertions: the test
suite never times anything. On a shared machine run it niced; CPU time is what counts.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.cards import DECK, Card, Suit
from engine.tricks import legal_cards, trick_winner
from engine.whist.analysis import double_dummy_costs, double_dummy_result

SEATS = "NESW"
TRUMPS: tuple[str | None, ...] = (None, "C", "D", "H", "S")


def random_deal(
    rng: random.Random,
) -> tuple[dict[str, tuple[str, ...]], str | None, str, list[str]]:
    """Return hands, trumps, leader and a random legal play of all 52 cards."""
    deck = list(DECK)
    rng.shuffle(deck)
    hands: list[list[Card]] = [deck[i * 13 : (i + 1) * 13] for i in range(4)]
    trump = rng.choice(TRUMPS)
    suit = None if trump is None else Suit("CDHS".index(trump))
    leader = rng.randrange(4)
    codes = {seat: tuple(c.code for c in hand) for seat, hand in zip(SEATS, hands, strict=True)}
    first = SEATS[leader]
    held = [list(hand) for hand in hands]
    trick: list[Card] = []
    played: list[str] = []
    for _ in range(52):
        seat = (leader + len(trick)) % 4
        card = rng.choice(legal_cards(held[seat], trick[0].suit if trick else None))
        held[seat].remove(card)
        trick.append(card)
        played.append(card.code)
        if len(trick) == 4:
            leader = (leader + trick_winner(trick, suit)) % 4
            trick = []
    return codes, trump, first, played


def quantile(values: list[float], q: float) -> float:
    """Return the ``q`` quantile of ``values`` (nearest rank)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    costs_s: list[float] = []
    solve_s: list[float] = []
    for i in range(args.deals):
        hands, trump, leader, played = random_deal(rng)
        started = time.process_time()
        costs = double_dummy_costs(hands, trump, leader, played)
        costs_s.append(time.process_time() - started)
        started = time.process_time()
        ns, _ = double_dummy_result(hands, trump, leader)
        solve_s.append(time.process_time() - started)
        print(
            f"deal {i + 1:2d}: trumps {trump or 'NT'}, N-S {ns:2d} double-dummy, "
            f"random play loses {sum(costs):2d} tricks in all; "
            f"costs {costs_s[-1]:6.2f} s, one solve {solve_s[-1]:6.2f} s",
            flush=True,
        )
    for name, times in (("whole deal's costs", costs_s), ("one full-deal solve", solve_s)):
        print(
            f"{name}: p50 {statistics.median(times):.2f} s, p90 {quantile(times, 0.9):.2f} s, "
            f"p99 {quantile(times, 0.99):.2f} s, max {max(times):.2f} s "
            f"(CPU, {len(times)} deals)"
        )


if __name__ == "__main__":
    main()
