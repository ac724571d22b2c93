"""Duplicate whist matches across channels (``shared/rules/whist.md`` §7): team of four
(two tables), Mitchell progressive pairs (three tables or more) and Mnemonic duplicate
(one table).

A match's table is an ordinary core table of the engine game ``whist_duplicate`` (one
channel, one game playing a list of trays; :class:`DuplicateUI` shows it), so stand-ins,
restarts, the outbox and the leak checks are the core's. :class:`DuplicateRules` is the
match around those tables as pure functions of its document — the tables' rounds
(Mitchell's movement, Mnemonic's replay), each tray's results, the deadline, the final
standings and the ratings — returning what is to be done as values, which the core's
``bot.matches.Matches`` carries out (posts, tables to open or close, ratings). The
document (the store's ``matches`` table) holds the format, seed, options, the tables'
channels, who sits where, and every play of a tray at a table (N-S's tricks, or nothing
yet, and whether a computer stood in for a member). ``/whist duplicate create|table|join|
leave|start|results`` are this module's commands (``WhistUI.subcommands``).

What a member may see, and when (§7): a tray's records and other tables' results only in
``/whist duplicate results``, only once the member has finished that tray (a Mnemonic tray:
both its plays); nothing about a tray in any channel until every table has finished it;
the final standings in every table's channel when the match ends.
"""

from __future__ import annotations

import copy
import functools
import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from bot.commands import command_text
from bot.game import OptionSpec, Rendered, TableInfo, computer_name, computers_name
from bot.games.whist import render
from bot.games.whist.ui import WhistUI
from bot.i18n import Lang, Text, lang_of, seat_name, t
from bot.matches import Close, Effect, Matches, Open, Rate, Say, Status
from bot.store import SeatRecord, SeatResult
from bot.tables import TableOptions, UserError
from engine.game import options_to_json
from engine.whist import (
    mitchell_schedule,
    mnemonic_trump,
    score_mitchell,
    score_mnemonic,
    score_team_of_four,
)
from engine.whist.duplicate_table import DUPLICATE_GAME, DuplicateOptions
from engine.whist.rules import SEATS, Phase, WhistView

if TYPE_CHECKING:
    from bot.app import Bot

__all__ = [
    "RULES",
    "UI",
    "DuplicateRules",
    "DuplicateUI",
    "duplicate_group",
    "parts_of",
    "results_blocks",
    "results_text",
    "scores",
    "status_text",
]

GAME = "whist_duplicate"
FORMATS = ("team", "mitchell", "mnemonic")
TABLES = {"team": (2, 2), "mitchell": (3, 8), "mnemonic": (1, 1)}
"""The numbers of tables each format allows (fewest, most)."""
DEFAULT_TRAYS = {"team": 8, "mitchell": 3, "mnemonic": 8}
"""Trays per table (team of four), per set (Mitchell) or per session (Mnemonic)."""
MAX_TRAYS = 32
SEAT_LETTERS = ("N", "E", "S", "W")


# --- the match document -------------------------------------------------------------


def rounds_of(data: dict[str, Any]) -> int:
    """Return how many rounds the match has."""
    return int({"team": 1, "mitchell": data["tables"], "mnemonic": 2}[data["format"]])


def plan(fmt: str, tables: int, trays: int) -> list[dict[str, Any]]:
    """Return every play of the match, not played yet: per round, table and tray, the pairs
    at N-S and E-W (numbered by their first table) and the tray's place in that table's
    game of the round."""
    plays = []
    if fmt == "mitchell":
        for row in mitchell_schedule(tables, trays):
            for spot in row:
                for index, tray in enumerate(spot.trays):
                    plays.append(
                        _play(spot.round, spot.table, tray, index, spot.ns_pair, spot.ew_pair)
                    )
    else:
        for rnd in range(1, rounds_of({"format": fmt, "tables": tables}) + 1):
            for table in range(1, tables + 1):
                for index in range(trays):
                    plays.append(_play(rnd, table, index + 1, index, table, table))
    return plays


def _play(rnd: int, table: int, tray: int, index: int, ns: int, ew: int) -> dict[str, Any]:
    return {
        "round": rnd,
        "table": table,
        "tray": tray,
        "index": index,
        "ns_pair": ns,
        "ew_pair": ew,
        "ns": None,
        "done": False,
        "dead": False,
        "marked": False,
        "game": None,
    }


def seated(data: dict[str, Any], play: dict[str, Any]) -> list[Any]:
    """Return who sits at N E S W for ``play`` (``[user_id, name]`` or ``None``: a
    computer): N-S pair ``ns_pair``'s and E-W pair ``ew_pair``'s members."""
    ns = data["seating"][play["ns_pair"] - 1]
    ew = data["seating"][play["ew_pair"] - 1]
    return [ns[0], ew[1], ns[2], ew[3]]


def members_of(data: dict[str, Any], play: dict[str, Any]) -> set[int]:
    """Return the members who play ``play``."""
    return {who[0] for who in seated(data, play) if who is not None}


def finished_trays(data: dict[str, Any], user_id: int) -> set[int]:
    """Return the trays the member has finished: every play of the tray they sit in is
    done (a Mnemonic tray: both its plays)."""
    mine: dict[int, bool] = {}
    for play in data["plays"]:
        if user_id in members_of(data, play):
            mine[play["tray"]] = mine.get(play["tray"], True) and play["done"]
    return {tray for tray, done in mine.items() if done}


def settled_trays(data: dict[str, Any]) -> list[int]:
    """Return the trays every table has finished (or that score the average there)."""
    state: dict[int, bool] = {}
    for play in data["plays"]:
        state[play["tray"]] = state.get(play["tray"], True) and (play["done"] or play["dead"])
    return sorted(tray for tray, done in state.items() if done)


def _result(play: dict[str, Any]) -> int | None:
    return play["ns"] if play["done"] else None


def scores(data: dict[str, Any], trays: Iterable[int] | None = None) -> dict[str, Any]:
    """Return the match's scores over ``trays`` (all: the match), by format: per side
    (team X and Y; Mnemonic N-S and E-W) or per pair and direction (Mitchell), and the
    winners."""
    chosen = set(trays) if trays is not None else None
    plays = [p for p in data["plays"] if chosen is None or p["tray"] in chosen]
    fmt = data["format"]
    if fmt == "team":
        by = {(p["table"], p["tray"]): _result(p) for p in plays}
        numbers = sorted({p["tray"] for p in plays})
        team = score_team_of_four(
            [by.get((1, n)) for n in numbers], [by.get((2, n)) for n in numbers]
        )
        winners = ["x"] if team.x > 0 else ["y"] if team.x < 0 else ["x", "y"]
        return {"x": team.x, "y": team.y, "winners": winners}
    if fmt == "mnemonic":
        by = {(p["round"], p["tray"]): _result(p) for p in plays}
        numbers = sorted({p["tray"] for p in plays})
        session = score_mnemonic(
            [by.get((1, n)) for n in numbers], [by.get((2, n)) for n in numbers]
        )
        winners = ["ns"] if session.ns > 0 else ["ew"] if session.ns < 0 else ["ns", "ew"]
        return {"ns": session.ns, "ew": session.ew, "winners": winners}
    mitchell = score_mitchell((p["tray"], p["ns_pair"], p["ew_pair"], _result(p)) for p in plays)
    return {
        "ns": {str(k): _hundredths(v) for k, v in mitchell.ns.items()},
        "ew": {str(k): _hundredths(v) for k, v in mitchell.ew.items()},
        "ns_winners": list(mitchell.ns_winners),
        "ew_winners": list(mitchell.ew_winners),
    }


def _hundredths(value: Fraction) -> int:
    """Return a score in hundredths, rounded (scores are shown to 2 decimals)."""
    return round(value * 100)


def _score_text(hundredths: int) -> str:
    return f"{hundredths / 100:+.2f}"


# --- the table's messages -------------------------------------------------------------


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
    match_rules: DuplicateRules  # set below, once the rules are defined

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
            parts.append("\n".join(render._trick_lines(view, seating, lang)))
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


# --- the match rules: pure functions of the match's document ----------------------------


class DuplicateRules:
    """A duplicate match's rounds, results and end, as the core's ``MatchRules``: each
    change edits the match's document and returns what is to be done (``bot.matches``)."""

    game = GAME

    def games(self, data: dict[str, Any]) -> set[int]:
        """Return the tables (game ids) the match has opened."""
        return {p["game"] for p in data["plays"] if p["game"] is not None}

    def deadline(self, data: dict[str, Any]) -> float | None:
        """Return when the match closes."""
        return float(data["deadline"])

    def start(self, data: dict[str, Any]) -> list[Effect]:
        """Start the match: round 1 at every table."""
        data["round"] = 1
        return [Status("playing"), *self._round(data)]

    def cancel(self, data: dict[str, Any]) -> list[Effect]:
        """Cancel the match (its creator or a server manager): its live tables close
        without results, every table's channel is told, no ratings move; the mark in the
        document has a restart finish what a crash cut short."""
        data["cancelled"] = True
        return self._cancelled(data)

    def _cancelled(self, data: dict[str, Any]) -> list[Effect]:
        effects: list[Effect] = [Close(game_id) for game_id in sorted(self.games(data))]
        for i, channel_id in enumerate(data["channels"]):
            text = _text("whist.dup_cancelled", match=data["id"])
            effects.append(Say(channel_id, text, _nonce(data, i, "cancelled")))
        return [*effects, Status("closed")]

    def opened(
        self, data: dict[str, Any], key: str, game_id: int | None, state: Any
    ) -> list[Effect]:
        """A table of the round is open (or could not be: its trays score the average)."""
        rnd, table = (int(part) for part in key.removeprefix("r").split("t"))
        plays = [p for p in data["plays"] if p["round"] == rnd and p["table"] == table]
        for play in plays:
            if game_id is None:
                play["dead"] = True
            else:
                play["game"] = game_id
        if game_id is not None and state is not None:
            _record(data, game_id, state)
        return self._progress(data)

    def changed(
        self,
        data: dict[str, Any],
        game_id: int,
        state: Any,
        *,
        ended: bool,
        stood_in: int | None,
        left: int | None = None,
    ) -> list[Effect]:
        """A table changed: a tray it finished is recorded (marked if a computer stood in
        for a member during it, and every tray from the one where a member left the game
        on: a computer plays their seat); a table abandoned (its channel gone) or closed
        scores the average on what it had left."""
        if data.get("cancelled"):
            return []
        marks = data["marks"].setdefault(str(game_id), [])
        if stood_in is not None:
            index = stood_in // 52  # every tray is 52 cards
            if index not in marks:
                marks.append(index)
        if left is not None:
            for play in data["plays"]:
                index = play["index"]
                if play["game"] == game_id and index >= left // 52 and index not in marks:
                    marks.append(index)
        if ended:
            number = next((p["table"] for p in data["plays"] if p["game"] == game_id), None)
            if number is not None and number not in data["gone"]:
                data["gone"].append(number)
            _dead(data, game_id)
        elif state is not None:
            _record(data, game_id, state)
        return self._progress(data)

    def resume(
        self,
        data: dict[str, Any],
        states: Mapping[int, Any],
        live: Mapping[int, tuple[int, Mapping[str, Any], Any]],
    ) -> list[Effect]:
        """After a restart: record what the tables did meanwhile; a table of the round
        opened but not recorded is found again by its channel, trays and turn — and
        recorded, so a table of computers that finished as it opened is not played again;
        a round whose start was cut short opens its other tables (a post asked for again
        is owed once: the core knows its nonce)."""
        data.pop("posting", None)  # trays a match of an earlier version was posting
        if data.get("cancelled"):
            return self._cancelled(data)
        for game_id, state in states.items():
            if state is None:
                _dead(data, game_id)
            else:
                _record(data, game_id, state)
        rnd = data["round"]
        for table in range(1, data["tables"] + 1):
            plays = _table_plays(data, rnd, table)
            found = live.get(data["channels"][table - 1])
            if not plays or any(p["game"] is not None for p in plays) or found is None:
                continue
            game_id, options, state = found
            trays = tuple(options.get("trays", ()))
            turned = data["format"] == "mnemonic" and rnd == 2
            if (
                options.get("match_seed") == data["seed"]
                and trays == tuple(p["tray"] for p in plays)
                and bool(options.get("turned")) == turned
            ):
                for play in plays:
                    play["game"] = game_id
                if state is not None:
                    _record(data, game_id, state)
        return self._round(data) + self._progress(data)

    def expired(self, data: dict[str, Any], states: Mapping[int, Any]) -> list[Effect]:
        """The deadline: what the live tables finished counts; every other play scores
        the average; the match ends."""
        if data.get("cancelled"):
            return self._cancelled(data)
        for game_id, state in states.items():
            _record(data, game_id, state)
        for play in data["plays"]:
            if not play["done"]:
                play["dead"] = True
        if data["round"] == 0:
            return [
                Status("closed"),
                *(
                    Say(c, _text("whist.dup_expired", match=data["id"]), _nonce(data, i, "closed"))
                    for i, c in enumerate(data["channels"])
                ),
            ]
        return self._progress(data)

    def summary(self, match_id: int, data: dict[str, Any], lang: Lang) -> str:
        """Return the finished match's ``/history`` line: its format and the winners."""
        final = data.get("standings") or scores(data)
        fmt = t(lang, f"whist.dup_format_{data['format']}")
        head = t(lang, "whist.dup_history", match=match_id, format=fmt)
        return f"{head}\n{_winners_text(data, final, lang)}"

    def _round(self, data: dict[str, Any]) -> list[Effect]:
        """Open the round's tables not opened yet, each announced in its channel; a table
        whose channel is gone scores the average."""
        rnd = data["round"]
        effects: list[Effect] = []
        level = data["level"]
        for table in range(1, data["tables"] + 1):
            plays = _table_plays(data, rnd, table)
            if not plays or any(p["game"] is not None or p["dead"] for p in plays):
                continue
            if table in data["gone"]:
                for play in plays:
                    play["dead"] = True
                continue
            options = DuplicateOptions(
                match_seed=data["seed"],
                trays=tuple(p["tray"] for p in plays),
                turned=data["format"] == "mnemonic" and rnd == 2,
                declared_trump=data["trump"],
            )
            seats = {}
            for seat, who in enumerate(seated(data, plays[0])):
                if who is None:
                    seats[seat] = SeatRecord(seat, None, f"Computer ({level})", level)
                else:
                    seats[seat] = SeatRecord(seat, who[0], who[1], None)
            channel_id = data["channels"][table - 1]
            match_id = data["id"]
            effects.append(
                Say(
                    channel_id,
                    functools.partial(_round_text, data, plays[0]),
                    f"m{match_id}:r{rnd}t{table}",
                )
            )
            effects.append(
                Open(
                    f"r{rnd}t{table}",
                    channel_id,
                    data["creator"],
                    seats,
                    TableOptions(
                        game=options_to_json(options),
                        turn_seconds=data["turn_seconds"],
                        level=level,
                        pictures=data["pictures"],
                    ),
                    random.Random(f"{data['seed']}:{rnd}:{table}").randrange(1 << 62),
                )
            )
        return effects

    def _progress(self, data: dict[str, Any]) -> list[Effect]:
        """Post each tray every table has now finished; when every table has finished the
        round, the next round; after the last, the final standings."""
        effects: list[Effect] = []
        for tray in settled_trays(data):
            if tray in data["posted"]:
                continue
            data["posted"].append(tray)  # the core owes the posts from now on
            text = functools.partial(_tray_post, data, tray)
            for i, channel_id in enumerate(data["channels"]):
                effects.append(Say(channel_id, text, _nonce(data, i, f"tray{tray}")))
        if all(p["done"] or p["dead"] for p in data["plays"]):
            return effects + self._finish(data)
        rnd = data["round"]
        if all(p["done"] or p["dead"] for p in data["plays"] if p["round"] == rnd):
            data["round"] = rnd + 1
            effects += self._round(data)
        return effects

    def _finish(self, data: dict[str, Any]) -> list[Effect]:
        final = scores(data)
        data["standings"] = final
        text = functools.partial(_final_text, data, final)
        effects: list[Effect] = [
            Say(channel_id, text, _nonce(data, i, "final"))
            for i, channel_id in enumerate(data["channels"])
        ]
        if not data.get("rated"):
            data["rated"] = True
            effects += [
                Rate(tuple(group)) for group in _rated_groups(data, final) if len(group) > 1
            ]
        return [*effects, Status("finished")]


RULES = DuplicateRules()
UI.match_rules = RULES


def _nonce(data: dict[str, Any], index: int, what: str) -> str:
    """Return the nonce of a post in table ``index + 1``'s channel (Discord keeps a nonce
    unique per bot, not per channel: each channel's post has its own)."""
    return f"m{data['id']}:t{index + 1}:{what}"


def _text(key: str, **params: Any) -> Callable[[Lang], str]:
    return lambda lang: t(lang, key, **params)


def _table_plays(data: dict[str, Any], rnd: int, table: int) -> list[dict[str, Any]]:
    return sorted(
        (p for p in data["plays"] if p["round"] == rnd and p["table"] == table),
        key=lambda p: p["index"],
    )


def _record(data: dict[str, Any], game_id: int, state: Any) -> None:
    """Record the trays the table has finished (N-S's tricks; marked where a computer stood
    in for a member)."""
    marks = data["marks"].get(str(game_id), [])
    results = state.tray_results
    for play in data["plays"]:
        if play["game"] == game_id and not play["done"] and play["index"] < len(results):
            play["done"] = True
            play["ns"] = results[play["index"]]
            play["marked"] = play["index"] in marks


def _dead(data: dict[str, Any], game_id: int) -> None:
    """The table ended without finishing its trays: they score the average there, and so
    does every later play at a table whose channel is gone."""
    for play in data["plays"]:
        if play["game"] == game_id and not play["done"]:
            play["dead"] = True
    for play in data["plays"]:
        if play["table"] in data["gone"] and not play["done"] and play["game"] is None:
            play["dead"] = True


def _round_text(data: dict[str, Any], play: dict[str, Any], lang: Lang) -> str:
    names = [
        discord.utils.escape_markdown(who[1])
        if who is not None
        else computer_name(lang, data["level"], seat)
        for seat, who in enumerate(seated(data, play))
    ]
    return t(
        lang,
        "whist.dup_round",
        round=play["round"],
        rounds=rounds_of(data),
        table=play["table"],
        ns=play["ns_pair"],
        ew=play["ew_pair"],
        seats=", ".join(f"{seat_name(lang, s)}: {n}" for s, n in enumerate(names)),
    )


def _tray_post(data: dict[str, Any], tray: int, lang: Lang) -> str:
    lines = [f"**{t(lang, 'whist.dup_tray_done', tray=tray)}**"]
    for play in data["plays"]:
        if play["tray"] != tray:
            continue
        where = _where(data, play, lang)
        if play["done"]:
            line = t(lang, "whist.dup_result_line", where=where, ns=play["ns"], ew=13 - play["ns"])
            if play["marked"]:
                line += " " + t(lang, "whist.dup_marked")
        else:
            line = t(lang, "whist.dup_result_average", where=where)
        lines.append(line)
    return "\n".join(lines)


def _final_text(data: dict[str, Any], final: dict[str, Any], lang: Lang) -> str:
    title = t(lang, "whist.dup_final_title", match=data["id"])
    return f"**{title}**\n" + _standing_text(data, final, lang)


# --- the commands' work ------------------------------------------------------------------


def _matches(bot: Bot) -> Matches:
    found: Matches | None = getattr(bot, "matches", None)
    if found is None:
        raise UserError("errors.game_gone")
    return found


async def _match_here(bot: Bot, guild_id: int | None, channel_id: int | None) -> Any:
    """Return the live match one of whose tables is this channel, if any."""
    for record in await _matches(bot).live(GAME):
        if record.guild_id == guild_id and channel_id in record.data["channels"]:
            return record
    return None


async def do_create(
    bot: Bot,
    interaction: discord.Interaction,
    fmt: str,
    tables: int | None,
    trays: int | None,
    trump: str | None,
    hours: int | None,
    level: str | None,
) -> None:
    """``/whist duplicate create``: a match whose table 1 is this channel."""
    guild_id, channel_id = interaction.guild_id, interaction.channel_id
    if guild_id is None or channel_id is None:
        raise UserError("table.no_dms", game=Text(f"{GAME}.title"))
    if fmt not in FORMATS or trump not in (None, "turned", "C", "D", "H", "S"):
        raise UserError("whist.dup_no_format")
    least, most = TABLES[fmt]
    count = least if tables is None else tables
    if not least <= count <= most:
        raise UserError(f"whist.dup_tables_{fmt}", n=count)
    per = DEFAULT_TRAYS[fmt] if trays is None else trays
    total = per * count if fmt == "mitchell" else per
    if per < 1 or total > MAX_TRAYS:
        raise UserError("whist.dup_trays_range", n=MAX_TRAYS)
    hours = 24 if hours is None else hours
    if hours < 1:
        raise UserError("whist.dup_deadline_past")
    levels = DUPLICATE_GAME.levels
    chosen = level if level in levels else bot.settings.level_for(DUPLICATE_GAME.name)
    if chosen not in levels:
        chosen = DUPLICATE_GAME.default_level
    controller = bot.controller
    if controller.tables.table_in(channel_id) is not None:
        raise UserError("whist.dup_channel_busy")
    if await _match_here(bot, guild_id, channel_id) is not None:
        raise UserError("whist.dup_channel_in_match")
    # A member hosts as many matches at once as lobbies (the server's lobby limit).
    most = controller.tables.limits.per_member
    live = await _matches(bot).live(GAME)
    mine = [r for r in live if r.guild_id == guild_id and r.data["creator"] == interaction.user.id]
    if most and len(mine) >= most:
        raise UserError("whist.dup_too_many", n=most)
    seed = controller.tables._seed_source()
    declared = None if trump in (None, "turned") else trump
    if fmt == "mnemonic" and declared is None:
        declared = mnemonic_trump(seed).letter
    data: dict[str, Any] = {
        "id": None,
        "format": fmt,
        "seed": seed,
        "tables": count,
        "trays": per,
        "trump": declared,
        "deadline": controller.tables.clock() + hours * 3600,
        "level": chosen,
        "turn_seconds": int(bot.settings.turn_seconds),
        "pictures": bool(bot.settings.pictures),
        "creator": interaction.user.id,
        "channels": [channel_id] + [None] * (count - 1),
        "seating": [[None] * 4 for _ in range(count)],
        "round": 0,
        "plays": plan(fmt, count, per),
        "marks": {},
        "posted": [],
        "gone": [],
    }
    matches = _matches(bot)
    match_id = await matches.create(GAME, guild_id, data)

    def numbered(record: Any) -> list[Effect]:
        record.data["id"] = record.id
        return []

    await matches.update(match_id, numbered)
    lang = lang_of(interaction.guild_locale)
    text = t(
        lang,
        "whist.dup_created",
        match=match_id,
        format=t(lang, f"whist.dup_format_{fmt}"),
        tables=count,
        trays=total,
        deadline=int(data["deadline"]),
    )
    await interaction.response.send_message(text)


async def do_add_table(bot: Bot, interaction: discord.Interaction, match_id: int) -> None:
    """``/whist duplicate table``: this channel becomes the match's next table."""
    channel_id = interaction.channel_id
    if interaction.guild_id is None or channel_id is None:
        raise UserError("table.no_dms", game=Text(f"{GAME}.title"))
    record = await _matches(bot).get(match_id)
    if record is None or record.game != GAME or record.guild_id != interaction.guild_id:
        raise UserError("whist.dup_no_match", match=match_id)
    if bot.controller.tables.table_in(channel_id) is not None:
        raise UserError("whist.dup_channel_busy")
    if await _match_here(bot, record.guild_id, channel_id) is not None:
        raise UserError("whist.dup_channel_in_match")
    added = 0

    def add(record: Any) -> list[Effect]:
        nonlocal added
        data = record.data
        if record.status != "open":
            raise UserError("whist.dup_started")
        if interaction.user.id != data["creator"]:
            raise UserError("whist.dup_creator_only")
        if channel_id in data["channels"]:
            raise UserError("whist.dup_channel_in_match")
        if None not in data["channels"]:
            raise UserError("whist.dup_tables_full", n=data["tables"])
        added = data["channels"].index(None) + 1
        data["channels"][added - 1] = channel_id
        return []

    await _matches(bot).update(match_id, add)
    lang = lang_of(interaction.guild_locale)
    await interaction.response.send_message(
        t(lang, "whist.dup_table_added", match=match_id, table=added)
    )


async def _here(bot: Bot, interaction: discord.Interaction) -> Any:
    record = await _match_here(bot, interaction.guild_id, interaction.channel_id)
    if record is None:
        raise UserError("whist.dup_not_a_table")
    return record


async def do_join(bot: Bot, interaction: discord.Interaction, seat: str) -> None:
    """``/whist duplicate join seat:``: take a seat at this channel's table."""
    record = await _here(bot, interaction)
    user = interaction.user
    table = record.data["channels"].index(interaction.channel_id)
    if seat not in SEAT_LETTERS:
        raise UserError("whist.dup_no_seat")
    index = SEAT_LETTERS.index(seat)

    def sit(record: Any) -> list[Effect]:
        data = record.data
        if record.status != "open":
            raise UserError("whist.dup_started")
        if any(who is not None and who[0] == user.id for row in data["seating"] for who in row):
            raise UserError("whist.dup_already_seated")
        if data["seating"][table][index] is not None:
            raise UserError("whist.dup_seat_taken")
        data["seating"][table][index] = [user.id, user.display_name]
        return []

    await _matches(bot).update(record.id, sit)
    lang = lang_of(interaction.locale)
    await interaction.response.send_message(
        t(lang, "whist.dup_joined", table=table + 1, seat=seat_name(lang, index)), ephemeral=True
    )


async def do_leave(bot: Bot, interaction: discord.Interaction) -> None:
    """``/whist duplicate leave``: give up one's seat before the start."""
    record = await _here(bot, interaction)

    def stand(record: Any) -> list[Effect]:
        if record.status != "open":
            raise UserError("whist.dup_started")
        found = False
        for row in record.data["seating"]:
            for i, who in enumerate(row):
                if who is not None and who[0] == interaction.user.id:
                    row[i] = None
                    found = True
        if not found:
            raise UserError("whist.dup_not_seated")
        return []

    await _matches(bot).update(record.id, stand)
    await interaction.response.send_message(
        t(lang_of(interaction.locale), "whist.dup_left"), ephemeral=True
    )


async def do_start(bot: Bot, interaction: discord.Interaction) -> None:
    """``/whist duplicate start``: computers take the empty seats; round 1 starts."""
    record = await _here(bot, interaction)
    tables = bot.controller.tables

    def begin(record: Any) -> list[Effect]:
        data = record.data
        if record.status != "open":
            raise UserError("whist.dup_started")
        if interaction.user.id != data["creator"]:
            raise UserError("whist.dup_creator_only")
        if None in data["channels"]:
            raise UserError("whist.dup_tables_missing", n=data["channels"].count(None))
        if any(tables.table_in(c) is not None for c in data["channels"]):
            raise UserError("whist.dup_channel_busy")
        return RULES.start(data)

    begin(copy.deepcopy(record))  # refused now, before the answer, if it is refused
    # The answer comes first: the tables' messages follow it in their channels.
    await interaction.response.send_message(
        t(lang_of(interaction.guild_locale), "whist.dup_starting", match=record.id)
    )
    await _matches(bot).update(record.id, begin)


async def do_cancel(bot: Bot, interaction: discord.Interaction, match_id: int | None) -> None:
    """``/whist duplicate cancel``: the match's creator or a server manager cancels an open
    or running match (this channel's, or ``match``)."""
    record = await _which(bot, interaction, match_id)
    permissions = interaction.permissions
    manager = bool(permissions and permissions.manage_guild)

    def cancel(record: Any) -> list[Effect]:
        if record.status not in ("open", "playing"):
            raise UserError("whist.dup_cancel_over", match=record.id)
        if interaction.user.id != record.data["creator"] and not manager:
            raise UserError("whist.dup_cancel_refused", match=record.id)
        return RULES.cancel(record.data)

    cancel(copy.deepcopy(record))  # refused now, before the answer, if it is refused
    # The answer comes first: closing the tables and the posts may take longer than
    # Discord waits for it.
    await interaction.response.send_message(
        t(lang_of(interaction.locale), "whist.dup_cancelled_reply", match=record.id),
        ephemeral=True,
    )
    await _matches(bot).update(record.id, cancel)


async def _which(bot: Bot, interaction: discord.Interaction, match_id: int | None) -> Any:
    """Return match ``match_id`` of this server, or (``None``) this channel's live match."""
    if match_id is None:
        return await _here(bot, interaction)
    record = await _matches(bot).get(match_id)
    if record is None or record.game != GAME or record.guild_id != interaction.guild_id:
        raise UserError("whist.dup_no_match", match=match_id)
    return record


async def do_status(bot: Bot, interaction: discord.Interaction, match_id: int | None) -> None:
    """``/whist duplicate status``: the match's public state, privately."""
    record = await _which(bot, interaction, match_id)
    lang = lang_of(interaction.locale)
    lines = status_text(record.id, record.status, record.data, lang).split("\n")
    await send_parts(interaction, [[line] for line in lines])


def status_text(match_id: int, status: str, data: dict[str, Any], lang: Lang) -> str:
    """Return what anybody may know of the match: its format, state, round and deadline;
    each table's channel, who sits where this round (names only) and how many of its
    trays it has finished — counts, never a result."""
    fmt = t(lang, f"whist.dup_format_{data['format']}")
    state = "cancelled" if data.get("cancelled") else status
    lines = [
        t(
            lang,
            "whist.dup_status_title",
            match=match_id,
            format=fmt,
            status=t(lang, f"whist.dup_status_{state}"),
        )
    ]
    if status == "playing":
        lines.append(t(lang, "whist.dup_status_round", round=data["round"], rounds=rounds_of(data)))
    if status in ("open", "playing"):
        lines.append(t(lang, "whist.dup_status_deadline", deadline=int(data["deadline"])))
    rnd = max(1, data["round"])
    for table in range(1, data["tables"] + 1):
        channel_id = data["channels"][table - 1]
        where = f"<#{channel_id}>" if channel_id else t(lang, "whist.dup_status_no_channel")
        plays = _table_plays(data, rnd, table)
        names = []
        for seat, who in enumerate(seated(data, plays[0]) if plays else [None] * 4):
            if who is not None:
                name = discord.utils.escape_markdown(who[1])
            elif status == "open":
                name = t(lang, "whist.dup_status_free")
            else:
                name = computer_name(lang, data["level"], seat)
            names.append(f"{seat_name(lang, seat)}: {name}")
        at_table = [p for p in data["plays"] if p["table"] == table]
        head = (
            _where(data, plays[0], lang)
            if plays and data["format"] == "mitchell"
            else t(lang, "whist.dup_where_table", table=table)
        )
        lines.append(
            t(
                lang,
                "whist.dup_status_table",
                table=head,
                channel=where,
                seats=", ".join(names),
                done=sum(1 for p in at_table if p["done"]),
                trays=len(at_table),
            )
        )
    return "\n".join(lines)


def parts_of(blocks: Sequence[Sequence[str]], limit: int = 2000) -> list[str]:
    """Return the blocks of lines as messages of at most ``limit`` characters (Discord's
    limit for a message's content), in order, split only between lines: a block that
    fits in one message stays in one, and a block too long for any is split between its
    lines, its first line (a tray's heading) repeated at the top of each part, so that
    every result is read under its tray."""
    parts: list[str] = []
    current: list[str] = []

    def length(lines: list[str]) -> int:
        return sum(len(line) for line in lines) + len(lines) - 1

    for block in blocks:
        lines = [line[:limit] for line in block]
        if not lines:
            continue
        if current and length(current + lines) <= limit:
            current += lines
            continue
        if current:
            parts.append("\n".join(current))
        if length(lines) <= limit:
            current = lines
            continue
        head = lines[0][: limit // 2]
        current = [head]
        for line in lines[1:]:
            line = line[: limit - len(head) - 1]
            if length([*current, line]) > limit:
                parts.append("\n".join(current))
                current = [head]
            current.append(line)
    if current:
        parts.append("\n".join(current))
    return parts or [""]


async def send_parts(interaction: discord.Interaction, blocks: Sequence[Sequence[str]]) -> None:
    """Answer privately with every block: the first message as the response, the rest as
    private follow-ups, in order (:func:`parts_of`)."""
    first, *rest = parts_of(blocks)
    await interaction.response.send_message(first, ephemeral=True)
    for part in rest:
        await interaction.followup.send(part, ephemeral=True)


async def do_results(bot: Bot, interaction: discord.Interaction) -> None:
    """``/whist duplicate results``: the member's view of their latest match."""
    lang = lang_of(interaction.locale)
    user_id = interaction.user.id
    found = None
    for record in await _matches(bot).in_guild(interaction.guild_id or 0, GAME):
        seating = record.data["seating"]
        if any(who is not None and who[0] == user_id for row in seating for who in row):
            found = record
            break
    if found is None:
        raise UserError("whist.dup_no_own_match")
    moves: dict[int, list[str]] = {}
    for play in found.data["plays"]:
        game_id = play["game"]
        if play["done"] and game_id not in moves:
            stored = await bot.store.game(game_id)
            moves[game_id] = [] if stored is None else list(stored.moves)
    blocks = results_blocks(found.id, found.status, found.data, user_id, moves, lang)
    await send_parts(interaction, blocks)


def results_text(
    match_id: int,
    status: str,
    data: dict[str, Any],
    user_id: int,
    moves: Mapping[int, Sequence[str]],
    lang: Lang,
) -> str:
    """Return the whole of :func:`results_blocks` as one text."""
    blocks = results_blocks(match_id, status, data, user_id, moves, lang)
    return "\n".join(line for block in blocks for line in block)


def results_blocks(
    match_id: int,
    status: str,
    data: dict[str, Any],
    user_id: int,
    moves: Mapping[int, Sequence[str]],
    lang: Lang,
) -> list[list[str]]:
    """Return what the member may know of the match now, in blocks of lines (the title;
    one per tray; the total): per tray they have finished, every finished play's result
    and record (the cards, trick by trick); their provisional total over those trays
    (final once the match is over)."""
    done = sorted(finished_trays(data, user_id))
    fmt = t(lang, f"whist.dup_format_{data['format']}")
    blocks = [[t(lang, "whist.dup_results_title", match=match_id, format=fmt)]]
    if not done:
        blocks[0].append(t(lang, "whist.dup_results_none"))
    for tray in done:
        lines = [f"**{t(lang, 'whist.dup_tray', tray=tray)}**"]
        blocks.append(lines)
        for play in data["plays"]:
            if play["tray"] != tray or not play["done"]:
                continue
            cards = list(moves.get(play["game"], ()))[52 * play["index"] : 52 * (play["index"] + 1)]
            marked = " " + t(lang, "whist.dup_marked") if play["marked"] else ""
            where = _where(data, play, lang)
            lines.append(
                t(lang, "whist.dup_result_line", where=where, ns=play["ns"], ew=13 - play["ns"])
                + marked
            )
            lines.append(
                "> " + " | ".join(" ".join(cards[i : i + 4]) for i in range(0, len(cards), 4))
            )
    if done:
        label = "whist.dup_final" if status == "finished" else "whist.dup_provisional"
        total = f"**{t(lang, label)}** " + _standing_text(data, scores(data, done), lang)
        blocks.append(total.split("\n"))
    return blocks


def _where(data: dict[str, Any], play: dict[str, Any], lang: Lang) -> str:
    if data["format"] == "mitchell":
        return t(
            lang,
            "whist.dup_where_pairs",
            table=play["table"],
            ns=play["ns_pair"],
            ew=play["ew_pair"],
        )
    if data["format"] == "mnemonic":
        return t(
            lang, "whist.dup_where_replay" if play["round"] == 2 else "whist.dup_where_original"
        )
    return t(lang, "whist.dup_where_table", table=play["table"])


def _names(data: dict[str, Any], seats: Sequence[tuple[int, int]], lang: Lang) -> str:
    """Return a pair's or team's members, then its computers counted (``alice & 🤖 3
    computers (expert)``): the computers of a side are one level, told apart by nothing."""
    names = []
    computers = 0
    for table, seat in seats:
        who = data["seating"][table - 1][seat]
        if who:
            names.append(discord.utils.escape_markdown(who[1]))
        else:
            computers += 1
    if computers:
        names.append(computers_name(lang, data["level"], computers))
    return " & ".join(names)


_DIRECTIONS: tuple[tuple[str, tuple[int, int]], ...] = (("ns", (0, 2)), ("ew", (1, 3)))
_TEAMS: dict[str, tuple[tuple[int, int], ...]] = {
    "x": ((1, 0), (1, 2), (2, 1), (2, 3)),
    "y": ((1, 1), (1, 3), (2, 0), (2, 2)),
}
_SIDES: dict[str, tuple[tuple[int, int], ...]] = {"ns": ((1, 0), (1, 2)), "ew": ((1, 1), (1, 3))}


def _standing_text(data: dict[str, Any], result: dict[str, Any], lang: Lang) -> str:
    fmt = data["format"]
    lines = []
    if fmt in ("team", "mnemonic"):
        sides = _TEAMS if fmt == "team" else _SIDES
        for side, seats in sides.items():
            crown = " 🏆" if side in result["winners"] and len(result["winners"]) == 1 else ""
            label = t(lang, f"whist.dup_side_{side}")
            lines.append(f"{label} ({_names(data, seats, lang)}): **{result[side]:+d}**{crown}")
        if len(result["winners"]) == 2:
            lines.append(t(lang, "whist.dup_tie"))
        return "\n".join(lines)
    for direction, hands in _DIRECTIONS:
        lines.append(t(lang, f"whist.dup_direction_{direction}"))
        totals = result[direction]
        for pair in sorted(totals, key=lambda p: (-totals[p], int(p))):
            crown = " 🏆" if int(pair) in result[f"{direction}_winners"] else ""
            who = _names(data, [(int(pair), s) for s in hands], lang)
            label = t(lang, "whist.dup_pair", n=pair)
            lines.append(f"{label} ({who}): **{_score_text(totals[pair])}**{crown}")
    return "\n".join(lines)


def _winners_text(data: dict[str, Any], result: dict[str, Any], lang: Lang) -> str:
    """Return who won, in one line: the team or side with its score, or each direction's
    best pairs."""
    fmt = data["format"]
    if fmt in ("team", "mnemonic"):
        sides = _TEAMS if fmt == "team" else _SIDES
        parts = []
        for side in result["winners"]:
            label = t(lang, f"whist.dup_side_{side}")
            parts.append(f"{label} ({_names(data, sides[side], lang)}) {result[side]:+d}")
        return "🏆 " + " · ".join(parts)
    parts = []
    for direction, hands in _DIRECTIONS:
        for pair in result[f"{direction}_winners"]:
            who = _names(data, [(int(pair), s) for s in hands], lang)
            total = _score_text(result[direction][str(pair)])
            parts.append(f"{t(lang, 'whist.dup_pair', n=pair)} ({who}) {total}")
    return "🏆 " + " · ".join(parts)


def _rated_groups(data: dict[str, Any], result: dict[str, Any]) -> list[list[SeatResult]]:
    """Return the finished match's ratings to move, as groups ranked by score: the two
    teams (sides), or each Mitchell direction's pairs."""

    def entry(index: int, table: int, seat: int, score: int) -> SeatResult:
        who = data["seating"][table - 1][seat]
        if who is None:
            return SeatResult(index, None, data["level"], score, 0.0)
        return SeatResult(index, who[0], None, score, 0.0)

    groups: list[list[SeatResult]] = []
    if data["format"] in ("team", "mnemonic"):
        sides = _TEAMS if data["format"] == "team" else _SIDES
        group: list[SeatResult] = []
        for side, seats in sides.items():
            for table, seat in seats:
                group.append(entry(len(group), table, seat, result[side]))
        groups.append(group)
    else:
        for direction, hands in _DIRECTIONS:
            group = []
            for pair, total in result[direction].items():
                for seat in hands:
                    group.append(entry(len(group), int(pair), seat, total))
            groups.append(group)
    return groups


# --- the commands -----------------------------------------------------------------------


def _choices(*pairs: tuple[str, str]) -> list[app_commands.Choice[str]]:
    return [app_commands.Choice(name=command_text(key), value=value) for key, value in pairs]


def duplicate_group(bot: Bot) -> app_commands.Group:
    """Return ``/whist duplicate``: create, table, join, leave, start, results, status,
    cancel."""
    controller = bot.controller

    group = app_commands.Group(
        name=command_text("whist.dup_command_name"),
        description=command_text("whist.dup_command_description"),
        guild_only=True,
    )

    @app_commands.command(
        name=command_text("whist.dup_create_name"),
        description=command_text("whist.dup_create_description"),
    )
    @app_commands.rename(
        format=command_text("whist.dup_option_format_name"),
        tables=command_text("whist.dup_option_tables_name"),
        trays=command_text("whist.dup_option_trays_name"),
        trump=command_text("whist.dup_option_trump_name"),
        deadline_hours=command_text("whist.dup_option_deadline_name"),
        level=command_text("whist.dup_option_level_name"),
    )
    @app_commands.describe(
        format=command_text("whist.dup_option_format_description"),
        tables=command_text("whist.dup_option_tables_description"),
        trays=command_text("whist.dup_option_trays_description"),
        trump=command_text("whist.dup_option_trump_description"),
        deadline_hours=command_text("whist.dup_option_deadline_description"),
        level=command_text("whist.dup_option_level_description"),
    )
    @app_commands.choices(
        format=_choices(
            ("whist.dup_format_team", "team"),
            ("whist.dup_format_mitchell", "mitchell"),
            ("whist.dup_format_mnemonic", "mnemonic"),
        ),
        trump=_choices(
            ("whist.dup_trump_turned", "turned"),
            ("whist.suit_C", "C"),
            ("whist.suit_D", "D"),
            ("whist.suit_H", "H"),
            ("whist.suit_S", "S"),
        ),
        level=_choices(
            ("whist.computers_random", "random"),
            ("whist.computers_basic", "basic"),
            ("whist.computers_expert", "expert"),
        ),
    )
    async def create(
        interaction: discord.Interaction,
        format: str,
        tables: app_commands.Range[int, 1, 16] | None = None,
        trays: app_commands.Range[int, 1, 32] | None = None,
        trump: str | None = None,
        deadline_hours: app_commands.Range[int, -1000, 720] | None = None,
        level: str | None = None,
    ) -> None:
        await controller.safely(
            interaction,
            do_create(bot, interaction, format, tables, trays, trump, deadline_hours, level),
        )

    @app_commands.command(
        name=command_text("whist.dup_table_name"),
        description=command_text("whist.dup_table_description"),
    )
    @app_commands.rename(match=command_text("whist.dup_option_match_name"))
    @app_commands.describe(match=command_text("whist.dup_option_match_description"))
    async def table(interaction: discord.Interaction, match: int) -> None:
        await controller.safely(interaction, do_add_table(bot, interaction, match))

    @app_commands.command(
        name=command_text("whist.dup_join_name"),
        description=command_text("whist.dup_join_description"),
    )
    @app_commands.rename(seat=command_text("whist.dup_option_seat_name"))
    @app_commands.describe(seat=command_text("whist.dup_option_seat_description"))
    @app_commands.choices(
        seat=_choices(
            ("common.seat_0", "N"),
            ("common.seat_1", "E"),
            ("common.seat_2", "S"),
            ("common.seat_3", "W"),
        )
    )
    async def join(interaction: discord.Interaction, seat: str) -> None:
        await controller.safely(interaction, do_join(bot, interaction, seat))

    @app_commands.command(
        name=command_text("whist.dup_leave_name"),
        description=command_text("whist.dup_leave_description"),
    )
    async def leave(interaction: discord.Interaction) -> None:
        await controller.safely(interaction, do_leave(bot, interaction))

    @app_commands.command(
        name=command_text("whist.dup_start_name"),
        description=command_text("whist.dup_start_description"),
    )
    async def start(interaction: discord.Interaction) -> None:
        await controller.safely(interaction, do_start(bot, interaction))

    @app_commands.command(
        name=command_text("whist.dup_results_name"),
        description=command_text("whist.dup_results_description"),
    )
    async def results(interaction: discord.Interaction) -> None:
        await controller.safely(interaction, do_results(bot, interaction))

    @app_commands.command(
        name=command_text("whist.dup_cancel_name"),
        description=command_text("whist.dup_cancel_description"),
    )
    @app_commands.rename(match=command_text("whist.dup_option_match_name"))
    @app_commands.describe(match=command_text("whist.dup_option_which_match_description"))
    async def cancel(interaction: discord.Interaction, match: int | None = None) -> None:
        await controller.safely(interaction, do_cancel(bot, interaction, match))

    @app_commands.command(
        name=command_text("whist.dup_status_name"),
        description=command_text("whist.dup_status_description"),
    )
    @app_commands.rename(match=command_text("whist.dup_option_match_name"))
    @app_commands.describe(match=command_text("whist.dup_option_which_match_description"))
    async def status(interaction: discord.Interaction, match: int | None = None) -> None:
        await controller.safely(interaction, do_status(bot, interaction, match))

    commands: list[app_commands.Command[Any, ..., None]] = [
        create,
        table,
        join,
        leave,
        start,
        results,
        status,
        cancel,
    ]
    for command in commands:
        group.add_command(command)
    return group
