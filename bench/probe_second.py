"""The second probe's attacks, against the server ``make run`` starts (docs/security.md).

    .venv/bin/python bench/probe_second.py [--megabytes 300] [--whitespace-mb 40] [--guesses 60]

(a) A ``--megabytes`` body streamed (chunked, no Content-Length) and then declared (Content-Length)
    to socket.io's long polling, ``POST /majiang/socket.io/?EIO=4&transport=polling``, with no
    session: the answer, how long it took, and the server's resident memory (VmRSS) before and
    after. The probe: RSS 146 -> 451 MB, a 400 after 4.1 s.
(b) mmj whitespace: ``--whitespace-mb`` of spaces written to the mmj port before log-in, as fast as
    the server takes them: how many bytes it took before it closed the link, what it said, and the
    server's CPU seconds meanwhile. The probe: no limit, 0.16 s of CPU per MB.
(c) Password spraying: ``--guesses`` wrong log-ins over 20 usernames from one address over the bot
    WebSocket, one after another: how many were refused unhashed (``RateLimited``) and how long all
    took. The probe: none refused, 13.9 s.

A fresh ``manage.py serve`` (its own SQLite file, the in-memory layer, default settings). No peer
implementation exists to compare with: the figures are absolute. The last line is one JSON object.
"""

from __future__ import annotations

import argparse
import asyncio
import http.client
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import websockets

sys.path.insert(0, str(Path(__file__).resolve().parent))
from probe_floods import ROOT, free_port, rss_mb, wait_for  # noqa: E402

SETUP = """
import django
django.setup()
from django.core.management import call_command
from accounts.models import User
call_command("migrate", verbosity=0)
for n in range(20):
    User.objects.create_user(username=f"member{n}", password="a right password")
"""


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def big_body(port: int, pid: int, megabytes: int, declared: bool) -> dict:
    before = rss_mb(pid)
    started = time.monotonic()
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    path = "/majiang/socket.io/?EIO=4&transport=polling"
    chunk = b" " * 2**20
    status = None
    try:
        if declared:
            connection.putrequest("POST", path)
            connection.putheader("Content-Length", str(megabytes * 2**20))
            connection.endheaders()
        else:
            connection.putrequest("POST", path)
            connection.putheader("Transfer-Encoding", "chunked")
            connection.endheaders()
        for _ in range(megabytes):
            data = chunk if declared else b"%x\r\n%s\r\n" % (len(chunk), chunk)
            connection.send(data)
        if not declared:
            connection.send(b"0\r\n\r\n")
        status = connection.getresponse().status
    except OSError:  # refused and closed while we were still sending: read the answer if it came
        try:
            status = connection.getresponse().status
        except (OSError, http.client.HTTPException):
            status = "closed"
    finally:
        connection.close()
    took = time.monotonic() - started
    time.sleep(0.5)
    after = rss_mb(pid)
    return {"declared": declared, "status": status, "seconds": round(took, 3), "rss_before_mb": round(before, 1),
            "rss_after_mb": round(after, 1), "rss_growth_mb": round(after - before, 1)}


def whitespace(port: int, pid: int, megabytes: int) -> dict:
    cpu = cpu_seconds(pid)
    sock = socket.create_connection(("127.0.0.1", port))
    sock.settimeout(5)
    sent, chunk = 0, b" " * 65536
    try:
        while sent < megabytes * 2**20:
            sent += sock.send(chunk)
    except OSError:
        pass
    said = b""
    try:
        while part := sock.recv(4096):
            said += part
    except OSError:
        pass
    sock.close()
    return {"bytes_taken": sent, "said": said.decode(errors="replace").strip()[-200:],
            "server_cpu_s": round(cpu_seconds(pid) - cpu, 3)}


async def spray(port: int, guesses: int) -> dict:
    codes: dict[str, int] = {}
    started = time.monotonic()
    for n in range(guesses):
        async with websockets.connect(f"ws://127.0.0.1:{port}/ws/bot/", open_timeout=30) as ws:
            await ws.send(json.dumps({"type": "Login", "version": 1, "username": f"member{n % 20}",
                                      "password": f"guess {n}", "history": False}))
            while (answer := json.loads(await asyncio.wait_for(ws.recv(), 30)))["type"] not in ("Greetings",
                                                                                                  "FatalError"):
                pass
        code = answer.get("code", answer["type"])
        codes[code] = codes.get(code, 0) + 1
    return {"guesses": guesses, "answers": codes, "seconds": round(time.monotonic() - started, 2)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--megabytes", type=int, default=300)
    parser.add_argument("--whitespace-mb", type=int, default=40)
    parser.add_argument("--guesses", type=int, default=60)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
        env |= {"SQLITE_PATH": f"{tmp}/db.sqlite3", "DJANGO_SETTINGS_MODULE": "config.settings",
                "SECRET_KEY_FILE": f"{tmp}/secret"}
        subprocess.run([sys.executable, "-c", SETUP], cwd=ROOT, env=env, check=True)
        http_port, mmj_port = free_port(), free_port()
        server = subprocess.Popen([sys.executable, "manage.py", "serve", "--host", "127.0.0.1", "--port",
                                   str(http_port), "--cribbage-port", "0", "--ump-port", "0", "--mmj-port",
                                   str(mmj_port), "--mjai-port", "0", "-v", "0"], cwd=ROOT, env=env,
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            wait_for(http_port, server)
            wait_for(mmj_port, server)
            bodies = [big_body(http_port, server.pid, args.megabytes, declared) for declared in (False, True)]
            for body in bodies:
                kind = "Content-Length" if body["declared"] else "chunked"
                print(f"(a) {args.megabytes} MB to socket.io polling ({kind}): {body['status']} after "
                      f"{body['seconds']} s; RSS {body['rss_before_mb']} -> {body['rss_after_mb']} MB "
                      f"(+{body['rss_growth_mb']} MB)")
            flood = whitespace(mmj_port, server.pid, args.whitespace_mb)
            print(f"(b) mmj whitespace before log-in: {flood['bytes_taken'] / 2**20:.2f} MB of {args.whitespace_mb} MB "
                  f"taken, then {flood['said']!r}; server CPU {flood['server_cpu_s']} s")
            sprayed = asyncio.run(spray(http_port, args.guesses))
            print(f"(c) {args.guesses} wrong log-ins over 20 usernames from one address: {sprayed['answers']} "
                  f"in {sprayed['seconds']} s")
        finally:
            server.terminate()
            server.wait(10)
    print(json.dumps({"socketio_bodies": bodies, "mmj_whitespace": flood, "spray": sprayed}))


if __name__ == "__main__":
    main()
