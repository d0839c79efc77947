"""The transport's floor: the live path's frames through Daphne and the channel layer, no game.

    .venv/bin/python bench/floor.py [--tables 50] [--seconds 20] [--lobby-every 0]
        [--push-bytes 1200]

``--tables`` tables of four WebSocket clients (``websockets``, as bench/live.py's bot clients) play
against ONE Daphne child serving bench/floor_app.py: the project's settings and channel layer, a
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

from live import _cpu_seconds, _free_port, _wait_listening, percentile  # noqa: E402

SEATS = 4


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


def run(tables: int, seconds: float, lobby_every: int, push_bytes: int) -> dict[str, Any]:
    port = _free_port()
    env = dict(os.environ, FLOOR_LOBBY_EVERY=str(lobby_every), FLOOR_PUSH_BYTES=str(push_bytes))
    env.pop("REDIS_URL", None)  # the embedded default: one process, the in-memory layer
    with tempfile.TemporaryDirectory() as workdir:
        log = Path(workdir) / "daphne.log"
        with open(log, "w") as out:
            server = subprocess.Popen([sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port),
                                       "bench.floor_app:application"], cwd=ROOT, env=env, stdout=out,
                                      stderr=subprocess.STDOUT)
        try:
            _wait_listening(server, port, log)
            cpu_server, cpu_client, began = _cpu_seconds(server.pid), time.process_time(), time.perf_counter()
            played = asyncio.run(_play(port, tables, seconds))
            spent = time.perf_counter() - began
            cpu = (_cpu_seconds(server.pid) - cpu_server, time.process_time() - cpu_client)
        finally:
            server.terminate()
            server.wait(10)
    latencies = played["latencies"]
    return {
        "tables": tables, "clients": tables * SEATS, "seconds": seconds, "lobby_every": lobby_every,
        "push_bytes": push_bytes, "moves": played["moves"], "moves_per_s": round(played["moves"] / seconds, 1),
        "p50_ms": round(1000 * (percentile(latencies, 0.50) or 0), 1),
        "p99_ms": round(1000 * (percentile(latencies, 0.99) or 0), 1),
        # Over the whole run (connections included), so a little below the window's own figure.
        "server_cpu": round(cpu[0] / spent, 2), "client_cpu": round(cpu[1] / spent, 2),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--lobby-every", type=int, default=0, help="one lobby broadcast per this many moves (0: none)")
    parser.add_argument("--push-bytes", type=int, default=1200)
    args = parser.parse_args()
    figures = run(args.tables, args.seconds, args.lobby_every, args.push_bytes)
    print(f"transport floor: {figures['tables']} tables, {figures['clients']} clients, one Daphne, in-memory layer, "
          f"lobby broadcast every {figures['lobby_every'] or 'no'} moves")
    print(f"  {figures['moves']} moves in {figures['seconds']:g}s = {figures['moves_per_s']} moves/s; "
          f"move -> all four pushes: p50 {figures['p50_ms']} ms, p99 {figures['p99_ms']} ms")
    print(f"  CPU cores busy: server {figures['server_cpu']}, clients {figures['client_cpu']} (no peer to compare)")
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
