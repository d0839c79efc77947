"""Replay frames: every step's views of a finished game, stored so that showing step N reads one
chunk instead of replaying N actions.

A game's steps are cut into chunks of ``EVERY`` steps. A chunk holds the spectator's view at its
first step in full, then for each later step only what changed (a ``diff`` of the step before), and
for every step each seat's view as a diff of the spectator's (a seat sees the same revealed game
from its own chair: riichi marks the viewer, cribbage puts the viewer's hand first). So reading a
step costs one chunk and at most ``EVERY - 1`` small patches, whatever the step or the game's
length; a riichi game's 30 KB views (they carry the paifu so far) cost a few KB a chunk.

Visible steps: a step whose views (every viewer's) and history are those of the step before shows a
viewer nothing new (riichi's passes: the other seats declining to call a discard), so the replay
folds it into the step before. Each visible step is a run of log steps, named by its first; each
chunk says, for each of its steps, which visible step it is in and where that one and its
neighbours begin (``groups``), so stepping by what a viewer sees also reads one chunk. Whether a
step is visible is decided here, from the very frames served, and nowhere else.

Pure: views in, bytes out, and back. The service builds and reads them (``games.service.reads.replay_step``).
"""

from __future__ import annotations

import json
import zlib
from collections.abc import Iterable, Iterator
from typing import Any

EVERY = 64
SPECTATOR = "spectator"
# A step's key beside its viewers: how many history messages there are by then. A step that adds
# one is visible even if no view changes (the log shows the message).
HISTORY = "history"

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


def _chunk(groups: list[list[int | None]], visible_steps: int, base: str, diffs: list[str],
           seats: list[str]) -> bytes:
    # The groups first: ``visible_starts`` reads them without inflating the views behind them.
    return zlib.compress(f'{{"groups":{_text(groups)},"visible_steps":{visible_steps},"base":{base},'
                         f'"diffs":[{",".join(diffs)}],"seats":[{",".join(seats)}]}}'.encode(), 6)


def chunks(steps: Iterable[dict[str, Any]], every: int = EVERY) -> Iterator[bytes]:
    """The chunks of a game's steps. Each step is its views by viewer: ``SPECTATOR`` and each seat
    position as a string, and optionally ``HISTORY``, the number of history messages by then. A
    step is written down before the next is asked for, so the views may share parts that the next
    step changes (an engine's view may hand out its own lists). The chunks come once every step is
    read: each says how many visible steps the game has."""
    pieces: list[tuple[str, list[str], list[str]]] = []
    starts: list[int] = []  # the first step of each visible step
    base = ""
    seen: Any = None  # the spectator's view so far, as JSON: our own copy, changed patch by patch
    diffs: list[str] = []
    seats: list[str] = []
    last_seats: str | None = None
    last_heard: Any = None
    for number, views in enumerate(steps):
        spectator = views[SPECTATOR]
        if number % every == 0:
            # A chunk's first step is written whole, not as a change: whether it changed anything
            # costs one more diff a chunk.
            moved = number == 0 or diff(seen, spectator) is not None
            if base:
                pieces.append((base, diffs, seats))
            base, diffs, seats = _text(spectator), [], []
            seen = json.loads(base)
        else:
            # Only the change is written out and read back: a step costs what it changed, not
            # the size of the view (a riichi view carries the whole paifu so far).
            change = _text(diff(seen, spectator))
            diffs.append(change)
            moved = change != "null"
            seen = patch(seen, json.loads(change))
        # Against the engine's own spectator view, which equals ``seen``: the parts a seat's view
        # shares with it are the same objects, compared at no cost.
        mine = _text({key: diff(spectator, view) for key, view in views.items() if key not in (SPECTATOR, HISTORY)})
        seats.append(mine)
        # The spectator's view unchanged, a seat's patch from it unchanged means its view is too.
        heard = views.get(HISTORY)
        if moved or mine != last_seats or heard != last_heard:
            starts.append(number)
        last_seats, last_heard = mine, heard
    if base:
        pieces.append((base, diffs, seats))
    visible_steps = len(starts) - 1
    visible = 0  # the visible step of the step at hand
    for index, (base, diffs, seats) in enumerate(pieces):
        groups: list[list[int | None]] = []
        for number in range(index * every, index * every + len(seats)):
            while visible < visible_steps and starts[visible + 1] <= number:
                visible += 1
            groups.append([visible, starts[visible - 1] if visible else None, starts[visible],
                           starts[visible + 1] if visible < visible_steps else None])
        yield _chunk(groups, visible_steps, base, diffs, seats)


def view_at(chunk: bytes, offset: int, viewer: str = SPECTATOR) -> dict[str, Any]:
    """The view of ``viewer`` (``SPECTATOR`` or a seat position as a string) at the chunk's
    ``offset``-th step."""
    return step_at(chunk, offset, viewer)[0]


def step_at(chunk: bytes, offset: int, viewer: str = SPECTATOR) -> tuple[dict[str, Any], dict[str, Any] | None]:
    """The view of ``viewer`` at the chunk's ``offset``-th step, and the visible step it is in:
    ``visible_step`` (0 to ``visible_steps``), the first step of it (``visible_start``), of the one
    before (``visible_previous``, None for the first) and of the one after (``visible_next``, None
    for the last). None for a chunk written before visible steps were (build it again)."""
    frame = json.loads(zlib.decompress(chunk))
    if not 0 <= offset < len(frame["seats"]):
        raise IndexError(f"the chunk has {len(frame['seats'])} steps, not {offset + 1}")
    view = frame["base"]
    for change in frame["diffs"][:offset]:
        view = patch(view, change)
    if viewer != SPECTATOR:
        view = patch(view, frame["seats"][offset][viewer])
    if "groups" not in frame:
        return view, None
    visible, previous, start, following = frame["groups"][offset]
    return view, {"visible_step": visible, "visible_steps": frame["visible_steps"], "visible_previous": previous,
                  "visible_start": start, "visible_next": following}


_GROUPS = b'{"groups":'
_GROUPS_END = b',"visible_steps":'


def visible_starts(chunks: Iterable[bytes]) -> list[int] | None:
    """The first step of each visible step of a game, from all its chunks in order (None if one
    was written before visible steps were). Each chunk is inflated only as far as its groups."""
    starts: list[int] = []
    for chunk in chunks:
        inflate = zlib.decompressobj()
        text = inflate.decompress(chunk, 4096)
        if not text.startswith(_GROUPS):
            return None  # an older chunk: the views come first and no groups
        while (end := text.find(_GROUPS_END)) < 0:
            if not inflate.unconsumed_tail:
                return None
            text += inflate.decompress(inflate.unconsumed_tail, 4096)
        for _visible, _previous, start, _next in json.loads(text[len(_GROUPS):end]):
            if not starts or starts[-1] != start:
                starts.append(start)
    return starts


__all__ = ["EVERY", "HISTORY", "SPECTATOR", "chunks", "diff", "patch", "step_at", "view_at", "visible_starts"]
