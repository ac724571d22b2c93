"""What a game's bot package provides: its :class:`GameUI`.

The bot core (tables, lobby, timers, the store, the outbox, restarts, leaderboards,
history, replays, help) knows no game. Everything a game shows or reads on Discord comes
from its ``GameUI``: seat names, its own ``/<game> start`` options, the public table
message, a seat's private hand with its controls, the public posts a change makes due
(a deal's scoring…), replay steps, rules, and optional pictures. A game package returns
values — messages, actions, picture thunks — and never calls the controller, the store or
Discord; boardgame.io's ``Game`` and its game-agnostic server have this shape.

Messages are :class:`Rendered` values built from views only (``state.view(seat)`` for a
private message, ``state.public_view()`` for a public one), so what a message can show is
what the engine lets its audience know.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple, Protocol

import discord

from bot import suits
from bot.controls import Controls
from bot.i18n import Lang, Text, t

__all__ = [
    "CATALOGUE_KEYS",
    "Actions",
    "Choice",
    "Form",
    "FormField",
    "GameUI",
    "OptionSpec",
    "Picture",
    "Post",
    "Rendered",
    "SeatInfo",
    "SentComponents",
    "Step",
    "TableInfo",
    "computer_name",
    "computers_name",
]


COMMANDS = ("start", "defaults", "hand", "status", "rules", "cancel")
CATALOGUE_KEYS: tuple[str, ...] = (
    "title",
    "command_name",
    "command_description",
    *(f"command_{command}_{part}" for command in COMMANDS for part in ("name", "description")),
)
"""Keys every game's catalogue (``bot/locales/<game>.toml``) has: its name, and the names
and descriptions of its slash command group; besides, ``computers_<level>`` describes each
computer level."""


_ROBOT = "🤖"


def computer_name(
    lang: Lang,
    level: str | None,
    seat: int | None = None,
    *,
    picture: bool = False,
    stands_in_for: str = "",
) -> str:
    """Return a computer player's name, as every message and picture of every game writes
    it: ``🤖 Computer 2 (expert)``, numbered by its ``seat`` (counted from 1) so that the
    computers at one table are told apart; ``🤖 Computer (expert)`` for the level itself
    (a leaderboard's row); ``🤖 Computer 1 (basic) for alice`` when it plays a member's
    seat for them. Pictures cannot draw emoji: with ``picture``, the same words without
    the robot."""
    shown = level or "?"
    if seat is None:
        words = t(lang, "common.computers", n=1, level=shown)
    elif stands_in_for:
        words = t(lang, "common.computer_for", number=seat + 1, level=shown, member=stands_in_for)
    else:
        words = t(lang, "common.computer", number=seat + 1, level=shown)
    return words if picture else f"{_ROBOT} {words}"


def computers_name(lang: Lang, level: str | None, n: int) -> str:
    """Return ``n`` computer players of one level as one name, a side or a team of them
    (``🤖 4 computers (expert)``; one is ``🤖 Computer (expert)``)."""
    return f"{_ROBOT} {t(lang, 'common.computers', n=n, level=level or '?')}"


# How Tables names a computer that took over a member's seat in the store (``hand_over``).
_STAND_IN = "Computer ({level}) for "


@dataclass(slots=True)
class SeatInfo:
    """How a seat is shown: the member's name, or the computer player's level (and the
    member it plays for, after they left: ``stands_in_for``)."""

    name: str
    user_id: int | None = None
    level: str | None = None
    stands_in_for: str = ""

    @classmethod
    def of(cls, record: Any, *, markdown: bool = True) -> SeatInfo:
        """Return how a stored seat (a ``SeatRecord``) is shown, names escaped for
        Discord's markdown (not for a picture: ``markdown=False``)."""
        escape = discord.utils.escape_markdown if markdown else str
        member = ""
        if record.user_id is None:
            prefix = _STAND_IN.format(level=record.level)
            if record.name.startswith(prefix):
                member = escape(record.name.removeprefix(prefix))
        return cls(escape(record.name), record.user_id, record.level, member)

    def shown(self, lang: Lang, seat: int, *, picture: bool = False) -> str:
        """Return who sits in ``seat``: the member's name, or the computer's
        (:func:`computer_name`)."""
        if self.user_id is not None:
            return self.name
        return computer_name(
            lang, self.level, seat, picture=picture, stands_in_for=self.stands_in_for
        )


class SentComponents(discord.ui.View):
    """A message's components as discord.py sends them: their payload, and nothing else.

    discord.py takes a ``view`` to send components. The bot never dispatches one (it reads
    every pressed id itself, :mod:`bot.buttons`), so it hands discord.py this: built
    without ``View.__init__`` on purpose (no items, no timeout, no future, none of the
    cycles between a view and its items that only the cycle collector frees), it answers
    what discord.py asks of a view it sends (its components, and that it is not to be
    stored)."""

    timeout = None  # shadows the view's property: nothing times out

    def __init__(self, components: list[dict[str, Any]]) -> None:  # no View.__init__
        self._payload = components

    def to_components(self) -> list[dict[str, Any]]:
        return self._payload

    def has_components_v2(self) -> bool:
        return False

    def is_finished(self) -> bool:
        return True

    def is_dispatchable(self) -> bool:
        return False

    def is_persistent(self) -> bool:
        return False


@dataclass(slots=True)
class Rendered:
    """A message to send or edit: content, embeds and its controls (:class:`Controls`)."""

    content: str | None = None
    embeds: list[discord.Embed] = field(default_factory=list)
    view: Controls | None = None
    _sent: SentComponents | None = field(default=None, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        # The one point every rendered message passes: its suits shown as bot.suits says.
        if suits.current().mapped:
            if self.content:
                self.content = suits.rich(self.content)
            for embed in self.embeds:
                suits.embed(embed)

    def buttons(self) -> discord.ui.View:
        """Return the components to send, as discord.py takes them (none clears a
        message's buttons); the payload is made once."""
        if self._sent is None:
            view = self.view
            self._sent = SentComponents([] if view is None else view.to_components())
        return self._sent


@dataclass(slots=True)
class TableInfo:
    """What a table's messages need besides the view: who sits where and the house rules."""

    game_id: int
    host_id: int
    seats: dict[int, SeatInfo]
    game_options: Any
    turn_seconds: int = 120
    level: str | None = "expert"
    warned: Sequence[int] = ()
    deadline: float | None = None
    status: str = "playing"
    pictures: bool = True
    seating: str = "join"
    rematch_of: int | None = None
    invited: Sequence[tuple[int, int, str]] = ()


class Step(NamedTuple):
    """A control that does not act yet: the hand is shown again with ``pending`` (the next
    step of a multi-step choice, carried in the controls' payloads)."""

    pending: str


class Actions(NamedTuple):
    """A control that takes several actions of the presser's at once (a swap: pick up a
    duke, set a card): checked in order on a copy and committed together, or none."""

    actions: tuple[Any, ...]


class FormField(NamedTuple):
    """One text a :class:`Form` asks for (at most 4000 characters, Discord's); the label
    is written in the presser's language."""

    label: Text
    placeholder: str = ""
    default: str = ""
    long: bool = False


class Form(NamedTuple):
    """A control that opens a form (a Discord modal) instead of acting: ``payload`` is the
    payload of the form's own id (``bot.ids.control``, the same seat and decision point),
    and what is typed reaches :meth:`GameUI.control` after it (``bot.ids.with_values``)."""

    payload: str
    title: Text
    fields: tuple[FormField, ...]


Picture = Callable[[], bytes]
"""A picture's PNG, drawn when called (in the drawing thread, see ``bot.pictures``)."""


class Post(NamedTuple):
    """A public message owed to the channel, with an optional picture and its file name;
    with ``details``, the core puts a Details button under it (:meth:`GameUI.details`)."""

    message: Rendered
    picture: Picture | None = None
    filename: str = "picture.png"
    details: bool = False


class Choice(NamedTuple):
    """One choice of a slash command option: the catalogue key of its name, and its value."""

    key: str
    value: str | int


@dataclass(frozen=True, slots=True)
class OptionSpec:
    """One option of ``/<game> start`` (and ``/<game> defaults``): ``name`` is the engine
    option's field; names and descriptions come from the catalogue."""

    name: str
    name_key: str
    description_key: str
    choices: tuple[Choice, ...]


class GameUI(Protocol):
    """A game's Discord side. See the module docstring. A game's class extends it (and so
    has the defaults of the hooks declared here with one)."""

    name: str
    """The registry name, as in ``engine.games`` (``dupe``)."""
    game: Any
    """The engine's ``Game``."""
    colour: discord.Colour
    options: tuple[OptionSpec, ...]
    """The game's own options of ``/<game> start``, after the shared ones."""
    draws_pictures: bool = True
    """Whether the game draws any picture (Dukes Up! does not): without, what a table
    says of its rules leaves the pictures setting out."""
    catalogue: Path | None
    """The game's catalogue file when it is not ``bot/locales/<name>.toml``."""
    default_turn_seconds: int | None = None
    """The turn time a new table gets when neither ``/<game> start``, the server's defaults
    nor the bot's configuration chooses one (Dukes Up!'s rules: 180 s); None: the
    configuration's default (120 s)."""
    command_group: bool = True
    """Whether the game has a ``/<game>`` command group; false for a game whose tables
    another game's commands open and act on (a duplicate whist match's, ``/whist``)."""
    rules_options: tuple[OptionSpec, ...] = ()
    """Choices of ``/<game> rules`` (whist: which variant); the chosen values reach
    :meth:`rules` as keywords."""
    # Games extend this class: the hooks with a body (:meth:`keeps_meaning`, :meth:`moved_on`,
    # …) and the attributes above are their defaults. Still read with ``getattr`` (events over
    # several tables, ``bot.matches``): ``subcommands(bot)``, ``standings_post``, ``rated``,
    # ``scores_public`` and ``match_rules`` (see docs/architecture.md, "Adding a game").

    def seat_name(self, lang: Lang, seat: int, players: int) -> str:
        """Return the seat's name (``North``), in ``lang``."""
        ...

    def seat_mark(self, seat: int, players: int) -> str:
        """Return a short mark shown before the seat's name (Dupe: its suit), or ``""``."""
        ...

    def options_text(self, options: Any, lang: Lang) -> str:
        """Return the game's options in force, as the table's rules line shows them."""
        ...

    def seats_drawn(self, options: Any) -> bool:
        """Return whether the game's own ``options`` seat the players at random whatever
        the table's seating (whist's random partners): the rules line then says so."""
        return False

    def table_message(self, info: TableInfo, view: Any, lang: Lang) -> Rendered:
        """Return the public table message (no lobby, no cancelled table)."""
        ...

    def hand_message(
        self,
        info: TableInfo,
        view: Any,
        turn: int,
        lang: Lang,
        *,
        pending: str = "",
        notice: str | None = None,
    ) -> Rendered:
        """Return the seat's private message with its controls (custom ids from
        ``bot.ids.control``); ``notice`` is already written in ``lang``."""
        ...

    def control(self, view: Any, payload: str) -> Any:
        """Return the action a private control means (or :class:`Actions`), a
        :class:`Step`, or a :class:`Form` to open; raise ``UserError`` for a payload that
        means nothing now. A select menu's chosen values and a form's typed texts follow
        the payload (``bot.ids.split_values``)."""
        ...

    def refusal(self, error: Exception) -> Text:
        """Return the sentence for an engine refusal (by its ``reason`` and ``params``)."""
        ...

    def stand_in(self, action: Any, lang: Lang) -> str:
        """Return what a computer did for an absent member (``chose 5♥``)."""
        ...

    def owed(self, before: Any, after: Any) -> list[str]:
        """Return the public posts the change from ``before`` to ``after`` makes due, by
        key (``deal1``); the core adds the final standings and the last table edit."""
        ...

    def post(self, info: TableInfo, state: Any, key: str, names: Sequence[str], lang: Lang) -> Post:
        """Return the public post ``key`` (see :meth:`owed`); the state is the table's."""
        ...

    def details(
        self, state: Any, key: str, seats: Mapping[int, SeatInfo], lang: Lang
    ) -> Rendered | None:
        """Return the full detail of public post ``key`` (every hand, every trick), public
        to all once the post is made, or ``None`` (no such post yet, or none to give)."""
        return None

    def table_picture(
        self, info: TableInfo, view: Any, names: Sequence[str], lang: Lang
    ) -> tuple[Any, Picture] | None:
        """Return the picture the table message carries, with a key that changes when the
        picture does, or ``None``."""
        ...

    def hand_picture(self, view: Any, lang: Lang) -> tuple[str, Picture] | None:
        """Return a caption and a picture of the seat's own cards, or ``None``."""
        ...

    def rules(self, lang: Lang, with_picture: bool) -> tuple[str, Picture | None]:
        """Return the rules summary and, ``with_picture``, an optional picture. A game may
        offer choices of its own on ``/<game> rules`` (whist: the variant) by an optional
        ``rules_options`` attribute of :class:`OptionSpec` values; the chosen ones arrive
        here as keyword arguments."""
        ...

    def replay_steps(self, seed: int, options: Any, moves: Sequence[str]) -> list[Any]:
        """Return a finished game's replay steps (each shown by :meth:`replay_page`)."""
        ...

    def replay_page(
        self,
        game_id: int,
        steps: Sequence[Any],
        index: int,
        seats: Mapping[int, SeatInfo],
        lang: Lang,
    ) -> Rendered:
        """Return the replay page of step ``index``."""
        ...

    def legacy_id(self, custom_id: str) -> Any:
        """Return what an id from before ``bot.ids`` means (``bot.ids.Parsed``), or ``None``."""
        ...

    def legacy_turn(self, state: Any) -> int:
        """Return the decision point as legacy ids counted it."""
        ...

    def keeps_meaning(self, state: Any, turn: int, seat: int, action: Any) -> bool:
        """Return whether ``action``, pressed by ``seat``'s member at the earlier decision
        point ``turn``, still means what they chose now that the table is at ``state`` (an
        announcement while its window is open): then it is applied if still legal, in
        arrival order. By default nothing keeps its meaning: a card pressed for an earlier
        trick or turn is never played into a later one."""
        return False

    def moved_on(self, state: Any, turn: int, seat: int, names: Mapping[int, str]) -> Text:
        """Return what got there before ``seat``'s press made at the earlier decision point
        ``turn`` (``names``: the members' names by seat), speaking to the presser as "you"
        when it was their own move."""
        return Text("errors.earlier_trick")
