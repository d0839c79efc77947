"""Rule options: ``rule(**overrides)`` is ``Majiang.rule()`` with its exact keys and defaults.

The keys are Majiang's Japanese names because they travel unchanged in the protocol and in paifu
(``Majiang.rule({'順位点': [...]})``). Majiang itself copies any override blindly; here an
unknown key or a value of the wrong shape is a ``ValueError`` so a typo in a lobby setting cannot
silently fall back to a default.
"""

from __future__ import annotations

import copy
import math
from collections.abc import Mapping
from typing import Any

# Majiang.rule() defaults (majiang-core 1.3.2 .. 1.4.1, lib/rule.js), in Majiang's order.
DEFAULT_RULE: dict[str, Any] = {
    # 点数関連
    "配給原点": 25000,
    "順位点": ["20.0", "10.0", "-10.0", "-20.0"],
    "連風牌は2符": False,
    # 赤牌有無/クイタンなど
    "赤牌": {"m": 1, "p": 1, "s": 1},
    "クイタンあり": True,
    "喰い替え許可レベル": 0,  # 0: 喰い替えなし, 1: スジ喰い替えあり, 2: 現物喰い替えもあり
    # 局数関連
    "場数": 2,  # 0: 一局戦, 1: 東風戦, 2: 東南戦, 4: 一荘戦
    "途中流局あり": True,
    "流し満貫あり": True,
    "ノーテン宣言あり": False,
    "ノーテン罰あり": True,
    "最大同時和了数": 2,  # 1: 頭ハネ, 2: ダブロンあり, 3: トリロンあり
    "連荘方式": 2,  # 0: 連荘なし, 1: 和了連荘, 2: テンパイ連荘, 3: ノーテン連荘
    "トビ終了あり": True,
    "オーラス止めあり": True,
    "延長戦方式": 1,  # 0: 延長戦なし, 1: サドンデス, 2: 連荘優先サドンデス, 3: 4局固定
    # リーチ/ドラ関連
    "一発あり": True,
    "裏ドラあり": True,
    "カンドラあり": True,
    "カン裏あり": True,
    "カンドラ後乗せ": True,
    "ツモ番なしリーチあり": False,
    "リーチ後暗槓許可レベル": 2,  # 0: 暗槓不可, 1: 牌姿の変わる暗槓不可, 2: 待ちの変わる暗槓不可
    # 役満関連
    "役満の複合あり": True,
    "ダブル役満あり": True,
    "数え役満あり": True,
    "役満パオあり": True,
    "切り上げ満貫あり": False,
}

# Allowed values of the integer "level" options. 場数 3 (東南西) is not in Majiang's comment but
# its arithmetic ((場数 + 1) * 4 - 1 hands) handles it, so it is accepted.
_CHOICES: dict[str, tuple[int, ...]] = {
    "喰い替え許可レベル": (0, 1, 2),
    "場数": (0, 1, 2, 3, 4),
    "最大同時和了数": (1, 2, 3),
    "連荘方式": (0, 1, 2, 3),
    "延長戦方式": (0, 1, 2, 3),
    "リーチ後暗槓許可レベル": (0, 1, 2),
}


# Points a rule may give: far beyond any real table (25,000 to start, tens of thousands for a
# placing), and well within what the scores' arithmetic and every JSON reader keep exact.
MAX_POINTS = 10**9


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _check(key: str, value: Any) -> None:
    default = DEFAULT_RULE[key]
    if isinstance(default, bool):
        if not isinstance(value, bool):
            raise ValueError(f"{key}: expected true or false, got {value!r}")
    elif key in _CHOICES:
        if not _is_int(value) or value not in _CHOICES[key]:
            raise ValueError(f"{key}: expected one of {_CHOICES[key]}, got {value!r}")
    elif key == "配給原点":
        if not _is_int(value) or not 0 <= value <= MAX_POINTS:
            raise ValueError(f"{key}: expected an integer from 0 to {MAX_POINTS}, got {value!r}")
    elif key == "順位点":
        # Majiang keeps them as strings ('20.0' or '20'); the final points are computed from them.
        if not isinstance(value, list | tuple) or len(value) != 4:
            raise ValueError(f"{key}: expected 4 numbers as strings, got {value!r}")
        for item in value:
            if isinstance(item, bool) or not isinstance(item, str | int | float):
                raise ValueError(f"{key}: expected 4 numbers as strings, got {value!r}")
            try:
                number = float(item)
            except (ValueError, OverflowError):  # an int beyond a double overflows rather than fails
                raise ValueError(f"{key}: {item!r} is not a number") from None
            if not math.isfinite(number) or abs(number) > MAX_POINTS:
                raise ValueError(f"{key}: {item!r} is not a number from -{MAX_POINTS} to {MAX_POINTS}")
    elif key == "赤牌":
        if not isinstance(value, Mapping) or set(value) != {"m", "p", "s"}:
            raise ValueError(f"{key}: expected {{'m': n, 'p': n, 's': n}}, got {value!r}")
        for suit, count in value.items():
            if not _is_int(count) or not 0 <= count <= 4:
                raise ValueError(f"{key}: {suit} must be 0..4, got {count!r}")


def rule(overrides: Mapping[str, Any] | None = None, /, **kwargs: Any) -> dict[str, Any]:
    """All of Majiang's rule options with its defaults, updated by ``overrides`` and ``kwargs``.

    ``rule({'順位点': ['20', '10', '-10', '-20']})`` or ``rule(クイタンあり=False)``.
    Returns a fresh dict (deep copy of the defaults), ordered like ``Majiang.rule()``.
    Raises ``ValueError`` for an unknown key or an invalid value.
    """
    changes = dict(overrides or {})
    changes.update(kwargs)
    result = copy.deepcopy(DEFAULT_RULE)
    for key, value in changes.items():
        if key not in result:
            raise ValueError(f"unknown rule option {key!r}")
        _check(key, value)
        if key == "順位点":
            value = list(value)
        elif key == "赤牌":
            value = {"m": value["m"], "p": value["p"], "s": value["s"]}
        result[key] = value
    return result
