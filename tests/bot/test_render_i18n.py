"""Every message ``bot/render.py`` and Dupe's bot package write reads in German when asked:
no English sentence slips through, custom ids do not change with the language, and
Discord's limits hold."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import discord
import pytest

from bot import i18n, render
from bot.controls import Button, Controls
from bot.game import Rendered, SeatInfo, TableInfo
from bot.games.dupe import render as dupe_render
from bot.games.dupe import words
from bot.games.dupe.replay import replay_steps
from bot.games.dupe.ui import UI as DUPE
from bot.i18n import Lang
from bot.ratings import Rating
from bot.store import FinishedGame, GameRecord, LeaderboardRow, PlayerStats, SeatRecord
from engine.cards import Card, Rank, Suit
from engine.dupe import (
    SEAT_LETTERS,
    DupeOptions,
    DupeState,
    Phase,
    TrickRecord,
    new_game,
    score_hand,
)
from tests.bot.i18n_scan import english_in, english_pieces

SEATS = {
    0: SeatInfo("Ada", user_id=101),
    1: SeatInfo("greedy", level="greedy"),
    2: SeatInfo("Grace", user_id=103),
    3: SeatInfo("expert", level="expert"),
}


def _table(**changes: Any) -> TableInfo:
    fields: dict[str, Any] = {
        "game_id": 7,
        "host_id": 101,
        "memory": "strict",
        "turn_seconds": 60,
        "level": "greedy",
        "seats": dict(SEATS),
    }
    fields.update(changes)
    fields["game_options"] = DupeOptions(memory=fields.pop("memory"))
    return TableInfo(**fields)


class Messages:
    """Every message writer of the shared render module and of Dupe's bot package."""

    rating_text = staticmethod(render.rating_text)
    history_page = staticmethod(render.history_page)
    leaderboard_page = staticmethod(render.leaderboard_page)

    @staticmethod
    def lobby_message(info: TableInfo, lang: Lang = "en") -> Rendered:
        return render.lobby_message(DUPE, info, 4, lang=lang)

    @staticmethod
    def table_message(info: TableInfo, view: Any, lang: Lang = "en") -> Rendered:
        return DUPE.table_message(info, view, lang)

    @staticmethod
    def hand_message(
        game_id: int,
        view: Any,
        seats: dict[int, SeatInfo],
        notice: str | None = None,
        assignment: str = "",
        pictures: bool = False,
        lang: Lang = "en",
    ) -> Rendered:
        info = _table(game_id=game_id, seats=dict(seats), pictures=pictures)
        return DUPE.hand_message(info, view, 0, lang, pending=assignment, notice=notice)

    @staticmethod
    def final_standings(
        totals: Any, winners: Any, seats: Any, game_id: int | None = None, lang: Lang = "en"
    ) -> Rendered:
        return render.final_standings(DUPE, totals, winners, seats, game_id, lang=lang)

    @staticmethod
    def deal_scoring(result: Any, seats: Any, lang: Lang = "en") -> Rendered:
        return dupe_render.deal_scoring(result, seats, lang=lang)

    @staticmethod
    def replay_step(game_id: int, steps: Any, index: int, seats: Any, lang: Lang = "en") -> Any:
        return DUPE.replay_page(game_id, steps, index, seats, lang)

    @staticmethod
    def player_stats(name: str, stats: Any, game: str = "dupe", lang: Lang = "en") -> Any:
        return render.player_stats(DUPE, name, stats, lang=lang)

    @staticmethod
    def defaults_text(options: dict[str, Any], changed: bool, lang: Lang = "en") -> str:
        memory = options.get("memory", "strict")
        return render.defaults_text(DUPE, options, DupeOptions(memory), changed, lang=lang)

    @staticmethod
    def rules_text(lang: Lang = "en") -> str:
        return dupe_render.rules_text(lang=lang)


def _act(state: DupeState, rng: random.Random) -> None:
    """Make one decision for the first seat that has one."""
    seat = next(s for s in range(4) if state.legal_actions(s))
    state.apply(seat, rng.choice(state.legal_actions(seat)))


def _moments(memory: str = "strict", seed: int = 11) -> Iterator[DupeState]:
    """Yield copies of a game at moments worth showing: before and during the choices,
    while the taker distributes, after a trick, after scored deals, and at the end."""
    rng = random.Random(seed)
    state = new_game(seed, DupeOptions(memory=memory))  # type: ignore[arg-type]
    shown: set[tuple[Any, ...]] = set()
    while not state.is_over:
        view = state.public_view()
        kept = view.last_trick is not None and view.last_trick.taker is None
        moment = (view.phase, len(state.to_act), kept, view.deal > 1, view.trick == 1)
        if moment not in shown:
            shown.add(moment)
            yield state.clone()
        _act(state, rng)
    yield state


def _games(mod: Any, lang: dict[str, Lang]) -> Iterator[tuple[str, Any]]:
    """Yield the table and every hand at each moment of a strict and an open game."""
    for memory in ("strict", "open"):
        for n, state in enumerate(_moments(memory)):
            public = state.public_view()
            info = _table(memory=memory, warned=state.to_act[:2], deadline=1_800_000_000.5)
            yield f"table {memory} {n}", mod.table_message(info, public, **lang)
            for seat in range(4):
                view = state.view(seat)
                yield f"hand {memory} {n} {seat}", mod.hand_message(7, view, SEATS, **lang)
                if view.phase is Phase.DISTRIBUTE and view.taker == seat:
                    assert view.revealed is not None
                    for done in range(1, 5):
                        letters = "".join(SEAT_LETTERS[(seat + i) % 4] for i in range(done))
                        yield (
                            f"give {memory} {n} {letters}",
                            mod.hand_message(7, view, SEATS, None, letters, True, **lang),
                        )
            if state.is_over and public.last_trick is not None:
                earlier = public._replace(last_trick=public.last_trick._replace(deal=3))
                yield f"table {memory} {n} last", mod.table_message(info, earlier, **lang)
                yield (
                    f"final {memory}",
                    mod.final_standings(state.totals, state.winners, SEATS, 7, **lang),
                )
                for result in state.results:
                    yield f"scoring {memory} {result.deal}", mod.deal_scoring(result, SEATS, **lang)


def _finished() -> FinishedGame:
    record = GameRecord(
        id=42,
        game="dupe",
        guild_id=9,
        channel_id=99,
        host_id=101,
        seed=3,
        options={},
        status="over",
        message_id=None,
        deadline=None,
        warned=False,
        created_at=1_700_000_000.0,
        seats={
            0: SeatRecord(0, 101, "Ada", None),
            1: SeatRecord(1, None, "greedy", "greedy"),
            2: SeatRecord(2, 103, "Grace", None),
            3: SeatRecord(3, None, "expert", "expert"),
        },
    )
    results = {0: (80, 0.5), 1: (40, 0.0), 2: (80, 0.5), 3: (20, 0.0)}
    return FinishedGame(record=record, ended_at=1_700_003_600.0, results=results)


def scenarios(mod: Any, **lang: Lang) -> list[tuple[str, Any]]:
    """Return every message ``mod`` (:class:`Messages`) writes for a range of realistic
    inputs, in ``lang`` (nothing: the default)."""
    out: list[tuple[str, Any]] = []
    for level in ("greedy", None):
        for seating in ("join", "random"):
            for seconds in (30, 120, 150, 3600):
                info = _table(
                    level=level,
                    seating=seating,
                    turn_seconds=seconds,
                    pictures=seconds != 30,
                    seats={0: SEATS[0]} if seconds == 30 else dict(SEATS),
                )
                out.append((f"lobby {level} {seating} {seconds}", mod.lobby_message(info, **lang)))
    rematch = _table(
        rematch_of=41, seats={0: SEATS[0], 1: SEATS[1]}, invited=[(2, 103, "Gr*ace"), (0, 1, "x")]
    )
    out.append(("rematch", mod.lobby_message(rematch, **lang)))
    out.extend(_games(mod, lang))
    notice = "A notice written by the caller."
    state = new_game(5)
    out.append(("notice", mod.hand_message(7, state.view(0), SEATS, notice, "", True, **lang)))
    out.append(("tie", mod.final_standings([50, 50, 10, 0], [0, 1], SEATS, None, **lang)))
    out.append(("tie unseated", mod.final_standings([5, 50, 50, 0], [1, 2], {}, 3, **lang)))
    steps = replay_steps(4, DupeOptions(), [str(m) for m in _played_moves(4)])
    kept = TrickRecord(1, 3, tuple(Card(Rank.FIVE, s) for s in Suit), None, ())
    kept = kept._replace(received=kept.cards)
    steps.insert(2, kept)
    for index in range(len(steps)):
        out.append((f"replay {index}", mod.replay_step(42, steps, index, SEATS, **lang)))
    rows = [
        LeaderboardRow(101, 1, 1.0, 1, rating=Rating(27.25, 2.5)),
        LeaderboardRow(None, 12, 2.5, 800, level="greedy", rating=Rating(21.0, 1.5)),
        LeaderboardRow(103, 3, 0.5, 120),
    ]
    for sort in ("rating", "wins", "points"):
        page = mod.leaderboard_page(
            rows, game="dupe", sort=sort, page=0, pages=2, first_place=1, viewer_id=103, **lang
        )
        out.append((f"leaderboard {sort}", page))
    empty = mod.leaderboard_page(
        [], game="dupe", sort="wins", page=0, pages=1, first_place=1, viewer_id=1, **lang
    )
    out.append(("leaderboard empty", empty))
    out.append(("rating none", mod.rating_text(None, **lang)))
    out.append(("rating", mod.rating_text(Rating(25.0, 8.333), **lang)))
    stats = PlayerStats(3, 1.5, 61.333, 90, 40, 2, Rating(27.5, 2.0))
    out.append(("stats", mod.player_stats("Ada", stats, **lang)))
    unrated = PlayerStats(1, 1.0, 12.0, 12, None, 0, None)
    out.append(("stats unrated", mod.player_stats("Ada", unrated, "dupe", **lang)))
    out.append(("stats none", mod.player_stats("Ada", None, **lang)))
    out.append(("history", mod.history_page([_finished(), _finished()], 9, **lang)))
    out.append(("history empty", mod.history_page([], 9, **lang)))
    for changed in (False, True):
        options: dict[str, Any] = {"memory": "open", "turn_seconds": 300, "level": "expert"}
        out.append((f"defaults {changed}", mod.defaults_text(options, changed, **lang)))
        options = {"seating": "random", "pictures": False}
        out.append((f"defaults plain {changed}", mod.defaults_text(options, changed, **lang)))
    out.append(("rules", mod.rules_text(**lang)))
    return out


def _played_moves(seed: int) -> list[Any]:
    rng = random.Random(seed)
    state = new_game(seed)
    while not state.is_over:
        _act(state, rng)
    return list(state.moves)


# --------------------------------------------------------------------------------------
# Reading what a message shows


def _texts(output: Any) -> list[str]:
    """Return every text a member can read in a rendered message, embed or string."""
    if isinstance(output, str):
        return [output]
    if isinstance(output, discord.Embed):
        embeds, content, view = [output], None, None
    else:
        assert isinstance(output, Rendered)
        embeds, content, view = output.embeds, output.content, output.view
    texts = [content] if content else []
    for embed in embeds:
        texts += [embed.title or "", embed.description or "", embed.footer.text or ""]
        for item in embed.fields:
            texts += [item.name or "", item.value or ""]
    texts += [button.label or "" for button in _buttons(view)]
    return [text for text in texts if text]


def _buttons(view: Controls | None) -> list[Button]:
    if view is None:
        return []
    return [item for item in view.children if isinstance(item, Button)]


def _custom_ids(output: Any) -> list[str | None]:
    if not isinstance(output, Rendered):
        return []
    return [button.custom_id for button in _buttons(output.view)]


@pytest.fixture(scope="module")
def english() -> list[tuple[str, Any]]:
    return scenarios(Messages, lang="en")


@pytest.fixture(scope="module")
def german() -> list[tuple[str, Any]]:
    return scenarios(Messages, lang="de")


# --------------------------------------------------------------------------------------
# Tests


def test_the_scenarios_cover_every_kind_of_message(english: list[tuple[str, Any]]) -> None:
    names = " ".join(name for name, _ in english)
    for kind in ("lobby", "rematch", "table", "hand", "give", "final", "scoring", "replay"):
        assert kind in names
    contents = "\n".join(text for _, output in english for text in _texts(output))
    for sentence in (
        "No single highest or lowest card",  # a trick nobody takes
        "took it and gave",
        "takes the trick and is giving one card",
        "**You take the trick.**",
        "Who gets",
        "Confirm this distribution?",
        "So far:",
        "Your won cards:",
        "You chose",
        "The game is over.",
        "time is nearly up",
        "share the win!",
        "is your dupe",
        "you are your own dupe",
        "**Last trick:**",
        "waiting for Gr\\*ace to press Rematch",
    ):
        assert sentence in contents, sentence


def test_the_default_language_is_english(english: list[tuple[str, Any]]) -> None:
    default = scenarios(Messages)
    assert [(n, _texts(o), _custom_ids(o)) for n, o in default] == [
        (n, _texts(o), _custom_ids(o)) for n, o in english
    ]


def test_no_english_sentence_reaches_a_german_message(german: list[tuple[str, Any]]) -> None:
    pieces = english_pieces()
    assert "No finished games in this server yet." in pieces
    leaks = [
        (name, piece)
        for name, output in german
        for text in _texts(output)
        for piece, _ in english_in([text])
    ]
    assert leaks == []


def test_german_messages_use_the_glossary(german: list[tuple[str, Any]]) -> None:
    by_name = {name: "\n".join(_texts(output)) for name, output in german}
    assert "Runde 1 von 4 · Stich 1 von 13" in by_name["table strict 0"]
    assert "Meine Hand" in by_name["table strict 0"]
    assert "Gedächtnisregel: streng · Zugzeit: 60 s" in by_name["table strict 0"]
    assert "Gedächtnisregel: offen" in by_name["table open 0"]
    assert "Deine Identitätskarte" in by_name["hand strict 0 0"]
    assert "Beitreten" in by_name["lobby greedy join 120"]
    assert "Zugzeit: 2,5 min" in by_name["lobby greedy join 150"]
    assert "zufällige Sitzordnung" in by_name["lobby greedy random 120"]
    assert "Revanche für Spiel #41" in by_name["rematch"]
    assert "Dupe — Endstand" in by_name["final strict"]
    assert "teilen sich den Sieg!" in by_name["tie"]
    assert "Ada und 🤖 Computer 2 (greedy)" in by_name["tie"]
    assert "Dupe — Runde 1 ausgewertet" in by_name["scoring open 1"]
    assert "Wertung 19,8 (27,2 ± 7,5)" in by_name["leaderboard rating"]
    assert "1 Spiel · 1 Sieg" in by_name["leaderboard rating"]
    assert "12 Spiele · 2,5 Siege" in by_name["leaderboard rating"]
    assert "Dupe-Rangliste" in by_name["leaderboard wins"]
    assert "1,5 (50\u00a0%)" in by_name["stats"]
    assert "61,3" in by_name["stats"]
    assert "Lieblingsplatz\nSüd" in by_name["stats"]
    assert "ohne Wertung" in by_name["stats unrated"]
    assert "<@101> und <@103> mit 80" in by_name["history"]
    assert "Zugzeit: 300 s" in by_name["defaults True"]
    assert "(gespeichert)" in by_name["defaults True"]
    assert "Sitzordnung: zufällig" in by_name["defaults plain False"]
    assert "Nord ♠, Ost ♥, Süd ♣, West ♦" in by_name["rules"]
    tricks = [text for name, text in by_name.items() if name.startswith("replay")]
    assert any("Keine Karte ist allein die höchste" in text for text in tricks)
    # German seat letters in text: N O S W
    assert any("O " in text and " · S " in text for text in tricks)


def test_custom_ids_do_not_depend_on_the_language(
    english: list[tuple[str, Any]], german: list[tuple[str, Any]]
) -> None:
    assert [name for name, _ in english] == [name for name, _ in german]
    for (name, en), (_, de) in zip(english, german, strict=True):
        assert _custom_ids(en) == _custom_ids(de), name
    ids = [cid for _, output in german for cid in _custom_ids(output) if cid]
    assert any(":g" in cid and cid.endswith("E") for cid in ids)
    assert not any(cid.endswith("O") for cid in ids)


@pytest.mark.parametrize("lang", ["en", "de"])
def test_messages_keep_within_discords_limits(lang: Lang) -> None:
    for name, output in scenarios(Messages, lang=lang):
        if isinstance(output, str):
            assert len(output) <= 2000, name
            continue
        embeds = [output] if isinstance(output, discord.Embed) else output.embeds
        for embed in embeds:
            assert len(embed.title or "") <= 256, name
            assert len(embed.description or "") <= 4096, name
            assert len(embed.footer.text or "") <= 2048, name
            for item in embed.fields:
                assert len(item.name or "") <= 256 and len(item.value or "") <= 1024, name
        if isinstance(output, Rendered):
            assert len(output.content or "") <= 2000, name
            for button in _buttons(output.view):
                assert len(button.label or "") <= 80, name


def test_a_scores_breakdown_in_english_is_the_engines() -> None:
    rng = random.Random(1)
    deck = [Card(rank, suit) for rank in Rank for suit in Suit]
    for _ in range(300):
        hand = rng.sample(deck, rng.randint(1, 20))
        score = score_hand(hand)
        assert words.score_text(score) == str(score)
    kings = [Card(Rank.KING, suit) for suit in Suit]
    fours = score_hand([*kings, Card(Rank.TWO, Suit.CLUBS)])
    assert words.score_text(fours, "de") == "2♣ × 1 (keine Folge) + 8 (vier K) = 10"
    threes = score_hand([*kings[:3], Card(Rank.FIVE, Suit.CLUBS)])
    assert "(drei K)" in words.score_text(threes, "de")


def test_numbers_in_german_have_a_decimal_comma() -> None:
    assert i18n.decimal("en", 12.345) == "12.3"
    assert i18n.decimal("de", 12.345) == "12,3"
    assert i18n.decimal("de", 2.5, None) == "2,5"
    assert i18n.decimal("de", 3.0, None) == "3"
    assert i18n.decimal("en", -0.25, 2) == "-0.25"
    assert i18n.percent("en", 0.5) == "50%"
    assert i18n.percent("de", 0.5) == "50\u00a0%"
