"""Every export of every game, read back by two independent readers (readers.py).

Games: the 37 reference games of script.json (every edge case Majiang's own tests script) and
whole house-bot games of our engine under each rule preset (readers.BOT_SEEDS).

- convlog must read each tenhou.net/6 export, and the mjai it makes of it must equal our own mjai
  export of the same paifu, event for event (compared as parsed JSON: no normalisation at all).
- jansou must replay every round of each export through its engine and re-score every win to
  the value and fu the export records, under the game's own rules.
- read as jansou reads a tenhou.net/6 file (its Tenhou rules, whatever the game's), a win may be
  scored differently only for a reason listed in JANSOU_TENHOU_RULE_DIFFERENCES.

docs/records.md explains each allowance; nothing else is skipped.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping
from functools import cache
from typing import Any

import pytest
from jansou.io.tenhou_json import parse_tenhou_json

from games.riichi.records.exports import to_mjai, to_tenhou6
from tests.riichi.records.readers import (
    GAME_KEYS,
    IDS,
    convlog_events,
    game,
    jansou_paifu,
    jansou_replay_errors,
    jansou_verdicts,
)


@cache
def tenhou(key: tuple[str, int]) -> dict[str, Any]:
    paifu, rule = game(key)
    return to_tenhou6(paifu, rule)


def hules(paifu: Mapping[str, Any]) -> list[tuple[int, dict[str, Any]]]:
    """Every win of the paifu with its hand index, in the order the paifu records them."""
    return [(index, record["hule"]) for index, hand in enumerate(paifu["log"]) for record in hand if "hule" in record]


def first_difference(ours: list[dict], theirs: list[dict]) -> str:
    for index, (a, b) in enumerate(zip(ours, theirs, strict=False)):
        if a != b:
            return f"event {index}: ours {a} / convlog {b}"
    return f"lengths: ours {len(ours)} / convlog {len(theirs)}"


# --- convlog --------------------------------------------------------------------------------------


@pytest.mark.parametrize("key", GAME_KEYS, ids=IDS)
def test_convlog_reads_the_export_and_makes_our_mjai(key):
    paifu, rule = game(key)
    assert to_tenhou6(paifu) == tenhou(key)  # the rule from the paifu (or Majiang's defaults) alike
    theirs = convlog_events(tenhou(key))  # raises on a log convlog cannot follow
    ours = to_mjai(paifu, rule)
    assert ours == theirs, first_difference(ours, theirs)
    assert sum(1 for event in ours if event["type"] == "hora") == len(hules(paifu))
    assert sum(1 for event in ours if event["type"] == "start_kyoku") == len(paifu["log"])


# --- jansou ---------------------------------------------------------------------------------------


def robbed_kan_turned_a_dora(hand: list[dict[str, Any]]) -> bool:
    """The hand ends with a kan robbed (槍槓) after that kan turned the indicator of an earlier
    open kan: Majiang turns a pending indicator when the next kan is declared, jansou's engine
    only when that kan is completed, so it never turns the last one (docs/records.md)."""
    kinds = [next(iter(record)) for record in hand]
    return kinds[-3:-1] == ["gang", "kaigang"] and kinds[-1] == "hule"


@pytest.mark.parametrize("key", GAME_KEYS, ids=IDS)
def test_jansou_replays_every_round(key):
    paifu, rule = game(key)
    errors = jansou_replay_errors(jansou_paifu(tenhou(key), rule))
    expected = {index for index, hand in enumerate(paifu["log"]) if robbed_kan_turned_a_dora(hand)}
    assert set(errors) == expected, {index: str(error) for index, error in errors.items()}
    for error in errors.values():
        assert "DoraReveal" in str(error) and "still unplayed" in str(error), str(error)


@pytest.mark.parametrize("key", GAME_KEYS, ids=IDS)
def test_jansou_rescores_every_win_under_the_games_rules(key):
    paifu, rule = game(key)
    verdicts = jansou_verdicts(jansou_paifu(tenhou(key), rule))
    assert [index for index, _ in verdicts] == [index for index, _ in hules(paifu)]
    assert [(index, verdict.detail) for index, verdict in verdicts if not verdict.passed] == []


# Where the game's rules and jansou's Tenhou rules score a win differently. Each entry: why, and
# when it applies to a win (its paifu record, the game's rule). Our presets differ from Tenhou's
# in no other option that changes a score (docs/records.md).
JANSOU_TENHOU_RULE_DIFFERENCES: dict[str, Callable[[Mapping[str, Any], Mapping[str, Any]], bool]] = {
    # Majiang's default counts 国士無双十三面, 四暗刻単騎, 純正九蓮宝燈 and 大四喜 as double yakuman.
    "ダブル役満あり (Tenhou: single yakuman)": lambda hule, rule: rule["ダブル役満あり"]
    and any(h["fanshu"] == "**" for h in hule["hupai"]),
}


@pytest.mark.parametrize("key", GAME_KEYS, ids=IDS)
def test_jansou_with_its_own_tenhou_rules_differs_only_by_rule(key):
    paifu, rule = game(key)
    verdicts = jansou_verdicts(parse_tenhou_json(tenhou(key)))
    wins = hules(paifu)
    assert len(verdicts) == len(wins)
    for (index, verdict), (hand, hule) in zip(verdicts, wins, strict=True):
        assert index == hand
        if verdict.passed:
            continue
        reasons = [name for name, applies in JANSOU_TENHOU_RULE_DIFFERENCES.items() if applies(hule, rule)]
        assert reasons, f"hand {hand}: {verdict.detail} with no rule difference to explain it"


def test_the_games_reach_the_edge_cases():
    """The games checked hold what the checks are about (so a change of seeds cannot quietly
    leave them out)."""
    counts: dict[str, int] = {}

    def count(name: str, n: int = 1) -> None:
        counts[name] = counts.get(name, 0) + n

    for key in GAME_KEYS:
        log = tenhou(key)["log"]
        for entry in log:
            result = entry[-1]
            count(result[0])
            count("double ron", result[0] == "和了" and len(result) > 3)
            strings = [item for seat in range(4) for item in entry[5 + 3 * seat] + entry[6 + 3 * seat]
                       if isinstance(item, str)]
            for letter in "cpmka":
                count(f"meld {letter}", sum(1 for item in strings if letter in item and not item.startswith("r")))
            count("riichi", sum(1 for item in strings if item.startswith("r")))
            count("red five", sum(1 for seat in range(4) for code in entry[4 + 3 * seat] if code > 50))
        if key[0] != "script":
            count("bot kan", sum(1 for entry in log for seat in range(4) for item in entry[6 + 3 * seat]
                                 if isinstance(item, str) and not item.startswith("r")))
    for name in ("和了", "流局", "全員不聴", "流し満貫", "九種九牌", "四風連打", "四家立直", "四槓散了", "三家和了",
                 "meld c", "meld p", "meld m", "meld k", "meld a", "riichi", "red five", "bot kan"):
        assert counts.get(name, 0) > 0, name
    assert counts["double ron"] >= 2


def test_a_corrupted_export_fails_the_readers():
    """The control: the readers do check. A discard changed to another tile makes jansou's replay
    fail (the tile is not in that hand) and convlog's mjai differ from ours; a call moved to the
    wrong seat makes convlog refuse the log; a payment changed by 100 points makes jansou's score
    disagree."""
    key = ("script", 7)
    paifu, rule = game(key)
    good = tenhou(key)

    corrupted = copy.deepcopy(good)
    discards = corrupted["log"][0][6]  # seat 0's discards in the first hand
    first = next(i for i, item in enumerate(discards) if isinstance(item, int) and item not in (0, 60))
    discards[first] = 47 if discards[first] != 47 else 46
    assert 0 in jansou_replay_errors(jansou_paifu(corrupted, rule))
    assert convlog_events(corrupted) != to_mjai(paifu, rule)

    corrupted = copy.deepcopy(good)
    takes, pon = next((takes, i) for seat in range(4) for takes in [corrupted["log"][0][5 + 3 * seat]]
                      for i, item in enumerate(takes) if isinstance(item, str) and "p" in item)
    codes = takes[pon].replace("p", "")  # the pon's letter moved: the tile now comes from another seat
    takes[pon] = "p" + codes if not takes[pon].startswith("p") else codes[:4] + "p" + codes[4:]
    with pytest.raises(ValueError):  # convlog_rs's errors are ValueErrors
        convlog_events(corrupted)

    corrupted = copy.deepcopy(good)
    result = corrupted["log"][0][-1]
    who, from_who = result[2][0], result[2][1]
    result[1][who] += 100
    result[1][from_who] -= 100
    assert [v.passed for _, v in jansou_verdicts(jansou_paifu(corrupted, rule))][0] is False

