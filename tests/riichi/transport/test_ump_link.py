"""UMP's line rules and its link over a real TCP socket in this process (``games/transport/lines.py`` with
``UMP``): the pure parsing of a client's line and hello options, and a silent client."""

from __future__ import annotations

import asyncio

import pytest

from config.asgi import application
from games.riichi.protocols import ump as codec
from games.riichi.transport.ump_consumer import UMP
from games.transport.lines import LineServer


@pytest.mark.parametrize("text, parsed", [
    ("1 hello ump=1", (1, "hello", ["ump=1"])),
    ("12 sutehai 5M tsumogiri richi", (12, "sutehai", ["5M", "tsumogiri", "richi"])),
    ("7 no", (7, "no", [])),
])
def test_a_line_is_a_serial_a_command_and_its_arguments(text, parsed):
    assert codec.parse_line(text) == parsed


@pytest.mark.parametrize("text", ["hello", "x hello", "1", "1  no", "-1 no", "1234567890 no", "1 n\u00f6",
                                  "1 no\t", " 1 no"])
def test_a_line_that_is_not_one_is_malformed(text):
    with pytest.raises(codec.UmpError) as refused:
        codec.parse_line(text)
    assert refused.value.code == "Malformed"


def test_hello_options_are_uri_decoded_utf8():
    assert codec.options(["name=%E3%81%82", "user=ann", "_game=3"]) == {"name": "\u3042", "user": "ann", "_game": "3"}
    for bad in (["name"], ["=x"], ["name=%FF"]):
        with pytest.raises(codec.UmpError):
            codec.options(bad)


async def test_a_silent_client_is_closed_after_the_idle_timeout():
    """A client that never answers hello (nor anything after it) holds nothing for long: the link
    is closed once nothing passed either way for ``TCP_IDLE_TIMEOUT_SECONDS`` (here 0.5 s)."""
    server = LineServer(UMP, application, port=0, idle_timeout=0.5)
    await server.start()
    try:
        reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
        assert (await asyncio.wait_for(reader.readline(), 10)).startswith(b"1 hello ump=1")
        assert await asyncio.wait_for(reader.read(), 10) == b""  # closed by the server
        writer.close()
    finally:
        await server.close()
