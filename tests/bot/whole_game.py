"""Whole games through simcord, with every request and log line the bot produces recorded
together with the tables exactly as they were at that instant.

The leak scan and the OpenAPI check share this driver. A request is recorded when the
bot hands it to the transport; rendering and sending happen in one stretch of the same
task (the fake transport never yields), so the tables recorded with a request are the
ones its payload was rendered from.
"""

from __future__ import annotations

import functools
import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import simcord
from simcord.types import HttpLogEntry

from bot import ids, pictures
from bot.app import Bot
from bot.ids import table_button
from bot.tables import Table
from engine.dupe import DupeState
from tests.bot.helpers import act_once, buttons, enabled, optional
from tests.support.buttons import id_kind

LOGGERS = ("bot", "engine", "discord")


@dataclass(frozen=True, slots=True)
class TableAt:
    """A table as it was at one instant."""

    id: int
    game: str
    seed: int
    status: str
    memory: str
    turn_seconds: int
    seats: dict[int, int | None]
    state: DupeState | None

    def seat_of(self, user_id: int | None) -> int | None:
        """Return the seat the member held then, if any."""
        if user_id is None:
            return None
        return next((s for s, uid in self.seats.items() if uid == user_id), None)


Moment = dict[int, TableAt]


@dataclass(frozen=True, slots=True)
class Sent:
    """One request the bot made and the tables when it made it."""

    index: int
    entry: HttpLogEntry
    moment: Moment


@dataclass(frozen=True, slots=True)
class Drawn:
    """One picture the bot rendered: the drawing function, its arguments and the tables
    when it was asked for."""

    kind: str
    args: tuple[Any, ...]
    moment: Moment


@dataclass(frozen=True, slots=True)
class Uploaded:
    """One file the bot uploaded: its bytes and the index of the request that carried it."""

    request: int
    filename: str
    data: bytes


@dataclass(frozen=True, slots=True)
class Logged:
    """One log line (with any traceback) and the tables when it was written."""

    logger: str
    level: int
    text: str
    moment: Moment


class _RecordingList(list[HttpLogEntry]):
    def __init__(self, recorder: Recorder, existing: list[HttpLogEntry]) -> None:
        super().__init__(existing)
        self._recorder = recorder

    def append(self, entry: HttpLogEntry) -> None:
        super().append(entry)
        self._recorder.on_request(len(self) - 1, entry)


class _LogTap(logging.Handler):
    def __init__(self, recorder: Recorder) -> None:
        super().__init__(logging.DEBUG)
        self._recorder = recorder

    def emit(self, record: logging.LogRecord) -> None:
        text = record.getMessage()
        if record.exc_info:
            text += "\n" + logging.Formatter().formatException(record.exc_info)
        # A line from another thread (aiosqlite's) is checked as if no card were public.
        on_loop = threading.current_thread() is threading.main_thread()
        moment = self._recorder.moment() if on_loop else {}
        self._recorder.logged.append(Logged(record.name, record.levelno, text, moment))


class Recorder:
    """Records requests and log lines with the tables of the moment."""

    def __init__(self, env: simcord.Env, bot: Bot, loggers: tuple[str, ...] = LOGGERS) -> None:
        self.env = env
        self.bot = bot
        self.loggers = loggers
        self.sent: list[Sent] = []
        self.logged: list[Logged] = []
        self.drawn: dict[bytes, Drawn] = {}
        self.uploaded: list[Uploaded] = []
        self._undo: list[Callable[[], None]] = []
        self._known: dict[int, Table] = {}
        self._tap = _LogTap(self)

    def moment(self) -> Moment:
        """Return every table this bot has had, as it is now."""
        controller = getattr(self.bot, "controller", None)
        if controller is not None:
            self._known.update(controller.tables.tables)
        return {
            table.id: TableAt(
                id=table.id,
                game=table.game,
                seed=table.seed,
                status=table.status,
                memory=table.options.game.get("memory", "strict"),
                turn_seconds=table.options.turn_seconds,
                seats={s: r.user_id for s, r in table.seats.items()},
                state=None if table.state is None else table.state.clone(),
            )
            for table in self._known.values()
        }

    def know(self, table: Table) -> None:
        """Keep ``table`` in every moment from now on, even if it never stays live (a
        table of computers that plays its whole game when it starts)."""
        self._known[table.id] = table

    @property
    def seeds(self) -> set[int]:
        """Return the seeds of every table this bot has had."""
        return {table.seed for table in self._known.values()}

    def on_request(self, index: int, entry: HttpLogEntry) -> None:
        self.sent.append(Sent(index, entry, self.moment()))

    def __enter__(self) -> Recorder:
        backend = self.env.backend
        backend.http_requests = _RecordingList(self, backend.http_requests)
        for name in self.loggers:
            logging.getLogger(name).addHandler(self._tap)
        self._tap_pictures()
        return self

    def _tap_pictures(self) -> None:
        """Record every picture with what it was drawn from, and every uploaded file with
        the request that carried it, so the scan can check what a picture shows."""
        render, cdn = pictures.render_off_loop, self.env.backend.cdn
        store = cdn.store_attachment

        async def render_off_loop(fn: Callable[..., bytes], *args: Any, **kwargs: Any) -> bytes:
            moment = self.moment()
            data = await render(fn, *args, **kwargs)
            # A game's pictures are thunks (functools.partial): record what they draw.
            drawing, drawn_from = fn, args
            while isinstance(drawing, functools.partial):
                drawn_from = (*drawing.args, *drawn_from)
                drawing = drawing.func
            self.drawn[data] = Drawn(getattr(drawing, "__name__", "?"), drawn_from, moment)
            return data

        def store_attachment(
            attachment_id: int, channel_id: int, filename: str, data: bytes, *more: Any
        ) -> dict[str, Any]:
            self.uploaded.append(Uploaded(len(self.sent) - 1, filename, data))
            return store(attachment_id, channel_id, filename, data, *more)

        pictures.render_off_loop = render_off_loop  # type: ignore[assignment]
        cdn.store_attachment = store_attachment  # type: ignore[method-assign]

        def undo() -> None:
            pictures.render_off_loop = render  # type: ignore[assignment]
            del cdn.store_attachment

        self._undo.append(undo)

    def __exit__(self, *exc: object) -> None:
        for name in self.loggers:
            logging.getLogger(name).removeHandler(self._tap)
        while self._undo:
            self._undo.pop()()


# --- driving a game as members would -----------------------------------------------


@dataclass
class Player:
    """A seated member and the id of their private hand message."""

    actor: simcord.MemberActor
    hand_id: int | None = None


@dataclass
class Game:
    """One table being played in a channel."""

    env: simcord.Env
    bot: Bot
    channel: simcord.ChannelHandle
    players: list[Player]
    spectator: simcord.MemberActor
    table_message: simcord.ResponseMessage
    game_id: int
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def table(self) -> Table | None:
        """Return the live table, or None once it is over."""
        return self.bot.controller.tables.tables.get(self.game_id)

    def message(self, message_id: int) -> simcord.ResponseMessage:
        """Return a message of the channel as it is now."""
        return simcord.ResponseMessage(
            self.env, self.env.backend.get_message(self.channel.id, message_id)
        )

    def hand(self, player: Player) -> simcord.ResponseMessage | None:
        """Return the player's private hand message as it is now."""
        return None if player.hand_id is None else self.message(player.hand_id)

    async def open_hand(self, player: Player) -> simcord.InteractionResult:
        """Press “My hand” on the table message."""
        table = self.message(self.table_message.id)
        result = await player.actor.click(table.message, custom_id=hand_button(table))
        assert result.response is not None and result.ephemeral
        player.hand_id = result.response.id
        return result


def hand_button(message: simcord.ResponseMessage) -> str:
    """Return the custom id of the table's “My hand” button."""
    ids = [b.custom_id for b in buttons(message) if id_kind(b.custom_id) == "hand"]
    assert len(ids) == 1, ids
    return str(ids[0])


async def open_table(
    env: simcord.Env,
    bot: Bot,
    *,
    humans: int,
    seed: int,
    game: str = "dupe",
    turn_seconds: int = 120,
    locale: str | None = None,
    locales: dict[int, str] | None = None,
    **options: Any,
) -> Game:
    """Open a table of ``game`` (with its ``options``, e.g. ``memory`` for Dupe) with
    ``humans`` members (the rest computers), exercising the lobby buttons on the way, and
    start it; every member then opens their hand. With ``locale``, the server and every
    member (recorded in ``locales``, the fixture of that name) speak that Discord locale."""
    bot.controller.tables.new_seed = lambda: seed
    guild = env.create_guild(preferred_locale=locale)
    channel = guild.create_text_channel(game)
    names = ["alice", "bob", "carol", "dave", "frank"][:humans]
    actors = [guild.add_member(env.create_user(name)) for name in names]
    spectator = guild.add_member(env.create_user("eve"))
    if locale is not None:
        assert locales is not None, "pass the locales fixture with a locale"
        for member in (*actors, spectator):
            locales[member.id] = locale
    host = actors[0]
    opened = await host.slash(channel, f"{game} start", turn_time=turn_seconds, **options)
    lobby = opened.response
    assert lobby is not None and not opened.ephemeral
    table = bot.controller.tables.table_in(channel.id)
    assert table is not None
    game = Game(env, bot, channel, [Player(a) for a in actors], spectator, lobby, table.id)

    async def press(who: simcord.MemberActor, what: str) -> simcord.InteractionResult:
        custom_id = table_button(table.id, what)
        return await who.click(game.message(lobby.id).message, custom_id=custom_id)

    # The spectator sits down and stands up again; others join; a computer is added.
    await press(spectator, "join")
    await press(spectator, "leave")
    for actor in actors[1:]:
        await press(actor, "join")
    if humans < table.max_seats:
        await press(host, "addcpu")
    refused = await press(spectator, "start")
    assert refused.ephemeral
    await press(host, "start")
    assert game.table is not None and game.table.status == "playing"
    for player in game.players:
        await game.open_hand(player)
    return game


def _decision(hand: simcord.ResponseMessage | None) -> bool:
    """Return whether the hand message offers a control of the game (not just Refresh)."""
    if hand is None:
        return False
    return any(
        isinstance(ids.parse(b.custom_id or ""), ids.Control) and not optional(b.custom_id)
        for b in enabled(hand)
    )


async def play(
    game: Game,
    *,
    idle: int | None = None,
    until: Callable[[Any], bool] = lambda state: False,
    limit: int = 600,
) -> None:
    """Let every member make each decision from their hand message until ``until(state)``
    or the end of the game.

    The member at index ``idle`` does not answer on odd-numbered tricks: the virtual clock
    runs past the turn time and a computer player decides for them (after the warning).
    """
    for _ in range(limit):
        table = game.table
        if table is None:
            return
        state = table.state
        assert state is not None
        if until(state):
            return
        acted = False
        for index, player in enumerate(game.players):
            hand = game.hand(player)
            if not _decision(hand):
                continue
            if index == idle and state.turn % 2 == 1:
                continue
            assert hand is not None
            result = await act_once(player.actor, hand)
            assert result is not None
            acted = True
            break
        if acted:
            continue
        if idle is not None and game.table is not None:
            await game.env.advance_time(table.options.turn_seconds + 1)
            continue
        raise AssertionError(f"nobody can act at {state!r}")
    raise AssertionError("the game did not end")
