"""The garbage collector of a server process: pauses that do not grow with the number of connections.

CPython's collections walk every object of the generations they collect, with the interpreter lock
held: every thread waits, the event loop's too, so every client's frames wait. At a thousand tables
(4,000 WebSockets) a server holds about 900,000 tracked objects, most of them living as long as a
connection or a game (the connections' protocol objects, the cached engines, their histories),
and a full collection, which came about every 10 s under load, took 0.5-0.7 s and found nothing
to collect. Freezing only those, the next full collections still walked 100,000-190,000 objects
(100-150 ms): each connection's waiting receive (a task, its coroutine, context and cells, some
forty objects) is made anew with every frame it gets, lives the seconds until the next, and so
outlives the young collections. Nearly everything that dies is freed when its last reference
goes, without the collector.

So here, after each collection of the older generations (1 and 2), what survived it is frozen
(``gc.freeze``): the next collection walks only what was made since, and its pause follows the
last second or two of churn, not the size of the process (``bench/capacity.py``,
docs/performance.md). What is frozen is never collected as a cycle: a cycle of objects frozen
while alive (a closed connection's protocol objects refer to each other) would stay. So every
``GC_FULL_SCAN_SECONDS`` (default 600) the frozen objects are handed back first: that one full
collection walks and frees everything, and costs the long pause once per period.
"""

from __future__ import annotations

import gc
import os
import time
from typing import Any

FULL_SCAN_SECONDS = float(os.environ.get("GC_FULL_SCAN_SECONDS", "600"))


class FreezeSurvivors:
    """A ``gc.callbacks`` entry: after each collection of generation 1 or 2, freeze its survivors,
    or every ``full_scan_seconds`` unfreeze them all for the next full collection to walk."""

    def __init__(self, full_scan_seconds: float = FULL_SCAN_SECONDS) -> None:
        self.full_scan_seconds = full_scan_seconds
        self.scanned_at = time.monotonic()
        self.frozen = 0  # collections whose survivors were frozen
        self.unfrozen = 0  # times everything was handed back for a full scan
        self.scanning = False  # handed back, the next full collection not yet run

    def __call__(self, phase: str, info: dict[str, Any]) -> None:
        generation = info.get("generation", 0)
        if phase != "stop" or generation < 1:
            return
        if self.scanning:  # nothing is frozen again before the full collection has walked it all
            if generation == 2:
                self.scanning = False
                self._freeze()
            return
        now = time.monotonic()
        if generation == 2 and now - self.scanned_at >= self.full_scan_seconds:
            gc.unfreeze()
            self.scanned_at = now
            self.scanning = True
            self.unfrozen += 1
        else:
            self._freeze()

    def _freeze(self) -> None:
        gc.freeze()
        self.frozen += 1


_installed: FreezeSurvivors | None = None


def install() -> FreezeSurvivors:
    """Freeze what start-up made (it lives as long as the process) and keep freezing survivors of
    the older generations' collections, once per process."""
    global _installed
    if _installed is None:
        gc.collect()
        gc.freeze()
        _installed = FreezeSurvivors()
        gc.callbacks.append(_installed)
    return _installed
