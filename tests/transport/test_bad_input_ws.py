"""Bad input to the lobby WebSockets (seed 003's protocol: /ws/lobby/ for browsers, /ws/bot/ for
programs): each frame is answered with its documented error and changes nothing.

Before Login the seed allows only FatalError (and the server closes with 4000); after Login an
Error reply leaves the connection usable, which every case checks by making valid requests after it.
What a refused frame must leave alone is ``tests/fuzz/support.py``'s ``world_state``: games, seats,
the action log, chat, users, presence, and every seat's view of every game in progress.

The suite, from the most specific input to the most general:

- chosen first frames, one case each: Logins with a wrong version (of any JSON type), password,
  username or token, fields out of range, no credentials, a request before Login, text that is not
  a message;
- chosen frames after Login, one case each, at a table being set up: text that is not JSON or not
  standard JSON (nesting, NaN, ``1e999``, lone surrogates, NUL), unknown types, unknown or wrong
  games, set-up requests by the wrong user, fields of the wrong type or out of range, a seating
  order that is not user ids, oversized frames and chat, bad rules and time controls; every reply
  is strict JSON and carries the frame's ``ref``;
- generated frames (hypothesis) on both endpoints, with ``friend`` connected as a watcher (every
  push a fuzzed input causes must reach other consumers intact). ``me`` opens one to four
  connections, each sending one frame before Login (a Login with the right credentials: password,
  token, or on /ws/lobby/ the session cookie, sent or not; fields of the right or any type; any
  frame at all); or logs in and then sends 3 to 10 frames of every kind: protocol messages with
  fields of the wrong type (and sometimes a move the game offers), random JSON, JSON nested 1 to
  50,000 deep, frames of 64 KiB and more, text that is not JSON or not standard JSON, binary
  frames. After every frame a probe (a Resync of game 0, always refused with its ``ref``) marks
  where its replies end. Asserted: the server never closes with 1011 and its consumer never raises
  (nor reports InternalError); every server frame is strict JSON, an object with a string
  ``type``, errors carry a code and a reason; a refused first frame is a FatalError and a close
  with 4000, a refused later frame one Error; either changed nothing; once every connection is
  closed no ``Client`` row is left, and the server logged no error.
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
    bounded_shrinking,
    describe,
    deterministic,
    print_stats,
    reset_process_state,
    run_async,
    server_errors,
    tally,
    without_local_constants,
    world_state,
)
from tests.fuzz.worlds import lobby_world
from tests.transport.test_consumer_totality import closed_with, still_usable, strict_json

pytestmark = pytest.mark.django_db(transaction=True)


# --- before Login: a FatalError and a close ---------------------------------------------------

LOGIN = {"type": "Login", "version": 1, "username": "alice", "password": "secret-pw"}

# id: (first frame, code). alice exists, with the password "secret-pw".
FIRST_FRAMES: dict[str, tuple[dict[str, Any] | str, str]] = {
    "version-0": ({**LOGIN, "version": 0}, "NotUsingLatestVersion"),
    "version-1.0": ({**LOGIN, "version": 1.0}, "NotUsingLatestVersion"),
    "version-true": ({**LOGIN, "version": True}, "NotUsingLatestVersion"),
    "version-'1'": ({**LOGIN, "version": "1"}, "NotUsingLatestVersion"),
    "version-[1]": ({**LOGIN, "version": [1]}, "NotUsingLatestVersion"),
    "wrong-password": ({**LOGIN, "password": "wrong"}, "IncorrectPassword"),
    "username-too-long": ({**LOGIN, "username": "é" * 33, "password": "x"}, "InvalidUsername"),
    "bad-token": ({"type": "Login", "version": 1, "token": "not-a-token"}, "InvalidToken"),
    "no-credentials": ({"type": "Login", "version": 1}, "MissingPassword"),
    "games-not-a-list": ({**LOGIN, "games": "x"}, "InvalidMessageFormat"),
    "games-id-2**64": ({**LOGIN, "games": [{"game": 2**64, "history_size": 0}]}, "InvalidMessageFormat"),
    "games-history-size--1": ({**LOGIN, "games": [{"game": 1, "history_size": -1}]}, "InvalidMessageFormat"),
    "games-history-size-2**40": ({**LOGIN, "games": [{"game": 1, "history_size": 2**40}]}, "InvalidMessageFormat"),
    "rejoin-2**63": ({**LOGIN, "rejoin": 2**63}, "InvalidMessageFormat"),
    "rejoin--1": ({**LOGIN, "rejoin": -1}, "InvalidMessageFormat"),
    "rejoin-1.5": ({**LOGIN, "rejoin": 1.5}, "InvalidMessageFormat"),
    "request-before-login": ({"type": "CreateGame", "mode": 2}, "NotLoggedIn"),
    "not-json": ("{not json", "InvalidMessageFormat"),
    "no-type": ({"version": 1}, "InvalidMessageFormat"),
}


@pytest.mark.parametrize("case", list(FIRST_FRAMES))
async def test_a_first_frame_that_does_not_log_in_is_fatal(clients, db_call, make_user, case):
    frame, code = FIRST_FRAMES[case]
    await db_call(make_user, "alice")
    before = await db_call(world_state)
    client = await clients()
    await client.connect()
    await client.send(frame)
    reply = strict_json(await client.comm.receive_from(timeout=5))
    assert reply["type"] == "FatalError" and reply["code"] == code and reply["reason"], reply
    assert await closed_with(client) == 4000
    assert await db_call(world_state) == before
    assert await db_call(Client.objects.count) == 0


async def test_login_by_token_and_session_user_mismatch(clients, db_call, make_user):
    from accounts.tokens import token_for

    alice = await db_call(make_user, "alice")
    key = await db_call(token_for, alice)
    client = await clients()
    await client.connect()
    await client.send({"type": "Login", "version": 1, "token": key})
    assert (await client.expect("Greetings"))["user"] == alice.id
    other = await clients()
    await other.connect()
    await other.send({"type": "Login", "version": 1, "token": key, "username": "mallory"})
    assert (await other.recv())["code"] == "InvalidUsername"


# --- after Login: an Error, nothing changed, the link still served ----------------------------


async def _setup_table(clients, db_call, make_user, mode=3):
    """Three logged-in users: 0 hosts a table (mode 3), 1 has joined it and accepted, 2 is in
    the lobby."""
    users = [await db_call(make_user) for _ in range(3)]
    conns = [await clients(u) for u in users]
    await conns[0].send({"type": "CreateGame", "game_type": "acquire", "mode": mode})
    game_id = (await conns[0].expect("GameCreated"))["game"]
    await conns[1].send({"type": "JoinGame", "game": game_id})
    await conns[0].expect("UserJoinedGame")
    await conns[1].send({"type": "AcceptSetup", "game": game_id})
    await conns[0].expect("SetupAccepted")
    return users, conns, game_id


class Late:
    """A value known once the table exists: its game id (``TABLE``) or its host's user id (``HOST``)."""

    def __init__(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return f"<{self.name}>"


TABLE, HOST = Late("table"), Late("host")


def resolve(value: Any, game_id: int, host_id: int) -> Any:
    if value is TABLE:
        return game_id
    if value is HOST:
        return host_id
    if isinstance(value, dict):
        return {k: resolve(v, game_id, host_id) for k, v in value.items()}
    if isinstance(value, list):
        return [resolve(v, game_id, host_id) for v in value]
    return value


def _action(field: str, value: Any) -> dict[str, Any]:
    return {"type": "DoGameAction", "game": 1, "action": "x", "params": [], field: value, "ref": 7}


def _order(order: list[Any]) -> dict[str, Any]:
    return {"type": "ChangeArrangement", "game": 1, "arrangement": 2, "order": order, "ref": 3}


# id: (who sends it: 0 the host, 1 the guest, 2 a user in the lobby; the frame; the code; a part of
# the reason, if it matters).
AFTER_LOGIN: dict[str, tuple[int, dict[str, Any] | str, str, str | None]] = {
    # Text that is not JSON, or not standard JSON, or nested deeper than any request.
    "not-json": (1, "{not json", "InvalidMessageFormat", None),
    "a-list": (1, "[1, 2]", "InvalidMessageFormat", None),
    "65KiB": (2, "x" * (65 * 1024), "InvalidMessageFormat", None),
    "nested-1000": (2, "[" * 1000 + "]" * 1000, "InvalidMessageFormat", None),
    "field-nested-1000": (2, '{"type": "Chat", "text": "x", "nested": ' + "[" * 1000 + "]" * 1000 + "}",
                          "InvalidMessageFormat", None),
    "field-nested-40": (2, '{"type": "Chat", "text": "x", "nested": ' + "[" * 40 + "]" * 40 + "}",
                        "InvalidMessageFormat", None),
    "ref-NaN": (2, '{"type": "Chat", "text": "x", "ref": NaN}', "InvalidMessageFormat", None),
    "ref-Infinity": (2, '{"type": "Chat", "text": "x", "ref": Infinity}', "InvalidMessageFormat", None),
    "text--Infinity": (2, '{"type": "Chat", "text": -Infinity}', "InvalidMessageFormat", None),
    # No constant, but Python reads it as infinity.
    "ref-1e999": (2, '{"type": "Chat", "text": "x", "ref": 1e999}', "InvalidMessageFormat", None),
    "ref--1e400": (2, '{"type": "Chat", "text": "x", "ref": -1e400}', "InvalidMessageFormat", None),
    # PostgreSQL stores no NUL and no lone surrogate: no string may hold one.
    "rules-value-NUL": (2, '{"type": "CreateGame", "mode": 2, "rules": {"k": "a\\u0000b"}}',
                        "InvalidMessageFormat", None),
    "rules-key-NUL": (2, '{"type": "CreateGame", "mode": 2, "rules": {"a\\u0000": 1}}', "InvalidMessageFormat", None),
    "chat-NUL": (0, {"type": "Chat", "game": None, "text": "a\x00b"}, "InvalidMessageFormat", None),
    "chat-surrogate": (2, '{"type": "Chat", "text": "x\\ud800"}', "InvalidMessageFormat", None),
    "lobby-chat-surrogate": (0, '{"type": "Chat", "game": null, "text": "\\ud800"}', "InvalidMessageFormat", None),
    # Types and games that do not exist.
    "unknown-type": (1, {"type": "Fly"}, "UnknownMessageType", None),
    "unknown-type-with-ref": (2, {"type": "Fly", "ref": 7}, "UnknownMessageType", None),
    "join-unknown-game": (1, {"type": "JoinGame", "game": 987654}, "UnknownGame", None),
    "resync-unknown-game": (1, {"type": "Resync", "game": 987654}, "UnknownGame", None),
    "chat-unknown-game": (0, {"type": "Chat", "game": 987654, "text": "hello"}, "UnknownGame", None),
    "unknown-game-type": (0, {"type": "CreateGame", "game_type": "chess", "mode": 2}, "UnknownGameType", None),
    # Set-up requests the sender may not make now.
    "accept-again": (1, {"type": "AcceptSetup", "game": TABLE}, "AlreadyAccepted", None),
    "join-again": (1, {"type": "JoinGame", "game": TABLE}, "AlreadyInGame", None),
    "kick-by-a-guest": (1, {"type": "Kick", "game": TABLE, "user": HOST}, "NotHost", None),
    "arrangement-by-a-guest": (1, {"type": "ChangeArrangement", "game": TABLE, "arrangement": 3}, "NotHost", None),
    "unknown-arrangement": (0, {"type": "ChangeArrangement", "game": TABLE, "arrangement": 3},
                            "InvalidArrangement", None),
    "seating-without-the-guest": (0, {"type": "ChangeArrangement", "game": TABLE, "arrangement": 2, "order": [HOST]},
                                  "InvalidSeating", None),
    "unknown-mode": (0, {"type": "ChangeMode", "game": TABLE, "mode": 42}, "InvalidMode", None),
    "kick-nobody-at-the-table": (0, {"type": "Kick", "game": TABLE, "user": 987654}, "NotAtTable", None),
    "accept-not-seated": (2, {"type": "AcceptSetup", "game": TABLE}, "NotInGame", None),
    "leave-not-seated": (2, {"type": "LeaveGame", "game": TABLE}, "NotInGame", None),
    "move-before-the-start": (2, {"type": "DoGameAction", "game": TABLE, "action": "PlayTile", "params": [0]},
                              "GameNotActive", None),
    "chat-too-long": (0, {"type": "Chat", "game": TABLE, "text": "x" * 501}, "ChatTooLong", None),
    # Fields of the wrong type or out of range.
    "join-game-'1'": (1, {"type": "JoinGame", "game": "1"}, "InvalidMessage", None),
    "kick-user-10**30": (0, {"type": "Kick", "game": TABLE, "user": 10**30}, "InvalidMessage", None),
    "move-v--1": (2, _action("v", -1), "InvalidMessage", None),
    "move-v-2**31": (2, _action("v", 2**31), "InvalidMessage", None),
    "move-v-1.0": (2, _action("v", 1.0), "InvalidMessage", None),
    "move-v-true": (2, _action("v", True), "InvalidMessage", None),
    "move-game-2**63": (2, _action("game", 2**63), "InvalidMessage", None),
    "move-game--1": (2, _action("game", -1), "InvalidMessage", None),
    "move-game-0": (2, _action("game", 0), "InvalidMessage", None),
    "move-seat--1": (2, _action("seat", -1), "InvalidMessage", None),
    "move-seat-2**40": (2, _action("seat", 2**40), "InvalidMessage", None),
    "order-[true]": (2, _order([True]), "InvalidMessage", "order"),
    "order-[false, 1]": (2, _order([False, 1]), "InvalidMessage", "order"),
    "order-[1.0]": (2, _order([1.0]), "InvalidMessage", "order"),
    "order-[0]": (2, _order([0]), "InvalidMessage", "order"),
    "order-['1']": (2, _order(["1"]), "InvalidMessage", "order"),
    "order-[2**53]": (2, _order([2**53]), "InvalidMessage", "order"),
    # Bad time controls and rules.
    "time-start--5": (0, {"type": "CreateGame", "game_type": "acquire", "mode": 2, "time_start": -5},
                      "InvalidTimeControl", None),
    "unknown-rule-value": (0, {"type": "CreateGame", "game_type": "cribbage", "mode": 2,
                               "rules": {"counting": "shouted"}}, "InvalidRules", None),
    "rules-not-an-object": (0, {"type": "CreateGame", "game_type": "cribbage", "mode": 2, "rules": "manual"},
                            "InvalidMessage", None),
}


@pytest.mark.parametrize("case", list(AFTER_LOGIN))
async def test_a_refused_frame_changes_nothing_and_keeps_the_connection(clients, db_call, make_user, case):
    who, frame, code, reason = AFTER_LOGIN[case]
    users, conns, game_id = await _setup_table(clients, db_call, make_user)
    frame = resolve(frame, game_id, users[0].id)
    client = conns[who]
    before = await db_call(world_state)
    await client.send(frame if isinstance(frame, str) else json.dumps(frame))
    while True:  # every frame the server sends is strict JSON (no NaN, no Infinity)
        reply = strict_json(await client.comm.receive_from(timeout=5))
        if reply["type"] == "Error":
            break
    assert reply["code"] == code, (frame, reply)
    assert reply["reason"]
    if reason is not None:
        assert reason in reply["reason"], reply
    if isinstance(frame, dict) and "ref" in frame:
        assert reply["ref"] == frame["ref"]
    if isinstance(frame, str):  # the frame could not be read, nor its ref
        assert "ref" not in reply, reply
    assert await db_call(world_state) == before, frame
    # Still connected and served.
    await client.send({"type": "Resync", "game": game_id})
    assert (await client.expect("Snapshot"))["game"] == game_id
    await still_usable(client)


async def test_joining_a_full_table(clients, db_call, make_user):
    users, conns, game_id = await _setup_table(clients, db_call, make_user, mode=2)
    before = await db_call(world_state)
    await conns[2].send({"type": "JoinGame", "game": game_id})
    assert (await conns[2].expect("Error"))["code"] == "GameFull"
    assert await db_call(world_state) == before


# --- generated frames on both endpoints -------------------------------------------------------


@pytest.fixture
def fuzz_env(settings, monkeypatch):
    """As in tests/fuzz/conftest.py: rate limits out of the way, clocks frozen, the lobby's randomness
    seeded; hypothesis's examples independent of the product's literals, and a failure shrunk for a
    bounded time (tests/fuzz/support.py)."""
    with without_local_constants(monkeypatch), bounded_shrinking(monkeypatch):
        yield deterministic(monkeypatch, settings)


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
