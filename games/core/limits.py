"""Rate limits, shared by every transport (docs/security.md; failed log-ins: accounts/login_limits.py).

Counts live in Django's cache, so every server process of a scaled-out site shares them when the
cache is Redis (``REDIS_URL``); the embedded default keeps them in the process. A limit is a fixed
window: at most ``limit`` hits per ``window`` seconds per key. Each transport answers a refusal in
its own terms from the ``RateLimited`` error: HTTP 429 with ``Retry-After``, an ``Error`` frame,
a CRIBBAGEBBER warning.
"""

from __future__ import annotations

import math
import time

from django.conf import settings
from django.core.cache import cache

from games.core.errors import GameError


class RateLimited(GameError):
    """Too many requests of one kind; nothing was done. ``retry_after``: seconds to wait."""

    status = 429

    def __init__(self, reason: str, retry_after: float) -> None:
        self.retry_after = max(1, math.ceil(retry_after))
        super().__init__("RateLimited", f"{reason}; try again in {self.retry_after} s")


def hit(kind: str, key: str | int, limit: int, window: float) -> float:
    """Count one hit; 0 if it is within the limit, else the seconds until the window ends."""
    now = time.time()
    start = int(now // window * window)
    name = f"limit:{kind}:{key}:{start}"
    # add() is atomic (only the first caller creates the counter); incr() is atomic on Redis and
    # under the local-memory cache's lock.
    cache.add(name, 0, timeout=int(window) + 1)
    try:
        count = cache.incr(name)
    except ValueError:  # expired between add and incr
        cache.add(name, 1, timeout=int(window) + 1)
        count = 1
    return 0.0 if count <= limit else start + window - now


def check(kind: str, key: str | int, limit: int, window: float, reason: str) -> None:
    """``hit``, raising ``RateLimited`` past the limit."""
    wait = hit(kind, key, limit, window)
    if wait:
        raise RateLimited(reason, wait)


def chat(user_id: int) -> None:
    """A chat message, over any transport."""
    check("chat", user_id, settings.CHAT_MESSAGES_PER_MINUTE, 60, "too many chat messages")


class Bucket:
    """A connection's own allowance of frames (or lines): ``rate`` per second on average, up to
    ``burst`` at once. In memory: it lives and dies with the connection."""

    def __init__(self, rate: float | None = None, burst: int | None = None) -> None:
        self.rate = float(settings.FRAMES_PER_SECOND if rate is None else rate)
        self.burst = float(settings.FRAME_BURST if burst is None else burst)
        self.tokens = self.burst
        self.stamp = time.monotonic()

    def take(self, amount: float = 1) -> float:
        """0 if a frame (or ``amount`` of what the bucket counts, bytes say) may be handled now, else
        the seconds until it may."""
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= amount:
            self.tokens -= amount
            return 0.0
        return (amount - self.tokens) / self.rate

    def credit(self, frames: int = 1) -> None:
        """The server sent ``frames`` that each want an answer (Majiang's protocol answers every
        message): their answers are paid for in advance, up to ``burst``. A client that answers at
        the server's pace (three house bots play as fast as it replies) is never refused for it;
        only what it sends unasked counts against the rate."""
        self.tokens = min(self.burst, self.tokens + frames)


def connections(open_now: int) -> None:
    """A user opening one more connection while ``open_now`` are open."""
    if open_now >= settings.MAX_CONNECTIONS_PER_USER:
        raise GameError("TooManyConnections",
                        f"at most {settings.MAX_CONNECTIONS_PER_USER} connections per user are open at once")
