"""The bot's one seam into discord.py's private names: no other module of the bot uses one.

discord.py is pinned below its next minor version (``pyproject.toml``), and
``tests/bot/test_discord_internals.py`` checks every name used here against the installed
discord.py, failing with the version and the name that changed: run it before lifting the
pin, and mend this module (only this one) if it fails. What each part uses, and why:

**Lean message writes** (``interaction._state``, ``interaction._session``,
``InteractionResponse._response_type``, ``client._connection``, ``discord.http.Route`` and
``handle_message_parameters``, ``discord.webhook.async_``'s ``async_context`` and
``interaction_message_response_params``, and ``HTTPClient.__session``, the session discord.py
gives every interaction). A move is answered by editing the presser's hand in place (an
interaction callback), or, in a flood of clicks, acknowledged first (a deferred update) and
shown through the click's token; it changes other members' hands (edits through their
interaction tokens) and, a moment later, the table message. discord.py answers each of
those calls with the whole message rebuilt as objects (a ``Message`` with its components,
author, attachments, and for a callback an ``InteractionCallbackResponse``), which the bot
never looks at: it keeps what it sent (:mod:`bot.controller`). At 1,000 tables that parsing
was about a tenth of the bot's CPU per click (``bench/load.py --py-spy``). These functions
send exactly what discord.py's ``InteractionResponse.edit_message``,
``InteractionResponse.defer``, ``Interaction.edit_original_response`` and
``PartialMessage.edit`` send, through discord.py's own request machinery (rate limits,
retries, its ``HTTPException`` family on errors), and return nothing. The interaction
callbacks go without ``with_response``: Discord then answers 204 No Content (Discord API:
"Create Interaction Response").

**The pressed message, stripped** (``client._connection.parsers``): see
:func:`intercept_interactions`.

**A handled interaction let go** (``Interaction._cs_response``, the slot where discord.py
caches ``interaction.response``): see :func:`release`.

**The HTTP session's connector, the endpoints, the voice warnings**
(``client.http.connector``, ``Route.BASE``, ``DiscordWebSocket.DEFAULT_GATEWAY``,
``VoiceClient.warn_nacl`` and ``warn_dave``): discord.py takes a connector only when the
client is built, which is before the bot's event loop runs, and keeps the API's and
gateway's addresses and whether to warn of missing voice libraries as class attributes
with no setting for them.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import aiohttp
import discord
import yarl
from discord.gateway import DiscordWebSocket
from discord.http import Route, handle_message_parameters
from discord.webhook.async_ import async_context, interaction_message_response_params

__all__ = [
    "ResponseToken",
    "acknowledge",
    "edit_channel_message",
    "edit_original",
    "edit_original_of",
    "intercept_interactions",
    "point_at",
    "quiet_voice_warnings",
    "release",
    "update_in_place",
    "use_connector",
]


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
    kind = discord.InteractionResponseType.message_update
    params = interaction_message_response_params(
        type=kind.value,
        content=content,
        embeds=embeds,
        view=view,
        previous_allowed_mentions=interaction._state.allowed_mentions,
    )
    await _callback(interaction, kind, params.payload)


async def acknowledge(interaction: discord.Interaction) -> None:
    """Acknowledge a pressed component (or a form submitted from one) without changing its
    message yet (callback type 6, ``DEFERRED_UPDATE_MESSAGE``), as
    ``interaction.response.defer()`` does; its answer follows through its token.
    discord.py asks Discord for the callback's resource and builds an
    ``InteractionCallbackResponse`` of it, which the bot never reads: this asks for none
    (Discord then answers 204 No Content).

    Raises ``discord.InteractionResponded`` when the interaction was answered already,
    and discord.py's ``HTTPException`` family when Discord refuses (it gave up on it)."""
    kind = discord.InteractionResponseType.deferred_message_update
    await _callback(interaction, kind, {"type": kind.value})


async def _callback(
    interaction: discord.Interaction,
    kind: discord.InteractionResponseType,
    payload: dict[str, Any] | None,
) -> None:
    """Send the interaction's one callback (without ``with_response``) and mark it
    answered with ``kind``; refuse a second one before anything is sent."""
    response = interaction.response
    if response.is_done():
        raise discord.InteractionResponded(interaction)
    route = Route(
        "POST",
        "/interactions/{webhook_id}/{webhook_token}/callback",
        webhook_id=interaction.id,
        webhook_token=interaction.token,
    )
    http = interaction._state.http
    await async_context.get().request(
        route,
        session=interaction._session,
        proxy=http.proxy,
        proxy_auth=http.proxy_auth,
        payload=payload,
    )
    response._response_type = kind


@dataclass(frozen=True, slots=True)
class ResponseToken:
    """What editing an interaction's original response later takes (a member's hand, for
    the 15 minutes of its token): kept instead of the interaction, which holds the pressed
    message, the member and the payload it came with. The token is a credential: it is
    left out of the repr, so that no log line ever shows it."""

    application_id: int
    token: str = field(repr=False)
    locale: discord.Locale
    _session: Any = field(repr=False)  # the client's aiohttp session, as the interaction had it
    _state: Any = field(repr=False)  # discord.py's connection state (allowed mentions, HTTP)

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
    attachments: Sequence[discord.File] | None = None,
) -> None:
    """Edit an interaction's original response (a member's hand), as
    ``interaction.edit_original_response`` does, within the token's 15 minutes;
    ``attachments`` replaces its files (``[]``: none), None leaves them."""
    await _edit_original(
        target._state,
        target._session,
        target.application_id,
        target.token,
        content=content,
        embeds=embeds,
        view=view,
        attachments=attachments,
    )


async def edit_original_of(
    client: discord.Client,
    token: str,
    *,
    content: str | None,
    embeds: Sequence[discord.Embed],
    view: discord.ui.View,
    attachments: Sequence[discord.File] | None = None,
) -> None:
    """Edit the original response of the client's interaction whose token is ``token`` (a
    table message: the answer to ``/<game> start``, or the message a lobby button was on),
    as ``interaction.edit_original_response`` does, within the token's 15 minutes; only the
    token is kept (in the store too, so a restarted bot goes on with it), and the client's
    HTTP session is the one the interaction had (``HTTPClient.__session``, which discord.py
    gives every interaction as its ``_session``). Requests made with an interaction's token
    do not count against Discord's global limit, unlike ``PATCH /channels/…/messages/…``.

    Raises discord.py's ``HTTPException`` family when Discord refuses (an expired token:
    401, code 50027), and ``RuntimeError`` before the client has logged in."""
    state = client._connection
    application_id = client.application_id
    session = getattr(state.http, "_HTTPClient__session", discord.utils.MISSING)
    if application_id is None or session is discord.utils.MISSING:
        raise RuntimeError("the client has not logged in: no application id or session yet")
    await _edit_original(
        state,
        session,
        application_id,
        token,
        content=content,
        embeds=embeds,
        view=view,
        attachments=attachments,
    )


async def _edit_original(
    state: Any,
    session: Any,
    application_id: int,
    token: str,
    *,
    content: str | None,
    embeds: Sequence[discord.Embed],
    view: discord.ui.View,
    attachments: Sequence[discord.File] | None,
) -> None:
    with handle_message_parameters(
        content=content,
        embeds=embeds,
        view=view,
        attachments=discord.utils.MISSING if attachments is None else attachments,
        previous_allowed_mentions=state.allowed_mentions,
    ) as params:
        http = state.http
        await async_context.get().edit_original_interaction_response(
            application_id,
            token,
            session=session,
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


def intercept_interactions(client: discord.Client, before: Callable[[dict[str, Any]], Any]) -> None:
    """Have ``before(data)`` see (and change) each INTERACTION_CREATE payload as the
    gateway hands it over, before discord.py parses it.

    A click arrives with the whole message its button is on (a hand: a dozen buttons and
    more), which discord.py would rebuild into objects for every click: about 5 % of the
    bot's loop time in ``bench/load.py``'s profile. The bot strips it first (and notes the
    click's arrival: :class:`bot.app.Bot`'s ``_stamp_interactions``). discord.py offers no
    public hook that runs before its parser: ``on_socket_raw_receive`` sees the payload as
    text, to read only."""
    parsers = client._connection.parsers
    parse = parsers["INTERACTION_CREATE"]

    def intercepted(data: dict[str, Any]) -> None:
        before(data)
        parse(data)

    parsers["INTERACTION_CREATE"] = intercepted


def release(interaction: discord.Interaction) -> None:
    """Let a handled interaction go: it and its response object point at each other, so
    it, the pressed message and that message's components would wait for the cycle
    collector (tens of objects a click; see :class:`bot.game.SentComponents`). Dropping
    the response breaks the cycle, and reference counting frees them at once: with the
    components sent as their payload, 284,000 cyclic objects in 3,700 clicks became 5,000,
    and at 1,000 tables the click p99 fell from 391 to 42 ms (``bench/load.py``)."""
    with contextlib.suppress(AttributeError):
        delattr(interaction, "_cs_response")


def use_connector(client: discord.Client, make: Callable[[], aiohttp.BaseConnector]) -> None:
    """Give the client's HTTP session the connector ``make()`` returns, unless it has one:
    call it in ``login``, on the running loop, before discord.py makes the session."""
    if client.http.connector is discord.utils.MISSING:
        client.http.connector = make()


def point_at(api_base_url: str, gateway_url: str) -> None:
    """Point discord.py at an HTTP API and a gateway for the whole process."""
    Route.BASE = api_base_url
    DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway_url)


def quiet_voice_warnings() -> None:
    """Silence discord.py's warnings that its voice libraries (PyNaCl, davey) are missing:
    the bot joins no voice channel, and they would only alarm the admin reading the start."""
    discord.VoiceClient.warn_nacl = False
    discord.VoiceClient.warn_dave = False
