"""What the Channels transports of a riichi seat share (the native Majiang WebSocket, UMP's and mmj's
lines): a logged-in link (games/transport/link.py) whose ``SeatLink`` follows the user's table, and
how such a link ends."""

from __future__ import annotations

from typing import Any

from games.core import db
from games.core.errors import GameError
from games.riichi.transport import gateway
from games.riichi.transport.link import SeatLink
from games.transport.link import LinkConsumer


class SeatConsumer(LinkConsumer):
    """Subclasses log in (``log_in``) and implement ``fatal`` (``Link``'s): tell the client why in
    the protocol's terms, then close."""

    seat: SeatLink | None = None

    async def log_in(self, credentials: dict[str, Any]) -> bool:
        """Authenticate ``credentials`` (``games.transport.link.authenticate``: ``FatalError`` if
        refused), take the link's place in the lobby (``Link.start_link``: ``GameError``
        ``TooManyConnections``) and a ``SeatLink``. False when the log-in ended meanwhile (the link
        is being closed)."""
        user = await self.authenticate_link(credentials)
        if await self.start_link(user) is None:
            return False
        self.seat = SeatLink(self, user, self.client_id, self.channel_layer)
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

    async def cleanup(self) -> None:
        """Leave the groups, drop the presence row, and leave the table (while it is being set up)
        or let the server play the seat until the user comes back (``SeatLink.gone``); once,
        whatever came before."""
        seat, self.seat = self.seat, None
        await self.end_link(seat.gone if seat is not None else None)

    async def login_gone(self, code: str, reason: str) -> None:
        # The link lets its seat go before it says goodbye: a client that sees the close (and logs
        # in again at once) finds its presence gone and its seat played by the server already.
        try:
            await self.cleanup()
        finally:
            await self.fatal(code, reason)

    async def refuse(self, code: str, reason: str) -> None:
        # As at the end of a log-in: the seat goes first, then the link says why and closes.
        try:
            await self.cleanup()
        finally:
            await self.fatal(code, reason)

    async def push_message(self, event: dict[str, Any]) -> None:
        if self.seat is not None:
            await self.seat.push(event)
