"""Choosing what to lay away: the bot's discard, and the automatic player's.

Each way of splitting the hand is valued by the kept hand's score averaged over every starter
that could be cut (the cards not in the hand), plus or minus a rough value of the cards laid away
to the crib, depending on whose crib it is. Deterministic, so ``auto_action`` can use it.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

from games.cribbage.engine.cards import new_deck, rank_of, value_of
from games.cribbage.engine.scoring import hand_points

DECK = tuple(new_deck())


def crib_estimate(cards: Sequence[str]) -> float:
    """What ``cards`` are worth to a crib beyond an average crib: fives, pairs, fifteens, run starts."""
    estimate = 0.0
    for card in cards:
        rank = rank_of(card)
        if rank == 5:
            estimate += 1.5  # a five makes fifteen with any of the sixteen ten-cards
        elif value_of(card) == 10:
            estimate += 0.2
    if len(cards) == 2:
        first, second = cards
        gap = abs(rank_of(first) - rank_of(second))
        if gap == 0:
            estimate += 2.0
        elif gap == 1:
            estimate += 1.0
        elif gap == 2:
            estimate += 0.5
        if value_of(first) + value_of(second) == 15:
            estimate += 2.0
        if first[1] == second[1]:
            estimate += 0.2
    return estimate


def expected_hand(keep: Sequence[str], hand: Sequence[str]) -> float:
    """``keep``'s score averaged over every starter not in ``hand``."""
    starters = [card for card in DECK if card not in hand]
    return sum(hand_points(keep, starter) for starter in starters) / len(starters)


def discard_values(hand: Sequence[str], lay_away: int, own_crib: bool) -> list[tuple[float, list[str]]]:
    """(value, cards to lay away) for every way to lay away ``lay_away`` cards, in combination order."""
    sign = 1.0 if own_crib else -1.0
    values = []
    for away in combinations(hand, lay_away):
        keep = [card for card in hand if card not in away]
        values.append((expected_hand(keep, hand) + sign * crib_estimate(away), list(away)))
    return values


def best_discard(hand: Sequence[str], lay_away: int, own_crib: bool) -> list[str]:
    """The cards to lay away; ties go to the first in combination order."""
    values = discard_values(hand, lay_away, own_crib)
    best_value, best = values[0]
    for value, away in values[1:]:
        if value > best_value + 1e-9:
            best_value, best = value, away
    return best
