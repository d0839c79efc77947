"""Daphne's side of the request-body limit (config/bodies.py), for the server ``manage.py serve`` runs.

The ASGI middleware alone comes too late under Daphne: Twisted's HTTP channel reads the whole body
(``twisted/web/http.py``: ``Request.gotLength`` opens a ``BytesIO`` or temporary file,
``handleContentChunk`` writes every decoded piece to it) before Daphne's ``WebRequest.process`` runs,
and that then queues the whole body to the app at once (``daphne/http_protocol.py``). So the request
class the channel builds is replaced by ``BodyLimitedRequest``, which applies the same limit
(``bodies.limit_for``) where Twisted hands the body over: it refuses a declared ``Content-Length``
over the limit as soon as the headers are in, and a chunked body as soon as its count passes the
limit, before either is stored; it answers 413 and closes the connection (the rest of the body is
never read, so the connection cannot carry another request).

Only HTTP/1.1 is served (no TLS, so no HTTP/2 by ALPN); Twisted's HTTP/2 stream has its own request
path, which this does not cover. Twisted and Daphne are pinned (requirements.txt): this reads two
attributes of Twisted's ``HTTPChannel`` (``_command``, ``_path``), the request line, since a request
learns its method and path only once its body is complete.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import unquote

from daphne.http_protocol import HTTPFactory, WebRequest

from config import bodies


def target_path(target: bytes) -> str:
    """The path Daphne will put in the ASGI scope for this request target (``WebRequest.process``:
    the part before ``?``, percent-decoded); a target that is not ASCII (which Daphne answers 400)
    matches no route's prefix and gets the default limit."""
    return unquote(target.split(b"?", 1)[0].decode("ascii", "replace"))


class BodyLimitedRequest(WebRequest):
    """Daphne's request, refusing a body over its route's limit while the body arrives."""

    _limit = 0
    _received = 0  # bytes of the body so far (after chunked decoding)
    _refused = False

    def gotLength(self, length: int | None) -> None:
        # The channel calls this once the headers are in, before it reads any of the body:
        # ``length`` is the declared Content-Length, None for a chunked body.
        self._limit = bodies.limit_for(target_path(self.channel._path))
        if length is not None and length > self._limit:
            self._refuse()
            length = 0  # an empty in-memory file: nothing of the body is stored
        super().gotLength(length)

    def handleContentChunk(self, data: bytes) -> None:
        # Each piece of the body as it is read, before it is stored.
        if self._refused:
            return  # the rest of what was read with the piece that passed the limit
        self._received += len(data)
        if self._received > self._limit:
            self._refuse()
            return
        super().handleContentChunk(data)

    def requestReceived(self, command: bytes, path: bytes, version: bytes) -> None:
        # The channel's "the body is complete": the end of a refused chunked body may have come in
        # the same read as the piece that passed the limit. Such a request never reaches the app.
        if not self._refused:
            super().requestReceived(command, path, version)

    def _refuse(self) -> None:
        self._refused = True
        # The channel answers "Expect: 100-continue" right after gotLength: not for a body refused.
        self.requestHeaders.removeHeader(b"Expect")
        channel = self.channel
        path = target_path(channel._path)
        peer = channel.transport.getPeer()
        client = f"{peer.host}:{peer.port}" if hasattr(peer, "host") else None
        bodies.log_refusal(channel._command.decode("ascii", "replace"), path, self._limit, client)
        headers, body = bodies.refusal(path, self._limit)
        head = b"".join(name + b": " + value + b"\r\n" for name, value in headers)
        channel.transport.write(b"HTTP/1.1 413 Content Too Large\r\n" + head + b"\r\n" + body)
        # Written out, then closed; the transport stops reading at once, and the channel reads no
        # further line of a transport that is disconnecting (LineReceiver.dataReceived).
        channel.loseConnection()


def limit_bodies(factory: HTTPFactory) -> None:
    """Make Daphne's HTTP factory (``Server.http_factory``) build channels whose requests are
    ``BodyLimitedRequest``s. ``Server.run`` makes the factory itself and gives no way to choose its
    request class (Daphne's ``HTTPFactory.buildProtocol`` sets ``WebRequest`` on every channel), so
    its ``buildProtocol`` is wrapped; call this before the reactor accepts a connection (from
    ``reactor.callWhenRunning``, as ``manage.py serve`` does)."""
    build = factory.buildProtocol

    def build_limited(addr: Any) -> Any:
        protocol = build(addr)
        protocol.requestFactory = BodyLimitedRequest
        return protocol

    factory.buildProtocol = build_limited
