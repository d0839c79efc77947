"""The channel layer: in memory for one process, Redis (channels-redis) for several."""

from __future__ import annotations

# channels-redis waits for messages with a blocking BZPOPMIN of 5 s, and redis-py 8 reads with a
# 5 s socket timeout by default, which tears idle consumers down. The socket timeout stays above
# the blocking wait, so a Redis that stops answering is still noticed.
REDIS_SOCKET_TIMEOUT = 30.0

# Capacity per channel: the default 100 drops frames for a busy client of a busy lobby.
CAPACITY = 1000


def channel_layers(redis_url: str) -> dict:
    """The CHANNEL_LAYERS setting: Redis at `redis_url`, or in memory when it is empty."""
    if not redis_url:
        return {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer", "CONFIG": {"capacity": CAPACITY}}}
    return {
        "default": {
            "BACKEND": "channels_redis.core.RedisChannelLayer",
            "CONFIG": {
                "hosts": [{"address": redis_url, "socket_timeout": REDIS_SOCKET_TIMEOUT}],
                "capacity": CAPACITY,
            },
        }
    }
