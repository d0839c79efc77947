"""The WebSocket origin check: a browser's socket is accepted only from a page of this very site.

Channels' ``AllowedHostsOriginValidator`` compares the Origin's host name with ``ALLOWED_HOSTS``
and ignores the port, so a page served by any other program on the same host (another port) could
open a socket that rides on the user's session cookie. This check is Django's CSRF rule for
WebSockets instead: the Origin must name the host *and port* the request was sent to (its ``Host``
header, itself one of ``ALLOWED_HOSTS``), or be listed in ``CSRF_TRUSTED_ORIGINS`` (a proxy on
another scheme or port).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any
from urllib.parse import urlsplit

from channels.security.websocket import WebsocketDenier
from django.conf import settings
from django.http.request import split_domain_port, validate_host

DEFAULT_PORTS = {"http": 80, "ws": 80, "https": 443, "wss": 443}

ASGIApp = Callable[[dict[str, Any], Callable[..., Any], Callable[..., Any]], Awaitable[None]]


def _header(scope: dict[str, Any], name: bytes) -> str | None:
    for key, value in scope.get("headers", []):
        if key == name:
            return value.decode("latin1")
    return None


def _host_port(netloc: str, scheme: str) -> tuple[str, int] | None:
    """``host[:port]`` as (lower-case host, port), the scheme's port when none is given."""
    host, port = split_domain_port(netloc)
    if not host:
        return None
    if not port:
        default = DEFAULT_PORTS.get(scheme)
        return None if default is None else (host, default)
    return (host, int(port)) if port.isdigit() else None


def same_origin(scope: dict[str, Any]) -> bool:
    """Whether the connection's Origin is this site as the browser reached it."""
    origin = _header(scope, b"origin")
    if origin is None:
        return False
    if origin in settings.CSRF_TRUSTED_ORIGINS:
        return True
    host = _header(scope, b"host")
    if host is None:
        return False
    try:
        parsed = urlsplit(origin)
    except ValueError:
        return False
    if parsed.scheme not in ("http", "https") or parsed.path or parsed.query or parsed.username:
        return False
    mine = _host_port(host.lower(), scope.get("scheme", "ws"))
    theirs = _host_port(parsed.netloc.lower(), parsed.scheme)
    return mine is not None and mine == theirs and validate_host(mine[0], settings.ALLOWED_HOSTS)


class SameOriginValidator:
    """ASGI middleware: refuse the WebSocket handshake (HTTP 403) unless ``same_origin``."""

    def __init__(self, application: ASGIApp) -> None:
        self.application = application

    async def __call__(self, scope: dict[str, Any], receive: Callable[..., Any], send: Callable[..., Any]) -> None:
        if same_origin(scope):
            return await self.application(scope, receive, send)
        return await WebsocketDenier()(scope, receive, send)
