"""Majiang's 37 scripted games (script.json, 374 hands): every hand and meld string in the paifu
is in normal form for this engine, and every win scores exactly as recorded.

A win's ``param`` is rebuilt from the log the way Majiang.Game builds it: round wind from
``qipai``, seat = ``l``, dora indicators from ``qipai`` and each ``kaigang`` so far, ura
indicators as recorded, honba from ``qipai`` and riichi sticks = ``qipai``'s plus each riichi
discard nobody won on (the first winner of a double ron takes them; the next gets none). The
situational flags (riichi, ippatsu, haitei/houtei, rinshan, chankan, tenhou/chiihou) are the game
flow's to track; here they are read back from the recorded yaku names, so this checks everything
else: hand yaku, fu, dora, points and settlement.
"""

from __future__ import annotations

from typing import Any

from games.riichi.engine.hule import hule, hule_param
from games.riichi.engine.rule import rule
from games.riichi.engine.shoupai import Shoupai
from games.riichi.engine.tile import valid_mianzi
from tests.riichi.engine.oracle import script_games

SITUATIONAL = {
    "立直": ("lizhi", 1),
    "ダブル立直": ("lizhi", 2),
    "一発": ("yifa", True),
    "海底摸月": ("haidi", 1),
    "河底撈魚": ("haidi", 2),
    "嶺上開花": ("lingshang", True),
    "槍槓": ("qianggang", True),
    "天和": ("tianhu", 1),
    "地和": ("tianhu", 2),
}


def events() -> list[tuple[str, dict[str, Any]]]:
    return [(next(iter(e)), next(iter(e.values()))) for game in script_games() for hand in game["log"] for e in hand]


def test_script_has_37_games_and_374_hands() -> None:
    assert len(script_games()) == 37
    assert sum(len(game["log"]) for game in script_games()) == 374


def test_every_hand_and_meld_string_is_in_normal_form() -> None:
    hands: list[str] = []
    melds: list[str] = []
    for kind, data in events():
        if kind == "qipai":
            hands += data["shoupai"]
        elif kind in ("hule",):
            hands.append(data["shoupai"])
        elif kind == "pingju":
            hands += [s for s in data["shoupai"] if s]
        elif kind in ("fulou", "gang"):
            melds.append(data["m"])
    assert len(hands) > 1500 and len(melds) > 300
    assert [s for s in hands if str(Shoupai.from_string(s)) != s] == []
    assert [m for m in melds if valid_mianzi(m) != m] == []


def test_every_win_scores_as_recorded() -> None:
    the_rule = rule({"順位点": ["20", "10", "-10", "-20"]})
    checked = 0
    for game in script_games():
        for log in game["log"]:
            qipai = log[0]["qipai"]
            baopai = [qipai["baopai"]]
            sticks = qipai["lizhibang"]
            changbang = qipai["changbang"]
            for index, event in enumerate(log):
                kind, data = next(iter(event.items()))
                if kind == "kaigang":
                    baopai.append(data["baopai"])
                elif kind == "dapai" and data["p"].endswith("*"):
                    following = log[index + 1] if index + 1 < len(log) else {}
                    if "hule" not in following:
                        sticks += 1
                elif kind == "hule":
                    flags = dict(SITUATIONAL[h["name"]] for h in data["hupai"] if h["name"] in SITUATIONAL)
                    param = hule_param(
                        rule=the_rule,
                        zhuangfeng=qipai["zhuangfeng"],
                        menfeng=data["l"],
                        baopai=baopai,
                        fubaopai=data["fubaopai"],
                        changbang=changbang,
                        lizhibang=sticks,
                        **flags,
                    )
                    shoupai = Shoupai.from_string(data["shoupai"])
                    rongpai = None
                    if data["baojia"] is not None:
                        # The paifu shows the ron tile as drawn; take it back and mark its origin.
                        tile = shoupai.zimo_pai
                        shoupai.dapai(tile)
                        rongpai = tile + "_+=-"[(4 + data["baojia"] - data["l"]) % 4]
                    got = hule(shoupai, rongpai, param)
                    expected = {
                        "hupai": data["hupai"],
                        "fu": data.get("fu"),
                        "fanshu": data.get("fanshu"),
                        "damanguan": data.get("damanguan"),
                        "defen": data["defen"],
                        "fenpei": data["fenpei"],
                    }
                    assert got == expected, (game["title"], data)
                    sticks = changbang = 0  # a double ron's second winner gets neither
                    checked += 1
    assert checked > 100
