"""The stored end of a game: its record (``GameRecord``), written by the service in the transaction
that ends the game, and its replay frames (``ReplayFrame``), built by its first replay step; read back
by downloads, Snapshots and replays.
"""

from __future__ import annotations

import json
import zlib
from collections.abc import Iterator
from typing import Any

from django.conf import settings
from django.db import transaction

from games.core.errors import Conflict
from games.models import Game, GameRecord, ReplayFrame
from games.records import frames
from games.records import native as records
from games.records.frames import EVERY
from games.state import replay as state


def _record_fields(game: Game, entry: state.Replayed) -> dict[str, Any]:
    """A ``GameRecord``'s fields from the engine at the game's end: the game over as everybody
    now sees it (history and final views, all revealed), and its native record."""
    engine = entry.engine
    views = {str(s.position): engine.view(s.position, reveal_all=True) for s in entry.seats or []}
    views["spectator"] = engine.view(None, reveal_all=True)
    built = records.build(game, engine, entry.seats or [])
    kind, version, document = built if built is not None else ("", 0, None)
    return {"history": state.render_history(entry.history, None, True), "views": views,
            "format": kind, "version": version, "document": "" if document is None else records.dump(document)}


def rebuilt_record_fields(game: Game) -> dict[str, Any]:
    """What the game's record says when rebuilt from its log (``records.verify``)."""
    return _record_fields(game, state.with_seats(game, state.replay(game)))


def store_record(game: Game, entry: state.Replayed) -> GameRecord:
    """The record of a game that is over (``GameRecord``), written in the transaction of the
    action that ended it."""
    record, _ = GameRecord.objects.update_or_create(game=game, defaults=_record_fields(game, entry))
    if settings.RECORDS_VERIFY_ON_WRITE and (problems := verify(game, frames=False)):
        raise RuntimeError(f"game {game.id}'s record differs from its log: {'; '.join(problems)}")
    return record


def record_of(game: Game) -> GameRecord:
    """A game's stored record, as read back from the database (JSON: an Acquire tile map's int
    keys are strings, as every client reads them). A game that ended before records were kept,
    or was aborted (an abort replays nothing), gets one now: the log rebuilds it."""
    record = GameRecord.objects.filter(game=game).first()
    if record is None or (record.version == 0 and records.has_format(game)):  # older than records
        store_record(game, state.with_seats(game, state.replay(game)))
        record = GameRecord.objects.get(game=game)
    return record


def stored_record(game: Game) -> GameRecord:
    """The record of a game that is over, as stored: reading it replays nothing. Refused while the
    game is on: a record reveals everything."""
    if not game.is_over:
        raise Conflict("GameNotOver", "a game's record reveals everything; it is written when the game ends")
    return record_of(game)


def native_record(game: Game) -> Any:
    """The native record of a game that is over (Acquire's review array, riichi's paifu, the
    cribbage record), as stored."""
    return stored_record(game).native()


def rebuild_record(game: Game) -> GameRecord:
    """Write a game's record and replay frames afresh from its log (``manage.py records rebuild``)."""
    with transaction.atomic():
        record = store_record(game, state.with_seats(game, state.replay(game)))
    build_frames(game)
    return record


def frame_fields(game: Game) -> tuple[list[bytes], list[int]]:
    """A game's replay frames (``games/records/frames.py``) and the step of each history message, from
    its log: every step's views, spectator's and each seat's, all revealed, and its visible steps."""
    seats = state.seated(game)
    message_steps: list[int] = []

    def steps() -> Iterator[dict[str, Any]]:
        for entry in state.replaying(game, message_steps=message_steps):
            views: dict[str, Any] = {frames.SPECTATOR: entry.engine.view(None, reveal_all=True)}
            for seat in seats:
                views[str(seat.position)] = entry.engine.view(seat.position, reveal_all=True)
            # A message that changes no view still changes what the replay shows (its log).
            views[frames.HISTORY] = len(entry.history)
            yield views

    return list(frames.chunks(steps())), message_steps


def build_frames(game: Game) -> None:
    """Store the replay frames of a game that is over: replay steps are then read, not replayed.
    Built by the game's first replay step asked (games/service/reads.py), not when it ends: most
    games are never replayed, and building them is the one replay a game's replays cost (about
    90 ms of a server's time for an Acquire game; at 50 busy tables a fifth of its time went to
    frames nobody asked for). ``manage.py records rebuild`` builds them too."""
    record_of(game)  # a game aborted, or ended before records were kept, gets its record first
    chunks, message_steps = frame_fields(game)
    with transaction.atomic():
        Game.objects.select_for_update().filter(id=game.id).exists()  # one builder at a time
        ReplayFrame.objects.filter(game=game).delete()
        ReplayFrame.objects.bulk_create([ReplayFrame(game=game, chunk=n, data=data) for n, data in enumerate(chunks)])
        GameRecord.objects.filter(game=game).update(message_steps=message_steps, frames_every=frames.EVERY)


def verify(game: Game, *, frames: bool = True) -> list[str]:
    """Where the stored record of a game that is over differs from one rebuilt from its log
    (empty: they agree). A game without a stored record differs by that. With ``frames``, its
    replay frames are checked too, where they are built."""
    stored = GameRecord.objects.filter(game=game).first()
    if stored is None:
        return ["no record stored"]
    rebuilt = rebuilt_record_fields(game)
    problems = []
    if (stored.format, stored.version) != (rebuilt["format"], rebuilt["version"]):
        problems.append(f"format: stored {stored.format} v{stored.version}, "
                        f"rebuilt {rebuilt['format']} v{rebuilt['version']}")
    if stored.native() != (json.loads(rebuilt["document"]) if rebuilt["document"] else None):
        problems.append(f"{rebuilt['format']}: the stored document differs from the log's")
    if stored.history != records.canonical(rebuilt["history"]):
        problems.append("history: the stored history differs from the log's")
    if stored.views != records.canonical(rebuilt["views"]):
        problems.append("views: the stored final views differ from the log's")
    if frames and stored.frames_every:
        problems += _verify_frames(game, stored)
    return problems


def _verify_frames(game: Game, stored: GameRecord) -> list[str]:
    chunks, message_steps = frame_fields(game)
    problems = []
    if stored.message_steps != message_steps:
        problems.append("message_steps: the stored steps of the history messages differ from the log's")
    kept = list(ReplayFrame.objects.filter(game=game).order_by("chunk").values_list("data", flat=True))
    if stored.frames_every != EVERY or [_read(bytes(c)) for c in kept] != [_read(c) for c in chunks]:
        problems.append("frames: the stored replay frames differ from the log's")
    return problems


def _read(chunk: bytes) -> Any:
    try:
        return json.loads(zlib.decompress(chunk))
    except (zlib.error, ValueError):
        return None  # unreadable: differs from any frame the log gives

