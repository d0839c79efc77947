"""The flood of the probe, against the server `make run` starts (``manage.py serve``: Daphne, real
sockets): one user opens hundreds of WebSocket connections and floods chat on every one it keeps,
while another user's chat round trip is measured. The cap turns away all but
``MAX_CONNECTIONS_PER_USER`` connections, the frame and chat limits refuse the flood cheaply, and
the other user's round trip stays under ``ROUND_TRIP_BOUND`` (docs/security.md)."""

from __future__ import annotations

import asyncio
import json
import time

import pytest
import websockets

from tests.conftest import unbatch
from tests.security.test_limits import ROUND_TRIP_BOUND
from tests.served import serve

# Its server is a child on the embedded default whatever the configuration (tests/served.py).
pytestmark = pytest.mark.own_server


CONNECTIONS = 300  # the probe opened 500; the point is "far more than the cap"
FRAMES_EACH = 300

SETUP = """
import django
django.setup()
from django.core.management import call_command
from accounts.models import User
from accounts.tokens import token_for
call_command("migrate", verbosity=0)
for name in ("flooder", "bob"):
    print(token_for(User.objects.create_user(username=name, password=None)))
"""


@pytest.fixture
def served(tmp_path):
    # One address opens them all: the per-address cap (games/transport/addresses.py) is raised past the flood,
    # so that this measures the per-user cap and the frame limits. The lobby's tick is off: it holds
    # a lobby chat up to LOBBY_TICK_MS on purpose (docs/protocols/lobby.md), which is no part of
    # what a flood costs the watcher.
    with serve(tmp_path, SETUP, cribbage=False, quiet=False,
               env={"MAX_CONNECTIONS_PER_ADDRESS": str(CONNECTIONS + 10), "LOBBY_TICK_MS": "0"}) as site:
        flooder, bob = site.setup_output.split()[-2:]
        yield {"port": site.http_port, "flooder": flooder, "bob": bob}


async def log_in(port: int, token: str) -> tuple[websockets.ClientConnection, dict]:
    ws = await websockets.connect(f"ws://127.0.0.1:{port}/ws/bot/", open_timeout=30, max_queue=None)
    await ws.send(json.dumps({"type": "Login", "version": 1, "token": token, "history": False}))
    while True:
        for reply in unbatch(json.loads(await asyncio.wait_for(ws.recv(), 30))):
            if reply["type"] in ("Greetings", "FatalError"):
                return ws, reply


async def round_trip(ws: websockets.ClientConnection, text: str) -> float:
    start = time.monotonic()
    await ws.send(json.dumps({"type": "Chat", "text": text}))
    while True:
        # Lobby chat comes with the other lobby messages of its tick (docs/protocols/lobby.md).
        for message in unbatch(json.loads(await asyncio.wait_for(ws.recv(), 30))):
            if message["type"] == "Chat" and message["text"] == text:
                return time.monotonic() - start


async def drain(ws: websockets.ClientConnection) -> list[dict]:
    """Read what the server says until it stops; the flooder reads its refusals as a client would."""
    said = []
    try:
        while True:
            said.extend(unbatch(json.loads(await asyncio.wait_for(ws.recv(), 2))))
    except (TimeoutError, websockets.ConnectionClosed):
        return said


def test_a_users_connection_and_chat_flood_leaves_another_users_round_trip_bounded(served):
    asyncio.run(flood(served))


async def flood(served: dict) -> None:
    port = served["port"]
    watcher, _ = await log_in(port, served["bob"])
    baseline = [await round_trip(watcher, f"before {n}") for n in range(3)]

    attempts = await asyncio.gather(*(log_in(port, served["flooder"]) for _ in range(CONNECTIONS)),
                                    return_exceptions=True)
    failed = [a for a in attempts if isinstance(a, BaseException)]
    assert not failed, failed[:3]
    kept = [ws for ws, reply in attempts if reply["type"] == "Greetings"]
    refused = [reply["code"] for _, reply in attempts if reply["type"] == "FatalError"]
    assert len(kept) == 20 and refused == ["TooManyConnections"] * (CONNECTIONS - 20)

    async def spam(ws: websockets.ClientConnection, n: int) -> list[dict]:
        for i in range(FRAMES_EACH):
            await ws.send(json.dumps({"type": "Chat", "text": f"spam {n}.{i}"}))
        return await drain(ws)

    began = time.time()
    flooding = asyncio.gather(*(spam(ws, n) for n, ws in enumerate(kept)))
    samples = []
    while not flooding.done() and len(samples) < 10:
        samples.append(await round_trip(watcher, f"during {len(samples)}"))
    heard = await flooding
    # The chat limit is a fixed window (games/core/limits.py): a flood that crosses a minute's edge may
    # have a minute's allowance on each side of it.
    minutes = int(time.time() // 60) - int(began // 60) + 1
    print(f"round trips: baseline {max(baseline):.3f} s, during the flood {samples}")
    assert samples, "the flood ended before a round trip could be measured"
    assert max(samples) < ROUND_TRIP_BOUND, (baseline, samples)

    # The flood was refused in the protocol's terms, and at most a minute's chat per minute window
    # it touched got through.
    codes = {m["code"] for said in heard for m in said if m["type"] == "Error"}
    assert codes == {"RateLimited"}, codes
    own = sum(1 for said in heard for m in said if m["type"] == "Chat" and m["username"] == "flooder")
    assert own <= 30 * minutes * len(kept)  # each of its connections hears each accepted message once
    for ws in [*kept, watcher]:
        await ws.close()



def test_a_client_busy_past_autobahns_close_timeout_still_reads_why_it_was_turned_away(served):
    """The flood's clients are busy: one has its refusal and the server's close frame waiting
    unread when it writes its next frame. Under autobahn's own 1 s close handshake the server had
    reset the connection by then, the write failed, and the client lost the FatalError (the
    flood test saw this as ``ConnectionClosedError`` from a reset); the server now waits
    ``WEBSOCKET_CLOSE_TIMEOUT_SECONDS`` for the client's answer."""
    async def busy() -> dict:
        async with websockets.connect(f"ws://127.0.0.1:{served['port']}/ws/bot/") as ws:
            await ws.send(json.dumps({"type": "Login", "version": 1, "token": "not-a-token"}))
            time.sleep(2.5)  # blocks this client's event loop: nothing is read, nothing answered
            await ws.send(json.dumps({"type": "Chat", "text": "still there?"}))
            return json.loads(await asyncio.wait_for(ws.recv(), 10))

    reply = asyncio.run(busy())
    assert (reply["type"], reply["code"]) == ("FatalError", "InvalidToken"), reply
