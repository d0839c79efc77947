"""The pure rating model (games/core/ratings.py): which sides a finished game had and where they
placed, and the OpenSkill update, checked against the library called directly."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from openskill.models import PlackettLuce

from games.core import ratings


def openskill(teams: list[list[tuple[float, float]]], ranks: list[int]) -> list[list[tuple[float, float]]]:
    """The library itself, on the same inputs."""
    model = PlackettLuce()
    rated = model.rate([[model.rating(mu=mu, sigma=sigma) for mu, sigma in team] for team in teams], ranks=ranks)
    return [[(p.mu, p.sigma) for p in team] for team in rated]


# Each a result as the engine writes it (the keys the mapping reads), the seats that forfeited,
# and the sides and places expected.
RIICHI = {"players": [{"seat": 0, "score": 12000, "rank": 4}, {"seat": 1, "score": 41000, "rank": 1},
                      {"seat": 2, "score": 25000, "rank": 2}, {"seat": 3, "score": 22000, "rank": 3}]}
ACQUIRE_TEAMS = {  # mode 7, teams 2 vs 2: seats 0 and 2 against 1 and 3; the team ranks decide
    "players": [{"seat": s, "rank": r, "team": s % 2} for s, r in enumerate([1, 4, 2, 3])],
    "teams": [{"team": 0, "seats": [0, 2], "score": 90000, "rank": 1},
              {"team": 1, "seats": [1, 3], "score": 70000, "rank": 2}]}
ACQUIRE_THREE_TEAMS = {  # mode 8, 2 vs 2 vs 2 with two teams tied
    "players": [{"seat": s, "rank": 1, "team": s % 3} for s in range(6)],
    "teams": [{"team": 0, "seats": [0, 3], "rank": 1}, {"team": 1, "seats": [1, 4], "rank": 2},
              {"team": 2, "seats": [2, 5], "rank": 2}]}
CRIBBAGE_PARTNERS = {  # mode 4: partners share their side's score and rank
    "players": [{"seat": s, "score": [121, 98][s % 2], "rank": [1, 2][s % 2], "team": s % 2} for s in range(4)],
    "teams": [{"team": 0, "seats": [0, 2], "score": 121, "rank": 2}, {"team": 1, "seats": [1, 3], "score": 98,
                                                                      "rank": 1}]}
ACQUIRE_TIE = {"players": [{"seat": 0, "rank": 1}, {"seat": 1, "rank": 1}, {"seat": 2, "rank": 3}]}


@pytest.mark.parametrize(("result", "forfeited", "expected"), [
    (RIICHI, (), [((0,), 4), ((1,), 1), ((2,), 2), ((3,), 3)]),
    # A forfeit places last, below the seat the engine ranked last.
    (RIICHI, (1,), [((0,), 3), ((1,), 4), ((2,), 1), ((3,), 2)]),
    # Two forfeits tie for last.
    (RIICHI, (1, 2), [((0,), 2), ((1,), 3), ((2,), 3), ((3,), 1)]),
    (ACQUIRE_TEAMS, (), [((0, 2), 1), ((1, 3), 2)]),
    # A team with a player who left loses as a team.
    (ACQUIRE_TEAMS, (2,), [((0, 2), 2), ((1, 3), 1)]),
    (ACQUIRE_THREE_TEAMS, (), [((0, 3), 1), ((1, 4), 2), ((2, 5), 2)]),
    (CRIBBAGE_PARTNERS, (), [((0, 2), 2), ((1, 3), 1)]),
    (ACQUIRE_TIE, (), [((0,), 1), ((1,), 1), ((2,), 3)]),
    (ACQUIRE_TIE, (0,), [((0,), 3), ((1,), 1), ((2,), 2)]),
])
def test_standings_of_each_game_kind(result, forfeited, expected):
    sides = ratings.standings(result, forfeited)
    assert [(side.positions, side.rank) for side in sides] == expected


@pytest.mark.parametrize("result", [
    None, {}, {"players": [{"seat": 0, "rank": 1}]},  # one side: nobody to compare with
    {"players": [{"seat": 0, "rank": None}, {"seat": 1, "rank": None}]},  # riichi before its end
])
def test_nothing_to_rate(result):
    assert ratings.standings(result) == []


def test_which_games_are_rated():
    assert ratings.ratable("riichi", 4)
    assert not ratings.ratable("riichi", 3)  # four-player riichi only
    assert ratings.ratable("acquire", 6) and ratings.ratable("cribbage", 2)
    assert not ratings.ratable("acquire", 1)
    assert not ratings.ratable("stub", 2)


START = (ratings.MU, ratings.SIGMA)


@pytest.mark.parametrize(("teams", "ranks"), [
    ([[START], [START]], [1, 2]),
    ([[(30.0, 4.0)], [(22.5, 7.25)]], [2, 1]),
    ([[START], [START]], [1, 1]),  # a tie
    ([[(27.0, 6.0)], [START], [(20.0, 3.0)]], [1, 2, 2]),
    ([[START], [(26.0, 5.0)], [(24.0, 5.5)], [(31.0, 2.5)]], [4, 1, 2, 3]),
    ([[START], [START], [START], [START]], [1, 2, 2, 4]),
    ([[START, (28.0, 4.0)], [(23.0, 6.0), START]], [2, 1]),  # 2 vs 2
    ([[START, START], [(29.0, 3.0), (21.0, 7.0)], [(25.5, 8.0), (24.5, 8.0)]], [1, 2, 2]),  # 2 vs 2 vs 2, tie
    ([[START, START, (30.0, 2.0)], [(22.0, 5.0), START, START]], [1, 2]),  # 3 vs 3
    ([[START], [(26.0, 5.0)], [(24.0, 5.5)], [(31.0, 2.5)], [(18.0, 4.0)], [(25.0, 1.0)]], [3, 1, 6, 2, 5, 3]),
])
def test_rate_is_openskills_plackett_luce(teams, ranks):
    assert ratings.rate(teams, ranks) == openskill(teams, ranks)


def test_a_win_raises_a_loss_lowers_and_both_grow_surer():
    (winner,), (loser,) = ratings.rate([[START], [START]], [1, 2])
    assert winner[0] > ratings.MU > loser[0]
    assert winner[1] < ratings.SIGMA and loser[1] < ratings.SIGMA
    (a,), (b,) = ratings.rate([[START], [START]], [1, 1])
    assert a == b and a[0] == pytest.approx(ratings.MU)


def test_display_value_and_provisional():
    assert ratings.conservative(ratings.MU, ratings.SIGMA) == pytest.approx(0.0)
    assert ratings.conservative(30.0, 2.0) == 24.0
    assert ratings.provisional(ratings.PROVISIONAL_GAMES - 1)
    assert not ratings.provisional(ratings.PROVISIONAL_GAMES)


@given(st.lists(st.integers(min_value=1, max_value=4), min_size=2, max_size=6),
       st.sets(st.integers(min_value=0, max_value=5)))
def test_standings_keep_the_engines_order_and_put_forfeits_last(engine_ranks, forfeited):
    result = {"players": [{"seat": s, "rank": r} for s, r in enumerate(engine_ranks)]}
    sides = ratings.standings(result, forfeited)
    ranks = {side.positions[0]: side.rank for side in sides}
    stayed = [s for s in range(len(engine_ranks)) if s not in forfeited]
    left = [s for s in range(len(engine_ranks)) if s in forfeited]
    # Competition ranking: a side's place is one more than the sides strictly ahead of it.
    for s in ranks:
        assert ranks[s] == 1 + sum(ranks[o] < ranks[s] for o in ranks)
    for s in stayed:
        assert all(ranks[s] < ranks[f] for f in left)
        for o in stayed:
            assert (ranks[s] < ranks[o]) == (engine_ranks[s] < engine_ranks[o])
    assert len({ranks[f] for f in left}) <= 1
