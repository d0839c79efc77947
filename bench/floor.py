"""The transport's floor: the live path's frames through an ASGI server and the channel layer, no game.

    .venv/bin/python bench/floor.py [--tables 50] [--seconds 20] [--lobby-every 0]
        [--push-bytes 1200] [--server daphne|uvicorn|granian|all]

``--tables`` tables of four WebSocket clients (``websockets``, as bench/live.py's bot clients) play
against ONE server child serving bench/floor_app.py: the project's settings and channel layer, a
Channels consumer, and nothing else. A move is the frames the live path sends for it, with no
database, engine, rendering or JSON: the mover's ``act`` frame, its ``applied`` answer, and a
``push`` of ``--push-bytes`` to each of the table's four clients through the table's group. With
``--lobby-every K`` every K-th move also sends one lobby frame to every client (bench/live.py's
Acquire run at 50 tables received about 12.5 lobby frames per move from tables being set up,
started and ended; with 200 clients that is one lobby broadcast per 16 moves).

The loop is closed as in bench/live.py: the seat whose turn it is moves as soon as its own push of
the previous move arrives, so each table has one move in flight. Reported: moves per second, p50
and p99 of the time from sending a move to all four clients of its table having its push, and the
CPU the server and the clients used. These are the best figures any game's live path could reach
on this machine with this transport: the game adds its own work on top. There is no peer; the last
line is one JSON object.

``--server`` picks the ASGI server that runs the same floor application (the project itself is
served by Daphne; the other two are here only to measure what the server costs):

- ``daphne`` (the default): ``python -m daphne``, as the project's own servers run (Twisted's
  asyncio reactor on the standard event loop);
- ``uvicorn``: ``python -m uvicorn`` with ``--loop uvloop --http httptools --ws websockets-sansio``
  (``--uvicorn-ws`` picks another of its WebSocket implementations), lifespan off (the floor
  application is a Channels router with no lifespan), no access log;
- ``granian``: ``granian --interface asginl`` (its ASGI interface without lifespan, which the
  floor application lacks; its Rust runtime does the sockets and WebSocket framing in threads of
  its own, the application runs on uvloop), one worker, no access log;
- ``all``: the three back to back in one run, the same tables and window, one JSON line with each.

uvicorn, uvloop, httptools and granian are not the project's dependencies: they are pinned for
the benches alone in bench/requirements.txt (``.venv/bin/pip install -r bench/requirements.txt``).
The server's CPU is that of its whole process tree (granian's worker is a child of its main
process), in cores busy; ``machine_cpu`` is all cores busy and ``other_cpu`` the part of it that
neither the server nor the clients used: with much of it, the run shared the machine.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))

from capacity import machine_busy_seconds  # noqa: E402
from live import _cpu_seconds, _free_port, _wait_listening, percentile  # noqa: E402

SEATS = 4
SERVERS = ("daphne", "uvicorn", "granian")
# The modules each server needs beyond the project's own requirements (bench/requirements.txt).
NEEDS = {"daphne": ("daphne",), "uvicorn": ("uvicorn", "uvloop", "httptools", "websockets"),
         "granian": ("granian", "uvloop")}
INSTALL = ".venv/bin/pip install -r bench/requirements.txt"


def missing_modules(server: str) -> list[str]:
    """The modules ``server`` needs that this interpreter cannot import."""
    import importlib.util

    return [name for name in NEEDS[server] if importlib.util.find_spec(name) is None]


def server_command(server: str, port: int, uvicorn_ws: str = "websockets-sansio") -> list[str]:
    """The command line that serves bench/floor_app.py with ``server`` on 127.0.0.1:``port``."""
    app = "bench.floor_app:application"
    if server == "daphne":
        return [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port), app]
    if server == "uvicorn":
        # Lifespan off: a Channels ProtocolTypeRouter without a "lifespan" entry raises on that
        # scope, which uvicorn would only log. No access log: the floor counts frames, not requests.
        return [sys.executable, "-m", "uvicorn", app, "--host", "127.0.0.1", "--port", str(port),
                "--loop", "uvloop", "--http", "httptools", "--ws", uvicorn_ws, "--lifespan", "off",
                "--no-access-log", "--log-level", "warning"]
    if server == "granian":
        # Its console script, from this interpreter's bin (the same venv). One worker and the
        # defaults otherwise: one process for the application, as Daphne and uvicorn have here.
        granian = str(Path(sys.executable).with_name("granian"))
        return [granian, "--interface", "asginl", "--host", "127.0.0.1", "--port", str(port), "--workers", "1",
                "--loop", "uvloop", "--no-access-log", "--log-level", "warning", app]
    raise ValueError(f"server is one of {SERVERS}, not {server!r}")


def _tree(pid: int) -> list[int]:
    """``pid`` and all its descendants, from /proc (Linux): granian runs its worker as a child."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            ppid = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
        except (OSError, IndexError, ValueError):
            continue  # the process ended meanwhile
        children.setdefault(ppid, []).append(int(entry.name))
    found, todo = [], [pid]
    while todo:
        current = todo.pop()
        found.append(current)
        todo.extend(children.get(current, ()))
    return found


def _tree_cpu(pid: int) -> float:
    return sum(cpu for cpu in map(_cpu_seconds, _tree(pid)) if cpu == cpu)  # nan: gone meanwhile


async def _play(port: int, tables: int, seconds: float) -> dict[str, Any]:
    import websockets

    sent: dict[tuple[int, int], float] = {}
    arrivals: dict[tuple[int, int], int] = {}
    latencies: list[float] = []
    window: list[float] = [0.0, 0.0]
    moves = 0

    async def seat(table: int, index: int, ws: Any) -> None:
        nonlocal moves
        async for frame in ws:
            if not frame.startswith("push "):
                continue
            v = int(frame.split(" ", 2)[1])
            arrived = arrivals.get((table, v), 0) + 1
            arrivals[(table, v)] = arrived
            now = time.perf_counter()
            if arrived == SEATS:
                began = sent.pop((table, v), None)
                arrivals.pop((table, v), None)
                if began is not None and window[0] <= began < window[1]:
                    latencies.append(now - began)
                    moves += 1
            if v % SEATS == index and now < window[1]:  # this seat moves next
                sent[(table, v + 1)] = time.perf_counter()
                await ws.send(f"act {v + 1}")

    links = []
    for table in range(tables):
        for _ in range(SEATS):
            links.append(await websockets.connect(f"ws://127.0.0.1:{port}/ws/floor/?table={table}",
                                                  compression=None, max_size=None, ping_interval=None))
    readers = [asyncio.create_task(seat(n // SEATS, n % SEATS, ws)) for n, ws in enumerate(links)]
    await asyncio.sleep(0.5)
    window[0] = time.perf_counter()
    window[1] = window[0] + seconds
    for table in range(tables):  # seat 0 of every table makes move 1; push v goes to seat v % 4 next
        sent[(table, 1)] = time.perf_counter()
        await links[table * SEATS].send("act 1")
    await asyncio.sleep(seconds)
    await asyncio.sleep(1.0)  # the pushes of the last moves
    for ws in links:
        await ws.close()
    for reader in readers:
        reader.cancel()
    return {"moves": moves, "latencies": latencies}


def run(tables: int, seconds: float, lobby_every: int, push_bytes: int, server_name: str = "daphne",
        uvicorn_ws: str = "websockets-sansio") -> dict[str, Any]:
    """One floor run of ``tables`` tables against ``server_name``; the figures as a dict."""
    missing = missing_modules(server_name)
    if missing:
        raise SystemExit(f"--server {server_name} needs {', '.join(missing)}, not installed here "
                         f"(bench-only servers, not the project's dependencies): {INSTALL}")
    port = _free_port()
    env = dict(os.environ, FLOOR_LOBBY_EVERY=str(lobby_every), FLOOR_PUSH_BYTES=str(push_bytes))
    env.pop("REDIS_URL", None)  # the embedded default: one process, the in-memory layer
    with tempfile.TemporaryDirectory() as workdir:
        log = Path(workdir) / f"{server_name}.log"
        with open(log, "w") as out:
            server = subprocess.Popen(server_command(server_name, port, uvicorn_ws), cwd=ROOT, env=env,
                                      stdout=out, stderr=subprocess.STDOUT)
        try:
            _wait_listening(server, port, log)
            time.sleep(0.5)  # granian: its worker may still be starting when the port already listens
            cpu_server, cpu_client, began = _tree_cpu(server.pid), time.process_time(), time.perf_counter()
            machine = machine_busy_seconds()
            played = asyncio.run(_play(port, tables, seconds))
            spent = time.perf_counter() - began
            cpu = (_tree_cpu(server.pid) - cpu_server, time.process_time() - cpu_client)
            machine = machine_busy_seconds() - machine
        finally:
            server.terminate()
            try:
                server.wait(10)
            except subprocess.TimeoutExpired:
                server.kill()
                server.wait()
    latencies = played["latencies"]
    return {
        "server": server_name + (f" ({uvicorn_ws})" if server_name == "uvicorn" else ""),
        "tables": tables, "clients": tables * SEATS, "seconds": seconds, "lobby_every": lobby_every,
        "push_bytes": push_bytes, "moves": played["moves"], "moves_per_s": round(played["moves"] / seconds, 1),
        "p50_ms": round(1000 * (percentile(latencies, 0.50) or 0), 1),
        "p99_ms": round(1000 * (percentile(latencies, 0.99) or 0), 1),
        # Over the whole run (connections included), so a little below the window's own figure.
        "server_cpu": round(cpu[0] / spent, 2), "client_cpu": round(cpu[1] / spent, 2),
        # All cores busy, and the part of it neither the server nor the clients account for: other
        # work on the machine at the same time, which these figures then shared the cores with.
        "machine_cpu": round(machine / spent, 2), "other_cpu": round(max(0.0, (machine - sum(cpu)) / spent), 2),
    }


def describe(figures: dict[str, Any]) -> list[str]:
    """One run's figures as readable lines."""
    return [
        f"transport floor: {figures['tables']} tables, {figures['clients']} clients, one {figures['server']} "
        f"process, in-memory layer, lobby broadcast every {figures['lobby_every'] or 'no'} moves",
        f"  {figures['moves']} moves in {figures['seconds']:g}s = {figures['moves_per_s']} moves/s; "
        f"move -> all four pushes: p50 {figures['p50_ms']} ms, p99 {figures['p99_ms']} ms",
        f"  CPU cores busy: server {figures['server_cpu']}, clients {figures['client_cpu']} (no peer to compare); "
        f"machine {figures['machine_cpu']}, {figures['other_cpu']} of them by other processes",
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--lobby-every", type=int, default=0, help="one lobby broadcast per this many moves (0: none)")
    parser.add_argument("--push-bytes", type=int, default=1200)
    parser.add_argument("--server", choices=(*SERVERS, "all"), default="daphne",
                        help=f"the ASGI server (uvicorn and granian: {INSTALL}); all: the three back to back")
    parser.add_argument("--uvicorn-ws", choices=("websockets-sansio", "websockets", "wsproto"),
                        default="websockets-sansio", help="uvicorn's WebSocket implementation")
    args = parser.parse_args()
    names = SERVERS if args.server == "all" else (args.server,)
    missing = {name: missing_modules(name) for name in names if missing_modules(name)}
    if missing:  # before any run, not after the first of three
        raise SystemExit("not installed here: " + "; ".join(f"{name} needs {', '.join(mods)}"
                                                            for name, mods in missing.items())
                         + f" (bench-only servers, not the project's dependencies): {INSTALL}")
    runs = []
    for name in names:
        figures = run(args.tables, args.seconds, args.lobby_every, args.push_bytes, name, args.uvicorn_ws)
        print("\n".join(describe(figures)), flush=True)
        runs.append(figures)
    # One object whatever the number of runs: the run's own figures, or each server's under "runs".
    print(json.dumps(runs[0] if len(runs) == 1 else {"runs": runs}))


if __name__ == "__main__":
    main()
