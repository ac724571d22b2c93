"""The Discord side of every table: answers clicks and commands, keeps messages current.

It knows no game: what a table shows comes from its game's ``GameUI`` (``table.ui``).

Order of work for every click: check who pressed what, let :mod:`bot.tables` apply and
commit the move, answer the presser (the interaction response), then update what others
see: each seated member's private hand message (through that member's own latest
interaction token, so nobody else's message can ever receive it), and, through the courier
(:mod:`bot.delivery`), the public table message (edited in place, changes combined over
``edit_interval``) and the public posts the change made due (a deal's scoring, the end).
"""

from __future__ import annotations

import contextlib
import functools
import io
import logging
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import discord

from bot import discord_internals, hints, ids, pictures, render, suits
from bot.budget import REQUESTS_PER_SECOND
from bot.delivery import CHANNEL_GONE, Courier
from bot.errors import answer_error, on_time, reply_private
from bot.game import Form, GameUI, Rendered, Step
from bot.i18n import Lang, Text, TextList, lang_of, t
from bot.store import Store, StoreWriteError
from bot.table_message import render_table, seat_infos, table_info
from bot.tables import (
    Outcome,
    StaleError,
    Table,
    TableOptions,
    Tables,
    UserError,
    player_view,
)

if TYPE_CHECKING:
    from bot.matches import Matches

__all__ = ["Controller"]

log = logging.getLogger(__name__)

# An interaction token lives 15 minutes; stop using one a little before that (for the table
# message, the default of the ``table_token_seconds`` setting).
TOKEN_LIFETIME = 14 * 60
_REFUSAL_KEPT = 10.0  # seconds a refusal stays on its hand message through refreshes


@dataclass(slots=True)
class _HandHandle:
    token: discord_internals.ResponseToken  # edits the hand message for the 15 minutes it is valid
    created: float


# What the bot needs in a channel to run a table there: see it, post and edit the table
# (embeds), read back its own messages, and attach pictures when the table shows them.
_THREADS = (
    discord.ChannelType.public_thread,
    discord.ChannelType.private_thread,
    discord.ChannelType.news_thread,
)


def missing_permissions(interaction: discord.Interaction, *, pictures: bool) -> list[str]:
    """Return the permissions the bot lacks in the interaction's channel to host a table
    (Discord sends the bot's own with every interaction), by their ``discord.Permissions``
    names."""
    have = interaction.app_permissions
    in_thread = getattr(interaction.channel, "type", None) in _THREADS
    needed = [
        "view_channel",
        "send_messages_in_threads" if in_thread else "send_messages",
        "embed_links",
        "read_message_history",
    ]
    if pictures:
        needed.append("attach_files")
    return [name for name in needed if not getattr(have, name)]


def _values(interaction: discord.Interaction) -> list[str]:
    """Return what a select menu chose, or what a form's fields hold, in their order."""
    data: Any = interaction.data or {}
    if interaction.type is discord.InteractionType.modal_submit:
        found: list[str] = []
        for row in data.get("components") or ():
            inner = row.get("components") or [row.get("component") or row]
            found += [str(c.get("value") or "") for c in inner if c.get("type") == 4]
        return found
    return [str(value) for value in data.get("values") or ()]


def _modal(form: Form, custom_id: str, lang: Lang) -> discord.ui.Modal:
    """Return the form as a Discord modal in ``lang``, stopped (the bot reads its
    submission itself, like every component's)."""
    modal = discord.ui.Modal(title=form.title(lang)[:45], timeout=None, custom_id=custom_id)
    for i, field in enumerate(form.fields[:5]):
        style = discord.TextStyle.paragraph if field.long else discord.TextStyle.short
        modal.add_item(
            discord.ui.TextInput(
                label=field.label(lang)[:45],
                placeholder=field.placeholder[:100] or None,
                default=field.default[:4000] or None,
                style=style,
                custom_id=f"f{i}",
                max_length=4000,
            )
        )
    modal.stop()
    return modal


async def _send_response(
    interaction: discord.Interaction, shown: Rendered, *, ephemeral: bool = False
) -> discord.InteractionCallbackResponse[discord.Client]:
    return await interaction.response.send_message(
        content=shown.content, embeds=shown.embeds, view=shown.buttons(), ephemeral=ephemeral
    )


async def _edit_response(interaction: discord.Interaction, shown: Rendered) -> None:
    await discord_internals.update_in_place(
        interaction, content=shown.content, embeds=shown.embeds, view=shown.buttons()
    )


async def _mark_replaced(table: Table, seat: int, older: _HandHandle) -> None:
    """Say on a hand message that a newer one replaced it (an ephemeral message cannot be
    linked to: the newer one is below it), without buttons."""
    text = t(lang_of(older.token.locale), "table.hand_replaced")
    try:
        await discord_internals.edit_original(
            older.token, content=text, embeds=[], view=Rendered(content=text).buttons()
        )
    except discord.HTTPException as error:
        log.debug("game %s: older hand message of seat %s not marked: %s", table.id, seat, error)


async def _edit_after_answer(
    interaction: discord.Interaction, shown: Rendered, *, private: bool
) -> None:
    """Show ``shown`` for an interaction acknowledged already: its message edited in place
    through its token, or a new private message."""
    if private:
        await discord_internals.edit_original(
            discord_internals.ResponseToken.of(interaction),
            content=shown.content,
            embeds=shown.embeds,
            view=shown.buttons(),
        )
    else:
        await interaction.followup.send(
            content=shown.content or "", embeds=shown.embeds, view=shown.buttons(), ephemeral=True
        )


class Controller:
    """Everything the cog and the buttons do, with the message bookkeeping."""

    def __init__(
        self,
        bot: discord.Client,
        store: Store,
        games: Callable[[str], GameUI],
        *,
        clock: Callable[[], float],
        edit_interval: float,
        removed_grace: float = 3600.0,
        owns: Callable[[int], bool] | None = None,
        requests_per_second: float = REQUESTS_PER_SECOND,
        table_token_seconds: float = TOKEN_LIFETIME,
        **tables: Any,
    ) -> None:
        """Build the controller, its live tables (``tables``: the rest of
        :class:`~bot.tables.Tables`' keyword arguments) and the courier of their posts and
        edits; committed changes that nobody pressed for (a timer's) are shown through
        :meth:`on_outcome`. ``owns``: whether this process runs a server (its shard);
        ``requests_per_second``: its share of the bot's requests to Discord;
        ``table_token_seconds``: how long the token of the interaction whose answer the
        table message is edits it."""
        self.bot = bot
        self.table_token_seconds = table_token_seconds
        self.owns = owns or (lambda guild_id: True)
        self.tables = Tables(
            store, games, clock=clock, notify=self.on_outcome, owns=self.owns, **tables
        )
        self.courier = Courier(
            bot,
            self.tables,
            edit_interval=edit_interval,
            removed_grace=removed_grace,
            owns=self.owns,
            lang=self.public_lang_of,
            shown=self._table_shown,
            abandon=self._abandon,
            requests_per_second=requests_per_second,
        )
        self._now = clock
        self._hands: dict[tuple[int, int], _HandHandle] = {}
        # Edits of a seat's hand message in flight (answers and refreshes), and the seats
        # whose hand changed meanwhile: edits of one message are never raced, and a burst
        # of changes makes one more edit at the end, not one each.
        self._hand_busy: Counter[tuple[int, int]] = Counter()
        self._hand_dirty: set[tuple[int, int]] = set()
        self._stood_in: dict[tuple[int, int], list[object]] = {}  # seat → a computer's moves
        # seat → the refusal its hand message shows, and when it was made: a refresh of the
        # hand soon after (the move that overtook the press, shown to everyone while the
        # refusal was on its way) keeps it instead of wiping it out before it is read.
        self._refused: dict[tuple[int, int], tuple[float, Text]] = {}
        # Seats whose hand message can no longer be edited (sent before a restart, or its
        # token expired or refused): the table message tells them when it is their turn.
        self._hand_lost: set[tuple[int, int]] = set()
        # Events over several tables (duplicate matches), set by the bot once loaded.
        self.matches: Matches | None = None

    # --- helpers -------------------------------------------------------------------

    def jump_url(self, table: Table) -> str:
        """Return a link to the table message (or its channel)."""
        if table.message_id is None:
            return f"https://discord.com/channels/{table.guild_id}/{table.channel_id}"
        return (
            f"https://discord.com/channels/{table.guild_id}/{table.channel_id}/{table.message_id}"
        )

    def public_lang(self, table: Table) -> Lang:
        """Return the language of the table's public messages: its server's."""
        return self.public_lang_of(table.guild_id)

    def public_lang_of(self, guild_id: int) -> Lang:
        """Return the language of a server's public messages."""
        guild = self.bot.get_guild(guild_id)
        return lang_of(guild.preferred_locale if guild is not None else None)

    def _hand(
        self,
        table: Table,
        seat: int,
        lang: Lang,
        notice: str | None = None,
        pending: str = "",
    ) -> Rendered:
        assert table.state is not None
        shown = table.ui.hand_message(
            table_info(table),
            player_view(table.state, seat),
            table.turn,
            lang,
            pending=pending,
            notice=notice,
        )
        return hints.add_button(table, seat, shown, lang)

    def _remember_hand(self, table: Table, seat: int, interaction: discord.Interaction) -> None:
        # Only the token is needed to edit the message later, not the interaction (which
        # holds the pressed message, the member and the payload it came with).
        self._hands[table.id, seat] = _HandHandle(
            discord_internals.ResponseToken.of(interaction), self._now()
        )
        self._hand_lost.discard((table.id, seat))

    async def _answer_with_hand(
        self,
        interaction: discord.Interaction,
        table: Table,
        seat: int,
        notice: Text | None = None,
        pending: str = "",
    ) -> None:
        """Answer with the seat's hand: in place when the pressed button was on a private
        message (the hand itself), otherwise as a new private message — a hand must never
        replace a public message, even when a forged button names one."""
        lang = lang_of(interaction.locale)
        written = None if notice is None else f"⚠️ {notice(lang)}"
        shown = self._hand(table, seat, lang, notice=written, pending=pending)
        message = interaction.message
        private = message is not None and message.flags.ephemeral
        key = (table.id, seat)
        if notice is not None:
            self._refused[key] = (self._now(), notice)
        else:
            self._refused.pop(key, None)
        if private and self._hand_busy[key]:
            # This answer replaces the hand message while a refresh of it is in flight:
            # the refresh edits once more afterwards, so an older hand cannot land last.
            self._hand_dirty.add(key)
        try:
            with self._hand_in_flight(key):
                if interaction.response.is_done():  # acknowledged before its move's commit
                    await _edit_after_answer(interaction, shown, private=private)
                elif private:
                    await _edit_response(interaction, shown)
                else:
                    await _send_response(interaction, shown, ephemeral=True)
        except discord.HTTPException:
            # The answer never reached the member (Discord gave up on it, say): a change
            # that waited for it still reaches their hand, through the token kept from
            # before; otherwise the hand would show an old trick until the turn timer ran out.
            await self._catch_up(table, seat)
            raise
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

    async def start_table(
        self, interaction: discord.Interaction, game: str, options: TableOptions
    ) -> None:
        """``/<game> start``: open a table with a public lobby message."""
        if interaction.guild_id is None or interaction.channel_id is None:
            raise UserError("table.no_dms", game=Text(f"{game}.title"))
        missing = missing_permissions(interaction, pictures=options.pictures)
        if missing:
            names = TextList([Text(f"errors.permission_{name}") for name in missing])
            raise UserError("errors.bot_lacks_permissions", names=names)
        existing = self.tables.table_in(interaction.channel_id)
        if existing is not None:
            await self.courier.ensure_message(existing)
            raise UserError(
                "table.channel_has_table",
                game=Text(f"{existing.ui.name}.title"),
                url=self.jump_url(existing),
            )
        table = await self.tables.open_table(
            game=game,
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
        await self.tables.set_message(table, message_id, *self._token_of(interaction))

    def _channel_table(self, interaction: discord.Interaction, game: str) -> Table:
        """Return the table in the channel of ``game``'s command (the refusals name it)."""
        if interaction.guild_id is None or interaction.channel_id is None:
            raise UserError("table.no_dms", game=Text(f"{game}.title"))
        table = self.tables.table_in(interaction.channel_id)
        if table is None:
            raise UserError(
                "table.no_table_here",
                game=Text(f"{game}.title"),
                command=Text(f"{game}.command_name"),
                start=Text(f"{game}.command_start_name"),
            )
        # A game's commands act on its own tables only (a duplicate match's tables, which
        # have no commands of their own, are whist's: ``command_group``).
        if table.game != game and table.ui.command_group:
            raise UserError(
                "table.other_game_here",
                game=Text(f"{game}.title"),
                other=Text(f"{table.game}.title"),
                command=Text(f"{table.game}.command_name"),
            )
        return table

    async def show_hand_command(self, interaction: discord.Interaction, game: str) -> None:
        """``/<game> hand``: the member's hand, privately."""
        table = self._channel_table(interaction, game)
        await self.show_hand(interaction, table.id)

    async def status(self, interaction: discord.Interaction, game: str) -> None:
        """``/<game> status``: the table as everyone sees it, privately."""
        table = self._channel_table(interaction, game)
        await self.courier.ensure_message(table)
        lang = lang_of(interaction.locale)
        shown = render_table(table, lang)
        await interaction.response.send_message(
            content=t(lang, "table.status_link", url=self.jump_url(table)),
            embeds=shown.embeds,
            ephemeral=True,
        )

    async def cancel_command(self, interaction: discord.Interaction, game: str) -> None:
        """``/<game> cancel``: the host or a server manager closes the table."""
        table = self._channel_table(interaction, game)
        await self._cancel(interaction, table.id, from_table=False)

    async def leave_command(self, interaction: discord.Interaction, game: str) -> None:
        """``/<game> leave``: in the lobby the member's seat is freed; in play they are
        asked to confirm (:meth:`hand_over`)."""
        table = self._channel_table(interaction, game)
        lang = lang_of(interaction.locale)
        if table.status == "lobby":
            await self.tables.leave(table.id, interaction.user.id)
            await reply_private(interaction, t(lang, "table.left_lobby"))
            self.courier.refresh_table(table)
            return
        table, _seat = self._seat_playing(interaction, table.id)
        await _send_response(
            interaction, render.hand_over_prompt(table.id, lang=lang), ephemeral=True
        )

    async def hand_over(self, interaction: discord.Interaction, game_id: int) -> None:
        """“Leave the game”, under ``/<game> leave``'s question: a computer player takes
        the member's seat for the rest of the game; their hand message loses its controls
        and the channel is told."""
        table, seat = self._seat_playing(interaction, game_id)
        outcome = await self.tables.hand_over(table.id, interaction.user.id)
        log.info("game %s: the member in seat %s left; a computer plays it", table.id, seat)
        lang = lang_of(interaction.locale)
        done = Rendered(content=t(lang, "table.handed_over_reply"))
        message = interaction.message
        if message is not None and message.flags.ephemeral:
            await _edit_response(interaction, done)
        else:  # pressed somewhere else (forged): the answer is private all the same
            await reply_private(interaction, done.content or "")
        # Their hand message says so, without buttons (after any edit of it in flight).
        await self._refresh_hand(table, seat)
        await self.on_outcome(outcome)

    # --- buttons ---------------------------------------------------------------------

    async def button(self, interaction: discord.Interaction, pressed: ids.Parsed) -> None:
        """Any button of a table: a table-wide one or a private control."""
        table = self.tables.tables.get(pressed.table)  # type: ignore[union-attr]
        # Every real button is on a message in its table's channel: a button naming a
        # table of another server is forged (or it would let that server's managers cancel
        # the table, and its members take seats there).
        if table is not None and table.guild_id != interaction.guild_id:
            await reply_private(interaction, t(lang_of(interaction.locale), "errors.other_server"))
            return
        if isinstance(pressed, ids.Control):
            await self.control(interaction, pressed)
        elif isinstance(pressed, ids.Hint):
            await hints.answer(interaction, self.tables.table(pressed.table), pressed)
        elif not isinstance(pressed, ids.TableButton):
            raise UserError("errors.unknown_button")
        elif pressed.what == "hand":
            await self.show_hand(interaction, pressed.table)
        elif pressed.what == "refresh":
            await self.refresh(interaction, pressed.table)
        elif pressed.what == "pic":
            await self.show_hand_picture(interaction, pressed.table)
        elif pressed.what == "rematch":
            await self.rematch(interaction, pressed.table)
        elif pressed.what == "handover":
            await self.hand_over(interaction, pressed.table)
        else:
            await self.lobby(interaction, pressed.what, pressed.table)

    async def lobby(self, interaction: discord.Interaction, what: str, game_id: int) -> None:
        """A lobby button on the table message."""
        user = interaction.user
        if what == "join":
            table = await self.tables.join(game_id, user.id, user.display_name)
        elif what == "leave":
            table = await self.tables.leave(game_id, user.id)
        elif what == "addcpu":
            table = await self.tables.add_computer(game_id, user.id)
        elif what == "start":
            outcome = await self.tables.start(game_id, user.id)
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
            # A click on the lobby before /<game> start finished recording its message id:
            # the public message carrying this table's lobby buttons is the table message.
            await self.tables.set_message(table, message.id)
        if message is not None and message.id == table.message_id:
            with self.courier.answered_on_message(table):  # this answer shows it all
                await _edit_response(interaction, shown)
            await self._renew_token(table, interaction)
        else:
            await interaction.response.defer(ephemeral=True, thinking=False)
            self.courier.refresh_table(table)

    def _token_of(self, interaction: discord.Interaction) -> tuple[str | None, float | None]:
        """Return the token of an interaction whose original response is the table message
        (its answer posted it, or updated the message its button is on), and until when to
        edit the message through it: such edits do not count against Discord's global
        limit. Its 15 minutes count from the interaction's creation, a few seconds at most
        before its answer (Discord waits 3 s for one): the margin covers that."""
        if self.table_token_seconds <= 0:
            return None, None
        return interaction.token, self._now() + self.table_token_seconds

    async def _renew_token(self, table: Table, interaction: discord.Interaction) -> None:
        """A click on the table message was answered by updating it: the click's token
        edits it for the next minutes (discord.py's ``Interaction.original_response``: for
        a component, the message it is on)."""
        if table.status not in ("lobby", "playing") or self.table_token_seconds <= 0:
            return  # the message's last edit is made, or it is edited through its channel
        try:
            await self.tables.set_message_token(table, *self._token_of(interaction))
        except StoreWriteError:  # in use all the same; a restart edits through the channel
            pass
        except Exception:
            log.exception("game %s: the table message's new token not recorded", table.id)

    async def _cancel(
        self, interaction: discord.Interaction, game_id: int, *, from_table: bool
    ) -> None:
        can_manage = bool(
            interaction.permissions.manage_guild if interaction.permissions else False
        )
        table = await self.tables.cancel(game_id, interaction.user.id, can_manage=can_manage)
        log.info("game %s: cancelled", table.id)
        self._forget(table)
        await self._committed(Outcome(table, closed=True))
        if (
            from_table
            and interaction.message is not None
            and (interaction.message.id == table.message_id)
        ):
            await _edit_response(interaction, render_table(table, self.public_lang(table)))
        else:
            text = t(lang_of(interaction.locale), "table.cancelled_reply")
            await interaction.response.send_message(text, ephemeral=True)
            await self.courier.edit_now(table)

    # --- hands and moves -------------------------------------------------------------

    def _seat_playing(self, interaction: discord.Interaction, game_id: int) -> tuple[Table, int]:
        """Return the table and the presser's seat; raise unless they play there now."""
        table = self.tables.table(game_id)
        seat = table.seat_of(interaction.user.id)
        if seat is None:
            raise UserError("table.not_playing")
        if table.status == "lobby" or table.state is None:
            raise UserError("table.not_started")
        return table, seat

    async def show_hand(self, interaction: discord.Interaction, game_id: int) -> None:
        """“My hand”: a fresh private message with the member's hand."""
        table, seat = self._seat_playing(interaction, game_id)
        shown = self._hand(table, seat, lang_of(interaction.locale))
        older = self._hands.get((table.id, seat))
        try:
            with self._hand_in_flight((table.id, seat)):
                await _send_response(interaction, shown, ephemeral=True)
        except discord.HTTPException:
            await self._catch_up(table, seat)  # what changed meanwhile: see _answer_with_hand
            raise
        self._remember_hand(table, seat, interaction)
        if older is not None and self._now() - older.created <= TOKEN_LIFETIME:
            # Only the newest hand message is kept current: the older one says so and
            # loses its buttons, rather than offering a hand that no longer changes.
            self.courier.spawn(_mark_replaced(table, seat, older), f"replaced-{table.id}-{seat}")
        await self._catch_up(table, seat)

    async def rematch(self, interaction: discord.Interaction, game_id: int) -> None:
        """“Rematch” under a finished game's standings: the first player opens the new
        table (a new public message), the others say yes to it."""
        record = await self.tables.store.game(game_id)
        if record is None or record.guild_id != interaction.guild_id:
            raise UserError("table.not_this_server")
        if record.status != "finished":
            raise UserError("table.not_over")
        user = interaction.user
        table, outcome, created = await self.tables.rematch(record, user.id, user.display_name)
        if created:
            log.info("game %s: rematch of game %s opened", table.id, game_id)
            sent = await _send_response(interaction, render_table(table, self.public_lang(table)))
            message_id = sent.message_id
            if message_id is None:
                message_id = (await interaction.original_response()).id
            await self.tables.set_message(table, message_id, *self._token_of(interaction))
        else:
            key = "table.in_rematch_starts" if outcome is not None else "table.in_rematch"
            await reply_private(interaction, t(lang_of(interaction.locale), key))
            self.courier.refresh_table(table)
        if outcome is not None:
            log.info("game %s: started", table.id)
            await self.on_outcome(outcome)

    async def show_hand_picture(self, interaction: discord.Interaction, game_id: int) -> None:
        """“Picture of my hand”: the presser's own hand as a picture, privately."""
        table, seat = self._seat_playing(interaction, game_id)
        if not table.options.pictures:
            raise UserError("table.pictures_off")
        lang = lang_of(interaction.locale)
        picture = table.ui.hand_picture(player_view(table.state, seat), lang)
        if picture is None:
            raise UserError("table.no_cards")
        caption, draw = picture
        await interaction.response.defer(ephemeral=True, thinking=True)
        data = await pictures.render_off_loop(draw)
        await interaction.followup.send(
            suits.rich(caption),
            file=discord.File(io.BytesIO(data), filename=pictures.picture_filename("hand")),
            ephemeral=True,
        )

    async def refresh(self, interaction: discord.Interaction, game_id: int) -> None:
        """“↻ Refresh” on a private message: the presser's hand as it is now, in place."""
        table, seat = self._seat_playing(interaction, game_id)
        await self._answer_with_hand(interaction, table, seat)

    async def control(self, interaction: discord.Interaction, control: ids.Control) -> None:
        """A control in a private hand (a button, a select menu, a form's submission): the
        game says what it means — an action, which is applied and committed, the next step
        of a choice, shown in place, or a form to open. A control
        that means nothing is refused privately; one whose moment has passed shows the
        presser's hand as it is now, with the reason on top. A press made before the
        latest move still counts when its action still means what the member chose
        (``GameUI.keeps_meaning``) and is still legal."""
        table = self.tables.table(control.table)
        seat = control.seat
        try:
            table = self.tables.playing(control.table)
            turn = control.turn
            if control.legacy:
                # An id from before bot.ids counted decision points its game's own way.
                legacy, now = control.turn, table.ui.legacy_turn(table.state)
                turn = table.turn + (legacy > now) - (legacy < now)
            self.tables.check_seat(table, interaction.user.id, seat)
            if turn > table.turn:
                raise StaleError("errors.not_current_trick")
            stale = turn < table.turn
            payload = ids.with_values(control.payload, _values(interaction))
            try:
                meant = table.ui.control(player_view(table.state, seat), payload)
            except UserError:
                if stale:  # read against the hand as it is now, it means nothing: say why
                    raise self.tables.moved_on(table, turn, seat) from None
                raise
            if stale and isinstance(meant, (Step, Form)):
                raise self.tables.moved_on(table, turn, seat)
            if isinstance(meant, Step):
                await self._answer_with_hand(interaction, table, seat, pending=meant.pending)
                return
            if isinstance(meant, Form):
                custom_id = ids.control(table.id, seat, turn, meant.payload)
                modal = _modal(meant, custom_id, lang_of(interaction.locale))
                await interaction.response.send_modal(modal)
                return
            outcome = await self.tables.act(
                table.id,
                interaction.user.id,
                seat,
                turn,
                meant,
                on_time=functools.partial(on_time, interaction),
            )
        except StaleError as error:
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

    # --- after a change --------------------------------------------------------------

    async def on_outcome(self, outcome: Outcome, answered: tuple[int, ...] = ()) -> None:
        """Show a committed change: table message, other members' hands, scorings."""
        table = outcome.table
        if outcome.closed:  # an idle lobby expired: its message says so
            self._forget(table)
            await self.courier.post(table, "table")
            return
        for post in outcome.posts:
            if post == "end":
                log.info("game %s: finished", table.id)
            await self.courier.post(table, post)
        if outcome.finished:
            for seat in table.human_seats():
                if seat not in answered:  # “The game is over.”, no buttons
                    await self._refresh_hand(table, seat, outcome.timed_out.get(seat))
            self._forget(table)
            await self._committed(outcome)
            return
        self.courier.refresh_table(table)
        if outcome.turn_changed or outcome.timed_out or outcome.others_changed:
            for seat in table.human_seats():
                if seat not in answered:
                    coro = self._refresh_hand(table, seat, outcome.timed_out.get(seat))
                    self.courier.spawn(coro, f"hand-{table.id}-{seat}")
        await self._committed(outcome)

    async def _committed(self, outcome: Outcome) -> None:
        """Tell the event over several tables the table belongs to, if any, of a committed
        change (``bot.matches``: a duplicate match records a finished tray, moves its
        pairs, ends)."""
        matches = self.matches
        if matches is None:
            return
        try:
            await matches.table_changed(outcome)
        except Exception:
            log.exception("game %s: its match could not record the change", outcome.table.id)

    async def open_started(self, **arranged: Any) -> Table:
        """Open a table with every seat taken and start it (``Tables.open_started``'s
        arguments), post its table message in its channel and show the start."""
        if self.courier.is_gone(arranged["channel_id"]):
            raise UserError("errors.game_gone")
        outcome = await self.tables.open_started(**arranged)
        table = outcome.table
        log.info("game %s: opened and started in channel %s", table.id, table.channel_id)
        fate = await self.courier.post_table_message(table, fresh=True)
        if fate == CHANNEL_GONE:  # deleted meanwhile: the table is abandoned at once
            await self.channel_gone(table.channel_id)
            raise UserError("errors.game_gone")
        await self.on_outcome(outcome)
        return table

    # --- channels and servers that go away ---------------------------------------------

    async def close_table(self, game_id: int) -> None:
        """Close a live table without a result (its event's deadline), as a server
        manager would, and show it closed."""
        table = self.tables.tables.get(game_id)
        if table is None:
            return
        try:
            await self.tables.cancel(game_id, table.host_id, can_manage=True)
        except UserError:
            return
        self._forget(table)
        await self.courier.edit_now(table)

    # --- channels and servers that go away ---------------------------------------------

    async def channel_gone(self, channel_id: int) -> None:
        """The channel (or thread) was deleted: its table is abandoned, and the posts
        still owed to it are struck off (:meth:`bot.delivery.Courier.channel_gone`)."""
        await self.courier.channel_gone(channel_id)

    def guild_left(self, guild_id: int) -> None:
        """The bot was removed from the server: its tables wait, then are abandoned
        unless it is back (:meth:`bot.delivery.Courier.guild_left`)."""
        self.courier.guild_left(guild_id)

    def guild_back(self, guild_id: int) -> None:
        """The server is there for the bot again: what it owes there is sent now."""
        self.courier.guild_back(guild_id)

    async def _abandon(self, table: Table) -> None:
        """Close a live table whose channel or server is gone (no stand-ins, no scores,
        no ratings; ``/history`` lists a started one as abandoned); its event hears of it."""
        try:
            abandoned = await self.tables.abandon(table)
        except Exception:  # a database that refuses writes: the store has said so
            log.warning("game %s: could not be abandoned now; it stays live", table.id)
            return
        if abandoned:
            self._forget(table)
            await self._committed(Outcome(table, closed=True))

    def start_delivering_owed(self) -> None:
        """Start :meth:`bot.delivery.Courier.deliver_owed` in the background (it must not
        hold up the start). Called once the live tables are loaded: their members' hand
        messages were sent before this start and cannot be edited by it."""
        for table in self.tables.tables.values():
            if table.status == "playing":
                self._hand_lost.update((table.id, s) for s in table.human_seats())
        self.courier.spawn(self.courier.deliver_owed(), "deliver-owed")

    async def _refresh_hand(
        self, table: Table, seat: int, stood_in: Sequence[object] | None = None
    ) -> None:
        """Edit the seat's hand message (through the member's latest interaction token) to
        show the hand as it is — with what a computer did for the member, ``stood_in``,
        when their time ran out. While another edit of it is in flight, only note that it
        is due: the edit in flight makes it when it is done."""
        key = (table.id, seat)
        if stood_in:
            self._stood_in[key] = list(stood_in)
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
                    self._lose_hand(table, key)
                    return
                lang = lang_of(handle.token.locale)
                done = self._stood_in.pop(key, None)
                notice = None
                if done:
                    notice = "\n".join(table.ui.stand_in(action, lang) for action in done)
                refused = self._refused.get(key)
                if refused is not None and self._now() - refused[0] > _REFUSAL_KEPT:
                    self._refused.pop(key, None)  # old news by now
                elif refused is not None:
                    shown_refusal = f"⚠️ {refused[1](lang)}"
                    notice = shown_refusal if notice is None else f"{shown_refusal}\n{notice}"
                record = table.seats.get(seat)
                if record is None or record.is_computer:  # the member has left the game
                    shown = Rendered(content=t(lang, "table.handed_over_hand"))
                else:
                    shown = self._hand(table, seat, lang, notice=notice)
                try:
                    await discord_internals.edit_original(
                        handle.token,
                        content=shown.content,
                        embeds=shown.embeds,
                        view=shown.buttons(),
                    )
                except discord.HTTPException as error:
                    log.debug(
                        "game %s: hand message of seat %s not updated: %s", table.id, seat, error
                    )
                    if self._hands.get(key) is handle:
                        self._hands.pop(key, None)
                        self._lose_hand(table, key)
                if key not in self._hand_dirty:
                    return

    def _lose_hand(self, table: Table, key: tuple[int, int]) -> None:
        """The seat's hand message can no longer be edited: if it is the seat's turn now or
        later, the table message says so (it may say "Waiting for …" still)."""
        self._hand_lost.add(key)
        if table.status == "playing" and key[1] in table.humans_to_act():
            self.courier.refresh_table(table)

    def _table_shown(self, table: Table, lang: Lang) -> Rendered:
        """Return the table message as :func:`render_table` has it, naming above it the
        members whose turn it is and whose hand message can no longer be edited (sent
        before a restart): they learn it there, and to press **My hand**."""
        shown = render_table(table, lang)
        if table.status != "playing":
            return shown
        lost = [s for s in table.humans_to_act() if (table.id, s) in self._hand_lost]
        if not lost:
            return shown
        infos = seat_infos(table)
        names = ", ".join(f"**{infos[s].name}**" for s in lost)
        note = t(lang, "table.your_turn_press_hand", names=names)
        content = note if not shown.content else f"{note}\n{shown.content}"
        return Rendered(content=content, embeds=shown.embeds, view=shown.view)

    def _forget(self, table: Table) -> None:
        """Drop what is kept for a table that has ended."""
        self.courier.forget(table)
        for seat in table.seats:
            self._hands.pop((table.id, seat), None)
            self._hand_dirty.discard((table.id, seat))
            self._stood_in.pop((table.id, seat), None)
            self._refused.pop((table.id, seat), None)
            self._hand_lost.discard((table.id, seat))

    async def safely(self, interaction: discord.Interaction, coro: object) -> None:
        """Run a handler; any failure is answered privately through the error funnel."""
        try:
            await coro  # type: ignore[misc]
        except Exception as error:  # the funnel answers every failure
            await answer_error(interaction, error)

    async def close(self) -> None:
        """Stop the hand updates in progress (the scheduler stops the table edits)."""
        await self.courier.close()
