"""Line framing for CRIBBAGEBBER: one protocol line per WebSocket text frame, or ``\\n``-terminated
lines on a TCP stream.

The seed: "Newline will be translated to NUL in the server, so NULs are NOT permitted." A NUL is
therefore never data: it is an egregious breach wherever it appears. So are over-long lines,
bytes that are not UTF-8, and binary WebSocket frames; the connection answers ``E: You Brute!``
and closes.
"""

from __future__ import annotations

# The stream's rules (and their breach) are every line protocol's: ``games/transport/lines.py``.
from games.transport.lines import Breach, LineReader

__all__ = ["MAX_LINE_BYTES", "Breach", "LineReader", "encode_line", "frame_to_line", "line_to_frame"]

# The longest legal line is a chat: "ME:" and 500 characters of at most 4 bytes of UTF-8 each.
MAX_LINE_BYTES = 4 + 500 * 4


def _check(line: str) -> str:
    if "\x00" in line:
        raise Breach("NUL in a line")
    if len(line.encode("utf-8", errors="surrogatepass")) > MAX_LINE_BYTES:
        raise Breach(f"a line over {MAX_LINE_BYTES} bytes")
    return line


def frame_to_line(text: str | None) -> str:
    """The line a WebSocket frame carries. A frame is one line, optionally ending in ``\\n`` (or
    ``\\r\\n``). A newline left inside is not a breach but a malformed line (``parse`` says so)."""
    if text is None:
        raise Breach("a binary frame")
    _check(text)
    if text.endswith("\n"):
        text = text[:-1]
    if text.endswith("\r"):
        text = text[:-1]
    return text


def line_to_frame(line: str) -> str:
    """A server line as a WebSocket frame: the line itself, no terminator (one frame, one line)."""
    return line


def encode_line(line: str) -> bytes:
    """A server line for a TCP stream."""
    return line.encode("utf-8") + b"\n"
