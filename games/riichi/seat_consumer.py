"""What the Channels transports of a riichi seat share (the native Majiang WebSocket and UMP's
lines): a logged-in link whose ``SeatLink`` follows the user's table, and how such a link ends."""

from __future__ import annotations

from typing import Any

from accounts.models import User
from games.guard import GuardedConsumer

from .link import SeatLink, close_link


class SeatConsumer(GuardedConsumer):
    """Subclasses log in (setting ``user``, ``client_id`` and ``seat``) and implement ``fatal``:
    tell the client why in the protocol's terms, then close."""

    user: User | None = None
    client_id: int | None = None
    seat: SeatLink | None = None

    async def fatal(self, code: str, reason: str) -> None:
        raise NotImplementedError

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

    async def token_gone(self) -> None:
        # The link lets its seat go before it says goodbye: a client that sees the close (and logs
        # in again at once) finds its presence gone and its seat played by the server already.
        try:
            await self.cleanup()
        finally:
            await self.fatal("TokenRevoked", "the API token this connection logged in with was revoked")

    async def push_message(self, event: dict[str, Any]) -> None:
        if self.seat is not None:
            await self.seat.push(event)
