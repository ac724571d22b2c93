"""Pinned games: the same seed gives the same game and the same moves for every level.

The digests were recorded before the engine's hot path was reworked for speed; any change
to the deal, the rules or a computer player's choices shows up here. A deliberate change of
play must record new digests (and say so in its commit).
"""

from __future__ import annotations

import hashlib

import pytest

from engine.dupe import SEATS, DupeOptions, new_game
from engine.dupe.players import make_player

PINNED: dict[tuple[str, int], str] = {
    (
        "random,random,random,random",
        0,
    ): "20996ab4e5781f9fc4c0d3c6433b5edf42c0b4fa5375ac3e1862c9caf9a23ebe",
    (
        "random,random,random,random",
        1,
    ): "d4746a85742b3f4bfa0aeada2d050aadf67e52d0cfc6aedef8b4951ac7409995",
    (
        "random,random,random,random",
        7,
    ): "49e46e2d9852719bd6207750a51a954a6f8ce9edda25ed67c542545feadd75ab",
    (
        "greedy,greedy,greedy,greedy",
        0,
    ): "4aff9717c21a666f1db531c47f02a12bf6fd64f818da7e9747018eacc31d6e02",
    (
        "greedy,greedy,greedy,greedy",
        1,
    ): "7c657df8372706f0fd88e27a5c938bc4545dd841a2434915d9b3ce9b00795d7b",
    (
        "greedy,greedy,greedy,greedy",
        7,
    ): "7bfffc63f6add11a806869b985693327eca9460a6bb4f96cd703b58c6f91008c",
    (
        "expert,expert,expert,expert",
        0,
    ): "346f93ff613fe6169ceae1279cbf8f4f718e71628c0441502c3451e01af70e25",
    (
        "expert,expert,expert,expert",
        1,
    ): "7d2210090e51aba9c974baa090657d1547cf7748f4d5959cfae0aa9d43f2b027",
    (
        "expert,expert,expert,expert",
        7,
    ): "8c07579e80f758dd814ab7136a43d3578137d907395fa838cbcb9f19cbd68bfc",
    (
        "expert,greedy,random,expert",
        0,
    ): "b5488bb542c89589e244ec5f5b480197fb90747137a93f91e15fc8173651ec7d",
    (
        "expert,greedy,random,expert",
        1,
    ): "a36519a085ba0b0f1d85ec875a291c3beda9ee79d2b539bf9b1539e1430a2fbd",
    (
        "expert,greedy,random,expert",
        7,
    ): "0a40e05c75aaf7426201de6f202ba6ef84f1a627307208b61a181539a462df18",
}


def game_digest(levels: list[str], seed: int, memory: str) -> str:
    """Return the digest of a whole game's move log and totals, seats acting in seat order."""
    state = new_game(seed, DupeOptions(memory=memory))  # type: ignore[arg-type]
    players = [make_player(levels[seat], seed * 4 + seat) for seat in SEATS]
    while not state.is_over:
        for seat in state.to_act:
            state.apply(seat, players[seat].act(state.view(seat)))
    text = " ".join(str(move) for move in state.moves) + "|" + repr(state.totals)
    return hashlib.sha256(text.encode()).hexdigest()


@pytest.mark.parametrize(("levels", "seed"), list(PINNED))
@pytest.mark.parametrize("memory", ["strict", "open"])
def test_a_seed_plays_the_pinned_game(levels: str, seed: int, memory: str) -> None:
    assert game_digest(levels.split(","), seed, memory) == PINNED[levels, seed]
