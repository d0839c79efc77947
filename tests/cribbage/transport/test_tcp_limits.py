"""The limits of a CRIBBAGEBBER TCP link (games/cribbage/transport/tcp.py, docs/security.md): a bounded
queue of lines with back-pressure, a dead link's pending lines dropped, the introduction timeout,
the idle timeout and the write timeout. Each runs the real consumer behind a real socket, with the
limits shortened so the test takes seconds."""

from __future__ import annotations

import asyncio
import socket
import time

import pytest
from channels.db import database_sync_to_async
from django.test import override_settings

from accounts.tokens import token_for
from config.asgi import application
from games.cribbage.transport.tcp import LineServer
from games.models import ChatMessage, Client, Seat
from tests.cribbage.transport.test_tcp import TcpLink

pytestmark = pytest.mark.django_db(transaction=True)

PENDING = 8


@pytest.fixture
async def server():
    servers: list[LineServer] = []

    async def start(**limits) -> LineServer:
        made = LineServer(application, host="127.0.0.1", port=0, **{"max_pending_lines": PENDING} | limits)
        await made.start()
        servers.append(made)
        return made

    yield start
    for made in servers:
        await made.close()


async def logged_in(port: int, user, receive_buffer: int | None = None) -> TcpLink:
    key = await database_sync_to_async(token_for)(user)
    link = TcpLink(port, name=user.username)
    if receive_buffer is None:
        await link.connect()
    else:
        # Set before connecting: a buffer shrunk on a connected socket stalls the peer's sends
        # for as long as its retransmissions back off (see LineServer.start).
        sock = socket.socket()
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, receive_buffer)
        sock.setblocking(False)
        await asyncio.get_running_loop().sock_connect(sock, ("127.0.0.1", port))
        link.reader, link.writer = await asyncio.open_connection(sock=sock)
    assert await link.expect("P:") == "P:0.1/DNM"
    await link.send(f"IM:{user.username}/{key}")
    assert await link.expect("CO:") == f"CO:{user.username}"
    return link


async def until(condition, timeout: float = 10) -> None:
    """Wait for ``condition()`` (a value, or an awaitable one) to be true."""
    deadline = time.monotonic() + timeout
    while not await _value(condition()):
        assert time.monotonic() < deadline, "timed out"
        await asyncio.sleep(0.05)


async def _value(result):
    return await result if asyncio.iscoroutine(result) else result


def count(model, **where) -> int:
    return model.objects.filter(**where).count()


async def test_a_flood_before_login_is_held_back_not_buffered(server):
    # A peer that sends far more than the consumer handles (every line before IM: is answered with
    # WRONGPHASE, which the peer never reads) soon finds its own writes blocked: the server stops
    # reading once PENDING lines wait, so the flood stays in socket buffers, not in this process.
    lines = await server()
    link = TcpLink(lines.port, name="flood")
    await link.connect()
    flood = b"ME:x\n" * (8 * 1024 * 1024 // 5)  # 8 MB of lines
    link.writer.write(flood)
    with pytest.raises(TimeoutError):
        await asyncio.wait_for(link.writer.drain(), 3)
    assert lines.links == 1
    assert max(lines.pending()) <= PENDING
    # What the process took off the socket is the queue and one read at most: the rest is unread.
    assert link.writer.transport.get_write_buffer_size() > len(flood) // 2
    link.writer.transport.abort()
    await until(lambda: lines.links == 0)


async def test_a_dead_links_pending_lines_are_dropped(server, make_user):
    # The probe: chats kept posting for ten seconds after their sender had gone. Now the lines
    # still queued when the peer leaves are dropped with the link, and the link ends at once.
    lines = await server()
    ann = await database_sync_to_async(make_user)("ann")
    link = await logged_in(lines.port, ann)
    link.writer.write(b"ME:spam\n" * 20_000)
    await until(lambda: database_sync_to_async(count)(ChatMessage, user=ann), timeout=10)
    link.writer.transport.abort()  # gone, mid-flood
    left = time.monotonic()
    await until(lambda: lines.links == 0, timeout=5)
    assert time.monotonic() - left < 2
    posted = await database_sync_to_async(count)(ChatMessage, user=ann)
    await asyncio.sleep(0.5)
    assert await database_sync_to_async(count)(ChatMessage, user=ann) == posted  # nothing after the end
    assert posted < 20_000
    assert await database_sync_to_async(count)(Client, user=ann) == 0


@override_settings(LOGIN_TIMEOUT_SECONDS=0.5)
async def test_a_link_that_never_logs_in_is_parted_with_e_timeout(server):
    lines = await server()
    link = TcpLink(lines.port, name="mute")
    await link.connect()
    assert await link.expect("P:") == "P:0.1/DNM"
    assert await link.expect("E:", timeout=5) == "E:TIMEOUT"
    await link.wait_closed()
    await until(lambda: lines.links == 0)


@override_settings(LOGIN_TIMEOUT_SECONDS=0.5)
async def test_the_introduction_timeout_spares_a_link_that_logged_in(server, make_user):
    lines = await server()
    ann = await database_sync_to_async(make_user)("ann")
    link = await logged_in(lines.port, ann)
    await asyncio.sleep(1.0)
    await link.send("ME:still here")
    assert await link.expect("ME:") == "ME:ann/still here"


async def test_a_silent_link_is_closed_after_the_idle_timeout_and_leaves_its_seat(server, make_user):
    lines = await server(idle_timeout=0.6)
    ann = await database_sync_to_async(make_user)("ann")
    link = await logged_in(lines.port, ann)
    # Talking keeps the link open well past the timeout...
    for n in range(8):
        await link.send(f"ME:{n}")
        assert await link.expect("ME:") == f"ME:ann/{n}"
        await asyncio.sleep(0.2)
    # ...and silence ends it, as though ann had left: her seat and her presence go.
    quiet = time.monotonic()
    await link.wait_closed()
    assert 0.3 < time.monotonic() - quiet < 3  # 0.6 s after the last line either way
    await until(lambda: lines.links == 0)
    assert await database_sync_to_async(count)(Seat, user=ann, game__status="setup") == 0
    assert await database_sync_to_async(count)(Client, user=ann) == 0


async def test_a_peer_that_stops_reading_is_cut_off(server, make_user):
    # Every chat is echoed to its sender; a sender that never reads fills the socket, and after
    # the write timeout the link is cut instead of the server holding its lines.
    lines = await server(write_timeout=0.5)
    ann = await database_sync_to_async(make_user)("ann")
    link = await logged_in(lines.port, ann, receive_buffer=4096)  # fills sooner
    link.writer.transport.pause_reading()
    link.writer.write((b"ME:" + b"y" * 500 + b"\n") * 20_000)
    await until(lambda: lines.links == 0, timeout=30)
    assert await database_sync_to_async(count)(Client, user=ann) == 0
