"""The wall (Shan): draws, kan dora and ura dora per カンドラあり / 裏ドラあり / カン裏あり; the river."""

from __future__ import annotations

import random

import pytest

from games.riichi.engine.he import He
from games.riichi.engine.rule import rule
from games.riichi.engine.shan import Shan, shan_pai


def wall() -> list[str]:
    return shan_pai(rule())  # unshuffled: m1 m1 m1 m1 m2 ... so positions are easy to read


def test_draws_and_indicators() -> None:
    pai = wall()
    shan = Shan(rule(), pai)
    assert shan.paishu == 122
    assert shan.zimo() == pai[-1]
    assert shan.paishu == 121
    assert shan.baopai == [pai[4]]
    assert shan.fubaopai is None  # hidden until the hand ends
    shan.close()
    assert shan.fubaopai == [pai[9]]
    with pytest.raises(ValueError):
        shan.zimo()


def test_kan_turns_new_indicators() -> None:
    pai = wall()
    shan = Shan(rule(), pai)
    assert shan.gangzimo() == pai[0]  # replacement tiles come from the dead wall's end
    with pytest.raises(ValueError):
        shan.zimo()  # the kan dora must be turned first
    shan.kaigang()
    assert shan.baopai == [pai[4], pai[5]]
    shan.close()
    assert shan.fubaopai == [pai[9], pai[10]]


def test_カンドラあり_off() -> None:
    pai = wall()
    shan = Shan(rule(カンドラあり=False), pai)
    for _ in range(4):
        shan.gangzimo()
    assert shan.baopai == [pai[4]]
    with pytest.raises(ValueError):
        shan.kaigang()
    with pytest.raises(ValueError):
        shan.gangzimo()  # at most four kans


def test_カン裏あり_off() -> None:
    pai = wall()
    shan = Shan(rule(カン裏あり=False), pai)
    shan.gangzimo()
    shan.kaigang()
    shan.close()
    assert shan.baopai == [pai[4], pai[5]]
    assert shan.fubaopai == [pai[9]]


def test_裏ドラあり_off() -> None:
    shan = Shan(rule(裏ドラあり=False), wall())
    shan.gangzimo()
    shan.kaigang()
    shan.close()
    assert shan.fubaopai is None


def test_draws_stop_with_14_tiles_left() -> None:
    shan = Shan(rule(), wall())
    for _ in range(122):
        shan.zimo()
    assert shan.paishu == 0
    with pytest.raises(ValueError):
        shan.zimo()
    with pytest.raises(ValueError):
        shan.gangzimo()


def test_shuffled_is_reproducible() -> None:
    first = Shan.shuffled(rule(), random.Random(7))
    second = Shan.shuffled(rule(), random.Random(7))
    assert first._pai == second._pai
    assert sorted(first._pai) == sorted(wall())
    with pytest.raises(ValueError):
        Shan(rule(), wall()[:-1])


def test_he_records_discards_and_calls() -> None:
    he = He()
    he.dapai("m1").dapai("p0_").dapai("z3*")
    assert he.pai == ("m1", "p0_", "z3*")
    he.fulou("z333=")
    assert he.pai == ("m1", "p0_", "z3*=")
    assert he.find("p5") and he.find("p0") and he.find("z3") and not he.find("m2")
    with pytest.raises(ValueError):
        he.fulou("m1-23")  # not the last discard
    with pytest.raises(ValueError):
        he.fulou("m1111")  # a concealed kan takes nothing from a river
    with pytest.raises(ValueError):
        He().dapai("z8")
