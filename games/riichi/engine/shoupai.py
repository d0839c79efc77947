"""The hand (shoupai): concealed tiles, melds, the drawn tile and the riichi flag.

A port of ``Majiang.Shoupai`` (majiang-core 1.4.1) with the same state and the same answers:

- ``_bingpai``: concealed tile counts per suit. ``_bingpai['m'][1..9]`` count each number with
  red fives included in ``[5]``; ``[0]`` counts the red fives alone. ``_bingpai['z'][1..7]`` for
  honours. ``_bingpai['_']`` counts face-down tiles (another player's hand as that player sees it).
- ``_fulou``: melds in normal form (see ``tile.valid_mianzi``), in call order.
- ``_zimo``: what the hand just took, so it must discard: a tile (``'m1'``, ``'_'``) after a draw,
  a meld string after chi/pon, ``None`` otherwise (13-tile state, and after a kan until the
  replacement draw).
- ``_lizhi``: riichi declared.

The underscore attributes are Majiang's names and are part of the API for the game flow (read
them; change them only through the methods). ``bingpai``, ``fulou_mianzi``, ``zimo_pai``,
``lizhi`` and ``menqian`` are read-only views.

String form (``Shoupai.from_string`` / ``str()``): concealed tiles grouped by suit
``m123p406s789z11``, the drawn tile last (``...z11m4``), ``*`` after the concealed part when in
riichi, then ``,``-separated melds; a trailing ``,`` means the last meld was just called (the hand
must discard). ``str(Shoupai.from_string(s)) == s`` for every string in normal form.

Mutating methods raise ``ShoupaiError`` (a ``ValueError``) where Majiang throws; unlike Majiang
they leave the hand unchanged when they raise.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from games.riichi.engine.tile import valid_mianzi, valid_pai


class ShoupaiError(ValueError):
    """An operation Majiang's Shoupai refuses (it throws ``Error``)."""


_SUITSTR = re.compile(r"[mpsz][0-9]+_*")
_ANY_MARK = re.compile(r"[+=\-]")
_ENDS_4_DIGITS = re.compile(r"[0-9]{4}\Z")
_HAS_4_DIGITS = re.compile(r"[0-9]{4}")
_KAKAN = re.compile(r"[0-9]{3}[+=\-][0-9]\Z")
_DIGIT_UNMARKED = re.compile(r"[0-9](?![+=\-])")
_DIGIT_BEFORE_MARK = re.compile(r"[0-9](?=[+=\-])")
_MARK_END = re.compile(r"[+=\-]\Z")
_KEZI_PREFIX = re.compile(r"[mpsz]([0-9])\1\1")
_CHI_LOW = re.compile(r"[mps][0-9]-[0-9][0-9]\Z")  # called tile lowest: m3-45
_CHI_HIGH = re.compile(r"[mps][0-9][0-9][0-9]-\Z")  # called tile highest: m345-


DIGITS = "0123456789"


def _empty_bingpai() -> dict[str, Any]:
    return {
        "_": 0,
        "m": [0] * 10,
        "p": [0] * 10,
        "s": [0] * 10,
        "z": [0] * 8,
    }


# from_string's tables. The concealed tiles are counted in one flat list: m0-m9 at 0-9, p at
# 10-19, s at 20-29, z0-z7 at 30-37 and face-down tiles at 38. _PARSE_INDEX maps, per suit, each
# character a suit group may hold to its slot (None for z0, z8, z9, which Majiang skips);
# _INDEX_TILE maps a slot back to its tile.
_FACE_DOWN = 38
_PARSE_INDEX: dict[str, dict[str, int | None]] = {
    s: {
        **{d: (10 * i + int(d) if s != "z" or "1" <= d <= "7" else None) for d in DIGITS},
        "_": _FACE_DOWN,
    }
    for i, s in enumerate("mpsz")
}
_INDEX_TILE: tuple[str, ...] = tuple(s + d for s in "mpsz" for d in DIGITS)[:_FACE_DOWN] + ("_",)

# Meld strings are few and recur from hand to hand; their normal form is cached (bounded, and
# valid_mianzi is a pure function of the string, so a cached answer is the same answer).
_MIANZI_CACHE: dict[str, str | None] = {}
_MIANZI_CACHE_MAX = 4096
_MIANZI_CACHE_MAX_LEN = 10


def _valid_mianzi_cached(m: str) -> str | None:
    try:
        return _MIANZI_CACHE[m]
    except KeyError:
        pass
    normal = valid_mianzi(m)
    if len(m) > _MIANZI_CACHE_MAX_LEN:
        return normal  # a meld is at most 6 characters: longer input is not kept
    if len(_MIANZI_CACHE) >= _MIANZI_CACHE_MAX:
        _MIANZI_CACHE.clear()
    _MIANZI_CACHE[m] = normal
    return normal


class Shoupai:
    """A player's hand. ``Shoupai(['m1', 'm2', ...])`` or ``Shoupai.from_string('m123...')``."""

    __slots__ = ("_bingpai", "_fulou", "_zimo", "_lizhi")

    # Majiang's static helpers, reachable as in JavaScript (Shoupai.valid_pai(...)).
    valid_pai = staticmethod(valid_pai)
    valid_mianzi = staticmethod(valid_mianzi)

    def __init__(self, qipai: Iterable[str] = ()) -> None:
        self._bingpai: dict[str, Any] = _empty_bingpai()
        self._fulou: list[str] = []
        self._zimo: str | None = None
        self._lizhi: bool = False
        for p in qipai:
            if p == "_":
                self._bingpai["_"] += 1
                continue
            if not valid_pai(p):
                raise ShoupaiError(f"invalid tile {p!r}")
            s, n = p[0], int(p[1])
            if self._bingpai[s][n] == 4:
                raise ShoupaiError(f"a fifth {p}")
            self._bingpai[s][n] += 1
            if s != "z" and n == 0:
                self._bingpai[s][5] += 1

    # -- string form -------------------------------------------------------------------------

    @classmethod
    def from_string(cls, paistr: str = "") -> Shoupai:
        """Parse a hand string exactly like ``Majiang.Shoupai.fromString`` (which is lenient:
        it skips what it cannot read and uses at most 14 - 3 x melds concealed tiles)."""
        fulou = paistr.split(",")
        bingpai = fulou.pop(0)
        n_fulou = len(fulou) - fulou.count("")
        counted = None
        if cls is Shoupai and bingpai[:1] != "_":
            # Most hands: counted from the memoised suit groups (see _GROUPS).
            counted = _count_groups(_SUITSTR.findall(bingpai), 14 - n_fulou * 3, len(fulou) * 3)
        if counted is None:
            shoupai, zimo = _from_tiles(cls, bingpai, 14 - n_fulou * 3, len(fulou) * 3)
        else:
            shoupai = _bare(cls, counted[0])
            zimo = counted[1]

        last: str | None = None
        for m in fulou:
            if not m:
                # A trailing comma: the last meld was just called. Later melds are ignored.
                shoupai._zimo = last
                break
            normal = _valid_mianzi_cached(m)
            if normal:
                shoupai._fulou.append(normal)
                last = normal

        shoupai._zimo = shoupai._zimo or zimo or None
        shoupai._lizhi = bingpai[-1:] == "*"
        return shoupai

    def to_string(self) -> str:
        """The hand in normal form (``Majiang.Shoupai.toString``)."""
        zimo = self._zimo
        parts: list[str] = []
        for s in ("m", "p", "s", "z"):
            bingpai = self._bingpai[s]
            suitstr = [s]
            for n in range(1, len(bingpai)):
                n_pai = bingpai[n]
                if zimo and s + str(n) == zimo:
                    n_pai -= 1  # the drawn tile is written last
                if n == 5 and s != "z":
                    n_hongpai = bingpai[0]
                    if zimo == s + "0":
                        n_pai -= 1
                        n_hongpai -= 1
                    if n_pai > 0:
                        red = max(0, min(n_hongpai, n_pai))  # red fives first: m0556
                        suitstr.append("0" * red + "5" * (n_pai - red))
                elif n_pai > 0:
                    suitstr.append(DIGITS[n] * n_pai)
            if len(suitstr) > 1:
                parts.append("".join(suitstr))
        parts.append("_" * (self._bingpai["_"] + (-1 if zimo == "_" else 0)))
        if zimo and len(zimo) <= 2:
            parts.append(zimo)
        if self._lizhi:
            parts.append("*")
        for m in self._fulou:
            parts.append("," + m)
        if zimo and len(zimo) > 2:
            parts.append(",")
        return "".join(parts)

    def __str__(self) -> str:
        return self.to_string()

    def __repr__(self) -> str:
        return f"Shoupai.from_string({self.to_string()!r})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Shoupai):
            return NotImplemented
        return (
            self._bingpai == other._bingpai
            and self._fulou == other._fulou
            and self._zimo == other._zimo
            and self._lizhi == other._lizhi
        )

    __hash__ = None  # type: ignore[assignment]  # mutable

    def clone(self) -> Shoupai:
        """An independent copy."""
        shoupai = Shoupai.__new__(Shoupai)
        b = self._bingpai
        shoupai._bingpai = {"_": b["_"], "m": b["m"][:], "p": b["p"][:], "s": b["s"][:], "z": b["z"][:]}
        shoupai._fulou = self._fulou[:]
        shoupai._zimo = self._zimo
        shoupai._lizhi = self._lizhi
        return shoupai

    # -- read-only views ---------------------------------------------------------------------

    @property
    def bingpai(self) -> dict[str, Any]:
        """The concealed counts (see the module doc). Do not mutate."""
        return self._bingpai

    @property
    def fulou_mianzi(self) -> tuple[str, ...]:
        """The melds, in call order."""
        return tuple(self._fulou)

    @property
    def zimo_pai(self) -> str | None:
        """The drawn tile or just-called meld the hand must discard after, else ``None``."""
        return self._zimo

    @property
    def menqian(self) -> bool:
        """No open meld (concealed kans do not open the hand)."""
        return not any(_ANY_MARK.search(m) for m in self._fulou)

    @property
    def lizhi(self) -> bool:
        """Riichi declared."""
        return self._lizhi

    # -- operations --------------------------------------------------------------------------

    def _snapshot(self) -> tuple[Any, ...]:
        b = self._bingpai
        return (b["_"], b["m"][:], b["p"][:], b["s"][:], b["z"][:], self._fulou[:], self._zimo, self._lizhi)

    def _restore(self, snap: tuple[Any, ...]) -> None:
        b = self._bingpai
        b["_"], b["m"], b["p"], b["s"], b["z"], self._fulou, self._zimo, self._lizhi = snap

    def decrease(self, s: str, n: int | str) -> None:
        """Take one ``s``/``n`` tile out of the concealed part (a face-down one if it is not
        there). Removing a plain 5 never takes a red one."""
        bingpai = self._bingpai[s]
        n = int(n)
        if bingpai[n] == 0 or (n == 5 and bingpai[0] == bingpai[5]):
            if self._bingpai["_"] == 0:
                raise ShoupaiError(f"no {s}{n} in {self}")
            self._bingpai["_"] -= 1
        else:
            bingpai[n] -= 1
            if n == 0:
                bingpai[5] -= 1

    def zimo(self, p: str, check: bool = True) -> Shoupai:
        """Draw ``p`` (a tile, possibly with a mark as for a ron tile, or ``'_'``)."""
        if check and self._zimo:
            raise ShoupaiError(f"{self} has already drawn, cannot draw {p}")
        if p == "_":
            self._bingpai["_"] += 1
            self._zimo = p
            return self
        if not valid_pai(p):
            raise ShoupaiError(f"invalid tile {p!r}")
        s, n = p[0], int(p[1])
        bingpai = self._bingpai[s]
        if bingpai[n] == 4 or (n == 0 and bingpai[5] == 4):
            raise ShoupaiError(f"a fifth {p}")
        bingpai[n] += 1
        if n == 0:
            bingpai[5] += 1
        self._zimo = s + str(n)
        return self

    def dapai(self, p: str, check: bool = True) -> Shoupai:
        """Discard ``p`` (``'m1'``, ``'m1_'`` tsumogiri, ``'m1*'`` with riichi). Majiang checks
        only that a draw happened (``check``) and that the tile is there; legality (kuikae,
        riichi) is ``get_dapai``'s job."""
        if check and not self._zimo:
            raise ShoupaiError(f"{self} must draw before discarding {p}")
        if not valid_pai(p):
            raise ShoupaiError(f"invalid tile {p!r}")
        self.decrease(p[0], int(p[1]))
        self._zimo = None
        if p[-1] == "*":
            self._lizhi = True
        return self

    def fulou(self, m: str, check: bool = True) -> Shoupai:
        """Call chi, pon or daiminkan ``m`` (normal form) on a discard."""
        if check and self._zimo:
            raise ShoupaiError(f"{self} must discard, cannot call {m}")
        if m != valid_mianzi(m):
            raise ShoupaiError(f"invalid meld {m!r}")
        if _ENDS_4_DIGITS.search(m) or _KAKAN.search(m):
            raise ShoupaiError(f"{m} is not a call on a discard")
        snap = self._snapshot()
        try:
            s = m[0]
            for n in _DIGIT_UNMARKED.findall(m):
                self.decrease(s, n)
        except ShoupaiError:
            self._restore(snap)
            raise
        self._fulou.append(m)
        if not _HAS_4_DIGITS.search(m):
            self._zimo = m  # after chi/pon the hand discards; after daiminkan it draws first
        return self

    def gang(self, m: str, check: bool = True) -> Shoupai:
        """Declare ankan (``m5550``) or kakan (``m555=0``) after a draw."""
        if check and not self._zimo:
            raise ShoupaiError(f"{self} must draw before a kan")
        if check and self._zimo is not None and len(self._zimo) > 2:
            raise ShoupaiError(f"{self} cannot kan right after a call")
        if m != valid_mianzi(m):
            raise ShoupaiError(f"invalid meld {m!r}")
        s = m[0]
        snap = self._snapshot()
        try:
            if _ENDS_4_DIGITS.search(m):
                for n in m[1:]:
                    self.decrease(s, n)
                self._fulou.append(m)
            elif _KAKAN.search(m):
                m1 = m[:5]
                if m1 not in self._fulou:
                    raise ShoupaiError(f"no pon {m1} for {m}")
                self._fulou[self._fulou.index(m1)] = m
                self.decrease(s, m[-1])
            else:
                raise ShoupaiError(f"{m} is not a kan")
        except ShoupaiError:
            self._restore(snap)
            raise
        self._zimo = None
        return self

    # -- what the hand may do ----------------------------------------------------------------

    def get_dapai(self, check: bool = True) -> list[str] | None:
        """The legal discards after a draw or call, ``None`` if the hand need not discard.

        With ``check`` the kuikae tiles are refused after a chi/pon (the called tile, and for a
        chi on an end the tile three away: m3-45 forbids m3 and m6). A red and a plain five are
        listed separately (``m0``, ``m5``); the drawn tile is offered as tsumogiri (``'m1_'``)
        last, and only that after riichi.
        """
        zimo = self._zimo
        if not zimo:
            return None

        deny: set[str] = set()
        if check and len(zimo) > 2:
            s = zimo[0]
            called = _DIGIT_BEFORE_MARK.search(zimo)
            n = (int(called.group()) if called else 0) or 5
            deny.add(s + str(n))
            if not _KEZI_PREFIX.match(zimo.replace("0", "5", 1)):
                if n < 7 and _CHI_LOW.match(zimo):
                    deny.add(s + str(n + 3))
                if 3 < n and _CHI_HIGH.match(zimo):
                    deny.add(s + str(n - 3))

        dapai: list[str] = []
        if not self._lizhi:
            for s in ("m", "p", "s", "z"):
                bingpai = self._bingpai[s]
                for n in range(1, len(bingpai)):
                    if bingpai[n] == 0:
                        continue
                    p = s + str(n)
                    if p in deny:
                        continue
                    if p == zimo and bingpai[n] == 1:
                        continue  # the drawn tile is offered as tsumogiri below
                    if s == "z" or n != 5:
                        dapai.append(p)
                    else:
                        if (bingpai[0] > 0 and s + "0" != zimo) or bingpai[0] > 1:
                            dapai.append(s + "0")
                        if bingpai[0] < bingpai[5]:
                            dapai.append(p)
        if len(zimo) == 2:
            dapai.append(zimo + "_")
        return dapai

    def get_chi_mianzi(self, p: str, check: bool = True) -> list[str] | None:
        """The chi melds possible on discard ``p`` (with its mark; only ``-`` allows chi).
        ``None`` if the hand must discard. With ``check`` a chi that would leave only kuikae
        discards is refused."""
        if self._zimo:
            return None
        if not valid_pai(p):
            raise ShoupaiError(f"invalid tile {p!r}")
        mianzi: list[str] = []
        s, n = p[0], int(p[1]) or 5
        d = _MARK_END.search(p)
        if not d:
            raise ShoupaiError(f"{p} has no direction mark")
        mark = d.group()
        if s == "z" or mark != "-":
            return mianzi
        if self._lizhi:
            return mianzi

        bingpai = self._bingpai[s]
        called = p[1] + mark
        # Concealed tiles left after the chi; kuikae tiles must not fill all of them.
        rest = 14 - (len(self._fulou) + 1) * 3
        if 3 <= n and bingpai[n - 2] > 0 and bingpai[n - 1] > 0:
            if not check or (bingpai[n - 3] if 3 < n else 0) + bingpai[n] < rest:
                if n - 2 == 5 and bingpai[0] > 0:
                    mianzi.append(s + "067-")
                if n - 1 == 5 and bingpai[0] > 0:
                    mianzi.append(s + "406-")
                if (n - 2 != 5 and n - 1 != 5) or bingpai[0] < bingpai[5]:
                    mianzi.append(s + str(n - 2) + str(n - 1) + called)
        if 2 <= n <= 8 and bingpai[n - 1] > 0 and bingpai[n + 1] > 0:
            if not check or bingpai[n] < rest:
                if n - 1 == 5 and bingpai[0] > 0:
                    mianzi.append(s + "06-7")
                if n + 1 == 5 and bingpai[0] > 0:
                    mianzi.append(s + "34-0")
                if (n - 1 != 5 and n + 1 != 5) or bingpai[0] < bingpai[5]:
                    mianzi.append(s + str(n - 1) + called + str(n + 1))
        if n <= 7 and bingpai[n + 1] > 0 and bingpai[n + 2] > 0:
            if not check or bingpai[n] + (bingpai[n + 3] if n < 7 else 0) < rest:
                if n + 1 == 5 and bingpai[0] > 0:
                    mianzi.append(s + "4-06")
                if n + 2 == 5 and bingpai[0] > 0:
                    mianzi.append(s + "3-40")
                if (n + 1 != 5 and n + 2 != 5) or bingpai[0] < bingpai[5]:
                    mianzi.append(s + called + str(n + 1) + str(n + 2))
        return mianzi

    def get_peng_mianzi(self, p: str) -> list[str] | None:
        """The pon melds possible on discard ``p`` (with its mark), one per choice of red fives.
        ``None`` if the hand must discard."""
        if self._zimo:
            return None
        if not valid_pai(p):
            raise ShoupaiError(f"invalid tile {p!r}")
        mianzi: list[str] = []
        s, n = p[0], int(p[1]) or 5
        d = _MARK_END.search(p)
        if not d:
            raise ShoupaiError(f"{p} has no direction mark")
        if self._lizhi:
            return mianzi
        called = p[1] + d.group()
        bingpai = self._bingpai[s]
        if bingpai[n] >= 2:
            if n == 5 and bingpai[0] >= 2:
                mianzi.append(s + "00" + called)
            if n == 5 and bingpai[0] >= 1 and bingpai[5] - bingpai[0] >= 1:
                mianzi.append(s + "50" + called)
            if n != 5 or bingpai[5] - bingpai[0] >= 2:
                mianzi.append(s + str(n) + str(n) + called)
        return mianzi

    def get_gang_mianzi(self, p: str | None = None) -> list[str] | None:
        """With ``p`` (a discard with its mark): the daiminkan possible on it. Without: the
        ankan and kakan possible after a draw (after riichi only an ankan of the drawn tile;
        the rule-dependent refinements are ``allow.get_gang_mianzi``). ``None`` when the hand
        is in the wrong state for the question."""
        mianzi: list[str] = []
        if p:
            if self._zimo:
                return None
            if not valid_pai(p):
                raise ShoupaiError(f"invalid tile {p!r}")
            s, n = p[0], int(p[1]) or 5
            d = _MARK_END.search(p)
            if not d:
                raise ShoupaiError(f"{p} has no direction mark")
            if self._lizhi:
                return mianzi
            bingpai = self._bingpai[s]
            if bingpai[n] == 3:
                if n == 5:
                    mianzi = [s + "5" * (3 - bingpai[0]) + "0" * bingpai[0] + p[1] + d.group()]
                else:
                    mianzi = [s + str(n) * 4 + d.group()]
            return mianzi

        zimo = self._zimo
        if not zimo:
            return None
        if len(zimo) > 2:
            return None
        drawn = zimo.replace("0", "5", 1)
        for s in ("m", "p", "s", "z"):
            bingpai = self._bingpai[s]
            for n in range(1, len(bingpai)):
                if bingpai[n] == 0:
                    continue
                if bingpai[n] == 4:
                    if self._lizhi and s + str(n) != drawn:
                        continue
                    if n == 5:
                        mianzi.append(s + "5" * (4 - bingpai[0]) + "0" * bingpai[0])
                    else:
                        mianzi.append(s + str(n) * 4)
                else:
                    if self._lizhi:
                        continue
                    for m in self._fulou:
                        if m.replace("0", "5")[:4] == s + str(n) * 3:
                            if n == 5 and bingpai[0] > 0:
                                mianzi.append(m + "0")
                            else:
                                mianzi.append(m + str(n))
        return mianzi


def _from_tiles(cls: type[Shoupai], bingpai: str, limit: int, n_meld_tiles: int) -> tuple[Shoupai, str | None]:
    # The general parse: every tile as a slot of the flat count list (see _PARSE_INDEX), in
    # Majiang's order, cut to ``limit`` tiles. Returns the hand without melds and its drawn tile.
    qipai: list[int] = [_FACE_DOWN] * (len(bingpai) - len(bingpai.lstrip("_")))
    for suitstr in _SUITSTR.findall(bingpai):
        qipai += [i for i in map(_PARSE_INDEX[suitstr[0]].get, suitstr[1:]) if i is not None]
    qipai = qipai[:limit]
    # A hand of 14 (melds counted as 3) has just drawn its last tile (majiang-core >= 1.3.4).
    zimo = _INDEX_TILE[qipai[-1]] if qipai and len(qipai) + n_meld_tiles == 14 else None

    # The tiles are valid by construction, so this counts them without __init__'s per-tile
    # regex check. It checks for a fifth tile once at the end instead of tile by tile; if a
    # count could be over 4 (red fives are also counted in [5]; the test also trips, harmlessly,
    # on five or more face-down tiles), __init__ is used after all: it raises the same error,
    # or builds the same hand.
    flat = [0] * (_FACE_DOWN + 1)
    for i in qipai:
        flat[i] += 1
    man, pin, sou = flat[0:10], flat[10:20], flat[20:30]
    man[5] += man[0]
    pin[5] += pin[0]
    sou[5] += sou[0]
    if cls is not Shoupai or max(flat) > 4 or man[5] > 4 or pin[5] > 4 or sou[5] > 4:
        return cls([_INDEX_TILE[i] for i in qipai]), zimo
    return _bare(cls, {"_": flat[_FACE_DOWN], "m": man, "p": pin, "s": sou, "z": flat[30:38]}), zimo


def _bare(cls: type[Shoupai], bingpai: dict[str, Any]) -> Shoupai:
    shoupai = cls.__new__(cls)
    shoupai._bingpai = bingpai
    shoupai._fulou = []
    shoupai._zimo = None
    shoupai._lizhi = False
    return shoupai


# A suit group of a hand string ("m1233", "z11") -> (suit index, its counts as _bingpai holds
# them, the same as (index, count) pairs for the non-zero ones, tiles, last tile). Hands are made
# of few distinct groups, so from_string mostly looks them up. Groups with face-down tiles or a
# count over 4 are not kept (the general parse handles them).
Group = tuple[int, tuple[int, ...], tuple[tuple[int, int], ...], int, str]
_GROUPS: dict[str, Group | None] = {}
_GROUPS_MAX = 20_000
_GROUP_MAX_LEN = 15  # longer groups are always cut to 14 tiles or hold a fifth copy


def _group(suitstr: str) -> Group | None:
    s = suitstr[0]
    index = _PARSE_INDEX[s]
    si = "mpsz".index(s)
    counts = [0] * (8 if s == "z" else 10)
    last = None
    for i in map(index.get, suitstr[1:]):
        if i is None:
            continue
        if i == _FACE_DOWN:
            return None
        counts[i - 10 * si] += 1
        last = i
    if last is None:
        return (si, tuple(counts), (), 0, "")
    if s != "z":
        counts[5] += counts[0]
    if max(counts) > 4:
        return None
    nonzero = tuple((n, c) for n, c in enumerate(counts) if c)
    return (si, tuple(counts), nonzero, sum(counts) - (counts[0] if s != "z" else 0), _INDEX_TILE[last])


def _count_groups(groups: list[str], limit: int, n_meld_tiles: int) -> tuple[dict[str, Any], str | None] | None:
    # from_string's common case: the concealed counts and the drawn tile, or None to take the
    # general parse (a group not kept in _GROUPS, more than ``limit`` tiles as Majiang cuts, or a
    # fifth copy across two groups).
    parts: list[Any] = [_ZERO_10, _ZERO_10, _ZERO_10, _ZERO_8]
    n = 0
    last = ""
    for suitstr in groups:
        try:
            group = _GROUPS[suitstr]
        except KeyError:
            if len(suitstr) > _GROUP_MAX_LEN:
                return None  # not kept: the memo holds short strings only, whatever the input
            if len(_GROUPS) >= _GROUPS_MAX:
                _GROUPS.clear()
            group = _GROUPS[suitstr] = _group(suitstr)
        if group is None:
            return None
        si, counts, nonzero, k, tile = group
        if not k:
            continue
        n += k
        last = tile
        seen = parts[si]
        if seen is _ZERO_10 or seen is _ZERO_8:
            parts[si] = counts
        else:
            # The same suit again (the drawn tile is written as a group of its own).
            if type(seen) is tuple:
                seen = parts[si] = list(seen)
            for i, c in nonzero:
                c += seen[i]
                if c > 4:
                    return None
                seen[i] = c
    if n > limit:
        return None
    m, p, s, z = parts
    bingpai = {"_": 0, "m": list(m), "p": list(p), "s": list(s), "z": list(z)}
    return bingpai, (last if n and n + n_meld_tiles == 14 else None)


_ZERO_10 = (0,) * 10
_ZERO_8 = (0,) * 8


def clear_caches() -> None:
    """Forget the memoised suit groups and meld forms (to measure parsing with cold caches)."""
    _GROUPS.clear()
    _MIANZI_CACHE.clear()
