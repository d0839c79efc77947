"""majiang-server's dialect (kobalab's net server for Majiang, over socket.io), under ``/majiang``:
docs/protocols/majiang.md, "The majiang-server dialect (socket.io)".

So that its clients, the unmodified ``majiang-bot`` first of all, play here as they do there:

- ``POST /majiang/auth/`` (form ``name``, ``passwd``) sets the ``MAJIANG`` cookie. The bot always
  sends ``passwd=*``, so the credentials are in the name: ``username:token``, an API token of that
  user (accounts/tokens.py). The cookie is the key of a session of its own on the server (the
  site's session store, naming the user and the token's id, expiring after
  ``MAJIANG_COOKIE_MAX_AGE_SECONDS``); it is checked again, the token included, on every connection,
  so a revoked or expired token ends its cookies too. ``POST /majiang/logout`` ends that session:
  the cookie logs in no more, even if the client keeps sending it, and the links that logged in
  with it close (accounts/sessions.py).
- the socket.io server (python-socketio, mounted beside Channels in config/asgi.py at
  ``/majiang/socket.io/``): ``HELLO``, ``ROOM``, ``START``, ``GAME``, ``END``, ``ERROR``, plus
  ``REFUSED`` for a refused client message (majiang-bot quits on ``ERROR``; a refused reply must
  not end a game for it).

A thin transport: each connection is a ``Session`` that logs in from the cookie, registers its
presence, listens to the lobby group and its user's group on the channel layer, and hands every
client message and push, one at a time and in order, to its seat (``link.SeatLink``, the same as
the native WebSocket's); the session is the seat's ``Outlet`` and writes what it sends in
majiang-server's ``{type: data}`` form (``codec.server_message``).
"""

from __future__ import annotations

import asyncio
import json
import logging
from typing import Any

import socketio
from channels.layers import get_channel_layer
from django.conf import settings
from django.core.exceptions import SuspiciousOperation
from django.http import HttpRequest, HttpResponse
from django.http.cookie import parse_cookie
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_POST

from accounts import login_limits, sessions, tokens
from accounts.models import ApiToken, User
from games.core import db, limits, validation
from games.core.errors import GameError
from games.models import Status
from games.riichi.protocols import majiang as codec
from games.riichi.transport import gateway
from games.riichi.transport.link import SeatLink, seq_of
from games.transport import addresses
from games.transport.link import MAX_FRAME_BYTES, Link
from games.transport.origin import same_origin

log = logging.getLogger(__name__)

BASE = "/majiang"
SOCKETIO_PATH = f"{BASE}/socket.io/"
COOKIE = "MAJIANG"
# What a MAJIANG session holds: [user id, token id]. The site's sessions hold no such key, and a
# MAJIANG session no user of the site's, so neither cookie passes for the other.
SESSION_KEY = "majiang_login"
MAX_PACKET_BYTES = MAX_FRAME_BYTES  # as a WebSocket frame's (games/transport/link.py)


# -- the cookie -------------------------------------------------------------------------------------


def cookie_value(token: ApiToken) -> str:
    """The ``MAJIANG`` cookie of a log-in with ``token``: the key of a new session on the server
    naming its user and itself, which expires after ``MAJIANG_COOKIE_MAX_AGE_SECONDS``."""
    session = sessions.store()
    session[SESSION_KEY] = [token.user_id, token.pk]
    session.set_expiry(settings.MAJIANG_COOKIE_MAX_AGE_SECONDS)
    session.create()
    return session.session_key


def cookie_session(value: str | None) -> tuple[int, int, str] | None:
    """The user id, token id and session key of the live MAJIANG session ``value`` is the key of."""
    if not value or len(value) > 64:
        return None
    session = sessions.store(value)
    login = session.load().get(SESSION_KEY)  # an unknown, ended or expired session loads empty
    if session.session_key is None or not isinstance(login, list) or len(login) != 2:
        return None
    return login[0], login[1], session.session_key


def cookie_login(value: str | None) -> tuple[User, int, str] | None:
    """The user, token id and session key a ``MAJIANG`` cookie logs in with, if its session is
    live (not logged out, younger than ``MAJIANG_COOKIE_MAX_AGE_SECONDS``) and the token it names
    is still live and its user's."""
    found = cookie_session(value)
    if found is None:
        return None
    user_id, token_id, key = found
    token = ApiToken.objects.select_related("user").filter(pk=token_id, user_id=user_id).first()
    if token is None or token.expired or not token.user.is_active:
        return None
    return token.user, token.pk, key


def name_login(name: str, address: str) -> ApiToken | None:
    """The live token that ``username:token`` names, if the token is that user's. ``RateLimited``
    if ``address`` failed to log in too often (accounts/login_limits.py); a failure counts."""
    username, colon, key = name.rpartition(":")  # a token is hex: the last colon ends the username
    if not colon or not username:
        return None
    token = login_limits.token_login(key, address)
    if token is not None and token.user.username != username:
        login_limits.failed(address)
        return None
    return token


def _cookie_login_from(address: str, cookie: str | None) -> tuple[User, int, str] | None:
    """``cookie_login`` for a socket.io connection from ``address``: ``RateLimited`` (the cookie
    not looked up) if the address failed to log in too often; a cookie that logs in no one counts."""
    login_limits.check_address(address)
    found = cookie_login(cookie)
    if found is None and cookie:
        login_limits.failed(address)
    return found


@csrf_exempt  # a program's log-in (no page, no session): the name carries the credentials
@require_POST
def auth(request: HttpRequest) -> HttpResponse:
    """majiang-server's ``POST {base}/auth/``: ``name=username:token`` sets the ``MAJIANG`` cookie
    (``passwd`` is not read: majiang-bot always sends ``*``). Refused: 403 and no cookie."""
    try:
        name = request.POST.get("name", "")
    except SuspiciousOperation:  # a form of too many fields: said plainly, no traceback
        return HttpResponse(f"a log-in form has at most {settings.DATA_UPLOAD_MAX_NUMBER_FIELDS} fields: "
                            "name and passwd\n", status=400, content_type="text/plain; charset=utf-8")
    try:
        token = name_login(name, login_limits.request_address(request)) if len(name) <= 512 else None
    except limits.RateLimited as refused:
        return HttpResponse(f"{refused.reason}\n", status=429, headers={"Retry-After": str(refused.retry_after)},
                            content_type="text/plain; charset=utf-8")
    if token is None:
        return HttpResponse("log in with name=username:token, an API token of that user (made on "
                            "/accounts/token/): majiang-bot -n username:token\n",
                            status=403, content_type="text/plain; charset=utf-8")
    response = HttpResponse(status=204)
    response.set_cookie(COOKIE, cookie_value(token), max_age=settings.MAJIANG_COOKIE_MAX_AGE_SECONDS,
                        path=f"{BASE}/", secure=request.is_secure(), httponly=True, samesite="Strict")
    return response


@csrf_exempt
@require_POST
def logout(request: HttpRequest) -> HttpResponse:
    """majiang-server's ``POST {base}/logout``: the cookie's session ends on the server (it logs in
    no more, and the socket.io links that logged in with it close) and the cookie is cleared. The
    token stays: it is the bot's key for its next log-in."""
    found = cookie_session(request.COOKIES.get(COOKIE))
    if found is not None:
        sessions.end_session(found[0], found[2])
    response = HttpResponse(status=204)
    response.delete_cookie(COOKIE, path=f"{BASE}/", samesite="Strict")
    return response


# -- socket.io --------------------------------------------------------------------------------------


class _Json:
    """The JSON of socket.io packets: the standard JSON every frame of the site is held to
    (``validation.loads``: no NaN, bounded nesting), and compact UTF-8 text out."""

    @staticmethod
    def loads(text: str | bytes, **_: Any) -> Any:
        return validation.loads(text.decode("utf-8") if isinstance(text, bytes) else text)

    @staticmethod
    def dumps(value: Any, **_: Any) -> str:
        return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def _origin_allowed(origin: str | None, environ: dict[str, Any]) -> bool:
    # The cookie makes this a browser-reachable session: a page of another site must not ride on
    # it. The site's one origin rule (games/transport/origin.py); a program sends no Origin and is not asked.
    return same_origin(environ["asgi.scope"])


class _Server(socketio.AsyncServer):
    """python-socketio's server (pinned: these override two of its internals), telling a client
    whose message it cannot read so (``REFUSED InvalidMessageFormat``), where the library only logs
    it, and never letting a client's event pass for the server's own ``connect`` or ``disconnect``
    (which would start a second session on the connection, or end it while it goes on)."""

    async def _handle_eio_message(self, eio_sid: str, data: Any) -> None:
        try:
            await super()._handle_eio_message(eio_sid, data)
        except (ValueError, KeyError, IndexError, TypeError) as error:
            self._malformed(eio_sid, f"not a socket.io packet this server reads: {str(error)[:200]}")

    async def _handle_event(self, eio_sid: str, namespace: str | None, id: int | None, data: Any) -> None:
        if (not isinstance(data, list) or not data or not isinstance(data[0], str)
                or data[0] in self.reserved_events):
            self._malformed(eio_sid, "an event is a name (a string, not connect or disconnect) and its arguments")
            return
        await super()._handle_event(eio_sid, namespace, id, data)

    def _malformed(self, eio_sid: str, reason: str) -> None:
        sid = self.manager.sid_from_eio_sid(eio_sid, "/")
        session = links.get(sid) if sid is not None else None
        if session is not None:
            session.inbox.put_nowait(("malformed", reason))

    # An engine.io session is this transport's link (its long polling is no single connection): it
    # counts against its address's cap (games/transport/addresses.py), and it must log in (connect to the
    # namespace, which checks the cookie) within LOGIN_TIMEOUT_SECONDS. One over the cap is let
    # in only to be told so when it connects to the namespace (``Session.connect``).

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._addresses: dict[str, str | None] = {}  # engine.io sid -> its counted address
        self._login_clocks: dict[str, asyncio.Task[None]] = {}

    async def _handle_eio_connect(self, eio_sid: str, environ: dict[str, Any]) -> None:
        address = addresses.address_of(environ.get("asgi.scope", {}))
        if addresses.acquire(address):
            self._addresses[eio_sid] = address
        else:
            environ[addresses.OVER_CAP] = addresses.refusal()
        self._login_clocks[eio_sid] = asyncio.get_running_loop().create_task(self._login_due(eio_sid))
        await super()._handle_eio_connect(eio_sid, environ)

    async def _login_due(self, eio_sid: str) -> None:
        await asyncio.sleep(float(settings.LOGIN_TIMEOUT_SECONDS))
        self._login_clocks.pop(eio_sid, None)
        if self.manager.sid_from_eio_sid(eio_sid, "/") is None:
            # Never connected to the namespace: no socket.io message can reach it, so the
            # engine.io session is closed (its close packet).
            log.info("socket.io session %s: no log-in within %g s, closed", eio_sid, settings.LOGIN_TIMEOUT_SECONDS)
            await self.close_transport(eio_sid)

    async def close_transport(self, eio_sid: str, *, drain: bool = False) -> None:
        """End the engine.io session (its close packet) and its WebSocket, if it has one, at once.
        ``drain``: what was sent to a long-polling session must reach it first."""
        socket = self.eio.sockets.get(eio_sid)
        if drain and socket is not None and not socket.upgraded:
            # A long-polling client fetches what is queued for it (our ERROR, the disconnect) with its
            # next poll; engine.io refuses every poll of a closed session (400), so the close waits
            # for that poll, and the client, told it was disconnected, normally leaves by itself.
            asyncio.get_running_loop().call_later(
                POLLING_DRAIN_SECONDS, lambda: asyncio.ensure_future(self.close_transport(eio_sid)))
            return
        await self.eio.disconnect(eio_sid)
        if socket is not None and socket.upgraded:
            # engine.io's WebSocket writer waits up to ping_interval + ping_timeout (45 s) for its
            # next packet before it closes the WebSocket; None is its own word to stop now.
            socket.queue.put_nowait(None)

    async def _handle_eio_disconnect(self, eio_sid: str, reason: Any) -> None:
        clock = self._login_clocks.pop(eio_sid, None)
        if clock is not None:
            clock.cancel()
        if eio_sid in self._addresses:
            addresses.release(self._addresses.pop(eio_sid))
        await super()._handle_eio_disconnect(eio_sid, reason)


# How long a long-polling session that the server ends has to fetch its last packets (the reason it
# was ended) before it is closed outright; a client normally leaves at once on the disconnect.
POLLING_DRAIN_SECONDS = 5.0

server = _Server(async_mode="asgi", cors_allowed_origins=_origin_allowed, max_http_buffer_size=MAX_PACKET_BYTES,
                 json=_Json, logger=False, engineio_logger=False)
application = socketio.ASGIApp(server, socketio_path=SOCKETIO_PATH.strip("/"))

links: dict[str, Session] = {}  # socket.io sid -> its Session


def _user(user: User) -> dict[str, str]:
    """A user as majiang-server's HELLO and ROOM show one."""
    return {"uid": str(user.id), "name": user.username}


def _room_id(value: Any) -> int:
    """``ROOM``'s room: a game's number, as majiang-bot's ``-r`` sends it (a string) or a number."""
    if isinstance(value, str) and value.strip().isdigit():
        value = int(value.strip())
    if not validation.is_integer(value) or not 1 <= value <= validation.MAX_INT:
        raise GameError("InvalidRoom", f"a room is a riichi table's game number (majiang-bot -r <game id>), "
                                       f"not {str(value)[:40]!r}")
    return value


class Session(Link):
    """One socket.io connection: a link (games/transport/link.py) with its log-in, presence,
    channel-layer groups and seat. Everything it receives (client events, channel-layer messages,
    the disconnect) goes through one queue and is handled in order by one task, as a Channels
    consumer handles its messages."""

    wants_log = True  # the Outlet's: kaiju of a seat taken up again carries the log, as majiang-server's
    REFUSALS = (codec.ProtocolError, GameError)

    def __init__(self, sid: str, environ: dict[str, Any]) -> None:
        self.sid = sid
        self.environ = environ
        self.inbox: asyncio.Queue[tuple[str, Any]] = asyncio.Queue()
        self.seat: SeatLink | None = None
        self.channel_layer: Any = None
        self.channel_name: str | None = None  # a channel of its own on the layer, made at connect
        self.reader: asyncio.Task[None] | None = None
        self.allowance = limits.Bucket()
        self.task = asyncio.get_running_loop().create_task(self.run())

    async def emit(self, event: str, *data: Any) -> None:
        # A tuple is the event's arguments: HELLO with None goes out as ["HELLO",null], as
        # majiang-server sends it, where None alone would send no argument at all.
        await server.emit(event, data if data else None, to=self.sid)

    async def run(self) -> None:
        while True:
            kind, payload = await self.inbox.get()
            try:
                if kind == "disconnect":
                    await self.cleanup()
                    return
                if kind == "connect":
                    await self.connect()
                elif kind == "channel":
                    await self.channel_message(payload)
                elif kind == "deadline":
                    await self.login_deadline({})
                elif kind == "malformed":
                    if self.seat is not None:
                        await self.refused("InvalidMessageFormat", payload, None)
                else:
                    await self.event(*payload)
            except Exception:
                log.exception("majiang-server session: unexpected error handling %r", kind)
                if kind == "connect":
                    await self.hang_up()  # not logged in: the client sees the end, not silence
                elif kind == "event":
                    await self.refused("InternalError", "the server could not handle this message; nothing was "
                                                        "changed", None)

    # -- the connection ---------------------------------------------------------------------------

    async def connect(self) -> None:
        over_cap = self.environ.get(addresses.OVER_CAP)
        if over_cap:
            await self.emit("HELLO", None)
            await self.fatal("TooManyConnections", over_cap)
            return
        cookie = parse_cookie(self.environ.get("HTTP_COOKIE", "")).get(COOKIE)
        # engineio's environ says REMOTE_ADDR 127.0.0.1 whoever connects: the ASGI scope knows.
        address = login_limits.scope_address(self.environ.get("asgi.scope", {}))
        try:
            found = await db.call(_cookie_login_from, address, cookie)
        except limits.RateLimited as refused:
            await self.emit("HELLO", None)
            await self.fatal(refused.code, refused.reason)
            return
        if found is None:
            # As majiang-server: HELLO null, then the end. ERROR first says why (and majiang-bot,
            # which waits for nothing else, quits on it).
            await self.emit("HELLO", None)
            await self.fatal("NotLoggedIn", "no valid MAJIANG cookie; log in with POST /majiang/auth/ "
                                            "name=username:token (majiang-bot -n username:token)")
            return
        user, self.token_id, self.session_key = found
        self.channel_layer = get_channel_layer()
        self.channel_name = await self.channel_layer.new_channel()
        # Read from the start: what reaches the channel once it is in the groups waits in the
        # inbox, behind the log-in's own look at the token and the session.
        self.reader = asyncio.get_running_loop().create_task(self.read_channel())
        try:
            started = await self.start_link(user)
        except GameError as refused:  # TooManyConnections
            await self.emit("HELLO", _user(user))
            await self.fatal(refused.code, refused.reason)
            return
        if started is None:
            return  # the log-in ended meanwhile: said, and the session is ending
        self.seat = SeatLink(self, user, self.client_id, self.channel_layer)
        await self.emit("HELLO", _user(user))

    async def read_channel(self) -> None:
        while True:
            self.inbox.put_nowait(("channel", await self.channel_layer.receive(self.channel_name)))

    async def channel_message(self, message: dict[str, Any]) -> None:
        if message.get("type") == "push.message":
            if self.seat is not None:
                await self.seat.push(message)
        elif message.get("type") == tokens.REVOKED:
            await self.token_revoked(message)
        elif message.get("type") == sessions.SESSION_ENDED:
            await self.session_ended(message)

    async def deadline_due(self) -> None:
        self.inbox.put_nowait(("deadline", None))

    async def login_gone(self, code: str, reason: str) -> None:
        if code != "LoggedOut":
            # A log-out is the client's own doing: majiang-bot logs out at the end of every game
            # while still connected, and would report an ERROR then as a failure. The disconnect
            # (socket.io's own, so the client does not reconnect) says it all.
            await self.emit("ERROR", f"{code}: {reason}")
        await self.hang_up()
        await self.cleanup()

    async def fatal(self, code: str, reason: str) -> None:
        # ERROR, on which majiang-bot quits, then the end.
        await self.emit("ERROR", f"{code}: {reason}")
        await self.hang_up()

    async def hang_up(self) -> None:
        """Disconnect the socket.io session, then its transport: python-socketio's ``disconnect``
        ends the namespace only, and a WebSocket left open would still be a link to the server."""
        eio_sid = server.manager.eio_sid_from_sid(self.sid, "/")
        await server.disconnect(self.sid)
        if eio_sid is not None:
            await server.close_transport(eio_sid, drain=True)

    async def cleanup(self) -> None:
        """Leave the groups, drop the presence row, and leave the table (while it is being set up)
        or let the server play the seat until the user comes back; once."""
        links.pop(self.sid, None)
        self._watch(None)
        if self.reader is not None:
            self.reader.cancel()
        seat, self.seat = self.seat, None
        await self.end_link(seat.gone if seat is not None else None)

    # -- client events ----------------------------------------------------------------------------

    async def event(self, name: str, args: tuple[Any, ...]) -> None:
        if self.seat is None:
            return  # not logged in: on its way out
        await self.take_frame((name, args))

    def reply_to(self, message: tuple[str, tuple[Any, ...]]) -> int | None:
        name, args = message
        return seq_of(args[0]) if name == "GAME" and args and isinstance(args[0], dict) else None

    async def handle(self, message: tuple[str, tuple[Any, ...]]) -> None:
        name, args = message
        if name == "GAME":
            await self.seat.reply(codec.server_reply(args[0] if args else None))
        elif name == "ROOM":
            await self.room(args)
        elif name == "START":
            raise GameError("NotSupported", "a game here starts when every seat is taken and accepted; taking a "
                                            "seat with ROOM accepts, and the table's host seats house bots")
        else:
            raise GameError("UnknownMessageType", f"no event {name[:40]!r}: a client sends ROOM and GAME")

    async def refused_frame(self, refused: codec.ProtocolError | GameError, seq: int | None) -> None:
        await self.refused(refused.code, refused.reason, seq)

    async def room(self, args: tuple[Any, ...]) -> None:
        """``ROOM <game id>``: sit at that table. ``ROOM <game id> <uid>`` with one's own uid leaves
        a table being set up (majiang-server's way out of a room). A refusal that leaves the link
        at no table is ``ERROR`` (majiang-bot has nothing to do, and quits); one that leaves it at
        its table is ``REFUSED``."""
        if len(args) > 1 and args[1] is not None:
            if str(args[1]) != str(self.user.id):
                raise GameError("NotSupported", "only your own uid: the host removes players in the lobby")
            if self.seat.status != Status.SETUP or self.seat.game_id != _room_id(args[0]):
                raise GameError("NotAtTable", "ROOM <game id> <uid> leaves the table being set up you sit at")
            await self.seat.leave()
            return
        try:
            game_id = _room_id(args[0] if args else None)
            await self.seat.join(game_id)
        except GameError as refused:
            if refused.code == "AlreadyAtTable":
                raise
            reason = refused.reason
            if refused.code in ("UnknownGame", "InvalidRoom"):
                reason += ("; open a riichi table (the lobby, POST /api/games/ or /ws/majiang/) and pass its game "
                           "number: majiang-bot -r <game id>")
            await self.emit("ERROR", f"{refused.code}: {reason}")

    # -- the seat's Outlet: majiang-server's messages ---------------------------------------------

    async def started(self) -> None:
        await self.emit("START")

    async def frames(self, frames: list[dict[str, Any]], timer: list[int] | None) -> None:
        self.allowance.credit(len(frames))  # each is answered
        for frame in frames:
            await self.emit("GAME", codec.server_message(frame, timer))

    async def table(self, game_id: int, setup: dict[str, Any]) -> None:
        users = [{"uid": str(u["user"]), "name": u["username"], **({"bot": True} if u["bot"] else {})}
                 for u in sorted(setup["users"], key=lambda u: u["slot"])]
        await self.emit("ROOM", {"room_no": str(game_id), "user": users})

    async def ended(self, game_id: int, status: str, setting_up: bool) -> None:
        if setting_up:
            await self.emit("HELLO", _user(self.user))  # out of the room, as majiang-server says it
        elif status == Status.FINISHED:
            await self.emit("END", await db.call(gateway.final_paifu, game_id))
        else:
            await self.emit("END")

    async def refused(self, code: str, reason: str, seq: int | None) -> None:
        await self.emit("REFUSED", {"code": code, "reason": reason, "seq": seq})


@server.event
async def connect(sid: str, environ: dict[str, Any], auth: Any = None) -> None:
    # Created before anything awaits, so that every later event finds its session.
    session = links[sid] = Session(sid, environ)
    session.inbox.put_nowait(("connect", None))


@server.event
async def disconnect(sid: str, reason: Any = None) -> None:
    session = links.get(sid)
    if session is not None:
        session.inbox.put_nowait(("disconnect", None))


@server.on("*")
async def any_event(event: str, sid: str, *args: Any) -> None:
    session = links.get(sid)
    if session is not None:
        session.inbox.put_nowait(("event", (event, args)))
