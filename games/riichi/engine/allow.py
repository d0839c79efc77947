"""What a player may do, with the rule options applied: ``Majiang.Game``'s static checks.

The game flow asks these (not the bare ``Shoupai`` methods) so that 喰い替え許可レベル,
リーチ後暗槓許可レベル, ツモ番なしリーチあり, トビ終了あり, 途中流局あり and ノーテン宣言あり take effect.
``paishu`` is the number of tiles left to draw in the wall (``Shan.paishu``); at 0 no call is
allowed. Return values follow Majiang: ``None`` where the hand is in the wrong state for the
question (e.g. asking for chi while it must discard), ``[]`` for "nothing allowed".
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from games.riichi.engine.hule import hule, hule_mianzi
from games.riichi.engine.shoupai import Shoupai
from games.riichi.engine.xiangting import tingpai, xiangting

_DIGIT_BEFORE_MARK = re.compile(r"[0-9](?=[+=\-])")


def get_dapai(rule: Mapping[str, Any], shoupai: Shoupai) -> list[str] | None:
    """Legal discards. 喰い替え許可レベル 0 forbids the called tile and the suji tile after a
    chi/pon, 1 forbids only the called tile, 2 forbids nothing."""
    level = rule["喰い替え許可レベル"]
    if level == 0:
        return shoupai.get_dapai(True)
    zimo = shoupai._zimo
    if level == 1 and zimo and len(zimo) > 2:
        called = _DIGIT_BEFORE_MARK.search(zimo)
        deny = zimo[0] + str((int(called.group()) if called else 0) or 5)
        dapai = shoupai.get_dapai(False) or []
        return [p for p in dapai if p.replace("0", "5", 1) != deny]
    return shoupai.get_dapai(False)


def get_chi_mianzi(rule: Mapping[str, Any], shoupai: Shoupai, p: str, paishu: int) -> list[str] | None:
    """Chi melds allowed on discard ``p`` (with its mark)."""
    level = rule["喰い替え許可レベル"]
    mianzi = shoupai.get_chi_mianzi(p, level == 0)
    if mianzi is None:
        return None
    # With only the called tile forbidden, a 4th call holding two more of it would leave
    # nothing to discard (Majiang tests the count at p's own index, so 'm0' looks at red fives).
    if level == 1 and len(shoupai._fulou) == 3 and shoupai._bingpai[p[0]][int(p[1])] == 2:
        mianzi = []
    return [] if paishu == 0 else mianzi


def get_peng_mianzi(rule: Mapping[str, Any], shoupai: Shoupai, p: str, paishu: int) -> list[str] | None:
    """Pon melds allowed on discard ``p`` (with its mark)."""
    mianzi = shoupai.get_peng_mianzi(p)
    if mianzi is None:
        return None
    return [] if paishu == 0 else mianzi


def get_gang_mianzi(
    rule: Mapping[str, Any], shoupai: Shoupai, p: str | None, paishu: int, n_gang: int
) -> list[str] | None:
    """Kans allowed: daiminkan on discard ``p``, or ankan/kakan after a draw (``p=None``).

    After riichi (リーチ後暗槓許可レベル): 0 no ankan; 1 only if the hand can still win in as many
    ways (counted as readings over all waits); 2 only if the waits stay as many and the hand
    stays tenpai. No kan once the wall is empty or after the fourth kan (``n_gang``)."""
    mianzi = shoupai.get_gang_mianzi(p)
    if not mianzi:
        return mianzi

    if shoupai.lizhi:
        level = rule["リーチ後暗槓許可レベル"]
        zimo = shoupai._zimo
        assert zimo is not None
        if level == 0:
            return []
        if level == 1:
            before = shoupai.clone().dapai(zimo)
            n_hule1 = sum(len(hule_mianzi(before, q)) for q in tingpai(before) or [])
            after = shoupai.clone().gang(mianzi[0])
            n_hule2 = sum(len(hule_mianzi(after, q)) for q in tingpai(after) or [])
            if n_hule1 > n_hule2:
                return []
        else:
            before = shoupai.clone().dapai(zimo)
            n_tingpai1 = len(tingpai(before) or [])
            after = shoupai.clone().gang(mianzi[0])
            if xiangting(after) > 0:
                return []
            n_tingpai2 = len(tingpai(after) or [])
            if n_tingpai1 > n_tingpai2:
                return []
    return [] if paishu == 0 or n_gang == 4 else mianzi


def allow_lizhi(
    rule: Mapping[str, Any], shoupai: Shoupai, p: str | None = None, paishu: int = 0, defen: int = 0
) -> bool | list[str]:
    """May the hand declare riichi? With ``p``: by discarding ``p`` (bool). Without: the list of
    discards that declare riichi, or ``False``. ``defen`` is the player's points (トビ終了あり
    requires 1000 for the stick); ``paishu`` must be 4 or more unless ツモ番なしリーチあり."""
    if not shoupai._zimo:
        return False
    if shoupai.lizhi:
        return False
    if not shoupai.menqian:
        return False
    if not rule["ツモ番なしリーチあり"] and paishu < 4:
        return False
    if rule["トビ終了あり"] and defen < 1000:
        return False
    if xiangting(shoupai) > 0:
        return False

    if p:
        new_shoupai = shoupai.clone().dapai(p)
        return xiangting(new_shoupai) == 0 and len(tingpai(new_shoupai) or []) > 0
    dapai = []
    for q in get_dapai(rule, shoupai) or []:
        new_shoupai = shoupai.clone().dapai(q)
        if xiangting(new_shoupai) == 0 and len(tingpai(new_shoupai) or []) > 0:
            dapai.append(q)
    return dapai or False


def allow_hule(
    rule: Mapping[str, Any],
    shoupai: Shoupai,
    p: str | None,
    zhuangfeng: int,
    menfeng: int,
    hupai: bool = False,
    neng_rong: bool = True,
) -> bool:
    """May the hand win, on ron tile ``p`` (with its mark) or by tsumo (``p=None``)?
    ``hupai``: a situational yaku applies (riichi, haitei, rinshan, chankan...), so any
    complete hand may win; ``neng_rong``: not furiten."""
    if p and not neng_rong:
        return False
    new_shoupai = shoupai.clone()
    if p:
        new_shoupai.zimo(p)
    if xiangting(new_shoupai) != -1:
        return False
    if hupai:
        return True
    param = {
        "rule": rule,
        "zhuangfeng": zhuangfeng,
        "menfeng": menfeng,
        "hupai": {},
        "baopai": [],
        "jicun": {"changbang": 0, "lizhibang": 0},
    }
    result = hule(shoupai, p, param)
    return result is not None and result.get("hupai") is not None


def allow_pingju(rule: Mapping[str, Any], shoupai: Shoupai, diyizimo: bool) -> bool:
    """九種九牌: on the first draw (``diyizimo``, no call yet), nine or more kinds of yaojiu."""
    if not (diyizimo and shoupai._zimo):
        return False
    if not rule["途中流局あり"]:
        return False
    n_yaojiu = 0
    for s in ("m", "p", "s", "z"):
        bingpai = shoupai._bingpai[s]
        for n in (1, 2, 3, 4, 5, 6, 7) if s == "z" else (1, 9):
            if bingpai[n] > 0:
                n_yaojiu += 1
    return n_yaojiu >= 9


def allow_no_daopai(rule: Mapping[str, Any], shoupai: Shoupai, paishu: int) -> bool:
    """ノーテン宣言: at the exhaustive draw a tenpai hand not in riichi may hide itself."""
    if paishu > 0 or shoupai._zimo:
        return False
    if not rule["ノーテン宣言あり"]:
        return False
    if shoupai.lizhi:
        return False
    return xiangting(shoupai) == 0 and len(tingpai(shoupai) or []) > 0
