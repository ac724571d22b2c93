"""A whist table's options (``WhistOptions``), checked when they are made."""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Literal

from engine.errors import OptionsError

__all__ = ["PLAYERS", "VARIANT_NAMES", "Variant", "WhistOptions"]

Variant = Literal["short", "english_dummy", "double_dummy", "humbug", "two_hand", "mort"]
VARIANT_NAMES: tuple[str, ...] = (
    "short",
    "english_dummy",
    "double_dummy",
    "humbug",
    "two_hand",
    "mort",
)
PLAYERS: dict[str, tuple[int, ...]] = {
    "short": (4,),
    "english_dummy": (3,),
    "double_dummy": (2,),
    "humbug": (2,),
    "two_hand": (2,),
    "mort": (3, 4),
}
"""The numbers of players each variant seats, smallest first."""

# The variants each option belongs to; anywhere else it must keep its default.
_OWNERS: dict[str, tuple[str, ...]] = {
    "random_seating": ("short",),
    "fixed_dummy": ("english_dummy",),
    "dummy_player": ("english_dummy",),
    "rubbers": ("english_dummy",),
    "dummy_shown": ("english_dummy", "mort"),
    "open_all": ("double_dummy",),
    "humbug_declared": ("humbug",),
}


@dataclass(frozen=True, slots=True)
class WhistOptions:
    """Which whist is played, and its house rules (``docs/rules/whist.md``).

    ``players``: Mort's 3 or 4 (``None`` = 4); any other variant ``None`` or its own count.
    ``random_seating`` (short): seat the players from the seed. ``fixed_dummy``,
    ``dummy_player``, ``rubbers`` (English Dummy): one named player partners dummy in every
    one of ``rubbers`` rubbers. ``dummy_shown`` (English Dummy, Mort): dummy is spread as soon
    as the deal is made or after the opening lead. ``open_all`` (Double Dummy): all four
    hands on view. ``humbug_declared`` (Humbug): the dealer names trumps, nothing is turned.
    """

    variant: Variant = "short"
    players: int | None = None
    random_seating: bool = False
    fixed_dummy: bool = False
    dummy_player: int = 0
    rubbers: int = 3
    dummy_shown: Literal["on_deal", "after_opening_lead"] = "on_deal"
    open_all: bool = False
    humbug_declared: bool = False

    def __post_init__(self) -> None:
        variant = self.variant
        if variant not in VARIANT_NAMES:
            raise OptionsError(
                f"“{variant}” is not a whist variant: choose one of {', '.join(VARIANT_NAMES)}.",
                reason="variant",
                variant=variant,
            )
        counts = PLAYERS[variant]
        if self.players is not None and (
            type(self.players) is not int or self.players not in counts
        ):
            raise OptionsError(
                f"{variant} is played by {' or '.join(map(str, counts))} players, "
                f"not {self.players}.",
                reason="players",
                players=self.players,
            )
        for name in ("random_seating", "fixed_dummy", "open_all", "humbug_declared"):
            if type(getattr(self, name)) is not bool:
                raise OptionsError(
                    f"The option {name} is on or off (true or false).", reason="option", name=name
                )
        if self.dummy_shown not in ("on_deal", "after_opening_lead"):
            raise OptionsError(
                "dummy_shown is on_deal or after_opening_lead.",
                reason="dummy-shown",
                dummy_shown=self.dummy_shown,
            )
        if type(self.rubbers) is not int or self.rubbers < 1:
            raise OptionsError(
                "A session has at least one rubber.", reason="rubbers", rubbers=self.rubbers
            )
        if type(self.dummy_player) is not int or not 0 <= self.dummy_player <= 2:
            raise OptionsError(
                "dummy_player names one of the three players: 0, 1 or 2.",
                reason="dummy-player",
                dummy_player=self.dummy_player,
            )
        for field in fields(self):
            owners = _OWNERS.get(field.name)
            if owners is None or variant in owners:
                continue
            if getattr(self, field.name) != field.default:
                raise OptionsError(
                    f"The option {field.name} belongs to {' and '.join(owners)}, not {variant}.",
                    reason="other-variant",
                    name=field.name,
                    variant=variant,
                )
        if not self.fixed_dummy and (self.dummy_player != 0 or self.rubbers != 3):
            raise OptionsError(
                "dummy_player and rubbers are set only with fixed_dummy "
                "(otherwise the tournée is three rubbers).",
                reason="fixed-dummy",
            )

    @property
    def player_count(self) -> int:
        """Return how many players these options seat (Mort's ``None`` is 4)."""
        if self.players is not None:
            return self.players
        return PLAYERS[self.variant][-1]
