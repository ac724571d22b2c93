"""Crash recovery under ``kill -9``: whole games (Dupe by default) of scripted members against
the bot as a subprocess on the loopback Discord, killed with SIGKILL at random moments and
restarted on the same database.

    .venv/bin/python bench/crash.py --kills 100 --games 10 --seed 1
    .venv/bin/python bench/crash.py --kills 0 --games 2 --share-429 0.25 --drops 5
    .venv/bin/python bench/crash.py --game highcard --kills 20 --games 8 --stagger 1
    .venv/bin/python bench/crash.py --game doppelkopf --kills 100 --games 6 --stagger 20
    .venv/bin/python bench/crash.py --game whist --variant double_dummy --kills 20 --games 2
    .venv/bin/python bench/crash.py --game dukes_up --kills 100 --games 6 --stagger 30
    .venv/bin/python bench/crash.py --kills 100 --games 10 --seed 1 --postgresql

The kills are spread over the games by counting the members' clicks; each is one of:
``requests`` (after a random number of the bot's requests), ``in-flight`` (milliseconds after
a member's click was dispatched), ``db-write`` (while the bot holds SQLite's write lock for
a move; on PostgreSQL, with ``--postgresql``, in the middle of the move's transaction),
``give-step`` (in the middle of a taker's distribution) and ``scoring`` (at the end
of a deal: during the write of the trick-13 click, or right after a scoring post); high card
(``--game highcard``, run through ``tests.support.highcard.run_bot``) has ``requests``,
``in-flight``, ``db-write`` and ``game-end``; Doppelkopf (``--game doppelkopf``: tournament
tables of four games; a decision is a move, ``--stagger`` counts moves) ``requests``,
``in-flight``, ``db-write`` and ``scoring`` (the card that ends a game); whist
(``--game whist``: a rubber or tournée of members only, Humbug unless ``--variant`` names
another whist whose seats members can all hold) ``requests``, ``in-flight``, ``db-write``
and ``scoring`` (a trick-13 card, or after a deal's summary); Dukes Up! (``--game dukes_up``:
matches of ``--rounds`` rounds of at most ``--max-turns`` turns, two members each; a decision
is an action, ``--stagger`` counts actions) ``requests``, ``in-flight``, ``db-write``,
``give-step`` (right after a step of a choice) and ``scoring`` (Finish or the turn limit's
discard, or after a round's scoring), and after each restart it checks the first panel a
mover is answered with against the replay of the logged moves (the working copy). See
``tests/loopback/crash.py``; ``tests/loopback/test_crash.py`` is the short version.

It prints the tally: kills by trigger and by moment, the tables' states at the kills, clicks
lost with the process (and whether their move had been committed), games finished, moves
told vs logged, duplicates, replay mismatches, ``integrity_check``, the leaderboard check,
the scoring posts, and the restart times (process start to ready). Exit code 1 if anything
is wrong.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.loopback.crash import (
    CRASH_GAMES,
    CrashConfig,
    CrashGame,
    DukesUpCrash,
    WhistCrash,
    run_crash,
)
from tests.loopback.driver import LoopbackDiscord


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--game", choices=sorted(CRASH_GAMES), default="dupe", help="the game (default dupe)"
    )
    parser.add_argument(
        "--variant",
        default=None,
        help="with --game whist: the variant (default humbug; short, double_dummy, "
        "two_hand, english_dummy, mort)",
    )
    parser.add_argument(
        "--rounds", type=int, default=2, help="with --game dukes_up: rounds a match (default 2)"
    )
    parser.add_argument(
        "--max-turns",
        type=int,
        default=50,
        choices=(50, 100, 200, 400),
        help="with --game dukes_up: turns a round at most (default 50)",
    )
    parser.add_argument("--kills", type=int, default=100, help="SIGKILLs in all (default 100)")
    parser.add_argument("--games", type=int, default=8, help="games played at once (default 8)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the kills and the members")
    parser.add_argument(
        "--stagger",
        type=int,
        default=6,
        help="each game starts when the one before is this many tricks in (default 6), so "
        "that deals end at different times",
    )
    parser.add_argument(
        "--share-429", type=float, default=0.0, help="share of REST requests answered 429"
    )
    parser.add_argument("--drops", type=int, default=0, help="gateway connections cut in play")
    parser.add_argument(
        "--down-clicks", type=int, default=0, help="clicks dispatched while the bot is dead"
    )
    parser.add_argument(
        "--cover", action="store_true", help="draw the kinds of kill as a deck (each per round)"
    )
    parser.add_argument(
        "--validate",
        action="store_true",
        help="check every request body against the OpenAPI description (about 3x slower)",
    )
    parser.add_argument("--workdir", type=Path, default=None, help="keep the database and logs")
    parser.add_argument(
        "--postgresql",
        action="store_true",
        help="run the bot on PostgreSQL: a throw-away cluster (initdb, pg_ctl) and a new "
        "database, instead of a SQLite file",
    )
    return parser.parse_args(argv)


async def run(args: argparse.Namespace) -> int:
    workdir = args.workdir or Path(tempfile.mkdtemp(prefix="dupe-crash-"))
    if not args.postgresql:
        return await _run(args, workdir, None)
    from tests.support.postgres import Cluster

    cluster = Cluster()
    try:
        url = cluster.url(cluster.database())
        print(f"PostgreSQL {url.rsplit('@', 1)[-1]}", flush=True)
        return await _run(args, workdir, url)
    finally:
        cluster.close()


async def _run(args: argparse.Namespace, workdir: Path, database: str | None) -> int:
    game: str | CrashGame = args.game
    if args.variant is not None:
        if args.game != "whist":
            raise SystemExit("--variant is whist's")
        game = WhistCrash(args.variant)
    if args.game == "dukes_up":
        game = DukesUpCrash(args.rounds, args.max_turns)
    config = CrashConfig(
        database=database,
        games=args.games,
        kills=args.kills,
        seed=args.seed,
        game=game,
        cover_modes=args.cover,
        stagger=args.stagger,
        share_429=args.share_429,
        gateway_drops=args.drops,
        clicks_while_down=args.down_clicks,
    )
    async with LoopbackDiscord.start(action_timeout=10.0, validate=args.validate) as discord:
        report = await run_crash(discord, workdir, config)
    print(report.tally())
    print(f"database and bot logs: {workdir}")
    return 1 if report.problems else 0


def main() -> int:
    # A bot killed while it sends a body makes aiohttp log the cut request: expected here.
    logging.getLogger("aiohttp.server").setLevel(logging.CRITICAL)
    return asyncio.run(run(parse_args()))


if __name__ == "__main__":
    raise SystemExit(main())
