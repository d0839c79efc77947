"""What every WebSocket consumer enforces on its link, whatever its protocol (docs/security.md):

- the per-address cap (``games/transport/addresses.py``): a link over it is accepted only to be refused;
- a log-in deadline: a link not logged in ``LOGIN_TIMEOUT_SECONDS`` after it opened is refused;
- a byte budget: every byte of every frame counts (``BYTES_PER_SECOND``, bursts of ``BYTE_BURST``),
  before and after log-in; a link past it is refused. The TCP line bridge keeps its own budget on
  the raw stream (whitespace between mmj's messages never reaches a frame) and, past it, sends the
  consumer a frame marked ``lines.RATE_LIMITED``, which is refused here the same way.

Each refusal is said in the protocol's own terms by the consumer's ``refuse``, which also closes.
The TCP line links are WebSocket links to these consumers (``games/transport/lines.py``), so this covers them.
"""

from __future__ import annotations

import asyncio
from typing import Any

from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings

from games.core import limits
from games.transport.addresses import OVER_CAP
from games.transport.lines import RATE_LIMITED


def byte_allowance() -> str:
    return (f"at most {settings.BYTE_BURST} bytes at once and {settings.BYTES_PER_SECOND:g} a second "
            "on a connection")


class Admission(AsyncWebsocketConsumer):
    """A base of ``GuardedConsumer``. Subclasses implement ``logged_in`` and ``refuse``; ``closed``
    is ``GuardedConsumer``'s (the link was closed by the server)."""

    closed = False
    _login_clock: asyncio.Future[None] | None = None
    _bytes: limits.Bucket | None = None

    def logged_in(self) -> bool:
        """Whether the link has logged in (the deadline then no longer applies)."""
        raise NotImplementedError

    async def refuse(self, code: str, reason: str) -> None:
        """Tell the client, in the protocol's terms, why the link ends (``TooManyConnections``,
        ``LoginTimeout``, ``RateLimited``); close it."""
        raise NotImplementedError

    async def websocket_connect(self, message: dict[str, Any]) -> None:
        over_cap = self.scope.get(OVER_CAP)
        if over_cap:
            # Accepted only so that the refusal can be said: nothing of the consumer's own runs.
            await self.accept()
            await self.refuse("TooManyConnections", over_cap)
            return
        self._bytes = limits.Bucket(settings.BYTES_PER_SECOND, settings.BYTE_BURST)
        self._login_clock = asyncio.ensure_future(self._login_due(float(settings.LOGIN_TIMEOUT_SECONDS)))
        await super().websocket_connect(message)

    async def _login_due(self, seconds: float) -> None:
        await asyncio.sleep(seconds)
        # Through the channel layer, so the check is handled in turn with the link's frames: a
        # log-in already under way finishes first.
        await self.channel_layer.send(self.channel_name, {"type": "login.timeout"})

    async def login_timeout(self, event: dict[str, Any]) -> None:
        if not self.closed and not self.logged_in():
            await self.refuse("LoginTimeout",
                              f"log in within {settings.LOGIN_TIMEOUT_SECONDS:g} s of connecting")

    async def websocket_receive(self, message: dict[str, Any]) -> None:
        if self.closed:
            return  # queued before the server closed the link: nobody is left to answer
        flood = message.get(RATE_LIMITED)
        if flood is None and self._bytes is not None:
            text, data = message.get("text"), message.get("bytes")
            size = len(text.encode("utf-8", "surrogatepass")) if text is not None else len(data or b"")
            if self._bytes.take(size):
                flood = byte_allowance()
        if flood:
            await self.refuse("RateLimited", flood)
            return
        await super().websocket_receive(message)

    async def websocket_disconnect(self, message: dict[str, Any]) -> None:
        if self._login_clock is not None:
            self._login_clock.cancel()
            self._login_clock = None
        await super().websocket_disconnect(message)
