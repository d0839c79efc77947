"""The clock sweeper: enforces time-control deadlines in each server process.

Deadlines live in the database, so any process may enforce any game's, and a restarted server
picks up where the last one stopped. The game row lock makes two sweepers (or a sweeper and a
late move) apply a time-out only once. Moves over HTTP also enforce a passed deadline first.

The sweeper runs as a task on the server's own event loop, started with the server (``manage.py
serve``, and the ASGI application's first request of any kind under plain Daphne), so a timed game
whose players only use REST still times out: pushes made from its database thread then reach the
channel layer through that loop, which the in-memory layer requires. The presence heartbeat
(``games/service/presence.py``) runs beside it, and so does the abandon watch (``games/service/abandon.py``),
which adjourns and aborts untimed games whose people have all gone away.
"""

from __future__ import annotations

import asyncio
import logging
import os
import weakref

from games.core import db
from games.service import push

log = logging.getLogger(__name__)

INTERVAL_SECONDS = 0.25
_running_on: weakref.WeakSet[asyncio.AbstractEventLoop] = weakref.WeakSet()
_beating_on: weakref.WeakSet[asyncio.AbstractEventLoop] = weakref.WeakSet()
_watching_on: weakref.WeakSet[asyncio.AbstractEventLoop] = weakref.WeakSet()
# The event loop keeps only weak references to its tasks: these keep them alive.
_tasks: set[asyncio.Task[None]] = set()


def _start(loop: asyncio.AbstractEventLoop, running: weakref.WeakSet[asyncio.AbstractEventLoop], job) -> None:
    running.add(loop)
    task = loop.create_task(job)
    _tasks.add(task)

    def done(_: asyncio.Task[None]) -> None:
        _tasks.discard(task)
        running.discard(loop)

    task.add_done_callback(done)


async def sweep(interval: float = INTERVAL_SECONDS, stop: asyncio.Event | None = None) -> None:
    from games.service.moves import expire_all_due

    stop = stop or asyncio.Event()
    while not stop.is_set():
        try:
            await db.call(expire_all_due)
        except Exception:  # noqa: BLE001 - one bad pass must not stop the clocks of every game
            log.exception("clock sweep failed")
        try:
            await asyncio.wait_for(stop.wait(), interval)
        except TimeoutError:
            pass


async def heartbeat(stop: asyncio.Event | None = None) -> None:
    """Keep this process's presence heartbeat fresh and clear the clients of dead processes."""
    from games.service.presence import beat, heartbeat_seconds

    stop = stop or asyncio.Event()
    while not stop.is_set():
        try:
            await db.call(beat)
        except Exception:  # noqa: BLE001 - a missed beat is retried; the process is not dead
            log.exception("presence heartbeat failed")
        try:
            await asyncio.wait_for(stop.wait(), heartbeat_seconds())
        except TimeoutError:
            pass


async def watch_abandoned(stop: asyncio.Event | None = None) -> None:
    """Adjourn, abort and resume untimed games by their people's presence (games/service/abandon.py), and
    close tables being set up that no person sits at any more (games/service/orphans.py)."""
    from games.service import orphans
    from games.service.abandon import check_seconds, watch

    stop = stop or asyncio.Event()
    while not stop.is_set():
        try:
            await db.call(watch)
        except Exception:  # noqa: BLE001 - one bad look must not stop the next
            log.exception("abandoned games watch failed")
        try:
            await db.call(orphans.watch)
        except Exception:  # noqa: BLE001 - one bad look must not stop the next
            log.exception("orphaned tables watch failed")
        try:
            await asyncio.wait_for(stop.wait(), check_seconds())
        except TimeoutError:
            pass


def ensure_running() -> None:
    """Start the sweeper and the presence heartbeat on the running loop, once each; the sweeper not
    when GAME_CLOCK_SWEEPER=0 (test processes that drive the clocks themselves), the heartbeat not
    when PRESENCE_HEARTBEAT=0 (test processes, whose event loop ends with each test); the abandon
    watch with the sweeper."""
    loop = asyncio.get_running_loop()
    if db.pooled():
        # Database threads hand their pushes to this loop and go on (games/service/push.py). Where the
        # database calls share one thread with the test's loop (an in-memory database), they wait.
        push.serve_on(loop)
    if os.environ.get("PRESENCE_HEARTBEAT", "1") != "0" and loop not in _beating_on:
        _start(loop, _beating_on, heartbeat())
    if os.environ.get("GAME_CLOCK_SWEEPER", "1") != "0" and loop not in _running_on:
        _start(loop, _running_on, sweep())
    # The abandon watch goes with the clocks: a test process that drives them drives it too.
    if os.environ.get("GAME_CLOCK_SWEEPER", "1") != "0" and loop not in _watching_on:
        _start(loop, _watching_on, watch_abandoned())
