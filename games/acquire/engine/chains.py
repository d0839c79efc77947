"""The seven hotel chains: names, price tiers, share prices and the merger bonuses.

Money is in dollars throughout the engine. Every price and bonus is a multiple of $100, which
is why splitting a bonus rounds up to the next $100.
"""

from __future__ import annotations

from collections.abc import Sequence

from games.acquire.engine.board import NUM_TILES, SAFE_SIZE

CHAIN_NAMES: tuple[str, ...] = (
    "Luxor",
    "Tower",
    "American",
    "Festival",
    "Worldwide",
    "Continental",
    "Imperial",
)
NUM_CHAINS = len(CHAIN_NAMES)
SHARES_PER_CHAIN = 25
END_SIZE = 41  # a chain this big lets the game be declared over
MAX_SHARES_PER_TURN = 3
STARTING_CASH = 6000


def tier(chain: int) -> int:
    """0 for Luxor and Tower, 1 for American, Festival and Worldwide, 2 for the rest."""
    return 0 if chain < 2 else 1 if chain < 5 else 2


def _base_price(size: int) -> int:
    if size <= 0:
        return 0
    if size < SAFE_SIZE:
        return min(size, 6) * 100
    return min((size - 1) // 10 + 6, 10) * 100


# PRICES[chain][size]: looked up on every purchase and valuation, so computed once.
PRICES: tuple[tuple[int, ...], ...] = tuple(
    tuple(_base_price(size) + (100 * tier(chain) if size > 0 else 0) for size in range(NUM_TILES + 1))
    for chain in range(NUM_CHAINS)
)


def share_price(chain: int, size: int) -> int:
    """Price of one share of ``chain`` when it has ``size`` tiles (0 when not on the board)."""
    return PRICES[chain][size]


def _round_up_100(amount: int, ways: int) -> int:
    return -(-amount // (ways * 100)) * 100


def bonuses(holdings: Sequence[int], price: int) -> list[tuple[int, int]]:
    """The majority and minority bonuses for one chain as ``(seat, amount)`` pairs.

    ``holdings[seat]`` is how many shares each seat holds. Recipients come largest holding
    first, then by seat, which is the order the reference records ReceivedBonus messages in.
    Nobody holding any share pays nothing.
    """
    majority = 10 * price
    minority = 5 * price
    ranked = sorted(((-count, seat) for seat, count in enumerate(holdings) if count > 0))
    if not ranked:
        return []
    if len(ranked) == 1:
        return [(ranked[0][1], majority + minority)]
    top = ranked[0][0]
    if ranked[1][0] == top:
        # A tie for first shares both bonuses and leaves no minority.
        tied = [seat for count, seat in ranked if count == top]
        each = _round_up_100(majority + minority, len(tied))
        return [(seat, each) for seat in tied]
    second = ranked[1][0]
    seconds = [seat for count, seat in ranked[1:] if count == second]
    each = _round_up_100(minority, len(seconds))
    return [(ranked[0][1], majority)] + [(seat, each) for seat in seconds]
