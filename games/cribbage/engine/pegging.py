"""The play (pegging): which cards fit under thirty-one, and who plays next."""

from __future__ import annotations

from collections.abc import Sequence

from games.cribbage.engine.cards import RANKS, SUITS, rank_of, value_of

LIMIT = 31


def playable(hand: Sequence[str], count: int) -> list[str]:
    """The cards of ``hand`` that keep the count at 31 or under, in hand order."""
    return [card for card in hand if count + value_of(card) <= LIMIT]


def lowest(cards: Sequence[str]) -> str:
    """The lowest card (by rank, then suit order), the automatic player's choice."""
    return min(cards, key=lambda card: (rank_of(card), SUITS.index(card[1])))


def card_order(card: str) -> tuple[int, int]:
    """Sort key putting a hand in rank order, the way players hold it."""
    return RANKS.index(card[0]), SUITS.index(card[1])
