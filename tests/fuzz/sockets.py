"""Clients on the real transports, checking every byte the server sends as they read it.

- ``JsonSocket``: the lobby protocol on the full ASGI application (routing, origin check, session
  middleware), as tests/conftest.py's ``Client`` connects; frames are checked as strict JSON.
- ``WsLines``: CRIBBAGEBBER on the same application, one line per frame.
- ``TcpLines``: CRIBBAGEBBER on a real TCP socket to ``games.cribbage.transport.tcp.LineServer``.

A consumer that raises is what a server closes with 1011: here the communicator re-raises the
exception, and the client turns it into a failure saying so. A close with code 1011 fails too.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Callable
from typing import Any

from channels.testing import WebsocketCommunicator

from tests.fuzz.support import short, strict_json, tally

CODE = re.compile(r"^[A-Z][A-Za-z]+$")
BROWSER_HEADERS = [(b"host", b"testserver"), (b"origin", b"http://testserver")]


class Crash(AssertionError):
    pass


class JsonSocket:
    def __init__(self, path: str, headers: list[tuple[bytes, bytes]] | None = None, name: str = "") -> None:
        from config.asgi import application

        self.comm = WebsocketCommunicator(application, path, headers=headers or [])
        self.name = name
        self.transcript: list[str] = []
        self.closed: int | None | bool = False  # False while open, else the close code (None: none given)
        self.received: list[dict[str, Any]] = []
        self.unread: list[dict[str, Any]] = []

    def context(self) -> str:
        return f"{self.name} transcript (last 12):\n  " + "\n  ".join(self.transcript[-12:])

    async def connect(self) -> None:
        connected, _ = await self.comm.connect(timeout=10)
        assert connected, f"{self.name}: the handshake was refused"

    async def send(self, payload: str | bytes) -> None:
        self.transcript.append(f"C: {short(payload, 200)}")
        key = "bytes" if isinstance(payload, bytes) else "text"
        try:
            await self.comm.send_input({"type": "websocket.receive", key: payload})
        except Exception as crash:  # the application already died
            raise Crash(f"{self.name}: the consumer died ({crash!r}); a server closes with 1011\n"
                        f"{self.context()}") from crash

    async def next(self, timeout: float = 10) -> dict[str, Any] | None:
        """The next message (checked), or None once the server closed the socket. The messages of
        a ``LobbyMessages`` frame (one tick's lobby messages) come one by one."""
        if self.unread:
            return self.unread.pop(0)
        try:
            output = await self.comm.receive_output(timeout)
        except TimeoutError:
            raise AssertionError(f"{self.name}: no answer within {timeout} s\n{self.context()}") from None
        except Exception as crash:
            raise Crash(f"{self.name}: the consumer died ({crash!r}); a server closes with 1011\n"
                        f"{self.context()}") from crash
        if output["type"] == "websocket.close":
            self.closed = output.get("code")
            self.transcript.append(f"S: <close {self.closed}>")
            assert self.closed != 1011, f"{self.name}: closed with 1011\n{self.context()}"
            return None
        assert output["type"] == "websocket.send" and isinstance(output.get("text"), str), (self.name, output)
        message = strict_json(output["text"])
        self.transcript.append(f"S: {short(message, 200)}")
        assert isinstance(message, dict) and isinstance(message.get("type"), str), (self.name, message)
        if message["type"] == "LobbyMessages":
            batch = message["messages"]
            assert len(batch) >= 2 and all(isinstance(m, dict) and isinstance(m.get("type"), str)
                                           and m["type"] not in ("Error", "FatalError", "LobbyMessages")
                                           for m in batch), (self.name, message)
            self.received.extend(batch)
            self.unread.extend(batch[1:])
            return batch[0]
        if message["type"] in ("Error", "FatalError"):
            assert isinstance(message.get("code"), str) and CODE.match(message["code"]), message
            assert isinstance(message.get("reason"), str) and message["reason"], message
            assert message["code"] != "InternalError", (
                f"{self.name}: an unexpected exception reached the guard (InternalError)\n{self.context()}")
        self.received.append(message)
        return message

    async def until(self, predicate, timeout: float = 10) -> list[dict[str, Any]]:
        """Messages up to and including the first one ``predicate`` accepts (fails on a close)."""
        out = []
        while True:
            message = await self.next(timeout)
            assert message is not None, f"{self.name}: closed unexpectedly\n{self.context()}"
            out.append(message)
            if predicate(message):
                return out

    async def drain(self) -> None:
        self.unread.clear()
        while not self.closed and not await self.comm.receive_nothing(timeout=0.05):
            await self.next()
        self.unread.clear()

    async def close(self) -> None:
        """Disconnect (as the server's side of a closed socket does) and wait for the consumer to end
        properly: its clean-up runs in ``disconnect``."""
        await end_consumer(self.comm, self.name, self.context)


async def end_consumer(comm: WebsocketCommunicator, name: str, context: Callable[[], str]) -> None:
    """Tell the consumer its socket closed, and wait for it to end: it must, by itself, within 10 s.

    One case is let go: the consumer has finished (its clean-up ran in ``disconnect``) and waits
    only for the channel layer's ``receive`` it cancelled to give up. channels_redis 4.3 on
    redis-py 8.1 loses that cancellation when it arrives during the blocking BZPOPMIN, and the
    receive then never ends (under the in-memory layer this never happens). The test then cancels
    the consumer, as Daphne does after its application close timeout; the presence checks still
    hold it to having cleaned up."""
    try:
        await comm.send_input({"type": "websocket.disconnect", "code": 1000})
    except Exception as crash:  # the application already died
        raise Crash(f"{name}: the consumer died ({crash!r}); a server closes with 1011\n{context()}") from crash
    app = comm.future
    loop = asyncio.get_running_loop()
    deadline = loop.time() + 10
    stuck_since: float | None = None
    while not app.done():
        waiting_for = getattr(app, "_fut_waiter", None)
        if _lost_receive_cancellation(waiting_for):
            stuck_since = stuck_since or loop.time()
            if loop.time() - stuck_since > 0.2:
                tally("consumer left waiting on a cancelled channel-layer receive")
                app.cancel()
                break
        else:
            stuck_since = None
        assert loop.time() < deadline, f"{name}: the consumer did not end after the close\n{context()}"
        await asyncio.sleep(0.01)
    try:
        await app
    except asyncio.CancelledError:
        pass
    except Exception as crash:
        raise Crash(f"{name}: the consumer raised on the way out ({crash!r})\n{context()}") from crash


def _lost_receive_cancellation(waiting_for: Any) -> bool:
    return (isinstance(waiting_for, asyncio.Task) and waiting_for.cancelling() > 0
            and waiting_for.get_coro().__qualname__ == "RedisChannelLayer.receive")


# -- CRIBBAGEBBER ------------------------------------------------------------------------------------

LINE = re.compile(r"^[A-Z]{1,2}:")
PARTING = ("E:", "QU:", "EJ:")


def check_line(name: str, line: str, context: str) -> None:
    assert "\x00" not in line and "\n" not in line and "\r" not in line, (name, line)
    assert LINE.match(line), f"{name}: not a protocol line: {line!r}\n{context}"
    assert not line.startswith("WA:INTERNAL"), f"{name}: an unexpected exception reached the guard\n{context}"


class LineLink:
    """What the line drivers need of a link."""

    name: str
    lines: list[str]
    transcript: list[str]
    closed: bool
    close_code: int | None = None

    def context(self) -> str:
        return f"{self.name} transcript (last 14):\n  " + "\n  ".join(self.transcript[-14:])

    def _received(self, line: str) -> str:
        self.lines.append(line)
        self.transcript.append(f"S: {short(line, 160)}")
        check_line(self.name, line, self.context())
        return line

    def _ended(self) -> None:
        self.closed = True
        self.transcript.append(f"S: <close {self.close_code}>")
        # A link the server ends is always told why first (E:..., QU:, EJ:): a silent hang-up is a
        # consumer that died.
        last = self.lines[-1] if self.lines else ""
        assert last.startswith(PARTING), f"{self.name}: the server hung up without a parting line\n{self.context()}"
        assert self.close_code != 1011, f"{self.name}: closed with 1011\n{self.context()}"


class WsLines(LineLink):
    def __init__(self, path: str, headers: list[tuple[bytes, bytes]] | None = None, name: str = "") -> None:
        from config.asgi import application

        self.comm = WebsocketCommunicator(application, path, headers=headers or [])
        self.name = name
        self.lines = []
        self.transcript = []
        self.closed = False

    async def connect(self) -> None:
        connected, _ = await self.comm.connect(timeout=10)
        assert connected, f"{self.name}: the handshake was refused"

    async def send(self, payload: str | bytes) -> None:
        self.transcript.append(f"C: {short(payload, 160)}")
        key = "bytes" if isinstance(payload, bytes) else "text"
        try:
            await self.comm.send_input({"type": "websocket.receive", key: payload})
        except Exception as crash:
            raise Crash(f"{self.name}: the consumer died ({crash!r}); a server closes with 1011\n"
                        f"{self.context()}") from crash

    async def recv(self, timeout: float = 10) -> str | None:
        try:
            output = await self.comm.receive_output(timeout)
        except TimeoutError:
            raise AssertionError(f"{self.name}: no answer within {timeout} s\n{self.context()}") from None
        except Exception as crash:
            raise Crash(f"{self.name}: the consumer died ({crash!r}); a server closes with 1011\n"
                        f"{self.context()}") from crash
        if output["type"] == "websocket.close":
            self.close_code = output.get("code")
            self._ended()
            return None
        assert output["type"] == "websocket.send" and isinstance(output.get("text"), str), (self.name, output)
        return self._received(output["text"])

    async def close(self) -> None:
        await end_consumer(self.comm, self.name, self.context)


class _Peer(asyncio.Protocol):
    """Everything the server sent, kept as it arrives: a stream reader would raise a reset before
    handing over the lines that came ahead of it (the server resets a link that it closes with the
    peer's bytes still unread, after a breach say), and the parting line would look lost."""

    def __init__(self) -> None:
        self.buffer = bytearray()
        self.ended = False
        self.changed = asyncio.Event()
        self.transport: asyncio.Transport | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport  # type: ignore[assignment]

    def data_received(self, data: bytes) -> None:
        self.buffer += data
        self.changed.set()

    def eof_received(self) -> bool:
        self.ended = True
        self.changed.set()
        return False

    def connection_lost(self, exc: Exception | None) -> None:
        self.ended = True
        self.changed.set()


class TcpLines(LineLink):
    """A raw TCP peer: what it writes is bytes, what it reads must be ``\\n``-terminated UTF-8 lines."""

    def __init__(self, port: int, name: str = "") -> None:
        self.port = port
        self.name = name
        self.lines = []
        self.transcript = []
        self.closed = False
        self.peer = _Peer()

    async def connect(self) -> None:
        await asyncio.get_running_loop().create_connection(lambda: self.peer, "127.0.0.1", self.port)

    async def send(self, payload: str | bytes, cuts: tuple[int, ...] = ()) -> None:
        """Write ``payload``, in separate writes at ``cuts`` (so the server may read it in pieces)."""
        data = payload.encode("utf-8") if isinstance(payload, str) else payload
        self.transcript.append(f"C: {short(data, 160)}")
        points = sorted({c % len(data) for c in cuts if len(data) > 1} - {0})
        transport = self.peer.transport
        for start, end in zip([0, *points], [*points, len(data)]):
            if transport is None or transport.is_closing():
                return  # the server closed first (a breach earlier in the stream): the lines say why
            transport.write(data[start:end])
            await asyncio.sleep(0.001)

    async def recv(self, timeout: float = 10) -> str | None:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while b"\n" not in self.peer.buffer:
            if self.peer.ended:
                assert not self.peer.buffer, f"{self.name}: an unterminated line {bytes(self.peer.buffer)!r}"
                self._ended()
                return None
            self.peer.changed.clear()
            try:
                await asyncio.wait_for(self.peer.changed.wait(), max(0.0, deadline - loop.time()))
            except TimeoutError:
                raise AssertionError(f"{self.name}: no answer within {timeout} s\n{self.context()}") from None
        raw, _, rest = bytes(self.peer.buffer).partition(b"\n")
        self.peer.buffer = bytearray(rest)
        try:
            line = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise AssertionError(f"{self.name}: the server sent bytes that are not UTF-8: {raw!r}") from None
        return self._received(line)

    async def close(self) -> None:
        if self.peer.transport is not None:
            self.peer.transport.close()
