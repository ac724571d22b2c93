"""The real bot process (``python -m bot``) against the loopback Discord.

Each process-level test starts the server, runs the unmodified bot as a subprocess pointed
at it by environment variables, and plays as scripted members. A clean run means: every
request body valid (OpenAPI + the limits the spec omits), no unknown route, every
interaction answered within 3 s, and no error in the bot's log. Unit-level tests check the
server's own rules with an injected clock and raw HTTP and WebSocket clients.
"""

from __future__ import annotations

import copy
import json
import re
from collections.abc import AsyncIterator, Mapping
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from bot import ids
from tests.loopback.driver import (
    BotProcess,
    GuildHandle,
    LoopbackDiscord,
    MemberActor,
    MessageView,
    Reply,
)
from tests.loopback.fake_discord import (
    CHANNEL_MESSAGE,
    DEFERRED_UPDATE,
    EPHEMERAL,
    UPDATE_MESSAGE,
    FakeDiscord,
    ManualClock,
)

PLAY, GIVE, GIVE_OK = "play", "give", "giveok"  # kinds of control (driver.id_kind)


@pytest.fixture
async def discord() -> AsyncIterator[LoopbackDiscord]:
    async with LoopbackDiscord.start(action_timeout=10.0) as running:
        yield running


def assert_clean(discord: LoopbackDiscord, *bots: BotProcess) -> None:
    """Nothing Discord would refuse, nothing unknown, no interaction failed, no bot error."""
    server = discord.server
    assert server.violations == []
    assert server.unknown_routes == []
    assert server.internal_errors == []
    assert server.gateway_errors == []
    assert [i.describe() for i in server.unanswered()] == []  # “This interaction failed”
    for bot in bots:
        assert bot.errors() == [], bot.log_tail()


async def open_started_table(
    discord: LoopbackDiscord, guild: GuildHandle, host: MemberActor
) -> MessageView:
    """``/dupe start`` with random computers, then Start: return the table message."""
    lobby = await host.slash(guild.channel, "dupe start", computers="random")
    assert lobby.callback_type == CHANNEL_MESSAGE and lobby.message is not None
    assert not lobby.ephemeral
    assert "Start" in lobby.message.labels()
    # Clicked at once: the bot knows its table message from the click if need be.
    started = await host.click(lobby, label="Start")
    assert started.callback_type == UPDATE_MESSAGE  # the lobby becomes the table in place
    table = guild.channel.message(lobby.message.id)
    assert table.title.startswith("Dupe — deal 1 of 4"), table.title
    for number in (2, 3, 4):  # the empty seats filled
        assert f"🤖 Computer {number} (random)" in table.description
    assert table.labels() == ["My hand"]
    return table


async def make_a_move(member: MemberActor, hand: MessageView) -> Reply:
    """Press the first card of a private hand, or, when the member took the trick, one
    step of its distribution (each game is dealt from a fresh random seed)."""
    for kind in (PLAY, GIVE_OK, GIVE):
        ids = hand.custom_ids(kind=kind)
        if ids:
            reply = await member.click(hand, custom_id=ids[0])
            assert reply.callback_type == UPDATE_MESSAGE and reply.message is not None
            assert reply.message.id == hand.id  # the private hand is edited in place
            return reply
    raise AssertionError(f"nothing to press in the hand: {hand.labels()}\n{hand.text}")


async def test_a_member_plays_a_card_against_the_bot_process(
    discord: LoopbackDiscord, tmp_path: Path
) -> None:
    guild = discord.create_guild("Dupe Club")
    alice = guild.add_member("alice")
    async with discord.bot_process(tmp_path) as bot:
        table = await open_started_table(discord, guild, alice)
        hand = await alice.click(table, label="My hand")
        assert hand.callback_type == CHANNEL_MESSAGE and hand.message is not None
        assert hand.ephemeral and hand.message.ephemeral_to == alice.id
        assert "Your identity card" in hand.text
        cards = hand.message.custom_ids(kind=PLAY)
        assert len(cards) == 13
        assert hand.message.id not in [m.id for m in guild.channel.messages()]  # private
        edits = guild.channel.message(table.id).edits
        played = await alice.click(hand, custom_id=cards[0])
        # The card button on her private hand answers by editing that hand in place.
        assert played.callback_type == UPDATE_MESSAGE and played.message is not None
        assert played.message.id == hand.message.id and played.message.edits == 1
        latest = alice.latest_private()
        assert latest is not None and latest.id == hand.message.id
        assert latest.custom_ids(kind=PLAY) != cards  # her choice is made: the trick moved on
        await discord.wait_until(
            lambda: guild.channel.message(table.id).edits > edits,
            what="the edit of the public table message after the play",
        )
        await discord.settle()
    assert len(discord.server.latencies) == 4
    assert_clean(discord, bot)


async def test_the_bot_resumes_after_its_gateway_connection_drops(
    discord: LoopbackDiscord, tmp_path: Path
) -> None:
    guild = discord.create_guild("Dupe Club")
    alice = guild.add_member("alice")
    async with discord.bot_process(tmp_path) as bot:
        table = await open_started_table(discord, guild, alice)
        assert discord.server.drop_gateway() == 1
        # Dispatched while the bot reconnects: kept for the session and replayed on RESUME.
        hand = await alice.click(table, label="My hand")
        assert hand.ephemeral and hand.message is not None
        assert discord.server.resumes == 1 and discord.server.identifies == 1
        await make_a_move(alice, hand.message)
        await discord.settle()
    assert_clean(discord, bot)


async def test_clicks_succeed_when_30_percent_of_requests_get_429(
    discord: LoopbackDiscord, tmp_path: Path
) -> None:
    guild = discord.create_guild("Dupe Club")
    alice = guild.add_member("alice")
    async with discord.bot_process(tmp_path) as bot:
        table = await open_started_table(discord, guild, alice)
        discord.server.inject_429(0.3, seed=4)  # seed 4: the first request gets two 429s
        for _ in range(3):
            hand = await alice.click(table, label="My hand")  # a fresh private hand
            assert hand.ephemeral and hand.message is not None
            await make_a_move(alice, hand.message)
        await discord.settle()
    assert discord.server.injected_429 >= 2
    assert_clean(discord, bot)


async def test_a_killed_bot_restarts_on_its_database_and_old_buttons_work(
    discord: LoopbackDiscord, tmp_path: Path
) -> None:
    guild = discord.create_guild("Dupe Club")
    alice = guild.add_member("alice")
    first = discord.bot_process(tmp_path)
    async with first:
        table = await open_started_table(discord, guild, alice)
        hand = await alice.click(table, label="My hand")
        assert hand.message is not None
        await discord.settle()
        first.kill()
        assert await first.wait() == -9
    second = discord.bot_process(tmp_path)  # the same working directory and database
    async with second:
        assert "loaded 1 live table(s)" in second.log()
        again = await alice.click(table, label="My hand")  # a button sent before the crash
        assert again.ephemeral and again.message is not None
        assert again.message.custom_ids(kind=PLAY) == hand.message.custom_ids(kind=PLAY)
        await make_a_move(alice, again.message)
        await discord.settle()
        # What was alive at READY, the reloaded table included, left the collector's
        # reach (full collections scan only what came since), and the table plays on.
        frozen = "objects of the start-up moved out of the collector's reach"
        await discord.server.wait_for(
            lambda: frozen in second.log(), timeout=10.0, what="the freeze at READY"
        )
    assert discord.server.identifies == 2
    assert_clean(discord, first, second)


def _legacy(custom_id: str, trick_number: int) -> str:
    """The id a button had before ``bot.ids`` (``dupe:…``; a control's turn was the trick's
    number in the game, 0–51); ids the old scheme did not have are kept."""
    parsed = ids.parse(custom_id)
    if isinstance(parsed, ids.TableButton):
        if parsed.what in ("join", "leave", "addcpu", "start", "cancel"):
            return f"dupe:lobby:{parsed.what}:{parsed.table}"
        if parsed.what in ("hand", "pic", "rematch"):
            return f"dupe:{parsed.what}:{parsed.table}"
    if isinstance(parsed, ids.Control):
        kind = {"p": "play", "g": "give", "k": "giveok"}[parsed.payload[0]]
        return f"dupe:{kind}:{parsed.table}:{parsed.seat}:{trick_number}:{parsed.payload[1:]}"
    return custom_id


def show_as_before_the_upgrade(discord: LoopbackDiscord, message_id: int) -> MessageView:
    """Rewrite a message's buttons as the bot sent them before ``bot.ids`` (``dupe:…``), as
    if it had been sent by the previous version; return it as it is now."""
    message = discord.server.messages[message_id]
    header = re.search(r"· deal (\d) of 4 · trick (\d+) of 13", message.content)
    trick_number = 0 if header is None else (int(header[1]) - 1) * 13 + int(header[2]) - 1
    components = copy.deepcopy(message.components)
    for row in components:
        for button in row.get("components") or []:
            if "custom_id" in button:
                button["custom_id"] = _legacy(button["custom_id"], trick_number)
    message.components = components
    return MessageView.of(message)


async def test_buttons_sent_before_the_new_custom_ids_still_work(
    discord: LoopbackDiscord, tmp_path: Path
) -> None:
    guild = discord.create_guild("Dupe Club")
    alice = guild.add_member("alice")
    async with discord.bot_process(tmp_path) as bot:
        table = await open_started_table(discord, guild, alice)
        await discord.settle()
        old_table = show_as_before_the_upgrade(discord, table.id)
        assert old_table.custom_ids() == [f"dupe:hand:{_table_of(table)}"]
        hand = await alice.click(old_table, label="My hand")
        assert hand.callback_type == CHANNEL_MESSAGE and hand.ephemeral
        assert hand.message is not None and "Your identity card" in hand.text
        assert len(hand.message.custom_ids(kind=PLAY)) == 13  # answered with today's ids
        old_hand = show_as_before_the_upgrade(discord, hand.message.id)
        cards = old_hand.custom_ids("dupe:play:")
        assert len(cards) == 13
        played = await alice.click(old_hand, custom_id=cards[0])
        # The old card button plays that card, as it did: the hand is edited in place.
        assert played.callback_type == UPDATE_MESSAGE and played.message is not None
        assert played.message.id == hand.message.id and "⚠️" not in played.text
        card = cards[0].rsplit(":", 1)[1]
        left = [c.payload for c in played.message.controls(PLAY)]
        assert f"p{card}" not in left and len(left) in (0, 12), played.text
        # Pressed again (say, on a copy of that old message), it is refused: one move.
        button = {"type": 2, "style": 2, "label": card, "custom_id": cards[0]}
        discord.server.messages[hand.message.id].components = [{"type": 1, "components": [button]}]
        refused = await alice.click(hand.message.id, custom_id=cards[0])
        assert refused.callback_type == UPDATE_MESSAGE and "⚠️" in refused.text, refused.text
        await discord.settle()
    assert_clean(discord, bot)


def _table_of(message: MessageView) -> int:
    parsed = ids.parse(message.custom_ids()[0])
    assert isinstance(parsed, ids.TableButton)
    return parsed.table


async def test_two_processes_each_run_one_shard(discord: LoopbackDiscord, tmp_path: Path) -> None:
    guilds = [discord.create_guild(f"Shard {n}", shard=n, shard_count=2) for n in range(2)]
    members = [guild.add_member(f"member {n}") for n, guild in enumerate(guilds)]
    first = discord.bot_process(tmp_path / "a", shard_count=2, shard_ids=[0])
    second = discord.bot_process(tmp_path / "b", shard_count=2, shard_ids=[1])
    async with first, second:
        assert {s.shard for s in discord.server.live_sessions()} == {(0, 2), (1, 2)}
        for shard, (guild, member) in enumerate(zip(guilds, members, strict=True)):
            # Only the session of the guild's shard gets its events.
            assert [s.shard for s in discord.server.sessions_for(guild.id)] == [(shard, 2)]
            reply = await member.slash(guild.channel, "dupe rules")
            assert reply.ephemeral and "Dupe" in reply.text
        await discord.settle()
    assert_clean(discord, first, second)


async def test_a_command_discord_gave_up_on_is_typed_again(
    discord: LoopbackDiscord, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A member whose command got no answer (“This interaction failed”: here its event is
    lost on the way, as a bot on a busy machine leaves a command it got to too late alone)
    types it again; the second is answered, and the first counts as no fault."""
    guild = discord.create_guild("Retry")
    alice = guild.add_member("alice")
    server = discord.server
    sent = server.dispatch
    lost: list[Any] = []

    def lose_the_first(interaction: Any) -> None:
        if not lost:
            lost.append(interaction)
            interaction.sent_at = 0.0  # dispatched, as far as Discord knows; never arrives
            return
        sent(interaction)

    monkeypatch.setattr(server, "dispatch", lose_the_first)
    async with discord.bot_process(tmp_path) as bot:
        reply = await alice.slash(guild.channel, "dupe rules")
        assert reply.ephemeral and "Dupe" in reply.text
        (first,) = lost
        assert first.typed_again and not first.responded
        assert reply.interaction is not first
        await discord.settle()
    assert server.unanswered() == []
    assert_clean(discord, bot)


# --- the server's own rules, without a bot -----------------------------------------------


class Rest:
    """Raw HTTP against the server, as the bot would send it."""

    def __init__(self, server: FakeDiscord, session: aiohttp.ClientSession) -> None:
        self.server = server
        self.session = session

    async def __call__(
        self, method: str, path: str, body: Any = None, *, auth: bool = True
    ) -> tuple[int, Any, Mapping[str, str]]:
        headers = {"Authorization": f"Bot {self.server.token}"} if auth else {}
        kwargs: dict[str, Any] = {"headers": headers}
        if body is not None:
            kwargs["json"] = body
        url = self.server.api_base_url + path
        async with self.session.request(method, url, **kwargs) as response:
            text = await response.text()
            payload = json.loads(text) if text else None
            return response.status, payload, response.headers


@pytest.fixture
async def rest(discord: LoopbackDiscord) -> AsyncIterator[Rest]:
    async with aiohttp.ClientSession() as session:
        yield Rest(discord.server, session)


BUTTON = {"type": 2, "style": 1, "label": "Press", "custom_id": "press"}


async def test_the_deadline_and_a_second_callback_are_refused() -> None:
    clock = ManualClock()
    async with LoopbackDiscord.start(clock=clock) as discord, aiohttp.ClientSession() as http:
        rest = Rest(discord.server, http)
        server = discord.server
        guild = discord.create_guild("Unit")
        alice, bob = guild.add_member("alice"), guild.add_member("bob")
        body = {"content": "hi", "components": [{"type": 1, "components": [BUTTON]}]}
        status, posted, _ = await rest("POST", f"/channels/{guild.channel.id}/messages", body)
        assert status == 200
        message_id = int(posted["id"])

        def click() -> tuple[str, int]:
            made = server.component_interaction(guild.channel.id, alice.id, message_id, "press")
            return f"/interactions/{made.id}/{made.token}/callback", made.id

        late, _ = click()
        clock.advance(3.01)
        status, error, _ = await rest("POST", late, {"type": DEFERRED_UPDATE}, auth=False)
        assert (status, error["code"]) == (404, 10062)

        on_time, interaction_id = click()
        clock.advance(2.9)
        private = {"type": CHANNEL_MESSAGE, "data": {"content": "yours", "flags": EPHEMERAL}}
        status, _, _ = await rest("POST", on_time, private, auth=False)
        assert status == 204
        status, error, _ = await rest("POST", on_time, private, auth=False)
        assert (status, error["code"]) == (400, 40060)

        # The ephemeral answer: alice sees it, bob and the channel routes do not.
        answered = server.interactions[interaction_id]
        mine = alice.latest_private()
        assert mine is not None and mine.content == "yours" and bob.latest_private() is None
        status, error, _ = await rest(
            "GET", f"/channels/{guild.channel.id}/messages/{answered.original_message_id}"
        )
        assert (status, error["code"]) == (404, 10008)
        with pytest.raises(LookupError):
            await bob.click(mine, label="Press")

        # The token edits the answer for 15 minutes, then no more.
        original = f"/webhooks/{server.application_id}/{answered.token}/messages/@original"
        status, _, _ = await rest("PATCH", original, {"content": "still yours"}, auth=False)
        assert status == 200 and mine.content != alice.latest_private().content  # type: ignore[union-attr]
        clock.advance(15 * 60)
        status, error, _ = await rest("PATCH", original, {"content": "too late"}, auth=False)
        assert (status, error["code"]) == (401, 50027)
        assert server.violations == []


async def test_invalid_bodies_and_unknown_routes_are_refused_and_recorded(
    discord: LoopbackDiscord, rest: Rest
) -> None:
    server = discord.server
    channel = discord.create_guild("Unit").channel.id
    twice = {"type": 1, "components": [BUTTON, BUTTON]}
    bad_bodies = [
        {"content": "x" * 2001},
        {"components": [twice]},
        {"components": [{"type": 1, "components": [{**BUTTON, "style": 9}]}]},
        {
            "components": [
                {"type": 1, "components": [{**BUTTON, "custom_id": str(n)}]} for n in range(6)
            ]
        },
        {"embeds": [{"title": "t", "fields": [{"name": "n", "value": "v" * 1000}] * 7}]},
    ]
    for body in bad_bodies:
        status, error, _ = await rest("POST", f"/channels/{channel}/messages", body)
        assert (status, error["code"], error["message"]) == (400, 50035, "Invalid Form Body")
        assert error["errors"]
    assert len(server.violations) == len(bad_bodies)
    assert server.channel_messages(channel) == []
    status, error, _ = await rest("POST", "/guilds/1/roles", {"name": "x"})
    assert (status, error["code"]) == (404, 0)
    assert server.unknown_routes == ["POST /guilds/1/roles"]
    status, _, _ = await rest("GET", "/users/@me", auth=False)
    assert status == 401


async def test_multipart_bodies_are_validated_through_their_payload_json(
    discord: LoopbackDiscord,
) -> None:
    server = discord.server
    channel = discord.create_guild("Unit").channel.id

    async def upload(payload: dict[str, Any]) -> tuple[int, Any]:
        # As discord.py sends files: payload_json, then files[n] (fields not quoted).
        form = aiohttp.FormData(quote_fields=False)
        form.add_field("payload_json", json.dumps(payload), content_type="application/json")
        form.add_field("files[0]", b"scores", filename="scores.txt", content_type="text/plain")
        url = f"{server.api_base_url}/channels/{channel}/messages"
        headers = {"Authorization": f"Bot {server.token}"}
        async with aiohttp.ClientSession() as http, http.post(url, data=form, headers=headers) as r:
            return r.status, await r.json()

    attachment = [{"id": 0, "filename": "scores.txt"}]
    status, message = await upload({"content": "the scores", "attachments": attachment})
    assert status == 200
    assert [(a["filename"], a["size"]) for a in message["attachments"]] == [("scores.txt", 6)]
    status, error = await upload({"content": "x" * 2001, "attachments": attachment})
    assert (status, error["code"]) == (400, 50035)
    assert len(server.violations) == 1 and "2001" in server.violations[0]


async def test_injected_429s_carry_what_discord_py_needs_to_retry(
    discord: LoopbackDiscord, rest: Rest
) -> None:
    server = discord.server
    status, me, headers = await rest("GET", "/users/@me")
    assert status == 200 and me["id"] == str(server.application_id)
    assert headers["X-RateLimit-Limit"] == "50" and headers["X-RateLimit-Remaining"] == "49"
    assert headers["Content-Type"] == "application/json"
    server.inject_429(1.0, seed=0)
    status, body, headers = await rest("GET", "/users/@me")
    assert status == 429
    assert body == {"message": "You are being rate limited.", "retry_after": 0.05, "global": False}
    assert headers["X-RateLimit-Remaining"] == "0" and headers["X-RateLimit-Scope"] == "user"
    assert float(headers["X-RateLimit-Reset-After"]) == 0.05 and headers["Retry-After"]
    assert headers["X-RateLimit-Bucket"] and headers["X-RateLimit-Reset"] and headers["Via"]
    server.inject_429(0.0)
    assert (await rest("GET", "/users/@me"))[0] == 200
    assert server.injected_429 == 1


async def test_the_gateway_identifies_shards_and_resumes_with_a_replay(
    discord: LoopbackDiscord,
) -> None:
    server = discord.server
    mine = discord.create_guild("Shard 1", shard=1, shard_count=2)
    discord.create_guild("Shard 0", shard=0, shard_count=2)
    member = mine.add_member("alice")
    await _put_command(server)

    async with aiohttp.ClientSession() as http:
        ws = await http.ws_connect(server.gateway_url + "?v=10&encoding=json")
        hello = await ws.receive_json()
        assert hello["op"] == 10 and hello["d"]["heartbeat_interval"] == 41_250
        await ws.send_json({"op": 1, "d": None})
        assert (await ws.receive_json())["op"] == 11
        identify = {"token": server.token, "intents": 1, "properties": {}, "shard": [1, 2]}
        await ws.send_json({"op": 2, "d": identify})
        ready = await ws.receive_json()
        assert (ready["t"], ready["s"]) == ("READY", 1)
        assert ready["d"]["shard"] == [1, 2]
        assert ready["d"]["guilds"] == [{"id": str(mine.id), "unavailable": True}]
        assert ready["d"]["resume_gateway_url"] == server.gateway_url
        created = await ws.receive_json()
        assert (created["t"], created["s"], created["d"]["id"]) == ("GUILD_CREATE", 2, str(mine.id))
        assert [m["user"]["id"] for m in created["d"]["members"]] == [str(server.application_id)]
        session_id = ready["d"]["session_id"]

        assert server.drop_gateway() == 1
        missed = server.command_interaction(mine.channel.id, member.id, "ping", {})
        server.dispatch(missed)  # while disconnected

        ws = await http.ws_connect(ready["d"]["resume_gateway_url"])
        await ws.receive_json()  # HELLO
        resume = {"token": server.token, "session_id": session_id, "seq": 2}
        await ws.send_json({"op": 6, "d": resume})
        replayed = await ws.receive_json()
        assert (replayed["t"], replayed["s"]) == ("INTERACTION_CREATE", 3)
        assert replayed["d"]["id"] == str(missed.id) and replayed["d"]["data"]["name"] == "ping"
        assert (await ws.receive_json())["t"] == "RESUMED"
        await ws.close()

        ws = await http.ws_connect(server.gateway_url)
        await ws.receive_json()
        stale = {"token": server.token, "session_id": "no such session", "seq": 1}
        await ws.send_json({"op": 6, "d": stale})
        assert await ws.receive_json() == {"op": 9, "d": False}
        await ws.close()
    assert server.resumes == 1 and server.gateway_errors == []


async def _put_command(server: FakeDiscord) -> None:
    async with aiohttp.ClientSession() as http:
        rest = Rest(server, http)
        command = {"name": "ping", "description": "Ping", "type": 1}
        status, stored, _ = await rest(
            "PUT", f"/applications/{server.application_id}/commands", [command]
        )
        assert status == 200 and stored[0]["id"]


async def test_a_second_game_plays_against_its_own_process_and_survives_a_kill(
    discord: LoopbackDiscord, tmp_path: Path
) -> None:
    """High card (the tests' second game) in a real bot process: its own command group, the
    shared lobby, a computer seat, hands, a SIGKILL and a restart with the buttons sent
    before it, to the final standings — every body one Discord accepts."""
    guild = discord.create_guild("High Card Club")
    alice = guild.add_member("alice")
    launcher = "tests.support.highcard.run_bot"
    first = discord.bot_process(tmp_path, module=launcher)
    async with first:
        lobby = await alice.slash(guild.channel, "highcard start", computers="high")
        assert lobby.message is not None and not lobby.ephemeral
        assert lobby.message.title == "High card — a table is open"
        started = await alice.click(lobby, label="Start")
        assert started.callback_type == UPDATE_MESSAGE
        table = guild.channel.message(lobby.message.id)
        assert table.title.startswith("High card — trick 1 of 3"), table.title
        hand = await alice.click(table, label="My hand")
        assert hand.ephemeral and hand.message is not None
        cards = hand.message.custom_ids(kind=PLAY)
        assert len(cards) == 3
        await alice.click(hand, custom_id=cards[0])
        await discord.settle()
        first.kill()
        assert await first.wait() == -9
    second = discord.bot_process(tmp_path, module=launcher)
    async with second:
        assert "loaded 1 live table(s)" in second.log()
        old = guild.channel.message(table.id)
        again = await alice.click(old, label="My hand")  # a button sent before the kill
        assert again.message is not None and len(again.message.custom_ids(kind=PLAY)) == 2
        for _ in range(2):
            latest = alice.latest_private()
            assert latest is not None
            reply = await alice.click(latest, custom_id=latest.custom_ids(kind=PLAY)[0])
            assert reply.callback_type == UPDATE_MESSAGE
        await discord.wait_until(
            lambda: any(m.title == "High card — final standings" for m in guild.channel.messages()),
            what="the final standings of high card",
        )
        await discord.settle()
    assert_clean(discord, first, second)


async def test_sigterm_stops_the_bot_cleanly_and_its_table_goes_on_after(
    discord: LoopbackDiscord, tmp_path: Path
) -> None:
    """``docker stop`` sends SIGTERM (and as PID 1 the process has no default handler): the
    bot closes its gateway and database and exits 0 at once; the table goes on after."""
    guild = discord.create_guild("Dupe Club")
    alice = guild.add_member("alice")
    first = discord.bot_process(tmp_path)
    async with first:
        table = await open_started_table(discord, guild, alice)
        hand = await alice.click(table, label="My hand")
        assert hand.message is not None
        await make_a_move(alice, hand.message)
        await discord.settle()
        first.terminate()
        assert await first.wait(timeout=5.0) == 0, first.log_tail()
        assert "SIGTERM received: stopping" in first.log()
    second = discord.bot_process(tmp_path)
    async with second:
        assert "loaded 1 live table(s)" in second.log()
        again = await alice.click(table, label="My hand")
        assert again.message is not None
        await make_a_move(alice, again.message)
        await discord.settle()
    assert_clean(discord, first, second)
