"""Shanten numbers and waits on constructed hands (the 40,000 reference hands are in
test_oracle_xiangting.py)."""

from __future__ import annotations

import math
import time

from games.riichi.engine.shoupai import Shoupai
from games.riichi.engine.xiangting import tingpai, xiangting, xiangting_guoshi, xiangting_qidui, xiangting_yiban
from tests.riichi.engine.oracle import xiangting_cases


def hand(paistr: str) -> Shoupai:
    return Shoupai.from_string(paistr)


def test_complete_and_tenpai() -> None:
    assert xiangting(hand("m123p456s789z1122z2")) == -1
    assert xiangting(hand("m123p456s789z1122")) == 0
    assert tingpai(hand("m123p456s789z1122")) == ["z1", "z2"]
    assert xiangting(hand("m123p456s789z1123")) == 1
    assert xiangting(hand("m123p456s789z1234")) == 2  # no pair: four isolated honours


def test_kokushi_and_seven_pairs() -> None:
    kokushi = hand("m19p19s19z1234567")
    assert xiangting_guoshi(kokushi) == 0
    assert tingpai(kokushi) == ["m1", "m9", "p1", "p9", "s1", "s9", "z1", "z2", "z3", "z4", "z5", "z6", "z7"]
    qidui = hand("m1133p2255s7799z1")
    assert xiangting_qidui(qidui) == 0
    assert tingpai(qidui) == ["z1"]
    # A four of a kind is only one pair for seven pairs: 5 pairs + z1 is 2-shanten, not 1.
    assert xiangting_qidui(hand("m1111p2255s7799z1")) == 2
    assert xiangting_qidui(hand("m1122p2255s7799z1")) == 0


def test_melds_rule_out_kokushi_and_seven_pairs() -> None:
    sp = hand("m123p456s789z1,z222+")
    assert xiangting_guoshi(sp) == math.inf and xiangting_qidui(sp) == math.inf
    assert xiangting_yiban(sp) == 0
    assert tingpai(sp) == ["z1"]


def test_complete_shape_right_after_a_call_counts_as_tenpai() -> None:
    # Majiang: the hand still has to discard, so a "complete" shape is reported as 0.
    assert xiangting(hand("m123p456s789z11,z222+,")) == 0


def test_tingpai_skips_a_fifth_copy() -> None:
    # Pure nine gates waits on all nine.
    assert tingpai(hand("m1112345678999")) == [f"m{n}" for n in range(1, 10)]
    # Waiting only on a fifth m1: shanten 0 yet no wait (so riichi is refused).
    quad = hand("m1111p456s789z111")
    assert xiangting(quad) == 0
    assert tingpai(quad) == []


def test_tingpai_of_a_hand_that_must_discard_is_none() -> None:
    assert tingpai(hand("m123p456s789z1122z2")) is None


def test_shanten_speed() -> None:
    # A sanity floor, not a benchmark: 10,000 reference hands well within a second.
    hands = [Shoupai(case["q"]) for case in xiangting_cases(1)]
    started = time.process_time()
    for sp in hands:
        xiangting(sp)
    rate = len(hands) / max(time.process_time() - started, 1e-9)
    assert rate > 2000, f"{rate:.0f} hands/s"
