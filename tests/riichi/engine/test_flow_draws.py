"""Abortive draws, multiple ron and the exhaustive draw (tenpai payments, ノーテン宣言, 流し満貫)."""
# ruff: noqa: E741  (l: a seat counted from the hand's dealer, Majiang's and the paifu's name)

from __future__ import annotations

import pytest

from games.riichi.engine.he import He
from games.riichi.engine.shoupai import Shoupai
from tests.riichi.engine.flowkit import Table, random_wall, rule, wall

J0 = "m1478p1478s1478z1"
J2 = "m1699p1699s1699z3"
J3 = "m2p2s2z2223344556"
J3B = "m578p578s2579z456"
J2_NO_1 = "m4699p4699s4699z3"


def table(hands: list[str], zimo: str = "", gangzimo: str = "", **options) -> Table:
    r = rule(**options)
    return Table([wall(r, hands, zimo, gangzimo)] + [random_wall(r, i) for i in range(3)], r)


def qipai(t: Table, hand: int) -> dict:
    return t.records("qipai", hand)[0]["qipai"]


# -- abortive draws ------------------------------------------------------------------------------

NINE = "m19p19s19z12345m5p5"  # eleven kinds of terminals and honours


def test_nine_terminals_on_the_first_draw() -> None:
    t = table([NINE, J2, "m2p2s2z6667777m36p3", "m3p3s3z6m4p4s4456788"], "m2")
    assert t.can(0, "pingju")
    t.act(0, "pingju")
    pingju = t.records("pingju")[0]["pingju"]
    assert pingju["name"] == "九種九牌" and pingju["fenpei"] == [0, 0, 0, 0] and pingju["shoupai"][1:] == ["", "", ""]
    assert Shoupai.from_string(pingju["shoupai"][0]).zimo_pai == "m2"
    assert (qipai(t, 1)["jushu"], qipai(t, 1)["changbang"]) == (0, 1)  # the dealer stays


def test_nine_terminals_needs_the_rule_and_the_first_draw() -> None:
    t = table([NINE, J2, "m2p2s2z6667777m36p3", "m3p3s3z6m4p4s4456788"], "m2", **{"途中流局あり": False})
    assert not t.can(0, "pingju")
    t = table([J0, NINE.replace("z1", "z7"), J2, J3.replace("z6", "z1")], "z7 m2 p9 z6 m3")
    t.discard(0, "z7_")
    assert t.can(1, "pingju")  # seat 1's first draw, nobody called yet
    t.discard(1, "m2_")
    t.discard(2, "p9_")
    t.discard(3, "z6_")
    t.discard(0, "m3_")
    assert not t.can(1, "pingju")  # its second draw


FOUR_WINDS = ["m1478p1478s1478z1", "m1699p1699s1699z1", "m2p2s2z2223344551", "m3p3s3m5p5s5m9p9s9z671s6"]


@pytest.mark.parametrize("enabled", [True, False])
def test_four_winds(enabled: bool) -> None:
    t = table(FOUR_WINDS, "m2 m3 p2 p3 s2", **{"途中流局あり": enabled})
    for seat in range(4):
        t.discard(seat, "z1")
    if enabled:
        assert t.records("pingju", 0)[0]["pingju"] == {"name": "四風連打", "shoupai": ["", "", "", ""],
                                                        "fenpei": [0, 0, 0, 0]}
        assert qipai(t, 1)["changbang"] == 1 and qipai(t, 1)["jushu"] == 0
    else:
        assert not t.records("pingju", 0) and t.records()[-1] == {"zimo": {"l": 0, "p": "s2"}}


TENPAI4 = ["m234p234s234z1112", "m567p567s567z3334", "m678p678s678z5556", "m345p345s345z7771"]


@pytest.mark.parametrize("enabled", [True, False])
def test_four_riichi(enabled: bool) -> None:
    t = table(TENPAI4, "m9 p9 s9 m1 m1", **{"途中流局あり": enabled})
    for seat, p in enumerate(("m9_*", "p9_*", "s9_*", "m1_*")):
        assert t.can(seat, "dapai", p)
        t.discard(seat, p)
    if enabled:
        pingju = t.records("pingju", 0)[0]["pingju"]
        assert pingju["name"] == "四家立直" and all(pingju["shoupai"]) and pingju["fenpei"] == [0, 0, 0, 0]
        assert qipai(t, 1)["lizhibang"] == 4 and qipai(t, 1)["changbang"] == 1
        assert qipai(t, 1)["defen"] == [24000] * 4
    else:
        assert t.flow.lizhibang == 4 and not t.records("pingju", 0)


def test_four_kans_by_two_players_abort_but_not_by_one() -> None:
    hands = ["m11112222p359s1z1", "p11112222m369s3z2", J2.replace("m1", "m4").replace("p1", "p4"), J3B]
    t = table(hands, "z5 z5", gangzimo="z7 z7 z6 z6")
    t.act(0, "gang", "m1111")
    t.act(0, "gang", "m2222")
    t.discard(0, "z7_")
    t.act(1, "gang", "p1111")
    t.act(1, "gang", "p2222")
    assert not any(a["type"] == "gang" for a in t.legal(1))
    t.discard(1, "z6_")
    pingju = t.records("pingju", 0)[0]["pingju"]
    assert pingju["name"] == "四開槓"
    assert len(t.records("kaigang", 0)) == 4


def test_four_kans_by_one_player_go_on() -> None:
    hands = ["m11112222p1111s1", "p2229m369s3z45667", J2_NO_1,
             J3B]
    t = table(hands, "s1", gangzimo="s1 s1 z7 z6")
    for m in ("m1111", "m2222", "p1111", "s1111"):
        t.act(0, "gang", m)
    t.discard(0, "z6_")
    assert not t.records("pingju", 0)
    assert t.records()[-1]["zimo"]["l"] == 1


# Three hands waiting on p5 (tanyao): seat 1 p46, seat 2 p34, seat 3 p67; the dealer throws p5.
RON3 = ["z1122334455667", "m234m567s234s66p46", "m345m678s345s77p34", "m234s456s678p88p67"]


@pytest.mark.parametrize(("most", "winners"), [(1, [1]), (2, None), (3, [1, 2, 3])])
def test_simultaneous_ron(most: int, winners: list[int] | None) -> None:
    t = table(RON3, "p5", **{"最大同時和了数": most})
    t.act(0, "dapai", "p5_")
    for seat in (1, 2, 3):
        assert t.can(seat, "hule")
        t.act(seat, "hule")
    hules = [r["hule"] for r in t.records("hule", 0)]
    if winners is None:
        pingju = t.records("pingju", 0)[0]["pingju"]
        assert pingju["name"] == "三家和" and pingju["shoupai"][0] == "" and all(pingju["shoupai"][1:])
        assert qipai(t, 1)["changbang"] == 1 and qipai(t, 1)["jushu"] == 0
    else:
        assert [h["l"] for h in hules] == winners
        # Only the first winner gets honba and sticks; the dealer lost, so the deal passes.
        assert qipai(t, 1)["jushu"] == 1 and qipai(t, 1)["changbang"] == 0


def test_three_ron_aborts_even_without_abortive_draws() -> None:
    t = table(RON3, "p5", **{"途中流局あり": False})
    t.act(0, "dapai", "p5_")
    for seat in (1, 2, 3):
        t.act(seat, "hule")
    assert t.records("pingju", 0)[0]["pingju"]["name"] == "三家和"


def test_double_ron_the_dealer_wins_and_stays() -> None:
    # The dealer and seat 2 both ron seat 1's p5: the dealer keeps the deal, honba +1.
    hands = ["m234m567s234s66p46", "z1122334455667", "m345m678s345s77p34", J0]
    t = table(hands, "z7 p5")
    t.discard(0, "z7_")
    t.act(1, "dapai", "p5_")
    t.act(0, "hule")
    t.act(2, "hule")
    t.act(3, "pass")
    assert [r["hule"]["l"] for r in t.records("hule", 0)] == [2, 0]  # in turn order from the discarder
    assert qipai(t, 1)["jushu"] == 0 and qipai(t, 1)["changbang"] == 1


# -- the exhaustive draw ----------------------------------------------------------------------------

TENPAI = ["m123p456s789z1122", "m234p234s234z3344", "m345p345s345z5566", "m456p456s456z6677"]
NOTEN = ["m1478p1478s1478z1", "m1699p1699s1699z3", "m2p2s2z2223344556", "m13579p13579s135"]
SEAT3 = "m3p3s3z6m5p5s5z77m9p9s9m6"


def exhaust(hands: list[str], declared: list[str] | None = None, lizhi: tuple[int, ...] = (), **options):
    """Put the table at the end of the wall with these 13-tile hands and draw: returns (record,
    next qipai)."""
    t = table([J0, J2.replace("z3", "z2"), J3, SEAT3], "z7", **options)
    flow = t.flow
    flow.shoupai = [Shoupai.from_string(h) for h in hands]
    for l in lizhi:
        flow.shoupai[l]._lizhi = True
    flow.he = [He().dapai("m5") for _ in range(4)]  # no nagashi
    flow.pingju("", declared or ["", "", "", ""])
    record = flow.paipu["log"][0][-1]["pingju"]
    flow.reply_pingju()
    return record, flow.paipu["log"][1][0]["qipai"], flow


@pytest.mark.parametrize(
    ("tenpai", "fenpei"),
    [
        ((), [0, 0, 0, 0]),
        ((2,), [-1000, -1000, 3000, -1000]),
        ((0, 1), [1500, 1500, -1500, -1500]),
        ((0, 1, 3), [1000, 1000, -3000, 1000]),
        ((0, 1, 2, 3), [0, 0, 0, 0]),
    ],
)
def test_tenpai_payments(tenpai: tuple[int, ...], fenpei: list[int]) -> None:
    hands = [TENPAI[l] if l in tenpai else NOTEN[l] for l in range(4)]
    record, nxt, _ = exhaust(hands)
    assert record["name"] == "荒牌平局" and record["fenpei"] == fenpei
    assert [bool(s) for s in record["shoupai"]] == [l in tenpai for l in range(4)]
    assert nxt["changbang"] == 1
    assert nxt["jushu"] == (0 if 0 in tenpai else 1)  # 連荘方式 2: the dealer stays when tenpai


def test_no_noten_penalty() -> None:
    hands = [TENPAI[0], NOTEN[1], TENPAI[2], TENPAI[3]]
    record, nxt, _ = exhaust(hands, lizhi=(3,), **{"ノーテン罰あり": False})
    assert record["fenpei"] == [0, 0, 0, 0]
    # Shown: the dealer (for the tenpai renchan) and the riichi hand only.
    assert [bool(s) for s in record["shoupai"]] == [True, False, False, True]
    assert nxt["jushu"] == 0


def test_noten_declaration() -> None:
    hands = [TENPAI[0], TENPAI[1], TENPAI[2], NOTEN[3]]
    # Seat 1 shows, seat 2 (in riichi) counts anyway, the dealer keeps its hand hidden.
    record, nxt, _ = exhaust(hands, declared=["", "-", "", ""], lizhi=(2,), **{"ノーテン宣言あり": True})
    assert [bool(s) for s in record["shoupai"]] == [False, True, True, False]
    assert record["fenpei"] == [-1500, 1500, 1500, -1500]
    assert nxt["jushu"] == 1


def test_noten_declaration_is_offered_at_the_last_discard() -> None:
    t = table(["m123p456s789z1122", J2, J3B, J0], "z7", **{"ノーテン宣言あり": True})
    del t.flow.shan._pai[14:]  # the dealer drew the last tile
    t.act(0, "dapai", "z7_")
    assert t.game.to_act() == [0, 1, 2, 3]  # the discarder too: it may show its hand
    assert t.can(0, "daopai") and not t.can(1, "daopai")


@pytest.mark.parametrize(("mode", "dealer_tenpai", "stays"), [
    (0, True, False), (1, True, False), (2, True, True), (2, False, False), (3, False, True)])
def test_dealer_repeat_after_a_draw(mode: int, dealer_tenpai: bool, stays: bool) -> None:
    hands = [TENPAI[0] if dealer_tenpai else NOTEN[0], NOTEN[1], TENPAI[2], NOTEN[3]]
    _, nxt, _ = exhaust(hands, **{"連荘方式": mode})
    assert (nxt["jushu"] == 0) is stays and nxt["changbang"] == 1


def nagashi(rivers: dict[int, list[str]], **options):
    t = table([J0, J2.replace("z3", "z2"), J3, SEAT3], "z7", **options)
    flow = t.flow
    flow.shoupai = [Shoupai.from_string(h) for h in NOTEN]
    flow.he = []
    for l in range(4):
        he = He()
        for p in rivers.get(l, ["m5", "z1"]):
            he.dapai(p.rstrip("+=-"))
            if p[-1] in "+=-":
                he._pai[-1] += p[-1]
        flow.he.append(he)
    flow.pingju("")
    return flow.paipu["log"][0][-1]["pingju"]


def test_nagashi_mangan() -> None:
    yaojiu = ["z1", "m9_", "p1", "s9*", "z7_"]
    record = nagashi({2: yaojiu})
    assert record == {"name": "流し満貫", "shoupai": ["", "", "", ""], "fenpei": [-4000, -2000, 8000, -2000]}
    assert nagashi({0: yaojiu})["fenpei"] == [12000, -4000, -4000, -4000]
    assert nagashi({0: yaojiu, 2: yaojiu})["fenpei"] == [8000, -6000, 4000, -6000]
    assert nagashi({2: ["z1", "m9-", "p1"]})["name"] == "荒牌平局"  # one of them was called
    assert nagashi({2: yaojiu}, **{"流し満貫あり": False})["name"] == "荒牌平局"
