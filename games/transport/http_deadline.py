"""A deadline for each HTTP request to arrive whole, on Daphne's Twisted HTTP channels.

Twisted's only timeout on an HTTP connection is an idle one (``HTTPChannel.timeOut``, 12 hours in
Daphne), and every byte received starts it again: a client that sends its headers a byte at a time
(slowloris) holds its connection for good, and Daphne's own timeouts start only once a request has
arrived (``http_timeout``) or a WebSocket has been upgraded to. Here each connection gets
``timeout`` seconds to deliver a whole request, headers and body, counted from its opening or, on a
kept-alive connection, from the end of the previous response; a connection that misses it is
answered ``408 Request Timeout`` and closed (and reset if it does not go). A WebSocket upgrade is
a request like any other: once it has arrived, the WebSocket's own timeouts take over.
"""

from __future__ import annotations

import logging
from typing import Any

log = logging.getLogger(__name__)

TIMED_OUT = b"HTTP/1.1 408 Request Timeout\r\nConnection: close\r\nContent-Length: 0\r\n\r\n"


def install(factory: Any, timeout: float) -> None:
    """Give every connection ``factory`` (Daphne's ``HTTPFactory``, a Twisted ``HTTPFactory``) builds
    from now on the deadline. Set on the running factory: Daphne builds and listens with its own."""
    if timeout <= 0:
        return
    build = factory.buildProtocol

    def build_protocol(address: Any) -> Any:
        protocol = build(address)
        if protocol is not None:
            # Twisted wraps its HTTPChannel in a protocol that can switch to HTTP/2 (not served here).
            _Deadline(getattr(protocol, "_channel", protocol), timeout)
        return protocol

    factory.buildProtocol = build_protocol


class _Deadline:
    """Runs on one channel: started when the connection opens and after each response, stopped when
    a whole request has arrived. It wraps three of the channel's methods on the instance (the
    channel calls them on itself), so Twisted's own behaviour is otherwise unchanged."""

    def __init__(self, channel: Any, timeout: float) -> None:
        self.channel = channel
        self.timeout = timeout
        self.call: Any = None
        self._wrap("connectionMade", before=self.start)
        self._wrap("allContentReceived", before=self.stop)
        # Before: a pipelined request already buffered is read by requestDone itself.
        self._wrap("requestDone", before=self.restart)
        self._wrap("connectionLost", before=self.stop)

    def _wrap(self, name: str, before: Any) -> None:
        original = getattr(self.channel, name)

        def wrapped(*args: Any, **kwargs: Any) -> Any:
            before()
            return original(*args, **kwargs)

        setattr(self.channel, name, wrapped)

    def start(self) -> None:
        from twisted.internet import reactor

        self.stop()
        self.call = reactor.callLater(self.timeout, self.expire)

    def restart(self) -> None:
        # A kept-alive connection waits for its next request; a closing one needs no deadline.
        if self.channel.persistent and self.channel.transport is not None and not self.channel.transport.disconnecting:
            self.start()

    def stop(self) -> None:
        if self.call is not None and self.call.active():
            self.call.cancel()
        self.call = None

    def expire(self) -> None:
        self.call = None
        transport = self.channel.transport
        if transport is None or transport.disconnecting:
            return
        log.info("HTTP connection %s: no whole request within %g s, closed", transport.getPeer(), self.timeout)
        transport.write(TIMED_OUT)
        # Twisted's own way out for a timed-out client: close, and reset after abortTimeout.
        self.channel.timeoutConnection()
