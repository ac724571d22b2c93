"""The claim check (rules §3.8): does the soloist have a way of playing — which may react to
the opponents' cards — that wins every remaining trick, the current one included, against
every legal play of the opponents? An exact double-dummy search over the four known hands.

The target "every trick" makes it small: a line is refuted the moment an opponent takes a
trick, the soloist leads every trick after the first, and positions at the start of a trick
are remembered (the same cards left in the same hands are the same question).
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.cards import Card
from engine.doppelkopf.orders import Order

__all__ = ["wins_every_trick"]


def wins_every_trick(
    order: Order,
    hands: Sequence[tuple[Card, ...]],
    plays: Sequence[tuple[int, Card]],
    leader: int,
    soloist: int,
    in_play: Sequence[int],
) -> bool:
    """Return whether ``soloist`` can win every remaining trick (see the module).

    ``hands``: every seat's cards; ``plays``: the current trick's ``(seat, card)`` so far,
    led by ``leader``; ``in_play``: the four seats in play, clockwise."""
    seats = tuple(in_play)
    nxt = {s: seats[(i + 1) % 4] for i, s in enumerate(seats)}
    power, group = order.power, order.group
    memo: dict[tuple[tuple[Card, ...], ...], bool] = {}

    def legal(hand: tuple[Card, ...], led: Card | None) -> list[Card]:
        distinct = set(hand)
        if led is not None:
            want = group[led]
            following = {c for c in distinct if group[c] == want}
            if following:
                distinct = following
        # strongest first: it refutes (or proves) a line soonest
        return sorted(distinct, key=lambda c: -power[c] - (1000 if group[c] == 4 else 0))

    def without(hand: tuple[Card, ...], card: Card) -> tuple[Card, ...]:
        i = hand.index(card)
        return hand[:i] + hand[i + 1 :]

    def trick(
        state: list[tuple[Card, ...]], trick_plays: list[tuple[int, Card]], seat: int
    ) -> bool:
        if len(trick_plays) == 4:
            cards = [c for _, c in trick_plays]
            if trick_plays[order.winner(cards)][0] != soloist:
                return False
            return start(state)
        hand = state[seat]
        led = trick_plays[0][1] if trick_plays else None
        options = legal(hand, led)
        after = nxt[seat]
        if seat == soloist:
            for card in options:
                state[seat] = without(hand, card)
                trick_plays.append((seat, card))
                won = trick(state, trick_plays, after)
                trick_plays.pop()
                state[seat] = hand
                if won:
                    return True
            return False
        for card in options:
            state[seat] = without(hand, card)
            trick_plays.append((seat, card))
            won = trick(state, trick_plays, after)
            trick_plays.pop()
            state[seat] = hand
            if not won:
                return False
        return True

    def start(state: list[tuple[Card, ...]]) -> bool:
        if not state[soloist]:
            return True
        key = tuple(tuple(sorted(h)) for h in state)
        known = memo.get(key)
        if known is None:
            known = trick(list(key), [], soloist)
            memo[key] = known
        return known

    state = [tuple(h) for h in hands]
    if not plays and not state[soloist]:
        return True
    next_seat = nxt[plays[-1][0]] if plays else leader
    return trick(state, list(plays), next_seat)
