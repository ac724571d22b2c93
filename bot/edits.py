"""The message writes every click makes, without reading Discord's echo of the message.

A move is answered by editing the presser's hand in place (an interaction callback), and
it changes other members' hands (edits through their interaction tokens) and, a moment
later, the table message. discord.py answers each of those calls with the whole message
rebuilt as objects (a ``Message`` with its components, author, attachments, and for the
callback an ``InteractionCallbackResponse``), which the bot never looks at: it keeps what
it sent (:mod:`bot.controller`). At 1,000 tables that parsing was about a tenth of the
bot's CPU per click (``bench/load.py --py-spy``).

These functions send exactly what discord.py's ``InteractionResponse.edit_message``,
``Interaction.edit_original_response`` and ``PartialMessage.edit`` send, through
discord.py's own request machinery (rate limits, retries, its ``HTTPException`` family
on errors), and return nothing. The interaction callback goes without ``with_response``:
Discord then answers 204 No Content (Discord API: "Create Interaction Response").
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import discord
from discord.http import Route, handle_message_parameters
from discord.webhook.async_ import async_context, interaction_message_response_params

__all__ = ["ResponseToken", "edit_channel_message", "edit_original", "update_in_place"]


async def update_in_place(
    interaction: discord.Interaction,
    *,
    content: str | None,
    embeds: Sequence[discord.Embed],
    view: discord.ui.View,
) -> None:
    """Answer a pressed component by editing the message it is on (callback type 7,
    ``UPDATE_MESSAGE``), as ``interaction.response.edit_message`` does.

    Raises ``discord.InteractionResponded`` when the interaction was answered already,
    and discord.py's ``HTTPException`` family when Discord refuses."""
    response = interaction.response
    if response.is_done():
        raise discord.InteractionResponded(interaction)
    state = interaction._state
    params = interaction_message_response_params(
        type=discord.InteractionResponseType.message_update.value,
        content=content,
        embeds=embeds,
        view=view,
        previous_allowed_mentions=state.allowed_mentions,
    )
    route = Route(
        "POST",
        "/interactions/{webhook_id}/{webhook_token}/callback",
        webhook_id=interaction.id,
        webhook_token=interaction.token,
    )
    http = state.http
    await async_context.get().request(
        route,
        session=interaction._session,
        proxy=http.proxy,
        proxy_auth=http.proxy_auth,
        payload=params.payload,
    )
    response._response_type = discord.InteractionResponseType.message_update


@dataclass(frozen=True, slots=True)
class ResponseToken:
    """What editing an interaction's original response later takes (a member's hand, for
    the 15 minutes of its token): kept instead of the interaction, which holds the pressed
    message, the member and the payload it came with."""

    application_id: int
    token: str
    locale: discord.Locale
    _session: Any  # the client's aiohttp session, as the interaction had it
    _state: Any  # discord.py's connection state (allowed mentions, the HTTP client)

    @classmethod
    def of(cls, interaction: discord.Interaction) -> ResponseToken:
        return cls(
            interaction.application_id,
            interaction.token,
            interaction.locale,
            interaction._session,
            interaction._state,
        )


async def edit_original(
    target: ResponseToken,
    *,
    content: str | None,
    embeds: Sequence[discord.Embed],
    view: discord.ui.View,
) -> None:
    """Edit an interaction's original response (a member's hand), as
    ``interaction.edit_original_response`` does, within the token's 15 minutes."""
    state = target._state
    with handle_message_parameters(
        content=content,
        embeds=embeds,
        view=view,
        previous_allowed_mentions=state.allowed_mentions,
    ) as params:
        http = state.http
        await async_context.get().edit_original_interaction_response(
            target.application_id,
            target.token,
            session=target._session,
            proxy=http.proxy,
            proxy_auth=http.proxy_auth,
            payload=params.payload,
            multipart=params.multipart,
            files=params.files,
        )


async def edit_channel_message(
    client: discord.Client,
    channel_id: int,
    message_id: int,
    *,
    content: str | None,
    embeds: Sequence[discord.Embed],
    view: discord.ui.View,
    attachments: Sequence[discord.File] | None = None,
) -> None:
    """Edit one of the bot's channel messages (a table message), as
    ``PartialMessage.edit`` does; ``attachments`` replaces its files (``[]``: none),
    None leaves them."""
    state = client._connection
    with handle_message_parameters(
        content=content,
        embeds=embeds,
        view=view,
        attachments=discord.utils.MISSING if attachments is None else attachments,
        previous_allowed_mentions=state.allowed_mentions,
    ) as params:
        await state.http.edit_message(channel_id, message_id, params=params)
