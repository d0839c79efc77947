"""The one bound on request bodies, in front of every ASGI app (config/asgi.py wraps ``application``).

Without it a body was held whole before anything looked at its size: python-socketio's long polling
reads a POST to the end before it compares it with its 64 KiB packet limit, and Django refuses a body
over ``DATA_UPLOAD_MAX_MEMORY_SIZE`` only once it has been read in. Here a declared ``Content-Length``
over the limit is refused at once, and a body without one (chunked) is counted as it arrives and
refused as soon as it passes the limit, the rest never read; either way the app is not called.

The limit comes from what the routes read (``limit_for``): Django's own ``DATA_UPLOAD_MAX_MEMORY_SIZE``
for everything (no route takes file uploads), less where a route's readers take less. Under
``manage.py serve`` Daphne applies the same table while the body arrives, before Twisted stores any of
it (config/daphne_bodies.py); this middleware holds for any other ASGI server too.

A refusal is 413 with ``Connection: close``: JSON in the API's shape (``{"code", "reason"}``,
games/api/errors.py) under ``/api/`` and socket.io's path, plain text elsewhere; the log gets one
warning line, no traceback.
"""

from __future__ import annotations

import json
import logging
from collections import deque
from collections.abc import Awaitable, Callable, Iterable
from typing import Any

from django.conf import global_settings, settings

from games.riichi.transport import majiang_server

log = logging.getLogger(__name__)

Scope = dict[str, Any]
Message = dict[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
App = Callable[[Scope, Receive, Send], Awaitable[None]]

# majiang-bot's log-in form, ``name=username:token&passwd=*``: the view reads a name of at most 512
# characters, which percent-encoded UTF-8 makes at most 512 * 4 * 3 = 6,144 bytes; the rest is slack.
MAJIANG_AUTH_BYTES = 8 * 1024

# (path prefix, limit in bytes): the first prefix a request's path starts with gives its limit, which
# is never more than the default below. Matched against the ASGI scope's (percent-decoded) path, as
# config/asgi.py routes it.
ROUTE_LIMITS: tuple[tuple[str, int], ...] = (
    # engine.io refuses a polling payload longer than its max_http_buffer_size after reading it in;
    # here it is refused before.
    (majiang_server.SOCKETIO_PATH, majiang_server.MAX_PACKET_BYTES),
    (f"{majiang_server.BASE}/auth/", MAJIANG_AUTH_BYTES),
)
# Paths whose refusal is JSON; elsewhere it is plain text (a browser's pages, majiang's log-in form).
JSON_PREFIXES = ("/api/", majiang_server.SOCKETIO_PATH)


def default_limit() -> int:
    """Django's ``DATA_UPLOAD_MAX_MEMORY_SIZE`` (2.5 MiB unless configured), read at each request so a
    test's setting applies. ``None`` turns Django's own check off; the body is still bounded here,
    by Django's default."""
    configured = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
    return global_settings.DATA_UPLOAD_MAX_MEMORY_SIZE if configured is None else configured


def limit_for(path: str) -> int:
    """The most bytes a request body to ``path`` may have."""
    limit = default_limit()
    for prefix, route_limit in ROUTE_LIMITS:
        if path.startswith(prefix):
            return min(route_limit, limit)
    return limit


def declared_length(headers: Iterable[tuple[bytes, bytes]]) -> int | None:
    """The ``Content-Length`` an ASGI request declares; None without one (or with one that is not a
    number, which the server has refused already: Twisted does)."""
    for name, value in headers:
        if name.lower() == b"content-length":
            return int(value) if value.strip().isdigit() else None
    return None


def refusal(path: str, limit: int) -> tuple[list[tuple[bytes, bytes]], bytes]:
    """The headers (lower-case names) and body of the 413 that refuses a body to ``path`` over ``limit``."""
    reason = f"a request body is at most {limit} bytes"
    if path.startswith(JSON_PREFIXES):
        body = json.dumps({"code": "RequestTooLarge", "reason": reason}).encode()
        content_type = b"application/json"
    else:
        body = f"{reason}\n".encode()
        content_type = b"text/plain; charset=utf-8"
    headers = [(b"content-type", content_type), (b"content-length", str(len(body)).encode()),
               # The rest of the body was not read: the connection cannot carry another request.
               (b"connection", b"close")]
    return headers, body


def log_refusal(method: str, path: str, limit: int, client: str | None) -> None:
    # One line whatever the path holds (repr escapes a newline in it).
    log.warning("refused a request body over %d bytes: %s %r from %s", limit, method, path, client or "?")


class BodyLimit:
    """ASGI middleware: an HTTP request reaches ``app`` only with a body within ``limit_for(path)``.

    The body is read here, counted message by message, and handed to the app as it came; a declared
    length over the limit is refused before any of it is read, an undeclared one as soon as the count
    passes the limit. Every app behind it (Django, python-socketio) reads a whole body before it acts
    on it, so reading it first changes nothing for them. WebSockets and other scopes pass through."""

    def __init__(self, app: App) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        path = scope["path"]
        limit = limit_for(path)
        declared = declared_length(scope.get("headers", ()))
        if declared is not None and declared > limit:
            return await self.refuse(scope, send, limit)
        body: deque[Message] = deque()
        size = 0
        while True:
            message = await receive()
            if message["type"] != "http.request":
                return  # http.disconnect: the client left before its body was all there
            size += len(message.get("body", b""))
            if size > limit:
                return await self.refuse(scope, send, limit)
            body.append(message)
            if not message.get("more_body", False):
                break

        async def replay() -> Message:
            # The body as it came, then whatever the server says next (a disconnect).
            return body.popleft() if body else await receive()

        await self.app(scope, replay, send)

    @staticmethod
    async def refuse(scope: Scope, send: Send, limit: int) -> None:
        client = scope.get("client")
        log_refusal(scope.get("method", "?"), scope["path"], limit, f"{client[0]}:{client[1]}" if client else None)
        headers, body = refusal(scope["path"], limit)
        await send({"type": "http.response.start", "status": 413, "headers": headers})
        await send({"type": "http.response.body", "body": body})
