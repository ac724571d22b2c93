"""Refusals are written in the member's own language: German for a German Discord, English
for everyone else, whatever the server's language (``bot/i18n.py``); the engine's English
errors reach members as catalogue sentences."""

from __future__ import annotations

import inspect
import random
from typing import Any

import discord
import pytest
import simcord
from discord import app_commands

from bot import errors, ids
from bot.errors import ENGINE_ERROR_KEYS, class_refusal
from bot.games.dupe.ui import UI as DUPE
from bot.i18n import LANGS, Text, catalogue, t
from bot.tables import UserError
from engine import errors as engine_errors
from engine.cards import parse_card
from engine.dupe import Distribute, DupeState, Phase, Play, new_game
from engine.errors import EngineError, GameOverError, ParseError
from tests.bot.driver import PLAY, Game, World, forge_click, live_ids, private_text

# --- the engine's errors ---------------------------------------------------------------


def _engine_error_classes() -> list[type[EngineError]]:
    return [
        kind
        for _, kind in inspect.getmembers(engine_errors, inspect.isclass)
        if issubclass(kind, EngineError)
    ]


def _instance(kind: type[EngineError]) -> EngineError:
    return kind("An English sentence.", "zz") if issubclass(kind, ParseError) else kind("x")


@pytest.mark.parametrize("kind", _engine_error_classes(), ids=lambda kind: kind.__name__)
def test_every_engine_error_class_maps_to_a_sentence(kind: type[EngineError]) -> None:
    assert any(kind is each for each, _ in ENGINE_ERROR_KEYS), "give it its own sentence"
    text = class_refusal(_instance(kind))
    assert text.key in catalogue()
    for lang in LANGS:
        sentence = text(lang)
        assert sentence.strip() and "{" not in sentence
    assert text("en") != text("de")


def test_each_engine_error_class_has_its_own_sentence() -> None:
    keys = [key for _, key in ENGINE_ERROR_KEYS]
    assert len(set(keys)) == len(keys)
    assert class_refusal(ParseError("…", "QX"))("de") == (
        "„QX“ ist keine Karte und kein Zug, den dieser Bot versteht."
    )


def _refused(state: DupeState, seat: int, action: Any) -> tuple[EngineError, Text]:
    before = state.move_count
    with pytest.raises(EngineError) as caught:
        state.apply(seat, action)
    assert state.move_count == before
    assert caught.value.reason, "every refusal names its reason"
    return caught.value, DUPE.refusal(caught.value)


def _distributing(seed: int) -> DupeState:
    """Return a new game of ``seed`` whose first trick waits for its taker."""
    state = new_game(seed)
    for seat in range(4):
        state.apply(seat, Play(state.hand(seat)[0]))
    assert state.phase is Phase.DISTRIBUTE
    return state


def test_a_refused_card_or_distribution_says_why_as_the_engine_does() -> None:
    """The English sentence is the engine's own message; the German says the same."""
    state = new_game(3)
    missing = next(c for c in state.hand(1) if c not in state.hand(0))
    seen: dict[str, str] = {}

    def check(state: DupeState, seat: int, action: Any, key: str) -> None:
        error, text = _refused(state, seat, action)
        assert text.key == key
        assert str(text) == str(error)
        seen[key] = text("de")

    check(state, 0, Play(missing), "dupe.engine_not_in_hand")
    check(state, 0, Distribute(tuple(state.hand(0)[:4])), "dupe.engine_nothing_to_distribute")
    state.apply(0, Play(state.hand(0)[0]))
    check(state, 0, Play(state.hand(0)[0]), "dupe.engine_already_chosen")

    state = _distributing(3)
    taker = state.taker
    assert taker is not None
    other = (taker + 1) % 4
    revealed = state.public_view().revealed
    assert revealed is not None
    check(state, other, Play(state.hand(other)[0]), "dupe.engine_distributing")
    check(state, other, Distribute(tuple(revealed)), "dupe.engine_only_taker")
    wrong = (*revealed[:3], state.hand(taker)[0])
    check(state, taker, Distribute(wrong), "dupe.engine_give_revealed")

    taker_de = t("de", f"common.seat_{taker}")
    assert seen["dupe.engine_distributing"].startswith(f"{taker_de} verteilt gerade")
    assert f"Nur der Stichnehmer, {taker_de}," in seen["dupe.engine_only_taker"]
    assert str(missing) in seen["dupe.engine_not_in_hand"]

    # At the end: the class says it all.
    over = new_game(3)
    rng = random.Random(1)
    while not over.is_over:
        seat = over.to_act[0]
        over.apply(seat, rng.choice(over.legal_actions(seat)))
    error, text = _refused(over, 0, Play(parse_card("AS")))
    assert isinstance(error, GameOverError)
    assert text.key == "errors.engine_game_over" and str(text) == str(error)


# --- the error funnel --------------------------------------------------------------------


class _Response:
    def __init__(self, sent: list[str]) -> None:
        self.sent = sent

    def is_done(self) -> bool:
        return False

    async def send_message(self, text: str, *, ephemeral: bool) -> None:
        assert ephemeral
        self.sent.append(text)


class _Interaction:
    """Just what the funnel uses of an interaction."""

    def __init__(self, locale: discord.Locale) -> None:
        self.id = 1
        self.locale = locale
        self.sent: list[str] = []
        self.response = _Response(self.sent)


async def _answer(locale: discord.Locale, error: BaseException) -> str:
    interaction = _Interaction(locale)
    await errors.answer_error(interaction, error)  # type: ignore[arg-type]
    (text,) = interaction.sent
    return text


async def test_the_funnel_answers_in_the_members_language(caplog: pytest.LogCaptureFixture) -> None:
    german, english = discord.Locale.german, discord.Locale.american_english
    full = UserError("errors.table_full")
    assert await _answer(german, full) == "Der Tisch ist voll."
    assert await _answer(english, full) == "The table is full."
    assert str(full) == "The table is full."
    wrapped = app_commands.CommandInvokeError.__new__(app_commands.CommandInvokeError)
    wrapped.original = UserError("errors.no_such_game", game=7)
    assert await _answer(german, wrapped) == (
        "Auf diesem Server gibt es kein Spiel #7. Schau in /verlauf nach."
    )
    assert await _answer(german, GameOverError("The game is over.")) == (
        "Das Spiel ist vorbei: Es können keine Karten mehr gespielt werden."
    )
    assert await _answer(english, GameOverError("The game is over.")) == (
        "The game is over: no more cards can be played."
    )
    assert await _answer(german, app_commands.NoPrivateMessage()) == t("de", "errors.no_dms")
    assert await _answer(german, app_commands.MissingPermissions(["manage_guild"])) == t(
        "de", "errors.missing_permission"
    )
    assert await _answer(german, app_commands.CheckFailure()) == t("de", "errors.check_failed")
    assert await _answer(german, app_commands.CommandNotFound("x", [])) == t(
        "de", "errors.unknown_command"
    )
    apology = await _answer(german, RuntimeError("a bug"))
    assert apology.startswith("Bei uns ist etwas schiefgegangen")
    reference = apology.rsplit("`", 2)[1]
    assert len(reference) == 8 and reference in caplog.text
    english_apology = await _answer(english, RuntimeError("a bug"))
    assert english_apology.startswith("Something went wrong on our side, and nothing was changed.")


# --- through Discord -----------------------------------------------------------------------


class German:
    """A German server: its channel, its English member alice, its German members hans
    and grete."""

    def __init__(self, world: World, locales: dict[int, str]) -> None:
        self.guild = world.env.create_guild("Spielrunde", preferred_locale="de")
        self.channel = self.guild.create_text_channel("dupe")
        self.alice, self.hans, self.grete = (
            self.guild.add_member(world.env.create_user(name))
            for name in ("alice", "hans", "grete")
        )
        locales[self.hans.id] = locales[self.grete.id] = "de"


async def _lobby(member: simcord.MemberActor, game: Game, what: str) -> simcord.InteractionResult:
    return await member.click(game.message, custom_id=ids.table_button(game.id, what))


async def test_lobby_refusals_in_each_members_language(
    world: World, locales: dict[int, str]
) -> None:
    server = German(world, locales)
    channel, alice, hans, grete = server.channel, server.alice, server.hans, server.grete
    game, _ = await Game.open(world, alice, channel)
    assert (
        private_text(await _lobby(alice, game, "join")) == "You are already seated at this table."
    )
    await _lobby(hans, game, "join")
    assert private_text(await _lobby(hans, game, "join")) == "Du sitzt schon an diesem Tisch."
    assert private_text(await _lobby(grete, game, "leave")) == "Du sitzt nicht an diesem Tisch."
    assert private_text(await _lobby(hans, game, "start")) == (
        "Nur der Gastgeber kann das Spiel starten."
    )
    assert private_text(await _lobby(hans, game, "cancel")) == (
        "Nur der Gastgeber oder jemand, der den Server verwalten darf, kann diesen Tisch abbrechen."
    )
    assert private_text(await _lobby(alice, game, "leave")) == (
        "You are the host: press Cancel to close the table instead."
    )
    assert game.seats() == {0: (alice.id, None), 1: (hans.id, None)}

    # Buttons of a game that is gone, of nothing this bot knows, of another server's table.
    gone = await forge_click(grete, game.message, "dupe:play:999:0:0:AS")
    assert private_text(gone) == (
        "Dieses Spiel ist vorbei oder wurde abgebrochen; "
        "seine Schaltflächen funktionieren nicht mehr."
    )
    gone = await forge_click(alice, game.message, "dupe:play:999:0:0:AS")
    assert private_text(gone) == "That game is over or was cancelled; its buttons no longer work."
    unknown = await forge_click(grete, game.message, "hello")
    assert private_text(unknown).startswith("Diese Schaltfläche versteht dieser Bot nicht")
    unknown = await forge_click(alice, game.message, "hello")
    assert private_text(unknown).startswith("That button is not one this bot understands")

    # A German member of an English server, on a button naming the German server's table.
    jonas = world.member("jonas")
    locales[jonas.id] = "de"
    elsewhere, _ = await Game.open(world, jonas)
    forged = await forge_click(jonas, elsewhere.message, f"dupe:lobby:join:{game.id}")
    assert private_text(forged) == (
        "Diese Schaltfläche gehört zu einem Tisch auf einem anderen Server."
    )
    assert game.seats() == {0: (alice.id, None), 1: (hans.id, None)}

    # /replay of a game that is not over, or not there.
    running = await grete.slash(channel, "replay", game=game.id)
    assert private_text(running) == (
        f"Spiel #{game.id} läuft noch; die Wiederholung gibt es, sobald es vorbei ist."
    )
    missing = await alice.slash(channel, "replay", game=game.id + 100)
    assert (
        private_text(missing) == f"There is no game #{game.id + 100} in this server. See /history."
    )


async def test_a_german_member_empty_seats_in_german(world: World, locales: dict[int, str]) -> None:
    server = German(world, locales)
    channel, hans = server.channel, server.hans
    game, _ = await Game.open(world, hans, channel, computers="none")
    assert private_text(await _lobby(hans, game, "start")) == (
        "Es braucht vier Spieler: 3 Plätze sind noch frei. Bitte andere, sich dazuzusetzen, "
        "oder drück auf „Computerspieler hinzufügen“."
    )


async def test_card_refusals_in_each_members_language(
    world: World, locales: dict[int, str]
) -> None:
    """Refusals of card buttons (answered by bot/dupe/controller.py)."""
    server = German(world, locales)
    channel, alice, hans, grete = server.channel, server.alice, server.hans, server.grete
    dave = server.guild.add_member(world.env.create_user("dave"))
    game, _ = await Game.open(world, alice, channel, computers="random")
    await _lobby(hans, game, "join")
    await _lobby(alice, game, "start")
    shown = await alice.click(game.message, custom_id=ids.table_button(game.id, "hand"))
    hand = shown.response
    assert hand is not None and hand.ephemeral
    card = live_ids(hand, PLAY)[0]

    refused = await forge_click(grete, hand, card)
    assert private_text(refused) == "Du spielst an diesem Tisch nicht mit."
    refused = await forge_click(hans, hand, card)
    assert private_text(refused) == "Diese Schaltflächen gehören zur Hand eines anderen Spielers."
    refused = await forge_click(dave, hand, card)
    assert private_text(refused) == "You are not playing at this table."


async def test_a_refusal_the_catalogue_cannot_write_is_answered_as_a_bug(
    caplog: pytest.LogCaptureFixture,
) -> None:
    error = UserError("errors.no_such_key", game=3)
    assert str(error) == "errors.no_such_key {'game': 3}"  # logs still say what it was
    answer = await _answer(discord.Locale.german, error)
    assert answer.startswith("Bei uns ist etwas schiefgegangen")
    assert "errors.no_such_key" in caplog.text


def test_german_refusals_name_commands_as_german_members_see_them() -> None:
    """Discord shows a German member the German command names (history.toml)."""
    history, replay = (t("de", f"history.{name}_name") for name in ("history", "replay"))
    assert (history, replay) == ("verlauf", "wiederholung")
    assert f"/{history}" in t("de", "errors.no_such_game", game=1)
    assert f"/{history}" in t("de", "history.replay_game_description")
    assert "/history" in t("en", "errors.no_such_game", game=1)
