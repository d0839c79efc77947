"""Property tests: random valid hands round-trip through their string form; legal moves keep a
hand valid; random complete hands are complete for xiangting, tingpai, hule_mianzi and hule."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from games.riichi.engine.hule import hule, hule_mianzi, hule_param
from games.riichi.engine.rule import rule
from games.riichi.engine.shan import shan_pai
from games.riichi.engine.shoupai import Shoupai
from games.riichi.engine.tile import valid_mianzi
from games.riichi.engine.xiangting import tingpai, xiangting

HONGPAI = [{"m": 1, "p": 1, "s": 1}, {"m": 0, "p": 0, "s": 0}, {"m": 2, "p": 3, "s": 4}]
MARKS = "+=-"
# The hands are built from a seeded random.Random: Hypothesis varies (and shrinks) the seed, and a
# wall shuffle drawn value by value would be far too large an input for it.
SEEDS = st.integers(0, 2**32 - 1)


def kind(p: str) -> str:
    return p[0] + ("5" if p[1] == "0" else p[1])


class Wall:
    """A shuffled set of 136 tiles to take hands and melds from (so no tile appears 5 times)."""

    def __init__(self, rnd: random.Random, hongpai: dict[str, int]) -> None:
        self.rnd = rnd
        self.tiles = shan_pai(rule(赤牌=hongpai))
        rnd.shuffle(self.tiles)

    def take(self, k: str, n: int = 1) -> list[str] | None:
        found = [i for i, p in enumerate(self.tiles) if kind(p) == k][:n]
        if len(found) < n:
            return None
        return [self.tiles.pop(i) for i in reversed(found)]

    def draw(self) -> str:
        return self.tiles.pop()

    def set_(self, open_: bool) -> tuple[list[str], str | None] | None:
        """A run or a triplet: (concealed tiles, None) or ([], meld string)."""
        rnd = self.rnd
        s = rnd.choice("mpsz")
        n = rnd.randint(1, 7)
        if s != "z" and rnd.random() < 0.5:
            tiles = []
            for i in range(3):
                got = self.take(f"{s}{n + i}")
                if got is None:
                    self.tiles.extend(tiles)
                    return None
                tiles += got
            if not open_:
                return tiles, None
            called = rnd.randrange(3)
            meld = s + "".join(p[1] + ("-" if i == called else "") for i, p in enumerate(tiles))
            return [], valid_mianzi(meld)
        kan = open_ and rnd.random() < 0.4
        tiles = self.take(f"{s}{n}", 4 if kan else 3)
        if tiles is None:
            return None
        if not open_:
            return tiles, None
        d = "".join(p[1] for p in tiles)
        mark = rnd.choice(MARKS)
        if not kan:
            meld = s + d + mark
        else:
            meld = rnd.choice([s + d, s + d + mark, s + d[:3] + mark + d[3]])  # ankan, daiminkan, kakan
        assert valid_mianzi(meld)
        return [], valid_mianzi(meld)


@st.composite
def hands(draw: Any) -> Shoupai:
    """Any hand a game can hold: 0-4 melds, waiting (13), drawn (14) or just called, riichi or
    not, some tiles possibly face down."""
    rnd = random.Random(draw(SEEDS))
    wall = Wall(rnd, draw(st.sampled_from(HONGPAI)))
    n_fulou = draw(st.integers(0, 4))
    state = draw(st.sampled_from(["waiting", "drawn", "called"]))
    melds: list[str] = []
    while len(melds) < n_fulou:
        made = wall.set_(open_=True)
        if made and made[1]:
            melds.append(made[1])
    if state == "called" and (not melds or sum(c.isdigit() for c in melds[-1]) != 3):
        state = "drawn"  # only a chi or pon leaves the hand to discard
    n = 13 - 3 * n_fulou + (1 if state == "called" else 0)
    concealed = [wall.draw() for _ in range(n)]
    if draw(st.booleans()) and concealed:
        for i in rnd.sample(range(len(concealed)), rnd.randint(1, len(concealed))):
            concealed[i] = "_"
    sp = Shoupai(concealed)
    sp._fulou = melds
    if state == "drawn":
        sp.zimo(wall.draw() if rnd.random() < 0.9 else "_")
    elif state == "called":
        sp._zimo = melds[-1]
    sp._lizhi = draw(st.booleans())
    return sp


@settings(max_examples=300, deadline=None)
@given(hands())
def test_random_hands_round_trip(sp: Shoupai) -> None:
    paistr = str(sp)
    parsed = Shoupai.from_string(paistr)
    assert parsed == sp
    assert str(parsed) == paistr
    assert sp.clone() == sp


@settings(max_examples=150, deadline=None)
@given(hands(), st.data())
def test_legal_discards_keep_the_hand_valid(sp: Shoupai, data: Any) -> None:
    dapai = sp.get_dapai()
    if dapai is None:
        return
    n_concealed = sum(sp.bingpai[s][n] for s in "mpsz" for n in range(1, 10 if s != "z" else 8))
    n_concealed += sp.bingpai["_"]
    for p in data.draw(st.lists(st.sampled_from(dapai), min_size=1, max_size=3)) if dapai else []:
        after = sp.clone().dapai(p)
        assert after.zimo_pai is None
        left = sum(after.bingpai[s][n] for s in "mpsz" for n in range(1, 10 if s != "z" else 8))
        assert left + after.bingpai["_"] == n_concealed - 1 == 13 - 3 * len(after.fulou_mianzi)
        assert Shoupai.from_string(str(after)) == after


@st.composite
def complete_hands(draw: Any) -> tuple[Shoupai, str]:
    """A complete hand (4 sets + a pair, some of the sets melds) and its winning tile."""
    rnd = random.Random(draw(SEEDS))
    wall = Wall(rnd, draw(st.sampled_from(HONGPAI)))
    concealed: list[str] = []
    melds: list[str] = []
    n_open = draw(st.integers(0, 4))
    while len(melds) + len(concealed) // 3 < 4:
        made = wall.set_(open_=len(melds) < n_open)
        if made:
            concealed += made[0]
            if made[1]:
                melds.append(made[1])
    pair = None
    while pair is None:
        pair = wall.take(rnd.choice("mpsz") + str(rnd.randint(1, 7)), 2)
    concealed += pair
    win = rnd.choice(concealed)
    concealed.remove(win)
    sp = Shoupai(concealed)
    sp._fulou = melds
    return sp, win


@settings(max_examples=150, deadline=None)
@given(complete_hands(), st.sampled_from(MARKS), st.booleans())
def test_complete_hands_are_complete(hand: tuple[Shoupai, str], mark: str, tsumo: bool) -> None:
    waiting, win = hand
    assert xiangting(waiting) == 0
    assert kind(win) in (tingpai(waiting) or [])
    assert hule_mianzi(waiting, win + mark)
    full = waiting.clone().zimo(win)
    assert xiangting(full) == -1
    result = hule(full, None, hule_param()) if tsumo else hule(waiting, win + mark, hule_param())
    assert result is not None
    if "hupai" in result:
        assert result["defen"] > 0 and sum(result["fenpei"]) == 0
