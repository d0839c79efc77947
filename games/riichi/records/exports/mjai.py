"""A Majiang paifu as an mjai event list (the protocol of Mortal, akochan and mjai-reviewer).

The events are made straight from the paifu's records, independently of ``tenhou6.py``; the
tests check that they equal, event for event, what mjai-reviewer's ``convlog`` makes of our
tenhou.net/6 export of the same game. Where the paifu knows more than a tenhou.net/6 log can
say, the events follow convlog, so both roads give the same list:

- kan dora are announced where Tenhou turns them, whatever the paifu's own order: after an
  ankan at once, after an open kan or a kakan just before that player's next discard (before
  the next draw as well when that discard is another kakan); a riichi discard does not turn a
  waiting indicator (convlog's rule), so it is announced before the next discard or open kan;
  an indicator still waiting when the hand ends is never announced;
- ``reach_accepted`` comes just before the next draw or call, so a riichi on the discard that
  ends the hand (a ron, 四家立直, 四風連打, an exhaustive draw) is never accepted;
- every ``hora`` carries the hand's ura indicators (those shown to a riichi winner), riichi or not.

Every difference from the paifu is listed in ``docs/records.md``.
"""
# ruff: noqa: E741  (l: a seat counted from the hand's dealer, Majiang's and the paifu's name)

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from games.riichi.records.exports.tenhou6 import (
    Dapai,
    by_seat,
    code_order,
    discards_as_played,
    game_rule,
    hand_tiles,
    has_red,
    is_east_only,
    meld_layout,
    parse_meld,
    pingju_result,
    records,
    seat_names,
    seat_of,
    tile_code,
)

_HONOURS = "ESWNPFC"
_WINDS = "ESWN"


def pai(code: int) -> str:
    """mjai's name of a Tenhou tile number: ``1m``..``9s``, ``5mr`` a red five, ``E S W N``,
    ``P`` haku, ``F`` hatsu, ``C`` chun."""
    if code > 50:
        return "5" + "mps"[code - 51] + "r"
    suit, number = divmod(code, 10)
    return _HONOURS[number - 1] if suit == 4 else f"{number}{'mps'[suit - 1]}"


def tile(p: str) -> str:
    """mjai's name of a Majiang tile (``m0`` -> ``5mr``, ``z5`` -> ``P``)."""
    return pai(tile_code(p))


class _Kyoku:
    """One hand's records turned into mjai events, the kan dora placed as convlog places them."""

    def __init__(self, qipai: Mapping[str, Any], dora: list[str], ura: list[str]) -> None:
        self.jushu = qipai["jushu"]
        self.dora = iter(dora[1:])  # the kan dora, in the order they were turned
        self.ura = ura
        self.pending_accept: int | None = None
        # convlog's two flags: a kan dora is due at the next discard (open kan, kakan), and, after
        # a kakan that follows one, at the next draw as well.
        self.dora_at_discard = False
        self.dora_at_tsumo = False
        haipai = [sorted((tile_code(p) for p in hand_tiles(s)), key=code_order) for s in qipai["shoupai"]]
        self.events: list[dict[str, Any]] = [{
            "type": "start_kyoku",
            "bakaze": _WINDS[qipai["zhuangfeng"]],  # Majiang ends a game by the North round
            "dora_marker": dora[0],
            "kyoku": qipai["jushu"] + 1,
            "honba": qipai["changbang"],
            "kyotaku": qipai["lizhibang"],
            "oya": seat_of(self.jushu, 0),
            "scores": by_seat(qipai["defen"], self.jushu),
            "tehais": by_seat([[pai(code) for code in hand] for hand in haipai], self.jushu),
        }]

    def seat(self, data: Mapping[str, Any]) -> int:
        return seat_of(self.jushu, data["l"])

    def turn_dora(self) -> None:
        # A rule without kan dora (カンドラあり false) has no indicator to announce; convlog
        # refuses such a log (docs/records.md).
        marker = next(self.dora, None)
        if marker is not None:
            self.events.append({"type": "dora", "dora_marker": marker})

    def accept_riichi(self) -> None:
        if self.pending_accept is not None:
            self.events.append({"type": "reach_accepted", "actor": self.pending_accept})
            self.pending_accept = None

    def add(self, kind: str, data: Mapping[str, Any], dapai: Dapai | None) -> None:
        """One record; ``dapai`` is a discard as played (``discards_as_played``)."""
        if kind in ("zimo", "gangzimo"):
            self.tsumo(data)
        elif kind == "dapai":
            assert dapai is not None
            self.dahai(data, dapai)
        elif kind == "fulou":
            self.call(data)
        elif kind == "gang":
            self.kan(data)
        elif kind == "hule":
            self.hora(data)
        elif kind == "pingju":
            result = pingju_result(data, self.jushu)
            self.events.append({"type": "ryukyoku", "deltas": result[1] if len(result) > 1 else [0, 0, 0, 0]})
        elif kind != "kaigang":  # the indicators were read beforehand: they are placed by turn_dora
            raise ValueError(f"unknown paifu record {kind!r}")

    def tsumo(self, data: Mapping[str, Any]) -> None:
        self.accept_riichi()
        if self.dora_at_tsumo:
            self.turn_dora()
            self.dora_at_tsumo = False
        self.events.append({"type": "tsumo", "actor": self.seat(data), "pai": tile(data["p"])})

    def dahai(self, data: Mapping[str, Any], dapai: Dapai) -> None:
        actor = self.seat(data)
        if dapai.riichi:
            self.events.append({"type": "reach", "actor": actor})
            self.pending_accept = actor
        elif self.dora_at_discard:
            self.turn_dora()
            self.dora_at_discard = False
        self.events.append({"type": "dahai", "actor": actor, "pai": tile(dapai.tile), "tsumogiri": dapai.tsumogiri})

    def call(self, data: Mapping[str, Any]) -> None:
        self.accept_riichi()
        actor, meld = self.seat(data), parse_meld(data["m"])
        layout = meld_layout(meld)
        if meld.kind == "daiminkan" and self.dora_at_discard:
            self.turn_dora()  # only after a riichi discard left one waiting
        self.events.append({
            "type": meld.kind,
            "actor": actor,
            "target": (actor + meld.offset) % 4,
            "pai": pai(layout.pai),
            "consumed": [pai(code) for code in layout.consumed],
        })
        if meld.kind == "daiminkan":
            self.dora_at_discard = True

    def kan(self, data: Mapping[str, Any]) -> None:
        actor, meld = self.seat(data), parse_meld(data["m"])
        layout = meld_layout(meld)
        if meld.kind == "ankan":
            if self.dora_at_discard:
                self.turn_dora()
                self.dora_at_discard = False
            self.events.append({"type": "ankan", "actor": actor, "consumed": [pai(code) for code in layout.codes]})
            # Turned at once, before the replacement draw (Majiang records it after the draw).
            # An ankan is never robbed here (Majiang lets nobody rob one), so a draw follows.
            self.turn_dora()
            return
        if self.dora_at_discard:
            self.dora_at_tsumo = True
        self.events.append({"type": "kakan", "actor": actor, "pai": pai(layout.pai),
                            "consumed": [pai(code) for code in layout.consumed]})
        self.dora_at_discard = True

    def hora(self, data: Mapping[str, Any]) -> None:
        actor = self.seat(data)
        target = actor if data["baojia"] is None else seat_of(self.jushu, data["baojia"])
        self.events.append({"type": "hora", "actor": actor, "target": target,
                            "deltas": by_seat(data["fenpei"], self.jushu), "ura_markers": list(self.ura)})


def indicators(hand: Sequence[tuple[str, Mapping[str, Any]]]) -> tuple[list[str], list[str]]:
    """A hand's dora indicators (the first, then each kan's) and the ura indicators shown."""
    dora = [tile(hand[0][1]["baopai"])] + [tile(data["baopai"]) for kind, data in hand if kind == "kaigang"]
    ura = next(([tile(p) for p in data["fubaopai"]] for kind, data in hand if kind == "hule" and data.get("fubaopai")),
               [])
    return dora, ura


def kyoku_events(hand: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    pairs = records(hand)
    if not pairs or pairs[0][0] != "qipai":
        raise ValueError("a hand of the paifu starts with qipai")
    dora, ura = indicators(pairs)
    kyoku = _Kyoku(pairs[0][1], dora, ura)
    played = discards_as_played(pairs)
    for index, (kind, data) in enumerate(pairs[1:], 1):
        kyoku.add(kind, data, played.get(index))
    kyoku.events.append({"type": "end_kyoku"})
    return kyoku.events


def to_mjai(paifu: dict, rule: dict | None = None) -> list[dict]:
    """The mjai events of a Majiang paifu (``rule``: the game's ``Majiang.rule()``, default the
    paifu's own ``rule`` key, else Majiang's defaults)."""
    full_rule = game_rule(paifu, rule)
    events: list[dict[str, Any]] = [{
        "type": "start_game",
        "names": seat_names(paifu),
        "kyoku_first": 4 if is_east_only(full_rule) else 0,  # akochan's: the first hand's number
        "aka_flag": has_red(full_rule),
    }]
    for hand in paifu["log"]:
        events += kyoku_events(hand)
    events.append({"type": "end_game"})
    return events


__all__ = ["pai", "tile", "to_mjai"]
