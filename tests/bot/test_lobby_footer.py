"""A lobby's footer states the table's options truthfully: one statement of how the seats
are filled, and the one that is true (whist's random partners draw the seats whatever the
table's seating; a rematch keeps the old game's seats); a game that draws no pictures
says nothing of pictures."""

from __future__ import annotations

from typing import Any

import pytest

from bot import games, render
from bot.commands import chosen_options
from bot.game import GameUI, SeatInfo, TableInfo
from bot.i18n import LANGS, Lang, t
from bot.tables import TableOptions, engine_options
from engine.errors import OptionsError
from engine.whist import WhistOptions, new_game
from tests.bot.driver import World, private_text

SEATINGS = ("rules_seats_join", "rules_seats_random", "rules_seats_rematch")


class _Chosen:
    """A slash command option's value, as discord.py hands it to the command."""

    def __init__(self, value: Any) -> None:
        self.value = value


def _seating_said(footer: str, lang: Lang) -> list[str]:
    said = [key for key in SEATINGS[:2] if t(lang, f"render.{key}") in footer]
    rematch = t(lang, "render.rules_seats_rematch", game=41)
    return said + (["rules_seats_rematch"] if rematch in footer else [])


def _tables(ui: GameUI) -> list[tuple[str, TableInfo]]:
    """Return a lobby's table for each choice of each of ``ui``'s own start options, with
    either seating and as a rematch."""
    tables = []
    for spec in ui.options:
        for choice in spec.choices:
            for seating in ("join", "random"):
                chosen = chosen_options(
                    {spec.name: _Chosen(choice.value), "seating": _Chosen(seating)}, ui
                )
                options = TableOptions(game=chosen.get("game", {}), seating=seating)
                try:
                    game_options = engine_options(ui, options)
                except OptionsError:
                    continue  # an option of another variant: the table is refused
                for rematch in (None, 41):
                    info = TableInfo(
                        1,
                        100,
                        {0: SeatInfo("alice", 100)},
                        game_options,
                        seating=seating,
                        rematch_of=rematch,
                    )
                    tables.append((f"{spec.name}={choice.value} {seating} {rematch}", info))
    return tables


@pytest.mark.parametrize("game", [ui.name for ui in games.GAMES if ui.options])
@pytest.mark.parametrize("lang", LANGS)
def test_every_lobby_footer_states_one_true_seating(game: str, lang: Lang) -> None:
    ui = games.get(game)
    tables = _tables(ui)
    assert tables
    for name, info in tables:
        footer = render.rules_line(ui, info, lang)
        said = _seating_said(footer, lang)
        if info.seating == "random" or ui.seats_drawn(info.game_options):
            assert said == ["rules_seats_random"], (name, footer)
        elif info.rematch_of is not None:
            assert said == ["rules_seats_rematch"], (name, footer)
        else:
            assert said == ["rules_seats_join"], (name, footer)
        pictures = [t(lang, "render.rules_pictures_on"), t(lang, "render.rules_pictures_off")]
        assert any(p in footer for p in pictures) == ui.draws_pictures, (name, footer)


def test_whist_draws_the_seats_exactly_when_its_footer_says_so() -> None:
    """The engine's truth: with random partners, players sit as drawn, not as they joined."""
    whist = games.get("whist")
    for drawn in (False, True):
        options = WhistOptions(random_seating=drawn)
        seatings = {new_game(seed, options).public_view().seating for seed in range(8)}
        assert (seatings != {(0, 1, 2, 3)}) is drawn
        assert whist.seats_drawn(options) is drawn


async def test_a_short_whist_lobby_with_random_partners_says_random_seats(world: World) -> None:
    alice = world.member("alice")
    lobby = await alice.slash(world.channel, "whist start", random_partners="on")
    assert lobby.response is not None and not lobby.ephemeral
    footer = lobby.response.embeds[0].footer.text or ""
    assert "random seats" in footer
    assert "join order" not in footer and "random_partners" not in footer
    plain = await world.member("bob").slash(world.guild.create_text_channel("whist"), "whist start")
    assert plain.response is not None
    assert "seats in join order" in (plain.response.embeds[0].footer.text or "")


async def test_a_dukes_up_lobby_says_nothing_of_pictures(world: World) -> None:
    alice = world.member("alice")
    lobby = await alice.slash(world.channel, "dukesup start", pictures="on")
    assert lobby.response is not None and not lobby.ephemeral
    footer = lobby.response.embeds[0].footer.text or ""
    assert "pictures" not in footer and "seats in join order" in footer
    defaults = await alice.slash(world.channel, "dukesup defaults")
    assert defaults.response is not None and defaults.response.ephemeral
    assert "Pictures" not in defaults.response.content
    assert "Pictures" in private_text(await alice.slash(world.channel, "whist defaults"))


def test_a_rematch_lobby_keeps_the_old_seats() -> None:
    ui = games.get("dupe")
    info = TableInfo(1, 100, {0: SeatInfo("alice", 100)}, ui.game.options_type(), rematch_of=41)
    lobby = render.lobby_message(ui, info, 4)
    footer = lobby.embeds[0].footer.text or ""
    assert "seats as in game #41" in footer and "join order" not in footer
    assert "The same players and rules" in (lobby.embeds[0].description or "")


def test_whist_defaults_with_random_partners_say_random_seating() -> None:
    whist = games.get("whist")
    shown = {"seating": "join", "pictures": True, "level": "basic", "turn_seconds": 120}
    drawn = render.defaults_text(whist, shown, WhistOptions(random_seating=True), False)
    assert "• Seating: random" in drawn and "join order" not in drawn
    joined = render.defaults_text(whist, shown, WhistOptions(), False)
    assert "• Seating: join order" in joined
