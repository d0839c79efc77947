"""What the Channels transports of a riichi seat share (the native Majiang WebSocket and UMP's
lines): a logged-in link whose ``SeatLink`` follows the user's table, and how such a link ends."""

from __future__ import annotations

from typing import Any

from accounts import login_limits
from accounts.models import User
from games.core import db
from games.core.errors import GameError
from games.riichi.transport import gateway
from games.riichi.transport.link import SeatLink, close_link
from games.service import presence
from games.service.push import LOBBY_GROUP, user_group
from games.transport.guard import GuardedConsumer
from games.transport.lobby_consumer import authenticate, connected


class SeatConsumer(GuardedConsumer):
    """Subclasses log in (setting ``user``, ``client_id`` and ``seat``) and implement ``fatal``:
    tell the client why in the protocol's terms, then close."""

    user: User | None = None
    client_id: int | None = None
    seat: SeatLink | None = None

    async def fatal(self, code: str, reason: str) -> None:
        raise NotImplementedError

    async def log_in(self, credentials: dict[str, Any]) -> bool:
        """Authenticate ``credentials`` (``games.transport.lobby_consumer.authenticate``: ``FatalError`` if refused),
        count the connection (``GameError`` ``TooManyConnections``), take a ``SeatLink``, listen to
        the lobby's and the user's groups and tell the lobby. False when the log-in ended
        meanwhile (the link is being closed)."""
        user, self.token_id = await db.call(authenticate, credentials, address=login_limits.scope_address(self.scope))
        self.user = user
        self.client_id = (await db.call(presence.connect, user, self.channel_name, {}, None, False))["client"]
        self.seat = SeatLink(self, user, self.client_id, self.channel_layer)
        await self.channel_layer.group_add(LOBBY_GROUP, self.channel_name)
        await self.channel_layer.group_add(user_group(user.id), self.channel_name)
        if not await self.still_logged_in():
            return False
        await self.channel_layer.group_send(LOBBY_GROUP, connected(self.client_id, user))
        return True

    async def take_table(self, game_id: int | None, bots: int = 0, preset: str | None = None,
                         wants_own: bool = False) -> None:
        """How a program's link that logs in and plays finds its table (UMP, mmj): ``game_id``'s;
        else the user's game or table (``gateway.table_for``), or one with a free seat unless it
        asked for a table of its own; else a new table with ``bots`` house bots and ``preset``."""
        assert self.seat is not None and self.user is not None
        if game_id is not None:
            await self.seat.join(game_id)
            return
        found = await db.call(gateway.table_for, self.user, not wants_own)
        if found is not None:
            try:
                await self.seat.join(found)
                return
            except GameError as taken:
                if taken.code != "GameFull":
                    raise
                # Its last seat went meanwhile: the link opens a table, as it would have.
        await self.seat.open({"preset": preset} if preset else None, None, bots)

    async def disconnect(self, code: int) -> None:
        await self.cleanup()

    async def cleanup(self) -> None:
        """Leave the groups, drop the presence row, and leave the table (while it is being set up)
        or let the server play the seat until the user comes back; once, whatever came before."""
        client_id, self.client_id = self.client_id, None
        if client_id is None:
            return
        seat, self.seat = self.seat, None
        await close_link(self.channel_layer, self.channel_name, self.user.id, client_id, seat)

    async def login_gone(self, code: str, reason: str) -> None:
        # The link lets its seat go before it says goodbye: a client that sees the close (and logs
        # in again at once) finds its presence gone and its seat played by the server already.
        try:
            await self.cleanup()
        finally:
            await self.fatal(code, reason)

    def logged_in(self) -> bool:
        return self.client_id is not None

    async def refuse(self, code: str, reason: str) -> None:
        # As at the end of a log-in: the seat goes first, then the link says why and closes.
        try:
            await self.cleanup()
        finally:
            await self.fatal(code, reason)

    async def push_message(self, event: dict[str, Any]) -> None:
        if self.seat is not None:
            await self.seat.push(event)
