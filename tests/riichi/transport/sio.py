"""Peers of majiang-server's dialect for tests against the real server (``tests/served.py``): the
unmodified ``majiang-bot`` (@kobalab/majiang-server's bin/client.js, playing with majiang-ai) as a
process, and ``SioPeer``, socket.io-client driven by the test through ``sio_pipe.js``."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path
from typing import Any

from tests.riichi.reference.corpus import BENCH

BOT = BENCH / "node_modules" / "@kobalab" / "majiang-server" / "bin" / "client.js"
PIPE = Path(__file__).with_name("sio_pipe.js")
GAME_TYPES = frozenset({"kaiju", "qipai", "zimo", "dapai", "fulou", "gang", "gangzimo", "kaigang", "hule",
                        "pingju", "jieju"})


def base(port: int) -> str:
    return f"http://127.0.0.1:{port}/majiang"


def login(port: int, name: str) -> tuple[int, str | None, str]:
    """``POST /majiang/auth/`` as majiang-bot posts it: the status, the MAJIANG cookie's value (if
    one was set) and the body."""
    body = urllib.parse.urlencode({"name": name, "passwd": "*"}).encode()
    request = urllib.request.Request(f"{base(port)}/auth/", data=body, method="POST")
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            status, headers, text = response.status, response.headers, response.read().decode()
    except urllib.error.HTTPError as error:
        status, headers, text = error.code, error.headers, error.read().decode()
    cookie = None
    for header in headers.get_all("Set-Cookie") or []:
        if header.startswith("MAJIANG="):
            cookie = header.split(";", 1)[0].removeprefix("MAJIANG=")
    return status, cookie, text


def start_bot(port: int, room: int | str, name: str, log: Path) -> subprocess.Popen:
    """``majiang-bot -r ROOM -n NAME http://127.0.0.1:PORT/majiang``, unmodified, its output in ``log``."""
    with log.open("ab") as output:
        return subprocess.Popen(["node", str(BOT), "-r", str(room), "-n", name, base(port)], cwd=BENCH,
                                stdout=output, stderr=subprocess.STDOUT)


def to_frame(message: dict[str, Any]) -> dict[str, Any]:
    """A GAME message in majiang-server's form as the seed 001 frame it carries (the test's
    ``FramePlayer`` reads those)."""
    (kind,) = [k for k in message if k not in ("seq", "timer")]
    frame = {"type": kind, "data": message[kind]}
    if "seq" in message:
        frame["seq"] = message["seq"]
    return frame


def to_reply(reply: dict[str, Any]) -> dict[str, Any]:
    """A seed 001 reply as majiang-server's: ``{dapai: 'm1', seq}``, ``{seq}`` for nothing."""
    out: dict[str, Any] = {reply["type"]: reply["data"]} if reply["type"] else {}
    if "seq" in reply:
        out["seq"] = reply["seq"]
    return out


class SioPeer:
    """socket.io-client in a node process (``sio_pipe.js``): the test emits, and reads what came."""

    def __init__(self, process: asyncio.subprocess.Process, name: str) -> None:
        self.process = process
        self.name = name
        self.received: list[tuple[str, list[Any]]] = []

    @classmethod
    async def open(cls, port: int, cookie: str | None, name: str = "") -> SioPeer:
        env = {**os.environ, "NODE_PATH": str(BENCH / "node_modules")}
        process = await asyncio.create_subprocess_exec(
            "node", str(PIPE), base(port), cookie or "", stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE, env=env, limit=2**24)
        return cls(process, name)

    async def emit(self, event: str, *args: Any) -> None:
        await self._command({"emit": [event, *args]})

    async def raw(self, text: str) -> None:
        """An Engine.IO message as it is (not necessarily a socket.io packet)."""
        await self._command({"raw": text})

    async def _command(self, command: dict[str, Any]) -> None:
        self.process.stdin.write((json.dumps(command, ensure_ascii=False) + "\n").encode())
        await self.process.stdin.drain()

    async def recv(self, timeout: float = 30) -> tuple[str, list[Any]]:
        line = await asyncio.wait_for(self.process.stdout.readline(), timeout)
        assert line, f"{self.name}: the pipe ended"
        message = json.loads(line)
        item = (message["event"], message.get("args", []))
        self.received.append(item)
        return item

    async def expect(self, event: str, timeout: float = 30) -> list[Any]:
        """The arguments of the next event, which must be ``event``."""
        got, args = await self.recv(timeout)
        assert got == event, (self.name, event, got, args)
        return args

    async def until(self, event: str, timeout: float = 30) -> list[Any]:
        while (item := await self.recv(timeout))[0] != event:
            pass
        return item[1]

    async def nothing(self, seconds: float = 0.3) -> None:
        try:
            item = await self.recv(seconds)
        except TimeoutError:
            return
        raise AssertionError(f"{self.name}: unexpected {item}")

    async def close(self) -> None:
        if self.process.returncode is None:
            try:
                await self._command({"close": True})
            except (BrokenPipeError, ConnectionResetError):
                pass
            try:
                await asyncio.wait_for(self.process.wait(), 10)
            except TimeoutError:
                self.process.kill()
                await self.process.wait()

