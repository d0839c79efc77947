"""Fast waits of a tenpai hand, for the game flow.

``xiangting.tingpai`` asks the shanten number of the hand with each of the 34 kinds added, which
is what the game flow would otherwise do after every discard of a tenpai hand. For a hand already
known to be tenpai (shanten 0) the waits are the kinds that complete it, and completeness is a
much cheaper question: each suit on its own must split into sets, one suit into sets and a pair
(answers cached per suit), or the hand is seven distinct pairs or thirteen orphans. ``tenpai_waits``
gives exactly ``tingpai``'s answer for such a hand (same kinds, same order, and Majiang's rule that
a kind held four times is not a wait); tests compare the two on random hands.
"""

from __future__ import annotations

from typing import Any

from games.riichi.engine.shoupai import Shoupai
from games.riichi.engine.xiangting import xiangting_guoshi, xiangting_qidui

_SETS = 1  # the suit splits into sets only
_PAIR = 2  # the suit splits into sets and one pair

_cache: dict[tuple[int, ...], int] = {}


def _sets_only(c: list[int], i: int) -> bool:
    n = len(c)
    while i < n and c[i] == 0:
        i += 1
    if i == n:
        return True
    if c[i] >= 3:
        c[i] -= 3
        ok = _sets_only(c, i)
        c[i] += 3
        if ok:
            return True
    if i + 2 < n and c[i + 1] and c[i + 2]:
        c[i] -= 1
        c[i + 1] -= 1
        c[i + 2] -= 1
        ok = _sets_only(c, i)
        c[i] += 1
        c[i + 1] += 1
        c[i + 2] += 1
        return ok
    return False


def _suit_mask(counts: tuple[int, ...]) -> int:
    mask = _cache.get(counts)
    if mask is None:
        total = sum(counts)
        c = list(counts)
        mask = 0
        if total % 3 == 0:
            if _sets_only(c, 0):
                mask = _SETS
        elif total % 3 == 2:
            for i in range(9):
                if c[i] >= 2:
                    c[i] -= 2
                    ok = _sets_only(c, 0)
                    c[i] += 2
                    if ok:
                        mask = _PAIR
                        break
        if len(_cache) > 200_000:
            _cache.clear()
        _cache[counts] = mask
    return mask


def _honour_mask(z: list[int]) -> int:
    # Each honour on its own: a multiple of three is sets, two more is a pair (counts above four
    # arise only when trying a fifth copy, which Majiang's shanten number allows).
    pairs = 0
    for n in range(1, 8):
        r = z[n] % 3
        if r == 2:
            pairs += 1
        elif r == 1:
            return 0
    return _SETS if pairs == 0 else _PAIR if pairs == 1 else 0


_SUIT_INDEX = {"m": 0, "p": 1, "s": 2, "z": 3}
_YAOJIU = (("m", 1), ("m", 9), ("p", 1), ("p", 9), ("s", 1), ("s", 9),
           ("z", 1), ("z", 2), ("z", 3), ("z", 4), ("z", 5), ("z", 6), ("z", 7))


def _regular(masks: list[int]) -> bool:
    pair = 0
    for mask in masks:
        if mask == 0:
            return False
        if mask == _PAIR:
            pair += 1
    return pair == 1


def _qidui(b: dict) -> bool:
    kinds = 0
    for s in ("m", "p", "s", "z"):
        bingpai = b[s]
        for n in range(1, len(bingpai)):
            k = bingpai[n]
            if k:
                if k != 2:
                    return False
                kinds += 1
    return kinds == 7


def _guoshi(b: dict) -> bool:
    pair = False
    for s, n in _YAOJIU:
        k = b[s][n]
        if k == 0:
            return False
        if k >= 2:
            pair = True
    return pair


def tenpai_waits(shoupai: Shoupai) -> list[str]:
    """The waits of a 13-tile hand (no drawn tile) whose shanten number is 0: the kinds that
    complete it, in m/p/s/z order, never a kind the hand holds four of."""
    b = shoupai._bingpai
    masks = [_suit_mask(tuple(b["m"][1:])), _suit_mask(tuple(b["p"][1:])), _suit_mask(tuple(b["s"][1:])),
             _honour_mask(b["z"])]
    # A regular completion adds to a suit that fails now (if exactly one does), or else to one of
    # the two suits holding a pair; every other suit must already split.
    bad = [i for i in range(4) if masks[i] == 0]
    if len(bad) == 1:
        targets = bad
    elif not bad:
        targets = [i for i in range(4) if masks[i] == _PAIR]
    else:
        targets = []
    found: set[str] = set()
    for si in targets:
        s = "mpsz"[si]
        bingpai = b[s]
        saved = masks[si]
        for n in range(1, len(bingpai)):
            if bingpai[n] >= 4:
                continue
            bingpai[n] += 1
            masks[si] = _suit_mask(tuple(bingpai[1:])) if si < 3 else _honour_mask(bingpai)
            bingpai[n] -= 1
            if _regular(masks):
                found.add(s + str(n))
        masks[si] = saved
    if not shoupai._fulou:
        if xiangting_qidui(shoupai) == 0:
            # Six pairs and a single: the single's kind (a pair of a kind held four times counts
            # once, so check each candidate as tingpai would).
            for s in ("m", "p", "s", "z"):
                bingpai = b[s]
                for n in range(1, len(bingpai)):
                    if bingpai[n] == 1:
                        bingpai[n] += 1
                        if _qidui(b):
                            found.add(s + str(n))
                        bingpai[n] -= 1
        if xiangting_guoshi(shoupai) == 0:
            for s, n in _YAOJIU:
                if b[s][n] < 4:
                    b[s][n] += 1
                    if _guoshi(b):
                        found.add(s + str(n))
                    b[s][n] -= 1
    return [p for p in _ORDER if p in found] if found else []


_ORDER = tuple(s + str(n) for s in "mps" for n in range(1, 10)) + tuple("z" + str(n) for n in range(1, 8))


_more: dict[tuple[int, ...], int] = {}


def _one_more(bingpai: list[int], honours: bool) -> int:
    # The masks a suit (or the honours) can reach with one more tile of any of its kinds, a fifth
    # copy included (Majiang's shanten number allows it), OR-ed: computed once per distinct suit.
    key = tuple(bingpai[1:])
    got = _more.get(key)
    if got is None:
        counts = [0, *key] if honours else list(key)
        got = 0
        for n in range(len(key)):
            counts[n + 1 if honours else n] += 1
            got |= _honour_mask(counts) if honours else _suit_mask(tuple(counts))
            counts[n + 1 if honours else n] -= 1
        if len(_more) > 200_000:
            _more.clear()
        _more[key] = got
    return got


def suit_mask(b: dict[str, Any], i: int) -> int:
    """Whether suit ``i`` (0-2 m/p/s, 3 honours) of the counts ``b`` splits into sets (1), sets and
    a pair (2), or neither (0)."""
    return _suit_mask(tuple(b["mps"[i]][1:])) if i < 3 else _honour_mask(b["z"])


def regular_tenpai(masks: list[int], b: dict[str, Any]) -> bool:
    """Is the 13-tile hand of counts ``b`` (its suits' ``suit_mask``s given) tenpai in the
    regular form? (``is_tenpai``'s first question; the bots ask it of many hands a tile apart.)"""
    bad = -1
    for i in range(4):
        if masks[i] == 0:
            if bad >= 0:
                return False  # two suits fail: no regular form
            bad = i
    if bad == -1:
        return True
    # The other suits split; the failing one must become sets (the pair is elsewhere) or sets and
    # the pair (no pair elsewhere) with one tile more.
    pairs = sum(1 for i in range(4) if i != bad and masks[i] == _PAIR)
    need = _SETS if pairs == 1 else _PAIR if pairs == 0 else 0
    return bool(need and _one_more(b["mpsz"[bad]], bad == 3) & need)


def is_tenpai(shoupai: Shoupai) -> bool:
    """``xiangting(shoupai) == 0`` for a hand without a drawn tile, answered from the suits.

    Majiang's shanten number is 0 exactly when one more tile, of any kind and even a fifth
    copy, would complete the hand. For the regular form that needs every suit but the one
    receiving the tile to split already into sets or sets and a pair: so with two such suits
    failing there is no way, with one only its own nine (seven) kinds need trying, and with none
    the hand holds two pair-suits and either pair's third tile completes it. Seven pairs and
    kokushi use their own (cheap) shanten numbers.
    """
    b = shoupai._bingpai
    if regular_tenpai([suit_mask(b, 0), suit_mask(b, 1), suit_mask(b, 2), suit_mask(b, 3)], b):
        return True
    if shoupai._fulou:
        return False
    return xiangting_qidui(shoupai) == 0 or xiangting_guoshi(shoupai) == 0
