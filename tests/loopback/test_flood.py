"""A click answered after Discord gave up has no effect, all of it counted: one member floods
their table with clicks at once while another table's member plays a card. The age of a
click counts every wait in the bot (for its table's lock, a connection, the event loop),
and a move is committed only while its answer can still reach Discord in time: so a click
answered late (or not at all) changed nothing, and every move committed was answered."""

from __future__ import annotations

import asyncio
import re
import sqlite3
from pathlib import Path
from typing import Any

from bot import ids
from bot.config import Settings
from tests.loopback.driver import BotProcess, ChannelHandle, LoopbackDiscord, MemberActor
from tests.loopback.fake_discord import DEFERRED_UPDATE, UPDATE_MESSAGE, FakeDiscord, Interaction
from tests.loopback.pace import Pace

FLOOD = 300
LATE = Settings.model_fields["late_interaction_seconds"].default  # the bot's own: 2.5 s
ANSWER_SECONDS = 0.025  # what the busy Discord takes per interaction answer, one at a time


class _BusyDiscord(FakeDiscord):
    """The loopback Discord, answering interaction callbacks one at a time, each taking
    ``ANSWER_SECONDS`` (a Discord under load): in a flood, answers queue, and one sent a
    moment after its press may arrive after the 3 s."""

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        self._answering = asyncio.Lock()
        self.queued = 0  # callbacks waiting for their turn

    async def _callback(self, request: Any) -> tuple[int, Any]:
        self.queued += 1
        try:
            async with self._answering:
                await asyncio.sleep(ANSWER_SECONDS)
        finally:
            self.queued -= 1
        return await super()._callback(request)


_CALLBACK = re.compile(r"^/interactions/(\d+)/[^/]+/callback$")


async def _table(member: MemberActor, channel: ChannelHandle) -> tuple[int, int]:
    """Open a Dupe table of the member and three computers in ``channel`` and start it;
    return its id and the member's private hand message."""
    lobby = await member.slash(channel, "dupe start", computers="random")
    started = await member.click(lobby, label="Start")
    assert started.message is not None
    hand = await member.click(started.message, label="My hand")
    assert hand.message is not None and hand.ephemeral
    game_id = next(
        parsed.table
        for parsed in map(ids.parse, started.message.custom_ids())
        if isinstance(parsed, ids.TableButton)
    )
    return game_id, hand.message.id


def _members_moves(bot: BotProcess, game_id: int) -> int:
    with sqlite3.connect(f"file:{bot.database}?mode=ro", uri=True) as db:
        query = "SELECT count(*) FROM moves WHERE game_id = ? AND by_computer = 0"
        return int(db.execute(query, (game_id,)).fetchone()[0])


def _card_click(discord: LoopbackDiscord, member: MemberActor, hand_id: int) -> Interaction:
    server = discord.server
    message = server.messages[hand_id]
    view = member.privates()[-1] if member.privates()[-1].id == hand_id else None
    assert view is not None
    card = view.custom_ids(kind="play")[0]
    return server.component_interaction(message.channel_id, member.id, hand_id, card)


async def test_a_flood_on_one_table_leaves_no_move_unanswered_at_another(
    tmp_path: Path,
) -> None:
    # Bodies are checked by every other loopback test: unchecked here, the server's share
    # of the two cores stays small (other tests run beside this one).
    server = _BusyDiscord(validate=False, pace=Pace())
    await server.start()
    discord = LoopbackDiscord(server, action_timeout=60.0)
    try:
        guild = discord.create_guild("Dupe Club")
        alice, bob = guild.add_member("alice"), guild.add_member("bob")
        second = guild.create_channel("dupe-2")
        async with discord.bot_process(
            tmp_path, log_level="WARNING", late_interaction_seconds=LATE
        ) as bot:
            flooded, alice_hand = await _table(alice, guild.channel)
            other, bob_hand = await _table(bob, second)
            await discord.settle()
            # Every click is built on the hands as they are now, then all are sent at once.
            flood = [_card_click(discord, alice, alice_hand) for _ in range(FLOOD)]
            bobs = _card_click(discord, bob, bob_hand)
            for n, interaction in enumerate(flood):
                server.dispatch(interaction)
                if n == FLOOD // 2:
                    server.dispatch(bobs)
            # Until the bot is done: no answer queued, and nothing sent for a second.
            for _ in range(60):
                await discord.settle(quiet=1.0, timeout=120.0)
                if not server.queued:
                    break
            assert not server.queued

            callbacks: dict[int, list[tuple[int, int, str]]] = {}
            for record in server.requests:
                found = _CALLBACK.match(record.path)
                if found and isinstance(record.body, dict):
                    content = str((record.body.get("data") or {}).get("content") or "")
                    kind = int(record.body.get("type") or 0)
                    callbacks.setdefault(int(found[1]), []).append((record.status, kind, content))

            def answered(interaction: Interaction) -> bool:
                return any(200 <= s < 300 for s, _, _ in callbacks.get(interaction.id, []))

            # Bob's card counts exactly when his click was answered in time.
            assert _members_moves(bot, other) == (1 if answered(bobs) else 0), (
                callbacks.get(bobs.id),
                bobs.responded,
            )
            # Every move's answer (the hand, not a refusal) reached Discord in time. (A
            # press acknowledged before its commit, a deferred update, was committed only
            # once Discord took the acknowledgement.)
            moves_answered = [
                status
                for i in [*flood, bobs]
                for status, kind, content in callbacks.get(i.id, [])
                if kind == UPDATE_MESSAGE and content[:1] != "⚠"
            ]
            assert all(200 <= status < 300 for status in moves_answered), moves_answered
            assert _members_moves(bot, flooded) <= 1  # one card a trick: the rest refused
            late = sum(1 for i in [*flood, bobs] if not answered(i))
            deferred = [s for c in callbacks.values() for s, k, _ in c if k == DEFERRED_UPDATE]
            print(
                f"{late} of {FLOOD + 1} clicks unanswered or answered too late;",
                f"{len(deferred)} acknowledged before their commit;",
                f"bob's answers: {[(s, k) for s, k, _ in callbacks.get(bobs.id, [])]}",
            )
        assert bot.errors() == [], bot.log_tail()
    finally:
        for process in discord.processes:
            await process.stop()
        await server.close()
