"""The suits as members see them: the application's own emojis, registered once, in buttons
and text; the outline suits where those cannot show or cannot be registered; and the
contrast of every sign on Discord's themes, measured with WCAG's formula."""

from __future__ import annotations

import asyncio
import io
import logging
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import discord
import pytest
import simcord
from PIL import Image

from bot import suits
from bot.app import Bot
from bot.controls import Button, Controls
from bot.game import Rendered
from bot.pictures import FELT, FELT_DARK, INK, PAPER, RED, RED_ON_FELT, TEXT, suit_mask
from bot.pictures.signs import SIGN_SIZE, sign_pip_box, suit_sign, suit_sign_png
from engine.cards import Suit
from tests.bot.driver import PLAY, Game, World, description
from tests.bot.helpers import buttons, make_bot, of_kind

# --- colours and the WCAG formula -------------------------------------------------------

Colour = tuple[float, float, float]

DARK = (49, 51, 56)  # #313338, Discord's dark theme behind messages
LIGHT = (255, 255, 255)  # the light theme
DARK_TEXT = (219, 222, 225)  # #DBDEE1, the dark theme's text
LIGHT_TEXT = (49, 51, 56)  # #313338, the light theme's text
# The button colours of simcord's preview (preview.css: .button-style-N, --button-alt) and
# Discord's: secondary, primary, success, danger; a label is white on each.
BUTTONS = {
    "secondary": (68, 69, 76),  # #44454c
    "primary": (88, 101, 242),  # #5865f2
    "success": (0, 133, 69),  # #008545
    "danger": (210, 45, 57),  # #d22d39
}
DISABLED_OPACITY = 0.45  # preview.css: .component-button[aria-disabled="true"]


def luminance(colour: Colour) -> float:
    """Return WCAG 2's relative luminance of an sRGB colour (0–255 channels)."""

    def linear(channel: float) -> float:
        c = channel / 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (linear(c) for c in colour)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: Colour, b: Colour) -> float:
    """Return WCAG 2's contrast ratio of two colours (1 to 21)."""
    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def over(top: Colour, under: Colour, opacity: float) -> Colour:
    """Return ``top`` drawn at ``opacity`` over ``under``."""
    return tuple(opacity * t + (1 - opacity) * u for t, u in zip(top, under, strict=True))  # type: ignore[return-value]


def sign_colours(suit: Suit, background: Colour, opacity: float = 1.0) -> tuple[Colour, Colour]:
    """Return the colours a member sees of ``suit``'s sign drawn on ``background`` (at
    ``opacity``, as a disabled button draws it over the theme's grey): its pip's, and the
    median of the card around the pip, from the sign's own pixels."""
    sign = suit_sign(suit)
    flat = Image.new("RGBA", sign.size, (*(round(c) for c in background), 255))
    flat.alpha_composite(sign)
    left, top, right, bottom = sign_pip_box()
    pip = suit_mask(suit, right - left, bottom - top)
    inside: list[tuple[int, ...]] = []
    around: list[tuple[int, ...]] = []
    for y in range(top, bottom):
        for x in range(left, right):
            coverage = pip.getpixel((x - left, y - top))
            if coverage == 255:
                inside.append(flat.getpixel((x, y)))
            elif coverage == 0 and sign.getpixel((x, y))[3] == 255:
                around.append(flat.getpixel((x, y)))

    def median(pixels: list[tuple[int, ...]]) -> Colour:
        return tuple(sorted(p[i] for p in pixels)[len(pixels) // 2] for i in range(3))  # type: ignore[return-value]

    return over(median(inside), background, opacity), over(median(around), background, opacity)


THEMES = {"dark": DARK, "light": LIGHT}


def test_every_suit_sign_reads_on_both_themes_and_every_button() -> None:
    figures: dict[str, float] = {}
    for suit in Suit:
        for theme, ground in THEMES.items():
            pip, card = sign_colours(suit, ground)
            figures[f"{suit.symbol} {theme}"] = contrast(pip, card)
            assert contrast(pip, card) >= 4.5, (suit, theme)
        # the card itself stands out of the dark theme's grey
        _, card = sign_colours(suit, DARK)
        assert contrast(card, DARK) >= 4.5
        for style, colour in BUTTONS.items():
            pip, card = sign_colours(suit, colour)
            assert contrast(pip, card) >= 4.5, (suit, style)
            # disabled: the whole button, sign and all, at 45 % over the theme's grey.
            # WCAG asks nothing of inactive controls; the sign still reads at 3 : 1.
            pip, card = (over(c, DARK, DISABLED_OPACITY) for c in sign_colours(suit, colour))
            figures[f"{suit.symbol} disabled {style}"] = contrast(pip, card)
            assert contrast(pip, card) >= 3.0, (suit, style)
    logging.getLogger(__name__).info("suit sign contrast: %s", figures)


def test_the_old_signs_failed_and_the_outline_suits_read() -> None:
    # Discord's ♠ ♣ emoji: near-black (Twemoji #292F33) on the dark theme
    assert contrast((41, 47, 51), DARK) < 1.5
    for text, ground in ((DARK_TEXT, DARK), (LIGHT_TEXT, LIGHT)):
        assert contrast(text, ground) >= 4.5  # ♤ ♡ ♢ ♧ are drawn in the text's colour
    for colour in BUTTONS.values():
        assert contrast((255, 255, 255), colour) >= 3.5  # a white label (♤ 10) on a button


def test_suit_signs_in_pictures_read_on_the_felt() -> None:
    for felt in (FELT, FELT_DARK):
        assert contrast(TEXT, felt) >= 4.5  # ♠ ♣ in text on the felt
        assert contrast(RED_ON_FELT, felt) >= 4.5  # ♥ ♦
    assert RED_ON_FELT[0] > max(RED_ON_FELT[1:]) + 60, "red suits stay red"
    assert contrast(INK, PAPER) >= 4.5 and contrast(RED, PAPER) >= 4.5  # on cards and chips


def test_each_sign_is_an_emoji_discord_takes() -> None:
    for suit in Suit:
        data = suit_sign_png(suit)
        assert len(data) < 256 * 1024
        image = Image.open(io.BytesIO(data))
        assert image.size == (SIGN_SIZE, SIGN_SIZE) and image.mode == "RGBA"
    assert len({suit_sign_png(s) for s in Suit}) == 4


# --- the mapping --------------------------------------------------------------------


@pytest.fixture(autouse=True)
def written_afterwards() -> Iterator[None]:
    """Leave the process showing the suits as written (simcord never closes a bot)."""
    yield
    suits.as_written()


@pytest.fixture
def emojis() -> Iterator[dict[Suit, int]]:
    ids = {Suit.SPADES: 101, Suit.HEARTS: 102, Suit.DIAMONDS: 103, Suit.CLUBS: 104}
    suits.show(emojis=ids)
    yield ids
    suits.as_written()


@pytest.fixture
def outlines() -> Iterator[None]:
    suits.show(emojis=None)
    yield
    suits.as_written()


def test_text_shows_the_emojis_where_discord_draws_them(emojis: dict[Suit, int]) -> None:
    assert suits.rich("N 10♠ · E Q♥") == "N 10<:spades:101> · E Q<:hearts:102>"
    assert suits.plain("♠ North") == "♤ North"
    # in code Discord shows the markup itself
    assert suits.rich("5♥ `5♥ × 5` ``♠`` 2♣") == "5<:hearts:102> `5♡ × 5` ``♤`` 2<:clubs:104>"
    assert suits.rich("```\nA♠\n```♦") == "```\nA♤\n```<:diamonds:103>"
    assert suits.read(suits.rich("10♠ 9♦ 2♣ A♥")) == "10♠ 9♦ 2♣ A♥"
    long = "10♠ " * 400  # 1,600 characters; as emojis more than Discord's 2,000
    assert suits.rich(long) == "10♤ " * 400


def test_a_card_button_has_its_suit_as_emoji_and_its_rank_as_label(
    emojis: dict[Suit, int],
) -> None:
    payload = Button(label="10♠", custom_id="x").to_component_dict()
    assert payload["label"] == "10"
    assert payload["emoji"] == {"name": "spades", "id": "101"}
    payload = Button(label="Q♣ ×2", custom_id="y", disabled=True).to_component_dict()
    assert (payload["label"], payload["emoji"]["id"]) == ("Q ×2", "104")
    assert "emoji" not in Button(label="Refresh", custom_id="z").to_component_dict()
    both = Button(label="♣♠", custom_id="w").to_component_dict()
    assert both["label"] == "♧♤" and "emoji" not in both


def test_a_rendered_message_maps_text_embeds_and_controls(emojis: dict[Suit, int]) -> None:
    embed = discord.Embed(title="Trick ♠", description="N 10♠")
    embed.add_field(name="♥ East", value="Q♥ 9♦")
    embed.set_footer(text="♣ leads")
    select = discord.ui.Select(
        options=[
            discord.SelectOption(label="♠5 ♠6", value="a", description="♦ run"),
            discord.SelectOption(label="♥Q", value="b"),
        ]
    )
    controls = Controls().add_item(Button(label="10♠", custom_id="c")).add_item(select)
    shown = Rendered(content="You chose 10♠", embeds=[embed], view=controls)
    assert shown.content == "You chose 10<:spades:101>"
    sent = shown.embeds[0].to_dict()
    assert sent["title"] == "Trick ♤"
    assert sent["description"] == "N 10<:spades:101>"
    field = sent["fields"][0]
    assert (field["name"], field["value"]) == ("♡ East", "Q<:hearts:102> 9<:diamonds:103>")
    assert sent["footer"]["text"] == "♧ leads"
    rows = shown.view.to_components() if shown.view else []
    group, card = rows[1]["components"][0]["options"]
    assert (group["label"], group["description"]) == ("♤5 ♤6", "♢ run")
    assert (card["label"], card["emoji"]) == ("Q", {"name": "hearts", "id": "102"})


def test_an_embed_that_would_outgrow_discord_keeps_outlines(emojis: dict[Suit, int]) -> None:
    embed = discord.Embed(description="A♠ " * 1000)
    for _ in range(3):
        embed.add_field(name="x", value="K♥ " * 300)
    suits.embed(embed)
    assert len(embed) <= 6000
    assert "<:" not in (embed.description or "")
    assert all("♡" in (f.value or "") for f in embed.fields)


def test_without_emojis_the_suits_are_outlines(outlines: None) -> None:
    assert suits.rich("10♠ Q♥") == "10♤ Q♡"
    payload = Button(label="10♠", custom_id="x").to_component_dict()
    assert payload["label"] == "10♤" and "emoji" not in payload


def test_as_written_nothing_changes() -> None:
    assert suits.rich("10♠") == "10♠"
    assert Button(label="10♠", custom_id="x").to_component_dict()["label"] == "10♠"


# --- the bot: registering once, using, falling back ------------------------------------


@pytest.fixture
def dupe_bot(db: Path) -> Bot:
    return make_bot(db, suit_emojis=True)


def app_emojis(env: simcord.Env) -> dict[str, int]:
    return {e.name: e.id for e in env.backend.application_emojis.values()}


async def test_the_emojis_are_registered_once_and_shown(world: World) -> None:
    env = world.env
    await env.settle()
    registered = app_emojis(env)
    assert sorted(registered) == ["clubs", "diamonds", "hearts", "spades"]
    alice, bob, carol = world.members("alice", "bob", "carol")
    game, _ = await Game.open(world, alice, computers="random")
    for member in (bob, carol):
        await game.press(member, "Join")
    await game.press(alice, "Start")
    hand = await game.open_hand(alice)
    cards = of_kind(hand, PLAY)
    assert cards and all(b.emoji is not None and b.emoji.id in registered.values() for b in cards)
    assert all(b.label and not any(s in b.label for s in "♠♥♦♣♤♡♢♧") for b in cards)
    assert f"<:{suits.NAMES[Suit.SPADES]}:{registered['spades']}>" in hand.content
    assert not any(s in hand.content for s in "♠♣")

    # A restart finds them by name: none is created twice.
    await world.restart(suit_emojis=True)
    await env.settle()
    assert app_emojis(env) == registered
    assert len(env.backend.application_emojis) == 4
    hand = await game.open_hand(alice)
    assert all(b.emoji is not None for b in of_kind(hand, PLAY))


async def test_a_slice_without_shard_zero_creates_none(world: World, db: Path) -> None:
    env = world.env
    await env.settle()
    before = app_emojis(env)
    for emoji_id in list(env.backend.application_emojis):
        env.backend.delete_application_emoji(emoji_id)
    bot = world.bot
    suits.show(emojis=None)  # as a starting bot shows them
    shown = await suits.register(bot, create=False, retry=False)
    assert not shown and env.backend.application_emojis == {}
    assert suits.current().emojis is None and suits.rich("10♠") == "10♤"
    assert await suits.register(bot, create=True)
    assert sorted(app_emojis(env)) == sorted(before)
    assert await suits.register(bot, create=False, retry=False)
    assert len(env.backend.application_emojis) == 4


async def test_when_discord_refuses_the_suits_are_outlines(
    world: World, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    env = world.env
    await env.settle()
    for emoji_id in list(env.backend.application_emojis):
        env.backend.delete_application_emoji(emoji_id)

    def refuse(*args: Any, **kwargs: Any) -> Any:
        from simcord.backend.errors import BackendError

        raise BackendError(403, 50013, "Missing Permissions")

    monkeypatch.setattr(env.backend, "create_application_emoji", refuse)
    await world.restart(suit_emojis=True)
    await env.settle()
    assert env.backend.application_emojis == {}
    assert "the suits stay text" in caplog.text
    alice, bob, carol = world.members("alice", "bob", "carol")
    game, _ = await Game.open(world, alice, computers="random")
    for member in (bob, carol):
        await game.press(member, "Join")
    await game.press(alice, "Start")
    hand = await game.open_hand(alice)
    cards = of_kind(hand, PLAY)
    assert cards and all(b.emoji is None for b in cards)
    assert all(any(s in (b.label or "") for s in "♤♡♢♧") for b in cards)
    assert not any(s in hand.content + description(game.message) for s in "♠♣♥♦")
    assert all(not any(s in (b.label or "") for s in "♠♣") for b in buttons(hand))


async def test_another_slice_finds_the_emojis_once_shard_zero_made_them(world: World) -> None:
    env = world.env
    await env.settle()
    registered = app_emojis(env)
    for emoji_id in list(env.backend.application_emojis):
        env.backend.delete_application_emoji(emoji_id)
    suits.show(emojis=None)
    waited: list[float] = []
    made = asyncio.Event()

    async def sleep(seconds: float) -> None:
        waited.append(seconds)
        await made.wait()

    looking = asyncio.get_running_loop().create_task(
        suits.register(world.bot, create=False, sleep=sleep)
    )
    await env.settle()
    assert not looking.done() and suits.rich("10♠") == "10♤"
    assert waited == [suits.RETRY_SECONDS[0]]
    for name in registered:  # shard 0's process, meanwhile
        env.backend.create_application_emoji(name)
    made.set()
    assert await looking
    assert suits.rich("10♠").startswith("10<:spades:")
    assert len(env.backend.application_emojis) == 4


SUIT_SYMBOLS = "♠♥♦♣"


def _texts(value: Any, key: str = "") -> Iterator[tuple[str, str]]:
    """Yield ``(key, text)`` for every string of a request body (custom ids left out)."""
    if isinstance(value, str):
        if key not in ("custom_id", "url", "proxy_url", "value"):
            yield key, value
    elif isinstance(value, dict):
        for k, v in value.items():
            yield from _texts(v, "value" if key == "options" and k == "value" else k)
    elif isinstance(value, list):
        for item in value:
            yield from _texts(item, key)


def assert_suits_drawn_by_the_bot(env: simcord.Env) -> None:
    """Check every message body the bot sent: one Discord accepts (its OpenAPI description,
    its limits), and not one ♠ ♥ ♦ ♣ in it, where Discord would draw its own dark emoji:
    each is the application's emoji where Discord draws it, an outline suit elsewhere."""
    from tests.discord_api_rules import check_request

    registered = {str(i) for i in app_emojis(env).values()}
    assert len(registered) == 4
    sent = [e for e in env.http_requests if e.json is not None and "/emojis" not in e.path]
    sent = [e for e in sent if not e.path.endswith("/commands")]
    assert len(sent) > 20
    problems = [p for e in sent for p in check_request(e.method, e.path, e.json)]
    assert not problems, "\n".join(problems[:10])
    drawn = [(e.path, k, text) for e in sent for k, text in _texts(e.json)]
    leftover = [(p, k, text) for p, k, text in drawn if any(s in text for s in SUIT_SYMBOLS)]
    assert not leftover, leftover[:5]
    code = [c for _p, _k, text in drawn for c in re.findall(r"`+[^`]*`+", text)]
    assert not [c for c in code if "<:" in c], "in code Discord shows the markup itself"
    shown = {m for _p, _k, text in drawn for m in re.findall(r"<:\w+:(\d+)>", text)}
    emoji_ids = {
        str(c["emoji"]["id"])
        for e in sent
        for c in _components(e.json)
        if isinstance(c.get("emoji"), dict) and c["emoji"].get("id")
    }
    assert shown and emoji_ids, "the emojis are used in text and on buttons"
    assert (shown | emoji_ids) <= registered


@pytest.mark.parametrize("game_name", ["dupe", "doppelkopf", "whist"])
async def test_every_game_sends_no_suit_discord_draws_itself(
    env: simcord.Env, dupe_bot: Bot, game_name: str
) -> None:
    from tests.bot.whole_game import open_table, play

    await env.settle()
    moves = 0

    def enough(_state: Any) -> bool:
        nonlocal moves
        moves += 1
        return moves > 40

    game = await open_table(env, dupe_bot, humans=2, seed=5, game=game_name, pictures="off")
    await play(game, until=enough)
    actor = game.players[0].actor
    await actor.slash(game.channel, f"{game_name} rules")
    await actor.slash(game.channel, f"{game_name} status")
    assert_suits_drawn_by_the_bot(env)


async def test_dukes_up_sends_no_suit_discord_draws_itself(world: World) -> None:
    from tests.bot.test_dukes_up_table import open_match, play_turn

    await world.env.settle()
    match = await open_match(world)
    for seat in (0, 1):  # each chooses a duke and two more of the setup cards
        cards = [c.code for c in match.state.view(seat).setup]
        await match.choose(seat, "sc", [cards[0]])
        await match.choose(seat, f"sd{cards[0]}", cards[1:3])
        await match.press(seat, f"su{cards[0]}.{cards[1]}.{cards[2]}")
    for number in range(6):
        await play_turn(match, match.state.to_act[0], number)
    await match.members[0].slash(world.channel, "dukesup rules")
    assert_suits_drawn_by_the_bot(world.env)


def _components(body: Any) -> Iterator[dict[str, Any]]:
    if isinstance(body, dict):
        if body.get("type") in (2, 3):
            yield body
        for value in body.values():
            yield from _components(value)
    elif isinstance(body, list):
        for item in body:
            yield from _components(item)


async def test_with_the_emojis_a_whole_game_leaks_nothing(
    env: simcord.Env, dupe_bot: Bot, recorder: Any
) -> None:
    """The leak scans read the suits as members see them (``bot.suits.read``): a whole Dupe
    game and Doppelkopf's first tricks with the emojis shown leak no hidden card."""
    from tests.bot.secrets_scan import scan_secrets
    from tests.bot.test_leaks import SCORED, as_written, scan
    from tests.bot.whole_game import open_table, play

    await env.settle()
    game = await open_table(env, dupe_bot, humans=2, memory="strict", seed=77)
    await play(game)
    assert game.table is None, "the game did not finish"
    problems, payloads = scan(env, recorder)
    assert not problems, "\n".join(problems[:20])
    assert any("<:spades:" in str(p.body) for p in payloads if not p.public)
    scorings = [p for p in payloads if p.public and SCORED.search(str(as_written(p.body)))]
    assert len(scorings) == 4

    moves = 0

    def enough(_state: Any) -> bool:
        nonlocal moves
        moves += 1
        return moves > 30

    other = await open_table(env, dupe_bot, humans=3, seed=3, game="doppelkopf", pictures="off")
    await play(other, until=enough)
    problems, read = scan_secrets(env, recorder)
    assert not problems, problems[:10]
    assert read > 50


def test_the_leak_scan_sees_a_card_shown_as_an_emoji_or_an_outline() -> None:
    from engine.dupe import new_game
    from tests.bot.test_leaks import _moment, _planted

    state = new_game(9_876_543_210_123)
    moment = _moment(state, {0: 100, 1: 101, 2: None, 3: None})
    card = state.hand(0)[0]
    suit = card.suit
    for shown in (f"{card.rank}<:{suits.NAMES[suit]}:123>", f"{card.rank}{suits.OUTLINE[suit]}"):
        assert _planted(moment, {"content": f"Your hand: {shown}"}, 100) == []
        assert _planted(moment, {"content": f"Your hand: {shown}"}, 101)
    button = {"type": 2, "label": str(card.rank), "emoji": {"name": suits.NAMES[suit]}}
    row = {"components": [{"type": 1, "components": [button]}]}
    assert _planted(moment, row, 100) == []
    assert _planted(moment, row, None), "a card button read as rank and suit"


@pytest.mark.parametrize(
    ("shards", "creates"),
    [
        ({}, True),
        ({"shard_count": 2, "shard_ids": [0]}, True),
        ({"shard_count": 2, "shard_ids": [1]}, False),
    ],
)
async def test_only_the_process_of_shard_zero_creates_the_emojis(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, shards: dict[str, Any], creates: bool
) -> None:
    asked: list[bool] = []

    async def register(client: Any, *, create: bool) -> bool:
        asked.append(create)
        return False

    monkeypatch.setattr(suits, "register", register)
    bot = make_bot(tmp_path / "x.sqlite3", suit_emojis=True, **shards)
    bot._show_suits()  # start-up: outlines at once, the emojis looked for in the background
    assert suits.rich("10♠") == "10♤"
    await asyncio.sleep(0)
    assert asked == [creates]
    off = make_bot(tmp_path / "y.sqlite3", suit_emojis=False)
    off._show_suits()
    assert suits.rich("10♠") == "10♠"


async def test_after_an_error_of_discords_own_the_emojis_are_looked_for_again(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    from types import SimpleNamespace

    await world.env.settle()
    suits.show(emojis=None)
    bot = world.bot
    fetch = bot.fetch_application_emojis
    failures = [discord.DiscordServerError(SimpleNamespace(status=503, reason="down"), "down")]

    async def flaky() -> Any:
        if failures:
            raise failures.pop()
        return await fetch()

    monkeypatch.setattr(bot, "fetch_application_emojis", flaky)
    waited: list[float] = []

    async def sleep(seconds: float) -> None:
        waited.append(seconds)

    assert await suits.register(bot, create=True, sleep=sleep)
    assert waited == [suits.RETRY_SECONDS[0]]
    assert suits.rich("10♠").startswith("10<:spades:")
    assert len(world.env.backend.application_emojis) == 4
