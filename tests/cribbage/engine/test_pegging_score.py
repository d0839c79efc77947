from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.cribbage.engine.cards import new_deck
from games.cribbage.engine.scoring import peg_points, say

RANK = {r: i + 1 for i, r in enumerate("A234567890JQK")}


def peg(cards: str):
    return peg_points(cards.split())


def kinds(items):
    return Counter((name, points) for name, points, _ in items)


@pytest.mark.parametrize(
    ("play", "points", "expected"),
    [
        ("7H", 0, {}),
        ("7H 7D", 2, {("pair", 2): 1}),
        ("7H 8S 7D", 0, {}),  # pairs only when adjacent
        ("4H 4S 4D", 6, {("pair royal", 6): 1}),
        ("2H 2S 2D 2C", 12, {("double pair royal", 12): 1}),
        ("3H 2S 2D 2C", 6, {("pair royal", 6): 1}),  # only the trailing same-rank cards
        ("2H 2S 3D 2C", 0, {}),
        ("5H 3S 4D", 3, {("run", 3): 1}),  # runs in any order
        ("AH 3S 2D", 3, {("run", 3): 1}),
        ("2H 4S 3D 5C", 4, {("run", 4): 1}),
        ("3H 4S 5D 6C", 4, {("run", 4): 1}),  # the longest run, not the run of three inside it
        ("6H 4S 5D 3C", 4, {("run", 4): 1}),
        ("3H 4S 4D 5C", 0, {}),  # a duplicate inside breaks the run
        ("4H 5S 4D 6C", 3, {("run", 3): 1}),  # ... but the tail 5 4 6 is still a run of three
        ("3H 4S 5D 5C", 2, {("pair", 2): 1}),  # the pair on the end is not a run
        ("QH KS AD", 0, {}),  # no wrapping round the king
        ("AH 2S 3D 4C 5H", 7, {("fifteen", 2): 1, ("run", 5): 1}),
        ("4H 5S 6D", 5, {("fifteen", 2): 1, ("run", 3): 1}),  # fifteen with a run
        ("5H 5S 5D", 8, {("fifteen", 2): 1, ("pair royal", 6): 1}),
        ("0H 5S", 2, {("fifteen", 2): 1}),
        ("9H 0S 6D 6C", 4, {("thirty-one", 2): 1, ("pair", 2): 1}),  # 31 with a pair
        ("0H 7S 7D 7C", 8, {("thirty-one", 2): 1, ("pair royal", 6): 1}),
        ("KH QS JD AC", 2, {("thirty-one", 2): 1}),  # 31 but no run: the ace is low
        ("0H 0S 5D 6C", 2, {("thirty-one", 2): 1}),
        ("8H 7S 9D 6C", 4, {("run", 4): 1}),
        ("KH 4S", 0, {}),
    ],
)
def test_pegging(play, points, expected):
    total, items = peg(play)
    assert total == points
    assert kinds(items) == Counter(expected)
    assert sum(p for _, p, _ in items) == total


def test_item_cards_are_the_cards_that_score():
    assert peg_points(["9H", "0S", "6D", "6C"])[1] == [
        ("thirty-one", 2, ("9H", "0S", "6D", "6C")), ("pair", 2, ("6D", "6C"))]
    assert peg_points(["KH", "2H", "4S", "3D", "5C"])[1] == [("run", 4, ("2H", "4S", "3D", "5C"))]
    assert peg_points(["QH", "3H", "3S", "3D"])[1] == [("pair royal", 6, ("3H", "3S", "3D"))]


def test_empty_play_scores_nothing():
    assert peg_points([]) == (0, [])


def test_say_pegging():
    assert say(peg("4H 5S 6D")[1]) == "fifteen two, a run of three is five"
    assert say(peg("9H 0S 6D 6C")[1]) == "thirty-one for two, a pair is four"
    assert say(peg("KH 4S")[1], empty="nothing") == "nothing"


def reference_peg(play):
    """Independent of the engine: each scoring pattern looked for in the simplest way."""
    ranks = [RANK[c[0]] for c in play]
    count = sum(min(r, 10) for r in ranks)
    points = 2 if count in (15, 31) else 0
    same = max(n for n in range(1, len(ranks) + 1) if len(set(ranks[-n:])) == 1)
    points += {1: 0, 2: 2, 3: 6, 4: 12}[same]
    tails = [sorted(ranks[-n:]) for n in range(3, len(ranks) + 1)]
    runs = [len(tail) for tail in tails if tail == list(range(tail[0], tail[0] + len(tail)))]
    return points + (max(runs) if runs else 0)


@st.composite
def plays(draw):
    """A legal play since the last reset: distinct cards, count never over 31."""
    deck = draw(st.permutations(new_deck()))
    play, count = [], 0
    for card in deck:
        value = min(RANK[card[0]], 10)
        if count + value > 31 or len(play) >= draw(st.integers(1, 8)):
            break
        play.append(card)
        count += value
    return play


@given(plays())
def test_matches_the_naive_reference(play):
    total, items = peg_points(play)
    assert total == reference_peg(play) == sum(p for _, p, _ in items)
    for _, _, cards in items:
        assert tuple(play[-len(cards):]) == cards  # every item is a tail of the play


@given(plays(), st.randoms(use_true_random=False))
def test_only_the_tail_matters_for_pairs_and_runs(play, rng):
    # Reordering the cards before the scoring tail keeps the score when the count is not 15 or 31
    # (the count is a sum, so it keeps that too).
    total, items = peg_points(play)
    tail = max((len(cards) for name, _, cards in items if name not in ("fifteen", "thirty-one")), default=1)
    head = play[:-tail]
    rng.shuffle(head)
    again, _ = peg_points([*head, *play[-tail:]])
    # A shuffled head can only make a longer pair or run, never a shorter one.
    assert again >= total
