"""Tile and meld notation: valid_pai, valid_mianzi normal forms, zhenbaopai."""

from __future__ import annotations

import pytest

from games.riichi.engine.tile import TILE_KINDS, valid_mianzi, valid_pai, zhenbaopai


@pytest.mark.parametrize("p", ["m1", "p0", "s9", "z1", "z7", "m1_", "m1*", "m1_*", "m1-", "z3_*+", "p0="])
def test_valid_pai(p: str) -> None:
    assert valid_pai(p) == p


@pytest.mark.parametrize("p", ["", "m", "z0", "z8", "x1", "m10", "m1**", "m1+-", "m1*_", "m1\n", "m١"])
def test_invalid_pai(p: str) -> None:
    assert valid_pai(p) is None


@pytest.mark.parametrize(
    ("m", "normal"),
    [
        ("m1-23", "m1-23"),  # chi: digits ascending, the called one marked
        ("m3-12", "m123-"),
        ("m21-3", "m1-23"),  # the mark belongs to the digit before it
        ("m0-46", "m40-6"),  # the red five keeps its place as 0
        ("p406-", "p406-"),
        ("z111+", "z111+"),  # pon
        ("m055=", "m505="),  # a red five in a pon is written 50
        ("m550=", "m550="),  # the called tile was the red one
        ("s555=5", "s555=5"),  # kakan: pon + the added tile
        ("s505+5", "s505+5"),
        ("s055+5", "s505+5"),
        ("m5550", "m5550"),  # ankan: red fives last
        ("m0555", "m5550"),
        ("m0555+", "m5505+"),  # daiminkan: the called tile stays last
        ("m5550+", "m5550+"),
        ("z7777", "z7777"),
    ],
)
def test_valid_mianzi_normal_form(m: str, normal: str) -> None:
    assert valid_mianzi(m) == normal
    assert valid_mianzi(normal) == normal


@pytest.mark.parametrize(
    "m",
    ["m123", "m1+23", "m1-24", "m12-34", "z1-23", "z888=", "z000=", "m11-", "m1111-1", "m555", "p12", "s5555=5", ""],
)
def test_invalid_mianzi(m: str) -> None:
    assert valid_mianzi(m) is None


def test_zhenbaopai_cycles() -> None:
    # Numbers wrap 9 -> 1, winds E->S->W->N->E, dragons W->G->R->W; a red five indicates a six.
    expected = {}
    for s in "mps":
        for n in range(1, 10):
            expected[s + str(n)] = s + str(n % 9 + 1)
        expected[s + "0"] = s + "6"
    expected.update({"z1": "z2", "z2": "z3", "z3": "z4", "z4": "z1", "z5": "z6", "z6": "z7", "z7": "z5"})
    assert {p: zhenbaopai(p) for p in expected} == expected
    with pytest.raises(ValueError):
        zhenbaopai("z8")


def test_tile_kinds() -> None:
    assert len(TILE_KINDS) == 34 and TILE_KINDS[0] == "m1" and TILE_KINDS[-1] == "z7"
