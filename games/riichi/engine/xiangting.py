"""Shanten numbers (xiangting) and waits (tingpai), as ``Majiang.Util``.

``xiangting`` is the minimum of the regular form (4 sets + a pair), kokushi (guoshi) and seven
pairs (qidui); -1 is a complete hand, 0 is tenpai. Kokushi and seven pairs are ``math.inf`` once
the hand has a meld, like Majiang's ``Infinity``.

Majiang's regular-form search recurses over each suit's counts and returns two candidate
(sets, partial sets, isolated tiles) triples per suit. That result depends on nothing but the nine
counts of the suit, so it is computed once per distinct suit and kept in a table
(``_suit_table``): after warm-up a shanten number is a handful of dict look-ups. The search
itself is Majiang's, step for step, so the answers are Majiang's including its quirks (for
example a hand counting its fourth copy of a tile as a waiting shape).
"""

from __future__ import annotations

import math
from collections.abc import Callable

from games.riichi.engine.shoupai import Shoupai

Triple = tuple[int, int, int]  # (mianzi, dazi, guli): sets, partial sets, isolated tiles
_SuitResult = tuple[Triple, Triple]  # Majiang's (a, b): fewest isolated / most sets

_suit_table: dict[tuple[int, ...], tuple[Triple, ...]] = {}
# A long-running server could in principle meet all 405,350 possible suits (up to 14 tiles); the table
# is emptied when it grows past this (~300 bytes an entry; the 40,000 reference hands fill 41,000).
_SUIT_TABLE_LIMIT = 100_000


def _dazi(bingpai: list[int]) -> _SuitResult:
    # Tiles within two of each other form one group; each group gives pairs of tiles as partial
    # sets and the odd one as isolated.
    n_pai = n_dazi = n_guli = 0
    for n in range(1, 10):
        n_pai += bingpai[n]
        if n <= 7 and bingpai[n + 1] == 0 and bingpai[n + 2] == 0:
            n_dazi += n_pai >> 1
            n_guli += n_pai % 2
            n_pai = 0
    n_dazi += n_pai >> 1
    n_guli += n_pai % 2
    return (0, n_dazi, n_guli), (0, n_dazi, n_guli)


def _better_a(r: Triple, best: Triple) -> bool:
    return r[2] < best[2] or (r[2] == best[2] and r[1] < best[1])


def _better_b(r: Triple, best: Triple) -> bool:
    return r[0] > best[0] or (r[0] == best[0] and r[1] > best[1])


def _mianzi(bingpai: list[int], n: int = 1) -> _SuitResult:
    # Majiang's mianzi(): try no set at n, a run starting at n, a triplet of n.
    if n > 9:
        return _dazi(bingpai)
    max_a, max_b = _mianzi(bingpai, n + 1)
    if n <= 7 and bingpai[n] > 0 and bingpai[n + 1] > 0 and bingpai[n + 2] > 0:
        bingpai[n] -= 1
        bingpai[n + 1] -= 1
        bingpai[n + 2] -= 1
        ra, rb = _mianzi(bingpai, n)
        bingpai[n] += 1
        bingpai[n + 1] += 1
        bingpai[n + 2] += 1
        ra = (ra[0] + 1, ra[1], ra[2])
        rb = (rb[0] + 1, rb[1], rb[2])
        if _better_a(ra, max_a):
            max_a = ra
        if _better_b(rb, max_b):
            max_b = rb
    if bingpai[n] >= 3:
        bingpai[n] -= 3
        ra, rb = _mianzi(bingpai, n + 1)
        bingpai[n] += 3
        ra = (ra[0] + 1, ra[1], ra[2])
        rb = (rb[0] + 1, rb[1], rb[2])
        if _better_a(ra, max_a):
            max_a = ra
        if _better_b(rb, max_b):
            max_b = rb
    return max_a, max_b


def _suit(bingpai: list[int]) -> tuple[Triple, ...]:
    # Majiang's two candidates (a, b) for this suit, as a tuple of the distinct ones (usually
    # they are equal, which halves the combinations to try).
    key = tuple(bingpai[1:10])
    result = _suit_table.get(key)
    if result is None:
        if len(_suit_table) >= _SUIT_TABLE_LIMIT:
            _suit_table.clear()
        a, b = _mianzi([0, *key])
        result = _suit_table[key] = (a,) if a == b else (a, b)
    return result


def _zipai(z: list[int]) -> Triple:
    m = d = g = 0
    for n in range(1, 8):
        c = z[n]
        if c >= 3:
            m += 1
        elif c == 2:
            d += 1
        elif c == 1:
            g += 1
    return m, d, g


def _mianzi_all(
    rm: tuple[Triple, ...], rp: tuple[Triple, ...], rs: tuple[Triple, ...], z: Triple, n_fulou: int, jiangpai: bool
) -> int:
    # The minimum over the suits' candidates of Majiang's _xiangting(m, d, g, jiangpai) on their
    # sums, inlined because this is the hot loop: at most 4 sets count, sets + partial sets at
    # most 4, all groups at most 5 (4 once the pair is set aside); then 13 - 3m - 2d - g.
    best = 13
    limit = 4 if jiangpai else 5
    bonus = 1 if jiangpai else 0
    m0, d0, g0 = n_fulou + z[0], z[1], z[2]
    for cm in rm:
        for cp in rp:
            mp0 = m0 + cm[0] + cp[0]
            mp1 = d0 + cm[1] + cp[1]
            mp2 = g0 + cm[2] + cp[2]
            for cs in rs:
                m = mp0 + cs[0]
                d = mp1 + cs[1]
                g = mp2 + cs[2]
                if m > 4:
                    d += m - 4
                    m = 4
                if m + d > 4:
                    g += m + d - 4
                    d = 4 - m
                if m + d + g > limit:
                    g = limit - m - d
                x = 13 - m * 3 - (d + bonus) * 2 - g
                if x < best:
                    best = x
    return best


def _suit_pairs(bingpai: list[int]) -> tuple[Triple, ...]:
    # The distinct candidates of the suit with each of its pairs set aside in turn: the regular
    # form takes the minimum over every pair, so their union is all it needs (empty: no pair).
    key = tuple(bingpai[1:10])
    result = _pair_table.get(key)
    if result is None:
        if len(_pair_table) >= _SUIT_TABLE_LIMIT:
            _pair_table.clear()
        counts = [0, *key]
        found: set[Triple] = set()
        for n in range(1, 10):
            if counts[n] >= 2:
                counts[n] -= 2
                found.update(_suit(counts))
                counts[n] += 2
        result = _pair_table[key] = tuple(sorted(found))
    return result


_pair_table: dict[tuple[int, ...], tuple[Triple, ...]] = {}


# A suit's part in the regular form: its candidates, and its candidates with a pair set aside
# (``suit_parts``); the honours' counts and theirs with each kind of pair set aside (``honour_parts``).
SuitParts = tuple[tuple[Triple, ...], tuple[Triple, ...]]
HonourParts = tuple[Triple, tuple[Triple, ...]]


def suit_parts(bingpai: list[int]) -> SuitParts:
    """One suit's part in ``xiangting_yiban`` (looked up by its counts)."""
    return _suit(bingpai), _suit_pairs(bingpai)


def honour_parts(zb: list[int]) -> HonourParts:
    """The honours' part in ``xiangting_yiban``."""
    z = _zipai(zb)
    # An honour pair set aside: from a pair nothing is left, from three a single, from four a pair
    # (from five, which only a trial fifth copy makes, a triplet: the counts are unchanged).
    m, d, g = z
    paired = tuple((m, d - 1, g) if c == 2 else (m - 1, d, g + 1) if c == 3 else (m - 1, d + 1, g) if c == 4 else z
                   for c in set(zb[1:8]) if c >= 2)
    return z, paired


def yiban_of_parts(pm: SuitParts, pp: SuitParts, ps: SuitParts, pz: HonourParts, n_fulou: int) -> int:
    """``xiangting_yiban`` from the parts of the hand's suits (without its rule for a hand that
    has just called): the bots' searches change one suit at a time and keep the others' parts."""
    rm, rp, rs = pm[0], pp[0], ps[0]
    z = pz[0]
    best = _mianzi_all(rm, rp, rs, z, n_fulou, False)
    # Each possible pair taken out first (only the minimum matters, so the order does not).
    if pm[1]:
        x = _mianzi_all(pm[1], rp, rs, z, n_fulou, True)
        if x < best:
            best = x
    if pp[1]:
        x = _mianzi_all(rm, pp[1], rs, z, n_fulou, True)
        if x < best:
            best = x
    if ps[1]:
        x = _mianzi_all(rm, rp, ps[1], z, n_fulou, True)
        if x < best:
            best = x
    for zz in pz[1]:
        x = _mianzi_all(rm, rp, rs, zz, n_fulou, True)
        if x < best:
            best = x
    return best


def xiangting_yiban(shoupai: Shoupai) -> int:
    """Shanten number of the regular form (4 sets and a pair), melds counted as sets."""
    b = shoupai._bingpai
    best = yiban_of_parts(suit_parts(b["m"]), suit_parts(b["p"]), suit_parts(b["s"]), honour_parts(b["z"]),
                          len(shoupai._fulou))
    # Majiang: a complete shape right after a call (it must still discard) counts as tenpai.
    zimo = shoupai._zimo
    if best == -1 and zimo and len(zimo) > 2:
        return 0
    return best


def xiangting_guoshi(shoupai: Shoupai) -> int | float:
    """Shanten number of kokushi musou (thirteen orphans); ``math.inf`` with melds."""
    if shoupai._fulou:
        return math.inf
    n_yaojiu = n_duizi = 0
    b = shoupai._bingpai
    for s in ("m", "p", "s", "z"):
        bingpai = b[s]
        for n in (1, 2, 3, 4, 5, 6, 7) if s == "z" else (1, 9):
            if bingpai[n] >= 1:
                n_yaojiu += 1
            if bingpai[n] >= 2:
                n_duizi += 1
    return 12 - n_yaojiu if n_duizi else 13 - n_yaojiu


def xiangting_qidui(shoupai: Shoupai) -> int | float:
    """Shanten number of seven pairs (four of a kind is one pair); ``math.inf`` with melds."""
    if shoupai._fulou:
        return math.inf
    n_duizi = n_guli = 0
    b = shoupai._bingpai
    for s in ("m", "p", "s", "z"):
        # Counted by list.count (the bots' searches call this in their inner loops); index 0 of a
        # suit holds its red fives, not a kind.
        counts = b[s][1:]
        single = counts.count(1)
        n_guli += single
        n_duizi += len(counts) - counts.count(0) - single
    if n_duizi > 7:
        n_duizi = 7
    if n_duizi + n_guli > 7:
        n_guli = 7 - n_duizi
    return 13 - n_duizi * 2 - n_guli


def xiangting(shoupai: Shoupai) -> int | float:
    """Shanten number: the minimum over the regular form, kokushi and seven pairs."""
    return min(xiangting_yiban(shoupai), xiangting_guoshi(shoupai), xiangting_qidui(shoupai))


def tingpai(shoupai: Shoupai, f_xiangting: Callable[[Shoupai], int | float] = xiangting) -> list[str] | None:
    """The tile kinds that lower the shanten number (the waits when tenpai), in m/p/s/z order
    without red fives; ``None`` if the hand has drawn (14 tiles). A kind whose four copies are all
    in the hand is skipped, but one whose copies are in melds or rivers is not (Majiang's rule)."""
    if shoupai._zimo:
        return None
    pai: list[str] = []
    n_xiangting = f_xiangting(shoupai)
    b = shoupai._bingpai
    for s in ("m", "p", "s", "z"):
        bingpai = b[s]
        for n in range(1, len(bingpai)):
            if bingpai[n] >= 4:
                continue
            bingpai[n] += 1
            try:
                if f_xiangting(shoupai) < n_xiangting:
                    pai.append(s + str(n))
            finally:
                bingpai[n] -= 1
    return pai
