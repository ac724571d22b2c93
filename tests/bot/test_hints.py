"""Hints while you learn (``bot/hints.py``), through simcord: the table option ``hints``
marks the table and gives each member a Hint button whenever they owe a decision, never
otherwise; its private answer is the expert's legal choice for that decision, worked out
from the member's own views (the same answer as an adviser shown only that seat's views);
a stale press says so and changes nothing; a slow hint is acknowledged first; a table with
hints is not rated; no hint shows another seat's secrets; German members read German."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import discord
import pytest
import simcord

from bot import games, hints, ids
from bot.app import Bot
from bot.commands import shared_options
from bot.i18n import Lang, t
from bot.scheduler import Scheduler
from bot.store import SQLiteStore
from bot.tables import Table, TableOptions, Tables
from tests.bot.driver import World, forge_click, private_text
from tests.bot.helpers import act_once, buttons
from tests.bot.secrets_scan import scan_secrets
from tests.bot.test_dukes_up_table import open_match, play_turn, setup_both
from tests.bot.whole_game import Game, Player, Recorder, open_table
from tests.support.highcard.engine import HighCardGame
from tests.support.highcard.ui import HighCardUI

SEED = 4242


def hint_ids(message: simcord.ResponseMessage | None) -> list[str]:
    """Return the custom ids of the message's Hint buttons."""
    if message is None:
        return []
    return [
        b.custom_id or ""
        for b in buttons(message)
        if isinstance(ids.parse(b.custom_id or ""), ids.Hint)
    ]


def expected(table: Table, seat: int, lang: Lang = "en") -> tuple[Any, str]:
    """Return the advice for the member at ``seat`` now, worked out apart from the bot from
    that seat's views, with its answer's text, and check the advice is legal."""
    hand = hints.hand_to_advise(table, seat)
    assert hand is not None
    state = table.state
    advice, view = hints.advise(
        table.ui.game,
        table.seed,
        state.options,
        list(state.moves),
        seat,
        hand,
        hints._seed(table, seat, table.turn),
    )
    assert view == state.view(hand)
    state.clone().apply(hand, advice.action)  # legal: the engine takes it
    text = t(lang, "hints.answer", advice=table.ui.advice_text(view, advice, lang))
    return advice, text


async def press_hint(game: Game, player: Player) -> tuple[simcord.InteractionResult, str]:
    """Press the Hint button of the member's hand; return the result and the reply."""
    hand = game.hand(player)
    (custom_id,) = hint_ids(hand)
    assert hand is not None
    result = await player.actor.click(hand.message, custom_id=custom_id)
    return result, private_text(result)


def seat_of(game: Game, player: Player) -> int:
    table = game.table
    assert table is not None
    seat = table.seat_of(player.actor.id)
    assert seat is not None
    return seat


async def hint_and_play(game: Game, decisions: int) -> list[str]:
    """Let the members play ``decisions`` decisions, each member pressing Hint first
    whenever their hand offers it (checked against the advice worked out apart); return
    the hints' texts."""
    answers: list[str] = []
    for _ in range(decisions):
        table = game.table
        if table is None:
            break
        acted = False
        for player in game.players:
            seat = seat_of(game, player)
            owes = hints.hand_to_advise(table, seat) is not None
            hand = game.hand(player)
            assert bool(hint_ids(hand)) == owes, "a Hint button exactly when a decision is owed"
            if not owes:
                continue
            _, want = expected(table, seat)
            _, text = await press_hint(game, player)
            assert text == want
            answers.append(text)
            hand = game.hand(player)
            assert hand is not None
            assert await act_once(player.actor, hand) is not None
            acted = True
            break
        assert acted, "somebody owes a decision"
    return answers


# --- the option and the button ------------------------------------------------------


async def test_without_hints_there_is_no_hint_button(env: simcord.Env, dupe_bot: Bot) -> None:
    game = await open_table(env, dupe_bot, humans=2, seed=SEED)
    for player in game.players:
        assert hint_ids(game.hand(player)) == []
    table_message = game.message(game.table_message.id)
    footer = table_message.embeds[0].footer.text or ""
    assert "hints" not in footer


DECISIONS = {"dupe": 6, "whist": 30}
# Every game that gives advice, played by its hand buttons (Dukes Up!'s turns of several
# steps have a test of their own, below); a game that gains an adviser joins by itself.
GAMES = [
    pytest.param(ui.name, {}, DECISIONS.get(ui.name, 20), id=ui.name)
    for ui in games.GAMES
    if hints.offered(ui) and ui.name != "dukes_up"
]


@pytest.mark.parametrize(("name", "options", "decisions"), GAMES)
async def test_hints_mark_the_table_and_answer_each_decision_legally(
    env: simcord.Env,
    dupe_bot: Bot,
    recorder: Recorder,
    name: str,
    options: dict[str, Any],
    decisions: int,
) -> None:
    """Two members with hints on: the table says so, each member's hand has a Hint button
    exactly while they owe a decision, each answer is the expert's legal choice from that
    member's views; and no hint (nor anything else) shows another seat's secrets."""
    game = await open_table(env, dupe_bot, humans=2, seed=SEED, game=name, hints="on", **options)
    footer = game.message(game.table_message.id).embeds[0].footer.text or ""
    assert "💡 hints on: not rated" in footer
    answers = await hint_and_play(game, decisions)
    assert len(answers) == decisions
    assert all(a.startswith("💡 ") and ": " in a for a in answers), answers[:3]
    if name == "whist":  # past the first tricks it samples deals
        assert any("deals consistent with what you have seen" in a for a in answers), answers
    problems, read = scan_secrets(env, recorder)
    assert read > 10 and problems == [], problems[:5]


async def test_dukes_up_hints_through_setup_and_turns(world: World, recorder: Recorder) -> None:
    """Dukes Up!: a hint for the setup and for each step of a few turns, each the expert's
    legal step from the member's own view; nothing secret reaches the opponent."""
    match = await open_match(world, hints="on")
    table = world.bot.controller.tables.table(match.game_id)

    async def hint(seat: int) -> str:
        hand = match.hands[seat]
        (custom_id,) = hint_ids(hand)
        _, want = expected(table, seat)
        result = await match.member(seat).click(hand.message, custom_id=custom_id)
        text = private_text(result)
        assert text == want
        return text

    answers = [await hint(seat) for seat in (0, 1)]
    await setup_both(match)
    for number in range(4):
        seat = match.state.to_act[0]
        await match.open(seat)
        other = (seat + 1) % 2
        await match.open(other)
        assert hint_ids(match.hands[other]) == [], "the opponent owes nothing"
        answers.append(await hint(seat))
        await play_turn(match, seat, number)
    assert all(a.startswith("💡 ") for a in answers)
    assert any("castle" in a for a in answers[:2]), answers[:2]
    problems, read = scan_secrets(world.env, recorder)
    assert read > 10 and problems == [], problems[:5]


async def test_a_stale_hint_says_so_and_changes_nothing(env: simcord.Env, dupe_bot: Bot) -> None:
    game = await open_table(env, dupe_bot, humans=1, seed=SEED, game="whist", hints="on")
    (player,) = game.players
    hand = game.hand(player)
    (old,) = hint_ids(hand)
    assert hand is not None
    await act_once(player.actor, hand)  # the turn moves on; the old button is gone
    table = game.table
    assert table is not None
    moves = table.state.move_count
    result = await forge_click(player.actor, hand, old)
    assert private_text(result) == t("en", "hints.stale")
    assert table.state.move_count == moves


async def test_a_hint_button_of_another_member_is_refused(env: simcord.Env, dupe_bot: Bot) -> None:
    game = await open_table(env, dupe_bot, humans=2, seed=SEED, hints="on")
    alice, bob = game.players
    (own,) = hint_ids(game.hand(alice))
    hand = game.hand(bob)
    assert hand is not None
    result = await forge_click(bob.actor, hand, own)
    assert private_text(result) == t("en", "hints.not_yours")


async def test_a_slow_hint_is_acknowledged_first(
    env: simcord.Env, dupe_bot: Bot, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A hint not ready in time: the press is acknowledged at once (Discord's 3 s), and the
    hint follows privately."""
    monkeypatch.setattr(hints, "ANSWER_WITHIN", 0.0)
    game = await open_table(env, dupe_bot, humans=1, seed=SEED, hints="on")
    (player,) = game.players
    table = game.table
    assert table is not None
    _, want = expected(table, seat_of(game, player))
    _, text = await press_hint(game, player)
    callbacks = [e for e in env.http_requests if e.path.endswith("/callback")]
    assert callbacks[-1].json == {"type": 5, "data": {"flags": 64}}, "acknowledged first"
    assert text == want, "then the hint, privately"


async def test_an_adviser_that_cannot_be_built_turns_hints_off(
    env: simcord.Env, dupe_bot: Bot, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Hints are offered without building an adviser (at start-up); one that cannot be built
    at the first Hint (its solver's library would not load) is answered “hints are off”,
    and the game offers no more hints."""
    game = await open_table(env, dupe_bot, humans=1, seed=SEED, game="whist", hints="on")
    (player,) = game.players
    whist = games.get("whist")
    monkeypatch.setattr(hints, "_ADVISES", {})
    monkeypatch.setattr(type(whist.game), "adviser", lambda self, seed: None)
    table = game.table
    assert table is not None
    moves = table.state.move_count
    _, text = await press_hint(game, player)
    assert text == t("en", "hints.off")
    assert table.state.move_count == moves
    assert not hints.offered(whist)


async def test_german_members_get_german_hints(
    env: simcord.Env, dupe_bot: Bot, locales: dict[int, str]
) -> None:
    game = await open_table(
        env, dupe_bot, humans=1, seed=SEED, game="whist", hints="on", locale="de", locales=locales
    )
    footer = game.message(game.table_message.id).embeds[0].footer.text or ""
    assert "💡 Tipps an: nicht gewertet" in footer
    (player,) = game.players
    hand = game.hand(player)
    assert hand is not None
    labels = [b.label for b in buttons(hand) if isinstance(ids.parse(b.custom_id or ""), ids.Hint)]
    assert labels == ["💡 Tipp"]
    table = game.table
    assert table is not None
    _, want = expected(table, seat_of(game, player), "de")
    _, text = await press_hint(game, player)
    assert text == want and re.search(r"Spiel|Beanspruche|Nimm|Lehne", text), text


# --- a game without an adviser, and the ratings ----------------------------------------


class SilentGame(HighCardGame):
    """High card without advice, whatever the test-only game grows."""

    def adviser(self, seed: int) -> None:  # type: ignore[override]
        return None


class SilentUI(HighCardUI):
    def __init__(self) -> None:
        self.game = SilentGame()


def test_a_game_without_an_adviser_offers_no_hints() -> None:
    ui = SilentUI()
    assert not hints.offered(ui)
    assert "hints" not in {spec.name for spec in shared_options(ui)}


@pytest.fixture
async def tables(tmp_path: Path) -> AsyncIterator[Callable[[], Tables]]:
    store = await SQLiteStore.open(tmp_path / "bot.sqlite3")
    clock = [1_800_000_000.0]
    scheduler = Scheduler(lambda: clock[0])
    made: list[Tables] = []

    def make() -> Tables:
        ui = SilentUI()
        made.append(Tables(store, lambda name: ui, clock=lambda: clock[0], scheduler=scheduler))
        return made[-1]

    yield make
    for each in made:
        await each.close()
    await scheduler.close()
    await store.close()


@pytest.mark.parametrize("with_hints", [False, True])
async def test_a_table_with_hints_is_not_rated(
    tables: Callable[[], Tables], with_hints: bool
) -> None:
    """The same game finished with and without hints: only the one without moves ratings;
    both are recorded with their scores (history, stats and the points and wins of the
    leaderboard count them)."""
    live = tables()
    table = await live.open_table(
        game="highcard",
        guild_id=1,
        channel_id=2,
        host_id=100,
        host_name="alice",
        options=TableOptions(game={"tricks": 1}, turn_seconds=30, level="high", hints=with_hints),
    )
    await live.join(table.id, 101, "bob")
    await live.start(table.id, 100)
    for user, seat in ((100, 0), (101, 1)):
        card = table.state.legal_actions(seat)[0]
        await live.act(table.id, user, seat, table.turn, card)
    assert table.status == "finished"
    store = live.store
    board, _ = await store.leaderboard(1, "highcard", sort="rating")
    assert len(board) == 2, "both members' results are recorded"
    rated = [row.rating for row in board if row.rating is not None]
    assert (rated == []) is with_hints


async def test_a_server_may_start_its_tables_with_hints(world: World) -> None:
    """A manager makes hints a server default (``/<game> defaults``): new tables start with
    hints on and say so; whoever starts a table may still choose otherwise."""
    alice, bob = world.members("alice", "bob")
    mods = world.guild.create_role("mods", permissions=discord.Permissions(manage_guild=True))
    dora = world.member("dora", roles=[mods])
    shown = private_text(await bob.slash(world.channel, "dupe defaults"))
    assert "• Hints (tables with hints are not rated): off" in shown
    saved = private_text(await dora.slash(world.channel, "dupe defaults", hints="on"))
    assert "(saved)" in saved and "• Hints (tables with hints are not rated): on" in saved

    opened = await alice.slash(world.channel, "dupe start")
    assert opened.response is not None
    assert "💡 hints on: not rated" in (opened.response.embeds[0].footer.text or "")
    other = world.guild.create_text_channel("dupe-2")
    opened = await bob.slash(other, "dupe start", hints="off")
    assert opened.response is not None
    assert "hints" not in (opened.response.embeds[0].footer.text or "")
