"""After a whist deal: the double-dummy cost of every card played (the tricks its side
lost against the best card it had, all four hands known), as BBO shows bridge players,
and the deal's double-dummy result.

Cards are codes as the engine writes them (``QH``, ``TS``; :func:`engine.cards.parse_card`
reads them), seats the letters ``N E S W``, trumps a suit letter or ``None`` for no trumps.
Play is ordinary whist: follow suit when able, the trick's winner leads the next one.
The solver is :mod:`engine.whist.solver` (pure Python, one transposition table per deal).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from engine.cards import Card, Suit, parse_card
from engine.errors import IllegalActionError, InvalidActionError
from engine.tricks import trick_winner
from engine.whist.solver import Position, Solver, position_of

__all__ = [
    "double_dummy_costs",
    "double_dummy_result",
    "double_dummy_review",
    "end_position_costs",
]

_SEATS = ("N", "E", "S", "W")
_SUITS = {"C": Suit.CLUBS, "D": Suit.DIAMONDS, "H": Suit.HEARTS, "S": Suit.SPADES}


def double_dummy_costs(
    hands: Mapping[str, Sequence[str | Card]],
    trump: str | None,
    leader: str,
    played: Sequence[str | Card],
) -> tuple[int, ...]:
    """Return, for each card of ``played`` (a whole deal or a prefix of one, in play
    order), the tricks its side loses by it against the best card it held then, both
    played out double-dummy: ``hands`` as dealt (13 cards a seat), ``leader`` the seat
    that leads trick 1. Raises an ``EngineError`` for bad input (see
    :func:`end_position_costs`)."""
    return end_position_costs(hands, trump, leader, played, size=13)


def double_dummy_review(
    hands: Mapping[str, Sequence[str | Card]],
    trump: str | None,
    leader: str,
    played: Sequence[str | Card],
) -> tuple[tuple[int, ...], int]:
    """Return :func:`double_dummy_costs` and North–South's tricks of
    :func:`double_dummy_result`, from one search: the costs start from the deal's value,
    so asking for both apart solves the whole deal twice (most of a deal's time)."""
    deal, suit, first = _check_deal(hands, trump, leader, 13)
    return _costs(deal, suit, first, [_card(card) for card in played])


def double_dummy_result(
    hands: Mapping[str, Sequence[str | Card]], trump: str | None, leader: str
) -> tuple[int, int]:
    """Return the tricks (N-S, E-W) of the deal ``hands`` (13 cards a seat) with best play
    by all four hands, ``leader`` leading trick 1."""
    deal, suit, first = _check_deal(hands, trump, leader, 13)
    ns = Solver(suit).tricks(position_of(deal, suit, first, (), 0), guess=_estimate(deal, suit))
    return ns, 13 - ns


def end_position_costs(
    hands: Mapping[str, Sequence[str | Card]],
    trump: str | None,
    leader: str,
    played: Sequence[str | Card],
    *,
    size: int | None = None,
) -> tuple[int, ...]:
    """Return :func:`double_dummy_costs` for hands of any one size (all four alike, 1 to
    13 cards, or exactly ``size``): an end position of a deal, ``leader`` on lead.

    Raises :class:`~engine.errors.ParseError` for text that is not a card,
    :class:`~engine.errors.InvalidActionError` for hands that cannot be a deal (a seat
    missing, sizes wrong or unequal, a card twice) or an unknown trump or seat, and
    :class:`~engine.errors.IllegalActionError` for a card of ``played`` that its seat
    cannot play then (not in that hand, or not following suit when it can)."""
    deal, suit, first = _check_deal(hands, trump, leader, size)
    cards = [_card(card) for card in played]
    return _costs(deal, suit, first, cards)[0] if cards else ()


def _card(card: str | Card) -> Card:
    """Return ``card`` as a :class:`Card` (parsing a code)."""
    if isinstance(card, Card):
        return Card.of(card.rank, card.suit)
    if not isinstance(card, str):
        raise InvalidActionError(f"{card!r} is not a card.", reason="invalid-card")
    return parse_card(card)


def _check_deal(
    hands: Mapping[str, Sequence[str | Card]], trump: str | None, leader: str, size: int | None
) -> tuple[list[list[Card]], Suit | None, int]:
    """Return the hands N E S W as cards, the trump suit and the leader's seat, or raise."""
    if not isinstance(hands, Mapping) or set(hands) != set(_SEATS):
        raise InvalidActionError(
            f"The hands must be given for exactly the seats N, E, S and W, not {hands!r}.",
            reason="invalid-hands",
        )
    deal = [[_card(card) for card in hands[seat]] for seat in _SEATS]
    sizes = [len(hand) for hand in deal]
    wanted = sizes[0] if size is None else size
    if any(n != wanted for n in sizes) or not 1 <= wanted <= 13:
        shape = ", ".join(f"{seat} {n}" for seat, n in zip(_SEATS, sizes, strict=True))
        each = f"{wanted} cards" if size is not None else "the same number of cards (1 to 13)"
        raise InvalidActionError(
            f"Every hand must hold {each}, but they hold {shape}.", reason="hand-size"
        )
    seen: set[Card] = set()
    for hand in deal:
        for card in hand:
            if card in seen:
                raise InvalidActionError(
                    f"{card.code} is dealt twice.", reason="duplicate-card", card=card.code
                )
            seen.add(card)
    if trump is not None and (not isinstance(trump, str) or trump not in _SUITS):
        raise InvalidActionError(
            f"{trump!r} is not a trump suit: write C, D, H, S, or None for no trumps.",
            reason="invalid-trump",
        )
    if not isinstance(leader, str) or leader not in _SEATS:
        raise InvalidActionError(
            f"{leader!r} is not a seat: write N, E, S or W.", reason="invalid-seat"
        )
    return deal, None if trump is None else _SUITS[trump], _SEATS.index(leader)


def _costs(
    deal: list[list[Card]], trump: Suit | None, leader: int, played: list[Card]
) -> tuple[tuple[int, ...], int]:
    """Return the cost of each card of ``played`` from the hands ``deal`` (checked), and
    N-S's double-dummy tricks from the start."""
    _check_play(deal, trump, leader, played)
    hands = [list(hand) for hand in deal]
    solver = Solver(trump)
    trick: list[Card] = []
    ns_tricks = 0
    total = start = solver.tricks(
        position_of(hands, trump, leader, trick, 0), guess=_estimate(hands, trump)
    )
    costs: list[int] = []
    for card in played:
        seat = (leader + len(trick)) % 4
        hands[seat].remove(card)
        trick.append(card)
        if len(trick) == 4:
            leader = (leader + trick_winner(trick, trump)) % 4
            ns_tricks += 0 if leader % 2 else 1
            trick = []
        after = _after(solver, position_of(hands, trump, leader, trick, ns_tricks), total, seat)
        costs.append(total - after if seat % 2 == 0 else after - total)
        total = after
    return tuple(costs), start


def _estimate(hands: list[list[Card]], trump: Suit | None) -> int:
    """Return a guess at N-S's double-dummy tricks from the hands: their share of the
    high-card points, and half a trick for each trump more than E-W hold (within a
    trick of the truth in three deals of four; a close guess saves whole searches)."""
    points = [0, 0]
    trumps = [0, 0]
    for seat, hand in enumerate(hands):
        for card in hand:
            points[seat % 2] += max(0, int(card.rank) - 10)
            if card.suit is trump:
                trumps[seat % 2] += 1
    size = len(hands[0])
    share = points[0] / (points[0] + points[1]) if points[0] + points[1] else 0.5
    return min(size, max(0, round(size * share + (trumps[0] - trumps[1]) / 2)))


def _check_play(
    deal: list[list[Card]], trump: Suit | None, leader: int, played: list[Card]
) -> None:
    """Raise :class:`IllegalActionError` at the first card of ``played`` that its seat
    cannot play then."""
    hands = [list(hand) for hand in deal]
    trick: list[Card] = []
    for card in played:
        seat = (leader + len(trick)) % 4
        hand = hands[seat]
        if card not in hand:
            raise IllegalActionError(
                f"{card.code} is not in {_SEATS[seat]}'s hand now: it is {_SEATS[seat]}'s "
                "turn to play.",
                reason="not-in-hand",
                card=card.code,
                seat=_SEATS[seat],
            )
        if trick and card.suit is not trick[0].suit and any(c.suit is trick[0].suit for c in hand):
            raise IllegalActionError(
                f"{_SEATS[seat]} must follow suit to {trick[0].code} and cannot play {card.code}.",
                reason="must-follow",
                card=card.code,
                seat=_SEATS[seat],
            )
        hand.remove(card)
        trick.append(card)
        if len(trick) == 4:
            leader = (leader + trick_winner(trick, trump)) % 4
            trick = []


def _after(solver: Solver, position: Position, before: int, seat: int) -> int:
    """Return N-S's double-dummy total after ``seat``'s card, whose side could have kept
    ``before``: a card never gains its own side a trick, so one zero-window search
    settles the usual case of a card that costs nothing."""
    done = position.ns_tricks
    # Costs are mostly a trick or two: walk away from ``before`` one trick at a time.
    if seat % 2 == 0:
        if solver.reaches(position, before - done):
            return before
        hi = before - done - 1
        return done + solver.tricks(position, hi=hi, guess=hi)
    if not solver.reaches(position, before + 1 - done):
        return before
    lo = before + 1 - done
    return done + solver.tricks(position, lo=lo, guess=lo + 1)
