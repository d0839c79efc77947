"""GET /api/games/<id>/review/: the seed's review array, as an attachment, once the game is over."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games.acquire.engine.review import replay as replay_review
from games.models import Game
from games.service import lobby

pytestmark = pytest.mark.django_db


def started_game(make_user) -> Game:
    alice, bob = make_user(), make_user()
    game = lobby.create_table(alice, "acquire", 2)
    lobby.join(bob, game.id)
    lobby.accept(alice, game.id)
    lobby.accept(bob, game.id)
    return Game.objects.get(id=game.id)


def test_review_of_a_finished_game_replays_to_its_result(client, make_user):
    game = started_game(make_user)
    for seat in game.seats.select_related("user"):
        lobby.leave(seat.user, game.id)  # both leave: the server plays it out
    game.refresh_from_db()
    assert game.status == "finished"
    response = client.get(reverse("api-game-review", args=[game.id]))
    assert response.status_code == 200
    assert response["Content-Disposition"] == f'attachment; filename="acquire-{game.id}-review.json"'
    review = response.json()
    assert review[0] == 2 and len(review[7]) == 108 and len(review[8]) == game.seq
    assert replay_review(review).result() == game.result
    assert all(action[-1] == 1 for action in review[8][1:])  # forfeited seats: auto-played


def test_review_of_a_live_game_is_refused_to_everyone_staff_included(client, make_user):
    # Being staff reveals nothing more of a live game than a spectator sees (docs/security.md).
    game = started_game(make_user)
    url = reverse("api-game-review", args=[game.id])
    for viewer in (None, make_user(is_staff=True), make_user(is_staff=True, is_superuser=True)):
        if viewer is not None:
            client.force_login(viewer)
        refused = client.get(url)
        assert refused.status_code == 409 and refused.json()["code"] == "GameNotOver"
        assert "[" not in refused.content.decode()  # no array, no tiles


def test_review_of_unknown_or_unstarted_games(client, make_user):
    assert client.get(reverse("api-game-review", args=[987654])).status_code == 404
    table = lobby.create_table(make_user(), "acquire", 3)
    response = client.get(reverse("api-game-review", args=[table.id]))
    assert response.status_code == 409 and response.json()["code"] == "GameNotStarted"
