"""Scoring a winning hand (hule): ``hule(shoupai, rongpai, param)`` as ``Majiang.Util.hule``.

The port keeps Majiang's method, because its answers depend on it: every way of reading the hand
(``hule_mianzi``) is scored and the best kept, in the same order and with the same tie-break, so
the yaku list (``hupai``) comes out with the same names, han and order as Majiang's, and ties
between equal readings resolve the same way.

Readings are lists of strings in Majiang's notation: the pair first, then the sets; the winning
tile is marked inside the set that it completes with ``_!`` (tsumo) or ``+!``/``=!``/``-!`` (ron
from that direction), e.g. ``['m55', 'p12_!3', 'p456', 's789', 'z111=']``. Melds keep their call
marks. Seven pairs has 7 strings, kokushi 13 (the pair first), nine gates one (``m11123455678999``
plus the winning tile).

Result (a dict, keys in Majiang's order)::

    {'hupai': [{'name': '立直', 'fanshu': 1}, ...],   # yakuman: 'fanshu': '*' or '**'
     'fu': 30, 'fanshu': 4,                            # None for yakuman
     'damanguan': None,                                # yakuman multiple, None otherwise
     'defen': 7700,                                    # the win's value, no honba/sticks
     'fenpei': [7700, -7700, 0, 0]}                    # change per seat by menfeng (0 = East),
                                                       # honba and riichi sticks included

A pao yakuman (大三元, 大四喜 completed by a third dragon / fourth wind meld) keeps Majiang's extra
``'baojia': '+'|'='|'-'`` key in its hupai entry when 役満パオあり. ``hule`` returns ``None`` when
the hand is not complete and ``{'defen': 0}`` when it is complete but has no yaku (Majiang does
the same; ``Game.allow_hule`` tests ``'hupai' in result``).

Two implementations give that answer. ``_hule_reference`` is the direct port (readings as
strings, ``get_hudi``/``get_hupai``/``get_defen``); ``_hule_fast`` computes the same readings, in
the same order, as sums of precomputed per-suit and per-meld counters (``hule_shapes``) and scores
them without building strings (4-5 times faster). ``hule`` uses the fast one and hands the rare
cases it does not cover (face-down tiles, kokushi / nine gates shapes, inputs the reference
rejects) to the reference.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from games.riichi.engine.hule_shapes import (
    ANKEZI,
    AT_ANKEZI,
    AT_BEIKOU,
    AT_DANQI,
    AT_DRAGON,
    AT_GANGZI,
    AT_KEZI,
    AT_M,
    AT_NOT_GREEN,
    AT_P,
    AT_S,
    AT_SHUNZI,
    AT_WIND,
    AT_YAOJIU,
    AT_Z,
    BIANZHANG,
    CALLED,
    DANQI,
    DANQI_DELTA,
    FU_MASK,
    GANGZI,
    KANZHANG,
    KEZI,
    LVYISE_BAD_S,
    MELDS,
    N_DANQI,
    PAIR_PACKED,
    RON,
    SHAPES,
    SUIT_BITS,
    SUIT_INDEX,
    YAOJIU_CHARS,
    MeldInfo,
    meld_info,
    suit_mianzi,
    suit_shape,
)
from games.riichi.engine.rule import rule as make_rule
from games.riichi.engine.shoupai import Shoupai
from games.riichi.engine.tile import MARK_OFFSET, zhenbaopai

# -- readings (hule_mianzi) ---------------------------------------------------------------------

# Readings of one suit depend only on its counts: cached, and emptied past a bound so a
# long-running server cannot grow it without limit.
_suit_readings: dict[tuple[str, tuple[int, ...]], tuple[tuple[str, ...], ...]] = {}
_SUIT_READINGS_LIMIT = 50_000


def _suit_mianzi(s: str, bingpai: list[int]) -> tuple[tuple[str, ...], ...]:
    key = (s, tuple(bingpai[1:10]))
    found = _suit_readings.get(key)
    if found is None:
        if len(_suit_readings) >= _SUIT_READINGS_LIMIT:
            _suit_readings.clear()
        found = _suit_readings[key] = tuple(tuple(r) for r in suit_mianzi(s, [0, *key[1]]))
    return found


def _mianzi_all(shoupai: Shoupai) -> list[list[str]]:
    b = shoupai._bingpai
    shupai_all: list[tuple[str, ...]] = [()]
    for s in ("m", "p", "s"):
        readings = _suit_mianzi(s, b[s])
        shupai_all = [mm + nn for mm in shupai_all for nn in readings]

    zipai: list[str] = []
    z = b["z"]
    for n in range(1, 8):
        if z[n] == 0:
            continue
        if z[n] != 3:
            return []
        zipai.append("z" + str(n) * 3)

    fulou = [m.replace("0", "5") for m in shoupai._fulou]
    return [[*shupai, *zipai, *fulou] for shupai in shupai_all]


_OPEN_OR_KAN = re.compile(r"[+=\-]|[0-9]{4}")


def _add_hulepai(mianzi: list[str], p: str) -> list[list[str]]:
    # One reading per concealed set that can hold the winning tile: its last copy of the digit
    # gets the mark (Majiang's regex ^(s.*n) -> $1d!).
    s, n, d = p[0], p[1], _mark(p)
    new_mianzi: list[list[str]] = []
    for i, m in enumerate(mianzi):
        if _OPEN_OR_KAN.search(m):
            continue
        if i > 0 and m == mianzi[i - 1]:
            continue
        if m[0] != s:
            continue
        k = m.rfind(n)
        if k < 1:
            continue
        tmp = mianzi[:]
        tmp[i] = m[: k + 1] + d + "!" + m[k + 1 :]
        new_mianzi.append(tmp)
    return new_mianzi


def _mark(hulepai: str) -> str:
    # ``hulepai`` is 'm5_' (tsumo) or 'm5+' (ron). Game.get_gang_mianzi counts readings for
    # unmarked tiles ('m5'): JavaScript then writes "undefined"; only the count matters there.
    return hulepai[2] if len(hulepai) > 2 else "undefined"


def _hule_mianzi_yiban(shoupai: Shoupai, hulepai: str) -> list[list[str]]:
    mianzi: list[list[str]] = []
    for s in ("m", "p", "s", "z"):
        bingpai = shoupai._bingpai[s]
        for n in range(1, len(bingpai)):
            if bingpai[n] < 2:
                continue
            bingpai[n] -= 2
            jiangpai = s + str(n) * 2
            try:
                for mm in _mianzi_all(shoupai):
                    if len(mm) != 4:
                        continue
                    mianzi.extend(_add_hulepai([jiangpai, *mm], hulepai))
            finally:
                bingpai[n] += 2
    return mianzi


def _hule_mianzi_qidui(shoupai: Shoupai, hulepai: str) -> list[list[str]]:
    if shoupai._fulou:
        return []
    mianzi: list[str] = []
    tile = hulepai[:2]
    for s in ("m", "p", "s", "z"):
        bingpai = shoupai._bingpai[s]
        for n in range(1, len(bingpai)):
            if bingpai[n] == 0:
                continue
            if bingpai[n] != 2:
                return []
            pair = s + str(n) * 2
            mianzi.append(pair + _mark(hulepai) + "!" if s + str(n) == tile else pair)
    return [mianzi] if len(mianzi) == 7 else []


def _hule_mianzi_guoshi(shoupai: Shoupai, hulepai: str) -> list[list[str]]:
    if shoupai._fulou:
        return []
    mianzi: list[str] = []
    n_duizi = 0
    tile = hulepai[:2]
    for s in ("m", "p", "s", "z"):
        bingpai = shoupai._bingpai[s]
        for n in (1, 2, 3, 4, 5, 6, 7) if s == "z" else (1, 9):
            p = s + str(n)
            if bingpai[n] == 2:
                m = p + str(n)
                mianzi.insert(0, m + _mark(hulepai) + "!" if p == tile else m)
                n_duizi += 1
            elif bingpai[n] == 1:
                mianzi.append(p + _mark(hulepai) + "!" if p == tile else p)
            else:
                return []
    return [mianzi] if n_duizi == 1 else []


def _hule_mianzi_jiulian(shoupai: Shoupai, hulepai: str) -> list[list[str]]:
    if shoupai._fulou:
        return []
    s = hulepai[0]
    if s == "z":
        return []
    bingpai = shoupai._bingpai[s]
    digits = [s]
    for n in range(1, 10):
        if bingpai[n] == 0:
            return []
        if (n == 1 or n == 9) and bingpai[n] < 3:
            return []
        n_pai = bingpai[n] - 1 if str(n) == hulepai[1] else bingpai[n]
        digits.append(str(n) * n_pai)
    mianzi = "".join(digits)
    if len(mianzi) != 14:
        return []
    return [[mianzi + hulepai[1:] + "!"]]


def hule_mianzi(shoupai: Shoupai, rongpai: str | None = None) -> list[list[str]]:
    """Every reading of the hand completed by ``rongpai`` (ron, with its mark) or by its drawn
    tile (tsumo), as ``Majiang.Util.hule_mianzi``: regular readings, then seven pairs, kokushi,
    nine gates. Empty if the hand is not complete."""
    new_shoupai = shoupai.clone()
    if rongpai:
        new_shoupai.zimo(rongpai)
    zimo = new_shoupai._zimo
    if not zimo or len(zimo) > 2:
        return []
    hulepai = (rongpai or zimo + "_").replace("0", "5", 1)
    return (
        _hule_mianzi_yiban(new_shoupai, hulepai)
        + _hule_mianzi_qidui(new_shoupai, hulepai)
        + _hule_mianzi_guoshi(new_shoupai, hulepai)
        + _hule_mianzi_jiulian(new_shoupai, hulepai)
    )


# -- fu and the facts the yaku look at (hudi) ----------------------------------------------------

class Hudi:
    """What ``get_hudi`` finds in one reading (Majiang's ``hudi`` object)."""

    __slots__ = (
        "fu", "menqian", "zimo", "shunzi", "kezi", "n_shunzi", "n_kezi", "n_ankezi", "n_gangzi",
        "n_yaojiu", "n_zipai", "danqi", "pinghu", "zhuangfeng", "menfeng",
    )  # fmt: skip

    def __init__(self, zhuangfeng: int, menfeng: int) -> None:
        self.fu = 20
        self.menqian = True
        self.zimo = True
        self.shunzi = {"m": [0] * 8, "p": [0] * 8, "s": [0] * 8}
        self.kezi = {"m": [0] * 10, "p": [0] * 10, "s": [0] * 10, "z": [0] * 8}
        self.n_shunzi = 0
        self.n_kezi = 0
        self.n_ankezi = 0
        self.n_gangzi = 0
        self.n_yaojiu = 0
        self.n_zipai = 0
        self.danqi = False
        self.pinghu = False
        self.zhuangfeng = zhuangfeng
        self.menfeng = menfeng


def get_hudi(mianzi: list[str], zhuangfeng: int, menfeng: int, rule: Mapping[str, Any]) -> Hudi:
    """Fu and set counts of one reading (Majiang's ``get_hudi``)."""
    hudi = Hudi(zhuangfeng, menfeng)
    zhuangfengpai = "z" + str(zhuangfeng + 1)
    menfengpai = "z" + str(menfeng + 1)
    n_mianzi = len(mianzi)
    first = mianzi[0]

    for m in mianzi:
        if CALLED.search(m):
            hudi.menqian = False
        if RON.search(m):
            hudi.zimo = False
        if n_mianzi == 1:
            continue
        if DANQI.fullmatch(m):
            hudi.danqi = True
        if n_mianzi == 13:
            continue
        is_yaojiu = YAOJIU_CHARS.search(m) is not None
        if is_yaojiu:
            hudi.n_yaojiu += 1
        if m[0] == "z":
            hudi.n_zipai += 1
        if n_mianzi != 5:
            continue
        if m == first:
            # The pair: 2 fu for each of round wind, seat wind, dragon (a double wind pair is 4,
            # or 2 under 連風牌は2符), 2 more for a pair wait.
            fu = 0
            if m.startswith(zhuangfengpai):
                fu += 2
            if m.startswith(menfengpai):
                fu += 2
            if m[0] == "z" and m[1] in "567":
                fu += 2
            if rule["連風牌は2符"] and fu > 2:
                fu = 2
            hudi.fu += fu
            if hudi.danqi:
                hudi.fu += 2
        elif KEZI.match(m):
            hudi.n_kezi += 1
            fu = 2
            if is_yaojiu:
                fu *= 2
            if ANKEZI.fullmatch(m):
                fu *= 2
                hudi.n_ankezi += 1
            if GANGZI.match(m):
                fu *= 4
                hudi.n_gangzi += 1
            hudi.fu += fu
            hudi.kezi[m[0]][int(m[1])] += 1
        else:
            hudi.n_shunzi += 1
            if KANZHANG.fullmatch(m):
                hudi.fu += 2
            if BIANZHANG.fullmatch(m):
                hudi.fu += 2
            hudi.shunzi[m[0]][int(m[1])] += 1

    if n_mianzi == 7:
        hudi.fu = 25
    elif n_mianzi == 5:
        hudi.pinghu = hudi.menqian and hudi.fu == 20
        if hudi.zimo:
            if not hudi.pinghu:
                hudi.fu += 2
        elif hudi.menqian:
            hudi.fu += 10
        elif hudi.fu == 20:
            hudi.fu = 30
        hudi.fu = -(-hudi.fu // 10) * 10
    return hudi


# -- yaku (hupai) -------------------------------------------------------------------------------

_FENG_HANZI = ("東", "南", "西", "北")


def _h(name: str, fanshu: int | str) -> dict[str, Any]:
    return {"name": name, "fanshu": fanshu}


def get_pre_hupai(hupai: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The situational yaku from ``param['hupai']`` (riichi, ippatsu, haitei/houtei, rinshan,
    chankan; tenhou/chiihou replace them all)."""
    pre_hupai: list[dict[str, Any]] = []
    lizhi = hupai.get("lizhi")
    haidi = hupai.get("haidi")
    tianhu = hupai.get("tianhu")
    if lizhi == 1:
        pre_hupai.append(_h("立直", 1))
    if lizhi == 2:
        pre_hupai.append(_h("ダブル立直", 2))
    if hupai.get("yifa"):
        pre_hupai.append(_h("一発", 1))
    if haidi == 1:
        pre_hupai.append(_h("海底摸月", 1))
    if haidi == 2:
        pre_hupai.append(_h("河底撈魚", 1))
    if hupai.get("lingshang"):
        pre_hupai.append(_h("嶺上開花", 1))
    if hupai.get("qianggang"):
        pre_hupai.append(_h("槍槓", 1))
    if tianhu == 1:
        pre_hupai = [_h("天和", "*")]
    if tianhu == 2:
        pre_hupai = [_h("地和", "*")]
    return pre_hupai


def _is_yakuman(fanshu: int | str) -> bool:
    return isinstance(fanshu, str) and fanshu[:1] == "*"


_DRAGON_MELD = re.compile(r"z([567])\1\1(?:[+=\-]|\1)(?!!)")  # open or kan dragon triplet
_WIND_MELD = re.compile(r"z([1234])\1\1(?:[+=\-]|\1)(?!!)")
_MARK = re.compile(r"[+=\-]")


def _damanguan(mianzi: list[str], hudi: Hudi) -> list[dict[str, Any]]:
    # Yakuman in Majiang's order: 国士無双, 四暗刻, 大三元, 四喜, 字一色, 緑一色, 清老頭, 四槓子, 九蓮宝燈.
    result: list[dict[str, Any]] = []
    n_mianzi = len(mianzi)
    kezi = hudi.kezi
    if n_mianzi == 13:
        result.append(_h("国士無双十三面", "**") if hudi.danqi else _h("国士無双", "*"))
    if hudi.n_ankezi == 4:
        result.append(_h("四暗刻単騎", "**") if hudi.danqi else _h("四暗刻", "*"))
    z = kezi["z"]
    if z[5] + z[6] + z[7] == 3:
        # Pao: the seat that fed the third dragon meld (a concealed kan has no mark).
        bao = [m for m in mianzi if _DRAGON_MELD.match(m)]
        mark = _MARK.search(bao[2]) if len(bao) > 2 else None
        entry = _h("大三元", "*")
        if mark:
            entry["baojia"] = mark.group()
        result.append(entry)
    n_feng = z[1] + z[2] + z[3] + z[4]
    if n_feng == 4:
        bao = [m for m in mianzi if _WIND_MELD.match(m)]
        mark = _MARK.search(bao[3]) if len(bao) > 3 else None
        entry = _h("大四喜", "**")
        if mark:
            entry["baojia"] = mark.group()
        result.append(entry)
    elif n_feng == 3 and mianzi[0][0] == "z" and mianzi[0][1] in "1234":
        result.append(_h("小四喜", "*"))
    if hudi.n_zipai == n_mianzi:
        result.append(_h("字一色", "*"))
    if not any(m[0] in "mp" or (m[0] == "z" and m[1:2] != "6") or LVYISE_BAD_S.match(m) for m in mianzi):
        result.append(_h("緑一色", "*"))
    if hudi.n_yaojiu == 5 and hudi.n_kezi == 4 and hudi.n_zipai == 0:
        result.append(_h("清老頭", "*"))
    if hudi.n_gangzi == 4:
        result.append(_h("四槓子", "*"))
    if n_mianzi == 1:
        if mianzi[0][1:14] == "1112345678999":
            result.append(_h("純正九蓮宝燈", "**"))
        else:
            result.append(_h("九蓮宝燈", "*"))
    return result


def _beikou(hudi: Hudi) -> int:
    shunzi = hudi.shunzi
    return sum(x >> 1 for s in ("m", "p", "s") for x in shunzi[s])


def _yaku(mianzi: list[str], hudi: Hudi, rule: Mapping[str, Any]) -> list[dict[str, Any]]:
    # Regular yaku in Majiang's order (the order of the hupai list).
    result: list[dict[str, Any]] = []
    menqian = hudi.menqian
    n_mianzi = len(mianzi)
    shunzi = hudi.shunzi
    kezi = hudi.kezi
    z = kezi["z"]

    if menqian and hudi.zimo:
        result.append(_h("門前清自摸和", 1))
    if z[hudi.zhuangfeng + 1]:
        result.append(_h("場風 " + _FENG_HANZI[hudi.zhuangfeng], 1))
    if z[hudi.menfeng + 1]:
        result.append(_h("自風 " + _FENG_HANZI[hudi.menfeng], 1))
    if z[5]:
        result.append(_h("翻牌 白", 1))
    if z[6]:
        result.append(_h("翻牌 發", 1))
    if z[7]:
        result.append(_h("翻牌 中", 1))
    if hudi.pinghu:
        result.append(_h("平和", 1))
    if hudi.n_yaojiu == 0 and (rule["クイタンあり"] or menqian):
        result.append(_h("断幺九", 1))
    beikou = _beikou(hudi) if menqian else 0
    if beikou == 1:
        result.append(_h("一盃口", 1))
    for n in range(1, 8):
        if shunzi["m"][n] and shunzi["p"][n] and shunzi["s"][n]:
            result.append(_h("三色同順", 2 if menqian else 1))
            break
    for s in ("m", "p", "s"):
        if shunzi[s][1] and shunzi[s][4] and shunzi[s][7]:
            result.append(_h("一気通貫", 2 if menqian else 1))
            break
    if hudi.n_yaojiu == 5 and hudi.n_shunzi > 0 and hudi.n_zipai > 0:
        result.append(_h("混全帯幺九", 2 if menqian else 1))
    if n_mianzi == 7:
        result.append(_h("七対子", 2))
    if hudi.n_kezi == 4:
        result.append(_h("対々和", 2))
    if hudi.n_ankezi == 3:
        result.append(_h("三暗刻", 2))
    if hudi.n_gangzi == 3:
        result.append(_h("三槓子", 2))
    for n in range(1, 10):
        if kezi["m"][n] and kezi["p"][n] and kezi["s"][n]:
            result.append(_h("三色同刻", 2))
            break
    if hudi.n_yaojiu == n_mianzi and hudi.n_shunzi == 0 and hudi.n_zipai > 0:
        result.append(_h("混老頭", 2))
    if z[5] + z[6] + z[7] == 2 and mianzi[0][0] == "z" and mianzi[0][1] in "567":
        result.append(_h("小三元", 2))
    if hudi.n_zipai > 0:
        for s in ("m", "p", "s"):
            if all(m[0] == "z" or m[0] == s for m in mianzi):
                result.append(_h("混一色", 3 if menqian else 2))
                break
    if hudi.n_yaojiu == 5 and hudi.n_shunzi > 0 and hudi.n_zipai == 0:
        result.append(_h("純全帯幺九", 3 if menqian else 2))
    if beikou == 2:
        result.append(_h("二盃口", 3))
    for s in ("m", "p", "s"):
        if all(m[0] == s for m in mianzi):
            result.append(_h("清一色", 6 if menqian else 5))
            break
    return result


def get_hupai(
    mianzi: list[str],
    hudi: Hudi,
    pre_hupai: list[dict[str, Any]],
    post_hupai: list[dict[str, Any]],
    rule: Mapping[str, Any],
) -> list[dict[str, Any]]:
    """The yaku of one reading: yakuman only if there is one, else situational yaku, hand yaku
    and (only if there is at least one yaku) dora."""
    damanguan = [dict(h) for h in pre_hupai] if pre_hupai and _is_yakuman(pre_hupai[0]["fanshu"]) else []
    damanguan += _damanguan(mianzi, hudi)
    if damanguan:
        for h in damanguan:
            if not rule["ダブル役満あり"]:
                h["fanshu"] = "*"
            if not rule["役満パオあり"]:
                h.pop("baojia", None)
        return damanguan

    hupai = [dict(h) for h in pre_hupai] + _yaku(mianzi, hudi, rule)
    if hupai:
        hupai += [dict(h) for h in post_hupai]
    return hupai


_SUITSTR = re.compile(r"[mpsz][^mpsz,]*")


def _count_dora(suitstr: list[str], indicators: list[str]) -> int:
    count = 0
    for p in indicators:
        p = zhenbaopai(p)
        for m in suitstr:
            if m[0] != p[0]:
                continue
            # Majiang replaces only the first red five of a group before counting.
            count += m.replace("0", "5", 1).count(p[1])
    return count


def get_post_hupai(
    shoupai: Shoupai, rongpai: str | None, baopai: list[str], fubaopai: list[str] | None
) -> list[dict[str, Any]]:
    """Dora, red dora and ura dora of the whole hand (melds included), in that order."""
    new_shoupai = shoupai.clone()
    if rongpai:
        new_shoupai.zimo(rongpai)
    paistr = new_shoupai.to_string()
    suitstr = _SUITSTR.findall(paistr)

    post_hupai: list[dict[str, Any]] = []
    n_baopai = _count_dora(suitstr, baopai)
    if n_baopai:
        post_hupai.append(_h("ドラ", n_baopai))
    n_hongpai = paistr.count("0")
    if n_hongpai:
        post_hupai.append(_h("赤ドラ", n_hongpai))
    n_fubaopai = _count_dora(suitstr, fubaopai or [])
    if n_fubaopai:
        post_hupai.append(_h("裏ドラ", n_fubaopai))
    return post_hupai


# -- points (defen) and the settlement (fenpei) --------------------------------------------------


def _ceil100(x: int) -> int:
    return -(-x // 100) * 100


def get_defen(
    fu: int | None, hupai: list[dict[str, Any]], rongpai: str | None, param: Mapping[str, Any]
) -> dict[str, Any]:
    """Points of one reading and each seat's change (Majiang's ``get_defen``)."""
    if not hupai:
        return {"defen": 0}

    rule = param["rule"]
    menfeng = param["menfeng"]
    fanshu: int | None = None
    damanguan: int | None = None
    baojia2: int | None = None
    base2 = 0

    if _is_yakuman(hupai[0]["fanshu"]):
        fu = None
        damanguan = sum(len(h["fanshu"]) for h in hupai) if rule["役満の複合あり"] else 1
        base = 8000 * damanguan
        pao = next((h for h in hupai if h.get("baojia")), None)
        if pao:
            # The pao seat pays this yakuman (up to the hand's total) itself.
            baojia2 = (menfeng + MARK_OFFSET[pao["baojia"]]) % 4
            base2 = 8000 * min(len(pao["fanshu"]), damanguan)
    else:
        assert fu is not None
        fanshu = sum(h["fanshu"] for h in hupai)
        base = base_points(fu, fanshu, rule)

    fenpei = [0, 0, 0, 0]
    chang = param["jicun"]["changbang"]
    lizhi = param["jicun"]["lizhibang"]
    multiplier = 6 if menfeng == 0 else 4

    if baojia2 is not None:
        if rongpai:
            base2 //= 2  # on a ron the pao seat and the discarder share it
        base -= base2
        defen2 = base2 * multiplier
        fenpei[menfeng] += defen2
        fenpei[baojia2] -= defen2
    else:
        defen2 = 0

    if rongpai or base == 0:
        if base == 0:
            assert baojia2 is not None
            baojia = baojia2  # all paid by pao: the honba too
        else:
            assert rongpai is not None
            baojia = (menfeng + MARK_OFFSET[rongpai[2]]) % 4
        defen = _ceil100(base * multiplier)
        fenpei[menfeng] += defen + chang * 300 + lizhi * 1000
        fenpei[baojia] -= defen + chang * 300
    else:
        zhuangjia = _ceil100(base * 2)
        sanjia = _ceil100(base)
        if menfeng == 0:
            defen = zhuangjia * 3
            for seat in range(4):
                if seat == menfeng:
                    fenpei[seat] += defen + chang * 300 + lizhi * 1000
                else:
                    fenpei[seat] -= zhuangjia + chang * 100
        else:
            defen = zhuangjia + sanjia * 2
            for seat in range(4):
                if seat == menfeng:
                    fenpei[seat] += defen + chang * 300 + lizhi * 1000
                elif seat == 0:
                    fenpei[seat] -= zhuangjia + chang * 100
                else:
                    fenpei[seat] -= sanjia + chang * 100

    return {
        "hupai": hupai,
        "fu": fu,
        "fanshu": fanshu,
        "damanguan": damanguan,
        "defen": defen + defen2,
        "fenpei": fenpei,
    }


# -- entry points ---------------------------------------------------------------------------------

def _better(rv: dict[str, Any], best: dict[str, Any]) -> bool:
    # Majiang: more points; on a tie a yakuman (no fanshu) replaces, else more han, else more fu.
    # JavaScript comparisons with undefined are false, hence the None checks.
    if rv["defen"] != best["defen"]:
        return rv["defen"] > best["defen"]
    rf, bf = rv.get("fanshu"), best.get("fanshu")
    if rf is None:
        return True
    if bf is None:
        return False
    return rf > bf or (rf == bf and rv["fu"] > best["fu"])


def hule(shoupai: Shoupai, rongpai: str | None, param: Mapping[str, Any]) -> dict[str, Any] | None:
    """Score the hand as ``Majiang.Util.hule``.

    ``shoupai`` is the winner's hand: 14 tiles with the drawn tile for tsumo, 13 for ron.
    ``rongpai`` is the ron tile with its direction mark (``'m5='``; ``'m5_='`` also accepted),
    ``None`` for tsumo. ``param`` is ``hule_param(...)``'s shape: ``rule``, ``zhuangfeng``,
    ``menfeng`` (0 = East = dealer), ``hupai`` (situational yaku flags), ``baopai`` (dora
    indicators), ``fubaopai`` (ura indicators or ``None``), ``jicun`` (``changbang`` honba,
    ``lizhibang`` riichi sticks on the table). ``rule`` defaults to ``rule()`` if missing.

    The fast path (``_hule_fast``) gives the answer from precomputed per-shape counters; the
    rare hands it does not cover go through ``_hule_reference``, the direct port.
    """
    if rongpai:
        if rongpai[-1] not in "+=-":
            raise ValueError(f"ron tile {rongpai!r} has no direction mark")
        if len(rongpai) != 3:
            rongpai = rongpai[:2] + rongpai[-1]
    if "rule" not in param:
        param = {**param, "rule": make_rule()}
    result = _hule_fast(shoupai, rongpai, param)
    if result is _UNSUPPORTED:
        result = _hule_reference(shoupai, rongpai, param)
    return result


def _hule_reference(shoupai: Shoupai, rongpai: str | None, param: Mapping[str, Any]) -> dict[str, Any] | None:
    # Majiang's method as written: every reading spelt out as strings, scored, the best kept.
    rule = param["rule"]
    best: dict[str, Any] | None = None
    pre_hupai = get_pre_hupai(param.get("hupai") or {})
    post_hupai = get_post_hupai(shoupai, rongpai, param.get("baopai") or [], param.get("fubaopai"))

    for mianzi in hule_mianzi(shoupai, rongpai):
        hudi = get_hudi(mianzi, param["zhuangfeng"], param["menfeng"], rule)
        hupai = get_hupai(mianzi, hudi, pre_hupai, post_hupai, rule)
        rv = get_defen(hudi.fu, hupai, rongpai, param)
        if best is None or _better(rv, best):
            best = rv
    return best


# -- the fast path --------------------------------------------------------------------------------
#
# Same readings, same order, same scores as _hule_reference, but a reading is a few packed
# counters (see hule_shapes) summed from memoised per-suit and per-meld parts instead of a list
# of strings matched by regexes. Nothing is memoised per hand: every call scores from scratch.

_UNSUPPORTED: Any = object()  # "ask _hule_reference"
_SHAPES_M, _SHAPES_P, _SHAPES_S, _SHAPES_Z = SHAPES  # cleared in place, never replaced
_DIGIT_OF = {str(n): n for n in range(10)}
_SUITS = "mpsz"

# Yaku as (name, fanshu) pairs; the result's dicts are made from them at the end.
_MENQIAN_ZIMO = ("門前清自摸和", 1)
_CHANGFENG = tuple(("場風 " + f, 1) for f in _FENG_HANZI)
_ZIFENG = tuple(("自風 " + f, 1) for f in _FENG_HANZI)
_BAI, _FA, _ZHONG = ("翻牌 白", 1), ("翻牌 發", 1), ("翻牌 中", 1)
_PINGHU = ("平和", 1)
_DUANYAOJIU = ("断幺九", 1)
_YIBEIKOU = ("一盃口", 1)
_QIDUIZI = ("七対子", 2)
_DUIDUIHU = ("対々和", 2)
_SANANKE = ("三暗刻", 2)
_SANGANGZI = ("三槓子", 2)
_SANSETONGKE = ("三色同刻", 2)
_HUNLAOTOU = ("混老頭", 2)
_XIAOSANYUAN = ("小三元", 2)
_ERBEIKOU = ("二盃口", 3)
# (open, concealed) variants
_SANSETONGSHUN = (("三色同順", 1), ("三色同順", 2))
_YIQITONGGUAN = (("一気通貫", 1), ("一気通貫", 2))
_HUNQUANDAIYAOJIU = (("混全帯幺九", 1), ("混全帯幺九", 2))
_HUNYISE = (("混一色", 2), ("混一色", 3))
_CHUNQUANDAIYAOJIU = (("純全帯幺九", 2), ("純全帯幺九", 3))
_QINGYISE = (("清一色", 5), ("清一色", 6))

# Run / triplet masks (hule_shapes): shifting by _P_BITS / _S_BITS / _Z_BITS brings that suit's
# bits to m's place, bit n for number n.
_P_BITS, _S_BITS, _Z_BITS = SUIT_BITS, 2 * SUIT_BITS, 3 * SUIT_BITS
_ITTSU = 0b10010010  # runs 123, 456, 789
_NUMBERS_1_9 = 0b1111111110

# Dora indicator -> (suit index, dora digit), filled on first sight (zhenbaopai validates).
_DORA: dict[str, tuple[int, int]] = {}


def _dora_of(p: str) -> tuple[int, int]:
    dora = _DORA.get(p)
    if dora is None:
        q = zhenbaopai(p)  # raises ValueError on a bad indicator, as the reference does
        if len(_DORA) > 1000:
            _DORA.clear()
        dora = _DORA[p] = (SUIT_INDEX[q[0]], int(q[1]))
    return dora


def _written_fives(counts: list[int], s: str, zimo_pai: str) -> tuple[int, int]:
    # (5s counted as dora, red fives) of suit s as get_post_hupai reads Shoupai.toString():
    # the concealed group writes its red fives first and only the first of them is read as a 5;
    # the drawn tile is a group of its own.
    zr = zimo_pai == s + "0"
    z5 = zimo_pai == s + "5"
    n_pai = counts[5] - z5 - zr
    red = max(0, min(counts[0] - zr, n_pai))
    fives = n_pai - red + (red > 0) if n_pai > 0 else 0
    return fives + (zr or z5), red + zr


def _count_dora_fast(indicators: list[str], counts: list[list[int]], zimo_pai: str, melds: list[MeldInfo]) -> int:
    n = 0
    for p in indicators:
        si, d = _DORA.get(p) or _dora_of(p)
        c = counts[si]
        if d == 5 and c[0]:
            n += _written_fives(c, _SUITS[si], zimo_pai)[0]
        else:
            n += c[d]
        if melds:
            for info in melds:
                if info.suit_index == si:
                    n += info.dora[d]
    return n


def _pre_hupai(hupai: Mapping[str, Any] | None) -> list[tuple[str, int | str]]:
    # get_pre_hupai as (name, fanshu) pairs.
    if not hupai:
        return []
    lizhi = hupai.get("lizhi")
    haidi = hupai.get("haidi")
    tianhu = hupai.get("tianhu")
    if not (lizhi or haidi or tianhu or hupai.get("yifa") or hupai.get("lingshang") or hupai.get("qianggang")):
        return []  # most wins
    pre: list[tuple[str, int | str]] = []
    if lizhi == 1:
        pre.append(("立直", 1))
    if lizhi == 2:
        pre.append(("ダブル立直", 2))
    if hupai.get("yifa"):
        pre.append(("一発", 1))
    if haidi == 1:
        pre.append(("海底摸月", 1))
    if haidi == 2:
        pre.append(("河底撈魚", 1))
    if hupai.get("lingshang"):
        pre.append(("嶺上開花", 1))
    if hupai.get("qianggang"):
        pre.append(("槍槓", 1))
    if tianhu == 1:
        pre = [("天和", "*")]
    if tianhu == 2:
        pre = [("地和", "*")]
    return pre


def _hule_fast(shoupai: Shoupai, rongpai: str | None, param: Mapping[str, Any]) -> Any:
    """``hule``'s answer, or ``_UNSUPPORTED`` for what only the reference path handles: face-down
    tiles, no drawn tile, a ron tile the hand cannot take (the reference raises), and shapes that
    might be kokushi or nine gates (rare; their readings are not sums of sets)."""
    bingpai = shoupai._bingpai
    if bingpai["_"]:
        return _UNSUPPORTED
    counts = [bingpai["m"], bingpai["p"], bingpai["s"], bingpai["z"]]

    # The winning tile: suit index, number (0 for a red five) and what Shoupai.zimo records.
    if rongpai:
        zimo_pai = rongpai[:2]
        wsi = SUIT_INDEX.get(zimo_pai[0])
        wn = _DIGIT_OF.get(zimo_pai[1:])
        if shoupai._zimo or wsi is None or wn is None or (wsi == 3 and not 1 <= wn <= 7):
            return _UNSUPPORTED
        c = counts[wsi][:]
        if c[wn] == 4 or (wn == 0 and c[5] == 4):
            return _UNSUPPORTED
        c[wn] += 1
        if wn == 0:
            c[5] += 1
        counts[wsi] = c
    else:
        zimo_pai = shoupai._zimo
        if not zimo_pai or len(zimo_pai) != 2 or zimo_pai[0] not in SUIT_INDEX:
            return _UNSUPPORTED
        wsi = SUIT_INDEX[zimo_pai[0]]
        wn = int(zimo_pai[1])
    wd = wn or 5

    fulou = shoupai._fulou
    t = tuple(counts[0])
    sm = _SHAPES_M.get(t) or suit_shape(0, t)
    t = tuple(counts[1])
    sp = _SHAPES_P.get(t) or suit_shape(1, t)
    t = tuple(counts[2])
    ss = _SHAPES_S.get(t) or suit_shape(2, t)
    t = tuple(counts[3])
    sz = _SHAPES_Z.get(t) or suit_shape(3, t)
    shapes = (sm, sp, ss, sz)
    if not fulou and (sz.maybe_guoshi or shapes[wsi].maybe_jiulian):
        return _UNSUPPORTED

    menqian = True
    f_packed = f_runs = f_triplets = 0
    melds: list[MeldInfo] = []
    if fulou:
        for m in fulou:
            info = MELDS.get(m) or meld_info(m)
            melds.append(info)
            f_packed += info.packed
            f_runs |= info.runs
            f_triplets |= info.triplets
            if info.open:
                menqian = False

    # get_post_hupai: dora, red dora, ura dora (before the readings, as the reference raises on
    # a bad indicator even for an incomplete hand).
    post: list[tuple[str, int | str]] = []
    n = _count_dora_fast(param.get("baopai") or [], counts, zimo_pai, melds)
    if n:
        post.append(("ドラ", n))
    n = 0
    for si in (0, 1, 2):
        if counts[si][0]:
            n += _written_fives(counts[si], _SUITS[si], zimo_pai)[1]
    for info in melds:
        n += info.hongpai
    if n:
        post.append(("赤ドラ", n))
    fubaopai = param.get("fubaopai")
    if fubaopai:
        n = _count_dora_fast(fubaopai, counts, zimo_pai, melds)
        if n:
            post.append(("裏ドラ", n))

    # The readings: (packed counters, run mask, triplet mask, pair) per place of the winning
    # tile, in Majiang's order; pair is suit index * 10 + number, or -1 for seven pairs.
    zimo = not rongpai
    variants: list[tuple[int, int, int, int]] = []
    if sm.n_pai + sp.n_pai + ss.n_pai + sz.n_pai == 14 - 3 * len(fulou):
        plains = [sm.plain, sp.plain, ss.plain, sz.plain]
        # Only one suit can hold the pair: the one that has no reading without it.
        ps = -1
        for si in (0, 1, 2, 3):
            if not plains[si]:
                ps = si if ps == -1 else -2
        if ps >= 0:
            win = 3 if zimo else 4
            for pn, readings in shapes[ps].pairs:
                plains[ps] = readings
                pair_packed = PAIR_PACKED[ps][pn] + f_packed
                if ps == 3:
                    pair_packed += _pair_fu(pn, param)
                danqi = ps == wsi and pn == wd
                pair = ps * 10 + pn
                for a in plains[0]:
                    for b in plains[1]:
                        for c in plains[2]:
                            for d in plains[3]:
                                packed = pair_packed + a[0] + b[0] + c[0] + d[0]
                                runs = a[1] | b[1] | c[1] | f_runs
                                triplets = a[2] | b[2] | c[2] | d[2] | f_triplets
                                if danqi:
                                    variants.append((packed + DANQI_DELTA, runs, triplets, pair))
                                for delta in (a, b, c, d)[wsi][win][wd]:
                                    variants.append((packed + delta, runs, triplets, pair))
    if not fulou and sm.qidui >= 0 and sp.qidui >= 0 and ss.qidui >= 0 and sz.qidui >= 0:
        if sm.n_pai + sp.n_pai + ss.n_pai + sz.n_pai == 14:
            # Seven pairs: the winning tile always completes a pair (a pair wait).
            variants.append((sm.qidui + sp.qidui + ss.qidui + sz.qidui + N_DANQI, 0, 0, -1))
    if not variants:
        return None
    return _best(variants, menqian, zimo, rongpai, melds, param, _pre_hupai(param.get("hupai")), post)


def _pair_fu(n: int, param: Mapping[str, Any]) -> int:
    # get_hudi's pair fu for honour n: round wind, seat wind, dragon (2 each; 連風牌は2符 caps 4).
    fu = 0
    if n == param["zhuangfeng"] + 1:
        fu += 2
    if n == param["menfeng"] + 1:
        fu += 2
    if n >= 5:
        fu += 2
    if fu > 2 and param["rule"]["連風牌は2符"]:
        fu = 2
    return fu


def _best(
    variants: list[tuple[int, int, int, int]],
    menqian: bool,
    zimo: bool,
    rongpai: str | None,
    melds: list[MeldInfo],
    param: Mapping[str, Any],
    pre: list[tuple[str, int | str]],
    post: list[tuple[str, int | str]],
) -> dict[str, Any] | None:
    # get_hudi's fu and get_hupai's yaku from the counters, get_defen, and hule's choice.
    rule = param["rule"]
    zhuangfeng = param["zhuangfeng"]
    menfeng = param["menfeng"]
    pre_yakuman = bool(pre) and isinstance(pre[0][1], str)
    best: dict[str, Any] | None = None
    for packed, runs, triplets, pair in variants:
        n_mianzi = 5 if pair >= 0 else 7
        n_yaojiu = packed >> AT_YAOJIU & 15
        n_zipai = packed >> AT_Z & 15
        n_kezi = packed >> AT_KEZI & 15
        n_ankezi = packed >> AT_ANKEZI & 15
        n_gangzi = packed >> AT_GANGZI & 15
        n_dragon = packed >> AT_DRAGON & 15
        n_wind = packed >> AT_WIND

        rv: dict[str, Any] | None = None
        if (
            pre_yakuman
            or n_ankezi == 4
            or n_dragon == 3
            or n_wind >= 3
            or n_zipai == n_mianzi
            or not packed >> AT_NOT_GREEN & 15
            or (n_yaojiu == 5 and n_kezi == 4 and not n_zipai)
            or n_gangzi == 4
        ):
            damanguan = _damanguan_fast(packed, pair, n_mianzi, melds, pre if pre_yakuman else [], rule)
            if damanguan:
                rv = get_defen(None, damanguan, rongpai, param)

        if rv is None:
            if pair >= 0:
                fu = 20 + (packed & FU_MASK)
                pinghu = menqian and fu == 20
                if zimo:
                    if not pinghu:
                        fu += 2
                elif menqian:
                    fu += 10
                elif fu == 20:
                    fu = 30
                fu = -(-fu // 10) * 10
            else:
                fu = 25
                pinghu = False

            hupai = list(pre)
            if menqian and zimo:
                hupai.append(_MENQIAN_ZIMO)
            z = triplets >> _Z_BITS  # honour triplets: bit n for z n
            if z:
                if z >> (zhuangfeng + 1) & 1:
                    hupai.append(_CHANGFENG[zhuangfeng])
                if z >> (menfeng + 1) & 1:
                    hupai.append(_ZIFENG[menfeng])
                if z & 32:
                    hupai.append(_BAI)
                if z & 64:
                    hupai.append(_FA)
                if z & 128:
                    hupai.append(_ZHONG)
            if pinghu:
                hupai.append(_PINGHU)
            if not n_yaojiu and (menqian or rule["クイタンあり"]):
                hupai.append(_DUANYAOJIU)
            beikou = packed >> AT_BEIKOU & 15 if menqian else 0
            if beikou == 1:
                hupai.append(_YIBEIKOU)
            n_shunzi = packed >> AT_SHUNZI & 15
            if n_shunzi:
                if runs & runs >> _P_BITS & runs >> _S_BITS & _NUMBERS_1_9:
                    hupai.append(_SANSETONGSHUN[menqian])
                if (
                    runs & _ITTSU == _ITTSU
                    or runs >> _P_BITS & _ITTSU == _ITTSU
                    or runs >> _S_BITS & _ITTSU == _ITTSU
                ):
                    hupai.append(_YIQITONGGUAN[menqian])
                if n_yaojiu == 5 and n_zipai:
                    hupai.append(_HUNQUANDAIYAOJIU[menqian])
            if pair < 0:
                hupai.append(_QIDUIZI)
            if n_kezi == 4:
                hupai.append(_DUIDUIHU)
            if n_ankezi == 3:
                hupai.append(_SANANKE)
            if n_gangzi == 3:
                hupai.append(_SANGANGZI)
            if triplets & triplets >> _P_BITS & triplets >> _S_BITS & _NUMBERS_1_9:
                hupai.append(_SANSETONGKE)
            if n_yaojiu == n_mianzi and not n_shunzi and n_zipai:
                hupai.append(_HUNLAOTOU)
            if n_dragon == 2 and pair >= 35:
                hupai.append(_XIAOSANYUAN)
            n_m = packed >> AT_M & 15
            n_p = packed >> AT_P & 15
            n_s = packed >> AT_S & 15
            if n_zipai and (n_m > 0) + (n_p > 0) + (n_s > 0) <= 1:
                hupai.append(_HUNYISE[menqian])
            if n_yaojiu == 5 and n_shunzi and not n_zipai:
                hupai.append(_CHUNQUANDAIYAOJIU[menqian])
            if beikou == 2:
                hupai.append(_ERBEIKOU)
            if n_m == n_mianzi or n_p == n_mianzi or n_s == n_mianzi:
                hupai.append(_QINGYISE[menqian])

            if not hupai:
                rv = {"defen": 0}
            else:
                hupai += post
                rv = _defen_fast(fu, hupai, rongpai, param, rule)
        if best is None or _better(rv, best):
            best = rv
    return best


def _damanguan_fast(
    packed: int,
    pair: int,
    n_mianzi: int,
    melds: list[MeldInfo],
    pre: list[tuple[str, int | str]],
    rule: Mapping[str, Any],
) -> list[dict[str, Any]]:
    # get_hupai's yakuman part (no kokushi / nine gates: those hands take the reference path).
    result = [_h(name, fanshu) for name, fanshu in pre]
    n_zipai = packed >> AT_Z & 15
    n_yaojiu = packed >> AT_YAOJIU & 15
    if packed >> AT_ANKEZI & 15 == 4:
        result.append(_h("四暗刻単騎", "**") if packed >> AT_DANQI & 15 else _h("四暗刻", "*"))
    if packed >> AT_DRAGON & 15 == 3:
        result.append(_pao(_h("大三元", "*"), melds, _DRAGON_MELD, 2))
    n_wind = packed >> AT_WIND
    if n_wind == 4:
        result.append(_pao(_h("大四喜", "**"), melds, _WIND_MELD, 3))
    elif n_wind == 3 and 31 <= pair <= 34:
        result.append(_h("小四喜", "*"))
    if n_zipai == n_mianzi:
        result.append(_h("字一色", "*"))
    if not packed >> AT_NOT_GREEN & 15:
        result.append(_h("緑一色", "*"))
    if n_yaojiu == 5 and packed >> AT_KEZI & 15 == 4 and not n_zipai:
        result.append(_h("清老頭", "*"))
    if packed >> AT_GANGZI & 15 == 4:
        result.append(_h("四槓子", "*"))
    for h in result:
        if not rule["ダブル役満あり"]:
            h["fanshu"] = "*"
        if not rule["役満パオあり"]:
            h.pop("baojia", None)
    return result


def _pao(entry: dict[str, Any], melds: list[MeldInfo], pattern: re.Pattern[str], index: int) -> dict[str, Any]:
    # The seat that fed the last dragon / wind meld pays (only melds can match the pattern).
    bao = [info.text for info in melds if pattern.match(info.text)]
    mark = _MARK.search(bao[index]) if len(bao) > index else None
    if mark:
        entry["baojia"] = mark.group()
    return entry


def base_points(fu: int, fanshu: int, rule: Mapping[str, Any]) -> int:
    """Basic points of a hand without yakuman: fu × 2^(han + 2), capped by the limit hands."""
    if fanshu >= 13 and rule["数え役満あり"]:
        return 8000
    if fanshu >= 11:
        return 6000
    if fanshu >= 8:
        return 4000
    if fanshu >= 6:
        return 3000
    base = fu << (2 + fanshu)
    if base > 2000 or (base == 1920 and rule["切り上げ満貫あり"]):
        return 2000  # mangan; with kiriage, 30 fu 4 han and 60 fu 3 han round up to it
    return base


def _defen_fast(
    fu: int, hupai: list[tuple[str, int | str]], rongpai: str | None, param: Mapping[str, Any], rule: Mapping[str, Any]
) -> dict[str, Any]:
    # get_defen for a hand without yakuman (hupai as (name, fanshu) pairs).
    fanshu = 0
    for _, f in hupai:
        fanshu += f  # type: ignore[operator]
    base = base_points(fu, fanshu, rule)
    menfeng = param["menfeng"]
    jicun = param["jicun"]
    chang = jicun["changbang"]
    lizhi = jicun["lizhibang"]
    fenpei = [0, 0, 0, 0]
    if rongpai:
        defen = -(-base * (6 if menfeng == 0 else 4) // 100) * 100
        fenpei[menfeng] = defen + chang * 300 + lizhi * 1000
        fenpei[(menfeng + MARK_OFFSET[rongpai[2]]) % 4] -= defen + chang * 300
    else:
        zhuangjia = -(-base * 2 // 100) * 100
        sanjia = -(-base // 100) * 100
        if menfeng == 0:
            defen = zhuangjia * 3
            fenpei = [defen + chang * 300 + lizhi * 1000] + [-(zhuangjia + chang * 100)] * 3
        else:
            defen = zhuangjia + sanjia * 2
            fenpei = [-(sanjia + chang * 100)] * 4
            fenpei[0] = -(zhuangjia + chang * 100)
            fenpei[menfeng] = defen + chang * 300 + lizhi * 1000
    return {
        "hupai": [{"name": name, "fanshu": f} for name, f in hupai],
        "fu": fu,
        "fanshu": fanshu,
        "damanguan": None,
        "defen": defen,
        "fenpei": fenpei,
    }


def _as_list(value: Any) -> list[str]:
    # JavaScript's [].concat(x): a list is copied, a single tile becomes a one-element list.
    return list(value) if isinstance(value, list | tuple) else [value]


def hule_param(param: Mapping[str, Any] | None = None, /, **kwargs: Any) -> dict[str, Any]:
    """The ``param`` for ``hule`` from flat options, as ``Majiang.Util.hule_param``.

    Options (``None`` or missing means the default): ``rule`` (``rule()``), ``zhuangfeng`` (0),
    ``menfeng`` (1), ``lizhi`` (0, 1 riichi, 2 double riichi), ``yifa``, ``qianggang``,
    ``lingshang`` (False), ``haidi`` (0, 1 haitei, 2 houtei), ``tianhu`` (0, 1 tenhou, 2 chiihou),
    ``baopai`` (a tile or a list; ``[]``), ``fubaopai`` (a tile or a list; ``None``),
    ``changbang``, ``lizhibang`` (0).
    """
    p = dict(param or {})
    p.update(kwargs)

    def get(key: str, default: Any) -> Any:
        value = p.get(key)
        return default if value is None else value

    baopai = p.get("baopai")
    fubaopai = p.get("fubaopai")
    return {
        "rule": make_rule() if p.get("rule") is None else p["rule"],
        "zhuangfeng": get("zhuangfeng", 0),
        "menfeng": get("menfeng", 1),
        "hupai": {
            "lizhi": get("lizhi", 0),
            "yifa": get("yifa", False),
            "qianggang": get("qianggang", False),
            "lingshang": get("lingshang", False),
            "haidi": get("haidi", 0),
            "tianhu": get("tianhu", 0),
        },
        "baopai": _as_list(baopai) if baopai or isinstance(baopai, list) else [],
        "fubaopai": _as_list(fubaopai) if fubaopai or isinstance(fubaopai, list) else None,
        "jicun": {
            "changbang": get("changbang", 0),
            "lizhibang": get("lizhibang", 0),
        },
    }
