"""The Redis channel layer for several server processes: Redis pub/sub, fanned out in each process.

Measured on the live path (docs/performance.md): channels-redis's layers spent most of what they
cost on round trips and per-message work on the server's one event loop. Its ``core`` layer makes
a Lua call per group send and a blocking read per channel; its ``pubsub`` layer waits for a
``PUBLISH``'s reply before the next one (a lock), parses every message with redis-py's pure-Python
reader, and unpacks a group message once per member. Every round trip is also a system call that
gives up the interpreter lock, which the database threads then hold for up to a switch interval.

``FanoutChannelLayer`` keeps what the pub/sub model does well and drops those costs:

- **Per-process fan-out.** A process subscribes once to each group that has a member in it; Redis
  carries one message per group send and subscribed process, unpacked once there and delivered to
  that process's members. Channels live in the process that made them (their name says which):
  ``send`` to a channel of this process is a local queue operation, and to one of another process
  a ``PUBLISH`` on that process's own Redis channel.
- **Local delivery at once.** A group send reaches this process's members at once, as the
  in-memory layer would, and is published for the other processes; this process drops its own
  message when Redis echoes it back (a byte compare, nothing unpacked).
- **No waiting for replies.** Commands go out on one connection (RESP3, so one connection both
  publishes and subscribes); everything sent in one turn of the event loop leaves in one write
  (``group_send_many``: all the pushes of one change), and the replies are read in bulk by the
  reader task, not waited for. Order is kept: one connection, written in call order, and Redis
  delivers a connection's publishes in that order.
- **A raw reader.** redis-py makes and hands over the connection (URL, authentication, TLS,
  database, ``HELLO 3``); the reader task then parses what arrives with a small RESP reader of its
  own, many frames per system call.
- **Confirmed subscriptions.** ``group_add`` returns once Redis has confirmed the subscription, so
  a client that enters a game and then reads its Snapshot misses no later move ("overlap, never a
  gap"; channels-redis's pubsub layer does not wait).
- **Reconnection.** A dropped connection (Redis restarted, killed, or silent past
  ``socket_timeout``: the reader pings an idle connection) is made again with a growing delay, the
  subscriptions renewed, and what was sent meanwhile (at most ``backlog`` messages, none older than
  ``expiry``) published then. Like any pub/sub, a message in flight when the connection drops is
  lost; clients notice the gap in ``v`` and resync.
- **Quick close.** Closing lets what was written go out and never waits for the socket to close
  (redis-py's ``disconnect`` can wait its connect timeout, 5 s, in ``wait_closed``). A loop's
  first publish waits for the first connection, so a loop made for one send (``async_to_sync``
  outside the server) does not close before its message is out.

Needs Redis 6 or later (RESP3).

Local queues, capacity (``ChannelFull`` on a full local channel; a full channel is skipped by a
group send and by a message from another process), message expiry and group expiry are the
in-memory layer's (``config/memory_layer.py``), which this layer extends, with its rule: a sender
must not change a message after sending it.

Redis pub/sub ignores database numbers, so the layer puts the URL's database number in its
channel names beside ``prefix``: layers on different databases of one Redis do not hear each other.

Like channels-redis, the layer keeps one state (connection, queues, groups) per event loop: the
server has one loop; pushes sent from outside any loop go through one loop of their own
(games/service/push.py). The state of a loop is closed when the loop is.
"""

from __future__ import annotations

import asyncio
import logging
import random
import string
import types
from collections.abc import Iterable
from typing import Any

import msgpack
from channels.exceptions import ChannelFull
from channels.layers import BaseChannelLayer
from redis.asyncio import ConnectionPool

from config.memory_layer import MemoryChannelLayer, Message

log = logging.getLogger(__name__)

ORIGIN_LENGTH = 12  # characters of the random id of one loop's state, in its channel names

# What a Redis channel of the layer carries.
_GROUP, _PROCESS, _NAMED = 1, 2, 3

_CRLF = b"\r\n"


class _Incomplete(Exception):
    """The buffer ends inside a frame."""


class _Error(bytes):
    """An error reply."""


class _Push(list):
    """A RESP3 push (a published message, a subscription's confirmation)."""


def _value(buf: bytes, pos: int) -> tuple[Any, int]:
    """The RESP2/RESP3 value that starts at ``pos`` in ``buf``, and where the next one starts."""
    end = buf.find(_CRLF, pos)
    if end < 0:
        raise _Incomplete
    kind = buf[pos]
    if kind == 36 or kind == 61 or kind == 33:  # $ bulk string, = verbatim string, ! bulk error
        size = int(buf[pos + 1:end])
        if size < 0:
            return None, end + 2
        start = end + 2
        stop = start + size
        if stop + 2 > len(buf):
            raise _Incomplete
        data = buf[start:stop]
        return (_Error(data) if kind == 33 else data), stop + 2
    if kind == 42 or kind == 62 or kind == 126 or kind == 37:  # * array, > push, ~ set, % map
        count = int(buf[pos + 1:end])
        if count < 0:
            return None, end + 2
        if kind == 37:
            count *= 2
        items: list[Any] = _Push() if kind == 62 else []
        pos = end + 2
        for _ in range(count):
            item, pos = _value(buf, pos)
            items.append(item)
        return items, pos
    if kind == 58 or kind == 40:  # : integer, ( big number
        return int(buf[pos + 1:end]), end + 2
    if kind == 43:  # + simple string
        return buf[pos + 1:end], end + 2
    if kind == 45:  # - error
        return _Error(buf[pos + 1:end]), end + 2
    if kind == 95:  # _ null
        return None, end + 2
    if kind == 44:  # , double
        return float(buf[pos + 1:end]), end + 2
    if kind == 35:  # # boolean
        return buf[pos + 1:end] == b"t", end + 2
    if kind == 124:  # | attribute: a map that annotates the value after it, skipped
        count = 2 * int(buf[pos + 1:end])
        pos = end + 2
        for _ in range(count):
            _, pos = _value(buf, pos)
        return _value(buf, pos)
    raise ValueError(f"not a RESP frame: {bytes(buf[pos:pos + 20])!r}")


_MESSAGE = b">3\r\n$7\r\nmessage\r\n$"


def _message(buf: bytes, pos: int) -> tuple[bytes, int, int, int]:
    """A published message at ``pos`` (a push that starts with ``_MESSAGE``): its Redis channel,
    where its payload starts and stops in ``buf``, and where the next frame starts. The payload
    is not copied: an echo of our own is dropped by looking at its first bytes."""
    start, stop = _bulk(buf, pos + len(_MESSAGE), 3)  # the channel, then CRLF and the payload's "$"
    key = buf[start:stop]
    start, stop = _bulk(buf, stop + 3, 2)
    return key, start, stop, stop + 2


def _bulk(buf: bytes, pos: int, after: int) -> tuple[int, int]:
    """Where the bulk string whose length starts at ``pos`` (past its "$") starts and stops in
    ``buf``, if ``buf`` holds it and ``after`` bytes more."""
    end = buf.find(_CRLF, pos)
    if end < 0:
        raise _Incomplete
    start = end + 2
    stop = start + int(buf[pos:end])
    if stop + after > len(buf):
        raise _Incomplete
    return start, stop


def _command(*parts: bytes) -> bytes:
    """One command in RESP."""
    out = [b"*%d\r\n" % len(parts)]
    for part in parts:
        out.append(b"$%d\r\n" % len(part))
        out.append(part)
        out.append(_CRLF)
    return b"".join(out)


def _publish(channel: bytes, payload: bytes) -> bytes:
    return b"*3\r\n$7\r\nPUBLISH\r\n$%d\r\n%s\r\n$%d\r\n%s\r\n" % (len(channel), channel, len(payload), payload)


def _unpack(data: bytes) -> Any:
    return msgpack.unpackb(data, raw=False, strict_map_key=False)


class _Subscription:
    """One Redis channel this loop's state listens to (or has stopped listening to): what it
    carries, and how many SUBSCRIBE commands were written and confirmed on this connection, so a
    ``group_add`` waits for the confirmation of its own command, not of an earlier one."""

    __slots__ = ("kind", "name", "wanted", "sent", "confirmed", "waiters")

    def __init__(self, kind: int, name: str) -> None:
        self.kind = kind
        self.name = name
        self.wanted = False
        self.sent = 0
        self.confirmed = 0
        self.waiters: list[tuple[int, asyncio.Future[None]]] = []

    def settle(self) -> None:
        """Release the waiters whose SUBSCRIBE is confirmed (all of them if none is wanted)."""
        keep = []
        for target, waiter in self.waiters:
            if waiter.done():
                continue
            if not self.wanted or self.confirmed >= target:
                waiter.set_result(None)
            else:
                keep.append((target, waiter))
        self.waiters = keep


class _LoopLayer(MemoryChannelLayer):
    """The layer's state on one event loop: local queues and groups (the in-memory layer's), one
    Redis connection, its reader task."""

    def __init__(
        self,
        pool: ConnectionPool,
        namespace: bytes,
        *,
        expiry: float,
        group_expiry: float,
        capacity: int,
        channel_capacity: dict[Any, int] | None,
        socket_timeout: float,
        ping_interval: float,
        subscribe_timeout: float,
        backlog: int,
    ) -> None:
        super().__init__(expiry=expiry, group_expiry=group_expiry, capacity=capacity,
                         channel_capacity=channel_capacity)
        self.origin = "".join(random.choices(string.ascii_lowercase + string.digits, k=ORIGIN_LENGTH))
        self._origin = self.origin.encode()
        self._pack = msgpack.Packer(use_bin_type=True).pack  # a Packer is not thread-safe: one per loop
        self._pool = pool
        # Named in CLIENT LIST, so an operator (or a test) can tell the layer's connections apart.
        self._connection_kwargs = {"client_name": f"channel-layer-{self.origin}", **pool.connection_kwargs}
        self._namespace = namespace
        self._socket_timeout = socket_timeout
        self._ping_interval = ping_interval
        self._subscribe_timeout = subscribe_timeout
        self._backlog_limit = backlog
        self._loop = asyncio.get_running_loop()
        self._subs: dict[bytes, _Subscription] = {}
        self._process_channel = self._redis_channel("p", self.origin)
        self._subscription(self._process_channel, _PROCESS, "").wanted = True
        self._writer: asyncio.StreamWriter | None = None
        self._out: list[bytes] = []  # commands for the current connection, written at the turn's end
        self._flush_due = False
        self._backlog: list[tuple[float, bytes]] = []  # publishes made while not connected
        self._dropped = 0
        self._last_read = 0.0
        self._closed = False
        self._first_connection = True
        self._task: asyncio.Task[None] | None = None
        self._watch: asyncio.Task[None] | None = None
        self.connected = asyncio.Event()
        # Counters, for tests and profiles.
        self.writes = 0
        self.published = 0
        self.reads = 0
        self.received = 0
        self.echoes = 0
        self.connections = 0

    # -- Channel layer API ----------------------------------------------------------------------

    async def new_channel(self, prefix: str = "specific.") -> str:
        """A new channel of this process: ``<prefix><origin>!<random>``. The first ones wait
        until this process listens to its own Redis channel (what another process sends to it
        goes there): ``subscribe_timeout`` at most if Redis cannot be reached at all. Once it
        has been reached, a new channel never waits, not even while the layer reconnects."""
        sub = self._subs[self._process_channel]
        if self.connections == 0 or (self._writer is not None and sub.confirmed < sub.sent):
            try:
                await self._listen(self._process_channel, _PROCESS, "")
            except TimeoutError:
                log.warning("channel layer: Redis unreachable; channels of this process get "
                            "nothing from other processes until it is back")
        return f"{prefix}{self.origin}!{''.join(random.choices(string.ascii_letters, k=12))}"

    async def send(self, channel: str, message: Message) -> None:
        """To a channel of this process: queued at once (``ChannelFull`` if full). To one of
        another process: published on that process's Redis channel. To a named channel (no ``!``):
        published to every process listening on it."""
        assert isinstance(message, dict), "message is not a dict"
        self.require_valid_channel_name(channel)
        head, bang, _ = channel.partition("!")
        if bang and head.endswith(self.origin):
            await super().send(channel, message)
            return
        self._start()
        if bang:
            if len(head) < ORIGIN_LENGTH:
                raise ValueError(f"{channel!r} is not a channel of this layer")
            target = self._redis_channel("p", head[-ORIGIN_LENGTH:])
            self._publish(target, self._origin + self._pack((channel, message)))
        else:
            self._publish(self._redis_channel("c", channel), self._origin + self._pack(message))
        await self._pace()

    async def receive(self, channel: str) -> Message:
        """The next message on ``channel``. A named channel (no ``!``) is listened to first."""
        self.require_valid_channel_name(channel)
        if "!" not in channel:
            await self._listen(self._redis_channel("c", channel), _NAMED, channel)
        return await super().receive(channel)

    async def group_add(self, group: str, channel: str) -> None:
        """Add ``channel`` (of this process) to ``group``; returns once Redis has confirmed that
        this process listens to the group."""
        await super().group_add(group, channel)
        try:
            await self._listen(self._redis_channel("g", group), _GROUP, group)
        except BaseException:
            await self.group_discard(group, channel)  # no membership Redis does not carry
            raise

    async def group_discard(self, group: str, channel: str) -> None:
        await super().group_discard(group, channel)
        if group not in self._groups:
            self._unlisten(self._redis_channel("g", group))

    async def group_send(self, group: str, message: Message) -> None:
        """Deliver to this process's members at once, and publish for the others."""
        assert isinstance(message, dict), "Message is not a dict"
        payload = self._origin + self._pack(message)
        await super().group_send(group, message)
        self._start()
        self._publish(self._redis_channel("g", group), payload)
        await self._pace()

    async def group_send_many(self, events: Iterable[tuple[str, Message]]) -> None:
        """Several group sends, in order: all published in one write."""
        origin, pack = self._origin, self._pack
        self._start()
        for group, message in events:
            assert isinstance(message, dict), "Message is not a dict"
            payload = origin + pack(message)
            await super().group_send(group, message)
            self._publish(self._redis_channel("g", group), payload)
        await self._pace()

    async def flush(self) -> None:
        """Drop every queued message and group, and stop listening to the groups and named
        channels. The connection stays; pending receivers stay attached to their channels."""
        await super().flush()
        for key, sub in list(self._subs.items()):
            if sub.kind != _PROCESS:
                self._unlisten(key)
        self._backlog.clear()

    async def close(self) -> None:
        """Close the connection and stop the reader, without waiting for the socket to close."""
        self._closed = True
        tasks = [task for task in (self._task, self._watch) if task is not None]
        for task in tasks:
            task.cancel()
        self._drop_connection(graceful=True)
        if tasks and not any(task is asyncio.current_task() for task in tasks):
            await asyncio.gather(*tasks, return_exceptions=True)
        self._task = self._watch = None
        for sub in self._subs.values():
            sub.wanted = False
            sub.settle()
        await asyncio.sleep(0)  # the transport's close runs on this turn

    # -- Publishing -----------------------------------------------------------------------------

    def _redis_channel(self, kind: str, name: str) -> bytes:
        return self._namespace + kind.encode() + b":" + name.encode()

    def _publish(self, channel: bytes, payload: bytes) -> None:
        self.published += 1
        command = _publish(channel, payload)
        if self._writer is not None:
            self._write(command)
        elif len(self._backlog) < self._backlog_limit:
            self._backlog.append((self._loop.time() + self.expiry, command))
        else:
            self._dropped += 1
            if self._dropped == 1:
                log.warning("channel layer: Redis unreachable, %d messages queued; dropping the rest",
                            self._backlog_limit)

    def _write(self, command: bytes) -> None:
        self._out.append(command)
        if not self._flush_due:
            self._flush_due = True
            self._loop.call_soon(self._flush)

    def _flush(self) -> None:
        self._flush_due = False
        if not self._out:
            return
        data = b"".join(self._out)
        self._out.clear()
        if self._writer is not None:
            self.writes += 1
            self._writer.write(data)

    async def _pace(self) -> None:
        """After a publish: while the first connection is being made, wait for it (at most
        ``subscribe_timeout``, once), so that a loop that sends and then closes at once (an
        ``async_to_sync`` call outside the server) has its message out first. Later, wait only
        while Redis has a lot of our data unread (its socket's buffer is full)."""
        if self._first_connection:
            try:
                await asyncio.wait_for(self.connected.wait(), self._subscribe_timeout)
            except TimeoutError:
                pass
            self._first_connection = False
            return
        writer = self._writer
        if writer is not None and writer.transport.get_write_buffer_size() > 4 * 1024 * 1024:
            try:
                await writer.drain()
            except (ConnectionError, OSError):
                pass

    # -- Subscriptions --------------------------------------------------------------------------

    def _subscription(self, key: bytes, kind: int, name: str) -> _Subscription:
        sub = self._subs.get(key)
        if sub is None:
            sub = self._subs[key] = _Subscription(kind, name)
        return sub

    async def _listen(self, key: bytes, kind: int, name: str) -> None:
        """Listen to ``key``; return once Redis has confirmed it."""
        self._start()
        sub = self._subscription(key, kind, name)
        if not sub.wanted:
            sub.wanted = True
            if self._writer is not None:
                sub.sent += 1
                self._write(_command(b"SUBSCRIBE", key))
        if self._writer is not None and sub.confirmed >= sub.sent:
            return
        waiter = self._loop.create_future()
        # Not connected: the SUBSCRIBE made on connecting is the first one there.
        sub.waiters.append((sub.sent if self._writer is not None else 1, waiter))
        try:
            await asyncio.wait_for(waiter, self._subscribe_timeout)
        except TimeoutError:
            raise TimeoutError(f"Redis did not confirm the subscription to {key!r} "
                               f"within {self._subscribe_timeout} s") from None

    def _unlisten(self, key: bytes) -> None:
        sub = self._subs.get(key)
        if sub is None or not sub.wanted:
            return
        sub.wanted = False
        sub.settle()
        if self._writer is not None:
            self._write(_command(b"UNSUBSCRIBE", key))
        elif not sub.waiters:
            del self._subs[key]

    def _on_subscribed(self, key: bytes) -> None:
        sub = self._subs.get(key)
        if sub is not None:
            sub.confirmed += 1
            sub.settle()

    def _on_unsubscribed(self, key: bytes) -> None:
        sub = self._subs.get(key)
        if sub is not None and not sub.wanted and sub.confirmed >= sub.sent and not sub.waiters:
            del self._subs[key]

    # -- The connection -------------------------------------------------------------------------

    def _start(self) -> None:
        if self._task is None and not self._closed:
            self._task = self._loop.create_task(self._run(), name=f"channel-layer-{self.origin}")
            self._watch = self._loop.create_task(self._watchdog(), name=f"channel-layer-watch-{self.origin}")

    async def _run(self) -> None:
        delay = 0.05
        failures = 0
        while not self._closed:
            connection = self._pool.connection_class(**self._connection_kwargs)
            try:
                await connection.connect()
            except Exception as error:  # noqa: BLE001 - any failure to connect is retried
                failures += 1
                if failures == 1:
                    log.warning("channel layer: cannot reach Redis (%s); retrying", error)
                await self._discard(connection)
                await asyncio.sleep(delay)
                delay = min(delay * 2, 2.0)
                continue
            reader, writer = connection._reader, connection._writer  # noqa: SLF001 - redis-py made it; we read it
            if reader is None or writer is None:
                raise RuntimeError("redis-py's connection has no streams")
            if failures:
                log.warning("channel layer: Redis reached again after %d failed attempts", failures)
            delay, failures = 0.05, 0
            self._connected(writer)
            graceful = False
            try:
                await self._read(reader)
            except asyncio.CancelledError:
                graceful = True  # closing
                raise
            except (OSError, ValueError) as error:
                if not self._closed:
                    log.warning("channel layer: Redis connection lost (%s); reconnecting", error)
            except Exception:  # noqa: BLE001 - the layer must outlive a bug in one delivery
                log.exception("channel layer: reader failed; reconnecting")
            finally:
                self._drop_connection(graceful or self._closed)
                await self._discard(connection)

    async def _discard(self, connection: Any) -> None:
        try:
            await connection.disconnect(nowait=True)
        except Exception:  # noqa: BLE001 - it is being dropped anyway
            pass

    def _connected(self, writer: asyncio.StreamWriter) -> None:
        """Renew every wanted subscription (and forget the others), then send what was
        published while no connection was up, in order."""
        self.connections += 1
        self._writer = writer
        self._last_read = self._loop.time()
        self._out.clear()
        wanted = []
        for key, sub in list(self._subs.items()):
            sub.sent = sub.confirmed = 0
            if sub.wanted:
                sub.sent = 1
                wanted.append(key)
                sub.waiters = [(1, waiter) for _, waiter in sub.waiters]
            else:
                sub.settle()
                del self._subs[key]
        if wanted:
            self._write(_command(b"SUBSCRIBE", *wanted))
        now = self._loop.time()
        for deadline, command in self._backlog:
            if deadline >= now:
                self._write(command)
        self._backlog.clear()
        self._dropped = 0
        self._first_connection = False
        self.connected.set()

    def _drop_connection(self, graceful: bool = False) -> None:
        """Stop using the connection. ``graceful`` (closing, not failing): what is written goes
        out first. Never waits for the socket to close (redis-py's ``disconnect`` can wait 5 s in
        ``wait_closed``): the transport closes on the loop's next turns."""
        writer = self._writer
        if writer is not None and graceful:
            self._flush()
        self._writer = None
        self._out.clear()
        self.connected.clear()
        if writer is not None:
            if graceful:
                writer.transport.close()
            else:
                writer.transport.abort()

    async def _read(self, reader: asyncio.StreamReader) -> None:
        buf = b""
        origin = self._origin
        size = len(origin)
        subs = self._subs
        while True:
            data = await reader.read(1 << 16)
            if not data:
                raise ConnectionError("closed by Redis")
            self.reads += 1
            self._last_read = self._loop.time()
            buf = buf + data if buf else data
            pos = 0
            end = len(buf)
            while pos < end:
                first = buf[pos]
                if first == 58:  # a PUBLISH's reply (the number of receivers): skipped
                    line_end = buf.find(_CRLF, pos)
                    if line_end < 0:
                        break
                    pos = line_end + 2
                    continue
                if first == 62 and buf.startswith(_MESSAGE, pos):  # a published message
                    try:
                        key, start, stop, after = _message(buf, pos)
                    except _Incomplete:
                        break
                    pos = after
                    sub = subs.get(key)
                    if sub is None or not sub.wanted:
                        continue
                    self.received += 1
                    kind = sub.kind
                    if kind == _GROUP:
                        if buf.startswith(origin, start):
                            self.echoes += 1  # delivered here when it was sent
                            continue
                        if sub.name not in self._groups:
                            self._unlisten(key)  # its members left by expiry
                            continue
                        await self._deliver_group(sub.name, buf[start + size:stop])
                    elif kind == _PROCESS:
                        await self._deliver_process(buf[start + size:stop])
                    else:
                        await self._deliver(sub.name, buf[start + size:stop])
                    continue
                try:
                    value, pos = _value(buf, pos)
                except _Incomplete:
                    break
                if type(value) is _Push:
                    head = value[0]
                    if head == b"subscribe":
                        self._on_subscribed(value[1])
                    elif head == b"unsubscribe":
                        self._on_unsubscribed(value[1])
                elif type(value) is _Error:
                    log.warning("channel layer: Redis replied %s", bytes(value).decode(errors="replace"))
            buf = buf[pos:] if pos < end else b""

    async def _deliver_group(self, group: str, data: bytes) -> None:
        try:
            message = _unpack(data)
        except Exception:  # noqa: BLE001 - a message we cannot read is dropped, not fatal
            log.exception("channel layer: unreadable message for group %s", group)
            return
        await MemoryChannelLayer.group_send(self, group, message)

    async def _deliver_process(self, data: bytes) -> None:
        try:
            channel, message = _unpack(data)
        except Exception:  # noqa: BLE001
            log.exception("channel layer: unreadable message for this process")
            return
        try:
            await MemoryChannelLayer.send(self, channel, message)
        except ChannelFull:
            log.debug("channel layer: %s is full; message dropped", channel)

    async def _deliver(self, channel: str, data: bytes) -> None:
        try:
            message = _unpack(data)
        except Exception:  # noqa: BLE001
            log.exception("channel layer: unreadable message for %s", channel)
            return
        try:
            await MemoryChannelLayer.send(self, channel, message)
        except ChannelFull:
            log.debug("channel layer: %s is full; message dropped", channel)

    async def _watchdog(self) -> None:
        """Ping an idle connection; drop one that has been silent past ``socket_timeout``."""
        while not self._closed:
            await asyncio.sleep(self._ping_interval)
            writer = self._writer
            if writer is None:
                continue
            idle = self._loop.time() - self._last_read
            if idle > self._socket_timeout:
                log.warning("channel layer: Redis silent for %.0f s; reconnecting", idle)
                writer.transport.abort()
            elif idle >= self._ping_interval:
                self._write(b"*1\r\n$4\r\nPING\r\n")


class FanoutChannelLayer(BaseChannelLayer):
    """The channel layer over Redis pub/sub; see the module docstring.

    ``hosts``: one Redis, as channels-redis takes it (``[{"address": url, **redis-py options}]``,
    ``[url]`` or ``[(host, port)]``). ``prefix`` names the layer's Redis channels. ``expiry``,
    ``group_expiry``, ``capacity`` and ``channel_capacity`` are the in-memory layer's, per process.
    ``socket_timeout`` (from the host's options, else 30 s): a connection silent that long is
    made again; ``ping_interval``: an idle connection is pinged this often. ``subscribe_timeout``:
    how long ``group_add`` waits for Redis (while reconnecting, say) before it fails.
    ``backlog``: how many messages are kept to publish while Redis is unreachable.
    """

    extensions = ["groups", "flush"]

    def __init__(
        self,
        hosts: list[Any] | None = None,
        prefix: str = "asgi",
        expiry: float = 60,
        group_expiry: float = 86400,
        capacity: int = 100,
        channel_capacity: dict[Any, int] | None = None,
        ping_interval: float = 5.0,
        subscribe_timeout: float = 10.0,
        backlog: int = 10000,
        **kwargs: Any,
    ) -> None:
        super().__init__(expiry=expiry, capacity=capacity, channel_capacity=channel_capacity)
        hosts = hosts or ["redis://127.0.0.1:6379"]
        if len(hosts) != 1:
            raise ValueError("FanoutChannelLayer takes one Redis host")
        host = hosts[0]
        if isinstance(host, str):
            address, options = host, {}
        elif isinstance(host, dict):
            options = dict(host)
            address = options.pop("address", None) or "redis://{}:{}".format(
                options.pop("host", "127.0.0.1"), options.pop("port", 6379))
        else:
            address, options = f"redis://{host[0]}:{host[1]}", {}
        options.setdefault("socket_timeout", 30.0)
        self.pool = ConnectionPool.from_url(address, protocol=3, **options)
        db = self.pool.connection_kwargs.get("db", 0)
        self.prefix = prefix
        self._namespace = f"{prefix}:{db}:".encode()
        self._options = {
            "expiry": expiry,
            "group_expiry": group_expiry,
            "capacity": capacity,
            "channel_capacity": channel_capacity,
            "socket_timeout": float(options["socket_timeout"] or 30.0),
            "ping_interval": ping_interval,
            "subscribe_timeout": subscribe_timeout,
            "backlog": backlog,
        }
        self._layers: dict[asyncio.AbstractEventLoop, _LoopLayer] = {}

    def layer(self) -> _LoopLayer:
        """This event loop's state, made on first use."""
        loop = asyncio.get_running_loop()
        layer = self._layers.get(loop)
        if layer is None:
            layer = self._layers[loop] = _LoopLayer(self.pool, self._namespace, **self._options)
            self._close_with(loop)
        return layer

    def _close_with(self, loop: asyncio.AbstractEventLoop) -> None:
        """Close this loop's state when the loop closes (as channels-redis does), so no task or
        socket outlives it."""
        original = loop.close
        layers = self._layers

        def close(self_loop: asyncio.AbstractEventLoop) -> None:
            layer = layers.pop(loop, None)
            if layer is not None and not loop.is_closed() and not loop.is_running():
                loop.run_until_complete(layer.close())
            loop.close = original  # type: ignore[method-assign]
            original()

        loop.close = types.MethodType(close, loop)  # type: ignore[method-assign]

    async def send(self, channel: str, message: Message) -> None:
        await self.layer().send(channel, message)

    async def receive(self, channel: str) -> Message:
        return await self.layer().receive(channel)

    async def new_channel(self, prefix: str = "specific.") -> str:
        return await self.layer().new_channel(prefix)

    async def group_add(self, group: str, channel: str) -> None:
        await self.layer().group_add(group, channel)

    async def group_discard(self, group: str, channel: str) -> None:
        await self.layer().group_discard(group, channel)

    async def group_send(self, group: str, message: Message) -> None:
        await self.layer().group_send(group, message)

    async def group_send_many(self, events: Iterable[tuple[str, Message]]) -> None:
        """``(group, message)`` pairs sent in order, published in one write
        (games/service/push.py sends the pushes of one change so)."""
        await self.layer().group_send_many(events)

    async def flush(self) -> None:
        await self.layer().flush()

    async def close(self) -> None:
        """Close this loop's connection; the layer connects again if used after."""
        layer = self._layers.pop(asyncio.get_running_loop(), None)
        if layer is not None:
            await layer.close()

    close_pools = close  # the name channels-redis's core layer gives it
