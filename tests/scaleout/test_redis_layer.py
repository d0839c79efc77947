"""Every Redis channel layer (fanout, core, pubsub): an idle consumer keeps waiting for its messages.

channels-redis blocks on BZPOPMIN for 5 s at a time. With redis-py 8's default 5 s socket
timeout, that wait raised `TimeoutError: Timeout reading from …` and every idle WebSocket
consumer was torn down. This runs against the machine's Redis whichever configuration the
rest of the suite uses, on a database number of its own.
"""

from __future__ import annotations

import asyncio
import os

import pytest
from django.utils.module_loading import import_string

from config.channel_layers import REDIS_LAYERS, channel_layers, spans_processes

REDIS_URL = os.environ.get("SCALEOUT_REDIS_URL", "redis://127.0.0.1:6379/7")

# Both modules use Redis database SCALEOUT_REDIS_URL, which test_two_daphnes.py empties: under
# pytest-xdist they run on one worker, one after the other.
pytestmark = [pytest.mark.scaleout, pytest.mark.xdist_group("scaleout-redis")]


def _layer(kind: str):
    config = channel_layers(REDIS_URL, kind)["default"]
    return import_string(config["BACKEND"])(**config["CONFIG"])


@pytest.mark.parametrize("kind", REDIS_LAYERS)
async def test_a_receive_outlasts_the_blocking_wait_and_the_old_socket_timeout(kind):
    layer = _layer(kind)
    channel = await layer.new_channel()
    try:
        receiving = asyncio.ensure_future(layer.receive(channel))
        # Longer than both 5 s limits: the receive must still be waiting, not failed.
        await asyncio.sleep(7)
        assert not receiving.done() or receiving.exception() is None
        await layer.send(channel, {"type": "ping", "n": 1})
        message = await asyncio.wait_for(receiving, timeout=10)
        assert message == {"type": "ping", "n": 1}
    finally:
        await layer.flush()  # pub/sub: also its connections
        if kind == "core":
            await layer.close_pools()


def test_the_in_memory_layer_is_the_default():
    assert channel_layers("")["default"]["BACKEND"] == "config.memory_layer.MemoryChannelLayer"
    assert not spans_processes(channel_layers(""))
    assert spans_processes(channel_layers("redis://127.0.0.1:6379/0"))
