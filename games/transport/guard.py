"""Consumers that no input and no race can kill, and links that last no longer than their log-in.

When an exception escapes a Channels consumer's handler, its task dies: the server closes the
socket with 1011 and ``disconnect()`` never runs, so the connection's presence row and group
memberships stay behind (the user shows as online for good). ``GuardedConsumer`` catches whatever
escapes any handler (a frame, a push from the channel layer, the disconnect itself), logs it, lets
the protocol answer in its own terms, and always runs the clean-up when the link goes.

``LoginWatch`` ends a link whose log-in ends (accounts/sessions.py): a link records the API token or
the session it logged in with (``token_id``, ``session_key``); a revocation (``token.revoked``) or a
log-out (``session.ended``) reaches every link of the user through their group, and each link wakes
at its token's or session's expiry and closes if it has passed. Every consumer has it through
``GuardedConsumer``; majiang-server's socket.io sessions, which are no Channels consumers, through
``games.transport.link.Link``.
"""

from __future__ import annotations

import asyncio
import logging
from datetime import datetime
from typing import Any

from channels.consumer import get_handler_name
from channels.exceptions import StopConsumer

from accounts import sessions
from games.core import db
from games.transport.admission import Admission

log = logging.getLogger(__name__)

# The longest a link sleeps before it looks at its log-in's expiry again.
MAX_WAIT_SECONDS = 24 * 3600.0


class LoginWatch:
    """The end of a link's log-in. Subclasses implement ``deadline_due`` (have ``login_deadline``
    run in turn with the link's other messages) and ``login_gone`` (tell the client, close)."""

    # The id of the API token this link logged in with; None for a password or a session.
    token_id: int | None = None
    # The key of the session this link logged in with (a browser's cookie); None otherwise.
    session_key: str | None = None
    _deadline: asyncio.Future[None] | None = None  # wakes the link when its log-in expires

    async def token_revoked(self, event: dict[str, Any]) -> None:
        """``token.revoked`` from accounts/tokens.py, sent to the user's group once a revocation
        commits: the link that logged in with one of those tokens ends."""
        if self.token_id is not None and self.token_id in event.get("tokens", ()):
            await self.login_ended("TokenRevoked")

    async def session_ended(self, event: dict[str, Any]) -> None:
        """``session.ended`` from accounts/sessions.py (a log-out): the link that logged in with
        that session ends."""
        if self.session_key is not None and self.session_key in event.get("sessions", ()):
            await self.login_ended("LoggedOut")

    async def still_logged_in(self) -> bool:
        """Call once the link has joined its user's group: an ending announced between the log-in's
        check and the join went unheard, so look again; then wait for the log-in's expiry. False
        if the link was ended."""
        if self.token_id is None and self.session_key is None:
            return True
        why, deadline = await db.call(sessions.ending, self.token_id, self.session_key)
        if why is not None:
            await self.login_ended(why)
            return False
        self._watch(deadline)
        return True

    def _watch(self, deadline: datetime | None) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
        self._deadline = None if deadline is None else asyncio.ensure_future(self._at(deadline))

    async def _at(self, deadline: datetime) -> None:
        # Capped, so that a clock set back meanwhile is no more than a day late.
        await asyncio.sleep(min(sessions.seconds_until(deadline), MAX_WAIT_SECONDS))
        await self.deadline_due()

    async def deadline_due(self) -> None:
        """The log-in's expiry came (or a day went by): have ``login_deadline`` run, in turn with
        whatever else the link handles (never beside it)."""
        raise NotImplementedError

    async def login_deadline(self, event: dict[str, Any]) -> None:
        """The token's or the session's expiry came (or a day went by): end the link if the log-in is
        over, else wait for its (possibly extended) expiry."""
        if self.token_id is None and self.session_key is None:
            return
        why, deadline = await db.call(sessions.ending, self.token_id, self.session_key)
        if why is not None:
            await self.login_ended(why)
        else:
            self._watch(deadline)

    async def login_ended(self, why: str) -> None:
        self.token_id = self.session_key = None
        self._watch(None)
        await self.login_gone(why, sessions.ENDED[why])

    async def login_gone(self, code: str, reason: str) -> None:
        """Tell the client, in the protocol's terms, that its log-in ended (``code``: one of
        ``accounts.sessions.ENDED``); end the link."""
        raise NotImplementedError


class GuardedConsumer(LoginWatch, Admission):
    """Subclasses implement ``internal_error`` (what the client is told), ``cleanup`` (presence and
    groups; must be safe to call twice) and ``login_gone`` (tell the client, close), and
    ``Admission``'s ``logged_in`` and ``refuse`` (the address cap, the log-in deadline, the byte
    budget)."""

    closed = False

    async def dispatch(self, message: dict[str, Any]) -> None:
        try:
            handler = getattr(self, get_handler_name(message), None)
            if handler is None:
                raise ValueError(f"no handler for message type {message['type']}")
            # Channels' own dispatch first closes stale database connections on its sync thread:
            # a thread hop for every frame and every push. These consumers touch the database only
            # through games/core/db.py, which does that in the thread that uses the connection.
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
        self._watch(None)
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

    async def deadline_due(self) -> None:
        # Through the channel layer, so the look happens in turn with the link's frames and pushes.
        await self.channel_layer.send(self.channel_name, {"type": "login.deadline"})

    async def internal_error(self, message: dict[str, Any]) -> None:
        raise NotImplementedError

    async def cleanup(self) -> None:
        raise NotImplementedError
