"""Differential test: ``hule()``'s fast path scores exactly like ``_hule_reference()``.

``hule`` answers most hands from precomputed per-shape counters (``hule_shapes``) and hands the
rest to ``_hule_reference``, the direct port of Majiang. Here random hands, weighted toward the
unusual shapes where the two could differ, are scored both ways: the results must be equal, or
both calls must raise the same exception type.

Each hand comes from one family (a generator below): mixed hands, flushes, honours, terminals,
green hands, seven pairs, kokushi, nine gates, and hands built around 三色, 一気通貫, chanta,
pinfu, 三色同刻 and dragon / wind triplets (pao). Sets may be called or kans, fives may be red
(several per suit), and a few cases are malformed on purpose (face-down tile, no drawn tile, ron
tile without a mark, bad dora indicator...). The rule flags, winds, situational yaku (riichi,
tenhou, ...), dora and ura dora, honba and riichi sticks are random too. A failure message gives
the hand as a ``Shoupai.from_string`` string, the ron tile and the param: enough to reproduce it.

A second test repeats a batch with the shape memos of ``hule_shapes`` (and the reference path's
readings cache) limited to a few entries, so they are emptied and refilled all the time.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import pytest

import games.riichi.engine.hule as hule_module
import games.riichi.engine.hule_shapes as hule_shapes
from games.riichi.engine.hule import _hule_reference, hule, hule_param
from games.riichi.engine.rule import rule as make_rule
from games.riichi.engine.shoupai import Shoupai
from games.riichi.engine.tile import valid_mianzi

SEEDS = (1, 2, 3)
HANDS_PER_SEED = 8_000

NUMBERS = [f"{s}{n}" for s in "mps" for n in range(1, 10)]
HONOURS = [f"z{n}" for n in range(1, 8)]
ALL_KINDS = NUMBERS + HONOURS
TERMINALS = ["m1", "m9", "p1", "p9", "s1", "s9"]
ORPHANS = TERMINALS + HONOURS  # kokushi's thirteen
GREEN = ["s2", "s3", "s4", "s6", "s8", "z6"]
WINDS, DRAGONS = HONOURS[:4], HONOURS[4:]
FIVES = ("m5", "p5", "s5")
INDICATORS = [f"{s}{n}" for s in "mps" for n in range(10)] + HONOURS  # red fives included

# Probability of each boolean rule option being on.
RULE_FLAGS = {
    "連風牌は2符": 0.3,
    "クイタンあり": 0.7,
    "役満の複合あり": 0.7,
    "ダブル役満あり": 0.7,
    "数え役満あり": 0.7,
    "役満パオあり": 0.7,
    "切り上げ満貫あり": 0.3,
}


# -- hands ---------------------------------------------------------------------------------------


class Hand:
    """A hand being built: concealed tiles and meld strings, never a fifth copy of a tile."""

    def __init__(self, rnd: random.Random) -> None:
        self.rnd = rnd
        self.concealed: list[str] = []
        self.melds: list[str] = []
        self._used: Counter[str] = Counter()

    @property
    def n_sets(self) -> int:
        return len(self.melds) + len(self.concealed) // 3

    def _take(self, tiles: list[str]) -> bool:
        wanted = Counter(tiles)
        if any(self._used[k] + n > 4 for k, n in wanted.items()):
            return False
        self._used.update(wanted)
        return True

    def tiles(self, *tiles: str) -> bool:
        """Concealed loose tiles (a pair, or anything)."""
        if not self._take(list(tiles)):
            return False
        self.concealed += tiles
        return True

    def run(self, s: str, n: int, called: bool = False) -> bool:
        tiles = [f"{s}{n + i}" for i in range(3)]
        if not self._take(tiles):
            return False
        if called:  # a chi: one tile taken from the left
            taken = self.rnd.randrange(3)
            self.melds.append(s + "".join(str(n + i) + ("-" if i == taken else "") for i in range(3)))
        else:
            self.concealed += tiles
        return True

    def triplet(self, k: str, called: bool = False, kan: bool = False) -> bool:
        if not self._take([k] * (4 if kan else 3)):
            return False
        s, d = k[0], k[1]
        mark = self.rnd.choice("+=-")
        if kan:  # closed, called or added
            self.melds.append(self.rnd.choice([s + d * 4, s + d * 4 + mark, s + d * 3 + mark + d]))
        elif called:
            self.melds.append(s + d * 3 + mark)
        else:
            self.concealed += [k] * 3
        return True

    def pair_from(self, kinds: list[str]) -> bool:
        return any(self.tiles(k, k) for k in self.rnd.sample(kinds, len(kinds)))

    def redden(self) -> None:
        """Make some fives red, in the concealed tiles and in the melds (several per suit)."""
        rnd = self.rnd
        self.concealed = [p[0] + "0" if p in FIVES and rnd.random() < 0.4 else p for p in self.concealed]
        melds = []
        for m in self.melds:
            fives = [i for i, c in enumerate(m) if c == "5"]
            if m[0] != "z" and fives and rnd.random() < 0.5:
                for i in rnd.sample(fives, rnd.randint(1, len(fives))):
                    m = m[:i] + "0" + m[i + 1 :]
            normal = valid_mianzi(m)
            assert normal, m
            melds.append(normal)
        self.melds = melds


def _open_rate(rnd: random.Random) -> float:
    return rnd.choice((0, 0, 0, 0.3, 0.6, 1))


def _regular(rnd: random.Random, hand: Hand, kinds: list[str]) -> bool:
    # Four sets and a pair, all from kinds; runs only where all three tiles are kinds.
    open_rate = _open_rate(rnd)
    for _ in range(200):
        if hand.n_sets == 4:
            return hand.pair_from(kinds)
        k = rnd.choice(kinds)
        s, n = k[0], int(k[1])
        called = rnd.random() < open_rate
        if s != "z" and n <= 7 and rnd.random() < 0.55 and all(f"{s}{n + i}" in kinds for i in (1, 2)):
            hand.run(s, n, called)
        else:
            hand.triplet(k, called, kan=rnd.random() < 0.2)
    return False


def _built(rnd: random.Random, hand: Hand, sets: list[tuple[str, str]], last: list[str] | None = None) -> bool:
    # The given sets (("run", "m1") = m123, ("triplet", "z5")), a fourth set (a triplet of one of
    # ``last`` if given), and a pair. The first few sets may be called.
    if last:
        sets.append(("triplet", rnd.choice(last)))
    elif rnd.random() < 0.5:
        sets.append(("run", f"{rnd.choice('mps')}{rnd.randint(1, 7)}"))
    else:
        sets.append(("triplet", rnd.choice(ALL_KINDS)))
    n_called = rnd.choice((0, 0, 1, 2, 3, 4))
    for i, (shape, k) in enumerate(sets):
        called = i < n_called
        if shape == "run":
            ok = hand.run(k[0], int(k[1]), called)
        else:
            ok = hand.triplet(k, called, kan=rnd.random() < 0.15)
        if not ok:
            return False
    return hand.pair_from(rnd.choice([ALL_KINDS, TERMINALS, HONOURS]))


def mixed(rnd: random.Random, hand: Hand) -> bool:
    return _regular(rnd, hand, ALL_KINDS)


def flush(rnd: random.Random, hand: Hand) -> bool:
    s = rnd.choice("mps")
    kinds = [f"{s}{n}" for n in range(1, 10)]
    if rnd.random() < 0.5:
        kinds += ["z1", "z5", "z7"]
    return _regular(rnd, hand, kinds)


def honours(rnd: random.Random, hand: Hand) -> bool:
    return _regular(rnd, hand, HONOURS + ["m1", "m9", "p1", "s9"])


def terminals(rnd: random.Random, hand: Hand) -> bool:
    return _regular(rnd, hand, TERMINALS + ["z1", "z5"])


def green(rnd: random.Random, hand: Hand) -> bool:
    return _regular(rnd, hand, GREEN)


def seven_pairs(rnd: random.Random, hand: Hand) -> bool:
    s = rnd.choice("mps")
    pool = rnd.choice([ALL_KINDS, [f"{s}{n}" for n in range(1, 10)], TERMINALS + HONOURS])
    return all(hand.tiles(k, k) for k in rnd.sample(pool, 7))


def kokushi(rnd: random.Random, hand: Hand) -> bool:
    tiles = [*ORPHANS, rnd.choice(ORPHANS)]
    if rnd.random() < 0.2:  # spoiled: one tile is anything
        tiles[rnd.randrange(14)] = rnd.choice(ALL_KINDS)
    return hand.tiles(*tiles)


def nine_gates(rnd: random.Random, hand: Hand) -> bool:
    s = rnd.choice("mps")
    return hand.tiles(*(f"{s}{n}" for n in (1, 1, 1, 2, 3, 4, 5, 6, 7, 8, 9, 9, 9, rnd.randint(1, 9))))


def sanshoku(rnd: random.Random, hand: Hand) -> bool:
    n = rnd.randint(1, 7)
    return _built(rnd, hand, [("run", f"{s}{n}") for s in "mps"])


def sanshoku_triplets(rnd: random.Random, hand: Hand) -> bool:
    n = rnd.randint(1, 9)
    return _built(rnd, hand, [("triplet", f"{s}{n}") for s in "mps"])


def ittsu(rnd: random.Random, hand: Hand) -> bool:
    s = rnd.choice("mps")
    return _built(rnd, hand, [("run", f"{s}{n}") for n in (1, 4, 7)])


def chanta(rnd: random.Random, hand: Hand) -> bool:
    def outside() -> tuple[str, str]:
        if rnd.random() < 0.5:
            return ("run", f"{rnd.choice('mps')}{rnd.choice((1, 7))}")
        return ("triplet", rnd.choice(["m1", "m9", "p9", "s1", "z3", "z7"]))

    return _built(rnd, hand, [outside() for _ in range(3)])


def pinfu(rnd: random.Random, hand: Hand) -> bool:
    return _built(rnd, hand, [("run", f"{rnd.choice('mps')}{rnd.randint(1, 7)}") for _ in range(3)])


def dragons_winds(rnd: random.Random, hand: Hand) -> bool:
    # 大三元 / 四喜 and their pao (the seat that fed the last dragon / wind meld pays).
    group = DRAGONS if rnd.random() < 0.6 else WINDS
    sets = [("triplet", k) for k in rnd.sample(group, 3)]
    return _built(rnd, hand, sets, last=HONOURS if rnd.random() < 0.5 else None)


def junk(rnd: random.Random, hand: Hand) -> bool:
    while len(hand.concealed) < 14:
        hand.tiles(rnd.choice(ALL_KINDS))
    return True


FAMILIES: dict[str, Callable[[random.Random, Hand], bool]] = {
    f.__name__: f
    for f in (
        mixed,
        flush,
        honours,
        terminals,
        green,
        seven_pairs,
        kokushi,
        nine_gates,
        sanshoku,
        sanshoku_triplets,
        ittsu,
        chanta,
        pinfu,
        dragons_winds,
        junk,
    )
}
# Mostly the ordinary shapes, the others often enough to appear many times per seed.
FAMILY_WEIGHTS = {name: 3 if name in ("mixed", "flush") else 1 for name in FAMILIES}

ODDITIES = ("face_down", "no_draw", "meld_drawn", "ron_after_draw", "ron_without_mark", "bad_ron_tile", "bad_dora")


# -- cases ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Case:
    family: str
    paistr: str  # Shoupai.from_string form
    rongpai: str | None
    param: dict[str, Any]

    def __str__(self) -> str:
        # The rule as its options that differ from the defaults.
        param = dict(self.param)
        if "rule" in param:
            default = make_rule()
            overrides = {k: v for k, v in param["rule"].items() if v != default[k]}
            param["rule"] = f"rule(**{overrides!r})"
        return f"[{self.family}] {self.paistr!r} rongpai={self.rongpai!r} param={param!r}"


def _param(rnd: random.Random, lizhi: int) -> dict[str, Any]:
    hupai: dict[str, Any] = {}
    if rnd.random() < 0.7:
        hupai = {
            "lizhi": lizhi,
            "yifa": lizhi > 0 and rnd.random() < 0.3,
            "qianggang": rnd.random() < 0.05,
            "lingshang": rnd.random() < 0.05,
            "haidi": rnd.choice((0, 0, 0, 1, 2)),
            "tianhu": rnd.choice((1, 2)) if rnd.random() < 0.04 else 0,
        }
    param = hule_param(
        rule=make_rule(**{flag: rnd.random() < p for flag, p in RULE_FLAGS.items()}),
        zhuangfeng=rnd.randrange(4),
        menfeng=rnd.randrange(4),
        baopai=rnd.sample(INDICATORS, rnd.randint(0, 5)),
        fubaopai=rnd.choice([None, [], rnd.sample(INDICATORS, rnd.randint(1, 5))]),
        changbang=rnd.randint(0, 5),
        lizhibang=rnd.randint(0, 3),
        **hupai,
    )
    if not hupai:
        param["hupai"] = {}
    if rnd.random() < 0.05:
        del param["rule"]  # hule falls back to rule()
    return param


def make_case(rnd: random.Random) -> Case | None:
    """A random case, or None when the family's generator ran out of tiles."""
    family = rnd.choices(list(FAMILY_WEIGHTS), weights=list(FAMILY_WEIGHTS.values()))[0]
    hand = Hand(rnd)
    if not FAMILIES[family](rnd, hand):
        return None
    hand.redden()
    tiles = hand.concealed[:]
    rnd.shuffle(tiles)
    win = tiles.pop()
    zimo = rnd.random() < 0.45
    rongpai = None if zimo else win + rnd.choice(("+", "=", "-", "_+", "_="))
    lizhi = rnd.choice((0, 0, 1, 2)) if not any(c in m for m in hand.melds for c in "+=-") else 0
    param = _param(rnd, lizhi)

    oddity = rnd.choice(ODDITIES) if rnd.random() < 0.05 else None
    head = ""
    if oddity == "face_down":
        head, tiles = "_", tiles[1:]
    elif oddity == "ron_without_mark":
        rongpai = win
    elif oddity == "bad_ron_tile":
        rongpai = "z8-"
    elif oddity == "ron_after_draw":
        zimo, rongpai = True, rnd.choice(ALL_KINDS) + "="
    elif oddity == "no_draw":
        zimo, rongpai = False, None
    elif oddity == "bad_dora":
        param["baopai"] = [*param["baopai"], "x9"]
    if zimo:
        tiles.append(win)  # written last: the drawn tile
    paistr = head + "".join(tiles) + ("*" if lizhi else "") + "".join("," + m for m in hand.melds)
    if oddity == "meld_drawn" and hand.melds:
        paistr += ","  # the last meld was just called: the hand has not drawn
    return Case(family, paistr, rongpai, param)


# -- comparison ----------------------------------------------------------------------------------


def reference(shoupai: Shoupai, rongpai: str | None, param: Mapping[str, Any]) -> dict[str, Any] | None:
    """``hule`` through ``_hule_reference`` only: the same input checks, no fast path."""
    if rongpai:
        if rongpai[-1] not in "+=-":
            raise ValueError(f"ron tile {rongpai!r} has no direction mark")
        rongpai = rongpai[:2] + rongpai[-1]
    if "rule" not in param:
        param = {**param, "rule": make_rule()}
    return _hule_reference(shoupai, rongpai, param)


def outcome(score: Callable[..., dict[str, Any] | None], case: Case) -> Any:
    """The result, or the type of the exception raised (a fresh hand for each call)."""
    shoupai = Shoupai.from_string(case.paistr)
    try:
        return score(shoupai, case.rongpai, case.param)
    except Exception as exc:  # any exception is an outcome to compare
        return type(exc)


def kind_of(result: Any) -> str:
    if isinstance(result, type):
        return "raised"
    if result is None:
        return "not complete"
    if "hupai" not in result:
        return "no yaku"
    return "yakuman" if result["damanguan"] else "scored"


@dataclass
class Report:
    mismatches: list[str] = field(default_factory=list)
    cases: Counter[str] = field(default_factory=Counter)  # per family
    won: Counter[str] = field(default_factory=Counter)  # per family: scored or yakuman
    kinds: Counter[str] = field(default_factory=Counter)  # per kind_of
    yaku: set[str] = field(default_factory=set)
    pao: int = 0


def compare(seed: int, n_hands: int) -> Report:
    rnd = random.Random(seed)
    report = Report()
    while sum(report.cases.values()) < n_hands:
        case = make_case(rnd)
        if case is None:
            continue
        fast, slow = outcome(hule, case), outcome(reference, case)
        if fast != slow:
            report.mismatches.append(f"{case}\n  hule:      {fast!r}\n  reference: {slow!r}")
        report.cases[case.family] += 1
        kind = kind_of(fast)
        report.kinds[kind] += 1
        if kind in ("scored", "yakuman"):
            report.won[case.family] += 1
            report.yaku.update(h["name"] for h in fast["hupai"])
            report.pao += any("baojia" in h for h in fast["hupai"])
    return report


def _assert_same(report: Report) -> None:
    if report.mismatches:
        first = "\n".join(report.mismatches[:3])
        pytest.fail(f"{len(report.mismatches)} hands scored differently, the first ones:\n{first}", pytrace=False)


# Yaku that each seed's batch must reach, so the generators keep exercising the rare paths.
EXPECTED_YAKU = {
    "立直",
    "天和",
    "ドラ",
    "赤ドラ",
    "裏ドラ",
    "平和",
    "一盃口",
    "七対子",
    "三色同順",
    "三色同刻",
    "一気通貫",
    "混全帯幺九",
    "純全帯幺九",
    "混一色",
    "清一色",
    "対々和",
    "三槓子",
    "国士無双",
    "九蓮宝燈",
    "大三元",
    "字一色",
    "緑一色",
    "清老頭",
}


@pytest.mark.parametrize("seed", SEEDS)
def test_fast_path_scores_like_the_reference(seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    paths: Counter[str] = Counter()
    fast_path = hule_module._hule_fast

    def counted(*args: Any) -> Any:
        answer = fast_path(*args)
        paths["reference" if answer is hule_module._UNSUPPORTED else "fast"] += 1
        return answer

    monkeypatch.setattr(hule_module, "_hule_fast", counted)
    report = compare(seed, HANDS_PER_SEED)
    _assert_same(report)

    # The batch really covers what it claims to.
    assert set(report.cases) == set(FAMILIES)
    assert set(report.won) >= set(FAMILIES) - {"junk"}, report.won
    assert set(report.kinds) == {"scored", "yakuman", "no yaku", "not complete", "raised"}, report.kinds
    assert EXPECTED_YAKU <= report.yaku, EXPECTED_YAKU - report.yaku
    assert report.pao > 0
    assert paths["fast"] > paths["reference"] > 0, paths


def test_fast_path_with_tiny_shape_memos(monkeypatch: pytest.MonkeyPatch) -> None:
    # The memos are emptied whenever they reach their limit: with limits this small that happens
    # on nearly every hand, so shapes are rebuilt (and red-five shapes re-shared) all the time.
    monkeypatch.setattr(hule_shapes, "_SHAPES_LIMIT", 3)
    monkeypatch.setattr(hule_shapes, "_MELDS_LIMIT", 2)
    monkeypatch.setattr(hule_module, "_SUIT_READINGS_LIMIT", 3)
    hule_shapes.clear_caches()
    try:
        _assert_same(compare(seed=100, n_hands=2_000))
        assert all(len(memo) <= 3 for memo in hule_shapes.SHAPES)
        assert len(hule_shapes.MELDS) <= 2
    finally:
        hule_shapes.clear_caches()
