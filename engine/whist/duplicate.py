"""Duplicate whist (``docs/rules/whist.md`` §7) as pure functions: trays made from a seed,
a tray played at one table (:class:`TrayGame`), and the scores of the three formats — team
of four, Mitchell pairs (with its movement) and Mnemonic duplicate.

Duplicate counts all 13 tricks; a table's result of a tray is N-S's tricks (E-W took the
rest). A tray unfinished at a table (``None``) counts there as the average: 0 for both.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from fractions import Fraction
from typing import NamedTuple

from engine.cards import DECK, Card, Suit
from engine.errors import (
    GameOverError,
    IllegalActionError,
    InvalidActionError,
    NotYourTurnError,
    OptionsError,
)
from engine.tricks import (
    deal_round,
    eldest,
    legal_cards,
    next_seat,
    trick_winner,
    turns_down_turnup,
)
from engine.whist.actions import SEAT_NAMES, Action, Kind, Move, play

__all__ = [
    "MitchellScore",
    "MitchellTable",
    "MnemonicScore",
    "TeamScore",
    "Tray",
    "TrayGame",
    "make_trays",
    "mitchell_schedule",
    "mnemonic_trump",
    "new_tray_game",
    "score_mitchell",
    "score_mnemonic",
    "score_team_of_four",
    "turn_tray",
]

TRICKS = 13


class Tray(NamedTuple):
    """One stored deal: its number, the hands at N E S W (sorted), the dealer, the turned
    card (``None`` with a declared trump) and the trump suit."""

    number: int
    hands: tuple[tuple[Card, ...], ...]
    dealer: int
    trump_card: Card | None
    trump: Suit


def make_trays(seed: int, n: int, declared_trump: Suit | None = None) -> tuple[Tray, ...]:
    """Return trays 1…n dealt from ``seed``: tray k's dealer is seat (k−1) mod 4, the cards
    are dealt one at a time from his left, and his 13th card is the trump card (with
    ``declared_trump`` no card is turned and that suit is trumps on every tray)."""
    if type(n) is not int or n < 0:
        raise OptionsError(f"A match has a whole number of trays, not {n!r}.", reason="trays")
    trays = []
    for number in range(1, n + 1):
        rng = random.Random(f"whist:{seed}:tray:{number}")
        deck = list(DECK)
        rng.shuffle(deck)
        dealer = (number - 1) % 4
        order = [(dealer + i) % 4 for i in (1, 2, 3, 4)]
        dealt = deal_round(deck, order, TRICKS)
        hands = tuple(tuple(sorted(dealt[seat])) for seat in range(4))
        trump_card = None if declared_trump is not None else deck[4 * TRICKS - 1]
        trump = declared_trump if declared_trump is not None else deck[4 * TRICKS - 1].suit
        trays.append(Tray(number, hands, dealer, trump_card, trump))
    return tuple(trays)


def mnemonic_trump(seed: int) -> Suit:
    """Return the trump suit of a Mnemonic session drawn from its seed (the default when
    none is chosen at creation)."""
    return Suit(random.Random(f"whist:{seed}:mnemonic-trump").randrange(4))


def turn_tray(tray: Tray) -> Tray:
    """Return the tray turned one seat clockwise for Mnemonic's replay: N's hand goes to E,
    E's to S, S's to W, W's to N, and the dealer moves with his hand; the number, the trump
    card and the trump stay."""
    hands = tray.hands
    return Tray(
        tray.number,
        (hands[3], hands[0], hands[1], hands[2]),
        next_seat(tray.dealer),
        tray.trump_card,
        tray.trump,
    )


class TrayGame:
    """One tray played at one table, like a §1 deal: eldest leads, suit must be followed,
    and the turned card lies face up until the dealer plays to trick 1."""

    def __init__(self, tray: Tray) -> None:
        self.tray = tray
        self._hands = [tuple(hand) for hand in tray.hands]
        self._to_play: int | None = eldest(tray.dealer)
        self._trick: list[tuple[int, Card]] = []
        self._last: tuple[tuple[int, Card], ...] | None = None
        self._tricks = [0, 0]
        self._completed = 0
        self._turnup_shown = tray.trump_card is not None
        self._moves: list[Move] = []

    @property
    def is_over(self) -> bool:
        """Return whether all 13 tricks have been played."""
        return self._completed == TRICKS

    @property
    def to_play(self) -> int | None:
        """Return the hand whose card is due (``None`` once over)."""
        return self._to_play

    @property
    def tricks(self) -> tuple[int, int]:
        """Return the tricks taken so far: (N-S, E-W)."""
        return (self._tricks[0], self._tricks[1])

    @property
    def result(self) -> int | None:
        """Return N-S's tricks once the tray is over, else ``None``."""
        return self._tricks[0] if self.is_over else None

    @property
    def moves(self) -> tuple[Move, ...]:
        """Return the cards played, as moves (``N:QH``)."""
        return tuple(self._moves)

    @property
    def trick(self) -> tuple[tuple[int, Card], ...]:
        """Return the trick in progress as ``(seat, card)`` pairs."""
        return tuple(self._trick)

    @property
    def last_trick(self) -> tuple[tuple[int, Card], ...] | None:
        """Return the last completed trick until the next card is led."""
        return self._last

    @property
    def turnup(self) -> Card | None:
        """Return the trump card while it lies face up (until the dealer plays to trick 1)."""
        return self.tray.trump_card if self._turnup_shown else None

    def hand(self, seat: int) -> tuple[Card, ...]:
        """Return the cards still held at ``seat``, sorted."""
        return self._hands[seat]

    def legal_actions(self, seat: int) -> tuple[Action, ...]:
        """Return the cards ``seat`` may play now, sorted; ``()`` if it is not its turn."""
        if seat != self._to_play:
            return ()
        led = self._trick[0][1].suit if self._trick else None
        return tuple(play(card) for card in legal_cards(self._hands[seat], led))

    def apply(self, seat: int, action: Action) -> None:
        """Play ``action``'s card from ``seat``; raise an ``EngineError`` and change nothing if
        it may not be played."""
        if type(seat) is not int or not 0 <= seat <= 3:
            raise InvalidActionError(f"There is no seat {seat!r}.", reason="invalid-seat")
        if type(action) is not Action or action.kind != Kind.PLAY or type(action.card) is not Card:
            raise InvalidActionError(f"{action!r} is not a card to play.", reason="invalid-action")
        if self.is_over:
            raise GameOverError("The tray is over: all 13 tricks are played.")
        if action not in self.legal_actions(seat):
            if seat != self._to_play:
                raise NotYourTurnError(f"It is not {SEAT_NAMES[seat]}'s turn to play.")
            if action.card not in self._hands[seat]:
                raise IllegalActionError(
                    f"{action.card} is not in {SEAT_NAMES[seat]}'s hand.",
                    reason="not-in-hand",
                    card=action.card.code,
                )
            led = self._trick[0][1].suit
            raise IllegalActionError(
                f"{SEAT_NAMES[seat]} must follow suit: {led.plural} were led.",
                reason="must-follow",
                suit=led.letter,
            )
        card = action.card
        self._moves.append(Move(seat, action))
        self._hands[seat] = tuple(c for c in self._hands[seat] if c != card)
        if not self._trick:
            self._last = None
        if turns_down_turnup(self.tray.dealer, seat, self._completed):
            self._turnup_shown = False
        self._trick.append((seat, card))
        if len(self._trick) < 4:
            self._to_play = next_seat(seat)
            return
        winner = self._trick[trick_winner([c for _, c in self._trick], self.tray.trump)][0]
        self._tricks[winner % 2] += 1
        self._completed += 1
        self._last = tuple(self._trick)
        self._trick = []
        self._to_play = None if self._completed == TRICKS else winner


def new_tray_game(tray: Tray) -> TrayGame:
    """Return ``tray`` ready to be played at one table."""
    return TrayGame(tray)


# --------------------------------------------------------------------------------------
# Format A: team of four


class TeamScore(NamedTuple):
    """Team X's score per tray and the match totals of X and Y (Y = −X)."""

    trays: tuple[int, ...]
    x: int
    y: int


def score_team_of_four(table1: Sequence[int | None], table2: Sequence[int | None]) -> TeamScore:
    """Return the team-of-four match: tray i scores X's N-S tricks at table 1 minus Y's N-S
    tricks at table 2 (a tray unfinished at either table scores 0 for both)."""
    if len(table1) != len(table2):
        raise ValueError("Both tables must list the same trays.")
    trays = tuple(
        0 if a is None or b is None else a - b for a, b in zip(table1, table2, strict=True)
    )
    x = sum(trays)
    return TeamScore(trays, x, -x)


# --------------------------------------------------------------------------------------
# Format B: Mitchell pairs


class MitchellTable(NamedTuple):
    """One table in one round of a Mitchell: the pairs sitting N-S and E-W (numbered by their
    starting table), the set of trays it plays and the trays' numbers."""

    round: int
    table: int
    ns_pair: int
    ew_pair: int
    set: int
    trays: tuple[int, ...]


def mitchell_schedule(tables: int, trays_per_set: int = 3) -> tuple[tuple[MitchellTable, ...], ...]:
    """Return the Mitchell movement: ``[round − 1][table − 1]``.

    N-S pairs never move; set t starts at table t. After each round every E-W pair moves to
    the next higher table (T → 1) and every set to the next lower (1 → T); with an even
    number of tables the E-W pairs skip a table after round T/2. T rounds in all.
    """
    if type(tables) is not int or tables < 3:
        raise OptionsError("A Mitchell needs at least three tables.", reason="tables")
    if type(trays_per_set) is not int or trays_per_set < 1:
        raise OptionsError("A set holds at least one tray.", reason="trays-per-set")
    t_count, r = tables, trays_per_set
    rounds = []
    for rnd in range(1, t_count + 1):
        moved = rnd - 1 if t_count % 2 or rnd <= t_count // 2 else rnd
        row = []
        for table in range(1, t_count + 1):
            set_ = (table - 1 + rnd - 1) % t_count + 1
            ew = (table - 1 - moved) % t_count + 1
            trays = tuple(range((set_ - 1) * r + 1, set_ * r + 1))
            row.append(MitchellTable(rnd, table, table, ew, set_, trays))
        rounds.append(tuple(row))
    return tuple(rounds)


class MitchellScore(NamedTuple):
    """A Mitchell's scores in exact fractions: per play ``(tray, ns_pair, ew_pair)`` the two
    pairs' scores, each pair's total by direction, and each direction's winners."""

    tray_scores: dict[tuple[int, int, int], tuple[Fraction, Fraction]]
    ns: dict[int, Fraction]
    ew: dict[int, Fraction]
    ns_winners: tuple[int, ...]
    ew_winners: tuple[int, ...]


def score_mitchell(plays: Iterable[tuple[int, int, int, int | None]]) -> MitchellScore:
    """Return the Mitchell's scores from its plays ``(tray, ns_pair, ew_pair, N-S tricks or
    None)``: a pair scores its tricks minus its direction's average on that tray over the
    tables that finished it; an unfinished play scores 0 for both pairs."""
    plays = list(plays)
    finished: dict[int, list[int]] = {}
    for tray, _, _, tricks in plays:
        if tricks is not None:
            finished.setdefault(tray, []).append(tricks)
    tray_scores: dict[tuple[int, int, int], tuple[Fraction, Fraction]] = {}
    ns: dict[int, Fraction] = {}
    ew: dict[int, Fraction] = {}
    for tray, ns_pair, ew_pair, tricks in plays:
        ns.setdefault(ns_pair, Fraction(0))
        ew.setdefault(ew_pair, Fraction(0))
        if tricks is None:
            score = Fraction(0)
        else:
            results = finished[tray]
            score = tricks - Fraction(sum(results), len(results))
        # E-W's tricks are 13 − N-S's and their average 13 − N-S's average.
        tray_scores[tray, ns_pair, ew_pair] = (score, -score)
        ns[ns_pair] += score
        ew[ew_pair] -= score
    return MitchellScore(tray_scores, ns, ew, _best(ns), _best(ew))


def _best(totals: dict[int, Fraction]) -> tuple[int, ...]:
    if not totals:
        return ()
    top = max(totals.values())
    return tuple(sorted(pair for pair, total in totals.items() if total == top))


# --------------------------------------------------------------------------------------
# Format C: Mnemonic duplicate


class MnemonicScore(NamedTuple):
    """N-S's score per tray and the totals of N-S and E-W (E-W = −N-S)."""

    trays: tuple[int, ...]
    ns: int
    ew: int


def score_mnemonic(original: Sequence[int | None], replay: Sequence[int | None]) -> MnemonicScore:
    """Return the Mnemonic session's scores: tray i scores N-S's tricks on the original play
    plus N-S's tricks on the replay (the tray turned, the players in their seats) − 13; a
    tray unfinished in either play scores 0."""
    if len(original) != len(replay):
        raise ValueError("The original play and the replay must list the same trays.")
    trays = tuple(
        0 if a is None or b is None else a + b - TRICKS
        for a, b in zip(original, replay, strict=True)
    )
    ns = sum(trays)
    return MnemonicScore(trays, ns, -ns)
