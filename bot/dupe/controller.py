"""The Discord side of a Dupe table: answers clicks and commands, keeps messages current.

Order of work for every click: check who pressed what, let :mod:`bot.sessions` apply and
commit the move, answer the presser (the interaction response), then update what others
see: the public table message (edited in place, changes combined over ``edit_interval``), each
seated member's private hand message (through that member's own latest interaction token,
so nobody else's message can ever receive it), and a public message when a deal is scored
or the game ends.
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import functools
import io
import logging
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import discord

from bot import render
from bot.errors import answer_error, reply_private
from bot.games.dupe import pictures
from bot.i18n import Lang, Text, lang_of, seat_name, t
from bot.render import SeatInfo, TableInfo
from bot.sessions import Outcome, Sessions, Table, TableOptions, UserError
from engine.cards import Card, by_suit, parse_card
from engine.dupe import SEAT_LETTERS, Distribute, Phase, play
from engine.errors import ParseError

__all__ = ["DupeController"]

log = logging.getLogger(__name__)

# An interaction token lives 15 minutes; stop using one a little before that.
TOKEN_LIFETIME = 14 * 60
# After a restart, stale table messages are edited from this long after the start (the
# members' first clicks, which a restart has kept waiting, come first), this far apart
# (Discord allows a bot about 50 requests a second in all).
_STALE_EDIT_AFTER = 5.0
_POST_RETRY_SECONDS = 30.0
_OWED_AT_ONCE = 8  # tables whose owed posts are sent side by side after a restart
_STALE_EDIT_SPACING = 0.025


def _settled(error: discord.HTTPException) -> bool:
    """Whether a failed post or edit is final: refused for good (no access, channel or
    message gone, a bad body), as opposed to Discord being busy (429 after discord.py's own
    retries) or failing (5xx), when it is worth sending again."""
    return error.status < 500 and error.status != 429


@dataclass(slots=True)
class _HandHandle:
    interaction: discord.Interaction
    created: float


def _moves_made(table: Table) -> int:
    """Return how far the game has got (its move count): what a table edit shows."""
    return -1 if table.state is None else table.state.move_count


def seat_infos(table: Table) -> dict[int, SeatInfo]:
    """Return how each seat is shown."""
    return {
        seat: SeatInfo(
            name=discord.utils.escape_markdown(record.name),
            user_id=record.user_id,
            level=record.level,
        )
        for seat, record in table.seats.items()
    }


def _picture_names(table: Table, lang: Lang) -> list[str]:
    """Return who sits in each seat, as the pictures write it."""
    names = []
    for seat in range(4):
        record = table.seats.get(seat)
        if record is None:
            names.append(seat_name(lang, seat))
        elif record.user_id is None:
            names.append(t(lang, "table.cpu_name", level=record.level))
        else:
            names.append(record.name)
    return names


def _trick_to_picture(
    table: Table, lang: Lang
) -> tuple[tuple[int, int, str, str], tuple[Any, ...]] | None:
    """Return the trick the table message shows, as a key and ``trick_picture``'s
    arguments: the revealed trick awaiting its distribution, or the last one completed
    (``None`` when there is none, or pictures are off)."""
    state = table.state
    if not table.options.pictures or state is None or table.status != "playing":
        return None
    view = state.public_view()
    names = _picture_names(table, lang)
    if view.revealed is not None:
        key = (view.deal, view.trick, "revealed", lang)
        return key, (view.revealed, names, view.taker, None)
    last = view.last_trick
    if last is None or last.deal != view.deal:
        return None
    received = last.received if last.taker is not None else None
    return (last.deal, last.trick, "given", lang), (last.cards, names, last.taker, received)


def table_info(table: Table) -> TableInfo:
    """Return what the table renderers need besides the view."""
    warned: list[int] = []
    if table.warned:
        warned = table.humans_to_act()
    return TableInfo(
        game_id=table.id,
        host_id=table.host_id,
        memory=table.options.memory,
        turn_seconds=table.options.turn_seconds,
        level=table.options.level,
        seats=seat_infos(table),
        warned=warned,
        deadline=table.deadline,
        status=table.status,
        pictures=table.options.pictures,
        seating=table.options.seating,
        rematch_of=table.options.rematch_of,
        invited=table.options.invited,
    )


def render_table(table: Table, lang: Lang = "en") -> render.Rendered:
    """Return the public table message as it should look now, in ``lang``."""
    if table.status == "lobby":
        return render.lobby_message(table_info(table), lang=lang)
    if table.status == "cancelled":
        title = t(lang, "table.cancelled_title")
        return render.Rendered(
            content=None, embeds=[discord.Embed(title=title, colour=render.COLOUR)], view=None
        )
    assert table.state is not None
    return render.table_message(table_info(table), table.state.public_view(), lang=lang)


async def _send_response(
    interaction: discord.Interaction, shown: render.Rendered, *, ephemeral: bool = False
) -> discord.InteractionCallbackResponse[discord.Client]:
    return await interaction.response.send_message(
        content=shown.content, embeds=shown.embeds, view=shown.buttons(), ephemeral=ephemeral
    )


async def _edit_response(interaction: discord.Interaction, shown: render.Rendered) -> None:
    await interaction.response.edit_message(
        content=shown.content, embeds=shown.embeds, view=shown.buttons()
    )


class DupeController:
    """Everything the cog and the buttons do, with the message bookkeeping."""

    def __init__(
        self,
        bot: discord.Client,
        sessions: Sessions,
        *,
        edit_interval: float,
    ) -> None:
        self.bot = bot
        self.sessions = sessions
        self.edit_interval = edit_interval
        self._now = sessions.clock
        self._hands: dict[tuple[int, int], _HandHandle] = {}
        # Edits of a seat's hand message in flight (answers and refreshes), and the seats
        # whose hand changed meanwhile: edits of one message are never raced, and a burst
        # of changes makes one more edit at the end, not one each.
        self._hand_busy: Counter[tuple[int, int]] = Counter()
        self._hand_dirty: set[tuple[int, int]] = set()
        self.scheduler = sessions.scheduler
        self._pictured: dict[int, tuple[int, int, str, str] | None] = {}  # table → trick shown
        self._tasks: set[asyncio.Task[None]] = set()
        sessions.notify = self.on_outcome

    # --- helpers -------------------------------------------------------------------

    def _spawn(self, coro: object, name: str) -> None:
        task: asyncio.Task[None] = asyncio.get_running_loop().create_task(coro, name=name)  # type: ignore[arg-type]
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def jump_url(self, table: Table) -> str:
        """Return a link to the table message (or its channel)."""
        if table.message_id is None:
            return f"https://discord.com/channels/{table.guild_id}/{table.channel_id}"
        return (
            f"https://discord.com/channels/{table.guild_id}/{table.channel_id}/{table.message_id}"
        )

    def public_lang(self, table: Table) -> Lang:
        """Return the language of the table's public messages: its server's."""
        guild = self.bot.get_guild(table.guild_id)
        return lang_of(guild.preferred_locale if guild is not None else None)

    def _hand(
        self,
        table: Table,
        seat: int,
        lang: Lang,
        notice: Text | None = None,
        assignment: str = "",
    ) -> render.Rendered:
        assert table.state is not None
        return render.hand_message(
            table.id,
            table.state.view(seat),
            seat_infos(table),
            notice=None if notice is None else f"⚠️ {notice(lang)}",
            assignment=assignment,
            pictures=table.options.pictures,
            lang=lang,
        )

    def _remember_hand(self, table: Table, seat: int, interaction: discord.Interaction) -> None:
        # Only the token is needed to edit the message later: keep a copy of the interaction
        # without the message and payload it arrived with (they hold the whole old hand).
        slim = copy.copy(interaction)
        slim.message = None
        slim.data = None
        slim._original_response = None
        self._hands[table.id, seat] = _HandHandle(slim, self._now())

    async def _answer_with_hand(
        self,
        interaction: discord.Interaction,
        table: Table,
        seat: int,
        notice: Text | None = None,
        assignment: str = "",
    ) -> None:
        """Answer with the seat's hand: in place when the pressed button was on a private
        message (the hand itself), otherwise as a new private message — a hand must never
        replace a public message, even when a forged button names one."""
        lang = lang_of(interaction.locale)
        shown = self._hand(table, seat, lang, notice=notice, assignment=assignment)
        message = interaction.message
        private = message is not None and message.flags.ephemeral
        key = (table.id, seat)
        if private and self._hand_busy[key]:
            # This answer replaces the hand message while a refresh of it is in flight:
            # the refresh edits once more afterwards, so an older hand cannot land last.
            self._hand_dirty.add(key)
        with self._hand_in_flight(key):
            if private:
                await _edit_response(interaction, shown)
            else:
                await _send_response(interaction, shown, ephemeral=True)
        self._remember_hand(table, seat, interaction)
        await self._catch_up(table, seat)

    @contextlib.contextmanager
    def _hand_in_flight(self, key: tuple[int, int]) -> Iterator[None]:
        """Count an answer or refresh of the seat ``key``'s hand message as in flight."""
        self._hand_busy[key] += 1
        try:
            yield
        finally:
            self._hand_busy[key] -= 1
            if not self._hand_busy[key]:
                del self._hand_busy[key]

    async def _catch_up(self, table: Table, seat: int) -> None:
        """After an answer: if the hand changed while it was on its way (a refresh was
        asked for meanwhile), show the hand as it is now."""
        key = (table.id, seat)
        if key in self._hand_dirty and not self._hand_busy[key]:
            await self._refresh_hand(table, seat)

    # --- slash commands ------------------------------------------------------------

    async def start_table(self, interaction: discord.Interaction, options: TableOptions) -> None:
        """``/dupe start``: open a table with a public lobby message."""
        if interaction.guild_id is None or interaction.channel_id is None:
            raise UserError("errors.no_dms")
        existing = self.sessions.table_in(interaction.channel_id)
        if existing is not None:
            raise UserError("table.channel_has_table", url=self.jump_url(existing))
        table = await self.sessions.open_table(
            guild_id=interaction.guild_id,
            channel_id=interaction.channel_id,
            host_id=interaction.user.id,
            host_name=interaction.user.display_name,
            options=options,
        )
        log.info("game %s: table opened in channel %s", table.id, table.channel_id)
        sent = await _send_response(interaction, render_table(table, self.public_lang(table)))
        message_id = sent.message_id
        if message_id is None:  # Discord did not say: ask for the message
            message_id = (await interaction.original_response()).id
        await self.sessions.set_message(table, message_id)

    def _channel_table(self, interaction: discord.Interaction) -> Table:
        if interaction.channel_id is None:
            raise UserError("table.server_channel")
        table = self.sessions.table_in(interaction.channel_id)
        if table is None:
            raise UserError("table.no_table_here")
        return table

    async def show_hand_command(self, interaction: discord.Interaction) -> None:
        """``/dupe hand``: the member's hand, privately."""
        table = self._channel_table(interaction)
        await self.show_hand(interaction, table.id)

    async def status(self, interaction: discord.Interaction) -> None:
        """``/dupe status``: the table as everyone sees it, privately."""
        table = self._channel_table(interaction)
        lang = lang_of(interaction.locale)
        shown = render_table(table, lang)
        await interaction.response.send_message(
            content=t(lang, "table.status_link", url=self.jump_url(table)),
            embeds=shown.embeds,
            ephemeral=True,
        )

    async def cancel_command(self, interaction: discord.Interaction) -> None:
        """``/dupe cancel``: the host or a server manager closes the table."""
        table = self._channel_table(interaction)
        await self._cancel(interaction, table.id, from_table=False)

    # --- lobby buttons -------------------------------------------------------------

    async def lobby(self, interaction: discord.Interaction, what: str, game_id: int) -> None:
        """A lobby button on the table message."""
        user = interaction.user
        if what == "join":
            table = await self.sessions.join(game_id, user.id, user.display_name)
        elif what == "leave":
            table = await self.sessions.leave(game_id, user.id)
        elif what == "addcpu":
            table = await self.sessions.add_computer(game_id, user.id)
        elif what == "start":
            outcome = await self.sessions.start(game_id, user.id)
            table = outcome.table
            log.info("game %s: started", table.id)
        elif what == "cancel":
            await self._cancel(interaction, game_id, from_table=True)
            return
        else:
            raise UserError("table.not_a_lobby_button")
        await self._answer_on_table(interaction, table)

    async def _answer_on_table(self, interaction: discord.Interaction, table: Table) -> None:
        shown = render_table(table, self.public_lang(table))
        message = interaction.message
        if table.message_id is None and message is not None and not message.flags.ephemeral:
            # A click on the lobby before /dupe start finished recording its message id:
            # the public message carrying this table's lobby buttons is the table message.
            await self.sessions.set_message(table, message.id)
        if message is not None and message.id == table.message_id:
            await _edit_response(interaction, shown)
            self.scheduler.cancel(("edit", table.id))  # this answer already shows it all
        else:
            await interaction.response.defer(ephemeral=True, thinking=False)
            self.refresh_table(table)

    async def _cancel(
        self, interaction: discord.Interaction, game_id: int, *, from_table: bool
    ) -> None:
        can_manage = bool(
            interaction.permissions.manage_guild if interaction.permissions else False
        )
        table = await self.sessions.cancel(game_id, interaction.user.id, can_manage=can_manage)
        log.info("game %s: cancelled", table.id)
        self._forget(table)
        if (
            from_table
            and interaction.message is not None
            and (interaction.message.id == table.message_id)
        ):
            await _edit_response(interaction, render_table(table, self.public_lang(table)))
        else:
            text = t(lang_of(interaction.locale), "table.cancelled_reply")
            await interaction.response.send_message(text, ephemeral=True)
            await self._edit_table_now(table)

    # --- hands and moves -------------------------------------------------------------

    async def show_hand(self, interaction: discord.Interaction, game_id: int) -> None:
        """“My hand”: a fresh private message with the member's hand and identity card."""
        table = self.sessions.table(game_id)
        seat = table.seat_of(interaction.user.id)
        if seat is None:
            raise UserError("table.not_playing")
        if table.status == "lobby" or table.state is None:
            raise UserError("table.not_started")
        shown = self._hand(table, seat, lang_of(interaction.locale))
        with self._hand_in_flight((table.id, seat)):
            await _send_response(interaction, shown, ephemeral=True)
        self._remember_hand(table, seat, interaction)
        await self._catch_up(table, seat)

    async def rematch(self, interaction: discord.Interaction, game_id: int) -> None:
        """“Rematch” under a finished game's standings: the first player opens the new
        table (a new public message), the others say yes to it."""
        record = await self.sessions.store.game(game_id)
        if record is None or record.guild_id != interaction.guild_id:
            raise UserError("table.not_this_server")
        if record.status != "finished":
            raise UserError("table.not_over")
        user = interaction.user
        table, outcome, created = await self.sessions.rematch(record, user.id, user.display_name)
        if created:
            log.info("game %s: rematch of game %s opened", table.id, game_id)
            sent = await _send_response(interaction, render_table(table, self.public_lang(table)))
            message_id = sent.message_id
            if message_id is None:
                message_id = (await interaction.original_response()).id
            await self.sessions.set_message(table, message_id)
        else:
            key = "table.in_rematch_starts" if outcome is not None else "table.in_rematch"
            await reply_private(interaction, t(lang_of(interaction.locale), key))
            self.refresh_table(table)
        if outcome is not None:
            log.info("game %s: started", table.id)
            await self.on_outcome(outcome)

    async def show_hand_picture(self, interaction: discord.Interaction, game_id: int) -> None:
        """“Picture of my hand”: the presser's own hand as a picture, privately."""
        table = self.sessions.table(game_id)
        seat = table.seat_of(interaction.user.id)
        if seat is None:
            raise UserError("table.not_playing")
        if table.state is None:
            raise UserError("table.not_started")
        if not table.options.pictures:
            raise UserError("table.pictures_off")
        hand = table.state.view(seat).hand
        if not hand:
            raise UserError("table.no_cards")
        await interaction.response.defer(ephemeral=True, thinking=True)
        data = await pictures.render_off_loop(pictures.hand_picture, hand)
        cards = " ".join(map(str, sorted(hand, key=by_suit)))
        await interaction.followup.send(
            t(lang_of(interaction.locale), "table.hand_caption", n=len(hand), cards=cards),
            file=discord.File(io.BytesIO(data), filename=pictures.picture_filename("hand")),
            ephemeral=True,
        )

    async def play_card(
        self, interaction: discord.Interaction, game_id: int, seat: int, turn: int, code: str
    ) -> None:
        """A card button in a private hand."""
        try:
            card = parse_card(code)
        except ParseError:
            raise UserError("table.not_a_card") from None
        table = self.sessions.table(game_id)
        try:
            outcome = await self.sessions.act(game_id, interaction.user.id, seat, turn, play(card))
        except UserError as error:
            await self._refresh_stale(interaction, table, seat, error.text)
            return
        await self._answer_move(interaction, outcome, seat)

    async def _answer_move(
        self, interaction: discord.Interaction, outcome: Outcome, seat: int
    ) -> None:
        """Answer the presser of a committed move with their hand, then show the move to
        everyone. The move stands even when the answer fails (the interaction expired while
        the bot was busy, say): it is shown all the same, the presser's own hand included."""
        try:
            await self._answer_with_hand(interaction, outcome.table, seat)
        except discord.HTTPException:
            await self.on_outcome(outcome)
            raise
        await self.on_outcome(outcome, answered=(seat,))

    async def _refresh_stale(
        self, interaction: discord.Interaction, table: Table, seat: int, reason: Text
    ) -> None:
        """Answer a refused click; when it came from the presser's own hand, show the
        hand as it is now with the reason on top."""
        own = table.seats.get(seat)
        if (
            table.state is not None
            and own is not None
            and own.user_id == interaction.user.id
            and table.status == "playing"
        ):
            await self._answer_with_hand(interaction, table, seat, notice=reason)
            return
        await reply_private(interaction, reason(lang_of(interaction.locale)))

    def _revealed_in_order(self, table: Table) -> list[Card]:
        assert table.state is not None
        view = table.state.public_view()
        assert view.revealed is not None
        return sorted(view.revealed, key=by_suit)

    def _distributing(self, game_id: int) -> Table:
        """Return the game a distribution button belongs to, if it is still being played."""
        table = self.sessions.table(game_id)
        if table.state is None or table.status != "playing":
            raise UserError("errors.game_over_buttons")
        return table

    @staticmethod
    def _is_taker(table: Table, seat: int) -> bool:
        """Return whether ``seat`` took the trick now being distributed."""
        state = table.state
        return state is not None and state.phase is Phase.DISTRIBUTE and state.taker == seat

    async def give_step(
        self,
        interaction: discord.Interaction,
        game_id: int,
        seat: int,
        turn: int,
        assignment: str,
    ) -> None:
        """One step of the taker's distribution (no move yet: the choice lives in the
        buttons' custom ids)."""
        table = self._distributing(game_id)
        try:
            self.sessions.check_turn(table, interaction.user.id, seat, turn)
        except UserError as error:
            await self._refresh_stale(interaction, table, seat, error.text)
            return
        if not self._is_taker(table, seat):
            await self._refresh_stale(interaction, table, seat, Text("table.only_taker"))
            return
        if (
            len(set(assignment)) != len(assignment)
            or any(c not in SEAT_LETTERS for c in assignment)
            or len(assignment) > 4
        ):
            raise UserError("table.one_card_each")
        await self._answer_with_hand(interaction, table, seat, assignment=assignment)

    async def give_confirm(
        self,
        interaction: discord.Interaction,
        game_id: int,
        seat: int,
        turn: int,
        assignment: str,
    ) -> None:
        """The taker confirms a complete distribution."""
        table = self._distributing(game_id)
        if not self._is_taker(table, seat):
            reason = Text("table.already_distributed")
            await self._refresh_stale(interaction, table, seat, reason)
            return
        if sorted(assignment) != sorted(SEAT_LETTERS):
            raise UserError("table.give_all_four")
        cards = self._revealed_in_order(table)
        given: dict[int, Card] = {}
        for card, letter in zip(cards, assignment, strict=True):
            given[SEAT_LETTERS.index(letter)] = card
        action = Distribute(tuple(given[s] for s in range(4)))
        try:
            outcome = await self.sessions.act(game_id, interaction.user.id, seat, turn, action)
        except UserError as error:
            await self._refresh_stale(interaction, table, seat, error.text)
            return
        await self._answer_move(interaction, outcome, seat)

    # --- after a change --------------------------------------------------------------

    async def on_outcome(self, outcome: Outcome, answered: tuple[int, ...] = ()) -> None:
        """Show a committed change: table message, other members' hands, scoring."""
        table = outcome.table
        for result in outcome.new_results:
            await self._post(table, f"deal{result.deal}")
        if outcome.finished:
            await self._post(table, "end")
            log.info("game %s: finished", table.id)
            await self._post(table, "table")
            for seat in table.human_seats():
                if seat not in answered:
                    await self._refresh_hand(table, seat)  # “The game is over.”, no buttons
            self._forget(table)
            return
        self.refresh_table(table)
        if outcome.trick_changed or outcome.timed_out:
            for seat in table.human_seats():
                if seat not in answered:
                    self._spawn(self._refresh_hand(table, seat), f"dupe-hand-{table.id}-{seat}")

    # --- public posts that must not be lost ------------------------------------------

    async def _post(self, table: Table, post: str) -> None:
        """Send one public post the game owes its channel — ``deal<n>`` (that deal's
        scoring), ``end`` (the final standings) or ``table`` (the table message's last
        edit) — then strike it from the outbox, where it was written in the same
        transaction as the moves that made it due. A process killed in between sends it
        after its restart; Discord's ``enforce_nonce`` makes a repeated post return the
        first instead of appearing twice."""
        try:
            if post == "table":
                done = await self._edit_table_now(table)
            else:
                done = await self._send_post(table, post)
        except Exception:
            log.exception("game %s: could not send %s; it is sent again at restart", table.id, post)
            done = False
        if not done:
            # Discord was busy or failing: try again shortly (and after a restart anyway).
            self.scheduler.at(
                ("post", table.id, post),
                self._now() + _POST_RETRY_SECONDS,
                functools.partial(self._post, table, post),
            )
            return
        try:
            await self.sessions.store.posted(table.id, post)
        except Exception:
            log.exception("game %s: %s sent, but not struck from the outbox", table.id, post)

    async def _send_post(self, table: Table, post: str) -> bool:
        state = table.state
        assert state is not None
        channel = self.bot.get_partial_messageable(table.channel_id, guild_id=table.guild_id)
        lang = self.public_lang(table)
        file = None
        if post == "end":
            shown = render.final_standings(
                state.totals, state.winners, seat_infos(table), game_id=table.id, lang=lang
            )
        else:
            result = state.results[int(post.removeprefix("deal")) - 1]
            shown = render.deal_scoring(result, seat_infos(table), lang=lang)
            if table.options.pictures:
                data = await pictures.render_off_loop(
                    pictures.scoring_picture, result, _picture_names(table, lang), lang=lang
                )
                file = discord.File(
                    io.BytesIO(data), filename=pictures.picture_filename("scoring", result.deal)
                )
        return await self._send(channel, shown, file, nonce=f"{table.id}:{post}")

    def start_delivering_owed(self) -> None:
        """Start :meth:`deliver_owed` in the background (it must not hold up the start)."""
        self._spawn(self.deliver_owed(), "dupe-deliver-owed")

    async def deliver_owed(self) -> None:
        """After a restart: send what the previous process owed the channels — posts of
        finished games and of live ones — and bring stale table messages up to date,
        spread out so that a thousand of them do not all go at once."""
        owing = [t for t in self.sessions.finished_owing if t.owed]
        owing += [t for t in self.sessions.tables.values() if t.owed]
        self.sessions.finished_owing.clear()
        # Each table's posts in order, the tables side by side (a few at a time): a game's
        # channel gets its posts in sequence however many other games owe some.
        gate = asyncio.Semaphore(_OWED_AT_ONCE)

        async def deliver(table: Table) -> None:
            async with gate:
                owed, table.owed = table.owed, []
                for post in owed:
                    await self._post(table, post)
                log.info("game %s: sent %s after the restart", table.id, ", ".join(owed))

        await asyncio.gather(*(deliver(table) for table in sorted(owing, key=lambda t: t.id)))
        stale = 0
        for table in list(self.sessions.tables.values()):
            if table.message_stale and table.status == "playing":
                table.message_stale = False
                when = self._now() + _STALE_EDIT_AFTER + stale * _STALE_EDIT_SPACING
                stale += self._edit_by(table, when)
        if stale:
            log.info("%d table message(s) are brought up to date after the restart", stale)

    async def _send(
        self,
        channel: discord.abc.Messageable,
        shown: render.Rendered,
        file: discord.File | None = None,
        *,
        nonce: str | None = None,
    ) -> bool:
        """Post a public message; return whether that is settled: sent, or refused for
        good (see :func:`_settled`)."""
        try:
            extra: dict[str, Any] = {}
            if file is not None:
                extra["file"] = file
            if shown.view is not None:
                extra["view"] = shown.view
            if nonce is not None:
                extra["nonce"] = nonce
            await channel.send(content=shown.content, embeds=shown.embeds, **extra)
        except discord.HTTPException as error:
            log.warning("could not post to channel: %s", error)
            return _settled(error)
        return True

    async def _refresh_hand(self, table: Table, seat: int) -> None:
        """Edit the seat's hand message (through the member's latest interaction token) to
        show the hand as it is. While another edit of it is in flight, only note that it
        is due: the edit in flight makes it when it is done."""
        key = (table.id, seat)
        if self._hand_busy[key]:
            self._hand_dirty.add(key)
            return
        with self._hand_in_flight(key):
            while True:
                self._hand_dirty.discard(key)
                handle = self._hands.get(key)
                if handle is None or table.state is None:
                    return
                if self._now() - handle.created > TOKEN_LIFETIME:
                    self._hands.pop(key, None)
                    return
                shown = self._hand(table, seat, lang_of(handle.interaction.locale))
                try:
                    await handle.interaction.edit_original_response(
                        content=shown.content, embeds=shown.embeds, view=shown.buttons()
                    )
                except discord.HTTPException as error:
                    log.debug(
                        "game %s: hand message of seat %s not updated: %s", table.id, seat, error
                    )
                    if self._hands.get(key) is handle:
                        self._hands.pop(key, None)
                if key not in self._hand_dirty:
                    return

    def refresh_table(self, table: Table) -> None:
        """Bring the public table message up to date ``edit_interval`` after this change,
        together with every change made meanwhile: one edit for a burst of changes (four
        plays and the reveal, say), and never more than one edit per interval."""
        self._edit_by(table, self._now() + self.edit_interval)

    def _edit_by(self, table: Table, when: float) -> bool:
        """Have the table message edited at ``when`` unless an edit is due by then (a later
        one, a restart's slow catch-up, moves up); return whether this planned one."""
        key = ("edit", table.id)
        due = self.scheduler.due(key)
        if table.message_id is None or (due is not None and due <= when):
            return False
        self.scheduler.at(key, when, functools.partial(self._edit_job, table))
        return True

    def _forget(self, table: Table) -> None:
        """Drop what is kept for a table that has ended."""
        self.scheduler.cancel(("edit", table.id))
        self._pictured.pop(table.id, None)
        for seat in range(4):
            self._hands.pop((table.id, seat), None)
            self._hand_dirty.discard((table.id, seat))

    async def _edit_job(self, table: Table) -> None:
        await self._edit_table_now(table)

    async def _edit_table_now(self, table: Table) -> bool:
        """Edit the table message to show the table as it is; return whether that is
        settled (edited, no message, or refused for good)."""
        if table.message_id is None:
            return True
        channel = self.bot.get_partial_messageable(table.channel_id, guild_id=table.guild_id)
        try:
            made = _moves_made(table)
            lang = self.public_lang(table)
            shown = render_table(table, lang)
            extra: dict[str, Any] = {}
            picture = _trick_to_picture(table, lang)
            key = None if picture is None else picture[0]
            if key != self._pictured.get(table.id):
                # The shown trick changed: attach its picture (or take the old one away).
                files = []
                if picture is not None:
                    data = await pictures.render_off_loop(
                        pictures.trick_picture, *picture[1], lang=lang
                    )
                    name = pictures.picture_filename("trick")
                    files.append(discord.File(io.BytesIO(data), filename=name))
                extra["attachments"] = files
            await channel.get_partial_message(table.message_id).edit(
                content=shown.content, embeds=shown.embeds, view=shown.buttons(), **extra
            )
            if "attachments" in extra:
                self._pictured[table.id] = key
        except discord.HTTPException as error:
            log.warning("game %s: table message not updated: %s", table.id, error)
            return _settled(error)
        if table.status == "playing":
            try:
                await self.sessions.store.shown(table.id, made)
            except Exception:  # then a restart edits this message once more, that is all
                log.exception("game %s: could not record the edit", table.id)
        return True

    async def safely(self, interaction: discord.Interaction, coro: object) -> None:
        """Run a handler; any failure is answered privately through the error funnel."""
        try:
            await coro  # type: ignore[misc]
        except Exception as error:  # the funnel answers every failure
            await answer_error(interaction, error)

    async def close(self) -> None:
        """Stop the hand updates in progress (the scheduler stops the table edits)."""
        tasks = list(self._tasks)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
