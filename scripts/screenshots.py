"""The README's screenshots, from the real bot: ``.venv/bin/python scripts/screenshots.py``.

The bot runs in simcord (the in-memory Discord the tests use) on a pinned seed, so every run
plays the same game: Alice types ``/dupe start``, Bob and Carol join, Alice starts (a
computer player takes the empty seat), the members open “My hand” and play until a trick is
revealed and, later, until the first deal is scored (Dave presses its Details); then Dave
asks for ``/dupe rules``. Then the same three open a Doppelkopf table in a channel of its
own and play its first game: its lobby, Alice's hand with its announcement button, a trick
on the table, the game's breakdown and its Details are photographed too. Then an English
Dummy whist table (the three deal with a computer nowhere: dummy is the fourth hand): the
table with dummy face up at dummy's first turn, the private hand of dummy's partner
offering dummy's cards, and the deal's score post once it is played out. Last, Alice and
Bob play Dukes Up! (the tests' scripted log up to Alice's turn 28, then clicks):
her proposal and the board after it.

Each screenshot is one message as simcord's preview renders it (the way Discord shows it,
pictures included). ``Preview.screenshot`` pins the message for one viewer exactly as for
simcord's own (Playwright) capture; instead of a browser session, this script writes the
pinned page as an HTML file (the preview's scripts and stylesheet inlined, the pinned
projection and its attachments embedded, the fonts in one shared stylesheet: nothing is
fetched). Debian's headless chromium photographs each file and Pillow trims the margin.

Public messages are seen by Dave, a member of the server who is not playing, so nothing
hidden can appear in them; the hand is Alice's own private (ephemeral) reply, as she sees it.

Writes ``build/screenshots/*.html`` (ignored by git) and ``docs/screenshots/*.png``;
``--html-only`` stops after the pages (no chromium needed). Needs ``simcord[preview]``.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import contextlib
import functools
import io
import json
import posixpath
import random
import re
import subprocess
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable, Iterator, Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # run as a file: make the project (bot, engine, tests) importable
    sys.path.insert(0, str(ROOT))

import aiohttp  # noqa: E402  (part of simcord's preview runtime)
import simcord  # noqa: E402
import simcord.preview  # noqa: E402
from PIL import Image, ImageChops  # noqa: E402
from simcord.backend.cdn import CDN_BASE  # noqa: E402
from simcord.preview import _markdown  # noqa: E402

from bot import ids, suits  # noqa: E402
from bot.pictures.signs import suit_sign_png  # noqa: E402
from engine.dupe import DupeState, Phase  # noqa: E402
from tests.bot.driver import Game, World  # noqa: E402
from tests.bot.helpers import act_once, make_bot  # noqa: E402

SEED = 20240611
"""The deal: the same game on every run (the tests' seed)."""
PLAY_SEED = 3
"""The members' choices (random, from this seed)."""
WIDTH = 760
"""The preview's width: about a Discord message column."""
HTML_DIR = ROOT / "build" / "screenshots"
PNG_DIR = ROOT / "docs" / "screenshots"
CHROMIUM = Path("/usr/bin/chromium")
PREVIEW_STATIC = Path(simcord.preview.__file__).with_name("static")
FONTS = (  # Latin text, italics, code and emoji; the other scripts' faces are left out
    "noto-sans-latin-v2.015.ttf",
    "noto-sans-latin-italic-v2.015.ttf",
    "noto-sans-mono-v2.014.ttf",
    "noto-color-emoji-v2.051.ttf",
)
FONT_SHEET = "preview-fonts.css"
"""The fonts, inlined in one stylesheet that every page links (a page opened from a file may
load a stylesheet from a file, but not a font)."""


@dataclass(frozen=True, slots=True)
class Shot:
    """One screenshot: a message, the member who sees it, the window height that fits it, and
    text the message must show (checked here and by the test)."""

    name: str
    viewer: simcord.MemberActor
    target: Any
    height: int
    expected: tuple[str, ...]
    channel: Any = None  # the channel the message is in, when not the world's


# --- the game -----------------------------------------------------------------------


def the_members(world: World) -> list[simcord.MemberActor]:
    """Return the members: Alice (the host), Bob and Carol play; Dave only watches."""
    return [
        world.guild.add_member(world.env.create_user(name.lower(), global_name=name))
        for name in ("Alice", "Bob", "Carol", "Dave")
    ]


async def play_scenes(
    world: World, members: list[simcord.MemberActor], shoot: Callable[[Shot], Awaitable[None]]
) -> None:
    """Play the pinned game; call ``shoot`` at each moment worth a picture."""
    alice, bob, carol, dave = members
    game, _ = await Game.open(world, alice, computers="random", pictures="on")
    for member in (bob, carol):
        await member.click(game.message, label="Join")
    await shoot(Shot("lobby", dave, game.message, 600, ("Dupe — a table is open", "Join")))

    await game.press(alice, "Start")
    players = (alice, bob, carol)
    for member in players:
        await game.open_hand(member)
    rng = random.Random(PLAY_SEED)

    def alice_chooses(trick: int) -> Callable[[DupeState], bool]:
        return lambda s: s.trick >= trick and s.phase is Phase.CHOOSE and 0 in s.to_act

    await game.play(players, rng, until=alice_chooses(3))
    hand = game.hands[alice.id]
    await shoot(Shot("hand", alice, hand, 600, ("Your identity card", "Choose a card")))

    await game.play(players, rng, until=lambda s: s.phase is Phase.DISTRIBUTE)
    await shoot(Shot("reveal", dave, game.message, 800, ("Revealed:", "takes the trick")))

    await game.play(players, rng, until=lambda s: s.deal == 2)
    (scoring,) = world.titled("Dupe — deal 1 scored")
    await shoot(Shot("scoring", dave, scoring, 1600, ("Dupe — deal 1 scored", "Totals")))
    details = await dave.click(scoring, custom_id=ids.details(game.id, "deal1"))
    assert details.response is not None and details.ephemeral
    words = ("Dupe — deal 1 scored", "Won:", "credited to")
    await shoot(Shot("scoring-details", dave, details.response, 1600, words))

    rules = await dave.slash(world.channel, "dupe rules")
    assert rules.response is not None and rules.ephemeral
    await shoot(Shot("rules", dave, rules.response, 1800, ("Worked example", "= 31")))

    await play_doppelkopf_scenes(world, members, shoot)
    await play_whist_scenes(world, members, shoot)
    await play_dukes_up_scenes(world, members, shoot)


WHIST_SEED = 21
"""The whist deal of the screenshots (the tests' English Dummy deal)."""
DUKES_UP_SEED = 10
"""The Dukes Up! deal of the screenshots (the tests' exhaustion seed)."""
DUKES_UP_TURN = 28
"""The turn photographed: Alice's, with six groups on the table and a proposal to show."""


async def _open_table(
    world: World,
    channel: Any,
    command: str,
    members: list[simcord.MemberActor],
    **options: Any,
) -> tuple[Any, dict[int, simcord.ResponseMessage]]:
    """Open a table in ``channel``: the first member hosts, the others join, the host
    starts; every member opens their hand. Return the live table and the hands by member."""
    opened = await members[0].slash(channel, f"{command} start", **options)
    assert opened.response is not None
    table = world.bot.controller.tables.table_in(channel.id)
    assert table is not None
    for member in members[1:]:
        await member.click(opened.response.message, custom_id=ids.table_button(table.id, "join"))
    await members[0].click(opened.response.message, custom_id=ids.table_button(table.id, "start"))
    public = next(m for m in channel.history() if m.id == table.message_id)
    hands = {}
    for member in members:
        shown = await member.click(public, custom_id=ids.table_button(table.id, "hand"))
        assert shown.response is not None
        hands[member.id] = shown.response
    return table, hands


async def play_whist_scenes(
    world: World, members: list[simcord.MemberActor], shoot: Callable[[Shot], Awaitable[None]]
) -> None:
    """English Dummy: Alice, Bob and Carol, one of them partnering dummy (North). Each plays
    their first legal card until dummy's turn: the table (dummy face up, the trick so far)
    and the private hand of dummy's partner, whose buttons are dummy's cards."""
    from engine.whist import NORTH

    alice, bob, carol, dave = members
    world.pin_seed(WHIST_SEED)
    channel = world.guild.create_text_channel("whist")
    players = [alice, bob, carol]
    table, hands = await _open_table(
        world, channel, "whist", players, variant="english_dummy", pictures="on"
    )
    by_seat = {table.seat_of(m.id): m for m in players}
    while table.state.to_play != NORTH:
        member = by_seat[table.decider(table.state.to_act[0])]
        hand = hands[member.id]
        card = next(b for b in live_buttons(hand) if b[0][:1] == "=" and len(b[0]) == 3)
        result = await member.click(hand.message, custom_id=card[1])
        if result.response is not None:
            hands[member.id] = result.response
    await world.env.advance_time(5)  # the table message's combined edit goes out
    message = next(m for m in channel.history() if m.id == table.message_id)
    words = ("North (dummy", "Trick")
    await shoot(Shot("whist-table", dave, message, 900, words, channel))
    partner = by_seat[table.decider(NORTH)]
    words = ("Dummy's turn", "Dummy you play")
    await shoot(Shot("whist-dummy", partner, hands[partner.id], 900, words, channel))
    while not table.state.results:  # the deal played out: its score post
        member = by_seat[table.decider(table.state.to_act[0])]
        hand = hands[member.id]
        card = next(b for b in live_buttons(hand) if b[0][:1] == "=" and len(b[0]) == 3)
        result = await member.click(hand.message, custom_id=card[1])
        if result.response is not None:
            hands[member.id] = result.response
    await world.env.advance_time(5)
    (post,) = [m for m in channel.history() if m.embeds and m.embeds[0].title == "Deal 1 scored"]
    await shoot(Shot("whist-deal", dave, post, 900, ("Deal 1 scored", "Totals"), channel))


def live_buttons(hand: simcord.ResponseMessage) -> list[tuple[str, str]]:
    """Return a private message's enabled controls as (payload, custom id)."""
    found = []
    for row in hand.message.components:
        for child in getattr(row, "children", []):
            parsed = ids.parse(getattr(child, "custom_id", None) or "")
            if isinstance(parsed, ids.Control) and not getattr(child, "disabled", False):
                found.append((parsed.payload, child.custom_id))
    return found


async def play_dukes_up_scenes(
    world: World, members: list[simcord.MemberActor], shoot: Callable[[Shot], Awaitable[None]]
) -> None:
    """Dukes Up!: Alice (Black) and Bob (Red) at a table in a channel of its own. The first
    27 turns are committed from the tests' scripted log (``tests.bot.dukes_up_positions``);
    then Alice draws, chooses ♠Q ♠J and presses Propose (her private panel, the changed
    groups marked ✳), accepts and discards; the board as Dave sees it."""
    from tests.bot.dukes_up_positions import placing_log, push

    alice, bob, _carol, dave = members
    world.pin_seed(DUKES_UP_SEED)
    channel = world.guild.create_text_channel("dukes-up")
    opened = await alice.slash(channel, "dukesup start", computers="none")
    lobby = opened.response
    assert lobby is not None
    table = world.bot.controller.tables.table_in(channel.id)
    assert table is not None
    game_id = table.id
    await bob.click(lobby.message, custom_id=ids.table_button(game_id, "join"))
    await alice.click(lobby.message, custom_id=ids.table_button(game_id, "start"))
    moves, _ = placing_log(DUKES_UP_SEED, stop_turn=DUKES_UP_TURN)
    await push(world.bot.controller.tables, game_id, {0: alice.id, 1: bob.id}, moves)
    message_id = world.bot.controller.tables.table(game_id).message_id

    def board() -> Any:
        return next(m for m in channel.history() if m.id == message_id)

    shown = await alice.click(board(), custom_id=ids.table_button(game_id, "hand"))
    hand = shown.response
    assert hand is not None

    async def control(payload: str, values: list[str] | None = None) -> None:
        point = world.bot.controller.tables.table(game_id).turn
        custom_id = ids.control(game_id, 0, point, payload)
        if values is None:
            await alice.click(hand.message, custom_id=custom_id)
        else:
            await alice.select(hand.message, values, custom_id=custom_id)

    await control("dd2")
    await control("cs", ["QS", "JS"])
    await control("prQS,JS")
    expected = ("Proposal for", "✳", "Accept")
    await shoot(Shot("dukes-up-proposal", alice, hand, 900, expected, channel))
    await control("acQS,JS")
    await control("dk", ["d1"])
    await control("dc1", ["3C"])
    expected = ("Dukes Up!", "(run)", "(set)", "G6")
    await shoot(Shot("dukes-up-board", dave, board(), 900, expected, channel))


DOPPELKOPF_SEED = 7
"""The Doppelkopf deal of the screenshots."""


async def play_doppelkopf_scenes(
    world: World, members: list[simcord.MemberActor], shoot: Callable[[Shot], Awaitable[None]]
) -> None:
    """Doppelkopf, in English and in German: three members and a computer at a table in a
    channel of its own, then the same in a German server of German-speaking members."""
    await play_doppelkopf_table(world, members, shoot, "en")
    german = world.env.create_guild("Doppelkopfrunde", preferred_locale="de")
    guests = [
        german.add_member(world.env.create_user(name.lower(), global_name=name))
        for name in ("Anna", "Ben", "Clara", "Dora")
    ]
    with german_members({m.id for m in guests}):
        await play_doppelkopf_table(world, guests, shoot, "de", guild=german)


@contextlib.contextmanager
def german_members(ids_: set[int]) -> Iterator[None]:
    """Give these members' interactions the Discord locale ``de`` (simcord writes ``en-US``)
    and every interaction its server's language, as Discord does."""
    from simcord import interactions

    build = interactions.base_payload

    def base_payload(backend: Any, **fields: Any) -> tuple[Any, dict[str, Any]]:
        record, payload = build(backend, **fields)
        if fields["user_id"] in ids_:
            payload["locale"] = "de"
        if fields.get("guild_id") is not None:
            payload["guild_locale"] = backend.get_guild(fields["guild_id"]).preferred_locale
        return record, payload

    interactions.base_payload = base_payload
    try:
        yield
    finally:
        interactions.base_payload = build


_DOKO_WORDS = {
    "en": {
        "lobby": ("Doppelkopf", "Join"),
        "hand": ("Your hand", "You may announce"),
        "trick": ("Trick", "Game:"),
        "end": ("Game 1:", "Card points", "Totals"),
        "details": ("Game 1:", "Hands", "Tricks"),
        "end_title": "Game 1:",
    },
    "de": {
        "lobby": ("Doppelkopf", "Beitreten"),
        "hand": ("Deine Hand", "Du darfst jetzt ansagen"),
        "trick": ("Stich", "Spiel:"),
        "end": ("Spiel 1:", "Augen", "Stand"),
        "details": ("Spiel 1:", "Blätter", "Stiche"),
        "end_title": "Spiel 1:",
    },
}


async def play_doppelkopf_table(
    world: World,
    members: list[simcord.MemberActor],
    shoot: Callable[[Shot], Awaitable[None]],
    lang: str,
    guild: Any = None,
) -> None:
    """A Doppelkopf table: the lobby, the first member's hand with its announcement button,
    a trick on the table, the breakdown of the first game (English shots ``doppelkopf-*``,
    German ones ``doppelkopf-*-de``, the lobby and trick in English only)."""
    host, second, third, watcher = members
    words = _DOKO_WORDS[lang]
    suffix = "" if lang == "en" else "-de"
    world.pin_seed(DOPPELKOPF_SEED)
    channel = (guild or world.guild).create_text_channel("doppelkopf")
    opened = await host.slash(channel, "doppelkopf start", computers="random", pictures="on")
    lobby = opened.response
    assert lobby is not None
    table = world.bot.controller.tables.table_in(channel.id)
    assert table is not None
    game_id = table.id

    def button(what: str) -> str:
        return ids.table_button(game_id, what)

    for member in (second, third):
        await member.click(lobby.message, custom_id=button("join"))
    if lang == "en":
        await shoot(Shot("doppelkopf-lobby", watcher, lobby.message, 600, words["lobby"], channel))
    await host.click(lobby.message, custom_id=button("start"))
    message_id = world.bot.controller.tables.table(game_id).message_id

    def table_message() -> Any:
        return next(m for m in channel.history() if m.id == message_id)

    hands = {}
    for member in (host, second, third):
        shown = await member.click(table_message(), custom_id=button("hand"))
        assert shown.response is not None
        hands[member.id] = shown.response
    tables = world.bot.controller.tables
    seats = {tables.table(game_id).seat_of(m.id): m for m in (host, second, third)}
    shot_hand, shot_trick = False, lang != "en"
    while True:
        live = tables.tables.get(game_id)
        state = live.state if live is not None else None
        if state is None or state.game_results:
            break
        member = seats[state.to_act[0]]
        hand = hands[member.id]
        if not shot_hand and member is host and state.phase == "play":
            shot = Shot(f"doppelkopf-hand{suffix}", host, hand, 700, words["hand"], channel)
            await shoot(shot)
            shot_hand = True
        trick = state.public_view().data["trick"] if state.phase == "play" else []
        if not shot_trick and len(trick) == 2:
            await world.env.advance_time(5)  # the table message's combined edit goes out
            await shoot(
                Shot("doppelkopf-trick", watcher, table_message(), 900, words["trick"], channel)
            )
            shot_trick = True
        await act_once(member, hand)
    await world.env.advance_time(5)
    post = next(
        m
        for m in channel.history()
        if m.embeds and (m.embeds[0].title or "").startswith(str(words["end_title"]))
    )
    await shoot(Shot(f"doppelkopf-end{suffix}", watcher, post, 2200, words["end"], channel))
    if lang == "en":  # the breakdown's Details, as the member watching sees them
        details = await watcher.click(post, custom_id=ids.details(game_id, "game1"))
        assert details.response is not None and details.ephemeral
        words_shown = words["details"]
        await shoot(
            Shot("doppelkopf-details", watcher, details.response, 2200, words_shown, channel)
        )


# --- the HTML pages -----------------------------------------------------------------


class HtmlCapture:
    """Stands in for simcord's Playwright capture: ``Preview.screenshot`` pins the page
    (viewer access, target, projection) as usual, and this writes it as an HTML file."""

    def __init__(self, preview: Any) -> None:
        self.preview = preview

    async def render(
        self, pin: Any, destination: Path, *, mode: str, allow_incomplete: bool
    ) -> dict[str, Any]:
        """Write ``pin`` as an HTML page at ``destination``; return the capture report."""
        assets = await self._assets(pin)
        destination.write_text(page_html(pin.snapshot, assets), encoding="utf-8")
        profile = dict(pin.profile)
        return {
            "path": str(destination),
            "published_revision": pin.published_revision,
            "render_generation": 0,
            "viewer_id": pin.viewer_id,
            "channel_id": pin.channel_id,
            "target_id": pin.target_id,
            "modal_id": pin.modal_id,
            "mode": mode,
            "output_width": profile.get("width", 0),
            "output_height": profile.get("height", 0),
            "complete": True,
            "ready": False,  # not rendered yet: chromium does that
            "calibrated": False,
            "calibration": {},
            "profile": profile,
            "geometry": {},
            "action": None,
            "media_metadata": {},
            "diagnostics": [],
        }

    async def _assets(self, pin: Any) -> dict[str, dict[str, Any]]:
        """Fetch the pinned page's assets from the preview, as the page itself would."""
        headers = {
            "X-Simcord-Capability": self.preview.capability,
            "X-Simcord-Context": pin.page.id,
        }
        out: dict[str, dict[str, Any]] = {}
        async with aiohttp.ClientSession(headers=headers) as http:
            for asset_id, manifest in pin.snapshot.get("assets", {}).items():
                if manifest.get("available") is False:
                    continue
                async with http.get(f"{self.preview._origin}/api/assets/{asset_id}") as response:
                    if response.status != 200:
                        continue
                    body = await response.read()
                    kept = {
                        key: value
                        for key, value in response.headers.items()
                        if key.startswith("X-") or key == "Content-Type"
                    }
                out[asset_id] = {"headers": kept, "body": base64.b64encode(body).decode()}
        return out

    async def close(self) -> None:
        """Nothing to release (simcord's own capture closes its browser here)."""


@contextlib.contextmanager
def embed_mentions() -> Iterator[None]:
    """Show ``<@id>`` in embed descriptions and field values as a mention, as Discord does
    (it renders them there, without notifying anyone); simcord 3.2.1's preview leaves them
    as raw text. The names come from simcord's own resolution for the viewer."""
    fields = ("embed_description", "embed_field_value")
    saved = {field: _markdown._FIELD_POLICIES[field]["mentions"] for field in fields}
    for field in fields:
        _markdown._FIELD_POLICIES[field]["mentions"] = True
    try:
        yield
    finally:
        for field, value in saved.items():
            _markdown._FIELD_POLICIES[field]["mentions"] = value


_IMPORT = re.compile(r"""(\bfrom\s*|\bimport\s*)(["'])\./([^"']+\.js)\2""")


@functools.cache
def _modules() -> dict[str, str]:
    """Return ``specifier -> data URL`` for the preview's ES modules, from app.js down; each
    relative import becomes a bare specifier that the page's import map resolves."""
    out: dict[str, str] = {}
    pending = ["app.js"]
    while pending:
        name = pending.pop()
        if f"simcord-preview/{name}" in out:
            continue
        folder = name.rsplit("/", 1)[0] + "/" if "/" in name else ""
        source = (PREVIEW_STATIC / name).read_text(encoding="utf-8")

        def bare(match: re.Match[str], folder: str = folder) -> str:
            target = posixpath.normpath(folder + match.group(3))
            pending.append(target)
            return f"{match.group(1)}{match.group(2)}simcord-preview/{target}{match.group(2)}"

        encoded = base64.b64encode(_IMPORT.sub(bare, source).encode()).decode()
        out[f"simcord-preview/{name}"] = f"data:text/javascript;base64,{encoded}"
    return out


@functools.cache
def _stylesheets() -> tuple[str, str]:
    """Return the preview's stylesheet without its fonts, and a stylesheet of the Latin and
    emoji fonts, inlined."""
    css = (PREVIEW_STATIC / "preview.css").read_text(encoding="utf-8")
    faces: list[str] = []

    def face(match: re.Match[str]) -> str:
        block = match.group(0)
        font = re.search(r'url\("/fonts/([^"]+)"\)', block)
        if font is not None and font.group(1) in FONTS:
            data = base64.b64encode((PREVIEW_STATIC / "fonts" / font.group(1)).read_bytes())
            faces.append(
                block.replace(font.group(0), f'url("data:font/ttf;base64,{data.decode()}")')
            )
        return ""

    return re.sub(r"@font-face\s*\{[^}]*\}", face, css), "\n".join(faces)


# The page answers the preview app's requests itself: the pinned projection, its assets and
# the diagnostics catalog. State polls never answer: the page is one frozen moment.
_SHIM = """
(() => {
  const frozen = JSON.parse(document.getElementById("frozen-preview").textContent);
  const json = (value, status = 200) => new Response(JSON.stringify(value),
    { status, headers: { "Content-Type": "application/json" } });
  window.fetch = async (input) => {
    const url = new URL(typeof input === "string" ? input : input.url, "http://preview.invalid/");
    const path = url.pathname;
    if (path === "/backend-diagnostics.json") return json(frozen.catalog);
    if (path === "/api/pages") return json(frozen.snapshot);
    if (path === "/api/state") return new Promise(() => {});
    if (path.startsWith("/api/assets/")) {
      const asset = frozen.assets[decodeURIComponent(path.slice("/api/assets/".length))];
      if (!asset) return json({ error: "asset-unavailable" }, 404);
      const bytes = Uint8Array.from(atob(asset.body), (c) => c.charCodeAt(0));
      return new Response(bytes, { status: 200, headers: asset.headers });
    }
    return json({ error: "a frozen preview page" }, 404);
  };
})();
"""
_FROZEN = re.compile(r'<script type="application/json" id="frozen-preview">(.*?)</script>')


def page_html(snapshot: Mapping[str, Any], assets: Mapping[str, Any]) -> str:
    """Return simcord's preview page for one pinned projection, with nothing to fetch."""
    index = (PREVIEW_STATIC / "index.html").read_text(encoding="utf-8")
    catalog = json.loads((PREVIEW_STATIC / "backend-diagnostics.json").read_text(encoding="utf-8"))
    frozen = json.dumps({"snapshot": snapshot, "assets": assets, "catalog": catalog})
    frozen = frozen.replace("<", "\\u003c")  # nothing in it can end the script element
    head = (
        f'<link rel="stylesheet" href="{FONT_SHEET}">\n'
        f"<style>{_stylesheets()[0]}</style>\n"
        f'<script type="application/json" id="frozen-preview">{frozen}</script>\n'
        f"<script>{_SHIM}</script>\n"
        f'<script type="importmap">{json.dumps({"imports": _modules()})}</script>'
    )
    stylesheet = '<link rel="stylesheet" href="/preview.css">'
    module = '<script type="module" src="/app.js"></script>'
    if stylesheet not in index or module not in index:
        raise RuntimeError("simcord's preview page is not the one this script knows (3.2.1)")
    index = index.replace(stylesheet, head)
    return index.replace(module, '<script type="module">import "simcord-preview/app.js";</script>')


def page_text(html: str) -> str:
    """Return the text of the messages embedded in a page written by :func:`page_html`."""
    match = _FROZEN.search(html)
    if match is None:
        raise ValueError("not a page written by page_html")
    strings: list[str] = []

    def walk(value: Any) -> None:
        if isinstance(value, str):
            strings.append(value)
        elif isinstance(value, Mapping):
            for item in value.values():
                walk(item)
        elif isinstance(value, list):
            for item in value:
                walk(item)

    walk(json.loads(match.group(1))["snapshot"]["messages"])
    return "\n".join(strings)


def emoji_assets(env: simcord.Env) -> dict[str, tuple[str, bytes]]:
    """Return the images of the bot's suit emojis by their CDN address, for the preview:
    simcord keeps an application emoji's name, not the image the bot uploaded, which is
    drawn here again the same way (``bot.pictures.signs``)."""
    names = {name: suit for suit, name in suits.NAMES.items()}
    found = {
        f"{CDN_BASE}/emojis/{emoji.id}.png": ("image/png", suit_sign_png(names[emoji.name]))
        for emoji in env.backend.application_emojis.values()
        if emoji.name in names
    }
    if len(found) != len(names):
        raise AssertionError(f"the bot registered {len(found)} suit emojis, not {len(names)}")
    return found


async def write_pages(html_dir: Path) -> list[tuple[Shot, Path]]:
    """Play the pinned game in simcord; write one HTML page per screenshot into ``html_dir``
    (and the pages' font stylesheet); return the shots and their pages."""
    html_dir.mkdir(parents=True, exist_ok=True)
    (html_dir / FONT_SHEET).write_text(_stylesheets()[1], encoding="utf-8")
    defaults = simcord.Env._settle_internal.__kwdefaults__
    idle = defaults["idle"]
    defaults["idle"] = 0.001  # as in tests/bot/conftest.py: settling only gets faster
    written: list[tuple[Shot, Path]] = []
    with tempfile.TemporaryDirectory(prefix="dupe-screenshots-") as scratch:
        db = Path(scratch) / "dupe.sqlite3"
        # pictures for /dupe rules (the table says "on" itself); the suits as the bot's emojis
        bot = make_bot(db, pictures=True, suit_emojis=True)
        env = simcord.Env(bot)
        env.backend.bot_user.name = "Parlour"  # the application's name, not simcord's “TestBot”
        await env.start()
        try:
            guild = env.create_guild("Dupe Club")
            channel = guild.create_text_channel("dupe")
            world = World(env=env, db=db, bot=bot, guild=guild, channel=channel)
            await env.settle()  # the bot has registered its suit emojis
            signs = emoji_assets(env)
            world.pin_seed(SEED)
            members = the_members(world)

            async def shoot(shot: Shot) -> None:
                page = html_dir / f"{shot.name}.html"
                # One preview per shot: while it is open it republishes on every event.
                where = shot.channel or channel
                viewers = members if shot.channel is None else [shot.viewer]
                preview = env.preview(
                    where, viewers=viewers, width=WIDTH, height=shot.height, assets=signs
                )
                async with preview:
                    preview._capture_manager = HtmlCapture(preview)  # pages, not Playwright
                    await preview.screenshot(page, viewer=shot.viewer, target=shot.target)
                text = page_text(page.read_text(encoding="utf-8"))
                missing = [expected for expected in shot.expected if expected not in text]
                if missing:
                    raise AssertionError(f"{shot.name}: the message does not show {missing}")
                written.append((shot, page))

            with embed_mentions():
                await play_scenes(world, members, shoot)
        finally:
            await env.shutdown()
            suits.as_written()  # simcord never closes the bot
            await bot.store.close()
            defaults["idle"] = idle
        env.raise_errors()
    return written


# --- the photographs ----------------------------------------------------------------


def chromium() -> Path:
    """Return Debian's chromium, installing the package if it is missing."""
    if not CHROMIUM.exists():
        print("installing Debian's chromium: apt-get install -y chromium", file=sys.stderr)
        install = ["apt-get", "install", "-y", "chromium"]
        if subprocess.run(install, check=False).returncode != 0:
            subprocess.run(["apt-get", "update"], check=True)  # no package lists yet
            subprocess.run(install, check=True)
    return CHROMIUM


def photograph(browser: Path, page: Path, png: Path, width: int, height: int) -> None:
    """Photograph ``page`` with headless chromium into ``png``, trimmed and optimized."""
    with tempfile.TemporaryDirectory(prefix="dupe-chromium-") as scratch:
        raw = Path(scratch) / "raw.png"
        profile = Path(scratch) / "profile"
        profile.mkdir()
        command = [
            str(browser),
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            f"--user-data-dir={profile}",
            "--hide-scrollbars",
            "--force-device-scale-factor=1",
            "--virtual-time-budget=10000",  # the app renders after the load event: wait for it
            f"--window-size={width},{height}",
            f"--screenshot={raw}",
            page.resolve().as_uri() + "#frozen",  # the preview app wants a capability fragment
        ]
        subprocess.run(command, check=True, capture_output=True, timeout=120)
        image = Image.open(raw).convert("RGB")
    image = trim(image, name=png.stem)
    buffer = io.BytesIO()
    image.quantize(256, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE).save(
        buffer, "PNG", optimize=True
    )
    png.write_bytes(buffer.getvalue())


def trim(image: Image.Image, *, name: str, margin: int = 16) -> Image.Image:
    """Cut the empty background around the message, keeping ``margin`` pixels of it; fail
    if the message reaches the window's bottom edge (the window is too short for it)."""
    background = Image.new("RGB", image.size, image.getpixel((image.width - 1, image.height - 1)))
    difference = ImageChops.difference(image, background).convert("L")
    box = difference.point(lambda v: 255 if v > 8 else 0).getbbox()
    if box is None:
        raise RuntimeError(f"{name}: chromium photographed an empty page")
    left, top, right, bottom = box
    if bottom >= image.height - 2:
        raise RuntimeError(f"{name}: the message does not fit in {image.height} pixels")
    return image.crop(
        (
            max(0, left - margin),
            max(0, top - margin),
            min(image.width, right + margin),
            min(image.height, bottom + margin),
        )
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--html-dir", type=Path, default=HTML_DIR, help="where the pages go")
    parser.add_argument("--out", type=Path, default=PNG_DIR, help="where the PNGs go")
    parser.add_argument("--html-only", action="store_true", help="write the pages only")
    args = parser.parse_args(argv)
    started = time.monotonic()
    pages = asyncio.run(write_pages(args.html_dir))
    for _shot, page in pages:
        print(f"wrote {page}")
    if args.html_only:
        return 0
    browser = chromium()
    args.out.mkdir(parents=True, exist_ok=True)
    pngs = [args.out / f"{shot.name}.png" for shot, _page in pages]
    with ThreadPoolExecutor(max_workers=len(pages)) as pool:
        jobs = [
            pool.submit(photograph, browser, page, png, WIDTH, shot.height)
            for (shot, page), png in zip(pages, pngs, strict=True)
        ]
        for job in jobs:
            job.result()
    for png in pngs:
        print(f"wrote {png} ({png.stat().st_size // 1024} KB)")
    print(f"done in {time.monotonic() - started:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
