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
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from .rule import rule as make_rule
from .shoupai import Shoupai
from .tile import MARK_OFFSET, zhenbaopai

# -- readings (hule_mianzi) ---------------------------------------------------------------------

# Readings of one suit depend only on its counts: cached, and emptied past a bound so a
# long-running server cannot grow it without limit.
_suit_readings: dict[tuple[str, tuple[int, ...]], tuple[tuple[str, ...], ...]] = {}
_SUIT_READINGS_LIMIT = 50_000


def _mianzi(s: str, bingpai: list[int], n: int = 1) -> list[list[str]]:
    # Every way to split one suit into runs and triplets; runs are tried before triplets.
    if n > 9:
        return [[]]
    if bingpai[n] == 0:
        return _mianzi(s, bingpai, n + 1)
    shunzi: list[list[str]] = []
    if n <= 7 and bingpai[n] > 0 and bingpai[n + 1] > 0 and bingpai[n + 2] > 0:
        bingpai[n] -= 1
        bingpai[n + 1] -= 1
        bingpai[n + 2] -= 1
        run = f"{s}{n}{n + 1}{n + 2}"
        shunzi = [[run, *rest] for rest in _mianzi(s, bingpai, n)]
        bingpai[n] += 1
        bingpai[n + 1] += 1
        bingpai[n + 2] += 1
    kezi: list[list[str]] = []
    if bingpai[n] == 3:
        bingpai[n] -= 3
        triplet = s + str(n) * 3
        kezi = [[triplet, *rest] for rest in _mianzi(s, bingpai, n + 1)]
        bingpai[n] += 3
    return shunzi + kezi


def _suit_mianzi(s: str, bingpai: list[int]) -> tuple[tuple[str, ...], ...]:
    key = (s, tuple(bingpai[1:10]))
    found = _suit_readings.get(key)
    if found is None:
        if len(_suit_readings) >= _SUIT_READINGS_LIMIT:
            _suit_readings.clear()
        found = _suit_readings[key] = tuple(tuple(r) for r in _mianzi(s, [0, *key[1]]))
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

_CALLED = re.compile(r"[+=\-](?!!)")  # a call mark not on the winning tile: an open meld
_RON = re.compile(r"[+=\-]!")  # the winning tile came from another seat
_DANQI = re.compile(r"[mpsz]([0-9])\1[+=\-_]!")  # pair wait
_KEZI = re.compile(r"[mpsz]([0-9])\1\1")
_ANKEZI = re.compile(r"[mpsz]([0-9])\1\1(?:\1|_!)?")  # concealed: plain, ankan, or tsumo-completed
_GANGZI = re.compile(r"[mpsz]([0-9])\1\1.*\1")
_KANZHANG = re.compile(r"[mps][0-9][0-9][+=\-_]![0-9]")  # closed wait
_BIANZHANG = re.compile(r"[mps](?:123[+=\-_]!|7[+=\-_]!89)")  # edge wait
_YAOJIU_CHARS = re.compile(r"[z19]")


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
        if _CALLED.search(m):
            hudi.menqian = False
        if _RON.search(m):
            hudi.zimo = False
        if n_mianzi == 1:
            continue
        if _DANQI.fullmatch(m):
            hudi.danqi = True
        if n_mianzi == 13:
            continue
        is_yaojiu = _YAOJIU_CHARS.search(m) is not None
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
        elif _KEZI.match(m):
            hudi.n_kezi += 1
            fu = 2
            if is_yaojiu:
                fu *= 2
            if _ANKEZI.fullmatch(m):
                fu *= 2
                hudi.n_ankezi += 1
            if _GANGZI.match(m):
                fu *= 4
                hudi.n_gangzi += 1
            hudi.fu += fu
            hudi.kezi[m[0]][int(m[1])] += 1
        else:
            hudi.n_shunzi += 1
            if _KANZHANG.fullmatch(m):
                hudi.fu += 2
            if _BIANZHANG.fullmatch(m):
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
_LVYISE_BAD_S = re.compile(r"s.*[1579]")


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
    if not any(m[0] in "mp" or (m[0] == "z" and m[1:2] != "6") or _LVYISE_BAD_S.match(m) for m in mianzi):
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
        if fanshu >= 13 and rule["数え役満あり"]:
            base = 8000
        elif fanshu >= 11:
            base = 6000
        elif fanshu >= 8:
            base = 4000
        elif fanshu >= 6:
            base = 3000
        elif rule["切り上げ満貫あり"] and fu << (2 + fanshu) == 1920:
            base = 2000  # 30 fu 4 han / 60 fu 3 han rounded up to mangan
        else:
            base = min(fu << (2 + fanshu), 2000)

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

_RONGPAI = re.compile(r"[+=\-]\Z")


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
    """
    if rongpai:
        if not _RONGPAI.search(rongpai):
            raise ValueError(f"ron tile {rongpai!r} has no direction mark")
        rongpai = rongpai[:2] + rongpai[-1]
    if "rule" not in param:
        param = {**param, "rule": make_rule()}
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
