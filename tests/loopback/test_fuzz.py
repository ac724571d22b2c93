"""Forged custom ids and option values against the real bot process (``python -m bot``).

One loopback Discord and ONE bot subprocess serve the whole module. The world: a server
with a full lobby, an open lobby, a game in play (two members seated, each with a private
hand), a game whose member has taken a trick and must distribute it, a Doppelkopf table
whose member must declare (its controls carry the action: a forged one is legitimate only
if the engine would take it), a Double Dummy whist table one card into its first trick (its
controls carry the action too: a card or a claim of a hand the presser decides for), a
Dukes Up! table whose mover has drawn and laid a group that does not hold yet (its panel's
buttons, select menus and the Regroup… form carry the action, read by the game's own
``control``: a forged one is legitimate only if the engine would take what it means), a
cancelled table,
three finished games (a two-page leaderboard), a channel without a table and members
seated nowhere; and a second server whose member may manage *that* server.

Hypothesis then sends thousands of interactions a client could forge: component clicks
with random strings and mutations of real custom ids (other games, other seats,
stale and future turns, bad cards and payloads, non-bijective distributions, overlong
numbers, unicode, prefixes, ``lb:`` pages, ``rp:`` steps; select values), in the current
forms (``t:`` table buttons, ``g:`` private controls, see ``bot/ids.py``) and in the legacy
``dupe:`` forms the bot still accepts, on public and private messages, each
message carrying the forged button as a tampered client would show it; and slash commands,
built from the commands the bot synced, whose raw payload has unknown commands and
subcommands, options outside the declared choices and ranges, values of the wrong type and
unresolved users; and form (modal) submissions: Dukes Up!'s Regroup… form with typed
groups that are no regrouping (cards not on the table, typed twice or left out, words that
are no cards, anything at all) under its own and forged custom ids. For every interaction:
a callback (never "This interaction failed"), a
private answer (an ephemeral message, possibly deferred, or an in-place update of the
member's own private message) that is a readable sentence and not the apology for an
unexpected error, the
bot alive with no ERROR in its log, no public message touched, and the database rows
exactly as before. Interactions that would be legitimate (the host pressing Cancel, a
member of the server joining the open lobby, a member playing a card of the current trick
from their own seat, a complete distribution by the taker) are never sent. A sweep then
has every member press every known custom id on the messages they see.

``FUZZ_EXAMPLES`` sets the number of hypothesis examples for the clicks (default 400; the
slash commands get two thirds of it), each a batch of 1–8 interactions sent at once: about
5,000 interactions in all with the sweep (in both id forms), in 30–60 s. Runs are
derandomized, so CI is
reproducible (up to the give game, dealt from a random seed).
"""

from __future__ import annotations

import contextlib
import itertools
import os
import re
import sqlite3
import string
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot import games as bot_games
from bot import ids
from bot.game import Actions, Form, Step
from bot.games.dukes_up.render import sym
from bot.games.dukes_up.ui import UI as DUKES_UP_UI
from bot.games.dupe.ui import UI as DUPE_UI
from bot.i18n import t as words
from bot.store import SeatRecord, SQLiteStore
from engine.cards import parse_card
from engine.doppelkopf import DoppelkopfOptions
from engine.doppelkopf import parse_action as doppelkopf_action
from engine.doppelkopf import replay as doppelkopf_replay
from engine.dukes_up import DukesUpOptions
from engine.dukes_up import replay as dukes_up_replay
from engine.dupe import Move, new_game
from engine.dupe.players import make_player
from engine.errors import OptionsError, ParseError
from engine.game import options_from_json
from engine.whist import WhistOptions
from engine.whist import parse_action as whist_action
from engine.whist import replay as whist_replay
from tests.loopback.driver import (
    BotProcess,
    ChannelHandle,
    GuildHandle,
    LoopbackDiscord,
    MemberActor,
    MessageView,
)
from tests.loopback.fake_discord import (
    APPLICATION_COMMAND,
    CHANNEL_MESSAGE,
    DEFERRED_CHANNEL_MESSAGE,
    EPHEMERAL,
    LOADING,
    MANAGE_GUILD,
    MESSAGE_COMPONENT,
    MODAL_SUBMIT,
    UPDATE_MESSAGE,
    Interaction,
    Message,
)

pytestmark = pytest.mark.asyncio(loop_scope="module")

EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "400"))


def _settings(examples: int) -> settings:
    return settings(
        max_examples=examples,
        deadline=None,
        derandomize=True,
        database=None,
        print_blob=True,
        suppress_health_check=[
            HealthCheck.too_slow,
            HealthCheck.data_too_large,
            HealthCheck.filter_too_much,
        ],
    )


DAY = 86_400  # every table's turn time: no timer fires during the run
SEATS = "NESW"
RANKS = "23456789TJQKA"
SUITS = "SHDC"
CARDS = [r + s for r in RANKS for s in SUITS]

# The custom id grammar of bot/ids.py and of the legacy ids bot/games/dupe/ui.py still
# reads, to recognise what would be legitimate. A control's turn is the engine's decision
# counter (``State.turn``); a legacy one's is the trick's number in the game (0–51).
TABLE_BUTTONS = (
    "join",
    "leave",
    "addcpu",
    "start",
    "cancel",
    "hand",
    "refresh",
    "pic",
    "rematch",
    "handover",
)
LOBBY_BUTTONS = ("join", "leave", "addcpu", "start", "cancel")
_TABLE = re.compile(rf"t:(\d{{1,18}}):({'|'.join(TABLE_BUTTONS)})")
_CONTROL = re.compile(r"g:(\d{1,18}):(\d{1,2}):(\d{1,6}):([A-Za-z0-9,._+=\-]{0,64})")
_LEGACY_PLAY = re.compile(r"dupe:play:(\d{1,18}):([0-3]):(\d{1,2}):([2-9TJQKA][SHDC])")
_LEGACY_GIVE_OK = re.compile(r"dupe:giveok:(\d{1,18}):([0-3]):(\d{1,2}):([NESW]{4})")
_LEGACY_LOBBY = re.compile(r"dupe:lobby:(join|leave|addcpu|start|cancel):(\d{1,18})")
_HEADER = re.compile(r"· deal (\d) of 4 · trick (\d+) of 13")
# Where a mutation puts another game, seat or turn, by the id's first part.
_POSITIONS = {
    "dupe": {"game": 2, "seat": 3, "turn": 4},
    "g": {"game": 1, "seat": 2, "turn": 3},
    "t": {"game": 1},
    "rp": {"game": 1, "turn": 2},
}


# --- the world ------------------------------------------------------------------------


@dataclass(slots=True)
class Seated:
    """A live table (all are on the home server) as the fuzzer needs it: who sits where,
    and the current turn (as controls carry it, and as legacy ids did)."""

    game_id: int
    channel: ChannelHandle
    host: MemberActor
    seats: dict[int, MemberActor] = field(default_factory=dict)  # members only
    turn: int | None = None
    legacy_turn: int | None = None
    open: bool = False  # a lobby with free seats and no computer level
    state: Any = None  # a Doppelkopf table's engine state (its controls carry the action)
    whist: Any = None  # a whist table's engine state (its controls carry the action too)
    dukes: Any = None  # a Dukes Up! table's engine state (its controls are read by its UI)


@dataclass
class World:
    discord: LoopbackDiscord
    bot: BotProcess
    database: Path
    home: GuildHandle
    away: GuildHandle
    actors: list[MemberActor]
    guild_of: dict[int, GuildHandle]
    tables: dict[str, Seated]
    dead_games: list[int]  # cancelled and finished
    baseline: dict[str, list[tuple[Any, ...]]] = field(default_factory=dict)
    ids: list[str] = field(default_factory=list)  # the known custom ids, fixed at setup
    seen: dict[int, list[Message]] = field(default_factory=dict)  # carriers, fixed at setup
    sent: dict[str, int] = field(default_factory=lambda: {"click": 0, "slash": 0, "form": 0})
    # The forged clicks by what the bot reads in their custom ids: a current id (bot.ids),
    # a legacy ``dupe:`` one, or none of its own.
    forms: dict[str, int] = field(default_factory=lambda: {"current": 0, "legacy": 0, "none": 0})
    # The forged clicks whose current id names a table, by table.
    hits: dict[int, int] = field(default_factory=dict)
    skipped: int = 0
    seconds: float = 0.0
    log_offset: int = 0
    _db: sqlite3.Connection | None = None
    _public: set[int] = field(default_factory=set)
    _counted: int = 0

    def __repr__(self) -> str:
        return "World()"

    def _repr_pretty_(self, printer: Any, cycle: bool) -> None:  # hypothesis's printer
        printer.text(repr(self))

    # -- observations ------------------------------------------------------------------

    def rows(self) -> dict[str, list[tuple[Any, ...]]]:
        """Every row of every table of the bot's database (in storage order, which only
        a write changes)."""
        if self._db is None:
            self._db = sqlite3.connect(f"file:{self.database}?mode=ro", uri=True)
        db = self._db
        names = [
            r[0]
            for r in db.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
                " ORDER BY name"
            )
        ]
        return {n: db.execute(f'SELECT * FROM "{n}"').fetchall() for n in names}

    def public(self) -> dict[int, tuple[Any, ...]]:
        """Every public message of both servers, as it is now (new messages since the last
        call are looked at once: the bot answered privately, so none may be public)."""
        server = self.discord.server
        fresh = itertools.islice(server.messages.values(), self._counted, None)
        self._public |= {m.id for m in fresh if m.ephemeral_to is None}
        self._counted = len(server.messages)
        shown = (server.messages[i] for i in sorted(self._public))
        return {
            m.id: (m.edits, m.content, repr(m.embeds), repr(m.components), m.deleted) for m in shown
        }

    def new_errors(self) -> list[str]:
        """ERROR lines and tracebacks the bot logged since the last call."""
        with self.bot.log_path.open("rb") as log:
            log.seek(self.log_offset)
            fresh = log.read()
        fresh = fresh[: fresh.rfind(b"\n") + 1]  # whole lines only
        self.log_offset += len(fresh)
        return [
            line
            for line in fresh.decode("utf-8", errors="replace").splitlines()
            if " ERROR " in line or " CRITICAL " in line or line.startswith("Traceback")
        ]

    def carriers(self, actor: MemberActor) -> list[Message]:
        """The messages the member sees: public ones of their server, their private ones
        (their latest four: the hands, the rules, the leaderboard, a replay)."""
        server = self.discord.server
        guild = self.guild_of[actor.id]
        public = [
            m
            for m in server.messages.values()
            if m.guild_id == guild.id and m.ephemeral_to is None and not m.deleted
        ]
        return public + server.private_messages(actor.id)[-4:]

    def known_ids(self) -> list[str]:
        """Every custom id on every message, public or private: what forgers start from."""
        server = self.discord.server
        found = {
            b["custom_id"]
            for m in server.messages.values()
            for b in MessageView.of(m).buttons()
            if "custom_id" in b
        }
        for table in self.tables.values():
            game = table.game_id
            found |= {f"t:{game}:{w}" for w in TABLE_BUTTONS}
            found |= {f"dupe:lobby:{w}:{game}" for w in LOBBY_BUTTONS}
            found.add(f"dupe:hand:{game}")
            if table.turn is not None:
                for seat in range(4):
                    for payload in ("pAS", "gN", "g", "kNESW"):
                        found.add(f"g:{game}:{seat}:{table.turn}:{payload}")
            if table.whist is not None and table.turn is not None:
                # Whist's own (its hands show its cards): a card of the turn before, a claim
                # of every trick, “Claim tricks…”, Humbug's keep.
                for seat in range(2):
                    found.add(f"g:{game}:{seat}:{table.turn - 1}:=2C")
                    for payload in ("=claim.13", "c", "=keep"):
                        found.add(f"g:{game}:{seat}:{table.turn}:{payload}")
            if table.dukes is not None and table.turn is not None:
                # Dukes Up!'s own, and a draw of the turn before.
                for seat in range(2):
                    for payload in DUKES_UP_PAYLOADS:
                        found.add(f"g:{game}:{seat}:{table.turn}:{payload}")
                    found.add(f"g:{game}:{seat}:{table.turn - 1}:dd2")
            if table.legacy_turn is not None:
                for seat in range(4):
                    found.add(f"dupe:play:{game}:{seat}:{table.legacy_turn}:AS")
                    found.add(f"dupe:give:{game}:{seat}:{table.legacy_turn}:N")
                    found.add(f"dupe:giveok:{game}:{seat}:{table.legacy_turn}:NESW")
        for game in self.dead_games:
            found |= {f"t:{game}:start", f"t:{game}:hand", f"t:{game}:refresh"}
            found.add(f"g:{game}:0:0:p2C")
            found |= {f"dupe:lobby:start:{game}", f"dupe:hand:{game}", f"dupe:play:{game}:0:0:2C"}
        for game in [t.game_id for t in self.tables.values()] + self.dead_games:
            found |= {f"rp:{game}:0:n", f"rp:{game}:1:p", f"rp:{game}:3:d2"}
            found |= {f"t:{game}:pic", f"t:{game}:rematch"}
            found |= {f"dupe:pic:{game}", f"dupe:rematch:{game}"}
        for guild in (self.home.id, self.away.id):
            found |= {f"lb:{guild}:0", f"lb:{guild}:1", f"lb:{guild}:dupe:wins:1"}
        return sorted(found)

    # -- what would be legitimate --------------------------------------------------------

    def legitimate_click(
        self, actor: MemberActor, custom_id: str, values: list[str] | None = None
    ) -> bool:
        """Whether the click (or a form submitted under ``custom_id``; ``values``: what a
        select menu chose or the form's fields hold) is one the member may really make with
        an effect, or one answered with a form (so it is not a forgery this test can judge
        by an unchanged database and a private message)."""
        lobby = None
        if m := _TABLE.fullmatch(custom_id):
            lobby = (m.group(2), int(m.group(1)))
        elif m := _LEGACY_LOBBY.fullmatch(custom_id):
            lobby = (m.group(1), int(m.group(2)))
        if lobby is not None:
            what, game = lobby
            table = self._table(game)
            if what == "handover":  # a member in play (not the last one) leaves it
                return (
                    table is not None
                    and table.turn is not None
                    and actor in table.seats.values()
                    and len(table.seats) > 1
                )
            if table is None or what not in LOBBY_BUTTONS:
                return False  # My hand, Refresh, a picture, Rematch: nothing changes
            if what in ("start", "cancel"):
                return table.host is actor
            # Only the open lobby takes members (of its own server), and only its host sits
            # there: the full lobby and the started games refuse the rest.
            here = self.guild_of[actor.id] is self.home
            seated = actor in table.seats.values()
            if not table.open or not here:
                return False
            return (what == "join" and not seated) or (what == "addcpu" and seated)
        if m := _CONTROL.fullmatch(custom_id):
            game, seat, turn, payload = int(m[1]), int(m[2]), int(m[3]), m[4]
            table = self._table(game)
            if table is None or table.seats.get(seat) is not actor or turn != table.turn:
                return False
            if table.whist is not None:  # whist: ``=<action>`` for a hand the seat decides for
                return _whist_takes(table.whist, seat, payload)
            if table.dukes is not None:  # Dukes Up!: what the game's UI reads the control as
                return _dukes_up_takes(table.dukes, seat, payload, values or [])
            if table.state is not None:  # Doppelkopf: ``=<action>`` acts if the engine takes it
                if not payload.startswith("="):
                    return False  # a step of a choice of cards only shows the hand again
                try:
                    action = doppelkopf_action(payload[1:].replace(".", ":"))
                except ParseError:
                    return False
                return action in table.state.legal_actions(seat)
            if payload.startswith("k"):  # Confirm: a whole distribution
                return sorted(payload[1:]) == sorted(SEATS)
            if payload.startswith("p"):  # a card, written as the engine reads one
                try:
                    parse_card(payload[1:])
                except ParseError:
                    return False
                return True
            return False  # a distribution step only shows the hand again
        for pattern in (_LEGACY_PLAY, _LEGACY_GIVE_OK):
            if m := pattern.fullmatch(custom_id):
                game, seat, turn = int(m.group(1)), int(m.group(2)), int(m.group(3))
                table = self._table(game)
                if (
                    table is not None
                    and table.seats.get(seat) is actor
                    and table.legacy_turn is not None
                    and turn == table.legacy_turn
                ):
                    return pattern is _LEGACY_PLAY or sorted(m.group(4)) == sorted(SEATS)
        return False

    def legitimate_slash(self, actor: MemberActor, channel_id: int, data: dict[str, Any]) -> bool:
        """Whether the command would really change something: a table of any game opened in
        a channel without one, the host's cancel, a server manager setting their server's
        defaults (all with every declared option among its choices, and options the game
        takes together)."""
        options = data.get("options") or []
        ui = next(
            (
                u
                for u in bot_games.GAMES
                if words("en", f"{u.name}.command_name") == data.get("name")
            ),
            None,
        )
        if ui is None or not options or options[0].get("type") != 1:
            return False
        sub = options[0]
        guild = self.guild_of[actor.id]
        group = next(
            (c for c in self.discord.server.commands_for(guild.id) if c["name"] == data["name"]),
            {},
        )
        spec = next((o for o in group.get("options") or [] if o["name"] == sub["name"]), None)
        if spec is None:
            return False
        declared = {o["name"]: o for o in spec.get("options") or []}
        given = [o for o in sub.get("options") or [] if o.get("name") in declared]
        valid = all(_is_valid(declared[o["name"]], o.get("value")) for o in given)
        valid = valid and _fits(ui, given)  # the game takes them together (Doppelkopf)
        table = next((t for t in self.tables.values() if t.channel.id == channel_id), None)
        if sub["name"] == "cancel":
            return table is not None and table.host is actor
        if sub["name"] == "start":
            return table is None and valid
        if sub["name"] == "defaults":
            manager = bool(guild.guild.members[actor.id].permissions & MANAGE_GUILD)
            return manager and bool(given) and valid
        return False

    def _table(self, game_id: int) -> Seated | None:
        return next((t for t in self.tables.values() if t.game_id == game_id), None)


def _fits(ui: Any, given: list[dict[str, Any]]) -> bool:
    """Whether the game's own options among ``given`` (by their displayed names) make
    options the engine accepts together: Doppelkopf's rounds belong to the house rules…"""
    own = {}
    for spec in ui.options:
        shown = words("en", spec.name_key)
        for option in given:
            if option.get("name") == shown:
                value = option.get("value")
                own[spec.name] = value == "on" if value in ("on", "off") else value
    try:
        options_from_json(ui.game.options_type, own)
    except (OptionsError, TypeError):
        return False
    return True


def _is_valid(spec: dict[str, Any], value: Any) -> bool:
    """Whether discord.py would take ``value`` for the option declared as ``spec`` (so
    the command may run): one of its choices, if it has any."""
    choices = [c["value"] for c in spec.get("choices") or []]
    return not choices or any(value == c and type(value) is not bool for c in choices)


async def _seed_finished_games(database: Path, guild_id: int, channel_id: int) -> list[int]:
    """Three games played to the end by random players, as the bot would have stored them:
    twelve members on this server's leaderboard (two pages)."""
    store = await SQLiteStore.open(database)
    games = []
    try:
        user = itertools.count(10**17)
        for number in range(3):
            seed = 1000 + number
            seats = [SeatRecord(s, next(user), f"player {number}{s}", None) for s in range(4)]
            now = time.time()
            game_id = await store.create_game(
                game="dupe",
                guild_id=guild_id,
                channel_id=channel_id,
                host_id=seats[0].user_id or 0,
                seed=seed,
                options={"memory": "strict", "turn_seconds": DAY, "level": "random"},
                now=now,
                host_seat=seats[0],
            )
            state = new_game(seed)
            players = [make_player("random", seed * 4 + s) for s in range(4)]
            moves: list[tuple[int, str, bool]] = []
            while not state.is_over:
                seat = state.to_act[0]
                action = players[seat].act(state.view(seat))
                state.apply(seat, action)
                moves.append((seat, str(Move(seat, action)), False))
            await store.start_game(game_id, seats, now, DAY + now, moves[:-1])
            winners = state.winners
            results = [
                (s, seats[s].user_id, None, state.totals[s], 1 / len(winners) * (s in winners))
                for s in range(4)
            ]
            await store.append_moves(
                game_id, len(moves) - 1, moves[-1:], now, None, results=results, guild_id=guild_id
            )
            games.append(game_id)
    finally:
        await store.close()
    return games


def _turn_of(message: MessageView | None) -> int:
    """The turn the controls of a private hand carry."""
    return _hand_control(message).turn


def _seat_of(message: MessageView | None) -> int:
    """The seat the controls of a private hand carry."""
    return _hand_control(message).seat


def _doppelkopf_state(database: Path, game_id: int) -> Any:
    """The Doppelkopf table's engine state, replayed from the bot's database."""
    with sqlite3.connect(f"file:{database}?mode=ro", uri=True) as db:
        ((seed,),) = db.execute("SELECT seed FROM games WHERE id = ?", (game_id,))
        moves = [
            m
            for (m,) in db.execute(
                "SELECT move FROM moves WHERE game_id = ? ORDER BY ply", (game_id,)
            )
        ]
    return doppelkopf_replay(seed, DoppelkopfOptions(), moves)


def _whist_state(database: Path, game_id: int, options: WhistOptions) -> Any:
    """The whist table's engine state, replayed from the bot's database."""
    with sqlite3.connect(f"file:{database}?mode=ro", uri=True) as db:
        ((seed,),) = db.execute("SELECT seed FROM games WHERE id = ?", (game_id,))
        moves = [
            m
            for (m,) in db.execute(
                "SELECT move FROM moves WHERE game_id = ? ORDER BY ply", (game_id,)
            )
        ]
    return whist_replay(seed, options, moves)


def _whist_takes(state: Any, seat: int, payload: str) -> bool:
    """Whether the whist control ``payload`` of player ``seat`` is an action the engine
    takes now from a hand that player decides for (a card, a claim, keep or exchange)."""
    if not payload.startswith("="):
        return False  # “Claim tricks…” and “Back” only show the hand again
    try:
        action = whist_action(payload[1:].replace(".", ":"))
    except ParseError:
        return False
    return any(
        state.player_at(state.controller(hand)) == seat and action in state.legal_actions(hand)
        for hand in state.to_act
    )


# Dukes Up!'s select menus and its form: the panels' buttons are among the known ids already.
DUKES_UP_PAYLOADS = ("cs", "dk", "dc1", "dc2", "dc4", "sc", "ad1", "rt")


def _dukes_up_takes(state: Any, seat: int, payload: str, values: list[str]) -> bool:
    """Whether the Dukes Up! control ``payload`` of ``seat`` (with a select's or a form's
    ``values``) is an action the engine takes now, or opens a form (answered with the form:
    no message to judge)."""
    try:
        meant = DUKES_UP_UI.control(state.view(seat), ids.with_values(payload, values))
    except Exception:  # refused with a sentence (or a bug: sent, and the judge sees it)
        return False
    if isinstance(meant, Step):
        return False  # the panel shown again, at its next step
    if isinstance(meant, Form):
        return True
    stage = state.clone()
    try:
        for action in meant.actions if isinstance(meant, Actions) else (meant,):
            stage.apply(seat, action)
    except Exception:
        return False
    return True


def _dukes_up_state(database: Path, game_id: int) -> Any:
    """The Dukes Up! table's engine state, replayed from the bot's database."""
    with sqlite3.connect(f"file:{database}?mode=ro", uri=True) as db:
        ((seed,),) = db.execute("SELECT seed FROM games WHERE id = ?", (game_id,))
        moves = [
            m
            for (m,) in db.execute(
                "SELECT move FROM moves WHERE game_id = ? ORDER BY ply", (game_id,)
            )
        ]
    return dukes_up_replay(seed, DukesUpOptions(), moves)


def _legacy_turn_of(message: MessageView | None) -> int:
    """The turn a legacy control of the hand would carry: its trick's number in the game."""
    assert message is not None
    header = _HEADER.search(message.content)
    assert header is not None, message.text
    return (int(header.group(1)) - 1) * 13 + int(header.group(2)) - 1


def _control_of(custom_id: str) -> ids.Control:
    parsed = ids.parse(custom_id)
    assert isinstance(parsed, ids.Control), custom_id
    return parsed


def _hand_control(message: MessageView | None) -> ids.Control:
    assert message is not None
    for control in message.controls(enabled=False):
        return control
    raise AssertionError(f"no controls on {message.labels()}")


@pytest_asyncio.fixture(loop_scope="module", scope="module")
async def world(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[World]:
    workdir = tmp_path_factory.mktemp("fuzz")
    async with LoopbackDiscord.start(action_timeout=10.0) as discord:
        home = discord.create_guild("Dupe Club")
        away = discord.create_guild("Elsewhere")
        channels = {
            name: home.create_channel(name)
            for name in ("lobby", "give", "open", "done", "empty", "doko", "whist", "dukes")
        }
        channels["play"] = home.channel
        names = ["alice", "bob", "carol", "dave", "frank", "hana", "oscar", "olga", "otto", "ute"]
        names += ["duke", "duchess"]
        members = {name: home.add_member(name) for name in names}
        # An admin of another server (not this one), and a plain member there.
        members["mallory"] = away.add_member("mallory", manage_guild=True)
        members["eve"] = away.add_member("eve")
        database = workdir / "dupe.sqlite3"
        dead = await _seed_finished_games(database, home.id, channels["done"].id)

        bot = discord.bot_process(workdir, database=database)
        async with bot:
            alice, bob, carol, dave, frank = (members[n] for n in names[:5])
            start = {"computers": "random", "turn_time": DAY}
            # A game in play: alice (host, North) and bob (East) must both choose a card.
            lobby = await alice.slash(channels["play"], "dupe start", **start)
            await bob.click(lobby, label="Join")
            await alice.click(lobby, label="Start")
            play_hands = [await m.click(lobby, label="My hand") for m in (alice, bob)]
            seats = {
                _seat_of(hand.message): m for hand, m in zip(play_hands, (alice, bob), strict=True)
            }
            play = Seated(_game_id(lobby.message), channels["play"], alice, seats)
            play.turn = _turn_of(play_hands[0].message)
            play.legacy_turn = _legacy_turn_of(play_hands[0].message)
            assert play.turn == _turn_of(play_hands[1].message)
            # A full lobby: carol and three computers.
            full = await carol.slash(channels["lobby"], "dupe start", **start)
            for _ in range(3):
                await carol.click(full, label="Add computer")
            full_lobby = Seated(_game_id(full.message), channels["lobby"], carol, {0: carol})
            # A game where dave took the trick and must distribute it.
            given = await dave.slash(channels["give"], "dupe start", **start)
            await dave.click(given, label="Start")
            hand = (await dave.click(given, label="My hand")).message
            for _ in range(52):
                assert hand is not None
                if hand.custom_ids(kind="give"):
                    break
                cards = hand.custom_ids(kind="play")
                assert cards, hand.text
                hand = (await dave.click(hand, custom_id=cards[0])).message
            assert hand is not None and hand.custom_ids(kind="give"), "dave never took a trick"
            taking = Seated(_game_id(given.message), channels["give"], dave, {_seat_of(hand): dave})
            taking.turn = _turn_of(hand)
            taking.legacy_turn = _legacy_turn_of(hand)
            # An open lobby: hana alone, no computers; members of this server may join.
            hana = members["hana"]
            waiting = await hana.slash(channels["open"], "dupe start", computers="none")
            open_lobby = Seated(_game_id(waiting.message), channels["open"], hana, {0: hana})
            open_lobby.open = True
            # A Doppelkopf table: otto deals, ute (seat 2) must declare first; two computers.
            otto, ute = members["otto"], members["ute"]
            doko = await otto.slash(channels["doko"], "doppelkopf start", **start)
            await ute.click(doko, label="Join")
            await otto.click(doko, label="Start")
            await otto.click(doko, label="My hand")
            ute_hand = (await ute.click(doko, label="My hand")).message
            doppelkopf = Seated(_game_id(doko.message), channels["doko"], otto, {0: otto, 1: ute})
            doppelkopf.turn = _turn_of(ute_hand)
            doppelkopf.state = _doppelkopf_state(database, doppelkopf.game_id)
            assert doppelkopf.state.to_act == (1,) and doppelkopf.state.turn == doppelkopf.turn
            # A Double Dummy table of oscar and olga, one card into the first trick: the
            # one due must play from a hand (their own, or their dummy). (Frank, whose table
            # is cancelled, is seated nowhere.)
            oscar, olga = members["oscar"], members["olga"]
            wh = await oscar.slash(
                channels["whist"],
                "whist start",
                variant="double_dummy",
                computers="none",
                turn_time=DAY,
            )
            await olga.click(wh, label="Join")
            await oscar.click(wh, label="Start")
            for member in (oscar, olga):
                whist_hand = (await member.click(wh, label="My hand")).message
                assert whist_hand is not None
                cards = whist_hand.custom_ids(kind="control")
                cards = [c for c in cards if len(_control_of(c).payload) == 3]
                if cards:
                    await member.click(whist_hand, custom_id=cards[0])
                    break
            whist_hands = [(await m.click(wh, label="My hand")).message for m in (oscar, olga)]
            whist = Seated(
                _game_id(wh.message),
                channels["whist"],
                oscar,
                {_seat_of(h): m for h, m in zip(whist_hands, (oscar, olga), strict=True)},
            )
            whist.turn = _turn_of(whist_hands[0])
            whist.whist = _whist_state(
                database, whist.game_id, WhistOptions(variant="double_dummy")
            )
            assert whist.whist.move_count == 1 and whist.whist.turn == whist.turn
            dukes = await _dukes_up_table(database, channels["dukes"], members)
            # A cancelled table.
            cancelled = await frank.slash(channels["done"], "dupe start", **start)
            await frank.slash(channels["done"], "dupe cancel")
            dead.append(_game_id(cancelled.message))
            # Private messages for everyone to click forged buttons on.
            synced = {c["name"] for c in discord.server.commands_for(home.id)}
            for name, member in members.items():
                guild = away if name in ("mallory", "eve") else home
                await member.slash(guild.channel, "dupe rules")
                await member.slash(guild.channel, "leaderboard")
                if "replay" in synced and guild is home:
                    await member.slash(guild.channel, "replay", game=dead[0])
            # The table messages are edited a moment after each change (a trick picture is
            # drawn first): wait until the bot has sent nothing for a second.
            await discord.settle(quiet=1.0, timeout=60.0)

            guild_of = {
                m.id: (away if n in ("mallory", "eve") else home) for n, m in members.items()
            }
            fuzz = World(
                discord=discord,
                bot=bot,
                database=database,
                home=home,
                away=away,
                actors=list(members.values()),
                guild_of=guild_of,
                tables={
                    "play": play,
                    "lobby": full_lobby,
                    "give": taking,
                    "open": open_lobby,
                    "doko": doppelkopf,
                    "whist": whist,
                    "dukes": dukes,
                },
                dead_games=dead,
            )
            assert_clean(fuzz)
            fuzz.baseline = fuzz.rows()
            fuzz.ids = fuzz.known_ids()
            fuzz.seen = {actor.id: fuzz.carriers(actor) for actor in fuzz.actors}
            assert fuzz.baseline["games"], "the database has no games"
            yield fuzz
            if fuzz._db is not None:
                fuzz._db.close()
            total = sum(fuzz.sent.values())
            forms = fuzz.forms
            print(
                f"\nfuzz: {total} forged interactions ({fuzz.sent['click']} clicks, "
                f"{fuzz.sent['slash']} slash commands, {fuzz.sent['form']} forms) in "
                f"{fuzz.seconds:.1f} s, "
                f"{fuzz.skipped} legitimate ones not sent; the clicks' ids read as current "
                f"{forms['current']}, legacy {forms['legacy']}, neither {forms['none']}"
            )


async def _control_click(
    member: MemberActor, message: MessageView | None, custom_id: str, values: list[str]
) -> MessageView:
    """Press a control of the member's panel by its custom id (a select menu's with
    ``values``), whatever the panel shows enabled now; return the answer."""
    assert message is not None
    server = member.discord.server
    data: dict[str, Any] = {"custom_id": custom_id, "component_type": 3 if values else 2}
    if values:
        data["values"] = values
    stored = server.messages[message.id]
    interaction = server._base_interaction(
        MESSAGE_COMPONENT, message.channel_id, member.id, data, message=stored
    )
    reply = await member._send(interaction, None)
    assert reply.message is not None and "⚠️" not in reply.message.content, reply.message
    return reply.message


async def _dukes_up_table(
    database: Path, channel: ChannelHandle, members: dict[str, MemberActor]
) -> Seated:
    """A Dukes Up! table of duke and duchess: both have chosen castle and dukes, and the
    mover has drawn and laid a group of two cards (a working copy that does not hold yet:
    Undo, Reset, Regroup… and every discard option have something to say)."""
    duke, duchess = members["duke"], members["duchess"]
    lobby = await duke.slash(channel, "dukesup start", computers="none", turn_time=DAY)
    await duchess.click(lobby, label="Join")
    await duke.click(lobby, label="Start")
    game_id = _game_id(lobby.message)
    state = _dukes_up_state(database, game_id)
    seats = {}
    for member in (duke, duchess):
        hand = (await member.click(lobby, label="My hand")).message
        seat, turn = _seat_of(hand), _turn_of(hand)
        seats[seat] = member
        castle, first, second, _ = state.view(seat).setup
        chosen = f"su{castle.code}.{first.code}.{second.code}"
        await _control_click(member, hand, ids.control(game_id, seat, turn, chosen), [])
    state = _dukes_up_state(database, game_id)
    (mover,) = state.to_act
    member = seats[mover]
    hand = (await member.click(lobby, label="My hand")).message
    draw = ids.control(game_id, mover, _turn_of(hand), "dd2")
    drawn = await _control_click(member, hand, draw, [])
    cards = [c.code for c in _dukes_up_state(database, game_id).view(mover).hand[:2]]
    placed = ids.control(game_id, mover, _turn_of(drawn), "nw" + ",".join(cards))
    await _control_click(member, drawn, placed, [])
    panels = [(await m.click(lobby, label="My hand")).message for m in (duke, duchess)]
    table = Seated(game_id, channel, duke, seats)
    table.turn = _turn_of(panels[0])
    assert table.turn == _turn_of(panels[1])
    table.dukes = _dukes_up_state(database, game_id)
    view = table.dukes.view(mover)
    assert view.table == (tuple(parse_card(c) for c in cards),), view
    assert len(view.actions) == 1 and view.hand, view
    return table


def _game_id(message: MessageView | None) -> int:
    assert message is not None
    for custom_id in message.custom_ids(enabled=False):
        parsed = ids.parse(custom_id)
        if isinstance(parsed, ids.TableButton | ids.Control):
            return parsed.table
    raise AssertionError(f"no game id on {message.labels()}")


def assert_clean(world: World) -> None:
    server = world.discord.server
    assert server.violations == []
    assert server.unknown_routes == []
    assert server.internal_errors == []
    assert [i.describe() for i in server.unanswered()] == []
    assert world.bot.returncode is None, world.bot.log_tail()
    assert world.new_errors() == [], world.bot.log_tail()


# --- strategies ---------------------------------------------------------------------------

CARD_CODES = [parse_card(c) for c in CARDS]
TYPED_WORDS = st.sampled_from(
    ["1S", "ZZ", "♠", "10", "A", "3S4S", "♠3♠4", "🂡", "G1", "1-2", "|", "x", "♠11", "0S", "٣S"]
) | st.text(max_size=6)

NUMBERS = st.one_of(
    st.integers(0, 60).map(str),
    st.integers(0, 10**25).map(str),
    st.sampled_from(["", "-1", "+1", "00", "007", "1e3", "0x1", "9" * 18, "9" * 19, "1" * 40]),
    st.text(string.digits, min_size=1, max_size=30),
    st.sampled_from(["٣", "３", "¹", "Ⅳ"]),  # digits that are not ASCII
)
TOKENS = st.one_of(
    NUMBERS,
    st.sampled_from(CARDS),
    st.sampled_from(["1S", "10H", "AX", "as", "ZZ", "A", "ASS", "🂡", "♠A"]),
    st.text(SEATS, max_size=6),
    st.text("NESWnesw ", max_size=5),
    st.sampled_from(["join", "leave", "addcpu", "start", "cancel", "hand", "play", "give"]),
    st.sampled_from(["pic", "rematch", "rp", "p", "n", "d1"]),
    st.sampled_from(["giveok", "lobby", "lb", "dupe", "JOIN", "start ", ""]),
    st.sampled_from(["t", "g", "refresh", "k", "pAS", "p10s", "p1S", "kNESW", "gNE", "g:"]),
    st.text(max_size=12),
)


@st.composite
def custom_ids(draw: st.DrawFn, world: World) -> str:
    """A forged custom id: random, a valid shape with chosen values, or a mutation."""
    kinds = ["mutant"] * 5 + ["shaped"] * 3 + ["random", "leaderboard", "replay"]
    kind = draw(st.sampled_from(kinds))
    games = [t.game_id for t in world.tables.values()] + world.dead_games
    game = draw(st.one_of(st.sampled_from(games).map(str), NUMBERS))
    turns = [t.turn for t in world.tables.values() if t.turn is not None]
    turns += [t.legacy_turn for t in world.tables.values() if t.legacy_turn is not None]
    turn = draw(
        st.one_of(
            st.sampled_from(turns).flatmap(
                lambda t: st.sampled_from([t - 1, t, t + 1, t + 2, t + 13, 0, 51, 52, 99, 104])
            ),
            st.integers(0, 99),
        ).map(lambda t: str(max(t, 0)))
        | NUMBERS
    )
    seat = draw(st.sampled_from("0123") | st.sampled_from(["4", "9", "-1", "00", "N", ""]))
    if kind == "random":
        return draw(st.text(max_size=120) | st.text(string.printable, max_size=100))
    if kind == "leaderboard":
        guild = draw(
            st.sampled_from([str(world.home.id), str(world.away.id)]) | NUMBERS,
        )
        page = draw(st.sampled_from(["0", "1", "2", "3", "10", "999999", "1000000"]) | NUMBERS)
        game_and_sort = draw(
            st.sampled_from(["", "dupe:rating:", "dupe:wins:", "dupe:points:"])
            | st.tuples(st.sampled_from(["dupe", "whist"]) | TOKENS, TOKENS).map(
                lambda pair: f"{pair[0]}:{pair[1]}:"
            )
        )
        return f"lb:{guild}:{game_and_sort}{page}"
    if kind == "replay":
        step = draw(st.sampled_from(["0", "1", "5", "999", "1000"]) | NUMBERS)
        tag = draw(st.sampled_from(["p", "n", "d1", "d4", "d5", "d0", "x"]) | TOKENS)
        return f"rp:{game}:{step}:{tag}"
    if kind == "shaped":
        card = draw(st.sampled_from(CARDS) | TOKENS)
        assignment = draw(
            st.permutations(SEATS).map("".join)
            | st.text(SEATS, max_size=5)
            | st.text("NESWX", min_size=4, max_size=4)
        )
        what = draw(st.sampled_from(TABLE_BUTTONS) | TOKENS)
        payload = draw(
            st.sampled_from(["p", "g", "k", "x", ""]).map(lambda k: k + card) | TOKENS,
        )
        return draw(
            st.sampled_from(
                [
                    f"t:{game}:{what}",
                    f"g:{game}:{seat}:{turn}:p{card}",
                    f"g:{game}:{seat}:{turn}:g{assignment[:3]}",
                    f"g:{game}:{seat}:{turn}:g{assignment}",
                    f"g:{game}:{seat}:{turn}:k{assignment}",
                    f"g:{game}:{seat}:{turn}:{payload}",
                    f"dupe:lobby:{what}:{game}",
                    f"dupe:hand:{game}",
                    f"dupe:pic:{game}",
                    f"dupe:rematch:{game}",
                    f"dupe:play:{game}:{seat}:{turn}:{card}",
                    f"dupe:give:{game}:{seat}:{turn}:{assignment[:3]}",
                    f"dupe:give:{game}:{seat}:{turn}:{assignment}",
                    f"dupe:giveok:{game}:{seat}:{turn}:{assignment}",
                ]
            )
        )
    base = draw(st.sampled_from(world.ids))
    parts = base.split(":")
    for _ in range(draw(st.integers(1, 3))):
        op = draw(
            st.sampled_from(
                ["replace"] * 4
                + ["game", "seat", "turn", "truncate", "insert", "drop", "dup"]
                + ["separator", "case", "pad", "unicode"]
            )
        )
        if op == "replace" and parts:
            parts[draw(st.integers(0, len(parts) - 1))] = draw(TOKENS)
        elif op in ("game", "seat", "turn") and len(parts) > 2:
            index = _POSITIONS.get(parts[0], {"game": 2, "seat": 3, "turn": 4}).get(op)
            if parts[0] == "lb" and index is not None:
                index = min(index, len(parts) - 1)
            if index is not None and index < len(parts):
                parts[index] = {"game": game, "seat": seat, "turn": turn}[op]
        elif op == "truncate":
            joined = ":".join(parts)
            return joined[: draw(st.integers(0, max(len(joined) - 1, 0)))]
        elif op == "insert":
            parts.insert(draw(st.integers(0, len(parts))), draw(TOKENS))
        elif op == "drop" and parts:
            del parts[draw(st.integers(0, len(parts) - 1))]
        elif op == "dup" and parts:
            index = draw(st.integers(0, len(parts) - 1))
            parts.insert(index, parts[index])
        elif op == "separator":
            sep = draw(st.sampled_from([";", "::", " : ", "/", "", "\u200b:", "：", "\n"]))
            return sep.join(parts)
        elif op == "case":
            return draw(st.sampled_from([str.upper, str.title, str.swapcase]))(":".join(parts))
        elif op == "pad":
            pad = draw(st.sampled_from([" ", "\n", "\t", "\x00", "\u200b", "\ufeff", ":"]))
            joined = ":".join(parts)
            return draw(st.sampled_from([pad + joined, joined + pad, pad + joined + pad]))
        elif op == "unicode":
            joined = ":".join(parts)
            where = draw(st.integers(0, len(joined)))
            return joined[:where] + draw(st.text(min_size=1, max_size=4)) + joined[where:]
    return ":".join(parts)


class Forged:
    """One forged interaction: a command (``data`` is the command's) or a click (``data``
    is the component's, shown on ``message``)."""

    __slots__ = ("actor", "channel_id", "data", "kind", "message")

    def __init__(
        self,
        kind: int,
        actor: MemberActor,
        channel_id: int,
        data: dict[str, Any],
        message: Message | None = None,
    ) -> None:
        self.kind = kind  # APPLICATION_COMMAND or MESSAGE_COMPONENT
        self.actor = actor
        self.channel_id = channel_id
        self.data = data
        self.message = message

    def __repr__(self) -> str:
        return self.describe()

    def _repr_pretty_(self, printer: Any, cycle: bool) -> None:  # hypothesis's printer
        printer.text(repr(self))

    def describe(self) -> str:
        where = f"message {self.message.id}" if self.message else f"channel {self.channel_id}"
        private = " (private)" if self.message and self.message.ephemeral else ""
        return f"{self.actor.name} on {where}{private}: {self.data!r}"


@st.composite
def clicks(draw: st.DrawFn, world: World) -> Forged:
    """A click on a forged button: by anyone, on a message they see, public or private."""
    actor = draw(st.sampled_from(world.actors))
    message = draw(st.sampled_from(world.seen[actor.id]))
    custom_id = draw(custom_ids(world))
    component_type = draw(st.sampled_from([2] * 9 + [3]))
    data: dict[str, Any] = {"custom_id": custom_id, "component_type": component_type}
    if component_type == 3:
        data["values"] = draw(st.lists(TOKENS, max_size=2))
    return Forged(MESSAGE_COMPONENT, actor, message.channel_id, data, message)


def _option(name: str, kind: int, value: Any) -> dict[str, Any]:
    return {"name": name, "type": kind, "value": value}


VALUES = st.one_of(
    st.text(max_size=40),
    st.integers(-(2**63), 2**63),
    st.booleans(),
    st.sampled_from(["strict", "open", "expert", "greedy", "random", "none", "STRICT", ""]),
    st.sampled_from(["dupe", "rating", "wins", "points", "Dupe", "rating "]),
    st.sampled_from([30, 60, 86400, 0, -30, 31, 10**12, 2**53, 2**53 + 1, 2**63, 2**64]),
)
BASIC_TYPES = (3, 4, 5, 10)  # string, integer, boolean, number
USER_TYPES = (6, 9)  # user, mentionable: a snowflake with resolved data


@st.composite
def option_for(
    draw: st.DrawFn, world: World, name: str, spec: dict[str, Any] | None, resolved: dict[str, Any]
) -> dict[str, Any]:
    """A value for the option ``name`` (declared as ``spec``, or unknown): one of its
    choices, a value of its type in or out of its range, or anything of another type."""
    declared = spec["type"] if spec else draw(st.sampled_from(BASIC_TYPES))
    choices = [c["value"] for c in (spec or {}).get("choices") or []]
    if choices and draw(st.booleans()):
        return _option(name, declared, draw(st.sampled_from(choices)))
    if declared in USER_TYPES:
        # A member (resolved as Discord resolves one), a user who is not a member here, or
        # a bare id nobody resolved.
        server = world.discord.server
        user = draw(st.sampled_from(sorted(server.users)))
        shape = draw(st.sampled_from(["member", "user", "bare"]))
        member = world.home.guild.members.get(user) or world.away.guild.members.get(user)
        if shape != "bare":
            resolved.setdefault("users", {})[str(user)] = server.users[user].payload()
        if shape == "member" and member is not None:
            body = member.payload(with_permissions=True)
            del body["user"]
            resolved.setdefault("members", {})[str(user)] = body
        return _option(name, declared, str(user if shape != "bare" else draw(NUMBERS_ONLY)))
    if declared not in BASIC_TYPES or not draw(st.integers(0, 2)):
        declared = draw(st.sampled_from(BASIC_TYPES))  # the declared type, or another one
    if declared == 10:  # NUMBER: discord.py converts it with float(), as Discord sends one
        return _option(name, declared, draw(st.floats(allow_nan=False, allow_infinity=False)))
    low, high = (spec or {}).get("min_value"), (spec or {}).get("max_value")
    if declared == 4 and (low is not None or high is not None) and draw(st.booleans()):
        edges = [v for b in (low, high) if b is not None for v in (b - 1, b, b + 1)]
        edges += [-(2**63) - 1, -(2**63), 2**63 - 1, 2**63, 2**64, 10**30]  # SQLite's edges
        return _option(name, declared, draw(st.sampled_from(edges)))
    return _option(name, declared, draw(VALUES))


NUMBERS_ONLY = st.integers(1, 2**63 - 1)


@st.composite
def slash_commands(draw: st.DrawFn, world: World) -> Forged:
    """A raw slash command payload, from the commands the bot synced: known or unknown
    command and subcommand, options in or outside the declared choices and ranges, of the
    declared type or not, unknown options."""
    actor = draw(st.sampled_from(world.actors))
    guild = world.guild_of[actor.id]
    channel_id = draw(st.sampled_from(sorted(guild.guild.channels)))
    commands = {c["name"]: c for c in world.discord.server.commands_for(guild.id)}
    known = sorted(commands)
    name = draw(
        st.sampled_from(["dupe"] * 4 + known) | st.sampled_from(["dupe-x", "help", "DUPE", ""])
    )
    command = commands.get(name)
    data: dict[str, Any] = {
        "id": str(command["id"]) if command else str(draw(NUMBERS_ONLY)),
        "name": name,
        "type": 1,
    }
    resolved: dict[str, Any] = {}
    node: dict[str, Any] = command or {}
    subs = {o["name"]: o for o in node.get("options") or [] if o.get("type") in (1, 2)}
    sub = None
    if subs:
        weighted = ["start"] * 4 if "start" in subs else []
        sub = draw(
            st.sampled_from(weighted + sorted(subs))
            | st.sampled_from(["", "play", "Start", "start ", "leaderboard"])
        )
        node = subs.get(sub) or {}
    specs = {o["name"]: o for o in node.get("options") or [] if o.get("type") not in (1, 2)}
    names = draw(
        st.lists(st.sampled_from([*sorted(specs), "x", "seat", "page"]), max_size=4, unique=True)
    )
    options = [draw(option_for(world, n, specs.get(n), resolved)) for n in names]
    shape = draw(st.integers(0, 19))
    if sub is None:
        data["options"] = options
        if shape == 0:  # a subcommand on a plain command
            data["options"] = [{"name": "start", "type": 1, "options": options}]
    elif shape == 0:
        data["options"] = options  # no subcommand: options straight on the group
    elif shape == 1:  # a subcommand group that is none, or one level too deep
        inner = [{"name": draw(st.sampled_from(["start", "x"])), "type": 1, "options": []}]
        data["options"] = [{"name": sub, "type": 2, "options": inner}]
    else:
        data["options"] = [{"name": sub, "type": 1, "options": options}]
    if not data["options"]:
        del data["options"]
    if resolved:
        data["resolved"] = resolved
    if command and command.get("guild_id"):
        data["guild_id"] = str(command["guild_id"])
    return Forged(APPLICATION_COMMAND, actor, channel_id, data)


@st.composite
def typed_groups(draw: st.DrawFn, world: World) -> str:
    """What a member (or a forger) types into Dukes Up!'s Regroup… form: the working table
    as it is (a regrouping: never sent), with a card typed twice or left out, with cards
    that are not on it, words that are no cards, or anything at all."""
    state = world.tables["dukes"].dukes
    (mover,) = state.to_act
    view = state.view(mover)
    table = [c for g in view.table for c in g]
    others = [c for c in (*view.hand, *CARD_CODES) if c not in table]
    shape = draw(st.sampled_from(["table", "twice", "missing", "outside", "words", "text"]))
    cards: list[Any] = list(table)
    if shape == "twice":
        cards.insert(draw(st.integers(0, len(cards))), draw(st.sampled_from(table)))
    elif shape == "missing":
        cards.remove(draw(st.sampled_from(table)))
    elif shape == "outside":
        cards += draw(st.lists(st.sampled_from(others), min_size=1, max_size=3))
    elif shape == "words":
        cards += draw(st.lists(TYPED_WORDS, min_size=1, max_size=4))
    elif shape == "text":
        return draw(st.text(max_size=200))
    written = [
        c if isinstance(c, str) else draw(st.sampled_from([c.code, sym(c), c.code.lower()]))
        for c in draw(st.permutations(cards))
    ]
    separators = st.sampled_from([" ", ", ", " | ", "\n", "; ", "  ", "|"])
    text = ""
    for word in written:
        text += (draw(separators) if text else "") + word
    return text


@st.composite
def form_submissions(draw: st.DrawFn, world: World) -> Forged:
    """A submitted form: Dukes Up!'s Regroup… (``rt``) of any seat and turn, or any forged
    custom id, with typed groups in its field (or none, or several fields), by anyone, on a
    message they see."""
    dukes = world.tables["dukes"]
    players = list(dukes.seats.values())
    actor = draw(st.sampled_from(players * 3 + world.actors))
    message = draw(st.sampled_from(world.seen[actor.id]))
    turn = dukes.turn
    assert turn is not None
    own = st.tuples(st.sampled_from([0, 1]), st.sampled_from([0, -1, 1])).map(
        lambda pair: ids.control(dukes.game_id, pair[0], turn + pair[1], "rt")
    )
    custom_id = draw(own | own | custom_ids(world))
    fields = draw(st.lists(typed_groups(world), min_size=1, max_size=2) | st.just([]))
    rows = [
        {"type": 1, "components": [{"type": 4, "custom_id": f"f{i}", "value": value}]}
        for i, value in enumerate(fields)
    ]
    data = {"custom_id": custom_id, "components": rows}
    return Forged(MODAL_SUBMIT, actor, message.channel_id, data, message)


# --- sending and judging ------------------------------------------------------------------


_KINDS = {MESSAGE_COMPONENT: "click", APPLICATION_COMMAND: "slash", MODAL_SUBMIT: "form"}


def _values_of(forged: Forged) -> list[str]:
    """What the bot reads as the interaction's values: a select menu's chosen values, or
    the text fields of a form, in order (as ``bot.controller._values``)."""
    data = forged.data
    if forged.kind == MODAL_SUBMIT:
        return [
            str(c.get("value") or "")
            for row in data.get("components") or ()
            for c in row.get("components") or ()
            if c.get("type") == 4
        ]
    return [str(value) for value in data.get("values") or ()]


def _form(custom_id: str) -> str:
    """Whether the bot reads ``custom_id`` as a current id, a legacy one, or neither."""
    if ids.parse(custom_id) is not None:
        return "current"
    return "legacy" if DUPE_UI.legacy_id(custom_id) is not None else "none"


def _build(world: World, forged: Forged) -> Interaction:
    """The interaction a tampered client would make Discord send: a click carries the
    message with the forged button on it (as the client showed it)."""
    server = world.discord.server
    interaction = server._base_interaction(
        forged.kind, forged.channel_id, forged.actor.id, forged.data, message=forged.message
    )
    if forged.message is not None and forged.kind == MESSAGE_COMPONENT:
        custom_id = forged.data["custom_id"]
        if forged.data["component_type"] == 3:
            component = {
                "type": 3,
                "custom_id": custom_id,
                "options": [{"label": "x", "value": "x"}],
            }
        else:
            component = {"type": 2, "style": 2, "label": "·", "custom_id": custom_id}
        interaction.payload["message"]["components"] = [{"type": 1, "components": [component]}]
    return interaction


def _judge(world: World, forged: Forged, interaction: Interaction) -> None:
    server = world.discord.server
    what = forged.describe()
    kind = interaction.callback_type
    answer = server.messages.get(interaction.original_message_id or 0)
    answers = (CHANNEL_MESSAGE, DEFERRED_CHANNEL_MESSAGE, UPDATE_MESSAGE)
    assert kind in answers, f"callback {kind} to {what}"
    assert answer is not None, f"no message answers {what}"
    # Private: a new ephemeral message, or an update of the member's own private message.
    assert answer.ephemeral_to == forged.actor.id and answer.flags & EPHEMERAL, (
        f"a public answer to {what}: {MessageView.of(answer).text!r}"
    )
    if kind == UPDATE_MESSAGE:
        assert forged.message is not None and forged.message.id == answer.id, what
    for followup in interaction.followup_ids:
        assert server.messages[followup].ephemeral_to == forged.actor.id, what
    text = MessageView.of(answer).text.strip()
    assert any(c.isalpha() for c in text), f"an empty answer to {what}: {text!r}"
    assert "Traceback" not in text and "Something went wrong" not in text, (
        f"{what} was answered as an unexpected error: {text!r}\n{world.bot.log_tail()}"
    )


async def _send_batch(world: World, batch: list[Forged]) -> None:
    server = world.discord.server
    kept = []
    for forged in batch:
        if forged.kind == APPLICATION_COMMAND:
            legit = world.legitimate_slash(forged.actor, forged.channel_id, forged.data)
        else:
            custom_id = str(forged.data.get("custom_id") or "")
            legit = world.legitimate_click(forged.actor, custom_id, _values_of(forged))
        if legit:
            world.skipped += 1
        else:
            kept.append(forged)
    if not kept:
        return
    rows, public = world.rows(), world.public()
    started = time.monotonic()
    interactions = [_build(world, forged) for forged in kept]
    for interaction in interactions:
        server.dispatch(interaction)
    with contextlib.suppress(TimeoutError):  # judged below, one by one
        await server.wait_for(
            lambda: all(i.responded for i in interactions),
            timeout=world.discord.action_timeout,
            what="the answers",
        )
    world.seconds += time.monotonic() - started
    for forged, interaction in zip(kept, interactions, strict=True):
        world.sent[_KINDS[forged.kind]] += 1
        if forged.kind == MESSAGE_COMPONENT:
            world.forms[_form(forged.data["custom_id"])] += 1
            named = ids.parse(forged.data["custom_id"])
            if isinstance(named, ids.Control | ids.TableButton):
                world.hits[named.table] = world.hits.get(named.table, 0) + 1
        assert interaction.responded, (
            f"no answer to {forged.describe()} (“This interaction failed”)\n{world.bot.log_tail()}"
        )
    # A deferred answer ("thinking…", privately) is complete when its followup arrives.
    thinking = [i for i in interactions if i.callback_type == DEFERRED_CHANNEL_MESSAGE]
    await world.discord.wait_until(
        lambda: all(
            not server.messages[i.original_message_id or 0].flags & LOADING for i in thinking
        ),
        what="the followups of deferred answers",
    )
    errors = world.new_errors()  # read now: a failed judgement must not leave them behind
    for forged, interaction in zip(kept, interactions, strict=True):
        _judge(world, forged, interaction)
    assert world.bot.returncode is None, f"the bot died:\n{world.bot.log_tail()}"
    assert errors == [], world.bot.log_tail()
    assert server.violations == [], server.violations
    assert world.rows() == rows, "the database changed: " + "; ".join(
        forged.describe() for forged in kept
    )
    now = world.public()
    changed = sorted(i for i in now.keys() | public.keys() if now.get(i) != public.get(i))
    assert not changed, f"public message(s) {changed} changed: " + "; ".join(
        forged.describe() for forged in kept
    )


# --- the tests -------------------------------------------------------------------------------


@_settings(EXAMPLES)
@given(data=st.data())
async def test_forged_clicks_change_nothing_and_are_answered_privately(
    world: World, data: st.DataObject
) -> None:
    batch = data.draw(st.lists(clicks(world), min_size=1, max_size=8), label="clicks")
    await _send_batch(world, batch)


@_settings(EXAMPLES * 2 // 3)
@given(data=st.data())
async def test_forged_slash_commands_change_nothing_and_are_answered_privately(
    world: World, data: st.DataObject
) -> None:
    batch = data.draw(st.lists(slash_commands(world), min_size=1, max_size=8), label="commands")
    await _send_batch(world, batch)


@_settings(EXAMPLES // 4)
@given(data=st.data())
async def test_forged_forms_change_nothing_and_are_answered_privately(
    world: World, data: st.DataObject
) -> None:
    batch = data.draw(st.lists(form_submissions(world), min_size=1, max_size=6), label="forms")
    await _send_batch(world, batch)


async def test_every_known_button_forged_by_everyone(world: World) -> None:
    """The systematic sweep: every custom id the bot has shown (and the lobby, hand and
    leaderboard ids of every table), pressed by every member, on each of the messages they
    see in turn (public table messages, their private hands, rules and leaderboards)."""
    batch: list[Forged] = []
    for actor in world.actors:
        carriers = world.seen[actor.id]
        for index, custom_id in enumerate(world.ids):
            message = carriers[index % len(carriers)]
            data = {"custom_id": custom_id, "component_type": 2}
            batch.append(Forged(MESSAGE_COMPONENT, actor, message.channel_id, data, message))
    for start in range(0, len(batch), 16):
        await _send_batch(world, batch[start : start + 16])


async def test_after_the_fuzz_everything_is_as_before(world: World) -> None:
    await world.discord.settle()
    assert_clean(world)
    assert world.rows() == world.baseline
    assert all(world.sent.values()), world.sent  # clicks, commands and forms
    # Both forms the bot accepts were forged, and ids it reads as neither.
    assert all(world.forms.values()), world.forms
    # Every live table had forged ids, whist's private controls among them.
    assert all(world.hits.get(t.game_id) for t in world.tables.values()), world.hits
