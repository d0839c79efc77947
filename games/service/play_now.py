"""Play now's queue (docs/play-now.md): players join it, are seated together by skill, or with
house bots after the wait they chose, and leave it.

The queue is the ``QueueEntry`` table, so every server process sees and matches the same queue and
a restart keeps it. Matching one queue runs in one transaction holding its entries' row locks
(SQLite: every write transaction is exclusive), so two processes never seat one player twice.

An entry is matched only while **held**: a player's live connection holds it (each process's
watch moves ``held_ms`` on for every player who has a ``Client`` row, from any process), and so
does every REST request about it, for longer, since a REST client polls. An entry no longer held
is kept for ``grace_ms`` more (a reload, a restarted server the page reconnects to), then removed.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import Q

from accounts.models import User
from games.core import play_now as rules
from games.core import ratings as model
from games.core.errors import Conflict, GameError
from games.models import Client, Game, QueueEntry, Rating, Seat, Status
from games.service import clocks, lobby, push, queue

# How long a connection's hold lasts without a watch pass renewing it (the watch runs every
# WATCH_SECONDS), and how long a REST request holds an entry (a REST client polls within it).
WATCH_SECONDS = 1.0
SOCKET_HOLD_MS = 3_000
# A seated entry is kept this long so that a REST client polling for it learns its table, unless
# its game ends first (then there is no table to learn of: the player is back to no place at all).
SEATED_KEPT_MS = 600_000
# The games a seated entry still points a player to.
LIVE = (Status.SETUP, Status.ACTIVE, Status.ADJOURNED)


def rest_hold_ms() -> int:
    return int(float(getattr(settings, "PLAY_NOW_REST_HOLD_SECONDS", 60)) * 1000)


def grace_ms() -> int:
    """How long an entry nobody holds stays in the queue (unmatched) before it is removed."""
    return int(float(getattr(settings, "PLAY_NOW_GRACE_SECONDS", 15)) * 1000)


def status(user: User, *, via: str | None = None) -> dict[str, Any]:
    """The player's place in Play now: waiting, seated (at which table) or none. A REST request
    (``via`` REST) holds the entry it finds."""
    now = clocks.now_ms()
    entry = QueueEntry.objects.filter(user=user).first()
    if entry is None:
        return {"status": "none"}
    if entry.game_id is not None and not Game.objects.filter(id=entry.game_id, status__in=LIVE).exists():
        QueueEntry.objects.filter(id=entry.id, game_id=entry.game_id).delete()  # its game is over
        return {"status": "none"}
    if via == QueueEntry.Via.REST and entry.game_id is None:
        hold = now + rest_hold_ms()
        if hold > entry.held_ms:
            QueueEntry.objects.filter(id=entry.id).update(held_ms=hold)
    return queue.describe(entry, now)


def _mu(user: User, game_type: str) -> float:
    rating = Rating.objects.filter(user=user, game_type=game_type).only("mu").first()
    return rating.mu if rating is not None else model.MU


def join(user: User, fields: dict[str, Any], via: str) -> dict[str, Any]:
    """Queue ``user`` for the table ``fields`` ask for (``games.core.play_now.read``), replacing any
    entry they had, and seat whoever can be seated now. Refused while the user sits at a table
    being set up (they would be at two tables)."""
    try:
        request = rules.read(fields)
    except rules.Invalid as error:
        raise GameError("InvalidPlayNow", str(error)) from None
    now = clocks.now_ms()
    hold = now + (rest_hold_ms() if via == QueueEntry.Via.REST else SOCKET_HOLD_MS)
    with transaction.atomic():
        User.objects.select_for_update().filter(id=user.id).exists()  # one join of a user at a time
        if Seat.objects.filter(user=user, game__status=Status.SETUP).exists():
            raise Conflict("AtTable", "you sit at a table being set up: leave it before Play now")
        before = QueueEntry.objects.filter(user=user, game=None).values_list("key", flat=True).first()
        QueueEntry.objects.filter(user=user).delete()
        if before is not None and before != request.key:
            queue.tell(before, now)
        entry = QueueEntry.objects.create(
            user=user, game_type=request.game_type, key=request.key, options=request.options,
            mu=_mu(user, request.game_type), since_ms=now, bots_after=request.bots_after, via=via, held_ms=hold)
        push.to_user(user.id, {"type": "PlayNowWaiting", **queue.describe(entry, now)})
        queue.tell(request.key, now, but=user.id)
    match(request.key, now)
    return status(user)


def leave(user: User) -> bool:
    """Take ``user`` out of the queue (and forget a table it seated them at); whether they waited."""
    with transaction.atomic():
        waited = queue.leave(user.id, "left")
        QueueEntry.objects.filter(user=user).delete()  # a seated place too: forgotten
    return waited


def match(key: str, now_ms: int | None = None) -> list[Game]:
    """Seat whoever of queue ``key`` can be seated now (``games.core.play_now.tables``)."""
    now_ms = clocks.now_ms() if now_ms is None else now_ms
    opened = []
    with transaction.atomic():
        # The entries' rows only (``of``): their users' rows are the join's lock, taken first there.
        held = QueueEntry.objects.filter(key=key, game=None, held_ms__gte=now_ms)
        entries = list(held.select_for_update(of=("self",)).select_related("user").order_by("since_ms", "id"))
        if not entries:
            return []
        request = rules.read({"game_type": entries[0].game_type, **entries[0].options})
        by_id = {e.id: e for e in entries}
        waiting = [rules.Waiting(e.id, e.mu, e.since_ms, e.bots_after) for e in entries]
        for group, bots in rules.tables(waiting, request.seats, now_ms):
            members = [by_id[w.id] for w in group]
            # The bots play at the level the table's first player (its host) chose: the level is
            # not part of the queue's key (games/core/play_now.py, UNMATCHED).
            level = rules.read({"game_type": members[0].game_type, **members[0].options}).bot_level
            game = lobby.open_matched([e.user for e in members], request.game_type, request.mode, request.rules,
                                      request.clock, bots, level)
            QueueEntry.objects.filter(id__in=[e.id for e in members]).update(game=game)
            for entry in members:
                push.to_user(entry.user_id, {"type": "PlayNowSeated", "game": game.id, "game_type": game.game_type,
                                             "bots": bots, "bot_level": level if bots else None})
            opened.append(game)
        if opened:
            queue.tell(key, now_ms)  # those left waiting: fewer others now
    return opened


def watch(now_ms: int | None = None) -> list[Game]:
    """One pass of a process's watch: renew the holds of players connected anywhere, remove
    entries nobody held for the grace (and seated entries kept long enough or whose game is over),
    and match every queue. Cheap when nobody waits: one query."""
    now_ms = clocks.now_ms() if now_ms is None else now_ms
    if not QueueEntry.objects.exists():
        return []
    connected = Client.objects.values("user_id")
    QueueEntry.objects.filter(game=None, user_id__in=connected, held_ms__lt=now_ms + SOCKET_HOLD_MS).update(
        held_ms=now_ms + SOCKET_HOLD_MS)
    with transaction.atomic():
        gone = QueueEntry.objects.filter(game=None, held_ms__lt=now_ms - grace_ms())
        for user_id in list(gone.values_list("user_id", flat=True)):
            queue.leave(user_id, "gone")
    QueueEntry.objects.exclude(game=None).filter(
        Q(since_ms__lt=now_ms - SEATED_KEPT_MS) | ~Q(game__status__in=LIVE)).delete()
    opened = []
    waiting = QueueEntry.objects.filter(game=None, held_ms__gte=now_ms).order_by()
    for key in waiting.values_list("key", flat=True).distinct():
        opened += match(key, now_ms)
    return opened
