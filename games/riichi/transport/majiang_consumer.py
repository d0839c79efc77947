"""The native Majiang protocol (seed 001) over WebSocket, ``/ws/majiang/``: docs/protocols/majiang.md.

A thin transport. It logs in (an API token), reads a frame as JSON, and hands it to the link's
seat (``games.riichi.transport.link.SeatLink``, shared with majiang-server's socket.io dialect), which seats
it at a riichi table through the lobby, follows the platform's pushes to the user's seat and
applies replies; this consumer is its ``Outlet``: it writes what the seat sends as seed 001's
``{type, data}`` frames.

A link is at one table at a time. It listens to the lobby group (the table's set-up changes, the
game's start and end) and the user's own group (the seat's moves).
"""

from __future__ import annotations

import json
import logging
from typing import Any
from urllib.parse import parse_qs

from games.core import db, validation
from games.core.errors import GameError
from games.riichi.protocols import majiang as codec
from games.riichi.transport import gateway
from games.riichi.transport.link import seq_of
from games.riichi.transport.seat_consumer import SeatConsumer
from games.transport.link import FatalError, parse_frame

log = logging.getLogger(__name__)

MAX_BOTS = 3


class MajiangConsumer(SeatConsumer):
    # The Outlet's: a seat taken up again gets kaiju and the current hand, no log.
    wants_log = False
    FLOOD = "too many frames on this connection"

    # -- the link ---------------------------------------------------------------------------------

    async def connect(self) -> None:
        await super().connect()
        query = parse_qs(self.scope.get("query_string", b"").decode("latin1"))
        token = (query.get("token") or [None])[0]
        if token is not None:
            await self.login({"type": "login", "token": token})

    async def send_json(self, message: dict[str, Any]) -> None:
        await self.send(text_data=json.dumps(message, ensure_ascii=False, separators=(",", ":")))

    async def error(self, code: str, reason: str, seq: int | None = None) -> None:
        await self.send_json(codec.error_frame(code, reason, seq))

    async def fatal(self, code: str, reason: str) -> None:
        await self.error(code, reason)
        await self.close(code=4000)

    async def internal_error(self, message: dict[str, Any]) -> None:
        if message.get("type") == "websocket.receive":
            await self.error("InternalError", "the server could not handle this frame; nothing was changed")

    # -- frames from the client (games.transport.link.Link.take_frame) ------------------------------

    def read_frame(self, frame: str | None) -> dict[str, Any]:
        return parse_frame(frame)

    def reply_to(self, message: dict[str, Any]) -> int | None:
        return seq_of(message)  # a refused reply's error names the seq it answered

    async def handle(self, message: dict[str, Any]) -> None:
        handler = self.HANDLERS.get(message["type"])
        if handler is not None:
            await handler(self, message)
        elif message["type"] in codec.REPLY_TYPES:
            await self.seat.reply(message)
        else:
            raise GameError("UnknownMessageType", f"no message type {message['type']!r}")

    async def refused_frame(self, refused: GameError, seq: int | None) -> None:
        await self.error(refused.code, refused.reason, seq)

    async def login(self, message: dict[str, Any]) -> None:
        if message["type"] != "login":
            raise FatalError("NotLoggedIn", "the first frame is login (or ?token= on the URL)")
        token = message.get("token")
        if not isinstance(token, str) or not token:
            raise FatalError("MissingToken", "log in with an API token (made on /accounts/token/)")
        try:
            if not await self.log_in({"token": token}):
                return
        except (FatalError, GameError) as refused:  # GameError: TooManyConnections
            await self.fatal(refused.code, refused.reason)
            return
        user = self.user
        games = await db.call(gateway.games_of, user)
        await self.send_json({"type": "welcome", "user": user.id, "username": user.username, "games": games})

    async def again(self, message: dict[str, Any]) -> None:
        raise GameError("AlreadyLoggedIn", "this connection is logged in")

    async def open(self, message: dict[str, Any]) -> None:
        self.seat.free()
        rules = message.get("rules")
        if rules is not None and not isinstance(rules, dict):
            raise GameError("InvalidMessage", "'rules' is an object: a preset and Majiang.rule() options")
        bots = message.get("bots", 0)
        if not validation.is_integer(bots) or not 0 <= bots <= MAX_BOTS:
            raise GameError("InvalidMessage", f"'bots' is a number of house bots, 0 to {MAX_BOTS}")
        await self.seat.open(rules, message.get("time_control"), bots)

    async def join(self, message: dict[str, Any]) -> None:
        await self.seat.join(validation.game_id(message.get("game")))

    async def add_bot(self, message: dict[str, Any]) -> None:
        await self.seat.add_bot()

    async def leave(self, message: dict[str, Any]) -> None:
        await self.seat.leave()

    HANDLERS = {"login": again, "open": open, "join": join, "add_bot": add_bot, "leave": leave}

    # -- the seat's Outlet: seed 001's frames ---------------------------------------------------------

    async def started(self) -> None:
        pass  # kaiju says it

    async def frames(self, frames: list[dict[str, Any]], timer: list[int] | None) -> None:
        self.allowance.credit(len(frames))  # each is answered
        for item in frames:
            await self.send_json(item)

    async def table(self, game_id: int, setup: dict[str, Any]) -> None:
        await self.send_json({"type": "table", "game": game_id, "setup": setup})

    async def ended(self, game_id: int, status: str, setting_up: bool) -> None:
        await self.send_json({"type": "end", "game": game_id, "status": status})

    async def refused(self, code: str, reason: str, seq: int | None) -> None:
        await self.error(code, reason, seq)
