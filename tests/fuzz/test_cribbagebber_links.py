"""CRIBBAGEBBER links under generated input: over the WebSocket (/ws/cribbage/, one line per frame)
and over a real TCP socket (``games.cribbage.transport.tcp.LineServer`` listening in the test's event loop,
as tests/cribbage/transport/test_tcp_limits.py runs it), before and after ``IM:``.

Each example builds a fresh world (worlds.py: a new table, a table to join, a game in progress
with automatic or manual counting), keeps ``bob`` connected through the lobby protocol, and
opens one link for ``ann``, with her token in the URL or not (TCP: never). It sends steps of
generated frames or bytes: commands of the protocol with arguments of every shape, lines of any
text, line breaks and NULs inside lines, lines at and over the length limit, bytes that are not
UTF-8, binary frames, all cut into writes anywhere.

How the answers to a step are told apart from later ones: before ``IM:`` every line is answered
with exactly one line (a warning, a welcome, or a parting ``E:``/``QU:`` line); once at a table,
the link sends a chat probe after each step and reads up to its echo. Asserted:

- the consumer never dies (no 1011, no exception, no ``WA:INTERNAL``), the server never hangs up
  without a parting line, and every server line is one line of valid UTF-8 without NUL or CR;
- a step whose every line was refused (one ``WA:`` per line) changed nothing: games, seats, the
  action log, chat, users, presence, and every seat's view of every game in progress;
- once every link is closed, no ``Client`` row is left, ann holds no seat at a table being set
  up (a link is its seat while waiting), and the server logged no error.
"""

from __future__ import annotations

import itertools
import json
import os
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

import pytest
from channels.db import database_sync_to_async
from hypothesis import given, note
from hypothesis import strategies as st

from config.asgi import application
from games.cribbage.transport.tcp import LineServer
from games.models import Client, Seat, Status
from tests.fuzz.sockets import PARTING, JsonSocket, LineLink, TcpLines, WsLines
from tests.fuzz.strategies import Chunk, LineFrame, chunks, encode_chunk, encode_line_frame, line_frames, weighted
from tests.fuzz.support import (
    Baseline,
    World,
    bounded,
    describe,
    print_stats,
    reset_process_state,
    run_async,
    server_errors,
    short,
    tally,
)
from tests.fuzz.support import world_state as _world_state
from tests.fuzz.worlds import SCENARIOS, cribbage_world

pytestmark = pytest.mark.django_db(transaction=True)

PROBE = "\u2063probe-"
_probes = itertools.count()
# ~7 s for both on two cores with SQLite, ~17 s with PostgreSQL and Redis.
EXAMPLES = {"ws": 24, "tcp": 18}


def world_state() -> dict[str, Any]:
    return _world_state(probe_prefix=PROBE)


# -- one step: what the link sent, and what came back --------------------------------------------------


@dataclass
class Link:
    link: LineLink
    nick: str
    introduced: bool = False  # at a table (welcomed)
    baseline: Baseline = field(default_factory=lambda: Baseline(database_sync_to_async(world_state)))

    def welcome(self, line: str) -> bool:
        return line in (f"CO:{self.nick}", f"WE:{self.nick}")


async def read_intro_answers(link: Link, count: int) -> list[str]:
    """Before IM: each line gets exactly one answer; a welcome means the link is at a table now
    (its remaining answers are read with the probe), a parting line that it is closing."""
    answers: list[str] = []
    while len(answers) < count:
        line = await link.link.recv()
        if line is None:
            return answers
        answers.append(line)
        if link.welcome(line):
            link.introduced = True
            return answers
        if line.startswith(PARTING):
            await expect_close(link)
            return answers
    return answers


async def expect_close(link: Link) -> None:
    while not link.link.closed:
        await link.link.recv()


async def probe(link: Link, send: Callable[[str], Awaitable[None]]) -> list[str] | None:
    """Lines up to the probe's echo (left out); None if the link closed on the way."""
    text = f"{PROBE}{next(_probes)}"
    await send(f"ME:{text}")
    echo = f"ME:{link.nick}/{text}"
    out: list[str] = []
    while True:
        line = await link.link.recv()
        if line is None:
            return None
        if line == echo:
            return out
        out.append(line)


async def step(link: Link, payloads: list[Any], lines_in: int, send_step: Callable[[], Awaitable[None]],
               send_line: Callable[[str], Awaitable[None]], label: str) -> None:
    """Send one step; if every line of it was refused, the world is as it was."""
    before = await link.baseline.before()
    link.baseline.changed()  # unless the step is found refused below
    was_introduced = link.introduced
    await send_step()
    if link.link.closed:
        return
    if not was_introduced:
        answers = await read_intro_answers(link, lines_in)
        if link.link.closed:
            return
        if link.introduced:  # logged in by this step: what follows the welcome is not checked
            tally("intro:welcomed")
            await probe(link, send_line)
            return
    else:
        answers = await probe(link, send_line)
        if answers is None:
            tally("table:closed")
            if os.environ.get("FUZZ_SHOW"):
                print(label, "closed:", link.link.transcript[-6:])
            return
    refusals = [a for a in answers if a.startswith("WA:")]
    tally(f"{'table' if was_introduced else 'intro'}:{'refused' if len(refusals) == lines_in else 'other'}")
    if os.environ.get("FUZZ_SHOW"):
        print(label, short(payloads, 120), "->", short(answers, 160))
    if lines_in and len(refusals) == lines_in:
        link.baseline.state = before
        assert await link.baseline.unchanged(), (
            f"refused lines changed the world: {short(payloads, 300)} -> {answers}\n{link.link.context()}")


# -- the example -----------------------------------------------------------------------------------------


async def watcher(world: World) -> JsonSocket:
    bob = JsonSocket("/ws/bot/", name="bob (watcher)")
    await bob.connect()
    await bob.send(json.dumps({"type": "Login", "version": 1, "token": world.values["bob_token"]}))
    await bob.until(lambda m: m["type"] == "Greetings")
    return bob


def leftovers(nick: str) -> dict[str, Any]:
    return {
        "presence": list(Client.objects.values_list("id", "user__username")),
        "waiting seats": list(Seat.objects.filter(user__username=nick, game__status=Status.SETUP)
                              .values_list("game_id", flat=True)),
    }


async def finish(world: World, bob: JsonSocket, link: Link) -> None:
    await link.link.close()
    await bob.drain()
    await bob.close()
    left = await database_sync_to_async(leftovers)(world.values["nick"])
    assert left == {"presence": [], "waiting seats": []}, f"left behind after every link closed: {left}"


def run_example(fuzz_env: Any, scenario: str, body: Callable[[World], Awaitable[None]]) -> None:
    reset_process_state(fuzz_env)
    world = cribbage_world(scenario)
    with server_errors() as errors:
        run_async(lambda: body(world))
    assert not errors, f"the server logged errors:\n{describe(errors)}"


# -- over the WebSocket ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class WsPlan:
    scenario: str
    address: str  # "default", "table", "unknown"
    url_token: bool
    login: bool  # send a good IM: first
    steps: tuple[tuple[LineFrame, ...], ...]


ws_plans = st.builds(
    WsPlan,
    st.sampled_from(SCENARIOS),
    weighted((3, st.just("default")), (2, st.just("table")), (1, st.just("unknown"))),
    st.booleans(),
    weighted((3, st.just(True)), (1, st.just(False))),
    st.lists(st.lists(line_frames, min_size=1, max_size=3).map(tuple), min_size=4, max_size=12).map(tuple),
)


async def ws_example(world: World, plan: WsPlan) -> None:
    bob = await watcher(world)
    table = world.values["table"]
    path = "/ws/cribbage/"
    if plan.address == "table" and table is not None:
        path = f"/ws/cribbage/{table}/"
    elif plan.address == "unknown":
        path = "/ws/cribbage/987654/"
    if plan.url_token:
        path += f"?token={world.values['token']}"
    link = Link(WsLines(path, name=f"ann on {path.split('?')[0]}"), world.values["nick"])
    try:
        await link.link.connect()
        first = await link.link.recv()
        if first is None:
            return
        if first.startswith("E:"):
            await expect_close(link)
            return
        assert first == "P:0.1/DNM", link.link.context()

        async def send_line(text: str) -> None:
            await link.link.send(text)

        if plan.login:
            token = "" if plan.url_token else f"/{world.values['token']}"
            await step(link, [f"IM:{link.nick}{token}"], 1, lambda: send_line(f"IM:{link.nick}{token}"), send_line,
                       "login")
        for frames in plan.steps:
            if link.link.closed:
                break
            payloads = [encode_line_frame(f, world) for f in frames]

            async def send_step(payloads: list[str | bytes] = payloads) -> None:
                for payload in payloads:
                    await link.link.send(payload)

            await step(link, payloads, len(payloads), send_step, send_line, "ws")
    finally:
        await finish(world, bob, link)


def test_cribbagebber_websocket_survives_generated_lines(fuzz_env):
    @bounded(EXAMPLES["ws"])
    @given(plan=ws_plans)
    def check(plan: WsPlan) -> None:
        note(f"plan: {plan!r}")
        run_example(fuzz_env, plan.scenario, lambda world: ws_example(world, plan))

    check()
    print_stats("CRIBBAGEBBER over WebSocket")


# -- over TCP ----------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class TcpPlan:
    scenario: str
    login: bool
    steps: tuple[tuple[tuple[Chunk, ...], tuple[int, ...]], ...]
    tail: bytes  # sent last, no newline: an unfinished line when the link goes


tcp_plans = st.builds(
    TcpPlan,
    st.sampled_from(SCENARIOS),
    weighted((3, st.just(True)), (1, st.just(False))),
    st.lists(st.tuples(st.lists(chunks, min_size=1, max_size=3).map(tuple),
                       st.lists(st.integers(1, 4096), max_size=3).map(tuple)), min_size=4, max_size=12).map(tuple),
    st.sampled_from([b"", b"", b"ME:unfinished", b"\xff", b"x" * 3000]),
)


def newlines(data: bytes) -> int:
    return data.count(b"\n")


async def tcp_example(world: World, plan: TcpPlan) -> None:
    bob = await watcher(world)
    # A link's consumer is given 0.5 s to end after its socket closed (10 s by default): under Redis
    # it may wait on a channel-layer receive that lost its cancellation (see sockets.end_consumer).
    server = LineServer(application, host="127.0.0.1", port=0, close_timeout=0.5)
    await server.start()
    link = Link(TcpLines(server.port, name="ann over TCP"), world.values["nick"])
    tcp: TcpLines = link.link  # type: ignore[assignment]
    try:
        await tcp.connect()
        assert await tcp.recv() == "P:0.1/DNM", tcp.context()

        async def send_line(text: str) -> None:
            await tcp.send(text.encode() + b"\n")

        if plan.login:
            im = f"IM:{link.nick}/{world.values['token']}"
            await step(link, [im], 1, lambda: send_line(im), send_line, "login")
        for pieces, cuts in plan.steps:
            if tcp.closed:
                break
            data = b"".join(encode_chunk(c, world) for c in pieces)

            async def send_step(data: bytes = data, cuts: tuple[int, ...] = cuts) -> None:
                await tcp.send(data, cuts)

            await step(link, [data], newlines(data), send_step, send_line, "tcp")
        if plan.tail and not tcp.closed:
            await tcp.send(plan.tail)
    finally:
        await tcp.close()
        await server.close()
        assert server.links == 0, "a TCP link outlived the server's close"
        await finish(world, bob, link)


def test_cribbagebber_tcp_survives_generated_bytes(fuzz_env):
    @bounded(EXAMPLES["tcp"])
    @given(plan=tcp_plans)
    def check(plan: TcpPlan) -> None:
        note(f"plan: {plan!r}")
        run_example(fuzz_env, plan.scenario, lambda world: tcp_example(world, plan))

    check()
    print_stats("CRIBBAGEBBER over TCP")
