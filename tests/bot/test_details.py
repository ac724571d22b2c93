"""A public post fits a screen; its full detail is one press away: the Details button
under a Doppelkopf game's breakdown and a Dupe deal's scoring answers privately, to a
player or anyone else, with every hand and trick — public once the round is scored — and
nothing hidden of the round being played; a forged Details id is refused."""

from __future__ import annotations

import discord
import simcord

from bot import ids
from bot.app import Bot
from bot.i18n import t
from tests.bot.driver import forge_click
from tests.bot.helpers import buttons
from tests.bot.secrets_scan import scan_secrets
from tests.bot.test_leaks import check_payload, scan
from tests.bot.whole_game import Game, Recorder, open_table, play
from tests.support.buttons import id_kind


def _posts(game: Game, title: str) -> list[discord.Message]:
    return [m for m in game.channel.history() if m.embeds and (m.embeds[0].title or "") == title]


def _details_id(post: discord.Message) -> str:
    found = [b.custom_id for b in buttons(post) if id_kind(b.custom_id) == "details"]
    assert len(found) == 1, [b.custom_id for b in buttons(post)]
    assert found[0] is not None
    return found[0]


def _text(embed: discord.Embed) -> str:
    return "\n".join(
        [embed.title or "", embed.description or ""]
        + [f"{f.name}\n{f.value}" for f in embed.fields]
    )


async def _press(
    who: simcord.MemberActor, post: discord.Message, custom_id: str
) -> simcord.InteractionResult:
    pressed = await who.click(post, custom_id=custom_id)
    assert pressed.response is not None and pressed.ephemeral
    return pressed


def _with_pictures(bot: Bot) -> None:
    bot.settings = bot.settings.model_copy(update={"pictures": True})


async def test_a_doppelkopf_breakdown_fits_and_its_details_show_every_hand_and_trick(
    env: simcord.Env, dupe_bot: Bot, recorder: Recorder
) -> None:
    _with_pictures(dupe_bot)
    game = await open_table(env, dupe_bot, humans=2, seed=11, game="doppelkopf")
    await play(game, until=lambda state: len(state.game_results) >= 1 and state.turn > 0)
    assert game.table is not None, "the table plays on: game 2 is being played"
    [post] = [m for m in game.channel.history() if (m.embeds[0].title or "").startswith("Game 1:")]
    shown = _text(post.embeds[0])
    # The breakdown: parties, points, items, scores, totals — not the hands and tricks,
    # which the picture (the hands) and the Details (both, in text) give.
    assert "Card points" in shown and "Totals" in shown
    assert "Hands" not in shown and "Tricks" not in shown
    assert not [f.name for f in post.embeds[0].fields]
    assert [a.filename for a in post.attachments] == ["scoring-game-1.png"]
    custom_id = _details_id(post)
    assert ids.parse(custom_id) == ids.Details(game.game_id, "game1")

    # A player and a member who is not playing get the same detail, privately.
    seen = []
    for who in (game.players[1].actor, game.spectator):
        pressed = await _press(who, post, custom_id)
        [embed] = pressed.response.embeds
        seen.append(_text(embed))
        assert embed.title == post.embeds[0].title
        names = [f.name for f in embed.fields]
        assert names[0] == "Hands" and "Tricks" in names
        tricks = [line for f in embed.fields[1:] for line in f.value.splitlines()]
        assert tricks[0].startswith("1. ") and len(tricks) in (12, *range(2, 13))
        assert not pressed.response.attachments
    assert seen[0] == seen[1]
    # Nothing of game 2 (hands being played now) reached anyone who may not see it.
    problems, read = scan_secrets(env, recorder)
    assert read > 10 and problems == [], problems[:5]


async def test_a_dupe_scoring_fits_and_its_details_give_it_all_in_text(
    env: simcord.Env, dupe_bot: Bot, recorder: Recorder
) -> None:
    _with_pictures(dupe_bot)
    game = await open_table(env, dupe_bot, humans=1, seed=2_236_067_977_499, memory="strict")
    await play(game, until=lambda state: state.deal == 2)
    [post] = _posts(game, "Dupe — deal 1 scored")
    shown = _text(post.embeds[0])
    # Beside the picture of every won hand, the text gives the totals and does not repeat
    # the picture's cards, breakdowns and credits.
    assert "Totals" in shown and "Won:" not in shown and "credited" not in shown
    assert [a.filename for a in post.attachments] == ["scoring-deal-1.png"]
    custom_id = _details_id(post)
    pressed = await _press(game.spectator, post, custom_id)
    [embed] = pressed.response.embeds
    detail = _text(embed)
    assert detail.count("Won:") == 4 and detail.count("Identity card") == 4
    assert detail.count("credited to") == 4

    # Once the game is over (the table is no longer in memory), the same button still
    # answers: the game is replayed from its log.
    await play(game)
    assert game.table is None
    again = await _press(game.players[0].actor, post, custom_id)
    assert _text(again.response.embeds[0]) == detail
    # The leak scan reads the answers: the spectator's, given during deal 2, shows deal
    # 1's won hands and identity cards exactly (a scoring is checked deal by deal).
    problems, payloads = scan(env, recorder)
    assert problems == [], problems[:5]
    answers = [p for p in payloads if p.member == game.spectator.id and "Won:" in str(p.body)]
    assert answers and not check_payload(answers[0], recorder.seeds)


async def test_a_forged_details_id_is_refused_and_changes_nothing(
    env: simcord.Env, dupe_bot: Bot
) -> None:
    game = await open_table(env, dupe_bot, humans=1, seed=1_618_033_988_749)
    await play(game, until=lambda state: state.deal == 2)
    [post] = _posts(game, "Dupe — deal 1 scored")
    before = len(list(game.channel.history()))
    forged = [
        (f"dt:{game.game_id}:deal4", "no details"),  # not scored yet
        (f"dt:{game.game_id}:game1", "no details"),  # another game's post
        (f"dt:{game.game_id}:deal0", "no details"),
        (f"dt:{game.game_id + 1000}:deal1", f"no game #{game.game_id + 1000}"),
        (f"dt:{10**18 - 1}:deal1", "no game"),
        (f"dt:{game.game_id}:" + "x" * 13, t("en", "errors.unknown_button")),
    ]
    for custom_id, said in forged:
        answer = await forge_click(game.spectator, post, custom_id)
        assert answer.response is not None and answer.ephemeral, custom_id
        assert not answer.response.embeds, custom_id
        assert said in (answer.response.content or ""), (custom_id, answer.response.content)
    assert len(list(game.channel.history())) == before
    assert game.table is not None and game.table.state.deal == 2


def test_details_ids_round_trip_and_stay_short() -> None:
    custom_id = ids.details(10**17, "deal12")
    assert custom_id == f"dt:{10**17}:deal12" and len(custom_id) <= ids.MAX_LENGTH
    assert ids.parse(custom_id) == ids.Details(10**17, "deal12")
    for bad in ("dt:1:", "dt:1:DEAL1", "dt::deal1", "dt:1:deal1:x", "dt:1:deal12345"):
        assert ids.parse(bad) is None, bad
