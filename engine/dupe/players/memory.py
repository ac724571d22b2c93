"""What a computer player remembers of a Dupe game: everything public it has seen.

Every trick's cards and distribution are shown to all the moment it completes, and every
scored deal shows all won hands, so a player with perfect memory knows every won pile of
the current deal and, from the second deal on, every player's hand. This is what the rules
let a person at the table know; the views never hand it over, the player has to remember.
"""

from __future__ import annotations

from engine.cards import Card
from engine.dupe.rules import SEATS, DupeView, TrickRecord


class TableMemory:
    """Won piles, played cards and tricks of the current deal, rebuilt from views seen."""

    __slots__ = ("deal", "hands_known", "played", "start_hands", "tricks", "won")

    def __init__(self) -> None:
        self.deal = 0
        self.won: list[list[Card]] = [[], [], [], []]
        self.played: list[list[Card]] = [[], [], [], []]
        self.tricks: list[TrickRecord] = []
        self.start_hands: list[tuple[Card, ...]] = [(), (), (), ()]
        self.hands_known = False

    def update(self, view: DupeView) -> None:
        """Take in what ``view`` shows that has not been seen yet."""
        last = view.last_trick
        if (
            last is not None
            and last.deal == self.deal
            and (not self.tricks or self.tricks[-1].trick < last.trick)
        ):
            self._record(last)
        if view.deal != self.deal:
            self._new_deal(view)
            if last is not None and last.deal == view.deal:
                self._record(last)

    def _record(self, trick: TrickRecord) -> None:
        self.tricks.append(trick)
        for seat in SEATS:
            self.won[seat].append(trick.received[seat])
            self.played[seat].append(trick.cards[seat])

    def _new_deal(self, view: DupeView) -> None:
        self.deal = view.deal
        self.won = [[], [], [], []]
        self.played = [[], [], [], []]
        self.tricks = []
        if view.results and view.results[-1].deal == view.deal - 1:
            self.start_hands = list(view.results[-1].won)
            self.hands_known = True
        else:
            self.start_hands = [(), (), (), ()]
            self.hands_known = False

    def hand_of(self, seat: int) -> list[Card] | None:
        """Return the cards ``seat`` still holds, when they are known (from deal 2 on)."""
        if not self.hands_known:
            return None
        played = self.played[seat]
        return [card for card in self.start_hands[seat] if card not in played]
