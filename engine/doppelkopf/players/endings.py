"""When a soloist may claim or concede knowing only its own view (rules §3.8).

A claim is judged by the engine's exact check (:func:`engine.doppelkopf.claims.wins_every_trick`)
on the real hands, which the soloist does not see; a claim that fails gives every remaining
trick to Contra. So the soloist claims only when the check holds for *every* deal of the
unseen cards consistent with what it has seen (each seat's number of cards, the suits it
showed void in): the real deal is one of them, so such a claim is never refused. Two ways
to know it:

- **Whatever the deal** (any moment the soloist leads a trick): the check's own sure win
  (trumps from the top, then each suit from the top) holds against the strongest holding any
  opponent could have — as many cards of a group as it could hold, and the highest unseen
  one among them. The sure win only gets easier with fewer or lower cards.
- **Deal by deal** (the last tricks): every consistent deal, enumerated while there are at
  most :data:`DEALS` of them (at most
  :data:`LAST_TRICKS` cards left), passes the check.

A concession gives the remaining tricks to Contra; it is made when the soloist can take no
trick in any consistent deal against the opponents' best play (deal by deal, at most
:data:`LAST_TRICKS` cards left): playing on could then only lose time.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence

from engine.cards import Card
from engine.doppelkopf.claims import wins_every_trick
from engine.doppelkopf.orders import TRUMP, Order

__all__ = ["DEALS", "Ending", "claim_holds", "concession_due"]

LAST_TRICKS = 3
"""Deals are checked one by one with at most this many cards in the soloist's hand."""
DEALS = 2000
"""At most this many consistent deals are checked one by one (three tricks left: 1,680)."""


class Ending:
    """What the soloist knows of the remaining tricks: its ``hand``, the ``unseen`` cards
    (the opponents' hands together), each seat's number of cards ``left``, the ``voids``
    seen (seat → groups), the current trick's ``plays`` led by ``leader``, the four seats
    ``in_play`` clockwise."""

    def __init__(
        self,
        order: Order,
        soloist: int,
        hand: Sequence[Card],
        unseen: Sequence[Card],
        left: Sequence[int],
        voids: Mapping[int, set[int]],
        plays: Sequence[tuple[int, Card]],
        leader: int,
        in_play: Sequence[int],
    ) -> None:
        self.order, self.soloist = order, soloist
        self.hand, self.unseen = tuple(hand), tuple(unseen)
        self.left, self.voids = left, voids
        self.plays, self.leader, self.in_play = tuple(plays), leader, tuple(in_play)
        self.opponents = tuple(s for s in in_play if s != soloist)

    @property
    def complete(self) -> bool:
        """Whether the unseen cards are exactly the opponents' hands (the soloist saw every
        trick): only then does a deal of them stand for the real hands."""
        return len(self.unseen) == sum(self.left[s] for s in self.opponents)

    def deals(self) -> Iterator[list[tuple[Card, ...]]]:
        """Yield every distinct deal of the unseen cards to the opponents that fits their
        numbers of cards and voids, as every seat's hand (the soloist's own included)."""
        group = self.order.group
        kinds = sorted(Counter(self.unseen).items())
        room = {s: self.left[s] for s in self.opponents}
        held: dict[int, list[Card]] = {s: [] for s in self.opponents}
        width = max(self.in_play) + 1

        def place(i: int) -> Iterator[list[tuple[Card, ...]]]:
            if i == len(kinds):
                hands: list[tuple[Card, ...]] = [() for _ in range(width)]
                for s, cards in held.items():
                    hands[s] = tuple(cards)
                hands[self.soloist] = self.hand
                yield hands
                return
            card, copies = kinds[i]
            able = [s for s in self.opponents if group[card] not in self.voids.get(s, ())]
            for takers in _splits(copies, able, room):
                for s in takers:
                    room[s] -= 1
                    held[s].append(card)
                yield from place(i + 1)
                for s in takers:
                    room[s] += 1
                    held[s].pop()

        yield from place(0)


def _splits(copies: int, able: Sequence[int], room: Mapping[int, int]) -> Iterator[tuple[int, ...]]:
    """Yield the ways of giving ``copies`` (1 or 2) twin cards to the seats ``able`` with room."""
    open_ = [s for s in able if room[s] > 0]
    if copies == 1:
        yield from ((s,) for s in open_)
        return
    for i, s in enumerate(open_):
        if room[s] >= 2:
            yield (s, s)
        for t in open_[i + 1 :]:
            yield (s, t)


def claim_holds(ending: Ending) -> bool:
    """Return whether the claim check holds in every deal consistent with ``ending`` (see
    the module); ``False`` when that cannot be known cheaply."""
    if not ending.complete:
        return False
    if not ending.plays and ending.leader == ending.soloist and _sure_whatever_the_deal(ending):
        return True
    if len(ending.hand) > LAST_TRICKS:
        return False
    return _in_every_deal(
        ending,
        lambda hands: wins_every_trick(
            ending.order, hands, ending.plays, ending.leader, ending.soloist, ending.in_play
        ),
    )


def concession_due(ending: Ending) -> bool:
    """Return whether the soloist takes no trick in any deal consistent with ``ending``
    against the opponents' best play (see the module)."""
    if not ending.complete or not ending.hand or len(ending.hand) > LAST_TRICKS:
        return False
    seats = ending.in_play
    plays = ending.plays
    seat = seats[(seats.index(plays[-1][0]) + 1) % 4] if plays else ending.leader
    return _in_every_deal(
        ending,
        lambda hands: not _takes_a_trick(ending, [list(h) for h in hands], list(plays), seat),
    )


def _in_every_deal(ending: Ending, holds: Callable[[list[tuple[Card, ...]]], bool]) -> bool:
    """Whether ``holds`` is true of every deal consistent with ``ending`` (false when there
    are none, or more than :data:`DEALS` to check)."""
    checked = 0
    for hands in ending.deals():
        checked += 1
        if checked > DEALS or not holds(hands):
            return False
    return checked > 0


def _takes_a_trick(
    ending: Ending, hands: list[list[Card]], plays: list[tuple[int, Card]], seat: int
) -> bool:
    """Whether the soloist can make sure of a trick from here, all hands known (``seat``
    plays next)."""
    order, soloist, seats = ending.order, ending.soloist, ending.in_play
    led = plays[0][1] if plays else None
    mine = seat == soloist
    after = seats[(seats.index(seat) + 1) % 4]
    for card in sorted(set(order.legal(hands[seat], led))):
        hands[seat].remove(card)
        plays.append((seat, card))
        if len(plays) == 4:
            winner = plays[order.winner([c for _, c in plays])][0]
            if winner == soloist:
                result = True
            elif not hands[soloist]:
                result = False
            else:
                result = _takes_a_trick(ending, hands, [], winner)
        else:
            result = _takes_a_trick(ending, hands, plays, after)
        plays.pop()
        hands[seat].append(card)
        if result == mine:  # the soloist found a trick, or an opponent a defence
            return mine
    return not mine


def _sure_whatever_the_deal(ending: Ending) -> bool:
    """Whether the claim check's sure win (``claims.wins_every_trick``'s ``sure``) holds
    against the strongest holding each opponent could have in any consistent deal."""
    order = ending.order
    group, power = order.group, order.power
    own: dict[int, list[int]] = {}
    for c in ending.hand:
        own.setdefault(group[c], []).append(power[c])
    for powers in own.values():
        powers.sort(reverse=True)
    unseen: dict[int, list[int]] = {}
    for c in ending.unseen:
        unseen.setdefault(group[c], []).append(power[c])
    for o in ending.opponents:
        void = ending.voids.get(o, set())
        for g, powers in unseen.items():
            if g in void:
                continue
            n = min(ending.left[o], len(powers))
            mine = own.get(g)
            if not mine:
                if g == TRUMP:
                    return False  # it could ruff
                continue
            if g == TRUMP and len(mine) < n:
                return False
            if mine[min(n, len(mine)) - 1] < max(powers):
                return False
    return True
