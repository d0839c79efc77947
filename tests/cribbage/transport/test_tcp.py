"""CRIBBAGEBBER over raw TCP (games/cribbage/transport/tcp.py): each connection is bridged to the ASGI
application as a WebSocket link, so the consumer the WebSocket tests exercise plays here too.

In process: a whole game between two TCP clients, the byte-level breaches only a stream can
commit, and a malformed line. Then ``manage.py serve`` (what ``make run`` starts) in a child
process: one TCP client, one WebSocket client and an HTTP GET, all on that one process."""

from __future__ import annotations

import asyncio
import json
import re
import socket
import urllib.request

import pytest
from channels.db import database_sync_to_async
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect as ws_connect

from accounts.tokens import token_for
from games.cribbage.protocols.cribbagebber import BRUTE
from games.cribbage.transport.framing import MAX_LINE_BYTES
from games.models import Seat
from tests.cribbage.transport.conftest import Driver, Truth, check_lines, codes, open_table
from tests.cribbage.transport.peer import LineClient, split
from tests.served import serve


class TcpLink(LineClient):
    """A CRIBBAGEBBER client on a TCP stream: ``\\n``-terminated lines. Same interface as the
    WebSocket ``LineClient`` (``send``, ``recv``, ``expect``, ``lines``...), so the drivers and
    checks of conftest.py work unchanged."""

    def __init__(self, port: int, name: str = "") -> None:  # no WebSocket to build: not super()'s
        self.port = port
        self.lines: list[str] = []
        self.transcript: list[str] = []
        self.name = name
        self.closed = False
        self._read = 0
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def connect(self) -> None:
        self.reader, self.writer = await asyncio.open_connection("127.0.0.1", self.port)

    async def write(self, data: bytes) -> None:
        """Raw bytes, for what no well-behaved client sends."""
        self.writer.write(data)
        await self.writer.drain()

    async def send(self, line: str) -> None:
        self.transcript.append(f"C: {line}")
        await self.write(line.encode("utf-8") + b"\n")

    async def recv(self, timeout: float = 10) -> str:
        raw = await asyncio.wait_for(self.reader.readline(), timeout)
        if not raw:
            self.closed = True
            raise ConnectionError(f"{self.name}: closed")
        # One server line per \n, never a \r or a NUL in it.
        assert raw.endswith(b"\n") and b"\r" not in raw and b"\x00" not in raw, raw
        line = raw[:-1].decode("utf-8")
        self.lines.append(line)
        self.transcript.append(f"S: {line}")
        return line

    async def drain(self, timeout: float = 0.1) -> list[str]:
        out = []
        while not self.closed:
            try:
                out.append(await self.recv(timeout))
            except (TimeoutError, ConnectionError):
                break
        return out

    async def close(self) -> None:
        if self.writer is not None and not self.writer.is_closing():
            self.writer.close()
            try:
                await self.writer.wait_closed()
            except ConnectionError:
                pass
        self.closed = True

    def __repr__(self) -> str:
        return f"<TcpLink {self.name}>"


@pytest.fixture
async def tcp_links(tcp_server):
    """Like conftest's ``links``, over TCP: the token rides in ``IM:<nickname>/<token>``."""
    opened: list[TcpLink] = []

    async def open_link(user, game_id: int | None = None, *, im: bool = True, token: bool = True) -> TcpLink:
        # The port is the one address /ws/cribbage/: with a fresh database the table being set up
        # (game_id) is the oldest with a free seat, so every joiner lands there (the tests check).
        key = await database_sync_to_async(token_for)(user) if token else None
        link = TcpLink(tcp_server.port, name=user.username)
        opened.append(link)
        await link.connect()
        if im:
            assert await link.expect("P:") == "P:0.1/DNM"
            await link.send(f"IM:{user.username}/{key}" if key else f"IM:{user.username}")
        return link

    yield open_link
    for link in opened:
        await link.close()


pytestmark = pytest.mark.django_db(transaction=True)


async def test_whole_game_between_two_tcp_clients(tcp_links, make_user):
    table, game_id = await open_table(tcp_links, make_user, 2)
    truth = await database_sync_to_async(Truth)(game_id)
    assert sorted(truth.names.values()) == ["ann", "bob"]
    await Driver(truth, table).play()
    for seat, name in truth.names.items():
        link = next(x for x in table if x.name == name)
        check_lines(truth, link, seat)  # no line names a card the seat may not see
        eg = split(link.last("EG:"))[1]
        assert eg[0] == truth.names[truth.engine.result()["winner"]]
        assert [int(x) for x in eg[3:]] == truth.engine.result()["scores"]
    assert {"SE", "DI", "UD", "TO", "AC", "PL", "H", "CN", "SC", "EG"} <= codes(table)
    assert not any(line.startswith(("WA:", "E:")) for link in table for line in link.lines)


@pytest.mark.parametrize("payload", [
    b"ME:hello\x00world\n",  # the seed's NUL: never data
    b"ME:\xff\xfe\n",  # not UTF-8
    b"ME:" + b"x" * MAX_LINE_BYTES,  # over the limit, and no end of line in sight
], ids=["nul", "not-utf8", "over-long"])
async def test_byte_level_breach_is_a_brute(tcp_links, make_user, payload):
    ann = await database_sync_to_async(make_user)("ann")
    link = await tcp_links(ann)
    assert await link.expect("CO:") == "CO:ann"
    await link.write(payload)
    assert await link.expect("E:") == BRUTE
    await link.wait_closed()
    assert link.lines[-1] == BRUTE
    # The consumer's own breach path ran: the link was the seat, so ann left the table.
    seated = Seat.objects.filter(user=ann, game__status="setup").exists
    assert not await database_sync_to_async(seated)()


async def test_malformed_line_is_a_warning_and_the_link_stays(tcp_links, make_user):
    ann = await database_sync_to_async(make_user)("ann")
    link = await tcp_links(ann)
    assert await link.expect("CO:") == "CO:ann"
    await link.write(b"HELLO THERE\r\n")
    assert (await link.expect("WA:")).startswith("WA:BADCMD(")
    # Still open; a line split across writes and ending in \r\n is one line.
    await link.write(b"NP:2/")
    await asyncio.sleep(0.05)
    await link.write(b"N\r\n")
    assert await link.expect("NP:") == "NP:2/N"
    await link.send("QU:")
    assert await link.expect("QU:") == "QU:ann"
    await link.wait_closed()


async def test_no_token_no_login(tcp_links, make_user):
    # No cookie can ride on a TCP link: without a token the server cannot know the user.
    ann = await database_sync_to_async(make_user)("ann")
    link = await tcp_links(ann, token=False)
    assert await link.expect("E:") == "E:LOGIN"
    await link.wait_closed()


# -- manage.py serve, as `make run` starts it -----------------------------------------------------

SETUP_DATABASE = """
import django
django.setup()
from django.core.management import call_command
from accounts.models import User
from accounts.tokens import token_for
call_command("migrate", verbosity=0)
for name in ("tcpbot", "wsbot"):
    print(token_for(User.objects.create_user(username=name, password=None)))
"""


def read_until(stream, line: bytes) -> list[bytes]:
    seen = []
    while (raw := stream.readline()) != line:
        assert raw, (seen, line)
        seen.append(raw)
    return seen


@pytest.mark.own_server  # its server is a child on the embedded default (tests/served.py)
def test_manage_py_serve_answers_http_websocket_and_tcp(tmp_path):
    # One process serves every transport: HTTP, WebSockets, CRIBBAGEBBER, UMP and mmj over TCP.
    with serve(tmp_path, SETUP_DATABASE, ump=True, mmj=True) as served:
        tcp_token, ws_token = served.setup_output.split()[-2:]
        http_port, tcp_port = served.http_port, served.tcp_port
        with socket.create_connection(("127.0.0.1", tcp_port), timeout=10) as tcp, tcp.makefile("rb") as lines:
            assert lines.readline() == b"P:0.1/DNM\n"
            tcp.sendall(f"IM:tcpbot/{tcp_token}\n".encode())
            assert lines.readline() == b"CO:tcpbot\n"
            # A WebSocket client on the HTTP port joins the TCP client's table: one process, one
            # channel layer, so each hears of the other.
            with ws_connect(f"ws://127.0.0.1:{http_port}/ws/cribbage/?token={ws_token}", open_timeout=10) as ws:
                assert ws.recv(timeout=10) == "P:0.1/DNM"
                ws.send("IM:wsbot")
                assert ws.recv(timeout=10) == "WE:wsbot"
                read_until(lines, b"WE:wsbot\n")
                ws.send("ME:hello over WebSocket")
                read_until(lines, b"ME:wsbot/hello over WebSocket\n")
            tcp.sendall(b"QU:\n")
            read_until(lines, b"QU:tcpbot\n")
            assert lines.readline() == b""  # the server closed the link
        with urllib.request.urlopen(f"http://127.0.0.1:{http_port}/", timeout=10) as response:
            assert response.status == 200
        # UMP (riichi bots, seed 004) on its own port: the server speaks first, lines end CR+LF.
        with socket.create_connection(("127.0.0.1", served.ump_port), timeout=10) as ump, ump.makefile("rb") as lines:
            assert lines.readline().startswith(b"1 hello ump=1 ")
            ump.sendall(f"1 hello ump=1 user=tcpbot password={tcp_token}\r\n".encode())
            assert re.match(rb"2 _ex_ table gameid=\d+ players=1/4\r\n", lines.readline())
        # mmj (riichi terminals, seed 000) on its own: the terminal speaks first, one message a line.
        with socket.create_connection(("127.0.0.1", served.mmj_port), timeout=10) as mmj, mmj.makefile("rb") as lines:
            name = f"tcpbot/{tcp_token}".encode()
            mmj.sendall(b"MMJ1C %d:%s" % (len(name), name))  # case is free, and so are line breaks
            assert lines.readline() == b"mmj1s\n"
        # Frames over 64 KiB get the protocol's error; over 1 MiB, Daphne closes the socket with
        # 1009 (Message Too Big) before reading them whole (docs/protocols/lobby.md).
        with ws_connect(f"ws://127.0.0.1:{http_port}/ws/bot/", open_timeout=10) as ws:
            ws.send("x" * (512 * 1024))
            assert json.loads(ws.recv(timeout=10))["code"] == "InvalidMessageFormat"
        with ws_connect(f"ws://127.0.0.1:{http_port}/ws/bot/", open_timeout=10) as ws:
            ws.send("x" * (2 * 1024 * 1024))
            with pytest.raises(ConnectionClosed) as closed:
                ws.recv(timeout=10)
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009
    assert served.process.returncode == 0, served.log.read_text()  # SIGTERM: a clean shutdown, TCP links included
