"""A link lasts no longer than its log-in (accounts/sessions.py, games/transport/guard.py), a table nobody
sits at is closed (games/service/orphans.py), mmj refuses a log-in naming a game the user cannot have
before ``mmj1s``, and a REST-only player resumes an adjourned game.

Everything runs on the full ASGI application (Channels communicators, socket.io's own WebSocket
transport, a real TCP listener for CRIBBAGEBBER) on the test's loop.
"""

from __future__ import annotations

import asyncio
import json
import time
from datetime import timedelta

import pytest
from channels.testing import WebsocketCommunicator
from django.test import Client as HttpClient
from django.utils import timezone

from accounts import sessions
from accounts.models import ApiToken
from accounts.tokens import create_token, revoke
from games.models import Client, Game, Status
from games.riichi.protocols import mmj
from games.riichi.transport import majiang_server
from games.service import abandon, lobby, orphans, presence, sweeper
from tests.cribbage.transport.test_tcp import TcpLink
from tests.service.test_abandoned_games import ADJOURN_S, next_move, status_of, untimed_game_played_then_left

pytestmark = pytest.mark.django_db(transaction=True)


async def until(condition, timeout: float = 10) -> None:
    deadline = time.monotonic() + timeout
    while not await condition():
        assert time.monotonic() < deadline, "timed out"
        await asyncio.sleep(0.05)


def browser_cookie(user) -> tuple[HttpClient, tuple[bytes, bytes]]:
    """A browser logged in to the site: its test client and the Cookie header of its session."""
    http = HttpClient()
    http.force_login(user)
    return http, (b"cookie", f"sessionid={http.cookies['sessionid'].value}".encode())


BROWSER = [(b"host", b"testserver"), (b"origin", b"http://testserver")]


async def session_login(clients, cookie):
    """``/ws/lobby/`` logged in by the browser's session alone (a Login with no credentials)."""
    client = await clients(path="/ws/lobby/", headers=[cookie, *BROWSER])
    await client.connect()
    await client.send({"type": "Login", "version": 1})
    return client


async def closed_with(client, code: str) -> None:
    message = await client.expect("FatalError")
    assert message["code"] == code and message["reason"], message
    assert await client.comm.receive_output(timeout=5) == {"type": "websocket.close", "code": 4000}


async def still_open(client) -> None:
    await client.send({"type": "NoSuchRequest", "ref": "alive"})
    assert (await client.expect("Error", ref="alive"))["code"] == "UnknownMessageType"


# -- 1. a site log-out closes that session's sockets -----------------------------------------------


async def test_logging_out_closes_the_sessions_lobby_sockets_and_no_others(clients, db_call, make_user):
    alice = await db_call(make_user, "alice")
    tab, cookie = await db_call(browser_cookie, alice)
    _, other_cookie = await db_call(browser_cookie, alice)  # another browser of hers
    first, second = await session_login(clients, cookie), await session_login(clients, cookie)
    other = await session_login(clients, other_cookie)
    by_password = await clients(alice)
    for client in (first, second, other):
        await client.expect("Greetings")

    response = await db_call(tab.post, "/accounts/logout/")
    assert response.status_code in (200, 302)

    await closed_with(first, "LoggedOut")
    await closed_with(second, "LoggedOut")
    await still_open(other)
    await still_open(by_password)

    async def two_left() -> bool:
        return await db_call(Client.objects.filter(user=alice).count) == 2

    await until(two_left)
    # The logged-out cookie logs in no more.
    late = await session_login(clients, cookie)
    assert (await late.expect("FatalError"))["code"] == "MissingPassword"


async def test_a_log_out_during_log_in_is_not_missed(clients, db_call, make_user, monkeypatch):
    alice = await db_call(make_user, "alice")
    _, cookie = await db_call(browser_cookie, alice)
    key = cookie[1].decode().partition("=")[2]
    connect = presence.connect

    def connect_after_log_out(user, *args):
        sessions.end_session(user.id, key)  # after the session's check, before the group join
        return connect(user, *args)

    monkeypatch.setattr(presence, "connect", connect_after_log_out)
    await closed_with(await session_login(clients, cookie), "LoggedOut")


# -- 4. an expired token's links close on every transport -------------------------------------------


async def expires_in(token_id: int, seconds: float, db_call) -> None:
    until_ = timezone.now() + timedelta(seconds=seconds)
    await db_call(lambda: ApiToken.objects.filter(pk=token_id).update(expires=until_))


async def line_link(path: str) -> WebsocketCommunicator:
    from config.asgi import application

    link = WebsocketCommunicator(application, path)
    connected, _ = await link.connect()
    assert connected
    return link


async def until_line(link: WebsocketCommunicator, says: str, timeout: float = 10) -> str:
    while True:
        text = await link.receive_from(timeout=timeout)
        if says in text:
            return text


async def closed(link: WebsocketCommunicator) -> None:
    while True:
        output = await link.receive_output(timeout=5)
        if output["type"] == "websocket.close":
            return


async def test_an_expiring_token_closes_its_links_on_every_transport_at_its_expiry(
        clients, db_call, make_user, tcp_server):
    alice = await db_call(make_user, "alice")
    token, key = await db_call(create_token, alice, "expiring")
    _, kept_key = await db_call(create_token, alice, "kept")
    await expires_in(token.id, 4, db_call)
    started = time.monotonic()

    bot = await clients()
    await bot.connect()
    await bot.send({"type": "Login", "version": 1, "token": key})
    await bot.expect("Greetings")
    kept = await clients()
    await kept.connect()
    await kept.send({"type": "Login", "version": 1, "token": kept_key})
    await kept.expect("Greetings")
    tcp = TcpLink(tcp_server.port, name="alice")
    await tcp.connect()
    assert await tcp.expect("P:") == "P:0.1/DNM"
    await tcp.send(f"IM:alice/{key}")
    assert await tcp.expect("CO:") == "CO:alice"
    majiang = await line_link(f"/ws/majiang/?token={key}")
    assert json.loads(await majiang.receive_from())["type"] == "welcome"
    ump = await line_link("/ws/ump/")
    serial = (await ump.receive_from()).split()[0]
    await ump.send_to(text_data=f"{serial} hello ump=1 user=alice password={key}")
    mmj_link = await line_link("/ws/mmj/")
    await mmj_link.send_to(text_data=mmj.encode(mmj.ClientHello(f"alice/{key}".encode())).decode().rstrip("\n"))
    assert await mmj_link.receive_from() == "mmj1s"
    sio = await SioLink.open(await db_call(majiang_server.cookie_value, token))
    assert (await sio.event("HELLO"))[0]["name"] == "alice"
    assert time.monotonic() - started < 4, "logging in took longer than the token lasts: the test says nothing"

    await closed_with(bot, "TokenExpired")
    assert time.monotonic() - started >= 3.5  # at its expiry, not before
    try:
        assert await tcp.expect("E:") == "E:EXPIRED"
        await tcp.wait_closed()
    finally:
        await tcp.close()
    frame = json.loads(await until_line(majiang, "TokenExpired"))
    assert frame["type"] == "error" and frame["code"] == "TokenExpired"
    await closed(majiang)
    assert "error TokenExpired" in await until_line(ump, "TokenExpired")
    await closed(ump)
    assert (await until_line(mmj_link, "TokenExpired")).startswith("reject ")
    await closed(mmj_link)
    assert (await sio.event("ERROR"))[0].startswith("TokenExpired: ")
    await sio.hung_up()
    await still_open(kept)

    async def one_left() -> bool:
        return await db_call(Client.objects.filter(user=alice).count) == 1

    await until(one_left)


# -- 2, 3. socket.io: log-out ends the cookie; an error ends the transport too ------------------------


class SioLink:
    """majiang-server's socket.io over its own WebSocket transport (Engine.IO 4), raw packets."""

    def __init__(self, link: WebsocketCommunicator) -> None:
        self.link = link

    @classmethod
    async def open(cls, cookie: str) -> SioLink:
        from config.asgi import application

        link = WebsocketCommunicator(application, f"{majiang_server.SOCKETIO_PATH}?EIO=4&transport=websocket",
                                     headers=[(b"cookie", f"{majiang_server.COOKIE}={cookie}".encode()),
                                              (b"upgrade", b"websocket"), (b"connection", b"Upgrade")])
        connected, _ = await link.connect()
        assert connected
        self = cls(link)
        assert (await self.packet()).startswith("0{")  # Engine.IO's open
        await link.send_to(text_data="40")  # socket.io's connect to "/"
        assert (await self.packet()).startswith("40")
        return self

    async def packet(self) -> str | None:
        """The next text packet; None when the server closed the WebSocket. (python-engineio
        sends ``bytes: None`` beside the text, which the communicator's receive_from refuses.)"""
        output = await self.link.receive_output(timeout=10)
        if output["type"] == "websocket.close":
            return None
        assert output["type"] == "websocket.send", output
        return output.get("text") or output.get("bytes").decode()

    async def event(self, name: str) -> list:
        while True:
            packet = await self.packet()
            assert packet is not None, f"closed before {name}"
            if packet.startswith("42"):
                event, *args = json.loads(packet[2:])
                if event == name:
                    return args
            assert packet != "41", f"disconnected before {name}"

    async def hung_up(self) -> None:
        """socket.io's disconnect ("41"), then the WebSocket itself closed by the server."""
        while (packet := await self.packet()) != "41":
            assert packet is not None and not packet.startswith("42"), packet
        while (packet := await self.packet()) is not None:
            assert packet in ("1", "2", "3", "6"), packet  # Engine.IO: close, pings, noops
        # As Daphne does once the server has closed a WebSocket: the application hears the
        # disconnect and ends (a communicator sends nothing by itself, and an application still
        # waiting would only be cancelled when the test's event loop closes).
        await self.link.disconnect()


async def test_a_revocation_disconnects_the_socketio_transport_too(db_call, make_user):
    alice = await db_call(make_user, "alice")
    token, _ = await db_call(create_token, alice)
    sio = await SioLink.open(await db_call(majiang_server.cookie_value, token))
    await sio.event("HELLO")
    await db_call(revoke, alice, token.id)
    assert (await sio.event("ERROR"))[0].startswith("TokenRevoked: ")
    await sio.hung_up()


async def test_majiang_log_out_ends_the_cookie_and_closes_its_links(db_call, make_user):
    alice = await db_call(make_user, "alice")
    token, key = await db_call(create_token, alice)
    http = HttpClient()
    response = await db_call(http.post, "/majiang/auth/", {"name": f"alice:{key}", "passwd": "*"})
    cookie = response.cookies[majiang_server.COOKIE].value
    other = await db_call(majiang_server.cookie_value, token)  # another log-in with the same token
    sio, kept = await SioLink.open(cookie), await SioLink.open(other)
    await sio.event("HELLO")
    await kept.event("HELLO")

    # The client logs out but keeps its socket (majiang-bot does so at the end of each game).
    response = await db_call(lambda: HttpClient().post("/majiang/logout",
                                                       HTTP_COOKIE=f"{majiang_server.COOKIE}={cookie}"))
    assert response.status_code == 204
    await sio.hung_up()
    # A kept copy of the cookie logs in no more; the other log-in goes on.
    again = await SioLink.open(cookie)
    assert await again.event("HELLO") == [None]
    assert (await again.event("ERROR"))[0].startswith("NotLoggedIn: ")
    await again.hung_up()
    await kept.link.send_to(text_data='42["NOSUCH"]')
    assert (await kept.event("REFUSED"))[0]["code"] == "UnknownMessageType"
    await kept.link.disconnect()


# -- 5. a table being set up that no person sits at is closed -----------------------------------------


@pytest.fixture
def orphan_watch(settings):
    settings.ABANDON_CHECK_SECONDS = 0.1
    settings.ORPHAN_TABLE_GRACE_SECONDS = 1
    orphans.forget()
    stop = asyncio.Event()
    task = asyncio.ensure_future(sweeper.watch_abandoned(stop))
    yield
    stop.set()
    task.cancel()
    orphans.forget()


async def test_a_table_left_to_its_house_bots_is_closed_after_the_grace(clients, db_call, make_user, orphan_watch):
    alice, bob, carol = [await db_call(make_user, name) for name in ("alice", "bob", "carol")]
    watcher = await clients(bob)
    a = await clients(alice)
    await a.send({"type": "CreateGame", "game_type": "acquire", "mode": 4})
    left = (await a.expect("GameCreated"))["game"]
    await a.send({"type": "AddBot", "game": left})
    await a.expect("UserJoinedGame", game=left)
    await a.send({"type": "CreateGame", "game_type": "acquire", "mode": 4})
    kept = (await a.expect("GameCreated"))["game"]
    await a.send({"type": "AddBot", "game": kept})
    await a.expect("UserJoinedGame", game=kept)
    bots = await db_call(lambda: list(Game.objects.get(id=left).seats.filter(user__is_bot=True)
                                      .values_list("user_id", flat=True)))
    dropped = time.monotonic()
    await a.send({"type": "LeaveGame", "game": left})
    await a.send({"type": "LeaveGame", "game": kept})
    await until(lambda: asyncio.sleep(0, kept in orphans._seen_since))  # the watch found it without a person
    await db_call(lobby.join, carol, kept)  # a person sits down during the grace

    # The lobby hears the abandoned table close as any closed table: its bots leave, it goes inactive.
    await watcher.expect("UserLeftGame", game=left, user=bots[0])
    await watcher.expect("GameInactive", game=left)
    assert time.monotonic() - dropped >= 0.9  # after the grace, not at once
    assert (await db_call(lambda: Game.objects.get(id=left).status)) == Status.ABORTED
    assert not await db_call(lambda: Game.objects.get(id=left).seats.exists())
    await asyncio.sleep(1.5)  # past the grace: the table carol sat down at is still there
    assert (await db_call(lambda: Game.objects.get(id=kept).status)) == Status.SETUP
    fresh = await clients(carol)
    listed = {g["game"] for g in fresh.received[0]["games_being_set_up"]}
    assert kept in listed and left not in listed  # the closed table no longer weighs on every Greetings


# -- 6. mmj refuses a log-in naming a game the user cannot have, before mmj1s --------------------------


async def test_mmj_refuses_a_game_not_the_users_before_mmj1s(db_call, make_user):
    alice, bob = await db_call(make_user, "alice"), await db_call(make_user, "bob")
    key = (await db_call(create_token, alice))[1]
    game_id = await db_call(lambda: _riichi_game_of(bob))
    for name, says in ((f"alice/{key}/{game_id}", "NotInGame"), (f"alice/{key}/999999", "UnknownGame")):
        link = await line_link("/ws/mmj/")
        await link.send_to(text_data=mmj.encode(mmj.ClientHello(name.encode())).decode().rstrip("\n"))
        answer = await link.receive_from()
        assert answer.startswith("reject ") and says in answer, answer  # no mmj1s before it
        await closed(link)
        await link.disconnect()  # as the server delivers it after the close

    async def nobody_left() -> bool:
        return not await db_call(Client.objects.filter(user=alice).exists)

    await until(nobody_left)


def _riichi_game_of(user) -> int:
    """A riichi game in progress with ``user`` and three house bots."""
    game = lobby.create_table(user, "riichi", 4)
    for _ in range(3):
        lobby.add_bot(user, game.id)
    lobby.accept(user, game.id)
    assert Game.objects.get(id=game.id).status == Status.ACTIVE
    return game.id


# -- 7. a REST-only player resumes an adjourned game -------------------------------------------------


@pytest.fixture
def _limits(settings):
    settings.ADJOURN_AFTER_SECONDS = ADJOURN_S


async def test_a_rest_only_player_resumes_an_adjourned_game(clients, db_call, make_user, clock, _limits):
    users, game_id, seq = await untimed_game_played_then_left(clients, db_call, make_user)
    await db_call(abandon.watch, clock.now())
    await db_call(abandon.watch, clock.now() + ADJOURN_S * 1000)
    assert (await db_call(status_of, game_id))[0] == Status.ADJOURNED
    stranger = await db_call(make_user, "stranger")

    def rest(user, path: str, body: dict | None = None):
        key = create_token(user)[1]
        return HttpClient().post(f"/api/games/{game_id}/{path}", body or {}, content_type="application/json",
                                 HTTP_AUTHORIZATION=f"Token {key}")

    refused = await db_call(rest, stranger, "resume/")
    assert refused.status_code == 403 and refused.json()["code"] == "NotInGame"
    assert (await db_call(status_of, game_id))[0] == Status.ADJOURNED

    # A move by the player the game waits for, over REST and nothing else: the game goes on with it.
    seat, action, params = await db_call(next_move, game_id)
    moved = await db_call(rest, users[seat], "moves/", {"seat": seat, "action": action, "params": params})
    assert moved.status_code == 200, moved.json()
    assert (await db_call(status_of, game_id))[0] == Status.ACTIVE

    # Adjourned again, and an explicit resume by the other player (whose turn it may not be).
    await db_call(lambda: Game.objects.filter(id=game_id).update(status=Status.ADJOURNED,
                                                                  absent_since_ms=clock.now()))
    resumed = await db_call(rest, users[1 - seat], "resume/")
    assert resumed.status_code == 200 and resumed.json()["status"] == "active"
    assert (await db_call(status_of, game_id))[0] == Status.ACTIVE
