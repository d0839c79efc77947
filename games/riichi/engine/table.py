"""Riichi mahjong on the platform: ``RiichiGame`` implements ``games.core.engine.Engine``.

The flow is ``game.Game`` (Majiang's, message for message); this class feeds it the players'
replies one action at a time and turns its records into platform events.

Actions are the replies of Majiang's protocol (seed 001):

| action | params | Majiang reply | when |
| --- | --- | --- | --- |
| ``kaiju`` | ``[]`` | - | the initial action (the host's seat) that starts the game |
| ``dapai`` | ``["m1"]``, ``["m1_"]``, ``["m1*"]`` | ``{dapai}`` | after a draw or a chi/pon |
| ``fulou`` | ``["m1-23"]`` | ``{fulou}`` | chi, pon, daiminkan on a discard |
| ``gang`` | ``["m1111"]``, ``["m111=1"]`` | ``{gang}`` | ankan, kakan after a draw |
| ``hule`` | ``[]`` | ``{hule: '-'}`` | tsumo, ron, chankan |
| ``pingju`` | ``[]`` | ``{daopai: '-'}`` | 九種九牌 on the first draw |
| ``daopai`` | ``[]`` | ``{daopai: '-'}`` | show a tenpai hand at the exhaustive draw (ノーテン宣言あり) |
| ``pass`` | ``[]`` | ``{}`` | nothing; on one's own turn: the default discard |

Who is asked (``to_act``), chosen so that being asked never tells anyone what a seat could do:

- after a draw (``zimo``/``gangzimo``): the player on turn;
- after a chi or pon: the caller (to discard); after a daiminkan nobody (the replacement draw
  follows);
- after a discard: **all three other seats, always**, whether or not they could call or win;
  each must answer (``pass`` if nothing else); at the last discard with ノーテン宣言あり the
  discarder too (to show a tenpai hand or not);
- after a kakan: all three other seats (chankan); after an ankan nobody (Majiang allows no
  chankan on an ankan, not even for kokushi);
- nobody for qipai, kaigang, hule, pingju: the game moves on at once.

Replies are collected without events (a call is not revealed before the others have answered)
and handled when the last one arrives, in Majiang's order (ron before pon/kan before chi).
Unlike Majiang, which plays an invalid reply as a pass or tsumogiri, the platform rejects an
action that is not in ``legal_actions`` (the state is untouched); ``auto_action`` is the
tsumogiri (the default discard after a call) or ``pass``.

Events are Majiang's messages: ``kaiju``, ``qipai``, ``zimo``, ``dapai``, ``fulou``, ``gang``,
``gangzimo``, ``kaigang``, ``hule``, ``pingju``, ``jieju``, each with ``params = [data]`` (the paifu
record, ``l`` relative to the hand's dealer) and ``player`` = the seat acting. Each seat sees them
masked exactly as Majiang masks them for that player: in ``qipai`` the other hands are ``''``, in
``zimo``/``gangzimo`` another player's tile is ``''``; ``kaiju`` carries the seat's own ``id``.
"""
# ruff: noqa: E741  (l: a seat counted from the hand's dealer, Majiang's and the paifu's name)

from __future__ import annotations

import random
import re
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from games.core.engine import Event, Mode, Rejection
from games.riichi.engine.allow import allow_no_daopai
from games.riichi.engine.game import DAPAI, FULOU, GANG, GANGZIMO, HULE, JIEJU, KAIJU, PINGJU, QIPAI, ZIMO, Game
from games.riichi.engine.presets import DEFAULT_PRESET, PRESET_KEY
from games.riichi.engine.presets import get as get_preset
from games.riichi.engine.rule import rule as make_rule
from games.riichi.engine.shan import Shan
from games.riichi.engine.shoupai import Shoupai
from games.riichi.engine.xiangting import xiangting

SEATS = 4
# A platform rule the lobby sets on every riichi game it starts (games/core/registry.py): after a win or
# a draw the game waits for every seat's pass (an "ack") before the next hand, as Majiang's own
# Game waits for every player's reply. A terminal that shows the hand's end (mmj's ack,
# docs/protocols/mmj.md) holds the table there until it is ready; every other client passes at
# once. Games started before it replay without it, as they were played.
HAND_END_ACK = "hand_end_ack"
# An imported game's walls cannot be drawn from a seed: games/riichi/records/paifu_import.py keeps them in
# ``rules["imported"]`` = ``{"walls": [[136 tiles] per hand], "qijia": first dealer, "title": ...}``
# (reserved: games.service.lobby.RESERVED_RULES), and ``create`` deals from them.
IMPORTED = "imported"
# A platform rule the lobby sets on a game dealt from a named seed (a bot bench's pair of tables,
# games/service/lobby.py's DEAL_SEED): each hand's wall comes from the seed and the hand's round,
# dealer and counters (場風, 局, 本場) instead of the seed's next draw, so two tables whose play
# differs are still dealt alike whenever they reach the same hand.
WALLS_BY_HAND = "walls_by_hand"
# Keys of a table's rules that are not Majiang.rule() overrides: those the platform itself puts
# there (games.service.lobby.RESERVED_RULES, which hosts may not set) and the rule preset a host may name
# (games/riichi/engine/presets.py), expanded under the table's overrides.
PLATFORM_RULES = ("host_seat", "tile_bag", IMPORTED, HAND_END_ACK, PRESET_KEY, WALLS_BY_HAND)
_ANKAN = re.compile(r"[mpsz][0-9]{4}\Z")
ACTIONS = ("kaiju", "dapai", "fulou", "gang", "hule", "pingju", "daopai", "pass")


@dataclass(frozen=True)
class SeatEvent(Event):
    """An event whose content differs per seat (qipai, kaiju). ``per_seat[s]`` is what seat
    ``s`` sees; ``params`` (everything) only with ``reveal_all``; spectators get
    ``hidden_params``. ``visible_to`` is empty so that anything ignoring ``render`` shows only
    the spectators' version."""

    per_seat: tuple[list[Any], ...] = ()

    def render(self, viewer: int | None, reveal_all: bool = False) -> dict[str, Any]:
        if reveal_all:
            params = self.params
        elif viewer is not None and 0 <= viewer < len(self.per_seat):
            params = self.per_seat[viewer]
        else:
            params = self.hidden_params or []
        message: dict[str, Any] = {"type": self.type, "params": params}
        if self.player is not None:
            message["player"] = self.player
        return message


_CALLED = re.compile(r"[+=\-]\Z")


def tile_kinds(text: str) -> list[str]:
    """The tiles written in a hand or meld string (``'m1-23'``, ``'z111='``, ``'m05p1'``), each
    as its kind: red five as five, markers and riichi/meld punctuation ignored."""
    kinds: list[str] = []
    suit = ""
    for ch in text:
        if ch in "mpsz":
            suit = ch
        elif ch.isdigit() and suit:
            kinds.append(suit + ("5" if ch == "0" else ch))
    return kinds


def unseen_waits(waits: Sequence[str], seen: Counter[str]) -> list[dict[str, Any]]:
    """Each wait with how many of it the player has not seen (four of a kind, less those seen)."""
    return [{"p": w, "left": max(0, 4 - seen[w[0] + ("5" if w[1] == "0" else w[1])])} for w in waits]


def masked_shoupai(sp: Shoupai) -> str:
    """The hand as the other players see it (Majiang's board): a ``_`` per concealed tile,
    ``*`` in riichi, the melds, a trailing ``,`` just after a call."""
    b = sp._bingpai
    n = b["_"] + sum(b["m"][1:]) + sum(b["p"][1:]) + sum(b["s"][1:]) + sum(b["z"][1:])
    text = "_" * n + ("*" if sp._lizhi else "") + "".join("," + m for m in sp._fulou)
    if sp._zimo and len(sp._zimo) > 2:
        text += ","
    return text


# The paifu title of a game played here. Never the seed: from it anyone rebuilds every wall.
TITLE = "riichi"


def _wall_feed(rule: dict[str, Any], walls: Sequence[Sequence[str] | Shan]) -> Callable[[Game], Shan]:
    """The wall factory of a game dealt from given walls, one per hand, in order."""
    queue = list(walls)

    def next_wall(game: Game) -> Shan:
        if not queue:
            raise ValueError("no wall left for another hand")
        wall = queue.pop(0)
        return wall if isinstance(wall, Shan) else Shan(rule, wall)

    return next_wall


class RiichiGame:
    """One game of riichi mahjong for four players, Majiang's rules (``Majiang.rule()``
    overrides in ``rules``)."""

    game_type: ClassVar[str] = "riichi"

    def __init__(
        self,
        rule: dict[str, Any] | None = None,
        *,
        shan: Callable[[Game], Shan],
        qijia: int = 0,
        title: str = "",
        player: Sequence[str] | None = None,
        host: int = 0,
        preset: str | None = None,
        hand_end_ack: bool = False,
    ) -> None:
        if not 0 <= qijia < SEATS:
            raise ValueError("qijia is a seat, 0 to 3")
        if not 0 <= host < SEATS:
            raise ValueError("host is a seat, 0 to 3")
        self.host = host
        self.preset = preset  # the preset the rules start from, shown with them (None: not known)
        self.hand_end_ack = hand_end_ack
        self.rule = make_rule() if rule is None else rule
        self.qijia = qijia
        self._events: list[Event] = []
        names = list(player) if player is not None else [f"player {i}" for i in range(SEATS)]
        self.game = Game(self.rule, shan=shan, title=title, player=names, listener=self._record)
        self._waiting: list[int] = []  # seats (player ids) still to answer the current message
        self._started = False
        self._actions = 0

    # -- construction --------------------------------------------------------------------------

    @classmethod
    def create(cls, *, mode: Mode, seed: int, rules: dict[str, Any]) -> RiichiGame:
        """A new game: the first dealer and every hand's wall drawn from ``random.Random(seed)``
        (the wall shuffled as Majiang shuffles, from that generator); an imported game's walls,
        first dealer and title are those kept in ``rules["imported"]`` instead."""
        if mode.seats != SEATS:
            raise ValueError("riichi mahjong is played by four")
        rules = dict(rules or {})
        host = rules.pop("host_seat", 0)  # set by the lobby: the host's seat starts the game
        hand_end_ack = bool(rules.pop(HAND_END_ACK, False))  # set by the lobby on every new game
        imported = rules.get(IMPORTED) or {}
        by_hand = bool(rules.get(WALLS_BY_HAND))
        preset = rules.get(PRESET_KEY, DEFAULT_PRESET)
        base = get_preset(preset).overrides  # an unknown preset is a ValueError, like a bad rule
        for key in PLATFORM_RULES:
            rules.pop(key, None)
        rule = make_rule({**base, **rules})
        if "walls" in imported:  # an imported paifu's game: its own walls, first dealer and title
            return cls(rule, shan=_wall_feed(rule, imported["walls"]), qijia=imported["qijia"],
                       title=imported.get("title", TITLE), host=host, preset=preset, hand_end_ack=hand_end_ack)
        rng = random.Random(seed)
        qijia = int(rng.random() * 4)

        def shan(game: Game) -> Shan:
            if by_hand:
                # The seed and the hand's place in the game: no two hands of one game share it.
                return Shan.shuffled(rule, random.Random(f"{seed}:{game.zhuangfeng}:{game.jushu}:{game.changbang}"))
            return Shan.shuffled(rule, rng)

        # The title goes to every client in ``kaiju``: it must carry nothing the walls derive from.
        return cls(rule, shan=shan, qijia=qijia, title=TITLE, host=host, preset=preset, hand_end_ack=hand_end_ack)

    @classmethod
    def from_walls(
        cls,
        walls: Sequence[Sequence[str] | Shan],
        *,
        rule: dict[str, Any] | None = None,
        qijia: int = 0,
        title: str = "",
        player: Sequence[str] | None = None,
    ) -> RiichiGame:
        """A game dealt from given walls, one per hand (136 tiles in Majiang's wall order, or a
        ``Shan``)."""
        full = make_rule() if rule is None else rule
        return cls(full, shan=_wall_feed(full, walls), qijia=qijia, title=title, player=player)

    # -- the contract --------------------------------------------------------------------------

    def initial_actions(self) -> list[tuple[int, str, list[Any]]]:
        return [(self.host, "kaiju", [])]

    @property
    def is_over(self) -> bool:
        return self.game.status == JIEJU

    def to_act(self) -> list[int]:
        if not self._started:
            return [self.host]
        return sorted(self._waiting)

    def hands_dealt(self) -> int:
        """How many hands have been dealt (Majiang's qipai) so far: a clock whose time bank is
        renewed with every hand (majiang-server's, games/service/clocks.py) watches this change."""
        return len(self.game.paipu.get("log", ()))

    def _check_form(self, action_type: str, params: list[Any]) -> None:
        if self.is_over:
            raise Rejection("the game is over")
        if action_type not in ACTIONS:
            raise Rejection(f"unknown action {action_type!r}")
        if not isinstance(params, list | tuple):
            raise Rejection("params must be a list")

    def apply(self, seat: int, action_type: str, params: list[Any]) -> list[Event]:
        self._check_form(action_type, params)
        if not self._started:
            if action_type != "kaiju" or seat != self.host:
                raise Rejection(f"the game has not started: seat {self.host} starts it with kaiju")
            if params:
                raise Rejection("kaiju takes no params")
            self._events = []
            self._started = True
            self.game.kaiju(self.qijia)
            self._advance()
            return self._take_events()
        if seat not in self._waiting:
            raise Rejection(f"the game is not waiting for seat {seat}")
        reply = self._reply_for(seat, action_type, list(params))
        game = self.game
        game._reply[game.seat_of(seat)] = reply
        self._waiting.remove(seat)
        self._actions += 1
        self._events = []
        if not self._waiting:
            game.next()
            self._advance()
        return self._take_events()

    def check(self, seat: int, action_type: str, params: list[Any]) -> None:
        """Raise ``Rejection`` if ``apply`` would refuse the action now; change nothing. The
        platform checks an answer to a decision window this way when it keeps the answer back
        until the window closes (games/service/window.py)."""
        self._check_form(action_type, params)
        if not self._started:
            raise Rejection(f"the game has not started: seat {self.host} starts it with kaiju")
        if seat not in self._waiting:
            raise Rejection(f"the game is not waiting for seat {seat}")
        self._reply_for(seat, action_type, list(params))

    def decision_window(self) -> bool:
        """Whether the game waits for hidden decisions on a discard or an added kan (calls, ron):
        how long that wait lasts would tell the table that someone could call, so the platform
        does not resolve it before a minimum time (``settings.CALL_FLOOR_MS``,
        docs/riichi-table.md)."""
        return self._started and not self.is_over and self.game.status in (DAPAI, GANG) and bool(self._waiting)

    def legal_actions(self, seat: int) -> list[dict[str, Any]]:
        """Every action ``seat`` may take now, one entry per action (``type``, ``params``), plus
        for a winning shape that may not win an entry ``{"type": "hule", "allowed": False,
        "reason": ...}`` (furiten kinds, no yaku); entries without ``allowed`` are all legal."""
        if not self._started:
            return [{"type": "kaiju", "params": []}] if seat == self.host else []
        if self.is_over or seat not in self._waiting:
            return []
        return self._legal(seat)

    def auto_action(self, seat: int) -> tuple[str, list[Any]]:
        """Tsumogiri after a draw (the last legal discard after a call), else pass."""
        if not self._started:
            return ("kaiju", [])
        game = self.game
        if seat in self._waiting and game.status in (ZIMO, GANGZIMO, FULOU) and game.seat_of(seat) == game.lunban:
            dapai = game.get_dapai() or []
            if dapai:
                return ("dapai", [dapai[-1]])
        return ("pass", [])

    def view(self, viewer: int | None, reveal_all: bool = False) -> dict[str, Any]:
        game = self.game
        snapshot: dict[str, Any] = {
            "game_type": self.game_type,
            "rule": self.rule,
            "preset": self.preset,
            "title": game.title,
            "player": game.player,
            "qijia": self.qijia,
            "started": self._started,
            "status": game.status,
            "is_over": self.is_over,
            "defen": game.defen[:],
            "zhuangfeng": game.zhuangfeng,
            "jushu": game.jushu,
            "changbang": game.changbang,
            "lizhibang": game.lizhibang,
            "viewer": viewer,
        }
        if game.shan is not None and game.shoupai:
            snapshot.update(self._hand_view(viewer, reveal_all))
        if self.is_over:
            snapshot["result"] = self.result()
        return snapshot

    def result(self) -> dict[str, Any]:
        game = self.game
        paipu = game.paipu
        over = self.is_over
        defen = game.defen[:]
        rank = paipu.get("rank") or []
        point = paipu.get("point") or []
        return {
            "is_over": over,
            "end_reason": game.end_reason,
            "defen": defen,
            "rank": rank,
            "point": point,
            "players": [
                {
                    "seat": s,
                    "score": defen[s],
                    "rank": rank[s] if over else None,
                    "point": point[s] if over else None,
                }
                for s in range(SEATS)
            ],
        }

    # -- paifu ---------------------------------------------------------------------------------

    @property
    def paifu(self) -> dict[str, Any]:
        """Majiang's paifu of the game so far (complete once over)."""
        return self.game.paipu

    # -- internals -----------------------------------------------------------------------------

    def _take_events(self) -> list[Event]:
        events, self._events = self._events, []
        return events

    def _advance(self) -> None:
        """Run the flow until it waits for a reply (or the game is over)."""
        game = self.game
        while True:
            status = game.status
            if status == JIEJU:
                self._waiting = []
                return
            waiting = self._askees(status)
            if waiting:
                self._waiting = [game.player_id[l] for l in waiting]
                return
            game.next()

    def _askees(self, status: str | None) -> list[int]:
        """Seats (relative to the dealer) asked to answer the current message."""
        game = self.game
        lunban = game.lunban
        if status in (ZIMO, GANGZIMO):
            return [lunban]
        if status == DAPAI:
            others = [(lunban + i) % 4 for i in (1, 2, 3)]
            assert game.shan is not None
            if game.shan.paishu == 0 and self.rule["ノーテン宣言あり"]:
                others.append(lunban)
            return others
        if status == FULOU:
            return [] if game._gang else [lunban]
        if status == GANG:
            assert game._gang is not None
            if _ANKAN.match(game._gang):
                return []  # no chankan on an ankan: straight to the replacement draw
            return [(lunban + i) % 4 for i in (1, 2, 3)]
        if status in (HULE, PINGJU) and self.hand_end_ack:
            return list(range(SEATS))
        return []

    def _record(self, kind: str, data: Any) -> None:
        game = self.game
        if kind == KAIJU:
            public = {"title": data["title"], "player": data["player"], "qijia": data["qijia"], "rule": data["rule"]}
            per_seat = tuple([{"id": s, **public}] for s in range(SEATS))
            self._events.append(SeatEvent(kind, None, [dict(public, id=None)], frozenset(),
                                          [dict(public, id=None)], per_seat))
        elif kind == QIPAI:
            hidden = dict(data, shoupai=["", "", "", ""])
            per_seat = []
            for s in range(SEATS):
                l = game.seat_of(s)
                mine = ["", "", "", ""]
                mine[l] = data["shoupai"][l]
                per_seat.append([dict(data, shoupai=mine)])
            self._events.append(SeatEvent(kind, None, [data], frozenset(), [hidden], tuple(per_seat)))
        elif kind in (ZIMO, GANGZIMO):
            pid = game.player_id[data["l"]]
            self._events.append(Event(kind, pid, [data], frozenset({pid}), [dict(data, p="")]))
        elif kind in (DAPAI, FULOU, GANG):
            self._events.append(Event(kind, game.player_id[data["l"]], [data]))
        elif kind == HULE:
            self._events.append(Event(kind, game.player_id[data["l"]], [data]))
        elif kind == JIEJU:
            self._events.append(Event(kind, None, [{"defen": data["defen"], "rank": data["rank"],
                                                     "point": data["point"]}]))
        else:  # kaigang, pingju
            self._events.append(Event(kind, None, [data]))

    # replies ---------------------------------------------------------------------------------

    def _reply_for(self, seat: int, action_type: str, params: list[Any]) -> dict[str, Any]:
        """The Majiang reply for an action, or a Rejection if it is not legal now."""
        if action_type == "pass":
            if params:
                raise Rejection("pass takes no params")
            return {}
        for entry in self._legal(seat):
            if entry["type"] == action_type and entry.get("allowed", True) and entry["params"] == params:
                if action_type in ("dapai", "fulou", "gang"):
                    return {action_type: params[0]}
                if action_type == "hule":
                    return {"hule": "-"}
                return {"daopai": "-"}  # pingju (九種九牌) and daopai
        raise Rejection(f"{action_type} {params} is not legal now")

    def _legal(self, seat: int) -> list[dict[str, Any]]:
        game = self.game
        status = game.status
        l = game.seat_of(seat)
        actions: list[dict[str, Any]] = []
        if status in (ZIMO, GANGZIMO) and l == game.lunban:
            dapai = game.get_dapai() or []
            lizhi = game.allow_lizhi() or []
            for p in dapai:
                actions.append({"type": "dapai", "params": [p]})
            for p in lizhi:
                actions.append({"type": "dapai", "params": [p + "*"], "lizhi": True})
            for m in game.get_gang_mianzi() or []:
                actions.append({"type": "gang", "params": [m]})
            sp = game.shoupai[l]
            if game.allow_hule():
                actions.append({"type": "hule", "params": []})
            elif xiangting(sp) == -1:
                actions.append({"type": "hule", "params": [], "allowed": False, "reason": "no yaku"})
            if game.allow_pingju():
                actions.append({"type": "pingju", "params": []})
            actions.append({"type": "pass", "params": [], "default": ["dapai", [dapai[-1]]] if dapai else None})
            return actions
        if status == FULOU and l == game.lunban:
            dapai = game.get_dapai() or []
            for p in dapai:
                actions.append({"type": "dapai", "params": [p]})
            actions.append({"type": "pass", "params": [], "default": ["dapai", [dapai[-1]]] if dapai else None})
            return actions
        if status == DAPAI:
            assert game.shan is not None
            if l != game.lunban:
                self._hule_entry(l, actions)
                if l == (game.lunban + 1) % 4:
                    for m in game.get_chi_mianzi(l) or []:
                        actions.append({"type": "fulou", "params": [m]})
                for m in game.get_peng_mianzi(l) or []:
                    actions.append({"type": "fulou", "params": [m]})
                for m in game.get_gang_mianzi(l) or []:
                    actions.append({"type": "fulou", "params": [m]})
            if self._may_show(l):
                actions.append({"type": "daopai", "params": []})
            actions.append({"type": "pass", "params": []})
            return actions
        if status == GANG and l != game.lunban:
            self._hule_entry(l, actions)
            actions.append({"type": "pass", "params": []})
            return actions
        return [{"type": "pass", "params": []}]

    def _may_show(self, l: int) -> bool:
        game = self.game
        assert game.shan is not None
        return game.shan.paishu == 0 and allow_no_daopai(self.rule, game.shoupai[l], game.shan.paishu)

    def _hule_entry(self, l: int, actions: list[dict[str, Any]]) -> None:
        game = self.game
        if game.allow_hule(l):
            actions.append({"type": "hule", "params": []})
            return
        p = game.ron_tile(l)
        if not game._completes(l, p):
            return
        if not game._neng_rong[l]:
            waits = game.waits(l) or []
            if any(game.he[l].find(w) for w in waits):
                reason = "furiten: a wait is in your own discards"
            elif game.shoupai[l]._lizhi:
                reason = "furiten: a winning tile passed since your riichi"
            else:
                reason = "furiten: a winning tile passed since your last discard"
        else:
            reason = "no yaku"
        actions.append({"type": "hule", "params": [], "allowed": False, "reason": reason})

    # view ------------------------------------------------------------------------------------

    def _seen_by(self, l: int) -> Counter[str]:
        """Every tile seat ``l`` can see, by kind (red fives counted as fives): its own hand, every
        river and meld, the dora indicators. A called discard is counted once, in its meld."""
        game = self.game
        shan = game.shan
        assert shan is not None
        seen: Counter[str] = Counter()
        for kind in tile_kinds(game.shoupai[l].to_string().split(",")[0]):
            seen[kind] += 1
        for s in range(4):
            for p in game.he[s]._pai:
                if not _CALLED.search(p):
                    seen[p[0] + (p[1] if p[1] != "0" else "5")] += 1
            for m in game.shoupai[s]._fulou:
                for kind in tile_kinds(m):
                    seen[kind] += 1
        for p in shan.baopai:
            seen[p[0] + (p[1] if p[1] != "0" else "5")] += 1
        return seen

    def _hand_view(self, viewer: int | None, reveal_all: bool) -> dict[str, Any]:
        game = self.game
        shan = game.shan
        assert shan is not None
        seats = []
        for l in range(4):
            pid = game.player_id[l]
            sp = game.shoupai[l]
            mine = reveal_all or viewer == pid
            seats.append({
                "seat": pid,
                "menfeng": l,
                "shoupai": sp.to_string() if mine else masked_shoupai(sp),
                "fulou": list(sp._fulou),
                "he": list(game.he[l]._pai),
                "lizhi": sp._lizhi,
                "defen": game.defen[pid],
            })
        hand: dict[str, Any] = {
            "seats": seats,
            "dealer": game.player_id[0],
            "turn": game.player_id[game.lunban] if game.lunban >= 0 else None,
            "baopai": shan.baopai,
            "paishu": shan.paishu,
            "last_dapai": game._dapai,
            "n_gang": sum(game._n_gang),
        }
        if viewer is not None and 0 <= viewer < SEATS:
            l = game.seat_of(viewer)
            sp = game.shoupai[l]
            waits = game.waits(l) if sp._zimo is None else None
            hand["me"] = {
                "seat": viewer,
                "menfeng": l,
                "shoupai": sp.to_string(),
                "xiangting": xiangting(sp),
                "waits": waits,
                "tingpai": unseen_waits(waits, self._seen_by(l)) if waits else None,
                "furiten": not game._neng_rong[l],
            }
        if reveal_all:
            hand["paifu"] = game.paipu
            hand["shan"] = list(shan._pai)
            hand["fubaopai"] = shan.fubaopai
        return hand
