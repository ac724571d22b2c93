"""The rules of a duplicate whist match around its tables (``docs/rules/whist.md`` §7):
the tables' rounds (Mitchell's movement, Mnemonic's replay), each tray's results, the
deadline, the final standings and the ratings, as pure functions of the match's document
(:mod:`bot.games.whist.duplicate_plan`) returning what is to be done as values, which the
core's ``bot.matches.Matches`` carries out (posts, tables to open or close, ratings)."""

from __future__ import annotations

import functools
import random
from collections.abc import Callable, Mapping
from typing import Any

from bot.games.whist.duplicate_plan import (
    DIRECTIONS,
    GAME,
    SIDES,
    TEAMS,
    scores,
    seated,
    settled_trays,
    table_plays,
)
from bot.games.whist.duplicate_texts import final_text, round_text, tray_post, winners_text
from bot.i18n import Lang, t
from bot.matches import Close, Effect, Open, Rate, Say, Status
from bot.store import SeatRecord, SeatResult
from bot.tables import TableOptions
from engine.game import options_to_json
from engine.whist.duplicate_table import DuplicateOptions

__all__ = ["RULES", "DuplicateRules"]


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
            plays = table_plays(data, rnd, table)
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
        return f"{head}\n{winners_text(data, final, lang)}"

    def _round(self, data: dict[str, Any]) -> list[Effect]:
        """Open the round's tables not opened yet, each announced in its channel; a table
        whose channel is gone scores the average."""
        rnd = data["round"]
        effects: list[Effect] = []
        level = data["level"]
        for table in range(1, data["tables"] + 1):
            plays = table_plays(data, rnd, table)
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
                    functools.partial(round_text, data, plays[0]),
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
            text = functools.partial(tray_post, data, tray)
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
        text = functools.partial(final_text, data, final)
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


def _nonce(data: dict[str, Any], index: int, what: str) -> str:
    """Return the nonce of a post in table ``index + 1``'s channel (Discord keeps a nonce
    unique per bot, not per channel: each channel's post has its own)."""
    return f"m{data['id']}:t{index + 1}:{what}"


def _text(key: str, **params: Any) -> Callable[[Lang], str]:
    return lambda lang: t(lang, key, **params)


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
        sides = TEAMS if data["format"] == "team" else SIDES
        group: list[SeatResult] = []
        for side, seats in sides.items():
            for table, seat in seats:
                group.append(entry(len(group), table, seat, result[side]))
        groups.append(group)
    else:
        for direction, hands in DIRECTIONS:
            group = []
            for pair, total in result[direction].items():
                for seat in hands:
                    group.append(entry(len(group), int(pair), seat, total))
            groups.append(group)
    return groups


# --- the commands -----------------------------------------------------------------------
