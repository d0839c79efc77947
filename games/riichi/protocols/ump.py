"""Seed 004, UMP (a line-based text protocol for mahjong), as a pure codec over seed 001's frames.

The UMP transport feeds this module one seat's seed-001 frames (what ``majiang.SeatStream`` makes:
other seats' tiles already masked as ``""``) and sends the lines it returns, each after a serial
number it adds itself. ``UmpStream.ask`` renders the question the seat must answer from the
platform's legal list, and ``decode`` turns the client's UMP reply back into a seed-001 reply
(``{"type": "dapai", "data": "m5"}``) for ``majiang.decode_reply``. Nothing here decides a rule:
the legal list is the engine's, the frames are Majiang's.

Mapping decisions (seed 004 leaves these open):

- Tiles: Majiang ``m5`` is UMP ``5m``; a red five ``m0`` is ``5M`` (upper case marks the red
  dora); honours ``z1``..``z7`` are ``1z``..``7z``. Hidden tiles are ``xx``.
- Players: ``A0``, ``B0``, ``C0``, ``D0`` counted from the first dealer (起家, kaiju's ``qijia``).
  A frame's ``l`` counts from the current hand's dealer, so its player is ``(l + jushu) % 4``.
- Hands: concealed tiles sorted m<p<s<z and 1<9 (a red five sorts as a 5, stably), then the
  called melds in call order, each sorted the same way: chi/pon/daiminkan/kakan in ``<>``,
  concealed kans in ``()``; no spaces. Others' deals are ``xx`` × 13.
- ``kaiju`` -> ``gamestart`` only (the transport sends ``seat`` and ``player``; ``player_lines``
  helps it).
- ``qipai`` -> ``kyokustart <round> <dealer> <honba> <kyotaku> <bakaze> <seat wind of A0> ..``
  (round = zhuangfeng, kyotaku = the riichi sticks on the table *as points*, 1000 each; winds as
  ``1z``..``4z``), then ``point <p> =<score>`` and ``haipai <p> <hand>`` for A0..D0, then
  ``dora <dora> <indicator>`` (the dora is the next tile: 9 -> 1 in a suit, 4z -> 1z, 7z -> 5z; a
  red indicator counts as a 5, the dora itself is written plain).
- Wall: 70 tiles after the deal (136 - 52 - 14), one fewer per ``zimo``/``gangzimo``;
  ``tsumo <p> <left after this draw> <tile|xx> [rinshan]`` (the last draw says 0).
- ``dapai`` -> ``sutehai <p> <tile> [tsumogiri] [richi]``, after ``say <p> richi`` for a riichi
  discard. Its stick, ``richi <p> -1000``, goes out before the next frame that is not a ``hule``
  (a discard won on pays no stick, as in Majiang).
- ``fulou`` -> ``say <p> chi|pon|kan`` and ``open <p> <meld> <called tile>``, the meld in ``<>``
  with the called tile among its tiles, e.g. ``open B0 <1m2m3m> 1m``.
- ``gang`` -> ``say <p> kan`` and ``open <p> (5m5m5m5M)`` for a concealed kan, or
  ``open <p> [5m5m5m]5M`` for an added kan (the pon in ``[]``, then the added tile).
- ``kaigang`` -> ``dora <dora> <indicator>``.
- ``hule`` -> ``say <p> ron|tsumo``, ``open <p> <whole hand with the winning tile>``,
  ``uradora <dora> <indicator>`` per ura indicator, ``agari <p> <point name> <fu> <yaku> <han> ..``,
  ``point <p> +n|-n`` for each nonzero change (A0..D0 order), then ``kyokuend`` (once, after the
  last of several ron on one discard). The point name is the hand's value without honba and
  sticks (``3900``) or its limit: 満貫, 跳満, 倍満, 三倍満, 役満, ダブル役満, トリプル役満, then
  ``<k>倍役満``; a yakuman has fu 0 and each yakuman yaku 13 han per multiple. Names (yaku,
  limits, draws, players) are UTF-8 URI-encoded (``urllib.parse.quote``) since lines are ASCII.
- ``pingju`` -> in play order from the dealer, for an exhaustive draw (荒牌平局, 流し満貫): ``say
  <p> tenpai`` + ``open <p> <hand>`` for each hand shown, ``say <p> noten`` for the others; for
  an abortive draw (九種九牌, 四風連打, 四家立直, 三家和, 四開槓) only ``open`` for a hand shown.
  Then ``ryukyoku _name=<draw name>``, ``point`` lines, ``kyokuend``.
- ``jieju`` -> ``gameend <p> <score> ..`` by final score, ties by seat order from the first dealer;
  before it, ``point <p> +n`` for the riichi sticks left on the table that went to the top.
- Questions: a draw asks ``sutehai? [richi <tiles>] [tsumo] [ankan] [kakan] [_kyushu]``
  (``_kyushu``: 九種九牌 may be declared); after a call, plain ``sutehai?``; another's discard
  ``naki? <tile> [ron] [kan] [pon] [chi]``; another's added kan ``naki? <tile> ron`` (chankan);
  at the exhaustive draw with ノーテン宣言 ``tenpai?``. A discard may ask both ``naki?`` and then
  ``tenpai?``; nothing is asked when passing is the only answer.
- Replies (``decode``): ``sutehai <tile> [tsumogiri] [richi]`` with its options in any order (the
  ``tsumogiri`` flag may be left out when the tile is only the drawn one), ``tsumo``, ``ankan
  <4 tiles or 1 naming the kind>``, ``kakan <tile>``, ``_kyushu``; ``no``, ``ron``,
  ``pon|chi|kan <tiles>`` naming either the hand's tiles or the whole meld (red fives distinct;
  the tiles may be left out when only one such call is legal); ``tenpai``, ``noten``. Errors:
  ``Malformed`` (syntax), ``BadTile``, ``UnexpectedReply`` (a command that does not answer this
  question), ``IllegalReply`` (one that does, but is not legal now).
"""
# ruff: noqa: E741  (l: a seat counted from the hand's dealer, Majiang's and the paifu's name)

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import quote, unquote

SEATS = 4
# Tiles left to draw once the hands are dealt: 136 minus 13 × 4 dealt minus the 14 of the dead wall.
WALL_AFTER_DEAL = 70
RIICHI_STICK = 1000
_SUITS = "mpsz"
_MARKS = "+=-"
_UMP_TILE = re.compile(r"(?:[1-9][mps]|[1-7]z|5[MPS])\Z")
# Draws that end a hand early: nobody declares tenpai or noten on them.
ABORTIVE_DRAWS = frozenset({"九種九牌", "四風連打", "四家立直", "三家和", "四開槓"})
# Base points (a hand's value over the number of payers' shares) from which a hand has a name.
_LIMITS = ((6000, "三倍満"), (4000, "倍満"), (3000, "跳満"), (2000, "満貫"))
_YAKUMAN = {1: "役満", 2: "ダブル役満", 3: "トリプル役満"}
_YAKUMAN_HAN = 13


class UmpError(Exception):
    """A UMP reply (or tile) this codec refuses; ``code`` is a short English word, ``reason`` a
    sentence for the error line."""

    def __init__(self, code: str, reason: str) -> None:
        super().__init__(f"{code}: {reason}")
        self.code = code
        self.reason = reason


# -- tiles, hands, players ----------------------------------------------------------------------------


def tile(p: str) -> str:
    """The UMP tile for a Majiang tile: ``m5`` -> ``5m``, red ``m0`` -> ``5M``, ``z7`` -> ``7z``.
    Majiang's suffixes (``_`` tsumogiri, ``*`` riichi, ``+=-`` call marks) are ignored."""
    if len(p) < 2 or p[0] not in _SUITS or not p[1].isdigit():
        raise UmpError("BadTile", f"{p!r} is not a Majiang tile")
    suit, digit = p[0], p[1]
    if digit == "0" and suit != "z":
        return "5" + suit.upper()
    if digit == "0" or (suit == "z" and digit > "7"):
        raise UmpError("BadTile", f"{p!r} is not a Majiang tile")
    return digit + suit


def majiang_tile(t: str) -> str:
    """The Majiang tile for a UMP tile: ``5m`` -> ``m5``, ``5M`` -> ``m0``, ``7z`` -> ``z7``."""
    if not _UMP_TILE.match(t):
        raise UmpError("BadTile", f"{t!r} is not a UMP tile (1m-9m, 1p-9p, 1s-9s, 1z-7z, red 5M 5P 5S)")
    if t[1].isupper():
        return t[1].lower() + "0"
    return t[1] + t[0]


def tiles(text: str) -> list[str]:
    """The Majiang tiles of a UMP tile list (``5m5m6m``, spaces allowed)."""
    packed = "".join(text.split())
    if len(packed) % 2:
        raise UmpError("BadTile", f"{text!r} is not a list of two-character tiles")
    return [majiang_tile(packed[i:i + 2]) for i in range(0, len(packed), 2)]


def _key(p: str) -> tuple[int, int]:
    # A red five sorts as a five; sorted() is stable, so the order within fives is the input's.
    return _SUITS.index(p[0]), int(p[1]) or 5


def _run(tiles_: Iterable[str]) -> str:
    return "".join(tile(p) for p in sorted(tiles_, key=_key))


def suited(text: str) -> list[str]:
    """The tiles of a Majiang tile string (``m123p40``, ``m1-23``), marks and flags dropped."""
    out: list[str] = []
    suit = ""
    for c in text:
        if c in _SUITS:
            suit = c
        elif c.isdigit() and suit:
            out.append(suit + c)
    return out


@dataclass(frozen=True)
class Meld:
    """A Majiang meld string read: its tiles, the called one (``None`` for a concealed kan)."""

    tiles: list[str]
    called: str | None
    # The tile added to a pon (kakan); ``None`` for every other meld.
    added: str | None

    @property
    def kind(self) -> str:
        """``chi``, ``pon`` or ``kan``, as UMP says it."""
        if len(self.tiles) == 4:
            return "kan"
        return "pon" if len({int(p[1]) or 5 for p in self.tiles}) == 1 else "chi"


def meld(m: str) -> Meld:
    """Read a Majiang meld: ``m1-23`` (chi of 1m), ``z111=`` (pon), ``m5505+`` (daiminkan),
    ``m5550`` (ankan), ``m555+0`` (kakan: the digit after the mark was added to the pon)."""
    suit, body = m[:1], m[1:]
    if suit not in _SUITS or not body:
        raise UmpError("BadTile", f"{m!r} is not a Majiang meld")
    found: list[str] = []
    called_at: int | None = None
    for c in body:
        if c.isdigit():
            found.append(suit + c)
        elif c in _MARKS and found:
            called_at = len(found) - 1
    if len(found) < 3 or len(found) > 4:
        raise UmpError("BadTile", f"{m!r} is not a Majiang meld")
    called = found[called_at] if called_at is not None else None
    added = found[3] if called_at is not None and len(found) == 4 and called_at < 3 else None
    return Meld(found, called, added)


def hand(shoupai: str) -> str:
    """The UMP hand of a Majiang shoupai string: sorted concealed tiles (the drawn one included),
    then the called melds in ``<>`` and the concealed kans in ``()``."""
    concealed, *melds = shoupai.split(",")
    out = _run(suited(concealed))
    for m in melds:
        if not m:
            continue
        read = meld(m)
        out += ("(%s)" if read.called is None else "<%s>") % _run(read.tiles)
    return out


def player(index: int) -> str:
    """The UMP name of the player ``index`` places after the first dealer: A0..Z0, A1, .."""
    if index < 0:
        raise ValueError("a player index is 0 or more")
    return chr(ord("A") + index % 26) + str(index // 26)


def dora(indicator: str) -> str:
    """The UMP dora a Majiang indicator shows: the next tile of its kind, round in its group."""
    suit, n = indicator[0], int(indicator[1]) or 5
    if suit == "z":
        nxt = (n % 4) + 1 if n <= 4 else (n - 4) % 3 + 5
    else:
        nxt = n % 9 + 1
    return tile(f"{suit}{nxt}")


def _name(text: str) -> str:
    # Seed 004: what is not ASCII goes as URI-encoded UTF-8; spaces too, as they separate words.
    return quote(str(text), safe="")


# -- questions ----------------------------------------------------------------------------------------


@dataclass
class Ask:
    """A question to the seat: ``kind`` is ``sutehai``, ``naki`` or ``tenpai``; ``line`` the UMP
    command (no serial); ``legal`` the platform's legal list it was made from."""

    kind: str
    line: str
    legal: list[dict[str, Any]] = field(default_factory=list)


def _allowed(legal: Iterable[Mapping[str, Any]], kind: str) -> list[Mapping[str, Any]]:
    # An entry marked allowed=False (a winning shape without yaku, in furiten) is never offered.
    return [a for a in legal if a.get("type") == kind and a.get("allowed", True)]


def _params(legal: Iterable[Mapping[str, Any]], kind: str) -> list[str]:
    return [a["params"][0] for a in _allowed(legal, kind) if a.get("params")]


def _sutehai_ask(legal: list[dict[str, Any]], draw: bool) -> Ask | None:
    if not _allowed(legal, "dapai"):
        return None
    words = ["sutehai?"]
    if draw:
        richi = list(dict.fromkeys(tile(p) for p in _params(legal, "dapai") if p.endswith("*")))
        if richi:
            words += ["richi", "".join(richi)]
        if _allowed(legal, "hule"):
            words.append("tsumo")
        gangs = [meld(m) for m in _params(legal, "gang")]
        if any(g.called is None for g in gangs):
            words.append("ankan")
        if any(g.called is not None for g in gangs):
            words.append("kakan")
        if _allowed(legal, "pingju"):
            words.append("_kyushu")
    return Ask("sutehai", " ".join(words), legal)


def _naki_ask(p: str, legal: list[dict[str, Any]]) -> Ask | None:
    kinds = {meld(m).kind for m in _params(legal, "fulou")}
    words = ["ron"] if _allowed(legal, "hule") else []
    words += [k for k in ("kan", "pon", "chi") if k in kinds]
    if not words:
        return None
    return Ask("naki", " ".join(["naki?", tile(p), *words]), legal)


def _tenpai_ask(legal: list[dict[str, Any]]) -> Ask | None:
    return Ask("tenpai", "tenpai?", legal) if _allowed(legal, "daopai") else None


# -- the stream ---------------------------------------------------------------------------------------


class UmpStream:
    """One seat's UMP lines for a game: fed that seat's seed-001 frames in order (each batch
    continuing the last), it returns the UMP server commands, without serial numbers.

    ``names``: the players' names in platform seat order (kaiju's ``player``), overriding the
    frame's; only ``player_lines`` uses them."""

    def __init__(self, names: list[str] | None = None) -> None:
        self.names = list(names) if names is not None else None
        self.seat: int | None = None
        self.qijia = 0
        self.jushu = 0
        # The seat's place from the current hand's dealer (Majiang's menfeng).
        self.menfeng: int | None = None
        self.left = WALL_AFTER_DEAL
        # Players whose riichi discard is not yet known to stand (their stick is not out yet).
        self._sticks: list[str] = []
        # Each player's score as the lines so far tell it, to square the final scores with them.
        self._scores: dict[str, int] = {}

    # players --------------------------------------------------------------------------------------

    def who(self, l: int) -> str:
        """The UMP player of ``l`` (a place counted from the current hand's dealer)."""
        return player((l + self.jushu) % SEATS)

    def me(self) -> str | None:
        """This seat's UMP player, once ``kaiju`` has been seen."""
        return None if self.seat is None else player((self.seat - self.qijia) % SEATS)

    def player_lines(self) -> list[str]:
        """``player <p> <name>`` for each player, A0 first (names URI-encoded)."""
        names = self.names or [f"player{s}" for s in range(SEATS)]
        return [f"player {player((s - self.qijia) % SEATS)} {_name(names[s])}"
                for s in sorted(range(SEATS), key=lambda s: (s - self.qijia) % SEATS)]

    # frames ---------------------------------------------------------------------------------------

    def lines(self, frames: Sequence[Mapping[str, Any]]) -> list[str]:
        """The UMP lines for ``frames`` (seed-001 frames for this seat, in order)."""
        out: list[str] = []
        for i, frame in enumerate(frames):
            kind = frame["type"]
            if self._sticks:
                # A riichi discard stands once the frame after it is not a win on it.
                if kind != "hule":
                    out += [f"richi {p} -{RIICHI_STICK}" for p in self._sticks]
                    for p in self._sticks:
                        self._scores[p] -= RIICHI_STICK
                self._sticks = []
            out += self._lines(kind, frame.get("data") or {})
            if kind == "hule" and not (i + 1 < len(frames) and frames[i + 1]["type"] == "hule"):
                out.append("kyokuend")
        return out

    def _lines(self, kind: str, data: Mapping[str, Any]) -> list[str]:
        handler = getattr(self, f"_on_{kind}", None)
        return handler(data) if handler else []

    def _on_kaiju(self, data: Mapping[str, Any]) -> list[str]:
        self.seat, self.qijia = data.get("id"), data.get("qijia", 0)
        if self.names is None and data.get("player"):
            self.names = list(data["player"])
        return ["gamestart"]

    def _on_qipai(self, data: Mapping[str, Any]) -> list[str]:
        self.jushu, self.left = data["jushu"], WALL_AFTER_DEAL
        hands = data["shoupai"]
        if self.seat is not None:
            self.menfeng = (self.seat - self.qijia - self.jushu) % SEATS
        else:  # without kaiju's id: the one hand not masked is ours
            self.menfeng = next((l for l, h in enumerate(hands) if h), None)
        order = [(i - self.jushu) % SEATS for i in range(SEATS)]  # l of A0, B0, ..
        head = ["kyokustart", str(data["zhuangfeng"]), self.who(0), str(data["changbang"]),
                str(data["lizhibang"] * RIICHI_STICK), f"{data['zhuangfeng'] % 4 + 1}z"]
        out = [" ".join(head + [f"{l + 1}z" for l in order])]
        self._scores = {player(i): data["defen"][l] for i, l in enumerate(order)}
        out += [f"point {p} ={score}" for p, score in self._scores.items()]
        out += [f"haipai {player(i)} {hand(hands[l]) if hands[l] else 'xx' * 13}" for i, l in enumerate(order)]
        return out + self._on_kaigang(data)

    def _on_kaigang(self, data: Mapping[str, Any]) -> list[str]:
        return [f"dora {dora(data['baopai'])} {tile(data['baopai'])}"]

    def _on_zimo(self, data: Mapping[str, Any], rinshan: bool = False) -> list[str]:
        self.left = max(self.left - 1, 0)
        shown = tile(data["p"]) if data.get("p") else "xx"
        return [f"tsumo {self.who(data['l'])} {self.left} {shown}" + (" rinshan" if rinshan else "")]

    def _on_gangzimo(self, data: Mapping[str, Any]) -> list[str]:
        return self._on_zimo(data, rinshan=True)

    def _on_dapai(self, data: Mapping[str, Any]) -> list[str]:
        who, p = self.who(data["l"]), data["p"]
        words = ["sutehai", who, tile(p)]
        if "_" in p:
            words.append("tsumogiri")
        out = []
        if p.endswith("*"):
            words.append("richi")
            out.append(f"say {who} richi")
            self._sticks.append(who)
        return out + [" ".join(words)]

    def _on_fulou(self, data: Mapping[str, Any]) -> list[str]:
        who, read = self.who(data["l"]), meld(data["m"])
        return [f"say {who} {read.kind}", f"open {who} <{_run(read.tiles)}> {tile(read.called or read.tiles[0])}"]

    def _on_gang(self, data: Mapping[str, Any]) -> list[str]:
        who, read = self.who(data["l"]), meld(data["m"])
        if read.added is None:
            shown = f"({_run(read.tiles)})"
        else:
            shown = f"[{_run(read.tiles[:3])}]{tile(read.added)}"
        return [f"say {who} kan", f"open {who} {shown}"]

    def _on_hule(self, data: Mapping[str, Any]) -> list[str]:
        who = self.who(data["l"])
        out = [f"say {who} {'tsumo' if data.get('baojia') is None else 'ron'}", f"open {who} {hand(data['shoupai'])}"]
        out += [f"uradora {dora(p)} {tile(p)}" for p in data.get("fubaopai") or []]
        yaku: list[str] = []
        for h in data.get("hupai") or []:
            yaku += [_name(h["name"]), str(_han(h["fanshu"]))]
        head = ["agari", who, _name(point_name(data["defen"], data["l"] == 0)), str(data.get("fu") or 0)]
        out.append(" ".join(head + yaku))
        return out + self._points(data.get("fenpei") or [])

    def _on_pingju(self, data: Mapping[str, Any]) -> list[str]:
        name = data.get("name") or ""
        hands = data.get("shoupai") or [""] * SEATS
        out: list[str] = []
        for l in range(SEATS):  # play order from the dealer
            who = self.who(l)
            if hands[l]:
                out += ([] if name in ABORTIVE_DRAWS else [f"say {who} tenpai"]) + [f"open {who} {hand(hands[l])}"]
            elif name not in ABORTIVE_DRAWS:
                out.append(f"say {who} noten")
        out.append(f"ryukyoku _name={_name(name)}" if name else "ryukyoku")
        return out + self._points(data.get("fenpei") or []) + ["kyokuend"]

    def _on_jieju(self, data: Mapping[str, Any]) -> list[str]:
        defen = data["defen"]
        # Players from the first dealer, and each one's final score.
        final = {(s - self.qijia) % SEATS: defen[s] for s in range(len(defen))}
        # Sticks still on the table at the end go to the top (Majiang's jieju): say so with a
        # point line, so that the points sent add up to the final scores.
        out = [f"point {player(i)} {final[i] - self._scores[player(i)]:+d}" for i in sorted(final)
               if final[i] != self._scores.get(player(i), final[i])]
        places = sorted(final, key=lambda i: (-final[i], i))
        return out + ["gameend " + " ".join(f"{player(i)} {final[i]}" for i in places)]

    def _points(self, fenpei: Sequence[int]) -> list[str]:
        by_player = sorted(range(len(fenpei)), key=lambda l: (l + self.jushu) % SEATS)
        for l in by_player:
            if self.who(l) in self._scores:
                self._scores[self.who(l)] += fenpei[l]
        return [f"point {self.who(l)} {fenpei[l]:+d}" for l in by_player if fenpei[l]]

    # questions ------------------------------------------------------------------------------------

    def ask(self, frame: Mapping[str, Any], legal: list[dict[str, Any]]) -> list[Ask]:
        """The question(s) ``frame`` (the seat's last frame, one that carries ``seq``) puts to the
        seat, made from ``legal``; ``[]`` when passing is the only answer. Two questions (``naki?``
        then ``tenpai?``) when a discard may be both called and answered with tenpai: the second is
        for after ``no``."""
        kind, data = frame["type"], frame.get("data") or {}
        own = data.get("l") == self.menfeng
        asks: list[Ask | None] = []
        if kind in ("zimo", "gangzimo") and own:
            asks.append(_sutehai_ask(legal, draw=True))
        elif kind == "fulou" and own:
            asks.append(_sutehai_ask(legal, draw=False))
        elif kind == "dapai":
            if not own:
                asks.append(_naki_ask(data["p"], legal))
            asks.append(_tenpai_ask(legal))
        elif kind == "gang" and not own:
            asks.append(_naki_ask(meld(data["m"]).tiles[-1], legal))
        return [a for a in asks if a is not None]


def _han(fanshu: int | str) -> int:
    # A yakuman yaku carries '*' per multiple in Majiang; UMP wants a number.
    return _YAKUMAN_HAN * len(fanshu) if isinstance(fanshu, str) else int(fanshu)


def point_name(defen: int, dealer: bool) -> str:
    """The hand's UMP point name: its limit (満貫 .. 役満) or its value (``3900``). ``defen`` is the
    value without honba and sticks; a dealer's is 6 shares of the base points, another's 4."""
    base = defen // (6 if dealer else 4)
    if base >= 8000:
        k = base // 8000
        return _YAKUMAN.get(k, f"{k}倍役満")
    for floor, name in _LIMITS:
        if base >= floor:
            return name
    return str(defen)


# -- replies ------------------------------------------------------------------------------------------

_COMMANDS = {
    "sutehai": ("sutehai", "tsumo", "ankan", "kakan", "_kyushu"),
    "naki": ("no", "ron", "pon", "chi", "kan"),
    "tenpai": ("tenpai", "noten"),
}


def decode(reply: str, ask: Ask) -> dict[str, Any]:
    """The seed-001 reply (no ``seq``) a UMP reply (no serial) to ``ask`` means. ``UmpError`` when
    it is malformed, does not answer ``ask``, or is not among ``ask.legal``."""
    if not reply.isascii():
        raise UmpError("Malformed", "a UMP line is ASCII only")
    words = reply.split()
    if not words:
        raise UmpError("Malformed", "the reply is empty")
    command, args = words[0], words[1:]
    if command not in _COMMANDS.get(ask.kind, ()):
        allowed = ", ".join(_COMMANDS.get(ask.kind, ()))
        raise UmpError("UnexpectedReply", f"{ask.kind}? is answered with {allowed}, not {command!r}")
    if command == "sutehai":
        return _decode_sutehai(args, ask.legal)
    if command in ("ankan", "kakan"):
        return {"type": "gang", "data": _decode_kan(command, args, ask.legal)}
    if command in ("pon", "chi", "kan"):
        return {"type": "fulou", "data": _decode_call(command, args, ask.legal)}
    if args:
        raise UmpError("Malformed", f"{command} takes no arguments")
    kind, result = {"tsumo": ("hule", "hule"), "ron": ("hule", "hule"), "_kyushu": ("pingju", "pingju"),
                    "tenpai": ("daopai", "daopai"), "no": ("", ""), "noten": ("", "")}[command]
    if kind and not _allowed(ask.legal, kind):
        raise UmpError("IllegalReply", f"{command} is not legal now")
    return {"type": result}


def _decode_sutehai(args: list[str], legal: list[dict[str, Any]]) -> dict[str, Any]:
    if not args:
        raise UmpError("Malformed", "sutehai names a tile: sutehai <tile> [tsumogiri] [richi]")
    p, flags = majiang_tile(args[0]), args[1:]
    if any(f not in ("tsumogiri", "richi") for f in flags) or len(set(flags)) != len(flags):
        raise UmpError("Malformed", "sutehai's options are tsumogiri and richi, each at most once")
    richi = "*" if "richi" in flags else ""
    params = _params(legal, "dapai")
    wanted = [p + ("_" if "tsumogiri" in flags else "") + richi]
    if "tsumogiri" not in flags and p not in params:
        wanted.append(p + "_" + richi)  # the flag left out, but the drawn tile is the only one to discard
    for candidate in wanted:
        if candidate in params:
            return {"type": "dapai", "data": candidate}
    raise UmpError("IllegalReply", f"sutehai {' '.join(args)} is not a legal discard now")


def _same_kind(a: str, b: str) -> bool:
    return a[0] == b[0] and (int(a[1]) or 5) == (int(b[1]) or 5)


def _decode_kan(command: str, args: list[str], legal: list[dict[str, Any]]) -> str:
    named = tiles("".join(args))
    kakan = command == "kakan"
    if len(named) not in ((1,) if kakan else (1, 4)):
        raise UmpError("Malformed", "ankan names 4 tiles (or 1 for the kind), kakan the tile added")
    for m in _params(legal, "gang"):
        read = meld(m)
        if (read.called is not None) != kakan:
            continue
        if len(named) == 4 and Counter(named) == Counter(read.tiles):
            return m
        if len(named) == 1 and _same_kind(named[0], read.tiles[-1]):
            return m
    raise UmpError("IllegalReply", f"{command} {''.join(args)} is not legal now")


def _decode_call(command: str, args: list[str], legal: list[dict[str, Any]]) -> str:
    named = Counter(tiles("".join(args)))
    size = 4 if command == "kan" else 3
    options = [m for m in _params(legal, "fulou") if meld(m).kind == command]
    if not named:
        if len(options) == 1:
            return options[0]
        raise UmpError("IllegalReply" if not options else "Malformed",
                       f"{command} is not legal now" if not options else f"{command} names its tiles here")
    if sum(named.values()) not in (size - 1, size):
        raise UmpError("Malformed", f"{command} names the {size - 1} tiles from the hand or the whole meld")
    for m in options:
        read = meld(m)
        whole = Counter(read.tiles)
        from_hand = whole - Counter([read.called]) if read.called else whole
        if named == (whole if sum(named.values()) == size else from_hand):
            return m
    raise UmpError("IllegalReply", f"{command} {''.join(args)} is not legal now")


# -- lines from the client ---------------------------------------------------------------------------


def parse_line(text: str) -> tuple[int, str, list[str]]:
    """``<serial> <command> [args...]``: the serial, the command and the rest, split on single
    spaces; ``UmpError`` when it is not that, or not ASCII."""
    if not text.isascii() or not text.isprintable():
        raise UmpError("Malformed", "UMP lines are printable ASCII (names are URI-encoded UTF-8)")
    parts = text.split(" ")
    if len(parts) < 2 or not parts[0].isdigit() or len(parts[0]) > 9 or not parts[1]:
        raise UmpError("Malformed", "a line is <serial> <command> [<argument> ...], one space apart")
    return int(parts[0]), parts[1], parts[2:]


def options(args: list[str]) -> dict[str, str]:
    """``name=value`` arguments, values URI-decoded (UTF-8)."""
    out = {}
    for arg in args:
        name, equals, value = arg.partition("=")
        if not equals or not name:
            raise UmpError("Malformed", f"an option is <name>=<value>, not {arg!r}")
        try:
            out[name] = unquote(value, errors="strict")
        except UnicodeDecodeError:
            raise UmpError("Malformed", f"option {name} is not URI-encoded UTF-8") from None
    return out
