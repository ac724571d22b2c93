"""Doppelkopf on Discord, end to end through simcord: whole tables by one to five members
in both presets, checked against an engine replay of the stored moves; announcements in
and out of turn; the public table never names a party the table does not know; every body
is one Discord accepts and nothing secret reaches anyone else."""

from __future__ import annotations

import re
import sqlite3
from typing import Any

import discord
import pytest
import simcord

from bot import ids
from bot.app import Bot
from bot.games.doppelkopf.render import action_text
from engine.doppelkopf import GAME as DOPPELKOPF
from engine.doppelkopf import DoppelkopfOptions, replay
from tests.bot.driver import World, description, forge_click, live_ids, private_text
from tests.bot.helpers import enabled
from tests.bot.secrets_scan import scan_secrets
from tests.bot.test_leaks import audience, strings
from tests.bot.whole_game import Game, Recorder, open_table, play
from tests.discord_api_rules import check_request, validators


def stored_moves(bot: Bot, game_id: int) -> list[tuple[int, str, int]]:
    """Return the game's move log, read from the database file as an operator would."""
    with sqlite3.connect(f"file:{bot.settings.database}?mode=ro", uri=True) as db:
        query = "SELECT seat, move, by_computer FROM moves WHERE game_id = ? ORDER BY ply"
        return list(db.execute(query, (game_id,)))


async def check_against_replay(game: Game, preset: str, players: int) -> None:
    """The stored moves replay to the table the bot finished, and the results agree."""
    rows = stored_moves(game.bot, game.game_id)
    record = await game.bot.store.game(game.game_id)
    assert record is not None and record.status == "finished" and record.game == "doppelkopf"
    assert len(record.seats) == players
    options = DoppelkopfOptions(preset=preset, players=players)
    state = replay(record.seed, options, [move for _, move, _ in rows])
    assert state.is_over
    with sqlite3.connect(f"file:{game.bot.settings.database}?mode=ro", uri=True) as db:
        scores = dict(
            db.execute("SELECT seat, score FROM results WHERE game_id = ?", (game.game_id,))
        )
    assert scores == dict(enumerate(state.totals))


def party_leaks(env: simcord.Env, recorder: Recorder, names: dict[int, str]) -> list[str]:
    """Return every secret of Doppelkopf's own shown in words to someone who may not know
    it: a seat's party on the table (``**name** (… Re)``) before the rules reveal it, a
    reservation's game before it wins and is declared, a silent marriage, a poverty's cards
    before someone accepts them — in every public payload and every other member's private
    one, in English and German. ``names``: each member's user id → name."""
    problems = []
    for sent in recorder.sent:
        payload = audience(env, sent)
        if payload is None:
            continue
        # what a message says (its buttons offer the reader's own choices, which may name a
        # game another seat reserved: those are looked at only for parties)
        said = "\n".join(t for key, t in strings(payload.body) if key not in ("label", "custom_id"))
        for table in sent.moment.values():
            state = table.state
            if table.game != "doppelkopf" or state is None or state.is_over:
                continue
            for seat, user in table.seats.items():
                if payload.member is not None and user == payload.member:
                    continue
                label = names.get(user or 0, f"🤖 Seat {seat + 1}")
                for token in DOPPELKOPF.secrets(state, seat):
                    for form in _forms(token, label):
                        if re.search(form, said, flags=re.IGNORECASE):
                            who = payload.member or "everyone"
                            problems.append(f"request {sent.index}: {token} shown to {who}")
    return problems


def _forms(token: str, label: str) -> list[str]:
    """Return the patterns a secret token would be shown as."""
    head, _, rest = token.partition(":")
    if head == "poverty":
        return [re.escape(action_text(lang, token)) for lang in ("en", "de")]
    if not head.isdigit():
        return []  # a card code: the generic scan looks for cards
    if rest in ("re", "contra"):
        return [rf"\*\*{re.escape(label)}\*\* \([^)\n]*(Re|Contra|Kontra)\)"]
    if rest == "silent-marriage":
        return ["silent marriage", "stille Hochzeit"]
    return [re.escape(action_text(lang, rest)) for lang in ("en", "de")]


def bodies_are_valid(env: simcord.Env) -> None:
    schemas = validators()
    wrong = [
        problem
        for entry in env.http_requests
        for problem in check_request(entry.method, entry.path, entry.json, schemas)
    ]
    assert wrong == []


@pytest.mark.parametrize(
    ("humans", "options", "seats", "players"),
    [
        (1, {}, 4, 4),
        (4, {}, 4, 4),
        # a house table offers five seats: four members and the computer the lobby adds
        (4, {"preset": "house"}, 5, 5),
        # five asked for: only five seats, computers fill three
        (2, {"preset": "house", "players": 5}, 5, 5),
    ],
    ids=["tournament-1", "tournament-4", "house-4", "house-5"],
)
async def test_whole_doppelkopf_tables(
    env: simcord.Env,
    dupe_bot: Bot,
    recorder: Recorder,
    humans: int,
    options: dict[str, object],
    seats: int,
    players: int,
) -> None:
    game = await open_table(
        env, dupe_bot, humans=humans, seed=11, game="doppelkopf", turn_seconds=60, **options
    )
    assert game.table is not None and game.table.max_seats == seats
    await play(game, idle=0 if humans > 1 else None)
    await check_against_replay(game, str(options.get("preset", "tournament")), players)
    rows = stored_moves(dupe_bot, game.game_id)
    assert any(not computer for _, _, computer in rows), "members made moves"
    posts = [
        m
        for m in game.channel.history()
        if m.embeds and (m.embeds[0].title or "").startswith("Game 1:")
    ]
    assert posts, "the first game's breakdown was posted"
    problems, read = scan_secrets(env, recorder)
    assert read > 10 and problems == [], problems[:5]
    names = {p.actor.id: p.actor.name for p in game.players}
    assert party_leaks(env, recorder, names) == []
    bodies_are_valid(env)
    # The finished table's replay: one step per move, reservations included, then the end.
    shown = await game.players[0].actor.slash(game.channel, "replay", game=game.game_id)
    assert shown.response is not None and shown.ephemeral
    first = shown.response.embeds[0]
    assert "step 1 of" in (first.footer.text or "") and ":" in (first.description or "")
    following = [i for i in live_ids(shown.response) if i.endswith(":n")]
    step = await game.players[0].actor.click(shown.response.message, custom_id=following[0])
    assert step.response is not None and "step 2 of" in (step.response.embeds[0].footer.text or "")


def payloads(hand: simcord.ResponseMessage) -> dict[str, str]:
    """Return the hand's enabled controls: payload → custom id."""
    found = {}
    for custom_id in live_ids(hand):
        parsed = ids.parse(custom_id)
        if isinstance(parsed, ids.Control):
            found[parsed.payload] = custom_id
    return found


def seat_lines(message: discord.Message) -> dict[int, str]:
    """Return each seat's line of the public table message (seats 1…n, in order)."""
    lines = [line for line in description(message).split("\n") if line.startswith("**")]
    return dict(enumerate(lines))


async def test_announcements_in_and_out_of_turn_parties_kept_secret_and_a_restart(
    world: World,
) -> None:
    """Four members: the reservations are private (the table hears only "healthy"); at the
    start of play the table names nobody's party; a member announces out of turn and the
    table names that announcement and party; a restart keeps old buttons working."""
    world.pin_seed(5)
    members = world.members("alice", "bob", "carol", "dave")
    opened = await members[0].slash(world.channel, "doppelkopf start", turn_time=900)
    assert opened.response is not None
    table = world.bot.controller.tables.table_in(world.channel.id)
    assert table is not None
    game_id = table.id
    for member in members[1:]:
        await member.click(opened.response.message, custom_id=ids.table_button(game_id, "join"))
    await members[0].click(opened.response.message, custom_id=ids.table_button(game_id, "start"))
    public = world.messages()[-1]
    hands: dict[int, simcord.ResponseMessage] = {}
    by_seat = {}
    for member in members:
        shown = await member.click(public, custom_id=ids.table_button(game_id, "hand"))
        assert shown.response is not None and shown.response.ephemeral
        seat = world.bot.controller.tables.table(game_id).seat_of(member.id)
        assert seat is not None
        hands[seat], by_seat[seat] = shown.response, member

    def state() -> Any:
        return world.bot.controller.tables.table(game_id).state

    # Reservations: each in turn says healthy, privately.
    while state().phase == "reservations":
        seat = state().to_act[0]
        choices = payloads(hands[seat])
        assert {"=healthy", "=solo.queens"} <= set(choices)
        await by_seat[seat].click(hands[seat].message, custom_id=choices["=healthy"])
    assert state().phase == "play"
    await world.env.advance_time(5)
    lines = seat_lines(_table_message(world, game_id))
    known = set(state().public_view().data["parties"])
    for seat, line in lines.items():
        for party, word in (("re", "Re"), ("contra", "Contra")):
            shown = f", {word})" in line or f"({word})" in line
            assert shown == (f"{seat}:{party}" in known), (seat, line, known)

    # Out of turn: a member who is not to play announces; the table names it.
    speaker = state().to_act[0]
    other = next(
        s for s in range(4) if s != speaker and ({"=re", "=contra"} & set(payloads(hands[s])))
    )
    word = "=re" if "=re" in payloads(hands[other]) else "=contra"
    before = payloads(hands[speaker])  # the speaker's buttons as they were
    await by_seat[other].click(hands[other].message, custom_id=payloads(hands[other])[word])
    (last,) = world.query(
        "SELECT move FROM moves WHERE game_id = ? ORDER BY ply DESC LIMIT 1", (game_id,)
    )
    assert last == (f"{other + 1}:{word[1:]}",)
    assert f"{other}:{word[1:]}" in state().public_view().data["parties"]
    await world.env.advance_time(5)
    said = "Re" if word == "=re" else "Contra"
    assert f"Announced: {said}" in description(_table_message(world, game_id))
    assert word not in payloads(hands[other]), "the announcement is made; its button is gone"

    # The speaker pressed a card at the same moment: the announcement got there first, the
    # card press does nothing, and the speaker is told why.
    card = next(p for p in before if len(p) == 3 and p[0] == "=")
    moves = len(world.query("SELECT ply FROM moves WHERE game_id = ?", (game_id,)))
    # (the press left before the speaker's hand was redrawn: sent as that older message had it)
    late = await forge_click(by_seat[speaker], hands[speaker], before[card])
    assert late.acknowledged
    said_word = "Re" if word == "=re" else "Contra"
    assert hands[speaker].content.startswith("⚠️ Too late:")
    assert f"announced {said_word} first" in hands[speaker].content
    assert len(world.query("SELECT ply FROM moves WHERE game_id = ?", (game_id,))) == moves

    # A restart; the speaker plays a card from the hand message sent before it.
    cards = [p for p in payloads(hands[speaker]) if len(p) == 3 and p[0] == "="]
    assert cards
    moves_before = len(world.query("SELECT ply FROM moves WHERE game_id = ?", (game_id,)))
    await world.restart()
    result = await by_seat[speaker].click(
        hands[speaker].message, custom_id=payloads(hands[speaker])[cards[0]]
    )
    assert result.acknowledged
    moves_after = len(world.query("SELECT ply FROM moves WHERE game_id = ?", (game_id,)))
    assert moves_after == moves_before + 1


def _table_message(world: World, game_id: int) -> discord.Message:
    (message_id,) = world.query("SELECT message_id FROM games WHERE id = ?", (game_id,))[0]
    return next(m for m in world.messages() if m.id == message_id)


# --- chosen deals, four members ----------------------------------------------------------------


def find_seed(options: DoppelkopfOptions, wanted: Any) -> int:
    """Return the first seed whose first deal satisfies ``wanted(state)``."""
    from engine.doppelkopf import new_game

    for seed in range(1, 20000):
        if wanted(new_game(seed, options)):
            return seed
    raise AssertionError("no such deal")


class Table:
    """A Doppelkopf table of four members (seats 0–3 in join order) driven by payloads."""

    def __init__(self, world: World, game_id: int, members: list[simcord.MemberActor]) -> None:
        self.world = world
        self.game_id = game_id
        self.members = members
        self.hands: dict[int, simcord.ResponseMessage] = {}

    @classmethod
    async def open(cls, world: World, seed: int, **options: Any) -> Table:
        world.pin_seed(seed)
        members = world.members("wes", "nora", "ed", "sam")
        opened = await members[0].slash(world.channel, "doppelkopf start", turn_time=900, **options)
        assert opened.response is not None
        found = world.bot.controller.tables.table_in(world.channel.id)
        assert found is not None
        table = cls(world, found.id, members)
        for member in members[1:]:
            await member.click(
                opened.response.message, custom_id=ids.table_button(found.id, "join")
            )
        await members[0].click(
            opened.response.message, custom_id=ids.table_button(found.id, "start")
        )
        for seat, member in enumerate(members):
            shown = await member.click(table.public(), custom_id=ids.table_button(found.id, "hand"))
            assert shown.response is not None and shown.response.ephemeral
            table.hands[seat] = shown.response
        return table

    def state(self) -> Any:
        return self.world.bot.controller.tables.table(self.game_id).state

    def public(self) -> discord.Message:
        return _table_message(self.world, self.game_id)

    def controls(self, seat: int) -> dict[str, str]:
        return payloads(self.hands[seat])

    async def press(self, seat: int, payload: str) -> simcord.InteractionResult:
        options = self.controls(seat)
        assert payload in options, (seat, payload, sorted(options))
        result = await self.members[seat].click(
            self.hands[seat].message, custom_id=options[payload]
        )
        assert result.acknowledged
        return result

    async def play_cards(self, until: Any = lambda state: False) -> None:
        """Play the first legal card of whoever is to play until ``until(state)`` or the
        game (the first one) is scored."""
        while not self.state().game_results and not until(self.state()):
            seat = self.state().to_act[0]
            card = next(p for p in self.controls(seat) if p.startswith("=") and len(p) == 3)
            await self.press(seat, card)

    def adding(self, seat: int) -> str:
        """Return the payload of a card not chosen yet in a choice of cards."""
        for button in enabled(self.hands[seat]):
            parsed = ids.parse(button.custom_id or "")
            adds = isinstance(parsed, ids.Control) and parsed.payload.startswith("s")
            if adds and "✓" not in (button.label or "") and parsed.payload != "s":
                return str(parsed.payload)
        raise AssertionError("no card to add")

    def stored(self) -> list[str]:
        return [
            move
            for (move,) in self.world.query(
                "SELECT move FROM moves WHERE game_id = ? ORDER BY ply", (self.game_id,)
            )
        ]


def both_club_queens(seat: int) -> Any:
    from engine.cards import parse_card

    return lambda state: state.hand(seat).count(parse_card("QC")) == 2


async def test_a_marriage_finds_its_partner_in_public(world: World) -> None:
    table = await Table.open(world, find_seed(DoppelkopfOptions(), both_club_queens(1)))
    await table.press(1, "=marriage")
    for seat in (2, 3, 0):
        await table.press(seat, "=healthy")
    state = table.state()
    assert state.game == "marriage" and state.phase == "play"
    await world.env.advance_time(5)
    assert "looks for a partner" in description(table.public())
    await table.play_cards()
    (result,) = table.state().game_results
    assert result.game in ("marriage", "marriage-solo")
    await world.env.advance_time(5)
    title = "Game 1: Marriage" if result.game == "marriage" else "Game 1: Marriage without"
    assert [m for m in world.titled(title)], "the breakdown names the game"


async def test_a_silent_marriage_is_known_to_its_holder_only(world: World) -> None:
    table = await Table.open(world, find_seed(DoppelkopfOptions(), both_club_queens(2)))
    for seat in (1, 2, 3, 0):
        await table.press(seat, "=healthy")
    assert table.state().game == "silent-marriage"
    await world.env.advance_time(5)
    assert "silent marriage" in table.hands[2].content
    for seat in (0, 1, 3):
        assert "silent" not in table.hands[seat].content.lower()
    public = description(table.public())
    assert "silent" not in public.lower() and "Normal game" not in public.split("Game:")[0]
    await table.play_cards()
    assert table.state().game_results[0].game == "silent-marriage"


async def test_a_solo_declared_privately_a_failed_claim_and_replies(world: World) -> None:
    table = await Table.open(world, 31)
    await table.press(1, "=solo.jacks")
    await world.env.advance_time(5)
    assert "nora reservation" in description(table.public())
    assert "Jacks" not in description(table.public())
    for seat in (2, 3, 0):
        await table.press(seat, "=healthy")
    assert table.state().game == "solo:jacks"
    await world.env.advance_time(5)
    assert "Jacks solo — nora" in description(table.public())
    # Contra announces, the soloist replies Re: both named on the table.
    speaker = table.state().to_act[0]
    contra = next(s for s in range(4) if s != 1)
    await table.press(contra, "=contra")
    await table.press(1, "=re")
    await world.env.advance_time(5)
    assert "Announced: Contra" in description(table.public())
    assert "Re (nora, Re)" in description(table.public())
    assert speaker == table.state().to_act[0]
    # A claim at trick 1 with an ordinary hand fails: Contra takes the rest.
    await table.press(1, "=claim")
    (result,) = table.state().game_results
    assert result.winner == "contra" and result.points == (0, 240)
    assert table.stored()[-1] == "2:claim"


async def test_a_claim_that_holds_gives_the_soloist_the_rest(world: World) -> None:
    table = await Table.open(world, 31)
    await table.press(1, "=solo.jacks")
    for seat in (2, 3, 0):
        await table.press(seat, "=healthy")

    def claim_holds(state: Any) -> bool:
        if 1 not in state.to_act or len(state.hand(1)) > 4:
            return False
        trial = state.clone()
        trial.apply(1, "claim")
        return bool(trial.game_results and trial.game_results[0].winner == "re")

    await table.play_cards(until=claim_holds)
    if not table.state().game_results:  # the soloist can prove the rest: it claims
        before = table.state().clone()
        await table.press(1, "=claim")
        (result,) = table.state().game_results
        trial = before.clone()
        trial.apply(1, "claim")
        assert result == trial.game_results[0] and result.winner == "re"
    else:  # this deal never offers a provable claim: the game is played out
        assert table.state().game_results[0].game == "solo:jacks"


def poverty_at(seat: int) -> Any:
    from engine.doppelkopf.orders import ORDERS

    normal = ORDERS["normal"]
    return lambda state: sum(1 for c in state.hand(seat) if normal.is_trump(c)) == 2


async def test_a_poverty_accepted_across_a_restart_and_one_declined_by_all(world: World) -> None:
    house = DoppelkopfOptions(preset="house")
    table = await Table.open(world, find_seed(house, poverty_at(1)), preset="house")
    await table.press(1, "=reservation")
    for seat in (2, 3, 0):
        await table.press(seat, "=no-reservation")
    await table.press(1, "=poverty")
    assert table.state().phase == "poverty-offer"
    side = next(p for p in table.controls(1) if p.startswith("s"))
    await table.press(1, side)
    give = next(p for p in table.controls(1) if p.startswith("=poverty"))
    await table.press(1, give)
    await table.press(2, "=accept")
    assert table.state().phase == "poverty-return"
    # A restart mid-exchange: the acceptor goes on with the buttons sent before it.
    old = dict(table.controls(2))
    await world.restart()
    first = next(p for p in old if p.startswith("s"))
    result = await table.members[2].click(table.hands[2].message, custom_id=old[first])
    assert result.acknowledged
    while not any(p.startswith("=return") for p in table.controls(2)):
        await table.press(2, table.adding(2))
    back = next(p for p in table.controls(2) if p.startswith("=return"))
    await table.press(2, back)
    state = table.state()
    assert state.game == "poverty" and state.party(1) == state.party(2) == "re"
    assert "You gave:" not in description(table.public())


async def test_a_poverty_declined_by_all_deals_again(world: World) -> None:
    house = DoppelkopfOptions(preset="house")
    table = await Table.open(world, find_seed(house, poverty_at(1)), preset="house")
    await table.press(1, "=reservation")
    for seat in (2, 3, 0):
        await table.press(seat, "=no-reservation")
    await table.press(1, "=poverty")
    side = next(p for p in table.controls(1) if p.startswith("s"))
    await table.press(1, side)
    await table.press(1, next(p for p in table.controls(1) if p.startswith("=poverty")))
    for seat in (2, 3, 0):
        await table.press(seat, "=decline")
    state = table.state()
    assert state.deal == 2 and state.dealer == 0 and state.game_results == ()


async def test_a_restart_mid_reservations_keeps_the_choices_made(world: World) -> None:
    table = await Table.open(world, 8)
    await table.press(1, "=healthy")
    old = dict(table.controls(2))
    await world.restart()
    result = await table.members[2].click(table.hands[2].message, custom_id=old["=healthy"])
    assert result.acknowledged
    assert table.stored()[-2:] == ["2:healthy", "3:healthy"]


async def test_a_forced_solo_with_required_solos_on(
    env: simcord.Env, dupe_bot: Bot, recorder: Recorder
) -> None:
    """One member who never declares a solo is forced to play one at the end of the round."""
    game = await open_table(
        env,
        dupe_bot,
        humans=1,
        seed=3,
        game="doppelkopf",
        turn_seconds=60,
        **{"required-solos": "on"},
        games=8,
    )
    seen_forced = []

    def forced(state: Any) -> bool:
        if state.phase == "forced" and state.to_act == (0,):
            seen_forced.append(state.deal)
        return False

    await play(game, until=forced)
    record = await dupe_bot.store.game(game.game_id)
    assert record is not None
    final = replay(record.seed, DoppelkopfOptions(required_solos=True, games=8), record.moves)
    mine = [r for r in final.game_results if r.game.startswith("solo:") and r.re == (0,)]
    assert mine, "the member played a solo"
    assert any(m.startswith("1:solo:") for m in record.moves)
    problems, _ = scan_secrets(env, recorder)
    assert problems == []


async def test_server_defaults_and_options_that_do_not_fit(world: World) -> None:
    alice = world.member("alice")
    mods = world.guild.create_role("mods", permissions=discord.Permissions(manage_guild=True))
    dora = world.member("dora", roles=[mods])
    saved = await dora.slash(world.channel, "doppelkopf defaults", preset="house", rounds=2)
    assert "• House rules\n• 4 players\n• 2 rounds" in private_text(saved)
    opened = await alice.slash(world.channel, "doppelkopf start")
    assert opened.response is not None
    footer = opened.response.embeds[0].footer.text or ""
    assert "House rules · 4 players · 2 rounds" in footer
    # Defaults no table could start with are refused and not saved.
    bad = await dora.slash(world.channel, "doppelkopf defaults", preset="tournament")
    assert "Rounds belong to the house rules" in private_text(bad)
    kept = await dora.slash(world.channel, "doppelkopf defaults")
    assert "• House rules" in private_text(kept)
    other = world.guild.create_text_channel("doko-2")
    refused = await alice.slash(other, "doppelkopf start", preset="tournament")
    text = private_text(refused)
    assert "round" in text.lower() and world.bot.controller.tables.table_in(other.id) is None
