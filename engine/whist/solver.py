"""A double-dummy solver for whist deals in pure Python: how many tricks each side takes
from any position when all four hands are known and every card is played best.

The search answers one question at a time — can North-South take at least ``target`` of the
tricks still to play? — with alpha-beta over the cards of each trick, and finds a position's
value by a few such zero-window questions around a guess (as DDS does). What makes it fast
enough in pure Python:

- A position is one int: seat ``p``'s hand in bits ``64p + 16s + r``, suit ``s`` (clubs 0 …
  spades 3), ``r`` the card's *relative* rank among the cards of that suit still to play.
  Ranks are renumbered after every trick, so two positions that differ only in which small
  cards are gone are the same int, and so the same entry of the transposition table.
- The table, at trick boundaries, keeps bounds on North-South's tricks from there
  (``lower << 4 | upper``: an int, not a list, so that the garbage collector never walks
  the table's millions of entries); it lives as long as the :class:`Solver`, so every
  position of one deal reuses it.
- Cards next to each other in rank in one hand (nothing between them left in play) are
  equal: only one of each run is searched.
- Sure tricks end the search early: the side on lead's top cards it can cash without
  being ruffed (a suit's small cards too once the others are out of it), tricks its long
  trumps must take, and the other side's (its top trumps, its trump length, at no trumps
  the top card of every suit the leader holds).
- Plausible cards go first (winners, cheap overtakes, low cards to partner's winner),
  before them the card that refuted the last similar position (a *killer*: the best lead
  of this very position, else of this hand on lead; inside a trick, of the same trick in
  the same suit layout), which is what mostly decides how many cards a search tries.
"""

from __future__ import annotations

from bisect import bisect
from collections.abc import Callable, Sequence

from engine.cards import Card, Suit

__all__ = ["Position", "Solver", "position_of"]

_SUIT = 0x1FFF  # the 13 rank bits of one suit
_LANE = (1 << 64) - 1  # one seat's 64 bits
_ALL = (1 << 256) - 1

_BITS: tuple[tuple[int, ...], ...] = tuple(
    tuple(r for r in range(13) if m >> r & 1) for m in range(1 << 13)
)
"""The set bits of every 13-bit mask, lowest first."""

_TOPS: tuple[tuple[int, ...], ...] = tuple(
    tuple((s << 4) + r for r in _BITS[m & ~(m >> 1)]) for s in range(4) for m in range(1 << 13)
)
"""At ``s << 13 | m``: the lane bits of the top card of each run of the suit ``s`` holding
``m``, lowest first (one card stands for its whole run)."""


def _removers() -> tuple[tuple[int, int], ...]:
    """Return, for each card bit ``q`` of a lane, the masks that close the gap a card leaves
    in every seat at once: ``(keep, shift)`` with ``H' = H & keep | (H >> 1) & shift``."""
    out = []
    for q in range(64):
        top = (q | 15) - 1  # bit 16s + 14: the lane's bit 16s + 15 is always clear
        span = ((1 << (top + 1)) - 1) ^ ((1 << q) - 1)
        keep = _LANE ^ span ^ (1 << (top + 1))
        keep_all = shift_all = 0
        for p in range(4):
            keep_all |= keep << (64 * p)
            shift_all |= span << (64 * p)
        out.append((keep_all, shift_all))
    return tuple(out)


_REMOVE = _removers()


class Position:
    """A position to solve: the int of the hands (see the module), the seat that led the
    trick in progress, that trick's cards as lane bits, its winner so far and that winner's
    card, and the tricks North-South have taken."""

    __slots__ = ("cards", "hands", "leader", "ns_tricks", "winner", "winning")

    def __init__(
        self,
        hands: int,
        leader: int,
        cards: tuple[int, ...],
        winner: int,
        winning: int,
        ns_tricks: int,
    ) -> None:
        self.hands = hands
        self.leader = leader
        self.cards = cards
        self.winner = winner
        self.winning = winning
        self.ns_tricks = ns_tricks

    @property
    def remaining(self) -> int:
        """Return the tricks still to play, the trick in progress included."""
        return int(((self.hands >> (64 * self.leader)) & _LANE).bit_count()) + (
            1 if self.cards else 0
        )


def position_of(
    hands: Sequence[Sequence[Card]],
    trump: Suit | None,
    leader: int,
    trick: Sequence[Card],
    ns_tricks: int,
) -> Position:
    """Return the :class:`Position` of ``hands`` (N E S W, as held now) with ``trick`` the
    cards played to the trick in progress, led by ``leader``."""
    present: list[list[int]] = [[], [], [], []]
    for hand in hands:
        for card in hand:
            present[card.suit].append(card.rank)
    for card in trick:
        present[card.suit].append(card.rank)
    relative = [{rank: i for i, rank in enumerate(sorted(ranks))} for ranks in present]

    def bit(card: Card) -> int:
        return 16 * int(card.suit) + relative[card.suit][card.rank]

    packed = 0
    for seat, hand in enumerate(hands):
        for card in hand:
            packed |= 1 << (64 * seat + bit(card))
    cards = tuple(bit(card) for card in trick)
    winner, winning = leader, -1
    t = -1 if trump is None else int(trump)
    for i, q in enumerate(cards):
        if i == 0 or _beats(q, winning, t):
            winner, winning = (leader + i) % 4, q
    return Position(packed, leader, cards, winner, winning, ns_tricks)


def _beats(q: int, w: int, trump: int) -> bool:
    """Return whether the card of lane bit ``q`` beats the winning card ``w``."""
    if q >> 4 == w >> 4:
        return q > w
    return q >> 4 == trump


_REPEAT = 1 | 1 << 64 | 1 << 128 | 1 << 192  # a lane mask times this: the same in all four
_FIELD = tuple(_SUIT << (16 * s) for s in range(4))


def _at_least(bit: int) -> int:
    """Return the relevance mask of lane bit ``bit``: it and every higher card of its suit."""
    r = bit & 15
    return ((_SUIT >> r) << r) << (bit & 48)


_ABOVE = tuple(_at_least(q) if q & 15 < 13 else 0 for q in range(64))


def _run_bottom(hand: int, q: int) -> int:
    """Return the lowest card of the run of ``hand`` (lane bits) that ``q`` tops."""
    o = q & 48
    gaps = ~(hand >> o) & ((1 << (q & 15)) - 1)
    return o + gaps.bit_length()


_BELOW = tuple(_FIELD[q >> 4] & ((1 << q) - 1) for q in range(64))
"""At lane bit ``q``: the lane bits of the lower cards of its suit."""


def _lift(relevant: int, trick: int) -> int:
    """Return ``relevant`` (top-down in each suit, ranks after a trick) in the ranks before
    it, ``trick`` the trick's four cards as lane bits: each gap at or below a suit's lowest
    relevant card lifts that suit's relevant cards by one."""
    for c in _bits(trick):
        field = _FIELD[c >> 4]
        if relevant & field and not (relevant << 1) >> c & 1:
            relevant = (relevant & ~field) | (((relevant & field) << 1) & field)
    return relevant


def _bits(mask: int) -> list[int]:
    """Return the set bits of ``mask``, lowest first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def _void_moves(hand: int, trump: int) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
    """Return the cards ``hand`` (lane bits) tries when it cannot follow suit: the lowest
    card of each side suit, longest suit first (the least likely to unguard a card), its
    trumps (one a run), and the other side-suit cards."""
    discards: list[tuple[int, int]] = []
    others: list[int] = []
    ruffs: tuple[int, ...] = ()
    for s in range(4):
        g = (hand >> (s << 4)) & _SUIT
        if not g:
            continue
        tops = _TOPS[s << 13 | g]
        if s == trump:
            ruffs = tops
        else:
            discards.append((g.bit_count(), tops[0]))
            others.extend(tops[1:])
    discards.sort(reverse=True)
    return tuple(q for _, q in discards), ruffs, tuple(others)


def _cashable(
    me: int,
    lho: int,
    rho: int,
    partner: int,
    union: int,
    trump: int,
    lho_ruffs: int,
    rho_ruffs: int,
) -> tuple[int, int]:
    """Return the tricks ``me`` can cash from the top on lead without being ruffed, and the
    cards that count depends on."""
    quick = 0
    sure = 0
    for s in range(4):
        o = s << 4
        f = (me >> o) & _SUIT
        if not f:
            continue
        a = (union >> o) & _SUIT
        length = a.bit_length()
        top = length - (a ^ f).bit_length()
        if top:
            count = _long(top, f, lho >> o, rho >> o, partner >> o)
            if s != trump and trump >= 0:
                if lho_ruffs:
                    count = min(count, ((lho >> o) & _SUIT).bit_count())
                if rho_ruffs:
                    count = min(count, ((rho >> o) & _SUIT).bit_count())
            if count:
                quick += count
                sure |= _ABOVE[o + length - top]
    return quick, sure


def _long(top: int, f: int, lho: int, rho: int, partner: int) -> int:
    """Return the tricks a hand holding ``f`` of a suit, its ``top`` cards the highest in
    play, cashes there while it keeps the lead and nobody ruffs: all of them when every
    other hand (suit bits in their low 13) is out of the suit by then, else the top ones.
    Depends only on the top cards' owner and the suit lengths (in the table's key)."""
    if (
        top >= (lho & _SUIT).bit_count()
        and top >= (rho & _SUIT).bit_count()
        and top >= (partner & _SUIT).bit_count()
    ):
        return int(f.bit_count())
    return top


def _trump_tricks(mine: int, partner: int, theirs: int, o: int) -> tuple[int, int]:
    """Return tricks a side is sure to take with trumps (``mine`` and ``partner`` its two
    hands' trumps, ``theirs`` the other side's, suit bits; ``o`` the trump suit's lane
    offset), and the cards that depends on: the run of top trumps in one of its hands, or
    every trump of its longer hand less the other side's trumps (each trick that hand
    trumps in is its side's unless a trump of theirs is in it; lengths only, which the
    table's key holds)."""
    ours = mine | partner
    if not ours:
        return 0, 0
    counted = max(mine.bit_count(), partner.bit_count()) - theirs.bit_count()
    a = ours | theirs
    length = a.bit_length()
    if not ours >> (length - 1):
        return max(counted, 0), 0
    holder = mine if mine >> (length - 1) else partner
    top = length - (a ^ holder).bit_length()
    if counted >= top:
        return counted, 0
    return top, _ABOVE[o + length - top]


def _defended(hands: int, union: int, me: int, leader: int) -> tuple[int, int]:
    """Return the tricks the side not on lead is sure of at no trumps when it holds the
    top card of every suit the leader has (the leader holds none of them), and the cards
    that depends on: one, or one a suit when one hand holds all those top cards."""
    lho = (hands >> (((leader + 1) & 3) << 6)) & _LANE
    rho = (hands >> (((leader + 3) & 3) << 6)) & _LANE
    sure = 0
    suits = 0
    for s in range(4):
        o = s << 4
        if not (me >> o) & _SUIT:
            continue
        top = o + ((union >> o) & _SUIT).bit_length() - 1
        if not ((lho | rho) >> top) & 1:
            return 0, 0
        sure |= 1 << top
        suits += 1
    if not suits:
        return 0, 0
    if sure & lho == sure or sure & rho == sure:
        return suits, _relevant_tops(sure)
    return 1, _relevant_tops(sure)


def _relevant_tops(cards: int) -> int:
    """Return the relevance mask of ``cards``: each with every higher card of its suit."""
    mask = 0
    for s in range(4):
        field = (cards >> (s << 4)) & _SUIT
        if field:
            mask |= _ABOVE[(s << 4) + (field & -field).bit_length() - 1]
    return mask


class Solver:
    """Double-dummy search for one deal's trump suit; keep one per deal so that the
    transposition table serves every position of it.

    Each search step returns ``relevance << 1 | answer``: the answer (North-South reach the
    target) and, as a lane mask, the cards whose owners the answer depends on — in every
    suit the top ones down to some rank (the *winning ranks* of DDS). A position with the
    same suit lengths in every hand and the same owners of those cards has the same answer
    (a card searched for its whole run makes the run relevant down to its bottom), so the
    table stores ``(mask, owners)`` under the lengths and matches by one ``&``.
    """

    __slots__ = ("best", "killer", "leads", "lifts", "nodes", "shuffle", "table", "trump", "voids")

    def __init__(
        self, trump: Suit | None, *, shuffle: Callable[[list[int]], object] | None = None
    ) -> None:
        # Tests pass ``random.Random(seed).shuffle`` to search moves in any order: a sound
        # search gives the same values whatever the order.
        self.shuffle = shuffle
        self.trump = -1 if trump is None else int(trump)
        self.table: dict[int, dict[int, dict[int, int]]] = {}
        self.best: dict[int, int] = {}
        self.killer: dict[int, int] = {}
        self.leads: dict[int, int] = {}
        self.lifts: dict[int, int] = {}
        self.voids: dict[int, tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]] = {}
        self.nodes = 0

    def tricks(
        self, position: Position, *, lo: int = 0, hi: int | None = None, guess: int | None = None
    ) -> int:
        """Return the tricks North-South take from ``position`` on (the trick in progress
        included) with best play by all four hands, known to lie between ``lo`` and
        ``hi``; ``guess`` is where the search starts (a good guess saves searches)."""
        remaining = position.remaining
        hi = remaining if hi is None else min(hi, remaining)
        lo = max(lo, 0)
        g = (lo + hi + 1) // 2 if guess is None else guess
        while lo < hi:
            target = min(max(g, lo + 1), hi)
            if self.reaches(position, target):
                lo = target
                g = target + 1
            else:
                hi = target - 1
                g = target - 1
        return lo

    def reaches(self, position: Position, target: int) -> bool:
        """Return whether North-South take at least ``target`` tricks from ``position``."""
        hands = position.hands
        lengths = 0
        for seat in range(4):
            for s in range(4):
                count = ((hands >> (64 * seat + 16 * s)) & _SUIT).bit_count()
                lengths |= count << (16 * seat + 4 * s)
        if not position.cards:
            return bool(self._lead(hands, lengths, position.leader, target) & 1)
        union = (hands | hands >> 64 | hands >> 128 | hands >> 192) & _LANE
        for q in position.cards:
            union |= 1 << q
        return bool(
            self._follow(
                hands,
                lengths,
                union,
                position.leader,
                len(position.cards),
                position.cards[0] >> 4,
                position.winner,
                position.winning,
                position.cards,
                target,
            )
            & 1
        )

    def _lead(self, hands: int, lengths: int, leader: int, target: int) -> int:
        """The search at a trick boundary: can N-S take ``target`` of the tricks left?"""
        if target <= 0:
            return 1
        shift = leader << 6
        me = (hands >> shift) & _LANE
        n = me.bit_count()
        if target > n:
            return 0
        self.nodes += 1
        if n == 1:
            return self._last(hands, leader)
        key = (lengths << 2) | leader
        bucket = self.table.get(key)
        if bucket is None:
            bucket = self.table[key] = {}
        else:
            # The last mask to answer is tried first: a few general ones answer most.
            for mask, entries in reversed(bucket.items()):
                entry = entries.get(hands & mask)
                if entry is not None:
                    if entry >> 4 >= target:
                        del bucket[mask]
                        bucket[mask] = entries
                        return (mask & _LANE) << 1 | 1
                    if entry & 15 < target:
                        del bucket[mask]
                        bucket[mask] = entries
                        return (mask & _LANE) << 1
        ns = not leader & 1
        trump = self.trump
        union = (hands | hands >> 64 | hands >> 128 | hands >> 192) & _LANE

        # Sure winners of the side on lead: the leader's top cards, cashed while neither
        # opponent can ruff (side suits first, then trumps).
        lho = (hands >> (((leader + 1) & 3) << 6)) & _LANE
        rho = (hands >> (((leader + 3) & 3) << 6)) & _LANE
        if trump >= 0:
            lho_ruffs = (lho >> (trump << 4)) & _SUIT
            rho_ruffs = (rho >> (trump << 4)) & _SUIT
        else:
            lho_ruffs = rho_ruffs = 0
        partner = (hands >> (((leader + 2) & 3) << 6)) & _LANE
        me_lane = leader << 4
        lho_lane = ((leader + 1) & 3) << 4
        partner_lane = ((leader + 2) & 3) << 4
        rho_lane = ((leader + 3) & 3) << 4
        quick = 0
        sure = 0
        winners: list[int] = []
        to_partner: list[int] = []
        lows: list[int] = []
        rest: list[int] = []
        for s in range(4):
            o = s << 4
            f = (me >> o) & _SUIT
            if not f:
                continue
            a = (union >> o) & _SUIT
            length = a.bit_length()
            top = length - (a ^ f).bit_length()
            runs = _TOPS[s << 13 | f]
            if top:
                winners.append(runs[-1])
                runs = runs[:-1]
                suit_lengths = lengths >> (s << 2)
                lho_length = (suit_lengths >> lho_lane) & 15
                rho_length = (suit_lengths >> rho_lane) & 15
                if (
                    top >= lho_length
                    and top >= rho_length
                    and top >= (suit_lengths >> partner_lane) & 15
                ):
                    # The others are out of the suit by then: the small cards win too.
                    count = (suit_lengths >> me_lane) & 15
                else:
                    count = top
                if s != trump and trump >= 0:
                    if lho_ruffs and lho_length < count:
                        count = lho_length
                    if rho_ruffs and rho_length < count:
                        count = rho_length
                if count:
                    quick += count
                    sure |= _ABOVE[o + length - top]
            if runs:
                if ((partner >> o) & _SUIT) >> (length - 1):
                    to_partner.append(runs[0])
                else:
                    lows.append(runs[0])
                rest.extend(runs[1:])
        need = target if ns else n + 1 - target  # the tricks the side on lead wants
        if quick >= need:
            return sure << 1 | ns
        if to_partner:
            # Over to partner's top cards in a suit, then partner cashes all his own.
            cashed, cashed_sure = _cashable(
                partner, lho, rho, me, union, trump, lho_ruffs, rho_ruffs
            )
            if cashed >= need:
                for q in to_partner:
                    if cashed_sure & _FIELD[q >> 4]:
                        return cashed_sure << 1 | ns
        if trump >= 0:
            o = trump << 4
            my_trumps = (me >> o) & _SUIT
            partner_trumps = (partner >> o) & _SUIT
            their_trumps = lho_ruffs | rho_ruffs
            won, won_sure = _trump_tricks(my_trumps, partner_trumps, their_trumps, o)
            if won >= need:
                return won_sure << 1 | ns
            # The highest trumps held in one hand take that many tricks whenever played,
            # and a side without trumps loses every trick the other side trumps in.
            lost, lost_sure = _trump_tricks(lho_ruffs, rho_ruffs, my_trumps | partner_trumps, o)
            if n - lost < need:
                return lost_sure << 1 | (not ns)
        elif not winners:
            # No trumps, and the other side holds the top card of every suit the leader
            # has: whatever is led, they win it, and one of them holding all those top
            # cards cashes each of them in turn.
            lost, lost_sure = _defended(hands, union, me, leader)
            if n - lost < need:
                return lost_sure << 1 | (not ns)

        moves = winners + to_partner + lows + rest
        position = (hands << 2) | leader
        best = self.best.get(position)
        # Else the lead that refuted the last position with this hand on lead.
        general = (me << 4 | target) << 2 | leader
        if best is None:
            best = self.leads.get(general)
            if best is not None and best not in moves:
                best = None
        if best is not None:
            moves.remove(best)
            moves.insert(0, best)
        if self.shuffle is not None:
            self.shuffle(moves)
        follow = self._follow
        relevant = 0
        skip = 0
        for q in moves:
            if skip >> q & 1:
                continue
            r = follow(
                hands ^ (1 << (shift + q)),
                lengths - (1 << ((leader << 4) + ((q >> 4) << 2))),
                union,
                leader,
                1,
                q >> 4,
                leader,
                q,
                (q,),
                target,
            )
            if (r & 1) == ns:
                self.best[position] = q
                self.leads[general] = q
                self._store(
                    bucket, hands, r >> 1, target if ns else -1, target - 1 if not ns else n
                )
                return r
            rel = r >> 1
            if rel >> q & 1:
                # Only the top of q's run was searched, for all of it: a position that
                # shares this answer must hold the whole run too, else its lower cards
                # there may be cards it never searched.
                rel |= _ABOVE[_run_bottom(me, q)]
            relevant |= rel
            if not rel >> q & 1:
                # The answer did not depend on this card's rank: any smaller card of
                # its suit in this hand gives the same answer.
                skip |= _FIELD[q >> 4] & ~rel
        if ns:
            self._store(bucket, hands, relevant, -1, target - 1)
            return relevant << 1
        self._store(bucket, hands, relevant, target, n)
        return relevant << 1 | 1

    @staticmethod
    def _store(
        bucket: dict[int, dict[int, int]], hands: int, relevant: int, lo: int, hi: int
    ) -> None:
        """Record that N-S take between ``lo`` and ``hi`` tricks in every position that
        agrees with ``hands`` on the ``relevant`` cards (and on the suit lengths)."""
        mask = relevant * _REPEAT
        entries = bucket.get(mask)
        if entries is None:
            entries = bucket[mask] = {}
        owners = hands & mask
        entry = entries.get(owners)
        if entry is None:
            entries[owners] = max(lo, 0) << 4 | hi
        else:
            entries[owners] = max(lo, entry >> 4) << 4 | min(hi, entry & 15)

    def _last(self, hands: int, leader: int) -> int:
        """Return whether N-S win the last trick (one card in each hand), with relevance."""
        trump = self.trump
        winner = leader
        w = ((hands >> (leader << 6)) & _LANE).bit_length() - 1
        contested = False
        for k in (1, 2, 3):
            seat = (leader + k) & 3
            q = ((hands >> (seat << 6)) & _LANE).bit_length() - 1
            if q >> 4 == w >> 4:
                contested = True
                if q > w:
                    winner, w = seat, q
            elif q >> 4 == trump:
                winner, w = seat, q
                contested = False
        # A ruff is contested only by another trump, which the loop above already
        # counts; a card beaten or beating in its own suit makes its rank matter.
        relevant = _ABOVE[w] if contested else 0
        return relevant << 1 | (0 if winner & 1 else 1)

    def _follow(
        self,
        hands: int,
        lengths: int,
        union: int,
        leader: int,
        k: int,
        led: int,
        winner: int,
        winning: int,
        cards: tuple[int, ...],
        target: int,
    ) -> int:
        """The search inside a trick: ``k`` cards played, the next seat to play;
        ``union`` holds every card in play at the trick's start (one lane)."""
        seat = (leader + k) & 3
        shift = seat << 6
        hand = (hands >> shift) & _LANE
        trump = self.trump
        ns = not seat & 1
        ours = (winner & 1) == (seat & 1)
        o = led << 4
        f = (hand >> o) & _SUIT
        moves: list[int]
        if f:
            tops = _TOPS[led << 13 | f]
            if ours or winning >> 4 != led:
                moves = list(tops)
            else:
                i = bisect(tops, winning)
                moves = [*tops[:i], *tops[i:]] if k == 1 else [*tops[i:], *tops[:i]]
        else:
            voids = self.voids.get(hand)
            if voids is None:
                voids = self.voids[hand] = _void_moves(hand, trump)
            discards, ruffs, others = voids
            if ruffs and not ours and winning >> 4 == trump:
                i = bisect(ruffs, winning)
                ruffs = (*ruffs[i:], *ruffs[:i])
            moves = [*discards, *ruffs, *others] if ours else [*ruffs, *discards, *others]
        # The card that refuted the last similar position goes first (a killer move):
        # following suit, what counts is the suit's cards in play and the trick so far;
        # discarding or ruffing, the whole hand and the tricks still wanted.
        if f:
            key = (((union >> o) & _SUIT) << 6 | winning) << 2 | (winner - seat) & 3
        else:
            key = ((hand << 6 | winning) << 2 | (winner - seat) & 3) << 4 | target
        key = (key << 4 | k << 2 | seat) << 1 | (not f)
        killer = self.killer.get(key)
        if killer is not None and killer != moves[0] and killer in moves:
            moves.remove(killer)
            moves.insert(0, killer)
        if self.shuffle is not None:
            self.shuffle(moves)
        last = k == 3
        relevant = 0
        lane = seat << 4
        skip = 0
        lead = self._lead
        follow = self._follow
        winning_suit = winning >> 4
        if last:
            # The three cards played so far leave the same gaps whatever the fourth is:
            # close them once, then only the fourth card's gap per move.
            after = ((hands >> (leader << 6)) & _LANE).bit_count()
            base = hands
            fields = 0
            played = 0
            for c in sorted(cards, reverse=True):
                keep, down = _REMOVE[c]
                base = (base & keep) | ((base >> 1) & down)
                fields |= _FIELD[c >> 4]
                played |= 1 << c
            lifts = self.lifts
        for q in moves:
            if skip >> q & 1:
                continue
            if (q > winning) if q >> 4 == winning_suit else (q >> 4 == trump):
                w, wq = seat, q
            else:
                w, wq = winner, winning
            rest_lengths = lengths - (1 << (lane + ((q >> 4) << 2)))
            if last:
                t = target - 1 if not w & 1 else target
                trick = played | 1 << q
                if t <= 0:
                    rel = 0
                    r = 1
                elif t > after:
                    rel = 0
                    r = 0
                else:
                    keep, down = _REMOVE[q - (played & _BELOW[q]).bit_count()]
                    r = lead((base & keep) | ((base >> 1) & down), rest_lengths, w, t)
                    rel = r >> 1
                    part = rel & (fields | _FIELD[q >> 4])
                    if part:
                        # Back to the ranks before the trick (the same lift for the same
                        # relevant cards and the same trick: remembered).
                        lift_key = part << 64 | trick
                        lifted = lifts.get(lift_key)
                        if lifted is None:
                            lifted = lifts[lift_key] = _lift(part, trick)
                        rel = rel ^ part | lifted
                if (trick ^ 1 << wq) & _FIELD[wq >> 4]:
                    rel |= _ABOVE[wq]
                r = rel << 1 | (r & 1)
            else:
                rest = hands ^ (1 << (shift + q))
                r = follow(
                    rest, rest_lengths, union, leader, k + 1, led, w, wq, (*cards, q), target
                )
            if (r & 1) == ns:
                if q != killer:
                    self.killer[key] = q
                return r
            rel = r >> 1
            if rel >> q & 1:
                # Relevant down to the bottom of q's run (as in _run_bottom, inline: hot).
                at = q & 48
                rel |= _ABOVE[at + (~(hand >> at) & ((1 << (q & 15)) - 1)).bit_length()]
            else:
                # The answer did not depend on this card's rank: any smaller card of
                # its suit in this hand gives the same answer.
                skip |= _FIELD[q >> 4] & ~rel
            relevant |= rel
        return relevant << 1 | (not ns)
