"""The garbage collector of a server process: pauses that do not grow with the number of connections.

CPython's full collection walks every object the collector tracks, with the interpreter lock held:
every thread waits, the event loop's too, so every client's frames wait. At a thousand tables
(4,000 WebSockets) a server holds about 900,000 such objects, most of them living as long as a
connection or a game (the connections' protocol objects, the cached engines, their histories),
and a full collection, which comes about every 10 s under load, took 0.5-0.7 s and found
nothing to collect (``bench/capacity.py --steps 1000``, docs/performance.md). Most of what dies
is freed when its last reference goes, without the collector.

So here, after each full collection, what survived it is frozen (``gc.freeze``): the next full
collection walks only what was made since, and its pause follows the churn, not the size of the
process. What is frozen is never collected as a cycle; a cycle of objects frozen while alive (a
closed connection's protocol objects refer to each other) would stay. So every
``GC_FULL_SCAN_SECONDS`` (default 600) the frozen objects are handed back first: that one full
collection walks and frees everything, and costs the long pause, once per period instead of
every few seconds.
"""

from __future__ import annotations

import gc
import os
import time
from typing import Any

FULL_SCAN_SECONDS = float(os.environ.get("GC_FULL_SCAN_SECONDS", "600"))


class FreezeSurvivors:
    """A ``gc.callbacks`` entry: after each full collection, freeze its survivors, or every
    ``full_scan_seconds`` unfreeze them all for the next full collection to walk."""

    def __init__(self, full_scan_seconds: float = FULL_SCAN_SECONDS) -> None:
        self.full_scan_seconds = full_scan_seconds
        self.scanned_at = time.monotonic()
        self.frozen = 0  # full collections whose survivors were frozen
        self.unfrozen = 0  # times everything was handed back for a full scan

    def __call__(self, phase: str, info: dict[str, Any]) -> None:
        if phase != "stop" or info.get("generation") != 2:
            return
        now = time.monotonic()
        if now - self.scanned_at >= self.full_scan_seconds:
            gc.unfreeze()
            self.scanned_at = now
            self.unfrozen += 1
        else:
            gc.freeze()
            self.frozen += 1


_installed: FreezeSurvivors | None = None


def install() -> FreezeSurvivors:
    """Freeze what start-up made (it lives as long as the process) and keep freezing survivors of
    full collections, once per process."""
    global _installed
    if _installed is None:
        gc.collect()
        gc.freeze()
        _installed = FreezeSurvivors()
        gc.callbacks.append(_installed)
    return _installed
