"""One constructed hand for every yaku and yakuman, and for each rule option that changes a score.

Each test is named after the yaku (Majiang's Japanese name, as it appears in ``hupai``) and cites
the rule it checks. Unless a test says otherwise: East round (zhuangfeng 0), the winner sits South
(menfeng 1, not the dealer), no dora, no sticks, default ``Majiang.rule()``. In the hand strings
the last concealed tile of a 14-tile hand is the tsumo tile; a ron tile is given separately with
the mark of the seat that discarded it (``-`` kamicha, ``=`` toimen, ``+`` shimocha).

Points: base = fu x 2^(han+2) capped at 2000 (mangan); 6-7 han 3000, 8-10 4000, 11-12 6000,
13+ 8000 (counted yakuman), each yakuman 8000. A ron pays base x 4 (x 6 for the dealer) rounded
up to 100; a tsumo is paid 2 x base by the dealer and base by the others, each rounded up.
"""

from __future__ import annotations

from typing import Any

from games.riichi.engine.hule import hule, hule_param
from games.riichi.engine.rule import rule
from games.riichi.engine.shoupai import Shoupai


def score(paistr: str, rongpai: str | None = None, *, options: dict[str, Any] | None = None, **param: Any):
    return hule(Shoupai.from_string(paistr), rongpai, hule_param(rule=rule(options or {}), **param))


def yaku(*entries: tuple[Any, ...] | dict[str, Any]) -> list[dict[str, Any]]:
    """Hupai entries from (name, fanshu) or (name, fanshu, baojia) tuples."""
    result = []
    for entry in entries:
        if isinstance(entry, dict):
            result.append(entry)
            continue
        item = {"name": entry[0], "fanshu": entry[1]}
        if len(entry) > 2:
            item["baojia"] = entry[2]
        result.append(item)
    return result


def regular(hupai, fu, fanshu, defen, fenpei) -> dict[str, Any]:
    return {"hupai": yaku(*hupai), "fu": fu, "fanshu": fanshu, "damanguan": None, "defen": defen, "fenpei": fenpei}


def yakuman(hupai, damanguan, defen, fenpei) -> dict[str, Any]:
    return {"hupai": yaku(*hupai), "fu": None, "fanshu": None, "damanguan": damanguan, "defen": defen, "fenpei": fenpei}


# A closed hand with no yaku of its own, waiting on m1 (pair wait): m11 m234 m567 p456 s789.
# Ron: 20 + 10 closed ron + 2 pair wait = 32 -> 40 fu. Tsumo: 20 + 2 + 2 = 24 -> 30 fu.
PLAIN = "m1234567p456s789"
PLAIN_TSUMO = "m1234567p456s789m1"
# An open hand around one honour pon: m11 m123 p456 s789 + meld; 20 + 4 (open honour pon)
# + 2 (pair wait) = 26 -> 30 fu.
OPEN_BASE = "m123p456s789m1"


# -- situational yaku (param["hupai"]) -------------------------------------------------------


def test_立直() -> None:
    """立直 1 han (lizhi=1). 40 fu 1 han ron: 320 x 4 = 1280 -> 1300, paid by kamicha (seat 0)."""
    assert score(PLAIN, "m1-", lizhi=1) == regular([("立直", 1)], 40, 1, 1300, [-1300, 1300, 0, 0])


def test_ダブル立直() -> None:
    """ダブル立直 2 han (lizhi=2) replaces 立直."""
    assert score(PLAIN, "m1-", lizhi=2) == regular([("ダブル立直", 2)], 40, 2, 2600, [-2600, 2600, 0, 0])


def test_一発() -> None:
    """一発 1 han, listed after 立直."""
    assert score(PLAIN, "m1-", lizhi=1, yifa=True) == regular(
        [("立直", 1), ("一発", 1)], 40, 2, 2600, [-2600, 2600, 0, 0]
    )


def test_海底摸月() -> None:
    """海底摸月 1 han (haidi=1, last tile drawn), before 門前清自摸和. 30 fu 2 han tsumo: base
    480, dealer pays 960 -> 1000, the others 500."""
    assert score(PLAIN_TSUMO, haidi=1) == regular(
        [("海底摸月", 1), ("門前清自摸和", 1)], 30, 2, 2000, [-1000, 2000, -500, -500]
    )


def test_河底撈魚() -> None:
    """河底撈魚 1 han (haidi=2, ron on the last discard)."""
    assert score(PLAIN, "m1-", haidi=2) == regular([("河底撈魚", 1)], 40, 1, 1300, [-1300, 1300, 0, 0])


def test_嶺上開花() -> None:
    """嶺上開花 1 han (lingshang). A concealed kan keeps the hand closed: 門前清自摸和 too. Fu: 20 +
    16 (concealed kan of simples) + 2 (pair wait) + 2 (tsumo) = 40."""
    assert score("m1234567s789m1,p4444", lingshang=True) == regular(
        [("嶺上開花", 1), ("門前清自摸和", 1)], 40, 2, 2700, [-1300, 2700, -700, -700]
    )


def test_槍槓() -> None:
    """槍槓 1 han (qianggang): ron on an added kan tile, here from toimen (seat 3)."""
    assert score(PLAIN, "m1=", qianggang=True) == regular([("槍槓", 1)], 40, 1, 1300, [0, 1300, 0, -1300])


def test_天和() -> None:
    """天和 (tianhu=1): yakuman replacing every other yaku; the dealer's tsumo, 16000 all."""
    assert score(PLAIN_TSUMO, menfeng=0, tianhu=1) == yakuman(
        [("天和", "*")], 1, 48000, [48000, -16000, -16000, -16000]
    )


def test_地和() -> None:
    """地和 (tianhu=2): a non-dealer's first-draw tsumo, yakuman."""
    assert score(PLAIN_TSUMO, tianhu=2) == yakuman([("地和", "*")], 1, 32000, [-16000, 32000, -8000, -8000])


# -- hand yaku ----------------------------------------------------------------------------------


def test_門前清自摸和() -> None:
    """門前清自摸和 1 han: closed tsumo. 30 fu 1 han: dealer 480 -> 500, others 240 -> 300."""
    assert score(PLAIN_TSUMO) == regular([("門前清自摸和", 1)], 30, 1, 1100, [-500, 1100, -300, -300])


def _fanpai(tile: str, zhuangfeng: int, menfeng: int) -> dict[str, Any] | None:
    return score(OPEN_BASE + f",{tile}{tile[1]}{tile[1]}+", "m1-", zhuangfeng=zhuangfeng, menfeng=menfeng)


def test_場風_東() -> None:
    """場風 東: a triplet of East in the East round. 30 fu 1 han ron: 1000."""
    assert _fanpai("z1", 0, 1) == regular([("場風 東", 1)], 30, 1, 1000, [-1000, 1000, 0, 0])


def test_場風_南() -> None:
    """場風 南 in the South round (the winner sits West: no seat wind)."""
    assert _fanpai("z2", 1, 2) == regular([("場風 南", 1)], 30, 1, 1000, [0, -1000, 1000, 0])


def test_場風_西() -> None:
    """場風 西 in the West round."""
    assert _fanpai("z3", 2, 1) == regular([("場風 西", 1)], 30, 1, 1000, [-1000, 1000, 0, 0])


def test_場風_北() -> None:
    """場風 北 in the North round."""
    assert _fanpai("z4", 3, 1) == regular([("場風 北", 1)], 30, 1, 1000, [-1000, 1000, 0, 0])


def test_自風_東() -> None:
    """自風 東: the dealer's East triplet in the South round. Dealer ron: 240 x 6 = 1440 -> 1500."""
    assert _fanpai("z1", 1, 0) == regular([("自風 東", 1)], 30, 1, 1500, [1500, 0, 0, -1500])


def test_自風_南() -> None:
    """自風 南: South seat's own wind."""
    assert _fanpai("z2", 0, 1) == regular([("自風 南", 1)], 30, 1, 1000, [-1000, 1000, 0, 0])


def test_自風_西() -> None:
    """自風 西: West seat's own wind; its kamicha is seat 1."""
    assert _fanpai("z3", 0, 2) == regular([("自風 西", 1)], 30, 1, 1000, [0, -1000, 1000, 0])


def test_自風_北() -> None:
    """自風 北: North seat's own wind; its kamicha is seat 2."""
    assert _fanpai("z4", 0, 3) == regular([("自風 北", 1)], 30, 1, 1000, [0, 0, -1000, 1000])


def test_連風牌_counts_twice() -> None:
    """The dealer's East triplet in the East round is both 場風 東 and 自風 東. Dealer ron, 30 fu
    2 han: 480 x 6 = 2880 -> 2900."""
    assert _fanpai("z1", 0, 0) == regular([("場風 東", 1), ("自風 東", 1)], 30, 2, 2900, [2900, 0, 0, -2900])


def test_翻牌_白() -> None:
    """翻牌 白: a triplet of White."""
    assert _fanpai("z5", 0, 1) == regular([("翻牌 白", 1)], 30, 1, 1000, [-1000, 1000, 0, 0])


def test_翻牌_發() -> None:
    """翻牌 發: a triplet of Green."""
    assert _fanpai("z6", 0, 1) == regular([("翻牌 發", 1)], 30, 1, 1000, [-1000, 1000, 0, 0])


def test_翻牌_中() -> None:
    """翻牌 中: a triplet of Red."""
    assert _fanpai("z7", 0, 1) == regular([("翻牌 中", 1)], 30, 1, 1000, [-1000, 1000, 0, 0])


def test_平和() -> None:
    """平和 1 han: closed, four runs, a non-value pair, a two-sided wait (m67 on m8): exactly 20 fu
    before the closed ron's 10."""
    assert score("m23467p567s12388", "m8-") == regular([("平和", 1)], 30, 1, 1000, [-1000, 1000, 0, 0])


def test_断幺九() -> None:
    """断幺九 1 han: simples only; open is allowed by default (クイタンあり). 20 + 2 (pair wait)
    = 22 -> 30 fu."""
    assert score("m234p567s234s8,m6-78", "s8-") == regular([("断幺九", 1)], 30, 1, 1000, [-1000, 1000, 0, 0])


def test_一盃口() -> None:
    """一盃口 1 han: two identical runs, closed. 20 + 2 (East pair: round wind) + 2 (pair wait)
    + 10 = 34 -> 40 fu."""
    assert score("m112233p456s789z1", "z1-") == regular([("一盃口", 1)], 40, 1, 1300, [-1300, 1300, 0, 0])


def test_三色同順() -> None:
    """三色同順: the same run in the three suits, 2 han closed, 1 open (食い下がり)."""
    assert score("m234p234s234m789z1", "z1-") == regular([("三色同順", 2)], 40, 2, 2600, [-2600, 2600, 0, 0])
    assert score("m234s234m789z1,p2-34", "z1-") == regular([("三色同順", 1)], 30, 1, 1000, [-1000, 1000, 0, 0])


def test_一気通貫() -> None:
    """一気通貫: 123 456 789 of one suit, 2 han closed, 1 open."""
    assert score("m123456789p234z1", "z1-") == regular([("一気通貫", 2)], 40, 2, 2600, [-2600, 2600, 0, 0])
    assert score("m123456p234z1,m7-89", "z1-") == regular([("一気通貫", 1)], 30, 1, 1000, [-1000, 1000, 0, 0])


def test_混全帯幺九() -> None:
    """混全帯幺九: every set and the pair hold a terminal or honour, with runs and honours;
    2 han closed, 1 open."""
    assert score("m123789p123s789z1", "z1-") == regular([("混全帯幺九", 2)], 40, 2, 2600, [-2600, 2600, 0, 0])
    assert score("m123789p123z1,s7-89", "z1-") == regular([("混全帯幺九", 1)], 30, 1, 1000, [-1000, 1000, 0, 0])


def test_七対子() -> None:
    """七対子 2 han, always 25 fu: 25 x 16 x 4 = 1600."""
    assert score("m1133p2255s7799z1", "z1-") == regular([("七対子", 2)], 25, 2, 1600, [-1600, 1600, 0, 0])


def test_対々和() -> None:
    """対々和 2 han: four triplets. Fu: 20 + 2 (East pair) + 2 (pair wait) + 8 (concealed m111)
    + 4 (concealed p222) + 2 (open s333) + 4 (open m999) = 42 -> 50."""
    assert score("m111p222z1,s333+,m999=", "z1-") == regular([("対々和", 2)], 50, 2, 3200, [-3200, 3200, 0, 0])


def test_三暗刻() -> None:
    """三暗刻 2 han: three concealed triplets. 20 + 2 + 2 + 8 + 4 + 4 + 10 = 50 fu."""
    assert score("m111456p222s333z1", "z1-") == regular([("三暗刻", 2)], 50, 2, 3200, [-3200, 3200, 0, 0])


def test_三槓子() -> None:
    """三槓子 2 han: three kans. 20 + 2 + 2 + 16 (open m1111) + 16 (concealed p2222) + 8 (open
    s3333) = 64 -> 70 fu; 70 x 16 x 4 = 4480 -> 4500."""
    assert score("m456z1,m1111+,p2222,s3333=", "z1-") == regular([("三槓子", 2)], 70, 2, 4500, [-4500, 4500, 0, 0])


def test_三色同刻() -> None:
    """三色同刻 2 han: the same triplet in the three suits."""
    assert score("m222456p222z1,s222+", "z1-") == regular([("三色同刻", 2)], 40, 2, 2600, [-2600, 2600, 0, 0])


def test_混老頭() -> None:
    """混老頭 2 han: terminals and honours only (here with 対々和 and the seat wind South).
    Yaku in Majiang's order: 自風, 対々和, 混老頭. 5 han: mangan 8000."""
    assert score("s111z2227,m111+,p999=", "z7-") == regular(
        [("自風 南", 1), ("対々和", 2), ("混老頭", 2)], 50, 5, 8000, [-8000, 8000, 0, 0]
    )


def test_小三元() -> None:
    """小三元 2 han: two dragon triplets and a dragon pair (plus each 翻牌). 4 han 50 fu: mangan."""
    assert score("m123p456z5556667", "z7-") == regular(
        [("翻牌 白", 1), ("翻牌 發", 1), ("小三元", 2)], 50, 4, 8000, [-8000, 8000, 0, 0]
    )


def test_混一色() -> None:
    """混一色: one suit plus honours, 3 han closed, 2 open. Closed: 20 + 8 (concealed West
    triplet) + 4 (North triplet completed by ron counts as open) + 10 = 42 -> 50 fu."""
    assert score("m23445677z33344", "z4-") == regular([("混一色", 3)], 50, 3, 6400, [-6400, 6400, 0, 0])
    assert score("m23477z33344,m4-56", "z4-") == regular([("混一色", 2)], 40, 2, 2600, [-2600, 2600, 0, 0])


def test_純全帯幺九() -> None:
    """純全帯幺九: every set and the pair hold a terminal, no honours; 3 han closed, 2 open."""
    assert score("m123789p123s7891", "s1-") == regular([("純全帯幺九", 3)], 40, 3, 5200, [-5200, 5200, 0, 0])
    assert score("m123789p123s1,s7-89", "s1-") == regular([("純全帯幺九", 2)], 30, 2, 2000, [-2000, 2000, 0, 0])


def test_二盃口() -> None:
    """二盃口 3 han (closed), which outscores reading the same tiles as 七対子 (2 han 25 fu)."""
    assert score("m112233p445566s9", "s9-") == regular([("二盃口", 3)], 40, 3, 5200, [-5200, 5200, 0, 0])


def test_清一色() -> None:
    """清一色: one suit only, 6 han closed (haneman 12000), 5 open (mangan)."""
    assert score("p1123445667999", "p8-") == regular([("清一色", 6)], 40, 6, 12000, [-12000, 12000, 0, 0])
    assert score("p3456688,p1-23,p7-89", "p6-") == regular([("清一色", 5)], 30, 5, 8000, [-8000, 8000, 0, 0])


# -- dora -------------------------------------------------------------------------------------


def test_ドラ_赤ドラ_裏ドラ() -> None:
    """ドラ (indicator m9 shows m1, twice in hand), 赤ドラ (the red p5), 裏ドラ (ura indicator p4
    shows p5, counted on the red five too) come last, in that order. 5 han: mangan."""
    assert score("m1234567p406s789", "m1-", lizhi=1, baopai=["m9"], fubaopai=["p4"]) == regular(
        [("立直", 1), ("ドラ", 2), ("赤ドラ", 1), ("裏ドラ", 1)], 40, 5, 8000, [-8000, 8000, 0, 0]
    )


def test_dora_in_melds_count() -> None:
    """Dora count in melds (North indicator: East is dora, three in the pon) and red fives in a
    chi count as 赤ドラ. 30 fu 4 han: 1920 x 4 = 7680 -> 7700."""
    assert score(OPEN_BASE + ",z111+", "m1-", baopai="z4") == regular(
        [("場風 東", 1), ("ドラ", 3)], 30, 4, 7700, [-7700, 7700, 0, 0]
    )
    assert score("p234p567s234s8,m4-06", "s8-") == regular(
        [("断幺九", 1), ("赤ドラ", 1)], 30, 2, 2000, [-2000, 2000, 0, 0]
    )


def test_dora_alone_is_not_a_yaku() -> None:
    """A complete hand with dora but no yaku scores nothing: Majiang returns {'defen': 0}."""
    assert score("m123p456s789m1,z333+", "m1-", baopai=["m9"]) == {"defen": 0}


# -- yakuman ----------------------------------------------------------------------------------


def test_国士無双() -> None:
    """国士無双: one of each terminal and honour plus a pair. Yakuman, ron 32000."""
    assert score("m119p19s19z123456", "z7-") == yakuman([("国士無双", "*")], 1, 32000, [-32000, 32000, 0, 0])


def test_国士無双十三面() -> None:
    """国士無双十三面: kokushi on the thirteen-sided wait (the pair is the winning tile), a double
    yakuman (ダブル役満あり)."""
    assert score("m19p19s19z1234567", "m1-") == yakuman([("国士無双十三面", "**")], 2, 64000, [-64000, 64000, 0, 0])


def test_四暗刻() -> None:
    """四暗刻: four concealed triplets, the last one by tsumo. The same wait won by ron makes that
    triplet open: only 対々和 and 三暗刻 (50 fu 4 han, mangan)."""
    assert score("m11155p222s333z44m5") == yakuman([("四暗刻", "*")], 1, 32000, [-16000, 32000, -8000, -8000])
    assert score("m11155p222s333z44", "m5-") == regular(
        [("対々和", 2), ("三暗刻", 2)], 50, 4, 8000, [-8000, 8000, 0, 0]
    )


def test_四暗刻単騎() -> None:
    """四暗刻単騎: four concealed triplets on a pair wait, a double yakuman."""
    assert score("m1115p222s333z444m5") == yakuman([("四暗刻単騎", "**")], 2, 64000, [-32000, 64000, -16000, -16000])


def test_大三元() -> None:
    """大三元: three dragon triplets. Yakuman, tsumo 32000."""
    assert score("m123p1z555666777p1") == yakuman([("大三元", "*")], 1, 32000, [-16000, 32000, -8000, -8000])


def test_小四喜() -> None:
    """小四喜: three wind triplets and a wind pair."""
    assert score("m12z11122233344", "m3-") == yakuman([("小四喜", "*")], 1, 32000, [-32000, 32000, 0, 0])


def test_大四喜() -> None:
    """大四喜: four wind triplets, a double yakuman. The fourth wind is concealed here, so no pao."""
    assert score("m5z444,z111+,z222=,z333-", "m5-") == yakuman([("大四喜", "**")], 2, 64000, [-64000, 64000, 0, 0])


def test_字一色() -> None:
    """字一色: honours only."""
    assert score("z2225556667,z111+", "z7-") == yakuman([("字一色", "*")], 1, 32000, [-32000, 32000, 0, 0])


def test_緑一色() -> None:
    """緑一色: only s2 s3 s4 s6 s8 and Green."""
    assert score("s223344666888z6", "z6-") == yakuman([("緑一色", "*")], 1, 32000, [-32000, 32000, 0, 0])


def test_清老頭() -> None:
    """清老頭: terminals only."""
    assert score("m999p111s999s1,m111+", "s1-") == yakuman([("清老頭", "*")], 1, 32000, [-32000, 32000, 0, 0])


def test_四槓子() -> None:
    """四槓子: four kans."""
    assert score("m5,m1111+,p2222,s3333=,s4444-", "m5-") == yakuman([("四槓子", "*")], 1, 32000, [-32000, 32000, 0, 0])


def test_九蓮宝燈() -> None:
    """九蓮宝燈: 1112345678999 plus one more of the suit, closed; here won on m1, so the hand
    before the win was not the pure shape."""
    assert score("m1123455678999", "m1-") == yakuman([("九蓮宝燈", "*")], 1, 32000, [-32000, 32000, 0, 0])


def test_純正九蓮宝燈() -> None:
    """純正九蓮宝燈: the pure shape 1112345678999 waiting on all nine, a double yakuman."""
    assert score("m1112345678999", "m5-") == yakuman([("純正九蓮宝燈", "**")], 2, 64000, [-64000, 64000, 0, 0])
