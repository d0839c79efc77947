"""Revoking an API token closes every live connection that logged in with it, on every transport:
the lobby/bot WebSocket (``FatalError TokenRevoked``, close 4000) and CRIBBAGEBBER, over TCP or
WebSocket (``E:REVOKED``, close). A connection of the same user that logged in with another token
(or a password) stays open.

In process first (the full ASGI app, a real TCP listener on the test's loop), including the race of
a revocation that commits between a link's token check and its joining the user's group. Then end
to end on ``manage.py serve``: real WebSocket and TCP clients, and the revocation made on the token
page over HTTP.
"""

from __future__ import annotations

import asyncio
import http.cookiejar
import json
import socket
import time
import urllib.parse
import urllib.request

import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect as ws_connect

from accounts.tokens import create_token, revoke
from games.models import Client
from games.service import presence
from tests.cribbage.transport.peer import LineClient
from tests.cribbage.transport.test_tcp import TcpLink
from tests.served import serve

pytestmark = pytest.mark.django_db(transaction=True)



@pytest.fixture
async def tcp_links():
    opened: list[TcpLink] = []

    async def open_link(port: int, user, key: str, *, introduced: bool = True) -> TcpLink:
        link = TcpLink(port, name=user.username)
        opened.append(link)
        await link.connect()
        assert await link.expect("P:") == "P:0.1/DNM"
        await link.send(f"IM:{user.username}/{key}")
        if introduced:
            assert await link.expect("CO:") == f"CO:{user.username}"
        return link

    yield open_link
    for link in opened:
        await link.close()


async def bot_login(clients, key: str, *, greeted: bool = True):
    client = await clients()
    await client.connect()
    await client.send({"type": "Login", "version": 1, "token": key})
    if greeted:
        await client.expect("Greetings")
    return client


async def closed_as_revoked(client) -> None:
    message = await client.expect("FatalError")
    assert message["code"] == "TokenRevoked" and message["reason"]
    closed = await client.comm.receive_output(timeout=5)
    assert closed == {"type": "websocket.close", "code": 4000}


async def still_open(client) -> None:
    await client.send({"type": "NoSuchRequest", "ref": "alive"})
    reply = await client.expect("Error", ref="alive")
    assert reply["code"] == "UnknownMessageType"  # a logged-in answer: not NotLoggedIn, not closed


async def until(condition, timeout: float = 10) -> None:
    deadline = time.monotonic() + timeout
    while not await condition():
        assert time.monotonic() < deadline, "timed out"
        await asyncio.sleep(0.05)


async def test_revoking_a_token_closes_its_websocket_and_tcp_links_and_no_others(
        clients, db_call, make_user, tcp_server, tcp_links):
    alice = await db_call(make_user, "alice")
    revoked, revoked_key = await db_call(create_token, alice, "old bot")
    _, kept_key = await db_call(create_token, alice, "new bot")

    by_revoked = await bot_login(clients, revoked_key)
    tcp = await tcp_links(tcp_server.port, alice, revoked_key)
    by_kept = await bot_login(clients, kept_key)
    by_password = await clients(alice)  # a password log-in has no token to lose
    assert await db_call(Client.objects.filter(user=alice).count) == 4

    await db_call(revoke, alice, revoked.id)

    await closed_as_revoked(by_revoked)
    assert await tcp.expect("E:") == "E:REVOKED"
    await tcp.wait_closed()
    assert tcp.lines[-1] == "E:REVOKED"
    await still_open(by_kept)
    await still_open(by_password)

    async def two_left() -> bool:
        return await db_call(Client.objects.filter(user=alice).count) == 2

    await until(two_left)  # the closed links' presence went with them
    # The revoked key logs in nowhere any more.
    refused = await bot_login(clients, revoked_key, greeted=False)
    assert (await refused.expect("FatalError"))["code"] == "InvalidToken"
    late = await tcp_links(tcp_server.port, alice, revoked_key, introduced=False)
    assert await late.expect("E:") == "E:LOGIN"


async def test_a_cribbage_websocket_logged_in_by_its_url_is_closed(db_call, make_user):
    bob = await db_call(make_user, "bob")
    token, key = await db_call(create_token, bob)
    link = LineClient("/ws/cribbage/", key, name="bob")
    await link.connect()
    try:
        assert await link.expect("P:") == "P:0.1/DNM"
        await link.send("IM:bob")
        assert await link.expect("CO:") == "CO:bob"
        await db_call(revoke, bob, token.id)
        assert await link.expect("E:") == "E:REVOKED"
        await link.wait_closed()
    finally:
        await link.close()


@pytest.fixture
def revoked_while_logging_in(monkeypatch):
    """Revoke the token after the link's token check and before it joins the user's group, so
    that the announcement reaches no link: the link must notice all the same."""
    tokens: list[int] = []
    connect = presence.connect

    def connect_after_revocation(user, *args):
        for token_id in tokens:
            revoke(user, token_id)
        return connect(user, *args)

    monkeypatch.setattr(presence, "connect", connect_after_revocation)
    return tokens


async def test_a_revocation_during_log_in_is_not_missed(clients, db_call, make_user, tcp_server, tcp_links,
                                                         revoked_while_logging_in):
    alice = await db_call(make_user, "alice")
    for_ws, ws_key = await db_call(create_token, alice)
    revoked_while_logging_in.append(for_ws.id)
    await closed_as_revoked(await bot_login(clients, ws_key, greeted=False))

    for_tcp, tcp_key = await db_call(create_token, alice)
    revoked_while_logging_in.append(for_tcp.id)
    tcp = await tcp_links(tcp_server.port, alice, tcp_key, introduced=False)
    assert await tcp.expect("E:") == "E:REVOKED"
    await tcp.wait_closed()

    async def nobody_left() -> bool:
        return not await db_call(Client.objects.filter(user=alice).exists)

    await until(nobody_left)


# -- end to end: manage.py serve, real clients, the revocation made on the token page -------------

SETUP_DATABASE = """
import json
import django
django.setup()
from django.core.management import call_command
from accounts.models import User
from accounts.tokens import create_token
call_command("migrate", verbosity=0)
alice = User.objects.create_user(username="alice", password="secret-pw")
revoked, revoked_key = create_token(alice, "old bot")
kept, kept_key = create_token(alice, "new bot")
print(json.dumps({"revoked": revoked.id, "revoked_key": revoked_key, "kept_key": kept_key}))
"""


def recv_until(ws, kind: str) -> dict:
    while True:
        message = json.loads(ws.recv(timeout=10))
        if message["type"] == kind:
            return message


def revoke_on_the_token_page(base: str, token_id: int) -> str:
    """Log in with the password form and press the token's Revoke button: a browser's requests."""
    jar = http.cookiejar.CookieJar()
    browser = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))

    def csrf() -> str:
        return next(cookie.value for cookie in jar if cookie.name == "csrftoken")

    browser.open(f"{base}/accounts/login/", timeout=10).read()
    browser.open(f"{base}/accounts/login/", urllib.parse.urlencode(
        {"username": "alice", "password": "secret-pw", "csrfmiddlewaretoken": csrf()}).encode(), timeout=10).read()
    page = browser.open(f"{base}/accounts/token/", urllib.parse.urlencode(
        {"action": "revoke", "token": token_id, "csrfmiddlewaretoken": csrf()}).encode(), timeout=10)
    return page.read().decode()


def test_revoking_on_the_page_closes_real_websocket_and_tcp_links(tmp_path):
    with serve(tmp_path, SETUP_DATABASE) as served:
        made = json.loads(served.setup_output.splitlines()[-1])
        http_port, tcp_port = served.http_port, served.tcp_port
        base, ws_base = f"http://127.0.0.1:{http_port}", f"ws://127.0.0.1:{http_port}"
        with (socket.create_connection(("127.0.0.1", tcp_port), timeout=10) as tcp, tcp.makefile("rb") as lines,
              ws_connect(f"{ws_base}/ws/bot/", open_timeout=10) as by_revoked,
              ws_connect(f"{ws_base}/ws/bot/", open_timeout=10) as by_kept):
            assert lines.readline() == b"P:0.1/DNM\n"
            tcp.sendall(f"IM:alice/{made['revoked_key']}\n".encode())
            assert lines.readline() == b"CO:alice\n"
            by_revoked.send(json.dumps({"type": "Login", "version": 1, "token": made["revoked_key"]}))
            recv_until(by_revoked, "Greetings")
            by_kept.send(json.dumps({"type": "Login", "version": 1, "token": made["kept_key"]}))
            recv_until(by_kept, "Greetings")

            page = revoke_on_the_token_page(base, made["revoked"])
            assert "revoked" in page and made["revoked_key"] not in page

            assert recv_until(by_revoked, "FatalError")["code"] == "TokenRevoked"
            with pytest.raises(ConnectionClosed) as closed:
                while True:
                    by_revoked.recv(timeout=10)
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 4000
            seen = []
            while (line := lines.readline()) != b"E:REVOKED\n":
                assert line, seen  # closed before saying why
                seen.append(line)
            assert lines.readline() == b""  # then the server closed the link

            by_kept.send(json.dumps({"type": "NoSuchRequest"}))
            assert recv_until(by_kept, "Error")["code"] == "UnknownMessageType"
