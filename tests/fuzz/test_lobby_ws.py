"""The lobby WebSockets (/ws/lobby/ for browsers, /ws/bot/ for programs) under generated frames.

Each example builds a fresh world (support.py, worlds.py) and keeps ``friend`` connected as a
watcher (every push a fuzzed input causes must reach other consumers intact). Then ``me``:

- ``test_first_frames...``: one to four connections, each sending one frame before Login: a
  Login with the right credentials (password, token, or on /ws/lobby/ the session cookie, sent
  or not) and fields of the right or any type, or any frame at all;
- ``test_frames_after_login...``: one connection that logs in, then sends 3 to 10 frames of every
  kind: protocol messages with fields of the wrong type (and sometimes a move the game offers),
  random JSON, JSON nested 1 to 50,000 deep, frames of 64 KiB and more, text that is not JSON or
  not standard JSON (NaN, 1e999, lone surrogates), binary frames.

After every frame the client sends a probe (a Resync of game 0, always refused with its ``ref``),
so every reply to the frame has arrived when the probe's does. Asserted:

- the server never closes with 1011 and its consumer never raises (nor reports InternalError, the
  guard's answer to an exception that would have been a 1011);
- every server frame is strict JSON, an object with a string ``type``; errors carry a code and a
  reason;
- before Login, a frame that does not log in is answered FatalError and the socket is closed
  with 4000, and nothing changed (no presence row either);
- after Login, a frame answered ``Error`` changed nothing: games, seats, the action log, chat,
  users, presence, and every seat's view of every game in progress; the connection stays open;
- once every connection is closed, no ``Client`` row is left, and the server logged no error.
"""

from __future__ import annotations

import itertools
import json
import os
from collections.abc import Awaitable, Callable
from typing import Any

import pytest
from channels.db import database_sync_to_async
from hypothesis import given, note
from hypothesis import strategies as st

from games.models import Client
from tests.fuzz.sockets import BROWSER_HEADERS, JsonSocket
from tests.fuzz.strategies import Frame, encode_frame, first_frames, frames, good_login
from tests.fuzz.support import (
    Baseline,
    World,
    bounded,
    describe,
    print_stats,
    reset_process_state,
    run_async,
    server_errors,
    tally,
    world_state,
)
from tests.fuzz.worlds import lobby_world

pytestmark = pytest.mark.django_db(transaction=True)

PROBE = "\u2063probe"
_probes = itertools.count()

# Examples per endpoint (first frames: up to 4 connections each; after Login: 3 to 10 frames each).
# The four tests take ~15 s on two cores with SQLite, ~30 s with PostgreSQL and Redis.
EXAMPLES = {"first": 20, "after": 24}


def _cookie(world: World) -> tuple[bytes, bytes]:
    return (b"cookie", world.values["cookie"].encode())


async def _watcher(world: World) -> JsonSocket:
    friend = JsonSocket("/ws/bot/", name="friend (watcher)")
    await friend.connect()
    await friend.send(json.dumps({"type": "Login", "version": 1, "token": world.values["friend_token"]}))
    await friend.until(lambda m: m["type"] == "Greetings")
    return friend


async def _probe(sock: JsonSocket) -> list[dict[str, Any]]:
    """Everything the server sent before the probe's answer (the probe's answer left out)."""
    ref = f"{PROBE}{next(_probes)}"
    await sock.send(json.dumps({"type": "Resync", "game": 0, "ref": ref}))
    replies = await sock.until(lambda m: m["type"] == "Error" and m.get("ref") == ref)
    assert replies[-1]["code"] == "InvalidMessage", replies[-1]
    return replies[:-1]


def _headers(path: str, cookie: tuple[bytes, bytes] | None) -> list[tuple[bytes, bytes]]:
    if path != "/ws/lobby/":
        return []
    return [*BROWSER_HEADERS, *([cookie] if cookie else [])]


async def _first_frame(path: str, world: World, frame: Frame, cookie: tuple[bytes, bytes] | None,
                       baseline: Baseline) -> None:
    """A connection's first frame: it logs in (Greetings) or is refused (FatalError, close 4000,
    nothing changed)."""
    sock = JsonSocket(path, _headers(path, cookie), name=f"me on {path}")
    await sock.connect()
    try:
        await baseline.before()
        await sock.send(encode_frame(frame, world))
        reply = await sock.next()
        assert reply is not None, f"closed without a FatalError\n{sock.context()}"
        tally(f"{reply['type']}:{reply.get('code', '')}")
        if reply["type"] == "FatalError":
            assert await sock.next() is None and sock.closed == 4000, (
                f"a FatalError must close with 4000\n{sock.context()}")
            assert await baseline.unchanged(), f"a refused Login changed the world\n{sock.context()}"
            return
        baseline.changed()
        assert reply["type"] == "Greetings", f"Login answered {reply['type']}\n{sock.context()}"
        await _probe(sock)
    finally:
        await sock.close()


async def _logged_in(path: str, world: World, login: dict[str, Any], after: list[Frame],
                     cookie: tuple[bytes, bytes] | None) -> None:
    """Frames after a Login: each answered Error changed nothing, and the link stays served."""
    baseline = Baseline(database_sync_to_async(world_state))
    sock = JsonSocket(path, _headers(path, cookie), name=f"me on {path}")
    await sock.connect()
    try:
        await sock.send(encode_frame(Frame(message=login), world))
        await sock.until(lambda m: m["type"] == "Greetings")
        await _probe(sock)
        for frame in after:
            payload = encode_frame(frame, world)
            await baseline.before()
            await sock.send(payload)
            replies = await _probe(sock)
            errors = [m for m in replies if m["type"] == "Error"]
            tally(errors[0]["code"] if errors else "accepted")
            if os.environ.get("FUZZ_SHOW"):
                print(errors[0]["code"] if errors else "accepted", errors[0]["reason"][:50] if errors else "",
                      repr(payload)[:150])
            assert not any(m["type"] == "FatalError" for m in replies), sock.context()
            if not errors:
                baseline.changed()
                continue
            assert len(errors) == 1, f"two answers to one frame\n{sock.context()}"
            assert await baseline.unchanged(), (
                f"a refused frame ({errors[0]['code']}) changed the world: {frame!r}\n{sock.context()}")
    finally:
        await sock.close()


async def _with_watcher(world: World, body: Callable[[], Awaitable[None]]) -> None:
    """Run ``body`` while ``friend`` watches; then the watcher is still served and, once every
    connection is closed, no presence row is left."""
    friend = await _watcher(world)
    try:
        await body()
        # Whatever the fuzzing caused was pushed to the watcher intact, and it is still served.
        await friend.drain()
        await _probe(friend)
    finally:
        await friend.close()
    rows = await database_sync_to_async(lambda: list(Client.objects.values_list("id", "user__username")))()
    assert rows == [], f"presence rows left after every connection closed: {rows}"


def _run(fuzz_env, endpoint: str, body: Callable[[World, tuple[bytes, bytes] | None], Awaitable[None]]) -> None:
    reset_process_state(fuzz_env)
    world = lobby_world()
    cookie = _cookie(world) if endpoint == "lobby" else None
    with server_errors() as errors:
        run_async(lambda: _with_watcher(world, lambda: body(world, cookie)))
    assert not errors, f"the server logged errors:\n{describe(errors)}"


@pytest.mark.parametrize("endpoint", ["lobby", "bot"])
def test_first_frames_log_in_or_are_refused_cleanly(endpoint, fuzz_env):
    path = f"/ws/{endpoint}/"

    @bounded(EXAMPLES["first"], salt=endpoint)
    @given(firsts=st.lists(first_frames[endpoint == "lobby"], min_size=1, max_size=4), cookie=st.booleans())
    def check(firsts: list[Frame], cookie: bool) -> None:
        note(f"first frames: {firsts!r}, cookie: {cookie}")

        async def body(world: World, session: tuple[bytes, bytes] | None) -> None:
            baseline = Baseline(database_sync_to_async(world_state))
            for frame in firsts:
                await _first_frame(path, world, frame, session if cookie else None, baseline)

        _run(fuzz_env, endpoint, body)

    check()
    print_stats(f"first frames on {path}")


@pytest.mark.parametrize("endpoint", ["lobby", "bot"])
def test_frames_after_login_are_served_or_refused_without_effect(endpoint, fuzz_env):
    path = f"/ws/{endpoint}/"

    @bounded(EXAMPLES["after"], salt=endpoint)
    @given(login=good_login(session=endpoint == "lobby"), after=st.lists(frames, min_size=3, max_size=10))
    def check(login: dict[str, Any], after: list[Frame]) -> None:
        note(f"login: {login!r}\nframes: {after!r}")

        async def body(world: World, cookie: tuple[bytes, bytes] | None) -> None:
            await _logged_in(path, world, login, after, cookie)

        _run(fuzz_env, endpoint, body)

    check()
    print_stats(f"frames after Login on {path}")
