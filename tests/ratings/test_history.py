"""A player's rating history and leaderboard place: the service, its REST twin, and the player
page's chart and rank."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone
from rest_framework.test import APIClient

from games.core import ratings as model
from games.models import Rating
from games.service import ratings as service
from games.site.rating_views import chart
from tests.ratings.games import end, singles

pytestmark = pytest.mark.django_db(transaction=True)


def conservative(user, game_type="acquire") -> float:
    r = Rating.objects.get(user=user, game_type=game_type)
    return model.conservative(r.mu, r.sigma)


def test_history_is_the_rating_after_each_game_oldest_first(make_user):
    ann, bob = make_user("ann"), make_user("bob")
    seen = []
    for ranks in [(1, 2), (2, 1), (1, 2)]:
        game = end([ann, bob], singles(*ranks))
        seen.append((game.id, ranks[0], conservative(ann)))
    end([ann, bob], singles(1, 2), game_type="cribbage", mode=2)  # another type is not in it
    history = service.history(ann, "acquire")
    assert history["games"] == 3 and history["limit"] == service.HISTORY_LIMIT
    assert [(p["game"], p["place"], p["rating"]) for p in history["points"]] == seen
    assert all(p["rating"] == model.conservative(p["mu"], p["sigma"]) for p in history["points"])


def test_history_keeps_only_the_last_games(make_user):
    ann, bob = make_user("ann"), make_user("bob")
    games = [end([ann, bob], singles(1 + i % 2, 2 - i % 2)).id for i in range(5)]
    history = service.history(ann, "acquire", limit=3)
    assert history["games"] == 5 and [p["game"] for p in history["points"]] == games[2:]
    assert history["points"][-1]["rating"] == conservative(ann)
    assert service.history(make_user("cat"), "acquire") == {"game_type": "acquire", "games": 0, "limit": 200,
                                                            "points": []}


def test_rank_follows_the_leaderboard(make_user):
    people = [make_user(f"p{i}") for i in range(4)]
    bots = [make_user(f"b{i}", is_bot=True) for i in range(2)]
    end([people[0], people[1], bots[0]], singles(1, 2, 3))
    end([people[2], people[3], bots[1]], singles(1, 2, 3))  # p0 and p2, p1 and p3 tie exactly
    board = service.leaderboard("acquire")
    for entry in board:
        rating = Rating.objects.get(user_id=entry["user"], game_type="acquire")
        assert service.rank(rating, False) == {"place": entry["place"], "of": 4, "players": "people"}
    assert [e["username"] for e in board][:2] == ["p0", "p2"]  # equal values: by id, as the board
    for entry in service.leaderboard("acquire", "bots"):
        rating = Rating.objects.get(user_id=entry["user"], game_type="acquire")
        assert service.rank(rating, True) == {"place": entry["place"], "of": 2, "players": "bots"}
    # Not active: not on the leaderboard, so no place, and not counted for the others.
    Rating.objects.filter(user=people[0]).update(last_played=timezone.now() - timedelta(days=91))
    assert service.rank(Rating.objects.get(user=people[0]), False) is None
    assert service.rank(Rating.objects.get(user=people[2]), False) == {"place": 1, "of": 3, "players": "people"}


def test_player_ratings_cost_a_bounded_number_of_queries(make_user):
    ann, bob = make_user("ann"), make_user("bob")
    for _ in range(3):
        end([ann, bob], singles(1, 2))
    with CaptureQueriesContext(connection) as few:
        service.player_ratings(ann)
    for _ in range(6):
        end([ann, bob], singles(1, 2))
        make_user()
    with CaptureQueriesContext(connection) as more:
        service.player_ratings(ann)
    assert len(more) == len(few)


def test_rest_history_and_rank(make_user):
    api = APIClient()
    ann, bob = make_user("ann"), make_user("bob")
    end([ann, bob], singles(1, 2))
    game = end([ann, bob], singles(2, 1))
    body = api.get(reverse("api-rating-history", args=["ann", "acquire"])).json()
    assert body["username"] == "ann" and body["bot"] is False and body["games"] == 2 and body["limit"] == 200
    assert [p["game"] for p in body["points"]] == [game.id - 1, game.id]
    assert body["points"][-1]["rating"] == pytest.approx(conservative(ann)) and body["points"][-1]["place"] == 2
    assert api.get(reverse("api-rating-history", args=["ann", "chess"])).json()["code"] == "UnknownGameType"
    assert api.get(reverse("api-rating-history", args=["nobody", "acquire"])).json()["code"] == "UnknownPlayer"
    assert api.get(reverse("api-rating-history", args=["ann", "riichi"])).json()["points"] == []
    ratings = api.get(reverse("api-player-ratings", args=["bob"])).json()["ratings"]
    assert ratings[0]["rank"] == {"place": 1, "of": 2, "players": "people"}
    schema = api.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()
    assert "/api/players/{username}/ratings/{game_type}/history/" in schema["paths"]


def test_player_page_chart_and_rank(client, make_user):
    ann, bob = make_user("ann"), make_user("bob")
    for ranks in [(1, 2), (2, 1), (1, 2)]:
        end([ann, bob], singles(*ranks))
    page = client.get(reverse("player", args=["ann"])).content.decode()
    assert re.search(r'data-testid="rating-rank">#1 of 2 active people<', page)
    charts = re.findall(r'data-testid="rating-chart" data-game-type="(\w+)"', page)
    assert charts == ["acquire"]
    line = re.search(r'data-testid="rating-line" points="([^"]*)"', page).group(1).split()
    assert len(line) == 3
    ys = [float(point.split(",")[1]) for point in line]
    # Higher ratings are drawn higher (smaller y): the line follows the history.
    values = [p["rating"] for p in service.history(ann, "acquire")["points"]]
    assert sorted(range(3), key=lambda i: ys[i]) == sorted(range(3), key=lambda i: -values[i])
    assert re.search(r'data-testid="rating-rank">#2 of 2 active people<',
                     client.get(reverse("player", args=["bob"])).content.decode())
    Rating.objects.filter(user=ann).update(last_played=timezone.now() - timedelta(days=91))
    page = client.get(reverse("player", args=["ann"])).content.decode()
    assert "Not ranked: no rated game in 90 days" in page


def test_chart_numbers_games_from_the_players_count():
    points = [{"rating": v} for v in (3.0, 5.5, 4.0)]
    drawn = chart(points, games=250)
    assert (drawn["first_game"], drawn["last_game"], drawn["count"]) == (248, 250, 3)
    assert [label for _, label in drawn["y_labels"]] == ["6", "4.5", "3"]
    flat = chart([{"rating": 0.0}], games=1)
    assert [label for _, label in flat["y_labels"]] == ["1", "0", "-1"]  # one game still gets a scale
    assert chart([], games=0) is None
