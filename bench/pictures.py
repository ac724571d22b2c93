"""Card pictures: time and size of each picture kind (trick, scoring, hand, rules example),
in English and German.

    .venv/bin/python bench/pictures.py [--games 4] [--per-kind 200]

Plays seeded games between ``greedy`` computer players, collects their revealed tricks,
scored deals and hands (as North sees them), then renders ``--per-kind`` pictures of each
kind in each language, cycling through what was collected. The rules example is one
picture per language, kept once drawn; it is timed as drawn afresh (``rules``, a tenth as
many renders) and as the bot serves it (``rules*``, from the cache). Prints the first
(cold, caches empty) render, the median and p99 time per picture, and the mean and largest
PNG size in bytes; then the
longest stall of an asyncio event loop while scoring pictures are rendered on it and in a
worker thread, and whether rendering should leave the event loop (budget: 5 ms). Figures, not
assertions: the test suite never times anything.
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.games.dupe import pictures
from bot.i18n import LANGS, Lang
from bot.pictures import render_off_loop
from engine.cards import Card
from engine.dupe import DealResult, Phase, TrickRecord, new_game
from engine.dupe.players import make_player

BUDGET_MS = 5.0
NAMES = ("Alice", "Bøb Ørsted", "🤖 greedy", "Zoë-Françoise, who has a long name")


def collect(
    games: int,
) -> tuple[list[TrickRecord], list[DealResult], list[tuple[Card, ...]]]:
    """Return the tricks, scored deals and North's hands of ``games`` seeded games."""
    tricks: list[TrickRecord] = []
    results: list[DealResult] = []
    hands: list[tuple[Card, ...]] = []
    for seed in range(games):
        state = new_game(seed)
        players = [make_player("greedy", seed * 4 + seat) for seat in range(4)]
        while not state.is_over:
            for seat in state.to_act:
                view = state.view(seat)
                if seat == 0 and view.phase is Phase.CHOOSE and view.choice is None:
                    hands.append(view.hand)
                state.apply(seat, players[seat].act(view))
            last = state.public_view().last_trick
            if last is not None and (not tricks or tricks[-1] is not last):
                tricks.append(last)
        results.extend(state.results)
    return tricks, results, hands


def measure(render: Callable[[int], bytes], n: int) -> tuple[float, list[float], list[int]]:
    """Return the first render's time (ms), every later render's time (ms), and the sizes."""
    t0 = time.perf_counter()
    sizes = [len(render(0))]
    cold = (time.perf_counter() - t0) * 1000
    times = []
    for i in range(1, n + 1):
        t0 = time.perf_counter()
        sizes.append(len(render(i)))
        times.append((time.perf_counter() - t0) * 1000)
    return cold, times, sizes


async def loop_lag(render: Callable[[int], bytes], n: int, threaded: bool) -> float:
    """Return the longest the event loop was held (ms) while ``n`` pictures were rendered,
    one after the other, in a worker thread or on the loop itself."""
    lags: list[float] = []
    done = False

    async def ticker() -> None:
        while not done:
            t0 = time.perf_counter()
            await asyncio.sleep(0)
            lags.append((time.perf_counter() - t0) * 1000)

    task = asyncio.create_task(ticker())
    await asyncio.sleep(0)
    for i in range(n):
        if threaded:
            await render_off_loop(render, i)
        else:
            render(i)
            await asyncio.sleep(0)
    done = True
    await task
    return max(lags)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--per-kind", type=int, default=200)
    args = parser.parse_args()
    tricks, results, hands = collect(args.games)
    print(
        f"{args.games} games: {len(tricks)} tricks, {len(results)} scored deals, "
        f"{len(hands)} hands; {args.per_kind} renders per kind\n"
    )

    def trick(i: int, lang: Lang = "en") -> bytes:
        t = tricks[i % len(tricks)]
        return pictures.trick_picture(t.cards, NAMES, t.taker, t.received, lang=lang)

    def scoring(i: int, lang: Lang = "en") -> bytes:
        return pictures.scoring_picture(results[i % len(results)], NAMES, lang=lang)

    def hand(i: int, lang: Lang = "en") -> bytes:
        return pictures.hand_picture(hands[i % len(hands)], lang=lang)

    def rules(i: int, lang: Lang = "en") -> bytes:
        pictures._rules_png.cache_clear()
        return pictures.rules_example_picture(lang)

    def rules_served(i: int, lang: Lang = "en") -> bytes:
        return pictures.rules_example_picture(lang)

    print(
        f"{'kind':<8} {'lang':<4} {'cold ms':>8} {'median ms':>10} {'p99 ms':>8} "
        f"{'mean B':>8} {'max B':>8}"
    )
    slowest = 0.0
    kinds: tuple[tuple[str, Callable[[int, Lang], bytes], int], ...] = (
        ("trick", trick, args.per_kind),
        ("scoring", scoring, args.per_kind),
        ("hand", hand, args.per_kind),
        ("rules", rules, max(20, args.per_kind // 10)),
        ("rules*", rules_served, args.per_kind),
    )
    for kind, render, n in kinds:
        for lang in LANGS:
            cold, times, sizes = measure(functools.partial(render, lang=lang), n)
            p99 = statistics.quantiles(times, n=100, method="inclusive")[98]
            if kind != "rules":  # drawn once per language, then served from the cache
                slowest = max(slowest, statistics.median(times))
            print(
                f"{kind:<8} {lang:<4} {cold:>8.1f} {statistics.median(times):>10.1f} "
                f"{p99:>8.1f} {statistics.fmean(sizes):>8.0f} {max(sizes):>8}"
            )
    print("\nlongest event-loop stall while rendering 50 scoring pictures:")
    for threaded in (False, True):
        lag = asyncio.run(loop_lag(scoring, 50, threaded))
        where = "in a worker thread (render_off_loop)" if threaded else "on the event loop"
        print(f"  {where:<38} {lag:6.1f} ms")
    verdict = (
        "render in a thread (bot.pictures.render_off_loop)"
        if slowest > BUDGET_MS
        else "rendering fits in the event loop"
    )
    print(f"\nslowest median {slowest:.1f} ms vs a {BUDGET_MS:g} ms budget: {verdict}")


if __name__ == "__main__":
    main()
