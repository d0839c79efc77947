"""The flow's shortcuts give exactly Majiang's answers.

- ``waits.is_tenpai`` is ``xiangting(h) == 0`` (``waits.regular_tenpai``, the regular form's) and
  ``waits.tenpai_waits`` is ``tingpai(h)`` for a tenpai hand;
- one tile completes a 13-tile hand only if it is tenpai, and then exactly its waits (which is
  how ``Game`` answers Majiang's ``xiangting(hand + discard) == -1`` furiten check);
- ``Game.dapai_allowed(p)`` is ``p in get_dapai()``.
"""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from games.riichi.engine import allow
from games.riichi.engine.game import Game
from games.riichi.engine.rule import rule
from games.riichi.engine.shan import shan_pai
from games.riichi.engine.shoupai import Shoupai
from games.riichi.engine.waits import is_tenpai, regular_tenpai, suit_mask, tenpai_waits
from games.riichi.engine.xiangting import tingpai, xiangting, xiangting_yiban

KINDS = [s + str(n) for s in "mps" for n in range(1, 10)] + ["z" + str(n) for n in range(1, 8)]
MELDS = ["z111+", "z222=", "z333-", "m1111", "p5550+"]


def near_complete(rng: random.Random) -> Shoupai | None:
    """A hand a tile or two from complete (regular, seven pairs or kokushi), maybe with melds."""
    form = rng.random()
    if form < 0.1:
        tiles = [k for k in rng.sample(KINDS, 7) for _ in range(2)]
        melds = []
    elif form < 0.15:
        yaojiu = [k for k in KINDS if k[0] == "z" or k[1] in "19"]
        tiles = yaojiu + [rng.choice(yaojiu)]
        melds = []
    else:
        n_melds = rng.choice([0, 0, 0, 1, 2, 3, 4])
        tiles = []
        for _ in range(4 - n_melds):
            if rng.random() < 0.6:
                s, a = rng.choice("mps"), rng.randint(1, 7)
                tiles += [s + str(a), s + str(a + 1), s + str(a + 2)]
            else:
                tiles += [rng.choice(KINDS)] * 3
        tiles += [rng.choice(KINDS)] * 2
        melds = rng.sample(MELDS, n_melds)
    tiles.remove(rng.choice(tiles))
    if rng.random() < 0.5:
        tiles.remove(rng.choice(tiles))
        tiles.append(rng.choice(KINDS))
    if max(Counter(tiles).values()) > 4:
        return None
    sp = Shoupai(tiles)
    sp._fulou = melds
    return sp


def random_hand(rng: random.Random) -> Shoupai:
    pai = shan_pai(rule())
    suits = rng.sample("mpsz", rng.randint(1, 4))
    pai = [p for p in pai if p[0] in suits]
    rng.shuffle(pai)
    n_melds = rng.choice([0, 0, 1, 2])
    sp = Shoupai(pai[: 13 - 3 * n_melds])
    sp._fulou = ["z555=", "z666-"][:n_melds] if "z" not in suits else []
    if sp._fulou == [] and n_melds:
        sp = Shoupai(pai[:13])
    return sp


def check(sp: Shoupai) -> None:
    tenpai = xiangting(sp) == 0
    assert is_tenpai(sp) is tenpai, str(sp)
    masks = [suit_mask(sp._bingpai, i) for i in range(4)]
    assert regular_tenpai(masks, sp._bingpai) is (xiangting_yiban(sp) == 0), str(sp)
    if tenpai:
        assert tenpai_waits(sp) == tingpai(sp), str(sp)
    waits = tenpai_waits(sp) if tenpai else []
    for kind in KINDS:
        s, n = kind[0], int(kind[1])
        if sp._bingpai[s][n] >= 4:
            continue
        completes = xiangting(sp.clone().zimo(kind, check=False)) == -1
        assert completes is (kind in waits), (str(sp), kind)


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_shortcuts_agree_with_shanten(seed: int) -> None:
    rng = random.Random(seed)
    checked = 0
    while checked < 60:
        sp = near_complete(rng) if checked % 2 else random_hand(rng)
        if sp is None:
            continue
        check(sp)
        checked += 1


def test_a_hand_holding_all_four_of_its_wait() -> None:
    # Shanten 0 but no wait: the only completing tile would be a fifth copy.
    sp = Shoupai.from_string("z7777,z111+,z222=,z333-")
    assert xiangting(sp) == 0 and is_tenpai(sp) and tenpai_waits(sp) == tingpai(sp) == []
    sp = Shoupai.from_string("m1111p123s123z556")
    check(sp)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32 - 1), st.sampled_from([0, 1, 2]))
def test_dapai_allowed_is_get_dapai(seed: int, level: int) -> None:
    r = rule({"赤牌": {"m": 2, "p": 1, "s": 3}, "喰い替え許可レベル": level})
    rng = random.Random(seed)
    game = Game(r, shan=lambda g: None)  # type: ignore[arg-type,return-value]
    game.lunban = 0
    candidates = [s + str(n) + suffix for s in "mpsz_" for n in range(10) for suffix in ("", "_", "*")]
    candidates += ["", "m", "m55", "z8"]
    for _ in range(100):
        pai = shan_pai(r)
        if rng.random() < 0.7:
            pai = [p for p in pai if p[0] == "m" or p[1] in "05"]
        rng.shuffle(pai)
        sp = Shoupai(pai[:13])
        sp.zimo(pai[13])
        if rng.random() < 0.2:
            sp._lizhi = True
        game.shoupai = [sp]
        legal = set(allow.get_dapai(r, sp) or [])
        for p in candidates:
            assert game.dapai_allowed(p) is (p in legal), (str(sp), p)
