"""mmj (seed 000) at a riichi table: docs/protocols/mmj.md.

A thin transport. Over TCP (``games/transport/lines.py`` bridges each connection to ``/ws/mmj/``, cutting
the undelimited stream message by message with the codec's reader) the terminal logs in with
``mmj1c C:user/token[/game]`` and is seated through the same ``SeatLink`` as every other riichi
transport: the seat's own seed 001 frames, already rendered for that seat alone, become moves
between the 19 places (``protocols/mmj_seat.py``); an operation answering the open question is
turned back into a seed 001 reply and applied by the link, so a late, doubled or illegal one is
refused by the same service and never half-applied. A refused operation gets ``reject`` and the
question is asked again, as the seed says.
"""

from __future__ import annotations

import logging
from typing import Any

from games.core import db, validation
from games.core.errors import GameError
from games.riichi.protocols import mmj
from games.riichi.protocols.mmj_seat import MmjSeat, Refused
from games.riichi.transport import gateway
from games.riichi.transport.seat_consumer import SeatConsumer
from games.service import door
from games.transport.lines import Breach, LineProtocol
from games.transport.link import FatalError

log = logging.getLogger(__name__)

DEFAULT_PORT = 7323
TOKEN_LENGTH = 64


def _text(message: mmj.Message) -> str:
    """One message as the canonical text a frame carries (its newline dropped)."""
    try:
        return mmj.encode(message).decode("utf-8").rstrip("\n")
    except UnicodeDecodeError:
        raise Breach("a counted string that is not UTF-8") from None


class MmjFramer:
    """The bridge's cutter for mmj: the codec's reader, one canonical message per frame."""

    def __init__(self) -> None:
        self.reader = mmj.Reader("server")

    def feed(self, data: bytes) -> list[str]:
        try:
            messages = self.reader.feed(data)
        except mmj.MmjError as error:
            before: list[str] = []
            for message in error.messages:
                try:
                    before.append(_text(message))
                except Breach:
                    break
            raise Breach(str(error), before) from None
        return [_text(m) for m in messages]


# The longest message a terminal sends is its mmj1c: the keyword, a count and 256 octets.
MMJ = LineProtocol(name="mmj", path="/ws/mmj/", terminator=b"\n", max_line_bytes=mmj.NAME_MAX + 32,
                   framer=MmjFramer)


class MmjConsumer(SeatConsumer):
    wants_log = False  # the Outlet's: a seat taken up again gets its current hand, no whole log
    FLOOD = "too many messages on this link"

    # -- the link ---------------------------------------------------------------------------------

    async def connect(self) -> None:
        self.reader = mmj.Reader("server")  # a WebSocket's frames may split or join messages
        self.view: MmjSeat | None = None
        self.asked: mmj.ServerMessage | None = None  # the open question
        self.asked_seq: int | None = None
        self.breach: str | None = None
        await super().connect()

    async def say(self, *messages: mmj.Message) -> None:
        if messages:
            await self.send(text_data="\n".join(mmj.encode(m).decode("utf-8").rstrip("\n") for m in messages))

    async def reject(self, reason: str) -> None:
        data = reason.encode("utf-8")[:mmj.REJECT_MAX].decode("utf-8", "ignore").encode("utf-8")
        await self.say(mmj.Reject(data.replace(b"\x00", b"")))

    async def fatal(self, code: str, reason: str) -> None:
        await self.reject(f"{code}: {reason}; the link is closed")
        await self.close()

    async def internal_error(self, message: dict[str, Any]) -> None:
        if message.get("type") == "websocket.receive":
            await self.reject("the server could not handle this message; nothing was changed")

    # -- messages from the terminal -----------------------------------------------------------------

    async def websocket_receive(self, message: dict[str, Any]) -> None:
        self.breach = message.get("breach")  # the bridge's reason for a stream it could not cut
        await super().websocket_receive(message)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        if text_data is None:
            await self.fatal("malformed", self.breach or "a binary frame: mmj is text")
            return
        try:
            operations = self.reader.feed(text_data.encode("utf-8"))
        except mmj.MmjError as error:
            await self.fatal("malformed", str(error))
            return
        if not operations and self.allowance.take():
            # A frame that completes no message (whitespace, a message's first part) still counts
            # against the rate: over a WebSocket, empty frames are a flood too.
            await self.reject("RateLimited: too many frames on this link; nothing was changed")
            return
        for op in operations:
            if self.closed:
                return
            await self.take_frame(op)  # each message is a frame of the link layer's

    async def handle(self, op: mmj.Message) -> None:
        await self.answer(op)

    async def refused_frame(self, refused: GameError, reply_to: None) -> None:
        await self.reject(f"{refused.code}: {refused.reason}")

    async def login(self, op: mmj.Message) -> None:
        if not isinstance(op, mmj.ClientHello):
            raise FatalError("NotLoggedIn", "send mmj1c C:username/token first")
        try:
            name = op.name.decode("utf-8")
        except UnicodeDecodeError:
            raise FatalError("BadName", "mmj1c's name is UTF-8 text") from None
        parts = name.split("/")
        if len(parts) not in (2, 3) or not parts[0] or len(parts[1]) != TOKEN_LENGTH:
            raise FatalError("BadName", "mmj1c's name is username/token or username/token/game, "
                                        f"with an API token of {TOKEN_LENGTH} hex digits")
        game_id = None
        if len(parts) == 3:
            if not (parts[2].isdigit() and len(parts[2]) <= 9):
                raise FatalError("BadName", "the game in username/token/game is a riichi table's number")
            game_id = validation.game_id(int(parts[2]))
        if not await self.log_in({"username": parts[0], "token": parts[1]}):
            return
        if game_id is not None:
            try:
                # Before mmj1s: a log-in naming a game the user cannot have is refused as a whole.
                await db.call(gateway.check_join, self.user, game_id)
            except GameError as refused:
                raise FatalError(refused.code, refused.reason) from None
        await self.say(mmj.ServerHello())
        try:
            await self.take_table(game_id)
        except GameError as refused:
            # Logged in but at no table: nothing would ever come; the link ends, saying why.
            raise FatalError(refused.code, refused.reason) from None

    async def answer(self, op: mmj.Message) -> None:
        if isinstance(op, mmj.ChatTo):
            await self.chat_to(op)
            return
        assert self.view is not None or self.asked is None
        asked, seq = self.asked, self.asked_seq
        try:
            if self.view is None:
                raise Refused(f"{op.KEYWORD}: the game has not started")
            reply = self.view.reply(op, asked, self.seat.legal)  # type: ignore[arg-type, union-attr]
        except Refused as refused:
            await self.reject(refused.reason)
            if asked is not None:
                self.allowance.credit()  # its answer is paid for, as the first time
                await self.say(asked)  # the question stands: the terminal tries again
            return
        self.asked = None
        await self.seat.reply({**reply, "seq": seq})  # type: ignore[union-attr]

    async def chat_to(self, op: mmj.ChatTo) -> None:
        """A line to the table's chat, which every player and spectator reads: DESTS cannot make
        it private (docs/protocols/mmj.md)."""
        if self.seat is None or self.seat.game_id is None:
            raise GameError("NotAtTable", "chat: sit at a table first")
        try:
            text = op.text.decode("utf-8")
        except UnicodeDecodeError:
            raise GameError("InvalidChat", "chat text is UTF-8") from None
        await db.call(door.post_chat, self.user, self.seat.game_id, text)

    # -- the seat's Outlet: mmj messages ------------------------------------------------------------

    async def started(self) -> None:
        self.view = MmjSeat(self.seat.game_id or 0)  # type: ignore[union-attr]
        self.asked = None
        self.asked_seq = None

    async def frames(self, frames: list[dict[str, Any]], timer: list[int] | None) -> None:
        assert self.view is not None
        out: list[mmj.Message] = []
        for frame in frames:
            seq = frame.get("seq")
            if seq is None or seq != self.asked_seq:
                out += self.view.messages([frame])
            if seq is None:
                if self.asked is not None:
                    self.asked = None  # the game moved on: answered by the server at a time-out
                continue
            question = self.view.question(frame, self.seat.legal)  # type: ignore[union-attr]
            self.asked_seq = seq
            if question is None:
                self.asked = None
                await self.say(*out)
                out = []
                await self.seat.reply({**self.view.auto_reply(self.seat.legal), "seq": seq})  # type: ignore[union-attr]
                continue
            self.asked = question
            # Its answer is paid for in advance (limits.Bucket.credit): a terminal answering at the
            # server's pace is never refused for it; what it sends unasked still counts.
            self.allowance.credit()
            out.append(question)
        await self.say(*out)

    async def chat(self, message: dict[str, Any]) -> None:
        said = self.view.chat_from(message.get("username", ""), message.get("text", "")) if self.view else None
        if said is not None:
            await self.say(said)

    async def table(self, game_id: int, setup: dict[str, Any]) -> None:
        pass  # mmj has nothing to say about a table being set up: the game starts with "game"

    async def ended(self, game_id: int, status: str, setting_up: bool) -> None:
        if status != "finished":
            await self.reject(f"game {game_id} is over for this link: {status}")
        await self.close()

    async def refused(self, code: str, reason: str, seq: int | None) -> None:
        await self.reject(f"{code}: {reason}")
