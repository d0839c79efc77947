"""Table set-up over HTTP: join, leave, accept, mode, arrangement, kick. Refusals change nothing."""

from __future__ import annotations

import pytest

from games.models import Arrangement, Game, Status
from games.service import lobby
from tests.api.conftest import assert_error, state

pytestmark = pytest.mark.django_db


def post(client, game_id, op, body=None):
    return client.post(f"/api/games/{game_id}/{op}/", body or {}, format="json")


def test_join(table, bob, client_for):
    response = post(client_for(bob), table.id, "join")
    assert response.status_code == 200, response.json()
    assert [u["username"] for u in response.json()["setup"]["users"]] == ["alice", "bob"]
    assert response.json()["setup"]["version"] == 1


def test_join_twice_is_409(table, alice, client_for):
    before = state(table)
    assert_error(post(client_for(alice), table.id, "join"), 409, "AlreadyInGame")
    assert state(table) == before


def test_join_full_table_is_409_and_changes_nothing(table, bob, carol, client_for):
    lobby.join(bob, table.id)
    before = state(table)
    assert_error(post(client_for(carol), table.id, "join"), 409, "GameFull")
    assert state(table) == before
    assert not table.seats.filter(user=carol).exists()


def test_leave(table, bob, client_for):
    lobby.join(bob, table.id)
    response = post(client_for(bob), table.id, "leave")
    assert response.status_code == 200
    assert [u["username"] for u in response.json()["setup"]["users"]] == ["alice"]


def test_host_leaving_hands_the_table_over(table, alice, bob, client_for):
    lobby.join(bob, table.id)
    body = post(client_for(alice), table.id, "leave").json()
    assert body["host"] == bob.id and body["host_username"] == "bob"


def test_last_user_leaving_aborts(table, alice, client_for):
    body = post(client_for(alice), table.id, "leave").json()
    assert body["status"] == Status.ABORTED and body["players"] == []


def test_leave_when_not_seated_is_409(table, bob, client_for):
    before = state(table)
    assert_error(post(client_for(bob), table.id, "leave"), 403, "NotInGame")
    assert state(table) == before


def test_accept(table, alice, client_for):
    response = post(client_for(alice), table.id, "accept", {"version": 0})
    assert response.status_code == 200
    assert response.json()["setup"]["users"][0]["accepted"] is True


def test_accept_without_version(table, alice, client_for):
    assert post(client_for(alice), table.id, "accept").status_code == 200


def test_accept_stale_version_is_409(table, alice, bob, client_for):
    lobby.join(bob, table.id)  # version 0 -> 1
    before = state(table)
    assert_error(post(client_for(alice), table.id, "accept", {"version": 0}), 409, "SetupChanged")
    assert state(table) == before


def test_accept_twice_is_409(table, alice, client_for):
    client = client_for(alice)
    post(client, table.id, "accept")
    assert_error(post(client, table.id, "accept"), 409, "AlreadyAccepted")


def test_accept_when_not_seated_is_409(table, bob, client_for):
    assert_error(post(client_for(bob), table.id, "accept"), 403, "NotInGame")


def test_change_mode(table, alice, client_for):
    response = post(client_for(alice), table.id, "mode", {"mode": 4})
    assert response.status_code == 200
    assert response.json()["mode"] == 4


def test_change_mode_not_host_is_403(table, bob, client_for):
    lobby.join(bob, table.id)
    before = state(table)
    assert_error(post(client_for(bob), table.id, "mode", {"mode": 4}), 403, "NotHost")
    assert state(table) == before


def test_change_mode_too_small_is_409(table, alice, bob, client_for):
    lobby.join(bob, table.id)
    before = state(table)
    assert_error(post(client_for(alice), table.id, "mode", {"mode": 1}), 409, "ModeTooSmall")
    assert state(table) == before


@pytest.mark.parametrize(("body", "code"), [({"mode": 99}, "InvalidMode"), ({}, "InvalidMessage"),
                                            ({"mode": "four"}, "InvalidMessage")])
def test_change_mode_invalid_is_400(table, alice, client_for, body, code):
    before = state(table)
    assert_error(post(client_for(alice), table.id, "mode", body), 400, code)
    assert state(table) == before


def test_change_arrangement_with_order(table, alice, bob, client_for):
    lobby.join(bob, table.id)
    body = post(client_for(alice), table.id, "arrangement",
                {"arrangement": Arrangement.EXACT, "order": [bob.id, alice.id]}).json()
    assert body["arrangement"] == Arrangement.EXACT
    assert [(u["username"], u["slot"]) for u in body["setup"]["users"]] == [("bob", 0), ("alice", 1)]


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({"arrangement": 9}, "InvalidArrangement"),
        ({"arrangement": Arrangement.TEAMS}, "InvalidArrangement"),  # mode 2 has no teams
        ({"arrangement": Arrangement.EXACT, "order": [12345]}, "InvalidSeating"),
        ({"arrangement": Arrangement.EXACT, "order": "alice"}, "InvalidMessage"),
    ],
)
def test_change_arrangement_invalid_is_400(table, alice, client_for, body, code):
    before = state(table)
    assert_error(post(client_for(alice), table.id, "arrangement", body), 400, code)
    assert state(table) == before


def test_change_arrangement_not_host_is_403(table, bob, client_for):
    lobby.join(bob, table.id)
    before = state(table)
    assert_error(post(client_for(bob), table.id, "arrangement", {"arrangement": 2}), 403, "NotHost")
    assert state(table) == before


def test_kick(table, alice, bob, client_for):
    lobby.join(bob, table.id)
    body = post(client_for(alice), table.id, "kick", {"user": bob.id}).json()
    assert [u["username"] for u in body["setup"]["users"]] == ["alice"]


def test_kick_not_host_is_403(table, alice, bob, client_for):
    lobby.join(bob, table.id)
    before = state(table)
    assert_error(post(client_for(bob), table.id, "kick", {"user": alice.id}), 403, "NotHost")
    assert state(table) == before


def test_kick_self_is_400(table, alice, client_for):
    assert_error(post(client_for(alice), table.id, "kick", {"user": alice.id}), 400, "CannotKickSelf")


def test_kick_absent_user_is_404(table, alice, carol, client_for):
    assert_error(post(client_for(alice), table.id, "kick", {"user": carol.id}), 404, "NotAtTable")


@pytest.mark.parametrize("user", [10**30, 0, -1, "bob"])
def test_kick_impossible_user_id_is_400(table, alice, client_for, user):
    # Ids beyond the database's range once reached the ORM and failed there with a 500.
    before = state(table)
    assert_error(post(client_for(alice), table.id, "kick", {"user": user}), 400, "InvalidMessage")
    assert state(table) == before


@pytest.mark.parametrize(("op", "body"), [("join", None), ("leave", None), ("accept", None), ("mode", {"mode": 2}),
                                          ("arrangement", {"arrangement": 1}), ("kick", {"user": 1})])
def test_unknown_game_is_404(alice, client_for, op, body):
    assert_error(post(client_for(alice), 424242, op, body), 404, "UnknownGame")


@pytest.mark.parametrize("op", ["join", "mode", "accept"])
def test_lobby_ops_on_a_finished_table_are_409(table, alice, bob, client_for, op):
    lobby.leave(alice, table.id)  # aborted
    assert_error(post(client_for(bob if op == "join" else alice), table.id, op, {"mode": 2}), 409, "GameNotInSetup")


def test_anonymous_cannot_act(api, table):
    before = state(table)
    for op in ("join", "leave", "accept", "mode", "arrangement", "kick"):
        response = post(api, table.id, op, {"mode": 2})
        assert_error(response, 401, "NotAuthenticated")
        assert response["WWW-Authenticate"] == "Token"
    assert state(table) == before


def test_game_is_reloaded_after_each_operation(table, bob, client_for):
    # The response must show the table as stored, not the lobby's in-memory instance.
    body = post(client_for(bob), table.id, "join").json()
    assert body["setup"] == lobby.setup_state(Game.objects.get(id=table.id))


def test_add_an_mjai_bot_the_operator_registered(alice, client_for, settings):
    """docs/protocols/mjai.md, "mjai bots as house bots": only at a riichi table, only a registered
    name; each is a bot account of its own, numbered per table."""
    settings.MJAI_BOTS = {"rulebase": "python bot.py {seat}"}
    riichi = lobby.create_table(alice, "riichi", 4)
    for _ in range(2):
        response = post(client_for(alice), riichi.id, "add-bot", {"bot": "mjai:rulebase"})
        assert response.status_code == 200, response.json()
    users = response.json()["setup"]["users"]
    assert [(u["username"], u["bot"]) for u in users[1:]] == [("mjai-rulebase-1", True), ("mjai-rulebase-2", True)]
    before = state(riichi)
    body = assert_error(post(client_for(alice), riichi.id, "add-bot", {"bot": "mjai:mortal"}), 400, "UnknownBot")
    assert "mjai:rulebase" in body["reason"] and state(riichi) == before
    acquire = lobby.create_table(alice, "acquire", 4)
    assert_error(post(client_for(alice), acquire.id, "add-bot", {"bot": "mjai:rulebase"}), 400, "UnknownBot")
    assert_error(post(client_for(alice), acquire.id, "add-bot", {"bot": 5}), 400, "InvalidMessage")



def test_add_a_riichi_bot_of_a_level(alice, client_for):
    """docs/bots.md, "Bot levels": a level's name seats that level's account; an unknown one is
    refused UnknownBot, naming the levels, and nothing changes."""
    riichi = lobby.create_table(alice, "riichi", 4)
    for level in ("beginner", "intermediate"):
        assert post(client_for(alice), riichi.id, "add-bot", {"bot": level}).status_code == 200
    before = state(riichi)
    body = assert_error(post(client_for(alice), riichi.id, "add-bot", {"bot": "expert"}), 400, "UnknownBot")
    assert "'expert'" in body["reason"] and "beginner, intermediate, strong" in body["reason"]
    assert state(riichi) == before
    response = post(client_for(alice), riichi.id, "add-bot", {"bot": "strong"})
    assert response.status_code == 200, response.json()
    users = response.json()["setup"]["users"]
    assert [(u["username"], u["bot"], u["accepted"]) for u in users[1:]] == [
        ("house-beginner-1", True, True), ("house-intermediate-1", True, True), ("house-strong-1", True, True)]
