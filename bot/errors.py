"""The one funnel that answers every failed interaction privately.

Discord shows "This interaction failed" when an interaction gets no answer within 3 s, and
discord.py only logs exceptions raised inside component callbacks. So every callback and
command sends its errors here: a :class:`~bot.tables.UserError` or engine error becomes
its own sentence, in the member's language (``interaction.locale``); anything unexpected
becomes a short apology with a reference that is also written to the log with the
traceback. It copes with an interaction that was already
answered (it follows up instead) or has expired (it only logs).
"""

from __future__ import annotations

import logging
import secrets

import discord
from discord import app_commands

from bot import discord_internals, suits
from bot.i18n import Lang, Text, lang_of, t
from bot.lateness import Lateness
from bot.store import StoreWriteError
from bot.tables import TooLateError, UserError
from engine.errors import (
    EngineError,
    GameOverError,
    IllegalActionError,
    InvalidActionError,
    NotYourTurnError,
    OptionsError,
    ParseError,
)

__all__ = [
    "ENGINE_ERROR_KEYS",
    "answer_error",
    "class_refusal",
    "on_time",
    "reply_private",
    "too_late",
]

log = logging.getLogger(__name__)


# The sentence for each engine error class, the first class the error is an instance of
# (a game's bot package says more where the error's reason allows: GameUI.refusal).
ENGINE_ERROR_KEYS: tuple[tuple[type[EngineError], str], ...] = (
    (ParseError, "errors.engine_parse"),
    (OptionsError, "errors.engine_options"),
    (InvalidActionError, "errors.engine_invalid"),
    (GameOverError, "errors.engine_game_over"),
    (NotYourTurnError, "errors.engine_not_your_turn"),
    (IllegalActionError, "errors.engine_illegal"),
    (EngineError, "errors.engine_refused"),
)


def class_refusal(error: BaseException) -> Text:
    """Return the sentence for an engine error by its class alone."""
    if isinstance(error, ParseError):
        return Text("errors.engine_parse", token=error.token)
    return Text(next(key for kind, key in ENGINE_ERROR_KEYS if isinstance(error, kind)))


_UNKNOWN_INTERACTION = 10062  # Discord's JSON error code for an expired interaction


def too_late(interaction: discord.Interaction) -> bool:
    """Return whether ``interaction`` is too old to handle (see the setting
    ``late_interaction_seconds`` and :mod:`bot.lateness`): Discord has told the member it
    failed, or will before an answer could reach it, so it must have no effect."""
    lateness: Lateness | None = getattr(interaction.client, "lateness", None)
    return lateness is not None and lateness.too_late(interaction.id)


ANSWER_MARGIN = 0.5
"""Seconds an answer may still take to reach Discord once sent."""
ANSWER_FIRST_AFTER = 1.0
"""Seconds after which a press is answered (acknowledged) before its move is committed:
under load, the answer of a committed move may wait longer than any margin (for the event
loop, a connection), and a move whose answer never arrives must not stand."""
ANSWER_FIRST_BUSY = 100
"""Interactions in flight from which every press is answered before its commit: as many as
the bot has HTTP connections (``bot.app.HTTP_CONNECTIONS``): beyond, the answers queue for
a connection, and a young press's answer may come too late (a flood of clicks)."""


async def on_time(interaction: discord.Interaction) -> bool:
    """Return whether a move pressed with ``interaction`` may be committed now: it is
    answered already, or young enough to be answered after the commit while the bot is
    not flooded; otherwise (older than :data:`ANSWER_FIRST_AFTER`, or
    :data:`ANSWER_FIRST_BUSY` interactions in flight) it is acknowledged first (a deferred
    update; its hand is edited through its token afterwards), and one too old for even
    that is not applied.
    Its age counts every wait so far: for its table's lock, a connection, the loop."""
    lateness: Lateness | None = getattr(interaction.client, "lateness", None)
    if lateness is None or not lateness.limit or interaction.response.is_done():
        return True
    if lateness.too_late(interaction.id, ANSWER_MARGIN):
        return False
    if lateness.age(interaction.id) <= ANSWER_FIRST_AFTER and (
        lateness.in_flight < ANSWER_FIRST_BUSY
    ):
        return True
    try:
        await discord_internals.acknowledge(interaction)
    except discord.HTTPException as error:  # Discord gave up on it meanwhile
        log.warning("interaction %s not acknowledged in time: %s", interaction.id, error)
        return False
    return True


async def reply_private(interaction: discord.Interaction, text: str) -> None:
    """Answer ``interaction`` with a private message, whether or not it was answered yet."""
    text = suits.rich(text)
    try:
        if interaction.response.is_done():
            await interaction.followup.send(text, ephemeral=True)
        else:
            await interaction.response.send_message(text, ephemeral=True)
    except discord.HTTPException as error:
        log.warning("could not answer interaction %s: %s", interaction.id, error)


async def show_page(
    interaction: discord.Interaction,
    embeds: list[discord.Embed],
    view: discord.ui.View,
    *,
    edit: bool,
) -> None:
    """Show one page of a private reply (a leaderboard, a replay, a review): in place of
    the member's own private message when its button was pressed (``edit``), else as a new
    private message, so that a button forged onto a public message (the table) never
    replaces that message."""
    message = interaction.message
    if edit and message is not None and message.flags.ephemeral:
        await interaction.response.edit_message(content=None, embeds=embeds, view=view)
    else:
        await interaction.response.send_message(
            embeds=embeds,
            view=view,
            ephemeral=True,
            allowed_mentions=discord.AllowedMentions.none(),
        )


def _unwrap(error: BaseException) -> BaseException:
    while isinstance(error, (app_commands.CommandInvokeError, app_commands.TransformerError)):
        original = getattr(error, "original", None) or error.__cause__
        if original is None:
            break
        error = original
    return error


async def answer_error(interaction: discord.Interaction, error: BaseException) -> None:
    """Answer a failed interaction privately, in the member's language, and, for
    unexpected errors, log a reference."""
    error = _unwrap(error)
    lang = lang_of(interaction.locale)
    if isinstance(error, TooLateError):
        return  # nothing was done, and no answer could reach the member in time
    if isinstance(error, discord.NotFound) and error.code == _UNKNOWN_INTERACTION:
        # Too late: Discord drops an interaction not answered within 3 s and has shown
        # "This interaction failed". Its token is gone too, so there is nobody to tell.
        log.warning("interaction %s expired before it was answered", interaction.id)
        return
    try:
        text = _sentence(error, lang, interaction.id)
    except Exception as failure:  # a refusal the catalogue cannot write: a bug, shown as one
        log.error("interaction %s: no sentence for %r: %r", interaction.id, error, failure)
        text = None
    if text is None:
        reference = secrets.token_hex(4)
        log.error(
            "unexpected error (reference %s) in interaction %s",
            reference,
            interaction.id,
            exc_info=(type(error), error, error.__traceback__),
        )
        text = t(lang, "errors.unexpected", reference=reference)
    await reply_private(interaction, text)


def _sentence(error: BaseException, lang: Lang, interaction_id: int) -> str | None:
    """Return the answer to a known kind of failure in ``lang``, or ``None`` for one that
    is unexpected."""
    if isinstance(error, UserError):
        return error.text(lang)
    if isinstance(error, StoreWriteError):  # the store logs the episode once
        return t(lang, "errors.store_unwritable")
    if isinstance(error, EngineError):
        return class_refusal(error)(lang)
    if isinstance(error, app_commands.NoPrivateMessage):
        return t(lang, "errors.no_dms")
    if isinstance(error, app_commands.MissingPermissions):
        return t(lang, "errors.missing_permission")
    if isinstance(error, app_commands.CheckFailure):
        return t(lang, "errors.check_failed")
    if isinstance(
        error,
        (
            app_commands.CommandNotFound,
            app_commands.CommandSignatureMismatch,
            app_commands.TransformerError,  # left unwrapped: a value outside the choices
        ),
    ):
        # The command or its options are not the ones this bot registered: an outdated
        # command list in the member's app, or a forged payload. Nothing ran.
        log.warning("interaction %s: %s", interaction_id, error)
        return t(lang, "errors.unknown_command")
    return None
