"""The server `make run` starts (``manage.py serve``) as a child process, for tests that need the
real thing: Daphne's sockets, the CRIBBAGEBBER TCP port, one process serving every transport.

The child has its own SQLite file, key file and the in-memory channel layer (the embedded default),
whatever configuration the suite itself runs on."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from deploy.cluster import free_port as cluster_free_port

ROOT = Path(__file__).resolve().parents[1]


def free_port() -> int:
    """A free port for a server this test starts (below the ephemeral range: deploy/cluster.py says why)."""
    return cluster_free_port()


def wait_for_port(port: int, process: subprocess.Popen, log: Path, timeout: float = 20) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        assert process.poll() is None, f"manage.py serve exited:\n{log.read_text()}"
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            time.sleep(0.1)
    pytest.fail(f"nothing listens on {port}:\n{log.read_text()}")


@dataclass
class Served:
    http_port: int
    tcp_port: int | None  # None: CRIBBAGEBBER over TCP turned off
    setup_output: str  # what the set-up script printed (tokens, ids)
    process: subprocess.Popen
    log: Path
    ump_port: int | None = None  # None: UMP over TCP turned off
    mmj_port: int | None = None  # None: mmj over TCP turned off
    mjai_port: int | None = None  # None: mjai over TCP turned off


@contextmanager
def serve(tmp_path: Path, setup_script: str, *, cribbage: bool = True, ump: bool = False, mmj: bool = False,
          mjai: bool = False, quiet: bool = False, again: Served | None = None,
          env: dict[str, str] | None = None) -> Iterator[Served]:
    """Run ``setup_script`` (Python, against the child's fresh database), then ``manage.py serve``
    until the block ends; then SIGTERM, as an operator stops it (``process.returncode`` tells how
    it ended). ``again``: a server of the same ``tmp_path`` (killed or stopped) whose database and
    ports the new one takes over, as a restarted server does; ``setup_script`` then runs against the
    database as it was left. ``env``: settings for the child (``{"LOGIN_TIMEOUT_SECONDS": "1"}``)."""
    settings_env = env or {}
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
    env |= {"SQLITE_PATH": str(tmp_path / "db.sqlite3"), "DJANGO_SETTINGS_MODULE": "config.settings",
            "SECRET_KEY_FILE": str(tmp_path / "secret")} | settings_env
    setup = subprocess.run([sys.executable, "-c", setup_script], cwd=ROOT, env=env, capture_output=True,
                           text=True, timeout=120)
    assert setup.returncode == 0, setup.stderr
    if again is not None:
        http_port, tcp_port, ump_port, mmj_port = again.http_port, again.tcp_port, again.ump_port, again.mmj_port
        mjai_port = again.mjai_port
    else:
        http_port = free_port()
        tcp_port = free_port() if cribbage else None
        ump_port = free_port() if ump else None
        mmj_port = free_port() if mmj else None
        mjai_port = free_port() if mjai else None
    log = tmp_path / ("serve.log" if again is None else f"serve-{again.process.pid}.log")
    with log.open("wb") as output:
        process = subprocess.Popen(
            [sys.executable, "manage.py", "serve", "--host", "127.0.0.1", "--port", str(http_port),
             "--cribbage-port", str(tcp_port or 0), "--ump-port", str(ump_port or 0), "--mmj-port", str(mmj_port or 0),
             "--mjai-port", str(mjai_port or 0),
             *(["-v", "0"] if quiet else [])],
            cwd=ROOT, env=env, stdout=output, stderr=subprocess.STDOUT)
    try:
        for line_port in (tcp_port, ump_port, mmj_port, mjai_port):
            if line_port is not None:
                wait_for_port(line_port, process, log)
        wait_for_port(http_port, process, log)
        yield Served(http_port, tcp_port, setup.stdout, process, log, ump_port, mmj_port, mjai_port)
    finally:
        stop(process)


def stop(process: subprocess.Popen) -> None:
    """Ask a child process to end, and kill it if it has not within 10 s."""
    process.terminate()
    try:
        process.wait(10)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(10)


@dataclass(frozen=True)
class SiteSpec:
    """How a test module's server child is set up (the ``site`` fixture, tests/conftest.py):
    ``setup`` runs against its fresh database; ``cribbage``, ``ump``, ``mmj``, ``mjai``: which line ports
    it opens; ``env``: settings for the child; ``node``: the module also runs Node.js clients or
    tools of bench/majiang (skipped without Node.js and npm; ``npm ci`` there first)."""

    setup: str
    name: str = "site"
    cribbage: bool = False
    ump: bool = False
    mmj: bool = False
    mjai: bool = False
    env: dict[str, str] = field(default_factory=dict)
    node: bool = False


@dataclass
class Site:
    """A running server child (``served``), the last line its set-up script printed, read as JSON
    (``setup``: tokens, ids), and its folder (``path``: its SQLite file, its log)."""

    served: Served
    setup: Any
    path: Path

    @property
    def port(self) -> int:
        return self.served.http_port

    @property
    def database(self):
        """Reads of the child's SQLite file (tests/riichi/transport/link.py)."""
        from tests.riichi.transport.link import Database

        return Database(self.path / "db.sqlite3")


@contextmanager
def served_site(tmp_path_factory: pytest.TempPathFactory, spec: SiteSpec) -> Iterator[Site]:
    """``manage.py serve`` in a fresh folder, set up as ``spec`` says, until the block ends."""
    if spec.node:
        from tests.riichi.reference.corpus import ensure_node_modules, npm_missing_reason

        reason = npm_missing_reason()
        if reason:
            pytest.skip(reason)
        ensure_node_modules()
    path = tmp_path_factory.mktemp(spec.name)
    with serve(path, spec.setup, cribbage=spec.cribbage, ump=spec.ump, mmj=spec.mmj, mjai=spec.mjai, quiet=True,
               env=spec.env) as served:
        yield Site(served, json.loads(served.setup_output.strip().splitlines()[-1]), path)
