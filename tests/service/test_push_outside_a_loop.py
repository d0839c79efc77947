"""Pushes made outside any event loop (a management command such as playbots, a script, a sync
test) go through one loop of the process's own: delivered in order, waited for, and without a
thread and a loop started for every push (games/service/push.py)."""

from __future__ import annotations

import threading

import pytest
from asgiref.sync import async_to_sync
from channels.layers import channel_layers, get_channel_layer

from games.service import push


@pytest.fixture
def memory_layer(settings):
    """The process's in-memory layer, whatever the suite runs on: the test watches push's own
    loop, and reads what arrived from a sync test (Redis's pub/sub layer lets only channels of
    its own loops join groups)."""
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "config.memory_layer.MemoryChannelLayer"}}
    channel_layers.backends.clear()
    yield get_channel_layer()
    channel_layers.backends.clear()


def test_pushes_outside_a_loop_arrive_in_order_on_one_thread(memory_layer):
    layer = memory_layer
    channel = async_to_sync(layer.new_channel)()
    async_to_sync(layer.group_add)(push.game_group(7), channel)
    push.send_many([(push.game_group(7), {"type": "Chat", "n": 0}, [])])  # starts the process's loop
    threads = set(threading.enumerate())
    for n in range(1, 40):
        push.send_many([(push.game_group(7), {"type": "Chat", "n": n}, [])])
        # No push leaves a thread of its own behind. (Threads of earlier tests may still end
        # meanwhile: only new ones count.)
        assert set(threading.enumerate()) <= threads
    received = [push.message_of(async_to_sync(layer.receive)(channel))["n"] for _ in range(40)]
    assert received == list(range(40))
    assert any(t.name == "push-sender" for t in threading.enumerate())
