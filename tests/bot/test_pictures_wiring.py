"""Pictures in the messages that exist: the trick on the table message, each deal's scoring,
a member's own hand on request (privately); none of it with pictures turned off."""

from __future__ import annotations

import io
import random

from PIL import Image

from bot import ids
from engine.dupe import Phase
from tests.bot.driver import Game, World, forge_click, ids_of, private_text


async def test_the_table_shows_the_trick_and_each_scoring_as_a_picture(world: World) -> None:
    (alice,) = world.members("alice")
    game, _ = await Game.open(world, alice, computers="random", pictures="on")
    await game.press(alice, "Start")
    await game.open_hand(alice)
    assert [a.filename for a in game.message.attachments] == []  # no trick yet
    rng = random.Random(3)
    await game.play([alice], rng, until=lambda s: s.trick == 2, strict=True)
    assert [a.filename for a in game.message.attachments] == ["trick.png"]
    await game.play([alice], rng, until=lambda s: s.deal == 2, strict=True)
    (scoring,) = world.titled("Dupe — deal 1 scored")
    assert [a.filename for a in scoring.attachments] == ["scoring-deal-1.png"]
    # The text says it all too: the picture is never the only way to read the scoring.
    assert "Totals" in [f.name for f in scoring.embeds[0].fields]


async def test_a_member_asks_for_a_picture_of_her_own_hand(world: World) -> None:
    alice, bob = world.members("alice", "bob")
    game, _ = await Game.open(world, alice, computers="random", pictures="on")
    await game.press(alice, "Start")
    hand = await game.open_hand(alice)
    assert ids.table_button(game.id, "pic") in ids_of(hand)
    shown = await alice.click(hand, label="🖼 Picture of my hand")
    answer = shown.response  # the deferred (“thinking…”) answer, completed with the file
    assert answer is not None and answer.ephemeral
    (picture,) = answer.attachments
    assert picture.filename == "hand.png"  # the name tells nothing
    data = await picture.read()
    assert Image.open(io.BytesIO(data)).format == "PNG"
    # Someone who is not seated gets no picture of anyone's hand.
    refused = await forge_click(bob, game.message, f"dupe:pic:{game.id}")
    assert "not playing at this table" in private_text(refused)


async def test_pictures_off_means_text_only(world: World) -> None:
    (alice,) = world.members("alice")
    game, _ = await Game.open(world, alice, computers="random", pictures="off")
    await game.press(alice, "Start")
    hand = await game.open_hand(alice)
    assert ids.table_button(game.id, "pic") not in ids_of(hand)
    assert "pictures off" in (game.message.embeds[0].footer.text or "")
    await game.play([alice], random.Random(4), until=lambda s: s.deal == 2, strict=True)
    assert game.state().phase is Phase.CHOOSE
    assert game.message.attachments == []
    (scoring,) = world.titled("Dupe — deal 1 scored")
    assert scoring.attachments == []


async def test_rules_show_the_worked_example_as_text_and_picture(
    world: World, locales: dict[int, str]
) -> None:
    world.bot.settings = world.bot.settings.model_copy(update={"pictures": True})
    alice, bruno = world.members("alice", "bruno")
    locales[bruno.id] = "de"
    shown = await alice.slash(world.channel, "dupe rules")
    assert shown.response is not None and shown.ephemeral
    text = shown.response.content
    assert "identity card" in text
    assert "Worked example from the rules" in text
    assert "Score: 5♦ × 5 (10–A) + 6 (4s) = 31" in text
    (attached,) = shown.response.attachments
    assert attached.filename == "rules-example.png"
    picture = Image.open(io.BytesIO(await attached.read()))
    assert picture.format == "PNG" and picture.width >= 800

    german = await bruno.slash(world.channel, "dupe rules")
    assert german.response is not None and german.ephemeral
    assert "Identitätskarte" in german.response.content
    assert "Punktzahl: 5♦ × 5 (10–A) + 6 (drei 4) = 31" in german.response.content
    (attached_de,) = german.response.attachments
    assert await attached_de.read() != await attached.read()  # its captions are German

    # A server whose defaults turn pictures off gets the text alone.
    await world.bot.store.set_defaults(
        world.guild.id, {"pictures": False}, alice.id, 0.0, game="dupe"
    )
    plain = await alice.slash(world.channel, "dupe rules")
    assert plain.response is not None and plain.response.attachments == []
    assert "= 31" in plain.response.content
