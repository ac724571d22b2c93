"""Dukes Up!'s round ends and what follows a finished match, through simcord: exhaustion
(with and without THE MOVE), the turn limit, end round by agreement, resign with its
confirmation; then rematch, /leaderboard, /history and /replay through the generic core;
Add to… paging beyond 25 groups and the D4 regrouping offer.

Long positions are reached by committing a scripted move log through the core's write path
(``tests.bot.dukes_up_positions``); every final action is a real click, select or form on the
member's panel."""

from __future__ import annotations

from typing import Any

from bot import ids
from bot.games.dukes_up.render import GROUPS_PER_PAGE, sources, sym
from engine.cards import DECK, Card
from engine.dukes_up import DukesUpState, Kind, replay
from engine.dukes_up.layout import group_kind, offer_d4
from tests.bot.driver import World, description, forge_click, ids_of, live_ids, private_text
from tests.bot.dukes_up_positions import (
    D4_SEED,
    D4_TURN,
    EXHAUSTION_SEED,
    placing_log,
    push,
    quiet_log,
)
from tests.bot.test_dukes_up_table import Match, controls, open_match


async def reach(match: Match, moves: tuple[str, ...]) -> None:
    """Commit ``moves`` into the match's table as its members', then open both panels."""
    users = {seat: match.member(seat).id for seat in (0, 1)}
    await push(match.world.bot.controller.tables, match.game_id, users, moves)
    for seat in (0, 1):
        await match.open(seat)


async def draw_most(match: Match, seat: int) -> None:
    """Press the largest enabled draw from the draw pile."""
    shown = match.panel(seat)
    n = max(int(p[2]) for p in shown if p in ("dd0", "dd1", "dd2"))
    await match.press(seat, f"dd{n}")


def option_values(hand: Any, payload: str) -> list[str]:
    """Return the option values of the panel's select ``payload``."""
    return [o.value for o in controls(hand)[payload].options]


def select_notes(hand: Any, payload: str) -> dict[str, str]:
    return {o.value: f"{o.label} {o.description or ''}" for o in controls(hand)[payload].options}


async def exhausted_turn(world: World) -> tuple[Match, int]:
    """Return a match at the start of the turn that exhausts its mover (before the draw)."""
    world.pin_seed(EXHAUSTION_SEED)
    match = await open_match(world)
    moves, turn = placing_log(EXHAUSTION_SEED)
    assert turn > 0
    await reach(match, moves)
    (seat,) = match.state.to_act
    assert match.state.turn == turn and not match.state.drawn
    return match, seat


async def test_a_round_ends_by_exhaustion_with_finish(world: World) -> None:
    match, seat = await exhausted_turn(world)
    await draw_most(match, seat)
    view = match.state.view(seat)
    assert view.exhausted and view.draw_sizes[seat] == 0 and view.discard_sizes[seat] == 0
    hand = match.hands[seat]
    assert "this is your last turn of the round" in hand.content
    # every discard is offered disabled, with the reason; Finish is there
    notes = select_notes(hand, "dk")
    assert all(n.startswith("🚫") and "this turn ends with Finish" in n for n in notes.values())
    assert "fi" in match.panel(seat)
    scores = match.state.score()
    await match.press(seat, "fi")
    state = match.state
    assert state.is_over and [r.end for r in state.results] == ["exhaustion"]
    assert state.results[0].scores == scores
    (scored,) = world.titled("Dukes Up! — round 1 scored")
    assert "A player's piles ran out." in description(scored)
    assert world.titled("Dukes Up! — final standings")


async def test_the_move_places_the_own_castle_in_the_exhausted_turn(world: World) -> None:
    match, seat = await exhausted_turn(world)
    await draw_most(match, seat)
    castle = match.state.view(seat).castles[seat]
    assert isinstance(castle, Card) and not match.state.public_view().castle_up[seat]
    # Reveal castle asks first; it shows the castle to the opponent at once.
    await match.press(seat, "rv")
    assert "cannot be undone" in match.hands[seat].content
    await match.press(seat, "rvy")
    other = 1 - seat
    assert match.state.view(other).castles[seat] == castle
    # The castle is now a source card: propose it, accept the layout, finish.
    await match.choose(seat, "cs", [castle.code])
    await match.press(seat, f"pr{castle.code}")
    assert "✳" in match.hands[seat].content
    await match.press(seat, f"ac{castle.code}")
    assert match.state.view(seat).castles[seat] is None, "the castle is on the working table"
    # A discard is refused on an exhausted turn (and so would be any end but Finish, E3).
    await match.choose(seat, "dk", ["d1"])
    assert "Refused: Your piles are empty" in match.hands[seat].content
    await match.press(seat, "fi")
    state = match.state
    assert [r.end for r in state.results] == ["exhaustion"]
    assert state.results[0].castles[seat] == castle
    placed = [m.action for m in state.moves if m.action.kind is Kind.ACCEPT]
    assert any(castle in g for g in placed[-1].partition), "the castle went to the table"
    assert state.moves[-1].action.kind is Kind.FINISH


async def test_the_turn_limit_ends_the_round_after_that_discard(world: World) -> None:
    world.pin_seed(3)
    match = await open_match(world, max_turns=50)
    await reach(match, quiet_log(3, 49, max_turns=50))
    (seat,) = match.state.to_act
    assert match.state.turn == 50
    await match.press(seat, "dd0")
    await match.choose(seat, "dk", ["d3"])
    state = match.state
    assert state.is_over and [r.end for r in state.results] == ["turn-limit"]
    (scored,) = world.titled("Dukes Up! — round 1 scored")
    assert "The turn limit was reached." in description(scored)


async def agreed_match(world: World) -> tuple[Match, Card, Card]:
    """Play a short match by clicks that ends by agreement: the first mover discards a card
    (D1), the second places a card on its working table and both press End round. Return
    the match, the discarded card and the card of the dropped working copy."""
    world.pin_seed(5)
    match = await open_match(world)
    await reach(match, quiet_log(5, 0))
    (first,) = match.state.to_act
    second = 1 - first
    await match.press(first, "dd2")
    discarded = match.state.view(first).hand[0]
    await match.choose(first, "dk", ["d1"])
    await match.choose(first, "dc1", [discarded.code])
    await match.open(second)
    await match.press(second, "dd1")
    placed = match.state.view(second).hand[0]
    await match.place(second, [placed.code], "nw")
    await match.press(second, "er")
    assert match.state.view(second).agreed[second]
    assert not match.state.is_over, "one player alone does not end the round"
    await match.open(first)
    await match.press(first, "er")
    return match, discarded, placed


async def test_end_round_by_agreement_scores_the_committed_table(world: World) -> None:
    match, _, placed = await agreed_match(world)
    state = match.state
    assert state.is_over and [r.end for r in state.results] == ["agreement"]
    # the working copy was dropped: the scored table is empty
    assert state.public_view().table == ()
    assert state.results[0].scores == (3, 3)
    (scored,) = world.titled("Dukes Up! — round 1 scored")
    assert "Both players agreed to end the round." in description(scored)
    assert placed in state.results[0].hands[1 - state.first_player]


async def test_resign_asks_first_and_the_opponent_wins_the_match(world: World) -> None:
    world.pin_seed(9)
    match = await open_match(world)
    await reach(match, quiet_log(9, 1))
    (mover,) = match.state.to_act
    waiting = 1 - mover
    winner = match.member(mover).name
    # The seat not to move may resign too; it asks first, and Back changes nothing.
    await match.press(waiting, "rz")
    assert "Resign the match? Your opponent wins it." in match.hands[waiting].content
    await match.press(waiting, "x")
    assert not match.state.is_over
    await match.press(waiting, "rz")
    await match.press(waiting, "rzy")
    state = match.state
    assert state.is_over and state.winners == (mover,) and state.results == ()
    rows = world.query(
        "SELECT seat, win FROM results WHERE game_id = ? ORDER BY seat", (match.game_id,)
    )
    assert dict(rows) == {mover: 1.0, waiting: 0.0}
    (standings,) = world.titled("Dukes Up! — final standings")
    assert winner in description(standings).split("\n\n")[-1]


async def test_a_finished_match_has_rematch_leaderboard_history_and_a_replay_without_secrets(
    world: World,
) -> None:
    match, discarded, placed = await agreed_match(world)
    alice, bob = match.members
    game_id = match.game_id

    # /replay: one page per completed turn and the result; never the working copy, the
    # discarded card or a pile's order.
    shown = await bob.slash(world.channel, "replay", game=game_id)
    page = shown.response
    assert page is not None and shown.ephemeral
    pages = [description(page)]
    while True:
        following = [i for i in live_ids(page) if i.endswith(":n")]
        if not following:
            break
        moved = await bob.click(page.message, custom_id=following[0])
        assert moved.response is not None
        page = moved.response
        pages.append(description(page))
    assert len(pages) >= 3, pages
    footer = page.embeds[0].footer.text or ""
    assert f"step {len(pages)} of {len(pages)}" in footer
    for text in pages:
        assert sym(discarded) not in text and sym(placed) not in text, text
        assert "G1" not in text, "no group was ever committed"

    # /history lists the match; /leaderboard has both players.
    history = await alice.slash(world.channel, "history")
    assert history.response is not None
    assert f"Dukes Up! #{game_id}" in description(history.response)
    board = await alice.slash(world.channel, "leaderboard", game="dukes_up")
    assert board.response is not None
    assert board.response.embeds[0].title == "Dukes Up! leaderboard"
    text = description(board.response)
    assert f"<@{alice.id}>" in text and f"<@{bob.id}>" in text

    # Rematch: both say yes; the same seats and rules, a new deal.
    (standings,) = world.titled("Dukes Up! — final standings")
    assert ids.table_button(game_id, "rematch") in ids_of(standings)
    world.pin_seed(6)
    opened = await bob.click(standings, label="🔁 Rematch")
    assert opened.response is not None and not opened.response.ephemeral
    yes = await alice.click(standings, label="🔁 Rematch")
    assert private_text(yes) == "You are in the rematch. It starts now."
    table = world.bot.controller.tables.table_in(world.channel.id)
    assert table is not None and table.id != game_id and table.game == "dukes_up"
    assert table.status == "playing" and table.state.phase == "choose"
    seats = world.query("SELECT seat, user_id FROM seats WHERE game_id = ?", (game_id,))
    assert {s: r.user_id for s, r in table.seats.items()} == dict(seats)


async def test_add_to_pages_beyond_25_groups(world: World) -> None:
    match, seat = await exhausted_turn(world)
    await draw_most(match, seat)
    table = match.state.view(seat).table
    cards = [c for g in table for c in g]
    # Regroup… every table card into its own group (invalid groups may stand mid-turn).
    opened = await match.press(seat, "rg")
    assert opened.modal is not None
    typed = " | ".join(sym(c) for c in cards)
    submitted = await match.member(seat).submit_modal(opened, {"f0": typed})
    match.follow(seat, submitted)
    groups = len(match.state.view(seat).table)
    assert groups == len(cards) > GROUPS_PER_PAGE
    card = sources(match.state.view(seat))[0]
    await match.choose(seat, "cs", [card.code])
    await match.press(seat, f"ag{card.code}")
    first = option_values(match.hands[seat], f"ad{card.code}")
    assert first == [str(n) for n in range(1, GROUPS_PER_PAGE + 1)]
    await match.press(seat, f"ap1.{card.code}")
    second = option_values(match.hands[seat], f"ad{card.code}")
    assert second == [str(n) for n in range(GROUPS_PER_PAGE + 1, groups + 1)]
    assert f"ap0.{card.code}" in match.panel(seat)  # Previous
    last = groups
    await match.choose(seat, f"ad{card.code}", [str(last)])
    done = match.state.view(seat).actions[-1]
    assert done.kind is Kind.ADD and done.groups == (last,) and done.cards == (card,)
    assert card in match.state.view(seat).table[last - 1]


async def test_a_d4_that_breaks_its_group_shows_the_offer_and_accepting_discards(
    world: World,
) -> None:
    world.pin_seed(D4_SEED)
    match = await open_match(world)
    moves, _ = placing_log(D4_SEED, stop_turn=D4_TURN)
    await reach(match, moves)
    (seat,) = match.state.to_act
    await match.press(seat, "dd0")
    view = match.state.view(seat)
    breaking = [
        c
        for g in view.table
        for c in g
        if (c.suit.letter in "CS") == (seat == 0)
        and group_kind([x for x in g if x != c]) is None
        and len(g) > 1
        and offer_d4(view.table, c) is not None
    ]
    assert breaking, "the position has a D4 that breaks its group"
    card = breaking[0]
    await match.choose(seat, "dk", ["d4"])
    assert card.code in option_values(match.hands[seat], "dc4")
    await match.choose(seat, "dc4", [card.code])
    hand = match.hands[seat]
    assert f"Discarding {sym(card)} breaks its group" in hand.content
    assert f"oa{card.code}" in match.panel(seat)
    before = len(match.state.moves)
    await match.press(seat, f"oa{card.code}")
    state = match.state
    last = state.moves[before]
    assert last.action.kind is Kind.DISCARD and last.action.word == "d4"
    assert last.action.cards == (card,) and last.action.partition
    assert state.turn == D4_TURN + 1
    assert all(card not in g for g in state.public_view().table)


async def test_swap_d2_order_and_the_opponents_panel_at_a_draw_and_a_reveal(world: World) -> None:
    world.pin_seed(4)
    match = await open_match(world)
    await reach(match, quiet_log(4, 1))
    (mover,) = match.state.to_act
    other = 1 - mover
    waiting = match.hands[other].content
    # The draw shows at once in the opponent's open panel (pile and hand sizes).
    await match.press(mover, "dd2")
    assert match.hands[other].content != waiting
    # Swap: a hand card and a duke change places in one click (A5 + A6).
    card = match.state.view(mover).hand[0]
    duke = match.state.view(mover).dukes[mover][0]
    await match.choose(mover, "cs", [card.code])
    await match.press(mover, f"sw{card.code}")
    assert "Swap" in match.hands[mover].content
    before = len(match.state.moves)
    await match.press(mover, f"sy{duke.code}.{card.code}")
    kinds = [m.action.kind for m in match.state.moves[before:]]
    assert kinds == [Kind.PICKUP, Kind.SET]
    view = match.state.view(mover)
    assert card in view.dukes[mover] and duke in view.hand
    # The swap stays private until the turn ends; a revealed castle shows at once.
    assert sym(card) not in match.hands[other].content
    castle = view.castles[mover]
    assert isinstance(castle, Card)
    await match.press(mover, "rv")
    await match.press(mover, "rvy")
    assert sym(castle) in match.hands[other].content
    await match.choose(mover, "dk", ["d1"])
    await match.choose(mover, "dc1", [duke.code])
    # D2 on a turn without actions: the member chooses which card ends on top.
    await match.press(other, "dd2")
    a, b = match.state.view(other).hand[:2]
    await match.choose(other, "dk", ["d2"])
    await match.choose(other, "dc2", [a.code, b.code])
    assert "which card ends on top" in match.hands[other].content
    await match.press(other, f"tp{b.code},{a.code}")
    last = match.state.moves[-1].action
    assert last.word == "d2" and last.cards == (b, a)
    assert match.state.pile(other, "discard")[-1] == a


async def test_a_forged_swap_on_the_first_players_first_turn_changes_nothing(
    world: World,
) -> None:
    world.pin_seed(4)
    match = await open_match(world)
    await reach(match, quiet_log(4, 0))
    (first,) = match.state.to_act
    await match.press(first, "dd1")
    assert not any(p.startswith("sw") for p in match.panel(first)), "Swap is hidden"
    card = match.state.view(first).hand[0]
    duke = match.state.view(first).dukes[first][0]
    before = len(match.state.moves)
    point = world.bot.controller.tables.table(match.game_id).turn
    forged = ids.control(match.game_id, first, point, f"sy{duke.code}.{card.code}")
    refused = await forge_click(match.member(first), match.hands[first].message, forged)
    assert refused.acknowledged
    assert "Refused: The first player cannot pick up" in match.hands[first].content
    assert len(match.state.moves) == before, "neither the pick-up nor the set was kept"


def _hidden(state: DukesUpState) -> set[Card]:
    """Return the cards nobody but their owner (or nobody at all) may see now: hands and
    face-down castles until the match is over, and every pile, always."""
    shown = state.public_view()
    last = shown.last_turn
    named = set(last.picked_up) if last is not None else set()
    if last is not None and last.card is not None:
        named.add(last.card)  # a D4 names its card: it was face-up on the table
    cards: set[Card] = set()
    for seat in (0, 1):
        cards |= set(state.pile(seat, "draw")) | set(state.pile(seat, "discard"))
        if not state.is_over:
            cards |= {c for c in DECK if c.code in state.secrets(seat)}
    return cards - named


async def test_the_replay_of_an_exhausted_round_never_shows_a_hand_a_pile_or_a_castle(
    world: World,
) -> None:
    match, seat = await exhausted_turn(world)
    await draw_most(match, seat)
    await match.press(seat, "fi")
    state = match.state
    assert state.is_over
    # What each replay step may not show, walked as the replay walks the log.
    walk = replay(state.seed, state.options, [])
    hidden = []
    last = (walk.round, walk.turn)
    for move in state.moves:
        walk.apply(move.seat, move.action)
        if (walk.round, walk.turn) != last or walk.is_over:
            hidden.append(_hidden(walk))
            last = (walk.round, walk.turn)
    viewer = match.members[0]
    shown = await viewer.slash(world.channel, "replay", game=match.game_id)
    page = shown.response
    assert page is not None
    pages = [description(page)]
    while following := [i for i in live_ids(page) if i.endswith(":n")]:
        moved = await viewer.click(page.message, custom_id=following[0])
        assert moved.response is not None
        page = moved.response
        pages.append(description(page))
    assert len(pages) == len(hidden) + 1, "a page per completed turn, then the result"
    assert sum(1 for h in hidden if h) > 30
    assert sum(1 for c in DECK if sym(c) in pages[-2]) > 30, "the last board shows the table"
    for number, (text, secret) in enumerate(zip(pages, hidden, strict=False), 1):
        leaked = sorted(sym(c) for c in secret if sym(c) in text)
        assert leaked == [], (number, leaked, text)
