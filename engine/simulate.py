"""Play many games between computer players and report how each fared.

``python -m engine.simulate dupe --games 4000 --seed 1 --players expert,greedy,greedy,greedy``

Any registered game (``engine.games``) can be simulated; ``--players`` lists one level per
player, as many as the game seats (or ``--level L`` seats L everywhere). The player types rotate
through the players: in game ``g`` the ``i``-th listed level plays as player ``(i + g) % n``, so
over a multiple of ``n`` games every entry has been every player equally often (where players
and hands differ, as with whist's dummies, each hand is played by the player deciding for it).
A player of a level the game lists in ``Game.watching_levels`` is shown its view after every
move, as at the bot's tables.
Each entry's win share splits shared wins (a win shared by two counts one half to each); its
95 % interval is Wilson's, which stays within [0, 1]. The flags a game's text table shares keep
their names here: ``--seed``, ``--level``, ``--variant`` (whist's variant, Doppelkopf's preset;
``--preset`` is the same flag), ``--seats N`` and ``--option name=value`` (a number, true/false
or a word; Dupe keeps ``--memory``). A bad flag is one sentence on stderr naming the game and
what it accepts (exit code 2). With ``--json`` the last line printed is one JSON object.
"""

from __future__ import annotations

import dataclasses
import json
import math
import operator
import sys
import time
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

from engine import games
from engine.game import AnyGame, AnyState, Game, Player, options_from_json, show_move, watchers
from engine.terminal import Parser, option_value, or_list, sentence, variant_field

StateT = TypeVar("StateT", bound=AnyState)
ViewT = TypeVar("ViewT")
ActionT = TypeVar("ActionT")
OptionsT = TypeVar("OptionsT")

__all__ = ["EntryStats", "SimulationResult", "main", "simulate"]


@dataclass
class EntryStats:
    """How one listed player fared over the simulation."""

    name: str
    wins: list[float] = field(default_factory=list)
    scores: list[int] = field(default_factory=list)
    decision_ns: list[int] = field(default_factory=list)

    @property
    def win_share(self) -> float:
        """Return the share of games won, shared wins split."""
        return sum(self.wins) / len(self.wins) if self.wins else 0.0

    @property
    def mean_score(self) -> float:
        """Return the mean final score."""
        return sum(self.scores) / len(self.scores) if self.scores else 0.0

    def win_share_ci(self) -> tuple[float, float]:
        """Return the 95 % confidence interval of the win share (Wilson's score interval,
        which stays within [0, 1] even for shares near 0 or 1)."""
        return wilson(sum(self.wins), len(self.wins))

    def mean_score_ci(self) -> tuple[float, float]:
        """Return the 95 % confidence interval of the mean score (normal approximation)."""
        return _ci([float(s) for s in self.scores])

    def decision_ms(self, quantile: float) -> float:
        """Return the given quantile of this player's decision times, in milliseconds."""
        if not self.decision_ns:
            return 0.0
        ordered = sorted(self.decision_ns)
        index = min(len(ordered) - 1, max(0, math.ceil(quantile * len(ordered)) - 1))
        return ordered[index] / 1e6


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """Return Wilson's score interval for a share of ``wins`` in ``n`` trials."""
    if n == 0:
        return (0.0, 0.0)
    share = wins / n
    centre = (share + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(share * (1 - share) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


def _ci(values: Sequence[float]) -> tuple[float, float]:
    n = len(values)
    if n == 0:
        return (0.0, 0.0)
    mean = sum(values) / n
    if n == 1:
        return (mean, mean)
    var = sum((v - mean) ** 2 for v in values) / (n - 1)
    half = 1.96 * math.sqrt(var / n)
    return (mean - half, mean + half)


@dataclass
class SimulationResult:
    """The outcome of :func:`simulate`."""

    games: int
    seconds: float
    entries: list[EntryStats]
    tallies: dict[str, int] = field(default_factory=dict)
    """What the game counts of its own over all tables (``Game.tally``):
    e.g. Doppelkopf's game types, announcements and extra points."""

    @property
    def games_per_second(self) -> float:
        """Return the number of games played per second of wall time."""
        return self.games / self.seconds if self.seconds > 0 else float("inf")

    def to_json(self) -> dict[str, object]:
        """Return the summary as the JSON object ``--json`` prints."""
        return {
            "games": self.games,
            "seconds": round(self.seconds, 4),
            "games_per_second": round(self.games_per_second, 2),
            "tallies": self.tallies,
            "players": [
                {
                    "name": e.name,
                    "win_share": round(e.win_share, 4),
                    "win_share_ci95": [round(x, 4) for x in e.win_share_ci()],
                    "mean_score": round(e.mean_score, 3),
                    "mean_score_ci95": [round(x, 3) for x in e.mean_score_ci()],
                    "decision_ms_p50": round(e.decision_ms(0.5), 4),
                    "decision_ms_p99": round(e.decision_ms(0.99), 4),
                }
                for e in self.entries
            ],
        }


def simulate(
    players: Sequence[str],
    games_to_play: int,
    seed: int = 0,
    options: Any = None,
    *,
    timing: bool = True,
    game: AnyGame | str = "dupe",
) -> SimulationResult:
    """Return the results of ``games_to_play`` games of ``game`` between the listed levels.

    Game ``g`` uses seed ``seed + g``; its players' seeds are drawn from the same numbers,
    so a run is reproducible. With ``timing`` each decision's duration is recorded.
    """
    rules = games.get(game) if isinstance(game, str) else game
    counts = rules.player_counts(options if options is not None else rules.options_type())
    n = len(players)
    if n not in counts:
        seats = " or ".join(map(str, counts))
        raise ValueError(f"{rules.title} needs {seats} players, not {n}.")
    if options is not None or n != counts[0]:
        options = rules.seated(options if options is not None else rules.options_type(), n)
    levels = rules.levels
    for name in players:
        if name not in levels:
            raise ValueError(
                f"There is no computer player “{name}”: choose from {', '.join(levels)}."
            )
    if games_to_play < 1:
        raise ValueError("Play at least one game.")
    entries = [EntryStats(name) for name in players]
    tallies: Counter[str] = Counter()
    started = time.perf_counter()
    for g in range(games_to_play):
        try:
            _play_one(rules, g, seed + g, options, players, levels, entries, tallies, timing)
        except (ValueError, TypeError) as error:
            # a bug in a player or an engine, not a bad option: never read as one (exit 2)
            raise RuntimeError(f"game {g} (seed {seed + g}) failed: {error!r}") from error
    return SimulationResult(
        games_to_play, time.perf_counter() - started, entries, dict(sorted(tallies.items()))
    )


def _play_one(
    rules: Game[StateT, ViewT, ActionT, OptionsT],
    g: int,
    game_seed: int,
    options: OptionsT | None,
    players: Sequence[str],
    levels: Mapping[str, Callable[[int], Player[ViewT, ActionT]]],
    entries: list[EntryStats],
    tallies: Counter[str],
    timing: bool,
) -> None:
    """Play game ``g`` of a simulation (see :func:`simulate`) and record it."""
    n = len(players)
    clock = time.perf_counter_ns
    state = rules.new_game(game_seed, options)
    # entry i is player (i + g) % n; seat_entry[p] is the entry playing as player p
    seat_entry = [(p - g) % n for p in range(n)]
    seated: list[Player[ViewT, ActionT]] = [
        levels[players[seat_entry[p]]](game_seed * n + p) for p in range(n)
    ]
    times: list[list[int]] = [entries[seat_entry[p]].decision_ns for p in range(n)]
    # The state changes in place, so its methods are looked up once per game: this loop is
    # what bench/engine_speed.py times, a few hundred decisions a game.
    view, apply = state.view, state.apply
    controller, player_at = state.controller, state.player_at
    acts = [player.act for player in seated]
    # players of a level that watches every move (``Game.watching_levels``) see each one
    watching = watchers(rules, dict(enumerate(seated)))
    if controller is player_at is operator.index and not timing and not watching:
        # Every hand is decided by the player sitting at it (both maps are the identity, as
        # Dupe's are): the loop bench/engine_speed.py times, without the two look-ups and
        # the checks, about half of the loop's own steps a decision.
        while not state.is_over:
            for hand in state.to_act:
                apply(hand, acts[hand](view(hand)))
    while not state.is_over:
        for hand in state.to_act:
            # the player deciding for the hand: its own, or a dummy's partner (as
            # engine.game.deciding_player says, inline)
            owner = controller(hand)
            p = None if owner is None else player_at(owner)
            assert p is not None, "the game waits for a hand nobody plays"
            if timing:
                t0 = clock()
                action = acts[p](view(hand))
                times[p].append(clock() - t0)
            else:
                action = acts[p](view(hand))
            apply(hand, action)
            if watching:
                show_move(state, watching)
    result = state.result()
    tallies.update(rules.tally(state))
    for p in range(n):
        entry = entries[seat_entry[p]]
        entry.scores.append(result.scores[p])
        entry.wins.append(result.share(p))


def _report(result: SimulationResult) -> str:
    lines = [
        f"{result.games} games in {result.seconds:.2f} s ({result.games_per_second:.1f} games/s)",
        f"{'player':<10} {'win share':>9}  {'95 % CI':<15} {'mean score':>10}  "
        f"{'95 % CI':<15} {'p50 ms':>7} {'p99 ms':>7}",
    ]
    for e in result.entries:
        wl, wh = e.win_share_ci()
        sl, sh = e.mean_score_ci()
        lines.append(
            f"{e.name:<10} {e.win_share:>9.3f}  [{wl:.3f}, {wh:.3f}]  {e.mean_score:>10.2f}  "
            f"[{sl:.1f}, {sh:.1f}]  {e.decision_ms(0.5):>7.3f} {e.decision_ms(0.99):>7.3f}"
        )
    if result.tallies:
        lines.append(
            "per table: "
            + ", ".join(
                f"{name} {count / result.games:.2f}" for name, count in result.tallies.items()
            )
        )
    return "\n".join(lines)


def _options(rules: AnyGame, pairs: Sequence[str]) -> Any:
    """Return the game's options from ``name=value`` pairs (``None`` for none)."""
    if not pairs:
        return None
    names = [f.name for f in dataclasses.fields(rules.options_type)]
    values: dict[str, Any] = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep:
            raise ValueError(f"“{pair}” is not an option: write NAME=VALUE, like {names[0]}=…")
        if name.strip() not in names:
            raise ValueError(
                f"there is no option “{name.strip()}”: the options are {', '.join(names)}"
            )
        values[name.strip()] = option_value(value.strip())
    return options_from_json(rules.options_type, values)


def _parser() -> Parser:
    parser = Parser(
        "engine.simulate",
        games.names(),
        prog="python -m engine.simulate",
        description="Play games between computer players and report win shares and scores.",
    )
    parser.add_argument("game", choices=games.names(), help=f"the game: {', '.join(games.names())}")
    parser.add_argument("--games", type=int, default=1000, help="how many games (default 1000)")
    parser.add_argument("--seed", type=int, default=0, help="the first game's seed (default 0)")
    parser.add_argument(
        "--players",
        default=None,
        help="comma-separated levels, one per player (default: --level for every seat)",
    )
    parser.add_argument(
        "--level", default=None, help="the level of every player not listed (default random)"
    )
    parser.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a game option (repeatable), e.g. memory=open",
    )
    parser.add_argument("--memory", choices=("strict", "open"), help="Dupe: the memory rule")
    parser.add_argument(
        "--variant",
        "--preset",
        dest="variant",
        help="the game's variant (whist: short, mort …) or preset (doppelkopf: house …)",
    )
    parser.add_argument(
        "--seats",
        type=int,
        help="how many seats (the last listed level fills seats beyond --players)",
    )
    parser.add_argument(
        "--no-timing", action="store_true", help="do not time each decision (slightly faster)"
    )
    parser.add_argument("--json", action="store_true", help="end with one line of JSON")
    return parser


def _pairs(rules: AnyGame, memory: str | None, variant: str | None, pairs: list[str]) -> list[str]:
    """Return the ``--option`` pairs with ``--memory`` and ``--variant`` added; raise
    ``ValueError`` where the game has no such option."""
    field_names = {f.name for f in dataclasses.fields(rules.options_type)}
    if memory:
        if "memory" not in field_names:
            raise ValueError("--memory is Dupe's flag: this game has no memory rule")
        pairs.append(f"memory={memory}")
    if variant:
        name = variant_field(rules.options_type)
        if name is None:
            raise ValueError("there are no variants or presets: leave out --variant")
        pairs.append(f"{name}={variant}")
    return pairs


def main(argv: Sequence[str] | None = None) -> int:
    """Run the simulator from the command line; return the exit code."""
    parser = _parser()
    named = [a for a in (sys.argv[1:] if argv is None else argv) if a in games.names()]
    if named:  # a bad flag then names the game it was given for
        parser.title = games.get(named[0]).title
    try:
        args = parser.parse_args(argv)
    except SystemExit as exit_:  # --help (0), or a bad flag already told on stderr (2)
        return exit_.code if isinstance(exit_.code, int) else 2
    rules = games.get(args.game)
    try:
        pairs = _pairs(rules, args.memory, args.variant, list(args.option))
        options = _options(rules, pairs)
        levels = list(rules.levels)
        if args.level is not None and args.level not in levels:
            raise ValueError(f"“{args.level}” is not a computer level: choose {or_list(levels)}")
        if args.players is None:
            n = rules.player_counts(options or rules.options_type())[0]
            players = [args.level or "random"] * n
        else:
            players = [p.strip() for p in args.players.split(",") if p.strip()]
        if args.seats is not None:
            if args.seats < 1:
                raise ValueError("There must be at least one seat.")
            fill = args.level or players[-1]
            players = (players + [fill] * args.seats)[: args.seats]
        result = simulate(
            players, args.games, args.seed, options, timing=not args.no_timing, game=rules
        )
    except (ValueError, TypeError) as error:
        print(sentence(rules.title, str(error)), file=sys.stderr)
        return 2
    print(_report(result))
    if args.json:
        print(json.dumps(result.to_json()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
