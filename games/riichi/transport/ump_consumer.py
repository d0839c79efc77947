"""UMP (seed 004) at a riichi table: docs/protocols/ump.md.

A thin transport. Over TCP (``games/transport/lines.py`` bridges each connection to ``/ws/ump/``) it greets
with ``<serial> hello``, logs the client in from its ``hello`` answer (an API token or a password),
and seats it through the same ``SeatLink`` the Majiang transports use: the seat's own seed 001
frames, already rendered for that seat alone, go through the UMP codec
(``games/riichi/protocols/ump.py``) and out as numbered lines; a question's answer, echoing its
serial, is decoded back into a seed 001 reply and applied by the link, so a late, doubled or
illegal answer is refused by the same service and never half-applied.

Decisions the seed leaves to the server (each in docs/protocols/ump.md): an answer to an old or
unknown serial gets ``error`` and changes nothing (the question stands); an illegal or malformed
answer gets ``error`` and the question is asked again under a new serial; a question whose only
answer is to pass is not asked (the link passes); the client's unprompted commands get ``error``.
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import quote

from games.core import validation
from games.core.errors import GameError
from games.riichi.engine import presets
from games.riichi.protocols import ump as codec
from games.riichi.transport import gateway
from games.riichi.transport.seat_consumer import SeatConsumer
from games.transport.lines import LineProtocol
from games.transport.link import FatalError

log = logging.getLogger(__name__)

# UMP lines are short: the longest a client sends is its hello with a URI-encoded name.
MAX_LINE_BYTES = 1024
UMP = LineProtocol(name="UMP", path="/ws/ump/", terminator=b"\r\n", max_line_bytes=MAX_LINE_BYTES)
DEFAULT_PORT = 7322
MAX_BOTS = 3
SERVER_HELLO = "hello ump=1 _server=tablegames _rules=preset"


@dataclass
class Asking:
    """The question the client must answer now: its serial, the codec's ``Ask``, the seed 001
    ``seq`` the answer carries, and a question still to follow (``tenpai?`` after ``naki? ron``)."""

    serial: int
    ask: codec.Ask
    seq: int
    rest: list[codec.Ask] = field(default_factory=list)


class UmpConsumer(SeatConsumer):
    wants_log = False  # the Outlet's: a seat taken up again gets its current hand, no whole log
    serial = 0  # the last line's; a link refused before connect() (games/transport/admission.py) says line 1
    FLOOD = "too many lines on this link"
    REFUSALS = (codec.UmpError, GameError)

    # -- the link ---------------------------------------------------------------------------------

    async def connect(self) -> None:
        self.serial = 0
        self.asking: Asking | None = None
        self.asked_seq: int | None = None  # the seq whose question frame has been rendered
        self.stream: codec.UmpStream | None = None
        self.stream_hands = 0  # hands begun on this link's stream: ready? goes before the next
        self.hello_serial = 0
        await super().connect()
        self.hello_serial = await self.say(SERVER_HELLO)

    async def say(self, command: str) -> int:
        """Send one numbered line; its serial."""
        self.serial += 1
        await self.send(text_data=f"{self.serial} {command}")
        return self.serial

    async def error(self, code: str, reason: str) -> None:
        await self.say(f"error {code} {_ascii(reason)}")

    async def fatal(self, code: str, reason: str) -> None:
        await self.error(code, reason)
        await self.close()

    async def internal_error(self, message: dict[str, Any]) -> None:
        if message.get("type") == "websocket.receive":
            await self.error("InternalError", "the server could not handle this line; nothing was changed")

    # -- lines from the client ------------------------------------------------------------------------

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        if text_data is None:
            # The line bridge's word for a stream that broke the line rules (NUL, not UTF-8, too long).
            await self.fatal("Breach", "a line with a NUL, not UTF-8 or over "
                                       f"{MAX_LINE_BYTES} bytes; the link is closed")
            return
        await self.take_frame(text_data)

    def read_frame(self, frame: str) -> tuple[int, str, list[str]]:
        if len(frame.encode("utf-8")) > MAX_LINE_BYTES:
            raise codec.UmpError("Malformed", f"a line is at most {MAX_LINE_BYTES} bytes")
        return codec.parse_line(frame)

    async def handle(self, line: tuple[int, str, list[str]]) -> None:
        await self.answer(*line)

    async def refused_frame(self, refused: codec.UmpError | GameError, reply_to: None) -> None:
        await self.error(refused.code, refused.reason)

    async def login(self, line: tuple[int, str, list[str]]) -> None:
        serial, command, args = line
        if command != "hello" or serial != self.hello_serial:
            raise FatalError("NotLoggedIn", f"answer the server's hello first, with serial {self.hello_serial}")
        given = codec.options(args)
        if not given.get("ump"):
            raise FatalError("MissingVersion", "hello carries ump=<version>")
        credentials = {"username": given.get("user"), "password": given.get("password")}
        secret = credentials["password"]
        if secret is not None and _looks_like_token(secret):
            credentials = {"username": credentials["username"], "token": secret}
        if credentials.get("password") is None and credentials.get("token") is None:
            raise FatalError("MissingPassword", "hello carries user=<username> password=<API token or password>")
        game = given.get("_game")
        if game is not None and not (game.isdigit() and len(game) <= 9):
            raise FatalError("InvalidOption", "_game is the number of a riichi table")
        game_id = validation.game_id(int(game)) if game is not None else None
        bots = given.get("_bots", "0")
        if not bots.isdigit() or not 0 <= int(bots) <= MAX_BOTS:
            raise FatalError("InvalidOption", f"_bots is a number of house bots for a new table, 0 to {MAX_BOTS}")
        preset = given.get("_preset")
        if preset is not None and preset not in presets.PRESETS:
            raise FatalError("InvalidOption", f"_preset is one of {', '.join(presets.PRESETS)}")
        if not await self.log_in(credentials):
            return
        try:
            await self.take_table(game_id, int(bots), preset, wants_own="_bots" in given or preset is not None)
        except GameError as refused:
            # Logged in but at no table: nothing would ever come; the link ends, saying why.
            raise FatalError(refused.code, refused.reason) from None

    async def answer(self, serial: int, command: str, args: list[str]) -> None:
        asking = self.asking
        if asking is None or serial != asking.serial:
            if command == "yes":
                return  # the answer to ready?: nothing waits on it
            raise codec.UmpError("WrongSerial", f"no question {serial} is open"
                                 + (f"; the open one is {asking.serial}" if asking else ""))
        try:
            reply = codec.decode(" ".join([command, *args]), asking.ask)
        except codec.UmpError as refused:
            await self.error(refused.code, refused.reason)
            await self.ask(asking.ask, asking.seq, asking.rest)  # the question stands: asked again
            return
        if reply["type"] == "" and asking.rest:
            await self.ask(asking.rest[0], asking.seq, asking.rest[1:])  # naki? no, then tenpai?
            return
        self.asking = None
        await self.seat.reply({**reply, "seq": asking.seq})

    async def ask(self, ask: codec.Ask, seq: int, rest: list[codec.Ask]) -> None:
        self.asking = Asking(0, ask, seq, rest)
        # Its answer is paid for in advance (limits.Bucket.credit): a client answering at the
        # server's pace is never refused for it; what it sends unasked still counts.
        self.allowance.credit()
        self.asking.serial = await self.say(ask.line)

    # -- the seat's Outlet: UMP lines ---------------------------------------------------------------

    async def started(self) -> None:
        self.stream = None  # the kaiju that follows starts the game's lines afresh
        self.asking = None
        self.asked_seq = None

    async def frames(self, frames: list[dict[str, Any]], timer: list[int] | None) -> None:
        for frame in frames:
            seq = frame.get("seq")
            if frame["type"] == "kaiju":
                self.stream = codec.UmpStream()
                self.stream_hands = 0
            if self.stream is not None and (seq is None or seq != self.asked_seq):
                lines = self.stream.lines([{"type": frame["type"], "data": frame["data"]}])
                if frame["type"] == "kaiju":
                    lines = self.seated(frame["data"]) + lines
                for line in lines:
                    if line.startswith("kyokustart") and self.stream_hands:
                        self.allowance.credit()  # for its "yes"
                        await self.say("ready?")  # between hands; nothing waits for the answer
                    self.stream_hands += line.startswith("kyokustart")
                    await self.say(line)
            if seq is not None:
                self.asked_seq = seq  # asked again after a refusal: the question only, no lines
                await self.question(frame, seq)
            elif self.asking is not None:
                self.asking = None  # the game moved on: answered by the server at a time-out

    async def question(self, frame: dict[str, Any], seq: int) -> None:
        asks = self.stream.ask(frame, self.seat.legal) if self.stream is not None else []
        if not asks:
            self.asking = None
            await self.seat.reply({"type": "", "seq": seq})  # nothing to choose: the link passes
            return
        await self.ask(asks[0], seq, asks[1:])

    def seated(self, kaiju: dict[str, Any]) -> list[str]:
        """Before ``gamestart`` (or a seat taken up again): where the link sits, the rules in
        force (UMP defines none: Majiang's, as ``_``-options), and who plays."""
        return [f"seat gameid={self.seat.game_id} {self.stream.me()}",
                "_ex_ rule " + " ".join(_rule_options(kaiju.get("rule") or {})),
                *self.stream.player_lines()]

    async def table(self, game_id: int, setup: dict[str, Any]) -> None:
        await self.say(f"_ex_ table gameid={game_id} players={len(setup['users'])}/{gateway.SEATS}")

    async def ended(self, game_id: int, status: str, setting_up: bool) -> None:
        if status != "finished":
            await self.error("GameEnded", f"game {game_id} is over for this link: {status}")
        await self.close()

    async def refused(self, code: str, reason: str, seq: int | None) -> None:
        await self.error(code, reason)


def _looks_like_token(secret: str) -> bool:
    # API tokens are 64 hex digits (accounts/tokens.py); a password of that shape is not one anyone
    # would choose, and trying it as a token first would count a wrong token as a failed password.
    return len(secret) == 64 and all(c in "0123456789abcdef" for c in secret)


def _uri(text: str) -> str:
    return quote(text, safe="")


def _ascii(text: str) -> str:
    return text.encode("ascii", "replace").decode("ascii").replace("\n", " ")


def _rule_options(rule: dict[str, Any]) -> list[str]:
    """Majiang's rule set as ``_``-options: each name and value URI-encoded, JSON values."""
    return [f"_{_uri(name)}={_uri(json.dumps(value, ensure_ascii=False, separators=(',', ':')))}"
            for name, value in rule.items()]
