"""The fan-out channel layer (config/redis_layer.py) against a real Redis.

Two layer objects on one event loop stand for two server processes: each keeps its own state,
connection and channel names. Every test uses a Redis channel prefix of its own, so tests on
other workers (or a bench on the same Redis) are not heard. The restart test runs a Redis server
of its own on a free port, and leaves the machine's alone.
"""

from __future__ import annotations

import asyncio
import os
import secrets
import shutil
import subprocess
import time
from collections.abc import Callable

import pytest
import redis
from channels.exceptions import ChannelFull

from config.channel_layers import channel_layers
from config.redis_layer import FanoutChannelLayer, _Error, _Incomplete, _message, _Push, _value
from tests.served import free_port

REDIS_URL = os.environ.get("FANOUT_REDIS_URL", "redis://127.0.0.1:6379/8")

pytestmark = [pytest.mark.scaleout, pytest.mark.timeout(120)]


def _layer(url: str = REDIS_URL, prefix: str | None = None, **options) -> FanoutChannelLayer:
    options.setdefault("capacity", 1000)  # as configured (config/channel_layers.py)
    return FanoutChannelLayer(hosts=[{"address": url, "socket_timeout": 30.0}],
                              prefix=prefix or f"test-{secrets.token_hex(4)}", **options)


@pytest.fixture
async def pair():
    """Two "processes" on one prefix."""
    prefix = f"test-{secrets.token_hex(4)}"
    a, b = _layer(prefix=prefix), _layer(prefix=prefix)
    yield a, b
    await a.close()
    await b.close()


async def _until(condition: Callable[[], bool], timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError("condition not met in time")
        await asyncio.sleep(0.01)


def _settled(layer: FanoutChannelLayer) -> bool:
    """Connected, and every subscription it wants confirmed."""
    state = layer.layer()
    return state.connected.is_set() and all(
        sub.confirmed >= sub.sent for sub in state._subs.values() if sub.wanted)


async def _nothing_more(layer: FanoutChannelLayer, channel: str, wait: float = 0.3) -> None:
    with pytest.raises(TimeoutError):
        await asyncio.wait_for(layer.receive(channel), wait)


async def test_a_group_send_reaches_every_member_once(pair):
    a, b = pair
    a1, a2, b1, b2 = (await a.new_channel(), await a.new_channel(), await b.new_channel(), await b.new_channel())
    for layer, channel in ((a, a1), (a, a2), (b, b1), (b, b2)):
        await layer.group_add("table", channel)
    await a.group_send("table", {"type": "push.message", "text": "{}", "skip_users": [3]})
    for layer, channel in ((a, a1), (a, a2), (b, b1), (b, b2)):
        assert await asyncio.wait_for(layer.receive(channel), 5) == {
            "type": "push.message", "text": "{}", "skip_users": [3]}
    # One Redis message for b's two members; a's own echo is dropped, not delivered twice.
    await _until(lambda: a.layer().echoes == 1)
    for layer, channel in ((a, a1), (a, a2), (b, b1), (b, b2)):
        await _nothing_more(layer, channel, 0.1)
    assert b.layer().received == 1


async def test_messages_keep_their_types(pair):
    a, b = pair
    channel = await b.new_channel()
    await b.group_add("g", channel)
    message = {"type": "x", "ints": {1: "one"}, "bytes": b"\x00\xff", "none": None, "float": 1.5,
               "list": [1, "two", [3]], "text": "日本語"}
    await a.group_send("g", message)
    assert await asyncio.wait_for(b.receive(channel), 5) == message


async def test_send_reaches_a_channel_of_this_process_or_another(pair):
    a, b = pair
    a1, b1 = await a.new_channel(), await b.new_channel()
    await a.send(a1, {"type": "local"})
    await a.send(b1, {"type": "remote"})
    assert await asyncio.wait_for(a.receive(a1), 5) == {"type": "local"}
    assert await asyncio.wait_for(b.receive(b1), 5) == {"type": "remote"}
    assert a.layer().published == 1  # the local send never went through Redis


async def test_order_from_one_sender_is_kept(pair):
    a, b = pair
    a1, b1 = await a.new_channel(), await b.new_channel()
    await a.group_add("g", a1)
    await b.group_add("g", b1)
    n = 0
    for round_ in range(100):
        await a.send(b1, {"type": "m", "n": n})
        await a.group_send("g", {"type": "m", "n": n + 1})
        await a.group_send_many([("g", {"type": "m", "n": n + 2}), ("other", {"type": "m"}),
                                 ("g", {"type": "m", "n": n + 3})])
        n += 4
        if round_ % 10 == 0:
            await asyncio.sleep(0)  # let some go out in writes of their own
    got_b = [(await asyncio.wait_for(b.receive(b1), 5))["n"] for _ in range(n)]
    got_a = [(await asyncio.wait_for(a.receive(a1), 5))["n"] for _ in range(n - 100)]
    assert got_b == list(range(n))
    assert got_a == [i for i in range(n) if i % 4]


async def test_group_send_many_goes_out_in_one_write(pair):
    a, b = pair
    b1 = await b.new_channel()
    for group in ("u1", "u2", "u3", "u4", "game"):
        await b.group_add(group, b1)
    await a.new_channel()
    await _until(lambda: _settled(a))
    await asyncio.sleep(0.05)
    writes = a.layer().writes
    await a.group_send_many([(group, {"type": "m", "g": group}) for group in ("u1", "u2", "u3", "u4", "game")])
    assert [(await asyncio.wait_for(b.receive(b1), 5))["g"] for _ in range(5)] == ["u1", "u2", "u3", "u4", "game"]
    assert a.layer().writes == writes + 1


async def test_group_add_returns_once_the_subscription_is_confirmed(pair):
    """A client that enters a game joins its group before reading the Snapshot: a push sent by
    another process right after ``group_add`` returns must reach it ("overlap, never a gap")."""
    a, b = pair
    channel = await b.new_channel()
    await a.new_channel()
    await _until(lambda: _settled(a))
    for i in range(50):
        await b.group_add(f"game-{i}", channel)
        await a.group_send(f"game-{i}", {"type": "move", "i": i})
        assert (await asyncio.wait_for(b.receive(channel), 5))["i"] == i


async def test_discard_then_add_again(pair):
    a, b = pair
    b1, b2 = await b.new_channel(), await b.new_channel()
    await b.group_add("g", b1)
    await b.group_discard("g", b1)
    await b.group_add("g", b2)  # its UNSUBSCRIBE and SUBSCRIBE may both be in flight
    await a.group_send("g", {"type": "m"})
    assert await asyncio.wait_for(b.receive(b2), 5) == {"type": "m"}
    await _nothing_more(b, b1)
    await b.group_discard("g", b2)
    await a.group_send("g", {"type": "gone"})
    await _nothing_more(b, b2)
    # Nobody here listens any more: the subscription is dropped once Redis confirms.
    state = b.layer()
    await _until(lambda: all(not key.endswith(b":g:g") for key in state._subs))


async def test_a_full_channel_refuses_or_drops(pair):
    prefix = f"test-{secrets.token_hex(4)}"
    a, b = _layer(prefix=prefix, capacity=2), _layer(prefix=prefix, capacity=2)
    try:
        a1, b1 = await a.new_channel(), await b.new_channel()
        await a.send(a1, {"type": "m", "n": 0})
        await a.send(a1, {"type": "m", "n": 1})
        with pytest.raises(ChannelFull):
            await a.send(a1, {"type": "m", "n": 2})
        for n in range(5):  # to another process: no error here, the receiver keeps what fits
            await a.send(b1, {"type": "m", "n": n})
        await _until(lambda: b.layer().received == 5)
        assert [(await b.receive(b1))["n"] for _ in range(2)] == [0, 1]
        await _nothing_more(b, b1, 0.1)
    finally:
        await a.close()
        await b.close()


async def test_a_message_sent_before_the_connection_is_up_goes_out_on_connecting(pair):
    a, b = pair
    b1 = await b.new_channel()
    await b.group_add("g", b1)
    await a.group_send("g", {"type": "early"})  # a's first call: its connection is still being made
    assert await asyncio.wait_for(b.receive(b1), 5) == {"type": "early"}


async def test_a_loop_that_sends_once_and_closes_gets_its_message_out(pair):
    """``async_to_sync`` outside the server (a command revoking a token, say) runs one send on a
    loop of its own and closes it: the message must be out by then."""
    a, b = pair
    b1 = await b.new_channel()
    await b.group_add("g", b1)

    async def once(n: int) -> None:
        await a.group_send("g", {"type": "once", "n": n})

    for n in range(3):
        await asyncio.to_thread(asyncio.run, once(n))
        assert await asyncio.wait_for(b.receive(b1), 5) == {"type": "once", "n": n}


async def test_other_databases_are_not_heard():
    prefix = f"test-{secrets.token_hex(4)}"
    base = REDIS_URL.rsplit("/", 1)[0]
    a, b = _layer(f"{base}/8", prefix), _layer(f"{base}/9", prefix)
    try:
        b1 = await b.new_channel()
        await b.group_add("g", b1)
        await a.group_send("g", {"type": "elsewhere"})
        await _nothing_more(b, b1)
    finally:
        await a.close()
        await b.close()


def _kill(layer: FanoutChannelLayer, url: str = REDIS_URL) -> None:
    """Have Redis drop the layer's connection, as a restart or a network fault would."""
    client = redis.Redis.from_url(url)
    try:
        name = f"channel-layer-{layer.layer().origin}"
        ids = [c["id"] for c in client.client_list() if c.get("name") == name]
        assert ids, f"no connection named {name}"
        for client_id in ids:
            client.client_kill_filter(_id=client_id)
    finally:
        client.close()


async def test_a_dropped_connection_is_made_again(pair):
    a, b = pair
    b1 = await b.new_channel()
    await b.group_add("g", b1)
    await a.new_channel()
    await _until(lambda: _settled(a))
    _kill(b)
    await _until(lambda: b.layer().connections == 2 and _settled(b))
    await a.group_send("g", {"type": "after"})
    assert await asyncio.wait_for(b.receive(b1), 5) == {"type": "after"}
    _kill(a)
    await _until(lambda: a.layer().connections == 2 and _settled(a))
    await a.send(b1, {"type": "direct"})
    assert await asyncio.wait_for(b.receive(b1), 5) == {"type": "direct"}


async def test_a_silent_connection_is_dropped_and_made_again():
    layer = _layer(ping_interval=0.1)
    try:
        state = layer.layer()
        state._socket_timeout = 1.5
        await layer.new_channel()
        await _until(lambda: _settled(layer))
        # Redis answers the pings (every 0.1 s of silence), so the connection stays...
        await asyncio.sleep(2.0)
        assert state.connections == 1
        # ...and a connection that stops answering is replaced.
        real_write = state._write
        state._write = lambda command: None if command.startswith(b"*1\r\n$4\r\nPING") else real_write(command)
        await _until(lambda: state.connections == 2, timeout=10)
    finally:
        await layer.close()


def _start_redis(port: int) -> subprocess.Popen:
    server = subprocess.Popen(["redis-server", "--port", str(port), "--bind", "127.0.0.1", "--save", "",
                               "--appendonly", "no"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 10
    client = redis.Redis(port=port)
    try:
        while True:
            try:
                client.ping()
                return server
            except redis.ConnectionError:
                if time.monotonic() > deadline:
                    server.kill()
                    raise
                time.sleep(0.05)
    finally:
        client.close()


@pytest.mark.skipif(shutil.which("redis-server") is None, reason="needs redis-server to start one of its own")
async def test_a_redis_restart_is_survived():
    port = free_port()
    url = f"redis://127.0.0.1:{port}/0"
    server = _start_redis(port)
    prefix = f"test-{secrets.token_hex(4)}"
    a, b = _layer(url, prefix), _layer(url, prefix)
    try:
        b1 = await b.new_channel()
        await b.group_add("g", b1)
        await a.group_send("g", {"type": "before"})
        assert await asyncio.wait_for(b.receive(b1), 5) == {"type": "before"}

        server.terminate()
        server.wait(10)
        await _until(lambda: not a.layer().connected.is_set() and not b.layer().connected.is_set())
        # Redis is gone: sending does not fail (the message waits for the connection), and a
        # group_add waits for Redis to come back.
        await a.group_send("g", {"type": "during"})
        b2 = await b.new_channel()
        joining = asyncio.ensure_future(b.group_add("h", b2))
        await asyncio.sleep(0.5)
        assert not joining.done()

        server = _start_redis(port)
        await asyncio.wait_for(joining, 10)
        await _until(lambda: _settled(a) and _settled(b))
        await a.group_send("h", {"type": "after"})
        assert await asyncio.wait_for(b.receive(b2), 5) == {"type": "after"}
    finally:
        await a.close()
        await b.close()
        server.kill()
        server.wait(10)


async def test_group_add_fails_when_redis_stays_away():
    layer = _layer(f"redis://127.0.0.1:{free_port()}/0", subscribe_timeout=0.5)
    try:
        channel = await layer.new_channel()
        with pytest.raises(TimeoutError):
            await layer.group_add("g", channel)
        assert "g" not in layer.layer()._groups  # the membership is taken back
    finally:
        await layer.close()


async def test_close_is_quick_with_a_receive_pending(pair):
    a, _ = pair
    channel = await a.new_channel()
    await a.group_add("g", channel)
    receiving = asyncio.ensure_future(a.receive(channel))
    await asyncio.sleep(0.1)
    started = time.monotonic()
    await a.close()
    assert time.monotonic() - started < 0.5
    receiving.cancel()
    # Used again after close, it connects again.
    channel = await a.new_channel()
    await a.group_add("g", channel)
    await a.group_send("g", {"type": "again"})
    assert await asyncio.wait_for(a.receive(channel), 5) == {"type": "again"}


def test_the_loop_closing_closes_the_layer():
    layer = _layer()
    states = []

    async def use() -> None:
        channel = await layer.new_channel()
        await layer.group_add("g", channel)
        states.append(layer.layer())

    started = time.monotonic()
    asyncio.run(use())
    assert time.monotonic() - started < 2
    assert layer._layers == {}
    assert states[0]._writer is None and states[0]._task is None


def test_it_is_the_default_redis_layer():
    fanout = "config.redis_layer.FanoutChannelLayer"
    assert channel_layers("redis://127.0.0.1:6379/0")["default"]["BACKEND"] == fanout
    assert channel_layers("redis://127.0.0.1:6379/0", "")["default"]["BACKEND"] == fanout
    assert "channels_redis" in channel_layers("redis://127.0.0.1:6379/0", "core")["default"]["BACKEND"]


def test_the_resp_reader():
    frame = b">3\r\n$7\r\nmessage\r\n$3\r\nabc\r\n$5\r\nhe\r\nl\r\n"
    value, end = _value(frame, 0)
    assert type(value) is _Push and value == [b"message", b"abc", b"he\r\nl"] and end == len(frame)
    assert _message(b"xx" + frame, 2) == (b"abc", 2 + 30, 2 + 35, 2 + len(frame))
    for cut in range(len(frame)):
        with pytest.raises(_Incomplete):
            _value(frame[:cut], 0)
        if cut >= 18:
            with pytest.raises(_Incomplete):
                _message(frame[:cut], 0)
    assert _value(b":12\r\n", 0) == (12, 5)
    assert _value(b"+PONG\r\n", 0) == (b"PONG", 7)
    error, _ = _value(b"-ERR bad\r\n", 0)
    assert type(error) is _Error and error == b"ERR bad"
    assert _value(b"$-1\r\n", 0) == (None, 5)
    assert _value(b"_\r\n", 0) == (None, 3)
    assert _value(b"%1\r\n+a\r\n:1\r\n", 0) == ([b"a", 1], 12)
    assert _value(b"|1\r\n+k\r\n+v\r\n:7\r\n", 0) == (7, 16)
    assert _value(b"*2\r\n,1.5\r\n#t\r\n", 0) == ([1.5, True], 14)
