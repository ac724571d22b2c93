"""Whist on Discord, end to end through simcord: a whole unit of play (or its first deals)
of every variant, members in the dummies' partners' seats and computers in the rest,
checked against an engine replay of the stored moves; every body is one Discord accepts
and nothing hidden (a dummy before it is spread, Humbug's dead and discarded hands,
two-hand's unused cards, the turn-up after trick 1) reaches anyone who may not see it."""

from __future__ import annotations

import dataclasses
import sqlite3
from typing import Any

import pytest
import simcord

from bot import ids
from bot.app import Bot
from engine.whist import EAST, NORTH, Move, Phase, WhistState, WhistView, replay
from engine.whist import players as whist_players
from tests.bot.helpers import buttons
from tests.bot.secrets_scan import scan_secrets, turnups_repeated
from tests.bot.whole_game import Game, Recorder, Sent, open_table, play
from tests.discord_api_rules import check_request, validators


def stored_moves(bot: Bot, game_id: int) -> list[tuple[int, str, int]]:
    """Return the table's move log, read from the database file as an operator would."""
    with sqlite3.connect(f"file:{bot.settings.database}?mode=ro", uri=True) as db:
        query = "SELECT seat, move, by_computer FROM moves WHERE game_id = ? ORDER BY ply"
        return list(db.execute(query, (game_id,)))


async def check_against_replay(game: Game, options: Any, live: WhistState | None) -> WhistState:
    """The stored moves replay to the table the bot has (or finished with): the same moves,
    deals, scores and totals; a finished table's stored results are the totals."""
    rows = stored_moves(game.bot, game.game_id)
    record = await game.bot.store.game(game.game_id)
    assert record is not None and record.game == "whist"
    state = replay(record.seed, options, [move for _, move, _ in rows])
    if live is not None:
        assert [str(m) for m in state.moves] == [str(m) for m in live.moves]
        assert state.results == live.results and state.totals == live.totals
        assert state.public_view() == live.public_view()
    else:
        assert record.status == "finished" and state.is_over
        with sqlite3.connect(f"file:{game.bot.settings.database}?mode=ro", uri=True) as db:
            scores = dict(
                db.execute("SELECT seat, score FROM results WHERE game_id = ?", (game.game_id,))
            )
        assert scores == dict(enumerate(state.totals))
    return state


def bodies_are_valid(env: simcord.Env) -> None:
    schemas = validators()
    wrong = [
        problem
        for entry in env.http_requests
        for problem in check_request(entry.method, entry.path, entry.json, schemas)
    ]
    assert wrong == []


DUMMIES = {"english_dummy": {NORTH}, "mort": {NORTH}, "double_dummy": {NORTH, EAST}}
"""The hands that are dummies, by variant."""


def deals(n: int) -> Any:
    return lambda state: len(state.results) >= n


UNITS = [
    # variant options, members, deals to play (None: the whole unit), seed, leak scan
    pytest.param({"variant": "short"}, 2, None, 5, False, id="short-rubber"),
    pytest.param({"variant": "short", "pictures": "on"}, 4, 1, 6, True, id="short-4-pictures-scan"),
    pytest.param(
        # Player 1 (a member) partners dummy; the other member and a computer oppose.
        {"variant": "english_dummy", "fixed_dummy": "on", "rubbers": 1},
        2,
        None,
        7,
        False,
        id="english-dummy-rubber",
    ),
    pytest.param(
        {"variant": "english_dummy", "dummy_shown": "after_opening_lead"},
        3,
        1,
        8,
        True,
        id="english-dummy-after-lead-scan",
    ),
    pytest.param({"variant": "double_dummy"}, 2, 2, 15, True, id="double-dummy-scan"),
    pytest.param({"variant": "humbug"}, 2, None, 10, False, id="humbug-rubber"),
    pytest.param({"variant": "humbug"}, 2, 1, 16, True, id="humbug-scan"),
    pytest.param(
        {"variant": "humbug", "declared_trump": "on"}, 2, 1, 11, True, id="humbug-declared-scan"
    ),
    pytest.param({"variant": "two_hand"}, 2, 2, 12, True, id="two-hand-scan"),
    pytest.param({"variant": "mort", "players": 3}, 3, None, 13, False, id="mort-3-tournee"),
    pytest.param({"variant": "mort"}, 4, 1, 14, True, id="mort-4-scan"),
]


@pytest.mark.parametrize(("options", "humans", "stop", "seed", "scan"), UNITS)
async def test_whole_whist_units(
    env: simcord.Env,
    dupe_bot: Bot,
    request: pytest.FixtureRequest,
    options: dict[str, object],
    humans: int,
    stop: int | None,
    seed: int,
    scan: bool,
) -> None:
    """Members play from their private messages (the dummies' partners among them),
    computers fill the other seats; the stored moves replay to the same table. The leak
    scan (it records every request with the tables of its moment, which is slow) reads
    the first deals of each variant."""
    recorder: Recorder | None = request.getfixturevalue("recorder") if scan else None
    game = await open_table(
        env,
        dupe_bot,
        humans=humans,
        seed=seed,
        game="whist",
        turn_seconds=60,
        computers="basic",
        **options,
    )
    table = game.table
    assert table is not None and table.state is not None
    engine_options = table.state.options
    if stop is None:
        await play(game, limit=3000)
        assert game.table is None, "the unit of play finished"
        final = await check_against_replay(game, engine_options, None)
    else:
        await play(game, until=deals(stop), limit=3000)
        live = game.table
        assert live is not None and live.state is not None
        final = await check_against_replay(game, engine_options, live.state)
    assert len(final.results) >= (stop or 1)
    rows = stored_moves(dupe_bot, game.game_id)
    assert any(not computer for _, _, computer in rows), "members made moves"
    # Members played the cards of the dummies they partner.
    dummies = DUMMIES.get(str(options["variant"]), set())
    if dummies:
        assert any(Move.parse(m).seat in dummies for _, m, c in rows if not c)
    # The deals' summaries were posted.
    titles = [m.embeds[0].title for m in game.channel.history() if m.embeds]
    assert "Deal 1 scored" in titles
    if recorder is not None:
        problems, read = scan_secrets(env, recorder)
        assert read > 10 and problems == [], problems[:5]
        if options.get("pictures") == "on":  # the trick and hand pictures were scanned too
            kinds = {recorder.drawn[u.data].kind for u in recorder.uploaded}
            assert "trick_picture" in kinds, kinds
    if stop is None:  # the finished unit's replay steps through its moves
        who = game.players[0].actor
        shown = await who.slash(game.channel, "replay", game=game.game_id)
        assert shown.response is not None and shown.ephemeral
        first = shown.response.embeds[0]
        assert "step 1 of" in (first.footer.text or "") and ":" in (first.description or "")
    bodies_are_valid(env)


class Spy:
    """A computer player that records every view it is given."""

    def __init__(self, player: Any) -> None:
        self.player = player
        self.name = player.name
        self.seen: list[Any] = []

    def observe(self, view: Any) -> None:
        self.seen.append(view)
        self.player.observe(view)

    def act(self, view: Any) -> Any:
        self.seen.append(view)
        return self.player.act(view)


SCANS = [
    # variant options, members, seed, whether the member's time runs out on odd tricks
    pytest.param({"variant": "short"}, 1, 41, True, id="short-one-member-stand-ins"),
    pytest.param({"variant": "humbug"}, 1, 42, False, id="humbug-member-exchanges"),
    pytest.param(
        {"variant": "mort", "players": 3, "dummy_shown": "after_opening_lead"},
        1,
        44,
        False,
        id="mort-after-lead-computers",
    ),
    pytest.param(
        {"variant": "english_dummy", "dummy_shown": "after_opening_lead"},
        1,
        43,
        False,
        id="english-dummy-after-lead-computers",
    ),
]


@pytest.mark.parametrize(("options", "humans", "seed", "idle"), SCANS)
async def test_computers_spectators_and_logs_see_no_hidden_card_nor_the_turnup_again(
    env: simcord.Env,
    dupe_bot: Bot,
    recorder: Recorder,
    monkeypatch: pytest.MonkeyPatch,
    options: dict[str, object],
    humans: int,
    seed: int,
    idle: bool,
) -> None:
    """Computers fill most seats (a dummy's partner, Humbug's opponent, stand-ins for a
    member whose time ran out): each computer player is given views only, all of one
    player (its own seat's, or the late member's it stands in for), never the state. The
    spectator and the member ask for the table and the hand after trick 1: nothing hidden
    reaches a wrong audience or a log line, and once the dealer has played to trick 1 no
    message names the turned card as the turn-up again (public or private)."""
    spies: list[Spy] = []

    def spied(factory: Any) -> Any:
        def make(player_seed: int) -> Spy:
            spy = Spy(factory(player_seed))
            spies.append(spy)
            return spy

        return make

    monkeypatch.setattr(
        whist_players, "LEVELS", {k: spied(f) for k, f in whist_players.LEVELS.items()}
    )
    game = await open_table(
        env,
        dupe_bot,
        humans=humans,
        seed=seed,
        game="whist",
        turn_seconds=60,
        computers="basic",
        **options,
    )
    member = game.players[0]
    if options["variant"] == "humbug":
        # The member gives up his hand: it stays his alone to see (and nobody else's).
        hand = game.hand(member)
        assert hand is not None
        exchange = next(
            c
            for c in (b.custom_id or "" for b in buttons(hand))
            if isinstance(p := ids.parse(c), ids.Control) and p.payload == "=exchange"
        )
        await member.actor.click(hand.message, custom_id=exchange)
        await play(game, until=lambda s: s.phase is Phase.PLAY)
        live = game.table
        assert live is not None and live.state is not None
        seat = live.state.seat_of(live.seat_of(member.actor.id))
        given_up = live.state.discarded(seat)
        assert given_up is not None
        shown = game.hand(member)
        assert shown is not None and "The hand you gave up (only you see it)" in shown.content
    await play(game, idle=0 if idle else None, until=lambda s: s.completed >= 2)
    for who in (game.spectator, member.actor):
        shown = await who.slash(game.channel, "whist status")
        assert shown.response is not None and shown.ephemeral
    await game.open_hand(member)
    await play(game, idle=0 if idle else None, until=deals(1), limit=3000)

    problems, read = scan_secrets(env, recorder)
    assert read > 10 and problems == [], problems[:5]
    repeated, after_trick_one = turnups_repeated(env, recorder)
    assert after_trick_one > 5 and repeated == [], repeated[:5]

    # ... and that check sees a repeat planted in a table edit of such a moment.
    def off_view(sent: Sent) -> list[str]:
        return [
            str(t.state.turnup)
            for t in sent.moment.values()
            if t.state is not None
            and not t.state.is_over
            and t.state.turnup is not None
            and t.state.public_view().turnup is None
        ]

    edits = [s for s in recorder.sent if s.entry.method == "PATCH" and off_view(s)]
    planted = edits[-1]
    body = {**planted.entry.json, "content": f"Trumps (turned up: {off_view(planted)[0]})"}
    entry = dataclasses.replace(planted.entry, json=body)
    recorder.sent.append(dataclasses.replace(planted, index=len(recorder.sent), entry=entry))
    caught, _ = turnups_repeated(env, recorder)
    assert len(caught) == 1, caught
    recorder.sent.pop()
    # Each computer saw views only, each of one player; a seat's own computer, its seat's.
    assert spies and all(spy.seen for spy in spies[:1])
    for spy in spies:
        assert all(isinstance(view, WhistView) for view in spy.seen)
        assert len({view.player for view in spy.seen}) <= 1, spy.name
    table = game.table
    assert table is not None
    for seat, player in table.players.items():
        assert isinstance(player, Spy) and player.seen
        assert {view.player for view in player.seen} == {seat}
    if idle:  # stand-ins decided for the member, seeing only the member's views
        stand_ins = [s for s in spies if s not in table.players.values() and s.seen]
        member_seat = table.seat_of(member.actor.id)
        assert stand_ins and all(v.player == member_seat for s in stand_ins for v in s.seen)
