"""config/collector.py: the survivors of a full collection are frozen, and handed back each period so
that garbage cycles among them are freed all the same."""

from __future__ import annotations

import gc
import weakref

import pytest

from config import collector


class Node:
    def __init__(self) -> None:
        self.other: Node | None = None


@pytest.fixture
def policy():
    """The policy alone among the collector's callbacks, and the collector as it was afterwards.

    Automatic collections are off meanwhile: the tests count collections, and allocating a few
    thousand lists may start one of generation 1 or 2 by itself (CI once counted 2 freezes for 1)."""
    saved = gc.callbacks[:]
    enabled = gc.isenabled()
    made = collector.FreezeSurvivors(full_scan_seconds=3600)
    gc.disable()
    gc.callbacks[:] = [made]
    try:
        yield made
    finally:
        gc.callbacks[:] = saved
        gc.unfreeze()
        if enabled:
            gc.enable()


def test_the_older_generations_survivors_are_frozen_and_a_period_hands_them_back(policy):
    kept = [[n] for n in range(2000)]  # objects the collector tracks, alive throughout
    gc.collect()
    assert policy.frozen == 1 and gc.get_freeze_count() >= len(kept)
    more = [[n] for n in range(2000)]
    gc.collect(0)  # the youngest generation's collection freezes nothing
    assert policy.frozen == 1
    gc.collect(1)  # the middle one's does
    assert policy.frozen == 2 and gc.get_freeze_count() >= len(kept) + len(more)
    policy.scanned_at -= 3600
    gc.collect()
    assert policy.unfrozen == 1 and gc.get_freeze_count() == 0
    gc.collect(1)  # until a full collection has walked everything, nothing is frozen again
    assert policy.frozen == 2 and gc.get_freeze_count() == 0
    gc.collect()
    assert policy.frozen == 3 and not policy.scanning and gc.get_freeze_count() >= len(kept) + len(more)


def test_a_cycle_frozen_while_alive_is_freed_by_the_periodic_full_scan(policy):
    a, b = Node(), Node()
    a.other, b.other = b, a
    gone = weakref.ref(a)
    gc.collect()  # alive: frozen
    del a, b
    gc.collect()
    assert gone() is not None  # garbage now, but frozen: not walked
    policy.scanned_at -= 3600
    gc.collect()  # the period is over: everything handed back
    gc.collect()  # and walked
    assert gone() is None
