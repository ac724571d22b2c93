"""Custom ids: every button's meaning, built and parsed here and nowhere else.

A custom id carries everything a button means, so a button pressed after a restart, or on
a message sent days ago, is understood exactly (read by ``bot.buttons.read``);
whether it is still valid is decided when it is pressed, never by the id alone. Discord
allows 100 characters; ours stay well below (a table id has at most 18 digits):

- ``t:<table>:<what>`` a table-wide button: ``join leave addcpu start cancel`` in the lobby,
  ``hand`` (a fresh private hand), ``refresh`` (the private message pressed, brought up to
  date), ``pic`` (a picture of one's hand), ``rematch``;
- ``g:<table>:<seat>:<turn>:<payload>`` a private control of one seat at one decision
  point (``turn``, see ``engine.game.State.turn``); the payload is the game's own
  (``p5H`` plays ♥5 in Dupe), letters, digits and ``, . _ + = -`` only. A select menu
  and a form (a modal) carry such an id too; what was chosen or typed in them reaches the
  game after the payload (:func:`with_values`);
- ``lb:<guild>:<game>:<sort>:<page>`` a leaderboard page;
- ``rp:<table>:<step>:<tag>`` a replay page;
- ``rv:<table>:<page>:<tag>`` a page of the presser's review of a finished game (``o``
  opens it from the replay, ``p n`` turn its pages);
- ``dt:<table>:<post>`` the Details button under a table's public post ``post`` (its key,
  ``game3``, ``deal2``: ``GameUI.owed``), answered privately with the post's full detail;
- ``h:<table>:<seat>:<turn>`` the Hint button in a seat's hand at decision point ``turn``
  (a table with hints on, ``bot.hints``), answered privately with the expert's advice.

Ids from before this scheme (``dupe:play:…``) are a game's own affair: its bot package
reads them (``GameUI.legacy_id``) into these same values.
"""

from __future__ import annotations

import re
from typing import NamedTuple

__all__ = [
    "MAX_LENGTH",
    "TABLE_BUTTONS",
    "VALUES",
    "Control",
    "Details",
    "Hint",
    "LeaderboardPage",
    "Parsed",
    "ReplayPage",
    "ReviewPage",
    "TableButton",
    "control",
    "details",
    "hint",
    "leaderboard",
    "parse",
    "replay",
    "review",
    "split_values",
    "table_button",
    "with_values",
]

MAX_LENGTH = 100
"""Discord's limit for a custom id."""
TABLE_BUTTONS = (
    "join",
    "leave",
    "addcpu",
    "start",
    "cancel",
    "hand",
    "refresh",
    "pic",
    "rematch",
    "handover",
)
PAYLOAD = r"[A-Za-z0-9,._+=\-]{0,64}"
SORTS = ("rating", "wins", "points")


class TableButton(NamedTuple):
    """A table-wide button: ``what`` is one of :data:`TABLE_BUTTONS`."""

    table: int
    what: str


class Control(NamedTuple):
    """A private control of ``seat`` at decision point ``turn``; ``payload`` is the game's.

    ``legacy`` marks an id from before this scheme, whose ``turn`` counts what the game
    counted then (Dupe: the trick's number in the game); see ``GameUI.legacy_turn``.
    """

    table: int
    seat: int
    turn: int
    payload: str
    legacy: bool = False


class LeaderboardPage(NamedTuple):
    """A page of a server's leaderboard of one game, sorted by ``sort``."""

    guild: int
    game: str
    sort: str
    page: int


class ReplayPage(NamedTuple):
    """A step of a finished game's replay; ``tag`` says which button (``p n d1…``)."""

    table: int
    step: int
    tag: str


class ReviewPage(NamedTuple):
    """A page of the presser's review of a finished game; ``tag`` says which button
    (``o`` opens the review from the replay, ``p n`` turn its pages)."""

    table: int
    page: int
    tag: str


class Details(NamedTuple):
    """The Details button under public post ``post`` (its key, ``game3``) of a table."""

    table: int
    post: str


class Hint(NamedTuple):
    """The Hint button of ``seat``'s hand at decision point ``turn``."""

    table: int
    seat: int
    turn: int


Parsed = TableButton | Control | LeaderboardPage | ReplayPage | ReviewPage | Details | Hint

_ID = r"\d{1,18}"
TABLE_RE = re.compile(rf"t:(?P<table>{_ID}):(?P<what>{'|'.join(TABLE_BUTTONS)})")
CONTROL_RE = re.compile(
    rf"g:(?P<table>{_ID}):(?P<seat>\d{{1,2}}):(?P<turn>\d{{1,6}}):(?P<payload>{PAYLOAD})"
)
LEADERBOARD_RE = re.compile(
    rf"lb:(?P<guild>\d{{1,20}})(?::(?P<game>[a-z_]{{1,20}}):(?P<sort>{'|'.join(SORTS)}))?"
    r":(?P<page>\d{1,6})"
)
REPLAY_RE = re.compile(rf"rp:(?P<table>{_ID}):(?P<step>\d{{1,5}}):(?P<tag>p|n|r|d\d{{1,3}})")
REVIEW_RE = re.compile(rf"rv:(?P<table>{_ID}):(?P<page>\d{{1,4}}):(?P<tag>[opn])")
POST = r"[a-z]{1,12}\d{0,4}"
"""A public post's key, as games name them (``game3``, ``deal12``)."""
DETAILS_RE = re.compile(rf"dt:(?P<table>{_ID}):(?P<post>{POST})")
HINT_RE = re.compile(rf"h:(?P<table>{_ID}):(?P<seat>\d{{1,2}}):(?P<turn>\d{{1,6}})")


def table_button(table: int, what: str) -> str:
    """Return the custom id of a table-wide button."""
    if what not in TABLE_BUTTONS:
        raise ValueError(f"{what!r} is not a table button")
    return f"t:{table}:{what}"


_PAYLOAD_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789,._+=-")


def control(table: int, seat: int, turn: int, payload: str) -> str:
    """Return the custom id of a private control; the payload must fit :data:`PAYLOAD`."""
    if len(payload) > 64 or not _PAYLOAD_CHARS.issuperset(payload):
        raise ValueError(f"{payload!r} cannot be a control's payload")
    return f"g:{table}:{seat}:{turn}:{payload}"


def leaderboard(guild: int, game: str, sort: str, page: int) -> str:
    """Return the custom id of a leaderboard page button."""
    return f"lb:{guild}:{game}:{sort}:{page}"


def replay(table: int, step: int, tag: str) -> str:
    """Return the custom id of a replay button."""
    return f"rp:{table}:{step}:{tag}"


def review(table: int, page: int, tag: str) -> str:
    """Return the custom id of a review button."""
    return f"rv:{table}:{page}:{tag}"


def details(table: int, post: str) -> str:
    """Return the custom id of the Details button under a table's public post ``post``."""
    if not re.fullmatch(POST, post):
        raise ValueError(f"{post!r} cannot be a post's key")
    return f"dt:{table}:{post}"


def hint(table: int, seat: int, turn: int) -> str:
    """Return the custom id of the Hint button of a seat's hand."""
    return f"h:{table}:{seat}:{turn}"


def parse(custom_id: str, default_game: str = "dupe") -> Parsed | None:
    """Return what ``custom_id`` means, or ``None`` if it is none of ours.

    A leaderboard id without a game (from before there were several) is ``default_game``'s.
    """
    if len(custom_id) > MAX_LENGTH:
        return None
    if m := CONTROL_RE.fullmatch(custom_id):
        return Control(int(m["table"]), int(m["seat"]), int(m["turn"]), m["payload"])
    if m := TABLE_RE.fullmatch(custom_id):
        return TableButton(int(m["table"]), m["what"])
    if m := LEADERBOARD_RE.fullmatch(custom_id):
        return LeaderboardPage(
            int(m["guild"]), m["game"] or default_game, m["sort"] or "points", int(m["page"])
        )
    if m := REPLAY_RE.fullmatch(custom_id):
        return ReplayPage(int(m["table"]), int(m["step"]), m["tag"])
    if m := REVIEW_RE.fullmatch(custom_id):
        return ReviewPage(int(m["table"]), int(m["page"]), m["tag"])
    if m := DETAILS_RE.fullmatch(custom_id):
        return Details(int(m["table"]), m["post"])
    if m := HINT_RE.fullmatch(custom_id):
        return Hint(int(m["table"]), int(m["seat"]), int(m["turn"]))
    return None


VALUES = "\x1f"
"""Separates a control's payload from the values chosen in its select menu or typed in its
form, as the game's ``GameUI.control`` receives them (no payload holds it)."""


def with_values(payload: str, values: list[str] | tuple[str, ...]) -> str:
    """Return ``payload`` followed by the ``values`` a select menu or a form sent."""
    return payload + "".join(VALUES + value for value in values)


def split_values(text: str) -> tuple[str, list[str]]:
    """Return the payload and the values of :func:`with_values`' text."""
    payload, *values = text.split(VALUES)
    return payload, values
