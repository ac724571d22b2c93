"""Driving the bot through simcord as members would: slash commands and clicks only."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import discord
import simcord

from bot import create_bot, ids
from bot.app import Bot
from bot.config import Settings
from bot.games.dukes_up.render import sources
from engine.doppelkopf.rules import OPTIONAL
from engine.dukes_up import Kind
from tests.support.buttons import id_kind

TOKEN = "MTIzNDU2Nzg5MDEyMzQ1Njc4.GaBcDe.abcdefghijklmnopqrstuvwxyz012345"


def make_bot(db: Path, **overrides: Any) -> Bot:
    """Return a bot on the database ``db`` (table edits immediate, no request budget to
    speak of, and new tables without pictures unless overridden: drawing them only slows
    tests that are not about them)."""
    overrides.setdefault("table_edit_seconds", 0)
    # and no request budget to wait for on a clock these tests mostly leave stopped
    # (tests/bot/test_budget.py runs it)
    overrides.setdefault("global_requests_per_second", 100_000)
    overrides.setdefault("pictures", False)
    # the suits as the games write them (10♠), which the tests read; tests/bot/test_suits.py
    # runs the application's emojis and their fallback
    overrides.setdefault("suit_emojis", False)
    # simcord's ids carry its virtual clock, not the wall clock the bot compares them with
    overrides.setdefault("late_interaction_seconds", 0)
    return create_bot(Settings(token=TOKEN, database=db, **overrides))


def table_message_edits(env: simcord.Env, channel_id: int, message_id: int) -> list[Any]:
    """Return the bot's edits of the public message ``message_id`` (a table message), oldest
    first, by either route: its channel's (``PATCH /channels/…/messages/…``), or the token
    of the interaction whose original response it is (``PATCH /webhooks/…/@original``,
    which the bot uses while the token lives)."""
    backend = env.backend
    channel_path = f"/channels/{channel_id}/messages/{message_id}"
    found = []
    for request in env.http_requests:
        if request.method != "PATCH":
            continue
        if request.path == channel_path:
            found.append(request)
        elif request.path.startswith("/webhooks/") and request.path.endswith("/@original"):
            made_by = backend.interaction_tokens.get(request.path.split("/")[3])
            interaction = backend.interactions.get(made_by) if made_by is not None else None
            if interaction is not None and interaction.message_id == message_id:
                found.append(request)
    return found


def table_edit_path(bot: Bot, game_id: int) -> str:
    """Return the path the bot edits the table's message through now: the token of the
    interaction whose original response it is, while that lives, else its channel's."""
    table = bot.controller.tables.tables[game_id]
    token = bot.controller.courier.live_token(table)
    if token is not None:
        return f"/webhooks/{bot.application_id}/{token}/messages/@original"
    return f"/channels/{table.channel_id}/messages/{table.message_id}"


def end_table_tokens(bot: Bot) -> None:
    """Have the bot's live tables' messages edited through their channels from now on, as
    once the 14 minutes of their tokens are over (the budget counts those edits)."""
    now = bot.controller.tables.clock()
    for table in bot.controller.tables.tables.values():
        if table.token_until is not None:
            table.token_until = min(table.token_until, now)


def of_kind(message: discord.Message | simcord.ResponseMessage, kind: str) -> list[discord.Button]:
    """Return a message's enabled buttons of one kind (see :func:`id_kind`)."""
    return [b for b in enabled(message) if id_kind(b.custom_id) == kind]


def buttons(message: discord.Message | simcord.ResponseMessage) -> list[discord.Button]:
    """Return every button of a message, row by row."""
    rows = (
        message.components if isinstance(message, discord.Message) else message.message.components
    )
    out: list[discord.Button] = []
    for row in rows:
        for child in getattr(row, "children", []):
            if isinstance(child, discord.Button):
                out.append(child)
    return out


def enabled(message: discord.Message | simcord.ResponseMessage) -> list[discord.Button]:
    """Return the buttons a member could press."""
    return [b for b in buttons(message) if not b.disabled]


async def act_once(
    actor: simcord.MemberActor, hand: simcord.ResponseMessage
) -> simcord.InteractionResult | None:
    """Make the member's next decision from their hand message: the first card, or, as
    taker, each revealed card to the first free seat and Confirm. Returns the last result,
    or None when the hand has nothing to press."""
    cards = of_kind(hand, "play")
    if cards:
        return await actor.click(hand.message, custom_id=cards[0].custom_id)
    if of_kind(hand, "control"):
        return await _act_by_payload(actor, hand)
    result = None
    for _ in range(5):
        confirm = of_kind(hand, "giveok")
        if confirm:
            return await actor.click(hand.message, custom_id=confirm[0].custom_id)
        steps = of_kind(hand, "give")
        if not steps:
            return result
        result = await actor.click(hand.message, custom_id=steps[0].custom_id)
    return result


_OPTIONAL = OPTIONAL  # Doppelkopf's announcements, claims and concessions


def optional(custom_id: str | None) -> bool:
    """Return whether a control is an optional one (a Doppelkopf announcement, claim or
    concession): a hand offering only those awaits no decision."""
    parsed = ids.parse(custom_id or "")
    return (
        isinstance(parsed, ids.Control)
        and parsed.payload[1:] in _OPTIONAL
        and parsed.payload[:1] == "="
    )


async def _act_by_payload(
    actor: simcord.MemberActor, hand: simcord.ResponseMessage
) -> simcord.InteractionResult | None:
    """A game whose controls carry the action itself (``=<action>``, Doppelkopf): press
    the first required choice (a card, a reservation, a bid — never an optional
    announcement, claim or concession); for a choice of cards (``s<codes>`` steps), add
    cards until the confirming choice is enabled."""
    result = None
    for _ in range(6):
        chosen = [b for b in of_kind(hand, "control") if not b.disabled]
        payloads = [(b, ids.parse(b.custom_id or "")) for b in chosen]
        actions = [
            b
            for b, parsed in payloads
            if isinstance(parsed, ids.Control)
            and parsed.payload.startswith("=")
            and parsed.payload[1:] not in _OPTIONAL
        ]
        if actions:
            return await actor.click(hand.message, custom_id=actions[0].custom_id)
        steps = [
            b
            for b, parsed in payloads
            if isinstance(parsed, ids.Control)
            and parsed.payload.startswith("s")
            and "✓" not in (b.label or "")
        ]
        if not steps:
            return result
        result = await actor.click(hand.message, custom_id=steps[0].custom_id)
    return result


def panel_controls(hand: simcord.ResponseMessage) -> dict[str, Any]:
    """Return a private panel's enabled controls (buttons and selects) by payload."""
    found: dict[str, Any] = {}
    for row in hand.message.components:
        for child in getattr(row, "children", []):
            parsed = ids.parse(getattr(child, "custom_id", None) or "")
            if isinstance(parsed, ids.Control) and not getattr(child, "disabled", False):
                found[parsed.payload] = child
    return found


class DukesSeat:
    """One member at a Dukes Up! table, deciding from the engine's legal listing (as the
    tests do) and acting only through their panel's controls (``hand``: the panel, kept
    current). With ``propose_all``, each turn first asks for a proposed arrangement of all
    the member's source cards (the search at its largest) and accepts it when one exists."""

    def __init__(
        self,
        member: simcord.MemberActor,
        hand: simcord.ResponseMessage,
        table: Any,
        seat: int,
        *,
        propose_all: bool = True,
    ) -> None:
        self.member, self.hand, self.table, self.seat = member, hand, table, seat
        self.propose_all = propose_all

    async def press(self, payload: str) -> bool:
        """Press the panel's control ``payload``; return whether it was there."""
        shown = panel_controls(self.hand)
        if payload not in shown:
            return False
        result = await self.member.click(self.hand.message, custom_id=shown[payload].custom_id)
        if result.response is not None:
            self.hand = result.response
        return True

    async def choose(self, payload: str, values: list[str]) -> bool:
        """Choose ``values`` in the panel's select ``payload``; return whether it was there."""
        shown = panel_controls(self.hand)
        if payload not in shown:
            return False
        result = await self.member.select(
            self.hand.message, values, custom_id=shown[payload].custom_id
        )
        if result.response is not None:
            self.hand = result.response
        return True

    def view(self) -> Any:
        """Return the member's view now (to decide from, as a member reads the panel)."""
        return self.table.state.view(self.seat)

    async def act(self, *, end: bool = True) -> None:
        """Make this member's setup choice or play their turn, if it is theirs: the whole
        turn, or without ``end`` all but its end step."""
        state = self.table.state
        if state is None or state.is_over or self.seat not in state.to_act:
            return
        if state.phase == "choose":
            c = [card.code for card in self.view().setup]
            await self.choose("sc", [c[0]])
            await self.choose(f"sd{c[0]}", c[1:3])
            await self.press(f"su{c[0]}.{c[1]}.{c[2]}")
            return
        draws = [a for a in self.view().legal if a.kind is Kind.DRAW]
        if draws:
            chosen = max(draws, key=lambda a: (a.word == "draw", a.n))
            await self.press(f"d{'d' if chosen.word == 'draw' else 'x'}{chosen.n}")
        codes = [c.code for c in sources(self.view())][:25]
        if self.propose_all and codes and await self.choose("cs", codes):
            joined = ",".join(codes)
            await self.press(f"pr{joined}")
            if not await self.press(f"ac{joined}"):
                await self.press(f"xc{joined}")
        for _ in range(3):
            legal = self.view().legal
            news = [a for a in legal if a.kind is Kind.NEW]
            accepts = [a for a in legal if a.kind is Kind.ACCEPT]
            adds = [a for a in legal if a.kind is Kind.ADD]
            if news:
                cards = [c.code for c in news[0].cards]
                await self.choose("cs", cards)
                await self.press("nw" + ",".join(cards))
            elif accepts:
                mine = set(sources(self.view()))
                cards = [c.code for g in accepts[0].partition for c in g if c in mine]
                await self.choose("cs", cards)
                await self.press("pr" + ",".join(cards))
                await self.press("ac" + ",".join(cards))
            elif adds:
                cards = [c.code for c in adds[0].cards]
                await self.choose("cs", cards)
                await self.press("ag" + ",".join(cards))
                await self.choose("ad" + ",".join(cards), [str(adds[0].groups[0])])
            else:
                break
        if end:
            await self.end_turn()

    async def end_turn(self) -> None:
        """End the turn: Finish when legal, else D1, else any legal discard (resetting
        the turn first when what was placed cannot end it)."""

        def steps() -> list[Any]:
            return [a for a in self.view().legal if a.kind in (Kind.DISCARD, Kind.FINISH)]

        legal = steps()
        if not legal:  # what was placed cannot end the turn: start it again
            await self.press("rs")
            legal = steps()
        if not legal:
            return  # the turn timer's stand-in ends it
        finish = [a for a in legal if a.kind is Kind.FINISH]
        action = (finish or [a for a in legal if a.word == "d1"] or legal)[0]
        if action.kind is Kind.FINISH:
            await self.press("fi")
            return
        await self.choose("dk", [action.word])
        if action.word != "d3":
            await self.choose(f"dc{action.word[1]}", [c.code for c in action.cards])
