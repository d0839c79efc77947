"""The river (he): one player's discards, as ``Majiang.He``."""

from __future__ import annotations

import re

from games.riichi.engine.tile import valid_mianzi, valid_pai

_MARK_END = re.compile(r"[+=\-]\Z")
_DIGIT_BEFORE_MARK = re.compile(r"[0-9](?=[+=\-])")
_MARK = re.compile(r"[+=\-]")


class He:
    """Discards in order. A discard someone called gets that caller's direction mark appended
    (``'m3-'``). ``find`` answers furiten questions: was this tile kind (red five = five) ever
    discarded here, called or not."""

    __slots__ = ("_pai", "_find")

    def __init__(self) -> None:
        self._pai: list[str] = []
        self._find: set[str] = set()

    @property
    def pai(self) -> tuple[str, ...]:
        return tuple(self._pai)

    def dapai(self, p: str) -> He:
        """Add discard ``p`` (``'m1'``, ``'m1_'``, ``'m1*'``; a trailing mark is dropped)."""
        if not valid_pai(p):
            raise ValueError(f"invalid tile {p!r}")
        self._pai.append(_MARK_END.sub("", p))
        self._find.add(p[0] + str(int(p[1]) or 5))
        return self

    def fulou(self, m: str) -> He:
        """Mark the last discard as called into meld ``m``."""
        if not valid_mianzi(m):
            raise ValueError(f"invalid meld {m!r}")
        called = _DIGIT_BEFORE_MARK.search(m)
        d = _MARK.search(m)
        if not d or not called:
            raise ValueError(f"{m} was not called from a river")
        p = m[0] + called.group()
        if not self._pai or self._pai[-1][:2] != p:
            raise ValueError(f"{m} does not take the last discard")
        self._pai[-1] += d.group()
        return self

    def find(self, p: str) -> bool:
        return p[0] + str(int(p[1]) or 5) in self._find
