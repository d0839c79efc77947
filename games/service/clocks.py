"""Time control: each seat's clock, charged while the game waits for that seat.

Two kinds, chosen when the table is created (docs/lobby.md, "Time control"):

- **Fischer** (``Game.time_start`` set): every seat starts with ``time_start`` seconds and gains
  ``time_increment`` seconds after each of its own moves; ``Seat.clock_ms`` is its time left.
- **Per decision with a bank**, majiang-server's ``[limit, allowed]`` (``Game.time_per_decision``
  set): each decision may take ``time_per_decision`` seconds; time beyond that comes out of the
  seat's bank (``Seat.bank_ms``, ``time_bank`` seconds, filled again at the start of every hand
  of a game that has hands, ``hands_dealt()``); when both are used up the server plays for it.
  Exactly as majiang-server (lib/game.js) does it: a decision's deadline is ``limit + bank``
  seconds plus half a second of grace after it was asked, and what is left of the bank when the
  seat answers is rounded up to whole seconds. Here ``Seat.clock_ms`` is the time left for the
  current decision (limit, bank and grace together).

All seats the game waits for run at once (riichi's call decisions wait for three);
``Game.clock_since_ms`` is when they last started or were charged, and ``Game.deadline_ms`` the
moment the first of them runs out. Both are stored, so a restarted server (or any other process)
finds and enforces the deadline.
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from typing import Any

from games.core.errors import GameError
from games.models import Game, Seat

# A decision's own time, and a bank per hand: an hour is far beyond any table's wish, and keeps
# a mistyped number from freezing a table for days.
MAX_DECISION_SECONDS = 3600
MAX_BANK_SECONDS = 3600
# majiang-server adds half a second to every timed decision, so that an answer sent at the last
# moment still counts; it is the server's allowance for the network, not shown to players.
GRACE_MS = 500


def now_ms() -> int:
    """The service's clock, in ms since the epoch (tests freeze it here)."""
    return time.time_ns() // 1_000_000


def is_timed(game: Game) -> bool:
    return game.time_start is not None or game.time_per_decision is not None


def per_decision(game: Game) -> bool:
    """Whether the game's clock is majiang-server's (a time per decision plus a bank)."""
    return game.time_per_decision is not None


def time_control(value: Any) -> tuple[int, int] | None:
    """A ``time_control`` request field (``{"per_decision": s, "bank": s}``, or null for none)
    as ``(per_decision, bank)`` seconds; anything else is ``InvalidTimeControl`` saying why."""
    if value is None:
        return None
    if not isinstance(value, dict):
        raise GameError("InvalidTimeControl", 'time_control is an object {"per_decision": s, "bank": s}, or null')
    unknown = sorted(set(value) - {"per_decision", "bank"})
    if unknown:
        raise GameError("InvalidTimeControl", f"time_control has no {', '.join(map(repr, unknown))}; "
                        "it takes per_decision and bank")
    if "per_decision" not in value:
        raise GameError("InvalidTimeControl", "time_control needs per_decision (seconds)")
    limit = _seconds(value["per_decision"], "per_decision", 1, MAX_DECISION_SECONDS)
    bank = _seconds(value.get("bank", 0), "bank", 0, MAX_BANK_SECONDS)
    return limit, bank


def _seconds(value: Any, name: str, low: int, high: int) -> int:
    # A JSON integer only: true, 5.0 and "5" are refused, never read as 1 or 5.
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        shown = repr(value)
        shown = shown if len(shown) <= 40 else shown[:37] + "..."  # the reason echoes it: keep it short
        raise GameError("InvalidTimeControl", f"time_control {name} is a whole number of seconds from {low} to "
                        f"{high}, not {shown}")
    return value


def describe_control(game: Game) -> dict[str, int] | None:
    """The table's ``time_control`` as requested (None unless the clock is per decision)."""
    if not per_decision(game):
        return None
    return {"per_decision": game.time_per_decision, "bank": game.time_bank}


def label(game: Game) -> str:
    """The table's clock in a few words, as the lobby's cards say it (static/js/render.js,
    ``clockLabel``): "10 min + 5 s", "90 s", "5 + 20 s" (per decision + bank), "Untimed"."""
    if per_decision(game):
        return f"{game.time_per_decision} + {game.time_bank} s"
    if game.time_start is None:
        return "Untimed"
    start = f"{game.time_start // 60} min" if game.time_start % 60 == 0 else f"{game.time_start} s"
    return f"{start} + {game.time_increment} s" if game.time_increment else start


def seat_fields(game: Game) -> list[str]:
    """The ``Seat`` columns the clocks change, saved with every move of a timed game."""
    return ["clock_ms", "bank_ms"] if per_decision(game) else ["clock_ms"]


def hands_dealt(engine: Any) -> int | None:
    """The engine's count of hands dealt (an optional engine method), None for games without."""
    hands = getattr(engine, "hands_dealt", None)
    return hands() if hands is not None else None


def _decision_ms(game: Game, seat: Seat) -> int:
    """A new decision's time: the limit, the seat's bank and the grace."""
    return game.time_per_decision * 1000 + (seat.bank_ms or 0) + GRACE_MS


def start(game: Game, seats: Iterable[Seat], now: int) -> None:
    if not is_timed(game):
        return
    for seat in seats:
        if per_decision(game):
            seat.bank_ms = game.time_bank * 1000
            seat.clock_ms = _decision_ms(game, seat)
        else:
            seat.clock_ms = game.time_start * 1000
    game.clock_since_ms = now


def charge(game: Game, by_position: dict[int, Seat], waiting: Iterable[int], mover: int | None, at: int,
           engine: Any = None, hand: int | None = None, restart: int | None = None) -> None:
    """An action by ``mover`` at ``at``: the waiting seats pay for the time since their clocks
    started, and the clocks restart from ``restart`` (default ``at``; later when the action was
    held back, moves.Hold, so that nobody pays for the hold). Fischer: the mover gains the increment. Per
    decision: the mover keeps what is left of its bank (rounded up to whole seconds); ``engine``
    (after the action) tells which seats now face a new decision, and a change of its
    ``hands_dealt()`` from ``hand`` (before the action) fills every bank again."""
    if not is_timed(game) or game.clock_since_ms is None:
        return
    waiting = set(waiting)
    elapsed = max(0, at - game.clock_since_ms)
    for position in waiting:
        seat = by_position[position]
        seat.clock_ms = max(0, (seat.clock_ms or 0) - elapsed)
    game.clock_since_ms = at if restart is None else max(at, restart)
    if not per_decision(game):
        if mover in by_position:
            by_position[mover].clock_ms += game.time_increment * 1000
        return
    if mover in waiting:
        seat = by_position[mover]
        # majiang-server: allowed = ceil(min(max(left, 0), allowed)), ``left`` counting the grace.
        left_rounded_up = -(-seat.clock_ms // 1000) * 1000
        seat.bank_ms = min(seat.bank_ms or 0, left_rounded_up)
    new_hand = engine is not None and hand is not None and hands_dealt(engine) != hand
    if new_hand:
        for seat in by_position.values():
            seat.bank_ms = game.time_bank * 1000
    after = [] if engine is None or engine.is_over else engine.to_act()
    for position in after:
        # A seat still waiting on the same question keeps its running decision; a seat asked
        # anew (or again, having just answered), or any seat in a new hand, starts one.
        if position in by_position and (new_hand or position == mover or position not in waiting):
            by_position[position].clock_ms = _decision_ms(game, by_position[position])


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
    """Every seat's clock as of ``now``, for every player to see (``None`` when untimed).

    Each entry: ``position``, ``remaining_ms`` (time left before the server plays for the seat;
    for a stopped seat, what it has for its next decision) and ``running``. A per-decision clock
    also splits it into ``per_decision_ms`` (this decision's own time left, spent first) and
    ``bank_ms`` (the bank left), so a page can show "5 + 20 s"; the grace is not shown."""
    if not is_timed(game):
        return None
    running = set(waiting)
    out = []
    for seat in seats:
        remaining = seat.clock_ms or 0
        live = seat.position in running and game.clock_since_ms is not None
        if live:
            remaining = max(0, remaining - max(0, now - game.clock_since_ms))
        entry: dict[str, Any] = {"position": seat.position, "remaining_ms": remaining,
                                 "running": seat.position in running}
        if per_decision(game):
            limit, bank = game.time_per_decision * 1000, seat.bank_ms or 0
            left = min(limit + bank, max(0, remaining - GRACE_MS)) if live else limit + bank
            entry.update(remaining_ms=left, per_decision_ms=max(0, left - bank), bank_ms=min(bank, left))
        out.append(entry)
    return out
