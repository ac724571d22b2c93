"""``/review game:<id>``: a member's decisions in a finished game beside the expert's.

The game is replayed from its record (seed, options, moves). At each decision of the
member's that offered a choice, a fresh adviser (``engine.game.Game.adviser``, seeded from
the game's seed, the member's seat and the move) is shown that seat's views up to then, as
a computer player at the table would have been (:func:`bot.computers.prime`), and asked
for its advice on the view the member decided from, compared with what they chose: the
review shows only what that seat could see then. A game may give some costs exactly
instead, computed after the game with every hand known (``GameUI.exact_review``: whist's
double-dummy costs), and says so.

A review can take a while (whist's double-dummy costs: seconds to a minute a deal): it is
computed in a worker thread of its own, off the event loop, while the member reads
"Reviewing your game…", and kept (:class:`Reviews`), so asking again is instant.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import queue
import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import discord

from bot import ids
from bot.controls import Button, Controls
from bot.errors import show_page
from bot.game import GameUI, Rendered
from bot.i18n import Lang, Text, lang_of, t
from bot.tables import UserError
from engine.game import deciding_player, player_view

__all__ = ["PAGE_SIZE", "Finding", "Review", "Reviews", "review_game", "review_page"]

log = logging.getLogger(__name__)

PAGE_SIZE = 8
"""Findings a page shows: each is a line or two, a page stays one screen."""
NOTES_CHARS = 2_400
"""Room for the game's notes on the first page (an embed's text holds 4,096 characters; the
findings take up to about 1,500)."""
KEPT = 256
"""Reviews kept in memory (the most recently asked for)."""


@dataclass(frozen=True, slots=True)
class Finding:
    """A decision where the expert would have chosen differently: at ``ply`` (``place``
    says where), the member chose ``chosen``; the expert ``advised`` (``None`` where an
    exact cost names no better action) at an estimated ``cost`` in ``unit``."""

    ply: int
    place: Text
    chosen: Any
    advised: Any | None
    cost: float | None
    unit: str
    exact: bool


@dataclass(frozen=True, slots=True)
class Review:
    """One member's review of one finished game: of ``decisions`` (those that offered a
    choice and were compared), ``matched`` matched the expert's choice or did as well;
    the others are ``findings``, worst first. ``compared`` is false when the game has no
    expert to compare with; ``notes`` are the game's own lines (a deal's double-dummy
    result)."""

    decisions: int
    matched: int
    findings: tuple[Finding, ...]
    sampled: bool
    compared: bool
    notes: tuple[Text, ...] = ()


def advice_seed(seed: int, player: int, ply: int) -> int:
    """Return the seed of the adviser for ``player``'s decision at ``ply`` of the game dealt
    from ``seed``: the same review every time."""
    return (seed * 1_000_003 + player * 7_919 + ply * 31) % 2**63


def review_game(ui: GameUI, seed: int, options: Any, moves: Sequence[str], player: int) -> Review:
    """Return ``player``'s review of the finished game ``moves`` dealt from ``seed``."""
    game = ui.game
    exact = ui.exact_review(seed, options, moves)
    probe = game.adviser(advice_seed(seed, player, 0))
    if probe is None and exact is None:
        return Review(0, 0, (), sampled=False, compared=False)
    watching = probe is not None and probe.name in game.watching_levels
    state = game.new_game(seed, options)
    seen: list[Any] = []  # the seat's views, in the order a computer there was shown them
    last_turn = None
    decisions = 0
    sampled = False
    findings: list[Finding] = []
    for ply, text in enumerate(moves):
        move = game.parse_move(text)
        if state.turn != last_turn:
            seen.append(player_view(state, player))
            last_turn = state.turn
        hand, action = move.seat, move.action
        if deciding_player(state, hand) == player and len(state.legal_actions(hand)) > 1:
            if exact is not None and ply in exact.costs:
                cost = exact.costs[ply]
                decisions += 1
                if cost > 0:
                    place = ui.review_place(state)
                    findings.append(Finding(ply, place, action, None, cost, exact.unit, True))
            elif probe is not None:
                decisions += 1
                finding = _advised(ui, state, hand, action, (seed, player, ply), seen)
                sampled = sampled or (finding is not None and not finding.exact)
                if finding is not None:
                    findings.append(finding)
        state.apply(hand, action)
        if watching:
            seen.append(player_view(state, player))
    matched = decisions - len(findings)
    findings.sort(key=lambda f: (-(f.cost or 0.0), f.ply))
    notes = exact.notes if exact is not None else ()
    return Review(decisions, matched, tuple(findings), sampled, True, notes)


def _advised(
    ui: GameUI, state: Any, hand: int, action: Any, at: tuple[int, int, int], seen: list[Any]
) -> Finding | None:
    """Return what a fresh adviser for the decision ``at`` (seed, player, ply), shown the
    views ``seen`` and the seat's view now, finds of ``action`` at ``hand``: None when it
    would have chosen the same, or as well."""
    seed, player, ply = at
    adviser = ui.game.adviser(advice_seed(seed, player, ply))
    assert adviser is not None
    for view in seen:
        adviser.observe(view)
    adviser.observe(player_view(state, player))
    advice = adviser.advise(state.view(hand), compare=action)
    cost = advice.cost(action)
    if advice.action == action or (cost is not None and cost <= 1e-9):
        return None
    return Finding(
        ply, ui.review_place(state), action, advice.action, cost, advice.unit, advice.exact
    )


# --- the pages ------------------------------------------------------------------------


def _number(value: float, lang: Lang, digits: int = 1) -> str:
    text = f"{value:.{digits}f}"
    return text.replace(".", ",") if lang == "de" else text


def cost_text(finding: Finding, lang: Lang) -> str:
    """Return a finding's cost as a member reads it (``1 trick``, ``≈0.4 points``)."""
    cost = finding.cost
    assert cost is not None  # a finding without an estimate has a line of its own
    if finding.exact:
        whole = round(cost)
        return t(lang, f"review.exact_{finding.unit}", n=whole, value=whole)
    if finding.unit == "share":
        return t(lang, "review.about_share", value=round(cost * 100))
    key = f"review.about_{finding.unit}"
    if finding.unit not in ("tricks", "points"):
        key = "review.about_other"
    return t(lang, key, value=_number(cost, lang))


def finding_line(ui: GameUI, finding: Finding, lang: Lang) -> str:
    """Return one finding's line: where, the member's choice, the expert's, the cost."""
    place = finding.place(lang)
    chosen = ui.action_text(finding.chosen, lang)
    if finding.advised is None:
        cost = cost_text(finding, lang)
        return t(lang, "review.finding_exact", place=place, chosen=chosen, cost=cost)
    advised = ui.action_text(finding.advised, lang)
    if finding.cost is None:  # the expert chose by rules, weighing no alternative
        return t(lang, "review.finding_unweighed", place=place, chosen=chosen, advised=advised)
    cost = cost_text(finding, lang)
    return t(lang, "review.finding", place=place, chosen=chosen, advised=advised, cost=cost)


def _fitting(lines: list[str], room: int) -> list[str]:
    """Return the first of ``lines`` that fit in ``room`` characters, and "…" if some did
    not (a tournée of many deals)."""
    kept: list[str] = []
    for line in lines:
        room -= len(line) + 1
        if room < 2:
            return [*kept, "…"]
        kept.append(line)
    return kept


def pages_of(review: Review) -> int:
    """Return how many pages ``review`` has (one at least)."""
    return max(1, -(-len(review.findings) // PAGE_SIZE))


def review_page(ui: GameUI, game_id: int, review: Review, page: int, lang: Lang) -> Rendered:
    """Return page ``page`` of ``review``: its summary, the game's notes (first page), and
    its findings, with Previous and Next buttons when there are several pages."""
    title = t(lang, "review.title", game=game_id, title=t(lang, f"{ui.name}.title"))
    pages = pages_of(review)
    if not review.compared:
        lines = [t(lang, "review.no_expert", title=t(lang, f"{ui.name}.title"))]
    elif review.decisions == 0:
        lines = [t(lang, "review.no_decisions")]
    else:
        lines = [
            t(lang, "review.summary", n=review.decisions, matched=review.matched),
        ]
        if page == 0:
            lines += _fitting([note(lang) for note in review.notes], NOTES_CHARS)
        if review.sampled:
            lines.append(t(lang, "review.sampled"))
        if not review.findings:
            lines.append(t(lang, "review.all_matched"))
        else:
            lines.append("")
            if page == 0:
                lines.append(t(lang, "review.worst_first"))
            shown = review.findings[page * PAGE_SIZE : (page + 1) * PAGE_SIZE]
            lines += [finding_line(ui, finding, lang) for finding in shown]
    embed = discord.Embed(title=title, description="\n".join(lines), colour=ui.colour)
    embed.set_footer(text=t(lang, "review.footer", page=page + 1, pages=pages))
    view = None
    if pages > 1:
        view = Controls()
        view.add_item(
            Button(
                label=t(lang, "render.button_previous"),
                custom_id=ids.review(game_id, max(page - 1, 0), "p"),
                disabled=page == 0,
            )
        )
        view.add_item(
            Button(
                label=t(lang, "render.button_next"),
                custom_id=ids.review(game_id, min(page + 1, pages - 1), "n"),
                disabled=page >= pages - 1,
            )
        )
    return Rendered(content=None, embeds=[embed], view=view)


# --- computing them off the event loop ------------------------------------------------


class _Worker:
    """One daemon thread computing reviews in turn: a review of many whist deals may run
    for minutes, and a stopping bot must not wait for it (a pool's threads are joined at
    exit)."""

    def __init__(self) -> None:
        self._jobs: queue.SimpleQueue[
            tuple[Callable[[], Any], asyncio.AbstractEventLoop, asyncio.Future[Any]]
        ] = queue.SimpleQueue()
        self._thread: threading.Thread | None = None

    def submit(self, work: Callable[[], Any]) -> asyncio.Future[Any]:
        """Return a future of ``work()``, run in the worker thread."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[Any] = loop.create_future()
        self._jobs.put((work, loop, future))
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="review", daemon=True)
            self._thread.start()
        return future

    def _run(self) -> None:
        while True:
            work, loop, future = self._jobs.get()
            try:
                result = work()
            except Exception as error:  # handed to the waiting interaction
                outcome: tuple[bool, Any] = (False, error)
            else:
                outcome = (True, result)
            # A closed loop raises RuntimeError: nobody is waiting any more.
            with contextlib.suppress(RuntimeError):
                loop.call_soon_threadsafe(_settle, future, outcome)


def _settle(future: asyncio.Future[Any], outcome: tuple[bool, Any]) -> None:
    if future.done():
        return
    ok, value = outcome
    if ok:
        future.set_result(value)
    else:
        future.set_exception(value)


class Reviews:
    """The reviews computed, kept by (game, player), and those being computed, with the
    interactions waiting for them (told so when the bot stops first)."""

    def __init__(self) -> None:
        self._kept: OrderedDict[tuple[int, int], Review] = OrderedDict()
        self._running: dict[tuple[int, int], asyncio.Future[Any]] = {}
        self._waiting: dict[int, tuple[discord.Interaction, int]] = {}
        self._worker = _Worker()

    def kept(self, game_id: int, player: int) -> Review | None:
        """Return the review already computed, if any."""
        review = self._kept.get((game_id, player))
        if review is not None:
            self._kept.move_to_end((game_id, player))
        return review

    async def compute(self, game_id: int, player: int, work: Callable[[], Review]) -> Review:
        """Return the review ``work`` computes in the worker thread (once, however many
        ask for it at the same time), and keep it."""
        key = (game_id, player)
        running = self._running.get(key)
        if running is None:
            running = self._worker.submit(work)
            self._running[key] = running
            running.add_done_callback(lambda _: self._running.pop(key, None))
        review: Review = await asyncio.shield(running)
        self._kept[key] = review
        self._kept.move_to_end(key)
        while len(self._kept) > KEPT:
            self._kept.popitem(last=False)
        return review

    async def show(
        self,
        interaction: discord.Interaction,
        ui: GameUI,
        game_id: int,
        player: int,
        page: int,
        work: Callable[[], Review],
        *,
        edit: bool,
    ) -> None:
        """Answer ``interaction`` with page ``page`` of the review: at once when it is
        kept, else "Reviewing your game…" first and the page once computed (or what went
        wrong)."""
        lang = lang_of(interaction.locale)
        message = interaction.message
        in_place = edit and message is not None and message.flags.ephemeral
        review = self.kept(game_id, player)
        if review is None:
            working = t(lang, "review.working", game=game_id)
            if in_place:
                await interaction.response.edit_message(content=working, embeds=[], view=None)
            else:
                await interaction.response.send_message(
                    working, ephemeral=True, allowed_mentions=discord.AllowedMentions.none()
                )
            self._waiting[interaction.id] = (interaction, game_id)
            try:
                review = await self.compute(game_id, player, work)
            except Exception:
                log.exception("review of game %s for player %s failed", game_id, player)
                await _edit(interaction, content=t(lang, "review.failed", game=game_id))
                return
            finally:
                self._waiting.pop(interaction.id, None)
            page = min(page, pages_of(review) - 1)
            shown = review_page(ui, game_id, review, page, lang)
            await _edit(interaction, embeds=shown.embeds, view=shown.buttons(), content=None)
            return
        if not 0 <= page < pages_of(review):
            raise UserError("errors.no_review_page")
        shown = review_page(ui, game_id, review, page, lang)
        await show_page(interaction, shown.embeds, shown.buttons(), edit=edit)

    async def close(self) -> None:
        """Tell each member still waiting for a review that the bot stopped first."""
        waiting = list(self._waiting.values())
        self._waiting.clear()
        for interaction, game_id in waiting:
            lang = lang_of(interaction.locale)
            await _edit(interaction, content=t(lang, "review.restarted", game=game_id))


async def _edit(interaction: discord.Interaction, **fields: Any) -> None:
    """Edit the reply ``interaction`` got, letting a lost one go (the member dismissed
    it, or its token expired after 15 minutes)."""
    if "content" in fields and fields["content"] is not None:
        fields.setdefault("embeds", [])
        fields.setdefault("view", None)
    try:
        await interaction.edit_original_response(**fields)
    except discord.HTTPException as error:
        log.warning("could not show the review of interaction %s: %s", interaction.id, error)
