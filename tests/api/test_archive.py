"""The game list's archive filters (ended_after / ended_before / result) with pagination, and
``GET /api/players/<username>/``, over games whose results the tests made."""

from __future__ import annotations

from datetime import timedelta
from urllib.parse import parse_qs, urlparse

import pytest

from games.service import lobby
from tests.api.archive_games import ANN_LOST, ANN_STATS, ANN_WON, BASE, known_games, over_game, ranked
from tests.api.conftest import assert_error

pytestmark = pytest.mark.django_db


@pytest.fixture
def people(make_user):
    return [make_user(name) for name in ("ann", "bob", "cat", "dan")]


@pytest.fixture
def games(people):
    return known_games(*people)


def listed(api, **query) -> set[int]:
    response = api.get("/api/games/", {"page_size": 200, **query})
    assert response.status_code == 200, response.json()
    return {g["id"] for g in response.json()["results"]}


def ids(games, *names) -> set[int]:
    return {games[name].id for name in names}


def test_result_filter_follows_each_games_result(api, games):
    assert listed(api, player="ann", result="won") == ids(games, *ANN_WON)
    assert listed(api, player="ann", result="lost") == ids(games, *ANN_LOST)
    assert listed(api, player="ann", result="aborted") == ids(games, "riichi_aborted")
    assert listed(api, result="aborted") == ids(games, "riichi_aborted")
    # bob: 2nd in riichi, 1st in the other; his Acquire team lost although he topped the table
    # on his own; he shared the tie's first place; he won one cribbage game of two.
    assert listed(api, player="bob", result="won") == ids(games, "riichi_third", "acquire_tie", "cribbage_lost")
    assert listed(api, player="bob", result="lost") == ids(games, "riichi_won", "acquire_team", "cribbage_won")
    # dan sat with ann in the winning Acquire team.
    assert listed(api, player="dan", result="won") == ids(games, "acquire_team")
    assert listed(api, player="ann", result="won", game_type="acquire") == ids(games, "acquire_team", "acquire_tie")
    assert listed(api, player="nobody", result="won") == set()


def test_ended_window_is_half_open(api, games):
    day = timedelta(days=1)
    # ended_after includes its moment; ended_before excludes its own.
    window = {"ended_after": (BASE + day).isoformat(), "ended_before": (BASE + 3 * day).isoformat()}
    assert listed(api, **window) == ids(games, "riichi_third", "riichi_aborted")
    assert listed(api, ended_after=(BASE + 6 * day).isoformat()) == ids(games, "cribbage_won")
    assert listed(api, ended_before=BASE.isoformat()) == set()
    # An offset is read as what it means in UTC: 13:00+01:00 is BASE.
    assert listed(api, ended_after="2026-03-01T13:00+01:00", ended_before="2026-03-01T13:00:01+01:00") == ids(
        games, "riichi_won")
    assert listed(api, status="finished", game_type="riichi", **window) == ids(games, "riichi_third")


def test_a_table_still_being_set_up_has_no_end(api, games, people):
    table = lobby.create_table(people[0], "cribbage", 2)
    assert table.id in listed(api, player="ann")
    assert table.id not in listed(api, player="ann", ended_after=BASE.isoformat())
    assert table.id not in listed(api, player="ann", result="lost")


@pytest.mark.parametrize("query", [
    {"result": "won"},  # won by whom?
    {"result": "lost", "game_type": "riichi"},
    {"result": "drawn", "player": "ann"},
    {"ended_after": "yesterday"},
    {"ended_before": "2026-13-01T00:00Z"},
])
def test_bad_archive_filters_are_400(api, query):
    assert_error(api.get("/api/games/", query), 400, "InvalidRequest")


def test_pages_keep_the_filters(api, people):
    ann, bob = people[:2]
    won = [over_game("cribbage", 2, [ann, bob], ranked([121, 80 + n], [1, 2]), ended=BASE + timedelta(hours=n))
           for n in range(5)]
    over_game("cribbage", 2, [ann, bob], ranked([70, 121], [2, 1]), ended=BASE + timedelta(hours=9))
    newest_first = [g.id for g in reversed(won)]
    query = {"player": "ann", "result": "won", "status": "finished", "page_size": 2}
    first = api.get("/api/games/", query).json()
    assert first["count"] == 5 and [g["id"] for g in first["results"]] == newest_first[:2]
    kept = parse_qs(urlparse(first["next"]).query)
    assert kept["player"] == ["ann"] and kept["result"] == ["won"] and kept["page"] == ["2"]
    second = api.get(first["next"]).json()
    assert [g["id"] for g in second["results"]] == newest_first[2:4]
    third = api.get(second["next"]).json()
    assert [g["id"] for g in third["results"]] == newest_first[4:] and third["next"] is None


def test_player_numbers(api, games):
    response = api.get("/api/players/ann/")
    assert response.status_code == 200, response.json()
    body = response.json()
    assert body["username"] == "ann" and body["bot"] is False
    assert body["games"] == {"finished": 6, "aborted": 1, "active": 0}
    stats = {s["game_type"]: s for s in body["stats"]}
    assert list(stats) == ["acquire", "riichi", "cribbage"]  # the site's order of game types
    for game_type, expected in ANN_STATS.items():
        got = {k: stats[game_type][k] for k in expected}
        assert got == pytest.approx(expected), game_type
    assert "average_hand" not in stats["riichi"] and "average_pegging" not in stats["acquire"]


def test_a_player_without_games_and_an_unknown_one(api, make_user):
    make_user("newcomer")
    body = api.get("/api/players/newcomer/").json()
    assert body["games"] == {"finished": 0, "aborted": 0, "active": 0} and body["stats"] == []
    assert_error(api.get("/api/players/nobody-at-all/"), 404, "UnknownPlayer")


def test_player_numbers_cost_the_same_for_more_games(api, people, django_assert_num_queries):
    ann, bob = people[:2]
    for n in range(2):
        over_game("cribbage", 2, [ann, bob], ranked([121, 60], [1, 2]), ended=BASE + timedelta(hours=n),
                  document={"deals": []})
    with django_assert_num_queries(4) as few:
        api.get("/api/players/ann/")
    for n in range(8):
        over_game("cribbage", 2, [bob, ann], ranked([121, 60], [1, 2]), ended=BASE + timedelta(days=1, hours=n),
                  document={"deals": []})
        over_game("riichi", 4, [bob, ann, people[2], people[3]], ranked([1, 2, 3, 4], [4, 3, 2, 1]),
                  ended=BASE + timedelta(days=2, hours=n))
    with django_assert_num_queries(len(few.captured_queries)):
        body = api.get("/api/players/ann/").json()
    assert body["games"]["finished"] == 18


def test_the_schema_documents_the_archive(api):
    schema = api.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()
    names = {p["name"] for p in schema["paths"]["/api/games/"]["get"]["parameters"]}
    assert {"ended_after", "ended_before", "result", "player", "status", "game_type", "page"} <= names
    player = schema["paths"]["/api/players/{username}/"]["get"]
    assert player["operationId"] == "players_retrieve"
    assert set(player["responses"]) == {"200", "404"}
