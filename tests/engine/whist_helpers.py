"""Helpers for the whist tests: play states out, and rig a deal's end for the worked vectors.

The worked vectors of ``docs/rules/whist.md`` are stated as "a side at 4 takes 6 tricks and
holds all four honours"; :func:`finish_deal` puts the current deal in exactly that position
and scores it through the state's own end-of-deal path (settlement, rubber, next deal).
"""

from __future__ import annotations

import random
from typing import Any

from engine.whist import TRICKS, Phase, WhistOptions, WhistState, new_game


def finish_deal(
    state: WhistState,
    tricks: tuple[int, int],
    *,
    honours: tuple[int, int] = (0, 0),
    score: tuple[int, int] | None = None,
) -> None:
    """End the current deal with ``tricks`` per side and ``honours`` per side held as dealt,
    the game standing at ``score`` when the deal began (default: as it stands)."""
    assert state.phase is Phase.PLAY and sum(tricks) == TRICKS
    if score is not None:
        state._score = score
    state._honours = honours
    state._tricks = list(tricks)
    state._completed = TRICKS
    state._end_deal()


def play_randomly(state: WhistState, rng: random.Random, moves: int | None = None) -> None:
    """Play uniformly random legal actions (every seat the game waits for), to the end or for
    ``moves`` moves."""
    done = 0
    while not state.is_over and (moves is None or done < moves):
        seat = rng.choice(state.to_act)
        state.apply(seat, rng.choice(state.legal_actions(seat)))
        done += 1


def random_game(options: WhistOptions, seed: int) -> WhistState:
    """Return a whole unit of play from ``seed``, played at random (claims included)."""
    state = new_game(seed, options)
    play_randomly(state, random.Random(seed))
    return state


ALL_OPTIONS: list[WhistOptions] = [
    WhistOptions(),
    WhistOptions(random_seating=True),
    WhistOptions(variant="english_dummy"),
    WhistOptions(variant="english_dummy", dummy_shown="after_opening_lead"),
    WhistOptions(variant="english_dummy", fixed_dummy=True, dummy_player=2, rubbers=2),
    WhistOptions(variant="double_dummy"),
    WhistOptions(variant="double_dummy", open_all=True),
    WhistOptions(variant="humbug"),
    WhistOptions(variant="humbug", humbug_declared=True),
    WhistOptions(variant="two_hand"),
    WhistOptions(variant="mort", players=3),
    WhistOptions(variant="mort"),
    WhistOptions(variant="mort", players=3, dummy_shown="after_opening_lead"),
]
"""Every variant, and the options that change play or views."""


def option_id(options: Any) -> str:
    """Return a short test id for ``options``."""
    extra = [
        f"{name}={value}"
        for name, value in (
            ("players", options.players),
            ("random_seating", options.random_seating),
            ("fixed_dummy", options.fixed_dummy),
            ("dummy_shown", options.dummy_shown),
            ("open_all", options.open_all),
            ("humbug_declared", options.humbug_declared),
        )
        if value not in (None, False, "on_deal")
    ]
    return "-".join([options.variant, *extra])
