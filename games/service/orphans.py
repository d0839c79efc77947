"""Tables being set up that no person sits at any more: only house bots are left (the host's
seat passed to one when the last person left), and nobody will ever start, change or close them,
while every client's Greetings and the lobby list carry them for good.

The abandon watch (games/service/sweeper.py) looks every ``ABANDON_CHECK_SECONDS``. A table found with no
person is remembered with the moment it was first seen so; one still without a person
``ORPHAN_TABLE_GRACE_SECONDS`` later is closed (``lobby.close_orphaned``: its bots leave and it is
aborted, which the lobby hears as for any closed table). A person who sits down meanwhile keeps
it: the next look no longer finds it, and forgets it.

The moments are this process's own (each process may close any table; the lock in
``lobby.close_orphaned`` makes a second close a no-op), so a restart only starts the grace again.
"""

from __future__ import annotations

from django.conf import settings

from games.models import Game, Status
from games.service import clocks, lobby

# game id -> when (ms since the epoch) this process first saw the table without a person.
_seen_since: dict[int, int] = {}


def grace_ms() -> int:
    return int(settings.ORPHAN_TABLE_GRACE_SECONDS * 1000)


def watch(now: int | None = None) -> list[int]:
    """One look, as of ``now`` (ms since the epoch; the present when None): the tables closed.
    One query when there is nothing to close."""
    now = clocks.now_ms() if now is None else now
    # A table at which no seat is a person's (a bot is a user with is_bot).
    orphaned = set(Game.objects.filter(status=Status.SETUP).exclude(seats__user__is_bot=False)
                   .values_list("id", flat=True))
    for kept in _seen_since.keys() - orphaned:
        del _seen_since[kept]  # a person sat down, or the table started or closed otherwise
    closed = []
    for game_id in sorted(orphaned):
        since = _seen_since.setdefault(game_id, now)
        if now - since >= grace_ms():
            _seen_since.pop(game_id, None)
            if lobby.close_orphaned(game_id):
                closed.append(game_id)
    return closed


def forget() -> None:
    """Forget every table seen (tests: each starts with none)."""
    _seen_since.clear()
