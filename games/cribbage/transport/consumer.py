"""The CRIBBAGEBBER WebSocket gateway: one protocol line per text frame (docs/protocols/cribbage.md).

A thin transport: it authenticates, parses a line with the codec, calls the lobby or the game
service, and sends what the codec renders of the platform's pushes. It listens to the same pushes
as the JSON lobby consumer (the ``lobby`` group and the user's own group, where each seat gets its
own rendering of the game), so browser users and protocol clients share tables. Links at one table
also share a group of their own for the two notices the platform has no message for: an ejection
during a game and the control client's ``N:`` (everyone follows it to a new table).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any
from urllib.parse import parse_qs

from channels.auth import AuthMiddlewareStack

from games.core import db, limits
from games.core.errors import GameError
from games.core.registry import get_game_type
from games.cribbage.protocols import cribbagebber as codec
from games.cribbage.transport import gateway
from games.cribbage.transport.framing import Breach, frame_to_line
from games.models import Status
from games.service import door, presence, push
from games.transport.link import FatalError, LinkConsumer
from games.transport.origin import SameOriginValidator

# Three malformed lines in a row are no longer typing mistakes: the seed's "egregious breach".
MAX_MALFORMED = 3
INTRO, TABLE, CLOSED = "intro", "table", "closed"
NOT_CONTROL = {
    "NP": "only the control client sets the number of players and the variants",
    "EJ": "only the control client may eject a player",
    "N": "only the control client may go back to waiting",
}


# How a link whose log-in ended is told (accounts/sessions.py's codes): one ``E:`` word each.
ENDED_LINES = {"TokenRevoked": "REVOKED", "TokenExpired": "EXPIRED", "LoggedOut": "LOGGEDOUT",
               "SessionExpired": "EXPIRED"}


# How a link refused by its admission (games/transport/admission.py) is told: one ``E:`` word each; a byte
# flood is a breach (the Brute's line, after the warning that says why).
REFUSED_LINES = {"TooManyConnections": "TOOMANY", "LoginTimeout": "TIMEOUT"}


def table_group(game_id: int) -> str:
    return f"cribbagebber-{game_id}"


class CribbageConsumer(LinkConsumer):
    # A browser's session logs it in (application() lets cookies through only from our pages).
    allow_session = True
    FLOOD = "too many lines"
    # A refused line gets its warning and the link goes on, before IM too (the seed's way); a
    # platform's refusal of a command is said in handle(), in that command's terms.
    REFUSALS = (limits.RateLimited, codec.Malformed)
    FATAL_BEFORE_LOGIN = False
    game_id: int | None = None

    # -- the link ---------------------------------------------------------------------------------

    async def connect(self) -> None:
        self.stage = INTRO
        self.nickname = ""
        self.malformed = 0
        self.wanted: int | None = self.scope.get("url_route", {}).get("kwargs", {}).get("game_id")
        self._reset_table()
        await super().connect()
        # An API token in the query string; else the session of a browser whose Origin is one of
        # ours; else IM must carry a token.
        query = parse_qs(self.scope.get("query_string", b"").decode("latin1"))
        token = (query.get("token") or [""])[0]
        try:
            self.user = await self.authenticate_link({"token": token or None})
        except FatalError as refused:
            if refused.code == "RateLimited":
                await self.refuse_login(refused.reason)
                return
            self.user = None  # an unknown token, or no session: IM must carry a token
        try:
            await db.call(gateway.check_link, self.wanted, self.user)
        except gateway.Refused as refused:
            await self.part(codec.fatal(refused.reason))
            return
        await self.send_line(codec.protocol_line())

    def logged_in(self) -> bool:
        # Until IM: the link is introducing itself (its deadline: LOGIN_TIMEOUT_SECONDS, E:TIMEOUT).
        return getattr(self, "stage", INTRO) != INTRO

    async def refuse(self, code: str, reason: str) -> None:
        if getattr(self, "stage", None) is None:
            # Over the address cap, refused before connect() ran: nothing to leave.
            self.stage = CLOSED
            await self.send(text_data=codec.fatal(REFUSED_LINES[code]))
            await self.close()
            return
        if code == "RateLimited":
            await self.send_line(codec.warning("RATELIMITED", reason))
            await self.part(codec.BRUTE)
            return
        await self.part(codec.fatal(REFUSED_LINES[code]))

    def _reset_table(self) -> None:
        self.renderer: codec.SeatRenderer | None = None
        self.players: dict[int, str] = {}  # user id -> nickname of everyone at the table
        self.host: int | None = None
        self.setup_version = -1
        self.missing: int | None = None
        self.ready_version: int | None = None  # the setup version the last RE: asked about
        self.absent: set[int] = set()
        self.status = Status.SETUP

    async def refuse_login(self, reason: str) -> None:
        """Too many failed log-ins from this address: the warning says when to come back, and the
        link ends as any refused log-in does."""
        await self.send_line(codec.warning("RATELIMITED", reason))
        await self.part(codec.fatal("LOGIN"))

    async def send_line(self, line: str) -> None:
        if self.stage != CLOSED:
            await self.send(text_data=line)

    async def send_lines(self, lines: list[str]) -> None:
        for line in lines:
            await self.send_line(line)

    async def part(self, line: str) -> None:
        """Say a last line and disconnect, as though the client had quit."""
        await self.send_line(line)
        await self._leave()
        self.stage = CLOSED
        await self.close()

    async def cleanup(self) -> None:
        await self._leave()
        self.stage = CLOSED

    async def login_gone(self, code: str, reason: str) -> None:
        await self.part(codec.fatal(ENDED_LINES[code]))

    async def internal_error(self, message: dict[str, Any]) -> None:
        if message.get("type") == "websocket.receive":
            await self.send_line(codec.warning("INTERNAL", "the server could not handle that line; nothing changed"))

    async def _leave(self) -> None:
        if self.stage == CLOSED:
            return
        # Each step runs whatever the one before did: the presence row must go in every case.
        try:
            if self.stage == TABLE and self.game_id is not None and self.status == Status.SETUP:
                await db.call(gateway.leave_table, self.user, self.game_id)
        finally:
            # The table's group, the lobby's and the user's; the lobby hears of the quit, so links
            # at a game in progress see it.
            await self.end_link()

    # -- lines from the client ----------------------------------------------------------------------

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        if self.stage == CLOSED:
            return
        await self.take_frame(text_data if bytes_data is None else None)

    def read_frame(self, frame: str | None) -> codec.Command:
        try:
            line = frame_to_line(frame)
            try:
                command = codec.parse(line)
            except codec.Malformed:
                self.malformed += 1
                if self.malformed >= MAX_MALFORMED:
                    raise Breach("malformed lines") from None
                raise
        except Breach as breach:
            raise FatalError("Breach", breach.reason) from None
        self.malformed = 0
        return command

    async def fatal(self, code: str, reason: str) -> None:
        # The one refusal of a line that ends the link: an egregious breach.
        await self.part(codec.BRUTE)

    async def refused_frame(self, refused: limits.RateLimited | codec.Malformed, reply_to: None) -> None:
        if isinstance(refused, codec.Malformed):
            await self.send_line(codec.malformed(refused.reason))
        else:
            await self.send_line(codec.warning("RATELIMITED", refused.reason))

    async def login(self, command: codec.Command) -> None:
        if command.code == "QU":
            await self.part(codec.notice("QU", self.nickname))
            return
        if command.code != "IM":
            await self.send_line(codec.wrong_phase(codec.INTRODUCTORY))
            return
        await self.introduce(command)

    async def handle(self, command: codec.Command) -> None:
        if command.code == "QU":
            await self.part(codec.notice("QU", self.nickname))
            return
        handler = self.HANDLERS.get(command.code)
        if handler is None:  # IM again
            await self.send_line(codec.wrong_phase(await self._phase()))
            return
        try:
            await handler(self, command)
        except GameError as error:
            if error.code == "RateLimited":
                await self.send_line(codec.warning("RATELIMITED", error.reason))
            elif error.code == "NotHost":
                await self.send_line(codec.warning("NOTCONTROL", NOT_CONTROL.get(command.code, error.reason)))
            else:
                await self.send_line(codec.warning(codec.REFUSAL[command.code], error.reason))

    async def _call(self, function: Callable[..., Any], *args: Any) -> Any:
        return await db.call(function, *args)

    async def _state(self) -> gateway.TableState:
        return await self._call(gateway.table_state, self.game_id, self.user)

    async def _phase(self) -> str:
        return gateway.phase(await self._state())

    async def perform(self, command: codec.Command, decide: Callable[[gateway.TableState, str], gateway.Decision],
                      ) -> None:
        """A command checked against the link's phase and carried out in one database call."""
        line = await self._call(gateway.perform, self.game_id, self.user, codec.COMMAND_PHASES[command.code], decide)
        if line is not None:
            await self.send_line(line)

    # -- introductory phase -------------------------------------------------------------------------

    async def introduce(self, command: codec.Command) -> None:
        user = self.user
        if user is None:
            if not command.token:
                await self.part(codec.fatal("LOGIN"))
                return
            try:
                user = await self.authenticate_link({"token": command.token})
            except FatalError as refused:
                if refused.code == "RateLimited":
                    await self.refuse_login(refused.reason)
                else:
                    await self.part(codec.fatal("LOGIN"))
                return
        if command.nickname != user.username:
            # The nickname is the account's name: one name per player on every table and protocol.
            await self.send_line(codec.warning("BADNICK", f"you are logged in as {user.username}"))
            return
        self.nickname = user.username
        try:
            if await self.start_link(user) is None:
                return
        except GameError as error:  # TooManyConnections
            await self.part(codec.fatal("TOOMANY" if error.code == "TooManyConnections" else error.code))
            return
        try:
            game_id = await self._call(gateway.take_seat, user, self.wanted)
        except gateway.Refused as refused:
            await self.part(codec.fatal(refused.reason))
            return
        except GameError as error:
            await self.part(codec.fatal(error.code))
            return
        await self.sit(game_id)

    async def sit(self, game_id: int) -> None:
        """Take the link to ``game_id``: welcome, then the table's state or the game so far."""
        self.stage = TABLE
        self.game_id = game_id
        self._reset_table()
        await self.join_group(table_group(game_id))
        await self._call(presence.enter, self.client_id, game_id)
        await push.send_events(self.channel_layer, push.lobby_events(
            {"type": "ClientEnteredGame", "client": self.client_id, "game": game_id}))
        state = await self._state()
        self.players = dict(state.players)
        self.host = state.host
        self.status = state.status
        await self.send_line(codec.welcome(self.nickname, state.host == self.user.id))
        if state.status == Status.SETUP:
            await self.send_line(codec.setup_line(state.mode, state.rules))
            await self.render_setup(state.setup)
            return
        # A seat coming back: every line of the game so far, as this seat may see them.
        await self.follow_game(start=0)
        self.absent = set(state.absent)
        await self.send_lines([codec.notice("QU", self.players[u]) for u in sorted(self.absent)])

    # -- waiting phase ------------------------------------------------------------------------------

    async def render_setup(self, setup: dict[str, Any]) -> None:
        self.setup_version = setup["version"]
        self.players.update({u["user"]: u["username"] for u in setup["users"]})
        if setup["host"] != self.host:
            self.host = setup["host"]
            await self.send_line(codec.welcome(self.players.get(self.host, "?"), True))
        seats = get_game_type(gateway.GAME_TYPE).mode(setup["mode"]).seats
        missing = seats - len(setup["users"])
        if missing != self.missing:
            self.missing = missing
            await self.send_line(codec.waiting(missing))
        mine = next((u for u in setup["users"] if u["user"] == self.user.id), None)
        if missing == 0 and mine is not None and not mine["accepted"] and self.ready_version != setup["version"]:
            self.ready_version = setup["version"]
            await self.send_line(codec.READY)

    async def np(self, command: codec.Command) -> None:
        try:
            rules = codec.rules_for(command.variants)
        except ValueError as error:
            await self.send_line(codec.warning("BADNP", str(error)))
            return
        user, game_id = self.user, self.game_id
        changed: list[bool] = []
        await self.perform(command, lambda state, phase: lambda: changed.append(
            gateway.configure(user, game_id, command.players, rules)))
        if changed == [False]:
            # Nothing changed, so nothing is pushed: the control client still hears its setting.
            await self.send_line(codec.setup_line(command.players, rules))

    async def ye(self, command: codec.Command) -> None:
        user, game_id, version = self.user, self.game_id, self.ready_version

        def decide(state: gateway.TableState, phase: str) -> gateway.Decision:
            if phase == codec.MUGGINS:
                return "vote", [True]
            if version is None or state.setup is None or version != state.setup["version"]:
                return codec.warning("BADREADY", "wait for RE: (every seat taken)")
            # The platform's accept of the setup RE: asked about (a changed setup asks again).
            return lambda: door.accept(user, game_id, version)

        try:
            await self.perform(command, decide)
        except GameError as error:
            await self.send_line(codec.warning("BADVOTE" if self.status == Status.ACTIVE else "BADREADY", error.reason))

    # -- the game -----------------------------------------------------------------------------------

    def _cards(self, command: codec.Command) -> list[str]:
        return codec.engine_cards(command.cards, self.renderer.dealt if self.renderer else [])

    async def cr(self, command: codec.Command) -> None:
        def decide(state: gateway.TableState, phase: str) -> gateway.Decision:
            try:
                return "discard", self._cards(command)
            except ValueError as error:
                return codec.warning("BADCRIB", str(error))

        await self.perform(command, decide)

    async def pl(self, command: codec.Command) -> None:
        def decide(state: gateway.TableState, phase: str) -> gateway.Decision:
            try:
                card = self._cards(command)[0]
            except ValueError as error:
                return codec.warning("BADPLAY", str(error))
            # In manual counting the player claims what the card pegs (nothing said: nothing);
            # in automatic counting the server counts and a claim is ignored.
            manual = (state.rules or {}).get("counting") == "manual"
            return "play", [card, command.points or 0] if manual else [card]

        await self.perform(command, decide)

    async def mu(self, command: codec.Command) -> None:
        def decide(state: gateway.TableState, phase: str) -> gateway.Decision:
            if command.nickname is not None:
                claim = (state.view or {}).get("claim") or {}
                if not claim or state.nicknames.get(claim.get("seat")) != command.nickname:
                    return codec.warning("BADMUGGINS", f"there is no open claim by {command.nickname}")
            return "muggins", [command.points]

        await self.perform(command, decide)

    async def cn(self, command: codec.Command) -> None:
        await self.perform(command, lambda state, phase: ("count", [command.points]))

    async def ag(self, command: codec.Command) -> None:
        await self.perform(command, lambda state, phase: ("agree", []))

    async def no(self, command: codec.Command) -> None:
        await self.perform(command, lambda state, phase: ("vote", [False]))

    async def pa(self, command: codec.Command) -> None:
        await self.perform(command, lambda state, phase: ("pause", []))

    async def up(self, command: codec.Command) -> None:
        await self.perform(command, lambda state, phase: ("unpause", []))

    # -- any phase ----------------------------------------------------------------------------------

    async def me(self, command: codec.Command) -> None:
        text = command.text or ""
        if len(text) > codec.MAX_CHAT:
            await self.send_line(codec.warning("BADMSG", f"at most {codec.MAX_CHAT} characters"))
            return
        await self._call(door.post_chat, self.user, self.game_id, text)

    async def ej(self, command: codec.Command) -> None:
        user_id, forfeited = await self._call(gateway.eject, self.user, self.game_id, command.nickname)
        if forfeited:
            # The platform announces the forfeit; the links at the table also hear who did it.
            await self.channel_layer.group_send(table_group(self.game_id), {
                "type": "cribbage.ejected", "user": user_id, "line": codec.notice("EJ", command.nickname),
            })

    async def n(self, command: codec.Command) -> None:
        phase = await self._phase()
        if phase not in (codec.PAUSED, codec.ENDGAME):
            await self.send_line(codec.wrong_phase(phase))
            return
        await self._call(gateway.may_restart, self.user, self.game_id)
        old = self.game_id
        new = await self._call(gateway.restart, self.user, old)
        # The links at the old table move first, so none of them reads the abort as its end.
        await self.channel_layer.group_send(table_group(old), {
            "type": "cribbage.follow", "game": new, "user": self.user.id, "nickname": self.nickname,
        })
        await self._call(gateway.abort_if_running, old)
        await self.move_to(new, self.nickname)

    async def move_to(self, game_id: int, control: str) -> None:
        await self.leave_group(table_group(self.game_id))
        await self.send_line(codec.notice("N", control))
        await self.sit(game_id)

    HANDLERS: dict[str, Callable[[CribbageConsumer, codec.Command], Awaitable[None]]] = {
        "NP": np, "YE": ye, "NO": no, "CR": cr, "PL": pl, "CN": cn, "AG": ag, "MU": mu, "PA": pa, "UP": up,
        "ME": me, "EJ": ej, "N": n,
    }

    # -- pushes from the platform -------------------------------------------------------------------

    async def push_message(self, event: dict[str, Any]) -> None:
        if self.stage != TABLE or not self.wants(event):
            return
        message = push.message_of(event)
        kind = message.get("type")
        if kind in ("ClientConnected", "ClientDisconnected"):
            await self.presence_changed()
            return
        if message.get("game") != self.game_id:
            return
        if "setup" in message:
            await self.setup_changed(message)
        elif kind == "GameStarted":
            self.status = Status.ACTIVE
            if self.renderer is None:  # the game's first messages may have come first (other group)
                await self.follow_game(start=None)
        elif kind == "GameMessages":
            await self.game_messages(message)
        elif kind == "PlayerForfeited":
            await self.send_line(codec.notice("FF", self.players.get(message["user"], "?")))
        elif kind == "GameInactive":
            self.status = message.get("status", Status.FINISHED)
            if self.status == Status.ABORTED:
                await self.part(codec.fatal("ABORTED"))
        elif kind == "Chat":
            await self.send_line(codec.chat(message["username"], message["text"]))

    async def setup_changed(self, message: dict[str, Any]) -> None:
        setup = message["setup"]
        kind = message["type"]
        if kind == "SetupAccepted":
            # Accepting leaves the version as it is; the accept itself is news to everyone.
            await self.send_line(codec.notice("YE", self.players.get(message["user"], "?")))
            if setup["version"] >= self.setup_version:
                await self.render_setup(setup)
            return
        if setup["version"] <= self.setup_version:
            return  # already rendered from the table's state
        user_id = message.get("user")
        if kind == "UserJoinedGame" and user_id != self.user.id:
            self.players[user_id] = message.get("username", "?")
            await self.send_line(codec.welcome(self.players[user_id], False))
        elif kind == "UserLeftGame":
            line = codec.notice("EJ" if message.get("kicked") else "QU", self.players.get(user_id, "?"))
            if user_id == self.user.id:
                self.status = Status.ABORTED  # nothing left to leave
                await self.part(line)
                return
            await self.send_line(line)
        elif kind == "GameModeChanged":
            state = await self._state()
            await self.send_line(codec.setup_line(state.mode, state.rules))
        await self.render_setup(setup)

    async def follow_game(self, start: int | None) -> None:
        info = await self._call(gateway.game_info, self.game_id, self.user, start)
        if info is None:
            return
        self.players.update(zip(info.user_ids, info.nicknames))
        self.renderer = codec.SeatRenderer(info.seat, info.nicknames, info.mode, info.manual)
        await self.send_lines(self.renderer.feed(info.messages))

    async def game_messages(self, message: dict[str, Any]) -> None:
        if self.renderer is None:
            await self.follow_game(start=0)
            return
        start, messages = message["start"], message["messages"]
        if start > self.renderer.size:
            # A push went missing (the channel layer is not durable): fetch from the log instead.
            info = await self._call(gateway.game_info, self.game_id, self.user, self.renderer.size)
            messages = info.messages if info else []
        else:
            messages = messages[self.renderer.size - start:]
        await self.send_lines(self.renderer.feed(messages))

    async def presence_changed(self) -> None:
        if self.status != Status.ACTIVE or self.renderer is None:
            return
        absent = await self._call(gateway.absent_players, self.game_id)
        lines = [codec.notice("QU", self.players.get(u, "?")) for u in sorted(absent - self.absent)]
        lines += [codec.welcome(self.players.get(u, "?"), u == self.host) for u in sorted(self.absent - absent)]
        self.absent = absent
        await self.send_lines(lines)

    async def cribbage_ejected(self, event: dict[str, Any]) -> None:
        if self.stage != TABLE:
            return
        if event["user"] == self.user.id:
            await self.part(event["line"])
        else:
            await self.send_line(event["line"])

    async def cribbage_follow(self, event: dict[str, Any]) -> None:
        if self.stage != TABLE or event["user"] == self.user.id:
            return
        try:
            await self._call(gateway.join_table, self.user, event["game"])
        except GameError as error:
            await self.part(codec.fatal(error.code))
            return
        await self.move_to(event["game"], event["nickname"])


def application() -> Callable[..., Awaitable[None]]:
    """The ASGI app for the gateway's routes. A browser (it always sends Origin) must come from a
    page of this site (games/transport/origin.py), and then its session logs it in; a program
    sends no Origin and no cookie is trusted: it authenticates with an API token. So no foreign
    page can ride on a session."""
    consumer = CribbageConsumer.as_asgi()
    browser = SameOriginValidator(AuthMiddlewareStack(consumer))

    async def app(scope: dict[str, Any], receive: Callable[..., Any], send: Callable[..., Any]) -> None:
        if any(name == b"origin" for name, _ in scope.get("headers", [])):
            return await browser(scope, receive, send)
        return await consumer(scope, receive, send)

    return app
