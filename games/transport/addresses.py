"""Open links per client address, over every transport together (docs/security.md).

A link is a WebSocket connection (the browsers' and programs' sockets, and every TCP line link,
which ``games/transport/lines.py`` bridges as one), or a socket.io session (``games/riichi/transport/majiang_server.py``
counts its own, since its long polling is no single connection). At most
``MAX_CONNECTIONS_PER_ADDRESS`` are open at once per address (``scope["client"][0]``); one more is
still let in, only to be told so in its protocol's terms and closed: the consumer sees ``OVER_CAP``
in its scope.

The count is this process's own, in memory: a link's end must uncount it even when the process
dies mid-way, which a shared counter (the cache) cannot promise. A site scaled out to N processes
thus allows N times the setting per address.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Awaitable, Callable
from typing import Any

from django.conf import settings

# The scope key a link over the cap carries (its value: why, for the refusal).
OVER_CAP = "games.over_address_cap"

_open: Counter[str] = Counter()

Scope = dict[str, Any]
ASGIApp = Callable[[Scope, Callable[[], Awaitable[Any]], Callable[[Any], Awaitable[None]]], Awaitable[None]]


def address_of(scope: Scope) -> str | None:
    """The client's address, as the server saw it (no client, as in-process tests: None)."""
    client = scope.get("client")
    return str(client[0]) if client else None


def refusal() -> str:
    return f"at most {settings.MAX_CONNECTIONS_PER_ADDRESS} connections per address are open at once"


def acquire(address: str | None) -> bool:
    """Count one more open link of ``address``; False (and nothing counted) when it would be over
    the cap."""
    if address is None:
        return True
    if _open[address] >= settings.MAX_CONNECTIONS_PER_ADDRESS:
        return False
    _open[address] += 1
    return True


def release(address: str | None) -> None:
    """A link counted by ``acquire`` ended."""
    if address is None:
        return
    _open[address] -= 1
    if _open[address] <= 0:
        del _open[address]


def open_links(address: str) -> int:
    return _open[address]


class CapPerAddress:
    """ASGI middleware: counts each WebSocket connection for as long as its application runs, and
    marks one over the cap (``OVER_CAP``) for its consumer to refuse."""

    def __init__(self, application: ASGIApp) -> None:
        self.application = application

    async def __call__(self, scope: Scope, receive: Callable[[], Awaitable[Any]],
                       send: Callable[[Any], Awaitable[None]]) -> None:
        if scope["type"] != "websocket":
            await self.application(scope, receive, send)
            return
        address = address_of(scope)
        if not acquire(address):
            await self.application({**scope, OVER_CAP: refusal()}, receive, send)
            return
        try:
            await self.application(scope, receive, send)
        finally:
            release(address)
