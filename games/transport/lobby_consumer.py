"""The lobby and game WebSocket (seed 003's real-time protocol, encoded as in docs/protocols/lobby.md).

The consumer only translates: it authenticates, parses a frame, calls the lobby or game service,
and forwards what the service pushes. No game rule lives here.
"""

from __future__ import annotations

import asyncio
import json
import logging
from typing import Any

from django.conf import settings

from games.core import db, validation
from games.core.errors import Conflict, GameError
from games.service import door, presence, push
from games.service.push import LOBBY, game_group
from games.transport.link import FatalError, LinkConsumer, parse_frame
from games.transport.lobby_frames import batch

log = logging.getLogger(__name__)

PROTOCOL_VERSION = 1
# A client's request id, echoed in the reply.
MAX_REF = 200


def lobby_tick() -> float:
    """Seconds a lobby message may be held so that those of one tick go out as one frame
    (``LOBBY_TICK_MS``; 0 sends each at once)."""
    return max(0.0, float(getattr(settings, "LOBBY_TICK_MS", 100))) / 1000


def _game(message: dict[str, Any], key: str = "game", *, optional: bool = False) -> int | None:
    value = message.get(key)
    if value is None and optional:
        return None
    return validation.game_id(value, key)


def _from(message: dict[str, Any]) -> int:
    """EnterGame's and Resync's ``from``: the history messages the client already holds."""
    value = message.get("from")
    return 0 if value is None else validation.seq(value, "from")


def _valid_ref(ref: Any) -> bool:
    """A ``ref`` is echoed back as it came: a short string or a number (a client's request id)."""
    if ref is None:
        return True
    if isinstance(ref, bool) or not isinstance(ref, str | int | float):
        return False
    return len(json.dumps(ref)) <= MAX_REF


class LobbyConsumer(LinkConsumer):
    """Browsers: origin-checked, and a logged-in session is enough to log in."""

    allow_session = True
    # The game this client entered (EnterGame, or rejoin at Login): its group brings the
    # spectators' view of that game's moves and its table chat.
    entered: int | None = None

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # Set here, not in ``connect``: a link refused before it (over the per-address cap) still
        # sends its refusal through ``send``.
        self.known_users: set[int] = set()
        # Lobby messages held for the tick, as JSON text, oldest first; the tick's timer; whether
        # they are held until further notice (until Greetings or a subscription's state is out).
        self.held: list[str] = []
        self.tick: asyncio.TimerHandle | None = None
        self.holding = False
        self.flushes: set[asyncio.Task[None]] = set()

    async def cleanup(self) -> None:
        """Leave the groups (the entered game's too), drop the presence row, tell the lobby; once,
        whatever happened before."""
        self.entered = None
        if self.tick is not None:
            self.tick.cancel()
            self.tick = None
        self.held = []
        await self.end_link()

    # -- frames to the client: lobby messages of one tick together --------------------------------

    async def send(self, text_data: str | None = None, bytes_data: bytes | None = None, close: bool = False) -> None:
        """Every frame to the client: the lobby messages held before it go first, so the client
        sees everything in the order it happened."""
        if self.held and not self.holding:
            await self.flush_held()
        await super().send(text_data=text_data, bytes_data=bytes_data, close=close)

    async def flush_held(self) -> None:
        held, self.held = self.held, []
        if held:
            await super().send(text_data=batch(held))

    def hold(self, text: str) -> None:
        self.held.append(text)
        if self.tick is None and not self.holding:
            self.tick = asyncio.get_running_loop().call_later(lobby_tick(), self._tick)

    def _tick(self) -> None:
        self.tick = None
        if self.held and not self.holding:
            task = asyncio.ensure_future(self.flush_held())
            self.flushes.add(task)  # the loop keeps only a weak reference
            task.add_done_callback(self.flushes.discard)

    async def release(self) -> None:
        """Stop holding lobby messages until further notice: send what was held."""
        self.holding = False
        await self.flush_held()

    async def internal_error(self, message: dict[str, Any]) -> None:
        if message.get("type") != "websocket.receive":
            return  # a push that could not be delivered: the client resyncs on the gap it sees
        if self.client_id is None:
            await self.fatal("InternalError", "the server could not handle this message")
            return
        await self.send_json({"type": "Error", "code": "InternalError",
                              "reason": "the server could not handle this message; nothing was changed"})

    async def login_gone(self, code: str, reason: str) -> None:
        # Fatal as a failed Login is: the client must log in again with valid credentials.
        await self.fatal(code, reason)
        await self.cleanup()  # no frame still queued is handled with the ended log-in's authority

    async def refuse(self, code: str, reason: str) -> None:
        # The link ends as a failed Login ends it; a logged-in link also leaves at once.
        await self.fatal(code, reason)
        await self.cleanup()

    async def fatal(self, code: str, reason: str) -> None:
        # Before a successful Login the seed allows only FatalError, and after one it ends the link.
        await self.send_json({"type": "FatalError", "code": code, "reason": reason})
        await self.close(code=4000)

    async def send_json(self, message: dict[str, Any]) -> None:
        await self.send(text_data=json.dumps(message, separators=(",", ":")))

    # -- frames from the client (games.transport.link.Link.take_frame) ----------------------------

    def read_frame(self, frame: str | None) -> dict[str, Any]:
        message = parse_frame(frame)
        if not _valid_ref(message.get("ref")):
            raise GameError("InvalidMessage", f"'ref' is a string or number of at most {MAX_REF} characters")
        return message

    def reply_to(self, message: dict[str, Any]) -> Any:
        return message.get("ref")

    async def handle(self, message: dict[str, Any]) -> None:
        handler = self.HANDLERS.get(message["type"])
        if handler is None:
            raise GameError("UnknownMessageType", f"no message type {message['type']!r}")
        await handler(self, message)

    async def refused_frame(self, refused: GameError, ref: Any) -> None:
        reply = {"type": "Error", **refused.as_dict()}
        if ref is not None:
            reply["ref"] = ref
        await self.send_json(reply)

    # -- Login ---------------------------------------------------------------------------------

    async def login(self, message: dict[str, Any]) -> None:
        if message["type"] != "Login":
            raise FatalError("NotLoggedIn", "the first message must be Login")
        version = message.get("version")
        if not validation.is_integer(version) or version != PROTOCOL_VERSION:
            # ``1.0`` and ``true`` equal 1 in Python; the protocol's version is the integer 1.
            raise FatalError("NotUsingLatestVersion", f"this server speaks version {PROTOCOL_VERSION}")
        known = message.get("games", [])
        try:
            if not isinstance(known, list) or not all(isinstance(g, dict) for g in known):
                raise GameError("InvalidMessage", "not a list")
            known = {validation.game_id(g.get("game")): validation.seq(g.get("history_size"), "history_size")
                     for g in known}
        except GameError:
            raise FatalError("InvalidMessageFormat", "games must be a list of {game, history_size}") from None
        rejoin = message.get("rejoin")
        if rejoin is not None and not (validation.is_integer(rejoin) and 1 <= rejoin <= validation.MAX_INT):
            raise FatalError("InvalidMessageFormat", "rejoin must be a game id")
        with_history = message.get("history", True)
        if not isinstance(with_history, bool):
            raise FatalError("InvalidMessageFormat", "history must be true or false")
        lobby = message.get("lobby", True)
        if not isinstance(lobby, bool):
            raise FatalError("InvalidMessageFormat", "lobby must be true or false")
        user = await self.authenticate_link(message)
        # Greetings come first: lobby messages that arrive meanwhile wait for them.
        self.holding = True
        try:
            greetings = await self.start_link(user, greet=self.send_json, known=known, rejoin=rejoin,
                                              with_history=with_history, lobby=lobby)
        finally:
            await self.release()
        if greetings is None:
            return
        self.known_users.update(entry["user"] for entry in greetings["users"])
        if greetings.get("entered_game") is not None:
            await self._follow(greetings["entered_game"])
            await self._entered(greetings["entered_game"])

    # -- Requests ------------------------------------------------------------------------------

    async def _call(self, function, *args) -> Any:
        return await db.call(function, *args)

    async def _follow(self, game_id: int | None) -> None:
        """Receive ``game_id``'s spectator pushes from now on, and no other game's. Joined before
        the Snapshot is read, so every move after it arrives: overlap, never a gap."""
        if game_id == self.entered:
            return
        if self.entered is not None:
            await self.leave_group(game_group(self.entered))
        self.entered = game_id
        if game_id is not None:
            await self.join_group(game_group(game_id))

    async def _entered(self, game_id: int | None) -> None:
        await push.send_events(self.channel_layer, push.lobby_events(
            {"type": "ClientEnteredGame", "client": self.client_id, "game": game_id}))

    async def subscribe_lobby(self, message: dict[str, Any]) -> None:
        """Follow the lobby from now on: its state now, then every lobby message after it. The
        group is joined before the state is read (overlap, never a gap), and what arrives
        meanwhile is held until the state is out."""
        if self.follows_lobby:
            raise GameError("AlreadyFollowingLobby", "this connection follows the lobby already")
        self.holding = True
        try:
            await self.follow_lobby()
            state = await self._call(presence.lobby_state, self.user)
            self.known_users.update(entry["user"] for entry in state["users"])
            await self.send_json(self._reply({"type": "LobbySubscribed", **state}, message))
        finally:
            await self.release()

    async def unsubscribe_lobby(self, message: dict[str, Any]) -> None:
        """Hear only what concerns this connection from now on."""
        await self.unfollow_lobby()
        self.held = []  # a lobby message not yet sent is no longer wanted
        await self.send_json(self._reply({"type": "LobbyUnsubscribed"}, message))

    @staticmethod
    def _reply(reply: dict[str, Any], message: dict[str, Any]) -> dict[str, Any]:
        if message.get("ref") is not None:
            reply["ref"] = message["ref"]
        return reply

    async def create_game(self, message: dict[str, Any]) -> None:
        # The same reading as POST /api/games/ (games/core/validation.py): same fields, same codes.
        table = validation.create_game(message)
        game = await self._call(lambda: door.create_table(self.user, table.pop("game_type"), table.pop("mode"),
                                                           **table))
        await self._enter(game.id)

    async def _enter(self, game_id: int | None) -> None:
        await self._call(presence.enter, self.client_id, game_id)
        await self._follow(game_id)
        await self._entered(game_id)

    async def join_game(self, message: dict[str, Any]) -> None:
        game = await self._call(door.join, self.user, _game(message))
        await self._enter(game.id)

    async def leave_game(self, message: dict[str, Any]) -> None:
        await self._call(door.leave, self.user, _game(message))

    async def accept_setup(self, message: dict[str, Any]) -> None:
        version = validation.accept(message)["version"]
        await self._call(door.accept, self.user, _game(message), version)

    async def change_mode(self, message: dict[str, Any]) -> None:
        mode = validation.change_mode(message)["mode"]
        await self._call(door.change_mode, self.user, _game(message), mode)

    async def change_arrangement(self, message: dict[str, Any]) -> None:
        setup = validation.change_arrangement(message)
        await self._call(door.change_arrangement, self.user, _game(message), setup["arrangement"], setup["order"])

    async def add_bot(self, message: dict[str, Any]) -> None:
        await self._call(door.add_bot, self.user, _game(message), validation.add_bot(message)["bot"])

    async def kick(self, message: dict[str, Any]) -> None:
        await self._call(door.kick, self.user, _game(message), validation.kick(message)["user"])

    async def enter_game(self, message: dict[str, Any]) -> None:
        game_id = _game(message, optional=True)
        await self._enter(game_id)
        if game_id is not None:
            await self.send_json(await self._call(door.snapshot_for, self.user, game_id, _from(message)))

    async def do_game_action(self, message: dict[str, Any]) -> None:
        game_id = _game(message)
        move = validation.game_action(message)  # as POST .../moves/ reads its body
        result = await door.act_async(self.user, game_id, move["seat"], move["action"], move["params"], move["v"])
        reply = {"type": "ActionApplied", **result}
        if message.get("ref") is not None:
            reply["ref"] = message["ref"]
        await self.send_json(reply)

    async def resync(self, message: dict[str, Any]) -> None:
        await self.send_json(await self._call(door.snapshot_for, self.user, _game(message), _from(message)))

    async def chat(self, message: dict[str, Any]) -> None:
        game_id = _game(message, optional=True)
        await self._call(door.post_chat, self.user, game_id, validation.chat(message)["text"])

    async def play_now(self, message: dict[str, Any]) -> None:
        """Join Play now's queue (docs/play-now.md): ``PlayNowWaiting`` comes to every connection
        of the user, then ``PlayNowSeated`` or ``PlayNowLeft``."""
        await self._call(door.play_now, self.user, validation.play_now(message), "socket")

    async def leave_play_now(self, message: dict[str, Any]) -> None:
        if not await self._call(door.leave_play_now, self.user):
            raise Conflict("NotQueued", "you are not waiting in Play now")

    HANDLERS = {
        "CreateGame": create_game,
        "JoinGame": join_game,
        "LeaveGame": leave_game,
        "AcceptSetup": accept_setup,
        "ChangeMode": change_mode,
        "ChangeArrangement": change_arrangement,
        "Kick": kick,
        "AddBot": add_bot,
        "EnterGame": enter_game,
        "DoGameAction": do_game_action,
        "Resync": resync,
        "Chat": chat,
        "SubscribeLobby": subscribe_lobby,
        "UnsubscribeLobby": unsubscribe_lobby,
        "PlayNow": play_now,
        "LeavePlayNow": leave_play_now,
    }

    # -- Pushes from the service -----------------------------------------------------------------

    async def push_message(self, event: dict[str, Any]) -> None:
        if not self.wants(event):
            return
        if "text" in event:
            text = event["text"]  # encoded once for every receiver (games/service/push.py)
        else:
            message = event["message"]
            if message["type"] == "ClientConnected":
                # The seed sends the username only to clients that do not know the user yet.
                if message["user"] in self.known_users:
                    message = {k: v for k, v in message.items() if k != "username"}
                self.known_users.add(message["user"])
            text = json.dumps(message, separators=(",", ":"))
        if event.get(LOBBY) and lobby_tick() > 0:
            self.hold(text)  # the lobby messages of one tick go out as one frame
            return
        await self.send(text_data=text)


class BotLobbyConsumer(LobbyConsumer):
    """Bots and other programs: no Origin header is required, because no cookie is trusted here;
    Login must carry a token or a password."""

    allow_session = False
