"""Whist's messages, built from views only: the public table from the public view, a
player's private hand (with the controls of the decision owed now) from that player's view,
and the end-of-deal summary from a scored deal, public once it is scored.

Hands are N E S W (``engine.whist``); players are the table's seats in join order. A hand is
shown as its position and who holds it: ``North (alice)``, ``North (dummy, bob)`` for a
dummy its partner plays, ``East (dead hand)``.

Controls (the payload of ``bot.ids.control``):

- ``=<action>`` takes the action written ``<action>`` in the engine's notation with ``.``
  for ``:`` (``=QH`` plays ♥Q — from the player's own hand or from the dummy whose turn it
  is —, ``=keep``, ``=exchange``, ``=trump.S``, ``=claim.5``, ``=accept``, ``=reject``);
- ``c`` opens the choice of how many tricks to claim (Double Dummy), ``b`` goes back.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import discord

from bot import ids
from bot.controls import Button, Controls
from bot.game import Rendered, SeatInfo, TableInfo
from bot.i18n import Lang, and_list, t
from bot.pictures import SeatLabel
from engine.cards import Card, Suit
from engine.tricks import legal_cards
from engine.whist import (
    EAST,
    NORTH,
    SEAT_LETTERS,
    SEATS,
    SOUTH,
    WEST,
    Action,
    DealResult,
    Kind,
    Phase,
    WhistView,
    parse_action,
)

__all__ = [
    "COLOUR",
    "action_text",
    "by_suit",
    "deal_message",
    "hand_message",
    "player_name",
    "table_message",
    "trick_hands",
    "trick_lines",
]

COLOUR = discord.Colour(0x1565C0)
SUIT_ORDER = (Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS)
"""Suits as a hand is sorted for reading (colours alternate)."""
TWO_PLAYERS = ("humbug", "two_hand")


# --- words -----------------------------------------------------------------------------


def player_name(
    player: int, seats: Mapping[int, SeatInfo], lang: Lang, *, picture: bool = False
) -> str:
    """Return who player ``player`` is: the member's name, or a computer (for a
    ``picture``, its name without the emoji)."""
    record = seats.get(player)
    if record is None:
        return t(lang, "whist.player", n=player + 1)
    return record.shown(lang, player, picture=picture)


def hand_name(lang: Lang, hand: int) -> str:
    """Return a hand's position: North, East, South, West."""
    return t(lang, f"whist.hand_{SEAT_LETTERS[hand]}")


def suit_name(lang: Lang, suit: Suit) -> str:
    """Return a suit as ``♥ hearts``."""
    return f"{suit.symbol} {t(lang, f'whist.suit_{suit.letter}')}"


class Seating:
    """Who holds each hand: ``seating[h]`` the player sitting at hand ``h`` (``None``: a
    dummy or a dead hand) and ``controllers[h]`` the hand whose player plays it."""

    def __init__(
        self,
        seating: Sequence[int | None],
        controllers: Sequence[int | None],
        seats: Mapping[int, SeatInfo],
        variant: str,
        lang: Lang,
        *,
        picture: bool = False,
    ) -> None:
        self.seating = tuple(seating)
        self.controllers = tuple(controllers)
        self.seats = seats
        self.variant = variant
        self.lang = lang
        self.picture = picture  # names as a picture draws them

    def _player(self, player: int) -> str:
        return player_name(player, self.seats, self.lang, picture=self.picture)

    def decider(self, hand: int) -> int | None:
        """Return the player who plays ``hand``."""
        owner = self.controllers[hand]
        return None if owner is None else self.seating[owner]

    def who(self, hand: int) -> str:
        """Return ``North (alice)``, ``North (dummy, alice)`` or ``East (dead hand)``."""
        lang = self.lang
        name = hand_name(lang, hand)
        player = self.seating[hand]
        if player is not None:
            return f"{name} ({self._player(player)})"
        decider = self.decider(hand)
        if decider is not None:
            return t(lang, "whist.dummy_of", hand=name, who=self._player(decider))
        return t(lang, "whist.dead_hand", hand=name)

    def actor(self, hand: int) -> str:
        """Return who decides for ``hand``: ``alice`` or ``alice (for North)``."""
        lang = self.lang
        decider = self.decider(hand)
        if decider is None:
            return hand_name(lang, hand)
        name = self._player(decider)
        if self.seating[hand] == decider:
            return name
        return t(lang, "whist.for_hand", who=name, hand=hand_name(lang, hand))

    def side(self, side: int) -> str:
        """Return a side as its players (and dummy): ``alice & carol``."""
        lang = self.lang
        hands = (
            ((NORTH,), (SOUTH,)) if self.variant in TWO_PLAYERS else ((NORTH, SOUTH), (EAST, WEST))
        )
        names: list[str] = []
        dummies: list[str] = []
        for hand in hands[side]:
            player = self.seating[hand]
            if player is not None:
                names.append(self._player(player))
            elif self.controllers[hand] is not None:
                dummies.append(t(lang, "whist.dummy"))
        names += dummies
        return " & ".join(names) if names else t(lang, "whist.side", n=side + 1)

    def picture_label(self, hand: int) -> SeatLabel:
        """Return ``hand`` as a picture names it: the hand, and under it who holds it
        (``alice``, ``dummy, alice``, ``dead hand``), so that neither is cut."""
        lang = self.lang
        player = self.seating[hand]
        if player is not None:
            member = self._player(player)
        elif (decider := self.decider(hand)) is not None:
            member = t(lang, "whist.picture_dummy_of", who=self._player(decider))
        else:
            member = t(lang, "whist.picture_dead_hand")
        return SeatLabel(hand_name(lang, hand), member)

    def hands_in_play(self) -> tuple[int, ...]:
        """Return the hands a table shows (two-hand's E and W hold nothing)."""
        return (NORTH, SOUTH) if self.variant == "two_hand" else SEATS


def view_seating(
    view: WhistView, seats: Mapping[int, SeatInfo], lang: Lang, *, picture: bool = False
) -> Seating:
    """Return who holds each hand, as ``view`` says (named as a ``picture`` draws them)."""
    return Seating(view.seating, view.controllers, seats, view.variant, lang, picture=picture)


def by_suit(cards: Iterable[Card]) -> str:
    """Return cards grouped by suit, highest first: ``A♠ 10♠ · Q♥ · 9♣ 2♣``."""
    groups = []
    held = list(cards)
    for suit in SUIT_ORDER:
        suited = sorted((c for c in held if c.suit is suit), key=lambda c: c.rank, reverse=True)
        if suited:
            groups.append(" ".join(map(str, suited)))
    return " · ".join(groups) if groups else "—"


def sorted_hand(cards: Iterable[Card]) -> list[Card]:
    """Return cards in reading order: by suit (♠ ♥ ♦ ♣), highest first."""
    return sorted(cards, key=lambda c: (SUIT_ORDER.index(c.suit), -int(c.rank)))


def action_text(lang: Lang, action: Action | str) -> str:
    """Return an action in words (``QH`` → "Q♥", ``keep`` → "keeps the hand")."""
    if isinstance(action, str):
        action = parse_action(action)
    kind = action.kind
    if kind is Kind.PLAY:
        return str(action.card)
    if kind is Kind.TRUMP:
        return t(lang, "whist.action_trump", suit=suit_name(lang, Suit(action.number)))
    if kind is Kind.CLAIM:
        return t(lang, "whist.action_claim", n=action.number)
    return t(lang, f"whist.action_{kind.name.lower()}")


def _plays(plays: Iterable[tuple[int, Card]], seating: Seating) -> str:
    return " · ".join(f"{seating.who(s)} {c}" for s, c in plays)


def trump_line(view: WhistView, lang: Lang) -> str:
    """Return the trump suit as the view knows it: with the turn-up while it lies face up."""
    if view.trump is None:
        if view.phase is Phase.DECLARE:
            return t(lang, "whist.trump_to_name")
        return ""
    if view.turnup is not None:
        return t(
            lang, "whist.trump_turnup", suit=suit_name(lang, view.trump), card=str(view.turnup)
        )
    return t(lang, "whist.trump", suit=suit_name(lang, view.trump))


def _title(view: WhistView, options: Any, lang: Lang) -> str:
    variant = t(lang, f"whist.variant_{view.variant}")
    if view.phase is Phase.OVER:
        return t(lang, "whist.title_over", variant=variant)
    if view.variant == "english_dummy":
        rubbers = options.rubbers if options.fixed_dummy else 3
        where = t(
            lang,
            "whist.progress_tournee",
            rubber=view.rubber,
            rubbers=rubbers,
            game=view.game,
            deal=view.deal,
        )
    elif view.variant == "mort":
        where = t(
            lang, "whist.progress_mort", game=view.game, games=options.player_count, deal=view.deal
        )
    else:
        where = t(lang, "whist.progress_rubber", game=view.game, deal=view.deal)
    return f"{variant} — {where}"


def trick_lines(view: WhistView, seating: Seating, lang: Lang) -> list[str]:
    """Return the lines of the trick on the table (none outside the play)."""
    if view.phase not in (Phase.PLAY, Phase.CLAIM):
        return []
    number = view.tricks[0] + view.tricks[1] + 1
    lines = []
    if view.trick:
        lines.append(t(lang, "whist.trick", n=number, plays=_plays(view.trick, seating)))
    elif view.to_play is not None:
        lines.append(t(lang, "whist.trick_lead", n=number, who=seating.who(view.to_play)))
    last = view.last_trick
    if last is not None:
        lines.append(
            t(
                lang,
                "whist.last_trick",
                plays=_plays(last.cards, seating),
                who=seating.who(last.winner),
            )
        )
    return lines


def _exchange_line(view: WhistView, seating: Seating, lang: Lang) -> str:
    """Humbug's choices: who has chosen while they are secret; what each chose once both
    are revealed."""
    if view.variant != "humbug":
        return ""
    players = [h for h in (NORTH, SOUTH) if seating.seating[h] is not None]
    if view.phase is Phase.EXCHANGE:
        done = [seating.actor(h) for h in players if view.chosen[h]]
        waiting = [seating.actor(h) for h in players if not view.chosen[h] and h in view.to_act]
        parts = []
        if done:
            parts.append(t(lang, "whist.exchange_chosen", n=len(done), who=and_list(lang, done)))
        if waiting:
            who = and_list(lang, waiting)
            parts.append(t(lang, "whist.exchange_choosing", n=len(waiting), who=who))
        return t(lang, "whist.exchange_status", status="; ".join(parts))
    if view.phase in (Phase.PLAY, Phase.CLAIM):
        said = []
        for h in players:
            choice = view.exchanged[h]
            if choice is not None:
                key = "whist.exchanged_yes" if choice else "whist.exchanged_no"
                said.append(t(lang, key, who=seating.actor(h)))
        return " · ".join(said)
    return ""


def _score_lines(view: WhistView, seating: Seating, lang: Lang) -> list[str]:
    """Return a line per side: its tricks this deal, its score and its games this rubber
    (one line each, not a line per figure: the table fits a screen)."""
    if view.phase is Phase.OVER:
        return []
    lines = []
    for side in (0, 1):
        parts = []
        if view.phase in (Phase.PLAY, Phase.CLAIM):
            parts.append(t(lang, "whist.standing_tricks", n=view.tricks[side]))
        parts.append(t(lang, "whist.standing_score", n=view.score[side]))
        if view.variant != "mort":
            parts.append(t(lang, "whist.standing_games", n=view.games[side]))
        lines.append(t(lang, "whist.standing", side=seating.side(side), parts=" · ".join(parts)))
    return lines


def totals_text(totals: Sequence[int], seats: Mapping[int, SeatInfo], lang: Lang) -> str:
    """Return each player's total: ``alice +8 · bob −4``."""
    shown = " · ".join(f"{player_name(p, seats, lang)} {v:+d}" for p, v in enumerate(totals))
    return t(lang, "whist.totals_line", totals=shown)


# --- the public table ------------------------------------------------------------------


def table_message(info: TableInfo, view: WhistView, rules: str, *, lang: Lang) -> Rendered:
    """Return the public table: who holds each hand (dealer, cards left), the trump, the
    hands on view (dummies), Humbug's choices, a claim, the trick in progress and the last
    one, tricks and score per side, the players' totals and who is awaited."""
    assert view.seat is None, "the table message is built from the public view only"
    seating = view_seating(view, info.seats, lang)
    over = view.phase is Phase.OVER
    lines = []
    for hand in seating.hands_in_play():
        marks = []
        if hand == view.dealer and not over:
            marks.append(t(lang, "whist.dealer"))
        if not over:
            marks.append(t(lang, "whist.cards_left", n=view.counts[hand]))
        lines.append(
            f"**{seating.who(hand)}** — {', '.join(marks)}" if marks else seating.who(hand)
        )
    if view.sitting_out is not None:
        lines.append(t(lang, "whist.sits_out", who=player_name(view.sitting_out, info.seats, lang)))
    parts = ["\n".join(lines)]
    if not over:
        parts.append(trump_line(view, lang))
        shown = [
            f"**{seating.who(h)}:** {by_suit(view.hands[h] or ())}"
            for h in SEATS
            if view.hands[h] is not None
        ]
        parts.append("\n".join(shown))
        parts.append(_exchange_line(view, seating, lang))
        if view.claim is not None:
            claimer, k = view.claim
            parts.append(
                t(
                    lang,
                    "whist.claim_pending",
                    who=seating.actor(claimer),
                    n=k,
                    answer=", ".join(seating.actor(h) for h in view.to_act),
                )
            )
        parts.append("\n".join(trick_lines(view, seating, lang)))
    parts.append("\n".join(_score_lines(view, seating, lang)))
    parts.append(totals_text(view.totals, info.seats, lang))
    if over:
        winners = [player_name(p, info.seats, lang) for p in view.winners]
        parts.append(t(lang, "whist.winners", n=len(winners), names=", ".join(winners)))
    elif view.to_act:
        who = ", ".join(seating.actor(h) for h in view.to_act)
        parts.append(t(lang, "whist.to_act", who=who))
    return table_embed(info, _title(view, info.game_options, lang), parts, rules, over, lang)


def table_embed(
    info: TableInfo, title: str, parts: list[str], footer: str, over: bool, lang: Lang
) -> Rendered:
    """Return a whist table message: ``parts`` (and, while the game goes on, a member's
    turn-time warning) under ``title``, ``footer`` below, and the **My hand** button while
    the game goes on."""
    if info.warned and info.deadline is not None and not over:
        parts.append(
            t(
                lang,
                "render.table_warning",
                n=len(info.warned),
                names=", ".join(player_name(p, info.seats, lang) for p in info.warned),
                deadline=int(info.deadline),
            )
        )
    embed = discord.Embed(
        title=title,
        description="\n\n".join(p for p in parts if p)[:4000],
        colour=COLOUR,
    )
    embed.set_footer(text=footer)
    buttons = Controls()
    if not over:
        buttons.add_item(
            Button(
                label=t(lang, "render.button_my_hand"),
                style=discord.ButtonStyle.primary,
                custom_id=ids.table_button(info.game_id, "hand"),
            )
        )
    return Rendered(content=None, embeds=[embed], view=buttons)


def trick_hands(view: WhistView) -> tuple[int, ...]:
    """Return the hands that play to a trick, in seat order."""
    return (NORTH, SOUTH) if view.variant in TWO_PLAYERS else SEATS


# --- a private hand ----------------------------------------------------------------------


def _payload(action: Action | str) -> str:
    return "=" + str(action).replace(":", ".")


def active_hand(view: WhistView) -> int | None:
    """Return the hand whose cards the player's controls play now: the hand due to play
    when this player decides for it (their own, or a dummy), else their own hand."""
    seat = view.seat
    if seat is None:
        return None
    due = view.to_play
    if view.phase is Phase.PLAY and due is not None and view.controllers[due] == seat:
        return due
    return seat


def playable(view: WhistView) -> frozenset[Card]:
    """Return the cards the player may play now, from whichever hand is due: their own
    (the engine's legal actions) or a dummy they play (following suit, as the engine
    plays it: ``engine.tricks.legal_cards``)."""
    seat = view.seat
    hand = active_hand(view)
    if seat is None or hand is None or view.phase is not Phase.PLAY or view.to_play != hand:
        return frozenset()
    if hand == seat:
        return frozenset(a.card for a in view.legal if a.card is not None)
    cards = view.hands[hand] or ()
    return frozenset(legal_cards(cards, view.led))


def _button(
    label: str, custom_id: str, *, row: int, style: discord.ButtonStyle, disabled: bool = False
) -> Button:
    return Button(label=label, custom_id=custom_id, row=row, style=style, disabled=disabled)


def _prompt(view: WhistView, seating: Seating, pending: str, lang: Lang) -> str:
    seat = view.seat
    assert seat is not None
    legal = view.legal
    kinds = {a.kind for a in legal}
    if pending == "claim" and Kind.CLAIM in kinds:
        left = 13 - view.tricks[0] - view.tricks[1]
        return t(lang, "whist.hand_claim_how_many", n=left)
    if view.phase is Phase.DECLARE and Kind.TRUMP in kinds:
        return t(lang, "whist.hand_declare")
    if view.phase is Phase.EXCHANGE:
        if Kind.KEEP in kinds:
            return t(lang, "whist.hand_exchange")
        own = view.exchanged[seat]
        if own is not None:
            key = "whist.hand_you_exchanged" if own else "whist.hand_you_kept"
            return t(lang, key)
    if view.phase is Phase.CLAIM and view.claim is not None:
        claimer, k = view.claim
        if Kind.ACCEPT in kinds:
            return t(lang, "whist.hand_answer_claim", who=seating.actor(claimer), n=k)
        if view.controllers[claimer] == seat or claimer == seat:
            return t(lang, "whist.hand_claimed", n=k)
    if view.phase is Phase.PLAY and playable(view):
        hand = active_hand(view)
        assert hand is not None
        if hand == seat:
            return t(lang, "whist.hand_play")
        return t(lang, "whist.hand_play_dummy", hand=seating.who(hand))
    if view.to_act and view.phase is not Phase.OVER:
        return t(lang, "whist.hand_wait", who=", ".join(seating.actor(h) for h in view.to_act))
    return ""


def hand_message(
    info: TableInfo,
    view: WhistView,
    turn: int,
    *,
    lang: Lang,
    pending: str = "",
    notice: str | None = None,
    unit: str | None = None,
) -> Rendered:
    """Return the player's private message: their own hand and any dummy they play (each
    labelled whose it is), the hand they gave up (Humbug), the trump, the trick, and the
    controls of the decision they owe now. ``unit`` names what is being played in the
    title (default: the deal, ``deal 3``)."""
    game_id = info.game_id
    lines = [notice] if notice else []
    buttons = Controls()
    grey = discord.ButtonStyle.secondary
    refresh = _button(
        t(lang, "render.button_refresh"), ids.table_button(game_id, "refresh"), row=4, style=grey
    )
    seat = view.seat
    if view.phase is Phase.OVER:
        lines.append(t(lang, "whist.hand_over"))
        return Rendered(content="\n".join(lines), embeds=[], view=buttons)
    if seat is None:  # sitting out this game (Mort with four)
        lines.append(t(lang, "whist.hand_sitting_out"))
        buttons.add_item(refresh)
        return Rendered(content="\n".join(lines), embeds=[], view=buttons)
    assert view.player is not None
    seating = view_seating(view, info.seats, lang)
    lines += _hand_lines(view, seat, seating, unit, lang)
    prompt = _prompt(view, seating, pending, lang)
    if prompt:
        lines.append(f"**{prompt}**")
    _decision_buttons(game_id, view, view.player, turn, pending, buttons, lang)
    buttons.add_item(refresh)
    return Rendered(content="\n".join(lines)[:2000], embeds=[], view=buttons)


def _hand_lines(
    view: WhistView, seat: int, seating: Seating, unit: str | None, lang: Lang
) -> list[str]:
    """Return the hand's lines: the title, the trump, the player's cards and any dummy's
    they play, the hand given up (Humbug) and the trick."""
    where = unit or t(lang, "whist.hand_deal", deal=view.deal)
    title = t(lang, "whist.hand_title", hand=seating.who(seat), where=where)
    lines = [f"**{title}**"]
    trump = trump_line(view, lang)
    if trump:
        lines.append(trump)
    lines.append(t(lang, "whist.hand_yours", cards=by_suit(view.hands[seat] or ())))
    for hand in SEATS:
        if hand != seat and view.controllers[hand] == seat and view.hands[hand] is not None:
            lines.append(
                t(
                    lang,
                    "whist.hand_dummy",
                    hand=seating.who(hand),
                    cards=by_suit(view.hands[hand] or ()),
                )
            )
    if view.discarded is not None:
        lines.append(t(lang, "whist.hand_discarded", cards=by_suit(view.discarded)))
    lines += trick_lines(view, seating, lang)
    return lines


def _decision_buttons(
    game_id: int,
    view: WhistView,
    player: int,
    turn: int,
    pending: str,
    buttons: Controls,
    lang: Lang,
) -> None:
    """Add to ``buttons`` the controls of the decision the player owes now: the tricks to
    claim, the cards of the hand due (and Claim), or the bids and calls."""
    grey, blue = discord.ButtonStyle.secondary, discord.ButtonStyle.primary
    legal = view.legal
    kinds = {a.kind for a in legal}
    control = ids.control
    if pending == "claim" and Kind.CLAIM in kinds:
        for i, action in enumerate(a for a in legal if a.kind is Kind.CLAIM):
            buttons.add_item(
                _button(
                    str(action.number),
                    control(game_id, player, turn, _payload(action)),
                    row=i // 5,
                    style=blue,
                )
            )
        buttons.add_item(
            _button(
                t(lang, "whist.button_back"),
                control(game_id, player, turn, "b"),
                row=3,
                style=grey,
            )
        )
    elif view.phase is Phase.PLAY:
        due = active_hand(view)
        assert due is not None
        can = playable(view)
        for i, card in enumerate(sorted_hand(view.hands[due] or ())):
            buttons.add_item(
                _button(
                    str(card),
                    control(game_id, player, turn, _payload(card.code)),
                    row=i // 5,
                    style=blue if card in can else grey,
                    disabled=card not in can,
                )
            )
        if Kind.CLAIM in kinds:
            buttons.add_item(
                _button(
                    t(lang, "whist.button_claim"),
                    control(game_id, player, turn, "c"),
                    row=3,
                    style=grey,
                )
            )
    else:
        for i, action in enumerate(legal):
            buttons.add_item(
                _button(
                    action_text(lang, action),
                    control(game_id, player, turn, _payload(action)),
                    row=i // 5,
                    style=blue,
                )
            )


# --- the end of a deal ---------------------------------------------------------------------

HONOURS = ("A", "K", "Q", "J")


def _holder(hand: int | None, n: int, seating: Seating, lang: Lang) -> str:
    """Return who held ``n`` honours; honours nobody played lay in the dead hands, and in
    which one stays unsaid: Humbug's dead hands are never shown (rules §4)."""
    if hand is not None:
        return seating.who(hand)
    dead = any(
        seating.seating[h] is None and seating.controllers[h] is None
        for h in seating.hands_in_play()
    )
    return t(lang, "whist.honour_dead_hand", n=n) if dead else "—"


def deal_message(
    number: int,
    result: DealResult,
    holders: Sequence[int | None],
    seating: Seating,
    *,
    lang: Lang,
) -> Rendered:
    """Return the public summary of deal ``number``: trump and dealer, tricks, the honours
    (who held which, announced only now), points, the score, a game or rubber won and the
    players' totals."""
    a, b = seating.side(0), seating.side(1)
    lines = [
        t(
            lang,
            "whist.deal_trump",
            suit=suit_name(lang, result.trump),
            dealer=seating.who(result.dealer),
        ),
        t(lang, "whist.tricks_line", a=a, b=b, ta=result.tricks[0], tb=result.tricks[1]),
    ]
    if seating.variant != "two_hand":
        by_holder: dict[int | None, list[str]] = {}
        for rank, h in zip(HONOURS, holders, strict=False):
            by_holder.setdefault(h, []).append(f"{rank}{result.trump.symbol}")
        held = ", ".join(
            f"{' '.join(cards)}: {_holder(h, len(cards), seating, lang)}"
            for h, cards in by_holder.items()
        )
        lines.append(t(lang, "whist.deal_honours_held", held=held))
        lines.append(
            t(lang, "whist.deal_honours", a=a, b=b, ha=result.honours[0], hb=result.honours[1])
        )
    lines.append(t(lang, "whist.deal_points", a=a, b=b, pa=result.points[0], pb=result.points[1]))
    for side in (0, 1):
        if result.slam[side]:
            lines.append(t(lang, "whist.deal_slam", who=seating.side(side), n=result.slam[side]))
    lines.append(t(lang, "whist.score_line", a=a, b=b, sa=result.score[0], sb=result.score[1]))
    if result.game_winner is not None:
        lines.append(
            t(
                lang,
                "whist.deal_game",
                who=seating.side(result.game_winner),
                value=result.game_value,
            )
        )
    if result.rubber_winner is not None:
        lines.append(
            t(
                lang,
                "whist.deal_rubber",
                who=seating.side(result.rubber_winner),
                value=result.rubber_value,
            )
        )
    lines.append(totals_text(result.totals, seating.seats, lang))
    embed = discord.Embed(
        title=t(lang, "whist.deal_title", n=number), description="\n".join(lines), colour=COLOUR
    )
    return Rendered(content=None, embeds=[embed])
