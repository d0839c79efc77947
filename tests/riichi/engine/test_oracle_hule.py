"""All 10,000 scored hands of Majiang's hule.json give exactly the recorded result.

The whole ``out`` is compared: the yaku list (names, han, order), fu, han, yakuman multiple,
points and each seat's settlement. The data was made with the default ``Majiang.rule()``.
"""

from __future__ import annotations

import time

import pytest

from games.riichi.engine.hule import hule
from games.riichi.engine.rule import rule
from games.riichi.engine.shoupai import Shoupai
from tests.riichi.engine.oracle import hule_cases

CHUNK = 500


def test_hule_json_has_10000_hands() -> None:
    assert len(hule_cases()) == 10_000


@pytest.mark.parametrize("start", range(0, 10_000, CHUNK))
def test_hule_matches_majiang(start: int) -> None:
    default_rule = rule()
    mismatches = []
    for index in range(start, start + CHUNK):
        case = hule_cases()[index]
        given = case["in"]
        param = {**given["param"], "rule": default_rule}
        got = hule(Shoupai.from_string(given["shoupai"]), given.get("rongpai"), param)
        if got != case["out"]:
            mismatches.append((index, given, got, case["out"]))
    assert not mismatches, mismatches[:3]


def test_hule_speed_is_reported() -> None:
    # Not a benchmark gate, a sanity floor: scoring must stay far faster than a game needs.
    default_rule = rule()
    prepared = [
        (Shoupai.from_string(c["in"]["shoupai"]), c["in"].get("rongpai"), {**c["in"]["param"], "rule": default_rule})
        for c in hule_cases()[:2000]
    ]
    started = time.process_time()
    for shoupai, rongpai, param in prepared:
        hule(shoupai, rongpai, param)
    rate = len(prepared) / max(time.process_time() - started, 1e-9)
    assert rate > 1000, f"{rate:.0f} hands/s"
