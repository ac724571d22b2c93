"""Hints while you learn: at a table started with the option ``hints``, each member's hand
offers a **Hint** button whenever they have a decision; pressing it answers privately with
the expert's choice for that decision and one line of why (``GameUI.advice_text``).

The advice comes from the member's own view only: a fresh adviser (``Game.adviser``) is
shown the views that member's seat had, rebuilt from the move log as :func:`bot.computers.
prime` shows a computer player — never the state, nor another seat's view — and advises from
the view of the hand the member decides for now. It is worked out in the computers' search
thread (:data:`bot.computers.SEARCH`, off the event loop; a double-dummy solver is never
entered twice at once), from a copy of the log taken on the loop. An answer ready within
:data:`ANSWER_WITHIN` seconds of the press is the reply itself; otherwise the press is
acknowledged first and the hint follows.

A Hint pressed for a decision that has passed (the turn moved on, before or while the
expert thought) says so and shows nothing. A game without an adviser has no Hint button.
It knows no game.
"""

from __future__ import annotations

import asyncio
import functools
import logging
from collections.abc import Sequence
from typing import Any

import discord

from bot import ids
from bot.computers import SEARCH
from bot.controls import Button, Controls
from bot.errors import reply_private
from bot.game import GameUI, Rendered
from bot.i18n import Lang, lang_of, t
from bot.lateness import Lateness
from bot.table import Table, UserError, decider
from engine.game import Advice, AnyGame, player_view, show_move, watchers

__all__ = ["ANSWER_WITHIN", "add_button", "advise", "answer", "offered"]

log = logging.getLogger(__name__)

ANSWER_WITHIN = 1.5
"""Seconds a hint may take and still be the press's reply: Discord waits 3 s for one, and a
hint should come within 2 s; a slower one is acknowledged first, then sent."""


_ADVISES: dict[type, bool] = {}  # by the game's class


def offered(ui: GameUI) -> bool:
    """Return whether ``ui``'s game gives advice: its tables offer the option ``hints``.

    Asked at start-up for every game (its commands' options): the game says so without
    building an adviser (``Game.advises``), which is built at the first Hint pressed."""
    kind = type(ui.game)
    known = _ADVISES.get(kind)
    if known is None:
        known = _ADVISES[kind] = ui.game.advises()
    return known


def hand_to_advise(table: Table, seat: int) -> int | None:
    """Return the hand whose decision the member at ``seat`` owes now (their own first),
    or ``None`` when they owe none."""
    state = table.state
    if state is None or state.is_over or table.status != "playing":
        return None
    hands = [hand for hand in state.to_act if decider(state, hand) == seat]
    return hands[0] if hands else None


def add_button(table: Table, seat: int, shown: Rendered, lang: Lang) -> Rendered:
    """Return the hand message ``shown`` with the Hint button, where the table has hints
    on, its game advises and the member owes a decision now (beside Refresh, in the last
    row, when there is room; otherwise in the first row with room)."""
    if not table.options.hints or not offered(table.ui) or hand_to_advise(table, seat) is None:
        return shown
    view = shown.view if shown.view is not None else Controls()
    custom_id = ids.hint(table.id, seat, table.turn)
    for row in (4, None):
        try:
            view.add_item(Button(label=t(lang, "hints.button"), custom_id=custom_id, row=row))
        except ValueError:
            continue
        break
    else:
        log.debug("game %s: no room for seat %s's Hint button", table.id, seat)
    return Rendered(content=shown.content, embeds=shown.embeds, view=view)


def advise(
    game: AnyGame,
    seed: int,
    options: Any,
    moves: Sequence[Any],
    player: int,
    hand: int,
    adviser_seed: int,
) -> tuple[Advice[Any], Any]:
    """Return the advice for ``hand``'s decision at the end of ``moves`` and the view it
    was given from: a fresh adviser of ``adviser_seed`` is shown ``player``'s views only,
    at each decision point and, for a watching level, after every move (as
    :func:`bot.computers.prime` shows a computer player), rebuilt from the log."""
    adviser = game.adviser(adviser_seed)
    if adviser is None:  # said it advises, but cannot (its solver's library would not load)
        _ADVISES[type(game)] = False
        raise UserError("hints.off")
    state = game.new_game(seed, options)
    watching = watchers(game, {player: adviser})
    last = None
    for move in moves:
        if state.turn != last:
            adviser.observe(player_view(state, player))
            last = state.turn
        state.apply(move.seat, move.action)
        if watching:
            show_move(state, watching)
    adviser.observe(player_view(state, player))
    view = state.view(hand)
    return adviser.advise(view), view


def _seed(table: Table, seat: int, turn: int) -> int:
    """Return the adviser's seed for one decision: a hint pressed twice says the same."""
    return table.seed * 1009 + seat * 101 + turn


def _checked(table: Table, user_id: int, pressed: ids.Hint) -> int:
    """Return the hand to advise for the press, or refuse it (``UserError``)."""
    if table.seat_of(user_id) != pressed.seat:
        raise UserError("hints.not_yours")
    if table.status != "playing" or table.state is None:
        raise UserError("hints.no_game")
    if not table.options.hints or not offered(table.ui):
        raise UserError("hints.off")
    hand = hand_to_advise(table, pressed.seat)
    if pressed.turn != table.turn or hand is None:
        raise UserError("hints.stale")
    return hand


def _age(interaction: discord.Interaction) -> float:
    """Return how old the press is already, in seconds (``bot.lateness``; 0 unknown)."""
    lateness: Lateness | None = getattr(interaction.client, "lateness", None)
    if lateness is None or not lateness.limit:
        return 0.0
    return lateness.age(interaction.id)


async def answer(interaction: discord.Interaction, table: Table, pressed: ids.Hint) -> None:
    """Answer a Hint press privately with the expert's advice for the presser's decision
    now, or say why there is none."""
    hand = _checked(table, interaction.user.id, pressed)
    state = table.state
    game = table.ui.game
    work = functools.partial(
        advise,
        game,
        table.seed,
        state.options,
        list(state.moves),
        pressed.seat,
        hand,
        _seed(table, pressed.seat, pressed.turn),
    )
    future = asyncio.get_running_loop().run_in_executor(SEARCH, work)
    wait = ANSWER_WITHIN - _age(interaction)
    done: set[Any] = set()
    if wait > 0:
        done, _ = await asyncio.wait({future}, timeout=wait)
    if not done:  # a press already that old is acknowledged at once
        await interaction.response.defer(ephemeral=True, thinking=True)
    advice, view = await future
    if hand_to_advise(table, pressed.seat) != hand or table.turn != pressed.turn:
        raise UserError("hints.stale")  # the game moved on while the expert thought
    lang = lang_of(interaction.locale)
    text = table.ui.advice_text(view, advice, lang)
    await reply_private(interaction, t(lang, "hints.answer", advice=text))
