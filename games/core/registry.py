"""The game types the site knows: their names, seating modes and engines."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from importlib import import_module
from typing import Any

from games.core.engine import Engine, Mode


@dataclass(frozen=True)
class GameType:
    key: str
    name: str
    modes: tuple[Mode, ...]
    engine_path: str | None  # "module:Class"; None while the game has no engine yet
    bot_path: str | None = None  # "module:function" choosing (type, params) from (view, legal, rng)
    # Platform rules the lobby adds when it starts a game of this type (reserved: hosts cannot
    # set them); its engine reads them. A game started before one was added replays without it.
    start_rules: dict[str, Any] = field(default_factory=dict)
    # "module:function" writing a finished game's native record from (game, engine at its end,
    # the seated seats in position order, users loaded): (format, version, document).
    record_path: str | None = None

    @property
    def playable(self) -> bool:
        return self.engine_path is not None

    def mode(self, mode_id: int) -> Mode | None:
        return next((m for m in self.modes if m.id == mode_id), None)

    def engine_class(self) -> type[Engine]:
        if self.engine_path is None:
            raise LookupError(f"{self.name} cannot be played yet")
        module, _, name = self.engine_path.partition(":")
        return getattr(import_module(module), name)

    def bot(self) -> Callable[[dict[str, Any], list[dict[str, Any]], random.Random], tuple[str, list[Any]]]:
        if self.bot_path is None:
            raise LookupError(f"{self.name} has no bot yet")
        module, _, name = self.bot_path.partition(":")
        return getattr(import_module(module), name)

    def record_builder(self) -> Callable[..., tuple[str, int, Any]]:
        if self.record_path is None:
            raise LookupError(f"{self.name} has no record format")
        module, _, name = self.record_path.partition(":")
        return getattr(import_module(module), name)

    def describe(self) -> dict[str, Any]:
        return {
            "key": self.key,
            "name": self.name,
            "playable": self.playable,
            "has_bot": self.bot_path is not None,
            "modes": [{"id": m.id, "name": m.name, "seats": m.seats, "teams": m.teams} for m in self.modes],
        }


ACQUIRE_MODES = tuple(Mode(n, f"Singles {n}", n) for n in range(1, 7)) + (
    Mode(7, "Teams 2 vs 2", 4, 2),
    Mode(8, "Teams 2 vs 2 vs 2", 6, 3),
    Mode(9, "Teams 3 vs 3", 6, 2),
)

GAME_TYPES: dict[str, GameType] = {
    gt.key: gt
    for gt in (
        GameType("acquire", "Acquire", ACQUIRE_MODES, "games.acquire.engine.game:AcquireGame",
                 "games.acquire.bots.house:choose", record_path="games.acquire.records.review_io:native_record"),
        GameType("riichi", "Riichi mahjong", (Mode(4, "Four players", 4),), "games.riichi.engine.table:RiichiGame",
                 "games.riichi.bots.house:choose", start_rules={"hand_end_ack": True},
                 record_path="games.riichi.records.paifu_io:native_record"),
        GameType(
            "cribbage",
            "Cribbage",
            (Mode(2, "Two players", 2), Mode(3, "Three players", 3), Mode(4, "Teams 2 vs 2", 4, 2)),
            "games.cribbage.engine.game:CribbageGame",
            "games.cribbage.bots.house:choose",
            record_path="games.cribbage.records.record_io:native_record",
        ),
    )
}


def get_game_type(key: str) -> GameType | None:
    return GAME_TYPES.get(key)


def playable_game_types() -> list[GameType]:
    return [gt for gt in GAME_TYPES.values() if gt.playable]
