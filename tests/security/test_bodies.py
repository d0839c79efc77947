"""Request bodies are bounded before anything buffers them (config/bodies.py, config/daphne_bodies.py).

The probe: a 300 MB POST to socket.io's long polling grew the server by 300 MB and was answered only
after the whole body had been read; six 100 MB posts at once held 460 MB; a 50 MB form to
``/majiang/auth/`` logged a ``RequestDataTooBig`` traceback. Here the same bodies go to the server
``make run`` starts (``tests/served.py``), streamed from a generator with and without a declared
length: each is refused at once (413, or the connection closed) and the server's resident memory,
sampled all along, grows by less than ``RSS_BOUND``. A normal long-polling session goes on as before,
its packets accepted up to socket.io's limit to the byte. In-process: the middleware refuses without
calling the app behind it, and Daphne's request refuses before Twisted stores the body."""

from __future__ import annotations

import asyncio
import json
import logging
import select
import socket
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from django.conf import settings
from twisted.internet.testing import StringTransport
from twisted.web.http import HTTPChannel

from config import bodies
from config.daphne_bodies import BodyLimitedRequest
from games.riichi.transport.majiang_server import MAX_PACKET_BYTES
from tests.served import SiteSpec

MB = 1024 * 1024
HUGE = 300 * MB
RSS_BOUND = 20 * MB
QUICK_SECONDS = 5
POLLING = "/majiang/socket.io/?EIO=4&transport=polling"
DJANGO_LIMIT = settings.DATA_UPLOAD_MAX_MEMORY_SIZE  # 2.5 MiB: the default limit


# -- the middleware, in-process ------------------------------------------------------------------


class Inner:
    """The app behind the middleware: records whether it was called and what body it read."""

    def __init__(self) -> None:
        self.calls = 0
        self.body = b""

    async def __call__(self, scope: dict, receive: Any, send: Any) -> None:
        self.calls += 1
        if scope["type"] == "http":
            while True:
                message = await receive()
                self.body += message.get("body", b"")
                if not message.get("more_body"):
                    break
            await send({"type": "http.response.start", "status": 200, "headers": []})
            await send({"type": "http.response.body", "body": b"done"})


class Stream:
    """An ASGI ``receive`` giving a body in ``pieces`` pieces of ``size`` bytes, made as they are
    asked for; it counts how many were asked for."""

    def __init__(self, pieces: int, size: int) -> None:
        self.pieces, self.size, self.asked = pieces, size, 0

    async def __call__(self) -> dict:
        self.asked += 1
        if self.asked > self.pieces:
            return {"type": "http.disconnect"}
        return {"type": "http.request", "body": b"x" * self.size, "more_body": self.asked < self.pieces}


def http_scope(path: str, length: int | None = None) -> dict:
    headers = [(b"host", b"testserver")]
    if length is not None:
        headers.append((b"content-length", str(length).encode()))
    return {"type": "http", "method": "POST", "path": path, "headers": headers, "client": ("127.0.0.1", 5000)}


def run(app: Any, scope: dict, receive: Any) -> list[dict]:
    sent: list[dict] = []

    async def send(message: dict) -> None:
        sent.append(message)

    asyncio.run(app(scope, receive, send))
    return sent


def answer(sent: list[dict]) -> tuple[int, dict[bytes, bytes], bytes]:
    start, body = sent
    return start["status"], dict(start["headers"]), body["body"]


def test_a_declared_length_over_the_limit_is_refused_without_reading_or_calling_the_app(caplog):
    inner = Inner()
    stream = Stream(pieces=1000, size=MB)
    with caplog.at_level(logging.WARNING, logger="config.bodies"):
        sent = run(bodies.BodyLimit(inner), http_scope("/api/games/", 1000 * MB), stream)
    status, headers, body = answer(sent)
    assert (status, inner.calls, stream.asked) == (413, 0, 0)
    assert headers[b"content-type"] == b"application/json" and headers[b"connection"] == b"close"
    assert json.loads(body) == {"code": "RequestTooLarge",
                                "reason": f"a request body is at most {DJANGO_LIMIT} bytes"}
    # One warning line, no traceback.
    (record,) = caplog.records
    assert record.levelno == logging.WARNING and record.exc_info is None
    assert "\n" not in record.getMessage() and "/api/games/" in record.getMessage()


@pytest.mark.parametrize(("path", "limit", "json_answer"), [
    ("/majiang/socket.io/", MAX_PACKET_BYTES, True),
    ("/majiang/auth/", bodies.MAJIANG_AUTH_BYTES, False),
    ("/api/games/", DJANGO_LIMIT, True),
    ("/accounts/login/", DJANGO_LIMIT, False),
])
def test_a_body_without_a_length_is_refused_once_it_passes_the_limit(path, limit, json_answer):
    inner = Inner()
    size = 4096
    stream = Stream(pieces=100_000, size=size)  # 400 MB, were it all read
    status, headers, body = answer(run(bodies.BodyLimit(inner), http_scope(path), stream))
    assert (status, inner.calls) == (413, 0)
    assert stream.asked == limit // size + 1  # the piece that passed the limit was the last one read
    if json_answer:
        assert headers[b"content-type"] == b"application/json" and json.loads(body)["code"] == "RequestTooLarge"
    else:
        assert headers[b"content-type"].startswith(b"text/plain")
        assert body == f"a request body is at most {limit} bytes\n".encode()


@pytest.mark.parametrize("declared", [True, False])
def test_a_body_at_the_limit_reaches_the_app_as_it_came(declared):
    inner = Inner()
    stream = Stream(pieces=16, size=MAX_PACKET_BYTES // 16)
    scope = http_scope("/majiang/socket.io/", MAX_PACKET_BYTES if declared else None)
    status, _, body = answer(run(bodies.BodyLimit(inner), scope, stream))
    assert (status, body, inner.calls, inner.body) == (200, b"done", 1, b"x" * MAX_PACKET_BYTES)


def test_the_limit_follows_djangos_setting(settings):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 1000
    assert bodies.limit_for("/api/games/") == 1000
    assert bodies.limit_for("/majiang/socket.io/") == 1000  # a route's own limit is never more
    inner = Inner()
    assert answer(run(bodies.BodyLimit(inner), http_scope("/", 1001), Stream(1, 1001)))[0] == 413
    assert answer(run(bodies.BodyLimit(inner), http_scope("/", 1000), Stream(1, 1000)))[0] == 200
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = None  # Django's check off: the body is still bounded
    assert bodies.limit_for("/api/games/") == 2621440


def test_websockets_pass_through():
    inner = Inner()
    run(bodies.BodyLimit(inner), {"type": "websocket", "path": "/ws/bot/", "headers": []}, Stream(0, 0))
    assert inner.calls == 1


# -- Daphne's request, in-process (Twisted's channel on a string transport) -----------------------


class FakeServer:
    """What Daphne's WebRequest asks of its server before the app is called."""

    def __init__(self) -> None:
        self.applications = 0
        self.connections: dict = {}

    def protocol_connected(self, request: Any) -> None:
        self.connections[request] = {}

    def protocol_disconnected(self, request: Any) -> None:
        self.connections[request]["disconnected"] = True

    def create_application(self, request: Any, scope: dict) -> None:
        self.applications += 1


@contextmanager
def channel() -> Iterator[tuple[HTTPChannel, StringTransport, FakeServer]]:
    server = FakeServer()
    http = HTTPChannel()
    http.timeOut = None  # no idle timer on the (not running) reactor
    http.requestFactory = BodyLimitedRequest
    http.factory = SimpleNamespace(server=server)
    transport = StringTransport()
    http.makeConnection(transport)
    yield http, transport, server


def request_head(path: str, *headers: str) -> bytes:
    return "\r\n".join([f"POST {path} HTTP/1.1", "Host: testserver", *headers]).encode() + b"\r\n\r\n"


def test_daphne_refuses_a_declared_length_before_storing_anything():
    with channel() as (http, transport, server):
        http.dataReceived(request_head(POLLING, f"Content-Length: {HUGE}", "Expect: 100-continue") + b"x" * MB)
        (request,) = http.requests
        status, _, rest = transport.value().partition(b"\r\n")
        assert status == b"HTTP/1.1 413 Content Too Large"
        assert b"100 Continue" not in transport.value()  # the client is not asked for the body
        assert json.loads(rest.partition(b"\r\n\r\n")[2])["code"] == "RequestTooLarge"
        assert transport.disconnecting
        assert request.content.tell() == 0 and server.applications == 0
        http.dataReceived(b"x" * MB)  # what a client sends before it sees the answer: not stored
        assert request.content.tell() == 0


def test_daphne_refuses_a_chunked_body_once_it_passes_the_limit():
    with channel() as (http, transport, server):
        http.dataReceived(request_head("/majiang/auth/", "Transfer-Encoding: chunked"))
        (request,) = http.requests
        piece = 1000
        for _ in range(bodies.MAJIANG_AUTH_BYTES // piece):
            http.dataReceived(b"%x\r\n" % piece + b"n" * piece + b"\r\n")
        assert transport.value() == b"" and not transport.disconnecting
        # The piece that passes the limit, and the body's end in the same read: refused, the app
        # is not called, nothing more is stored.
        stored = request.content.tell()
        http.dataReceived(b"%x\r\n" % piece + b"n" * piece + b"\r\n0\r\n\r\n")
        assert transport.value().startswith(b"HTTP/1.1 413 ")
        assert transport.value().endswith(f"at most {bodies.MAJIANG_AUTH_BYTES} bytes\n".encode())
        assert transport.disconnecting and request.content.tell() == stored and server.applications == 0


def test_daphne_passes_a_body_within_the_limit_to_the_app():
    with channel() as (http, transport, server):
        body = b"4" + b"0" * (MAX_PACKET_BYTES - 1)
        http.dataReceived(request_head(POLLING, f"Content-Length: {len(body)}") + body)
        assert transport.value() == b"" and not transport.disconnecting
        (request,) = http.requests
        request.content.seek(0)
        assert request.content.read() == body


# -- against the real server ---------------------------------------------------------------------

SETUP = """
import json
import django
django.setup()
from django.core.management import call_command
from accounts.models import User
from accounts.tokens import token_for
call_command("migrate", verbosity=0)
print(json.dumps(token_for(User.objects.create_user(username="ann", password=None))))
"""
# The module's server (the `site` fixture, tests/conftest.py); `site.setup` is ann's token.
SITE = SiteSpec(SETUP, name="bodies")


@pytest.fixture(scope="module")
def cookie(site) -> str:
    """ann's MAJIANG cookie, from a log-in as majiang-bot makes it."""
    status, cookie, _ = auth(site.port, f"ann:{site.setup}")
    assert status == 204 and cookie
    return cookie


def auth(port: int, name: str) -> tuple[int, str | None, str]:
    """``POST /majiang/auth/`` as majiang-bot posts it: the status, the MAJIANG cookie and the body."""
    body = urllib.parse.urlencode({"name": name, "passwd": "*"}).encode()
    request = urllib.request.Request(f"http://127.0.0.1:{port}/majiang/auth/", data=body, method="POST")
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            status, headers, text = response.status, response.headers, response.read().decode()
    except urllib.error.HTTPError as error:
        status, headers, text = error.code, error.headers, error.read().decode()
    cookie = next((h.split(";", 1)[0].removeprefix("MAJIANG=") for h in headers.get_all("Set-Cookie") or []
                   if h.startswith("MAJIANG=")), None)
    return status, cookie, text


def rss(pid: int) -> int:
    """The process's resident memory now, in bytes (``VmRSS``)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    raise AssertionError(f"no VmRSS for {pid}")


@contextmanager
def growth(pid: int) -> Iterator[SimpleNamespace]:
    """The most the process's resident memory grew over the block (sampled every 2 ms) and what it
    grew by at the end: ``peak`` and ``after``, in bytes."""
    before = rss(pid)
    seen = SimpleNamespace(peak=0, after=0)
    done = threading.Event()

    def sample() -> None:
        while not done.is_set():
            seen.peak = max(seen.peak, rss(pid) - before)
            time.sleep(0.002)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    try:
        yield seen
    finally:
        time.sleep(0.2)  # what the server does after answering counts too
        done.set()
        sampler.join()
        seen.after = rss(pid) - before
        seen.peak = max(seen.peak, seen.after)


def pieces(total: int, prefix: bytes = b"", size: int = 64 * 1024) -> Iterator[bytes]:
    """``total`` bytes of body, ``prefix`` and then ``0``s, ``size`` at a time, made as they are
    sent: never held whole."""
    if prefix:
        yield prefix[:total]
        total -= len(prefix)
    block = b"0" * size
    while total > 0:
        yield block[: min(size, total)]
        total -= size


CONTINUE = b"HTTP/1.1 100 Continue\r\n\r\n"


def post(port: int, target: str, total: int, *, chunked: bool, expect: bool = False, prefix: bytes = b"",
         content_type: str = "application/octet-stream") -> SimpleNamespace:
    """POST ``total`` bytes to ``target`` on a socket of its own, streamed from ``pieces``, with a
    ``Content-Length`` or chunked; sending stops as soon as the server answers or drops the
    connection. ``status`` is None if it dropped it without an answer."""
    head = [f"POST {target} HTTP/1.1", f"Host: 127.0.0.1:{port}", f"Content-Type: {content_type}",
            "Connection: close", "Transfer-Encoding: chunked" if chunked else f"Content-Length: {total}"]
    if expect:
        head.append("Expect: 100-continue")
    start = time.monotonic()
    sent = 0
    with socket.create_connection(("127.0.0.1", port), timeout=30) as sock:
        sock.sendall(("\r\n".join(head) + "\r\n\r\n").encode())
        if expect and select.select([sock], [], [], 5)[0]:  # "100 Continue", or the answer
            if sock.recv(len(CONTINUE), socket.MSG_PEEK) == CONTINUE:
                sock.recv(len(CONTINUE))
        try:
            for piece in pieces(total, prefix):
                if select.select([sock], [], [], 0)[0]:
                    break  # the server answered (or closed): the rest is not sent
                sock.sendall(b"%x\r\n%b\r\n" % (len(piece), piece) if chunked else piece)
                sent += len(piece)
            else:
                if chunked:
                    sock.sendall(b"0\r\n\r\n")
        except (BrokenPipeError, ConnectionResetError):
            pass  # the server closed the connection
        received = b""
        try:
            while chunk := sock.recv(65536):
                received += chunk
        except ConnectionResetError:
            pass
    head_bytes, _, body = received.partition(b"\r\n\r\n")
    lines = head_bytes.decode("latin-1").split("\r\n")
    status = int(lines[0].split()[1]) if received else None
    headers = {k.strip().lower(): v.strip() for k, _, v in (line.partition(":") for line in lines[1:])}
    return SimpleNamespace(status=status, headers=headers, body=body, sent=sent, seconds=time.monotonic() - start)


def refused(result: SimpleNamespace, *, json_answer: bool) -> None:
    """``result`` is a refusal: 413 with its body, or the connection closed without one, quickly and
    long before the body was all sent."""
    assert result.status in (413, None), result
    assert result.seconds < QUICK_SECONDS, result.seconds
    assert result.sent < 32 * MB, result.sent  # at most what the sockets' buffers took in
    if result.status == 413:
        if json_answer:
            assert result.headers["content-type"] == "application/json"
            assert json.loads(result.body)["code"] == "RequestTooLarge"
        else:
            assert result.headers["content-type"].startswith("text/plain")
            assert result.body.startswith(b"a request body is at most ")


HUGE_TARGETS = [
    pytest.param(POLLING, True, id="socket.io polling"),
    pytest.param("/api/games/", True, id="REST"),
    pytest.param("/accounts/login/", False, id="a page"),
    pytest.param("/majiang/auth/", False, id="majiang log-in"),
]


@pytest.mark.own_server
@pytest.mark.parametrize("chunked", [False, True], ids=["declared", "chunked"])
@pytest.mark.parametrize(("target", "json_answer"), HUGE_TARGETS)
def test_a_300_mb_body_is_refused_at_once_and_costs_no_memory(site, cookie, target, json_answer, chunked):
    # Each route served once already (the `cookie` fixture logged in), so what it loads lazily is loaded.
    post(site.port, target, 100, chunked=chunked)
    with growth(site.served.process.pid) as grown:
        result = post(site.port, target, HUGE, chunked=chunked,
                      content_type="application/x-www-form-urlencoded" if "auth" in target else "text/plain")
    refused(result, json_answer=json_answer)
    assert grown.peak < RSS_BOUND, grown


@pytest.mark.own_server
@pytest.mark.parametrize("chunked", [False, True], ids=["declared", "chunked"])
def test_six_100_mb_posts_at_once_cost_no_memory(site, chunked):
    results: list[SimpleNamespace] = []

    def one() -> None:
        results.append(post(site.port, POLLING, 100 * MB, chunked=chunked))

    with growth(site.served.process.pid) as grown:
        threads = [threading.Thread(target=one) for _ in range(6)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(60)
    assert len(results) == 6
    for result in results:
        refused(result, json_answer=True)
    assert grown.peak < RSS_BOUND, grown


@pytest.mark.own_server
def test_a_declared_length_over_the_limit_is_answered_before_the_body_is_sent(site):
    # A client that asks first (Expect: 100-continue, as curl does for a large body) sends nothing:
    # the refusal comes as soon as the headers are in.
    result = post(site.port, "/api/games/", HUGE, chunked=False, expect=True)
    assert (result.status, result.sent) == (413, 0)
    assert json.loads(result.body) == {"code": "RequestTooLarge",
                                       "reason": f"a request body is at most {DJANGO_LIMIT} bytes"}


@pytest.mark.own_server
@pytest.mark.parametrize("chunked", [False, True], ids=["declared", "chunked"])
def test_django_routes_take_a_body_up_to_djangos_limit_to_the_byte(site, chunked):
    # Not logged in: the API reads the body (within the limit) and then says who may post.
    at_limit = post(site.port, "/api/games/", DJANGO_LIMIT, chunked=chunked, content_type="application/json")
    assert at_limit.status in (401, 403) and at_limit.sent == DJANGO_LIMIT, at_limit
    refused(post(site.port, "/api/games/", DJANGO_LIMIT + 1, chunked=chunked), json_answer=True)


@pytest.mark.own_server
def test_an_over_long_log_in_form_gets_the_same_clean_refusal(site):
    # The probe's 50 MB form (name=ann:000...): no HTML page, no RequestDataTooBig traceback
    # (checked at the end).
    for chunked in (False, True):
        result = post(site.port, "/majiang/auth/", 50 * MB, chunked=chunked, prefix=b"passwd=*&name=ann:",
                      content_type="application/x-www-form-urlencoded")
        refused(result, json_answer=False)
    # A log-in as majiang-bot sends it still works.
    assert auth(site.port, "ann:nope")[0] == 403


class Polling:
    """An Engine.IO v4 long-polling client (what socket.io-client starts with), by plain HTTP."""

    def __init__(self, port: int, cookie: str) -> None:
        self.port, self.cookie, self.sid = port, cookie, None
        self.pending: list[str] = []
        open_packet = self.get()
        assert open_packet[0].startswith("0"), open_packet
        self.sid = json.loads(open_packet[0][1:])["sid"]

    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}{POLLING}" + (f"&sid={self.sid}" if self.sid else "")

    def request(self, body: bytes | None = None) -> str:
        request = urllib.request.Request(self.url(), data=body, method="GET" if body is None else "POST",
                                         headers={"Cookie": f"MAJIANG={self.cookie}",
                                                  "Content-Type": "text/plain;charset=UTF-8"})
        with urllib.request.urlopen(request, timeout=40) as response:
            assert response.status == 200
            return response.read().decode()

    def get(self) -> list[str]:
        return self.request().split("\x1e")

    def post(self, payload: str) -> None:
        assert self.request(payload.encode()) == "OK"

    def event(self, name: str) -> list[Any]:
        """The arguments of the next socket.io event named ``name`` (pings answered on the way)."""
        while True:
            while self.pending:
                packet = self.pending.pop(0)
                if packet == "2":
                    self.post("3")
                elif packet.startswith("42"):
                    event, *args = json.loads(packet[2:])
                    if event == name:
                        return args
            self.pending = self.get()


@pytest.mark.own_server
def test_a_long_polling_session_works_and_takes_a_packet_up_to_its_limit(site, cookie):
    client = Polling(site.port, cookie)
    client.post("40")  # socket.io's CONNECT: the session logs in from the cookie
    assert client.event("HELLO")[0]["name"] == "ann"
    # An event as large as socket.io takes (the whole POST, exactly its limit): read by the session.
    filler = "x" * (MAX_PACKET_BYTES - len('42["CHAT",""]'))
    packet = f'42["CHAT","{filler}"]'
    assert len(packet.encode()) == MAX_PACKET_BYTES
    client.post(packet)
    assert client.event("REFUSED")[0]["code"] == "UnknownMessageType"
    # One byte more is refused before socket.io reads it; the session is not touched and goes on.
    refused(post(site.port, client.url()[len(f"http://127.0.0.1:{site.port}"):], MAX_PACKET_BYTES + 1,
                 chunked=False), json_answer=True)
    client.post('42["ROOM","999999"]')
    assert client.event("ERROR")[0].startswith("UnknownGame: ")


@pytest.mark.own_server
def test_no_traceback_for_any_of_it(site):
    # Last in the module: every refusal above logged one warning line and no traceback.
    log = site.served.log.read_text()
    assert "refused a request body over" in log
    assert "Traceback" not in log and "RequestDataTooBig" not in log, log[-3000:]


@pytest.mark.django_db
def test_a_form_of_too_many_fields_to_majiang_auth_is_refused_plainly(client, caplog):
    """Small enough to pass the body limit, but past Django's field count: a 400 that says so, and
    no traceback in the log (``request.POST`` raised ``TooManyFieldsSent`` out of the view)."""
    body = "&".join(f"f{i}=1" for i in range(settings.DATA_UPLOAD_MAX_NUMBER_FIELDS + 1))
    with caplog.at_level(logging.WARNING):
        answer = client.post("/majiang/auth/", data=body, content_type="application/x-www-form-urlencoded")
    assert answer.status_code == 400 and b"fields" in answer.content
    assert "majiang" not in answer.cookies.get("MAJIANG", "")
    assert not [r for r in caplog.records if r.exc_info], [r.getMessage() for r in caplog.records]
