"""mmj terminals on real TCP sockets for the tests (and bench/mmj.py): the project's reference
``Terminal`` (in bot mode, plain or greedy) answering, every byte and every message it was sent
kept, in order; and ``table_with_bots``, a table readied over REST for a terminal to join by
number (an mmj login has no bots option)."""

from __future__ import annotations

import asyncio
import json
import urllib.request
from dataclasses import dataclass, field
from typing import Any

from games.riichi.clients.mmj_terminal import Terminal
from games.riichi.protocols import mmj


@dataclass
class Peer:
    """One mmj link: its terminal, what it received (bytes and messages) and sent."""

    name: str
    token: str
    game: int | None = None
    terminal: Terminal = field(default_factory=lambda: Terminal(bot=True))
    received: bytearray = field(default_factory=bytearray)
    messages: list[mmj.ServerMessage] = field(default_factory=list)
    sent: list[mmj.ClientMessage] = field(default_factory=list)
    reader: asyncio.StreamReader | None = None
    writer: asyncio.StreamWriter | None = None
    # Checks run on the terminal after every message (the tests' own picture checks).
    watch: list = field(default_factory=list)
    # A line said to the table's chat at the first play.
    chat: bytes | None = None

    def __post_init__(self) -> None:
        self._stream = mmj.Reader("client")
        self._pending: list[mmj.ServerMessage] = []

    @property
    def login(self) -> mmj.ClientHello:
        name = f"{self.name}/{self.token}" + (f"/{self.game}" if self.game is not None else "")
        return mmj.ClientHello(name.encode("utf-8"))

    async def connect(self, port: int, hello: bool = True) -> None:
        self.reader, self.writer = await asyncio.open_connection("127.0.0.1", port)
        if hello:
            await self.send(self.login)

    async def send(self, message: mmj.ClientMessage) -> None:
        self.sent.append(message)
        await self.write(mmj.encode(message))

    async def write(self, data: bytes) -> None:
        self.writer.write(data)
        await self.writer.drain()

    async def message(self, timeout: float = 30) -> mmj.ServerMessage | None:
        """The next message, None once the server closed the link."""
        while not self._pending:
            data = await asyncio.wait_for(self.reader.read(65536), timeout)
            if not data:
                self._stream.eof()  # the server never stops mid-message
                return None
            self.received += data
            self._pending += self._stream.feed(data)
        message = self._pending.pop(0)
        self.messages.append(message)
        return message

    async def play(self, timeout: float = 600) -> None:
        """Answer with the terminal's bot until the server closes the link."""
        async with asyncio.timeout(timeout):
            while (message := await self.message(timeout)) is not None:
                answers = self.terminal.feed(message)
                for check in self.watch:
                    check(self, message)
                if self.chat is not None and isinstance(message, mmj.Play):
                    others = tuple(p for p in range(1, 5) if p != self.terminal.you)
                    await self.send(mmj.ChatTo(others, self.chat))
                    self.chat = None
                for answer in answers:
                    await self.send(answer)

    async def until(self, kind: type, timeout: float = 30) -> mmj.ServerMessage:
        """Read, feeding the terminal but answering nothing, up to a message of ``kind``."""
        while True:
            message = await self.message(timeout)
            assert message is not None, self.messages[-5:]
            self.terminal.feed(message)
            if isinstance(message, kind):
                return message

    async def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
            try:
                await self.writer.wait_closed()
            except ConnectionError:
                pass


def post(port: int, token: str, path: str, body: dict[str, Any]) -> Any:
    request = urllib.request.Request(f"http://127.0.0.1:{port}/api/{path}", data=json.dumps(body).encode(),
                                     method="POST", headers={"Authorization": f"Token {token}",
                                                             "Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.loads(response.read().decode("utf-8"))


def table_with_bots(port: int, token: str, bots: int = 3) -> int:
    """A riichi table opened on the site (REST) with house bots beside its host, as a player
    readies one for a terminal; its number."""
    game_id = post(port, token, "games/", {"game_type": "riichi", "mode": 4,
                                           "rules": {"preset": "tenhou-east"}})["id"]
    for _ in range(bots):
        post(port, token, f"games/{game_id}/add-bot/", {})
    return game_id
