"""Fixtures of the fuzz suite (see support.py for what each example starts from)."""

from __future__ import annotations

import random

import pytest

from tests.fuzz.support import bounded_shrinking, deterministic, without_local_constants


@pytest.fixture(autouse=True)
def _same_examples_everywhere(monkeypatch):
    """Hypothesis mixes into its generation literals it finds in the project's imported modules, so
    the examples would change with any edit anywhere in the code and with which modules a run
    happened to import (the fuzz directory alone, or the whole suite): the same test could pass
    in one run and fail in another. Without them, the examples depend on the tests alone. And a
    failure is shrunk for a bounded time (support.bounded_shrinking)."""
    with without_local_constants(monkeypatch), bounded_shrinking(monkeypatch):
        yield


@pytest.fixture
def fuzz_env(settings, monkeypatch) -> random.Random:
    """Rate limits out of the way, clocks frozen, the lobby's randomness seeded."""
    return deterministic(monkeypatch, settings)
