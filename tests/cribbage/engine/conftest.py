"""The cribbage engine tests are pure Python: they need no database and no Django app state.

``tests/conftest.py`` has an autouse fixture that clears the platform's engine cache, which
imports the Django side of the project. Overriding it here keeps these tests independent of it.
"""

import pytest


@pytest.fixture(autouse=True)
def _fresh_engine_cache():
    yield
