"""Answers to a decision window, kept back until the window closes (docs/riichi-table.md, "The
timing rule").

A riichi discard opens a window: the game waits for every other seat to call or pass. Whether a
seat is asked at all, and how fast it answers, says whether it could call. So no answer of a
window shows before the window closes: an answer that leaves the window open is checked
(``Engine.check``), acknowledged to its sender and kept on the game row (``Game.window_answers``),
but neither applied to the engine nor written to the log. The answer that closes the window (the
last seat's, its clock running out, a seat the server plays) applies the kept ones first, in the
order they came, then itself, in one transaction: the log, ``seq``, the pushes and everything
derived from them change once per window, together, no sooner than the floor
(``games.service.moves._hold``).

Only the game service calls this module, with the row locked.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from games.core.engine import Engine
from games.models import Game


@dataclass(frozen=True)
class Kept:
    """One answer kept back: who, what, the seq it answered, when it came, and whether the server
    made it for the seat (a run-out clock, a forfeited or away seat)."""

    seat: int
    type: str
    params: list[Any]
    answers: int | None
    arrived: int
    auto: bool

    def row(self) -> list[Any]:
        return [self.seat, self.type, self.params, self.answers, self.arrived, self.auto]


def kept(game: Game) -> list[Kept]:
    return [Kept(*row) for row in game.window_answers or []]


def answered(game: Game) -> set[int]:
    """Positions whose answer to the open window is kept."""
    return {row[0] for row in game.window_answers or []}


def deciding(game: Game, engine: Engine) -> list[int]:
    """The seats the game really waits for: ``to_act`` less those whose answer is kept. Clocks,
    the seats the server plays and the floor go by this; everything shown goes by ``to_act``."""
    waiting = engine.to_act()
    done = answered(game)
    return [p for p in waiting if p not in done] if done else waiting


def as_seen_by(game: Game, engine: Engine, viewer: int | None) -> tuple[list[int], bool]:
    """What ``viewer`` is told of the seats the game waits for, and whether it may still act: a
    seat whose answer is kept knows it has answered (it is not waiting on itself, and has nothing
    left to decide); everyone else sees the window as it opened."""
    waiting = engine.to_act()
    if viewer is not None and viewer in answered(game):
        return [p for p in waiting if p != viewer], False
    return waiting, True


def _is_open(engine: Engine) -> bool:
    window = getattr(engine, "decision_window", None)
    return bool(window and window())


def keeps(game: Game, engine: Engine, seat: int | None) -> bool:
    """Whether ``seat``'s answer now is to be kept: a window is open, it is one of the seats the
    window waits for, and another seat is still to answer after it."""
    if seat is None or not _is_open(engine) or getattr(engine, "check", None) is None:
        return False
    waiting = deciding(game, engine)
    return seat in waiting and len(waiting) > 1


def keep(game: Game, engine: Engine, seat: int, action_type: str, params: list[Any], *, answers: int | None,
         arrived: int, auto: bool) -> None:
    """Keep ``seat``'s answer; ``Rejection`` (nothing kept) if the engine would refuse it."""
    engine.check(seat, action_type, params)  # type: ignore[attr-defined]
    game.window_answers = [*(game.window_answers or []),
                           Kept(seat, action_type, list(params), answers, arrived, auto).row()]


def take(game: Game) -> list[Kept]:
    """The kept answers, in the order they came, and none kept any more: the window is closing."""
    answers = kept(game)
    game.window_answers = []
    return answers


def check_closing(game: Game, engine: Engine, seat: int | None, action_type: str, params: list[Any]) -> None:
    """Before the kept answers are applied for a closing answer: ``Rejection`` if the engine would
    refuse the closing answer, so that a refused answer leaves the engine exactly as it was."""
    check = getattr(engine, "check", None)
    if game.window_answers and check is not None and seat is not None:
        check(seat, action_type, params)
