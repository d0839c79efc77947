"""Play now's queue as its players see it (docs/play-now.md): what a place looks like, telling
a queue that it changed, and leaving it. Below both the lobby (a player who sits down at a table
leaves the queue) and ``play_now`` (which seats players through the lobby), so neither imports the other
in a circle."""

from __future__ import annotations

from typing import Any

from games.core import play_now as rules
from games.models import QueueEntry
from games.service import clocks, push


def describe(entry: QueueEntry, now_ms: int | None = None) -> dict[str, Any]:
    """An entry as its player sees it: what they asked for, how long they have waited, how far the
    skill window has widened, and how many others wait in the same queue (held or not)."""
    now_ms = clocks.now_ms() if now_ms is None else now_ms
    if entry.game_id is not None:
        return {"status": "seated", "game": entry.game_id, "game_type": entry.game_type, **entry.options}
    waited = max(0, now_ms - entry.since_ms)
    return {
        "status": "waiting", "game_type": entry.game_type, **entry.options, "bots_after": entry.bots_after,
        "waited_ms": waited, "window": round(rules.window(waited), 1),
        "others": QueueEntry.objects.filter(key=entry.key, game=None).exclude(id=entry.id).count(),
    }


def tell(key: str, now_ms: int, *, but: int | None = None) -> None:
    """A fresh ``PlayNowWaiting`` to everyone waiting in queue ``key`` (but user ``but``, told
    already): someone came or went, so their ``others`` changed. One query for the queue, one
    count each: a queue is a handful of players, and this runs only when it changes."""
    for entry in QueueEntry.objects.filter(key=key, game=None).exclude(user_id=but):
        push.to_user(entry.user_id, {"type": "PlayNowWaiting", **describe(entry, now_ms)})


def leave(user_id: int, reason: str) -> bool:
    """Take a player out of Play now's queue, telling their connections why and the others of
    that queue that one fewer waits. Being seated at any table does it: nobody waits for one
    table while sitting at another."""
    key = QueueEntry.objects.filter(user_id=user_id, game=None).values_list("key", flat=True).first()
    if key is None or not QueueEntry.objects.filter(user_id=user_id, game=None).delete()[0]:
        return False
    push.to_user(user_id, {"type": "PlayNowLeft", "reason": reason})
    tell(key, clocks.now_ms())
    return True
