"""The record tests are pure Python but for the management command (which needs no database).

``tests/conftest.py`` has an autouse fixture that clears the platform's engine cache, which
imports the Django side of the project; as in ``tests/cribbage``, these tests do without it.
"""

import pytest


@pytest.fixture(autouse=True)
def _fresh_engine_cache():
    yield
