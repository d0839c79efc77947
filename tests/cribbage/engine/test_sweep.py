"""The issue's acceptance criterion: the published distribution of all 12,994,800 hand + starter scores."""

from collections import Counter
from itertools import combinations

import pytest

from games.cribbage.engine.cards import RANKS, SUITS, new_deck
from games.cribbage.engine.scoring import score_hand
from games.cribbage.engine.sweep import (
    COMBINATIONS,
    HANDS_PER_STARTER,
    brute_force_distribution,
    distribution,
    starter_distribution,
)

PUBLISHED = {
    0: 1_009_008, 1: 99_792, 2: 2_813_796, 3: 505_008, 4: 2_855_676, 5: 697_508, 6: 1_800_268, 7: 751_324,
    8: 1_137_236, 9: 361_224, 10: 388_740, 11: 51_680, 12: 317_340, 13: 19_656, 14: 90_100, 15: 9_168,
    16: 58_248, 17: 11_196, 18: 2_708, 20: 8_068, 21: 2_496, 22: 444, 23: 356, 24: 3_680, 28: 76, 29: 4,
}  # 19, 25, 26 and 27 never happen

# Hands whose four cards share a suit the starter does not: 4 suits * C(13, 4) hands * 39 starters.
# Only they score differently as a crib (4 points less).
FOUR_CARD_FLUSHES = 4 * 715 * 39


@pytest.fixture(scope="module")
def hand_distribution():
    return distribution()


@pytest.fixture(scope="module")
def crib_distribution():
    return distribution(crib=True)


def test_total_is_every_hand_with_every_starter():
    assert COMBINATIONS == 12_994_800 == 52 * 51 * 50 * 49 // 24 * 48
    assert sum(PUBLISHED.values()) == COMBINATIONS


def test_hand_distribution_is_the_published_one(hand_distribution):
    assert hand_distribution == PUBLISHED
    assert all(hand_distribution.get(score, 0) == 0 for score in (19, 25, 26, 27))


def test_crib_rule_changes_only_the_flush_cases(hand_distribution, crib_distribution):
    assert sum(crib_distribution.values()) == COMBINATIONS
    assert crib_distribution[0] == 1_022_208
    # Score every four-card flush (hand of one suit, starter of another) directly: as a crib each
    # of them, and nothing else, moves 4 points down.
    flushes = Counter()
    for suit in SUITS:
        for hand in combinations([rank + suit for rank in RANKS], 4):
            for starter in new_deck():
                if starter[1] != suit:
                    flushes[score_hand(hand, starter)[0]] += 1
    assert sum(flushes.values()) == FOUR_CARD_FLUSHES
    expected = Counter(hand_distribution)
    expected.subtract(flushes)
    expected.update({score - 4: n for score, n in flushes.items()})
    assert crib_distribution == {score: n for score, n in expected.items() if n}


@pytest.mark.parametrize("starter", ["5H", "JS"])
@pytest.mark.parametrize("crib", [False, True])
def test_fast_count_matches_brute_force(starter, crib):
    fast = dict(sorted(starter_distribution(starter, crib).items()))
    assert sum(fast.values()) == HANDS_PER_STARTER
    assert fast == brute_force_distribution([starter], crib)
