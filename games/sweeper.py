"""The clock sweeper: enforces time-control deadlines in each server process.

Deadlines live in the database, so any process may enforce any game's, and a restarted server
picks up where the last one stopped. The game row lock makes two sweepers (or a sweeper and a
late move) apply a time-out only once. Moves over HTTP also enforce a passed deadline first.

The sweeper runs as a task on the server's own event loop (started by the first WebSocket
connection): pushes made from its database thread then reach the channel layer through that
loop, which the in-memory layer requires.
"""

from __future__ import annotations

import asyncio
import logging
import os
import weakref

from channels.db import database_sync_to_async

log = logging.getLogger(__name__)

INTERVAL_SECONDS = 0.25
_running_on: weakref.WeakSet[asyncio.AbstractEventLoop] = weakref.WeakSet()


async def sweep(interval: float = INTERVAL_SECONDS, stop: asyncio.Event | None = None) -> None:
    from .services import expire_all_due

    expire = database_sync_to_async(expire_all_due)
    stop = stop or asyncio.Event()
    while not stop.is_set():
        try:
            await expire()
        except Exception:  # noqa: BLE001 - one bad pass must not stop the clocks of every game
            log.exception("clock sweep failed")
        try:
            await asyncio.wait_for(stop.wait(), interval)
        except TimeoutError:
            pass


def ensure_running() -> None:
    """Start the sweeper on the running loop, once; not when GAME_CLOCK_SWEEPER=0 (test
    processes that drive the clocks themselves)."""
    if os.environ.get("GAME_CLOCK_SWEEPER", "1") == "0":
        return
    loop = asyncio.get_running_loop()
    if loop in _running_on:
        return
    _running_on.add(loop)
    task = loop.create_task(sweep())
    task.add_done_callback(lambda _: _running_on.discard(loop))
