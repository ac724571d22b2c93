"""Ratings: every finished game updates its players' OpenSkill ratings.

A finished game, whatever it is and however many seats it has, is rated as a free-for-all
of its seats ranked by final score, ties as ties, with OpenSkill's Plackett–Luce model (the
``openskill`` package; Weng and Lin, "A Bayesian Approximation Method for Online Ranking",
JMLR 2011). Ratings are kept per server, per game and per player. A member is rated as
themselves; a computer player is rated as its level (``cpu:expert``), so people can see how
they compare with it. A level that fills several seats of one game takes the mean of those
seats' updated ratings.

The conservative estimate ``mu − 3·sigma`` is what leaderboards sort by: a new player
starts at 0 and climbs as the system becomes sure of them.

A table played with hints (the table option ``hints``: each member may ask the expert what
to do) is not rated: its game moves no rating, its members' nor the computer levels'. It is
still a game played: ``/history`` and ``/stats`` list it, and its score and win count in
the leaderboard's points and wins, which count what was played, not skill
(:func:`rates_table`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING

from bot.table_options import TableOptions

if TYPE_CHECKING:
    from openskill.models import PlackettLuce

__all__ = ["DEFAULT", "Rating", "player_key", "rate_game", "rates_table"]

MU = 25.0
SIGMA = MU / 3


@dataclass(frozen=True, slots=True)
class Rating:
    """A skill estimate: mean ``mu`` and uncertainty ``sigma``."""

    mu: float
    sigma: float

    @property
    def conservative(self) -> float:
        """Return ``mu − 3·sigma``: the skill the system is nearly sure the player has."""
        return self.mu - 3 * self.sigma


DEFAULT = Rating(MU, SIGMA)


@cache
def _model() -> PlackettLuce:
    # Imported at the first game's end: a start need not wait for it.
    from openskill.models import PlackettLuce

    return PlackettLuce(mu=MU, sigma=SIGMA)


def rates_table(game_rated: bool, options: TableOptions) -> bool:
    """Return whether a finished table moves its players' ratings: its game's tables do
    (``GameUI.rated``) and it was played without hints."""
    return game_rated and not options.hints


def player_key(user_id: int | None, level: str | None) -> str:
    """Return how a seat is known to the ratings: the member's id, or ``cpu:<level>``."""
    if user_id is not None:
        return str(user_id)
    if level is None:
        raise ValueError("a seat is either a member or a computer level")
    return f"cpu:{level}"


def rate_game(seats: Sequence[tuple[str, int]], before: Mapping[str, Rating]) -> dict[str, Rating]:
    """Return the new rating of every player of a finished game.

    ``seats`` holds ``(player_key, final_score)`` per seat; ``before`` the players' current
    ratings (a player missing from it starts at :data:`DEFAULT`)."""
    if len(seats) < 2:
        raise ValueError("a rated game has at least two seats")
    model = _model()
    teams = [[model.rating(*_pair(before.get(key, DEFAULT)))] for key, _ in seats]
    rated = model.rate(teams, scores=[float(score) for _, score in seats])
    updates: dict[str, list[Rating]] = {}
    for (key, _), team in zip(seats, rated, strict=True):
        updates.setdefault(key, []).append(Rating(team[0].mu, team[0].sigma))
    return {
        key: Rating(
            sum(r.mu for r in values) / len(values), sum(r.sigma for r in values) / len(values)
        )
        for key, values in updates.items()
    }


def _pair(rating: Rating) -> tuple[float, float]:
    return rating.mu, rating.sigma
