"""The in-memory channel layer (config/memory_layer.py): Channels' layer behaviour, without its
scan of every channel on each operation, and without deep copies of messages."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from channels.exceptions import ChannelFull
from channels.layers import get_channel_layer

from config import memory_layer
from config.channel_layers import CAPACITY, channel_layers
from config.memory_layer import MemoryChannelLayer


class Clock:
    """A clock the test moves by hand, so expiry tests neither sleep nor flake."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def layer_on(clock: Clock, **config: Any) -> MemoryChannelLayer:
    layer = MemoryChannelLayer(**config)
    layer.clock = clock
    return layer


async def nothing_for(layer: MemoryChannelLayer, channel: str) -> bool:
    """True if no message arrives on ``channel`` (a receive that is then cancelled)."""
    try:
        await asyncio.wait_for(layer.receive(channel), timeout=0.05)
    except TimeoutError:
        return True
    return False


async def waiting_receivers(layer: MemoryChannelLayer, channels: list[str]) -> list[asyncio.Task]:
    """A pending receive on each channel, as every connected consumer has."""
    tasks = [asyncio.create_task(layer.receive(channel)) for channel in channels]
    await asyncio.sleep(0)
    return tasks


async def cancel(tasks: list[asyncio.Task]) -> None:
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)


# -- the configured default ----------------------------------------------------------------------


def test_it_is_the_default_layer_without_redis(settings):
    settings.CHANNEL_LAYERS = channel_layers("")
    layer = get_channel_layer()
    assert isinstance(layer, MemoryChannelLayer)
    assert layer.capacity == CAPACITY


# -- send, receive, names ------------------------------------------------------------------------


async def test_messages_arrive_in_the_order_sent():
    layer = MemoryChannelLayer()
    for n in range(3):
        await layer.send("chan", {"type": "m", "n": n})
    assert [(await layer.receive("chan"))["n"] for _ in range(3)] == [0, 1, 2]
    assert layer._channels == {}  # an emptied channel with nobody waiting is not kept


async def test_a_waiting_receiver_gets_the_next_message():
    layer = MemoryChannelLayer()
    channel = await layer.new_channel()
    receiving = asyncio.create_task(layer.receive(channel))
    await asyncio.sleep(0)
    assert not receiving.done()
    await layer.send(channel, {"type": "hello"})
    assert await asyncio.wait_for(receiving, timeout=1) == {"type": "hello"}


async def test_new_channels_are_distinct_and_valid():
    layer = MemoryChannelLayer()
    names = {await layer.new_channel() for _ in range(100)}
    assert len(names) == 100
    for name in names:
        assert layer.require_valid_channel_name(name)
        assert name.startswith("specific..inmemory!")


async def test_names_and_messages_are_checked():
    layer = MemoryChannelLayer()
    with pytest.raises(TypeError):
        await layer.send("not a name", {"type": "m"})
    with pytest.raises(TypeError):
        await layer.receive("x" * 200)
    with pytest.raises(TypeError):
        await layer.group_add("bad group!", "chan")
    with pytest.raises(TypeError):
        await layer.group_discard("group", "bad chan")
    with pytest.raises(TypeError):
        await layer.group_send("bad group", {"type": "m"})
    with pytest.raises(AssertionError):
        await layer.send("chan", ["not", "a", "dict"])


async def test_a_cancelled_receive_leaves_nothing_behind():
    layer = MemoryChannelLayer()
    assert await nothing_for(layer, "chan")
    assert layer._channels == {}


async def test_a_message_promised_to_a_cancelled_receiver_goes_to_another():
    layer = MemoryChannelLayer()
    first, second = await waiting_receivers(layer, ["chan", "chan"])
    await layer.send("chan", {"type": "m"})  # wakes `first`, which is cancelled before it runs
    first.cancel()
    assert await asyncio.wait_for(second, timeout=1) == {"type": "m"}
    await cancel([first])


# -- capacity ------------------------------------------------------------------------------------


async def test_a_full_channel_refuses_a_send():
    layer = MemoryChannelLayer(capacity=3, channel_capacity={"small.*": 1})
    for _ in range(3):
        await layer.send("chan", {"type": "m"})
    with pytest.raises(ChannelFull):
        await layer.send("chan", {"type": "m"})
    await layer.receive("chan")
    await layer.send("chan", {"type": "m"})  # room again
    await layer.send("small.one", {"type": "m"})
    with pytest.raises(ChannelFull):
        await layer.send("small.one", {"type": "m"})


async def test_expired_messages_do_not_count_against_capacity():
    clock = Clock()
    layer = layer_on(clock, capacity=2, expiry=10)
    await layer.send("chan", {"type": "old"})
    await layer.send("chan", {"type": "old"})
    clock.now += 11
    await layer.send("chan", {"type": "new"})
    assert await layer.receive("chan") == {"type": "new"}


# -- groups --------------------------------------------------------------------------------------


async def test_group_send_reaches_every_member_and_skips_a_full_one():
    layer = MemoryChannelLayer(capacity=2)
    members = [f"member-{n}" for n in range(500)]
    for channel in members:
        await layer.group_add("big", channel)
    await layer.send("member-7", {"type": "filler"})
    await layer.send("member-7", {"type": "filler"})  # member-7 is now full
    await layer.group_send("big", {"type": "news", "n": 1})  # no ChannelFull
    for channel in members:
        if channel != "member-7":
            assert await layer.receive(channel) == {"type": "news", "n": 1}
    assert [(await layer.receive("member-7"))["type"] for _ in range(2)] == ["filler", "filler"]
    assert await nothing_for(layer, "member-7")


async def test_a_discarded_channel_gets_nothing():
    layer = MemoryChannelLayer()
    for channel in ("a", "b", "c"):
        await layer.group_add("g", channel)
    await layer.group_discard("g", "b")
    await layer.group_discard("g", "never-joined")
    await layer.group_discard("no-such-group", "a")
    await layer.group_send("g", {"type": "m"})
    assert await layer.receive("a") == {"type": "m"}
    assert await layer.receive("c") == {"type": "m"}
    assert await nothing_for(layer, "b")
    await layer.group_discard("g", "a")
    await layer.group_discard("g", "c")
    assert layer._groups == {} and layer._memberships == {}  # an empty group is not kept
    await layer.group_send("g", {"type": "m"})  # to nobody
    assert layer._channels == {}


async def test_group_memberships_expire():
    clock = Clock()
    layer = layer_on(clock, group_expiry=100)
    await layer.group_add("g", "old")
    await layer.group_add("g", "renewed")
    clock.now += 60
    await layer.group_add("g", "renewed")  # joining again renews the membership
    await layer.group_add("g", "new")
    clock.now += 41  # "old" joined 101 s ago
    await layer.group_send("g", {"type": "m"})
    assert await layer.receive("renewed") == {"type": "m"}
    assert await layer.receive("new") == {"type": "m"}
    assert await nothing_for(layer, "old")
    assert "old" not in layer._groups["g"] and "old" not in layer._memberships


# -- message expiry ------------------------------------------------------------------------------


async def test_an_expired_message_is_never_delivered():
    clock = Clock()
    layer = layer_on(clock, expiry=10)
    await layer.send("chan", {"type": "m", "n": 1})
    await layer.send("chan", {"type": "m", "n": 2})
    assert (await layer.receive("chan"))["n"] == 1
    clock.now += 10
    await layer.send("chan", {"type": "m", "n": 3})
    clock.now += 0.5  # n=2 is 10.5 s old, n=3 0.5 s
    assert (await layer.receive("chan"))["n"] == 3
    assert await nothing_for(layer, "chan")
    assert layer._channels == {}


async def test_messages_expire_in_real_time_too():
    layer = MemoryChannelLayer(expiry=0.05)
    await layer.send("chan", {"type": "m"})
    await asyncio.sleep(0.1)
    assert await nothing_for(layer, "chan")


async def test_a_channel_whose_message_expired_leaves_its_groups():
    # As upstream: a message left unread past its expiry means the channel's consumer is gone.
    clock = Clock()
    layer = layer_on(clock, expiry=10)
    for group in ("g1", "g2"):
        await layer.group_add(group, "dead")
        await layer.group_add(group, "live")
    await layer.group_send("g1", {"type": "m"})
    assert await layer.receive("live") == {"type": "m"}
    clock.now += 11
    await layer.group_send("g2", {"type": "later"})
    assert await layer.receive("live") == {"type": "later"}
    assert await nothing_for(layer, "dead")  # the expired message, and nothing after it
    assert layer._memberships == {"live": {"g1", "g2"}}
    assert set(layer._groups["g1"]) == set(layer._groups["g2"]) == {"live"}


async def test_the_sweep_reclaims_what_nobody_touches():
    clock = Clock()
    layer = layer_on(clock, expiry=10, group_expiry=100, sweep_interval=5)
    await layer.send("other", {"type": "first"})  # the first operation: the sweep is due at 1005
    await layer.group_add("g", "dead")
    await layer.group_add("quiet", "member")
    await layer.send("dead", {"type": "m"})  # never received
    clock.now += 11
    await layer.send("other", {"type": "second"})  # the sweep runs here, over every channel
    assert list(layer._channels) == ["other"]
    assert "g" not in layer._groups and "dead" not in layer._memberships
    assert layer._groups == {"quiet": {"member": 1000.0}}  # not expired yet
    clock.now += 100
    await layer.send("other", {"type": "m"})  # a sweep after group_expiry
    assert layer._groups == {} and layer._memberships == {}


# -- flush ---------------------------------------------------------------------------------------


async def test_flush_drops_messages_and_groups_but_not_waiting_receivers():
    layer = MemoryChannelLayer()
    await layer.send("full", {"type": "m"})
    await layer.group_add("g", "member")
    [receiving] = await waiting_receivers(layer, ["waiting"])
    await layer.flush()
    assert await nothing_for(layer, "full")
    await layer.group_send("g", {"type": "m"})
    assert await nothing_for(layer, "member")
    await layer.send("waiting", {"type": "after"})
    assert await asyncio.wait_for(receiving, timeout=1) == {"type": "after"}
    await layer.close()


# -- cost: per operation, independent of the number of channels ----------------------------------


class Watched(dict):
    """A dict that counts the times it is iterated over (every way a scan could start)."""

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        self.scans = 0

    def __iter__(self):
        self.scans += 1
        return super().__iter__()

    def items(self):
        self.scans += 1
        return super().items()

    def keys(self):
        self.scans += 1
        return super().keys()

    def values(self):
        self.scans += 1
        return super().values()


async def operations_cost(idle: int, monkeypatch) -> tuple[int, int]:
    """(scans of the layer's tables, channel queues looked at) for one send, receive, group_send,
    group_add and group_discard, with ``idle`` other connected channels, each waiting to receive
    and each in the lobby group and a group of its own."""
    clock = Clock()
    layer = layer_on(clock, sweep_interval=10)
    idle_channels = [f"idle-{n}" for n in range(idle)]
    for channel in idle_channels:
        await layer.group_add("lobby", channel)
        await layer.group_add(f"user-{channel}", channel)
    tasks = await waiting_receivers(layer, idle_channels)
    layer._channels, layer._groups, layer._memberships = (
        Watched(layer._channels), Watched(layer._groups), Watched(layer._memberships))
    looked_at = 0
    drop_expired = memory_layer._Queue.drop_expired

    def counting(queue: memory_layer._Queue, now: float) -> bool:
        nonlocal looked_at
        looked_at += 1
        return drop_expired(queue, now)

    monkeypatch.setattr(memory_layer._Queue, "drop_expired", counting)
    clock.now += 5  # within the sweep interval: no sweep is due
    await layer.group_add("table", "me")
    await layer.group_add("table", "you")
    await layer.send("me", {"type": "m"})
    await layer.receive("me")
    await layer.group_send("table", {"type": "m"})
    await layer.receive("you")
    await layer.group_discard("table", "you")
    scans = layer._channels.scans + layer._groups.scans + layer._memberships.scans
    monkeypatch.setattr(memory_layer._Queue, "drop_expired", drop_expired)
    await cancel(tasks)
    return scans, looked_at


async def test_operations_cost_the_same_with_10_or_10000_idle_channels(monkeypatch):
    few = await operations_cost(10, monkeypatch)
    many = await operations_cost(10_000, monkeypatch)
    assert few == many
    assert few[0] == 0  # no operation scanned a table (upstream scans every channel each time)
    assert few[1] <= 4  # only the queues of the channels used (upstream: every channel's)


async def test_the_sweep_runs_at_most_once_per_interval(monkeypatch):
    clock = Clock()
    layer = layer_on(clock, sweep_interval=10)
    await layer.send("chan", {"type": "m"})  # the first operation sweeps (nothing yet)
    sweeps = []
    original = layer._sweep
    monkeypatch.setattr(layer, "_sweep", lambda now: (sweeps.append(now), original(now)))
    for _ in range(50):
        clock.now += 1
        await layer.send("chan", {"type": "m"})
        await layer.receive("chan")
    assert sweeps == [1010.0, 1020.0, 1030.0, 1040.0, 1050.0]


# -- no deep copy (senders must not mutate what they sent; receivers must not mutate nested data) --


async def test_messages_are_copied_shallowly():
    layer = MemoryChannelLayer()
    nested = {"moves": [1, 2, 3]}
    message = {"type": "push.message", "message": nested}
    await layer.send("chan", message)
    message["type"] = "changed.after.send"  # the top level is the receiver's own
    received = await layer.receive("chan")
    assert received == {"type": "push.message", "message": {"moves": [1, 2, 3]}}
    assert received is not message
    # Nested objects are not copied: they are the sender's, shared read-only (module docstring).
    assert received["message"] is nested


async def test_group_members_share_nested_objects_but_not_the_top_level():
    layer = MemoryChannelLayer()
    for channel in ("a", "b"):
        await layer.group_add("g", channel)
    nested = {"text": "hi"}
    await layer.group_send("g", {"type": "push.message", "message": nested})
    a, b = await layer.receive("a"), await layer.receive("b")
    assert a is not b and a == b
    assert a["message"] is b["message"] is nested
