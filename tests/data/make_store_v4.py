"""Write ``tests/data/store-v4.sqlite``: a small database as the bot wrote it at schema 4.

It was made with the code of the commit that added this script (the store then at schema
4, the last schema before the store knew any game but Dupe; ``git log --diff-filter=A --
tests/data/make_store_v4.py`` names it), through the bot's own write path (``Sessions`` on
``Store``) with a fixed clock and fixed seeds, so running it again there gives the same
file byte for byte (sha256 dc90caea646f9c773531c759c3a7e7b71a43266c7e575782ed3f47cb090ca887)::

    git worktree add /tmp/v4 <that commit> && cd /tmp/v4
    python3 -m venv .venv && .venv/bin/pip install -q -e '.[dev]'
    .venv/bin/python tests/data/make_store_v4.py

Later code writes a newer schema, and this script refuses to overwrite the file then.

What it holds (server 500 unless said; members 101 alice, 102 bob, 103 carol, 104 dave,
105 erin; ``tests/bot/test_store_migration.py`` checks all of it after migration):

- game 1, channel 10: alice, bob and two expert computers; finished; every public post
  sent but the last table edit (``table``), so it is still in the outbox;
- game 2, channel 11: alice, carol and two greedy computers, open memory; finished, every
  post sent;
- game 3, channel 12: alice, dave and two random computers; playing, in deal 2, its
  deal 1 scoring still owed; the table message shows fewer plies than were played;
- game 4, channel 13: erin's table in the lobby with one computer seated;
- game 5, channel 14: cancelled in the lobby;
- game 6, server 600 channel 20: erin and three expert computers; finished;
- server defaults of server 500 (open memory, 60 s turns) and of server 600 (no pictures).
"""

from __future__ import annotations

import asyncio
import random
import sqlite3
import sys
from pathlib import Path

from bot.sessions import Sessions, TableOptions

from bot.store import Store

OUT = Path(__file__).with_name("store-v4.sqlite")
START = 1_750_000_000.0
GUILD, OTHER_GUILD = 500, 600
ALICE, BOB, CAROL, DAVE, ERIN = 101, 102, 103, 104, 105
NAMES = {ALICE: "alice", BOB: "bob", CAROL: "carol", DAVE: "dave", ERIN: "erin"}


class Clock:
    """Seconds that move only when told to."""

    def __init__(self) -> None:
        self.now = START

    def __call__(self) -> float:
        return self.now


async def play(
    sessions: Sessions,
    clock: Clock,
    game_id: int,
    rng: random.Random,
    *,
    deals: int = 4,
    moves: int = 10_000,
) -> None:
    """Let the members at the table act (a random legal action each) until ``deals`` deals
    are scored, they have made ``moves`` moves or the game ends; every move goes through
    ``Sessions.act``, so the computers answer as they do in the bot."""
    for _ in range(moves):
        if game_id not in sessions.tables:
            return
        table = sessions.tables[game_id]
        state = table.state
        assert state is not None
        if len(state.results) >= deals:
            return
        seat = next(s for s in state.to_act if table.seats[s].user_id is not None)
        user = table.seats[seat].user_id
        assert user is not None
        clock.now += 7.0
        action = rng.choice(state.legal_actions(seat))
        await sessions.act(game_id, user, seat, table.turn, action)


async def table(
    sessions: Sessions,
    clock: Clock,
    *,
    guild: int,
    channel: int,
    host: int,
    options: TableOptions,
    members: tuple[int, ...] = (),
    computers: int = 0,
) -> int:
    """Open a table hosted by ``host``, seat ``members`` and ``computers``; return its id."""
    clock.now += 60.0
    opened = await sessions.open_table(
        guild_id=guild,
        channel_id=channel,
        host_id=host,
        host_name=NAMES[host],
        options=options,
    )
    await sessions.set_message(opened, 9000 + channel)
    for member in members:
        await sessions.join(opened.id, member, NAMES[member])
    for _ in range(computers):
        await sessions.add_computer(opened.id, host)
    return opened.id


async def main() -> None:
    if OUT.exists():
        with sqlite3.connect(OUT) as db:
            (version,) = db.execute("PRAGMA user_version").fetchone()
        if version != 4:
            sys.exit(f"{OUT} is at schema {version}; this script writes schema 4 only")
        OUT.unlink()
    clock = Clock()
    seeds = iter((1111, 2222, 3333, 4444, 5555, 6666))
    store = await Store.open(OUT)
    sessions = Sessions(store, clock=clock, seed_source=lambda: next(seeds))
    rng = random.Random(4)
    try:
        expert = TableOptions(level="expert")
        first = await table(
            sessions, clock, guild=GUILD, channel=10, host=ALICE, options=expert, members=(BOB,)
        )
        await sessions.start(first, ALICE)
        await play(sessions, clock, first, rng)
        for post in ("deal1", "deal2", "deal3", "deal4", "end"):
            await store.posted(first, post)
        record = await store.game(first)
        assert record is not None
        await store.shown(first, len(record.moves))

        greedy = TableOptions(memory="open", level="greedy", turn_seconds=60)
        second = await table(
            sessions, clock, guild=GUILD, channel=11, host=CAROL, options=greedy, members=(ALICE,)
        )
        await sessions.start(second, CAROL)
        await play(sessions, clock, second, rng)
        for post in ("deal1", "deal2", "deal3", "deal4", "end", "table"):
            await store.posted(second, post)

        randoms = TableOptions(level="random", turn_seconds=300)
        third = await table(
            sessions, clock, guild=GUILD, channel=12, host=DAVE, options=randoms, members=(ALICE,)
        )
        await sessions.start(third, DAVE)
        await play(sessions, clock, third, rng, deals=1)
        await play(sessions, clock, third, rng, moves=5)  # a few members' moves into deal 2
        await store.shown(third, 20)

        fourth = await table(
            sessions, clock, guild=GUILD, channel=13, host=ERIN, options=expert, computers=1
        )
        fifth = await table(sessions, clock, guild=GUILD, channel=14, host=BOB, options=expert)
        await sessions.cancel(fifth, BOB, can_manage=False)

        sixth = await table(
            sessions, clock, guild=OTHER_GUILD, channel=20, host=ERIN, options=expert
        )
        await sessions.start(sixth, ERIN)
        await play(sessions, clock, sixth, rng)
        for post in ("deal1", "deal2", "deal3", "deal4", "end", "table"):
            await store.posted(sixth, post)

        clock.now += 60.0
        await store.set_defaults(GUILD, {"memory": "open", "turn_seconds": 60}, ALICE, clock())
        await store.set_defaults(OTHER_GUILD, {"pictures": False}, ERIN, clock())
        assert (first, second, third, fourth, fifth, sixth) == (1, 2, 3, 4, 5, 6)
    finally:
        await sessions.close()
        await sessions.scheduler.close()
        await store.close()
    with sqlite3.connect(OUT) as db:
        assert db.execute("PRAGMA user_version").fetchone() == (4,)
        db.execute("VACUUM")
    print(f"wrote {OUT} ({OUT.stat().st_size} bytes)")


if __name__ == "__main__":
    asyncio.run(main())
