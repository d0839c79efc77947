"""Decision reviews of finished riichi games: asked for, built in the background, kept (docs/review.md).

A review of one seat (``RiichiReview``, keyed by game and seat) is asked for with ``request``,
read with ``status`` and downloaded with ``document``; reading it never replays the game (one row
read). Building it replays the log once (``games/riichi/records/review/build.py``), which takes
about a second of one core for an east-only game: too long for a request, so a worker thread of
the process builds the reviews asked for, one at a time, beside the server's event loop.

- A review is asked for only of a finished riichi game, whose record (every hand) everybody may
  already see on its replay page: the review shows no more than that, and nothing of a game in
  progress. A seat that is not at the game is refused.
- Asking is idempotent: a built review is returned as it is (the cache), one being built is left
  to its worker; a failed one, or one of an older format, is built again.
- The worker claims a row by a compare-and-set ``UPDATE`` (pending, or building with a heartbeat
  older than ``STALE_SECONDS``), so two processes never build one review at once, and a build cut
  off by a restart is taken over: by this process's next ``kick`` (a request, a reader seeing the
  stale heartbeat) or by the sweeper's watch (``games/service/sweeper.py``) in any process.
- The worker writes its progress (done, total: the seat's actions gone through) with its heartbeat,
  at most every ``HEARTBEAT_SECONDS``; a worker whose row was taken over stops.

Where the database calls cannot leave their thread (SQLite in memory: the test suite's default)
no thread is started; ``run_pending`` builds what is waiting, called by whoever needs it.
"""

from __future__ import annotations

import json
import logging
import os
import threading
import time
import uuid
from datetime import timedelta
from typing import Any

from django.db import close_old_connections, connections, transaction
from django.db.models import Q
from django.utils import timezone

from games.core import db
from games.core.errors import Conflict, GameError, NotFound
from games.models import Game, ReviewStatus, RiichiReview, Status
from games.riichi.records.review.build import VERSION, Logged, build
from games.state import replay as state

log = logging.getLogger(__name__)

STALE_SECONDS = 60.0  # a building row not heard from for this long died with its worker
HEARTBEAT_SECONDS = 1.0  # progress and heartbeat are written at most this often
SEATS = 4
WATCH_SECONDS = 30.0  # how often the sweeper looks for reviews left waiting


class _TakenOver(Exception):
    """Another worker claimed the row (ours was thought dead): stop, leave it to that one."""


def _check(game: Game, seat: int) -> None:
    """Refuse what has no review: another game type, a game not finished, a seat not at it."""
    if game.game_type != "riichi":
        raise NotFound("NoDecisionReview", "decision reviews exist for riichi games")
    if game.seed is None:
        raise Conflict("GameNotStarted", "the game has not started")
    if game.status != Status.FINISHED:
        raise Conflict("GameNotFinished", "a review is built from a finished game's record; this game is "
                       + ("still in progress" if not game.is_over else "aborted"))
    # The range first: a path's int may be any size, beyond what the database's integers hold.
    # The seats as the API's game lookup already holds them (prefetched), else one query.
    if not 0 <= seat < SEATS or not any(s.position == seat for s in game.seats.all()):
        raise GameError("InvalidSeat", f"seat {seat} does not play in this game (seats are 0 to 3)")


def describe(row: RiichiReview, *, review: bool = True) -> dict[str, Any]:
    """A review's state as the API answers it; with ``review``, the review itself once built."""
    answer: dict[str, Any] = {
        "game": row.game_id, "seat": row.seat, "status": row.status,
        "progress": {"done": row.done, "total": row.total},
        "requested": row.requested.isoformat() if row.requested else None,
        "finished": row.finished.isoformat() if row.finished else None,
        "error": row.error or None,
        "review": None,
    }
    if review and row.status == ReviewStatus.DONE and row.document:
        answer["review"] = json.loads(row.document)
    return answer


def request(game: Game, seat: int) -> dict[str, Any]:
    """Ask for the review of ``seat`` (idempotent; module docstring). Answers its state."""
    _check(game, seat)
    with transaction.atomic():
        row, _ = RiichiReview.objects.select_for_update().get_or_create(game=game, seat=seat)
        stale_format = row.status == ReviewStatus.DONE and row.version != VERSION
        if row.status == ReviewStatus.FAILED or stale_format:
            row.status, row.done, row.total, row.error, row.worker = ReviewStatus.PENDING, 0, 0, "", ""
            row.save(update_fields=["status", "done", "total", "error", "worker"])
        if row.status != ReviewStatus.DONE:
            transaction.on_commit(kick)
    return describe(row, review=True)


def status(game: Game, seat: int) -> dict[str, Any]:
    """The review's state, and the review once built: one row read, whatever the game's length.
    A review still waiting, or whose worker went silent, is handed to this process's worker."""
    _check(game, seat)
    row = RiichiReview.objects.filter(game=game, seat=seat).first()
    if row is None:
        raise NotFound("NoReview", f"no review of seat {seat} has been asked for; POST to ask for one")
    if row.status == ReviewStatus.PENDING or _stale(row):
        kick()  # waiting for a worker: this process's takes it (waking one that runs costs nothing)
    return describe(row)


def reviewed_seats(game: Game) -> list[int]:
    """The seats of ``game`` whose review someone has asked for (in any state): the replay page
    reads the state of those only, so a seat never asked for costs no request (and no 404)."""
    return sorted(RiichiReview.objects.filter(game=game).values_list("seat", flat=True))


def document(game: Game, seat: int) -> str:
    """The built review as stored (JSON text), for the download."""
    _check(game, seat)
    row = RiichiReview.objects.filter(game=game, seat=seat).only("status", "document").first()
    if row is None or row.status != ReviewStatus.DONE:
        raise Conflict("ReviewNotReady", "the review is not built yet; POST to ask for it and GET to follow it")
    return row.document


def _stale(row: RiichiReview) -> bool:
    return row.status == ReviewStatus.BUILDING and (
        row.heartbeat is None or row.heartbeat < timezone.now() - timedelta(seconds=STALE_SECONDS))


def _claimable() -> Q:
    stale = timezone.now() - timedelta(seconds=STALE_SECONDS)
    return Q(status=ReviewStatus.PENDING) | Q(status=ReviewStatus.BUILDING, heartbeat__lt=stale) | Q(
        status=ReviewStatus.BUILDING, heartbeat=None)


def waiting() -> bool:
    """Whether a review waits for a worker (asked for, or its build gone silent)."""
    return RiichiReview.objects.filter(_claimable()).exists()


def claim() -> tuple[RiichiReview, str] | None:
    """Take one waiting review for this worker: the row and the token it now holds it by."""
    waiting_ids = RiichiReview.objects.filter(_claimable()).order_by("requested", "id").values_list("id", flat=True)
    for row_id in waiting_ids[:10]:
        token = f"{os.getpid()}-{uuid.uuid4().hex[:12]}"
        # The condition again in the UPDATE: of two workers after one row, one changes it.
        taken = RiichiReview.objects.filter(_claimable(), id=row_id).update(
            status=ReviewStatus.BUILDING, worker=token, heartbeat=timezone.now(), done=0, total=0)
        if taken:
            return RiichiReview.objects.select_related("game").get(id=row_id), token
    return None


def build_one(row: RiichiReview, token: str) -> None:
    """Build a claimed review and store it; a failure is stored as such (and logged)."""
    game = row.game
    mine = RiichiReview.objects.filter(id=row.id, worker=token)
    last = [0.0]

    def progress(done: int, total: int) -> None:
        now = time.monotonic()
        if done and done < total and now - last[0] < HEARTBEAT_SECONDS:
            return
        last[0] = now
        if not mine.update(done=done, total=total, heartbeat=timezone.now()):
            raise _TakenOver

    try:
        logged = game.actions.order_by("seq").values_list("seq", "seat", "type", "params", "auto")
        actions = [Logged(*a) for a in logged]
        review = build(state.new_engine(game), actions, row.seat, progress=progress)
    except _TakenOver:
        return
    except Exception as error:  # noqa: BLE001 - a review that cannot be built is a stored failure, not a dead worker
        log.exception("review of seat %s in game %s failed", row.seat, game.id)
        mine.update(status=ReviewStatus.FAILED, error=f"{type(error).__name__}"[:200], finished=timezone.now())
        return
    player = game.seats.filter(position=row.seat).select_related("user").first()
    review = {"game": game.id, "display_number": game.display_number,
              "player": player.user.username if player else None, **review}
    mine.update(status=ReviewStatus.DONE, version=VERSION, finished=timezone.now(), heartbeat=timezone.now(),
                document=json.dumps(review, ensure_ascii=False, separators=(",", ":")), error="")


def run_pending(limit: int | None = None) -> int:
    """Build waiting reviews one after another until none waits (or ``limit`` are built)."""
    built = 0
    while limit is None or built < limit:
        claimed = claim()
        if claimed is None:
            break
        build_one(*claimed)
        built += 1
    return built


# The worker: one thread per process at most, started when there is work and ending when there is none.
_lock = threading.Lock()
_wake = threading.Event()
_thread: threading.Thread | None = None


def kick() -> None:
    """Have this process's worker build what waits: start it, or wake it if it is running."""
    global _thread
    if not db.pooled():
        return  # an in-memory database cannot be shared with another thread: run_pending instead
    with _lock:
        _wake.set()
        if _thread is None:
            _thread = threading.Thread(target=_work, name="riichi-review", daemon=True)
            _thread.start()


def _work() -> None:
    global _thread
    try:
        while True:
            _wake.clear()
            try:
                close_old_connections()
                run_pending()
            except Exception:  # noqa: BLE001 - the worker must outlive a bad pass; the rows say what waits
                log.exception("review worker pass failed")
                time.sleep(1.0)
            with _lock:
                if not _wake.is_set():
                    _thread = None
                    return
    finally:
        connections.close_all()


def watch() -> None:
    """The sweeper's pass: a review left waiting (asked for while no worker ran here, or cut off
    by a restart) is handed to this process's worker."""
    if waiting():
        kick()
