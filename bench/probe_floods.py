"""The two floods of the security probe, against the server ``make run`` starts (docs/security.md).

    .venv/bin/python bench/probe_floods.py [--megabytes 40] [--connections 500] [--frames 300]

(a) CRIBBAGEBBER TCP before login: ``--megabytes`` of ``ME:`` lines are written to the port of a
    fresh ``manage.py serve`` (its own SQLite file, in-memory layer) by a client that never reads,
    for as long as the server takes them (10 s at most). Reported: the server's resident memory
    (VmRSS) before, at the end, and its growth; the bytes the server took off the socket; and, after
    the client leaves, whether the server still answers.
(b) One user opens ``--connections`` bot WebSockets (the cap keeps 20) and floods chat with
    ``--frames`` frames on each kept one, while another user's chat round trip is sampled.
    Reported: the round trips before and during the flood (max and median), and how many
    connections were kept.

No peer implementation exists to compare with: the figures are absolute. The last line is one JSON
object with them.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import websockets

ROOT = Path(__file__).resolve().parents[1]

SETUP = """
import django
django.setup()
from django.core.management import call_command
from accounts.models import User
from accounts.tokens import token_for
call_command("migrate", verbosity=0)
for name in ("flooder", "bob"):
    print(token_for(User.objects.create_user(username=name, password=None)))
"""


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS")


def wait_for(port: int, process: subprocess.Popen) -> None:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError("manage.py serve exited")
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            time.sleep(0.1)
    raise TimeoutError(f"nothing listens on {port}")


def tcp_flood(port: int, pid: int, megabytes: int) -> dict:
    before = rss_mb(pid)
    line = b"ME:" + b"x" * 500 + b"\n"
    total = megabytes * 1024 * 1024
    sent = 0
    sock = socket.create_connection(("127.0.0.1", port))
    sock.settimeout(2)  # a write the server does not take within 2 s: it has stopped reading
    deadline = time.monotonic() + 10
    chunk = line * 2048
    try:
        while sent < total and time.monotonic() < deadline:
            sent += sock.send(chunk)
    except (TimeoutError, OSError):
        pass
    time.sleep(1)
    during = rss_mb(pid)
    sock.close()
    time.sleep(1)
    # Still serving: a new link gets its greeting.
    with socket.create_connection(("127.0.0.1", port), timeout=5) as again, again.makefile("rb") as lines:
        alive = lines.readline().startswith(b"P:")
    return {"rss_before_mb": round(before, 1), "rss_during_mb": round(during, 1),
            "rss_growth_mb": round(during - before, 1), "bytes_taken": sent, "bytes_offered": total,
            "serves_after": alive}


async def log_in(port: int, token: str) -> tuple[websockets.ClientConnection, dict]:
    ws = await websockets.connect(f"ws://127.0.0.1:{port}/ws/bot/", open_timeout=60, max_queue=None)
    await ws.send(json.dumps({"type": "Login", "version": 1, "token": token, "history": False}))
    while True:
        reply = json.loads(await asyncio.wait_for(ws.recv(), 60))
        if reply["type"] in ("Greetings", "FatalError"):
            return ws, reply


async def round_trip(ws: websockets.ClientConnection, text: str) -> float:
    start = time.monotonic()
    await ws.send(json.dumps({"type": "Chat", "text": text}))
    while True:
        message = json.loads(await asyncio.wait_for(ws.recv(), 60))
        if message["type"] == "Chat" and message["text"] == text:
            return time.monotonic() - start


async def chat_flood(port: int, flooder: str, bob: str, connections: int, frames: int) -> dict:
    watcher, _ = await log_in(port, bob)
    baseline = [await round_trip(watcher, f"before {n}") for n in range(5)]
    attempts = await asyncio.gather(*(log_in(port, flooder) for _ in range(connections)), return_exceptions=True)
    kept = [a[0] for a in attempts if not isinstance(a, BaseException) and a[1]["type"] == "Greetings"]

    async def spam(ws: websockets.ClientConnection, n: int) -> None:
        for i in range(frames):
            await ws.send(json.dumps({"type": "Chat", "text": f"spam {n}.{i}"}))

    flooding = asyncio.gather(*(spam(ws, n) for n, ws in enumerate(kept)))
    during = []
    while not flooding.done() or len(during) < 5:
        during.append(await round_trip(watcher, f"during {len(during)}"))
    await flooding
    for ws in [*kept, watcher]:
        await ws.close()
    return {"connections_tried": connections, "connections_kept": len(kept),
            "round_trip_before_max_s": round(max(baseline), 4),
            "round_trip_during_max_s": round(max(during), 4),
            "round_trip_during_median_s": round(statistics.median(during), 4), "samples_during": len(during)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--megabytes", type=int, default=40)
    parser.add_argument("--connections", type=int, default=500)
    parser.add_argument("--frames", type=int, default=300)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
        env |= {"SQLITE_PATH": f"{tmp}/db.sqlite3", "DJANGO_SETTINGS_MODULE": "config.settings",
                "SECRET_KEY_FILE": f"{tmp}/secret"}
        setup = subprocess.run([sys.executable, "-c", SETUP], cwd=ROOT, env=env, capture_output=True, text=True,
                               check=True)
        flooder, bob = setup.stdout.split()[-2:]
        http_port, tcp_port = free_port(), free_port()
        server = subprocess.Popen([sys.executable, "manage.py", "serve", "--host", "127.0.0.1", "--port",
                                   str(http_port), "--cribbage-port", str(tcp_port), "--mjai-port", "0", "-v", "0"],
                                  cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            wait_for(http_port, server)
            wait_for(tcp_port, server)
            tcp = tcp_flood(tcp_port, server.pid, args.megabytes)
            print(f"(a) TCP flood before login: {tcp['bytes_taken'] / 2**20:.2f} MB of {args.megabytes} MB taken; "
                  f"server RSS {tcp['rss_before_mb']} MB -> {tcp['rss_during_mb']} MB "
                  f"(+{tcp['rss_growth_mb']} MB); serves afterwards: {tcp['serves_after']}")
            chat = asyncio.run(chat_flood(http_port, flooder, bob, args.connections, args.frames))
            print(f"(b) {args.connections} connections of one user ({chat['connections_kept']} kept), "
                  f"{args.frames} chat frames on each: another user's round trip "
                  f"{chat['round_trip_before_max_s']} s before, during max {chat['round_trip_during_max_s']} s, "
                  f"median {chat['round_trip_during_median_s']} s")
        finally:
            server.terminate()
            server.wait(10)
    print(json.dumps({"tcp_flood": tcp, "chat_flood": chat}))


if __name__ == "__main__":
    main()
