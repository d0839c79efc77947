"""Hand-written checks of what the exports write, one notation at a time, so that a regression
is named precisely (the readers' tests, test_readers.py, say only that a whole game broke)."""

from __future__ import annotations

import pytest

from games.riichi.engine.presets import get as get_preset
from games.riichi.engine.rule import rule as make_rule
from games.riichi.records.exports import to_mjai, to_tenhou6
from games.riichi.records.exports.mjai import pai
from games.riichi.records.exports.tenhou6 import meld_layout, parse_meld, point_text, rule_entry, tile_code
from tests.riichi.engine.oracle import script_games
from tests.riichi.records.readers import SCRIPT_RULE

DEFAULT = make_rule()


def test_tile_numbers_and_mjai_names():
    assert [tile_code(p) for p in ("m1", "m9", "p5", "s7", "z1", "z4", "z5", "z7")] == [11, 19, 25, 37, 41, 44, 45, 47]
    assert [tile_code(p) for p in ("m0", "p0", "s0")] == [51, 52, 53]
    assert [pai(code) for code in (11, 25, 39, 41, 42, 43, 44, 45, 46, 47)] == [
        "1m", "5p", "9s", "E", "S", "W", "N", "P", "F", "C"]
    assert [pai(code) for code in (51, 52, 53)] == ["5mr", "5pr", "5sr"]


@pytest.mark.parametrize(("majiang", "tenhou", "mjai_pai", "consumed"), [
    ("m4-06", "c145116", "4m", ["5mr", "6m"]),  # chi: the called tile first, then the two, sorted
    ("p34-0", "c242352", "4p", ["3p", "5pr"]),  # Majiang's mark follows the called tile
    ("p340-", "c522324", "5pr", ["3p", "4p"]),
    ("z111-", "p414141", "E", ["E", "E"]),  # pon from the kamicha: letter first
    ("z666=", "46p4646", "F", ["F", "F"]),  # from the toimen: second place
    ("z111+", "4141p41", "E", ["E", "E"]),  # from the shimocha: last place
    ("p550-", "p522525", "5pr", ["5p", "5p"]),  # the red five called
    ("m505+", "1551p15", "5m", ["5m", "5mr"]),  # a red five in hand: after the plain one
    ("m8888-", "m18181818", "8m", ["8m", "8m", "8m"]),  # open kan
    ("p1111=", "21m212121", "1p", ["1p", "1p", "1p"]),
    ("s5505+", "353553m35", "5s", ["5s", "5s", "5sr"]),
    ("m333-3", "k13131313", "3m", ["3m", "3m", "3m"]),  # kakan: k and the added tile where p was
    ("z111=1", "41k414141", "E", ["E", "E", "E"]),
    ("m505+5", "1551k1515", "5m", ["5m", "5mr", "5m"]),
])
def test_meld_strings(majiang, tenhou, mjai_pai, consumed):
    layout = meld_layout(parse_meld(majiang))
    assert layout.text() == tenhou
    assert (pai(layout.pai), [pai(code) for code in layout.consumed]) == (mjai_pai, consumed)


@pytest.mark.parametrize(("majiang", "tenhou", "consumed"), [
    ("z1111", "414141a41", ["E", "E", "E", "E"]),
    ("m5550", "151515a51", ["5m", "5m", "5m", "5mr"]),  # the red five is the one after the a
])
def test_ankan_strings(majiang, tenhou, consumed):
    layout = meld_layout(parse_meld(majiang))
    assert layout.text() == tenhou
    assert [pai(code) for code in layout.codes] == consumed


def hule(**data):
    return {"hupai": [], "fu": None, "fanshu": None, "damanguan": None, **data}


@pytest.mark.parametrize(("record", "text"), [
    (hule(l=1, baojia=2, fu=30, fanshu=2, defen=2000), "30符2飜2000点"),
    (hule(l=0, baojia=2, fu=30, fanshu=2, defen=2900), "30符2飜2900点"),
    (hule(l=2, baojia=None, fu=30, fanshu=3, defen=4000), "30符3飜1000-2000点"),
    (hule(l=0, baojia=None, fu=40, fanshu=2, defen=3900), "40符2飜1300点∀"),
    (hule(l=1, baojia=None, fu=20, fanshu=4, defen=5200), "20符4飜1300-2600点"),
    (hule(l=3, baojia=None, fu=40, fanshu=4, defen=8000), "満貫2000-4000点"),
    (hule(l=0, baojia=None, fu=30, fanshu=5, defen=12000), "満貫4000点∀"),
    (hule(l=1, baojia=3, fu=25, fanshu=4, defen=6400), "25符4飜6400点"),
    (hule(l=1, baojia=3, fu=40, fanshu=6, defen=12000), "跳満12000点"),
    (hule(l=1, baojia=3, fu=40, fanshu=9, defen=16000), "倍満16000点"),
    (hule(l=1, baojia=3, fu=40, fanshu=11, defen=24000), "三倍満24000点"),
    (hule(l=1, baojia=3, fu=40, fanshu=13, defen=32000), "役満32000点"),  # kazoe yakuman
    (hule(l=2, baojia=None, damanguan=1, defen=32000), "役満8000-16000点"),
    (hule(l=1, baojia=0, damanguan=2, defen=64000), "役満64000点"),
])
def test_point_texts(record, text):
    assert point_text(record, DEFAULT) == text


def test_point_text_follows_the_rule():
    assert point_text(hule(l=1, baojia=3, fu=30, fanshu=4, defen=8000), {**DEFAULT, "切り上げ満貫あり": True}) == \
        "満貫8000点"
    assert point_text(hule(l=1, baojia=3, fu=40, fanshu=13, defen=24000), {**DEFAULT, "数え役満あり": False}) == \
        "三倍満24000点"


def test_rule_and_title():
    assert rule_entry(DEFAULT) == {"disp": "般南喰赤", "aka": 1, "aka51": 1, "aka52": 1, "aka53": 1}
    assert rule_entry(get_preset("east").rule())["disp"] == "般東喰赤"
    assert rule_entry(get_preset("no-red").rule()) == {"disp": "般南喰", "aka": 0, "aka51": 0, "aka52": 0,
                                                        "aka53": 0}
    assert rule_entry(make_rule(クイタンあり=False, 赤牌={"m": 0, "p": 2, "s": 1})) == {
        "disp": "般南赤", "aka": 1, "aka51": 0, "aka52": 2, "aka53": 1}
    assert to_tenhou6(script_games()[0])["title"] == ["状況役: 天和 (東一局 1本場)", ""]
    assert to_tenhou6({**synthetic(), "title": "a game\nits second line"})["title"] == ["a game", "its second line"]


def test_seats_follow_the_first_dealer():
    game = script_games()[28]  # qijia 2; its fourth hand is East 2 (jushu 1), one honba
    log = to_tenhou6(game)["log"]
    assert to_tenhou6(game)["name"] == [game["player"][(2 + s) % 4] for s in range(4)]
    qipai = game["log"][3][0]["qipai"]
    assert log[3][0] == [1, 1, 0]
    assert log[3][1] == [qipai["defen"][3], qipai["defen"][0], qipai["defen"][1], qipai["defen"][2]]
    start = [e for e in to_mjai(game) if e["type"] == "start_kyoku"][3]
    assert (start["bakaze"], start["kyoku"], start["honba"], start["oya"]) == ("E", 2, 1, 1)


def test_double_ron_is_one_agari_with_a_pair_per_winner():
    game = script_games()[28]  # ダブロンで連荘: the dealer and another seat both ron seat 2
    result = to_tenhou6(game, SCRIPT_RULE)["log"][3][-1]
    assert result == [
        "和了",
        [0, 0, -2300, 2300], [3, 2, 3, "30符2飜2000点", "断幺九(1飜)", "赤ドラ(1飜)"],  # honba to the first
        [0, 2900, -2900, 0], [1, 2, 1, "30符2飜2900点", "役牌 中(1飜)", "赤ドラ(1飜)"],
    ]
    events = to_mjai(game, SCRIPT_RULE)
    end = [i for i, e in enumerate(events) if e["type"] == "end_kyoku"][3]
    assert events[end - 2:end] == [
        {"type": "hora", "actor": 3, "target": 2, "deltas": [0, 0, -2300, 2300], "ura_markers": []},
        {"type": "hora", "actor": 1, "target": 2, "deltas": [0, 2900, -2900, 0], "ura_markers": []},
    ]


def test_draw_results():
    results = {i: [entry[-1] for entry in to_tenhou6(script_games()[i])["log"]] for i in (18, 19, 20, 21, 22, 23, 29)}
    assert results[18][0] == ["流し満貫", [-4000, -2000, 8000, -2000]]
    assert results[19][0] == ["九種九牌"]
    assert results[20][0] == ["四風連打"]
    assert results[21][0] == ["四家立直"]
    assert results[22][0] == ["三家和了"]
    assert results[23][0] == ["四槓散了"]
    assert results[29][0] == ["流し満貫", [12000, -4000, -4000, -4000]]
    assert ["全員不聴"] in results[29]
    assert ["流局", [-1000, 3000, -1000, -1000]] in results[29]


def synthetic(*records):
    """A one-hand paifu: East 1, dealer = player 0; records after qipai as (kind, data)."""
    qipai = {"zhuangfeng": 0, "jushu": 0, "changbang": 0, "lizhibang": 0, "defen": [25000] * 4, "baopai": "z1",
             "shoupai": ["m1239p0s5550z1234", "m456p1234s4z55666", "m789p59s123z7777", "m5555p678s678z111"]}
    pingju = {"name": "荒牌平局", "shoupai": ["", "", "", ""], "fenpei": [0, 0, 0, 0]}
    log = [{"qipai": qipai}, *({kind: data} for kind, data in records), {"pingju": pingju}]
    return {"title": "synthetic", "player": ["a", "b", "c", "d"], "qijia": 0, "log": [log]}


def test_haipai_sorted_with_red_fives_after_the_plain():
    entry = to_tenhou6(synthetic())["log"][0]
    assert entry[4] == [11, 12, 13, 19, 52, 35, 35, 35, 53, 41, 42, 43, 44]
    assert entry[10] == [17, 18, 19, 25, 29, 31, 32, 33, 47, 47, 47, 47]
    assert to_mjai(synthetic())[1]["tehais"][0] == ["1m", "2m", "3m", "9m", "5pr", "5s", "5s", "5s", "5sr", "E", "S",
                                                   "W", "N"]


def test_discards_riichi_and_tsumogiri():
    paifu = synthetic(
        ("zimo", {"l": 0, "p": "m9"}), ("dapai", {"l": 0, "p": "z4"}),  # from the hand
        ("zimo", {"l": 1, "p": "p9"}), ("dapai", {"l": 1, "p": "p9_"}),  # the tile drawn: 60
        ("zimo", {"l": 2, "p": "s9"}), ("dapai", {"l": 2, "p": "p5*"}),  # riichi
        ("zimo", {"l": 3, "p": "z2"}), ("dapai", {"l": 3, "p": "z2_*"}),  # riichi on the tile drawn
        ("zimo", {"l": 0, "p": "s5"}), ("dapai", {"l": 0, "p": "s0"}),  # the red five from the hand
    )
    entry = to_tenhou6(paifu)["log"][0]
    assert [entry[6], entry[9], entry[12], entry[15]] == [[44, 53], [60], ["r25"], ["r60"]]
    dahai = [(e["actor"], e["pai"], e["tsumogiri"]) for e in to_mjai(paifu) if e["type"] == "dahai"]
    assert dahai == [(0, "N", False), (1, "9p", True), (2, "5p", False), (3, "S", True), (0, "5sr", False)]


def test_a_drawn_five_discarded_as_if_from_the_hand_is_tsumogiri():
    """Majiang accepts ``p5`` for the drawn plain 5p of a hand whose other five is red (and ``p0``
    for a drawn red one beside plain fives): only the drawn tile can be that one."""
    paifu = synthetic(
        ("zimo", {"l": 0, "p": "p5"}), ("dapai", {"l": 0, "p": "p5"}),  # holds p0 only: the drawn p5
        ("zimo", {"l": 1, "p": "p5"}), ("dapai", {"l": 1, "p": "p5"}),  # no five in hand: the drawn one
        ("zimo", {"l": 2, "p": "p0"}), ("dapai", {"l": 2, "p": "p5"}),  # a plain 5p in hand: from the hand
        ("zimo", {"l": 3, "p": "m0"}), ("dapai", {"l": 3, "p": "m0"}),  # four plain 5m: the drawn red one
    )
    entry = to_tenhou6(paifu)["log"][0]
    assert [entry[6], entry[9], entry[12], entry[15]] == [[60], [60], [25], [60]]
    dahai = [(e["pai"], e["tsumogiri"]) for e in to_mjai(paifu) if e["type"] == "dahai"]
    assert dahai == [("5p", True), ("5p", True), ("5p", False), ("5mr", True)]


def test_kan_strings_and_kan_dora_in_mjai():
    """script.json's game 27 (一人で四開槓), hand 1 (counted from 0): seat 3 makes three added kans
    and an open kan, each with its indicator; and game 7, hand 6: two ankans."""
    game = script_games()[27]
    entry = to_tenhou6(game)["log"][1]
    takes, discards = entry[5 + 3 * 3], entry[6 + 3 * 3]
    daiminkan = takes.index("323232m32")
    assert discards[daiminkan] == 0  # the open kan's discard slot
    assert [d for d in discards if isinstance(d, str) and "k" in d] == ["k44444444", "k23232323", "34k343434"]
    events = to_mjai(game)
    start = [i for i, e in enumerate(events) if e["type"] == "start_kyoku"][1]
    kan = next(i for i in range(start, len(events)) if events[i]["type"] == "daiminkan")
    assert events[kan] == {"type": "daiminkan", "actor": 3, "target": 0, "pai": "2s", "consumed": ["2s", "2s", "2s"]}
    # Tenhou's timing: the open kan's indicator before the discard after the replacement draw.
    assert [e["type"] for e in events[kan + 1:kan + 4]] == ["tsumo", "dora", "dahai"]

    events = to_mjai(script_games()[7])
    ankans = [i for i, e in enumerate(events) if e["type"] == "ankan"]
    assert [events[i]["consumed"] for i in ankans] == [["9m"] * 4, ["3p"] * 4]
    for i in ankans:  # an ankan's indicator at once, before the replacement draw
        assert [e["type"] for e in events[i + 1:i + 3]] == ["dora", "tsumo"]


def test_ura_only_when_a_riichi_winner_shows_it():
    game = script_games()[7]
    for hand, entry in zip(game["log"], to_tenhou6(game)["log"], strict=True):
        shown = [r["hule"]["fubaopai"] for r in hand if "hule" in r and r["hule"]["fubaopai"]]
        assert entry[3] == ([tile_code(p) for p in shown[0]] if shown else [])
