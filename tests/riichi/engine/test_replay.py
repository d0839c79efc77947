"""Replay (``games.riichi.engine.replay``): the rebuilt walls and replies, and divergence reports."""

from __future__ import annotations

import copy
import json
from pathlib import Path

from games.riichi.engine.replay import make_replies, make_shan, read_entries, replay
from games.riichi.engine.rule import rule
from tests.riichi.engine.flowkit import tiles
from tests.riichi.engine.oracle import script_games

RULE = rule({"順位点": ["20", "10", "-10", "-20"]})


def game(title_start: str) -> dict:
    return copy.deepcopy(next(g for g in script_games() if g["title"].startswith(title_start)))


def test_make_shan_puts_the_records_where_the_wall_gives_them() -> None:
    hand = game("状況役: 嶺上開花")["log"][0]
    shan = make_shan(RULE, hand)
    qipai = hand[0]["qipai"]
    assert shan.baopai == [qipai["baopai"]]
    drawn = [shan.zimo() for _ in range(13)]
    assert sorted(drawn) == sorted(tiles(qipai["shoupai"][0]))
    gangzimo = [r["gangzimo"]["p"] for r in hand if "gangzimo" in r]
    assert gangzimo and shan._pai[0] == gangzimo[0]


def test_make_replies_follow_the_decisions() -> None:
    log = [
        {"qipai": {"shoupai": ["", "", "", ""], "baopai": "m1"}},
        {"zimo": {"l": 0, "p": "m1"}},
        {"dapai": {"l": 0, "p": "m1_"}},
        {"fulou": {"l": 1, "m": "m1-23"}},
        {"dapai": {"l": 1, "p": "z1"}},
        {"hule": {"l": 2}},
        {"hule": {"l": 3}},
    ]
    replies = make_replies(log)
    assert replies[0] == [{}, {"dapai": "m1_"}, {}, {}]
    assert replies[1] == [{}, {}, {"fulou": "m1-23"}, {"dapai": "z1"}]
    assert replies[2] == [{}, {}, {}, {}, {"hule": "-"}]
    assert replies[3] == [{}, {}, {}, {}, {"hule": "-"}]
    pingju = [{"pingju": {"name": "三家和", "shoupai": ["", "x", "x", "x"]}}]
    assert make_replies(pingju) == [[], [{"hule": "-"}], [{"hule": "-"}], [{"hule": "-"}]]
    pingju = [{"pingju": {"name": "荒牌平局", "shoupai": ["x", "", "", ""]}}]
    assert make_replies(pingju)[0] == [{"daopai": "-"}]


def test_a_changed_payment_is_reported_at_its_record() -> None:
    paifu = game("状況役: 天和")
    hand = paifu["log"][1]
    index = next(i for i, r in enumerate(hand) if "hule" in r)
    hand[index]["hule"]["fenpei"][0] += 100
    divergence = replay(paifu, RULE)
    assert divergence is not None
    assert (divergence.hand, divergence.record) == (1, index)
    assert "hule" in divergence.message


def test_an_illegal_decision_is_reported() -> None:
    paifu = game("状況役: 一発")
    hand = paifu["log"][0]
    index = next(i for i, r in enumerate(hand) if "dapai" in r)
    hand[index]["dapai"]["p"] = "z7"  # not in the hand: Majiang plays the default discard instead
    divergence = replay(paifu, RULE)
    assert divergence is not None and divergence.hand == 0 and divergence.record == index
    assert "not taken" in divergence.message


def test_a_wrong_final_result_is_reported() -> None:
    for key, value in (("point", ["0", "0", "0", "0"]), ("rank", [1, 2, 3, 4]), ("defen", [0, 0, 0, 0])):
        paifu = game("半荘精算")
        paifu[key] = value
        divergence = replay(paifu, RULE)
        assert divergence is not None and divergence.hand is None and key in divergence.message


def test_a_missing_hand_is_reported() -> None:
    paifu = game("局進行: 西入サドンデス")
    paifu["log"].pop()
    divergence = replay(paifu, RULE)
    assert divergence is not None and divergence.hand == len(paifu["log"])


def test_a_wrong_rule_diverges() -> None:
    # The same games under the default 順位点 ('20.0' ...): the points gain a decimal.
    divergence = replay(game("半荘精算"), rule())
    assert divergence is not None and "point" in divergence.message


def test_read_entries_takes_every_file_shape(tmp_path: Path) -> None:
    paifu = game("状況役: 天和")
    single = tmp_path / "one.json"
    single.write_text(json.dumps(paifu, ensure_ascii=False))
    lines = tmp_path / "many.jsonl"
    lines.write_text("\n".join(json.dumps({"rule": {"場数": 1}, "paifu": paifu}) for _ in range(3)) + "\n")
    listed = tmp_path / "list.json"
    listed.write_text(json.dumps([paifu, {"rule": {}, "paifu": paifu}]))
    assert [e.overrides for e in read_entries(str(single), {"x": 1})] == [{"x": 1}]
    entries = read_entries(str(lines))
    assert len(entries) == 3 and entries[0].overrides == {"場数": 1} and entries[2].source.endswith(":3")
    assert len(read_entries(str(listed))) == 2
