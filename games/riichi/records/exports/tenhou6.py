"""A Majiang paifu as a tenhou.net/6 JSON log (the format of Tenhou's viewer and of its readers).

The paifu (``../shared/oracle/mahjong/README.md``) records every hand as a stream of messages in
the order they happened; tenhou.net/6 keeps per seat three lists read in lockstep (tiles dealt,
tiles taken, tiles given up) and leaves the turn order to the reader. The mapping, with every
known difference, is in ``docs/records.md``; the details follow the two strict readers the tests
run on every export: mjai-reviewer's ``convlog`` (``convlog_rs``) and ``jansou``.

Pure Python: nothing from Django, nothing from the engine (a paifu is plain JSON). The helpers
that read Majiang's notation (tiles, seats, melds, rules) are shared with ``mjai.py``.
"""
# ruff: noqa: E741  (l: a seat counted from the hand's dealer, Majiang's and the paifu's name)

from __future__ import annotations

import copy
import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

# Melds are read where the protocols read them too (mjai); imported from here by the other exports.
from games.riichi.protocols.melds import MARK_OFFSET, Meld, parse_meld  # noqa: F401

# --- rule -----------------------------------------------------------------------------------------

# The Majiang.rule() options the conversion reads, at Majiang's defaults. A paifu carries the full
# rule object (the site's download does) or none (majiang-core's own paifu, script.json); a caller
# may pass only the overrides.
_RULE_DEFAULTS: dict[str, Any] = {
    "赤牌": {"m": 1, "p": 1, "s": 1},
    "クイタンあり": True,
    "場数": 2,
    "数え役満あり": True,
    "切り上げ満貫あり": False,
}


def game_rule(paifu: Mapping[str, Any], rule: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The rule the game was played with: ``rule`` if given, else the paifu's own ``rule`` key,
    laid over Majiang's defaults for the options the conversion needs."""
    given = rule if rule is not None else paifu.get("rule") or {}
    return {**copy.deepcopy(_RULE_DEFAULTS), **copy.deepcopy(dict(given))}


def has_red(rule: Mapping[str, Any]) -> bool:
    return any(rule["赤牌"].get(suit, 0) > 0 for suit in "mps")


def is_east_only(rule: Mapping[str, Any]) -> bool:
    """Tenhou knows east-only (東) and east-south (南) games; a one-hand game (場数 0) is nearer
    the first. 場数 3 and 4 play at least the south round: 南."""
    return rule["場数"] <= 1


# --- tiles ----------------------------------------------------------------------------------------

_SUIT_DIGIT = {"m": 1, "p": 2, "s": 3, "z": 4}
TSUMOGIRI = 60  # a discard of the tile just drawn
CALLED_AWAY = 0  # the discard slot of an open kan: the kan itself gives nothing up
_TILE = re.compile(r"^[mpsz]\d")
_GROUP = re.compile(r"[mpsz]\d+")


def tile_code(p: str) -> int:
    """Tenhou's two-digit number of a Majiang tile: 11-19 man, 21-29 pin, 31-39 sou, 41-47 the
    honours (E S W N haku hatsu chun), 51/52/53 the red fives (Majiang's ``m0``/``p0``/``s0``)."""
    if not _TILE.match(p):
        raise ValueError(f"not a tile: {p!r}")
    suit, digit = _SUIT_DIGIT[p[0]], int(p[1])
    return 50 + suit if digit == 0 else suit * 10 + digit


def code_order(code: int) -> tuple[int, int]:
    """Tenhou's display order: by kind, a red five right after the plain fives of its suit (as
    Tenhou's own logs sort a hand: ``15, 51, 16``)."""
    return (code % 50 * 10 + 5, 1) if code > 50 else (code, 0)


def sorted_codes(codes: Sequence[int]) -> list[int]:
    return sorted(codes, key=code_order)


def hand_tiles(shoupai: str) -> list[str]:
    """The concealed tiles of a Majiang hand string (``m123p406z11``), melds and marks ignored."""
    concealed = shoupai.split(",")[0]
    return [group[0] + digit for group in _GROUP.findall(concealed) for digit in group[1:]]


# --- seats ----------------------------------------------------------------------------------------



def seat_of(jushu: int, l: int) -> int:
    """Tenhou's seat (0 = the first dealer) of a hand's relative seat ``l`` (0 = this hand's
    dealer). Majiang's dealer of hand ``jushu`` is player ``(qijia + jushu) % 4`` and Tenhou's
    seat 0 is player ``qijia``, so the player ids cancel out."""
    return (jushu + l) % 4


def seat_names(paifu: Mapping[str, Any]) -> list[str]:
    """The players' names in Tenhou's seat order (seat 0 = player ``qijia``)."""
    players = list(paifu.get("player") or ["", "", "", ""])
    return [str(players[(paifu["qijia"] + s) % 4]) for s in range(4)]


# --- melds ----------------------------------------------------------------------------------------

_LETTER = {"chi": "c", "pon": "p", "daiminkan": "m", "kakan": "k", "ankan": "a"}


@dataclass(frozen=True)
class MeldLayout:
    """A meld as Tenhou writes it: the tile numbers in order and the call letter, which stands
    just before the tile at ``index``. For a call that tile is the one called (for a kakan the one
    added); the rest are what mjai names ``consumed``, in this order (as convlog reads them)."""

    letter: str
    codes: tuple[int, ...]
    index: int

    def text(self) -> str:
        parts = [f"{code:02d}" for code in self.codes]
        parts.insert(self.index, self.letter)
        return "".join(parts)

    @property
    def pai(self) -> int:
        return self.codes[self.index]

    @property
    def consumed(self) -> tuple[int, ...]:
        return self.codes[: self.index] + self.codes[self.index + 1 :]


def meld_layout(meld: Meld) -> MeldLayout:
    """Tenhou's layout: the letter's place says where the tile came from (first place from the
    kamicha, second from the toimen, last from the shimocha); a chi is always from the kamicha
    and starts with its letter; an ankan puts its letter before the fourth tile; a kakan is its
    pon with ``k`` and the added tile where the pon's ``p`` was."""
    own = sorted_codes([tile_code(p) for p in meld.own])
    if meld.kind == "ankan":
        return MeldLayout("a", tuple(own), 3)
    assert meld.called is not None
    called = tile_code(meld.called)
    if meld.kind == "chi":
        return MeldLayout("c", (called, *own), 0)
    index = {3: 0, 2: 1, 1: len(own)}[meld.offset]  # kamicha, toimen, shimocha
    codes = own[:index] + [called] + own[index:]
    if meld.kind == "kakan":
        assert meld.added is not None
        codes.insert(index, tile_code(meld.added))
    return MeldLayout(_LETTER[meld.kind], tuple(codes), index)


# --- discards -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Dapai:
    """A Majiang discard (``m1``, ``m1_``, ``m1*``, ``m1_*``)."""

    tile: str
    tsumogiri: bool
    riichi: bool


def parse_dapai(p: str) -> Dapai:
    return Dapai(p[:2], "_" in p[2:], p.endswith("*"))


def discards_as_played(pairs: Sequence[tuple[str, Mapping[str, Any]]]) -> dict[int, Dapai]:
    """Each discard of a hand (by its index in ``pairs``), tsumogiri when it can only be the tile
    just drawn. Majiang lets a player holding a red five and drawing a plain one (or the reverse)
    write the drawn five's discard as if from the hand (``p5`` rather than ``p5_``); a tenhou.net/6
    reader knows which copy was discarded only from 60, and jansou's engine refuses a plain 5p
    "from the hand" that holds none."""
    qipai = pairs[0][1]
    hands = [Counter(hand_tiles(shoupai)) for shoupai in qipai["shoupai"]]
    drawn: list[str | None] = [None] * 4
    out = {}
    for index, (kind, data) in enumerate(pairs[1:], 1):
        if kind in ("zimo", "gangzimo"):
            hands[data["l"]][data["p"]] += 1
            drawn[data["l"]] = data["p"]
        elif kind == "dapai":
            dapai = parse_dapai(data["p"])
            if not dapai.tsumogiri and dapai.tile == drawn[data["l"]] and hands[data["l"]][dapai.tile] == 1:
                dapai = replace(dapai, tsumogiri=True)
            hands[data["l"]][dapai.tile] -= 1
            out[index] = dapai
        elif kind in ("fulou", "gang"):
            meld = parse_meld(data["m"])
            hands[data["l"]].subtract([meld.added] if meld.kind == "kakan" else meld.own)
        if kind in ("dapai", "fulou", "gang"):
            drawn[data["l"]] = None
    return out


def discard_entry(dapai: Dapai) -> int | str:
    """A discard as Tenhou writes it: the tile number, 60 for the tile just drawn, ``r`` before
    either when it declares riichi."""
    code = TSUMOGIRI if dapai.tsumogiri else tile_code(dapai.tile)
    return f"r{code}" if dapai.riichi else code


# --- results --------------------------------------------------------------------------------------

# Majiang's yaku names that Tenhou spells differently; every other name is the same in both.
_YAKU_NAMES = {
    "翻牌 白": "役牌 白",
    "翻牌 發": "役牌 發",
    "翻牌 中": "役牌 中",
    "ダブル立直": "両立直",
    "国士無双十三面": "国士無双１３面",
}

# Majiang's name of each abortive or exhaustive draw -> Tenhou's result tag (荒牌平局, the plain
# exhaustive draw, is decided by who was tenpai: pingju_tag).
_PINGJU_TAGS = {
    "九種九牌": "九種九牌",
    "四風連打": "四風連打",
    "四家立直": "四家立直",
    "四開槓": "四槓散了",
    "三家和": "三家和了",
    "流し満貫": "流し満貫",
}
# Tenhou writes these draws without score changes: nobody pays in them.
_TAGS_WITHOUT_DELTAS = {"九種九牌", "四風連打", "四家立直", "四槓散了", "三家和了", "全員聴牌", "全員不聴"}


def tenhou_yaku_name(name: str) -> str:
    return _YAKU_NAMES.get(name, name)


def yaku_text(hupai: Mapping[str, Any]) -> str:
    """``立直(1飜)``, ``大三元(役満)``; a double yakuman (Majiang's ``**``) is ``(ダブル役満)``:
    Tenhou has no double yakuman and so no spelling of its own for one."""
    name = tenhou_yaku_name(hupai["name"])
    fanshu = hupai["fanshu"]
    if isinstance(fanshu, str):
        return f"{name}({'役満' if len(fanshu) == 1 else 'ダブル役満'})"
    return f"{name}({fanshu}飜)"


def _ceil100(points: int) -> int:
    return -(-points // 100) * 100


def base_points(hule: Mapping[str, Any], rule: Mapping[str, Any]) -> int:
    """The hand's base points, exactly as Majiang computes them (what every payment derives from)."""
    if hule.get("damanguan"):
        return 8000 * hule["damanguan"]
    fanshu, fu = hule["fanshu"], hule["fu"]
    if fanshu >= 13 and rule["数え役満あり"]:
        return 8000
    for least, base in ((11, 6000), (8, 4000), (6, 3000)):
        if fanshu >= least:
            return base
    if rule["切り上げ満貫あり"] and fu << (2 + fanshu) == 1920:
        return 2000
    return min(fu << (2 + fanshu), 2000)


_LIMITS = {2000: "満貫", 3000: "跳満", 4000: "倍満", 6000: "三倍満"}


def point_text(hule: Mapping[str, Any], rule: Mapping[str, Any]) -> str:
    """Tenhou's score text: ``30符2飜2000点`` (ron), ``30符3飜1000-2000点`` (a non-dealer's tsumo:
    non-dealers' then the dealer's payment), ``40符2飜1300点∀`` (the dealer's tsumo: each pays),
    with the limit's name in place of fu and han: ``満貫8000点``, ``役満32000点``. Honba and
    riichi sticks are not in it, as in Tenhou's."""
    base = base_points(hule, rule)
    name = "役満" if base >= 8000 else _LIMITS.get(base) if base >= 2000 else None
    head = name or f"{hule['fu']}符{hule['fanshu']}飜"
    if hule["baojia"] is not None:
        return f"{head}{hule['defen']}点"
    if hule["l"] == 0:
        return f"{head}{_ceil100(2 * base)}点∀"
    return f"{head}{_ceil100(base)}-{_ceil100(2 * base)}点"


def pao_seat(hule: Mapping[str, Any], winner: int) -> int:
    """The seat liable for a pao yakuman (Majiang keeps the mark of where the last dragon or wind
    came from in that yaku's entry); the winner's own seat when nobody is, as Tenhou writes it."""
    for hupai in hule["hupai"]:
        if hupai.get("baojia"):
            return (winner + MARK_OFFSET[hupai["baojia"]]) % 4
    return winner


def by_seat(values: Sequence[Any], jushu: int) -> list[Any]:
    """A per-``l`` list (Majiang's order in a hand: dealer first) in Tenhou's seat order."""
    out: list[Any] = [None] * 4
    for l, value in enumerate(values):
        out[seat_of(jushu, l)] = value
    return out


def pingju_tag(pingju: Mapping[str, Any]) -> str:
    """Tenhou's result tag: an exhaustive draw is 流局, or 全員聴牌 / 全員不聴 when the four hands
    are all shown (tenpai) or none is."""
    name = pingju["name"]
    if name in _PINGJU_TAGS:
        return _PINGJU_TAGS[name]
    shown = sum(1 for shoupai in pingju["shoupai"] if shoupai)
    return {4: "全員聴牌", 0: "全員不聴"}.get(shown, "流局")


def pingju_result(pingju: Mapping[str, Any], jushu: int) -> list[Any]:
    tag = pingju_tag(pingju)
    deltas = by_seat(pingju["fenpei"], jushu)
    if tag in _TAGS_WITHOUT_DELTAS and not any(deltas):
        return [tag]
    return [tag, deltas]


def hule_detail(hule: Mapping[str, Any], jushu: int, rule: Mapping[str, Any]) -> list[Any]:
    """``[who, from_who, pao_who, "point text", "yaku(n飜)", ...]``; a tsumo is from the winner."""
    who = seat_of(jushu, hule["l"])
    from_who = who if hule["baojia"] is None else seat_of(jushu, hule["baojia"])
    return [who, from_who, pao_seat(hule, who), point_text(hule, rule), *map(yaku_text, hule["hupai"])]


# --- one hand -------------------------------------------------------------------------------------


class _Hand:
    """One hand's records folded into Tenhou's per-seat lists."""

    def __init__(self, qipai: Mapping[str, Any], rule: Mapping[str, Any]) -> None:
        self.rule = rule
        self.jushu = qipai["jushu"]
        self.head = [qipai["zhuangfeng"] * 4 + qipai["jushu"], qipai["changbang"], qipai["lizhibang"]]
        self.scores = by_seat(qipai["defen"], self.jushu)
        self.dora = [tile_code(qipai["baopai"])]
        self.ura: list[int] = []
        self.haipai = by_seat([sorted_codes([tile_code(p) for p in hand_tiles(s)]) for s in qipai["shoupai"]],
                              self.jushu)
        self.takes: list[list[int | str]] = [[], [], [], []]
        self.discards: list[list[int | str]] = [[], [], [], []]
        self.wins: list[Any] = []
        self.result: list[Any] | None = None

    def seat(self, data: Mapping[str, Any]) -> int:
        return seat_of(self.jushu, data["l"])

    def add(self, kind: str, data: Mapping[str, Any], dapai: Dapai | None) -> None:
        """One record; ``dapai`` is a discard as played (``discards_as_played``)."""
        if kind in ("zimo", "gangzimo"):
            self.takes[self.seat(data)].append(tile_code(data["p"]))
        elif kind == "dapai":
            assert dapai is not None
            self.discards[self.seat(data)].append(discard_entry(dapai))
        elif kind == "fulou":
            meld = parse_meld(data["m"])
            self.takes[self.seat(data)].append(meld_layout(meld).text())
            if meld.kind == "daiminkan":
                self.discards[self.seat(data)].append(CALLED_AWAY)
        elif kind == "gang":
            self.discards[self.seat(data)].append(meld_layout(parse_meld(data["m"])).text())
        elif kind == "kaigang":
            self.dora.append(tile_code(data["baopai"]))
        elif kind == "hule":
            self.add_hule(data)
        elif kind == "pingju":
            self.result = pingju_result(data, self.jushu)
        else:
            raise ValueError(f"unknown paifu record {kind!r}")

    def add_hule(self, hule: Mapping[str, Any]) -> None:
        # One 和了 for the hand, then a (deltas, detail) pair per winner, in Majiang's order (the
        # first winner from the discarder's right took the honba and the riichi sticks).
        if not self.ura and hule.get("fubaopai"):
            self.ura = [tile_code(p) for p in hule["fubaopai"]]
        self.wins += [by_seat(hule["fenpei"], self.jushu), hule_detail(hule, self.jushu, self.rule)]
        self.result = ["和了", *self.wins]

    def entry(self) -> list[Any]:
        if self.result is None:
            raise ValueError("a hand of the paifu has no result (hule or pingju)")
        seats: list[Any] = []
        for s in range(4):
            seats += [self.haipai[s], self.takes[s], self.discards[s]]
        return [self.head, self.scores, self.dora, self.ura, *seats, self.result]


def records(hand: Sequence[Mapping[str, Any]]) -> list[tuple[str, Mapping[str, Any]]]:
    """A hand's records as (kind, data) pairs; each record is a one-key object."""
    out = []
    for record in hand:
        if len(record) != 1:
            raise ValueError(f"a paifu record has one key: {record!r}")
        ((kind, data),) = record.items()
        out.append((kind, data))
    return out


def hand_entry(hand: Sequence[Mapping[str, Any]], rule: Mapping[str, Any]) -> list[Any]:
    """One hand of the paifu as one entry of the tenhou.net/6 ``log``."""
    pairs = records(hand)
    if not pairs or pairs[0][0] != "qipai":
        raise ValueError("a hand of the paifu starts with qipai")
    writer = _Hand(pairs[0][1], rule)
    played = discards_as_played(pairs)
    for index, (kind, data) in enumerate(pairs[1:], 1):
        writer.add(kind, data, played.get(index))
    return writer.entry()


# --- the game -------------------------------------------------------------------------------------


def rule_entry(rule: Mapping[str, Any]) -> dict[str, Any]:
    """Tenhou's ``rule``: ``disp`` as its lobby shows a table (般 the ordinary lobby, 東/南 the
    length, 喰 open tanyao, 赤 red fives) and the red fives per suit."""
    red = rule["赤牌"]
    disp = "般" + ("東" if is_east_only(rule) else "南") + ("喰" if rule["クイタンあり"] else "") + (
        "赤" if has_red(rule) else "")
    return {"disp": disp, "aka": int(has_red(rule)), "aka51": red.get("m", 0), "aka52": red.get("p", 0),
            "aka53": red.get("s", 0)}


def title_entry(paifu: Mapping[str, Any]) -> list[str]:
    """Tenhou's title is two lines; Majiang's is one string that may hold a line break."""
    first, _, second = str(paifu.get("title", "")).partition("\n")
    return [first, second]


def to_tenhou6(paifu: dict, rule: dict | None = None) -> dict:
    """The tenhou.net/6 JSON log of a Majiang paifu (``rule``: the game's ``Majiang.rule()``,
    default the paifu's own ``rule`` key, else Majiang's defaults)."""
    full_rule = game_rule(paifu, rule)
    return {
        "title": title_entry(paifu),
        "name": seat_names(paifu),
        "rule": rule_entry(full_rule),
        "log": [hand_entry(hand, full_rule) for hand in paifu["log"]],
    }
