"""Rule presets (games/riichi/engine/presets.py): valid, pinned, expanded under a table's overrides."""

from __future__ import annotations

import pytest

from games.core.engine import Mode
from games.riichi.engine import presets
from games.riichi.engine.rule import DEFAULT_RULE, rule
from games.riichi.engine.table import PLATFORM_RULES, RiichiGame

FOUR = Mode(4, "Four players", 4)

# What each preset sets, pinned: a stored game names its preset and is replayed under it, so a
# published preset must never change (add a new one instead). A failure here means exactly that.
PINNED = {
    "majiang": {},
    "east": {"場数": 1},
    "no-red": {"赤牌": {"m": 0, "p": 0, "s": 0}},
    "tenhou": {
        "配給原点": 25000, "順位点": ["20", "10", "-10", "-20"], "連風牌は2符": False,
        "赤牌": {"m": 1, "p": 1, "s": 1}, "クイタンあり": True, "喰い替え許可レベル": 0, "場数": 2,
        "途中流局あり": True, "流し満貫あり": True, "ノーテン宣言あり": False, "ノーテン罰あり": True,
        "最大同時和了数": 2, "連荘方式": 2, "トビ終了あり": True, "オーラス止めあり": True, "延長戦方式": 1,
        "一発あり": True, "裏ドラあり": True, "カンドラあり": True, "カン裏あり": True, "カンドラ後乗せ": True,
        "ツモ番なしリーチあり": False, "リーチ後暗槓許可レベル": 2, "役満の複合あり": True,
        "ダブル役満あり": False, "数え役満あり": True, "役満パオあり": True, "切り上げ満貫あり": False,
    },
}
PINNED["tenhou-east"] = {**PINNED["tenhou"], "場数": 1}


def test_every_preset_is_pinned() -> None:
    assert {name: dict(p.overrides) for name, p in presets.PRESETS.items()} == PINNED


@pytest.mark.parametrize("name", list(presets.PRESETS))
def test_every_preset_is_a_valid_rule(name: str) -> None:
    full = presets.get(name).rule()
    assert list(full) == list(DEFAULT_RULE)  # Majiang's keys, in Majiang's order
    assert full == rule(PINNED[name])


def test_tenhou_states_every_option_and_differs_from_majiang_where_tenhou_does() -> None:
    assert set(PINNED["tenhou"]) == set(DEFAULT_RULE)
    differ = {k for k, v in rule(PINNED["tenhou"]).items() if v != DEFAULT_RULE[k]}
    assert differ == {"順位点", "ダブル役満あり"}


def test_expand_lays_the_overrides_over_the_preset() -> None:
    assert presets.expand({"preset": "tenhou", "場数": 1}) == {**PINNED["tenhou"], "場数": 1}
    assert presets.expand({"場数": 1}) == {"場数": 1}  # no preset: Majiang's defaults
    assert presets.expand(None) == {}
    # The table's copy is its own: nothing it does reaches the preset.
    expanded = presets.expand({"preset": "no-red"})
    expanded["赤牌"]["m"] = 3
    assert presets.get("no-red").overrides["赤牌"]["m"] == 0


@pytest.mark.parametrize("bad", ["fast", "", "TENHOU", 3, None, ["tenhou"], {"name": "tenhou"}])
def test_an_unknown_preset_names_the_choices(bad: object) -> None:
    with pytest.raises(ValueError, match=r"unknown rule preset .*; presets: majiang, east, no-red, tenhou"):
        presets.expand({"preset": bad})


def test_describe_for_the_lobby_page() -> None:
    described = presets.describe()
    assert [d["name"] for d in described] == list(presets.PRESETS)
    assert described[0]["name"] == presets.DEFAULT_PRESET == "majiang"
    assert all(d["label"] and d["description"] for d in described)


def test_the_engine_expands_the_preset_and_shows_its_name() -> None:
    game = RiichiGame.create(mode=FOUR, seed=1, rules={"preset": "tenhou", "場数": 1, "host_seat": 2})
    assert game.rule == rule({**PINNED["tenhou"], "場数": 1})
    assert game.host == 2 and game.preset == "tenhou"
    view = game.view(None)
    assert view["preset"] == "tenhou" and view["rule"]["ダブル役満あり"] is False and view["rule"]["場数"] == 1
    # The kaiju record (and so the paifu) carries the rules in force, not the preset's name.
    events = game.apply(2, "kaiju", [])
    assert events[0].params[0]["rule"] == game.rule
    assert "preset" in PLATFORM_RULES


def test_without_a_preset_the_engine_says_majiang() -> None:
    game = RiichiGame.create(mode=FOUR, seed=1, rules={"赤牌": {"m": 0, "p": 0, "s": 0}})
    assert game.preset == "majiang" and game.rule == rule({"赤牌": {"m": 0, "p": 0, "s": 0}})


@pytest.mark.parametrize(
    ("rules", "message"),
    [
        ({"preset": "nope"}, "unknown rule preset 'nope'"),
        ({"preset": "tenhou", "場数": 9}, "場数: expected one of"),
        ({"preset": "tenhou", "赤ドラ": 1}, "unknown rule option '赤ドラ'"),
    ],
)
def test_the_engine_refuses_bad_rules_with_a_clear_message(rules: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        RiichiGame.create(mode=FOUR, seed=1, rules=rules)


def test_the_same_seed_and_preset_deal_the_same_game() -> None:
    one = RiichiGame.create(mode=FOUR, seed=5, rules={"preset": "tenhou-east"})
    two = RiichiGame.create(mode=FOUR, seed=5, rules={"preset": "tenhou-east"})
    assert [e.params for e in one.apply(0, "kaiju", [])] == [e.params for e in two.apply(0, "kaiju", [])]
