"""The NDJSON export: format, filters, limits, visibility, and streaming under WSGI and ASGI."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from django.test import AsyncClient
from django.utils import timezone

from games.api import export
from games.models import Game
from games.service import lifecycle, lobby, moves, reads
from tests.api.conftest import assert_error

pytestmark = pytest.mark.django_db

EXPORT = "/api/games/export/"


def lines(response) -> list[dict]:
    assert response.status_code == 200
    assert response["Content-Type"] == "application/x-ndjson"
    assert response.streaming
    body = b"".join(response.streaming_content).decode()
    assert body == "" or body.endswith("\n")
    return [json.loads(line) for line in body.splitlines()]


def test_export_format(api, table, bob):
    lobby.join(bob, table.id)
    [line] = lines(api.get(EXPORT))
    detail = api.get(f"/api/games/{table.id}/").json()
    assert line == {**detail, "history": []}
    assert [p["username"] for p in line["players"]] == ["alice", "bob"]


def test_export_empty(api):
    assert lines(api.get(EXPORT)) == []


def test_export_filters(api, alice, bob, carol, stub_type):
    a = lobby.create_table(alice, "acquire", 2)
    b = lobby.create_table(bob, "acquire", 3)
    lobby.join(carol, b.id)
    s = lobby.create_table(carol, "stub", 2)
    lifecycle.abort(a.id)

    def ids(**query):
        return [line["id"] for line in lines(api.get(EXPORT, query))]

    assert ids() == [s.id, b.id, a.id]
    assert ids(game_type="acquire") == [b.id, a.id]
    assert ids(status="aborted") == [a.id]
    assert ids(player="carol") == [s.id, b.id]
    assert ids(max=2) == [s.id, b.id]
    assert ids(player="carol", max=1) == [s.id]


def test_export_time_window(api, alice):
    old, middle, new = (lobby.create_table(alice, "acquire", 2) for _ in range(3))
    now = timezone.now()
    Game.objects.filter(id=old.id).update(created=now - timedelta(days=10))
    Game.objects.filter(id=middle.id).update(created=now - timedelta(days=5))

    def ids(**query):
        return [line["id"] for line in lines(api.get(EXPORT, query))]

    assert ids(since=(now - timedelta(days=6)).isoformat()) == [new.id, middle.id]
    assert ids(until=(now - timedelta(days=6)).isoformat()) == [old.id]
    assert ids(since=(now - timedelta(days=6)).isoformat(), until=(now - timedelta(days=1)).isoformat()) == [middle.id]
    assert ids(since="2000-01-01") == [new.id, middle.id, old.id]
    # An offset Python accepts but PostgreSQL would refuse (found by schemathesis on PostgreSQL).
    assert ids(since="0230-02-18T08:21:53+23:32") == [new.id, middle.id, old.id]


@pytest.mark.parametrize("query", [{"since": "yesterday"}, {"until": "2024-13-40"}, {"max": 0}, {"max": "x"},
                                   {"status": "nope"}, {"game_type": "chess"},
                                   # Valid ISO 8601, but with no UTC equivalent (once a 500 mid-stream).
                                   {"since": "9999-12-31T23:59:59-12:00"}, {"until": "0001-01-01T00:00:00+14:00"}])
def test_export_bad_query_is_400_json(api, query):
    response = api.get(EXPORT, query)
    assert response["Content-Type"] == "application/json"
    assert_error(response, 400, "InvalidRequest")


def test_export_reads_in_batches(api, alice, monkeypatch):
    monkeypatch.setattr(export, "BATCH_SIZE", 3)
    games = [lobby.create_table(alice, "acquire", 2).id for _ in range(8)]
    newest_first = games[::-1]
    assert [line["id"] for line in lines(api.get(EXPORT))] == newest_first
    assert [line["id"] for line in lines(api.get(EXPORT, {"max": 7}))] == newest_first[:7]
    assert [line["id"] for line in lines(api.get(EXPORT, {"max": 3}))] == newest_first[:3]


@pytest.mark.parametrize("accept", ["application/x-ndjson", "text/html", "application/json",
                                    "text/html,application/xhtml+xml,*/*;q=0.8"])
def test_export_ignores_the_accept_header(api, table, accept):
    # An export is NDJSON for every client, including a browser following the admin's link.
    assert len(lines(api.get(EXPORT, HTTP_ACCEPT=accept))) == 1
    single = api.get(f"/api/games/{table.id}/export/", HTTP_ACCEPT=accept)
    assert single.status_code == 200 and single["Content-Type"] == "application/x-ndjson"


def test_export_errors_are_json_whatever_the_accept_header(api):
    response = api.get(EXPORT, {"max": 0}, HTTP_ACCEPT="application/x-ndjson")
    assert response["Content-Type"] == "application/json"
    assert_error(response, 400, "InvalidRequest")


def test_export_of_live_game_shows_the_requesters_view(live, api, client_for, carol):
    game = live.refresh()
    for viewer in [*live.players, carol, None]:
        client = api if viewer is None else client_for(viewer)
        [line] = lines(client.get(EXPORT))
        assert line["status"] == "active"
        assert line["history"] == client.get(f"/api/games/{game.id}/history/").json()["messages"]
        assert len(line["history"]) == game.history_size


def test_stub_export_hides_live_secrets_and_reveals_finished_ones(stub_live, api, client_for, alice, bob):
    def secrets(client) -> list:
        [line] = lines(client.get(EXPORT))
        return [m["params"][0] for m in line["history"] if m["type"] == "Dealt"]

    assert secrets(api) == [None, None]
    seat0 = secrets(client_for(stub_live.user_at(0)))
    assert seat0[0] is not None and seat0[1] is None
    game = stub_live.game
    while stub_live.refresh().status == "active":
        to_act = reads.snapshot(game, alice)["to_act"][0]
        moves.apply_action(game.id, stub_live.user_at(to_act), "Add", [3])
    assert None not in secrets(api)


def test_single_game_export(api, table):
    response = api.get(f"/api/games/{table.id}/export/")
    assert response.status_code == 200 and response["Content-Type"] == "application/x-ndjson"
    [line] = [json.loads(x) for x in response.content.decode().splitlines()]
    assert line["id"] == table.id and line["history"] == []
    assert_error(api.get("/api/games/999/export/"), 404, "UnknownGame")


@pytest.mark.django_db(transaction=True)
async def test_export_streams_asynchronously_under_asgi(db_call, make_user, monkeypatch):
    # Under ASGI (Daphne) the body must be an async iterator so Django streams it batch by batch.
    monkeypatch.setattr(export, "BATCH_SIZE", 2)
    alice = await db_call(make_user, "alice")
    for _ in range(5):
        await db_call(lobby.create_table, alice, "acquire", 2)
    response = await AsyncClient().get(EXPORT, {"max": 4})
    assert response.status_code == 200 and response["Content-Type"] == "application/x-ndjson"
    assert response.is_async
    body = b"".join([chunk async for chunk in response.streaming_content])
    assert len(body.decode().splitlines()) == 4

