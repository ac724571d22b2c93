"""Whist's words as members read them: names listed as a sentence lists them, honours in
Humbug's dead hands never placed, and a duplicate hand that speaks of trays only."""

from __future__ import annotations

import random
import re

import pytest

from bot.game import SeatInfo, TableInfo
from bot.games.whist.duplicate import UI as DUPLICATE_UI
from bot.games.whist.ui import UI
from bot.i18n import Lang, and_list
from engine.whist import NORTH, SOUTH, Kind, Phase, WhistOptions, WhistState, new_game
from engine.whist.duplicate_table import DuplicateOptions, new_table

SEATS = {0: SeatInfo("Ann", 100), 1: SeatInfo("Ben", 101)}


def test_names_are_listed_as_a_sentence_lists_them() -> None:
    assert and_list("en", []) == ""
    assert and_list("en", ["Ann"]) == "Ann"
    assert and_list("en", ["Ann", "Ben"]) == "Ann and Ben"
    assert and_list("en", ["Ann", "Ben", "Cy"]) == "Ann, Ben and Cy"
    assert and_list("de", ["Ann", "Ben", "Cy"]) == "Ann, Ben und Cy"


def _table(state: WhistState, lang: Lang) -> str:
    info = TableInfo(game_id=1, host_id=100, seats=SEATS, game_options=state.options)
    shown = UI.table_message(info, state.public_view(), lang)
    return str(shown.embeds[0].description)


@pytest.mark.parametrize(
    ("lang", "both", "one_each"),
    [
        ("en", "Ann and Ben are choosing", "Ann has chosen; Ben is choosing"),
        ("de", "Ann und Ben wählen noch", "Ann hat gewählt; Ben wählt noch"),
    ],
)
def test_humbugs_waiting_players_are_named_in_a_sentence(
    lang: Lang, both: str, one_each: str
) -> None:
    state = new_game(1, WhistOptions(variant="humbug"))
    assert state.phase is Phase.EXCHANGE and set(state.to_act) == {NORTH, SOUTH}
    text = _table(state, lang)
    assert both in text and "Ann, Ben" not in text.split("\n\n")[2]
    keep = next(a for a in state.legal_actions(NORTH) if a.kind is Kind.KEEP)
    state.apply(NORTH, keep)
    assert one_each in _table(state, lang)


def _humbug_deal_with_a_dead_honour() -> tuple[WhistState, tuple[int | None, ...]]:
    """Return a Humbug table whose first deal is scored with an honour in a dead hand."""
    for seed in range(1, 50):
        state = new_game(seed, WhistOptions(variant="humbug"))
        rng = random.Random(seed)
        while not state.results:
            hand = state.to_act[0]
            state.apply(hand, rng.choice(state.legal_actions(hand)))
        holders = state.honour_holders[0]
        if None in holders and any(h is not None for h in holders):
            return state, holders
    raise AssertionError("no seed puts an honour in a dead hand")


@pytest.mark.parametrize(("lang", "title", "dead", "places"), [
    ("en", "Honours held: ", ("(dead hand)", "(dead hands)"), ("East", "West")),
    ("de", "Honneurs hielten: ", ("(tote Hand)", "(tote Hände)"), ("Ost", "West")),
])  # fmt: skip
def test_honours_in_the_dead_hands_are_said_to_be_there_but_never_placed(
    lang: Lang, title: str, dead: tuple[str, str], places: tuple[str, str]
) -> None:
    state, holders = _humbug_deal_with_a_dead_honour()
    info = TableInfo(game_id=1, host_id=100, seats=SEATS, game_options=state.options)
    post = UI.post(info, state, "deal1", [], lang)
    text = str(post.message.embeds[0].description)
    held = next(line for line in text.split("\n") if line.startswith(title))
    groups = re.findall(r"((?:[AKQJ][♠♥♦♣] ?)+): ([^,]+)", held.removeprefix(title))
    said = {card: who for cards, who in groups for card in cards.split()}
    assert len(said) == 4, held
    for rank, holder in zip("AKQJ", holders, strict=True):
        who = next(w for c, w in said.items() if c.startswith(rank))
        if holder is None:
            assert who in dead, held
        else:
            assert who.endswith(("(Ann)", "(Ben)")), held
    assert "—" not in held and not any(place in held for place in places), held


def _duplicate_hand(lang: Lang) -> tuple[str, str]:
    options = DuplicateOptions(match_seed=41, trays=(3, 1))
    state = new_table(5, options)
    seats = {s: SeatInfo(name, 100 + s) for s, name in enumerate(["Ann", "Ben", "Cy", "Di"])}
    info = TableInfo(game_id=1, host_id=100, seats=seats, game_options=options)
    seat = state.to_act[0]
    hand = DUPLICATE_UI.hand_message(info, state.view(seat), state.turn, lang)
    table = DUPLICATE_UI.table_message(info, state.public_view(), lang)
    return str(hand.content), str(table.embeds[0].description)


def test_a_duplicate_hand_speaks_of_its_tray_only() -> None:
    hand, table = _duplicate_hand("en")
    assert re.search(r"^\*\*Your hand — \w+ \(\w+\), tray 3 \(1 of 2\)\*\*$", hand, re.M), hand
    assert not re.search(r"\bdeal\b", hand, re.I) and "Tray" not in hand
    assert "Tricks this tray" in table and not re.search(r"\bdeal\b", table, re.I)
    hand, table = _duplicate_hand("de")
    assert re.search(r"^\*\*Deine Hand — \w+ \(\w+\), Board 3 \(1 von 2\)\*\*$", hand, re.M), hand
    assert not re.search(r"\bSpiel\b", hand) and "Stiche in diesem Board" in table
