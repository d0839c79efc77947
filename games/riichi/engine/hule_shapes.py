"""Precomputed per-shape data for the fast path of ``hule.hule``.

Majiang scores a hand by spelling out every reading as strings (``'m12_!3'``) and running regexes
over them (``get_hudi``). The answer depends only on a few counters per reading, and those are
sums over the sets: each set (``'m123'``, ``'z555'``, a meld) always adds the same amounts. So
the fast path works on packed counters instead of strings:

- ``classify_set``/``classify_pair`` run ``get_hudi``'s per-element rules (the same regexes) once
  per distinct element string and return its contribution as one ``int`` with 4-bit fields (see
  the layout below), plus a bit for the run or triplet it is (for 三色, 一気通貫, 役牌...).
- ``suit_shape(si, counts)`` decomposes one suit's tile counts into sets exactly as Majiang's
  ``mianzi`` does (same readings, same order) and sums each reading's counters once. The result
  is memoised on the counts: a hand is four such suit shapes, and the same suit shapes recur from
  hand to hand (the 10,000 oracle hands have about 2,300 distinct ones), unlike whole hands,
  which almost never repeat. Nothing here is keyed on a whole hand.
- ``meld_info(m)`` does the same for a meld string (memoised on the string).

A reading of the hand is then ``pair + one reading per suit + melds``: the counters add up. Where
the winning tile sits (pair wait, closed/edge wait, a triplet completed by ron) changes a few
counters; that change is precomputed per reading and winning digit as a delta (``win_tsumo`` /
``win_ron``), in Majiang's order (``add_hulepai``'s: sets left to right, repeated sets once).
"""

from __future__ import annotations

import functools
import re

# -- get_hudi's per-element rules (also used by hule.get_hudi, the reference path) --------------

CALLED = re.compile(r"[+=\-](?!!)")  # a call mark not on the winning tile: an open meld
RON = re.compile(r"[+=\-]!")  # the winning tile came from another seat
DANQI = re.compile(r"[mpsz]([0-9])\1[+=\-_]!")  # pair wait
KEZI = re.compile(r"[mpsz]([0-9])\1\1")
ANKEZI = re.compile(r"[mpsz]([0-9])\1\1(?:\1|_!)?")  # concealed: plain, ankan, or tsumo-completed
GANGZI = re.compile(r"[mpsz]([0-9])\1\1.*\1")
KANZHANG = re.compile(r"[mps][0-9][0-9][+=\-_]![0-9]")  # closed wait
BIANZHANG = re.compile(r"[mps](?:123[+=\-_]!|7[+=\-_]!89)")  # edge wait
YAOJIU_CHARS = re.compile(r"[z19]")
LVYISE_BAD_S = re.compile(r"s.*[1579]")

# -- packed counters -----------------------------------------------------------------------------
# One int per element / reading; adding two adds every field. Fields never exceed 15 in a
# reading (at most 7 elements) and fu (8 bits) at most 134, so no field overflows into the next.

FU = 1  # bits 0-7 (FU_MASK): fu of the sets and of the wait; the pair's wind/dragon fu is per hand
FU_MASK = 0xFF
# Each other field: 4 bits at the given shift; read as ``packed >> AT_X & 15``.
AT_SHUNZI = 8
AT_KEZI = 12
AT_ANKEZI = 16
AT_GANGZI = 20
AT_YAOJIU = 24  # elements with a terminal or honour
AT_NOT_GREEN = 28  # elements that rule out 緑一色
AT_M, AT_P, AT_S, AT_Z = 32, 36, 40, 44  # elements per suit (AT_Z: n_zipai)
AT_BEIKOU = 48  # sum over concealed runs of (copies >> 1)
AT_DANQI = 52
AT_DRAGON = 56  # dragon triplets/kans
AT_WIND = 60  # wind triplets/kans (the top field: ``packed >> AT_WIND`` needs no mask)

N_SHUNZI = 1 << AT_SHUNZI
N_KEZI = 1 << AT_KEZI
N_ANKEZI = 1 << AT_ANKEZI
N_GANGZI = 1 << AT_GANGZI
N_YAOJIU = 1 << AT_YAOJIU
N_NOT_GREEN = 1 << AT_NOT_GREEN
N_SUIT = (1 << AT_M, 1 << AT_P, 1 << AT_S, 1 << AT_Z)
N_BEIKOU = 1 << AT_BEIKOU
N_DANQI = 1 << AT_DANQI
N_DRAGON = 1 << AT_DRAGON
N_WIND = 1 << AT_WIND

# Bits of the run / triplet masks: suit index * SUIT_BITS + number (z is suit 3), so
# ``mask >> SUIT_BITS * i`` lines suit i up with m (三色: ``x & x >> 10 & x >> 20``).
SUIT_INDEX = {"m": 0, "p": 1, "s": 2, "z": 3}
SUIT_BITS = 10

# A pair wait: danqi, and 2 fu (get_hudi: ``if hudi.danqi: hudi.fu += 2``).
DANQI_DELTA = N_DANQI + 2 * FU


def _common(m: str) -> tuple[int, bool]:
    # The counters every element has: yaojiu, suit, 緑一色 exclusion.
    packed = N_SUIT[SUIT_INDEX[m[0]]]
    is_yaojiu = YAOJIU_CHARS.search(m) is not None
    if is_yaojiu:
        packed += N_YAOJIU
    if m[0] in "mp" or (m[0] == "z" and m[1:2] != "6") or LVYISE_BAD_S.match(m):
        packed += N_NOT_GREEN
    if DANQI.fullmatch(m):
        packed += N_DANQI
    return packed, is_yaojiu


@functools.cache  # a static table: a few hundred distinct set strings
def classify_set(m: str) -> tuple[int, int, int]:
    """(packed counters, run bit, triplet bit) of a non-pair element of a 5-element reading,
    exactly as ``get_hudi``'s loop counts it."""
    packed, is_yaojiu = _common(m)
    bit = 1 << (SUIT_INDEX[m[0]] * SUIT_BITS + int(m[1]))
    if KEZI.match(m):
        packed += N_KEZI
        fu = 2
        if is_yaojiu:
            fu *= 2
        if ANKEZI.fullmatch(m):
            fu *= 2
            packed += N_ANKEZI
        if GANGZI.match(m):
            fu *= 4
            packed += N_GANGZI
        if m[0] == "z":
            packed += N_DRAGON if m[1] in "567" else N_WIND
        return packed + fu * FU, 0, bit
    packed += N_SHUNZI
    if KANZHANG.fullmatch(m):
        packed += 2 * FU
    if BIANZHANG.fullmatch(m):
        packed += 2 * FU
    return packed, bit, 0


@functools.cache
def classify_pair(m: str) -> int:
    """Packed counters of a pair (also of a seven-pairs pair): no fu here, the wind/dragon fu
    depends on the seats and is added per hand."""
    return _common(m)[0]


# -- one suit's readings ----------------------------------------------------------------------


def suit_mianzi(s: str, bingpai: list[int], n: int = 1) -> list[list[str]]:
    """Every way to split one suit (counts ``bingpai[1..9]``) into runs and triplets, as
    Majiang's ``mianzi``: at each number, runs are tried before a triplet."""
    if n > 9:
        return [[]]
    if bingpai[n] == 0:
        return suit_mianzi(s, bingpai, n + 1)
    shunzi: list[list[str]] = []
    if n <= 7 and bingpai[n] > 0 and bingpai[n + 1] > 0 and bingpai[n + 2] > 0:
        bingpai[n] -= 1
        bingpai[n + 1] -= 1
        bingpai[n + 2] -= 1
        run = f"{s}{n}{n + 1}{n + 2}"
        shunzi = [[run, *rest] for rest in suit_mianzi(s, bingpai, n)]
        bingpai[n] += 1
        bingpai[n + 1] += 1
        bingpai[n + 2] += 1
    kezi: list[list[str]] = []
    if bingpai[n] == 3:
        bingpai[n] -= 3
        triplet = s + str(n) * 3
        kezi = [[triplet, *rest] for rest in suit_mianzi(s, bingpai, n + 1)]
        bingpai[n] += 3
    return shunzi + kezi


def _splits(c: list[int], numbers: bool) -> bool:
    """Whether counts ``c[1..]`` split into sets at all (a quick test before the search). For
    numbers, greedily: the lowest tile's count mod 3 must start that many runs (three equal runs
    are three triplets)."""
    if not numbers:
        return all(x in (0, 3) for x in c)
    a, b = 0, 0  # runs already started one / two numbers below
    for n in range(1, 10):
        x = c[n] - a - b
        if x < 0:
            return False
        a, b = x % 3, a
        if n >= 8 and a:
            return False  # a run cannot start at 8 or 9
    return True


def _zipai_mianzi(counts: list[int]) -> list[list[str]]:
    # Honours form triplets only (mianzi_all: any honour count other than 0 or 3 fails).
    if any(c not in (0, 3) for c in counts[1:]):
        return []
    return [["z" + str(n) * 3 for n in range(1, len(counts)) if counts[n]]]


Reading = tuple[int, int, int, tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...]]
"""(packed counters, run mask, triplet mask, win_tsumo, win_ron) of one suit's sets.
``win_tsumo[d]`` / ``win_ron[d]``: the counter deltas of each place the winning digit ``d`` can
sit in, in Majiang's order."""


@functools.cache  # a static table: one entry per distinct concealed set string
def _set_data(m: str) -> tuple[int, int, int, tuple[tuple[int, int, int], ...]]:
    # classify_set(m), and for each digit of m: (digit, delta if the winning tile (tsumo) is
    # that digit of this set, delta for ron). add_hulepai marks the last copy of the digit; the
    # regexes read every ron mark (+ = -) alike.
    packed, run, triplet = classify_set(m)
    wins = []
    for digit in sorted(set(m[1:])):
        k = m.rfind(digit)
        tsumo = classify_set(m[: k + 1] + "_!" + m[k + 1 :])[0]
        ron = classify_set(m[: k + 1] + "+!" + m[k + 1 :])[0]
        wins.append((int(digit), tsumo - packed, ron - packed))
    return packed, run, triplet, tuple(wins)


def _reading(sets: list[str]) -> Reading:
    packed = runs = triplets = 0
    win_tsumo: list[tuple[int, ...]] = [()] * 10
    win_ron: list[tuple[int, ...]] = [()] * 10
    previous = None
    for m in sets:
        p, run, triplet, wins = _set_data(m)
        packed += p
        runs |= run
        triplets |= triplet
        if m != previous:  # add_hulepai marks only the first of equal adjacent sets
            for d, tsumo, ron in wins:
                win_tsumo[d] += (tsumo,)
                win_ron[d] += (ron,)
        previous = m
    # 一盃口/二盃口: Majiang sums (copies of each run) >> 1; equal runs are always in one suit.
    if len(set(sets)) < len(sets):
        for m in set(sets):
            if not KEZI.match(m):
                packed += N_BEIKOU * (sets.count(m) >> 1)
    return packed, runs, triplets, tuple(win_tsumo), tuple(win_ron)


class SuitShape:
    """What the fast path needs of one suit's tile counts.

    ``plain``: the readings with no pair in this suit; ``pairs``: ``(n, readings)`` for each
    pair ``n`` (ascending) that leaves a readable rest, as Majiang tries pairs; ``qidui``: packed
    counters of the suit's pairs for seven pairs if every count is 0 or 2, else -1; ``n_pai``:
    the number of tiles; ``maybe_guoshi``: every terminal/honour of the suit present (kokushi
    possible); ``maybe_jiulian``: 1 and 9 three times and every number (nine gates possible).
    """

    __slots__ = ("plain", "pairs", "qidui", "n_pai", "maybe_guoshi", "maybe_jiulian")

    def __init__(self, si: int, counts: tuple[int, ...]) -> None:
        s = "mpsz"[si]
        c = list(counts)  # c[0] (red fives) is 0: suit_shape shares the shape without them
        n_pai = sum(c)
        numbers = s != "z"
        # Sets take 3 tiles: only a multiple of 3 can be read without a pair, only 3k + 2 with.
        plain: tuple[Reading, ...] = ()
        if n_pai % 3 == 0 and _splits(c, numbers):
            sets = suit_mianzi(s, c) if numbers else _zipai_mianzi(c)
            plain = tuple(_reading(r) for r in sets)
        pairs = []
        if n_pai % 3 == 2:
            for n in range(1, len(c)):
                if c[n] >= 2:
                    c[n] -= 2
                    if _splits(c, numbers):
                        pairs.append((n, suit_shape(si, tuple(c)).plain))  # memoised too
                    c[n] += 2
        self.plain = plain
        self.pairs = tuple(pairs)
        if set(c) <= {0, 2}:
            self.qidui = sum(classify_pair(s + str(n) * 2) for n in range(1, len(c)) if c[n])
        else:
            self.qidui = -1
        self.n_pai = n_pai
        ends = range(1, len(c)) if not numbers else (1, 9)
        self.maybe_guoshi = all(c[n] for n in ends)
        self.maybe_jiulian = numbers and c[1] >= 3 and c[9] >= 3 and all(c[1:10])


# One memo per suit (m, p, s, z), keyed on the suit's counts list as a tuple (index 0, the red
# fives, included: building the key is then just tuple(list)). Bounded for a long-running server;
# the shapes that occur are a few thousand per suit.
SHAPES: tuple[dict[tuple[int, ...], SuitShape], ...] = ({}, {}, {}, {})
_SHAPES_LIMIT = 20_000  # per suit; about 0.5 kB a shape


def suit_shape(si: int, counts: tuple[int, ...]) -> SuitShape:
    """The (memoised) shape of suit ``'mpsz'[si]`` with these counts."""
    memo = SHAPES[si]
    shape = memo.get(counts)
    if shape is None:
        if len(memo) >= _SHAPES_LIMIT:
            memo.clear()
        if counts[0]:
            # Red fives change nothing here: share the shape of the same counts without them.
            shape = suit_shape(si, (0, *counts[1:]))
        else:
            shape = SuitShape(si, counts)
        memo[counts] = shape
    return shape


# A pair's counters by suit index and number (get_hudi's pair fu for honours is added per hand).
PAIR_PACKED: tuple[tuple[int, ...], ...] = tuple(
    tuple(classify_pair(s + str(n) * 2) if n else 0 for n in range(10 if s != "z" else 8)) for s in "mpsz"
)


# -- melds ------------------------------------------------------------------------------------


class MeldInfo:
    """A meld string's part in every reading (Majiang puts melds, 0 read as 5, after the
    concealed sets) and in the dora count (get_post_hupai reads the meld string itself)."""

    __slots__ = ("packed", "runs", "triplets", "open", "suit_index", "dora", "hongpai", "text")

    def __init__(self, m: str) -> None:
        self.text = m.replace("0", "5")
        self.packed, self.runs, self.triplets = classify_set(self.text)
        self.open = CALLED.search(self.text) is not None
        self.suit_index = SUIT_INDEX[m[0]]
        # get_post_hupai counts each indicated digit in the meld after turning its first red
        # five into a 5.
        first = m.replace("0", "5", 1)
        self.dora = tuple(first.count(str(d)) for d in range(10))
        self.hongpai = m.count("0")


MELDS: dict[str, MeldInfo] = {}
_MELDS_LIMIT = 10_000


def meld_info(m: str) -> MeldInfo:
    """The (memoised) ``MeldInfo`` of meld ``m``."""
    info = MELDS.get(m)
    if info is None:
        if len(MELDS) >= _MELDS_LIMIT:
            MELDS.clear()
        info = MELDS[m] = MeldInfo(m)
    return info


def clear_caches() -> None:
    """Forget the memoised suit shapes and melds (to measure scoring with a cold cache)."""
    for memo in SHAPES:
        memo.clear()
    MELDS.clear()
