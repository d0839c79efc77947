"""History, snapshots, replays and moves on started games.

``live`` runs each test on the stub engine and on the real Acquire engine (skipped until
games/acquire/engine/game.py exists). Tests named ``test_stub_*`` rely on the stub's known rules.
"""

from __future__ import annotations

from typing import Any

import pytest

from games.models import Status
from games.service import lobby
from tests.api.conftest import Live, assert_error, state

pytestmark = pytest.mark.django_db


def url(game_id: int, op: str) -> str:
    return f"/api/games/{game_id}/{op}/"


def first_legal(legal: list[dict[str, Any]]) -> tuple[str, list[Any]]:
    """An action the engine lists as legal, if its legal-action entries carry type and params."""
    for item in legal:
        action, params = item.get("type", item.get("action")), item.get("params")
        if isinstance(action, str) and isinstance(params, list):
            return action, params
        if isinstance(action, str) and item.get("tiles"):
            # Acquire lists playable tiles with what each would do; a lone tile needs no follow-up.
            status = item.get("status", {})
            lone = [t for t in item["tiles"] if status.get(str(t)) == "lone"]
            return action, [(lone or item["tiles"])[0]]
    pytest.fail(f"cannot build a move from this engine's legal actions: {legal[:2]!r}")


def mover(live: Live, client_for) -> tuple[Any, int, dict[str, Any]]:
    """The user the game waits for, their seat, and their snapshot."""
    to_act = client_for(live.players[0]).get(url(live.game.id, "snapshot")).json()["to_act"]
    assert to_act, "a started game waits for somebody"
    position = to_act[0]
    user = live.user_at(position)
    return user, position, client_for(user).get(url(live.game.id, "snapshot")).json()


# --- history ----------------------------------------------------------------------------------


def test_history_has_the_same_length_for_every_viewer(live, api, client_for):
    game = live.refresh()
    views = [client_for(u).get(url(game.id, "history")).json() for u in live.players]
    views.append(api.get(url(game.id, "history")).json())
    assert {len(v["messages"]) for v in views} == {game.history_size}
    assert game.history_size > 0
    assert all(v["v"] == game.seq and v["start"] == 0 for v in views)


def test_history_from_start(live, client_for):
    client = client_for(live.players[0])
    full = client.get(url(live.game.id, "history")).json()["messages"]
    tail = client.get(url(live.game.id, "history"), {"start": 1}).json()
    assert tail["start"] == 1 and tail["messages"] == full[1:]


@pytest.mark.parametrize("start", ["-1", "x"])
def test_history_bad_start_is_400(live, api, start):
    assert_error(api.get(url(live.game.id, "history"), {"start": start}), 400, "InvalidRequest")


def test_history_of_a_table_in_setup_is_empty(api, table):
    assert api.get(url(table.id, "history")).json() == {"game": table.id, "v": 0, "start": 0, "messages": []}


def test_history_of_unknown_game_is_404(api):
    assert_error(api.get(url(999, "history")), 404, "UnknownGame")


def test_stub_history_shows_each_seat_only_its_own_secret(stub_live, api, client_for):
    game = stub_live.game

    def dealt(client) -> list[Any]:
        messages = client.get(url(game.id, "history")).json()["messages"]
        return [m["params"][0] for m in messages if m["type"] == "Dealt"]

    seat0, seat1 = dealt(client_for(stub_live.players[0])), dealt(client_for(stub_live.players[1]))
    assert seat0[0] is not None and seat0[1] is None
    assert seat1[0] is None and seat1[1] is not None
    assert dealt(api) == [None, None]


# --- snapshot ---------------------------------------------------------------------------------


def test_snapshot_for_the_player_to_act(live, client_for):
    user, position, snap = mover(live, client_for)
    assert snap["type"] == "Snapshot" and snap["status"] == Status.ACTIVE
    assert snap["position"] == position
    assert position in snap["to_act"]
    assert snap["legal"], "the player to act has something to do"
    assert snap["v"] == live.refresh().seq


def test_snapshot_for_a_spectator(live, api, carol, client_for):
    for client in (api, client_for(carol)):
        snap = client.get(url(live.game.id, "snapshot")).json()
        assert snap["position"] is None and snap["legal"] == []
        assert snap["view"] is not None


def test_snapshot_of_a_table_in_setup(api, table):
    snap = api.get(url(table.id, "snapshot")).json()
    assert snap["status"] == "setup" and snap["view"] is None and snap["history"] == []


def test_snapshot_of_unknown_game_is_404(api):
    assert_error(api.get(url(999, "snapshot")), 404, "UnknownGame")


# --- replay -----------------------------------------------------------------------------------


def test_replay_steps(live, client_for):
    game = live.refresh()
    client = client_for(live.players[0])
    start = client.get(url(game.id, "replay"), {"step": 0}).json()
    assert (start["step"], start["steps"], start["history"]) == (0, game.seq, [])
    end = client.get(url(game.id, "replay"), {"step": game.seq}).json()
    assert end["history"] == client.get(url(game.id, "history")).json()["messages"]


@pytest.mark.parametrize(("step", "code"), [(None, "InvalidRequest"), ("-1", "InvalidRequest"),
                                            ("x", "InvalidRequest")])
def test_replay_bad_step_is_400(live, api, step, code):
    query = {} if step is None else {"step": step}
    assert_error(api.get(url(live.game.id, "replay"), query), 400, code)


def test_replay_past_the_end_is_400(live, api):
    assert_error(api.get(url(live.game.id, "replay"), {"step": live.refresh().seq + 1}), 400, "InvalidStep")


def test_replay_of_a_table_in_setup_is_409(api, table):
    assert_error(api.get(url(table.id, "replay"), {"step": 0}), 409, "GameNotStarted")


def test_stub_replay_hides_secrets_of_a_live_game_from_spectators(stub_live, api):
    assert api.get(url(stub_live.game.id, "replay"), {"step": 1}).json()["view"]["secrets"] == [None, None]


# --- moves ------------------------------------------------------------------------------------


def test_move(live, client_for):
    user, position, snap = mover(live, client_for)
    action, params = first_legal(snap["legal"])
    seq = live.refresh().seq
    response = client_for(user).post(url(live.game.id, "moves"),
                                      {"action": action, "params": params, "v": seq, "seat": position},
                                      format="json")
    assert response.status_code == 200, response.json()
    assert response.json()["game"] == live.game.id
    assert response.json()["v"] > seq
    assert live.refresh().seq == response.json()["v"]


def test_move_for_another_seat_is_403_and_changes_nothing(live, client_for):
    user, position, snap = mover(live, client_for)
    other = 1 - position
    action, params = first_legal(snap["legal"])
    before = state(live.game)
    # The user to act names the other seat: nobody may act for somebody else.
    response = client_for(user).post(url(live.game.id, "moves"),
                                      {"action": action, "params": params, "seat": other}, format="json")
    assert_error(response, 403, "NotYourSeat")
    # And the other user names the seat to act.
    response = client_for(live.user_at(other)).post(url(live.game.id, "moves"),
                                                     {"action": action, "params": params, "seat": position},
                                                     format="json")
    assert_error(response, 403, "NotYourSeat")
    assert state(live.game) == before


def test_move_out_of_turn_is_409(live, client_for):
    user, position, snap = mover(live, client_for)
    assert len(snap["to_act"]) == 1  # both test engines wait for one seat at a time
    action, params = first_legal(snap["legal"])
    before = state(live.game)
    response = client_for(live.user_at(1 - position)).post(url(live.game.id, "moves"),
                                                            {"action": action, "params": params}, format="json")
    assert_error(response, 409, "NotYourTurn")
    assert state(live.game) == before


def test_illegal_move_is_400(live, client_for):
    user, _, _ = mover(live, client_for)
    before = state(live.game)
    response = client_for(user).post(url(live.game.id, "moves"), {"action": "NoSuchAction", "params": [1, "x"]},
                                     format="json")
    assert_error(response, 400, "IllegalAction")
    assert state(live.game) == before


def test_stale_move_is_409(live, client_for):
    user, _, snap = mover(live, client_for)
    action, params = first_legal(snap["legal"])
    before = state(live.game)
    response = client_for(user).post(url(live.game.id, "moves"),
                                     {"action": action, "params": params, "v": before["seq"] + 5}, format="json")
    assert_error(response, 409, "StaleAction")
    assert state(live.game) == before


def test_spectator_cannot_move(live, carol, client_for):
    before = state(live.game)
    assert_error(client_for(carol).post(url(live.game.id, "moves"), {"action": "Add", "params": [1]},
                                        format="json"), 403, "NotInGame")
    assert state(live.game) == before


def test_anonymous_cannot_move(live, api):
    before = state(live.game)
    assert_error(api.post(url(live.game.id, "moves"), {"action": "Add", "params": [1]}, format="json"),
                 401, "NotAuthenticated")
    assert state(live.game) == before


@pytest.mark.parametrize("body", [{}, {"action": "Add", "params": "1"}, {"action": "Add", "seat": -1},
                                  {"action": "Add", "v": "x"}, {"action": "x" * 41}])
def test_malformed_move_is_400(live, client_for, body):
    before = state(live.game)
    assert_error(client_for(live.players[0]).post(url(live.game.id, "moves"), body, format="json"),
                 400, "InvalidMessage")
    assert state(live.game) == before


def test_move_on_a_table_in_setup_is_409(table, alice, client_for):
    assert_error(client_for(alice).post(url(table.id, "moves"), {"action": "Add", "params": [1]}, format="json"),
                 409, "GameNotActive")


def test_move_on_unknown_game_is_404(alice, client_for):
    assert_error(client_for(alice).post(url(999, "moves"), {"action": "Add", "seat": 0}, format="json"),
                 404, "UnknownGame")


def test_leaving_a_game_in_progress_forfeits(live, client_for):
    user = live.players[0]
    response = client_for(user).post(url(live.game.id, "leave"))
    assert response.status_code == 200
    assert next(p for p in response.json()["players"] if p["user"] == user.id)["forfeited"] is True
    assert_error(client_for(user).post(url(live.game.id, "leave")), 403, "Forfeited")


def test_lobby_ops_on_a_started_game_are_409(live, carol, client_for):
    assert_error(client_for(carol).post(url(live.game.id, "join")), 409, "GameNotInSetup")
    assert_error(client_for(live.players[0]).post(url(live.game.id, "mode"), {"mode": 3}, format="json"),
                 409, "GameNotInSetup")


def test_stub_game_played_to_the_end_reveals_everything(stub_live, api, client_for):
    game = stub_live.game
    for _ in range(10):
        if stub_live.refresh().status != Status.ACTIVE:
            break
        user, position, snap = mover(stub_live, client_for)
        response = client_for(user).post(url(game.id, "moves"), {"action": "Add", "params": [3]}, format="json")
        assert response.status_code == 200, response.json()
    game = stub_live.refresh()
    assert game.status == Status.FINISHED
    detail = api.get(f"/api/games/{game.id}/").json()
    assert detail["result"] == {"total": 6, "last": 1} and detail["ended"] is not None
    dealt = [m for m in api.get(url(game.id, "history")).json()["messages"] if m["type"] == "Dealt"]
    assert all(m["params"][0] is not None for m in dealt)
    assert api.get(url(game.id, "replay"), {"step": 1}).json()["view"]["secrets"][0] is not None
    assert_error(client_for(stub_live.players[0]).post(url(game.id, "moves"), {"action": "Add", "params": [1]},
                                                       format="json"), 409, "GameNotActive")


def test_stub_forfeited_seat_is_played_by_the_server(stub_live, client_for):
    lobby.leave(stub_live.user_at(1), stub_live.game.id)
    user, position, _ = mover(stub_live, client_for)
    assert position == 0
    client_for(user).post(url(stub_live.game.id, "moves"), {"action": "Add", "params": [1]}, format="json")
    game = stub_live.refresh()
    assert game.seq == 3  # Deal, seat 0's Add, and the automatic Add for the absent seat 1
    assert game.actions.get(seq=3).auto is True
