"""Consumers that no input and no race can kill.

When an exception escapes a Channels consumer's handler, its task dies: the server closes the
socket with 1011 and ``disconnect()`` never runs, so the connection's presence row and group
memberships stay behind (the user shows as online for good). ``GuardedConsumer`` catches whatever
escapes any handler (a frame, a push from the channel layer, the disconnect itself), logs it, lets
the protocol answer in its own terms, and always runs the clean-up when the link goes.

It also ends a link whose API token is revoked (accounts/tokens.py): a link records the token it
logged in with (``token_id``), and the revocation reaches every link of the user through their
group as ``token.revoked``.
"""

from __future__ import annotations

import logging
from typing import Any

from channels.consumer import get_handler_name
from channels.exceptions import StopConsumer
from channels.generic.websocket import AsyncWebsocketConsumer

from accounts import tokens
from games import db

log = logging.getLogger(__name__)


class GuardedConsumer(AsyncWebsocketConsumer):
    """Subclasses implement ``internal_error`` (what the client is told), ``cleanup`` (presence and
    groups; must be safe to call twice) and ``token_gone`` (tell the client, close)."""

    closed = False
    # The id of the API token this link logged in with; None for a password or a session.
    token_id: int | None = None

    async def dispatch(self, message: dict[str, Any]) -> None:
        try:
            handler = getattr(self, get_handler_name(message), None)
            if handler is None:
                raise ValueError(f"no handler for message type {message['type']}")
            # Channels' own dispatch first closes stale database connections on its sync thread:
            # a thread hop for every frame and every push. These consumers touch the database only
            # through games/db.py, which does that in the thread that uses the connection.
            await handler(message)
        except StopConsumer:
            raise
        except Exception:
            log.exception("%s: unexpected error handling %r", type(self).__name__, message.get("type"))
            if message.get("type") == "websocket.disconnect":
                await self._final_cleanup()
                raise StopConsumer() from None
            try:
                await self.internal_error(message)
            except Exception:  # noqa: BLE001 - the link may be gone; nothing more to tell it
                log.debug("could not report an internal error to the client", exc_info=True)

    async def websocket_disconnect(self, message: dict[str, Any]) -> None:
        self.closed = True
        try:
            await super().websocket_disconnect(message)  # runs disconnect(), then raises StopConsumer
        finally:
            await self._final_cleanup()

    async def _final_cleanup(self) -> None:
        try:
            await self.cleanup()
        except Exception:
            log.exception("%s: clean-up failed", type(self).__name__)

    async def send(self, text_data: str | None = None, bytes_data: bytes | None = None, close: bool = False) -> None:
        """A push may race the link's end: sending to a socket that just closed is not an error."""
        if self.closed:
            return
        try:
            await super().send(text_data=text_data, bytes_data=bytes_data, close=close)
        except Exception:  # noqa: BLE001 - the server refuses sends after the close; nothing is lost
            log.debug("send after the link closed", exc_info=True)
            self.closed = True

    async def close(self, code: int | bool | None = None, reason: str | None = None) -> None:
        if self.closed:
            return
        self.closed = True
        try:
            await super().close(code=code, reason=reason)
        except Exception:  # noqa: BLE001 - already closed by the other side
            log.debug("close after the link closed", exc_info=True)

    # -- revoked tokens -----------------------------------------------------------------------------

    async def token_revoked(self, event: dict[str, Any]) -> None:
        """``token.revoked`` from accounts/tokens.py, sent to the user's group once a revocation
        commits: the link that logged in with one of those tokens ends."""
        if self.token_id is not None and self.token_id in event.get("tokens", ()):
            self.token_id = None
            await self.token_gone()

    async def token_still_live(self) -> bool:
        """Call once the link has joined its user's group: a revocation announced between the
        token's check and the join went unheard, so look again. False if the link was ended."""
        if self.token_id is None or await db.call(tokens.is_live, self.token_id):
            return True
        self.token_id = None
        await self.token_gone()
        return False

    async def token_gone(self) -> None:
        """Tell the client, in the protocol's terms, that its token was revoked; end the link."""
        raise NotImplementedError

    async def internal_error(self, message: dict[str, Any]) -> None:
        raise NotImplementedError

    async def cleanup(self) -> None:
        raise NotImplementedError
