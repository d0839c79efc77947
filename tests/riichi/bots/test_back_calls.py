"""The strong bot's ``back_calls`` knob (``strong.STYLE``; docs/performance.md, issue 31, seventh
pass): a call may lower the plain shanten number of a hand whose yaku is still to come from a
value-honour pair with both other copies unseen (後付け), as majiang-ai calls."""

from __future__ import annotations

import math
import random
from typing import Any

from games.riichi.bots import strong
from games.riichi.bots.value import Evaluator
from games.riichi.engine.rule import rule as make_rule
from games.riichi.engine.shoupai import Shoupai
from games.riichi.engine.xiangting import xiangting
from tests.riichi.bots.test_strong import strong_decisions

BACK = {"back_calls": 1.0}


def view(shoupai: str, he: dict[int, list[str]] | None = None, zhuangfeng: int = 0, menfeng: int = 1) -> dict[str, Any]:
    """South's (by default) view in East round, nobody threatening, the rivers as given."""
    seats = [{"seat": s, "menfeng": s, "he": (he or {}).get(s, []), "fulou": [], "lizhi": False, "shoupai": ""}
             for s in range(4)]
    return {"me": {"seat": menfeng, "menfeng": menfeng, "shoupai": shoupai}, "seats": seats, "baopai": ["m1"],
            "rule": make_rule(), "zhuangfeng": zhuangfeng, "jushu": 1, "paishu": 60, "defen": [25000] * 4}


def evaluator(shoupai: str, **options: Any) -> tuple[Evaluator, Shoupai]:
    v = view(shoupai, **options)
    sp = Shoupai.from_string(shoupai)
    return Evaluator(v, v["me"], sp), sp


def test_a_value_pair_with_both_copies_unseen_counts_the_plain_shanten() -> None:
    # Open (a chi of s789), haku pair, both other haku unseen: the plain shanten number, where the
    # yaku shanten counts one more for the pon still to come.
    ev, sp = evaluator("m122p067s125z55,s7-89")
    assert ev.yaku_xiangting(sp) == xiangting(sp) + 1
    assert ev.back_xiangting(sp) == xiangting(sp)
    # One haku in a river: the pair is as the yaku shanten counts it.
    ev, sp = evaluator("m122p067s125z55,s7-89", he={2: ["z5"]})
    assert ev.back_xiangting(sp) == ev.yaku_xiangting(sp) == xiangting(sp) + 1
    # North is no value honour for South in the East round: no yaku path but a one-suit hand.
    ev, sp = evaluator("m122p067s125z44,s7-89")
    assert ev.back_xiangting(sp) == ev.yaku_xiangting(sp)
    # A closed hand, and an open one with its yaku already (a haku pon), are as before.
    for hand in ("m122p067s12589z55", "m122p067s125z11,z555="):
        ev, sp = evaluator(hand)
        assert ev.back_xiangting(sp) == ev.yaku_xiangting(sp) != math.inf


def test_with_back_calls_a_hand_holding_a_value_pair_chis_towards_it() -> None:
    hand = "m122p067s12589z55"
    v = view(hand)
    sp = Shoupai.from_string(hand)
    assert strong._choose_call(strong._Decision(v, v["me"], sp, True, True), ["s7-89"]) is None
    assert strong._choose_call(strong._Decision(v, v["me"], sp, True, True, BACK), ["s7-89"]) == "s7-89"
    # With one haku gone the pon may never come: no call either way.
    v = view(hand, he={3: ["z5"]})
    assert strong._choose_call(strong._Decision(v, v["me"], sp, True, True, BACK), ["s7-89"]) is None


def test_back_calls_changes_calls_only_and_some_real_ones() -> None:
    knob = strong.make_choose(style=BACK)
    calls = differed = 0
    for v, legal, _ in strong_decisions(range(150, 154)):
        plain = strong.choose(v, legal, random.Random(0))
        other = knob(v, legal, random.Random(0))
        if any(a["type"] == "fulou" for a in legal) and plain[0] in ("fulou", "pass"):
            # Only whether (and which) to call may change.
            calls += 1
            differed += other != plain
            assert other[0] in ("fulou", "pass"), (v["me"]["shoupai"], plain, other)
            assert other[0] == "pass" or other in [("fulou", a["params"]) for a in legal], other
        else:
            assert other == plain, (v["me"]["shoupai"], plain, other)
    assert calls and differed, (calls, differed)
