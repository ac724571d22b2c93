"""A leak scan for any game: what the engine says only one seat may see (``Game.secrets``)
must reach nobody else — no public message, no other member's private message, no
picture shown to others, no log line.

It reads the requests and log lines a :class:`~tests.bot.whole_game.Recorder` kept, each with
the tables as they were when it was made. A secret that is a card code (``QS``) is looked for
as a code and as shown (``Q♠``), as a whole word.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable

import simcord

from bot import games, ids
from bot.i18n import LANGS, catalogue, t
from engine.cards import parse_card
from engine.errors import ParseError
from engine.game import deciding_player, seat_count
from tests.bot.test_leaks import as_written, audience, cards_drawn, strings
from tests.bot.whole_game import Moment, Recorder, Sent

__all__ = ["hidden_from", "scan_duplicate_results", "scan_secrets", "turnups_repeated"]


SUIT_FIRST = frozenset({"dukes_up"})
"""Games that write cards suit first (``♠10``), as Dukes Up!'s board does."""


def _forms(secret: str, suit_first: bool = False) -> set[str]:
    try:
        card = parse_card(secret)
    except ParseError:
        return {secret}
    shown = str(card)
    forms = {card.code, shown}
    if suit_first:
        forms.add(shown[-1] + shown[:-1])
    return forms


def _stand_in_openings() -> tuple[str, ...]:
    """Return how each game's stand-in sentence opens, in every language (read once per
    catalogue: a scan asks for them once per line)."""
    global _openings_read
    entries = catalogue()
    if _openings_read[0] is not entries:  # a test game's catalogue came or went
        _openings_read = (entries, _read_openings(entries))
    return _openings_read[1]


_openings_read: tuple[object, tuple[str, ...]] = (None, ())


def _read_openings(entries: dict[str, dict[str, object]]) -> tuple[str, ...]:
    openings = []
    for key, texts in entries.items():
        if key.rpartition(".")[2].startswith("stand_in"):
            for text in texts.values():
                if isinstance(text, str):
                    openings.append(text.partition("{")[0])
    return tuple(o for o in openings if o)


def _without_stand_ins(text: str) -> str:
    """Return a private text without its stand-in lines: they tell the member which of
    their own cards a computer played for them, a card of a trick (or deal) that may be
    over by the time the member's hand is brought up to date."""
    openings = _stand_in_openings()
    return "\n".join(line for line in text.split("\n") if not line.startswith(openings))


_FINISHED_ROUND = re.compile(r":(?:deal|game)\d+$")


def _is_card(text: str) -> bool:
    try:
        parse_card(text)
    except ParseError:
        return False
    return True


def details_of_finished_round(env: simcord.Env, sent: Sent) -> bool:
    """Return whether the request answers a Details button (``bot.ids.Details``) under a
    post about a finished deal or game (``deal3``, ``game2``): the answer shows that
    round's cards, as the post does."""
    parts = sent.entry.path.strip("/").split("/")
    if parts[0] != "interactions" or parts[-1] != "callback":
        return False
    record = env.backend.interactions[int(parts[1])]
    if record.source_message_id is None:
        return False
    source = env.backend.get_message(record.channel_id, record.source_message_id)
    if source.is_ephemeral:
        return False
    for row in source.components or []:
        for button in row.get("components", []):
            pressed = ids.parse(str(button.get("custom_id") or ""))
            if isinstance(pressed, ids.Details) and _ROUND_POST.fullmatch(pressed.post):
                return True
    return False


_ROUND_POST = re.compile(r"(?:deal|game)\d+")


def hidden_from(moment: Moment, member: int | None) -> set[str]:
    """Return every secret of the moment's tables that ``member`` (``None``: everyone)
    may not see: the secrets of every hand the member does not decide for."""
    hidden: set[str] = set()
    for table in moment.values():
        state = table.state
        if state is None or state.is_over:
            continue
        game = games.get(table.game).game
        # Every hand's secrets, hidden from all but the member deciding for it (a dummy's
        # partner, say); a hand nobody decides for (a dead hand) keeps them from everyone.
        for hand in range(seat_count(state)):
            decider = deciding_player(state, hand)
            user = None if decider is None else table.seats.get(decider)
            if member is None or user is None or user != member:
                for secret in game.secrets(state, hand):
                    hidden |= _forms(secret, table.game in SUIT_FIRST)
    return hidden


def _found(texts: Iterable[str], hidden: set[str]) -> list[str]:
    if not hidden:
        return []
    pattern = re.compile(
        r"(?<![0-9A-Za-z])(?:" + "|".join(map(re.escape, sorted(hidden))) + r")(?![0-9A-Za-z])"
    )
    return [m.group(0) for text in texts for m in pattern.finditer(text)]


def channel_of(env: simcord.Env, sent: Sent) -> int | None:
    """Return the channel a request's message is in (an interaction's: its channel)."""
    backend = env.backend
    parts = sent.entry.path.strip("/").split("/")
    if parts[0] == "interactions":
        return backend.interactions[int(parts[1])].channel_id
    if parts[0] == "webhooks":
        return backend.interactions[backend.interaction_tokens[parts[2]]].channel_id
    if parts[0] == "channels":
        return int(parts[1])
    return None


def scan_secrets(
    env: simcord.Env, recorder: Recorder, channels: dict[int, int] | None = None
) -> tuple[list[str], int]:
    """Return every secret that reached a wrong audience, and how many payloads were read.

    With ``channels`` (each table's channel, by table id), a message counts only the
    secrets of the tables in its own channel: a duplicate match's tables deal the same
    trays, so a card public at one table is still held at another, and what one table's
    channel shows of its own play is what its spectators may see (§7)."""
    problems: list[str] = []
    read = 0
    for sent in recorder.sent:
        payload = audience(env, sent)
        if payload is None:
            continue
        read += 1
        moment = sent.moment
        if channels is not None:
            here = channel_of(env, sent)
            moment = {k: v for k, v in moment.items() if channels.get(k) == here}
        hidden = hidden_from(moment, payload.member)
        if _FINISHED_ROUND.search(str(payload.body.get("nonce") or "")) or (
            details_of_finished_round(env, sent)
        ):
            # A post about a finished deal or game (``<table>:deal3``, ``<table>:game2``),
            # or its Details, shows that round's cards, public once it is scored: a card
            # code there names a card of the finished round, not its twin in a hand of the
            # current one, so only the other secrets (parties, reservations…) are looked for.
            hidden = {h for h in hidden if not _is_card(h)}
        texts = [text for _, text in strings(as_written(payload.body))]
        if any(_TRAY_RESULTS.search(text) for text in texts):
            # A duplicate tray's results and records show the cards of a finished tray
            # (whom they may reach is :func:`scan_duplicate_results`' check).
            hidden = {h for h in hidden if not _is_card(h)}
        if payload.member is not None:
            texts = [_without_stand_ins(text) for text in texts]
        for secret in _found(texts, hidden):
            who = "everyone" if payload.member is None else f"member {payload.member}"
            problems.append(f"request {sent.index}: {secret} shown to {who}: {payload.body}")
    for line in recorder.logged:
        for secret in _found([line.text], hidden_from(line.moment, None)):
            problems.append(f"log {line.logger}: {secret}: {line.text}")
    for upload in recorder.uploaded:
        drawn = recorder.drawn.get(upload.data)
        if drawn is None:
            problems.append(f"request {upload.request}: a file the bot did not draw")
            continue
        payload = audience(env, recorder.sent[upload.request])
        assert payload is not None
        hidden = hidden_from(drawn.moment, payload.member)
        if _FINISHED_ROUND.search(str(payload.body.get("nonce") or "")):
            hidden = {h for h in hidden if not _is_card(h)}  # as for its text, above
        shown = {card.code for card in cards_drawn(drawn.args)} & hidden
        if shown:
            problems.append(f"a picture ({drawn.kind}) drew {sorted(shown)} for {payload.member}")
    return problems, read


_TRAY_RESULTS = re.compile(r"\*\*(?:Tray|Board) (\d+)(?:\*\*|: )")
"""How a duplicate tray's results open (``/whist duplicate results``: **Tray 3**; a
channel's post: **Tray 3: every table has finished it**), in English and German."""


@functools.cache
def _result_lines() -> re.Pattern[str]:
    """Return what a play's result looks like (``N-S 8, E-W 5 tricks``, ``not finished —
    the average (0)``), in every language."""
    forms = []
    for key in ("whist.dup_result_line", "whist.dup_result_average"):
        for text in catalogue()[key].values():
            body = re.escape(str(text).split("{where}", 1)[1])
            forms.append(body.replace(r"\{ns\}", r"\d+").replace(r"\{ew\}", r"\d+"))
    return re.compile("|".join(forms))


def _tray_progress(moment: Moment, tray: int) -> tuple[int, set[int], set[int]]:
    """Return how many tables of the moment have finished ``tray``, the members who sit at
    a table that has, and the members who sit at one that has not yet."""
    finished = 0
    done: set[int] = set()
    pending: set[int] = set()
    for table in moment.values():
        state = table.state
        if table.game != "whist_duplicate" or state is None:
            continue
        trays = state.options.trays
        if tray not in trays:
            continue
        members = {uid for uid in table.seats.values() if uid is not None}
        if trays.index(tray) < len(state.tray_results):
            finished += 1
            done |= members
        else:
            pending |= members
    return finished, done, pending


def scan_duplicate_results(
    env: simcord.Env, recorder: Recorder, plays_per_tray: int
) -> tuple[list[str], int]:
    """Return every duplicate tray's results that reached a wrong audience, and how many
    of them were read: a channel may see a tray's results only once all ``plays_per_tray``
    tables have finished it, a member only once every table where they sit has (and they
    sit at one). A table's result anywhere else — not under its tray's heading in the same
    message (``/whist duplicate status``, a part of a long ``results`` reply, any other
    post) — is a leak too."""
    problems: list[str] = []
    read = 0
    for sent in recorder.sent:
        payload = audience(env, sent)
        if payload is None:
            continue
        for _, text in strings(payload.body):
            first = _TRAY_RESULTS.search(text)
            for found in _result_lines().finditer(text):
                if first is None or found.start() < first.start():
                    problems.append(f"request {sent.index}: a result not under its tray: {text}")
            for found in _TRAY_RESULTS.finditer(text):
                tray = int(found.group(1))
                read += 1
                finished, done, pending = _tray_progress(sent.moment, tray)
                if payload.member is None:
                    if finished < plays_per_tray:
                        problems.append(f"request {sent.index}: tray {tray} posted early: {text}")
                elif payload.member not in done or payload.member in pending:
                    problems.append(
                        f"request {sent.index}: tray {tray} shown to member "
                        f"{payload.member} before they finished it: {text}"
                    )
    return problems, read


def _turned_up(card: str) -> set[str]:
    """Return how a table names ``card`` as the turned card, in every language (the text
    after the suit: `` (turned up: 7♥)``)."""
    phrases = set()
    for lang in LANGS:
        text = t(lang, "whist.trump_turnup", suit="\x00", card=card)
        phrases.add(text.split("\x00", 1)[1])
    return phrases


def turnups_repeated(env: simcord.Env, recorder: Recorder) -> tuple[list[str], int]:
    """Return every payload that names a whist deal's turned card as the turn-up after the
    dealer has played to trick 1 — public or private: from then on only the trump suit is
    shown, and the bot does not repeat the card on request (rules §1 Deal 3) — and how
    many payloads were read at such moments. The card itself may still be named where it
    was played (the trick, the last trick); two-hand's turned card lies face up all deal."""
    problems: list[str] = []
    read = 0
    for sent in recorder.sent:
        payload = audience(env, sent)
        if payload is None:
            continue
        phrases: set[str] = set()
        for table in sent.moment.values():
            state = table.state
            if table.game != "whist" or state is None or state.is_over:
                continue
            if state.turnup is not None and state.public_view().turnup is None:
                phrases |= _turned_up(str(state.turnup))
        if not phrases:
            continue
        read += 1
        texts = [text for _, text in strings(as_written(payload.body))]
        for phrase in sorted(phrases):
            if any(phrase in text for text in texts):
                who = "everyone" if payload.member is None else f"member {payload.member}"
                problems.append(f"request {sent.index}: {phrase!r} shown to {who}")
    return problems, read
