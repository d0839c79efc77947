"""The game types the site knows: their names, seating modes and engines."""

from __future__ import annotations

import functools
import os
import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from importlib import import_module
from typing import Any

from games.core.engine import Engine, Mode

# A bot's chooser: (type, params) from (its seat's view, the legal actions, a seeded rng).
Choose = Callable[[dict[str, Any], list[dict[str, Any]], random.Random], tuple[str, list[Any]]]


@functools.cache
def _load(path: str) -> Any:
    """The object ``path`` ("module:name") names, imported once: the server asks for a bot's
    chooser at every step it plays."""
    module, _, name = path.partition(":")
    return getattr(import_module(module), name)


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
    # Platform rules added as well when the table named its deal seed (a bot bench's, lobby.DEAL_SEED):
    # how the game deals so that two tables reaching the same point are dealt alike.
    deal_seed_rules: dict[str, Any] = field(default_factory=dict)
    # "module:function" writing a finished game's native record from (game, engine at its end,
    # the seated seats in position order, users loaded): (format, version, document).
    record_path: str | None = None
    # "module:name" of the game's bot levels, a dict of level name -> chooser (as ``bot_path``'s);
    # each level plays as accounts of its own (games/core/bots.py). None: the house bot only.
    levels_path: str | None = None

    @property
    def playable(self) -> bool:
        return self.engine_path is not None

    def mode(self, mode_id: int) -> Mode | None:
        return next((m for m in self.modes if m.id == mode_id), None)

    def engine_class(self) -> type[Engine]:
        if self.engine_path is None:
            raise LookupError(f"{self.name} cannot be played yet")
        return _load(self.engine_path)

    def bot(self) -> Choose:
        if self.bot_path is None:
            raise LookupError(f"{self.name} has no bot yet")
        return _load(self.bot_path)

    def bot_levels(self) -> Mapping[str, Choose]:
        """The bot levels a host or Play now may choose, by name, in their order; empty if none."""
        return {} if self.levels_path is None else _load(self.levels_path)

    def record_builder(self) -> Callable[..., tuple[str, int, Any]]:
        if self.record_path is None:
            raise LookupError(f"{self.name} has no record format")
        return _load(self.record_path)

    def describe(self) -> dict[str, Any]:
        return {
            "key": self.key,
            "name": self.name,
            "playable": self.playable,
            "has_bot": self.bot_path is not None,
            # The names AddBot's "bot" and Play now's "bot_level" take, weakest first (docs/bots.md).
            "bot_levels": list(self.bot_levels()),
            "modes": [{"id": m.id, "name": m.name, "seats": m.seats, "teams": m.teams} for m in self.modes],
        }


ACQUIRE_MODES = tuple(Mode(n, f"Singles {n}", n) for n in range(1, 7)) + (
    Mode(7, "Teams 2 vs 2", 4, 2),
    Mode(8, "Teams 2 vs 2 vs 2", 6, 3),
    Mode(9, "Teams 3 vs 3", 6, 2),
)

# The riichi house bot's chooser, "module:function". ``RIICHI_HOUSE_BOT`` overrides it for the
# whole process (``bench/bot_strength.py --house-bot`` sets it for its server child, to pit
# another chooser such as ``games.riichi.bots.strong:choose`` against majiang-ai); unset, the
# house bot plays.
RIICHI_HOUSE_BOT = os.environ.get("RIICHI_HOUSE_BOT") or "games.riichi.bots.house:choose"

GAME_TYPES: dict[str, GameType] = {
    gt.key: gt
    for gt in (
        GameType("acquire", "Acquire", ACQUIRE_MODES, "games.acquire.engine.game:AcquireGame",
                 "games.acquire.bots.house:choose", record_path="games.acquire.records.review_io:native_record"),
        GameType("riichi", "Riichi mahjong", (Mode(4, "Four players", 4),), "games.riichi.engine.table:RiichiGame",
                 RIICHI_HOUSE_BOT, start_rules={"hand_end_ack": True}, deal_seed_rules={"walls_by_hand": True},
                 record_path="games.riichi.records.paifu_io:native_record",
                 levels_path="games.riichi.bots.levels:LEVELS"),
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
