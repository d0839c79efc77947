"""Rule options that change a score, and the settlement (honba, riichi sticks, pao, dealer).

Same conventions as test_yaku.py: East round, winner South (menfeng 1) unless stated.
"""

from __future__ import annotations

from games.riichi.engine.hule import hule, hule_param
from games.riichi.engine.rule import rule
from games.riichi.engine.shan import shan_pai
from games.riichi.engine.shoupai import Shoupai
from tests.riichi.engine.test_yaku import regular, score, yaku, yakuman


def test_連風牌は2符() -> None:
    """A double-wind pair (East for the dealer in the East round) is 4 fu, or 2 with 連風牌は2符.
    20 + pair + 4 (open White) + 4 (concealed p444): 32 -> 40 fu by default, 30 -> 30 with it."""
    hand, ron = "m123p444s45z11,z555+", "s3-"
    assert score(hand, ron, menfeng=0) == regular([("翻牌 白", 1)], 40, 1, 2000, [2000, 0, 0, -2000])
    assert score(hand, ron, menfeng=0, options={"連風牌は2符": True}) == regular(
        [("翻牌 白", 1)], 30, 1, 1500, [1500, 0, 0, -1500]
    )


def test_赤牌_sets_the_red_fives_in_the_wall() -> None:
    """赤牌 is how many fives of each suit are red: the wall holds that many 'm0'/'p0'/'s0'."""
    for hongpai in ({"m": 1, "p": 1, "s": 1}, {"m": 0, "p": 2, "s": 4}):
        pai = shan_pai(rule(赤牌=hongpai))
        assert len(pai) == 136
        for s in "mps":
            assert pai.count(s + "0") == hongpai[s]
            assert pai.count(s + "5") == 4 - hongpai[s]


def test_赤ドラ_counts_every_red_five() -> None:
    """Each red five in hand or melds is one 赤ドラ (three here: p0 concealed, m0 and s0 in
    melds). 断幺九 + 3 = 4 han 30 fu: 7700."""
    assert score("p234p406s8,m4-06,s340-", "s8-") == regular(
        [("断幺九", 1), ("赤ドラ", 3)], 30, 4, 7700, [-7700, 7700, 0, 0]
    )


def test_クイタンあり() -> None:
    """Open 断幺九 counts only with クイタンあり (default); a closed one always counts."""
    hand = "m234p567s234s8,m6-78"
    assert score(hand, "s8-")["hupai"] == yaku(("断幺九", 1))
    assert score(hand, "s8-", options={"クイタンあり": False}) == {"defen": 0}
    closed = score("m234678p567s234s8", "s8-", options={"クイタンあり": False})
    assert closed["hupai"] == yaku(("断幺九", 1))


# Four concealed wind triplets won on the pair: 四暗刻単騎 (double) and 大四喜 (double).
SUANKO_TANKI_DAISUUSHII = "m5z111222333444"


def test_役満の複合あり() -> None:
    """With 役満の複合あり (default) yakuman add up: 2 + 2 = 4 times 32000. Without it the hand
    is a single yakuman; the list still names both."""
    both = yaku(("四暗刻単騎", "**"), ("大四喜", "**"))
    assert score(SUANKO_TANKI_DAISUUSHII, "m5-") == yakuman(both, 4, 128000, [-128000, 128000, 0, 0])
    assert score(SUANKO_TANKI_DAISUUSHII, "m5-", options={"役満の複合あり": False}) == yakuman(
        both, 1, 32000, [-32000, 32000, 0, 0]
    )


def test_ダブル役満あり() -> None:
    """With ダブル役満あり (default) some yakuman count double ('**'); without it every yakuman
    is '*'."""
    assert score(SUANKO_TANKI_DAISUUSHII, "m5-", options={"ダブル役満あり": False}) == yakuman(
        yaku(("四暗刻単騎", "*"), ("大四喜", "*")), 2, 64000, [-64000, 64000, 0, 0]
    )
    assert score("m19p19s19z1234567", "m1-", options={"ダブル役満あり": False}) == yakuman(
        yaku(("国士無双十三面", "*")), 1, 32000, [-32000, 32000, 0, 0]
    )


def test_数え役満あり() -> None:
    """13 han or more is a counted yakuman (8000 base) with 数え役満あり (default), else
    sanbaiman (6000). 立直 1 + 清一色 6 + ドラ 6 (indicator p8 twice, p999 in hand) = 13."""
    hand, ron = "p1123445667999", "p8-"
    hupai = [("立直", 1), ("清一色", 6), ("ドラ", 6)]
    assert score(hand, ron, lizhi=1, baopai=["p8", "p8"]) == regular(hupai, 40, 13, 32000, [-32000, 32000, 0, 0])
    assert score(hand, ron, lizhi=1, baopai=["p8", "p8"], options={"数え役満あり": False}) == regular(
        hupai, 40, 13, 24000, [-24000, 24000, 0, 0]
    )


def test_切り上げ満貫あり() -> None:
    """30 fu 4 han (and 60 fu 3 han) is 7700, or 8000 with 切り上げ満貫あり. Here 断幺九 + ドラ 3
    (indicator s7: the s88 pair; m5: the m6 in the chi)."""
    hand, ron = "p234p567s234s8,m6-78", "s8-"
    hupai = [("断幺九", 1), ("ドラ", 3)]
    assert score(hand, ron, baopai=["s7", "m5"]) == regular(hupai, 30, 4, 7700, [-7700, 7700, 0, 0])
    assert score(hand, ron, baopai=["s7", "m5"], options={"切り上げ満貫あり": True}) == regular(
        hupai, 30, 4, 8000, [-8000, 8000, 0, 0]
    )


# -- pao (役満パオあり) -------------------------------------------------------------------------

DAISANGEN_PAO = "m123p1,z555+,z666=,z777-"  # the third dragon pon came from kamicha (seat 0)


def test_役満パオあり_tsumo() -> None:
    """大三元 whose third dragon meld was fed by a seat: on tsumo that seat pays it all, honba
    included (the entry carries Majiang's 'baojia' mark of the feeder)."""
    assert score(DAISANGEN_PAO) is None  # 13 tiles and no ron tile: nothing to score
    tsumo = "m123p1p1,z555+,z666=,z777-"
    assert score(tsumo) == yakuman(yaku(("大三元", "*", "-")), 1, 32000, [-32000, 32000, 0, 0])
    assert score(tsumo, changbang=1, lizhibang=1) == yakuman(
        yaku(("大三元", "*", "-")), 1, 32000, [-32300, 33300, 0, 0]
    )


def test_役満パオあり_ron() -> None:
    """On a ron by another seat the feeder and the discarder pay half each."""
    assert score(DAISANGEN_PAO, "p1=") == yakuman(yaku(("大三元", "*", "-")), 1, 32000, [-16000, 32000, 0, -16000])


def test_役満パオあり_off() -> None:
    """Without 役満パオあり the discarder pays everything and no 'baojia' is reported."""
    assert score(DAISANGEN_PAO, "p1=", options={"役満パオあり": False}) == yakuman(
        yaku(("大三元", "*")), 1, 32000, [0, 32000, 0, -32000]
    )


def test_役満パオあり_daisuushii() -> None:
    """大四喜 (double): the seat that fed the fourth wind meld (shimocha, seat 2) pays half of it
    on a ron by toimen (seat 3); with 役満の複合あり off the pao part is one yakuman."""
    hand = "m5,z111+,z222=,z333-,z444+"
    assert score(hand, "m5=") == yakuman(yaku(("大四喜", "**", "+")), 2, 64000, [0, 64000, -32000, -32000])
    assert score(hand, "m5=", options={"役満の複合あり": False}) == yakuman(
        yaku(("大四喜", "**", "+")), 1, 32000, [0, 32000, -16000, -16000]
    )


# -- settlement --------------------------------------------------------------------------------


def test_honba_and_riichi_sticks_on_ron() -> None:
    """Ron: the discarder pays 300 per honba; the winner also takes the riichi sticks on the
    table (1000 each). defen excludes both."""
    assert score("m1234567p456s789", "m1-", lizhi=1, changbang=2, lizhibang=3) == regular(
        [("立直", 1)], 40, 1, 1300, [-1900, 4900, 0, 0]
    )


def test_honba_and_riichi_sticks_on_tsumo() -> None:
    """Tsumo: each payer adds 100 per honba."""
    assert score("m1234567p456s789m1", changbang=2, lizhibang=1) == regular(
        [("門前清自摸和", 1)], 30, 1, 1100, [-700, 2700, -500, -500]
    )


def test_dealer_tsumo() -> None:
    """A dealer's tsumo: each pays 2 x base rounded up (30 fu 1 han: 480 -> 500 all)."""
    assert score("m1234567p456s789m1", menfeng=0) == regular(
        [("門前清自摸和", 1)], 30, 1, 1500, [1500, -500, -500, -500]
    )


def test_incomplete_hand_is_none() -> None:
    assert score("m1234567p456s789", "z1-") is None
    assert hule(Shoupai.from_string("m1234567p456s78z1"), None, hule_param()) is None


def test_ura_dora_only_when_given() -> None:
    """fubaopai None (no riichi, or 裏ドラあり off: the wall gives none) counts no 裏ドラ."""
    hand = "m1234567p456s789"
    assert score(hand, "m1-", lizhi=1, fubaopai=None)["hupai"] == yaku(("立直", 1))
    assert score(hand, "m1-", lizhi=1, fubaopai=["m9", "p5"])["hupai"] == yaku(("立直", 1), ("裏ドラ", 3))


def test_hule_param_defaults() -> None:
    """hule_param: Majiang.Util.hule_param's defaults (seat South, East round) and shapes."""
    param = hule_param()
    assert param == {
        "rule": rule(),
        "zhuangfeng": 0,
        "menfeng": 1,
        "hupai": {"lizhi": 0, "yifa": False, "qianggang": False, "lingshang": False, "haidi": 0, "tianhu": 0},
        "baopai": [],
        "fubaopai": None,
        "jicun": {"changbang": 0, "lizhibang": 0},
    }
    param = hule_param({"baopai": "m1", "fubaopai": ["p0"], "lizhi": 2}, changbang=3, menfeng=None)
    assert param["baopai"] == ["m1"] and param["fubaopai"] == ["p0"]
    assert param["hupai"]["lizhi"] == 2 and param["jicun"]["changbang"] == 3 and param["menfeng"] == 1


def test_two_red_fives_in_one_group_count_once_as_dora() -> None:
    """Majiang counts dora per suit group after turning only the group's first '0' into a 5, so
    with two red m5 (赤牌 m: 2) and dora m5 it finds one ドラ; both still count as 赤ドラ."""
    result = score("m344006p234s234z1", "z1-", lizhi=1, baopai=["m4"])
    assert result["hupai"] == yaku(("立直", 1), ("ドラ", 1), ("赤ドラ", 2))
