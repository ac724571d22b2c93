"""An interaction the bot gets to after Discord has given up on it has no effect, and the
host's clock, however wrong, never makes an interaction look late (see ``bot.lateness``);
the hook that notes arrivals hands discord.py a slimmed pressed message."""

from __future__ import annotations

import random

import discord
import pytest

from bot.lateness import Lateness, sent_at
from tests.bot.driver import PLAY, Game, World, live_ids

DISCORD_EPOCH_MS = 1_420_070_400_000


def snowflake(seconds: float, serial: int = 0) -> int:
    """Return an id Discord would have created at ``seconds`` (since 1970, Discord's clock)."""
    return ((round(seconds * 1000) - DISCORD_EPOCH_MS) << 22) | serial


class Clock:
    def __init__(self, now: float) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


SENT = 1_795_000_000.0  # late 2026, by Discord's clock


@pytest.mark.parametrize("host_error", [0.0, 3.0, 3600.0, -3600.0, 365 * 86400.0, -1e6])
def test_the_host_clock_error_cancels_out(host_error: float) -> None:
    # The monotonic clock reads anything (its zero is arbitrary); trips take 0.1 to 0.4 s.
    clock = Clock(SENT + host_error)
    lateness = Lateness(2.5, monotonic=clock)
    trips = [0.3, 0.1, 0.4, 0.2]
    for n, trip in enumerate(trips):
        sent = SENT + 10 * n
        clock.now = sent + host_error + trip
        lateness.received(snowflake(sent, n))
        quickest = min(trips[: n + 1])
        assert lateness.age(snowflake(sent, n)) == pytest.approx(trip - quickest, abs=1e-6)
        assert not lateness.too_late(snowflake(sent, n))


def test_a_slow_trip_or_a_long_wait_in_the_process_is_too_late() -> None:
    clock = Clock(5_000.0)  # monotonic: seconds since the host booted
    lateness = Lateness(2.5, monotonic=clock)
    offset = clock.now - SENT
    quick = snowflake(SENT, 1)
    lateness.received(quick)
    assert not lateness.too_late(quick)

    # Arrived 3 s after it was sent (the gateway or the host was stalled).
    slow = snowflake(SENT + 60, 2)
    clock.now = SENT + 60 + offset + 3.0
    lateness.received(slow)
    assert lateness.age(slow) == pytest.approx(3.0, abs=1e-6)
    lateness.received(slow)
    assert lateness.too_late(slow)

    # Arrived at once, then waited 2.6 s for its turn in this process.
    waited = snowflake(SENT + 120, 3)
    clock.now = SENT + 120 + offset
    lateness.received(waited)
    clock.now += 2.6
    assert lateness.too_late(waited)

    # 0 means never.
    never = Lateness(0, monotonic=clock)
    never.received(waited)
    clock.now += 3600
    assert not never.too_late(waited)


def test_the_quickest_trip_is_forgotten_after_half_an_hour() -> None:
    # A host clock slewed by NTP: what was quick an hour ago is no measure now.
    clock = Clock(0.0)
    lateness = Lateness(2.5, monotonic=clock)
    lateness.received(snowflake(SENT))
    clock.now = 3600 + 4.0  # the clocks have drifted 4 s apart since
    later = snowflake(SENT + 3600, 1)
    lateness.received(later)
    assert lateness.age(later) == pytest.approx(0.0, abs=1e-6)


def test_sent_at_reads_discords_clock_from_an_id() -> None:
    assert sent_at(snowflake(SENT, 7)) == pytest.approx(SENT)
    assert sent_at(175928847299117063) == pytest.approx(1462015105.796)  # Discord's docs


@pytest.mark.parametrize("host_error", [3600.0, -3600.0])
async def test_the_bot_answers_with_its_clock_an_hour_off(world: World, host_error: float) -> None:
    # Production's limit; simcord's ids carry its virtual clock (2026-01-01 onwards), not
    # the host's: the bot's own clock is months off from it, and one more hour either way.
    bot = await world.restart(late_interaction_seconds=2.5)
    bot.lateness.monotonic = lambda: world.env._virtual_time + host_error
    alice, bob = world.members("alice", "bob")
    game, opened = await Game.open(world, alice, computers="expert")
    assert opened.acknowledged
    start = await game.press(alice, "Start")
    assert start.acknowledged
    hand = await game.open_hand(alice)
    moves = game.moves()
    result = await alice.click(hand.message, custom_id=live_ids(hand, PLAY)[0])
    assert result.acknowledged
    assert len(game.moves()) > len(moves)
    status = await bob.slash(world.channel, "dupe status")
    assert status.acknowledged


async def test_a_late_click_or_command_is_left_alone(world: World) -> None:
    bot = await world.restart(late_interaction_seconds=2.5)
    stall = Clock(0.0)  # how long the gateway sat on what arrives next
    bot.lateness.monotonic = lambda: world.env._virtual_time + stall.now
    alice, bob = world.members("alice", "bob")
    game, _ = await Game.open(world, alice, computers="expert")
    await game.press(alice, "Start")
    hand = await game.open_hand(alice)
    moves = game.moves()
    card = random.Random(3).choice(live_ids(hand, PLAY))

    # Each interaction reaches the bot 3 s after Discord created it.
    stall.now = 3.0
    result = await alice.click(hand.message, custom_id=card)
    assert not result.acknowledged and result.response is None
    assert game.moves() == moves
    status = await bob.slash(world.channel, "dupe status")
    assert not status.acknowledged and status.response is None
    world.left_unanswered |= {int(result._interaction.id), int(status._interaction.id)}

    # On time again, the same click counts.
    stall.now = 0.0
    result = await alice.click(hand.message, custom_id=card)
    assert result.acknowledged
    assert len(game.moves()) > len(moves)


async def test_a_click_reaches_the_bot_with_the_pressed_message_slimmed(world: World) -> None:
    """The gateway hook that stamps arrivals also hands discord.py the pressed message
    without its components, embeds, mentions and interaction (the bot reads only its id
    and flags): a card pressed on a hand is still answered in place, privately, and
    counts."""
    alice = world.member("alice")
    game, _ = await Game.open(world, alice, computers="expert")
    await game.press(alice, "Start")
    hand = await game.open_hand(alice)
    seen: list[discord.Message | None] = []
    handle = world.bot.on_interaction

    async def watching(interaction: discord.Interaction) -> None:
        seen.append(interaction.message)
        await handle(interaction)

    world.bot.on_interaction = watching  # type: ignore[method-assign]
    moves = game.moves()
    assert hand.message.components  # the hand has its card buttons, on Discord
    result = await game.click(alice, live_ids(hand, PLAY)[0])
    assert len(game.moves()) > len(moves)
    assert result.response is not None and result.response.ephemeral
    assert result.response.components  # the answer shows the hand's buttons again
    (message,) = seen
    assert message is not None and message.id == hand.id and message.flags.ephemeral
    assert message.components == [] and message.embeds == []
    assert message.interaction_metadata is None and message.mentions == []
    assert message.author.id == world.bot.user.id  # who sent it, for discord.py's repr
