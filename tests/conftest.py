"""Shared fixtures: users, WebSocket clients on the full ASGI application."""

from __future__ import annotations

import asyncio
import itertools
import json
import os
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings

# Tests that need time-outs drive the clocks themselves (moves.expire_due); a sweeper thread in
# the test process would race them. Server processes started by tests may turn it back on.
os.environ.setdefault("GAME_CLOCK_SWEEPER", "0")
# Likewise the presence heartbeat (its clean-up is tested by calling presence.beat directly).
os.environ.setdefault("PRESENCE_HEARTBEAT", "0")

# In-process tests run the consumers on the test's own event loop, one per test: their database
# calls share one thread, as Channels does by default, and close their connection after each call.
# The server's own model (a pool of threads with persistent connections, pushes handed to the
# server's loop: games/core/db.py, games/service/push.py) is what the tests that start real servers exercise
# (tests/served.py, the browser tests, tests/scaleout).
settings.DATABASES["default"]["CONN_MAX_AGE"] = 0
settings.DATABASE_THREADS = 0
# Tests that are not about the timing rule play riichi at full speed, in this process and in the
# servers tests start; those that are about it set it.
os.environ.setdefault("CALL_FLOOR_MS", "0")
settings.CALL_FLOOR_MS = int(os.environ["CALL_FLOOR_MS"])

# `make test` runs the suite in several processes (pytest-xdist workers, PYTEST_XDIST_WORKER =
# gw0, gw1, ...). Each has a database of its own (pytest-django names the test database per
# worker); on Redis, each keeps its channel layer (groups, channels) and its rate-limit cache
# under prefixes of its own, so no worker hears another's pushes or counts its log-ins.
WORKER = os.environ.get("PYTEST_XDIST_WORKER", "")
if WORKER and settings.REDIS_URL:
    settings.CHANNEL_LAYERS["default"]["CONFIG"]["prefix"] = f"asgi-{WORKER}"
    settings.CACHES["default"]["KEY_PREFIX"] = f"limits-{WORKER}"


def _flush_postgresql_by_delete() -> None:
    """After each transactional test (``django_db(transaction=True)``, ``transactional_db``),
    Django empties every table: on PostgreSQL with one ``TRUNCATE`` of them all, which costs about
    a second however little they hold (new files for each table and index). A ``DELETE`` of
    each, in one transaction, leaves the same empty tables (the foreign keys Django makes there
    are checked at commit) in a few milliseconds. Sequences are kept either way; a flush that
    resets them or cascades is left to Django."""
    from django.db.backends.postgresql.operations import DatabaseOperations

    truncate = DatabaseOperations.sql_flush

    def sql_flush(self, style, tables, *, reset_sequences=False, allow_cascade=False):
        if reset_sequences or allow_cascade or not tables:
            return truncate(self, style, tables, reset_sequences=reset_sequences, allow_cascade=allow_cascade)
        return ["SET CONSTRAINTS ALL DEFERRED;",
                *(f"{style.SQL_KEYWORD('DELETE FROM')} {style.SQL_FIELD(self.quote_name(table))};"
                  for table in tables)]

    DatabaseOperations.sql_flush = sql_flush


if settings.DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    _flush_postgresql_by_delete()

_names = itertools.count(1)


# Fixtures through which a test reaches the database (pytest-django refuses it any other way).
_DATABASE_FIXTURES = frozenset({"db", "transactional_db", "django_db_reset_sequences",
                                "django_db_serialized_rollback", "live_server"})


def runs_once(item: pytest.Item) -> str | None:
    """Why ``item`` is left out of the scale-out run (None: it runs there too). The scale-out run
    exists to exercise PostgreSQL and Redis; a test whose outcome cannot depend on them runs once,
    in the embedded-default run:

    - ``own_server``: it starts server children that drop DATABASE_URL and REDIS_URL and run the
      embedded default, and uses nothing of the suite's own database;
    - ``browser``: it drives the pages, the same on either configuration; the scale-out run
      covers the server paths behind them (REST, the consumers, ``tests/scaleout``'s two Daphnes);
    - ``same_on_every_database``: a case of a parametrized test whose cases differ only in what
      the engine does (37 reference games imported, say); one unmarked case runs there;
    - no database access (no ``django_db`` mark, no database fixture) and not marked
      ``scaleout``: engines, codecs, pure protocol logic and the in-memory layer's own tests. A
      test that uses the Redis channel layer or cache without the database is marked
      ``scaleout`` so that it stays."""
    if item.get_closest_marker("own_server"):
        return "own_server"
    if item.get_closest_marker("browser"):
        return "browser"
    if item.get_closest_marker("same_on_every_database"):
        return "same_on_every_database"
    if item.get_closest_marker("scaleout") or item.get_closest_marker("django_db"):
        return None
    if _DATABASE_FIXTURES & set(getattr(item, "fixturenames", ())):
        return None
    return "no database"


# tryfirst: before pytest-xdist's worker reads the xdist_group marks (`--dist loadgroup`).
@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """In the scale-out run (DATABASE_URL names PostgreSQL), leave out the tests ``runs_once``
    names: they are deselected (counted in the summary), never skipped.

    Under pytest-xdist (`make test`: `--dist loadgroup`), the tests of one module run on one
    worker, one after another in the module's order: those that share a module-scoped fixture (a
    server child, a corpus) get it once, and what a module computes once (a cached corpus, a
    replayed game) is computed on one worker only. Each module is an ``xdist_group`` named
    after it, unless its tests name a group of their own (tests/scaleout)."""
    if os.environ.get("DATABASE_URL", "").startswith("postgres"):
        kept, dropped = [], []
        for item in items:
            (dropped if runs_once(item) else kept).append(item)
        if dropped:
            config.hook.pytest_deselected(items=dropped)
            items[:] = kept
    for item in items:
        if not item.get_closest_marker("xdist_group"):
            item.add_marker(pytest.mark.xdist_group(item.nodeid.split("::", 1)[0]))


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup):
    """pytest-django's test database, and at the end of the run no connection left open to it:
    ORM calls made through asgiref's ``sync_to_async`` (not Channels' ``database_sync_to_async``,
    which closes them) run in asgiref's one sync thread and leave its connection open; the test
    database could then not be dropped (PostgreSQL waits 5 s for it, then refuses)."""
    yield
    from asgiref.sync import SyncToAsync
    from django.db import connections

    SyncToAsync.single_thread_executor.submit(connections.close_all).result()


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings):
    # Production hashing costs ~0.3 s per password; tests create and log in many users.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


# Every game that ends anywhere in a test run has its stored record checked against a replay of
# its log (settings.RECORDS_VERIFY_ON_WRITE): in this process, and in the servers tests start as
# children, which inherit the environment.
os.environ["RECORDS_VERIFY_ON_WRITE"] = "1"


@pytest.fixture(autouse=True)
def _verify_records(settings):
    settings.RECORDS_VERIFY_ON_WRITE = True


@pytest.fixture(autouse=True)
def _fresh_channel_layer():
    # Each test runs on its own event loop; channels-redis keeps locks and connections bound to the
    # loop that made them, so a layer shared across tests breaks once one test ends mid-receive.
    from channels.layers import channel_layers

    channel_layers.backends.clear()
    yield
    channel_layers.backends.clear()


@pytest.fixture(autouse=True)
def _fresh_limits():
    # Rate-limit counters and lock-outs live in the cache (Redis under REDIS_URL): each test
    # starts with none, whatever the tests before it did.
    clear_limits()
    yield
    clear_limits()


def clear_limits() -> None:
    """Empty the rate-limit cache; under Redis only its own keys (a flush would take the
    channel layer's groups and queues with it)."""
    from django.conf import settings
    from django.core.cache import cache

    if not settings.REDIS_URL:
        cache.clear()
        return
    import redis

    client = redis.Redis.from_url(settings.REDIS_URL)
    try:
        keys = list(client.scan_iter(match=f"{settings.CACHES['default']['KEY_PREFIX']}:*", count=1000))
        if keys:
            client.delete(*keys)
    finally:
        client.close()


@pytest.fixture(autouse=True)
def _fresh_engine_cache():
    # Each test's rollback lets the next reuse game ids: nothing a process keeps per game may
    # outlive the test.
    from games.service.chat import chat_cache
    from games.state.replay import engine_cache

    engine_cache.clear()
    chat_cache.clear()
    yield
    engine_cache.clear()
    chat_cache.clear()


@pytest.fixture
def make_user(django_user_model):
    def make(username: str | None = None, password: str = "secret-pw", **extra: Any):
        name = username or f"player{next(_names)}"
        return django_user_model.objects.create_user(username=name, password=password, **extra)

    return make


def unbatch(frame: Any) -> list[Any]:
    """The messages of one lobby-protocol frame: a ``LobbyMessages`` frame's, in order, or the
    frame itself."""
    if isinstance(frame, dict) and frame.get("type") == "LobbyMessages":
        return list(frame["messages"])
    return [frame]


class Client:
    """A protocol client on the full ASGI app (routing, origin check, auth middleware)."""

    def __init__(self, path: str = "/ws/bot/", headers: list[tuple[bytes, bytes]] | None = None) -> None:
        from config.asgi import application

        self.comm = WebsocketCommunicator(application, path, headers=headers or [])
        self.received: list[dict[str, Any]] = []
        self.unread: list[dict[str, Any]] = []

    async def connect(self) -> None:
        connected, _ = await self.comm.connect()
        assert connected

    async def send(self, message: dict[str, Any] | str) -> None:
        await self.comm.send_to(text_data=message if isinstance(message, str) else json.dumps(message))

    async def recv(self, timeout: float = 10) -> dict[str, Any]:
        """The next message: a frame's, or the next of a ``LobbyMessages`` frame's (the lobby
        messages of one tick, docs/protocols/lobby.md)."""
        if not self.unread:
            self.unread.extend(unbatch(json.loads(await self.comm.receive_from(timeout=timeout))))
        message = self.unread.pop(0)
        self.received.append(message)
        return message

    async def expect(self, type_: str, timeout: float = 10, **match: Any) -> dict[str, Any]:
        """Read until a message of ``type_`` (and matching fields) arrives; fail otherwise."""
        while True:
            message = await self.recv(timeout)
            if message["type"] == type_ and all(message.get(k) == v for k, v in match.items()):
                return message

    async def seen(self, type_: str, timeout: float = 10, **match: Any) -> dict[str, Any]:
        """Like ``expect``, but a matching message already received (and passed over by an
        earlier ``expect``) counts too: pushes and replies may arrive in either order."""
        for message in self.received:
            if message["type"] == type_ and all(message.get(k) == v for k, v in match.items()):
                return message
        return await self.expect(type_, timeout, **match)

    async def drain(self, timeout: float = 0.3) -> list[dict[str, Any]]:
        out = []
        while self.unread or not await self.comm.receive_nothing(timeout=timeout):
            out.append(await self.recv())
        return out

    async def login(self, user, password: str = "secret-pw", **extra: Any) -> dict[str, Any]:
        await self.connect()
        await self.send({"type": "Login", "version": 1, "username": user.username, "password": password, **extra})
        return await self.expect("Greetings")

    async def close(self) -> None:
        await self.comm.disconnect()


@pytest.fixture
async def clients():
    """Open protocol clients; all are disconnected at the end of the test."""
    opened: list[Client] = []

    async def open_client(user=None, **kwargs: Any) -> Client:
        client = Client(**kwargs)
        opened.append(client)
        if user is not None:
            await client.login(user)
        return client

    yield open_client
    for client in opened:
        try:
            await client.close()
        # A client the test already closed, or whose application a timed-out receive cancelled
        # (CancelledError: no Exception, and pytest would skip the test's other finalizers, the
        # database flush among them, and every later test on the process would see its rows).
        except (Exception, asyncio.CancelledError):  # noqa: BLE001
            pass


@pytest.fixture
def db_call():
    """Run ORM code from an async test."""
    return lambda fn, *args, **kwargs: database_sync_to_async(fn)(*args, **kwargs)


@pytest.fixture
async def tcp_server():
    """A CRIBBAGEBBER TCP listener on a free port, on the test's own loop (the full ASGI app)."""
    from config.asgi import application
    from games.cribbage.transport.tcp import LineServer

    server = LineServer(application, host="127.0.0.1", port=0)
    await server.start()
    yield server
    await server.close()


@pytest.fixture(scope="module")
def site(request, tmp_path_factory):
    """The test module's own server child (``manage.py serve``, tests/served.py), set up as the
    module's ``SITE`` (a ``tests.served.SiteSpec``) says; one for all the module's tests."""
    from tests.served import served_site

    with served_site(tmp_path_factory, request.module.SITE) as running:
        yield running


@pytest.fixture
def clock(monkeypatch):
    """The service's clock, moved by hand (``clock(seconds)`` advances it and returns it)."""
    from games.service import clocks

    now = {"ms": 1_700_000_000_000}
    monkeypatch.setattr(clocks, "now_ms", lambda: now["ms"])

    def advance(seconds: float) -> int:
        now["ms"] += round(seconds * 1000)
        return now["ms"]

    advance.now = lambda: now["ms"]
    return advance
