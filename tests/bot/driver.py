"""Playing whole Dupe games through simcord: members click, the database is the truth.

A :class:`World` is a running simcord environment with one server, one channel and a bot on
a database (an SQLite file, or a PostgreSQL database). A :class:`Game` follows one table: it
reads the seed, seats and move log straight from the database (with a connection of its own,
as an operator would) and rebuilds the engine state with ``engine.dupe.replay`` to know who
must act; every action itself is a click on a message the member can see. Nothing sleeps on
the wall clock.
"""

from __future__ import annotations

import asyncio
import json
import random
import re
import sqlite3
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import discord
import simcord
from simcord.actors import _component_click, _dispatch_actor_interaction, _slash
from simcord.backend import serializers
from simcord.builders import ChannelHandle
from simcord.enums import ComponentType, InteractionType

from bot import ids
from bot.app import Bot
from engine.dupe import DupeOptions, DupeState, Move, replay
from tests.bot.helpers import buttons, enabled, make_bot
from tests.support import postgres
from tests.support.buttons import id_kind

Hand = simcord.ResponseMessage
Clickable = discord.Message | simcord.ResponseMessage

# kinds of Dupe buttons (tests.bot.helpers.id_kind)
PLAY = "play"
GIVE = "give"
GIVEOK = "giveok"


@dataclass(frozen=True, slots=True)
class MoveRow:
    """One row of the ``moves`` table."""

    ply: int
    seat: int
    move: str
    by_computer: bool


@dataclass(slots=True)
class World:
    """A running simcord environment: one server, one channel, a bot on ``db``."""

    env: simcord.Env
    db: Path | str  # an SQLite file, or the URL of a PostgreSQL database
    bot: Bot
    guild: simcord.GuildHandle
    channel: simcord.ChannelHandle
    seed: int = 1
    old_bots: list[Bot] = field(default_factory=list)
    left_unanswered: set[int] = field(default_factory=set)  # on purpose: too late, say

    def pin_seed(self, seed: int) -> None:
        """Make the bot deal every new table from ``seed`` (tests replay exact games)."""
        self.seed = seed
        self.bot.controller.tables.new_seed = lambda: seed

    def member(self, name: str, **kwargs: Any) -> simcord.MemberActor:
        """Return a new member of the server."""
        return self.guild.add_member(self.env.create_user(name), **kwargs)

    def members(self, *names: str) -> list[simcord.MemberActor]:
        """Return new members of the server."""
        return [self.member(name) for name in names]

    async def restart(self, **overrides: Any) -> Bot:
        """Stop the bot and start a new one on the same database file."""
        old = self.bot
        new = make_bot(self.db, **overrides)
        await self.env.restart_bot(new)
        self.old_bots.append(old)
        self.bot = new
        self.pin_seed(self.seed)
        return new

    def messages(self, viewer: simcord.MemberActor | None = None) -> list[discord.Message]:
        """Return the channel's messages, oldest first (as ``viewer`` sees them)."""
        return self.channel.history(viewer=viewer)

    def titled(self, prefix: str) -> list[discord.Message]:
        """Return the channel's messages whose first embed title starts with ``prefix``."""
        return [
            m for m in self.messages() if m.embeds and (m.embeds[0].title or "").startswith(prefix)
        ]

    def query(self, sql: str, params: Iterable[Any] = ()) -> list[tuple[Any, ...]]:
        """Run a read-only query on the bot's database (``?`` placeholders either way)."""
        if isinstance(self.db, str):
            return postgres.fetch(self.db, sql, params)
        with sqlite3.connect(f"file:{self.db}?mode=ro", uri=True) as db:
            return list(db.execute(sql, tuple(params)))


def ids_of(message: Clickable) -> list[str]:
    """Return the custom ids of a message's buttons."""
    return [b.custom_id or "" for b in buttons(message)]


def live_ids(message: Clickable, kind: str | None = None) -> list[str]:
    """Return the custom ids of a message's enabled buttons (of ``kind``, see
    :func:`~tests.bot.helpers.id_kind`)."""
    return [
        b.custom_id or "" for b in enabled(message) if kind is None or id_kind(b.custom_id) == kind
    ]


def description(message: Clickable) -> str:
    """Return the description of a message's first embed."""
    embeds = message.embeds
    return (embeds[0].description or "") if embeds else ""


def private_text(result: simcord.InteractionResult) -> str:
    """Return the text of a private reply (a new ephemeral message or an ephemeral followup)."""
    assert result.acknowledged, "the interaction was not answered: Discord would say it failed"
    response = result.response
    if response is not None and response.ephemeral:
        return response.content
    followups = [f for f in result.followups if f.ephemeral]
    assert followups, f"no private reply: {result!r}"
    return followups[-1].content


async def _together(
    env: simcord.Env, actions: Iterable[Awaitable[simcord.InteractionResult]]
) -> list[simcord.InteractionResult]:
    env._begin_operation("together")
    try:
        return list(await asyncio.gather(*actions))
    finally:
        env._end_operation()


async def click_together(
    *clicks: tuple[simcord.MemberActor, Clickable, str],
) -> list[simcord.InteractionResult]:
    """Deliver several clicks at the same moment (each a real click on a visible enabled
    button; the bot receives all of them before it has answered any)."""
    return await _together(
        clicks[0][0]._env,
        (_component_click(a, m, label=None, custom_id=c) for a, m, c in clicks),
    )


async def slash_together(
    *commands: tuple[simcord.MemberActor, simcord.ChannelHandle, str, dict[str, Any]],
) -> list[simcord.InteractionResult]:
    """Deliver several slash commands ``(member, channel, name, options)`` at once."""
    return await _together(
        commands[0][0]._env, (_slash(a, c, name, options) for a, c, name, options in commands)
    )


async def forge_click(
    actor: simcord.MemberActor, source: Clickable, custom_id: str, *, operation: bool = True
) -> simcord.InteractionResult:
    """Send a component interaction from ``actor`` with any ``custom_id``, as a modified
    client could: the interaction names ``source`` as its message, whose buttons are
    replaced by one button carrying ``custom_id`` (discord.py ignores a custom id that is
    not on the message). Used for forged ids and for buttons the member cannot see.
    ``operation`` false: inside an operation of several clicks at once (``_together``)."""
    env = actor._env
    backend = env.backend
    channel_id = (
        source.channel_id if isinstance(source, simcord.ResponseMessage) else source.channel.id
    )
    stored = backend.get_message(channel_id, source.id)
    payload = dict(serializers.message_payload(backend, stored))
    button = {"type": 2, "style": 2, "label": "forged", "custom_id": custom_id}
    payload["components"] = [{"type": 1, "components": [button]}]
    channel = ChannelHandle(env, actor.guild, backend.get_channel(channel_id))
    dispatched = _dispatch_actor_interaction(
        actor,
        InteractionType.MESSAGE_COMPONENT,
        channel,
        {"custom_id": custom_id, "component_type": ComponentType.BUTTON},
        extra={"message": payload},
        source_message_id=stored.id,
    )
    if not operation:
        return await dispatched
    env._begin_operation("click")
    try:
        return await dispatched
    finally:
        env._end_operation()


_STANDING = re.compile(r"^\d+\. [♠♥♣♦] (North|East|South|West) · .* — \*\*(-?\d+)\*\*", re.M)
SEAT_INDEX = {"North": 0, "East": 1, "South": 2, "West": 3}


def standings_totals(message: discord.Message) -> dict[int, int]:
    """Return ``seat -> total`` from a final-standings message."""
    return {SEAT_INDEX[name]: int(total) for name, total in _STANDING.findall(description(message))}


class Game:
    """One table, followed through its public message, members' hands and the database."""

    def __init__(
        self,
        world: World,
        game_id: int,
        message_id: int,
        channel: simcord.ChannelHandle | None = None,
    ) -> None:
        self.world = world
        self.channel = channel or world.channel
        self.id = game_id
        self.message_id = message_id
        self.hands: dict[int, Hand] = {}
        self.stale_notices = 0
        self.reopened = 0

    # --- opening -------------------------------------------------------------------

    @classmethod
    async def open(
        cls,
        world: World,
        host: simcord.MemberActor,
        channel: simcord.ChannelHandle | None = None,
        **options: Any,
    ) -> tuple[Game, simcord.InteractionResult]:
        """``/dupe start`` by ``host`` (in the world's channel unless ``channel``); return
        the table and the command's result."""
        channel = channel or world.channel
        result = await host.slash(channel, "dupe start", **options)
        response = result.response
        assert response is not None and not response.ephemeral, result
        return cls.from_lobby(world, response, channel), result

    @classmethod
    def from_lobby(
        cls, world: World, lobby: simcord.ResponseMessage, channel: simcord.ChannelHandle
    ) -> Game:
        """Return the table whose lobby message is ``lobby``."""
        button = next(i for i in ids_of(lobby) if isinstance(ids.parse(i), ids.TableButton))
        return cls(world, int(button.split(":")[1]), lobby.id, channel)

    # --- reading -------------------------------------------------------------------

    @property
    def message(self) -> discord.Message:
        """Return the public table message as it is now."""
        found = [m for m in self.channel.history() if m.id == self.message_id]
        assert found, "the table message is gone"
        return found[0]

    def row(self) -> dict[str, Any]:
        """Return the ``games`` row of this table."""
        cols = "seed, options, status, deadline, warned, message_id, host_id, end_reason"
        (values,) = self.world.query(f"SELECT {cols} FROM games WHERE id = ?", (self.id,))
        return dict(zip(cols.split(", "), values, strict=True))

    def seats(self) -> dict[int, tuple[int | None, str | None]]:
        """Return ``seat -> (user_id, level)`` as stored."""
        rows = self.world.query(
            "SELECT seat, user_id, level FROM seats WHERE game_id = ?", (self.id,)
        )
        return {seat: (user, level) for seat, user, level in rows}

    def moves(self) -> list[MoveRow]:
        """Return the move log, by ply."""
        rows = self.world.query(
            "SELECT ply, seat, move, by_computer FROM moves WHERE game_id = ? ORDER BY ply",
            (self.id,),
        )
        return [MoveRow(p, s, m, bool(c)) for p, s, m, c in rows]

    def options(self) -> DupeOptions:
        """Return the engine options stored for this table."""
        stored = json.loads(self.row()["options"])
        memory = stored.get("game", stored).get("memory", "strict")
        return DupeOptions(memory="open" if memory == "open" else "strict")

    def state(self) -> DupeState:
        """Return the engine state rebuilt from the stored seed and move log."""
        return replay(self.row()["seed"], self.options(), [row.move for row in self.moves()])

    def results(self) -> dict[int, tuple[int | None, int, float]]:
        """Return ``seat -> (user_id, score, win)`` from the ``results`` table."""
        rows = self.world.query(
            "SELECT seat, user_id, score, win FROM results WHERE game_id = ?", (self.id,)
        )
        return {seat: (user, score, win) for seat, user, score, win in rows}

    def seat_of(self, member: simcord.MemberActor) -> int:
        """Return the member's seat."""
        for seat, (user, _level) in self.seats().items():
            if user == member.id:
                return seat
        raise AssertionError(f"{member.name} is not seated")

    # --- acting --------------------------------------------------------------------

    async def press(self, member: simcord.MemberActor, label: str) -> simcord.InteractionResult:
        """Press a button of the public table message."""
        result = await member.click(self.message, label=label)
        assert result.acknowledged, result
        return result

    async def open_hand(self, member: simcord.MemberActor) -> Hand:
        """Press “My hand”; return the private hand message."""
        result = await self.press(member, "My hand")
        hand = result.response
        assert hand is not None and hand.ephemeral, result
        self.hands[member.id] = hand
        return hand

    async def click(self, member: simcord.MemberActor, custom_id: str) -> simcord.InteractionResult:
        """Click a button of the member's own hand message and check it was answered by an
        edit of that message."""
        hand = self.hands[member.id]
        result = await member.click(hand.message, custom_id=custom_id)
        assert result.acknowledged, result
        assert result.response is not None and result.response.id == hand.id, result
        if hand.content.startswith("⚠️"):
            self.stale_notices += 1
        return result

    async def give_steps(self, member: simcord.MemberActor, rng: random.Random, steps: int) -> None:
        """As taker, press ``steps`` distribution steps (each to a random free seat)."""
        for _ in range(steps):
            options = live_ids(self.hands[member.id], GIVE)
            assert options, self.hands[member.id].content
            await self.click(member, rng.choice(options))

    async def decide(
        self, member: simcord.MemberActor, rng: random.Random, *, strict: bool = False
    ) -> None:
        """Make the member's pending decision by clicks: a random card, or as taker a
        random distribution and Confirm. ``strict``: the member's current hand message
        must already show the decision (no reopening, no stale notice)."""
        before = len(self.moves())
        for _attempt in range(8):
            hand = self.hands.get(member.id)
            if hand is None:
                assert not strict, f"{member.name} has no hand message"
                self.reopened += 1
                hand = await self.open_hand(member)
            cards = live_ids(hand, PLAY)
            confirm = live_ids(hand, GIVEOK)
            steps = live_ids(hand, GIVE)
            if cards:
                await self.click(member, rng.choice(cards))
            elif confirm:
                await self.click(member, confirm[0])
            elif steps:
                await self.click(member, rng.choice(steps))
                continue
            else:
                assert not strict, f"{member.name}'s hand shows nothing to do:\n{hand.content}"
                self.hands.pop(member.id)
                continue
            if len(self.moves()) > before:
                if strict:
                    assert self.stale_notices == 0, hand.content
                return
            assert not strict, f"{member.name}'s click changed nothing:\n{hand.content}"
        raise AssertionError(f"{member.name} could not make their decision")

    async def play(
        self,
        members: Iterable[simcord.MemberActor],
        rng: random.Random,
        *,
        until: Callable[[DupeState], bool] = lambda state: state.is_over,
        strict: bool = False,
    ) -> DupeState:
        """Let the members decide, in random order, until ``until(state)``; return the
        state then."""
        by_seat = {self.seat_of(m): m for m in members}
        while True:
            state = self.state()
            if until(state) or state.is_over:
                return state
            waiting = [s for s in state.to_act if s in by_seat]
            assert waiting, f"nobody can act: {state!r} to_act={state.to_act}"
            await self.decide(by_seat[rng.choice(waiting)], rng, strict=strict)

    # --- checking ------------------------------------------------------------------

    def assert_log_replays(self) -> DupeState:
        """Check the finished game's move log: plies 0..n-1, every row's seat is its move's
        seat, 52 card choices per seat, and it replays to the end (so no move is missing
        or doubled: a repeated choice or distribution would be illegal)."""
        rows = self.moves()
        assert [r.ply for r in rows] == list(range(len(rows)))
        assert all(Move.parse(r.move).seat == r.seat for r in rows)
        plays = [r for r in rows if "," not in r.move]
        for seat in range(4):
            assert sum(1 for r in plays if r.seat == seat) == 52
        state = self.state()
        assert state.is_over
        return state
