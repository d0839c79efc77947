"""The reference game (``reference_game.json``) stored as a finished game of the site, seated by
four users, for the review's service, API and browser tests: its rows made directly from the kept
action log, as a game played to its end would have left them (the record is built on first read)."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from games.core.engine import Mode
from games.models import Action, Game, Seat, Status
from games.riichi.engine.table import RiichiGame

REFERENCE = json.loads((Path(__file__).parent / "reference_game.json").read_text())
ENDED = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)


def reference_game(users: list[Any], *, status: str = Status.FINISHED, upto: int | None = None) -> Game:
    """The reference game at ``users``' table; ``upto`` actions of it (all by default): a game
    cut short of its end is one in progress."""
    logged = REFERENCE["actions"][:upto]
    engine = RiichiGame.create(mode=Mode(4, "Four players", 4), seed=REFERENCE["seed"], rules=REFERENCE["rules"])
    messages = 0
    for seat, kind, params in logged:
        messages += len(engine.apply(seat, kind, params))
    over = engine.is_over
    game = Game.objects.create(game_type="riichi", mode=4, status=status, seed=REFERENCE["seed"],
                               rules=REFERENCE["rules"], host=users[0], seq=len(logged), history_size=messages,
                               started=ENDED - timedelta(minutes=30), ended=ENDED if over else None,
                               result=engine.result() if over else None)
    for position, user in enumerate(users):
        Seat.objects.create(game=game, user=user, slot=position, position=position, accepted=True)
    Action.objects.bulk_create([
        Action(game=game, seq=seq, seat=seat, type=kind, params=params, timestamp_ms=1_772_000_000_000 + seq)
        for seq, (seat, kind, params) in enumerate(logged, 1)])
    return game
