"""The TCP line ports behind a TCP proxy (HAProxy's ``send-proxy``, deploy/cluster.py): each
connection begins with a PROXY protocol header (version 1) naming the client, and the per-address
limits count that client, not the proxy (games/transport/lines.py, ``TCP_PROXY_PROTOCOL``)."""

from __future__ import annotations

import asyncio

import pytest

from config.asgi import application
from games.riichi.transport.ump_consumer import UMP
from games.transport.lines import LineServer, proxy_header

pytestmark = pytest.mark.django_db(transaction=True)


async def read_header(data: bytes):
    reader = asyncio.StreamReader()
    reader.feed_data(data)
    reader.feed_eof()
    return await proxy_header(reader)


@pytest.mark.parametrize(("data", "client"), [
    (b"PROXY TCP4 203.0.113.7 127.0.0.1 51234 7322\r\n", ["203.0.113.7", 51234]),
    (b"PROXY TCP6 2001:db8::1 ::1 40000 7322\r\n", ["2001:db8::1", 40000]),
    (b"PROXY UNKNOWN\r\n", None),
])
async def test_a_header_names_the_client(data, client):
    assert await read_header(data) == client


@pytest.mark.parametrize("data", [
    b"HELLO\r\n",
    b"PROXY TCP4 203.0.113.7 127.0.0.1 51234\r\n",
    b"PROXY TCP4 not-an-address 127.0.0.1 51234 7322\r\n",
    b"PROXY TCP4 2001:db8::1 127.0.0.1 51234 7322\r\n",
    b"PROXY TCP4 203.0.113.7 127.0.0.1 99999 7322\r\n",
    b"PROXY TCP4 203.0.113.7 127.0.0.1 " + b"1" * 100 + b" 7322\r\n",
])
async def test_anything_else_is_refused(data):
    with pytest.raises(ValueError):
        await read_header(data)


async def first_line(port: int, header: bytes | None) -> bytes:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    if header is not None:
        writer.write(header)
        await writer.drain()
    try:
        return await asyncio.wait_for(reader.readline(), 10)
    finally:
        writer.close()


async def test_the_per_address_cap_counts_the_clients_the_proxy_names(settings):
    settings.MAX_CONNECTIONS_PER_ADDRESS = 2
    server = LineServer(UMP, application, "127.0.0.1", 0, proxy_protocol=True)
    await server.start()
    held = []
    try:
        for _ in range(2):  # two links of one client, held open
            reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
            writer.write(b"PROXY TCP4 203.0.113.7 127.0.0.1 50000 7322\r\n")
            assert (await asyncio.wait_for(reader.readline(), 10)).startswith(b"1 hello ")
            held.append(writer)
        # The same client's third is over the cap; another client behind the same proxy is not.
        third = await first_line(server.port, b"PROXY TCP4 203.0.113.7 127.0.0.1 50002 7322\r\n")
        assert third.startswith(b"1 error TooManyConnections "), third
        other = await first_line(server.port, b"PROXY TCP4 203.0.113.8 127.0.0.1 50003 7322\r\n")
        assert other.startswith(b"1 hello "), other
        # A connection without the header is no client at all: closed unanswered.
        assert await first_line(server.port, b"1 hello\r\n") == b""
    finally:
        for writer in held:
            writer.close()
        await server.close()
