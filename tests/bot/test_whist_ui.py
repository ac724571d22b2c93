"""Whist's private controls and public table, member by member through simcord: the
turn-up until the dealer plays to trick 1, a dummy spread for everyone and played from its
partner's private control (labelled whose hand it is), wrong clicks that change nothing,
a restart mid-trick, Humbug's secret keep-or-exchange, Double Dummy's claims, Mort's
sitter-out, ``/whist rules variant:`` and options that do not fit a variant."""

from __future__ import annotations

from typing import Any

import discord
import simcord

from bot import ids
from bot.i18n import t
from engine.cards import Card
from engine.whist import EAST, NORTH, SOUTH, WEST, Phase, WhistOptions, replay
from tests.bot.driver import World, description, forge_click, live_ids, private_text
from tests.bot.secrets_scan import scan_secrets
from tests.bot.whole_game import Recorder


def payloads(hand: simcord.ResponseMessage) -> dict[str, str]:
    """Return the message's enabled controls: payload → custom id."""
    found = {}
    for custom_id in live_ids(hand):
        parsed = ids.parse(custom_id)
        if isinstance(parsed, ids.Control):
            found[parsed.payload] = custom_id
    return found


class Table:
    """A whist table of members (seats in join order) driven by their private messages."""

    def __init__(self, world: World, game_id: int, members: list[simcord.MemberActor]) -> None:
        self.world = world
        self.game_id = game_id
        self.members = members
        self.hands: dict[int, simcord.ResponseMessage] = {}

    @classmethod
    async def open(cls, world: World, seed: int, names: tuple[str, ...], **options: Any) -> Table:
        world.pin_seed(seed)
        members = world.members(*names)
        opened = await members[0].slash(
            world.channel, "whist start", turn_time=900, computers="basic", **options
        )
        assert opened.response is not None and not opened.ephemeral
        found = world.bot.controller.tables.table_in(world.channel.id)
        assert found is not None
        table = cls(world, found.id, members)
        lobby = opened.response.message
        for member in members[1:]:
            await member.click(lobby, custom_id=ids.table_button(found.id, "join"))
        await members[0].click(lobby, custom_id=ids.table_button(found.id, "start"))
        for seat, member in enumerate(members):
            shown = await member.click(table.public(), custom_id=ids.table_button(found.id, "hand"))
            assert shown.response is not None and shown.response.ephemeral
            table.hands[seat] = shown.response
        return table

    def live(self) -> Any:
        return self.world.bot.controller.tables.table(self.game_id)

    def state(self) -> Any:
        return self.live().state

    def public(self) -> discord.Message:
        (message_id,) = self.world.query(
            "SELECT message_id FROM games WHERE id = ?", (self.game_id,)
        )[0]
        return next(m for m in self.world.messages() if m.id == message_id)

    def text(self) -> str:
        return description(self.public())

    def controls(self, seat: int) -> dict[str, str]:
        return payloads(self.hands[seat])

    def decider(self, hand: int) -> int:
        state = self.state()
        return int(state.player_at(state.controller(hand)))

    async def press(self, seat: int, payload: str) -> simcord.InteractionResult:
        options = self.controls(seat)
        assert payload in options, (seat, payload, sorted(options))
        result = await self.members[seat].click(
            self.hands[seat].message, custom_id=options[payload]
        )
        assert result.acknowledged
        return result

    async def play_card(self) -> None:
        """The member deciding for the hand due plays its first legal card."""
        state = self.state()
        hand = state.to_act[0]
        seat = self.decider(hand)
        card = next(p for p in self.controls(seat) if p[:1] == "=" and len(p) == 3)
        await self.press(seat, card)

    def stored(self) -> list[str]:
        return [
            move
            for (move,) in self.world.query(
                "SELECT move FROM moves WHERE game_id = ? ORDER BY ply", (self.game_id,)
            )
        ]


def spread_line(text: str) -> str:
    """Return the table's line showing dummy's cards, or ``""``."""
    return next((s for s in text.split("\n") if s.startswith("**North (dummy") and ":**" in s), "")


def card_payload(card: Card) -> str:
    return "=" + card.code


async def test_english_dummy_turnup_dummy_control_wrong_clicks_and_a_restart(
    world: World,
) -> None:
    table = await Table.open(world, 21, ("ann", "ben", "cat"), variant="english_dummy")
    state = table.state()
    partner = table.decider(NORTH)
    assert state.player_at(SOUTH) == partner and state.dealer == NORTH
    adversary = state.player_at(EAST)
    turnup = state.public_view().turnup
    assert turnup is not None
    # Dummy is spread for everyone at the deal, sorted by suit; the turn-up lies face up.
    text = table.text()
    assert f"turned up: {turnup}" in text
    dummy = table.state().hand(NORTH)
    spread = spread_line(text)
    for card in dummy:
        assert str(card) in spread
    # East leads, South follows, West follows: all members (the partner plays South).
    for _ in range(3):
        await table.play_card()
    assert table.state().to_play == NORTH
    # Dummy's turn: its partner alone gets dummy's legal cards, labelled as dummy's.
    await world.env.advance_time(1)
    own = table.hands[partner].content
    assert "Dummy's turn: play a card from North (dummy," in own
    legal = {a.card for a in table.state().legal_actions(NORTH)}
    assert {p for p in table.controls(partner) if p[:1] == "="} == {card_payload(c) for c in legal}
    assert not [p for p in table.controls(adversary) if p[:1] == "="]
    # Someone else's dummy control, pressed by an adversary and by a non-player, changes
    # nothing and says why.
    dummy_id = table.controls(partner)[card_payload(min(legal))]
    moves = len(table.stored())
    forged = await forge_click(table.members[adversary], table.hands[adversary], dummy_id)
    assert private_text(forged) == t("en", "errors.not_your_hand")
    eve = world.member("eve")
    spectator = await forge_click(eve, table.public(), dummy_id)
    assert private_text(spectator) == t("en", "errors.not_playing")
    assert len(table.stored()) == moves
    # The partner plays dummy's card: the move is dummy's (N:…), and the turn-up is no
    # longer shown once the dealer (dummy) has played to trick 1 — the suit only.
    old = dict(table.controls(partner))
    await table.press(partner, card_payload(min(legal)))
    assert table.stored()[-1] == f"N:{min(legal).code}"
    await world.env.advance_time(1)
    assert "turned up" not in table.text() and "Trumps: " in table.text()
    assert "Last trick:" in table.text()
    # A button of that earlier moment does nothing and says so.
    # (pressed as that older message had it)
    stale = await forge_click(
        table.members[partner], table.hands[partner], next(iter(old.values()))
    )
    assert stale.acknowledged
    assert t("en", "errors.earlier_trick") in table.hands[partner].content
    assert len(table.stored()) == moves + 1

    # A restart mid-trick: the next card is played from a message sent before it, and the
    # table goes on exactly where it was.
    await table.play_card()
    before = table.stored()
    hand = table.state().to_act[0]
    seat = table.decider(hand)
    card = next(p for p in table.controls(seat) if p[:1] == "=" and len(p) == 3)
    old_id = table.controls(seat)[card]
    await world.restart()
    result = await table.members[seat].click(table.hands[seat].message, custom_id=old_id)
    assert result.acknowledged
    after = table.stored()
    assert after[:-1] == before and after[-1] == f"{'NESW'[hand]}:{card[1:]}"
    resumed = replay(world.seed, WhistOptions(variant="english_dummy"), after)
    assert resumed.public_view() == table.state().public_view()


async def test_a_dummy_shown_after_the_opening_lead_is_hidden_before_it(
    world: World, recorder: Recorder
) -> None:
    table = await Table.open(
        world, 22, ("ann", "ben", "cat"), variant="english_dummy", dummy_shown="after_opening_lead"
    )
    dummy = table.state().hand(NORTH)
    partner = table.decider(NORTH)
    assert not spread_line(table.text()), "dummy is not spread before the opening lead"
    # The partner sees dummy's cards privately; nobody else does, until the opening lead.
    assert "Dummy you play" in table.hands[partner].content
    await table.play_card()
    await world.env.advance_time(1)
    spread = spread_line(table.text())
    assert all(str(card) in spread for card in dummy)
    problems, read = scan_secrets(world.env, recorder)
    assert read > 5 and problems == [], problems[:5]


async def test_humbug_choices_are_secret_until_both_chose_and_the_discard_stays_private(
    world: World, recorder: Recorder
) -> None:
    table = await Table.open(world, 23, ("ann", "ben"), variant="humbug")
    assert table.state().phase is Phase.EXCHANGE
    assert {"=keep", "=exchange"} <= set(table.controls(0))
    await table.press(0, "=exchange")
    await world.env.advance_time(1)
    text = table.text()
    assert "ann has chosen" in text and "ben is choosing" in text
    assert "exchanged" not in text and "kept" not in text
    assert "You exchanged" in table.hands[0].content
    assert "exchanged" not in table.hands[1].content
    await table.press(1, "=keep")
    await world.env.advance_time(1)
    assert table.state().phase is Phase.PLAY
    assert "ann exchanged · ben kept" in table.text()
    discarded = table.state().discarded(NORTH)
    assert discarded is not None
    assert "The hand you gave up (only you see it)" in table.hands[0].content
    assert all(str(card) in table.hands[0].content for card in discarded)
    assert "gave up" not in table.hands[1].content
    for _ in range(6):
        await table.play_card()
    problems, read = scan_secrets(world.env, recorder)
    assert read > 5 and problems == [], problems[:5]


async def test_double_dummy_players_play_their_dummies_and_claim(world: World) -> None:
    table = await Table.open(world, 24, ("ann", "ben"), variant="double_dummy")
    state = table.state()
    south, west = state.player_at(SOUTH), state.player_at(WEST)
    assert table.decider(NORTH) == south and table.decider(EAST) == west
    assert state.to_play == EAST, "the dealer is North: East leads"
    # West's player leads from his dummy, East; he may also claim.
    assert "Dummy's turn: play a card from East (dummy," in table.hands[west].content
    await table.press(west, "c")
    shown = table.controls(west)
    assert "=claim.13" in shown and "b" in shown
    assert "How many of the remaining 13 tricks" in table.hands[west].content
    await table.press(west, "=claim.13")
    assert table.state().phase is Phase.CLAIM
    await world.env.advance_time(1)
    assert "claims 13 of the remaining tricks" in table.text()
    assert set(table.controls(south)) >= {"=accept", "=reject"}
    await table.press(south, "=reject")
    assert table.state().phase is Phase.PLAY
    assert "c" not in table.controls(west), "no claim again before the next card"
    await table.play_card()  # East's card; South's player now plays South
    assert table.state().to_play == SOUTH and "c" in table.controls(south)
    await table.press(south, "c")
    await table.press(south, "=claim.5")
    await table.press(west, "=accept")
    (result,) = table.state().results
    assert result.tricks == (5, 8)
    assert table.stored()[-2:] == ["S:claim:5", "W:accept"]
    await world.env.advance_time(1)
    assert world.titled("Deal 1 scored")


async def test_mort_with_four_one_sits_out_and_sees_the_public_view_only(world: World) -> None:
    table = await Table.open(world, 25, ("ann", "ben", "cat", "dan"), variant="mort")
    state = table.state()
    sitter = state.sitting_out
    assert sitter is not None
    assert "You sit out this game" in table.hands[sitter].content
    assert set(table.controls(sitter)) == set()
    await world.env.advance_time(1)
    assert f"Sits out this game: {table.members[sitter].name}" in table.text()
    assert "Mort" in (table.public().embeds[0].title or "")


async def test_rules_by_variant_and_options_that_do_not_fit(world: World) -> None:
    ann = world.member("ann")
    shown = await ann.slash(world.channel, "whist rules", variant="mort")
    text = private_text(shown)
    assert text.startswith("**Mort**") and "Game value" in text
    plain = await ann.slash(world.channel, "whist rules")
    assert private_text(plain).startswith("**Short whist**")
    refused = await ann.slash(world.channel, "whist start", variant="short", fixed_dummy="on")
    assert private_text(refused) == t("en", "whist.options_other_variant")
    assert world.bot.controller.tables.table_in(world.channel.id) is None
    refused = await ann.slash(world.channel, "whist start", variant="humbug", players=3)
    assert "does not fit the variant" in private_text(refused)
