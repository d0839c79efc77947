"""The lobby protocol's frames of several messages (docs/protocols/lobby.md, "One frame a tick"):
made by the lobby consumer, read by the project's own clients (the bench's bots, the tests' replay
of recorded sessions). Pure: no Django, so a script can import it."""

from __future__ import annotations

import json

# How a frame of several lobby messages begins: the server writes exactly this.
BATCH_HEAD = '{"type":"LobbyMessages","messages":['


def batch(texts: list[str]) -> str:
    """One frame of lobby messages (JSON texts), in order: a lone message as it is, several as
    ``LobbyMessages``."""
    if len(texts) == 1:
        return texts[0]
    return BATCH_HEAD + ",".join(texts) + "]}"


def messages(frame: str) -> list[str]:
    """The messages of a frame, each the exact text the server put in it: a ``LobbyMessages``
    frame's in order, any other frame as it is."""
    if not frame.startswith(BATCH_HEAD) or not frame.endswith("]}"):
        return [frame]
    decoder, parts, at = json.JSONDecoder(), [], len(BATCH_HEAD)
    while True:
        _, end = decoder.raw_decode(frame, at)
        parts.append(frame[at:end])
        if frame[end] == "]":
            return parts
        if frame[end] != ",":
            raise ValueError(f"not a LobbyMessages frame: {frame[:200]!r}")
        at = end + 1
