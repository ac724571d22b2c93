"""The game contract: every optional hook is declared once, with its default, on the base
class a game extends (``bot.game.GameUI``, ``engine.game.Game``, ``engine.game.State``);
a game defines no member the contract does not declare (a misspelt hook would otherwise be
a silent default); ``docs/adding-a-game.md`` lists every hook with its default; and each
hook the core reads changes what the core does, shown here on the test-only game (high
card) with every hook overridden.
"""

from __future__ import annotations

import ast
import inspect
import re
import textwrap
import threading
from collections.abc import AsyncIterator, Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

import discord
import pytest
from discord import app_commands

from bot import games
from bot.game import GameUI, Subcommand
from bot.matches import MatchRules
from bot.scheduler import Scheduler
from bot.store import SQLiteStore
from bot.tables import Table, TableOptions, Tables, UserError, own_hand
from engine import games as engine_games
from engine.game import Game, Move, Player, State, seat_count, watchers
from engine.simulate import simulate
from tests.bot.driver import World
from tests.support.highcard.engine import (
    HIGHCARD,
    TRICKS,
    HighCardGame,
    HighCardState,
    HighCardView,
    HighPlayer,
    Play,
)
from tests.support.highcard.ui import UI, HighCardUI

ROOT = Path(__file__).resolve().parents[2]
NOW = 1_800_000_000.0
ALICE, BOB = 100, 101


def members(base: type) -> tuple[set[str], set[str]]:
    """Return a contract class's required members and its optional hooks, read from its
    source: a member with a body or a value is a hook (its default), one without is
    required."""
    tree = ast.parse(textwrap.dedent(inspect.getsource(base)))
    (cls,) = tree.body
    assert isinstance(cls, ast.ClassDef)
    required: set[str] = set()
    hooks: set[str] = set()

    def read(body: list[ast.stmt]) -> None:
        for node in body:
            if isinstance(node, ast.If):  # ``if TYPE_CHECKING:`` members
                read(node.body)
            elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
                (hooks if node.value is not None else required).add(node.target.id)
            elif isinstance(node, ast.FunctionDef):
                body_ = [n for n in node.body if not _docstring(n)]
                trivial = all(
                    isinstance(n, ast.Expr)
                    and isinstance(n.value, ast.Constant)
                    and n.value.value is Ellipsis
                    for n in body_
                )
                (required if trivial else hooks).add(node.name)

    read(cls.body)
    return {n for n in required if not n.startswith("_")}, {
        n for n in hooks if not n.startswith("_")
    }


def _docstring(node: ast.stmt) -> bool:
    return (
        isinstance(node, ast.Expr)
        and isinstance(node.value, ast.Constant)
        and isinstance(node.value.value, str)
    )


CONTRACTS: list[type] = [GameUI, Game, State]


def defined(cls: type, base: type) -> set[str]:
    """Return the public names ``cls`` and its classes up to ``base`` define."""
    names: set[str] = set()
    for klass in cls.__mro__:
        if klass is base:
            break
        names |= {n for n in vars(klass) if not n.startswith("_")}
    return names


def test_the_contract_declares_the_hooks_the_core_reads() -> None:
    _, ui_hooks = members(GameUI)
    _, game_hooks = members(Game)
    _, state_hooks = members(State)
    assert {
        "rated",
        "played_out",
        "scores_public",
        "standings_post",
        "match_rules",
        "decision_point",
        "decision_seconds",
        "shown_at_once",
        "stand_in_actions",
        "subcommands",
        "command_group",
        "details",
        "keeps_meaning",
        "moved_on",
    } <= ui_hooks
    assert game_hooks == {
        "slow_levels",
        "watching_levels",
        "slow_action",
        "stand_in_view",
        "tally",
        "adviser",
        "advises",
    }
    assert state_hooks == {"seats"}


@pytest.mark.parametrize("ui", [*games.GAMES, UI], ids=lambda ui: ui.name)
def test_a_game_ui_defines_only_what_the_contract_declares(ui: GameUI) -> None:
    required, hooks = members(GameUI)
    unknown = defined(type(ui), GameUI) - required - hooks
    assert not unknown, f"{ui.name}: {sorted(unknown)} are no GameUI hook (misspelt?)"


@pytest.mark.parametrize("game", [*engine_games.GAMES, HIGHCARD], ids=lambda game: game.name)
def test_an_engine_game_defines_only_what_the_contract_declares(
    game: Game[Any, Any, Any, Any],
) -> None:
    required, hooks = members(Game)
    unknown = defined(type(game), Game) - required - hooks
    assert not unknown, f"{game.name}: {sorted(unknown)} are no Game hook (misspelt?)"


def test_the_check_catches_a_misspelt_hook() -> None:
    class Misspelt(HighCardUI):
        standing_post = False  # for ``standings_post``

    required, hooks = members(GameUI)
    assert defined(Misspelt, GameUI) - required - hooks == {"standing_post"}


def test_adding_a_game_lists_every_hook_with_its_default() -> None:
    page = (ROOT / "docs" / "adding-a-game.md").read_text(encoding="utf-8")
    rows = [line for line in page.splitlines() if line.startswith("| `")]
    listed = {re.match(r"\| `(\w+)", row)[1]: row for row in rows}  # type: ignore[index]
    for base in CONTRACTS:
        _, hooks = members(base)
        for hook in hooks:
            assert hook in listed, f"docs/adding-a-game.md does not list {base.__name__}.{hook}"
            assert listed[hook].count("|") >= 4, f"{hook}: its row gives no default"


# --- each hook, exercised -------------------------------------------------------------


class Recording(HighPlayer):
    """High card's ``high`` player, noting the thread it decides in and the views it is
    shown between its decisions."""

    threads: ClassVar[list[str]] = []
    shown: ClassVar[list[HighCardView]] = []

    def observe(self, view: HighCardView) -> None:
        Recording.shown.append(view)

    def act(self, view: HighCardView) -> Play:
        Recording.threads.append(threading.current_thread().name)
        return super().act(view)


class HookedGame(HighCardGame):
    """High card with every engine hook overridden, each noting that it was read."""

    levels: Mapping[str, Callable[[int], Player[HighCardView, Play]]] = {"high": Recording}
    slow_levels = frozenset({"high"})
    watching_levels = frozenset({"high"})

    def __init__(self) -> None:
        self.calls: list[str] = []

    def slow_action(self, action: Play) -> bool:
        self.calls.append("slow_action")
        return True

    def stand_in_view(self, view: HighCardView) -> HighCardView:
        self.calls.append("stand_in_view")
        return view

    def tally(self, state: HighCardState) -> dict[str, int]:
        return {"tricks": len(state.public_view().tricks)}


class HookedUI(HighCardUI):
    """High card's Discord side with every hook the tables read overridden."""

    rated = False
    scores_public = False
    standings_post = False
    played_out = True

    def __init__(self) -> None:
        self.game = HookedGame()
        self.calls: list[str] = []

    def decision_point(self, state: HighCardState) -> int:
        return state.turn + 1000

    def decision_seconds(self, state: HighCardState, turn_seconds: int) -> int:
        return 7

    def shown_at_once(self, moves: Sequence[Move[Play]]) -> bool:
        self.calls.append("shown_at_once")
        return True

    def stand_in_actions(
        self, state: HighCardState, hand: int, player: Player[HighCardView, Play]
    ) -> list[Play]:
        self.calls.append("stand_in_actions")
        return super().stand_in_actions(state, hand, player)


@dataclass
class Harness:
    tables: Tables
    store: SQLiteStore
    clock: list[float]
    written: list[dict[str, Any]]

    async def open(self, *, computer: bool = False) -> Table:
        table = await self.tables.open_table(
            game="highcard",
            guild_id=1,
            channel_id=2,
            host_id=ALICE,
            host_name="alice",
            options=TableOptions(game={"tricks": 1}, turn_seconds=30, level="high"),
        )
        if computer:
            await self.tables.add_computer(table.id, ALICE)
        else:
            await self.tables.join(table.id, BOB, "bob")
        await self.tables.start(table.id, ALICE)
        return table


@pytest.fixture
async def harness(tmp_path: Path) -> AsyncIterator[Callable[[GameUI], Harness]]:
    store = await SQLiteStore.open(tmp_path / "bot.sqlite3")
    clock = [NOW]
    scheduler = Scheduler(lambda: clock[0])
    written: list[dict[str, Any]] = []
    append = store.append_moves

    async def recorded(*args: Any, **kwargs: Any) -> Any:
        written.append(kwargs)
        return await append(*args, **kwargs)

    store.append_moves = recorded  # type: ignore[method-assign]
    made: list[Tables] = []

    def make(ui: GameUI) -> Harness:
        tables = Tables(store, lambda name: ui, clock=lambda: clock[0], scheduler=scheduler)
        made.append(tables)
        return Harness(tables, store, clock, written)

    yield make
    for tables in made:
        await tables.close()
    await scheduler.close()
    await store.close()


async def test_the_tables_read_every_hook_of_the_game(
    harness: Callable[[GameUI], Harness],
) -> None:
    ui = HookedUI()
    game = ui.game
    run = harness(ui)
    table = await run.open()
    state = table.state
    # ``decision_point``: what the controls carry; ``decision_seconds``: the turn's time.
    assert table.turn == state.turn + 1000
    assert table.deadline == NOW + 7

    # ``slow_action``: the member's card is applied off the event loop, and
    # ``shown_at_once``: the other hand follows at once though the trick goes on.
    card = state.legal_actions(0)[0]
    outcome = await run.tables.act(table.id, ALICE, 0, table.turn, card)
    assert game.calls == ["slow_action"] and outcome.others_changed
    assert ui.calls == ["shown_at_once"]

    # Bob's time runs out: a stand-in of the slow level decides in the search thread,
    # through ``stand_in_actions`` and, by its default, ``Game.stand_in_view``.
    Recording.threads.clear()
    deadline = table.deadline
    assert deadline is not None
    run.clock[0] = deadline + 1
    expired = await run.tables._expire(table, deadline)
    assert expired is not None and expired.finished
    assert "stand_in_actions" in ui.calls and "stand_in_view" in game.calls
    assert Recording.threads and all(t.startswith("computers") for t in Recording.threads)

    # The end: ``rated`` false, ``scores_public`` false (no score, no win),
    # ``standings_post`` false (no standings post, only the last table edit).
    last = run.written[-1]
    assert last["rated"] is False
    assert last["owed"] == ["table"]
    assert [(r.score, r.win) for r in last["results"]] == [(0, 0.0), (0, 0.0)]


async def test_the_defaults_of_the_hooks_the_tables_read(
    harness: Callable[[GameUI], Harness],
) -> None:
    run = harness(UI)
    table = await run.open()
    assert table.turn == table.state.turn and table.deadline == NOW + 30
    card = table.state.legal_actions(0)[0]
    outcome = await run.tables.act(table.id, ALICE, 0, table.turn, card)
    assert not outcome.others_changed
    deadline = table.deadline
    assert deadline is not None
    run.clock[0] = deadline + 1
    await run.tables._expire(table, deadline)
    last = run.written[-1]
    assert last["rated"] is True and last["owed"] == ["end", "table"]
    assert sum(r.win for r in last["results"]) == 1.0


async def test_a_played_out_game_plays_on_when_its_last_member_leaves(
    harness: Callable[[GameUI], Harness],
) -> None:
    plain = harness(UI)
    table = await plain.open(computer=True)
    with pytest.raises(UserError) as refused:
        await plain.tables.hand_over(table.id, ALICE)
    assert refused.value.text.key == "errors.last_member_cancels"
    await plain.tables.cancel(table.id, ALICE, can_manage=True)

    Recording.threads.clear()
    hooked = harness(HookedUI())
    table = await hooked.open(computer=True)
    # ``slow_levels``: the computer seat of the slow level chose in the search thread.
    assert Recording.threads and all(t.startswith("computers") for t in Recording.threads)
    outcome = await hooked.tables.hand_over(table.id, ALICE)
    assert outcome.handed_over == 0 and table.status == "finished"


async def test_a_watching_level_is_shown_every_move_of_its_own_seat(
    harness: Callable[[GameUI], Harness],
) -> None:
    """``watching_levels``: the computer is shown its own seat's view after its own
    face-down choice and after the member's, which it sees only once the trick is shown;
    rebuilt (a restart), it is shown the same views again."""
    Recording.shown.clear()
    hooked = harness(HookedUI())
    table = await hooked.open(computer=True)
    assert [(v.chosen, len(v.tricks)) for v in Recording.shown] == [((False, True), 0)]
    live = Recording.shown[:]
    Recording.shown.clear()
    hooked.tables._rebuild_players(table)
    assert all(view in Recording.shown for view in live), "rebuilt, it sees them all again"
    Recording.shown.clear()
    card = table.state.legal_actions(0)[0]
    await hooked.tables.act(table.id, ALICE, 0, table.turn, card)
    assert [(v.chosen, len(v.tricks)) for v in Recording.shown] == [((False, False), 1)]
    assert all(v.seat == 1 for v in [*live, *Recording.shown])
    assert watchers(HIGHCARD, {1: Recording(1)}) == {}, "by default, no level watches"


def test_the_simulator_shows_a_watching_level_every_move() -> None:
    Recording.shown.clear()
    simulate(["high", "high"], 1, game=HookedGame(), timing=False)
    assert len(Recording.shown) == 2 * 2 * TRICKS, "each player, after every move"


def test_the_simulator_counts_what_the_game_tallies() -> None:
    result = simulate(["high", "high"], 2, game=HookedGame(), timing=False)
    assert result.tallies == {"tricks": 6}
    assert simulate(["high", "high"], 1, game=HIGHCARD, timing=False).tallies == {}


def test_a_state_says_how_many_hand_seats_it_has() -> None:
    class Wider(HighCardState):
        """High card with a third hand nobody sits at."""

        @property
        def seats(self) -> int:
            return 3

        def player_at(self, seat: int) -> int | None:
            return None if seat == 0 else {1: 0, 2: 1}[seat]

    assert seat_count(HIGHCARD.new_game(1)) == 2, "by default, one hand per player"
    wider = Wider(1, HIGHCARD.options_type())
    assert seat_count(wider) == 3 and own_hand(wider, 1) == 2


# --- the hooks the bot reads when it starts ---------------------------------------------


async def _hello(interaction: discord.Interaction) -> None:
    await interaction.response.send_message("hello", ephemeral=True)


class Rules:
    """Match rules of no event (the bot only has to find them)."""

    game = "highcard"


class StartingUI(HighCardUI):
    match_rules: MatchRules | None = Rules()  # type: ignore[assignment]

    def subcommands(self, bot: Any) -> list[Subcommand]:
        return [app_commands.Command(name="hello", description="Say hello.", callback=_hello)]


@pytest.fixture
def starting() -> Iterator[None]:
    """High card, with ``subcommands`` and ``match_rules``, joins before the bot starts."""
    with engine_games.registered(HIGHCARD), games.registered(StartingUI()):
        yield


async def test_the_bot_reads_subcommands_and_match_rules(starting: None, world: World) -> None:
    group = world.bot.tree.get_command("highcard")
    assert isinstance(group, app_commands.Group)
    assert group.get_command("hello") is not None
    assert "highcard" in world.bot.matches.rules
    assert "dupe" not in world.bot.matches.rules, "a game without match rules has none"
