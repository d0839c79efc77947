"""Bad input over the WebSocket: each is answered with its documented error and changes nothing.

Before Login the seed allows only FatalError (and the server closes); after Login an Error
reply leaves the connection usable, which every case checks by making a valid request after it.
"""

from __future__ import annotations

import json

import pytest

from accounts.models import User
from games.models import Action, ChatMessage, Client, Game, Seat

pytestmark = pytest.mark.django_db(transaction=True)


def world() -> dict:
    """Everything a refused request must leave alone."""
    return {
        "games": list(Game.objects.order_by("id").values_list(
            "id", "status", "mode", "arrangement", "host_id", "setup_version", "seq", "history_size")),
        "seats": list(Seat.objects.order_by("id").values_list("game_id", "user_id", "slot", "accepted", "position")),
        "actions": list(Action.objects.order_by("id").values_list("game_id", "seq", "type", "params")),
        "chat": ChatMessage.objects.count(),
        "users": User.objects.count(),
    }


@pytest.mark.parametrize(
    ("login", "code"),
    [
        ({"type": "Login", "version": 0, "username": "alice", "password": "secret-pw"}, "NotUsingLatestVersion"),
        ({"type": "Login", "version": 1, "username": "alice", "password": "wrong"}, "IncorrectPassword"),
        ({"type": "Login", "version": 1, "username": "é" * 33, "password": "x"}, "InvalidUsername"),
        ({"type": "Login", "version": 1, "token": "not-a-token"}, "InvalidToken"),
        ({"type": "Login", "version": 1}, "MissingPassword"),
        ({"type": "Login", "version": 1, "username": "alice", "password": "secret-pw", "games": "x"},
         "InvalidMessageFormat"),
        ({"type": "CreateGame", "mode": 2}, "NotLoggedIn"),
        ("{not json", "InvalidMessageFormat"),
        ({"version": 1}, "InvalidMessageFormat"),
    ],
)
async def test_failed_login_is_fatal(clients, db_call, make_user, login, code):
    await db_call(make_user, "alice")
    before = await db_call(world)
    client = await clients()
    await client.connect()
    await client.send(login)
    reply = await client.recv()
    assert reply["type"] == "FatalError" and reply["code"] == code and reply["reason"]
    closed = await client.comm.receive_output(timeout=2)
    assert closed["type"] == "websocket.close"
    assert await db_call(world) == before
    assert await db_call(Client.objects.count) == 0


async def test_login_by_token_and_session_user_mismatch(clients, db_call, make_user):
    from accounts.tokens import token_for

    alice = await db_call(make_user, "alice")
    key = await db_call(token_for, alice)
    client = await clients()
    await client.connect()
    await client.send({"type": "Login", "version": 1, "token": key})
    assert (await client.expect("Greetings"))["user"] == alice.id
    other = await clients()
    await other.connect()
    await other.send({"type": "Login", "version": 1, "token": key, "username": "mallory"})
    assert (await other.recv())["code"] == "InvalidUsername"


async def _setup_table(clients, db_call, make_user, mode=3):
    users = [await db_call(make_user) for _ in range(3)]
    conns = [await clients(u) for u in users]
    await conns[0].send({"type": "CreateGame", "game_type": "acquire", "mode": mode})
    game_id = (await conns[0].expect("GameCreated"))["game"]
    await conns[1].send({"type": "JoinGame", "game": game_id})
    await conns[0].expect("UserJoinedGame")
    await conns[1].send({"type": "AcceptSetup", "game": game_id})
    await conns[0].expect("SetupAccepted")
    for conn in conns:
        await conn.drain(0.1)
    return users, conns, game_id


def _cases(game_id: int, users: list) -> list[tuple[int, object, str]]:
    """(client index, frame, expected code)."""
    return [
        (1, "{not json", "InvalidMessageFormat"),
        (1, "[1, 2]", "InvalidMessageFormat"),
        (1, {"type": "Fly"}, "UnknownMessageType"),
        (1, {"type": "JoinGame", "game": 987654}, "UnknownGame"),
        (1, {"type": "JoinGame", "game": "1"}, "InvalidMessage"),
        (1, {"type": "Resync", "game": 987654}, "UnknownGame"),
        (1, {"type": "AcceptSetup", "game": game_id}, "AlreadyAccepted"),
        (1, {"type": "JoinGame", "game": game_id}, "AlreadyInGame"),
        (1, {"type": "Kick", "game": game_id, "user": users[0].id}, "NotHost"),
        (1, {"type": "ChangeArrangement", "game": game_id, "arrangement": 3}, "NotHost"),
        (0, {"type": "ChangeArrangement", "game": game_id, "arrangement": 3}, "InvalidArrangement"),
        (0, {"type": "ChangeArrangement", "game": game_id, "arrangement": 2, "order": [users[0].id]},
         "InvalidSeating"),
        (0, {"type": "ChangeMode", "game": game_id, "mode": 42}, "InvalidMode"),
        (0, {"type": "CreateGame", "game_type": "chess", "mode": 2}, "UnknownGameType"),
        (0, {"type": "Chat", "game": game_id, "text": "x" * 501}, "ChatTooLong"),
        (0, {"type": "Chat", "game": None, "text": "a\x00b"}, "InvalidMessageFormat"),  # no NUL in any string
        (0, {"type": "Chat", "game": 987654, "text": "hello"}, "UnknownGame"),
        (2, {"type": "AcceptSetup", "game": game_id}, "NotInGame"),
        (2, {"type": "LeaveGame", "game": game_id}, "NotInGame"),
        (2, {"type": "DoGameAction", "game": game_id, "action": "PlayTile", "params": [0]}, "GameNotActive"),
        (2, {"type": "Fly", "ref": 7}, "UnknownMessageType"),
        (2, "x" * (65 * 1024), "InvalidMessageFormat"),
        (0, '{"type": "Chat", "game": null, "text": "\\ud800"}', "InvalidMessageFormat"),
        (0, {"type": "Kick", "game": game_id, "user": 10**30}, "InvalidMessage"),
        (0, {"type": "Kick", "game": game_id, "user": 987654}, "NotAtTable"),
        (0, {"type": "CreateGame", "game_type": "acquire", "mode": 2, "time_start": -5}, "InvalidTimeControl"),
        (0, {"type": "CreateGame", "game_type": "cribbage", "mode": 2, "rules": {"counting": "shouted"}},
         "InvalidRules"),
        (0, {"type": "CreateGame", "game_type": "cribbage", "mode": 2, "rules": "manual"}, "InvalidMessage"),
    ]


async def test_refused_requests_change_nothing_and_keep_the_connection(clients, db_call, make_user):
    users, conns, game_id = await _setup_table(clients, db_call, make_user)
    for index, frame, code in _cases(game_id, users):
        before = await db_call(world)
        client = conns[index]
        await client.send(frame if isinstance(frame, str) else json.dumps(frame))
        reply = await client.expect("Error")
        assert reply["code"] == code, (frame, reply)
        assert reply["reason"]
        if isinstance(frame, dict) and "ref" in frame:
            assert reply["ref"] == frame["ref"]
        assert await db_call(world) == before, frame
        # Still connected and served.
        await client.send({"type": "Resync", "game": game_id})
        assert (await client.expect("Snapshot"))["game"] == game_id


async def test_joining_a_full_table(clients, db_call, make_user):
    users, conns, game_id = await _setup_table(clients, db_call, make_user, mode=2)
    before = await db_call(world)
    await conns[2].send({"type": "JoinGame", "game": game_id})
    assert (await conns[2].expect("Error"))["code"] == "GameFull"
    assert await db_call(world) == before
