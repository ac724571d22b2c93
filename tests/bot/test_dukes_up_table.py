"""Dukes Up! on Discord, end to end through simcord: a whole match by two members, every
step a click, a select or a form on a message the member can see; refusals answered with
their reason and nothing changed; a restart in the middle of a turn keeps the working copy;
nothing secret reaches the opponent, spectators or the logs; every body is one Discord
accepts (select menus and the regroup form included)."""

from __future__ import annotations

from typing import Any

import discord
import simcord

from bot import ids
from bot.games.dukes_up.render import sym
from engine.dukes_up import DukesUpState, Kind, replay
from tests.bot.driver import World, forge_click
from tests.bot.secrets_scan import scan_secrets
from tests.bot.whole_game import Recorder
from tests.discord_api_rules import check_request, validators

Hand = simcord.ResponseMessage


def controls(hand: Hand) -> dict[str, Any]:
    """Return the hand's enabled components by their payload (buttons and selects)."""
    found: dict[str, Any] = {}
    for row in hand.message.components:
        for child in getattr(row, "children", []):
            custom_id = getattr(child, "custom_id", None) or ""
            parsed = ids.parse(custom_id)
            if isinstance(parsed, ids.Control) and not getattr(child, "disabled", False):
                found[parsed.payload] = child
    return found


class Match:
    """Two members at one table, followed through their panels and the bot's state."""

    def __init__(self, world: World, members: list[simcord.MemberActor], game_id: int) -> None:
        self.world = world
        self.game_id = game_id
        self.members = members
        self.hands: dict[int, Hand] = {}
        self.kinds: set[str] = set()

    @property
    def state(self) -> DukesUpState:
        """Return the table's state: the live one, or, once finished, the stored log's."""
        live = self.world.bot.controller.tables.tables.get(self.game_id)
        if live is not None:
            self.options = live.state.options
            state: DukesUpState = live.state
            return state
        ((seed,),) = self.world.query("SELECT seed FROM games WHERE id = ?", (self.game_id,))
        rows = self.world.query(
            "SELECT move FROM moves WHERE game_id = ? ORDER BY ply", (self.game_id,)
        )
        return replay(seed, self.options, [m for (m,) in rows])

    def seat(self, member: simcord.MemberActor) -> int:
        seat = self.world.bot.controller.tables.table(self.game_id).seat_of(member.id)
        assert seat is not None
        return seat

    def member(self, seat: int) -> simcord.MemberActor:
        return next(m for m in self.members if self.seat(m) == seat)

    async def open(self, seat: int) -> Hand:
        public = next(m for m in self.world.messages() if m.id == self.table_message_id())
        shown = await self.member(seat).click(
            public, custom_id=ids.table_button(self.game_id, "hand")
        )
        assert shown.response is not None and shown.response.ephemeral
        self.hands[seat] = shown.response
        return shown.response

    def table_message_id(self) -> int:
        message_id = self.world.bot.controller.tables.table(self.game_id).message_id
        assert message_id is not None
        return message_id

    def panel(self, seat: int) -> dict[str, Any]:
        return controls(self.hands[seat])

    async def press(self, seat: int, payload: str) -> simcord.InteractionResult:
        shown = self.panel(seat)
        assert payload in shown, (payload, sorted(shown), self.hands[seat].content)
        result = await self.member(seat).click(
            self.hands[seat].message, custom_id=shown[payload].custom_id
        )
        self.follow(seat, result)
        return result

    def follow(self, seat: int, result: simcord.InteractionResult) -> None:
        """Keep the member's panel: the answer edits it, or brings a fresh one."""
        assert result.acknowledged, result
        if result.response is not None and result.response.ephemeral:
            assert result.response.id == self.hands[seat].id, "answered in the panel itself"
            self.hands[seat] = result.response

    async def choose(self, seat: int, payload: str, values: list[str]) -> None:
        shown = self.panel(seat)
        assert payload in shown, (payload, sorted(shown), self.hands[seat].content)
        result = await self.member(seat).select(
            self.hands[seat].message, values, custom_id=shown[payload].custom_id
        )
        self.follow(seat, result)

    async def place(self, seat: int, cards: list[str], button: str) -> None:
        await self.choose(seat, "cs", cards)
        await self.press(seat, button + ",".join(cards))

    def moves(self) -> int:
        return len(self.state.moves)


async def open_match(world: World, turn: int = 900, **options: Any) -> Match:
    """Open a table for alice and bob (no computers) and open both panels."""
    alice, bob = world.members("alice", "bob")
    opened = await alice.slash(
        world.channel, "dukesup start", turn_time=turn, computers="none", **options
    )
    assert opened.response is not None and not opened.ephemeral
    table = world.bot.controller.tables.table_in(world.channel.id)
    assert table is not None
    await bob.click(opened.response.message, custom_id=ids.table_button(table.id, "join"))
    await alice.click(opened.response.message, custom_id=ids.table_button(table.id, "start"))
    match = Match(world, [alice, bob], table.id)
    for seat in (0, 1):
        await match.open(seat)
    return match


async def setup_both(match: Match) -> None:
    for seat in (0, 1):
        cards = [c.code for c in match.state.view(seat).setup]
        await match.choose(seat, "sc", [cards[0]])
        await match.choose(seat, f"sd{cards[0]}", cards[1:3])
        assert cards[3] in "".join(match.hands[seat].content.split()) or sym(cards[3]) in (
            match.hands[seat].content
        )
        await match.press(seat, f"su{cards[0]}.{cards[1]}.{cards[2]}")
        if seat == 0:
            # Not revealed before both have chosen: the board names no duke of Black yet.
            board = match.world.bot.controller.tables.table(match.game_id)
            assert board.state.public_view().dukes[0] is None


def _end_steps(state: DukesUpState, seat: int) -> list[Any]:
    return [a for a in state.view(seat).legal if a.kind in (Kind.DISCARD, Kind.FINISH)]


async def end_turn(match: Match, seat: int, prefer: str) -> None:
    """End the turn with the ``prefer``red option when legal, else any legal one."""
    legal = _end_steps(match.state, seat)
    if not legal:  # what was placed cannot end the turn (THE MOVE, say): start it again
        await match.press(seat, "rs")
        match.kinds.add("reset")
        legal = _end_steps(match.state, seat)
    finish = [a for a in legal if a.kind is Kind.FINISH]
    chosen = finish or [a for a in legal if a.word == prefer] or legal
    action = chosen[0]
    before = match.moves()
    if action.kind is Kind.FINISH:
        await match.press(seat, "fi")
        match.kinds.add("finish")
    else:
        await match.choose(seat, "dk", [action.word])
        codes = [c.code for c in action.cards]
        if action.word != "d3":
            await match.choose(seat, f"dc{action.word[1]}", codes)
        if action.word == "d2":  # then which card ends on top: the second one
            await match.press(seat, "tp" + ",".join(codes))
        match.kinds.add(action.word)
    assert match.moves() > before


async def play_turn(match: Match, seat: int, number: int) -> None:
    """One turn of the member in ``seat``, varied by ``number`` to reach every action."""
    state = match.state
    view = state.view(seat)
    draws = [a for a in view.legal if a.kind is Kind.DRAW]
    wanted = [a for a in draws if a.word == "discard" and a.n > 0] if number % 3 == 2 else []
    draw = wanted[0] if wanted else max(draws, key=lambda a: (a.word == "draw", a.n))
    letter = "d" if draw.word == "draw" else "x"
    await match.press(seat, f"d{letter}{draw.n}")
    match.kinds.add(f"draw-{draw.word}")
    if number % 5 == 4 and not match.state.view(seat).actions:
        await end_turn(match, seat, "d2")
        return
    # place what the legal listing offers: a new group, an accepted proposal, an addition
    for _ in range(3):
        legal = match.state.view(seat).legal
        news = [a for a in legal if a.kind is Kind.NEW]
        accepts = [a for a in legal if a.kind is Kind.ACCEPT]
        adds = [a for a in legal if a.kind is Kind.ADD]
        if adds and number % 2:
            news = accepts = []
        if news:
            await match.place(seat, [c.code for c in news[0].cards], "nw")
            match.kinds.add("new")
        elif accepts:
            placed = [c for g in accepts[0].partition for c in g]
            cards = [c.code for c in placed if c in _sources(match, seat)]
            await match.place(seat, cards, "pr")
            await match.press(seat, "ac" + ",".join(cards))
            match.kinds.add("accept")
        elif adds:
            action = adds[0]
            codes = ",".join(c.code for c in action.cards)
            await match.place(seat, [c.code for c in action.cards], "ag")
            await match.choose(seat, "ad" + codes, [str(action.groups[0])])
            match.kinds.add("add")
        else:
            break
    await end_turn(match, seat, ("d1", "d3", "d4")[number % 3])


def _sources(match: Match, seat: int) -> set[Any]:
    from bot.games.dukes_up.render import sources

    return set(sources(match.state.view(seat)))


async def test_a_whole_match_by_two_members(world: World, recorder: Recorder) -> None:
    world.pin_seed(7)
    match = await open_match(world, max_turns=50)
    await setup_both(match)
    state = match.state
    assert state.phase == "turn"
    first = state.to_act[0]
    other = 1 - first

    # A refused end step: Finish with no castle on the table. The panel says why, and
    # nothing changed.
    await match.press(first, "dd2")
    before = match.moves()
    point = world.bot.controller.tables.table(match.game_id).turn
    forged = ids.control(match.game_id, first, point, "fi")
    refused = await forge_click(match.member(first), match.hands[first].message, forged)
    assert refused.acknowledged
    assert "Refused: Finish needs" in match.hands[first].content
    assert match.moves() == before

    # Regroup… opens a form; the typed layout (here an empty table) is checked.
    # New group with one card: the working copy marks it ⚠ and the discard is refused (E1).
    card = match.state.view(first).hand[0].code
    await match.place(first, [card], "nw")
    assert "⚠" in match.hands[first].content
    await match.choose(first, "dk", ["d1"])
    assert "Refused: The table is not valid" in match.hands[first].content
    # The opponent and the board see nothing of the working copy.
    public = match.state.public_view()
    assert public.table == () and match.state.view(other).table == ()
    # Regroup via the form: the typed group replaces G1.
    opened = await match.press(first, "rg")
    assert opened.modal is not None
    submitted = await match.member(first).submit_modal(opened, {"f0": sym(card)})
    match.follow(first, submitted)  # the form's answer is the panel, edited in place
    assert match.state.view(first).actions[-1].kind is Kind.REGROUP
    await match.press(first, "un")
    await match.press(first, "rs")
    assert match.state.view(first).actions == ()
    # Reveal castle asks first, then shows it at once (the board too).
    await match.press(first, "rv")
    assert "cannot be undone" in match.hands[first].content
    await match.press(first, "rvy")
    assert match.state.public_view().castle_up[first]
    await end_turn(match, first, "d1")

    # The second player's first turn: a duke is picked up and set again (a swap).
    seat = other
    await match.press(seat, "dd1")
    duke = match.state.view(seat).dukes[seat][0]
    await match.press(seat, f"pu{duke.code}")
    await match.choose(seat, "cs", [duke.code])
    await match.press(seat, f"st{duke.code}")
    match.kinds |= {"pickup", "set"}
    await end_turn(match, seat, "d1")

    # A restart mid-turn keeps the working copy.
    seat = match.state.to_act[0]
    await match.press(seat, "dd0")
    hand = match.state.view(seat).hand
    await match.place(seat, [hand[0].code], "nw")
    working = match.state.view(seat).table
    await world.restart()
    recorder.bot = world.bot  # the scan follows the tables of the bot now running
    assert match.state.view(seat).table == working
    await match.open(0)
    await match.open(1)
    await match.press(seat, "rs")
    await end_turn(match, seat, "d3")

    number = 0
    while match.state.phase == "turn":
        seat = match.state.to_act[0]
        await play_turn(match, seat, number)
        number += 1
        assert number < 200
    state = match.state
    assert state.is_over and [r.end for r in state.results] == ["capture"]
    every = {"d1", "d2", "d3", "d4", "draw-draw", "draw-discard", "new", "accept", "add"}
    assert every | {"pickup", "set", "finish"} <= match.kinds, match.kinds

    # The stored log replays to the same end.
    rows = world.query("SELECT move FROM moves WHERE game_id = ? ORDER BY ply", (match.game_id,))
    again = replay(state.seed, state.options, [m for (m,) in rows])
    assert again.results == state.results
    titles = [m.embeds[0].title or "" for m in world.messages() if m.embeds]
    assert any("round 1 scored" in title for title in titles)

    problems, read = scan_secrets(world.env, recorder)
    assert read > 50 and problems == [], problems[:5]
    schemas = validators()
    wrong = [
        problem
        for entry in world.env.http_requests
        for problem in check_request(entry.method, entry.path, entry.json, schemas)
    ]
    assert wrong == []
    assert isinstance(world.messages()[0], discord.Message)
