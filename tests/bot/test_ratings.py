"""OpenSkill ratings: computed per finished game, stored with the result in one transaction."""

from __future__ import annotations

import pytest

import bot.store.common as store_module
from bot.ratings import DEFAULT, Rating, player_key, rate_game
from bot.store import SeatRecord, Store
from tests.bot.test_store import GUILD, finish, open_game, read


def test_the_winner_rises_the_last_falls_and_ties_move_together() -> None:
    new = rate_game([("a", 120), ("b", 80), ("c", 80), ("d", 10)], {})
    assert new["a"].mu > DEFAULT.mu > new["d"].mu
    assert new["b"] == new["c"]  # a tie is a tie
    assert all(r.sigma < DEFAULT.sigma for r in new.values())  # everyone is better known


def test_an_upset_moves_ratings_more_than_the_expected_result() -> None:
    strong, weak = Rating(35.0, 3.0), Rating(15.0, 3.0)
    expected = rate_game([("s", 90), ("w", 10)], {"s": strong, "w": weak})
    upset = rate_game([("s", 10), ("w", 90)], {"s": strong, "w": weak})
    assert upset["w"].mu - weak.mu > expected["s"].mu - strong.mu > 0


def test_a_level_in_several_seats_takes_the_mean_of_its_seats() -> None:
    new = rate_game([("1", 100), ("cpu:expert", 90), ("cpu:expert", 20), ("2", 50)], {})
    alone = rate_game([("1", 100), ("x", 90), ("y", 20), ("2", 50)], {})
    assert new["cpu:expert"].mu == pytest.approx((alone["x"].mu + alone["y"].mu) / 2)
    assert set(new) == {"1", "2", "cpu:expert"}


def test_players_are_keyed_by_member_or_level() -> None:
    assert player_key(42, None) == "42"
    assert player_key(None, "greedy") == "cpu:greedy"
    with pytest.raises(ValueError, match="member or a computer level"):
        player_key(None, None)
    assert DEFAULT.conservative == pytest.approx(0.0)


async def ratings_in(store: Store) -> dict[str, tuple[float, float, int]]:
    rows = await read(
        store,
        f"SELECT player, mu, sigma, games FROM ratings WHERE guild_id = {GUILD} AND game = 'dupe'",
    )
    return {str(p): (float(mu), float(sigma), int(n)) for p, mu, sigma, n in rows}


async def test_finishing_a_game_rates_its_members_and_computer_levels(store: Store) -> None:
    await finish(
        store,
        await open_game(store, 1, [100, 101, None, None]),
        [100, 101, None, None],
        [90, 40, 60, 10],
    )
    first = await ratings_in(store)
    assert set(first) == {"100", "101", "cpu:random"}
    assert first["100"][2] == first["cpu:random"][2] == 1
    assert first["100"][0] > max(first["cpu:random"][0], first["101"][0])  # he won
    await finish(
        store,
        await open_game(store, 2, [101, 100, None, None]),
        [101, 100, None, None],
        [90, 10, 50, 50],
    )
    second = await ratings_in(store)
    assert second["101"][2] == second["100"][2] == 2
    assert second["101"][0] > first["101"][0]  # she won the second game
    assert second["100"][1] < first["100"][1]  # and he is better known after two games


async def test_a_failed_rating_leaves_the_game_unfinished(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    game_id = await open_game(store, 1, [100, 101, 102, 103])

    def broken(*_: object) -> dict[str, Rating]:
        raise RuntimeError("rating failed")

    monkeypatch.setattr(store_module, "rate_game", broken)
    with pytest.raises(RuntimeError, match="rating failed"):
        await finish(store, game_id, [100, 101, 102, 103], [50, 40, 30, 20])
    record = await store.game(game_id)
    assert record is not None and record.status == "playing"  # nothing of it was written
    assert await ratings_in(store) == {}
    rows, total = await store.leaderboard(GUILD, "dupe")
    assert (rows, total) == ([], 0)


async def three_games(store: Store) -> None:
    """100 wins twice by a little; 101 wins once by a lot; an expert computer plays too."""
    for channel, scores in ((1, [60, 50, 10, 0]), (2, [60, 55, 10, 0]), (3, [0, 200, 10, 5])):
        users = [100, 101, None, 103]
        game_id = await open_game(store, channel, users)
        record = await store.game(game_id)
        assert record is not None
        seats = dict(record.seats)
        seats[2] = SeatRecord(2, None, "Computer (expert)", "expert")
        await store.set_seats(game_id, seats.values())
        results = [
            (
                seat,
                users[seat],
                None if users[seat] else "expert",
                scores[seat],
                1.0 if scores[seat] == max(scores) else 0.0,
                (scores[seat] // 2, scores[seat] - scores[seat] // 2),
            )
            for seat in range(4)
        ]
        await store.append_moves(game_id, 0, [], 0.0, None, results=results, guild_id=GUILD)


async def test_the_leaderboard_sorts_by_rating_wins_or_points(store: Store) -> None:
    await three_games(store)
    by = {}
    for sort in ("rating", "wins", "points"):
        rows, total = await store.leaderboard(GUILD, "dupe", sort=sort)
        assert total == 3  # members only by default
        by[sort] = [row.user_id for row in rows]
    assert by["points"] == [101, 100, 103]  # 305 against 120
    assert by["wins"] == [100, 101, 103]  # two wins against one
    rows, _ = await store.leaderboard(GUILD, "dupe", sort="rating")
    assert all(row.rating is not None for row in rows)
    conservative = [row.rating.conservative for row in rows if row.rating]
    assert conservative == sorted(conservative, reverse=True)
    with pytest.raises(ValueError, match="unknown sort"):
        await store.leaderboard(GUILD, "dupe", sort="luck")


async def test_computer_levels_are_listed_and_rated_when_asked(store: Store) -> None:
    await three_games(store)
    rows, total = await store.leaderboard(GUILD, "dupe", computers=True, sort="points")
    assert total == 4
    expert = next(row for row in rows if row.user_id is None)
    assert (expert.level, expert.games, expert.points) == ("expert", 3, 30)
    last = next(row for row in rows if row.user_id == 103)
    assert expert.rating is not None and last.rating is not None
    assert expert.rating.mu > last.rating.mu  # it beat 103 in every game


async def test_a_members_stats(store: Store) -> None:
    await three_games(store)
    stats = await store.player_stats(GUILD, 101, "dupe")
    assert stats is not None
    assert (stats.games, stats.wins, stats.best_score) == (3, 1.0, 200)
    assert stats.mean_score == pytest.approx(305 / 3)
    assert stats.win_share == pytest.approx(1 / 3)
    assert stats.best_round == 100  # the larger half of 200
    assert stats.favourite_seat == 1
    assert stats.rating is not None and stats.rating.sigma < 25 / 3
    assert await store.player_stats(GUILD, 999, "dupe") is None
    assert await store.player_stats(GUILD + 1, 101, "dupe") is None  # another server
