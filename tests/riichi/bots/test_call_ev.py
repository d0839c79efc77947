"""The strong bot's call-aware value of a hand one from tenpai (``strong.STYLE["call_ev"]``,
``Evaluator.call_values``): a tile that brings tenpai counts also as a pon from any seat and a chi
from the left, valued by the open tenpai hand it makes, which needs a yaku (majiang-ai's
eval_fulou). Checked on hands worked out by hand, and against its definition over real games."""

from __future__ import annotations

import random
from typing import Any

import pytest

from games.riichi.bots import strong
from games.riichi.bots.value import Evaluator, after_discard
from games.riichi.engine.shoupai import Shoupai
from games.riichi.engine.xiangting import xiangting
from tests.riichi.bots.test_strong import strong_decisions


def _view() -> dict[str, Any]:
    seats = [{"seat": s, "menfeng": s, "he": [], "fulou": [], "lizhi": False, "shoupai": "", "defen": 25000}
             for s in range(4)]
    # Seat 1 is south: haku (z5) is a value honour for everyone, the winds z1 (round) and z2 (seat).
    return {"seats": seats, "baopai": ["p1"], "paishu": 60, "zhuangfeng": 0, "jushu": 0}


def _evaluator(hand: str) -> tuple[Evaluator, Shoupai]:
    view = _view()
    sp = Shoupai.from_string(hand)
    return Evaluator(view, {"seat": 1, "menfeng": 1}, sp), sp


# One from tenpai: m234 and p567 made, s23 waiting, pairs s99 and haku, m8 spare.
HAND = "m2348p567s2399z55"


def test_a_pon_of_the_value_pair_makes_a_yaku_hand_and_a_bare_pon_does_not() -> None:
    ev, sp = _evaluator(HAND)
    assert xiangting(sp) == 1
    # Pon haku, let m8 go: s1-s4 wait, haku for the yaku.
    haku = Shoupai.from_string("m234p567s2399,z555+")
    assert ev.call_values(sp, "z5") == (ev.ev0(haku, False, ("m8",)), 0.0)
    assert ev.call_values(sp, "z5")[0] > 0
    # Pon s9, let m8 go: s1-s4 wait with no yaku (the haku pair only a pair; s9 not tanyao).
    assert ev.call_values(sp, "s9") == (0.0, 0.0)
    # Chi s1 from the left, let m8 go: s9/haku shanpon, a yaku on haku only.
    chi = Shoupai.from_string("m234p567s99z55,s1-23")
    pon, chi_value = ev.call_values(sp, "s1")
    assert pon == 0.0 and chi_value == ev.ev0(chi, False, ("m8",)) > 0


def test_one_from_tenpai_adds_the_calls_with_majiang_ais_weights() -> None:
    ev, sp = _evaluator(HAND)
    plain = ev.ev1(sp)
    ev2, _ = _evaluator(HAND)
    ev2.call_ev = 1.0
    extra = 0.0
    for t in ev.tingpai(sp):
        pon, chi = ev.call_values(sp, t)
        extra += ev.unseen(sp, t) * (pon * 3 if pon > chi else pon * 2 + chi)
    assert extra > 0
    assert ev2.ev1(sp) == pytest.approx(plain + extra / 72.0)


def _calls_by_definition(ev: Evaluator, sp13: Shoupai, t: str) -> tuple[float, float]:
    """Every meld the engine allows on ``t`` (pon from the right, chi from the left), every legal
    discard after it, the best open tenpai score by ``ev0``."""
    out = []
    for mark, melds in (("+", sp13.get_peng_mianzi), ("-", sp13.get_chi_mianzi)):
        best = 0.0
        for m in melds(t + mark) or []:
            called = sp13.clone().fulou(m)
            for p in called.get_dapai():
                h = called.clone().dapai(p)
                if xiangting(h) == 0:
                    best = max(best, ev.ev0(h, False, (p[:2].replace("0", "5"),)))
        out.append(best)
    return out[0], out[1]


def test_call_values_match_their_definition_in_real_games() -> None:
    checked = 0
    for view, legal, sp in strong_decisions(range(80, 100)):
        if any(a["type"] == "dapai" for a in legal):
            me = view["me"]
            ev = Evaluator(view, me, sp)
            for p in sp.get_dapai() or []:
                after = after_discard(sp, p)
                if xiangting(after) == 1:
                    for t in ev.tingpai(after):
                        assert ev.call_values(after, t) == _calls_by_definition(ev, after, t), (me["shoupai"], p, t)
                        checked += 1
                    break
        if checked >= 40:
            break
    assert checked >= 40


def test_with_call_values_the_bot_keeps_a_hand_it_can_open() -> None:
    """Where the two choosers part at an unthreatened hand going one from tenpai, the call-aware
    one keeps the hand whose draws and calls are worth more, by the value it is built on."""
    call_ev = strong.make_choose(style={"call_ev": 1.0})
    differed = 0
    for view, legal, sp in strong_decisions(range(100, 130)):
        me = view["me"]
        plain = strong.choose(view, legal, random.Random(0))
        if plain[0] == "dapai" and not strong._Decision(view, me, sp, True, True).threatened:
            mine = call_ev(view, legal, random.Random(0))
            if mine[0] == "dapai" and mine != plain:
                kept, other = after_discard(sp, mine[1][0]), after_discard(sp, plain[1][0])
                if xiangting(kept) == xiangting(other) == 1:
                    differed += 1
                    with_calls = Evaluator(view, me, sp)
                    with_calls.call_ev = 1.0
                    k, o = (mine[1][0][:2].replace("0", "5"),), (plain[1][0][:2].replace("0", "5"),)
                    assert with_calls.ev1(kept, k) > with_calls.ev1(other, o), (me["shoupai"], plain, mine)
                    without = Evaluator(view, me, sp)
                    assert without.ev1(other, o) >= without.ev1(kept, k), (me["shoupai"], plain, mine)
                    if differed >= 3:
                        break
    assert differed >= 3
