"""What members read of a duplicate whist match (``docs/rules/whist.md`` §7): the posts
in the tables' channels (a round's seating, a tray's results, the final standings) and the
private answers of ``/whist duplicate status`` and ``results`` — values, built from the
match's document (:mod:`bot.games.whist.duplicate_plan`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import discord

from bot.game import computer_name, computers_name
from bot.games.whist.duplicate_plan import (
    DIRECTIONS,
    SIDES,
    TEAMS,
    finished_trays,
    rounds_of,
    scores,
    seated,
    table_plays,
)
from bot.i18n import Lang, seat_name, t

__all__ = [
    "final_text",
    "parts_of",
    "results_blocks",
    "results_text",
    "round_text",
    "status_text",
    "tray_post",
    "winners_text",
]


def round_text(data: dict[str, Any], play: dict[str, Any], lang: Lang) -> str:
    """Return the post opening a round at a table: its pairs and who holds each hand."""
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


def tray_post(data: dict[str, Any], tray: int, lang: Lang) -> str:
    """Return the post of a tray every table has finished: each play's result."""
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


def final_text(data: dict[str, Any], final: dict[str, Any], lang: Lang) -> str:
    """Return the post of the finished match: the final standings."""
    title = t(lang, "whist.dup_final_title", match=data["id"])
    return f"**{title}**\n" + _standing_text(data, final, lang)


# --- the commands' work ------------------------------------------------------------------


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
        plays = table_plays(data, rnd, table)
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


def _standing_text(data: dict[str, Any], result: dict[str, Any], lang: Lang) -> str:
    fmt = data["format"]
    lines = []
    if fmt in ("team", "mnemonic"):
        sides = TEAMS if fmt == "team" else SIDES
        for side, seats in sides.items():
            crown = " 🏆" if side in result["winners"] and len(result["winners"]) == 1 else ""
            label = t(lang, f"whist.dup_side_{side}")
            lines.append(f"{label} ({_names(data, seats, lang)}): **{result[side]:+d}**{crown}")
        if len(result["winners"]) == 2:
            lines.append(t(lang, "whist.dup_tie"))
        return "\n".join(lines)
    for direction, hands in DIRECTIONS:
        lines.append(t(lang, f"whist.dup_direction_{direction}"))
        totals = result[direction]
        for pair in sorted(totals, key=lambda p: (-totals[p], int(p))):
            crown = " 🏆" if int(pair) in result[f"{direction}_winners"] else ""
            who = _names(data, [(int(pair), s) for s in hands], lang)
            label = t(lang, "whist.dup_pair", n=pair)
            lines.append(f"{label} ({who}): **{_score_text(totals[pair])}**{crown}")
    return "\n".join(lines)


def winners_text(data: dict[str, Any], result: dict[str, Any], lang: Lang) -> str:
    """Return who won, in one line: the team or side with its score, or each direction's
    best pairs."""
    fmt = data["format"]
    if fmt in ("team", "mnemonic"):
        sides = TEAMS if fmt == "team" else SIDES
        parts = []
        for side in result["winners"]:
            label = t(lang, f"whist.dup_side_{side}")
            parts.append(f"{label} ({_names(data, sides[side], lang)}) {result[side]:+d}")
        return "🏆 " + " · ".join(parts)
    parts = []
    for direction, hands in DIRECTIONS:
        for pair in result[f"{direction}_winners"]:
            who = _names(data, [(int(pair), s) for s in hands], lang)
            total = _score_text(result[direction][str(pair)])
            parts.append(f"{t(lang, 'whist.dup_pair', n=pair)} ({who}) {total}")
    return "🏆 " + " · ".join(parts)


def _score_text(hundredths: int) -> str:
    return f"{hundredths / 100:+.2f}"
