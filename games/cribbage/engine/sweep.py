"""The distribution of hand scores over all 12,994,800 hand + starter combinations (C(52,4) * 48).

Calling ``score_hand`` 13 million times takes minutes in Python, so ``distribution`` counts the same
combinations in classes whose members provably score the same, using the two parts
``score_hand`` is the sum of (``scoring.rank_points`` and ``scoring.suit_points``):

1. Every starter (all 52, no suit symmetry is assumed) and every multiset of four hand ranks
   (1,820 of them; a multiset holding the starter's rank four times has no hands and is skipped).
   All hands with that starter and those hand ranks have the same five ranks, so the same rank part:
   ``rank_points`` is called on them once.
2. Their suit part (flush, nobs) depends on the cards only through which suits each hand rank takes.
   Those hands are enumerated concretely (choose k of the suits for a rank held k times, excluding
   the starter's suit for the starter's rank) and ``suit_points`` scores each one, giving an exact
   count of hands per suit-part score.
3. That count is the same for two rank multisets related by a relabelling of ranks that keeps
   jacks as jacks and the starter's rank as the starter's rank (``suit_points`` looks at ranks only to
   spot jacks, and which suits are free depends only on the starter's rank). So step 2 is done once
   per *shape* (for each hand rank: how many cards, is it the jack, is it the starter's rank; plus
   the starter's suit, whether the starter is a jack, and crib or hand), memoized.

The weights are exact integer counts of concrete hands; their sum is checked to be 249,900 per
starter. ``brute_force_distribution`` enumerates concrete hands through ``score_hand`` itself, for
cross-checking this on a few starters.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from itertools import combinations, combinations_with_replacement, product

from games.cribbage.engine.cards import RANKS, SUITS, new_deck, rank_of
from games.cribbage.engine.scoring import rank_points, score_hand, suit_points

COMBINATIONS = 12_994_800  # C(52, 4) * 48
HANDS_PER_STARTER = 249_900  # C(51, 4)
JACK = rank_of("JH")

# Each multiset of four hand ranks, with how often each rank occurs.
_MULTISETS = [(ranks, Counter(ranks)) for ranks in combinations_with_replacement(range(1, 14), 4)]

Shape = tuple[str, bool, bool, tuple[tuple[int, bool, bool], ...]]


def _suit_part_counts(counts: Counter[int], starter: str, crib: bool) -> Counter[int]:
    """For the hands with these rank counts and this starter: how many score each suit part."""
    starter_rank, starter_suit = rank_of(starter), starter[1]
    choices = []
    for rank, k in counts.items():
        free = [suit for suit in SUITS if not (rank == starter_rank and suit == starter_suit)]
        choices.append([[RANKS[rank - 1] + suit for suit in picked] for picked in combinations(free, k)])
    tally: Counter[int] = Counter()
    for picks in product(*choices):
        hand = [card for cards in picks for card in cards]
        tally[suit_points(hand, starter, crib)] += 1
    return tally


def _shape(counts: Counter[int], starter: str, crib: bool) -> Shape:
    starter_rank = rank_of(starter)
    per_rank = tuple(sorted((k, rank == JACK, rank == starter_rank) for rank, k in counts.items()))
    return (starter[1], starter_rank == JACK, crib, per_rank)


def starter_distribution(
    starter: str, crib: bool = False, memo: dict[Shape, Counter[int]] | None = None
) -> Counter[int]:
    """Score -> number of 4-card hands (of the 51 other cards) scoring it with ``starter``.

    ``memo`` carries the suit-part counts per shape between calls (``distribution`` shares one).
    """
    memo = {} if memo is None else memo
    starter_rank = rank_of(starter)
    result: Counter[int] = Counter()
    for ranks, counts in _MULTISETS:
        if counts[starter_rank] == 4:
            continue  # the starter is one of those four cards
        shape = _shape(counts, starter, crib)
        suit_counts = memo.get(shape)
        if suit_counts is None:
            suit_counts = memo[shape] = _suit_part_counts(counts, starter, crib)
        base = rank_points(tuple(sorted((*ranks, starter_rank))))
        for points, weight in suit_counts.items():
            result[base + points] += weight
    if sum(result.values()) != HANDS_PER_STARTER:
        raise AssertionError(f"{starter}: counted {sum(result.values())} hands, not {HANDS_PER_STARTER}")
    return result


def distribution(crib: bool = False) -> dict[int, int]:
    """Score -> number of (hand, starter) combinations scoring it, over all 12,994,800 of them."""
    memo: dict[Shape, Counter[int]] = {}
    total: Counter[int] = Counter()
    for starter in new_deck():
        total.update(starter_distribution(starter, crib, memo))
    return dict(sorted(total.items()))


def brute_force_distribution(starters: Iterable[str], crib: bool = False) -> dict[int, int]:
    """The same count by calling ``score_hand`` on every 4-card hand for each starter given."""
    total: Counter[int] = Counter()
    for starter in starters:
        rest = [card for card in new_deck() if card != starter]
        for hand in combinations(rest, 4):
            total[score_hand(hand, starter, crib)[0]] += 1
    return dict(sorted(total.items()))
