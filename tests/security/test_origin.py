"""The WebSocket origin check (games/transport/origin.py): a browser's socket, which carries the session
cookie, is accepted only from a page of this site, compared by host *and* port as Django's CSRF
check compares them. A page on another port of the same host is another site."""

from __future__ import annotations

import pytest
from channels.testing import WebsocketCommunicator

from config.asgi import application
from games.transport.origin import same_origin


def scope(host: str | None, origin: str | None, scheme: str = "ws") -> dict:
    headers = []
    if host is not None:
        headers.append((b"host", host.encode()))
    if origin is not None:
        headers.append((b"origin", origin.encode()))
    return {"type": "websocket", "scheme": scheme, "headers": headers}


@pytest.mark.parametrize(("host", "origin"), [
    ("127.0.0.1:8000", "http://127.0.0.1:8000"),
    ("localhost:8000", "http://LOCALHOST:8000"),
    ("testserver", "http://testserver"),
    ("testserver", "http://testserver:80"),
    ("testserver:80", "http://testserver"),
])
def test_this_sites_own_pages_are_accepted(host, origin):
    assert same_origin(scope(host, origin))


def test_https_pages_match_a_secure_socket():
    assert same_origin(scope("testserver", "https://testserver", scheme="wss"))
    assert not same_origin(scope("testserver", "https://testserver", scheme="ws"))  # 443 is not 80


@pytest.mark.parametrize(("host", "origin"), [
    ("127.0.0.1:8000", "http://127.0.0.1:9999"),  # the same host, another port: another site
    ("127.0.0.1:8000", "http://127.0.0.1"),
    ("testserver", "http://testserver:8080"),
    ("testserver", "http://evil.example"),
    ("evil.example", "http://evil.example"),  # same origin, but not a host this site serves
    ("testserver", "null"),  # sandboxed frames and file: pages
    ("testserver", "http://testserver/path"),
    ("testserver", "http://user@testserver"),
    ("testserver", "ftp://testserver"),
    ("testserver", "http://testserver:notaport"),
    ("testserver", "http://[::1"),
    (None, "http://testserver"),
    ("testserver", None),
])
def test_anything_else_is_refused(host, origin):
    assert not same_origin(scope(host, origin))


def test_trusted_origins_are_accepted_as_listed(settings):
    settings.CSRF_TRUSTED_ORIGINS = ["https://games.example:8443"]
    assert same_origin(scope("127.0.0.1:8000", "https://games.example:8443"))
    assert not same_origin(scope("127.0.0.1:8000", "https://games.example"))


@pytest.mark.django_db
@pytest.mark.parametrize("path", ["/ws/lobby/", "/ws/cribbage/"])
@pytest.mark.parametrize(("origin", "accepted"), [
    (b"http://127.0.0.1:8000", True),
    (b"http://127.0.0.1:8001", False),
])
async def test_the_browser_sockets_apply_it(path, origin, accepted):
    comm = WebsocketCommunicator(application, path, headers=[(b"host", b"127.0.0.1:8000"), (b"origin", origin)])
    connected, _ = await comm.connect()
    assert connected is accepted
    await comm.disconnect()
