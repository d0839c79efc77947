"""Browser tests: Daphne serves the whole project from a child process and Playwright drives
Debian's Chromium against it.

The child process must see the test database, so it cannot be SQLite's in-memory database:
when browser tests are selected, the test database becomes a file (unless SQLITE_TEST_PATH
or a non-SQLite DATABASE_URL already says where it lives).
"""

from __future__ import annotations

import functools
import multiprocessing
import os
import shutil
import tempfile
from pathlib import Path

import pytest
from daphne.testing import DaphneProcess

CHROMIUM = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
ARTIFACTS = Path(__file__).parent / "artifacts"
SERVER_START_TIMEOUT = 30


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    # trylast: runs after -m/-k deselection, so a run that skips browser tests keeps the
    # faster in-memory database.
    if not any(item.get_closest_marker("browser") for item in items):
        return
    from django.conf import settings

    database = settings.DATABASES["default"]
    if "sqlite" not in database["ENGINE"]:  # Django's backend, or config/sqlite's
        return
    test = database.setdefault("TEST", {})
    name = test.get("NAME")
    if name and ":memory:" not in str(name) and "mode=memory" not in str(name):
        return
    folder = tempfile.mkdtemp(prefix="browser-tests-")
    # The connection object shares this dict, so pytest-django's database setup sees the file name.
    test["NAME"] = os.path.join(folder, "test.sqlite3")
    config.add_cleanup(lambda: shutil.rmtree(folder, ignore_errors=True))


def _application(database_name: str):
    """Runs in the Daphne child: the project's ASGI application on the test database."""
    from django.conf import settings

    from config.asgi import application  # sets Django up; no connection is opened yet

    settings.DATABASES["default"]["NAME"] = database_name
    return application


class SpawnedDaphneProcess(DaphneProcess):
    """Daphne in a freshly started interpreter rather than a fork of pytest's.

    A fork would inherit state that does not survive it: asgiref's thread-pool executors
    believe their worker threads still exist, so once an async test has run in this process the
    child never runs sync code (session loading, the ORM) and every WebSocket handshake hangs.
    """

    _start_method = "spawn"
    _Popen = staticmethod(multiprocessing.get_context("spawn").Process._Popen)

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        # Shared objects must come from the same (spawn) context as the process.
        spawn = multiprocessing.get_context("spawn")
        self.port = spawn.Value("i", 0)
        self.ready = spawn.Event()
        self.errors = spawn.Queue()


@pytest.fixture
def live_server_url(transactional_db):
    """Daphne in a child process on a free port, serving the real ASGI application."""
    from django.db import connections

    connection = connections["default"]
    if connection.vendor == "sqlite" and connection.is_in_memory_db():
        pytest.fail("browser tests need a file database; run them with SQLITE_TEST_PATH set")
    # The test database's name (set up by pytest-django by now) is what the child must open.
    application = functools.partial(_application, connection.settings_dict["NAME"])
    process = SpawnedDaphneProcess("127.0.0.1", application)
    process.start()
    try:
        if not process.ready.wait(SERVER_START_TIMEOUT):
            detail = "" if process.errors.empty() else process.errors.get(False)[1]
            raise RuntimeError(f"Daphne did not start:\n{detail}")
        yield f"http://127.0.0.1:{process.port.value}"
    finally:
        process.terminate()
        process.join(10)


@pytest.fixture
def browser(monkeypatch):
    """Headless Debian Chromium. Never a downloaded browser: executable_path is fixed."""
    # `make test` installs Debian's chromium; its absence is a broken set-up, not a reason to skip.
    assert Path(CHROMIUM).exists(), f"no Chromium at {CHROMIUM}: run `make test`, which installs it"
    from playwright import sync_api
    # Playwright's sync API keeps an event loop running in this thread; Django's ORM would
    # otherwise refuse to be called from it (e.g. by the database flush after the test).
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    with sync_api.sync_playwright() as playwright:
        instance = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        try:
            yield instance
        finally:
            instance.close()


@pytest.fixture
def artifacts() -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS
