"""Tiles (pai) and melds (mianzi) in Majiang's notation.

A tile is a suit letter and a digit: ``m``/``p``/``s`` (characters, circles, bamboo) with
``1``-``9`` and ``0`` for a red five, ``z1``-``z7`` for East, South, West, North, White, Green,
Red. In a discard or a called tile it may carry ``_`` (drawn tile discarded), ``*`` (riichi
declared) and one of ``+ = -`` (taken from shimocha, toimen, kamicha).

A meld (mianzi) string lists its digits after the suit; the called tile carries the direction
mark: ``m1-23`` (chi), ``z666=`` (pon), ``m5550+`` (daiminkan), ``m5555`` (ankan, no mark),
``s505+5`` (kakan: a pon plus the added tile). ``valid_mianzi`` normalises a meld exactly as
``Majiang.Shoupai.valid_mianzi`` does; the normal form is what ``Shoupai`` stores and emits.

JavaScript regexes are translated with ``[0-9]`` (Python's ``\\d`` also matches non-ASCII digits)
and ``fullmatch``/``\\Z`` (Python's ``$`` also matches before a final newline).
"""

from __future__ import annotations

import re

SUITS = ("m", "p", "s", "z")
NUMBER_SUITS = ("m", "p", "s")

# Every distinct tile kind once, in Majiang's iteration order (no red fives).
TILE_KINDS: tuple[str, ...] = tuple(s + str(n) for s in SUITS for n in range(1, 8 if s == "z" else 10))

# Terminals and honours (yaojiu), in the order Majiang scans them for kokushi.
YAOJIU: tuple[str, ...] = ("m1", "m9", "p1", "p9", "s1", "s9", "z1", "z2", "z3", "z4", "z5", "z6", "z7")

# Direction marks: the called tile came from the next (+), opposite (=) or previous (-) seat.
# ``(seat + MARK_OFFSET[mark]) % 4`` is the seat the tile came from.
MARK_OFFSET = {"+": 1, "=": 2, "-": 3}

_VALID_PAI = re.compile(r"(?:[mps][0-9]|z[1-7])_?\*?[+=\-]?")
_Z_089 = re.compile(r"z[^\n\r\u2028\u2029]*[089]")  # JS /^z.*[089]/ (no multiline dot)
_KEZI = re.compile(r"[mpsz]([0-9])\1\1[+=\-]\1?")  # pon, or pon + added tile (kakan)
_GANGZI = re.compile(r"[mpsz]([0-9])\1\1\1[+=\-]?")  # ankan or daiminkan
_SHUNZI = re.compile(r"[mps][0-9]+-[0-9]*")  # chi: always from kamicha
_DIGIT_UNMARKED = re.compile(r"[0-9](?![+=\-])")
_DIGIT_MARKED_END = re.compile(r"[0-9][+=\-]\Z")
_DIGIT_OPT_MARK = re.compile(r"[0-9][+=\-]?")
_RED_PON = re.compile(r"([mps])05")


def valid_pai(p: str) -> str | None:
    """``p`` if it is a valid tile (with optional ``_``, ``*`` and mark), else ``None``."""
    return p if _VALID_PAI.fullmatch(p) else None


def valid_mianzi(m: str) -> str | None:
    """The normal form of meld ``m``, or ``None`` if it is not a valid meld."""
    if _Z_089.match(m):
        return None
    h = m.replace("0", "5")
    if _KEZI.fullmatch(h):
        # A pon keeps its digits in place, except that "05" is written "50".
        return _RED_PON.sub(r"\g<1>50", m, count=1)
    if _GANGZI.fullmatch(h):
        # A kan: the unmarked digits in descending order (red fives last), the marked one after.
        digits = sorted(_DIGIT_UNMARKED.findall(m), reverse=True)
        marked = _DIGIT_MARKED_END.search(m)
        return m[0] + "".join(digits) + (marked.group() if marked else "")
    if _SHUNZI.fullmatch(h):
        hongpai = "0" in m
        nn = sorted(c for c in h if c.isdigit())
        if len(nn) != 3:
            return None
        if int(nn[0]) + 1 != int(nn[1]) or int(nn[1]) + 1 != int(nn[2]):
            return None
        h = h[0] + "".join(sorted(_DIGIT_OPT_MARK.findall(h)))
        return h.replace("5", "0", 1) if hongpai else h
    return None


def zhenbaopai(p: str) -> str:
    """The dora shown by indicator ``p`` (Majiang.Shan.zhenbaopai): 9 -> 1, North -> East,
    Red -> White; a red five indicates a six."""
    if not valid_pai(p):
        raise ValueError(f"invalid tile {p!r}")
    s, n = p[0], int(p[1]) or 5
    if s == "z":
        return s + str(n % 4 + 1) if n < 5 else s + str((n - 4) % 3 + 5)
    return s + str(n % 9 + 1)
