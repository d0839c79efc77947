"""Replay a Majiang paifu through the game flow and report where it diverges.

As ``Majiang.Dev.Game`` does, each hand's wall is rebuilt from the hand's records (``qipai``
hands and ``zimo`` draws from the end, ``gangzimo`` draws from the front, the dora indicators of
``qipai``/``kaigang`` and the ura indicators of a ``hule`` in the dead wall) and every player's
replies from the decisions recorded (``dapai``, ``fulou``, ``gang``, ``hule``, the ``daopai`` implied
by a ``pingju`` that shows a hand). The game is then played again by ``game.Game`` and each hand's
records, and finally the paifu's ``defen``, ``point``, ``rank`` (and ``title``, ``player``,
``qijia``), must equal the original.

One deliberate difference from Dev.Game: without 裏ドラあり the rebuilt wall has no ura indicators
(Dev.Game always makes one, which makes a riichi win unscorable under that rule).

``replay(paifu, rule)`` returns ``None`` or the first ``Divergence``; ``regenerate(paifu, rule)``
returns the paifu our engine writes for the same walls and decisions.
"""
# ruff: noqa: E741  (l: a seat counted from the hand's dealer, Majiang's and the paifu's name)

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from games.riichi.engine.game import Game
from games.riichi.engine.rule import rule as make_rule
from games.riichi.engine.shan import Shan

_SUITSTR = re.compile(r"[mpsz][0-9]+")
_EMPTY: dict[str, Any] = {}
_TOP_KEYS = ("title", "player", "qijia", "defen", "point", "rank")


@dataclass
class Divergence:
    """Where the replay first differs from the paifu."""

    hand: int | None  # index in the paifu's log, None for the final result
    record: int | None  # index in the hand
    expected: Any
    actual: Any
    message: str

    def __str__(self) -> str:
        where = "result" if self.hand is None else f"hand {self.hand}" + (
            "" if self.record is None else f" record {self.record}"
        )
        return f"{where}: {self.message}"


class _Stop(Exception):
    def __init__(self, divergence: Divergence) -> None:
        super().__init__(str(divergence))
        self.divergence = divergence


def make_shan(rule: Mapping[str, Any], log: list[dict[str, Any]]) -> Shan:
    """The wall of one hand, rebuilt from its records (unknown tiles are ``'_'``)."""
    pai = ["_"] * 136
    zimo_idx = 136
    gang_idx = 0
    baopai: list[str] = []
    fubaopai: list[str] = []
    for data in log:
        if "qipai" in data:
            qipai = data["qipai"]
            for paistr in qipai["shoupai"]:
                for suitstr in _SUITSTR.findall(paistr):
                    s = suitstr[0]
                    for n in suitstr[1:]:
                        zimo_idx -= 1
                        pai[zimo_idx] = s + n
            baopai.append(qipai["baopai"])
        elif "zimo" in data:
            zimo_idx -= 1
            pai[zimo_idx] = data["zimo"]["p"]
        elif "gangzimo" in data:
            pai[gang_idx] = data["gangzimo"]["p"]
            gang_idx += 1
        elif "kaigang" in data:
            baopai.append(data["kaigang"]["baopai"])
        elif "hule" in data and data["hule"].get("fubaopai"):
            fubaopai = data["hule"]["fubaopai"]
    for i, p in enumerate(baopai):
        pai[4 + i] = p
    for i, p in enumerate(fubaopai):
        pai[9 + i] = p
    return Shan(rule, pai)


def make_replies(log: list[dict[str, Any]]) -> list[list[dict[str, Any]]]:
    """Each seat's replies to the hand's messages, in order (the reply to message k, counting
    qipai as 0, is the decision recorded in record k + 1)."""
    replies: list[list[dict[str, Any]]] = [[], [], [], []]
    for data in log:
        if "zimo" in data or "gangzimo" in data:
            for r in replies:
                r.append(_EMPTY)
        elif "dapai" in data:
            d = data["dapai"]
            for l, r in enumerate(replies):
                r.append({"dapai": d["p"]} if l == d["l"] else _EMPTY)
        elif "fulou" in data:
            d = data["fulou"]
            for l, r in enumerate(replies):
                r.append({"fulou": d["m"]} if l == d["l"] else _EMPTY)
        elif "gang" in data:
            d = data["gang"]
            for l, r in enumerate(replies):
                r.append({"gang": d["m"]} if l == d["l"] else _EMPTY)
        elif "pingju" in data:
            d = data["pingju"]
            reply = {"hule": "-"} if d["name"].startswith("三家和") else {"daopai": "-"}
            for l, r in enumerate(replies):
                if d["shoupai"][l]:
                    r.append(reply)
        elif "hule" in data:
            replies[data["hule"]["l"]].append({"hule": "-"})
    return replies


def _first_difference(expected: list[Any], actual: list[Any]) -> int:
    for i, (a, b) in enumerate(zip(expected, actual)):
        if a != b:
            return i
    return min(len(expected), len(actual))


def _describe(record: Any) -> str:
    if not isinstance(record, dict) or len(record) != 1:
        return repr(record)
    (kind, data), = record.items()
    if kind in ("hule", "pingju") and isinstance(data, dict):
        brief = {k: data.get(k) for k in ("l", "name", "defen", "fenpei") if k in data}
        return f"{kind} {brief}"
    return f"{kind} {data}"


_DECISIONS = ("dapai", "fulou", "gang", "hule", "pingju")


class _Replayer:
    __slots__ = ("rule", "logs", "hand", "replies", "game", "expected_log")

    def __init__(self, paifu: Mapping[str, Any], rule: Mapping[str, Any]) -> None:
        self.rule = rule
        self.logs: list[list[dict[str, Any]]] = paifu["log"]
        self.hand = -1
        self.replies: list[list[dict[str, Any]]] = [[], [], [], []]
        self.game = Game(rule, shan=self.next_shan, title=paifu.get("title", ""), player=paifu.get("player"))

    def check_hand(self) -> None:
        """Compare the hand just played with the paifu's."""
        if self.hand < 0:
            return
        expected = self.logs[self.hand]
        actual = self.game.paipu["log"][self.hand]
        if expected != actual:
            i = _first_difference(expected, actual)
            exp = expected[i] if i < len(expected) else None
            act = actual[i] if i < len(actual) else None
            if exp is None:
                message = f"extra record {_describe(act)}"
            elif act is None:
                message = f"missing record {_describe(exp)}"
            else:
                kind = next(iter(exp))
                if kind in _DECISIONS and next(iter(act)) != kind or kind in ("dapai", "fulou", "gang") and exp != act:
                    message = f"decision {_describe(exp)} not taken: the engine made {_describe(act)}"
                else:
                    message = f"expected {_describe(exp)}, got {_describe(act)}"
            raise _Stop(Divergence(self.hand, i, exp, act, message))

    def next_shan(self, game: Game) -> Shan:
        self.check_hand()
        self.hand += 1
        if self.hand >= len(self.logs):
            raise _Stop(Divergence(self.hand, None, None, None, "the engine plays a hand the paifu does not have"))
        log = self.logs[self.hand]
        self.replies = make_replies(log)
        return make_shan(self.rule, log)

    def players(self, game: Game) -> None:
        k = game._n_message
        replies = self.replies
        game._reply = [r[k] if k < len(r) else _EMPTY for r in replies]


def _run(paifu: Mapping[str, Any], rule: Mapping[str, Any] | None) -> tuple[_Replayer, Divergence | None]:
    rule = make_rule() if rule is None else rule
    replayer = _Replayer(paifu, rule)
    game = replayer.game
    try:
        game.run(replayer.players, paifu.get("qijia", 0))
        replayer.check_hand()
    except _Stop as stop:
        return replayer, stop.divergence
    except Exception as error:  # noqa: BLE001 - any engine failure is a divergence of this game
        hand = replayer.hand
        record = None
        if 0 <= hand < len(game.paipu.get("log", [])) and hand < len(replayer.logs):
            actual = game.paipu["log"][hand]
            expected = replayer.logs[hand]
            if expected[: len(actual)] != actual:
                try:
                    replayer.check_hand()  # a record that went wrong before the failure says more
                except _Stop as stop:
                    return replayer, stop.divergence
            record = len(actual)
        return replayer, Divergence(hand, record, None, None, f"engine error: {type(error).__name__}: {error}")
    return replayer, None


def regenerate(paifu: Mapping[str, Any], rule: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The paifu our engine writes for the walls and decisions of ``paifu`` (stops early at a
    divergence)."""
    replayer, _ = _run(paifu, rule)
    return replayer.game.paipu


def replay(paifu: Mapping[str, Any], rule: Mapping[str, Any] | None = None) -> Divergence | None:
    """Replay ``paifu`` under ``rule`` (a full ``rule()`` dict; default ``rule()``); ``None`` when
    every record and the final result match, else the first divergence."""
    replayer, divergence = _run(paifu, rule)
    if divergence is not None:
        return divergence
    produced = replayer.game.paipu
    if len(produced["log"]) != len(paifu["log"]):
        return Divergence(None, None, len(paifu["log"]), len(produced["log"]),
                          f"the paifu has {len(paifu['log'])} hands, the engine played {len(produced['log'])}")
    for key in _TOP_KEYS:
        if key in paifu and paifu[key] != produced[key]:
            return Divergence(None, None, paifu[key], produced[key],
                              f"{key}: expected {paifu[key]!r}, got {produced[key]!r}")
    return None


@dataclass
class Entry:
    """One paifu to check: where it came from, its rule overrides and the paifu."""

    source: str
    overrides: dict[str, Any]
    paifu: dict[str, Any]


def _entry(obj: Any, source: str, default: Mapping[str, Any]) -> Entry:
    if isinstance(obj, dict) and isinstance(obj.get("paifu"), dict):
        if "rule" not in obj:  # no rule beside it: the paifu's own, as for a bare one
            return _entry(obj["paifu"], source, default)
        return Entry(source, dict(obj.get("rule") or {}), obj["paifu"])
    if isinstance(obj, dict) and isinstance(obj.get("log"), list):
        # A paifu downloaded from this site carries its rule (the full Majiang.rule()) beside
        # Majiang's keys: it is how the game was played, so it wins over the default for bare paifu.
        own = obj.get("rule")
        if own is not None and not isinstance(own, dict):
            raise ValueError(f"{source}: the paifu's rule is not an object")
        return Entry(source, dict(own if own is not None else default), obj)
    raise ValueError(f"{source}: not a paifu")


def read_entries(path: str, default: Mapping[str, Any] | None = None) -> list[Entry]:
    """The paifu in a file: one JSON document (a paifu, a ``{"rule", "paifu"}`` object or a list
    of either, like the oracle's script.json) or JSON lines of ``{"rule": overrides, "paifu"}``.
    ``default`` is the rule overrides for a bare paifu without a ``rule`` key of its own (this
    site's download has one)."""
    import json

    default = default or {}
    with open(path, encoding="utf-8") as handle:
        text = handle.read()
    try:
        doc = json.loads(text)
    except ValueError:
        doc = None
        lines = [(n, line) for n, line in enumerate(text.splitlines(), 1) if line.strip()]
        return [_entry(json.loads(line), f"{path}:{n}", default) for n, line in lines]
    if isinstance(doc, list):
        return [_entry(obj, f"{path}[{i}]", default) for i, obj in enumerate(doc)]
    return [_entry(doc, path, default)]
