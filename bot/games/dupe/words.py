"""Dupe's scoring notation in words of the reader's language: ``5♦ × 5 (10–A) + 6 (4s) = 31``."""

from __future__ import annotations

from bot.i18n import Lang, t
from engine.dupe import HandScore

__all__ = ["score_text", "sequence_text"]


def sequence_text(score: HandScore, lang: Lang) -> str:
    """Return a won hand's sequence as the rules write it (``10–A``), or "no sequence"."""
    if not score.sequence:
        return t(lang, "dupe.no_sequence")
    return f"{score.sequence[0].symbol}–{score.sequence[-1].symbol}"


def score_text(score: HandScore, lang: Lang = "en") -> str:
    """Return a won hand's breakdown in the rules' notation, ``5♦ × 5 (10–A) + 6 (4s) =
    31``, its words in ``lang`` (the English is ``str(score)``, the engine's)."""
    text = (
        f"{score.suit_length}{score.longest_suit.symbol} × {score.sequence_length}"
        f" ({sequence_text(score, lang)}) + {score.bonus}"
    )
    if score.sets:
        parts = [t(lang, f"dupe.set_{count}", rank=rank.symbol) for rank, count in score.sets]
        text += f" ({', '.join(parts)})"
    return f"{text} = {score.total}"
