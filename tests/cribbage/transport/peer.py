"""The test clients' side of CRIBBAGEBBER: a line-based WebSocket client on the full ASGI app and a
parser for server lines. No other implementation of the protocol exists, so this is its peer."""

from __future__ import annotations

from channels.testing import WebsocketCommunicator

CARD = r"[0-6][A2-9JQK0][HDCS]"


def split(line: str) -> tuple[str, list[str]]:
    """A server line as (code, fields). ``SE:`` separates its fields with ';', the rest with '/';
    ``WA:``/``E:`` and the words of ``SC:`` and the text of ``ME:`` are kept whole."""
    code, _, rest = line.partition(":")
    if code == "SE":
        return code, rest.split(";")
    if code in ("WA", "E", "P"):
        return code, [rest]
    if code == "SC":
        return code, rest.split("/", 2)
    if code == "ME":
        return code, rest.split("/", 1)
    return code, rest.split("/") if rest else []


class LineClient:
    """One CRIBBAGEBBER link: a frame is a line. Every line received is kept, in order."""

    def __init__(self, path: str = "/ws/cribbage/", token: str | None = None,
                 headers: list[tuple[bytes, bytes]] | None = None, name: str = "") -> None:
        from config.asgi import application

        if token:
            path += ("&" if "?" in path else "?") + f"token={token}"
        self.comm = WebsocketCommunicator(application, path, headers=headers or [])
        self.lines: list[str] = []
        self.transcript: list[str] = []  # "C: ..." sent and "S: ..." received, in order
        self.name = name
        self.closed = False
        self._read = 0  # lines consumed by expect()

    async def connect(self) -> None:
        connected, _ = await self.comm.connect()
        assert connected

    async def send(self, line: str) -> None:
        self.transcript.append(f"C: {line}")
        await self.comm.send_to(text_data=line)

    async def recv(self, timeout: float = 10) -> str:
        output = await self.comm.receive_output(timeout)
        if output["type"] == "websocket.close":
            self.closed = True
            raise ConnectionError(f"{self.name}: closed")
        line = output["text"]
        self.lines.append(line)
        self.transcript.append(f"S: {line}")
        return line

    async def line(self, timeout: float = 10) -> str:
        """The next line not yet consumed (by ``line``, ``take`` or ``expect``)."""
        while self._read >= len(self.lines):
            await self.recv(timeout)
        self._read += 1
        return self.lines[self._read - 1]

    async def take(self, count: int, timeout: float = 10) -> list[str]:
        return [await self.line(timeout) for _ in range(count)]

    async def expect(self, prefix: str, timeout: float = 10) -> str:
        """The next line starting with ``prefix`` not yet consumed, reading as needed."""
        while True:
            while self._read < len(self.lines):
                line = self.lines[self._read]
                self._read += 1
                if line.startswith(prefix):
                    return line
            await self.recv(timeout)

    async def drain(self, timeout: float = 0.1) -> list[str]:
        out = []
        while not self.closed and not await self.comm.receive_nothing(timeout=timeout):
            try:
                out.append(await self.recv())
            except ConnectionError:
                break
        return out

    async def wait_closed(self, timeout: float = 10) -> None:
        while not self.closed:
            try:
                await self.recv(timeout)
            except ConnectionError:
                return

    async def close(self) -> None:
        if not self.closed:
            await self.comm.disconnect()
        self.closed = True

    def since(self, index: int) -> list[str]:
        return self.lines[index:]

    def last(self, prefix: str) -> str | None:
        return next((line for line in reversed(self.lines) if line.startswith(prefix)), None)

    def __repr__(self) -> str:
        return f"<LineClient {self.name}>"
