"""What each idea of the Doppelkopf ``expert`` gains: the expert with its ideas switched on
one at a time, each seated with three ``basic`` players.

    .venv/bin/python bench/doppelkopf_ideas.py [--tables 1000] [--seed 20000] [--preset house]
        [--variants cards,announcements,solos,expert,silent] [--jobs 2]
        [--solo-margin 1.0] [--announce-margin M] [--announce-wins W]
        [--pair expert,silent]

Variants (card play by sampling is in every one of them):

- ``cards``: reservations and announcements by the ``basic`` player's rules of thumb;
- ``announcements``: announcements by expected value as well (tournament rules; under the
  house rules the expert announces by ``basic``'s rules, so there it is ``cards``);
- ``solos``: reservations, bids and solo types by expected value as well;
- ``expert``: both (the player as shipped);
- ``silent``: the expert that never announces (card play, solos and claims as shipped).

``--announce-margin`` and ``--announce-wins`` override the preset's announcement thresholds
(``ANNOUNCE_MARGIN``, ``ANNOUNCE_WINS`` in ``engine/doppelkopf/players/expert.py``).
``--pair A,B`` (both among the variants) also prints A's score less B's, table by table on
the same seeds, with its 95 % confidence interval: what announcing is worth is
``--variants expert,silent --pair expert,silent``. The expert draws its announcements' samples
from a generator of their own, so the two play alike until the first announcement.

Each variant plays the same ``--tables`` tables (same seeds, seats rotated by the simulator)
and prints its mean score per table with a 95 % confidence interval and per scored game (a
house table's solos deal again, so it plays more games than dealer turns), and how
often per table it declared each solo (house: bid one) and made each announcement. ``--jobs``
splits the tables over processes.
Figures, not assertions: the test suite never times or weighs players.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.doppelkopf import DoppelkopfOptions
from engine.doppelkopf.game import DoppelkopfGame
from engine.doppelkopf.players import LEVELS
from engine.doppelkopf.players.expert import ExpertPlayer
from engine.game import Player
from engine.simulate import simulate

VARIANTS = {
    "cards": {"announcements": False, "solos": False},
    "announcements": {"announcements": True, "solos": False},
    "solos": {"announcements": False, "solos": True},
    "expert": {"announcements": True, "solos": True},
    "silent": {"announcements": True, "solos": True, "silent": True},
}


class _Bench(DoppelkopfGame):
    """Doppelkopf with the expert's variants as extra levels."""

    def __init__(self, solo_margin: float, announce: tuple[float | None, float | None]) -> None:
        self._extra: dict[str, Callable[[int], Player]] = {
            name: _factory(flags, solo_margin, announce) for name, flags in VARIANTS.items()
        }

    @property
    def levels(self) -> Mapping[str, Callable[[int], Player]]:
        return {**LEVELS, **self._extra}


OWN: Counter[str] = Counter()
"""The bench player's own solos and announcements (per process)."""


class _Counting:
    """A player that counts its solos and announcements in :data:`OWN`."""

    def __init__(self, inner: ExpertPlayer) -> None:
        self._inner = inner
        self.name = inner.name

    def observe(self, view: Any) -> None:
        self._inner.observe(view)

    def act(self, view: Any) -> Any:
        action = self._inner.act(view)
        text = str(action)
        if text.startswith("solo") or text in ("re", "contra", "no90", "no60", "no30", "black"):
            soloist = view.data.get("soloist")
            against = soloist is not None and soloist != view.seat and view.data["phase"] == "play"
            OWN[f"{text} vs solo" if against else text] += 1
        elif text in ("claim", "concede"):
            OWN[text] += 1
        return action


def _factory(
    flags: dict[str, bool], solo_margin: float, announce: tuple[float | None, float | None]
) -> Callable[[int], Player]:
    margin, wins = announce

    def make(seed: int) -> Player:
        inner = ExpertPlayer(
            seed, solo_margin=solo_margin, announce_margin=margin, announce_wins=wins, **flags
        )
        return _Counting(inner)

    return make


def _run(
    job: tuple[str, int, int, str, float, float | None, float | None],
) -> tuple[list[int], Counter[str], int]:
    variant, tables, seed, preset, solo_margin, announce_margin, announce_wins = job
    rules = _Bench(solo_margin, (announce_margin, announce_wins))
    options = DoppelkopfOptions(preset=preset)
    OWN.clear()
    simulate_result = simulate(
        [variant, "basic", "basic", "basic"], tables, seed, options, timing=False, game=rules
    )
    games = sum(v for k, v in simulate_result.tallies.items() if k.startswith("game:"))
    return simulate_result.entries[0].scores, Counter(OWN), games


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=20000)
    parser.add_argument("--preset", choices=("tournament", "house"), default="tournament")
    parser.add_argument("--variants", default=",".join(VARIANTS))
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--solo-margin", type=float, default=1.0)
    parser.add_argument("--announce-margin", type=float, default=None)
    parser.add_argument("--announce-wins", type=float, default=None)
    parser.add_argument("--pair", default=None)
    args = parser.parse_args(argv)
    variants = [v.strip() for v in args.variants.split(",") if v.strip()]
    unknown = [v for v in variants if v not in VARIANTS]
    pair = args.pair.split(",") if args.pair else []
    if (
        unknown
        or args.tables < args.jobs
        or args.jobs < 1
        or (pair and (len(pair) != 2 or not set(pair) <= set(variants)))
    ):
        print(
            f"error: choose variants among {', '.join(VARIANTS)}, tables ≥ jobs ≥ 1, "
            "and a pair of two of the variants."
        )
        return 2
    length = DoppelkopfOptions(preset=args.preset).length
    unit = "counted games" if args.preset == "tournament" else "dealer turns (a solo deals again)"
    print(
        f"{args.tables} {args.preset} tables of {length} {unit} per variant, seed {args.seed}, "
        f"solo margin {args.solo_margin}, announcement margin and wins "
        f"{_shown(args.announce_margin)}, {_shown(args.announce_wins)}"
    )
    print(f"{'variant':14} {'per table':>9}  {'95 % CI':>16}  {'per game':>8}  its own, per table")
    share = args.tables // args.jobs
    results: dict[str, tuple[list[int], int]] = {}
    for variant in variants:
        jobs: list[Any] = []
        for j in range(args.jobs):
            count = share if j < args.jobs - 1 else args.tables - share * (args.jobs - 1)
            jobs.append(
                (
                    variant,
                    count,
                    args.seed + j * share,
                    args.preset,
                    args.solo_margin,
                    args.announce_margin,
                    args.announce_wins,
                )
            )
        scores: list[int] = []
        tallies: Counter[str] = Counter()
        games = 0
        with ProcessPoolExecutor(args.jobs) as pool:
            for part, tally, played in pool.map(_run, jobs):
                scores += part
                tallies += tally
                games += played
        mean = statistics.fmean(scores)
        half = 1.96 * statistics.stdev(scores) / len(scores) ** 0.5
        shown = ", ".join(f"{k} {v / args.tables:.2f}" for k, v in sorted(tallies.items()))
        print(
            f"{variant:14} {mean:+9.2f}  [{mean - half:+6.2f}, {mean + half:+6.2f}]  "
            f"{sum(scores) / games:+8.2f}  {shown}",
            flush=True,
        )
        results[variant] = (scores, games)
    if pair:
        (a, games_a), (b, games_b) = results[pair[0]], results[pair[1]]
        diffs = [x - y for x, y in zip(a, b, strict=True)]
        mean = statistics.fmean(diffs)
        half = 1.96 * statistics.stdev(diffs) / len(diffs) ** 0.5
        per_table = (games_a + games_b) / (2 * len(diffs))  # games per table
        print(
            f"{pair[0]} less {pair[1]}, table by table: {mean:+.2f} per table "
            f"[{mean - half:+.2f}, {mean + half:+.2f}], {mean / per_table:+.3f} per game "
            f"[{(mean - half) / per_table:+.3f}, {(mean + half) / per_table:+.3f}]"
        )
    return 0


def _shown(value: float | None) -> str:
    return "the preset's" if value is None else str(value)


if __name__ == "__main__":
    raise SystemExit(main())
