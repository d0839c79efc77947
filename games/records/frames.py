"""Replay frames: every step's views of a finished game, stored so that showing step N reads one
chunk instead of replaying N actions.

A game's steps are cut into chunks of ``EVERY`` steps. A chunk holds the spectator's view at its
first step in full, then for each later step only what changed (a ``diff`` of the step before), and
for every step each seat's view as a diff of the spectator's (a seat sees the same revealed game
from its own chair: riichi marks the viewer, cribbage puts the viewer's hand first). So reading a
step costs one chunk and at most ``EVERY - 1`` small patches, whatever the step or the game's
length; a riichi game's 30 KB views (they carry the paifu so far) cost a few KB a chunk.

Pure: views in, bytes out, and back. The service builds and reads them (``games.service.reads.replay_step``).
"""

from __future__ import annotations

import json
import zlib
from collections.abc import Iterable, Iterator
from typing import Any

EVERY = 64
SPECTATOR = "spectator"

# A patch is a list whose first item says what it does:
#   ["=", value]                      the value is replaced
#   ["+", items]                      a list grows by items (the usual change: a log gets longer)
#   ["{", {key: patch}, [removed]]    a dict: some keys change or appear, some go
#   ["[", [[index, patch], ...]]      a list of the same length: some items change
# ``None`` means no change.
Patch = list[Any] | None


def _kind(value: Any) -> type:
    # JSON has no tuples: an engine's tuple and the list it becomes are the same value.
    return list if isinstance(value, tuple) else type(value)


def _key(key: Any) -> Any:
    # JSON's keys are strings: an engine's int key and the string it becomes are the same key.
    return str(key) if type(key) is int else key


def diff(old: Any, new: Any) -> Patch:
    """The patch that turns ``old`` into ``new`` (None if they are equal). ``old`` may be JSON as
    read back and ``new`` what an engine made (tuples, int keys): they are compared as JSON."""
    if _kind(old) is not _kind(new):
        return ["=", new]
    if old == new:
        return None
    if isinstance(new, dict):
        changed = {}
        present = 0  # how many of old's keys new has: if all, none was removed
        for key, value in new.items():
            name = _key(key)
            if name not in old:
                changed[name] = ["=", value]
                continue
            present += 1
            if type(was := old[name]) is type(value) and was == value:
                continue  # the usual case, decided without a call
            if (change := diff(was, value)) is not None:
                changed[name] = change
        removed = []
        if present < len(old):
            names = {_key(key) for key in new}
            removed = [name for name in old if name not in names]
        return ["{", changed, removed] if changed or removed else None
    if isinstance(new, (list, tuple)):
        # The C comparison first: one Python call per item only where it fails (tuples, int keys).
        if len(new) >= len(old) and (old == list(new[:len(old)]) or all(diff(a, b) is None for a, b in zip(old, new))):
            return ["+", list(new[len(old):])] if len(new) > len(old) else None
        if len(new) == len(old):
            return ["[", [[i, change] for i, (a, b) in enumerate(zip(old, new))
                          if (change := diff(a, b)) is not None]]
    return ["=", new]


def patch(value: Any, change: Patch) -> Any:
    """``value`` changed by ``change`` (made by ``diff``; JSON as read back). Changes ``value`` in
    place where it can and returns the result."""
    if change is None:
        return value
    op = change[0]
    if op == "=":
        return change[1]
    if op == "+":
        value.extend(change[1])
        return value
    if op == "{":
        for key, sub in change[1].items():
            value[key] = patch(value.get(key), sub)
        for key in change[2]:
            del value[key]
        return value
    if op == "[":
        for index, sub in change[1]:
            value[index] = patch(value[index], sub)
        return value
    raise ValueError(f"unknown patch operation {op!r}")


def _text(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def _chunk(base: str, diffs: list[str], seats: list[str]) -> bytes:
    return zlib.compress(f'{{"base":{base},"diffs":[{",".join(diffs)}],"seats":[{",".join(seats)}]}}'.encode(), 6)


def chunks(steps: Iterable[dict[str, Any]], every: int = EVERY) -> Iterator[bytes]:
    """The chunks of a game's steps. Each step is its views by viewer: ``SPECTATOR`` and each seat
    position as a string. A step is written down before the next is asked for, so the views may
    share parts that the next step changes (an engine's view may hand out its own lists)."""
    base = ""
    seen: Any = None  # the spectator's view so far, as JSON: our own copy, changed patch by patch
    diffs: list[str] = []
    seats: list[str] = []
    for number, views in enumerate(steps):
        spectator = views[SPECTATOR]
        if number % every == 0:
            if base:
                yield _chunk(base, diffs, seats)
            base, diffs, seats = _text(spectator), [], []
            seen = json.loads(base)
        else:
            # Only the change is written out and read back: a step costs what it changed, not
            # the size of the view (a riichi view carries the whole paifu so far).
            change = _text(diff(seen, spectator))
            diffs.append(change)
            seen = patch(seen, json.loads(change))
        # Against the engine's own spectator view, which equals ``seen``: the parts a seat's view
        # shares with it are the same objects, compared at no cost.
        seats.append(_text({key: diff(spectator, view) for key, view in views.items() if key != SPECTATOR}))
    if base:
        yield _chunk(base, diffs, seats)


def view_at(chunk: bytes, offset: int, viewer: str = SPECTATOR) -> dict[str, Any]:
    """The view of ``viewer`` (``SPECTATOR`` or a seat position as a string) at the chunk's
    ``offset``-th step."""
    frame = json.loads(zlib.decompress(chunk))
    if not 0 <= offset < len(frame["seats"]):
        raise IndexError(f"the chunk has {len(frame['seats'])} steps, not {offset + 1}")
    view = frame["base"]
    for change in frame["diffs"][:offset]:
        view = patch(view, change)
    if viewer != SPECTATOR:
        view = patch(view, frame["seats"][offset][viewer])
    return view


__all__ = ["EVERY", "SPECTATOR", "chunks", "diff", "patch", "view_at"]
