"""The in-memory channel layer, without Channels' per-operation scan of every channel.

Channels' ``InMemoryChannelLayer`` (4.3) runs ``_clean_expired`` on every ``receive`` and
``group_send``: it looks at the head of EVERY channel's queue and at every membership of every
group. Each connected client keeps a ``receive`` pending, so every operation cost grows with the
number of clients; under load that scan took about a quarter of the server's time. It also
deep-copies every message it queues, once per group member.

``MemoryChannelLayer`` keeps the same behaviour with costs that do not depend on how many channels
or groups exist:

- ``send`` and ``receive`` touch one channel. Expired messages are dropped lazily at the head of
  that channel's queue (deadlines are ``now + expiry`` on a monotonic clock, so they only grow
  along a queue and the expired ones are always at its head): a message older than ``expiry`` is
  never delivered, and, as upstream, a channel that had a message expire leaves all its groups.
- ``group_send`` touches the group's members only, and skips members whose membership is older
  than ``group_expiry`` (removing them) and members with an expired message (removing them from
  their groups), so it delivers to exactly the channels upstream would.
- What nobody touches any more (the queue of a channel whose consumer is gone, memberships of
  groups nobody sends to) is reclaimed by a sweep over all channels and groups that runs at most
  once every ``sweep_interval`` seconds, from whichever operation comes first after that.
- A channel with no message and no waiting receiver is not stored at all; a group with no member
  is deleted. A membership index (channel -> groups) makes "leave all groups" cost the channel's
  own groups, not every group.

Messages are NOT deep-copied. ``send`` and ``group_send`` queue a shallow copy of the top-level
dict (one per receiver), so a sender that reuses its dict, or a receiver that changes a key such
as ``type``, affects nobody else; but nested objects are shared between the sender and every
receiver. So: a sender must not mutate a message (or anything in it) after sending it, and a
receiver must not mutate anything nested in what it receives. The project keeps to this: senders
(games/service/push.py, accounts/tokens.py, the consumers) build a fresh dict for every send and never
touch it again (a game's pushes travel as JSON text), and the consumers' handlers only read events
(LobbyConsumer.push_message builds a new dict for its variant of a message).

Like upstream, the layer is for one process and one event loop; it is not thread-safe (pushes
from database threads reach it through the event loop, see games/service/push.py).
"""

from __future__ import annotations

import asyncio
import random
import string
import time
from collections import deque
from collections.abc import Callable
from typing import Any

from channels.exceptions import ChannelFull
from channels.layers import BaseChannelLayer

Message = dict[str, Any]


class _Queue:
    """One channel: its messages, oldest first, each with its deadline; its waiting receivers."""

    __slots__ = ("capacity", "messages", "waiters")

    def __init__(self, capacity: int) -> None:
        # Looked up once per channel: get_capacity matches the channel_capacity patterns.
        self.capacity = capacity
        self.messages: deque[tuple[float, Message]] = deque()
        self.waiters: deque[asyncio.Future[None]] = deque()

    def drop_expired(self, now: float) -> bool:
        """Drop the expired messages (all at the head, see the module docstring); True if any."""
        messages = self.messages
        if not messages or messages[0][0] >= now:
            return False
        while messages and messages[0][0] < now:
            messages.popleft()
        return True

    def wake_one(self) -> None:
        """Tell one waiting receiver that a message is there (as asyncio.Queue does)."""
        while self.waiters:
            waiter = self.waiters.popleft()
            if not waiter.done():
                waiter.set_result(None)
                return

    def idle(self) -> bool:
        return not self.messages and not self.waiters


class MemoryChannelLayer(BaseChannelLayer):
    """In-memory channel layer for one process; see the module docstring.

    Not a subclass of ``InMemoryChannelLayer``: its state is kept differently, and an upstream
    method this class did not override would silently work on the wrong structures.
    """

    extensions = ["groups", "flush"]

    # The clock for deadlines: monotonic, so a change of the wall clock neither expires nor
    # revives messages. Tests may replace it on an instance.
    clock: Callable[[], float] = staticmethod(time.monotonic)

    def __init__(
        self,
        expiry: float = 60,
        group_expiry: float = 86400,
        capacity: int = 100,
        channel_capacity: dict[Any, int] | None = None,
        sweep_interval: float = 10.0,
        **kwargs: Any,
    ) -> None:
        super().__init__(expiry=expiry, capacity=capacity, **kwargs)
        # BaseChannelLayer.get_capacity expects compiled (pattern, capacity) pairs; upstream's
        # in-memory layer forgets to compile them.
        self.channel_capacity = self.compile_capacities(channel_capacity or {})
        self.group_expiry = group_expiry
        self.sweep_interval = sweep_interval
        self._channels: dict[str, _Queue] = {}
        self._groups: dict[str, dict[str, float]] = {}  # group -> {channel: time joined}
        self._memberships: dict[str, set[str]] = {}  # channel -> its groups
        # The first operation sweeps (an empty layer: nothing to visit) and sets the real date.
        self._next_sweep = float("-inf")

    # -- Channel layer API ----------------------------------------------------------------------

    async def send(self, channel: str, message: Message) -> None:
        """Queue ``message`` on ``channel``; ChannelFull if it already holds ``capacity``."""
        assert isinstance(message, dict), "message is not a dict"
        self.require_valid_channel_name(channel)
        assert "__asgi_channel__" not in message
        now = self._tick()
        queue = self._queue(channel)
        if queue.drop_expired(now):
            self._remove_from_groups(channel)
        if len(queue.messages) >= queue.capacity:
            raise ChannelFull(channel)
        self._put(queue, message, now)

    async def receive(self, channel: str) -> Message:
        """The oldest unexpired message on ``channel``, waiting for one if there is none. If
        several coroutines wait on one channel, each message goes to one of them."""
        self.require_valid_channel_name(channel)
        now = self._tick()
        while True:
            # Looked up again on each turn: a flush or a sweep may have replaced the entry.
            queue = self._queue(channel)
            if queue.drop_expired(now):
                self._remove_from_groups(channel)
            if queue.messages:
                message = queue.messages.popleft()[1]
                self._forget_if_idle(channel, queue)
                return message
            waiter = asyncio.get_running_loop().create_future()
            queue.waiters.append(waiter)
            try:
                await waiter
            except BaseException:
                # Cancelled (a consumer ending cancels its pending receive): leave no trace, and
                # if a message had already been promised to this receiver, pass it on.
                waiter.cancel()
                try:
                    queue.waiters.remove(waiter)
                except ValueError:
                    pass
                if queue.messages and not waiter.cancelled():
                    queue.wake_one()
                self._forget_if_idle(channel, queue)
                raise
            now = self.clock()

    async def new_channel(self, prefix: str = "specific.") -> str:
        """A new channel name for a receiver in this process (the same form as upstream's)."""
        return f"{prefix}.inmemory!{''.join(random.choices(string.ascii_letters, k=12))}"

    # -- Flush extension ------------------------------------------------------------------------

    async def flush(self) -> None:
        """Drop every message and group. Pending receivers stay attached to their channels, so
        they get what is sent after the flush (upstream's flush left them waiting forever)."""
        for name, queue in list(self._channels.items()):
            queue.messages.clear()
            self._forget_if_idle(name, queue)
        self._groups.clear()
        self._memberships.clear()

    async def close(self) -> None:
        """Nothing to release."""

    # -- Groups extension -----------------------------------------------------------------------

    async def group_add(self, group: str, channel: str) -> None:
        """Add ``channel`` to ``group``, or renew its membership (it expires after group_expiry)."""
        self.require_valid_group_name(group)
        self.require_valid_channel_name(channel)
        now = self._tick()
        self._groups.setdefault(group, {})[channel] = now
        self._memberships.setdefault(channel, set()).add(group)

    async def group_discard(self, group: str, channel: str) -> None:
        """Remove ``channel`` from ``group``, if it is in it."""
        self.require_valid_channel_name(channel)
        self.require_valid_group_name(group)
        self._leave(group, channel)

    async def group_send(self, group: str, message: Message) -> None:
        """Queue ``message`` on every channel of ``group``; a full channel is skipped silently."""
        assert isinstance(message, dict), "Message is not a dict"
        self.require_valid_group_name(group)
        now = self._tick()
        members = self._groups.get(group)
        if not members:
            return
        joined_by = now - self.group_expiry
        # A copy of the members: expiry below may remove some from the group while we go.
        for channel, joined in list(members.items()):
            if joined < joined_by:
                self._leave(group, channel)
                continue
            queue = self._channels.get(channel)
            if queue is None:
                # Names were validated by group_add: no need to match them again per member.
                queue = self._channels[channel] = _Queue(self.get_capacity(channel))
            elif queue.drop_expired(now):
                # Upstream's clean-up before a group_send takes such a channel out of its groups,
                # so it gets nothing.
                self._remove_from_groups(channel)
                self._forget_if_idle(channel, queue)
                continue
            if len(queue.messages) < queue.capacity:
                self._put(queue, message, now)

    # -- Internals ------------------------------------------------------------------------------

    def _tick(self) -> float:
        """The time now, after the periodic sweep if it is due."""
        now = self.clock()
        if now >= self._next_sweep:
            self._sweep(now)
        return now

    def _queue(self, channel: str) -> _Queue:
        queue = self._channels.get(channel)
        if queue is None:
            queue = self._channels[channel] = _Queue(self.get_capacity(channel))
        return queue

    def _put(self, queue: _Queue, message: Message, now: float) -> None:
        # Shallow copy only (see the module docstring): the top level is the receiver's own, so
        # `type` routing cannot be changed by the sender or another receiver afterwards.
        queue.messages.append((now + self.expiry, dict(message)))
        queue.wake_one()

    def _forget_if_idle(self, channel: str, queue: _Queue) -> None:
        # Only the stored entry: a queue a flush or sweep already replaced is left alone.
        if queue.idle() and self._channels.get(channel) is queue:
            del self._channels[channel]

    def _leave(self, group: str, channel: str) -> None:
        members = self._groups.get(group)
        if members is not None and members.pop(channel, None) is not None and not members:
            del self._groups[group]
        groups = self._memberships.get(channel)
        if groups is not None:
            groups.discard(group)
            if not groups:
                del self._memberships[channel]

    def _remove_from_groups(self, channel: str) -> None:
        """Take ``channel`` out of all its groups (a message on it expired, as upstream)."""
        for group in self._memberships.pop(channel, ()):
            members = self._groups.get(group)
            if members is not None:
                members.pop(channel, None)
                if not members:
                    del self._groups[group]

    def _sweep(self, now: float) -> None:
        """Reclaim what no operation touches: expired messages of channels nobody reads (and
        those channels' memberships), idle channels, and expired memberships. It visits every
        channel and membership, so it runs at most once per ``sweep_interval``."""
        self._next_sweep = now + self.sweep_interval
        for channel, queue in list(self._channels.items()):
            if queue.drop_expired(now):
                self._remove_from_groups(channel)
            self._forget_if_idle(channel, queue)
        joined_by = now - self.group_expiry
        for group, members in list(self._groups.items()):
            for channel in [c for c, joined in members.items() if joined < joined_by]:
                self._leave(group, channel)
