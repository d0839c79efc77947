"""POST and GET /api/games/<id>/review/<seat>/ and GET .../download/: a riichi decision review asked
for, followed, read and downloaded (docs/review.md); refusals in the API's error shape. The build
runs when the test says (``review.run_pending``): with the in-memory test database no worker thread
is started."""

from __future__ import annotations

import json

import pytest
from django.urls import reverse

from games.models import Game, Status
from games.service import review
from tests.riichi.review.games import reference_game

pytestmark = pytest.mark.django_db


@pytest.fixture
def players(make_user):
    return [make_user(f"api-rv{i}") for i in range(4)]


def url(game: Game, seat: int) -> str:
    return reverse("api-game-decision-review", args=[game.id, seat])


def download(game: Game, seat: int) -> str:
    return reverse("api-game-decision-review-download", args=[game.id, seat])


def error(response, status: int, code: str) -> None:
    assert response.status_code == status, response.content
    body = response.json()
    assert body["code"] == code and body["reason"]


def test_asked_followed_read_and_downloaded(players, client_for, api):
    game = reference_game(players)
    me = client_for(players[0])
    error(api.get(url(game, 0)), 404, "NoReview")
    asked = me.post(url(game, 0))
    assert asked.status_code == 202 and asked.json()["status"] == "pending"
    # Anybody may follow it, as anybody may open the finished game's replay.
    following = api.get(url(game, 0))
    assert following.status_code == 200 and following.json()["progress"] == {"done": 0, "total": 0}
    error(api.get(download(game, 0)), 409, "ReviewNotReady")
    review.run_pending()
    done = api.get(url(game, 0)).json()
    assert done["status"] == "done" and done["review"]["decisions"]
    assert done["progress"]["done"] == done["progress"]["total"] > 0
    # Asking again is answered at once from the cache.
    again = client_for(players[2]).post(url(game, 0))
    assert again.status_code == 200 and again.json()["review"] == done["review"]
    file = api.get(download(game, 0))
    assert file.status_code == 200 and file["Content-Type"] == "application/json"
    assert file["Content-Disposition"] == f'attachment; filename="riichi-{game.display_number}-seat0-review.json"'
    assert json.loads(file.content) == done["review"]


def test_asking_takes_a_logged_in_user(players, api):
    game = reference_game(players)
    error(api.post(url(game, 0)), 401, "NotAuthenticated")


def test_refusals(players, make_user, client_for):
    me = client_for(players[0])
    live = reference_game(players, status=Status.ACTIVE, upto=300)
    error(me.post(url(live, 0)), 409, "GameNotFinished")
    error(me.get(url(live, 0)), 409, "GameNotFinished")
    error(me.get(download(live, 0)), 409, "GameNotFinished")
    other = [make_user() for _ in range(4)]
    finished = reference_game(other)
    error(me.post(url(finished, 4)), 400, "InvalidSeat")
    error(me.post(url(finished, 2**64)), 400, "InvalidSeat")
    error(me.post(url(Game(id=987654), 0)), 404, "UnknownGame")
    acquire = Game.objects.create(game_type="acquire", mode=2, status=Status.FINISHED, seed=1)
    error(me.post(url(acquire, 0)), 404, "NoDecisionReview")


def test_the_endpoints_are_in_the_schema(api):
    schema = api.get("/api/schema/", HTTP_ACCEPT="application/json").json()
    path = schema["paths"]["/api/games/{game_id}/review/{seat}/"]
    assert path["post"]["operationId"] == "games_decision_review_request"
    assert path["get"]["operationId"] == "games_decision_review"
    assert "/api/games/{game_id}/review/{seat}/download/" in schema["paths"]
