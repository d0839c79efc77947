"""Ratings beside players' names: in a table's set-up state (lobby messages, Greetings, REST) and on
the game page, read for a whole table, or a whole list of tables, in one query."""

from __future__ import annotations

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games.core import ratings as model
from games.models import Rating
from games.service import lobby, presence
from games.service import ratings as service
from tests.ratings.games import end, singles

pytestmark = pytest.mark.django_db(transaction=True)


def shown(user, game_type="acquire") -> float:
    r = Rating.objects.get(user=user, game_type=game_type)
    return round(model.conservative(r.mu, r.sigma), 1)


def rated_pair(make_user, games: int):
    ann, bob = make_user("ann"), make_user("bob")
    for i in range(games):
        end([ann, bob], singles(1 + i % 2, 2 - i % 2))
    return ann, bob


def test_setup_state_gives_each_user_their_rating_in_the_tables_type(make_user):
    ann, bob = rated_pair(make_user, 10)
    end([ann, bob], singles(2, 1), game_type="cribbage", mode=2)
    cat = make_user("cat")
    table = lobby.create_table(ann, "acquire", 3)
    lobby.join(bob, table.id)
    lobby.join(cat, table.id)
    users = lobby.setup_state(table)["users"]
    assert [(u["username"], u["rating"], u["provisional"]) for u in users] == [
        ("ann", shown(ann), False), ("bob", shown(bob), False), ("cat", 0.0, True)]
    assert shown(ann) != 0.0
    # Another game type's table shows that type's rating (one game: provisional).
    crib = lobby.create_table(bob, "cribbage", 2)
    assert [(u["rating"], u["provisional"]) for u in lobby.setup_state(crib)["users"]] == [
        (shown(bob, "cribbage"), True)]


def test_a_newcomers_rating_is_zero_not_minus_zero(make_user):
    value = service.shown_ratings([("acquire", [make_user().id])])
    assert [v["rating"] for v in value.values()] == [0.0]
    assert str(next(iter(value.values()))["rating"]) == "0.0"


def test_one_query_for_a_table_and_for_every_table(make_user):
    ann, bob = rated_pair(make_user, 2)
    table = lobby.create_table(ann, "acquire", 3)
    lobby.join(bob, table.id)
    seats = list(table.seats.select_related("user"))
    with CaptureQueriesContext(connection) as queries:
        lobby.setup_state(table, seats)
    assert len(queries) == 1
    # Greetings: the tables' ratings in one query, however many tables and players.
    with CaptureQueriesContext(connection) as few:
        state = presence.lobby_state(ann)
    for i in range(4):
        other = lobby.create_table(make_user(f"host{i}"), "cribbage", 2)
        lobby.join(make_user(f"guest{i}"), other.id)
    with CaptureQueriesContext(connection) as more:
        state = presence.lobby_state(ann)
    assert len(more) == len(few) and len(state["games_being_set_up"]) == 5
    first = next(g for g in state["games_being_set_up"] if g["game"] == table.id)
    assert [(u["rating"], u["provisional"]) for u in first["users"]] == [(shown(ann), True), (shown(bob), True)]


def test_rest_games_list_gives_the_ratings(make_user, client):
    ann, bob = rated_pair(make_user, 3)
    table = lobby.create_table(ann, "acquire", 2)
    body = client.get("/api/games/", {"status": "setup"}).json()
    setup = next(g for g in body["results"] if g["id"] == table.id)["setup"]
    assert [(u["rating"], u["provisional"]) for u in setup["users"]] == [(shown(ann), True)]


def test_game_page_shows_ratings_beside_the_players(make_user, client):
    ann, bob = rated_pair(make_user, 10)
    table = lobby.create_table(ann, "acquire", 3)
    lobby.join(bob, table.id)
    lobby.join(make_user("cat"), table.id)
    page = client.get(reverse("game", args=[table.id])).content.decode()
    badges = re.findall(r'data-testid="seat-rating"[^>]*><span class="visually-hidden">rating </span>([^<]*)'
                        r'(<span class="rating-badge__provisional"> provisional)?', page)
    provisional = '<span class="rating-badge__provisional"> provisional'
    assert badges == [(f"{shown(ann):.1f}", ""), (f"{shown(bob):.1f}", ""), ("0.0", provisional)]
    config = re.search(r'<script id="game-config" type="application/json">(.*?)</script>', page).group(1)
    assert f'"rating": {shown(ann)}, "provisional": false' in config


def playing(users, game_type="acquire"):
    """A game in progress of ``users`` (by position), as the lobby lists it."""
    from games.models import Game, Seat, Status

    game = Game.objects.create(game_type=game_type, mode=len(users), status=Status.ACTIVE, seed=1, host=users[0])
    for p, u in enumerate(users):
        Seat.objects.create(game=game, user=u, slot=p, position=p, accepted=True)
    return game


def test_games_in_progress_carry_each_players_rating_in_one_query(make_user):
    ann, bob = rated_pair(make_user, 10)
    cat = make_user("cat")
    game = playing([bob, ann, cat])
    lobby.create_table(make_user("host"), "acquire", 2)
    with CaptureQueriesContext(connection) as few:
        state = presence.lobby_state(ann)
    entry = next(g for g in state["games"] if g["game"] == game.id)
    assert entry["users"] == [bob.id, ann.id, cat.id]
    assert entry["ratings"] == [{"user": bob.id, "rating": shown(bob), "provisional": False},
                                {"user": ann.id, "rating": shown(ann), "provisional": False},
                                {"user": cat.id, "rating": 0.0, "provisional": True}]
    # More games in progress and tables being set up: still one query for all their ratings.
    for i in range(3):
        playing([make_user(f"p{i}"), make_user(f"q{i}")], game_type="cribbage")
        lobby.create_table(make_user(f"host{i}"), "acquire", 2)
    with CaptureQueriesContext(connection) as more:
        state = presence.lobby_state(ann)
    assert len(state["games"]) == 4 and len(state["games_being_set_up"]) == 4 and len(more) == len(few)
    # A game the client already knows comes without its details, ratings included.
    known = presence._picture(ann, {game.id: 0}, None, False, True)
    assert "ratings" not in next(g for g in known["games"] if g["game"] == game.id)
