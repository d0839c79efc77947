"""The clock sweeper: enforces time-control deadlines in each server process.

Deadlines live in the database, so any process may enforce any game's, and a restarted server
picks up where the last one stopped. The game row lock makes two sweepers (or a sweeper and a
late move) apply a time-out only once. Moves over HTTP also enforce a passed deadline first.

The sweeper runs as a task on the server's own event loop, started with the server (``manage.py
serve``, and the ASGI application's first request of any kind under plain Daphne), so a timed game
whose players only use REST still times out: pushes made from its database thread then reach the
channel layer through that loop, which the in-memory layer requires. The presence heartbeat
(``games/service/presence.py``) runs beside it, and so do the abandon watch (``games/service/abandon.py``),
which adjourns and aborts untimed games whose people have all gone away, and Play now's queue watch.
"""

from __future__ import annotations

import asyncio
import logging
import os
import weakref
from collections.abc import Callable
from typing import Any

from games.core import db
from games.service import push

log = logging.getLogger(__name__)

INTERVAL_SECONDS = 0.25
_running_on: weakref.WeakSet[asyncio.AbstractEventLoop] = weakref.WeakSet()
_beating_on: weakref.WeakSet[asyncio.AbstractEventLoop] = weakref.WeakSet()
_watching_on: weakref.WeakSet[asyncio.AbstractEventLoop] = weakref.WeakSet()
_queue_on: weakref.WeakSet[asyncio.AbstractEventLoop] = weakref.WeakSet()
_reviews_on: weakref.WeakSet[asyncio.AbstractEventLoop] = weakref.WeakSet()
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


async def _every(jobs: list[tuple[Any, str]], seconds: Callable[[], float], stop: asyncio.Event | None) -> None:
    """Run each ``(function, what)`` on a database thread, then wait ``seconds()``, until ``stop``.
    A job that fails is logged by ``what`` and tried again next time: one bad pass must not stop
    the clocks, the heartbeat or the watches of every game."""
    stop = stop or asyncio.Event()
    while not stop.is_set():
        for job, what in jobs:
            try:
                await db.call(job)
            except Exception:  # noqa: BLE001 - see the docstring
                log.exception("%s failed", what)
        try:
            await asyncio.wait_for(stop.wait(), seconds())
        except TimeoutError:
            pass


async def sweep(interval: float = INTERVAL_SECONDS, stop: asyncio.Event | None = None) -> None:
    from games.service.moves import expire_all_due

    await _every([(expire_all_due, "clock sweep")], lambda: interval, stop)


async def heartbeat(stop: asyncio.Event | None = None) -> None:
    """Keep this process's presence heartbeat fresh and clear the clients of dead processes."""
    from games.service.presence import beat, heartbeat_seconds

    await _every([(beat, "presence heartbeat")], heartbeat_seconds, stop)


async def watch_abandoned(stop: asyncio.Event | None = None) -> None:
    """Adjourn, abort and resume untimed games by their people's presence (games/service/abandon.py), and
    close tables being set up that no person sits at any more (games/service/orphans.py)."""
    from games.service import orphans
    from games.service.abandon import check_seconds, watch

    await _every([(watch, "abandoned games watch"), (orphans.watch, "orphaned tables watch")], check_seconds, stop)


async def watch_queue(stop: asyncio.Event | None = None) -> None:
    """Play now's queue (games/service/play_now.py): holds renewed, the gone removed, and the
    waiting seated as their windows widen and their waits for bots end. Every process runs it;
    the queue's row locks make one of them seat each player."""
    from games.service.play_now import WATCH_SECONDS, watch

    await _every([(watch, "play now watch")], lambda: WATCH_SECONDS, stop)


async def watch_reviews(stop: asyncio.Event | None = None) -> None:
    """Riichi decision reviews left waiting (games/service/review.py): asked for while no worker
    ran, or cut off by a restart (a stale heartbeat). Any process may take them over."""
    from games.service import review

    await _every([(review.watch, "review watch")], lambda: review.WATCH_SECONDS, stop)


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
    if os.environ.get("GAME_CLOCK_SWEEPER", "1") != "0" and loop not in _queue_on:
        _start(loop, _queue_on, watch_queue())
    if os.environ.get("GAME_CLOCK_SWEEPER", "1") != "0" and loop not in _reviews_on:
        _start(loop, _reviews_on, watch_reviews())
