"""``/review game:<id>`` through simcord, on high card (the test game, whose expert samples
the cards it has not seen): a member who played gets their decisions beside the expert's,
privately; anyone else, a game in play, an unknown id get a specific refusal; the review of
a pinned game is the same every time; it names no card the member could not see; the
replay's last step links to it; it speaks German."""

from __future__ import annotations

import asyncio
import re
import threading
from collections.abc import Iterator
from typing import Any

import pytest
import simcord

from bot import games, ids, review
from bot.review import review_game
from engine import games as engine_games
from engine.cards import DECK, parse_card
from tests.bot.driver import World, description, forge_click, ids_of, live_ids, private_text
from tests.bot.whole_game import Game, open_table, play
from tests.support.highcard.engine import HIGHCARD
from tests.support.highcard.ui import UI

SEED = 4242
EXPECTED_SUMMARY = "0 of your 2 decisions matched the expert's choice or did as well."


@pytest.fixture(autouse=True)
def highcard() -> Iterator[None]:
    """High card joins both registries before the bot starts, and leaves after."""
    with engine_games.registered(HIGHCARD), games.registered(UI):
        yield


async def finished(world: World, **kwargs: Any) -> Game:
    """Return a finished high card game of alice and bob, dealt from :data:`SEED`."""
    game = await open_table(
        world.env, world.bot, humans=2, seed=SEED, game="highcard", turn_seconds=60, **kwargs
    )
    await play(game)
    assert game.table is None
    return game


def shown(result: simcord.InteractionResult) -> str:
    """Return everything a private reply shows: content, titles, descriptions, footers."""
    message = result.response
    assert message is not None and message.ephemeral
    parts = [message.content or ""]
    for embed in message.embeds:
        parts += [embed.title or "", embed.description or "", embed.footer.text or ""]
    return "\n".join(parts)


def summary(result: simcord.InteractionResult) -> str:
    return description(result.response).splitlines()[0]  # type: ignore[arg-type]


async def test_a_member_who_played_gets_the_same_review_every_time(world: World) -> None:
    game = await finished(world)
    alice = game.players[0].actor
    first = await alice.slash(game.channel, "review", game=game.game_id)
    assert first.response is not None and first.ephemeral
    assert first.response.embeds[0].title == f"Your review of High card #{game.game_id}"
    assert summary(first) == EXPECTED_SUMMARY
    text = shown(first)
    assert "Costs marked ≈ are the expert's own estimates" in text
    assert "**Trick 1** — you: " in text and " · expert: " in text and "costs ≈" in text
    lines = [line for line in text.splitlines() if line.startswith("**Trick")]
    costs = [float(re.search(r"≈([\d.]+)", line)[1]) for line in lines]  # type: ignore[index]
    assert costs == sorted(costs, reverse=True), "worst first"

    again = await alice.slash(game.channel, "review", game=game.game_id)
    assert shown(again) == text
    # Kept, the second answer is the page itself; computed afresh after a restart, the same.
    assert "Reviewing" not in (again.response.content or "")  # type: ignore[union-attr]
    await world.restart()
    rebuilt = await alice.slash(game.channel, "review", game=game.game_id)
    assert shown(rebuilt) == text

    # Computed outside the bot, the pinned game's review is the same.
    record = await world.bot.store.game(game.game_id)
    assert record is not None
    options = HIGHCARD.options_type(tricks=3)
    made = [review_game(UI, record.seed, options, record.moves, 0) for _ in range(2)]
    assert made[0] == made[1] and (made[0].decisions, made[0].matched) == (2, 0)


async def test_anyone_else_and_a_game_not_finished_are_refused(world: World) -> None:
    game = await finished(world)
    eve = game.spectator
    refused = await eve.slash(game.channel, "review", game=game.game_id)
    assert private_text(refused) == (
        f"You did not play in game #{game.game_id}: a review goes through the decisions of "
        f"a member who played it. /replay {game.game_id} shows the game."
    )
    missing = await eve.slash(game.channel, "review", game=game.game_id + 100)
    assert private_text(missing) == (
        f"There is no game #{game.game_id + 100} in this server. See /history."
    )
    running = await open_table(
        world.env, world.bot, humans=2, seed=SEED, game="highcard", turn_seconds=60
    )
    alice = running.players[0].actor
    early = await alice.slash(running.channel, "review", game=running.game_id)
    assert private_text(early) == (
        f"Game #{running.game_id} is still being played; it can be reviewed when it is over."
    )
    await world.bot.controller.tables.cancel(running.game_id, alice.id, can_manage=True)
    cancelled = await alice.slash(running.channel, "review", game=running.game_id)
    assert private_text(cancelled) == (
        f"Game #{running.game_id} was cancelled, so there is nothing to review."
    )


async def test_the_review_names_no_card_the_member_could_not_see(world: World) -> None:
    """The leak scan of the review's payloads: for each member, every card it names was in
    their own hand (their choice, or the expert's from the same hand); no card of the other
    hand, nor one still in the pack, at any decision."""
    game = await finished(world)
    record = await world.bot.store.game(game.game_id)
    assert record is not None
    dealt = HIGHCARD.new_game(record.seed, HIGHCARD.options_type(tricks=3))
    for player in game.players:
        seat = next(s for s, r in record.seats.items() if r.user_id == player.actor.id)
        own = set(dealt.hand(seat))
        result = await player.actor.slash(game.channel, "review", game=game.game_id)
        text = shown(result)
        named = set()
        for card in DECK:
            for form in (card.code, str(card)):
                if re.search(rf"(?<!\w){re.escape(form)}(?!\w)", text):
                    named.add(card)
        assert named, "the review names the member's cards"
        assert named <= own, sorted(map(str, named - own))


async def last_step(
    game: Game, member: simcord.MemberActor, opener: str
) -> simcord.InteractionResult:
    """Return ``member``'s replay of the game stepped to its last step (only that one may
    link to the review)."""
    replay = await member.slash(game.channel, "replay", game=game.game_id)
    while True:
        assert replay.response is not None
        following = [i for i in live_ids(replay.response) if i.endswith(":n")]
        if not following:
            return replay
        assert opener not in ids_of(replay.response), "only the last step links"
        replay = await member.click(replay.response.message, custom_id=following[0])


async def test_the_replay_links_to_the_review(world: World) -> None:
    game = await finished(world)
    bob, eve = game.players[1].actor, game.spectator
    opener = ids.review(game.game_id, 0, "o")
    replay = await last_step(game, bob, opener)
    assert replay.response is not None
    assert opener in ids_of(replay.response)
    opened = await bob.click(replay.response.message, custom_id=opener)
    assert opened.response is not None and opened.response.id != replay.response.id
    assert opened.response.embeds[0].title == f"Your review of High card #{game.game_id}"
    # Only a member who played the game is offered a review; a forged press is refused.
    watched = await last_step(game, eve, opener)
    assert watched.response is not None and opener not in ids_of(watched.response)
    stranger = await forge_click(eve, game.table_message, opener)
    assert "You did not play in game" in private_text(stranger)


async def test_a_long_review_turns_its_pages_in_place(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(review, "PAGE_SIZE", 1)
    game = await finished(world)
    alice = game.players[0].actor
    first = await alice.slash(game.channel, "review", game=game.game_id)
    assert first.response is not None
    assert first.response.embeds[0].footer.text == "Page 1 of 2"
    turned = await alice.click(first.response.message, custom_id=ids.review(game.game_id, 1, "n"))
    assert turned.response is not None and turned.response.id == first.response.id
    assert turned.response.embeds[0].footer.text == "Page 2 of 2"
    assert summary(turned) == EXPECTED_SUMMARY
    gone = await forge_click(alice, first.response, ids.review(game.game_id, 7, "n"))
    assert private_text(gone) == "That page of the review does not exist."


async def test_a_failed_review_says_so(
    world: World, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    game = await finished(world)

    def broken(*args: Any) -> Any:
        raise RuntimeError("the expert fell over")

    monkeypatch.setattr("bot.community.review_game", broken)
    alice = game.players[0].actor
    failed = await alice.slash(game.channel, "review", game=game.game_id)
    assert failed.response is not None
    assert failed.response.content == (
        f"Something went wrong reviewing game #{game.game_id}; it was logged. "
        "Please try /review again later."
    )
    assert world.bot.community.reviews.kept(game.game_id, 0) is None, "nothing kept"
    assert [r.getMessage() for r in caplog.records if r.name == "bot.review"] == [
        f"review of game {game.game_id} for player 0 failed"
    ]
    caplog.clear()  # the error logged is the point here


class _Response:
    def __init__(self, sent: list[str]) -> None:
        self.sent = sent

    async def send_message(self, content: str, **kwargs: Any) -> None:
        self.sent.append(content)


class _Interaction:
    """What :class:`bot.review.Reviews` reads of an interaction: its reply and edits."""

    id = 1
    locale = "en-US"
    message = None

    def __init__(self) -> None:
        self.sent: list[str] = []
        self.response = _Response(self.sent)

    async def edit_original_response(self, **fields: Any) -> None:
        self.sent.append(fields.get("content") or "page")


async def test_a_stop_during_a_review_says_so() -> None:
    """The bot stops (``Bot.close`` closes the community's reviews) while a review is being
    computed: the member waiting reads that, not "Reviewing…" for ever."""
    reviews = review.Reviews()
    release = threading.Event()

    def slow() -> Any:
        release.wait(60)
        raise RuntimeError("stopped")

    interaction = _Interaction()
    waiting = asyncio.create_task(
        reviews.show(interaction, UI, 7, 0, 0, slow, edit=False)  # type: ignore[arg-type]
    )
    while not interaction.sent:
        await asyncio.sleep(0)
    assert interaction.sent == ["Reviewing your game #7… This can take a minute."]
    await reviews.close()
    assert interaction.sent[-1] == (
        "The bot restarted before your review of game #7 was ready. Ask again with /review game:7."
    )
    release.set()
    waiting.cancel()


async def test_the_review_speaks_german(world: World, locales: dict[int, str]) -> None:
    game = await finished(world, locale="de", locales=locales)
    alice = game.players[0].actor
    result = await alice.slash(game.channel, "review", game=game.game_id)
    text = shown(result)
    assert result.response is not None
    assert result.response.embeds[0].title == f"Deine Analyse von Höchste Karte #{game.game_id}"
    assert summary(result) == (
        "0 von deinen 2 Entscheidungen haben der Wahl des Experten entsprochen oder waren "
        "gleich gut."
    )
    assert "**Stich 1** — du: " in text and " · Experte: " in text and "kostet ≈" in text
    assert re.search(r"≈\d+,\d", text), "a German decimal comma"


def test_a_finding_names_the_card_its_place_and_cost() -> None:
    line = review.finding_line(
        UI,
        review.Finding(
            0,
            UI.review_place(HIGHCARD.new_game(1)),
            *map(_play, ("2C", "AS")),
            0.5,
            "tricks",
            False,
        ),
        "en",
    )
    assert line == "**Trick 1** — you: 2♣ · expert: A♠ · costs ≈0.5 tricks"


def test_a_choice_the_expert_did_not_weigh_has_no_cost() -> None:
    """An expert choosing by rules of thumb (whist's opening leads) weighs no alternative:
    the line says so instead of inventing a cost."""
    finding = review.Finding(
        3, UI.review_place(HIGHCARD.new_game(1)), _play("2C"), _play("AS"), None, "tricks", False
    )
    assert review.finding_line(UI, finding, "en") == (
        "**Trick 1** — you: 2♣ · expert: A♠ (by its rules of thumb: no estimate)"
    )


def _play(code: str) -> Any:
    return HIGHCARD.parse_action(parse_card(code).code)
