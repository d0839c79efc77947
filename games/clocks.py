"""Time control: each seat's clock, charged while the game waits for that seat.

A game is timed when ``Game.time_start`` is set: every seat starts with that many seconds and
gains ``time_increment`` seconds after each of its own moves. All seats the game waits for run
at once (riichi call decisions wait for several); ``Game.clock_since_ms`` is when they started
running, and ``Game.deadline_ms`` the moment the first of them runs out. Both are stored, so a
restarted server (or any other process) finds and enforces the deadline.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from .models import Game, Seat


def is_timed(game: Game) -> bool:
    return game.time_start is not None


def start(game: Game, seats: Iterable[Seat], now: int) -> None:
    if not is_timed(game):
        return
    for seat in seats:
        seat.clock_ms = game.time_start * 1000
    game.clock_since_ms = now


def charge(game: Game, by_position: dict[int, Seat], waiting: Iterable[int], mover: int | None, at: int) -> None:
    """An action by ``mover`` at ``at``: the waiting seats pay for the time since their clocks
    started, the mover gains the increment, and the clocks restart from ``at``."""
    if not is_timed(game) or game.clock_since_ms is None:
        return
    elapsed = max(0, at - game.clock_since_ms)
    for position in waiting:
        seat = by_position[position]
        seat.clock_ms = max(0, (seat.clock_ms or 0) - elapsed)
    if mover in by_position:
        by_position[mover].clock_ms += game.time_increment * 1000
    game.clock_since_ms = at


def first_expiry(game: Game, by_position: dict[int, Seat], waiting: Iterable[int]) -> tuple[int, int] | None:
    """(moment, position) at which the first waiting seat runs out, if the game is timed."""
    if not is_timed(game) or game.clock_since_ms is None:
        return None
    moments = [(game.clock_since_ms + (by_position[p].clock_ms or 0), p) for p in waiting if p in by_position]
    return min(moments) if moments else None


def set_deadline(game: Game, by_position: dict[int, Seat], waiting: list[int]) -> None:
    expiry = first_expiry(game, by_position, waiting)
    game.deadline_ms = expiry[0] if expiry else None


def describe(game: Game, seats: Iterable[Seat], waiting: Iterable[int], now: int) -> list[dict[str, Any]] | None:
    """Every seat's clock as of ``now``, for every player to see (``None`` when untimed)."""
    if not is_timed(game):
        return None
    running = set(waiting)
    out = []
    for seat in seats:
        remaining = seat.clock_ms or 0
        if seat.position in running and game.clock_since_ms is not None:
            remaining = max(0, remaining - max(0, now - game.clock_since_ms))
        out.append({"position": seat.position, "remaining_ms": remaining, "running": seat.position in running})
    return out
