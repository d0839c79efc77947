"""No bug and no race kills a lobby consumer, and presence is cleaned up whatever happened.

A consumer that dies on an exception is closed with 1011 and never runs ``disconnect()``: its
``Client`` row stays and the user shows as online in every Greetings. Each case here once did that:
an unexpected error after and before Login, a push racing the close, a server process that died.
The inputs that once did it (frames it cannot read, fields out of range) are cases of the lobby's
bad-input suite, tests/transport/test_bad_input_ws.py, which uses this module's helpers.
"""

from __future__ import annotations

import json

import pytest
from channels.layers import get_channel_layer
from channels.testing import WebsocketCommunicator

from games.models import Client, ServerProcess
from games.service import clocks, door, presence

pytestmark = pytest.mark.django_db(transaction=True)


def strict_json(text: str) -> dict:
    """Parse as every other JSON reader would: NaN and Infinity are not JSON."""

    def refuse(name: str) -> None:
        raise AssertionError(f"the server sent {name}, which is not JSON")

    return json.loads(text, parse_constant=refuse)


async def still_usable(client) -> None:
    await client.send({"type": "EnterGame", "game": None, "ref": "alive"})
    await client.send({"type": "Chat", "text": "still here"})
    await client.expect("Chat", text="still here")


async def closed_with(client) -> int | None:
    output = await client.comm.receive_output(timeout=5)
    assert output["type"] == "websocket.close"
    return output.get("code")


async def test_an_unexpected_error_is_an_error_reply_and_the_link_stays(clients, db_call, make_user, monkeypatch):
    user = await db_call(make_user)
    client = await clients(user)

    def broken(*args, **kwargs):
        raise RuntimeError("a bug")

    monkeypatch.setattr(door, "post_chat", broken)
    await client.send({"type": "Chat", "text": "boom", "ref": "r1"})
    reply = await client.expect("Error")
    assert reply["code"] == "InternalError" and "a bug" not in reply["reason"]
    monkeypatch.undo()
    await still_usable(client)
    await client.close()
    assert await db_call(Client.objects.count) == 0


async def test_an_unexpected_error_before_login_is_a_clean_fatal_close(clients, db_call, make_user, monkeypatch):
    from games.transport import lobby_consumer as consumers

    user = await db_call(make_user)

    def broken(*args, **kwargs):
        raise RuntimeError("a bug")

    monkeypatch.setattr(consumers.presence, "connect", broken)
    client = await clients()
    await client.connect()
    await client.send({"type": "Login", "version": 1, "username": user.username, "password": "secret-pw"})
    reply = await client.recv()
    assert reply["type"] == "FatalError" and reply["code"] == "InternalError"
    assert await closed_with(client) == 4000


async def test_a_push_racing_the_close_neither_kills_the_consumer_nor_leaves_presence(db_call, make_user):
    """The server refuses sends once the socket is gone; the consumer learns of the close only when
    its disconnect message comes, after pushes already queued."""
    from config.asgi import application

    user = await db_call(make_user)
    refusing = {"on": False}

    async def app(scope, receive, send):
        async def guarded_send(message):
            if refusing["on"] and message["type"] == "websocket.send":
                raise RuntimeError("the socket is closed")
            await send(message)

        await application(scope, receive, guarded_send)

    comm = WebsocketCommunicator(app, "/ws/bot/")
    assert (await comm.connect())[0]
    await comm.send_to(text_data=json.dumps(
        {"type": "Login", "version": 1, "username": user.username, "password": "secret-pw"}))
    assert json.loads(await comm.receive_from(timeout=5))["type"] == "Greetings"
    assert await db_call(Client.objects.filter(user=user).count) == 1
    refusing["on"] = True
    layer = get_channel_layer()
    for n in range(5):
        await layer.group_send("lobby", {"type": "push.message", "skip_users": [],
                                         "message": {"type": "Chat", "text": f"push {n}"}})
    await comm.send_to(text_data=json.dumps({"type": "Chat", "text": "after"}))
    await comm.send_input({"type": "websocket.disconnect", "code": 1006})
    await comm.wait(timeout=5)  # the consumer ended normally: an exception would be raised here
    assert await db_call(Client.objects.filter(user=user).count) == 0


def test_heartbeat_forgets_the_clients_of_a_dead_process(make_user):
    alice, bob = make_user(), make_user()
    now = clocks.now_ms()
    dead_after = int(presence.dead_after_seconds() * 1000)
    ServerProcess.objects.create(id="crashed", last_seen_ms=now - dead_after - 1)
    ServerProcess.objects.create(id="alive", last_seen_ms=now - 1000)
    stale = Client.objects.create(user=alice, channel_name="x", server="crashed")
    live = Client.objects.create(user=bob, channel_name="y", server="alive")
    gone = presence.beat(now)
    assert gone == [stale.id]
    assert list(Client.objects.values_list("id", flat=True)) == [live.id]
    assert set(ServerProcess.objects.values_list("id", flat=True)) == {"alive", presence.SERVER_ID}
    # This process beat: it is alive as long as it keeps beating.
    assert ServerProcess.objects.get(id=presence.SERVER_ID).last_seen_ms == now
    # Later, the other process has stopped beating too: its client goes, this process's row stays.
    assert presence.beat(now + dead_after + 1) == [live.id]
    assert list(ServerProcess.objects.values_list("id", flat=True)) == [presence.SERVER_ID]
    assert not Client.objects.exists()
