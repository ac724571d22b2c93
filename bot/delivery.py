"""The courier: everything the bot owes Discord, delivered in one place.

What is owed: the public posts a committed change of a table made due (a deal's scoring,
the final standings, a member's leaving, the table message's last edit: the table's outbox,
written in the same transaction as the moves), the posts of an event over several tables (a
duplicate match's outbox, ``match_posts``), and the table messages kept current (edited in
place, changes combined over ``edit_interval``, posted again when deleted).

How it is delivered, for all of them alike: a post is struck from its outbox only once
Discord took it (or refused it for a reason no retry can change) — refused by a busy or
failing Discord, or for lack of access for now, it is tried again 5 s, 10 s, 20 s … up to 5
minutes later, at once when its server is back, and after a restart; a deleted channel's
posts are struck off (and its table abandoned); a channel that refuses pictures gets text
only for a while. A channel's posts go in the order they were owed. Discord's
``enforce_nonce`` makes a post sent again (a crash between sending and striking it) return
the first instead of appearing twice.

A table message that is an interaction's original response (the answer to ``/<game>
start`` or to a rematch, or the lobby message a button updated) is edited through that
interaction's token while it lives (``PATCH /webhooks/{app}/{token}/messages/@original``):
Discord does not count such requests against its global limit of 50 a second per bot, so
they wait for no budget (a click on the lobby renews the token: its own answer updated the
message). Every other request made here counts, so each waits for the process's request
budget (``bot.budget``): owed posts first, then the table messages whose turn changed, then
the other edits. A table message waiting for the budget is edited once, with what the table
shows when its turn comes: the tighter the budget, the more changes one edit carries, and
the last is always shown. Whatever a request waits for (a picture drawn), it waits for
before it takes the budget's token: a token taken is spent at once.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import io
import logging
from collections import deque
from collections.abc import Awaitable, Callable, Coroutine, Hashable, Iterator
from typing import Any, NamedTuple

import discord

from bot import details, discord_internals, pictures, render, suits, table_message
from bot.budget import OTHER, TURN, URGENT, Budget
from bot.game import Rendered
from bot.i18n import Lang
from bot.store import MatchPost, StoreWriteError
from bot.table_message import (
    fingerprint,
    moves_made,
    picture_names,
    seat_infos,
    table_info,
    table_picture,
)
from bot.tables import Table, Tables

__all__ = [
    "CHANNEL_GONE",
    "MESSAGE_GONE",
    "NO_FILES",
    "RETRY",
    "SENT",
    "Courier",
    "fate",
]

log = logging.getLogger(__name__)

_RETRY_FIRST = 5.0  # a post or table edit refused by a busy or failing Discord: again in 5 s,
_RETRY_MAX = 300.0  # then 10, 20, … up to 5 minutes apart
_NO_FILES_FOR = 3600.0  # a channel refusing pictures gets text only, then is tried again
# After a restart, stale table messages are edited from this long after the start (the
# members' first clicks, which a restart has kept waiting, come first), this far apart
# (Discord allows a bot about 50 requests a second in all).
_STALE_EDIT_AFTER = 5.0
_STALE_EDIT_SPACING = 0.025
_OWED_AT_ONCE = 8  # tables whose owed posts are sent side by side after a restart
_GRANT_EVENT = "budget_grant"  # the client event a request waiting for the budget waits for

# Discord's JSON error codes that decide what becomes of a refused post or edit
# (https://discord.com/developers/docs/topics/opcodes-and-status-codes#json).
_UNKNOWN_CHANNEL = 10003
_UNKNOWN_MESSAGE = 10008
_UNKNOWN_WEBHOOK = 10015
_MISSING_PERMISSIONS = 50013

# What became of a post or an edit.
SENT = "sent"  # done (or refused for a reason no retry can change: a bad body, logged)
RETRY = "retry"  # Discord busy or failing, or the bot lacks access for now: try again later
CHANNEL_GONE = "channel-gone"  # the channel no longer exists: nothing can be sent there
MESSAGE_GONE = "message-gone"  # the message to edit was deleted
NO_FILES = "no-files"  # refused for its picture (no Attach Files): send it without


def fate(error: discord.HTTPException, *, with_file: bool) -> str:
    """Return what becomes of a post or edit Discord refused with ``error``."""
    if error.status == 404 and error.code == _UNKNOWN_CHANNEL:
        return CHANNEL_GONE
    if error.status == 404 and error.code == _UNKNOWN_MESSAGE:
        return MESSAGE_GONE
    if error.status == 403 and error.code == _MISSING_PERMISSIONS and with_file:
        return NO_FILES
    if error.status in (403, 429) or error.status >= 500:
        return RETRY  # a moderator may give the permission back, the bot be added back
    log.error("Discord refused a post or edit for good: %s", error)
    return SENT


class Courier:
    """Delivers what the bot owes Discord (see the module docstring): table posts, match
    posts and table message edits, with their retries, their order per channel, and the
    bookkeeping of channels deleted and servers left and back."""

    def __init__(
        self,
        bot: discord.Client,
        tables: Tables,
        *,
        edit_interval: float,
        removed_grace: float,
        owns: Callable[[int], bool],
        lang: Callable[[int], Lang],
        shown: Callable[[Table, Lang], Rendered],
        abandon: Callable[[Table], Awaitable[None]],
        requests_per_second: float,
    ) -> None:
        """``lang``: a server's public language; ``shown``: the table message as it should
        look now; ``abandon``: close a live table whose channel or server is gone (the
        controller's, which also tells its event); ``requests_per_second``: this process's
        share of the bot's requests to Discord (:class:`~bot.budget.Budget`)."""
        self.bot = bot
        self.tables = tables
        self.scheduler = tables.scheduler
        self.edit_interval = edit_interval
        self.removed_grace = removed_grace
        self.owns = owns
        self._lang = lang
        self._shown_now = shown
        self._abandon = abandon
        self.budget = Budget(
            self.scheduler, requests_per_second, wait=self._wait_grant, wake=self._wake_grant
        )
        self._tasks: set[asyncio.Task[None]] = set()
        self._retries: dict[tuple[object, ...], float] = {}  # post or edit → its next wait
        self._editing: dict[int, asyncio.Lock] = {}  # table → its message's edit in flight
        self._pictured: dict[int, object] = {}  # table → the picture its message carries
        # table → a digest of what its message shows (:func:`fingerprint`), when the bot
        # made it so: an edit that would show the same is skipped.
        self._shown: dict[int, bytes] = {}
        self._turn_shown: dict[int, object] = {}  # table → whose turn its message shows
        # Posts waiting to be sent again, by their scheduler key: sent at once when their
        # server is back (the bot added again, an outage over).
        self._waiting: dict[tuple[object, ...], Table] = {}
        self._no_files: dict[int, float] = {}  # channel → until when it gets text only
        self._gone: set[int] = set()  # deleted channels
        self._match_owed: dict[int, deque[MatchPost]] = {}  # channel → its match posts owed
        self._match_sending: dict[int, asyncio.Lock] = {}  # channel → its posts being sent

    def _now(self) -> float:
        return float(self.tables.clock())

    # --- helpers -------------------------------------------------------------------

    async def _wait_grant(self, ticket: Hashable) -> None:
        """Wait for the budget's turn of ``ticket`` as the client waits for an event (see
        :class:`~bot.budget.Budget`)."""
        await self.bot.wait_for(_GRANT_EVENT, check=lambda granted: granted == ticket)

    def _wake_grant(self, ticket: Hashable) -> None:
        self.bot.dispatch(_GRANT_EVENT, ticket)

    def spawn(self, coro: Coroutine[Any, Any, None], name: str) -> None:
        """Run ``coro`` in the background (stopped by :meth:`close`)."""
        task: asyncio.Task[None] = asyncio.get_running_loop().create_task(coro, name=name)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def is_gone(self, channel_id: int) -> bool:
        """Return whether the channel was deleted."""
        return channel_id in self._gone

    def _backoff(self, key: tuple[object, ...]) -> float:
        """Return how long to wait before trying ``key`` (a post or an edit) again: 5 s, then
        twice as long each time, up to 5 minutes."""
        delay = min(_RETRY_MAX, 2 * self._retries.get(key, _RETRY_FIRST / 2))
        self._retries[key] = delay
        return delay

    def forget(self, table: Table) -> None:
        """Drop what is kept for a table that has ended (its owed posts stay owed)."""
        self.scheduler.cancel(("edit", table.id))
        self._pictured.pop(table.id, None)
        self._shown.pop(table.id, None)
        self._turn_shown.pop(table.id, None)
        self._retries.pop(("edit", table.id), None)
        editing = self._editing.get(table.id)
        if editing is not None and not editing.locked():
            del self._editing[table.id]  # else the final edit, when it is done, drops it
        table_message.forget(table)

    async def close(self) -> None:
        """Stop the work in progress (the scheduler stops the retries and table edits)."""
        tasks = list(self._tasks)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    # --- the table message -----------------------------------------------------------

    def refresh_table(self, table: Table) -> None:
        """Bring the public table message up to date ``edit_interval`` after this change,
        together with every change made meanwhile: one edit for a burst of changes (four
        plays and the reveal, say), and never more than one edit per interval. A change
        that leaves the turn where it was waits, besides, until the requests queued for
        the budget now have gone: the busier the bot, the more such changes one edit
        carries."""
        delay = self.edit_interval
        if self.edit_priority(table) == OTHER and self.live_token(table) is None:
            delay = max(delay, self.budget.backlog())
        self._edit_by(table, self._now() + delay)

    def edit_priority(self, table: Table) -> int:
        """Return how soon the table message's edit goes within the budget: before others
        when the turn it shows is no longer the table's."""
        return TURN if self._turn_shown.get(table.id) != _turn_of(table) else OTHER

    def _edit_by(self, table: Table, when: float) -> bool:
        """Have the table message edited at ``when`` unless an edit is due by then (a later
        one, a restart's slow catch-up, moves up) or waits for the budget (it shows this
        change: moved up if the turn changed); return whether this planned one."""
        key = ("edit", table.id)
        if self.budget.waiting(key):
            self.budget.hasten(key, self.edit_priority(table))
            return False
        due = self.scheduler.due(key)
        if table.message_id is None or (due is not None and due <= when):
            return False
        self.scheduler.at(key, when, functools.partial(self._edit_job, table))
        return True

    @contextlib.contextmanager
    def answered_on_message(self, table: Table) -> Iterator[None]:
        """Around an interaction answer that edits the table message itself: what it shows
        is unknown until the answer lands, and once it has, no planned edit is needed."""
        self._shown.pop(table.id, None)
        yield
        self.scheduler.cancel(("edit", table.id))

    async def _edit_job(self, table: Table) -> None:
        done = await self.edit_now(table)
        if done == CHANNEL_GONE:
            await self.channel_gone(table.channel_id)
            return
        if done != RETRY:
            self._retries.pop(("edit", table.id), None)
            return
        # Discord was busy or failing (a 503 discord.py does not retry, a 429 after its own
        # retries): edit again later, waiting longer each time, until it settles.
        if table.id in self.tables.tables:  # a finished table's last edit is in the outbox
            self._edit_by(table, self._now() + self._backoff(("edit", table.id)))

    async def edit_now(self, table: Table, priority: int | None = None) -> str:
        """Edit the table message to show the table as it is (posting it again if it was
        deleted) as soon as the budget allows (``priority``: unless given, by whether its
        turn changed); return what became of it (see :func:`fate`). Edits of one message
        never overlap: one that Discord kept waiting (429s) cannot land after a later one,
        such as the game's last, with an older table."""
        if table.message_id is None or table.channel_id in self._gone:
            return SENT
        if priority is not None:  # an edit waiting for the budget shows this one's table
            self.budget.hasten(("edit", table.id), priority)
        lock = self._editing.setdefault(table.id, asyncio.Lock())
        async with lock:
            done = await self._edit_table_message(table, table.message_id, priority=priority)
            if done == NO_FILES:
                done = await self._edit_table_message(
                    table, table.message_id, files=False, priority=priority
                )
                if done == SENT:
                    self._text_only(table)
                elif done == NO_FILES:
                    done = RETRY
            if done == MESSAGE_GONE:
                done = await self._repost_table(table)
            return done

    async def _edit_table_message(
        self, table: Table, message_id: int, files: bool = True, priority: int | None = None
    ) -> str:
        """Edit the table message once: through the token of the interaction whose original
        response it is while that lives (not counted against Discord's global limit), else
        through its channel when the budget allows; with ``files`` false, without any
        picture."""
        edit = self._table_edit(table, files)
        if edit is None:
            return SENT
        # The picture is drawn before the budget's token is taken, and nothing is awaited
        # between the token and the request: edits that waited on the drawing would
        # otherwise go out together, past the budget, whenever the drawing caught up.
        drawn = await self._drawn(edit)
        behind = False
        token = self.live_token(table)
        if token is None:
            if priority is None:
                priority = self.edit_priority(table)
            if await self.budget.take(("edit", table.id), priority):
                fresh = self._table_edit(table, files)  # the table moved on while it waited
                if fresh is None:
                    return SENT
                if not fresh.new_picture:
                    edit, drawn = fresh, None
                elif _key(fresh) == _key(edit):
                    edit = fresh
                else:
                    # Its picture changed too: the new text goes now with the picture drawn
                    # before, and the next edit (planned below) draws the new one.
                    edit = fresh._replace(picture=edit.picture, new_picture=edit.new_picture)
                    behind = True
        self._shown.pop(table.id, None)  # unknown until Discord took the edit
        try:
            await self._send_edit(table, message_id, token, edit.shown, drawn)
        except discord.HTTPException as error:
            if token is not None and _token_refused(error):
                # Expired early, or revoked: the channel edits it from now on (a 401 counts
                # as an invalid request, so the token is not tried again).
                log.warning("game %s: the table message's token was refused: %s", table.id, error)
                await self._drop_token(table, token)
                return await self._edit_table_message(table, message_id, files, priority)
            log.warning("game %s: table message not updated: %s", table.id, error)
            return fate(error, with_file=edit.picture is not None and edit.new_picture)
        if edit.new_picture:
            self._pictured[table.id] = _key(edit)
        self._remember_shown(table, edit.digest, edit.turn)
        await self._record_shown(table, edit.made)
        if behind:
            self.refresh_table(table)
        return SENT

    async def _send_edit(
        self,
        table: Table,
        message_id: int,
        token: str | None,
        shown: Rendered,
        attachments: list[discord.File] | None,
    ) -> None:
        """Edit the table message to ``shown`` through ``token`` (the interaction's
        webhook), or with None through its channel; ``attachments`` replace its picture
        (None: it keeps its own)."""
        extra: dict[str, Any] = {} if attachments is None else {"attachments": attachments}
        content, embeds, view = shown.content, shown.embeds, shown.buttons()
        if token is None:
            await discord_internals.edit_channel_message(
                self.bot,
                table.channel_id,
                message_id,
                content=content,
                embeds=embeds,
                view=view,
                **extra,
            )
        else:
            await discord_internals.edit_original_of(
                self.bot, token, content=content, embeds=embeds, view=view, **extra
            )

    def live_token(self, table: Table) -> str | None:
        """Return the token to edit the table message through now: the one of the
        interaction whose original response it is, while the bot uses it (see
        ``Controller._token_of``), once the client knows its application (it has logged
        in); else None (a channel edit)."""
        token, until = table.message_token, table.token_until
        if token is None or until is None or self.bot.application_id is None:
            return None
        return token if self._now() < until else None

    async def _drop_token(self, table: Table, token: str) -> None:
        """Stop using the table message's token (Discord refused it)."""
        if table.message_token != token:
            return  # renewed meanwhile
        try:
            await self.tables.set_message_token(table, None, None)
        except StoreWriteError:  # a restart tries it once more, then drops it
            pass
        except Exception:
            log.exception("game %s: the table message's token not dropped", table.id)

    async def _drawn(self, edit: _Edit) -> list[discord.File] | None:
        """Return the attachments of ``edit``: its picture drawn (off the event loop), none
        to take the old one away, or ``None`` when the shown picture stays."""
        if not edit.new_picture:
            return None
        if edit.picture is None:
            return []
        data = await pictures.render_off_loop(edit.picture[1])
        return [discord.File(io.BytesIO(data), filename=pictures.picture_filename("trick"))]

    def _table_edit(self, table: Table, files: bool) -> _Edit | None:
        """Return the edit that shows the table as it is now (with ``files`` false, without
        any picture), or None when the message shows exactly this already (a move nobody
        else sees yet, such as a step of a Dukes Up! turn's working copy; a restart edits
        it once, as it is not recorded as showing the move)."""
        lang = self._lang(table.guild_id)
        shown = self._shown_now(table, lang)
        picture = table_picture(table, lang) if files and self.files_ok(table) else None
        key = None if picture is None else picture[0]
        digest = fingerprint(shown)
        new_picture = key != self._pictured.get(table.id) or not files
        if not new_picture and self._shown.get(table.id) == digest:
            return None
        return _Edit(moves_made(table), _turn_of(table), shown, picture, digest, new_picture)

    def _remember_shown(self, table: Table, digest: bytes, turn: object) -> None:
        """Note what the table message shows now, while the table lives (an ended table's
        last edit leaves nothing behind)."""
        if table.id in self.tables.tables:
            self._shown[table.id] = digest
            self._turn_shown[table.id] = turn

    async def post_table_message(self, table: Table, *, fresh: bool = False) -> str:
        """Post the table message anew (between its edits); return what became of it. With
        ``fresh``, the table has no message yet (it started without a lobby)."""
        async with self._editing.setdefault(table.id, asyncio.Lock()):
            return await self._repost_table(table, fresh=fresh)

    async def _repost_table(self, table: Table, *, fresh: bool = False) -> str:
        """The table message was deleted: post it anew (the store keeps the new id), so
        the table goes on, its lobby can be joined, and the channel is not blocked. With
        ``fresh``, the table has no message yet (it started without a lobby). A message
        posted so is nobody's interaction response: it has no token, and is edited through
        its channel."""
        channel = self.bot.get_partial_messageable(table.channel_id, guild_id=table.guild_id)
        lang = self._lang(table.guild_id)
        picture = table_picture(table, lang) if self.files_ok(table) else None
        # Drawn before the budget's token is taken, and sent at once after it (see
        # :meth:`_edit_table_message`).
        data = None if picture is None else await pictures.render_off_loop(picture[1])
        await self.budget.take(("edit", table.id), TURN)
        made = moves_made(table)
        turn = _turn_of(table)
        shown = self._shown_now(table, lang)
        extra: dict[str, Any] = {}
        if data is not None:
            name = pictures.picture_filename("trick")
            extra["file"] = discord.File(io.BytesIO(data), filename=name)
        self._shown.pop(table.id, None)
        try:
            message = await channel.send(
                content=shown.content, embeds=shown.embeds, view=shown.buttons(), **extra
            )
        except discord.HTTPException as error:
            log.warning("game %s: table message not posted again: %s", table.id, error)
            refused = fate(error, with_file=picture is not None)
            return RETRY if refused in (NO_FILES, MESSAGE_GONE) else refused
        self._pictured[table.id] = None if picture is None else picture[0]
        self._remember_shown(table, fingerprint(shown), turn)
        if table.status in ("lobby", "playing") or fresh:
            await self.tables.set_message(table, message.id)
        else:
            table.message_id = message.id
            table.message_token = table.token_until = None
        if not fresh:
            log.info("game %s: its table message was deleted; posted again", table.id)
        await self._record_shown(table, made)
        if picture is not None and picture[0] != _key_of(table_picture(table, lang)):
            self.refresh_table(table)  # the table moved on past the picture drawn
        return SENT

    async def _record_shown(self, table: Table, made: int) -> None:
        """Record how far the table message shows the game (a restart edits only stale
        ones); a failure only means one edit more after a restart."""
        if table.status != "playing":
            return
        try:
            await self.tables.store.shown(table.id, made)
        except StoreWriteError:  # the store logs the episode once
            pass
        except Exception:
            log.exception("game %s: could not record the edit", table.id)

    async def ensure_message(self, table: Table) -> None:
        """Post the table message again if it was deleted (Discord sends the bot no
        message deletions: it has no message intents), so that the table can go on and the
        channel is not blocked by a table nobody can see."""
        if table.message_id is None or table.channel_id in self._gone:
            return
        if not self.budget.try_take():
            return  # a member waits for the answer: not for the budget; checked another time
        channel = self.bot.get_partial_messageable(table.channel_id, guild_id=table.guild_id)
        try:
            await channel.fetch_message(table.message_id)
        except discord.NotFound as error:
            if error.code == _UNKNOWN_MESSAGE:
                await self.post_table_message(table)
        except discord.HTTPException as error:
            log.debug("game %s: table message not checked: %s", table.id, error)

    # --- a table's public posts that must not be lost --------------------------------

    async def post(self, table: Table, post: str) -> None:
        """Send one public post the game owes its channel — a game's own (a deal's
        scoring, ``deal<n>``), ``end`` (the final standings), ``left<seat>`` (a member
        left) or ``table`` (the table message's last edit) — then strike it from the
        outbox, where it was written in the same transaction as the moves that made it due.
        A process killed in between sends it after its restart; Discord's
        ``enforce_nonce`` makes a repeated post return the first instead of appearing
        twice."""
        key = ("post", table.id, post)
        self._waiting.pop(key, None)
        if table.status == "abandoned":
            return  # struck off with the table
        if table.channel_id in self._gone:
            done = CHANNEL_GONE
        else:
            try:
                if post == "table":
                    done = await self.edit_now(table, URGENT)
                else:
                    done = await self._send_post(table, post)
            except Exception:
                log.exception("game %s: could not send %s; it is sent again later", table.id, post)
                done = RETRY
        if done == RETRY:
            # Discord busy or failing, or the bot without access for now: the post stays
            # owed, and is sent again later, when its server is back, or after a restart.
            self._waiting[key] = table
            self.scheduler.at(
                key,
                self._now() + self._backoff(key),
                functools.partial(self.post, table, post),
            )
            return
        self._retries.pop(key, None)
        if done == CHANNEL_GONE:
            await self.channel_gone(table.channel_id)
            if table.status != "finished":
                return  # abandoned: its posts went with it
            log.info("game %s: %s struck off: its channel is gone", table.id, post)
        if post == "table" and table.id not in self.tables.tables:
            self._editing.pop(table.id, None)  # the game's last edit is made
        try:
            await self.tables.store.posted(table.id, post)
        except StoreWriteError:  # sent again at a restart; the store logs the episode once
            pass
        except Exception:
            log.exception("game %s: %s sent, but not struck from the outbox", table.id, post)

    def _post_message(self, table: Table, post: str, lang: Lang) -> tuple[Rendered, Any]:
        """Return the post ``post`` of the table in ``lang``, and its picture's thunk and
        file name, if it has one."""
        state = table.state
        assert state is not None
        if post == "end":
            result = state.result()
            shown = render.final_standings(
                table.ui, result.scores, result.winners, seat_infos(table), table.id, lang=lang
            )
            return shown, None
        if post.startswith("left"):  # a member left; a computer plays their seat
            seat = int(post.removeprefix("left"))
            shown = render.handed_over(
                table.ui, seat, len(table.seats), seat_infos(table), lang=lang
            )
            return shown, None
        owed = table.ui.post(table_info(table), state, post, picture_names(table, lang), lang)
        shown = owed.message
        if owed.details:
            shown = details.with_button(shown, table.id, post, lang)
        picture = None if owed.picture is None else (owed.picture, owed.filename)
        return shown, picture

    async def _send_post(self, table: Table, post: str) -> str:
        channel = self.bot.get_partial_messageable(table.channel_id, guild_id=table.guild_id)
        shown, picture = self._post_message(table, post, self._lang(table.guild_id))
        file = None
        if picture is not None and self.files_ok(table):
            data = await pictures.render_off_loop(picture[0])
            file = discord.File(io.BytesIO(data), filename=picture[1])
        done = await self._send(channel, shown, file, nonce=f"{table.id}:{post}")
        if done == NO_FILES:
            done = await self._send(channel, shown, None, nonce=f"{table.id}:{post}")
            if done == SENT:
                self._text_only(table)
            elif done == NO_FILES:
                done = RETRY  # refused without a picture too: not the picture's fault
        return done

    async def _send(
        self,
        channel: discord.abc.Messageable,
        shown: Rendered,
        file: discord.File | None = None,
        *,
        nonce: str | None = None,
    ) -> str:
        """Post a public message (when the budget allows: before any edit); return what
        became of it (see :func:`fate`)."""
        await self.budget.take(("post", nonce or id(shown)), URGENT)
        try:
            extra: dict[str, Any] = {}
            if file is not None:
                extra["file"] = file
            if shown.view is not None:
                extra["view"] = shown.buttons()
            if nonce is not None:
                extra["nonce"] = nonce
            await channel.send(content=shown.content, embeds=shown.embeds, **extra)
        except discord.HTTPException as error:
            log.warning("could not post to channel: %s", error)
            return fate(error, with_file=file is not None)
        return SENT

    def files_ok(self, table: Table) -> bool:
        """Whether the table's posts and message carry pictures now: they are on, and its
        channel has not refused one lately (no Attach Files permission)."""
        if not table.options.pictures:
            return False
        until = self._no_files.get(table.channel_id)
        if until is None:
            return True
        if self._now() >= until:
            del self._no_files[table.channel_id]  # try pictures again
            return True
        return False

    def _text_only(self, table: Table) -> None:
        """The channel refused a picture but took the text: text only there for a while."""
        if table.channel_id not in self._no_files:
            log.warning(
                "channel %s refuses pictures (no Attach Files permission): text only there",
                table.channel_id,
            )
        self._no_files[table.channel_id] = self._now() + _NO_FILES_FOR

    async def deliver_owed(self) -> None:
        """After a restart: send what the previous process owed the channels — posts of
        finished games and of live ones — and bring stale table messages up to date,
        spread out so that a thousand of them do not all go at once."""
        owing = [t for t in self.tables.finished_owing if t.owed]
        owing += [t for t in self.tables.tables.values() if t.owed]
        self.tables.finished_owing.clear()
        # Each table's posts in order, the tables side by side (a few at a time): a game's
        # channel gets its posts in sequence however many other games owe some.
        gate = asyncio.Semaphore(_OWED_AT_ONCE)

        async def deliver(table: Table) -> None:
            async with gate:
                owed, table.owed = table.owed, []
                for post in owed:
                    await self.post(table, post)
                log.info("game %s: sent %s after the restart", table.id, ", ".join(owed))

        await asyncio.gather(*(deliver(table) for table in sorted(owing, key=lambda t: t.id)))
        stale = 0
        for table in list(self.tables.tables.values()):
            if table.message_stale and table.status == "playing":
                table.message_stale = False
                when = self._now() + _STALE_EDIT_AFTER + stale * _STALE_EDIT_SPACING
                stale += self._edit_by(table, when)
        if stale:
            log.info("%d table message(s) are brought up to date after the restart", stale)

    # --- an event's posts (a duplicate match's) --------------------------------------

    def owe_match_post(self, post: MatchPost) -> None:
        """Owe an event's post, stored as owed already: it goes after the channel's
        earlier ones, with :meth:`deliver_match_posts`."""
        self._match_owed.setdefault(post.channel_id, deque()).append(post)

    async def load_match_posts(self) -> None:
        """After a start: send what events owed this process's servers' channels."""
        for post in await self.tables.store.owed_match_posts():
            if self.owns(post.guild_id):
                self.owe_match_post(post)
        for channel_id in list(self._match_owed):
            self.spawn(self.deliver_match_posts(channel_id), f"match-posts-{channel_id}")

    async def deliver_match_posts(self, channel_id: int) -> None:
        """Send the channel's owed event posts in order; a refusal that may pass (no access
        for now, Discord busy or failing) leaves it and the later ones owed, tried again
        later; a deleted channel's are struck off."""
        key = ("match-post", channel_id)
        if self.scheduler.due(key) is not None:
            return  # refused lately: they go together at the next try, in order
        async with self._match_sending.setdefault(channel_id, asyncio.Lock()):
            if self.scheduler.due(key) is not None:
                return  # refused again while this waited for the send in flight
            owed = self._match_owed.get(channel_id)
            while owed:
                post = owed[0]
                done = await self._send_match_post(post)
                if done == RETRY:
                    when = self._now() + self._backoff(key)
                    self.scheduler.at(
                        key, when, functools.partial(self.deliver_match_posts, channel_id)
                    )
                    return
                if done == CHANNEL_GONE:
                    await self._strike_match_posts(channel_id)
                    return
                owed.popleft()
                await self._match_posted(post)
            self._match_owed.pop(channel_id, None)
            self._retries.pop(key, None)

    async def _send_match_post(self, post: MatchPost) -> str:
        if post.channel_id in self._gone:
            return CHANNEL_GONE
        channel = self.bot.get_partial_messageable(post.channel_id, guild_id=post.guild_id)
        await self.budget.take(("match-post", post.nonce), URGENT)
        try:
            await channel.send(content=suits.rich(post.text), nonce=post.nonce)
        except discord.HTTPException as error:
            log.warning("match %s: post to channel %s: %s", post.match_id, post.channel_id, error)
            return fate(error, with_file=False)
        except Exception:
            log.exception("match %s: post to channel %s failed", post.match_id, post.channel_id)
            return RETRY
        return SENT

    async def _match_posted(self, post: MatchPost) -> None:
        try:
            await self.tables.store.match_posted(post.match_id, post.nonce)
        except Exception:  # sent again after a restart: its nonce keeps it one post
            log.warning("match %s: post %s not recorded as sent", post.match_id, post.nonce)

    async def _strike_match_posts(self, channel_id: int) -> None:
        """Strike off the channel's owed event posts: there is nowhere to send them."""
        key = ("match-post", channel_id)
        self.scheduler.cancel(key)
        self._retries.pop(key, None)
        for post in self._match_owed.pop(channel_id, ()):
            log.info("match %s: post %s struck off: its channel is gone", post.match_id, post.nonce)
            await self._match_posted(post)

    def match_post_guilds(self) -> set[int]:
        """Return the servers whose channels are owed event posts."""
        return {owed[0].guild_id for owed in self._match_owed.values() if owed}

    # --- channels and servers that go away -------------------------------------------

    async def channel_gone(self, channel_id: int) -> None:
        """The channel (or thread) was deleted: its table is abandoned (no stand-ins, no
        scores, no ratings; ``/history`` lists a started one as abandoned), and the posts
        still owed to it are struck off."""
        self._gone.add(channel_id)
        table = self.tables.table_in(channel_id)
        if table is not None:
            await self._abandon(table)
        for key, waiting in list(self._waiting.items()):
            if waiting.channel_id == channel_id:
                await self._strike_waiting(key, waiting)
        await self._match_channel_gone(channel_id)

    async def _match_channel_gone(self, channel_id: int) -> None:
        """Strike off the event posts owed to the channel, after any send in flight."""
        if channel_id in self._match_owed:
            async with self._match_sending.setdefault(channel_id, asyncio.Lock()):
                await self._strike_match_posts(channel_id)

    async def _strike_waiting(self, key: tuple[object, ...], table: Table) -> None:
        """Strike off a post waiting to be sent again: there is nowhere to send it."""
        self.scheduler.cancel(key)
        self._waiting.pop(key, None)
        self._retries.pop(key, None)
        if table.status == "abandoned":
            return  # struck off with the table
        try:
            await self.tables.store.drop_owed(table.id)
        except Exception:
            log.warning("game %s: owed posts not struck off; a restart tries them", table.id)

    def guild_left(self, guild_id: int) -> None:
        """The bot was removed from the server: its tables wait (their timers stopped) for
        ``removed_grace`` seconds, then are abandoned unless it is back."""
        owing = any(t.guild_id == guild_id for t in self._waiting.values())
        owing = owing or guild_id in self.match_post_guilds()
        if self.tables.is_away(guild_id) or not (self.tables.in_guild(guild_id) or owing):
            return
        self.tables.away(guild_id)
        self.scheduler.at(
            ("away", guild_id),
            self._now() + self.removed_grace,
            functools.partial(self._abandon_guild, guild_id),
        )
        log.info("removed from server %s: its tables wait for the bot to be back", guild_id)

    async def _abandon_guild(self, guild_id: int) -> None:
        for table in self.tables.in_guild(guild_id):
            await self._abandon(table)
        for key, waiting in list(self._waiting.items()):
            if waiting.guild_id == guild_id:
                await self._strike_waiting(key, waiting)
        for channel_id, owed in list(self._match_owed.items()):
            if owed and owed[0].guild_id == guild_id:
                await self._match_channel_gone(channel_id)
        self.tables.back(guild_id)  # nothing of it is left to wait

    def guild_back(self, guild_id: int) -> None:
        """The server is there for the bot (added again, or back after an outage): timers
        run again, and what it owes there is sent now."""
        self.scheduler.cancel(("away", guild_id))
        was_away = self.tables.is_away(guild_id)
        if was_away:
            log.info("back in server %s: its tables go on", guild_id)
        self.tables.back(guild_id)
        now = self._now()
        for key, waiting in list(self._waiting.items()):
            if waiting.guild_id == guild_id:
                self._retries.pop(key, None)
                post = str(key[2])
                self.scheduler.at(key, now, functools.partial(self.post, waiting, post))
        for channel_id, owed in list(self._match_owed.items()):
            if owed and owed[0].guild_id == guild_id:
                key = ("match-post", channel_id)
                self._retries.pop(key, None)
                self.scheduler.cancel(key)
                self.spawn(self.deliver_match_posts(channel_id), f"match-posts-{channel_id}")
        if not was_away:
            return  # a server available at start or after an outage: nothing went stale
        for table in self.tables.in_guild(guild_id):
            if table.status in ("lobby", "playing"):
                self._retries.pop(("edit", table.id), None)
                self._edit_by(table, now)


class _Edit(NamedTuple):
    """A table message's edit: what it shows (how many moves, whose turn, the message, its
    picture's key and thunk) and whether it carries a new picture."""

    made: int
    turn: object
    shown: Rendered
    picture: Any
    digest: bytes
    new_picture: bool


def _key(edit: _Edit) -> object:
    """Return the key of the picture ``edit`` shows (``None``: no picture)."""
    return _key_of(edit.picture)


def _key_of(picture: Any) -> object:
    """Return the key of a table picture and its thunk (``None``: no picture)."""
    return None if picture is None else picture[0]


def _token_refused(error: discord.HTTPException) -> bool:
    """Return whether Discord refused an interaction token itself: 401 (code 50027, Invalid
    Webhook Token: expired) or an unknown webhook (404, code 10015)."""
    return error.status == 401 or (error.status == 404 and error.code == _UNKNOWN_WEBHOOK)


def _turn_of(table: Table) -> object:
    """Return whose turn the table is at, as its message shows it: the seats to act (a
    lobby's, a finished game's: none)."""
    if table.status != "playing":
        return table.status
    state = table.state
    return table.status if state is None else tuple(state.to_act)
