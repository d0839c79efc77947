"""A /ws/majiang/ client for tests against the real server (``tests/served.py``)."""

from __future__ import annotations

import asyncio
import json
import sqlite3
import urllib.request
from pathlib import Path
from typing import Any

import websockets

from tests.riichi.transport.player import FramePlayer

GAME_FRAMES = frozenset({"kaiju", "qipai", "zimo", "dapai", "fulou", "gang", "gangzimo", "kaigang", "hule",
                         "pingju", "jieju"})


class Link:
    def __init__(self, ws: websockets.ClientConnection, name: str = "") -> None:
        self.ws = ws
        self.name = name
        self.received: list[dict[str, Any]] = []

    @classmethod
    async def open(cls, port: int, token: str | None = None, name: str = "") -> Link:
        """Connected; with ``token``, logged in on the URL (``?token=``) and past its welcome."""
        query = f"?token={token}" if token else ""
        ws = await websockets.connect(f"ws://127.0.0.1:{port}/ws/majiang/{query}", open_timeout=30, max_queue=None)
        link = cls(ws, name)
        if token:
            assert (await link.recv())["type"] == "welcome"
        return link

    async def send(self, message: dict[str, Any] | str) -> None:
        await self.ws.send(message if isinstance(message, str) else json.dumps(message, ensure_ascii=False))

    async def recv(self, timeout: float = 30) -> dict[str, Any]:
        frame = json.loads(await asyncio.wait_for(self.ws.recv(), timeout))
        self.received.append(frame)
        return frame

    async def expect(self, kind: str, timeout: float = 30) -> dict[str, Any]:
        """The next frame, which must be of ``kind``."""
        frame = await self.recv(timeout)
        assert frame["type"] == kind, (self.name, kind, frame)
        return frame

    async def until(self, kind: str, timeout: float = 30) -> dict[str, Any]:
        """Read past anything else to the next frame of ``kind``."""
        while (frame := await self.recv(timeout))["type"] != kind:
            pass
        return frame

    async def nothing(self, seconds: float = 0.3) -> None:
        """No frame comes within ``seconds``."""
        try:
            frame = await asyncio.wait_for(self.ws.recv(), seconds)
        except TimeoutError:
            return
        raise AssertionError(f"{self.name}: unexpected frame {frame}")

    def game_frames(self) -> list[dict[str, Any]]:
        return [f for f in self.received if f["type"] in GAME_FRAMES]

    async def close(self) -> None:
        await self.ws.close()


async def play(link: Link, player: FramePlayer, *, questions: int | None = None,
               gate: asyncio.Event | None = None) -> dict[str, Any] | None:
    """Answer every question with ``player`` until the link's ``end`` (returned), or until
    ``questions`` were answered (``None`` returned). An error frame fails the test. With ``gate``,
    each answer waits until the gate is open."""
    answered = 0
    while True:
        frame = await link.recv()
        kind = frame["type"]
        assert kind != "error", (link.name, frame)
        if kind == "end":
            return frame
        if kind not in GAME_FRAMES:
            continue
        reply = player.on_frame(frame)
        if reply is None:
            continue
        if gate is not None:
            await gate.wait()
        await link.send(reply)
        answered += 1
        if questions is not None and answered >= questions:
            return None


def api(port: int, token: str, path: str) -> Any:
    request = urllib.request.Request(f"http://127.0.0.1:{port}/api/{path}",
                                     headers={"Authorization": f"Token {token}"})
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.loads(response.read().decode("utf-8"))


class Database:
    """Reads of the served process's SQLite file: what was stored, whatever the clients were told."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def rows(self, sql: str, *args: Any) -> list[tuple[Any, ...]]:
        connection = sqlite3.connect(self.path, timeout=30)
        try:
            return connection.execute(sql, args).fetchall()
        finally:
            connection.close()

    def game(self, game_id: int) -> tuple[int, str]:
        """The game's seq and status."""
        return self.rows("SELECT seq, status FROM games_game WHERE id = ?", game_id)[0]

    def actions(self, game_id: int) -> list[tuple[int, int | None, str, str, bool, int | None]]:
        """The log: seq, seat, type, params (JSON), auto, answers."""
        return [(seq, seat, kind, params, bool(auto), answers) for seq, seat, kind, params, auto, answers in self.rows(
            "SELECT seq, seat, type, params, auto, answers FROM games_action WHERE game_id = ? ORDER BY seq", game_id)]

    def seat(self, game_id: int, username: str) -> int:
        return self.rows("SELECT position FROM games_seat s JOIN accounts_user u ON u.id = s.user_id "
                         "WHERE s.game_id = ? AND u.username = ?", game_id, username)[0][0]
