"""HAProxy in front of N ``manage.py serve`` processes sharing one PostgreSQL and one Redis.

``make cluster WORKERS=2`` runs ``python deploy/cluster.py --workers 2``: the migrations once, N
server processes ("workers", each with its own HTTP port and its own CRIBBAGEBBER, UMP and mmj
ports, all on 127.0.0.1), and HAProxy in front of them on the site's usual ports; it prints the
address to open and stays in the foreground until Ctrl-C. Tests and benchmarks use the same
``Cluster`` class (a context manager). For server processes on other machines,
``python deploy/cluster.py config --worker HOST:HTTP:CRIBBAGE:UMP:MMJ ...`` prints the HAProxy
configuration without starting anything. docs/deployment.md says why each choice was made.

This module imports nothing of Django: it only starts processes and talks to HAProxy.
"""

from __future__ import annotations

import argparse
import csv
import os
import random
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, replace
from pathlib import Path
from types import TracebackType

ROOT = Path(__file__).resolve().parents[1]
# Debian installs it in /usr/sbin, which a user's PATH may lack.
HAPROXY = shutil.which("haproxy") or "/usr/sbin/haproxy"
LINE_PROTOCOLS = ("cribbage", "ump", "mmj")
# The runtime API's name for each worker's HTTP server; every other backend tracks it.
HEALTH_BACKEND = "http"


@dataclass(frozen=True)
class Endpoint:
    """Where something listens: the HTTP/WebSocket port and the three TCP line ports (0: off)."""

    host: str
    http: int
    cribbage: int = 0
    ump: int = 0
    mmj: int = 0

    @classmethod
    def parse(cls, text: str) -> Endpoint:
        """``HOST:HTTP`` or ``HOST:HTTP:CRIBBAGE:UMP:MMJ`` (an IPv6 host in brackets), as
        ``config --worker`` takes it."""
        host, bracket, rest = text[1:].partition("]") if text.startswith("[") else ("", "", text)
        parts = rest.removeprefix(":").split(":") if bracket else rest.split(":")
        if bracket:
            parts.insert(0, host)
        if len(parts) not in (2, 5):
            raise ValueError(f"not HOST:HTTP or HOST:HTTP:CRIBBAGE:UMP:MMJ: {text!r}")
        return cls(parts[0], *(int(port) for port in parts[1:]))


_PORTS = random.SystemRandom()  # not the shared generator: a test that seeds it would make every process pick alike
# Ports handed out by this process: a port is only bound when its server starts, so a second call
# before then could draw the same one (a cluster asks for a dozen at once).
_GIVEN: set[int] = set()


def _ephemeral_floor() -> int:
    """The lowest port the kernel hands out to outgoing connections (Linux; 32768 elsewhere)."""
    try:
        return int(Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return 32768


def free_port(host: str = "127.0.0.1") -> int:
    """A port nothing listens on now, for a server started next. Chosen below the kernel's ephemeral
    range: a port from that range (what binding port 0 gives) can be taken, between this choice and
    the server's bind, by any outgoing connection, even by the very probe that waits for the server
    to listen (a connection to a port nobody listens on that draws that port as its own source
    connects to itself). Below the range only another explicit bind can take it."""
    floor = _ephemeral_floor()
    low = max(1024, floor - 12000)
    if floor - low >= 1000:
        for _ in range(100):
            port = _PORTS.randrange(low, floor)
            if port in _GIVEN:
                continue
            with socket.socket() as probe:
                try:
                    probe.bind((host, port))
                except OSError:
                    continue
                _GIVEN.add(port)
                return port
    with socket.socket() as probe:
        probe.bind((host, 0))
        return probe.getsockname()[1]


def render_config(front: Endpoint, workers: list[Endpoint], *, admin_socket: str, check_host: str = "localhost",
                  check_interval_ms: int = 1000, stats_port: int = 0) -> str:
    """The HAProxy configuration: ``front`` is where HAProxy listens, ``workers`` the server
    processes (named w0, w1, ...). A line port that is 0 on the front or on any worker is left out."""
    names = [f"w{i}" for i in range(len(workers))]

    def servers(port: str, extra: str) -> str:
        return "\n".join(f"    server {name} {w.host}:{getattr(w, port)} {extra.format(name=name)}".rstrip()
                         for name, w in zip(names, workers))

    tracked = "track " + HEALTH_BACKEND + "/{name}"
    text = f"""\
# Written by deploy/cluster.py (docs/deployment.md): change the generator, not this copy.
global
    # The runtime API (Cluster.drain, docs/deployment.md): drain, maint and ready per server.
    stats socket {admin_socket} mode 600 level admin
    # No log: in the foreground HAProxy writes its warnings (a server going DOWN, UP, into
    # drain) to stderr, which is enough; an access log would be one line per request.

defaults
    timeout connect 5s
    # A request, or a socket.io long poll (held up to its 25 s ping interval), and its answer.
    timeout client 60s
    timeout server 60s
    # An upgraded WebSocket: Daphne pings every 20 s, so a live one is never idle this long.
    timeout tunnel 1h
    timeout client-fin 10s
    # A connection refused by a process that just died is tried again at once on another one,
    # before the health check has noticed (every retry may change server: "redispatch 1").
    retries 2
    option redispatch 1

frontend site
    mode http
    bind {front.host}:{front.http}
    # The workers run with BEHIND_PROXY=1 and take the client's address, port and scheme from
    # these (manage.py serve, PROXY_HEADERS). Daphne reads the first X-Forwarded-For value, so a
    # client's own headers are replaced, never appended to.
    http-request set-header X-Forwarded-For %[src]
    http-request set-header X-Forwarded-Port %[src_port]
    http-request set-header X-Forwarded-Proto http
    # majiang-server's socket.io starts with long polling: a session's requests must all reach
    # the process that holds it (docs/deployment.md, "socket.io").
    use_backend majiang if {{ path_beg /majiang/socket.io/ }}
    use_backend websocket if {{ hdr(upgrade) -i websocket }}
    default_backend {HEALTH_BACKEND}

backend {HEALTH_BACKEND}
    mode http
    # Requests are short: each goes to the next process. This backend's checks decide whether a
    # worker is up; every other backend tracks them. The site has no health page: the favicon
    # redirect proves the process answers HTTP through Django without touching the database.
    balance roundrobin
    option httpchk
    http-check send meth GET uri /favicon.ico ver HTTP/1.1 hdr Host {check_host}
    http-check expect status 302
    default-server check inter {check_interval_ms} fall 2 rise 2
    # Which process answered: for people and tests; it names no address.
    http-response set-header X-Served-By %s
{servers("http", "")}

backend websocket
    mode http
    # WebSockets last: the process with the fewest open ones takes the next.
    balance leastconn
    http-response set-header X-Served-By %s
{servers("http", tracked)}

backend majiang
    mode http
    # One socket.io session, one process: by the MAJIANG log-in cookie that majiang-bot sends on
    # every request (engine.io's sid is made by the server, and a cookie HAProxy set would not
    # be sent back by the Node client); without one, by the client's address. Consistent
    # hashing moves only the sessions of a process that goes away.
    http-request set-var(txn.sticky) req.cook(MAJIANG)
    http-request set-var(txn.sticky) src unless {{ var(txn.sticky) -m found }}
    balance hash var(txn.sticky)
    hash-type consistent
    http-response set-header X-Served-By %s
{servers("http", tracked)}
"""
    for protocol in LINE_PROTOCOLS:
        if getattr(front, protocol) and all(getattr(w, protocol) for w in workers):
            text += f"""
frontend {protocol}
    mode tcp
    bind {front.host}:{getattr(front, protocol)}
    # A line link may be quiet for long; the worker ends one idle for TCP_IDLE_TIMEOUT_SECONDS
    # (30 min) itself, so HAProxy waits longer.
    timeout client 35m
    default_backend {protocol}

backend {protocol}
    mode tcp
    balance leastconn
    timeout server 35m
    # Each connection starts with a PROXY header naming the client (the workers run with
    # TCP_PROXY_PROTOCOL=1), so their per-address limits count clients, not this proxy.
{servers(protocol, tracked + " send-proxy")}
"""
    if stats_port:
        text += f"""
frontend stats
    mode http
    bind {front.host}:{stats_port}
    stats enable
    stats uri /
    stats refresh 5s
"""
    return text


class Cluster:
    """HAProxy in front of ``workers`` ``manage.py serve`` processes, on the database and Redis
    that ``env`` (else the environment) names in DATABASE_URL and REDIS_URL.

    ``port`` 0 (HTTP/WebSocket) is chosen free; a line port of 0 is turned off, on HAProxy and on
    every worker. ``worker_port``: the first of the workers' ports, four each (HTTP, CRIBBAGEBBER,
    UMP, mmj); 0 chooses every one free. Worker ``i`` is ``self.workers[i]``
    (its ports), ``self.names[i]`` (HAProxy's name for it, ``w<i>``) and ``self.processes[i]``."""

    def __init__(self, workers: int = 2, *, host: str = "127.0.0.1", port: int = 8000, cribbage_port: int = 7321,
                 ump_port: int = 7322, mmj_port: int = 7323, worker_port: int = 8100, stats_port: int = 0,
                 run_dir: Path | None = None, env: dict[str, str] | None = None, check_interval: float = 1.0,
                 haproxy: str = HAPROXY) -> None:
        def pick(wanted: int) -> int:
            return wanted if wanted else free_port(host)

        self.front = Endpoint(host, pick(port), *(pick(p) if p else 0 for p in (cribbage_port, ump_port, mmj_port)))
        self.stats_port = pick(stats_port) if stats_port else 0
        self.workers: list[Endpoint] = []
        for i in range(workers):
            ports = [worker_port + 4 * i + k if worker_port else free_port() for k in range(4)]
            self.workers.append(replace(Endpoint("127.0.0.1", *ports),
                                        **{p: 0 for p in LINE_PROTOCOLS if not getattr(self.front, p)}))
        self.names = [f"w{i}" for i in range(workers)]
        self.processes: list[subprocess.Popen[bytes] | None] = [None] * workers
        self.haproxy: subprocess.Popen[bytes] | None = None
        self.haproxy_path = haproxy
        self.check_interval = check_interval
        self.run_dir = Path(run_dir) if run_dir else Path(tempfile.mkdtemp(prefix="cluster-"))
        self.admin_socket = self.run_dir / "haproxy.sock"
        # The workers' settings: the caller's, then what this layout needs. The line ports in the
        # environment are the balancer's, the ones bots are told (the command line says which
        # ones each worker listens on).
        self.env = {**os.environ, **(env or {}), "BEHIND_PROXY": "1", "TCP_PROXY_PROTOCOL": "1",
                    "PYTHONUNBUFFERED": "1",
                    "CRIBBAGE_PORT": str(self.front.cribbage), "UMP_PORT": str(self.front.ump),
                    "MMJ_PORT": str(self.front.mmj)}

    @property
    def url(self) -> str:
        return f"http://{self.front.host}:{self.front.http}/"

    # -- starting and stopping ----------------------------------------------------------------

    def __enter__(self) -> Cluster:
        self.start()
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        self.stop()

    def start(self) -> None:
        """Migrate once, start every worker, then HAProxy; return when HAProxy sees all of them up."""
        self.run_dir.mkdir(parents=True, exist_ok=True)
        try:
            migrate = subprocess.run([sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"], cwd=ROOT,
                                     env=self.env, capture_output=True, text=True, timeout=300)
            if migrate.returncode:
                raise RuntimeError(f"manage.py migrate failed:\n{migrate.stderr}")
            for i in range(len(self.workers)):
                self._spawn(i)  # all at once: each takes seconds to import Django
            for i in range(len(self.workers)):
                self._wait_listening(i)
            self._start_haproxy()
            for i in range(len(self.workers)):
                self.wait_status(i, "UP")
        except BaseException:
            self.stop()
            raise

    def stop(self) -> None:
        """HAProxy first (nothing new arrives), then every worker with SIGTERM, all at once."""
        if self.haproxy is not None:
            _end(self.haproxy, 10)
        stopping = [threading.Thread(target=_end, args=(p, 20)) for p in self.processes if p is not None]
        for thread in stopping:
            thread.start()
        for thread in stopping:
            thread.join()

    def start_worker(self, i: int, timeout: float = 60) -> None:
        """Start worker ``i`` again (after ``kill``, ``drain`` or a crash) and wait until HAProxy
        sends it traffic."""
        process = self.processes[i]
        if process is not None and process.poll() is None:
            raise RuntimeError(f"worker {self.names[i]} is running")
        self._spawn(i)
        self._wait_listening(i, timeout)
        self.admin(f"set server {HEALTH_BACKEND}/{self.names[i]} state ready")
        self.wait_status(i, "UP", timeout)

    def kill(self, i: int) -> None:
        """SIGKILL worker ``i``, as a crash: nothing of it shuts down, HAProxy finds out by itself."""
        process = self.processes[i]
        assert process is not None
        process.kill()
        process.wait(10)

    def drain(self, i: int, grace: float = 30.0, settle: float = 2.0) -> None:
        """Stop worker ``i`` without losing what it is doing:

        1. HAProxy gives it nothing new (state ``drain``, which every backend tracking its HTTP
           server inherits);
        2. the HTTP requests it is answering finish (at most ``grace`` seconds);
        3. HAProxy closes its long-lived links (WebSockets, socket.io, TCP lines) while it still
           runs: it finishes what they had sent (a move in flight is committed and its pushes go
           out through Redis) and lets go of them as after any disconnect; their clients reconnect
           through HAProxy to another worker and resume (docs/deployment.md);
        4. ``settle`` seconds for that work (a move takes milliseconds), then maintenance (its
           health checks stop) and SIGTERM.

        A SIGTERM alone makes Daphne cancel the links' handlers mid-move: the move's database work
        still commits in its thread, but its pushes race the end of the event loop."""
        name = self.names[i]
        self.admin(f"set server {HEALTH_BACKEND}/{name} state drain")
        deadline = time.monotonic() + grace
        while self.sessions(i, HEALTH_BACKEND) and time.monotonic() < deadline:
            time.sleep(0.05)
        for row in self.stats():
            if row["svname"] == name and int(row["scur"] or 0):
                self.admin(f"shutdown sessions server {row['pxname']}/{name}")
        time.sleep(settle)
        self.admin(f"set server {HEALTH_BACKEND}/{name} state maint")
        process = self.processes[i]
        if process is not None:
            _end(process, 20)

    def rolling_restart(self, grace: float = 30.0) -> None:
        """Drain and start again each worker in turn: the site stays up throughout."""
        for i in range(len(self.workers)):
            self.drain(i, grace)
            self.start_worker(i)

    # -- HAProxy's runtime API ------------------------------------------------------------------

    def admin(self, command: str) -> str:
        """One command on HAProxy's admin socket, and its answer."""
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as connection:
            connection.settimeout(10)
            connection.connect(str(self.admin_socket))
            connection.sendall(command.encode() + b"\n")
            answer = b""
            while chunk := connection.recv(65536):
                answer += chunk
        text = answer.decode()
        if text.strip() and command.startswith(("set ", "shutdown ")):
            raise RuntimeError(f"HAProxy refused {command!r}: {text.strip()}")
        return text

    def stats(self) -> list[dict[str, str]]:
        """``show stat``: one row per frontend, backend and server (``pxname``, ``svname``,
        ``status``, ``scur`` for current sessions, ...)."""
        lines = self.admin("show stat").lstrip("# ").splitlines()
        return list(csv.DictReader(line for line in lines if line))

    def status(self, i: int) -> str:
        """Worker ``i`` as HAProxy sees it: ``UP``, ``DOWN``, ``DRAIN``, ``MAINT``, ``UP 1/2``..."""
        row = next(r for r in self.stats() if r["pxname"] == HEALTH_BACKEND and r["svname"] == self.names[i])
        return row["status"]

    def sessions(self, i: int, backend: str | None = None) -> int:
        """Connections HAProxy has open to worker ``i`` now, in one backend or in all."""
        return sum(int(r["scur"] or 0) for r in self.stats()
                   if r["svname"] == self.names[i] and backend in (None, r["pxname"]))

    def wait_status(self, i: int, wanted: str, timeout: float = 60) -> None:
        deadline = time.monotonic() + timeout
        while (status := self.status(i)) != wanted:
            if time.monotonic() > deadline:
                raise TimeoutError(f"{self.names[i]} is {status}, not {wanted}, after {timeout} s")
            time.sleep(0.05)

    # -- the processes ----------------------------------------------------------------------------

    def _spawn(self, i: int) -> None:
        w = self.workers[i]
        with (self.run_dir / f"{self.names[i]}.log").open("ab") as log:
            # Its own session: a Ctrl-C in the terminal reaches this script, which stops the
            # processes in order, not every process at once.
            self.processes[i] = subprocess.Popen(
                [sys.executable, "manage.py", "serve", "--host", w.host, "--port", str(w.http),
                 "--cribbage-port", str(w.cribbage), "--ump-port", str(w.ump), "--mmj-port", str(w.mmj),
                 # mjai's port is not behind the balancer yet: off, or every worker would want 11600.
                 "--mjai-port", "0",
                 # No access log: HAProxy's health checks would fill it.
                 "-v", "0"],
                cwd=ROOT, env=self.env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)

    def _wait_listening(self, i: int, timeout: float = 60) -> None:
        w, process = self.workers[i], self.processes[i]
        assert process is not None
        deadline = time.monotonic() + timeout
        for port in (w.cribbage, w.ump, w.mmj, w.http):  # HTTP last: it listens first
            while port:
                if process.poll() is not None:
                    raise RuntimeError(f"{self.names[i]} exited with {process.returncode}:\n{self.log_tail(i)}")
                try:
                    socket.create_connection((w.host, port), timeout=1).close()
                    break
                except OSError:
                    if time.monotonic() > deadline:
                        raise TimeoutError(f"{self.names[i]} does not listen on {port}:\n{self.log_tail(i)}") from None
                    time.sleep(0.05)

    def _start_haproxy(self) -> None:
        check_host = next((h for h in self.env.get("ALLOWED_HOSTS", "localhost").split(",")
                           if h.strip() and "*" not in h and not h.strip().startswith(".")), "localhost")
        config = self.run_dir / "haproxy.cfg"
        config.write_text(render_config(self.front, self.workers, admin_socket=str(self.admin_socket),
                                        check_host=check_host.strip(),
                                        check_interval_ms=round(self.check_interval * 1000),
                                        stats_port=self.stats_port))
        with (self.run_dir / "haproxy.log").open("ab") as log:
            self.haproxy = subprocess.Popen([self.haproxy_path, "-db", "-f", str(config)], stdout=log,
                                            stderr=subprocess.STDOUT, start_new_session=True)
        deadline = time.monotonic() + 20
        while not self.admin_socket.exists() or not _listening(self.front.host, self.front.http):
            if self.haproxy.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"haproxy did not start:\n{(self.run_dir / 'haproxy.log').read_text()}")
            time.sleep(0.05)

    def log_tail(self, i: int, size: int = 3000) -> str:
        return (self.run_dir / f"{self.names[i]}.log").read_text(errors="replace")[-size:]


def _listening(host: str, port: int) -> bool:
    try:
        socket.create_connection((host, port), timeout=1).close()
        return True
    except OSError:
        return False


def _end(process: subprocess.Popen[bytes], timeout: float) -> None:
    """SIGTERM, and SIGKILL if it has not ended within ``timeout`` seconds."""
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(timeout)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(10)


# -- the command line -------------------------------------------------------------------------------


def _front_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--host", default="127.0.0.1", help="address HAProxy listens on")
    parser.add_argument("--port", type=int, default=8000, help="HTTP/WebSocket port")
    parser.add_argument("--cribbage-port", type=int, default=7321, help="CRIBBAGEBBER TCP port; 0: off")
    parser.add_argument("--ump-port", type=int, default=7322, help="UMP TCP port; 0: off")
    parser.add_argument("--mmj-port", type=int, default=7323, help="mmj TCP port; 0: off")
    parser.add_argument("--stats-port", type=int, default=0, help="HAProxy's statistics page; 0: none")


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv or argv[0] not in ("run", "config", "-h", "--help"):
        argv.insert(0, "run")
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    run = commands.add_parser("run", help="workers and HAProxy on this machine, until Ctrl-C (the default)")
    _front_options(run)
    run.add_argument("--workers", type=int, default=2, help="server processes")
    run.add_argument("--worker-port", type=int, default=8100, help="first worker port (four per worker)")
    run.add_argument("--run-dir", type=Path, default=None, help="haproxy.cfg, its socket and the logs")
    config = commands.add_parser("config", help="print the HAProxy configuration for workers elsewhere")
    _front_options(config)
    config.add_argument("--worker", type=Endpoint.parse, action="append", required=True,
                        metavar="HOST:HTTP:CRIBBAGE:UMP:MMJ", help="a worker's address and ports (repeat)")
    config.add_argument("--admin-socket", default="/run/haproxy/admin.sock")
    config.add_argument("--check-host", default="localhost", help="a name in the workers' ALLOWED_HOSTS")
    args = parser.parse_args(argv)
    if args.command == "config":
        front = Endpoint(args.host, args.port, args.cribbage_port, args.ump_port, args.mmj_port)
        sys.stdout.write(render_config(front, args.worker, admin_socket=args.admin_socket,
                                       check_host=args.check_host, check_interval_ms=2000,
                                       stats_port=args.stats_port))
        return 0
    return _run(args)


def _run(args: argparse.Namespace) -> int:
    for name in ("DATABASE_URL", "REDIS_URL"):
        if not os.environ.get(name):
            sys.stderr.write(f"{name} is not set: the workers must share one PostgreSQL and one Redis\n")
            return 2
    cluster = Cluster(args.workers, host=args.host, port=args.port, cribbage_port=args.cribbage_port,
                      ump_port=args.ump_port, mmj_port=args.mmj_port, worker_port=args.worker_port,
                      stats_port=args.stats_port, run_dir=args.run_dir)
    restart = threading.Event()
    # SIGTERM ends it as Ctrl-C does (SIGINT too, even when started where it was ignored, as in a
    # background job); SIGHUP restarts the workers one at a time.
    signal.signal(signal.SIGINT, signal.default_int_handler)
    signal.signal(signal.SIGTERM, signal.default_int_handler)
    signal.signal(signal.SIGHUP, lambda *_: restart.set())
    try:
        with cluster:
            front = cluster.front
            lines = ", ".join(f"{name} tcp {getattr(front, p)}" for p, name in
                              zip(LINE_PROTOCOLS, ("CRIBBAGEBBER", "UMP", "mmj")) if getattr(front, p))
            print(f"Open {cluster.url} — HAProxy in front of {len(cluster.workers)} workers "
                  f"({', '.join(f'{n} :{w.http}' for n, w in zip(cluster.names, cluster.workers))})"
                  f"{'; ' + lines if lines else ''}.", flush=True)
            if cluster.stats_port:
                print(f"HAProxy statistics: http://{front.host}:{cluster.stats_port}/", flush=True)
            print(f"Configuration and logs in {cluster.run_dir}; kill -HUP {os.getpid()} restarts the "
                  f"workers one by one; Ctrl-C stops everything.", flush=True)
            while True:
                try:
                    if restart.wait(1):
                        restart.clear()
                        print("rolling restart ...", flush=True)
                        cluster.rolling_restart()
                        print("rolling restart done", flush=True)
                    for i, process in enumerate(cluster.processes):
                        if process is not None and process.poll() is not None:
                            # A crashed worker is started again; HAProxy sent its clients elsewhere meanwhile.
                            print(f"{cluster.names[i]} exited with {process.returncode}; starting it again",
                                  flush=True)
                            cluster.start_worker(i)
                except (RuntimeError, TimeoutError) as error:
                    # A worker that fails to start is tried again on the next round; the others serve.
                    print(f"{error}", flush=True)
    except KeyboardInterrupt:
        print("stopped", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
