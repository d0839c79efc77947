"""Limits every transport shares, against the server `make run` starts (``manage.py serve``: Daphne,
the TCP line ports, real sockets): a link that never logs in is closed at ``LOGIN_TIMEOUT_SECONDS``
on every transport, each saying so in its protocol's terms; an mmj whitespace flood is closed with
``reject RateLimited`` long before 4 MB, before and after log-in; the per-address cap refuses the
link over it on a WebSocket, a TCP and the socket.io transport; a request trickled a byte at a time
(slowloris) is closed at ``HTTP_REQUEST_TIMEOUT_SECONDS``. docs/security.md."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Awaitable

import pytest
import websockets

from tests.served import SiteSpec, served_site

# Its server is a child on the embedded default whatever the configuration (tests/served.py).
pytestmark = pytest.mark.own_server

LOGIN_TIMEOUT = 3.0
HTTP_TIMEOUT = 2.0
CAP = 20  # well above the ten links the log-in test opens at once (and the start-up port probes)
FLOOD_LIMIT = 4 * 1024 * 1024  # the probe's bound: a flood is closed before this much is sent
CHUNK = 64 * 1024
# Generous, for a machine the whole suite shares: what matters is "closed", and "not too early".
LATE = 10.0

SETUP = """
import json
import django
django.setup()
from django.core.management import call_command
from accounts.models import User
from accounts.tokens import token_for
call_command("migrate", verbosity=0)
print(json.dumps({name: token_for(User.objects.create_user(username=name, password=None))
                  for name in ("ann", "bob")}))
"""


# The module's server (the `site` fixture, tests/conftest.py).
SITE = SiteSpec(SETUP, name="transport-limits", cribbage=True, ump=True, mmj=True,
                env={"LOGIN_TIMEOUT_SECONDS": str(LOGIN_TIMEOUT), "HTTP_REQUEST_TIMEOUT_SECONDS": str(HTTP_TIMEOUT),
                     "MAX_CONNECTIONS_PER_ADDRESS": str(CAP)})


# -- the peers ----------------------------------------------------------------------------------------


async def tcp_until_closed(port: int, send: bytes = b"", timeout: float = LOGIN_TIMEOUT + LATE) -> bytes:
    """Connect, send ``send``, and read everything until the server closes the connection."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    try:
        if send:
            writer.write(send)
        received = b""
        async with asyncio.timeout(timeout):
            while chunk := await reader.read(4096):
                received += chunk
        return received
    finally:
        writer.close()


async def ws_until_closed(url: str, first: str | None = None, origin: str | None = None,
                          timeout: float = LOGIN_TIMEOUT + LATE) -> list[str]:
    """Open a WebSocket (sending ``first``), and read every frame until the server closes it."""
    said = []
    async with websockets.connect(url, origin=origin, open_timeout=timeout) as ws:
        if first is not None:
            await ws.send(first)
        try:
            async with asyncio.timeout(timeout):
                async for frame in ws:
                    said.append(frame)
        except websockets.ConnectionClosed:
            pass
    return said


async def timed(awaitable: Awaitable) -> tuple[float, object]:
    start = time.monotonic()
    result = await awaitable
    return time.monotonic() - start, result


# -- log-in timeouts -------------------------------------------------------------------------------------


def test_a_link_that_never_logs_in_is_closed_at_the_login_timeout_on_every_transport(site):
    served = site.served
    http = f"ws://127.0.0.1:{served.http_port}"

    async def main() -> dict[str, tuple[float, object]]:
        links = {
            "bot": ws_until_closed(f"{http}/ws/bot/"),
            "lobby": ws_until_closed(f"{http}/ws/lobby/", origin=f"http://127.0.0.1:{served.http_port}"),
            "majiang": ws_until_closed(f"{http}/ws/majiang/"),
            "cribbage-ws": ws_until_closed(f"{http}/ws/cribbage/"),
            "ump-ws": ws_until_closed(f"{http}/ws/ump/"),
            "mmj-ws": ws_until_closed(f"{http}/ws/mmj/"),
            # socket.io's log-in is its connect to the namespace (the cookie is read then): never sent.
            "socket.io": ws_until_closed(f"{http}/majiang/socket.io/?EIO=4&transport=websocket"),
            "ump": tcp_until_closed(served.ump_port),
            "mmj": tcp_until_closed(served.mmj_port),
            "cribbage": tcp_until_closed(served.tcp_port),
        }
        results = await asyncio.gather(*(timed(link) for link in links.values()), return_exceptions=True)
        return dict(zip(links, results, strict=True))

    closed = asyncio.run(main())
    assert not [name for name, result in closed.items() if isinstance(result, BaseException)], closed
    for name, (elapsed, said) in closed.items():
        assert LOGIN_TIMEOUT - 0.5 <= elapsed < LOGIN_TIMEOUT + LATE, (name, elapsed, said)

    def fatal(frames: object) -> dict:
        return json.loads(frames[-1])  # type: ignore[index]

    assert (fatal(closed["bot"][1])["type"], fatal(closed["bot"][1])["code"]) == ("FatalError", "LoginTimeout")
    assert (fatal(closed["lobby"][1])["type"], fatal(closed["lobby"][1])["code"]) == ("FatalError", "LoginTimeout")
    assert (fatal(closed["majiang"][1])["type"], fatal(closed["majiang"][1])["code"]) == ("error", "LoginTimeout")
    assert closed["cribbage-ws"][1][-1] == "E:TIMEOUT"  # type: ignore[index]
    assert closed["ump-ws"][1][-1].startswith("2 error LoginTimeout ")  # type: ignore[index]
    assert closed["mmj-ws"][1][-1].startswith("reject ") and "LoginTimeout" in closed["mmj-ws"][1][-1]  # type: ignore
    assert closed["socket.io"][1][0].startswith("0{") and closed["socket.io"][1][-1] == "1"  # type: ignore[index]
    ump = closed["ump"][1].decode()  # type: ignore[union-attr]
    assert ump.startswith("1 hello ") and "\r\n2 error LoginTimeout " in ump, ump
    mmj = closed["mmj"][1]
    assert mmj.startswith(b"reject ") and b"LoginTimeout" in mmj, mmj  # type: ignore[operator]
    cribbage = closed["cribbage"][1].decode().splitlines()  # type: ignore[union-attr]
    assert cribbage[0].startswith("P:") and cribbage[-1] == "E:TIMEOUT", cribbage


def test_a_link_that_logged_in_outlives_the_login_timeout(site):
    served, tokens = site.served, site.setup

    async def main() -> dict:
        async with websockets.connect(f"ws://127.0.0.1:{served.http_port}/ws/bot/") as ws:
            await ws.send(json.dumps({"type": "Login", "version": 1, "token": tokens["ann"], "history": False}))
            greetings = json.loads(await asyncio.wait_for(ws.recv(), 10))
            assert greetings["type"] == "Greetings", greetings
            await asyncio.sleep(LOGIN_TIMEOUT + 1)
            await ws.send(json.dumps({"type": "Resync", "game": 999999, "ref": 1}))
            return json.loads(await asyncio.wait_for(ws.recv(), 10))

    reply = asyncio.run(main())
    assert reply["type"] == "Error" and reply["ref"] == 1, reply  # answered: still open, still logged in


# -- byte floods ------------------------------------------------------------------------------------------


async def flood(port: int, before: bytes = b"", expect: bytes = b"") -> tuple[int, bytes]:
    """Send ``before`` (and read until ``expect``), then whitespace as fast as the server takes it,
    reading all along; how much whitespace went out before the server closed, and what it said."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    received = b""
    if before:
        writer.write(before)
        async with asyncio.timeout(10):
            while expect not in received:
                chunk = await reader.read(4096)
                assert chunk, received
                received += chunk

    async def read_all() -> bytes:
        data = b""
        try:
            while chunk := await reader.read(65536):
                data += chunk
        except ConnectionError:
            pass
        return data

    reading = asyncio.ensure_future(read_all())
    sent = 0
    try:
        async with asyncio.timeout(20):
            while sent < 2 * FLOOD_LIMIT and not reading.done():
                writer.write(b" \n\t" * (CHUNK // 3))
                await writer.drain()
                sent += CHUNK // 3 * 3
    except ConnectionError:
        pass
    received += await asyncio.wait_for(reading, 10)
    writer.close()
    return sent, received


def test_an_mmj_whitespace_flood_is_closed_with_reject_before_4_mb_before_log_in(site):
    served = site.served
    sent, said = asyncio.run(flood(served.mmj_port))
    assert sent < FLOOD_LIMIT, sent
    assert said.startswith(b"reject ") and b"RateLimited" in said, said


def test_an_mmj_whitespace_flood_is_closed_with_reject_before_4_mb_after_log_in(site):
    served, tokens = site.served, site.setup
    name = f"bob/{tokens['bob']}".encode()
    sent, said = asyncio.run(flood(served.mmj_port, b"mmj1c %d:%s\n" % (len(name), name), expect=b"mmj1s\n"))
    assert sent < FLOOD_LIMIT, sent
    assert said.startswith(b"mmj1s\n"), said
    assert b"\nreject " in said and b"RateLimited" in said, said


def test_a_whitespace_flood_over_the_mmj_websocket_is_closed_too(site):
    served = site.served

    async def main() -> list[str]:
        said: list[str] = []
        async with websockets.connect(f"ws://127.0.0.1:{served.http_port}/ws/mmj/") as ws:
            try:
                # A WebSocket server reads what it is sent before its application looks at it:
                # the client's 4 MB all go out; the consumer refuses the link at its budget.
                for _ in range(FLOOD_LIMIT // CHUNK):
                    await ws.send(" " * CHUNK)
                async with asyncio.timeout(10):
                    async for frame in ws:
                        said.append(frame)
            except websockets.ConnectionClosed:
                # Closed while the flood was still going out: what it said first is still to read.
                while True:
                    try:
                        said.append(await asyncio.wait_for(ws.recv(), 1))
                    except (websockets.ConnectionClosed, TimeoutError):
                        break
        return said

    said = asyncio.run(main())
    assert said and said[0].startswith("reject ") and "RateLimited" in said[0], said


# -- the per-address cap --------------------------------------------------------------------------------


def test_the_link_over_the_per_address_cap_is_refused_in_each_protocols_terms(site):
    served = site.served
    http = f"ws://127.0.0.1:{served.http_port}"

    async def main() -> tuple[list[str], bytes, list[str], list[str]]:
        # CAP links from this address, none logged in: held open while the next ones are refused.
        held = [await websockets.connect(f"{http}/ws/bot/") for _ in range(CAP - 2)]
        tcp = [await asyncio.open_connection("127.0.0.1", served.ump_port) for _ in range(2)]
        for reader, _ in tcp:
            assert (await asyncio.wait_for(reader.readline(), 5)).startswith(b"1 hello ")
        try:
            bot = await ws_until_closed(f"{http}/ws/bot/", timeout=5)
            ump = await tcp_until_closed(served.ump_port, timeout=5)
            sio = await ws_until_closed(f"{http}/majiang/socket.io/?EIO=4&transport=websocket", first="40",
                                        timeout=5)
        finally:
            for ws in held:
                await ws.close()
            for _, writer in tcp:
                writer.close()
        # Once they are gone, this address may connect again.
        again = await ws_until_closed(f"{http}/ws/bot/", first=json.dumps({"type": "Login", "version": 1}), timeout=5)
        return bot, ump, sio, again

    bot, ump, sio, again = asyncio.run(main())
    assert [json.loads(f)["code"] for f in bot] == ["TooManyConnections"], bot
    assert json.loads(bot[0])["type"] == "FatalError"
    assert ump.startswith(b"1 error TooManyConnections "), ump
    assert any(f.startswith('42["ERROR","TooManyConnections: ') for f in sio), sio
    assert [json.loads(f)["code"] for f in again] == ["MissingPassword"], again  # let in, and heard


# -- slowloris ----------------------------------------------------------------------------------------------


def test_a_request_trickled_a_byte_at_a_time_is_closed_at_the_request_timeout(site):
    served = site.served
    request = f"GET / HTTP/1.1\r\nHost: 127.0.0.1:{served.http_port}\r\nUser-Agent: {'x' * 200}\r\n\r\n".encode()

    async def main() -> tuple[float, bytes, int]:
        reader, writer = await asyncio.open_connection("127.0.0.1", served.http_port)
        start = time.monotonic()
        reading = asyncio.ensure_future(reader.read(65536))
        trickled = 0
        try:
            while not reading.done() and trickled < len(request) and time.monotonic() - start < HTTP_TIMEOUT + LATE:
                writer.write(request[trickled:trickled + 1])
                trickled += 1
                await asyncio.sleep(0.1)
            answer = await asyncio.wait_for(reading, HTTP_TIMEOUT + LATE)
            while chunk := await asyncio.wait_for(reader.read(65536), LATE):  # then the close
                answer += chunk
        except ConnectionError:
            answer = b""
        finally:
            writer.close()
        return time.monotonic() - start, answer, trickled

    elapsed, answer, trickled = asyncio.run(main())
    assert trickled < len(request), "the whole request went out: nothing was cut off"
    assert HTTP_TIMEOUT - 0.5 <= elapsed < HTTP_TIMEOUT + LATE, elapsed
    assert answer.startswith(b"HTTP/1.1 408 "), answer


def test_a_kept_alive_connection_serves_requests_and_then_times_out_idle(site):
    served = site.served
    request = f"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1:{served.http_port}\r\n\r\n".encode()

    async def main() -> tuple[bytes, float, bytes]:
        reader, writer = await asyncio.open_connection("127.0.0.1", served.http_port)
        writer.write(request)
        first = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 10)
        start = time.monotonic()
        rest = b""
        async with asyncio.timeout(HTTP_TIMEOUT + LATE):
            while chunk := await reader.read(65536):
                rest += chunk
        writer.close()
        return first, time.monotonic() - start, rest

    first, idle, rest = asyncio.run(main())
    assert first.startswith(b"HTTP/1.1 "), first
    assert b"408 Request Timeout" in rest and HTTP_TIMEOUT - 0.5 <= idle < HTTP_TIMEOUT + LATE, (idle, rest)


# -- honest clients at the server's pace -------------------------------------------------------------------

SLOW_RATE, SLOW_BURST, PLAYED = 0.2, 3, 12.0


@pytest.fixture(scope="module")
def slow_site(tmp_path_factory):
    """A server whose message allowance is tiny: only the questions' credit lets a client play on.
    No call floor, so the house bots move as fast as the clients answer."""
    env = {"FRAMES_PER_SECOND": str(SLOW_RATE), "FRAME_BURST": str(SLOW_BURST), "CALL_FLOOR_MS": "0"}
    with served_site(tmp_path_factory, SiteSpec(SETUP, name="slow-frames", ump=True, mmj=True, env=env)) as site:
        yield site


async def play_for(play: Awaitable, seconds: float) -> None:
    try:
        await asyncio.wait_for(play, seconds)
    except TimeoutError:
        pass  # still playing: enough


def test_ump_and_mmj_clients_answering_house_bots_at_their_pace_are_never_rate_limited(slow_site):
    from games.riichi.clients.umpbot import UmpBot
    from games.riichi.protocols import mmj
    from tests.riichi.transport import mmj_peer, ump_peer

    served, tokens = slow_site.served, slow_site.setup
    ump = ump_peer.Peer(UmpBot("ann", "ann", tokens["ann"], seed=1, options={"_bots": "3", "_preset": "tenhou-east"}))
    game = mmj_peer.table_with_bots(served.http_port, tokens["bob"])
    terminal = mmj_peer.Peer("bob", tokens["bob"], game=game)

    async def main() -> None:
        await ump.connect(served.ump_port)
        await terminal.connect(served.mmj_port)
        await asyncio.gather(play_for(ump.play(), PLAYED), play_for(terminal.play(), PLAYED))
        await ump.close()
        await terminal.close()

    asyncio.run(main())
    unpaid = SLOW_BURST + SLOW_RATE * PLAYED
    # Both answered far more than their allowance alone pays for, and nothing was refused.
    assert len(ump.sent) > 2 * unpaid and len(terminal.sent) > 2 * unpaid, (len(ump.sent), len(terminal.sent))
    assert not [line for line in ump.lines if " error " in f" {line}"], [line for line in ump.lines if "error" in line]
    assert not [m for m in terminal.messages if isinstance(m, mmj.Reject)], terminal.messages[-5:]
