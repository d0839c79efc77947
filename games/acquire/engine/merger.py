"""A merger in progress: who made it, which chains merge, and where disposal has got to.

A merger is decided in steps (survivor, disposal order, each holder's disposal), so its
progress is kept here between actions.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any


def size_groups(chains: Sequence[int], sizes: Sequence[int]) -> list[list[int]]:
    """``chains`` grouped by size, largest group first, chain order kept inside a group."""
    by_size: dict[int, list[int]] = {}
    for chain in chains:
        by_size.setdefault(sizes[chain], []).append(chain)
    return [by_size[size] for size in sorted(by_size, reverse=True)]


def holders_in_turn_order(maker: int, holdings: Sequence[int]) -> list[int]:
    """Seats holding shares, in turn order starting with the merger maker."""
    seats = len(holdings)
    order = [(maker + k) % seats for k in range(seats)]
    return [seat for seat in order if holdings[seat] > 0]


@dataclass(slots=True)
class Merger:
    maker: int
    tile: int
    chains: list[int]  # every chain the tile joins, in chain order
    groups: list[list[int]]  # the same chains grouped by pre-merger size, largest first
    prices: dict[int, int]  # pre-merger share price of each merging chain
    survivor: int | None = None
    pending_groups: list[list[int]] = field(default_factory=list)  # size groups still to dispose
    choosing: list[int] = field(default_factory=list)  # defunct chains of the current size group
    disposing: int | None = None  # the defunct chain being disposed of now
    holders: list[int] = field(default_factory=list)  # seats still to dispose of ``disposing``

    @property
    def candidates(self) -> list[int]:
        """The chains that may survive: the largest size group."""
        return self.groups[0]

    def copy(self) -> Merger:
        return Merger(
            self.maker,
            self.tile,
            self.chains[:],
            [g[:] for g in self.groups],
            dict(self.prices),
            self.survivor,
            [g[:] for g in self.pending_groups],
            self.choosing[:],
            self.disposing,
            self.holders[:],
        )

    def describe(self) -> dict[str, Any]:
        return {
            "maker": self.maker,
            "tile": self.tile,
            "chains": self.chains[:],
            "candidates": self.groups[0][:],
            "prices": {str(c): p for c, p in sorted(self.prices.items())},
            "survivor": self.survivor,
            "pending_groups": [g[:] for g in self.pending_groups],
            "choosing": self.choosing[:],
            "disposing": self.disposing,
            "holders": self.holders[:],
        }
