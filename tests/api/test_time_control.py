"""Time control when a table is opened, for every game type: a starting amount and an increment
(Fischer) for Acquire and cribbage as for any game, checked on the server with a reason; shown on
the table's page, in the lobby and in the admin."""

from __future__ import annotations

import pytest

from games.models import Game, Status
from games.service import abandon, clocks, lobby

pytestmark = pytest.mark.django_db


def create(client, **body):
    return client.post("/api/games/", body, format="json")


@pytest.mark.parametrize("game_type, mode", [("acquire", 2), ("cribbage", 2)])
def test_rest_opens_a_table_with_a_start_and_an_increment(alice, client_for, game_type, mode):
    response = create(client_for(alice), game_type=game_type, mode=mode, time_start=300, time_increment=3)
    assert response.status_code == 201, response.json()
    body = response.json()
    assert (body["time_start"], body["time_increment"], body["time_control"]) == (300, 3, None)
    assert (body["setup"]["time_start"], body["setup"]["time_increment"]) == (300, 3)
    game = Game.objects.get(id=body["id"])
    assert (game.time_start, game.time_increment, game.time_per_decision) == (300, 3, None)
    assert clocks.label(game) == "5 min + 3 s"


@pytest.mark.parametrize("body, code, says", [
    ({"time_start": 0}, "InvalidTimeControl", "time_start is 1 to 86400 seconds"),
    ({"time_start": 86_401}, "InvalidTimeControl", "time_start is 1 to 86400 seconds"),
    ({"time_start": 300, "time_increment": -1}, "InvalidTimeControl", "time_increment is 0 to 86400"),
    ({"time_start": 300, "time_increment": 86_401}, "InvalidTimeControl", "time_increment is 0 to 86400"),
    ({"time_increment": 5}, "InvalidTimeControl", "time_increment needs time_start"),
    ({"time_start": "300"}, "InvalidMessage", "time_start"),
    ({"time_start": 300, "time_control": {"per_decision": 5, "bank": 20}}, "InvalidTimeControl", "not both"),
])
@pytest.mark.parametrize("game_type", ["acquire", "cribbage"])
def test_bad_clocks_are_refused_with_a_reason_and_create_nothing(alice, client_for, game_type, body, code, says):
    response = create(client_for(alice), game_type=game_type, mode=2, **body)
    assert response.status_code == 400, response.json()
    answer = response.json()
    assert answer["code"] == code and says in answer["reason"], answer
    assert not Game.objects.exists()


@pytest.mark.django_db(transaction=True)
async def test_the_websocket_create_takes_the_clock_and_greetings_show_it(clients, db_call, make_user):
    alice, bob, carol = await db_call(make_user), await db_call(make_user), await db_call(make_user)
    a, b = await clients(alice), await clients(bob)
    await a.send({"type": "CreateGame", "game_type": "cribbage", "mode": 2, "time_start": 420, "time_increment": 2})
    setup = (await a.expect("GameCreated"))["setup"]
    assert (setup["time_start"], setup["time_increment"], setup["time_control"]) == (420, 2, None)
    await a.send({"type": "CreateGame", "game_type": "acquire", "mode": 2, "time_increment": 2})
    refused = await a.expect("Error")
    assert refused["code"] == "InvalidTimeControl" and "needs time_start" in refused["reason"]
    await b.send({"type": "JoinGame", "game": setup["game"]})
    await a.expect("UserJoinedGame", user=bob.id)  # a join resets acceptances: accept after it
    for conn in (a, b):
        await conn.send({"type": "AcceptSetup", "game": setup["game"]})
    for conn in (a, b):
        await conn.expect("GameStarted")
    # Someone arriving in the lobby later learns each game's clock and status from Greetings.
    greetings = await (await clients()).login(carol)
    listed = next(g for g in greetings["games"] if g["game"] == setup["game"])
    assert (listed["time_start"], listed["time_increment"], listed["time_control"]) == (420, 2, None)
    assert listed["status"] == "active"


def test_clock_labels():
    def label(**fields):
        return clocks.label(Game(**{"time_start": None, "time_increment": 0, "time_per_decision": None,
                                    "time_bank": 0, **fields}))

    assert label() == "Untimed"
    assert label(time_start=600, time_increment=5) == "10 min + 5 s"
    assert label(time_start=60) == "1 min"
    assert label(time_start=90, time_increment=1) == "90 s + 1 s"
    assert label(time_per_decision=5, time_bank=20) == "5 + 20 s"


def test_the_table_page_and_the_lobby_show_the_clock(alice, bob, client):
    timed = lobby.create_table(alice, "acquire", 2, time_start=300, time_increment=3)
    untimed = lobby.create_table(bob, "cribbage", 2)
    page = client.get(f"/games/{timed.id}/").content.decode()
    assert 'data-testid="game-clock">5 min + 3 s<' in page
    page = client.get(f"/games/{untimed.id}/").content.decode()
    assert 'data-testid="game-clock">Untimed<' in page
    # The anonymous lobby lists games in progress with their clock, and an adjourned one as such.
    for game, host, guest in ((timed, alice, bob), (untimed, bob, alice)):
        lobby.join(guest, game.id)
        lobby.accept(host, game.id)
        lobby.accept(guest, game.id)
    untimed.refresh_from_db()
    abandon.watch(clocks.now_ms())
    assert abandon.watch(clocks.now_ms() + 3600_000).adjourned == [untimed.id]
    listed = client.get("/").content.decode()
    assert 'data-testid="game-clock">5 min + 3 s<' in listed
    assert 'data-testid="game-clock">Untimed<' in listed
    assert listed.count('data-testid="game-adjourned"') == 1
    assert Game.objects.get(id=untimed.id).status == Status.ADJOURNED


def test_the_admin_lists_the_clock_and_filters_adjourned_games(alice, bob, admin_client):
    game = lobby.create_table(alice, "cribbage", 2, time_start=300, time_increment=3)
    other = lobby.create_table(bob, "acquire", 2)
    Game.objects.filter(id=other.id).update(status=Status.ADJOURNED)
    page = admin_client.get("/admin/games/game/").content.decode()
    assert "5 min + 3 s" in page and "Untimed" in page
    filtered = admin_client.get("/admin/games/game/?status__exact=adjourned").content.decode()
    assert "Adjourned" in filtered
    assert f"/admin/games/game/{other.id}/change/" in filtered
    assert f"/admin/games/game/{game.id}/change/" not in filtered
