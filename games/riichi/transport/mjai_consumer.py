"""mjai at a riichi table, as gimite's match server speaks it (mjsonp, protocol version 3):
docs/protocols/mjai.md.

A thin transport. Over TCP (``games/transport/lines.py`` bridges each connection to ``/ws/mjai/``)
it sends ``hello``, logs the client in from its ``join`` (the log-in rides in ``room``:
``username:token`` or ``username:token@<game>``, since an unmodified client sends only ``name`` and
``room``), and seats it through the ``SeatLink`` the other riichi transports use. The seat's own
seed 001 frames, already rendered for that seat alone, go through the pure codec
(``games/riichi/protocols/mjai_seat.py``) and out as one JSON event a line.

mjsonp answers every event: the server sends an event, the client answers it (an action, or
``none``), and only then comes the next. The answer to an event that asks nothing is passed over,
whatever it is (a client that comes back is sent the hand under way again, and answers its old
draws as if they asked). An answer to a question is checked by the codec against
the seat's legal actions and applied by the link with the question's ``seq``; a refused one gets
``error`` and the question is sent again, as UMP asks again. A question the game no longer waits
on (the server played for the seat when its clock ran out) is dropped with the events after it.
"""

from __future__ import annotations

import json
import logging
from collections import deque
from dataclasses import dataclass
from typing import Any

from games.core import db, validation
from games.core.errors import GameError
from games.riichi.engine import presets
from games.riichi.protocols import mjai_seat as codec
from games.riichi.transport import gateway
from games.riichi.transport.link import ASK_AGAIN
from games.riichi.transport.seat_consumer import SeatConsumer
from games.transport.lines import LineProtocol
from games.transport.link import FatalError

log = logging.getLogger(__name__)

# A client's longest line is an action naming a few tiles, or its join with a name and a room.
MAX_LINE_BYTES = 2048
MAX_NAME = 64
MAX_ROOM = 200
MJAI = LineProtocol(name="mjai", path="/ws/mjai/", terminator=b"\n", max_line_bytes=MAX_LINE_BYTES)
DEFAULT_PORT = 11600
TOKEN_LENGTH = 64
MAX_BOTS = 3


@dataclass(frozen=True)
class Room:
    """What ``join``'s room asks: who logs in, and at which table (``game``), or a table of their
    own with ``bots`` house bots and rules ``preset`` (None: the user's game or a free seat)."""

    username: str
    token: str
    game: int | None = None
    bots: int | None = None
    preset: str | None = None


def _room(room: str) -> Room:
    """``username:token``, ``username:token@<game>``, or ``username:token+<bots>[+<preset>]``: the
    characters a URL's path keeps, since gimite's client takes the room from its URL's path."""
    credentials, at, game = room.partition("@")
    credentials, plus, own = credentials.partition("+")
    username, _, token = credentials.partition(":")
    if not username or len(token) != TOKEN_LENGTH or (at and plus):
        raise FatalError("BadRoom", "join's room is username:token, username:token@game or "
                                    f"username:token+bots[+preset], with an API token of {TOKEN_LENGTH} hex digits")
    if at:
        if not (game.isdigit() and len(game) <= 9):
            raise FatalError("BadRoom", "the game in username:token@game is a riichi table's number")
        return Room(username, token, validation.game_id(int(game)))
    if not plus:
        return Room(username, token)
    bots, _, preset = own.partition("+")
    if not bots.isdigit() or not 0 <= int(bots) <= MAX_BOTS:
        raise FatalError("BadRoom", f"the bots in username:token+bots are a number of house bots, 0 to {MAX_BOTS}")
    if preset and preset not in presets.PRESETS:
        raise FatalError("BadRoom", f"the preset in username:token+bots+preset is one of {', '.join(presets.PRESETS)}")
    return Room(username, token, None, int(bots), preset or None)


class MjaiError(GameError):
    """A line the link refuses with mjai's ``error``; nothing changes."""


@dataclass
class Outgoing:
    """An event waiting to be sent, with the question it asks (and that question's ``seq``).
    ``stale``: a question the game stopped waiting on after it was sent; its answer, when it
    comes, is passed over."""

    event: dict[str, Any]
    ask: codec.Ask | None = None
    seq: int | None = None
    stale: bool = False


class MjaiConsumer(SeatConsumer):
    wants_log = False  # the Outlet's: a seat taken up again gets its current hand, no whole log
    FLOOD = "too many lines on this link"
    REFUSALS = (MjaiError, GameError)

    # -- the link ---------------------------------------------------------------------------------

    async def connect(self) -> None:
        self.view: codec.MjaiSeat | None = None
        self.outbox: deque[Outgoing] = deque()
        self.waiting: Outgoing | None = None  # the event sent, its answer not yet in
        self.asked_seq: int | None = None  # the seq whose question frame has been rendered
        self.refusal: str | None = None  # the code of the link's refusal of the last reply sent
        # The link found the question of a refused reply still standing and asked it again (a
        # late reply, to a question the game has moved on from, is refused but not asked again).
        self.asked_again = False
        self.closing = False  # the game is over: close once the last event is answered
        await super().connect()
        await self.say(codec.HELLO)

    async def say(self, event: dict[str, Any]) -> None:
        await self.send(text_data=json.dumps(event, ensure_ascii=False, separators=(",", ":")))

    async def error(self, reason: str) -> None:
        await self.say(codec.error_event(reason))

    async def fatal(self, code: str, reason: str) -> None:
        await self.error(f"{code}: {reason}")
        await self.close()

    async def internal_error(self, message: dict[str, Any]) -> None:
        if message.get("type") == "websocket.receive":
            await self.error("InternalError: the server could not handle this line; nothing was changed")

    # -- lines from the client ----------------------------------------------------------------------

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        if text_data is None:
            # The line bridge's word for a stream that broke the line rules (NUL, not UTF-8, too long).
            await self.fatal("Breach", f"a line with a NUL, not UTF-8 or over {MAX_LINE_BYTES} bytes; "
                                       "the link is closed")
            return
        await self.take_frame(text_data)

    def read_frame(self, frame: str) -> dict[str, Any]:
        if len(frame.encode("utf-8")) > MAX_LINE_BYTES:
            raise MjaiError("Malformed", f"a line is at most {MAX_LINE_BYTES} bytes")
        try:
            action = validation.loads(frame)
        except ValueError as error:
            raise MjaiError("Malformed", f"not JSON: {error}") from None
        if not isinstance(action, dict) or not isinstance(action.get("type"), str):
            raise MjaiError("Malformed", 'a line is a JSON object with a string type, e.g. {"type":"none"}')
        return action

    async def handle(self, action: dict[str, Any]) -> None:
        await self.answer(action)

    async def refused_frame(self, refused: GameError, reply_to: None) -> None:
        await self.error(f"{refused.code}: {refused.reason}")
        waiting = self.waiting
        if waiting is None:
            return
        if waiting.ask is not None and not waiting.stale:
            await self.say(waiting.event)  # the question stands: asked again
            return
        # The answer to an event that asks nothing, however bad, is its answer: the link goes on
        # (the client, having answered, waits for the next event).
        self.waiting = None
        await self.next_event()

    async def login(self, join: dict[str, Any]) -> None:
        if join.get("type") != "join":
            raise FatalError("NotLoggedIn", 'answer hello with {"type":"join","name":...,"room":"username:token"}')
        name, room = join.get("name"), join.get("room")
        if not isinstance(name, str) or not 0 < len(name) <= MAX_NAME:
            raise FatalError("BadName", f"join's name is text of 1 to {MAX_NAME} characters")
        if not isinstance(room, str) or len(room) > MAX_ROOM:
            raise FatalError("BadRoom", "join's room is username:token, username:token@game or username:token+bots")
        table = _room(room)
        username, token, game_id = table.username, table.token, table.game
        if not await self.log_in({"username": username, "token": token}):
            return
        if game_id is not None:
            try:
                await db.call(gateway.check_join, self.user, game_id)
            except GameError as refused:
                raise FatalError(refused.code, refused.reason) from None
        try:
            await self.take_table(game_id, table.bots or 0, table.preset, wants_own=table.bots is not None)
        except GameError as refused:
            # Logged in but at no table: nothing would ever come; the link ends, saying why.
            raise FatalError(refused.code, refused.reason) from None

    async def answer(self, action: dict[str, Any]) -> None:
        waiting = self.waiting
        if waiting is None:
            raise MjaiError("Unexpected", f"{action['type']}: no event is waiting for an answer")
        if self.view is None:
            raise MjaiError("Unexpected", "the game has not started")
        if waiting.stale or waiting.ask is None:
            # A question the game stopped waiting on (the seat's clock ran out), or an event that
            # asks nothing: whatever the answer, it is passed over. A client that comes back is
            # sent the hand under way again, and answers its old draws as if asked.
            self.waiting = None
            await self.next_event()
            return
        try:
            reply = self.view.reply(action, waiting.ask)
        except codec.Refused as refused:
            await self.error(refused.reason)
            await self.say(waiting.event)  # the question stands: asked again
            return
        if isinstance(reply, codec.Ask):
            # A reach: the seat is asked for its riichi discard, under the same seq.
            self.allowance.credit()
            self.waiting = Outgoing(reply.event, reply, waiting.seq)
            await self.say(reply.event)
            return
        if reply is not None:
            # The event stays the one waiting while its reply is applied: events that come
            # meanwhile queue behind it.
            self.refusal, self.asked_again = None, False
            await self.seat.reply({**reply, "seq": waiting.seq})
            if self.refusal in ASK_AGAIN and self.asked_again:
                # The service refused it (``refused`` said why) and the question stands: asked again.
                # A late reply (the game moved on before its frames reached this link) is refused
                # but not asked again: it was this event's answer, and the next event follows.
                await self.say(waiting.event)
                return
        self.waiting = None
        await self.next_event()

    async def next_event(self) -> None:
        """Send the next event, if the last one is answered; after the game's last, close."""
        if self.waiting is not None:
            return
        if not self.outbox:
            if self.closing:
                await self.close()
            return
        self.waiting = self.outbox.popleft()
        # Every event is answered: each answer is paid for in advance (limits.Bucket.credit), so a
        # client answering at the server's pace is never refused for it.
        self.allowance.credit()
        await self.say(self.waiting.event)

    # -- the seat's Outlet: mjai events ----------------------------------------------------------------

    async def started(self) -> None:
        self.view = None  # the kaiju that follows starts the game's events afresh
        self.outbox.clear()
        self.waiting = None
        self.asked_seq = None

    async def frames(self, frames: list[dict[str, Any]], timer: list[int] | None) -> None:
        for frame in frames:
            seq = frame.get("seq")
            if frame["type"] == "kaiju":
                self.view = codec.MjaiSeat(frame["data"].get("id"))
            if self.view is None:
                continue
            if seq is not None and seq == self.asked_seq:
                # Asked again after a refusal (the link does so only while the question stands):
                # the question is sent again by ``answer``, as it was rendered the first time.
                self.asked_again = True
                continue
            if seq is None and self.waiting is not None and self.waiting.ask is not None:
                # The game moved on without this seat's answer (its clock ran out, or another
                # seat's win took the discard): the client still answers the event it was sent, and
                # that answer is passed over, so its answers stay in step with the events.
                self.waiting.stale = True
            events = self.view.events({"type": frame["type"], "data": frame["data"]})
            ask = None
            if seq is not None:
                self.asked_seq = seq
                ask = self.view.question({"type": frame["type"], "data": frame["data"]}, self.seat.legal)
                if ask is None:
                    await self.seat.reply({"type": "", "seq": seq})  # nothing to choose: the link passes
            for index, event in enumerate(events):
                last = index == len(events) - 1
                self.outbox.append(Outgoing(event, ask if last else None, seq if last else None))
        await self.next_event()

    async def table(self, game_id: int, setup: dict[str, Any]) -> None:
        """mjai has no message for a table being set up: the client waits for start_game."""

    async def ended(self, game_id: int, status: str, setting_up: bool) -> None:
        if status != "finished":
            await self.error(f"GameEnded: game {game_id} is over for this link: {status}")
            await self.close()
            return
        # gimite's server closes after end_game: once the events still queued are answered.
        self.closing = True
        await self.next_event()

    async def refused(self, code: str, reason: str, seq: int | None) -> None:
        self.refusal = code
        await self.error(f"{code}: {reason}")
