"""All 40,000 hands of Majiang's xiangting_1..4.json give the recorded shanten numbers
(regular form, kokushi, seven pairs), and ``xiangting`` is their minimum."""

from __future__ import annotations

import pytest

from games.riichi.engine.shoupai import Shoupai
from games.riichi.engine.xiangting import xiangting, xiangting_guoshi, xiangting_qidui, xiangting_yiban
from tests.riichi.engine.oracle import xiangting_cases

CHUNK = 2500


@pytest.mark.parametrize("part", [1, 2, 3, 4])
def test_each_file_has_10000_hands(part: int) -> None:
    assert len(xiangting_cases(part)) == 10_000


@pytest.mark.parametrize("part", [1, 2, 3, 4])
@pytest.mark.parametrize("start", range(0, 10_000, CHUNK))
def test_xiangting_matches_majiang(part: int, start: int) -> None:
    mismatches = []
    for index in range(start, start + CHUNK):
        case = xiangting_cases(part)[index]
        shoupai = Shoupai(case["q"])
        got = [xiangting_yiban(shoupai), xiangting_guoshi(shoupai), xiangting_qidui(shoupai)]
        if got != case["x"] or xiangting(shoupai) != min(case["x"]):
            mismatches.append((index, case, got))
    assert not mismatches, mismatches[:3]
