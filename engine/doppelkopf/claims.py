"""The claim check (rules §3.8): does the soloist have a way of playing — which may react to
the opponents' cards — that wins every remaining trick, the current one included, against
every legal play of the opponents? An exact double-dummy search over the four known hands.

The target "every trick" keeps it small:

- a line fails the moment an opponent takes a trick, and after the current trick the soloist
  leads every trick; a lead some opponent can beat at once is never tried;
- who takes a trick depends only on how each opponent's card compares with the soloist's
  cards (any opponent taking it is the same failure), so a card is known by its *class*: its
  following group and how many of the other side's cards in that group rank above it and
  equal to it. Cards of one class are interchangeable: each player tries one of each class,
  and positions at the start of a trick are remembered by their classes;
- at the start of a trick, a win nothing can stop and a loss nothing can avoid are seen at
  once (see ``sure`` and ``hopeless``);
- once the soloist's card lies in the trick, an opponent that cannot take it keeps its higher
  cards: a higher card of a group can do everything a lower one can, so it plays its lowest
  card of the suit led, or, void in it, its lowest card of one of its groups.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.cards import Card
from engine.doppelkopf.orders import TRUMP, Order

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
    opponents = tuple(s for s in seats if s != soloist)
    power, group = order.power, order.group
    memo: dict[tuple[object, ...], bool] = {}

    def cls(card: Card, others: Sequence[Card]) -> tuple[int, int, int]:
        g, p = group[card], power[card]
        above = equal = 0
        for o in others:
            if group[o] == g:
                q = power[o]
                if q > p:
                    above += 1
                elif q == p:
                    equal += 1
        return g, above, equal

    def legal(hand: tuple[Card, ...], led: Card | None) -> set[Card]:
        distinct = set(hand)
        if led is not None:
            want = group[led]
            following = {c for c in distinct if group[c] == want}
            if following:
                return following
        return distinct

    def options(hand: tuple[Card, ...], led: Card | None, others: Sequence[Card]) -> list[Card]:
        distinct = legal(hand, led)
        seen: dict[tuple[int, int, int], Card] = {}
        for card in sorted(distinct):
            seen.setdefault(cls(card, others), card)
        # strongest first: it refutes (or proves) a line soonest
        return sorted(seen.values(), key=lambda c: (group[c] != TRUMP, -power[c]))

    def beats(card: Card, best: Card, led: Card) -> bool:
        if group[card] == TRUMP:
            return group[best] != TRUMP or power[card] > power[best]
        return group[best] != TRUMP and group[card] == group[led] and power[card] > power[best]

    def _defence(hand: tuple[Card, ...], led: Card | None, played: Card) -> list[Card] | None:
        """The opponent's plays worth trying once the soloist's card lies in the trick (it
        wins so far): ``None`` if one of its legal cards takes the trick; else, following
        suit, only its lowest card of the suit led (a higher one can do all a lower one can
        later), and with no card of that suit, its lowest card of each group it holds."""
        assert led is not None
        allowed = legal(hand, led)
        if any(beats(c, played, led) for c in allowed):
            return None
        lowest: dict[int, Card] = {}
        for card in allowed:
            g = group[card]
            if g not in lowest or power[card] < power[lowest[g]]:
                lowest[g] = card
        return list(lowest.values())

    def winner(trick_plays: Sequence[tuple[int, Card]]) -> int:
        return trick_plays[order.winner([c for _, c in trick_plays])][0]

    def trick(
        state: list[tuple[Card, ...]], trick_plays: list[tuple[int, Card]], seat: int
    ) -> bool:
        if len(trick_plays) == 4:
            return winner(trick_plays) == soloist and start(state)
        hand = state[seat]
        led = trick_plays[0][1] if trick_plays else None
        after = nxt[seat]
        if seat == soloist:
            rest = [c for o in opponents for c in state[o]] + [c for _, c in trick_plays]
            for card in options(hand, led, rest):
                if led is None and any(
                    beats(o, card, card) for opp in opponents for o in legal(state[opp], card)
                ):
                    continue  # an opponent takes this lead at once
                state[seat] = _without(hand, card)
                trick_plays.append((seat, card))
                won = trick(state, trick_plays, after)
                trick_plays.pop()
                state[seat] = hand
                if won:
                    return True
            return False
        played = next((c for s, c in trick_plays if s == soloist), None)
        if played is not None:
            choices = _defence(hand, led, played)
            if choices is None:
                return False  # this opponent takes the trick
        else:
            mine = list(state[soloist])
            choices = options(hand, led, mine)
        for card in choices:
            state[seat] = _without(hand, card)
            trick_plays.append((seat, card))
            won = trick(state, trick_plays, after)
            trick_plays.pop()
            state[seat] = hand
            if not won:
                return False
        return True

    def groups(hand: tuple[Card, ...]) -> tuple[dict[int, int], dict[int, int]]:
        """Return a hand's number of cards and highest power, by group."""
        counts: dict[int, int] = {}
        highest: dict[int, int] = {}
        for c in hand:
            g = group[c]
            counts[g] = counts.get(g, 0) + 1
            if power[c] > highest.get(g, -1):
                highest[g] = power[c]
        return counts, highest

    def sure(state: list[tuple[Card, ...]]) -> bool:
        """A win nothing can stop, played as: trumps from the top until the opponents have
        none, then each suit from the top. An opponent with n cards of a group keeps its
        highest one for the soloist's n-th lead of that group at the latest, so that lead
        (the soloist's n-th highest of the group) must rank at least as high; ties go to
        the soloist, who leads. The soloist needs as many trumps as any opponent; after
        that nobody can ruff, and discards only weaken the opponents."""
        own: dict[int, list[int]] = {}
        for c in state[soloist]:
            own.setdefault(group[c], []).append(power[c])
        for powers in own.values():
            powers.sort(reverse=True)
        for o in opponents:
            counts, highest = groups(state[o])
            for g, n in counts.items():
                mine = own.get(g)
                if not mine:
                    if g == TRUMP:
                        return False  # it could ruff
                    continue  # a suit the soloist never leads
                if g == TRUMP and len(mine) < n:
                    return False
                if mine[min(n, len(mine)) - 1] < highest[g]:
                    return False
        return True

    def hopeless(state: list[tuple[Card, ...]]) -> bool:
        """A loss nothing can avoid. The soloist leads every card it holds. Take an opponent's
        highest card H of a group, the soloist's cards of that group ranking at least as high
        (a of them) and lower (b). If b ≥ 1 and the opponent holds at least a + 1 cards of
        the group, it follows the a high leads with its other cards of the group (discarding
        other groups' cards when void in a suit led; with only this group's cards left it
        still has enough) and plays H on the first lower lead: that trick is lost."""
        own = state[soloist]
        for o in opponents:
            counts, highest = groups(state[o])
            for g, top in highest.items():
                above = below = 0
                for c in own:
                    if group[c] == g:
                        if power[c] >= top:
                            above += 1
                        else:
                            below += 1
                if below and counts[g] >= above + 1:
                    return True
        return False

    def start(state: list[tuple[Card, ...]]) -> bool:
        own = state[soloist]
        if not own or sure(state):
            return True
        if hopeless(state):
            return False
        key = (
            tuple(sorted(own)),
            *(tuple(sorted(cls(c, own) for c in state[o])) for o in opponents),
        )
        known = memo.get(key)
        if known is None:
            known = trick(list(state), [], soloist)
            memo[key] = known
        return known

    state = [tuple(h) for h in hands]
    if not plays and not state[soloist]:
        return True
    if not plays and leader == soloist:
        return start(state)
    next_seat = nxt[plays[-1][0]] if plays else leader
    return trick(state, list(plays), next_seat)


def _without(hand: tuple[Card, ...], card: Card) -> tuple[Card, ...]:
    i = hand.index(card)
    return hand[:i] + hand[i + 1 :]
