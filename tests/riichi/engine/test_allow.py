"""The rule-aware checks (Majiang.Game's static methods): kuikae levels, kans after riichi,
riichi, win, nine-terminal abort, and the no-tenpai declaration."""

from __future__ import annotations

import pytest

from games.riichi.engine import allow
from games.riichi.engine.rule import rule
from games.riichi.engine.shoupai import Shoupai


def hand(paistr: str) -> Shoupai:
    return Shoupai.from_string(paistr)


# -- 喰い替え許可レベル ----------------------------------------------------------------------------

AFTER_CHI = "m36p456s789z112,m3-45,"  # chi m3-45: m3 is the called tile, m6 its suji


@pytest.mark.parametrize(
    ("level", "first"),
    [(0, ["p4", "p5"]), (1, ["m6", "p4"]), (2, ["m3", "m6"])],
)
def test_get_dapai_kuikae_levels(level: int, first: list[str]) -> None:
    """Level 0: neither the called tile nor its suji; 1: not the called tile; 2: anything."""
    assert allow.get_dapai(rule(喰い替え許可レベル=level), hand(AFTER_CHI))[:2] == first


def test_get_dapai_level_1_denies_a_called_red_five_as_a_five() -> None:
    dapai = allow.get_dapai(rule(喰い替え許可レベル=1), hand("m15p456s789z11,m40-6,"))
    assert dapai == ["m1", "p4", "p5", "p6", "s7", "s8", "s9", "z1"]


def test_get_chi_mianzi_kuikae_levels() -> None:
    # Three melds and m2 m3 m4 m4: chi m1-23 would leave only m4 m4, the suji of m1.
    sp = hand("m2344,p1-23,p4-56,s7-89")
    assert allow.get_chi_mianzi(rule(), sp, "m1-", 10) == []
    assert allow.get_chi_mianzi(rule(喰い替え許可レベル=1), sp, "m1-", 10) == ["m1-23"]
    # Level 1: two more of the called tile would be all that is left.
    sp = hand("m1123,p1-23,p4-56,s7-89")
    assert allow.get_chi_mianzi(rule(喰い替え許可レベル=1), sp, "m1-", 10) == []
    assert allow.get_chi_mianzi(rule(喰い替え許可レベル=2), sp, "m1-", 10) == ["m1-23"]


def test_no_call_on_the_last_discard() -> None:
    sp = hand("m23p456s789z11223")
    assert allow.get_chi_mianzi(rule(), sp, "m1-", 1) == ["m1-23"]
    assert allow.get_chi_mianzi(rule(), sp, "m1-", 0) == []
    assert allow.get_peng_mianzi(rule(), sp, "z1+", 1) == ["z111+"]
    assert allow.get_peng_mianzi(rule(), sp, "z1+", 0) == []
    assert allow.get_peng_mianzi(rule(), hand("m23p456s789z11223z4"), "z1+", 1) is None


def test_get_gang_mianzi_wall_and_kan_count() -> None:
    sp = hand("m123p456s789z1113")
    assert allow.get_gang_mianzi(rule(), sp, "z1+", 10, 0) == ["z1111+"]
    assert allow.get_gang_mianzi(rule(), sp, "z1+", 0, 0) == []  # no tiles left to draw
    assert allow.get_gang_mianzi(rule(), sp, "z1+", 10, 4) == []  # four kans already
    assert allow.get_gang_mianzi(rule(), sp, "z3+", 10, 0) == []


# -- リーチ後暗槓許可レベル --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("paistr", "allowed"),
    [
        # Waits z2/z4/s1... unchanged by the kan of z4: allowed from level 1.
        ("s111123z2244477z4*", [False, True, True]),
        # The kan changes the waits: never.
        ("s3444666888z666s4*", [False, False, False]),
        # Same waits (m9 kan in a nine-gates shape), fewer ways to read the hand: level 2 only.
        ("m1123456678999m9*", [False, False, True]),
    ],
)
def test_riichi_ankan_levels(paistr: str, allowed: list[bool]) -> None:
    got = [
        bool(allow.get_gang_mianzi(rule(リーチ後暗槓許可レベル=level), hand(paistr), None, 10, 0))
        for level in (0, 1, 2)
    ]
    assert got == allowed


# -- riichi, win, abortive draw, no-tenpai declaration ---------------------------------------------

TENPAI_AFTER_Z3 = "m12345p456s789z11z3"  # discarding the drawn z3 leaves m12345 p456 s789 z11


def test_allow_lizhi() -> None:
    r = rule()
    assert allow.allow_lizhi(r, hand(TENPAI_AFTER_Z3), None, 70, 25000) == ["z3_"]
    assert allow.allow_lizhi(r, hand(TENPAI_AFTER_Z3), "z3_", 70, 25000) is True
    assert allow.allow_lizhi(r, hand(TENPAI_AFTER_Z3), "m1", 70, 25000) is False
    assert allow.allow_lizhi(r, hand("m12345p456s789z1z3z4"), None, 70, 25000) is False  # 1-shanten


def test_allow_lizhi_conditions() -> None:
    sp = hand(TENPAI_AFTER_Z3)
    assert allow.allow_lizhi(rule(), sp, None, 3, 25000) is False  # fewer than 4 draws left
    assert allow.allow_lizhi(rule(ツモ番なしリーチあり=True), sp, None, 0, 25000) == ["z3_"]
    assert allow.allow_lizhi(rule(), sp, None, 70, 900) is False  # cannot pay the stick
    assert allow.allow_lizhi(rule(トビ終了あり=False), sp, None, 70, 900) == ["z3_"]
    assert allow.allow_lizhi(rule(), hand("m12345p456z11z3,s7-89"), None, 70, 25000) is False  # open
    assert allow.allow_lizhi(rule(), hand("m12345p456s789z11z3*"), None, 70, 25000) is False  # already
    assert allow.allow_lizhi(rule(), hand("m12345p456s789z11"), None, 70, 25000) is False  # no draw


def test_allow_hule() -> None:
    r = rule()
    plain = hand("m1234567p456s789")  # complete on m1, but no yaku on a ron
    assert allow.allow_hule(r, plain, "m1-", 0, 1, False, True) is False
    assert allow.allow_hule(r, plain, "m1-", 0, 1, True, True) is True  # riichi etc. given
    assert allow.allow_hule(r, plain, "m1-", 0, 1, True, False) is False  # furiten
    assert allow.allow_hule(r, plain, "m2-", 0, 1, True, True) is False  # not complete
    assert allow.allow_hule(r, hand("m1234567p456s789m1"), None, 0, 1, False, True) is True  # tsumo


def test_allow_pingju_nine_terminals() -> None:
    nine = hand("m123459p19s19z123m6")  # m1 m9 p1 p9 s1 s9 z1 z2 z3
    assert allow.allow_pingju(rule(), nine, True) is True
    assert allow.allow_pingju(rule(), nine, False) is False  # not the first draw
    assert allow.allow_pingju(rule(途中流局あり=False), nine, True) is False
    assert allow.allow_pingju(rule(), hand("m1234579p19s19z12m6"), True) is False  # eight kinds


def test_allow_no_daopai() -> None:
    tenpai = hand("m12345p456s789z11")
    r = rule(ノーテン宣言あり=True)
    assert allow.allow_no_daopai(r, tenpai, 0) is True
    assert allow.allow_no_daopai(rule(), tenpai, 0) is False
    assert allow.allow_no_daopai(r, tenpai, 1) is False
    assert allow.allow_no_daopai(r, hand("m12345p456s789z11*"), 0) is False  # riichi must show
    assert allow.allow_no_daopai(r, hand("m12345p456s789z13"), 0) is False  # not tenpai
