"""The mjai seat view (games/riichi/protocols/mjai_seat.py) over whole games played on the engine,
every decision of every seat taken through mjai: each seat's events are well-formed mjai; nobody
is sent a tile the rules keep from them; a seat's events are the project's mjai export of the
game with the others' hidden tiles as ``?`` (the documented differences listed below); every
decision the players made comes back from its mjai form as the very same seed 001 reply; and a
table of bad answers is refused with a reason.

Where the seat's events legitimately differ from the export (docs/protocols/mjai.md, "Differences
from the export"), ``export_differences`` names each case and the test allows only those:

- ``tsumogiri``: the export marks a discard tsumogiri when it can only have been the drawn tile
  (a plain five drawn while holding the red one, which Majiang lets a player write as from the
  hand: ``discards_as_played``); a live seat cannot know another's hand, and says what the frame
  says, for every seat alike;
- kan dora: the export places them as convlog does (Tenhou's places); the seat where gimite's
  server does: after a riichi declaration on the discard that turns one (``reach``, ``dora``,
  ``dahai``, where convlog waits for the next discard), an earlier kan's indicator after an
  ``ankan`` rather than before it, and at once under カンドラ後乗せ false (the rule the game was
  played with: the export always uses Tenhou's);
- ``ura_markers``: only on a ``hora`` whose frame shows them (a riichi winner's); the export puts
  the hand's on every ``hora`` (a double ron where one winner had no riichi).
"""

# ruff: noqa: E741  (l: a seat counted from the hand's dealer, Majiang's name)
from __future__ import annotations

import json
import re
import subprocess
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from games.core.engine import Mode
from games.riichi.bots import house as bot
from games.riichi.engine.table import RiichiGame
from games.riichi.protocols import majiang
from games.riichi.protocols.mjai_seat import (
    HELLO,
    Ask,
    MjaiSeat,
    Refused,
    error_event,
    majiang_tile,
    pai,
    parse_action,
    tiles_of,
)
from games.riichi.records.exports.mjai import pai as export_pai
from games.riichi.records.exports.mjai import tile as export_tile
from games.riichi.records.exports.mjai import to_mjai
from games.riichi.records.exports.tenhou6 import meld_layout, parse_meld
from tests.riichi.mjai_peers import MISSING, MJAI_PYTHON
from tests.riichi.transport.played import kan_lover, play_through

TILE = re.compile(r"(?:[1-9][mps]|5[mps]r|[ESWNPFC])\Z")


def is_tile(x: Any, hidden: bool = False) -> bool:
    return isinstance(x, str) and (bool(TILE.match(x)) or (hidden and x == "?"))


# -- whole games through mjai ---------------------------------------------------------------------


@dataclass
class Seen:
    """One game as the four mjai seats saw it, every decision taken through mjai."""

    engine: RiichiGame
    events: list[list[dict[str, Any]]] = field(default_factory=lambda: [[] for _ in range(4)])
    # (seat, the seed 001 reply the player chose, the mjai action(s) sent, what reply() made of it)
    decisions: list[tuple[int, dict[str, Any], list[dict[str, Any]], dict[str, Any]]] = field(default_factory=list)
    asks: Counter[str] = field(default_factory=Counter)
    seats: list[MjaiSeat] = field(default_factory=list)
    # per seat: the index of each asking event in ``events``, its Ask and the actions answered
    answered: list[dict[int, tuple[Ask, list[dict[str, Any]]]]] = field(default_factory=lambda: [{}, {}, {}, {}])


def seed001(action: str, params: list[Any]) -> dict[str, Any]:
    """The seed 001 reply of a platform action (docs/protocols/majiang.md, "replies")."""
    if action in ("dapai", "fulou", "gang"):
        return {"type": action, "data": params[0]}
    return {"type": {"pass": ""}.get(action, action)}


def platform(reply: dict[str, Any], ask: Ask) -> tuple[str, list[Any]]:
    """The platform action a seed 001 reply becomes (majiang.decode_reply, the transport's way)."""
    frame_type = {"tsumo": "zimo", "reach": "zimo", "dahai": "fulou", "call": "dapai", "tenpai": "dapai",
                  "chankan": "gang", "end": "hule"}[ask.kind]
    question = majiang.Question(frame_type, {}, 1, ask.kind in ("tsumo", "dahai", "reach", "tenpai"))
    decoded = majiang.decode_reply({**reply, "seq": 1}, question)
    assert decoded is not None
    return decoded.action, decoded.params


def as_mjai(reply: dict[str, Any], ask: Ask, me: int) -> list[dict[str, Any]]:
    """What an mjai bot sends for a decision (the riichi discard: ``reach``, then ``dahai``), made
    with the export's own helpers, independently of the seat's."""
    kind = reply["type"]
    if kind == "dapai":
        p = reply["data"]
        dahai = {"type": "dahai", "actor": me, "pai": export_tile(p[:2]), "tsumogiri": "_" in p}
        return [{"type": "reach", "actor": me}, dahai] if p.endswith("*") else [dahai]
    if kind in ("fulou", "gang"):
        meld = parse_meld(reply["data"])
        layout = meld_layout(meld)
        out: dict[str, Any] = {"type": meld.kind, "actor": me}
        if meld.kind == "ankan":
            out["consumed"] = [export_pai(c) for c in layout.codes]
        else:
            out["pai"] = export_pai(layout.pai)
            out["consumed"] = [export_pai(c) for c in layout.consumed]
        if meld.kind in ("chi", "pon", "daiminkan"):
            out["target"] = (me + meld.offset) % 4
        return [out]
    if kind == "hule":
        target = me if ask.kind == "tsumo" else ask.event["actor"]
        return [{"type": "hora", "actor": me, "target": target, "pai": ask.event["pai"]}]
    if kind == "pingju":
        return [{"type": "ryukyoku"}]  # mjai.app's (libriichi's): no actor, no reason
    return [{"type": "none"}]


def play(seed: int, rules: dict[str, Any], chooser=bot.choose) -> Seen:
    engine = RiichiGame.create(mode=Mode(4, "Four players", 4), seed=seed, rules={**rules, "hand_end_ack": True})
    seen = Seen(engine)
    streams = [majiang.SeatStream(s) for s in range(4)]
    seen.seats = seats = [MjaiSeat(s) for s in range(4)]
    asks: list[Ask | None] = [None] * 4
    asked_at = [0] * 4

    def deliver(events) -> None:
        waiting = engine.to_act()
        for s in range(4):
            frames = streams[s].frames([e.render(s) for e in events])
            sent = seats[s].stream(frames)
            seen.events[s] += sent
            asking = frames and s in waiting
            for event in sent[:-1] if asking else sent:  # every event is answered: these ask nothing
                assert seats[s].reply({"type": "none"}, None) is None, event
            if asking:
                asks[s] = seats[s].question(frames[-1], engine.legal_actions(s))
                assert asks[s] is not None, frames[-1]
                assert asks[s].event is seen.events[s][-1]  # the question is the last event sent
                asked_at[s] = len(seen.events[s]) - 1
                seen.asks[asks[s].kind] += 1
            elif frames:
                assert seats[s].question(frames[-1], engine.legal_actions(s)) is None

    def decide(view, legal, rng):
        s = view["viewer"]
        ask = asks[s]
        assert ask is not None and legal == ask.legal
        chosen = seed001(*chooser(view, legal, rng))
        if chosen["type"] == "" and any(a["type"] == "daopai" for a in legal):
            chosen = {"type": "daopai"}  # mjai shows every ready hand: its none declares it
        sent = as_mjai(chosen, ask, seats[s].id)
        # What the bot sends is among the actions the question offers (mjai.app's ryukyoku names
        # no actor nor reason: the offered one does).
        assert sent[0] in ask.actions or sent[0] == {"type": "ryukyoku"}, (sent[0], ask.actions)
        result = seats[s].reply(sent[0], ask)
        if isinstance(result, Ask):  # reach: the seat is sent the reach event, then discards
            assert result.kind == "reach" and result.event == {"type": "reach", "actor": seats[s].id}
            assert result.default is not None and result.default["data"].endswith("*")
            assert sent[1] in result.actions
            seen.events[s].append(result.event)
            result = seats[s].reply(sent[1], result)
        assert result == chosen, (s, ask.kind, chosen, sent, result)
        seen.decisions.append((s, chosen, sent, result))
        seen.answered[s][asked_at[s]] = (ask, sent)
        return platform(result, ask)

    play_through(engine, seed, decide, deliver)
    return seen


GAMES = {
    "east": (7, {"preset": "east"}, bot.choose),
    "tenhou-east-kans": (4, {"preset": "tenhou-east"}, kan_lover),
    "tenhou-east-noten": (6, {"preset": "tenhou-east", "ノーテン宣言あり": True}, kan_lover),
    "kan-dora-at-once": (3, {"preset": "tenhou-east", "カンドラ後乗せ": False}, kan_lover),
    "tenhou": (11, {"preset": "tenhou"}, bot.choose),
}
_SEEN: dict[str, Seen] = {}


def game(name: str) -> Seen:
    if name not in _SEEN:
        _SEEN[name] = play(*GAMES[name])
    return _SEEN[name]


@pytest.fixture(params=list(GAMES))
def seen(request) -> Seen:
    return game(request.param)


# -- well-formed ----------------------------------------------------------------------------------

SEAT = ("actor", "target", "oya", "id")
TILES = ("pai", "dora_marker")
LISTS_OF_TILES = ("consumed", "hora_tehais", "uradora_markers", "ura_markers")
REQUIRED = {
    "start_game": {"id", "names"},
    "start_kyoku": {"bakaze", "kyoku", "honba", "kyotaku", "oya", "dora_marker", "scores", "tehais"},
    "tsumo": {"actor", "pai"},
    "dahai": {"actor", "pai", "tsumogiri"},
    "chi": {"actor", "target", "pai", "consumed"},
    "pon": {"actor", "target", "pai", "consumed"},
    "daiminkan": {"actor", "target", "pai", "consumed"},
    "ankan": {"actor", "consumed"},
    "kakan": {"actor", "pai", "consumed"},
    "dora": {"dora_marker"},
    "reach": {"actor"},
    "reach_accepted": {"actor", "deltas", "scores"},
    "hora": {"actor", "target", "pai", "uradora_markers", "hora_tehais", "yakus", "fu", "fan", "hora_points",
             "deltas", "scores"},
    "ryukyoku": {"reason", "tehais", "tenpais", "deltas", "scores"},
    "end_kyoku": set(),
    "end_game": set(),
}


def check_event(event: dict[str, Any]) -> None:
    """One event as mjai (gimite's mjsonp 3) has it: its fields, of their types, tiles named."""
    kind = event["type"]
    assert kind in REQUIRED, event
    assert REQUIRED[kind] <= set(event), event
    json.loads(json.dumps(event, ensure_ascii=False))  # plain JSON
    for key in SEAT:
        if key in event:
            assert event[key] in range(4), event
    for key in TILES:
        if key in event:
            assert is_tile(event[key], hidden=kind == "tsumo"), event
    for key in LISTS_OF_TILES:
        if key in event:
            assert all(is_tile(t) for t in event[key]), event
    for key in ("scores", "deltas"):
        if key in event:
            assert len(event[key]) == 4 and all(isinstance(x, int) for x in event[key]), event
    if kind == "dahai":
        assert isinstance(event["tsumogiri"], bool)
    if kind in ("chi", "pon"):
        assert len(event["consumed"]) == 2 and event["target"] != event["actor"]
    if kind == "chi":
        assert event["target"] == (event["actor"] - 1) % 4  # from the kamicha only
    if kind in ("daiminkan", "kakan"):
        assert len(event["consumed"]) == 3
    if kind == "ankan":
        assert len(event["consumed"]) == 4
    if kind == "start_kyoku":
        assert event["bakaze"] in "ESWN" and len(event["tehais"]) == 4
        assert all(len(h) == 13 and all(is_tile(t, hidden=True) for t in h) for h in event["tehais"])
    if kind == "ryukyoku":
        assert all(isinstance(t, bool) for t in event["tenpais"])
        assert all(is_tile(t, hidden=True) for h in event["tehais"] for t in h)
    if kind == "hora":
        assert all(isinstance(name, str) and isinstance(fan, int) for name, fan in event["yakus"])
    if kind == "start_game":
        assert len(event["names"]) == 4


def test_every_event_is_well_formed_mjai(seen):
    assert seen.engine.is_over
    for events in seen.events:
        assert events[0]["type"] == "start_game" and events[-1]["type"] == "end_game"
        for event in events:
            check_event(event)
        # a hand: start_kyoku ... (hora+ | ryukyoku) end_kyoku
        kinds = [e["type"] for e in events]
        starts = [i for i, k in enumerate(kinds) if k == "start_kyoku"]
        ends = [i for i, k in enumerate(kinds) if k == "end_kyoku"]
        assert len(starts) == len(ends) == len(seen.engine.paifu["log"])
        for start, end in zip(starts, ends, strict=True):
            assert start < end and kinds[end - 1] in ("hora", "ryukyoku")


def test_the_seats_ids_and_names(seen):
    engine = seen.engine
    for s, events in enumerate(seen.events):
        start = events[0]
        assert start["id"] == (s - engine.qijia) % 4 == seen.seats[s].id
        assert start["names"] == [engine.paifu["player"][(engine.qijia + i) % 4] for i in range(4)]


def test_scores_add_up(seen):
    """reach_accepted, hora and ryukyoku carry deltas and the scores after them; each hand starts
    from the last hand's scores, and the game ends on the paifu's."""
    for events in seen.events:
        scores = None
        for event in events:
            if event["type"] == "start_kyoku":
                if scores is not None:
                    assert event["scores"] == scores
                scores = list(event["scores"])
            elif "deltas" in event:
                scores = [a + b for a, b in zip(scores, event["deltas"], strict=True)]
                assert event["scores"] == scores, event
        end = events[-1]["scores"]
        assert end == [seen.engine.paifu["defen"][(seen.engine.qijia + i) % 4] for i in range(4)]
        # the sticks left on the table go to the top
        changed = [i for i in range(4) if end[i] != scores[i]]
        assert len(changed) <= 1 and all(end[i] > scores[i] and (end[i] - scores[i]) % 1000 == 0 for i in changed)


# -- hidden tiles ---------------------------------------------------------------------------------


def masked(events: list[dict[str, Any]], me: int) -> list[dict[str, Any]]:
    """A seat's events with what only it may see hidden: its draws, its deal."""
    out = []
    for e in events:
        e = dict(e)
        if e["type"] == "start_game":
            e["id"] = None
        if e["type"] == "tsumo" and e["actor"] == me:
            e["pai"] = "?"
        if e["type"] == "start_kyoku":
            e["tehais"] = [["?"] * 13 for _ in range(4)]
        out.append(e)
    return out


def test_every_seat_sees_the_same_events_but_its_own_tiles(seen):
    reference = masked(seen.events[0], seen.seats[0].id)
    for s in range(1, 4):
        assert masked(seen.events[s], seen.seats[s].id) == reference


def test_hidden_tiles_reach_only_their_owner(seen):
    """Another's draw is ``?``, another's deal is ``?``; the own deal and draws are the engine's;
    ura indicators only in a ``hora`` of a riichi winner; a hand is shown at a draw only when the
    paifu shows it."""
    paifu = seen.engine.paifu
    for s, events in enumerate(seen.events):
        me = seen.seats[s].id
        hand = -1
        records: list[tuple[str, dict[str, Any]]] = []
        for e in events:
            if e["type"] == "start_kyoku":
                hand += 1
                records = [next(iter(r.items())) for r in paifu["log"][hand]]
                qipai = records[0][1]
                l = (me - qipai["jushu"]) % 4
                own = sorted(majiang_tile(t) for t in e["tehais"][me])
                assert own == sorted(tiles_of(qipai["shoupai"][l]))
                assert all(h == ["?"] * 13 for i, h in enumerate(e["tehais"]) if i != me)
                draws = iter(d for k, d in records if k in ("zimo", "gangzimo"))
            if e["type"] == "tsumo":
                drawn = next(draws)
                if e["actor"] == me:
                    assert e["pai"] == export_tile(drawn["p"])
                else:
                    assert e["pai"] == "?"
            if e["type"] == "hora":
                hule = [d for k, d in records if k == "hule"]
                shown = [export_tile(p) for d in hule for p in d.get("fubaopai") or []]
                assert all(t in shown for t in e["uradora_markers"])
                assert e["uradora_markers"] == [] or any(h["name"] in ("立直", "ダブル立直") for d in hule
                                                         for h in d["hupai"])
            if e["type"] == "ryukyoku":
                pingju = next(d for k, d in records if k == "pingju")
                for l, shoupai in enumerate(pingju["shoupai"]):
                    hidden = all(t == "?" for t in e["tehais"][(l + qipai["jushu"]) % 4])
                    assert hidden == (not shoupai)


# -- the export -----------------------------------------------------------------------------------


def export_for(seen: Seen, me: int) -> list[dict[str, Any]]:
    """The game's mjai export (records/exports/mjai.py) as seat ``me`` may see it."""
    out = []
    for e in to_mjai(seen.engine.paifu, seen.engine.rule):
        e = dict(e)
        if e["type"] == "tsumo" and e["actor"] != me:
            e["pai"] = "?"
        if e["type"] == "start_kyoku":
            e["tehais"] = [h if i == me else ["?"] * 13 for i, h in enumerate(e["tehais"])]
        out.append(e)
    return out


def export_differences(seat_events: list[dict[str, Any]], export: list[dict[str, Any]]) -> Counter[str]:
    """Compare a seat's events with the export's (seat events may carry more fields than the
    export writes: only the export's are compared); every difference must be one of the
    documented kinds, which are counted."""
    found: Counter[str] = Counter()
    # Kan dora first: the same indicators hand by hand, in the same order; placed apart from
    # the other events, which must then agree one for one.
    def hands(events):
        out: list[list[dict[str, Any]]] = []
        for e in events:
            if e["type"] == "start_kyoku":
                out.append([])
            if out:
                out[-1].append(e)
        return out

    for ours, theirs in zip(hands(seat_events), hands(export), strict=True):
        doras = [e["dora_marker"] for e in ours if e["type"] == "dora"]
        assert doras == [e["dora_marker"] for e in theirs if e["type"] == "dora"]
        plain = [e for e in ours if e["type"] != "dora"]
        plain_export = [e for e in theirs if e["type"] != "dora"]
        if [_without_fields(e) for e in ours] != [_without_fields(e) for e in theirs]:
            found["kan dora placed as gimite's server places it"] += 1
            check_dora_places(ours)
        assert len(plain) == len(plain_export)
        for a, b in zip(plain, plain_export, strict=True):
            picked = {k: a.get(k) for k in b}
            if picked == b:
                continue
            if b["type"] == "dahai" and {**picked, "tsumogiri": True} == b and b["pai"][0] == "5":
                found["tsumogiri of a five the frame wrote as from the hand"] += 1
                continue
            if b["type"] == "hora" and {**picked, "ura_markers": b["ura_markers"]} == b and a["ura_markers"] == []:
                found["ura markers only on a riichi winner's hora"] += 1
                continue
            raise AssertionError(f"undocumented difference: {a} != export {b}")
    return found


def _without_fields(e: dict[str, Any]) -> str:
    return e["type"] if e["type"] != "dora" else f"dora {e['dora_marker']}"


def check_dora_places(events: list[dict[str, Any]]) -> None:
    """Where the seat announces a kan dora: after an ankan (before its replacement draw), just
    before a tsumo that replaces a kan, or just before a dahai (after its reach)."""
    for i, e in enumerate(events):
        if e["type"] != "dora":
            continue
        after = next(x for x in events[i + 1:] if x["type"] != "dora")
        assert after["type"] in ("tsumo", "dahai", "hora"), events[i - 2:i + 3]
        before = next(x for x in reversed(events[:i]) if x["type"] != "dora")
        if after["type"] == "dahai":
            assert before["type"] in ("tsumo", "reach"), events[i - 2:i + 3]
        if after["type"] == "tsumo":
            assert before["type"] in ("ankan", "kakan", "daiminkan"), events[i - 2:i + 3]


def test_a_seats_events_are_the_export_but_the_hidden_tiles(seen):
    kinds: Counter[str] = Counter()
    for s, events in enumerate(seen.events):
        kinds += export_differences(events, export_for(seen, seen.seats[s].id))
    rule = seen.engine.rule
    if not rule["カンドラ後乗せ"] and any(e["type"] in ("daiminkan", "kakan") for e in seen.events[0]):
        assert kinds["kan dora placed as gimite's server places it"]  # this rule is Tenhou's otherwise


def test_differences_from_the_export_are_the_documented_ones():
    """Across the games: which documented differences occur (at least the rule's), and that the
    doc lists each of them."""
    kinds: Counter[str] = Counter()
    for name in GAMES:
        seen_ = game(name)
        for s, events in enumerate(seen_.events):
            kinds += export_differences(events, export_for(seen_, seen_.seats[s].id))
    assert kinds["kan dora placed as gimite's server places it"]
    doc = (Path(__file__).resolve().parents[3] / "docs" / "protocols" / "mjai.md").read_text(encoding="utf-8")
    section = doc.split("## Differences from the export", 1)[1].split("\n## ", 1)[0]
    for word in ("tsumogiri", "カンドラ後乗せ", "ura_markers", "reach"):
        assert word in section


# -- decisions ------------------------------------------------------------------------------------


def test_every_decision_comes_back_as_its_seed001_reply(seen):
    """play() asserts it decision by decision; here, that every kind of answer was exercised."""
    kinds = Counter(sent[0]["type"] for _, _, sent, _ in seen.decisions)
    assert kinds["dahai"] and kinds["none"]
    assert len(seen.decisions) > 300


def test_the_decisions_cover_every_answer():
    kinds: Counter[str] = Counter()
    asks: Counter[str] = Counter()
    replies: Counter[str] = Counter()
    for name in GAMES:
        seen_ = game(name)
        asks += seen_.asks
        for _, chosen, sent, _ in seen_.decisions:
            kinds.update(a["type"] for a in sent)
            replies[chosen["type"]] += 1
    for kind in ("dahai", "reach", "hora", "chi", "pon", "daiminkan", "ankan", "kakan", "none"):
        assert kinds[kind], kind
    for kind in ("tsumo", "dahai", "call", "end"):
        assert asks[kind], kind
    assert replies["daopai"]  # ノーテン宣言あり: none declares a ready hand


def test_the_riichi_declarer_is_not_sent_reach_twice():
    seen = game("tenhou")
    for events in seen.events:
        reaches = [e["actor"] for e in events if e["type"] == "reach"]
        assert reaches == [e["actor"] for e in seen.events[0] if e["type"] == "reach"]
        assert len(reaches) >= 10


def test_questions_ask_the_last_event():
    seen = game("east")
    assert seen.asks["tsumo"] > 50 and seen.asks["call"] > 100 and seen.asks["end"] == 4 * 5


def test_libriichi_follows_every_event_and_agrees_on_every_question(seen):
    """PyPI ``mjai``'s libriichi ``PlayerState`` (the state of Mortal and of mjai.app's bots; AGPL, so
    run in its own venv: tests/riichi/mjai_peers.py) reads every event of every seat, offers at each
    question exactly the kinds of action the seat's ``Ask`` offers, and finds every action the
    players sent valid."""
    assert MJAI_PYTHON.exists(), MISSING
    seats = []
    for s, events in enumerate(seen.events):
        questions = [[i, ask.kind, sorted({a["type"] for a in ask.actions}), sent]
                     for i, (ask, sent) in sorted(seen.answered[s].items())]
        for i, _, _, sent in questions:
            if len(sent) == 2:
                assert events[i + 1] == {"type": "reach", "actor": seen.seats[s].id}
        seats.append({"id": seen.seats[s].id, "events": events, "questions": questions})
    checked = subprocess.run([str(MJAI_PYTHON), str(Path(__file__).with_name("libriichi_check.py"))],
                             input=json.dumps(seats), capture_output=True, text=True, timeout=300)
    assert checked.returncode == 0, checked.stderr[-2000:]
    assert json.loads(checked.stdout) == []


# -- refusals -------------------------------------------------------------------------------------


def seat_at(hand: str = "m123p456s789z1122", drawn: str | None = "z2", menfeng: int = 0,
            ) -> tuple[MjaiSeat, dict[str, Any]]:
    """A seat (platform seat ``menfeng``; first dealer 0, East 1) dealt ``hand``, that just drew
    ``drawn`` if any; and the last frame it was given."""
    seat = MjaiSeat(menfeng)
    seat.events({"type": "kaiju", "data": {"id": menfeng, "qijia": 0, "player": ["a", "b", "c", "d"]}})
    frame: dict[str, Any] = {"type": "qipai", "data": {
        "zhuangfeng": 0, "jushu": 0, "changbang": 0, "lizhibang": 0, "defen": [25000] * 4, "baopai": "z1",
        "shoupai": [hand if i == menfeng else "" for i in range(4)]}}
    seat.events(frame)
    if drawn is not None:
        frame = {"type": "zimo", "data": {"l": menfeng, "p": drawn}}
        seat.events(frame)
    return seat, frame


def asked(seat: MjaiSeat, frame: dict[str, Any], legal: list[dict[str, Any]], kind: str) -> Ask:
    ask = seat.question(frame, legal)
    assert ask is not None and ask.kind == kind
    return ask


DRAW_LEGAL = [{"type": "dapai", "params": [p]} for p in ("m1", "m2", "m3", "p4", "p5", "p6", "s7", "s8", "s9",
                                                          "z1", "z2", "z2_")]


def D(pai_: str, tsumogiri: Any = False, actor: Any = 0) -> dict[str, Any]:
    out = {"type": "dahai", "actor": actor, "pai": pai_}
    if tsumogiri is not None:
        out["tsumogiri"] = tsumogiri
    return out


@pytest.mark.parametrize(("action", "legal", "says"), [
    (["dahai"], DRAW_LEGAL, "JSON object with a string type"),
    ({"pai": "1m"}, DRAW_LEGAL, "JSON object with a string type"),
    ({"type": 3}, DRAW_LEGAL, "JSON object with a string type"),
    ({"type": "discard", "actor": 0, "pai": "1m"}, DRAW_LEGAL, "unknown action type 'discard'"),
    ({"type": "join", "name": "x", "room": "y"}, DRAW_LEGAL, "already joined"),
    (D("1m", actor=2), DRAW_LEGAL, "actor must be 0 (your seat), not 2"),
    (D("1m", actor=True), DRAW_LEGAL, "actor must be 0"),
    (D("1m", actor="0"), DRAW_LEGAL, "actor must be 0"),
    ({"type": "dahai", "pai": "1m", "tsumogiri": False}, DRAW_LEGAL, "actor missing"),
    (D("8m"), DRAW_LEGAL, "dahai 8m: not in your hand"),
    (D("5mr"), DRAW_LEGAL, "5mr: not in your hand"),
    (D("0m"), DRAW_LEGAL, "is not a tile"),
    (D("?"), DRAW_LEGAL, "is not a tile"),
    (D(["1m"]), DRAW_LEGAL, "is not a tile"),
    ({"type": "dahai", "actor": 0, "tsumogiri": False}, DRAW_LEGAL, "pai missing"),
    (D("1m", tsumogiri="no"), DRAW_LEGAL, "tsumogiri is true"),
    (D("1m", tsumogiri=True), DRAW_LEGAL, "tsumogiri is true but 1m is not the tile you drew (S)"),
    ({"type": "none"}, DRAW_LEGAL, "none: your draw needs an answer"),
    ({"type": "chi", "actor": 0, "target": 3, "pai": "1m", "consumed": ["2m", "3m"]}, DRAW_LEGAL,
     "chi: not an answer to your draw"),
    ({"type": "reach", "actor": 0}, DRAW_LEGAL, "reach: not allowed now"),
    ({"type": "hora", "actor": 0, "target": 0, "pai": "S"},
     DRAW_LEGAL + [{"type": "hule", "params": [], "allowed": False, "reason": "no yaku"}], "hora: no yaku"),
    ({"type": "hora", "actor": 0, "target": 0}, DRAW_LEGAL, "does not complete your hand"),
    ({"type": "hora", "actor": 0, "target": 2}, DRAW_LEGAL, "target must be 0"),
    ({"type": "hora", "actor": 0}, DRAW_LEGAL, "target missing"),
    ({"type": "hora", "actor": 0, "target": 0, "pai": "1m"}, DRAW_LEGAL + [{"type": "hule", "params": []}],
     "pai must be S"),
    ({"type": "ankan", "actor": 0, "consumed": ["1m", "1m", "1m", "1m"]}, DRAW_LEGAL, "no such kan"),
    ({"type": "ankan", "actor": 0, "consumed": ["1m", "1m", "1m", "2m"]}, DRAW_LEGAL, "four tiles of one kind"),
    ({"type": "ankan", "actor": 0, "consumed": ["1m"]}, DRAW_LEGAL, "list of 4 tiles"),
    ({"type": "kakan", "actor": 0, "pai": "E", "consumed": ["E", "E", "E"]}, DRAW_LEGAL, "no such kan"),
    ({"type": "ryukyoku", "actor": 0, "reason": "fanpai"}, DRAW_LEGAL, "only draw a player declares"),
    ({"type": "ryukyoku"}, DRAW_LEGAL, "kyushukyuhai needs nine kinds"),
])
def test_bad_answers_to_a_draw_are_refused(action, legal, says):
    seat, frame = seat_at()
    with pytest.raises(Refused, match=re.escape(says)):
        seat.reply(action, asked(seat, frame, legal, "tsumo"))


def test_bad_lines_are_refused():
    for line, says in [(b"{not json", "not a JSON object"), (b'{"type": NaN}', "not a JSON object"),
                       (b"\xff\xfe", "not a JSON object"), (b"[]", "string type"), (b'{"type": null}', "string type"),
                       (b"[" * 100000 + b"]" * 100000, "not a JSON object")]:
        with pytest.raises(Refused, match=says):
            parse_action(line)
    assert parse_action(b'{"type":"none"}\n') == {"type": "none"}
    assert error_event("x") == {"type": "error", "message": "x"}
    assert HELLO == {"type": "hello", "protocol": "mjsonp", "protocol_version": 3}


def test_good_answers_to_a_draw_and_the_riichi_in_two_steps():
    seat, frame = seat_at()
    legal = DRAW_LEGAL + [{"type": "dapai", "params": ["z2*"], "lizhi": True},
                          {"type": "dapai", "params": ["z2_*"], "lizhi": True}, {"type": "hule", "params": []},
                          {"type": "pingju", "params": []}]
    ask = asked(seat, frame, legal, "tsumo")
    assert seat.reply(D("S", tsumogiri=True), ask) == {"type": "dapai", "data": "z2_"}
    assert seat.reply(D("S", tsumogiri=False), ask) == {"type": "dapai", "data": "z2"}
    assert seat.reply(D("S", tsumogiri=None), ask) == {"type": "dapai", "data": "z2"}  # from the hand first
    assert seat.reply(D("1m", tsumogiri=None), ask) == {"type": "dapai", "data": "m1"}
    assert seat.reply({"type": "hora", "actor": 0, "target": 0, "pai": "S"}, ask) == {"type": "hule"}
    assert seat.reply({"type": "hora", "actor": 0, "target": 0}, ask) == {"type": "hule"}  # Mortal sends no pai
    assert seat.reply({"type": "ryukyoku"}, ask) == {"type": "pingju"}
    assert seat.reply({"type": "ryukyoku", "actor": 0, "reason": "kyushukyuhai"}, ask) == {"type": "pingju"}
    assert {"type": "reach", "actor": 0} in ask.actions
    assert ask.hinted()["possible_actions"] == [
        {"type": "reach", "actor": 0}, {"type": "hora", "actor": 0, "target": 0, "pai": "S"},
        {"type": "ryukyoku", "actor": 0, "reason": "kyushukyuhai"}]
    riichi = seat.reply({"type": "reach", "actor": 0}, ask)
    assert isinstance(riichi, Ask) and riichi.kind == "reach"
    assert riichi.event == {"type": "reach", "actor": 0} and riichi.default == {"type": "dapai", "data": "z2_*"}
    assert [(a["pai"], a["tsumogiri"]) for a in riichi.actions] == [("S", False), ("S", True)]
    with pytest.raises(Refused, match="after reach the discard must keep your hand ready: S"):
        seat.reply(D("1m"), riichi)
    with pytest.raises(Refused, match="none: your reach"):
        seat.reply({"type": "none"}, riichi)
    with pytest.raises(Refused, match="reach: not an answer to your reach"):
        seat.reply({"type": "reach", "actor": 0}, riichi)
    assert seat.reply(D("S", tsumogiri=True), riichi) == {"type": "dapai", "data": "z2_*"}
    # The declarer's own riichi discard: reach was sent already; the others get it with the dahai.
    assert seat.events({"type": "dapai", "data": {"l": 0, "p": "z2_*"}}) == [
        {"type": "dahai", "actor": 0, "pai": "S", "tsumogiri": True}]
    other, _ = seat_at(menfeng=1, drawn=None)
    other.events({"type": "zimo", "data": {"l": 0, "p": ""}})
    assert other.events({"type": "dapai", "data": {"l": 0, "p": "z2_*"}}) == [
        {"type": "reach", "actor": 0}, {"type": "dahai", "actor": 0, "pai": "S", "tsumogiri": True}]
    assert other.events({"type": "zimo", "data": {"l": 1, "p": "m4"}}) == [
        {"type": "reach_accepted", "actor": 0, "deltas": [-1000, 0, 0, 0], "scores": [24000, 25000, 25000, 25000]},
        {"type": "tsumo", "actor": 1, "pai": "4m"}]


def test_red_fives_are_their_own_tiles():
    seat, frame = seat_at("m055p456s789z1122", "m5")
    legal = [{"type": "dapai", "params": [p]} for p in ("m0", "m5", "m5_", "p4")]
    ask = asked(seat, frame, legal, "tsumo")
    assert seat.reply(D("5mr"), ask) == {"type": "dapai", "data": "m0"}
    assert seat.reply(D("5m"), ask) == {"type": "dapai", "data": "m5"}
    assert seat.reply(D("5m", tsumogiri=True), ask) == {"type": "dapai", "data": "m5_"}
    with pytest.raises(Refused, match="tsumogiri is true but 5mr is not the tile you drew"):
        seat.reply(D("5mr", tsumogiri=True), ask)
    legal = [{"type": "dapai", "params": [p]} for p in ("m0", "m5_", "p4")]
    with pytest.raises(Refused, match="tsumogiri is false but the only 5m you hold is the tile you drew"):
        seat.reply(D("5m"), asked(seat, frame, legal, "tsumo"))


# South (seat 1) holds 3m 5mr 5m 6m 7m; East (seat 0, its kamicha) discards 4m.
CALL_HAND = "m30567p456s789z11"
CHI_LEGAL = [{"type": "hule", "params": [], "allowed": False, "reason": "furiten: a wait is in your own discards"},
             {"type": "fulou", "params": ["m34-5"]}, {"type": "fulou", "params": ["m34-0"]},
             {"type": "fulou", "params": ["m4-56"]}, {"type": "fulou", "params": ["m4-06"]},
             {"type": "pass", "params": []}]


def call_seat() -> tuple[MjaiSeat, Ask]:
    seat, _ = seat_at(CALL_HAND, None, menfeng=1)
    seat.events({"type": "zimo", "data": {"l": 0, "p": ""}})
    frame = {"type": "dapai", "data": {"l": 0, "p": "m4"}}
    assert seat.events(frame) == [{"type": "dahai", "actor": 0, "pai": "4m", "tsumogiri": False}]
    return seat, asked(seat, frame, CHI_LEGAL, "call")


CHI = {"type": "chi", "actor": 1, "target": 0, "pai": "4m"}


@pytest.mark.parametrize(("action", "says"), [
    ({**CHI, "consumed": ["3m", "5m"]}, "m34-5"),
    ({**CHI, "consumed": ["3m", "5mr"]}, "m34-0"),
    ({**CHI, "consumed": ["5m", "6m"]}, "m4-56"),
    ({**CHI, "consumed": ["6m", "5mr"]}, "m4-06"),  # in any order
    ({**CHI, "consumed": ["5mr", "5mr"]}, "consumed 5mr 5mr are not in your hand"),
    ({**CHI, "consumed": ["2m", "3m"]}, "consumed 2m 3m are not in your hand"),
    ({**CHI, "consumed": ["5m", "7m"]}, "chi: no such call now"),
    ({**CHI, "target": 2, "consumed": ["5m", "6m"]}, "target must be 0 (the discarder), not 2"),
    ({"type": "chi", "actor": 1, "pai": "4m", "consumed": ["5m", "6m"]}, "target missing"),
    ({**CHI, "pai": "5m", "consumed": ["3m", "4m"]}, "pai must be 4m, the tile discarded"),
    ({**CHI, "consumed": ["5m"]}, "list of 2 tiles"),
    ({**CHI, "consumed": "5m6m"}, "list of 2 tiles"),
    ({**CHI, "consumed": ["5m", "x"]}, "consumed: 'x' is not an mjai tile"),
    ({"type": "pon", "actor": 1, "target": 0, "pai": "4m", "consumed": ["4m", "4m"]}, "are not in your hand"),
    ({"type": "daiminkan", "actor": 1, "target": 0, "pai": "4m", "consumed": ["4m", "4m", "4m"]},
     "are not in your hand"),
    ({"type": "hora", "actor": 1, "target": 0, "pai": "4m"}, "hora: furiten: a wait is in your own discards"),
    ({"type": "hora", "actor": 1, "target": 1, "pai": "4m"}, "target must be 0 (the discarder)"),
    (D("1m", actor=1), "dahai: not an answer to another player's discard"),
    ({"type": "reach", "actor": 1}, "reach: not an answer to another player's discard"),
    ({"type": "ankan", "actor": 1, "consumed": ["4m"] * 4}, "ankan: not an answer to another player's discard"),
    ({**CHI, "actor": 0, "consumed": ["5m", "6m"]}, "actor must be 1"),
])
def test_answers_to_a_discard(action, says):
    seat, ask = call_seat()
    if re.fullmatch(r"m[0-9-]+", says):
        assert seat.reply(action, ask) == {"type": "fulou", "data": says}
    else:
        with pytest.raises(Refused, match=re.escape(says)):
            seat.reply(action, ask)


def test_a_pass_and_the_actions_offered_on_a_discard():
    seat, ask = call_seat()
    assert seat.reply({"type": "none"}, ask) == {"type": ""}
    assert ask.actions[0] == {"type": "none"} and all(a["type"] != "hora" for a in ask.actions)
    assert {**CHI, "consumed": ["3m", "5mr"]} in ask.actions and len(ask.actions) == 5
    assert ask.hinted()["possible_actions"] == ask.actions[1:]


def test_chi_only_from_the_left():
    # West (seat 2): East (seat 0) is its toimen.
    seat, _ = seat_at(CALL_HAND, None, menfeng=2)
    seat.events({"type": "zimo", "data": {"l": 0, "p": ""}})
    frame = {"type": "dapai", "data": {"l": 0, "p": "m5"}}
    seat.events(frame)
    ask = asked(seat, frame, [{"type": "fulou", "params": ["m505="]}, {"type": "pass", "params": []}], "call")
    with pytest.raises(Refused, match=re.escape("chi: only from the player on your left (kamicha, seat 1)")):
        seat.reply({"type": "chi", "actor": 2, "target": 0, "pai": "5m", "consumed": ["6m", "7m"]}, ask)
    assert seat.reply({"type": "pon", "actor": 2, "target": 0, "pai": "5m", "consumed": ["5mr", "5m"]}, ask) == {
        "type": "fulou", "data": "m505="}
    with pytest.raises(Refused, match="pon: consumed 5m 5m are not in your hand"):
        seat.reply({"type": "pon", "actor": 2, "target": 0, "pai": "5m", "consumed": ["5m", "5m"]}, ask)


def test_a_discard_after_a_call_and_kuikae():
    seat, ask = call_seat()
    assert seat.reply({**CHI, "consumed": ["5m", "6m"]}, ask) == {"type": "fulou", "data": "m4-56"}
    frame = {"type": "fulou", "data": {"l": 1, "m": "m4-56"}}
    assert seat.events(frame) == [{**CHI, "consumed": ["5m", "6m"]}]
    legal = [{"type": "dapai", "params": [p]} for p in ("m3", "m0", "p4", "p5", "p6", "s7", "s8", "s9", "z1")]
    ask = asked(seat, frame, legal + [{"type": "pass", "params": []}], "dahai")
    assert seat.reply(D("5mr", actor=1), ask) == {"type": "dapai", "data": "m0"}
    with pytest.raises(Refused, match="dahai 7m: kuikae"):
        seat.reply(D("7m", actor=1), ask)
    with pytest.raises(Refused, match="dahai 5m: not in your hand"):
        seat.reply(D("5m", actor=1), ask)
    with pytest.raises(Refused, match="tsumogiri must be false after a call"):
        seat.reply(D("4p", tsumogiri=True, actor=1), ask)
    with pytest.raises(Refused, match="none: your call"):
        seat.reply({"type": "none"}, ask)
    assert seat.events({"type": "dapai", "data": {"l": 1, "p": "m0"}})[-1]["pai"] == "5mr"
    assert +seat.hand == Counter(["m3", "m7", "p4", "p5", "p6", "s7", "s8", "s9", "z1", "z1"])


def test_kans_are_named_by_their_kind():
    seat, frame = seat_at("m5550p456s789z112", "z1")
    legal = DRAW_LEGAL + [{"type": "gang", "params": ["m5550"]}]
    ask = asked(seat, frame, legal, "tsumo")
    assert {"type": "ankan", "actor": 0, "consumed": ["5m", "5m", "5m", "5mr"]} in ask.actions
    for consumed in (["5m", "5m", "5m", "5mr"], ["5mr", "5m", "5m", "5m"], ["5m"] * 4):
        assert seat.reply({"type": "ankan", "actor": 0, "consumed": consumed}, ask) == {"type": "gang",
                                                                                          "data": "m5550"}
    legal = [{"type": "gang", "params": ["z111+1"]}, {"type": "dapai", "params": ["m5"]}]
    seat2, frame2 = seat_at("m5p456s789z1112", "z1")  # the pon of East as if called (a kakan's ask)
    ask = asked(seat2, frame2, legal, "tsumo")
    assert {"type": "kakan", "actor": 0, "pai": "E", "consumed": ["E", "E", "E"]} in ask.actions
    assert seat2.reply({"type": "kakan", "actor": 0, "pai": "E"}, ask) == {"type": "gang", "data": "z111+1"}
    assert seat2.reply({"type": "kakan", "actor": 0, "pai": "E", "consumed": ["E"] * 3}, ask)["data"] == "z111+1"
    with pytest.raises(Refused, match="consumed is the pon's three tiles"):
        seat2.reply({"type": "kakan", "actor": 0, "pai": "E", "consumed": ["S"] * 3}, ask)


def test_kan_events_and_their_dora():
    """ankan: dora at once, before the replacement draw; kakan (カンドラ後乗せ): just before the
    next discard, after its reach; a second kan first: before the second replacement draw."""
    seat, _ = seat_at(menfeng=1, drawn=None)
    feed = seat.stream
    assert feed([{"type": "zimo", "data": {"l": 0, "p": ""}}, {"type": "gang", "data": {"l": 0, "m": "m5550"}},
                 {"type": "kaigang", "data": {"baopai": "p1"}}, {"type": "gangzimo", "data": {"l": 0, "p": ""}}]) == [
        {"type": "tsumo", "actor": 0, "pai": "?"}, {"type": "ankan", "actor": 0, "consumed": ["5m", "5m", "5m", "5mr"]},
        {"type": "dora", "dora_marker": "1p"}, {"type": "tsumo", "actor": 0, "pai": "?"}]
    assert feed([{"type": "gang", "data": {"l": 0, "m": "z111=1"}}, {"type": "gangzimo", "data": {"l": 0, "p": ""}},
                 {"type": "kaigang", "data": {"baopai": "p2"}}, {"type": "gang", "data": {"l": 0, "m": "z222-2"}},
                 {"type": "gangzimo", "data": {"l": 0, "p": ""}}, {"type": "kaigang", "data": {"baopai": "p3"}},
                 {"type": "dapai", "data": {"l": 0, "p": "s1*"}}]) == [
        {"type": "kakan", "actor": 0, "pai": "E", "consumed": ["E", "E", "E"]},
        {"type": "tsumo", "actor": 0, "pai": "?"},
        {"type": "kakan", "actor": 0, "pai": "S", "consumed": ["S", "S", "S"]},
        {"type": "dora", "dora_marker": "2p"}, {"type": "tsumo", "actor": 0, "pai": "?"},
        {"type": "reach", "actor": 0}, {"type": "dora", "dora_marker": "3p"},
        {"type": "dahai", "actor": 0, "pai": "1s", "tsumogiri": False}]


def test_chankan_and_the_hand_end():
    seat, _ = seat_at(menfeng=1, drawn=None)
    seat.events({"type": "zimo", "data": {"l": 0, "p": ""}})
    frame = {"type": "gang", "data": {"l": 0, "m": "z222=2"}}
    assert seat.events(frame) == [{"type": "kakan", "actor": 0, "pai": "S", "consumed": ["S", "S", "S"]}]
    ask = asked(seat, frame, [{"type": "hule", "params": []}, {"type": "pass", "params": []}], "chankan")
    assert {"type": "hora", "actor": 1, "target": 0, "pai": "S"} in ask.actions
    assert seat.reply({"type": "hora", "actor": 1, "target": 0, "pai": "S"}, ask) == {"type": "hule"}
    assert seat.reply({"type": "none"}, ask) == {"type": ""}
    with pytest.raises(Refused, match="target must be 0"):
        seat.reply({"type": "hora", "actor": 1, "target": 1}, ask)
    with pytest.raises(Refused, match="not an answer to another player's kakan"):
        seat.reply({"type": "pon", "actor": 1, "target": 0, "pai": "S", "consumed": ["S", "S"]}, ask)
    frame = {"type": "pingju", "data": {"name": "九種九牌", "shoupai": ["m19p19s19z1234567", "", "", ""],
                                        "fenpei": [0, 0, 0, 0]}}
    (event,) = seat.events(frame)
    assert event["reason"] == "kyushukyuhai" and event["actor"] == 0 and event["tenpais"] == [False] * 4
    assert event["tehais"][0][:2] == ["1m", "9m"] and event["tehais"][1] == ["?"] * 13
    ask = asked(seat, frame, [{"type": "pass", "params": []}], "end")
    assert seat.reply({"type": "none"}, ask) == {"type": ""}
    with pytest.raises(Refused, match="dahai: not an answer to the hand's end"):
        seat.reply(D("1m", actor=1), ask)
    assert seat.events({"type": "jieju", "data": {"defen": [1, 2, 3, 4]}}) == [
        {"type": "end_kyoku"}, {"type": "end_game", "scores": [1, 2, 3, 4]}]


def test_out_of_turn_answers():
    seat, _ = seat_at(menfeng=1, drawn=None)
    seat.events({"type": "zimo", "data": {"l": 0, "p": ""}})
    assert seat.reply({"type": "none"}, None) is None
    with pytest.raises(Refused, match="nothing is asked of you now"):
        seat.reply(D("1m", actor=1), None)
    with pytest.raises(Refused, match="nothing is asked of you now"):
        seat.reply({"type": "hora", "actor": 1, "target": 0}, None)
    frame = {"type": "zimo", "data": {"l": 1, "p": "m1"}}
    seat.events(frame)
    assert seat.question(frame, []) is None  # the game does not wait for it
    with pytest.raises(ValueError, match="events"):
        seat.question({"type": "zimo", "data": {"l": 1, "p": "m2"}}, DRAW_LEGAL)


def test_a_tenpai_declaration_is_a_none():
    seat, _ = seat_at()
    frame = {"type": "dapai", "data": {"l": 0, "p": "z2"}}
    seat.events(frame)
    ask = asked(seat, frame, [{"type": "daopai", "params": []}, {"type": "pass", "params": []}], "tenpai")
    assert ask.actions == [{"type": "none"}]
    assert seat.reply({"type": "none"}, ask) == {"type": "daopai"}


def test_yakus_are_gimites_names():
    data = {"hupai": [{"name": "場風 東", "fanshu": 1}, {"name": "自風 南", "fanshu": 1},
                      {"name": "翻牌 白", "fanshu": 1}, {"name": "翻牌 中", "fanshu": 1},
                      {"name": "ドラ", "fanshu": 2}]}
    assert MjaiSeat.yakus(data) == [["bakaze", 1], ["jikaze", 1], ["sangenpai", 2], ["dora", 2]]
    data = {"hupai": [{"name": "大三元", "fanshu": "*", "baojia": "+"}, {"name": "字一色", "fanshu": "**"}]}
    assert MjaiSeat.yakus(data) == [["daisangen", 100], ["tsuiso", 200]]
    names = {name for game_ in GAMES for e in game(game_).events[0] if e["type"] == "hora" for name, _ in e["yakus"]}
    assert names and all(name.isascii() for name in names)


def test_tiles_are_the_exports():
    for suit in "mpsz":
        for digit in "0123456789":
            p = suit + digit
            if (suit == "z" and not "1" <= digit <= "7"):
                continue
            assert pai(p) == export_tile(p)
            assert majiang_tile(pai(p)) == p
    for bad in ("5z", "0m", "10m", "5Mr", "", "?", 5, None, "E "):
        with pytest.raises(ValueError):
            majiang_tile(bad)


# -- the doc --------------------------------------------------------------------------------------


def test_the_docs_examples_are_well_formed():
    """Every JSON line the doc shows as sent by the server (``S→``) is a well-formed event or
    hello/error; every line shown as sent by a client (``C→``) reads as an answer."""
    doc = (Path(__file__).resolve().parents[3] / "docs" / "protocols" / "mjai.md").read_text(encoding="utf-8")
    read = Counter()
    for line in doc.splitlines():
        line = line.strip()
        for side in ("S→ ", "C→ "):
            if line.startswith(side) and "…" not in line:
                obj = json.loads(line[len(side):].split("   ")[0])
                if side == "S→ " and obj["type"] not in ("hello", "error"):
                    check_event(obj)
                elif side == "C→ ":
                    assert obj["type"] in ("join", "none", "dahai", "reach", "hora", "chi", "pon", "daiminkan",
                                           "ankan", "kakan", "ryukyoku")
                read[side] += 1
    assert read["S→ "] > 20 and read["C→ "] > 10
