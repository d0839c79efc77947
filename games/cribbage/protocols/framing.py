"""Line framing for CRIBBAGEBBER: one protocol line per WebSocket text frame, or ``\\n``-terminated
lines on a TCP stream.

The seed: "Newline will be translated to NUL in the server, so NULs are NOT permitted." A NUL is
therefore never data: it is an egregious breach wherever it appears. So are over-long lines,
bytes that are not UTF-8, and binary WebSocket frames; the connection answers ``E: You Brute!``
and closes.
"""

from __future__ import annotations

# The longest legal line is a chat: "ME:" and 500 characters of at most 4 bytes of UTF-8 each.
MAX_LINE_BYTES = 4 + 500 * 4


class Breach(Exception):
    """An egregious breach of the protocol: the server says ``E: You Brute!`` and disconnects."""

    def __init__(self, reason: str) -> None:
        self.reason = reason
        super().__init__(reason)


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


class LineReader:
    """Splits a TCP byte stream into lines. ``feed`` returns the complete lines received so far and
    raises ``Breach`` on NUL, invalid UTF-8 or a line (even an unfinished one) over the limit."""

    def __init__(self, max_bytes: int = MAX_LINE_BYTES) -> None:
        self.max_bytes = max_bytes
        self._pending = b""

    def feed(self, data: bytes) -> list[str]:
        if b"\x00" in data:
            raise Breach("NUL in a line")
        self._pending += data
        *complete, self._pending = self._pending.split(b"\n")
        # An unfinished line may hold one byte more if that is a CR: a read can end between a
        # line's CR and its LF, and the CR is the terminator's, not the line's.
        if len(self._pending) > self.max_bytes + self._pending.endswith(b"\r"):
            raise Breach(f"a line over {self.max_bytes} bytes")
        lines = []
        for raw in complete:
            if raw.endswith(b"\r"):
                raw = raw[:-1]
            if len(raw) > self.max_bytes:
                raise Breach(f"a line over {self.max_bytes} bytes")
            try:
                lines.append(raw.decode("utf-8"))
            except UnicodeDecodeError:
                raise Breach("a line that is not UTF-8") from None
        return lines
