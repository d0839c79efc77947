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

from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from functools import cache
from typing import Any, TypeVar

from channels.db import DatabaseSyncToAsync
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


async def call(function: Callable[..., T], *args: Any, **kwargs: Any) -> T:
    """Run ``function`` (which uses the database) off the event loop, as described above."""
    if pooled():
        runner = DatabaseSyncToAsync(function, thread_sensitive=False, executor=_executor())
    else:
        runner = DatabaseSyncToAsync(function)
    return await runner(*args, **kwargs)
