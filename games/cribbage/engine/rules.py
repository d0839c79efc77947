"""The table: seating modes, how many cards each mode deals, and the rule options a host may pick."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from games.core.engine import Mode, Rejection

WIN = 121  # the game hole
SKUNK = 91  # a loser short of this is skunked ...
DOUBLE_SKUNK = 61  # ... and short of this, double skunked
MAX_CLAIM = 29  # no hand, crib or single peg can be worth more

MODES: dict[int, Mode] = {
    2: Mode(2, "Two players", 2),
    3: Mode(3, "Three players", 3),
    4: Mode(4, "Teams 2 vs 2", 4, 2),
}

COUNTING = ("auto", "manual")
VARIANTS = ("", "D", "N")
# Keys the platform adds to every table's rules; accepted and read, never chosen by the host.
PLATFORM_KEYS = frozenset({"host_seat"})
KEYS = frozenset({"counting", "variants", "first_dealer"}) | PLATFORM_KEYS


class BadRules(Rejection, ValueError):
    """Rule options the engine cannot play. A ``ValueError`` too, which is what the lobby catches."""


@dataclass(frozen=True)
class Deal:
    """How one mode deals: cards to each seat, cards each seat lays away, cards from the deck."""

    hand: int
    discard: int
    from_deck: int


DEALS = {2: Deal(6, 2, 0), 3: Deal(5, 1, 1), 4: Deal(5, 1, 0)}


@dataclass(frozen=True)
class Rules:
    counting: str = "auto"
    variants: str = ""
    first_dealer: int = 0

    @property
    def manual(self) -> bool:
        return self.counting == "manual"

    def as_dict(self) -> dict[str, Any]:
        return {"counting": self.counting, "variants": self.variants, "first_dealer": self.first_dealer}


def mode_for(mode: Mode | int) -> Mode:
    mode_id = mode.id if isinstance(mode, Mode) else mode
    if type(mode_id) is not int or mode_id not in MODES:
        raise BadRules(f"cribbage has no mode {mode_id!r}; modes are 2, 3 and 4")
    if isinstance(mode, Mode) and mode.seats != MODES[mode_id].seats:
        raise BadRules(f"cribbage mode {mode_id} seats {MODES[mode_id].seats}, not {mode.seats}")
    return MODES[mode_id]


def parse_rules(rules: Mapping[str, Any] | None, seats: int) -> Rules:
    """The table's options, checked. The first dealer defaults to the host's seat."""
    rules = dict(rules or {})
    unknown = sorted(set(rules) - KEYS, key=str)
    if unknown:
        raise BadRules(f"unknown cribbage rule options: {unknown}")
    counting = rules.get("counting", "auto")
    if counting not in COUNTING:
        raise BadRules(f"counting is 'auto' or 'manual', not {counting!r}")
    variants = rules.get("variants", "")
    if not isinstance(variants, str) or variants not in VARIANTS:
        raise BadRules(f"variants is '', 'D' or 'N', not {variants!r}")
    host = rules.get("host_seat", 0)
    first = rules.get("first_dealer", host)
    for name, seat in (("host_seat", host), ("first_dealer", first)):
        if type(seat) is not int or not 0 <= seat < seats:
            raise BadRules(f"{name} must be a seat from 0 to {seats - 1}, not {seat!r}")
    return Rules(counting, variants, first)
