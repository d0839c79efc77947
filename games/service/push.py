"""Delivery of events to connected clients through the channel layer.

Everything is sent only after the transaction that caused it commits, so a rolled-back change
is never announced. The channel layer is not durable; clients that miss a message notice the
gap in sequence numbers and ask for a snapshot.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import threading
from collections.abc import Iterable
from typing import Any

import orjson
from asgiref.sync import SyncToAsync, async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction

# Who receives what (docs/architecture.md, "Groups"): the lobby group gets what the lobby shows
# (tables being set up, games started and ended, who is online, lobby chat) and never a move; only
# the clients that follow the lobby are in it (a lobby page, a seed 003 client unless it says
# otherwise). A user's group gets that user's own seat view of every game they play; a game's
# group gets the spectators' view of its moves and its table chat, for the clients that entered it.
# A lobby message about a game also reaches the users at its table and the clients that entered it
# when they do not follow the lobby: a copy to their own groups, marked ``LOBBY_COPY``, that a
# client following the lobby passes over (the lobby group brings it the original).
LOBBY_GROUP = "lobby"
# The mark of a lobby group's event (``lobby``: a follower of the lobby may hold it back for the
# tick, games/transport/lobby_consumer.py) and of a lobby message's copy to the users it concerns.
LOBBY = "lobby"
LOBBY_COPY = "lobby_copy"

log = logging.getLogger(__name__)


def user_group(user_id: int) -> str:
    return f"user-{user_id}"


def game_group(game_id: int) -> str:
    return f"game-{game_id}"


# group, message, users to skip[, LOBBY or LOBBY_COPY]
Delivery = tuple[str, dict[str, Any], list[int]] | tuple[str, dict[str, Any], list[int], str]


Event = tuple[str, dict[str, Any]]  # group, channel-layer event


def event_of(message: dict[str, Any], skip_users: list[int] | None = None, mark: str | None = None) -> dict[str, Any]:
    """The channel-layer event of ``message`` for every receiver alike, encoded once (a lobby
    message reaches every client: encoding it per client cost as much as sending it). ``mark``:
    ``LOBBY`` for the lobby group's events, ``LOBBY_COPY`` for their copies to the users concerned."""
    event = {"type": "push.message", "text": encode(message), "skip_users": skip_users or []}
    if mark is not None:
        event[mark] = True
    return event


def encode(message: dict[str, Any]) -> str:
    """Compact JSON text, as ``json.dumps`` with no spaces would give (non-ASCII as UTF-8, not
    escaped), several times faster: every push of every move is encoded here. Int keys (an Acquire
    view's tile map) become strings, as ``json`` makes them."""
    try:
        return orjson.dumps(message, option=orjson.OPT_NON_STR_KEYS).decode()
    except orjson.JSONEncodeError:
        # What orjson refuses and json takes (an int beyond 64 bits, a lone surrogate): the
        # message still goes out.
        return json.dumps(message, separators=(",", ":"))


def _events(deliveries: list[Delivery]) -> list[Event]:
    """Each message encoded once, as JSON text, by the thread that made it: a consumer sends the
    text as it is (no encoding per client on the event loop), and the channel layer carries only
    strings (the Redis layer's msgpack refuses the int keys a game's view may have; JSON makes
    them strings, as every client sees them anyway)."""
    events: list[Event] = []
    for delivery in deliveries:
        group, message, skip_users = delivery[:3]
        events.append((group, event_of(message, skip_users, delivery[3] if len(delivery) > 3 else None)))
    return events


def message_of(event: dict[str, Any]) -> dict[str, Any]:
    """The message a ``push.message`` event carries (encoded by ``_events``, or as a dict when a
    consumer sent it itself)."""
    return event["message"] if "message" in event else json.loads(event["text"])


async def _send_all(events: list[Event]) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    await send_events(layer, events)


# The server's event loop and the queue its sender task reads (``serve_on``). A database thread
# hands its deliveries over and goes on: it does not wait for the loop to send them. One task
# sends everything in the order it was handed over, so the pushes of one game keep the order of
# its commits (its writers hand over one after another, games.state.replay.engine_cache.writing).
_loop: asyncio.AbstractEventLoop | None = None
_outbox: asyncio.Queue[list[Event]] | None = None
_sender: asyncio.Task[None] | None = None


def serve_on(loop: asyncio.AbstractEventLoop) -> None:
    """Send pushes from database threads through ``loop`` (the server's), without waiting. Called
    on that loop when the server starts."""
    global _loop, _outbox, _sender
    if _loop is loop:
        return
    _loop, _outbox = loop, asyncio.Queue()
    _sender = loop.create_task(_send_forever(_outbox))


async def _send_forever(outbox: asyncio.Queue[list[Event]]) -> None:
    while True:
        events = await outbox.get()
        try:
            await _send_all(events)
        except Exception:  # noqa: BLE001 - one failed push must not stop every later one
            log.exception("push failed; its clients will resync on the gap")


def send_many(deliveries: list[Delivery], *, delay: float = 0) -> None:
    """Send now (the change they announce has committed), in order; or ``delay`` seconds from now
    (a table's spectators), in the same order as every other push delayed as long. A delayed
    push is not waited for: if the process ends first, its clients resync on the gap."""
    if not deliveries:
        return
    events = _events(deliveries)
    if delay > 0:
        _send_later(events, delay)
        return
    loop, outbox = _loop, _outbox
    if loop is not None and outbox is not None and loop.is_running() and not _on(loop):
        loop.call_soon_threadsafe(outbox.put_nowait, events)
    elif _outer_loop() is not None:
        # A thread of some other running loop (a test's own): send on that loop, and wait.
        async_to_sync(_send_all)(events)
    else:
        # No loop at all (a management command, a script, a sync test): async_to_sync would start
        # a thread and a loop for every call; one loop of this process's own sends them, waited for.
        asyncio.run_coroutine_threadsafe(_send_all(events), _own_loop()).result()


def _send_later(events: list[Event], delay: float) -> None:
    loop, outbox = _loop, _outbox
    if loop is not None and outbox is not None and loop.is_running():
        # Through the server's one sender, so a delayed push keeps its place behind earlier ones.
        loop.call_soon_threadsafe(loop.call_later, delay, outbox.put_nowait, events)
        return
    target = _outer_loop() or _own_loop()

    def send() -> None:
        task = target.create_task(_send_all(events))
        _later.add(task)  # a loop keeps only weak references to its tasks
        task.add_done_callback(_later.discard)

    target.call_soon_threadsafe(target.call_later, delay, send)


_later: set[asyncio.Task[None]] = set()


def _outer_loop() -> asyncio.AbstractEventLoop | None:
    """The running loop this thread was called from through sync_to_async, if any (the loop
    async_to_sync would use)."""
    if getattr(SyncToAsync.threadlocal, "main_event_loop_pid", None) != os.getpid():
        return None
    loop = getattr(SyncToAsync.threadlocal, "main_event_loop", None)
    return loop if loop is not None and loop.is_running() else None


_own: asyncio.AbstractEventLoop | None = None
_own_lock = threading.Lock()


def _own_loop() -> asyncio.AbstractEventLoop:
    """A loop on a daemon thread, started once per process, for pushes made outside any loop."""
    global _own
    with _own_lock:
        if _own is None or _own.is_closed():
            loop = asyncio.new_event_loop()
            threading.Thread(target=loop.run_forever, name="push-sender", daemon=True).start()
            _own = loop
        return _own


def _on(loop: asyncio.AbstractEventLoop) -> bool:
    try:
        return asyncio.get_running_loop() is loop
    except RuntimeError:
        return False


def send_many_on_commit(deliveries: list[Delivery]) -> None:
    """Queue messages for after the current transaction commits, in order."""
    if deliveries:
        transaction.on_commit(lambda: send_many(deliveries))


def send_on_commit(group: str, message: dict[str, Any], *, skip_users: list[int] | None = None) -> None:
    """Queue ``message`` for every client in ``group`` once the current transaction commits.

    ``skip_users`` lets a broadcast (a spectator's view of a game) pass over the clients of
    users who receive their own seat's view instead.
    """
    send_many_on_commit([(group, message, skip_users or [])])


def to_lobby(message: dict[str, Any], *, game: int | None = None, users: Iterable[int] = ()) -> None:
    """``message`` to the lobby once the current transaction commits: to every client that follows
    the lobby, and to those that do not but whom it concerns: ``users`` (the users at ``game``'s
    table, or a user who just left it) and the clients that entered ``game``."""
    deliveries = lobby_deliveries(message, game=game, users=users)
    send_many_on_commit(deliveries)


def lobby_deliveries(message: dict[str, Any], *, game: int | None = None, users: Iterable[int] = ()) -> list[Delivery]:
    """The deliveries of a lobby message (``to_lobby``): the lobby group's, then its copies."""
    concerned = sorted(set(users))
    deliveries: list[Delivery] = [(LOBBY_GROUP, message, [], LOBBY)]
    deliveries += [(user_group(user_id), message, [], LOBBY_COPY) for user_id in concerned]
    if game is not None:
        deliveries.append((game_group(game), message, concerned, LOBBY_COPY))
    return deliveries


def lobby_events(message: dict[str, Any], *, users: Iterable[int] = ()) -> list[Event]:
    """The channel-layer events of a lobby message a link sends itself (who left, who entered a
    game), as ``to_lobby`` delivers them."""
    return _events(lobby_deliveries(message, users=users))


async def send_events(layer: Any, events: list[Event]) -> None:
    """Send ``events`` through ``layer`` now, in order (a link's own lobby messages). A layer that
    has ``group_send_many`` carries the pushes of one change together (one round trip, not one a
    group)."""
    send_many_groups = getattr(layer, "group_send_many", None)
    if send_many_groups is not None:
        await send_many_groups(events)
        return
    for group, event in events:
        await layer.group_send(group, event)


def to_game(game_id: int, seated_users: list[int], message: dict[str, Any]) -> None:
    """``message`` to everyone at a table: its seated users and the clients that entered it."""
    deliveries: list[Delivery] = [(user_group(user_id), message, []) for user_id in seated_users]
    deliveries.append((game_group(game_id), message, list(seated_users)))
    send_many_on_commit(deliveries)


def to_user(user_id: int, message: dict[str, Any]) -> None:
    send_on_commit(user_group(user_id), message)
