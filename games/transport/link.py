"""The link layer: what every real-time link does, whatever protocol it speaks.

A link (a WebSocket, a TCP line link bridged to one by games/transport/lines.py, or a socket.io
session of majiang-server's dialect) logs a user in with the site's credentials (``authenticate``),
takes its place in the lobby (``Link.start_link``: a presence row, the lobby's and the user's
groups, the log-in looked at again, ``ClientConnected``), reads what the client sends
(``Link.take_frame``: the rate limit, the protocol's parse, its log-in or its handler, a refusal
said in the protocol's terms) and leaves (``Link.end_link``). The consumers only translate between
their protocol and this layer and the service's door, so a token, a flood or a refusal is dealt
with the same way on every protocol, and only the words differ.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from asgiref.sync import sync_to_async
from django.contrib.auth import authenticate as authenticate_password
from django.db import close_old_connections

from accounts import login_limits
from accounts.models import USERNAME_MAX_BYTES, User
from games.core import db, limits, validation
from games.core.errors import GameError
from games.service import door, presence, push
from games.service.push import LOBBY, LOBBY_COPY, LOBBY_GROUP, user_group
from games.transport.guard import GuardedConsumer, LoginWatch

# A JSON protocol's frame (the lobby's, Majiang's): its bytes and its depth.
MAX_FRAME_BYTES = 64 * 1024
MAX_NESTING = validation.MAX_NESTING
# The highest seat number a message may name (the same bound as the REST API's).
MAX_SEAT = validation.MAX_SEAT


class FatalError(Exception):
    """A refusal that ends the link: the consumer says it in its protocol's terms (``fatal``) and
    closes. Raised by a protocol's log-in, or wherever nothing sensible can follow."""

    def __init__(self, code: str, reason: str) -> None:
        self.code = code
        self.reason = reason


def parse_frame(text_data: str | None) -> dict[str, Any]:
    """A JSON text frame as a protocol message, or ``InvalidMessageFormat``. Only standard JSON
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


def authenticate(message: dict[str, Any], session_user: Any = None,
                 address: str = login_limits.UNKNOWN) -> tuple[User, int | None]:
    """The user a log-in message names (``token``, or ``username`` and ``password``, or else
    ``session_user`` when the endpoint trusts a session), and the id of the API token used (None
    without one); ``FatalError`` otherwise. Every protocol that logs in with these credentials
    uses this, so a token or password is accepted or refused the same way on each.
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


def connected(client_id: int, user: User, mates: list[int]) -> list[push.Event]:
    """The lobby's ``ClientConnected`` for a new connection, as channel-layer events that pass
    over the new connection itself: the lobby's, and a copy to each of ``mates`` (the users at the
    user's tables). A message, not text: a lobby client leaves out a username it knows already."""
    message = {"type": "ClientConnected", "client": client_id, "user": user.id, "username": user.username}
    return [(group, {"type": "push.message", "skip_users": [], "skip_client": client_id, "message": message,
                     mark: True})
            for group, mark in [(LOBBY_GROUP, LOBBY), *((user_group(mate), LOBBY_COPY) for mate in mates)]]


class Link(LoginWatch):
    """A link's place in the lobby and how it reads its client. ``channel_layer`` and
    ``channel_name`` are the link's (a Channels consumer's own; a socket.io session makes itself a
    channel). Subclasses set ``allowance`` (a ``limits.Bucket``) before the first frame and
    implement the hooks of ``take_frame`` and ``LoginWatch``'s."""

    channel_layer: Any
    channel_name: str
    user: User | None = None
    client_id: int | None = None  # the presence row's id: the link is logged in while it has one
    groups: tuple[str, ...] = ()  # the channel-layer groups it listens to, in the order joined
    allowance: limits.Bucket
    # Whether the link follows the lobby (is in its group): a lobby page, a seed 003 client unless
    # it says otherwise. One that does not hears only what concerns it (docs/protocols/lobby.md).
    follows_lobby: bool = False

    # What the rate limit says, in the protocol's words for its frames.
    FLOOD = "too many messages on this connection"
    # The refusals of a frame that leave the link open once logged in: the platform's, and a
    # protocol's own (a codec's error with a ``code`` and a ``reason``).
    REFUSALS: tuple[type[Exception], ...] = (GameError,)
    # Most protocols say nothing but a fatal error before the log-in (seed 003's rule); one whose
    # client may be told and try again sets this False.
    FATAL_BEFORE_LOGIN = True

    def logged_in(self) -> bool:
        return self.client_id is not None

    # -- start-up and end -------------------------------------------------------------------------

    async def start_link(self, user: User, greet: Callable[[dict[str, Any]], Awaitable[None]] | None = None,
                         known: dict[int, int] | None = None, rejoin: int | None = None,
                         with_history: bool = False, lobby: bool = False) -> dict[str, Any] | None:
        """Take ``user``'s logged-in link's place in the lobby: count the connection (the
        greetings of ``presence.connect``; ``GameError`` ``TooManyConnections``), listen to the
        user's group and, if ``lobby``, the lobby's, look at the log-in again (``token_id``,
        ``session_key``: set them first), ``greet`` the client with the greetings if given, and
        tell the lobby and the users at the user's tables. The greetings; None if the log-in ended
        meanwhile (the link is being closed)."""
        self.user = user
        greetings = await db.call(presence.connect, user, self.channel_name, known or {}, rejoin, with_history,
                                  lobby)
        self.client_id = greetings["client"]
        if lobby:
            await self.follow_lobby()
        await self.join_group(user_group(user.id))
        if not await self.still_logged_in():
            return None
        mates = await db.call(presence.table_mates, user.id)
        if greet is not None:
            await greet(greetings)  # before the lobby hears of the link: the client sees itself come
        await push.send_events(self.channel_layer, connected(self.client_id, user, mates))
        return greetings

    async def follow_lobby(self) -> None:
        """Listen to the lobby's group from now on."""
        if not self.follows_lobby:
            await self.join_group(LOBBY_GROUP)
            self.follows_lobby = True

    async def unfollow_lobby(self) -> None:
        """Hear only what concerns the link from now on."""
        if self.follows_lobby:
            await self.leave_group(LOBBY_GROUP)
            self.follows_lobby = False

    def wants(self, event: dict[str, Any]) -> bool:
        """Whether a pushed event is for this link: not its own announcement, not for a user it
        passes over, and not a lobby message's copy when the lobby's group brings the original."""
        if self.user is None or self.user.id in event.get("skip_users", ()):
            return False
        if event.get("skip_client") is not None and event.get("skip_client") == self.client_id:
            return False
        return not (event.get(LOBBY_COPY) and self.follows_lobby)

    async def join_group(self, group: str) -> None:
        await self.channel_layer.group_add(group, self.channel_name)
        self.groups = (*self.groups, group)

    async def leave_group(self, group: str) -> None:
        if group in self.groups:
            await self.channel_layer.group_discard(group, self.channel_name)
            self.groups = tuple(g for g in self.groups if g != group)

    async def end_link(self, left: Callable[[], Awaitable[None]] | None = None) -> None:
        """Leave the groups, drop the presence row, run ``left`` (what the protocol lets go of:
        a seat), each step whatever happened to the one before; then tell the lobby. Once: a
        second call finds nothing left to do."""
        client_id, self.client_id = self.client_id, None
        groups, self.groups = self.groups, ()
        self.follows_lobby = False
        mates: list[int] = []
        try:
            for group in groups:
                await self.channel_layer.group_discard(group, self.channel_name)
        finally:
            try:
                if client_id is not None:
                    mates = await db.call(presence.disconnect, client_id, self.user.id if self.user else None)
            finally:
                if left is not None:
                    await left()
        if client_id is not None:
            await push.send_events(self.channel_layer,
                                   push.lobby_events({"type": "ClientDisconnected", "client": client_id}, users=mates))

    # -- what the client sends --------------------------------------------------------------------

    async def take_frame(self, frame: Any) -> None:
        """One frame (or message) from the client: refused at once past the rate limit (before it
        is even parsed, so a flood costs the server next to nothing), read, then the protocol's
        log-in until the link is logged in and its handler after. A ``FatalError`` ends the link;
        a refusal (``REFUSALS``) is said and the link goes on, except before the log-in."""
        reply_to = None
        try:
            wait = self.allowance.take()
            if wait:
                raise limits.RateLimited(self.FLOOD, wait)
            message = self.read_frame(frame)
            reply_to = self.reply_to(message)
            if self.logged_in():
                await self.handle(message)
            else:
                await self.login(message)
        except FatalError as fatal:
            await self.fatal(fatal.code, fatal.reason)
        except self.REFUSALS as refused:
            if self.FATAL_BEFORE_LOGIN and not self.logged_in():
                await self.fatal(refused.code, refused.reason)
                return
            await self.refused_frame(refused, reply_to)

    def read_frame(self, frame: Any) -> Any:
        """The protocol's message in ``frame`` (its codec's parse); raises one of ``REFUSALS`` or
        ``FatalError``. As it is by default."""
        return frame

    def reply_to(self, message: Any) -> Any:
        """What an error answering ``message`` echoes (a request id, a reply's seq); None."""
        return None

    async def login(self, message: Any) -> None:
        """A message before the link is logged in: the protocol's log-in."""
        raise NotImplementedError

    async def handle(self, message: Any) -> None:
        """A message of a logged-in link."""
        raise NotImplementedError

    async def fatal(self, code: str, reason: str) -> None:
        """Tell the client why the link ends, in the protocol's terms; close it."""
        raise NotImplementedError

    async def refused_frame(self, refused: Exception, reply_to: Any) -> None:
        """Tell the client its message was refused and nothing changed (``reply_to``: what
        ``reply_to`` made of the message, None if it was refused before)."""
        raise NotImplementedError


class LinkConsumer(Link, GuardedConsumer):
    """A ``Link`` that is a Channels consumer (every protocol's WebSocket, and the TCP links bridged
    to one). Subclasses call ``take_frame`` from ``receive``, and implement ``cleanup`` when the
    link holds more than its place in the lobby."""

    # Whether the log-in may rest on the browser's session (an origin-checked endpoint only).
    allow_session = False

    async def connect(self) -> None:
        self.allowance = limits.Bucket()
        door.ensure_sweeper()
        await self.accept()

    async def authenticate_link(self, credentials: dict[str, Any]) -> User:
        """``authenticate`` the client's ``credentials`` (``FatalError`` if refused) and record what
        the link logged in with, whose end ends it (``token_id``, ``session_key``)."""
        if credentials.get("password") is not None and credentials.get("token") is None:
            # A password hash takes a CPU-heavy moment: not on the thread every consumer's
            # database calls share, where it would stall every other client.
            user, token_id = await sync_to_async(self._authenticate, thread_sensitive=False)(credentials)
        else:
            user, token_id = await db.call(self._authenticate, credentials)
        self.token_id = token_id
        if token_id is None and credentials.get("password") is None:
            # Logged in by the browser's session: the link lasts as long as that session does.
            self.session_key = self.scope["session"].session_key
        return user

    def _authenticate(self, credentials: dict[str, Any]) -> tuple[User, int | None]:
        return authenticate(credentials, self.scope.get("user") if self.allow_session else None,
                            login_limits.scope_address(self.scope))

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        await self.take_frame(text_data)

    async def disconnect(self, code: int) -> None:
        await self.cleanup()

    async def cleanup(self) -> None:
        """Leave the lobby (``end_link``); once, whatever happened before."""
        await self.end_link()
