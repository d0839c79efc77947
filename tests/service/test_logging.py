"""Each request warning (404, 405) is logged once, with DEBUG on or off.

Django's default logging gives its "django" logger a console handler of its own that is on when
DEBUG is, and lets the logger propagate to the root's console handler too: each warning was printed
twice. ``config/settings.py``'s LOGGING names the logger without handlers. Checked twice: the
project's logging set-up applied in this process (with the handlers writing into a buffer) under
the Django test client, and ``manage.py serve`` (what ``make run`` starts) as a child process.
"""

from __future__ import annotations

import contextlib
import io
import logging
import urllib.error
import urllib.request
from collections.abc import Iterator

import pytest
from django.conf import settings
from django.utils.log import configure_logging

from tests.served import serve

MISSING = "/no-such-page-for-the-log-test/"
NOT_ALLOWED = "/accounts/logout/"  # POST only: a GET is answered 405


@contextlib.contextmanager
def project_logging_into(buffer: io.StringIO) -> Iterator[None]:
    """Apply Django's logging set-up with the project's LOGGING, as ``django.setup()`` does, while
    stderr is ``buffer`` (every console handler is made then, on that stream); put the loggers
    back as they were afterwards."""
    names = ("", "django", "django.request", "django.server", "py.warnings")
    saved = {name: (logging.getLogger(name), list(logging.getLogger(name).handlers),
                    logging.getLogger(name).level, logging.getLogger(name).propagate) for name in names}
    try:
        with contextlib.redirect_stderr(buffer):
            configure_logging(settings.LOGGING_CONFIG, settings.LOGGING)
        yield
    finally:
        for logger, handlers, level, propagate in saved.values():
            logger.handlers[:] = handlers
            logger.setLevel(level)
            logger.propagate = propagate


@pytest.mark.django_db
@pytest.mark.parametrize("debug", [False, True])
def test_a_404_and_a_405_are_logged_once_each(client, settings, debug):
    settings.DEBUG = debug  # the default "django" handler looked at DEBUG when each record came
    buffer = io.StringIO()
    with project_logging_into(buffer):
        assert client.get(MISSING).status_code == 404
        assert client.get(NOT_ALLOWED).status_code == 405
    lines = buffer.getvalue().splitlines()
    assert lines.count(f"Not Found: {MISSING}") == 1, lines
    assert lines.count(f"Method Not Allowed (GET): {NOT_ALLOWED}") == 1, lines


MIGRATE = """
import django
django.setup()
from django.core.management import call_command
call_command("migrate", verbosity=0)
"""


def status_of(url: str) -> int:
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            return response.status
    except urllib.error.HTTPError as error:
        return error.code


@pytest.mark.own_server
def test_the_served_process_logs_each_warning_once(tmp_path, monkeypatch):
    # DEBUG on: the set-up under which the server printed each warning twice.
    monkeypatch.setenv("DEBUG", "1")
    with serve(tmp_path, MIGRATE, cribbage=False) as served:
        base = f"http://127.0.0.1:{served.http_port}"
        assert status_of(base + MISSING) == 404
        assert status_of(base + NOT_ALLOWED) == 405
    lines = served.log.read_text().splitlines()
    assert lines.count(f"Not Found: {MISSING}") == 1, lines
    assert lines.count(f"Method Not Allowed (GET): {NOT_ALLOWED}") == 1, lines
    # Daphne's access log is a separate line of its own, once per request.
    assert sum(f'"GET {MISSING}" 404' in line for line in lines) == 1, lines
