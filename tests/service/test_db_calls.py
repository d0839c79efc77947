"""games/core/db.py: how a database call sees to its thread's connection before and after it runs
(``tidy_connections``): the health check at most once every TIDY_SECONDS, everything else at once."""

from __future__ import annotations

import time

import pytest
from django.db import OperationalError, connections

from games.core import db


@pytest.fixture
def checks(monkeypatch):
    """Every health check the connection makes (``is_usable``), counted; the connection persistent."""
    counted: list[float] = []
    connection = connections["default"]
    real = connection.is_usable

    def is_usable():
        counted.append(time.monotonic())
        return real()

    monkeypatch.setattr(connection, "is_usable", is_usable)
    monkeypatch.setattr(connection, "health_check_enabled", True)
    connection.ensure_connection()
    connection.close_at = None  # as CONN_MAX_AGE None: the tests' own setting (0) would close it each call
    return counted


def _query() -> None:
    with connections["default"].cursor() as cursor:
        cursor.execute("SELECT 1")


@pytest.mark.django_db(transaction=True)
def test_the_health_check_runs_at_most_once_a_period(checks):
    db._tidied.at = time.monotonic()  # just checked
    for _ in range(5):
        db.tidy_connections()
        _query()
        db.tidy_connections()
    assert checks == []
    db._tidied.at = time.monotonic() - db.TIDY_SECONDS  # a period has passed
    db.tidy_connections()
    _query()
    _query()
    assert len(checks) == 1


@pytest.mark.django_db(transaction=True)
def test_an_error_or_an_open_transaction_or_age_is_seen_to_at_once(checks, monkeypatch):
    connection = connections["default"]
    closes: list[bool] = []
    real_close = connection.close
    monkeypatch.setattr(connection, "close", lambda: closes.append(True) or real_close())
    db._tidied.at = time.monotonic()
    connection.errors_occurred = True  # a call failed on it: checked before the next
    db.tidy_connections()
    assert checks and connection.errors_occurred is False and closes == []
    connection.set_autocommit(False)  # left inside a transaction: closed, as Django does
    db.tidy_connections()
    assert closes == [True]
    connection.set_autocommit(True)
    connection.ensure_connection()
    connection.close_at = time.monotonic() - 1  # past CONN_MAX_AGE: closed
    db.tidy_connections()
    assert closes == [True, True]


@pytest.mark.django_db(transaction=True)
def test_a_dropped_connection_fails_one_call_and_the_next_has_a_new_one(checks):
    connection = connections["default"]
    if connection.vendor != "postgresql":
        pytest.skip("a server that drops its connections: PostgreSQL (the scale-out run)")
    db._tidied.at = time.monotonic()
    _query()
    pid = connection.connection.info.backend_pid
    other = connections.create_connection("default")
    try:
        with other.cursor() as cursor:
            cursor.execute("SELECT pg_terminate_backend(%s)", [pid])
    finally:
        other.close()
    db.tidy_connections()
    with pytest.raises(OperationalError):
        _query()
    db.tidy_connections()  # after the failed call: found broken, closed
    assert connection.connection is None
    db.tidy_connections()
    _query()
    assert connection.connection.info.backend_pid != pid
