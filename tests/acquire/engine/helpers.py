"""Small helpers for building Acquire positions in tests."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from games.acquire.engine import AcquireGame
from games.core.engine import Event


def cells(chain: int | str, *tiles: str) -> dict[str, int | str]:
    """``{"1A": chain, "2A": chain, ...}`` for a board mapping."""
    return {t: chain for t in tiles}


def column(col: int, rows: str) -> list[str]:
    """Tile names of one column, e.g. ``column(3, "CDEFGHI")``."""
    return [f"{col}{r}" for r in rows]


def position(
    seats: int = 2,
    *,
    board: dict[Any, Any] | None = None,
    racks: Sequence[Sequence[Any]] | None = None,
    cash: Sequence[int] | None = None,
    shares: Sequence[Sequence[int]] | None = None,
    bag: Sequence[Any] | None = None,
    turn: int = 0,
    mode: int | None = None,
) -> AcquireGame:
    return AcquireGame.from_position(
        mode if mode is not None else seats,
        board=board or {},
        racks=racks if racks is not None else [[] for _ in range(seats)],
        cash=cash,
        shares=shares,
        bag=bag,
        turn=turn,
    )


def types(events: Iterable[Event]) -> list[str]:
    return [e.type for e in events]


def find(events: Iterable[Event], kind: str) -> list[Event]:
    return [e for e in events if e.type == kind]


def no_shares(seats: int) -> list[list[int]]:
    return [[0] * 7 for _ in range(seats)]
