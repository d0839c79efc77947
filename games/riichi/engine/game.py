"""The game flow: ``Majiang.Game`` (majiang-core 1.4.1, lib/game.js) as a resumable state machine.

Majiang's game sends a message to the four players (``call_players``), waits for their four
replies, then handles them (``reply_*``) and sends the next message. ``Game`` keeps that order
exactly, message for message, but does not call the players itself: after each message it stops
with ``status`` naming the message, and whoever drives it puts the replies in ``_reply`` and calls
``next()``. Two drivers exist:

- ``run(players)``: Majiang's ``do_sync``; every message gets a reply from each player callback at
  once (paifu replay, bot simulations);
- ``table.RiichiGame``: the platform, which collects the replies one action at a time.

Everything that happens is recorded in ``paipu`` (Majiang's paifu: ``title``, ``player``,
``qijia``, ``log``, ``defen``, ``point``, ``rank``), and each record is also handed to an optional
``listener(kind, data)`` (``'kaiju'``, each log record's key, ``'jieju'``) as it is made.

Replies are Majiang's: ``{'dapai': 'm1'}``, ``{'dapai': 'm1_*'}``, ``{'fulou': 'm1-23'}``,
``{'gang': 'm1111'}``, ``{'hule': '-'}``, ``{'daopai': '-'}`` (九種九牌 when answering a draw,
tenpai declaration at the exhaustive draw) or ``{}``. As in Majiang an invalid or missing reply
is ignored: the drawer then discards ``get_dapai()[-1]`` (the drawn tile when there is one), the
others pass. ``_reply`` is indexed by seat relative to the hand's dealer (Majiang indexes by player
id and maps with ``player_id``; the answers are the same).

Seats: ``player_id[l]`` is the player (index into ``player`` and ``defen``) sitting at ``l``
(0 = East = dealer this hand). Paifu records use ``l``; ``defen``/``rank``/``point`` use the id.
"""
# ruff: noqa: E741  (l: a seat counted from the hand's dealer, Majiang's and the paifu's name)

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from games.riichi.engine import allow
from games.riichi.engine.he import He
from games.riichi.engine.hule import hule as score_hule
from games.riichi.engine.rule import rule as make_rule
from games.riichi.engine.shan import Shan
from games.riichi.engine.shoupai import Shoupai
from games.riichi.engine.waits import is_tenpai, tenpai_waits

Reply = Mapping[str, Any]
Listener = Callable[[str, Any], None]
ShanFactory = Callable[["Game"], Shan]

_EMPTY: dict[str, Any] = {}
_ANKAN = re.compile(r"[mpsz][0-9]{4}\Z")
_GANG_PREFIX = re.compile(r"[mpsz][0-9]{4}")
_KAN_REPLY = re.compile(r"[mpsz]([0-9])\1\1\1")
_PON_REPLY = re.compile(r"[mpsz]([0-9])\1\1")
_MARK = re.compile(r"[+=\-]")
_ROUND_ONE_DECIMAL = re.compile(r"\.[0-9]\Z")
_FENGPAI = ("z1", "z2", "z3", "z4")
# '_+=-'[(4 + lunban - l) % 4]: the mark a tile from the seat on turn gets in l's hand.
_MARKS = "_+=-"
# '_-=+'.indexOf(mark): how far round the table the caller sits from the discarder.
_CALLER_OFFSET = {"-": 1, "=": 2, "+": 3}

# Statuses (Majiang's message types). Messages that need no decision: kaiju, qipai, hule,
# pingju; jieju ends the game.
KAIJU, QIPAI, ZIMO, DAPAI, FULOU, GANG, GANGZIMO, HULE, PINGJU, JIEJU = (
    "kaiju", "qipai", "zimo", "dapai", "fulou", "gang", "gangzimo", "hule", "pingju", "jieju",
)


def js_round(x: float) -> float:
    """JavaScript's ``Math.round``: to the nearest integer, halves towards +infinity."""
    r = math.floor(x)
    return float(r + 1 if x - r >= 0.5 else r)


def js_to_fixed(x: float, digits: int) -> str:
    """JavaScript's ``Number.prototype.toFixed``: the exact binary value rounded half up on the
    magnitude, a minus sign for any negative value (``(-0.4).toFixed(0) == '-0'``) but not -0."""
    magnitude = Decimal(abs(x)).quantize(Decimal(1).scaleb(-digits), rounding=ROUND_HALF_UP)
    return ("-" if x < 0 else "") + f"{magnitude:.{digits}f}"


def js_str(value: Any) -> str:
    """``String(value)`` for the numbers a rule may hold (20.0 -> '20')."""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


class Game:
    """One game (半荘) of four players, Majiang's flow and paifu."""

    def __init__(
        self,
        rule: Mapping[str, Any] | None = None,
        *,
        shan: ShanFactory,
        title: str = "",
        player: list[str] | None = None,
        listener: Listener | None = None,
    ) -> None:
        self._rule: dict[str, Any] = dict(rule) if rule is not None else make_rule()
        self._shan_factory = shan
        self._listener = listener

        self.title = title
        self.player = list(player) if player is not None else ["私", "下家", "対面", "上家"]
        self.qijia = 0
        self.zhuangfeng = 0
        self.jushu = 0
        self.changbang = 0
        self.lizhibang = 0
        self.defen = [self._rule["配給原点"]] * 4  # by player id
        self.shan: Shan | None = None
        self.shoupai: list[Shoupai] = []
        self.he: list[He] = []
        self.player_id = [0, 1, 2, 3]
        self.lunban = -1

        self.status: str | None = None
        self._reply: list[Reply] = [_EMPTY] * 4
        self.paipu: dict[str, Any] = {}
        self._log: list[dict[str, Any]] = []  # the current hand's records
        self._max_jushu = 0
        self.end_reason: str | None = None

        # Per-hand flow state (Majiang's names).
        self._diyizimo = True
        self._fengpai = False
        self._dapai: str | None = None
        self._gang: str | None = None
        self._lizhi = [0, 0, 0, 0]
        self._yifa: list[Any] = [0, 0, 0, 0]
        self._n_gang = [0, 0, 0, 0]
        self._neng_rong = [True, True, True, True]
        self._hule: list[int] = []
        self._hule_option: str | None = None
        self._no_game = False
        self._lianzhuang = False
        self._changbang = 0
        self._fenpei: list[int] | None = None
        # Waits of each seat's 13-tile hand (None: not tenpai, False: not yet computed). A seat's
        # hand only has 13 tiles between its own discard and its next draw or call, which is
        # exactly when the others' discards and added kans are checked against it.
        self._tingpai: list[Any] = [False] * 4
        self._n_message = 0  # messages sent this hand (qipai is 0)

    # -- accessors ---------------------------------------------------------------------------

    @property
    def rule(self) -> dict[str, Any]:
        return self._rule

    @property
    def is_over(self) -> bool:
        return self.status == JIEJU

    def seat_of(self, player: int) -> int:
        """The seat (0 = dealer) of player id ``player`` this hand."""
        return self.player_id.index(player)

    # -- messages ----------------------------------------------------------------------------

    def _add_paipu(self, kind: str, data: dict[str, Any]) -> None:
        self._log.append({kind: data})
        if self._listener is not None:
            self._listener(kind, data)

    def _call_players(self, status: str) -> None:
        self.status = status
        self._reply = [_EMPTY] * 4
        self._n_message += 1

    def next(self) -> None:
        """Handle the replies to the current message (Majiang's ``next``)."""
        status = self.status
        if status == ZIMO or status == GANGZIMO:
            self.reply_zimo()
        elif status == DAPAI:
            self.reply_dapai()
        elif status == FULOU:
            self.reply_fulou()
        elif status == GANG:
            self.reply_gang()
        elif status == QIPAI:
            self.zimo()
        elif status == HULE:
            self.reply_hule()
        elif status == PINGJU:
            self.reply_pingju()
        elif status == KAIJU:
            self.qipai()
        else:
            raise RuntimeError(f"the game is over (status {status})")

    def run(self, players: Callable[[Game], None], qijia: int = 0) -> dict[str, Any]:
        """Majiang's ``do_sync``: play the whole game. ``players(game)`` is called once per
        message that waits for replies and fills ``game._reply``. Returns the paifu."""
        self.kaiju(qijia)
        while self.status != JIEJU:
            if self.status in (ZIMO, DAPAI, FULOU, GANG, GANGZIMO):
                players(self)
            self.next()
        return self.paipu

    # -- Game -> players ---------------------------------------------------------------------

    def kaiju(self, qijia: int = 0) -> None:
        self.qijia = qijia
        rule = self._rule
        self._max_jushu = 0 if rule["場数"] == 0 else rule["場数"] * 4 - 1
        self.paipu = {
            "title": self.title,
            "player": self.player,
            "qijia": qijia,
            "log": [],
            "defen": self.defen[:],
            "point": [],
            "rank": [],
        }
        if self._listener is not None:
            self._listener(KAIJU, {"rule": rule, "title": self.title, "player": self.player, "qijia": qijia})
        self._call_players(KAIJU)

    def qipai(self, shan: Shan | None = None) -> None:
        self.shan = shan = shan if shan is not None else self._shan_factory(self)
        self.shoupai = []
        self.he = []
        for l in range(4):
            self.shoupai.append(Shoupai([shan.zimo() for _ in range(13)]))
            self.he.append(He())
            self.player_id[l] = (self.qijia + self.jushu + l) % 4
        self.lunban = -1

        self._diyizimo = True
        self._fengpai = self._rule["途中流局あり"]
        self._dapai = None
        self._gang = None
        self._lizhi = [0, 0, 0, 0]
        self._yifa = [0, 0, 0, 0]
        self._n_gang = [0, 0, 0, 0]
        self._neng_rong = [True, True, True, True]
        self._hule = []
        self._hule_option = None
        self._no_game = False
        self._lianzhuang = False
        self._changbang = self.changbang
        self._fenpei = None
        self._tingpai = [False] * 4

        self.paipu["defen"] = self.defen[:]
        self._log = []
        self.paipu["log"].append(self._log)
        self._n_message = -1
        self._add_paipu(QIPAI, {
            "zhuangfeng": self.zhuangfeng,
            "jushu": self.jushu,
            "changbang": self.changbang,
            "lizhibang": self.lizhibang,
            "defen": [self.defen[i] for i in self.player_id],
            "baopai": shan.baopai[0],
            "shoupai": [sp.to_string() for sp in self.shoupai],
        })
        self._call_players(QIPAI)

    def zimo(self) -> None:
        self.lunban = lunban = (self.lunban + 1) % 4
        assert self.shan is not None
        p = self.shan.zimo()
        self.shoupai[lunban].zimo(p)
        self._tingpai[lunban] = False
        self._add_paipu(ZIMO, {"l": lunban, "p": p})
        self._call_players(ZIMO)

    def dapai(self, dapai: str) -> None:
        lunban = self.lunban
        shoupai = self.shoupai[lunban]
        he = self.he[lunban]
        self._yifa[lunban] = 0
        if not shoupai._lizhi:
            self._neng_rong[lunban] = True
        shoupai.dapai(dapai)
        he.dapai(dapai)

        if self._diyizimo:
            if dapai[:2] not in _FENGPAI:
                self._fengpai = False
            if self._dapai and self._dapai[:2] != dapai[:2]:
                self._fengpai = False
        else:
            self._fengpai = False

        if dapai[-1] == "*":
            self._lizhi[lunban] = 2 if self._diyizimo else 1
            self._yifa[lunban] = self._rule["一発あり"]

        waits = tenpai_waits(shoupai) if is_tenpai(shoupai) else None
        self._tingpai[lunban] = waits
        if waits is not None and any(he.find(p) for p in waits):
            self._neng_rong[lunban] = False

        self._dapai = dapai
        self._add_paipu(DAPAI, {"l": lunban, "p": dapai})
        if self._gang:
            self.kaigang()
        self._call_players(DAPAI)

    def fulou(self, fulou: str) -> None:
        self._diyizimo = False
        self._yifa = [0, 0, 0, 0]
        self.he[self.lunban].fulou(fulou)
        mark = _MARK.search(fulou)
        assert mark is not None
        self.lunban = lunban = (self.lunban + _CALLER_OFFSET[mark.group()]) % 4
        self.shoupai[lunban].fulou(fulou)
        self._tingpai[lunban] = False
        if _GANG_PREFIX.match(fulou):
            self._gang = fulou
            self._n_gang[lunban] += 1
        self._add_paipu(FULOU, {"l": lunban, "m": fulou})
        self._call_players(FULOU)

    def gang(self, gang: str) -> None:
        lunban = self.lunban
        self.shoupai[lunban].gang(gang)
        self._tingpai[lunban] = False
        self._add_paipu(GANG, {"l": lunban, "m": gang})
        if self._gang:
            self.kaigang()
        self._gang = gang
        self._n_gang[lunban] += 1
        self._call_players(GANG)

    def gangzimo(self) -> None:
        lunban = self.lunban
        self._diyizimo = False
        self._yifa = [0, 0, 0, 0]
        assert self.shan is not None and self._gang is not None
        p = self.shan.gangzimo()
        self.shoupai[lunban].zimo(p)
        self._tingpai[lunban] = False
        self._add_paipu(GANGZIMO, {"l": lunban, "p": p})
        if not self._rule["カンドラ後乗せ"] or _ANKAN.match(self._gang):
            self.kaigang()
        self._call_players(GANGZIMO)

    def kaigang(self) -> None:
        self._gang = None
        if not self._rule["カンドラあり"]:
            return
        assert self.shan is not None
        self.shan.kaigang()
        self._add_paipu("kaigang", {"baopai": self.shan.baopai[-1]})

    def hule(self) -> None:
        shan = self.shan
        assert shan is not None
        if self.status != HULE:
            shan.close()
            self._hule_option = (
                "qianggang" if self.status == GANG else "lingshang" if self.status == GANGZIMO else None
            )
        lunban = self.lunban
        menfeng = self._hule.pop(0) if self._hule else lunban
        if menfeng == lunban:
            rongpai = None
        else:
            if self._hule_option == "qianggang":
                assert self._gang is not None
                tile = self._gang[0] + self._gang[-1]
            else:
                assert self._dapai is not None
                tile = self._dapai[:2]
            rongpai = tile + _MARKS[(4 + lunban - menfeng) % 4]
        shoupai = self.shoupai[menfeng].clone()
        fubaopai = shan.fubaopai if shoupai._lizhi else None
        rule = self._rule
        param = {
            "rule": rule,
            "zhuangfeng": self.zhuangfeng,
            "menfeng": menfeng,
            "hupai": {
                "lizhi": self._lizhi[menfeng],
                "yifa": self._yifa[menfeng],
                "qianggang": self._hule_option == "qianggang",
                "lingshang": self._hule_option == "lingshang",
                "haidi": 0 if shan.paishu > 0 or self._hule_option == "lingshang" else 1 if not rongpai else 2,
                "tianhu": 0 if not (self._diyizimo and not rongpai) else 1 if menfeng == 0 else 2,
            },
            "baopai": shan.baopai,
            "fubaopai": fubaopai,
            "jicun": {"changbang": self.changbang, "lizhibang": self.lizhibang},
        }
        result = score_hule(shoupai, rongpai, param)
        assert result is not None and "hupai" in result, "a win was allowed that does not score"

        if rule["連荘方式"] > 0 and menfeng == 0:
            self._lianzhuang = True
        if rule["場数"] == 0:
            self._lianzhuang = False
        self._fenpei = result["fenpei"]

        record: dict[str, Any] = {
            "l": menfeng,
            "shoupai": shoupai.zimo(rongpai).to_string() if rongpai else shoupai.to_string(),
            "baojia": lunban if rongpai else None,
            "fubaopai": fubaopai,
        }
        for key in ("fu", "fanshu", "damanguan"):
            if result.get(key):
                record[key] = result[key]
        record["defen"] = result["defen"]
        record["hupai"] = result["hupai"]
        record["fenpei"] = result["fenpei"]
        self._add_paipu(HULE, record)
        self._call_players(HULE)

    def pingju(self, name: str = "", shoupai: list[str] | None = None) -> None:
        rule = self._rule
        shoupai = shoupai if shoupai is not None else ["", "", "", ""]
        fenpei = [0, 0, 0, 0]

        if not name:
            n_tingpai = 0
            for l in range(4):
                sp = self.shoupai[l]
                if rule["ノーテン宣言あり"] and not shoupai[l] and not sp._lizhi:
                    continue
                if not rule["ノーテン罰あり"] and (rule["連荘方式"] != 2 or l != 0) and not sp._lizhi:
                    shoupai[l] = ""
                elif is_tenpai(sp) and tenpai_waits(sp):
                    n_tingpai += 1
                    shoupai[l] = sp.to_string()
                    if rule["連荘方式"] == 2 and l == 0:
                        self._lianzhuang = True
                else:
                    shoupai[l] = ""
            if rule["流し満貫あり"]:
                for l in range(4):
                    all_yaojiu = True
                    for p in self.he[l]._pai:
                        if p[-1] in "+=-":
                            all_yaojiu = False
                            break
                        if p[0] == "z" or p[1] in "19":
                            continue
                        all_yaojiu = False
                        break
                    if all_yaojiu:
                        name = "流し満貫"
                        for i in range(4):
                            if l == 0:
                                fenpei[i] += 12000 if i == l else -4000
                            else:
                                fenpei[i] += 8000 if i == l else -4000 if i == 0 else -2000
            if not name:
                name = "荒牌平局"
                if rule["ノーテン罰あり"] and 0 < n_tingpai < 4:
                    for l in range(4):
                        fenpei[l] = 3000 // n_tingpai if shoupai[l] else -3000 // (4 - n_tingpai)
            if rule["連荘方式"] == 3:
                self._lianzhuang = True
        else:
            self._no_game = True
            self._lianzhuang = True

        if rule["場数"] == 0:
            self._lianzhuang = True
        self._fenpei = fenpei
        self._add_paipu(PINGJU, {"name": name, "shoupai": shoupai, "fenpei": fenpei})
        self._call_players(PINGJU)

    def last(self) -> None:
        rule = self._rule
        self.lunban = -1
        if not self._lianzhuang:
            self.jushu += 1
            self.zhuangfeng += self.jushu // 4
            self.jushu = self.jushu % 4

        jieju = False
        reason = None
        guanjun = -1
        defen = self.defen
        for i in range(4):
            pid = (self.qijia + i) % 4
            if defen[pid] < 0 and rule["トビ終了あり"]:
                jieju = True
                reason = "tobi"
            if defen[pid] >= 30000 and (guanjun < 0 or defen[pid] > defen[guanjun]):
                guanjun = pid

        sum_jushu = self.zhuangfeng * 4 + self.jushu
        if 15 < sum_jushu:
            jieju = True
        elif (rule["場数"] + 1) * 4 - 1 < sum_jushu:
            jieju = True
        elif self._max_jushu < sum_jushu:
            if rule["延長戦方式"] == 0 or rule["場数"] == 0 or guanjun >= 0:
                jieju = True
            else:
                self._max_jushu += 4 if rule["延長戦方式"] == 3 else 1 if rule["延長戦方式"] == 2 else 0
        elif self._max_jushu == sum_jushu:
            if rule["オーラス止めあり"] and guanjun == self.player_id[0] and self._lianzhuang and not self._no_game:
                jieju = True
                reason = reason or "dealer stops"

        if jieju:
            # Why it ended (not part of Majiang's paifu): a score below zero, the dealer
            # stopping in the last hand as leader, or the hands ran out (extra hands included).
            self.end_reason = reason or "last hand"
            self.jieju()
        else:
            self.qipai()

    def jieju(self) -> None:
        defen = self.defen
        paiming: list[int] = []
        for i in range(4):
            pid = (self.qijia + i) % 4
            for j in range(4):
                if j == len(paiming) or defen[pid] > defen[paiming[j]]:
                    paiming.insert(j, pid)
                    break
        defen[paiming[0]] += self.lizhibang * 1000
        self.paipu["defen"] = defen

        rank = [0, 0, 0, 0]
        for i in range(4):
            rank[paiming[i]] = i + 1
        self.paipu["rank"] = rank

        shunweidian = [js_str(p) for p in self._rule["順位点"]]
        rounded = not any(_ROUND_ONE_DECIMAL.search(p) for p in shunweidian)
        point = [0.0, 0.0, 0.0, 0.0]
        for i in range(1, 4):
            pid = paiming[i]
            point[pid] = (defen[pid] - 30000) / 1000 + float(shunweidian[i])
            if rounded:
                point[pid] = js_round(point[pid])
            point[paiming[0]] -= point[pid]
        self.paipu["point"] = [js_to_fixed(p, 0 if rounded else 1) for p in point]

        if self._listener is not None:
            self._listener(JIEJU, self.paipu)
        self.status = JIEJU
        self._reply = [_EMPTY] * 4

    # -- players -> Game ---------------------------------------------------------------------

    def reply_zimo(self) -> None:
        lunban = self.lunban
        reply = self._reply[lunban]
        if reply.get("daopai"):
            if self.allow_pingju():
                shoupai = ["", "", "", ""]
                shoupai[lunban] = self.shoupai[lunban].to_string()
                return self.pingju("九種九牌", shoupai)
        elif reply.get("hule"):
            if self.allow_hule():
                return self.hule()
        elif reply.get("gang"):
            if reply["gang"] in (self.get_gang_mianzi() or ()):
                return self.gang(reply["gang"])
        elif reply.get("dapai"):
            answer = reply["dapai"]
            if isinstance(answer, str):
                dapai = answer[:-1] if answer[-1:] == "*" else answer
                if self.dapai_allowed(dapai):
                    if answer[-1] == "*" and self.allow_lizhi(dapai):
                        return self.dapai(answer)
                    return self.dapai(dapai)
        dapai_list = self.get_dapai()
        assert dapai_list
        self.dapai(dapai_list[-1])

    def reply_dapai(self) -> None:
        rule = self._rule
        lunban = self.lunban
        dapai = self._dapai
        assert dapai is not None and self.shan is not None
        replies = self._reply
        for i in (1, 2, 3):
            l = (lunban + i) % 4
            if replies[l].get("hule") and self.allow_hule(l):
                if rule["最大同時和了数"] == 1 and self._hule:
                    continue
                self._hule.append(l)
            elif self._completes(l, dapai):
                self._neng_rong[l] = False
        if len(self._hule) == 3 and rule["最大同時和了数"] == 2:
            shoupai = ["", "", "", ""]
            for l in self._hule:
                shoupai[l] = self.shoupai[l].to_string()
            return self.pingju("三家和", shoupai)
        if self._hule:
            return self.hule()

        if dapai[-1] == "*":
            self.defen[self.player_id[lunban]] -= 1000
            self.lizhibang += 1
            if sum(1 for x in self._lizhi if x) == 4 and rule["途中流局あり"]:
                return self.pingju("四家立直", [sp.to_string() for sp in self.shoupai])

        if self._diyizimo and lunban == 3:
            self._diyizimo = False
            if self._fengpai:
                return self.pingju("四風連打")

        if sum(self._n_gang) == 4:
            if max(self._n_gang) < 4 and rule["途中流局あり"]:
                return self.pingju("四開槓")

        if not self.shan.paishu:
            shoupai = ["", "", "", ""]
            for l in range(4):
                daopai = replies[l].get("daopai")
                if daopai:
                    shoupai[l] = daopai
            return self.pingju("", shoupai)

        for i in (1, 2, 3):
            l = (lunban + i) % 4
            fulou = replies[l].get("fulou")
            if fulou and isinstance(fulou, str):
                m = fulou.replace("0", "5")
                if _KAN_REPLY.match(m):
                    if fulou in (self.get_gang_mianzi(l) or ()):
                        return self.fulou(fulou)
                elif _PON_REPLY.match(m):
                    if fulou in (self.get_peng_mianzi(l) or ()):
                        return self.fulou(fulou)
        l = (lunban + 1) % 4
        fulou = replies[l].get("fulou")
        if fulou and isinstance(fulou, str):
            if fulou in (self.get_chi_mianzi(l) or ()):
                return self.fulou(fulou)
        self.zimo()

    def reply_fulou(self) -> None:
        if self._gang:
            return self.gangzimo()
        dapai = self._reply[self.lunban].get("dapai")
        dapai_list = self.get_dapai()
        assert dapai_list
        if dapai and dapai in dapai_list:
            return self.dapai(dapai)
        self.dapai(dapai_list[-1])

    def reply_gang(self) -> None:
        gang = self._gang
        assert gang is not None
        if _ANKAN.match(gang):
            return self.gangzimo()
        rule = self._rule
        lunban = self.lunban
        replies = self._reply
        p = gang[0] + gang[-1]
        for i in (1, 2, 3):
            l = (lunban + i) % 4
            if replies[l].get("hule") and self.allow_hule(l):
                if rule["最大同時和了数"] == 1 and self._hule:
                    continue
                self._hule.append(l)
            elif self._completes(l, p):
                self._neng_rong[l] = False
        if self._hule:
            return self.hule()
        self.gangzimo()

    def reply_hule(self) -> None:
        assert self._fenpei is not None
        for l in range(4):
            self.defen[self.player_id[l]] += self._fenpei[l]
        self.changbang = 0
        self.lizhibang = 0
        if self._hule:
            return self.hule()
        if self._lianzhuang:
            self.changbang = self._changbang + 1
        self.last()

    def reply_pingju(self) -> None:
        assert self._fenpei is not None
        for l in range(4):
            self.defen[self.player_id[l]] += self._fenpei[l]
        self.changbang += 1
        self.last()

    # -- what the players may do (Majiang's instance helpers) -----------------------------------

    def waits(self, l: int) -> list[str] | None:
        """The waits of seat ``l``'s 13-tile hand, ``None`` if it is not tenpai."""
        waits = self._tingpai[l]
        if waits is False:
            sp = self.shoupai[l]
            waits = tenpai_waits(sp) if is_tenpai(sp) else None
            self._tingpai[l] = waits
        return waits

    def _completes(self, l: int, p: str) -> bool:
        """Would ``p`` complete seat ``l``'s 13-tile hand? (Majiang: ``xiangting(hand + p) == -1``;
        only a tenpai hand can be completed by one tile, and then exactly by its waits.)"""
        waits = self.waits(l)
        if not waits:
            return False
        n = p[1]
        return (p[0] + (n if n != "0" else "5")) in waits

    def _mark(self, l: int) -> str:
        return _MARKS[(4 + self.lunban - l) % 4]

    def get_dapai(self) -> list[str] | None:
        return allow.get_dapai(self._rule, self.shoupai[self.lunban])

    def dapai_allowed(self, p: str) -> bool:
        """``p in get_dapai()``, answered directly for the usual case of a hand that has just
        drawn (no kuikae restriction applies then at any level)."""
        sp = self.shoupai[self.lunban]
        zimo = sp._zimo
        if zimo is None or len(zimo) != 2 or not isinstance(p, str):
            return p in (self.get_dapai() or ())
        if len(p) == 3:
            return p[2] == "_" and p[:2] == zimo
        if len(p) != 2 or sp._lizhi:
            return False
        s = p[0]
        bingpai = sp._bingpai.get(s)
        if bingpai is None or s == "_" or not "0" <= p[1] <= "9":
            return False
        n = int(p[1])
        if s == "z":
            if not 1 <= n <= 7:
                return False
        elif n == 0 or n == 5:
            kind = s + "5"
            count = bingpai[5]
            if count == 0 or (kind == zimo and count == 1):
                return False
            if n == 0:
                return (bingpai[0] > 0 and p != zimo) or bingpai[0] > 1
            return bingpai[0] < count
        count = bingpai[n]
        return count > 0 and not (p == zimo and count == 1)

    def get_chi_mianzi(self, l: int) -> list[str] | None:
        assert self._dapai is not None and self.shan is not None
        return allow.get_chi_mianzi(self._rule, self.shoupai[l], self._dapai + self._mark(l), self.shan.paishu)

    def get_peng_mianzi(self, l: int) -> list[str] | None:
        assert self._dapai is not None and self.shan is not None
        return allow.get_peng_mianzi(self._rule, self.shoupai[l], self._dapai + self._mark(l), self.shan.paishu)

    def get_gang_mianzi(self, l: int | None = None) -> list[str] | None:
        assert self.shan is not None
        n_gang = sum(self._n_gang)
        if l is None:
            return allow.get_gang_mianzi(self._rule, self.shoupai[self.lunban], None, self.shan.paishu, n_gang)
        assert self._dapai is not None
        return allow.get_gang_mianzi(
            self._rule, self.shoupai[l], self._dapai + self._mark(l), self.shan.paishu, n_gang
        )

    def allow_lizhi(self, p: str | None = None) -> bool | list[str]:
        assert self.shan is not None
        lunban = self.lunban
        return allow.allow_lizhi(
            self._rule, self.shoupai[lunban], p, self.shan.paishu, self.defen[self.player_id[lunban]]
        )

    def ron_tile(self, l: int) -> str:
        """The tile seat ``l`` would win on now, with its mark (a discard or an added kan)."""
        if self.status == GANG:
            assert self._gang is not None
            tile = self._gang[0] + self._gang[-1]
        else:
            assert self._dapai is not None
            tile = self._dapai
        return tile + self._mark(l)

    def allow_hule(self, l: int | None = None) -> bool:
        assert self.shan is not None
        if l is None:
            sp = self.shoupai[self.lunban]
            hupai = sp._lizhi or self.status == GANGZIMO or self.shan.paishu == 0
            return allow.allow_hule(self._rule, sp, None, self.zhuangfeng, self.lunban, hupai)
        sp = self.shoupai[l]
        hupai = sp._lizhi or self.status == GANG or self.shan.paishu == 0
        return allow.allow_hule(
            self._rule, sp, self.ron_tile(l), self.zhuangfeng, l, hupai, self._neng_rong[l]
        )

    def allow_pingju(self) -> bool:
        return allow.allow_pingju(self._rule, self.shoupai[self.lunban], self._diyizimo)
