from collections import Counter
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.cribbage.engine.cards import SUITS, new_deck
from games.cribbage.engine.scoring import hand_points, number_words, say, score_hand

RANK = {r: i + 1 for i, r in enumerate("A234567890JQK")}


def reference_score(hand, starter, crib=False):
    """A deliberately naive scorer, written independently of the engine's."""
    cards = [*hand, starter]
    ranks = [RANK[c[0]] for c in cards]
    values = [min(r, 10) for r in ranks]
    points = 0
    for size in range(2, 6):
        for combo in combinations(range(5), size):
            if sum(values[i] for i in combo) == 15:
                points += 2
    for a, b in combinations(ranks, 2):
        if a == b:
            points += 2
    for size in (5, 4, 3):  # only the longest runs count
        runs = [c for c in combinations(ranks, size) if sorted(c) == list(range(min(c), min(c) + size))]
        if runs:
            points += size * len(runs)
            break
    if len({c[1] for c in hand}) == 1:
        if starter[1] == hand[0][1]:
            points += 5
        elif not crib:
            points += 4
    if any(c[0] == "J" and c[1] == starter[1] for c in hand):
        points += 1
    return points


def names(items):
    return Counter((name, points) for name, points, _ in items)


@pytest.mark.parametrize(
    ("hand", "starter", "points"),
    [
        ("5H 5C 5S JD", "5D", 29),  # the perfect hand
        ("5H 5C 5S 5D", "JS", 28),  # a jack starter is not nobs
        ("5H 5C 5S JH", "5D", 28),  # nobs needs the starter's suit
        ("4H 4C 5S 6D", "6H", 24),
        ("7H 7C 8S 8D", "9H", 24),  # double double run 16 + fifteens 8
        ("3H 3C 4S 4D", "5H", 20),
        ("3H 3C 3S 4D", "5H", 21),  # triple run: 9 + pair royal 6 + three fifteens
        ("3H 4C 5S 6D", "6H", 16),  # double run of four 8 + pair 2 + fifteens 6
        ("AH 3D 7C 9S", "KH", 0),
        ("2H 3H 4H JH", "KD", 11),  # fifteens 4, run 3, four-card flush 4; no nobs (the starter is a diamond)
        ("2H 3H 4H JD", "KD", 8),  # fifteens 4, run 3, no flush, nobs 1
        ("2H 3H 4H 6H", "8H", 12),  # 2+3+4+6 and 3+4+8, run 3, five-card flush 5
    ],
)
def test_known_hands(hand, starter, points):
    total, items = score_hand(hand.split(), starter)
    assert total == points == reference_score(hand.split(), starter)
    assert sum(p for _, p, _ in items) == total
    assert hand_points(hand.split(), starter) == total


def test_the_29_hand_items():
    total, items = score_hand(["5H", "5C", "5S", "JD"], "5D")
    assert total == 29
    assert names(items) == Counter({("fifteen", 2): 8, ("double pair royal", 12): 1, ("nobs", 1): 1})
    assert ("nobs", 1, ("JD",)) in items
    assert say(items).endswith("a double pair royal is twenty-eight, one for his nobs is twenty-nine")


def test_double_double_run_items():
    total, items = score_hand(["4H", "4C", "5S", "5D"], "6H")
    assert names(items) == Counter({("fifteen", 2): 4, ("pair", 2): 2, ("run", 3): 4})
    assert total == 24
    runs = {frozenset(cards) for name, _, cards in items if name == "run"}
    assert runs == {frozenset(r) for r in [("4H", "5S", "6H"), ("4H", "5D", "6H"), ("4C", "5S", "6H"),
                                           ("4C", "5D", "6H")]}


def test_triple_run_items():
    total, items = score_hand(["3H", "3C", "3S", "4D"], "5H")
    assert names(items) == Counter({("fifteen", 2): 3, ("pair royal", 6): 1, ("run", 3): 3})


def test_a_run_of_five_is_one_run_not_several_shorter_ones():
    total, items = score_hand(["9H", "0C", "JS", "QD"], "KH")
    assert names(items) == Counter({("run", 5): 1})
    assert total == 5


def test_runs_do_not_wrap_around_the_king():
    assert score_hand(["QH", "KC", "AS", "2D"], "7H")[0] == 0


def test_flush_rules_hand_and_crib():
    hand = ["2H", "4H", "6H", "8H"]
    hand_total, hand_items = score_hand(hand, "QS")
    crib_total, crib_items = score_hand(hand, "QS", crib=True)
    assert ("flush", 4, tuple(hand)) in hand_items
    assert not any(name == "flush" for name, _, _ in crib_items)
    assert hand_total - crib_total == 4
    # With the starter of the same suit both count a five-card flush.
    assert ("flush", 5, (*hand, "QH")) in score_hand(hand, "QH")[1]
    assert ("flush", 5, (*hand, "QH")) in score_hand(hand, "QH", crib=True)[1]
    # Three of the hand plus the starter is no flush.
    assert not any(name == "flush" for name, _, _ in score_hand(["2H", "4H", "6H", "8S"], "QH")[1])


def test_nobs_is_a_jack_in_the_hand_not_the_starter():
    assert ("nobs", 1, ("JS",)) in score_hand(["JS", "2H", "4D", "6C"], "8S")[1]
    assert not any(name == "nobs" for name, _, _ in score_hand(["JS", "2H", "4D", "6C"], "8H")[1])
    # A jack starter scores nothing for nobs, even with a hand card of its suit.
    assert not any(name == "nobs" for name, _, _ in score_hand(["2H", "4H", "6D", "8C"], "JH")[1])
    # Nobs counts in the crib too.
    assert ("nobs", 1, ("JS",)) in score_hand(["JS", "2H", "4D", "6C"], "8S", crib=True)[1]


def test_a_hand_must_have_four_cards():
    with pytest.raises(ValueError):
        score_hand(["5H", "5C", "5S"], "5D")
    with pytest.raises(ValueError):
        score_hand(["5H", "5C", "5S", "1D"], "5D")


def test_say():
    items = [("fifteen", 2, ("5H", "0S")), ("fifteen", 2, ("5H", "KS")), ("pair", 2, ("0S", "0D")),
             ("run", 3, ("8H", "9H", "0S")), ("flush", 4, ()), ("nobs", 1, ("JH",))]
    assert say(items) == (
        "fifteen two, fifteen four, a pair is six, a run of three is nine, a flush of four is thirteen, "
        "one for his nobs is fourteen"
    )
    assert say([]) == "nineteen"
    assert say([], empty="nothing") == "nothing"
    assert say([("thirty-one", 2, ()), ("pair", 2, ())]) == "thirty-one for two, a pair is four"
    assert say(score_hand(["AH", "3D", "7C", "9S"], "KH")[1]) == "nineteen"


def test_number_words():
    assert [number_words(n) for n in (0, 13, 20, 29, 99, 121)] == [
        "zero", "thirteen", "twenty", "twenty-nine", "ninety-nine", "one hundred and twenty-one"]


five_cards = st.lists(st.sampled_from(new_deck()), min_size=5, max_size=5, unique=True)


@settings(max_examples=500)
@given(five_cards, st.booleans())
def test_matches_the_naive_reference(cards, crib):
    hand, starter = cards[:4], cards[4]
    total, items = score_hand(hand, starter, crib)
    assert total == reference_score(hand, starter, crib)
    assert total == sum(points for _, points, _ in items)
    assert total == hand_points(hand, starter, crib)


@given(five_cards, st.booleans())
def test_items_name_real_cards_and_are_consistent(cards, crib):
    hand, starter = cards[:4], cards[4]
    for name, points, item_cards in score_hand(hand, starter, crib)[1]:
        assert set(item_cards) <= set(cards)
        assert len(set(item_cards)) == len(item_cards)
        if name == "fifteen":
            assert points == 2
            assert sum(min(RANK[c[0]], 10) for c in item_cards) == 15
        elif name == "run":
            ranks = sorted(RANK[c[0]] for c in item_cards)
            assert points == len(ranks) >= 3
            assert ranks == list(range(ranks[0], ranks[0] + len(ranks)))
        elif name == "nobs":
            assert item_cards[0] in hand


@given(five_cards, st.booleans(), st.randoms(use_true_random=False), st.permutations(SUITS))
def test_invariant_under_hand_order_and_suit_relabelling(cards, crib, rng, suits):
    hand, starter = cards[:4], cards[4]
    total, items = score_hand(hand, starter, crib)
    shuffled = list(hand)
    rng.shuffle(shuffled)
    total2, items2 = score_hand(shuffled, starter, crib)
    assert total2 == total
    assert Counter((n, p, frozenset(c)) for n, p, c in items2) == Counter((n, p, frozenset(c)) for n, p, c in items)
    # Renaming the suits everywhere keeps every flush and nobs relation.
    rename = dict(zip(SUITS, suits))
    relabelled = [c[0] + rename[c[1]] for c in hand]
    assert score_hand(relabelled, starter[0] + rename[starter[1]], crib)[0] == total


@given(five_cards)
def test_crib_scores_the_same_except_a_four_card_flush(cards):
    hand, starter = cards[:4], cards[4]
    four_flush = len({c[1] for c in hand}) == 1 and starter[1] != hand[0][1]
    assert score_hand(hand, starter)[0] - score_hand(hand, starter, crib=True)[0] == (4 if four_flush else 0)
