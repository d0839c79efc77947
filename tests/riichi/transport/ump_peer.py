"""UMP clients on real TCP sockets for the tests: the project's ``UmpBot`` answering (with the
house bot's judgement or a greedy one), and every line it was sent kept, in order."""

from __future__ import annotations

import asyncio
import random
from dataclasses import dataclass, field
from typing import Any

from games.riichi.bots import house as bot
from games.riichi.clients.umpbot import UmpBot


def greedy(view: dict[str, Any], legal: list[dict[str, Any]], rng: random.Random) -> tuple[str, list[Any]]:
    """Every win, kan, call and riichi on offer, whenever it is on offer; else the house bot."""
    offered = [a for a in legal if a.get("allowed", True)]
    for kind in ("hule", "gang", "fulou"):
        for action in offered:
            if action["type"] == kind:
                return kind, list(action.get("params", []))
    riichi = [a for a in offered if a["type"] == "dapai" and a.get("lizhi")]
    if riichi:
        return "dapai", list(riichi[0]["params"])
    return bot.choose(view, legal, rng)


@dataclass
class Peer:
    """One UMP link: its bot, the lines it received, how it ended."""

    bot: UmpBot
    lines: list[str] = field(default_factory=list)
    sent: list[str] = field(default_factory=list)
    reader: asyncio.StreamReader | None = None
    writer: asyncio.StreamWriter | None = None

    async def connect(self, port: int) -> None:
        self.reader, self.writer = await asyncio.open_connection("127.0.0.1", port)

    async def line(self, timeout: float = 30) -> str | None:
        """The next line (without its CR+LF), None at the end of the stream."""
        raw = await asyncio.wait_for(self.reader.readline(), timeout)
        if not raw:
            return None
        assert raw.endswith(b"\r\n"), raw  # the seed's terminator, on every line
        text = raw[:-2].decode("ascii")  # ASCII only: anything else fails here
        self.lines.append(text)
        return text

    async def send(self, text: str) -> None:
        self.sent.append(text)
        self.writer.write(text.encode("ascii") + b"\r\n")
        await self.writer.drain()

    async def until(self, predicate, timeout: float = 30) -> str:
        """Read (answering nothing) until a line matches ``predicate``."""
        while True:
            text = await self.line(timeout)
            assert text is not None, self.lines[-5:]
            if predicate(text):
                return text

    async def play(self, timeout: float = 300) -> None:
        """Answer with the bot until the server closes the link."""
        async with asyncio.timeout(timeout):
            while (text := await self.line(timeout)) is not None:
                reply = self.bot.handle(text)
                if reply is not None:
                    await self.send(reply)

    async def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
            try:
                await self.writer.wait_closed()
            except ConnectionError:
                pass


def command(line: str) -> tuple[int, str, list[str]]:
    """A server line's serial, command and arguments."""
    serial, name, *args = line.split(" ")
    return int(serial), name, args
