"""Shoupai: parsing and formatting, the moves, and what the hand may discard or call."""

from __future__ import annotations

import pytest

from games.riichi.engine.shoupai import Shoupai, ShoupaiError


def hand(paistr: str) -> Shoupai:
    return Shoupai.from_string(paistr)


# -- string form -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "paistr",
    [
        "m123p406s789z1122",  # 13 tiles
        "m123p406s789z1122z2",  # 14: the drawn tile last
        "m123p406s789z1122*",  # riichi
        "m123p406s789z1122z2*",
        "m1123p456s789,z111+",  # a meld
        "m1123p456s789m1,z111+",
        "p456s789z11223,m1-23,",  # just called: must discard
        "m055p123s789z1122",  # red fives before the plain ones
        "p456s789z1122,m1111",  # concealed kan
        "p456s789z1122,m111=1",  # added kan
        "_____________",  # a face-down hand
        "m123___________",
        "m12___________m3",
        "",
    ],
)
def test_normal_form_round_trips(paistr: str) -> None:
    assert str(hand(paistr)) == paistr


@pytest.mark.parametrize(
    ("given", "normal"),
    [
        ("m123p406s789z1122z2", "m123p406s789z1122z2"),
        ("z2211s987p604m321", "m123p406s789z1122"),  # sorted by suit and number, red five as a 5
        ("m505p123s789z1122", "m055p123s789z1122"),
        ("m123p456s789z1122", "m123p456s789z1122"),
        ("m123p456s789z11223", "m123p456s789z1122z3"),  # 14 tiles: the last is the draw
        ("m123p456s789z0891", "m123p456s789z1"),  # z0, z8, z9 are skipped
        ("m1234567891234567", "m1122334456789m5"),  # at most 14 concealed tiles, the 14th drawn
        ("m123p456s789z1,m3-12", "m123p456s789z1,m123-"),  # melds normalised
        ("m123p456s789z1,m1+23", "m123p456s789z1"),  # invalid melds dropped
        ("m123,,m1-23", "m123"),  # an empty meld ends the list (just-called marker)
    ],
)
def test_parse_is_lenient_like_majiang(given: str, normal: str) -> None:
    assert str(hand(given)) == normal


def test_parse_state() -> None:
    sp = hand("m123p406s789z1z2*,m1-23")  # 11 concealed + 3 per meld = 14: z2 was drawn
    assert sp.bingpai["p"][5] == 1 and sp.bingpai["p"][0] == 1  # the red five counts as a five
    assert sp.bingpai["z"][1:3] == [1, 1]
    assert sp.fulou_mianzi == ("m1-23",)
    assert sp.zimo_pai == "z2"
    assert sp.lizhi
    assert not sp.menqian
    # Beyond 14 - 3 x melds concealed tiles the rest is ignored.
    assert str(hand("m123p406s789z1122,m1-23")) == "m123p406s789z1z1,m1-23"
    drawn = hand("m123p406s789z1122")
    assert drawn.zimo_pai is None
    assert hand("m123p406s789z1122z2").zimo_pai == "z2"
    assert hand("p456s789z11223,m1-23,").zimo_pai == "m1-23"
    assert hand("p456s789z1122,m1111").menqian  # a concealed kan keeps the hand closed


def test_a_fifth_copy_is_refused() -> None:
    with pytest.raises(ShoupaiError):
        hand("m11111")
    with pytest.raises(ShoupaiError):
        Shoupai(["z1", "z1", "z1", "z1", "z1"])
    with pytest.raises(ShoupaiError):
        Shoupai(["m1", "x1"])


def test_clone_is_independent() -> None:
    sp = hand("m123p456s789z1,m1-23")
    copy = sp.clone()
    assert copy == sp and copy is not sp
    copy.zimo("z2").dapai("z1")
    assert str(copy) == "m123p456s789z2,m1-23"
    assert str(sp) == "m123p456s789z1,m1-23"


# -- moves -------------------------------------------------------------------------------------


def test_zimo_and_dapai() -> None:
    sp = hand("m123p456s789z1122")
    assert str(sp.zimo("z2")) == "m123p456s789z1122z2"
    with pytest.raises(ShoupaiError):
        sp.zimo("z3")  # already drawn
    assert str(sp.dapai("z1")) == "m123p456s789z1222"
    with pytest.raises(ShoupaiError):
        sp.dapai("z2")  # must draw first
    sp.zimo("m0")
    assert str(sp) == "m123p456s789z1222m0"
    assert str(sp.dapai("m0_*")) == "m123p456s789z1222*"  # tsumogiri with riichi
    assert sp.lizhi
    with pytest.raises(ShoupaiError):
        sp.zimo("m1", check=False).dapai("p9")  # not in hand
    assert str(sp) == "m123p456s789z1222m1*"  # the failed discard changed nothing


def test_face_down_tiles_are_used_for_unknown_discards() -> None:
    sp = hand("_____________")
    sp.zimo("_")
    assert str(sp) == "______________"
    sp.dapai("m1")  # another player's discard: taken from the face-down tiles
    assert str(sp) == "_____________"
    sp.fulou("m1-23")
    assert str(sp) == "___________,m1-23,"


def test_fulou_chi_pon_daiminkan() -> None:
    sp = hand("m23p456s789z11223")
    assert str(sp.fulou("m1-23")) == "p456s789z11223,m1-23,"
    sp = hand("m123p456s789z1113")
    assert str(sp.fulou("z111=")) == "m123p456s789z13,z111=,"
    sp = hand("m123p456s789z1113")
    assert str(sp.fulou("z1111+")) == "m123p456s789z3,z1111+"  # a kan draws first: no comma
    assert sp.zimo_pai is None


@pytest.mark.parametrize("meld", ["m4-56", "m1-24", "z1111", "z111=1", "m3-12"])
def test_fulou_refuses(meld: str) -> None:
    sp = hand("m23p456s789z11223")
    before = str(sp)
    with pytest.raises(ShoupaiError):
        sp.fulou(meld)  # missing tiles, invalid, a concealed/added kan, not in normal form
    assert str(sp) == before


def test_fulou_needs_a_13_tile_hand() -> None:
    with pytest.raises(ShoupaiError):
        hand("m23p456s789z11223z4").fulou("m1-23")


def test_gang_ankan_and_kakan() -> None:
    sp = hand("m111p456s789z1122m1")
    assert str(sp.gang("m1111")) == "p456s789z1122,m1111"
    assert sp.zimo_pai is None and sp.menqian
    sp = hand("p456s789z1122m1,m111=")
    assert str(sp.gang("m111=1")) == "p456s789z1122,m111=1"
    sp = hand("m055p456s78z11m5,z2222")
    assert str(sp.gang("m5550")) == "p456s78z11,z2222,m5550"


def test_gang_refuses() -> None:
    with pytest.raises(ShoupaiError):
        hand("m111p456s789z1122").gang("m1111")  # not after a draw
    with pytest.raises(ShoupaiError):
        hand("p456s789z11223,m1-23,").gang("z2222")  # not right after a call
    with pytest.raises(ShoupaiError):
        hand("p456s789z1122m1,m111=").gang("m222=2")  # no such pon
    with pytest.raises(ShoupaiError):
        hand("m111p456s789z1122m1").gang("m1-23")  # not a kan
    sp = hand("m11p456s789z11223m1")
    with pytest.raises(ShoupaiError):
        sp.gang("m1111")  # only three
    assert str(sp) == "m11p456s789z11223m1"


# -- get_dapai: legal discards and kuikae ------------------------------------------------------


def test_get_dapai_after_a_draw() -> None:
    # Each kind once in m/p/s/z order, red and plain fives apart, the drawn tile last as
    # tsumogiri ('z2_'); z2 also appears plain because two more are in hand.
    assert hand("m123p406s789z1122z2").get_dapai() == [
        "m1", "m2", "m3", "p4", "p0", "p6", "s7", "s8", "s9", "z1", "z2", "z2_",
    ]  # fmt: skip
    # The only copy of the drawn tile is offered only as tsumogiri.
    assert hand("m123p406s789z1122z3").get_dapai()[-2:] == ["z2", "z3_"]
    # Red and plain fives.
    assert hand("m055p123s789z1122m5").get_dapai()[:3] == ["m0", "m5", "p1"]
    only_red_drawn = hand("m556p123s789z1122m0").get_dapai()
    assert only_red_drawn[:2] == ["m5", "m6"] and only_red_drawn[-1] == "m0_"
    # Two red fives (赤牌 2): the one in hand can go even though a red one was drawn.
    assert hand("m055p123s789z1122m0").get_dapai()[:2] == ["m0", "m5"]


def test_get_dapai_after_riichi_is_tsumogiri_only() -> None:
    assert hand("m123p406s789z1122z2*").get_dapai() == ["z2_"]


def test_get_dapai_needs_a_draw() -> None:
    assert hand("m123p406s789z1122").get_dapai() is None


def test_kuikae_after_chi_on_an_end() -> None:
    # Chi m3-45 (m3 called, lowest): m3 and its suji m6 may not be discarded.
    sp = hand("m3456p456s789z112")
    assert sp.get_chi_mianzi("m3-") == ["m3-45"]
    sp.fulou("m3-45")
    assert str(sp) == "m36p456s789z112,m3-45,"
    assert sp.get_dapai() == ["p4", "p5", "p6", "s7", "s8", "s9", "z1", "z2"]
    assert sp.get_dapai(False) == ["m3", "m6", "p4", "p5", "p6", "s7", "s8", "s9", "z1", "z2"]


def test_kuikae_after_chi_on_the_high_end_and_in_the_middle() -> None:
    assert hand("m2p456s789z112,m345-,").get_dapai()[:1] == ["p4"]  # m5 called high: m5, m2 denied
    assert hand("m25p456s789z11,m345-,").get_dapai() == ["p4", "p5", "p6", "s7", "s8", "s9", "z1"]
    assert hand("m14p456s789z11,m34-5,").get_dapai()[:2] == ["m1", "p4"]  # middle: only m4 denied


def test_kuikae_after_pon_and_red_five() -> None:
    assert hand("m123p456s789z13,z111=,").get_dapai() == [
        "m1", "m2", "m3", "p4", "p5", "p6", "s7", "s8", "s9", "z3",
    ]  # fmt: skip
    # A called red five denies every five of the suit.
    assert hand("m5p456s789z1123,m40-6,").get_dapai()[:1] == ["p4"]


# -- calls on a discard ------------------------------------------------------------------------


def test_get_chi_mianzi() -> None:
    sp = hand("m34067p123s789z11")
    assert sp.get_chi_mianzi("m5-") == ["m345-", "m45-6", "m5-67"]
    assert sp.get_chi_mianzi("m2-") == ["m2-34"]
    # Only a red m5 in hand: the chis use it.
    assert sp.get_chi_mianzi("m6-") == ["m406-", "m06-7"]
    assert sp.get_chi_mianzi("m5+") == []  # chi only from kamicha
    assert sp.get_chi_mianzi("z1-") == []
    with pytest.raises(ShoupaiError):
        sp.get_chi_mianzi("m5")  # no direction
    assert hand("m34067p123s789z11*").get_chi_mianzi("m5-") == []  # riichi
    assert hand("m34067p123s789z11z2").get_chi_mianzi("m5-") is None  # must discard


def test_get_chi_mianzi_with_both_fives() -> None:
    sp = hand("m4055p123s789z123")
    assert sp.get_chi_mianzi("m6-") == ["m406-", "m456-"]
    assert sp.get_chi_mianzi("m3-") == ["m3-40", "m3-45"]


def test_get_chi_mianzi_refuses_a_call_leaving_only_kuikae_tiles() -> None:
    # Three melds, m2 m3 m4 m4 in hand: after chi m1-23 only m4 m4 (the suji of m1) would remain.
    sp = hand("m2344,p1-23,p4-56,s7-89")
    assert sp.get_chi_mianzi("m1-") == []
    assert sp.get_chi_mianzi("m1-", False) == ["m1-23"]


def test_get_peng_mianzi() -> None:
    sp = hand("m055p123s789z1122")
    assert sp.get_peng_mianzi("m5=") == ["m505=", "m555="]
    assert sp.get_peng_mianzi("m0+") == ["m500+", "m550+"]
    assert sp.get_peng_mianzi("z1-") == ["z111-"]
    assert sp.get_peng_mianzi("z3-") == []
    assert hand("m055p123s789z1122*").get_peng_mianzi("z1-") == []
    assert hand("m055p123s789z1122z3").get_peng_mianzi("z1-") is None


def test_get_gang_mianzi_on_a_discard() -> None:
    assert hand("m055p123s789z1113").get_gang_mianzi("z1+") == ["z1111+"]
    assert hand("m055p123s789z1113").get_gang_mianzi("m5-") == ["m5505-"]
    assert hand("m055p123s789z1113").get_gang_mianzi("m0-") == ["m5500-"]
    assert hand("m055p123s789z1123").get_gang_mianzi("z1+") == []
    assert hand("m055p123s789z1113*").get_gang_mianzi("z1+") == []


def test_get_gang_mianzi_after_a_draw() -> None:
    # An ankan of each quad and a kakan for each pon whose fourth tile is in hand.
    sp = hand("m111p0s78z1m1,p555=,z111-")
    assert sp.get_gang_mianzi() == ["m1111", "p555=0", "z111-1"]
    # After riichi: only an ankan of the drawn tile.
    sp = hand("m1112p0556s789z11m1*")
    assert sp.get_gang_mianzi() == ["m1111"]
    assert hand("m1112p0555s789z11m2*").get_gang_mianzi() == []
    assert hand("m1112p0555s789z11m2").get_gang_mianzi() == ["p5550"]
    assert hand("m1112p0555s789z11").get_gang_mianzi() is None
    assert hand("p456s789z11223,m1-23,").get_gang_mianzi() is None
