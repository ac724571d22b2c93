"""Public posts a game owes its channel survive the process: a bot that dies between a
deal's commit and its scoring post (or the final standings, or the table's last edit)
sends them after its restart, once."""

from __future__ import annotations

import random

from engine.dupe import DupeState
from tests.bot.driver import Game, World, description
from tests.bot.helpers import table_edit_path


def owed(world: World, game: Game) -> list[str]:
    return [
        post
        for (post,) in world.query(
            "SELECT post FROM outbox WHERE game_id = ? ORDER BY post", (game.id,)
        )
    ]


def die_before_posting(world: World) -> list[str]:
    """Make the running bot drop every owed post, as a process killed right after the
    commit would; return the list the dropped posts are noted in."""
    dropped: list[str] = []

    async def killed(table: object, post: str) -> None:
        dropped.append(post)

    world.bot.controller.courier.post = killed  # type: ignore[method-assign]
    return dropped


async def test_posts_lost_with_the_process_are_sent_after_the_restart(world: World) -> None:
    (alice,) = world.members("alice")
    rng = random.Random(5)
    game, _ = await Game.open(world, alice, computers="expert")
    await game.press(alice, "Start")
    await game.open_hand(alice)

    # Deal 1 ends, and the process dies before its scoring is posted.
    dropped = die_before_posting(world)
    await game.play([alice], rng, until=lambda s: s.deal == 2)
    assert dropped == ["deal1"]
    assert world.titled("Dupe — deal 1 scored") == []
    assert owed(world, game) == ["deal1"]

    await world.restart(table_edit_seconds=1.5)
    await world.env.advance_time(0.1)
    (scored,) = world.titled("Dupe — deal 1 scored")
    assert owed(world, game) == []

    # A move made just before the restart, whose table edit never came: the new process
    # brings the table message up to date.
    await game.decide(alice, rng)
    moves = len(game.moves())
    (shown,) = world.query("SELECT shown_plies FROM games WHERE id = ?", (game.id,))
    assert shown[0] < moves
    before = description(game.message)
    await world.restart(table_edit_seconds=1.5)
    await world.env.advance_time(10)
    (shown,) = world.query("SELECT shown_plies FROM games WHERE id = ?", (game.id,))
    assert shown[0] == moves
    assert description(game.message) != before

    # The last move of the game: deal 4's scoring, the standings and the table's game-over
    # edit are all owed, and all sent after the restart, in order.
    dropped = die_before_posting(world)

    def over(state: DupeState) -> bool:
        return state.is_over

    final = await game.play([alice], rng, until=over)
    assert final.is_over and game.row()["status"] == "finished"
    assert dropped[-3:] == ["deal4", "end", "table"]
    assert owed(world, game) == sorted(set(dropped))
    assert world.titled("Dupe — final standings") == []
    assert game.message.embeds[0].title != "Dupe — game over"

    await world.restart()
    await world.env.advance_time(0.1)
    assert owed(world, game) == []
    titles = [m.embeds[0].title for m in world.messages() if m.embeds]
    for deal in range(1, 5):
        assert titles.count(f"Dupe — deal {deal} scored") == 1, titles
    assert titles.count("Dupe — final standings") == 1
    assert titles.index("Dupe — deal 4 scored") < titles.index("Dupe — final standings")
    assert game.message.embeds[0].title == "Dupe — game over"
    assert scored.id == world.titled("Dupe — deal 1 scored")[0].id


async def test_a_table_edit_refused_by_a_failing_discord_is_made_again(world: World) -> None:
    """discord.py retries 500, 502, 504 and 524 itself, not 503: a table edit refused so is
    made again a little later (and later again, waiting longer, while Discord keeps
    failing), so the table never stays behind its game."""
    (alice,) = world.members("alice")
    game, _ = await Game.open(world, alice, computers="random")
    await game.press(alice, "Start")
    await game.open_hand(alice)
    path = table_edit_path(world.bot, game.id)
    world.env.inject_error("PATCH", path, status=503, message="Service Unavailable", times=2)
    before = description(game.message)
    await game.decide(alice, random.Random(1), strict=True)  # the trick is complete
    await world.env.advance_time(2)
    assert description(game.message) == before, "both first edits were refused (503)"
    await world.env.advance_time(5)  # the first retry, 5 s later: refused again
    assert description(game.message) == before
    await world.env.advance_time(10)  # then 10 s later: made
    assert description(game.message) != before
    assert "Trick 1:" in description(game.message), description(game.message)
