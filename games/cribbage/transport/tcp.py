"""CRIBBAGEBBER over raw TCP: the shared line bridge (``games/transport/lines.py``) with CRIBBAGEBBER's
path, its ``\\n``-terminated lines and its line limit. Each TCP connection is a WebSocket
connection to ``/ws/cribbage/``: the same consumer (``games/cribbage/transport/consumer.py``), which reads
a breach of the stream as a binary frame and answers ``E: You Brute!``. The link logs in with
``IM:<nickname>/<token>``.
"""

from __future__ import annotations

from typing import Any

from games.cribbage.transport.framing import MAX_LINE_BYTES
from games.transport.lines import LineProtocol
from games.transport.lines import LineServer as _LineServer

DEFAULT_PORT = 7321
CRIBBAGEBBER = LineProtocol(name="CRIBBAGEBBER", path="/ws/cribbage/", terminator=b"\n",
                            max_line_bytes=MAX_LINE_BYTES)


def LineServer(application: Any, host: str = "127.0.0.1", port: int = DEFAULT_PORT,  # noqa: N802
               **limits: Any) -> _LineServer:
    """A CRIBBAGEBBER listener (``games.transport.lines.LineServer`` with ``CRIBBAGEBBER``)."""
    return _LineServer(CRIBBAGEBBER, application, host, port, **limits)
