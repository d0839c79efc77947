"""What every fuzz test shares: bounded, deterministic hypothesis settings; a fresh, deterministic
world per example; the snapshot of everything a refused input must leave alone; symbolic ids that
generated inputs carry until the example's world exists; and a log of server errors.

Each hypothesis example starts from an empty database (tables flushed, id sequences reset), so
the same generated input always meets the same world: ids, seats, deals and tokens' owners are
the same in every run and while hypothesis shrinks a failure. Two sources of randomness in the
product are pinned for that (``deterministic`` below): the lobby's seating shuffle and the game
seed, and the clocks are frozen (a refused move on a game whose clock ran out legitimately plays
the automatic move first, ``moves.apply_action``; with frozen clocks no clock runs out).

By hand: ``FUZZ_SCALE=n`` (n times as many examples), ``FUZZ_SEED=n`` (other examples),
``FUZZ_STATS=1`` (with ``-s``: how the inputs were answered, per test), ``FUZZ_SHOW=1`` (with
``-s``: every input and its answer).
"""

from __future__ import annotations

import asyncio
import logging
import os
import random
import zlib
from collections import Counter
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any

from hypothesis import HealthCheck, Phase, seed, settings

# Strict JSON (no NaN or Infinity): what every other client's reader accepts.
from tests.transport.test_consumer_totality import strict_json

# -- hypothesis -----------------------------------------------------------------------------------


def bounded(max_examples: int, salt: str = "") -> Callable[[Any], Any]:
    """Deterministic and time-bounded: a fixed seed per test (from its name and ``salt``, e.g. the
    parametrized route, so each parameter gets examples of its own), no example database, so CI
    runs the same examples every time and a failure is never a flake. The seed does not depend on
    the test's code, so editing a test body does not change its examples (hypothesis's
    ``derandomize`` would). For a longer hunt by hand, ``FUZZ_SCALE=n`` runs n times as many
    examples and ``FUZZ_SEED=n`` other ones (each run still reproducible with the same values)."""
    scale = float(os.environ.get("FUZZ_SCALE", "1"))
    extra = os.environ.get("FUZZ_SEED", "")
    # No "explain" phase: it re-runs a failure many times to say which parts matter, which with a
    # database and sockets behind every example costs more than it tells.
    config = settings(max_examples=max(1, int(max_examples * scale)), deadline=None, database=None,
                      suppress_health_check=list(HealthCheck),
                      phases=[Phase.explicit, Phase.reuse, Phase.generate, Phase.shrink])

    def decorate(test: Any) -> Any:
        name = f"{test.__module__}.{test.__qualname__}:{salt}:{extra}"
        return seed(zlib.crc32(name.encode()))(config(test))

    return decorate


# -- what the examples reached (FUZZ_STATS=1 prints it: how much got past the parsers) --------------

STATS: Counter[str] = Counter()


def tally(*keys: str) -> None:
    """Count an outcome (an error code, "accepted", ...) for ``print_stats``."""
    STATS.update(keys)


def print_stats(title: str) -> None:
    if os.environ.get("FUZZ_STATS"):
        print(f"\n{title}: " + ", ".join(f"{k}={v}" for k, v in sorted(STATS.items())))
    STATS.clear()


SHRINK_SECONDS = 10


@contextmanager
def bounded_shrinking(monkeypatch: Any) -> Iterator[None]:
    """A failure is shrunk for at most ``SHRINK_SECONDS`` (hypothesis allows 300 s, and every
    example here costs a database and a few sockets): CI time stays bounded when a test fails; the
    example printed may then be less than minimal."""
    from hypothesis.internal.conjecture import engine

    if hasattr(engine, "MAX_SHRINKING_SECONDS"):
        monkeypatch.setattr(engine, "MAX_SHRINKING_SECONDS", SHRINK_SECONDS)
    yield


@contextmanager
def without_local_constants(monkeypatch: Any) -> Iterator[None]:
    """Hypothesis (6.1xx) draws, now and then, literals collected from every "local" module in
    ``sys.modules`` (``providers._get_local_constants``): here, the product's code. Off for the fuzz
    suite, where determinism matters more (the internal is patched only if it exists)."""
    from hypothesis.internal.conjecture import providers

    if not hasattr(providers, "_get_local_constants"):
        yield
        return
    empty = providers.Constants()
    cache = getattr(providers, "CONSTANTS_CACHE", None)
    if cache is not None:
        cache.cache.clear()
    monkeypatch.setattr(providers, "_get_local_constants", lambda: empty)
    try:
        yield
    finally:
        if cache is not None:
            cache.cache.clear()


# -- limits high enough that fuzzing reaches the handlers ------------------------------------------

LIMITS = {
    "FRAMES_PER_SECOND": 1_000_000,
    "FRAME_BURST": 1_000_000,
    "CHAT_MESSAGES_PER_MINUTE": 1_000_000,
    "MAX_CONNECTIONS_PER_USER": 1_000,
    "LOGIN_FAILURE_LIMIT": 1_000_000,
    "LOGIN_USERNAME_FAILURE_LIMIT": 1_000_000,
    "LOGIN_ADDRESS_FAILURE_LIMIT": 1_000_000,
    "API_RATE_ANONYMOUS": "1000000/s",
    "API_RATE_USER": "1000000/s",
    "API_RATE_EXPORT": "1000000/s",
}

FROZEN_MS = 1_800_000_000_000


def deterministic(monkeypatch: Any, settings_fixture: Any) -> random.Random:
    """Limits out of the way, clocks frozen, the lobby's shuffles and game seeds seeded (reseed the
    returned generator per example)."""
    from games.service import clocks, lobby

    for name, value in LIMITS.items():
        setattr(settings_fixture, name, value)
    settings_fixture.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    rng = random.Random(0)
    monkeypatch.setattr(lobby, "_random", rng)
    monkeypatch.setattr(lobby, "secrets", SimpleNamespace(randbits=rng.getrandbits))
    monkeypatch.setattr(clocks, "now_ms", lambda: FROZEN_MS)
    return rng


# -- a fresh world per example ----------------------------------------------------------------------

_KEEP = ("django_content_type", "auth_permission", "django_migrations")


def reset_database() -> None:
    """Empty every table the application writes and restart their id sequences. Row by row, not
    TRUNCATE: the tables are tiny, and PostgreSQL's TRUNCATE costs tens of milliseconds."""
    from django.core.management.color import no_style
    from django.db import connection

    models = _app_models()
    tables = {m._meta.db_table for m in models}
    with connection.cursor() as cursor:
        for model in reversed(models):
            cursor.execute(f"DELETE FROM {connection.ops.quote_name(model._meta.db_table)}")
        sequences = [s for s in connection.introspection.sequence_list() if s["table"] in tables]
        for statement in connection.ops.sequence_reset_by_name_sql(no_style(), sequences):
            cursor.execute(statement)


def _app_models() -> list[type]:
    """Every model with a flushed table, each after the models it refers to."""
    from django.apps import apps

    models = [m for m in apps.get_models(include_auto_created=True)
              if m._meta.managed and not m._meta.proxy and not m._meta.db_table.startswith(_KEEP)]
    ordered: list[type] = []
    while len(ordered) < len(models):
        for model in models:
            if model in ordered:
                continue
            needs = {f.related_model for f in model._meta.concrete_fields
                     if f.is_relation and f.related_model is not model and f.related_model in models}
            if needs <= set(ordered):
                ordered.append(model)
    return ordered


_SAVED: dict[str, tuple[list[tuple[type, list[dict[str, Any]]]], Any]] = {}


def cached_world(key: str, build: Callable[[], Any]) -> Any:
    """``build()`` on an empty database the first time; after that, its rows written back directly
    (a world with games in progress costs ~100 ms to build through the lobby, ~10 ms to restore)."""
    from django.core.management.color import no_style
    from django.db import connection

    reset_database()
    if key not in _SAVED:
        world = build()
        _SAVED[key] = ([(m, list(m._default_manager.values())) for m in _app_models()], world)
        _clear_engine_cache()  # every example starts with a cold cache, the first one too
        return world
    rows, world = _SAVED[key]
    _clear_engine_cache()
    for model, values in rows:
        if values:
            model._default_manager.bulk_create([model(**v) for v in values])
    with connection.cursor() as cursor:
        for statement in connection.ops.sequence_reset_sql(no_style(), [m for m, v in rows if v]):
            cursor.execute(statement)
    return world


def _clear_engine_cache() -> None:
    from games.service.chat import chat_cache
    from games.state.replay import engine_cache

    engine_cache.clear()
    chat_cache.clear()


def reset_process_state(rng: random.Random) -> None:
    """What lives outside the database: the engine cache, rate-limit counters, channel layers."""
    from channels.layers import channel_layers

    from tests.conftest import clear_limits

    _clear_engine_cache()
    clear_limits()
    channel_layers.backends.clear()
    rng.seed(0)


def run_async(factory: Callable[[], Awaitable[None]]) -> None:
    """One example's transports on an event loop of its own (hypothesis calls examples synchronously)."""
    from channels.layers import channel_layers

    channel_layers.backends.clear()
    try:
        asyncio.run(factory())
    finally:
        channel_layers.backends.clear()


# -- symbols: ids that exist only once the example's world is built --------------------------------


@dataclass(frozen=True)
class Sym:
    """A value of the example's world, by name: a game id, a user id, a token, a username..."""

    name: str

    def __repr__(self) -> str:
        return f"<{self.name}>"


@dataclass(frozen=True)
class Legal:
    """The ``index``-th legal move of the fuzzing user in the live game (an action some of the time
    accepted, so games move on), as ``(action, params)``."""

    index: int

    def __repr__(self) -> str:
        return f"<legal #{self.index}>"


@dataclass
class World:
    values: dict[str, Any] = field(default_factory=dict)
    users: dict[str, Any] = field(default_factory=dict)
    legal: list[tuple[str, list[Any]]] = field(default_factory=list)

    def resolve(self, value: Any) -> Any:
        if isinstance(value, Sym):
            return self.values[value.name]
        if isinstance(value, Legal):
            if not self.legal:
                return ["PlayTile", [value.index]]
            action, params = self.legal[value.index % len(self.legal)]
            return [action, params]
        if isinstance(value, dict):
            return {self.resolve(k) if isinstance(k, Sym) else k: self.resolve(v) for k, v in value.items()}
        if isinstance(value, list | tuple):
            return [self.resolve(v) for v in value]
        return value

    def text(self, value: Any) -> str:
        """A string with symbols spliced in (``value`` is a str, a Sym or a list of both)."""
        if isinstance(value, list | tuple):
            return "".join(self.text(v) for v in value)
        resolved = self.resolve(value)
        return resolved if isinstance(resolved, str) else str(resolved)


def legal_moves(game_id: int, user: Any) -> list[tuple[str, list[Any]]]:
    """(action, params) pairs the user may play now in ``game_id``, from the game's own offer."""
    from games.models import Game
    from games.service import reads

    snap = reads.snapshot(Game.objects.get(id=game_id), user)
    moves = []
    for offer in snap.get("legal") or []:
        kind = offer.get("type")
        if not isinstance(kind, str):
            continue
        lists = [v for k, v in offer.items() if k != "type" and isinstance(v, list) and v]
        if lists:
            moves += [(kind, [choice]) for choice in lists[0][:6]]
        else:
            moves.append((kind, []))
    return moves


# -- the state a refused input must leave alone -------------------------------------------------------


def world_state(*, probe_prefix: str | None = None) -> dict[str, Any]:
    """Games, seats, the action log, chat, users, presence, and the engine's view of every game in
    progress for each seat and for spectators (read through the engine cache, which a refused move
    must leave as it was).
    Chat lines starting with ``probe_prefix`` (a test's own probes) are left out."""
    from accounts.models import User
    from games.models import Action, ChatMessage, Client, Game, Seat, Status
    from games.service import reads

    chat = ChatMessage.objects.order_by("id")
    if probe_prefix:
        chat = chat.exclude(text__startswith=probe_prefix)
    state: dict[str, Any] = {
        "games": list(Game.objects.order_by("id").values_list(
            "id", "game_type", "status", "mode", "arrangement", "host_id", "setup_version", "seq",
            "history_size", "rules", "time_start", "time_increment", "result", "deadline_ms")),
        "seats": list(Seat.objects.order_by("id").values_list(
            "game_id", "user_id", "slot", "team", "accepted", "position", "forfeited", "clock_ms")),
        "actions": list(Action.objects.order_by("id").values_list("game_id", "seq", "seat", "type", "params",
                                                                  "auto")),
        "chat": list(chat.values_list("user_id", "game_id", "text")),
        "users": list(User.objects.order_by("id").values_list("id", "username", "is_bot", "is_active")),
        "clients": list(Client.objects.order_by("id").values_list("id", "user_id", "game_id")),
        "views": {},
    }
    for game in Game.objects.filter(status=Status.ACTIVE).order_by("id"):
        # Read as every transport reads a live game: through the engine cache (moves._readable).
        positions = sorted(Seat.objects.filter(game=game).exclude(position=None).values_list("position", flat=True))
        state["views"][game.id] = [reads.seat_view(game, position) for position in [None, *positions]]
    return state


class Baseline:
    """The world before the next input. Read once and kept while inputs are refused (a refused
    input must leave it as it was, which is what is checked, so the state read after one is the
    state before the next); read again after an input that was accepted."""

    def __init__(self, read: Callable[[], Awaitable[dict[str, Any]]]) -> None:
        self.read = read
        self.state: dict[str, Any] | None = None

    async def before(self) -> dict[str, Any]:
        if self.state is None:
            self.state = await self.read()
        return self.state

    async def unchanged(self) -> bool:
        """After a refused input: is the world as it was before it?"""
        before, self.state = self.state, await self.read()
        return self.state == before

    def changed(self) -> None:
        """After an accepted input."""
        self.state = None


# -- errors the server logs -----------------------------------------------------------------------------

# A consumer's exception caught by games.transport.guard, a TCP link's application that raised, a task that
# died: each is a crash some transport would have turned into a 1011 close or a silent hang-up.
WATCHED = ("games", "accounts", "channels", "daphne", "asyncio", "django.request")


class _Collect(logging.Handler):
    def __init__(self) -> None:
        super().__init__(level=logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        if record.name.startswith(WATCHED):
            self.records.append(record)


@contextmanager
def server_errors() -> Iterator[list[logging.LogRecord]]:
    """Collect ERROR records of the server's loggers while the block runs."""
    handler = _Collect()
    root = logging.getLogger()
    root.addHandler(handler)
    try:
        yield handler.records
    finally:
        root.removeHandler(handler)


def describe(records: list[logging.LogRecord]) -> str:
    out = []
    for record in records:
        text = f"{record.name}: {record.getMessage()}"
        if record.exc_info and record.exc_info[1] is not None:
            text += f" -- {type(record.exc_info[1]).__name__}: {record.exc_info[1]}"
        out.append(text)
    return "\n".join(out)


def short(value: Any, limit: int = 300) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[:limit] + f"... ({len(text)} chars)"


__all__ = ["strict_json"]
