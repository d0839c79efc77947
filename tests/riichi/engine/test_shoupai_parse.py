"""Differential test: ``Shoupai.from_string`` parses exactly like Majiang's ``fromString``.

``from_string`` counts most hands from memoised suit groups and falls back to a tile-by-tile
parse for the rest (face-down tiles, too many tiles, a fifth copy, subclasses). ``majiang_parse``
below is a line-by-line port of majiang-core 1.4.1's ``Shoupai.fromString`` built on the checked
constructor; both must give the same hand, or both raise ``ShoupaiError``. Strings come from
structured hands (well-formed, with draws, red fives, melds, riichi marks, trailing commas) and
from arbitrary text over the notation's alphabet.
"""

from __future__ import annotations

import random
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.riichi.engine import shoupai as shoupai_module
from games.riichi.engine.shoupai import Shoupai, ShoupaiError

_LEADING_FACE_DOWN = re.compile(r"_*")
_SUITSTR = re.compile(r"[mpsz][0-9]+_*")


def majiang_parse(paistr: str) -> Shoupai:
    # majiang-core lib/shoupai.js fromString, statement by statement.
    fulou = paistr.split(",")
    bingpai = fulou.pop(0)
    qipai = list(_LEADING_FACE_DOWN.match(bingpai).group())
    for suitstr in _SUITSTR.findall(bingpai):
        s = suitstr[0]
        for n in re.findall(r"[0-9]", suitstr):
            if s == "z" and not 1 <= int(n) <= 7:
                continue
            qipai.append(s + n)
        qipai += re.findall("_", suitstr)
    qipai = qipai[: 14 - len([x for x in fulou if x]) * 3]
    zimo = len(qipai) + len(fulou) * 3 == 14 and qipai[-1:] and qipai[-1]
    shoupai = Shoupai(qipai)
    last = None
    for m in fulou:
        if not m:
            shoupai._zimo = last
            break
        m = Shoupai.valid_mianzi(m)
        if m:
            shoupai._fulou.append(m)
            last = m
    shoupai._zimo = shoupai._zimo or zimo or None
    shoupai._lizhi = bingpai[-1:] == "*"
    return shoupai


def parse_both(paistr: str) -> tuple[object, object]:
    def attempt(parse):  # noqa: ANN001, ANN202
        try:
            return parse(paistr)
        except ShoupaiError:
            return ShoupaiError
    return attempt(Shoupai.from_string), attempt(majiang_parse)


MELDS = ["m1-23", "p406-", "s7-89", "z111+", "m555=", "p0555", "s5550-", "z777=7", "m33-3", "p1111", "z888+", "m12+3"]


def structured(rng: random.Random) -> str:
    # A hand-like string: shuffled suit groups, sometimes a separate drawn tile, melds.
    n_melds = rng.choice([0, 0, 0, 1, 1, 2, 3, 4, 5])
    n_tiles = max(0, 14 - 3 * n_melds + rng.choice([-2, -1, -1, 0, 0, 0, 0, 1, 3]))
    tiles = [rng.choice("mpsz") + rng.choice("0123456789" if rng.random() < 0.2 else "1234567") for _ in range(n_tiles)]
    groups: dict[str, str] = {}
    for t in tiles:
        groups[t[0]] = groups.get(t[0], "") + t[1]
    parts = [s + "".join(sorted(d)) for s, d in groups.items()]
    rng.shuffle(parts)
    text = "".join(parts)
    if rng.random() < 0.4:
        text += rng.choice("mpsz") + rng.choice("0123456789")
    if rng.random() < 0.05:
        text = rng.choice("mpsz") + rng.choice(["55550", "1111", "0555", "22222", "00"]) + text  # fifth copies
    if rng.random() < 0.1:
        text = "_" * rng.randint(1, 5) + text
    if rng.random() < 0.1:
        text += rng.choice(["_", "__", "m1_", "_z1"])
    if rng.random() < 0.2:
        text += "*"
    melds = [rng.choice(MELDS) for _ in range(n_melds)]
    if melds and rng.random() < 0.3:
        melds.insert(rng.randint(0, len(melds)), "")
    return ",".join([text, *melds])


@pytest.mark.parametrize("seed", [1, 2])
def test_structured_hands_parse_like_majiang(seed: int) -> None:
    rng = random.Random(seed)
    outcomes = {"hand": 0, "error": 0}
    for _ in range(20_000):
        paistr = structured(rng)
        ours, theirs = parse_both(paistr)
        assert ours == theirs, paistr
        outcomes["error" if ours is ShoupaiError else "hand"] += 1
    # Both kinds of outcome occur, so neither branch is compared vacuously.
    assert outcomes["hand"] > 10_000 and outcomes["error"] > 200, outcomes


@settings(max_examples=3_000, deadline=None)
@given(st.text(alphabet="mpsz0123456789_*,+=-", max_size=40))
def test_any_text_parses_like_majiang(paistr: str) -> None:
    ours, theirs = parse_both(paistr)
    assert ours == theirs


def test_group_memo_is_bounded_and_gives_the_same_hands(monkeypatch: pytest.MonkeyPatch) -> None:
    # With a tiny memo it is emptied all the time; the hands must not change.
    monkeypatch.setattr(shoupai_module, "_GROUPS_MAX", 3)
    monkeypatch.setattr(shoupai_module, "_GROUPS", {})
    rng = random.Random(3)
    for _ in range(3_000):
        paistr = structured(rng)
        ours, theirs = parse_both(paistr)
        assert ours == theirs, paistr
        assert len(shoupai_module._GROUPS) <= 3


def test_long_groups_are_parsed_but_not_memoised(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(shoupai_module, "_GROUPS", {})
    long_group = "m" + "123456789" * 3
    assert Shoupai.from_string(long_group) == majiang_parse(long_group)
    assert Shoupai.from_string("p11" + long_group) == majiang_parse("p11" + long_group)
    assert all(len(key) <= shoupai_module._GROUP_MAX_LEN for key in shoupai_module._GROUPS)


def test_long_melds_are_read_but_not_memoised(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(shoupai_module, "_MIANZI_CACHE", {})
    paistr = "m123p456s789z1," + "m1-23" * 20 + ",p555="
    assert Shoupai.from_string(paistr) == majiang_parse(paistr)
    assert list(shoupai_module._MIANZI_CACHE) == ["p555="]


def test_repeated_parses_are_independent_hands() -> None:
    # The memo holds counts, never a hand's lists: changing one parsed hand leaves the next alone.
    first = Shoupai.from_string("m123p456s789z1122")
    first.zimo("m4")
    second = Shoupai.from_string("m123p456s789z1122")
    assert str(second) == "m123p456s789z1122"
    assert second.bingpai["m"] is not first.bingpai["m"]
