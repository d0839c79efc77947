"""A Majiang link's seat, whatever carries it: docs/protocols/majiang.md.

Both Majiang transports, the native WebSocket (``consumers.MajiangConsumer``, seed 001's
``{type, data}`` frames) and majiang-server's socket.io dialect (``majiang_server``, ``{type:
data}``), seat a client at a riichi table and play its seat the same way; only the form of what
goes over the wire differs. ``SeatLink`` is that shared part: it sits the link down through the
lobby (``gateway``), follows the table's setup and the game's pushes (the seat's own rendering,
``games/service/moves.py``), turns them into frames with the codec, knows which frame is the question
the game waits on, and applies a reply through ``door.act_async`` with the ``seq`` it answers,
so a late or doubled reply is refused by the service and never applied twice. What it sends goes
to an ``Outlet``, which each transport implements in its own terms.

Not thread-safe and not re-entrant: a transport hands it one client message or push at a time, in
order (a Channels consumer does so by itself; the socket.io session has its own queue).
"""

from __future__ import annotations

from typing import Any, Protocol

from accounts.models import User
from games.core import db
from games.core.errors import GameError
from games.models import Status
from games.riichi.protocols import majiang as codec
from games.riichi.transport import gateway
from games.service import door, presence, push

# Refusals that say the reply itself was wrong: the question still stands and is asked again.
# Any other refusal (an old or doubled seq, a question already gone) is answered with the error only.
ASK_AGAIN = frozenset({"IllegalAction", "InvalidData", "UnexpectedReply", "MissingSeq", "InvalidSeq"})


class Outlet(Protocol):
    """What a transport sends, in its own form."""

    # Whether the kaiju of a seat taken up again carries the game's log so far (majiang-server's
    # does; the native frames send the current hand only).
    wants_log: bool

    async def started(self) -> None:
        """The link begins to follow its game (its kaiju comes next)."""

    async def frames(self, frames: list[dict[str, Any]], timer: list[int] | None) -> None:
        """Seed 001 frames, in order; the one with ``seq`` is a question, ``timer`` its clock
        (majiang-server's ``[limit, allowed]``) in a game timed per decision."""

    async def table(self, game_id: int, setup: dict[str, Any]) -> None:
        """The table's setup, when the link sits down and after every change until it starts."""

    async def ended(self, game_id: int, status: str, setting_up: bool) -> None:
        """The link is done with its table: ``finished``, ``aborted`` or ``left`` (``setting_up``:
        it left, or was kicked, while the table was being set up)."""

    async def refused(self, code: str, reason: str, seq: int | None) -> None:
        """A client message was refused; nothing changed. ``seq``: the refused reply's."""


def seq_of(message: dict[str, Any]) -> int | None:
    """A reply's ``seq`` when it is a valid one (for the error that answers it), else None."""
    seq = message.get("seq")
    valid = isinstance(seq, int) and not isinstance(seq, bool) and 0 <= seq <= codec.MAX_SEQ
    return seq if valid else None


class SeatLink:
    """One link's table and seat. ``user`` and ``client_id`` are the link's (``presence.connect``);
    ``layer`` is the channel layer it announces its table on."""

    def __init__(self, outlet: Outlet, user: User, client_id: int, layer: Any) -> None:
        self.outlet = outlet
        self.user = user
        self.client_id = client_id
        self.layer = layer
        self.reset()

    def reset(self) -> None:
        """At no table."""
        self.game_id: int | None = None
        self.status: str | None = None
        self.stream: codec.SeatStream | None = None
        self.size = 0  # history messages of the game this link has translated
        self.pending: codec.Question | None = None
        self.timer: list[int] | None = None  # the pending question's clock, majiang-server's [limit, allowed]
        # The seat's legal actions with the pending question (the platform's, as its push or
        # snapshot carried them): a transport whose questions list the choices (UMP) reads them.
        self.legal: list[dict[str, Any]] = []
        # The latest v this link knows of: the game's, as of the newest push or read, or after its
        # own last reply. Pushes made before it (still on their way) say nothing of what is asked now.
        self.v = 0
        self.ended = False
        self.seat: int | None = None
        self.per_decision: int | None = None  # the game's seconds per decision, if timed so
        self.resumed = False  # sat down at a game already under way (its kaiju carries the log)
        self.setup: dict[str, Any] = {"version": -1}  # the last setup of the table sent

    # -- seating --------------------------------------------------------------------------------------

    def free(self) -> None:
        """Refuse to take another table while at one (leave it first)."""
        if self.game_id is not None and not self.ended:
            raise GameError("AlreadyAtTable", f"this connection is at game {self.game_id}; leave it first")

    def at_table(self) -> int:
        if self.game_id is None or self.ended:
            raise GameError("NotAtTable", "open or join a table first")
        return self.game_id

    async def join(self, game_id: int) -> None:
        """Take a seat at ``game_id`` (``gateway.join``): a table being set up, one's seat in a
        game in progress again, or one's finished game to look back at."""
        if game_id != self.game_id:
            self.free()
        status = await db.call(gateway.join, self.user, game_id)
        await self.sit(game_id, status)

    async def open(self, rules: dict[str, Any] | None, time_control: Any, bots: int) -> None:
        """Open a riichi table with the user as host, ``bots`` house bots beside them, and sit."""
        self.free()
        game_id = await db.call(gateway.open_table, self.user, rules, time_control, bots)
        await self.sit(game_id, Status.SETUP)

    async def add_bot(self) -> None:
        await db.call(gateway.add_bot, self.user, self.at_table())

    async def leave(self) -> None:
        game_id = self.at_table()
        await db.call(gateway.leave, self.user, game_id)
        await self.end("left")

    async def sit(self, game_id: int, status: str) -> None:
        """Take the link to ``game_id``: the table's setup, or the game from its ``kaiju``."""
        self.reset()
        self.game_id, self.status = game_id, status
        self.resumed = status != Status.SETUP
        await db.call(presence.enter, self.client_id, game_id)
        await push.send_events(self.layer, push.lobby_events(
            {"type": "ClientEnteredGame", "client": self.client_id, "game": game_id}))
        if status == Status.SETUP:
            await self.table(await db.call(gateway.setup, game_id))
        else:
            await self.follow()

    async def end(self, status: str) -> None:
        """The link is done with its table: the game ended (after ``jieju``), was aborted, or
        the user left it."""
        if not self.ended and self.game_id is not None:
            self.ended = True
            await self.outlet.ended(self.game_id, status, self.status == Status.SETUP)

    async def gone(self) -> None:
        """The link closed: at a table being set up the user leaves it; in a game in progress the
        seat is away unless another connection of the user follows the game (``gateway.link_gone``)."""
        game_id = self.game_id
        self.reset()
        if game_id is not None:
            await db.call(gateway.link_gone, self.user, game_id)

    # -- the seat's replies ---------------------------------------------------------------------------

    async def reply(self, message: dict[str, Any]) -> None:
        """A seed 001 reply (``{type, data, seq}``): applied, or refused through the outlet (and
        the question asked again when the reply itself was wrong and the question still stands)."""
        seq = seq_of(message)
        if self.stream is None or self.status != Status.ACTIVE:
            raise GameError("NotInGame", "there is nothing to answer: join a game in progress first")
        pending = self.pending
        try:
            reply = codec.decode_reply(message, pending)
            if reply is None:
                return  # an empty reply to nothing: a Majiang.Player port answering an asynchronous message
            result = await door.act_async(self.user, self.game_id, None, reply.action, reply.params, reply.seq)
        except (codec.ProtocolError, GameError) as refused:
            await self.outlet.refused(refused.code, refused.reason, seq)
            # Asked again only about the question the refused reply was for, and only if that still
            # stands: a doubled or late reply must not make a question go out twice.
            if refused.code in ASK_AGAIN and pending is not None and self.pending is pending and seq in (None,
                                                                                                        pending.seq):
                await self.outlet.frames([pending.frame()], self.timer)
            return
        self.v = max(self.v, result["v"])
        if self.pending is not None and self.pending.seq == reply.seq:
            self.pending = None

    # -- pushes from the platform ---------------------------------------------------------------------

    async def push(self, event: dict[str, Any]) -> None:
        """A ``push.message`` to the user's own group (its seat's moves, and the lobby's messages about
        its table)."""
        if self.game_id is None or self.ended:
            return
        # A seat link never follows the lobby: a lobby message's copy to its user is for it.
        if self.user.id in event.get("skip_users", ()) or event.get("skip_client") == self.client_id:
            return
        message = push.message_of(event)
        if message.get("game") != self.game_id:
            return
        kind = message.get("type")
        if kind == "GameMessages":
            await self.game_messages(message)
        elif "setup" in message and self.status == Status.SETUP:
            await self.table(message["setup"])
        elif kind == "Chat":
            # A table's chat, for an outlet whose protocol carries one (mmj's); the others ignore it.
            chat = getattr(self.outlet, "chat", None)
            if chat is not None:
                await chat(message)
        elif kind == "GameStarted":
            self.status = Status.ACTIVE
            if self.stream is None:
                await self.follow()
        elif kind == "GameInactive":
            if message.get("status") == Status.FINISHED:
                # The lobby hears of the end before the seat's last push arrives: read the rest.
                await self.follow()
            else:
                await self.end(message.get("status", Status.ABORTED))

    async def table(self, setup: dict[str, Any]) -> None:
        # The link reads the table when it sits down; pushes of older setups may still follow.
        if setup["version"] < self.setup["version"] or setup == self.setup:
            return
        self.setup = setup
        await self.outlet.table(self.game_id, setup)
        mine = next((u for u in setup["users"] if u["user"] == self.user.id), None)
        if mine is None:  # kicked by the host, or the table closed
            await self.end("left")
            return
        if len(setup["users"]) == gateway.SEATS and not mine["accepted"]:
            await db.call(gateway.accept_if_ready, self.user, self.game_id)

    async def game_messages(self, message: dict[str, Any]) -> None:
        self.status = Status.ACTIVE
        if self.stream is None or message["start"] > self.size:
            # Not following yet, or a push went missing (the channel layer is not durable): the
            # log has everything.
            await self.follow()
            return
        new = message["messages"][self.size - message["start"]:]
        await self.emit(new, message["v"], message["to_act"], message.get("clocks"), legal=message.get("legal"))

    async def follow(self) -> None:
        """Catch up from the game's log: from the start of the current hand when the link has just
        come (``kaiju`` first), else from what it has translated."""
        fresh = self.stream is None
        seen = await db.call(gateway.following, self.user, self.game_id, 0 if fresh else self.size)
        self.status = seen.status
        history = seen.history
        log = None
        if fresh:
            self.stream = codec.SeatStream(seen.seat, seen.names)
            self.seat = seen.seat
            self.per_decision = seen.per_decision
            if self.resumed and self.outlet.wants_log:
                log = codec.seat_log(history, seen.seat, seen.names)
            history = history[:1] + history[max(1, codec.hand_start(history)):]
            self.size = seen.start + len(seen.history) - len(history)
            await self.outlet.started()
        await self.emit(history, seen.v, seen.to_act, seen.clocks, log, seen.legal)

    async def emit(self, messages: list[dict[str, Any]], v: int, to_act: list[int],
                   clocks: list[dict[str, Any]] | None, log: list[list[dict[str, Any]]] | None = None,
                   legal: list[dict[str, Any]] | None = None) -> None:
        """Translate ``messages`` (the next of the seat's history) and send them; the last is a
        question when the game waits for this seat at ``v``. ``log``: the game's log so far, for
        the ``kaiju`` of a seat taken up again."""
        assert self.stream is not None
        current = v >= self.v
        self.v = max(self.v, v)
        self.size += len(messages)
        paipu = None
        if any(m["type"] == "jieju" for m in messages):
            history = await db.call(gateway.final_history, self.user, self.game_id)
            paipu = codec.paipu(history, self.stream.names) if history else None
        frames = self.stream.frames(messages, paipu)
        if log is not None and frames and frames[0]["type"] == "kaiju":
            frames[0]["data"]["log"] = log
        if current:
            if frames and self.seat in to_act:
                self.pending = self.stream.question(frames[-1], v)
                self.timer = self._timer(clocks)
                self.legal = list(legal or [])
                frames[-1] = self.pending.frame()
            elif frames or self.seat not in to_act:
                self.pending = None  # answered (by this link, another, or the server at a time-out)
        await self.outlet.frames(frames, self.timer if self.pending is not None else None)
        if frames and frames[-1]["type"] == "jieju":
            await self.end(Status.FINISHED)

    def _timer(self, clocks: list[dict[str, Any]] | None) -> list[int] | None:
        """majiang-server's ``timer`` of a question: ``[limit, allowed]``, the decision's seconds and
        the seat's bank left in whole seconds (games/service/clocks.py keeps it so)."""
        if self.per_decision is None or not clocks:
            return None
        mine = next((c for c in clocks if c.get("position") == self.seat), None)
        if mine is None or "bank_ms" not in mine:
            return None
        return [self.per_decision, -(-int(mine["bank_ms"]) // 1000)]

