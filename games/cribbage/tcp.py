"""CRIBBAGEBBER over raw TCP: each connection is bridged to the ASGI application as a WebSocket.

The seed says the protocol goes over TCP, so bot authors expect a plain port. Rather than a
second gateway, every TCP connection becomes a WebSocket connection to ``/ws/cribbage/`` on the
full ASGI application (``config.asgi.application``): the same routing, the same consumer
(``games/cribbage/consumers.py``), the same channel layer. Only the framing differs: lines end
with ``\\n`` (``framing.LineReader``, ``framing.encode_line``) instead of one line per frame.

The scope has no headers, so no cookie and no Origin: the consumer treats the link as a program,
which logs in with ``IM:<nickname>/<token>``.

Nothing here knows the game. The byte-level breaches a WebSocket never shows the consumer (a NUL
in the stream, bytes that are not UTF-8, a line over the limit with no end in sight) reach it as
what it already treats as a breach, a binary frame: it says ``E: You Brute!``, leaves the table
and closes, exactly as for its own breaches.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from .protocols.framing import Breach, LineReader, encode_line

log = logging.getLogger(__name__)

Message = dict[str, Any]
ASGIApp = Callable[[Message, Callable[[], Awaitable[Message]], Callable[[Message], Awaitable[None]]], Awaitable[None]]

DEFAULT_PORT = 7321
PATH = "/ws/cribbage/"
READ_SIZE = 64 * 1024
# Like Daphne's --application-close-timeout: how long a consumer may take to finish after its link.
CLOSE_TIMEOUT = 10.0


class LineServer:
    """A TCP listener whose connections are CRIBBAGEBBER links on ``path`` of ``application``."""

    def __init__(self, application: ASGIApp | None = None, host: str = "127.0.0.1", port: int = DEFAULT_PORT,
                 path: str = PATH, close_timeout: float = CLOSE_TIMEOUT) -> None:
        if application is None:
            from config.asgi import application  # the full routing app: same consumer, same middleware
        self.application = application
        self.host = host
        self.port = port
        self.path = path
        self.close_timeout = close_timeout
        self.server: asyncio.Server | None = None
        self._links: dict[asyncio.Task[None], asyncio.StreamWriter] = {}

    async def start(self) -> None:
        """Listen (on the running loop). With port 0, ``port`` is the one the system chose."""
        self.server = await asyncio.start_server(self.handle, self.host, self.port)
        self.port = self.server.sockets[0].getsockname()[1]

    async def close(self) -> None:
        """Stop listening and end every link as though its peer had left, so each consumer hears
        its disconnect and leaves properly (``asyncio.Server.close`` leaves accepted connections
        running; a link whose consumer takes too long is cut off after ``close_timeout``)."""
        if self.server is not None:
            self.server.close()
        for writer in self._links.values():
            writer.close()
        await asyncio.gather(*self._links, return_exceptions=True)
        if self.server is not None:
            await self.server.wait_closed()

    def scope(self, writer: asyncio.StreamWriter) -> Message:
        return {
            "type": "websocket",
            "asgi": {"version": "3.0"},
            "path": self.path,
            "raw_path": self.path.encode("ascii"),
            "root_path": "",
            "query_string": b"",
            "headers": [],  # no cookie, no Origin: the consumer wants a token (in IM:)
            "client": _address(writer.get_extra_info("peername")),
            "server": _address(writer.get_extra_info("sockname")),
            "subprotocols": [],
        }

    async def handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        """One connection, one application instance, for as long as either keeps the link."""
        task = asyncio.current_task()
        assert task is not None
        self._links[task] = writer
        inbox: asyncio.Queue[Message] = asyncio.Queue()
        ended = asyncio.Event()  # the application closed (or refused) the link

        def end() -> None:
            ended.set()
            writer.close()  # what was written still goes out first; the reader then sees the end

        async def send(message: Message) -> None:
            kind = message["type"]
            if kind == "websocket.send" and message.get("text") is not None and not ended.is_set():
                writer.write(encode_line(message["text"]))
                with contextlib.suppress(ConnectionError):  # the peer left: its disconnect is on its way
                    await writer.drain()
            elif kind == "websocket.close":
                end()
            # websocket.accept: the TCP connection is already open, nothing to say.

        scope = self.scope(writer)
        app = asyncio.ensure_future(self.application(scope, inbox.get, send))
        app.add_done_callback(lambda _: end())  # a consumer that stops (or crashes) ends the link
        inbox.put_nowait({"type": "websocket.connect"})
        try:
            code = await self._read(reader, inbox, ended)
            # Queued after every line read, so the consumer handles them (and a breach) first.
            inbox.put_nowait({"type": "websocket.disconnect", "code": code})
            await asyncio.wait_for(app, self.close_timeout)
        except TimeoutError:
            log.warning("CRIBBAGEBBER link %s: the application took too long to finish and was cancelled",
                        scope["client"])
        except Exception:
            log.exception("Exception inside application (CRIBBAGEBBER link over TCP)")
        finally:
            self._links.pop(task, None)
            if not app.done():
                app.cancel()
            writer.close()
            with contextlib.suppress(Exception):
                await writer.wait_closed()

    async def _read(self, reader: asyncio.StreamReader, inbox: asyncio.Queue[Message], ended: asyncio.Event) -> int:
        """Feed the consumer the stream's lines until the peer or the application ends the link;
        the WebSocket close code the consumer will be told."""
        lines = LineReader()
        try:
            while data := await reader.read(READ_SIZE):
                if ended.is_set():
                    break  # read before the close: the consumer has nothing more to hear
                try:
                    received = lines.feed(data)
                except Breach:
                    # The consumer's own rule for what a text frame cannot carry: a binary frame is
                    # a breach, so it answers E: You Brute!, leaves the table and closes the link.
                    inbox.put_nowait({"type": "websocket.receive", "bytes": data})
                    return 1000
                for line in received:
                    inbox.put_nowait({"type": "websocket.receive", "text": line})
        except ConnectionError:
            return 1006  # dropped, not closed: WebSocket's "abnormal closure"
        return 1000


def _address(address: Any) -> list[Any] | None:
    # ASGI wants [host, port]; IPv6 socket addresses carry two more fields.
    return list(address[:2]) if isinstance(address, tuple) else None
