"""How the server runs database work: its concurrency model (docs/architecture.md, "Concurrency").

Channels runs every ``database_sync_to_async`` call on ONE thread by default, so one slow call (a
Greetings listing every game, a forfeited seat played out, a password hash) stalls every client
of the process. Here database work runs on a pool of ``DATABASE_THREADS`` threads, each with its
own persistent connection (``CONN_MAX_AGE``), and the only serialisation between two requests is
the one the data needs: the game row lock (``select_for_update``) for changes to a game, and on
SQLite the single writer the file allows (config/sqlite, which queues writers in the process
instead of letting them poll the file lock).

With ``DATABASE_THREADS`` 0 (the in-process tests, whose consumers run on each test's own loop),
and with a SQLite database in memory (one connection's shared cache, whose table locks do not
wait), the calls stay on Channels' one thread.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from functools import cache
from typing import Any, TypeVar

from asgiref.sync import SyncToAsync
from django.conf import settings
from django.db import connections

T = TypeVar("T")


@cache
def _executor() -> ThreadPoolExecutor:
    return ThreadPoolExecutor(max_workers=int(getattr(settings, "DATABASE_THREADS", 2)),
                              thread_name_prefix="db")


@cache
def pooled() -> bool:
    """Whether database calls run on the pool: ``DATABASE_THREADS`` above 0, and not an in-memory
    SQLite database."""
    database = connections["default"]
    if int(getattr(settings, "DATABASE_THREADS", 2)) <= 0:
        return False
    return not (database.vendor == "sqlite" and database.is_in_memory_db())


# How often, at most, a thread's connection is checked before use (``CONN_HEALTH_CHECKS``'s ``SELECT 1``)
# when nothing went wrong on it. Channels' runner has it checked on every call: on PostgreSQL a round
# trip per call, a sixth of a move's.
TIDY_SECONDS = 1.0
_tidied = threading.local()


def tidy_connections() -> None:
    """What ``close_old_connections`` does for Channels' runner, throttled: a connection that had an
    error or was left inside a transaction is seen to at once (closed if it no longer works, as
    Django does after a request), and one past its ``CONN_MAX_AGE`` is closed; the health check
    runs at most once every ``TIDY_SECONDS`` on a thread. So a connection the database dropped
    fails the one call that finds it broken (the call's own transaction rolls back: nothing
    half-done is kept) and the next call gets a new one."""
    now = time.monotonic()
    due = now - getattr(_tidied, "at", float("-inf")) >= TIDY_SECONDS
    for connection in connections.all(initialized_only=True):
        if connection.connection is None:
            continue
        aged = connection.close_at is not None and now >= connection.close_at
        left_open = connection.get_autocommit() != connection.settings_dict["AUTOCOMMIT"]
        if due or aged or left_open or connection.errors_occurred:
            connection.close_if_unusable_or_obsolete()
    if due:
        _tidied.at = now


class _Runner(SyncToAsync):
    """Channels' ``DatabaseSyncToAsync`` with ``tidy_connections`` in place of its
    ``close_old_connections`` before and after each call."""

    def thread_handler(self, loop: Any, *args: Any, **kwargs: Any) -> Any:
        tidy_connections()
        try:
            return super().thread_handler(loop, *args, **kwargs)
        finally:
            tidy_connections()


async def call(function: Callable[..., T], *args: Any, **kwargs: Any) -> T:
    """Run ``function`` (which uses the database) off the event loop, as described above."""
    if pooled():
        runner = _Runner(function, thread_sensitive=False, executor=_executor())
    else:
        runner = _Runner(function)
    return await runner(*args, **kwargs)
