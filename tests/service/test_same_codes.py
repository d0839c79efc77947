"""One rule per field, for every transport: each bad value of every field the create-game, set-up,
action and chat requests take is sent over REST and over the lobby WebSocket, and both must answer
the same code, the one this table expects (docs/api.md, "One rule per field"), and change nothing.

Both transports run in full: the REST client through Django's whole stack, the WebSocket through a
Channels communicator on the ASGI application (routing, origin check, authentication).
"""

from __future__ import annotations

from typing import Any

import pytest
from channels.db import database_sync_to_async
from rest_framework.test import APIClient

from accounts.tokens import token_for
from games.models import Action, ChatMessage, Game, Seat
from games.service import lobby

pytestmark = pytest.mark.django_db(transaction=True)

NOT_INTEGERS = ["2", 2.0, True, None, [2], {"n": 2}]
TOO_BIG = [2**53, -(2**53)]

# (what the base request gets, the code both transports must answer). A field set to ``...`` is left out.
CREATE = {"game_type": "acquire", "mode": 2}
CREATE_CASES: list[tuple[dict[str, Any], str]] = [
    ({"mode": ...}, "InvalidMessage"),
    *[({"mode": bad}, "InvalidMessage") for bad in [*NOT_INTEGERS, *TOO_BIG]],
    ({"mode": 42}, "InvalidMode"),
    # game_type: left out or null opens Acquire (the lobby protocol's default), so mode 42 is the fault.
    ({"game_type": ..., "mode": 42}, "InvalidMode"),
    ({"game_type": None, "mode": 42}, "InvalidMode"),
    *[({"game_type": bad}, "InvalidMessage") for bad in [5, True, ["acquire"], {"k": "acquire"}]],
    *[({"game_type": bad}, "UnknownGameType") for bad in ["", " ", "chess", "ACQUIRE", "x" * 33, "x" * 5000]],
    # Fischer clock: an integer out of range is the clock's fault; anything no column holds, the field's.
    *[({"time_start": bad}, "InvalidTimeControl") for bad in [0, -5, 86_401, 2**31 - 1]],
    *[({"time_start": bad}, "InvalidMessage") for bad in ["300", 300.0, True, [300], 2**31, -(2**31)]],
    *[({"time_start": 300, "time_increment": bad}, "InvalidTimeControl") for bad in [-1, 86_401]],
    *[({"time_start": 300, "time_increment": bad}, "InvalidMessage") for bad in ["5", 1.5, False, 2**40]],
    ({"time_increment": 5}, "InvalidTimeControl"),  # an increment on no clock
    ({"time_increment": None, "mode": 42}, "InvalidMode"),  # null is no increment
    ({"time_start": None, "mode": 42}, "InvalidMode"),
    # Per-decision clock: whatever is wrong with it.
    *[({"time_control": bad}, "InvalidTimeControl") for bad in [
        "5", 5, True, [5, 20], {}, {"per_decision": 0}, {"per_decision": 5, "bank": -1},
        {"per_decision": "5"}, {"per_decision": 5, "extra": 1}, {"per_decision": 3601}]],
    ({"time_control": {"per_decision": 5}, "time_start": 300}, "InvalidTimeControl"),
    ({"time_control": None, "mode": 42}, "InvalidMode"),
    # Spectator delay: anything but 0-900 seconds.
    *[({"spectator_delay": bad}, "InvalidSpectatorDelay") for bad in [-1, 901, 2**53, "5", 5.0, True, [5], {}]],
    ({"spectator_delay": None, "mode": 42}, "InvalidMode"),
    # Rated or casual (docs/ratings.md): true or false, or left out for the default; nothing else.
    *[({field: bad}, "InvalidMessage") for field in ("rated", "rated_people_only") for bad in [0, 1, "true", [], {}]],
    *[({field: None, "mode": 42}, "InvalidMode") for field in ("rated", "rated_people_only")],
    ({"rated": False, "rated_people_only": True}, "InvalidRated"),
    # Rule options: an object, which the engine judges; the platform's own keys are no host's to set.
    *[({"rules": bad}, "InvalidMessage") for bad in [[], "tenhou", 5, True]],
    ({"rules": None, "mode": 42}, "InvalidMode"),
    *[({"rules": bad}, "InvalidRules") for bad in [{"host_seat": 1}, {"tile_bag": []}, {"imported": True},
                                                   {"hand_end_ack": 1}]],
]

# Requests at alice's table (WebSocket type, REST path, base fields, cases).
SETUP_CASES: list[tuple[str, str, dict[str, Any], list[tuple[dict[str, Any], str]]]] = [
    ("AcceptSetup", "accept", {}, [
        *[({"version": bad}, "InvalidMessage") for bad in ["1", 1.0, True, -1, 2**31, [1]]],
        ({"version": 999}, "SetupChanged"),
    ]),
    ("ChangeMode", "mode", {"mode": 3}, [
        ({"mode": ...}, "InvalidMessage"),
        *[({"mode": bad}, "InvalidMessage") for bad in [*NOT_INTEGERS, *TOO_BIG]],
        ({"mode": 99}, "InvalidMode"),
    ]),
    ("ChangeArrangement", "arrangement", {"arrangement": 2}, [
        ({"arrangement": ...}, "InvalidMessage"),
        *[({"arrangement": bad}, "InvalidMessage") for bad in NOT_INTEGERS],
        ({"arrangement": 9}, "InvalidArrangement"),
        *[({"order": bad}, "InvalidMessage") for bad in ["alice", 5, {"a": 1}, [0], ["1"], [True], [2**53]]],
        ({"order": [123456]}, "InvalidSeating"),
    ]),
    ("Kick", "kick", {}, [
        ({"user": ...}, "InvalidMessage"),
        *[({"user": bad}, "InvalidMessage") for bad in [*NOT_INTEGERS, 0, -1, 2**53]],
        ({"user": 123456}, "NotAtTable"),
    ]),
]

MOVE = {"action": "PlayTile", "params": []}
MOVE_CASES: list[tuple[dict[str, Any], str]] = [
    ({"action": ...}, "InvalidMessage"),
    *[({"action": bad}, "InvalidMessage") for bad in [5, True, None, ["PlayTile"], {}, "x" * 41, "x" * 5000]],
    *[({"params": bad}, "InvalidMessage") for bad in ["x", 5, {"a": 1}, True]],
    *[({"v": bad}, "InvalidMessage") for bad in ["1", 1.0, True, -1, 2**31, [1]]],
    *[({"seat": bad}, "InvalidMessage") for bad in ["0", 0.0, True, -1, 2**15, [0]]],
]

CHAT_CASES: list[tuple[dict[str, Any], str]] = [
    ({"text": ...}, "InvalidChat"),
    *[({"text": bad}, "InvalidChat") for bad in [None, 5, True, ["hi"], {"t": "hi"}, "", "   ", "\n\t"]],
    ({"text": "x" * 501}, "ChatTooLong"),
]


def build(base: dict[str, Any], change: dict[str, Any]) -> dict[str, Any]:
    body = {**base, **change}
    return {k: v for k, v in body.items() if v is not ...}


def world() -> dict[str, Any]:
    """Everything a refused request must leave alone."""
    return {
        "games": list(Game.objects.order_by("id").values_list(
            "id", "status", "mode", "arrangement", "host_id", "setup_version", "seq", "history_size")),
        "seats": list(Seat.objects.order_by("id").values_list("game_id", "user_id", "slot", "accepted", "position")),
        "actions": Action.objects.count(),
        "chat": ChatMessage.objects.count(),
    }


@pytest.fixture
def tables(make_user, settings) -> dict[str, Any]:
    # Every case goes over one socket and one account: neither flood limit is the subject here.
    settings.FRAME_BURST = 10_000
    settings.API_RATE_USER = "100000/min"
    alice, bob, carol = make_user("alice"), make_user("bob"), make_user("carol")
    table = lobby.create_table(alice, "acquire", 3)
    lobby.join(carol, table.id)
    live = lobby.create_table(alice, "acquire", 2)
    lobby.join(bob, live.id)
    lobby.accept(alice, live.id)
    lobby.accept(bob, live.id)
    return {"alice": alice, "token": token_for(alice), "table": table.id, "live": live.id}


class Both:
    """Sends one request over REST and over the WebSocket and gives both codes."""

    def __init__(self, ws: Any, token: str) -> None:
        self.ws = ws
        self.rest = APIClient()
        self.rest.credentials(HTTP_AUTHORIZATION=f"Token {token}")

    async def codes(self, message: dict[str, Any], path: str, body: dict[str, Any]) -> tuple[str, str]:
        response = await database_sync_to_async(self.rest.post)(path, body, format="json")
        rest = response.json()
        assert response.status_code >= 400 and set(rest) >= {"code", "reason"}, (path, body, rest)
        await self.ws.send(message)
        reply = await self.ws.expect("Error")
        return rest["code"], reply["code"]


async def check(both: Both, cases: list[tuple[str, dict[str, Any], str, dict[str, Any], str]]) -> None:
    """Every case: (WebSocket type, its extra fields, REST path, fields, expected code)."""
    wrong = []
    for kind, extra, path, fields, expected in cases:
        rest, ws = await both.codes({"type": kind, **extra, **fields}, path, fields)
        if not rest == ws == expected:
            wrong.append(f"{kind} {fields!r:.120}: REST {rest}, WebSocket {ws}, expected {expected}")
    assert not wrong, "\n".join(wrong)


async def test_same_code_for_every_bad_field(clients, db_call, tables):
    ws = await clients(tables["alice"])
    both = Both(ws, tables["token"])
    before = await db_call(world)
    table, live = tables["table"], tables["live"]
    cases = [("CreateGame", {}, "/api/games/", build(CREATE, change), code) for change, code in CREATE_CASES]
    for kind, route, base, setup_cases in SETUP_CASES:
        cases += [(kind, {"game": table}, f"/api/games/{table}/{route}/", build(base, change), code)
                  for change, code in setup_cases]
    cases += [("DoGameAction", {"game": live}, f"/api/games/{live}/moves/", build(MOVE, change), code)
              for change, code in MOVE_CASES]
    cases += [("Chat", {"game": table}, f"/api/games/{table}/chat/", build({}, change), code)
              for change, code in CHAT_CASES]
    await check(both, cases)
    assert await db_call(world) == before


async def test_a_body_that_is_no_object_is_refused_as_a_frame_that_is_none(clients, db_call, tables):
    """REST's counterpart of a lobby frame that is no JSON object: InvalidMessageFormat."""
    ws = await clients(tables["alice"])
    await ws.send("[]")
    assert (await ws.expect("Error"))["code"] == "InvalidMessageFormat"
    rest = Both(ws, tables["token"]).rest
    for path in ["/api/games/", f"/api/games/{tables['table']}/chat/", f"/api/games/{tables['live']}/moves/"]:
        for body in ["[]", '"text"', "5", "null", "true"]:
            response = await db_call(rest.post, path, body, content_type="application/json")
            assert (response.status_code, response.json()["code"]) == (400, "InvalidMessageFormat"), (path, body)
