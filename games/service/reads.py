"""The read side of the service: history, Snapshots and replay steps, each as its reader may see it
(a spectator of a delayed table sees the game late; nobody sees hidden tiles of a live game).
"""

from __future__ import annotations

import bisect
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from accounts.models import User
from games.core.errors import Conflict, GameError
from games.models import Game, GameRecord, ReplayFrame, Status
from games.records import frames, store
from games.service import chat, clocks, window
from games.state import replay as state


def viewer_position(game: Game, user: User | None) -> int | None:
    if user is None or not user.is_authenticated:
        return None
    seat = game.seats.filter(user_id=user.id).exclude(position=None).first()
    return seat.position if seat else None


def _position(entry: state.Replayed, user: User | None) -> int | None:
    if user is None or not user.is_authenticated:
        return None
    return next((s.position for s in entry.seats or [] if s.user_id == user.id), None)


def _reveal(game: Game, user: User | None) -> bool:
    # Not even staff see hidden tiles of a live game here: a staff member may be playing in it or
    # talking to someone who is. The admin shows the action log, which is for after the fact.
    return game.is_over


@contextmanager
def _reading(game: Game) -> Iterator[state.Replayed]:
    """The current state for reading. The cached entry is taken out while it is read, so no writer
    (which takes it to change it) and no other reader can share it with us; put back afterwards
    unless a writer has put a newer one meanwhile. A writer that finds it gone rebuilds its own."""
    # Never waits for a writer: a reader may run inside a transaction that a writer queued on
    # the same lock waits for. A game being written is read from its log instead.
    writer = state.engine_cache.writing(game.id)
    free = writer.acquire(blocking=False)
    try:
        entry = state.engine_cache.take(game.id, game.seq, game.setup_version) if free else None
        # Up to the seq already read: a move committed meanwhile must not mix two versions.
        entry = state.caught_up(game, entry, upto=game.seq) if entry is not None else state.replay(game, upto=game.seq)
        state.with_seats(game, entry)
        try:
            yield entry
        finally:
            if free and entry.seq == game.seq:
                state.engine_cache.offer(game.id, entry)
    finally:
        if free:
            writer.release()


def _delay_cut(game: Game) -> int | None:
    """The last seq a spectator of ``game`` may see now, when the table shows its spectators the
    game late (``Game.spectator_delay``); None: everything."""
    if not game.spectator_delay or game.status not in (Status.ACTIVE, Status.ADJOURNED):
        return None
    cutoff = clocks.now_ms() - game.spectator_delay * 1000
    return game.actions.filter(timestamp_ms__lte=cutoff).order_by("-seq").values_list("seq", flat=True).first() or 0


@contextmanager
def _as_seen(game: Game, user: User | None) -> Iterator[tuple[state.Replayed, int | None, bool]]:
    """The state ``user`` may see now, their position and whether it is late: the current one, or
    for a spectator of a delayed table the state as it was ``spectator_delay`` seconds ago (rebuilt
    from the log; only Snapshots, history and replays read it, never a move)."""
    with _reading(game) as entry:
        viewer = _position(entry, user)
        cut = _delay_cut(game) if viewer is None else None
        if cut is not None and cut < entry.seq:
            yield state.with_seats(game, state.replay(game, upto=cut)), viewer, True
        else:
            yield entry, viewer, False


def seat_view(game: Game, position: int | None) -> dict[str, Any]:
    """The engine's view for one seat (None: a spectator) without the history: what a transport
    that answers every command with the current state needs, and no more."""
    with _reading(game) as entry:
        return entry.engine.view(position, reveal_all=_reveal(game, None))


def history(game: Game, user: User | None, start: int = 0) -> dict[str, Any]:
    """Game history messages ``start``.. as ``user`` may see them."""
    if start < 0:
        raise GameError("InvalidStart", "start must not be negative")
    if game.status == Status.SETUP or game.seed is None:
        return {"game": game.id, "v": game.seq, "start": start, "messages": []}
    if game.status == Status.FINISHED:
        return {"game": game.id, "v": game.seq, "start": start, "messages": store.record_of(game).history[start:]}
    with _as_seen(game, user) as (entry, viewer, _late):
        return {"game": game.id, "v": entry.seq, "start": start,
                "messages": state.render_history(entry.history, viewer, _reveal(game, user), start)}


def snapshot(game: Game, user: User | None, start: int = 0) -> dict[str, Any]:
    """A fresh per-seat picture of a game, for a client that reconnects or saw a gap. ``start`` is
    how many history messages the client already holds: only the rest is sent (``history_start``
    says from where), so a client that follows a game never receives its whole history twice."""
    if start < 0:
        raise GameError("InvalidStart", "start must not be negative")
    base = {"type": "Snapshot", "game": game.id, "status": game.status, "v": game.seq,
            "chat": chat.table_chat(game)}
    if game.seed is None:
        return {**base, "view": None, "history": [], "history_start": 0, "to_act": [], "legal": []}
    if game.status == Status.FINISHED:
        return {**base, **_finished_snapshot(game, user, start)}
    with _as_seen(game, user) as (entry, viewer, late):
        if start > len(entry.history):
            raise GameError("InvalidStart", f"the game has {len(entry.history)} history messages, not {start}")
        reveal = _reveal(game, user)
        engine = entry.engine
        seated = entry.seats or []
        waiting = [] if engine.is_over else engine.to_act()
        told, may_act = window.as_seen_by(game, engine, viewer) if waiting and not late else (waiting, True)
        return {
            **base,
            "v": entry.seq,
            "position": viewer,
            "players": state.players(seated),
            "view": engine.view(viewer, reveal_all=reveal),
            "history_start": start,
            "history": state.render_history(entry.history, viewer, reveal, start),
            "to_act": told,
            # A late picture's clocks would be the present's (or stale): a delayed spectator gets none.
            "clocks": None if late else clocks.describe(game, seated, waiting, clocks.now_ms()),
            # A seat whose answer to the open window is kept back has nothing more to decide.
            "legal": engine.legal_actions(viewer) if viewer is not None and may_act and not engine.is_over else [],
            "result": game.result,
        }


def _finished_snapshot(game: Game, user: User | None, start: int) -> dict[str, Any]:
    record = store.record_of(game)
    if start > len(record.history):
        raise GameError("InvalidStart", f"the game has {len(record.history)} history messages, not {start}")
    seated = state.seated(game)
    viewer = next((s.position for s in seated if user is not None and s.user_id == getattr(user, "id", None)), None)
    return {"position": viewer, "players": state.players(seated), "view": record.view(viewer),
            "history_start": start, "history": record.history[start:], "to_act": [],
            "clocks": clocks.describe(game, seated, [], clocks.now_ms()), "legal": [], "result": game.result}


def replay_step(game: Game, user: User | None, step: int, *, starts: bool = False) -> dict[str, Any]:
    """The state after the first ``step`` actions: all visible for a finished game, only the
    requester's view for one in progress. A finished game's also says which visible step that is
    (``frames.step_at``) and, with ``starts``, where each visible step begins."""
    if game.seed is None:
        raise Conflict("GameNotStarted", "the game has not started")
    viewer = viewer_position(game, user)
    steps = game.seq
    if viewer is None:
        cut = _delay_cut(game)  # a delayed table's spectators step only through what they have seen
        steps = steps if cut is None else min(steps, cut)
    if not 0 <= step <= steps:
        raise GameError("InvalidStep", f"step must be between 0 and {steps}")
    if game.is_over:
        return _stored_step(game, viewer, step, starts=starts)
    return {**logged_step(game, viewer, step, reveal=False), "steps": steps}


def logged_step(game: Game, viewer: int | None, step: int, *, reveal: bool) -> dict[str, Any]:
    """``replay_step`` from the log: the first ``step`` actions replayed. A game in progress is
    stepped so (only the viewer's own view, nothing revealed); a finished one only to check its
    replay frames against."""
    # Which step brought each message: a client finds where a part of the game (a riichi hand)
    # begins from one answer instead of one request per step. One int per message, as cheap as
    # the history itself.
    message_steps: list[int] = []
    entry = state.replay(game, upto=step, message_steps=message_steps)
    return {"game": game.id, "step": step, "steps": game.seq,
            "view": entry.engine.view(viewer, reveal_all=reveal),
            "history": state.render_history(entry.history, viewer, reveal),
            "message_steps": message_steps}


def _stored_step(game: Game, viewer: int | None, step: int, *, starts: bool = False) -> dict[str, Any]:
    """``replay_step`` of a game that is over, read from its record and replay frames: one chunk
    and at most ``frames.EVERY`` small patches, whatever the step; with ``starts``, the beginning
    of every chunk too (where each visible step begins: asked once by a replay page)."""
    fields = ("history", "message_steps", "frames_every")
    record = GameRecord.objects.filter(game=game).only(*fields).first()
    if record is None or record.message_steps is None:
        store.build_frames(game)
        record = GameRecord.objects.only(*fields).get(game=game)
    frame = ReplayFrame.objects.filter(game=game, chunk=step // record.frames_every)
    chunk = frame.values_list("data", flat=True).get()
    view, visible = frames.step_at(bytes(chunk), step % record.frames_every,
                                   frames.SPECTATOR if viewer is None else str(viewer))
    if visible is None:
        # Frames built before visible steps were: derived data, built again once.
        store.build_frames(game)
        return _stored_step(game, viewer, step, starts=starts)
    count = bisect.bisect_right(record.message_steps, step)
    answer = {"game": game.id, "step": step, "steps": game.seq, "view": view,
              "history": record.history[:count], "message_steps": record.message_steps[:count], **visible}
    if starts:
        chunks = ReplayFrame.objects.filter(game=game).order_by("chunk").values_list("data", flat=True)
        answer["visible_starts"] = frames.visible_starts(bytes(c) for c in chunks)
    return answer
