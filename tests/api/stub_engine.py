"""A tiny engine honouring ``games.core.engine.Engine``, so the API's live-game paths can be tested
independently of any real game.

Each seat is dealt a secret number (visible only to that seat); seats then take turns adding 1..3
to a public total; the game ends when the total reaches ``TARGET``.
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

from games.core.engine import Event, Mode, Rejection

TARGET = 6


class StubGame:
    game_type: ClassVar[str] = "stub"

    def __init__(self, mode: Mode, seed: int) -> None:
        self.mode = mode
        self.rng = random.Random(seed)
        self.secrets: list[int] = []
        self.total = 0
        self.turn = 0
        self.dealt = False

    @classmethod
    def create(cls, *, mode: Mode, seed: int, rules: dict[str, Any]) -> StubGame:
        return cls(mode, seed)

    def initial_actions(self) -> list[tuple[int | None, str, list[Any]]]:
        return [(None, "Deal", [])]

    def apply(self, seat: int | None, action_type: str, params: list[Any]) -> list[Event]:
        if action_type == "Deal" and not self.dealt:
            self.dealt = True
            self.secrets = [self.rng.randint(100, 999) for _ in range(self.mode.seats)]
            return [Event("Dealt", p, [s], visible_to=frozenset({p}), hidden_params=[None])
                    for p, s in enumerate(self.secrets)]
        if action_type != "Add" or self.is_over:
            raise Rejection(f"cannot {action_type} now")
        if seat != self.turn:
            raise Rejection("not your turn")
        if len(params) != 1 or params[0] not in (1, 2, 3) or isinstance(params[0], bool):
            raise Rejection("add 1, 2 or 3")
        self.total += params[0]
        self.turn = (self.turn + 1) % self.mode.seats
        events = [Event("Added", seat, [params[0], self.total])]
        if self.is_over:
            events.append(Event("GameOver", None, [self.total]))
        return events

    def to_act(self) -> list[int]:
        return [] if self.is_over else [self.turn]

    def legal_actions(self, seat: int) -> list[dict[str, Any]]:
        if self.is_over or seat != self.turn:
            return []
        return [{"type": "Add", "params": [n]} for n in (1, 2, 3)]

    def auto_action(self, seat: int) -> tuple[str, list[Any]]:
        return "Add", [1]

    def view(self, viewer: int | None, reveal_all: bool = False) -> dict[str, Any]:
        return {
            "total": self.total,
            "turn": self.turn,
            "secrets": [s if reveal_all or viewer == p else None for p, s in enumerate(self.secrets)],
        }

    @property
    def is_over(self) -> bool:
        return self.total >= TARGET

    def result(self) -> dict[str, Any]:
        return {"total": self.total, "last": (self.turn - 1) % self.mode.seats}
