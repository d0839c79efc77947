"""One seat's mjai view of a riichi game (docs/protocols/mjai.md): pure, no Django.

``MjaiSeat`` is fed the seat's seed 001 frames (the ones ``/ws/majiang/`` sends, already masked
for that seat, so mjai can never show more than they do) and returns the mjai events, one JSON
object each, as gimite's match server (mjsonp, protocol version 3) sends them to that seat.
``question`` says what a frame asks the seat (an ``Ask``: which event asks, which mjai actions are
legal) and ``reply`` turns the client's mjai action into the seed 001 reply, or refuses it with a
reason for mjai's ``{"type": "error", "message": ...}``.

How mjai's rules and Majiang's meet (every one is in the doc too):

- **Seats.** mjai's ``id``/``actor``/``target``/``oya`` count from the first dealer (起家), as the
  project's mjai export does: ``(platform seat - qijia) % 4``; a frame's ``l`` (from the hand's
  dealer) is ``(l + jushu) % 4``.
- **Tiles.** Majiang ``m1`` is ``1m``; a red five ``m0`` is ``5mr``, a different tile from ``5m``
  in both directions: a bot names the copy it discards or calls with, and a name is never
  "corrected" to the other copy (a red five is a choice in mjai as in Majiang). Honours ``z1..z7``
  are ``E S W N P F C``. A hand's tiles are listed by kind, a red five after the plain ones (the
  export's order).
- **tsumogiri** is Majiang's ``_``: the discard is the tile just drawn. Events carry what the frame
  says. An answer's ``tsumogiri: true`` asks for the drawn tile and ``false`` for a copy from the
  hand (gimite's check); after a call it must be false; a missing ``tsumogiri`` takes a copy from the
  hand when there is one, else the drawn tile (mjai.app's clients always send it; the leniency only
  spares a bot that leaves it out).
- **Riichi** is one reply in Majiang (``dapai m1*``) and two steps in mjai: the seat answers its
  draw with ``reach``; ``reply`` returns a new ``Ask`` whose ``event`` (``{"type": "reach"}``) the
  transport sends to that seat alone, and the seat answers it with the ``dahai``, which becomes the
  riichi discard. The others see ``reach`` just before that ``dahai``, when it is played; the
  declarer is not sent it twice. ``reach_accepted`` (with ``deltas`` and ``scores``) comes just
  before the next ``tsumo`` or call, so a riichi discard that is won on, or that ends the hand
  (四家立直), is never accepted: Majiang takes no stick then.
- **Kuikae, furiten, yaku, kans in riichi, the four-kan limit** are Majiang's rules under the
  table's preset: whatever the engine's legal list allows is legal, and nothing else. Majiang's
  default forbids kuikae of both kinds, as gimite's server does.
- **Kan dora** are announced when Majiang turns them, at the place gimite's server announces them:
  after an ``ankan`` at once (before the replacement ``tsumo``); after a ``daiminkan`` or ``kakan``
  under カンドラ後乗せ just before that player's next ``dahai`` (after its ``reach`` when the
  discard declares riichi), or just before the next replacement ``tsumo`` when the player kans
  again first. Under カンドラ後乗せ false Majiang turns an open kan's indicator at once: ``dora``
  comes before the replacement ``tsumo``. An indicator turned before a hand ends in a win (a
  chankan after two kans) is announced before the ``hora``: Majiang counted it.
- **Ura dora** only in ``hora``, and only as the frame shows them (a riichi winner's): as
  ``uradora_markers`` (gimite's name) and ``ura_markers`` (libriichi's and convlog's).
- **Hand ends.** ``hora`` carries ``pai``, ``hora_tehais`` (the concealed tiles, the winning one
  included after a tsumo, left out after a ron, as gimite's), ``yakus`` (gimite's romanised names
  where gimite has one, Majiang's otherwise; a yakuman is 100 fan each, as gimite counts it),
  ``fu``, ``fan``, ``hora_points`` (the hand's value without honba and sticks), ``deltas`` and
  ``scores``. ``ryukyoku`` carries ``reason`` (gimite's names: ``fanpai``, ``kyushukyuhai``,
  ``suchareach``, ``sufonrenta``, ``sukaikan``, ``sanchaho``, and ``nagashimangan``), ``tehais``
  (the hands the frame shows, ``?`` for the others), ``tenpais``, ``deltas``, ``scores``.
  ``end_kyoku`` follows the hand's last ``hora``/``ryukyoku``; it is sent with the next frame
  (``qipai`` or ``jieju``), since only that one says a double ron is over.
- **Showing tenpai.** mjai has no way to hide a ready hand at the exhaustive draw: under
  ノーテン宣言あり every ``none`` that may declare tenpai does (``daopai``), as mjai's rules show
  every ready hand.
- **No possible_actions by default.** The events are gimite's without its hints; ``Ask.hinted``
  adds ``possible_actions`` (gimite's: every legal action but ``dahai`` and ``none``) for a
  transport that wants to send them.
"""
# ruff: noqa: E741  (l: a seat counted from the hand's dealer, Majiang's and the paifu's name)

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from games.riichi.protocols.melds import Meld
from games.riichi.protocols.melds import parse_meld as read_meld
from games.riichi.protocols.mmj_seat import allowed_of, params_of, refusal_of
from games.riichi.protocols.ump import suited as tiles_of

SEATS = 4
RIICHI_STICK = 1000
YAKUMAN_FAN = 100  # gimite's fan of one yakuman
UNKNOWN = "?"
HELLO: dict[str, Any] = {"type": "hello", "protocol": "mjsonp", "protocol_version": 3}

_HONOURS = "ESWNPFC"
_WINDS = "ESWN"
_SUITS = "mpsz"
_MJAI_TILE = re.compile(r"(?:[1-9][mps]|5[mps]r|[ESWNPFC])\Z")

# Every action type a client may send in a game (mjsonp 3).
ACTION_TYPES = ("none", "dahai", "reach", "hora", "chi", "pon", "daiminkan", "ankan", "kakan", "ryukyoku")

# The answers each question takes, and how the doc's refusals name that question.
_ANSWERS: dict[str, tuple[tuple[str, ...], str]] = {
    "tsumo": (("dahai", "reach", "hora", "ankan", "kakan", "ryukyoku"), "your draw"),
    "dahai": (("dahai",), "your call (discard now)"),
    "reach": (("dahai",), "your reach (discard now)"),
    "call": (("none", "hora", "chi", "pon", "daiminkan"), "another player's discard"),
    "chankan": (("none", "hora"), "another player's kakan"),
    "tenpai": (("none",), "your own last discard"),
    "end": (("none",), "the hand's end"),
}

PINGJU_REASONS = {
    "荒牌平局": "fanpai",
    "九種九牌": "kyushukyuhai",
    "四風連打": "sufonrenta",
    "四家立直": "suchareach",
    "四開槓": "sukaikan",
    "三家和": "sanchaho",
    "流し満貫": "nagashimangan",
}

# Majiang's yaku names as gimite's Hora names them (those gimite lacks get a name in its style).
YAKU_NAMES = {
    "立直": "reach", "ダブル立直": "double_reach", "一発": "ippatsu", "門前清自摸和": "menzenchin_tsumoho",
    "平和": "pinfu", "断幺九": "tanyaochu", "一盃口": "ipeko", "翻牌 白": "sangenpai", "翻牌 發": "sangenpai",
    "翻牌 中": "sangenpai", "嶺上開花": "rinshankaiho", "槍槓": "chankan", "海底摸月": "haiteiraoyue",
    "河底撈魚": "hoteiraoyui", "三色同順": "sanshokudojun", "一気通貫": "ikkitsukan",
    "混全帯幺九": "honchantaiyao", "七対子": "chitoitsu", "対々和": "toitoiho", "三暗刻": "sananko",
    "三槓子": "sankantsu", "三色同刻": "sanshokudoko", "混老頭": "honroto", "小三元": "shosangen",
    "混一色": "honiso", "純全帯幺九": "junchantaiyao", "二盃口": "ryanpeko", "清一色": "chiniso",
    "ドラ": "dora", "裏ドラ": "uradora", "赤ドラ": "akadora",
    "天和": "tenho", "地和": "chiho", "国士無双": "kokushimuso", "国士無双十三面": "kokushimuso_jusanmen",
    "四暗刻": "suanko", "四暗刻単騎": "suanko_tanki", "大三元": "daisangen", "小四喜": "shosushi",
    "大四喜": "daisushi", "字一色": "tsuiso", "緑一色": "ryuiso", "清老頭": "chinroto", "四槓子": "sukantsu",
    "九蓮宝燈": "churenpoton", "純正九蓮宝燈": "junsei_churenpoton",
}


# Majiang names these with the wind: 場風 東, 自風 南.
_WIND_YAKU = {"場風": "bakaze", "自風": "jikaze"}


def _yaku_name(name: str) -> str:
    return YAKU_NAMES.get(name) or _WIND_YAKU.get(name.split(" ")[0], name)


class Refused(Exception):
    """An mjai action the server refuses (answered with mjai's ``error``); nothing changes."""

    def __init__(self, reason: str) -> None:
        self.reason = reason
        super().__init__(reason)


# -- tiles ----------------------------------------------------------------------------------------


def pai(p: str) -> str:
    """mjai's name of a Majiang tile (``m0`` -> ``5mr``, ``z5`` -> ``P``); marks after it ignored."""
    suit, digit = p[0], p[1]
    if suit == "z":
        return _HONOURS[int(digit) - 1]
    return f"5{suit}r" if digit == "0" else f"{digit}{suit}"


def majiang_tile(name: Any) -> str:
    """The Majiang tile of an mjai tile name (``5mr`` -> ``m0``, ``E`` -> ``z1``); ``ValueError``
    for anything else (``?`` included)."""
    if not isinstance(name, str) or not _MJAI_TILE.match(name):
        raise ValueError(f"{name!r} is not an mjai tile")
    if name in _HONOURS:
        return f"z{_HONOURS.index(name) + 1}"
    return f"{name[1]}0" if name.endswith("r") else f"{name[1]}{name[0]}"


def _order(p: str) -> tuple[int, int, int]:
    # By kind (m, p, s, then the honours), a red five just after the plain fives.
    return _SUITS.index(p[0]), int(p[1]) or 5, p[1] == "0"


def kind(p: str) -> str:
    """A Majiang tile's face without red-ness: ``m0`` -> ``m5``."""
    return p[0] + ("5" if p[1] == "0" else p[1])


def sorted_pais(tiles: Iterable[str]) -> list[str]:
    return [pai(p) for p in sorted(tiles, key=_order)]


# -- melds ----------------------------------------------------------------------------------------


def meld_event(meld: Meld, actor: int) -> dict[str, Any]:
    """The mjai event (or action) of ``meld`` by ``actor`` (an mjai seat). ``consumed`` is in the
    export's order: by kind, and for a kakan the called tile where the pon had it (first from the
    kamicha, second from the toimen, last from the shimocha)."""
    own = sorted(meld.own, key=_order)
    if meld.kind == "ankan":
        return {"type": "ankan", "actor": actor, "consumed": [pai(p) for p in own]}
    assert meld.called is not None
    if meld.kind == "kakan":
        assert meld.added is not None
        index = {3: 0, 2: 1, 1: len(own)}[meld.offset]
        pon = own[:index] + [meld.called] + own[index:]
        return {"type": "kakan", "actor": actor, "pai": pai(meld.added), "consumed": [pai(p) for p in pon]}
    return {"type": meld.kind, "actor": actor, "target": (actor + meld.offset) % SEATS,
            "pai": pai(meld.called), "consumed": [pai(p) for p in own]}


# -- questions ------------------------------------------------------------------------------------


@dataclass
class Ask:
    """What one frame asks the seat. ``kind``: ``tsumo`` (its own draw), ``dahai`` (a discard
    after its chi or pon), ``reach`` (the discard after its reach), ``call`` (another's discard),
    ``chankan`` (another's kakan), ``tenpai`` (its own last discard, ノーテン宣言あり), ``end`` (a
    win or a draw). ``event`` is the event the answer answers (sent again after a refusal);
    ``legal`` the engine's legal list; ``actions`` every mjai action legal now (``dahai`` once per
    tile and ``tsumogiri``, ``none`` where passing is). ``default`` (only after a reach): the
    seed 001 reply to play for a seat that says nothing, which keeps the riichi it was told of."""

    kind: str
    event: dict[str, Any]
    legal: list[dict[str, Any]] = field(default_factory=list)
    actions: list[dict[str, Any]] = field(default_factory=list)
    default: dict[str, Any] | None = None

    def hinted(self) -> dict[str, Any]:
        """``event`` with gimite's ``possible_actions`` (every legal action but ``dahai`` and
        ``none``) where gimite's server adds them: on the asking ``tsumo``, ``dahai`` and ``kakan``."""
        if self.kind not in ("tsumo", "call", "chankan"):
            return dict(self.event)
        return {**self.event, "possible_actions": [a for a in self.actions if a["type"] not in ("dahai", "none")]}


def auto_reply(legal: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """The seed 001 reply of ``none`` where passing is an answer: show a ready hand where the rules
    let it be hidden (``daopai``: mjai shows every ready hand), else pass."""
    return {"type": "daopai"} if allowed_of(legal, "daopai") else {"type": ""}


def parse_action(line: str | bytes) -> dict[str, Any]:
    """One client line read as an mjai action object; ``Refused`` if it is not a JSON object with a
    string ``type`` (standard JSON only: no NaN or Infinity)."""
    def no_constants(name: str) -> Any:
        raise ValueError(f"{name} is not standard JSON")

    try:
        action = json.loads(line, parse_constant=no_constants)
    except (ValueError, RecursionError) as exc:  # JSONDecodeError and bad UTF-8 are ValueErrors
        raise Refused(f"not a JSON object: {exc}") from None
    if not isinstance(action, dict) or not isinstance(action.get("type"), str):
        raise Refused('an answer is a JSON object with a string type, e.g. {"type":"none"}')
    return action


# -- the seat -------------------------------------------------------------------------------------


class MjaiSeat:
    """The mjai events for one seat, hand by hand. ``seat``: the platform seat (kaiju's ``id``,
    checked); ``names``: the players in platform seat order, overriding kaiju's ``player``."""

    def __init__(self, seat: int | None = None, names: Sequence[str] | None = None) -> None:
        if seat is not None and not 0 <= seat < SEATS:
            raise ValueError("a seat is 0 to 3")
        self.seat = seat
        self.names = list(names) if names is not None else None
        self.qijia = 0
        self.jushu = 0
        self.menfeng: int | None = None
        self.scores: list[int] = [0] * SEATS  # by mjai seat, as the events so far tell them
        self._in_hand = False
        self._hand_reset()
        self._last_frame: Mapping[str, Any] | None = None
        self._last_event: dict[str, Any] | None = None

    def _hand_reset(self) -> None:
        self.hand: Counter[str] = Counter()  # this seat's concealed tiles (Majiang names)
        self.drawn: str | None = None  # the tile this seat just drew, until it discards or calls
        self.riichi = False  # this seat's riichi discard was played
        self.melds = [0] * SEATS  # melds per mjai seat (for the "?" of a hidden hand's size)
        self._reach_sent = False  # this seat was sent its own reach (reply), its dahai not yet seen
        self._pending_accept: int | None = None
        self._pending_dora: list[str] = []
        self._last_discard: tuple[int, str] | None = None  # (mjai seat, Majiang tile)
        self._last_kakan: tuple[int, str] | None = None

    # -- seats ------------------------------------------------------------------------------------

    @property
    def id(self) -> int:
        """This seat's mjai id: its place from the first dealer."""
        assert self.seat is not None, "kaiju not seen yet"
        return (self.seat - self.qijia) % SEATS

    def actor(self, l: int) -> int:
        """The mjai seat of ``l`` (a place counted from the hand's dealer)."""
        return (l + self.jushu) % SEATS

    # -- frames to events -------------------------------------------------------------------------

    def stream(self, frames: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
        """The events of several frames in order."""
        out: list[dict[str, Any]] = []
        for frame in frames:
            out += self.events(frame)
        return out

    def events(self, frame: Mapping[str, Any]) -> list[dict[str, Any]]:
        """The mjai events of one seed 001 frame of this seat, in order. When the frame asks the
        seat something (``question``), the last of them is the one that asks."""
        kind_ = frame["type"]
        data = frame.get("data") or {}
        handler = getattr(self, f"_on_{kind_}", None)
        out: list[dict[str, Any]] = handler(data) if handler is not None else []
        self._last_frame = frame
        self._last_event = out[-1] if out else None
        return out

    def _end_kyoku(self) -> list[dict[str, Any]]:
        if not self._in_hand:
            return []
        self._in_hand = False
        return [{"type": "end_kyoku"}]

    def _flush_dora(self) -> list[dict[str, Any]]:
        out = [{"type": "dora", "dora_marker": pai(p)} for p in self._pending_dora]
        self._pending_dora = []
        return out

    def _accept(self) -> list[dict[str, Any]]:
        if self._pending_accept is None:
            return []
        actor, self._pending_accept = self._pending_accept, None
        deltas = [0] * SEATS
        deltas[actor] = -RIICHI_STICK
        self.scores[actor] -= RIICHI_STICK
        return [{"type": "reach_accepted", "actor": actor, "deltas": deltas, "scores": list(self.scores)}]

    def _by_seat(self, values: Sequence[Any]) -> list[Any]:
        out: list[Any] = [None] * SEATS
        for l, value in enumerate(values):
            out[self.actor(l)] = value
        return out

    def _on_kaiju(self, data: Mapping[str, Any]) -> list[dict[str, Any]]:
        if self.seat is not None and data.get("id") not in (None, self.seat):
            raise ValueError(f"kaiju of seat {data.get('id')} fed to seat {self.seat}")
        if self.seat is None:
            self.seat = data["id"]
        self.qijia = data.get("qijia", 0)
        names = self.names or list(data.get("player") or [f"player{s}" for s in range(SEATS)])
        rule = data.get("rule") or {}
        red = rule.get("赤牌", {"m": 1, "p": 1, "s": 1})
        return [{
            "type": "start_game",
            "id": self.id,
            "names": [str(names[(self.qijia + s) % SEATS]) for s in range(SEATS)],
            "kyoku_first": 4 if rule.get("場数", 2) <= 1 else 0,  # akochan's: the first hand's number
            "aka_flag": any(n > 0 for n in red.values()),
        }]

    def _on_qipai(self, data: Mapping[str, Any]) -> list[dict[str, Any]]:
        out = self._end_kyoku()
        self._hand_reset()
        self._in_hand = True
        self.jushu = data["jushu"]
        assert self.seat is not None, "kaiju first"
        self.menfeng = (self.seat - self.qijia - self.jushu) % SEATS
        self.hand = Counter(tiles_of(data["shoupai"][self.menfeng]))
        self.scores = self._by_seat(data["defen"])
        tehais = [sorted_pais(tiles_of(h)) if h else [UNKNOWN] * 13 for h in data["shoupai"]]
        out.append({
            "type": "start_kyoku",
            "bakaze": _WINDS[data["zhuangfeng"] % SEATS],
            "dora_marker": pai(data["baopai"]),
            "kyoku": self.jushu + 1,
            "honba": data["changbang"],
            "kyotaku": data["lizhibang"],
            "oya": self.actor(0),
            "scores": list(self.scores),
            "tehais": self._by_seat(tehais),
        })
        return out

    def _on_kaigang(self, data: Mapping[str, Any]) -> list[dict[str, Any]]:
        self._pending_dora.append(data["baopai"])
        return []

    def _on_zimo(self, data: Mapping[str, Any]) -> list[dict[str, Any]]:
        out = self._accept() + self._flush_dora()
        p = data.get("p") or ""
        if data["l"] == self.menfeng and p:
            self.hand[p[:2]] += 1
            self.drawn = p[:2]
        out.append({"type": "tsumo", "actor": self.actor(data["l"]), "pai": pai(p) if p else UNKNOWN})
        return out

    _on_gangzimo = _on_zimo

    def _on_dapai(self, data: Mapping[str, Any]) -> list[dict[str, Any]]:
        actor, p = self.actor(data["l"]), data["p"]
        own = data["l"] == self.menfeng
        riichi = p.endswith("*")
        out: list[dict[str, Any]] = []
        if riichi:
            self._pending_accept = actor
            if not (own and self._reach_sent):
                out.append({"type": "reach", "actor": actor})
        if own:
            self._reach_sent = False
            self.riichi = self.riichi or riichi
            self.hand[p[:2]] -= 1
            self.drawn = None
        self._last_discard = (actor, p[:2])
        out += self._flush_dora()
        out.append({"type": "dahai", "actor": actor, "pai": pai(p), "tsumogiri": "_" in p})
        return out

    def _on_fulou(self, data: Mapping[str, Any]) -> list[dict[str, Any]]:
        actor, read = self.actor(data["l"]), read_meld(data["m"])
        self.melds[actor] += 1
        if data["l"] == self.menfeng:
            self.hand.subtract(read.own)
        return self._accept() + self._flush_dora() + [meld_event(read, actor)]

    def _on_gang(self, data: Mapping[str, Any]) -> list[dict[str, Any]]:
        # An indicator still waiting from an earlier kan is announced after this one, before the
        # replacement draw (gimite's place); this kan's own comes with that draw too.
        actor, read = self.actor(data["l"]), read_meld(data["m"])
        if read.kind == "ankan":
            self.melds[actor] += 1
        else:
            assert read.added is not None
            self._last_kakan = (actor, read.added)
        if data["l"] == self.menfeng:
            self.hand.subtract(read.own if read.kind == "ankan" else [read.added])
            self.drawn = None
        return [meld_event(read, actor)]

    def _on_hule(self, data: Mapping[str, Any]) -> list[dict[str, Any]]:
        self._pending_accept = None  # a riichi discard won on: no stick
        out = self._flush_dora()
        actor = self.actor(data["l"])
        ron = data.get("baojia") is not None
        target = self.actor(data["baojia"]) if ron else actor
        concealed = tiles_of(data["shoupai"].split(",")[0])
        winning = concealed[-1]  # Majiang writes the tile won on last
        held = concealed[:-1] if ron else concealed
        deltas = self._by_seat(data.get("fenpei") or [0] * SEATS)
        self.scores = [s + d for s, d in zip(self.scores, deltas, strict=True)]
        ura = [pai(p) for p in data.get("fubaopai") or []]
        yakus = self.yakus(data)
        fanshu = data.get("fanshu")
        fan = fanshu if isinstance(fanshu, int) else sum(f for _, f in yakus)
        out.append({
            "type": "hora",
            "actor": actor,
            "target": target,
            "pai": pai(winning),
            "hora_tehais": sorted_pais(held),
            "uradora_markers": ura,
            "ura_markers": list(ura),
            "yakus": yakus,
            "fu": int(data.get("fu") or 0),
            "fan": fan,
            "hora_points": int(data.get("defen") or 0),
            "deltas": deltas,
            "scores": list(self.scores),
        })
        return out

    @staticmethod
    def yakus(data: Mapping[str, Any]) -> list[list[Any]]:
        """A win's ``yakus`` as gimite writes them: ``[name, fan]``, a yakuman 100 fan a multiple,
        entries of one name (two dragon pungs: ``sangenpai``) added together."""
        out: list[list[Any]] = []
        for h in data.get("hupai") or []:
            fanshu = h["fanshu"]
            fan = YAKUMAN_FAN * len(fanshu) if isinstance(fanshu, str) else int(fanshu)
            name = _yaku_name(str(h["name"]))
            same = next((y for y in out if y[0] == name), None)
            if same is not None:
                same[1] += fan
            else:
                out.append([name, fan])
        return out

    def _on_pingju(self, data: Mapping[str, Any]) -> list[dict[str, Any]]:
        self._pending_accept = None  # 四家立直: the fourth riichi stands no stick
        out = self._flush_dora()
        name = data.get("name") or ""
        reason = PINGJU_REASONS.get(name, name)
        shown = list(data.get("shoupai") or [""] * SEATS)
        tehais: list[list[str]] = [[] for _ in range(SEATS)]
        tenpais = [False] * SEATS
        for l, hand in enumerate(shown):
            actor = self.actor(l)
            if hand:
                tehais[actor] = sorted_pais(tiles_of(hand.split(",")[0]))
                tenpais[actor] = reason != "kyushukyuhai"
            else:
                tehais[actor] = [UNKNOWN] * (13 - 3 * self.melds[actor])
        deltas = self._by_seat(data.get("fenpei") or [0] * SEATS)
        self.scores = [s + d for s, d in zip(self.scores, deltas, strict=True)]
        event: dict[str, Any] = {"type": "ryukyoku", "reason": reason}
        declarers = [self.actor(l) for l, hand in enumerate(shown) if hand]
        if reason == "kyushukyuhai" and len(declarers) == 1:
            event["actor"] = declarers[0]  # gimite's: the one hand shown is the declarer's
        out.append({**event, "tehais": tehais, "tenpais": tenpais, "deltas": deltas, "scores": list(self.scores)})
        return out

    def _on_jieju(self, data: Mapping[str, Any]) -> list[dict[str, Any]]:
        out = self._end_kyoku()
        defen = data.get("defen")  # by player id (Majiang's paifu), the final sticks included
        end: dict[str, Any] = {"type": "end_game"}
        if defen and len(defen) == SEATS:
            end["scores"] = [defen[(self.qijia + s) % SEATS] for s in range(SEATS)]
        return out + [end]

    # -- questions --------------------------------------------------------------------------------

    def question(self, frame: Mapping[str, Any], legal: Sequence[Mapping[str, Any]]) -> Ask | None:
        """What ``frame`` (the last one given to ``events``) asks this seat, the engine's ``legal``
        list in hand; None when the frame asks nothing (or the game does not wait for the seat:
        ``legal`` empty). Every event is answered in mjai: the answer to one that asks nothing
        is ``none`` (``reply`` with ``ask`` None)."""
        if frame is not self._last_frame and frame != self._last_frame:
            raise ValueError("give the frame to events() before asking its question")
        legal = [dict(a) for a in legal]
        if not legal or self._last_event is None:
            return None
        kind_, data = frame["type"], frame.get("data") or {}
        own = data.get("l") == self.menfeng
        me = self.id
        event = self._last_event
        none = {"type": "none"}
        if kind_ in ("zimo", "gangzimo") and own:
            actions = self._dahais(legal, riichi=False)
            if any(p.endswith("*") for p in params_of(legal, "dapai")):
                actions.append({"type": "reach", "actor": me})
            if allowed_of(legal, "hule"):
                tsumo = {"type": "hora", "actor": me, "target": me}
                actions.append({**tsumo, "pai": pai(self.drawn)} if self.drawn else tsumo)
            actions += [meld_event(read_meld(m), me) for m in params_of(legal, "gang")]
            if allowed_of(legal, "pingju"):
                actions.append({"type": "ryukyoku", "actor": me, "reason": "kyushukyuhai"})
            return Ask("tsumo", event, legal, actions)
        if kind_ == "fulou" and own:
            return Ask("dahai", event, legal, self._dahais(legal, riichi=False))
        if kind_ == "dapai" and not own:
            assert self._last_discard is not None
            target, p = self._last_discard
            actions = [none]
            if allowed_of(legal, "hule"):
                actions.append({"type": "hora", "actor": me, "target": target, "pai": pai(p)})
            actions += [meld_event(read_meld(m), me) for m in params_of(legal, "fulou")]
            return Ask("call", event, legal, actions)
        if kind_ == "dapai":
            return Ask("tenpai", event, legal, [none])
        if kind_ == "gang" and not own:
            actions = [none]
            if allowed_of(legal, "hule") and self._last_kakan is not None:
                target, p = self._last_kakan
                actions.append({"type": "hora", "actor": me, "target": target, "pai": pai(p)})
            return Ask("chankan", event, legal, actions)
        if kind_ in ("hule", "pingju"):
            return Ask("end", event, legal, [none])
        return None

    def _dahais(self, legal: Sequence[Mapping[str, Any]], riichi: bool) -> list[dict[str, Any]]:
        return [{"type": "dahai", "actor": self.id, "pai": pai(p), "tsumogiri": "_" in p}
                for p in params_of(legal, "dapai") if p.endswith("*") == riichi]

    # -- actions to replies -----------------------------------------------------------------------

    def reply(self, action: Mapping[str, Any], ask: Ask | None) -> dict[str, Any] | Ask | None:
        """The seed 001 reply (no ``seq``) for the mjai ``action`` answering ``ask``: ``dapai``,
        ``fulou``, ``gang`` with Majiang's ``data``, ``hule``, ``pingju``, ``daopai`` or ``""``
        (pass). To a ``reach``, the next question instead: an ``Ask`` whose ``event`` the transport
        sends this seat, to be answered with the riichi discard. With ``ask`` None (an event that
        asks nothing) the only answer is ``none``, and there is nothing to send: None. Anything
        else raises ``Refused`` with the reason."""
        if not isinstance(action, Mapping) or not isinstance(action.get("type"), str):
            raise Refused('an answer is a JSON object with a string type, e.g. {"type":"none"}')
        type_ = action["type"]
        if type_ in ("hello", "join"):
            raise Refused(f"{type_}: already joined; answer the last event")
        if type_ not in ACTION_TYPES:
            raise Refused(f"unknown action type {type_!r}: answer with one of {', '.join(ACTION_TYPES)}")
        self._check_actor(action)
        if ask is None:
            if type_ == "none":
                return None
            raise Refused(f"{type_}: nothing is asked of you now; answer none")
        answers, what = _ANSWERS[ask.kind]
        if type_ not in answers:
            if type_ == "none":
                raise Refused(f"none: {what} needs an answer: {', '.join(answers)}")
            raise Refused(f"{type_}: not an answer to {what}; answer with {', '.join(answers)}")
        if type_ == "none":
            return {"type": ""} if ask.kind == "end" else auto_reply(ask.legal)
        return getattr(self, f"_reply_{type_}")(action, ask)

    def _check_actor(self, action: Mapping[str, Any]) -> None:
        type_ = action["type"]
        actor = action.get("actor")
        if actor is None:
            if type_ in ("none", "ryukyoku"):  # mjai.app's ryukyoku (libriichi's) names no actor
                return
            raise Refused(f"{type_}: actor missing (yours is {self.id})")
        if isinstance(actor, bool) or actor != self.id:
            raise Refused(f"{type_}: actor must be {self.id} (your seat), not {actor!r}")

    @staticmethod
    def _tile(action: Mapping[str, Any], key: str = "pai") -> str:
        if key not in action:
            raise Refused(f"{action['type']}: {key} missing")
        try:
            return majiang_tile(action[key])
        except ValueError:
            raise Refused(f"{action['type']}: {key} {action[key]!r} is not a tile "
                          "(1m-9m, 1p-9p, 1s-9s, 5mr 5pr 5sr, E S W N P F C)") from None

    def _consumed(self, action: Mapping[str, Any], count: int) -> list[str]:
        consumed = action.get("consumed")
        if not isinstance(consumed, list) or len(consumed) != count:
            raise Refused(f"{action['type']}: consumed is a list of {count} tiles from your hand")
        try:
            return [majiang_tile(t) for t in consumed]
        except ValueError as exc:
            raise Refused(f"{action['type']}: consumed: {exc}") from None

    def _reply_dahai(self, action: Mapping[str, Any], ask: Ask) -> dict[str, Any]:
        p = self._tile(action)
        name = pai(p)
        tsumogiri = action.get("tsumogiri")
        if tsumogiri is not None and not isinstance(tsumogiri, bool):
            raise Refused("dahai: tsumogiri is true (the tile you drew) or false (from your hand)")
        star = "*" if ask.kind == "reach" else ""
        params = set(params_of(ask.legal, "dapai"))
        if tsumogiri is True:
            choices = [p + "_" + star]
        elif tsumogiri is False:
            choices = [p + star]
        else:
            choices = [p + star, p + "_" + star]
        for choice in choices:
            if choice in params:
                return {"type": "dapai", "data": choice}
        if tsumogiri is True and ask.kind == "dahai":
            raise Refused(f"dahai {name}: tsumogiri must be false after a call (you drew nothing)")
        if tsumogiri is True and p + star in params:
            drawn = f" ({pai(self.drawn)})" if self.drawn else ""
            raise Refused(f"dahai {name}: tsumogiri is true but {name} is not the tile you drew{drawn}")
        if tsumogiri is False and p + "_" + star in params:
            raise Refused(f"dahai {name}: tsumogiri is false but the only {name} you hold is the tile you drew")
        if self.hand[p] <= 0:
            raise Refused(f"dahai {name}: not in your hand")
        if ask.kind == "reach":
            keep = sorted({pai(x) for x in params if x.endswith("*")})
            raise Refused(f"dahai {name}: after reach the discard must keep your hand ready: {' '.join(keep)}")
        if self.riichi:
            raise Refused(f"dahai {name}: in riichi you discard the tile you drew (tsumogiri)")
        if ask.kind == "dahai":
            raise Refused(f"dahai {name}: kuikae: not after that call (it would swap the tiles called with)")
        raise Refused(f"dahai {name}: not a tile you may discard now")

    def _reply_reach(self, action: Mapping[str, Any], ask: Ask) -> Ask:
        stars = [p for p in params_of(ask.legal, "dapai") if p.endswith("*")]
        if not stars:
            if self.riichi:
                raise Refused("reach: you are in riichi already")
            raise Refused("reach: not allowed now (it needs a closed ready hand, 1000 points and a draw left)")
        self._reach_sent = True
        default = next((p for p in stars if "_" in p), stars[0])
        return Ask("reach", {"type": "reach", "actor": self.id}, ask.legal, self._dahais(ask.legal, riichi=True),
                   {"type": "dapai", "data": default})

    def _reply_hora(self, action: Mapping[str, Any], ask: Ask) -> dict[str, Any]:
        if ask.kind == "tsumo":
            target, p, who = self.id, self.drawn, "yourself, on a tsumo"
        elif ask.kind == "call":
            assert self._last_discard is not None
            (target, p), who = self._last_discard, "the discarder"
        else:
            assert self._last_kakan is not None
            (target, p), who = self._last_kakan, "the player who added the kan"
        if "target" not in action:
            raise Refused(f"hora: target missing (it is {target}, {who})")
        if isinstance(action["target"], bool) or action["target"] != target:
            raise Refused(f"hora: target must be {target} ({who}), not {action['target']!r}")
        if "pai" in action and p is not None and self._tile(action) != p:
            raise Refused(f"hora: pai must be {pai(p)}, the tile you win on, not {action['pai']!r}")
        if allowed_of(ask.legal, "hule"):
            return {"type": "hule"}
        raise Refused("hora: " + (refusal_of(ask.legal, "hule") or "that tile does not complete your hand"))

    def _reply_call(self, action: Mapping[str, Any], ask: Ask) -> dict[str, Any]:
        type_ = action["type"]
        assert self._last_discard is not None
        target, p = self._last_discard
        if "target" not in action:
            raise Refused(f"{type_}: target missing (it is {target}, the discarder)")
        if isinstance(action["target"], bool) or action["target"] != target:
            raise Refused(f"{type_}: target must be {target} (the discarder), not {action['target']!r}")
        if self._tile(action) != p:
            raise Refused(f"{type_}: pai must be {pai(p)}, the tile discarded, not {action['pai']!r}")
        if type_ == "chi" and (target + 1) % SEATS != self.id:
            raise Refused(f"chi: only from the player on your left (kamicha, seat {(self.id - 1) % SEATS})")
        consumed = self._consumed(action, 3 if type_ == "daiminkan" else 2)
        wanted = Counter(consumed)
        for m in params_of(ask.legal, "fulou"):
            read = read_meld(m)
            if read.kind == type_ and Counter(read.own) == wanted:
                return {"type": "fulou", "data": m}
        if wanted - self.hand:
            raise Refused(f"{type_}: consumed {' '.join(pai(x) for x in consumed)} are not in your hand")
        if self.riichi:
            raise Refused(f"{type_}: not in riichi")
        raise Refused(f"{type_}: no such call now (a meld of the tile discarded, no call on the last tile, "
                      "no kuikae after it, four kans at most)")

    _reply_chi = _reply_call
    _reply_pon = _reply_call
    _reply_daiminkan = _reply_call

    def _reply_ankan(self, action: Mapping[str, Any], ask: Ask) -> dict[str, Any]:
        consumed = self._consumed(action, 4)
        kinds = {kind(p) for p in consumed}
        if len(kinds) != 1:
            raise Refused("ankan: consumed is four tiles of one kind")
        # The hand decides which fives: a kan is named by its kind.
        for m in params_of(ask.legal, "gang"):
            read = read_meld(m)
            if read.kind == "ankan" and {kind(x) for x in read.own} == kinds:
                return {"type": "gang", "data": m}
        raise Refused(f"ankan {pai(consumed[0])}: no such kan now (four in your hand; in riichi only one that "
                      "keeps the waits; four kans at most; not on the last tile)")

    def _reply_kakan(self, action: Mapping[str, Any], ask: Ask) -> dict[str, Any]:
        p = self._tile(action)
        if "consumed" in action:
            consumed = self._consumed(action, 3)
            if {kind(x) for x in consumed} != {kind(p)}:
                raise Refused("kakan: consumed is the pon's three tiles, of the kind of pai")
        for m in params_of(ask.legal, "gang"):
            read = read_meld(m)
            if read.kind == "kakan" and read.added is not None and kind(read.added) == kind(p):
                return {"type": "gang", "data": m}
        raise Refused(f"kakan {pai(p)}: no such kan now (a pon of it and the fourth tile in your hand; "
                      "four kans at most; not on the last tile)")

    def _reply_ryukyoku(self, action: Mapping[str, Any], ask: Ask) -> dict[str, Any]:
        reason = action.get("reason", "kyushukyuhai")
        if reason != "kyushukyuhai":
            raise Refused(f"ryukyoku: the only draw a player declares is kyushukyuhai, not {reason!r}")
        if allowed_of(ask.legal, "pingju"):
            return {"type": "pingju"}
        raise Refused("ryukyoku: kyushukyuhai needs nine kinds of terminals and honours on your first draw, "
                      "before any call")


def error_event(reason: str) -> dict[str, Any]:
    """mjai's answer to a refused action (the question is then asked again)."""
    return {"type": "error", "message": reason}


__all__ = ["ACTION_TYPES", "HELLO", "UNKNOWN", "Ask", "Meld", "MjaiSeat", "Refused", "auto_reply", "error_event",
           "majiang_tile", "meld_event", "pai", "parse_action", "read_meld", "tiles_of"]
