"""The lobby and game WebSocket (seed 003's real-time protocol, encoded as in docs/protocols/lobby.md).

The consumer only translates: it authenticates, parses a frame, calls the lobby or game service,
and forwards what the service pushes. No game rule lives here.
"""

from __future__ import annotations

import json
import logging
from typing import Any

from asgiref.sync import sync_to_async
from django.contrib.auth import authenticate as authenticate_password
from django.db import close_old_connections

from accounts import login_limits
from accounts.models import USERNAME_MAX_BYTES, User
from games.core import db, limits, validation
from games.core.errors import GameError
from games.service import door, presence
from games.service.push import LOBBY_GROUP, event_of, game_group, user_group
from games.transport.guard import GuardedConsumer

log = logging.getLogger(__name__)

PROTOCOL_VERSION = 1
MAX_FRAME_BYTES = 64 * 1024
MAX_NESTING = validation.MAX_NESTING
MAX_SEAT = validation.MAX_SEAT
# A client's request id, echoed in the reply.
MAX_REF = 200


class FatalError(Exception):
    def __init__(self, code: str, reason: str) -> None:
        self.code = code
        self.reason = reason


def _game(message: dict[str, Any], key: str = "game", *, optional: bool = False) -> int | None:
    value = message.get(key)
    if value is None and optional:
        return None
    return validation.game_id(value, key)


def _from(message: dict[str, Any]) -> int:
    """EnterGame's and Resync's ``from``: the history messages the client already holds."""
    value = message.get("from")
    return 0 if value is None else validation.seq(value, "from")


def parse_frame(text_data: str | None) -> dict[str, Any]:
    """A text frame as a protocol message, or ``InvalidMessageFormat``. Only standard JSON
    (``validation.loads``): NaN and Infinity, which Python's json reads and writes but no other JSON
    reader accepts, are refused, so nothing a client sent can be echoed back as invalid JSON."""
    if text_data is None or len(text_data.encode("utf-8", "surrogatepass")) > MAX_FRAME_BYTES:
        raise GameError("InvalidMessageFormat", "send JSON text frames of at most 64 KiB")
    try:
        message = validation.loads(text_data)
    except ValueError as error:
        raise GameError("InvalidMessageFormat", f"the frame is not standard JSON: {error}") from None
    if not isinstance(message, dict) or not isinstance(message.get("type"), str):
        raise GameError("InvalidMessageFormat", "a message is a JSON object with a string 'type'")
    return message


def _valid_ref(ref: Any) -> bool:
    """A ``ref`` is echoed back as it came: a short string or a number (a client's request id)."""
    if ref is None:
        return True
    if isinstance(ref, bool) or not isinstance(ref, str | int | float):
        return False
    return len(json.dumps(ref)) <= MAX_REF


def authenticate(message: dict[str, Any], session_user: Any = None,
                 address: str = login_limits.UNKNOWN) -> tuple[User, int | None]:
    """The user a log-in message names (``token``, or ``username`` and ``password``, or else
    ``session_user`` when the endpoint trusts a session), and the id of the API token used (None
    without one); ``FatalError`` otherwise. Every WebSocket protocol that logs in with these
    credentials uses this, so a token or password is accepted or refused the same way on each.
    ``address``: the client's (``login_limits.scope_address``), whose failed log-ins are limited."""
    username = message.get("username")
    password = message.get("password")
    token = message.get("token")
    if username is not None:
        if not isinstance(username, str) or not username or len(username.encode("utf-8")) > USERNAME_MAX_BYTES:
            raise FatalError("InvalidUsername", f"a username is 1 to {USERNAME_MAX_BYTES} bytes")
    token_id = None
    if token is not None:
        try:
            api_token = login_limits.token_login(token, address)
        except GameError as refused:  # RateLimited
            raise FatalError(refused.code, refused.reason) from None
        if api_token is None:
            raise FatalError("InvalidToken", "unknown, expired or revoked API token")
        user, token_id = api_token.user, api_token.id
    elif password is not None:
        if not isinstance(password, str) or username is None:
            raise FatalError("MissingUsername", "a password needs a username")
        refused = login_limits.refusal(address, username)
        if refused is not None:  # RateLimited or LoginLocked: said here, as the backend would not
            raise FatalError(refused.code, refused.reason)
        login_limits.take_refusal()  # none left over from an earlier log-in on this thread
        try:
            user = authenticate_password(username=username, password=password, address=address)
        finally:
            close_old_connections()  # this ran on a worker thread of its own
        if user is None:
            refused = login_limits.take_refusal()
            if refused is not None:  # refused unhashed after all (a guess sent at once with others)
                raise FatalError(refused.code, refused.reason)
            raise FatalError("IncorrectPassword", "wrong username or password")
    else:
        user = session_user
        if user is None or not user.is_authenticated:
            raise FatalError("MissingPassword", "log in with a password, a token or a session")
    if username is not None and username != user.username:
        raise FatalError("InvalidUsername", "the username does not match the credentials")
    return user, token_id


def connected(client_id: int, user: User) -> dict[str, Any]:
    """The lobby's ``ClientConnected`` for a new connection, as a channel-layer event that passes
    over the new connection itself."""
    return {"type": "push.message", "skip_users": [], "skip_client": client_id,
            "message": {"type": "ClientConnected", "client": client_id, "user": user.id,
                        "username": user.username}}


class LobbyConsumer(GuardedConsumer):
    """Browsers: origin-checked, and a logged-in session is enough to log in."""

    allow_session = True
    user: User | None = None
    client_id: int | None = None
    # The game this client entered (EnterGame, or rejoin at Login): its group brings the
    # spectators' view of that game's moves and its table chat.
    entered: int | None = None

    async def connect(self) -> None:
        self.known_users: set[int] = set()
        self.frames = limits.Bucket()
        door.ensure_sweeper()
        await self.accept()

    async def disconnect(self, code: int) -> None:
        await self.cleanup()

    async def cleanup(self) -> None:
        """Leave the groups, drop the presence row, tell the lobby; once, whatever happened before."""
        client_id, self.client_id = self.client_id, None
        if client_id is None:
            return
        try:
            await self.channel_layer.group_discard(LOBBY_GROUP, self.channel_name)
            await self.channel_layer.group_discard(user_group(self.user.id), self.channel_name)
            await self._follow(None)
        finally:
            await db.call(presence.disconnect, client_id)
        await self.channel_layer.group_send(LOBBY_GROUP, event_of({"type": "ClientDisconnected", "client": client_id}))

    async def internal_error(self, message: dict[str, Any]) -> None:
        if message.get("type") != "websocket.receive":
            return  # a push that could not be delivered: the client resyncs on the gap it sees
        if self.client_id is None:
            await self.send_json({"type": "FatalError", "code": "InternalError",
                                  "reason": "the server could not handle this message"})
            await self.close(code=4000)
            return
        await self.send_json({"type": "Error", "code": "InternalError",
                              "reason": "the server could not handle this message; nothing was changed"})

    async def login_gone(self, code: str, reason: str) -> None:
        # Fatal as a failed Login is: the client must log in again with valid credentials.
        await self.send_json({"type": "FatalError", "code": code, "reason": reason})
        await self.close(code=4000)
        await self.cleanup()  # no frame still queued is handled with the ended log-in's authority

    def logged_in(self) -> bool:
        return self.client_id is not None

    async def refuse(self, code: str, reason: str) -> None:
        # The link ends as a failed Login ends it; a logged-in link also leaves at once.
        await self.send_json({"type": "FatalError", "code": code, "reason": reason})
        await self.close(code=4000)
        await self.cleanup()

    async def send_json(self, message: dict[str, Any]) -> None:
        await self.send(text_data=json.dumps(message, separators=(",", ":")))

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        ref = None
        try:
            wait = self.frames.take()
            if wait:
                # Refused before it is even parsed: a flood costs the server next to nothing.
                raise limits.RateLimited("too many messages on this connection", wait)
            message = parse_frame(text_data)
            if not _valid_ref(message.get("ref")):
                raise GameError("InvalidMessage", f"'ref' is a string or number of at most {MAX_REF} characters")
            ref = message.get("ref")
            if self.client_id is None:
                await self.login(message)
                return
            handler = self.HANDLERS.get(message["type"])
            if handler is None:
                raise GameError("UnknownMessageType", f"no message type {message['type']!r}")
            await handler(self, message)
        except FatalError as fatal:
            await self.send_json({"type": "FatalError", "code": fatal.code, "reason": fatal.reason})
            await self.close(code=4000)
        except GameError as error:
            if self.client_id is None:
                # Before a successful Login the seed allows only FatalError.
                await self.send_json({"type": "FatalError", "code": error.code, "reason": error.reason})
                await self.close(code=4000)
                return
            reply = {"type": "Error", **error.as_dict()}
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
        if message.get("password") is not None and message.get("token") is None:
            # A password hash takes a CPU-heavy moment: not on the thread every consumer's
            # database calls share, where it would stall every other client.
            user, token_id = await sync_to_async(self._authenticate, thread_sensitive=False)(message)
        else:
            user, token_id = await db.call(self._authenticate, message)
        self.user = user
        self.token_id = token_id
        if token_id is None and message.get("password") is None:
            # Logged in by the browser's session: the link lasts as long as that session does.
            self.session_key = self.scope["session"].session_key
        greetings = await db.call(presence.connect,
            user, self.channel_name, known, rejoin, with_history
        )
        self.client_id = greetings["client"]
        for entry in greetings["users"]:
            self.known_users.add(entry["user"])
        await self.channel_layer.group_add(LOBBY_GROUP, self.channel_name)
        await self.channel_layer.group_add(user_group(user.id), self.channel_name)
        if not await self.still_logged_in():
            return
        await self.send_json(greetings)
        await self.channel_layer.group_send(LOBBY_GROUP, connected(self.client_id, user))
        if greetings.get("entered_game") is not None:
            await self._follow(greetings["entered_game"])
            await self._entered(greetings["entered_game"])

    def _authenticate(self, message: dict[str, Any]) -> tuple[User, int | None]:
        return authenticate(message, self.scope.get("user") if self.allow_session else None,
                            login_limits.scope_address(self.scope))

    # -- Requests ------------------------------------------------------------------------------

    async def _call(self, function, *args) -> Any:
        return await db.call(function, *args)

    async def _follow(self, game_id: int | None) -> None:
        """Receive ``game_id``'s spectator pushes from now on, and no other game's. Joined before
        the Snapshot is read, so every move after it arrives: overlap, never a gap."""
        if game_id == self.entered:
            return
        if self.entered is not None:
            await self.channel_layer.group_discard(game_group(self.entered), self.channel_name)
        self.entered = game_id
        if game_id is not None:
            await self.channel_layer.group_add(game_group(game_id), self.channel_name)

    async def _entered(self, game_id: int | None) -> None:
        await self.channel_layer.group_send(LOBBY_GROUP, event_of(
            {"type": "ClientEnteredGame", "client": self.client_id, "game": game_id}))

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
        await self._call(door.add_bot, self.user, _game(message))

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
    }

    # -- Pushes from the service -----------------------------------------------------------------

    async def push_message(self, event: dict[str, Any]) -> None:
        if self.user is None or self.user.id in event.get("skip_users", ()):
            return
        if event.get("skip_client") == self.client_id:
            return
        if "text" in event:
            await self.send(text_data=event["text"])  # encoded once for every receiver (games/service/push.py)
            return
        message = event["message"]
        if message["type"] == "ClientConnected":
            # The seed sends the username only to clients that do not know the user yet.
            if message["user"] in self.known_users:
                message = {k: v for k, v in message.items() if k != "username"}
            self.known_users.add(message["user"])
        await self.send_json(message)


class BotLobbyConsumer(LobbyConsumer):
    """Bots and other programs: no Origin header is required, because no cookie is trusted here;
    Login must carry a token or a password."""

    allow_session = False
