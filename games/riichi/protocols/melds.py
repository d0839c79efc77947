"""A Majiang meld string read (``m4-06`` chi, ``z666=`` pon, ``s5505+`` open kan, ``m505+5`` added
kan, ``m5550`` concealed kan): pure, shared by the protocols that name melds (mjai) and the records
that write them (tenhou.net/6)."""

from __future__ import annotations

import re
from dataclasses import dataclass

# Majiang marks where a called tile came from, as seen from the caller: + shimocha (next),
# = toimen (opposite), - kamicha (previous). The value is the seat offset from the caller.
MARK_OFFSET = {"+": 1, "=": 2, "-": 3}

_MELD = re.compile(r"^([mpsz])(\d+)([+=-])?(\d*)$")


@dataclass(frozen=True)
class Meld:
    """A Majiang meld string read: ``kind`` is chi, pon, daiminkan, kakan or ankan; tiles are
    Majiang tile names (``m0`` a red five)."""

    kind: str
    own: tuple[str, ...]  # tiles from the caller's hand (for a kakan: the pon's two)
    called: str | None = None  # the tile taken from another seat (for a kakan: the pon's)
    offset: int = 0  # seat offset of the seat it came from (MARK_OFFSET), 0 for an ankan
    added: str | None = None  # a kakan's fourth tile


def parse_meld(m: str) -> Meld:
    """Read a Majiang meld: ``m4-06`` chi, ``z666=`` pon, ``s5505+`` open kan, ``m505+5`` added
    kan, ``m5550`` concealed kan. The called tile is the digit just before the mark."""
    match = _MELD.match(m)
    if not match:
        raise ValueError(f"not a meld: {m!r}")
    suit, before, mark, after = match.groups()
    tiles = [suit + d for d in before]
    if mark is None:
        if len(before) != 4:
            raise ValueError(f"not a meld: {m!r}")
        return Meld("ankan", tuple(tiles))
    called, offset = tiles.pop(), MARK_OFFSET[mark]
    kinds = {d.replace("0", "5") for d in before + after}
    if len(before) + len(after) == 3 and len(kinds) == 3:  # three different numbers: a chi
        return Meld("chi", tuple(tiles + [suit + d for d in after]), called, offset)
    if len(kinds) != 1:
        raise ValueError(f"not a meld: {m!r}")
    if len(before) == 3 and len(after) == 1:
        return Meld("kakan", tuple(tiles), called, offset, suit + after)
    if after:
        raise ValueError(f"not a meld: {m!r}")
    if len(before) == 3:
        return Meld("pon", tuple(tiles), called, offset)
    if len(before) == 4:
        return Meld("daiminkan", tuple(tiles), called, offset)
    raise ValueError(f"not a meld: {m!r}")
