"""Ratings in the service (games/service/ratings.py): changed when a rated game ends, from its ranks
and teams, stored exactly, and replayed to the same floats by ``manage.py ratings rebuild``.

Expected values come from OpenSkill's PlackettLuce called here on the players' ratings before each
game, not from the code under test."""

from __future__ import annotations

import io
import json
import math

import pytest
from django.core.management import CommandError, call_command
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.acquire.records.review_io import import_review
from games.core.errors import GameError
from games.models import Game, Rating, RatingChange, Seat, Status
from games.service import door, lobby
from tests.acquire.service.conftest import oracle_games
from tests.ratings.games import START, end, expected, singles, teams_result

pytestmark = pytest.mark.django_db(transaction=True)


def stored(game):
    return [(c.user_id, c.rank, (c.mu_before, c.sigma_before), (c.mu_after, c.sigma_after))
            for c in RatingChange.objects.filter(game=game).order_by("position")]


def rating(user, game_type="acquire"):
    r = Rating.objects.get(user=user, game_type=game_type)
    return (r.mu, r.sigma), r.games


def test_ties_then_teams_change_ratings_as_openskill_does(make_user):
    a, b, c, d = (make_user() for _ in range(4))
    first = end([a, b, c], singles(2, 1, 2))  # b first, a and c tied second
    (ea,), (eb,), (ec,) = expected([[START], [START], [START]], [2, 1, 2])
    assert stored(first) == [(a.id, 2, START, ea), (b.id, 1, START, eb), (c.id, 2, START, ec)]
    assert rating(a) == (ea, 1) and rating(b) == (eb, 1) and rating(c) == (ec, 1)
    # 2 vs 2 (Acquire mode 7): seats 0 and 2 (b, d) against 1 and 3 (a, c); the second team wins.
    second = end([b, a, d, c], teams_result(((0, 2), 2), ((1, 3), 1)), mode=7)
    (nb, nd), (na, nc) = expected([[eb, START], [ea, ec]], [2, 1])
    assert stored(second) == [(b.id, 2, eb, nb), (a.id, 1, ea, na), (d.id, 2, START, nd), (c.id, 1, ec, nc)]
    assert rating(a) == (na, 2) and rating(d) == (nd, 1)
    # Game types are rated apart.
    cribbage = end([a, d], singles(1, 2), game_type="cribbage", mode=2)
    (ca,), (cd,) = expected([[START], [START]], [1, 2])
    assert stored(cribbage) == [(a.id, 1, START, ca), (d.id, 2, START, cd)]
    assert rating(a) == (na, 2) and rating(a, "cribbage") == (ca, 1)


def test_six_players_and_a_forfeit(make_user):
    users = [make_user() for _ in range(6)]
    game = end(users, singles(3, 1, 6, 2, 5, 3), forfeited=(1,))
    # Seat 1 placed first but left: last. The others keep their order, one place higher.
    ranks = [2, 6, 5, 1, 4, 2]
    rated = expected([[START]] * 6, ranks)
    assert stored(game) == [(u.id, r, START, rated[p][0]) for p, (u, r) in enumerate(zip(users, ranks))]


def test_casual_aborted_and_unrated_kinds_change_nothing(make_user):
    users = [make_user() for _ in range(4)]
    end(users[:2], singles(1, 2), rated=False)
    end(users[:2], singles(1, 2), status=Status.ABORTED)
    end(users[:3], singles(1, 2, 3), game_type="riichi", mode=3)  # riichi is rated four-player only
    end(users[:2], singles(1, 2), game_type="stub", mode=2)
    end(users[:1], singles(1), mode=1)  # Acquire alone
    assert not RatingChange.objects.exists() and not Rating.objects.exists()
    end(users, singles(1, 2, 3, 4), game_type="riichi", mode=4)
    assert RatingChange.objects.count() == 4


def test_floats_round_trip_exactly(make_user):
    user = make_user()
    values = (0.1 + 0.2, math.nextafter(25.0, 0.0), 8.333333333333334, 1e-300, 123456.78901234567)
    for value in values:
        Rating.objects.update_or_create(user=user, game_type="acquire",
                                        defaults={"mu": value, "sigma": -value, "last_played": "2026-01-01T00:00Z"})
        mu, sigma = Rating.objects.values_list("mu", "sigma").get(user=user)
        assert (mu, sigma) == (value, -value)


def snapshot():
    return (sorted(RatingChange.objects.values_list("game_id", "user_id", "game_type", "position", "rank", "mu_before",
                                                    "sigma_before", "mu_after", "sigma_after")),
            sorted(Rating.objects.values_list("user_id", "game_type", "mu", "sigma", "games", "last_played")))


def test_rebuild_reproduces_the_stored_values_exactly(make_user):
    a, b, c, d = (make_user() for _ in range(4))
    end([a, b], singles(1, 2))
    end([a, b, c, d], teams_result(((0, 2), 1), ((1, 3), 2)), mode=7)
    casual = end([c, d], singles(1, 2), rated=False)
    end([d, c, b], singles(1, 1, 3), forfeited=(2,))
    end([b, a, d, c], singles(4, 3, 2, 1), game_type="riichi", mode=4)
    before = snapshot()
    assert len(before[0]) == 13 and door.verify_ratings() == []
    assert door.rebuild_ratings() == 4
    assert snapshot() == before
    # One unit in the last place is a difference, and is reported.
    change = RatingChange.objects.filter(user=c).order_by("id").last()
    change.mu_after = math.nextafter(change.mu_after, math.inf)
    change.save(update_fields=["mu_after"])
    Rating.objects.filter(user=a, game_type="acquire").update(games=7)
    problems = door.verify_ratings()
    assert len(problems) == 4, problems  # each row stored and replayed differently: both sides listed
    with pytest.raises(CommandError):
        call_command("ratings", "verify", stdout=io.StringIO())
    out = io.StringIO()
    call_command("ratings", "rebuild", stdout=out)
    assert "4 rated games" in out.getvalue() and snapshot() == before
    # A game made casual after the fact leaves the ratings on rebuild; made rated, it enters them.
    Game.objects.filter(id=casual.id).update(rated=True)
    assert door.verify_ratings() != []
    door.rebuild_ratings()
    assert RatingChange.objects.filter(game=casual).count() == 2
    call_command("ratings", "verify", stdout=io.StringIO())


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.tuples(st.permutations(range(4)), st.integers(2, 4), st.lists(st.integers(1, 4), min_size=4,
                                                                                  max_size=4),
                          st.booleans(), st.sets(st.integers(0, 3), max_size=1)), min_size=1, max_size=8))
def test_rebuild_equals_what_was_stored_for_any_sequence(make_user, games):
    """Any run of rated and casual results, with ties, teams and forfeits, replays to what was stored."""
    users = [make_user() for _ in range(4)]
    try:
        for order, size, ranks, rated, forfeited in games:
            players = [users[i] for i in order[:size]]
            if size == 4 and rated and not forfeited:
                result = teams_result(((0, 2), ranks[0]), ((1, 3), ranks[1]))
            else:
                result = singles(*ranks[:size])
            end(players, result, rated=rated, forfeited={f for f in forfeited if f < size})
        before = snapshot()
        assert door.verify_ratings() == []
        door.rebuild_ratings()
        assert snapshot() == before
    finally:
        Game.objects.all().delete()
        Rating.objects.all().delete()
        for user in users:
            user.delete()


# --- through the write path ----------------------------------------------------------------------


def play_out(game_id: int) -> Game:
    for _ in range(200):
        if not door.play_due(game_id):
            break
    game = Game.objects.get(id=game_id)
    assert game.status == Status.FINISHED
    return game


def table_against_a_bot(user, **options) -> Game:
    game = door.create_table(user, "cribbage", 2, **options)
    door.add_bot(user, game.id)
    door.accept(user, game.id)
    return Game.objects.get(id=game.id)


def test_a_player_who_leaves_loses_to_the_house_bot(make_user):
    alice = make_user()
    game = table_against_a_bot(alice)
    assert game.rated and game.status == Status.ACTIVE
    door.leave(alice, game.id)
    game = play_out(game.id)
    bot = Seat.objects.exclude(user=alice).get(game=game).user
    changes = {c.user_id: c for c in RatingChange.objects.filter(game=game)}
    # (The server's automatic play for a seat seldom beats the bot anyway: test_six_players_and_a_forfeit
    # shows a seat that left placed last from first.)
    assert changes[alice.id].rank == 2 and changes[bot.id].rank == 1
    (won,), (lost,) = expected([[START], [START]], [1, 2])
    assert (changes[bot.id].mu_after, changes[bot.id].sigma_after) == won
    assert rating(alice, "cribbage") == (lost, 1) and rating(bot, "cribbage") == (won, 1)
    assert [line["rank"] for line in door.game_rating_changes(game)] == [changes[s.user_id].rank for s in
                                                                         game.seats.order_by("position")]
    # ``ended`` is set once, by settle, and is the order the rebuild replays.
    assert game.ended is not None and door.verify_ratings() == []


def test_a_casual_table_and_an_aborted_game_change_nothing(make_user):
    alice = make_user()
    casual = table_against_a_bot(alice, rated=False)
    assert not casual.rated
    door.leave(alice, casual.id)
    play_out(casual.id)
    aborted = table_against_a_bot(alice)
    door.abort(aborted.id)
    assert Game.objects.get(id=aborted.id).status == Status.ABORTED
    assert not RatingChange.objects.exists() and not Rating.objects.exists()


def test_bots_play_a_rated_riichi_game_and_a_cribbage_partnership(make_user):
    """Whole games through the write path (``playbots``): ranks as the engine's result says, and
    partners as one side."""
    call_command("playbots", "riichi", "--games", "1", "--seed", "3", "--rule", json.dumps({"場数": 1}),
                 stdout=io.StringIO())
    call_command("playbots", "cribbage", "--mode", "4", "--games", "1", stdout=io.StringIO())
    riichi = Game.objects.get(game_type="riichi")
    players = riichi.result["players"]
    by_position = {s.position: s.user_id for s in riichi.seats.all()}
    rated = expected([[START]] * 4, [p["rank"] for p in players])
    assert stored(riichi) == [(by_position[p["seat"]], p["rank"], START, rated[p["seat"]][0]) for p in players]
    cribbage = Game.objects.get(game_type="cribbage")
    teams = cribbage.result["teams"]
    by_position = {s.position: s.user_id for s in cribbage.seats.all()}
    rated = expected([[START, START]] * 2, [t["rank"] for t in teams])
    want = sorted((by_position[p], t["rank"], START, rated[t["team"]][i])
                  for t in teams for i, p in enumerate(t["seats"]))
    assert sorted(stored(cribbage)) == want
    assert sorted(r for _, r, _, _ in stored(cribbage)) == [1, 1, 2, 2]
    assert door.verify_ratings() == []


# --- the table's options -------------------------------------------------------------------------


def test_rated_people_only_keeps_bots_out(make_user):
    alice, robot = make_user(), make_user(is_bot=True)
    game = door.create_table(alice, "cribbage", 2, rated_people_only=True)
    assert game.rated and game.rated_people_only
    assert lobby.setup_state(game)["rated_people_only"] is True
    with pytest.raises(GameError) as refused:
        door.add_bot(alice, game.id)
    assert refused.value.code == "PeopleOnly"
    with pytest.raises(GameError) as refused:
        door.join(robot, game.id)
    assert refused.value.code == "PeopleOnly"
    with pytest.raises(GameError) as refused:
        door.create_table(robot, "cribbage", 2, rated_people_only=True)
    assert refused.value.code == "PeopleOnly"
    with pytest.raises(GameError) as refused:
        door.create_table(alice, "cribbage", 2, rated=False, rated_people_only=True)
    assert refused.value.code == "InvalidRated"
    # A rated table of anyone takes bots, and they are rated like anyone.
    anyone = door.create_table(alice, "cribbage", 2)
    door.join(robot, anyone.id)
    assert Game.objects.get(id=anyone.id).rated


def test_an_imported_game_is_casual_and_never_rated():
    """Imported records (Acquire review data here; Majiang paifu alike) were not played here."""
    game = import_review(oracle_games()[0]["review"], imported_at_ms=1_800_000_000_000)
    assert game.status == Status.FINISHED and not game.rated
    assert door.rebuild_ratings() == 0 and not RatingChange.objects.exists()
