"""Game types, the game list (filters, pagination), table creation and game detail."""

from __future__ import annotations

import pytest

from games.core.engine import Mode
from games.core.registry import GAME_TYPES, GameType
from games.models import Game, Status
from games.service import lifecycle, lobby
from tests.api.conftest import assert_error

pytestmark = pytest.mark.django_db


def test_game_types_lists_the_registry(api):
    response = api.get("/api/game-types/")
    assert response.status_code == 200
    assert response.json() == [gt.describe() for gt in GAME_TYPES.values()]
    acquire = next(t for t in response.json() if t["key"] == "acquire")
    assert acquire["playable"] is True
    assert {"id": 7, "name": "Teams 2 vs 2", "seats": 4, "teams": 2} in acquire["modes"]
    assert next(t for t in response.json() if t["key"] == "riichi")["playable"] is True
    cribbage = next(t for t in response.json() if t["key"] == "cribbage")
    assert cribbage["playable"] is True and cribbage["has_bot"] is True
    assert [m["seats"] for m in cribbage["modes"]] == [2, 3, 4]
    assert cribbage["bot_levels"] == acquire["bot_levels"] == []
    assert next(t for t in response.json() if t["key"] == "riichi")["bot_levels"] == [
        "beginner", "intermediate", "strong"]


def test_create_table(alice, client_for):
    response = client_for(alice).post("/api/games/", {"game_type": "acquire", "mode": 4, "time_start": 600,
                                                      "time_increment": 5}, format="json")
    assert response.status_code == 201, response.json()
    body = response.json()
    game = Game.objects.get(id=body["id"])
    assert (game.host_id, game.mode, game.time_start, game.time_increment) == (alice.id, 4, 600, 5)
    assert body["status"] == "setup"
    assert body["host_username"] == "alice"
    assert body["setup"]["users"] == [{"user": alice.id, "username": "alice", "bot": False, "slot": 0, "team": None,
                                       "accepted": False, "position": None, "rating": 0.0, "provisional": True}]
    assert body["setup"]["version"] == 0
    assert body["players"][0]["username"] == "alice"


def test_create_table_with_rules(alice, client_for):
    body = client_for(alice).post("/api/games/", {"game_type": "cribbage", "mode": 2,
                                                  "rules": {"counting": "manual", "variants": "D"}},
                                  format="json").json()
    assert Game.objects.get(id=body["id"]).rules == {"counting": "manual", "variants": "D"}
    refused = client_for(alice).post("/api/games/", {"game_type": "cribbage", "mode": 2,
                                                     "rules": {"variants": "X"}}, format="json")
    assert_error(refused, 400, "InvalidRules")


def test_create_table_untimed_by_default(alice, client_for):
    body = client_for(alice).post("/api/games/", {"game_type": "acquire", "mode": 2}, format="json").json()
    assert (body["time_start"], body["time_increment"]) == (None, 0)


@pytest.mark.parametrize(
    ("payload", "code"),
    [
        ({"game_type": "chess", "mode": 2}, "UnknownGameType"),
        ({"game_type": "draughts", "mode": 2}, "GameTypeUnavailable"),
        ({"game_type": "acquire", "mode": 42}, "InvalidMode"),
        ({"game_type": "acquire"}, "InvalidMessage"),
        ({"game_type": "acquire", "mode": "two"}, "InvalidMessage"),
        ({"game_type": "acquire", "mode": 2, "time_start": 0}, "InvalidTimeControl"),
        ({"game_type": "acquire", "mode": 2, "time_increment": 2**40}, "InvalidMessage"),
        ({"mode": 42}, "InvalidMode"),  # no game_type: Acquire, as on the WebSocket
    ],
)
def test_create_table_refused(alice, client_for, payload, code, monkeypatch):
    # A game type the registry declares before its engine exists.
    monkeypatch.setitem(GAME_TYPES, "draughts", GameType("draughts", "Draughts", (Mode(2, "Two players", 2),), None))
    assert_error(client_for(alice).post("/api/games/", payload, format="json"), 400, code)
    assert not Game.objects.exists()


def test_validation_errors_name_the_field(alice, client_for):
    body = assert_error(client_for(alice).post("/api/games/", {"game_type": "acquire", "mode": "x"}, format="json"),
                        400, "InvalidMessage")
    assert body["errors"] == {"mode": ["'mode' must be an integer"]}
    assert body["reason"] == "'mode' must be an integer"


def test_malformed_json_is_400(alice, client_for):
    response = client_for(alice).post("/api/games/", "{nope", content_type="application/json")
    assert_error(response, 400, "ParseError")


def test_detail(api, table, bob):
    lobby.join(bob, table.id)
    response = api.get(f"/api/games/{table.id}/")
    assert response.status_code == 200
    body = response.json()
    assert body["id"] == table.id
    assert body["setup"] == lobby.setup_state(Game.objects.get(id=table.id))
    assert [p["username"] for p in body["players"]] == ["alice", "bob"]
    for key in ("status", "seq", "history_size", "created", "started", "ended", "result"):
        assert key in body
    assert body["started"] is None and body["result"] is None


def test_unknown_game_is_404_json(api):
    assert_error(api.get("/api/games/999999/"), 404, "UnknownGame")


def test_out_of_range_game_id_is_404(api):
    assert_error(api.get(f"/api/games/{10**30}/"), 404, "UnknownGame")


def test_list_is_newest_first(api, alice, bob):
    first = lobby.create_table(alice, "acquire", 2)
    second = lobby.create_table(bob, "acquire", 3)
    body = api.get("/api/games/").json()
    assert body["count"] == 2
    assert [g["id"] for g in body["results"]] == [second.id, first.id]


def test_list_filters(api, alice, bob, carol, stub_type):
    acquire_alice = lobby.create_table(alice, "acquire", 2)
    acquire_bob = lobby.create_table(bob, "acquire", 4)
    lobby.join(carol, acquire_bob.id)
    stub = lobby.create_table(carol, "stub", 2)
    lifecycle.abort(acquire_alice.id)

    def ids(**query):
        response = api.get("/api/games/", query)
        assert response.status_code == 200, response.json()
        return {g["id"] for g in response.json()["results"]}

    assert ids(game_type="acquire") == {acquire_alice.id, acquire_bob.id}
    assert ids(game_type="stub") == {stub.id}
    assert ids(status="aborted") == {acquire_alice.id}
    assert ids(status="setup") == {acquire_bob.id, stub.id}
    assert ids(player="carol") == {acquire_bob.id, stub.id}
    assert ids(player="carol", game_type="acquire") == {acquire_bob.id}
    assert ids(player="nobody") == set()
    assert ids(game_type="acquire", status="aborted") == {acquire_alice.id}


@pytest.mark.parametrize("query", [{"status": "sleeping"}, {"game_type": "chess"}])
def test_list_invalid_filter_is_400(api, query):
    assert_error(api.get("/api/games/", query), 400, "InvalidRequest")


def test_list_pagination(api, alice):
    games = [lobby.create_table(alice, "acquire", 2) for _ in range(5)]
    newest_first = [g.id for g in reversed(games)]
    page1 = api.get("/api/games/", {"page_size": 2}).json()
    assert page1["count"] == 5
    assert [g["id"] for g in page1["results"]] == newest_first[:2]
    assert page1["previous"] is None and "page=2" in page1["next"]
    page3 = api.get(page1["next"].replace("page=2", "page=3")).json()
    assert [g["id"] for g in page3["results"]] == newest_first[4:]
    assert page3["next"] is None
    assert_error(api.get("/api/games/", {"page": 9}), 404, "NotFound")


def test_list_queries_do_not_grow_with_games(api, alice, bob, django_assert_max_num_queries):
    for _ in range(10):
        lobby.join(bob, lobby.create_table(alice, "acquire", 3).id)
    with django_assert_max_num_queries(4):
        assert len(api.get("/api/games/").json()["results"]) == 10


def test_status_is_reported(api, table):
    lifecycle.abort(table.id)
    body = api.get(f"/api/games/{table.id}/").json()
    assert body["status"] == Status.ABORTED
    assert body["ended"] is not None
