"""Final valuation, ranking and team totals."""

from __future__ import annotations

from collections.abc import Sequence

from games.acquire.engine.chains import NUM_CHAINS, PRICES, bonuses


def net_worths(sizes: Sequence[int], cash: Sequence[int], shares: Sequence[Sequence[int]]) -> list[int]:
    """Cash plus, for each chain on the board, shares at its price and the bonuses it would pay.

    Shares of a chain that is not on the board (defunct and never refounded) are worth nothing.
    """
    worth = list(cash)
    for chain in range(NUM_CHAINS):
        size = sizes[chain]
        if size <= 0:
            continue
        price = PRICES[chain][size]
        holdings = [row[chain] for row in shares]
        for seat, count in enumerate(holdings):
            worth[seat] += count * price
        for seat, amount in bonuses(holdings, price):
            worth[seat] += amount
    return worth


def ranks(scores: Sequence[int]) -> list[int]:
    """1 for the best score; equal scores share a rank (1, 1, 3)."""
    return [1 + sum(1 for other in scores if other > score) for score in scores]


def team_totals(scores: Sequence[int], teams: int) -> list[int]:
    """Team ``t`` is every seat ``s`` with ``s % teams == t`` (teammates sit alternately)."""
    totals = [0] * teams
    for seat, score in enumerate(scores):
        totals[seat % teams] += score
    return totals
