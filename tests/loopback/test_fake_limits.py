"""The loopback Discord's global limit (``tests.loopback.limits``), through its HTTP API:
50 requests a second per bot token over every connection, interaction-token requests not
counted, the global 429 as Discord sends it, invalid requests counted per 10 minutes; and an
interaction token's lifetime (15 minutes, or shorter as a bench asks), within which it
edits its original response (a public table message, a picture too) and after which Discord
answers 401. The clocks are moved by hand: nothing waits on the wall clock."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Mapping
from typing import Any

import aiohttp
import jsonschema
import pytest

from tests.discord_api_rules import SPEC
from tests.loopback.fake_discord import (
    CHANNEL_MESSAGE,
    DEFERRED_UPDATE,
    EPHEMERAL,
    TOKEN_LIFETIME,
    UPDATE_MESSAGE,
    FakeDiscord,
    ManualClock,
)

BUTTON = {"type": 2, "style": 1, "label": "Press", "custom_id": "press"}


class Http:
    """One connection to the server, as one process of the bot holds one."""

    def __init__(self, server: FakeDiscord, session: aiohttp.ClientSession) -> None:
        self.server = server
        self.session = session

    async def __call__(
        self, method: str, path: str, body: Any = None, *, token: str | None = None
    ) -> tuple[int, Any, Mapping[str, str]]:
        token = self.server.token if token is None else token
        kwargs: dict[str, Any] = {"headers": {"Authorization": f"Bot {token}"}}
        if body is not None:
            kwargs["json"] = body
        async with self.session.request(method, self.server.api_base_url + path, **kwargs) as r:
            text = await r.text()
            return r.status, json.loads(text) if text else None, r.headers


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock(1000.0)


@pytest.fixture
async def server(clock: ManualClock) -> AsyncIterator[FakeDiscord]:
    fake = FakeDiscord(limit_clock=clock, rate_limit=(1000, 1.0))
    await fake.start()
    try:
        yield fake
    finally:
        await fake.close()


@pytest.fixture
async def http(server: FakeDiscord) -> AsyncIterator[Http]:
    async with aiohttp.ClientSession() as session:
        yield Http(server, session)


def posts(server: FakeDiscord) -> str:
    return f"/channels/{channel_of(server)}/messages"


def channel_of(server: FakeDiscord) -> int:
    """Return the text channel of a new server."""
    return next(iter(server.create_guild("Limits").channels))


async def button_message(
    server: FakeDiscord, http: Http, clock: ManualClock
) -> tuple[int, int, int]:
    """Post a message with a button in a new server (then let its second pass); return its
    channel, its id and a member who can press it."""
    guild = server.create_guild("Buttons")
    channel = next(iter(guild.channels))
    member = server.add_member(guild, "alice").user.id
    body = {"content": "press", "components": [{"type": 1, "components": [BUTTON]}]}
    status, posted, _ = await http("POST", f"/channels/{channel}/messages", body)
    assert status == 200
    clock.advance(1.0)
    return channel, int(posted["id"]), member


async def test_the_51st_request_in_a_second_gets_the_global_429(
    server: FakeDiscord, http: Http, clock: ManualClock
) -> None:
    path = posts(server)
    for n in range(50):
        status, _, _ = await http("POST", path, {"content": f"post {n}"})
        assert status == 200
        clock.advance(0.01)  # 50 requests within half a second
    status, body, headers = await http("POST", path, {"content": "one too many"})
    assert status == 429
    assert body["global"] is True and body["retry_after"] == pytest.approx(0.5)
    assert headers["X-RateLimit-Global"] == "true"
    assert headers["X-RateLimit-Scope"] == "global"
    assert headers["Retry-After"] == "1"
    assert headers["Via"], "discord.py retries only a 429 that came through Discord's proxy"
    spec = json.loads(SPEC.read_text(encoding="utf-8"))
    schema = {"$ref": "#/components/schemas/RatelimitedResponse", **spec}
    jsonschema.validate(body, schema)  # Discord's own shape of a rate-limit answer
    assert [m.content for m in server.messages.values()].count("one too many") == 0
    assert (server.limits.global_429s, server.limits.peak_per_second) == (1, 51)
    # Once the first request is a second old, there is room for one more.
    clock.advance(0.499)
    assert (await http("POST", path, {"content": "not yet"}))[0] == 429
    clock.advance(0.002)
    assert (await http("POST", path, {"content": "room again"}))[0] == 200
    assert (await http("POST", path, {"content": "full again"}))[0] == 429


async def test_a_new_second_has_room_for_50_again(
    server: FakeDiscord, http: Http, clock: ManualClock
) -> None:
    for _ in range(3):
        statuses = [(await http("GET", "/users/@me"))[0] for _ in range(50)]
        assert statuses == [200] * 50
        clock.advance(1.0)
    assert server.limits.global_429s == 0
    assert server.limits.peak_per_second == 50


async def test_interaction_callbacks_and_their_webhooks_are_not_counted(
    server: FakeDiscord, http: Http, clock: ManualClock
) -> None:
    channel, message_id, member = await button_message(server, http, clock)
    for _ in range(50):
        assert (await http("GET", "/users/@me"))[0] == 200
    # The bot's own budget is spent; interactions are answered all the same.
    for _ in range(3):
        made = server.component_interaction(channel, member, message_id, "press")
        callback = f"/interactions/{made.id}/{made.token}/callback"
        answer = {"type": CHANNEL_MESSAGE, "data": {"content": "yours", "flags": EPHEMERAL}}
        assert (await http("POST", callback, answer))[0] == 204
        webhook = f"/webhooks/{server.application_id}/{made.token}"
        assert (await http("PATCH", webhook + "/messages/@original", {"content": "edit"}))[0] == 200
        assert (await http("POST", webhook, {"content": "follow-up"}))[0] == 204
    assert (await http("GET", "/users/@me"))[0] == 429
    assert server.limits.counted == 52 and server.limits.peak_per_second == 51


async def test_two_connections_with_the_same_token_share_the_limit(
    server: FakeDiscord, clock: ManualClock
) -> None:
    path = posts(server)
    async with aiohttp.ClientSession() as one, aiohttp.ClientSession() as two:
        slices = [Http(server, one), Http(server, two)]
        statuses = [(await slices[n % 2]("POST", path, {"content": str(n)}))[0] for n in range(52)]
    assert statuses == [200] * 50 + [429, 429]
    assert server.limits.global_429s == 2


async def test_invalid_requests_are_counted_over_10_minutes(
    server: FakeDiscord, http: Http, clock: ManualClock
) -> None:
    limits = server.limits
    channel, message_id, member = await button_message(server, http, clock)
    assert (await http("GET", "/users/@me", token="not.the.token"))[0] == 401
    server.inject_429(1.0)
    assert (await http("GET", "/users/@me"))[0] == 429  # a route's 429 counts too
    server.inject_429(0.0)
    for _ in range(50):
        await http("GET", "/users/@me")
    assert (await http("GET", "/users/@me"))[0] == 429  # the global one
    made = server.component_interaction(channel, member, message_id, "press")
    late = f"/interactions/{made.id}/{made.token}/callback"
    clock.advance(1.0)
    # Not found (404) and bad bodies (400) are failures, but not what Discord counts.
    assert (await http("GET", "/channels/1/messages/2"))[0] == 404
    assert (await http("POST", late, {"type": DEFERRED_UPDATE}))[0] == 204
    assert (await http("POST", late, {"type": DEFERRED_UPDATE}))[0] == 400
    assert (limits.invalid_requests, limits.invalid_now(), limits.invalid_peak) == (3, 3, 3)
    clock.advance(600.0)
    assert limits.invalid_now() == 0
    assert (await http("GET", "/users/@me", token="still.not.it"))[0] == 401
    assert (limits.invalid_requests, limits.invalid_now(), limits.invalid_peak) == (4, 1, 3)
    assert not limits.banned
    assert limits.describe() == "discord limits: peak 51 req/s, global 429s 1, invalid requests 4"


async def test_the_limit_can_be_lifted_and_is_still_counted(clock: ManualClock) -> None:
    fake = FakeDiscord(limit_clock=clock, global_limit=0, rate_limit=(1000, 1.0))
    await fake.start()
    try:
        async with aiohttp.ClientSession() as session:
            http = Http(fake, session)
            statuses = [(await http("GET", "/users/@me"))[0] for _ in range(60)]
    finally:
        await fake.close()
    assert statuses == [200] * 60
    assert (fake.limits.global_429s, fake.limits.peak_per_second) == (0, 60)


async def edit_original(
    session: aiohttp.ClientSession,
    server: FakeDiscord,
    token: str,
    body: dict[str, Any],
    picture: bytes | None = None,
) -> tuple[int, Any]:
    """``PATCH /webhooks/{app}/{token}/messages/@original`` as discord.py sends it: JSON, or
    with a picture, multipart (``payload_json`` and ``files[0]``)."""
    url = f"{server.api_base_url}/webhooks/{server.application_id}/{token}/messages/@original"
    data: Any
    if picture is None:
        data = {"json": body}
    else:
        form = aiohttp.FormData()
        form.add_field("payload_json", json.dumps(body), content_type="application/json")
        form.add_field(
            "files[0]", picture, filename="trick.png", content_type="application/octet-stream"
        )
        data = {"data": form}
    async with session.patch(url, **data) as r:
        text = await r.text()
        return r.status, json.loads(text) if text else None


async def test_a_token_edits_its_original_response_uncounted_until_its_lifetime_ends(
    clock: ManualClock,
) -> None:
    """A slash command's public answer and a component's updated message are edited
    through their tokens (a picture too), none counted against the global limit, for the
    token's lifetime; then Discord answers 401, code 50027, an invalid request."""
    wall = ManualClock(1_800_000_000.0)
    fake = FakeDiscord(clock=wall, limit_clock=clock, rate_limit=(1000, 1.0), token_lifetime=60)
    await fake.start()
    try:
        async with aiohttp.ClientSession() as session:
            http = Http(fake, session)
            app = f"/applications/{fake.application_id}/commands"
            command = {"name": "dupe", "description": "Play Dupe", "type": 1}
            assert (await http("PUT", app, [command]))[0] == 200
            channel, button, member = await button_message(fake, http, clock)
            counted = fake.limits.counted
            started = fake.command_interaction(channel, member, "dupe", {})
            callback = f"/interactions/{started.id}/{started.token}/callback"
            answer = {"type": CHANNEL_MESSAGE, "data": {"content": "the table"}}
            assert (await http("POST", callback, answer))[0] == 204
            table = fake.messages[started.original_message_id or 0]
            assert not table.ephemeral
            pressed = fake.component_interaction(channel, member, button, "press")
            callback = f"/interactions/{pressed.id}/{pressed.token}/callback"
            update = {"type": UPDATE_MESSAGE, "data": {"content": "pressed"}}
            assert (await http("POST", callback, update))[0] == 204
            wall.advance(59.0)
            status, edited = await edit_original(
                session,
                fake,
                started.token,
                {"content": "trick 1", "attachments": [{"id": 0, "filename": "trick.png"}]},
                b"\x89PNG picture",
            )
            assert status == 200 and edited["id"] == str(table.id)
            assert [a["filename"] for a in table.attachments] == ["trick.png"]
            assert table.content == "trick 1"
            status, edited = await edit_original(session, fake, pressed.token, {"content": "2"})
            assert status == 200 and edited["id"] == str(button), "the message pressed on"
            assert fake.limits.counted == counted, "interaction-token requests are not counted"
            wall.advance(2.0)  # 61 s since each was dispatched
            status, refused = await edit_original(session, fake, started.token, {"content": "x"})
            assert (status, refused["code"]) == (401, 50027)
            assert refused["message"] == "Invalid Webhook Token"
            assert table.content == "trick 1"
            assert fake.limits.invalid_requests == 1
    finally:
        await fake.close()


async def test_a_token_lives_discords_15_minutes_unless_told(clock: ManualClock) -> None:
    wall = ManualClock(1_800_000_000.0)
    fake = FakeDiscord(clock=wall, limit_clock=clock, rate_limit=(1000, 1.0))
    await fake.start()
    try:
        assert fake.token_lifetime == TOKEN_LIFETIME == 900
        async with aiohttp.ClientSession() as session:
            http = Http(fake, session)
            channel, button, member = await button_message(fake, http, clock)
            pressed = fake.component_interaction(channel, member, button, "press")
            callback = f"/interactions/{pressed.id}/{pressed.token}/callback"
            assert (await http("POST", callback, {"type": DEFERRED_UPDATE}))[0] == 204
            wall.advance(899.0)
            assert (await edit_original(session, fake, pressed.token, {"content": "a"}))[0] == 200
            wall.advance(2.0)
            assert (await edit_original(session, fake, pressed.token, {"content": "b"}))[0] == 401
    finally:
        await fake.close()
