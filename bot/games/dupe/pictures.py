"""Dupe's pictures, as PNG bytes: a revealed trick, a deal's scoring, a member's own hand,
and the rules' worked scoring example; drawn with the kit (:mod:`bot.pictures`).

Pure: no I/O. Their words come from the message catalogue (``bot/locales/dupe.toml``,
seat names from ``common.toml``) in the language asked for, ``lang="en"`` or ``"de"``.
A seat is labelled with its suit and name (``♣ South``) and, below, the member (or
computer player) in it; the text message beside a picture says everything it shows.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from PIL import Image, ImageDraw

from bot.games.dupe.words import score_text, sequence_text
from bot.i18n import Lang, seat_name, t
from bot.pictures import (
    CARD_H,
    CARD_W,
    FELT_DARK,
    GOLD,
    GOLD_INK,
    INDEX_X,
    MARGIN,
    MUTED,
    TEXT,
    Caption,
    Colour,
    SeatLabel,
    draw_row,
    draw_text,
    fit_text,
    make_palette,
    new_canvas,
    outline_card,
    place_card,
    png,
    row_positions,
    seat_label,
    shared_palette,
    shrink_to_fit,
    text_width,
    trick_canvas,
    wrap_text,
)
from bot.pictures import hand_canvas as _kit_hand_canvas
from engine.cards import Card, Rank, by_suit, parse_cards
from engine.dupe import SEAT_NAMES, SEAT_SUITS, DealResult, score_hand

__all__ = [
    "RULES_EXAMPLE",
    "hand_picture",
    "rules_example_caption",
    "rules_example_picture",
    "scoring_picture",
    "seat_label_of",
    "trick_picture",
]


def seat_label_of(lang: Lang, seat: int, seat_names: Sequence[str]) -> SeatLabel:
    """Return how a seat is named: its suit and name (``♣ Süd``), then the member in it
    (nothing when ``seat_names`` only gives the seat's own name)."""
    member = seat_names[seat] if seat < len(seat_names) else ""
    return seat_label(
        seat_name(lang, seat), member, mark=SEAT_SUITS[seat], repeats=(SEAT_NAMES[seat],)
    )


def trick_picture(
    cards: Sequence[Card],
    seat_names: Sequence[str] = SEAT_NAMES,
    taker: int | None = None,
    received: Sequence[Card] | None = None,
    *,
    lang: Lang = "en",
) -> bytes:
    """Return a PNG of a revealed trick: the four cards in seat order, each seat's name
    under its card, the taker's card outlined and labelled "TAKES" (or a line saying nobody
    takes it), and (when given) the card each seat received; its words in ``lang``.

    ``seat_names[seat]`` is the member (or computer player) in that seat; it is shown under
    the seat's own name, North, East, South or West.
    """
    return png(_trick_canvas(cards, seat_names, taker, received, lang), shared_palette())


def _trick_canvas(
    cards: Sequence[Card],
    seat_names: Sequence[str],
    taker: int | None,
    received: Sequence[Card] | None,
    lang: Lang = "en",
) -> Image.Image:
    if len(cards) != 4:
        raise ValueError(f"a trick has four cards, not {len(cards)}")
    if received is not None and len(received) != 4:
        raise ValueError(f"a trick gives four cards, not {len(received)}")
    gets = t(lang, "dupe.gets")
    return trick_canvas(
        cards,
        [seat_label_of(lang, seat, seat_names) for seat in range(4)],
        highlight=taker,
        badge=t(lang, "dupe.takes"),
        captions=None if received is None else [Caption(gets, card) for card in received],
        note=t(lang, "dupe.nobody_takes") if taker is None else "",
    )


def scoring_picture(
    result: DealResult, seat_names: Sequence[str] = SEAT_NAMES, *, lang: Lang = "en"
) -> bytes:
    """Return a PNG of a deal's scoring: for each seat its won hand grouped by suit (♠ ♥ ♣
    ♦, the order ties for the longest suit are broken in), the breakdown in the rules'
    notation (:func:`bot.words.score_text`) and whom the hand is credited to. The deal's
    title and the totals are the post's text, not repeated here. Its words are in ``lang``."""
    return png(_scoring_canvas(result, seat_names, lang), shared_palette())


def _scoring_canvas(
    result: DealResult, seat_names: Sequence[str], lang: Lang = "en"
) -> Image.Image:
    # Wide rather than tall: Discord scales a picture to the message's width, and the
    # post (its text, this picture and its Details button) must fit one screen.
    width = 1000
    inner = width - 2 * MARGIN
    head_h, row_h, foot_h, sep = 52, CARD_H + 14, 50, 14
    section = head_h + row_h + foot_h + sep
    height = MARGIN + 4 * section - sep + MARGIN
    canvas = new_canvas(width, height)
    draw = ImageDraw.Draw(canvas)
    credited_to = t(lang, "dupe.credited_to")
    y = MARGIN
    for owner in range(4):
        holder = next(s for s in range(4) if result.dupe(s) == owner)
        holder_name = seat_name(lang, holder)
        draw.rounded_rectangle(
            (MARGIN - 10, y, width - MARGIN + 10, y + section - sep), radius=14, fill=FELT_DARK
        )
        label = seat_label_of(lang, owner, seat_names)
        head = y + 40
        end = draw_text(canvas, (MARGIN + 6, head), label.name, 34, TEXT, bold=True)
        right = width - MARGIN - 6
        draw_text(canvas, (right, head), holder_name, 34, GOLD, anchor="right", bold=True)
        credit_x = right - text_width(holder_name, 34, bold=True) - 10
        draw_text(canvas, (credit_x, head), credited_to, 28, MUTED, anchor="right")
        if label.member:
            room = credit_x - text_width(credited_to, 28) - end - 40
            draw_text(canvas, (end + 14, head), fit_text(label.member, 28, room), 28, MUTED)
        won = sorted(result.won[owner], key=by_suit)
        if won:
            draw_row(canvas, won, MARGIN + 6, y + head_h + 4, inner - 12, 55)
        else:
            no_cards = t(lang, "dupe.no_cards_won")
            draw_text(canvas, (MARGIN + 6, y + head_h + row_h // 2), no_cards, 28, MUTED)
        base = y + head_h + row_h + 36
        breakdown = score_text(result.scores[owner], lang)
        size = shrink_to_fit(breakdown, 34, inner - 12, bold=True)
        bold = size >= 30
        if not bold:
            size = shrink_to_fit(breakdown, 34, inner - 12)
        draw_text(canvas, (MARGIN + 6, base), breakdown, size, TEXT, bold=bold)
        y += section
    return canvas


def hand_picture(cards: Sequence[Card], *, lang: Lang = "en") -> bytes:
    """Return a PNG of a hand, sorted as the hand message sorts it (♠ ♥ ♣ ♦, high first),
    the cards overlapping left to right with a gap between suits (an empty hand says so,
    in ``lang``)."""
    return png(_hand_canvas(cards, lang), shared_palette())


def _hand_canvas(cards: Sequence[Card], lang: Lang = "en") -> Image.Image:
    return _kit_hand_canvas(sorted(cards, key=by_suit), lang=lang)


# --------------------------------------------------------------------------------------
# The rules' worked example

RULES_EXAMPLE: tuple[Card, ...] = tuple(parse_cards("JS 10S 4S QH 10H 5H AC 4C AD KD 10D 8D 4D"))
"""The won hand of the third worked example in the rules ("Scoring a won hand"):
♠J 10 4 ♥Q 10 5 ♣A 4 ♦A K 10 8 4, which scores 5♦ × 5 (10–A) + 6 (4s) = 31."""

_SKY: Colour = (120, 200, 255)  # the set's mark, beside the sequence's gold


class _Example:
    """What the rules example shows, worked out by the engine's scoring."""

    def __init__(self, cards: Sequence[Card]) -> None:
        self.cards = sorted(cards, key=by_suit)
        self.score = score = score_hand(self.cards)
        # The sequence uses one card of each of its ranks; the one drawn as used is in the
        # longest suit when there is one there (the score does not depend on which).
        self.in_sequence: list[Card] = []
        for rank in score.sequence:
            holding = [card for card in self.cards if card.rank == rank]
            preferred = [card for card in holding if card.suit == score.longest_suit]
            self.in_sequence.append((preferred or holding)[0])
        scoring_ranks = {rank for rank, _ in score.sets}
        self.in_sets = [
            card
            for card in self.cards
            if card.rank in scoring_ranks and card not in self.in_sequence
        ]
        self.idle: list[Rank] = sorted(
            {
                card.rank
                for card in self.cards
                if card.rank not in scoring_ranks
                and sum(other.rank == card.rank for other in self.cards) >= 3
            },
            reverse=True,
        )

    def hand_text(self) -> str:
        """Return the hand as the rules write it: ``♠J 10 4 ♥Q 10 5 …``."""
        groups: list[str] = []
        for suit in dict.fromkeys(card.suit for card in self.cards):
            ranks = " ".join(card.rank.symbol for card in self.cards if card.suit == suit)
            groups.append(f"{suit.symbol}{ranks}")
        return " ".join(groups)

    def parts(self, lang: Lang) -> list[tuple[str, Colour, list[str]]]:
        """Return L, S and B: each its heading (``L = 5``), colour and sentences."""
        score = self.score
        sequence = sequence_text(score, lang)
        if score.sets:
            sets = ", ".join(
                t(lang, f"dupe.rules_set_{count}", rank=rank.symbol) for rank, count in score.sets
            )
        else:
            sets = t(lang, "dupe.rules_no_sets")
        bonus = [t(lang, "dupe.rules_b", sets=sets)]
        bonus += [t(lang, "dupe.rules_idle", rank=rank.symbol) for rank in self.idle]
        return [
            (
                f"L = {score.suit_length}",
                TEXT,
                [t(lang, "dupe.rules_l", suit=score.longest_suit.symbol)],
            ),
            (
                f"S = {score.sequence_length}",
                GOLD,
                [t(lang, "dupe.rules_s", sequence=sequence)],
            ),
            (f"B = {score.bonus}", _SKY, bonus),
        ]


def rules_example_caption(lang: Lang = "en") -> str:
    """Return the rules example as text, for beside (or instead of) its picture: the hand,
    what L, S and B are in it, and its score in the rules' notation."""
    example = _Example(RULES_EXAMPLE)
    lines = [t(lang, "dupe.rules_caption", hand=example.hand_text())]
    for head, _, sentences in example.parts(lang):
        lines.append(f"{head}: {' '.join(sentences)}")
    lines.append(t(lang, "dupe.rules_score", breakdown=score_text(example.score, lang)))
    return "\n".join(lines)


def rules_example_picture(lang: Lang = "en") -> bytes:
    """Return a PNG of the rules' third worked example: the won hand grouped by suit as a
    scoring picture draws it, the longest suit (L) bracketed, the cards of the sequence (S)
    outlined in gold and those of the set that earns the bonus (B) in blue, each also
    tagged with its letter; then what L, S and B are, in ``lang``, and the breakdown.

    The picture never changes, so each language's is drawn once."""
    return _rules_png(lang)


@lru_cache(maxsize=2)
def _rules_png(lang: Lang) -> bytes:
    return png(_rules_canvas(lang), _rules_palette())


@lru_cache(maxsize=1)
def _rules_palette() -> Image.Image:
    """Return the rules example's own palette (it has a colour the others lack; adding it
    to the shared palette would change every other picture's pixels)."""
    return make_palette(_rules_canvas("en"), _rules_canvas("de"))


def _rules_canvas(lang: Lang) -> Image.Image:
    example = _Example(RULES_EXAMPLE)
    score = example.score
    width = 900
    inner = width - 2 * MARGIN
    head_w, body_size, line_h = 120, 28, 36
    parts = [
        (head, colour, [wrap_text(text, body_size, inner - head_w) for text in sentences])
        for head, colour, sentences in example.parts(lang)
    ]
    title_y = MARGIN + 36
    formula_y = title_y + 46
    bracket_y = formula_y + 58  # the L label's baseline; the bracket is under it
    cards_y = bracket_y + 26
    tags_y = cards_y + CARD_H + 44
    text_y = tags_y + 58
    captions_h = sum(
        sum(len(lines) for lines in paragraphs) * line_h + 14 for _, _, paragraphs in parts
    )
    box_y = text_y + captions_h
    height = box_y + 64 + MARGIN
    canvas = new_canvas(width, height)
    draw = ImageDraw.Draw(canvas)

    title = t(lang, "dupe.rules_title")
    size = shrink_to_fit(title, 38, inner, bold=True)
    draw_text(canvas, (MARGIN, title_y), title, size, TEXT, bold=True)
    draw_text(canvas, (MARGIN, formula_y), t(lang, "dupe.rules_formula"), 30, MUTED)

    lefts = row_positions(example.cards, MARGIN + 6, inner - 12, 58)
    longest = [i for i, card in enumerate(example.cards) if card.suit == score.longest_suit]
    if longest:
        x0, x1 = lefts[longest[0]], lefts[longest[-1]] + CARD_W
        line_y = bracket_y + 10
        draw.rectangle((x0, line_y, x1, line_y + 2), fill=TEXT)
        draw.rectangle((x0, line_y, x0 + 2, line_y + 12), fill=TEXT)
        draw.rectangle((x1 - 2, line_y, x1, line_y + 12), fill=TEXT)
        label = f"L = {score.suit_length}{score.longest_suit.symbol}"
        draw_text(canvas, ((x0 + x1) // 2, bracket_y), label, 28, TEXT, anchor="centre", bold=True)

    marks: dict[Card, tuple[str, Colour]] = {card: ("B", _SKY) for card in example.in_sets}
    marks.update({card: ("S", GOLD) for card in example.in_sequence})
    for card, x in zip(example.cards, lefts, strict=True):
        mark = marks.get(card)
        if mark is not None:
            outline_card(canvas, x, cards_y, mark[1])
        place_card(canvas, card, x, cards_y)
    for card, x in zip(example.cards, lefts, strict=True):
        mark = marks.get(card)
        if mark is not None:
            letter, colour = mark
            centre = x + INDEX_X
            draw.rounded_rectangle(
                (centre - 17, tags_y - 30, centre + 17, tags_y + 6), radius=8, fill=colour
            )
            draw_text(canvas, (centre, tags_y), letter, 26, GOLD_INK, anchor="centre", bold=True)

    y = text_y
    for head, colour, paragraphs in parts:
        draw_text(canvas, (MARGIN + 6, y), head, 30, colour, bold=True)
        for n, lines in enumerate(paragraphs):
            for line in lines:
                shade = TEXT if n == 0 else MUTED
                draw_text(canvas, (MARGIN + head_w, y), line, body_size, shade)
                y += line_h
        y += 14

    draw.rounded_rectangle(
        (MARGIN - 10, box_y - 8, width - MARGIN + 10, box_y + 56), radius=14, fill=FELT_DARK
    )
    breakdown = score_text(score, lang)
    size = shrink_to_fit(breakdown, 34, inner - 12, bold=True)
    draw_text(canvas, (MARGIN + 6, box_y + 36), breakdown, size, TEXT, bold=True)
    return canvas
