"""A lean, independent Dupe: one random full game as a plain loop, the yardstick for the engine.

    .venv/bin/python bench/lean_dupe.py [--games 1000] [--seed 0]

Not a second engine: no views, no validation, no move log, no objects — cards are ints
``rank * 4 + suit`` (suits C D H S = 0 1 2 3, so ints sort as the engine's cards do). It plays
exactly the workload ``bench/engine_speed.py`` times through the engine: four ``random``
players, one ``random.Random`` each seeded ``game_seed * 4 + seat``, drawing what the engine's
random player draws, on the deal and identity cards the engine draws from the game's seed. So
for one seed both reach the same totals, which :func:`check` verifies (with the rules' worked
examples of scoring and the ranges every game must stay in).
"""

from __future__ import annotations

import argparse
import random
import time
from itertools import permutations

ORDERS = tuple(permutations(range(4)))
# The pack in the engine's order (clubs, diamonds, hearts, spades; each 2 to ace).
PACK = tuple(rank * 4 + suit for suit in range(4) for rank in range(2, 15))
SEAT_SUITS = (3, 2, 0, 1)  # North ♠, East ♥, South ♣, West ♦
SEAT_OF_SUIT = {suit: seat for seat, suit in enumerate(SEAT_SUITS)}
SET_BONUS = (0, 0, 0, 6, 8)


def score(hand: list[int]) -> int:
    """Return L × S + B for a won hand (docs/rules/dupe.md, “Scoring a won hand”)."""
    suits = [0, 0, 0, 0]
    counts = [0] * 15  # by rank value; 1 is the ace again, for ace-low sequences
    for card in hand:
        suits[card & 3] += 1
        counts[card >> 2] += 1
    counts[1] = counts[14]
    longest_suit = max(suits)
    run = longest = 0
    for value in range(1, 15):
        run = run + 1 if counts[value] else 0
        longest = max(longest, run)
    longest = min(longest, 13)  # never the ace at both ends
    if longest < 2:
        return longest_suit + sum(SET_BONUS[counts[v]] for v in range(2, 15))
    best_bonus = 0
    for start in range(1, 16 - longest):
        window = range(start, start + longest)
        if all(counts[v] for v in window):
            used = {14 if v == 1 else v for v in window}
            bonus = sum(SET_BONUS[counts[v] - (v in used)] for v in range(2, 15))
            best_bonus = max(best_bonus, bonus)
    return longest_suit * longest + best_bonus


def game(seed: int) -> tuple[list[int], list[list[int]]]:
    """Return the totals of one random game and every hand's score, deal by deal."""
    rng = random.Random(seed)
    deck = list(PACK)
    rng.shuffle(deck)
    hands: list[list[int]] = [[], [], [], []]
    for i, card in enumerate(deck):
        hands[(i + 1) % 4].append(card)  # North deals, East first
    identities = []
    for _ in range(4):
        suits = list(SEAT_SUITS)
        rng.shuffle(suits)
        identities.append(suits)
    players = [random.Random(seed * 4 + seat) for seat in range(4)]
    totals = [0, 0, 0, 0]
    scores: list[list[int]] = []
    for deal in range(4):
        for hand in hands:
            hand.sort()
        won: list[list[int]] = [[], [], [], []]
        for _ in range(13):
            trick = []
            for seat in range(4):
                hand = hands[seat]
                trick.append(hand.pop(int(players[seat].random() * len(hand))))
            ranks = [card >> 2 for card in trick]
            high, low = max(ranks), min(ranks)
            if ranks.count(high) == 1:
                taker = ranks.index(high)
            elif ranks.count(low) == 1:
                taker = ranks.index(low)
            else:
                taker = -1
            if taker >= 0:
                order = ORDERS[int(players[taker].random() * 24)]
                trick = [trick[i] for i in order]
            for seat in range(4):
                won[seat].append(trick[seat])
        hand_scores = [score(pile) for pile in won]
        for seat in range(4):
            totals[seat] += hand_scores[SEAT_OF_SUIT[identities[deal][seat]]]
        scores.append(hand_scores)
        hands = won
    return totals, scores


def run(games: int, seed: int = 0) -> float:
    """Return the seconds ``games`` random games take, seeds ``seed``, ``seed + 1``, …"""
    started = time.perf_counter()
    for g in range(games):
        game(seed + g)
    return time.perf_counter() - started


# The rules' worked examples, as (rank, suit) ints.
_EXAMPLES = {
    "8S 3S 2S KH JH 9H 8H 7H 9C 2C 6D 5D 3D": 25,
    "AS 7S AH 3H KC TC 8C 7C 6C 3C JD 7D 2D": 24,
    "JS TS 4S QH TH 5H AC 4C AD KD TD 8D 4D": 31,
    "KS QS 9S 6S 5S 6H 4H 2H QC JC 5C QD 9D": 21,
}


def _card(code: str) -> int:
    return ("23456789TJQKA".index(code[0]) + 2) * 4 + "CDHS".index(code[1])


def check(games: int = 200, seed: int = 0) -> None:
    """Raise ``AssertionError`` unless scoring meets the worked examples and ``games`` games
    stay within what the rules allow."""
    for text, expected in _EXAMPLES.items():
        got = score([_card(code) for code in text.split()])
        assert got == expected, f"{text} scores {got}, not {expected}"
    for g in range(games):
        totals, scores = game(seed + g)
        assert len(scores) == 4
        # identity cards are a permutation: the credits of a deal are its hands' scores
        assert sum(totals) == sum(sum(deal) for deal in scores), (seed + g, totals)
        # L ≤ 13 and S ≤ 13 with B = 0 at the top; at least 4 (L ≥ 4, S ≥ 1)
        assert all(4 <= s <= 169 for deal in scores for s in deal), (seed + g, scores)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    check()
    seconds = run(args.games, args.seed)
    print(f"{args.games} games in {seconds:.3f} s = {args.games / seconds:.0f} games/s")


if __name__ == "__main__":
    main()
