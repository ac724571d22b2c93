"""Duplicate whist matches across channels (``docs/rules/whist.md`` §7): team of four
(two tables), Mitchell progressive pairs (three tables or more) and Mnemonic duplicate
(one table).

A match's table is an ordinary core table of the engine game ``whist_duplicate`` (one
channel, one game playing a list of trays; :class:`DuplicateUI` here shows it), so
stand-ins, restarts, the outbox and the leak checks are the core's. Around those tables:

- :mod:`bot.games.whist.duplicate_plan`: the match's document (the store's ``matches``
  table: format, seed, options, the tables' channels, who sits where, every play of a tray
  at a table) and its scores;
- :mod:`bot.games.whist.duplicate_rules`: ``DuplicateRules``, the match's rounds, results,
  deadline, standings and ratings as pure functions of its document, returning what is to
  be done as values, which the core's ``bot.matches.Matches`` carries out;
- :mod:`bot.games.whist.duplicate_texts`: the posts and private answers members read;
- :mod:`bot.games.whist.duplicate_commands`: ``/whist duplicate create|table|join|leave|
  start|results|status|cancel`` (``WhistUI.subcommands``).

What a member may see, and when (§7): a tray's records and other tables' results only in
``/whist duplicate results``, only once the member has finished that tray (a Mnemonic tray:
both its plays); nothing about a tray in any channel until every table has finished it;
the final standings in every table's channel when the match ends.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.game import OptionSpec, Rendered, TableInfo
from bot.games.whist import render
from bot.games.whist.duplicate_plan import GAME
from bot.games.whist.duplicate_rules import RULES, DuplicateRules
from bot.games.whist.ui import WhistUI
from bot.i18n import Lang, seat_name, t
from engine.whist.duplicate_table import DUPLICATE_GAME, DuplicateOptions
from engine.whist.rules import SEATS, Phase, WhistView

__all__ = ["UI", "DuplicateUI"]


class DuplicateUI(WhistUI):
    """A table of a duplicate match: whist's hands and tricks; no standings, scores or
    ratings of its own (the match posts its standings and rates pairs and teams, once
    every table has played), and no command group (``/whist duplicate`` opens its
    tables)."""

    name = GAME
    game = DUPLICATE_GAME  # type: ignore[assignment]
    options: tuple[OptionSpec, ...] = ()
    rules_options: tuple[OptionSpec, ...] = ()
    command_group = False
    standings_post = False
    rated = False
    scores_public = False
    played_out = True
    match_rules: DuplicateRules = RULES

    def seat_name(self, lang: Lang, seat: int, players: int) -> str:
        """Return the hand the seat holds: North … West."""
        return seat_name(lang, seat)

    def options_text(self, options: DuplicateOptions, lang: Lang) -> str:  # type: ignore[override]
        """Return the trays the table plays and the trump rule."""
        parts = [t(lang, "whist.dup_trays_line", trays=", ".join(map(str, options.trays)))]
        if options.turned:
            parts.append(t(lang, "whist.dup_turned"))
        if options.trump_suit is not None:
            parts.append(
                t(lang, "whist.dup_trump_fixed", suit=render.suit_name(lang, options.trump_suit))
            )
        return " · ".join(parts)

    def table_message(self, info: TableInfo, view: WhistView, lang: Lang) -> Rendered:
        """Return the public table: the tray in play, who holds each hand, the trump, the
        trick and this tray's tricks — never an earlier tray's result (that waits until
        every table has finished the tray)."""
        seating = render.view_seating(view, info.seats, lang)
        options = info.game_options
        over = view.phase is Phase.OVER
        lines = []
        for hand in SEATS:
            marks = []
            if not over:
                if hand == view.dealer:
                    marks.append(t(lang, "whist.dealer"))
                marks.append(t(lang, "whist.cards_left", n=view.counts[hand]))
            lines.append(
                f"**{seating.who(hand)}** — {', '.join(marks)}" if marks else seating.who(hand)
            )
        parts = ["\n".join(lines)]
        if over:
            title = t(lang, "whist.dup_table_over_title")
            parts.append(t(lang, "whist.dup_table_over"))
        else:
            title = t(
                lang,
                "whist.dup_table_title",
                tray=options.trays[view.deal - 1],
                n=view.deal,
                trays=len(options.trays),
            )
            parts.append(render.trump_line(view, lang))
            parts.append("\n".join(render.trick_lines(view, seating, lang)))
            a, b = seating.side(0), seating.side(1)
            parts.append(
                t(lang, "whist.dup_tricks_line", a=a, b=b, ta=view.tricks[0], tb=view.tricks[1])
            )
            if view.to_act:
                who = ", ".join(seating.actor(h) for h in view.to_act)
                parts.append(t(lang, "whist.to_act", who=who))
        return render.table_embed(info, title, parts, self.options_text(options, lang), over, lang)

    def hand_message(
        self,
        info: TableInfo,
        view: WhistView,
        turn: int,
        lang: Lang,
        *,
        pending: str = "",
        notice: str | None = None,
    ) -> Rendered:
        """Return whist's hand, its title naming the tray in play; once a tray is over here,
        the member is told where its results are."""
        options = info.game_options
        over = view.phase is Phase.OVER
        tray = None
        if not over:  # the tray names the title's unit: a hand never says "deal" here
            tray = t(
                lang,
                "whist.dup_hand_tray",
                tray=options.trays[view.deal - 1],
                n=view.deal,
                trays=len(options.trays),
            )
        shown = render.hand_message(
            info, view, turn, lang=lang, pending=pending, notice=notice, unit=tray
        )
        if over:
            head = t(lang, "whist.dup_hand_over")
        elif view.results:
            head = t(lang, "whist.dup_hand_results")
        else:
            return shown
        shown.content = f"{head}\n{shown.content or ''}"[:2000]
        return shown

    def owed(self, before: Any, after: Any) -> list[str]:
        """A tray's result is posted by the match, once every table has finished it."""
        return []

    def replay_steps(self, seed: int, options: Any, moves: Sequence[str]) -> list[Any]:
        """Return one step per card, then the table's result."""
        state = DUPLICATE_GAME.new_game(seed, options)
        steps: list[Any] = []
        for text in moves:
            move = DUPLICATE_GAME.parse_move(text)
            steps.append((move.seat, move.seat, str(move.action)))
            state.apply(move.seat, move.action)
        steps.append(state.result())
        return steps

    def rules(self, lang: Lang, with_picture: bool, variant: str = "") -> tuple[str, Any]:
        """Return duplicate whist's rules."""
        return t(lang, "whist.dup_rules"), None


UI = DuplicateUI()
