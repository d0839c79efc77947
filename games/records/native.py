"""Finished games' native records: which format each game type writes, and checking the stored
ones against the log.

When a game ends, the service stores its record (``GameRecord``) in the transaction of the action
that ended it: the revealed history and final views every finished-game read serves, and the game
type's native record, the download a player's tools read (``GameType.record_path``):

========  =================  ===========================================================
type      format             document
========  =================  ===========================================================
acquire   acquire-review     seed 003's game review array (games/acquire/records/review_io.py)
riichi    majiang-paifu      majiang-core's paifu, usernames and ``rule`` added
                             (games/riichi/records/paifu_io.py)
cribbage  cribbage-record    docs/records-cribbage.md (games/cribbage/records/record_io.py)
========  =================  ===========================================================

A record is derived data: the log stays the truth. ``verify`` rebuilds a record from the log and
lists where the stored one differs; ``manage.py records verify|rebuild`` runs it over games. The
replay frames (``ReplayFrame``, games/records/frames.py), built once the game has ended, are checked and
rebuilt with the record.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from games.core.engine import Engine
from games.core.registry import get_game_type
from games.models import Game, Seat


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


def canonical(value: Any) -> Any:
    # What the database hands back: JSON, so int keys are strings and tuples are lists.
    return json.loads(json.dumps(value))
