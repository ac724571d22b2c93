"""No hidden information ever leaves the bot: a scan of every request body and log line
over whole games.

At each request (and each log line) the tables are recorded as they were at that instant
(:mod:`tests.bot.whole_game`). From the engine state of that moment:

- public now: the revealed trick waiting for its distribution and the last completed
  trick of the deal with who received what (or of the game, once it is over); after a
  deal is scored, that deal's identity cards and won hands, in its scoring message;
- private to a seat: its hand, its face-down choice, its identity card (until the deal
  is scored), its won cards only under ``memory = "open"``;
- nobody's, until scored: other seats' hands, choices and identity cards, and every won
  pile under ``memory = "strict"``.

- once a game is over, everything about it: ``/replay`` shows every hand and identity
  card of a finished game, privately.

Public payloads (channel messages, table edits, non-ephemeral responses) and log lines may
name only public cards; a member's private payloads only public cards and their own. The
scan reads cards as displayed (``10♠``) and as codes (``TS``) in text, and parses every
custom id by the bot's id grammar. Pictures are checked by what they were drawn from: every
uploaded file must be a picture the bot rendered, and the cards it was drawn from must be
ones its message's audience may see (a deal's scoring picture: exactly that scored deal).
The last tests plant leaks to show the scan sees them.
"""

from __future__ import annotations

import dataclasses
import logging
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

import pytest
import simcord

from bot import ids, suits
from bot.__main__ import PAYLOAD_LOGGERS, configure_logging
from bot.app import Bot
from bot.games.dupe.ui import UI as DUPE
from bot.i18n import LANGS, t
from engine.cards import DECK, Card, Suit
from engine.dupe import SEAT_NAMES, DealResult, DupeState, Phase, new_game
from tests.bot.driver import forge_click
from tests.bot.helpers import buttons
from tests.bot.i18n_scan import english_in
from tests.bot.whole_game import (
    Drawn,
    Game,
    Logged,
    Moment,
    Recorder,
    Sent,
    TableAt,
    open_table,
    play,
)

EPHEMERAL = 64

_SUIT_OF_SYMBOL = {suit.symbol: suit for suit in Suit}
_BY_TEXT = {str(card): card for card in DECK}
_BY_CODE = {card.code: card for card in DECK}
# A card as shown (“10♠”, “Q♥”) and as a code (“TS”, “QH”), not inside a longer word.
CARD_TEXT = re.compile(r"(?<![0-9A-Za-z])(?:10|[2-9JQKA])[♠♥♣♦]")
CARD_CODE = re.compile(r"(?<![0-9A-Za-z])[2-9TJQKA][SHDC](?![0-9A-Za-z])")
# The scan reads English and German (bot/locales): seat names, identity cards, dupes.
SEAT_OF_NAME = {t(lang, f"common.seat_{s}"): s for lang in LANGS for s in range(4)}
SEAT = "(" + "|".join(SEAT_OF_NAME) + ")"
IDENTITY = re.compile(r"(?:identity card|Identitätskarte)\W*([♠♥♣♦])", re.IGNORECASE)
DUPE_NAMED = re.compile(
    rf"{SEAT} is your dupe|{SEAT} \(your dupe\)|{SEAT} ist dein Dupe|{SEAT} \(dein Dupe\)"
)
OWN_DUPE = re.compile(r"your own dupe|dein eigener Dupe")
# A dupe as a person, not the game's name “Dupe”: lower case in English; in German after
# an article or a possessive.
DUPE_WORD = re.compile(r"\bdupe\b|\b(?:dein|deinen|deinem|der|den|ein|eigener|seinen) Dupe\b")
SCORED = re.compile(r"deal (\d) scored|Runde (\d) ausgewertet")
WON = ("Won:", "Gewonnen:")


def cards_in(text: str) -> set[Card]:
    """Return every card named in ``text``, as shown or as a code."""
    found = {_BY_TEXT[m] for m in CARD_TEXT.findall(text)}
    return found | {_BY_CODE[m] for m in CARD_CODE.findall(text)}


# --- what is public and what is private at a moment --------------------------------


def public_cards(state: DupeState | None) -> set[Card]:
    """Return the cards anyone may see now: the revealed trick and the last trick."""
    if state is None:
        return set()
    view = state.public_view()
    shown: set[Card] = set()
    if view.phase is Phase.DISTRIBUTE and view.revealed is not None:
        shown |= set(view.revealed)
    last = view.last_trick
    if last is not None:  # an earlier deal's last trick too: its scoring showed it all
        shown |= set(last.cards) | set(last.received)
    return shown


def finished_cards(tables: Iterable[TableAt]) -> set[Card]:
    """Return every card if a game of the moment is over (its replay shows them all)."""
    over = any(t.state is not None and t.state.is_over for t in tables)
    return set(DECK) if over else set()


def own_cards(table: TableAt, seat: int) -> set[Card]:
    """Return the cards only ``seat`` may see now."""
    state = table.state
    if state is None:
        return set()
    view = state.view(seat)
    mine = set(view.hand)
    if view.choice is not None:
        mine.add(view.choice)
    if view.won is not None:
        assert table.memory == "open", "the engine shows won cards under strict memory"
        mine |= set(view.won)
    return mine


@dataclass(frozen=True, slots=True)
class Payload:
    """One request body the bot sent, with its audience: None for everyone."""

    sent: Sent
    body: dict[str, Any]
    member: int | None
    route: str

    @property
    def public(self) -> bool:
        return self.member is None


def _owner(message: Any) -> int:
    meta = message.interaction_metadata or {}
    return int(meta["user"]["id"])


def audience(env: simcord.Env, sent: Sent) -> Payload | None:
    """Return the request's message body and who can see it (None: no message body)."""
    entry = sent.entry
    backend = env.backend
    parts = entry.path.strip("/").split("/")
    body = entry.json
    if entry.method in ("GET", "DELETE"):
        assert body is None, entry
        return None
    if parts[0] == "applications" and parts[-1] == "commands":
        return None  # command definitions: checked for cards in their own test
    assert isinstance(body, dict), entry
    if parts[0] == "interactions" and parts[-1] == "callback":
        record = backend.interactions[int(parts[1])]
        data = body.get("data") or {}
        if body["type"] in (4, 5):
            private = bool(int(data.get("flags") or 0) & EPHEMERAL)
            return Payload(sent, data, record.user_id if private else None, "callback")
        if body["type"] in (6, 7):
            source = backend.get_message(record.channel_id, record.source_message_id)
            member = _owner(source) if source.is_ephemeral else None
            return Payload(sent, data, member, "callback-update")
        if body["type"] == 9:  # a form (modal): only the presser sees it
            return Payload(sent, data, record.user_id, "callback-modal")
        raise AssertionError(f"unexpected interaction callback {body['type']}: {entry}")
    if parts[0] == "webhooks":
        record = backend.interactions[backend.interaction_tokens[parts[2]]]
        if entry.method == "POST" and len(parts) == 3:
            private = bool(int(body.get("flags") or 0) & EPHEMERAL)
            return Payload(sent, body, record.user_id if private else None, "followup")
        if entry.method == "PATCH" and parts[3] == "messages":
            message_id = record.message_id if parts[4] == "@original" else int(parts[4])
            assert message_id is not None, entry
            message = backend.get_message(record.channel_id, message_id)
            member = _owner(message) if message.is_ephemeral else None
            return Payload(sent, body, member, "webhook-edit")
    if parts[0] == "channels" and parts[2] == "messages" and entry.method in ("POST", "PATCH"):
        return Payload(sent, body, None, "channel")
    raise AssertionError(f"a request the scan does not know: {entry.method} {entry.path}")


# --- reading a payload ---------------------------------------------------------------


SUIT_OF_EMOJI = {name: suit for suit, name in suits.NAMES.items()}


def as_written(value: Any) -> Any:
    """Return a JSON value with its suits read back as the games write them (the bot shows
    them as its emojis or as outlines, :mod:`bot.suits`)."""
    if isinstance(value, str):
        return suits.read(value)
    if isinstance(value, dict):
        written = {k: as_written(v) for k, v in value.items()}
        emoji = written.get("emoji")
        name = emoji.get("name") if isinstance(emoji, dict) else None
        if name in SUIT_OF_EMOJI:  # a card button: the suit as its emoji, the rank as label
            written["label"] = f"{written.get('label') or ''}{SUIT_OF_EMOJI[name].symbol}"
        return written
    if isinstance(value, list):
        return [as_written(v) for v in value]
    return value


def strings(value: Any, key: str = "") -> Iterator[tuple[str, str]]:
    """Yield ``(key, text)`` for every string in a JSON value."""
    if isinstance(value, str):
        yield key, value
    elif isinstance(value, dict):
        for k, v in value.items():
            yield from strings(v, k)
    elif isinstance(value, list):
        for v in value:
            yield from strings(v, key)


def _scoring(embed: dict[str, Any], table: TableAt, problems: list[str], where: str) -> bool:
    """Check a deal's scoring embed shows exactly that scored deal; return whether it is
    one."""
    match = SCORED.search(str(embed.get("title") or ""))
    if match is None:
        return False
    deal = int(match.group(1) or match.group(2))
    state = table.state
    if state is None or len(state.results) < deal:
        problems.append(f"{where}: deal {deal} shown as scored before it was")
        return True
    result = state.results[deal - 1]
    owners = set()
    for fld in embed.get("fields") or []:
        heading = str(fld.get("name"))
        named = sorted({s for name, s in SEAT_OF_NAME.items() if name in heading})
        if len(named) != 1:
            continue
        owner = named[0]
        owners.add(owner)
        for line in str(fld.get("value")).splitlines():
            if line.startswith(WON) and cards_in(line) != set(result.won[owner]):
                problems.append(f"{where}: {SEAT_NAMES[owner]}'s won hand is not deal {deal}'s")
            for symbol in IDENTITY.findall(line):
                if _SUIT_OF_SYMBOL[symbol] != result.identities[owner]:
                    problems.append(
                        f"{where}: {SEAT_NAMES[owner]}'s identity card is not deal {deal}'s"
                    )
    # A scoring beside its picture gives only the totals (no seat's field); one in text
    # (its Details, a table without pictures, the replay) shows every seat.
    if owners and owners != {0, 1, 2, 3}:
        problems.append(f"{where}: the scoring of deal {deal} does not show every seat")
    return True


def seed_in(text: str, seeds: set[int]) -> bool:
    """Return whether ``text`` names one of the seeds (which would give away every deal)."""
    return any(re.search(rf"(?<!\d){seed}(?!\d)", text) for seed in seeds)


def check_payload(payload: Payload, seeds: set[int]) -> list[str]:
    """Return every leak in one payload."""
    problems: list[str] = []
    where = f"request {payload.sent.index} ({payload.route}, " + (
        "public)" if payload.public else f"private to {payload.member})"
    )
    body = dict(as_written(payload.body))
    tables = payload.sent.moment.values()
    embeds = list(body.pop("embeds", None) or [])
    scanned: list[Any] = [body]
    for embed in embeds:
        if not any(_scoring(embed, t, problems, where) for t in tables):
            scanned.append(embed)
    allowed: set[Card] = set() if payload.public else finished_cards(tables)
    seats: list[tuple[TableAt, int]] = []
    for table in tables:
        allowed |= public_cards(table.state)
        seat = table.seat_of(payload.member)
        if seat is not None:
            seats.append((table, seat))
            allowed |= own_cards(table, seat)
    if seed_in(str(payload.body), seeds):
        problems.append(f"{where}: a table's seed")
    for key, text in strings(scanned):
        if key == "custom_id":
            problems += check_custom_id(text, payload, seats, where)
            continue
        leaked = cards_in(text) - allowed
        if leaked:
            shown = " ".join(sorted(str(c) for c in leaked))
            problems.append(f"{where}: hidden card(s) {shown} in {key}: {text!r}")
        problems += check_identities(text, payload, seats, where)
    return problems


def cards_drawn(value: Any) -> Iterator[Card]:
    """Yield every card in a picture's arguments (cards, lists of them, records)."""
    if isinstance(value, Card):
        yield value
    elif isinstance(value, (list, tuple, set, frozenset)):
        for item in value:
            yield from cards_drawn(item)
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        for item in dataclasses.fields(value):
            yield from cards_drawn(getattr(value, item.name))


def check_picture(drawn: Drawn, member: int | None, where: str) -> list[str]:
    """Return the leaks in one picture, judged by what it was drawn from."""
    tables = list(drawn.moment.values())
    if drawn.kind == "scoring_picture":
        result = drawn.args[0]
        assert isinstance(result, DealResult)
        scored = any(
            t.state is not None
            and len(t.state.results) >= result.deal
            and t.state.results[result.deal - 1] == result
            for t in tables
        )
        return [] if scored else [f"{where}: a scoring picture of a deal not scored yet"]
    allowed = set() if member is None else finished_cards(tables)
    for table in tables:
        allowed |= public_cards(table.state)
        seat = table.seat_of(member)
        if seat is not None:
            allowed |= own_cards(table, seat)
    leaked = set(cards_drawn(drawn.args)) - allowed
    if leaked:
        shown = " ".join(sorted(map(str, leaked)))
        return [f"{where}: hidden card(s) {shown} drawn by {drawn.kind}"]
    return []


def check_pictures(env: simcord.Env, recorder: Recorder) -> list[str]:
    """Return the leaks in every file the bot uploaded."""
    problems = []
    for upload in recorder.uploaded:
        where = f"request {upload.request}: picture {upload.filename}"
        drawn = recorder.drawn.get(upload.data)
        if drawn is None:
            problems.append(f"{where}: a file the bot did not draw as a picture")
            continue
        payload = audience(env, recorder.sent[upload.request])
        assert payload is not None, where
        problems += check_picture(drawn, payload.member, where)
    return problems


def check_custom_id(
    custom_id: str, payload: Payload, seats: list[tuple[TableAt, int]], where: str
) -> list[str]:
    """Return the leaks in one button's custom id."""
    parsed = ids.parse(custom_id) or DUPE.legacy_id(custom_id)
    if parsed is None:
        return [f"{where}: a custom id outside the grammar: {custom_id!r}"]
    if not isinstance(parsed, ids.Control):
        return []  # lobby, “My hand”, leaderboard and replay buttons name no card
    if payload.public:
        return [f"{where}: a hand's button on a public message: {custom_id!r}"]
    mine = [t for t, s in seats if t.id == parsed.table and s == parsed.seat]
    if not mine:
        return [f"{where}: another seat's button: {custom_id!r}"]
    table = mine[0]
    state = table.state
    assert state is not None
    kind, rest = parsed.payload[:1], parsed.payload[1:]
    if kind == "p":
        card = _BY_CODE.get(rest)
        if card is None or card not in own_cards(table, parsed.seat):
            return [f"{where}: a button for a card the member does not hold: {custom_id!r}"]
    elif state.phase is not Phase.DISTRIBUTE or state.taker != parsed.seat:
        return [f"{where}: distribution buttons for a seat that is not the taker"]
    return []


def check_identities(
    text: str, payload: Payload, seats: list[tuple[TableAt, int]], where: str
) -> list[str]:
    """Return the identity cards (and dupes) ``text`` reveals to a wrong audience."""
    problems: list[str] = []
    named = IDENTITY.findall(text)
    dupes = [next(name for name in names if name) for names in DUPE_NAMED.findall(text)]
    own = OWN_DUPE.search(text) is not None
    if not payload.public and finished_cards(payload.sent.moment.values()):
        return problems  # a finished game's replay: every identity card may be shown
    if payload.public or not seats:
        if named or dupes or own or (payload.public and DUPE_WORD.search(text)):
            problems.append(f"{where}: an identity card or dupe shown to everyone: {text!r}")
        return problems
    # The member's own identity card in the deal being played (none once the game is over).
    playing = [(t.state, s) for t, s in seats if t.state is not None and not t.state.is_over]
    for symbol in named:
        if not any(_SUIT_OF_SYMBOL[symbol] == state.identity(s) for state, s in playing):
            problems.append(f"{where}: another seat's identity card {symbol}: {text!r}")
    for name in dupes:
        dupe = SEAT_OF_NAME[name]
        if not any(state.dupe(s) == dupe for state, s in playing):
            problems.append(f"{where}: a dupe that is not the member's: {text!r}")
    if own and not any(state.dupe(s) == s for state, s in playing):
        problems.append(f"{where}: “your own dupe” for a member who is not: {text!r}")
    return problems


def check_log(line: Logged, seeds: set[int]) -> list[str]:
    """Return the hidden information in one log line."""
    allowed: set[Card] = set()
    for table in line.moment.values():
        allowed |= public_cards(table.state)
    problems = []
    leaked = cards_in(line.text) - allowed
    if leaked:
        shown = " ".join(sorted(map(str, leaked)))
        problems.append(f"log {line.logger}: hidden card(s) {shown}: {line.text}")
    if IDENTITY.search(line.text) or DUPE_WORD.search(line.text):
        problems.append(f"log {line.logger}: an identity card or dupe: {line.text}")
    if seed_in(line.text, seeds):
        problems.append(f"log {line.logger}: a table's seed: {line.text}")
    return problems


def scan(env: simcord.Env, recorder: Recorder) -> tuple[list[str], list[Payload]]:
    """Return every leak in the recorded requests and log lines, and the payloads."""
    problems: list[str] = []
    payloads = [p for p in (audience(env, s) for s in recorder.sent) if p is not None]
    for payload in payloads:
        problems += check_payload(payload, recorder.seeds)
    for line in recorder.logged:
        problems += check_log(line, recorder.seeds)
    problems += check_pictures(env, recorder)
    return problems, payloads


# --- the games -------------------------------------------------------------------------


async def _side_trips(game: Game) -> None:
    """What members do besides playing: a spectator asks for a hand and the status, a
    player reopens the hand with /dupe hand and presses a stale card button."""
    spectator, first = game.spectator, game.players[0]
    refused = await spectator.slash(game.channel, "dupe hand")
    assert refused.ephemeral
    status = await spectator.slash(game.channel, "dupe status")
    assert status.ephemeral
    old = game.hand(first)
    assert old is not None
    stale = [b.custom_id for b in old.message.components[0].children if b.custom_id]
    reopened = await first.actor.slash(game.channel, "dupe hand")
    assert reopened.response is not None and reopened.ephemeral
    first.hand_id = reopened.response.id
    await play(game, until=lambda state: state.trick >= 3)
    # (the older message lost its buttons when the newer one replaced it: pressed as
    # it had them)
    again = await forge_click(first.actor, old, stale[0])
    assert again.response is not None and again.response.ephemeral
    assert again.response.content.startswith("⚠️")
    first.hand_id = old.id  # the bot now keeps this message up to date
    running = await spectator.slash(game.channel, "replay", game=game.game_id)
    assert running.ephemeral and not running.response.embeds
    hand = game.hand(first)
    assert hand is not None
    picture = ids.table_button(game.game_id, "pic")
    if any(b.custom_id == picture for b in buttons(hand.message)):
        drawn = await first.actor.click(hand.message, custom_id=picture)
        assert drawn.response is not None and drawn.ephemeral
        assert drawn.response.attachments


async def _after_the_game(game: Game) -> None:
    """What members look at once the game is over: the history, records and leaderboard in
    public or private, and the replay of the game, stepped through by a player and by a
    spectator."""
    spectator, last = game.spectator, game.players[-1].actor
    for who, command, options in (
        (spectator, "history", {}),
        (last, "stats", {}),
        (spectator, "leaderboard", {}),
    ):
        shown = await who.slash(game.channel, command, **options)
        assert shown.response is not None and shown.response.embeds, command
    for who in (last, spectator):
        replay = await who.slash(game.channel, "replay", game=game.game_id)
        assert replay.response is not None and replay.ephemeral
        page = replay.response
        for step in (":n", ":n", ":d2", ":d4", ":p"):  # Next, Next, Deal 2, Deal 4, Previous
            chosen = [b.custom_id for b in buttons(page) if (b.custom_id or "").endswith(step)]
            moved = await who.click(page, custom_id=chosen[0])
            assert moved.response is not None
            page = moved.response


# Long seeds, so that a seed in a message or log line is recognised as one.
# Two games are played in German (server and members): the scan reads both languages.
GAMES = [
    pytest.param(3_141_592_653_589, "strict", 1, None, True, None, id="1-human-strict-pictures"),
    pytest.param(2_718_281_828_459, "open", 1, 0, False, "de", id="1-human-open-late-german"),
    pytest.param(1_414_213_562_373, "strict", 4, 2, False, None, id="4-humans-strict-late"),
    pytest.param(
        1_732_050_807_568, "open", 4, None, True, "de", id="4-humans-open-pictures-german"
    ),
    pytest.param(2_236_067_977_499, "strict", 4, None, False, None, id="4-humans-strict"),
    pytest.param(1_618_033_988_749, "open", 1, None, False, None, id="1-human-open"),
]


@pytest.mark.parametrize(("seed", "memory", "humans", "idle", "pictures", "locale"), GAMES)
async def test_a_whole_game_leaks_nothing(
    env: simcord.Env,
    dupe_bot: Bot,
    recorder: Recorder,
    locales: dict[int, str],
    seed: int,
    memory: str,
    humans: int,
    idle: int | None,
    pictures: bool,
    locale: str | None,
) -> None:
    # Tables take the bot's setting for pictures: the trick and scoring pictures, and
    # their attachments' names, go through the same scan.
    dupe_bot.settings = dupe_bot.settings.model_copy(update={"pictures": pictures})
    game = await open_table(
        env,
        dupe_bot,
        humans=humans,
        memory=memory,
        seed=seed,
        locale=locale,
        locales=locales,
    )
    await _side_trips(game)
    await play(game, idle=idle)
    assert game.table is None, "the game did not finish"
    after = await game.players[-1].actor.slash(game.channel, "dupe status")
    assert after.ephemeral
    await _after_the_game(game)

    problems, payloads = scan(env, recorder)
    assert not problems, "\n".join(problems[:20])

    # The scan saw what it is about: public tables, private hands with their card
    # buttons, the four scorings, timeouts when a member was late, and log lines.
    assert sum(p.public for p in payloads) > 60
    private = [p for p in payloads if not p.public]
    assert {p.member for p in private} >= {pl.actor.id for pl in game.players}
    assert any(f"g:{game.game_id}:" in str(p.body) for p in private)
    if humans > 1:  # other members' hands are kept current through their own tokens
        assert any(p.route == "webhook-edit" for p in private)
    scorings = [p for p in payloads if p.public and SCORED.search(str(p.body))]
    assert len(scorings) == 4
    if pictures:  # the pictures were scanned with the rest, by name and by content
        names = [str(a.get("filename")) for p in payloads for a in p.body.get("attachments", [])]
        assert "trick.png" in names and "scoring-deal-1.png" in names, names
        kinds = {recorder.drawn[u.data].kind for u in recorder.uploaded}
        assert kinds == {"trick_picture", "scoring_picture", "hand_picture"}, kinds
    replays = [p for p in private if "rp:" in str(p.body)]
    assert {p.member for p in replays} == {game.players[-1].actor.id, game.spectator.id}
    if locale == "de":  # and everything members read was German
        english = english_in(text for p in payloads for _, text in strings(p.body))
        assert not english, english[:5]
        assert any("Runde" in str(p.body) for p in payloads if p.public)
        assert any("Stich" in str(p.body) for p in private)
    if idle is not None:
        assert any("time ran out" in line.text for line in recorder.logged)
    assert any(line.logger.startswith("discord") for line in recorder.logged)
    assert not [line for line in recorder.logged if line.level >= logging.ERROR]


async def test_at_log_level_debug_no_logger_writes_a_hidden_card(
    env: simcord.Env, dupe_bot: Bot, caplog: pytest.LogCaptureFixture
) -> None:
    # Every logger, as `python -m bot` sets them up for log_level = "DEBUG".
    saved = {name: logging.getLogger(name).level for name in PAYLOAD_LOGGERS}
    caplog.set_level(logging.DEBUG)
    try:
        configure_logging("DEBUG")
        with Recorder(env, dupe_bot, loggers=("",)) as recorder:
            game = await open_table(
                env, dupe_bot, humans=1, memory="strict", seed=6_022_140_857_747
            )
            await play(game, until=lambda state: state.deal == 2)
    finally:
        for name, level in saved.items():
            logging.getLogger(name).setLevel(level)
    problems = [p for line in recorder.logged for p in check_log(line, recorder.seeds)]
    assert not problems, "\n".join(problems[:10])
    assert {line.logger.split(".")[0] for line in recorder.logged} >= {"bot", "discord"}


async def test_command_definitions_name_no_card(env: simcord.Env) -> None:
    synced = [e for e in env.http_requests if e.path.endswith("/commands")]
    assert synced
    for entry in synced:
        for _key, text in strings(entry.json):
            assert not cards_in(text), text


# --- the scan sees leaks ------------------------------------------------------------------


def _moment(state: DupeState, seats: dict[int, int | None]) -> Moment:
    return {1: TableAt(1, "dupe", state.seed, "playing", state.options.memory, 120, seats, state)}


def _planted(moment: Moment, body: dict[str, Any], member: int | None) -> list[str]:
    planted = Payload(Sent(0, None, moment), body, member, "planted")  # type: ignore[arg-type]
    return check_payload(planted, {t.seed for t in moment.values()})


def _finish_tricks(state: DupeState, tricks: int) -> None:
    """Play ``tricks`` whole tricks with each seat's first legal action."""
    for _ in range(tricks):
        for seat in range(4):
            state.apply(seat, state.legal_actions(seat)[0])
        if state.phase is Phase.DISTRIBUTE:
            assert state.taker is not None
            state.apply(state.taker, state.legal_actions(state.taker)[0])


def test_the_scan_sees_planted_leaks() -> None:
    seed = 9_876_543_210_123
    state = new_game(seed)
    seats: dict[int, int | None] = {0: 100, 1: 101, 2: None, 3: None}
    moment = _moment(state, seats)
    north = state.hand(0)
    hand = {"content": f"Your hand: {' '.join(map(str, north))}"}
    # North's hand: private to North, a leak anywhere else, as shown or as a code.
    assert _planted(moment, hand, 100) == []
    assert _planted(moment, hand, None)
    assert _planted(moment, hand, 101)
    assert _planted(moment, {"embeds": [{"footer": {"text": f"({north[0].code})"}}]}, None)
    # A card button of North's on a public message, or in East's hand; an unknown id.
    button = ids.control(1, 0, 0, f"p{north[0].code}")
    row = {"components": [{"type": 1, "components": [{"custom_id": button, "label": "x"}]}]}
    assert _planted(moment, row, 100) == []
    assert _planted(moment, row, None)
    assert _planted(moment, row, 101)
    assert _planted(moment, {"components": [{"custom_id": "dupe:peek:1:TS"}]}, 100)
    # Identity cards and dupes: one's own privately, nobody's publicly.
    mine = f"Your identity card: {state.identity(0).symbol}"
    assert _planted(moment, {"content": mine}, 100) == []
    assert _planted(moment, {"content": mine}, None)
    other = next(s for s in Suit if s != state.identity(0))
    assert _planted(moment, {"content": f"Your identity card: {other.symbol}"}, 100)
    dupe = SEAT_NAMES[state.dupe(1)]
    assert _planted(moment, {"content": f"{dupe} is your dupe"}, 101) == []
    assert _planted(moment, {"content": f"{dupe} is East's dupe"}, None)
    wrong = next(n for n in SEAT_NAMES if n != dupe)
    assert _planted(moment, {"content": f"{wrong} is your dupe"}, 101)
    # A face-down choice stays hidden from the others until the reveal.
    state.apply(1, state.legal_actions(1)[0])
    chosen = state.choice(1)
    moment = _moment(state, seats)
    assert _planted(moment, {"content": f"East chose {chosen}"}, 101) == []
    assert _planted(moment, {"content": f"East chose {chosen}"}, 100)
    # Strict memory: won cards are nobody's to see; the last trick is everyone's.
    for seat in (0, 2, 3):
        state.apply(seat, state.legal_actions(seat)[0])
    if state.phase is Phase.DISTRIBUTE:
        assert state.taker is not None
        state.apply(state.taker, state.legal_actions(state.taker)[0])
    _finish_tricks(state, 2)
    moment = _moment(state, seats)
    last = public_cards(state)
    assert len(last) == 4
    assert _planted(moment, {"content": " ".join(map(str, last))}, None) == []
    hidden = [c for c in state.won_cards(0) if c not in last]
    assert hidden
    assert _planted(moment, {"content": f"Your won cards: {hidden[0]}"}, 100)
    # After the deal is scored its won hands are public, in its scoring message only.
    _finish_tricks(state, 10)
    assert len(state.results) == 1
    moment = _moment(state, seats)
    result = state.results[0]
    fields = [
        {
            "name": f"{SEAT_NAMES[s]}",
            "value": f"Identity card {result.identities[s].symbol}\n"
            f"Won: {' '.join(map(str, result.won[s]))}",
        }
        for s in range(4)
    ]
    scoring = {"embeds": [{"title": "Dupe — deal 1 scored", "fields": fields}]}
    assert _planted(moment, scoring, None) == []
    fields[0]["value"] = f"Won: {' '.join(map(str, state.hand(1)))}"
    assert _planted(moment, scoring, None)
    early = {"embeds": [{"title": "Dupe — deal 2 scored", "fields": fields}]}
    assert _planted(moment, early, None)
    # A log line naming a card in a hand.
    in_hand = state.hand(2)[0]
    assert check_log(Logged("bot", logging.INFO, f"S:{in_hand.code}", moment), {seed})
    assert check_log(Logged("bot", logging.INFO, "game 1: started", moment), {seed}) == []
    # The seed gives away every deal.
    assert check_log(Logged("bot", logging.INFO, f"seed={seed}", moment), {seed})
    assert _planted(moment, {"content": f"game {seed}1"}, None) == []
    assert _planted(moment, {"content": f"({seed})"}, 100)
