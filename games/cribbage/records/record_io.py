"""A finished cribbage game's record (games/cribbage/records/record.py) from the platform's stored game,
for ``GameRecord`` (``GameType.record_path``) and the record download."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from games.cribbage.engine import CribbageGame
from games.cribbage.records.record import FORMAT, VERSION, build_record
from games.models import Game, Seat
from games.state import replay as state


def native_record(game: Game, engine: CribbageGame, seats: Sequence[Seat]) -> tuple[str, int, dict[str, Any]]:
    """The record replays the log on a fresh engine (the record is made of the engine's events,
    which the engine at the end no longer holds); once, when the game ends."""
    actions = game.actions.order_by("seq").values_list("seat", "type", "params")
    return FORMAT, VERSION, build_record(state.new_engine(game), actions, [s.user.username for s in seats])
