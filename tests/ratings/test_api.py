"""The rating endpoints: a player's ratings, a game's changes, the leaderboard, and the rated flag
on table creation."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone
from rest_framework.test import APIClient

from accounts.tokens import token_for
from games.core import ratings as model
from games.models import Rating
from tests.ratings.games import START, end, expected, singles

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def api() -> APIClient:
    return APIClient()


def test_a_players_ratings(api, make_user):
    alice, bob = make_user("alice"), make_user("bob", is_bot=True)
    end([alice, bob], singles(1, 2))
    end([bob, alice], singles(1, 2), game_type="cribbage", mode=2)
    (won,), _ = expected([[START], [START]], [1, 2])
    _, (lost,) = expected([[START], [START]], [1, 2])
    body = api.get(reverse("api-player-ratings", args=["alice"])).json()
    assert body["username"] == "alice" and body["bot"] is False
    assert [(r["game_type"], r["mu"], r["sigma"], r["games"], r["provisional"]) for r in body["ratings"]] == [
        ("acquire", won[0], won[1], 1, True), ("cribbage", lost[0], lost[1], 1, True)]
    assert body["ratings"][0]["rating"] == pytest.approx(won[0] - 3 * won[1])
    assert api.get(reverse("api-player-ratings", args=["carol"])).status_code == 404
    assert api.get(reverse("api-player-ratings", args=["bob"])).json()["bot"] is True


def test_a_games_changes(api, make_user):
    alice, bob, carol = make_user(), make_user(), make_user()
    game = end([alice, bob, carol], singles(2, 1, 2))
    rated = expected([[START]] * 3, [2, 1, 2])
    body = api.get(reverse("api-game-ratings", args=[game.id])).json()
    assert body["game"] == game.id and body["rated"] is True
    assert [(c["username"], c["position"], c["rank"], c["mu_before"], c["sigma_before"], c["mu_after"],
             c["sigma_after"]) for c in body["changes"]] == [
        (u.username, p, r, *START, *rated[p][0]) for p, (u, r) in enumerate(zip([alice, bob, carol], [2, 1, 2]))]
    assert body["changes"][1]["rating_after"] == pytest.approx(rated[1][0][0] - 3 * rated[1][0][1])
    casual = end([alice, bob], singles(1, 2), rated=False)
    assert api.get(reverse("api-game-ratings", args=[casual.id])).json() == {
        "game": casual.id, "rated": False, "changes": []}
    assert api.get(reverse("api-game-ratings", args=[casual.id + 1000])).json()["code"] == "UnknownGame"


def test_leaderboard(api, make_user):
    people = [make_user(f"p{i}") for i in range(4)]
    bots = [make_user(f"b{i}", is_bot=True) for i in range(2)]
    end([people[0], people[1], bots[0]], singles(1, 2, 3))
    end([bots[1], people[2], people[0]], singles(1, 2, 3))
    end([people[3], bots[0]], singles(1, 2), game_type="cribbage", mode=2)
    # Someone who has not played a rated game for longer than the active window is left out.
    Rating.objects.filter(user=people[1]).update(last_played=timezone.now() - timedelta(days=91))
    url = reverse("api-leaderboard", args=["acquire"])
    body = api.get(url).json()
    assert body["game_type"] == "acquire" and body["players"] == "people" and body["active_days"] == 90
    listed = {r.user_id: model.conservative(r.mu, r.sigma)
              for r in Rating.objects.filter(game_type="acquire", user__is_bot=False).exclude(user=people[1])}
    order = sorted(listed, key=lambda user: -listed[user])
    assert [e["user"] for e in body["entries"]] == order and len(order) == 2
    assert [e["place"] for e in body["entries"]] == [1, 2]
    assert [e["rating"] for e in body["entries"]] == [listed[u] for u in order]
    assert all(not e["bot"] for e in body["entries"])
    assert {e["username"] for e in api.get(url, {"players": "bots"}).json()["entries"]} == {"b0", "b1"}
    everyone = api.get(url, {"players": "all"}).json()["entries"]
    assert len(everyone) == 4
    assert [e["rating"] for e in everyone] == sorted((e["rating"] for e in everyone), reverse=True)
    assert [e["place"] for e in api.get(url, {"players": "all", "limit": 1}).json()["entries"]] == [1]
    assert [e["username"] for e in api.get(reverse("api-leaderboard", args=["cribbage"])).json()["entries"]] == [
        "p3"]
    for query, code in (({"players": "robots"}, "InvalidPlayers"), ({"limit": "0"}, "InvalidLimit"),
                        ({"limit": "x"}, "InvalidLimit"), ({"limit": "501"}, "InvalidLimit")):
        answer = api.get(url, query)
        assert answer.status_code == 400 and answer.json()["code"] == code
    answer = api.get(reverse("api-leaderboard", args=["chess"]))
    assert answer.status_code == 404 and answer.json()["code"] == "UnknownGameType"


def test_tables_are_rated_unless_the_host_says_casual(make_user):
    alice = make_user()
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token_for(alice)}")
    url = reverse("api-games")
    rated = client.post(url, {"game_type": "cribbage", "mode": 2}, format="json").json()
    assert rated["rated"] is True and rated["rated_people_only"] is False and rated["setup"]["rated"] is True
    casual = client.post(url, {"game_type": "cribbage", "mode": 2, "rated": False}, format="json").json()
    assert casual["rated"] is False
    people = client.post(url, {"game_type": "cribbage", "mode": 2, "rated_people_only": True}, format="json").json()
    assert people["rated"] is True and people["setup"]["rated_people_only"] is True
    answer = client.post(reverse("api-game-add-bot", args=[people["id"]]), format="json")
    assert answer.status_code == 403 and answer.json()["code"] == "PeopleOnly"
    answer = client.post(url, {"game_type": "cribbage", "mode": 2, "rated": 1}, format="json")
    assert answer.status_code == 400 and answer.json()["code"] == "InvalidMessage"
