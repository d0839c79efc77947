"""rule(): Majiang.rule()'s keys, defaults and order; overrides; validation."""

from __future__ import annotations

import pytest

from games.riichi.engine.rule import DEFAULT_RULE, rule

# Majiang.rule() of majiang-core 1.4.1 (lib/rule.js), key for key, in its order.
MAJIANG_DEFAULTS = [
    ("配給原点", 25000),
    ("順位点", ["20.0", "10.0", "-10.0", "-20.0"]),
    ("連風牌は2符", False),
    ("赤牌", {"m": 1, "p": 1, "s": 1}),
    ("クイタンあり", True),
    ("喰い替え許可レベル", 0),
    ("場数", 2),
    ("途中流局あり", True),
    ("流し満貫あり", True),
    ("ノーテン宣言あり", False),
    ("ノーテン罰あり", True),
    ("最大同時和了数", 2),
    ("連荘方式", 2),
    ("トビ終了あり", True),
    ("オーラス止めあり", True),
    ("延長戦方式", 1),
    ("一発あり", True),
    ("裏ドラあり", True),
    ("カンドラあり", True),
    ("カン裏あり", True),
    ("カンドラ後乗せ", True),
    ("ツモ番なしリーチあり", False),
    ("リーチ後暗槓許可レベル", 2),
    ("役満の複合あり", True),
    ("ダブル役満あり", True),
    ("数え役満あり", True),
    ("役満パオあり", True),
    ("切り上げ満貫あり", False),
]


def test_defaults_are_majiangs() -> None:
    assert list(rule().items()) == MAJIANG_DEFAULTS
    assert list(DEFAULT_RULE.items()) == MAJIANG_DEFAULTS


def test_overrides_by_mapping_and_keyword() -> None:
    r = rule({"順位点": ["20", "10", "-10", "-20"]}, クイタンあり=False, 赤牌={"m": 0, "p": 2, "s": 1})
    assert r["順位点"] == ["20", "10", "-10", "-20"]
    assert r["クイタンあり"] is False
    assert r["赤牌"] == {"m": 0, "p": 2, "s": 1}
    assert r["場数"] == 2  # untouched


def test_each_call_is_a_fresh_copy() -> None:
    first = rule()
    first["赤牌"]["m"] = 4
    first["順位点"].append("x")
    assert rule()["赤牌"] == {"m": 1, "p": 1, "s": 1}
    assert DEFAULT_RULE["順位点"] == ["20.0", "10.0", "-10.0", "-20.0"]


@pytest.mark.parametrize(
    "overrides",
    [
        {"no such option": True},
        {"クイタンあり": 1},
        {"喰い替え許可レベル": 3},
        {"リーチ後暗槓許可レベル": -1},
        {"場数": 5},
        {"最大同時和了数": 0},
        {"連荘方式": True},
        {"延長戦方式": "1"},
        {"配給原点": -1},
        {"配給原点": 25000.5},
        {"順位点": ["20", "10", "-10"]},
        {"順位点": ["20", "10", "-10", "x"]},
        # Found by the fuzz suite: an integer beyond a double overflowed (a 500), and "nan" passed.
        {"順位点": [10**400, "10", "-10", "-20"]},
        {"順位点": ["nan", "10", "-10", "-20"]},
        {"順位点": ["1e999", "10", "-10", "-20"]},
        {"順位点": ["20", "10", "-10", -(10**10)]},
        {"配給原点": 10**400},
        {"赤牌": {"m": 1, "p": 1}},
        {"赤牌": {"m": 5, "p": 1, "s": 1}},
    ],
)
def test_invalid_overrides_are_refused(overrides: dict) -> None:
    with pytest.raises(ValueError):
        rule(overrides)


def test_every_level_value_is_accepted() -> None:
    for level in (0, 1, 2):
        assert rule(喰い替え許可レベル=level)["喰い替え許可レベル"] == level
        assert rule(リーチ後暗槓許可レベル=level)["リーチ後暗槓許可レベル"] == level
    for changshu in (0, 1, 2, 4):
        assert rule(場数=changshu)["場数"] == changshu
