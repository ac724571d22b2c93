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

from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple, Protocol

import discord
from discord import app_commands
from typing_extensions import TypeVar

from bot import suits
from bot.controls import Controls
from bot.i18n import Lang, Text, t
from bot.ids import Parsed
from bot.match_rules import MatchRules
from bot.store import SeatRecord
from engine.game import Advice, AnyState, Game, Move, Player

__all__ = [
    "CATALOGUE_KEYS",
    "Actions",
    "Choice",
    "ExactReview",
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
    "Subcommand",
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
    def of(cls, record: SeatRecord, *, markdown: bool = True) -> SeatInfo:
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


class ExactReview(NamedTuple):
    """What a game computes exactly about a finished game with every hand known (whist's
    double-dummy costs), for ``/review``: ``costs`` by ply (the move's index in the log)
    in ``unit``, and lines shown with the review's summary (each deal's result)."""

    costs: Mapping[int, int]
    unit: str
    notes: tuple[Text, ...] = ()


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
    hints: bool = False


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


# With defaults, a bare ``GameUI`` (a generic module's: it takes any game) means
# ``GameUI[Any, Any, Any, Any]``; a game's class names its own types.
StateT = TypeVar("StateT", bound=AnyState, default=Any)
ViewT = TypeVar("ViewT", default=Any)
ActionT = TypeVar("ActionT", default=Any)
OptionsT = TypeVar("OptionsT", default=Any)

Subcommand = app_commands.Command[Any, ..., Any] | app_commands.Group
"""A command a game adds to its ``/<game>`` group (:meth:`GameUI.subcommands`)."""


class GameUI(Protocol[StateT, ViewT, ActionT, OptionsT]):
    """A game's Discord side, for states ``StateT``, views ``ViewT``, actions ``ActionT``
    and options ``OptionsT`` (its engine ``Game``'s). See the module docstring.

    A game's class extends it (``class DupeUI(GameUI[DupeState, DupeView, Action,
    DupeOptions])``): the members without a body or value are what it must provide; the
    ones with one are optional hooks, whose defaults it inherits. Generic code reads every
    hook as a plain attribute, so mypy checks each game against this class, and
    ``tests/bot/test_game_contract.py`` refuses a game attribute that is no hook (a
    misspelt one). The hooks and their meanings are listed in ``docs/adding-a-game.md``.
    """

    name: str
    """The registry name, as in ``engine.games`` (``dupe``)."""
    game: Game[StateT, ViewT, ActionT, OptionsT]
    """The engine's ``Game``."""
    colour: discord.Colour
    options: tuple[OptionSpec, ...]
    """The game's own options of ``/<game> start``, after the shared ones."""
    catalogue: Path | None
    """The game's catalogue file when it is not ``bot/locales/<name>.toml``."""

    # --- optional hooks: attributes ---------------------------------------------------

    draws_pictures: bool = True
    """Hook: whether the game draws any picture (Dukes Up! does not): without, what a table
    says of its rules leaves the pictures setting out."""
    default_turn_seconds: int | None = None
    """Hook: the turn time a new table gets when neither ``/<game> start``, the server's
    defaults nor the bot's configuration chooses one (Dukes Up!'s rules: 180 s); None: the
    configuration's default (120 s)."""
    command_group: bool = True
    """Hook: whether the game has a ``/<game>`` command group; false for a game whose tables
    another game's commands open and act on (a duplicate whist match's, ``/whist``)."""
    rules_options: tuple[OptionSpec, ...] = ()
    """Hook: choices of ``/<game> rules`` (whist: which variant); the chosen values reach
    :meth:`rules` as keywords."""
    rated: bool = True
    """Hook: whether a finished table moves the members' ratings (a duplicate match's
    table does not: the match rates its players once, over all its tables)."""
    scores_public: bool = True
    """Hook: whether a finished table stores its scores and winners; false where an event
    over several tables tells them (a duplicate match's: tables still playing the same
    trays compare with them)."""
    standings_post: bool = True
    """Hook: whether a finished table posts its final standings; false where an event over
    several tables posts its own (a duplicate match)."""
    played_out: bool = False
    """Hook: whether the table plays on when its last member leaves it to a computer (a
    duplicate match's table, whose result the match needs); else that member cancels it."""
    match_rules: MatchRules | None = None
    """Hook: the game's events over several tables (a duplicate whist match), run by
    ``bot.matches``; None: the game has none."""

    # --- required methods ---------------------------------------------------------------

    def seat_name(self, lang: Lang, seat: int, players: int) -> str:
        """Return the seat's name (``North``), in ``lang``."""
        ...

    def seat_mark(self, seat: int, players: int) -> str:
        """Return a short mark shown before the seat's name (Dupe: its suit), or ``""``."""
        ...

    def options_text(self, options: OptionsT, lang: Lang) -> str:
        """Return the game's options in force, as the table's rules line shows them."""
        ...

    def table_message(self, info: TableInfo, view: ViewT, lang: Lang) -> Rendered:
        """Return the public table message (no lobby, no cancelled table)."""
        ...

    def hand_message(
        self,
        info: TableInfo,
        view: ViewT,
        turn: int,
        lang: Lang,
        *,
        pending: str = "",
        notice: str | None = None,
    ) -> Rendered:
        """Return the seat's private message with its controls (custom ids from
        ``bot.ids.control``); ``notice`` is already written in ``lang``."""
        ...

    def control(self, view: ViewT, payload: str) -> ActionT | Actions | Step | Form:
        """Return the action a private control means (or :class:`Actions`), a
        :class:`Step`, or a :class:`Form` to open; raise ``UserError`` for a payload that
        means nothing now. A select menu's chosen values and a form's typed texts follow
        the payload (``bot.ids.split_values``)."""
        ...

    def refusal(self, error: Exception) -> Text:
        """Return the sentence for an engine refusal (by its ``reason`` and ``params``)."""
        ...

    def stand_in(self, action: ActionT, lang: Lang) -> str:
        """Return what a computer did for an absent member (``chose 5♥``)."""
        ...

    def owed(self, before: StateT, after: StateT) -> list[str]:
        """Return the public posts the change from ``before`` to ``after`` makes due, by
        key (``deal1``); the core adds the final standings and the last table edit."""
        ...

    def post(
        self, info: TableInfo, state: StateT, key: str, names: Sequence[str], lang: Lang
    ) -> Post:
        """Return the public post ``key`` (see :meth:`owed`); the state is the table's."""
        ...

    def table_picture(
        self, info: TableInfo, view: ViewT, names: Sequence[str], lang: Lang
    ) -> tuple[Hashable, Picture] | None:
        """Return the picture the table message carries, with a key that changes when the
        picture does, or ``None``."""
        ...

    def hand_picture(self, view: ViewT, lang: Lang) -> tuple[str, Picture] | None:
        """Return a caption and a picture of the seat's own cards, or ``None``."""
        ...

    def rules(self, lang: Lang, with_picture: bool) -> tuple[str, Picture | None]:
        """Return the rules summary and, ``with_picture``, an optional picture. The choices
        of :attr:`rules_options` arrive here as keyword arguments."""
        ...

    def replay_steps(self, seed: int, options: OptionsT, moves: Sequence[str]) -> list[Any]:
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

    def legacy_id(self, custom_id: str) -> Parsed | None:
        """Return what an id from before ``bot.ids`` means, or ``None``."""
        ...

    def legacy_turn(self, state: StateT) -> int:
        """Return the decision point as legacy ids counted it."""
        ...

    # --- optional hooks: methods ------------------------------------------------------

    def seats_drawn(self, options: OptionsT) -> bool:
        """Hook: return whether the game's own ``options`` seat the players at random
        whatever the table's seating (whist's random partners): the rules line then says
        so. Default: no."""
        return False

    def details(
        self, state: StateT, key: str, seats: Mapping[int, SeatInfo], lang: Lang
    ) -> Rendered | None:
        """Hook: return the full detail of public post ``key`` (every hand, every trick),
        public to all once the post is made, or ``None`` (no such post yet, or none to
        give). Default: none."""
        return None

    def keeps_meaning(self, state: StateT, turn: int, seat: int, action: ActionT) -> bool:
        """Hook: return whether ``action``, pressed by ``seat``'s member at the earlier
        decision point ``turn``, still means what they chose now that the table is at
        ``state`` (an announcement while its window is open): then it is applied if still
        legal, in arrival order. Default: nothing keeps its meaning (a card pressed for an
        earlier trick or turn is never played into a later one)."""
        return False

    def moved_on(self, state: StateT, turn: int, seat: int, names: Mapping[int, str]) -> Text:
        """Hook: return what got there before ``seat``'s press made at the earlier decision
        point ``turn`` (``names``: the members' names by seat), speaking to the presser as
        "you" when it was their own move. Default: an earlier trick's."""
        return Text("errors.earlier_trick")

    def decision_point(self, state: StateT) -> int:
        """Hook: return the decision point the controls carry, where a turn takes several
        actions (Dukes Up!); the turn timer still follows ``State.turn``. Default:
        ``state.turn``."""
        return state.turn

    def decision_seconds(self, state: StateT, turn_seconds: int) -> int:
        """Hook: return the time for the decision now due, given the table's turn time (a
        shorter setup, say). Default: the turn time."""
        return turn_seconds

    def shown_at_once(self, moves: Sequence[Move[ActionT]]) -> bool:
        """Hook: return whether ``moves`` change what the other seats' hands show though the
        decision stays (Dukes Up!'s draw or revealed castle): they are edited at once.
        Default: no."""
        return False

    def stand_in_actions(
        self, state: StateT, hand: int, player: Player[ViewT, ActionT]
    ) -> list[ActionT]:
        """Hook: return what the computer ``player`` does for the member at ``hand`` whose
        time ran out. Default: one decision, from the view the game shows a stand-in
        (``Game.stand_in_view``); a game whose turn takes several actions completes it."""
        return [player.act(self.game.stand_in_view(state.view(hand)))]

    def action_text(self, action: ActionT, lang: Lang) -> str:
        """Hook: return how a review names ``action``, a member's or the expert's choice
        (``5♥``). Default: its notation, ``str(action)``."""
        return str(action)

    def review_place(self, state: StateT) -> Text:
        """Hook: return where in the game a review places the decision due at ``state``
        (``deal 2, trick 5``). Default: the move's number in the game."""
        return Text("review.place_move", move=state.move_count + 1)

    def exact_review(
        self, seed: int, options: OptionsT, moves: Sequence[str]
    ) -> ExactReview | None:
        """Hook: return the costs a review gives exactly, computed after the game with
        every hand known (whist's double-dummy costs of cards played), instead of the
        expert's estimate; slow work, run off the event loop. Default: none."""
        return None

    def advice_text(self, view: ViewT, advice: Advice[ActionT], lang: Lang) -> str:
        """Hook: return the expert's advice (``Game.adviser``) in words for the member whose
        view this is: its choice and one line of why (the Hint button, ``bot.hints``).
        Default: the action's notation."""
        return str(advice.action)

    def subcommands(self, bot: Any) -> list[Subcommand]:
        """Hook: return commands of the game's own for its ``/<game>`` group (whist:
        ``duplicate``), given the bot. Default: none."""
        return []
