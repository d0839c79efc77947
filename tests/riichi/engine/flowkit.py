"""Helpers for the flow tests: stacked walls and a table driven by hand.

``wall(...)`` stacks a wall so that the four hands, the draws and the replacement draws come out
as given (Majiang's order: hands from the end, 13 tiles per seat starting with the dealer, then
the draws; replacement draws from the front; dora indicator at index 4); the tiles not named fill
the rest in a fixed shuffled order. ``Table`` wraps ``RiichiGame.from_walls`` (first dealer seat 0,
so seat = player id = position relative to the dealer in the first hand).
"""

from __future__ import annotations

import random
import re
from collections import Counter
from typing import Any

from games.riichi.engine.replay import make_shan
from games.riichi.engine.rule import rule as make_rule
from games.riichi.engine.shan import Shan, shan_pai
from games.riichi.engine.table import RiichiGame

_SUITSTR = re.compile(r"[mpsz][0-9]+")


def tiles(text: str) -> list[str]:
    return [part[0] + n for part in _SUITSTR.findall(text) for n in part[1:]]


def wall(
    rule: dict[str, Any],
    shoupai: list[str],
    zimo: str | list[str] = "",
    gangzimo: str | list[str] = "",
    baopai: str = "",
    seed: int = 7,
) -> Shan:
    """A wall dealing ``shoupai`` (4 hand strings, dealer first) and then the draws ``zimo`` (a
    string of tiles or a list), replacement draws ``gangzimo``, first dora indicator ``baopai``."""
    draws = tiles(zimo) if isinstance(zimo, str) else list(zimo)
    kans = tiles(gangzimo) if isinstance(gangzimo, str) else list(gangzimo)
    log: list[dict[str, Any]] = [{"qipai": {"shoupai": shoupai, "baopai": baopai or "_"}}]
    log += [{"zimo": {"p": p}} for p in draws]
    log += [{"gangzimo": {"p": p}} for p in kans]
    shan = make_shan(rule, log)
    pai = shan._pai
    left = Counter(shan_pai(rule))
    left.subtract(p for p in pai if p != "_")
    assert all(n >= 0 for n in left.values()), f"too many copies: {-left}"
    rest = sorted(left.elements())
    random.Random(seed).shuffle(rest)
    for i, p in enumerate(pai):
        if p == "_":
            pai[i] = rest.pop()
    return Shan(rule, pai)


class Table:
    """A ``RiichiGame`` over stacked walls, with short-hands for acting."""

    def __init__(self, walls: list[Shan], rule: dict[str, Any] | None = None, qijia: int = 0) -> None:
        self.rule = rule or make_rule()
        self.game = RiichiGame.from_walls(walls, rule=self.rule, qijia=qijia)
        self.events: list[Any] = []
        for seat, action, params in self.game.initial_actions():
            self.act(seat, action, *params)

    @property
    def flow(self):  # the core Game
        return self.game.game

    def act(self, seat: int, action: str, *params: Any) -> list[Any]:
        events = self.game.apply(seat, action, list(params))
        self.events += events
        return events

    def legal(self, seat: int) -> list[dict[str, Any]]:
        return self.game.legal_actions(seat)

    def can(self, seat: int, action: str, *params: Any) -> bool:
        return any(a["type"] == action and a["params"] == list(params) and a.get("allowed", True)
                   for a in self.legal(seat))

    def blocked(self, seat: int) -> str | None:
        """Why ``seat`` may not win on its winning shape, if that is the case."""
        for a in self.legal(seat):
            if a["type"] == "hule" and a.get("allowed") is False:
                return a["reason"]
        return None

    def pass_all(self, *, but: tuple[int, ...] = ()) -> None:
        for seat in list(self.game.to_act()):
            if seat not in but:
                self.act(seat, "pass")

    def discard(self, seat: int, p: str) -> None:
        """``seat`` discards ``p``; then every other seat passes."""
        self.act(seat, "dapai", p)
        self.pass_all()

    def records(self, kind: str | None = None, hand: int = 0) -> list[dict[str, Any]]:
        """The records of a hand (the first by default), or those of one kind."""
        hand = self.flow.paipu["log"][hand]
        return [r for r in hand if kind is None or kind in r]

    def last(self) -> dict[str, Any]:
        return self.flow.paipu["log"][-1][-1]

    def hands(self) -> int:
        return len(self.flow.paipu["log"])


def random_wall(rule: dict[str, Any], seed: int = 1) -> Shan:
    return Shan.shuffled(rule, random.Random(seed))


def rule(**overrides: Any) -> dict[str, Any]:
    return make_rule(overrides)
