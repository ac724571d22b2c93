"""Crash recovery under ``kill -9``, 429s and gateway drops: whole games of scripted members
against the bot as a subprocess. The game is a parameter (``CrashConfig.game``): a
:class:`CrashGame` adapter says what runs (``python -m bot``, or a launcher of the tests such
as ``tests.support.highcard.run_bot``), how a table is opened, how a member decides from its
private hand, how a told move is recognised in the bot's answer, which kinds of kill apply
and how a logged move's decision is named; the database is replayed through
``engine.games`` (``Game.replay``, ``State.result()``). What follows describes Dupe
(:data:`DUPE`); high card (:data:`HIGH_CARD`) is two members, three tricks, a card each,
and kills of the kinds ``requests``, ``in-flight``, ``db-write`` and ``game-end``; whist
(:data:`WHIST`, a Humbug rubber, or :class:`WhistCrash` of another variant) is a unit of a
varying number of deals, with kills of the kinds ``requests``, ``in-flight``, ``db-write``
and ``scoring``; Dukes Up! (:data:`DUKES_UP`) is two members playing matches through their
private panels (buttons, select menus: many logged actions a turn, on a working copy), with
kills of every kind Dupe has (``give-step`` comes in the middle of a choice of steps), and
after each restart the first panel a mover gets is checked against the replay of the log.

::

    async with LoopbackDiscord.start() as discord:
        report = await run_crash(discord, tmp_path, CrashConfig(games=2, kills=10, seed=1))
    assert report.problems == [], report.tally()

Each game is opened with ``/dupe start`` (computers "none", one hour per decision), the three
other members press Join and the host Start; then each member plays as fast as the bot
answers: it opens “My hand” and presses a card of its private hand, or, as taker, the
distribution steps and Confirm. A member records a move as *told* only when the bot's answer
(the body of the interaction callback, as the member's client would render it) proves it:
its hand shows “You chose **10♠**”, the revealed trick with that card in its seat, or the
game past that decision (and, where the answer shows it, the trick with that card or that
distribution).

Kills (SIGKILL) come at moments drawn from ``random.Random(seed)``, spaced over the games by
counting the members' clicks (at the rate the games have progressed so far), each of one
kind:

* ``requests`` — after a random number of further requests the bot makes;
* ``in-flight`` — a few milliseconds after a member's click was dispatched (the click is then
  usually lost with the process: the member gets no answer, as on Discord, and retries it on
  the same old button after the restart);
* ``db-write`` — while the bot holds SQLite's write lock for the move a click makes (a thread
  watches the lock byte of the ``-shm`` file with ``F_GETLK``, which takes no lock, and
  kills the process the moment it is held); if the write is over before the watcher saw it,
  the kill comes as the answer arrives;
* ``give-step`` — in the middle of a taker's distribution, right after a step was answered;
* ``scoring`` — at the end of a deal (the next trick-13 click of any game, while the other
  kinds go on): during the write of the click that completes the deal, or right after the bot
  posted a deal's scoring or the final standings.

With ``stagger`` the games start some tricks apart, so that their deals end at different
times.

After each kill a new process starts on the same database (the restart time, process start
to ready, is recorded) and the members carry on: a member whose click was lost presses the
same old button again; every member re-opens “My hand” when it needs to, since the new
process cannot edit hand messages it did not answer. With ``clicks_while_down`` a member
clicks while the bot is dead: that click is lost (no session carries it to the next process),
and every later click must be answered.

Afterwards :func:`verify_database` reads the database (the SQLite file, or the PostgreSQL
database of ``CrashConfig.database``): each told move is logged exactly
once, for the decision it was made in; no decision has two moves; every logged move is one a
member pressed; each game is finished and its stored scores equal the engine's replay;
``PRAGMA integrity_check`` is ok; and the leaderboard (and the ratings) count each game once
per player. The report also counts the clicks lost with a process (and whether their move
had been committed), the hands a member found behind the table (edited late, or never), and
the scoring posts lost with a process, each timed against the commit of its deal's last move.

Linux only: the write-lock watcher asks ``fcntl(F_GETLK)`` with Linux's 64-bit
``struct flock``. On PostgreSQL a ``db-write`` kill holds ``games`` in SHARE mode from just
before its click goes out, so that the move's write stops there (seen in
``pg_stat_activity``, or for a game's last move in ``pg_locks``), and kills then.
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import json
import os
import random
import re
import signal
import sqlite3
import statistics
import struct
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot import games as bot_games
from bot import ids
from bot.store import SQLiteStore, open_store
from bot.tables import TableOptions, engine_options, game_fields
from engine import games as engine_games
from engine.cards import Card, by_suit, parse_card
from engine.dupe import SEAT_LETTERS, Phase
from tests.loopback.driver import (
    BotProcess,
    ChannelHandle,
    GuildHandle,
    LoopbackDiscord,
    MemberActor,
    MessageView,
)
from tests.loopback.fake_discord import (
    CHANNEL_MESSAGE,
    DEFERRED_UPDATE,
    UPDATE_MESSAGE,
    Interaction,
)

__all__ = [
    "CRASH_GAMES",
    "DOPPELKOPF",
    "DOPPELKOPF_MODES",
    "DUKES_UP",
    "DUKES_UP_MODES",
    "DUPE",
    "HIGH_CARD",
    "HIGH_CARD_MODES",
    "MODES",
    "WHIST",
    "WHIST_MODES",
    "CrashConfig",
    "CrashGame",
    "CrashReport",
    "DbCheck",
    "DukesUpCrash",
    "KillRecord",
    "WhistCrash",
    "run_crash",
    "verify_database",
]

# Kinds of button (driver.id_kind): a card, a distribution step, Confirm, “My hand”.
PLAY, GIVE, GIVE_OK, HAND = "play", "give", "giveok", "hand"
TRICKS = 13

MODES: dict[str, float] = {
    "requests": 0.2,
    "in-flight": 0.2,
    "db-write": 0.25,
    "give-step": 0.15,
    "scoring": 0.2,
}
"""The kinds of kill and how often each is drawn (Dupe's; each game has its own,
:attr:`CrashGame.modes`)."""

HIGH_CARD_MODES: dict[str, float] = {
    "requests": 0.25,
    "in-flight": 0.25,
    "db-write": 0.25,
    "game-end": 0.25,
}
"""High card's kinds of kill: no distribution, and its one round ends with the game."""

# Clicks a trick takes without kills (4 plays, mostly a 5-click distribution, “My hand”
# openings); the first guess of the rate at which games progress, to spread the kills.
CLICKS_PER_TRICK = 9.2

_HEADER = re.compile(r"· deal (\d) of 4 · trick (\d+) of 13")
_REVEALED = re.compile(r"^Revealed: N (\S+) · E (\S+) · S (\S+) · W (\S+)$", re.M)
_TRICK_LINE = re.compile(r"^Trick (\d+): N (\S+) · E (\S+) · S (\S+) · W (\S+)$", re.M)
_GAVE = re.compile(r"took it and gave: N (\S+), E (\S+), S (\S+), W (\S+)")
_WAITING = re.compile(r"Waiting for: ([A-Za-z, ]+)")
_SEAT_WORDS = ("North", "East", "South", "West")

# SQLite's WAL write lock: byte 120 of the -shm file, held exclusively by a writer.
_WAL_WRITE_LOCK = 120
_FLOCK = "hhqqi4x"  # struct flock on 64-bit Linux: l_type, l_whence, l_start, l_len, l_pid


def _turn(deal: int, trick: int, tricks: int = TRICKS) -> int:
    return (deal - 1) * tricks + (trick - 1)


def _cards(texts: tuple[str, ...]) -> list[Card]:
    return [parse_card(t) for t in texts]


def _control(custom_id: str) -> ids.Control:
    parsed = ids.parse(custom_id)
    assert isinstance(parsed, ids.Control), custom_id
    return parsed


# --- configuration and results ------------------------------------------------------------


@dataclass(slots=True)
class CrashConfig:
    """What to run: ``games`` tables at once, ``kills`` SIGKILLs spread over them, faults."""

    games: int = 2
    kills: int = 10
    seed: int = 0
    game: str | CrashGame = "dupe"  # a name of CRASH_GAMES, or an adapter
    modes: dict[str, float] | None = None  # the kinds of kill drawn (None: the game's own)
    cover_modes: bool = False  # draw the modes as a shuffled deck: every one in each round
    share_429: float = 0.0  # share of REST requests answered 429 during play
    gateway_drops: int = 0  # gateway connections cut (resumable) during play
    clicks_while_down: int = 0  # clicks dispatched while the bot is dead (at the first kills)
    turn_seconds: int = 3600  # per decision: no computer ever decides for a member
    action_timeout: float = 10.0  # how long a click may wait for its answer while the bot runs
    stall_timeout: float = 2.0  # a member that sees nothing change for this long re-opens its hand
    late_timeout: float = 10.0  # ... unless the table is ahead of its hand: then it waits more
    ready_timeout: float = 30.0
    memory: str = "strict"  # Dupe's
    stagger: int = 0  # game n+1 starts when game n is past this many tricks (0: all at once)
    start_options: dict[str, Any] = field(default_factory=dict)  # more /<game> start options
    # A PostgreSQL URL (an empty database) the bot uses instead of its SQLite file; then
    # ``db-write`` kills come while the move's write holds its lock on ``moves``.
    database: str | None = None
    # Whether each bot process draws in a child process (as deployed) or in a thread: a
    # killed bot's drawing process must go too, but spawning one for each of dozens of
    # restarts costs the suite a core-second each.
    drawing_process: bool = True

    @property
    def crash_game(self) -> CrashGame:
        """The game played, as an adapter."""
        return CRASH_GAMES[self.game] if isinstance(self.game, str) else self.game

    @property
    def kill_modes(self) -> dict[str, float]:
        """The kinds of kill drawn and their weights."""
        return dict(self.crash_game.modes if self.modes is None else self.modes)


@dataclass(slots=True)
class Expect:
    """The move a click makes, if it succeeds, and the decision it belongs to."""

    seat: int
    move: str
    deal: int
    trick: int
    phase: str  # "choose" or "distribute"
    card: Card | None = None  # a play
    given: tuple[Card, ...] | None = None  # a distribution: given[seat]
    held: int = 0  # copies of ``card`` in the hand pressed on (Doppelkopf's double pack)
    tricks: int = TRICKS  # decision points in a round (the game's ``CrashGame.tricks``)

    @property
    def turn(self) -> int:
        return _turn(self.deal, self.trick, self.tricks)

    @property
    def key(self) -> tuple[int, int, str, int]:
        return (self.deal, self.trick, self.phase, self.seat)


@dataclass(slots=True)
class Told:
    game: int  # the database id
    expect: Expect
    interaction_id: int


@dataclass(slots=True)
class KillRecord:
    number: int
    trigger: str  # one of MODES
    moment: str  # in-flight click, during a DB write, mid-scoring, mid-distribution, ...
    lock_held: bool = False  # SQLite's write lock was held when the signal was sent
    lost: list[int] = field(default_factory=list)  # interactions in flight at the kill
    states: list[str] = field(default_factory=list)  # each game's state after the kill
    restart_seconds: float = 0.0
    at: float = 0.0  # monotonic, when the signal was sent
    wall: float = 0.0  # time.time(), when the signal was sent (the bot's clock for commits)
    ready_at: float = 0.0  # monotonic, when the next process was ready


@dataclass(slots=True)
class DbCheck:
    """What :func:`verify_database` found."""

    games_finished: int = 0
    games: int = 0
    moves_logged: int = 0
    member_moves_logged: int = 0
    told: int = 0
    told_found_once: int = 0
    duplicates: int = 0  # decisions with more than one move, or a told move logged twice
    unpressed: int = 0  # logged moves no member pressed
    replay_mismatches: int = 0
    integrity: str = ""
    leaderboard_ok: bool = False
    # Clicks lost with the process (no answer), by what became of their move:
    lost_committed: int = 0  # committed before the kill; the retry was refused
    lost_retried: int = 0  # not committed; the retry after the restart made it
    lost_dropped: int = 0  # never logged
    problems: list[str] = field(default_factory=list)


@dataclass(slots=True)
class CrashReport:
    config: CrashConfig
    kills: list[KillRecord]
    db: DbCheck
    told: int
    clicks: int
    lost_clicks: list[int]  # interaction ids: in flight at a kill, never answered
    # in flight at a kill, answered all the same: the callback was on its way at the signal
    # (the member had stopped waiting, so no move of these counts as told)
    answered_at_kill: list[int]
    clicks_while_down: list[int]  # interaction ids: dispatched while the bot was dead
    unexpected_unanswered: list[str]
    restart_seconds: list[float]
    injected_429: int
    gateway_drops: int
    resumes: int
    scoring_posts: dict[str, Any]  # expected, posted, missing, duplicated, lost_after
    stalls: int  # times a member saw nothing change for stall_timeout and re-opened its hand
    stale_hands: int  # times a hand showed an earlier decision than the table and stayed so
    late_hands: int  # times a hand behind the table was edited only after stall_timeout
    refusals: int  # clicks answered with a “⚠️” notice (stale buttons, retries)
    seconds: float
    problems: list[str]
    # killed processes whose drawing process was being spawned at the kill (its traceback,
    # ``EOFError`` reading its start-up data from the dead parent, is not the bot's error)
    spawns_cut_off: int = 0
    checks: dict[str, int] = field(default_factory=dict)  # the game's own (check_answer)

    def tally(self) -> str:
        """The figures, one per line."""
        game = self.config.crash_game
        lines = [
            f"run: {self.config.games} games of {game.name}, seed {self.config.seed}, "
            f"{self.seconds:.1f} s"
        ]
        lines.append(f"kills: {len(self.kills)} of {self.config.kills} planned")
        by_trigger = Counter(k.trigger for k in self.kills)
        lines.append("  by trigger: " + _counts(by_trigger, list(game.modes)))
        by_moment = Counter(k.moment for k in self.kills)
        lines.append("  by moment: " + _counts(by_moment))
        held = sum(k.lock_held for k in self.kills)
        lines.append(f"  with the move's write under way (its lock held) at the signal: {held}")
        states = Counter(s for k in self.kills for s in k.states if s != "finished")
        lines.append("  tables at the kills: " + _counts(states))
        lines.append(
            f"clicks: {self.clicks}; lost with the process: {len(self.lost_clicks)} (and "
            f"{len(self.answered_at_kill)} answered as the signal went); clicked while down: "
            f"{len(self.clicks_while_down)}; unanswered otherwise: "
            f"{len(self.unexpected_unanswered)}"
        )
        lines.append(
            f"  lost moves committed before the kill: {self.db.lost_committed}; not committed "
            f"and made by the retry: {self.db.lost_retried}; never logged: {self.db.lost_dropped}"
        )
        lines.append(
            f"drawing processes cut off while being spawned by a killed bot: {self.spawns_cut_off}"
        )
        lines.append(
            f"refused (stale button or retry): {self.refusals}; stalls (nothing changed for "
            f"{self.config.stall_timeout:g} s): {self.stalls}, of which the hand behind the "
            f"table and edited late: {self.late_hands}, never edited: {self.stale_hands}"
        )
        lines.append(f"games finished: {self.db.games_finished} of {self.db.games}")
        lines.append(
            f"moves: told {self.told}, logged {self.db.moves_logged} (by members "
            f"{self.db.member_moves_logged}); told and logged exactly once "
            f"{self.db.told_found_once}"
        )
        lines.append(
            f"duplicates: {self.db.duplicates}; logged but never pressed: {self.db.unpressed}"
        )
        lines.append(f"replay mismatches: {self.db.replay_mismatches}")
        lines.append(f"integrity_check: {self.db.integrity}")
        lines.append(f"leaderboard (and ratings) count each game once: {self.db.leaderboard_ok}")
        posts = self.scoring_posts
        lines.append(
            f"scoring posts: {posts.get('posted', 0)} of {posts.get('expected', 0)} "
            f"(missing {posts.get('missing', 0)}, duplicated {posts.get('duplicated', 0)}; "
            f"sent again after a restart and answered with the first by enforce_nonce: "
            f"{posts.get('nonce_repeats', 0)})"
        )
        lines.append(
            f"table messages showing the game over: {posts.get('tables_over', 0)} of "
            f"{self.config.games}"
        )
        lost_after = posts.get("lost_after") or []
        if lost_after:
            lines.append(
                "  each missing post (and table message not at the end) lost to a kill "
                f"{min(lost_after):.2f}–{max(lost_after):.2f} s (median "
                f"{statistics.median(lost_after):.2f} s) after its deal's last move was committed"
            )
        if self.restart_seconds:
            times = self.restart_seconds
            p90 = sorted(times)[int(0.9 * (len(times) - 1))]
            lines.append(
                f"restart (process start to ready): median {statistics.median(times):.2f} s, "
                f"p90 {p90:.2f} s, max {max(times):.2f} s"
            )
        if self.config.share_429 or self.config.gateway_drops:
            lines.append(
                f"faults: {self.injected_429} injected 429s, {self.gateway_drops} gateway "
                f"drops, {self.resumes} resumes"
            )
        for what, count in self.checks.items():
            lines.append(f"checked: {what}: {count}")
        lines.append(f"problems: {len(self.problems)}")
        lines += [f"  {p}" for p in self.problems[:30]]
        return "\n".join(lines)


def _counts(counter: Counter[str], order: list[str] | None = None) -> str:
    keys = order or sorted(counter)
    return ", ".join(f"{k} {counter.get(k, 0)}" for k in keys) or "none"


# --- the SQLite write-lock watcher ----------------------------------------------------------


def _write_lock_holder(fd: int) -> int:
    """Return the pid holding the WAL write lock of the -shm file ``fd`` (0: none). F_GETLK
    only asks; it takes no lock."""
    query = struct.pack(_FLOCK, fcntl.F_WRLCK, os.SEEK_SET, _WAL_WRITE_LOCK, 1, 0)
    answer = fcntl.fcntl(fd, fcntl.F_GETLK, query)
    kind, _whence, _start, _length, pid = struct.unpack(_FLOCK, answer)
    return 0 if kind == fcntl.F_UNLCK else pid


def _kill_when_writing(shm: Path, pid: int, stop: threading.Event, limit: float) -> bool:
    """Poll the write lock; SIGKILL ``pid`` the moment it holds it. Return whether it did."""
    try:
        fd = os.open(shm, os.O_RDONLY)
    except OSError:
        return False
    try:
        deadline = time.monotonic() + limit
        while not stop.is_set() and time.monotonic() < deadline:
            if _write_lock_holder(fd) == pid:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGKILL)
                return True
            time.sleep(0.00002)
        return False
    finally:
        os.close(fd)


# --- games and members ------------------------------------------------------------------------


@dataclass(eq=False)
class Game:
    number: int
    channel: ChannelHandle
    members: list[MemberActor]
    table_message_id: int = 0
    game_id: int = 0
    clicks: int = 0
    turns_done: int = 0  # tricks past which a told move shows the game has got
    over_seen: bool = False
    # rounds the answers show scored, where a game's decisions per round vary (Dukes Up!'s);
    # None: counted as ``turns_done // tricks``
    rounds_done: int | None = None


@dataclass(slots=True)
class Pick:
    message_id: int
    custom_id: str
    kind: str  # hand, play, give, confirm
    expect: Expect | None = None
    trick: int = 0
    values: tuple[str, ...] = ()  # a select menu's chosen values (None: a button)


def _hand_pick(game: Game) -> Pick:
    """“My hand” on the game's table message."""
    return Pick(game.table_message_id, ids.table_button(game.game_id, "hand"), "hand")


class Player:
    """One scripted member at one table."""

    def __init__(self, harness: Harness, game: Game, member: MemberActor) -> None:
        self.h = harness
        self.game = game
        self.member = member
        self.rng = random.Random(harness.rng.randrange(1 << 32))
        self.hand_id: int | None = None
        self.retry: Pick | None = None
        self.stale = True  # the bot cannot refresh our hand message: re-open it
        self.answered_in = 0  # the generation (bot process) that answered our last click
        self.done = False
        self.notes: dict[str, Any] = {}  # what the member remembers (the game's adapter's)

    @property
    def server(self) -> Any:
        return self.h.server

    async def run(self) -> None:
        while not self.done:
            await self.h.wait_up()
            if self.retry is not None:
                await self.press(self.retry)
                continue
            view = self._hand()
            if view is not None and self.h.game.is_over(view.content):
                self.done = True
                break
            pick = self.decide(view) if view is not None else None
            if pick is not None:
                await self.press(pick)
            elif self.stale or view is None or self.answered_in != self.h.generation:
                # A new process cannot edit a hand message it did not answer.
                await self.open_hand()
            else:
                await self.wait_change(view)

    def _hand(self) -> MessageView | None:
        if self.hand_id is None:
            return None
        message = self.server.messages.get(self.hand_id)
        return MessageView.of(message) if message is not None else None

    async def open_hand(self) -> None:
        await self.press(_hand_pick(self.game))

    def decide(self, view: MessageView) -> Pick | None:
        """The control to press on our hand, and the move it makes (the game's own)."""
        return self.h.game.decide(self, view)

    async def wait_change(self, view: MessageView) -> None:
        """Wait until our hand is edited, the bot restarts or the game ends; after
        ``stall_timeout`` seconds of nothing, re-open the hand."""
        generation = self.h.generation
        hand_id, edits = view.id, view.edits

        def changed() -> bool:
            message = self.server.messages.get(hand_id)
            return (
                self.h.generation != generation
                or (message is not None and message.edits != edits)
                or self.game.over_seen
            )

        try:
            await self.server.wait_for(
                changed, timeout=self.h.config.stall_timeout, what="a change of the hand"
            )
        except TimeoutError:
            self.stale = True
            if self.h.up.is_set():
                self.h.stalls += 1
                if self._behind_table(hand_id):
                    await self._wait_for_late_edit(changed, hand_id)
        if self.h.generation != generation or self.game.over_seen:
            self.stale = True

    async def _wait_for_late_edit(self, changed: Callable[[], bool], hand_id: int) -> None:
        """The table has moved on but our hand has not: give the bot ``late_timeout`` more
        seconds to edit it (a late edit is slow, a missing one is a bug), then re-open it."""
        try:
            await self.server.wait_for(
                changed, timeout=self.h.config.late_timeout, what="a late edit of the hand"
            )
        except TimeoutError:
            if self.h.up.is_set():
                self.h.stale_hands += 1
                self.h.stale_notes.append((hand_id, time.monotonic()))
        else:
            self.h.late_hands += 1

    def _behind_table(self, hand_id: int) -> bool:
        """Whether our hand message shows an earlier decision than the public table."""
        hand = self.server.messages.get(hand_id)
        table = self.server.messages.get(self.game.table_message_id)
        if hand is None or table is None or not table.embeds:
            return False
        title = str(table.embeds[0].get("title") or "")
        description = str(table.embeds[0].get("description") or "")
        return self.h.game.behind_table(hand.content, title, description)

    async def press(self, pick: Pick) -> None:
        """Click; read the answer; record a told move."""
        server = self.server
        try:
            channel = self.game.channel.id
            interaction = server.component_interaction(
                channel, self.member.id, pick.message_id, pick.custom_id
            )
            _choose(interaction, pick)
        except LookupError:
            # The button is gone (the message was edited since): look again.
            self.retry = None
            if pick.kind == "hand":
                self.done = True  # the table message has no “My hand”: the game is over
                self.game.over_seen = True
            else:
                self.stale = True
            return
        body, generation = await self.h.click(interaction, pick, self.game)
        if body is None:  # lost with the process: press the same button after the restart
            self.retry = pick
            self.stale = True
            return
        self.retry = None
        self.stale = False
        self.answered_in = generation
        kind = body.get("type")
        data = body.get("data") or {}
        content = str(data.get("content") or "")
        is_hand = self.h.game.is_hand(content) or self.h.game.is_over(content)
        if kind == UPDATE_MESSAGE and is_hand:
            self.hand_id = pick.message_id
        elif kind == CHANNEL_MESSAGE and is_hand:
            self.hand_id = interaction.original_message_id
        elif "game is over" in content:
            self.done = True
            self.game.over_seen = True
            return
        else:
            self.h.problems.append(
                f"game {self.game.game_id}, {self.member.name}: unexpected answer to "
                f"{pick.custom_id}: type {kind}, {content[:200]!r}"
            )
            self.stale = True
            return
        if "⚠️" in content:
            self.h.refusals += 1
        if self.h.game.is_over(content):
            self.game.over_seen = True
            self.done = True
        self.h.game.check_answer(self, data, generation)
        if pick.expect is not None and self.h.game.told_answer(self, pick.expect, data):
            self.h.told.append(Told(self.game.game_id, pick.expect, interaction.id))
            self.game.turns_done = max(self.game.turns_done, pick.expect.turn)


def _rounds_done(game: Game, crash: CrashGame) -> int:
    """How many rounds ``game`` has scored, as far as the members have seen."""
    if game.rounds_done is not None:
        return game.rounds_done
    return game.turns_done // crash.tricks


def _choose(interaction: Interaction, pick: Pick) -> None:
    """Put the pick's chosen values into a select menu's interaction, as Discord sends them."""
    if pick.values:
        interaction.data["values"] = list(pick.values)


# --- the games: what the harness knows of each -----------------------------------------------


class CrashGame:
    """What the crash harness needs to know of one game; everything else is the game-agnostic
    core's (the lobby, “My hand”, controls ``g:<table>:<seat>:<turn>:<payload>``, the move
    log, ``Game.replay``, ``State.result()``, the leaderboard).

    A game is played in *rounds* (Dupe's deals) of ``tricks`` decision points each; an
    :class:`Expect` names a decision by ``(deal, trick, phase, seat)`` — round, decision
    point in it from 1, the game's word for the kind of decision, seat — and
    :meth:`decision` names the decision a logged move was made in the same way, from the
    replayed state before it. ``end_mode`` is the kind of kill that comes at the end of a
    round (during the write of the click that ends it, or right after its post).
    """

    name: str  # the game's name in engine.games, bot.games and the leaderboard
    module: str  # what ``python -m`` runs: the bot, or a launcher that registers the game
    command: str  # the slash command that opens a table
    seats: int
    rounds: int  # scored rounds in a game (an estimate, if not ``fixed_length``)
    fixed_length: bool = True  # every game scores ``rounds`` rounds (whist's rubbers vary)
    tricks: int  # decision points (tricks) in a round
    clicks_per_trick: float  # the first guess of clicks a trick takes, to spread the kills
    min_kill_gap: int = 3  # clicks at least between one kill and the next
    kills_done_by: float = 0.6  # the share of the clicks by which to be done with the kills
    # tricks told (over all games) before the rate seen so far replaces clicks_per_trick
    # (None: never)
    rate_after: int | None = 8
    max_requests: int = 60  # a ``requests`` kill comes after 1 to this many bot requests
    modes: Mapping[str, float]  # the kinds of kill that apply and how often each is drawn
    end_mode: str  # the kind of kill at the end of a round
    end_moment: str  # what a kill of that kind is called in the report
    posts: tuple[tuple[int, str], ...]  # the public posts each game owes: (round, title)
    over_title: str  # the table message's title once the game is over
    step_moment: str = "mid-distribution"  # what a ``give-step`` kill is called in the report
    # the states a ``requests`` kill is named after, by priority (else "between tricks")
    moment_words: tuple[str, ...] = ("mid-distribution", "mid-trick", "just scored")

    @contextlib.contextmanager
    def registered(self) -> Iterator[None]:
        """Register the game in this process (engine.games, bot.games) while the harness
        replays it; the bot's own games need nothing."""
        yield

    def start_options(self, config: CrashConfig) -> dict[str, Any]:
        """The options of the start command: no computers, ``turn_seconds`` a decision."""
        return {"computers": "none", "turn_time": config.turn_seconds, **config.start_options}

    def decide(self, player: Player, view: MessageView) -> Pick | None:
        """What ``player`` presses on its hand ``view`` (None: nothing to decide there)."""
        raise NotImplementedError

    def is_hand(self, content: str) -> bool:
        """Whether a message's content is a private hand."""
        raise NotImplementedError

    def is_over(self, content: str) -> bool:
        """Whether a private hand says the game is over."""
        return "The game is over." in content

    def post_of(self, title: str) -> str | None:
        """Which of :attr:`posts` a channel message titled ``title`` is (None: none)."""
        return title if any(title == wanted for _round, wanted in self.posts) else None

    def posts_for(self, rounds: int) -> tuple[tuple[int, str], ...]:
        """The public posts a game that scored ``rounds`` rounds owes (:attr:`posts` for a
        game of fixed length)."""
        return self.posts

    def told(self, player: Player, expect: Expect, content: str) -> bool:
        """Whether the bot's answer ``content`` proves the move ``expect`` was made (an
        answer that contradicts it is one of the player's harness's problems)."""
        raise NotImplementedError

    def told_answer(self, player: Player, expect: Expect, data: Mapping[str, Any]) -> bool:
        """Whether the bot's answer (the callback's ``data``: content and components) proves
        the move ``expect`` was made; by its content alone unless the game reads more."""
        return self.told(player, expect, str(data.get("content") or ""))

    def check_answer(self, player: Player, data: Mapping[str, Any], generation: int) -> None:
        """Check a private hand the bot answered ``player`` with (from the process of
        ``generation``) against the database, if the game has something to check."""

    def table_over(self, table: MessageView) -> bool:
        """Whether the table message shows the game over."""
        return table.title == self.over_title

    def behind_table(self, hand: str, title: str, description: str) -> bool:
        """Whether a hand shows an earlier decision than the table message (its embed's
        ``title`` and ``description``)."""
        raise NotImplementedError

    def last_to_choose(self, description: str, seat: int) -> bool:
        """Whether, by the table message, ``seat`` is the only one the trick waits for."""
        raise NotImplementedError

    def decision(self, state: Any, seat: int) -> tuple[int, int, str, int]:
        """The decision a move of ``seat`` made in ``state`` belongs to (:attr:`Expect.key`)."""
        raise NotImplementedError

    def rounds_done(self, state: Any) -> int:
        """How many rounds ``state`` has scored."""
        raise NotImplementedError

    def state_word(self, state: Any) -> str:
        """A game in progress in a word: mid-trick, between tricks, ..."""
        raise NotImplementedError


class DupeCrash(CrashGame):
    """Dupe: four members; a card a trick, and the taker's distribution step by step."""

    name = "dupe"
    module = "bot"
    command = "dupe start"
    seats = 4
    rounds = 4
    tricks = TRICKS
    clicks_per_trick = CLICKS_PER_TRICK
    modes = MODES
    end_mode = "scoring"
    end_moment = "mid-scoring"
    posts = (*((d, f"Dupe — deal {d} scored") for d in range(1, 5)), (4, "Dupe — final standings"))
    over_title = "Dupe — game over"

    def start_options(self, config: CrashConfig) -> dict[str, Any]:
        return {
            "computers": "none",
            "turn_time": config.turn_seconds,
            "memory": config.memory,
            **config.start_options,
        }

    def is_hand(self, content: str) -> bool:
        return _HEADER.search(content) is not None

    def decide(self, player: Player, view: MessageView) -> Pick | None:
        # The buttons carry the engine's decision counter, not the trick: the hand's
        # header says which deal and trick its controls decide.
        header = _HEADER.search(view.content)
        plays = view.custom_ids(kind=PLAY)
        confirms = view.custom_ids(kind=GIVE_OK)
        steps = view.custom_ids(kind=GIVE)
        if not (plays or confirms or steps):
            return None
        if header is None:
            player.h.problems.append(
                f"game {player.game.game_id}, {player.member.name}: controls on a hand without "
                f"its deal and trick: {view.content[:200]!r}"
            )
            return None
        deal, trick = int(header.group(1)), int(header.group(2))
        if plays:
            custom_id = player.rng.choice(plays)
            control = _control(custom_id)
            seat, code = control.seat, control.payload[1:]
            card = parse_card(code)
            played = Expect(seat, f"{SEAT_LETTERS[seat]}:{code}", deal, trick, "choose", card=card)
            return Pick(view.id, custom_id, "play", played, trick)
        if confirms:
            custom_id = confirms[0]
            control = _control(custom_id)
            seat, assignment = control.seat, control.payload[1:]
            revealed = _REVEALED.search(view.content)
            expect: Expect | None = None
            if revealed is not None:
                cards = sorted(_cards(revealed.groups()), key=by_suit)
                given = {SEAT_LETTERS.index(a): c for c, a in zip(cards, assignment, strict=True)}
                ordered = tuple(given[s] for s in range(4))
                move = f"{SEAT_LETTERS[seat]}:{','.join(c.code for c in ordered)}"
                expect = Expect(seat, move, deal, trick, "distribute", given=ordered)
            return Pick(view.id, custom_id, "confirm", expect, trick)
        return Pick(view.id, player.rng.choice(steps), "give", None, trick)

    def told(self, player: Player, expect: Expect, content: str) -> bool:
        if "⚠️" in content:
            return False
        if "The game is over." in content:
            return True  # only the game's last move is answered with the end of the game
        header = _HEADER.search(content)
        if header is None:
            return False
        deal, trick = int(header.group(1)), int(header.group(2))
        seat = expect.seat
        if (deal, trick) == (expect.deal, expect.trick):
            if expect.card is None:
                return False  # a distribution that was made shows the next trick
            if f"You chose **{expect.card}**" in content:
                return True
            revealed = _REVEALED.search(content)
            return revealed is not None and parse_card(revealed.group(seat + 1)) == expect.card
        if _turn(deal, trick) < expect.turn:
            return False
        # Past that decision: it was made. Where the answer shows the trick, it must agree.
        line = _TRICK_LINE.search(content)
        if deal == expect.deal and line is not None and int(line.group(1)) == expect.trick:
            shown = _cards(line.groups()[1:])
            if expect.card is not None and shown[seat] != expect.card:
                player.h.problems.append(
                    f"game {player.game.game_id}: {expect.move} answered with trick "
                    f"{expect.trick} showing {shown[seat]} for that seat"
                )
                return False
            gave = _GAVE.search(content)
            if (
                expect.given is not None
                and gave is not None
                and tuple(_cards(gave.groups())) != expect.given
            ):
                player.h.problems.append(
                    f"game {player.game.game_id}: {expect.move} answered with another "
                    f"distribution: {gave.group(0)}"
                )
                return False
        return True

    def behind_table(self, hand: str, title: str, description: str) -> bool:
        mine = _HEADER.search(hand)
        shown = re.search(r"deal (\d) of 4 · trick (\d+) of 13", title)
        if mine is None or shown is None:
            return False
        hand_at = (_turn(int(mine[1]), int(mine[2])), "Revealed:" in hand)
        table_at = (_turn(int(shown[1]), int(shown[2])), "**Revealed:**" in description)
        return hand_at < table_at

    def last_to_choose(self, description: str, seat: int) -> bool:
        waiting = _WAITING.search(description)
        if waiting is None:
            return False
        names = [n.strip() for n in waiting.group(1).split(",") if n.strip()]
        return names == [_SEAT_WORDS[seat]]

    def decision(self, state: Any, seat: int) -> tuple[int, int, str, int]:
        return (state.deal, state.trick, state.phase.value, seat)

    def rounds_done(self, state: Any) -> int:
        return len(state.results)

    def state_word(self, state: Any) -> str:
        if state.phase is Phase.OVER:
            return "finished"
        if state.phase is Phase.DISTRIBUTE:
            return "mid-distribution"
        chosen = sum(bool(c) for c in state.public_view().chosen)
        if chosen:
            return "mid-trick"
        if state.trick == 1 and state.deal > 1:
            return "just scored"
        return "between tricks"


_HC_SEAT = re.compile(r"^\*\*(First|Second)\*\*$", re.M)
_HC_TRICK = re.compile(r"^Trick (\d+): (\S+) · (\S+) — ", re.M)
_HC_TITLE = re.compile(r"High card — trick (\d+) of (\d+)")
_HC_MARKS = re.compile(r"^(First|Second) · .*?( ✓| …) — \d+$", re.M)


class HighCardCrash(CrashGame):
    """High card (the tests' second game, ``tests/support/highcard``): two members, three
    tricks, a card each, chosen face down at once; one round, scored at the end of the game.
    The bot runs through ``python -m tests.support.highcard.run_bot``."""

    name = "highcard"
    module = "tests.support.highcard.run_bot"
    command = "highcard start"
    seats = 2
    rounds = 1
    tricks = 3
    clicks_per_trick = 4.0  # two cards, and “My hand” now and then
    min_kill_gap = 1  # a game is nine clicks or so: kills come close together
    kills_done_by = 0.25
    rate_after = None  # too few tricks for a rate: each game's last one is never counted
    max_requests = 12  # a click makes a few requests
    modes = HIGH_CARD_MODES
    end_mode = "game-end"
    end_moment = "game end"
    posts = ((1, "High card — final standings"),)
    over_title = "High card — game over"

    @contextlib.contextmanager
    def registered(self) -> Iterator[None]:
        from tests.support.highcard.engine import HIGHCARD
        from tests.support.highcard.ui import UI

        with engine_games.registered(HIGHCARD), bot_games.registered(UI):
            yield

    def is_hand(self, content: str) -> bool:
        return _HC_SEAT.search(content) is not None

    def decide(self, player: Player, view: MessageView) -> Pick | None:
        plays = view.custom_ids(kind=PLAY)
        if not plays:
            return None
        custom_id = player.rng.choice(plays)
        control = _control(custom_id)
        code = control.payload[1:]
        trick = control.turn + 1  # high card's decision point is the trick's index
        played = Expect(
            control.seat, f"{control.seat}:{code}", 1, trick, "choose", card=parse_card(code)
        )
        return Pick(view.id, custom_id, "play", played, trick)

    def told(self, player: Player, expect: Expect, content: str) -> bool:
        if "⚠️" in content or not self.is_hand(content):
            return False
        if "The game is over." in content:
            return True  # only the game's last move is answered with the end of the game
        shown = {int(m[1]): (m[2], m[3]) for m in _HC_TRICK.finditer(content)}
        if len(shown) < expect.trick - 1:
            return False
        if len(shown) == expect.trick - 1:  # the same trick: our choice, face down
            return f"You chose {expect.card}." in content
        # Past that decision: it was made, and the trick shows the card in our seat.
        card = shown.get(expect.trick, ("", ""))[expect.seat]
        if card != str(expect.card):
            player.h.problems.append(
                f"game {player.game.game_id}: {expect.move} answered with trick "
                f"{expect.trick} showing {card!r} for that seat"
            )
            return False
        return True

    def behind_table(self, hand: str, title: str, description: str) -> bool:
        if not self.is_hand(hand) or _HC_TITLE.search(title) is None:
            return False
        return len(_HC_TRICK.findall(hand)) < len(_HC_TRICK.findall(description))

    def last_to_choose(self, description: str, seat: int) -> bool:
        marks = {m[1]: m[2] for m in _HC_MARKS.finditer(description)}
        mine, other = ("First", "Second") if seat == 0 else ("Second", "First")
        return marks.get(mine) == " …" and marks.get(other) == " ✓"

    def decision(self, state: Any, seat: int) -> tuple[int, int, str, int]:
        return (1, state.turn + 1, "choose", seat)

    def rounds_done(self, state: Any) -> int:
        return int(state.is_over)

    def state_word(self, state: Any) -> str:
        if state.is_over:
            return "finished"
        return "mid-trick" if any(state.public_view().chosen) else "between tricks"


DOPPELKOPF_MODES: dict[str, float] = {
    "requests": 0.25,
    "in-flight": 0.25,
    "db-write": 0.25,
    "scoring": 0.25,
}
"""Doppelkopf's kinds of kill: no multi-step choice at a tournament table."""

DK_MOVES = 48  # a tournament game without announcements: 4 reservations and 44 cards
_DK_TITLE = re.compile(r"^\*\*Your hand — (.+?) · game (\d+) of (\d+)\*\*$", re.M)
_DK_TABLE_TITLE = re.compile(r"Doppelkopf — game (\d+) of (\d+)")
_DK_WAITING = re.compile(r"^Waiting for (.+)\.$", re.M)
_DK_POST = re.compile(r"^Game (\d+): ")
_DK_PROMPTS = ("Your turn: play a card.", "Reservations: choose privately.")
_DK_RESERVE = re.compile(r"^=(healthy|marriage|solo\.\w+)$")


def _dk_hand(content: str) -> list[Card]:
    """The cards of a Doppelkopf hand message: its one line of card glyphs."""
    for line in content.splitlines():
        tokens = line.split()
        if not tokens or any(len(t) > 3 for t in tokens):
            continue
        try:
            return [parse_card(t) for t in tokens]
        except ValueError:
            continue
    return []


class DoppelkopfCrash(CrashGame):
    """Doppelkopf at a tournament table of four members and four games: each member makes
    its reservation (mostly “healthy”, now and then a marriage or a solo it may declare) and
    plays its cards; no announcements or claims, so that a game is exactly 48 moves (four
    reservations and 44 cards: the twelfth trick plays itself). A decision is named by the
    move's index: round ``turn // 48 + 1``, point ``turn % 48 + 1`` (the controls carry the
    engine's decision point, which rises with every move)."""

    name = "doppelkopf"
    module = "bot"
    command = "doppelkopf start"
    seats = 4
    rounds = 4
    tricks = DK_MOVES
    clicks_per_trick = 1.4  # a move, and “My hand” now and then
    max_requests = 30
    modes = DOPPELKOPF_MODES
    end_mode = "scoring"
    end_moment = "mid-scoring"
    posts = (*((g, f"game{g}") for g in range(1, 5)), (4, "final"))
    over_title = "Doppelkopf — the table is over"

    def post_of(self, title: str) -> str | None:
        if title == "Doppelkopf — final standings":
            return "final"
        found = _DK_POST.match(title)
        return f"game{found[1]}" if found else None

    def is_hand(self, content: str) -> bool:
        return _DK_TITLE.search(content) is not None

    def is_over(self, content: str) -> bool:
        return "The table is over" in content

    def decide(self, player: Player, view: MessageView) -> Pick | None:
        controls = [_control(c) for c in view.custom_ids(kind="control")]
        cards = [c for c in controls if _card_payload(c.payload) is not None]
        reservations = [c for c in controls if _DK_RESERVE.match(c.payload)]
        if cards:
            control = player.rng.choice(cards)
        elif reservations:
            healthy = [c for c in reservations if c.payload == "=healthy"]
            others = [c for c in reservations if c.payload != "=healthy"]
            if healthy and (not others or player.rng.random() < 0.85):
                control = healthy[0]
            else:
                control = player.rng.choice(others)
        else:
            return None  # announcements only (out of turn), or nothing to decide
        action = control.payload[1:].replace(".", ":")
        card = _card_payload(control.payload)
        held = _dk_hand(view.content).count(card) if card is not None else 0
        deal, trick = divmod(control.turn, DK_MOVES)
        expect = Expect(
            control.seat,
            f"{control.seat + 1}:{action}",
            deal + 1,
            trick + 1,
            "move",
            card=card,
            held=held,
            tricks=DK_MOVES,
        )
        custom_id = ids.control(control.table, control.seat, control.turn, control.payload)
        return Pick(view.id, custom_id, "play", expect, trick + 1)

    def told(self, player: Player, expect: Expect, content: str) -> bool:
        if "⚠️" in content:
            return False
        if self.is_over(content):
            return True  # only the table's last move is answered with its end
        title = _DK_TITLE.search(content)
        if title is None:
            return False
        game = int(title[2])
        if game != expect.deal:
            return game > expect.deal  # the move ended its game: the answer shows the next
        if expect.card is None:  # a reservation: the prompt for it has gone
            return "Reservations: choose privately." not in content
        held = _dk_hand(content).count(expect.card)
        if held != expect.held - 1:
            player.h.problems.append(
                f"game {player.game.game_id}: {expect.move} answered with a hand holding "
                f"{held} of {expect.card} (it held {expect.held})"
            )
            return False
        return True

    def behind_table(self, hand: str, title: str, description: str) -> bool:
        mine = _DK_TITLE.search(hand)
        shown = _DK_TABLE_TITLE.search(title)
        if mine is None or shown is None:
            return False
        if int(mine[2]) != int(shown[1]):
            return int(mine[2]) < int(shown[1])
        # The table waits for this member, and its hand offers nothing to decide.
        waiting = _DK_WAITING.search(description)
        if waiting is None or waiting[1] != mine[1]:
            return False
        return not any(prompt in hand for prompt in _DK_PROMPTS)

    def last_to_choose(self, description: str, seat: int) -> bool:
        return True  # one move at a time: the 44th card of a game always ends it

    def decision(self, state: Any, seat: int) -> tuple[int, int, str, int]:
        deal, trick = divmod(state.turn, DK_MOVES)
        return (deal + 1, trick + 1, "move", seat)

    def rounds_done(self, state: Any) -> int:
        return len(state.game_results)

    def state_word(self, state: Any) -> str:
        if state.is_over:
            return "finished"
        data = state.public_view().data
        if data["phase"] != "play":
            return "just scored" if data["deal"] > 1 and state.turn % DK_MOVES == 0 else "reserving"
        return "mid-trick" if data["trick"] else "between tricks"


def _card_payload(payload: str) -> Card | None:
    """The card a Doppelkopf control plays (``=QC``), or None."""
    if not payload.startswith("=") or len(payload) > 3:
        return None
    try:
        return parse_card(payload[1:])
    except ValueError:
        return None


WHIST_MODES: dict[str, float] = {
    "requests": 0.25,
    "in-flight": 0.25,
    "db-write": 0.25,
    "scoring": 0.25,
}
"""Whist's kinds of kill: no multi-step choice (claims are not pressed)."""

_WH_TITLE = re.compile(r"^\*\*Your hand — (North|East|South|West)\b.*, deal (\d+)\*\*$", re.M)
_WH_OWN = re.compile(r"^Your cards: (.*)$", re.M)
_WH_DUMMY = re.compile(r"^Dummy you play — (North|East|South|West)\b[^:]*: (.*)$", re.M)
_WH_DUMMY_DUE = re.compile(r"^\*\*Dummy's turn: play a card from (North|East|South|West)\b", re.M)
_WH_TABLE_DEAL = re.compile(r"deal (\d+)$")
_WH_PROMPTS = ("Keep your hand, or exchange it", "You deal: name trumps.")
_WH_LETTER = {"North": "N", "East": "E", "South": "S", "West": "W"}


def _wh_cards(text: str) -> list[Card]:
    """The cards of a whist hand line (``3♠ · 4♥ · A♦ 9♦``; an empty hand is ``—``)."""
    return [parse_card(token) for token in text.split() if token not in ("·", "—")]


class WhistCrash(CrashGame):
    """Whist (``variant``: Humbug by default, or any variant every seat of which members
    hold): each member presses a card of the hand it must play (its own, or a dummy it
    partners), or Humbug's keep or exchange, or a suit to declare; never a claim. A unit
    (a rubber, a tournée) has a varying number of deals: :attr:`rounds` is an estimate,
    and the posts owed are each scored deal's summary and the final standings. A decision
    is named ``(deal, trick, phase, hand)``: a hand plays once a trick."""

    module = "bot"
    command = "whist start"
    tricks = TRICKS
    clicks_per_trick = 3.0  # two to four cards, and “My hand” now and then
    max_requests = 30
    modes = WHIST_MODES
    end_mode = "scoring"
    end_moment = "mid-scoring"
    fixed_length = False
    name = "whist"

    def __init__(self, variant: str = "humbug") -> None:
        from engine.whist.options import PLAYERS

        self.variant = variant
        self.seats = PLAYERS[variant][-1]
        self.rounds = {"humbug": 4, "two_hand": 12, "short": 6, "double_dummy": 6}.get(variant, 8)
        self.posts = ((1, "Whist — final standings"),)
        self.over_title = f"{_WH_VARIANTS[variant]} — finished"

    def start_options(self, config: CrashConfig) -> dict[str, Any]:
        return {
            "computers": "none",
            "turn_time": config.turn_seconds,
            "variant": self.variant,
            **config.start_options,
        }

    def post_of(self, title: str) -> str | None:
        if title == "Whist — final standings":
            return "final"
        found = re.fullmatch(r"Deal (\d+) scored", title)
        return f"deal{found[1]}" if found else None

    def posts_for(self, rounds: int) -> tuple[tuple[int, str], ...]:
        return (*((d, f"deal{d}") for d in range(1, rounds + 1)), (rounds, "final"))

    def is_hand(self, content: str) -> bool:
        return _WH_TITLE.search(content) is not None or "You sit out this game" in content

    def is_over(self, content: str) -> bool:
        return "The table is over" in content

    def decide(self, player: Player, view: MessageView) -> Pick | None:
        title = _WH_TITLE.search(view.content)
        if title is None:
            return None
        controls = [_control(c) for c in view.custom_ids(kind="control")]
        choices = [c for c in controls if c.payload.startswith("=")]
        if not choices:
            return None
        control = player.rng.choice(choices)
        action = control.payload[1:].replace(".", ":")
        deal = int(title[2])
        own = _WH_LETTER[title[1]]
        card: Card | None = None
        if len(action) == 2:
            card = parse_card(action)
            due = _WH_DUMMY_DUE.search(view.content)
            if due is not None:
                letter = _WH_LETTER[due[1]]
                held = next(
                    _wh_cards(m[2]) for m in _WH_DUMMY.finditer(view.content) if m[1] == due[1]
                )
            else:
                letter = own
                found = _WH_OWN.search(view.content)
                held = _wh_cards(found[1]) if found else []
            trick, phase = TRICKS + 1 - len(held), "play"
        else:
            letter, trick = own, 0
            phase = "declare" if action.startswith("trump") else "exchange"
        hand = "NESW".index(letter)
        expect = Expect(hand, f"{letter}:{action}", deal, trick, phase, card=card)
        custom_id = ids.control(control.table, control.seat, control.turn, control.payload)
        return Pick(view.id, custom_id, "play", expect, trick)

    def told(self, player: Player, expect: Expect, content: str) -> bool:
        if "⚠️" in content:
            return False
        if self.is_over(content):
            return True  # only the unit's last move is answered with its end
        title = _WH_TITLE.search(content)
        if title is None:
            return False
        deal = int(title[2])
        if deal != expect.deal:
            return deal > expect.deal  # the move ended its deal: the answer shows the next
        if expect.card is None:  # a choice: its prompt has gone
            return not any(prompt in content for prompt in _WH_PROMPTS)
        shown = [m[1] for m in _WH_OWN.finditer(content)]
        shown += [m[2] for m in _WH_DUMMY.finditer(content)]
        return all(expect.card not in _wh_cards(line) for line in shown)

    def behind_table(self, hand: str, title: str, description: str) -> bool:
        mine = _WH_TITLE.search(hand)
        shown = _WH_TABLE_DEAL.search(title)
        return mine is not None and shown is not None and int(mine[2]) < int(shown[1])

    def last_to_choose(self, description: str, seat: int) -> bool:
        return True  # one card at a time: the scoring kill treats any trick-13 card alike

    def decision(self, state: Any, seat: int) -> tuple[int, int, str, int]:
        phase = str(state.phase.value)
        trick = state.completed + 1 if phase == "play" else 0
        return (state.deal, trick, phase, seat)

    def rounds_done(self, state: Any) -> int:
        return len(state.results)

    def state_word(self, state: Any) -> str:
        if state.is_over:
            return "finished"
        if state.phase.value != "play":
            return "choosing"
        if state.trick:
            return "mid-trick"
        return "just scored" if state.completed == 0 and state.results else "between tricks"


_WH_VARIANTS = {
    "short": "Short whist",
    "english_dummy": "English Dummy",
    "double_dummy": "Double Dummy",
    "humbug": "Humbug",
    "two_hand": "Two-hand whist",
    "mort": "Mort",
}


DUKES_UP_MODES: dict[str, float] = {
    "requests": 0.2,
    "in-flight": 0.2,
    "db-write": 0.25,
    "give-step": 0.15,
    "scoring": 0.2,
}
"""Dukes Up!'s kinds of kill: ``give-step`` comes right after a step of a choice (cards
chosen for a group, a discard option chosen, the castle's confirmation asked) was answered;
``scoring`` at the end of a round (the write of Finish or of the turn limit's discard, or
after the round's scoring post)."""

_DU_TITLE = re.compile(r"^\*\*(Black|Red) \((.+?)\) — round (\d+)\*\*$", re.M)
_DU_TABLE_TITLE = re.compile(r"^Dukes Up! — round (\d+)$")
_DU_TURN = re.compile(r"Turn (\d+) of (\d+) · \*\*(.+?)\*\* to move")
_DU_WAITING = re.compile(r"^Waiting for (.+)\.$", re.M)
_DU_CARD = re.compile(r"[♠♥♦♣](?:10|[2-9AJQK])")
_DU_GROUP = re.compile(r"^G(\d+) (.*)$")
_DU_POST = re.compile(r"^Dukes Up! — round (\d+) scored$")
_DU_ACTIONS = re.compile(r"^(\d+) actions? in effect", re.M)
_DU_HEADINGS = ("**Your working table**", "**Table**")


def _du_cards(text: str) -> list[Card]:
    """The cards of a Dukes Up! line, written suit first (``♠10``)."""
    return [parse_card(token[1:] + token[0]) for token in _DU_CARD.findall(text)]


@dataclass(slots=True)
class _DuPanel:
    """A Dukes Up! private panel as its member reads it."""

    id: int
    content: str
    seat: int
    round: int
    table: list[tuple[Card, ...]] | None  # the groups shown, in order (None: no table shown)
    invalid: bool  # a group marked ⚠
    problem: bool  # a line saying why the turn cannot end now (⚠ E1–E4)
    hand: list[Card]
    setup: list[Card]
    actions: int  # actions in effect
    controls: dict[str, tuple[ids.Control, dict[str, Any]]]  # enabled, by payload
    turns: list[int]  # the decision points every control carries

    def first(self, prefix: str) -> str | None:
        """The payload of the first enabled control starting with ``prefix``."""
        return next((p for p in self.controls if p.startswith(prefix)), None)

    def options(self, payload: str) -> list[dict[str, Any]]:
        """The options of the select ``payload`` but those marked 🚫 (refused if chosen)."""
        found = self.controls[payload][1].get("options") or []
        return [
            o
            for o in found
            if "🚫" not in str(o.get("label") or "") + str(o.get("description") or "")
        ]


def _du_components(components: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    return [dict(c) for row in components for c in (row.get("components") or [row])]


def _du_panel(
    message_id: int, content: str, components: Sequence[Mapping[str, Any]]
) -> _DuPanel | None:
    """The panel ``content`` with ``components`` shows, or None if it is no Dukes Up! hand."""
    title = _DU_TITLE.search(content)
    if title is None:
        return None
    controls: dict[str, tuple[ids.Control, dict[str, Any]]] = {}
    turns = []
    for component in _du_components(components):
        parsed = ids.parse(str(component.get("custom_id") or ""))
        if not isinstance(parsed, ids.Control):
            continue
        turns.append(parsed.turn)
        if not component.get("disabled"):
            controls[parsed.payload] = (parsed, component)
    table: list[tuple[Card, ...]] | None = None
    invalid = False
    hand: list[Card] = []
    setup: list[Card] = []
    for line in content.splitlines():
        if line.startswith(_DU_HEADINGS):
            table = []
        elif table is not None and (group := _DU_GROUP.match(line)):
            cards, mark, _why = group[2].partition("⚠")
            invalid |= bool(mark)
            table.append(tuple(_du_cards(cards.split("(")[0])))
        elif line.startswith("Your hand: "):
            hand = _du_cards(line)
        elif line.startswith("Your top four cards: "):
            setup = _du_cards(line)
    actions = _DU_ACTIONS.search(content)
    return _DuPanel(
        id=message_id,
        content=content,
        seat=("Black", "Red").index(title[1]),
        round=int(title[3]),
        table=table,
        invalid=invalid,
        problem=any(line.startswith("⚠ ") for line in content.splitlines()),
        hand=hand,
        setup=setup,
        actions=int(actions[1]) if actions else 0,
        controls=controls,
        turns=turns,
    )


class DukesUpCrash(CrashGame):
    """Dukes Up!: two members play matches of ``rounds`` rounds of at most ``max_turns``
    turns through their private panels — the setup's selects and Confirm, a draw, new
    groups and additions (now and then a group that does not hold, taken back with Undo or
    Reset), a revealed castle with its confirmation, then a discard (D1, D2 with its order,
    D3, D4 with the bot's regrouping when its group breaks) or Finish; never End round,
    Resign or Swap (one press, two moves). Every logged move is one the member's click
    made, at the decision point its control carries: a decision is named ``(1, point + 1,
    phase, seat)`` (the point rises with every action and never falls; the setup's is one
    for both seats). The rounds vary in length: :attr:`tricks` is an estimate of the points
    a round takes, and a member counts the rounds it saw scored.

    After each restart the harness checks the working copy: where the first answer a new
    process gives a member is the mover's panel, its table (working, mid-turn) and hand
    must be those the replay of the database's log shows that seat."""

    name = "dukes_up"
    module = "bot"
    command = "dukesup start"
    seats = 2
    clicks_per_trick = 1.8  # a step or two for most moves, “My hand” now and then
    max_requests = 30
    modes = DUKES_UP_MODES
    end_mode = "scoring"
    end_moment = "mid-scoring"
    step_moment = "mid-choice"
    moment_words = ("mid-turn", "just scored", "choosing", "drawn")
    over_title = "Dukes Up! — over"  # not a title: the table message keeps its round's

    def __init__(self, rounds: int = 2, max_turns: int = 50) -> None:
        self.rounds = rounds
        self.max_turns = max_turns
        self.tricks = int(max_turns * 2.5)  # a draw and a discard a turn, a move now and then
        self.posts = self.posts_for(rounds)

    def start_options(self, config: CrashConfig) -> dict[str, Any]:
        return {
            "computers": "none",
            "turn_time": config.turn_seconds,
            "rounds": self.rounds,
            "max_turns": self.max_turns,
            **config.start_options,
        }

    def post_of(self, title: str) -> str | None:
        if title == "Dukes Up! — final standings":
            return "final"
        found = _DU_POST.match(title)
        return f"round{found[1]}" if found else None

    def posts_for(self, rounds: int) -> tuple[tuple[int, str], ...]:
        return (*((r, f"round{r}") for r in range(1, rounds + 1)), (rounds, "final"))

    def table_over(self, table: MessageView) -> bool:
        # The board keeps its round's title; once the match is over it has no “My hand”.
        return table.title.startswith("Dukes Up!") and not table.custom_ids(
            kind=HAND, enabled=False
        )

    def is_hand(self, content: str) -> bool:
        return _DU_TITLE.search(content) is not None

    def is_over(self, content: str) -> bool:
        return "The match is over." in content

    # -- deciding ------------------------------------------------------------------------

    def decide(self, player: Player, view: MessageView) -> Pick | None:
        panel = _du_panel(view.id, view.content, view.components)
        if panel is None or not panel.controls:
            return None
        if panel.first("sc") is not None or panel.first("su") is not None:
            return self._setup(player, panel)
        if panel.first("dd") is not None or panel.first("dx") is not None:
            return self._draw(player, panel)
        return self._step(player, panel) or self._turn(player, panel)

    def _pick(
        self,
        panel: _DuPanel,
        payload: str,
        move: str | None = None,
        *,
        values: Sequence[str] = (),
        phase: str = "turn",
        ends: bool = False,
    ) -> Pick:
        """Press (or choose ``values`` in) ``payload``; ``move``: the action it makes."""
        control = panel.controls[payload][0]
        expect = None
        if move is not None:
            letter = "BR"[control.seat]
            point = control.turn + 1
            expect = Expect(control.seat, f"{letter}:{move}", 1, point, phase, tricks=self.tricks)
        custom_id = ids.control(control.table, control.seat, control.turn, control.payload)
        kind = "give" if move is None else "play"
        trick = self.tricks if ends else 0
        return Pick(panel.id, custom_id, kind, expect, trick, values=tuple(values))

    def _setup(self, player: Player, panel: _DuPanel) -> Pick | None:
        from engine.dukes_up.actions import setup

        confirm = panel.first("su")
        if confirm is not None and len(confirm) > 2:
            castle, d1, d2 = (parse_card(c) for c in confirm[2:].split("."))
            (hand,) = [c for c in panel.setup if c not in (castle, d1, d2)]
            move = str(setup(castle, (d1, d2), hand))
            return self._pick(panel, confirm, move, phase="choose")
        dukes = panel.first("sd")
        if dukes is not None:
            values = [str(o["value"]) for o in panel.options(dukes)]
            return self._pick(panel, dukes, values=player.rng.sample(values, 2))
        values = [str(o["value"]) for o in panel.options("sc")]
        return self._pick(panel, "sc", values=[player.rng.choice(values)])

    def _draw(self, player: Player, panel: _DuPanel) -> Pick:
        player.notes["t2"] = 0
        draws = sorted(p for p in panel.controls if p[:2] == "dd" and len(p) == 3)
        discards = sorted(p for p in panel.controls if p[:2] == "dx" and len(p) == 3)
        roll = player.rng.random()
        if discards and roll < 0.2:
            payload = player.rng.choice(discards)
        elif draws and roll < 0.9:
            payload = draws[-1]
        else:
            payload = player.rng.choice(draws + discards)
        pile = "draw" if payload[1] == "d" else "discard"
        return self._pick(panel, payload, f"draw:pile={pile};n={payload[2]}")

    def _last_turn(self, player: Player) -> bool:
        """Whether the table message says this is the round's last turn (the turn limit)."""
        message = player.server.messages.get(player.game.table_message_id)
        if message is None or not message.embeds:
            return False
        turn = _DU_TURN.search(str(message.embeds[0].get("description") or ""))
        return turn is not None and turn[1] == turn[2]

    def _step(self, player: Player, panel: _DuPanel) -> Pick | None:
        """The next step of a choice under way, if the panel shows one."""
        from engine.dukes_up.actions import discard
        from engine.dukes_up.layout import group_kind, offer_d4

        ends = self._last_turn(player)
        table = panel.table or []
        if "rvy" in panel.controls:
            return self._pick(panel, "rvy", "reveal")
        order = [p for p in panel.controls if p.startswith("tp")]
        if order:
            payload = player.rng.choice(order)
            return self._pick(panel, payload, f"discard:d2:{payload[2:]}", ends=ends)
        if "dc1" in panel.controls:
            card = player.rng.choice([str(o["value"]) for o in panel.options("dc1")])
            return self._pick(panel, "dc1", f"discard:d1:{card}", values=[card], ends=ends)
        if "dc2" in panel.controls:
            cards = player.rng.sample([str(o["value"]) for o in panel.options("dc2")], 2)
            return self._pick(panel, "dc2", values=cards)
        if "dc4" in panel.controls:
            cards = [str(o["value"]) for o in panel.options("dc4")]
            if not cards:
                return self._pick(panel, "x")
            code = player.rng.choice(cards)
            card = parse_card(code)
            home = next((g for g in table if card in g), ())
            rest = [c for c in home if c != card]
            if rest and group_kind(rest) is None:
                # The bot offers a regrouping (on a panel that shows the layout after it).
                offer = offer_d4(table, card)
                if offer is not None:
                    action = discard("d4", (card,), offer[0], tuple(offer[1]))
                    player.notes[f"oa{code}"] = str(action)
                return self._pick(panel, "dc4", values=[code])
            return self._pick(panel, "dc4", f"discard:d4:{code}", values=[code], ends=ends)
        offered = panel.first("oa")
        if offered is not None:
            move = player.notes.get(offered)
            if move is None:
                return self._pick(panel, "x")
            return self._pick(panel, offered, move, ends=ends)
        proposed = panel.first("ac")
        if proposed is not None:
            move = player.notes.get(proposed)
            if move is None:
                return self._pick(panel, "xc" + proposed[2:])
            return self._pick(panel, proposed, move)
        adding = panel.first("ad")
        if adding is not None:
            cards = tuple(parse_card(c) for c in adding[2:].split(","))
            numbers = [int(o["value"]) for o in panel.options(adding)]
            fitting = [n for n in numbers if group_kind(table[n - 1] + cards) is not None]
            number = player.rng.choice(fitting or numbers)
            codes = adding[2:]
            return self._pick(panel, adding, f"add:{number}:{codes}", values=[str(number)])
        back = next((p for p in panel.controls if p == "x" or p.startswith("xc")), None)
        if back is not None and "dk" not in panel.controls:
            return self._pick(panel, back)
        return None

    def _turn(self, player: Player, panel: _DuPanel) -> Pick | None:
        """The mover's main panel: place something, take back what does not hold, or end."""
        from engine.dukes_up.layout import group_kind, propose_layout

        if "dk" not in panel.controls:
            return None  # waiting: End round and Resign are never pressed
        rng = player.rng
        player.notes["t2"] = player.notes.get("t2", 0) + 1
        refused = "⚠️" in panel.content
        stuck = panel.invalid or panel.problem
        if stuck or (refused and panel.actions and player.notes["t2"] > 6):
            takeback = [("un", "undo"), ("rs", "reset")]
            if rng.random() < 0.3:
                takeback.reverse()
            for payload, move in takeback:
                if payload in panel.controls:
                    return self._pick(panel, payload, move)
        if "fi" in panel.controls:
            return self._pick(panel, "fi", "finish", ends=True)
        table = panel.table or []
        chosen = panel.first("nw")
        if chosen is not None and len(chosen) > 2:
            return self._place(player, panel, chosen[2:])
        if panel.actions < 3 and player.notes["t2"] < 6 and "cs" in panel.controls:
            sources = [parse_card(str(o["value"])) for o in panel.options("cs")]
            hand = [c for c in sources if c in panel.hand]
            groups = [
                combo
                for size in (3, 4)
                for combo in _combinations(sources, size)
                if group_kind(combo) is not None
            ]
            extending = [c for c in sources if any(group_kind((*g, c)) for g in table)]
            proposable = [c for c in sources if c not in extending and propose_layout(table, [c])]
            # What to place, weighed among what the sources allow; or nothing, and end.
            kinds: list[tuple[float, list[Any]]] = [
                (5.0, groups),
                (3.0, [(c,) for c in extending]),
                (2.0, [(c,) for c in proposable]),
                (0.6, [(c,) for c in hand]),  # a group that does not hold: taken back next
                (3.0, [()]),
            ]
            kinds = [(weight, found) for weight, found in kinds if found]
            band = rng.choices([f for _w, f in kinds], weights=[w for w, _f in kinds])[0]
            picked = rng.choice(band)
            if picked:
                return self._pick(panel, "cs", values=[c.code for c in picked])
            roll = rng.random()
            if roll < 0.05 and "rv" in panel.controls:
                return self._pick(panel, "rv")
        options = [str(o["value"]) for o in panel.options("dk")]
        if not options:
            for payload, move in (("un", "undo"), ("rs", "reset")):
                if payload in panel.controls:
                    return self._pick(panel, payload, move)
            return None
        weights = {"d1": 4, "d2": 1.5, "d3": 3, "d4": 1.5}
        option = rng.choices(options, weights=[weights[o] for o in options])[0]
        if option == "d3":
            return self._pick(
                panel, "dk", "discard:d3", values=["d3"], ends=self._last_turn(player)
            )
        return self._pick(panel, "dk", values=[option])

    def _place(self, player: Player, panel: _DuPanel, codes: str) -> Pick:
        """The chosen cards ``codes``: a new group, Add to… a group they extend, or Propose
        (its accept is the layout the bot's search finds on the table shown)."""
        from engine.dukes_up.actions import accept
        from engine.dukes_up.layout import group_kind, propose_layout

        table = panel.table or []
        cards = tuple(parse_card(c) for c in codes.split(","))
        roll = player.rng.random()
        if group_kind(cards) is None:
            if any(group_kind(g + cards) for g in table) and roll < 0.8:
                return self._pick(panel, "ag" + codes)
            found = propose_layout(table, cards)
            if found is not None and f"pr{codes}" in panel.controls and roll < 0.9:
                _step, replaced, groups = found
                player.notes[f"ac{codes}"] = str(accept(tuple(replaced), tuple(groups)))
                return self._pick(panel, f"pr{codes}")
        return self._pick(panel, f"nw{codes}", f"new:{codes}")

    # -- what the answers say --------------------------------------------------------------

    def told(self, player: Player, expect: Expect, content: str) -> bool:
        raise NotImplementedError("Dukes Up!'s answers are read with their controls")

    def told_answer(self, player: Player, expect: Expect, data: Mapping[str, Any]) -> bool:
        content = str(data.get("content") or "")
        if "⚠️" in content:
            return False
        if self.is_over(content):
            player.game.rounds_done = self.rounds
            return True  # only the match's last move is answered with its end
        panel = _du_panel(0, content, data.get("components") or [])
        if panel is None:
            return False
        done = max(player.game.rounds_done or 0, panel.round - 1)
        player.game.rounds_done = done
        if expect.phase == "choose" and "You have chosen." in content:
            return True
        # Every action moves the decision point on: the answer's controls carry a later one.
        return any(turn > expect.trick - 1 for turn in panel.turns)

    def check_answer(self, player: Player, data: Mapping[str, Any], generation: int) -> None:
        """The first answer a new process gives a member, if it is the mover's panel, shows
        the table (the working copy, mid-turn) and the hand the replay of the logged moves
        gives that seat."""
        if generation == 1 or player.notes.get("checked") == generation:
            return
        player.notes["checked"] = generation
        content = str(data.get("content") or "")
        panel = _du_panel(0, content, data.get("components") or [])
        if panel is None or panel.table is None:
            return
        if "**Your working table**" not in content and panel.first("dd") is None:
            return  # not the mover's: the other's moves may change it meanwhile
        harness = player.h
        with contextlib.closing(_connect(harness.database)) as db:
            seed, options = db.execute(
                "SELECT seed, options FROM games WHERE id = ?", (player.game.game_id,)
            ).fetchone()
            moves = [
                m
                for (m,) in db.execute(
                    "SELECT move FROM moves WHERE game_id = ? ORDER BY ply",
                    (player.game.game_id,),
                )
            ]
        view = _replay(self, seed, options, moves).view(panel.seat)
        harness.checks["movers' first panels after a restart"] += 1
        if view.actions:
            harness.checks["… of them mid-turn, with actions in effect"] += 1
        shown = (panel.table, panel.hand)
        replayed = ([tuple(g) for g in view.table], list(view.hand or ()))
        if shown == replayed:
            harness.checks["… showing the table and hand of the log's replay"] += 1
        else:
            harness.problems.append(
                f"game {player.game.game_id}: after restart {generation - 1} the panel shows "
                f"table {shown[0]} and hand {shown[1]}, the log's replay {replayed[0]} and "
                f"{replayed[1]}"
            )

    def behind_table(self, hand: str, title: str, description: str) -> bool:
        mine = _DU_TITLE.search(hand)
        shown = _DU_TABLE_TITLE.match(title)
        if mine is None or shown is None:
            return False
        if int(mine[3]) != int(shown[1]):
            return int(mine[3]) < int(shown[1])
        # The hand waits for one member while the table says the other is to move.
        waiting = _DU_WAITING.search(hand)
        turn = _DU_TURN.search(description)
        return waiting is not None and turn is not None and waiting[1] != turn[3]

    def last_to_choose(self, description: str, seat: int) -> bool:
        return True  # one mover at a time: Finish or the turn limit's discard ends a round

    def decision(self, state: Any, seat: int) -> tuple[int, int, str, int]:
        point = bot_games.get(self.name).decision_point(state)
        return (1, point + 1, "choose" if state.phase == "choose" else "turn", seat)

    def rounds_done(self, state: Any) -> int:
        return len(state.results)

    def state_word(self, state: Any) -> str:
        if state.is_over:
            return "finished"
        if state.phase == "choose":
            return "just scored" if state.results else "choosing"
        if not state.drawn:
            return "before the draw"
        (mover,) = state.to_act
        return "mid-turn" if state.view(mover).actions else "drawn"


def _combinations(cards: Sequence[Card], size: int) -> list[tuple[Card, ...]]:
    from itertools import combinations

    return list(combinations(cards, size))


DUPE = DupeCrash()
HIGH_CARD = HighCardCrash()
DOPPELKOPF = DoppelkopfCrash()
WHIST = WhistCrash()
DUKES_UP = DukesUpCrash()
CRASH_GAMES: dict[str, CrashGame] = {
    g.name: g for g in (DUPE, HIGH_CARD, DOPPELKOPF, WHIST, DUKES_UP)
}
"""The games the harness can play, by name."""


# --- the harness ------------------------------------------------------------------------------


class Harness:
    """Runs the games, the bot process, the kills and the faults."""

    def __init__(self, discord: LoopbackDiscord, workdir: Path, config: CrashConfig) -> None:
        self.discord = discord
        self.server = discord.server
        self.workdir = workdir
        self.config = config
        self.game = config.crash_game
        self.modes = config.kill_modes
        self.rng = random.Random(config.seed)
        self.chaos = random.Random(config.seed * 7919 + 1)
        self.database: Path | str = config.database or workdir / "dupe.sqlite3"
        self.bot: BotProcess | None = None
        self.processes: list[BotProcess] = []
        self.generation = 1  # one more at each kill
        self.up = asyncio.Event()
        self._killed = asyncio.Event()
        self.down = False
        self.playing = False
        self.games: list[Game] = []
        self.players: list[Player] = []
        self.told: list[Told] = []
        self.attempted: dict[tuple[int, int, int, str, int], set[str]] = {}
        self.kills: list[KillRecord] = []
        self.restart_seconds: list[float] = []
        self.problems: list[str] = []
        self.clicks = 0
        self.stalls = 0
        self.stale_hands = 0
        self.late_hands = 0
        self.stale_notes: list[tuple[int, float]] = []  # (hand message id, when seen)
        self.refusals = 0
        self.checks: Counter[str] = Counter()  # the game's own checks (CrashGame.check_answer)
        self.pending: dict[int, tuple[Interaction, int, Pick, Game]] = {}
        self.dispatch_generation: dict[int, int] = {}
        self.lost: dict[int, Pick] = {}
        self.lost_games: dict[int, int] = {}
        self.down_clicks: set[int] = set()
        self._down_clicks_left = config.clicks_while_down
        self._kills_left = config.kills
        self._next_kill_at: int | None = None
        self._armed: str | None = None
        self._held_this_click = False  # PostgreSQL: games held before this click went out
        self._write_kill_spawned = False
        self._pg_holding = False
        self._scoring_owed = 0  # scoring kills drawn, waiting for a click that ends a deal
        self._deck: list[str] = []
        self._drops_left = config.gateway_drops
        self._next_drop_at: int | None = None
        self.gateway_drops = 0
        self._tasks: set[asyncio.Task[Any]] = set()
        self._restart_task: asyncio.Task[None] | None = None
        self._fatal: BaseException | None = None
        self._answers: dict[int, dict[str, Any]] = {}
        self._scanned = 0

    # --- the bot process -------------------------------------------------------------------

    async def start_bot(self) -> float:
        bot = self.discord.bot_process(
            self.workdir,
            database=self.database,
            turn_seconds=self.config.turn_seconds,
            table_edit_seconds=0.05,
            module=self.game.module,
            drawing_process=self.config.drawing_process,
        )
        started = time.monotonic()
        await bot.start()
        await bot.wait_ready(timeout=self.config.ready_timeout)
        seconds = time.monotonic() - started
        self.bot = bot
        self.processes.append(bot)
        self.down = False
        self.up.set()
        return seconds

    async def wait_up(self) -> None:
        if self._fatal is not None:
            raise self._fatal
        if not self.up.is_set():
            await self.up.wait()
        if self._fatal is not None:
            raise self._fatal

    def kill(self, trigger: str, *, lock_held: bool = False, moment: str = "") -> None:
        """SIGKILL the bot now (if the watcher thread has not already) and restart it."""
        if self.down or self.bot is None:
            return
        bot = self.bot
        bot.kill()
        self.down = True
        self.up.clear()
        lost = [
            i
            for i, (interaction, g, _, _) in self.pending.items()
            if g == self.generation and not interaction.responded
        ]
        for interaction_id in lost:
            _interaction, _gen, pick, game = self.pending[interaction_id]
            self.lost[interaction_id] = pick
            self.lost_games[interaction_id] = game.game_id
        record = KillRecord(
            number=len(self.kills) + 1,
            trigger=trigger,
            moment=moment or trigger,
            lock_held=lock_held,
            lost=lost,
            at=time.monotonic(),
            wall=time.time(),
        )
        if not moment:
            if trigger == "in-flight":
                record.moment = "in-flight click" if lost else "just after a click"
            elif trigger == "db-write":
                record.moment = "during a DB write" if lock_held else "after a DB write"
            elif trigger == self.game.end_mode:
                record.moment = self.game.end_moment
            elif trigger == "give-step":
                record.moment = self.game.step_moment
        self.kills.append(record)
        self._kills_left -= 1
        self._armed = None
        self._next_kill_at = None
        self.generation += 1
        self._killed.set()
        self._killed = asyncio.Event()
        self._restart_task = asyncio.get_running_loop().create_task(
            self._restart(bot, record), name="crash-restart"
        )

    async def _restart(self, old: BotProcess, record: KillRecord) -> None:
        try:
            await old.wait(timeout=10)
            while self._down_clicks_left > 0 and self._click_while_down():
                self._down_clicks_left -= 1
            seconds = await self.start_bot()
            record.restart_seconds = seconds
            record.ready_at = time.monotonic()
            self.restart_seconds.append(seconds)
            record.states = _table_states(self.database, self.game)
            if record.trigger == "requests":
                record.moment = _moment_of(record.states, self.game.moment_words)
        except BaseException as error:  # a crash loop, or a bot that never gets ready
            self._fatal = error
            self.up.set()  # wake the members: they raise
            raise

    def _click_while_down(self) -> bool:
        """A member presses a card (or Confirm) of its hand while the bot is dead, or else
        “My hand” on the table; the click goes to the dead process's session and is lost."""
        ready = [p for p in self.players if not p.done]
        picks = []
        for player in ready:
            view = player._hand()
            # A member whose click was just lost presses the same button again.
            pick = player.retry or (player.decide(view) if view is not None else None)
            if pick is not None and pick.kind != "give":
                picks.append((player, pick))
        if not picks and ready:
            player = ready[0]
            game = player.game
            picks.append((player, _hand_pick(game)))
        for player, pick in picks:
            try:
                interaction = self.server.component_interaction(
                    player.game.channel.id, player.member.id, pick.message_id, pick.custom_id
                )
                _choose(interaction, pick)
            except LookupError:  # the message changed after the click that was lost
                continue
            if not self.server.sessions_for(interaction.guild_id):
                return False
            self.server.dispatch(interaction)
            self.clicks += 1
            self.down_clicks.add(interaction.id)
            player.retry = pick  # the member saw no answer: it presses again later
            player.stale = True
            if pick.expect is not None:
                self._attempt(player.game, pick.expect)
            return True
        return False

    # --- clicks ----------------------------------------------------------------------------

    def _attempt(self, game: Game, expect: Expect) -> None:
        key = (game.game_id, expect.deal, expect.trick, expect.phase, expect.seat)
        self.attempted.setdefault(key, set()).add(expect.move)

    async def click(
        self, interaction: Interaction, pick: Pick, game: Game
    ) -> tuple[dict[str, Any] | None, int]:
        """Dispatch; return the callback body (None if the bot was killed before it
        answered) and the generation of the process it went to."""
        await self.wait_up()
        server = self.server
        generation = self.generation
        killed = self._killed
        # On PostgreSQL a db-write kill holds ``games`` before the click goes out, so that
        # the click's write cannot be over before the watcher is there (see
        # _kill_when_writing_pg); if no kill comes on this click after all, let go.
        held = (
            isinstance(self.database, str)
            and self._armed == "db-write"
            and pick.kind in ("play", "confirm")
            and self.playing
            and not self.down
            and not self._pg_holding
        )
        if held:
            self._pg_holding = True  # no other click holds until this one is done
            await asyncio.to_thread(_hold_games, str(self.database))
        self._write_kill_spawned = False
        self._held_this_click = held
        server.dispatch(interaction)
        self.clicks += 1
        game.clicks += 1
        self.pending[interaction.id] = (interaction, generation, pick, game)
        self.dispatch_generation[interaction.id] = generation
        if pick.expect is not None:
            self._attempt(game, pick.expect)
        self._after_dispatch(interaction, pick, game)
        if held and not self._write_kill_spawned:
            await asyncio.to_thread(_let_go_of_games, str(self.database))
        if held:
            self._pg_holding = False
        with contextlib.suppress(TimeoutError):  # (said below)
            await server.wait_for(
                lambda: interaction.responded or killed.is_set(),
                timeout=self.config.action_timeout,
                what=f"the answer to {interaction.describe()}",
            )
        self.pending.pop(interaction.id, None)
        if interaction.responded:
            body = self._answer_body(interaction)
            if body.get("type") == DEFERRED_UPDATE:
                # A click the bot got to late is acknowledged first, and its hand edited
                # through the click's token once the move is committed.
                edited = await self._deferred_edit(interaction, killed)
                if edited is None:
                    return None, generation  # the process died before the edit
                body = {"type": UPDATE_MESSAGE, "data": edited}
            return body, generation
        if generation != self.generation:
            return None, generation
        logs = "".join(f"\n--- {p.name} log tail ---\n{p.log_tail()}" for p in self.processes[-1:])
        raise TimeoutError(
            f"the bot did not answer {interaction.describe()} within "
            f"{self.config.action_timeout} s (“This interaction failed”){logs}"
        )

    async def _deferred_edit(
        self, interaction: Interaction, killed: asyncio.Event
    ) -> dict[str, Any] | None:
        """Return the body of the edit that answers a click acknowledged first (``PATCH
        …/<its token>/messages/@original``); None if the process was killed before it."""
        server = self.server

        def edit() -> dict[str, Any] | None:
            for record in reversed(server.requests):
                if (
                    record.method == "PATCH"
                    and interaction.token in record.path
                    and record.path.endswith("/messages/@original")
                    and record.status == 200
                    and isinstance(record.body, dict)
                ):
                    return record.body
            return None

        await server.wait_for(
            lambda: edit() is not None or killed.is_set(),
            timeout=self.config.action_timeout,
            what=f"the edit answering {interaction.describe()}",
        )
        return edit()

    def _answer_body(self, interaction: Interaction) -> dict[str, Any]:
        """The body of the interaction's callback, as the bot sent it."""
        requests = self.server.requests
        for record in requests[self._scanned :]:
            parts = record.path.split("/")
            if (
                len(parts) == 5
                and parts[1] == "interactions"
                and parts[4] == "callback"
                and record.status in (200, 204)
                and isinstance(record.body, dict)
            ):
                self._answers[int(parts[2])] = record.body
        self._scanned = len(requests)
        body = self._answers.pop(interaction.id, None)
        if body is None:
            raise AssertionError(f"no callback request recorded for {interaction.describe()}")
        return body

    # --- kills and faults ------------------------------------------------------------------

    def _estimate_clicks_left(self) -> int:
        """How many more clicks the games will take, at the rate they have taken so far
        (kills make members retry and re-open their hands)."""
        done = sum(g.turns_done for g in self.games)
        game = self.game
        measured = game.rate_after is not None and done >= game.rate_after
        rate = self.clicks / done if measured else game.clicks_per_trick
        least = -(1 << 30) if game.fixed_length else game.tricks
        left = sum(
            max(least, game.rounds * game.tricks - g.turns_done)
            for g in self.games
            if not g.over_seen
        )
        return int(rate * max(left, 1))

    def _plan_next(self) -> None:
        if self._kills_left <= 0:
            self._next_kill_at = None
            return
        # Aim to be done with the kills by about 60 % of the way (Dupe's; the game's
        # ``kills_done_by``): the estimate is rough.
        gap = self.game.kills_done_by * self._estimate_clicks_left() / (self._kills_left + 1)
        least = self.game.min_kill_gap
        self._next_kill_at = self.clicks + max(least, int(gap * self.chaos.uniform(0.3, 1.5)))

    def _after_dispatch(self, interaction: Interaction, pick: Pick, game: Game) -> None:
        if not self.playing or self.down:
            return
        if self._drops_left > 0:
            if self._next_drop_at is None:
                gap = self._estimate_clicks_left() / (self._drops_left + 1)
                self._next_drop_at = self.clicks + max(3, int(gap * self.chaos.uniform(0.3, 1.5)))
            elif self.clicks >= self._next_drop_at:
                self.gateway_drops += self.server.drop_gateway()
                self._drops_left -= 1
                self._next_drop_at = None
        if self._kills_left <= 0:
            return
        # not started, or only counting requests
        waiting = self._armed in (None, "in-flight", "db-write", "give-step", "requests")
        if (
            self._scoring_owed
            and waiting
            and pick.kind in ("play", "confirm")
            and pick.trick == self.game.tricks
        ):
            # A scoring kill drawn earlier (it goes before a kind still waiting for its
            # click): during the write of the click that ends the deal, or right after a
            # scoring post.
            self._scoring_owed -= 1
            self._armed = "running"
            if self._ends_deal(pick, game) and self.chaos.random() < 0.5:
                self._spawn_write_kill(interaction, self.game.end_mode)
            else:
                self._spawn(self._kill_on_scoring_post(interaction))
            return
        if self._scoring_owed and self._scoring_owed >= self._deal_ends_left():
            self._scoring_owed -= 1  # too few deals left to end: make it another kind
        if self._kills_left - self._scoring_owed <= 0:
            return
        if self._next_kill_at is None and self._armed is None:
            self._plan_next()
        if self._armed is None:
            if self._next_kill_at is None or self.clicks < self._next_kill_at:
                return
            mode = self._draw_mode()
            for _ in range(20):  # too few deals left to end: another kind
                if mode != self.game.end_mode or self._deal_ends_left() > self._scoring_owed + 1:
                    break
                mode = self._draw_mode()
            if mode == self.game.end_mode:
                # Owed until some click ends a deal; the other kinds go on meanwhile.
                self._scoring_owed += 1
                self._next_kill_at = None
                return
            self._armed = mode
            if mode == "requests":
                self._spawn(
                    self._kill_after_requests(self.chaos.randint(1, self.game.max_requests))
                )
                return
        self._maybe_kill_on(interaction, pick, game)

    def _deal_ends_left(self) -> int:
        game = self.game
        # (a game of varying length, whist's, may play more rounds than its estimate: at
        # least one more while it is on)
        least = -(1 << 30) if game.fixed_length else 1
        return sum(
            max(least, game.rounds - _rounds_done(g, game)) for g in self.games if not g.over_seen
        )

    def _draw_mode(self) -> str:
        modes = self.modes
        if not self.config.cover_modes:
            return self.chaos.choices(list(modes), weights=list(modes.values()))[0]
        if not self._deck:
            self._deck = [m for m, weight in modes.items() if weight > 0]
            self.chaos.shuffle(self._deck)
        return self._deck.pop()

    def _maybe_kill_on(self, interaction: Interaction, pick: Pick, game: Game) -> None:
        armed = self._armed
        loop = asyncio.get_running_loop()
        if armed == "in-flight" and pick.kind in ("play", "give", "confirm"):
            self._armed = "running"
            delay = self.chaos.uniform(0.0, 0.015)
            loop.call_later(delay, self.kill, "in-flight")
        elif (
            armed == "db-write"
            and pick.kind in ("play", "confirm")
            and (self._held_this_click or not isinstance(self.database, str))
        ):
            self._armed = "running"
            self._spawn_write_kill(interaction, "db-write")
        elif armed == "give-step" and pick.kind == "give":
            self._armed = "running"
            self._spawn(self._kill_after_answer(interaction, "give-step"))

    def _ends_deal(self, pick: Pick, game: Game) -> bool:
        """Whether the click likely ends a deal: Confirm on trick 13, or the last card of it
        (the last trick of a round, for another game)."""
        if pick.kind not in ("play", "confirm") or pick.trick != self.game.tricks:
            return False
        return pick.kind == "confirm" or self._last_to_choose(game, pick)

    def _last_to_choose(self, game: Game, pick: Pick) -> bool:
        message = self.server.messages.get(game.table_message_id)
        if message is None or not message.embeds:
            return False
        description = str(message.embeds[0].get("description") or "")
        if pick.expect is None:
            return False
        return self.game.last_to_choose(description, pick.expect.seat)

    def _spawn(self, coro: Any) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _kill_after_requests(self, count: int) -> None:
        target = len(self.server.requests) + count
        generation = self.generation

        def void() -> bool:  # killed meanwhile, or a scoring kill took this one's place
            return self.generation != generation or self._armed != "requests"

        with contextlib.suppress(TimeoutError):
            await self.server.wait_for(
                lambda: len(self.server.requests) >= target or void(),
                timeout=30.0,
                what="requests",
            )
        if not void():
            self.kill("requests")

    def _spawn_write_kill(self, interaction: Interaction, trigger: str) -> None:
        self._write_kill_spawned = True
        self._spawn(self._kill_in_write(interaction, trigger))

    async def _kill_in_write(self, interaction: Interaction, trigger: str) -> None:
        assert self.bot is not None and self.bot.process is not None
        pid = self.bot.process.pid
        generation = self.generation
        stop = threading.Event()
        assert interaction.answered is not None
        interaction.answered.add_done_callback(lambda _: stop.set())
        if isinstance(self.database, str):
            held = await asyncio.to_thread(_kill_when_writing_pg, self.database, pid, stop, 5.0)
        else:
            shm = Path(f"{self.bot.database}-shm")
            held = await asyncio.to_thread(_kill_when_writing, shm, pid, stop, 5.0)
        if self.generation == generation:
            moment = ""
            if trigger == self.game.end_mode:
                moment = f"{self.game.end_moment}: " + (
                    "during the write" if held else "after the write"
                )
            self.kill(trigger, lock_held=held, moment=moment)

    async def _kill_after_answer(self, interaction: Interaction, trigger: str) -> None:
        generation = self.generation
        assert interaction.answered is not None
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(asyncio.shield(interaction.answered), timeout=5.0)
        if self.generation == generation:
            self.kill(trigger)

    async def _kill_on_scoring_post(self, interaction: Interaction) -> None:
        generation = self.generation
        start = len(self.server.requests)

        def posted() -> bool:
            if self.generation != generation:
                return True
            for record in self.server.requests[start:]:
                if record.method == "POST" and record.path.endswith("/messages"):
                    body = record.body if isinstance(record.body, dict) else {}
                    embeds = body.get("embeds") or []
                    if any(self.game.post_of(str(e.get("title") or "")) for e in embeds):
                        return True
            return False

        seen = True
        try:
            await self.server.wait_for(posted, timeout=5.0, what="a scoring post")
        except TimeoutError:
            seen = False
        if self.generation == generation:
            game = self.game
            moment = (
                f"{game.end_moment}: after a post"
                if seen
                else f"trick {game.tricks}: no scoring post seen"
            )
            self.kill(game.end_mode, moment=moment)

    # --- the games ---------------------------------------------------------------------------

    async def open_games(self, guild: GuildHandle) -> None:
        for number in range(self.config.games):
            name = f"{self.game.name}-{number}"
            channel = guild.channel if number == 0 else guild.create_channel(name)
            members = [guild.add_member(f"g{number}-{n}") for n in range(self.game.seats)]
            game = Game(number, channel, members)
            host = members[0]
            lobby = await host.slash(
                channel, self.game.command, **self.game.start_options(self.config)
            )
            assert lobby.message is not None, lobby.text
            for member in members[1:]:
                await member.click(lobby, label="Join")
            started = await host.click(lobby, label="Start")
            assert started.message is not None and started.message.id == lobby.message.id
            table = channel.message(lobby.message.id)
            hand_ids = table.custom_ids(kind=HAND)
            assert hand_ids, table.labels()
            game.table_message_id = table.id
            parsed = ids.parse(hand_ids[0])
            assert isinstance(parsed, ids.TableButton), hand_ids
            game.game_id = parsed.table
            self.games.append(game)
            # Seats come from the buttons: the bot may seat members in any order.
            self.players += [Player(self, game, member) for member in members]

    async def play(self) -> None:
        self.playing = True
        if self.config.share_429:
            self.server.inject_429(self.config.share_429, seed=self.config.seed)
        tasks = [asyncio.ensure_future(self._play_game(game)) for game in self.games]
        try:
            await asyncio.gather(*tasks)
        finally:
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
            self.server.inject_429(0.0)
            self.playing = False
        if self._restart_task is not None:
            await self._restart_task
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)

    async def _play_game(self, game: Game) -> None:
        """Play one game; with ``stagger`` tricks, the game after it starts only when this
        one is that far (so the games do not end their deals all at once)."""
        if self.config.stagger and game.number > 0:
            before = self.games[game.number - 1]
            await self.server.wait_for(
                lambda: before.turns_done >= self.config.stagger or before.over_seen,
                timeout=600.0,
                what=f"game {before.game_id} at trick {self.config.stagger}",
            )
        players = [p for p in self.players if p.game is game]
        await asyncio.gather(*(p.run() for p in players))

    async def stop_bot(self) -> None:
        """Let the bot finish what it does after the last answers (the scorings, the final
        standings and the last table edits: pictures are drawn first, slowly in a new
        process), then stop it."""
        if self.bot is None:
            return
        quiet, limit = 6.0, time.monotonic() + 60.0
        while not self._all_standings_posted() and time.monotonic() < limit:
            try:
                await self.server.wait_for(
                    self._more_requests(len(self.server.requests)), timeout=quiet, what="a request"
                )
            except TimeoutError:
                break  # nothing more is coming: what is missing was lost with a process
        await self.discord.settle()
        await self.bot.stop()

    def _more_requests(self, count: int) -> Callable[[], bool]:
        return lambda: len(self.server.requests) > count or self._all_standings_posted()

    def _all_standings_posted(self) -> bool:
        """Whether every game shows its end: each deal's scoring and the final standings
        posted, the table at game over. (Posts owed from before a kill may still be on
        their way from the last process.)"""
        wanted = {title for _round, title in self.game.posts}
        return all(
            wanted <= {self.game.post_of(m.title) for m in game.channel.messages()}
            and self.game.table_over(game.channel.message(game.table_message_id))
            for game in self.games
        )


async def run_crash(discord: LoopbackDiscord, workdir: Path, config: CrashConfig) -> CrashReport:
    """Run ``config.games`` whole games of ``config.game`` with ``config.kills`` kills and the
    configured faults against the bot as a subprocess in ``workdir``; verify the database;
    return the report."""
    with config.crash_game.registered():
        return await _run_crash(discord, workdir, config)


async def _run_crash(discord: LoopbackDiscord, workdir: Path, config: CrashConfig) -> CrashReport:
    started = time.monotonic()
    workdir.mkdir(parents=True, exist_ok=True)
    harness = Harness(discord, workdir, config)
    guild = discord.create_guild("Crash Club")
    first = await harness.start_bot()
    harness.restart_seconds.append(first)
    if config.database is not None:
        await asyncio.to_thread(_open_lock_watcher, config.database)
    await harness.open_games(guild)
    await harness.play()
    await harness.stop_bot()
    server = discord.server
    db = await verify_database(
        harness.database,
        [(g.game_id, guild.id, [m.id for m in g.members]) for g in harness.games],
        harness.told,
        harness.attempted,
        lost=[
            (harness.lost_games[i], p.expect)
            for i, p in harness.lost.items()
            if p.expect is not None
        ],
        game=harness.game,
    )
    allowed = set(harness.lost) | harness.down_clicks
    unexpected = [i.describe() for i in server.unanswered() if i.id not in allowed]
    posts = _scoring_posts(harness)
    problems = list(harness.problems) + db.problems
    problems += [f"unanswered {u}" for u in unexpected]
    problems += [f"server: {p}" for p in server.violations + server.internal_errors]
    problems += [f"unknown route {r}" for r in server.unknown_routes]
    problems += [f"gateway: {e}" for e in server.gateway_errors]
    orphans = 0
    for process in harness.processes:
        errors, cut_off = _process_errors(process)
        orphans += cut_off
        problems += [f"{process.name}: {line}" for line in errors]
    if posts["duplicated"]:
        problems.append(f"{posts['duplicated']} scoring post(s) duplicated")
    if posts["missing"] or posts["tables_over"] < len(harness.games):
        # The outbox owes them: a kill between a deal's commit and its post only delays it.
        problems.append(
            f"{posts['missing']} scoring post(s) and "
            f"{len(harness.games) - posts['tables_over']} final table edit(s) missing"
        )
    if len(harness.kills) < config.kills:
        problems.append(
            f"only {len(harness.kills)} of {config.kills} kills happened (at the end: armed "
            f"{harness._armed}, next at click {harness._next_kill_at} of {harness.clicks}, "
            f"scoring kills owed {harness._scoring_owed})"
        )
    return CrashReport(
        config=config,
        kills=harness.kills,
        db=db,
        told=len(harness.told),
        clicks=harness.clicks,
        lost_clicks=sorted(i for i in harness.lost if not server.interactions[i].responded),
        answered_at_kill=sorted(i for i in harness.lost if server.interactions[i].responded),
        clicks_while_down=sorted(harness.down_clicks),
        unexpected_unanswered=unexpected,
        restart_seconds=harness.restart_seconds[1:],
        injected_429=server.injected_429,
        gateway_drops=harness.gateway_drops,
        resumes=server.resumes,
        scoring_posts=posts,
        stalls=harness.stalls,
        stale_hands=harness.stale_hands,
        checks=dict(harness.checks),
        late_hands=harness.late_hands,
        refusals=harness.refusals,
        spawns_cut_off=orphans,
        seconds=time.monotonic() - started,
        problems=problems,
    )


# The child a killed bot was spawning to draw its pictures (multiprocessing's "spawn"): it
# reads its start-up data from its parent, which is gone, and prints this before it exits.
_SPAWN_CUT_OFF = re.compile(
    r"^Traceback \(most recent call last\):\n(?:  .*\n)*?  File .*spawn\.py.*, in spawn_main\n"
    r"(?:  .*\n)*EOFError: Ran out of input\n",
    re.M,
)


def _process_errors(process: BotProcess) -> tuple[list[str], int]:
    """The process's error lines and tracebacks (as :meth:`BotProcess.errors`), and how many
    tracebacks of a drawing process cut off while being spawned were left out: only in the
    log of a process the harness killed, where that child dies with its parent."""
    if process.returncode != -signal.SIGKILL:
        return process.errors(), 0
    log, cut_off = _SPAWN_CUT_OFF.subn("", process.log())
    errors = [
        line
        for line in log.splitlines()
        if " ERROR " in line or " CRITICAL " in line or line.startswith("Traceback")
    ]
    return errors, cut_off


def _scoring_posts(harness: Harness) -> dict[str, Any]:
    """Count each game's scoring posts (four deals and the final standings). For a missing
    one, find how soon after the commit of the move that ended its deal the next kill came
    (``lost_after``): a post is made after the commit, so a kill in between loses it."""
    expected = posted = missing = duplicated = 0
    lost_after: list[float] = []
    commits = _deal_commits(harness.database, harness.game)
    kills = sorted(k.wall for k in harness.kills)
    for game in harness.games:
        titles = Counter(harness.game.post_of(m.title) for m in game.channel.messages())
        rounds = max((d for g, d in commits if g == game.game_id), default=0)
        for deal, title in harness.game.posts_for(rounds):
            expected += 1
            count = titles.get(title, 0)
            posted += min(count, 1)
            duplicated += max(0, count - 1)
            if count:
                continue
            missing += 1
            committed = commits.get((game.game_id, deal))
            later = [k for k in kills if committed is not None and k >= committed]
            lost_after.append(later[0] - committed if later and committed else float("inf"))
    over = 0
    for game in harness.games:
        if harness.game.table_over(game.channel.message(game.table_message_id)):
            over += 1
            continue
        # the table is edited after the standings
        rounds = max((d for g, d in commits if g == game.game_id), default=harness.game.rounds)
        committed = commits.get((game.game_id, rounds))
        later = [k for k in kills if committed is not None and k >= committed]
        lost_after.append(later[0] - committed if later and committed else float("inf"))
    return {
        "expected": expected,
        "posted": posted,
        "missing": missing,
        "duplicated": duplicated,
        "lost_after": lost_after,
        "tables_over": over,
        "nonce_repeats": harness.server.nonce_repeats,
    }


def _deal_commits(path: Path | str, game: CrashGame) -> dict[tuple[int, int], float]:
    """When (the bot's clock) the move that ended each deal (round) of each game was
    committed."""
    commits: dict[tuple[int, int], float] = {}
    engine = engine_games.get(game.name)
    with contextlib.closing(_connect(path)) as db:
        games = db.execute(
            "SELECT id, seed, options FROM games WHERE game = ?", (game.name,)
        ).fetchall()
        for game_id, seed, options in games:
            state = _replay(game, seed, options, [])
            rows = db.execute(
                "SELECT move, created_at FROM moves WHERE game_id = ? ORDER BY ply", (game_id,)
            ).fetchall()
            for text, created_at in rows:
                move = engine.parse_move(text)
                before = game.rounds_done(state)
                state.apply(move.seat, move.action)
                if game.rounds_done(state) > before:
                    commits[game_id, game.rounds_done(state)] = created_at
    return commits


# --- reading the database -------------------------------------------------------------------------


def _connect(path: Path | str) -> Any:
    """A connection for reading: the SQLite file's, or :class:`_PgReader` for a URL."""
    if isinstance(path, str):
        return _PgReader(path)
    return sqlite3.connect(path, isolation_level=None)


class _PgReader:
    """Reads a PostgreSQL database the way the checks read SQLite (``execute`` with ``?``
    placeholders, then ``fetchone``/``fetchall`` or iteration)."""

    def __init__(self, url: str) -> None:
        self.url = url

    def execute(self, sql: str, params: Sequence[Any] = ()) -> _Rows:
        from tests.support.postgres import fetch

        if sql == "PRAGMA integrity_check":
            # The server checks every constraint as it writes; what could be left is a
            # constraint not validated (added NOT VALID) or an index left invalid.
            bad = fetch(
                self.url,
                "SELECT (SELECT count(*) FROM pg_constraint c JOIN pg_namespace n "
                "ON n.oid = c.connamespace WHERE n.nspname = 'public' AND NOT c.convalidated)"
                " + (SELECT count(*) FROM pg_index WHERE NOT indisvalid)",
            )[0][0]
            return _Rows([("ok",)] if bad == 0 else [(f"{bad} invalid constraints or indexes",)])
        if "sqlite_master" in sql:
            sql = (
                "SELECT 1 FROM information_schema.tables WHERE table_schema = 'public' "
                "AND table_name = 'ratings'"
            )
        return _Rows(fetch(self.url, sql, tuple(params)))

    def close(self) -> None:
        pass


class _Rows(list[tuple[Any, ...]]):
    def fetchone(self) -> tuple[Any, ...] | None:
        return self[0] if self else None

    def fetchall(self) -> list[tuple[Any, ...]]:
        return list(self)


def _kill_when_writing_pg(url: str, pid: int, stop: threading.Event, limit: float) -> bool:
    """Kill ``pid`` in the middle of a move's transaction: with ``games`` held in SHARE mode
    (:func:`_hold_games`, taken before the click went out if it could be; a move's write is
    one statement that waits there for ``games`` with nothing written, a game's last move a
    transaction that stops after its insert into ``moves``), kill the bot the moment
    ``pg_stat_activity`` or ``pg_locks`` shows that, then let go. Polling alone would
    rarely see a write of a millisecond or two between the turns this process's threads
    get. Give up when ``stop`` is set (the click
    was answered without a write) or after ``limit`` seconds. Return whether the write was
    under way at the signal."""
    from tests.support.postgres import run_sync

    async def watch() -> bool:
        conn = await _hold(url)
        deadline = time.monotonic() + limit
        try:
            while not stop.is_set() and time.monotonic() < deadline:
                async with _conn_lock():
                    # The watcher's transaction (it holds ``games``) would otherwise see
                    # the sessions as they were at its first look: PostgreSQL keeps the
                    # activity it showed for the rest of a transaction.
                    await conn.execute("SELECT pg_stat_clear_snapshot()")
                    locked = await conn.fetchval(_MOVES_LOCKED)
                if locked is not None:
                    with contextlib.suppress(ProcessLookupError):
                        os.kill(pid, signal.SIGKILL)
                    return True
                await asyncio.sleep(0.0002)
            return False
        finally:
            await _let_go(url)

    return run_sync(watch())


async def _hold(url: str) -> Any:
    """Hold ``games`` in SHARE mode on the watcher's connection (once); return it."""
    async with _conn_lock():
        conn = await _watcher(url)
        if url not in _holding:
            transaction = conn.transaction()
            await transaction.start()
            await conn.execute("LOCK TABLE games IN SHARE MODE")
            _holding[url] = transaction
        return conn


async def _let_go(url: str) -> None:
    async with _conn_lock():
        transaction = _holding.pop(url, None)
        if transaction is not None:
            await transaction.rollback()


_locks: list[asyncio.Lock] = []


def _conn_lock() -> asyncio.Lock:
    """One operation at a time on the watcher's connection (clicks of several games may
    hold, poll and let go at once); made on the helpers' loop, where it is used."""
    if not _locks:
        _locks.append(asyncio.Lock())
    return _locks[0]


def _hold_games(url: str) -> None:
    from tests.support.postgres import run_sync

    run_sync(_hold(url))


def _let_go_of_games(url: str) -> None:
    from tests.support.postgres import run_sync

    run_sync(_let_go(url))


_holding: dict[str, Any] = {}
_lock_watchers: dict[str, Any] = {}


async def _watcher(url: str) -> Any:
    """Return the connection :func:`_kill_when_writing_pg` holds and polls on, opened once."""
    conn = _lock_watchers.get(url)
    if conn is None or conn.is_closed():
        import asyncpg

        conn = _lock_watchers[url] = await asyncpg.connect(url)
    return conn


def _open_lock_watcher(url: str) -> None:
    """Open the watcher's connection ahead of the first kill (connecting takes longer
    than a move's write)."""
    from tests.support.postgres import run_sync

    run_sync(_watcher(url))


# A move's write under way: its statement (the moves, the owed posts and the games row in
# one) waiting for ``games``, or a game's last move (a transaction that also writes the
# results) past its insert into ``moves``.
_MOVES_LOCKED = (
    "SELECT 1 WHERE EXISTS (SELECT 1 FROM pg_stat_activity WHERE pid <> pg_backend_pid() "
    "AND wait_event_type = 'Lock' AND query LIKE '%INSERT INTO moves%') "
    "OR EXISTS (SELECT 1 FROM pg_locks l JOIN pg_class c ON c.oid = l.relation "
    "WHERE c.relname = 'moves' AND l.mode = 'RowExclusiveLock' AND l.granted "
    "AND l.pid <> pg_backend_pid())"
)


def _table_states(path: Path | str, game: CrashGame) -> list[str]:
    """Each game's state in the database: mid-trick, mid-distribution, between tricks, ..."""
    states = []
    with contextlib.closing(_connect(path)) as db:
        games = db.execute(
            "SELECT id, seed, options, status FROM games WHERE game = ? ORDER BY id", (game.name,)
        ).fetchall()
        for game_id, seed, options, status in games:
            if status != "playing":
                states.append(status)
                continue
            moves = [
                m
                for (m,) in db.execute(
                    "SELECT move FROM moves WHERE game_id = ? ORDER BY ply", (game_id,)
                )
            ]
            state = _replay(game, seed, options, moves)
            states.append(game.state_word(state))
    return states


def _engine_options(game: CrashGame, options: str) -> Any:
    """The engine's options of a table, from its stored ``games.options``."""
    ui = bot_games.get(game.name)
    table = TableOptions.from_json(json.loads(options), game_fields(ui))
    return engine_options(ui, table, game.seats)


def _replay(game: CrashGame, seed: int, options: str, moves: list[str]) -> Any:
    """The game after ``moves``, by the engine's ``Game.replay``."""
    return engine_games.get(game.name).replay(seed, _engine_options(game, options), moves)


def _moment_of(states: list[str], words: Sequence[str]) -> str:
    for word in words:
        if word in states:
            return word
    return "between tricks"


async def verify_database(
    path: Path | str,
    games: list[tuple[int, int, list[int]]],
    told: list[Told],
    attempted: dict[tuple[int, int, int, str, int], set[str]],
    *,
    lost: Sequence[tuple[int, Expect]] = (),
    game: CrashGame | None = None,
) -> DbCheck:
    """Check the database against what members were told and pressed. ``games``: (game id,
    guild id, member ids by seat), all of ``game`` (Dupe by default), which must be
    registered in this process (:meth:`CrashGame.registered`)."""
    game = game or DUPE
    engine = engine_games.get(game.name)
    check = DbCheck(games=len(games), told=len(told))
    problems = check.problems
    logged: dict[int, dict[tuple[int, int, str, int], list[str]]] = {}
    totals: dict[int, tuple[int, ...]] = {}
    winners: dict[int, tuple[int, ...]] = {}
    seating: dict[int, dict[int, int]] = {}  # game → seat → member
    with contextlib.closing(_connect(path)) as db:
        check.integrity = ", ".join(r[0] for r in db.execute("PRAGMA integrity_check"))
        for game_id, _guild, members in games:
            row = db.execute(
                "SELECT seed, options, status, game FROM games WHERE id = ?", (game_id,)
            ).fetchone()
            if row is None:
                problems.append(f"game {game_id}: not in the database")
                continue
            seed, options, status, name = row
            if name != game.name:
                problems.append(f"game {game_id}: a game of {name}, not {game.name}")
                continue
            rows = db.execute(
                "SELECT ply, seat, move, by_computer FROM moves WHERE game_id = ? ORDER BY ply",
                (game_id,),
            ).fetchall()
            check.moves_logged += len(rows)
            plies = [r[0] for r in rows]
            if plies != list(range(len(rows))):
                problems.append(f"game {game_id}: plies are not 0..{len(rows) - 1}")
            state = _replay(game, seed, options, [])
            by_decision: dict[tuple[int, int, str, int], list[str]] = {}
            for ply, seat, text, by_computer in rows:
                move = engine.parse_move(text)
                if move.seat != seat:
                    problems.append(f"game {game_id} ply {ply}: seat {seat} but move {text}")
                key = game.decision(state, move.seat)
                by_decision.setdefault(key, []).append(text)
                if by_computer:
                    problems.append(f"game {game_id} ply {ply}: {text} made by a computer")
                else:
                    check.member_moves_logged += 1
                if text not in attempted.get((game_id, *key), set()):
                    check.unpressed += 1
                    problems.append(f"game {game_id} ply {ply}: {text} was never pressed")
                try:
                    state.apply(move.seat, move.action)
                except Exception as error:
                    problems.append(f"game {game_id} ply {ply}: {text} does not replay: {error}")
                    break
            for key, texts in by_decision.items():
                if len(texts) > 1:
                    check.duplicates += len(texts) - 1
                    problems.append(f"game {game_id}: decision {key} has moves {texts}")
            logged[game_id] = by_decision
            if status != "finished" or not state.is_over:
                problems.append(
                    f"game {game_id}: status {status}, replay over: {state.is_over} "
                    f"({len(rows)} moves)"
                )
                continue
            check.games_finished += 1
            result = state.result()
            totals[game_id] = tuple(result.scores)
            winners[game_id] = tuple(result.winners)
            results = db.execute(
                "SELECT seat, user_id, score, win FROM results WHERE game_id = ? ORDER BY seat",
                (game_id,),
            ).fetchall()
            scores = tuple(r[2] for r in results)
            if scores != tuple(result.scores) or [r[0] for r in results] != list(range(game.seats)):
                check.replay_mismatches += 1
                problems.append(
                    f"game {game_id}: stored scores {scores} but the replay gives "
                    f"{tuple(result.scores)}"
                )
            seated = dict(
                db.execute("SELECT seat, user_id FROM seats WHERE game_id = ?", (game_id,))
            )
            if sorted(seated.values()) != sorted(members):
                problems.append(f"game {game_id}: seats {seated}, members {members}")
            seating[game_id] = seated
            for seat, user_id, _score, win in results:
                share = result.share(seat)
                if user_id != seated.get(seat) or abs(win - share) > 1e-9:
                    check.replay_mismatches += 1
                    problems.append(f"game {game_id} seat {seat}: result {user_id}, win {win}")
    for entry in told:
        texts = logged.get(entry.game, {}).get(entry.expect.key, [])
        count = texts.count(entry.expect.move)
        if count == 1 and len(texts) == 1:
            check.told_found_once += 1
        else:
            problems.append(
                f"game {entry.game}: told {entry.expect.move} at {entry.expect.key}, "
                f"logged there: {texts}"
            )
    told_moves = {(t.game, t.expect.key, t.expect.move) for t in told}
    for game_id, expect in lost:
        texts = logged.get(game_id, {}).get(expect.key, [])
        if expect.move not in texts:
            check.lost_dropped += 1
        elif (game_id, expect.key, expect.move) in told_moves:
            check.lost_retried += 1
        else:
            check.lost_committed += 1
    check.leaderboard_ok = await _check_leaderboard(
        path, game.name, games, seating, totals, winners, problems
    )
    return check


async def _check_leaderboard(
    path: Path | str,
    name: str,
    games: list[tuple[int, int, list[int]]],
    seating: dict[int, dict[int, int]],
    totals: dict[int, tuple[int, ...]],
    winners: dict[int, tuple[int, ...]],
    problems: list[str],
) -> bool:
    expected: dict[int, dict[int, list[float]]] = {}  # guild → user → [games, wins, points]
    for game_id, guild_id, _members in games:
        if game_id not in totals or game_id not in seating:
            continue
        for seat, user_id in seating[game_id].items():
            row = expected.setdefault(guild_id, {}).setdefault(user_id, [0, 0.0, 0])
            row[0] += 1
            won = winners[game_id]
            row[1] += (1 / len(won)) if seat in won else 0.0
            row[2] += totals[game_id][seat]
    store = await open_store(str(path)) if isinstance(path, str) else await SQLiteStore.open(path)
    ok = True
    try:
        for guild_id, users in expected.items():
            rows, count = await store.leaderboard(guild_id, name, limit=10_000)
            got = {r.user_id: [r.games, r.wins, r.points] for r in rows}
            if count != len(users) or set(got) != set(users):
                problems.append(f"leaderboard of {guild_id}: {count} rows for {len(users)} members")
                ok = False
            for user_id, (n, wins, points) in users.items():
                have = got.get(user_id)
                if have is None or have[0] != n or abs(have[1] - wins) > 1e-9 or have[2] != points:
                    problems.append(
                        f"leaderboard: member {user_id} has {have}, expected {[n, wins, points]}"
                    )
                    ok = False
    finally:
        await store.close()
    with contextlib.closing(_connect(path)) as db:
        has_ratings = db.execute(
            "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'ratings'"
        ).fetchone()
        for guild_id, users in expected.items() if has_ratings else ():
            rated = dict(
                db.execute(
                    "SELECT player, games FROM ratings WHERE guild_id = ? AND game = ?",
                    (guild_id, name),
                )
            )
            for user_id, (n, _wins, _points) in users.items():
                if rated.get(str(user_id)) != n:
                    problems.append(
                        f"ratings: member {user_id} rated over {rated.get(str(user_id))} "
                        f"game(s), played {n}"
                    )
                    ok = False
    return ok
