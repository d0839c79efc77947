"""Finished games' native records: which format each game type writes, and checking the stored
ones against the log.

When a game ends, the service stores its record (``GameRecord``) in the transaction of the action
that ended it: the revealed history and final views every finished-game read serves, and the game
type's native record, the download a player's tools read (``GameType.record_path``):

========  =================  ===========================================================
type      format             document
========  =================  ===========================================================
acquire   acquire-review     seed 003's game review array (games/acquire/review_io.py)
riichi    majiang-paifu      majiang-core's paifu, usernames and ``rule`` added
                             (games/riichi/paifu_io.py)
cribbage  cribbage-record    docs/records-cribbage.md (games/cribbage/record_io.py)
========  =================  ===========================================================

A record is derived data: the log stays the truth. ``verify`` rebuilds a record from the log and
lists where the stored one differs; ``manage.py records verify|rebuild`` runs it over games. The
replay frames (``ReplayFrame``, games/frames.py), built once the game has ended, are checked and
rebuilt with the record.
"""

from __future__ import annotations

import json
import zlib
from collections.abc import Sequence
from typing import Any

from .engine import Engine
from .frames import EVERY
from .models import Game, GameRecord, ReplayFrame, Seat
from .registry import get_game_type


def has_format(game: Game) -> bool:
    """Does the game's type write a native record?"""
    game_type = get_game_type(game.game_type)
    return game_type is not None and game_type.record_path is not None


def build(game: Game, engine: Engine, seats: Sequence[Seat]) -> tuple[str, int, Any] | None:
    """The game's native record from its engine at its end: (format, version, document), or None
    for a type that has none."""
    if not has_format(game):
        return None
    return get_game_type(game.game_type).record_builder()(game, engine, seats)


def dump(document: Any) -> str:
    """A native record as stored and downloaded: JSON text, its keys in the order written."""
    return json.dumps(document, ensure_ascii=False, separators=(",", ":"))


def _canonical(value: Any) -> Any:
    # What the database hands back: JSON, so int keys are strings and tuples are lists.
    return json.loads(json.dumps(value))


def verify(game: Game, *, frames: bool = True) -> list[str]:
    """Where the stored record of a game that is over differs from one rebuilt from its log
    (empty: they agree). A game without a stored record differs by that. With ``frames``, its
    replay frames are checked too, where they are built."""
    from . import services  # the service rebuilds games from their logs

    stored = GameRecord.objects.filter(game=game).first()
    if stored is None:
        return ["no record stored"]
    rebuilt = services.rebuilt_record_fields(game)
    problems = []
    if (stored.format, stored.version) != (rebuilt["format"], rebuilt["version"]):
        problems.append(f"format: stored {stored.format} v{stored.version}, "
                        f"rebuilt {rebuilt['format']} v{rebuilt['version']}")
    if stored.native() != (json.loads(rebuilt["document"]) if rebuilt["document"] else None):
        problems.append(f"{rebuilt['format']}: the stored document differs from the log's")
    if stored.history != _canonical(rebuilt["history"]):
        problems.append("history: the stored history differs from the log's")
    if stored.views != _canonical(rebuilt["views"]):
        problems.append("views: the stored final views differ from the log's")
    if frames and stored.frames_every:
        problems += _verify_frames(game, stored)
    return problems


def _verify_frames(game: Game, stored: GameRecord) -> list[str]:
    from . import services

    chunks, message_steps = services.frame_fields(game)
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


__all__ = ["build", "dump", "has_format", "verify"]
