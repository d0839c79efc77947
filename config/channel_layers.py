"""The channel layer: in memory for one process, Redis for several (our fan-out layer over Redis
pub/sub by default, or either of channels-redis's)."""

from __future__ import annotations

# channels-redis waits for messages with a blocking BZPOPMIN of 5 s, and redis-py 8 reads with a
# 5 s socket timeout by default, which tears idle consumers down. The socket timeout stays above
# the blocking wait, so a Redis that stops answering is still noticed.
REDIS_SOCKET_TIMEOUT = 30.0

# Capacity per channel: the default 100 drops frames for a busy client of a busy lobby.
CAPACITY = 1000

# Channels' InMemoryChannelLayer scans every channel on each receive and group_send; this one does
# not (config/memory_layer.py, docs/dependencies.md).
IN_MEMORY_BACKEND = "config.memory_layer.MemoryChannelLayer"


# Redis pub/sub fanned out in each process, one connection, no reply waited for
# (config/redis_layer.py, docs/dependencies.md).
FANOUT_BACKEND = "config.redis_layer.FanoutChannelLayer"

REDIS_LAYERS = ("fanout", "core", "pubsub")
DEFAULT_REDIS_LAYER = "fanout"


def channel_layers(redis_url: str, kind: str | None = None) -> dict:
    """The CHANNEL_LAYERS setting: Redis at `redis_url`, or in memory when it is empty. ``kind``
    picks the Redis layer: ``fanout`` (the default, when ``kind`` is empty: config/redis_layer.py,
    Redis pub/sub fanned out in each process), or channels-redis's ``core`` (RedisChannelLayer: a
    list per channel, groups as sorted sets) or ``pubsub`` (RedisPubSubChannelLayer: Redis
    PUBLISH, nothing queued in Redis); docs/dependencies.md says which is used and why."""
    if not redis_url:
        return {"default": {"BACKEND": IN_MEMORY_BACKEND, "CONFIG": {"capacity": CAPACITY}}}
    kind = kind or DEFAULT_REDIS_LAYER
    if kind not in REDIS_LAYERS:
        raise ValueError(f"REDIS_CHANNEL_LAYER is one of {REDIS_LAYERS}, not {kind!r}")
    if kind == "fanout":
        return {
            "default": {
                "BACKEND": FANOUT_BACKEND,
                "CONFIG": {
                    "hosts": [{"address": redis_url, "socket_timeout": REDIS_SOCKET_TIMEOUT}],
                    "capacity": CAPACITY,
                },
            }
        }
    if kind == "pubsub":
        return {
            "default": {
                "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
                "CONFIG": {"hosts": [{"address": redis_url, "socket_timeout": REDIS_SOCKET_TIMEOUT}]},
            }
        }
    return {
        "default": {
            "BACKEND": "channels_redis.core.RedisChannelLayer",
            "CONFIG": {
                "hosts": [{"address": redis_url, "socket_timeout": REDIS_SOCKET_TIMEOUT}],
                "capacity": CAPACITY,
            },
        }
    }


def spans_processes(layers: dict) -> bool:
    """Whether the configured layer connects several server processes (Redis), or only one."""
    return "redis" in layers["default"]["BACKEND"].lower()
