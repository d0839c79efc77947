"""The wall (shan), as ``Majiang.Shan``, over a tile order the caller supplies.

Majiang shuffles with ``Math.random``; a server must be reproducible, so ``Shan`` takes the 136
tiles in wall order and ``Shan.shuffled(rule, rng)`` shuffles them with a seeded
``random.Random`` (same method as Majiang: repeatedly take a random remaining tile).

Order: ordinary draws ``pop()`` from the end; replacement draws after a kan take from the front
(``pop(0)``); the dora indicator is ``_pai[4]`` and the ura indicator ``_pai[9]``, and each
kan's new indicators are read at the same indices after the front has moved. 14 tiles stay
behind: ``paishu`` is what can still be drawn.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from games.riichi.engine.tile import zhenbaopai


def shan_pai(rule: Mapping[str, Any]) -> list[str]:
    """All 136 tiles in Majiang's unshuffled order; 赤牌 decides how many fives of each suit are
    red (``'m0'``)."""
    hongpai = rule["赤牌"]
    pai: list[str] = []
    for s in ("m", "p", "s", "z"):
        for n in range(1, 8 if s == "z" else 10):
            for i in range(4):
                pai.append(s + "0" if n == 5 and i < hongpai.get(s, 0) else s + str(n))
    return pai


def spare_tiles(rule: Mapping[str, Any], pai: Sequence[str]) -> list[str]:
    """The tiles of the rule's set a wall rebuilt from a record does not show (its unknown tiles
    are ``'_'``), in Majiang's unshuffled order: what fills those places, always alike. A wall
    showing tiles beyond the set is a ValueError."""
    known = Counter(p for p in pai if p != "_")
    whole = Counter(shan_pai(rule))
    extra = known - whole
    if extra:
        raise ValueError(f"tiles beyond the rule's set (赤牌 {rule['赤牌']}): {dict(extra)}")
    return list((whole - known).elements())


class Shan:
    __slots__ = ("_rule", "_pai", "_baopai", "_fubaopai", "_weikaigang", "_closed")

    zhenbaopai = staticmethod(zhenbaopai)

    def __init__(self, rule: Mapping[str, Any], pai: Sequence[str]) -> None:
        if len(pai) != 136:
            raise ValueError("a wall has 136 tiles")
        self._rule = rule
        self._pai = list(pai)
        self._baopai: list[str] = [self._pai[4]]
        # 裏ドラあり: without it there are no ura indicators at all (fubaopai stays None).
        self._fubaopai: list[str] | None = [self._pai[9]] if rule["裏ドラあり"] else None
        self._weikaigang = False
        self._closed = False

    @classmethod
    def shuffled(cls, rule: Mapping[str, Any], rng: random.Random) -> Shan:
        pai = shan_pai(rule)
        order: list[str] = []
        while pai:
            order.append(pai.pop(int(rng.random() * len(pai))))
        return cls(rule, order)

    def zimo(self) -> str:
        """The next ordinary draw."""
        if self._closed or self.paishu == 0 or self._weikaigang:
            raise ValueError("cannot draw now")
        return self._pai.pop()

    def gangzimo(self) -> str:
        """The replacement draw after a kan. With カンドラあり the new indicator must then be
        turned (``kaigang``) before the next draw; without it an empty slot is recorded so the
        count of kans stays right (at most 4 kans: 5 indicator slots)."""
        if self._closed or self.paishu == 0 or self._weikaigang or len(self._baopai) == 5:
            raise ValueError("cannot draw a replacement tile now")
        self._weikaigang = self._rule["カンドラあり"]
        if not self._weikaigang:
            self._baopai.append("")
        return self._pai.pop(0)

    def kaigang(self) -> Shan:
        """Turn the kan dora indicator (and, with カン裏あり, the kan ura indicator)."""
        if self._closed or not self._weikaigang:
            raise ValueError("no kan dora to turn")
        self._baopai.append(self._pai[4])
        if self._fubaopai is not None and self._rule["カン裏あり"]:
            self._fubaopai.append(self._pai[9])
        self._weikaigang = False
        return self

    def close(self) -> Shan:
        """End of the hand: the ura indicators become visible."""
        self._closed = True
        return self

    @property
    def paishu(self) -> int:
        return len(self._pai) - 14

    @property
    def baopai(self) -> list[str]:
        """Dora indicators turned so far."""
        return [p for p in self._baopai if p]

    @property
    def fubaopai(self) -> list[str] | None:
        """Ura indicators, only once closed and only with 裏ドラあり."""
        if not self._closed:
            return None
        return list(self._fubaopai) if self._fubaopai is not None else None
