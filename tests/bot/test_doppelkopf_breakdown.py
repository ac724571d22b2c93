"""Doppelkopf's end-of-game breakdown: each party's line adds up, step by step, to the score
its players got — the other party's items taken off, house doublings and a soloist's three
times shown — and a repeated item is counted, not listed again. Checked on the rules' worked
examples and on many random finished games of both presets."""

from __future__ import annotations

import random
import re

import pytest

from bot.game import SeatInfo
from bot.games.doppelkopf import render
from bot.i18n import Lang
from engine.doppelkopf import DoppelkopfOptions, GameResult, PlayedGame, new_game
from engine.doppelkopf.players.random import RandomPlayer
from engine.doppelkopf.scoring import Facts, score

SEATS = {s: SeatInfo(name, 100 + s) for s, name in enumerate(["Ann", "Ben", "Cy", "Di", "Ed"])}
PARTY = {"en": {"Re": "re", "Contra": "contra"}, "de": {"Re": "re", "Kontra": "contra"}}


def result(preset: str, facts: Facts, game: str = "normal") -> GameResult:
    """Return a scored game of four: Ann (and Ben, unless a solo) Re, the others Contra."""
    solo = game != "normal"
    winner, items, value = score(preset, facts, normal=not solo)
    re_seats, contra_seats = ((0,), (1, 2, 3)) if solo else ((0, 1), (2, 3))
    scores = tuple((3 * value if solo else value) if s in re_seats else -value for s in range(4))
    points = (facts.points["re"], facts.points["contra"])
    return GameResult(1, 3, game, re_seats, contra_seats, points, winner, tuple(items), scores)


def facts(re: int, re_said: tuple[str, ...] = (), contra_said: tuple[str, ...] = (),
          extras: tuple[tuple[str, str, int], ...] = ()) -> Facts:  # fmt: skip
    return Facts(
        {"re": re, "contra": 240 - re},
        {"re": 6, "contra": 6},
        {"re": re_said, "contra": contra_said},
        extras,
    )


def breakdown(
    game: GameResult, preset: str, lang: Lang = "en", played: PlayedGame | None = None
) -> list[str]:
    """Return the score lines of the game's public post (``Re: … = +4``)."""
    played = played or PlayedGame(((),) * len(game.scores), ())
    totals = list(game.scores)
    shown = render.end_message(1, game, played, totals, SEATS, preset, lang=lang)
    starts = tuple(f"{name}: " for name in PARTY[lang])
    text = str(shown.embeds[0].description)
    return [line for line in text.split("\n") if line.startswith(starts) and " = " in line]


FOX_CHARLIE = (("re", "doppelkopf", 1), ("contra", "fox", 1), ("contra", "charlie", 1))
TWO_FOXES = (("contra", "fox", 1), ("contra", "fox", 1))

WORKED = [
    # H6: Re; Contra 87; Re a Doppelkopf; Contra a fox and Charlie → Re +4, not 6 and 2
    ("H6", "house", facts(153, ("re",), extras=FOX_CHARLIE), "normal", [
        "Re: won 1, below 90 1, Doppelkopf 1 = 3; × 2 (Re) = 6; − Contra's 2 = +4",
        "Contra: fox 1, Charlie 1 = 2; − Re's 6 = -4",
    ]),
    # H5: Re + No 90 vs Contra; Re takes 88 → Contra +20: both doublings, one step each
    ("H5", "house", facts(88, ("re", "no90"), ("contra",)), "normal", [
        "Contra: won 1, against the club queens 1, below 90 1, failed No 90 2 = 5; "
        "× 2 (Re) = 10; × 2 (Contra) = +20",
    ]),
    # H7: jacks solo, Re announced → soloist +6
    ("H7", "house", facts(130, ("re",)), "solo:jacks", [
        "Re: won 1 = 1; × 2 (Re) = 2; × 3 (soloist) = +6",
    ]),
    # H6 with two foxes caught: counted, not listed twice
    ("H6'", "house", facts(153, ("re",), extras=TWO_FOXES), "normal", [
        "Re: won 1, below 90 1 = 2; × 2 (Re) = 4; − Contra's 2 = +2",
        "Contra: fox × 2 = 2; − Re's 4 = -2",
    ]),
    # T6: Re wins 131 : 109, Contra a fox, a Doppelkopf and Charlie → R = −2
    ("T6", "tournament", facts(131, extras=(("contra", "fox", 1), ("contra", "doppelkopf", 1),
                                             ("contra", "charlie", 1))), "normal", [
        "Re: won 1 = 1; − Contra's 3 = -2",
        "Contra: fox 1, Doppelkopf 1, Charlie 1 = 3; − Re's 1 = +2",
    ]),
]  # fmt: skip


@pytest.mark.parametrize(
    ("name", "preset", "given", "game", "lines"), WORKED, ids=[w[0] for w in WORKED]
)
def test_the_rules_worked_examples_read_as_their_arithmetic(
    name: str, preset: str, given: Facts, game: str, lines: list[str]
) -> None:
    scored = result(preset, given, game)
    assert breakdown(scored, preset) == lines
    check(breakdown(scored, preset), scored, "en")


def test_german_breakdown() -> None:
    scored = result("house", facts(153, ("re",), extras=FOX_CHARLIE))
    assert breakdown(scored, "house", "de") == [
        "Re: gewonnen 1, unter 90 1, Doppelkopf 1 = 3; × 2 (Re) = 6; − 2 von Kontra = +4",
        "Kontra: Fuchs 1, Karlchen 1 = 2; − 6 von Re = -4",
    ]


_COUNTED = re.compile(r"(?P<word>.+) × (?P<n>\d+)")  # n one-point items: "fox × 2"
_ITEM = re.compile(r"(?P<word>.+) (?P<value>\d+)")
_MINUS = {"en": re.compile(r"− (\w+)'s (\d+)"), "de": re.compile(r"− (\d+) von (\w+)")}


def check(lines: list[str], game: GameResult, lang: Lang) -> None:
    """Recompute every step of every party line and check each ends at its players' score."""
    solo = len(game.re) == 1
    finals: dict[str, int] = {}
    before_minus: dict[str, int] = {}
    taken: dict[str, int] = {}
    for line in lines:
        name, _, rest = line.partition(": ")
        party = PARTY[lang][name]
        assert party not in finals, f"two lines for {name}: {lines}"
        first, *steps = rest.split("; ")
        items, _, total = first.rpartition(" = ")
        words = []
        running = 0
        for item in items.split(", "):
            counted = _COUNTED.fullmatch(item)
            found = counted or _ITEM.fullmatch(item)
            assert found, item
            words.append(found["word"])
            running += int(counted["n"]) if counted else int(found["value"])
        assert len(words) == len(set(words)), f"an item listed twice: {line}"
        assert running == int(total), line
        before_minus[party] = running
        for step in steps:
            said, _, total = step.rpartition(" = ")
            minus = _MINUS[lang].fullmatch(said)
            if said.startswith("× 2 ("):
                running *= 2
                before_minus[party] = running
            elif said.startswith("× 3 ("):
                assert solo and party == "re", line
                running *= 3
            elif minus:
                value = int(minus[2] if lang == "en" else minus[1])
                taken[party] = value
                running -= value
            else:
                raise AssertionError(f"a step that says nothing known: {step!r} in {line}")
            assert running == int(total), line
        assert re.fullmatch(r"[+-]\d+", total), f"the final score has a sign: {line}"
        finals[party] = running
    # what a line takes off is exactly the other party's line before its own take-off
    for party, value in taken.items():
        other = "contra" if party == "re" else "re"
        assert value == before_minus.get(other), lines
    if "re" in finals:
        r = finals["re"] // 3 if solo else finals["re"]
    elif "contra" in finals:
        r = -finals["contra"]
    else:
        r = 0
    for seat in game.re:
        assert game.scores[seat] == (3 * r if solo else r), (lines, game)
    for seat in game.contra:
        assert game.scores[seat] == -r, (lines, game)
    if "contra" in finals:
        assert finals["contra"] == -r, lines


TABLES = [("tournament", 4, seed) for seed in range(12)] + [
    ("house", players, seed) for players in (4, 5) for seed in range(12)
]


@pytest.mark.parametrize(("preset", "players", "seed"), TABLES)
def test_every_breakdown_line_adds_up_to_its_score_in_random_games(
    preset: str, players: int, seed: int
) -> None:
    options = DoppelkopfOptions(preset=preset, players=players)
    state = new_game(seed, options)
    seated = {s: RandomPlayer(seed * 10 + s) for s in range(players)}
    healthy = random.Random(seed)
    while not state.is_over:
        seat = state.to_act[0]
        view = state.view(seat)
        said = [a for a in view.legal if a.kind in ("healthy", "no-reservation")]
        # mostly healthy: uniform choices among a dozen solos would leave few normal games
        if said and healthy.random() < 0.8:
            state.apply(seat, said[0])
        else:
            state.apply(seat, seated[seat].act(view))
    assert state.game_results
    for number, game in enumerate(state.game_results, start=1):
        for lang in ("en", "de"):
            check(breakdown(game, preset, lang, state.played_games[number - 1]), game, lang)
