"""The flow on stacked walls: furiten, kuikae, riichi, sticks and honba, who is asked.

Seats: the first dealer is seat 0, so in the first hand seat = position (0 East ... 3 North).
"""

from __future__ import annotations

import pytest

from games.core.engine import Rejection
from games.riichi.engine.shoupai import Shoupai
from games.riichi.engine.xiangting import xiangting
from tests.riichi.engine.flowkit import Table, random_wall, rule, wall

# Seat 1's hand: tanyao-pinfu tenpai on m2/m5.
H1 = "m34p234456s55678"
# Junk hands, far from tenpai.
J0 = "m1478p1478s1478z1"
J2 = "m1699p1699s1699z3"
J3 = "m2p2s2z2223344556"
J2B = "p1699s1699z3m2468"


def test_junk_is_junk() -> None:
    for hand in (J0, J2, J3):
        assert xiangting(Shoupai.from_string(hand)) >= 2
    assert xiangting(Shoupai.from_string(H1)) == 0


def table(zimo: str, *, hands: list[str] | None = None, gangzimo: str = "", **options) -> Table:
    r = rule(**options)
    return Table([wall(r, hands or [J0, H1, J2, J3], zimo, gangzimo)] + [random_wall(r, i) for i in range(3)], r)


def test_after_a_draw_only_the_drawer_is_asked() -> None:
    t = table("z7z6")
    assert t.game.to_act() == [0]
    assert {a["type"] for a in t.legal(0)} >= {"dapai", "pass"}
    assert t.legal(1) == []
    with pytest.raises(Rejection):
        t.act(1, "pass")


def test_after_a_discard_all_three_others_are_asked() -> None:
    t = table("z7z6")
    t.act(0, "dapai", "z7_")
    assert t.game.to_act() == [1, 2, 3]
    t.act(2, "pass")
    assert t.game.to_act() == [1, 3]
    assert t.records()[-1] == {"dapai": {"l": 0, "p": "z7_"}}
    t.act(1, "pass")
    t.act(3, "pass")
    assert t.game.to_act() == [1]
    assert t.records()[-1] == {"zimo": {"l": 1, "p": "z6"}}


def test_discard_furiten_blocks_ron_not_tsumo() -> None:
    t = table("z7 m2 m5 z7 z6 m5")
    t.discard(0, "z7_")
    assert t.can(1, "hule")  # tsumo on m2 is allowed...
    t.discard(1, "m2_")  # ...but seat 1 throws it: its wait m2 is now in its own river
    assert t.flow._neng_rong[1] is False
    t.act(2, "dapai", "m5_")
    assert not t.can(1, "hule")
    assert "own discards" in t.blocked(1)
    t.pass_all()
    t.discard(3, "z7_")
    t.discard(0, "z6_")
    assert t.can(1, "hule")  # tsumo on m5 despite furiten
    t.act(1, "hule")
    hule = t.records("hule")[0]["hule"]
    assert hule["l"] == 1 and hule["baojia"] is None


def test_temporary_furiten_lasts_until_the_own_discard() -> None:
    t = table("z7 z6 m2 m5 z7 z5 m5")
    t.discard(0, "z7_")
    t.discard(1, "z6_")
    t.act(2, "dapai", "m2_")
    assert t.can(1, "hule")
    t.pass_all()  # seat 1 lets the winning tile pass
    t.act(3, "dapai", "m5_")
    assert "since your last discard" in t.blocked(1)
    t.pass_all()
    t.discard(0, "z7_")
    t.discard(1, "z5_")  # its own discard ends the temporary furiten
    t.act(2, "dapai", "m5_")
    assert t.can(1, "hule")


def test_riichi_furiten_lasts_the_whole_hand() -> None:
    t = table("z7 z6 m2 z5 z5 z4 m5 z7 z7 m5")
    t.discard(0, "z7_")
    assert t.can(1, "dapai", "z6_*")
    t.discard(1, "z6_*")
    t.act(2, "dapai", "m2_")
    assert t.can(1, "hule")
    t.pass_all()
    t.discard(3, "z5_")
    t.discard(0, "z5_")
    assert [a["params"] for a in t.legal(1) if a["type"] == "dapai"] == [["z4_"]]  # riichi: tsumogiri only
    t.discard(1, "z4_")
    t.act(2, "dapai", "m5_")
    assert "since your riichi" in t.blocked(1)
    t.pass_all()
    t.discard(3, "z7_")
    t.discard(0, "z7_")
    assert t.can(1, "hule")  # tsumo is still allowed
    t.act(1, "hule")
    names = [h["name"] for h in t.records("hule")[0]["hule"]["hupai"]]
    assert "ダブル立直" in names and "門前清自摸和" in names  # riichi on its first discard


@pytest.mark.parametrize(("level", "denied"), [(0, {"m3", "m6"}), (1, {"m3"}), (2, set())])
def test_kuikae(level: int, denied: set[str]) -> None:
    t = table("m3", hands=[J0, "m3456p123s123z111", J2, J3], **{"喰い替え許可レベル": level})
    t.act(0, "dapai", "m3_")
    assert t.can(1, "fulou", "m3-45")
    assert not t.can(2, "fulou", "m3-45")  # only the next seat may chi
    t.act(1, "fulou", "m3-45")
    t.pass_all()
    assert t.records()[-1] == {"fulou": {"l": 1, "m": "m3-45"}}
    assert t.game.to_act() == [1]
    allowed = {a["params"][0] for a in t.legal(1) if a["type"] == "dapai"}
    assert allowed == {"m3", "m6", "p1", "p2", "p3", "s1", "s2", "s3", "z1"} - denied
    for p in denied:
        with pytest.raises(Rejection):
            t.act(1, "dapai", p)


def test_pon_beats_chi_and_ron_beats_pon() -> None:
    # seat 1 can chi m3, seat 2 can pon it (seat 2 holds m33).
    t = table("m3", hands=[J0, "m3456p123s123z111", "m33p1699s1699z357", J3])
    t.act(0, "dapai", "m3_")
    t.act(1, "fulou", "m3-45")
    t.act(2, "fulou", "m333=")
    t.act(3, "pass")
    assert t.records()[-1] == {"fulou": {"l": 2, "m": "m333="}}
    assert t.game.to_act() == [2]


def test_no_riichi_with_an_open_hand() -> None:
    t = table("z1 p9", hands=[J0, "m34p234s55678z11p9", J2, J3])
    t.act(0, "dapai", "z1_")
    t.act(1, "fulou", "z111-")
    t.pass_all(but=(1,))
    t.discard(1, "p9")
    assert xiangting(t.flow.shoupai[1]) == 0
    t.discard(2, "p9_")
    t.discard(3, t.flow.shoupai[3]._zimo + "_")
    t.discard(0, t.flow.shoupai[0]._zimo + "_")
    assert not any(a.get("lizhi") for a in t.legal(1))


def test_riichi_needs_four_tiles_left_unless_tsumoban_nashi() -> None:
    for allowed in (False, True):
        t = table("z7 z6", **{"ツモ番なしリーチあり": allowed})
        t.discard(0, "z7_")
        assert t.can(1, "dapai", "z6_*")
        shan = t.flow.shan
        del shan._pai[14:-3]  # three tiles left to draw
        assert shan.paishu == 3
        assert t.can(1, "dapai", "z6_*") is allowed


def test_riichi_needs_1000_points_with_tobi() -> None:
    for tobi in (True, False):
        t = table("z7 z6", **{"トビ終了あり": tobi})
        t.discard(0, "z7_")
        t.flow.defen[1] = 900
        assert t.can(1, "dapai", "z6_*") is (not tobi)


def test_riichi_stick_only_when_the_declaration_is_not_ron() -> None:
    # Seat 0 (tenpai on z2) declares riichi with m2: seat 1 rons it, so no stick is paid.
    t = table("m2", hands=["m234p234s234z1112", H1, J2, J3])
    t.act(0, "dapai", "m2_*")
    t.act(1, "hule")
    t.pass_all()
    hule = t.records("hule")[0]["hule"]
    assert hule["baojia"] == 0 and hule["fenpei"] == [-2000, 2000, 0, 0]
    assert t.flow.lizhibang == 0
    assert t.flow.defen == [23000, 27000, 25000, 25000]


def test_riichi_stick_and_honba_go_to_the_winner() -> None:
    r = rule()
    t = Table.__new__(Table)
    t.rule = r
    t.events = []
    from games.riichi.engine.table import RiichiGame

    t.game = RiichiGame.from_walls([wall(r, ["m234p234s234z1112", H1, J2, J3], "z7 z6 m2"), random_wall(r)], rule=r)
    t.game.game.changbang = 2
    t.game.game.lizhibang = 1
    t.act(0, "kaiju")
    assert t.records("qipai")[0]["qipai"]["changbang"] == 2
    t.discard(0, "z7_*")  # seat 0's riichi stands: a second stick
    assert t.flow.lizhibang == 2 and t.flow.defen[0] == 24000
    t.discard(1, "z6_")
    t.act(2, "dapai", "m2_")
    t.act(1, "hule")
    t.pass_all()
    hule = t.records("hule")[0]["hule"]
    # 2000 for tanyao-pinfu, 600 for two honba from the discarder, 2000 in sticks.
    assert hule["defen"] == 2000
    assert hule["fenpei"] == [0, 4600, -2600, 0]
    assert t.flow.changbang == 0 and t.flow.lizhibang == 0


def test_ankan_turns_the_kan_dora_at_once_and_asks_nobody() -> None:
    t = table("z7 m9", hands=["m1111p159s159z123", "m999p2468s2468z45", J2B, J3], gangzimo="z6")
    assert t.can(0, "gang", "m1111")
    t.act(0, "gang", "m1111")
    kinds = [next(iter(r)) for r in t.records()]
    assert kinds[-3:] == ["gang", "gangzimo", "kaigang"]  # no chankan on an ankan
    assert t.game.to_act() == [0]
    t.discard(0, "z6_")
    assert t.can(1, "gang", "m9999")
    t.act(1, "gang", "m9999")
    assert len(t.records("kaigang")) == 2
    assert len(t.game.view(1)["baopai"]) == 3


def test_daiminkan_turns_the_kan_dora_after_the_next_discard() -> None:
    t = table("m9", hands=[J0, "m999p2468s2468z45", J2B, J3], gangzimo="z6")
    t.act(0, "dapai", "m9_")
    assert t.can(1, "fulou", "m9999-")
    t.act(1, "fulou", "m9999-")
    t.pass_all()
    kinds = [next(iter(r)) for r in t.records()]
    assert kinds[-2:] == ["fulou", "gangzimo"]
    assert t.game.to_act() == [1]
    t.act(1, "dapai", "z6_")
    kinds = [next(iter(r)) for r in t.records()]
    assert kinds[-2:] == ["dapai", "kaigang"]


def test_kakan_asks_the_others_and_can_be_robbed() -> None:
    # Seat 1 pons m9, later adds the fourth m9; seat 2 waits on m9 (m78) with tanyao? no: with
    # m78 it needs a yaku, and chankan is one.
    hands = [J0, "m99p2468s2468z455", "m78p234p567s234z11", J3]
    t = table("m9 z6 z6 z6 m9", hands=hands)
    t.act(0, "dapai", "m9_")
    t.act(1, "fulou", "m999-")
    t.pass_all()
    t.discard(1, "z4")
    t.discard(2, "z6_")
    t.discard(3, "z6_")
    t.discard(0, "z6_")
    assert t.can(1, "gang", "m999-9")
    t.act(1, "gang", "m999-9")
    assert t.game.to_act() == [0, 2, 3]
    assert t.can(2, "hule")
    t.act(2, "hule")
    t.pass_all()
    hule = t.records("hule")[0]["hule"]
    assert hule["l"] == 2 and hule["baojia"] == 1
    assert "槍槓" in [h["name"] for h in hule["hupai"]]


def test_rejections_leave_the_table_unchanged() -> None:
    t = table("z7 m2")
    before = (t.game.view(None, reveal_all=True), t.game.to_act(), t.legal(0))
    for seat, action, params in [(0, "dapai", ["m9"]), (1, "dapai", ["z7_"]), (0, "hule", []),
                                 (0, "fulou", ["m1-23"]), (0, "dance", []), (0, "dapai", "z7_"),
                                 (0, "dapai", ["z7_", "x"]), (0, "pass", ["x"]), (0, "kaiju", [])]:
        with pytest.raises(Rejection):
            t.game.apply(seat, action, params)
    assert (t.game.view(None, reveal_all=True), t.game.to_act(), t.legal(0)) == before


@pytest.mark.parametrize("ippatsu", [True, False])
def test_ippatsu(ippatsu: bool) -> None:
    t = table("z7 z6 z5 z5 z4 m2", **{"一発あり": ippatsu})
    t.discard(0, "z7_")
    t.discard(1, "z6_*")
    t.discard(2, "z5_")
    t.discard(3, "z5_")
    t.discard(0, "z4_")
    t.act(1, "hule")
    names = [h["name"] for h in t.records("hule")[0]["hule"]["hupai"]]
    assert ("一発" in names) is ippatsu


def test_a_call_ends_ippatsu() -> None:
    t = table("z7 z6 z5 z4 m3 z7 z7 m2", hands=[J0, H1, "m33p1699s1699z357", J3])
    t.discard(0, "z7_")
    t.discard(1, "z6_*")
    t.discard(2, "z5_")
    t.discard(3, "z4_")
    t.act(0, "dapai", "m3_")
    t.act(2, "fulou", "m333=")  # seat 2 pons: seat 1's ippatsu is gone
    t.pass_all()
    t.discard(2, "z7")
    t.discard(3, "z7_")
    t.discard(0, "z7_")
    t.act(1, "hule")
    names = [h["name"] for h in t.records("hule")[0]["hule"]["hupai"]]
    assert "ダブル立直" in names and "一発" not in names


def test_no_kan_dora_without_the_rule() -> None:
    t = table("z7", hands=["m1111p159s159z123", "m999p2468s2468z45", J2B, J3], gangzimo="z6",
              **{"カンドラあり": False})
    t.act(0, "gang", "m1111")
    kinds = [next(iter(r)) for r in t.records()]
    assert kinds[-2:] == ["gang", "gangzimo"] and "kaigang" not in kinds
    assert len(t.game.view(0)["baopai"]) == 1
