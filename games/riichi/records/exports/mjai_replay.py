"""Replay an mjai event log through our riichi engine and list where it differs.

``replay_mjai(events, rule)`` rebuilds, from the mjai events alone, what ``engine.replay`` rebuilds
from a Majiang paifu: each hand's wall (the ``tehais`` dealt from the end in Majiang's order, the
dealer first; each ``tsumo`` from the end, a draw after a kan from the front; the dora markers at
4 + i, a ``hora``'s ``ura_markers`` at 9 + i) and every player's decisions, then plays the game
with ``game.Game`` and compares ``to_mjai`` of the paifu the engine wrote with the input, event
for event. An empty list means the log replays exactly through our engine.

The decisions are answered while the engine plays, from the engine's own state: an mjai call
names its tiles (``pai``, ``consumed``), not Majiang's meld string, so the reply is the engine's
candidate meld with those tiles; and a ``ryukyoku`` says nothing of its kind, so it is read from
where it stands (docs/records.md, "Replaying mjai through our engine"):

- right after the actor's ``tsumo``: 九種九牌, the only draw a player declares on their own turn;
- right after a discard that the three other players could all ron (``最大同時和了数`` 2): 三家和;
- after the last discard, under ノーテン宣言あり: the hands shown are read from the deltas;
- anything else (四風連打, 四家立直, 四開槓, the exhaustive draw, 流し満貫) the engine decides alone.

Unknown wall tiles are filled with the tiles the hand does not show. One kind of unknown tile
matters: a kan indicator Majiang turned that mjai never announced (docs/records.md, mjai 1) scores
the win; it is filled with a tile whose dora no winner held, exact whenever the real one gave none.

Seats: mjai's actor 0 is the first dealer. The engine is started with ``qijia`` 0 and the players
named in ``start_game``'s seat order, so mjai seat ``s`` is the engine's player ``s`` and, in each
hand, relative seat ``l`` is player ``player_id[l]`` (``to_mjai`` maps them back the same way).

Pure Python, no Django (the spare tiles come from ``engine.shan.spare_tiles``, as for the
platform's import).
"""
# ruff: noqa: E741  (l: a seat counted from the hand's dealer, Majiang's and the paifu's name)

from __future__ import annotations

import difflib
import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from games.riichi.engine.game import DAPAI, FULOU, GANG, GANGZIMO, ZIMO, Game
from games.riichi.engine.rule import rule as make_rule
from games.riichi.engine.shan import Shan, spare_tiles
from games.riichi.engine.tile import zhenbaopai
from games.riichi.records.exports.mjai import pai, to_mjai
from games.riichi.records.exports.tenhou6 import meld_layout, parse_meld

Event = Mapping[str, Any]
Reply = dict[str, Any]

_HONOURS = "ESWNPFC"
_CALLS = ("chi", "pon", "daiminkan")
_KANS = ("ankan", "kakan", "daiminkan")
# The events a replay reads beyond the wall: the draws (to keep in step with the engine's
# messages) and every decision. dora, reach_accepted and the kyoku's frame are the engine's to
# write; reach is folded into the dahai it announces.
_STEPS = ("tsumo", "dahai", "chi", "pon", "daiminkan", "ankan", "kakan", "hora", "ryukyoku")


class _Stop(Exception):
    """The replay cannot go on (a hand the events do not have, a wall that cannot be rebuilt)."""


# --- tiles ----------------------------------------------------------------------------------------


def majiang_tile(p: str) -> str:
    """Majiang's name of an mjai tile: ``5mr`` -> ``m0``, ``3p`` -> ``p3``, ``E`` -> ``z1``,
    ``P``/``F``/``C`` (haku, hatsu, chun) -> ``z5``/``z6``/``z7``."""
    if isinstance(p, str) and len(p) == 1 and p in _HONOURS:
        return "z" + str(_HONOURS.index(p) + 1)
    if isinstance(p, str) and len(p) == 3 and p[0] == "5" and p[1] in "mps" and p[2] == "r":
        return p[1] + "0"
    if isinstance(p, str) and len(p) == 2 and p[0] in "123456789" and p[1] in "mps":
        return p[1] + p[0]
    raise ValueError(f"not an mjai tile: {p!r}")


# --- the wall -------------------------------------------------------------------------------------


class _Wall:
    """One hand's 136 tiles in Majiang's wall order (``shan.Shan``), filled as the events show
    them; ``'_'`` where they show nothing. The regions never overlap: replacement draws 0-3, dora
    indicators 4-8, ura indicators 9-13, ordinary draws (the deal first) from 135 down to 14."""

    def __init__(self) -> None:
        self.pai = ["_"] * 136
        self.end = 136  # the next ordinary draw is pai[end - 1]
        self.front = 0  # the next replacement draw
        self.n_dora = 0
        self.has_ura = False

    def draw(self, p: str) -> None:
        if self.end <= 14:
            raise ValueError("more draws than a wall holds")
        self.end -= 1
        self.pai[self.end] = majiang_tile(p)

    def rinshan(self, p: str) -> None:
        if self.front >= 4:
            raise ValueError("more than four replacement draws")
        self.pai[self.front] = majiang_tile(p)
        self.front += 1

    def indicator(self, p: str) -> None:
        if self.n_dora >= 5:
            raise ValueError("more than five dora indicators")
        self.pai[4 + self.n_dora] = majiang_tile(p)
        self.n_dora += 1

    def ura(self, markers: Sequence[str]) -> None:
        # Every hora of a hand carries the same markers (docs/records.md, mjai 3): the first wins.
        if self.has_ura or not markers:
            return
        if len(markers) > 5:
            raise ValueError("more than five ura indicators")
        for i, p in enumerate(markers):
            self.pai[9 + i] = majiang_tile(p)
        self.has_ura = True

    def completed(self, rule: Mapping[str, Any], unannounced: int, avoid: frozenset[str]) -> list[str]:
        """The wall with its unknown tiles filled by the tiles of the rule's set the hand does not
        show, in Majiang's unshuffled order (as ``paifu_import.complete_wall``): the engine never
        draws them, but a whole set makes a valid ``Shan``. The one exception: the next
        ``unannounced`` indicator slots, which the engine turns although mjai never announces
        them (docs/records.md, mjai 1), get a tile whose dora is none of ``avoid`` (the winners'
        tiles), so the win is scored as if that indicator gave no dora, the likelier case."""
        spare = spare_tiles(rule, self.pai)
        pai = list(self.pai)
        for index in range(4 + self.n_dora, min(4 + self.n_dora + unannounced, 9)):
            if pai[index] == "_" and spare:
                pai[index] = spare.pop(_no_dora_for(spare, avoid))
        rest = iter(spare)
        return [p if p != "_" else next(rest) for p in pai]


def _kind(p: str) -> str:
    """A Majiang tile's kind: a red five is a five."""
    return p[0] + ("5" if p[1] == "0" else p[1])


def _no_dora_for(spare: Sequence[str], avoid: frozenset[str]) -> int:
    """The first spare tile whose dora is not in ``avoid`` (else the first)."""
    return next((i for i, p in enumerate(spare) if zhenbaopai(p) not in avoid), 0)


# --- one hand read ----------------------------------------------------------------------------


@dataclass
class _Step:
    """An event the replay answers or keeps step with; ``riichi`` for a dahai after ``reach``."""

    event: Event
    riichi: bool = False

    @property
    def type(self) -> str:
        return str(self.event.get("type"))

    @property
    def actor(self) -> Any:
        return self.event.get("actor")


@dataclass
class _Kyoku:
    """One hand of the events: its wall, its steps, and whether the next hand kept its dealer
    (the one trace mjai leaves of a dealer's tenpai declaration)."""

    wall: list[str] = field(default_factory=list)
    steps: list[_Step] = field(default_factory=list)
    dealer_kept: bool = False
    error: str | None = None


class _Winners:
    """The tile kinds each seat held at some time in a hand, and the last tile given up (a ron's
    tile): what a winner's hand may hold, to keep an unannounced indicator off it."""

    def __init__(self, tehais: Sequence[Sequence[str]]) -> None:
        self.seen = [{_kind(majiang_tile(p)) for p in hand} for hand in tehais]
        self.given: str | None = None
        self.tiles: set[str] = set()

    def add(self, event: Event) -> None:
        kind = event.get("type")
        if kind in ("tsumo", "chi", "pon", "daiminkan"):
            self.seen[event["actor"]].add(_kind(majiang_tile(event["pai"])))
        elif kind in ("dahai", "kakan"):
            self.given = _kind(majiang_tile(event["pai"]))
        elif kind == "hora":
            self.tiles |= self.seen[event["actor"]]
            if event.get("target") != event["actor"] and self.given:
                self.tiles.add(self.given)


def _read_kyoku(segment: Sequence[Event], rule: Mapping[str, Any]) -> _Kyoku:
    start = segment[0]
    wall = _Wall()
    oya = start["oya"]
    for l in range(4):  # Majiang deals 13 tiles to each seat in turn, the dealer first
        for p in start["tehais"][(oya + l) % 4]:
            wall.draw(p)
    wall.indicator(start["dora_marker"])
    winners = _Winners(start["tehais"])
    kyoku = _Kyoku()
    after_kan = riichi = False
    n_kans = 0
    for event in segment[1:]:
        kind = event.get("type")
        winners.add(event)
        if kind == "tsumo":
            (wall.rinshan if after_kan else wall.draw)(event["pai"])
            after_kan = False
        elif kind == "dora":
            wall.indicator(event["dora_marker"])
        elif kind == "reach":
            riichi = True
            continue
        elif kind == "hora":
            wall.ura(event.get("ura_markers") or [])
        if kind in _KANS:
            after_kan = True
            n_kans += 1
        if kind in _STEPS:
            kyoku.steps.append(_Step(event, riichi and kind == "dahai"))
        riichi = False
    # Each kan turns one indicator; those mjai did not announce may still have been turned.
    unannounced = max(0, 1 + n_kans - wall.n_dora)
    kyoku.wall = wall.completed(rule, unannounced, frozenset(winners.tiles))
    return kyoku


def _segments(events: Sequence[Event]) -> tuple[list[Event], list[list[Event]], list[Event]]:
    """The events before the first hand, each hand (``start_kyoku`` up to its ``end_kyoku``),
    and the events after the last hand."""
    head: list[Event] = []
    hands: list[list[Event]] = []
    tail: list[Event] = []
    current: list[Event] | None = None
    for event in events:
        kind = event.get("type")
        if kind == "start_kyoku":
            current = [event]
            hands.append(current)
        elif current is not None:
            current.append(event)
            if kind == "end_kyoku":
                current = None
        elif hands:
            tail.append(event)
        else:
            head.append(event)
    return head, hands, tail


def _read_kyokus(events: Sequence[Event], rule: Mapping[str, Any]) -> list[_Kyoku]:
    """Every hand's wall and steps; a hand that cannot be read keeps its error (the replay
    stops there)."""
    _, hands, _ = _segments(events)
    kyokus = []
    for i, hand in enumerate(hands):
        try:
            kyoku = _read_kyoku(hand, rule)
        except (KeyError, IndexError, TypeError, ValueError) as error:
            kyoku = _Kyoku(error=f"kyoku {i}: cannot rebuild the wall: {type(error).__name__}: {error}")
        if i + 1 < len(hands):
            kyoku.dealer_kept = hands[i + 1][0].get("oya") == hand[0].get("oya")
        kyokus.append(kyoku)
    return kyokus


# --- replies --------------------------------------------------------------------------------------


def dapai_reply(step: _Step) -> str:
    """Majiang's discard: the tile, ``_`` when it is the tile just drawn, ``*`` for riichi."""
    event = step.event
    return majiang_tile(event["pai"]) + ("_" if event.get("tsumogiri") else "") + ("*" if step.riichi else "")


def meld_matches(m: str, event: Event) -> bool:
    """Is Majiang's meld ``m`` the call ``event`` (same kind, same called or added tile, same
    tiles from the hand)? The order of ``consumed`` is not compared: a red five's place in it is
    a writer's choice."""
    meld = parse_meld(m)
    if meld.kind != event.get("type"):
        return False
    layout = meld_layout(meld)
    if meld.kind == "ankan":
        return sorted(pai(code) for code in layout.codes) == sorted(event.get("consumed") or [])
    return pai(layout.pai) == event.get("pai") and sorted(pai(code) for code in layout.consumed) == sorted(
        event.get("consumed") or [])


def _matching(candidates: Sequence[str] | None, event: Event) -> str | None:
    return next((m for m in candidates or () if meld_matches(m, event)), None)


class _Driver:
    """Deals the events' walls to the engine and answers its messages from the events' steps,
    in the order the engine asks (Game.run's ``players``)."""

    def __init__(self, kyokus: list[_Kyoku], rule: Mapping[str, Any]) -> None:
        self.kyokus = kyokus
        self.rule = rule
        self.index = -1
        self.cursor = 0

    @property
    def kyoku(self) -> _Kyoku:
        return self.kyokus[self.index]

    def next_shan(self, game: Game) -> Shan:
        self.index += 1
        if self.index >= len(self.kyokus):
            raise _Stop(f"kyoku {self.index}: the engine deals a hand the events do not have")
        if self.kyoku.error:
            raise _Stop(self.kyoku.error)
        self.cursor = 0
        return Shan(self.rule, self.kyoku.wall)

    def peek(self) -> _Step | None:
        steps = self.kyoku.steps
        return steps[self.cursor] if self.cursor < len(steps) else None

    def take(self) -> _Step:
        step = self.kyoku.steps[self.cursor]
        self.cursor += 1
        return step

    def players(self, game: Game) -> None:
        replies: list[Reply] = [{}, {}, {}, {}]
        answer: dict[str, Callable[[Game, list[Reply]], None]] = {
            ZIMO: self.on_draw, GANGZIMO: self.on_draw, DAPAI: self.on_discard, FULOU: self.on_call,
            GANG: self.on_kan,
        }
        answer[str(game.status)](game, replies)
        game._reply = replies

    def on_draw(self, game: Game, replies: list[Reply]) -> None:
        """The drawer's decision: discard (riichi), ankan/kakan, tsumo, or 九種九牌."""
        step = self.peek()
        if step is not None and step.type == "tsumo":
            self.take()  # the engine has just made this draw
            step = self.peek()
        l = game.lunban
        seat = game.player_id[l]
        if step is None:
            return
        if step.type == "ryukyoku":  # a draw right after one's own tsumo: 九種九牌
            replies[l] = {"daopai": "-"}
        elif step.actor != seat:
            return  # not this player's turn in the events: the engine goes its own way
        elif step.type == "dahai":
            replies[l] = {"dapai": dapai_reply(step)}
        elif step.type in ("ankan", "kakan"):
            m = _matching(game.get_gang_mianzi(), step.event)
            if m is not None:
                replies[l] = {"gang": m}
        elif step.type == "hora" and step.event.get("target") == seat:
            replies[l] = {"hule": "-"}
        else:
            return
        self.take()

    def on_discard(self, game: Game, replies: list[Reply]) -> None:
        """The others' answer to a discard: ron (one or more), a call, or a draw's declarations;
        a ``tsumo`` next in the events means everybody passed."""
        discarder = game.player_id[game.lunban]
        if self.take_rons(game, replies, discarder):
            return
        step = self.peek()
        if step is None:
            return
        if step.type in _CALLS and step.event.get("target") == discarder and step.actor != discarder:
            l = game.seat_of(step.actor)
            candidates = {"chi": game.get_chi_mianzi, "pon": game.get_peng_mianzi,
                          "daiminkan": game.get_gang_mianzi}[step.type](l)
            m = _matching(candidates, step.event)
            if m is not None:
                replies[l] = {"fulou": m}
            self.take()
        elif step.type == "ryukyoku":
            self.draw_replies(game, replies, self.take().event)

    def on_call(self, game: Game, replies: list[Reply]) -> None:
        """A chi or pon's discard; after an open kan the replacement draw comes unasked."""
        if game._gang:
            return
        step = self.peek()
        l = game.lunban
        if step is not None and step.type == "dahai" and step.actor == game.player_id[l]:
            replies[l] = {"dapai": dapai_reply(self.take())}

    def on_kan(self, game: Game, replies: list[Reply]) -> None:
        """A kakan may be robbed (槍槓); Majiang lets nobody rob an ankan."""
        self.take_rons(game, replies, game.player_id[game.lunban])

    def take_rons(self, game: Game, replies: list[Reply], target: int) -> bool:
        """Answer with every ``hora`` on ``target``'s tile that comes next in the events."""
        taken = False
        while (step := self.peek()) is not None and step.type == "hora" and step.event.get("target") == target \
                and step.actor != target:
            replies[game.seat_of(self.take().actor)] = {"hule": "-"}
            taken = True
        return taken

    def draw_replies(self, game: Game, replies: list[Reply], event: Event) -> None:
        """A ``ryukyoku`` right after a discard. Three players who may all ron it make it 三家和
        (with at most two winners); at the exhaustive draw under ノーテン宣言あり the hands shown
        are those the deltas pay (noten payments) and, when nobody pays, all of them if the
        dealer kept the deal (連荘方式 2: only a tenpai dealer does). The other draws need no
        answer."""
        others = [(game.lunban + i) % 4 for i in (1, 2, 3)]
        if self.rule["最大同時和了数"] == 2 and all(game.allow_hule(l) for l in others):
            for l in others:
                replies[l] = {"hule": "-"}
            return
        assert game.shan is not None
        if game.shan.paishu or not self.rule["ノーテン宣言あり"]:
            return
        deltas = event.get("deltas") or [0, 0, 0, 0]
        everyone = not any(deltas) and self.kyoku.dealer_kept and self.rule["連荘方式"] == 2
        for l in range(4):
            if everyone or deltas[game.player_id[l]] > 0:
                replies[l] = {"daopai": "-"}


# --- comparison -----------------------------------------------------------------------------------


def _text(event: Event) -> str:
    return json.dumps(event, ensure_ascii=False, sort_keys=True, separators=(",", ":"))


def _list_differences(label: str, expected: Sequence[Event], actual: Sequence[Event]) -> list[str]:
    """Every event of ``expected`` the engine did not write as such, aligned by difflib so that
    one missing or extra event does not shift the rest (``event i``: its index in ``expected``)."""
    a, b = [_text(e) for e in expected], [_text(e) for e in actual]
    out = []
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if tag == "equal":
            continue
        for k in range(max(i2 - i1, j2 - j1)):
            i, j = i1 + k, j1 + k
            if i < i2 and j < j2:
                out.append(f"{label} event {i}: expected {a[i]}, the engine wrote {b[j]}")
            elif i < i2:
                out.append(f"{label} event {i}: expected {a[i]}, the engine wrote nothing")
            else:
                out.append(f"{label} before event {i2}: the engine wrote {b[j]}, the events have nothing")
    return out


def _kyoku_label(index: int, hand: Sequence[Event]) -> str:
    start = hand[0]
    return f"kyoku {index} ({start.get('bakaze')}{start.get('kyoku')}-{start.get('honba')})"


def event_differences(expected: Sequence[Event], actual: Sequence[Event]) -> list[str]:
    """Every difference between two mjai event lists, hand by hand (``kyoku i``: the i-th hand,
    counted from 0)."""
    head_a, hands_a, tail_a = _segments(expected)
    head_b, hands_b, tail_b = _segments(actual)
    out = _list_differences("game start", head_a, head_b)
    for i in range(max(len(hands_a), len(hands_b))):
        if i >= len(hands_b):
            out.append(f"{_kyoku_label(i, hands_a[i])}: the engine did not play it")
        elif i >= len(hands_a):
            out.append(f"{_kyoku_label(i, hands_b[i])}: the engine played a hand the events do not have")
        else:
            out += _list_differences(_kyoku_label(i, hands_a[i]), hands_a[i], hands_b[i])
    return out + _list_differences("game end", tail_a, tail_b)


# --- the replay -----------------------------------------------------------------------------------


def events_rule(events: Sequence[Event], rule: Mapping[str, Any] | None) -> dict[str, Any]:
    """The full ``Majiang.rule()`` to replay with: ``rule`` (full or only the overrides), else
    Majiang's defaults with what ``start_game`` says (``aka_flag``: red fives or none;
    ``kyoku_first`` 4: an east-only game)."""
    if rule is not None:
        return make_rule(rule)
    start = next((e for e in events if e.get("type") == "start_game"), {})
    overrides: dict[str, Any] = {}
    if start.get("aka_flag") is False:
        overrides["赤牌"] = {"m": 0, "p": 0, "s": 0}
    if start.get("kyoku_first") == 4:
        overrides["場数"] = 1
    return make_rule(overrides)


def _names(events: Sequence[Event]) -> list[str]:
    start = next((e for e in events if e.get("type") == "start_game"), {})
    names = start.get("names")
    return [str(name) for name in names] if isinstance(names, list) and len(names) == 4 else ["", "", "", ""]


def replay_mjai(events: list[dict], rule: dict | None = None) -> list[str]:
    """Replay mjai ``events`` through our engine under ``rule`` (the game's ``Majiang.rule()``,
    full or its overrides; default: Majiang's, with ``start_game``'s red fives and length) and
    return every difference between ``events`` and the mjai of the paifu the engine wrote
    (``[]``: the log replays exactly)."""
    try:
        full_rule = events_rule(events, rule)
    except ValueError as error:
        return [f"rule: {error}"]
    driver = _Driver(_read_kyokus(events, full_rule), full_rule)
    game = Game(full_rule, shan=driver.next_shan, player=_names(events))
    problems = []
    try:
        game.run(driver.players, 0)  # qijia 0: mjai's seat 0 is the first dealer
    except _Stop as stop:
        problems.append(str(stop))
    except Exception as error:  # noqa: BLE001 - the engine refusing a hand is a difference too
        problems.append(f"kyoku {driver.index}: engine error: {type(error).__name__}: {error}")
    try:
        written = to_mjai(game.paipu, full_rule)
    except Exception as error:  # noqa: BLE001 - a paifu cut short by an error may not export
        return [*problems, f"the engine's paifu does not export: {type(error).__name__}: {error}"]
    return problems + event_differences(events, written)


__all__ = ["event_differences", "majiang_tile", "replay_mjai"]
