"""Line protocols over raw TCP: each connection is bridged to the ASGI application as a WebSocket.

A line protocol's seed says it goes over TCP (CRIBBAGEBBER, UMP), so bot authors expect a plain
port. Rather than a gateway per protocol, every TCP connection becomes a WebSocket connection to
the protocol's path on the full ASGI application (``config.asgi.application``): the same routing,
the same consumer, the same channel layer. Only the framing differs: one line per ``\n`` (a CR
before it belongs to the terminator) instead of one line per frame. A protocol here is just its
``LineProtocol``: a name for the logs, the consumer's path, the terminator of the lines the
server writes, and the longest line it accepts. Each protocol is then a codec plus a consumer.

The scope has no headers, so no cookie and no Origin: the consumer treats the link as a program,
which logs in with its protocol's own credentials. Behind a TCP proxy (``proxy_protocol``) each
connection begins with the proxy's PROXY protocol header (version 1), which names the client: the
per-address limits then count clients, not the proxy.

Nothing here knows a game. The byte-level breaches a WebSocket never shows the consumer (a NUL
in the stream, bytes that are not UTF-8, a line over the limit with no end in sight) reach it as
what a line consumer treats as a breach, a binary frame; it answers in its protocol's terms and
closes, exactly as for its own breaches.
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import logging
import socket
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Protocol

from games.core.limits import Bucket

log = logging.getLogger(__name__)

Message = dict[str, Any]
ASGIApp = Callable[[Message, Callable[[], Awaitable[Message]], Callable[[Message], Awaitable[None]]], Awaitable[None]]


class Framer(Protocol):
    """Cuts a byte stream into the messages a consumer gets one text frame each."""

    def feed(self, data: bytes) -> list[str]:
        """The messages ``data`` completes; ``Breach`` when the stream breaks the protocol's rules."""
        ...


@dataclass(frozen=True)
class LineProtocol:
    """What the bridge needs to know of a line protocol."""

    name: str  # for the logs
    path: str  # the WebSocket path of its consumer
    terminator: bytes  # what ends each line the server writes
    max_line_bytes: int  # a longer line (even unfinished) is a breach
    # How the stream the peer sends is cut into messages: lines unless the protocol says otherwise
    # (mmj's messages are not line-delimited; its codec's reader cuts them by their grammar).
    framer: Callable[[], Framer] | None = None

    def reader(self) -> Framer:
        return self.framer() if self.framer is not None else LineReader(self.max_line_bytes)


class Breach(Exception):
    """A stream that breaks the rules every line protocol here shares (a NUL, bytes that are not
    UTF-8, an over-long line): the consumer answers in its protocol's terms and disconnects."""

    def __init__(self, reason: str, before: list[str] | None = None) -> None:
        self.reason = reason
        # Messages the same read completed before the breach: the consumer hears them first.
        self.before = list(before or [])
        super().__init__(reason)


class LineReader:
    """Splits a TCP byte stream into lines. ``feed`` returns the complete lines received so far and
    raises ``Breach`` on NUL, invalid UTF-8 or a line (even an unfinished one) over the limit."""

    def __init__(self, max_bytes: int) -> None:
        self.max_bytes = max_bytes
        self._pending = b""

    def feed(self, data: bytes) -> list[str]:
        if b"\x00" in data:
            raise Breach("NUL in a line")
        self._pending += data
        *complete, self._pending = self._pending.split(b"\n")
        # An unfinished line may hold one byte more if that is a CR: a read can end between a
        # line's CR and its LF, and the CR is the terminator's, not the line's.
        if len(self._pending) > self.max_bytes + self._pending.endswith(b"\r"):
            raise Breach(f"a line over {self.max_bytes} bytes")
        lines = []
        for raw in complete:
            if raw.endswith(b"\r"):
                raw = raw[:-1]
            if len(raw) > self.max_bytes:
                raise Breach(f"a line over {self.max_bytes} bytes")
            try:
                lines.append(raw.decode("utf-8"))
            except UnicodeDecodeError:
                raise Breach("a line that is not UTF-8") from None
        return lines


# What one read takes off the socket, and what the socket itself may hold unread. Both bound the
# input a link holds beyond its queue, which is also what still runs if the peer leaves while the
# consumer is busy: the kernel does not tell of a peer's close behind the data before it.
READ_SIZE = 4 * 1024
RECEIVE_BUFFER = 32 * 1024
# The kernel's buffer of lines written and not yet taken by the peer (plenty for a line protocol):
# past it, a peer that does not read meets the write timeout instead of megabytes of buffer.
SEND_BUFFER = 64 * 1024
# Like Daphne's --application-close-timeout: how long a consumer may take to finish after its link.
CLOSE_TIMEOUT = 10.0
# Lines read but not yet handled. When the consumer falls this far behind, the link stops reading:
# the peer's sends then block in its own TCP buffers instead of in this process's memory.
MAX_PENDING_LINES = 32
# A link on which nothing has passed either way for this long is dead (a line protocol may have no
# ping, so a link waiting for the server to speak counts as alive while the server speaks).
IDLE_TIMEOUT = 30 * 60.0
# A peer that does not take what the server writes for this long is cut off, so its unread lines
# cannot pile up in this process either.
WRITE_TIMEOUT = 30.0
# Every byte a peer sends counts, before any framing (whitespace that a framer skips costs CPU but
# makes no message): this many a second on average, this many at once. Past it the consumer gets a
# frame marked RATE_LIMITED (the reason), refuses the link in its protocol's terms and closes it.
BYTES_PER_SECOND = 64 * 1024.0
BYTE_BURST = 512 * 1024
RATE_LIMITED = "rate_limited"


class LineServer:
    """A TCP listener whose connections are links of ``protocol`` on ``application``.

    Every limit of a link is a constructor argument (tests shorten them); ``manage.py serve``
    passes the settings ``TCP_*`` (docs/security.md lists them with their values)."""

    def __init__(self, protocol: LineProtocol, application: ASGIApp, host: str = "127.0.0.1",
                 port: int = 0, close_timeout: float = CLOSE_TIMEOUT, *,
                 max_pending_lines: int = MAX_PENDING_LINES, idle_timeout: float = IDLE_TIMEOUT,
                 write_timeout: float = WRITE_TIMEOUT, bytes_per_second: float = BYTES_PER_SECOND,
                 byte_burst: int = BYTE_BURST, proxy_protocol: bool = False) -> None:
        self.application = application
        self.proxy_protocol = proxy_protocol
        self.protocol = protocol
        self.host = host
        self.port = port
        self.path = protocol.path
        self.close_timeout = close_timeout
        self.max_pending_lines = max_pending_lines
        self.idle_timeout = idle_timeout
        self.write_timeout = write_timeout
        self.bytes_per_second = bytes_per_second
        self.byte_burst = byte_burst
        self.server: asyncio.Server | None = None
        self._links: dict[asyncio.Task[None], _Link] = {}

    async def start(self) -> None:
        """Listen (on the running loop). With port 0, ``port`` is the one the system chose."""
        listener = socket.create_server((self.host, self.port))
        # Set on the listener, before any peer connects, so each connection starts with them and
        # its TCP window is negotiated for them. Shrinking a connected socket's buffer instead
        # leaves the peer with a window the kernel then drops data beyond, and it stalls while
        # its retransmissions back off.
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, RECEIVE_BUFFER)
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, SEND_BUFFER)
        # limit: the stream's own buffer pauses the socket at twice this.
        self.server = await asyncio.start_server(self.handle, sock=listener, limit=READ_SIZE)
        self.port = self.server.sockets[0].getsockname()[1]

    async def close(self) -> None:
        """Stop listening and end every link as though its peer had left, so each consumer hears
        its disconnect and leaves properly (``asyncio.Server.close`` leaves accepted connections
        running; a link whose consumer takes too long is cut off after ``close_timeout``)."""
        if self.server is not None:
            self.server.close()
        for link in self._links.values():
            link.writer.close()
        await asyncio.gather(*self._links, return_exceptions=True)
        if self.server is not None:
            await self.server.wait_closed()

    @property
    def links(self) -> int:
        """How many links are open now."""
        return len(self._links)

    def pending(self) -> list[int]:
        """Each open link's lines read and not yet handled."""
        return [link.inbox.qsize() for link in self._links.values()]

    def scope(self, writer: asyncio.StreamWriter, client: list[Any] | None = None) -> Message:
        """The link's WebSocket scope; ``client``: the address a proxy named, else the peer's."""
        return {
            "type": "websocket",
            "asgi": {"version": "3.0"},
            "path": self.path,
            "raw_path": self.path.encode("ascii"),
            "root_path": "",
            "query_string": b"",
            "headers": [],  # no cookie, no Origin: the consumer wants the protocol's own log-in
            "client": client or _address(writer.get_extra_info("peername")),
            "server": _address(writer.get_extra_info("sockname")),
            "subprotocols": [],
        }

    async def handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        """One connection, one application instance, for as long as either keeps the link."""
        task = asyncio.current_task()
        assert task is not None
        client = None
        if self.proxy_protocol:
            try:
                client = await asyncio.wait_for(proxy_header(reader), PROXY_HEADER_TIMEOUT)
            except (ValueError, TimeoutError, ConnectionError, asyncio.IncompleteReadError,
                    asyncio.LimitOverrunError) as refused:
                # Only the proxy connects here: anything else is no client to serve.
                log.warning("%s link without a valid PROXY header: %s", self.protocol.name, refused)
                writer.close()
                return
        link = _Link(self, reader, writer)
        self._links[task] = link
        scope = self.scope(writer, client)
        app = asyncio.ensure_future(self.application(scope, link.inbox.get, link.send))
        reading = asyncio.ensure_future(link.read())
        # A consumer that stops (or crashes) ends the link; nobody is left to take what the
        # reader would queue, so the reader stops too.
        app.add_done_callback(lambda _: (link.end(), reading.cancel()))
        link.inbox.put_nowait({"type": "websocket.connect"})
        try:
            await asyncio.wait({reading})
            if not reading.cancelled():
                code = reading.result()
                if not link.breached:
                    # The peer is gone (or the link was cut): what it sent and the consumer has
                    # not handled yet goes with it (a dead link's chat never posts after it left).
                    # A breach, though, is heard after the lines before it, as a WebSocket's is.
                    link.drop_pending()
                put = asyncio.ensure_future(link.inbox.put({"type": "websocket.disconnect", "code": code}))
                await asyncio.wait({put, app}, return_when=asyncio.FIRST_COMPLETED)
                put.cancel()  # the application ended first: nobody is left to tell
                await asyncio.wait_for(app, self.close_timeout)
        except TimeoutError:
            log.warning("%s link %s: the application took too long to finish and was cancelled",
                        self.protocol.name, scope["client"])
        except Exception:
            log.exception("Exception inside application (%s link over TCP)", self.protocol.name)
        finally:
            self._links.pop(task, None)
            for running in (reading, app):
                if not running.done():
                    running.cancel()
            writer.close()
            with contextlib.suppress(Exception):
                await writer.wait_closed()


class _Link:
    """The state of one connection: its bounded inbox, its clock, and how it ends."""

    def __init__(self, server: LineServer, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.server = server
        self.reader = reader
        self.writer = writer
        self.inbox: asyncio.Queue[Message] = asyncio.Queue(maxsize=server.max_pending_lines)
        self.ended = asyncio.Event()  # the application closed (or refused) the link
        self.timed_out = False
        self.breached = False
        loop = asyncio.get_running_loop()
        self._loop = loop
        self._last = loop.time()
        self._idle = loop.call_later(server.idle_timeout, self._check_idle)

    def end(self) -> None:
        if self.ended.is_set():
            return
        self.ended.set()
        self._idle.cancel()
        self.writer.close()  # what was written still goes out first; the reader then sees the end
        # A closing transport stops reading and waits to flush; a peer that does not read would
        # keep it (and the link) open for good, so the flush gets the write timeout, then a reset.
        self._loop.call_later(self.server.write_timeout, self.writer.transport.abort)

    def _check_idle(self) -> None:
        # One timer per link, pushed back rather than re-armed on every line: traffic stays cheap.
        quiet = self._loop.time() - self._last
        if quiet >= self.server.idle_timeout:
            log.info("%s link %s: idle for %.0f s, closed", self.server.protocol.name,
                     self.writer.get_extra_info("peername"), quiet)
            self.timed_out = True
            self.end()
        else:
            self._idle = self._loop.call_later(self.server.idle_timeout - quiet, self._check_idle)

    def drop_pending(self) -> None:
        while not self.inbox.empty():
            self.inbox.get_nowait()

    async def send(self, message: Message) -> None:
        kind = message["type"]
        if kind == "websocket.send" and message.get("text") is not None and not self.ended.is_set():
            self._last = self._loop.time()
            self.writer.write(message["text"].encode("utf-8") + self.server.protocol.terminator)
            try:
                async with asyncio.timeout(self.server.write_timeout):
                    await self.writer.drain()
            except TimeoutError:
                # The peer stopped reading: cut it off rather than buffer its lines without end.
                log.info("%s link %s: not reading, cut off", self.server.protocol.name,
                         self.writer.get_extra_info("peername"))
                self.timed_out = True
                self.writer.transport.abort()
                self.end()
            except ConnectionError:
                pass  # the peer left: its disconnect is on its way
        elif kind == "websocket.close":
            self.end()
        # websocket.accept: the TCP connection is already open, nothing to say.

    async def read(self) -> int:
        """Feed the consumer the stream's lines until the peer or the application ends the link;
        the WebSocket close code the consumer will be told."""
        lines = self.server.protocol.reader()
        budget = Bucket(self.server.bytes_per_second, self.server.byte_burst)
        try:
            while data := await self.reader.read(READ_SIZE):
                if self.ended.is_set():
                    break  # read before the close: the consumer has nothing more to hear
                self._last = self._loop.time()
                if budget.take(len(data)):
                    # Refused before the framer sees a byte of it: a flood costs next to nothing.
                    # Like a breach, it is heard after the messages before it; nothing more is read.
                    self.breached = True
                    await self.inbox.put({"type": "websocket.receive", "bytes": b"", RATE_LIMITED: (
                        f"at most {self.server.byte_burst} bytes at once and {self.server.bytes_per_second:g} "
                        "a second on a connection")})
                    return 1000
                try:
                    received = lines.feed(data)
                except Breach as breach:
                    # The consumer's own rule for what a text frame cannot carry: a binary frame is
                    # a breach, which it answers in its own terms before it closes the link. The
                    # framer's reason rides along for a consumer that says it (mmj's reject).
                    self.breached = True
                    for line in breach.before:
                        await self.inbox.put({"type": "websocket.receive", "text": line})
                    await self.inbox.put({"type": "websocket.receive", "bytes": data, "breach": breach.reason})
                    return 1000
                for line in received:
                    if self.ended.is_set() or self.writer.transport.is_closing():
                        break  # the link was closed or reset while this batch waited
                    # Waits while the inbox is full, and while it waits nothing more is read.
                    await self.inbox.put({"type": "websocket.receive", "text": line})
        except ConnectionError:
            return 1006  # dropped, not closed: WebSocket's "abnormal closure"
        return 1001 if self.timed_out else 1000


# The PROXY protocol's version 1 header: at most 107 bytes with its CRLF (HAProxy's proxy-protocol.txt).
PROXY_HEADER_MAX = 107
PROXY_HEADER_TIMEOUT = 5.0


async def proxy_header(reader: asyncio.StreamReader) -> list[Any] | None:
    """Read a PROXY protocol version 1 header (``PROXY TCP4 <src> <dst> <sport> <dport>\r\n``, or
    ``PROXY UNKNOWN ...``) and return the client's address it names ([host, port]; None for
    UNKNOWN: the proxy's own check, which has none). ``ValueError`` if it is not one."""
    line = await reader.readuntil(b"\r\n")
    if len(line) > PROXY_HEADER_MAX:
        raise ValueError("a PROXY header is at most 107 bytes")
    parts = line[:-2].decode("ascii").split(" ")
    if parts[:1] != ["PROXY"] or len(parts) < 2:
        raise ValueError(f"not a PROXY header: {line[:40]!r}")
    if parts[1] == "UNKNOWN":
        return None
    if parts[1] not in ("TCP4", "TCP6") or len(parts) != 6:
        raise ValueError(f"not a PROXY header: {line[:40]!r}")
    source = ipaddress.ip_address(parts[2])
    port = int(parts[4])
    if not 0 <= port <= 65535 or (source.version == 4) != (parts[1] == "TCP4"):
        raise ValueError(f"not a PROXY header: {line[:40]!r}")
    return [str(source), port]


def _address(address: Any) -> list[Any] | None:
    # ASGI wants [host, port]; IPv6 socket addresses carry two more fields.
    return list(address[:2]) if isinstance(address, tuple) else None
