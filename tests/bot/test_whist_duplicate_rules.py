"""A duplicate match's rules as pure functions of its document (``bot.games.whist.
duplicate_rules.DuplicateRules``): what they return after each change, without Discord, the
store or the controller."""

from __future__ import annotations

import random
from typing import Any

from bot.games.whist.duplicate_plan import finished_trays, plan, scores
from bot.games.whist.duplicate_rules import RULES
from bot.games.whist.duplicate_texts import parts_of
from bot.matches import Close, Open, Rate, Say, Status
from engine.whist.duplicate_table import DuplicateOptions, DuplicateTable, new_table


def match(fmt: str, tables: int, trays: int) -> dict[str, Any]:
    return {
        "id": 9,
        "format": fmt,
        "seed": 5,
        "tables": tables,
        "trays": trays,
        "trump": None,
        "deadline": 1000.0,
        "level": "random",
        "turn_seconds": 60,
        "pictures": False,
        "creator": 1,
        "channels": [100 + n for n in range(1, tables + 1)],
        "seating": [[[10 * n + s, f"p{n}{s}"] for s in range(4)] for n in range(1, tables + 1)],
        "round": 0,
        "plays": plan(fmt, tables, trays),
        "marks": {},
        "posted": [],
        "gone": [],
    }


def played(opened: Open, trays: int | None = None) -> DuplicateTable:
    """Return the table of ``opened`` with ``trays`` of its trays played (all: None)."""
    options = DuplicateOptions(**opened.options.game)
    state = new_table(opened.seed, options)
    rng = random.Random(opened.seed)
    while not state.is_over and (trays is None or len(state.tray_results) < trays):
        seat = state.to_act[0]
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    return state


def test_a_tray_is_posted_only_when_both_tables_have_finished_it() -> None:
    data = match("team", 2, 2)
    effects = RULES.start(data)
    assert effects[0] == Status("playing")
    opens = [e for e in effects if isinstance(e, Open)]
    assert [o.channel_id for o in opens] == [101, 102]
    assert opens[1].seats[0].user_id == 20 and opens[1].seats[1].user_id == 21
    for game_id, opened in enumerate(opens, start=1):
        assert RULES.opened(data, opened.key, game_id, played(opened, 0)) == []
    one = RULES.changed(data, 1, played(opens[0], 1), ended=False, stood_in=3)
    assert one == [] and data["plays"][0]["marked"]
    assert finished_trays(data, 10) == {1} and finished_trays(data, 20) == set()
    two = RULES.changed(data, 2, played(opens[1], 1), ended=False, stood_in=None)
    assert [(e.channel_id, e.nonce) for e in two if isinstance(e, Say)] == [
        (101, "m9:t1:tray1"),
        (102, "m9:t2:tray1"),
    ]
    assert "Tray 1: every table" in two[0].text("en") and "(a computer stood in)" in two[0].text(
        "en"
    )
    # Table 2's channel goes: its tray 2 scores the average, and the match ends.
    last = RULES.changed(data, 2, None, ended=True, stood_in=None)
    end = RULES.changed(data, 1, played(opens[0]), ended=False, stood_in=None)
    assert last == [] and end[-1] == Status("finished")
    assert any(isinstance(e, Rate) for e in end)
    assert data["standings"] == scores(data)


def test_a_member_who_left_marks_every_later_tray_of_the_table() -> None:
    data = match("team", 2, 3)
    opens = [e for e in RULES.start(data) if isinstance(e, Open)]
    for game_id, opened in enumerate(opens, start=1):
        RULES.opened(data, opened.key, game_id, played(opened, 0))
    # Table 1 finishes tray 1 with its members; one of them leaves in tray 2 (ply 60).
    RULES.changed(data, 1, played(opens[0], 1), ended=False, stood_in=None)
    RULES.changed(data, 1, played(opens[0], 1), ended=False, stood_in=None, left=60)
    RULES.changed(data, 1, played(opens[0]), ended=False, stood_in=None)
    RULES.changed(data, 2, played(opens[1]), ended=False, stood_in=None)
    table1 = sorted((p["index"], p["marked"]) for p in data["plays"] if p["game"] == 1)
    assert table1 == [(0, False), (1, True), (2, True)]
    assert not any(p["marked"] for p in data["plays"] if p["game"] == 2)


def test_a_mitchell_round_moves_the_east_west_pairs_and_the_sets() -> None:
    data = match("mitchell", 3, 1)
    opens = [e for e in RULES.start(data) if isinstance(e, Open)]
    assert [DuplicateOptions(**o.options.game).trays for o in opens] == [(1,), (2,), (3,)]
    for game_id, opened in enumerate(opens, start=1):
        RULES.opened(data, opened.key, game_id, None)
    effects: list[Any] = []
    for game_id, opened in enumerate(opens, start=1):
        effects = RULES.changed(data, game_id, played(opened), ended=False, stood_in=None)
    moved = [e for e in effects if isinstance(e, Open)]
    assert data["round"] == 2
    # Round 2: table t plays set t+1 with E-W pair t-1 (T -> 1); N-S pairs stay.
    assert [DuplicateOptions(**o.options.game).trays for o in moved] == [(2,), (3,), (1,)]
    assert [o.seats[1].user_id for o in moved] == [31, 11, 21]
    assert [o.seats[0].user_id for o in moved] == [10, 20, 30]
    announced = [e.text("en") for e in effects if isinstance(e, Say)]
    assert "Round 2 of 3, table 1** — N-S pair 1, E-W pair 3" in announced[0]


def test_the_deadline_scores_the_average_and_ends_the_match() -> None:
    data = match("mnemonic", 1, 2)
    data["trump"] = "S"
    (opened,) = [e for e in RULES.start(data) if isinstance(e, Open)]
    RULES.opened(data, opened.key, 1, None)
    state = played(opened, 1)
    effects = RULES.expired(data, {1: state})
    assert effects[-1] == Status("finished")
    # Tray 1's replay never happened: every tray scores 0 (the average).
    assert data["standings"]["ns"] == 0 and data["standings"]["winners"] == ["ns", "ew"]


def test_a_restart_finds_a_table_opened_but_not_recorded_and_opens_the_rest() -> None:
    data = match("mitchell", 3, 1)
    opens = [e for e in RULES.start(data) if isinstance(e, Open)]
    RULES.opened(data, opens[0].key, 1, None)
    # The bot stopped after opening table 2 and before recording it; table 3 never opened.
    live = {
        102: (2, dict(opens[1].options.game), played(opens[1], 0)),
        103: (9, {"match_seed": 4, "trays": [3]}, None),
    }
    effects = RULES.resume(data, {1: played(opens[0], 0)}, live)
    assert [p["game"] for p in data["plays"] if p["round"] == 1] == [1, 2, None]
    assert [e.key for e in effects if isinstance(e, Open)] == ["r1t3"]
    # A table closed without a result (its channel gone) scores the average on its tray.
    RULES.resume(data, {2: None}, {})
    assert data["plays"][1]["dead"] and not data["plays"][0]["dead"]


def test_a_cancelled_match_closes_its_tables_says_so_once_and_stays_cancelled() -> None:
    data = match("team", 2, 2)
    opens = [e for e in RULES.start(data) if isinstance(e, Open)]
    for game_id, opened in enumerate(opens, start=1):
        RULES.opened(data, opened.key, game_id, played(opened, 0))
    effects = RULES.cancel(data)
    assert [e for e in effects if isinstance(e, Close)] == [Close(1), Close(2)]
    says = [e for e in effects if isinstance(e, Say)]
    assert [(s.channel_id, s.nonce) for s in says] == [
        (101, "m9:t1:cancelled"),
        (102, "m9:t2:cancelled"),
    ]
    assert "was cancelled" in says[0].text("en") and "abgebrochen" in says[0].text("de")
    assert effects[-1] == Status("closed") and not any(isinstance(e, Rate) for e in effects)
    # A table that changes meanwhile records nothing; a restart or the deadline finishes
    # the cancellation a crash cut short.
    assert RULES.changed(data, 1, played(opens[0], 1), ended=False, stood_in=None) == []
    assert not any(p["done"] for p in data["plays"])

    def shown(effects: list[Any]) -> list[Any]:
        return [(e.channel_id, e.nonce) if isinstance(e, Say) else e for e in effects]

    assert shown(RULES.resume(data, {1: played(opens[0], 1), 2: None}, {})) == shown(effects)
    assert shown(RULES.expired(data, {})) == shown(effects)


def test_parts_keep_blocks_whole_and_repeat_a_long_blocks_heading() -> None:
    title, short = ["**Match**"], ["**Tray 1**", "a" * 50]
    long = ["**Tray 2**"] + [f"{n:02d}" + "b" * 38 for n in range(60)]  # 2,470 characters
    parts = parts_of([title, short, long, ["total"]], limit=1000)
    assert parts[0] == "**Match**\n**Tray 1**\n" + "a" * 50
    assert all(len(p) <= 1000 for p in parts) and len(parts) == 4
    assert all(p.startswith("**Tray 2**\n") for p in parts[1:4])
    lines = [line for p in parts[1:] for line in p.split("\n") if line != "**Tray 2**"]
    assert lines == [*long[1:], "total"]
    assert parts_of([["x" * 5000]], limit=2000) == ["x" * 2000]


def test_a_restart_records_a_table_found_over_and_not_one_of_another_round() -> None:
    data = match("mnemonic", 1, 2)
    data["trump"] = "S"
    (opened,) = [e for e in RULES.start(data) if isinstance(e, Open)]
    options = dict(opened.options.game)
    # Round 1's table, over as it opened, was not recorded: found again, and recorded.
    effects = RULES.resume(data, {}, {101: (4, options, played(opened))})
    assert [(p["game"], p["done"]) for p in data["plays"] if p["round"] == 1] == [(4, True)] * 2
    (replay,) = [e for e in effects if isinstance(e, Open)]
    assert replay.key == "r2t1"
    # Round 2's (turned) table is not taken for round 1's.
    again = match("mnemonic", 1, 2)
    again["trump"] = "S"
    RULES.start(again)
    RULES.resume(again, {}, {101: (5, dict(replay.options.game), None)})
    assert all(p["game"] is None for p in again["plays"])


def test_a_match_tables_message_warns_of_a_members_running_time() -> None:
    """As every table does: the member whose turn time is running out is named, until the
    table is over."""
    from bot.game import SeatInfo, TableInfo
    from bot.games.whist.duplicate import UI

    opened = next(e for e in RULES.start(match("team", 2, 1)) if isinstance(e, Open))
    state = played(opened, 0)
    seats = {s: SeatInfo(name=f"p{s}", user_id=10 + s if s == 0 else None) for s in range(4)}
    info = TableInfo(
        game_id=1,
        host_id=1,
        seats=seats,
        game_options=state.options,
        warned=(0,),
        deadline=1234.0,
    )
    shown = UI.table_message(info, state.public_view(), "en")
    text = shown.embeds[0].description or ""
    assert "p0" in text and "<t:1234:R>" in text
    calm = UI.table_message(
        TableInfo(game_id=1, host_id=1, seats=seats, game_options=state.options),
        state.public_view(),
        "en",
    )
    assert "<t:1234" not in (calm.embeds[0].description or "")
