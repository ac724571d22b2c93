"""One table's play of a duplicate match (``docs/rules/whist.md`` §7) as an
``engine.game.Game``: ``whist_duplicate``.

A match (team of four, Mitchell, Mnemonic) is played at one or more tables; each table
plays a list of trays one after another — the trays of a round, or a Mnemonic session's
original play or its replay — and that is one game here. Its options name the match's seed
(every table deals the same trays from it), the trays' numbers in the order this table
plays them, whether they are turned one seat clockwise (Mnemonic's replay) and the
declared trump suit (Mnemonic's fixed trump, or ``declared_trump``). Each tray is played as
:class:`~engine.whist.duplicate.TrayGame` plays it: eldest leads, the turned card lies face
up until the dealer plays to trick 1, all 13 tricks are counted.

The state is a :class:`~engine.whist.rules.WhistState` (so views, secrets, computer
players and the bot's whist rendering are whist's own) whose deals are the trays and whose
scoring is duplicate's: a tray's result is N-S's tricks. Players 0…3 sit at N E S W; the
match decides who they are. The result scores each player his side's tricks over the
trays (the match, not the table, compares them with the other tables).
"""

from __future__ import annotations

import random
import sys
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, TextIO

from engine.cards import Suit
from engine.errors import OptionsError
from engine.game import Game, GameResult, Player, Terminal
from engine.whist.actions import SEAT_LETTERS, Action, Move, parse_action
from engine.whist.duplicate import Tray, make_trays, turn_tray
from engine.whist.rules import DealResult, Phase, WhistState, WhistView

__all__ = [
    "DUPLICATE_GAME",
    "DuplicateGame",
    "DuplicateOptions",
    "DuplicateTable",
    "new_table",
    "replay_table",
]

_SUITS = {suit.letter: suit for suit in Suit}
MAX_TRAYS = 64
"""The most trays a match deals (a Mitchell of 8 tables × 8 trays a set)."""


@dataclass(frozen=True, slots=True)
class DuplicateOptions:
    """One table's part of a duplicate match.

    ``match_seed``: the seed the match's trays are dealt from (``None``: the table's own
    seed). ``trays``: the trays' numbers in the order this table plays them (1…64, no
    repeats). ``turned``: each tray is played turned one seat clockwise (Mnemonic's
    replay). ``declared_trump``: ``C`` ``D`` ``H`` ``S`` — no card is turned and that suit
    is trumps on every tray (``None``: the dealer's last card)."""

    match_seed: int | None = None
    trays: tuple[int, ...] = (1, 2)
    turned: bool = False
    declared_trump: str | None = None

    def __post_init__(self) -> None:
        trays = self.trays
        if isinstance(trays, list):  # read back from JSON
            trays = tuple(trays)
            object.__setattr__(self, "trays", trays)
        if (
            type(trays) is not tuple
            or not trays
            or any(type(n) is not int or not 1 <= n <= MAX_TRAYS for n in trays)
            or len(set(trays)) != len(trays)
        ):
            raise OptionsError(
                f"A table plays one or more different trays numbered 1-{MAX_TRAYS}, not {trays!r}.",
                reason="trays",
            )
        if self.match_seed is not None and type(self.match_seed) is not int:
            raise OptionsError("A match's seed is a whole number.", reason="seed")
        if type(self.turned) is not bool:
            raise OptionsError("turned is true or false.", reason="option", name="turned")
        if self.declared_trump is not None and self.declared_trump not in _SUITS:
            raise OptionsError("declared_trump is one of C, D, H, S.", reason="declared-trump")

    @property
    def player_count(self) -> int:
        """Return how many players a table seats: four."""
        return 4

    @property
    def trump_suit(self) -> Suit | None:
        """Return the declared trump suit, if any."""
        return None if self.declared_trump is None else _SUITS[self.declared_trump]


def table_trays(seed: int, options: DuplicateOptions) -> tuple[Tray, ...]:
    """Return the trays the table plays, in order, as it plays them (turned for a
    Mnemonic replay)."""
    match_seed = seed if options.match_seed is None else options.match_seed
    dealt = make_trays(match_seed, max(options.trays), options.trump_suit)
    trays = tuple(dealt[n - 1] for n in options.trays)
    return tuple(turn_tray(t) for t in trays) if options.turned else trays


class DuplicateTable(WhistState):
    """A table's play of its trays, one after another (see the module docstring)."""

    variant: ClassVar[str] = "duplicate"
    title: ClassVar[str] = "Duplicate whist"
    options: DuplicateOptions  # type: ignore[assignment]
    _trays: tuple[Tray, ...]

    def _draw_order(self, rng: random.Random) -> tuple[int, ...]:
        """The match seats the players: players 0…3 at N E S W. (The trays are dealt here,
        the first thing :meth:`WhistState.start` asks of a variant.)"""
        self._trays = table_trays(self.seed, self.options)
        return (0, 1, 2, 3)

    def _draw_first_dealer(self, rng: random.Random) -> int:
        return self._trays[0].dealer

    @property
    def trays(self) -> tuple[Tray, ...]:
        """Return the trays this table plays, in order, as dealt to it (full state)."""
        return self._trays

    @property
    def tray_number(self) -> int:
        """Return the number of the tray in play (the last one once over)."""
        return self._trays[self._deal - 1].number

    @property
    def tray_results(self) -> tuple[int, ...]:
        """Return N-S's tricks on each tray finished so far, in the order played."""
        return tuple(r.tricks[0] for r in self._results)

    def _start_deal(self) -> None:
        tray = self._trays[self._deal - 1]
        self._dealer = tray.dealer
        self._deal_out([tuple(hand) for hand in tray.hands], tray.trump_card, tray.trump)

    def _end_deal(self) -> None:
        """Record the tray's result (N-S's tricks) and deal the next tray, or end."""
        tricks = (self._tricks[0], self._tricks[1])
        trump = self._trump
        assert trump is not None
        gained = tuple(tricks[seat % 2] for seat in range(4))
        self._totals = tuple(t + g for t, g in zip(self._totals, gained, strict=True))
        self._rounds.append(gained)
        result = DealResult(
            self._deal,
            1,
            None,
            self._dealer,
            trump,
            tricks,
            (0, 0),
            (0, 0),
            (0, 0),
            (0, 0),
            None,
            None,
            None,
            None,
            self._totals,
        )
        self._results = (*self._results, result)
        self._all_holders = (*self._all_holders, self._holders)
        self._legal = None
        if self._deal == len(self._trays):
            self._phase = Phase.OVER
            self._to_play = None
            top = max(self._totals)
            self._winners = tuple(p for p, t in enumerate(self._totals) if t == top)
            return
        self._deal += 1
        self._start_deal()

    def result(self) -> GameResult:
        """Return each player's side's tricks over the trays, the side with more as
        winners once over (a tie: all four), and each tray's tricks per player."""
        rounds = tuple(tuple(r[p] for r in self._rounds) for p in range(4))
        return GameResult(self._totals, self._winners, rounds)


def new_table(seed: int, options: DuplicateOptions | None = None) -> DuplicateTable:
    """Return a table's play of its trays, ready to start."""
    if type(seed) is not int:
        raise OptionsError(f"A game's seed must be a whole number, not {seed!r}.", reason="seed")
    if options is None:
        options = DuplicateOptions()
    elif not isinstance(options, DuplicateOptions):
        raise OptionsError(f"{options!r} are not duplicate options.", reason="options")
    state = DuplicateTable.start(seed, options)  # type: ignore[arg-type]
    assert isinstance(state, DuplicateTable)
    return state


def replay_table(
    seed: int, options: DuplicateOptions | None, moves: Iterable[Move | str]
) -> DuplicateTable:
    """Return the state reached by ``moves`` (objects or ``N:QH`` text)."""
    state = new_table(seed, options)
    for move in moves:
        if isinstance(move, str):
            move = Move.parse(move)
        state.apply(move.seat, move.action)
    return state


class _Terminal:
    """``python -m engine.play whist_duplicate [--seed S] [--level L]``: computer players
    play the table's trays, and each tray's result is printed."""

    def main(
        self,
        argv: Sequence[str] | None = None,
        stdin: TextIO | None = None,
        stdout: TextIO | None = None,
    ) -> int:
        from engine.terminal import Flags
        from engine.whist.players import LEVELS

        out = stdout or sys.stdout
        flags = Flags(
            "whist_duplicate",
            "Duplicate whist",
            "Computer players play a duplicate table's trays; each tray's result is printed.",
        )
        flags.parser.add_argument("--seed", type=int, default=1, help="the trays' seed")
        flags.level(LEVELS, "basic")
        flags.add("--trays", type=int, default=4, help="how many trays (default 4)")
        try:
            args = flags.parse(argv or (), out)
        except SystemExit as stop:
            return int(stop.code or 0)
        if not 1 <= args.trays <= MAX_TRAYS:
            return flags.fail(f"--trays takes 1 to {MAX_TRAYS}, not {args.trays}")
        state = new_table(args.seed, DuplicateOptions(trays=tuple(range(1, args.trays + 1))))
        players = [LEVELS[args.level](args.seed * 4 + s) for s in range(4)]
        while not state.is_over:
            seat = state.to_act[0]
            state.apply(seat, players[seat].act(state.view(seat)))
        for tray, result in zip(state.trays, state.results, strict=True):
            dealer = SEAT_LETTERS[tray.dealer]
            print(
                f"Tray {tray.number} (dealer {dealer}, trumps {tray.trump.plural}): "
                f"N-S {result.tricks[0]}, E-W {result.tricks[1]}",
                file=out,
            )
        return 0


class DuplicateGame(Game[DuplicateTable, WhistView, Action, DuplicateOptions]):
    """One table's play of a duplicate whist match, as ``engine.game.Game``."""

    name = "whist_duplicate"
    title = "Duplicate whist"
    options_type = DuplicateOptions
    default_level = "basic"
    slow_levels = frozenset({"expert"})

    @property
    def levels(self) -> Mapping[str, Callable[[int], Player[WhistView, Action]]]:
        """Return whist's computer players by level, weakest first."""
        from engine.whist.players import LEVELS

        return LEVELS

    def player_counts(self, options: DuplicateOptions | None) -> tuple[int, ...]:
        """Return the players a table seats: four."""
        return (4,)

    def seated(self, options: DuplicateOptions | None, players: int) -> DuplicateOptions:
        """Return ``options`` for four players; any other count is refused."""
        options = options if options is not None else DuplicateOptions()
        if players != 4:
            raise OptionsError(
                f"A duplicate table seats 4 players, not {players}.",
                reason="players",
                players=players,
            )
        return options

    def new_game(self, seed: int, options: DuplicateOptions | None = None) -> DuplicateTable:
        """Return the table's play of its trays."""
        return new_table(seed, options)

    def replay(
        self, seed: int, options: DuplicateOptions | None, moves: Iterable[Any]
    ) -> DuplicateTable:
        """Return the state reached by ``moves``."""
        return replay_table(seed, options, moves)

    def parse_move(self, text: str) -> Move:
        """Return the move written ``text`` (``N:QH``)."""
        return Move.parse(text)

    def parse_action(self, text: str) -> Action:
        """Return the action written ``text`` (``QH``)."""
        return parse_action(text)

    def secrets(self, state: DuplicateTable, seat: int) -> frozenset[str]:
        """Return the card codes only ``seat``'s player may see now."""
        return state.secrets(seat)

    def terminal(self) -> Terminal:
        """Return the text table (computer players only)."""
        return _Terminal()


DUPLICATE_GAME = DuplicateGame()
"""One table of a duplicate match, as the registry lists it."""
