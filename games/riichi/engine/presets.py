"""Rule presets for riichi tables: named sets of ``Majiang.rule()`` overrides.

A table's rules may name a preset (``{"preset": "tenhou"}``); ``RiichiGame.create`` expands it
and lays the table's own overrides on top (``{"preset": "tenhou", "場数": 1}`` is Tenhou's rules
played east-only). Without a preset the base is Majiang's defaults (``majiang``).

A stored game is rebuilt from its seed, its rules (with the preset's *name*) and its action log,
so **a preset, once published, never changes**: changing one would change how every stored game
that names it replays. A different set of rules gets a new name. ``tests/riichi/test_presets.py``
pins every preset's overrides for that reason.

Pure Python, no Django: the engine, the lobby page and ``manage.py playbots`` read it alike.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from games.riichi.engine.rule import rule as make_rule

# The key naming a preset in a table's rules (a platform key: see engine.table.PLATFORM_RULES).
PRESET_KEY = "preset"
DEFAULT_PRESET = "majiang"


@dataclass(frozen=True)
class Preset:
    name: str
    label: str
    description: str
    overrides: Mapping[str, Any] = field(default_factory=dict)

    def rule(self) -> dict[str, Any]:
        """Every rule option under this preset (Majiang's defaults plus the overrides)."""
        return make_rule(self.overrides)


# Tenhou's standard four-player rules (一般/上級/特上/鳳凰卓, 東南戦 喰赤), mapped key by key onto
# Majiang.rule(). Where Majiang's default already is Tenhou's it is restated anyway, so the
# preset reads as the complete record of what was checked:
_TENHOU: dict[str, Any] = {
    "配給原点": 25000,  # 25,000 to start; Majiang's 30,000 return (oka 20) is fixed in its arithmetic
    # Uma 10-20. Tenhou rounds final scores to whole thousands; Majiang rounds whole-number
    # 順位点 with JavaScript's Math.round, so the two differ only on a score ending in exactly 500.
    "順位点": ["20", "10", "-10", "-20"],
    "連風牌は2符": False,  # a double-wind pair is 4 fu
    "赤牌": {"m": 1, "p": 1, "s": 1},  # one red five per suit
    "クイタンあり": True,  # open tanyao
    "喰い替え許可レベル": 0,  # no kuikae of either kind
    "場数": 2,  # 東南戦
    "途中流局あり": True,  # 九種九牌, 四風連打, 四家立直, 四開槓, 三家和
    "流し満貫あり": True,
    "ノーテン宣言あり": False,  # every tenpai hand is shown at the exhaustive draw
    "ノーテン罰あり": True,  # 3,000 noten payments
    "最大同時和了数": 2,  # double ron; three rons abort the hand (三家和)
    "連荘方式": 2,  # dealer repeats on a win or tenpai
    "トビ終了あり": True,  # the game ends when a score goes below zero
    "オーラス止めあり": True,  # the last dealer stops when leading (agari-yame / tenpai-yame)
    "延長戦方式": 1,  # sudden death into the next wind (西入) while nobody has 30,000
    "一発あり": True,
    "裏ドラあり": True,
    "カンドラあり": True,
    "カン裏あり": True,
    "カンドラ後乗せ": True,  # an open kan's dora is turned after the next discard
    "ツモ番なしリーチあり": False,  # riichi needs a draw left (and 1,000 points)
    "リーチ後暗槓許可レベル": 2,  # an ankan after riichi only if the waits stay the same
    "役満の複合あり": True,  # several yakuman in one hand add up
    "ダブル役満あり": False,  # 国士十三面, 四暗刻単騎, 純正九蓮, 大四喜 are single yakuman
    "数え役満あり": True,  # 13 han is a yakuman
    "役満パオあり": True,  # pao for 大三元 and 大四喜
    "切り上げ満貫あり": False,  # 4 han 30 fu stays 7,700
}

PRESETS: dict[str, Preset] = {
    p.name: p
    for p in (
        Preset("majiang", "Majiang default", "Majiang's own defaults: east-south game, one red five per suit."),
        Preset("east", "East only (東風戦)", "Majiang's defaults, one round of east hands.", {"場数": 1}),
        Preset("no-red", "No red fives", "Majiang's defaults without red fives.",
               {"赤牌": {"m": 0, "p": 0, "s": 0}}),
        Preset("tenhou", "Tenhou-like (東南戦)",
               "Tenhou's standard rules: no double yakuman, results rounded to whole points.", _TENHOU),
        Preset("tenhou-east", "Tenhou-like east only (東風戦)", "Tenhou's standard rules, one round of east hands.",
               {**_TENHOU, "場数": 1}),
    )
}


def get(name: Any) -> Preset:
    """The preset called ``name``; a ``ValueError`` naming the choices otherwise."""
    if not isinstance(name, str) or name not in PRESETS:
        raise ValueError(f"unknown rule preset {name!r}; presets: {', '.join(PRESETS)}")
    return PRESETS[name]


def expand(rules: Mapping[str, Any] | None) -> dict[str, Any]:
    """A table's rules as plain ``Majiang.rule()`` overrides: the named preset's (Majiang's
    defaults without one), then the table's own keys on top. Keys other than the preset are
    passed through unchecked: ``rule()`` judges them."""
    rules = dict(rules or {})
    name = rules.pop(PRESET_KEY, DEFAULT_PRESET)
    # A copy: the preset's nested values (red fives, placings) must never be shared with a table.
    return {**copy.deepcopy(dict(get(name).overrides)), **rules}


def preset_name(rules: Mapping[str, Any] | None) -> str:
    """The preset a table's rules start from (``majiang`` when they name none)."""
    return (rules or {}).get(PRESET_KEY, DEFAULT_PRESET)


def describe() -> list[dict[str, Any]]:
    """Every preset for a user interface: name, label, description and its overrides."""
    return [{"name": p.name, "label": p.label, "description": p.description, "overrides": dict(p.overrides)}
            for p in PRESETS.values()]
