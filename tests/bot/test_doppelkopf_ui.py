"""Doppelkopf's messages and controls, from views: a poverty's choice of cards step by step,
forged and stale controls refused with a reason, reservations kept private on the public
table, and the German table in the game's own words."""

from __future__ import annotations

import pytest

from bot import ids
from bot.game import SeatInfo, Step, TableInfo
from bot.games.doppelkopf.ui import UI
from bot.tables import StaleError, UserError
from engine.doppelkopf import DoppelkopfOptions, parse_action
from engine.doppelkopf.rules import DoppelkopfState
from tests.engine.test_doppelkopf import deal

W, N, E, S = 0, 1, 2, 3
SEATS = {s: SeatInfo(name, 100 + s) for s, name in enumerate(["wes", "nora", "ed", "sam"])}


def info(options: DoppelkopfOptions) -> TableInfo:
    return TableInfo(game_id=9, host_id=100, seats=SEATS, game_options=options)


def controls(state: DoppelkopfState, seat: int, pending: str = "") -> dict[str, tuple[str, bool]]:
    """Return the seat's controls: payload → (label, enabled)."""
    shown = UI.hand_message(
        info(state.options), state.view(seat), state.turn, "en", pending=pending
    )
    found = {}
    for row in shown.buttons().to_components():  # as sent to Discord
        for button in row["components"]:
            parsed = ids.parse(button.get("custom_id", ""))
            if isinstance(parsed, ids.Control):
                found[parsed.payload] = (button["label"], not button.get("disabled", False))
    return found


def poverty_table() -> DoppelkopfState:
    """House: W (two trumps) names Poverty and must add one side card to its trumps."""
    state = deal(DoppelkopfOptions(preset="house"), {W: "JD 9D TS TS 9S KH AH TC 9C KC AC AS"})
    for seat in (N, E, S):
        state.apply(seat, parse_action("no-reservation"))
    state.apply(W, parse_action("reservation"))
    state.apply(W, parse_action("poverty"))
    assert state.phase == "poverty-offer"
    return state


def test_a_poverty_is_offered_and_returned_card_by_card() -> None:
    state = poverty_table()
    view = state.view(W)
    first = controls(state, W)
    # the trumps go anyway: one button per side card, the confirmation disabled
    assert "sJD" not in first and "sTS" in first and "sAS" in first
    give = [p for p in first if p.startswith("=poverty")]
    assert len(give) == 1 and not first[give[0]][1]
    assert UI.control(view, "sAS") == Step("AS")
    chosen = controls(state, W, pending="AS")
    (confirm,) = [p for p, (_, on) in chosen.items() if p.startswith("=poverty") and on]
    action = UI.control(view, confirm)
    assert str(action) == "poverty:9D,JD,AS"
    state.apply(W, action)
    state.apply(N, parse_action("decline"))
    state.apply(E, parse_action("accept"))
    assert state.phase == "poverty-return" and len(state.hand(E)) == 15
    pending = ""
    for _ in range(3):
        options = controls(state, E, pending)
        step = next(
            p for p, (label, on) in options.items() if p.startswith("s") and "✓" not in label
        )
        pending = UI.control(state.view(E), step).pending  # type: ignore[union-attr]
    options = controls(state, E, pending)
    (back,) = [p for p, (_, on) in options.items() if p.startswith("=return") and on]
    state.apply(E, UI.control(state.view(E), back))
    assert state.game == "poverty" and len(state.hand(W)) == len(state.hand(E)) == 12


def test_forged_and_stale_controls_are_refused_with_a_reason() -> None:
    state = poverty_table()
    view = state.view(W)
    with pytest.raises(UserError):
        UI.control(view, "xyz")  # no such control
    with pytest.raises(UserError):
        UI.control(view, "=not-an-action")
    with pytest.raises(StaleError):
        UI.control(view, "=QC")  # a card, in the poverty's offer
    with pytest.raises(StaleError):
        UI.control(view, "sQC")  # a card W does not hold
    with pytest.raises(UserError):
        UI.control(view, "=poverty.")
    with pytest.raises(StaleError):
        UI.control(state.view(N), "sAS")  # nobody asked N for cards


def test_the_table_hears_only_healthy_or_reservation() -> None:
    state = deal(DoppelkopfOptions(), {N: "QC QC QS QS QH QH QD QD JC JC AS AH"})
    state.apply(N, parse_action("solo:queens"))
    public = UI.table_message(info(state.options), state.public_view(), "en")
    text = public.embeds[0].description or ""
    assert "nora reservation" in text
    assert "queens" not in text.lower() and "solo" not in text.lower()
    own = UI.hand_message(info(state.options), state.view(N), state.turn, "en")
    assert "You chose: Queens solo." in (own.content or "")
    other = UI.hand_message(info(state.options), state.view(E), state.turn, "en")
    assert "Queens" not in (other.content or "")


def test_the_german_table_speaks_doppelkopf() -> None:
    state = deal(DoppelkopfOptions(), {N: "QC TH TH QS QS QH QD JC JC JS AD AD"})
    for seat in (N, E, S, W):
        state.apply(seat, parse_action("healthy"))
    hand = UI.hand_message(info(state.options), state.view(N), state.turn, "de")
    assert "Du bist Re." in (hand.content or "")
    labels = {label for label, _ in controls(state, N).values()}
    assert "Re" in labels
    table = UI.table_message(info(state.options), state.public_view(), "de")
    assert table.embeds[0].title == "Doppelkopf — Spiel 1 von 4"
    text, picture = UI.rules("de", with_picture=True)
    assert "Trumpfreihenfolge" in text and picture is not None and picture()[:4] == b"\x89PNG"
