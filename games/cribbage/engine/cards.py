"""Card codes: two characters, rank then suit ("AH", "0D" is the ten of diamonds, "KS")."""

from __future__ import annotations

RANKS = "A234567890JQK"  # '0' is the ten (the seed's notation); this is also run order, ace low
SUITS = "HDCS"

_RANK = {r: i + 1 for i, r in enumerate(RANKS)}
_VALUE = {r: min(i + 1, 10) for i, r in enumerate(RANKS)}


def rank_of(card: str) -> int:
    """1 (ace) .. 13 (king)."""
    try:
        return _RANK[card[0]]
    except (KeyError, IndexError, TypeError):
        raise ValueError(f"not a card: {card!r}") from None


def value_of(card: str) -> int:
    """The card's value for fifteens and the count: ace 1, 2..9 face value, ten and court cards 10."""
    try:
        return _VALUE[card[0]]
    except (KeyError, IndexError, TypeError):
        raise ValueError(f"not a card: {card!r}") from None


def suit_of(card: str) -> str:
    return card[1]


def is_card(text: object) -> bool:
    return isinstance(text, str) and len(text) == 2 and text[0] in _RANK and text[1] in SUITS


def new_deck() -> list[str]:
    """The 52 cards in a fixed order; the engine shuffles them with its own seeded rng."""
    return [rank + suit for suit in SUITS for rank in RANKS]
