"""A Majiang player that knows only what its frames told it: the test peer of /ws/majiang/.

``FramePlayer`` keeps its own table from seed 001 frames, as Majiang.Player and Majiang.Board do
(its hand, every river, meld and riichi, the dora indicators, the tiles left, its furiten), works
out what it may do with the engine's own pure rule functions (``allow.py``: the same ones a
client written against majiang-core would call) and decides with the house bot
(``games.riichi.bots.house.choose``). It never sees the platform's ``view`` or ``legal``: a game it
finishes without a refusal shows the frames are enough to play.
"""
# ruff: noqa: E741  (l: a seat counted from the hand's dealer, Majiang's and the paifu's name)

from __future__ import annotations

import random
from typing import Any

from games.riichi.bots import house as bot
from games.riichi.engine import allow
from games.riichi.engine.shoupai import Shoupai
from games.riichi.engine.tile import MARK_OFFSET
from games.riichi.engine.xiangting import tingpai, xiangting

# '_+=-'[(4 + discarder - l) % 4]: the mark a discard gets in l's hand (Majiang's Player).
_MARKS = "_+=-"
WALL_AFTER_DEAL = 136 - 14 - 4 * 13


def _kind(p: str) -> str:
    return p[0] + ("5" if p[1] == "0" else p[1])


class FramePlayer:
    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)
        self.id: int | None = None
        self.rule: dict[str, Any] = {}
        self.qijia = 0
        self.frames: list[dict[str, Any]] = []
        self.replies: list[dict[str, Any]] = []
        self.hands = 0
        self.jieju: dict[str, Any] | None = None
        self.menfeng = 0
        self.asked: int | None = None  # the seq of the last question taken in

    # -- frames in -------------------------------------------------------------------------------

    def on_frame(self, frame: dict[str, Any]) -> dict[str, Any] | None:
        """Take a game frame in; the reply if it asked for one (it carries ``seq``). A question
        asked again (after a refused reply: the same frame, the same ``seq``) is not news: the
        player's table already holds it, and it answers nothing new."""
        if "seq" in frame and frame["seq"] == self.asked:
            return None
        self.frames.append(frame)
        kind, data = frame["type"], frame["data"]
        reply = None
        if kind == "kaiju":  # the start, or the seat taken up again: the hand follows from its deal
            self.id, self.rule, self.qijia = data["id"], data["rule"], data["qijia"]
            self.asked = None
        elif kind == "qipai":
            self._qipai(data)
        elif kind in ("zimo", "gangzimo"):
            self._settle_lizhi()
            self.paishu -= 1
            if kind == "gangzimo":
                self.n_gang += 1
            if data["l"] == self.menfeng:
                assert data["p"], frame
                self.shoupai.zimo(data["p"])
            else:
                assert data["p"] == "", frame  # nobody else's draw is ever shown
        elif kind == "dapai":
            reply = self._dapai(frame)
        elif kind == "fulou":
            self._settle_lizhi()
            l, m = data["l"], data["m"]
            mark = next(c for c in m if c in "+=-")
            self.he[(l + MARK_OFFSET[mark]) % 4][-1] += mark
            self.fulou[l].append(m)
            if l == self.menfeng:
                self.shoupai.fulou(m)
            self.diyizimo = False
        elif kind == "gang":
            reply = self._gang(frame)
        elif kind == "kaigang":
            self.baopai.append(data["baopai"])
        elif kind == "jieju":
            self.jieju = data
        if "seq" in frame:
            self.asked = frame["seq"]
            if reply is None:
                reply = self._decide(frame)
            reply = {**reply, "seq": frame["seq"]}
            self.replies.append(reply)
        return reply

    def _qipai(self, data: dict[str, Any]) -> None:
        self.hands += 1
        self.zhuangfeng, self.jushu = data["zhuangfeng"], data["jushu"]
        self.menfeng = (self.id - self.qijia - data["jushu"]) % 4
        mine = data["shoupai"][self.menfeng]
        assert mine and all(hand == "" for l, hand in enumerate(data["shoupai"]) if l != self.menfeng), data
        self.shoupai = Shoupai.from_string(mine)
        self.defen = list(data["defen"])  # by seat from the dealer, as qipai gives them
        self.baopai = [data["baopai"]]
        self.paishu = WALL_AFTER_DEAL
        self.he: list[list[str]] = [[], [], [], []]
        self.fulou: list[list[str]] = [[], [], [], []]
        self.lizhi = [False] * 4
        self.n_gang = 0
        self.diyizimo = True
        self.neng_rong = True
        self.lizhi_pending: int | None = None

    def _settle_lizhi(self) -> None:
        # A riichi discard that nobody ronned puts its stick down (Majiang's reply_dapai).
        if self.lizhi_pending is not None:
            self.defen[self.lizhi_pending] -= 1000
            self.lizhi_pending = None

    def _dapai(self, frame: dict[str, Any]) -> dict[str, Any] | None:
        l, p = frame["data"]["l"], frame["data"]["p"]
        if l == self.menfeng:
            if not self.shoupai.lizhi:
                self.neng_rong = True
            self.shoupai.dapai(p)
        self.he[l].append(p)
        if p.endswith("*"):
            self.lizhi[l] = True
            self.lizhi_pending = l
        reply = self._decide(frame) if "seq" in frame else None
        waits = self._waits()
        if l == self.menfeng:
            self.diyizimo = False
            if any(_kind(q) in waits for q in self.he[l]):
                self.neng_rong = False
        elif _kind(p) in waits:
            self.neng_rong = False  # a winning tile passed (Majiang's Player, after its answer)
        return reply

    def _gang(self, frame: dict[str, Any]) -> dict[str, Any] | None:
        l, m = frame["data"]["l"], frame["data"]["m"]
        if l == self.menfeng:
            self.shoupai.gang(m)
        if len(m) > 5:  # kakan: the pon becomes the kan
            self.fulou[l] = [m if f == m[:-1] else f for f in self.fulou[l]]
        else:
            self.fulou[l].append(m)
        self.diyizimo = False
        reply = self._decide(frame) if "seq" in frame else None
        if l != self.menfeng and len(m) > 5 and (m[0] + m[-1]).replace("0", "5") in self._waits():
            self.neng_rong = False
        return reply

    def _waits(self) -> set[str]:
        sp = self.shoupai
        if sp._zimo is not None or xiangting(sp) != 0:
            return set()
        return set(tingpai(sp) or [])

    # -- decisions ------------------------------------------------------------------------------

    def _decide(self, frame: dict[str, Any]) -> dict[str, Any]:
        action, params = bot.choose(self._view(), self._legal(frame), self.rng)
        if action == "pass":
            return {"type": "", "data": None}
        if action in ("dapai", "fulou", "gang"):
            return {"type": action, "data": params[0]}
        if action == "pingju":
            return {"type": "pingju", "data": None}
        return {"type": action, "data": "-"}  # hule, daopai

    def _legal(self, frame: dict[str, Any]) -> list[dict[str, Any]]:
        rule, sp, kind, data = self.rule, self.shoupai, frame["type"], frame["data"]
        legal: list[dict[str, Any]] = []
        if kind in ("zimo", "gangzimo"):
            legal += [{"type": "dapai", "params": [p]} for p in allow.get_dapai(rule, sp) or []]
            lizhi = allow.allow_lizhi(rule, sp, None, self.paishu, self.defen[self.menfeng]) or []
            legal += [{"type": "dapai", "params": [p + "*"], "lizhi": True} for p in lizhi]
            n_gang = self.n_gang
            legal += [{"type": "gang", "params": [m]}
                      for m in allow.get_gang_mianzi(rule, sp, None, self.paishu, n_gang) or []]
            hupai = sp.lizhi or kind == "gangzimo" or self.paishu == 0
            if allow.allow_hule(rule, sp, None, self.zhuangfeng, self.menfeng, hupai):
                legal.append({"type": "hule", "params": []})
            if allow.allow_pingju(rule, sp, self.diyizimo):
                legal.append({"type": "pingju", "params": []})
        elif kind == "fulou":
            legal += [{"type": "dapai", "params": [p]} for p in allow.get_dapai(rule, sp) or []]
        elif kind == "dapai":
            l = data["l"]
            if l != self.menfeng:
                tile = data["p"] + _MARKS[(4 + l - self.menfeng) % 4]
                hupai = sp.lizhi or self.paishu == 0
                if allow.allow_hule(rule, sp, tile, self.zhuangfeng, self.menfeng, hupai, self.neng_rong):
                    legal.append({"type": "hule", "params": []})
                melds = []
                if self.menfeng == (l + 1) % 4:
                    melds += allow.get_chi_mianzi(rule, sp, tile, self.paishu) or []
                melds += allow.get_peng_mianzi(rule, sp, tile, self.paishu) or []
                melds += allow.get_gang_mianzi(rule, sp, tile, self.paishu, self.n_gang) or []
                legal += [{"type": "fulou", "params": [m]} for m in melds]
            if allow.allow_no_daopai(rule, sp, self.paishu):
                legal.append({"type": "daopai", "params": []})
        elif kind == "gang":
            m = data["m"]
            tile = m[0] + m[-1] + _MARKS[(4 + data["l"] - self.menfeng) % 4]
            if allow.allow_hule(rule, sp, tile, self.zhuangfeng, self.menfeng, True, self.neng_rong):
                legal.append({"type": "hule", "params": []})
        legal.append({"type": "pass", "params": []})
        return legal

    def _view(self) -> dict[str, Any]:
        seats = [{"seat": (self.qijia + self.jushu + l) % 4, "he": self.he[l], "fulou": self.fulou[l],
                  "lizhi": self.lizhi[l]} for l in range(4)]
        return {"rule": self.rule, "zhuangfeng": self.zhuangfeng, "seats": seats, "baopai": self.baopai,
                "me": {"seat": self.id, "menfeng": self.menfeng, "shoupai": str(self.shoupai)}}
